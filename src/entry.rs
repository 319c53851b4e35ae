//! One table entry: a byte holding a position's distance and its next move.
//!
//! ```text
//! bit  7 6 | 5 4 3 2 1 0
//!      move | distance
//! ```
//!
//! `move` is the blank's move that leads one step closer to the goal (its
//! code, see [`Move::code`]); it is 0 and meaningless at distance 0. The byte
//! 0xFF marks an unreached position while a table is being built; it never
//! appears in a finished table, since distances stay below 63.

use crate::board::Move;

/// Bits of the distance.
const DISTANCE_MASK: u8 = 0b0011_1111;

/// The largest distance an entry can hold (63 would collide with [`UNSEEN`]).
pub const MAX_DISTANCE: u8 = 62;

/// Placeholder for positions not yet reached during a build.
pub const UNSEEN: u8 = 0xFF;

/// Packs a distance and, for distances above 0, the move toward the goal.
pub fn encode(distance: u8, toward_goal: Move) -> u8 {
    debug_assert!(distance <= MAX_DISTANCE);
    (toward_goal.code() << 6) | distance
}

/// The distance stored in an entry.
#[inline]
pub fn distance(entry: u8) -> u8 {
    entry & DISTANCE_MASK
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
        for d in 0..=MAX_DISTANCE {
            for m in Move::ALL {
                let e = encode(d, m);
                assert_ne!(e, UNSEEN);
                assert_eq!((distance(e), next_move(e)), (d, m));
            }
        }
    }
}
