//! `query batch`: one answer per line of stdin, in input order.

use crate::{goal_arg, Outcome};
use anyhow::Context;
use memmap2::Mmap;
use npuzzle::batch::{LineAnswerer, LineOutcome};
use npuzzle::Database;
use std::io::{self, BufRead, BufReader, Write};

/// Arguments of `query batch`.
#[derive(clap::Args)]
pub struct BatchArgs {
    /// The goal for lines that give none [default: tiles in order, blank last].
    #[arg(long)]
    goal: Option<String>,
}

/// Output is flushed in blocks of about this many bytes.
const BLOCK: usize = 1 << 16;

/// `query batch`: bad lines get an error object and the batch goes on; the
/// exit code is 2 if any line was bad.
pub fn run(db: &Database<Mmap>, args: &BatchArgs, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let goal = goal_arg(args.goal.as_deref(), db.shape())?;
    let mut answerer = LineAnswerer::new(db, db.target(&goal)?);
    let mut input = BufReader::with_capacity(BLOCK, io::stdin().lock());
    let mut line = Vec::with_capacity(256);
    let mut buffer = Vec::with_capacity(2 * BLOCK);
    let (mut number, mut bad) = (0u64, 0u64);
    loop {
        line.clear();
        if input
            .read_until(b'\n', &mut line)
            .context("cannot read stdin")?
            == 0
        {
            break;
        }
        number += 1;
        if answerer.answer(number, &line, &mut buffer) == LineOutcome::Error {
            bad += 1;
        }
        if buffer.len() >= BLOCK {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)?;
    out.flush()?;
    if bad > 0 {
        eprintln!(
            "query: {bad} of {number} lines could not be answered (see their \"error\" fields)"
        );
        return Ok(Outcome::BadInput);
    }
    Ok(Outcome::Success)
}
