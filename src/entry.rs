//! One table entry: a byte holding a position's distance and its next move.
//!
//! ```text
//! bit  7 6 | 5 4 3 2 1 0
//!      move | distance, or 63 for "63 or more"
//! ```
//!
//! `move` is the blank's move that leads one step closer to the goal (its
//! code, see [`Move::code`]); it is 0 at the goal. Distances up to 62 are
//! stored exactly. Only the 2×6 and 6×2 boards go further (to 80): their far
//! positions store [`FAR`], and their distance is recovered by following the
//! stored moves until an exact entry (62) is reached, at most 18 steps. That
//! keeps one byte per position, with the next move, on every board.
//!
//! While a table is being built, [`UNSEEN`] marks positions not yet reached:
//! distance 0 with a move code other than 0, which no finished table holds
//! (the goal alone has distance 0, stored as 0).

use crate::board::Move;

/// Bits of the distance.
const DISTANCE_MASK: u8 = 0b0011_1111;

/// The distance field of positions 63 or more moves from the goal.
pub const FAR: u8 = 63;

/// The largest distance stored exactly.
pub const MAX_EXACT: u8 = FAR - 1;

/// Placeholder for positions not yet reached during a build.
pub const UNSEEN: u8 = 0b0100_0000;

/// Packs a distance (any, saturated at [`FAR`]) and, for distances above 0,
/// the move toward the goal.
#[inline]
pub fn encode(distance: u32, toward_goal: Move) -> u8 {
    (toward_goal.code() << 6) | distance.min(FAR as u32) as u8
}

/// The distance field of an entry: the distance, or [`FAR`].
#[inline]
pub fn distance(entry: u8) -> u8 {
    entry & DISTANCE_MASK
}

/// The distance field that a position at `distance` stores.
#[inline]
pub fn stored_distance(distance: u32) -> u8 {
    distance.min(FAR as u32) as u8
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
    fn round_trips() {
        for d in 1..=90 {
            for m in Move::ALL {
                let e = encode(d, m);
                assert_ne!(e, UNSEEN);
                assert_eq!(distance(e), stored_distance(d));
                assert_eq!(distance(e) as u32, d.min(63));
                assert_eq!(next_move(e), m);
            }
        }
        // The goal, as builds store it.
        assert_eq!(encode(0, Move::from_code(0)), 0);
        assert_ne!(encode(0, Move::from_code(0)), UNSEEN);
    }
}
