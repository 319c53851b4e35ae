//! Building one pattern's table: for every placement of the pattern's
//! tiles, the fewest moves of those tiles that bring them home.
//!
//! The search runs backwards from the goal over (placement, blank cell).
//! Moving a pattern tile costs 1; moving any other tile costs 0, so within
//! one cost the blank roams its whole region (the cells it reaches without
//! passing a pattern tile). Each placement therefore keeps a mask of
//! the blank cells it has been seen with, always a union of whole regions,
//! and each cost is one sweep: every placement with new regions moves each
//! pattern tile next to them into them, and records the region the blank
//! lands in at the new placement. A placement's entry is the first cost at
//! which it is seen with any blank cell: the minimum over the blank cells.
//!
//! Each placement keeps its blank cells in one atomic word of two halves,
//! two bits a cell: neither for a cell not yet seen, the low half's for a
//! cell found at an even cost and not yet swept, the high half's for an odd
//! cost, both once swept. Every change only sets bits, so threads meet in
//! atomic ORs, and one sweep per cost both gives entries and moves tiles:
//! the cells it writes are of the other parity than the ones it reads.
//! Sweeps skip chunks of placements where nothing was found.
//!
//! The word is as small as the board and pattern allow. Up to 16 cells, a
//! mask of all cells is 16 bits (a 32-bit word); when at most 8 cells stay
//! free around a pattern (8 tiles on 16 cells), the masks number the free
//! cells instead and the word is 16 bits: 3 bytes per placement with the
//! entry, not 5, so the 8-tile table of the 15-puzzle builds in 1.5 GB.
//! Larger boards number the free cells in a 32-bit word when at most 16
//! are free (7 tiles on 20 cells), else keep all cells in a 64-bit word
//! (up to 32 cells: 6 tiles on 25 cells take 9 bytes per placement), else
//! number up to 32 free cells in a 64-bit word (6×6).
//!
//! Where a reflection of the board maps the pattern's goal and the blank's
//! goal region onto themselves (tiles 1–8 of the 15-puzzle, left to right),
//! the search keeps only the placement of each mirrored pair that ranks
//! lower, and each other placement takes its image's entry at the end
//! ([`super::mirror`]): half the moves, and 51 s instead of 84 s for that
//! table on 2 cores.

use super::error::PatternError;
use super::mirror::Mirror;
use super::placement::PlacementRanker;
use super::region::CellMasks;
use crate::puzzle::shape::Shape;
use crate::table::generate::BuildProgress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

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

/// What the search of a pattern's table toward `goal_blank` depends on:
/// its tiles' goal cells in ranking order, and the goal blank's region
/// among the other cells. Tables with the same search are the same byte
/// for byte, so a file stores such a table once.
pub(crate) fn table_search(shape: Shape, goal_blank: usize, tiles: &[u8]) -> (Vec<u8>, u64) {
    let masks = CellMasks::new(shape);
    let goal = goal_cells(shape, goal_blank, tiles);
    let free = goal.iter().fold(masks.all(), |free, &c| free & !(1 << c));
    let region = masks.flood(1 << goal_blank, free);
    (goal, region)
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
    let (cells, free) = (shape.cells(), shape.cells() - tiles.len());
    let ranker = PlacementRanker::new(cells, tiles.len())?;
    let run = |search: Builder| Ok(search(shape, tiles, ranker, goal_blank, on_cost));
    if cells <= 16 && free <= FreeCells::<AtomicU16>::MOST {
        run(Search::<FreeCells<AtomicU16>>::entries)
    } else if cells <= 16 {
        run(Search::<AllCells<AtomicU32>>::entries)
    } else if free <= FreeCells::<AtomicU32>::MOST {
        run(Search::<FreeCells<AtomicU32>>::entries)
    } else if cells <= 32 {
        run(Search::<AllCells<AtomicU64>>::entries)
    } else if free <= FreeCells::<AtomicU64>::MOST {
        run(Search::<FreeCells<AtomicU64>>::entries)
    } else {
        Err(PatternError::TooManyFree {
            tiles: tiles.len(),
            cells,
            most: FreeCells::<AtomicU64>::MOST,
        })
    }
}

/// The table of `tiles` built without a reflection, then with every kind
/// of masks that can hold the pattern's free cells, in the order of
/// [`build_pattern_table_toward`]'s choices: each must give the same
/// entries.
#[cfg(test)]
pub(super) fn build_every_way(shape: Shape, goal_blank: usize, tiles: &[u8]) -> Vec<Vec<u8>> {
    let (cells, free) = (shape.cells(), shape.cells() - tiles.len());
    let ranker = PlacementRanker::new(cells, tiles.len()).expect("a small pattern");
    let mut kinds: Vec<Builder> = Vec::new();
    if cells <= 16 && free <= 8 {
        kinds.push(Search::<FreeCells<AtomicU16>>::entries);
    }
    if cells <= 16 {
        kinds.push(Search::<AllCells<AtomicU32>>::entries);
    }
    if free <= 16 {
        kinds.push(Search::<FreeCells<AtomicU32>>::entries);
    }
    if cells <= 32 {
        kinds.push(Search::<AllCells<AtomicU64>>::entries);
    }
    kinds.push(Search::<FreeCells<AtomicU64>>::entries);
    let quiet = |_| {};
    let unreflected = Search::<AllCells<AtomicU64>>::new(shape, tiles, ranker);
    let mut tables = vec![unreflected.run(goal_blank, false, &quiet)];
    tables.extend(
        kinds
            .iter()
            .map(|build| build(shape, tiles, ranker, goal_blank, &quiet)),
    );
    tables
}

/// Whether a reflection maps the search of `tiles` toward `goal_blank`
/// onto itself, so that the build searches half the placements.
#[cfg(test)]
pub(super) fn reflects(shape: Shape, goal_blank: usize, tiles: &[u8]) -> bool {
    let (goal, region) = table_search(shape, goal_blank, tiles);
    Mirror::find(shape, &goal, region).is_some()
}

/// What hears a build's progress.
type Progress<'a> = dyn Fn(BuildProgress) + Sync + 'a;

/// [`Search::entries`] for one kind of masks.
type Builder = for<'a> fn(Shape, &[u8], PlacementRanker, usize, &'a Progress<'a>) -> Vec<u8>;

/// An atomic word of 16, 32 or 64 bits, seen as a `u64`.
trait Word: Sync + Send + Sized {
    const BITS: u32;
    fn zero() -> Self;
    fn get(&self) -> u64;
    fn set(&self, value: u64);
    fn or(&self, bits: u64);
}

macro_rules! word {
    ($atomic:ty, $int:ty) => {
        impl Word for $atomic {
            const BITS: u32 = <$int>::BITS;
            fn zero() -> Self {
                <$atomic>::new(0)
            }
            #[inline]
            fn get(&self) -> u64 {
                self.load(Relaxed) as u64
            }
            #[inline]
            fn set(&self, value: u64) {
                self.store(value as $int, Relaxed)
            }
            #[inline]
            fn or(&self, bits: u64) {
                self.fetch_or(bits as $int, Relaxed);
            }
        }
    };
}
word!(AtomicU16, u16);
word!(AtomicU32, u32);
word!(AtomicU64, u64);

/// How a placement's blank cells are stored: an atomic word of two masks,
/// each half as wide as the word.
trait Masks: Sync + Send + Sized {
    type W: Word;
    /// Bits in each half.
    const HALF: u32 = Self::W::BITS / 2;
    /// `cells` (a cell mask inside `free`) as this word's bits.
    fn pack(cells: u64, free: u64) -> u64;
    /// [`Masks::pack`] of one cell's bit, `cell`.
    fn pack_cell(cell: u64, free: u64) -> u64;
    /// The inverse of `pack`.
    fn unpack(bits: u64, free: u64) -> u64;
}

/// Masks of all the board's cells, bit `i` for cell `i`: boards of up to
/// 16 cells in 32-bit words, up to 32 cells in 64-bit words.
struct AllCells<W>(std::marker::PhantomData<W>);

impl<W: Word> Masks for AllCells<W> {
    type W = W;
    #[inline]
    fn pack(cells: u64, _free: u64) -> u64 {
        cells
    }
    #[inline]
    fn pack_cell(cell: u64, _free: u64) -> u64 {
        cell
    }
    #[inline]
    fn unpack(bits: u64, _free: u64) -> u64 {
        bits
    }
}

/// Masks of a placement's free cells, numbered in cell order: at most 8
/// free cells in 16-bit words (on boards of up to 16 cells), 16 in 32-bit
/// words, 32 in 64-bit words.
struct FreeCells<W>(std::marker::PhantomData<W>);

impl<W: Word> FreeCells<W> {
    /// The most free cells the halves can number.
    const MOST: usize = W::BITS as usize / 2;
}

impl<W: Word> Masks for FreeCells<W> {
    type W = W;
    #[inline]
    fn pack(mut cells: u64, free: u64) -> u64 {
        let mut bits = 0;
        while cells != 0 {
            let lowest = cells & cells.wrapping_neg();
            bits |= Self::pack_cell(lowest, free);
            cells ^= lowest;
        }
        bits
    }
    #[inline]
    fn pack_cell(cell: u64, free: u64) -> u64 {
        // The free cells below it number it.
        1 << (free & (cell - 1)).count_ones()
    }
    #[inline]
    fn unpack(bits: u64, mut free: u64) -> u64 {
        let (mut cells, mut slot) = (0u64, 0);
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
struct Search<M: Masks> {
    ranker: PlacementRanker,
    masks: CellMasks,
    /// Tiles in the pattern.
    k: usize,
    tiles: Vec<u8>,
    shape: Shape,
    /// Per placement: its blank cells, two bits each (see the module's
    /// documentation).
    blanks: Vec<M::W>,
    /// Per parity of the cost, the chunks where something was found at a
    /// cost of that parity and not yet swept.
    found: [Vec<AtomicBool>; 2],
    /// A reflection that maps the search onto itself, if there is one:
    /// only placements that rank below their image are searched.
    mirror: Option<Mirror>,
}

impl<M: Masks> Search<M> {
    fn new(shape: Shape, tiles: &[u8], ranker: PlacementRanker) -> Self {
        let len = ranker.len();
        Search {
            masks: CellMasks::new(shape),
            k: tiles.len(),
            tiles: tiles.to_vec(),
            shape,
            blanks: (0..len).into_par_iter().map(|_| M::W::zero()).collect(),
            found: [(); 2].map(|_| {
                (0..len.div_ceil(CHUNK))
                    .map(|_| AtomicBool::new(false))
                    .collect()
            }),
            ranker,
            mirror: None,
        }
    }

    /// The low half's bits.
    const LOW: u64 = (1 << M::HALF) - 1;

    /// The cells free around the placement `cells`.
    #[inline]
    fn free(&self, cells: &[u8]) -> u64 {
        self.masks.all() & !cells[..self.k].iter().fold(0u64, |m, &c| m | 1 << c)
    }

    /// The table of `tiles` on `shape`: see [`build_pattern_table_toward`].
    fn entries(
        shape: Shape,
        tiles: &[u8],
        ranker: PlacementRanker,
        goal_blank: usize,
        on_cost: &Progress<'_>,
    ) -> Vec<u8> {
        Search::<M>::new(shape, tiles, ranker).run(goal_blank, true, on_cost)
    }

    /// The table toward `goal_blank`, searching half the placements where
    /// a reflection maps the search onto itself and `reflect` allows.
    fn run(mut self, goal_blank: usize, reflect: bool, on_cost: &Progress<'_>) -> Vec<u8> {
        let len = self.ranker.len();
        let mut entries = vec![UNREACHED; len];
        let goal_cells = goal_cells(self.shape, goal_blank, &self.tiles);
        let goal = self.ranker.rank(goal_cells.iter().copied()) as usize;
        let free = self.free(&goal_cells);
        let goal_region = self.masks.flood(1 << goal_blank, free);
        if reflect {
            self.mirror = Mirror::find(self.shape, &goal_cells, goal_region);
        }
        let own_images = self.mirror.as_ref().map(|m| m.own_images(&self.ranker));
        // Found at cost 0, an even cost: the low half.
        self.blanks[goal].set(M::pack(goal_region, free));
        self.found[0][goal / CHUNK].store(true, Relaxed);

        let mut reached = 0u64;
        for cost in 0u32.. {
            if !self.found[cost as usize & 1]
                .iter()
                .any(|f| f.load(Relaxed))
            {
                break;
            }
            assert!(cost < UNREACHED as u32, "pattern distances fit in a byte");
            let mut found = self.sweep(cost, &mut entries);
            if let Some(own) = &own_images {
                // Each placement found stands for its image too, but once for itself.
                let alone = own
                    .iter()
                    .filter(|&&p| entries[p as usize] == cost as u8)
                    .count();
                found = 2 * found - alone as u64;
            }
            reached += found;
            if found > 0 {
                on_cost(BuildProgress {
                    distance: cost,
                    found,
                    reached,
                    entries: len as u64,
                });
            }
        }
        match &self.mirror {
            Some(mirror) => {
                // The words are done with: free them before the copy.
                drop(self.blanks);
                mirror.complete(&self.ranker, entries)
            }
            None => entries,
        }
    }

    /// Sweeps the cells found at `cost`: gives `cost` to each placement
    /// first reached, marks the cells swept, and moves tiles into them,
    /// marking the regions their moves reach as found at `cost + 1`.
    /// Returns the placements first reached.
    fn sweep(&self, cost: u32, entries: &mut [u8]) -> u64 {
        let parity = cost as usize & 1;
        entries
            .par_chunks_mut(CHUNK)
            .zip(self.blanks.par_chunks(CHUNK))
            .enumerate()
            .map(|(chunk, (entries, blanks))| {
                if !self.found[parity][chunk].swap(false, Relaxed) {
                    return 0;
                }
                let mut found = 0;
                for (offset, (entry, word)) in entries.iter_mut().zip(blanks).enumerate() {
                    let both = word.get();
                    let (low, high) = (both & Self::LOW, both >> M::HALF);
                    // This parity's bit alone: found at this cost. Writers
                    // meanwhile set the other parity's bits only.
                    let frontier = match parity {
                        0 => low & !high,
                        _ => high & !low,
                    };
                    if frontier == 0 {
                        continue;
                    }
                    word.or(match parity {
                        0 => frontier << M::HALF,
                        _ => frontier,
                    });
                    if *entry == UNREACHED {
                        *entry = cost as u8;
                        found += 1;
                    }
                    let placement = (chunk * CHUNK + offset) as u32;
                    match &self.mirror {
                        Some(mirror) => {
                            self.expand_placement(placement, frontier, 1 - parity, Some(mirror))
                        }
                        None => self.expand_placement(placement, frontier, 1 - parity, None),
                    }
                }
                found
            })
            .sum()
    }

    /// Every move of a tile of `placement` into its `frontier` cells, each
    /// child's region marked as found at a cost of parity `next`; with
    /// `mirror`, a child whose image ranks below it is searched as its
    /// image. Inlined twice, so that searches without a mirror pay nothing.
    #[inline(always)]
    fn expand_placement(
        &self,
        placement: u32,
        frontier: u64,
        next: usize,
        mirror: Option<&Mirror>,
    ) {
        let k = self.k;
        let mut cells = self.ranker.unrank(placement);
        let free = self.free(&cells);
        let region = M::unpack(frontier, free);
        let occupied = !free & self.masks.all();
        // The placement's image and its cells, kept as its tiles move.
        let mut image = mirror.map(|m| (m, m.image(&cells), m.mask(occupied)));
        for tile in 0..k {
            let from = cells[tile];
            let mut into = self.masks.neighbours(from as usize) & region;
            while into != 0 {
                let to = into.trailing_zeros() as u8;
                into &= into - 1;
                cells[tile] = to;
                if let Some((mirror, image, occupied)) = &mut image {
                    let (slot, from, to) = (
                        mirror.slot_of(tile),
                        mirror.image_cell(from),
                        mirror.image_cell(to),
                    );
                    image[slot] = to;
                    let below = mirror.ranks_below(image, &cells);
                    if below {
                        let child = self.ranker.rank(image[..k].iter().copied()) as usize;
                        let occupied = *occupied ^ (1 << from) ^ (1 << to);
                        self.reach(child, 1u64 << from, occupied, next);
                    }
                    image[slot] = from;
                    if below {
                        continue;
                    }
                }
                let child = self.ranker.rank(cells[..k].iter().copied()) as usize;
                // The blank lands where the tile was.
                self.reach(
                    child,
                    1u64 << from,
                    occupied ^ (1 << from) ^ (1 << to),
                    next,
                );
            }
            cells[tile] = from;
        }
    }

    /// Marks the region around `landing` (the cells not `occupied`) as
    /// found for placement `child` at a cost of parity `next`, unless it
    /// was found already.
    #[inline]
    fn reach(&self, child: usize, landing: u64, occupied: u64, next: usize) {
        let word = &self.blanks[child];
        let free = self.masks.all() & !occupied;
        let both = word.get();
        if (both | both >> M::HALF) & M::pack_cell(landing, free) == 0 {
            let region = M::pack(self.masks.flood(landing, free), free);
            word.or(region << (next as u32 * M::HALF));
            let flag = &self.found[next][child / CHUNK];
            if !flag.load(Relaxed) {
                flag.store(true, Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Tables whose searches [`table_search`] calls the same are the same
    /// byte for byte, and others differ (which a file's repeated tables
    /// rely on): every goal blank of 3×3 and 2×4, patterns of 2 to 4 tiles,
    /// some mirrored.
    #[test]
    fn the_same_search_makes_the_same_table() {
        let mut repeats = 0;
        for (shape, patterns) in [
            (
                "3x3",
                &[&[1u8, 2, 3, 4][..], &[5, 6, 7, 8], &[1, 7], &[2, 3, 5]][..],
            ),
            ("2x4", &[&[1, 2, 3], &[4, 5, 6, 7], &[1, 5]]),
        ] {
            let shape: Shape = shape.parse().unwrap();
            for tiles in patterns {
                let mut seen = Vec::new();
                for blank in 0..shape.cells() {
                    let search = table_search(shape, blank, tiles);
                    let table = build_pattern_table_toward(shape, blank, tiles, &|_| {}).unwrap();
                    for (other, other_table) in &seen {
                        let same = *other == search;
                        assert_eq!(same, *other_table == table, "{shape} {tiles:?} {blank}");
                        repeats += same as usize;
                    }
                    seen.push((search, table));
                }
            }
        }
        assert!(repeats > 10, "{repeats}");
    }

    /// The progress reports count every entry once, whether the search
    /// kept one placement of each mirrored pair or all of them.
    #[test]
    fn progress_counts_each_entry_once() {
        for (shape, blank, tiles, reflects) in [
            ("3x4", 11, &[1, 2, 3, 4][..], true),
            ("3x3", 8, &[1, 7], true),
            ("3x4", 11, &[1, 2, 5, 6], false),
        ] {
            let shape: Shape = shape.parse().unwrap();
            let reports = Mutex::new(Vec::new());
            let table = build_pattern_table_toward(shape, blank, tiles, &|p| {
                reports.lock().unwrap().push(p)
            })
            .unwrap();
            let ranker = PlacementRanker::new(shape.cells(), tiles.len()).unwrap();
            assert_eq!(super::reflects(shape, blank, tiles), reflects);
            let reports = reports.into_inner().unwrap();
            for report in &reports {
                let at = table
                    .iter()
                    .filter(|&&e| e as u32 == report.distance)
                    .count();
                assert_eq!(report.found, at as u64, "{shape} {tiles:?}");
            }
            let last = reports.last().unwrap();
            assert_eq!(last.reached, ranker.len() as u64, "{shape} {tiles:?}");
        }
    }

    #[test]
    fn free_cells_number_the_free_cells_in_order() {
        // Cells 2, 5, 6 and 11 free: they are bits 0 to 3.
        type Narrow = FreeCells<AtomicU16>;
        let free: u64 = 1 << 2 | 1 << 5 | 1 << 6 | 1 << 11;
        assert_eq!(Narrow::pack_cell(1 << 2, free), 1);
        assert_eq!(Narrow::pack_cell(1 << 11, free), 1 << 3);
        assert_eq!(Narrow::pack(1 << 5 | 1 << 11, free), 0b1010);
        assert_eq!(Narrow::unpack(0b1010, free), 1 << 5 | 1 << 11);
        for cells in 0..=u16::MAX as u64 {
            let packed = Narrow::pack(cells & free, free);
            assert!(packed < 1 << 4);
            assert_eq!(Narrow::unpack(packed, free), cells & free);
        }
        // 64-bit words number free cells anywhere on a 6×6 board.
        type Wide = FreeCells<AtomicU64>;
        let free: u64 = 1 << 2 | 1 << 20 | 1 << 33 | 1 << 35;
        assert_eq!(Wide::pack_cell(1 << 33, free), 1 << 2);
        assert_eq!(Wide::pack(1 << 20 | 1 << 35, free), 0b1010);
        assert_eq!(Wide::unpack(0b1010, free), 1 << 20 | 1 << 35);
    }
}
