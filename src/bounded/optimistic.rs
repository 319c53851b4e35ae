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
//! * plain IDA* at weight 1 ([`super::ida::raise_bound`]), on a budget of
//!   nodes, raises the lower bound by two with each iteration it completes
//!   (or, on small problems, finds the optimum).
//!
//! How wide the beams grow and how many nodes the bound gets depend on the
//! estimate ([`Schedule`], chosen by each [`Guide`]). After the rounds
//! without a proof, [`super::solve_within`] falls back on weighted A*, whose
//! answer is within W by construction.

use super::beam::beam;
use super::guide::Guide;
use super::ida::{parity_of, to_parity, Bounded, Iterated};
use super::weight::{Weight, SCALE};
use crate::pattern::{Limits, Solution, SolveError, SolveOptions};
use crate::puzzle::board::Board;

/// The rounds of an optimistic search: in each, a beam of the round's
/// width, then IDA* for `share` times the nodes the beam took, or for the
/// round's least budget if that is more (the first iterations cost little,
/// and a beam may take few nodes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Schedule {
    /// Per round: the beam's width, and the least IDA* budget in nodes.
    pub rounds: &'static [(usize, u64)],
    pub share: u64,
}

impl Schedule {
    /// For Manhattan distance and linear conflicts, whose bound rises fast
    /// per node but whose beams wander: beams four times wider each round,
    /// the bound twice the beam's nodes. On 100 random 6×6 positions at
    /// W = 2 every one is proved within 1 s (docs/benchmarks.md).
    pub const GROWING: Schedule = Schedule {
        rounds: &[
            (256, 100_000),
            (1_024, 100_000),
            (4_096, 100_000),
            (16_384, 100_000),
        ],
        share: 2,
    };

    /// For pattern databases, whose beams come closer to the optimum but
    /// whose bound rises slowly: a beam of 1,024, up to 3.2 million nodes
    /// of IDA*, a beam of 16,384 and up to 8 million more, then wide
    /// beams. On 100 random 5×5 positions at W = 1.2 (seed 2) it proves 91
    /// within 1 s, with a second beam of 8,192 85, and with
    /// [`Schedule::GROWING`] 77 (docs/benchmarks.md). The last beam (about
    /// 10 s and 0.9 GB on 5×5) answers some positions that weighted A*, the
    /// fallback, does not answer in minutes.
    pub const PATTERNS: Schedule = Schedule {
        rounds: &[
            (1_024, 3_200_000),
            (16_384, 8_000_000),
            (65_536, 3_200_000),
            (262_144, 3_200_000),
        ],
        share: 1,
    };

    /// Rounds in all.
    pub fn rounds(&self) -> usize {
        self.rounds.len()
    }
}

/// What the rounds found, proved or not.
pub(crate) struct Attempt {
    /// The shortest solution found, if any.
    pub shortest: Option<Solution>,
    /// The best lower bound proved.
    pub lower_bound: u32,
    /// Nodes generated in all.
    pub nodes: u64,
}

/// Up to `rounds` rounds of `guide`'s [`Schedule`] (all of them by
/// default) of beam search and bound raising from `start` to `goal` (a
/// solvable pair of one shape): `Ok` with a solution proved within `weight`
/// by its lower bound, or `Err` with what was found.
pub(crate) fn optimistic<G: Guide>(
    guide: &G,
    start: &Board,
    goal: &Board,
    weight: Weight,
    rounds: usize,
    options: &SolveOptions,
) -> Result<Result<Bounded, Attempt>, SolveError> {
    let parity = parity_of(start, goal);
    let h0 = G::value(&guide.start(start));
    let mut attempt = Attempt {
        shortest: None,
        lower_bound: to_parity(h0, parity),
        nodes: 0,
    };
    let schedule = G::SCHEDULE;
    for &(width, least) in schedule.rounds.iter().take(rounds) {
        // A stop reports the best bound of every round, and all their nodes.
        let (found, spent) = beam(
            guide,
            (start, goal),
            width,
            longest(&attempt, weight),
            options,
        )
        .map_err(|stop| stop.after(attempt.lower_bound, attempt.nodes))?;
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
        let budget = (schedule.share * spent).max(least);
        let limits = Limits {
            known: attempt.lower_bound,
            enough: enough(&attempt, weight),
            budget,
        };
        let raised = guide
            .raise_bound(start, goal, limits, options)
            .map_err(|error| error.after(attempt.lower_bound, attempt.nodes))?;
        match raised {
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

/// The least lower bound that would prove the shortest solution within
/// `weight`: no more IDA* is needed once it is reached.
fn enough(attempt: &Attempt, weight: Weight) -> u32 {
    attempt.shortest.as_ref().map_or(u32::MAX, |s| {
        let scaled = SCALE as u64 * s.moves.len() as u64;
        scaled.div_ceil(weight.thousandths() as u64) as u32
    })
}

/// Whether the shortest solution is at most `weight` times the bound.
fn proves(attempt: &Attempt, weight: Weight) -> bool {
    attempt.lower_bound >= enough(attempt, weight)
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
