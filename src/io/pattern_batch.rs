//! Answering a batch from a pattern database: the same lines and the same
//! answers as [`crate::io::run_batch`], each line solved by IDA*.
//!
//! A search takes from microseconds to seconds, so lines, not blocks of
//! bytes, are the unit of work: up to [`LINES_PER_ROUND`] lines are read,
//! solved in parallel (one search per thread), and their answers written in
//! input order before more are read. Memory stays bounded whatever the
//! input's size. JSON answers carry one more field than the complete
//! tables': `"nodes"`, the positions the search generated.

use crate::io::answer::{write_decimal, write_json};
use crate::io::batch::{split_pair, write_answer, write_error, BatchFormat, BatchSummary};
use crate::io::batch::{CSV_HEADER, ECHO_LIMIT};
use crate::pattern::{PatternDatabase, SolveError, SolveOptions};
use crate::puzzle::board::Board;
use crate::puzzle::parse::{excerpt, parse_board};
use rayon::prelude::*;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// Lines read and solved per round.
pub const LINES_PER_ROUND: usize = 256;

/// How one line went, and its answer.
enum Answered {
    Solved(Vec<u8>),
    Unsolvable(Vec<u8>),
    Error(Vec<u8>),
}

/// Answers every line of `input` toward `default` (unless a line names its
/// goal) and writes the answers to `output` in input order, solving up to
/// `threads` lines at a time. A line whose search outlasts `timeout` gets
/// an error answer. Stops at the first read or write error.
pub fn run_pattern_batch<B: AsRef<[u8]> + Sync + Send>(
    db: &PatternDatabase<B>,
    default: &Board,
    format: BatchFormat,
    threads: usize,
    timeout: Option<Duration>,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<BatchSummary> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| io::Error::other(e.to_string()))?;
    if format == BatchFormat::Csv {
        output.write_all(CSV_HEADER.as_bytes())?;
    }
    let mut summary = BatchSummary::default();
    let mut lines = input.split(b'\n');
    let mut round: Vec<(u64, Vec<u8>)> = Vec::with_capacity(LINES_PER_ROUND);
    loop {
        round.clear();
        for line in lines.by_ref() {
            summary.lines += 1;
            round.push((summary.lines, line?));
            if round.len() == LINES_PER_ROUND {
                break;
            }
        }
        if round.is_empty() {
            break;
        }
        let answers: Vec<Answered> = pool.install(|| {
            round
                .par_iter()
                .with_max_len(1)
                .map(|(number, line)| answer_line(db, default, format, timeout, *number, line))
                .collect()
        });
        for answer in answers {
            let bytes = match answer {
                Answered::Solved(b) => {
                    summary.solved += 1;
                    b
                }
                Answered::Unsolvable(b) => {
                    summary.unsolvable += 1;
                    b
                }
                Answered::Error(b) => {
                    summary.errors += 1;
                    b
                }
            };
            output.write_all(&bytes)?;
        }
    }
    output.flush()?;
    Ok(summary)
}

fn answer_line<B: AsRef<[u8]>>(
    db: &PatternDatabase<B>,
    default: &Board,
    format: BatchFormat,
    timeout: Option<Duration>,
    number: u64,
    line: &[u8],
) -> Answered {
    let mut out = Vec::with_capacity(160);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = match number {
        1 => line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line),
        _ => line,
    };
    let error = |out: &mut Vec<u8>, input: &str, message: &str| {
        write_error(format, out, number, &excerpt(input, ECHO_LIMIT), message);
        out.push(b'\n');
    };
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            let input = String::from_utf8_lossy(line);
            let msg = format!("the line is not valid UTF-8 (byte {})", e.valid_up_to() + 1);
            error(&mut out, &input, &msg);
            return Answered::Error(out);
        }
    };
    if text.trim().is_empty() {
        error(&mut out, text, "the line is empty");
        return Answered::Error(out);
    }
    let shape = db.shape();
    let (start_text, goal_text) = split_pair(text);
    let start = match parse_board(start_text, shape) {
        Ok(b) => b,
        Err(e) => {
            error(&mut out, text, &format!("bad start board: {e}"));
            return Answered::Error(out);
        }
    };
    let goal = match goal_text.map(|g| parse_board(g, shape)) {
        None => *default,
        Some(Ok(goal)) => goal,
        Some(Err(e)) => {
            error(&mut out, text, &format!("bad goal board: {e}"));
            return Answered::Error(out);
        }
    };
    let options = SolveOptions {
        deadline: timeout.map(|t| Instant::now() + t),
        ..SolveOptions::default()
    };
    match db.solve(&start, &goal, &options) {
        Ok(solution) => {
            write_answer(format, &mut out, &start, &goal, Ok(&solution.moves));
            if format == BatchFormat::Jsonl {
                with_nodes(&mut out, solution.nodes);
            }
            out.push(b'\n');
            Answered::Solved(out)
        }
        Err(SolveError::Unsolvable(why)) => {
            write_answer(format, &mut out, &start, &goal, Err(&why));
            out.push(b'\n');
            Answered::Unsolvable(out)
        }
        Err(e) => {
            error(&mut out, text, &e.to_string());
            Answered::Error(out)
        }
    }
}

/// Adds `"nodes":N` to the JSON object that ends `out`.
pub fn with_nodes(out: &mut Vec<u8>, nodes: u64) {
    debug_assert_eq!(out.last(), Some(&b'}'));
    out.pop();
    out.extend_from_slice(b",\"nodes\":");
    write_decimal(out, nodes as usize);
    out.push(b'}');
}

/// The JSON answer of one solved pair with its node count, as `solve
/// --json` prints it for a pattern database (without a newline).
pub fn write_json_with_nodes(
    out: &mut Vec<u8>,
    start: &Board,
    goal: &Board,
    solution: &crate::pattern::Solution,
) {
    write_json(out, start, goal, Ok(&solution.moves));
    with_nodes(out, solution.nodes);
}
