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
//! Memory is 7 bytes per placement: the seen and next masks in one atomic
//! word (one cache miss per successor), this cost's new masks, and the
//! entry. Sweeps skip chunks of placements where nothing happened.

use super::error::PatternError;
use super::placement::PlacementRanker;
use super::region::CellMasks;
use crate::puzzle::shape::Shape;
use crate::table::generate::BuildProgress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

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
    let len = ranker.len();
    let search = Search {
        masks: CellMasks::new(shape),
        k: tiles.len(),
        blanks: (0..len)
            .into_par_iter()
            .map(|_| AtomicU32::new(0))
            .collect(),
        touched: (0..len.div_ceil(CHUNK))
            .map(|_| AtomicBool::new(false))
            .collect(),
        ranker,
    };
    let mut entries = vec![UNREACHED; len];
    // The blank cells first seen at the current cost.
    let mut new_blanks = vec![0u16; len];

    let goal_cells = goal_cells(shape, goal_blank, tiles);
    let goal = search.ranker.rank(goal_cells.iter().copied()) as usize;
    let goal_occupied = goal_cells.iter().fold(0u16, |m, &c| m | 1 << c);
    let masks = &search.masks;
    let goal_region = masks.flood(1 << goal_blank, masks.all() & !goal_occupied);
    search.blanks[goal].store(goal_region as u32, Relaxed);
    search.touched[goal / CHUNK].store(true, Relaxed);

    let mut reached = 0u64;
    for cost in 0u32.. {
        assert!(cost < UNREACHED as u32, "pattern distances fit in a byte");
        let merged = search.merge(cost, &mut new_blanks, &mut entries);
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
        search.expand(&mut new_blanks, &merged);
    }
    Ok(entries)
}

/// The 0-1 search's state shared by the threads.
struct Search {
    ranker: PlacementRanker,
    masks: CellMasks,
    /// Tiles in the pattern.
    k: usize,
    /// Per placement: blank cells seen (high half) and found for the next
    /// cost (low half).
    blanks: Vec<AtomicU32>,
    /// Chunks whose low halves something wrote into.
    touched: Vec<AtomicBool>,
}

impl Search {
    /// Moves the masks found for this cost into the seen halves, keeping
    /// what is new as the frontier, and gives `cost` to every placement
    /// first reached. Per chunk: placements reached, and whether anything
    /// is new.
    fn merge(&self, cost: u32, new_blanks: &mut [u16], entries: &mut [u8]) -> Vec<(u64, bool)> {
        new_blanks
            .par_chunks_mut(CHUNK)
            .zip(entries.par_chunks_mut(CHUNK))
            .zip(self.blanks.par_chunks(CHUNK))
            .enumerate()
            .map(|(chunk, ((frontier, entries), blanks))| {
                if !self.touched[chunk].swap(false, Relaxed) {
                    return (0, false);
                }
                let (mut found, mut any) = (0u64, false);
                for ((frontier, entry), word) in frontier.iter_mut().zip(entries).zip(blanks) {
                    let both = word.load(Relaxed);
                    let next = both as u16;
                    if next == 0 {
                        continue;
                    }
                    let seen = (both >> 16) as u16;
                    let new = next & !seen;
                    word.store(((seen | new) as u32) << 16, Relaxed);
                    *frontier = new;
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

    /// One more pattern move from every new region: the blank regions each
    /// move reaches, marked for the next cost.
    fn expand(&self, new_blanks: &mut [u16], merged: &[(u64, bool)]) {
        let k = self.k;
        new_blanks
            .par_chunks_mut(CHUNK)
            .enumerate()
            .filter(|(chunk, _)| merged[*chunk].1)
            .for_each(|(chunk, frontier)| {
                for (offset, frontier) in frontier.iter_mut().enumerate() {
                    let region = std::mem::take(frontier);
                    if region == 0 {
                        continue;
                    }
                    let placement = (chunk * CHUNK + offset) as u32;
                    let mut cells = self.ranker.unrank(placement);
                    let occupied = cells[..k].iter().fold(0u16, |m, &c| m | 1 << c);
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
        let both = word.load(Relaxed);
        if (both | both >> 16) as u16 & landing == 0 {
            let free = self.masks.all() & !occupied;
            word.fetch_or(self.masks.flood(landing, free) as u32, Relaxed);
            let flag = &self.touched[next / CHUNK];
            if !flag.load(Relaxed) {
                flag.store(true, Relaxed);
            }
        }
    }
}
