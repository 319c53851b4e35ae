//! `query stats`: the shape of each table's state space.

use crate::{cell_name, Outcome};
use memmap2::Mmap;
use npuzzle::Database;
use std::io::Write;

/// Arguments of `query stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `query stats`.
pub fn run(db: &Database<Mmap>, args: &StatsArgs, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let tables = npuzzle::analysis::stats(db);
    if args.json {
        let value = serde_json::json!({ "board": db.shape().to_string(), "tables": tables });
        writeln!(out, "{value}")?;
        return Ok(Outcome::Success);
    }
    let shape = db.shape();
    let plural = if tables.len() == 1 { "" } else { "s" };
    writeln!(out, "{shape} board, {} table{plural}", tables.len())?;
    for t in &tables {
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
            "  max distance    {} ({} positions)",
            t.max_distance,
            t.antipodes.len()
        )?;
        // Boards written with spaces are told apart by commas.
        let separator = if shape.cells() > 9 { ", " } else { " " };
        writeln!(out, "  farthest        {}", t.antipodes.join(separator))?;
    }
    Ok(Outcome::Success)
}
