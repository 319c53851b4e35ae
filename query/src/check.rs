//! `query check`: a move list graded against the exact distances, as
//! Python's `check` and the page's `/api/check` grade it: whether every
//! move is legal, whether the list reaches the goal, how much longer than
//! the shortest it is, and which moves went away from the goal.

use crate::print::{print, Format, Layout};
use crate::search::{with_progress, TimeoutArg};
use crate::solve::UnsolvablePair;
use crate::{GoalArg, Outcome};
use anyhow::{Context, Result};
use memmap2::Mmap;
use npuzzle::analysis::{grade_in, read_steps_on, GradeBatch, Graded, Step};
use npuzzle::io::BatchFormat;
use npuzzle::{Board, Cell, Database, Metric};
use serde::Serialize;
use std::io::{self, Write};

/// Arguments of `query check`.
#[derive(clap::Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Give up after SECONDS of search in all (pattern databases search every position the \
     moves pass through; a complete table answers at once) [default: no limit]"
)))]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text, as the page's /api/check gives it: {\"start\", \"goal\", \
     \"moves\", \"legal\", \"illegal_move\", \"reaches_goal\", \"length\", \"optimal\", \
     \"excess\", \"end\", \"remaining\", \"away\", \"reversed_reaches_goal\", \
     \"goal_reached_after\"}"
)))]
pub struct CheckArgs {
    /// The start, then the moves: the blank's (`ULDR`), slides as the multi-tile metric writes
    /// them (`U3 L R2`), or the tiles moved (`6 5 2`). Quote each when written with spaces;
    /// a start written as one word per tile may stand unquoted before the moves.
    #[arg(required_unless_present = "batch", num_args = 1.., action = clap::ArgAction::Append, value_names = ["START", "MOVES"])]
    words: Vec<String>,
    #[command(flatten)]
    goal: GoalArg,
    #[arg(long)]
    json: bool,
    /// Grades a move list a line from standard input, a class's answers: `START<TAB>MOVES` (or
    /// `;` between, and a GOAL after another), or the start in one word and the moves after
    /// it. One record a line, in input order: JSON lines (each --json's object), or with
    /// --csv rows of the same columns for every line. Exit code 2 if a line was not graded.
    #[arg(long, conflicts_with = "words")]
    batch: bool,
    /// With --batch: CSV rows instead of JSON lines (start, goal, written, legal,
    /// illegal_move, reaches_goal, length, optimal, excess, end, remaining, away,
    /// reversed_reaches_goal, goal_reached_after, reason, error).
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// With --batch: threads to spread the lines over, at most 4 per core [default: one per
    /// core].
    #[arg(long, value_name = "N", value_parser = crate::batch::parse_threads, allow_negative_numbers = true)]
    threads: Option<crate::batch::Threads>,
    #[command(flatten)]
    timeout: TimeoutArg,
}

impl CheckArgs {
    /// The start's text and the moves' text: two words, a start written
    /// one word per tile and the moves after it, or a start in one word
    /// and the moves a word each (`123468750 U L D R`, `… 8 6 5 8`).
    fn split(&self, shape: npuzzle::Shape) -> Result<(String, String)> {
        let words = &self.words;
        if let [start, moves] = &words[..] {
            return Ok((start.clone(), moves.clone()));
        }
        let cells = shape.cells();
        let numbers = words
            .iter()
            .take(cells)
            .all(|w| npuzzle::io::is_tile_number(w));
        if words.len() > cells && numbers {
            return Ok((words[..cells].join(" "), words[cells..].join(" ")));
        }
        // A start alone, in one word or a word per tile.
        if words.len() == 1 || (words.len() == cells && numbers) {
            anyhow::bail!(
                "check takes the start and then the moves, and got no moves: give them after \
                 the start (query check 867254301 RUUL; \"\" for none)"
            );
        }
        // An unquoted `--goal 1 2 3 …` left its tiles here: say that.
        if self
            .goal
            .goal
            .as_deref()
            .is_some_and(npuzzle::io::is_tile_number)
        {
            self.goal.start_of(words, shape)?;
        }
        if words.len() > 2 && npuzzle::parse_board(&words[0], shape).is_ok() {
            return Ok((words[0].clone(), words[1..].join(" ")));
        }
        // A start a word per tile with one tile left out, then the moves:
        // its tiles are what is wrong.
        let tiles = words
            .iter()
            .take_while(|w| npuzzle::io::is_tile_number(w))
            .count();
        if tiles == cells - 1 && tiles < words.len() {
            crate::board_arg(&words[..tiles].join(" "), shape, "start")?;
        }
        anyhow::bail!(
            "check takes two arguments, the start and the moves, and got {}: quote a board or \
             moves written with spaces (query check \"8 6 7 2 5 4 3 0 1\" \"RUUL\")",
            words.len()
        )
    }
}

/// Why a grading stopped by its time limit said no more: the command
/// line's and the server's words.
pub fn grading_stopped() -> String {
    format!(
        "{}, and a search for one stopped",
        npuzzle::analysis::GRADING_NEEDS
    )
}

/// `query check`: exit 0 when the moves reach the goal, 1 when they do not
/// (or the start cannot), 2 for input that cannot be read.
pub fn run(
    db: &Database<Mmap>,
    args: &CheckArgs,
    out: &mut (impl Write + Send),
) -> Result<Outcome> {
    if args.batch {
        return run_batch(db, args, out);
    }
    // Checked here: clap let `requires = "batch"` on these pass (measured;
    // beside the words' `required_unless_present = "batch"`).
    if let Some(flag) = [(args.csv, "--csv"), (args.threads.is_some(), "--threads")]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    {
        anyhow::bail!(
            "{flag} goes with --batch, which grades a move list a line from standard input; \
             one list on the command line is graded by itself (--json for JSON)"
        );
    }
    let shape = db.shape();
    let (start, moves) = args.split(shape)?;
    let start = args.goal.start_of(&[start], shape)?;
    let goal = args.goal.board(shape)?;
    let steps = read_steps_on(&moves, shape).map_err(|e| {
        // `check START GOAL`, as a batch line pairs them.
        match npuzzle::parse_board(&moves, shape) {
            Ok(_) => anyhow::anyhow!(
                "the moves, {moves}, are a board: a goal is given with --goal, and the moves \
                 after the start (START MOVES --goal {moves})"
            ),
            Err(_) => anyhow::anyhow!("bad moves: {e}"),
        }
    })?;
    let format = Format::json_or_text(args.json);
    let timeout = args.timeout.timeout;
    let graded = with_progress(timeout, true, "moves ≤", |options| {
        grade_in(db, (&start, &goal), &steps, options)
    });
    let graded = match graded {
        Ok(graded) => graded,
        Err(e) => match e.unsolvable() {
            Some(why) => {
                print(&UnsolvablePair::new(&start, &goal, why), format, out)?;
                return Ok(Outcome::No);
            }
            None => {
                return Err(crate::search::distance_stopped(
                    (db.shape(), true),
                    e,
                    timeout,
                    &grading_stopped(),
                ));
            }
        },
    };
    let report = Report {
        graded: &graded,
        steps: &steps,
        metric: db.metric(),
    };
    print(&report, format, out)?;
    Ok(match graded.reaches_goal {
        true => Outcome::Success,
        false => Outcome::No,
    })
}

/// A graded list: its JSON is the grading's, its text says it in words.
#[derive(Serialize)]
#[serde(transparent)]
struct Report<'a> {
    graded: &'a Graded,
    #[serde(skip)]
    steps: &'a [Step],
    #[serde(skip)]
    metric: Metric,
}

impl Layout for Report<'_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let g = self.graded;
        let counted = match self.metric {
            Metric::SingleTile => "",
            Metric::MultiTile => " (multi-tile)",
        };
        let moves = format!("{}{counted}", crate::plural(g.length as u64, "move"));
        let (reach, end) = match g.length {
            1 => ("reaches", "ends"),
            _ => ("reach", "end"),
        };
        let shortest = crate::plural(g.optimal.into(), "move");
        let remaining = crate::plural(g.remaining.into(), "move");
        // Moves are numbered as written; where that is not how they count
        // (slides, or moves that make one slide), the text says so.
        let as_written = match self.steps.len() == g.length {
            true => "",
            false => " as written",
        };
        write!(out, "{} -> {}: ", g.start, g.goal)?;
        match (g.excess, g.illegal_move) {
            (Some(0), _) => writeln!(out, "{moves} {reach} the goal: a shortest solution")?,
            (Some(more), _) => writeln!(
                out,
                "{moves} {reach} the goal, {more} more than the shortest ({shortest})"
            )?,
            (None, Some(1)) => writeln!(
                out,
                "move 1{as_written} is illegal: {}; the start is {shortest} from the goal",
                illegal(self.steps[0], &g.end),
            )?,
            (None, Some(number)) => writeln!(
                out,
                "move {number}{as_written} is illegal: {}; the moves before it end at {}, \
                 {remaining} from the goal (the shortest from the start is {shortest})",
                illegal(self.steps[number - 1], &g.end),
                g.end,
            )?,
            (None, None) => writeln!(
                out,
                "{moves} {end} at {}, {remaining} from the goal (the shortest from the \
                 start is {shortest})",
                g.end,
            )?,
        }
        // Moves past the goal: a solver that did not stop there.
        match g.goal_reached_after {
            Some(0) if !self.steps.is_empty() => {
                writeln!(out, "the start is the goal: none of the moves is needed")?
            }
            Some(number) if number < self.steps.len() => writeln!(
                out,
                "the goal is reached after move {number}{as_written}: the moves after it are \
                 not needed"
            )?,
            _ => {}
        }
        if g.reversed_reaches_goal {
            writeln!(
                out,
                "read as the ways the tiles slide, these moves reach the goal: here U, D, L and R \
                 are the blank's moves (U: the blank goes up, the tile above it slides down)"
            )?;
        }
        if !g.away.is_empty() {
            let mut numbers: Vec<String> = (g.away.iter().take(AWAY_SHOWN))
                .map(usize::to_string)
                .collect();
            let (noun, verb) = match g.away.len() {
                1 => ("move", "goes"),
                _ => ("moves", "go"),
            };
            // A long list of wrong ways: the first ones, and how many more
            // (`--json` has them all).
            if g.away.len() > AWAY_SHOWN {
                numbers.push(format!("… and {} more", g.away.len() - AWAY_SHOWN));
            }
            writeln!(
                out,
                "{noun} {}{as_written} {verb} farther from the goal",
                numbers.join(", ")
            )?;
        }
        Ok(())
    }
}

/// `query check --batch`: each line graded, in input order; exit 2 if a
/// line could not be.
fn run_batch(
    db: &Database<Mmap>,
    args: &CheckArgs,
    out: &mut (impl Write + Send),
) -> Result<Outcome> {
    let threads = crate::batch::threads_or_cores(args.threads.as_ref())?;
    let format = match args.csv {
        true => BatchFormat::Csv,
        false => BatchFormat::Jsonl,
    };
    let batch = GradeBatch {
        db,
        goal: args.goal.board(db.shape())?,
        timeout: args.timeout.timeout,
    };
    let input = crate::stdio::stdin();
    let summary = batch
        .run(format, threads, input, out)
        .context("grading stopped")?;
    Ok(crate::batch::report(summary))
}

/// The most moves that went farther that the text names one by one.
const AWAY_SHOWN: usize = 20;

/// Why `step` cannot be played on `board`.
fn illegal(step: Step, board: &Board) -> String {
    let blank = Cell::of(board.shape(), board.blank()).name();
    match step {
        Step::Blank(m) => format!(
            "{} (the blank at {blank} cannot move {})",
            m.letter(),
            way(m)
        ),
        Step::Slide(m, cells) => format!(
            "{}{cells} (the blank at {blank} cannot move {} {cells} cells)",
            m.letter(),
            way(m)
        ),
        Step::Tile(tile) => format!("tile {tile} (it is not next to the blank, at {blank})"),
    }
}

/// The way the blank goes on move `m`: the other way from its tile.
fn way(m: npuzzle::Move) -> &'static str {
    m.opposite().tile_direction()
}
