//! Both kinds of database behind the routes: complete tables answer by
//! lookup, pattern databases by IDA* within the server's `--timeout`.
//!
//! Every answer that depends on the kind is asked for in this file, so that
//! the routes ask for answers and a refusal, and never match on a kind
//! (`/api/boards` names it, from `Database::kind`).

use super::code::Code;
use super::error::{answer_error, client_gone, ApiError};
use memmap2::Mmap;
use npuzzle::analysis::{self, Neighbour, Truth};
use npuzzle::bounded::{self, Guidance, Weight};
use npuzzle::io::{Answer, Nodes};
use npuzzle::pattern::{Solution, SolveOptions};
use npuzzle::{rules::Cells, Board, CompleteTables, Database};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A database served, of either kind.
pub type Db = Database<Mmap>;

/// What one request may spend on searching: pattern databases stop at the
/// deadline, or at once when the request is dropped (its client gone).
pub struct Budget<'a> {
    pub deadline: Instant,
    pub cancel: &'a AtomicBool,
    /// The server's `--timeout`, for the message when it runs out.
    pub timeout: Duration,
}

/// The goal blank cells answered: those with a table (or a set of pattern
/// tables) of their own or through a symmetry of the board.
pub fn blanks(db: &Db) -> Cells {
    let shape = db.shape();
    Cells::of(shape, (0..shape.cells()).filter(|&c| db.serves(c)))
}

/// The complete tables, or the one refusal for what needs them: `what`
/// names the route's work ("counting positions at each distance").
pub fn complete<'a>(db: &'a Db, what: &str) -> Result<&'a CompleteTables<Mmap>, ApiError> {
    db.complete().map_err(|e| {
        ApiError::new(
            Code::NeedsCompleteTables,
            format!(
                "{what}: {e}; on this board the server answers solve, distance, moves, \
                 random (positions at a distance found by walks), worksheet, check, \
                 heuristics and compare"
            ),
        )
    })
}

/// A search within the request's budget, on every core.
pub fn options<'a>(budget: &Budget<'a>) -> SolveOptions<'a> {
    SolveOptions {
        deadline: Some(budget.deadline),
        cancel: Some(budget.cancel),
        parallel: true,
        ..SolveOptions::default()
    }
}

/// What is known of the distance from `start` to `goal`: looked up, or
/// searched within the budget (over linear conflicts where no file is
/// served for the board: `db` is `None`); where the deadline passes
/// first, the bound the search proved.
pub fn truth(
    db: Option<&Db>,
    start: &Board,
    goal: &Board,
    budget: &Budget,
) -> Result<Truth, ApiError> {
    analysis::search_truth(db, start, goal, &options(budget))
        .map_err(|e| answer_error(e, Some((start, goal)), budget.timeout))
}

/// One shortest solution from `start` to `goal`.
pub fn solve(db: &Db, start: &Board, goal: &Board, budget: &Budget) -> Result<Solution, ApiError> {
    db.solve(start, goal, &options(budget))
        .map_err(|e| answer_error(e, Some((start, goal)), budget.timeout))
}

/// The distance from `start` to `goal`, and each legal move with the board
/// it leads to and that board's distance ([`analysis::neighbours`]).
pub fn neighbours(
    db: &Db,
    start: &Board,
    goal: &Board,
    budget: &Budget,
) -> Result<(u32, Vec<Neighbour>), ApiError> {
    analysis::neighbours(db, start, goal, &options(budget))
        .map_err(|e| answer_error(e, Some((start, goal)), budget.timeout))
}

/// The default goal's largest distance, known without a search only from
/// complete tables.
pub fn max_distance(db: &Db, goal: &Board) -> Option<u32> {
    let table = db.complete().ok()?.goal_table(goal).ok()?;
    Some(table.info().max_distance.into())
}

/// Whether the file answers toward `goal`, refused as every route refuses
/// a goal whose blank cell has no table.
pub fn check_goal(db: &Db, goal: &Board) -> Result<(), ApiError> {
    db.check_goal(goal)
        .map_err(|e| answer_error(e, None, Duration::ZERO))
}

/// `solve --json`'s answer for one shortest solution, with `nodes` where
/// a search ran, as the command line gives it for pattern files.
pub fn answer(db: &Db, start: &Board, goal: &Board, budget: &Budget) -> Result<Answer, ApiError> {
    let solution = solve(db, start, goal, budget)?;
    let nodes = db.patterns().map(|_| Nodes::from(&solution));
    Ok(Answer::new(*start, *goal, Ok(solution.moves), nodes).counted_in(db.metric()))
}

/// `solve --within W --json`'s answer: a solution at most `weight` times
/// the shortest, with the lower bound that proves it, searched on one
/// thread (as the command line does) and guided by the file's pattern
/// tables where it has them; by linear conflicts where no file is served
/// for the board (`db` is `None`) or its tables do not serve the goal.
/// `db` counts single-tile moves: the caller refuses within on others.
pub fn answer_within(
    db: Option<&Db>,
    (start, goal): (&Board, &Board),
    weight: Weight,
    budget: &Budget,
) -> Result<Answer, ApiError> {
    let fail = |e: npuzzle::AnswerError| match e {
        e @ npuzzle::AnswerError::Stopped(npuzzle::pattern::Stopped::Cancelled { .. }) => {
            client_gone(e)
        }
        // Already within W: the advice is a larger one, not within= itself.
        e @ npuzzle::AnswerError::Stopped(_) => ApiError::new(
            Code::TimedOut,
            format!(
                "{e} (the server's --timeout is {} s); {}",
                budget.timeout.as_secs_f64(),
                if !weight.is_largest() {
                    "a larger within, or a longer serve --timeout, may find one"
                } else {
                    "a longer serve --timeout may find one"
                }
            ),
        ),
        e => answer_error(e, Some((start, goal)), budget.timeout),
    };
    let guidance = Guidance::for_file(db, goal).map_err(fail)?;
    let options = SolveOptions {
        parallel: false,
        ..options(budget)
    };
    bounded::answer_within(start, goal, weight, &guidance, &options).map_err(|e| fail(e.into()))
}
