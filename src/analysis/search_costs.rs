//! The textbook searches' costs averaged over positions drawn at each
//! distance, as search courses tabulate them (Russell and Norvig's table
//! of search costs and effective branching factors): what `query compare
//! --distance` reports.
//!
//! Each distance's positions are those `query random --distance D --count
//! N --seed S` draws, so any row can be looked at position by position:
//! drawn uniformly from a complete table's list, or on pattern databases
//! found by random walks, each cut on its shortest solution exactly D
//! moves from the goal ([`super::walked`]).

use super::compare::{by_name, check_comparable, compare, compare_searched, CompareError, Run};
use super::heuristics::NeedsSingleTile;
use super::histogram::as_text;
use super::sample::{Drawn, Sample, SampleError};
use super::textbook::Algorithm;
use super::walked::{farthest_known, DrawError, WalkError};
use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::pattern::SolveOptions;
use crate::puzzle::board::Board;
use rayon::prelude::*;
use serde::Serialize;
use std::ops::RangeInclusive;

/// Positions searched at each distance unless told otherwise: on every
/// face, `compare --distance`'s `--count`.
pub const COSTS_COUNT: usize = 20;

/// The most positions at each distance a comparison takes.
pub const COSTS_COUNT_MAX: usize = 1000;

/// The seed of the positions' draws unless told otherwise.
pub const COSTS_SEED: u64 = 1;

/// The searches' costs at each distance of a range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchCosts {
    /// The goal.
    #[serde(serialize_with = "as_text")]
    pub goal: Board,
    /// The seed of every distance's draw.
    pub seed: u64,
    /// How the positions were drawn: `uniform` (from every position at the
    /// distance, by a complete table's list) or `walks` (on pattern
    /// databases: random walks cut on their shortest solutions, each
    /// position exactly at the distance, but not drawn uniformly).
    pub drawn: &'static str,
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

/// Refuses, before any search, what [`search_costs`] cannot do toward
/// `goal` through `db`: a goal it does not serve, multi-tile tables, a
/// board past the searches' 16 cells, or `distances` past the farthest
/// position from the goal ([`CompareError::BeyondFarthest`]: a complete
/// table's, or the farthest proved on 4×4; elsewhere the walks find out).
pub fn check_distances<B: AsRef<[u8]>>(
    db: &Database<B>,
    goal: &Board,
    distances: &RangeInclusive<u32>,
) -> Result<(), CompareError> {
    let max = match db.complete() {
        Ok(tables) => {
            let target = tables.goal_table(goal)?;
            NeedsSingleTile::check(target.metric())?;
            Some((target.info().max_distance as u32, true))
        }
        Err(_) => {
            check_comparable(goal.shape())?;
            db.check_goal(goal)?;
            farthest_known(goal).map(|f| (f.most, f.reached == Some(f.most)))
        }
    };
    match max {
        Some((max, exact)) if *distances.end() > max => Err(CompareError::BeyondFarthest {
            asked: *distances.end(),
            max,
            exact,
        }),
        _ => Ok(()),
    }
}

/// The searches from `count` positions drawn at each of `distances` with
/// `seed` toward `goal` (every position found where fewer lie there), each
/// stopped after `max_nodes` expansions, as [`compare`] and
/// [`compare_searched`] run them: depth-first search limited to
/// `depth_limit`, by default the table's maximum distance, or on pattern
/// databases each position's distance. Every distance's positions are
/// drawn before any search, so a distance the walks do not reach is said
/// at once. The positions are searched side by
/// side on the caller's rayon pool (by default a thread a core), each
/// thread holding one position's searches (up to about 340 MB at 2,000,000
/// expansions). `done` is told each distance once its positions are
/// searched, for a progress line. `options`' cancel flag stops them soon
/// after ([`CompareError::Cancelled`]); its deadline bounds the optimal
/// searches of pattern databases (the walks' and each position's truth).
pub fn search_costs<B: AsRef<[u8]> + Send + Sync>(
    db: &Database<B>,
    goal: &Board,
    distances: RangeInclusive<u32>,
    (count, seed): (usize, u64),
    (max_nodes, depth_limit): (u64, Option<u32>),
    (options, done): (&SolveOptions, &(dyn Fn(u32) + Sync)),
) -> Result<SearchCosts, CompareError> {
    check_distances(db, goal, &distances)?;
    let target = db.complete().ok().map(|t| t.goal_table(goal)).transpose()?;
    // Each position's truth on one thread: the positions share the cores.
    let one_thread = SolveOptions {
        parallel: false,
        on_bound: None,
        ..*options
    };
    // Every distance's positions first: a distance the walks do not reach
    // is said before any search, not after those of the distances before.
    let drawn = (distances.clone())
        .map(|distance| positions_at(db, goal, distance, (count, seed), &one_thread))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rows = Vec::new();
    for (distance, drawn) in distances.zip(drawn) {
        // The counts do not depend on which thread searched a position:
        // only the times, which the table leaves out.
        let runs = (drawn.par_iter())
            .map(|p| match &target {
                Some(target) => compare(target, &p.start, max_nodes, depth_limit, options.cancel),
                None => {
                    let pair = (&p.start, goal);
                    compare_searched(Some(db), pair, max_nodes, depth_limit, &one_thread)
                }
            })
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
        goal: *goal,
        seed,
        drawn: if target.is_some() { "uniform" } else { "walks" },
        count,
        max_nodes,
        rows,
    })
}

/// Up to `count` positions at `distance` from `goal`, as every face draws
/// them ([`Sample::at_distance`]: uniformly from a complete table's list, or
/// walked to on pattern databases); all of them where fewer lie there, or
/// all the walks find. None found is an error.
fn positions_at<B: AsRef<[u8]>>(
    db: &Database<B>,
    goal: &Board,
    distance: u32,
    (count, seed): (usize, u64),
    options: &SolveOptions,
) -> Result<Vec<Drawn>, CompareError> {
    let at = |count| Sample::at_distance(db, goal, distance..=distance, (count, seed), options);
    let drawn = match at(count) {
        Err(DrawError::Listed(SampleError::TooFew { available, .. })) => at(available as usize),
        drawn => drawn,
    };
    match drawn {
        Ok((sample, _)) => Ok(sample.positions),
        // The walks found some, not all: those (but a draw stopped by its
        // deadline is an error, not a smaller sample).
        Err(DrawError::Walked(
            WalkError::TooFew { drawn, .. } | WalkError::TooFar { drawn, .. },
        )) if !drawn.0.positions.is_empty() => Ok(drawn.0.positions),
        Err(DrawError::Listed(e)) => Err(e.into()),
        Err(DrawError::Walked(e)) => Err(CompareError::Walked(e)),
        Err(DrawError::TimedOut { stopped, .. }) => Err(AnswerError::Stopped(stopped).into()),
        Err(DrawError::Answer(e)) => Err(e.into()),
    }
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

    /// Toward a 4×4 goal with the blank inside, 82 moves is only a bound
    /// (the blank 2 moves from a corner): it is not called the farthest.
    #[test]
    fn a_bound_on_the_farthest_is_said_to_be_one() {
        let inside: Vec<u64> = (1..=6).chain([0]).chain(7..16).collect();
        let goal = Board::new(crate::Shape::new(4, 4).unwrap(), &inside).unwrap();
        let farthest = farthest_known(&goal).unwrap();
        let exact = farthest.reached == Some(farthest.most);
        let (asked, max) = (83, farthest.most);
        let said = CompareError::BeyondFarthest { asked, max, exact }.to_string();
        assert!(said.contains("none lies more than 82 moves away"), "{said}");
    }

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
