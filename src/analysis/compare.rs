//! The textbook searches on one position, side by side with the
//! database's answer (a lookup, or on a pattern database its optimal
//! search, or with no file one over linear conflicts): what `query
//! compare` reports.

use super::estimates::{serving, solve_without_file};
use super::heuristics::NeedsSingleTile;
use super::histogram::as_text;
use super::textbook::{millis, search_until, Algorithm, SearchReport, ShapeMismatch, KEY_CELLS};
use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::db::goal_table::GoalTable;
use crate::pattern::SolveOptions;
use crate::puzzle::board::Board;
use crate::puzzle::shape::Shape;
use serde::{Serialize, Serializer};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Every textbook search on one start, and the lookup's answer to check
/// them against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The start.
    #[serde(serialize_with = "as_text")]
    pub start: Board,
    /// The goal.
    #[serde(serialize_with = "as_text")]
    pub goal: Board,
    /// The true distance, from the database.
    pub distance: usize,
    /// How it was found: `lookup` (complete tables), `search` (pattern
    /// databases' IDA*), or `linear-conflict` (no file: IDA* over
    /// Manhattan distance plus linear conflicts).
    pub database: &'static str,
    /// The database's time: one lookup's (the mean of many), or its one
    /// search's, in milliseconds.
    #[serde(rename = "database_elapsed_ms", serialize_with = "millis")]
    pub database_elapsed: Duration,
    /// The nodes the database's search expanded, over all its iterations,
    /// to compare with each run's `expanded`; none for a lookup.
    pub database_expanded: Option<u64>,
    /// The expansions after which each search stopped.
    pub max_nodes: u64,
    /// One run per algorithm, in [`Algorithm::all`]'s order.
    pub algorithms: Vec<Run>,
}

/// One algorithm's search, and how its answer compares with the truth.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Run {
    /// The algorithm, by its short name (`bfs`, `dfs`, …).
    #[serde(serialize_with = "by_name")]
    pub algorithm: Algorithm,
    /// The depth limit, for depth-first search.
    pub depth_limit: Option<u32>,
    /// The solution's length, if it found one.
    pub length: Option<usize>,
    /// Whether that solution is a shortest one.
    pub optimal: Option<bool>,
    /// What the search did.
    #[serde(flatten)]
    pub report: SearchReport,
}

/// Why a comparison could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// The lookup failed, or the start cannot reach the goal.
    #[error(transparent)]
    Lookup(#[from] AnswerError),
    /// A board past the searches' 16 cells (a position is a 64-bit key).
    #[error(
        "the textbook searches store a position in 64 bits, one tile in 4: boards of at most 16 \
         cells, not {0}"
    )]
    TooLarge(crate::puzzle::shape::Shape),
    /// The start and goal belong to different boards.
    #[error(transparent)]
    Shape(#[from] ShapeMismatch),
    /// A search returned moves that do not reach the goal: a bug.
    #[error("{0} returned moves that do not reach the goal")]
    WrongAnswer(String),
    /// The caller's cancel flag was set (Ctrl-C in Python).
    #[error("the comparison was cancelled")]
    Cancelled,
    /// Distances asked for past the goal's farthest position, or past the
    /// most moves any position is proved to need.
    #[error(
        "no position lies {asked} moves from this goal: {} {max} moves away; \
         ask for distances up to {max}",
        match exact { true => "the farthest lies", false => "none lies more than" }
    )]
    BeyondFarthest {
        /// The largest distance asked for.
        asked: u32,
        /// The goal's farthest distance, or a bound on it.
        max: u32,
        /// Whether positions lie `max` moves away (not only at most).
        exact: bool,
    },
    /// The positions to compare on could not be drawn.
    #[error(transparent)]
    Sample(#[from] super::sample::SampleError),
    /// The walks could not find positions at a distance (pattern
    /// databases).
    #[error(transparent)]
    Walked(super::walked::WalkError),
    /// Complete tables counted in multi-tile moves.
    #[error(transparent)]
    NeedsSingleTile(#[from] NeedsSingleTile),
}

/// The most expansions one search may be given (`--max-nodes`, Python's
/// `max_nodes=`): on 4×4 the whole comparison at this limit takes about
/// 73 s and 1.3 GB (docs/guide.md, "compare"). Past it a search on a
/// 12-cell board would run for hours, or out of memory, before its limit
/// stopped it.
pub const MAX_COMPARE_NODES: u64 = 10_000_000;

/// The expansions each search is given unless told otherwise.
pub const DEFAULT_COMPARE_NODES: u64 = 2_000_000;

/// Repetitions of the lookup, so that its time is above the clock's resolution.
const LOOKUP_REPEATS: u32 = 1000;

/// Runs every textbook search from `start` toward `target`'s goal, each
/// stopped after `max_nodes` expansions, depth-first search limited to
/// `depth_limit` moves (by default the table's maximum distance), and
/// checks each answer against the lookup. Setting `cancel` stops the
/// searches soon after ([`CompareError::Cancelled`]).
pub fn compare(
    target: &GoalTable<'_>,
    start: &Board,
    max_nodes: u64,
    depth_limit: Option<u32>,
    cancel: Option<&AtomicBool>,
) -> Result<Comparison, CompareError> {
    NeedsSingleTile::check(target.metric())?;
    let mut truth = Vec::new();
    let began = Instant::now();
    for _ in 0..LOOKUP_REPEATS {
        truth.clear();
        target.solve_into(std::hint::black_box(start), &mut truth)?;
    }
    let truth = Truth {
        distance: truth.len(),
        elapsed: began.elapsed() / LOOKUP_REPEATS,
        how: "lookup",
        expanded: None,
    };
    let limit = depth_limit.unwrap_or(target.info().max_distance as u32);
    run_all((start, target.goal()), truth, (max_nodes, limit), cancel)
}

/// [`compare`] on a pattern database, or with no file (`None`, or a file
/// with no table toward `goal`: [`serving`]), on boards of up to 16 cells:
/// the truth is the optimal search's (the database's IDA*, or with no
/// file IDA* over linear conflicts; within `options`, timed once), and
/// depth-first search is limited to that distance unless `depth_limit`
/// says otherwise. `options`' cancel flag stops the textbook searches too.
pub fn compare_searched<B: AsRef<[u8]>>(
    db: Option<&Database<B>>,
    (start, goal): (&Board, &Board),
    max_nodes: u64,
    depth_limit: Option<u32>,
    options: &SolveOptions,
) -> Result<Comparison, CompareError> {
    check_comparable(start.shape())?;
    let began = Instant::now();
    let (solution, how) = match serving(db, goal)? {
        Some(db) => (db.solve(start, goal, options)?, "search"),
        None => (solve_without_file(start, goal, options)?, "linear-conflict"),
    };
    let truth = Truth {
        distance: solution.moves.len(),
        elapsed: began.elapsed(),
        how,
        expanded: Some(solution.expanded),
    };
    let limit = depth_limit.unwrap_or(truth.distance as u32);
    run_all((start, goal), truth, (max_nodes, limit), options.cancel)
}

/// Whether the textbook searches take boards of `shape`: up to 16 cells,
/// a position being a 64-bit key ([`CompareError::TooLarge`] past that).
pub fn check_comparable(shape: Shape) -> Result<(), CompareError> {
    match shape.cells() > KEY_CELLS {
        true => Err(CompareError::TooLarge(shape)),
        false => Ok(()),
    }
}

/// [`compare`] or [`compare_searched`], whichever answers toward `goal`: a
/// lookup where `db` holds complete tables toward it, otherwise its optimal
/// search, or with no file (`None`, or a file with no table toward `goal`)
/// IDA* over linear conflicts. `options`' cancel flag stops the textbook
/// searches in either case; its deadline bounds the optimal search only.
pub fn compare_served<B: AsRef<[u8]>>(
    db: Option<&Database<B>>,
    (start, goal): (&Board, &Board),
    max_nodes: u64,
    depth_limit: Option<u32>,
    options: &SolveOptions,
) -> Result<Comparison, CompareError> {
    let served = serving(db, goal)?;
    match served.map(Database::complete) {
        Some(Ok(tables)) => compare(
            &tables.goal_table(goal)?,
            start,
            max_nodes,
            depth_limit,
            options.cancel,
        ),
        _ => compare_searched(served, (start, goal), max_nodes, depth_limit, options),
    }
}

/// The database's answer: the distance, how long it took, and how it was
/// found.
struct Truth {
    distance: usize,
    elapsed: Duration,
    how: &'static str,
    expanded: Option<u64>,
}

/// Every textbook search, each answer replayed and measured against the
/// truth.
fn run_all(
    (start, goal): (&Board, &Board),
    truth: Truth,
    (max_nodes, limit): (u64, u32),
    cancel: Option<&AtomicBool>,
) -> Result<Comparison, CompareError> {
    let mut algorithms = Vec::new();
    for algorithm in Algorithm::all(limit) {
        let report = search_until(algorithm, start, goal, max_nodes, cancel)?;
        if cancel.is_some_and(|c| c.load(Relaxed)) {
            return Err(CompareError::Cancelled);
        }
        let length = report.moves.as_ref().map(Vec::len);
        if let Some(moves) = &report.moves {
            // Each algorithm's answer is checked, not trusted.
            if start.replay(moves) != Some(*goal) {
                return Err(CompareError::WrongAnswer(algorithm.to_string()));
            }
        }
        algorithms.push(Run {
            algorithm,
            depth_limit: match algorithm {
                Algorithm::DepthLimitedDfs { limit } => Some(limit),
                _ => None,
            },
            length,
            optimal: length.map(|l| l == truth.distance),
            report,
        });
    }
    Ok(Comparison {
        start: *start,
        goal: *goal,
        distance: truth.distance,
        database: truth.how,
        database_elapsed: truth.elapsed,
        database_expanded: truth.expanded,
        max_nodes,
        algorithms,
    })
}

pub(super) fn by_name<S: Serializer>(algorithm: &Algorithm, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(algorithm.name())
}
