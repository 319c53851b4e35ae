//! One table entry: a byte holding a position's distance and its next move.
//!
//! ```text
//! bit  7 6 | 5 4 3 2 1 0
//!      move | distance modulo 63
//! ```
//!
//! `move` is the blank's move that leads one step closer to the goal (its
//! code, see [`Move::code`]); it is 0 at the goal. Every board but 2×6 and
//! 6×2 stays within 62 moves, where the field is the distance itself. Those
//! two reach 80: a field of `s` then means `s` or `s + 63`, which the
//! position tells apart by following its `s` stored moves (at most 17): it
//! is `s` exactly when they end on the goal. Every step of a solution still
//! checks the next entry's field, so a damaged entry is caught on every
//! board, and each position keeps its one byte with its next move.
//!
//! While a table is being built, [`UNSEEN`] marks positions not yet reached:
//! a field of 63, which no finished table holds.

use crate::puzzle::board::Move;

/// Bits of the distance field.
const DISTANCE_MASK: u8 = 0b0011_1111;

/// Distances are stored modulo this, so that the field's value 63 is free.
pub const MODULUS: u32 = 63;

/// Placeholder for positions not yet reached during a build.
pub const UNSEEN: u8 = 0xFF;

/// Packs a distance and, for distances above 0, the move toward the goal.
#[inline]
pub fn encode(distance: u32, toward_goal: Move) -> u8 {
    (toward_goal.code() << 6) | field_of(distance)
}

/// The distance field of an entry: the distance modulo [`MODULUS`].
#[inline]
pub fn distance_field(entry: u8) -> u8 {
    entry & DISTANCE_MASK
}

/// The distance field that a position at `distance` stores.
#[inline]
pub fn field_of(distance: u32) -> u8 {
    (distance % MODULUS) as u8
}

/// The move stored in an entry (meaningless at distance 0).
#[inline]
pub fn next_move(entry: u8) -> Move {
    Move::from_code(entry >> 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_distance_and_move_encodes_and_decodes() {
        for d in 0..=90 {
            for m in Move::ALL {
                let e = encode(d, m);
                assert_ne!(e, UNSEEN);
                assert_eq!(distance_field(e) as u32, d % 63);
                assert_eq!(next_move(e), m);
            }
        }
        assert_eq!(encode(62, Move::Right), 0b1111_1110);
        assert_eq!(encode(63, Move::Down), 0b0100_0000);
    }
}
