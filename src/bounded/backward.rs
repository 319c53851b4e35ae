//! The same problem searched backward, from the goal to the start.
//!
//! A beam's path depends on the end it starts from: from some starts every
//! width strays early and never makes up the moves (docs/benchmarks.md),
//! while from the goal the beam meets other choices. A guide estimates the
//! distance to its own goal only, so the backward problem is turned into
//! one toward that goal: the blank first takes a short detour to a cell
//! that a symmetry takes to the goal's blank cell, the symmetry turns the
//! board, and renaming the tiles makes the start (after the detour) the
//! goal. The backward problem then starts from the goal, turned and
//! renamed the same way. Its solutions are turned back, reversed and put
//! after the detour.

use crate::puzzle::board::{Board, Move};
use crate::puzzle::relabel::Relabelling;
use crate::puzzle::shape::Shape;
use crate::puzzle::symmetry::Symmetry;

/// A problem turned backward: from [`Backward::start`] to the same goal.
pub(crate) struct Backward {
    /// The blank's moves from the start to a cell of the goal blank's
    /// class.
    detour: Vec<Move>,
    /// The goal, turned and renamed so that the start after the detour is
    /// the goal.
    start: Board,
    /// The symmetry that turns a board of the backward problem back.
    back: Symmetry,
    /// The renaming that gives its tiles their names back.
    names: Relabelling,
}

impl Backward {
    /// The problem from `start` to `goal` (a solvable pair of one shape)
    /// turned backward.
    pub fn new(start: &Board, goal: &Board) -> Backward {
        let shape = start.shape();
        // The nearest cell a symmetry takes to the goal's blank cell (the
        // first of the nearest, so the same every run), with the symmetry;
        // the goal's own blank cell is one.
        let home = goal.blank();
        let (corner, turn) = (0..shape.cells())
            .filter_map(|cell| Symmetry::mapping(shape, cell, home).map(|turn| (cell, turn)))
            .min_by_key(|&(cell, _)| shape.steps_between(cell, start.blank()))
            .expect("the goal's blank cell is in its own class");
        let detour = detour(shape, start.blank(), corner);
        let after = start.replay(&detour).expect("a detour stays on the board");
        // To the canonical goal with the blank at `home`, then to `goal`.
        let rename = Relabelling::to_canonical(&turn.apply(&after))
            .then(&Relabelling::to_canonical(goal).inverse());
        Backward {
            detour,
            start: rename.apply(&turn.apply(goal)),
            back: turn.inverse(),
            names: rename.inverse(),
        }
    }

    /// Where the backward problem starts; its goal is the original goal.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The blank's moves before the backward problem's solution: a
    /// solution of the backward problem is at most this much longer as a
    /// solution of the original one.
    pub fn detour(&self) -> &[Move] {
        &self.detour
    }

    /// The cell and the tile of the original problem that `tile` in `cell`
    /// of the backward problem stands for.
    #[inline]
    pub fn original(&self, cell: usize, tile: u8) -> (usize, u8) {
        (self.back.cell(cell), self.names.tile(tile))
    }

    /// The moves from the original start to the goal, given the moves that
    /// solve the backward problem.
    pub fn forward(&self, backward: &[Move]) -> Vec<Move> {
        joined(self.detour.clone(), self.to_goal(backward))
    }

    /// The original moves from the position that `backward` (moves from
    /// the backward problem's start) leads to, to the goal.
    pub fn to_goal(&self, backward: &[Move]) -> Vec<Move> {
        (backward.iter().rev())
            .map(|&m| self.back.apply_move(m).opposite())
            .collect()
    }
}

/// The moves of `first`, then of `then`, but for a move followed by its
/// opposite, which cancel out: at the seam, and again wherever cancelling
/// brings two such moves together.
pub(crate) fn joined(mut first: Vec<Move>, then: Vec<Move>) -> Vec<Move> {
    for m in then {
        match first.last() {
            Some(&last) if last == m.opposite() => _ = first.pop(),
            _ => first.push(m),
        }
    }
    first
}

/// The blank's moves from `from` to `to` on a board of `shape`: along the
/// column first, then along the row.
fn detour(shape: Shape, from: usize, to: usize) -> Vec<Move> {
    let (r0, c0) = (shape.row_of(from), shape.col_of(from));
    let (r1, c1) = (shape.row_of(to), shape.col_of(to));
    let vertical = if r1 > r0 { Move::Down } else { Move::Up };
    let horizontal = if c1 > c0 { Move::Right } else { Move::Left };
    let mut moves = vec![vertical; r0.abs_diff(r1)];
    moves.extend(std::iter::repeat_n(horizontal, c0.abs_diff(c1)));
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounded::{random_walk as walk, solve_within, Guidance, Weight};
    use crate::pattern::SolveOptions;
    use proptest::prelude::*;

    /// A goal with its blank in `blank` and its tiles in an order chosen
    /// by `seed`, and a start `steps` random moves from it.
    fn problem(shape: Shape, blank: usize, steps: usize, seed: u64) -> (Board, Board) {
        let home = Board::canonical_goal(shape, blank % shape.cells());
        // A long walk and back to `blank` scrambles the goal's tiles.
        let (scrambled, _) = walk(home, 200, seed);
        let to_home = detour(shape, scrambled.blank(), home.blank());
        let goal = scrambled.replay(&to_home).unwrap();
        let (start, _) = walk(goal, steps, seed.rotate_left(17));
        (start, goal)
    }

    fn shapes() -> impl Strategy<Value = Shape> {
        prop::sample::select(vec!["3x3", "3x4", "4x3", "4x4", "2x6", "4x5", "5x5", "6x6"])
            .prop_map(|s| s.parse().unwrap())
    }

    /// Moves that go back and forth cancel, however many.
    #[test]
    fn joined_paths_cancel_at_the_seam() {
        use Move::*;
        assert_eq!(
            joined(vec![Down, Down, Left], vec![Right, Up, Left]),
            vec![Down, Left]
        );
        assert_eq!(joined(vec![Up], vec![Down]), vec![]);
        assert_eq!(joined(vec![], vec![Down, Up, Left]), vec![Left]);
        assert_eq!(joined(vec![Left, Right], vec![Up]), vec![Left, Right, Up]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A solution of the backward problem becomes a solution of the
        /// original one, longer by at most the detour; the backward problem's
        /// optimum is the original's from the end of the detour (both found
        /// by the crate's optimal search). The detour is as long as the
        /// blank's way to the nearest cell of the goal blank's class, and
        /// empty when the start's blank is in that class.
        #[test]
        fn backward_solutions_solve_the_original(
            shape in shapes(), blank in 0usize..36, steps in 0usize..8, seed in any::<u64>(),
        ) {
            let (start, goal) = problem(shape, blank, steps, seed);
            let backward = Backward::new(&start, &goal);
            let optimal = |from: &Board| {
                let options = SolveOptions::default();
                let conflicts = Guidance::linear_conflict();
                solve_within(from, &goal, Weight::OPTIMAL, &conflicts, &options).unwrap().solution
            };
            let found = optimal(backward.start());
            let moves = backward.forward(&found.moves);
            prop_assert_eq!(start.replay(&moves), Some(goal));
            prop_assert!(moves.len() <= found.moves.len() + backward.detour().len());
            let after = start.replay(backward.detour()).unwrap();
            prop_assert_eq!(optimal(&after).moves.len(), found.moves.len());
            if Symmetry::mapping(shape, start.blank(), goal.blank()).is_some() {
                prop_assert!(backward.detour().is_empty());
            }
            prop_assert!(backward.detour().len() <= shape.rows() / 2 + shape.cols() / 2);
        }

        /// Each position of the backward problem stands for a position of
        /// the original one ([`Backward::original`], cell by cell) from
        /// which [`Backward::to_goal`] of the moves to it leads to the goal.
        #[test]
        fn backward_positions_stand_for_original_ones(
            shape in shapes(), blank in 0usize..36, steps in 0usize..60, seed in any::<u64>(),
        ) {
            let (start, goal) = problem(shape, blank, 30, seed);
            let backward = Backward::new(&start, &goal);
            let (reached, moves) = walk(*backward.start(), steps, seed.rotate_left(29));
            let mut cells = vec![0u64; shape.cells()];
            for (cell, &tile) in reached.cells().iter().enumerate() {
                let (cell, tile) = backward.original(cell, tile);
                cells[cell] = tile as u64;
            }
            let original = Board::new(shape, &cells).unwrap();
            prop_assert_eq!(original.replay(&backward.to_goal(&moves)), Some(goal));
        }
    }
}
