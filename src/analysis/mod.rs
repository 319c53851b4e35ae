//! What the tool says about a whole state space: heuristics measured against
//! the true distances (over every position, or one), move lists graded, the
//! textbook searches, random positions of exact
//! difficulty (drawn from a table's list, or walked where pattern tables
//! serve the board), all shortest solutions, and per-table statistics.
//!
//! Uses everything below it: `puzzle`, `table`, `pattern`, `db`, `io` and
//! `bounded`.

mod compare;
mod estimates;
mod grade;
mod grade_batch;
mod heuristics;
mod histogram;
mod metrics;
mod sample;
mod search_costs;
mod shortest;
mod stats;
mod textbook;
mod walked;

pub use crate::puzzle::heuristic::{Estimate, Evaluator, Heuristic, Truth, UnknownHeuristic};
pub use compare::{
    check_comparable, compare, compare_searched, compare_served, CompareError, Comparison, Run,
    DEFAULT_COMPARE_NODES, MAX_COMPARE_NODES,
};
pub use estimates::{search_truth, serving, truth_of, PatternEstimate, PositionEstimates};
pub use grade::{
    grade, grade_in, read_any_steps, read_steps, read_steps_on, searched_once, steps_fit, Graded,
    Step, StepsError, MAX_STEPS,
};
pub use grade_batch::{GradeBatch, GRADED_CSV_HEADER, GRADING_NEEDS};
pub use heuristics::{survey, survey_all, DistanceStats, NeedsSingleTile, Survey, Surveys};
pub use histogram::{Histogram, Histograms, TableHistogram};
pub use metrics::{compare_metrics, JointCount, MetricComparison, MetricsError, Ratio};
pub use sample::{
    fresh_seed, parse_distances, sample, DistanceRangeError, Drawn, Sample, SampleError,
    MAX_UNIFORM, PAST_EVERY_TABLE,
};
pub use search_costs::{
    check_distances, effective_branching, search_costs, CostRow, SearchCosts, COSTS_COUNT,
    COSTS_COUNT_MAX, COSTS_SEED,
};
pub use shortest::{
    best_moves, best_slides, count_shortest, list_shortest, neighbours, Neighbour,
    ShortestSolutions,
};
pub use stats::{stats, stats_toward, Stats, TableStats};
pub use textbook::{search, search_until, Algorithm, SearchReport, ShapeMismatch};
pub use walked::{
    draw_fell_short, draw_stopped, AtDistance, DrawError, WalkError, Walked, MAX_WALKED,
};
