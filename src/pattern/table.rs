//! Building one pattern's table: for every placement of the pattern's
//! tiles, the fewest moves of those tiles that bring them home.
//!
//! The search runs backwards from the goal over (placement, blank cell).
//! Moving a pattern tile costs 1; moving any other tile costs 0, so within
//! one cost the blank roams its whole region (the cells it reaches without
//! passing a pattern tile). Each placement therefore keeps a 16-bit mask of
//! the blank cells it has been seen with, always a union of whole regions,
//! and each cost is one sweep: every placement with new regions moves each
//! pattern tile next to them into them, and records the region the blank
//! lands in at the new placement. A placement's entry is the first cost at
//! which it is seen with any blank cell: the minimum over the blank cells.
//!
//! Each placement keeps its blank cells in one atomic word: the cells seen
//! (high half) and the cells found for the next cost (low half). While a
//! cost's sweep runs, the low half also holds the cells first seen at this
//! cost, the frontier: they are the low cells also seen, where the cells
//! found for the next cost never are. Sweeps skip chunks of placements
//! where nothing happened.
//!
//! When at most 8 cells stay free around a pattern (8 tiles on 16 cells),
//! the masks number the free cells instead of all cells and the word is 16
//! bits: 3 bytes per placement with the entry, not 5, so the 8-tile table
//! of the 15-puzzle builds in 1.5 GB.

use super::error::PatternError;
use super::placement::PlacementRanker;
use super::region::CellMasks;
use crate::puzzle::shape::Shape;
use crate::table::generate::BuildProgress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering::Relaxed};

/// The entry of a placement the search never reached: with every tile of
/// the board in the pattern, half the placements cannot reach the goal.
pub const UNREACHED: u8 = u8::MAX;

/// Placements per unit of parallel work, and per "anything here?" flag.
const CHUNK: usize = 1 << 14;

/// The cells of `tiles` in the canonical goal with the blank in
/// `goal_blank`: tile t in cell t - 1 before the blank, t after it.
pub(crate) fn goal_cells(shape: Shape, goal_blank: usize, tiles: &[u8]) -> Vec<u8> {
    debug_assert!(goal_blank < shape.cells());
    tiles
        .iter()
        .map(|&t| if (t as usize) <= goal_blank { t - 1 } else { t })
        .collect()
}

/// The table of the pattern `tiles` (tile numbers of the default goal, in
/// the order their cells are ranked) on `shape`: one byte per placement,
/// indexed by [`PlacementRanker::rank`]. Calls `on_cost` after each cost.
pub fn build_pattern_table(
    shape: Shape,
    tiles: &[u8],
    on_cost: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Vec<u8>, PatternError> {
    build_pattern_table_toward(shape, shape.cells() - 1, tiles, on_cost)
}

/// [`build_pattern_table`] toward the canonical goal with the blank in
/// `goal_blank` (tiles 1, 2, … in order around it).
pub fn build_pattern_table_toward(
    shape: Shape,
    goal_blank: usize,
    tiles: &[u8],
    on_cost: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Vec<u8>, PatternError> {
    let ranker = PlacementRanker::new(shape.cells(), tiles.len())?;
    if shape.cells() - tiles.len() <= FreeCells::MOST {
        Ok(Search::<FreeCells>::new(shape, tiles, ranker).run(goal_blank, on_cost))
    } else {
        Ok(Search::<AllCells>::new(shape, tiles, ranker).run(goal_blank, on_cost))
    }
}

/// How a placement's blank cells are stored: an atomic word of two masks.
trait Masks: Sync + Send + Sized {
    /// Bits in each half.
    const HALF: u32;
    fn zero() -> Self;
    fn load(&self) -> u32;
    fn store(&self, both: u32);
    fn or(&self, bits: u32);
    /// `cells` (a cell mask inside `free`) as this word's bits.
    fn pack(cells: u16, free: u16) -> u32;
    /// [`Masks::pack`] of one cell's bit, `cell`.
    fn pack_cell(cell: u16, free: u16) -> u32;
    /// The inverse of `pack`.
    fn unpack(bits: u32, free: u16) -> u16;
}

/// Masks of all the board's cells, 16 bits a half.
struct AllCells(AtomicU32);

impl Masks for AllCells {
    const HALF: u32 = 16;
    fn zero() -> Self {
        AllCells(AtomicU32::new(0))
    }
    #[inline]
    fn load(&self) -> u32 {
        self.0.load(Relaxed)
    }
    #[inline]
    fn store(&self, both: u32) {
        self.0.store(both, Relaxed)
    }
    #[inline]
    fn or(&self, bits: u32) {
        self.0.fetch_or(bits, Relaxed);
    }
    #[inline]
    fn pack(cells: u16, _free: u16) -> u32 {
        cells as u32
    }
    #[inline]
    fn pack_cell(cell: u16, _free: u16) -> u32 {
        cell as u32
    }
    #[inline]
    fn unpack(bits: u32, _free: u16) -> u16 {
        bits as u16
    }
}

/// Masks of a placement's free cells, in cell order, 8 bits a half.
struct FreeCells(AtomicU16);

impl FreeCells {
    /// The most free cells the halves can number.
    const MOST: usize = 8;
}

/// The number of bits set in each byte: a table, as baseline x86-64 has
/// no popcount instruction.
const ONES: [u8; 256] = {
    let mut ones = [0u8; 256];
    let mut byte = 1;
    while byte < 256 {
        ones[byte] = ones[byte / 2] + (byte & 1) as u8;
        byte += 1;
    }
    ones
};

impl Masks for FreeCells {
    const HALF: u32 = 8;
    fn zero() -> Self {
        FreeCells(AtomicU16::new(0))
    }
    #[inline]
    fn load(&self) -> u32 {
        self.0.load(Relaxed) as u32
    }
    #[inline]
    fn store(&self, both: u32) {
        self.0.store(both as u16, Relaxed)
    }
    #[inline]
    fn or(&self, bits: u32) {
        self.0.fetch_or(bits as u16, Relaxed);
    }
    #[inline]
    fn pack(mut cells: u16, free: u16) -> u32 {
        let mut bits = 0;
        while cells != 0 {
            let lowest = cells & cells.wrapping_neg();
            bits |= Self::pack_cell(lowest, free);
            cells ^= lowest;
        }
        bits
    }
    #[inline]
    fn pack_cell(cell: u16, free: u16) -> u32 {
        // The free cells below it number it.
        let below = free & (cell - 1);
        1 << (ONES[below as usize & 255] + ONES[below as usize >> 8])
    }
    #[inline]
    fn unpack(bits: u32, mut free: u16) -> u16 {
        let (mut cells, mut slot) = (0u16, 0);
        while free != 0 {
            let lowest = free & free.wrapping_neg();
            if bits >> slot & 1 != 0 {
                cells |= lowest;
            }
            slot += 1;
            free ^= lowest;
        }
        cells
    }
}

/// The 0-1 search's state shared by the threads.
struct Search<M> {
    ranker: PlacementRanker,
    masks: CellMasks,
    /// Tiles in the pattern.
    k: usize,
    tiles: Vec<u8>,
    shape: Shape,
    /// Per placement: blank cells seen (high half) and found for the next
    /// cost or in this cost's frontier (low half).
    blanks: Vec<M>,
    /// Chunks whose low halves something wrote into.
    touched: Vec<AtomicBool>,
}

impl<M: Masks> Search<M> {
    fn new(shape: Shape, tiles: &[u8], ranker: PlacementRanker) -> Self {
        let len = ranker.len();
        Search {
            masks: CellMasks::new(shape),
            k: tiles.len(),
            tiles: tiles.to_vec(),
            shape,
            blanks: (0..len).into_par_iter().map(|_| M::zero()).collect(),
            touched: (0..len.div_ceil(CHUNK))
                .map(|_| AtomicBool::new(false))
                .collect(),
            ranker,
        }
    }

    /// The low half's bits.
    const LOW: u32 = (1 << M::HALF) - 1;

    /// The cells free around the placement `cells`.
    #[inline]
    fn free(&self, cells: &[u8]) -> u16 {
        self.masks.all() & !cells[..self.k].iter().fold(0u16, |m, &c| m | 1 << c)
    }

    fn run(self, goal_blank: usize, on_cost: &(dyn Fn(BuildProgress) + Sync)) -> Vec<u8> {
        let len = self.ranker.len();
        let mut entries = vec![UNREACHED; len];
        let goal_cells = goal_cells(self.shape, goal_blank, &self.tiles);
        let goal = self.ranker.rank(goal_cells.iter().copied()) as usize;
        let free = self.free(&goal_cells);
        let goal_region = self.masks.flood(1 << goal_blank, free);
        self.blanks[goal].store(M::pack(goal_region, free));
        self.touched[goal / CHUNK].store(true, Relaxed);

        let mut reached = 0u64;
        for cost in 0u32.. {
            assert!(cost < UNREACHED as u32, "pattern distances fit in a byte");
            let merged = self.merge(cost, &mut entries);
            let found: u64 = merged.iter().map(|&(f, _)| f).sum();
            reached += found;
            if found > 0 {
                on_cost(BuildProgress {
                    distance: cost,
                    found,
                    reached,
                    entries: len as u64,
                });
            }
            if !merged.iter().any(|&(_, any)| any) {
                break;
            }
            self.expand(&merged);
        }
        entries
    }

    /// Makes the cells found for this cost the frontier (and seen), and
    /// gives `cost` to every placement first reached. Per chunk:
    /// placements reached, and whether anything is new.
    fn merge(&self, cost: u32, entries: &mut [u8]) -> Vec<(u64, bool)> {
        entries
            .par_chunks_mut(CHUNK)
            .zip(self.blanks.par_chunks(CHUNK))
            .enumerate()
            .map(|(chunk, (entries, blanks))| {
                if !self.touched[chunk].swap(false, Relaxed) {
                    return (0, false);
                }
                let (mut found, mut any) = (0u64, false);
                for (entry, word) in entries.iter_mut().zip(blanks) {
                    let both = word.load();
                    let (seen, low) = (both >> M::HALF, both & Self::LOW);
                    if low == 0 {
                        continue;
                    }
                    // Low cells also seen are the last frontier's.
                    let new = low & !seen;
                    word.store((seen | new) << M::HALF | new);
                    any |= new != 0;
                    if new != 0 && *entry == UNREACHED {
                        *entry = cost as u8;
                        found += 1;
                    }
                }
                (found, any)
            })
            .collect()
    }

    /// One more pattern move from every frontier region: the blank regions
    /// each move reaches, marked for the next cost.
    fn expand(&self, merged: &[(u64, bool)]) {
        let k = self.k;
        self.blanks
            .par_chunks(CHUNK)
            .enumerate()
            .filter(|(chunk, _)| merged[*chunk].1)
            .for_each(|(chunk, blanks)| {
                for (offset, word) in blanks.iter().enumerate() {
                    let both = word.load();
                    // Found-for-next cells are never seen, so this is the
                    // frontier alone.
                    let frontier = both & Self::LOW & (both >> M::HALF);
                    if frontier == 0 {
                        continue;
                    }
                    let placement = (chunk * CHUNK + offset) as u32;
                    let mut cells = self.ranker.unrank(placement);
                    let free = self.free(&cells);
                    let region = M::unpack(frontier, free);
                    let occupied = !free & self.masks.all();
                    for tile in 0..k {
                        let from = cells[tile];
                        let mut into = self.masks.neighbours(from as usize) & region;
                        while into != 0 {
                            let to = into.trailing_zeros() as u8;
                            into &= into - 1;
                            cells[tile] = to;
                            let next = self.ranker.rank(cells[..k].iter().copied()) as usize;
                            // The blank lands where the tile was.
                            self.reach(next, 1u16 << from, occupied ^ (1 << from) ^ (1 << to));
                        }
                        cells[tile] = from;
                    }
                }
            });
    }

    /// Marks the region around `landing` (the cells not `occupied`) as
    /// found for placement `next`, unless it was seen or found already.
    #[inline]
    fn reach(&self, next: usize, landing: u16, occupied: u16) {
        let word = &self.blanks[next];
        let free = self.masks.all() & !occupied;
        let both = word.load();
        if (both | both >> M::HALF) & M::pack_cell(landing, free) == 0 {
            word.or(M::pack(self.masks.flood(landing, free), free));
            let flag = &self.touched[next / CHUNK];
            if !flag.load(Relaxed) {
                flag.store(true, Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_cells_number_the_free_cells_in_order() {
        // Cells 2, 5, 6 and 11 free: they are bits 0 to 3.
        let free: u16 = 1 << 2 | 1 << 5 | 1 << 6 | 1 << 11;
        assert_eq!(FreeCells::pack_cell(1 << 2, free), 1);
        assert_eq!(FreeCells::pack_cell(1 << 11, free), 1 << 3);
        assert_eq!(FreeCells::pack(1 << 5 | 1 << 11, free), 0b1010);
        assert_eq!(FreeCells::unpack(0b1010, free), 1 << 5 | 1 << 11);
        for cells in 0..=u16::MAX {
            let packed = FreeCells::pack(cells & free, free);
            assert!(packed < 1 << 4);
            assert_eq!(FreeCells::unpack(packed, free), cells & free);
        }
        assert!(ONES
            .iter()
            .enumerate()
            .all(|(b, &n)| b.count_ones() == n as u32));
    }
}
