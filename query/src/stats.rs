//! `query stats`: the shape of each table's state space.

use crate::{cell_name, cell_position, plural, GoalArg, Outcome, TableFormat};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{stats, stats_toward, TableStats};
use npuzzle::CompleteTables;
use std::io::Write;

/// Arguments of `query stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    // With --goal: only the table of that goal; without, every table, each
    // toward its goal with the tiles in order.
    #[command(flatten)]
    goal: GoalArg,
    #[command(flatten)]
    format: TableFormat,
}

/// Farthest positions listed in the text; `--json` lists all of them.
const FARTHEST_SHOWN: usize = 6;

/// `query stats`.
pub fn run(db: &CompleteTables<Mmap>, args: &StatsArgs, out: &mut impl Write) -> Result<Outcome> {
    let shape = db.shape();
    let tables = match &args.goal.goal {
        Some(_) => vec![stats_toward(&db.goal_table(&args.goal.board(shape)?)?)],
        None => stats(db),
    };
    if args.format.json {
        let tables: Vec<_> = tables
            .iter()
            .map(|t| {
                serde_json::json!({
                    "blank": cell_position(shape, t.blank),
                    "goal": t.goal,
                    "positions": t.positions,
                    "mean_distance": t.mean_distance,
                    "max_distance": t.max_distance,
                    "farthest": t.farthest,
                })
            })
            .collect();
        let value = serde_json::json!({ "board": shape.to_string(), "tables": tables });
        writeln!(out, "{value}")?;
    } else if args.format.csv {
        writeln!(
            out,
            "blank,goal,positions,mean_distance,max_distance,farthest"
        )?;
        for t in &tables {
            writeln!(
                out,
                "\"{}\",{},{},{:.6},{},{}",
                cell_position(shape, t.blank),
                t.goal,
                t.positions,
                t.mean_distance,
                t.max_distance,
                t.farthest.len()
            )?;
        }
    } else {
        write_text(db, &tables, out)?;
    }
    Ok(Outcome::Success)
}

fn write_text(
    db: &CompleteTables<Mmap>,
    tables: &[TableStats],
    out: &mut impl Write,
) -> Result<()> {
    let shape = db.shape();
    writeln!(
        out,
        "{shape} board, {}",
        plural(tables.len() as u64, "table")
    )?;
    for t in tables {
        writeln!(out)?;
        writeln!(
            out,
            "goal {} (blank at {})",
            t.goal,
            cell_name(shape, t.blank)
        )?;
        writeln!(out, "  positions       {}", t.positions)?;
        writeln!(out, "  mean distance   {:.3}", t.mean_distance)?;
        writeln!(
            out,
            "  max distance    {} ({})",
            t.max_distance,
            plural(t.farthest.len() as u64, "position")
        )?;
        // Boards written with spaces are told apart by commas.
        let separator = if shape.cells() > 9 { ", " } else { " " };
        let shown = &t.farthest[..t.farthest.len().min(FARTHEST_SHOWN)];
        write!(out, "  farthest        {}", shown.join(separator))?;
        let more = t.farthest.len() - shown.len();
        if more > 0 {
            write!(out, " … and {more} more (--json lists all)")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
