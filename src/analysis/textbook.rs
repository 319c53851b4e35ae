//! The classic searches, written the way search courses teach them, to
//! compare with the database's lookups and to check assignments against.
//!
//! Every search here is a real, correct implementation on [`Board`]: it
//! stores positions in a hash set or map under a packed 64-bit key, stops
//! after a given number of expansions, and rebuilds its solution from the
//! moves that reached each position. None of them uses the database.
//!
//! ```
//! use npuzzle::analysis::{search, Algorithm};
//! use npuzzle::{parse_board, Board, Shape};
//!
//! let shape = Shape::THREE_BY_THREE;
//! let start = parse_board("123468750", shape)?;
//! let goal = Board::goal(shape);
//! let report = search(Algorithm::AStarManhattan, &start, &goal, 1_000_000)?;
//! let moves = report.moves.expect("solvable, and well within the limit");
//! assert_eq!(npuzzle::rules::move_string(&moves), "ULDR");
//! assert_eq!(start.replay(&moves), Some(goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::puzzle::board::{Board, Move};
use crate::puzzle::heuristic::{Evaluator, Heuristic};
use crate::puzzle::shape::{Shape, MAX_CELLS};
use crate::puzzle::solvability;
use serde::{Serialize, Serializer};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// A search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Breadth-first search: a queue, and a map from each position seen to
    /// the move that reached it. Optimal.
    Bfs,
    /// Depth-first search to at most `limit` moves, avoiding only the
    /// positions on the current path (as course code does), trying the
    /// blank's moves in the order up, down, left, right. Returns the first
    /// solution it finds, which need not be the shortest.
    DepthLimitedDfs {
        /// The most moves a solution may have.
        limit: u32,
    },
    /// Iterative deepening: that depth-first search limited to 1 move, then
    /// 2, 3, … until one finds the goal. Each tries every path of its depth
    /// that repeats no position, so the first to find the goal does so at
    /// its distance. Optimal, with the memory of depth-first search, and
    /// every expansion of every depth counted.
    Iddfs,
    /// A* with the misplaced-tiles heuristic. Optimal.
    AStarMisplaced,
    /// A* with the Manhattan heuristic. Optimal.
    AStarManhattan,
    /// A* with Manhattan plus linear conflicts. Optimal.
    AStarLinearConflict,
    /// IDA* with the Manhattan heuristic: depth-first searches bounded by
    /// g + h, the bound raised to the smallest value that exceeded it, with
    /// no memory beyond the current path. Optimal.
    IdaStarManhattan,
    /// Greedy best-first search on the Manhattan heuristic alone, never
    /// reopening a position. Fast, but its solutions are often far from
    /// the shortest.
    GreedyManhattan,
}

impl Algorithm {
    /// The eight, with the depth-first search limited to `dfs_limit` moves.
    pub fn all(dfs_limit: u32) -> [Algorithm; 8] {
        [
            Algorithm::Bfs,
            Algorithm::DepthLimitedDfs { limit: dfs_limit },
            Algorithm::Iddfs,
            Algorithm::AStarMisplaced,
            Algorithm::AStarManhattan,
            Algorithm::AStarLinearConflict,
            Algorithm::IdaStarManhattan,
            Algorithm::GreedyManhattan,
        ]
    }

    /// A short name: `bfs`, `dfs`, `iddfs`, `astar-misplaced`,
    /// `astar-manhattan`, `astar-linear-conflict`, `idastar-manhattan` or
    /// `greedy-manhattan`.
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Bfs => "bfs",
            Algorithm::DepthLimitedDfs { .. } => "dfs",
            Algorithm::Iddfs => "iddfs",
            Algorithm::AStarMisplaced => "astar-misplaced",
            Algorithm::AStarManhattan => "astar-manhattan",
            Algorithm::AStarLinearConflict => "astar-linear-conflict",
            Algorithm::IdaStarManhattan => "idastar-manhattan",
            Algorithm::GreedyManhattan => "greedy-manhattan",
        }
    }

    /// Whether every solution it returns is a shortest one.
    pub fn is_optimal(&self) -> bool {
        !matches!(
            self,
            Algorithm::DepthLimitedDfs { .. } | Algorithm::GreedyManhattan
        )
    }
}

impl fmt::Display for Algorithm {
    /// The name, with the depth limit for depth-first search (`dfs (limit 31)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Algorithm::DepthLimitedDfs { limit } => write!(f, "dfs (limit {limit})"),
            _ => f.write_str(self.name()),
        }
    }
}

/// What one search did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchReport {
    /// Whether the start can reach the goal at all (checked by parity before
    /// searching; an unsolvable pair is never searched).
    pub solvable: bool,
    /// The blank's moves from the start to the goal, or `None` when the
    /// search found none: the pair is unsolvable, the node limit was hit, or
    /// depth-first search found nothing within its depth limit.
    #[serde(serialize_with = "moves_as_letters")]
    pub moves: Option<Vec<Move>>,
    /// Positions expanded: positions whose successors were generated. For
    /// IDA*, summed over all its iterations, so a position counts once per
    /// visit.
    pub expanded: u64,
    /// The most positions waiting to be expanded at any time: the queue for
    /// BFS, the priority queue for A* and greedy (stale entries included,
    /// as they are skipped only when popped), the current path for
    /// depth-first search and IDA*.
    pub max_open: u64,
    /// Whether the search stopped because it reached the node limit.
    pub hit_limit: bool,
    /// Wall-clock time of the whole search, the solvability check included.
    #[serde(rename = "elapsed_ms", serialize_with = "millis")]
    pub elapsed: Duration,
}

fn moves_as_letters<S: Serializer>(moves: &Option<Vec<Move>>, s: S) -> Result<S::Ok, S::Error> {
    match moves {
        Some(moves) => s.serialize_str(&crate::puzzle::board::move_string(moves)),
        None => s.serialize_none(),
    }
}

/// A time as every report gives it: a float of milliseconds.
pub(crate) fn millis<S: Serializer>(elapsed: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(elapsed.as_secs_f64() * 1e3)
}

/// A start and a goal that do not belong to the same board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the start is a {start} board but the goal is a {goal} board")]
pub struct ShapeMismatch {
    /// The start's board.
    pub start: Shape,
    /// The goal's board.
    pub goal: Shape,
}

/// Searches for a sequence of blank moves from `start` to `goal`, expanding
/// at most `max_nodes` positions.
///
/// An unsolvable pair is recognised by its parity and returned at once,
/// with no solution and nothing expanded; so no search ever runs through a
/// whole half of the state space to prove there is no path.
pub fn search(
    algorithm: Algorithm,
    start: &Board,
    goal: &Board,
    max_nodes: u64,
) -> Result<SearchReport, ShapeMismatch> {
    search_until(algorithm, start, goal, max_nodes, None)
}

/// [`search`], which also stops, as at its node limit, soon after `cancel`
/// is set (Ctrl-C in Python): the caller knows it asked, and discards the
/// report.
pub fn search_until(
    algorithm: Algorithm,
    start: &Board,
    goal: &Board,
    max_nodes: u64,
    cancel: Option<&AtomicBool>,
) -> Result<SearchReport, ShapeMismatch> {
    if start.shape() != goal.shape() {
        return Err(ShapeMismatch {
            start: start.shape(),
            goal: goal.shape(),
        });
    }
    let began = Instant::now();
    let mut search = Search {
        goal: *goal,
        goal_key: key(goal),
        max_nodes,
        cancel,
        expanded: 0,
        max_open: 0,
        hit_limit: false,
    };
    let solvable = solvability::check(start, goal).is_ok();
    let moves = if !solvable {
        None
    } else {
        match algorithm {
            Algorithm::Bfs => search.bfs(start),
            Algorithm::DepthLimitedDfs { limit } => search.dfs(start, limit),
            Algorithm::Iddfs => search.iddfs(start),
            Algorithm::AStarMisplaced => search.best_first(start, Heuristic::Misplaced, true),
            Algorithm::AStarManhattan => search.best_first(start, Heuristic::Manhattan, true),
            Algorithm::AStarLinearConflict => {
                search.best_first(start, Heuristic::LinearConflict, true)
            }
            Algorithm::IdaStarManhattan => search.ida_star(start),
            Algorithm::GreedyManhattan => search.best_first(start, Heuristic::Manhattan, false),
        }
    };
    Ok(SearchReport {
        solvable,
        moves,
        expanded: search.expanded,
        max_open: search.max_open,
        hit_limit: search.hit_limit,
        elapsed: began.elapsed(),
    })
}

/// The most cells a [`key`] holds: one nibble each in 64 bits.
pub(crate) const KEY_CELLS: usize = 16;

/// The board's cells, one per nibble, first cell lowest: a position in 64
/// bits at most (the blank's cell is where the 0 nibble is), cheap to hash. The
/// textbook searches run beside complete tables (boards of at most 12
/// cells) and pattern databases of at most 16 (`compare_searched`).
#[inline]
fn key(board: &Board) -> u64 {
    debug_assert!(board.shape().cells() <= KEY_CELLS);
    board
        .cells()
        .iter()
        .rev()
        .fold(0, |k, &tile| (k << 4) | tile as u64)
}

/// The board of `shape` whose [`key`] is `key`.
#[inline]
fn unkey(shape: Shape, key: u64) -> Board {
    let mut cells = [0u8; MAX_CELLS];
    let mut blank = 0;
    for (cell, tile) in cells.iter_mut().enumerate().take(KEY_CELLS) {
        *tile = (key >> (4 * cell)) as u8 & 15;
        if *tile == 0 && cell < shape.cells() {
            blank = cell;
        }
    }
    Board::from_parts(shape, blank, cells)
}

/// Marks the start in a map from positions to the move that reached them.
const NO_MOVE: u8 = 4;

/// How many expansions pass between two looks at the cancel flag: a
/// fraction of a millisecond of work.
const CANCEL_CHECK: u64 = 4096;

/// One search's goal, limits and counters.
struct Search<'a> {
    goal: Board,
    goal_key: u64,
    max_nodes: u64,
    cancel: Option<&'a AtomicBool>,
    expanded: u64,
    max_open: u64,
    hit_limit: bool,
}

impl Search<'_> {
    /// Counts one expansion, or returns false (and records it) when the
    /// limit has been reached or the search is cancelled.
    #[inline]
    fn may_expand(&mut self) -> bool {
        let cancelled = || self.cancel.is_some_and(|c| c.load(Relaxed));
        if self.expanded >= self.max_nodes
            || (self.expanded.is_multiple_of(CANCEL_CHECK) && self.expanded > 0 && cancelled())
        {
            self.hit_limit = true;
            return false;
        }
        self.expanded += 1;
        true
    }

    #[inline]
    fn note_open(&mut self, open: usize) {
        self.max_open = self.max_open.max(open as u64);
    }

    /// Walks back from the goal to the start along the move that reached
    /// each position (`reached_by` maps a key to a move code, or to
    /// [`NO_MOVE`] for the start), and returns the moves in playing order.
    fn path_to_goal(&self, reached_by: impl Fn(u64) -> u8) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut position = self.goal;
        loop {
            let code = reached_by(key(&position));
            if code == NO_MOVE {
                break;
            }
            let m = Move::from_code(code);
            moves.push(m);
            position = position
                .apply(m.opposite())
                .expect("the move that reached a position can be undone");
        }
        moves.reverse();
        moves
    }

    /// Breadth-first search. A child is tested against the goal when it is
    /// generated: every position at depth d is generated before any at
    /// depth d + 1, so the first time the goal appears is at its distance.
    fn bfs(&mut self, start: &Board) -> Option<Vec<Move>> {
        let mut reached_by: HashMap<u64, u8> = HashMap::new();
        reached_by.insert(key(start), NO_MOVE);
        if key(start) == self.goal_key {
            return Some(Vec::new());
        }
        let mut queue = VecDeque::from([*start]);
        self.note_open(1);
        while let Some(position) = queue.pop_front() {
            if !self.may_expand() {
                return None;
            }
            for (m, child) in position.successors() {
                let k = key(&child);
                if reached_by.contains_key(&k) {
                    continue;
                }
                reached_by.insert(k, m.code());
                if k == self.goal_key {
                    return Some(self.path_to_goal(|k| reached_by[&k]));
                }
                queue.push_back(child);
            }
            self.note_open(queue.len());
        }
        None
    }

    /// Depth-first search with an explicit stack of (position, its key,
    /// next move code to try): the stack is the current path, and a child
    /// already on it is skipped. Positions off the path may be visited again
    /// by other branches, which is what makes plain DFS slow, and why it
    /// needs its depth limit to end at all. A child is tested against the
    /// goal when generated, so a goal exactly `limit` moves deep is found.
    /// The path's keys are also kept in a set, so that a deep path costs
    /// each child one test, not one per move of the path.
    fn dfs(&mut self, start: &Board, limit: u32) -> Option<Vec<Move>> {
        if key(start) == self.goal_key {
            return Some(Vec::new());
        }
        if limit == 0 || !self.may_expand() {
            return None;
        }
        let mut stack: Vec<(Board, u64, u8)> = vec![(*start, key(start), 0)];
        let mut on_path = HashSet::from([key(start)]);
        let mut moves: Vec<Move> = Vec::new();
        self.note_open(1);
        while let Some(top) = stack.last_mut() {
            if top.2 == 4 {
                on_path.remove(&top.1);
                stack.pop();
                moves.pop();
                continue;
            }
            let m = Move::from_code(top.2);
            top.2 += 1;
            let Some(child) = top.0.apply(m) else {
                continue;
            };
            let k = key(&child);
            if k == self.goal_key {
                moves.push(m);
                return Some(moves);
            }
            // The child would be `stack.len()` moves deep; at the limit it
            // is a leaf.
            if stack.len() as u32 >= limit || on_path.contains(&k) {
                continue;
            }
            if !self.may_expand() {
                return None;
            }
            on_path.insert(k);
            stack.push((child, k, 0));
            moves.push(m);
            self.note_open(stack.len());
        }
        None
    }

    /// Iterative deepening: [`Search::dfs`] to 1, 2, 3, … moves, until one
    /// finds the goal or the expansions run out. No shorter solution exists
    /// once a depth finds none, so the first found is a shortest.
    fn iddfs(&mut self, start: &Board) -> Option<Vec<Move>> {
        if key(start) == self.goal_key {
            return Some(Vec::new());
        }
        // The parity check let only a reachable goal through: some depth
        // finds it, unless the expansions run out first.
        for limit in 1.. {
            if let Some(moves) = self.dfs(start, limit) {
                return Some(moves);
            }
            if self.hit_limit {
                return None;
            }
        }
        None
    }

    /// A* (`optimal`) or greedy best-first search (not `optimal`).
    ///
    /// A* orders the open list by f = g + h, ties broken toward the larger
    /// g; a position is tested against the goal when it is popped, the only
    /// moment its g is known to be smallest. A shorter path to a position
    /// already seen replaces the old one and pushes the position again; the
    /// stale entry is skipped when popped. With the consistent heuristics
    /// used here that never happens, but it keeps A* correct for any
    /// admissible one.
    ///
    /// Greedy orders by h alone and keeps the first path it finds to each
    /// position.
    fn best_first(
        &mut self,
        start: &Board,
        heuristic: Heuristic,
        optimal: bool,
    ) -> Option<Vec<Move>> {
        let eval = Evaluator::new(&self.goal);
        // Key → (best g found, code of the move that reached it).
        let mut seen: HashMap<u64, (u32, u8)> = HashMap::new();
        // (priority, tie-break, g, key); a max-heap, hence Reverse.
        let mut open: BinaryHeap<(Reverse<u32>, Reverse<u32>, u32, u64)> = BinaryHeap::new();
        let shape = start.shape();
        let h = eval.h(heuristic, start);
        seen.insert(key(start), (0, NO_MOVE));
        open.push((Reverse(h), Reverse(h), 0, key(start)));
        self.note_open(1);
        while let Some((_, _, g, k)) = open.pop() {
            if optimal && seen[&k].0 < g {
                continue;
            }
            if k == self.goal_key {
                return Some(self.path_to_goal(|k| seen[&k].1));
            }
            if !self.may_expand() {
                return None;
            }
            let position = unkey(shape, k);
            for (m, child) in position.successors() {
                let child_key = key(&child);
                let child_g = g + 1;
                match seen.get(&child_key) {
                    Some(&(old_g, _)) if !optimal || old_g <= child_g => continue,
                    _ => {}
                }
                seen.insert(child_key, (child_g, m.code()));
                let h = eval.h(heuristic, &child);
                let priority = if optimal { child_g + h } else { h };
                open.push((Reverse(priority), Reverse(h), child_g, child_key));
            }
            self.note_open(open.len());
        }
        None
    }

    /// IDA* with Manhattan: depth-first searches with a bound on g + h that
    /// starts at h(start) and rises, after each failed search, to the
    /// smallest g + h that exceeded it. A child already on the current path
    /// is skipped.
    fn ida_star(&mut self, start: &Board) -> Option<Vec<Move>> {
        let eval = Evaluator::new(&self.goal);
        let mut path = vec![key(start)];
        let mut moves = Vec::new();
        let mut bound = eval.h(Heuristic::Manhattan, start);
        loop {
            match self.bounded(&eval, *start, 0, bound, &mut path, &mut moves) {
                Bounded::Found => return Some(moves),
                Bounded::Exceeded(next) => bound = next,
                // No child left anywhere: only possible for an unreachable
                // goal, which the parity check has already excluded.
                Bounded::Exhausted => return None,
                Bounded::Limit => return None,
            }
        }
    }

    /// One depth-first search of IDA* below `position`, reached in `g` moves.
    fn bounded(
        &mut self,
        eval: &Evaluator,
        position: Board,
        g: u32,
        bound: u32,
        path: &mut Vec<u64>,
        moves: &mut Vec<Move>,
    ) -> Bounded {
        let f = g + eval.h(Heuristic::Manhattan, &position);
        if f > bound {
            return Bounded::Exceeded(f);
        }
        if path[path.len() - 1] == self.goal_key {
            return Bounded::Found;
        }
        if !self.may_expand() {
            return Bounded::Limit;
        }
        self.note_open(path.len());
        let mut result = Bounded::Exhausted;
        for (m, child) in position.successors() {
            let k = key(&child);
            if path.contains(&k) {
                continue;
            }
            path.push(k);
            moves.push(m);
            match self.bounded(eval, child, g + 1, bound, path, moves) {
                Bounded::Found => return Bounded::Found,
                Bounded::Limit => return Bounded::Limit,
                Bounded::Exceeded(f) => {
                    result = match result {
                        Bounded::Exceeded(best) if best <= f => result,
                        _ => Bounded::Exceeded(f),
                    }
                }
                Bounded::Exhausted => {}
            }
            path.pop();
            moves.pop();
        }
        result
    }
}

/// How one bounded search of IDA* ended.
#[derive(Clone, Copy)]
enum Bounded {
    /// The goal is at the end of the path.
    Found,
    /// No goal within the bound; the smallest f beyond it.
    Exceeded(u32),
    /// No goal, and nothing beyond the bound either.
    Exhausted,
    /// The node limit stopped the search.
    Limit,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse::board3;

    /// A cancelled search stops after [`CANCEL_CHECK`] expansions, as at
    /// its node limit, whatever the limit; one that needs fewer finishes.
    #[test]
    fn a_cancelled_search_stops_soon() {
        let (start, goal) = (board3("867254301"), board3("123456780"));
        let cancel = AtomicBool::new(true);
        let mut stopped = 0;
        for algorithm in Algorithm::all(31) {
            let report = search_until(algorithm, &start, &goal, u64::MAX, Some(&cancel)).unwrap();
            let uncancelled = search(algorithm, &start, &goal, 100_000).unwrap();
            match uncancelled.expanded <= CANCEL_CHECK {
                true => assert_eq!(
                    report,
                    SearchReport {
                        elapsed: report.elapsed,
                        ..uncancelled
                    }
                ),
                false => {
                    assert!(report.hit_limit && report.moves.is_none(), "{algorithm}");
                    assert_eq!(report.expanded, CANCEL_CHECK, "{algorithm}");
                    stopped += 1;
                }
            }
        }
        assert!(stopped >= 5, "{stopped}");
    }

    #[test]
    fn keys_tell_positions_apart() {
        let a = board3("123456780");
        let b = a.apply(Move::Up).unwrap();
        assert_ne!(key(&a), key(&b));
        assert_eq!(key(&a), 0x0_8765_4321);
        assert_eq!(unkey(Shape::THREE_BY_THREE, key(&b)), b);
    }

    #[test]
    fn the_readme_example_for_every_algorithm() {
        let s = Shape::THREE_BY_THREE;
        let start = board3("123468750");
        let goal = Board::goal(s);
        for algorithm in Algorithm::all(10) {
            let report = search(algorithm, &start, &goal, 100_000).unwrap();
            let moves = report.moves.unwrap();
            assert_eq!(start.replay(&moves), Some(goal), "{algorithm}");
            if algorithm.is_optimal() {
                assert_eq!(moves.len(), 4, "{algorithm}");
            }
        }
    }

    #[test]
    fn reports_serialize_moves_as_letters() {
        let s = Shape::THREE_BY_THREE;
        let start = board3("123468750");
        let report = search(Algorithm::Bfs, &start, &Board::goal(s), 1000).unwrap();
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["moves"], "ULDR");
        assert_eq!(json["solvable"], true);
        assert!(json["elapsed_ms"].is_number());
    }
}
