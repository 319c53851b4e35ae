//! Cells as bits of a `u64`, and the blank's region: the cells it reaches
//! without moving a pattern tile, which costs nothing in a pattern's search.

use super::placement::MAX_PATTERN_CELLS;
use crate::puzzle::shape::Shape;

/// A board's cells as bit masks (cell `i` is bit `i`).
#[derive(Clone, Copy, Debug)]
pub struct CellMasks {
    cols: u32,
    /// Every cell of the board.
    all: u64,
    /// Cells with a neighbour to the right / to the left.
    has_right: u64,
    has_left: u64,
    /// The cells next to each cell (64 slots, so that a cell masked to six
    /// bits needs no bounds check).
    neighbours: [u64; 64],
}

impl CellMasks {
    /// The masks of `shape`.
    pub fn new(shape: Shape) -> CellMasks {
        let n = shape.cells();
        debug_assert!(n <= MAX_PATTERN_CELLS);
        let all = (1u64 << n) - 1;
        let (mut has_right, mut has_left) = (0u64, 0u64);
        for cell in 0..n {
            if !shape.on_right_edge(cell) {
                has_right |= 1 << cell;
            }
            if !shape.on_left_edge(cell) {
                has_left |= 1 << cell;
            }
        }
        let mut masks = CellMasks {
            cols: shape.cols() as u32,
            all,
            has_right,
            has_left,
            neighbours: [0; 64],
        };
        for cell in 0..n {
            masks.neighbours[cell] = masks.grow(1 << cell) & !(1 << cell);
        }
        masks
    }

    /// Every cell of the board.
    #[inline]
    pub fn all(&self) -> u64 {
        self.all
    }

    /// The cells next to `cell`.
    #[inline]
    pub fn neighbours(&self, cell: usize) -> u64 {
        self.neighbours[cell & 63]
    }

    /// `cells` and their neighbours.
    #[inline]
    fn grow(&self, cells: u64) -> u64 {
        let up = cells >> self.cols;
        let down = cells << self.cols;
        let right = (cells & self.has_right) << 1;
        let left = (cells & self.has_left) >> 1;
        (cells | up | down | right | left) & self.all
    }

    /// The cells reachable from `seed` (inside `free`) through `free` cells.
    #[inline]
    pub fn flood(&self, seed: u64, free: u64) -> u64 {
        let mut region = seed;
        loop {
            let grown = self.grow(region) & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floods_stop_at_occupied_cells() {
        let shape = Shape::new(4, 4).unwrap();
        let masks = CellMasks::new(shape);
        assert_eq!(masks.neighbours(0), 0b10010);
        assert_eq!(masks.neighbours(5), 0b0000_0010_0101_0010);
        assert_eq!(masks.neighbours(15), (1 << 11) | (1 << 14));
        // A wall down column 1 keeps the blank in column 0.
        let free = masks.all() & !0x2222;
        assert_eq!(masks.flood(1, free), 0x1111);
        assert_eq!(masks.flood(1 << 15, free).count_ones(), 8);
    }

    #[test]
    fn wide_boards_use_the_high_bits() {
        let masks = CellMasks::new(Shape::new(5, 5).unwrap());
        assert_eq!(masks.all(), (1 << 25) - 1);
        assert_eq!(masks.neighbours(24), 1 << 19 | 1 << 23);
        assert_eq!(masks.neighbours(12), 1 << 7 | 1 << 11 | 1 << 13 | 1 << 17);
        // A wall down column 2 splits 10 cells from 10.
        let free = masks.all() & !(0b00100 * 0b00001_00001_00001_00001_00001);
        assert_eq!(masks.flood(1, free).count_ones(), 10);
        assert_eq!(masks.flood(1 << 24, free) & 1, 0);
    }
}
