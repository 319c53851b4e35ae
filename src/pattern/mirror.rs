//! A reflection of the board that maps a pattern's search onto itself,
//! so that a table's build need search only half the placements.
//!
//! Reflect the board left to right (or top to bottom) and give each tile
//! the slot of the tile whose goal cell its own reflects onto. Where the
//! pattern's goal cells, and the blank's region around them, are their own
//! reflection (tiles 1–8 in the top half of the 15-puzzle, say), moves
//! reflect to moves and the goal to the goal: a placement and its image
//! are equally far from home. The search then keeps one placement of each
//! pair, the one with the smaller rank (the cells compared in slot order
//! rank in the same order), and the other's entry is copied at the end.

use super::placement::{PlacementRanker, SLOTS};
use super::table::UNREACHED;
use crate::puzzle::shape::Shape;
use rayon::prelude::*;

/// A slot not yet placed.
const EMPTY: u8 = u8::MAX;

/// A reflection of the board and what it does to a placement's slots.
#[derive(Clone, Debug)]
pub(crate) struct Mirror {
    /// The image of each cell.
    cell: [u8; 64],
    /// Slot `j` of an image holds the image of the cell in slot `from[j]`.
    from: [u8; SLOTS],
    /// The inverse: the cell in slot `i` has its image in slot `to[i]`.
    to: [u8; SLOTS],
    /// Tiles in the pattern.
    k: usize,
    /// Per byte of a cell mask (as many as the board needs), the image of
    /// each value the byte takes.
    bytes: Vec<[u64; 256]>,
}

impl Mirror {
    /// A reflection of `shape` that maps the pattern with `goal` cells (in
    /// slot order), and the blank's `goal_region` around it, onto itself:
    /// left to right, else top to bottom, else none.
    pub fn find(shape: Shape, goal: &[u8], goal_region: u64) -> Option<Mirror> {
        let (rows, cols) = (shape.rows(), shape.cols());
        let left_right = |c: usize| shape.row_of(c) * cols + cols - 1 - shape.col_of(c);
        let top_bottom = |c: usize| (rows - 1 - shape.row_of(c)) * cols + shape.col_of(c);
        [
            Self::of(shape, goal, left_right),
            Self::of(shape, goal, top_bottom),
        ]
        .into_iter()
        .flatten()
        .find(|mirror| mirror.mask(goal_region) == goal_region)
    }

    /// The reflection `image` of cells, if it maps the `goal` cells onto
    /// themselves.
    fn of(shape: Shape, goal: &[u8], image: impl Fn(usize) -> usize) -> Option<Mirror> {
        debug_assert!(goal.len() <= SLOTS && shape.cells() <= 64);
        let mut mirror = Mirror {
            cell: [0; 64],
            from: [0; SLOTS],
            to: [0; SLOTS],
            k: goal.len(),
            bytes: vec![[0; 256]; shape.cells().div_ceil(8)],
        };
        for (cell, image_of_cell) in mirror.cell.iter_mut().take(shape.cells()).enumerate() {
            *image_of_cell = image(cell) as u8;
        }
        for (b, images) in mirror.bytes.iter_mut().enumerate() {
            for (value, image) in images.iter_mut().enumerate() {
                for cell in (8 * b..shape.cells()).take(8) {
                    if value >> (cell - 8 * b) & 1 != 0 {
                        *image |= 1 << mirror.cell[cell];
                    }
                }
            }
        }
        for (j, &target) in goal.iter().enumerate() {
            let i = goal
                .iter()
                .position(|&c| mirror.cell[c as usize] == target)?;
            mirror.from[j] = i as u8;
            mirror.to[i] = j as u8;
        }
        Some(mirror)
    }

    /// The image of a set of cells: one table read per byte of the mask.
    #[inline]
    pub fn mask(&self, cells: u64) -> u64 {
        let bytes = self.bytes.len();
        (0..bytes).fold(0, |image, b| {
            image | self.bytes[b][(cells >> (8 * b)) as usize & 255]
        })
    }

    /// The image of one cell.
    #[inline]
    pub fn image_cell(&self, cell: u8) -> u8 {
        self.cell[cell as usize & 63]
    }

    /// The slot of an image that holds the image of slot `slot`'s cell.
    #[inline]
    pub fn slot_of(&self, slot: usize) -> usize {
        self.to[slot & (SLOTS - 1)] as usize
    }

    /// The image of the placement `cells` (slot order, `k` slots used).
    #[inline]
    pub fn image(&self, cells: &[u8; SLOTS]) -> [u8; SLOTS] {
        let mut image = [0u8; SLOTS];
        for (out, &from) in image.iter_mut().zip(&self.from[..self.k]) {
            *out = self.image_cell(cells[from as usize]);
        }
        image
    }

    /// The ranks of the placements that are their own image: each tile's
    /// partner (the tile in the slot its image lands in) on the mirrored
    /// cell, a tile its own partner on the axis. Few: 26,880 of the 15-puzzle's
    /// 518,918,400 placements of tiles 1–8.
    pub fn own_images(&self, ranker: &PlacementRanker) -> Vec<u32> {
        let mut images = Vec::new();
        let mut slots = [EMPTY; SLOTS];
        self.place_own(0, &mut slots, 0, ranker, &mut images);
        images
    }

    /// [`Self::own_images`] with the slots before `slot` placed on the
    /// `taken` cells, and their partners.
    fn place_own(
        &self,
        slot: usize,
        slots: &mut [u8; SLOTS],
        taken: u64,
        ranker: &PlacementRanker,
        images: &mut Vec<u32>,
    ) {
        if slot == self.k {
            images.push(ranker.rank(slots[..self.k].iter().copied()));
            return;
        }
        if slots[slot] != EMPTY {
            return self.place_own(slot + 1, slots, taken, ranker, images);
        }
        let partner = self.to[slot] as usize;
        for cell in 0..ranker.cells() as u8 {
            let image = self.image_cell(cell);
            let cells = 1u64 << cell | 1 << image;
            if taken & cells != 0 || (partner == slot) != (image == cell) {
                continue;
            }
            (slots[slot], slots[partner]) = (cell, image);
            self.place_own(slot + 1, slots, taken | cells, ranker, images);
            (slots[slot], slots[partner]) = (EMPTY, EMPTY);
        }
    }

    /// Whether `image` ranks below `cells`: the first slot where they
    /// differ decides, as in the rank.
    #[inline]
    pub fn ranks_below(&self, image: &[u8; SLOTS], cells: &[u8; SLOTS]) -> bool {
        for (a, b) in image[..self.k].iter().zip(&cells[..self.k]) {
            if a != b {
                return a < b;
            }
        }
        false
    }

    /// The table `entries` of a search that kept one placement of each
    /// pair, completed: each placement the search never reached takes its
    /// image's entry (unreached too if the image is one it kept).
    pub fn complete(&self, ranker: &PlacementRanker, entries: Vec<u8>) -> Vec<u8> {
        const CHUNK: usize = 1 << 14;
        let mut complete = vec![UNREACHED; entries.len()];
        complete
            .par_chunks_mut(CHUNK)
            .zip(entries.par_chunks(CHUNK))
            .enumerate()
            .for_each(|(chunk, (complete, kept))| {
                let mut cells = ranker.unrank((chunk * CHUNK) as u32);
                for (i, (out, &entry)) in complete.iter_mut().zip(kept).enumerate() {
                    if i > 0 {
                        ranker.advance(&mut cells);
                    }
                    *out = match entry {
                        UNREACHED => {
                            let image = self.image(&cells);
                            entries[ranker.rank(image[..self.k].iter().copied()) as usize]
                        }
                        entry => entry,
                    };
                }
            });
        complete
    }
}

/// Whether `masks`' board is reflected onto itself cell for cell and move
/// for move by `mirror`: for the tests.
#[cfg(test)]
fn keeps_neighbours(mirror: &Mirror, masks: &super::region::CellMasks, cells: usize) -> bool {
    (0..cells).all(|c| {
        mirror.mask(masks.neighbours(c)) == masks.neighbours(mirror.image_cell(c as u8) as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::region::CellMasks;
    use crate::pattern::table::goal_cells;

    #[test]
    fn the_top_half_of_the_15_puzzle_mirrors_left_to_right() {
        let shape = Shape::new(4, 4).unwrap();
        let masks = CellMasks::new(shape);
        let goal = goal_cells(shape, 15, &[1, 2, 3, 4, 5, 6, 7, 8]);
        let bottom = 0xFF00;
        let mirror = Mirror::find(shape, &goal, bottom).expect("a mirror");
        assert!(keeps_neighbours(&mirror, &masks, 16));
        // Tile 1 (slot 0) takes tile 4's place, tile 6 tile 7's.
        assert_eq!(mirror.from[..8], [3, 2, 1, 0, 7, 6, 5, 4]);
        assert_eq!(mirror.image(&pad(&goal))[..8], goal[..]);
        let some = pad(&[15, 0, 5, 9, 2, 12, 7, 4]);
        let image = mirror.image(&some);
        assert_eq!(image[..8], [10, 6, 3, 12, 7, 4, 15, 1]);
        assert_eq!(mirror.image(&image), some);
        // The image ranks below: it starts in cell 10, not 15.
        assert!(mirror.ranks_below(&image, &some));
        assert!(!mirror.ranks_below(&some, &image));
        // The bottom half of tiles 9–15 around the blank has no mirror.
        let goal = goal_cells(shape, 15, &[9, 10, 11, 12, 13, 14, 15]);
        assert!(Mirror::find(shape, &goal, 1 << 15).is_none());
    }

    #[test]
    fn a_pattern_mirrors_top_to_bottom_when_left_to_right_fails() {
        // Tiles 1 and 7 on 3×3 (cells 0 and 6): a column, its own image
        // top to bottom only; the free region is every other cell.
        let shape = Shape::new(3, 3).unwrap();
        let masks = CellMasks::new(shape);
        let goal = goal_cells(shape, 8, &[1, 7]);
        let free = masks.all() & !(1 | 1 << 6);
        let mirror = Mirror::find(shape, &goal, free).expect("a mirror");
        assert!(keeps_neighbours(&mirror, &masks, 9));
        assert_eq!(mirror.from[..2], [1, 0]);
        assert_eq!(mirror.image_cell(0), 6);
        // A blank region that is not its own image rules the mirror out.
        assert!(Mirror::find(shape, &goal, 1 << 8).is_none());
    }

    /// The placements that are their own image, enumerated, are those a
    /// scan of every placement finds; with a tile on the axis too.
    #[test]
    fn own_images_are_the_placements_their_image_leaves_alone() {
        let masks = |shape| CellMasks::new(shape);
        for (shape, blank, tiles) in [
            ("4x4", 15, &[1, 2, 3, 4][..]),
            ("3x3", 8, &[1, 7]),
            ("5x5", 24, &[1, 5, 3]),
            ("4x5", 19, &[4, 2, 1, 5]),
        ] {
            let shape: Shape = shape.parse().unwrap();
            let goal = goal_cells(shape, blank, tiles);
            let free = goal.iter().fold(masks(shape).all(), |f, &c| f & !(1 << c));
            let mirror = Mirror::find(shape, &goal, free).expect("a mirror");
            let ranker = PlacementRanker::new(shape.cells(), tiles.len()).unwrap();
            let mut own = mirror.own_images(&ranker);
            own.sort_unstable();
            let scanned: Vec<u32> = (0..ranker.len() as u32)
                .filter(|&p| {
                    let cells = ranker.unrank(p);
                    mirror.image(&cells) == cells
                })
                .collect();
            assert!(!own.is_empty() && own == scanned, "{shape} {tiles:?}");
        }
        // Tiles 1–8 of the 15-puzzle: 4 pairs of partners on 4 of the 8
        // pairs of mirrored cells, each pair either way round.
        let shape = Shape::new(4, 4).unwrap();
        let goal = goal_cells(shape, 15, &[1, 2, 3, 4, 5, 6, 7, 8]);
        let mirror = Mirror::find(shape, &goal, 0xFF00).unwrap();
        let ranker = PlacementRanker::new(16, 8).unwrap();
        assert_eq!(mirror.own_images(&ranker).len(), 8 * 7 * 6 * 5 * 16);
    }

    fn pad(cells: &[u8]) -> [u8; SLOTS] {
        let mut out = [0; SLOTS];
        out[..cells.len()].copy_from_slice(cells);
        out
    }
}
