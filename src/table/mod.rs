//! Numbering positions (permutation ranks) and building complete tables of
//! them by reverse breadth-first search: one byte per position, and
//! optionally a path table of whole solutions.
//!
//! Uses only `puzzle`.

pub mod divisor;
pub mod entry;
pub mod generate;
pub mod path_table;
pub mod rank;
pub mod step;
