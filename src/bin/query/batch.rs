//! `query batch`: one answer per line of stdin, in input order.

use crate::{GoalArg, Outcome};
use anyhow::Context;
use memmap2::Mmap;
use npuzzle::io::{run_batch, BatchFormat};
use npuzzle::Database;
use std::io::{self, Write};

/// Arguments of `query batch`.
#[derive(clap::Args)]
pub struct BatchArgs {
    #[command(flatten)]
    goal: GoalArg,
    /// jsonl: one JSON object per line; csv: start,goal,solvable,distance,moves,error;
    /// moves: the move string alone (`-` when unsolvable).
    #[arg(long, value_enum, default_value_t = FormatArg::Jsonl)]
    format: FormatArg,
    /// Threads to spread the work over [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Jsonl,
    Csv,
    Moves,
}

impl From<FormatArg> for BatchFormat {
    fn from(f: FormatArg) -> BatchFormat {
        match f {
            FormatArg::Jsonl => BatchFormat::Jsonl,
            FormatArg::Csv => BatchFormat::Csv,
            FormatArg::Moves => BatchFormat::Moves,
        }
    }
}

/// `query batch`: bad lines get an error answer and the batch goes on; the
/// exit code is 2 if any line was bad.
pub fn run(db: &Database<Mmap>, args: &BatchArgs, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let goal = args.goal.board(db.shape())?;
    db.goal_table(&goal)?;
    let threads = match args.threads {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let summary = run_batch(
        db,
        &goal,
        args.format.into(),
        threads,
        io::stdin().lock(),
        out,
    )
    .context("batch stopped")?;
    if summary.errors > 0 {
        eprintln!(
            "query: {} of {} lines could not be answered (see their errors)",
            summary.errors, summary.lines
        );
        return Ok(Outcome::BadInput);
    }
    Ok(Outcome::Success)
}
