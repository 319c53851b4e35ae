//! The database file: its layout and header checks, writing it atomically,
//! opening and routing goals to its tables, answering toward one goal, and
//! verifying every entry.
//!
//! Uses `puzzle` and `table`.

pub mod build;
pub mod database;
pub mod error;
pub mod format;
pub mod goal_table;
pub mod locate;
pub mod replace;
pub mod verify;
