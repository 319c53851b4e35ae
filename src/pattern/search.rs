//! IDA* with the tables' heuristic, updated move by move: a move changes
//! one tile's cell, so only the pattern holding that tile (and, through the
//! transpose, the pattern holding its image) is ranked and looked up again.
//! Where a [`DualSource`] serves the blank, the dual lookup
//! ([`super::dual`]) can raise a child's estimate further.
//!
//! Nodes are counted when generated, as the literature counts them: every
//! child of every expanded node, the move back to the parent excluded.

use super::db::PatternDb;
use super::dual::{DualRanks, DualSource, Duals};
use super::error::{within_largest, Damage, SolveError, Stopped};
use super::history::{History, PathKey, HISTORY_DEPTH};
use super::memory::prefetch;
use super::placement::PlacementRanker;
use super::share::Source;
use crate::puzzle::board::{Board, Move};
use crate::puzzle::duplicates::{DuplicateState, Duplicates};
use crate::puzzle::symmetry::Symmetry;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// How a search may run and when it must stop.
#[derive(Clone, Copy, Default)]
pub struct SolveOptions<'a> {
    /// Give up (with [`Stopped::TimedOut`]) once this instant passes.
    pub deadline: Option<Instant>,
    /// Give up (with [`Stopped::Cancelled`]) once this is set.
    pub cancel: Option<&'a AtomicBool>,
    /// Split each iteration into subtrees searched on the current rayon
    /// pool (all cores unless run inside `ThreadPool::install`).
    pub parallel: bool,
    /// Told each bound as its iteration starts.
    pub on_bound: Option<&'a (dyn Fn(BoundReport) + Sync)>,
}

/// Why a search must stop at once, where it must: its caller's word, or
/// its deadline passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// The cancel flag is set.
    Cancelled,
    /// The deadline has passed.
    TimedOut,
}

impl SolveOptions<'_> {
    /// Options with a deadline `timeout` from now (none without one): a
    /// batch line's own search.
    pub fn lasting(timeout: Option<std::time::Duration>) -> Self {
        SolveOptions {
            deadline: timeout.map(|t| Instant::now() + t),
            ..SolveOptions::default()
        }
    }

    /// Whether the search must stop now, and why: the cancel flag first,
    /// then the deadline. Every search asks this every so many nodes.
    #[inline]
    pub fn interrupted(&self) -> Option<Interrupt> {
        if self.cancel.is_some_and(|c| c.load(Relaxed)) {
            Some(Interrupt::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Interrupt::TimedOut)
        } else {
            None
        }
    }
}

/// The start of one iteration of IDA*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundReport {
    /// The bound on solution length this iteration searches.
    pub bound: u32,
    /// Nodes generated before it.
    pub nodes: u64,
}

/// An optimal solution and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The blank's moves, from the start to the goal.
    pub moves: Vec<Move>,
    /// Nodes generated over all iterations. A parallel search counts, in
    /// its last iteration, the subtrees in their order up to the solution,
    /// not what other threads did past it before they stopped, so the count
    /// is the same on every run (with the same number of threads), unless
    /// its deadline passed or it was cancelled while one thread found a
    /// solution: that solution is kept, with the nodes counted by then.
    pub nodes: u64,
    /// Nodes expanded (whose children were generated) over all iterations,
    /// counted as `nodes` is.
    pub expanded: u64,
}

/// Nodes between checks of the deadline and the stop flags.
const CHECK_EVERY: u64 = 1024;

/// A tile in no pattern, or a pattern index for none.
const NONE: u8 = u8::MAX;

/// Cell slots per position on boards of up to 16 cells: the 15-puzzle's
/// search keeps its arrays at 16 bytes, and ranks with nibbles.
const NARROW: usize = 16;

/// Cell slots per position on larger boards (up to 6×6): a power of two,
/// so that masking an index keeps it in bounds.
const WIDE: usize = 64;

/// Tile slots of a pattern: ranks fit in a `u32`, so at most 12 tiles.
const TILES: usize = 16;

/// Subtrees per thread a parallel iteration aims to split into.
const TASKS_PER_THREAD: usize = 16;

/// Nodes above the cut beyond which a parallel iteration cuts no deeper.
const SPLIT_NODES: u64 = 2048;

/// One pattern as the search reads it, directly or through the transpose.
struct Group<'a, const N: usize, const M: bool> {
    /// Its tiles, in ranking order: the direct search ranks their cells,
    /// the transposed one their transposed cells. The blank's tile (0)
    /// fills the slots past them.
    tiles: [u8; TILES],
    /// The slots ranked: as many for every pattern of a search, those of
    /// the largest (see [`plan`]).
    len: usize,
    ranker: PlacementRanker,
    /// The table it reads: its own, or one a symmetry serves it from.
    table: &'a [u8],
    /// Whether the table is another pattern's, read through `map`.
    mapped: bool,
    /// The symmetry's image of each cell, for a table of another pattern.
    map: [u8; N],
}

impl<const N: usize, const M: bool> Group<'_, N, M> {
    /// The rank of the placement of `tiles` (this pattern's tiles or their
    /// images) in the cells `cell_of`.
    #[inline]
    fn rank(&self, cell_of: &[u8; N], tiles: &[u8; TILES]) -> u32 {
        let cells = tiles[..self.len]
            .iter()
            .map(|&t| cell_of[t as usize & (N - 1)]);
        if M && self.mapped {
            self.rank_cells(cells.map(|c| self.map[c as usize & (N - 1)]))
        } else {
            self.rank_cells(cells)
        }
    }

    /// The rank of the placement with the pattern's `k`-th tile in the
    /// `k`-th cell given.
    #[inline]
    fn rank_cells(&self, cells: impl Iterator<Item = u8>) -> u32 {
        if N == NARROW {
            self.ranker.rank_narrow(cells)
        } else {
            self.ranker.rank_wide(cells)
        }
    }

    #[inline]
    fn entry(&self, rank: u32) -> u8 {
        self.table[rank as usize]
    }

    /// Starts the read of the entry at `rank` without waiting for it: the
    /// caller reads it with [`Group::entry`] after other work.
    #[inline(always)]
    fn prefetch(&self, rank: u32) {
        prefetch(self.table, rank as usize);
    }

    #[inline]
    fn lookup(&self, cell_of: &[u8; N], tiles: &[u8; TILES]) -> u8 {
        self.entry(self.rank(cell_of, tiles))
    }
}

/// What every walker reads (and, for the history and the flag of a solution
/// found, writes through atomics).
struct Plan<'a, const N: usize, const M: bool> {
    groups: Vec<Group<'a, N, M>>,
    /// The pattern of each tile.
    group_of: [u8; N],
    /// The patterns read through the transpose: the second partition.
    image_groups: Vec<Group<'a, N, M>>,
    /// The pattern of [`Plan::image_groups`] that holds each tile.
    image_group_of: [u8; N],
    transposed: bool,
    /// The transpose's image of each cell (identity when unused).
    image_cell: [u8; N],
    /// From each cell: the blank's moves (code, cell it moves to).
    steps: [[(u8, u8); 4]; N],
    step_count: [u8; N],
    /// The dual lookup, where the tables serve the position's blank.
    duals: Duals<'a, N>,
    /// The move sequences not worth following.
    duplicates: &'static Duplicates,
    /// The most a good estimate can be ([`PatternDb::largest_estimate`],
    /// over every set the dual reads too): past it, the tables are damaged.
    largest: u32,
    goal: [u8; N],
    /// The deadline and the cancel flag (what else they hold, this plan
    /// holds itself).
    stop_when: SolveOptions<'a>,
    /// The first subtree, in the iteration's order, known to hold a
    /// solution (`usize::MAX` while none is): those after it stop, those
    /// before it go on, so the answer and its count of nodes are those of
    /// a walk of the subtrees in order, however the threads ran.
    solved_by: AtomicUsize,
    /// Set once a walker read damage ([`Stop::Damaged`]): the others stop,
    /// and no answer of these tables is given.
    damaged: AtomicBool,
    /// What each iteration found below the positions near the start, for
    /// the next to order their children by: written by the walkers, each
    /// in its own subtree.
    history: History,
}

/// A position with each tile's cell, directly and through the transpose.
#[derive(Clone, Copy)]
struct Position<const N: usize> {
    cells: [u8; N],
    cell_of: [u8; N],
    image_cell_of: [u8; N],
    blank: u8,
}

impl<const N: usize> Position<N> {
    /// Slides the tile in `to` into the blank; returns the tile.
    #[inline]
    fn slide(&mut self, to: usize, image_cell: &[u8; N]) -> u8 {
        let from = self.blank as usize & (N - 1);
        let tile = self.cells[to & (N - 1)];
        self.cells[from] = tile;
        self.cells[to & (N - 1)] = 0;
        self.cell_of[tile as usize & (N - 1)] = from as u8;
        self.image_cell_of[tile as usize & (N - 1)] = image_cell[from];
        self.blank = to as u8;
        tile
    }
}

/// Each pattern's entry for a position, and their sums.
#[derive(Clone, Copy)]
struct Estimate<const N: usize> {
    direct: [u8; N],
    direct_sum: u32,
    image: [u8; N],
    image_sum: u32,
    /// A bound from more than the sums (the dual lookup's), else 0.
    floor: u32,
}

impl<const N: usize> Estimate<N> {
    /// The lower bound: the largest of the sums and the floor.
    #[inline]
    fn bound(&self) -> u32 {
        self.direct_sum.max(self.image_sum).max(self.floor)
    }
}

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Found,
    Exhausted,
    Stopped(Stop),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Deadline,
    Cancelled,
    /// Another subtree found a solution.
    Solved,
    /// The walk's budget of nodes ran out.
    Spent,
    /// A child's estimate passed what good tables give ([`Plan::largest`]).
    Damaged {
        /// The estimate.
        estimate: u32,
    },
}

/// The work of a search: nodes generated and expanded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Work {
    pub generated: u64,
    pub expanded: u64,
}

impl std::ops::AddAssign for Work {
    fn add_assign(&mut self, other: Work) {
        self.generated += other.generated;
        self.expanded += other.expanded;
    }
}

impl Work {
    /// Counts this work in `solution`'s, found by a later search.
    pub fn add_to(self, solution: &mut Solution) {
        solution.nodes += self.generated;
        solution.expanded += self.expanded;
    }
}

/// A subtree left for a parallel iteration.
struct Task<const N: usize> {
    position: Position<N>,
    estimate: Estimate<N>,
    depth: u32,
    /// Where the moves to it leave the automaton of duplicates.
    moves_state: DuplicateState,
    path: Vec<Move>,
    /// Its path's key in the history, within [`HISTORY_DEPTH`] moves.
    key: Option<PathKey>,
    /// The lowest estimate the last iteration generated below it, or its
    /// own: the smaller, the sooner it is walked.
    promise: u32,
}

impl<const N: usize> Task<N> {
    /// A walker of this subtree within `bound`, its moves so far `path`
    /// (this task's, or a copy).
    fn walker<'p, 'a, const M: bool>(
        &self,
        plan: &'p Plan<'a, N, M>,
        path: Vec<Move>,
        bound: u32,
    ) -> Walker<'p, 'a, N, M> {
        let mut walker = Walker::new(plan, self.position, path, bound);
        walker.key = self.key.unwrap_or(PathKey::START);
        walker
    }

    /// What `walker`, done with this subtree, found below it, its own
    /// estimate included: the history's record of it, within
    /// [`HISTORY_DEPTH`] moves.
    fn lowest<const M: bool>(&self, walker: &Walker<N, M>) -> Option<(PathKey, u32)> {
        let lowest = walker.low.min(self.estimate.bound());
        self.key.map(|key| (key, lowest))
    }
}

/// One depth-first walk within a bound.
struct Walker<'p, 'a, const N: usize, const M: bool> {
    plan: &'p Plan<'a, N, M>,
    position: Position<N>,
    path: Vec<Move>,
    spent: Work,
    next_check: u64,
    /// The work before this walk, by the iterations before.
    earlier: Work,
    /// The nodes, `earlier` included, at which it stops ([`Stop::Spent`])
    /// unless `budget` grants more.
    allowed: u64,
    /// What a walk of a whole iteration on one thread asks for more nodes.
    budget: Option<&'p mut dyn Budget>,
    bound: u32,
    /// The smallest f above the bound seen: the next iteration's bound.
    next_bound: u32,
    /// The estimate of the position the last walk left, raised by BPMX
    /// from its children's.
    raised: u32,
    /// When set, nodes at this depth are left as tasks, not searched.
    split_at: Option<u32>,
    /// Its subtree's place in the iteration's order (0 for a walk of the
    /// whole tree): it stops once an earlier subtree holds a solution.
    task: usize,
    tasks: Vec<Task<N>>,
    /// The key of the current position's path, while within
    /// [`HISTORY_DEPTH`] moves of the start.
    key: PathKey,
    /// The lowest estimate generated since the current position nearest
    /// the start whose record is due was entered.
    low: u32,
    /// The ranks of the dual lookups of the children of up to four
    /// positions at each depth (see [`Walker::make_room`]), kept here
    /// rather than in each node's frame, which would have to clear them.
    dual_ranks: Vec<[[DualRanks; 4]; 4]>,
}

impl<'p, 'a, const N: usize, const M: bool> Walker<'p, 'a, N, M> {
    fn new(plan: &'p Plan<'a, N, M>, position: Position<N>, path: Vec<Move>, bound: u32) -> Self {
        Walker {
            plan,
            position,
            path,
            spent: Work::default(),
            // The first expansion checks: a deadline may have passed.
            next_check: 0,
            earlier: Work::default(),
            allowed: u64::MAX,
            budget: None,
            bound,
            next_bound: u32::MAX,
            raised: 0,
            split_at: None,
            task: 0,
            tasks: Vec::new(),
            key: PathKey::START,
            low: u32::MAX,
            dual_ranks: Vec::new(),
        }
    }

    /// Makes room for the dual lookups' ranks of children of positions
    /// `depth` moves from the start: those of the position a walk starts
    /// at in slot 0 of its depth, those of the `i`-th child of a position
    /// in slot `i` of the depth below it.
    #[inline]
    fn make_room(&mut self, depth: u32) {
        if self.plan.duals.any() && self.dual_ranks.len() <= depth as usize {
            self.dual_ranks
                .resize(depth as usize + 1, Default::default());
        }
    }

    fn stop(&mut self) -> Option<Stop> {
        let plan = self.plan;
        // Another walker's damage ends the iteration as a solution would;
        // its own stop says why.
        if plan.solved_by.load(Relaxed) < self.task || plan.damaged.load(Relaxed) {
            Some(Stop::Solved)
        } else if let Some(interrupt) = plan.stop_when.interrupted() {
            Some(match interrupt {
                Interrupt::Cancelled => Stop::Cancelled,
                Interrupt::TimedOut => Stop::Deadline,
            })
        } else if self.earlier.generated + self.spent.generated >= self.allowed
            && !self.granted_more()
        {
            Some(Stop::Spent)
        } else {
            None
        }
    }

    /// Asks for more nodes, the iteration's bound proved so far; whether
    /// any were granted.
    fn granted_more(&mut self) -> bool {
        let mut work = self.earlier;
        work += self.spent;
        let more = (self.budget.as_deref_mut()).and_then(|b| b.more(self.bound, work));
        self.allowed = more.unwrap_or(self.allowed);
        more.is_some()
    }

    /// The children of the current position (blank in `from`, reached by
    /// moves that leave the automaton of duplicates in `moves_state`) into
    /// `children`, but for those whose moves end in a duplicate stretch,
    /// with the entries of each one's moved tile read, directly and through
    /// the transpose; returns how many there are.
    #[inline(always)]
    fn expand(
        &mut self,
        from: usize,
        moves_state: DuplicateState,
        children: &mut [Child; 4],
        (level, slot): (usize, usize),
    ) -> usize {
        let plan = self.plan;
        // Every child's entries are asked for before any is read, so that
        // the reads (cache misses in tables of hundreds of megabytes)
        // overlap instead of waiting one for another.
        let mut count = 0;
        for &(code, to) in &plan.steps[from][..plan.step_count[from] as usize] {
            let next_state = plan.duplicates.next(moves_state, code);
            if next_state == Duplicates::SKIP {
                continue;
            }
            let tile = self.position.slide(to as usize, &plan.image_cell) as usize & (N - 1);
            let child = &mut children[count];
            (child.code, child.to, child.tile) = (code, to, tile as u8);
            child.slot = count as u8;
            child.moves_state = next_state;
            let group = plan.group_of[tile];
            if group != NONE {
                let g = &plan.groups[group as usize];
                child.direct_rank = g.rank(&self.position.cell_of, &g.tiles);
                g.prefetch(child.direct_rank);
            }
            let group = plan.image_group_of[tile];
            if plan.transposed && group != NONE {
                let g = &plan.image_groups[group as usize];
                child.image_rank = g.rank(&self.position.image_cell_of, &g.tiles);
                g.prefetch(child.image_rank);
            }
            if plan.duals.serves(to as usize) {
                let ranks = &mut self.dual_ranks[level][slot][count];
                plan.duals
                    .prefetch(&self.position.cells, to as usize, ranks);
            }
            self.position.slide(from, &plan.image_cell);
            count += 1;
        }
        count
    }

    /// Expands each of `children` (of the current position, `depth` moves
    /// from the start) that the bound lets the search enter into the same
    /// place of `grandchildren`; returns how many each has. Expanding them
    /// all before entering any puts their children's reads under way
    /// while the others are expanded and each subtree is searched.
    #[inline(always)]
    fn expand_children(
        &mut self,
        depth: u32,
        children: &[Child],
        grandchildren: &mut [[Child; 4]; 4],
        ordered: bool,
    ) -> [usize; 4] {
        let image_cell = &self.plan.image_cell;
        let from = self.position.blank as usize & (N - 1);
        let mut counts = [0; 4];
        for (i, child) in children.iter().enumerate() {
            if depth + 1 + child.estimate > self.bound {
                match ordered {
                    true => continue,
                    // Best first: the rest are no better.
                    false => break,
                }
            }
            self.position.slide(child.to as usize, image_cell);
            let (to, state) = (child.to as usize, child.moves_state);
            let at = (depth as usize + 1, i);
            counts[i] = self.expand(to, state, &mut grandchildren[i], at);
            self.position.slide(from, image_cell);
        }
        counts
    }

    /// Each child's entries (whose reads [`Walker::expand`] started), sums
    /// and estimate: its entries put in place of their patterns' in
    /// `estimate`, the larger sum the estimate. One loop reads and sums, as
    /// two loops over the same children would end (and be mispredicted)
    /// twice: 2–3% of the time of Korf's 100.
    #[inline(always)]
    fn estimate_children(&self, estimate: &Estimate<N>, children: &mut [Child]) {
        let plan = self.plan;
        for child in children {
            let tile = child.tile as usize;
            let group = plan.group_of[tile];
            child.direct_sum = estimate.direct_sum;
            if group != NONE {
                child.direct = plan.groups[group as usize].entry(child.direct_rank);
                child.direct_sum += child.direct as u32;
                child.direct_sum -= estimate.direct[group as usize] as u32;
            }
            child.image_sum = estimate.image_sum;
            let group = plan.image_group_of[tile];
            if plan.transposed && group != NONE {
                child.image = plan.image_groups[group as usize].entry(child.image_rank);
                child.image_sum += child.image as u32;
                child.image_sum -= estimate.image[group as usize] as u32;
            }
            child.estimate = child.direct_sum.max(child.image_sum);
        }
    }

    /// Raises the estimate of each of `children` (of the current position,
    /// `depth` moves from the start) that the bound would let the search
    /// enter to its dual lookup, whose reads [`Walker::expand`] started at
    /// the ranks it kept for the position in `slot` of its level.
    #[inline(always)]
    fn dual_children(&self, depth: u32, slot: usize, children: &mut [Child]) {
        let duals = &self.plan.duals;
        let ranks = &self.dual_ranks[depth as usize][slot];
        for child in children {
            let to = child.to as usize;
            if depth + 1 + child.estimate <= self.bound && duals.serves(to) {
                let dual = duals.estimate(to, &ranks[child.slot as usize & 3]);
                child.estimate = child.estimate.max(dual);
            }
        }
    }

    /// The estimate of `child`, whose sums [`Walker::estimate_children`]
    /// worked out: `estimate` with the entries of the tile it moved put in.
    #[inline(always)]
    fn child_estimate(&self, estimate: &Estimate<N>, child: &Child) -> Estimate<N> {
        let plan = self.plan;
        let tile = child.tile as usize;
        let mut next = *estimate;
        (next.direct_sum, next.image_sum) = (child.direct_sum, child.image_sum);
        next.floor = child.estimate;
        let group = plan.group_of[tile];
        if group != NONE {
            next.direct[group as usize] = child.direct;
        }
        let group = plan.image_group_of[tile];
        if plan.transposed && group != NONE {
            next.image[group as usize] = child.image;
        }
        next
    }

    /// Searches below the current position, `depth` moves from the start,
    /// reached by moves that leave the automaton of duplicates in
    /// `moves_state`.
    ///
    /// Every child is estimated before any is searched. The estimates are
    /// not consistent (a move can change an entry by more than 1), so a
    /// child's estimate less one can exceed its parent's and prune the
    /// parent with all its children (bidirectional pathmax, BPMX: Felner et
    /// al. 2011). The children are then searched best first, which finds a
    /// solution sooner in the last iteration.
    fn walk(&mut self, depth: u32, estimate: &Estimate<N>, moves_state: DuplicateState) -> Flow {
        let from = self.position.blank as usize & (N - 1);
        let mut children = [Child::default(); 4];
        self.make_room(depth);
        let count = self.expand(from, moves_state, &mut children, (depth as usize, 0));
        self.walk_expanded(depth, estimate, (&mut children[..count], 0))
    }

    /// [`Walker::walk`] from a position already expanded into `children`,
    /// the ranks of their dual lookups kept in `slot` of its depth.
    fn walk_expanded(
        &mut self,
        depth: u32,
        estimate: &Estimate<N>,
        (children, slot): (&mut [Child], usize),
    ) -> Flow {
        let plan = self.plan;
        let from = self.position.blank as usize & (N - 1);
        if self.spent.generated >= self.next_check {
            self.next_check = self.spent.generated + CHECK_EVERY;
            if let Some(stop) = self.stop() {
                return Flow::Stopped(stop);
            }
        }
        self.spent.expanded += 1;
        self.spent.generated += children.len() as u64;
        self.estimate_children(estimate, children);
        if plan.duals.any() {
            self.dual_children(depth, slot, children);
        }
        best_first(children);
        // BPMX: a position is at least one move less far than any child.
        let worst = children.last().map_or(0, |c| c.estimate);
        // One comparison an expansion: damage that reads past what good
        // tables hold stops the search, rather than prune its way to a
        // longer solution.
        if worst > plan.largest {
            return Flow::Stopped(Stop::Damaged { estimate: worst });
        }
        let mut own = estimate.bound().max(worst.saturating_sub(1));
        if let Some(best) = children.first() {
            self.low = self.low.min(best.estimate);
        }
        // Near the start, children go in the last iteration's order, so a
        // child above the bound need not end the loop.
        let ordered = depth < HISTORY_DEPTH && plan.history.is_on();
        if ordered {
            (plan.history).order(self.key, children, |c| {
                (Move::from_code(c.code), c.estimate)
            });
        }
        let mut grandchildren = [[Child::default(); 4]; 4];
        let mut grandchild_count = [0; 4];
        if depth + own <= self.bound && self.split_at != Some(depth + 1) {
            self.make_room(depth + 1);
            grandchild_count = self.expand_children(depth, children, &mut grandchildren, ordered);
        }
        for (i, child) in children.iter().enumerate() {
            if depth + own > self.bound {
                self.next_bound = self.next_bound.min(depth + own);
                break;
            }
            let f = depth + 1 + child.estimate;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                match ordered {
                    true => continue,
                    // The rest are no better.
                    false => break,
                }
            }
            let next = self.child_estimate(estimate, child);
            self.position.slide(child.to as usize, &plan.image_cell);
            self.path.push(Move::from_code(child.code));
            let grandchildren = &mut grandchildren[i][..grandchild_count[i]];
            let flow = self.enter(depth + 1, &next, child, (grandchildren, i), ordered);
            if flow == Flow::Found {
                return flow;
            }
            self.path.pop();
            // Slides the tile back into the cell it came from.
            self.position.slide(from, &plan.image_cell);
            if flow != Flow::Exhausted {
                return flow;
            }
            own = own.max(self.raised.saturating_sub(1));
        }
        self.raised = own;
        Flow::Exhausted
    }

    /// Searches below `child`, just moved to, `depth` moves from the start
    /// (or leaves it as a task at the cut), its estimate `next` and its
    /// children in `grandchildren`, with the slot of their dual lookups'
    /// ranks; when `ordered`, records the lowest estimate generated below
    /// it.
    #[inline(always)]
    fn enter(
        &mut self,
        depth: u32,
        next: &Estimate<N>,
        child: &Child,
        grandchildren: (&mut [Child], usize),
        ordered: bool,
    ) -> Flow {
        let key = ordered.then(|| self.key.then(Move::from_code(child.code)));
        if next.direct_sum == 0 && self.position.cells == self.plan.goal {
            return Flow::Found;
        }
        if self.split_at == Some(depth) {
            self.tasks.push(Task {
                position: self.position,
                estimate: *next,
                depth,
                moves_state: child.moves_state,
                path: self.path.clone(),
                key,
                promise: self.plan.history.rank(key, child.estimate),
            });
            self.raised = child.estimate;
            return Flow::Exhausted;
        }
        let Some(key) = key else {
            return self.walk_expanded(depth, next, grandchildren);
        };
        let (outer_key, outer_low) = (self.key, self.low);
        (self.key, self.low) = (key, child.estimate);
        let flow = self.walk_expanded(depth, next, grandchildren);
        self.plan.history.record(key, self.low);
        (self.key, self.low) = (outer_key, outer_low.min(self.low));
        flow
    }
}

/// Sorts `children` by their estimates, and those with the same estimate
/// by the sum of both lookups' (the direct and the transposed), smallest
/// first: the weaker lookup also says the child is near, so it is the
/// likelier to lie on a shortest path. (On Korf's 100 this takes 2% off
/// the nodes against ties in the moves' order.) An insertion sort, for at
/// most three; further ties stay in the moves' order.
#[inline(always)]
fn best_first(children: &mut [Child]) {
    let key = |c: &Child| (c.estimate, c.direct_sum + c.image_sum);
    for i in 1..children.len() {
        let mut j = i;
        while j > 0 && key(&children[j - 1]) > key(&children[j]) {
            children.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// A child of the node being expanded: the blank's move, the tile it
/// slides, the entries of that tile's pattern directly and through the
/// transpose, and its estimate.
#[derive(Clone, Copy, Default)]
struct Child {
    code: u8,
    to: u8,
    tile: u8,
    direct: u8,
    image: u8,
    /// Its place among its siblings as [`Walker::expand`] made them, where
    /// the ranks of its dual lookup are kept.
    slot: u8,
    /// The ranks `direct` and `image` are read at.
    direct_rank: u32,
    image_rank: u32,
    /// The sums of the direct and transposed entries after the move.
    direct_sum: u32,
    image_sum: u32,
    estimate: u32,
    moves_state: DuplicateState,
}

/// Whether some pattern reads another's table through a symmetry (one
/// other than the second partition's own, for its patterns): searches
/// without shared tables rank with no symmetry to apply.
fn reads_shared_tables<B: AsRef<[u8]>>(db: &PatternDb<B>) -> bool {
    let cells = db.shape().cells();
    db.sources().iter().enumerate().any(|(i, s)| !s.own(i))
        || db.second().is_some_and(|second| {
            let back = second.symmetry.inverse();
            (second.sources.iter()).any(|s| image_mapped(&back, s, cells))
        })
}

/// Whether the second partition's pattern read as `source` ranks its tiles
/// in other cells than the ones the symmetry took them to, on a board of
/// `cells` cells: whether its group is mapped.
fn image_mapped(back: &Symmetry, source: &Source, cells: usize) -> bool {
    (0..cells).any(|c| image_map(back, source, c) != c)
}

/// Where a pattern of the second partition (reading its table as `source`
/// says) ranks the tile whose cell the partition's symmetry took to `c`:
/// its source's image of that cell (`back` undoes the symmetry).
fn image_map(back: &Symmetry, source: &Source, c: usize) -> usize {
    source.cell[back.cell(c)] as usize
}

/// IDA* from `start`, relabelled for the tables' goal ([`PatternDb::goal`]),
/// with `db`'s tables, and the dual lookup of `duals` (worked out for
/// `db`'s goal) where it has one.
#[cfg(test)]
pub(crate) fn ida_star<B: AsRef<[u8]>>(
    db: &PatternDb<B>,
    duals: Option<DualSource<'_, B>>,
    start: &Board,
    options: &SolveOptions,
) -> Result<Solution, SolveError> {
    solved(raise_bound(db, duals, start, &mut Limits::none(), options)?)
}

/// When IDA* may give up short of a solution, asked as it goes: a caller
/// can do other work each time it is asked, then let the search go on
/// from where it stands rather than start it again.
pub(crate) trait Budget {
    /// A lower bound already proved: the first iteration's bound, if more
    /// than the start's estimate.
    fn known(&self) -> u32;

    /// The nodes the search may generate in all before it asks again, or
    /// `None` to give up now; asked with the lower bound proved so far and
    /// the work done in all, as the search starts, whenever an iteration
    /// ends, and whenever the nodes generated reach the last answer (within
    /// an iteration searched on one thread, else once the iteration ends).
    fn grant(&mut self, proved: u32, work: Work) -> Option<u64>;

    /// [`Budget::grant`], but `None` for a grant of no more nodes than
    /// `work` generated.
    fn more(&mut self, proved: u32, work: Work) -> Option<u64> {
        self.grant(proved, work)
            .filter(|&more| more > work.generated)
    }
}

/// Fixed limits: a bound to start from, one to stop at, and a budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// A lower bound already proved (see [`Budget::known`]).
    pub known: u32,
    /// Give up once an iteration proves a lower bound this high.
    pub enough: u32,
    /// Give up after about this many nodes generated.
    pub budget: u64,
}

impl Limits {
    /// None: search until a solution.
    pub const NONE: Limits = Limits {
        known: 0,
        enough: u32::MAX,
        budget: u64::MAX,
    };

    /// [`Limits::NONE`], to lend as a [`Budget`].
    pub fn none() -> Limits {
        Limits::NONE
    }
}

impl Budget for Limits {
    fn known(&self) -> u32 {
        self.known
    }

    fn grant(&mut self, proved: u32, work: Work) -> Option<u64> {
        (proved < self.enough && work.generated < self.budget).then_some(self.budget)
    }
}

/// How a search within a [`Budget`] ended, short of a deadline.
#[derive(Debug)]
pub(crate) enum Raised {
    /// An optimal solution.
    Found(Solution),
    /// A limit was met first: the lower bound proved, and the work done.
    Spent { lower_bound: u32, work: Work },
}

/// The solution of a search without limits, which ends only with one.
pub(crate) fn solved(raised: Raised) -> Result<Solution, SolveError> {
    match raised {
        Raised::Found(solution) => Ok(solution),
        Raised::Spent { .. } => unreachable!("a search without limits ends only when it solves"),
    }
}

/// [`ida_star`] within `budget`: the bounded search raises its lower bound
/// this way, a budget of nodes at a time.
pub(crate) fn raise_bound<B: AsRef<[u8]>>(
    db: &PatternDb<B>,
    duals: Option<DualSource<'_, B>>,
    start: &Board,
    budget: &mut dyn Budget,
    options: &SolveOptions,
) -> Result<Raised, SolveError> {
    // The goal is told by its estimate of 0 before its cells are compared:
    // tables that estimate it above 0 would hide it from the search.
    super::goal_at_zero(db.heuristic(&db.goal()))?;
    match (db.shape().cells() <= NARROW, reads_shared_tables(db)) {
        (true, false) => ida_star_in::<NARROW, false, B>(db, duals, start, budget, options),
        (true, true) => ida_star_in::<NARROW, true, B>(db, duals, start, budget, options),
        (false, false) => ida_star_in::<WIDE, false, B>(db, duals, start, budget, options),
        (false, true) => ida_star_in::<WIDE, true, B>(db, duals, start, budget, options),
    }
}

/// [`ida_star`] through the wide boards' search whatever the board: on
/// boards of up to 16 cells, it must find what the narrow one finds.
#[cfg(test)]
pub(super) fn ida_star_wide<B: AsRef<[u8]>>(
    db: &PatternDb<B>,
    duals: Option<DualSource<'_, B>>,
    start: &Board,
    options: &SolveOptions,
) -> Result<Solution, SolveError> {
    solved(if reads_shared_tables(db) {
        ida_star_in::<WIDE, true, B>(db, duals, start, &mut Limits::none(), options)?
    } else {
        ida_star_in::<WIDE, false, B>(db, duals, start, &mut Limits::none(), options)?
    })
}

/// The walk's view of `start`: each tile's cell, directly and through the
/// transpose, and each pattern's entries.
fn place<const N: usize, const M: bool>(
    plan: &Plan<N, M>,
    start: &Board,
) -> (Position<N>, Estimate<N>) {
    let mut position = Position {
        cells: [0; N],
        cell_of: [0; N],
        image_cell_of: [0; N],
        blank: start.blank() as u8,
    };
    for (c, &t) in start.cells().iter().enumerate() {
        position.cells[c] = t;
        position.cell_of[t as usize] = c as u8;
        position.image_cell_of[t as usize] = plan.image_cell[c];
    }
    let mut estimate = Estimate {
        direct: [0; N],
        direct_sum: 0,
        image: [0; N],
        image_sum: 0,
        floor: 0,
    };
    for (i, g) in plan.groups.iter().enumerate() {
        estimate.direct[i] = g.lookup(&position.cell_of, &g.tiles);
        estimate.direct_sum += estimate.direct[i] as u32;
    }
    for (i, g) in plan.image_groups.iter().enumerate() {
        estimate.image[i] = g.lookup(&position.image_cell_of, &g.tiles);
        estimate.image_sum += estimate.image[i] as u32;
    }
    let blank = position.blank as usize;
    if plan.duals.serves(blank) {
        let mut ranks = DualRanks::default();
        plan.duals.prefetch(&position.cells, blank, &mut ranks);
        estimate.floor = plan.duals.estimate(blank, &ranks);
    }
    (position, estimate)
}

/// [`ida_star`] with `N` cell slots per position; `M` when some pattern
/// reads another's table through a symmetry (without, the 15-puzzle's
/// search ranks exactly as before tables were shared).
fn ida_star_in<const N: usize, const M: bool, B: AsRef<[u8]>>(
    db: &PatternDb<B>,
    duals: Option<DualSource<'_, B>>,
    start: &Board,
    budget: &mut dyn Budget,
    options: &SolveOptions,
) -> Result<Raised, SolveError> {
    let mut plan = plan::<N, M, B>(db, duals, options);
    let (position, estimate) = place(&plan, start);
    within_largest(estimate.bound(), plan.largest)?;
    if position.cells == plan.goal {
        return Ok(Raised::Found(Solution {
            moves: Vec::new(),
            nodes: 0,
            expanded: 0,
        }));
    }
    let mut bound = estimate.bound().max(budget.known());
    let mut work = Work::default();
    let Some(mut allowed) = budget.more(bound, Work::default()) else {
        return Ok(Raised::Spent {
            lower_bound: bound,
            work,
        });
    };
    loop {
        let nodes = work.generated;
        if let Some(report) = options.on_bound {
            report(BoundReport { bound, nodes });
        }
        let (flow, spent, next_bound, path): Iteration = if options.parallel {
            iterate_in_parallel(&plan, position, estimate, bound)
        } else {
            let mut walker = Walker::new(&plan, position, Vec::new(), bound);
            (walker.earlier, walker.allowed) = (work, allowed);
            walker.budget = Some(&mut *budget);
            let flow = walker.walk(0, &estimate, Duplicates::START);
            (flow, walker.spent, walker.next_bound, walker.path)
        };
        work += spent;
        match flow {
            Flow::Found => {
                let mut solution = Solution {
                    moves: path,
                    nodes: 0,
                    expanded: 0,
                };
                work.add_to(&mut solution);
                return Ok(Raised::Found(solution));
            }
            Flow::Stopped(Stop::Deadline) => return Err(Stopped::timed_out(bound, work).into()),
            Flow::Stopped(Stop::Damaged { estimate }) => {
                return Err(within_largest(estimate, plan.largest).expect_err("past the largest"))
            }
            Flow::Stopped(Stop::Spent) => {
                return Ok(Raised::Spent {
                    lower_bound: bound,
                    work,
                })
            }
            Flow::Stopped(_) => return Err(Stopped::cancelled(bound, work).into()),
            // With the goal estimated at 0, a solvable start always has a
            // deeper node to reach; only damaged tables can end here.
            Flow::Exhausted if next_bound == u32::MAX => {
                return Err(SolveError::DamagedTables {
                    damage: Damage::NoWayToGoal,
                })
            }
            // No solution within the bound: none shorter than the next.
            Flow::Exhausted => {
                let Some(more) = budget.more(next_bound, work) else {
                    return Ok(Raised::Spent {
                        lower_bound: next_bound,
                        work,
                    });
                };
                allowed = more;
                bound = next_bound;
                if !plan.history.is_on() {
                    // The next iteration records; the one after orders.
                    plan.history = History::new();
                }
            }
        }
    }
}

/// How an iteration ended, the nodes it took, the next bound (when
/// exhausted) and the moves of the solution (when found).
type Iteration = (Flow, Work, u32, Vec<Move>);

/// One iteration: the tree is cut into subtrees ([`cut`]), which are walked
/// in parallel until one finds a solution. The subtrees are handed out in
/// the order of the lowest estimates the last iteration found below them
/// (see [`History`]), each thread taking the next when done.
fn iterate_in_parallel<const N: usize, const M: bool>(
    plan: &Plan<N, M>,
    position: Position<N>,
    estimate: Estimate<N>,
    bound: u32,
) -> Iteration {
    let (mut tasks, spent, least_above) = match cut(plan, position, estimate, bound) {
        Ok(cut) => cut,
        Err(ended_above) => return ended_above,
    };
    tasks.sort_by_key(|t| t.promise);
    let (next_bound, next_task) = (AtomicU32::new(least_above), AtomicUsize::new(0));
    // Each subtree's nodes, and what it found below positions near the start.
    let walked = Mutex::new((vec![Work::default(); tasks.len()], Vec::new()));
    // The first subtree in order with a solution, and its moves.
    let found: Mutex<Option<(usize, Vec<Move>)>> = Mutex::new(None);
    let stopped: Mutex<Option<Stop>> = Mutex::new(None);
    let walk = |index: usize, task: &Task<N>| {
        let mut walker = task.walker(plan, task.path.clone(), bound);
        walker.task = index;
        let flow = walker.walk(task.depth, &task.estimate, task.moves_state);
        {
            let mut walked = walked.lock().expect("no walker panics holding the lock");
            walked.0[index] = walker.spent;
            walked.1.extend(task.lowest(&walker));
        }
        next_bound.fetch_min(walker.next_bound, Relaxed);
        match flow {
            Flow::Found => {
                plan.solved_by.fetch_min(index, Relaxed);
                let mut found = found.lock().expect("no walker panics holding the lock");
                if found.as_ref().is_none_or(|(first, _)| index < *first) {
                    *found = Some((index, walker.path));
                }
            }
            Flow::Stopped(Stop::Solved) | Flow::Exhausted => {}
            Flow::Stopped(stop) => {
                let mut stopped = stopped.lock().expect("no walker panics holding the lock");
                // Damage is what the iteration reports, whatever else ended
                // the other walks.
                if let Stop::Damaged { .. } = stop {
                    plan.damaged.store(true, Relaxed);
                    *stopped = Some(stop);
                } else if !matches!(*stopped, Some(Stop::Damaged { .. })) {
                    *stopped = Some(stop);
                }
            }
        }
    };
    (0..rayon::current_num_threads())
        .into_par_iter()
        .for_each(|_| loop {
            let index = next_task.fetch_add(1, Relaxed);
            let Some(task) = tasks.get(index) else {
                return;
            };
            if plan.solved_by.load(Relaxed) < index || plan.damaged.load(Relaxed) {
                return;
            }
            walk(index, task);
        });
    let (by_task, lows) = walked.into_inner().expect("no walker panicked");
    for (key, low) in lows {
        plan.history.lower_path(key, low);
    }
    let found = found.into_inner().expect("no walker panicked");
    let stopped = stopped.into_inner().expect("no walker panicked");
    // With a solution, the subtrees after its own are not counted: what
    // they did before they stopped depends on the threads' timing.
    let counted = found.as_ref().map_or(by_task.len(), |(first, _)| first + 1);
    let mut spent = spent;
    for work in &by_task[..counted] {
        spent += *work;
    }
    match (found, stopped) {
        // A solution found through damaged tables need not be a shortest.
        (_, Some(stop @ Stop::Damaged { .. })) => (Flow::Stopped(stop), spent, 0, Vec::new()),
        (Some((_, path)), _) => (Flow::Found, spent, 0, path),
        (None, Some(stop)) => (Flow::Stopped(stop), spent, 0, Vec::new()),
        (None, None) => (Flow::Exhausted, spent, next_bound.into_inner(), Vec::new()),
    }
}

/// The subtrees of one iteration, cut at the first depth with enough of
/// them for the pool's threads, with the nodes above the cut and the least
/// f above the bound among them; or how the iteration ended above the cut.
/// The cut deepens one level at a time, each level expanding the subtrees
/// of the one before (so every node is generated once), and stops
/// deepening after [`SPLIT_NODES`] nodes: an iteration whose tree is that
/// narrow is over about as soon as it is cut.
fn cut<const N: usize, const M: bool>(
    plan: &Plan<N, M>,
    position: Position<N>,
    estimate: Estimate<N>,
    bound: u32,
) -> Result<(Vec<Task<N>>, Work, u32), Iteration> {
    let wanted = TASKS_PER_THREAD * rayon::current_num_threads();
    let mut spent = Work::default();
    let mut least_above = u32::MAX;
    let mut tasks = vec![Task {
        position,
        estimate,
        depth: 0,
        moves_state: Duplicates::START,
        path: Vec::new(),
        key: Some(PathKey::START),
        promise: 0,
    }];
    while tasks.len() < wanted && spent.generated < SPLIT_NODES && !tasks.is_empty() {
        let mut deeper = Vec::new();
        for mut task in tasks {
            let path = std::mem::take(&mut task.path);
            let mut walker = task.walker(plan, path, bound);
            walker.split_at = Some(task.depth + 1);
            let flow = walker.walk(task.depth, &task.estimate, task.moves_state);
            if let Some((key, lowest)) = task.lowest(&walker) {
                plan.history.lower_path(key, lowest);
            }
            spent += walker.spent;
            least_above = least_above.min(walker.next_bound);
            if flow != Flow::Exhausted {
                // Solved (or stopped) above the cut.
                return Err((flow, spent, least_above, walker.path));
            }
            deeper.append(&mut walker.tasks);
        }
        tasks = deeper;
    }
    Ok((tasks, spent, least_above))
}

/// Each pattern of `db` as the walk reads it, and the pattern of each tile.
fn groups<'a, const N: usize, const M: bool, B: AsRef<[u8]>>(
    db: &'a PatternDb<B>,
) -> (Vec<Group<'a, N, M>>, [u8; N]) {
    let mut group_of = [NONE; N];
    let mut groups = Vec::with_capacity(db.sources().len());
    for (index, (source, ranker)) in db.sources().iter().zip(db.rankers()).enumerate() {
        let map = |c| source.cell.get(c).copied().unwrap_or(c as u8);
        let group = group(source, *ranker, db.table_of(index), !source.own(index), map);
        for &tile in &source.tiles {
            group_of[tile as usize] = index as u8;
        }
        groups.push(group);
    }
    (groups, group_of)
}

/// Each pattern of `db`'s second partition as the walk reads it through
/// the transpose, and the pattern of each tile.
fn image_groups<'a, const N: usize, const M: bool, B: AsRef<[u8]>>(
    db: &'a PatternDb<B>,
) -> (Vec<Group<'a, N, M>>, [u8; N]) {
    let shape = db.shape();
    let mut image_group_of = [NONE; N];
    let mut groups = Vec::new();
    let Some(second) = db.second() else {
        return (groups, image_group_of);
    };
    let back = second.symmetry.inverse();
    for (index, source) in second.sources.iter().enumerate() {
        let ranker = PlacementRanker::new(shape.cells(), source.tiles.len())
            .expect("a pattern of the partition's size");
        let map = |c| match c < shape.cells() {
            true => image_map(&back, source, c) as u8,
            false => c as u8,
        };
        let mapped = image_mapped(&back, source, shape.cells());
        groups.push(group(source, ranker, db.second_table(source), mapped, map));
        for &tile in &source.tiles {
            image_group_of[tile as usize] = index as u8;
        }
    }
    (groups, image_group_of)
}

/// The pattern `source` reads, from `table` through the cell map `map`.
fn group<'a, const N: usize, const M: bool>(
    source: &Source,
    ranker: PlacementRanker,
    table: &'a [u8],
    mapped: bool,
    map: impl Fn(usize) -> u8,
) -> Group<'a, N, M> {
    let mut tiles = [0; TILES];
    tiles[..source.tiles.len()].copy_from_slice(&source.tiles);
    Group {
        tiles,
        len: source.tiles.len(),
        ranker,
        table,
        mapped,
        map: std::array::from_fn(map),
    }
}

/// The tables and moves of `db` laid out for the walk, with the dual
/// lookup of `duals` (none without).
fn plan<'a, const N: usize, const M: bool, B: AsRef<[u8]>>(
    db: &'a PatternDb<B>,
    duals: Option<DualSource<'a, B>>,
    options: &SolveOptions<'a>,
) -> Plan<'a, N, M> {
    let shape = db.shape();
    let n = shape.cells();
    // Each tile's cell under the second partition's symmetry, which its
    // patterns rank (through another symmetry where they read another
    // pattern's table).
    let image_cell: [u8; N] = std::array::from_fn(|c| match (db.second(), c < n) {
        (Some(second), true) => second.symmetry.cell(c) as u8,
        _ => c as u8,
    });
    let (mut groups, group_of) = groups(db);
    let (mut image_groups, image_group_of) = image_groups(db);
    // Every pattern is ranked in as many steps as the largest has tiles,
    // the smaller ones' last steps on the blank's tile, whose weight is 0
    // (`PlacementRanker::rank`): a move's pattern is one or another at
    // random, and a loop that ends after 7 steps one time and 8 the next
    // is mispredicted half the time. 3–4% off Korf's 100 with `7-8`.
    let steps = (groups.iter().chain(&image_groups)).map(|g| g.len).max();
    for g in groups.iter_mut().chain(image_groups.iter_mut()) {
        g.len = steps.unwrap_or(0);
    }
    let mut steps = [[(0u8, 0u8); 4]; N];
    let mut step_count = [0u8; N];
    let goal = db.goal();
    for cell in 0..n {
        // Any board with the blank in `cell` tells where its moves lead.
        let mut cells: Vec<u64> = (0..n as u64).collect();
        cells.swap(0, cell);
        let board = Board::new(shape, &cells).expect("a permutation of the cells");
        for m in Move::ALL {
            if let Some(to) = board.target(m) {
                steps[cell][step_count[cell] as usize] = (m.code(), to as u8);
                step_count[cell] += 1;
            }
        }
    }
    let mut goal_cells = [0u8; N];
    goal_cells[..n].copy_from_slice(goal.cells());
    Plan {
        transposed: !image_groups.is_empty(),
        groups,
        group_of,
        image_groups,
        image_group_of,
        image_cell,
        steps,
        step_count,
        // From the first iteration on: it saves nodes there too, and costs
        // no time that the searches ending in it show (docs/benchmarks.md).
        duals: Duals::of(duals),
        duplicates: Duplicates::get(),
        largest: (duals.iter().flat_map(|d| d.sets.iter()))
            .map(PatternDb::largest_estimate)
            .fold(db.largest_estimate(), u32::max),
        goal: goal_cells,
        stop_when: *options,
        solved_by: AtomicUsize::new(usize::MAX),
        damaged: AtomicBool::new(false),
        history: History::OFF,
    }
}
