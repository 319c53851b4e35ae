//! Which child to search first, from what the last iteration found below
//! each.
//!
//! IDA* searches the same tree again with each bound, and its last
//! iteration stops at the first solution: the sooner it enters a subtree
//! that holds one, the fewer nodes it generates. So within
//! [`HISTORY_DEPTH`] moves of the start, each position remembers the
//! lowest estimate generated below it in the last iteration, and the next
//! searches the children of those near the start in that order. A subtree
//! that came close to the goal under the last bound is the likelier to
//! reach it under the next: a node off every shortest path must
//! underestimate its distance by 4 or more to be searched under the bound
//! before the last, one on a shortest path by 2. (Ordering moves by what
//! the last iteration learned is an old idea: Reinefeld and Marsland 1994,
//! "Enhanced iterative-deepening search".)

use crate::puzzle::board::Move;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Moves from the start within which children are searched in the order
/// of the last iteration's lowest estimates below them. On Korf's 100,
/// ordering the first 3 moves takes 22% off the nodes, the first 8 27%
/// (docs/benchmarks.md); deeper, the memory costs more than it saves.
pub const HISTORY_DEPTH: u32 = 8;

/// A path from the start, of at most [`HISTORY_DEPTH`] moves: a leading 1
/// and then two bits a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PathKey(u32);

impl PathKey {
    /// The start's: no moves.
    pub const START: PathKey = PathKey(1);

    /// The path one move `m` longer.
    #[inline]
    pub fn then(self, m: Move) -> PathKey {
        PathKey(self.0 << 2 | m.code() as u32)
    }

    /// The path one move shorter; `None` for the start's.
    #[inline]
    fn parent(self) -> Option<PathKey> {
        (self != PathKey::START).then_some(PathKey(self.0 >> 2))
    }

    /// The key of `path`, if it is short enough to have one.
    #[cfg(test)]
    fn of(path: &[Move]) -> Option<PathKey> {
        (path.len() <= HISTORY_DEPTH as usize)
            .then(|| path.iter().fold(PathKey::START, |key, &m| key.then(m)))
    }
}

/// The lowest estimate generated below each position within
/// [`HISTORY_DEPTH`] moves of the start, as the last iteration to search it
/// left it. The walkers of a parallel iteration share it: each writes only
/// the positions of its own subtree, so relaxed loads and stores (plain
/// ones on the processor) do. Off ([`History::OFF`]), it holds nothing.
pub(super) struct History {
    /// Per path key: 0 for none yet, else the lowest estimate plus 1 (at
    /// most 255).
    lowest: Vec<AtomicU8>,
}

impl History {
    /// No history: what a search has until its first iteration ends, so
    /// that the many searches that end there need not clear one.
    pub const OFF: History = History { lowest: Vec::new() };

    /// A history for one search: 128 KiB, cleared.
    pub fn new() -> History {
        let len = 2 << (2 * HISTORY_DEPTH);
        History {
            lowest: std::iter::repeat_with(|| AtomicU8::new(0))
                .take(len)
                .collect(),
        }
    }

    /// Whether it is on: whether walks order children by it.
    #[inline]
    pub fn is_on(&self) -> bool {
        !self.lowest.is_empty()
    }

    /// The lowest estimate the last iteration generated below `key`'s
    /// position, its own included, if it searched there (and the history
    /// is on).
    #[inline]
    pub fn lowest(&self, key: PathKey) -> Option<u32> {
        match self.lowest.get(key.0 as usize)?.load(Relaxed) {
            0 => None,
            stored => Some(stored as u32 - 1),
        }
    }

    /// Where a position goes in the order: the lowest estimate the last
    /// iteration found below it, or for one it did not search (or one
    /// without a key), its own `estimate`.
    #[inline]
    pub fn rank(&self, key: Option<PathKey>, estimate: u32) -> u32 {
        key.and_then(|key| self.lowest(key)).unwrap_or(estimate)
    }

    /// Sets what `key`'s position found below it this iteration (if the
    /// history is on).
    #[inline]
    pub fn record(&self, key: PathKey, lowest: u32) {
        if let Some(slot) = self.lowest.get(key.0 as usize) {
            slot.store(lowest.min(254) as u8 + 1, Relaxed);
        }
    }

    /// Lowers the record of `key`'s position, and of each position on its
    /// path, to `lowest`: what a subtree searched apart found below it.
    pub fn lower_path(&self, key: PathKey, lowest: u32) {
        let mut at = Some(key);
        while let Some(key) = at {
            match self.lowest(key) {
                Some(known) if known <= lowest => {}
                _ => self.record(key, lowest),
            }
            at = key.parent();
        }
    }

    /// Reorders `children` (of `key`'s position, sorted best first) by the
    /// lowest estimate found below each in the last iteration, or for one
    /// not searched then, its own; ties keep their order.
    #[inline]
    pub fn order<C: Copy>(
        &self,
        key: PathKey,
        children: &mut [C],
        step: impl Fn(&C) -> (Move, u32),
    ) {
        let rank = |c: &C| {
            let (m, estimate) = step(c);
            self.rank(Some(key.then(m)), estimate)
        };
        for i in 1..children.len() {
            let mut j = i;
            while j > 0 && rank(&children[j - 1]) > rank(&children[j]) {
                children.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_paths_are_distinct_and_fit() {
        let len = History::new().lowest.len();
        let mut seen = std::collections::HashSet::new();
        let mut frontier = vec![(Vec::<Move>::new(), PathKey::START)];
        for _ in 0..=HISTORY_DEPTH {
            let mut next = Vec::new();
            for (path, key) in frontier {
                assert_eq!(PathKey::of(&path), Some(key));
                assert!(seen.insert(key.0), "{path:?}");
                assert!((key.0 as usize) < len);
                if let Some(parent) = key.parent() {
                    assert_eq!(PathKey::of(&path[..path.len() - 1]), Some(parent));
                }
                if path.len() < HISTORY_DEPTH as usize {
                    for m in Move::ALL {
                        let mut longer = path.clone();
                        longer.push(m);
                        next.push((longer, key.then(m)));
                    }
                }
            }
            frontier = next;
        }
        assert_eq!(
            seen.len(),
            (0..=HISTORY_DEPTH).map(|d| 4usize.pow(d)).sum::<usize>()
        );
        let too_long = vec![Move::Up; HISTORY_DEPTH as usize + 1];
        assert_eq!(PathKey::of(&too_long), None);
    }

    #[test]
    fn paths_are_lowered_to_the_least_found() {
        let history = History::new();
        let a = PathKey::START.then(Move::Up);
        let b = a.then(Move::Left);
        history.record(a, 30);
        history.lower_path(b, 20);
        assert_eq!(history.lowest(b), Some(20));
        assert_eq!(history.lowest(a), Some(20));
        assert_eq!(history.lowest(PathKey::START), Some(20));
        history.lower_path(b, 25);
        assert_eq!(history.lowest(b), Some(20));
        history.record(a, 300);
        assert_eq!(history.lowest(a), Some(254));
        assert_eq!(history.lowest(a.then(Move::Down)), None);
        let off = History::OFF;
        off.lower_path(b, 20);
        off.record(a, 20);
        assert!(!off.is_on());
        assert_eq!(off.lowest(a), None);
    }

    #[test]
    fn children_are_ordered_by_the_lowest_found_below_them() {
        let history = History::new();
        let key = PathKey::START;
        history.record(key.then(Move::Up), 40);
        history.record(key.then(Move::Down), 35);
        // (move, estimate), best first by estimate.
        let mut children = [(Move::Up, 41), (Move::Down, 41), (Move::Left, 43)];
        history.order(key, &mut children, |&c| c);
        assert_eq!(children.map(|c| c.0), [Move::Down, Move::Up, Move::Left]);
        // One the last iteration did not search keeps its own estimate.
        let mut children = [(Move::Left, 36), (Move::Up, 41), (Move::Down, 41)];
        history.order(key, &mut children, |&c| c);
        assert_eq!(children.map(|c| c.0), [Move::Down, Move::Left, Move::Up]);
    }
}
