//! `query heuristics`: the classic heuristics measured against the truth,
//! over every position of a table, or for one position (`START`) on any
//! board, beside its exact distance, or where the search for it stopped at
//! `--timeout`, the bound it proved.

use crate::plot::{self, Series};
use crate::print::{print, Layout};
use crate::solve::UnsolvablePair;
use crate::{ChartArgs, Outcome};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{search_truth, PositionEstimates, Survey, Surveys, Truth};
use npuzzle::pattern::{SolveOptions, Stopped};
use npuzzle::AnswerError;
use npuzzle::{Board, CompleteTables, Database, Shape};
use std::io::{self, Write};

/// Arguments of `query heuristics`.
#[derive(clap::Args)]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text: {\"board\", \"goal\", \"positions\", \"heuristics\": \
     [{\"heuristic\", \"goal\", \"positions\", \"by_distance\": [{\"distance\", \"count\", \"mean\", \"min\", \
     \"max\", \"h_counts\"}], \"inadmissible\", \"moves\", \"inconsistent\", \"mean_ratio\"}]}; with START: \
     {\"board\", \"start\", \"goal\", \"distance\", \"lower_bound\", \"heuristics\": [{\"heuristic\", \
     \"h\", \"admissible_here\", \"overestimate\"}], on a pattern database \"pattern_database\": \
     {\"partition\", \"h\", \"lookup\", \"dual\", \"admissible_here\", \"overestimate\"}, \
     \"manhattan_by_cell\"}; where the distance's search stopped at --timeout, \"distance\" is null, \
     \"lower_bound\" what it proved, and a verdict null where the bound does not settle it"
)))]
pub struct HeuristicsArgs {
    /// One position (any board, pattern databases too, or with no file), in any form: each
    /// heuristic's value beside its true distance (searched on a pattern board or with no
    /// file: far from the goal, give --timeout or press Ctrl-C, and the bound proved stands
    /// in for it), and each tile's part of the Manhattan distance.
    #[arg(conflicts_with = "plot")]
    start: Vec<String>,
    #[command(flatten)]
    timeout: crate::search::TimeoutArg,
    // With --plot: the mean of each heuristic against the true distance.
    #[command(flatten)]
    chart: ChartArgs,
}

/// `query heuristics`: four heuristics over every position of the goal's
/// table, or for the one position given.
pub fn run(db: &Database<Mmap>, args: &HeuristicsArgs, out: &mut impl Write) -> Result<Outcome> {
    if args.start.is_empty() {
        every_position(crate::complete(db, "heuristics")?, args, out)
    } else {
        one_position(Some(db), db.shape(), args, out)
    }
}

impl HeuristicsArgs {
    /// Whether one position is asked about, which needs no file.
    pub fn has_start(&self) -> bool {
        !self.start.is_empty()
    }
}

/// `query heuristics START` on a `shape` board where no file is found: the
/// distance searched over linear conflicts.
pub fn without_file(shape: Shape, args: &HeuristicsArgs, out: &mut impl Write) -> Result<Outcome> {
    one_position(None, shape, args, out)
}

/// `query heuristics START`: a lookup, or on a pattern board (or with no
/// file) a search within `--timeout`, as `query solve` runs it; where it
/// stops, the bound it proved.
fn one_position(
    db: Option<&Database<Mmap>>,
    shape: Shape,
    args: &HeuristicsArgs,
    out: &mut impl Write,
) -> Result<Outcome> {
    let start = args.chart.goal.start_of(&args.start, shape)?;
    let goal = args.chart.goal.board(shape)?;
    say_if_no_table(db, &start, &goal);
    let ctrl_c = npuzzle::io::stop_on_ctrl_c();
    let searched =
        crate::search::with_progress(args.timeout.timeout, true, "moves ≤", |options| {
            let options = SolveOptions {
                cancel: ctrl_c.as_deref(),
                ..*options
            };
            search_truth(db, &start, &goal, &options)
        });
    let truth = match searched {
        Ok(truth) => truth,
        // Ctrl-C: the values, beside the bound proved so far.
        Err(AnswerError::Stopped(Stopped::Cancelled { bound, .. })) => Truth::AtLeast(bound),
        Err(e) => match e.unsolvable() {
            Some(why) => {
                let report = UnsolvablePair::new(&start, &goal, why);
                print(&report, args.chart.format.format(), out)?;
                return Ok(Outcome::No);
            }
            None => return Err(e.into()),
        },
    };
    let mut report = PositionEstimates::new(&start, &goal, truth);
    if let Some(db) = db {
        report = report.with_patterns(db, &start, &goal)?;
    }
    print(&report, args.chart.format.format(), out)?;
    Ok(Outcome::Success)
}

/// Says on standard error where `db` has no table toward `goal`: the
/// distance from `start` is then searched as with no file
/// (`analysis::serving`). An unsolvable pair needs no search, nor a note.
pub fn say_if_no_table(db: Option<&Database<Mmap>>, start: &Board, goal: &Board) {
    if npuzzle::rules::solvability::check(start, goal).is_err() {
        return;
    }
    if let Some(Err(e @ AnswerError::MissingGoal { .. })) = db.map(|db| db.check_goal(goal)) {
        npuzzle::eprintln_or_drop!(
            "query: {e}; the distance is searched over linear conflicts instead, as with no file"
        );
    }
}

/// Every position of the goal's table, four heuristics.
fn every_position(
    db: &CompleteTables<Mmap>,
    args: &HeuristicsArgs,
    out: &mut impl Write,
) -> Result<Outcome> {
    let goal = args.chart.goal.board(db.shape())?;
    let target = db.goal_table(&goal)?;
    // Started before the survey, which takes minutes on the largest tables.
    let chart = args.chart.plot.start()?;
    let report = Surveys::toward(&target)?;
    let surveys = &report.heuristics;
    if let Some(chart) = chart {
        let max = target.info().max_distance as usize;
        let series: Vec<Series> = surveys
            .iter()
            .map(|s| {
                Series::new(
                    s.heuristic.name(),
                    s.by_distance.iter().map(|d| d.mean).collect(),
                )
            })
            .collect();
        let title = format!(
            "{}: heuristics against the true distance to {goal}",
            db.shape()
        );
        plot::heuristics(chart, &title, &series, max)?;
    }
    print(&report, args.chart.format.format(), out)?;
    Ok(Outcome::Success)
}

impl Layout for PositionEstimates {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let distance = match self.distance {
            Some(d) => crate::plural(d.into(), "move"),
            None => format!(
                "at least {} (the search for the distance was stopped)",
                crate::plural(self.lower_bound.into(), "move")
            ),
        };
        writeln!(out, "{} -> {}: {distance}", self.start, self.goal)?;
        for e in &self.heuristics {
            let verdict = verdict(e.admissible_here, e.overestimate);
            writeln!(out, "{:<16} {:>3}  {verdict}", e.heuristic.name(), e.h)?;
        }
        if let Some(p) = &self.pattern_database {
            // The partition after the verdict: `6-6-6-6` would not fit the
            // names' column.
            let verdict = verdict(p.admissible_here, p.overestimate);
            let name = "pattern db";
            let parts = match p.dual {
                Some(dual) => format!("; the lookup {}, the dual {dual}", p.lookup),
                None => String::new(),
            };
            writeln!(
                out,
                "{name:<16} {:>3}  {verdict} ({} tables{parts})",
                p.h, p.partition
            )?;
        }
        let by_cell: Vec<String> = self.manhattan_by_cell.iter().map(u32::to_string).collect();
        writeln!(out, "manhattan by cell: {}", by_cell.join(" "))
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "heuristic,h,distance,admissible_here,overestimate,lower_bound"
        )?;
        // An unknown is an empty field.
        let known = |value: Option<String>| value.unwrap_or_default();
        let distance = known(self.distance.map(|d| d.to_string()));
        let mut row = |name: &str, h, here: Option<bool>, over: Option<u32>| {
            let (here, over) = (
                known(here.map(|b| b.to_string())),
                known(over.map(|o| o.to_string())),
            );
            writeln!(
                out,
                "{name},{h},{distance},{here},{over},{}",
                self.lower_bound
            )
        };
        for e in &self.heuristics {
            row(e.heuristic.name(), e.h, e.admissible_here, e.overestimate)?;
        }
        if let Some(p) = &self.pattern_database {
            let name = format!("pattern-database {}", p.partition);
            row(&name, p.h, p.admissible_here, p.overestimate)?;
        }
        Ok(())
    }
}

/// An estimate's verdict in words: where the distance is unknown, an
/// estimate above the bound proved may or may not overestimate it.
fn verdict(admissible_here: Option<bool>, overestimate: Option<u32>) -> String {
    match (admissible_here, overestimate) {
        (Some(true), _) => "admissible here".to_string(),
        (Some(false), Some(by)) => format!("overestimates by {by}"),
        _ => "above the bound proved: not known here".to_string(),
    }
}

impl Layout for Surveys {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let surveys = &self.heuristics;
        writeln!(out, "goal {}: {} positions", self.goal, self.positions)?;
        writeln!(out)?;
        writeln!(
            out,
            "{:<16} {:>10} {:>13} {:>13} {:>9}",
            "heuristic", "admissible", "h > distance", "inconsistent", "mean h/h*"
        )?;
        for s in surveys {
            let admissible = if s.inadmissible == 0 { "yes" } else { "NO" };
            writeln!(
                out,
                "{:<16} {:>10} {:>13} {:>13} {:>9.3}",
                s.heuristic.name(),
                admissible,
                s.inadmissible,
                s.inconsistent,
                s.mean_ratio
            )?;
        }
        writeln!(out)?;
        writeln!(
            out,
            "\"h > distance\" counts positions, \"inconsistent\" counts moves where h drops by more than 1 (of {}).",
            surveys.first().map_or(0, |s| s.moves)
        )?;
        writeln!(out)?;
        by_distance(surveys, out)
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "heuristic,distance,count,mean,min,max")?;
        for s in &self.heuristics {
            for d in &s.by_distance {
                writeln!(
                    out,
                    "{},{},{},{:.4},{},{}",
                    s.heuristic.name(),
                    d.distance,
                    d.count,
                    d.mean,
                    d.min,
                    d.max
                )?;
            }
        }
        Ok(())
    }
}

/// The text's second table: each heuristic's mean and range at each distance.
fn by_distance(surveys: &[Survey], out: &mut dyn Write) -> io::Result<()> {
    write!(out, "{:>8} {:>7}", "distance", "count")?;
    for s in surveys {
        write!(
            out,
            " {:>20}",
            format!("{} mean [min-max]", short(s.heuristic.name()))
        )?;
    }
    writeln!(out)?;
    let rows = surveys.first().map_or(0, |s| s.by_distance.len());
    for i in 0..rows {
        let d = &surveys[0].by_distance[i];
        write!(out, "{:>8} {:>7}", d.distance, d.count)?;
        for s in surveys {
            let d = &s.by_distance[i];
            write!(
                out,
                " {:>20}",
                format!("{:.2} [{}-{}]", d.mean, d.min, d.max)
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Column headings short enough for the table.
fn short(name: &str) -> &str {
    match name {
        "linear-conflict" => "linear",
        "manhattan+blank" => "m+blank",
        "manhattan" => "manh.",
        "misplaced" => "misp.",
        other => other,
    }
}
