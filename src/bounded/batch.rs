//! `batch --within W`: one bounded-suboptimal answer per line, with the
//! lower bound that proves it, over threads, with or without a file.
//!
//! Lines are read, numbered, split over threads and written back in order
//! by the same machinery as an exact batch ([`crate::io`]); only the answer
//! differs. A JSON line is the object `solve --within --json` prints. A CSV
//! record adds four columns to the usual seven, `length`, `lower_bound`,
//! `nodes` and `nodes_expanded`, and leaves `distance` empty unless the
//! bound meets the length.

use super::{answer_within, Guidance, Weight};
use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::io::{
    answer_lines, cores, read_line, write_answer, write_counted_moves, write_decimal, write_error,
    write_work_columns, Answer, AnswerLine, BatchFormat, BatchSummary, LineOutcome, LinesPerShare,
    Nodes, TimedOut, CSV_HEADER,
};
use crate::pattern::{SolveError, SolveOptions};
use crate::puzzle::board::Board;
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use std::io::{self, Read, Write};
use std::time::Duration;

/// The CSV header of a bounded batch: the usual columns, then the length
/// of the moves, the lower bound on the optimum, and the nodes the search
/// generated and expanded.
pub const WITHIN_CSV_HEADER: &str =
    "start,goal,solvable,distance,moves,reason,error,length,lower_bound,nodes,nodes_expanded\n";

/// How a bounded batch answers: toward `goal` unless a line names its own,
/// within `weight`, each line within `timeout`, guided by `db`'s pattern
/// tables where it has them (linear conflicts otherwise, or with no file).
pub struct WithinBatch<'a, B> {
    /// The database whose tables guide the search, if any.
    pub db: Option<&'a Database<B>>,
    /// The board's shape, which every line must have.
    pub shape: Shape,
    /// The goal of lines that name none.
    pub goal: Board,
    /// W: how much longer than the optimum an answer may be.
    pub weight: Weight,
    /// How long one line's search may take.
    pub timeout: Option<Duration>,
}

/// The threads a batch of bounded searches runs on when asked for
/// `asked`: at most one a core. Each search may hold 1.5 GB in its
/// weighted A* and about 1 GB in a round's beams, and the searches only
/// compute, so threads past the cores would multiply the memory (8 on 2
/// cores held 8.8 GB) and answer no faster.
pub fn search_threads(asked: usize) -> usize {
    asked.clamp(1, cores())
}

impl<B: AsRef<[u8]> + Sync + Send> WithinBatch<'_, B> {
    /// Answers every line of `input`, in input order, on `threads` threads
    /// but at most one a core ([`search_threads`]), a line a thread at a
    /// time. Fails before reading a line when the file cannot guide a
    /// search toward the default goal (one of another size); stops at the
    /// first read or write error.
    pub fn run(
        &self,
        format: BatchFormat,
        threads: usize,
        input: impl Read,
        output: impl Write + Send,
    ) -> io::Result<BatchSummary> {
        if let Some(db) = self.db {
            let invalid =
                |e: AnswerError| io::Error::new(io::ErrorKind::InvalidInput, e.to_string());
            Guidance::for_database(db, &self.goal).map_err(invalid)?;
        }
        let make = || Line {
            batch: self,
            format,
        };
        let header = match format {
            BatchFormat::Csv => WITHIN_CSV_HEADER,
            _ => CSV_HEADER,
        };
        answer_lines(
            make,
            LinesPerShare::One,
            (format, header),
            search_threads(threads),
            input,
            output,
        )
    }
}

/// One thread's answerer.
struct Line<'b, 'a, B> {
    batch: &'b WithinBatch<'a, B>,
    format: BatchFormat,
}

impl<B: AsRef<[u8]>> AnswerLine for Line<'_, '_, B> {
    fn answer_line(&mut self, number: u64, line: &[u8], out: &mut Vec<u8>) -> LineOutcome {
        let format = self.format;
        let (outcome, proved) = match read_line(number, line, self.batch.shape) {
            Ok((text, start, goal)) => {
                let goal = goal.unwrap_or(self.batch.goal);
                self.answer(number, text, (&start, &goal), out)
            }
            Err(bad) => {
                write_error(format, out, number, &bad.input, &bad.error);
                (LineOutcome::Error, None)
            }
        };
        if format == BatchFormat::Csv && !matches!(outcome, LineOutcome::Solved(_)) {
            // No length; the bound and the work only where a search ran out
            // of time.
            out.extend_from_slice(b",,");
            if let Some((bound, _)) = proved {
                write_decimal(out, bound as usize);
            }
            write_work_columns(out, proved.map(|(_, work)| work));
        }
        out.push(b'\n');
        outcome
    }
}

impl<B: AsRef<[u8]>> Line<'_, '_, B> {
    /// Appends the line's record, but for a CSV record's four last columns
    /// where it is not solved; returns how it ended and, for a search that
    /// ran out of time, the lower bound it proved and its work (those
    /// columns).
    fn answer(
        &self,
        number: u64,
        text: &str,
        (start, goal): (&Board, &Board),
        out: &mut Vec<u8>,
    ) -> (LineOutcome, Option<(u32, Nodes)>) {
        let batch = self.batch;
        let guidance = match Guidance::for_file(batch.db, goal) {
            Ok(guidance) => guidance,
            Err(e) => {
                write_error(self.format, out, number, text, &e.to_string());
                return (LineOutcome::Error, None);
            }
        };
        let options = SolveOptions::lasting(batch.timeout);
        match answer_within(start, goal, batch.weight, &guidance, &options) {
            Ok(answer) => {
                write_bounded(self.format, out, &answer);
                let length = answer.moves.as_ref().map_or(0, Vec::len) as u32;
                (LineOutcome::Solved(length), None)
            }
            Err(SolveError::Unsolvable(why)) => {
                write_answer(self.format, Metric::SingleTile, out, start, goal, Err(&why));
                (LineOutcome::Unsolvable, None)
            }
            Err(e) => {
                let timeout = batch.timeout.unwrap_or_default();
                if let Some(stop) = e.stopped().and_then(|s| TimedOut::of(timeout, s)) {
                    // Its record gives the bound in JSON, as every timed-out line's does.
                    let outcome = stop.write(self.format, out, number, text, start, goal);
                    return (outcome, Some((stop.bound, stop.work())));
                }
                write_error(self.format, out, number, text, &e.to_string());
                (LineOutcome::Error, None)
            }
        }
    }
}

/// Appends a solved line's record, without a newline.
fn write_bounded(format: BatchFormat, out: &mut Vec<u8>, answer: &Answer) {
    let moves = answer.moves.as_deref().unwrap_or_default();
    match format {
        BatchFormat::Jsonl => {
            serde_json::to_writer(&mut *out, answer).expect("an answer serializes to memory")
        }
        BatchFormat::Moves => write_counted_moves(out, Metric::SingleTile, moves),
        BatchFormat::Csv => {
            answer.start.write_to(out);
            out.push(b',');
            answer.goal.write_to(out);
            out.extend_from_slice(b",true,");
            if let Some(distance) = answer.distance {
                write_decimal(out, distance);
            }
            out.push(b',');
            write_counted_moves(out, Metric::SingleTile, moves);
            out.extend_from_slice(b",,,");
            write_decimal(out, moves.len());
            out.push(b',');
            let bound = answer.within.as_ref().map_or(0, |w| w.lower_bound);
            write_decimal(out, bound as usize);
            write_work_columns(out, answer.nodes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_batches_run_at_most_one_thread_a_core() {
        let (cores, most) = (cores(), crate::io::most_threads());
        assert_eq!(search_threads(1), 1);
        assert_eq!(search_threads(0), 1);
        assert_eq!(search_threads(cores), cores);
        assert_eq!(search_threads(most), cores);
        assert_eq!(search_threads(usize::MAX), cores);
    }
}
