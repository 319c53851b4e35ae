//! How good each classic heuristic ([`Heuristic`], in the `puzzle` layer)
//! is against the exact distances of a table: a complete table lets anyone
//! count, over every position, how far each one is from the truth
//! ([`survey`]).

use crate::db::goal_table::GoalTable;
use crate::puzzle::board::Move;
use crate::puzzle::heuristic::{Evaluator, Heuristic};
use crate::puzzle::metric::Metric;
use rayon::prelude::*;
use serde::Serialize;

/// What a heuristic estimates for the positions at one true distance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DistanceStats {
    /// The true distance to the goal.
    pub distance: u32,
    /// Positions at that distance.
    pub count: u64,
    /// Mean of the heuristic over them.
    pub mean: f64,
    /// Smallest value of the heuristic among them.
    pub min: u32,
    /// Largest value of the heuristic among them.
    pub max: u32,
    /// How many of them the heuristic gives each value, from 0 to `max`
    /// (`h_counts[h]`): the joint distribution of h and h*, for predictions
    /// of a search's nodes. Empty where no position lies at the distance.
    pub h_counts: Vec<u64>,
}

/// How one heuristic compares with the exact distances of every position
/// that can reach a goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Survey {
    /// The heuristic surveyed.
    pub heuristic: Heuristic,
    /// The goal, written as in the rest of the tool's output.
    pub goal: String,
    /// Positions surveyed: every position that can reach the goal.
    pub positions: u64,
    /// One entry per true distance, 0 to the table's maximum, in order.
    pub by_distance: Vec<DistanceStats>,
    /// Positions where the heuristic is above the true distance.
    pub inadmissible: u64,
    /// Moves examined for consistency: every legal move from every position,
    /// so each pair of neighbouring positions is examined once in each
    /// direction.
    pub moves: u64,
    /// Moves along which the heuristic drops by more than 1. Since the
    /// heuristic then rises along the reverse move, each inconsistent pair of
    /// neighbours is counted exactly once.
    pub inconsistent: u64,
    /// Mean of h / h* over the positions with true distance h* above 0: how
    /// much of the distance the heuristic sees.
    pub mean_ratio: f64,
}

/// Running sums for part of a table.
#[derive(Clone)]
struct Tally {
    count: Vec<u64>,
    sum: Vec<u64>,
    min: Vec<u32>,
    max: Vec<u32>,
    /// Positions by distance and h: `H_VALUES` counts per distance.
    by_h: Vec<u64>,
    inadmissible: u64,
    moves: u64,
    inconsistent: u64,
}

impl Tally {
    /// Counts the position of rank `rank`: its heuristic value `h[rank]`
    /// against its true distance, and against its neighbours' values.
    #[inline]
    fn add(&mut self, target: &GoalTable<'_>, h: &[u8], rank: u32) {
        let distances = self.count.len();
        // A damaged entry is `verify`'s to report.
        let Some(d) = target
            .distance_at(rank)
            .ok()
            .map(|d| d as usize)
            .filter(|&d| d < distances)
        else {
            return;
        };
        let value = h[rank as usize] as u32;
        self.count[d] += 1;
        self.sum[d] += value as u64;
        self.min[d] = self.min[d].min(value);
        self.max[d] = self.max[d].max(value);
        self.by_h[d * H_VALUES + value as usize] += 1;
        if value > d as u32 {
            self.inadmissible += 1;
        }
        let ranker = target.ranker();
        let cursor = ranker.cursor_at(rank);
        for m in Move::ALL {
            if let Some(next) = ranker.step(&cursor, m) {
                self.moves += 1;
                if value > h[next.rank() as usize] as u32 + 1 {
                    self.inconsistent += 1;
                }
            }
        }
    }

    /// The sum of h / h* over the positions beyond the goal, from the
    /// counts of each (h*, h), in one order: a sum in floating point
    /// gathered across threads would come out differently in its last
    /// digit from run to run.
    fn ratio_sum(&self) -> f64 {
        let rows = self.by_h.chunks(H_VALUES).enumerate().skip(1);
        rows.map(|(d, counts)| {
            let h_sum: u64 = (counts.iter().enumerate())
                .map(|(h, &n)| h as u64 * n)
                .sum();
            h_sum as f64 / d as f64
        })
        .sum()
    }

    fn new(distances: usize) -> Tally {
        Tally {
            count: vec![0; distances],
            sum: vec![0; distances],
            min: vec![u32::MAX; distances],
            max: vec![0; distances],
            by_h: vec![0; distances * H_VALUES],
            inadmissible: 0,
            moves: 0,
            inconsistent: 0,
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        for d in 0..self.count.len() {
            self.count[d] += other.count[d];
            self.sum[d] += other.sum[d];
            self.min[d] = self.min[d].min(other.min[d]);
            self.max[d] = self.max[d].max(other.max[d]);
        }
        for (mine, theirs) in self.by_h.iter_mut().zip(&other.by_h) {
            *mine += theirs;
        }
        self.inadmissible += other.inadmissible;
        self.moves += other.moves;
        self.inconsistent += other.inconsistent;
        self
    }
}

/// The values an h can take in a survey: it is kept in a byte.
const H_VALUES: usize = 256;

/// Ranks per unit of parallel work: large enough that scheduling costs
/// nothing, small enough that both passes split evenly across cores.
const CHUNK: usize = 4096;

/// The classic heuristics and the textbook searches count one tile a move:
/// set beside multi-tile distances, their figures would mislead (Manhattan
/// distance overestimates them), so they are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the heuristics and the textbook searches count single-tile moves, and this table counts \
     {} moves",
    metric.words()
)]
pub struct NeedsSingleTile {
    /// The table's metric.
    pub metric: Metric,
}

impl NeedsSingleTile {
    /// Refuses any metric but the single-tile one.
    pub fn check(metric: Metric) -> Result<(), NeedsSingleTile> {
        match metric {
            Metric::SingleTile => Ok(()),
            metric => Err(NeedsSingleTile { metric }),
        }
    }
}

/// Compares `heuristic` with the true distance of every position that can
/// reach the target's goal (single-tile tables only).
///
/// Works in the table's canonical frame: each rank's board is unranked as
/// it is stored, and evaluated against the canonical goal. Renaming tiles,
/// and reflecting or turning the board (when the table is a symmetric
/// cell's), changes neither the heuristics nor the distances, so the figures
/// hold for the target's goal. A first pass evaluates every position once; a second
/// reads the neighbours' values by rank, moving a rank cursor instead of
/// evaluating neighbours again. Both passes run in parallel.
pub fn survey(target: &GoalTable<'_>, heuristic: Heuristic) -> Result<Survey, NeedsSingleTile> {
    NeedsSingleTile::check(target.metric())?;
    let ranker = *target.ranker();
    let entries = target.entries();
    let eval = Evaluator::new(&target.to_table(target.goal()));
    let distances = target.info().counts.len();

    // Every h fits a byte: at most 11 tiles, each at most 6 cells away, plus
    // 2 per tile in conflict.
    let mut h = vec![0u8; entries.len()];
    h.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, values)| {
            let first = chunk * CHUNK;
            for (i, value) in values.iter_mut().enumerate() {
                let board = ranker.unrank((first + i) as u32);
                *value = eval.h(heuristic, &board) as u8;
            }
        });

    let tally = (0..entries.len().div_ceil(CHUNK))
        .into_par_iter()
        .fold(
            || Tally::new(distances),
            |mut tally, chunk| {
                let ranks = chunk * CHUNK..((chunk + 1) * CHUNK).min(entries.len());
                for rank in ranks {
                    tally.add(target, &h, rank as u32);
                }
                tally
            },
        )
        .reduce(|| Tally::new(distances), Tally::merge);

    let by_distance = (0..distances)
        .map(|d| DistanceStats {
            distance: d as u32,
            count: tally.count[d],
            mean: if tally.count[d] == 0 {
                0.0
            } else {
                tally.sum[d] as f64 / tally.count[d] as f64
            },
            min: if tally.count[d] == 0 { 0 } else { tally.min[d] },
            max: tally.max[d],
            h_counts: match tally.count[d] {
                0 => Vec::new(),
                _ => tally.by_h[d * H_VALUES..=d * H_VALUES + tally.max[d] as usize].to_vec(),
            },
        })
        .collect();
    let beyond_goal = entries.len() as u64 - tally.count.first().copied().unwrap_or(0);
    Ok(Survey {
        heuristic,
        goal: target.goal().to_string(),
        positions: entries.len() as u64,
        by_distance,
        inadmissible: tally.inadmissible,
        moves: tally.moves,
        inconsistent: tally.inconsistent,
        mean_ratio: if beyond_goal == 0 {
            0.0
        } else {
            tally.ratio_sum() / beyond_goal as f64
        },
    })
}

/// Every heuristic surveyed over every position toward one goal, as
/// `query heuristics --json` prints it and Python's
/// `Database.heuristics_survey()` returns it: the board and goal, as every
/// answer names them, the positions, and one [`Survey`] per heuristic.
#[derive(Clone, Debug, Serialize)]
pub struct Surveys {
    /// The board, `3x3`.
    pub board: String,
    /// The goal.
    pub goal: String,
    /// Positions surveyed: every position that can reach the goal.
    pub positions: u64,
    /// One per heuristic of [`Heuristic::ALL`], in that order.
    pub heuristics: Vec<Survey>,
}

impl Surveys {
    /// [`survey_all`] toward `target`'s goal.
    pub fn toward(target: &GoalTable<'_>) -> Result<Surveys, NeedsSingleTile> {
        let heuristics = survey_all(target)?;
        Ok(Surveys {
            board: target.goal().shape().to_string(),
            goal: target.goal().to_string(),
            positions: heuristics.first().map_or(0, |s| s.positions),
            heuristics,
        })
    }
}

/// [`survey`] of each of [`Heuristic::ALL`], in that order, the four run in
/// parallel.
pub fn survey_all(target: &GoalTable<'_>) -> Result<Vec<Survey>, NeedsSingleTile> {
    NeedsSingleTile::check(target.metric())?;
    Heuristic::ALL
        .par_iter()
        .map(|&heuristic| survey(target, heuristic))
        .collect()
}
