//! `query compare`: the classic searches on one position, checked against the database.

use crate::Outcome;
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{search, Algorithm};
use npuzzle::{AnswerError, CompleteTables};
use std::io::Write;
use std::time::Instant;

/// Arguments of `query compare`.
#[derive(clap::Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pair: crate::PairArgs,
    /// Stop each search after expanding this many positions.
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    max_nodes: u64,
    /// Depth limit of the depth-first search [default: the table's maximum distance].
    #[arg(long, value_name = "D")]
    depth_limit: Option<u32>,
    /// One JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// Repetitions of the lookup, so that its time is above the clock's resolution.
const LOOKUP_REPEATS: u32 = 1000;

/// `query compare`.
pub fn run(db: &CompleteTables<Mmap>, args: &CompareArgs, out: &mut impl Write) -> Result<Outcome> {
    let (start, goal) = args.pair.boards(db.shape())?;
    let target = db.goal_table(&goal)?;
    let mut truth = Vec::new();
    let began = Instant::now();
    for _ in 0..LOOKUP_REPEATS {
        truth.clear();
        match target.solve_into(std::hint::black_box(&start), &mut truth) {
            Ok(_) => {}
            Err(AnswerError::Unsolvable(why)) => {
                writeln!(out, "unsolvable: {why}")?;
                return Ok(Outcome::Unsolvable);
            }
            Err(e) => return Err(e.into()),
        }
    }
    let lookup = began.elapsed() / LOOKUP_REPEATS;
    let distance = truth.len();
    let limit = args
        .depth_limit
        .unwrap_or(target.info().max_distance as u32);

    let mut rows = Vec::new();
    for algorithm in Algorithm::all(limit) {
        let report = search(algorithm, &start, &goal, args.max_nodes)?;
        if let Some(moves) = &report.moves {
            // Each algorithm's answer is checked, not trusted.
            anyhow::ensure!(
                start.replay(moves) == Some(goal),
                "{algorithm} returned moves that do not reach the goal"
            );
        }
        rows.push((algorithm, report));
    }

    if args.json {
        let algorithms = rows
            .iter()
            .map(|(a, r)| {
                // The report's own fields, and what only the comparison knows.
                let mut fields = serde_json::to_value(r)?;
                let object = fields.as_object_mut().expect("a report is an object");
                object.insert("algorithm".into(), a.name().into());
                let limit = match a {
                    Algorithm::DepthLimitedDfs { limit } => Some(*limit),
                    _ => None,
                };
                object.insert("depth_limit".into(), limit.into());
                let length = r.moves.as_ref().map(|m| m.len());
                object.insert("length".into(), length.into());
                object.insert("optimal".into(), length.map(|l| l == distance).into());
                Ok(fields)
            })
            .collect::<Result<Vec<_>, serde_json::Error>>()?;
        let value = serde_json::json!({
            "start": start.to_string(),
            "goal": goal.to_string(),
            "distance": distance,
            "database_elapsed_us": lookup.as_secs_f64() * 1e6,
            "algorithms": algorithms,
        });
        writeln!(out, "{value}")?;
        return Ok(Outcome::Success);
    }
    writeln!(out, "{start} -> {goal}: {distance} moves (database)")?;
    writeln!(out)?;
    writeln!(
        out,
        "{:<26} {:>7} {:>8} {:>10} {:>10} {:>12}",
        "method", "length", "optimal", "expanded", "max open", "time"
    )?;
    writeln!(
        out,
        "{:<26} {:>7} {:>8} {:>10} {:>10} {:>12}",
        "database lookup",
        distance,
        "yes",
        "-",
        "-",
        human(lookup.as_secs_f64())
    )?;
    for (algorithm, r) in &rows {
        let (length, optimal) = match &r.moves {
            Some(m) => (
                m.len().to_string(),
                if m.len() == distance { "yes" } else { "no" },
            ),
            None if r.hit_limit => ("limit".to_string(), "-"),
            None => ("none".to_string(), "-"),
        };
        writeln!(
            out,
            "{:<26} {:>7} {:>8} {:>10} {:>10} {:>12}",
            algorithm.to_string(),
            length,
            optimal,
            r.expanded,
            r.max_open,
            human(r.elapsed.as_secs_f64())
        )?;
    }
    let hit_limit = rows.iter().any(|(_, r)| r.hit_limit);
    let found_none = rows.iter().any(|(_, r)| r.moves.is_none() && !r.hit_limit);
    if hit_limit || found_none {
        writeln!(out)?;
    }
    if hit_limit {
        writeln!(
            out,
            "\"limit\": stopped after --max-nodes {} expansions",
            args.max_nodes
        )?;
    }
    if found_none {
        writeln!(
            out,
            "\"none\": no solution within the depth limit ({limit} moves; --depth-limit sets it)"
        )?;
    }
    Ok(Outcome::Success)
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
