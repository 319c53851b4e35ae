//! `query heuristics`: the classic heuristics measured against the truth.

use crate::plot::{self, Series};
use crate::print::{print, Layout};
use crate::{ChartArgs, Outcome};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{survey_all, Survey};
use npuzzle::CompleteTables;
use serde::Serialize;
use std::io::{self, Write};

/// Arguments of `query heuristics`.
#[derive(clap::Args)]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text: {\"board\", \"goal\", \"positions\", \"heuristics\": \
     [{\"heuristic\", \"by_distance\": [{\"distance\", \"count\", \"mean\", \"min\", \
     \"max\"}], \"inadmissible\", \"moves\", \"inconsistent\", \"mean_ratio\"}]}"
)))]
pub struct HeuristicsArgs {
    // With --plot: the mean of each heuristic against the true distance.
    #[command(flatten)]
    chart: ChartArgs,
}

/// `query heuristics`: every position of the goal's table, four heuristics.
pub fn run(
    db: &CompleteTables<Mmap>,
    args: &HeuristicsArgs,
    out: &mut impl Write,
) -> Result<Outcome> {
    let plot_path = args.chart.plot.checked()?;
    let goal = args.chart.goal.board(db.shape())?;
    let target = db.goal_table(&goal)?;
    let heuristics = survey_all(&target);
    let report = Report {
        board: db.shape().to_string(),
        goal: goal.to_string(),
        positions: heuristics.first().map_or(0, |s| s.positions),
        heuristics,
    };
    let surveys = &report.heuristics;
    if let Some(path) = plot_path {
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
        plot::heuristics(path, &title, &series, max)?;
    }
    print(&report, args.chart.format.format(), out)?;
    Ok(Outcome::Success)
}

/// What `query heuristics` reports: the board and goal, as every command's
/// JSON object names them, and one survey per heuristic.
#[derive(Serialize)]
struct Report {
    board: String,
    goal: String,
    positions: u64,
    heuristics: Vec<Survey>,
}

impl Layout for Report {
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
