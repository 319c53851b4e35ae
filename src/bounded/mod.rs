//! Bounded-suboptimal solving: a solution at most W times the optimum, for
//! any board, with the lower bound on the optimum that proves it.
//!
//! Weighted A* (weighted IDA* once memory runs short) searches with
//! f = g + W·h over the best admissible
//! heuristic at hand ([`Guidance`]): a pattern database where one is built,
//! otherwise Manhattan distance plus linear conflicts, which needs no file
//! at all. The answer carries a lower bound L on the optimum, so that
//! length ≤ W·optimum can be read off: the optimum lies in
//! [L, length], and length ≤ W·L whenever the bound is tight enough to show
//! it. With W = 1 the search is plain IDA* and its answers are optimal.
//!
//! ```
//! use npuzzle::bounded::{solve_within, Guidance, Weight};
//! use npuzzle::pattern::SolveOptions;
//! use npuzzle::{parse_board, Board, Shape};
//!
//! let shape = Shape::THREE_BY_THREE;
//! let start = parse_board("867254301", shape)?;
//! let goal = Board::goal(shape);
//! let weight: Weight = "1.5".parse()?;
//! let found = solve_within(&start, &goal, weight, &Guidance::linear_conflict(), &SolveOptions::default())?;
//! let length = found.solution.moves.len() as u32;
//! // 31 moves is the optimum of this position.
//! assert!(found.lower_bound <= 31 && 31 <= length && length as f64 <= 1.5 * 31.0);
//! assert_eq!(start.replay(&found.solution.moves), Some(goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Uses everything below it: `puzzle`, `pattern`, `db` and `analysis` (for
//! the classic heuristics).

mod astar;
mod guide;
mod ida;
mod weight;

pub use ida::Bounded;
pub use weight::{Weight, WeightError, MAX_WEIGHT};

use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::pattern::{PatternDb, SolveError, SolveOptions, Stopped};
use crate::puzzle::board::Board;
use crate::puzzle::cell::Cell;
use crate::puzzle::relabel::Relabelling;
use crate::puzzle::solvability;
use crate::puzzle::symmetry::Symmetry;
use astar::weighted_a_star;
use guide::Guide;
use guide::{ConflictGuide, PatternGuide};
use ida::weighted_ida_star;

/// The heuristic a bounded search uses: one type for every kind, so that
/// another lower bound plugs in as one more variant.
pub struct Guidance<'a> {
    kind: Kind<'a>,
}

enum Kind<'a> {
    LinearConflict,
    Patterns {
        /// The tables' canonical goal.
        goal: Board,
        partition: &'static str,
        heuristic: Box<dyn Fn(&Board) -> u32 + 'a>,
    },
}

impl Guidance<'static> {
    /// Manhattan distance plus linear conflicts: any board, any goal, no
    /// file.
    pub fn linear_conflict() -> Guidance<'static> {
        Guidance {
            kind: Kind::LinearConflict,
        }
    }
}

impl<'a> Guidance<'a> {
    /// The larger of a pattern database's additive and transposed sums
    /// ([`PatternDb::heuristic`]), toward goals its tables serve.
    pub fn patterns<B: AsRef<[u8]>>(db: &'a PatternDb<B>) -> Guidance<'a> {
        Guidance {
            kind: Kind::Patterns {
                goal: db.goal(),
                partition: db.partition().name(),
                heuristic: Box::new(|board| db.heuristic(board)),
            },
        }
    }

    /// The best guidance `db` gives toward `goal`: its pattern tables, or,
    /// for complete tables, linear conflicts. The tables' exact distances
    /// are not used as a heuristic: they would make every answer optimal,
    /// and checking a bounded answer against them is what they are for here.
    pub fn for_database<B: AsRef<[u8]>>(
        db: &'a Database<B>,
        goal: &Board,
    ) -> Result<Guidance<'a>, AnswerError> {
        match db.patterns() {
            Some(tables) => Ok(Guidance::patterns(tables.set_serving(goal)?)),
            None => Ok(Guidance::linear_conflict()),
        }
    }

    /// Its name in answers: `linear-conflict`, or `patterns 7-8` with the
    /// partition's name.
    pub fn name(&self) -> String {
        match &self.kind {
            Kind::LinearConflict => "linear-conflict".to_string(),
            Kind::Patterns { partition, .. } => format!("patterns {partition}"),
        }
    }
}

/// A solution from `start` to `goal` at most `weight` times as long as the
/// shortest, and a lower bound on the shortest's length; searched on one
/// thread, within `options`' deadline and cancel flag.
pub fn solve_within(
    start: &Board,
    goal: &Board,
    weight: Weight,
    guidance: &Guidance,
    options: &SolveOptions,
) -> Result<Bounded, SolveError> {
    if start.shape() != goal.shape() {
        return Err(SolveError::WrongShape {
            expected: goal.shape(),
            got: start.shape(),
        });
    }
    solvability::check(start, goal)?;
    match &guidance.kind {
        Kind::LinearConflict => {
            let guide = ConflictGuide::new(goal);
            Ok(search(&guide, start, goal, weight, options)?)
        }
        Kind::Patterns {
            goal: home,
            heuristic,
            ..
        } => {
            // The tables count toward their canonical goal: a symmetry takes
            // the goal's blank to theirs, renaming the tiles makes the goal
            // theirs, and the moves found are mapped back.
            let shape = start.shape();
            if home.shape() != shape {
                return Err(SolveError::WrongShape {
                    expected: home.shape(),
                    got: shape,
                });
            }
            let symmetry = Symmetry::mapping(shape, goal.blank(), home.blank()).ok_or(
                SolveError::GoalBlank {
                    shape,
                    cell: Cell::of(shape, goal.blank()),
                    expected: Cell::of(shape, home.blank()),
                },
            )?;
            let (start, goal) = (symmetry.apply(start), symmetry.apply(goal));
            let canonical = Relabelling::to_canonical(&goal).apply(&start);
            let guide = PatternGuide(heuristic.as_ref());
            let mut found = search(&guide, &canonical, home, weight, options)?;
            let back = symmetry.inverse();
            for m in &mut found.solution.moves {
                *m = back.apply_move(*m);
            }
            Ok(found)
        }
    }
}

/// Weighted A* while its memory lasts ([`astar::MAX_STORED`] positions),
/// then weighted IDA*, which needs none, from the start again: A* is the
/// faster where it fits (see docs/benchmarks.md).
fn search<G: Guide>(
    guide: &G,
    start: &Board,
    goal: &Board,
    weight: Weight,
    options: &SolveOptions,
) -> Result<Bounded, Stopped> {
    match weighted_a_star(guide, start, goal, weight, options)? {
        Ok(found) => Ok(found),
        Err(spent) => {
            let mut found = weighted_ida_star(guide, start, goal, weight, options)?;
            found.solution.nodes += spent;
            Ok(found)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Move;
    use crate::puzzle::shape::Shape;

    /// Weighted IDA*, the fallback once A*'s memory runs short, agrees with
    /// A*: both optimal at W = 1, both within W of that optimum above it,
    /// both with bounds at most the optimum, on positions walked from goals.
    #[test]
    fn ida_star_and_a_star_agree_on_the_bound() {
        let shape: Shape = "3x4".parse().unwrap();
        let goal = Board::goal(shape);
        let guide = ConflictGuide::new(&goal);
        let options = SolveOptions::default();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for walk in 0..12 {
            let mut start = goal;
            for _ in 0..10 + 4 * walk {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                start = start
                    .apply(Move::from_code(state as u8 & 3))
                    .unwrap_or(start);
            }
            let optimal = Weight::OPTIMAL;
            let a = weighted_a_star(&guide, &start, &goal, optimal, &options);
            let a = a.unwrap().unwrap();
            let ida = weighted_ida_star(&guide, &start, &goal, optimal, &options).unwrap();
            let optimum = a.solution.moves.len();
            assert_eq!(ida.solution.moves.len(), optimum, "{start}");
            assert_eq!(
                (a.lower_bound, ida.lower_bound),
                (optimum as u32, optimum as u32)
            );
            let loose = Weight::new(1.5).unwrap();
            for found in [
                weighted_a_star(&guide, &start, &goal, loose, &options)
                    .unwrap()
                    .unwrap(),
                weighted_ida_star(&guide, &start, &goal, loose, &options).unwrap(),
            ] {
                let length = found.solution.moves.len();
                assert_eq!(start.replay(&found.solution.moves), Some(goal));
                assert!(length as f64 <= 1.5 * optimum as f64, "{start}");
                assert!(found.lower_bound as usize <= optimum, "{start}");
            }
        }
    }
}
