//! `query solve --within W`: a solution at most W times the optimum, with
//! the lower bound that proves it, on any board, with or without a file.

use crate::print::{print, Format};
use crate::solve::{outcome, with_progress, SolveArgs, Solved};
use crate::Outcome;
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::bounded::{solve_within, Guidance, Weight};
use npuzzle::io::{Answer, Nodes, WithinBound};
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
    let guidance = match db {
        Some(db) => Guidance::for_database(db, &goal)?,
        None => Guidance::linear_conflict(),
    };
    let timeout = args.timeout.timeout;
    // One thread: the search is sequential.
    let found = with_progress(timeout, false, "with optimal ≥", |options| {
        solve_within(&start, &goal, weight, &guidance, options)
    });
    let answer = match found {
        Ok(found) => {
            let nodes = Nodes::from(&found.solution);
            let within = WithinBound {
                weight_thousandths: weight.thousandths(),
                lower_bound: found.lower_bound,
                heuristic: guidance.name(),
            };
            Answer::new(start, goal, Ok(found.solution.moves), Some(nodes)).bounded(within)
        }
        Err(SolveError::Unsolvable(why)) => Answer::new(start, goal, Err(&why), None),
        Err(e @ SolveError::Stopped(Stopped::TimedOut { .. })) => anyhow::bail!(
            "{e} (--timeout {} s); {}",
            timeout.unwrap_or_default().as_secs_f64(),
            if !weight.is_largest() {
                "a larger --within, or a longer --timeout, may find one"
            } else {
                "a longer --timeout may find one"
            }
        ),
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
