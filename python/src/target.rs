//! Answers toward one goal from either kind of database: a complete table
//! looks them up, pattern databases search for them (IDA*). The methods of
//! `Database` and the batches ask a `Target` and need not know which.

use crate::database::PyDatabase;
use crate::errors;
use crate::interrupt::interruptible;
use crate::pools;
use npuzzle::analysis::{
    compare_searched, search_truth, CompareError, Comparison, DrawError, Evaluator, Heuristic,
    Sample, Truth,
};
use npuzzle::io::Nodes;
use npuzzle::pattern::{Solution, SolveOptions};
use npuzzle::AnswerError;
use npuzzle::{rules::solvability, Board, GoalTable, Move};
use pyo3::prelude::*;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Where the answers toward one goal come from. One lives per question, on
/// the stack, so the table's inline size costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Target<'a> {
    /// A complete table: every answer a lookup.
    Table(GoalTable<'a>),
    /// Pattern databases: every answer a search.
    Search(Search<'a>),
}

/// Searches toward one goal over pattern databases.
pub struct Search<'a> {
    pub db: &'a PyDatabase,
    pub goal: Board,
    /// Every search stops here (`timeout=`).
    pub deadline: Option<Instant>,
    /// Set on Ctrl-C: every search stops.
    pub cancel: AtomicBool,
}

impl Search<'_> {
    /// Stops every search at its next check.
    fn cancel(&self) {
        self.cancel.store(true, Relaxed);
    }

    /// A search from `start`; `parallel` splits it over the cores (for a
    /// single question; a batch runs one search per thread instead).
    fn solve(&self, start: &Board, parallel: bool) -> Result<Solution, AnswerError> {
        self.db.search(start, &self.goal, &self.options(parallel))
    }

    /// Searches stopped by `timeout=` and Ctrl-C.
    fn options(&self, parallel: bool) -> SolveOptions<'_> {
        SolveOptions {
            deadline: self.deadline,
            cancel: Some(&self.cancel),
            parallel,
            ..SolveOptions::default()
        }
    }
}

/// The instant `timeout=` (checked by `arguments::seconds`) runs out,
/// counted from now; None for no limit.
pub fn deadline(timeout: Option<Duration>) -> Option<Instant> {
    timeout.and_then(|d| Instant::now().checked_add(d))
}

/// What is known of the distance from `start` to `goal` with no file: IDA*
/// over linear conflicts on one thread without the GIL, holding only its
/// path, stopped at `deadline` or by Ctrl-C (the bound proved stands in).
pub fn truth_without_file(
    py: Python<'_>,
    start: &Board,
    goal: &Board,
    deadline: Option<Instant>,
) -> PyResult<Truth> {
    let cancel = AtomicBool::new(false);
    let search = || {
        let options = SolveOptions {
            deadline,
            cancel: Some(&cancel),
            ..Default::default()
        };
        search_truth::<memmap2::Mmap>(None, start, goal, &options)
    };
    let stop = || cancel.store(true, Relaxed);
    interruptible(py, stop, search)?.map_err(|e| errors::search(py, e))
}

impl Target<'_> {
    /// How the answers count moves: a pattern database's searches count
    /// single tiles.
    pub fn metric(&self) -> npuzzle::Metric {
        match self {
            Target::Table(table) => table.metric(),
            Target::Search(_) => npuzzle::Metric::SingleTile,
        }
    }

    /// The goal the answers lead to.
    pub fn goal(&self) -> Board {
        match self {
            Target::Table(table) => *table.goal(),
            Target::Search(search) => search.goal,
        }
    }

    /// True when answers are searched for: worth releasing the GIL for,
    /// and handed out one position at a time in a batch (searches vary
    /// from microseconds to seconds).
    pub fn searches(&self) -> bool {
        matches!(self, Target::Search(_))
    }

    /// `f()` without the GIL. A search runs in this process's pool (which
    /// its parallel iterators split over) while the caller's thread waits
    /// and checks for signals, so that Ctrl-C stops it (through `cancel`)
    /// as it stops Python code.
    pub fn without_gil<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce() -> T + Send,
    ) -> PyResult<T> {
        match self {
            Target::Search(search) => {
                let pool = pools::LIBRARY.get().map_err(|e| errors::other(py, e))?;
                interruptible(py, || search.cancel(), || pool.install(f))
            }
            Target::Table(_) => Ok(py.detach(f)),
        }
    }

    /// Asks every search toward this goal to stop (Ctrl-C); lookups take no
    /// time and need no asking.
    pub fn cancel(&self) {
        if let Target::Search(search) = self {
            search.cancel();
        }
    }

    /// The lower bound `heuristic` gives from `start` toward the goal
    /// (with `evaluator`, made once for the goal), or with none the
    /// pattern tables' own, the bound their search starts from; the
    /// position's unsolvability where it cannot reach the goal. A complete
    /// table has no estimate of its own: the caller asks it for a
    /// heuristic.
    pub fn estimate(
        &self,
        start: &Board,
        heuristic: Option<(Heuristic, &Evaluator)>,
    ) -> Result<u32, AnswerError> {
        let goal = self.goal();
        solvability::check(start, &goal).map_err(AnswerError::Unsolvable)?;
        match (heuristic, self) {
            (Some((heuristic, evaluator)), _) => Ok(evaluator.h(heuristic, start)),
            (None, Target::Search(search)) => {
                let tables =
                    (search.db.database().patterns()).expect("searches read pattern databases");
                tables.search_estimate(start, &goal)
            }
            (None, Target::Table(_)) => unreachable!("complete tables are asked for a heuristic"),
        }
    }

    /// `count` positions at `distances` toward the goal, as every face
    /// draws them ([`Sample::at_distance`]): from a complete table's list,
    /// or found by walks that pattern databases solve (within `timeout=`
    /// and Ctrl-C).
    pub fn at_distance(
        &self,
        distances: RangeInclusive<u32>,
        (count, seed): (usize, u64),
    ) -> Result<Sample, DrawError> {
        match self {
            Target::Table(table) => Ok(Sample::draw(table, distances, count, seed)?),
            Target::Search(search) => {
                let (db, goal) = (search.db.database(), &search.goal);
                let options = search.options(true);
                Sample::at_distance(db, goal, distances, (count, seed), &options)
                    .map(|(drawn, _)| drawn)
            }
        }
    }

    /// The textbook searches from `start` against a pattern database's
    /// optimal search ([`compare_searched`]); None on complete tables,
    /// which compare against a lookup instead.
    pub fn compared(
        &self,
        start: &Board,
        max_nodes: u64,
        depth_limit: Option<u32>,
    ) -> Option<Result<Comparison, CompareError>> {
        let Target::Search(search) = self else {
            return None;
        };
        let options = search.options(true);
        let pair = (start, &search.goal);
        let db = search.db.database();
        Some(compare_searched(
            Some(db),
            pair,
            max_nodes,
            depth_limit,
            &options,
        ))
    }

    /// Fewest moves from `start`.
    pub fn distance(&self, start: &Board, parallel: bool) -> Result<u32, AnswerError> {
        match self {
            Target::Table(table) => Ok(table.distance(start)?),
            Target::Search(search) => search.solve(start, parallel).map(|s| s.moves.len() as u32),
        }
    }

    /// One shortest solution from `start` into `moves` (cleared first), and
    /// the nodes searched (None for a lookup).
    pub fn solve_into(
        &self,
        start: &Board,
        moves: &mut Vec<Move>,
        parallel: bool,
    ) -> Result<Option<Nodes>, AnswerError> {
        moves.clear();
        match self {
            Target::Table(table) => {
                table.solve_into(start, moves)?;
                Ok(None)
            }
            Target::Search(search) => {
                let solution = search.solve(start, parallel)?;
                moves.extend_from_slice(&solution.moves);
                Ok(Some(Nodes::from(&solution)))
            }
        }
    }

    /// Every move from `position` that keeps the solution optimal, as its
    /// direction and the tiles it slides (always 1 but in a multi-tile
    /// table), in the order D, L, R, U and by tiles.
    pub fn best_moves(&self, position: &Board) -> Result<Vec<(Move, usize)>, AnswerError> {
        let mut best = match self {
            Target::Table(table) => npuzzle::analysis::best_slides(table, position)?,
            // Pattern databases store no moves: each neighbour is solved,
            // and the moves one closer are the optimal ones.
            Target::Search(search) => {
                let (distance, neighbours) = npuzzle::analysis::neighbours(
                    search.db.database(),
                    position,
                    &search.goal,
                    &search.options(true),
                )?;
                neighbours
                    .into_iter()
                    .filter(|&(_, _, _, after)| after + 1 == distance)
                    .map(|(m, tiles, _, _)| (m, tiles))
                    .collect()
            }
        };
        best.sort_by_key(|&(m, tiles)| (m.letter(), tiles));
        Ok(best)
    }
}
