//! Bounded-suboptimal solving: a solution at most W times the optimum, for
//! any board, with the lower bound on the optimum that proves it.
//!
//! Weighted A* (weighted IDA* once memory runs short) searches with
//! f = g + W·h over the best admissible
//! heuristic at hand ([`Guidance`]): a pattern database where one is built,
//! otherwise Manhattan distance plus linear conflicts, which needs no file
//! at all. The answer carries a lower bound L on the optimum, so that
//! length ≤ W·optimum can be read off: the optimum lies in
//! [L, length], and length ≤ W·L whenever the bound is tight enough to show
//! it. With W = 1 the search is plain IDA* and its answers are optimal.
//!
//! ```
//! use npuzzle::bounded::{solve_within, Guidance, Weight};
//! use npuzzle::pattern::SolveOptions;
//! use npuzzle::{parse_board, Board, Shape};
//!
//! let shape = Shape::THREE_BY_THREE;
//! let start = parse_board("867254301", shape)?;
//! let goal = Board::goal(shape);
//! let weight: Weight = "1.5".parse()?;
//! let found = solve_within(&start, &goal, weight, &Guidance::linear_conflict(), &SolveOptions::default())?;
//! let length = found.solution.moves.len() as u32;
//! // 31 moves is the optimum of this position.
//! assert!(found.lower_bound <= 31 && 31 <= length && length as f64 <= 1.5 * 31.0);
//! assert_eq!(start.replay(&found.solution.moves), Some(goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Uses `puzzle` (with the classic heuristics), `pattern`, `db` and `io`
//! (the batch machinery and answers).

mod astar;
mod backward;
mod batch;
mod beam;
mod constructive;
mod guide;
mod ida;
mod optimistic;
mod weight;

pub use batch::{search_threads, WithinBatch, WITHIN_CSV_HEADER};
pub use ida::Bounded;
pub use weight::{Weight, WeightError, MAX_WEIGHT};

use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::io::{Answer, Nodes, WithinBound};
use crate::pattern::{map_back, toward_home, PatternDb, SolveError, SolveOptions, Stopped, Work};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::solvability;
use crate::puzzle::symmetry::Symmetry;
use astar::{weighted_a_star, MAX_STORED, QUICK_STORED};
use beam::beam;
use constructive::constructive;
use guide::Guide;
use guide::{ConflictGuide, PatternGuide, Tables};
use ida::weighted_ida_star;
use optimistic::optimistic;

/// The heuristic a bounded search uses: one type for every kind, so that
/// another lower bound plugs in as one more variant.
pub struct Guidance<'a> {
    kind: Kind<'a>,
}

enum Kind<'a> {
    LinearConflict,
    Patterns {
        /// The tables' canonical goal.
        goal: Board,
        partition: &'static str,
        tables: &'a dyn Tables,
    },
}

impl Guidance<'static> {
    /// Manhattan distance plus linear conflicts: any board, any goal, no
    /// file.
    pub fn linear_conflict() -> Guidance<'static> {
        Guidance {
            kind: Kind::LinearConflict,
        }
    }
}

impl<'a> Guidance<'a> {
    /// The larger of a pattern database's additive and transposed sums
    /// ([`PatternDb::heuristic`]), toward goals its tables serve.
    pub fn patterns<B: AsRef<[u8]>>(db: &'a PatternDb<B>) -> Guidance<'a> {
        Guidance {
            kind: Kind::Patterns {
                goal: db.goal(),
                partition: db.partition().name(),
                tables: db,
            },
        }
    }

    /// The best guidance `db` gives toward `goal`: its pattern tables, or,
    /// for complete tables and for goals no set of pattern tables serves,
    /// linear conflicts, as with no file at all (the answer names which).
    /// Complete tables' exact distances are not used as a heuristic: they
    /// would make every answer optimal, and checking a bounded answer
    /// against them is what they are for here.
    pub fn for_database<B: AsRef<[u8]>>(
        db: &'a Database<B>,
        goal: &Board,
    ) -> Result<Guidance<'a>, AnswerError> {
        let Some(tables) = db.patterns() else {
            return Ok(Guidance::linear_conflict());
        };
        match tables.set_serving(goal) {
            Ok(set) => Ok(Guidance::patterns(set)),
            Err(AnswerError::MissingGoal { .. }) => Ok(Guidance::linear_conflict()),
            Err(e) => Err(e),
        }
    }

    /// What a search with or without a file takes: `db`'s pattern tables as
    /// [`Guidance::for_database`] chooses them, or linear conflicts where
    /// there is no file.
    pub fn for_file<B: AsRef<[u8]>>(
        db: Option<&'a Database<B>>,
        goal: &Board,
    ) -> Result<Guidance<'a>, AnswerError> {
        match db {
            Some(db) => Guidance::for_database(db, goal),
            None => Ok(Guidance::linear_conflict()),
        }
    }

    /// Its name in answers: `linear-conflict`, or `patterns 7-8` with the
    /// partition's name.
    pub fn name(&self) -> String {
        match &self.kind {
            Kind::LinearConflict => "linear-conflict".to_string(),
            Kind::Patterns { partition, .. } => format!("patterns {partition}"),
        }
    }
}

/// [`solve_within`]'s solution as the answer every face prints: its moves,
/// the nodes searched, and what it proves ([`WithinBound`]: the weight, the
/// lower bound and the guide's name).
pub fn answer_within(
    start: &Board,
    goal: &Board,
    weight: Weight,
    guidance: &Guidance,
    options: &SolveOptions,
) -> Result<Answer, SolveError> {
    let found = solve_within(start, goal, weight, guidance, options)?;
    let within = WithinBound {
        weight_thousandths: weight.thousandths(),
        lower_bound: found.lower_bound,
        heuristic: guidance.name(),
    };
    let nodes = Nodes::from(&found.solution);
    Ok(Answer::new(*start, *goal, Ok(found.solution.moves), Some(nodes)).bounded(within))
}

/// A solution from `start` to `goal` at most `weight` times as long as the
/// shortest, and a lower bound on the shortest's length; searched on one
/// thread, within `options`' deadline and cancel flag.
pub fn solve_within(
    start: &Board,
    goal: &Board,
    weight: Weight,
    guidance: &Guidance,
    options: &SolveOptions,
) -> Result<Bounded, SolveError> {
    let posed = Posed::new(start, goal, guidance)?;
    let problem = (&posed.start, &posed.goal);
    let mut found = match &posed.guide {
        PosedGuide::Conflict(guide) => search(&**guide, problem, weight, options)?,
        PosedGuide::Patterns(guide) => search(guide, problem, weight, options)?,
    };
    posed.map_back(&mut found.solution.moves);
    Ok(found)
}

/// A shortest solution from `start` to `goal` by plain IDA* over
/// `guidance`: it holds only its path in memory, where the bounded search
/// at W = 1 may first fill gigabytes with weighted A*. On one thread,
/// within `options`' deadline, where it stops with the bound it proved
/// ([`Stopped::TimedOut`]).
pub fn ida_star(
    start: &Board,
    goal: &Board,
    guidance: &Guidance,
    options: &SolveOptions,
) -> Result<Bounded, SolveError> {
    let posed = Posed::new(start, goal, guidance)?;
    let (start, goal) = (&posed.start, &posed.goal);
    let mut found = match &posed.guide {
        PosedGuide::Conflict(guide) => {
            weighted_ida_star(&**guide, start, goal, Weight::OPTIMAL, options)?
        }
        PosedGuide::Patterns(guide) => {
            weighted_ida_star(guide, start, goal, Weight::OPTIMAL, options)?
        }
    };
    posed.map_back(&mut found.solution.moves);
    Ok(found)
}

/// A solution from `start` to `goal` of at most `max_length` moves, if a
/// beam of `width` finds one, searched within `options`' deadline and
/// cancel flag; with no bound on how far it is from the shortest. So it
/// shows quickly that the distance is at most its length (on 5×5 a beam of
/// 256 takes about 6 ms, where an optimal search may take hours); `None`
/// shows nothing. The width is taken as 1 to [`MAX_QUICK_WIDTH`], and the
/// beam keeps at most 24 million positions in all, as every beam does.
pub fn quick_solution(
    (start, goal): (&Board, &Board),
    width: usize,
    max_length: usize,
    guidance: &Guidance,
    options: &SolveOptions,
) -> Result<Option<Vec<Move>>, SolveError> {
    let posed = Posed::new(start, goal, guidance)?;
    let problem = (&posed.start, &posed.goal);
    let width = width.clamp(1, MAX_QUICK_WIDTH);
    let (found, _) = match &posed.guide {
        PosedGuide::Conflict(guide) => beam(&**guide, problem, width, max_length, options)?,
        PosedGuide::Patterns(guide) => beam(guide, problem, width, max_length, options)?,
    };
    Ok(found.map(|mut solution| {
        posed.map_back(&mut solution.moves);
        solution.moves
    }))
}

/// The widest beam [`quick_solution`] runs.
pub const MAX_QUICK_WIDTH: usize = 1 << 20;

/// A problem as its guide sees it. Linear conflicts take it as asked;
/// pattern tables count toward their canonical goal, so a symmetry takes
/// the goal's blank to theirs, renaming the tiles makes the goal theirs,
/// and the moves found are mapped back.
struct Posed<'a> {
    start: Board,
    goal: Board,
    guide: PosedGuide<'a>,
    /// Takes the moves found back to the problem asked.
    back: Symmetry,
}

/// The guide of a [`Posed`] problem: each kind is its own type, so that
/// the searches are compiled for each.
enum PosedGuide<'a> {
    /// Boxed: its evaluator's tables are large beside the other's.
    Conflict(Box<ConflictGuide>),
    Patterns(PatternGuide<'a>),
}

impl<'a> Posed<'a> {
    /// `start` to `goal` posed to `guidance`, or why it cannot be: boards
    /// of two shapes, an unsolvable pair, a goal the tables do not serve.
    fn new(start: &Board, goal: &Board, guidance: &Guidance<'a>) -> Result<Posed<'a>, SolveError> {
        let Kind::Patterns {
            goal: home, tables, ..
        } = &guidance.kind
        else {
            if start.shape() != goal.shape() {
                return Err(SolveError::WrongShape {
                    expected: goal.shape(),
                    got: start.shape(),
                });
            }
            solvability::check(start, goal)?;
            return Ok(Posed {
                start: *start,
                goal: *goal,
                guide: PosedGuide::Conflict(Box::new(ConflictGuide::new(goal))),
                back: Symmetry::identity(goal.shape()),
            });
        };
        let (start, back) = toward_home(start, goal, home.shape(), home.blank())?;
        let guide = PatternGuide::new(*tables);
        // The searches tell the goal by its estimate of 0 first: tables
        // that estimate it above 0 would hide it.
        crate::pattern::goal_at_zero(PatternGuide::value(&guide.start(home)))?;
        Ok(Posed {
            start,
            goal: *home,
            guide: PosedGuide::Patterns(guide),
            back,
        })
    }

    /// `moves`, found for the posed problem, as moves of the one asked.
    fn map_back(&self, moves: &mut [Move]) {
        map_back(&self.back, moves);
    }
}

/// A short weighted A* first, for the problems it solves at once (up to
/// [`QUICK_STORED`] positions); then optimistic search ([`optimistic`]:
/// beam search for a solution, IDA* for a bound, until the bound proves
/// the solution; with pattern tables its last IDA* has no budget, so it
/// ends in a proof); then weighted A* while its memory lasts
/// ([`MAX_STORED`] positions); then weighted IDA*, which needs none, from
/// the start again. At weight 1 only the last two. See docs/benchmarks.md
/// for the figures behind this order.
fn search<G: Guide>(
    guide: &G,
    (start, goal): (&Board, &Board),
    weight: Weight,
    options: &SolveOptions,
) -> Result<Bounded, SolveError> {
    let (mut attempt, mut spent) = (None, Work::default());
    if weight != Weight::OPTIMAL {
        match weighted_a_star(guide, start, goal, weight, QUICK_STORED, options)? {
            Ok(mut found) => {
                // At a large W weighted A*'s answer may be longer than the
                // tiles placed a line at a time, which take up to a
                // millisecond and come two to three times the bound on 6x6:
                // made only where they might be shorter.
                let length = found.solution.moves.len();
                if length > 2 * found.lower_bound as usize {
                    let made = constructive(start, goal);
                    if made.len() < length {
                        found.solution.moves = made;
                    }
                }
                return Ok(found);
            }
            Err(work) => spent += work,
        }
        let schedule = guide.schedule(start.shape());
        let rounds = optimistic(guide, start, goal, weight, schedule, options)
            .map_err(|error| error.after(0, spent))?;
        match rounds {
            Ok(mut found) => {
                spent.add_to(&mut found.solution);
                return Ok(found);
            }
            Err(tried) => attempt = Some(tried),
        }
    }
    // A stop reports the best bound proved so far, and every node.
    let (proved, tried) = attempt
        .as_ref()
        .map_or((0, Work::default()), |a| (a.lower_bound, a.work));
    let stopped = |stop: Stopped, mut spent: Work| {
        spent += tried;
        stop.after(proved, spent)
    };
    let mut found = match weighted_a_star(guide, start, goal, weight, MAX_STORED, options)
        .map_err(|stop| stopped(stop, spent))?
    {
        Ok(found) => found,
        Err(work) => {
            spent += work;
            weighted_ida_star(guide, start, goal, weight, options)
                .map_err(|stop| stopped(stop, spent))?
        }
    };
    spent.add_to(&mut found.solution);
    if let Some(attempt) = attempt {
        // Both bounds hold, and a solution shorter than one within W is too.
        found.lower_bound = found.lower_bound.max(attempt.lower_bound);
        attempt.work.add_to(&mut found.solution);
        if attempt.shortest.moves.len() < found.solution.moves.len() {
            found.solution.moves = attempt.shortest.moves;
        }
    }
    Ok(found)
}

/// `steps` random moves from `board`, chosen by `seed` (the same every
/// run): the board reached and the moves made. For the tests of this
/// module's parts.
#[cfg(test)]
pub(crate) fn random_walk(
    board: Board,
    steps: usize,
    seed: u64,
) -> (Board, Vec<crate::puzzle::board::Move>) {
    let (mut board, mut moves) = (board, Vec::with_capacity(steps));
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while moves.len() < steps {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let m = crate::puzzle::board::Move::from_code(state as u8 & 3);
        if let Some(next) = board.apply(m) {
            board = next;
            moves.push(m);
        }
    }
    (board, moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::{Budget, Limits};
    use crate::puzzle::board::Move;
    use crate::puzzle::shape::Shape;
    use optimistic::Schedule;

    /// Weighted IDA* at W = 100 walks hundreds or thousands of moves deep,
    /// a frame a move. On 2x18 that overflowed the 2 MiB stack a thread of
    /// a batch, the server or Python has, and killed the process (found
    /// from Python); the walk now goes on on a new stack where one runs
    /// low. Here a thread of 128 KiB holds a few hundred frames at most.
    #[test]
    fn a_deep_weighted_walk_outgrows_a_small_thread_stack() {
        let weight = Weight::new(100.0).unwrap();
        let mut deepest = 0;
        for size in ["5x5", "6x6"] {
            let shape: Shape = size.parse().unwrap();
            let goal = Board::goal(shape);
            let (start, _) = random_walk(goal, 400, 7);
            let walking = std::thread::Builder::new()
                .stack_size(128 << 10)
                .spawn(move || {
                    let guide = ConflictGuide::new(&goal);
                    weighted_ida_star(&guide, &start, &goal, weight, &SolveOptions::default())
                })
                .unwrap();
            let found = walking.join().unwrap().unwrap();
            assert_eq!(start.replay(&found.solution.moves), Some(goal));
            deepest = deepest.max(found.solution.moves.len());
        }
        assert!(deepest > 1_000, "{deepest}");
    }

    /// At W = 100 weighted A* answers at once, sometimes with more moves
    /// than placing the tiles a line at a time takes: an answer of more
    /// than twice its bound is never longer than that (the made solution
    /// is tried there only), every answer replays to the goal and stays
    /// within its bound (on 3x3, 6x6 and 2x8, toward random goals). On
    /// these positions it is shorter for some (so that a search that
    /// ignores the made solution fails here).
    #[test]
    fn at_a_large_weight_the_answer_is_no_longer_than_the_made_one() {
        let weight = Weight::new(100.0).unwrap();
        let options = SolveOptions::default();
        let guidance = Guidance::linear_conflict();
        let mut shorter = 0;
        for (size, seed) in [("3x3", 1), ("6x6", 2), ("2x8", 3)] {
            let shape: Shape = size.parse().unwrap();
            for i in 0..20 {
                let (goal, _) = random_walk(Board::goal(shape), 1_000 + i, seed);
                let (start, _) = random_walk(goal, 3_001 + i, seed + i as u64);
                let found = solve_within(&start, &goal, weight, &guidance, &options).unwrap();
                let moves = &found.solution.moves;
                if moves.len() > 2 * found.lower_bound as usize {
                    let made = constructive(&start, &goal);
                    assert!(moves.len() <= made.len(), "{size} {start}");
                }
                assert_eq!(start.replay(moves), Some(goal));
                assert!(moves.len() as f64 <= 100.0 * found.lower_bound as f64);
                let quick = weighted_a_star(
                    &ConflictGuide::new(&goal),
                    &start,
                    &goal,
                    weight,
                    QUICK_STORED,
                    &options,
                );
                // Where it answered: past its memory, the rounds do.
                if let Ok(Ok(quick)) = quick {
                    shorter += usize::from(moves.len() < quick.solution.moves.len());
                }
            }
        }
        assert!(shorter > 0, "the made solution was never the shorter");
    }

    /// Weighted IDA*, the fallback once A*'s memory runs short, agrees with
    /// A*: both optimal at W = 1, both within W of that optimum above it,
    /// both with bounds at most the optimum, on positions walked from goals.
    #[test]
    fn ida_star_and_a_star_agree_on_the_bound() {
        let options = SolveOptions::default();
        for (start, goal, optimum) in walked_3x4() {
            let guide = ConflictGuide::new(&goal);
            let optimal = Weight::OPTIMAL;
            let a = weighted_a_star(&guide, &start, &goal, optimal, MAX_STORED, &options);
            let a = a.unwrap().unwrap();
            let ida = weighted_ida_star(&guide, &start, &goal, optimal, &options).unwrap();
            assert_eq!(a.solution.moves.len() as u32, optimum, "{start}");
            assert_eq!(ida.solution.moves.len() as u32, optimum, "{start}");
            assert_eq!((a.lower_bound, ida.lower_bound), (optimum, optimum));
            let loose = Weight::new(1.5).unwrap();
            for found in [
                weighted_a_star(&guide, &start, &goal, loose, MAX_STORED, &options)
                    .unwrap()
                    .unwrap(),
                weighted_ida_star(&guide, &start, &goal, loose, &options).unwrap(),
            ] {
                let length = found.solution.moves.len();
                assert_eq!(start.replay(&found.solution.moves), Some(goal));
                assert!(length as f64 <= 1.5 * optimum as f64, "{start}");
                assert!(found.lower_bound <= optimum, "{start}");
            }
        }
    }

    /// A quick solution replays to the goal within its length limit, with
    /// either guide and toward a goal the tables reach by a symmetry; none
    /// is shorter than the optimum, so none is found within one move less.
    #[test]
    fn quick_solutions_replay_and_never_beat_the_optimum() {
        let db = tables_3x4();
        let options = SolveOptions::default();
        let quick = |start: &Board, goal: &Board, max_length: usize, guidance: &Guidance| {
            quick_solution((start, goal), 64, max_length, guidance, &options).unwrap()
        };
        for guidance in [Guidance::linear_conflict(), Guidance::patterns(&db)] {
            for (start, goal, optimum) in walked_3x4() {
                let optimum = optimum as usize;
                let moves = quick(&start, &goal, 200, &guidance).expect("a beam of 64 solves 3x4");
                assert!((optimum..=200).contains(&moves.len()), "{start}");
                assert_eq!(start.replay(&moves), Some(goal));
                if optimum > 0 {
                    assert_eq!(
                        quick(&start, &goal, optimum - 1, &guidance),
                        None,
                        "{start}"
                    );
                }
            }
            // Absurd widths are taken as 1 and as the widest there is.
            let (near, _) = random_walk(Board::goal(db.shape()), 2, 9);
            for width in [0, usize::MAX] {
                let found = quick_solution(
                    (&near, &Board::goal(db.shape())),
                    width,
                    3,
                    &guidance,
                    &options,
                );
                let moves = found.unwrap().expect("a position 2 moves out is solved");
                assert_eq!(
                    near.replay(&moves),
                    Some(Board::goal(db.shape())),
                    "width {width}"
                );
            }
            // The blank first: the half turn takes it to the tables' goal blank.
            let goal = crate::parse_board("0 1 2 3 4 5 6 7 8 9 10 11", db.shape()).unwrap();
            for seed in 1..=4 {
                let (start, _) = random_walk(goal, 40, seed);
                let moves = quick(&start, &goal, 200, &guidance).expect("a beam of 64 solves 3x4");
                assert_eq!(start.replay(&moves), Some(goal), "{start}");
            }
        }
    }

    /// The 3×4 board's `6-5` pattern tables.
    fn tables_3x4() -> PatternDb<Vec<u8>> {
        let shape: Shape = "3x4".parse().unwrap();
        let partition = crate::pattern::Partition::named(shape, "6-5").unwrap();
        PatternDb::build(partition, &|_, _| {}).unwrap()
    }

    /// Positions walked 10 to 54 moves from the 3×4 goal, with their
    /// optima from A* at weight 1.
    fn walked_3x4() -> Vec<(Board, Board, u32)> {
        let shape: Shape = "3x4".parse().unwrap();
        let goal = Board::goal(shape);
        let guide = ConflictGuide::new(&goal);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        (0..12)
            .map(|walk| {
                let mut start = goal;
                for _ in 0..10 + 4 * walk {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    start = start
                        .apply(Move::from_code(state as u8 & 3))
                        .unwrap_or(start);
                }
                let options = SolveOptions::default();
                let optimal =
                    weighted_a_star(&guide, &start, &goal, Weight::OPTIMAL, MAX_STORED, &options);
                let optimum = optimal.unwrap().unwrap().solution.moves.len() as u32;
                (start, goal, optimum)
            })
            .collect()
    }

    /// Optimistic search's answers replay to the goal, are at most W times
    /// their lower bound, and the bound never passes the optimum, proved or
    /// not; and at W = 2 it proves most of them.
    #[test]
    fn optimistic_answers_are_proved_within_the_weight() {
        let mut proved = 0;
        for (start, goal, optimum) in walked_3x4() {
            let guide = ConflictGuide::new(&goal);
            for w in [1.1, 1.5, 2.0] {
                let weight = Weight::new(w).unwrap();
                let options = SolveOptions::default();
                // Two rounds (beams of 256 and 1,024) keep the test quick.
                let schedule = Schedule::GROWING.first(2);
                match optimistic(&guide, &start, &goal, weight, schedule, &options).unwrap() {
                    Ok(found) => {
                        let length = found.solution.moves.len() as u32;
                        assert_eq!(start.replay(&found.solution.moves), Some(goal));
                        assert!(length as f64 <= w * found.lower_bound as f64, "{start}");
                        assert!(found.lower_bound <= optimum, "{start}");
                        assert!(optimum <= length, "{start}");
                        proved += (w == 2.0) as u32;
                    }
                    Err(attempt) => {
                        assert!(attempt.lower_bound <= optimum, "{start}");
                        let moves = &attempt.shortest.moves;
                        assert_eq!(start.replay(moves), Some(goal));
                    }
                }
            }
        }
        assert!(proved >= 9, "{proved} of 12 proved at W = 2");
    }

    /// IDA* on a budget proves bounds no higher than the optimum, and finds
    /// the optimum itself when the budget allows.
    #[test]
    fn raising_the_bound_never_passes_the_optimum() {
        for (start, goal, optimum) in walked_3x4() {
            let guide = ConflictGuide::new(&goal);
            let options = SolveOptions::default();
            for budget in [10, 1_000, u64::MAX] {
                let mut limits = Limits {
                    budget,
                    ..Limits::NONE
                };
                match ida::raise_bound(&guide, &start, &goal, &mut limits, &options).unwrap() {
                    ida::Iterated::Found(found) => {
                        assert_eq!(found.solution.moves.len() as u32, optimum, "{start}");
                        assert_eq!(start.replay(&found.solution.moves), Some(goal));
                    }
                    ida::Iterated::Spent { lower_bound, .. } => {
                        assert!(budget != u64::MAX && lower_bound <= optimum, "{start}");
                    }
                }
            }
            // A known bound is a starting point, and is kept.
            let known = optimum - 2;
            let mut limits = Limits {
                known,
                budget: 10,
                ..Limits::NONE
            };
            match ida::raise_bound(&guide, &start, &goal, &mut limits, &options).unwrap() {
                ida::Iterated::Found(found) => {
                    assert_eq!(found.solution.moves.len() as u32, optimum)
                }
                ida::Iterated::Spent { lower_bound, .. } => {
                    assert!((known..=optimum).contains(&lower_bound), "{start}")
                }
            }
        }
    }

    /// IDA* stops raising the bound once an iteration proves what was
    /// asked, even with nodes left and the optimum one iteration away.
    #[test]
    fn raising_the_bound_stops_at_enough() {
        let mut stopped = 0;
        for (start, goal, optimum) in walked_3x4() {
            let guide = ConflictGuide::new(&goal);
            let estimate = ConflictGuide::value(&guide.start(&start));
            if estimate + 2 >= optimum {
                continue;
            }
            let mut asked = Limits {
                enough: optimum - 2,
                ..Limits::NONE
            };
            let options = SolveOptions::default();
            match ida::raise_bound(&guide, &start, &goal, &mut asked, &options).unwrap() {
                ida::Iterated::Spent { lower_bound, .. } => {
                    assert_eq!(lower_bound, optimum - 2, "{start}");
                    stopped += 1;
                }
                ida::Iterated::Found(_) => panic!("{start}: searched past the bound asked"),
            }
        }
        assert!(
            stopped >= 2,
            "only {stopped} positions far enough from their estimate"
        );
    }

    /// A budget that grants `step` nodes more each time it is asked, and
    /// keeps what it was told.
    struct Drip {
        step: u64,
        told: Vec<(u32, u64)>,
    }

    impl Budget for Drip {
        fn known(&self) -> u32 {
            0
        }

        fn grant(&mut self, proved: u32, work: Work) -> Option<u64> {
            self.told.push((proved, work.generated));
            Some(work.generated + self.step)
        }
    }

    /// A search that raises the bound within a budget.
    type Search<'a> = dyn Fn(&mut dyn Budget) -> ida::Iterated + 'a;

    /// IDA* that waits for more nodes goes on from where it stood: asked
    /// for nodes a few hundred at a time, in the middle of its iterations,
    /// both searches (the generic one, and the pattern tables' own) find
    /// the same solution with the same nodes as without a budget, and tell
    /// the budget bounds that only rise and never pass the optimum.
    #[test]
    fn raising_the_bound_goes_on_where_it_waited() {
        let db = tables_3x4();
        let shape = db.shape();
        let options = SolveOptions::default();
        let goal = Board::goal(shape);
        let (conflicts, patterns) = (ConflictGuide::new(&goal), PatternGuide::new(&db));
        let mut waited_mid_iteration = 0;
        // Random positions (`positions 6 7 3x4`, the first, third and last),
        // with iterations of thousands of nodes.
        let starts = [
            "8 6 2 7 5 9 4 10 11 3 1 0",
            "4 8 1 7 5 3 6 11 0 10 2 9",
            "2 4 9 10 3 5 11 7 0 8 6 1",
        ];
        for start in starts {
            let start = crate::puzzle::parse::parse_board(start, shape).unwrap();
            let optimum = db.solve(&start, &options).unwrap().moves.len() as u32;
            let searches: [&Search; 2] = [
                &|budget| ida::raise_bound(&conflicts, &start, &goal, budget, &options).unwrap(),
                &|budget| {
                    patterns
                        .raise_bound(&start, &goal, budget, &options)
                        .unwrap()
                },
            ];
            for search in searches {
                let ida::Iterated::Found(whole) = search(&mut Limits::none()) else {
                    panic!("{start}: no budget, yet spent");
                };
                let mut drip = Drip {
                    step: 300,
                    told: Vec::new(),
                };
                let ida::Iterated::Found(waited) = search(&mut drip) else {
                    panic!("{start}: every ask granted, yet spent");
                };
                assert_eq!(waited.solution.moves.len() as u32, optimum, "{start}");
                assert_eq!(waited.solution.moves, whole.solution.moves, "{start}");
                assert_eq!(waited.solution.nodes, whole.solution.nodes, "{start}");
                assert!(drip.told.windows(2).all(|w| w[0] <= w[1]), "{start}");
                assert!(
                    drip.told.iter().all(|&(proved, _)| proved <= optimum),
                    "{start}"
                );
                // Two asks with one bound: the later came within an
                // iteration, once the nodes granted were spent (checked
                // every 4,096 nodes at most, a node's children at a time).
                let within: Vec<u64> = (drip.told.windows(2))
                    .filter(|w| w[0].0 == w[1].0)
                    .map(|w| w[1].1 - w[0].1)
                    .collect();
                assert!(
                    within
                        .iter()
                        .all(|&gap| (300..=300 + 4096 + 4).contains(&gap)),
                    "{start}: {within:?}"
                );
                waited_mid_iteration += !within.is_empty() as u32;
            }
        }
        assert!(waited_mid_iteration >= 4, "{waited_mid_iteration} of 6");
    }

    /// With pattern tables the rounds end in IDA* on no budget, so they
    /// always end in a proof, even with a weight no beam's solution meets;
    /// so do those with beams from both ends, which larger boards use.
    #[test]
    fn pattern_rounds_always_end_in_a_proof() {
        let db = tables_3x4();
        let guide = PatternGuide::new(&db);
        let options = SolveOptions::default();
        let shape = |s: &str| s.parse().unwrap();
        assert!(!guide.schedule(shape("4x4")).two_way && guide.schedule(shape("4x5")).two_way);
        for (start, goal, optimum) in walked_3x4() {
            let schedules = [Schedule::PATTERNS, Schedule::PATTERNS_WIDE];
            for (w, schedule) in [1.0, 1.01, 1.1]
                .into_iter()
                .flat_map(|w| schedules.map(|s| (w, s)))
            {
                let weight = Weight::new(w).unwrap();
                let found = optimistic(&guide, &start, &goal, weight, schedule, &options).unwrap();
                let found = found.unwrap_or_else(|_| panic!("{start}: no proof at W = {w}"));
                let length = found.solution.moves.len() as u32;
                assert_eq!(start.replay(&found.solution.moves), Some(goal));
                assert!(length as f64 <= w * found.lower_bound as f64, "{start}");
                assert!(found.lower_bound <= optimum && optimum <= length, "{start}");
            }
        }
    }

    /// Pattern tables raise the bound with their own search: its bounds
    /// never pass the optimum and stop where asked, and with no limit it
    /// finds an optimal solution that replays to the goal.
    #[test]
    fn pattern_tables_raise_the_bound_with_their_own_search() {
        let db = tables_3x4();
        let guide = PatternGuide::new(&db);
        let options = SolveOptions::default();
        for (start, goal, optimum) in walked_3x4() {
            for budget in [10, 1_000, u64::MAX] {
                let mut limits = Limits {
                    budget,
                    ..Limits::NONE
                };
                match guide
                    .raise_bound(&start, &goal, &mut limits, &options)
                    .unwrap()
                {
                    ida::Iterated::Found(found) => {
                        assert_eq!(found.solution.moves.len() as u32, optimum, "{start}");
                        assert_eq!(start.replay(&found.solution.moves), Some(goal));
                    }
                    ida::Iterated::Spent { lower_bound, .. } => {
                        assert!(budget != u64::MAX && lower_bound <= optimum, "{start}");
                        assert_eq!(lower_bound % 2, optimum % 2, "{start}");
                    }
                }
            }
            let estimate = PatternGuide::value(&guide.start(&start));
            if estimate + 2 < optimum {
                let mut asked = Limits {
                    enough: optimum - 2,
                    ..Limits::NONE
                };
                match guide
                    .raise_bound(&start, &goal, &mut asked, &options)
                    .unwrap()
                {
                    ida::Iterated::Spent { lower_bound, .. } => {
                        assert_eq!(lower_bound, optimum - 2, "{start}")
                    }
                    ida::Iterated::Found(_) => panic!("{start}: searched past the bound asked"),
                }
            }
        }
    }
}
