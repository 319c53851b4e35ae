//! The shape of each table's state space: size, diameter, mean distance,
//! and the positions farthest from the goal.

use crate::db::database::Database;
use crate::db::format::TableInfo;
use crate::puzzle::board::Board;
use rayon::prelude::*;
use serde::Serialize;

/// Statistics of one table, for its canonical goal (tiles in order around
/// the blank's cell); any goal with the blank in that cell has the same.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableStats {
    /// The goal's blank cell (0-based, row by row).
    pub blank: usize,
    /// The canonical goal.
    pub goal: String,
    /// Positions that can reach the goal.
    pub positions: u64,
    /// The largest distance.
    pub max_distance: u32,
    /// The mean distance over all positions.
    pub mean_distance: f64,
    /// Every position at the largest distance, in the canonical goal's labels.
    pub antipodes: Vec<String>,
}

/// Statistics of every table, in file order. Means come from the header's
/// counts; the antipodes from one scan of each table.
pub fn stats<B: AsRef<[u8]> + Sync>(db: &Database<B>) -> Vec<TableStats> {
    db.header()
        .tables
        .par_iter()
        .map(|info| table_stats(db, info))
        .collect()
}

fn table_stats<B: AsRef<[u8]>>(db: &Database<B>, info: &TableInfo) -> TableStats {
    let shape = db.shape();
    let blank = info.blank as usize;
    let max = info.max_distance;
    let total: u64 = info
        .counts
        .iter()
        .enumerate()
        .map(|(d, &c)| d as u64 * c)
        .sum();
    let goal = Board::canonical_goal(shape, blank);
    let antipodes = db
        .goal_table(&goal)
        .expect("the table for its own canonical goal exists")
        .positions_at(max as u32)
        .map(|board| board.to_string())
        .collect();
    TableStats {
        blank,
        goal: goal.to_string(),
        positions: info.positions,
        max_distance: max as u32,
        mean_distance: total as f64 / info.positions as f64,
        antipodes,
    }
}
