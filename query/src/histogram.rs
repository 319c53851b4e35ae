//! `query histogram`.

use crate::plot::{self, Series};
use crate::print::{print, Layout};
use crate::{ChartArgs, Outcome};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{Histogram, Histograms};
use npuzzle::{Cell, CompleteTables, Metric};
use std::io::{self, Write};

/// Arguments of `query histogram`.
#[derive(clap::Args)]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text: {\"goal\", \"board\", \"metric\" (stm or mtm), \
     \"positions\", \"max_distance\", \"counts\": [positions at 0, 1, … moves]}; with \
     --all-blanks, {\"board\", \"metric\", \"tables\": [{\"blank\", \"goal\", \"positions\", \
     \"max_distance\", \"counts\"}]}"
)))]
pub struct HistogramArgs {
    #[command(flatten)]
    chart: ChartArgs,
    /// With --plot: a logarithmic count axis.
    #[arg(long, requires = "plot")]
    log: bool,
    /// Every table in the file at once (one per goal blank cell, each for
    /// its goal with the tiles in order): columns side by side, curves overlaid.
    #[arg(long, conflicts_with = "goal")]
    all_blanks: bool,
}

/// Widest bar in the terminal chart, in characters.
const BAR_WIDTH: usize = 50;

/// `query histogram`: read from the header, so it costs nothing.
pub fn run(
    db: &CompleteTables<Mmap>,
    args: &HistogramArgs,
    out: &mut impl Write,
) -> Result<Outcome> {
    if args.all_blanks {
        let chart = args.chart.plot.start()?;
        let report = Histograms::of(db);
        if let Some(chart) = chart {
            plot_all(&report, chart, args.log)?;
        }
        print(&report, args.chart.format.format(), out)?;
        return Ok(Outcome::Success);
    }
    let shape = db.shape();
    let goal = args.chart.goal.board(shape)?;
    let target = db.goal_table(&goal)?;
    let chart = args.chart.plot.start()?;
    let report = Histogram::of(&target);
    if let Some(chart) = chart {
        let title = format!("{shape}: positions by distance from {goal}");
        let series = [Series::from_counts(goal.to_string(), &report.counts)];
        plot::histogram(chart, &title, report.metric, &series, args.log)?;
    }
    print(&report, args.chart.format.format(), out)?;
    Ok(Outcome::Success)
}

impl Layout for Histogram {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let shape = self.goal.shape();
        writeln!(
            out,
            "goal {} ({shape}, blank at {}): {} positions, maximum distance {}{}",
            self.goal,
            Cell::of(shape, self.goal.blank()).name(),
            self.positions,
            self.max_distance,
            counted_in(self.metric)
        )?;
        let largest = self.counts.iter().copied().max().unwrap_or(1).max(1);
        let count_width = largest.to_string().len().max(5);
        writeln!(out, "distance {:>count_width$}", "count")?;
        for (d, &c) in self.counts.iter().enumerate() {
            writeln!(out, "{d:>8} {c:>count_width$}  {}", bar(c, largest))?;
        }
        Ok(())
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "distance,count")?;
        for (d, c) in self.counts.iter().enumerate() {
            writeln!(out, "{d},{c}")?;
        }
        Ok(())
    }
}

/// `--all-blanks` with `--plot`: one curve per class of symmetric cells.
fn plot_all(report: &Histograms, chart: plot::ChartFile, log: bool) -> Result<()> {
    let shape = report.board;
    // Tables of symmetric cells have the same counts, and their curves
    // would hide each other: one curve per class, named for all.
    let mut series: Vec<(usize, Vec<usize>, &Histogram)> = Vec::new();
    for t in &report.tables {
        let blank = t.blank.index(shape);
        let class = npuzzle::rules::symmetry::representative(shape, blank);
        match series.iter_mut().find(|(c, _, _)| *c == class) {
            Some((_, cells, _)) => cells.push(blank),
            None => series.push((class, vec![blank], &t.histogram)),
        }
    }
    let series: Vec<Series> = series
        .iter()
        .map(|(_, cells, h)| {
            let mut label = format!("blank at {}", Cell::of(shape, cells[0]).name());
            if cells.len() > 1 {
                let others: Vec<String> = cells[1..]
                    .iter()
                    .map(|&c| Cell::of(shape, c).to_string())
                    .collect();
                label.push_str(&format!(" (also {})", others.join(" ")));
            }
            Series::from_counts(label, &h.counts)
        })
        .collect();
    let title = format!("{shape}: positions by distance, every goal blank cell");
    Ok(plot::histogram(chart, &title, report.metric, &series, log)?)
}

/// The tables' columns side by side: aligned for text, or as CSV.
fn columns(report: &Histograms, csv: bool, out: &mut dyn Write) -> io::Result<()> {
    let sep = if csv { "," } else { " " };
    let width = if csv { 0 } else { 9 };
    let mut header = format!("{:>width$}", "distance");
    for t in &report.tables {
        header.push_str(sep);
        // A cell holds a comma: quoted in CSV.
        let name = if csv {
            format!("\"{}\"", t.blank)
        } else {
            t.blank.to_string()
        };
        header.push_str(&format!("{name:>width$}"));
    }
    writeln!(out, "{header}")?;
    let max = report.tables.iter().map(|t| t.histogram.counts.len());
    for d in 0..max.max().unwrap_or(0) {
        let mut row = format!("{d:>width$}");
        for t in &report.tables {
            let count = t.histogram.counts.get(d).copied().unwrap_or(0);
            row.push_str(sep);
            row.push_str(&format!("{count:>width$}"));
        }
        writeln!(out, "{row}")?;
    }
    Ok(())
}

// Text is the CSV's columns, aligned.
impl Layout for Histograms {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.metric == Metric::MultiTile {
            writeln!(out, "distances in multi-tile moves")?;
        }
        columns(self, false, out)
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        columns(self, true, out)
    }
}

/// What a distance counts, after a number: said only for the multi-tile
/// metric, single-tile moves being what the puzzle's literature counts.
pub(crate) fn counted_in(metric: Metric) -> &'static str {
    match metric {
        Metric::SingleTile => "",
        Metric::MultiTile => " (multi-tile moves)",
    }
}

/// A bar proportional to `count`, in eighths of a character.
fn bar(count: u64, largest: u64) -> String {
    const PARTS: [char; 8] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'];
    let eighths = (count as u128 * (BAR_WIDTH as u128 * 8) / largest as u128) as usize;
    let mut s = "█".repeat(eighths / 8);
    match eighths % 8 {
        0 if count > 0 && eighths == 0 => s.push(PARTS[0]),
        0 => {}
        r => s.push(PARTS[r - 1]),
    }
    s
}
