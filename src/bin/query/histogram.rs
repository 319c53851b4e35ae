//! `query histogram`.

use crate::{cell_name, goal_arg, Outcome};
use memmap2::Mmap;
use npuzzle::Database;
use std::io::Write;

/// Arguments of `query histogram`.
#[derive(clap::Args)]
pub struct HistogramArgs {
    /// The goal [default: tiles in order, blank last].
    #[arg(long)]
    goal: Option<String>,
    /// JSON: {"goal", "states", "max_distance", "counts"}.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header line: distance,count.
    #[arg(long)]
    csv: bool,
}

/// Widest bar in the terminal chart, in characters.
const BAR_WIDTH: usize = 50;

/// `query histogram`: read from the header, so it costs nothing.
pub fn run(
    db: &Database<Mmap>,
    args: &HistogramArgs,
    out: &mut impl Write,
) -> anyhow::Result<Outcome> {
    let shape = db.shape();
    let goal = goal_arg(args.goal.as_deref(), shape)?;
    let target = db.target(&goal)?;
    let counts = &target.info().counts;
    let states: u64 = counts.iter().sum();
    if args.json {
        let value = serde_json::json!({
            "goal": goal.to_string(),
            "states": states,
            "max_distance": counts.len() - 1,
            "counts": counts,
        });
        writeln!(out, "{value}")?;
    } else if args.csv {
        writeln!(out, "distance,count")?;
        for (d, c) in counts.iter().enumerate() {
            writeln!(out, "{d},{c}")?;
        }
    } else {
        writeln!(
            out,
            "goal {goal} ({shape}, blank at {}): {states} positions, maximum distance {}",
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
