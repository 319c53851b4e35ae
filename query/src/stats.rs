//! `query stats`: the shape of each table's state space.

use crate::print::{print, Layout};
use crate::{plural, GoalArg, Outcome, TableFormat};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{stats, stats_toward, Stats};
use npuzzle::CompleteTables;
use std::io::{self, Write};

/// Arguments of `query stats`.
#[derive(clap::Args)]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text: {\"board\", \"metric\" (stm or mtm), \"tables\": \
     [{\"blank\", \"goal\", \
     \"positions\", \"max_distance\", \"mean_distance\", \"farthest\": [every board at the \
     maximum distance]}]}"
)))]
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
    let report = match &args.goal.goal {
        Some(_) => stats_toward(&db.goal_table(&args.goal.board(db.shape())?)?),
        None => stats(db),
    };
    print(&report, args.format.format(), out)?;
    Ok(Outcome::Success)
}

impl Layout for Stats {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let shape = self.board;
        writeln!(
            out,
            "{shape} board, {}{}",
            plural(self.tables.len() as u64, "table"),
            crate::histogram::counted_in(self.metric)
        )?;
        for t in &self.tables {
            writeln!(out)?;
            writeln!(out, "goal {} (blank at {})", t.goal, t.blank.name())?;
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

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "blank,goal,positions,mean_distance,max_distance,farthest_count"
        )?;
        for t in &self.tables {
            writeln!(
                out,
                "\"{}\",{},{},{:.6},{},{}",
                t.blank,
                t.goal,
                t.positions,
                t.mean_distance,
                t.max_distance,
                t.farthest.len()
            )?;
        }
        Ok(())
    }
}
