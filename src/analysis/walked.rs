//! Positions of exact difficulty where no table lists them: on a board with
//! pattern databases, each is found by a seeded random walk from the goal,
//! solved optimally, and cut where its shortest solution is K moves from
//! the goal.
//!
//! A position on a shortest solution lies exactly as far from the goal as
//! the solution has moves left, so the cut needs no second search. The
//! draw is not uniform over the positions at K (only a complete table
//! could make it so), but every position is exactly K moves away, and the
//! seed draws the same ones on every face.

use super::sample::{Drawn, Sample};
use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::pattern::SolveOptions;
use crate::puzzle::board::{Board, Move};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// The most positions one walked draw is asked for by the faces: each
/// costs optimal searches.
pub const MAX_WALKED: usize = 1000;

/// How many times one position's walk may be lengthened before the draw
/// gives up: far more than a distance short of the typical one needs (a
/// few), and enough to find the 7% of 4×4 positions 60 moves away or more,
/// yet few enough to stop within seconds where positions are too rare.
const WALKS: usize = 256;

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
    /// A search failed: stopped at its deadline, or the file is damaged.
    #[error(transparent)]
    Search(#[from] AnswerError),
}

impl Sample {
    /// `count` distinct positions toward `goal`, each at a distance drawn
    /// uniformly from `distances`, found by walks from the goal that `db`
    /// solves (within `options`: its deadline bounds the whole draw). The
    /// positions come in the order drawn, each independent of `count`: a
    /// larger count draws the same first ones.
    pub fn walked<B: AsRef<[u8]>>(
        db: &Database<B>,
        goal: &Board,
        distances: RangeInclusive<u32>,
        count: usize,
        seed: u64,
        options: &SolveOptions,
    ) -> Result<Sample, WalkError> {
        db.check_goal(goal)?;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut seen = HashSet::with_capacity(count);
        let mut positions = Vec::with_capacity(count);
        let mut repeats = 0;
        while positions.len() < count {
            let distance = rng.gen_range(distances.clone());
            let start = walk_to(db, goal, distance, &mut rng, options)?;
            if seen.insert(start) {
                positions.push(Drawn {
                    start,
                    distance: Some(distance),
                });
                repeats = 0;
            } else if repeats == REPEATS {
                let (lo, hi) = (*distances.start(), *distances.end());
                return Err(WalkError::TooFew {
                    found: positions.len(),
                    asked: count,
                    distances: match lo == hi {
                        true => lo.to_string(),
                        false => format!("{lo} to {hi}"),
                    },
                });
            } else {
                repeats += 1;
            }
        }
        Ok(Sample {
            goal: *goal,
            seed,
            distances: Some([*distances.start(), *distances.end()]),
            positions,
        })
    }
}

/// One position `distance` moves from `goal`: a walk from the goal, lengthened
/// until its end is at least that far, then cut on the end's shortest
/// solution.
fn walk_to<B: AsRef<[u8]>>(
    db: &Database<B>,
    goal: &Board,
    distance: u32,
    rng: &mut StdRng,
    options: &SolveOptions,
) -> Result<Board, WalkError> {
    let (mut at, mut at_distance, mut last) = (*goal, 0, None::<Move>);
    if distance == 0 {
        return Ok(at);
    }
    let mut farthest = 0;
    for _ in 0..WALKS {
        // Half as many moves again as are missing, so that the walk may
        // reach past the distance (the solution is cut there), and near
        // the typical distance enough to be another position.
        let short = distance - at_distance;
        for _ in 0..(short + short.div_ceil(2)).clamp(LEAST_STEP, MOST_STEP) {
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
            let cut = &solution.moves[..(left - distance) as usize];
            return Ok(at
                .replay(cut)
                .expect("a solution's moves stay on the board"));
        }
        farthest = farthest.max(left);
        at_distance = left;
    }
    Err(WalkError::TooFar { distance, farthest })
}
