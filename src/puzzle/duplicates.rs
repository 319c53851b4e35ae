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
//! The stretches are found once, by trying every sequence of up to
//! [`LONGEST_STRETCH`] moves from a blank on an unbounded board and
//! grouping them by the board they leave. A sequence is skipped only where one that replaces
//! it moves the blank through no cell the skipped one does not, so that the
//! replacement fits on any board where the skipped one does. The skipped
//! stretches become an automaton (Aho & Corasick 1975) that reads the moves
//! one by one and says when the last ones complete a skipped stretch.

use super::board::Move;
use std::sync::OnceLock;

/// The longest stretch looked for. Longer ones prune more nodes but take
/// longer to find (about 80,000 sequences of ten moves).
pub const LONGEST_STRETCH: usize = 10;

/// A state of [`Duplicates`]: which moves of a skipped stretch were the
/// last ones made.
pub type DuplicateState = u16;

/// The automaton of skipped stretches.
pub struct Duplicates {
    /// For each state and move code, the next state, or [`Duplicates::SKIP`].
    next: Vec<[DuplicateState; 4]>,
}

impl Duplicates {
    /// The state before any move.
    pub const START: DuplicateState = 0;

    /// What [`Duplicates::next`] says of a move that completes a skipped
    /// stretch.
    pub const SKIP: DuplicateState = DuplicateState::MAX;

    /// The automaton for stretches of up to ten moves ([`LONGEST_STRETCH`]),
    /// built on first use.
    pub fn get() -> &'static Duplicates {
        static AUTOMATON: OnceLock<Duplicates> = OnceLock::new();
        AUTOMATON.get_or_init(|| Duplicates::new(&skipped_stretches(LONGEST_STRETCH)))
    }

    /// The state after the move with code `code` from `state`, or
    /// [`Duplicates::SKIP`] if the moves so far end in a skipped stretch.
    #[inline]
    pub fn next(&self, state: DuplicateState, code: u8) -> DuplicateState {
        self.next[state as usize][code as usize & 3]
    }

    /// The automaton that skips `stretches` (move codes).
    fn new(stretches: &[Vec<u8>]) -> Duplicates {
        // The trie of the stretches, then its failure links in breadth-first
        // order, which fill in the missing transitions.
        let mut next: Vec<[Option<DuplicateState>; 4]> = vec![[None; 4]];
        let mut ends = vec![false];
        for stretch in stretches {
            let mut state = 0usize;
            for &code in stretch {
                state = match next[state][code as usize] {
                    Some(s) => s as usize,
                    None => {
                        next.push([None; 4]);
                        ends.push(false);
                        let new = next.len() - 1;
                        next[state][code as usize] = Some(new as DuplicateState);
                        new
                    }
                };
            }
            ends[state] = true;
        }
        assert!(next.len() < Self::SKIP as usize, "too many states");
        let mut fail = vec![0usize; next.len()];
        let mut full = vec![[0 as DuplicateState; 4]; next.len()];
        let mut queue = std::collections::VecDeque::from([0usize]);
        while let Some(state) = queue.pop_front() {
            for code in 0..4 {
                match next[state][code] {
                    Some(child) => {
                        let child = child as usize;
                        // The longest proper suffix that is also a prefix.
                        fail[child] = if state == 0 {
                            0
                        } else {
                            full[fail[state]][code] as usize
                        };
                        ends[child] |= ends[fail[child]];
                        full[state][code] = child as DuplicateState;
                        queue.push_back(child);
                    }
                    None => full[state][code] = full[fail[state]][code],
                }
            }
        }
        for row in &mut full {
            for to in row.iter_mut() {
                if ends[*to as usize] {
                    *to = Self::SKIP;
                }
            }
        }
        Duplicates { next: full }
    }
}

/// The stretches of up to `longest` moves to skip, as move codes: each
/// leaves the board as a sequence does that is shorter, or as long and
/// first in the order of move codes, and moves the blank only through
/// cells the stretch does. Only the shortest are kept: a stretch that
/// holds a shorter one is skipped anyway.
pub fn skipped_stretches(longest: usize) -> Vec<Vec<u8>> {
    assert!(
        longest <= 15,
        "sequences are packed two bits a move in a u32"
    );
    // Every sequence with the key of the board it leaves, then sorted so
    // that sequences with one board meet, shortest and first in code order
    // first. Most boards have one sequence; the few with more are replayed
    // for the cells their blanks pass through.
    let mut sequences: Vec<(u128, Packed)> = Vec::new();
    Walk::new(longest).extend(0, &mut sequences);
    sequences.sort_unstable();
    let mut skipped: Vec<Vec<u8>> = Vec::new();
    for group in sequences
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|g| g.len() > 1)
    {
        let cells: Vec<Vec<(i32, i32)>> = group.iter().map(|(_, p)| cells_of(&p.codes())).collect();
        for (i, (_, sequence)) in group.iter().enumerate() {
            if cells[..i]
                .iter()
                .any(|earlier| earlier.iter().all(|c| cells[i].contains(c)))
            {
                skipped.push(sequence.codes());
            }
        }
    }
    // Undoing a move is the shortest stretch of all.
    skipped.extend((0..4u8).map(|code| vec![code, code ^ 1]));
    skipped.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    let mut shortest: Vec<Vec<u8>> = Vec::new();
    for stretch in skipped {
        let holds_shorter = shortest
            .iter()
            .any(|s| stretch.windows(s.len()).any(|w| w == s.as_slice()));
        if !holds_shorter {
            shortest.push(stretch);
        }
    }
    shortest
}

/// A sequence of moves, two bits each, ordered by length and then by codes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Packed {
    len: u8,
    /// The first move in the highest bits used.
    bits: u32,
}

impl Packed {
    fn codes(&self) -> Vec<u8> {
        (0..self.len)
            .rev()
            .map(|i| (self.bits >> (2 * i)) as u8 & 3)
            .collect()
    }
}

/// The step of the blank for a move: (row, column).
fn step(code: u8) -> (i32, i32) {
    match Move::from_code(code) {
        Move::Up => (-1, 0),
        Move::Down => (1, 0),
        Move::Left => (0, -1),
        Move::Right => (0, 1),
    }
}

/// The cells a blank starting at (0, 0) passes through.
fn cells_of(codes: &[u8]) -> Vec<(i32, i32)> {
    let mut cell = (0, 0);
    let mut cells = vec![cell];
    for &code in codes {
        let (dr, dc) = step(code);
        cell = (cell.0 + dr, cell.1 + dc);
        if !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    cells
}

/// A depth-first walk of the blank over a board wide enough that it never
/// meets an edge, keeping a hash of the board (Zobrist's: a random-looking
/// key per tile and cell, XORed over the board), so that sequences that
/// leave the board the same meet under one key. With 128-bit keys and
/// about 10^5 sequences, two different boards share a key with odds below
/// 10^-27.
struct Walk {
    longest: usize,
    side: usize,
    tiles: Vec<u16>,
    blank: usize,
    moves: Packed,
    last: Option<u8>,
}

impl Walk {
    fn new(longest: usize) -> Walk {
        let side = 2 * longest + 1;
        Walk {
            longest,
            side,
            tiles: (0..(side * side) as u16).collect(),
            blank: longest * side + longest,
            moves: Packed { len: 0, bits: 0 },
            last: None,
        }
    }

    /// The key of `tile` in `cell`.
    fn key(&self, cell: usize, tile: u16) -> u128 {
        let n = (cell * self.side * self.side + tile as usize) as u64;
        (splitmix(n) as u128) << 64 | splitmix(!n) as u128
    }

    /// Adds to `found` every sequence of up to `longest` moves after the
    /// current ones that undoes no move it has just made, with the key of
    /// the board it leaves (the start's key taken as 0), given the current
    /// board's key.
    fn extend(&mut self, board: u128, found: &mut Vec<(u128, Packed)>) {
        if self.moves.len as usize == self.longest {
            return;
        }
        for code in 0..4u8 {
            if self.last == Some(code ^ 1) {
                continue;
            }
            let (from, (dr, dc)) = (self.blank, step(code));
            let to = (from as isize + dr as isize * self.side as isize + dc as isize) as usize;
            let (hole, tile) = (self.tiles[from], self.tiles[to]);
            let moved = board
                ^ self.key(from, hole)
                ^ self.key(to, tile)
                ^ self.key(from, tile)
                ^ self.key(to, hole);
            let (moves, last) = (self.moves, self.last);
            self.tiles.swap(from, to);
            self.blank = to;
            self.moves = Packed {
                len: moves.len + 1,
                bits: moves.bits << 2 | code as u32,
            };
            self.last = Some(code);
            found.push((moved, self.moves));
            self.extend(moved, found);
            (self.moves, self.last, self.blank) = (moves, last, from);
            self.tiles.swap(from, to);
        }
    }
}

/// A 64-bit mix of `n` (Steele, Lea & Flood's SplitMix64 finaliser).
fn splitmix(n: u64) -> u64 {
    let mut z = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Board;
    use crate::puzzle::shape::Shape;
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
        // tiles, no hashing) found for ten moves.
        let stretches = skipped_stretches(LONGEST_STRETCH);
        let counts: Vec<usize> = (0..=LONGEST_STRETCH)
            .map(|n| stretches.iter().filter(|s| s.len() == n).count())
            .collect();
        assert_eq!(counts, [0, 0, 4, 0, 0, 0, 4, 0, 24, 20, 248]);
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
        // The blank in the middle of a 6×6 board, in a corner and on an
        // edge of 4×4, 2×4 whole (its farthest positions are 36 moves out),
        // and 3×3 to 16 moves.
        reaches_all(Shape::new(6, 6).unwrap(), 14, 10);
        reaches_all(Shape::new(4, 4).unwrap(), 0, 12);
        reaches_all(Shape::new(4, 4).unwrap(), 1, 12);
        reaches_all(Shape::new(2, 4).unwrap(), 7, 36);
        reaches_all(Shape::THREE_BY_THREE, 4, 16);
    }
}
