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
//! [`two_way`] searches from both ends: a beam from the start, then one
//! from the goal ([`super::backward`]), which also looks out for the
//! positions the first kept; where they meet, the two halves make a path.
//!
//! Positions are told apart by a 64-bit Zobrist fingerprint. Two positions
//! sharing one (about one chance in 10^10 at these sizes) would only drop
//! one of them from the beam: every solution is a real path of moves.

use super::backward::{joined, Backward};
use super::guide::Guide;
use crate::pattern::{Interrupt, Solution, SolveOptions, Stopped, Work};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::shape::MAX_CELLS;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

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

    /// The fingerprints of `backward`'s positions as the original problem
    /// sees them: the word of each cell and tile is the word of the cell
    /// and tile they stand for there.
    fn turned(&self, backward: &Backward) -> Zobrist {
        Zobrist(
            (0..MAX_CELLS)
                .map(|cell| {
                    std::array::from_fn(|tile| {
                        let (cell, tile) = backward.original(cell, tile as u8);
                        self.0[cell][tile as usize]
                    })
                })
                .collect(),
        )
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
    /// The moves to the position reached as `word` (a packed [`Reach`]).
    fn path_to(&self, word: u64) -> Vec<Move> {
        if word == Reach::START {
            return Vec::new();
        }
        let Reach { layer, parent, m } = Reach::unpack(word);
        let mut moves: Vec<Move> = Vec::with_capacity(self.0.len() + 1);
        moves.push(m);
        let mut index = parent;
        for kept in self.0[..layer as usize].iter().rev() {
            let (parent, m) = kept[index as usize];
            moves.push(m);
            index = parent;
        }
        moves.reverse();
        moves
    }
}

/// How a kept position was reached: by move `m` from the `parent`-th
/// position kept `layer` moves from the start (the start itself for 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reach {
    layer: u32,
    parent: u32,
    m: Move,
}

impl Reach {
    /// The start's word: it was not reached by a move.
    const START: u64 = u64::MAX;

    /// In one word: the layer above 34 bits, the parent above the move.
    fn pack(self) -> u64 {
        (self.layer as u64) << 34 | (self.parent as u64) << 2 | self.m.code() as u64
    }

    fn unpack(word: u64) -> Reach {
        Reach {
            layer: (word >> 34) as u32,
            parent: (word >> 2) as u32,
            m: Move::from_code(word as u8 & 3),
        }
    }

    /// Moves from the start to the position reached as `word`.
    fn depth(word: u64) -> u32 {
        match word {
            Reach::START => 0,
            word => Reach::unpack(word).layer + 1,
        }
    }
}

type Prints = BuildHasherDefault<Identity>;

/// The positions a beam has kept, by fingerprint: each kept once.
trait Seen {
    /// Records the position of `print`, reached as `reach` (a packed
    /// [`Reach`]); whether it is new.
    fn first(&mut self, print: u64, reach: u64) -> bool;
}

impl Seen for HashSet<u64, Prints> {
    #[inline]
    fn first(&mut self, print: u64, _: u64) -> bool {
        self.insert(print)
    }
}

/// The positions a beam has kept, with how each was reached (packed), for
/// another beam to meet.
type Reached = HashMap<u64, u64, Prints>;

impl Seen for Reached {
    #[inline]
    fn first(&mut self, print: u64, reach: u64) -> bool {
        match self.entry(print) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(reach);
                true
            }
        }
    }
}

/// Where a beam met the positions another beam kept: the shortest path
/// through them, as the sum of both beams' moves, and how each reached the
/// position.
#[derive(Clone, Copy)]
struct Meeting {
    length: u32,
    /// How the other beam and this one reached it (packed).
    other: u64,
    own: u64,
}

/// The other beam's positions, and the shortest meeting with them so far.
struct Meet<'r> {
    other: &'r Reached,
    best: Option<Meeting>,
}

/// One beam search: its fingerprints, the positions kept and the layers.
struct Beam<'z, S> {
    zobrist: &'z Zobrist,
    seen: S,
    trail: Trail,
    work: Work,
}

impl<'z, S: Seen> Beam<'z, S> {
    /// A beam that tells positions apart by `zobrist`'s fingerprints and
    /// records them in `seen`, empty.
    fn new(zobrist: &'z Zobrist, seen: S) -> Self {
        Beam {
            zobrist,
            seen,
            trail: Trail(Vec::new()),
            work: Work::default(),
        }
    }

    /// Beam search of `width` from `start` to `goal` (a solvable pair of
    /// one shape) with `guide`: a solution of at most `max_length` moves, or
    /// `None` when there is none or the beam dies out (every child already
    /// kept before). A narrow beam can wander without end: `max_length` is
    /// what stops it, and past [`BEAM_POSITIONS`] kept in all it is cut
    /// shorter. With `meet`, looks out for the other beam's positions as
    /// it keeps its own.
    fn run<G: Guide>(
        &mut self,
        guide: &G,
        (start, goal): (&Board, &Board),
        (width, max_length): (usize, usize),
        mut meet: Option<&mut Meet>,
        options: &SolveOptions,
    ) -> Result<Option<Solution>, Stopped> {
        let max_length = max_length.min(BEAM_POSITIONS / width.max(1));
        let h0 = G::value(&guide.start(start));
        if start == goal {
            return Ok(Some(Solution {
                moves: Vec::new(),
                nodes: 0,
                expanded: 0,
            }));
        }
        let print = self.zobrist.of(start);
        let mut layer = vec![Kept {
            board: *start,
            memo: guide.start(start),
            print,
            last: None,
        }];
        self.seen.first(print, Reach::START);
        if let Some(meet) = meet.as_deref_mut() {
            meet.at(print, Reach::START);
        }
        let mut offers: Vec<Offer<G::Step>> = Vec::new();
        while !layer.is_empty() && self.trail.0.len() < max_length {
            check(options, h0, self.work)?;
            offers.clear();
            for (parent, kept) in layer.iter().enumerate() {
                self.work.expanded += 1;
                self.work.generated +=
                    offer_children(guide, self.zobrist, kept, parent as u32, &mut offers);
            }
            // Every child's reads at once, so that they overlap.
            for offer in &mut offers {
                guide.read(&mut offer.step);
                offer.h = G::step_value(&offer.step);
            }
            let reaches_goal = |o: &&Offer<G::Step>| o.h == 0 && child(&layer, o) == *goal;
            if let Some(o) = offers.iter().find(reaches_goal) {
                let reach = Reach {
                    layer: self.trail.0.len() as u32,
                    parent: o.parent,
                    m: o.m,
                };
                return Ok(Some(Solution {
                    moves: self.trail.path_to(reach.pack()),
                    nodes: self.work.generated,
                    expanded: self.work.expanded,
                }));
            }
            layer = self.keep_best(guide, &layer, &offers, width, meet.as_deref_mut());
        }
        Ok(None)
    }

    /// The `width` offers from `layer` with the smallest estimate (ties
    /// broken by [`Guide::step_tie`], then at random but the same every
    /// run), each position once: the next layer, recorded in `seen` and
    /// `trail`, and checked against `meet`.
    fn keep_best<G: Guide>(
        &mut self,
        guide: &G,
        layer: &[Kept<G::Memo>],
        offers: &[Offer<G::Step>],
        width: usize,
        mut meet: Option<&mut Meet>,
    ) -> Vec<Kept<G::Memo>> {
        // Ranked by one word each ([`rank`]): sorting words is several
        // times faster than sorting the offers themselves.
        let mut ranks: Vec<u64> = offers
            .iter()
            .enumerate()
            .map(|(i, o)| rank(o.h, G::step_tie(&o.step), o.print, i))
            .collect();
        // Room for positions kept before, skipped below; the rest is sorted
        // only if they fill it.
        let room = (2 * width).min(ranks.len());
        if room < ranks.len() {
            ranks.select_nth_unstable(room);
        }
        ranks[..room].sort_unstable();
        let layer_index = self.trail.0.len() as u32;
        let mut chosen: Vec<usize> = Vec::with_capacity(width);
        for at in 0..ranks.len() {
            if chosen.len() == width {
                break;
            }
            if at == room {
                ranks[room..].sort_unstable();
            }
            let index = ranks[at] as u32 as usize;
            let offer = &offers[index];
            let reach = Reach {
                layer: layer_index,
                parent: offer.parent,
                m: offer.m,
            }
            .pack();
            if self.seen.first(offer.print, reach) {
                chosen.push(index);
                if let Some(meet) = meet.as_deref_mut() {
                    meet.at(offer.print, reach);
                }
            }
        }
        // In the offers' order, which is their parents': the layer before is
        // then read front to back rather than at random.
        chosen.sort_unstable();
        self.trail.0.push(
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
}

impl Meet<'_> {
    /// Notes a meeting if the position of `print`, reached as `own` (a
    /// packed [`Reach`]), is one the other beam kept, and the shortest yet.
    #[inline]
    fn at(&mut self, print: u64, own: u64) {
        let Some(&other) = self.other.get(&print) else {
            return;
        };
        let length = Reach::depth(other) + Reach::depth(own);
        if self.best.is_none_or(|best| length < best.length) {
            self.best = Some(Meeting { length, other, own });
        }
    }
}

/// The most positions a beam keeps in all, its width times its layers
/// (each about 40 bytes with its trail and the set of positions kept, so
/// about 1 GB): a beam of 65,536 still runs 366 layers, past any 24-puzzle
/// solution it could improve, but on long thin boards at a large W, where
/// beams steered by linear conflicts wander for thousands of layers, it
/// stops them (one held 1.96 GB on 3×11 at W = 100).
pub(crate) const BEAM_POSITIONS: usize = 24_000_000;

/// An offer's rank in one word, the smallest first: its estimate `h` (10
/// bits), then its tie (9 bits; larger values of either are taken as the
/// largest, and no board comes near them), then 13
/// bits of its fingerprint `print` (ties broken at random, but the same
/// every run), then its `index` among the offers (32 bits), from which the
/// word is read back.
#[inline]
fn rank(h: u32, tie: u32, print: u64, index: usize) -> u64 {
    debug_assert!(index < 1 << 32);
    let (h, tie) = (h.min(1023) as u64, tie.min(511) as u64);
    h << 54 | tie << 45 | (print >> 51) << 32 | index as u64
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
    let mut beam = Beam::new(&zobrist, HashSet::default());
    let found = beam.run(guide, (start, goal), (width, max_length), None, options)?;
    Ok((found, beam.work))
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

/// Beam searches of `width` from both ends of the problem from `start` to
/// `goal` (a solvable pair of one shape): one from the start, then one
/// from the goal ([`Backward`]) that looks out for the positions the first
/// kept. The shortest of what they find: either beam's solution, or the
/// first's path to where they met and the second's from there, if at most
/// `max_length` moves; with the nodes of both.
pub(crate) fn two_way<G: Guide>(
    guide: &G,
    (start, goal): (&Board, &Board),
    width: usize,
    max_length: usize,
    options: &SolveOptions,
) -> Result<(Option<Solution>, Work), Stopped> {
    if start == goal {
        return beam(guide, (start, goal), width, max_length, options);
    }
    let zobrist = Zobrist::new();
    let mut ahead = Beam::new(&zobrist, Reached::default());
    let found = ahead.run(guide, (start, goal), (width, max_length), None, options)?;
    let mut best = found.map(|s| s.moves);
    let backward = Backward::new(start, goal);
    // Fingerprints as the original problem sees each position, so that
    // the two beams' fingerprints of one position agree.
    let turned = zobrist.turned(&backward);
    let mut back = Beam::new(&turned, HashSet::default());
    let mut meet = Meet {
        other: &ahead.seen,
        best: None,
    };
    // The detour's moves may cancel against the solution's first ones, so
    // a solution up to the detour longer may still come out shorter.
    let limit = shorter_than(&best, max_length) + backward.detour().len();
    let problem = (backward.start(), goal);
    // A stop reports the start's estimate: the backward problem's is
    // toward another position.
    let h0 = G::value(&guide.start(start));
    let found = (back.run(guide, problem, (width, limit), Some(&mut meet), options))
        .map_err(|stop| stop.at_bound(h0).after(0, ahead.work))?;
    if let Some(found) = found {
        keep_shorter(&mut best, backward.forward(&found.moves), max_length);
    }
    if let Some(met) = meet.best {
        let ahead_half = ahead.trail.path_to(met.other);
        let back_half = backward.to_goal(&back.trail.path_to(met.own));
        keep_shorter(&mut best, joined(ahead_half, back_half), max_length);
    }
    let mut work = ahead.work;
    work += back.work;
    let best = best.map(|moves| Solution {
        moves,
        nodes: work.generated,
        expanded: work.expanded,
    });
    Ok((best, work))
}

/// The points along a solution, in moves from its start, from which
/// [`refined`] searches again.
const REFINE_FROM: [usize; 3] = [5, 25, 45];

/// `moves`, a solution from `start` to `goal` (a solvable pair of one
/// shape), made shorter if beams of `width` find a way: from each of a
/// few points along it ([`REFINE_FROM`], those it reaches), a beam to the
/// goal that must beat the rest of the shortest solution so far. The
/// shorter solution, if any, with the nodes of every beam either way.
///
/// A beam from a later point is not a part of the first beam's search:
/// it keeps other positions, and on 5×5 it often finds a shorter way for
/// the rest where wider beams from the start do not.
pub(crate) fn refined<G: Guide>(
    guide: &G,
    (start, goal): (&Board, &Board),
    moves: &[Move],
    width: usize,
    options: &SolveOptions,
) -> Result<(Option<Solution>, Work), Stopped> {
    let mut best = moves.to_vec();
    let mut work = Work::default();
    // A stop reports the start's estimate, not that of the point reached.
    let h0 = G::value(&guide.start(start));
    for from in REFINE_FROM {
        if from >= best.len() {
            break;
        }
        let point = start
            .replay(&best[..from])
            .expect("a solution's moves are legal");
        let rest = best.len() - from;
        let (found, spent) = beam(guide, (&point, goal), width, rest - 1, options)
            .map_err(|stop| stop.at_bound(h0).after(0, work))?;
        work += spent;
        if let Some(found) = found {
            best.truncate(from);
            best.extend(found.moves);
        }
    }
    let found = (best.len() < moves.len()).then_some(Solution {
        moves: best,
        nodes: work.generated,
        expanded: work.expanded,
    });
    Ok((found, work))
}

/// The most moves a solution may have to be worth keeping over `best`:
/// fewer than it, and at most `max_length`.
fn shorter_than(best: &Option<Vec<Move>>, max_length: usize) -> usize {
    best.as_ref()
        .map_or(max_length, |moves| moves.len().saturating_sub(1))
}

/// Keeps `moves` in `best` if they are shorter, and at most `max_length`.
fn keep_shorter(best: &mut Option<Vec<Move>>, moves: Vec<Move>, max_length: usize) {
    if moves.len() <= shorter_than(best, max_length) {
        *best = Some(moves);
    }
}

/// Stops for the deadline or the cancel flag, reporting the bound `h0`
/// and the `work` done.
pub(super) fn check(options: &SolveOptions, h0: u32, work: Work) -> Result<(), Stopped> {
    match options.interrupted() {
        Some(Interrupt::Cancelled) => Err(Stopped::cancelled(h0, work)),
        Some(Interrupt::TimedOut) => Err(Stopped::timed_out(h0, work)),
        None => Ok(()),
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

    /// Offers rank by estimate, then tie, then fingerprint, and each rank
    /// gives its offer's index back.
    #[test]
    fn offers_rank_by_estimate_then_tie() {
        let print = u64::MAX;
        let ranks = [
            rank(40, 90, print, 7),
            rank(41, 0, 0, 0),
            rank(40, 91, 0, 3),
            rank(40, 90, 0, u32::MAX as usize),
            rank(2000, 9000, print, 5),
        ];
        let mut order: Vec<usize> = (0..ranks.len()).collect();
        order.sort_by_key(|&i| ranks[i]);
        assert_eq!(order, [3, 0, 2, 1, 4]);
        let indexes: Vec<u32> = ranks.iter().map(|&r| r as u32).collect();
        assert_eq!(indexes, [7, 0, 3, u32::MAX, 5]);
    }

    /// A solution with a detour in it comes back shorter from beams along
    /// it, and still replays; a shortest one comes back as none.
    #[test]
    fn refined_solutions_are_shorter_real_paths() {
        let options = SolveOptions::default();
        let shape: Shape = "3x4".parse().unwrap();
        let goal = Board::goal(shape);
        let guide = ConflictGuide::new(&goal);
        let mut shortened = 0;
        for seed in 1..=8u64 {
            let (start, _) = crate::bounded::random_walk(goal, 60, seed);
            let (found, _) = beam(&guide, (&start, &goal), 256, 300, &options).unwrap();
            let mut moves = found.unwrap().moves;
            // A detour of 12 moves after the first 30, there and back.
            let at = 30.min(moves.len());
            let (_, there) =
                crate::bounded::random_walk(start.replay(&moves[..at]).unwrap(), 6, seed);
            let mut back: Vec<Move> = there.iter().rev().map(|m| m.opposite()).collect();
            let mut detour = there;
            detour.append(&mut back);
            moves.splice(at..at, detour);
            assert_eq!(start.replay(&moves), Some(goal));
            let (found, work) = refined(&guide, (&start, &goal), &moves, 256, &options).unwrap();
            assert!(work.generated > 0);
            if let Some(found) = found {
                assert_eq!(start.replay(&found.moves), Some(goal), "{start}");
                assert!(found.moves.len() < moves.len());
                shortened += 1;
            }
        }
        assert!(shortened >= 6, "{shortened} of 8 shortened");
        // 31 moves is this position's optimum: nothing is shorter.
        let start = crate::puzzle::parse::parse_board("867254301", Shape::THREE_BY_THREE).unwrap();
        let goal = Board::goal(Shape::THREE_BY_THREE);
        let guide = ConflictGuide::new(&goal);
        let (found, _) = beam(&guide, (&start, &goal), 1024, 31, &options).unwrap();
        let optimal = found.unwrap().moves;
        assert_eq!(optimal.len(), 31);
        let (found, _) = refined(&guide, (&start, &goal), &optimal, 1024, &options).unwrap();
        assert!(found.is_none());
    }

    /// A reach packs into one word and back, the start's word apart.
    #[test]
    fn reaches_pack_into_one_word() {
        for (layer, parent, m) in [
            (0, 0, Move::Up),
            (7, 262_143, Move::Right),
            (399, 1 << 31, Move::Left),
        ] {
            let reach = Reach { layer, parent, m };
            assert_eq!(Reach::unpack(reach.pack()), reach);
            assert_eq!(Reach::depth(reach.pack()), layer + 1);
            assert_ne!(reach.pack(), Reach::START);
        }
        assert_eq!(Reach::depth(Reach::START), 0);
    }

    /// Beams from both ends give real paths, never longer than the beam
    /// from the start alone; on some positions the path through where the
    /// two met is shorter than either beam's own solution.
    #[test]
    fn two_way_beams_find_real_paths_and_meet() {
        let options = SolveOptions::default();
        let mut met = 0;
        for (shape, moves) in [("3x3", 40), ("3x4", 60), ("4x4", 80)] {
            let shape: Shape = shape.parse().unwrap();
            let goal = Board::goal(shape);
            let guide = ConflictGuide::new(&goal);
            for seed in 1..=12u64 {
                let (start, _) = crate::bounded::random_walk(goal, moves, seed);
                let backward = Backward::new(&start, &goal);
                for width in [2, 16, 256] {
                    let (ahead, _) = beam(&guide, (&start, &goal), width, 300, &options).unwrap();
                    // The beam from the goal as `two_way` runs it, alone.
                    let zobrist = Zobrist::new().turned(&backward);
                    let mut back = Beam::new(&zobrist, HashSet::default());
                    let problem = (backward.start(), &goal);
                    let back = back
                        .run(&guide, problem, (width, 300), None, &options)
                        .unwrap();
                    let back = back.map(|s| backward.forward(&s.moves));
                    let (both, work) =
                        two_way(&guide, (&start, &goal), width, 300, &options).unwrap();
                    let ahead = ahead.map_or(usize::MAX, |s| s.moves.len());
                    let alone = ahead.min(back.map_or(usize::MAX, |moves| moves.len()));
                    let Some(both) = both else {
                        assert_eq!(alone, usize::MAX);
                        continue;
                    };
                    assert_eq!(
                        start.replay(&both.moves),
                        Some(goal),
                        "{start} width {width}"
                    );
                    assert!(both.moves.len() <= alone);
                    assert_eq!((both.nodes, both.expanded), (work.generated, work.expanded));
                    met += usize::from(both.moves.len() < alone);
                }
            }
        }
        assert!(met > 0, "no meeting gave the shortest path");
    }
}
