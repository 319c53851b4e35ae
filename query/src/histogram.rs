//! `query histogram`.

use crate::plot::{self, Series};
use crate::{cell_name, cell_position, ChartArgs, Outcome};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::{Board, CompleteTables};
use std::io::Write;

/// Arguments of `query histogram`.
#[derive(clap::Args)]
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
    let plot_path = args.chart.plot.checked()?;
    if args.all_blanks {
        return all_blanks(db, args, plot_path, out);
    }
    let shape = db.shape();
    let goal = args.chart.goal.board(shape)?;
    let target = db.goal_table(&goal)?;
    let counts = &target.info().counts;
    let positions: u64 = counts.iter().sum();
    if let Some(path) = plot_path {
        let title = format!("{shape}: positions by distance from {goal}");
        plot::histogram(
            path,
            &title,
            &[Series::from_counts(goal.to_string(), counts)],
            args.log,
        )?;
    }
    if args.chart.format.json {
        writeln!(out, "{}", json(&goal, counts))?;
    } else if args.chart.format.csv {
        writeln!(out, "distance,count")?;
        for (d, c) in counts.iter().enumerate() {
            writeln!(out, "{d},{c}")?;
        }
    } else {
        writeln!(
            out,
            "goal {goal} ({shape}, blank at {}): {positions} positions, maximum distance {}",
            cell_name(shape, goal.blank()),
            counts.len() - 1
        )?;
        let largest = counts.iter().copied().max().unwrap_or(1).max(1);
        let count_width = largest.to_string().len().max(5);
        writeln!(out, "distance {:>count_width$}", "count")?;
        for (d, &c) in counts.iter().enumerate() {
            writeln!(out, "{d:>8} {c:>count_width$}  {}", bar(c, largest))?;
        }
    }
    Ok(Outcome::Success)
}

/// The object `histogram --json` prints (and `query serve` answers):
/// positions at each distance from `goal`.
pub fn json(goal: &Board, counts: &[u64]) -> serde_json::Value {
    serde_json::json!({
        "goal": goal.to_string(),
        "positions": counts.iter().sum::<u64>(),
        "max_distance": counts.len() - 1,
        "counts": counts,
    })
}

/// `--all-blanks`: every table's histogram, from the header.
fn all_blanks(
    db: &CompleteTables<Mmap>,
    args: &HistogramArgs,
    plot_path: Option<&std::path::Path>,
    out: &mut impl Write,
) -> Result<Outcome> {
    let shape = db.shape();
    let tables = &db.header().tables;
    let max = tables.iter().map(|t| t.counts.len()).max().unwrap_or(0);
    let count_at = |t: &npuzzle::TableInfo, d: usize| t.counts.get(d).copied().unwrap_or(0);
    if let Some(path) = plot_path {
        // Tables of symmetric cells have the same counts, and their curves
        // would hide each other: one curve per class, named for all.
        let mut series: Vec<(usize, Vec<usize>, &npuzzle::TableInfo)> = Vec::new();
        for t in tables {
            let class = npuzzle::symmetry::representative(shape, t.goal_blank as usize);
            match series.iter_mut().find(|(c, _, _)| *c == class) {
                Some((_, cells, _)) => cells.push(t.goal_blank as usize),
                None => series.push((class, vec![t.goal_blank as usize], t)),
            }
        }
        let series: Vec<Series> = series
            .iter()
            .map(|(_, cells, t)| {
                let mut label = format!("blank at {}", cell_name(shape, cells[0]));
                if cells.len() > 1 {
                    let others: Vec<String> = cells[1..]
                        .iter()
                        .map(|&c| cell_position(shape, c))
                        .collect();
                    label.push_str(&format!(" (also {})", others.join(" ")));
                }
                Series::from_counts(label, &t.counts)
            })
            .collect();
        let title = format!("{shape}: positions by distance, every goal blank cell");
        plot::histogram(path, &title, &series, args.log)?;
    }
    if args.chart.format.json {
        let tables: Vec<_> = tables
            .iter()
            .map(|t| {
                serde_json::json!({
                    "blank": cell_position(shape, t.goal_blank as usize),
                    "goal": npuzzle::Board::canonical_goal(shape, t.goal_blank as usize).to_string(),
                    "positions": t.entries,
                    "max_distance": t.max_distance,
                    "counts": t.counts,
                })
            })
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({ "board": shape.to_string(), "tables": tables })
        )?;
    } else {
        // Text is the CSV's columns, aligned.
        let sep = if args.chart.format.csv { "," } else { " " };
        let width = if args.chart.format.csv { 0 } else { 9 };
        let mut header = format!("{:>width$}", "distance");
        for t in tables {
            header.push_str(sep);
            let cell = cell_position(shape, t.goal_blank as usize);
            // A cell holds a comma: quoted in CSV.
            let name = if args.chart.format.csv {
                format!("\"{cell}\"")
            } else {
                cell
            };
            header.push_str(&format!("{name:>width$}"));
        }
        writeln!(out, "{header}")?;
        for d in 0..max {
            let mut row = format!("{d:>width$}");
            for t in tables {
                row.push_str(sep);
                row.push_str(&format!("{:>width$}", count_at(t, d)));
            }
            writeln!(out, "{row}")?;
        }
    }
    Ok(Outcome::Success)
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
