//! Solving for any goal: a reflection or rotation takes the goal's blank to
//! the tables' goal blank (the last cell, for the default goal's tables),
//! and renaming the tiles ([`crate::puzzle::relabel`]) makes the goal the
//! tables' canonical one. Neither changes distances; the moves found are
//! mapped back through the symmetry.

use super::db::PatternDb;
use super::dual::DualSource;
use super::error::SolveError;
use super::search::{raise_bound, solved, Budget, Limits, Raised, Solution, SolveOptions};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::cell::Cell;
use crate::puzzle::relabel::Relabelling;
use crate::puzzle::shape::Shape;
use crate::puzzle::solvability;
use crate::puzzle::symmetry::Symmetry;

impl<B: AsRef<[u8]>> PatternDb<B> {
    /// An optimal solution from `start` to the default goal (tiles in
    /// order, blank last).
    pub fn solve(&self, start: &Board, options: &SolveOptions) -> Result<Solution, SolveError> {
        self.solve_to(start, &Board::goal(self.shape()), options)
    }

    /// An optimal solution from `start` to `goal`, whose blank must be in
    /// the tables' goal blank cell or in a cell a symmetry of the board
    /// takes there (for the default goal's tables, the four corners of a
    /// square or rectangular board). The search also reads the dual lookup
    /// where the blank is in that class of cells
    /// ([`DualReach::GoalClass`](super::DualReach::GoalClass)).
    pub fn solve_to(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<Solution, SolveError> {
        self.solve_reading(start, goal, Some(self.own_duals()), options)
    }

    /// [`PatternDb::solve_to`] reading the dual lookup (the distance back
    /// from the goal) of `duals`, worked out for this set's goal, or none.
    pub(crate) fn solve_reading(
        &self,
        start: &Board,
        goal: &Board,
        duals: Option<DualSource<'_, B>>,
        options: &SolveOptions,
    ) -> Result<Solution, SolveError> {
        solved(self.solve_budgeted(start, goal, duals, &mut Limits::none(), options)?)
    }

    /// [`PatternDb::solve_reading`] within `budget`, which may give up
    /// first; its solution is the same wherever the budget paused it.
    pub(crate) fn solve_budgeted(
        &self,
        start: &Board,
        goal: &Board,
        duals: Option<DualSource<'_, B>>,
        budget: &mut dyn Budget,
        options: &SolveOptions,
    ) -> Result<Raised, SolveError> {
        let (canonical, back) = toward_home(start, goal, self.shape(), self.goal_blank())?;
        let mut raised = raise_bound(self, duals, &canonical, budget, options)?;
        if let Raised::Found(solution) = &mut raised {
            map_back(&back, &mut solution.moves);
        }
        Ok(raised)
    }
}

/// `start` as tables of `shape` toward goal blank `home` see the problem
/// of reaching `goal`: after the symmetry that takes the goal's blank to
/// `home`, and the renaming that makes the goal the tables' canonical one;
/// and the symmetry that takes the moves found back ([`map_back`]). Or why
/// they cannot: a board of another shape, an unsolvable pair, a goal blank
/// no symmetry takes home.
pub(crate) fn toward_home(
    start: &Board,
    goal: &Board,
    shape: Shape,
    home: usize,
) -> Result<(Board, Symmetry), SolveError> {
    for board in [start, goal] {
        if board.shape() != shape {
            return Err(SolveError::WrongShape {
                expected: shape,
                got: board.shape(),
            });
        }
    }
    solvability::check(start, goal)?;
    let symmetry = Symmetry::mapping(shape, goal.blank(), home).ok_or(SolveError::GoalBlank {
        shape,
        cell: Cell::of(shape, goal.blank()),
        expected: Cell::of(shape, home),
    })?;
    let (start, goal) = (symmetry.apply(start), symmetry.apply(goal));
    let canonical = Relabelling::to_canonical(&goal).apply(&start);
    Ok((canonical, symmetry.inverse()))
}

/// `moves`, found toward the tables' goal, taken `back` to the problem
/// asked ([`toward_home`]).
pub(crate) fn map_back(back: &Symmetry, moves: &mut [Move]) {
    for m in moves {
        *m = back.apply_move(*m);
    }
}
