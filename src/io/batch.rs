//! Answering a batch: one answer per input line, in input order, from
//! either kind of database, at the speed of the lookups themselves.
//!
//! A line holds `START` or `START GOAL`. The two boards are separated by a
//! tab or a `;`, or by spaces when the line has exactly two space-separated
//! words (so `867254301 123456780` and `867/254/301 123/456/780` are pairs,
//! while `8 6 7 2 5 4 3 0 1` is one board), unless the first word is no
//! board and the two are one (`123 405` on 2×3, a board in rows). A line
//! with no goal uses the batch's goal. A trailing `\r` is ignored (Windows
//! line endings).
//!
//! Input is read in blocks of whole lines, each as large as the buffer or
//! as the first read that brought a line (so that a program that writes a
//! line and waits for its answer gets it). Memory stays the same whatever
//! the input's size. The two kinds of database are scheduled differently:
//! - complete tables answer a line in tens of nanoseconds, so blocks are
//!   up to [`BLOCK`] bytes, split into a few shares per thread, each
//!   answered into its own reused buffer, written out in order; nothing is
//!   allocated per line (error lines aside);
//! - pattern tables search, from microseconds to seconds a line, so each
//!   thread takes the next line as it comes free, and the answer next in
//!   order is written (and flushed) by the thread that made it: one slow
//!   line holds up no other ([`answer_one_at_a_time`]). Answers then carry
//!   the search's work: JSON the fields `nodes` and `nodes_expanded`, CSV
//!   the columns of [`SEARCH_CSV_HEADER`].

use crate::db::complete::CompleteTables;
use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::db::goal_table::GoalTable;
use crate::io::answer::{
    write_counted_moves, write_csv_text, write_decimal, write_fields, write_json, write_json_error,
    write_stopped, Nodes, CSV, JSON,
};
use crate::pattern::{SolveOptions, Stopped};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::metric::Metric;
use crate::puzzle::parse::{excerpt, parse_board};
use crate::puzzle::shape::Shape;
use crate::puzzle::solvability::Unsolvable;
use rayon::prelude::*;
use std::io::{self, Read, Write};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::Duration;

/// Bytes of input read at most per block, from complete tables.
pub(crate) const BLOCK: usize = 1 << 20;

/// Bytes of input read at most per block, from pattern tables: a few
/// hundred lines, handed to the threads one at a time.
pub(crate) const SEARCH_BLOCK: usize = 1 << 14;

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BatchFormat {
    /// One JSON object per line (the JSON of [`Answer`](crate::io::Answer)).
    #[default]
    Jsonl,
    /// A header line `start,goal,solvable,distance,moves,reason,error`, then one
    /// row per line.
    Csv,
    /// Just the move string (empty at distance 0), `-` when unsolvable, and
    /// `error: …` for a bad line.
    Moves,
}

/// Characters of a bad line echoed back in its error answer.
pub(crate) const ECHO_LIMIT: usize = 200;

/// Bytes of the longest line answered, `\r\n` aside: far past any board
/// (a 6×6 pair in JSON takes a few hundred). A longer line is refused
/// without being held whole, so that input with no newline (`/dev/zero`)
/// costs a bounded buffer, not all the memory there is.
pub(crate) const LONGEST_LINE: usize = 1 << 20;

/// The CSV header line.
pub const CSV_HEADER: &str = "start,goal,solvable,distance,moves,reason,error\n";

/// The CSV header line of a batch that searches (pattern tables): the
/// usual columns, then the nodes generated and expanded, as JSON gives
/// them, and the lower bound a search that ran out of time proved. Lines
/// with no search (unsolvable, bad) leave them empty.
pub const SEARCH_CSV_HEADER: &str =
    "start,goal,solvable,distance,moves,reason,error,nodes,nodes_expanded,lower_bound\n";

/// How one line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// Solved, with the distance.
    Solved(u32),
    /// A valid pair that has no solution.
    Unsolvable,
    /// The line could not be answered; its output says why.
    Error,
}

/// Reusable state for answering lines without allocating per line.
pub struct LineAnswerer<'a, B> {
    answers: Answers<'a, B>,
    format: BatchFormat,
    /// How the database counts moves, and so how answers are written.
    metric: Metric,
    moves: Vec<Move>,
    /// The last line's search: its work, and the bound it proved if it ran
    /// out of time (for a CSV record's last columns).
    searched: Option<(Nodes, Option<u32>)>,
}

/// Where answers come from. One per share of a block, so the lookup
/// variant's size (its goal table inline) costs nothing worth a box, which
/// the hot path would follow on every line.
#[allow(clippy::large_enum_variant)]
enum Answers<'a, B> {
    /// Lookups, with the default goal's table prepared once, where the
    /// file has one (lines without a goal of their own are refused where
    /// it has not).
    Lookup {
        tables: &'a CompleteTables<B>,
        default: Result<GoalTable<'a>, Board>,
    },
    /// Searches, each within `timeout`.
    Search {
        db: &'a Database<B>,
        default: Board,
        timeout: Option<Duration>,
    },
}

impl<'a, B: AsRef<[u8]>> LineAnswerer<'a, B> {
    /// Answers lines toward `default` unless a line names its own goal; a
    /// search gives up on a line after `timeout`. Where no table serves
    /// `default`, a line that gives no goal gets that error as its answer.
    pub fn new(
        db: &'a Database<B>,
        default: &Board,
        format: BatchFormat,
        timeout: Option<Duration>,
    ) -> Self {
        let answers = match db.complete() {
            Ok(tables) => Answers::Lookup {
                tables,
                default: tables.goal_table(default).map_err(|_| *default),
            },
            Err(_) => Answers::Search {
                db,
                default: *default,
                timeout,
            },
        };
        LineAnswerer {
            answers,
            format,
            metric: db.metric(),
            moves: Vec::with_capacity(128),
            searched: None,
        }
    }

    fn is_search(&self) -> bool {
        matches!(self.answers, Answers::Search { .. })
    }

    /// How long a search may take on one line, where one runs.
    fn timeout(&self) -> Option<Duration> {
        match self.answers {
            Answers::Search { timeout, .. } => timeout,
            Answers::Lookup { .. } => None,
        }
    }

    /// `e` as the record of a search stopped at `--timeout`, if it is one.
    fn timed_out(&self, e: &AnswerError) -> Option<TimedOut> {
        let timeout = self.timeout().unwrap_or_default();
        e.stopped()
            .and_then(|stopped| TimedOut::of(timeout, stopped))
    }

    /// Appends the answer to line number `number` (1-based), and a newline,
    /// to `out`. The line may still end in `\n` or `\r\n`.
    pub fn answer(&mut self, number: u64, line: &[u8], out: &mut Vec<u8>) -> LineOutcome {
        let outcome = match read_line(number, line, self.shape()) {
            Ok((text, start, goal)) => self.answer_pair(number, text, &start, goal, out),
            Err(bad) => {
                self.write_error(out, number, &bad.input, &bad.error);
                LineOutcome::Error
            }
        };
        if self.format == BatchFormat::Csv && self.is_search() {
            let (nodes, bound) = self.searched.take().unzip();
            write_work_columns(out, nodes);
            out.push(b',');
            if let Some(bound) = bound.flatten() {
                write_decimal(out, bound as usize);
            }
        }
        out.push(b'\n');
        outcome
    }

    #[inline]
    fn answer_pair(
        &mut self,
        number: u64,
        text: &str,
        start: &Board,
        goal: Option<Board>,
        out: &mut Vec<u8>,
    ) -> LineOutcome {
        self.moves.clear();
        match self.solve(start, goal) {
            Ok((goal, distance, nodes)) => {
                self.write_answer(out, start, &goal, Ok(&self.moves[..]));
                if let Some(nodes) = nodes {
                    if self.format == BatchFormat::Jsonl {
                        with_nodes(out, nodes);
                    }
                    self.searched = Some((nodes, None));
                }
                LineOutcome::Solved(distance)
            }
            Err((goal, e)) => {
                if let Some(stop) = self.timed_out(&e) {
                    self.searched = Some((stop.work(), Some(stop.bound)));
                    return stop.write(self.format, out, number, text, start, &goal);
                }
                match e.unsolvable() {
                    Some(why) => {
                        self.write_answer(out, start, &goal, Err(why));
                        LineOutcome::Unsolvable
                    }
                    None => {
                        self.write_error(out, number, text, &e.to_string());
                        LineOutcome::Error
                    }
                }
            }
        }
    }

    fn shape(&self) -> Shape {
        match &self.answers {
            Answers::Lookup { tables, .. } => tables.shape(),
            Answers::Search { db, .. } => db.shape(),
        }
    }

    /// Solves from `start` toward `goal` (the default when `None`) into
    /// `self.moves`: the goal, the distance and, where a search ran, its
    /// nodes; or the goal and why there is no answer.
    #[inline]
    fn solve(
        &mut self,
        start: &Board,
        goal: Option<Board>,
    ) -> Result<(Board, u32, Option<Nodes>), (Board, AnswerError)> {
        match &self.answers {
            Answers::Lookup { tables, default } => {
                let table = match (goal, default) {
                    (None, Ok(table)) => *table,
                    // The error again: only lines that need it pay for it.
                    (Some(goal), _) | (None, &Err(goal)) => {
                        tables.goal_table(&goal).map_err(|e| (goal, e))?
                    }
                };
                let goal = *table.goal();
                match table.solve_into(start, &mut self.moves) {
                    Ok(distance) => Ok((goal, distance, None)),
                    Err(e) => Err((goal, e)),
                }
            }
            Answers::Search {
                db,
                default,
                timeout,
            } => {
                let goal = goal.unwrap_or(*default);
                let options = SolveOptions::lasting(*timeout);
                match db.solve(start, &goal, &options) {
                    Ok(solution) => {
                        let nodes = Nodes::from(&solution);
                        self.moves = solution.moves;
                        Ok((goal, self.moves.len() as u32, Some(nodes)))
                    }
                    Err(e) => Err((goal, e)),
                }
            }
        }
    }

    fn write_answer(
        &self,
        out: &mut Vec<u8>,
        start: &Board,
        goal: &Board,
        result: Result<&[Move], &Unsolvable>,
    ) {
        write_answer(self.format, self.metric, out, start, goal, result)
    }

    fn write_error(&self, out: &mut Vec<u8>, number: u64, input: &str, error: &str) {
        write_error(self.format, out, number, input, error)
    }
}

/// Appends the answer for (start, goal) in `format`, without a newline.
pub(crate) fn write_answer(
    format: BatchFormat,
    metric: Metric,
    out: &mut Vec<u8>,
    start: &Board,
    goal: &Board,
    result: Result<&[Move], &Unsolvable>,
) {
    match format {
        BatchFormat::Jsonl => write_json(out, metric, start, goal, result),
        BatchFormat::Csv => write_fields(&CSV, out, metric, start, goal, result),
        BatchFormat::Moves => match result {
            Ok(moves) => write_counted_moves(out, metric, moves),
            Err(_) => out.push(b'-'),
        },
    }
}

/// Appends the error answer to line `number` in `format`, without a newline.
pub(crate) fn write_error(
    format: BatchFormat,
    out: &mut Vec<u8>,
    number: u64,
    input: &str,
    error: &str,
) {
    // Echo enough of a bad line to recognise it, not a whole huge one.
    let input = &*excerpt(input, ECHO_LIMIT);
    match format {
        BatchFormat::Jsonl => write_json_error(out, number, input, error),
        BatchFormat::Csv => {
            // The line as given in the start column, and the error; each
            // a CSV field in quotes, with quotes doubled.
            write_csv_text(out, &input);
            out.extend_from_slice(b",,,,,,");
            write_csv_text(out, &format_args!("line {number}: {error}"));
        }
        BatchFormat::Moves => {
            out.extend_from_slice(b"error: line ");
            write_decimal(out, number as usize);
            out.extend_from_slice(b": ");
            out.extend(error.bytes().filter(|&b| b != b'\n' && b != b'\r'));
        }
    }
}

/// A batch line that cannot be answered: its text, and why.
#[derive(Debug)]
pub(crate) struct BadLine {
    pub input: String,
    pub error: String,
}

/// Reads line number `number` (1-based, still ending in `\n` or `\r\n`)
/// of a batch on `shape`: its text, its start and the goal it names, if
/// any. Always inlined: it is on the path of every looked-up line, and as
/// a call returning two boards it cost a 3×3 batch 3% more instructions
/// (callgrind; 1% with it inlined).
#[inline(always)]
pub(crate) fn read_line(
    number: u64,
    line: &[u8],
    shape: Shape,
) -> Result<(&str, Board, Option<Board>), BadLine> {
    let text = line_text(number, line)?;
    let bad = |error: String| BadLine {
        input: text.to_string(),
        error,
    };
    let (start_text, goal_text) = split_pair(text);
    let start = parse_board(start_text, shape);
    // Two words that are not two boards may be one, in rows: `123 405` on 2×3.
    if start.is_err() && goal_text.is_some() && !text.contains(['\t', ';']) {
        if let Ok(board) = parse_board(text.trim(), shape) {
            return Ok((text, board, None));
        }
    }
    // Lines ended by `\r` alone run together: as a pair split at the `\r`,
    // or as a line that does not read. Only the pair's separator is looked
    // at on the way to an answer (a `\r` inside one board is whitespace).
    match goal_text {
        Some(goal) if start.is_ok() && separator(text, start_text, goal).contains(&b'\r') => {
            inner_carriage_return(text)?
        }
        _ if start.is_err() => inner_carriage_return(text)?,
        _ => {}
    }
    let start = start.map_err(|e| {
        let hint = match goal_text.map(str::trim) {
            // `START GOAL;`: the separator after both.
            Some("") => match several_boards_hint(start_text, shape) {
                none if none.is_empty() && boards_in(start_text, shape) == 2 => {
                    "; it holds two boards: the tab or `;` goes between the start and the goal"
                        .to_string()
                }
                hint => hint,
            },
            // `START GOAL;GOAL`.
            Some(_) => match boards_in(start_text, shape) {
                n if n > 1 => {
                    format!(
                        "; a line holds a start and at most one goal, not {} boards",
                        n + 1
                    )
                }
                _ => String::new(),
            },
            None => several_boards_hint(start_text, shape),
        };
        bad(format!("bad start board: {e}{hint}"))
    })?;
    // An empty goal, as a spreadsheet writes an empty last cell, is none.
    let goal_text = goal_text.filter(|g| !g.trim().is_empty());
    let goal = match goal_text.map(|g| parse_board(g, shape)) {
        None => None,
        Some(Ok(goal)) => Some(goal),
        Some(Err(e)) => return Err(bad(format!("bad goal board: {e}"))),
    };
    Ok((text, start, goal))
}

/// The text of line number `number` (1-based, still ending in `\n` or
/// `\r\n`): valid UTF-8, not empty, not past [`LONGEST_LINE`], without a
/// byte-order mark on the first line.
#[inline(always)]
pub(crate) fn line_text(number: u64, line: &[u8]) -> Result<&str, BadLine> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > LONGEST_LINE {
        // Cut short by the reader (see `Blocks`): the rest is gone.
        return Err(BadLine {
            input: String::from_utf8_lossy(&line[..4 * ECHO_LIMIT]).into_owned(),
            error: format!(
                "the line is longer than {LONGEST_LINE} bytes; no board takes more than a few hundred"
            ),
        });
    }
    // Editors on some systems start a UTF-8 file with a byte-order mark.
    let line = match number {
        1 => line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line),
        _ => line,
    };
    let text = std::str::from_utf8(line).map_err(|e| BadLine {
        input: String::from_utf8_lossy(line).into_owned(),
        error: format!("the line is not valid UTF-8 (byte {})", e.valid_up_to() + 1),
    })?;
    if text.trim().is_empty() {
        return Err(BadLine {
            input: text.to_string(),
            error: "the line is empty".to_string(),
        });
    }
    Ok(text)
}

/// The bytes of `text` between `first` and `second`, two slices of it in
/// that order: the separator of a pair.
fn separator<'a>(text: &'a str, first: &str, second: &str) -> &'a [u8] {
    let offset = |part: &str| part.as_ptr() as usize - text.as_ptr() as usize;
    &text.as_bytes()[offset(first) + first.len()..offset(second)]
}

/// Refuses a line with a `\r` inside: lines ended by `\r` alone (old Mac
/// files, some spreadsheets' exports) would otherwise be read as one line,
/// two starts answered as a start and its goal.
#[cold]
pub(crate) fn inner_carriage_return(text: &str) -> Result<(), BadLine> {
    match text.contains('\r') {
        false => Ok(()),
        true => Err(BadLine {
            input: text.to_string(),
            error: "a carriage return inside the line: lines end with a line feed (as on \
                    Unix) or a carriage return and a line feed (Windows), not a carriage return \
                    alone (old Mac files, some exports)"
                .to_string(),
        }),
    }
}

/// Why a line read as one board does not parse, where it looks like more
/// than one: two in JSON, two written with spaces (no tab or `;` between),
/// or more than a start and a goal. Empty otherwise. Only bad lines pay.
#[cold]
fn several_boards_hint(text: &str, shape: Shape) -> String {
    let numbers = || {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .count()
    };
    if text.matches('[').count() > 1 {
        "; separate a start and a goal in JSON with a tab or `;`".to_string()
    } else if let Some(hint) = comma_hint(text, shape) {
        hint.to_string()
    } else if numbers() == 2 * shape.cells() {
        "; separate a start and a goal written with spaces by a tab or `;`".to_string()
    } else {
        match boards_in(text, shape) {
            n if n > 2 => format!("; a line holds a start and at most one goal, not {n} boards"),
            _ => String::new(),
        }
    }
}

/// Why a line of two fields split by a comma is not read, where it is a
/// board and another or a number: a start and a goal as a spreadsheet
/// writes them, or a row of `random --csv` (`start,distance`).
#[cold]
fn comma_hint(text: &str, shape: Shape) -> Option<&'static str> {
    let (first, second) = text.split_once(',')?;
    let (first, second) = (first.trim(), second.trim());
    if second.contains(',') || parse_board(first, shape).is_err() {
        return None;
    }
    if parse_board(second, shape).is_ok() {
        Some("; separate a start and a goal by a tab or `;`, not a comma")
    } else if second.parse::<u64>().is_ok() {
        Some(
            "; a board and a number, as a row of `random --csv` (start,distance): give the \
             board alone (`cut -d, -f1`, or `random` without --csv)",
        )
    } else {
        None
    }
}

/// How many words `text` holds where each is a board; 0 where one is not.
#[cold]
fn boards_in(text: &str, shape: Shape) -> usize {
    let words = text.split_whitespace();
    match words.clone().all(|w| parse_board(w, shape).is_ok()) {
        true => words.count(),
        false => 0,
    }
}

/// A search that gave up at `--timeout`, as a batch line and `solve
/// --json` report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimedOut {
    /// The time it was given.
    pub timeout: Duration,
    /// The bound being searched when it stopped: every shorter one was
    /// searched through, so the distance is at least it.
    pub bound: u32,
    /// Nodes generated.
    pub nodes: u64,
    /// Nodes expanded.
    pub expanded: u64,
}

impl TimedOut {
    /// The search's stop, if it was the deadline that stopped it.
    pub fn of(timeout: Duration, stopped: &Stopped) -> Option<TimedOut> {
        match *stopped {
            Stopped::TimedOut {
                bound,
                nodes,
                expanded,
            } => Some(TimedOut {
                timeout,
                bound,
                nodes,
                expanded,
            }),
            Stopped::Cancelled { .. } => None,
        }
    }

    /// Its JSON object, without a newline: the pair, no distance, the
    /// reason, the nodes (generated and expanded, as a solved line has
    /// them) and the lower bound the search proved.
    pub fn write_json(&self, out: &mut Vec<u8>, start: &Board, goal: &Board) {
        write_stopped(&JSON, out, start, goal, &self.reason());
        with_nodes(out, self.work());
        with_number(out, b"lower_bound", u64::from(self.bound));
    }

    fn reason(&self) -> String {
        format!(
            "timed out after {} s (--timeout): stopped at bound {} after {} nodes",
            self.timeout.as_secs_f64(),
            self.bound,
            self.nodes
        )
    }

    /// The nodes searched before it stopped.
    pub fn work(&self) -> Nodes {
        Nodes {
            generated: self.nodes,
            expanded: self.expanded,
        }
    }

    /// Appends its record: in JSON and CSV both boards, no distance, and
    /// the reason (JSON adds the nodes and the lower bound, as
    /// [`TimedOut::write_json`] writes them); as a moves line, an error.
    pub(crate) fn write(
        &self,
        format: BatchFormat,
        out: &mut Vec<u8>,
        number: u64,
        text: &str,
        start: &Board,
        goal: &Board,
    ) -> LineOutcome {
        match format {
            BatchFormat::Jsonl => self.write_json(out, start, goal),
            BatchFormat::Csv => write_stopped(&CSV, out, start, goal, &self.reason()),
            BatchFormat::Moves => write_error(format, out, number, text, &self.reason()),
        }
        LineOutcome::Error
    }
}

/// Splits a line into its start and, if present, its goal.
pub fn split_pair(text: &str) -> (&str, Option<&str>) {
    // Most lines are one compact board (`867254301`): printable ASCII with
    // no `;` holds no tab, `;` or whitespace, so one pass over its bytes
    // settles it instead of three searches.
    if text.bytes().all(|b| b.is_ascii_graphic() && b != b';') {
        return (text, None);
    }
    if let Some((a, b)) = text.split_once(['\t', ';']) {
        return (a, Some(b));
    }
    let mut words = text.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(a), Some(b), None) => (a, Some(b)),
        _ => (text, None),
    }
}

/// What a whole batch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// Lines read.
    pub lines: u64,
    /// Lines answered with a solution.
    pub solved: u64,
    /// Lines whose start cannot reach their goal.
    pub unsolvable: u64,
    /// Lines that could not be answered.
    pub errors: u64,
}

impl BatchSummary {
    fn add(&mut self, outcome: LineOutcome) {
        self.lines += 1;
        match outcome {
            LineOutcome::Solved(_) => self.solved += 1,
            LineOutcome::Unsolvable => self.unsolvable += 1,
            LineOutcome::Error => self.errors += 1,
        }
    }

    fn merge(&mut self, other: BatchSummary) {
        self.lines += other.lines;
        self.solved += other.solved;
        self.unsolvable += other.unsolvable;
        self.errors += other.errors;
    }
}

/// One thread's share of a block: its bytes (whole lines), the number of
/// its first line, and its reused output buffer.
struct Share {
    range: std::ops::Range<usize>,
    first_line: u64,
    out: Vec<u8>,
    summary: BatchSummary,
}

/// Pieces each block is cut into per thread, so that a thread that drew
/// slow lines does not hold up the others for long.
const SHARES_PER_THREAD: usize = 4;

/// Answers every line of `input` toward `default` (unless a line names its
/// goal) and writes the answers to `output` in input order, spreading each
/// block over `threads` threads. A search gives up on a line after
/// `timeout` (complete tables answer at once). Stops at the first read or
/// write error; a `default` no table serves fails before any line is read.
pub fn run_batch<B: AsRef<[u8]> + Sync + Send>(
    db: &Database<B>,
    default: &Board,
    format: BatchFormat,
    threads: usize,
    timeout: Option<Duration>,
    input: impl Read,
    output: impl Write + Send,
) -> io::Result<BatchSummary> {
    let make = || LineAnswerer::new(db, default, format, timeout);
    let searching = make().is_search();
    let lines_per_share = match searching {
        true => LinesPerShare::One,
        false => LinesPerShare::Many,
    };
    let header = match searching {
        true => SEARCH_CSV_HEADER,
        false => CSV_HEADER,
    };
    answer_lines(
        make,
        lines_per_share,
        (format, header),
        threads,
        input,
        output,
    )
}

/// What answers a batch's lines, one at a time, on one thread.
pub(crate) trait AnswerLine {
    /// Appends the answer to line number `number` (1-based), and a newline,
    /// to `out`. The line may still end in `\n` or `\r\n`.
    fn answer_line(&mut self, number: u64, line: &[u8], out: &mut Vec<u8>) -> LineOutcome;
}

impl<B: AsRef<[u8]>> AnswerLine for LineAnswerer<'_, B> {
    fn answer_line(&mut self, number: u64, line: &[u8], out: &mut Vec<u8>) -> LineOutcome {
        self.answer(number, line, out)
    }
}

/// How a block's lines are cut into shares for the threads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum LinesPerShare {
    /// Searches, slow and uneven: a line a share, taken one at a time.
    One,
    /// Lookups, tens of nanoseconds a line: a few runs of lines a thread.
    Many,
}

/// Answers every line of `input` with answerers from `make` (one a share,
/// or one a thread for searches) and writes the answers to `output` in
/// input order (after `csv_header` in CSV), on `threads` threads. Stops at
/// the first read or write error.
pub(crate) fn answer_lines<A: AnswerLine>(
    make: impl Fn() -> A + Sync,
    lines_per_share: LinesPerShare,
    (format, csv_header): (BatchFormat, &str),
    threads: usize,
    input: impl Read,
    mut output: impl Write + Send,
) -> io::Result<BatchSummary> {
    let threads = threads.max(1);
    if format == BatchFormat::Csv {
        output.write_all(csv_header.as_bytes())?;
    }
    let summary = match lines_per_share {
        LinesPerShare::Many => answer_in_blocks(make, threads, input, &mut output)?,
        LinesPerShare::One => answer_one_at_a_time(make, threads, input, &mut output)?,
    };
    output.flush()?;
    Ok(summary)
}

/// Lookups: each [`BLOCK`] of input cut into a few shares a thread, all
/// answered before the block's answers are written.
fn answer_in_blocks<A: AnswerLine>(
    make: impl Fn() -> A + Sync,
    threads: usize,
    mut input: impl Read,
    output: &mut impl Write,
) -> io::Result<BatchSummary> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| io::Error::other(e.to_string()))?;
    let shares_per_block = match threads {
        1 => 1,
        _ => threads * SHARES_PER_THREAD,
    };
    let mut shares: Vec<Share> = (0..shares_per_block)
        .map(|_| Share::with_capacity(2 * BLOCK / shares_per_block))
        .collect();
    let mut blocks = Blocks::new(BLOCK, LONGEST_LINE);
    let mut summary = BatchSummary::default();
    while let Some(block) = blocks.next(&mut input)? {
        split_into_shares(block, &mut shares, summary.lines);
        let answer_share = |share: &mut Share| {
            let mut answerer = make();
            share.out.clear();
            share.summary = BatchSummary::default();
            let mut number = share.first_line;
            for line in lines(&block[share.range.clone()]) {
                number += 1;
                let outcome = answerer.answer_line(number, line, &mut share.out);
                share.summary.add(outcome);
            }
        };
        pool.install(|| shares.par_iter_mut().with_max_len(1).for_each(answer_share));
        for share in &shares {
            output.write_all(&share.out)?;
            summary.merge(share.summary);
        }
    }
    Ok(summary)
}

/// Lines read ahead of the first one not yet written, per thread: a slow
/// line keeps the others' threads busy on later lines for this long.
const AHEAD_PER_THREAD: u64 = 256;

/// Bytes of lines read ahead of the first answer not yet written: a few
/// lines at most of the longest, [`LONGEST_LINE`].
const AHEAD_BYTES: usize = 4 << 20;

/// Searches, from microseconds to the timeout a line: this thread reads
/// the lines as they come, each of `threads` threads takes the next line as
/// it is free, and the thread whose answer is next in input order writes it
/// (and those after it already answered). So one slow line holds up
/// neither the other threads nor the answers before it, and a program that
/// writes a line and waits for its answer gets it. At most
/// [`AHEAD_PER_THREAD`] lines a thread, and [`AHEAD_BYTES`], are read ahead
/// of the first answer not yet written.
fn answer_one_at_a_time<A: AnswerLine, W: Write + Send>(
    make: impl Fn() -> A + Sync,
    threads: usize,
    mut input: impl Read,
    output: &mut W,
) -> io::Result<BatchSummary> {
    let ahead = AHEAD_PER_THREAD.saturating_mul(threads as u64);
    // Never full: it holds fewer lines than may be read ahead.
    let (to_threads, lines_in) = mpsc::sync_channel::<(u64, Vec<u8>)>(ahead as usize);
    let lines_in = Mutex::new(lines_in);
    let order = InOrder {
        ahead,
        state: Mutex::new(Writing::new(output)),
        room: Condvar::new(),
    };
    std::thread::scope(|scope| {
        let mut answering = Vec::with_capacity(threads);
        for _ in 0..threads {
            let (lines_in, order, make) = (&lines_in, &order, &make);
            answering.push(scope.spawn(move || {
                // A panic stops the reading too, which would otherwise wait
                // for the lost line's answer; the join passes it on.
                let _stops = StopsOnPanic(order);
                let mut answerer = make();
                // Locked only to take a line: the loop ends once the input
                // has and every line is taken.
                let next = || lines_in.lock().unwrap_or_else(|e| e.into_inner()).recv();
                while let Ok((number, line)) = next() {
                    let mut out = Vec::with_capacity(160);
                    let outcome = answerer.answer_line(number, &line, &mut out);
                    if !order.answered(number, line.len(), (out, outcome)) {
                        break;
                    }
                }
            }));
        }
        let read = read_lines(&mut input, to_threads, &order);
        // The lines' channel is closed: each thread ends after the last.
        for thread in answering {
            thread
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
        }
        let mut state = order.lock();
        if let Some(e) = state.failed.take() {
            return Err(e);
        }
        read.map(|()| state.summary)
    })
}

/// Marks the writing failed if its thread panics.
struct StopsOnPanic<'a, 'w, W: Write>(&'a InOrder<'w, W>);

impl<W: Write> Drop for StopsOnPanic<'_, '_, W> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0
                .fail(io::Error::other("a thread answering lines stopped"));
        }
    }
}

/// Reads the lines of `input`, as soon as each read brings one, into
/// `to_threads`, numbered from 1, as `order` has room for them.
fn read_lines<W: Write>(
    input: &mut impl Read,
    to_threads: mpsc::SyncSender<(u64, Vec<u8>)>,
    order: &InOrder<'_, W>,
) -> io::Result<()> {
    let mut blocks = Blocks::new(SEARCH_BLOCK, LONGEST_LINE);
    let mut read = 0;
    while let Some(block) = blocks.next(input)? {
        for line in lines(block) {
            if !order.next_line(read, line.len()) {
                return Ok(());
            }
            read += 1;
            // The threads end only once this channel closes.
            let _ = to_threads.send((read, line.to_vec()));
        }
    }
    Ok(())
}

/// The answers, written in input order by the threads that answer them.
struct InOrder<'w, W> {
    /// Lines the reading may hold past the last one written.
    ahead: u64,
    state: Mutex<Writing<'w, W>>,
    /// Told when the reading, which waits for room, may go on.
    room: Condvar,
}

/// Where the reading and the writing are, and the answers that came back
/// before the lines ahead of them.
struct Writing<'w, W> {
    output: &'w mut W,
    /// Answers by line number, with their lines' lengths.
    held: std::collections::BTreeMap<u64, (usize, LineAnswer)>,
    /// Lines written, with their outcomes.
    summary: BatchSummary,
    /// Bytes of the lines read and not yet written.
    bytes_ahead: usize,
    /// The line the reading waits to have room for: its place and length.
    waiting: Option<(u64, usize)>,
    /// The first write error: the reading and the threads stop.
    failed: Option<io::Error>,
}

impl<'w, W: Write> Writing<'w, W> {
    fn new(output: &'w mut W) -> Self {
        Writing {
            output,
            held: std::collections::BTreeMap::new(),
            summary: BatchSummary::default(),
            bytes_ahead: 0,
            waiting: None,
            failed: None,
        }
    }

    /// Writes the answers next in order, and flushes them: the next is
    /// still being searched, and a program may wait for these.
    fn write_ready(&mut self) -> io::Result<()> {
        let before = self.summary.lines;
        while let Some((len, (out, outcome))) = self.held.remove(&(self.summary.lines + 1)) {
            self.output.write_all(&out)?;
            self.summary.add(outcome);
            self.bytes_ahead -= len;
        }
        if self.summary.lines > before {
            self.output.flush()?;
        }
        Ok(())
    }

    /// Whether line `read + 1`, of `len` bytes, may be read with at most
    /// `ahead` lines read ahead, and [`AHEAD_BYTES`] of them; with `half`,
    /// half of each. Always where none are.
    fn has_room(&self, (read, len): (u64, usize), ahead: u64, half: bool) -> bool {
        let (lines, bytes) = match half {
            false => (ahead, AHEAD_BYTES),
            true => (ahead / 2 + 1, AHEAD_BYTES / 2),
        };
        let held = read - self.summary.lines;
        held == 0 || (held < lines && self.bytes_ahead + len <= bytes)
    }
}

/// A line's answer, and how it ended.
type LineAnswer = (Vec<u8>, LineOutcome);

impl<'w, W: Write> InOrder<'w, W> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Writing<'w, W>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until the line after the `read` first, of `len` bytes, may be
    /// read, and counts its bytes; false once the writing failed.
    fn next_line(&self, read: u64, len: usize) -> bool {
        let mut state = self.lock();
        let line = (read, len);
        if !state.has_room(line, self.ahead, false) {
            // Woken once half the room is free, not at every answer.
            state.waiting = Some(line);
            let full =
                |w: &mut Writing<W>| w.failed.is_none() && !w.has_room(line, self.ahead, true);
            state = (self.room.wait_while(state, full)).unwrap_or_else(|e| e.into_inner());
            state.waiting = None;
        }
        state.bytes_ahead += len;
        state.failed.is_none()
    }

    /// Stops the reading and the threads, for `e` (the first error kept).
    fn fail(&self, e: io::Error) {
        self.lock().failed.get_or_insert(e);
        self.room.notify_all();
    }

    /// Takes line `number`'s answer (the line `len` bytes) and writes
    /// what is next in order; false once the writing failed.
    fn answered(&self, number: u64, len: usize, answer: LineAnswer) -> bool {
        let mut state = self.lock();
        if state.failed.is_some() {
            return false;
        }
        state.held.insert(number, (len, answer));
        if let Err(e) = state.write_ready() {
            drop(state);
            self.fail(e);
            return false;
        }
        if (state.waiting).is_some_and(|line| state.has_room(line, self.ahead, true)) {
            self.room.notify_all();
        }
        true
    }
}

/// Input read in blocks of whole lines, into one reused buffer.
struct Blocks {
    buffer: Vec<u8>,
    /// Bytes read into the buffer.
    filled: usize,
    /// Bytes handed out as the last block, to drop before reading more.
    handed: usize,
    at_end: bool,
    /// Lines longer than this, `\r\n` aside, are cut to two bytes more
    /// than it once they outgrow the buffer ([`LONGEST_LINE`], smaller in
    /// tests).
    longest: usize,
}

impl Blocks {
    fn new(len: usize, longest: usize) -> Blocks {
        Blocks {
            buffer: vec![0; len],
            filled: 0,
            handed: 0,
            at_end: false,
            longest,
        }
    }

    /// The next block: whole lines (the last line of the input may lack its
    /// newline), as many as fill the buffer or came by the first read that
    /// brought a whole line, or `None` at the end. A line longer than the buffer grows
    /// it, up to twice the longest line; a line longer than that is cut
    /// ([`Blocks::cut_long_line`]).
    fn next(&mut self, input: &mut impl Read) -> io::Result<Option<&[u8]>> {
        self.buffer.copy_within(self.handed..self.filled, 0);
        self.filled -= self.handed;
        self.handed = 0;
        loop {
            if self.at_end {
                self.handed = self.filled;
                return Ok((self.filled > 0).then(|| &self.buffer[..self.filled]));
            }
            while self.filled < self.buffer.len() && !self.at_end {
                match input.read(&mut self.buffer[self.filled..]) {
                    Ok(0) => self.at_end = true,
                    Ok(n) => {
                        let fresh = &self.buffer[self.filled..self.filled + n];
                        self.filled += n;
                        // What came is answered before more is waited for:
                        // a program may wait for these answers.
                        if memchr::memchr(b'\n', fresh).is_some() {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            if self.at_end {
                continue;
            }
            match memchr::memrchr(b'\n', &self.buffer[..self.filled]) {
                Some(i) => {
                    self.handed = i + 1;
                    return Ok(Some(&self.buffer[..i + 1]));
                }
                // The buffer is one line, no end in sight.
                None if self.filled > self.longest + 1 => self.cut_long_line(input)?,
                None => self.buffer.resize(self.buffer.len() * 2, 0),
            }
        }
    }

    /// Keeps the first `longest + 2` bytes of the line that fills the
    /// buffer, more than any line answered holds even with a `\r` at its
    /// end, and reads past the rest of it without keeping it: the buffer
    /// then holds the cut line, its newline (if the input has one) and what
    /// follows.
    fn cut_long_line(&mut self, input: &mut impl Read) -> io::Result<()> {
        let kept = self.longest + 2;
        if self.buffer.len() < 2 * kept {
            self.buffer.resize(2 * kept, 0);
        }
        loop {
            // Bytes past `kept` are the line's, read to find its end.
            if let Some(i) = memchr::memchr(b'\n', &self.buffer[kept..self.filled]) {
                self.buffer.copy_within(kept + i..self.filled, kept);
                self.filled -= i;
                return Ok(());
            }
            self.filled = kept;
            if self.at_end {
                return Ok(());
            }
            match input.read(&mut self.buffer[kept..]) {
                Ok(0) => self.at_end = true,
                Ok(n) => self.filled = kept + n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

impl Share {
    fn with_capacity(bytes: usize) -> Share {
        Share {
            range: 0..0,
            first_line: 0,
            out: Vec::with_capacity(bytes),
            summary: BatchSummary::default(),
        }
    }
}

/// Cuts `block` into `shares.len()` runs of whole lines of about equal
/// size, and numbers each run's first line (the lines before the block
/// numbered `lines_before`).
fn split_into_shares(block: &[u8], shares: &mut [Share], lines_before: u64) {
    let n = shares.len();
    let mut start = 0;
    let mut first_line = lines_before;
    for (i, share) in shares.iter_mut().enumerate() {
        let end = if i + 1 == n {
            block.len()
        } else {
            let goal = (block.len() * (i + 1) / n).max(start);
            match memchr::memchr(b'\n', &block[goal..]) {
                Some(j) => goal + j + 1,
                None => block.len(),
            }
        };
        share.range = start..end;
        share.first_line = first_line;
        first_line += lines(&block[start..end]).count() as u64;
        start = end;
    }
}

/// The lines of `bytes`, each with its `\n` (the last may lack it).
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let (line, tail) = rest.split_at(end);
        rest = tail;
        Some(line)
    })
}

/// Appends a CSV record's columns `nodes` and `nodes_expanded`, each after
/// a comma: the search's work, or empty where no search ran.
pub(crate) fn write_work_columns(out: &mut Vec<u8>, nodes: Option<Nodes>) {
    out.push(b',');
    if let Some(nodes) = nodes {
        write_decimal(out, nodes.generated as usize);
        out.push(b',');
        write_decimal(out, nodes.expanded as usize);
    } else {
        out.push(b',');
    }
}

/// Adds `"nodes":N,"nodes_expanded":M` to the JSON object that ends `out`.
pub(crate) fn with_nodes(out: &mut Vec<u8>, nodes: Nodes) {
    with_number(out, b"nodes", nodes.generated);
    with_number(out, b"nodes_expanded", nodes.expanded);
}

/// Adds `"key":n` to the JSON object that ends `out`.
pub(crate) fn with_number(out: &mut Vec<u8>, key: &[u8], n: u64) {
    debug_assert_eq!(out.last(), Some(&b'}'));
    out.pop();
    out.extend_from_slice(b",\"");
    out.extend_from_slice(key);
    out.extend_from_slice(b"\":");
    write_decimal(out, n as usize);
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Lines answered one at a time, each line's answer its own text; line
    /// `waits` is answered only once line `until` is, or after 5 s.
    struct Waiting<'a> {
        waits: u64,
        until: u64,
        answered: &'a (Mutex<bool>, Condvar),
    }

    impl AnswerLine for Waiting<'_> {
        fn answer_line(&mut self, number: u64, line: &[u8], out: &mut Vec<u8>) -> LineOutcome {
            let (answered, changed) = self.answered;
            if number == self.waits {
                let done = answered.lock().unwrap();
                let wait = Duration::from_secs(5);
                let (done, _) = changed.wait_timeout_while(done, wait, |d| !*d).unwrap();
                out.extend_from_slice(if *done { b"waited\n" } else { b"gave up\n" });
            } else {
                out.extend_from_slice(line);
                if number == self.until {
                    *answered.lock().unwrap() = true;
                    changed.notify_all();
                }
            }
            LineOutcome::Solved(0)
        }
    }

    /// A search that takes long holds up no other thread: a line past the
    /// input's first block of searches is answered while the first line
    /// still searches, and the answers come out in input order.
    #[test]
    fn a_slow_line_holds_up_no_other_thread() {
        let line = format!("{}\n", "7".repeat(99));
        let count = 3 * SEARCH_BLOCK / line.len();
        let until = (2 * SEARCH_BLOCK / line.len()) as u64;
        let input = line.repeat(count);
        let answered = (Mutex::new(false), Condvar::new());
        let make = || Waiting {
            waits: 1,
            until,
            answered: &answered,
        };
        let mut out = Vec::new();
        let format = (BatchFormat::Jsonl, "");
        let summary = answer_lines(
            make,
            LinesPerShare::One,
            format,
            2,
            input.as_bytes(),
            &mut out,
        )
        .unwrap();
        assert_eq!(summary.lines, count as u64);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("waited\n{}", line.repeat(count - 1))
        );
    }

    /// Input that counts the bytes read from it.
    struct Counted<'a> {
        bytes: &'a [u8],
        read: &'a std::sync::atomic::AtomicUsize,
    }

    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.bytes.read(buf)?;
            self.read.fetch_add(n, std::sync::atomic::Ordering::SeqCst);
            Ok(n)
        }
    }

    /// Long lines behind a slow one are read ahead by a few megabytes at
    /// most, however few they are: bad input holds no more memory than that.
    #[test]
    fn long_lines_behind_a_slow_one_are_not_all_read_ahead() {
        use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
        let line = format!("{}\n", "x".repeat(512 << 10));
        let input = format!("slow\n{}", line.repeat(100));
        let read = AtomicUsize::new(0);
        let read_by_then = AtomicUsize::new(0);
        struct Slow<'a>(&'a AtomicUsize, &'a AtomicUsize);
        impl AnswerLine for Slow<'_> {
            fn answer_line(&mut self, number: u64, _: &[u8], out: &mut Vec<u8>) -> LineOutcome {
                if number == 1 {
                    // Time for the reading to run ahead as far as it may.
                    std::thread::sleep(Duration::from_millis(300));
                    self.1.store(self.0.load(SeqCst), SeqCst);
                }
                out.push(b'\n');
                LineOutcome::Solved(0)
            }
        }
        let input = Counted {
            bytes: input.as_bytes(),
            read: &read,
        };
        let make = || Slow(&read, &read_by_then);
        let format = (BatchFormat::Jsonl, "");
        let mut out = Vec::new();
        let summary = answer_lines(make, LinesPerShare::One, format, 2, input, &mut out).unwrap();
        assert_eq!(summary.lines, 101);
        let ahead = read_by_then.load(SeqCst);
        assert!(
            ahead < 8 << 20,
            "{ahead} bytes read while the first line searched"
        );
    }

    /// Input that a program writes a line at a time, waiting for each
    /// answer, and what the batch has written so far.
    struct Conversation {
        written: Arc<(Mutex<Vec<u8>>, Condvar)>,
        said: bool,
        heard_before_the_end: Option<bool>,
    }

    impl Read for Conversation {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if !self.said {
                self.said = true;
                buf[..10].copy_from_slice(b"867254301\n");
                return Ok(10);
            }
            // The end of the input, once the answer came (or 5 s passed).
            let (written, changed) = &*self.written;
            let wait = Duration::from_secs(5);
            let written = written.lock().unwrap();
            let (written, _) = changed
                .wait_timeout_while(written, wait, |w| w.is_empty())
                .unwrap();
            self.heard_before_the_end = Some(!written.is_empty());
            Ok(0)
        }
    }

    struct Heard(Arc<(Mutex<Vec<u8>>, Condvar)>);

    impl Write for Heard {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0 .0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            self.0 .1.notify_all();
            Ok(())
        }
    }

    /// A program that writes one line and waits for its answer before it
    /// writes more gets the answer: searches are not held until a block
    /// of input fills.
    #[test]
    fn a_search_is_answered_before_more_input_comes() {
        let written = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
        let mut input = Conversation {
            written: Arc::clone(&written),
            said: false,
            heard_before_the_end: None,
        };
        let answered = (Mutex::new(false), Condvar::new());
        let make = || Waiting {
            waits: 0,
            until: 0,
            answered: &answered,
        };
        let format = (BatchFormat::Jsonl, "");
        answer_lines(
            make,
            LinesPerShare::One,
            format,
            2,
            &mut input,
            Heard(Arc::clone(&written)),
        )
        .unwrap();
        assert_eq!(input.heard_before_the_end, Some(true));
        assert_eq!(*written.0.lock().unwrap(), b"867254301\n");
    }

    #[test]
    fn pairs_and_single_boards() {
        assert_eq!(split_pair("867254301"), ("867254301", None));
        let shape = Shape::THREE_BY_THREE;
        for empty_goal in ["867254301\t", "867254301;", "867254301\t  ", "867254301 ;"] {
            let (_, start, goal) = read_line(1, empty_goal.as_bytes(), shape).unwrap();
            assert_eq!((start.to_string(), goal), ("867254301".to_string(), None));
        }
        assert_eq!(
            split_pair("867254301 123456780"),
            ("867254301", Some("123456780"))
        );
        assert_eq!(split_pair("8 6 7 2 5 4 3 0 1"), ("8 6 7 2 5 4 3 0 1", None));
        assert_eq!(
            split_pair("8 6 7 2 5 4 3 0 1\t1 2 3 4 5 6 7 8 0"),
            ("8 6 7 2 5 4 3 0 1", Some("1 2 3 4 5 6 7 8 0"))
        );
        assert_eq!(
            split_pair("867/254/301;123/456/780"),
            ("867/254/301", Some("123/456/780"))
        );
    }

    /// Lines ended by a carriage return alone are refused, not read as one
    /// line: two starts would be answered as a start and its goal. A
    /// Windows line end, `\r\n`, is a line end.
    #[test]
    fn a_carriage_return_inside_a_line_is_refused() {
        let shape = Shape::new(3, 3).unwrap();
        for line in [
            &b"867254301\r123456708\r"[..],
            b"867254301\r123456708\r\n",
            b"867254301\r123456708\r283104765",
            b"867/254/301\r123/456/708",
        ] {
            let bad = read_line(1, line, shape).unwrap_err();
            assert!(
                bad.error.starts_with("a carriage return inside the line"),
                "{}",
                bad.error
            );
        }
        let (_, start, goal) = read_line(1, b"867254301 123456708\r\n", shape).unwrap();
        let board = |text| parse_board(text, shape).unwrap();
        assert_eq!(
            (start, goal),
            (board("867254301"), Some(board("123456708")))
        );
        // Inside one board it is only whitespace.
        let (_, start, goal) = read_line(1, b"[[8,6,7],\r[2,5,4],[3,0,1]]\n", shape).unwrap();
        assert_eq!((start, goal), (board("867254301"), None));
    }

    /// Two words that are not two boards are read as one board in rows,
    /// as `query solve 123 405` reads them; two boards stay a pair.
    #[test]
    fn two_words_that_are_one_board_in_rows() {
        let shape = Shape::new(2, 3).unwrap();
        let board = |text| parse_board(text, shape).unwrap();
        let (_, start, goal) = read_line(1, b"123 405\n", shape).unwrap();
        assert_eq!((start, goal), (board("123405"), None));
        let (_, start, goal) = read_line(1, b"123405 123450\n", shape).unwrap();
        assert_eq!((start, goal), (board("123405"), Some(board("123450"))));
        let bad = read_line(1, b"12 3450\n", shape).unwrap_err();
        assert!(bad.error.starts_with("bad start board"), "{}", bad.error);
        assert!(!bad.error.contains("tab"), "{}", bad.error);
        // Two boards in words, with no tab or `;` between: told how.
        let bad = read_line(1, b"1 2 3 4 0 5 1 2 3 4 5 0\n", shape).unwrap_err();
        assert!(
            bad.error.ends_with(
                "got 12; separate a start and a goal written with spaces by a tab or `;`"
            ),
            "{}",
            bad.error
        );
        // A start and a goal, or a board and its distance, split by a
        // comma as spreadsheets and `random --csv` write them: said so.
        let bad = read_line(1, b"123405,123450\n", shape).unwrap_err();
        assert!(
            bad.error
                .ends_with("got 2; separate a start and a goal by a tab or `;`, not a comma"),
            "{}",
            bad.error
        );
        let bad = read_line(1, b"123405,1\r\n", shape).unwrap_err();
        assert!(
            bad.error
                .contains("got 2; a board and a number, as a row of `random --csv`"),
            "{}",
            bad.error
        );
        // Tiles split by commas are a board's, not a pair's.
        let bad = read_line(1, b"1,2,3,4,0\n", shape).unwrap_err();
        assert!(!bad.error.contains("comma"), "{}", bad.error);
        // Three boards: one too many, said so.
        let bad = read_line(1, b"123405 123450 123450\n", shape).unwrap_err();
        assert!(
            bad.error
                .ends_with("; a line holds a start and at most one goal, not 3 boards"),
            "{}",
            bad.error
        );
        // Both boards before the separator: where it goes, said; a third
        // after it is one too many.
        for (line, said) in [
            (
                &b"123405 123450;\n"[..],
                "got 2; it holds two boards: the tab or `;` goes between the start and the goal",
            ),
            (
                b"1 2 3 4 0 5 1 2 3 4 5 0;\n",
                "got 12; separate a start and a goal written with spaces by a tab or `;`",
            ),
            (
                b"123405 123450;123450\n",
                "got 2; a line holds a start and at most one goal, not 3 boards",
            ),
        ] {
            let bad = read_line(1, line, shape).unwrap_err();
            assert!(bad.error.ends_with(said), "{}", bad.error);
        }
    }

    #[test]
    fn blocks_hand_out_whole_lines_whatever_the_reads() {
        /// Gives at most 3 bytes a read, and an interruption before each.
        struct Trickle<'a>(&'a [u8], bool);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.1 = !self.1;
                if self.1 {
                    return Err(io::ErrorKind::Interrupted.into());
                }
                let n = buf.len().min(3).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        for input in [
            &b""[..],
            b"a\n",
            b"ab\ncd",
            b"a longer line than the buffer\nx\n\n",
        ] {
            let mut blocks = Blocks::new(4, 100);
            let mut reader = Trickle(input, false);
            let mut got = Vec::new();
            while let Some(block) = blocks.next(&mut reader).unwrap() {
                assert!(!block.is_empty());
                let whole = block.ends_with(b"\n") || got.len() + block.len() == input.len();
                assert!(whole, "{block:?}");
                got.extend_from_slice(block);
            }
            assert_eq!(got, input);
        }
    }

    /// A line longer than the longest reaches the parser longer than it
    /// (cut to the longest and 2 bytes once it outgrows the buffer), the
    /// lines around it whole, and the buffer stays within a few times the
    /// longest line, however the input is read.
    #[test]
    fn long_lines_stay_too_long_and_the_buffer_small() {
        /// Gives at most `n` bytes a read.
        struct Pieces<'a>(&'a [u8], usize);
        impl Read for Pieces<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.1).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let longest = 10;
        let x = |n: usize| "x".repeat(n);
        let cases = [
            (format!("{}\n", x(10)), vec![x(10)]),
            (format!("{}\r\n", x(10)), vec![format!("{}\r", x(10))]),
            (format!("{}\n", x(11)), vec!["long".into()]),
            (
                format!("a\n{}\nb\n", x(1000)),
                vec!["a".into(), "long".into(), "b".into()],
            ),
            (format!("{}\nb", x(30)), vec!["long".into(), "b".into()]),
            (x(5000), vec!["long".into()]),
            (
                format!("{}\r\n\n", x(13)),
                vec!["long".into(), String::new()],
            ),
        ];
        for (input, expected) in &cases {
            for piece in [1, 3, 7, 64, 10_000] {
                let mut blocks = Blocks::new(4, longest);
                let mut reader = Pieces(input.as_bytes(), piece);
                let mut got = Vec::new();
                while let Some(block) = blocks.next(&mut reader).unwrap() {
                    let block = std::str::from_utf8(block).unwrap();
                    for line in block.split_inclusive('\n') {
                        let line = line.strip_suffix('\n').unwrap_or(line);
                        let content = line.strip_suffix('\r').unwrap_or(line);
                        assert!(line.len() <= 2 * (longest + 2), "{}", line.len());
                        got.push(match content.len() > longest {
                            true => "long".to_string(),
                            false => line.to_string(),
                        });
                    }
                    assert!(blocks.buffer.len() <= 4 * (longest + 2));
                }
                assert_eq!(&got, expected, "{input:?} in pieces of {piece}");
            }
        }
    }

    #[test]
    fn lines_keep_their_newlines() {
        let got: Vec<&[u8]> = lines(b"a\n\nbc\r\nd").collect();
        assert_eq!(got, [&b"a\n"[..], b"\n", b"bc\r\n", b"d"]);
        assert_eq!(lines(b"").count(), 0);
    }

    #[test]
    fn shares_cover_the_block_in_whole_lines() {
        let block = b"11\n22\n33\n44\n55\n66\n77\n";
        let mut shares: Vec<Share> = (0..3)
            .map(|_| Share {
                range: 0..0,
                first_line: 0,
                out: Vec::new(),
                summary: BatchSummary::default(),
            })
            .collect();
        split_into_shares(block, &mut shares, 10);
        let mut next = 0;
        let mut line = 10;
        for share in &shares {
            assert_eq!(share.range.start, next);
            assert!(share.range.end == block.len() || block[share.range.end - 1] == b'\n');
            assert_eq!(share.first_line, line);
            line += lines(&block[share.range.clone()]).count() as u64;
            next = share.range.end;
        }
        assert_eq!((next, line), (block.len(), 17));
    }
}
