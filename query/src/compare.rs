//! `query compare`: the classic searches on one position, checked against the database, or
//! with no file against an optimal search over linear conflicts.

use crate::numbers::whole;
use crate::plot::Series;
use crate::print::{print, Format, Layout};
use crate::solve::UnsolvablePair;
use crate::Outcome;
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{
    compare_served, search_costs, serving, CompareError, Comparison, SearchCosts,
    DEFAULT_COMPARE_NODES, MAX_COMPARE_NODES,
};
use npuzzle::pattern::SolveOptions;
use npuzzle::{AnswerError, Database, Shape};
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// Arguments of `query compare`.
#[derive(clap::Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Give up after SECONDS of the optimal search for the truth, on a pattern database or with \
     no file (the textbook searches stop at --max-nodes instead: about 13 s in all on 4x4 far \
     from the goal at the default) [default: no limit]"
)))]
#[command(mut_arg("plot", |a| a.help(
    "With --distance: also draw the mean expansions against the distance, one line a search, \
     into FILE: SVG or PNG, by its extension"
)))]
pub struct CompareArgs {
    /// The start position, in any form (`867254301`, `867/254/301`, `8 6 7 2 5 4 3 0 1`, JSON).
    #[arg(required_unless_present = "distance", num_args = 1..)]
    start: Vec<String>,
    #[command(flatten)]
    goal: crate::GoalArg,
    /// Instead of one start: the searches' mean costs over --count positions drawn at each
    /// distance of K or A..=B (those `random --distance K --count N --seed S` draws), with
    /// the effective branching factor, as search courses tabulate them (on pattern databases
    /// the positions are found by random walks: exactly at each distance, not uniform).
    #[arg(long, value_name = "K", value_parser = npuzzle::analysis::parse_distances, allow_hyphen_values = true, conflicts_with = "start")]
    distance: Option<std::ops::RangeInclusive<u32>>,
    /// With --distance: positions at each distance (all of them, or all the walks find, where
    /// fewer lie there) [default: 20].
    #[arg(long, value_name = "N", value_parser = whole(1..=npuzzle::analysis::COSTS_COUNT_MAX), allow_negative_numbers = true)]
    count: Option<usize>,
    /// With --distance: the draws' seed [default: 1].
    #[arg(long, value_name = "S", value_parser = whole(0..=u64::MAX), allow_negative_numbers = true)]
    seed: Option<u64>,
    /// With --distance: CSV with a header line instead of text.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// With --distance: threads to search the positions on, at most one per core (each holds
    /// up to about 340 MB at 2000000 expansions) [default: one per core].
    #[arg(long, value_name = "N", value_parser = whole(1..=npuzzle::io::cores()), allow_negative_numbers = true)]
    threads: Option<usize>,
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
    plot: crate::PlotArg,
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
    if let Some(distances) = &args.distance {
        anyhow::ensure!(
            args.timeout.timeout.is_none(),
            "--timeout bounds the search for one start's distance; with --distance each search \
             stops at --max-nodes, and Ctrl-C stops the run"
        );
        return costs(db, shape, args, distances.clone(), out);
    }
    // Checked here: clap let `requires = "distance"` pass, as it does for
    // check --batch's flags (the start's `required_unless_present`).
    let alone = [
        (args.count.is_some(), "--count"),
        (args.seed.is_some(), "--seed"),
        (args.csv, "--csv"),
        (args.threads.is_some(), "--threads"),
        (args.plot.given(), "--plot"),
    ];
    if let Some((_, flag)) = alone.iter().find(|(given, _)| *given) {
        anyhow::bail!(
            "{flag} goes with --distance, which averages the searches over positions drawn at \
             each distance; one start is compared alone (--json for JSON)"
        );
    }
    let start = args.goal.start_of(&args.start, shape)?;
    let goal = args.goal.board(shape)?;
    crate::heuristics::say_if_no_table(db, &start, &goal);
    let served = serving(db, &goal)?;
    let compared =
        crate::search::with_progress(args.timeout.timeout, true, "moves ≤", |options| {
            let pair = (&start, &goal);
            compare_served(served, pair, args.max_nodes, args.depth_limit, options)
        });
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

/// `query compare --distance`: the searches' mean costs at each distance,
/// over positions drawn from complete tables, or found by walks on pattern
/// databases.
fn costs(
    db: Option<&Database<Mmap>>,
    shape: Shape,
    args: &CompareArgs,
    distances: std::ops::RangeInclusive<u32>,
    out: &mut impl Write,
) -> Result<Outcome> {
    let goal = args.goal.board(shape)?;
    npuzzle::analysis::check_comparable(shape)?;
    let Some(db) = db else {
        anyhow::bail!(
            "compare --distance draws its positions from a database, which gives each one's \
             distance: build one with build-db --board {shape}"
        );
    };
    npuzzle::analysis::check_distances(db, &goal, &distances).map_err(with_lookup)?;
    // The chart's file is started before the searches, which may take
    // minutes: a path that cannot take it costs nothing.
    let chart = args.plot.start()?;
    let drawn = (
        args.count.unwrap_or(npuzzle::analysis::COSTS_COUNT),
        args.seed.unwrap_or(npuzzle::analysis::COSTS_SEED),
    );
    let limits = (args.max_nodes, args.depth_limit);
    // More threads than cores would only hold more searches in memory.
    let threads = args.threads.unwrap_or(npuzzle::io::cores());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    // On a terminal, a line that says how far the distances have come.
    let (began, terminal) = (Instant::now(), io::stderr().is_terminal());
    let (first, last) = (*distances.start(), *distances.end());
    let shown = AtomicBool::new(false);
    if terminal && db.complete().is_err() {
        // The walks to every distance come first, and may take a while.
        shown.store(true, Relaxed);
        npuzzle::eprint_or_drop!(
            "\rquery: finding the positions at each distance by random walks…\x1b[K"
        );
    }
    let done = |d: u32| {
        if terminal {
            shown.store(true, Relaxed);
            npuzzle::eprint_or_drop!(
                "\rquery: distances {first} to {d} of {first} to {last} searched, {:.0} s\x1b[K",
                began.elapsed().as_secs_f64()
            );
        }
    };
    let searched = (&SolveOptions::default(), &done as &(dyn Fn(u32) + Sync));
    let costs = pool.install(|| search_costs(db, &goal, distances, drawn, limits, searched));
    if shown.load(Relaxed) {
        npuzzle::eprint_or_drop!("\r\x1b[K");
    }
    let costs = costs.map_err(with_lookup)?;
    if let Some(chart) = chart {
        let title = format!(
            "{shape}: the textbook searches toward {goal}, up to {} a distance",
            crate::plural(costs.count as u64, "position")
        );
        let series = by_algorithm(&costs);
        crate::plot::search_costs(chart, &title, &series, first..=last, costs.max_nodes)?;
    }
    let format = match (args.json, args.csv) {
        (true, _) => Format::Json,
        (_, true) => Format::Csv,
        _ => Format::Text,
    };
    print(&costs, format, out)?;
    Ok(Outcome::Success)
}

/// A comparison's error, with the lookup's own where it is one: `main`
/// adds its advice to that (a goal the file has no table for: the build
/// that gives one).
fn with_lookup(e: CompareError) -> anyhow::Error {
    match e {
        CompareError::Lookup(e) => e.into(),
        e => e.into(),
    }
}

/// One series per algorithm, by its name: its mean expansions, indexed by
/// distance (not a number below the first distance). Depth-first search is
/// one series, though on pattern databases its limit is each distance.
fn by_algorithm(costs: &SearchCosts) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    for row in &costs.rows {
        let name = row.algorithm.name();
        let at = match series.iter().position(|s| s.label == name) {
            Some(at) => at,
            None => {
                series.push(Series::new(name, Vec::new()));
                series.len() - 1
            }
        };
        let values = &mut series[at].values;
        values.resize(row.distance as usize, f64::NAN);
        values.push(row.mean_expanded);
    }
    series
}

impl Layout for SearchCosts {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        // Walks find positions exactly at each distance, but not uniformly.
        let found = match self.drawn {
            "walks" => ", found by random walks",
            _ => "",
        };
        writeln!(
            out,
            "goal {}: up to {} at each distance{found} (seed {}), each search stopped after {} \
             expansions",
            self.goal,
            crate::plural(self.count as u64, "position"),
            self.seed,
            self.max_nodes
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "{:>8}  {:<22} {:>9} {:>12} {:>7} {:>10} {:>9}",
            "distance", "method", "positions", "expanded", "b*", "max open", "optimal"
        )?;
        for row in &self.rows {
            let branching = row
                .effective_branching
                .map_or_else(|| "-".to_string(), |b| format!("{b:.2}"));
            writeln!(
                out,
                "{:>8}  {:<22} {:>9} {:>12.1} {:>7} {:>10.1} {:>9}",
                row.distance,
                row.algorithm.name(),
                row.positions,
                row.mean_expanded,
                branching,
                row.mean_max_open,
                format!("{}/{}", row.optimal, row.positions)
            )?;
        }
        writeln!(out)?;
        writeln!(
            out,
            "expanded and max open are means; b* solves 1 + b* + … + b*^d = expanded + 1 (1 where \
             fewer than d were expanded)"
        )
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "distance,algorithm,positions,solved,optimal,mean_expanded,effective_branching,\
             mean_max_open"
        )?;
        for row in &self.rows {
            let branching = row
                .effective_branching
                .map_or(String::new(), |b| b.to_string());
            writeln!(
                out,
                "{},{},{},{},{},{},{branching},{}",
                row.distance,
                row.algorithm.name(),
                row.positions,
                row.solved,
                row.optimal,
                row.mean_expanded,
                row.mean_max_open
            )?;
        }
        Ok(())
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
