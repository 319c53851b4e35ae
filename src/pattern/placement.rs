//! Numbering the placements of a pattern's tiles as 0, 1, 2, … with no gaps.
//!
//! A placement puts `k` distinct tiles on `k` of a board's `n` cells; there
//! are `n!/(n-k)!` of them. Its rank is a Lehmer code with falling weights:
//!
//! ```text
//! rank     = d[0]·w[0] + d[1]·w[1] + … + d[k-1]·w[k-1]
//! d[i]     = cell of tile i − how many earlier tiles sit in lower cells
//! w[i]     = (n-1-i)! / (n-k)!     (placements of the tiles after tile i)
//! ```
//!
//! `d[i]` ranges over the `n - i` cells the earlier tiles left free, so the
//! ranks fill `0..n!/(n-k)!` exactly, the last weight being 1.
//!
//! Boards of up to 16 cells count the earlier tiles below a cell with one
//! nibble per cell in a `u64` ([`PlacementRanker::rank_narrow`]), the 15-puzzle
//! search's hot path; larger boards (up to [`MAX_PATTERN_CELLS`]) count them
//! in a bit mask of the cells taken ([`PlacementRanker::rank_wide`]). Both
//! compute the same rank.

use super::error::PatternError;
use crate::table::divisor::Divisor;

/// 1 in every nibble.
const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// The cells 0, 1, …, 15 in successive nibbles, lowest first.
const ALL_CELLS: u64 = 0xFEDC_BA98_7654_3210;

/// Per-tile tables are this long. Ranks fit in a `u32`, so a pattern has at
/// most 12 tiles (12! fits, 13!/1! does not) on any board.
pub(crate) const SLOTS: usize = 16;

/// The most cells a board of patterns may have: every board up to 6×6.
pub const MAX_PATTERN_CELLS: usize = 36;

// Every board the puzzle accepts has its patterns.
const _: () = assert!(crate::puzzle::shape::MAX_CELLS <= MAX_PATTERN_CELLS);

/// The most cells [`PlacementRanker::rank_narrow`] handles: one nibble each.
pub(crate) const NARROW_CELLS: usize = 16;

/// Ranks and unranks the placements of `tiles` tiles on `cells` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementRanker {
    cells: usize,
    tiles: usize,
    len: u32,
    /// `w[i]` of the module's formula; 0 beyond the last tile.
    weights: [Divisor; SLOTS],
}

impl PlacementRanker {
    /// The ranker for `tiles` tiles on `cells` cells (at most
    /// [`MAX_PATTERN_CELLS`]); refused when the ranks would not fit in a `u32`.
    pub fn new(cells: usize, tiles: usize) -> Result<PlacementRanker, PatternError> {
        assert!(
            cells <= MAX_PATTERN_CELLS,
            "boards have at most {MAX_PATTERN_CELLS} cells"
        );
        assert!(
            (1..=cells).contains(&tiles),
            "a pattern has 1 to {cells} tiles"
        );
        // Falling factorial n·(n-1)·…·(n-k+1).
        let placements: u64 = (cells - tiles + 1..=cells).map(|c| c as u64).product();
        let len = u32::try_from(placements).map_err(|_| PatternError::TooManyPlacements {
            tiles,
            cells,
            placements,
        })?;
        let mut weights = [Divisor::default(); SLOTS];
        let mut weight: u64 = 1;
        for i in (0..tiles).rev() {
            weights[i] = Divisor::new(weight as u32);
            // Tile i has n - i cells to choose from.
            weight *= (cells - i) as u64;
        }
        Ok(PlacementRanker {
            cells,
            tiles,
            len,
            weights,
        })
    }

    /// Number of placements: `n!/(n-k)!`.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: every pattern has at least one placement.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Number of tiles placed.
    pub fn tiles(&self) -> usize {
        self.tiles
    }

    /// Number of cells of the board.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The rank of the placement with tile `i` in the `i`-th cell given;
    /// the cells must be distinct and below the board's size. Cells given
    /// past the pattern's tiles add nothing (their weights are 0), if they
    /// are one cell of the board, repeated: none then counts below another.
    #[inline]
    pub fn rank(&self, cells: impl IntoIterator<Item = u8>) -> u32 {
        if self.cells <= NARROW_CELLS {
            self.rank_narrow(cells)
        } else {
            self.rank_wide(cells)
        }
    }

    /// [`Self::rank`] on a board of at most 16 cells.
    #[inline]
    pub(crate) fn rank_narrow(&self, cells: impl IntoIterator<Item = u8>) -> u32 {
        debug_assert!(self.cells <= NARROW_CELLS);
        // Nibble j of `below` counts the cells taken so far that are below
        // j: the digit without a popcount, which baseline x86-64 lacks.
        let mut below: u64 = 0;
        let mut rank: u32 = 0;
        for (i, cell) in cells.into_iter().enumerate() {
            let shift = 4 * (cell as u32 & 15);
            let digit = cell as u32 - ((below >> shift) & 15) as u32;
            rank += digit * self.weights[i & (SLOTS - 1)].get();
            // Two shifts, so that cell 15 (nothing above it) needs none of 64.
            below += (NIBBLE_ONES << shift) << 4;
        }
        rank
    }

    /// [`Self::rank`] on any board: the earlier tiles below a cell are the
    /// bits of the mask of cells taken below the cell's bit.
    #[inline]
    pub(crate) fn rank_wide(&self, cells: impl IntoIterator<Item = u8>) -> u32 {
        let mut taken: u64 = 0;
        let mut rank: u32 = 0;
        for (i, cell) in cells.into_iter().enumerate() {
            let bit = 1u64 << (cell & 63);
            let digit = cell as u32 - (taken & (bit - 1)).count_ones();
            rank += digit * self.weights[i & (SLOTS - 1)].get();
            taken |= bit;
        }
        rank
    }

    /// The cells of the placement with rank `rank` (below [`Self::len`]):
    /// tile `i`'s cell at index `i`, the slots beyond the tiles 0.
    #[inline]
    pub fn unrank(&self, rank: u32) -> [u8; SLOTS] {
        if self.cells <= NARROW_CELLS {
            self.unrank_narrow(rank)
        } else {
            self.unrank_wide(rank)
        }
    }

    /// The digits of `rank`, most significant first: how many free cells
    /// each tile skips.
    #[inline]
    fn digits(&self, rank: u32) -> impl Iterator<Item = u64> + '_ {
        let mut rest = rank as u64;
        self.weights[..self.tiles].iter().map(move |&weight| {
            // Weight 1 (the last tile's, and the one before when the tiles fill
            // the board) has no reciprocal in 64 bits.
            let digit = if weight.get() == 1 {
                rest
            } else {
                weight.divide(rest)
            };
            rest -= digit * weight.get() as u64;
            digit
        })
    }

    /// [`Self::unrank`] on a board of at most 16 cells: the free cells in
    /// successive nibbles, the digit-th taken out.
    #[inline]
    fn unrank_narrow(&self, rank: u32) -> [u8; SLOTS] {
        let mut free = ALL_CELLS;
        let mut cells = [0u8; SLOTS];
        for (out, digit) in cells.iter_mut().zip(self.digits(rank)) {
            let shift = 4 * digit;
            *out = ((free >> shift) & 15) as u8;
            // Removes the nibble taken; two shifts so that none reaches 64.
            free = (free & ((1 << shift) - 1)) | ((free >> shift >> 4) << shift);
        }
        cells
    }

    /// [`Self::unrank`] on any board: the free cells as a bit mask, the
    /// digit-th set bit taken out.
    #[inline]
    fn unrank_wide(&self, rank: u32) -> [u8; SLOTS] {
        let mut free: u64 = (1 << self.cells) - 1;
        let mut cells = [0u8; SLOTS];
        for (out, digit) in cells.iter_mut().zip(self.digits(rank)) {
            let cell = nth_set_bit(free, digit as u32);
            *out = cell as u8;
            free &= !(1 << cell);
        }
        cells
    }
}

impl PlacementRanker {
    /// Turns `cells` (a placement, not the last) into the placement of the
    /// next rank, with no division: ranks follow the cells in slot order,
    /// so the last tile moves to the next free cell above its own, or,
    /// where there is none, the tile before it does, and the tiles after
    /// it take the lowest free cells.
    #[inline]
    pub fn advance(&self, cells: &mut [u8; SLOTS]) {
        let (k, all) = (self.tiles, (1u64 << self.cells) - 1);
        let mut taken = cells[..k].iter().fold(0u64, |m, &c| m | 1 << c);
        for slot in (0..k).rev() {
            taken &= !(1 << cells[slot]);
            let above = all & !taken & !((2u64 << cells[slot]) - 1);
            if above != 0 {
                cells[slot] = above.trailing_zeros() as u8;
                taken |= 1 << cells[slot];
                for cell in &mut cells[slot + 1..k] {
                    *cell = (all & !taken).trailing_zeros() as u8;
                    taken |= 1 << *cell;
                }
                return;
            }
        }
        debug_assert!(false, "the last placement has no next");
    }
}

/// The position of the `n`-th set bit of `mask` (from 0, lowest first),
/// which must have more than `n` bits set: whole bytes are skipped by
/// their bit counts, then the byte's bits one by one.
#[inline]
fn nth_set_bit(mask: u64, mut n: u32) -> u32 {
    let mut base = 0;
    let mut byte = mask & 255;
    while byte.count_ones() <= n {
        n -= byte.count_ones();
        base += 8;
        byte = mask >> base & 255;
    }
    let mut byte = byte as u32;
    for _ in 0..n {
        byte &= byte - 1;
    }
    base + byte.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The placements of `k` tiles on `n` cells in lexicographic order of
    /// their cells, written out independently of the ranker.
    fn lexicographic(n: usize, k: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut current = Vec::new();
        fn walk(n: usize, k: usize, current: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if current.len() == k {
                out.push(current.clone());
                return;
            }
            for c in 0..n as u8 {
                if !current.contains(&c) {
                    current.push(c);
                    walk(n, k, current, out);
                    current.pop();
                }
            }
        }
        walk(n, k, &mut current, &mut out);
        out
    }

    #[test]
    fn ranks_follow_lexicographic_order_on_small_boards() {
        for n in 1..=7 {
            for k in 1..=n {
                let ranker = PlacementRanker::new(n, k).unwrap();
                let all = lexicographic(n, k);
                assert_eq!(ranker.len(), all.len(), "{k} of {n}");
                for (r, cells) in all.iter().enumerate() {
                    assert_eq!(ranker.rank(cells.iter().copied()), r as u32);
                    assert_eq!(ranker.rank_wide(cells.iter().copied()), r as u32);
                    assert_eq!(&ranker.unrank(r as u32)[..k], &cells[..]);
                    assert_eq!(&ranker.unrank_wide(r as u32)[..k], &cells[..]);
                }
            }
        }
    }

    #[test]
    fn sizes_of_the_fifteen_puzzle_patterns() {
        assert_eq!(PlacementRanker::new(16, 8).unwrap().len(), 518_918_400);
        assert_eq!(PlacementRanker::new(16, 7).unwrap().len(), 57_657_600);
        assert_eq!(PlacementRanker::new(16, 9).unwrap().len(), 4_151_347_200);
        assert!(matches!(
            PlacementRanker::new(16, 10),
            Err(PatternError::TooManyPlacements { .. })
        ));
    }

    #[test]
    fn sizes_of_wide_patterns() {
        // The 24-puzzle's 6-tile patterns (Korf & Felner 2002).
        assert_eq!(PlacementRanker::new(25, 6).unwrap().len(), 127_512_000);
        assert_eq!(PlacementRanker::new(25, 7).unwrap().len(), 2_422_728_000);
        assert_eq!(PlacementRanker::new(36, 6).unwrap().len(), 1_402_410_240);
        assert!(matches!(
            PlacementRanker::new(25, 8),
            Err(PatternError::TooManyPlacements { .. })
        ));
    }

    #[test]
    fn nth_set_bit_counts_across_bytes() {
        let mask: u64 = 1 << 3 | 1 << 9 | 1 << 10 | 1 << 35 | 1 << 63;
        let found: Vec<u32> = (0..5).map(|n| nth_set_bit(mask, n)).collect();
        assert_eq!(found, [3, 9, 10, 35, 63]);
    }

    proptest! {
        /// unrank ∘ rank is the identity on random placements of 16 cells.
        #[test]
        fn rank_and_unrank_are_inverse(
            cells in Just((0u8..16).collect::<Vec<_>>()).prop_shuffle(),
            k in 1usize..=9,
        ) {
            let ranker = PlacementRanker::new(16, k).unwrap();
            let r = ranker.rank(cells[..k].iter().copied());
            prop_assert!((r as usize) < ranker.len());
            prop_assert_eq!(&ranker.unrank(r)[..k], &cells[..k]);
            // The wide ranking is the same numbering.
            prop_assert_eq!(ranker.rank_wide(cells[..k].iter().copied()), r);
            prop_assert_eq!(&ranker.unrank_wide(r)[..k], &cells[..k]);
        }

        /// One cell repeated after the pattern's tiles adds nothing: the
        /// search ranks every pattern in as many steps as the largest has
        /// tiles, padded with the blank's, so that the loop always ends
        /// where the processor expects it.
        #[test]
        fn a_cell_repeated_past_the_tiles_adds_nothing(
            cells in Just((0u8..36).collect::<Vec<_>>()).prop_shuffle(),
            n in 2usize..=36,
            k in 1usize..=8,
            extra in 0u8..36,
            repeats in 0usize..=4,
        ) {
            let ranker = PlacementRanker::new(n, k.min(n));
            prop_assume!(ranker.is_ok());
            let ranker = ranker.unwrap();
            let on_board: Vec<u8> = cells.iter().copied().filter(|&c| (c as usize) < n).collect();
            let tiles = &on_board[..ranker.tiles()];
            let extra = std::iter::repeat_n(extra % n as u8, repeats);
            let padded: Vec<u8> = tiles.iter().copied().chain(extra).collect();
            let r = ranker.rank(tiles.iter().copied());
            prop_assert_eq!(ranker.rank(padded.iter().copied()), r);
            prop_assert_eq!(ranker.rank_wide(padded.iter().copied()), r);
        }

        /// The same on wide boards, up to 6×6.
        #[test]
        fn wide_rank_and_unrank_are_inverse(
            cells in Just((0u8..36).collect::<Vec<_>>()).prop_shuffle(),
            n in 17usize..=36,
            k in 1usize..=6,
            fraction in 0.0f64..1.0,
        ) {
            let ranker = PlacementRanker::new(n, k).unwrap();
            let on_board: Vec<u8> = cells.iter().copied().filter(|&c| (c as usize) < n).collect();
            let r = ranker.rank(on_board[..k].iter().copied());
            prop_assert!((r as usize) < ranker.len());
            prop_assert_eq!(&ranker.unrank(r)[..k], &on_board[..k]);
            let r = (fraction * ranker.len() as f64) as u32;
            let cells = ranker.unrank(r);
            prop_assert_eq!(ranker.rank(cells[..k].iter().copied()), r);
        }

        /// Advancing a placement gives the next rank's, from random ranks
        /// on narrow and wide boards.
        #[test]
        fn advancing_gives_the_next_rank(cells in 2usize..=36, k in 1usize..=8, fraction in 0.0f64..1.0) {
            // Ranks fit in a u32 only up to a point: 8 tiles on 19 cells.
            let ranker = PlacementRanker::new(cells, k.min(cells));
            prop_assume!(ranker.is_ok());
            let ranker = ranker.unwrap();
            let first = (fraction * (ranker.len() - 1) as f64) as u32;
            let mut placement = ranker.unrank(first);
            for r in first + 1..(first + 200).min(ranker.len() as u32) {
                ranker.advance(&mut placement);
                prop_assert_eq!(placement, ranker.unrank(r));
            }
        }

        /// rank ∘ unrank is the identity on random ranks.
        #[test]
        fn unrank_and_rank_are_inverse(k in 1usize..=9, fraction in 0.0f64..1.0) {
            let ranker = PlacementRanker::new(16, k).unwrap();
            let r = (fraction * ranker.len() as f64) as u32;
            let cells = ranker.unrank(r);
            prop_assert_eq!(ranker.rank(cells[..k].iter().copied()), r);
        }
    }
}
