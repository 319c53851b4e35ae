//! A printable worksheet: seeded puzzles drawn as boards, and an answer
//! key on a page of its own (each puzzle's distance and one optimal
//! solution). `query random --worksheet FILE.html` writes it, and the
//! page's "Print" link gets the same HTML from `query serve`.
//!
//! The HTML holds no script. Boards are inline SVG drawn with attributes
//! only, so that the served copy keeps to the server's content security
//! policy (no inline styles): it links `/worksheet.css`, while a file
//! written from the command line carries the same CSS inline.

use anyhow::Context;
use npuzzle::analysis::Sample;
use npuzzle::io::{Replacement, Writes};
use npuzzle::rules::move_string;
use npuzzle::{AnswerError, Board, CompleteTables, Database, Move, Shape};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The worksheet's CSS: screen and print.
pub const CSS: &str = include_str!("serve/page/worksheet.css");

/// The most puzzles one worksheet holds: ten pages' worth and far more.
pub const MAX_PUZZLES: usize = 1000;

/// Which of a worksheet's two parts a page holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Part {
    /// The puzzles, and the answer key on a page of its own after them.
    #[default]
    Both,
    /// The puzzles alone: a sheet to hand out.
    Puzzles,
    /// The answer key alone.
    Key,
}

/// Where the CSS comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Styles {
    /// In a `<style>` element: a file that stands alone.
    Inline,
    /// From `/worksheet.css`: served under the page's security policy.
    Linked,
}

/// The drawn puzzles, each with one optimal solution, and how they were
/// drawn (the seed and the distances), for the heading.
pub struct Worksheet {
    goal: Board,
    seed: u64,
    /// The distances drawn from (always given for a worksheet).
    distances: [u32; 2],
    puzzles: Vec<(Board, Vec<Move>)>,
    /// The pattern partition whose walks found the puzzles, where they
    /// did: another partition draws others with the same seed.
    partition: Option<String>,
}

impl Worksheet {
    /// One optimal solution for each position of `drawn`, looked up.
    fn solve(db: &CompleteTables<memmap2::Mmap>, drawn: &Sample) -> Result<Self, AnswerError> {
        let solutions = (drawn.positions.iter())
            .map(|p| db.solve(&p.start, &drawn.goal))
            .collect::<Result<_, AnswerError>>()?;
        Ok(Worksheet::of(drawn, solutions))
    }

    /// The positions of `drawn` with their answer key: the `solutions` a
    /// pattern database's walks found with them, or on complete tables
    /// (`solutions` none) solutions looked up.
    pub fn with_key(
        db: &Database<memmap2::Mmap>,
        drawn: &Sample,
        solutions: Option<Vec<Vec<Move>>>,
    ) -> Result<Self, AnswerError> {
        let sheet = match solutions {
            Some(solutions) => Worksheet::of(drawn, solutions),
            None => Worksheet::solve(db.complete()?, drawn)?,
        };
        Ok(Worksheet {
            partition: db.partition().map(String::from),
            ..sheet
        })
    }

    /// The positions of `drawn` with a shortest solution of each, in
    /// order (the walks of a pattern database found them with the
    /// positions).
    fn of(drawn: &Sample, solutions: Vec<Vec<Move>>) -> Self {
        let starts = drawn.positions.iter().map(|p| p.start);
        Worksheet {
            goal: drawn.goal,
            seed: drawn.seed,
            distances: drawn.distances.unwrap_or_default(),
            puzzles: starts.zip(solutions).collect(),
            partition: None,
        }
    }

    /// The page of `part`: the puzzles with their key after them, or one
    /// of the two alone.
    pub fn html(&self, styles: Styles, part: Part) -> String {
        let shape = self.goal.shape();
        let distance = match self.distances {
            [a, b] if a == b => format!("{a} moves"),
            [a, b] => format!("{a} to {b} moves"),
        };
        let count = self.puzzles.len();
        let title = format!(
            "{count} {shape} puzzle{}, {distance} from the goal (seed {})",
            if count == 1 { "" } else { "s" },
            self.seed
        );
        let title = match part {
            Part::Key => format!("Answer key: {title}"),
            Part::Both | Part::Puzzles => title,
        };
        let mut html = String::with_capacity(2000 + count * 1500);
        html.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        // What lets a later worksheet replace this one, and nothing else.
        html.push_str(npuzzle::io::HTML_MARK);
        html.push('\n');
        let _ = writeln!(html, "<title>Worksheet: {title}</title>");
        match styles {
            Styles::Inline => {
                let _ = writeln!(html, "<style>\n{CSS}</style>");
            }
            Styles::Linked => html.push_str("<link rel=\"stylesheet\" href=\"/worksheet.css\">\n"),
        }
        html.push_str("</head>\n<body>\n<main>\n");
        let _ = writeln!(html, "<h1>{title}</h1>");
        let task = match part {
            Part::Key => "The answers to the puzzles",
            Part::Both | Part::Puzzles => {
                "Slide the tiles to reach the goal in as few moves as you can"
            }
        };
        let from = match &self.partition {
            Some(p) => {
                format!(" with pattern databases of the {p} partition (another draws others)")
            }
            None => String::new(),
        };
        let _ = writeln!(
            html,
            "<p>{task}. Drawn by <code>{}</code>{from}.</p>",
            self.command()
        );
        let print = match part {
            Part::Both => "Print this page with your browser (Ctrl-P): the answer key starts on a page of its own.",
            Part::Puzzles | Part::Key => "Print this page with your browser (Ctrl-P).",
        };
        let _ = writeln!(html, "<p class=\"screen-only\">{print}</p>");
        if part != Part::Key {
            self.puzzles_html(&mut html);
        }
        if part != Part::Puzzles {
            self.key_html(&mut html);
        }
        html.push_str("</main>\n</body>\n</html>\n");
        html
    }

    /// The command that draws the same puzzles from the same file.
    fn command(&self) -> String {
        let shape = self.goal.shape();
        format!(
            "query{} random --distance {} --count {} --seed {}{}",
            // The default board needs no --board; the others do, or the
            // command would draw 3x3 puzzles.
            match shape == Shape::THREE_BY_THREE {
                true => String::new(),
                false => format!(" --board {shape}"),
            },
            match self.distances {
                [a, b] if a == b => a.to_string(),
                [a, b] => format!("{a}..={b}"),
            },
            self.puzzles.len(),
            self.seed,
            if self.goal == Board::goal(shape) {
                String::new()
            } else {
                // Quoted: a board of two-digit tiles is written with spaces.
                format!(" --goal \"{}\"", self.goal)
            }
        )
    }

    /// A line for the student's name, the goal, then each puzzle drawn with
    /// a line for the answer.
    fn puzzles_html(&self, html: &mut String) {
        html.push_str("<p class=\"answer-line name\">Name: </p>\n");
        html.push_str("<figure class=\"goal\">\n");
        html.push_str(&board_svg(&self.goal, "the goal"));
        let _ = writeln!(
            html,
            "<figcaption>Goal: {}</figcaption>\n</figure>",
            self.goal
        );
        html.push_str("<ol class=\"puzzles\">\n");
        for (i, (start, _)) in self.puzzles.iter().enumerate() {
            let _ = writeln!(
                html,
                "<li class=\"puzzle\"><h2>Puzzle {}</h2>\n{}<p class=\"start\">{start}</p>\n\
                 <p class=\"answer-line\">Your moves: </p></li>",
                i + 1,
                board_svg(start, &format!("puzzle {}", i + 1)),
            );
        }
        html.push_str("</ol>\n");
    }

    /// The answer key: each puzzle's distance and one optimal solution.
    fn key_html(&self, html: &mut String) {
        html.push_str("<section class=\"key\" id=\"answer-key\">\n<h2>Answer key</h2>\n");
        let _ = writeln!(
            html,
            "<p>One optimal solution per puzzle toward the goal {}, as the blank's moves (U, D, \
             L, R: the tile beside the blank slides the other way).</p>\n<table>\n<thead><tr>\
             <th>Puzzle</th><th>Start</th><th>Distance</th><th>One optimal solution</th></tr>\
             </thead>\n<tbody>",
            self.goal
        );
        for (i, (start, moves)) in self.puzzles.iter().enumerate() {
            let _ = writeln!(
                html,
                "<tr><td>{}</td><td class=\"start\">{start}</td><td class=\"distance\">{}</td>\
                 <td class=\"moves\">{}</td></tr>",
                i + 1,
                moves.len(),
                // At the goal already: say so, not an empty cell.
                match moves.is_empty() {
                    true => "(none: the start is the goal)".to_string(),
                    false => move_string(moves),
                }
            );
        }
        html.push_str("</tbody>\n</table>\n</section>\n");
    }

    /// Writes each part into the file [`start`] began for it, then puts
    /// them in place in order: none is put in place unless all were
    /// written, so a sheet and its key stay a pair.
    pub fn write(&self, files: Vec<(Output, Part)>) -> anyhow::Result<()> {
        for (file, part) in &files {
            (file.temp.file())
                .write_all(self.html(Styles::Inline, *part).as_bytes())
                .with_context(|| file.cannot())?;
        }
        for (file, _) in files {
            let context = file.cannot();
            file.temp.commit().context(context)?;
        }
        Ok(())
    }
}

/// A worksheet's file, begun: a temporary file beside the target, renamed
/// over it once written (as databases and charts are written).
pub struct Output {
    temp: Replacement,
    shown: String,
    /// What it holds: "worksheet" or "answer key".
    what: &'static str,
}

impl Output {
    /// The start of every error of writing it.
    fn cannot(&self) -> String {
        format!("cannot write the {} {}", self.what, self.shown)
    }

    /// Whether `other` would write over the same file (links followed).
    pub fn same_file(&self, other: &Output) -> bool {
        self.temp.same_target(&other.temp)
    }
}

/// Begins the worksheet at `path` before any work, so that a name that is
/// not an HTML page's, or a target that is not a regular file (a folder, a
/// device, a pipe), costs nothing.
pub fn start(path: &Path, what: &'static str) -> anyhow::Result<Output> {
    let shown = npuzzle::files::shown_path(path).to_string();
    let html = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    anyhow::ensure!(
        !name.eq_ignore_ascii_case(".html") && !name.eq_ignore_ascii_case(".htm"),
        "cannot write the {what} {shown}: give a name before {name}, as sheet.html"
    );
    anyhow::ensure!(
        html,
        "cannot write the {what} {shown}: a worksheet is an HTML page: give a name ending in .html"
    );
    let temp = Replacement::start(path, ".html", Writes::Document)
        .with_context(|| format!("cannot write the {what} {shown}"))?;
    Ok(Output { temp, shown, what })
}

/// A board drawn as SVG: a square per tile with its number, the gap
/// empty; `name` is its accessible name.
fn board_svg(board: &Board, name: &str) -> String {
    const CELL: usize = 40;
    let shape = board.shape();
    let (w, h) = (shape.cols() * CELL, shape.rows() * CELL);
    let mut svg = format!(
        "<svg class=\"board\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" \
         aria-label=\"{name}: {board}\">"
    );
    for (cell, &tile) in board.cells().iter().enumerate() {
        let (x, y) = (shape.col_of(cell) * CELL, shape.row_of(cell) * CELL);
        if tile == 0 {
            let _ = write!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#ffffff\" \
                 stroke=\"#888888\" stroke-dasharray=\"3 3\"/>"
            );
            continue;
        }
        let _ = write!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"#f3efe6\" \
             stroke=\"#333333\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" \
             font-family=\"sans-serif\" font-size=\"18\" fill=\"#111111\">{tile}</text>",
            x + 1,
            y + 1,
            CELL - 2,
            CELL - 2,
            x + CELL / 2,
            y + CELL / 2 + 6
        );
    }
    svg.push_str("</svg>\n");
    svg
}
