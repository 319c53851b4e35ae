//! The shape of each table's state space: size, diameter, mean distance,
//! and the positions farthest from the goal.

use crate::db::complete::CompleteTables;
use crate::db::goal_table::GoalTable;
use crate::puzzle::board::Board;
use crate::puzzle::cell::Cell;
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use rayon::prelude::*;
use serde::Serialize;

/// Statistics of some tables of one board: what `query stats` reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// The board.
    #[serde(serialize_with = "super::histogram::as_text")]
    pub board: Shape,
    /// How the distances count moves.
    #[serde(serialize_with = "super::histogram::as_text")]
    pub metric: Metric,
    /// One per table.
    pub tables: Vec<TableStats>,
}

/// Statistics of one table toward one goal (by default its canonical goal:
/// tiles in order around the blank's cell). Any goal with the blank in that
/// cell, or in a symmetric one, has the same numbers; only the farthest
/// positions are written in the goal's labels.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableStats {
    /// The goal's blank cell.
    pub blank: Cell,
    /// The goal.
    pub goal: String,
    /// Positions that can reach the goal.
    pub positions: u64,
    /// The largest distance.
    pub max_distance: u32,
    /// The mean distance over all positions.
    pub mean_distance: f64,
    /// Every position at the largest distance, sorted by their tiles cell by
    /// cell (the blank as 0).
    pub farthest: Vec<String>,
}

/// Statistics of every table, in file order, each toward its canonical
/// goal. Means come from the header's counts; the farthest positions from
/// one scan of each table.
pub fn stats<B: AsRef<[u8]> + Sync>(db: &CompleteTables<B>) -> Stats {
    let tables = db
        .header()
        .tables
        .par_iter()
        .map(|info| {
            let goal = Board::canonical_goal(db.shape(), info.goal_blank as usize);
            let target = db
                .goal_table(&goal)
                .expect("the table for its own canonical goal exists");
            table_stats(&target)
        })
        .collect();
    Stats {
        board: db.shape(),
        metric: db.metric(),
        tables,
    }
}

/// Statistics of the one table that serves `target`'s goal, toward that goal.
pub fn stats_toward(target: &GoalTable<'_>) -> Stats {
    Stats {
        board: target.goal().shape(),
        metric: target.metric(),
        tables: vec![table_stats(target)],
    }
}

fn table_stats(target: &GoalTable<'_>) -> TableStats {
    let info = target.info();
    let max = info.max_distance;
    let total: u64 = info
        .counts
        .iter()
        .enumerate()
        .map(|(d, &c)| d as u64 * c)
        .sum();
    // In the table's order, a goal of other labels would list them in no
    // order a reader can see.
    let mut farthest: Vec<Board> = target.positions_at(max as u32).collect();
    farthest.sort_by(|a, b| a.cells().cmp(b.cells()));
    TableStats {
        blank: Cell::of(target.goal().shape(), target.goal().blank()),
        goal: target.goal().to_string(),
        positions: info.entries,
        max_distance: max as u32,
        mean_distance: total as f64 / info.entries as f64,
        farthest: farthest.iter().map(Board::to_string).collect(),
    }
}
