//! Reducing any goal to a canonical one.
//!
//! Renaming tiles changes neither distances nor moves. Renaming every tile by
//! its place in the goal (read row by row, blank skipped) turns the goal into
//! the canonical goal with the blank in the same cell, whose table then
//! answers for the goal. One table per blank cell serves every goal with the
//! blank there (and [`crate::puzzle::symmetry`] reduces that to one per class).

use crate::puzzle::board::Board;
use crate::puzzle::shape::{MAX_CELLS, TILE_SLOTS as SLOTS};

/// A renaming of tiles: tile `t` becomes `map[t]`; the blank stays 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relabelling {
    /// Indexed by tile; [`SLOTS`] long so that six bits index it unchecked.
    map: [u8; SLOTS],
}

impl Relabelling {
    /// The renaming that turns `goal` into its canonical goal.
    pub fn to_canonical(goal: &Board) -> Relabelling {
        let mut map = [0u8; SLOTS];
        let mut next = 1;
        for &tile in goal.cells() {
            if tile != 0 {
                map[tile as usize] = next;
                next += 1;
            }
        }
        Relabelling { map }
    }

    /// The renaming that undoes this one.
    pub fn inverse(&self) -> Relabelling {
        let mut map = [0u8; SLOTS];
        // Unused slots (tiles beyond the board) rename to 0; skip them so the
        // blank keeps mapping to itself.
        for (tile, &renamed) in self.map.iter().enumerate().skip(1) {
            if renamed != 0 {
                map[renamed as usize] = tile as u8;
            }
        }
        Relabelling { map }
    }

    /// Whether every tile keeps its name: the goal was already canonical.
    pub fn is_identity(&self) -> bool {
        // Slots beyond the board's tiles hold 0.
        self.map
            .iter()
            .enumerate()
            .all(|(tile, &renamed)| renamed == 0 || renamed as usize == tile)
    }

    /// The renaming that renames by this one, then by `next`.
    pub fn then(&self, next: &Relabelling) -> Relabelling {
        Relabelling {
            map: self.map.map(|renamed| next.map[renamed as usize % SLOTS]),
        }
    }

    /// The new name of `tile` (0, the blank, for tiles beyond the board).
    #[inline]
    pub fn tile(&self, tile: u8) -> u8 {
        self.map[tile as usize % SLOTS]
    }

    /// The board with every tile renamed.
    #[inline]
    pub fn apply(&self, board: &Board) -> Board {
        // All MAX_CELLS cells, the unused ones 0 (and renamed to 0): a fixed
        // count the compiler unrolls.
        let mut cells = [0u8; MAX_CELLS];
        for (out, &tile) in cells.iter_mut().zip(board.padded_cells()) {
            *out = self.map[tile as usize % SLOTS];
        }
        Board::from_parts(board.shape(), board.blank(), cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse::board3;
    use crate::puzzle::shape::Shape;

    #[test]
    fn the_goal_becomes_canonical() {
        let s = Shape::THREE_BY_THREE;
        let goal = board3("123804765");
        let r = Relabelling::to_canonical(&goal);
        assert_eq!(r.apply(&goal), Board::canonical_goal(s, 4));
        let start = board3("283104765");
        assert_eq!(r.apply(&start).to_string(), "243105678");
        assert_eq!(r.inverse().apply(&r.apply(&start)), start);
        assert!(r.then(&r.inverse()).is_identity());
        let twice = r.then(&r);
        assert_eq!(twice.apply(&start), r.apply(&r.apply(&start)));
        assert_eq!(twice.tile(4), r.tile(r.tile(4)));
        assert!(!r.is_identity());
        assert!(Relabelling::to_canonical(&Board::canonical_goal(s, 4)).is_identity());
        assert!(Relabelling::to_canonical(&Board::goal(s)).is_identity());
    }
}
