//! The database file, of either kind: its layout and header checks,
//! writing it atomically, opening it as one [`database::Database`] that
//! answers by lookup (complete tables) or by search (pattern tables),
//! describing and verifying it.
//!
//! Uses `puzzle`, `table` and `pattern`.

pub mod build;
pub mod complete;
pub mod database;
pub mod error;
pub mod format;
pub mod goal_table;
pub mod locate;
pub mod patterns;
pub mod replace;
pub mod report;
pub mod verify;
