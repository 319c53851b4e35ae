//! Answers as JSON objects, written straight into a byte buffer.
//!
//! `solve --json`, `distance --json` and every line of `batch` print the same
//! object:
//!
//! ```json
//! {"start":"867254301","goal":"123456780","solvable":true,"distance":31,"moves":"ULD…"}
//! {"start":"213456780","goal":"123456780","solvable":false,"distance":null,"moves":null,"reason":"…"}
//! ```
//!
//! Board texts hold only digits and spaces, so they need no escaping; free
//! texts (reasons, error messages, echoed input) are escaped.
//!
//! Under the multi-tile metric `distance` counts slides, `moves` writes
//! them as `U3 L R2`, and `single_tile_moves` spells them out one tile at a
//! time, for tools that replay single-tile strings:
//!
//! ```json
//! {"start":"…","goal":"…","solvable":true,"distance":3,"moves":"U3 L R2","single_tile_moves":"UUULRR"}
//! ```
//!
//! [`Answer`] is the same object as a value, for the faces that build one
//! (the page's API, Python); the batch writes its bytes straight from the
//! template below, and a property test holds the two equal.

use crate::pattern::Solution;
use crate::puzzle::board::{move_string, Board, Move};
use crate::puzzle::metric::{slide_notation, Metric};
use crate::puzzle::solvability::Unsolvable;
use serde::{Serialize, Serializer};
use std::fmt::Write as _;
use std::io::Write as _;

/// The work of a search, in JSON `nodes` and `nodes_expanded`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nodes {
    /// Nodes generated, as the literature counts them: every child of every
    /// expanded node, the move back to its parent excluded.
    pub generated: u64,
    /// Nodes expanded: those whose children were generated.
    pub expanded: u64,
}

impl From<&Solution> for Nodes {
    fn from(solution: &Solution) -> Nodes {
        Nodes {
            generated: solution.nodes,
            expanded: solution.expanded,
        }
    }
}

/// What a bounded-suboptimal answer (`solve --within W`) proves: its
/// moves are at most W times the optimum, which is at least `lower_bound`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WithinBound {
    /// W, in thousandths (1200 for 1.2).
    pub weight_thousandths: u32,
    /// No solution is shorter.
    pub lower_bound: u32,
    /// The heuristic the search was guided by.
    pub heuristic: String,
}

impl WithinBound {
    /// W as a number.
    pub fn weight(&self) -> f64 {
        self.weight_thousandths as f64 / 1000.0
    }
}

/// One answer for a (start, goal) pair, as `solve --json`, `distance
/// --json`, each line of `batch --format json` and the page's
/// `/api/solve` give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The start.
    pub start: Board,
    /// The goal.
    pub goal: Board,
    /// Whether the start can reach the goal.
    pub solvable: bool,
    /// The fewest moves, counted in `metric`; none when unsolvable.
    pub distance: Option<usize>,
    /// One shortest sequence of the blank's moves, one tile at a time
    /// (under the multi-tile metric its slides are its runs); none when
    /// unsolvable.
    pub moves: Option<Vec<Move>>,
    /// Why the start cannot reach the goal; only when unsolvable.
    pub reason: Option<String>,
    /// Nodes searched, where a search ran (pattern databases).
    pub nodes: Option<Nodes>,
    /// How `distance` counts and `moves` are written.
    pub metric: Metric,
    /// For a bounded-suboptimal answer, what it proves; `distance` is then
    /// known only when the bound meets the length.
    pub within: Option<WithinBound>,
}

/// The fields in the order the byte template writes them; the multi-tile
/// metric adds `single_tile_moves`.
impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("start", &self.start.to_string())?;
        map.serialize_entry("goal", &self.goal.to_string())?;
        map.serialize_entry("solvable", &self.solvable)?;
        map.serialize_entry("distance", &self.distance)?;
        let moves = self.moves.as_deref();
        map.serialize_entry("moves", &moves.map(|m| self.metric.notation(m)))?;
        if let (Metric::MultiTile, Some(moves)) = (self.metric, moves) {
            map.serialize_entry("single_tile_moves", &move_string(moves))?;
        }
        if let Some(reason) = &self.reason {
            map.serialize_entry("reason", reason)?;
        }
        if let (Some(within), Some(moves)) = (&self.within, moves) {
            map.serialize_entry("length", &moves.len())?;
            map.serialize_entry("lower_bound", &within.lower_bound)?;
            map.serialize_entry("within", &within.weight())?;
            map.serialize_entry("heuristic", &within.heuristic)?;
        }
        if let Some(nodes) = self.nodes {
            map.serialize_entry("nodes", &nodes.generated)?;
            map.serialize_entry("nodes_expanded", &nodes.expanded)?;
        }
        map.end()
    }
}

impl Answer {
    /// The answer for (start, goal): `outcome` is the moves, or why there
    /// are none; `nodes` the nodes searched, where a search ran.
    pub fn new(
        start: Board,
        goal: Board,
        outcome: Result<Vec<Move>, &Unsolvable>,
        nodes: Option<Nodes>,
    ) -> Answer {
        let (moves, reason) = match outcome {
            Ok(moves) => (Some(moves), None),
            Err(why) => (None, Some(why.to_string())),
        };
        Answer {
            start,
            goal,
            solvable: moves.is_some(),
            distance: moves.as_ref().map(Vec::len),
            moves,
            reason,
            nodes,
            metric: Metric::SingleTile,
            within: None,
        }
    }

    /// The same answer as a bounded-suboptimal one: its moves are not
    /// known to be shortest, so `distance` is kept only where `within`'s
    /// lower bound meets their length.
    pub fn bounded(self, within: WithinBound) -> Answer {
        let proved = self
            .moves
            .as_ref()
            .is_some_and(|m| m.len() == within.lower_bound as usize);
        Answer {
            distance: self.distance.filter(|_| proved),
            within: Some(within),
            ..self
        }
    }

    /// The same answer, its moves counted and written in `metric` (they
    /// must be optimal in it, so that its slides are their runs).
    pub fn counted_in(self, metric: Metric) -> Answer {
        Answer {
            distance: self.moves.as_deref().map(|m| metric.length(m)),
            metric,
            ..self
        }
    }
}

/// Appends the JSON answer for (start, goal) to `out`, without a newline.
/// `outcome` is the move sequence (single-tile moves, optimal in
/// `metric`), or why there is none.
pub fn write_json(
    out: &mut Vec<u8>,
    metric: Metric,
    start: &Board,
    goal: &Board,
    outcome: Result<&[Move], &Unsolvable>,
) {
    write_fields(&JSON, out, metric, start, goal, outcome);
}

/// The text around an answer's fields in one output syntax: JSON and CSV
/// hold the same fields in the same order, so one writer serves both.
pub(crate) struct Syntax {
    /// Before the start board.
    open: &'static [u8],
    /// Between the start board and the goal board.
    between_boards: &'static [u8],
    /// After the goal, before the distance of a solvable pair.
    solvable: &'static [u8],
    /// Between the distance and the moves.
    before_moves: &'static [u8],
    /// After the moves.
    after_moves: &'static [u8],
    /// After the goal, before the reason of an unsolvable pair.
    unsolvable: &'static [u8],
    /// After the goal, before the reason of a solvable pair whose search
    /// stopped short (a batch line past `--timeout`).
    stopped: &'static [u8],
    /// After the reason.
    after_reason: &'static [u8],
    /// Whether the reason is escaped for a quoted CSV field (else JSON).
    csv: bool,
}

pub(crate) const JSON: Syntax = Syntax {
    open: b"{\"start\":\"",
    between_boards: b"\",\"goal\":\"",
    solvable: b"\",\"solvable\":true,\"distance\":",
    before_moves: b",\"moves\":\"",
    after_moves: b"\"}",
    unsolvable: b"\",\"solvable\":false,\"distance\":null,\"moves\":null,\"reason\":\"",
    stopped: b"\",\"solvable\":true,\"distance\":null,\"moves\":null,\"reason\":\"",
    after_reason: b"\"}",
    csv: false,
};

/// A CSV record, `start,goal,solvable,distance,moves,reason,error`, with
/// the last field empty.
pub(crate) const CSV: Syntax = Syntax {
    open: b"",
    between_boards: b",",
    solvable: b",true,",
    before_moves: b",",
    after_moves: b",,",
    unsolvable: b",false,,,\"",
    stopped: b",true,,,\"",
    after_reason: b"\",",
    csv: true,
};

/// Appends the answer for (start, goal) in `syntax`, without a newline.
pub(crate) fn write_fields(
    syntax: &Syntax,
    out: &mut Vec<u8>,
    metric: Metric,
    start: &Board,
    goal: &Board,
    outcome: Result<&[Move], &Unsolvable>,
) {
    write_boards(syntax, out, start, goal);
    match outcome {
        Ok(moves) => {
            out.extend_from_slice(syntax.solvable);
            write_decimal(out, metric.length(moves));
            out.extend_from_slice(syntax.before_moves);
            write_counted_moves(out, metric, moves);
            if metric == Metric::MultiTile && !syntax.csv {
                out.extend_from_slice(b"\",\"single_tile_moves\":\"");
                write_moves(out, moves);
            }
            out.extend_from_slice(syntax.after_moves);
        }
        Err(reason) => write_reason(syntax, out, syntax.unsolvable, reason),
    }
}

/// Appends the record for a solvable (start, goal) whose search stopped
/// before it found a solution: both boards, no distance, and `reason`.
pub(crate) fn write_stopped(
    syntax: &Syntax,
    out: &mut Vec<u8>,
    start: &Board,
    goal: &Board,
    reason: &dyn std::fmt::Display,
) {
    write_boards(syntax, out, start, goal);
    write_reason(syntax, out, syntax.stopped, reason);
}

/// Appends the opening of a record: its start and goal boards.
fn write_boards(syntax: &Syntax, out: &mut Vec<u8>, start: &Board, goal: &Board) {
    out.extend_from_slice(syntax.open);
    start.write_to(out);
    out.extend_from_slice(syntax.between_boards);
    goal.write_to(out);
}

/// Appends `before`, then `reason` escaped for the syntax, then the end of
/// the record.
fn write_reason(syntax: &Syntax, out: &mut Vec<u8>, before: &[u8], reason: &dyn std::fmt::Display) {
    out.extend_from_slice(before);
    // Formatted straight into the buffer: no allocation per line.
    let mut escaper = if syntax.csv {
        TextEscaper::for_csv(out)
    } else {
        TextEscaper::for_json(out)
    };
    let _ = write!(escaper, "{reason}");
    out.extend_from_slice(syntax.after_reason);
}

/// Appends `{"line":N,"input":"…","error":"…"}` to `out`, without a newline.
pub fn write_json_error(out: &mut Vec<u8>, line: u64, input: &str, error: &str) {
    out.extend_from_slice(b"{\"line\":");
    write_decimal(out, line as usize);
    out.extend_from_slice(b",\"input\":");
    write_json_string(out, input);
    out.extend_from_slice(b",\"error\":");
    write_json_string(out, error);
    out.push(b'}');
}

/// Writes formatted text into a byte buffer, escaped for the inside of a
/// JSON string or of a quoted CSV field, without allocating.
pub struct TextEscaper<'a> {
    out: &'a mut Vec<u8>,
    csv: bool,
}

impl<'a> TextEscaper<'a> {
    /// Escapes for a JSON string: quotes, backslashes and control characters.
    pub fn for_json(out: &'a mut Vec<u8>) -> Self {
        TextEscaper { out, csv: false }
    }

    /// Escapes for a quoted CSV field: quotes are doubled, and the
    /// characters an error escapes when it names one (controls but the tab,
    /// bidirectional marks) written as it writes them (`\u{1b}`), so that an
    /// echoed line cannot drive, or reorder, the terminal that shows it.
    pub fn for_csv(out: &'a mut Vec<u8>) -> Self {
        TextEscaper { out, csv: true }
    }
}

impl std::fmt::Write for TextEscaper<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for c in s.chars() {
            match c {
                '"' if self.csv => self.out.extend_from_slice(b"\"\""),
                // What a message escapes when it names a character (`'\u{1b}'`,
                // a bidirectional control too), but the tab and the quotes
                // and backslashes that are text here.
                c if self.csv && !matches!(c, '\t' | '\\' | '\'') && c.escape_debug().len() > 1 => {
                    let _ = write!(self.out, "{}", c.escape_debug());
                }
                _ if self.csv => self
                    .out
                    .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                '"' => self.out.extend_from_slice(b"\\\""),
                '\\' => self.out.extend_from_slice(b"\\\\"),
                '\n' => self.out.extend_from_slice(b"\\n"),
                '\r' => self.out.extend_from_slice(b"\\r"),
                '\t' => self.out.extend_from_slice(b"\\t"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self
                    .out
                    .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            }
        }
        Ok(())
    }
}

/// Appends `text` as a quoted CSV field, escaped as
/// [`TextEscaper::for_csv`] escapes it, and led by `'` where it would start
/// a spreadsheet formula (`=`, `+`, `-`, `@` or a tab first), so that
/// opening the file in a spreadsheet runs nothing a line held.
pub(crate) fn write_csv_text(out: &mut Vec<u8>, text: &dyn std::fmt::Display) {
    let start = out.len();
    out.push(b'"');
    let _ = write!(TextEscaper::for_csv(out), "{text}");
    if matches!(out.get(start + 1), Some(b'=' | b'+' | b'-' | b'@' | b'\t')) {
        out.insert(start + 1, b'\'');
    }
    out.push(b'"');
}

/// Appends `text` as a JSON string literal, escaped.
pub fn write_json_string(out: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(out, text).expect("writing to a Vec cannot fail");
}

/// Appends moves as their letters (`ULDR`).
pub fn write_moves(out: &mut Vec<u8>, moves: &[Move]) {
    out.extend(moves.iter().map(|m| m.letter() as u8));
}

/// Appends moves as `metric` writes them: `ULDR`, or slides `U3 L R2`.
pub fn write_counted_moves(out: &mut Vec<u8>, metric: Metric, moves: &[Move]) {
    match metric {
        Metric::SingleTile => write_moves(out, moves),
        Metric::MultiTile => out.extend_from_slice(slide_notation(moves).as_bytes()),
    }
}

/// Appends a number in decimal.
pub fn write_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse::board3;
    use crate::puzzle::solvability;

    #[test]
    fn answers_are_valid_json_with_the_documented_fields() {
        let start = board3("123468750");
        let goal = board3("123456780");
        let moves = [Move::Up, Move::Left, Move::Down, Move::Right];
        let mut out = Vec::new();
        write_json(&mut out, Metric::SingleTile, &start, &goal, Ok(&moves));
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"start":"123468750","goal":"123456780","solvable":true,"distance":4,"moves":"ULDR"})
        );

        let swapped = board3("213456780");
        let why = solvability::check(&swapped, &goal).unwrap_err();
        out.clear();
        write_json(&mut out, Metric::SingleTile, &swapped, &goal, Err(&why));
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["solvable"], false);
        assert!(v["distance"].is_null() && v["moves"].is_null());
        assert_eq!(v["reason"], why.to_string());
    }

    #[test]
    fn csv_records_have_the_headers_seven_fields() {
        let goal = board3("123456780");
        let mut out = Vec::new();
        write_fields(
            &CSV,
            &mut out,
            Metric::SingleTile,
            &board3("123456708"),
            &goal,
            Ok(&[Move::Right]),
        );
        assert_eq!(out, b"123456708,123456780,true,1,R,,");
        let swapped = board3("213456780");
        let why = solvability::check(&swapped, &goal).unwrap_err();
        out.clear();
        write_fields(
            &CSV,
            &mut out,
            Metric::SingleTile,
            &swapped,
            &goal,
            Err(&why),
        );
        let expected = format!(
            "213456780,123456780,false,,,\"{}\",",
            why.to_string().replace('"', "\"\"")
        );
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    /// A field that a spreadsheet would read as a formula gets a `'`
    /// first; others, quotes doubled, are as given.
    #[test]
    fn csv_text_starts_no_formula() {
        let field = |text: &str| {
            let mut out = Vec::new();
            write_csv_text(&mut out, &text);
            String::from_utf8(out).unwrap()
        };
        for formula in ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1"] {
            assert_eq!(field(formula), format!("\"'{formula}\""));
        }
        assert_eq!(field("say \"=1\""), "\"say \"\"=1\"\"\"");
        assert_eq!(field("1=1"), "\"1=1\"");
        assert_eq!(field(""), "\"\"");
        assert_eq!(field("\"=1"), "\"\"\"=1\"");
    }

    #[test]
    fn errors_escape_what_they_echo() {
        let mut out = Vec::new();
        write_json_error(&mut out, 7, "a\"b\\c\u{1}", "bad");
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"line":7,"input":"a\"b\\c\u{1}","error":"bad"})
        );
    }

    #[test]
    fn the_escaper_agrees_with_serde_json() {
        let text = "a\"b\\c\n\t\u{1}é✓";
        let mut out = vec![b'"'];
        write!(TextEscaper::for_json(&mut out), "{text}").unwrap();
        out.push(b'"');
        assert_eq!(serde_json::from_slice::<String>(&out).unwrap(), text);
        let mut csv = Vec::new();
        write!(TextEscaper::for_csv(&mut csv), "say \"hi\"").unwrap();
        assert_eq!(csv, b"say \"\"hi\"\"");
        let mut csv = Vec::new();
        write!(
            TextEscaper::for_csv(&mut csv),
            "a\x1b[31mb\tc\u{9b}d\u{202e}é\\'"
        )
        .unwrap();
        assert_eq!(csv, "a\\u{1b}[31mb\tc\\u{9b}d\\u{202e}é\\'".as_bytes());
    }

    proptest::proptest! {
        /// The byte template (and `with_nodes`) writes exactly what serde
        /// writes for the typed answer: the batch's speed costs nothing in
        /// the contract.
        #[test]
        fn the_template_writes_serdes_json(
            rows in 2usize..=4,
            cols in 2usize..=4,
            seeds in proptest::collection::vec(proptest::num::u64::ANY, 2),
            letters in "[UDLR]{0,40}",
            nodes in proptest::option::of((proptest::num::u64::ANY, proptest::num::u64::ANY)),
            multi_tile in proptest::bool::ANY,
        ) {
            let metric = if multi_tile { Metric::MultiTile } else { Metric::SingleTile };
            use rand::{seq::SliceRandom, SeedableRng};
            let shape = crate::Shape::new(rows, cols).unwrap();
            let board = |seed: u64| {
                let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
                cells.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
                Board::new(shape, &cells).unwrap()
            };
            let (start, goal) = (board(seeds[0]), board(seeds[1]));
            let moves: Vec<Move> = letters
                .chars()
                .map(|c| Move::from_letter(c).unwrap())
                .collect();
            // An unsolvable pair answers with its real reason.
            let why = solvability::check(&start, &goal).err();
            let outcome = match &why {
                None => Ok(moves.as_slice()),
                Some(why) => Err(why),
            };
            let mut line = Vec::new();
            write_json(&mut line, metric, &start, &goal, outcome);
            let nodes = nodes.map(|(generated, expanded)| Nodes { generated, expanded });
            if let Some(nodes) = nodes {
                crate::io::batch::with_nodes(&mut line, nodes);
            }
            let answer = Answer::new(start, goal, outcome.map(<[Move]>::to_vec), nodes)
                .counted_in(metric);
            proptest::prop_assert_eq!(
                String::from_utf8(line).unwrap(),
                serde_json::to_string(&answer).unwrap()
            );
        }
    }

    #[test]
    fn decimals() {
        for n in [0, 7, 10, 31, 1_000_000, usize::MAX] {
            let mut out = Vec::new();
            write_decimal(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }
}
