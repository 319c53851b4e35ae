//! Positions of exact difficulty where no table lists them: on a board with
//! pattern databases, each is found by a seeded random walk from the goal,
//! solved optimally, and cut where its shortest solution is K moves from
//! the goal.
//!
//! A position on a shortest solution lies exactly as far from the goal as
//! the solution has moves left, so the cut needs no second search, and the
//! rest of that solution is a shortest one of the position (a worksheet's
//! answer key). The draw is not uniform over the positions at K (only a
//! complete table could make it so), but every position is exactly K moves
//! away, and the seed draws the same ones on every face and machine: the
//! walks are solved on one thread, whose search, unlike a split one, finds
//! the same solution whatever the cores. An end whose search runs long is
//! also given quick solutions by beams, at fixed counts of the search's
//! nodes, so that one shorter than K shows it too near without the search
//! ([`NearerFirst`]).

use super::sample::{in_words, Drawn, Sample, SampleError};
use crate::bounded::{quick_solution, Guidance};
use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::db::goal_table::GoalTable;
use crate::pattern::{Budget, Raised, SolveError, SolveOptions, Stopped, Work};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::shape::Shape;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// The most positions one walked draw is asked for by the faces: each
/// costs optimal searches.
pub const MAX_WALKED: usize = 1000;

/// How many times one position's walk may be lengthened before the draw
/// gives up: far more than a distance short of the typical one needs (a
/// few), and enough to find 4×4 positions 60 moves away or more (9 of
/// Korf's 100 random ones), yet few enough to stop within seconds where
/// positions are too rare: the ends' searches are quick on 4×4, and on 5×5,
/// where one far from the goal could take hours, a quick solution shows
/// the end too near first ([`NearerFirst`]).
const WALKS: usize = 256;

/// The widths of the beams that look for a quick solution of a walk's end
/// while its optimal search runs, each once the search has generated
/// [`NODES_PER_PLACE`] nodes for each of the beam's places: so searches
/// that end sooner run none, and the beams cost a fraction of the search
/// they may cut short (a beam of 256 takes about as long as 100,000 nodes
/// of the search on 5×5). The narrowest finds no solution for a few ends
/// far from the goal that one of 1,024 does.
const QUICK_WIDTHS: [usize; 3] = [256, 1024, 4096];

/// See [`QUICK_WIDTHS`].
const NODES_PER_PLACE: u64 = 1000;

/// How far positions lie from a goal, where the literature says: no
/// position lies more than `most` moves away, and positions lie at every
/// distance up to `reached` where that is proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Farthest {
    /// The most moves any position needs (an upper bound, or exact).
    pub most: u32,
    /// The distance positions are proved to reach: every distance up to it
    /// has positions, since a shortest path passes through each.
    pub reached: Option<u32>,
}

/// How far positions lie toward `goal`, where it is proved: from a goal
/// with the blank in a corner, 80 moves exactly on 4×4 (Brüngger,
/// Marzetta, Fukuda and Nievergelt 1999; Korf and Schultze 2005 found all
/// 17 positions that far), and at most 210 on 5×5 (Karlemo and Östergård
/// 2000), which says nothing of how far positions do lie. A distance past
/// `most` is refused before any search.
pub(super) fn farthest_known(goal: &Board) -> Option<Farthest> {
    let shape = goal.shape();
    let (from_corner, reached_from_corner) = match (shape.rows(), shape.cols()) {
        (4, 4) => (80, Some(80)),
        (5, 5) => (210, None),
        _ => return None,
    };
    // A goal whose blank is k moves from a corner is k moves from the goal
    // with the blank slid there (a corner goal, its tiles renamed), so no
    // position is more than k moves farther from it, nor more than k
    // nearer.
    let last = shape.cells() - 1;
    let corners = [0, shape.cols() - 1, last + 1 - shape.cols(), last];
    let to_corner = corners.map(|c| shape.steps_between(goal.blank(), c));
    let k = *to_corner.iter().min().expect("four corners") as u32;
    Some(Farthest {
        most: from_corner + k,
        reached: reached_from_corner.map(|r: u32| r - k),
    })
}

/// `distances` cut to those where positions lie from `goal`, as far as
/// that is proved, so that no walk looks for a distance no position has;
/// a range starting past the farthest is refused.
fn within_farthest(
    goal: &Board,
    distances: RangeInclusive<u32>,
) -> Result<RangeInclusive<u32>, WalkError> {
    let Some(Farthest { most: farthest, .. }) = farthest_known(goal) else {
        return Ok(distances);
    };
    let (&first, &last) = (distances.start(), distances.end());
    if first > farthest {
        return Err(WalkError::BeyondFarthest {
            shape: goal.shape(),
            distance: first,
            farthest,
        });
    }
    Ok(first..=last.min(farthest))
}

/// The fewest moves a walk is lengthened by: enough that the end's
/// distance is not the last end's, give or take a few.
const LEAST_STEP: u32 = 16;

/// The most moves a walk is lengthened by at once: far past the point
/// where its end is as good as a uniform draw, so that a distance no
/// position has costs no long walk.
const MOST_STEP: u32 = 1000;

/// How many positions already drawn may come again, one after another,
/// before the draw says there are too few.
const REPEATS: usize = 64;

/// What every face says of a walked draw one of whose searches, `e`, ran
/// past the time limit the face names in `limit` ("--timeout 5 s"), after
/// `found` positions were found: the first that the seed draws, so a draw
/// of that many with the same seed gives them (`again`: how the face asks
/// for it, "--count 6 --seed 3").
pub fn draw_stopped(e: &impl std::fmt::Display, limit: &str, found: usize, again: &str) -> String {
    let stopped = format!(
        "the draw searches for each position's shortest solution, and one search stopped: {e} \
         ({limit}); more time, or fewer moves or positions, may find them"
    );
    let given = match found {
        1 => ", given the time it took",
        _ => ", given the time they took",
    };
    found_before(stopped, found, again, given)
}

/// What every face says of a walked draw that could not find every
/// position asked for, `e` ([`WalkError::TooFar`] or [`WalkError::TooFew`]):
/// as [`draw_stopped`], how to draw those it found, as `again(found)` says
/// in the face's words ("--count 3 --seed 1").
pub fn draw_fell_short(e: &DrawError, again: impl FnOnce(usize) -> String) -> String {
    let found = e.drawn().map_or(0, |drawn| drawn.0.positions.len());
    found_before(e.to_string(), found, &again(found), "")
}

/// `said`, then, if `found` positions came before it, that `again` draws
/// them (and `then`).
fn found_before(said: String, found: usize, again: &str, then: &str) -> String {
    match found {
        0 => said,
        1 => format!("{said}; {again} draws the one position found before it{then}"),
        _ => format!("{said}; {again} draws the {found} positions found before it{then}"),
    }
}

/// [`WalkError::TooFar`]'s message, after `found` positions toward `goal`,
/// where the distance was drawn from `range` if it was.
fn too_far(
    (distance, farthest): (u32, u32),
    goal: &Board,
    found: usize,
    range: Option<&str>,
) -> String {
    let walks = format!("{WALKS} walks, none of which ended more than {farthest} moves away");
    let drawn_from = range.map_or(String::new(), |range| format!(" (drawn from {range})"));
    // A range is drawn uniformly by distance, so one reaching far past the
    // walks asks mostly for what they cannot find.
    let fewer = match range {
        Some(_) => format!("ask for a range up to about {farthest} moves"),
        None => "ask for fewer moves".to_string(),
    };
    // Positions that far are said to exist only where that is proved.
    let rare = match farthest_known(goal) {
        Some(Farthest {
            most,
            reached: Some(reached),
        }) if distance <= reached => {
            let lie = match reached == most {
                true => "the farthest lie",
                false => "some lie",
            };
            format!("positions that far exist ({lie} {reached} moves out), but are")
        }
        Some(Farthest { most, .. }) => format!(
            "positions that far, if there are any (none lies more than {most} moves out), are"
        ),
        None => "positions that far, if there are any, are".to_string(),
    };
    match found {
        0 => format!(
            "no position {distance} moves from the goal{drawn_from} was found in {walks}: {rare} \
             too rare for random walks to reach; {fewer}"
        ),
        _ => format!(
            "no further position {distance} moves from the goal{drawn_from} was found in the \
             next {walks}: positions that far are too rare for random walks to reach many; \
             {fewer}, or fewer positions"
        ),
    }
}

/// A walked draw: the positions, and a shortest solution of each, in order.
pub type Walked = (Sample, Vec<Vec<Move>>);

/// Why a walked draw stopped.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// Walks kept ending nearer than the distance asked for.
    #[error("{}", too_far((*.distance, *.farthest), &drawn.0.goal, drawn.0.positions.len(), range.as_deref()))]
    TooFar {
        /// The distance asked for.
        distance: u32,
        /// The most moves any walk's end needs at most: the length of its
        /// shortest solution, or of a quicker one of fewer moves than
        /// `distance` ([`Sample::walked`]).
        farthest: u32,
        /// The positions found before, with their shortest solutions: the
        /// same seed draws them again, asked for that many.
        drawn: Box<Walked>,
        /// The range asked for, in words, where `distance` was drawn from
        /// one.
        range: Option<String>,
    },
    /// The walks kept finding positions already drawn.
    #[error(
        "found {found} distinct position{} at {distances} move{}, not {asked}: the walks kept \
         finding the same ones (near the goal there may be no more); ask for fewer",
        if *.found == 1 { "" } else { "s" },
        if .distances == "1" { "" } else { "s" }
    )]
    TooFew {
        /// Distinct positions found.
        found: usize,
        /// Positions asked for.
        asked: usize,
        /// The distances, as the user wrote them.
        distances: String,
        /// The positions found, with their shortest solutions, as
        /// [`WalkError::TooFar`]'s.
        drawn: Box<Walked>,
    },
    /// A distance past the farthest any position lies.
    #[error("no {shape} position lies {distance} moves from its goal: none lies more than {farthest} moves away")]
    BeyondFarthest {
        /// The board.
        shape: Shape,
        /// The distance asked for.
        distance: u32,
        /// The most moves any position is proved to need.
        farthest: u32,
    },
    /// More positions asked for than one walked draw takes.
    #[error("a walked draw takes at most {MAX_WALKED} positions, not {0}: each is searched for")]
    TooMany(usize),
    /// A search ran past the deadline, after the positions of `found` (in
    /// the order drawn, so the same seed draws them again, asked for that
    /// many).
    #[error("{stopped}")]
    TimedOut {
        /// Where the search stopped.
        stopped: Stopped,
        /// The positions found before it, with their shortest solutions.
        found: Box<Walked>,
    },
    /// A search failed: cancelled, or the file is damaged.
    #[error(transparent)]
    Search(#[from] AnswerError),
}

impl Sample {
    /// `count` (at most [`MAX_WALKED`]) distinct positions toward `goal`,
    /// each at a distance drawn uniformly from `distances`, found by walks
    /// from the goal that `db` solves on one thread (within `options`' deadline
    /// and cancel flag, which bound the whole draw), and each one's
    /// shortest solution. The positions come in the order drawn, each
    /// independent of `count`: a larger count draws the same first ones.
    pub fn walked<B: AsRef<[u8]>>(
        db: &Database<B>,
        goal: &Board,
        distances: RangeInclusive<u32>,
        count: usize,
        seed: u64,
        options: &SolveOptions,
    ) -> Result<Walked, WalkError> {
        if count > MAX_WALKED {
            return Err(WalkError::TooMany(count));
        }
        // The report keeps the range asked for, as a complete table's does.
        let asked = distances.clone();
        let distances = within_farthest(goal, distances)?;
        db.check_goal(goal)?;
        let guidance = Guidance::for_database(db, goal)?;
        // One thread: a split search's solution, and so the cut, would
        // depend on the cores.
        let options = SolveOptions {
            parallel: false,
            ..*options
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let mut seen = HashSet::with_capacity(count);
        let mut positions = Vec::with_capacity(count);
        let mut solutions = Vec::with_capacity(count);
        let mut repeats = 0;
        let sample = |positions| Sample {
            goal: *goal,
            seed,
            distances: Some([*asked.start(), *asked.end()]),
            positions,
        };
        let walk = Walk {
            db,
            guidance: &guidance,
            goal,
        };
        // A miss names the range drawn from: the one asked, cut at the farthest.
        let drawn_from = (distances.start() != distances.end()).then(|| in_words(&distances));
        while positions.len() < count {
            let distance = rng.gen_range(distances.clone());
            let (start, solution) = match walk.to(distance, &mut rng, &options) {
                Ok(Reached::At(start, solution)) => (start, solution),
                Ok(Reached::Nearer { farthest }) => {
                    return Err(WalkError::TooFar {
                        distance,
                        farthest,
                        drawn: Box::new((sample(positions), solutions)),
                        range: drawn_from,
                    });
                }
                Err(WalkError::Search(AnswerError::Stopped(
                    stopped @ Stopped::TimedOut { .. },
                ))) => {
                    let found = Box::new((sample(positions), solutions));
                    return Err(WalkError::TimedOut { stopped, found });
                }
                Err(e) => return Err(e),
            };
            if seen.insert(start) {
                positions.push(Drawn {
                    start,
                    distance: Some(distance),
                });
                solutions.push(solution);
                repeats = 0;
            } else if repeats == REPEATS {
                return Err(WalkError::TooFew {
                    found: positions.len(),
                    asked: count,
                    distances: in_words(&asked),
                    drawn: Box::new((sample(positions), solutions)),
                });
            } else {
                repeats += 1;
            }
        }
        Ok((sample(positions), solutions))
    }
}

/// Positions at given distances from a goal, as [`Sample::at_distance`]
/// draws them, and where walks found them, a shortest solution of each
/// (a worksheet's key; a complete table looks its own up).
pub type AtDistance = (Sample, Option<Vec<Vec<Move>>>);

/// Why positions at given distances could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    /// The complete table's list cannot give them, or it is damaged.
    #[error(transparent)]
    Listed(#[from] SampleError),
    /// The walks cannot find them.
    #[error(transparent)]
    Walked(WalkError),
    /// A walk's search ran past the deadline, after the positions of
    /// `found` ([`WalkError::TimedOut`]).
    #[error("{stopped}")]
    TimedOut {
        /// Where the search stopped.
        stopped: Stopped,
        /// The positions found before it, with their shortest solutions.
        found: Box<Walked>,
    },
    /// The goal is not served, a walk's search was cancelled, or the file
    /// is damaged.
    #[error(transparent)]
    Answer(#[from] AnswerError),
}

impl DrawError {
    /// The positions a walked draw found before it stopped or fell short,
    /// with their shortest solutions: the same seed draws them again,
    /// asked for that many.
    pub fn drawn(&self) -> Option<&Walked> {
        match self {
            DrawError::TimedOut { found, .. } => Some(found),
            DrawError::Walked(
                WalkError::TooFar { drawn, .. } | WalkError::TooFew { drawn, .. },
            ) => Some(drawn),
            _ => None,
        }
    }
}

impl From<WalkError> for DrawError {
    fn from(e: WalkError) -> Self {
        match e {
            WalkError::Search(e) => DrawError::Answer(e),
            WalkError::TimedOut { stopped, found } => DrawError::TimedOut { stopped, found },
            e => DrawError::Walked(e),
        }
    }
}

/// Refuses more positions than lie at `distances` where they can be
/// counted without a table: within a move of the goal (the goal itself,
/// and one position a blank move), as a complete table's draw refuses
/// them, rather than after walks that keep finding the same ones.
fn nearest_count_enough(
    goal: &Board,
    distances: &RangeInclusive<u32>,
    count: usize,
) -> Result<(), SampleError> {
    if *distances.end() > 1 {
        return Ok(());
    }
    let at = |d: u32| match d {
        0 => 1,
        _ => goal.successors().count() as u64,
    };
    let available: u64 = distances.clone().map(at).sum();
    match count as u64 > available {
        true => Err(SampleError::TooFew {
            asked: count,
            available,
            distances: in_words(distances),
        }),
        false => Ok(()),
    }
}

impl Sample {
    /// `count` distinct positions toward `goal` at `distances`, on either
    /// kind of database: drawn uniformly from a complete table's list
    /// ([`Sample::draw`]; `options` unused), or walked and solved on
    /// pattern databases ([`Sample::walked`], within `options`' deadline
    /// and cancel flag). Every face draws through here, so a seed gives
    /// the same positions on each.
    pub fn at_distance<B: AsRef<[u8]>>(
        db: &Database<B>,
        goal: &Board,
        distances: RangeInclusive<u32>,
        (count, seed): (usize, u64),
        options: &SolveOptions,
    ) -> Result<AtDistance, DrawError> {
        match db.complete() {
            Ok(tables) => {
                let target = tables.goal_table(goal)?;
                Ok((Sample::draw(&target, distances, count, seed)?, None))
            }
            Err(_) => {
                nearest_count_enough(goal, &distances, count)?;
                let (sample, solutions) =
                    Sample::walked(db, goal, distances, count, seed, options)?;
                Ok((sample, Some(solutions)))
            }
        }
    }

    /// The table a uniform draw toward `goal` takes its distances from:
    /// complete tables' table toward it, refused where they have none (its
    /// positions could not be given theirs); none from a pattern database,
    /// whose draw needs nothing of its tables, so that any goal is drawn
    /// toward, as with no file.
    pub fn distance_table<'d, B: AsRef<[u8]>>(
        db: &'d Database<B>,
        goal: &Board,
    ) -> Result<Option<GoalTable<'d>>, AnswerError> {
        match db.complete() {
            Ok(tables) => Ok(Some(tables.goal_table(goal)?)),
            Err(_) => Ok(None),
        }
    }

    /// `count` positions drawn uniformly from every one that reaches
    /// `goal` ([`Sample::uniform`]), each with its distance where `db` has
    /// complete tables toward it ([`Sample::distance_table`]).
    pub fn uniform_for<B: AsRef<[u8]>>(
        db: Option<&Database<B>>,
        goal: &Board,
        count: usize,
        seed: u64,
    ) -> Result<Sample, DrawError> {
        let Some(db) = db else {
            return Ok(Sample::uniform(goal, count, seed));
        };
        // The goal's table is found (or refused) once, before the draw.
        let target = Sample::distance_table(db, goal)?;
        let drawn = Sample::uniform(goal, count, seed);
        match target {
            Some(target) => Ok(drawn.with_distances(&target)?),
            None => Ok(drawn),
        }
    }
}

/// Walks from a goal, solved through a database.
struct Walk<'a, B> {
    db: &'a Database<B>,
    /// The database's guide toward the goal, for quick solutions.
    guidance: &'a Guidance<'a>,
    goal: &'a Board,
}

impl<B: AsRef<[u8]>> Walk<'_, B> {
    /// One position `distance` moves from the goal, and its shortest
    /// solution: a walk from the goal, lengthened until its end is at least
    /// that far, then cut on the end's shortest solution; or, after
    /// [`WALKS`] walks that ended nearer, how far the farthest did.
    fn to(
        &self,
        distance: u32,
        rng: &mut StdRng,
        options: &SolveOptions,
    ) -> Result<Reached, WalkError> {
        let goal = self.goal;
        let (mut at, mut at_distance, mut last) = (*goal, 0, None::<Move>);
        if distance == 0 {
            return Ok(Reached::At(at, Vec::new()));
        }
        let mut farthest = 0;
        for _ in 0..WALKS {
            // Half as many moves again as are missing, so that the walk may
            // reach past the distance (the solution is cut there), and near
            // the typical distance enough to be another position.
            let short = distance - at_distance;
            let steps = short.saturating_add(short.div_ceil(2));
            for _ in 0..steps.clamp(LEAST_STEP, MOST_STEP) {
                // Never straight back: that walk would only wander.
                let ways: Vec<(Move, Board)> = (at.successors())
                    .filter(|(m, _)| Some(m.opposite()) != last)
                    .collect();
                let (m, next) = ways[rng.gen_range(0..ways.len())];
                (at, last) = (next, Some(m));
            }
            let moves = match self.solve(&at, distance, options)? {
                End::Shortest(moves) => moves,
                End::Nearer(moves) => {
                    // Its shortest solution is no longer.
                    let length = moves.len() as u32;
                    farthest = farthest.max(length);
                    at_distance = length;
                    continue;
                }
            };
            // Go on along the shortest solution until `distance` moves are left.
            let left = moves.len() as u32;
            if left >= distance {
                let (cut, rest) = moves.split_at((left - distance) as usize);
                let position = at
                    .replay(cut)
                    .expect("a solution's moves stay on the board");
                return Ok(Reached::At(position, rest.to_vec()));
            }
            farthest = farthest.max(left);
            at_distance = left;
        }
        Ok(Reached::Nearer { farthest })
    }

    /// The shortest solution of the walk's end `at`, unless a quick one
    /// shows first that it is nearer than `distance` ([`NearerFirst`]).
    fn solve(&self, at: &Board, distance: u32, options: &SolveOptions) -> Result<End, WalkError> {
        let Some(tables) = self.db.patterns() else {
            return Ok(End::Shortest(self.db.solve(at, self.goal, options)?.moves));
        };
        let mut budget = NearerFirst {
            walk: self,
            at,
            distance,
            options,
            tried: 0,
            gave_up: None,
        };
        match tables.solve_budgeted(at, self.goal, &mut budget, options)? {
            Raised::Found(solution) => Ok(End::Shortest(solution.moves)),
            Raised::Spent { .. } => {
                match budget.gave_up.expect("the budget says why it gives up") {
                    Ok(moves) => Ok(End::Nearer(moves)),
                    Err(e) => Err(AnswerError::from(e).into()),
                }
            }
        }
    }
}

/// Where the walks toward one distance got.
enum Reached {
    /// A position that far, and its shortest solution.
    At(Board, Vec<Move>),
    /// None: every walk ended nearer, the farthest `farthest` moves away.
    Nearer { farthest: u32 },
}

/// What a walk's end was found to be.
enum End {
    /// Its shortest solution.
    Shortest(Vec<Move>),
    /// Nearer than the distance asked for: a solution of fewer moves.
    Nearer(Vec<Move>),
}

/// The budget of a walk's end's optimal search: at each point of
/// [`QUICK_WIDTHS`], while the search has not proved the end at least
/// `distance` away, a beam looks for a solution of fewer moves, and if it
/// finds one the search gives up. The points are counts of nodes, so the
/// same ends are cut short on every run.
struct NearerFirst<'a, B> {
    walk: &'a Walk<'a, B>,
    at: &'a Board,
    distance: u32,
    options: &'a SolveOptions<'a>,
    /// The beams run so far.
    tried: usize,
    /// Why the search was given up: the quick solution, or the beam's
    /// stop.
    gave_up: Option<Result<Vec<Move>, SolveError>>,
}

impl<B: AsRef<[u8]>> Budget for NearerFirst<'_, B> {
    fn known(&self) -> u32 {
        0
    }

    fn grant(&mut self, proved: u32, work: Work) -> Option<u64> {
        while let Some(&width) = QUICK_WIDTHS.get(self.tried) {
            // An end proved that far has no shorter solution to find.
            if proved >= self.distance {
                break;
            }
            let at = width as u64 * NODES_PER_PLACE;
            if work.generated < at {
                return Some(at);
            }
            self.tried += 1;
            let shorter = self.distance as usize - 1;
            let problem = (self.at, self.walk.goal);
            let guidance = self.walk.guidance;
            match quick_solution(problem, width, shorter, guidance, self.options) {
                Ok(None) => {}
                Ok(Some(moves)) => {
                    self.gave_up = Some(Ok(moves));
                    return None;
                }
                Err(e) => {
                    self.gave_up = Some(Err(e.after(proved, work)));
                    return None;
                }
            }
        }
        Some(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On 4×4 a range past 80 moves draws up to 80 toward a goal with the
    /// blank in a corner, and one starting past it is refused; a goal's
    /// blank 1 or 2 moves from a corner adds as many; 5×5 ends at 210 and
    /// more, and boards with no proved farthest distance keep theirs.
    #[test]
    fn ranges_end_at_the_farthest_distance_there_is() {
        // A goal of `shape` with `tiles` in its cells in turn, 0 the blank.
        let goal = |shape: &str, tiles: &mut dyn Iterator<Item = u8>| {
            let tiles: Vec<String> = tiles.map(|t| t.to_string()).collect();
            crate::parse_board(&tiles.join(" "), shape.parse().unwrap()).unwrap()
        };
        let four = goal("4x4", &mut (0..16));
        assert_eq!(within_farthest(&four, 70..=200).unwrap(), 70..=80);
        assert_eq!(within_farthest(&four, 0..=u32::MAX).unwrap(), 0..=80);
        assert_eq!(within_farthest(&four, 80..=80).unwrap(), 80..=80);
        assert!(matches!(
            within_farthest(&four, 81..=90),
            Err(WalkError::BeyondFarthest {
                distance: 81,
                farthest: 80,
                ..
            })
        ));
        // The blank last (a corner), at row 2, column 4 (an edge), and at
        // row 2, column 3 (inside).
        for (blank, farthest) in [(15, 80), (7, 81), (6, 82)] {
            let board = goal("4x4", &mut (1..=blank).chain([0]).chain(blank + 1..16));
            assert_eq!(board.blank(), blank as usize);
            assert_eq!(within_farthest(&board, 0..=90).unwrap(), 0..=farthest);
        }
        let five = goal("5x5", &mut (0..25));
        assert_eq!(within_farthest(&five, 70..=300).unwrap(), 70..=210);
        let centre = goal("5x5", &mut (1..=12).chain([0]).chain(13..25));
        assert_eq!(centre.blank(), 12);
        assert_eq!(within_farthest(&centre, 70..=300).unwrap(), 70..=214);
        let wide = goal("4x5", &mut (0..20));
        assert_eq!(within_farthest(&wide, 70..=300).unwrap(), 70..=300);
    }

    /// Positions are said to lie as far as the walks could not reach only
    /// where that is proved: up to 80 moves from a 4×4 goal with the blank
    /// in a corner, 2 fewer from one with the blank inside (2 moves from a
    /// corner), and never on 5×5, where only an upper bound is known.
    #[test]
    fn positions_too_far_for_walks_are_said_to_exist_only_where_proved() {
        let goal = |shape: &str, tiles: Vec<u8>| {
            let tiles: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
            crate::parse_board(&tiles.join(" "), shape.parse().unwrap()).unwrap()
        };
        let corner = goal("4x4", (0..16).collect());
        let inside = goal("4x4", (1..=6).chain([0]).chain(7..16).collect());
        let five = goal("5x5", (0..25).collect());
        let three = goal("3x3", (0..9).collect());
        // The goal, what is known of it (most, reached), the distance
        // asked for, and what the message says of it.
        let cases = [
            (
                &corner,
                Some((80, Some(80))),
                80,
                "positions that far exist (the farthest lie 80 moves out), but are",
            ),
            (
                &inside,
                Some((82, Some(78))),
                78,
                "positions that far exist (some lie 78 moves out), but are",
            ),
            (
                &inside,
                Some((82, Some(78))),
                79,
                "positions that far, if there are any (none lies more than 82 moves out), are",
            ),
            (
                &five,
                Some((210, None)),
                200,
                "positions that far, if there are any (none lies more than 210 moves out), are",
            ),
            (
                &three,
                None,
                31,
                "positions that far, if there are any, are",
            ),
        ];
        for (goal, known, distance, says) in cases {
            let known = known.map(|(most, reached)| Farthest { most, reached });
            assert_eq!(farthest_known(goal), known, "{goal}");
            let said = too_far((distance, 29), goal, 0, None);
            assert!(said.contains(&format!("{says} too rare")), "{said}");
        }
    }

    /// A walk's end far from the 5×5 goal, asked whether it is 200 moves
    /// away: the optimal search through small tables would take hours, but
    /// once it has spent its first grant a beam finds a solution of fewer
    /// moves, which shows the end nearer. An end 12 moves out is solved by
    /// the search alone.
    #[test]
    fn a_far_end_is_shown_nearer_by_a_quick_solution() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("5x5.db");
        let shape: Shape = "5x5".parse().unwrap();
        let plan = crate::db::build::Plan::Patterns {
            partition: crate::pattern::Partition::named(shape, "4-4-4-4-4-4").unwrap(),
            goal_blanks: vec![shape.cells() - 1],
        };
        crate::db::build::build(&path, &plan, &|_, _| {}).unwrap();
        let db = Database::open(&path).unwrap();
        let goal = Board::goal(shape);
        let guidance = Guidance::for_database(&db, &goal).unwrap();
        let walk = Walk {
            db: &db,
            guidance: &guidance,
            goal: &goal,
        };
        let options = SolveOptions::default();
        // The tiles reversed: solvable (276 inversions, the blank home).
        let reversed: Vec<String> = (0..25).rev().map(|t| t.to_string()).collect();
        let far = crate::parse_board(&reversed.join(" "), shape).unwrap();
        let End::Nearer(moves) = walk.solve(&far, 200, &options).unwrap() else {
            panic!("the search of the reversed tiles ended");
        };
        assert!(moves.len() < 200, "{}", moves.len());
        assert_eq!(far.replay(&moves), Some(goal));
        let out: Vec<Move> = "UULLDRULLURD"
            .chars()
            .map(|c| Move::from_letter(c).unwrap())
            .collect();
        let near = goal.replay(&out).unwrap();
        let End::Shortest(moves) = walk.solve(&near, 200, &options).unwrap() else {
            panic!("a quick solution cut short the search of an end 12 moves out");
        };
        assert!(moves.len() <= 12 && moves.len() % 2 == 0, "{}", moves.len());
        assert_eq!(near.replay(&moves), Some(goal));
    }
}
