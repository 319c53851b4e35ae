//! Move sequences a depth-first search need not follow, because another
//! sequence no longer and first in a fixed order leaves the board the same
//! (Taylor & Korf 1993, "Pruning duplicate nodes in depth-first search").
//!
//! Undoing the last move is the shortest such sequence, but there are
//! longer ones: the blank circling a 2×2 block one and a half times
//! (`RDLURD`) leaves the board as circling it the other way (`DRULDR`)
//! does. A search that skips every sequence with such a stretch in it
//! still finds a shortest solution (the first, in that order, among the
//! shortest), and visits fewer duplicate positions.
//!
//! The stretches are found when the crate is built (`build.rs`, with the
//! `stretches` module), by trying every sequence of up to
//! [`LONGEST_STRETCH`] moves from a blank on an unbounded board and
//! grouping them by the board they leave. A sequence is skipped only where one that replaces
//! it moves the blank through no cell the skipped one does not, so that the
//! replacement fits on any board where the skipped one does. The skipped
//! stretches become an automaton (Aho & Corasick 1975) that reads the moves
//! one by one and says when the last ones complete a skipped stretch.

pub use super::stretches::LONGEST_STRETCH;

// `NEXT`, the automaton for stretches of up to `LONGEST_STRETCH` moves,
// worked out by the build script with `super::stretches`.
include!(concat!(env!("OUT_DIR"), "/duplicates.rs"));

/// A state of [`Duplicates`]: which moves of a skipped stretch were the
/// last ones made.
pub type DuplicateState = u16;

/// The automaton of skipped stretches.
pub struct Duplicates {
    /// For each state and move code, the next state, or [`Duplicates::SKIP`].
    next: &'static [[DuplicateState; 4]],
}

impl Duplicates {
    /// The state before any move.
    pub const START: DuplicateState = 0;

    /// What [`Duplicates::next`] says of a move that completes a skipped
    /// stretch.
    pub const SKIP: DuplicateState = super::stretches::SKIP;

    /// The automaton for stretches of up to twelve moves ([`LONGEST_STRETCH`]),
    /// compiled in.
    pub fn get() -> &'static Duplicates {
        static AUTOMATON: Duplicates = Duplicates { next: &NEXT };
        &AUTOMATON
    }

    /// The state after the move with code `code` from `state`, or
    /// [`Duplicates::SKIP`] if the moves so far end in a skipped stretch.
    #[inline]
    pub fn next(&self, state: DuplicateState, code: u8) -> DuplicateState {
        self.next[state as usize][code as usize & 3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::{Board, Move};
    use crate::puzzle::shape::Shape;
    use crate::puzzle::stretches::{automaton, skipped_stretches};
    use std::collections::HashMap;

    fn codes(letters: &str) -> Vec<u8> {
        letters
            .chars()
            .map(|c| match c {
                'U' => 0,
                'D' => 1,
                'L' => 2,
                _ => 3,
            })
            .collect()
    }

    #[test]
    fn the_shortest_stretches_are_undoing_and_circling() {
        let stretches = skipped_stretches(6);
        let of_length = |n| stretches.iter().filter(|s| s.len() == n).count();
        assert_eq!(of_length(2), 4);
        // One way round each of the four 2×2 blocks beside the blank.
        assert_eq!(of_length(6), 4);
        assert!(stretches.contains(&codes("RDLURD")));
        assert!(!stretches.contains(&codes("DRULDR")));
        // The counts a separate program (a board as a map from cells to
        // tiles, no hashing) found for twelve moves.
        let stretches = skipped_stretches(LONGEST_STRETCH);
        let counts: Vec<usize> = (0..=LONGEST_STRETCH)
            .map(|n| stretches.iter().filter(|s| s.len() == n).count())
            .collect();
        assert_eq!(counts, [0, 0, 4, 0, 0, 0, 4, 0, 24, 20, 248, 180, 1884]);
    }

    #[test]
    fn the_compiled_automaton_is_the_one_the_stretches_give() {
        let fresh = automaton(&skipped_stretches(LONGEST_STRETCH));
        assert_eq!(Duplicates::get().next, fresh.as_slice());
    }

    /// Every position within `depth` moves of `start` is reached, at its
    /// distance, by a breadth-first search that skips what the automaton
    /// skips, as by a plain one.
    fn reaches_all(shape: Shape, blank: usize, depth: usize) {
        let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
        cells.swap(0, blank);
        let start = Board::new(shape, &cells).unwrap();
        let automaton = Duplicates::get();
        let (mut pruned, mut plain) = (HashMap::new(), HashMap::new());
        pruned.insert(start, 0);
        plain.insert(start, 0);
        let mut layer = vec![(start, Duplicates::START)];
        let mut plain_layer = vec![start];
        let mut skipped = 0;
        for d in 1..=depth {
            let mut seen = std::collections::HashSet::new();
            let mut next = Vec::new();
            for (board, state) in &layer {
                for m in Move::ALL {
                    let Some(child) = board.apply(m) else {
                        continue;
                    };
                    let to = automaton.next(*state, m.code());
                    if to == Duplicates::SKIP {
                        skipped += 1;
                    } else if seen.insert((child, to)) {
                        pruned.entry(child).or_insert(d);
                        next.push((child, to));
                    }
                }
            }
            layer = next;
            let mut next = Vec::new();
            for board in &plain_layer {
                for child in Move::ALL.into_iter().filter_map(|m| board.apply(m)) {
                    if let std::collections::hash_map::Entry::Vacant(e) = plain.entry(child) {
                        e.insert(d);
                        next.push(child);
                    }
                }
            }
            plain_layer = next;
        }
        assert!(skipped > 0);
        assert_eq!(pruned, plain);
    }

    #[test]
    fn skipping_loses_no_position_at_its_distance() {
        // The blank near the middle of a 6×6 board (cell 14: row 3,
        // column 3) to the longest stretch's length, in a corner and on an
        // edge of 4×4, 2×4 whole (its farthest positions are 36 moves
        // out), and 3×3 to 16 moves.
        reaches_all(Shape::new(6, 6).unwrap(), 14, LONGEST_STRETCH);
        reaches_all(Shape::new(4, 4).unwrap(), 0, 12);
        reaches_all(Shape::new(4, 4).unwrap(), 1, 12);
        reaches_all(Shape::new(2, 4).unwrap(), 7, 36);
        reaches_all(Shape::THREE_BY_THREE, 4, 16);
    }
}
