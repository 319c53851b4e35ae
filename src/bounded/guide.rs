//! What steers the search: an admissible estimate of the moves left,
//! updated move by move.
//!
//! Any lower bound on the distance to the goal plugs in through [`Guide`].
//! Two do today: Manhattan distance plus linear conflicts, which needs
//! nothing but the goal, and a pattern database's tables.

use super::ida::{parity_of, raise_bound, to_parity, Bounded, Iterated};
use super::optimistic::Schedule;
use crate::pattern::{
    Budget, Entries, Moves, PatternDb, Raised, Slide, SolveError, SolveOptions, Work,
};
use crate::puzzle::board::Board;
use crate::puzzle::heuristic::Evaluator;
use crate::puzzle::shape::{Shape, MAX_CELLS};

/// An admissible heuristic as the weighted search reads it. `Memo` is
/// whatever a position's estimate keeps so that a child's is cheap to
/// compute from its parent's.
pub(crate) trait Guide {
    /// What a position's estimate remembers.
    type Memo: Copy;

    /// The estimate of `board`, computed from scratch.
    fn start(&self, board: &Board) -> Self::Memo;

    /// What a move changes in a memo, as small as it can be kept: a beam
    /// holds one for every child on offer, and builds the memos of the
    /// few it keeps ([`Guide::after`]).
    type Step: Copy;

    /// The change to `parent`'s memo when `tile` slides from cell `from`
    /// into cell `to`, leaving `child`, up to what [`Guide::read`] reads.
    fn step(
        &self,
        parent: &Self::Memo,
        child: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> Self::Step;

    /// Completes `step` with what it reads from memory. A search that has
    /// many steps to complete makes them all first, then reads: the reads
    /// then overlap instead of waiting one after another.
    #[inline]
    fn read(&self, _step: &mut Self::Step) {}

    /// The memo after `step`, from the parent's.
    fn after(&self, parent: &Self::Memo, step: &Self::Step) -> Self::Memo;

    /// The lower bound after `step`.
    fn step_value(step: &Self::Step) -> u32;

    /// What tells steps of one lower bound apart: the smaller, the more
    /// promising, so a beam keeps it first. None by default.
    #[inline]
    fn step_tie(_step: &Self::Step) -> u32 {
        0
    }

    /// The estimate of `child`, one move from the position of `parent`:
    /// `tile` slid from cell `from` into cell `to`.
    #[inline]
    fn slid(
        &self,
        parent: &Self::Memo,
        child: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> Self::Memo {
        let mut step = self.step(parent, child, tile, from, to);
        self.read(&mut step);
        self.after(parent, &step)
    }

    /// The lower bound a memo holds.
    fn value(memo: &Self::Memo) -> u32;

    /// How optimistic search spends its rounds with this estimate on
    /// boards of `shape`.
    fn schedule(&self, shape: Shape) -> Schedule;

    /// Plain IDA* from `start` to `goal` within `budget`, to raise the
    /// lower bound ([`raise_bound`]); a guide with a faster search of its
    /// own runs that instead. The budget is told lower bounds rounded up
    /// to the parity of solutions' lengths.
    fn raise_bound(
        &self,
        start: &Board,
        goal: &Board,
        budget: &mut dyn Budget,
        options: &SolveOptions,
    ) -> Result<Iterated, SolveError>
    where
        Self: Sized,
    {
        Ok(raise_bound(self, start, goal, budget, options)?)
    }
}

/// Manhattan distance plus two moves per linear conflict
/// ([`crate::puzzle::heuristic::Heuristic::LinearConflict`]), toward any goal.
pub(crate) struct ConflictGuide {
    eval: Evaluator,
    rows: usize,
    cols: usize,
}

/// The Manhattan sum and each line's conflicts, rows first, then columns.
#[derive(Clone, Copy)]
pub(crate) struct ConflictMemo {
    manhattan: u32,
    conflicts: u32,
    lines: [u8; MAX_CELLS],
}

impl ConflictGuide {
    /// The guide toward `goal`.
    pub fn new(goal: &Board) -> ConflictGuide {
        let shape = goal.shape();
        ConflictGuide {
            eval: Evaluator::new(goal),
            rows: shape.rows(),
            cols: shape.cols(),
        }
    }
}

impl Guide for ConflictGuide {
    type Memo = ConflictMemo;
    /// The child's memo itself: 44 bytes at most.
    type Step = ConflictMemo;

    fn schedule(&self, _: Shape) -> Schedule {
        Schedule::GROWING
    }

    fn start(&self, board: &Board) -> ConflictMemo {
        let cells = board.cells();
        let manhattan = cells
            .iter()
            .enumerate()
            .filter(|&(_, &tile)| tile != 0)
            .map(|(cell, &tile)| self.eval.tile_distance(tile, cell))
            .sum();
        // Two lines per cell at most: rows + columns ≤ rows × columns.
        let mut lines = [0u8; MAX_CELLS];
        let (rows, cols) = lines.split_at_mut(self.rows);
        for (r, count) in rows.iter_mut().enumerate() {
            *count = self.eval.row_conflicts(cells, r) as u8;
        }
        for (c, count) in cols.iter_mut().take(self.cols).enumerate() {
            *count = self.eval.col_conflicts(cells, c) as u8;
        }
        let conflicts = lines.iter().map(|&n| n as u32).sum();
        ConflictMemo {
            manhattan,
            conflicts,
            lines,
        }
    }

    #[inline]
    fn step(
        &self,
        parent: &ConflictMemo,
        child: &Board,
        tile: u8,
        from: usize,
        to: usize,
    ) -> ConflictMemo {
        let mut memo = *parent;
        memo.manhattan = memo.manhattan + self.eval.tile_distance(tile, to)
            - self.eval.tile_distance(tile, from);
        let cells = child.cells();
        // A tile that changes row keeps its column's order, and one that
        // changes column keeps its row's: only the two lines it left and
        // entered can change.
        let (from_row, to_row) = (from / self.cols, to / self.cols);
        let lines = if from_row != to_row {
            [
                (from_row, self.eval.row_conflicts(cells, from_row)),
                (to_row, self.eval.row_conflicts(cells, to_row)),
            ]
        } else {
            let (from_col, to_col) = (from % self.cols, to % self.cols);
            [
                (
                    self.rows + from_col,
                    self.eval.col_conflicts(cells, from_col),
                ),
                (self.rows + to_col, self.eval.col_conflicts(cells, to_col)),
            ]
        };
        for (line, count) in lines {
            memo.conflicts = memo.conflicts + count - memo.lines[line] as u32;
            memo.lines[line] = count as u8;
        }
        memo
    }

    #[inline]
    fn after(&self, _: &ConflictMemo, step: &ConflictMemo) -> ConflictMemo {
        *step
    }

    #[inline]
    fn step_value(step: &ConflictMemo) -> u32 {
        Self::value(step)
    }

    #[inline]
    fn value(memo: &ConflictMemo) -> u32 {
        memo.manhattan + 2 * memo.conflicts
    }
}

/// What a [`PatternGuide`] reads: a pattern database's tables, whatever
/// bytes hold them.
pub(crate) trait Tables {
    /// A position's entries, read afresh.
    fn entries(&self, board: &Board) -> PatternMemo;
    /// What sliding `tile` into cell `to` changes in the entries, but for
    /// the table reads.
    fn slide(&self, memo: &PatternMemo, moves: &Moves, tile: u8, to: usize) -> Slide;
    /// Makes `slide`'s table reads.
    fn read(&self, slide: &mut Slide);
    /// What a move needs to know, worked out once.
    fn moves(&self) -> Moves;
    /// The tables' own IDA* ([`crate::pattern::raise_bound`]) from `start`
    /// to their goal, within `budget`.
    fn raise_bound(
        &self,
        start: &Board,
        budget: &mut dyn Budget,
        options: &SolveOptions,
    ) -> Result<Raised, SolveError>;
}

impl<B: AsRef<[u8]>> Tables for PatternDb<B> {
    fn entries(&self, board: &Board) -> PatternMemo {
        PatternDb::entries(self, board)
    }

    #[inline]
    fn slide(&self, memo: &PatternMemo, moves: &Moves, tile: u8, to: usize) -> Slide {
        PatternDb::slide(self, memo, moves, tile, to)
    }

    #[inline]
    fn read(&self, slide: &mut Slide) {
        PatternDb::read(self, slide)
    }

    fn moves(&self) -> Moves {
        PatternDb::moves(self)
    }

    fn raise_bound(
        &self,
        start: &Board,
        budget: &mut dyn Budget,
        options: &SolveOptions,
    ) -> Result<Raised, SolveError> {
        crate::pattern::raise_bound(self, None, start, budget, options)
    }
}

/// A position's entries, and through the transpose where it is used.
pub(crate) type PatternMemo = Entries;

/// A pattern database's lower bound ([`PatternDb::heuristic`]) toward the
/// tables' own goal, updated move by move: a move re-reads only the table
/// of the tile it slid (and of its image through the transpose).
pub(crate) struct PatternGuide<'g> {
    tables: &'g dyn Tables,
    moves: Moves,
}

impl<'g> PatternGuide<'g> {
    pub fn new(tables: &'g dyn Tables) -> PatternGuide<'g> {
        PatternGuide {
            tables,
            moves: tables.moves(),
        }
    }
}

impl Guide for PatternGuide<'_> {
    type Memo = PatternMemo;
    type Step = Slide;

    /// Past 16 cells the tables are far from the distances and the beams
    /// stray, so they run from both ends; up to 16, beams from one end
    /// take fewer nodes at weights close to 1 (docs/benchmarks.md).
    fn schedule(&self, shape: Shape) -> Schedule {
        match shape.cells() > 16 {
            true => Schedule::PATTERNS_WIDE,
            false => Schedule::PATTERNS,
        }
    }

    fn start(&self, board: &Board) -> PatternMemo {
        self.tables.entries(board)
    }

    #[inline]
    fn step(&self, memo: &PatternMemo, _: &Board, tile: u8, _: usize, to: usize) -> Slide {
        self.tables.slide(memo, &self.moves, tile, to)
    }

    #[inline]
    fn read(&self, step: &mut Slide) {
        self.tables.read(step)
    }

    #[inline]
    fn after(&self, memo: &PatternMemo, step: &Slide) -> PatternMemo {
        memo.after(step)
    }

    #[inline]
    fn step_value(step: &Slide) -> u32 {
        step.bound()
    }

    /// Both lookups' sums added ([`Slide::total`]), as the tables' own
    /// IDA* orders a node's children of one estimate. On 100 random 5×5
    /// positions at W = 1.2, 3% and 16% fewer nodes (two seeds), and more
    /// of them proved within 1 s (docs/benchmarks.md).
    #[inline]
    fn step_tie(step: &Slide) -> u32 {
        step.total()
    }

    #[inline]
    fn value(memo: &PatternMemo) -> u32 {
        memo.bound()
    }

    /// The tables' own IDA*, which skips duplicate move sequences and
    /// carries estimates back up (BPMX): on 5×5 it reaches the bound
    /// [`raise_bound`] reaches in about three fifths of the time, with up
    /// to an eighth fewer nodes (docs/benchmarks.md).
    fn raise_bound(
        &self,
        start: &Board,
        goal: &Board,
        budget: &mut dyn Budget,
        options: &SolveOptions,
    ) -> Result<Iterated, SolveError> {
        // Like every part of the bounded search, on one thread.
        let options = SolveOptions {
            parallel: false,
            ..*options
        };
        let parity = parity_of(start, goal);
        let mut budget = ToParity { budget, parity };
        let raised = self.tables.raise_bound(start, &mut budget, &options)?;
        Ok(match raised {
            Raised::Found(solution) => Iterated::Found(Bounded {
                lower_bound: solution.moves.len() as u32,
                solution,
            }),
            Raised::Spent { lower_bound, work } => {
                let lower_bound = to_parity(lower_bound, parity);
                Iterated::Spent { lower_bound, work }
            }
        })
    }
}

/// A budget told lower bounds rounded up to `parity` (see [`to_parity`]).
struct ToParity<'b> {
    budget: &'b mut dyn Budget,
    parity: u32,
}

impl Budget for ToParity<'_> {
    fn known(&self) -> u32 {
        self.budget.known()
    }

    fn grant(&mut self, proved: u32, work: Work) -> Option<u64> {
        self.budget.grant(to_parity(proved, self.parity), work)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Move;
    use crate::puzzle::heuristic::Heuristic;
    use crate::puzzle::parse::parse_board;
    use crate::puzzle::shape::Shape;

    /// Along a long random walk, the pattern tables' sums updated move by
    /// move (and the bound a step reports before it is taken) equal the
    /// database's own heuristic read afresh, through the transpose too.
    #[test]
    fn pattern_entries_updated_move_by_move_match_a_fresh_reading() {
        use crate::pattern::{Partition, PatternDb};
        for (shape, name, moves) in [("3x3", "4-4", 20_000), ("5x5", "4-4-4-4-4-4", 5_000)] {
            let shape: Shape = shape.parse().unwrap();
            let partition = Partition::named(shape, name).unwrap();
            let db = PatternDb::build(partition, &|_, _| {}).unwrap();
            assert!(db.uses_second_lookup(), "{name}");
            let guide = PatternGuide::new(&db);
            let mut memo = guide.start(&db.goal());
            random_walk(db.goal(), moves, |board, tile, from, to| {
                let mut step = guide.step(&memo, board, tile, from, to);
                guide.read(&mut step);
                memo = guide.after(&memo, &step);
                assert_eq!(PatternGuide::step_value(&step), db.heuristic(board));
                assert_eq!(PatternGuide::value(&memo), db.heuristic(board), "{board}");
            });
        }
    }

    /// Makes `steps` random moves from `start` (the same every run),
    /// telling `visit` each board reached, the tile moved, the cell it left
    /// and the cell it entered (the blank's before).
    fn random_walk(start: Board, steps: usize, mut visit: impl FnMut(&Board, u8, usize, usize)) {
        let mut board = start;
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..steps {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = Move::from_code(state as u8 & 3);
            let Some(to) = board.target(m) else { continue };
            let (from, tile) = (board.blank(), board.cells()[to]);
            board = board.apply(m).unwrap();
            visit(&board, tile, to, from);
        }
    }

    /// Along a long random walk, the estimate updated move by move equals
    /// the one computed from scratch, and both equal the survey's.
    #[test]
    fn conflicts_updated_move_by_move_match_a_fresh_count() {
        for (text, shape) in [
            ("123804765", "3x3"),
            ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "4x4"),
            ("12345670", "2x4"),
        ] {
            let shape: Shape = shape.parse().unwrap();
            let goal = parse_board(text, shape).unwrap();
            let guide = ConflictGuide::new(&goal);
            let eval = Evaluator::new(&goal);
            let mut memo = guide.start(&goal);
            random_walk(goal, 20_000, |board, tile, from, to| {
                memo = guide.slid(&memo, board, tile, from, to);
                let fresh = guide.start(board);
                assert_eq!(
                    ConflictGuide::value(&memo),
                    ConflictGuide::value(&fresh),
                    "{board}"
                );
                assert_eq!(
                    ConflictGuide::value(&memo),
                    eval.h(Heuristic::LinearConflict, board),
                    "{board}"
                );
            });
        }
    }
}
