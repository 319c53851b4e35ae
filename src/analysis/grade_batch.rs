//! Move lists graded by the line (`query check --batch`): a class's
//! answers, one `START<TAB>MOVES` a line, each graded as [`grade`] grades
//! one, in input order, on threads, with the reading and ordering of an
//! exact batch ([`crate::io`]). A JSON record is `check --json`'s object
//! with the moves as written beside it; every record of a CSV has the same
//! columns, whatever became of its line, for a spreadsheet.

use super::grade::{grade_in, read_steps_on, Graded};
use crate::db::database::Database;
use crate::io::{
    answer_lines, inner_carriage_return, line_text, write_answer, write_csv_text, write_decimal,
    write_error, write_json_string, AnswerLine, BatchFormat, BatchSummary, LineOutcome,
    LinesPerShare,
};
use crate::pattern::SolveOptions;
use crate::puzzle::board::Board;
use crate::puzzle::parse::parse_board;
use crate::puzzle::shape::Shape;
use std::io::{self, Read, Write};
use std::time::Duration;

/// The CSV header of graded lines: the pair, the moves as written, the
/// grading's fields (`away` as numbers between spaces), then `reason` for a
/// start that cannot reach its goal and `error` for a line not graded.
pub const GRADED_CSV_HEADER: &str = "start,goal,written,legal,illegal_move,reaches_goal,length,\
optimal,excess,end,remaining,away,reversed_reaches_goal,goal_reached_after,reason,error\n";

/// Commas between a CSV record's `start` and its `error`, for a line that
/// is not graded.
const BEFORE_ERROR: &[u8] = b",,,,,,,,,,,,,,,";

/// How a batch of move lists is graded: toward `goal` unless a line names
/// its own, each line's searches (on pattern tables) within `timeout`.
pub struct GradeBatch<'a, B> {
    /// The distances.
    pub db: &'a Database<B>,
    /// The goal of lines that name none.
    pub goal: Board,
    /// How long one line's grading may search, in all.
    pub timeout: Option<Duration>,
}

impl<B: AsRef<[u8]> + Sync + Send> GradeBatch<'_, B> {
    /// Grades every line of `input` into `output` in input order, in JSON
    /// lines (each `check --json`'s object) or CSV ([`GRADED_CSV_HEADER`]),
    /// on `threads` threads. Stops at the first read or write error.
    pub fn run(
        &self,
        format: BatchFormat,
        threads: usize,
        input: impl Read,
        output: impl Write + Send,
    ) -> io::Result<BatchSummary> {
        let lines_per_share = match self.db.complete() {
            Ok(_) => LinesPerShare::Many,
            Err(_) => LinesPerShare::One,
        };
        let make = || Line {
            batch: self,
            csv: format == BatchFormat::Csv,
        };
        let format = match format {
            BatchFormat::Csv => BatchFormat::Csv,
            _ => BatchFormat::Jsonl,
        };
        answer_lines(
            make,
            lines_per_share,
            (format, GRADED_CSV_HEADER),
            threads,
            input,
            output,
        )
    }
}

/// One thread's grader.
struct Line<'b, 'a, B> {
    batch: &'b GradeBatch<'a, B>,
    csv: bool,
}

impl<B: AsRef<[u8]>> AnswerLine for Line<'_, '_, B> {
    fn answer_line(&mut self, number: u64, line: &[u8], out: &mut Vec<u8>) -> LineOutcome {
        let shape = self.batch.db.shape();
        let read = line_text(number, line).and_then(|text| {
            inner_carriage_return(text)?;
            let (start, moves, goal) =
                submission(text, shape).map_err(|error| crate::io::BadLine {
                    input: text.to_string(),
                    error,
                })?;
            Ok((text, start, moves, goal))
        });
        let outcome = match read {
            Ok((text, start, written, goal)) => {
                let goal = goal.unwrap_or(self.batch.goal);
                self.grade(number, text, (&start, &goal), written, out)
            }
            Err(bad) => self.refuse(number, &bad.input, &bad.error, out),
        };
        out.push(b'\n');
        outcome
    }
}

impl<B: AsRef<[u8]>> Line<'_, '_, B> {
    /// Appends the record of a line read: graded, unsolvable, or why not.
    fn grade(
        &self,
        number: u64,
        text: &str,
        (start, goal): (&Board, &Board),
        written: &str,
        out: &mut Vec<u8>,
    ) -> LineOutcome {
        let db = self.batch.db;
        let steps = match read_steps_on(written, db.shape()) {
            Ok(steps) => steps,
            Err(e) => return self.refuse(number, text, &format!("bad moves: {e}"), out),
        };
        let options = SolveOptions::lasting(self.batch.timeout);
        let graded = grade_in(db, (start, goal), &steps, &options);
        match graded {
            Ok(graded) if self.csv => {
                write_graded_csv(out, &graded, written);
                LineOutcome::Solved(graded.length as u32)
            }
            Ok(graded) => {
                serde_json::to_writer(&mut *out, &graded).expect("a grading serializes to memory");
                with_written(out, written);
                LineOutcome::Solved(graded.length as u32)
            }
            Err(e) => match e.unsolvable() {
                Some(why) if self.csv => {
                    write_pair(out, start, goal, written);
                    out.extend_from_slice(&BEFORE_ERROR[3..]);
                    write_csv_text(out, why);
                    out.push(b',');
                    LineOutcome::Unsolvable
                }
                Some(why) => {
                    let format = BatchFormat::Jsonl;
                    write_answer(format, db.metric(), out, start, goal, Err(why));
                    with_written(out, written);
                    LineOutcome::Unsolvable
                }
                // A search past --timeout, or a goal with no table: the
                // line read, so a CSV row keeps its pair and moves.
                None if self.csv => {
                    write_pair(out, start, goal, written);
                    out.extend_from_slice(&BEFORE_ERROR[2..]);
                    let why = format_args!("line {number}: {}", not_graded(&e));
                    write_csv_text(out, &why);
                    LineOutcome::Error
                }
                None => self.refuse(number, text, &not_graded(&e), out),
            },
        }
    }

    /// Appends the record of a line not graded: the line as given, and why.
    fn refuse(&self, number: u64, input: &str, error: &str, out: &mut Vec<u8>) -> LineOutcome {
        match self.csv {
            true => {
                write_csv_text(out, &input);
                out.extend_from_slice(BEFORE_ERROR);
                write_csv_text(out, &format_args!("line {number}: {error}"));
            }
            false => write_error(BatchFormat::Jsonl, out, number, input, error),
        }
        LineOutcome::Error
    }
}

/// Why a line read was not graded: a search stopped, or no table serves
/// its goal.
fn not_graded(e: &crate::db::error::AnswerError) -> String {
    format!("{GRADING_NEEDS}: {e}")
}

/// Why a list could not be graded, before the reason: every face's words.
pub const GRADING_NEEDS: &str =
    "grading needs the distance of every position the moves pass through";

/// A line's start, its moves as written and the goal it names, if any:
/// `START<TAB>MOVES[<TAB>GOAL]` (or `;` between), or, with neither, the
/// start's word (or a word per tile) and then the moves, as `query check`
/// takes them on its command line.
fn submission(text: &str, shape: Shape) -> Result<(Board, &str, Option<Board>), String> {
    let board = |text: &str, what| {
        parse_board(text.trim(), shape).map_err(|e| format!("bad {what} board: {e}"))
    };
    if text.contains(['\t', ';']) {
        let mut fields: Vec<&str> = text.split(['\t', ';']).collect();
        // Empty cells after the moves, as a spreadsheet writes them, are none.
        while fields.len() > 2 && fields.last().is_some_and(|f| f.trim().is_empty()) {
            fields.pop();
        }
        let (start, moves, goal) = match fields[..] {
            [start, moves] => (start, moves, None),
            [start, moves, goal] => (start, moves, Some(goal)),
            _ => {
                let most =
                    "a line holds a start, its moves and at most a goal, each after a tab or `;`";
                return Err(most.to_string());
            }
        };
        // In the line's order: the start's mistake is said first.
        let start = board(start, "start")?;
        let goal = goal.map(|g| board(g, "goal")).transpose()?;
        return Ok((start, moves.trim(), goal));
    }
    let text = text.trim();
    let words = text.split_whitespace().count();
    // The start's words, then the moves: the start in one word, or a word a
    // tile.
    for n in [1, shape.cells()] {
        let start: Vec<&str> = text.split_whitespace().take(n).collect();
        if words > n {
            if let Ok(start) = parse_board(&start.join(" "), shape) {
                return Ok((start, rest_after(text, n), None));
            }
        }
    }
    board(text.split_whitespace().next().unwrap_or(""), "start")?;
    Err(
        "a line holds the start and then the moves (none: a tab after the start); separate \
         them with a tab or `;` where either is written with spaces"
            .to_string(),
    )
}

/// What follows the first `n` words of `text`.
fn rest_after(text: &str, n: usize) -> &str {
    let mut rest = text;
    for _ in 0..n {
        rest = rest.trim_start();
        rest = &rest[rest.find(char::is_whitespace).unwrap_or(rest.len())..];
    }
    rest.trim()
}

/// Adds `"written"`, the moves as the line gives them, to the JSON object
/// that ends `out`: its `moves` are those played, up to an illegal one.
fn with_written(out: &mut Vec<u8>, written: &str) {
    debug_assert_eq!(out.last(), Some(&b'}'));
    out.pop();
    out.extend_from_slice(b",\"written\":");
    write_json_string(out, written);
    out.push(b'}');
}

/// Appends a record's first three fields: the start, the goal and the
/// moves as written.
fn write_pair(out: &mut Vec<u8>, start: &Board, goal: &Board, written: &str) {
    start.write_to(out);
    out.push(b',');
    goal.write_to(out);
    out.push(b',');
    write_csv_text(out, &written);
}

/// Appends a graded line's CSV record, without a newline.
fn write_graded_csv(out: &mut Vec<u8>, g: &Graded, written: &str) {
    let yes_no = |b: bool| match b {
        true => &b"true"[..],
        false => b"false",
    };
    let number = |out: &mut Vec<u8>, n: Option<usize>| {
        out.push(b',');
        if let Some(n) = n {
            write_decimal(out, n);
        }
    };
    write_pair(out, &g.start, &g.goal, written);
    out.push(b',');
    out.extend_from_slice(yes_no(g.legal));
    number(out, g.illegal_move);
    out.push(b',');
    out.extend_from_slice(yes_no(g.reaches_goal));
    number(out, Some(g.length));
    number(out, Some(g.optimal as usize));
    number(out, g.excess.map(|e| e as usize));
    out.push(b',');
    g.end.write_to(out);
    number(out, Some(g.remaining as usize));
    out.push(b',');
    for (i, away) in g.away.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        write_decimal(out, *away);
    }
    out.push(b',');
    out.extend_from_slice(yes_no(g.reversed_reaches_goal));
    number(out, g.goal_reached_after);
    // No reason, no error.
    out.extend_from_slice(b",,");
}
