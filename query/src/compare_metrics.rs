//! `query compare-metrics`: single-tile against multi-tile distances over
//! every position of a board, toward one goal.

use crate::print::{print, Layout};
use crate::{GoalArg, Outcome, TableFormat};
use anyhow::{Context, Result};
use memmap2::Mmap;
use npuzzle::analysis::{compare_metrics, MetricComparison};
use npuzzle::files::shown_path;
use npuzzle::files::{locate_unnamed, Location};
use npuzzle::{CompleteTables, Metric, Shape};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Arguments of `query compare-metrics`.
#[derive(clap::Args)]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text: {\"goal\", \"positions\", \"joint\": [{\"stm\", \"mtm\", \
     \"positions\"}], \"largest_ratio\": {\"ratio\", \"stm\", \"mtm\", \"position\"}}"
)))]
pub struct CompareMetricsArgs {
    #[command(flatten)]
    goal: GoalArg,
    /// The database of the other metric (the one --metric does not name) [default:
    /// data/RxC-mtm.db, or data/RxC.db under --metric mtm, where query finds it].
    #[arg(long, value_name = "PATH", value_parser = npuzzle::io::non_empty_path())]
    with: Option<PathBuf>,
    #[command(flatten)]
    format: TableFormat,
}

/// `query compare-metrics`: `db` is the database of one metric (found as
/// every command finds it, at `location`), the other is `--with` or found
/// beside it by name.
pub fn run(
    db: &CompleteTables<Mmap>,
    location: &Location,
    args: &CompareMetricsArgs,
    out: &mut impl Write,
) -> Result<Outcome> {
    let shape = db.shape();
    let other_metric = match db.metric() {
        Metric::SingleTile => Metric::MultiTile,
        Metric::MultiTile => Metric::SingleTile,
    };
    let unnamed = locate_unnamed(shape, other_metric);
    let other_location = match &args.with {
        Some(path) => {
            check_with(path, shape, other_metric, &unnamed)?;
            Location {
                path: path.clone(),
                origin: npuzzle::files::Origin::Given,
            }
        }
        None => unnamed,
    };
    let other_db = crate::open_database(&other_location, shape, Some(shape), Some(other_metric))
        .with_context(|| {
            format!(
                "compare-metrics needs a {} database as well as {}",
                other_metric.words(),
                shown_path(&location.path)
            )
        })?;
    let other = crate::complete(&other_db, "compare-metrics")?;
    let goal = args.goal.board(shape)?;
    // A table the other file lacks: its own name and rebuild in the message
    // (the --db file's would be added to an error left as it is).
    let other_table = other
        .goal_table(&goal)
        .map_err(|e| crate::with_advice(e.into(), &other_location, &other_db, true))
        .with_context(|| format!("in {}", shown_path(&other_location.path)))?;
    let (single, multi) = match db.metric() {
        Metric::SingleTile => (db.goal_table(&goal)?, other_table),
        Metric::MultiTile => (other_table, db.goal_table(&goal)?),
    };
    let report = compare_metrics(&single, &multi)?;
    print(&report, args.format.format(), out)?;
    Ok(Outcome::Success)
}

/// Refuses a `--with` file of another board or metric, with advice about
/// `--with` (opening it as `--db` would advise about `--db`); a file that
/// does not open is left to the usual message.
fn check_with(path: &Path, shape: Shape, metric: Metric, unnamed: &Location) -> Result<()> {
    let Ok(other) = npuzzle::Database::open(path) else {
        return Ok(());
    };
    let words = metric.words();
    let wrong = if other.shape() != shape {
        format!("holds {} boards, not {shape}", other.shape())
    } else if other.metric() != metric {
        format!("counts {} moves, not {words}", other.metric().words())
    } else {
        return Ok(());
    };
    // Leaving out --with helps only where the file it would open is there.
    let instead = match unnamed.path.is_file() {
        true => format!("leave out --with to use {}", shown_path(&unnamed.path)),
        false => format!(
            "build one with: {}",
            crate::build_command(&unnamed.path, shape, metric)
        ),
    };
    anyhow::bail!(
        "--with {} {wrong}; pass --with a {shape} {words} database, or {instead}",
        shown_path(path),
    )
}

impl Layout for MetricComparison {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "goal {} ({}): {} positions",
            self.goal,
            self.goal.shape(),
            self.positions
        )?;
        if let Some(r) = &self.largest_ratio {
            writeln!(
                out,
                "largest ratio {:.3}: {} is {} and {} away",
                r.ratio,
                r.position,
                crate::plural(r.stm as u64, "single-tile move"),
                crate::plural(r.mtm as u64, "multi-tile move")
            )?;
        }
        writeln!(out, "stm mtm positions")?;
        for j in &self.joint {
            writeln!(out, "{:>3} {:>3} {:>9}", j.stm, j.mtm, j.positions)?;
        }
        Ok(())
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "stm,mtm,positions")?;
        for j in &self.joint {
            writeln!(out, "{},{},{}", j.stm, j.mtm, j.positions)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::analysis::Ratio;
    use npuzzle::{Board, Shape};

    #[test]
    fn one_move_is_said_in_the_singular() {
        let shape = Shape::new(2, 5).unwrap();
        let position = npuzzle::parse_board("1234506789", shape).unwrap();
        let comparison = MetricComparison {
            goal: Board::goal(shape),
            positions: 2,
            joint: Vec::new(),
            largest_ratio: Some(Ratio {
                ratio: 4.0,
                stm: 4,
                mtm: 1,
                position,
            }),
        };
        let mut text = Vec::new();
        comparison.text(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("is 4 single-tile moves and 1 multi-tile move away"),
            "{text}"
        );
    }
}
