//! `query compare`: the classic searches on one position, checked against the database, or
//! with no file against an optimal search over linear conflicts.

use crate::numbers::whole;
use crate::print::{print, Format, Layout};
use crate::solve::UnsolvablePair;
use crate::Outcome;
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{
    compare, compare_searched, serving, CompareError, Comparison, DEFAULT_COMPARE_NODES,
    MAX_COMPARE_NODES,
};
use npuzzle::{AnswerError, Database, Shape};
use std::io::{self, Write};

/// Arguments of `query compare`.
#[derive(clap::Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Give up after SECONDS of the optimal search for the truth, on a pattern database or with \
     no file (the textbook searches stop at --max-nodes instead: about 7 s in all on 4x4 at \
     the default) [default: no limit]"
)))]
pub struct CompareArgs {
    #[command(flatten)]
    pair: crate::PairArgs,
    /// Stop each search after expanding this many positions (at most 10000000).
    #[arg(long, default_value_t = DEFAULT_COMPARE_NODES, value_name = "N", value_parser = whole(1..=MAX_COMPARE_NODES), allow_negative_numbers = true)]
    max_nodes: u64,
    /// Depth limit of the depth-first search [default: the table's maximum distance; on a
    /// pattern database, the distance].
    #[arg(long, value_name = "D", value_parser = whole(0..=u32::MAX), allow_negative_numbers = true)]
    depth_limit: Option<u32>,
    /// One JSON object instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    timeout: crate::search::TimeoutArg,
}

/// `query compare`: against a lookup in complete tables, or an optimal
/// search (within `--timeout`): a pattern database's, or with no file (`db`
/// is `None`, or has no table toward the goal) one over linear conflicts.
pub fn run(
    db: Option<&Database<Mmap>>,
    shape: Shape,
    args: &CompareArgs,
    out: &mut impl Write,
) -> Result<Outcome> {
    let (start, goal) = args.pair.boards(shape)?;
    crate::heuristics::say_if_no_table(db, &start, &goal);
    let served = serving(db, &goal)?;
    let compared = match served.map(Database::complete) {
        Some(Ok(tables)) => compare(
            &tables.goal_table(&goal)?,
            &start,
            args.max_nodes,
            args.depth_limit,
            None,
        ),
        _ => crate::search::with_progress(args.timeout.timeout, true, "moves ≤", |options| {
            let pair = (&start, &goal);
            compare_searched(served, pair, args.max_nodes, args.depth_limit, options)
        }),
    };
    let report = match compared {
        Ok(report) => report,
        Err(CompareError::Lookup(AnswerError::Unsolvable(why))) => {
            let report = UnsolvablePair::new(&start, &goal, &why);
            print(&report, Format::json_or_text(args.json), out)?;
            return Ok(Outcome::No);
        }
        // The lookup's own error, for the advice `main` adds to it, or the
        // search past --timeout.
        Err(CompareError::Lookup(e)) => {
            let need = match served {
                Some(_) => "compare needs the true distance, and the database's search stopped",
                None => "compare needs the true distance, and its search (no file) stopped",
            };
            return Err(crate::search::distance_stopped(
                (shape, served.is_some()),
                e,
                args.timeout.timeout,
                need,
            ));
        }
        Err(e) => return Err(e.into()),
    };
    print(&report, Format::json_or_text(args.json), out)?;
    Ok(Outcome::Success)
}

impl Layout for Comparison {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let distance = self.distance;
        // With no file, the truth is a search of the same kind as the
        // textbook's: named as they are.
        let (source, truth) = match self.database {
            "linear-conflict" => (
                "no file: IDA* over linear conflicts",
                "idastar-linear-conflict".to_string(),
            ),
            how => ("database", format!("database {how}")),
        };
        writeln!(
            out,
            "{} -> {}: {} ({source})",
            self.start,
            self.goal,
            crate::plural(distance as u64, "move")
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "{:<26} {:>7} {:>8} {:>10} {:>10} {:>12}",
            "method", "length", "optimal", "expanded", "max open", "time"
        )?;
        writeln!(
            out,
            "{:<26} {:>7} {:>8} {:>10} {:>10} {:>12}",
            truth,
            distance,
            "yes",
            self.database_expanded
                .map_or_else(|| "-".to_string(), |n| n.to_string()),
            "-",
            human(self.database_elapsed.as_secs_f64())
        )?;
        for run in &self.algorithms {
            let r = &run.report;
            let (length, optimal) = match (run.length, run.optimal) {
                (Some(l), optimal) => (
                    l.to_string(),
                    if optimal == Some(true) { "yes" } else { "no" },
                ),
                (None, _) if r.hit_limit => ("limit".to_string(), "-"),
                (None, _) => ("none".to_string(), "-"),
            };
            writeln!(
                out,
                "{:<26} {:>7} {:>8} {:>10} {:>10} {:>12}",
                run.algorithm.to_string(),
                length,
                optimal,
                r.expanded,
                r.max_open,
                human(r.elapsed.as_secs_f64())
            )?;
        }
        footnotes(self, out)
    }
}

/// What "limit" and "none" in the table mean, where they appear.
fn footnotes(report: &Comparison, out: &mut dyn Write) -> io::Result<()> {
    let runs = &report.algorithms;
    let hit_limit = runs.iter().any(|r| r.report.hit_limit);
    let found_none = runs
        .iter()
        .any(|r| r.report.moves.is_none() && !r.report.hit_limit);
    if hit_limit || found_none {
        writeln!(out)?;
    }
    if hit_limit {
        writeln!(
            out,
            "\"limit\": stopped after --max-nodes {} expansions",
            report.max_nodes
        )?;
    }
    if found_none {
        let limit = runs.iter().find_map(|r| r.depth_limit).unwrap_or(0);
        writeln!(
            out,
            "\"none\": no solution within the depth limit ({limit} moves; --depth-limit sets it)"
        )?;
    }
    Ok(())
}

/// A duration in the unit that reads best.
fn human(seconds: f64) -> String {
    if seconds < 1e-6 {
        format!("{:.0} ns", seconds * 1e9)
    } else if seconds < 1e-3 {
        format!("{:.1} µs", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!("{seconds:.2} s")
    }
}
