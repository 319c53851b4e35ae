//! Path tables: each position's whole solution in one word, so that solving
//! is one lookup instead of a table read per move.
//!
//! A table's stored moves lead every position to the goal one step at a
//! time; following them costs a dependent read per move. A path table holds,
//! for each rank, a `u64` with the first [`MOVES_PER_WORD`] of those moves,
//! two bits each ([`Move::code`]), the first move in the lowest bits and
//! zeros after the last. That is the whole solution on boards whose
//! distances stay within 32 (3×3 reaches 31); longer solutions continue
//! with the word of the position 32 moves on.
//!
//! The moves are the very ones the table's entries give, so answers do not
//! change, only their cost. The list search fills the words as it goes
//! (see [`crate::table::generate::search_with_lists`]); `verify` checks each word
//! against its entry and the next position's word.

use crate::puzzle::board::{Board, Move};
use crate::puzzle::shape::Shape;
use crate::table::entry;

/// Moves held by one word.
pub const MOVES_PER_WORD: u32 = 32;

/// Bytes per word in the file (little endian).
pub const WORD_BYTES: usize = 8;

/// Path tables are made only for boards whose distances are at most this,
/// where an entry's distance field is the distance itself (see [`entry`]).
pub const MAX_DISTANCE: usize = entry::MODULUS as usize - 1;

/// The word of a position whose stored move is `m`, given the word of the
/// position `m` leads to.
#[inline]
pub fn word(m: Move, next: u64) -> u64 {
    m.code() as u64 | next << 2
}

/// The first `count` moves of a word (at most [`MOVES_PER_WORD`]).
#[inline]
pub fn moves(word: u64, count: u32) -> impl Iterator<Item = Move> {
    (0..count.min(MOVES_PER_WORD)).map(move |i| Move::from_code((word >> (2 * i)) as u8))
}

/// The word of `rank` in a path table's bytes.
#[inline]
pub fn word_at(bytes: &[u8], rank: u32) -> u64 {
    let start = rank as usize * WORD_BYTES;
    let mut word = [0; WORD_BYTES];
    word.copy_from_slice(&bytes[start..start + WORD_BYTES]);
    u64::from_le_bytes(word)
}

/// Stores the word of `rank` in a path table's bytes.
#[inline]
pub fn set_word(bytes: &mut [u8], rank: u32, word: u64) {
    let start = rank as usize * WORD_BYTES;
    bytes[start..start + WORD_BYTES].copy_from_slice(&word.to_le_bytes());
}

/// Replays moves on positions packed one nibble per cell (as
/// [`crate::table::rank::Cursor::cells`] gives them), with no branch on the move:
/// a solution's moves are as good as random, so a branch on each would
/// mispredict about half of the time.
#[derive(Clone, Copy, Debug)]
pub struct Replayer {
    /// What each move, by code, adds to the blank's cell (wrapping).
    steps: [usize; 4],
    /// Bit `4 * cell + code` is set when that move stays on the board from
    /// `cell`.
    legal: u64,
}

impl Replayer {
    /// The replayer for boards of `shape`.
    pub fn new(shape: Shape) -> Replayer {
        let mut legal = 0;
        for cell in 0..shape.cells() {
            let board = Board::canonical_goal(shape, cell);
            for m in Move::ALL.into_iter().filter(|&m| board.target(m).is_some()) {
                legal |= 1 << (4 * cell + m.code() as usize);
            }
        }
        let cols = shape.cols();
        Replayer {
            steps: [cols.wrapping_neg(), cols, usize::MAX, 1],
            legal,
        }
    }

    /// The position after the first `count` moves of `word`, from `cells`
    /// with the blank in `blank`; `None` if a move runs off the board, or,
    /// with `AVOID_GOAL`, if a move starts from `goal` (a shortest solution
    /// reaches the goal only with its last move: passing it earlier means a
    /// damaged table).
    #[inline]
    pub fn replay<const AVOID_GOAL: bool>(
        &self,
        mut cells: u64,
        mut blank: usize,
        word: u64,
        count: u32,
        goal: u64,
    ) -> Option<(u64, usize)> {
        let mut legal = true;
        for m in moves(word, count) {
            let code = m.code() as usize;
            legal &= self.legal >> (4 * blank + code) & 1 == 1;
            if AVOID_GOAL {
                legal &= cells != goal;
            }
            // Off the board only when `legal` is already false; kept to a
            // nibble's place either way.
            let to = blank.wrapping_add(self.steps[code]) & 0xF;
            let tile = cells >> (4 * to) & 0xF;
            cells ^= tile << (4 * to) | tile << (4 * blank);
            blank = to;
        }
        legal.then_some((cells, blank))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::generate::build_table_reporting;
    use crate::table::rank::Ranker;

    /// Every word spells the moves that following the entries gives.
    #[test]
    fn words_hold_the_stored_moves() {
        for (size, blank) in [("2x2", 3), ("2x3", 0), ("3x2", 4), ("2x4", 7), ("3x3", 4)] {
            let shape: Shape = size.parse().unwrap();
            let stm = crate::puzzle::metric::Metric::SingleTile;
            let table = build_table_reporting(shape, blank, stm, true, &|_| {});
            let bytes = table.path_table.as_deref().unwrap();
            let ranker = Ranker::new(shape, blank);
            assert_eq!(bytes.len(), table.entries.len() * WORD_BYTES);
            for rank in (0..table.entries.len() as u32).step_by(7) {
                let d = entry::distance_field(table.entries[rank as usize]) as u32;
                let mut position = ranker.cursor_at(rank);
                let mut expected = Vec::new();
                for _ in 0..d.min(MOVES_PER_WORD) {
                    let m = entry::next_move(table.entries[position.rank() as usize]);
                    expected.push(m);
                    position = ranker.step(&position, m).unwrap();
                }
                let w = word_at(bytes, rank);
                assert_eq!(
                    moves(w, d).collect::<Vec<_>>(),
                    expected,
                    "{size} rank {rank}"
                );
                if d < MOVES_PER_WORD {
                    assert_eq!(
                        w >> (2 * d),
                        0,
                        "{size} rank {rank}: bits after the last move"
                    );
                }
            }
        }
    }
}
