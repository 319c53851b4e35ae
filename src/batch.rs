//! Answering one line of a batch.
//!
//! A line holds `START` or `START GOAL`. The two boards are separated by a
//! tab or a `;`, or by spaces when the line has exactly two space-separated
//! words (so `867254301 123456780` and `867/254/301 123/456/780` are pairs,
//! while `8 6 7 2 5 4 3 0 1` is one board). A line with no goal uses the
//! batch's goal. A trailing `\r` is ignored (Windows line endings).

use crate::answer::{write_json, write_json_error};
use crate::board::Move;
use crate::database::{Database, LookupError, Target};
use crate::parse::parse_board;

/// How one line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// Solved, with the distance.
    Solved(u32),
    /// A valid pair that has no solution.
    Unsolvable,
    /// The line could not be answered; its output is an error object.
    Error,
}

/// Reusable state for answering lines without allocating per line.
pub struct LineAnswerer<'a, B> {
    db: &'a Database<B>,
    default: Target<'a>,
    moves: Vec<Move>,
}

impl<'a, B: AsRef<[u8]>> LineAnswerer<'a, B> {
    /// Answers lines toward `default` unless a line names its own goal.
    pub fn new(db: &'a Database<B>, default: Target<'a>) -> Self {
        LineAnswerer {
            db,
            default,
            moves: Vec::with_capacity(128),
        }
    }

    /// Appends the JSON answer to line number `number` (1-based), and a
    /// newline, to `out`.
    pub fn answer(&mut self, number: u64, line: &[u8], out: &mut Vec<u8>) -> LineOutcome {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let outcome = match std::str::from_utf8(line) {
            Ok(text) => self.answer_text(number, text, out),
            Err(e) => {
                let input = String::from_utf8_lossy(line);
                let msg = format!("the line is not valid UTF-8 (byte {})", e.valid_up_to() + 1);
                write_json_error(out, number, &input, &msg);
                LineOutcome::Error
            }
        };
        out.push(b'\n');
        outcome
    }

    fn answer_text(&mut self, number: u64, text: &str, out: &mut Vec<u8>) -> LineOutcome {
        let shape = self.db.shape();
        let (start_text, goal_text) = split_pair(text);
        let error = |out: &mut Vec<u8>, msg: String| {
            write_json_error(out, number, text, &msg);
            LineOutcome::Error
        };
        if text.trim().is_empty() {
            return error(out, "the line is empty".into());
        }
        let start = match parse_board(start_text, shape) {
            Ok(b) => b,
            Err(e) => return error(out, format!("bad start board: {e}")),
        };
        let custom;
        let target = match goal_text {
            None => &self.default,
            Some(g) => {
                let goal = match parse_board(g, shape) {
                    Ok(b) => b,
                    Err(e) => return error(out, format!("bad goal board: {e}")),
                };
                custom = match self.db.target(&goal) {
                    Ok(t) => t,
                    Err(e) => return error(out, e.to_string()),
                };
                &custom
            }
        };
        self.moves.clear();
        match target.solve_into(&start, &mut self.moves) {
            Ok(distance) => {
                write_json(out, &start, target.goal(), Ok(&self.moves));
                LineOutcome::Solved(distance)
            }
            Err(LookupError::Unsolvable(why)) => {
                write_json(out, &start, target.goal(), Err(&why));
                LineOutcome::Unsolvable
            }
            Err(e) => error(out, e.to_string()),
        }
    }
}

/// Splits a line into its start and, if present, its goal.
pub fn split_pair(text: &str) -> (&str, Option<&str>) {
    if let Some((a, b)) = text.split_once(['\t', ';']) {
        return (a, Some(b));
    }
    let mut words = text.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(a), Some(b), None) => (a, Some(b)),
        _ => (text, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_and_single_boards() {
        assert_eq!(split_pair("867254301"), ("867254301", None));
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
}
