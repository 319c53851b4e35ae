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
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Moves from the start within which children are searched in the order
/// of the last iteration's lowest estimates below them. On Korf's 100,
/// ordering the first 3 moves takes 22% off the nodes, the first 8 27%,
/// the first 12 another 1% (docs/benchmarks.md).
pub const HISTORY_DEPTH: u32 = 12;

// A path's key, a leading 1 and two bits a move, fits 32 bits.
const _: () = assert!(HISTORY_DEPTH <= 15);

/// Moves from the start within which every path has its own slot in the
/// history; deeper paths share a table of [`FAR_SLOTS`], found by a hash.
/// (Own slots for the paths of 7 and 8 moves too made 120 KiB more to
/// clear per search, which the easy searches of a batch felt.)
const NEAR_DEPTH: u32 = 6;

/// Slots of the table of paths past [`NEAR_DEPTH`] moves.
const FAR_SLOTS: usize = 1 << 13;

/// Slots of a bucket of that table: one cache line. A path past
/// [`NEAR_DEPTH`] moves looks for its own slot or a free one only in the
/// bucket of its hash; a path that finds neither is not recorded (a
/// search whose table is that full has its order from the positions
/// nearer the start), and a path looked for costs one line however full
/// the table.
const BUCKET_SLOTS: usize = 8;

/// A bucket of the far table, aligned to a cache line.
#[repr(align(64))]
struct Bucket([AtomicU64; BUCKET_SLOTS]);

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

    /// The bucket of the table of far paths that holds this one's slot
    /// (Fibonacci hashing: the keys of siblings, which differ in their
    /// last bits, land far apart).
    #[inline]
    fn far_bucket(self) -> usize {
        let buckets = FAR_SLOTS / BUCKET_SLOTS;
        (self.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize >> (64 - buckets.ilog2())
    }
}

/// The lowest estimate generated below each position within
/// [`HISTORY_DEPTH`] moves of the start, as the last iteration to search it
/// left it. The walkers of a parallel iteration share it: each writes only
/// the positions of its own subtree, so relaxed loads and stores (plain
/// ones on the processor) do, and a far path claims its slot with a
/// compare-and-swap. Off ([`History::OFF`]), it holds nothing.
pub(super) struct History {
    /// Per path key within [`NEAR_DEPTH`] moves: 0 for none yet, else the
    /// lowest estimate plus 1 (at most 255).
    near: Vec<AtomicU8>,
    /// The paths past [`NEAR_DEPTH`] moves, in buckets found by a hash of
    /// the path: 0 for a free slot, else the key shifted left by 8 bits
    /// and the lowest estimate plus 1. Slots are claimed, never freed.
    far: Vec<Bucket>,
}

impl History {
    /// No history: what a search has until its first iteration ends, so
    /// that the many searches that end there need not clear one.
    pub const OFF: History = History {
        near: Vec::new(),
        far: Vec::new(),
    };

    /// A history for one search: 72 KiB, cleared.
    pub fn new() -> History {
        History {
            near: std::iter::repeat_with(|| AtomicU8::new(0))
                .take(2 << (2 * NEAR_DEPTH))
                .collect(),
            far: std::iter::repeat_with(|| Bucket(Default::default()))
                .take(FAR_SLOTS / BUCKET_SLOTS)
                .collect(),
        }
    }

    /// Whether it is on: whether walks order children by it.
    #[inline]
    pub fn is_on(&self) -> bool {
        !self.near.is_empty()
    }

    /// The lowest estimate the last iteration generated below `key`'s
    /// position, its own included, if it searched there (and the history
    /// is on).
    #[inline]
    pub fn lowest(&self, key: PathKey) -> Option<u32> {
        let stored = match self.near.get(key.0 as usize) {
            Some(slot) => slot.load(Relaxed),
            None => self.far_slot(key, false)?.load(Relaxed) as u8,
        };
        (stored != 0).then(|| stored as u32 - 1)
    }

    /// The slot of a path past [`NEAR_DEPTH`] moves, claimed for it if
    /// `claim` and it has none; `None` if it has none and none is claimed
    /// (or the history is off).
    #[inline]
    fn far_slot(&self, key: PathKey, claim: bool) -> Option<&AtomicU64> {
        if self.far.is_empty() {
            return None;
        }
        let mine = (key.0 as u64) << 8;
        for slot in &self.far[key.far_bucket()].0 {
            let stored = slot.load(Relaxed);
            if stored & !0xFF == mine {
                return Some(slot);
            }
            if stored == 0 {
                if !claim {
                    return None;
                }
                match slot.compare_exchange(0, mine, Relaxed, Relaxed) {
                    Ok(_) => return Some(slot),
                    // Another walker's path took it; a walker claims only
                    // its own paths' slots, so look on.
                    Err(_) => continue,
                }
            }
        }
        None
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
        let stored = lowest.min(254) as u8 + 1;
        match self.near.get(key.0 as usize) {
            Some(slot) => slot.store(stored, Relaxed),
            None => {
                if let Some(slot) = self.far_slot(key, true) {
                    slot.store((key.0 as u64) << 8 | stored as u64, Relaxed);
                }
            }
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

    /// Reorders `children` (of `key`'s position, sorted best first; at
    /// most four) by the lowest estimate found below each in the last
    /// iteration, or for one not searched then, its own; ties keep their
    /// order.
    #[inline]
    pub fn order<C: Copy>(
        &self,
        key: PathKey,
        children: &mut [C],
        step: impl Fn(&C) -> (Move, u32),
    ) {
        // Each child's rank looked up once (a far one probes a table).
        let mut ranks = [0; 4];
        for (rank, child) in ranks.iter_mut().zip(children.iter()) {
            let (m, estimate) = step(child);
            *rank = self.rank(Some(key.then(m)), estimate);
        }
        for i in 1..children.len() {
            let mut j = i;
            while j > 0 && ranks[j - 1] > ranks[j] {
                children.swap(j - 1, j);
                ranks.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_paths_are_distinct_and_near_ones_fit() {
        let near_len = History::new().near.len();
        let mut seen = std::collections::HashSet::new();
        let mut frontier = vec![(Vec::<Move>::new(), PathKey::START)];
        // One move past the near paths, to see the first far ones.
        for depth in 0..=NEAR_DEPTH + 1 {
            let mut next = Vec::new();
            for (path, key) in frontier {
                assert_eq!(PathKey::of(&path), Some(key));
                assert!(seen.insert(key.0), "{path:?}");
                assert_eq!((key.0 as usize) < near_len, depth <= NEAR_DEPTH);
                if let Some(parent) = key.parent() {
                    assert_eq!(PathKey::of(&path[..path.len() - 1]), Some(parent));
                }
                if depth <= NEAR_DEPTH {
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
            (0..=NEAR_DEPTH + 1).map(|d| 4usize.pow(d)).sum::<usize>()
        );
        let longest = vec![Move::Left; HISTORY_DEPTH as usize];
        let key = PathKey::of(&longest).unwrap();
        assert_eq!(key.0.ilog2(), 2 * HISTORY_DEPTH);
        let too_long = vec![Move::Up; HISTORY_DEPTH as usize + 1];
        assert_eq!(PathKey::of(&too_long), None);
    }

    #[test]
    fn far_paths_read_their_own_record_or_none() {
        let history = History::new();
        // Three times more far paths than slots: the table fills, and the
        // paths that find no slot go unrecorded, never into another's.
        let far_paths = (0..3 * FAR_SLOTS as u32).map(|i| {
            let path: Vec<Move> = (0..HISTORY_DEPTH)
                .map(|d| Move::ALL[(i >> (2 * d) & 3) as usize])
                .collect();
            PathKey::of(&path).unwrap()
        });
        let value = |key: PathKey| key.0 % 200;
        for key in far_paths.clone() {
            assert_eq!(history.lowest(key), None);
            history.record(key, value(key));
        }
        let recorded = far_paths
            .filter(|&key| match history.lowest(key) {
                Some(lowest) => {
                    assert_eq!(lowest, value(key));
                    true
                }
                None => false,
            })
            .count();
        // Nearly every slot is taken before the paths of its bucket run out.
        assert!(recorded > FAR_SLOTS * 9 / 10 && recorded <= FAR_SLOTS);
        // A near path has its own slot however full the far table is.
        let near = PathKey::START.then(Move::Up);
        history.record(near, 7);
        assert_eq!(history.lowest(near), Some(7));
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
