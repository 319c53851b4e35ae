//! `/api/boards`' answer: every board served, its kind, its default goal
//! and the goal blank cells it answers, for the page to offer.

use super::boards::Boards;
use super::kind;
use npuzzle::{Board, Metric, Shape};
use serde::Serialize;
use std::time::Duration;

/// `/api/boards`: every board served, its kind, its default goal and the
/// goal blank cells it answers; and how long a search may take.
pub(super) fn boards_json(boards: &Boards, timeout: Duration) -> Served<'_> {
    // One entry per board, from its first file (single-tile before
    // multi-tile), listing every metric served.
    let mut firsts: Vec<&super::boards::Served> = Vec::new();
    for s in boards.iter() {
        if !firsts.iter().any(|f| f.shape == s.shape) {
            firsts.push(s);
        }
    }
    let list = firsts.into_iter().map(|s| {
        let shape = s.shape;
        let goal = Board::goal(shape);
        let metrics = boards
            .iter()
            .filter(|o| o.shape == shape)
            .map(|o| o.metric().name())
            .collect();
        ServedBoard {
            metrics,
            kind: s.db.kind().into(),
            partition: s.db.partition(),
            max_distance: kind::max_distance(&s.db, &goal),
            blanks: kind::blanks(&s.db),
            ..ServedBoard::of(shape)
        }
    });
    // A board with no file: single-tile moves toward any goal, no
    // distance known.
    let without_file = boards.without_file().map(|shape| ServedBoard {
        metrics: vec![Metric::SingleTile.name()],
        kind: BoardKind::None,
        partition: None,
        max_distance: None,
        blanks: npuzzle::rules::Cells::of(shape, 0..shape.cells()),
        ..ServedBoard::of(shape)
    });
    Served {
        default: boards.default_shape().to_string(),
        timeout: timeout.as_secs_f64(),
        boards: list.chain(without_file).collect(),
    }
}

/// `/api/boards`' answer.
#[derive(Serialize)]
pub(super) struct Served<'a> {
    /// The board the page opens with.
    default: String,
    /// The server's `--timeout`, in seconds.
    timeout: f64,
    boards: Vec<ServedBoard<'a>>,
}

/// One board served; its other fields are those of the first metric in
/// `metrics` (`stm` where served).
#[derive(Serialize)]
struct ServedBoard<'a> {
    board: String,
    metrics: Vec<&'static str>,
    kind: BoardKind,
    partition: Option<&'a str>,
    rows: usize,
    cols: usize,
    /// `null` past 20 cells, where the count outgrows 64 bits.
    positions: Option<u64>,
    goal: String,
    max_distance: Option<u32>,
    blanks: npuzzle::rules::Cells,
}

impl ServedBoard<'_> {
    /// What the shape alone says; the rest is its file's.
    fn of(shape: Shape) -> ServedBoard<'static> {
        ServedBoard {
            board: shape.to_string(),
            metrics: Vec::new(),
            kind: BoardKind::None,
            partition: None,
            rows: shape.rows(),
            cols: shape.cols(),
            positions: shape.positions(),
            goal: Board::goal(shape).to_string(),
            max_distance: None,
            blanks: npuzzle::rules::Cells::of(shape, std::iter::empty()),
        }
    }
}

/// What answers a board: `complete` tables, `pattern` databases, or, on a
/// board served with no file, `none` (solutions within a factor only).
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum BoardKind {
    Complete,
    Pattern,
    None,
}

impl From<npuzzle::report::Kind> for BoardKind {
    fn from(kind: npuzzle::report::Kind) -> BoardKind {
        match kind {
            npuzzle::report::Kind::Complete => BoardKind::Complete,
            npuzzle::report::Kind::Pattern => BoardKind::Pattern,
        }
    }
}
