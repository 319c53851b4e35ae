//! The textbook searches' costs averaged over positions drawn at each
//! distance, as search courses tabulate them (Russell and Norvig's table
//! of search costs and effective branching factors): what `query compare
//! --distance` reports.
//!
//! Each distance's positions are those `query random --distance D --count
//! N --seed S` draws, so any row can be looked at position by position.

use super::compare::{by_name, compare, CompareError, Run};
use super::histogram::as_text;
use super::sample::{Sample, SampleError};
use super::textbook::Algorithm;
use crate::db::goal_table::GoalTable;
use crate::puzzle::board::Board;
use rayon::prelude::*;
use serde::Serialize;
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

/// The searches' costs at each distance of a range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchCosts {
    /// The goal.
    #[serde(serialize_with = "as_text")]
    pub goal: Board,
    /// The seed of every distance's draw.
    pub seed: u64,
    /// The positions asked for at each distance (fewer where fewer exist).
    pub count: usize,
    /// The expansions after which each search stopped.
    pub max_nodes: u64,
    /// One row per distance and algorithm, by distance, then in
    /// [`Algorithm::all`]'s order.
    pub rows: Vec<CostRow>,
}

/// One algorithm's searches from the positions at one distance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostRow {
    /// The distance of every position of the row.
    pub distance: u32,
    /// The algorithm, by its short name (`bfs`, `astar-manhattan`, …).
    #[serde(serialize_with = "by_name")]
    pub algorithm: Algorithm,
    /// Positions searched.
    pub positions: usize,
    /// Searches that found a solution within the node limit (and, for
    /// depth-first search, its depth limit).
    pub solved: usize,
    /// Solutions of the shortest length.
    pub optimal: usize,
    /// Mean positions expanded (a search stopped at the limit counts the
    /// limit).
    pub mean_expanded: f64,
    /// The effective branching factor b*: the branching of a uniform tree
    /// of the distance's depth holding the mean expansions plus one (1 + b*
    /// + … + b*^d = mean + 1); none at distance 0.
    pub effective_branching: Option<f64>,
    /// Mean of the largest open list (or path) each search held.
    pub mean_max_open: f64,
}

/// Refuses `distances` that run past the farthest position from `target`'s
/// goal ([`CompareError::BeyondFarthest`]): before any search.
pub fn check_distances(
    target: &GoalTable<'_>,
    distances: &RangeInclusive<u32>,
) -> Result<(), CompareError> {
    let (asked, max) = (*distances.end(), target.info().max_distance as u32);
    match asked > max {
        true => Err(CompareError::BeyondFarthest { asked, max }),
        false => Ok(()),
    }
}

/// The searches from `count` positions drawn at each of `distances` with
/// `seed` toward `target`'s goal (every position where fewer lie there),
/// each stopped after `max_nodes` expansions, depth-first search limited to
/// `depth_limit` (by default the table's maximum distance). The positions
/// are searched side by side on the caller's rayon pool (by default a
/// thread a core), each thread holding one position's searches (up to
/// about 340 MB at 2,000,000 expansions). `done` is told each distance
/// once its positions are searched, for a progress line. Setting `cancel`
/// stops them soon after ([`CompareError::Cancelled`]).
pub fn search_costs(
    target: &GoalTable<'_>,
    distances: RangeInclusive<u32>,
    (count, seed): (usize, u64),
    (max_nodes, depth_limit): (u64, Option<u32>),
    (cancel, done): (Option<&AtomicBool>, &(dyn Fn(u32) + Sync)),
) -> Result<SearchCosts, CompareError> {
    check_distances(target, &distances)?;
    let mut rows = Vec::new();
    for distance in distances {
        let drawn = match Sample::draw(target, distance..=distance, count, seed) {
            Err(SampleError::TooFew { available, .. }) => {
                Sample::draw(target, distance..=distance, available as usize, seed)
            }
            drawn => drawn,
        };
        // The counts do not depend on which thread searched a position:
        // only the times, which the table leaves out.
        let runs = (drawn?.positions.par_iter())
            .map(|p| compare(target, &p.start, max_nodes, depth_limit, cancel))
            .collect::<Result<Vec<_>, _>>()?;
        done(distance);
        // The algorithms as the runs name them (depth-first with its limit).
        let algorithms: Vec<Algorithm> = (runs.first().into_iter())
            .flat_map(|c| c.algorithms.iter().map(|r| r.algorithm))
            .collect();
        for (i, &algorithm) in algorithms.iter().enumerate() {
            let of = runs.iter().map(|c| &c.algorithms[i]);
            let mean = |value: &dyn Fn(&Run) -> u64| {
                of.clone().map(|r| value(r) as f64).sum::<f64>() / runs.len().max(1) as f64
            };
            let mean_expanded = mean(&|r| r.report.expanded);
            rows.push(CostRow {
                distance,
                algorithm,
                positions: runs.len(),
                solved: of.clone().filter(|r| r.length.is_some()).count(),
                optimal: of.clone().filter(|r| r.optimal == Some(true)).count(),
                mean_expanded,
                effective_branching: effective_branching(mean_expanded, distance),
                mean_max_open: mean(&|r| r.report.max_open),
            });
        }
    }
    Ok(SearchCosts {
        goal: *target.goal(),
        seed,
        count,
        max_nodes,
        rows,
    })
}

/// b* with 1 + b* + … + b*^depth = nodes + 1, found by bisection; 1 where
/// the nodes are no more than a path's, none at depth 0.
pub fn effective_branching(nodes: f64, depth: u32) -> Option<f64> {
    if depth == 0 {
        return None;
    }
    let tree = |b: f64| (0..=depth).map(|i| b.powi(i as i32)).sum::<f64>();
    let (mut low, mut high) = (1.0, (nodes + 1.0).max(1.0));
    if tree(low) >= nodes + 1.0 {
        return Some(1.0);
    }
    for _ in 0..100 {
        let mid = (low + high) / 2.0;
        match tree(mid) < nodes + 1.0 {
            true => low = mid,
            false => high = mid,
        }
    }
    Some((low + high) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// b* of a full tree of branching b is b; a path's is 1.
    #[test]
    fn the_effective_branching_factor_of_full_trees() {
        for (b, d) in [(2.0_f64, 5), (3.0, 4), (1.5, 10)] {
            let nodes: f64 = (1..=d).map(|i| b.powi(i)).sum();
            let found = effective_branching(nodes, d as u32).unwrap();
            assert!((found - b).abs() < 1e-9, "{b} {d}: {found}");
        }
        assert_eq!(effective_branching(3.0, 5), Some(1.0));
        assert_eq!(effective_branching(10.0, 0), None);
    }
}
