//! Weighted A*: best-first on f = g + W·h, every position stored once
//! under a packed key, reopened when reached by a shorter path.
//!
//! # Why the answer is within W, and the lower bound it proves
//! Counted in thousandths, f = 1000·g + w·h with w = 1000·W. Because a
//! position reached by a shorter path is reopened, until the goal is
//! chosen some position of an optimal path is open with its optimal g (the
//! first one on the path not yet expanded with it). Its f ≤ w·(g + h) ≤
//! w·C*, so the goal, chosen first, has 1000·C ≤ w·C*: C ≤ W·C*. And its
//! g + h ≤ C*: so the least g + h among the open positions (the goal's C
//! included, for when the goal itself is that position) is a lower bound
//! on C*, read once when the search ends.
//!
//! Nodes are counted as the other searches count them: generated, the
//! move back to the parent excluded.

use super::beam::check;
use super::guide::Guide;
use super::ida::{parity_of, to_parity, Bounded};
use super::weight::{Weight, SCALE};
use crate::pattern::{Solution, SolveOptions, Stopped, Work};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::shape::MAX_CELLS;
use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Expansions between checks of the deadline and the cancel flag.
const CHECK_EVERY: u64 = 1024;

/// Positions stored at most, with the open list about 180 bytes each
/// (1.46 GB measured on 6×6 at W = 1): past them the search gives way to
/// weighted IDA*, which needs no memory.
pub(crate) const MAX_STORED: usize = 8_000_000;

/// Positions stored by the first, short try (a few megabytes): enough for
/// the problems weighted A* solves at once (4×4 at W = 1.2 over pattern
/// databases: 13,105 nodes at most on the benchmark's hundred), little
/// lost time where it fails (about 0.05 s on 6×6).
pub(crate) const QUICK_STORED: usize = 20_000;

/// Cells per word of a packed key: six bits each.
const CELLS_PER_WORD: usize = 10;

/// A position in 32 bytes: its cells, six bits each.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key([u64; MAX_CELLS.div_ceil(CELLS_PER_WORD)]);

impl Key {
    fn of(board: &Board) -> Key {
        let mut words = [0u64; MAX_CELLS.div_ceil(CELLS_PER_WORD)];
        for (cell, &tile) in board.cells().iter().enumerate() {
            words[cell / CELLS_PER_WORD] |= (tile as u64) << (6 * (cell % CELLS_PER_WORD));
        }
        Key(words)
    }

    fn board(&self, template: &Board) -> Board {
        let mut cells = [0u8; MAX_CELLS];
        let mut blank = 0;
        for (cell, tile) in cells.iter_mut().enumerate().take(template.cells().len()) {
            *tile = (self.0[cell / CELLS_PER_WORD] >> (6 * (cell % CELLS_PER_WORD)) & 63) as u8;
            if *tile == 0 {
                blank = cell;
            }
        }
        Board::from_parts(template.shape(), blank, cells)
    }
}

impl Hash for Key {
    /// One multiply-rotate pass over the words: the keys are not chosen by
    /// an adversary, and the default hasher would cost more than a lookup.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mixed = self.0.iter().fold(0u64, |h, &w| {
            (h.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
        state.write_u64(mixed ^ (mixed >> 29));
    }
}

/// Passes [`Key`]'s mixed word through.
#[derive(Default)]
struct Mixed(u64);

impl Hasher for Mixed {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A stored position: the best g known, and how it was reached.
struct Node {
    key: Key,
    g: u32,
    /// The node it was reached from, and the blank's move from there.
    parent: u32,
    last: Option<Move>,
    closed: bool,
}

/// An open-list entry; stale once its node has a smaller g or is closed.
/// Ordered by f, then by h (deeper first among equals).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Open {
    f: u64,
    h: u32,
    g: u32,
    node: u32,
}

/// The search's store: every node, its index by key, and the open list.
struct Store {
    nodes: Vec<Node>,
    index: HashMap<Key, u32, BuildHasherDefault<Mixed>>,
    open: BinaryHeap<Reverse<Open>>,
}

impl Store {
    /// Offers `board` at `g`, reached from `parent` by `last`: stored (or
    /// reopened) and queued when it is new or shorter than before.
    fn offer(&mut self, board: &Board, g: u32, h: u32, weight: u64, from: (u32, Option<Move>)) {
        let key = Key::of(board);
        let node = match self.index.entry(key) {
            Entry::Occupied(seen) => {
                let node = &mut self.nodes[*seen.get() as usize];
                if node.g <= g {
                    return;
                }
                (node.g, node.closed) = (g, false);
                (node.parent, node.last) = from;
                *seen.get()
            }
            Entry::Vacant(slot) => {
                let index = self.nodes.len() as u32;
                slot.insert(index);
                self.nodes.push(Node {
                    key,
                    g,
                    parent: from.0,
                    last: from.1,
                    closed: false,
                });
                index
            }
        };
        let f = SCALE as u64 * g as u64 + weight * h as u64;
        self.open.push(Reverse(Open { f, h, g, node }));
    }

    /// The moves from the start to `node`, read back along the parents.
    fn path_to(&self, mut node: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        while let Some(m) = self.nodes[node as usize].last {
            moves.push(m);
            node = self.nodes[node as usize].parent;
        }
        moves.reverse();
        moves
    }

    /// The least g + h among the live open entries, at most `ceiling`.
    fn least_open(&self, ceiling: u32) -> u32 {
        self.open
            .iter()
            .filter(|Reverse(e)| {
                let node = &self.nodes[e.node as usize];
                !node.closed && node.g == e.g
            })
            .map(|Reverse(e)| e.g + e.h)
            .fold(ceiling, u32::min)
    }
}

/// Weighted A* from `start` to `goal` (a solvable pair of one shape) with
/// `guide`, which must estimate toward `goal`; `Ok(Err(work))` once it
/// has stored `max_stored` positions (at most [`MAX_STORED`] is sensible)
/// without reaching the goal, with the nodes it generated and expanded.
pub(crate) fn weighted_a_star<G: Guide>(
    guide: &G,
    start: &Board,
    goal: &Board,
    weight: Weight,
    max_stored: usize,
    options: &SolveOptions,
) -> Result<Result<Bounded, Work>, Stopped> {
    let w = weight.thousandths() as u64;
    let h0 = G::value(&guide.start(start));
    let mut store = Store {
        nodes: Vec::new(),
        index: HashMap::default(),
        open: BinaryHeap::new(),
    };
    store.offer(start, 0, h0, w, (0, None));
    let (mut generated, mut expanded) = (0u64, 0u64);
    while let Some(Reverse(entry)) = store.open.pop() {
        let node = &mut store.nodes[entry.node as usize];
        if node.closed || node.g != entry.g {
            continue;
        }
        node.closed = true;
        let (key, g, last) = (node.key, node.g, node.last);
        let board = key.board(start);
        if entry.h == 0 && board == *goal {
            let parity = parity_of(start, goal);
            let bound = store.least_open(g).max(h0);
            return Ok(Ok(Bounded {
                solution: Solution {
                    moves: store.path_to(entry.node),
                    nodes: generated,
                    expanded,
                },
                lower_bound: to_parity(bound, parity),
            }));
        }
        expanded += 1;
        if expanded % CHECK_EVERY == 0 {
            check(
                options,
                h0,
                Work {
                    generated,
                    expanded,
                },
            )?;
            if store.nodes.len() >= max_stored {
                let work = Work {
                    generated,
                    expanded,
                };
                return Ok(Err(work));
            }
        }
        let memo = guide.start(&board);
        let from = board.blank();
        for m in Move::ALL {
            if last == Some(m.opposite()) {
                continue;
            }
            let Some(to) = board.target(m) else { continue };
            generated += 1;
            let tile = board.cells()[to];
            let child = board.apply(m).expect("the target is on the board");
            let h = G::value(&guide.slid(&memo, &child, tile, to, from));
            store.offer(&child, g + 1, h, w, (entry.node, Some(m)));
        }
    }
    unreachable!("a solvable start reaches its goal, which every guide estimates at 0")
}
