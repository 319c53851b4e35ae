//! One position's heuristics beside its true distance: what `query
//! heuristics START`, the page's `/api/heuristics` and Python's
//! `Database.heuristics` report, from this one struct.

use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::puzzle::board::Board;
use crate::puzzle::heuristic::{Estimate, Evaluator};
use serde::Serialize;

/// Each classic heuristic's value for one position beside its true
/// distance, the pattern tables' own estimate on a pattern database, and
/// each cell's part of the Manhattan distance (0 for the blank), row by
/// row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionEstimates {
    /// The board's size (`3x3`).
    pub board: String,
    /// The position.
    pub start: String,
    /// The goal.
    pub goal: String,
    /// The true distance from the position to the goal.
    pub distance: u32,
    /// One estimate per classic heuristic.
    pub heuristics: Vec<Estimate>,
    /// On a pattern database, its own estimate: what the search starts
    /// from (the largest of the lookups it reads), beside the classics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern_database: Option<PatternEstimate>,
    /// Each cell's part of the Manhattan distance, row by row.
    pub manhattan_by_cell: Vec<u32>,
}

/// A pattern database's estimate for one position, beside its true
/// distance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PatternEstimate {
    /// The file's partition (`7-8`, or `custom`).
    pub partition: &'static str,
    /// The estimate the search starts from: the larger of `lookup` and
    /// `dual`.
    pub h: u32,
    /// The position's own lookup: the larger of the tables' sum and, where
    /// the file has it, the transposed (reflected) sum.
    pub lookup: u32,
    /// The dual lookup (the tables read for the inverse permutation: from
    /// the goal toward the position), where the search reads it: at
    /// positions whose blank is in the goal blank's class of cells (the
    /// corners, for the default goal); null elsewhere.
    pub dual: Option<u32>,
    /// Whether it is at most the true distance here.
    pub admissible_here: bool,
    /// How far above the true distance it is (0 when admissible here).
    pub overestimate: u32,
}

impl PositionEstimates {
    /// The classic heuristics for `start`, whose true distance to `goal`
    /// is `distance`.
    pub fn new(start: &Board, goal: &Board, distance: u32) -> PositionEstimates {
        let eval = Evaluator::new(goal);
        PositionEstimates {
            board: start.shape().to_string(),
            start: start.to_string(),
            goal: goal.to_string(),
            distance,
            heuristics: eval.estimates(start, distance),
            pattern_database: None,
            manhattan_by_cell: eval.manhattan_by_cell(start),
        }
    }

    /// The same, with the estimate of `db`'s pattern tables where it has
    /// them.
    pub fn with_patterns<B: AsRef<[u8]>>(
        mut self,
        db: &Database<B>,
        start: &Board,
        goal: &Board,
    ) -> Result<PositionEstimates, AnswerError> {
        if let Some(tables) = db.patterns() {
            let h = tables.search_estimate(start, goal)?;
            self.pattern_database = Some(PatternEstimate {
                partition: tables.partition().name(),
                h,
                lookup: tables.estimate(start, goal)?,
                dual: tables.dual_estimate(start, goal)?,
                admissible_here: h <= self.distance,
                overestimate: h.saturating_sub(self.distance),
            });
        }
        Ok(self)
    }
}
