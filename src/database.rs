//! Reading a database: checked at open, then answered by lookup.

use crate::board::{Board, Move};
use crate::entry;
use crate::format::{
    bincode_config, section_offsets, Header, Preamble, TableInfo, MAGIC, MAX_HEADER_LEN,
    PREAMBLE_LEN, VERSION,
};
use crate::path_table::{self, Replayer, MOVES_PER_WORD, WORD_BYTES};
use crate::rank::{Cursor, Ranker};
use crate::relabel::Relabelling;
use crate::shape::{Shape, MAX_CELLS};
use crate::solvability::{self, Unsolvable};
use crate::symmetry::Symmetry;
use memmap2::Mmap;
use std::fs::File;
use std::io;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// Why bytes are not a usable database. Every check runs at open, before any
/// table is touched; none of them reads the tables themselves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// Shorter than the fixed preamble.
    #[error("the file is {got} bytes long, too short to be a database (the preamble alone is {expected})")]
    TooShort {
        /// Bytes needed.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// Not our magic bytes.
    #[error("not an npuzzle database: expected magic bytes {:?}, got {:?}", String::from_utf8_lossy(&MAGIC), String::from_utf8_lossy(.got))]
    Magic {
        /// The first eight bytes.
        got: [u8; 8],
    },
    /// Another format version.
    #[error("database format version {got} is not supported: this build reads version {expected}")]
    Version {
        /// [`VERSION`].
        expected: u32,
        /// The file's version.
        got: u32,
    },
    /// The header does not fit, or does not match its checksum.
    #[error("the header (the end of the file) is damaged, or the file is truncated or has extra bytes: {0}")]
    Header(String),
    /// The header decodes but describes something impossible.
    #[error("the header is inconsistent: {0}")]
    Inconsistent(String),
    /// The file is longer or shorter than its header implies.
    #[error("the file is {got} bytes long but its header implies {expected}: it is truncated or has extra bytes")]
    Length {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes present.
        got: u64,
    },
}

/// A database file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file could not be read or mapped.
    #[error("cannot open {}: {io}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        io: io::Error,
    },
    /// The path names a folder or a device, not a file.
    #[error("{} is not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is not a usable database.
    #[error("{} is not a usable database: {problem}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: FormatError,
    },
}

/// A question the database cannot answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    /// The start cannot reach the goal.
    #[error("unsolvable: {0}")]
    Unsolvable(Unsolvable),
    /// A board of another size than the database's.
    #[error("the board is {got} but the database holds {expected} boards")]
    Shape {
        /// The database's board.
        expected: Shape,
        /// The board asked about.
        got: Shape,
    },
    /// No table serves goals with the blank in this cell.
    #[error("{}", missing_table_message(*.shape, *.row, *.col, *.present))]
    MissingTable {
        /// The database's board.
        shape: Shape,
        /// 0-based row of the goal's blank.
        row: usize,
        /// 0-based column of the goal's blank.
        col: usize,
        /// The cells whose tables the file holds: bit `b` for cell `b` (see
        /// [`cells_of`]). A mask keeps the error small, and with it every
        /// lookup's `Result`.
        present: u16,
    },
    /// A table entry that cannot be right; `verify` finds all of them.
    #[error("the table for this goal is damaged at rank {rank} (run `query verify`)")]
    Corrupt {
        /// Where the damage showed.
        rank: u32,
    },
}

/// The cells of a mask of cells, in increasing order.
pub fn cells_of(mask: u16) -> impl Iterator<Item = usize> {
    (0..16).filter(move |&c| mask >> c & 1 == 1)
}

fn missing_table_message(shape: Shape, row: usize, col: usize, present: u16) -> String {
    let present: Vec<String> = cells_of(present)
        .map(|c| format!("{},{}", shape.row_of(c) + 1, shape.col_of(c) + 1))
        .collect();
    format!(
        "the database has no table for goals with the blank in row {}, column {}, nor for any \
         cell that a reflection or rotation of the board takes it to; it holds tables for the \
         blank at (row,column) {}",
        row + 1,
        col + 1,
        present.join(" "),
    )
}

/// Where one table lives inside the bytes.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// Index of the table in the header's list.
    table: usize,
    ranker: Ranker,
}

/// An opened database: generic over its bytes, so tests can use a `Vec<u8>`
/// and the tools a memory map.
pub struct Database<B> {
    bytes: B,
    shape: Shape,
    header: Header,
    header_start: usize,
    /// The table that serves each goal blank cell, and the symmetry into its
    /// frame where the table is another cell's (`None` for the cell's own
    /// table): worked out once, at open.
    routes: [Option<(Slot, Option<Symmetry>)>; MAX_CELLS],
    replayer: Replayer,
}

impl Database<Mmap> {
    /// Opens and maps a database file. Only the header is read and checked;
    /// table pages are read by the system when a lookup first touches them.
    pub fn open(path: &Path) -> Result<Database<Mmap>, OpenError> {
        let io_err = |io| OpenError::Io {
            path: path.to_path_buf(),
            io,
        };
        let file = File::open(path).map_err(io_err)?;
        if !file.metadata().map_err(io_err)?.is_file() {
            return Err(OpenError::NotAFile {
                path: path.to_path_buf(),
            });
        }
        // SAFETY: the map is read-only and lives as long as the database. The
        // contract of `Mmap::map` is that no one truncates or rewrites the
        // file while it is mapped; `build-db` never does (it writes a new file
        // and renames it into place, and a mapped file outlives its name).
        // A file truncated by another program would fault (SIGBUS) on access,
        // which no check here can prevent; the README says so.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
        Database::from_bytes(map).map_err(|problem| OpenError::Format {
            path: path.to_path_buf(),
            problem,
        })
    }
}

impl<B: AsRef<[u8]>> Database<B> {
    /// Checks the header of a database held in memory. Costs time
    /// proportional to the header, not to the tables.
    pub fn from_bytes(bytes: B) -> Result<Database<B>, FormatError> {
        let data = bytes.as_ref();
        let (header, shape, header_start) = check_header(data)?;
        let mut slots = [None; MAX_CELLS];
        for (table, info) in header.tables.iter().enumerate() {
            slots[info.blank as usize] = Some(Slot {
                table,
                ranker: Ranker::new(shape, info.blank as usize),
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
        Ok(Database {
            bytes,
            shape,
            header,
            header_start,
            routes,
            replayer: Replayer::new(shape),
        })
    }

    /// The board size of every position in the database.
    pub fn shape(&self) -> Shape {
        self.shape
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
    pub fn target(&self, goal: &Board) -> Result<Target<'_>, LookupError> {
        self.check_shape(goal)?;
        let blank = goal.blank();
        let (slot, symmetry) = self.routes[blank].ok_or_else(|| self.missing_table(blank))?;
        let info = &self.header.tables[slot.table];
        let table_goal = symmetry.map_or(*goal, |s| s.apply(goal));
        let relabelling = Relabelling::to_canonical(&table_goal);
        let moves_back = symmetry.map_or(Move::ALL, |s| {
            let back = s.inverse();
            Move::ALL.map(|m| back.apply_move(m))
        });
        Ok(Target {
            goal: *goal,
            goal_cursor: slot.ranker.cursor(&relabelling.apply(&table_goal)).0,
            symmetry,
            moves_back,
            relabelling,
            canonical: relabelling.is_identity(),
            ranker: slot.ranker,
            entries: self.table_entries(info),
            path_table: self.path_table(info),
            replayer: self.replayer,
            info,
            ambiguous: info.max_distance.saturating_sub(entry::MODULUS as u8 - 1),
            shape: self.shape,
        })
    }

    /// Whether some table answers goals with the blank in `blank`.
    pub fn serves(&self, blank: usize) -> bool {
        self.routes.get(blank).is_some_and(Option::is_some)
    }

    fn missing_table(&self, blank: usize) -> LookupError {
        LookupError::MissingTable {
            shape: self.shape,
            row: self.shape.row_of(blank),
            col: self.shape.col_of(blank),
            present: self.header.tables.iter().map(|t| 1u16 << t.blank).sum(),
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
        &self.bytes()[start..start + info.positions as usize]
    }

    /// The path table of one of this database's tables (`info` from its
    /// header), when it has one.
    pub fn path_table(&self, info: &TableInfo) -> Option<&[u8]> {
        let start = info.path_table?.offset as usize;
        Some(&self.bytes()[start..start + info.positions as usize * WORD_BYTES])
    }

    /// Fewest moves from `start` to `goal`.
    pub fn distance(&self, start: &Board, goal: &Board) -> Result<u32, LookupError> {
        self.target(goal)?.distance(start)
    }

    /// One shortest sequence of blank moves from `start` to `goal`.
    pub fn solve(&self, start: &Board, goal: &Board) -> Result<Vec<Move>, LookupError> {
        let mut moves = Vec::new();
        self.target(goal)?.solve_into(start, &mut moves)?;
        Ok(moves)
    }

    fn check_shape(&self, board: &Board) -> Result<(), LookupError> {
        if board.shape() == self.shape {
            Ok(())
        } else {
            Err(LookupError::Shape {
                expected: self.shape,
                got: board.shape(),
            })
        }
    }
}

/// From a table's frame to a goal's: the inverses of a target's renaming
/// and symmetry.
#[derive(Clone, Copy)]
struct Back {
    relabelling: Relabelling,
    symmetry: Option<Symmetry>,
}

impl Back {
    fn apply(&self, board: &Board) -> Board {
        let relabelled = self.relabelling.apply(board);
        self.symmetry.map_or(relabelled, |s| s.apply(&relabelled))
    }
}

/// A database's table seen from one goal.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    goal: Board,
    goal_cursor: Cursor,
    /// Into the table's frame, when the table is not the goal's own.
    symmetry: Option<Symmetry>,
    /// Indexed by a move's code in the table's frame: the move in the goal's.
    moves_back: [Move; 4],
    relabelling: Relabelling,
    /// Whether the goal is its table's canonical goal (the renaming leaves
    /// every board as it is).
    canonical: bool,
    ranker: Ranker,
    entries: &'a [u8],
    /// The table's path table, if the file has one.
    path_table: Option<&'a [u8]>,
    replayer: Replayer,
    info: &'a TableInfo,
    /// Distance fields below this may mean the field or the field + 63:
    /// none on boards whose maximum is below 63.
    ambiguous: u8,
    shape: Shape,
}

impl<'a> Target<'a> {
    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The header entry of the table that serves this goal (its counts per
    /// distance hold for this goal too: relabelling changes no distance).
    pub fn info(&self) -> &'a TableInfo {
        self.info
    }

    /// The table's entries, indexed by the rank of a canonically labelled
    /// position (see [`Target::ranker`]); [`entry`] decodes them, and
    /// [`Target::distance_at`] tells their distances.
    pub fn entries(&self) -> &'a [u8] {
        self.entries
    }

    /// The table's path table ([`path_table`]), if the file has one.
    pub fn path_table(&self) -> Option<&'a [u8]> {
        self.path_table
    }

    /// The goal's rank in the table.
    pub fn goal_rank(&self) -> u32 {
        self.goal_cursor.rank()
    }

    /// The ranker of the table's canonical frame.
    pub fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    /// A board of the goal's frame in the table's: reflected or turned when
    /// the table belongs to a symmetric cell, and relabelled.
    #[inline]
    pub fn to_table(&self, board: &Board) -> Board {
        match &self.symmetry {
            Some(s) => self.relabelling.apply(&s.apply(board)),
            // The default goals need no renaming: skipped, for speed.
            None if self.canonical => *board,
            None => self.relabelling.apply(board),
        }
    }

    /// A board of the table's frame in the goal's: the inverse of
    /// [`Target::to_table`].
    pub fn from_table(&self, board: &Board) -> Board {
        self.back().apply(board)
    }

    /// The way back from the table's frame, for scans that map many boards.
    fn back(&self) -> Back {
        Back {
            relabelling: self.relabelling.inverse(),
            symmetry: self.symmetry.map(|s| s.inverse()),
        }
    }

    /// A move of the table's frame as a move in the goal's.
    #[inline]
    pub fn move_from_table(&self, m: Move) -> Move {
        self.moves_back[m.code() as usize]
    }

    /// A move of the goal's frame as a move in the table's.
    #[inline]
    pub fn move_to_table(&self, m: Move) -> Move {
        self.symmetry.map_or(m, |s| s.apply_move(m))
    }

    /// The position with rank `rank` in the table, in the goal's frame.
    pub fn board_at(&self, rank: u32) -> Board {
        self.from_table(&self.ranker.unrank(rank))
    }

    /// Every position at exactly `distance` moves from the goal, in rank
    /// order. Scans the whole table.
    pub fn positions_at(&self, distance: u32) -> impl Iterator<Item = Board> + 'a {
        let (ranker, back) = (self.ranker, self.back());
        self.ranks_within(distance..=distance)
            .map(move |rank| back.apply(&ranker.unrank(rank)))
    }

    /// The ranks (in the table's frame) of every position whose distance
    /// from the goal lies in `distances`, in order. Scans the whole table.
    pub fn ranks_within(&self, distances: RangeInclusive<u32>) -> impl Iterator<Item = u32> + 'a {
        let target = *self;
        // The distance fields those distances store, one bit each.
        let last = (*distances.end()).min(self.info.max_distance as u32);
        let fields =
            (*distances.start()..=last).fold(0u64, |mask, d| mask | 1 << entry::stored_distance(d));
        self.entries
            .iter()
            .enumerate()
            .filter(move |&(_, e)| fields >> entry::distance(*e) & 1 == 1)
            .map(|(rank, _)| rank as u32)
            .filter(move |&rank| match target.distance_at(rank) {
                Ok(d) => distances.contains(&d),
                Err(_) => false,
            })
    }

    /// The distance of the position with rank `rank` in the table's frame.
    #[inline]
    pub fn distance_at(&self, rank: u32) -> Result<u32, LookupError> {
        let field = entry::distance(self.entries[rank as usize]);
        if field < self.ambiguous {
            return self.resolve(rank, field);
        }
        Ok(field as u32)
    }

    /// The distance of a position whose field `field` may mean `field` or
    /// `field + 63` (see [`entry`]): it is `field` when the stored moves
    /// reach the goal in `field` steps. Each step must land on the next
    /// field down, so a damaged entry on the way gives an error.
    #[cold]
    #[inline(never)]
    fn resolve(&self, rank: u32, field: u8) -> Result<u32, LookupError> {
        let mut position = self.ranker.cursor_at(rank);
        for next_field in (0..field).rev() {
            let m = entry::next_move(self.entries[position.rank() as usize]);
            let from = position.rank();
            position = self
                .ranker
                .step(&position, m)
                .ok_or(LookupError::Corrupt { rank: from })?;
            if entry::distance(self.entries[position.rank() as usize]) != next_field {
                return Err(LookupError::Corrupt { rank: from });
            }
        }
        if position == self.goal_cursor {
            Ok(field as u32)
        } else {
            Ok(field as u32 + entry::MODULUS)
        }
    }

    /// The start in the table's frame (see [`Target::to_table`]), as a
    /// cursor for moving through the table; or why it has no place there.
    // Always inlined: every lookup starts here, and as a call it spilled
    // its registers (a distance lookup took 25 ns instead of 18).
    #[inline(always)]
    pub fn cursor(&self, start: &Board) -> Result<Cursor, LookupError> {
        if start.shape() != self.shape {
            return Err(LookupError::Shape {
                expected: self.shape,
                got: start.shape(),
            });
        }
        let board = self.to_table(start);
        let (cursor, inversions) = self.ranker.cursor(&board);
        if !self.ranker.reaches_goal(board.blank(), inversions) {
            return Err(self.unsolvable(start));
        }
        Ok(cursor)
    }

    /// Why `start` cannot reach the goal, told in the goal's frame.
    #[cold]
    fn unsolvable(&self, start: &Board) -> LookupError {
        let relabelled = Relabelling::to_canonical(&self.goal).apply(start);
        let why = Unsolvable::check(
            self.shape,
            solvability::inversions(&relabelled),
            start.blank(),
            self.goal.blank(),
        );
        // The table's frame and the goal's agree: symmetries and renaming
        // preserve which positions reach which.
        LookupError::Unsolvable(why.expect_err("the parities disagree"))
    }

    /// Fewest moves from `start` to the goal.
    #[inline]
    pub fn distance(&self, start: &Board) -> Result<u32, LookupError> {
        let rank = self.cursor(start)?.rank();
        self.distance_at(rank)
    }

    /// Appends one shortest sequence of moves from `start` to the goal to
    /// `moves`, and returns its length. A damaged table gives an error,
    /// never a wrong sequence.
    ///
    /// With a path table, the start's word gives the moves (see
    /// [`path_table`]), and they are replayed: they must stay on the board
    /// and end on the goal after exactly the start's distance. Without one,
    /// each step follows the stored move and checks that it lands one step
    /// closer, and the last must land on the goal. Both give the same moves.
    #[inline]
    pub fn solve_into(&self, start: &Board, moves: &mut Vec<Move>) -> Result<u32, LookupError> {
        let position = self.cursor(start)?;
        match self.path_table {
            Some(words) => self.solve_by_words(position, words, moves),
            None => self.solve_by_steps(position, moves),
        }
    }

    fn solve_by_words(
        &self,
        position: Cursor,
        words: &[u8],
        moves: &mut Vec<Move>,
    ) -> Result<u32, LookupError> {
        let total = self.distance_at(position.rank())?;
        moves.reserve(total as usize);
        let goal = self.goal_cursor.cells();
        let (mut cells, mut blank) = (position.cells(), position.blank());
        let (mut rank, mut left) = (position.rank(), total);
        // Within one word, the end is check enough: moves past the goal
        // could only be the word's zero padding (`U`s), which never come
        // back to it. A longer solution goes on from where the padding
        // would leave it, so it must not pass the goal on the way.
        let long = total > MOVES_PER_WORD;
        loop {
            let word = path_table::word_at(words, rank);
            let replayed = if long {
                self.replayer.replay::<true>(cells, blank, word, left, goal)
            } else {
                self.replayer
                    .replay::<false>(cells, blank, word, left, goal)
            };
            (cells, blank) = replayed.ok_or(LookupError::Corrupt { rank })?;
            moves.extend(path_table::moves(word, left).map(|m| self.move_from_table(m)));
            left = left.saturating_sub(MOVES_PER_WORD);
            if left == 0 {
                break;
            }
            // A longer solution goes on with the word of where it has got to.
            let next = self.ranker.rank_cells(cells, blank);
            if self.distance_at(next)? != left {
                return Err(LookupError::Corrupt { rank });
            }
            rank = next;
        }
        if cells != goal {
            return Err(LookupError::Corrupt { rank });
        }
        Ok(total)
    }

    fn solve_by_steps(
        &self,
        mut position: Cursor,
        moves: &mut Vec<Move>,
    ) -> Result<u32, LookupError> {
        let total = self.distance_at(position.rank())?;
        let mut e = self.entries[position.rank() as usize];
        moves.reserve(total as usize);
        // The field each step must land on, counted down modulo 63.
        let mut field = entry::distance(e);
        for _ in 0..total {
            let m = entry::next_move(e);
            let rank = position.rank();
            if !self.ranker.advance(&mut position, m) {
                return Err(LookupError::Corrupt { rank });
            }
            e = self.entries[position.rank() as usize];
            field = field.checked_sub(1).unwrap_or(entry::MODULUS as u8 - 1);
            if entry::distance(e) != field {
                return Err(LookupError::Corrupt { rank });
            }
            moves.push(self.move_from_table(m));
        }
        if position != self.goal_cursor {
            return Err(LookupError::Corrupt {
                rank: position.rank(),
            });
        }
        Ok(total)
    }
}

/// Checks everything about the file that the header alone decides.
/// Returns the header, the board, and where the header starts.
fn check_header(data: &[u8]) -> Result<(Header, Shape, usize), FormatError> {
    if data.len() < PREAMBLE_LEN {
        return Err(FormatError::TooShort {
            expected: PREAMBLE_LEN,
            got: data.len(),
        });
    }
    let (preamble, _): (Preamble, usize) =
        bincode::decode_from_slice(&data[..PREAMBLE_LEN], bincode_config())
            .map_err(|e| FormatError::Header(e.to_string()))?;
    if preamble.magic != MAGIC {
        return Err(FormatError::Magic {
            got: preamble.magic,
        });
    }
    if preamble.version != VERSION {
        return Err(FormatError::Version {
            expected: VERSION,
            got: preamble.version,
        });
    }
    let header_len = preamble.header_len as usize;
    if header_len > MAX_HEADER_LEN || header_len > data.len() - PREAMBLE_LEN {
        return Err(FormatError::Header(format!(
            "it claims {header_len} bytes, but the file has {} after the preamble",
            data.len() - PREAMBLE_LEN
        )));
    }
    let header_start = data.len() - header_len;
    let header_bytes = &data[header_start..];
    let crc = crc32fast::hash(header_bytes);
    if crc != preamble.header_crc {
        return Err(FormatError::Header(format!(
            "expected checksum {:08x}, got {crc:08x}",
            preamble.header_crc
        )));
    }
    let (header, read): (Header, usize) =
        bincode::decode_from_slice(header_bytes, bincode_config())
            .map_err(|e| FormatError::Header(e.to_string()))?;
    if read != header_len {
        return Err(FormatError::Header(format!(
            "expected {header_len} bytes, decoded {read}"
        )));
    }
    let bad = |msg: String| Err(FormatError::Inconsistent(msg));
    let shape = Shape::new(header.rows as usize, header.cols as usize)
        .map_err(|e| FormatError::Inconsistent(e.to_string()))?;
    if header.tables.is_empty() {
        return bad("it lists no tables".into());
    }
    let mut seen = [false; MAX_CELLS];
    for (i, t) in header.tables.iter().enumerate() {
        let blank = t.blank as usize;
        if blank >= shape.cells() {
            return bad(format!(
                "table {i} has its blank in cell {blank}, but a {shape} board has {} cells",
                shape.cells()
            ));
        }
        if std::mem::replace(&mut seen[blank], true) {
            return bad(format!("two tables have their blank in cell {blank}"));
        }
        if t.positions != shape.positions() {
            return bad(format!(
                "table {i} has {} positions, expected {} for {shape}",
                t.positions,
                shape.positions()
            ));
        }
        if t.counts.len() != t.max_distance as usize + 1 {
            return bad(format!(
                "table {i} has maximum distance {} and {} counts",
                t.max_distance,
                t.counts.len()
            ));
        }
        if t.path_table.is_some() && t.max_distance as usize > path_table::MAX_DISTANCE {
            return bad(format!(
                "table {i} has a path table, but its distances reach {}, past the {} that path tables allow",
                t.max_distance,
                path_table::MAX_DISTANCE
            ));
        }
        let total = t.counts.iter().try_fold(0u64, |a, &c| a.checked_add(c));
        if t.counts[0] != 1 || total != Some(t.positions) {
            return bad(format!(
                "the counts of table {i} do not add up to its {} positions",
                t.positions
            ));
        }
    }
    // Only now, with at most one table per cell of cells!/2 positions each,
    // can the layout's offsets be added up without overflow.
    let (offsets, end) = section_offsets(header.tables.iter().flat_map(TableInfo::section_sizes));
    let mut expected = offsets.into_iter();
    for (i, t) in header.tables.iter().enumerate() {
        for ((what, offset, _), expected) in t.sections().zip(&mut expected) {
            if offset != expected {
                return bad(format!(
                    "the {what} of table {i} starts at {offset}, expected {expected}"
                ));
            }
        }
    }
    let expected_len = end + header_len as u64;
    if data.len() as u64 != expected_len {
        return Err(FormatError::Length {
            expected: expected_len,
            got: data.len() as u64,
        });
    }
    Ok((header, shape, header_start))
}
