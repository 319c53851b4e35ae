//! Positions by distance from a goal, from the header's counts: what
//! `query histogram` shows, at no cost.

use crate::db::complete::CompleteTables;
use crate::db::goal_table::GoalTable;
use crate::puzzle::board::Board;
use crate::puzzle::cell::Cell;
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use serde::{Serialize, Serializer};

/// Positions at each distance from one goal. In JSON it names its board
/// (the goal's) and metric as well.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// The goal.
    pub goal: Board,
    /// How the distances count moves.
    pub metric: Metric,
    /// Positions that reach the goal.
    pub positions: u64,
    /// The largest distance.
    pub max_distance: usize,
    /// Positions at each distance, 0 to `max_distance`.
    pub counts: Vec<u64>,
}

impl Histogram {
    /// The histogram of the table that serves `target`'s goal.
    pub fn of(target: &GoalTable<'_>) -> Histogram {
        let counts = target.info().counts.clone();
        Histogram::from_counts(*target.goal(), target.metric(), counts)
    }

    fn from_counts(goal: Board, metric: Metric, counts: Vec<u64>) -> Histogram {
        Histogram {
            goal,
            metric,
            positions: counts.iter().sum(),
            max_distance: counts.len().saturating_sub(1),
            counts,
        }
    }
}

/// One histogram per table in a file: each toward its goal with the tiles
/// in order around its blank cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Histograms {
    /// The board.
    #[serde(serialize_with = "as_text")]
    pub board: Shape,
    /// How the distances count moves.
    #[serde(serialize_with = "as_text")]
    pub metric: Metric,
    /// One per table, in file order.
    pub tables: Vec<TableHistogram>,
}

/// The histogram of one table, with its goal's blank cell. Its board and
/// metric are the file's, said once in [`Histograms`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableHistogram {
    /// The goal's blank cell.
    pub blank: Cell,
    /// Its positions by distance.
    pub histogram: Histogram,
}

impl Histograms {
    /// Every table's histogram, in file order.
    pub fn of<B: AsRef<[u8]>>(db: &CompleteTables<B>) -> Histograms {
        let shape = db.shape();
        let tables = db.header().tables.iter().map(|t| {
            let blank = t.goal_blank as usize;
            TableHistogram {
                blank: Cell::of(shape, blank),
                histogram: Histogram::from_counts(
                    Board::canonical_goal(shape, blank),
                    db.metric(),
                    t.counts.clone(),
                ),
            }
        });
        Histograms {
            board: shape,
            metric: db.metric(),
            tables: tables.collect(),
        }
    }
}

impl Serialize for Histogram {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let metric = Some(self.metric.name());
        Written::of(self, None, Some(self.goal.shape().to_string()), metric).serialize(s)
    }
}

impl Serialize for TableHistogram {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // `Histograms` names the board and the metric once for all tables.
        Written::of(&self.histogram, Some(&self.blank), None, None).serialize(s)
    }
}

/// A histogram as JSON writes it: alone with its board and metric, in a
/// list of tables with its goal's blank cell instead.
#[derive(Serialize)]
struct Written<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    blank: Option<&'a Cell>,
    #[serde(serialize_with = "as_text")]
    goal: &'a Board,
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metric: Option<&'static str>,
    positions: u64,
    max_distance: usize,
    counts: &'a [u64],
}

impl<'a> Written<'a> {
    fn of(
        h: &'a Histogram,
        blank: Option<&'a Cell>,
        board: Option<String>,
        metric: Option<&'static str>,
    ) -> Written<'a> {
        Written {
            blank,
            goal: &h.goal,
            board,
            metric,
            positions: h.positions,
            max_distance: h.max_distance,
            counts: &h.counts,
        }
    }
}

pub(crate) fn as_text<T: std::fmt::Display, S: Serializer>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}
