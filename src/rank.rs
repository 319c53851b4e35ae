//! Numbering the positions reachable from a goal as 0, 1, 2, … with no gaps.
//!
//! A position is its blank cell and the sequence of its `m = cells - 1` tiles
//! read row by row. The rank is `blank * m!/2 + r`, where `r` is the Lehmer
//! code of the tile sequence with its last two digits dropped:
//!
//! ```text
//! lehmer = c[0]·(m-1)! + c[1]·(m-2)! + … + c[m-2]·1! + c[m-1]·0!
//! c[i]   = how many of the tiles after position i are smaller than tile i
//! ```
//!
//! `c[m-1]` is always 0, and the sum of all `c[i]` is the number of
//! inversions, whose parity the blank's cell fixes for reachable positions
//! (see [`crate::solvability`]). So `c[m-2]` is determined by the others and
//! can be dropped; every other weight `(m-1-i)!` is even and halves exactly.
//! That maps the `m!/2` sequences of the right parity onto `0..m!/2`, and the
//! whole table onto `0..cells!/2`.

use crate::board::Board;
use crate::shape::{Shape, MAX_CELLS};
use crate::solvability::required_parity;

/// 1 in every nibble.
const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// 1, 2, 3, … in successive nibbles: the tiles of a board of [`MAX_CELLS`].
const INCREASING: u64 = 0x0000_0BA9_8765_4321;

/// Ranks and unranks the positions that can reach one canonical goal.
#[derive(Clone, Copy, Debug)]
pub struct Ranker {
    shape: Shape,
    goal_blank: usize,
    /// Tiles per position: cells - 1.
    tiles: usize,
    /// Positions per blank cell: tiles!/2.
    per_blank: u32,
}

/// What ranking a board found: its rank, and its inversion count, which
/// decides whether the board belonged to this table at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// Index into the table (meaningful only when the parity is right).
    pub rank: u32,
    /// Tile inversions relative to the canonical goal.
    pub inversions: u32,
}

impl Ranker {
    /// The ranker for the canonical goal with the blank in `goal_blank`.
    pub fn new(shape: Shape, goal_blank: usize) -> Ranker {
        let tiles = shape.cells() - 1;
        let per_blank = ((1..=tiles as u32).product::<u32>()) / 2;
        Ranker {
            shape,
            goal_blank,
            tiles,
            per_blank,
        }
    }

    /// Number of ranks: cells!/2.
    pub fn len(&self) -> usize {
        self.per_blank as usize * self.shape.cells()
    }

    /// Always false: every board has positions.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Positions that share one blank cell. Moving the blank sideways leaves
    /// the tile sequence as it is, so it changes the rank by exactly this.
    pub fn per_blank(&self) -> u32 {
        self.per_blank
    }

    /// Rank and inversion count of a canonically labelled board.
    #[inline]
    pub fn rank_and_inversions(&self, board: &Board) -> Ranked {
        // Nibble k of `seen_below` counts the tiles seen so far whose value is
        // below k: a branch-free stand-in for a popcount, which the baseline
        // x86-64 target lacks.
        let mut seen_below: u64 = 0;
        let mut rank: u32 = 0;
        let mut inversions: u32 = 0;
        let ranked_digits = self.tiles - 2;
        let mut i = 0;
        for &tile in board.cells() {
            if tile == 0 {
                continue;
            }
            let v = tile as u32 - 1;
            // Smaller tiles still to come = smaller tiles not yet seen.
            let smaller_later = v - ((seen_below >> (4 * v)) & 0xF) as u32;
            seen_below += NIBBLE_ONES << (4 * (v + 1));
            inversions += smaller_later;
            if i < ranked_digits {
                rank = rank * (self.tiles - i) as u32 + smaller_later;
            }
            i += 1;
        }
        Ranked {
            rank: board.blank() as u32 * self.per_blank + rank,
            inversions,
        }
    }

    /// Rank of a canonically labelled board that can reach the goal.
    #[inline]
    pub fn rank(&self, board: &Board) -> u32 {
        self.rank_and_inversions(board).rank
    }

    /// The board with rank `rank` (which must be below [`Ranker::len`]).
    pub fn unrank(&self, rank: u32) -> Board {
        let blank = (rank / self.per_blank) as usize;
        let mut rest = rank % self.per_blank;
        let m = self.tiles;
        // Digits c[0..m-2], least significant last.
        let mut digits = [0u32; MAX_CELLS];
        for i in (0..m.saturating_sub(2)).rev() {
            let radix = (m - i) as u32;
            digits[i] = rest % radix;
            rest /= radix;
        }
        let parity = digits[..m - 2].iter().sum::<u32>() % 2;
        digits[m - 2] = parity ^ required_parity(self.shape, blank, self.goal_blank);

        // The tiles not yet placed, in increasing order, one per nibble.
        let mut free: u64 = INCREASING & ((1 << (4 * m)) - 1);
        let mut cells = [0u8; MAX_CELLS];
        let mut next = 0;
        for (cell, out) in cells.iter_mut().enumerate().take(self.shape.cells()) {
            if cell == blank {
                continue;
            }
            // Take out the digits[next]-th smallest free tile.
            let k = 4 * digits[next];
            *out = ((free >> k) & 0xF) as u8;
            let below = free & ((1 << k) - 1);
            free = below | ((free >> (k + 4)) << k);
            next += 1;
        }
        Board::from_parts(self.shape, blank, cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvability::inversions;

    fn check_bijection(shape: Shape, goal_blank: usize) {
        let ranker = Ranker::new(shape, goal_blank);
        assert_eq!(ranker.len() as u64, shape.positions());
        for r in 0..ranker.len() as u32 {
            let board = ranker.unrank(r);
            let ranked = ranker.rank_and_inversions(&board);
            assert_eq!(ranked.rank, r, "{board:?}");
            assert_eq!(ranked.inversions, inversions(&board));
            assert_eq!(
                ranked.inversions % 2,
                required_parity(shape, board.blank(), goal_blank),
                "{board:?} has the wrong parity for its table"
            );
        }
    }

    #[test]
    fn three_by_three_is_a_bijection_for_every_goal_blank() {
        // rank(unrank(r)) = r for all r makes unrank injective; every board it
        // yields has the goal's parity, and there are exactly 9!/2 of those.
        for blank in 0..9 {
            check_bijection(Shape::THREE_BY_THREE, blank);
        }
    }

    #[test]
    fn small_boards_are_bijections() {
        for size in ["2x2", "2x3", "3x2", "2x4", "4x2"] {
            let shape: Shape = size.parse().unwrap();
            for blank in 0..shape.cells() {
                check_bijection(shape, blank);
            }
        }
    }

    #[test]
    fn the_goal_has_the_smallest_rank_of_its_blank_cell() {
        let shape = Shape::THREE_BY_THREE;
        for blank in 0..9 {
            let ranker = Ranker::new(shape, blank);
            let goal = Board::canonical_goal(shape, blank);
            assert_eq!(ranker.rank(&goal), blank as u32 * 20_160);
        }
    }
}
