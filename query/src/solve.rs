//! `query solve` and `query distance`.

use crate::numbers::whole;
use crate::print::{print, Format, Layout};
use crate::search::{print_timed_out, with_progress, TimeoutArg};
use crate::Outcome;
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::ShortestSolutions;
use npuzzle::bounded::Weight;
use npuzzle::io::{Answer, Nodes};
use npuzzle::pattern::Stopped;
use npuzzle::{AnswerError, Board, Database, Metric, Move};
use serde::Serialize;
use std::io::{self, Write};
use std::time::Duration;

/// Arguments of `query solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub(crate) pair: crate::PairArgs,
    /// One JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print the board after every move.
    #[arg(long, conflicts_with = "json")]
    pub(crate) boards: bool,
    /// Count every shortest solution, and list some of them (complete tables only).
    #[arg(long, conflicts_with = "boards")]
    pub(crate) all: bool,
    /// With --all: how many solutions to list.
    #[arg(long, default_value_t = 10, requires = "all", value_name = "N", value_parser = whole(0..=usize::MAX), allow_negative_numbers = true)]
    limit: usize,
    /// A solution at most W times as long as the shortest (W from 1 to 100, for example
    /// 1.2), with a lower bound on the shortest that proves it. Searches with pattern
    /// databases where one is found, otherwise with Manhattan distance plus linear
    /// conflicts, which needs no database file: any board up to 6x6.
    #[arg(long, value_name = "W", value_parser = str::parse::<Weight>, conflicts_with = "all", allow_hyphen_values = true)]
    pub(crate) within: Option<Weight>,
    #[command(flatten)]
    pub(crate) timeout: TimeoutArg,
}

/// Arguments of `query distance`.
#[derive(clap::Args)]
pub struct DistanceArgs {
    #[command(flatten)]
    pub(crate) pair: crate::PairArgs,
    /// One JSON object instead of the bare number.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) timeout: TimeoutArg,
}

/// The answer for the pair: one shortest solution, or why there is none,
/// with the nodes searched where a search ran. Past `--timeout`, with
/// `json`, what the search proved is printed to `out` before the error
/// returns.
fn answer(
    db: &Database<Mmap>,
    pair: &crate::PairArgs,
    timeout: &TimeoutArg,
    json: bool,
    out: &mut dyn Write,
) -> Result<Answer> {
    let (start, goal) = pair.boards(db.shape())?;
    let timeout = timeout.timeout;
    let found = search(db, &start, &goal, timeout).map_err(|e| {
        if let AnswerError::Stopped(stopped) = &e {
            // The stop is the error to report; exit code 2 tells of
            // either, and a closed pipe must not turn it into success.
            let _ = print_timed_out(json, out, (&start, &goal), timeout, stopped);
        }
        with_timeout_advice(db, e, timeout)
    })?;
    Ok(match found {
        Ok(solution) => {
            let nodes = db.patterns().map(|_| Nodes::from(&solution));
            Answer::new(start, goal, Ok(solution.moves), nodes).counted_in(db.metric())
        }
        Err(why) => Answer::new(start, goal, Err(&why), None),
    })
}

pub(crate) fn outcome(answer: &Answer) -> Outcome {
    if answer.solvable {
        Outcome::Success
    } else {
        Outcome::No
    }
}

/// `solve`'s answer: its JSON is the answer's, its text the moves, with
/// the board after each when `boards`.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct Solved<'a> {
    pub(crate) answer: &'a Answer,
    #[serde(skip)]
    pub(crate) boards: bool,
}

/// `distance`'s answer: its JSON is the answer's, its text the number.
#[derive(Serialize)]
#[serde(transparent)]
struct Distance<'a>(&'a Answer);

/// `query solve`.
pub fn solve(db: &Database<Mmap>, args: &SolveArgs, out: &mut impl Write) -> Result<Outcome> {
    if args.all {
        // Refused before any search: counting needs every distance.
        db.complete()
            .map_err(|e| crate::needs_complete("solve --all", e))?;
    }
    let answer = answer(db, &args.pair, &args.timeout, args.json, out)?;
    let format = Format::json_or_text(args.json);
    if args.all {
        // Counting, by dynamic programming over the table, and the first
        // `limit` in alphabetical order; an unsolvable start's none, in the
        // same fields, so that a script reads them either way.
        let report = ShortestSolutions::of(&db.goal_table(&answer.goal)?, answer, args.limit)?;
        print(&report, format, out)?;
        return Ok(outcome(&report.answer));
    }
    let boards = args.boards;
    print(
        &Solved {
            answer: &answer,
            boards,
        },
        format,
        out,
    )?;
    Ok(outcome(&answer))
}

impl Layout for Solved<'_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let answer = self.answer;
        let Some(moves) = &answer.moves else {
            return unsolvable(answer, out);
        };
        write_text(answer, moves, self.boards, out)
    }
}

impl Layout for Distance<'_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0.distance {
            Some(distance) => writeln!(out, "{distance}"),
            None => unsolvable(self.0, out),
        }
    }
}

fn unsolvable(answer: &Answer, out: &mut dyn Write) -> io::Result<()> {
    let why = answer.reason.as_deref().unwrap_or_default();
    writeln!(out, "unsolvable: {why}")
}

/// A start that cannot reach its goal, as the commands that report
/// something else about a solvable pair (`compare`, `heuristics START`,
/// `check`) report it: in text as `solve` does, in JSON as `solve --json`
/// does (`"solvable":false`, and no distance or moves), so that every
/// command and the server's 422 give one shape.
#[derive(Serialize)]
pub(crate) struct UnsolvablePair {
    start: String,
    goal: String,
    solvable: bool,
    distance: Option<u32>,
    moves: Option<String>,
    reason: String,
}

impl UnsolvablePair {
    pub(crate) fn new(start: &Board, goal: &Board, why: &npuzzle::Unsolvable) -> Self {
        UnsolvablePair {
            start: start.to_string(),
            goal: goal.to_string(),
            solvable: false,
            distance: None,
            moves: None,
            reason: why.to_string(),
        }
    }
}

impl Layout for UnsolvablePair {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "unsolvable: {}", self.reason)
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "start,goal,solvable,reason")?;
        let reason = self.reason.replace('"', "\"\"");
        writeln!(out, "{},{},false,\"{reason}\"", self.start, self.goal)
    }
}

/// A solution as `query solve` prints it: the move string, then each move
/// (with the board after it, when `boards`). Under the multi-tile metric a
/// move is a slide, `U3`, and names every tile it moves.
pub(crate) fn write_text(
    answer: &Answer,
    moves: &[Move],
    boards: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let (start, goal, metric) = (&answer.start, &answer.goal, answer.metric);
    if moves.is_empty() {
        return writeln!(out, "{start} is the goal: 0 moves");
    }
    let count = metric.length(moves);
    let plural = if count == 1 { "" } else { "s" };
    let counted = match metric {
        Metric::SingleTile => "",
        Metric::MultiTile => " (multi-tile)",
    };
    let proof = match &answer.within {
        Some(w) => format!(
            ", optimal is at least {} (within {}, {}){}",
            w.lower_bound,
            w.weight(),
            w.heuristic,
            // The bound met: no solution is shorter.
            if w.lower_bound as usize >= count {
                ": a shortest solution"
            } else {
                ""
            }
        ),
        None => String::new(),
    };
    writeln!(
        out,
        "{start} -> {goal}: {count} move{plural}{counted}{proof}"
    )?;
    writeln!(out, "{}", metric.notation(moves))?;
    writeln!(out)?;
    if boards {
        write!(out, "{}", start.grid())?;
    }
    let width = count.to_string().len();
    let mut board = *start;
    for (i, (m, cells)) in metric.moves_of(moves).enumerate() {
        let mut tiles = Vec::with_capacity(cells);
        for _ in 0..cells {
            tiles.push(
                board
                    .tile_moved_by(m)
                    .expect("a solution's moves stay on the board")
                    .to_string(),
            );
            board = board.apply(m).expect("checked above");
        }
        let (name, noun, verb) = match cells {
            1 => (m.letter().to_string(), "tile", "slides"),
            _ => (format!("{}{cells}", m.letter()), "tiles", "slide"),
        };
        writeln!(
            out,
            "{:>width$}. {name}  {noun} {} {verb} {}",
            i + 1,
            tiles.join(", "),
            m.tile_direction()
        )?;
        if boards {
            write!(out, "{}", board.grid())?;
        }
    }
    Ok(())
}

/// `query distance`.
pub fn distance(db: &Database<Mmap>, args: &DistanceArgs, out: &mut impl Write) -> Result<Outcome> {
    let answer = answer(db, &args.pair, &args.timeout, args.json, out)?;
    print(&Distance(&answer), Format::json_or_text(args.json), out)?;
    Ok(outcome(&answer))
}

impl Layout for ShortestSolutions {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let (answer, count) = (&self.answer, self.solutions);
        let Some(distance) = answer.distance else {
            return unsolvable(answer, out);
        };
        let plural = if count == 1 { "" } else { "s" };
        let counted = match answer.metric {
            Metric::SingleTile => "",
            Metric::MultiTile => " (multi-tile)",
        };
        // At the goal, the one solution is no moves: said, not listed as
        // an empty line.
        if distance == 0 {
            return writeln!(
                out,
                "{} is the goal: 0 moves{counted}, 1 shortest solution (no moves)",
                answer.start
            );
        }
        writeln!(
            out,
            "{} -> {}: {}{counted}, {count} shortest solution{plural}",
            answer.start,
            answer.goal,
            crate::plural(distance as u64, "move"),
        )?;
        for moves in &self.listed {
            writeln!(out, "{}", answer.metric.notation(moves))?;
        }
        let listed = self.listed.len() as u128;
        if count > listed {
            writeln!(out, "… and {} more (--limit N lists more)", count - listed)?;
        }
        Ok(())
    }
}

/// Solves: a lookup in complete tables, or a search on every core,
/// showing the bound on a terminal when the search
/// is long. The inner error is the unsolvable case, which is an answer.
fn search(
    db: &Database<Mmap>,
    start: &Board,
    goal: &Board,
    timeout: Option<Duration>,
) -> Result<Result<npuzzle::pattern::Solution, npuzzle::Unsolvable>, AnswerError> {
    let result = with_progress(timeout, true, "moves ≤", |options| {
        db.solve(start, goal, options)
    });
    match result {
        Ok(solution) => Ok(Ok(solution)),
        Err(e) if e.unsolvable().is_some() => Ok(Err(e.unsolvable().expect("matched").clone())),
        Err(e) => Err(e),
    }
}

/// `e`, with what may answer sooner when it is a search past `--timeout`:
/// complete tables, a stronger partition, or `solve --within`.
fn with_timeout_advice(
    db: &Database<Mmap>,
    e: AnswerError,
    timeout: Option<Duration>,
) -> anyhow::Error {
    if !matches!(e, AnswerError::Stopped(Stopped::TimedOut { .. })) {
        return e.into();
    }
    let sooner = match db.patterns().map(|p| (p.shape(), p.partition())) {
        Some((shape, _)) if shape.check_complete_tables().is_ok() => {
            format!("complete tables answer at once (build-db --board {shape})")
        }
        Some((_, partition)) if !partition.is_default() => {
            "a stronger partition (build-db --partition) finds it sooner".to_string()
        }
        _ => "`solve --within 1.2` finds one within a factor of the shortest sooner".to_string(),
    };
    anyhow::anyhow!(
        "{e} (--timeout {} s); a longer --timeout may find it, or {sooner}",
        timeout.unwrap_or_default().as_secs_f64()
    )
}
