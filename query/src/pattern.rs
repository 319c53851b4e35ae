//! The commands on a pattern database: `solve`, `distance` and `batch` by
//! IDA*, `info` and `verify` of the file; the rest refuse, saying why.

use crate::{plural, Command, Outcome};
use anyhow::Context;
use memmap2::Mmap;
use npuzzle::io::{run_pattern_batch, write_json, write_json_with_nodes};
use npuzzle::pattern::{
    verify_patterns, BoundReport, PatternDatabase, Solution, SolveError, SolveOptions,
};
use npuzzle::Board;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// `--timeout`, as the commands that search take it.
#[derive(clap::Args)]
pub struct TimeoutArg {
    /// Give up on a position after SECONDS of search (pattern databases; a complete
    /// table answers at once) [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
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

/// Runs `command` on a pattern database.
pub fn run(
    db: &PatternDatabase<Mmap>,
    command: &Command,
    path: &Path,
    out: &mut impl Write,
) -> anyhow::Result<Outcome> {
    match command {
        Command::Solve(args) if !args.all => answer(
            db,
            &args.pair,
            &args.timeout,
            args.json,
            out,
            |start, goal, moves, out| {
                crate::solve::write_text(start, goal, moves, args.boards, out)
            },
        ),
        Command::Distance(args) => answer(
            db,
            &args.pair,
            &args.timeout,
            args.json,
            out,
            |_, _, moves, out| {
                writeln!(out, "{}", moves.len())?;
                Ok(Outcome::Success)
            },
        ),
        Command::Batch(args) => {
            let goal = args.goal.board(db.shape())?;
            // A goal no set serves would fail every line: said once, with the fix.
            db.set_serving(&goal)?;
            let (threads, format) = args.threads_and_format()?;
            let summary = run_pattern_batch(
                db,
                &goal,
                format,
                threads,
                args.timeout.timeout,
                io::stdin().lock(),
                out,
            )
            .context("batch stopped")?;
            Ok(crate::batch::report(summary))
        }
        Command::Info(args) => PatternFile { db, path }.info(args.json, out),
        Command::Verify(args) => PatternFile { db, path }.verify(args.json, out),
        other => Err(refusal(other, path)),
    }
}

/// Why `command` needs a complete table.
fn refusal(command: &Command, path: &Path) -> anyhow::Error {
    let (name, work) = match command {
        Command::Solve(_) => ("solve --all", "counting every shortest solution"),
        Command::Histogram(_) => ("histogram", "counting positions at each distance"),
        Command::Random(_) => ("random", "drawing positions at a given distance"),
        Command::Stats(_) => ("stats", "gathering statistics over every position"),
        Command::Heuristics(_) => ("heuristics", "comparing heuristics over every position"),
        Command::Compare(_) => ("compare", "checking the textbook searches' answers"),
        _ => ("this command", "it"),
    };
    anyhow::anyhow!(
        "`query {name}` needs a complete table: {work} needs every position's distance, and {} \
         is a pattern database, which holds lower bounds for a search, not distances. On this \
         board it answers solve, distance, batch, info and verify",
        path.display()
    )
}

/// `solve` or `distance`: searches from `pair`'s start to its goal and
/// writes the JSON line, the unsolvable answer, or (as text) what
/// `write_text` makes of the moves.
fn answer<W: Write>(
    db: &PatternDatabase<Mmap>,
    pair: &crate::PairArgs,
    timeout: &TimeoutArg,
    json: bool,
    out: &mut W,
    write_text: impl FnOnce(&Board, &Board, &[npuzzle::Move], &mut W) -> anyhow::Result<Outcome>,
) -> anyhow::Result<Outcome> {
    let (start, goal) = pair.boards(db.shape())?;
    match solve(db, &start, &goal, timeout.timeout)? {
        Err(why) => unsolvable(&start, &goal, why, json, out),
        Ok(solution) if json => {
            json_line(out, |line| {
                write_json_with_nodes(line, &start, &goal, &solution)
            })?;
            Ok(Outcome::Success)
        }
        Ok(solution) => write_text(&start, &goal, &solution.moves, out),
    }
}

/// Writes one JSON object that `write` puts in a buffer, and a newline.
fn json_line(out: &mut impl Write, write: impl FnOnce(&mut Vec<u8>)) -> io::Result<()> {
    let mut line = Vec::new();
    write(&mut line);
    line.push(b'\n');
    out.write_all(&line)
}

/// Searches on every core, showing the bound on a terminal when the search
/// is long. The inner error is the unsolvable case, which is an answer.
fn solve(
    db: &PatternDatabase<Mmap>,
    start: &Board,
    goal: &Board,
    timeout: Option<Duration>,
) -> anyhow::Result<Result<Solution, npuzzle::Unsolvable>> {
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
        Err(SolveError::Unsolvable(why)) => Ok(Err(why)),
        Err(e @ SolveError::TimedOut { .. }) => Err(anyhow::anyhow!(
            "{e} (--timeout {} s); a longer --timeout, or a stronger partition (build-db \
             --partition), may find it",
            timeout.unwrap_or_default().as_secs_f64()
        )),
        Err(e) => Err(e.into()),
    }
}

fn unsolvable(
    start: &Board,
    goal: &Board,
    why: npuzzle::Unsolvable,
    json: bool,
    out: &mut impl Write,
) -> anyhow::Result<Outcome> {
    if json {
        json_line(out, |line| write_json(line, start, goal, Err(&why)))?;
    } else {
        writeln!(out, "unsolvable: {why}")?;
    }
    Ok(Outcome::Unsolvable)
}

/// A pattern-database file, as `info` and `verify` describe it.
struct PatternFile<'a> {
    db: &'a PatternDatabase<Mmap>,
    path: &'a Path,
}

impl PatternFile<'_> {
    /// `query info` on a pattern database.
    fn info(&self, json: bool, out: &mut impl Write) -> anyhow::Result<Outcome> {
        let PatternFile { db, path } = *self;
        let header = db.header();
        let shape = db.shape();
        // Cells of each set's class: the goals it answers.
        let class_size = |blank: usize| {
            npuzzle::symmetry::classes(shape)
                .into_iter()
                .find(|c| c.contains(&blank))
                .map_or(1, |c| c.len())
        };
        if json {
            let value = serde_json::json!({
                "path": path.display().to_string(),
                "kind": "pattern",
                "board": shape.to_string(),
                "bytes": db.bytes().len(),
                "format_version": npuzzle::pattern::PATTERN_VERSION,
                "partition": header.partition,
                "goal": db.default_goal().to_string(),
                "transposed_lookup": db.patterns().uses_transpose(),
                "sets": db.sets().iter().map(|set| serde_json::json!({
                    "goal_blank": crate::cell_position(shape, set.goal_blank()),
                    "class_size": class_size(set.goal_blank()),
                    "goal": set.goal().to_string(),
                    "transposed_lookup": set.uses_transpose(),
                })).collect::<Vec<_>>(),
                "tables": header.tables().map(|(blank, t)| serde_json::json!({
                    "goal_blank": crate::cell_position(shape, blank),
                    "tiles": t.tiles,
                    "placements": t.placements,
                    "bytes": t.placements,
                    "max_entry": t.max_entry,
                    "mean_entry": mean(&t.counts),
                    "counts": t.counts,
                    "unreached": t.unreached,
                    "offset": t.offset,
                    "checksum": format!("{:08x}", t.checksum),
                })).collect::<Vec<_>>(),
            });
            writeln!(out, "{value}")?;
            return Ok(Outcome::Success);
        }
        writeln!(out, "{}", path.display())?;
        writeln!(
            out,
            "{shape} board, pattern database {} (format version {}), {} bytes, {}",
            header.partition,
            npuzzle::pattern::PATTERN_VERSION,
            db.bytes().len(),
            plural(db.sets().len() as u64, "set"),
        )?;
        writeln!(
            out,
            "heuristic: the sum of a set's tables' entries (and, where marked, the larger of it \
         and the same sum read through the transposed board); solved by IDA*"
        )?;
        let mut number = 0;
        for set in db.sets() {
            let blank = set.goal_blank();
            let size = class_size(blank);
            writeln!(
                out,
                "set for goal {} (blank at {}; answers the {} of its class through a symmetry){}",
                set.goal(),
                crate::cell_name(shape, blank),
                plural(size as u64, "blank cell"),
                if set.uses_transpose() {
                    ", transposed lookup"
                } else {
                    ""
                }
            )?;
            let tables = header.sets.iter().find(|s| s.goal_blank as usize == blank);
            for t in tables.into_iter().flat_map(|s| &s.tables) {
                number += 1;
                let tiles: Vec<String> = t.tiles.iter().map(u8::to_string).collect();
                writeln!(
                out,
                "table {number}: tiles {}: {} placements ({} bytes), entries 0 to {}, mean {:.2}",
                tiles.join(" "),
                t.placements,
                t.placements,
                t.max_entry,
                mean(&t.counts)
            )?;
            }
        }
        Ok(Outcome::Success)
    }
}

/// The mean entry of a table with these counts per entry.
fn mean(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let sum: f64 = counts
        .iter()
        .enumerate()
        .map(|(d, &c)| d as f64 * c as f64)
        .sum();
    sum / total.max(1) as f64
}

impl PatternFile<'_> {
    /// `query verify` on a pattern database: exit 0 when sound, 2 when not
    /// (the binary adds how to rebuild it).
    fn verify(&self, json: bool, out: &mut impl Write) -> anyhow::Result<Outcome> {
        let PatternFile { db, path } = *self;
        let report = verify_patterns(db);
        if json {
            let value = serde_json::json!({
                "path": path.display().to_string(),
                "kind": "pattern",
                "ok": report.is_ok(),
                "nonzero_padding": report.nonzero_padding,
                "tables": report.tables.iter().map(|t| serde_json::json!({
                    "goal_blank": crate::cell_position(db.shape(), t.goal_blank),
                    "tiles": t.tiles,
                    "placements": t.placements,
                    "checksum_ok": t.checksum_ok,
                    "out_of_range": t.out_of_range,
                    "count_mismatches": t.count_mismatches,
                    "goal_entry": t.goal_entry,
                    "ok": t.is_ok(),
                })).collect::<Vec<_>>(),
            });
            writeln!(out, "{value}")?;
        } else {
            for (i, t) in report.tables.iter().enumerate() {
                let mut problems = Vec::new();
                if !t.checksum_ok {
                    problems.push("checksum mismatch".to_string());
                }
                if t.out_of_range > 0 {
                    problems.push(format!(
                        "{} above the recorded maximum",
                        plural(t.out_of_range, "entry")
                    ));
                }
                if !t.count_mismatches.is_empty() {
                    problems.push(format!(
                        "counts differ from the header's for entries {:?}",
                        t.count_mismatches
                    ));
                }
                if t.goal_entry != 0 {
                    problems.push(format!("the goal's entry is {}, not 0", t.goal_entry));
                }
                let status = if problems.is_empty() {
                    "ok".to_string()
                } else {
                    problems.join("; ")
                };
                writeln!(
                    out,
                    "table {} (goal blank at {}, {} tiles, {} placements): {status}",
                    i + 1,
                    crate::cell_position(db.shape(), t.goal_blank),
                    t.tiles.len(),
                    t.placements
                )?;
            }
            if report.nonzero_padding > 0 {
                writeln!(
                    out,
                    "padding: {} not zero",
                    plural(report.nonzero_padding, "byte")
                )?;
            }
            writeln!(
                out,
                "{}: {}",
                path.display(),
                if report.is_ok() {
                    "ok: every checksum matches, every entry is within its table's recorded maximum \
                 and the counts of each entry match the header's, the goal's entries are 0"
                } else {
                    "DAMAGED"
                }
            )?;
        }
        if report.is_ok() {
            Ok(Outcome::Success)
        } else {
            out.flush()?;
            anyhow::bail!("{} is damaged", path.display());
        }
    }
}
