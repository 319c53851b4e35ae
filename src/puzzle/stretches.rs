//! Finding the move sequences a depth-first search may skip, and the
//! automaton that recognises them ([`super::duplicates`] has the why).
//!
//! The build script runs this once (`build.rs` includes this file) and
//! compiles the automaton's table into the crate, so that no process
//! spends the 15 ms finding the stretches again. It stands alone for that:
//! move codes are `Move`'s (0 up, 1 down, 2 left, 3 right), and nothing
//! else of the crate is used.

/// The longest stretch looked for. Longer ones prune more nodes, but the
/// automaton grows: 1,373 states for ten moves, 10,371 for twelve (2,364
/// stretches), 17,670 for thirteen, and for fourteen more than its 16-bit
/// states can number. Twelve take 4.7% off the nodes of Korf's 100 against
/// ten; thirteen another 0.6%, at nearly twice the table.
pub const LONGEST_STRETCH: usize = 12;

/// The automaton's answer for a move that completes a skipped stretch.
pub const SKIP: u16 = u16::MAX;

/// The automaton that skips `stretches` (move codes): for each state and
/// move code, the next state, or [`SKIP`]. State 0 is the start.
pub fn automaton(stretches: &[Vec<u8>]) -> Vec<[u16; 4]> {
    // The trie of the stretches, then its failure links in breadth-first
    // order, which fill in the missing transitions.
    let mut next: Vec<[Option<u16>; 4]> = vec![[None; 4]];
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
                    next[state][code as usize] = Some(new as u16);
                    new
                }
            };
        }
        ends[state] = true;
    }
    assert!(next.len() < SKIP as usize, "too many states");
    let mut fail = vec![0usize; next.len()];
    let mut full = vec![[0u16; 4]; next.len()];
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
                    full[state][code] = child as u16;
                    queue.push_back(child);
                }
                None => full[state][code] = full[fail[state]][code],
            }
        }
    }
    for row in &mut full {
        for to in row.iter_mut() {
            if ends[*to as usize] {
                *to = SKIP;
            }
        }
    }
    full
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

/// The step of the blank for a move code (up, down, left, right, as
/// `Move`'s codes): (row, column).
fn step(code: u8) -> (i32, i32) {
    match code & 3 {
        0 => (-1, 0),
        1 => (1, 0),
        2 => (0, -1),
        _ => (0, 1),
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
