//! Cells as bits of a `u16`, and the blank's region: the cells it reaches
//! without moving a pattern tile, which costs nothing in a pattern's search.

use crate::puzzle::shape::Shape;

/// A board's cells as bit masks (cell `i` is bit `i`).
#[derive(Clone, Copy, Debug)]
pub struct CellMasks {
    cols: u32,
    /// Every cell of the board.
    all: u16,
    /// Cells with a neighbour to the right / to the left.
    has_right: u16,
    has_left: u16,
    /// The cells next to each cell.
    neighbours: [u16; 16],
}

impl CellMasks {
    /// The masks of `shape`.
    pub fn new(shape: Shape) -> CellMasks {
        let n = shape.cells();
        let all = ((1u32 << n) - 1) as u16;
        let (mut has_right, mut has_left) = (0u16, 0u16);
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
            neighbours: [0; 16],
        };
        for cell in 0..n {
            masks.neighbours[cell] = masks.grow(1 << cell) & !(1 << cell);
        }
        masks
    }

    /// Every cell of the board.
    #[inline]
    pub fn all(&self) -> u16 {
        self.all
    }

    /// The cells next to `cell`.
    #[inline]
    pub fn neighbours(&self, cell: usize) -> u16 {
        self.neighbours[cell & 15]
    }

    /// `cells` and their neighbours.
    #[inline]
    fn grow(&self, cells: u16) -> u16 {
        let up = cells >> self.cols;
        let down = cells << self.cols;
        let right = (cells & self.has_right) << 1;
        let left = (cells & self.has_left) >> 1;
        (cells | up | down | right | left) & self.all
    }

    /// The cells reachable from `seed` (inside `free`) through `free` cells.
    #[inline]
    pub fn flood(&self, seed: u16, free: u16) -> u16 {
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
}
