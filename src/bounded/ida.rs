//! Weighted IDA*: depth-first searches bounded by f = g + W·h, the bound
//! raised each time to the smallest f that exceeded it.
//!
//! # Why the answer is within W, and the lower bound it proves
//! Counted in thousandths, f = 1000·g + w·h with w = 1000·W. Along an
//! optimal path of length C*, every node has g + h ≤ C* (h is admissible),
//! so f ≤ w·(g + h) ≤ w·C*; the goal at its end has f = 1000·C*.
//!
//! * An iteration with bound T that finds no solution has cut that path,
//!   so some node on it has f > T: w·C* > T, and C* ≥ ⌊T / w⌋ + 1.
//! * Each bound is the smallest f above the last, so no bound exceeds the
//!   largest f on the optimal path, w·C*. A solution found within bound T
//!   has 1000·C ≤ T ≤ w·C*: C ≤ W·C*.
//!
//! Every solution's length has the parity of the blank's distance to its
//! goal cell (each move changes that distance by one), so a lower bound
//! rounds up to that parity.
//!
//! Nodes are counted as the pattern search counts them: generated, the
//! move back to the parent excluded.

use super::guide::Guide;
use super::weight::{Weight, SCALE};
use crate::pattern::{
    BoundReport, Budget, Interrupt, Limits, Solution, SolveOptions, Stopped, Work,
};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::duplicates::{DuplicateState, Duplicates};

/// Nodes between checks of the deadline and the cancel flag.
const CHECK_EVERY: u64 = 4096;

/// A solution within the weight, and the lower bound on the optimum that
/// proves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounded {
    /// The moves and the nodes searched.
    pub solution: Solution,
    /// No solution is shorter: the heuristic at the start or what the last
    /// completed iteration proved, rounded up to the parity every
    /// solution's length has.
    pub lower_bound: u32,
}

/// One depth-first iteration.
struct Walker<'a, 'b, G: Guide> {
    guide: &'a G,
    goal: &'a Board,
    weight: u64,
    bound: u64,
    /// The smallest f above the bound seen: the next iteration's bound.
    next_bound: u64,
    board: Board,
    path: Vec<Move>,
    /// The move sequences not worth following.
    duplicates: &'static Duplicates,
    generated: u64,
    expanded: u64,
    next_check: u64,
    /// Nodes at which to give up with [`Flow::Spent`], unless `budget`
    /// grants more.
    allowed: u64,
    budget: &'b mut dyn Budget,
    /// The lower bound proved before this iteration: what `budget` is told.
    proved: u32,
    /// The deadline and the cancel flag.
    stop_when: SolveOptions<'a>,
}

/// Levels of the walk between two looks at the stack left: a walk goes as
/// deep as W times the optimum (3,634 levels of 576 bytes overflowed the
/// 2 MiB of a thread of Python's), and a look every level would cost
/// time on every node.
const STACK_CHECK_EVERY: u32 = 32;

/// The stack a look wants left, for the levels until the next one (a
/// debug build's frames are several times a release build's).
const STACK_RED_ZONE: usize = 1 << 20;

/// The stack allocated when less is left.
const STACK_SEGMENT: usize = 16 << 20;

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Found,
    Exhausted,
    TimedOut,
    Cancelled,
    /// The node budget ran out.
    Spent,
}

/// A child about to be searched: the blank's move and the cell it moves
/// to (the board is made again when the child is searched: less to copy
/// than keeping it), its estimate, and the automaton of duplicates after
/// its moves.
struct Child<M> {
    m: Move,
    /// The cell the blank moves to.
    to: u8,
    memo: M,
    h: u32,
    moves: DuplicateState,
}

impl<'a, 'b, G: Guide> Walker<'a, 'b, G> {
    /// A walker from `start`, its bound, budget and bound proved still to
    /// be set.
    fn new(
        guide: &'a G,
        (start, goal): (&Board, &'a Board),
        weight: Weight,
        budget: &'b mut dyn Budget,
        options: &SolveOptions<'a>,
    ) -> Self {
        Walker {
            guide,
            goal,
            weight: weight.thousandths() as u64,
            bound: 0,
            next_bound: 0,
            board: *start,
            path: Vec::new(),
            duplicates: Duplicates::get(),
            generated: 0,
            expanded: 0,
            next_check: CHECK_EVERY,
            allowed: 0,
            budget,
            proved: 0,
            stop_when: *options,
        }
    }

    /// The nodes generated and expanded so far.
    fn work(&self) -> Work {
        Work {
            generated: self.generated,
            expanded: self.expanded,
        }
    }

    fn f(&self, g: u32, h: u32) -> u64 {
        SCALE as u64 * g as u64 + self.weight * h as u64
    }

    fn stopped(&mut self) -> Option<Flow> {
        if self.generated < self.next_check {
            return None;
        }
        self.next_check = self.generated + CHECK_EVERY;
        if self.generated >= self.allowed {
            match self.budget.more(self.proved, self.work()) {
                Some(more) => self.allowed = more,
                None => return Some(Flow::Spent),
            }
        }
        self.stop_when
            .interrupted()
            .map(|interrupt| match interrupt {
                Interrupt::Cancelled => Flow::Cancelled,
                Interrupt::TimedOut => Flow::TimedOut,
            })
    }

    /// Searches below `self.board`, `g` moves from the start, reached by
    /// moves that leave the automaton of duplicate stretches in `moves`:
    /// a child whose moves end in one is not generated, since another
    /// sequence as short reaches it, and the first shortest path to any
    /// position has no such stretch.
    fn walk(&mut self, g: u32, memo: &G::Memo, moves: DuplicateState) -> Flow {
        if let Some(stop) = self.stopped() {
            return stop;
        }
        self.expanded += 1;
        let from = self.board.blank();
        let mut children: [Option<Child<G::Memo>>; 4] = [None, None, None, None];
        let mut count = 0;
        for m in Move::ALL {
            let child_moves = self.duplicates.next(moves, m.code());
            if child_moves == Duplicates::SKIP {
                continue;
            }
            let Some(to) = self.board.target(m) else {
                continue;
            };
            self.generated += 1;
            let tile = self.board.cells()[to];
            let board = self.board.slide_from(to);
            let memo = self.guide.slid(memo, &board, tile, to, from);
            let h = G::value(&memo);
            let f = self.f(g + 1, h);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            children[count] = Some(Child {
                m,
                to: to as u8,
                memo,
                h,
                moves: child_moves,
            });
            count += 1;
        }
        // The most promising child first: the last iteration stops at the
        // first solution, and one near the goal is found soonest. Their
        // order is sorted, not the children, whose memos are large to move.
        let mut order = [0, 1, 2, 3];
        order[..count].sort_by_key(|&i| children[i].as_ref().map(|c| c.h));
        for child in order[..count].iter().filter_map(|&i| children[i].as_ref()) {
            let parent = self.board;
            self.board = parent.slide_from(child.to as usize);
            self.path.push(child.m);
            let flow = if child.h == 0 && self.board == *self.goal {
                Flow::Found
            } else if (g + 1).is_multiple_of(STACK_CHECK_EVERY) {
                // A walk at W = 100 may go tens of thousands of moves deep:
                // every so many levels, a new stack where this one runs low.
                stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                    self.walk(g + 1, &child.memo, child.moves)
                })
            } else {
                self.walk(g + 1, &child.memo, child.moves)
            };
            if flow == Flow::Found {
                return flow;
            }
            self.path.pop();
            self.board = parent;
            if flow != Flow::Exhausted {
                return flow;
            }
        }
        Flow::Exhausted
    }
}

/// `bound` raised by one if need be to `parity` ([`parity_of`]): a lower
/// bound on solutions' lengths is then one still.
pub(crate) fn to_parity(bound: u32, parity: u32) -> u32 {
    bound + (bound % 2 != parity) as u32
}

/// The parity every solution's length has: the blank's distance to its
/// goal cell's, since each move changes that distance by one.
pub(crate) fn parity_of(start: &Board, goal: &Board) -> u32 {
    let blank_distance = start.shape().steps_between(start.blank(), goal.blank());
    blank_distance as u32 % 2
}

/// Weighted IDA* from `start` to `goal` (a solvable pair of one shape)
/// with `guide`, which must estimate toward `goal`.
pub(crate) fn weighted_ida_star<G: Guide>(
    guide: &G,
    start: &Board,
    goal: &Board,
    weight: Weight,
    options: &SolveOptions,
) -> Result<Bounded, Stopped> {
    match iterate(guide, (start, goal), weight, &mut Limits::none(), options)? {
        Iterated::Found(found) => Ok(found),
        Iterated::Spent { .. } => unreachable!("no budget was set"),
    }
}

/// How a budgeted run of IDA* ended.
pub(crate) enum Iterated {
    /// A solution within the weight (optimal at weight 1).
    Found(Bounded),
    /// The budget ran out first: the lower bound its completed iterations
    /// proved, and the work they took.
    Spent { lower_bound: u32, work: Work },
}

/// Plain IDA* (weight 1) from `start` to `goal` within `budget`: a better
/// lower bound (returned as soon as the budget grants no more), or an
/// optimal solution.
pub(crate) fn raise_bound<G: Guide>(
    guide: &G,
    start: &Board,
    goal: &Board,
    budget: &mut dyn Budget,
    options: &SolveOptions,
) -> Result<Iterated, Stopped> {
    let raised = iterate(guide, (start, goal), Weight::OPTIMAL, budget, options)?;
    Ok(match raised {
        // At weight 1 a solution found is the optimum: its own bound.
        Iterated::Found(mut optimal) => {
            optimal.lower_bound = optimal.solution.moves.len() as u32;
            Iterated::Found(optimal)
        }
        spent => spent,
    })
}

/// IDA* with `weight`, its first bound raised to f = 1000·`budget.known()`
/// where that is more than the start's own, until a solution, or until
/// the budget grants no more nodes.
fn iterate<G: Guide>(
    guide: &G,
    (start, goal): (&Board, &Board),
    weight: Weight,
    budget: &mut dyn Budget,
    options: &SolveOptions,
) -> Result<Iterated, Stopped> {
    let parity = parity_of(start, goal);
    let memo = guide.start(start);
    let known = budget.known();
    let mut lower_bound = to_parity(G::value(&memo).max(known), parity);
    let mut walker = Walker::new(guide, (start, goal), weight, budget, options);
    // At weight W a bound below W·known could prove no more than known.
    walker.bound = walker
        .f(0, G::value(&memo))
        .max(walker.weight * known as u64);
    if start == goal {
        return Ok(Iterated::Found(Bounded {
            solution: Solution {
                moves: Vec::new(),
                nodes: 0,
                expanded: 0,
            },
            lower_bound: 0,
        }));
    }
    walker.proved = lower_bound;
    let Some(allowed) = walker.budget.more(lower_bound, Work::default()) else {
        let work = Work::default();
        return Ok(Iterated::Spent { lower_bound, work });
    };
    walker.allowed = allowed;
    loop {
        if let Some(report) = options.on_bound {
            report(BoundReport {
                bound: lower_bound,
                nodes: walker.generated,
            });
        }
        walker.next_bound = u64::MAX;
        let flow = walker.walk(0, &memo, Duplicates::START);
        let work = walker.work();
        let (bound, nodes, expanded) = (lower_bound, work.generated, work.expanded);
        match flow {
            Flow::Found => {
                let (moves, lower_bound) = (walker.path, bound);
                let solution = Solution {
                    moves,
                    nodes,
                    expanded,
                };
                return Ok(Iterated::Found(Bounded {
                    solution,
                    lower_bound,
                }));
            }
            Flow::TimedOut => return Err(Stopped::timed_out(bound, work)),
            Flow::Cancelled => return Err(Stopped::cancelled(bound, work)),
            Flow::Spent => return Ok(Iterated::Spent { lower_bound, work }),
            Flow::Exhausted => {
                // A solvable start always has a deeper node to reach, since
                // every guide estimates the goal at 0 (`solve_within`
                // refuses tables that do not).
                assert!(
                    walker.next_bound != u64::MAX,
                    "the search ran out of positions"
                );
                let proved = (walker.bound / walker.weight) as u32 + 1;
                lower_bound = lower_bound.max(to_parity(proved, parity));
                match walker.budget.more(lower_bound, work) {
                    Some(more) => walker.allowed = more,
                    None => return Ok(Iterated::Spent { lower_bound, work }),
                }
                (walker.proved, walker.bound) = (lower_bound, walker.next_bound);
            }
        }
    }
}
