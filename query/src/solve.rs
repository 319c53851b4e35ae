//! `query solve` and `query distance`.

use crate::Outcome;
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{count_shortest, list_shortest};
use npuzzle::io::{with_nodes, write_json};
use npuzzle::pattern::{BoundReport, SolveOptions};
use npuzzle::{move_string, AnswerError, Board, Database, Move};
use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

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
    #[arg(long, default_value_t = 10, requires = "all", value_name = "N")]
    limit: usize,
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

/// The boards and the answer for them: the moves, or why there are none,
/// and the nodes searched where a search ran.
struct Answer {
    start: Board,
    goal: Board,
    moves: Result<Vec<Move>, npuzzle::Unsolvable>,
    nodes: Option<u64>,
}

fn answer(db: &Database<Mmap>, pair: &crate::PairArgs, timeout: &TimeoutArg) -> Result<Answer> {
    let (start, goal) = pair.boards(db.shape())?;
    let (moves, nodes) = match search(db, &start, &goal, timeout.timeout)? {
        Ok(solution) => (Ok(solution.moves), db.patterns().map(|_| solution.nodes)),
        Err(why) => (Err(why), None),
    };
    Ok(Answer {
        start,
        goal,
        moves,
        nodes,
    })
}

impl Answer {
    fn write_json(&self, out: &mut impl Write) -> Result<Outcome> {
        let mut line = Vec::new();
        write_json(&mut line, &self.start, &self.goal, self.moves.as_deref());
        if let Some(nodes) = self.nodes {
            with_nodes(&mut line, nodes);
        }
        line.push(b'\n');
        out.write_all(&line)?;
        Ok(self.outcome())
    }

    fn outcome(&self) -> Outcome {
        match self.moves {
            Ok(_) => Outcome::Success,
            Err(_) => Outcome::Unsolvable,
        }
    }
}

/// `query solve`.
pub fn solve(db: &Database<Mmap>, args: &SolveArgs, out: &mut impl Write) -> Result<Outcome> {
    if args.all {
        // Refused before any search: counting needs every distance.
        db.complete()
            .map_err(|e| crate::needs_complete("solve --all", e))?;
    }
    let answer = answer(db, &args.pair, &args.timeout)?;
    if args.all {
        return all_solutions(db, &answer, args.limit, args.json, out);
    }
    if args.json {
        return answer.write_json(out);
    }
    let moves = match &answer.moves {
        Ok(moves) => moves,
        Err(why) => {
            writeln!(out, "unsolvable: {why}")?;
            return Ok(Outcome::Unsolvable);
        }
    };
    write_text(&answer.start, &answer.goal, moves, args.boards, out)
}

/// A solution as `query solve` prints it: the move string, then each move
/// (with the board after it, when `boards`).
pub(crate) fn write_text(
    start: &Board,
    goal: &Board,
    moves: &[Move],
    boards: bool,
    out: &mut impl Write,
) -> Result<Outcome> {
    if moves.is_empty() {
        writeln!(out, "{start} is the goal: 0 moves")?;
        return Ok(Outcome::Success);
    }
    let plural = if moves.len() == 1 { "" } else { "s" };
    writeln!(out, "{start} -> {goal}: {} move{plural}", moves.len())?;
    writeln!(out, "{}", move_string(moves))?;
    writeln!(out)?;
    if boards {
        write!(out, "{}", start.grid())?;
    }
    let width = moves.len().to_string().len();
    let mut board = *start;
    for (i, &m) in moves.iter().enumerate() {
        let tile = board
            .tile_moved_by(m)
            .expect("a solution's moves stay on the board");
        writeln!(
            out,
            "{:>width$}. {}  tile {tile} slides {}",
            i + 1,
            m.letter(),
            m.tile_direction()
        )?;
        board = board.apply(m).expect("checked above");
        if boards {
            write!(out, "{}", board.grid())?;
        }
    }
    Ok(Outcome::Success)
}

/// `query distance`.
pub fn distance(db: &Database<Mmap>, args: &DistanceArgs, out: &mut impl Write) -> Result<Outcome> {
    let answer = answer(db, &args.pair, &args.timeout)?;
    if args.json {
        return answer.write_json(out);
    }
    match &answer.moves {
        Ok(moves) => writeln!(out, "{}", moves.len())?,
        Err(why) => writeln!(out, "unsolvable: {why}")?,
    }
    Ok(answer.outcome())
}

/// `query solve --all`: the number of shortest solutions, by dynamic
/// programming over the table, and the first `limit` in alphabetical order.
fn all_solutions(
    db: &Database<Mmap>,
    answer: &Answer,
    limit: usize,
    json: bool,
    out: &mut impl Write,
) -> Result<Outcome> {
    if let Err(why) = &answer.moves {
        if json {
            return answer.write_json(out);
        }
        writeln!(out, "unsolvable: {why}")?;
        return Ok(Outcome::Unsolvable);
    }
    let target = db.goal_table(&answer.goal)?;
    let count = count_shortest(&target, &answer.start)?;
    let listed = list_shortest(&target, &answer.start, limit)?;
    let distance = answer.moves.as_ref().map_or(0, |m| m.len());
    if json {
        // `solve --json`'s object, in its order, and then the count and list.
        let mut line = Vec::new();
        write_json(
            &mut line,
            &answer.start,
            &answer.goal,
            answer.moves.as_deref(),
        );
        line.pop(); // its closing brace
        let listed: Vec<String> = listed.iter().map(|m| move_string(m)).collect();
        write!(
            line,
            ",\"solutions\":{count},\"listed\":{}}}",
            serde_json::to_string(&listed)?
        )?;
        line.push(b'\n');
        out.write_all(&line)?;
        return Ok(Outcome::Success);
    }
    let plural = if count == 1 { "" } else { "s" };
    writeln!(
        out,
        "{} -> {}: {distance} moves, {count} shortest solution{plural}",
        answer.start, answer.goal
    )?;
    for moves in &listed {
        writeln!(out, "{}", move_string(moves))?;
    }
    if count > listed.len() as u128 {
        writeln!(
            out,
            "… and {} more (--limit N lists more)",
            count - listed.len() as u128
        )?;
    }
    Ok(Outcome::Success)
}

/// `--timeout`, as the commands that search take it.
#[derive(clap::Args)]
pub struct TimeoutArg {
    /// Give up on a position after SECONDS of search (pattern databases; a complete
    /// table answers at once) [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub(crate) timeout: Option<Duration>,
}

/// The longest `--timeout`, in seconds: about 31 years, past any search
/// anyone waits for, and far from where a deadline would overflow the clock.
const MAX_TIMEOUT_SECONDS: f64 = 1e9;

/// `--timeout`'s value, or why it is not one (clap shows the value itself).
fn parse_timeout(text: &str) -> Result<Duration, String> {
    parse_seconds(text, "leave --timeout out to search without a limit")
}

/// A timeout in seconds, or why it is not one; `no_limit` says what to do
/// instead of a value at 0 or past the limit (`serve` has no unlimited
/// searches, so it words that otherwise).
pub(crate) fn parse_seconds(text: &str, no_limit: &str) -> Result<Duration, String> {
    const EXAMPLE: &str = "for example 10 or 0.5";
    let Ok(seconds) = text.trim().parse::<f64>() else {
        return Err(format!("not a number of seconds ({EXAMPLE})"));
    };
    if seconds.is_nan() {
        return Err(format!("NaN is not a number of seconds ({EXAMPLE})"));
    }
    if seconds <= 0.0 {
        return Err(format!("a timeout must be above 0 seconds; {no_limit}"));
    }
    if seconds > MAX_TIMEOUT_SECONDS {
        // A long enough run of digits parses as infinity too; only a value
        // that says so is called infinite.
        return Err(if text.to_ascii_lowercase().contains("inf") {
            format!("an infinite timeout is no limit: {no_limit}")
        } else {
            format!(
                "above the limit of {MAX_TIMEOUT_SECONDS:.0} seconds (about 31 years); {no_limit}"
            )
        });
    }
    if seconds < 1e-9 {
        return Err(format!(
            "below a nanosecond, the clock's finest step: the shortest timeout is 1e-9 ({EXAMPLE})"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Solves: a lookup in complete tables, or a search on every core,
/// showing the bound on a terminal when the search
/// is long. The inner error is the unsolvable case, which is an answer.
fn search(
    db: &Database<Mmap>,
    start: &Board,
    goal: &Board,
    timeout: Option<Duration>,
) -> anyhow::Result<Result<npuzzle::pattern::Solution, npuzzle::Unsolvable>> {
    let started = Instant::now();
    let terminal = io::stderr().is_terminal();
    let shown = std::sync::atomic::AtomicBool::new(false);
    let on_bound = |r: BoundReport| {
        if terminal && started.elapsed() > Duration::from_secs(1) {
            shown.store(true, std::sync::atomic::Ordering::Relaxed);
            eprint!(
                "\rquery: searching moves ≤ {}, {} nodes so far, {:.0} s\x1b[K",
                r.bound,
                r.nodes,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let options = SolveOptions {
        deadline: timeout.map(|t| started + t),
        parallel: true,
        on_bound: Some(&on_bound),
        ..SolveOptions::default()
    };
    let result = db.solve(start, goal, &options);
    if shown.load(std::sync::atomic::Ordering::Relaxed) {
        eprint!("\r\x1b[K");
    }
    match result {
        Ok(solution) => Ok(Ok(solution)),
        Err(e) if e.unsolvable().is_some() => Ok(Err(e.unsolvable().expect("matched").clone())),
        Err(e @ AnswerError::TimedOut { .. }) => Err(anyhow::anyhow!(
            "{e} (--timeout {} s); a longer --timeout, or a stronger partition (build-db \
             --partition), may find it",
            timeout.unwrap_or_default().as_secs_f64()
        )),
        Err(e) => Err(e.into()),
    }
}
