//! One position's heuristics beside its true distance: what `query
//! heuristics START`, the page's `/api/heuristics` and Python's
//! `Database.heuristics` report, from this one struct.
//!
//! Far from the goal on a large board the distance may take hours to
//! search. Where the search stops, the values are still reported, beside
//! the lower bound it proved: a researcher's question (how much of the
//! distance does each heuristic see?) has a partial answer, and the
//! values themselves cost nothing.

use crate::bounded::{ida_star, Guidance};
use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::pattern::{Solution, SolveOptions, Stopped};
use crate::puzzle::board::Board;
use crate::puzzle::heuristic::{Estimate, Evaluator, Truth};
use serde::Serialize;

/// What a search for the distance tells of it: the distance, or, where
/// the search's deadline passed first, the bound it had proved. Any other
/// failure (an unsolvable pair, a search cancelled) as it is.
pub fn truth_of(searched: Result<u32, AnswerError>) -> Result<Truth, AnswerError> {
    match searched {
        Ok(distance) => Ok(Truth::Exact(distance)),
        Err(AnswerError::Stopped(Stopped::TimedOut { bound, .. })) => Ok(Truth::AtLeast(bound)),
        Err(e) => Err(e),
    }
}

/// What is known of the distance from `start` to `goal` within `options`
/// ([`truth_of`]): looked up or searched in `db`, or with no file (`None`,
/// or a file with no tables toward `goal`: see [`serving`]) searched by
/// IDA* over Manhattan distance plus linear conflicts, which holds only
/// its path in memory and answers at once near the goal, on any board.
pub fn search_truth<B: AsRef<[u8]>>(
    db: Option<&Database<B>>,
    start: &Board,
    goal: &Board,
    options: &SolveOptions,
) -> Result<Truth, AnswerError> {
    let searched = match serving(db, goal)? {
        Some(db) => db.distance(start, goal, options),
        None => solve_without_file(start, goal, options).map(|s| s.moves.len() as u32),
    };
    truth_of(searched)
}

/// One shortest solution with no file: IDA* over Manhattan distance plus
/// linear conflicts, on one thread, holding only its path.
pub(crate) fn solve_without_file(
    start: &Board,
    goal: &Board,
    options: &SolveOptions,
) -> Result<Solution, AnswerError> {
    let found = ida_star(start, goal, &Guidance::linear_conflict(), options)?;
    Ok(found.solution)
}

/// `db` where it answers toward `goal`, `None` where it holds no table
/// toward it (a file built for other goals). One position's heuristics need
/// no file, so such a file is searched without, as `--within` is, rather
/// than refused; a goal of another board is still an error.
pub fn serving<'a, B: AsRef<[u8]>>(
    db: Option<&'a Database<B>>,
    goal: &Board,
) -> Result<Option<&'a Database<B>>, AnswerError> {
    match db.map(|db| db.check_goal(goal)) {
        Some(Err(AnswerError::MissingGoal { .. })) => Ok(None),
        Some(Err(e)) => Err(e),
        Some(Ok(())) | None => Ok(db),
    }
}

/// Each classic heuristic's value for one position beside its true
/// distance (or the lower bound proved for it), the pattern tables' own
/// estimate on a pattern database, and each cell's part of the Manhattan
/// distance (0 for the blank), row by row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionEstimates {
    /// The board's size (`3x3`).
    pub board: String,
    /// The position.
    pub start: String,
    /// The goal.
    pub goal: String,
    /// The true distance from the position to the goal; `None` where its
    /// search stopped first.
    pub distance: Option<u32>,
    /// What the distance is proved to be at least: the distance where it
    /// is known; otherwise the largest of the bound the search reached and
    /// the admissible estimates here.
    pub lower_bound: u32,
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
    /// Whether it is at most the true distance here. Where the distance
    /// is unknown, the bound is at least this estimate, so it is `true`;
    /// an `Option` as the classics' verdicts are.
    pub admissible_here: Option<bool>,
    /// How far above the true distance it is (0 when admissible here).
    pub overestimate: Option<u32>,
}

impl PositionEstimates {
    /// The classic heuristics for `start`, judged against `truth`, what is
    /// known of its distance to `goal`. Where only a lower bound is known,
    /// the admissible heuristics' values raise it: each is proved at most
    /// the distance.
    pub fn new(start: &Board, goal: &Board, truth: Truth) -> PositionEstimates {
        let eval = Evaluator::new(goal);
        let mut estimates = PositionEstimates {
            board: start.shape().to_string(),
            start: start.to_string(),
            goal: goal.to_string(),
            distance: truth.exact(),
            lower_bound: truth.lower_bound(),
            heuristics: eval.estimates(start, truth),
            pattern_database: None,
            manhattan_by_cell: eval.manhattan_by_cell(start),
        };
        let admissible = estimates
            .heuristics
            .iter()
            .filter(|e| e.heuristic.is_admissible());
        estimates.raise_bound(admissible.map(|e| e.h).max().unwrap_or(0));
        estimates
    }

    /// The same, with the estimate of `db`'s pattern tables where it has
    /// them toward `goal` ([`serving`]).
    pub fn with_patterns<B: AsRef<[u8]>>(
        mut self,
        db: &Database<B>,
        start: &Board,
        goal: &Board,
    ) -> Result<PositionEstimates, AnswerError> {
        let tables = serving(Some(db), goal)?.and_then(Database::patterns);
        if let Some(tables) = tables {
            let h = tables.search_estimate(start, goal)?;
            let (admissible_here, overestimate) = self.truth().judge(h);
            self.pattern_database = Some(PatternEstimate {
                partition: tables.partition().name(),
                h,
                lookup: tables.estimate(start, goal)?,
                dual: tables.dual_estimate(start, goal)?,
                admissible_here,
                overestimate,
            });
            self.raise_bound(h);
        }
        Ok(self)
    }

    /// What is known of the distance.
    pub fn truth(&self) -> Truth {
        match self.distance {
            Some(d) => Truth::Exact(d),
            None => Truth::AtLeast(self.lower_bound),
        }
    }

    /// Where the distance is unknown, raises the bound to `proved` (a
    /// value shown at most the distance) and judges every estimate again
    /// against it.
    fn raise_bound(&mut self, proved: u32) {
        if self.distance.is_some() || proved <= self.lower_bound {
            return;
        }
        self.lower_bound = proved;
        let truth = self.truth();
        for e in &mut self.heuristics {
            *e = Estimate::judged(e.heuristic, e.h, truth);
        }
        if let Some(p) = &mut self.pattern_database {
            (p.admissible_here, p.overestimate) = truth.judge(p.h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::heuristic::Heuristic;
    use crate::puzzle::parse::parse_board;
    use crate::puzzle::shape::Shape;

    fn estimates(truth: Truth) -> PositionEstimates {
        let shape = Shape::THREE_BY_THREE;
        // 867254301: misplaced 7, Manhattan 21, linear conflict 23, and
        // Manhattan plus the blank's one cell 22 (the module `heuristic`'s
        // hand count). Its distance is 31.
        let start = parse_board("867254301", shape).unwrap();
        PositionEstimates::new(&start, &Board::goal(shape), truth)
    }

    fn verdicts(e: &PositionEstimates) -> Vec<(u32, Option<bool>, Option<u32>)> {
        e.heuristics
            .iter()
            .map(|e| (e.h, e.admissible_here, e.overestimate))
            .collect()
    }

    #[test]
    fn a_known_distance_judges_every_estimate() {
        let e = estimates(Truth::Exact(31));
        assert_eq!((e.distance, e.lower_bound), (Some(31), 31));
        assert!(verdicts(&e)
            .iter()
            .all(|&(_, here, over)| here == Some(true) && over == Some(0)));
        // Against a smaller distance (that of another position), the
        // verdicts follow it: the judging is what is tested here.
        let e = estimates(Truth::Exact(21));
        assert_eq!(
            verdicts(&e),
            [
                (7, Some(true), Some(0)),
                (21, Some(true), Some(0)),
                (23, Some(false), Some(2)),
                (22, Some(false), Some(1))
            ]
        );
    }

    #[test]
    fn an_unknown_distance_is_bounded_by_the_admissible_estimates_only() {
        // A search that proved nothing past 10: linear conflict's 23 is a
        // proof that the distance is at least 23; Manhattan plus the blank
        // is not admissible, so its 22 proves nothing, and is below 23.
        let e = estimates(Truth::AtLeast(10));
        assert_eq!((e.distance, e.lower_bound), (None, 23));
        assert!(verdicts(&e)
            .iter()
            .all(|&(_, here, over)| here == Some(true) && over == Some(0)));
        // A bound past every value leaves it as it is.
        assert_eq!(estimates(Truth::AtLeast(29)).lower_bound, 29);
    }

    #[test]
    fn an_inadmissible_estimate_above_the_bound_is_not_judged() {
        // The bound proved is 23 (linear conflict); an inadmissible value
        // above it may or may not be above the distance.
        let mut e = estimates(Truth::AtLeast(0));
        e.heuristics[3] = Estimate::judged(Heuristic::ManhattanWithBlank, 30, e.truth());
        assert_eq!(verdicts(&e)[3], (30, None, None));
    }
}
