//! Building tables: one reverse breadth-first search from each goal.
//!
//! Two searches give the same table. Small boards (up to
//! [`LIST_SEARCH_MAX_CELLS`] cells) keep each level's positions in a list of
//! cursors: fastest when the table fits in cache, and their tables are built
//! side by side, one per core. Larger boards keep each level as a bitset over
//! the ranks and split every level across the cores: memory stays at the
//! table plus two bitsets (a quarter of the table), however wide a level is.
//!
//! Both count moves in either [`Metric`]: under the multi-tile metric a
//! position's children are every slide of 1 to k tiles toward the blank,
//! found by moving a cursor's blank on, one cell at a time.

use crate::puzzle::board::{Board, Move};
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use crate::table::entry::{self, UNSEEN};
use crate::table::path_table;
use crate::table::rank::{Cursor, Ranker};
use rayon::prelude::*;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Boards up to this many cells are searched with lists of cursors, and
/// only those can have path tables.
pub const LIST_SEARCH_MAX_CELLS: usize = 10;

/// Bitset words per parallel work item of a bitset search (64 ranks each).
const CHUNK_WORDS: usize = 1 << 12;

/// A complete table for the canonical goal with the blank in `goal_blank`:
/// one entry per rank, and how many positions lie at each distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The goal's blank cell.
    pub goal_blank: usize,
    /// How its distances count moves.
    pub metric: Metric,
    /// One [`entry`] per rank.
    pub entries: Vec<u8>,
    /// `counts[d]` = positions at distance `d`; the last is the maximum distance.
    pub counts: Vec<u64>,
    /// The table's path table ([`path_table`]) as stored, when it has one.
    pub path_table: Option<Vec<u8>>,
}

impl Table {
    /// The largest distance in the table.
    pub fn max_distance(&self) -> usize {
        self.counts.len() - 1
    }
}

/// How far a table's search has come, reported after each distance: the
/// same for complete tables (positions, level by level) and pattern tables
/// (placements, cost by cost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// The distance just completed (moves of the pattern's tiles, for a
    /// pattern table).
    pub distance: u32,
    /// Entries first reached at this distance.
    pub found: u64,
    /// Entries reached so far, this distance included.
    pub reached: u64,
    /// Entries in the table.
    pub entries: u64,
}

/// Builds the single-tile table for one goal blank cell, with the search
/// that suits the board's size.
pub fn build_table(shape: Shape, goal_blank: usize) -> Table {
    build_table_reporting(shape, goal_blank, Metric::SingleTile, false, &|_| {})
}

/// [`build_table`] in either metric, with its path table when `paths` is
/// set (single-tile tables of boards of up to [`LIST_SEARCH_MAX_CELLS`]
/// cells), calling `on_level` after each level of the search.
pub fn build_table_reporting(
    shape: Shape,
    goal_blank: usize,
    metric: Metric,
    paths: bool,
    on_level: &(dyn Fn(BuildProgress) + Sync),
) -> Table {
    if shape.cells() <= LIST_SEARCH_MAX_CELLS {
        search_with_lists(shape, goal_blank, metric, paths, on_level)
    } else {
        assert!(!paths, "path tables stop at {LIST_SEARCH_MAX_CELLS} cells");
        search_with_bitsets(shape, goal_blank, metric, on_level)
    }
}

/// Builds the single-tile tables for several goal blank cells, side by
/// side for small boards and one after another (each using every core) for
/// large ones.
pub fn build_tables(shape: Shape, goal_blanks: &[usize]) -> Vec<Table> {
    let mut tables = Vec::with_capacity(goal_blanks.len());
    let metric = Metric::SingleTile;
    let done: Result<(), Infallible> =
        build_each(shape, goal_blanks, metric, false, &|_, _| {}, |table| {
            tables.push(table);
            Ok(())
        });
    done.unwrap_or_else(|never| match never {});
    tables
}

/// Builds the tables for several goal blank cells and hands each to `take`,
/// in the order given, stopping at its first error. Small boards' tables
/// are built side by side first. Large ones are built one after another,
/// each handed over (and so dropped) before the next starts: memory holds
/// one table at a time. With `paths`, each table comes with its path table.
/// `on_level(i, level)` reports each level of table `i`.
pub fn build_each<E>(
    shape: Shape,
    goal_blanks: &[usize],
    metric: Metric,
    paths: bool,
    on_level: &(dyn Fn(usize, BuildProgress) + Sync),
    mut take: impl FnMut(Table) -> Result<(), E>,
) -> Result<(), E> {
    let build = |(i, &blank): (usize, &usize)| {
        build_table_reporting(shape, blank, metric, paths, &|level| on_level(i, level))
    };
    if shape.cells() <= LIST_SEARCH_MAX_CELLS {
        let tables: Vec<Table> = goal_blanks.par_iter().enumerate().map(build).collect();
        tables.into_iter().try_for_each(take)
    } else {
        goal_blanks
            .iter()
            .enumerate()
            .try_for_each(|entry| take(build(entry)))
    }
}

/// The search's start: the ranker, and a cursor at the goal.
fn start(shape: Shape, goal_blank: usize) -> (Ranker, Cursor) {
    let ranker = Ranker::new(shape, goal_blank);
    let (goal, _) = ranker.cursor(&Board::canonical_goal(shape, goal_blank));
    (ranker, goal)
}

/// The goal's entry.
fn goal_entry() -> u8 {
    entry::encode(0, Move::Up)
}

/// The directions worth trying from a position at `distance - 1`: every
/// move except the one back toward the goal, which only finds the parent
/// again. Under the multi-tile metric (`longest` above 1) the way onward is
/// left out too: every slide either way along the line of the parent's
/// move lands one slide from the parent, so no farther than this position.
#[inline]
fn moves_out(entry: u8, distance: u32, longest: usize) -> impl Iterator<Item = Move> {
    let back = entry::next_move(entry);
    let onward = if longest > 1 { back.opposite() } else { back };
    Move::ALL
        .into_iter()
        .filter(move |&m| (m != back && m != onward) || distance == 1)
}

/// Calls `visit(child, m)` for every child of `position` worth trying at
/// `distance` (see [`moves_out`]): the blank moving `m` by 1 to `longest`
/// cells.
#[inline(always)]
fn for_each_child(
    ranker: &Ranker,
    position: &Cursor,
    entry: u8,
    distance: u32,
    longest: usize,
    mut visit: impl FnMut(&Cursor, Move),
) {
    // Single tiles apart: the hot loop of every single-tile build, kept
    // free of the slides' inner loop.
    if longest == 1 {
        for m in moves_out(entry, distance, longest) {
            if let Some(child) = ranker.step(position, m) {
                visit(&child, m);
            }
        }
        return;
    }
    for m in moves_out(entry, distance, longest) {
        let mut child = *position;
        for _ in 0..longest {
            if !ranker.advance(&mut child, m) {
                break;
            }
            visit(&child, m);
        }
    }
}

/// Each level expands the positions found at the previous one. A child found
/// for the first time gets the move that undoes the one that reached it:
/// that move leads one step back toward the goal. Ranks are updated move by
/// move with a [`Cursor`], never computed from scratch.
///
/// With `paths`, it also fills the path table ([`path_table`]): a child's
/// word is its move back followed by its parent's word, which is complete
/// since the parent lies one level closer.
pub fn search_with_lists(
    shape: Shape,
    goal_blank: usize,
    metric: Metric,
    paths: bool,
    on_level: &(dyn Fn(BuildProgress) + Sync),
) -> Table {
    assert!(
        !paths || metric == Metric::SingleTile,
        "path tables hold single-tile solutions"
    );
    let longest = metric.longest_slide(shape);
    let (ranker, goal) = start(shape, goal_blank);
    let mut entries = vec![UNSEEN; ranker.len()];
    entries[goal.rank() as usize] = goal_entry();
    // The goal's word is 0, as every word starts.
    let mut words = paths.then(|| vec![0u8; ranker.len() * path_table::WORD_BYTES]);

    let mut counts = vec![1u64];
    // Each position with its word (0 without a path table), carried along
    // so that a parent's word is not read back from the table.
    let mut frontier = vec![(goal, 0u64)];
    let mut next = Vec::new();
    let mut distance = 0u32;
    loop {
        distance += 1;
        for (position, word) in &frontier {
            let e = entries[position.rank() as usize];
            for_each_child(&ranker, position, e, distance, longest, |child, m| {
                let slot = &mut entries[child.rank() as usize];
                if *slot == UNSEEN {
                    *slot = entry::encode(distance, m.opposite());
                    let child_word = path_table::word(m.opposite(), *word);
                    if let Some(words) = &mut words {
                        path_table::set_word(words, child.rank(), child_word);
                    }
                    next.push((*child, child_word));
                }
            });
        }
        if next.is_empty() {
            break;
        }
        counts.push(next.len() as u64);
        on_level(level(distance, &counts, ranker.len()));
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    Table {
        goal_blank,
        metric,
        entries,
        counts,
        path_table: words,
    }
}

fn level(distance: u32, counts: &[u64], positions: usize) -> BuildProgress {
    BuildProgress {
        distance,
        found: counts[distance as usize],
        reached: counts.iter().sum(),
        entries: positions as u64,
    }
}

/// One bit per rank, set and tested from several threads at once.
struct Bitset {
    words: Vec<AtomicU64>,
}

impl Bitset {
    fn new(bits: usize) -> Bitset {
        Bitset {
            words: (0..bits.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Sets bit `i`; true if it was clear.
    #[inline]
    fn insert(&self, i: u32) -> bool {
        let bit = 1u64 << (i % 64);
        self.words[(i / 64) as usize].fetch_or(bit, Relaxed) & bit == 0
    }
}

/// The same search with each level held as a bitset over the ranks, expanded in
/// chunks of ranks across the cores. Memory is the table and two bitsets,
/// and the work is proportional to the positions and their moves: a level
/// reads only its own bitset, never the whole table.
///
/// No position is locked. A child may be found by several parents in the
/// same level, on different threads; each offers its entry (the same
/// distance, each with a move back to a parent one step closer) by an
/// atomic minimum, so the entry that stays is the one with the lowest move
/// code whatever the threads' timing: the same file from every build. Only
/// the offer that finds the child unseen adds it to the next level and
/// counts it. Levels are separated by rayon's join, so a level sees every
/// earlier one.
pub fn search_with_bitsets(
    shape: Shape,
    goal_blank: usize,
    metric: Metric,
    on_level: &(dyn Fn(BuildProgress) + Sync),
) -> Table {
    search_in_chunks(shape, goal_blank, metric, CHUNK_WORDS, on_level)
}

/// [`search_with_bitsets`] with its work cut into chunks of `chunk_words`
/// words of the level's bitset (tests use small ones, so that a small
/// board's level is spread over many threads).
fn search_in_chunks(
    shape: Shape,
    goal_blank: usize,
    metric: Metric,
    chunk_words: usize,
    on_level: &(dyn Fn(BuildProgress) + Sync),
) -> Table {
    let longest = metric.longest_slide(shape);
    let (ranker, goal) = start(shape, goal_blank);
    // Filled on every core: first touches of 240 MB of fresh pages are a
    // noticeable part of a 12-cell build.
    let entries: Vec<AtomicU8> = (0..ranker.len())
        .into_par_iter()
        .map(|_| AtomicU8::new(UNSEEN))
        .collect();
    entries[goal.rank() as usize].store(goal_entry(), Relaxed);
    let mut frontier = Bitset::new(ranker.len());
    let mut next = Bitset::new(ranker.len());
    frontier.insert(goal.rank());

    let mut counts = vec![1u64];
    let mut distance = 0u32;
    loop {
        distance += 1;
        let found: u64 = frontier
            .words
            .par_chunks(chunk_words)
            .enumerate()
            .map(|(chunk, words)| {
                let first = chunk * chunk_words;
                let mut found = 0;
                for (i, word) in words.iter().enumerate() {
                    let mut bits = word.load(Relaxed);
                    if bits == 0 {
                        continue;
                    }
                    // Cleared here, so this bitset is empty when it becomes
                    // the next level's.
                    word.store(0, Relaxed);
                    while bits != 0 {
                        let rank = ((first + i) * 64) as u32 + bits.trailing_zeros();
                        bits &= bits - 1;
                        found += expand(&ranker, &entries, &next, rank, distance, longest);
                    }
                }
                found
            })
            .sum();
        if found == 0 {
            break;
        }
        counts.push(found);
        on_level(level(distance, &counts, ranker.len()));
        std::mem::swap(&mut frontier, &mut next);
    }
    Table {
        goal_blank,
        metric,
        // Back to plain bytes in place.
        entries: entries.into_iter().map(AtomicU8::into_inner).collect(),
        counts,
        path_table: None,
    }
}

/// Expands the position at `rank` (at `distance - 1`): stores every child not
/// seen before and adds it to `next`. Returns the children it added.
#[inline]
fn expand(
    ranker: &Ranker,
    entries: &[AtomicU8],
    next: &Bitset,
    rank: u32,
    distance: u32,
    longest: usize,
) -> u64 {
    let position = ranker.cursor_at(rank);
    let e = entries[rank as usize].load(Relaxed);
    let mut added = 0;
    let this_level = entry::field_of(distance);
    for_each_child(ranker, &position, e, distance, longest, |child, m| {
        let slot = &entries[child.rank() as usize];
        let (seen, offer) = (slot.load(Relaxed), entry::encode(distance, m.opposite()));
        // A neighbour's distance is within one of this position's, so a
        // field of this level's distance was set in this level.
        let lower = entry::distance_field(seen) == this_level && offer < seen;
        // Only the thread that finds it unseen adds it.
        if (seen == UNSEEN || lower) && slot.fetch_min(offer, Relaxed) == UNSEEN {
            next.insert(child.rank());
            added += 1;
        }
    });
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::step::toward_goal;

    #[test]
    fn every_position_is_reached() {
        let shape: Shape = "2x3".parse().unwrap();
        for table in build_tables(shape, &[0, 5]) {
            assert!(table.entries.iter().all(|&e| e != UNSEEN));
            assert_eq!(table.counts.iter().sum::<u64>(), shape.table_positions());
            // The 2x3 puzzle's diameter is 21 for a corner goal.
            assert_eq!(table.max_distance(), 21);
        }
    }

    /// Both searches find the same distances, and every move the bitset
    /// search stores leads one step closer (when a position has two parents
    /// the two searches may keep different ones).
    #[test]
    fn both_searches_agree() {
        let boards = ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"];
        for (size, metric) in boards.into_iter().flat_map(|b| Metric::ALL.map(|m| (b, m))) {
            let shape: Shape = size.parse().unwrap();
            for blank in 0..shape.cells() {
                let lists = search_with_lists(shape, blank, metric, false, &|_| {});
                let bitsets = search_with_bitsets(shape, blank, metric, &|_| {});
                assert_eq!(lists.counts, bitsets.counts, "{size} blank {blank}");
                let ranker = Ranker::new(shape, blank);
                for (rank, (&a, &b)) in lists.entries.iter().zip(&bitsets.entries).enumerate() {
                    let d = entry::distance_field(a);
                    assert_eq!(
                        d,
                        entry::distance_field(b),
                        "{size} blank {blank} rank {rank}"
                    );
                    if d > 0 {
                        let mut next = ranker.cursor_at(rank as u32);
                        let longest = metric.longest_slide(shape);
                        let landed = toward_goal(&ranker, &bitsets.entries, &mut next, b, longest);
                        assert!(
                            landed.is_some(),
                            "{size} {metric} blank {blank} rank {rank}"
                        );
                    }
                }
            }
        }
    }

    /// The bitset search keeps, of a position's moves that lead one step
    /// closer, the one with the lowest code, whichever thread finds it
    /// first: checked against every move of every position, the distances
    /// taken from the list search. Each level is cut into chunks of one
    /// word (64 positions) and spread over 4 threads, so that parents of
    /// the same position race.
    #[test]
    fn the_bitset_search_keeps_the_lowest_move_closer() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        for (size, metric) in ["2x3", "3x3", "2x4"]
            .into_iter()
            .flat_map(|b| Metric::ALL.map(|m| (b, m)))
        {
            let shape: Shape = size.parse().unwrap();
            let blank = shape.cells() - 1;
            let lists = search_with_lists(shape, blank, metric, false, &|_| {});
            let bitsets = pool.install(|| search_in_chunks(shape, blank, metric, 1, &|_| {}));
            let ranker = Ranker::new(shape, blank);
            let distance = |rank: u32| entry::distance_field(lists.entries[rank as usize]);
            for (rank, &stored) in bitsets.entries.iter().enumerate() {
                let d = distance(rank as u32);
                if d == 0 {
                    continue;
                }
                let closer = Move::ALL.into_iter().filter(|&m| {
                    let mut cursor = ranker.cursor_at(rank as u32);
                    (0..metric.longest_slide(shape))
                        .map_while(|_| ranker.advance(&mut cursor, m).then(|| cursor.rank()))
                        .any(|r| distance(r) + 1 == d)
                });
                let lowest = closer.map(Move::code).min();
                assert_eq!(
                    Some(entry::next_move(stored).code()),
                    lowest,
                    "{size} {metric} rank {rank}"
                );
            }
        }
    }

    #[test]
    fn levels_are_reported_in_order() {
        let shape: Shape = "2x3".parse().unwrap();
        let lists = |shape, blank, on_level: &(dyn Fn(BuildProgress) + Sync)| {
            search_with_lists(shape, blank, Metric::SingleTile, false, on_level)
        };
        let bitsets = |shape, blank, on_level: &(dyn Fn(BuildProgress) + Sync)| {
            search_with_bitsets(shape, blank, Metric::SingleTile, on_level)
        };
        for search in [lists, bitsets] {
            let seen = std::sync::Mutex::new(Vec::new());
            let table = search(shape, 5, &|level| seen.lock().unwrap().push(level));
            let seen = seen.into_inner().unwrap();
            assert_eq!(seen.len(), table.max_distance());
            for (i, level) in seen.iter().enumerate() {
                assert_eq!(level.distance as usize, i + 1);
                assert_eq!(level.found, table.counts[i + 1]);
                assert_eq!(level.entries, 360);
            }
            assert_eq!(seen.last().unwrap().reached, 360);
        }
    }
}
