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
//! (see [`crate::puzzle::solvability`]). So `c[m-2]` is determined by the others and
//! can be dropped; every other weight `(m-1-i)!` is even and halves exactly.
//! That maps the `m!/2` sequences of the right parity onto `0..m!/2`, and the
//! whole table onto `0..cells!/2`.

use super::divisor::Divisor;
use crate::puzzle::board::{Board, Move};
use crate::puzzle::shape::{Shape, MAX_CELLS, MAX_TABLE_CELLS};
use crate::puzzle::solvability::required_parity;

/// 1 in every nibble.
const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// 1, 2, 3, … in successive nibbles: the tiles of a board of
/// [`MAX_TABLE_CELLS`], the largest a ranker serves.
const INCREASING: u64 = 0x0000_0BA9_8765_4321;

/// Per-index tables are this long, so that an index masked with `& 15`
/// needs no bounds check.
const SLOTS: usize = 16;

/// Ranks and unranks the positions that can reach one canonical goal.
#[derive(Clone, Copy, Debug)]
pub struct Ranker {
    shape: Shape,
    /// Tiles per position: cells - 1.
    tiles: usize,
    /// Positions per blank cell: tiles!/2.
    per_blank: u32,
    /// Weight of the Lehmer digit at each sequence index: (tiles-1-i)!/2,
    /// and 0 for the last two, which the rank drops.
    weights: [Divisor; SLOTS],
    /// The same weights alone, for ranking: packed four to 16 bytes rather
    /// than one (with its reciprocal), which ranking never needs.
    weight_values: [u32; SLOTS],
    /// `per_blank`, to divide by.
    per_blank_divisor: Divisor,
    /// Bit `b`: the inversion parity of positions with the blank in cell `b`.
    parities: u16,
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

/// A position packed into registers, with its Lehmer digits and rank, so
/// that a move updates the rank in a few operations instead of ranking from
/// scratch. A sideways move changes only the blank's cell. A vertical move
/// carries one tile past the `cols - 1` tiles between the blank's two cells:
/// a rotation of `cols` consecutive nibbles of the sequence, and only those
/// tiles' digits change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// The tiles row by row, blank skipped, one per nibble, first lowest.
    tiles: u64,
    /// The Lehmer digit of each tile, in the same nibble as the tile.
    digits: u64,
    /// The rank in the low 32 bits and the blank's cell above: one word, so
    /// that a move updates both with one addition, and a copy of a cursor
    /// never reads two separate stores as one.
    place: u64,
}

/// One blank cell in [`Cursor::place`].
const BLANK_ONE: u64 = 1 << 32;

impl Cursor {
    /// Its rank.
    #[inline]
    pub fn rank(&self) -> u32 {
        self.place as u32
    }

    /// The cell that holds the blank.
    #[inline]
    pub fn blank(&self) -> usize {
        (self.place >> 32) as usize
    }

    /// Every cell row by row, one per nibble, first lowest, with the
    /// blank's 0 in its place.
    #[inline]
    pub fn cells(&self) -> u64 {
        let at = 4 * self.blank();
        let before = self.tiles & ((1 << at) - 1);
        // Two shifts, so that none reaches 64 bits.
        before | ((self.tiles >> at) << 4) << at
    }
}

/// The 16 nibbles of `x`, one per byte, in the first 16 of [`MAX_CELLS`]
/// bytes: cursors hold boards of up to 16 cells.
#[inline]
fn spread_nibbles(x: u64) -> [u8; MAX_CELLS] {
    // Moves each nibble of a 32-bit half into its own byte, in three steps
    // of halving distances.
    let spread = |half: u64| {
        let y = (half | (half << 16)) & 0x0000_FFFF_0000_FFFF;
        let y = (y | (y << 8)) & 0x00FF_00FF_00FF_00FF;
        (y | (y << 4)) & 0x0F0F_0F0F_0F0F_0F0F
    };
    let low = spread(x & 0xFFFF_FFFF).to_le_bytes();
    let high = spread(x >> 32).to_le_bytes();
    let mut cells = [0u8; MAX_CELLS];
    cells[..8].copy_from_slice(&low);
    cells[8..16].copy_from_slice(&high);
    cells
}

/// The nibbles `at..at + len` of `x`, shifted down.
#[inline]
fn nibbles(x: u64, at: usize, len: usize) -> u64 {
    (x >> (4 * at)) & ((1 << (4 * len)) - 1)
}

/// `x` with nibbles `at..at + len` replaced by `value`.
#[inline]
fn with_nibbles(x: u64, at: usize, len: usize, value: u64) -> u64 {
    let mask = ((1u64 << (4 * len)) - 1) << (4 * at);
    (x & !mask) | (value << (4 * at))
}

impl Ranker {
    /// The ranker for the canonical goal with the blank in `goal_blank`.
    ///
    /// # Panics
    ///
    /// For boards above [`MAX_TABLE_CELLS`] cells, whose ranks would not
    /// fit in a `u32`.
    pub fn new(shape: Shape, goal_blank: usize) -> Ranker {
        assert!(
            shape.cells() <= MAX_TABLE_CELLS,
            "complete tables stop at {MAX_TABLE_CELLS} cells; a {shape} board needs pattern databases"
        );
        let tiles = shape.cells() - 1;
        let factorial = |k: usize| (1..=k as u32).product::<u32>();
        let mut weights = [Divisor::default(); SLOTS];
        for (i, weight) in weights.iter_mut().enumerate().take(tiles - 2) {
            *weight = Divisor::new(factorial(tiles - 1 - i) / 2);
        }
        let per_blank = factorial(tiles) / 2;
        Ranker {
            shape,
            tiles,
            per_blank,
            weights,
            weight_values: weights.map(Divisor::get),
            per_blank_divisor: Divisor::new(per_blank),
            parities: (0..shape.cells())
                .map(|b| (required_parity(shape, b, goal_blank) as u16) << b)
                .sum(),
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

    /// Whether a position with the blank in `blank` and this many inversions
    /// belongs to the table, i.e. can reach its goal.
    #[inline]
    pub fn reaches_goal(&self, blank: usize, inversions: u32) -> bool {
        (self.parities >> blank) as u32 & 1 == inversions & 1
    }

    /// A cursor at a canonically labelled board, and its inversion count.
    #[inline]
    pub fn cursor(&self, board: &Board) -> (Cursor, u32) {
        // Nibble k of `seen_below` counts the tiles seen so far whose value is
        // below k: a branch-free stand-in for a popcount, which the baseline
        // x86-64 target lacks.
        let mut seen_below: u64 = 0;
        let mut tiles: u64 = 0;
        let mut digits: u64 = 0;
        let mut rank: u32 = board.blank() as u32 * self.per_blank;
        let mut inversions: u32 = 0;
        let mut i = 0;
        for &tile in board.cells() {
            if tile == 0 {
                continue;
            }
            let v = tile as u32 - 1;
            // Smaller tiles still to come = smaller tiles not yet seen.
            let digit = v - ((seen_below >> (4 * v)) & 0xF) as u32;
            seen_below += NIBBLE_ONES << (4 * (v + 1));
            inversions += digit;
            rank += digit * self.weight_values[i & (SLOTS - 1)];
            tiles |= (tile as u64) << (4 * i);
            digits |= (digit as u64) << (4 * i);
            i += 1;
        }
        let cursor = Cursor {
            tiles,
            digits,
            place: board.blank() as u64 * BLANK_ONE + rank as u64,
        };
        (cursor, inversions)
    }

    /// Rank and inversion count of a canonically labelled board.
    #[inline]
    pub fn rank_and_inversions(&self, board: &Board) -> Ranked {
        let (cursor, inversions) = self.cursor(board);
        Ranked {
            rank: cursor.rank(),
            inversions,
        }
    }

    /// Rank of a canonically labelled board that can reach the goal.
    #[inline]
    pub fn rank(&self, board: &Board) -> u32 {
        self.cursor(board).0.rank()
    }

    /// The cursor's position as a board.
    pub fn board(&self, cursor: &Cursor) -> Board {
        self.board_of_cells(cursor.cells(), cursor.blank())
    }

    /// The board with these cells, one per nibble as [`Cursor::cells`]
    /// gives them, and the blank in cell `blank`.
    #[inline]
    fn board_of_cells(&self, cells: u64, blank: usize) -> Board {
        Board::from_parts(self.shape, blank, spread_nibbles(cells))
    }

    /// The cursor after the blank moves `m`, or `None` at the board's edge.
    #[inline]
    pub fn step(&self, from: &Cursor, m: Move) -> Option<Cursor> {
        let mut next = *from;
        self.advance(&mut next, m).then_some(next)
    }

    /// Moves the cursor's blank by `m` in place; false, with the cursor
    /// unchanged, at the board's edge. Loops that walk a cursor call this
    /// rather than [`Ranker::step`], so that no copy of the cursor is read
    /// back before its fields' stores have landed.
    #[inline]
    pub fn advance(&self, cursor: &mut Cursor, m: Move) -> bool {
        let blank = cursor.blank();
        let (cols, cells) = (self.shape.cols(), self.shape.cells());
        match m {
            Move::Left if !self.shape.on_left_edge(blank) => {
                cursor.place -= BLANK_ONE + self.per_blank as u64;
            }
            Move::Right if !self.shape.on_right_edge(blank) => {
                cursor.place += BLANK_ONE + self.per_blank as u64;
            }
            Move::Up if blank >= cols => self.carry(cursor, blank - cols, true),
            Move::Down if blank + cols < cells => self.carry(cursor, blank, false),
            _ => return false,
        }
        true
    }

    /// A vertical move between cell `low` and the cell `cols` below it. The
    /// tiles in the cells between occupy sequence indices `low..=low + k`
    /// (`k = cols - 1`) together with the moving tile, which goes from the
    /// first of them to the last when the blank moves up (`up`), and from
    /// the last to the first when it moves down.
    #[inline]
    fn carry(&self, cursor: &mut Cursor, low: usize, up: bool) {
        // One copy per board width, so that the loops over the passed tiles
        // unroll; the width is the same on every call, so the dispatch is
        // predicted.
        match self.shape.cols() {
            2 => self.carry_past::<1>(cursor, low, up),
            3 => self.carry_past::<2>(cursor, low, up),
            4 => self.carry_past::<3>(cursor, low, up),
            5 => self.carry_past::<4>(cursor, low, up),
            _ => self.carry_past::<5>(cursor, low, up),
        }
    }

    /// [`Ranker::carry`] for boards `K + 1` columns wide.
    #[inline]
    fn carry_past<const K: usize>(&self, cursor: &mut Cursor, low: usize, up: bool) {
        let k = K;
        let seg = nibbles(cursor.tiles, low, k + 1);
        let digits = nibbles(cursor.digits, low, k + 1);
        let (tile, others, tile_digit, other_digits) = if up {
            (seg & 0xF, seg >> 4, digits & 0xF, digits >> 4)
        } else {
            (
                seg >> (4 * k),
                seg & ((1 << (4 * k)) - 1),
                digits >> (4 * k),
                digits & ((1 << (4 * k)) - 1),
            )
        };
        // One in the nibble of each passed tile larger than the moving one:
        // its digit gains (or loses) the moving tile.
        let mut larger = 0u64;
        let mut smaller = k as u64;
        for j in 0..k {
            let is_larger = (tile < ((others >> (4 * j)) & 0xF)) as u64;
            larger |= is_larger << (4 * j);
            smaller -= is_larger;
        }
        let (new_seg, new_digits) = if up {
            (
                others | (tile << (4 * k)),
                (other_digits + larger) | ((tile_digit - smaller) << (4 * k)),
            )
        } else {
            (
                (others << 4) | tile,
                ((other_digits - larger) << 4) | (tile_digit + smaller),
            )
        };
        let (mut old_weight, mut new_weight) = (0u32, 0u32);
        for j in 0..=k {
            let w = self.weight_values[(low + j) & (SLOTS - 1)];
            old_weight += ((digits >> (4 * j)) & 0xF) as u32 * w;
            new_weight += ((new_digits >> (4 * j)) & 0xF) as u32 * w;
        }
        // The blank moves k + 1 cells, and the rank by k + 1 blank cells'
        // worth; the passed tiles' digits change it by the weights'
        // difference. Neither step goes below zero: the old weights are
        // part of the rank.
        let shift = (BLANK_ONE + self.per_blank as u64) * (k as u64 + 1);
        let place = if up {
            cursor.place - shift - old_weight as u64
        } else {
            cursor.place + shift - old_weight as u64
        };
        cursor.tiles = with_nibbles(cursor.tiles, low, k + 1, new_seg);
        cursor.digits = with_nibbles(cursor.digits, low, k + 1, new_digits);
        cursor.place = place + new_weight as u64;
    }

    /// The rank of the position with these cells, one per nibble as
    /// [`Cursor::cells`] gives them, and the blank in `blank`.
    pub fn rank_cells(&self, cells: u64, blank: usize) -> u32 {
        self.rank(&self.board_of_cells(cells, blank))
    }

    /// The board with rank `rank` (which must be below [`Ranker::len`]).
    pub fn unrank(&self, rank: u32) -> Board {
        self.board(&self.cursor_at(rank))
    }

    /// A cursor at the position with rank `rank` (which must be below
    /// [`Ranker::len`]): the inverse of ranking, digit by digit.
    #[inline(always)]
    pub fn cursor_at(&self, rank: u32) -> Cursor {
        let blank = self.per_blank_divisor.divide(rank as u64) as usize;
        let mut rest = (rank - blank as u32 * self.per_blank) as u64;
        let m = self.tiles;
        // The tiles not yet placed, in increasing order, one per nibble.
        let mut free: u64 = INCREASING & ((1 << (4 * m)) - 1);
        let mut tiles = 0u64;
        let mut digits = 0u64;
        let mut parity = 0;
        // Takes the digit-th smallest free tile as the tile at index i.
        let mut place = |i: usize, digit: u64| {
            let k = 4 * digit;
            tiles |= ((free >> k) & 0xF) << (4 * i);
            digits |= digit << (4 * i);
            free = (free & ((1 << k) - 1)) | ((free >> (k + 4)) << k);
        };
        for i in 0..m - 3 {
            let weight = self.weights[i & (SLOTS - 1)];
            let digit = weight.divide(rest);
            rest -= digit * weight.get() as u64;
            parity ^= digit;
            place(i, digit);
        }
        // The last kept digit has weight 1: it is what remains.
        parity ^= rest;
        place(m - 3, rest);
        // The dropped digit is whichever gives the table's parity.
        let required = (self.parities >> blank) as u64 & 1;
        place(m - 2, (parity & 1) ^ required);
        // The last tile is whatever is left; its digit is 0.
        tiles |= free << (4 * (m - 1));
        Cursor {
            tiles,
            digits,
            place: blank as u64 * BLANK_ONE + rank as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::solvability::inversions;

    fn check_bijection(shape: Shape, goal_blank: usize) {
        let ranker = Ranker::new(shape, goal_blank);
        assert_eq!(ranker.len() as u64, shape.table_positions());
        for r in 0..ranker.len() as u32 {
            let board = ranker.unrank(r);
            // The cursor built from the rank is the one built from the board.
            assert_eq!(ranker.cursor_at(r), ranker.cursor(&board).0, "{board:?}");
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

    /// Random walks: after every move the cursor's rank and digits equal a
    /// ranking from scratch.
    #[test]
    fn cursors_follow_random_walks() {
        for size in [
            "2x2", "2x3", "3x2", "3x3", "2x4", "4x2", "2x5", "5x2", "3x4", "4x3", "2x6", "6x2",
        ] {
            let shape: Shape = size.parse().unwrap();
            let mut state = 0x9E37_79B9_7F4A_7C15u64;
            for goal_blank in 0..shape.cells() {
                let ranker = Ranker::new(shape, goal_blank);
                let (mut cursor, _) = ranker.cursor(&Board::canonical_goal(shape, goal_blank));
                for _ in 0..2000 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let m = Move::from_code(state as u8);
                    let Some(next) = ranker.step(&cursor, m) else {
                        continue;
                    };
                    let board = ranker.board(&next);
                    let (fresh, _) = ranker.cursor(&board);
                    assert_eq!(
                        next,
                        fresh,
                        "{size} after {m:?} from {:?}",
                        ranker.board(&cursor)
                    );
                    assert_eq!(ranker.cursor_at(next.rank()), next);
                    cursor = next;
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "complete tables stop at 12 cells")]
    fn boards_beyond_complete_tables_are_refused() {
        Ranker::new(Shape::new(4, 4).unwrap(), 15);
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
