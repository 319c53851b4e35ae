//! Optimistic search: find a short solution fast, then prove it.
//!
//! A solution of length C is within W of the optimum C* whenever
//! C ≤ W·L for some lower bound L ≤ C*. So the search need not be weighted
//! at all: any solution will do once a bound shows it short enough (Thayer
//! & Ruml 2008, "Faster than weighted A*: an optimistic approach to
//! bounded suboptimal search"). Two kinds of work alternate, each round
//! about four times the last, and the answer is taken as soon as they meet:
//!
//! * before any beam, a solution is made the way a person solves the
//!   puzzle ([`super::constructive`]), a few times the shortest: at a
//!   large W the start's estimate proves it at once, and every beam
//!   searches only for something shorter;
//! * a beam search ([`super::beam`]) of growing width finds solutions,
//!   short but unproved (with pattern tables past 16 cells, from both
//!   ends: see [`super::backward`], and in one round again from points
//!   along the shortest: [`refined`]); the shortest is kept;
//! * plain IDA* at weight 1 ([`super::ida::raise_bound`]) raises the lower
//!   bound by two with each iteration it completes (or, on small problems,
//!   finds the optimum). It is one search for all the rounds: when it has
//!   spent a round's nodes it waits, in the middle of its iteration, while
//!   the next round's beam runs, and then goes on from where it stood
//!   ([`crate::pattern::Budget`]). Started afresh each round, it would
//!   search again the iterations it had done, and lose the part of an
//!   iteration the budget cut short, often most of the round's nodes.
//!
//! How wide the beams grow and how many nodes the bound gets depend on the
//! estimate ([`Schedule`], chosen by each [`Guide`]). A schedule may end
//! with IDA* on no budget, which runs until its bound proves the shortest
//! solution, or finds the optimum, and needs no memory; after the rounds
//! of one that does not, [`super::solve_within`] falls back on weighted
//! A*, whose answer is within W by construction.

use super::beam::{beam, refined, two_way};
use super::constructive::constructive;
use super::guide::Guide;
use super::ida::{parity_of, to_parity, Bounded, Iterated};
use super::weight::{Weight, SCALE};
use crate::pattern::{Budget, Solution, SolveError, SolveOptions, Stopped, Work};
use crate::puzzle::board::Board;

/// One round of an optimistic search: a beam of `width` (or two, one from
/// each end), beams of `refine` from points along the shortest solution
/// if `refine` is not 0 ([`refined`]), then IDA* for the schedule's share
/// of the beams' nodes, or for `least` nodes if that is more (the first
/// iterations cost little, and a beam may take few nodes). A `least` of
/// `u64::MAX` lets IDA* run until it proves the shortest solution found
/// or finds the optimum.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Round {
    pub width: usize,
    pub refine: usize,
    pub least: u64,
}

impl Round {
    const fn new(width: usize, least: u64) -> Round {
        Round {
            width,
            refine: 0,
            least,
        }
    }

    /// The round with beams of `width` from points along the shortest
    /// solution.
    const fn refined(self, width: usize) -> Round {
        Round {
            refine: width,
            ..self
        }
    }
}

/// The rounds of an optimistic search, and how many nodes IDA* gets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Schedule {
    pub rounds: &'static [Round],
    pub share: u64,
    /// Whether each round's beam runs from both ends ([`two_way`]), each
    /// of the round's width.
    pub two_way: bool,
}

impl Schedule {
    /// For Manhattan distance and linear conflicts, whose bound rises fast
    /// per node but whose beams wander: beams four times wider each round,
    /// the bound twice the beam's nodes. On 100 random 6×6 positions at
    /// W = 2 every one is proved within 1 s (docs/benchmarks.md).
    pub const GROWING: Schedule = Schedule {
        rounds: &[
            Round::new(256, 100_000),
            Round::new(1_024, 100_000),
            Round::new(4_096, 100_000),
            Round::new(16_384, 100_000),
        ],
        share: 2,
        two_way: false,
    };

    /// For pattern databases on boards up to 16 cells, whose beams come
    /// closer to the optimum but whose bound rises slowly: a beam of
    /// 1,024, up to 2 million nodes of IDA*, a beam of 16,384 and up to 8
    /// million more, then wide beams, and last IDA* on no budget. The last
    /// beams answer some positions that IDA* would take longer over, and
    /// IDA* after them answers the rest, needing no memory: weighted A*,
    /// the fallback, did not answer some 5×5 positions in minutes.
    pub const PATTERNS: Schedule = Schedule {
        rounds: &[
            Round::new(1_024, 2_000_000),
            Round::new(16_384, 8_000_000),
            Round::new(65_536, 3_200_000),
            Round::new(262_144, u64::MAX),
        ],
        share: 1,
        two_way: false,
    };

    /// [`Schedule::PATTERNS`] with beams from both ends, for boards past
    /// 16 cells: some starts lead beams of every width astray where the
    /// goal's end does not. The first round's beams are as wide as before
    /// each, the later ones half as wide each, so as wide in all, but for
    /// the second round's: 4,096 each, then 4,096 from three points along
    /// the shortest solution ([`refined`]). On 100 random 5×5 positions at
    /// W = 1.2 (two seeds) it proves 94 and 96 within 1 s and 98 and 96
    /// within 3 s, against 93 and 95, and 95 and 95, with beams of 8,192
    /// from both ends in the second round, side by side; from one end,
    /// in an earlier session, 88 and 90 (docs/benchmarks.md). The slowest
    /// of them, which reaches the last beams, took 27 s and 1.0 GB.
    pub const PATTERNS_WIDE: Schedule = Schedule {
        rounds: &[
            Round::new(1_024, 2_000_000),
            Round::new(4_096, 8_000_000).refined(4_096),
            Round::new(32_768, 3_200_000),
            Round::new(131_072, u64::MAX),
        ],
        share: 1,
        two_way: true,
    };

    /// Rounds in all.
    pub fn rounds(&self) -> usize {
        self.rounds.len()
    }

    /// Its first `n` rounds only.
    #[cfg(test)]
    pub fn first(self, n: usize) -> Schedule {
        Schedule {
            rounds: &self.rounds[..n.min(self.rounds())],
            ..self
        }
    }
}

/// What the rounds found, proved or not.
pub(crate) struct Attempt {
    /// The shortest solution found, the one made before any beam
    /// ([`constructive`]) at first.
    pub shortest: Solution,
    /// The best lower bound proved.
    pub lower_bound: u32,
    /// Nodes generated and expanded in all.
    pub work: Work,
}

impl Attempt {
    /// Keeps `found` if it is shorter than the shortest so far.
    fn keep_shorter(&mut self, found: Option<Solution>) {
        if let Some(found) = found.filter(|f| f.moves.len() < self.shortest.moves.len()) {
            self.shortest = found;
        }
    }
}

/// The rounds of `schedule` (usually the guide's, [`Guide::schedule`]) of
/// beam search and bound raising from `start` to `goal` (a solvable pair
/// of one shape): `Ok` with a solution proved within `weight` by its lower
/// bound, or `Err` with what was found.
pub(crate) fn optimistic<G: Guide>(
    guide: &G,
    start: &Board,
    goal: &Board,
    weight: Weight,
    schedule: Schedule,
    options: &SolveOptions,
) -> Result<Result<Bounded, Attempt>, SolveError> {
    let mut search = Rounds::new(guide, (start, goal), weight, schedule, options);
    if schedule.rounds.is_empty() {
        return Ok(Err(search.attempt));
    }
    search.beam_round(Work::default())?;
    if proves(&search.attempt, weight) {
        return Ok(Ok(accept(search.attempt)));
    }
    // One run of IDA* for every round: each later beam runs while it waits.
    let raised = guide.raise_bound(start, goal, &mut search, options);
    let mut attempt = search.attempt;
    let raised = raised.map_err(|error| error.after(attempt.lower_bound, attempt.work))?;
    if let Some(stop) = search.stopped {
        // A beam stopped while IDA* waited.
        return Err(stop.into());
    }
    match raised {
        Iterated::Found(mut optimal) => {
            attempt.work.add_to(&mut optimal.solution);
            Ok(Ok(optimal))
        }
        Iterated::Spent { lower_bound, work } => {
            attempt.lower_bound = attempt.lower_bound.max(lower_bound);
            attempt.work += work;
            match proves(&attempt, weight) {
                true => Ok(Ok(accept(attempt))),
                false => Ok(Err(attempt)),
            }
        }
    }
}

/// The rounds under way: IDA*'s budget, which runs the next round's beam
/// whenever IDA* has spent the nodes granted so far.
struct Rounds<'s, G> {
    guide: &'s G,
    start: &'s Board,
    goal: &'s Board,
    weight: Weight,
    options: &'s SolveOptions<'s>,
    schedule: Schedule,
    /// The round whose beam runs next.
    next: usize,
    /// The nodes IDA* may generate in all.
    granted: u64,
    attempt: Attempt,
    /// Where a beam stopped for the deadline or the cancel flag.
    stopped: Option<Stopped>,
}

impl<'s, G: Guide> Rounds<'s, G> {
    /// The rounds of `schedule` from `start` to `goal`, none run yet: the
    /// solution to beat is the one made before any beam, the lower bound
    /// the estimate at the start.
    fn new(
        guide: &'s G,
        (start, goal): (&'s Board, &'s Board),
        weight: Weight,
        schedule: Schedule,
        options: &'s SolveOptions<'s>,
    ) -> Self {
        let h0 = G::value(&guide.start(start));
        Rounds {
            guide,
            start,
            goal,
            weight,
            options,
            schedule,
            next: 0,
            granted: 0,
            // The tiles placed a line at a time: a solution to beat from
            // the first beam on, in a millisecond.
            attempt: Attempt {
                shortest: Solution {
                    moves: constructive(start, goal),
                    nodes: 0,
                    expanded: 0,
                },
                lower_bound: to_parity(h0, parity_of(start, goal)),
                work: Work::default(),
            },
            stopped: None,
        }
    }

    /// The next round's beam, IDA* having done `searched` so far; then
    /// IDA*'s share of the round.
    fn beam_round(&mut self, searched: Work) -> Result<(), Stopped> {
        let round = self.schedule.rounds[self.next];
        self.next += 1;
        let attempt = &mut self.attempt;
        let longest = longest(attempt, self.weight);
        let search = match self.schedule.two_way {
            true => two_way::<G>,
            false => beam::<G>,
        };
        let problem = (self.start, self.goal);
        let stopped = |stop: Stopped, attempt: &Attempt| {
            let mut spent = attempt.work;
            spent += searched;
            stop.after(attempt.lower_bound, spent)
        };
        let (found, mut spent) = search(self.guide, problem, round.width, longest, self.options)
            .map_err(|stop| stopped(stop, attempt))?;
        attempt.work += spent;
        attempt.keep_shorter(found);
        if round.refine > 0 {
            let (found, more) = refined(
                self.guide,
                problem,
                &attempt.shortest.moves,
                round.refine,
                self.options,
            )
            .map_err(|stop| stopped(stop, attempt))?;
            attempt.work += more;
            spent += more;
            attempt.keep_shorter(found);
        }
        let share = self.schedule.share * spent.generated;
        self.granted = (searched.generated).saturating_add(share.max(round.least));
        Ok(())
    }
}

impl<G: Guide> Budget for Rounds<'_, G> {
    fn known(&self) -> u32 {
        self.attempt.lower_bound
    }

    fn grant(&mut self, proved: u32, searched: Work) -> Option<u64> {
        self.attempt.lower_bound = self.attempt.lower_bound.max(proved);
        if proves(&self.attempt, self.weight) {
            return None;
        }
        if searched.generated < self.granted {
            return Some(self.granted);
        }
        if self.next == self.schedule.rounds() {
            return None;
        }
        if let Err(stop) = self.beam_round(searched) {
            self.stopped = Some(stop);
            return None;
        }
        (!proves(&self.attempt, self.weight)).then_some(self.granted)
    }
}

/// The longest solution worth a beam's search: shorter than the shortest
/// found, and at most four times what the bound could prove today (the
/// bound rises, but seldom by more than a few percent).
fn longest(attempt: &Attempt, weight: Weight) -> usize {
    let provable = weight.thousandths() as u64 * attempt.lower_bound.max(1) as u64 / SCALE as u64;
    let cap = 4 * provable as usize + 64;
    cap.min(attempt.shortest.moves.len().saturating_sub(1))
}

/// The least lower bound that would prove the shortest solution within
/// `weight`: no more IDA* is needed once it is reached.
fn enough(attempt: &Attempt, weight: Weight) -> u32 {
    let scaled = SCALE as u64 * attempt.shortest.moves.len() as u64;
    scaled.div_ceil(weight.thousandths() as u64) as u32
}

/// Whether the shortest solution is at most `weight` times the bound.
fn proves(attempt: &Attempt, weight: Weight) -> bool {
    attempt.lower_bound >= enough(attempt, weight)
}

/// The proved answer, its nodes counted over every round.
fn accept(attempt: Attempt) -> Bounded {
    let mut solution = attempt.shortest;
    (solution.nodes, solution.expanded) = (attempt.work.generated, attempt.work.expanded);
    Bounded {
        solution,
        lower_bound: attempt.lower_bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounded::guide::ConflictGuide;
    use crate::puzzle::parse::parse_board;
    use crate::puzzle::shape::Shape;
    use std::sync::atomic::AtomicBool;

    /// A random 3×4 position, 40 moves from its goal, and the goal.
    fn far_3x4() -> (Board, Board) {
        let shape: Shape = "3x4".parse().unwrap();
        let start = parse_board("8 6 2 7 5 9 4 10 11 3 1 0", shape).unwrap();
        (start, Board::goal(shape))
    }

    /// An answer counts the nodes generated and expanded by every step, not
    /// only by the beam that found it: more than the first beam's alone
    /// where that beam did not prove its solution.
    #[test]
    fn an_answer_counts_the_work_of_every_step() {
        let (start, goal) = far_3x4();
        let guide = ConflictGuide::new(&goal);
        let options = SolveOptions::default();
        let weight = Weight::new(1.01).unwrap();
        let schedule = Schedule::GROWING;
        let mut first = Rounds::new(&guide, (&start, &goal), weight, schedule, &options);
        first.beam_round(Work::default()).unwrap();
        assert!(!proves(&first.attempt, weight));
        let found = optimistic(&guide, &start, &goal, weight, schedule, &options);
        let found = found.unwrap().unwrap_or_else(|_| panic!("no proof"));
        let (nodes, expanded) = (found.solution.nodes, found.solution.expanded);
        assert!(nodes > first.attempt.work.generated && expanded > first.attempt.work.expanded);
        assert!(expanded < nodes);
    }

    /// A beam that the cancel flag stops while IDA* waits for nodes makes
    /// the budget grant none, and keeps the stop with the best bound proved
    /// and the nodes of every step, IDA*'s so far included.
    #[test]
    fn a_beam_stopped_while_ida_waits_keeps_its_stop() {
        let (start, goal) = far_3x4();
        let guide = ConflictGuide::new(&goal);
        let cancel = AtomicBool::new(false);
        let options = SolveOptions {
            cancel: Some(&cancel),
            ..SolveOptions::default()
        };
        let weight = Weight::new(1.01).unwrap();
        let schedule = Schedule::GROWING;
        let mut rounds = Rounds::new(&guide, (&start, &goal), weight, schedule, &options);
        rounds.beam_round(Work::default()).unwrap();
        let (granted, beams) = (rounds.granted, rounds.attempt.work);
        let proved = rounds.attempt.lower_bound + 2;
        // Nodes left: no beam runs, and the grant stands.
        let searched = |generated| Work {
            generated,
            expanded: generated / 2,
        };
        assert_eq!(rounds.grant(proved, searched(granted - 1)), Some(granted));
        cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(rounds.grant(proved, searched(granted)), None);
        assert_eq!(
            rounds.stopped,
            Some(Stopped::Cancelled {
                bound: proved,
                nodes: beams.generated + granted,
                expanded: beams.expanded + granted / 2
            })
        );
    }
}
