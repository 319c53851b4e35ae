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
//! the same solution whatever the cores.

use super::sample::{in_words, Drawn, Sample, SampleError};
use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::pattern::{SolveOptions, Stopped};
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
/// Korf's 100 random ones), yet few enough to stop within a second on 4×4
/// where positions are too rare (on 5×5 each search of a position that far
/// takes long: the deadline stops it).
const WALKS: usize = 256;

/// The farthest any position lies from its goal, where it is proved: the
/// 4×4 board's 80 moves (Brüngger, Marzetta, Fukuda and Nievergelt 1999;
/// Korf and Schultze 2005 found all 17 positions that far). A distance past
/// it is refused before any search.
fn farthest_known(shape: Shape) -> Option<u32> {
    (shape.rows() == 4 && shape.cols() == 4).then_some(80)
}

/// `distances` cut to those where positions lie on `shape`, as far as that
/// is proved, so that no walk looks for a distance no position has; a
/// range starting past the farthest is refused.
fn within_farthest(
    shape: Shape,
    distances: RangeInclusive<u32>,
) -> Result<RangeInclusive<u32>, WalkError> {
    let Some(farthest) = farthest_known(shape) else {
        return Ok(distances);
    };
    let (&first, &last) = (distances.start(), distances.end());
    if first > farthest {
        let distance = first;
        return Err(WalkError::BeyondFarthest {
            shape,
            distance,
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
    match found {
        0 => stopped,
        1 => format!(
            "{stopped}; {again} draws the one position found before it, given the time it took"
        ),
        _ => format!(
            "{stopped}; {again} draws the {found} positions found before it, given the time \
             they took"
        ),
    }
}

/// A walked draw: the positions, and a shortest solution of each, in order.
pub type Walked = (Sample, Vec<Vec<Move>>);

/// Why a walked draw stopped.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// Walks kept ending nearer than the distance asked for.
    #[error(
        "no position {distance} moves from the goal was found in {WALKS} walks, the farthest \
         {farthest} moves away: positions that far are too rare for random walks to reach; ask \
         for fewer moves"
    )]
    TooFar {
        /// The distance asked for.
        distance: u32,
        /// The farthest from the goal that a walk ended.
        farthest: u32,
    },
    /// The walks kept finding positions already drawn.
    #[error(
        "found {found} distinct position{} at {distances} move{}, not {asked}: the walks kept \
         finding the same ones; ask for fewer",
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
    },
    /// A distance past the farthest any position lies.
    #[error("no {shape} position lies {distance} moves from its goal: the farthest lie {farthest} moves away")]
    BeyondFarthest {
        /// The board.
        shape: Shape,
        /// The distance asked for.
        distance: u32,
        /// The farthest distance there is.
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
        let distances = within_farthest(goal.shape(), distances)?;
        db.check_goal(goal)?;
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
        while positions.len() < count {
            let distance = rng.gen_range(distances.clone());
            let (start, solution) = match walk_to(db, goal, distance, &mut rng, &options) {
                Ok(walked) => walked,
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

impl From<WalkError> for DrawError {
    fn from(e: WalkError) -> Self {
        match e {
            WalkError::Search(e) => DrawError::Answer(e),
            WalkError::TimedOut { stopped, found } => DrawError::TimedOut { stopped, found },
            e => DrawError::Walked(e),
        }
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
                let (sample, solutions) =
                    Sample::walked(db, goal, distances, count, seed, options)?;
                Ok((sample, Some(solutions)))
            }
        }
    }

    /// `count` positions drawn uniformly from every one that reaches
    /// `goal` ([`Sample::uniform`]), each with its distance where `db` has
    /// complete tables (pattern tables have none, and no file is needed).
    /// A goal the file cannot answer is refused, as every question refuses
    /// it: its puzzles could not be solved from the file.
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
        let target = match db.complete() {
            Ok(tables) => Some(tables.goal_table(goal)?),
            Err(_) => {
                db.check_goal(goal)?;
                None
            }
        };
        let drawn = Sample::uniform(goal, count, seed);
        match target {
            Some(target) => Ok(drawn.with_distances(&target)?),
            None => Ok(drawn),
        }
    }
}

/// One position `distance` moves from `goal`, and its shortest solution: a
/// walk from the goal, lengthened until its end is at least that far, then
/// cut on the end's shortest solution.
fn walk_to<B: AsRef<[u8]>>(
    db: &Database<B>,
    goal: &Board,
    distance: u32,
    rng: &mut StdRng,
    options: &SolveOptions,
) -> Result<(Board, Vec<Move>), WalkError> {
    let (mut at, mut at_distance, mut last) = (*goal, 0, None::<Move>);
    if distance == 0 {
        return Ok((at, Vec::new()));
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
        let solution = db.solve(&at, goal, options)?;
        // Go on along the shortest solution until `distance` moves are left.
        let left = solution.moves.len() as u32;
        if left >= distance {
            let (cut, rest) = solution.moves.split_at((left - distance) as usize);
            let position = at
                .replay(cut)
                .expect("a solution's moves stay on the board");
            return Ok((position, rest.to_vec()));
        }
        farthest = farthest.max(left);
        at_distance = left;
    }
    Err(WalkError::TooFar { distance, farthest })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On 4×4 a range past 80 moves draws up to 80, and one starting past
    /// it is refused; boards with no proved farthest distance keep theirs.
    #[test]
    fn ranges_end_at_the_farthest_distance_there_is() {
        let (four, five) = (Shape::new(4, 4).unwrap(), Shape::new(5, 5).unwrap());
        assert_eq!(within_farthest(four, 70..=200).unwrap(), 70..=80);
        assert_eq!(within_farthest(four, 0..=u32::MAX).unwrap(), 0..=80);
        assert_eq!(within_farthest(four, 80..=80).unwrap(), 80..=80);
        assert!(matches!(
            within_farthest(four, 81..=90),
            Err(WalkError::BeyondFarthest {
                distance: 81,
                farthest: 80,
                ..
            })
        ));
        assert_eq!(within_farthest(five, 70..=200).unwrap(), 70..=200);
    }
}
