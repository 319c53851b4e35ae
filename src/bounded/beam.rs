//! Beam search: a fast, memory-bounded way to a short solution, with no
//! bound of its own.
//!
//! Layer by layer from the start, every child of the kept positions is
//! estimated, and only the `width` with the smallest estimate are kept
//! (all share g, so this is best-first on f = g + W·h within the layer);
//! positions kept in an earlier layer are not kept again. The first layer
//! that holds the goal gives the solution. Its length has no guarantee:
//! [`super::solve_within`] accepts it only when a lower bound proves it
//! within the weight, and searches on otherwise.
//!
//! Positions are told apart by a 64-bit Zobrist fingerprint. Two positions
//! sharing one (about one chance in 10^10 at these sizes) would only drop
//! one of them from the beam: every solution is a real path of moves.

use super::guide::Guide;
use crate::pattern::{Solution, SolveOptions, Stopped, Work};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::shape::MAX_CELLS;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// A fingerprint's random words, one per cell and tile.
struct Zobrist(Vec<[u64; MAX_CELLS]>);

impl Zobrist {
    fn new() -> Zobrist {
        // splitmix64 from a fixed seed: the same fingerprints every run.
        let mut state = 0x243F_6A88_85A3_08D3u64;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Zobrist(
            (0..MAX_CELLS)
                .map(|_| std::array::from_fn(|_| next()))
                .collect(),
        )
    }

    fn of(&self, board: &Board) -> u64 {
        board
            .cells()
            .iter()
            .enumerate()
            .fold(0, |h, (cell, &tile)| h ^ self.0[cell][tile as usize])
    }

    /// The fingerprint after `tile` slides from `from` into the blank at
    /// `to`, which moves to `from`.
    #[inline]
    fn slid(&self, print: u64, tile: u8, from: usize, to: usize) -> u64 {
        let t = tile as usize;
        print ^ self.0[from][t] ^ self.0[to][t] ^ self.0[from][0] ^ self.0[to][0]
    }
}

/// Passes a fingerprint through as its own hash.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A kept position: where it came from in the layer before.
struct Kept<M> {
    board: Board,
    memo: M,
    print: u64,
    last: Option<Move>,
}

/// A child on offer for the next layer: how it is reached, and what the
/// move changes in its parent's estimate. Only the children kept get a
/// board and a memo of their own, so an offer is small to write and sort.
struct Offer<S> {
    h: u32,
    print: u64,
    parent: u32,
    m: Move,
    step: S,
}

/// The search's layers so far: for each kept position, its parent in the
/// layer before and the move from there.
struct Trail(Vec<Vec<(u32, Move)>>);

impl Trail {
    fn path_to(&self, mut index: u32) -> Vec<Move> {
        let mut moves: Vec<Move> = Vec::with_capacity(self.0.len());
        for layer in self.0.iter().rev() {
            let (parent, m) = layer[index as usize];
            moves.push(m);
            index = parent;
        }
        moves.reverse();
        moves
    }
}

/// Beam search of `width` from `start` to `goal` (a solvable pair of one
/// shape) with `guide`: a solution of at most `max_length` moves, or `None`
/// when there is none or the beam dies out (every child already kept
/// before), with the nodes generated and expanded either way. A narrow
/// beam can wander without end: `max_length` is what stops it.
pub(crate) fn beam<G: Guide>(
    guide: &G,
    (start, goal): (&Board, &Board),
    width: usize,
    max_length: usize,
    options: &SolveOptions,
) -> Result<(Option<Solution>, Work), Stopped> {
    let zobrist = Zobrist::new();
    let h0 = G::value(&guide.start(start));
    if start == goal {
        let solution = Solution {
            moves: Vec::new(),
            nodes: 0,
            expanded: 0,
        };
        return Ok((Some(solution), Work::default()));
    }
    let print = zobrist.of(start);
    let mut seen: HashSet<u64, BuildHasherDefault<Identity>> = HashSet::default();
    seen.insert(print);
    let mut layer = vec![Kept {
        board: *start,
        memo: guide.start(start),
        print,
        last: None,
    }];
    let mut trail = Trail(Vec::new());
    let (mut generated, mut expanded) = (0u64, 0u64);
    let mut offers: Vec<Offer<G::Step>> = Vec::new();
    while !layer.is_empty() && trail.0.len() < max_length {
        check(options, h0, generated)?;
        offers.clear();
        for (parent, kept) in layer.iter().enumerate() {
            expanded += 1;
            generated += offer_children(guide, &zobrist, kept, parent as u32, &mut offers);
        }
        // Every child's reads at once, so that they overlap.
        for offer in &mut offers {
            guide.read(&mut offer.step);
            offer.h = G::step_value(&offer.step);
        }
        let reaches_goal = |o: &&Offer<G::Step>| o.h == 0 && child(&layer, o) == *goal;
        if let Some(o) = offers.iter().find(reaches_goal) {
            trail.0.push(vec![(o.parent, o.m)]);
            let solution = Solution {
                moves: trail.path_to(0),
                nodes: generated,
                expanded,
            };
            let work = Work {
                generated,
                expanded,
            };
            return Ok((Some(solution), work));
        }
        layer = keep_best(guide, &layer, &offers, width, &mut seen, &mut trail);
    }
    let work = Work {
        generated,
        expanded,
    };
    Ok((None, work))
}

/// The board `offer` leads to.
#[inline]
fn child<M, S>(layer: &[Kept<M>], offer: &Offer<S>) -> Board {
    let parent = &layer[offer.parent as usize].board;
    parent.slide_from(parent.target(offer.m).expect("offered moves are legal"))
}

/// Offers all `kept`'s children but its parent, their estimates not yet
/// read ([`Guide::read`]); returns how many.
#[inline]
fn offer_children<G: Guide>(
    guide: &G,
    zobrist: &Zobrist,
    kept: &Kept<G::Memo>,
    parent: u32,
    offers: &mut Vec<Offer<G::Step>>,
) -> u64 {
    let board = &kept.board;
    let from = board.blank();
    let mut generated = 0;
    for m in Move::ALL {
        if kept.last == Some(m.opposite()) {
            continue;
        }
        let Some(to) = board.target(m) else { continue };
        generated += 1;
        let tile = board.cells()[to];
        let print = zobrist.slid(kept.print, tile, to, from);
        let child = board.slide_from(to);
        offers.push(Offer {
            // Known once the step's reads are made.
            h: 0,
            print,
            parent,
            m,
            step: guide.step(&kept.memo, &child, tile, to, from),
        });
    }
    generated
}

/// The `width` offers from `layer` with the smallest estimate (ties broken
/// by their order, so the same every run), each position once: the next
/// layer, recorded in `seen` and `trail`.
fn keep_best<G: Guide>(
    guide: &G,
    layer: &[Kept<G::Memo>],
    offers: &[Offer<G::Step>],
    width: usize,
    seen: &mut HashSet<u64, BuildHasherDefault<Identity>>,
    trail: &mut Trail,
) -> Vec<Kept<G::Memo>> {
    // Ranked by one word each: the estimate, then 22 bits of fingerprint
    // (ties broken at random, but the same every run), then the index
    // (below 2^32 offers), most significant first. Sorting words is
    // several times faster than sorting the offers themselves.
    let mut ranks: Vec<u64> = offers
        .iter()
        .enumerate()
        .map(|(i, o)| (o.h as u64) << 54 | (o.print >> 42) << 32 | i as u64)
        .collect();
    // Room for positions kept before, skipped below; the rest is sorted
    // only if they fill it.
    let room = (2 * width).min(ranks.len());
    if room < ranks.len() {
        ranks.select_nth_unstable(room);
    }
    ranks[..room].sort_unstable();
    let mut chosen: Vec<usize> = Vec::with_capacity(width);
    for at in 0..ranks.len() {
        if chosen.len() == width {
            break;
        }
        if at == room {
            ranks[room..].sort_unstable();
        }
        let index = ranks[at] as u32 as usize;
        if seen.insert(offers[index].print) {
            chosen.push(index);
        }
    }
    // In the offers' order, which is their parents': the layer before is
    // then read front to back rather than at random.
    chosen.sort_unstable();
    trail.0.push(
        chosen
            .iter()
            .map(|&i| (offers[i].parent, offers[i].m))
            .collect(),
    );
    chosen
        .iter()
        .map(|&i| {
            let offer = &offers[i];
            Kept {
                board: child(layer, offer),
                memo: guide.after(&layer[offer.parent as usize].memo, &offer.step),
                print: offer.print,
                last: Some(offer.m),
            }
        })
        .collect()
}

/// Stops for the deadline or the cancel flag, reporting the bound `h0`.
fn check(options: &SolveOptions, h0: u32, nodes: u64) -> Result<(), Stopped> {
    let cancelled = options
        .cancel
        .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
    if cancelled {
        Err(Stopped::Cancelled { bound: h0, nodes })
    } else if options.deadline.is_some_and(|d| Instant::now() >= d) {
        Err(Stopped::TimedOut { bound: h0, nodes })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounded::guide::ConflictGuide;
    use crate::puzzle::shape::Shape;

    /// Every beam's solution replays to the goal, is no shorter than the
    /// optimum and no longer than asked, however narrow the beam; a beam of
    /// one may die out, and too short a limit finds nothing.
    #[test]
    fn beams_of_any_width_find_real_paths() {
        let shape = Shape::THREE_BY_THREE;
        let goal = Board::goal(shape);
        let guide = ConflictGuide::new(&goal);
        // 31 moves is its optimum.
        let start = crate::puzzle::parse::parse_board("867254301", shape).unwrap();
        let options = SolveOptions::default();
        let mut lengths = Vec::new();
        for width in [1, 4, 64, 1024] {
            let (found, work) = beam(&guide, (&start, &goal), width, 200, &options).unwrap();
            assert!(work.generated > work.expanded && work.expanded > 0);
            if let Some(found) = found {
                assert_eq!(
                    (found.nodes, found.expanded),
                    (work.generated, work.expanded)
                );
                assert_eq!(start.replay(&found.moves), Some(goal), "width {width}");
                assert!((31..=200).contains(&found.moves.len()), "width {width}");
                lengths.push(found.moves.len());
            }
        }
        assert!(lengths.len() >= 2, "{lengths:?}");
        let (found, _) = beam(&guide, (&start, &goal), 1024, 30, &options).unwrap();
        assert!(found.is_none(), "shorter than the optimum");
        let (found, _) = beam(&guide, (&goal, &goal), 8, 0, &options).unwrap();
        assert_eq!(found.map(|f| f.moves.len()), Some(0));
    }
}
