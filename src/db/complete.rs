//! Complete tables: every position's distance and move toward a goal, one
//! table per goal blank cell, and each goal blank cell routed to the table
//! that serves it, once, at open.

use crate::db::error::{AnswerError, FormatError};
use crate::db::format::check::{check_header, Checked};
use crate::db::format::{Header, TableInfo};
use crate::db::goal_table::{check_shape, GoalTable};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::cell::{Cell, Cells};
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::{Shape, MAX_CELLS};
use crate::puzzle::symmetry::Symmetry;
use crate::table::path_table::{Replayer, WORD_BYTES};
use crate::table::rank::Ranker;

/// Where one table lives inside the bytes.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// Index of the table in the header's list.
    table: usize,
    ranker: Ranker,
}

/// The complete tables of a file (see [`crate::Database::complete`]):
/// generic over its bytes, so tests can use a `Vec<u8>` and the tools a
/// memory map.
pub struct CompleteTables<B> {
    bytes: B,
    shape: Shape,
    metric: Metric,
    header: Header,
    header_start: usize,
    /// The table that serves each goal blank cell, and the symmetry into its
    /// frame where the table is another cell's (`None` for the cell's own
    /// table): worked out once, at open.
    routes: [Option<(Slot, Option<Symmetry>)>; MAX_CELLS],
    replayer: Replayer,
}

impl<B: AsRef<[u8]>> CompleteTables<B> {
    /// Checks the header of a database held in memory. Costs time
    /// proportional to the header, not to the tables. A pattern database
    /// is refused ([`FormatError::NotComplete`]); [`crate::Database`] opens
    /// either kind.
    pub fn from_bytes(bytes: B) -> Result<CompleteTables<B>, FormatError> {
        let checked = check_header(bytes.as_ref())?;
        if checked.partition.is_some() {
            let shape = checked.shape;
            return Err(FormatError::NotComplete { shape });
        }
        Ok(CompleteTables::from_checked(bytes, checked))
    }

    /// The tables of a checked header without a partition.
    pub(crate) fn from_checked(bytes: B, checked: Checked) -> CompleteTables<B> {
        debug_assert!(checked.partition.is_none());
        let Checked {
            header,
            shape,
            metric,
            header_start,
            ..
        } = checked;
        let mut slots = [None; MAX_CELLS];
        for (table, info) in header.tables.iter().enumerate() {
            slots[info.goal_blank as usize] = Some(Slot {
                table,
                ranker: Ranker::new(shape, info.goal_blank as usize),
            });
        }
        let symmetries = Symmetry::all(shape);
        let routes = std::array::from_fn(|blank| match slots[blank] {
            Some(slot) => Some((slot, None)),
            None if blank < shape.cells() => symmetries
                .iter()
                .find_map(|s| Some((slots[s.cell(blank)]?, Some(*s)))),
            None => None,
        });
        CompleteTables {
            bytes,
            shape,
            metric,
            header,
            header_start,
            routes,
            replayer: Replayer::new(shape),
        }
    }

    /// The board size of every position in the database.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// How the tables' distances count moves.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// What the file holds.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// Where the header's bytes lie: the end of the file.
    pub fn header_range(&self) -> std::ops::Range<usize> {
        self.header_start..self.bytes().len()
    }

    /// Prepares lookups toward one goal; reuse it for many starts.
    ///
    /// The goal's own table serves it when the file has one. Otherwise a
    /// table of a cell that one of the board's symmetries maps the goal's
    /// blank to does: starts and goal are reflected or turned into that
    /// table's frame, and moves come back the same way.
    pub fn goal_table(&self, goal: &Board) -> Result<GoalTable<'_>, AnswerError> {
        check_shape(self.shape, goal)?;
        let blank = goal.blank();
        let (slot, symmetry) = self.routes[blank].ok_or_else(|| self.missing_table(blank))?;
        let info = &self.header.tables[slot.table];
        Ok(GoalTable::new(
            *goal,
            symmetry,
            slot.ranker,
            self.metric,
            info,
            self.table_entries(info),
            self.path_table(info),
            self.replayer,
        ))
    }

    /// The goal blank cell of the table that answers goals with the blank
    /// in `blank` (its own, or one a symmetry takes it to).
    pub fn serves_from(&self, blank: usize) -> Option<usize> {
        let (slot, _) = (*self.routes.get(blank)?)?;
        Some(self.header.tables[slot.table].goal_blank as usize)
    }

    /// Whether some table answers goals with the blank in `blank`.
    pub fn serves(&self, blank: usize) -> bool {
        self.routes.get(blank).is_some_and(Option::is_some)
    }

    fn missing_table(&self, blank: usize) -> AnswerError {
        AnswerError::MissingGoal {
            shape: self.shape,
            cell: Cell::of(self.shape, blank),
            present: Cells::of(
                self.shape,
                self.header.tables.iter().map(|t| t.goal_blank as usize),
            ),
        }
    }

    /// The header entry of the table of cell `blank` itself (`None` when
    /// the file has none, even if a symmetric table serves the cell).
    pub fn table_info(&self, blank: usize) -> Option<&TableInfo> {
        match self.routes.get(blank)? {
            Some((slot, None)) => Some(&self.header.tables[slot.table]),
            _ => None,
        }
    }

    /// The entries of one of this database's tables (`info` from its
    /// header), indexed by rank. Open checked that they lie in the file.
    pub fn table_entries(&self, info: &TableInfo) -> &[u8] {
        let start = info.offset as usize;
        &self.bytes()[start..start + info.entries as usize]
    }

    /// The path table of one of this database's tables (`info` from its
    /// header), when it has one.
    pub fn path_table(&self, info: &TableInfo) -> Option<&[u8]> {
        let start = info.path_table?.offset as usize;
        Some(&self.bytes()[start..start + info.entries as usize * WORD_BYTES])
    }

    /// Fewest moves from `start` to `goal`.
    pub fn distance(&self, start: &Board, goal: &Board) -> Result<u32, AnswerError> {
        self.goal_table(goal)?.distance(start)
    }

    /// One shortest sequence of blank moves from `start` to `goal`, as
    /// single-tile moves (a multi-tile solution's slides are its runs).
    pub fn solve(&self, start: &Board, goal: &Board) -> Result<Vec<Move>, AnswerError> {
        let mut moves = Vec::new();
        self.goal_table(goal)?.solve_into(start, &mut moves)?;
        Ok(moves)
    }
}
