//! Boards, moves and their rules: sizes, parsing, the two ways of counting
//! moves, the solvability test, the move sequences a search may skip,
//! renaming tiles so that any goal looks canonical, and the board's
//! symmetries.
//!
//! This layer knows nothing of tables or files, and uses nothing else in
//! the crate.

pub mod board;
pub mod cell;
pub mod duplicates;
pub mod heuristic;
pub mod metric;
pub mod parse;
pub mod relabel;
pub mod shape;
pub mod solvability;
// The library reads its constants; its functions run in `build.rs` and
// in the tests.
#[cfg_attr(not(test), allow(dead_code))]
mod stretches;
pub mod symmetry;
