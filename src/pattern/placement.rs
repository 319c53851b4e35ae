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

use super::error::PatternError;
use crate::table::divisor::Divisor;

/// 1 in every nibble.
const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// The cells 0, 1, …, 15 in successive nibbles, lowest first.
const ALL_CELLS: u64 = 0xFEDC_BA98_7654_3210;

/// Per-tile tables are this long: at most one tile per cell of a 16-cell board.
const SLOTS: usize = 16;

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
    /// The ranker for `tiles` tiles on `cells` cells (at most 16); refused
    /// when the ranks would not fit in a `u32`.
    pub fn new(cells: usize, tiles: usize) -> Result<PlacementRanker, PatternError> {
        assert!(cells <= SLOTS, "boards have at most {SLOTS} cells");
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
    /// the cells must be distinct and below the board's size.
    #[inline]
    pub fn rank(&self, cells: impl IntoIterator<Item = u8>) -> u32 {
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

    /// The cells of the placement with rank `rank` (below [`Self::len`]):
    /// tile `i`'s cell at index `i`, the slots beyond the tiles 0.
    #[inline]
    pub fn unrank(&self, rank: u32) -> [u8; SLOTS] {
        let mut free = ALL_CELLS;
        let mut rest = rank as u64;
        let mut cells = [0u8; SLOTS];
        for (i, out) in cells.iter_mut().enumerate().take(self.tiles) {
            let weight = self.weights[i];
            // Weight 1 (the last tile's, and the one before when the tiles fill
            // the board) has no reciprocal in 64 bits.
            let digit = if weight.get() == 1 {
                rest
            } else {
                weight.divide(rest)
            };
            rest -= digit * weight.get() as u64;
            let shift = 4 * digit;
            *out = ((free >> shift) & 15) as u8;
            // Removes the nibble taken; two shifts so that none reaches 64.
            free = (free & ((1 << shift) - 1)) | ((free >> shift >> 4) << shift);
        }
        cells
    }
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
                    assert_eq!(&ranker.unrank(r as u32)[..k], &cells[..]);
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
