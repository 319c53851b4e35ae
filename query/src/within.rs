//! `query solve --within W`: a solution at most W times the optimum, with
//! the lower bound that proves it, on any board, with or without a file.

use crate::print::{print, Format};
use crate::search::{print_timed_out, with_progress};
use crate::solve::{outcome, SolveArgs, Solved};
use crate::Outcome;
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::bounded::{answer_within, Guidance, Weight};
use npuzzle::io::Answer;
use npuzzle::pattern::{SolveError, Stopped};
use npuzzle::{AnswerError, Database, Shape};
use std::io::Write;

/// `query solve --within W`, guided by `db`'s pattern tables where it has
/// them (`db` is `None` where no file was found, and none is needed).
pub fn run(
    db: Option<&Database<Mmap>>,
    shape: Shape,
    args: &SolveArgs,
    weight: Weight,
    out: &mut impl Write,
) -> Result<Outcome> {
    let (start, goal) = args.pair.boards(shape)?;
    let guidance = Guidance::for_file(db, &goal)?;
    let timeout = args.timeout.timeout;
    // One thread: the search is sequential.
    let found = with_progress(timeout, false, "with optimal ≥", |options| {
        answer_within(&start, &goal, weight, &guidance, options)
    });
    let answer = match found {
        Ok(answer) => answer,
        Err(SolveError::Unsolvable(why)) => Answer::new(start, goal, Err(&why), None),
        Err(SolveError::Stopped(stopped @ Stopped::TimedOut { .. })) => {
            // As `solve` without --within: the record, then the error.
            let _ = print_timed_out(args.json, out, (&start, &goal), timeout, &stopped);
            anyhow::bail!(
                "{stopped} (--timeout {} s); {}",
                timeout.unwrap_or_default().as_secs_f64(),
                if !weight.is_largest() {
                    "a larger --within, or a longer --timeout, may find one"
                } else {
                    "a longer --timeout may find one"
                }
            )
        }
        // As the database's answer, so that the advice on damaged files
        // (`query verify`, the rebuild command) is added to it.
        Err(e @ SolveError::DamagedTables { .. }) => return Err(AnswerError::from(e).into()),
        Err(e) => return Err(e.into()),
    };
    let solved = Solved {
        answer: &answer,
        boards: args.boards,
    };
    print(&solved, Format::json_or_text(args.json), out)?;
    Ok(outcome(&answer))
}
