//! Pattern databases and IDA*: optimal solutions for boards too large for a
//! complete table, such as the 15-puzzle.
//!
//! A partition ([`Partition`]) splits the tiles into disjoint patterns. Each
//! pattern's table ([`build_pattern_table`]) holds, for every placement of its tiles
//! ([`PlacementRanker`]), the fewest moves of those tiles that bring them
//! home; moves of other tiles are free. The tables' entries for a position
//! add up to a lower bound on its distance, and on square boards reading
//! them again through the transposed board gives a second bound. IDA*
//! ([`PatternDb::solve`]) searches with the larger of the two.
//!
//! ```
//! use npuzzle::pattern::{Partition, PatternDb, SolveOptions};
//! use npuzzle::{parse_board, Board, Shape};
//!
//! let shape = Shape::THREE_BY_THREE;
//! let db = PatternDb::build(Partition::named(shape, "4-4")?, &|_, _| {})?;
//! let start = parse_board("867254301", shape)?;
//! let solution = db.solve(&start, &SolveOptions::default())?;
//! assert_eq!(solution.moves.len(), 31);
//! assert_eq!(start.replay(&solution.moves), Some(Board::goal(shape)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod db;
mod dual;
mod error;
mod history;
mod memory;
mod mirror;
mod partition;
mod placement;
mod region;
mod search;
mod second;
mod share;
mod solve;
mod table;
#[cfg(test)]
mod wide;

pub use db::PatternDb;
pub(crate) use db::{Entries, Moves, Slide};
pub use dual::DualReach;
pub(crate) use dual::{DualPlan, DualSource};
pub(crate) use error::{goal_at_zero, within_largest};
pub use error::{Damage, PatternError, SolveError, Stopped};
pub use history::HISTORY_DEPTH;
pub use partition::Partition;
pub use placement::{PlacementRanker, MAX_PATTERN_CELLS};
pub(crate) use search::{raise_bound, Budget, Limits, Raised, Work};
pub use search::{BoundReport, Interrupt, Solution, SolveOptions};
pub(crate) use solve::{map_back, toward_home};
pub use table::{build_pattern_table, build_pattern_table_toward, UNREACHED};
pub(crate) use table::{goal_cells, table_search};
