//! What a database says about itself, the same for both kinds of file:
//! [`Info`] from the header alone, [`Report`] from reading every table.
//! Both derive `Serialize`: `query info --json`, `query verify --json`,
//! the page's API and the Python package all give these fields.

use crate::db::complete::CompleteTables;
use crate::db::format::TableInfo;
use crate::db::patterns::PatternTables;
use crate::puzzle::board::Board;
use crate::puzzle::cell::{Cell, Cells};
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use crate::puzzle::symmetry;
use serde::{Serialize, Serializer};
use std::time::Duration;

/// The two kinds of database file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Every position's distance and move toward the goal: answered by
    /// lookup, and every analysis works.
    Complete,
    /// Additive pattern tables: lower bounds that IDA* searches with.
    Pattern,
}

impl Kind {
    /// `complete` or `pattern`, as the JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Complete => "complete",
            Kind::Pattern => "pattern",
        }
    }
}

/// What a database file holds, from its header.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Info {
    /// Which kind of file.
    pub kind: Kind,
    /// The board, `RxC`.
    #[serde(serialize_with = "as_text")]
    pub board: Shape,
    /// The file's length.
    pub bytes: u64,
    /// The file format's version.
    pub format_version: u32,
    /// How its distances count moves: `stm` (single-tile) or `mtm`
    /// (multi-tile).
    #[serde(serialize_with = "as_text")]
    pub metric: Metric,
    /// The partition's name (`7-8`, `6-6-3`, …, or `custom`); none for
    /// complete tables.
    pub partition: Option<String>,
    /// The goal the commands use when none is given.
    #[serde(serialize_with = "as_text")]
    pub default_goal: Board,
    /// Each goal blank cell the file has tables toward, and what they answer.
    pub goals: Vec<GoalInfo>,
    /// Every table, in file order.
    pub tables: Vec<TableSummary>,
}

/// The format version in a checked file's preamble (after the magic).
fn file_version(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[8..12].try_into().expect("a checked preamble"))
}

/// The tables toward one goal blank cell: one table of complete tables,
/// or one set of pattern tables.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GoalInfo {
    /// The goal's blank cell.
    pub goal_blank: Cell,
    /// The goal the tables count toward: tiles in order around the blank.
    #[serde(serialize_with = "as_text")]
    pub goal: Board,
    /// Every goal blank cell they answer: their own, and those a
    /// reflection or rotation of the board takes there.
    pub answers: Cells,
    /// Whether a search also reads them through a symmetry of the board (a
    /// second lower bound from the patterns' images, the transpose on square
    /// boards; see [`crate::pattern::PatternDb::uses_second_lookup`]).
    pub second_lookup: bool,
}

/// One table, as the header describes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableSummary {
    /// The blank cell of the goal it counts toward.
    pub goal_blank: Cell,
    /// The tiles it places: every tile for complete tables, the pattern's
    /// for a pattern table.
    pub tiles: Vec<u8>,
    /// Entries: positions of the board, or placements of the pattern.
    pub entries: u64,
    /// The largest distance stored (moves of the pattern's tiles, for a
    /// pattern table).
    pub max_distance: u8,
    /// The mean distance over the entries reached.
    pub mean_distance: f64,
    /// Entries at each distance, 0 to `max_distance`.
    pub counts: Vec<u64>,
    /// Entries never reached (half of a pattern table that holds every
    /// tile; 0 otherwise).
    pub unreached: u64,
    /// Where it starts in the file.
    pub offset: u64,
    /// CRC-32 of its bytes (in hex, in JSON).
    #[serde(serialize_with = "as_hex")]
    pub checksum: u32,
    /// Its path table (whole solutions in one word per position), if any.
    pub path_table: Option<PathTableSummary>,
    /// The earlier table (its index in `tables`) whose bytes it shares, for
    /// a pattern table that repeats another set's (format version 7).
    pub same_as: Option<usize>,
}

/// A path table, as the header describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PathTableSummary {
    /// Where it starts in the file.
    pub offset: u64,
    /// CRC-32 of its bytes (in hex, in JSON).
    #[serde(serialize_with = "as_hex")]
    pub checksum: u32,
}

/// What reading and checking every table found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Which kind of file.
    pub kind: Kind,
    /// True when every table and all padding passed.
    pub ok: bool,
    /// One report per table, in file order.
    pub tables: Vec<TableReport>,
    /// Padding bytes (between the preamble and the first table, and
    /// between sections) that are not zero.
    pub nonzero_padding: u64,
    /// Entries checked, over all tables.
    pub entries: u64,
    /// How long the check took, in milliseconds.
    #[serde(rename = "elapsed_ms", serialize_with = "as_ms")]
    pub elapsed: Duration,
}

/// What checking one table found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableReport {
    /// The blank cell of the goal it counts toward.
    pub goal_blank: Cell,
    /// The tiles it places.
    pub tiles: Vec<u8>,
    /// Entries checked.
    pub entries: u64,
    /// True when the table passed every check.
    pub ok: bool,
    /// Whether its bytes match the checksum the build recorded.
    pub checksum_ok: bool,
    /// Whether its path table's do (`None`: it has none).
    pub path_table_checksum_ok: Option<bool>,
    /// Faults found beyond the checksum, the first few described.
    pub faults: Vec<String>,
    /// Every fault found, including those not described.
    pub fault_count: u64,
}

impl TableReport {
    /// The table, as `query verify` names it: "table for blank at row 3,
    /// column 3", or in a pattern database (`kind`) "table of tiles 1 2 3
    /// for blank at …".
    pub fn name(&self, kind: Kind) -> String {
        let blank = self.goal_blank.name();
        match kind {
            Kind::Complete => format!("table for blank at {blank}"),
            Kind::Pattern => {
                let tiles: Vec<String> = self.tiles.iter().map(u8::to_string).collect();
                format!("table of tiles {} for blank at {blank}", tiles.join(" "))
            }
        }
    }

    /// The report, with `ok` worked out from the rest.
    pub(crate) fn new(
        goal_blank: Cell,
        tiles: Vec<u8>,
        entries: u64,
        checksums: (bool, Option<bool>),
        faults: Vec<String>,
        fault_count: u64,
    ) -> TableReport {
        let (checksum_ok, path_table_checksum_ok) = checksums;
        TableReport {
            goal_blank,
            tiles,
            entries,
            ok: checksum_ok && path_table_checksum_ok != Some(false) && fault_count == 0,
            checksum_ok,
            path_table_checksum_ok,
            faults,
            fault_count,
        }
    }
}

impl Report {
    /// The report over `tables`, with `ok` and the total worked out.
    pub(crate) fn new(
        kind: Kind,
        tables: Vec<TableReport>,
        nonzero_padding: u64,
        elapsed: Duration,
    ) -> Report {
        Report {
            kind,
            ok: nonzero_padding == 0 && tables.iter().all(|t| t.ok),
            entries: tables.iter().map(|t| t.entries).sum(),
            tables,
            nonzero_padding,
            elapsed,
        }
    }
}

impl Info {
    pub(crate) fn of_complete<B: AsRef<[u8]>>(db: &CompleteTables<B>) -> Info {
        let shape = db.shape();
        let every_tile: Vec<u8> = (1..shape.cells() as u8).collect();
        let header = db.header();
        let tables = (header.tables.iter().zip(header.repeats()))
            .map(|(t, same_as)| TableSummary::of(shape, t, every_tile.clone(), same_as));
        let goals = db.header().tables.iter().map(|t| {
            let blank = t.goal_blank as usize;
            goal_info(
                shape,
                blank,
                |cell| db.serves_from(cell) == Some(blank),
                false,
            )
        });
        Info {
            kind: Kind::Complete,
            board: shape,
            bytes: db.bytes().len() as u64,
            format_version: file_version(db.bytes()),
            metric: db.metric(),
            partition: None,
            default_goal: Board::goal(shape),
            goals: goals.collect(),
            tables: tables.collect(),
        }
    }

    pub(crate) fn of_patterns<B: AsRef<[u8]>>(db: &PatternTables<B>) -> Info {
        let shape = db.shape();
        let header = db.header();
        let tables = (header.tables.iter().zip(header.repeats()))
            .map(|(t, same_as)| TableSummary::of(shape, t, t.tiles.clone(), same_as));
        let goals = db.sets().iter().map(|set| {
            let blank = set.goal_blank();
            let answers = |cell| db.set_for(cell).map(|s| s.goal_blank()) == Some(blank);
            goal_info(shape, blank, answers, set.uses_second_lookup())
        });
        Info {
            kind: Kind::Pattern,
            board: shape,
            bytes: db.bytes().len() as u64,
            format_version: file_version(db.bytes()),
            metric: Metric::SingleTile,
            partition: Some(db.partition().name().to_string()),
            default_goal: db.default_goal(),
            goals: goals.collect(),
            tables: tables.collect(),
        }
    }
}

impl TableSummary {
    /// The summary of `t`, a table that places `tiles` and repeats the
    /// table `same_as`, if any.
    fn of(shape: Shape, t: &TableInfo, tiles: Vec<u8>, same_as: Option<usize>) -> TableSummary {
        TableSummary {
            goal_blank: Cell::of(shape, t.goal_blank as usize),
            tiles,
            entries: t.entries,
            max_distance: t.max_distance,
            mean_distance: mean(&t.counts),
            counts: t.counts.clone(),
            unreached: t.unreached,
            offset: t.offset,
            checksum: t.checksum,
            path_table: t.path_table.map(|p| PathTableSummary {
                offset: p.offset,
                checksum: p.checksum,
            }),
            same_as,
        }
    }
}

fn goal_info(
    shape: Shape,
    blank: usize,
    answers: impl Fn(usize) -> bool,
    second_lookup: bool,
) -> GoalInfo {
    let class = symmetry::classes(shape)
        .into_iter()
        .find(|c| c.contains(&blank))
        .unwrap_or_else(|| vec![blank]);
    GoalInfo {
        goal_blank: Cell::of(shape, blank),
        goal: Board::canonical_goal(shape, blank),
        answers: Cells::of(shape, class.into_iter().filter(|&c| answers(c))),
        second_lookup,
    }
}

/// The mean distance of a table with these counts per distance.
fn mean(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let sum: f64 = counts
        .iter()
        .enumerate()
        .map(|(d, &c)| d as f64 * c as f64)
        .sum();
    sum / total.max(1) as f64
}

fn as_text<T: std::fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

fn as_hex<S: Serializer>(value: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{value:08x}"))
}

fn as_ms<S: Serializer>(elapsed: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(elapsed.as_secs_f64() * 1e3)
}
