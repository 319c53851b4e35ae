//! Following a table's stored move one move toward the goal, in either
//! metric.
//!
//! An entry stores the blank's direction, not how far it goes: a
//! single-tile move goes one cell, and a multi-tile slide goes on, cell by
//! cell, until it lands on a position one move closer. Positions one slide
//! apart differ by at most one move, so their distances are `d - 1`, `d`
//! or `d + 1`, distinct modulo 63, and the first landing whose distance
//! field is one less is the slide the build stored (or another as short).

use crate::puzzle::board::Move;
use crate::table::entry;
use crate::table::rank::{Cursor, Ranker};

/// Moves `position`, whose entry is `entry`, one move toward the goal
/// along its stored direction, by at most `longest` cells (1 under the
/// single-tile metric), and returns the direction, the cells moved and the
/// entry it lands on (the next step's, so that a walk reads each entry
/// once). `None` when the slide leaves the board or never lands on the
/// distance field one less than the position's: a damaged table.
#[inline(always)]
pub fn toward_goal(
    ranker: &Ranker,
    entries: &[u8],
    position: &mut Cursor,
    entry: u8,
    longest: usize,
) -> Option<(Move, usize, u8)> {
    let m = entry::next_move(entry);
    let target = entry::distance_field(entry)
        .checked_sub(1)
        .unwrap_or(entry::MODULUS as u8 - 1);
    let mut cells = 0;
    loop {
        if !ranker.advance(position, m) {
            return None;
        }
        cells += 1;
        let landed = entries[position.rank() as usize];
        if entry::distance_field(landed) == target {
            return Some((m, cells, landed));
        }
        if cells >= longest {
            return None;
        }
    }
}
