//! The integration tests, as one crate (one build, one link), with shared
//! helpers and fixtures in [`util`]. Each module tests one part from the
//! outside, against facts that can be checked independently.

mod analysis;
mod browser;
mod browser_classroom;
mod browser_metric;
mod browser_turns;
mod check;
mod cli;
mod cli_edges;
mod corrupt;
mod facts;
mod heuristics;
mod large;
mod layering;
mod multi_tile;
mod path_table;
mod pattern;
mod pattern_cli;
mod pattern_file;
mod properties;
mod readme;
mod solvable;
mod symmetry;
mod textbook;
mod util;
mod within;
mod worksheet;
