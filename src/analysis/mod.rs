//! What the tool says about a whole state space: heuristics measured against
//! the true distances, the textbook searches, random positions of exact
//! difficulty, all shortest solutions, and per-table statistics.
//!
//! Uses everything below it: `puzzle`, `table` and
//! `db`.

mod heuristics;
mod sample;
mod shortest;
mod stats;
mod textbook;

pub use heuristics::{
    survey, survey_all, DistanceStats, Evaluator, Heuristic, Survey, UnknownHeuristic,
};
pub use sample::{parse_distances, sample, DistanceRangeError, SampleError};
pub use shortest::{best_moves, count_shortest, list_shortest};
pub use stats::{stats, stats_toward, TableStats};
pub use textbook::{search, Algorithm, SearchReport, ShapeMismatch};
