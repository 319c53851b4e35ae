//! Single-tile against multi-tile distances: how the two ways of counting
//! moves relate over every position of a board, toward one goal.
//!
//! A slide of k tiles is k single-tile moves, so a position's multi-tile
//! distance is at most its single-tile distance, and at least that divided
//! by the longest slide. The joint histogram shows where between those
//! bounds the positions lie.

use crate::db::goal_table::GoalTable;
use crate::puzzle::board::Board;
use crate::puzzle::metric::Metric;
use rayon::prelude::*;
use serde::Serialize;

/// Ranks per parallel work item.
const CHUNK: usize = 1 << 16;

/// What `query compare-metrics` reports for one goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricComparison {
    /// The goal.
    #[serde(serialize_with = "super::histogram::as_text")]
    pub goal: Board,
    /// Positions compared: every one that reaches the goal.
    pub positions: u64,
    /// Positions at each pair of distances, in order of the single-tile
    /// distance, then the multi-tile one; pairs that no position has are
    /// left out.
    pub joint: Vec<JointCount>,
    /// The largest single-tile distance over multi-tile distance, and a
    /// position that has it (the first in rank order); none when the goal
    /// is the only position.
    pub largest_ratio: Option<Ratio>,
}

/// Positions at one pair of distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JointCount {
    /// The single-tile distance.
    pub stm: u32,
    /// The multi-tile distance.
    pub mtm: u32,
    /// Positions at both.
    pub positions: u64,
}

/// A position whose single-tile distance is the largest multiple of its
/// multi-tile distance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratio {
    /// `stm / mtm`.
    pub ratio: f64,
    /// The single-tile distance.
    pub stm: u32,
    /// The multi-tile distance.
    pub mtm: u32,
    /// The position.
    #[serde(serialize_with = "super::histogram::as_text")]
    pub position: Board,
}

/// Why two tables cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetricsError {
    /// A table of the wrong metric in one of the two places.
    #[error("the {which} table counts {got} moves, expected {expected}")]
    WrongMetric {
        /// `first` or `second`.
        which: &'static str,
        /// The metric it should count.
        expected: Metric,
        /// The metric it counts.
        got: Metric,
    },
    /// Tables toward different goals or of different boards.
    #[error("the two tables count toward different goals ({0} and {1})")]
    OtherGoals(Board, Board),
    /// A damaged entry.
    #[error("a table is damaged at rank {0}")]
    Corrupt(u32),
}

/// Compares every position's distance in `single` (a single-tile table)
/// and `multi` (a multi-tile one) toward the same goal. Scans both tables
/// once, on every core; each position is looked up in `multi` by its board
/// (the two files may route the goal through different symmetric tables).
pub fn compare_metrics(
    single: &GoalTable<'_>,
    multi: &GoalTable<'_>,
) -> Result<MetricComparison, MetricsError> {
    check_pair(single, multi)?;
    // Ranks of the two tables name the same positions when both read the
    // goal through the same frame: then no board is built per position.
    let same_frame = single.same_frame(multi);
    // A scan of every entry reads both sides unchecked (`verify` checks them).
    let multi_rank = |rank| match same_frame {
        true => Ok(rank),
        false => multi.cursor(&single.board_at(rank)).map(|c| c.rank()),
    };
    let rows = single.info().max_distance as usize + 1;
    let cols = multi.info().max_distance as usize + 1;
    let len = single.entries().len();
    let partials: Vec<Partial> = (0..len.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut part = Partial::new(rows * cols);
            for rank in (chunk * CHUNK..len.min((chunk + 1) * CHUNK)).map(|r| r as u32) {
                let stm = single
                    .distance_at(rank)
                    .map_err(|_| MetricsError::Corrupt(rank))?;
                let mtm = multi_rank(rank)
                    .and_then(|r| multi.distance_at(r))
                    .map_err(|_| MetricsError::Corrupt(rank))?;
                if stm as usize >= rows || mtm as usize >= cols {
                    return Err(MetricsError::Corrupt(rank));
                }
                part.counts[stm as usize * cols + mtm as usize] += 1;
                part.offer(Some((stm, mtm, rank)));
            }
            Ok(part)
        })
        .collect::<Result<_, MetricsError>>()?;
    let mut total = Partial::new(rows * cols);
    for part in partials {
        for (t, c) in total.counts.iter_mut().zip(&part.counts) {
            *t += c;
        }
        total.offer(part.best);
    }
    let joint = total
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &positions)| JointCount {
            stm: (i / cols) as u32,
            mtm: (i % cols) as u32,
            positions,
        })
        .collect();
    Ok(MetricComparison {
        goal: *single.goal(),
        positions: len as u64,
        joint,
        largest_ratio: total.best.map(|(stm, mtm, rank)| Ratio {
            ratio: stm as f64 / mtm as f64,
            stm,
            mtm,
            position: single.board_at(rank),
        }),
    })
}

/// That `single` counts single-tile moves and `multi` multi-tile ones,
/// toward the same goal.
fn check_pair(single: &GoalTable<'_>, multi: &GoalTable<'_>) -> Result<(), MetricsError> {
    for (which, table, expected) in [
        ("first", single, Metric::SingleTile),
        ("second", multi, Metric::MultiTile),
    ] {
        if table.metric() != expected {
            let got = table.metric();
            return Err(MetricsError::WrongMetric {
                which,
                expected,
                got,
            });
        }
    }
    if single.goal() != multi.goal() {
        return Err(MetricsError::OtherGoals(*single.goal(), *multi.goal()));
    }
    Ok(())
}

/// One chunk's counts, and its best ratio as (stm, mtm, rank).
struct Partial {
    counts: Vec<u64>,
    best: Option<(u32, u32, u32)>,
}

impl Partial {
    fn new(cells: usize) -> Partial {
        Partial {
            counts: vec![0; cells],
            best: None,
        }
    }

    /// Keeps `candidate` as the best if its ratio is the larger, compared
    /// as fractions (stm/mtm > best_stm/best_mtm); a ratio over 0 is none.
    fn offer(&mut self, candidate: Option<(u32, u32, u32)>) {
        let larger = candidate.is_some_and(|(stm, mtm, _)| {
            mtm > 0
                && self
                    .best
                    .is_none_or(|(s, m, _)| stm as u64 * m as u64 > s as u64 * mtm as u64)
        });
        if larger {
            self.best = candidate;
        }
    }
}
