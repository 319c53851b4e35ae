//! Optimistic search: find a short solution fast, then prove it.
//!
//! A solution of length C is within W of the optimum C* whenever
//! C ≤ W·L for some lower bound L ≤ C*. So the search need not be weighted
//! at all: any solution will do once a bound shows it short enough (Thayer
//! & Ruml 2008, "Faster than weighted A*: an optimistic approach to
//! bounded suboptimal search"). Two kinds of work alternate, each round
//! about four times the last, and the answer is taken as soon as they meet:
//!
//! * a beam search ([`super::beam`]) of growing width finds solutions,
//!   short but unproved; the shortest is kept;
//! * plain IDA* at weight 1 ([`super::ida::raise_bound`]), for twice the
//!   nodes the beam took, raises the lower bound by two with each
//!   iteration it completes (or, on small problems, finds the optimum).
//!
//! After [`ROUNDS`] rounds (by default) without a proof, [`super::solve_within`] falls
//! back on weighted A*, whose answer is within W by construction.

use super::beam::beam;
use super::guide::Guide;
use super::ida::{parity_of, raise_bound, Bounded, Iterated};
use super::weight::{Weight, SCALE};
use crate::pattern::{Solution, SolveOptions, Stopped};
use crate::puzzle::board::Board;

/// The first round's beam width.
const FIRST_WIDTH: usize = 256;

/// Rounds tried, each beam four times as wide as the last: 256 to 16,384.
pub(crate) const ROUNDS: u32 = 4;

/// The IDA* budget of a round, in nodes per node of its beam: on 100
/// random 5×5 positions at W = 1.2, twice the beam's nodes proved 75
/// within 1 s (median 0.26 s), the same nodes 73 (0.47 s), four times 22
/// of the first 30 against 23 (docs/benchmarks.md).
const BOUND_SHARE: u64 = 2;

/// The IDA* budget of a round at least, in nodes: enough for the first
/// iterations, which cost little, even where the beam took few nodes.
const LEAST_BUDGET: u64 = 100_000;

/// What the rounds found, proved or not.
pub(crate) struct Attempt {
    /// The shortest solution found, if any.
    pub shortest: Option<Solution>,
    /// The best lower bound proved.
    pub lower_bound: u32,
    /// Nodes generated in all.
    pub nodes: u64,
}

/// Up to `rounds` rounds ([`ROUNDS`] is the default) of beam search and bound raising from `start`
/// to `goal` (a solvable pair of one shape) with `guide`: `Ok` with a
/// solution proved within `weight` by its lower bound, or `Err` with what
/// was found.
pub(crate) fn optimistic<G: Guide>(
    guide: &G,
    start: &Board,
    goal: &Board,
    weight: Weight,
    rounds: u32,
    options: &SolveOptions,
) -> Result<Result<Bounded, Attempt>, Stopped> {
    let parity = parity_of(start, goal);
    let h0 = G::value(&guide.start(start));
    let mut attempt = Attempt {
        shortest: None,
        lower_bound: h0 + (h0 % 2 != parity) as u32,
        nodes: 0,
    };
    for round in 0..rounds {
        let width = FIRST_WIDTH << (2 * round);
        let (found, spent) = beam(
            guide,
            (start, goal),
            width,
            longest(&attempt, weight),
            options,
        )?;
        attempt.nodes += spent;
        if let Some(found) = found {
            let shorter = attempt
                .shortest
                .as_ref()
                .is_none_or(|s| found.moves.len() < s.moves.len());
            if shorter {
                attempt.shortest = Some(found);
            }
        }
        if proves(&attempt, weight) {
            return Ok(Ok(accept(attempt)));
        }
        let budget = (BOUND_SHARE * spent).max(LEAST_BUDGET);
        match raise_bound(guide, start, goal, attempt.lower_bound, budget, options)? {
            Iterated::Found(mut optimal) => {
                optimal.solution.nodes += attempt.nodes;
                return Ok(Ok(optimal));
            }
            Iterated::Spent { lower_bound, nodes } => {
                attempt.lower_bound = attempt.lower_bound.max(lower_bound);
                attempt.nodes += nodes;
            }
        }
        if proves(&attempt, weight) {
            return Ok(Ok(accept(attempt)));
        }
    }
    Ok(Err(attempt))
}

/// The longest solution worth a beam's search: shorter than the shortest
/// found, and at most four times what the bound could prove today (the
/// bound rises, but seldom by more than a few percent).
fn longest(attempt: &Attempt, weight: Weight) -> usize {
    let provable = weight.thousandths() as u64 * attempt.lower_bound.max(1) as u64 / SCALE as u64;
    let cap = 4 * provable as usize + 64;
    match &attempt.shortest {
        Some(s) => cap.min(s.moves.len().saturating_sub(1)),
        None => cap,
    }
}

/// Whether the shortest solution is at most `weight` times the bound.
fn proves(attempt: &Attempt, weight: Weight) -> bool {
    attempt.shortest.as_ref().is_some_and(|s| {
        SCALE as u64 * s.moves.len() as u64
            <= weight.thousandths() as u64 * attempt.lower_bound as u64
    })
}

/// The proved answer, its nodes counted over every round.
fn accept(attempt: Attempt) -> Bounded {
    let mut solution = attempt.shortest.expect("a proof needs a solution");
    solution.nodes = attempt.nodes;
    Bounded {
        solution,
        lower_bound: attempt.lower_bound,
    }
}
