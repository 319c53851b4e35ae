//! Reading boards in every form people write them.
//!
//! | form | example |
//! |---|---|
//! | one character per cell | `867254301`, blank as `0`, `_` or `.` |
//! | rows separated by `/` | `867/254/301` |
//! | tiles separated by spaces or commas | `8 6 7 / 2 5 4 / 3 0 1`, `8,6,7,2,5,4,3,0,1` |
//! | rows on lines of their own, as `query solve --boards` prints them | `8 6 7⏎2 5 4⏎3 _ 1` |
//! | rows separated by spaces (boards of up to 10 cells) | `867 254 301` |
//! | JSON, nested rows or flat | `[[8,6,7],[2,5,4],[3,0,1]]`, `[8,6,7,2,5,4,3,0,1]` |
//!
//! Tiles above 9 need the separated or JSON forms.

use crate::puzzle::board::{Board, BoardError};
use crate::puzzle::shape::{Shape, MAX_CELLS};

/// Why a piece of text is not a board of the expected shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but whitespace.
    #[error("the board is empty")]
    Empty,
    /// Two commas with no tile between them (or a comma at either end).
    #[error("empty field at column {column}: a comma with no tile before it")]
    EmptyField {
        /// 1-based position of the comma in the text.
        column: usize,
    },
    /// A character that is neither a tile, a blank nor a separator.
    #[error("unexpected character {found:?} at column {column}")]
    UnexpectedChar {
        /// The character.
        found: char,
        /// 1-based position of the character in the text.
        column: usize,
    },
    /// Rows separated by `/` (or JSON rows) that do not match the board.
    #[error("expected {expected} rows for a {shape} board, got {got}")]
    WrongRowCount {
        /// The board.
        shape: Shape,
        /// Rows of the board.
        expected: usize,
        /// Rows given.
        got: usize,
    },
    /// One row of the wrong length.
    #[error("row {row} has {got} tiles, expected {expected} for a {shape} board")]
    WrongRowLength {
        /// The board.
        shape: Shape,
        /// 1-based row.
        row: usize,
        /// Columns of the board.
        expected: usize,
        /// Tiles in that row.
        got: usize,
    },
    /// A tile number too long to even hold (its digits cut short).
    #[error("tile {token} is out of range for a {shape} board (tiles are 1 to {max}, and 0 is the blank)")]
    HugeTile {
        /// The digits given.
        token: String,
        /// The board.
        shape: Shape,
        /// The largest tile.
        max: usize,
    },
    /// Text that starts like JSON but does not parse.
    #[error("invalid JSON board: it does not parse ({category}) at line {line}, column {column}")]
    JsonSyntax {
        /// What went wrong: "syntax", or "end of input" where it stops short.
        category: &'static str,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
    },
    /// JSON nested past the parser's limit, where a board has two levels.
    #[error(
        "invalid JSON board: lists nested more than {JSON_DEPTH_LIMIT} deep; a board is a list of \
         tiles, or a list of rows of tiles"
    )]
    JsonTooDeep,
    /// JSON that is not a list.
    #[error("invalid JSON board: expected a list of tiles or of rows")]
    JsonNotAList,
    /// An item of a JSON row or board that is not a tile number.
    #[error("invalid JSON board: {value} is not a tile number (tiles are 0 to {max})")]
    JsonNotATile {
        /// The item, as JSON (shortened when long).
        value: String,
        /// The largest tile number.
        max: usize,
    },
    /// A JSON board whose items mix rows and tiles.
    #[error("invalid JSON board: {value} is not a row (a list of tiles)")]
    JsonNotARow {
        /// The item, as JSON (shortened when long).
        value: String,
    },
    /// The tiles themselves are wrong.
    #[error("{problem}{hint}")]
    Board {
        /// What is wrong with them.
        problem: BoardError,
        /// A hint about the form, where one helps.
        hint: &'static str,
    },
}

impl ParseError {
    /// Whether the text may be a good board of another size: too many or
    /// too few tiles or rows, or a tile past this board's largest (but
    /// within any board's). Advice
    /// can then name where the board's size came from.
    pub fn is_for_another_size(&self) -> bool {
        let fits_some_board = |count: usize| count <= MAX_CELLS;
        match self {
            ParseError::WrongRowCount { got, .. } | ParseError::WrongRowLength { got, .. } => {
                fits_some_board(*got)
            }
            ParseError::Board { problem, .. } => match problem {
                // As many tiles as some board has cells: 4, 6, 8, 9, …
                BoardError::WrongCount { got, .. } => !boards_of(*got).is_empty(),
                BoardError::OutOfRange { tile, .. } => *tile < MAX_CELLS as u64,
                _ => false,
            },
            _ => false,
        }
    }

    /// Where the text gave as many tiles as another board has cells (16
    /// read as 3x3): a note that says which of those boards `served`
    /// allows, and how to ask for the first, the squarest, in a face's
    /// words (`ask(4x4)`: "give --board 4x4"). A tile too few or too many
    /// is more likely a slip on this board, and digits run together
    /// (the hint `RUN_TOGETHER`) have their own hint: neither gets a note.
    pub fn another_size_note(
        &self,
        served: impl Fn(Shape) -> bool,
        ask: impl Fn(Shape) -> String,
    ) -> Option<String> {
        let ParseError::Board {
            problem: BoardError::WrongCount { got, expected, .. },
            hint,
        } = self
        else {
            return None;
        };
        if got.abs_diff(*expected) <= 1 || *hint == RUN_TOGETHER {
            return None;
        }
        let sizes: Vec<Shape> = boards_of(*got).into_iter().filter(|&s| served(s)).collect();
        let (first, others) = sizes.split_first()?;
        let others = match others {
            [] => String::new(),
            others => {
                let names: Vec<String> = others.iter().map(Shape::to_string).collect();
                format!(" (or {})", names.join(", "))
            }
        };
        Some(format!(
            "{got} tiles fit a {first} board{others}: {}",
            ask(*first)
        ))
    }
}

/// The boards of `cells` cells, squarest first (16: 4x4, 2x8, 8x2).
fn boards_of(cells: usize) -> Vec<Shape> {
    let mut sizes: Vec<Shape> = (2..=cells / 2)
        .filter(|rows| cells.is_multiple_of(*rows))
        .filter_map(|rows| Shape::new(rows, cells / rows).ok())
        .collect();
    sizes.sort_by_key(|s| (s.rows().abs_diff(s.cols()), s.rows()));
    sizes
}

impl From<BoardError> for ParseError {
    fn from(problem: BoardError) -> ParseError {
        ParseError::Board { problem, hint: "" }
    }
}

/// The most tiles or rows the parser keeps track of; more is always an error,
/// so it only needs to count them.
const CAPACITY: usize = MAX_CELLS + 1;

/// The most row lengths the parser keeps: every board has at least two
/// columns, so at most this many rows, and a text with more rows is refused
/// by their count alone. (Kept small: `Collected` is set up for every board
/// a batch reads, and a larger one is cleared by a call to `memset`.)
const ROW_CAPACITY: usize = MAX_CELLS / 2;

/// Tiles and row lengths collected without allocating.
struct Collected {
    tiles: [u64; CAPACITY],
    count: usize,
    rows: [usize; ROW_CAPACITY],
    row_count: usize,
    current_row: usize,
    saw_slash: bool,
}

impl Collected {
    fn new() -> Collected {
        Collected {
            tiles: [0; CAPACITY],
            count: 0,
            rows: [0; ROW_CAPACITY],
            row_count: 0,
            current_row: 0,
            saw_slash: false,
        }
    }

    fn push_tile(&mut self, tile: u64) {
        if self.count < CAPACITY {
            self.tiles[self.count] = tile;
        }
        self.count += 1;
        self.current_row += 1;
    }

    /// A `/`: always the end of a row (an empty one is an error later).
    fn end_row_at_slash(&mut self) {
        self.saw_slash = true;
        self.end_row();
    }

    /// A line break, or a space between rows: the end of a row that has
    /// tiles; more of them in a row are one separator.
    fn end_row_at_space(&mut self) {
        if self.current_row > 0 {
            self.saw_slash = true;
            self.end_row();
        }
    }

    fn end_row(&mut self) {
        if self.row_count < ROW_CAPACITY {
            self.rows[self.row_count] = self.current_row;
        }
        self.row_count += 1;
        self.current_row = 0;
    }

    fn finish(mut self, shape: Shape, hint: &'static str) -> Result<Board, ParseError> {
        if self.saw_slash {
            self.end_row();
            check_rows(
                shape,
                self.row_count,
                &self.rows[..self.row_count.min(ROW_CAPACITY)],
            )?;
        }
        let tiles = &self.tiles[..self.count.min(CAPACITY)];
        if self.count != shape.cells() {
            let problem = BoardError::WrongCount {
                shape,
                expected: shape.cells(),
                got: self.count,
            };
            return Err(ParseError::Board { problem, hint });
        }
        Ok(Board::new(shape, tiles)?)
    }
}

/// Whether `row_count` rows, of the lengths in `rows` (those of the first
/// rows, where a text held more than are kept), are `shape`'s rows: the
/// error says how many rows there should be, or names the first too long
/// or too short.
pub fn check_rows(shape: Shape, row_count: usize, rows: &[usize]) -> Result<(), ParseError> {
    if row_count != shape.rows() {
        return Err(ParseError::WrongRowCount {
            shape,
            expected: shape.rows(),
            got: row_count,
        });
    }
    match rows.iter().position(|&len| len != shape.cols()) {
        Some(i) => Err(ParseError::WrongRowLength {
            shape,
            row: i + 1,
            expected: shape.cols(),
            got: rows[i],
        }),
        None => Ok(()),
    }
}

/// Parses a board of the given shape from any of the forms in the module docs.
pub fn parse_board(text: &str, shape: Shape) -> Result<Board, ParseError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ParseError::Empty);
    }
    if trimmed.starts_with('[') {
        return parse_json(trimmed, shape);
    }
    // Columns count from the start of the untrimmed text, as the user typed it.
    let offset = text.len() - text.trim_start().len();
    let column_of = |byte: usize| text[..offset + byte].chars().count() + 1;
    // One call of `parse_compact`, so that it is inlined here as it was
    // before rows apart by spaces were read.
    if !rows_of_digits(trimmed, shape) && trimmed.contains([' ', '\t', ',']) {
        parse_separated(trimmed, shape, column_of)
    } else {
        parse_compact(trimmed, shape, column_of)
    }
}

/// Whether `text` is rows of one character per cell separated by spaces or
/// lines (`867 254 301`): one word per row, each as long as a row. Only on
/// boards of up to 10 cells, whose tiles are all single digits, is that
/// never a list of tiles.
///
/// Called on every board a batch parses, so it allocates nothing, and text
/// of printable ASCII alone (`867254301`, one word where every board has at
/// least two rows) is turned away after one pass over its bytes.
fn rows_of_digits(text: &str, shape: Shape) -> bool {
    if shape.cells() > 10
        || shape.cols() < 2
        || text.bytes().all(|b| b.is_ascii_graphic())
        || text.contains([',', '/'])
    {
        return false;
    }
    let mut words = 0;
    for word in text.split_whitespace() {
        words += 1;
        if words > shape.rows() || word.chars().count() != shape.cols() {
            return false;
        }
    }
    words == shape.rows()
}

fn is_blank(c: char) -> bool {
    c == '_' || c == '.'
}

/// One character per tile; `/` may separate rows.
fn parse_compact(
    text: &str,
    shape: Shape,
    column_of: impl Fn(usize) -> usize,
) -> Result<Board, ParseError> {
    let mut got = Collected::new();
    for (i, c) in text.char_indices() {
        match c {
            '0'..='9' => got.push_tile(c as u64 - '0' as u64),
            '/' => got.end_row_at_slash(),
            // Rows apart on lines, or apart by spaces (see `rows_of_digits`).
            c if c.is_whitespace() => got.end_row_at_space(),
            c if is_blank(c) => got.push_tile(0),
            found => {
                return Err(ParseError::UnexpectedChar {
                    found,
                    column: column_of(i),
                })
            }
        }
    }
    let hint = if shape.cells() > 10 {
        " (tiles above 9 need spaces or commas between tiles, as in 1 2 3 4 5 6 7 8 9 10 11 0)"
    } else {
        ""
    };
    got.finish(shape, hint)
}

/// The hint for the tiles of a board of single digits split by a stray
/// space, read as fewer tiles of several digits.
const RUN_TOGETHER: &str = " (a number of several digits between spaces is one tile: put a \
                            space between every tile, or none at all)";

/// Tiles separated by spaces, tabs or commas; `/` may separate rows.
fn parse_separated(
    text: &str,
    shape: Shape,
    column_of: impl Fn(usize) -> usize,
) -> Result<Board, ParseError> {
    let mut got = Collected::new();
    let mut token_start: Option<usize> = None;
    // Whether words of several digits hold, between them, as many digits
    // as the board has cells (`86 7254301` on 3x3): tiles run together.
    let (mut long_word, mut digits) = (false, 0);
    let mut flush = |got: &mut Collected, start: Option<usize>, end: usize| {
        let Some(start) = start else { return Ok(()) };
        let token = &text[start..end];
        if token.len() == 1 && is_blank(token.chars().next().unwrap_or('0')) {
            digits += 1;
            got.push_tile(0);
            return Ok(());
        }
        if let Some((i, found)) = token.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
            return Err(ParseError::UnexpectedChar {
                found,
                column: column_of(start + i),
            });
        }
        let tile = token.parse().map_err(|_| ParseError::HugeTile {
            token: shorten(token),
            shape,
            max: shape.cells() - 1,
        })?;
        long_word |= token.len() > 1;
        digits += token.len();
        got.push_tile(tile);
        Ok(())
    };
    // Whether a tile came since the last comma (or the start): a comma
    // with none before it is an empty field, not a separator to skip.
    let mut tile_since_comma = false;
    for (i, c) in text.char_indices() {
        match c {
            ' ' | '\t' | '\r' | ',' | '/' | '\n' => {
                let had_token = token_start.is_some();
                flush(&mut got, token_start.take(), i)?;
                tile_since_comma |= had_token;
                match c {
                    ',' if !tile_since_comma => {
                        return Err(ParseError::EmptyField {
                            column: column_of(i),
                        })
                    }
                    ',' => tile_since_comma = false,
                    '/' => got.end_row_at_slash(),
                    '\n' => got.end_row_at_space(),
                    _ => {}
                }
            }
            _ => {
                token_start.get_or_insert(i);
            }
        }
    }
    let had_token = token_start.is_some();
    flush(&mut got, token_start.take(), text.len())?;
    if !had_token && text.ends_with(',') {
        return Err(ParseError::EmptyField {
            column: column_of(text.len() - 1),
        });
    }
    let run_together = long_word && shape.cells() <= 10 && digits == shape.cells();
    got.finish(shape, if run_together { RUN_TOGETHER } else { "" })
}

/// How deep serde_json lets lists nest before it stops reading.
const JSON_DEPTH_LIMIT: usize = 128;

/// `[[8,6,7],[2,5,4],[3,0,1]]` or `[8,6,7,2,5,4,3,0,1]`.
fn parse_json(text: &str, shape: Shape) -> Result<Board, ParseError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        // serde_json stops at this depth with an error classed as syntax.
        if e.to_string().starts_with("recursion limit exceeded") {
            return ParseError::JsonTooDeep;
        }
        let category = match e.classify() {
            serde_json::error::Category::Eof => "end of input",
            _ => "syntax",
        };
        ParseError::JsonSyntax {
            category,
            line: e.line(),
            column: e.column(),
        }
    })?;
    let items = value.as_array().ok_or(ParseError::JsonNotAList)?;
    let tile = |v: &serde_json::Value| {
        v.as_u64().ok_or_else(|| ParseError::JsonNotATile {
            value: shorten(&v.to_string()),
            max: shape.cells() - 1,
        })
    };
    let mut tiles = Vec::new();
    if items.iter().any(|v| v.is_array()) {
        let mut lengths = Vec::new();
        for row in items {
            let row = row.as_array().ok_or_else(|| ParseError::JsonNotARow {
                value: shorten(&row.to_string()),
            })?;
            lengths.push(row.len());
            for v in row {
                tiles.push(tile(v)?);
            }
        }
        check_rows(shape, lengths.len(), &lengths)?;
    } else {
        for v in items {
            tiles.push(tile(v)?);
        }
    }
    Ok(Board::new(shape, &tiles)?)
}

/// A 3×3 board from text that must be one: for tests.
#[cfg(test)]
pub(crate) fn board3(text: &str) -> Board {
    parse_board(text, Shape::THREE_BY_THREE).unwrap()
}

/// The first `limit` characters of `text`, and `…` if there were more:
/// enough of a user's input to recognise it in a message, never a whole
/// huge one.
pub fn excerpt(text: &str, limit: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
        None => text.into(),
    }
}

/// An item of JSON input, cut short enough for a message.
fn shorten(text: &str) -> String {
    excerpt(text, 40).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Shape = Shape::THREE_BY_THREE;

    fn err(text: &str) -> String {
        parse_board(text, S).unwrap_err().to_string()
    }

    #[test]
    fn every_form_gives_the_same_board() {
        let expected = parse_board("8672543.1", S).unwrap();
        for text in [
            "8672543_1",
            "8672543.1",
            "867/254/301",
            "867/254/3_1",
            "8 6 7 / 2 5 4 / 3 0 1",
            "8 6 7 2 5 4 3 0 1",
            "8,6,7,2,5,4,3,0,1",
            "8, 6, 7, 2, 5, 4, 3, _, 1",
            "  867254301\n",
            "[[8,6,7],[2,5,4],[3,0,1]]",
            "[ [8, 6, 7], [2, 5, 4], [3, 0, 1] ]",
            "[8,6,7,2,5,4,3,0,1]",
        ] {
            assert_eq!(parse_board(text, S).unwrap(), expected, "{text}");
        }
        assert_eq!(expected.cells(), &[8, 6, 7, 2, 5, 4, 3, 0, 1]);
    }

    #[test]
    fn boards_of_other_shapes() {
        let s: Shape = "2x4".parse().unwrap();
        assert_eq!(parse_board("1234/5670", s).unwrap().to_string(), "12345670");
        assert_eq!(
            err_for("123/456/70", s),
            "expected 2 rows for a 2x4 board, got 3"
        );
        let big: Shape = "3x4".parse().unwrap();
        let b = parse_board("1 2 3 4 / 5 6 7 8 / 9 10 11 0", big).unwrap();
        assert_eq!(b.to_string(), "1 2 3 4 5 6 7 8 9 10 11 0");
        assert_eq!(
            err_for("123456789000", big),
            "the blank appears 3 times (so tiles 10 and 11 are missing)"
        );
    }

    fn err_for(text: &str, shape: Shape) -> String {
        parse_board(text, shape).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(
            err("86725430"),
            "expected 9 tiles for a 3x3 board (the blank included), got 8"
        );
        assert_eq!(
            err("1234567890"),
            "expected 9 tiles for a 3x3 board (the blank included), got 10"
        );
        assert_eq!(
            err("123455780"),
            "tile 5 appears twice (so tile 6 is missing)"
        );
        assert_eq!(
            err("1 2 3 4 12 6 7 8 0"),
            "tile 12 is out of range for a 3x3 board (tiles are 1 to 8, and 0 is the blank)"
        );
        assert_eq!(err("1234x6780"), "unexpected character 'x' at column 5");
        assert_eq!(err("  12a"), "unexpected character 'a' at column 5");
        assert_eq!(
            err("1 2 3 4 5a 6 7 8 0"),
            "unexpected character 'a' at column 10"
        );
        assert_eq!(
            err("12/345/678/0"),
            "expected 3 rows for a 3x3 board, got 4"
        );
        assert_eq!(
            err("12/3456/780"),
            "row 1 has 2 tiles, expected 3 for a 3x3 board"
        );
        assert_eq!(
            err("[[1,2,3],[4,5,6,7],[8,0]]"),
            "row 2 has 4 tiles, expected 3 for a 3x3 board"
        );
        assert_eq!(
            err("[1,2,3,4,5,6,7,8,-1]"),
            "invalid JSON board: -1 is not a tile number (tiles are 0 to 8)"
        );
        assert!(err("[1,2,").starts_with("invalid JSON board:"));
        assert_eq!(err("   "), "the board is empty");
        assert_eq!(
            err("1 2 3 4 5 6 7 8 99999999999999999999999"),
            "tile 99999999999999999999999 is out of range for a 3x3 board (tiles are 1 to 8, and 0 is the blank)"
        );
        // A tile of 200,000 digits is named by its first 40.
        let huge = format!("1 2 3 4 5 6 7 8 {}", "9".repeat(200_000));
        assert_eq!(
            err(&huge),
            format!(
                "tile {}… is out of range for a 3x3 board (tiles are 1 to 8, and 0 is the blank)",
                "9".repeat(40)
            )
        );
        let long = "1 ".repeat(1000);
        assert_eq!(
            err(&long),
            "expected 9 tiles for a 3x3 board (the blank included), got 1000"
        );
        assert!(err_for("1234567891011", "3x4".parse().unwrap()).contains("need spaces or commas"));
        // A space typed inside a board of single digits.
        assert_eq!(
            err("86 7254301"),
            "expected 9 tiles for a 3x3 board (the blank included), got 2 (a number of several \
             digits between spaces is one tile: put a space between every tile, or none at all)"
        );
        assert!(
            !err_for("1 2 3 4 5 6 7 8 9 10 11 12 0", "3x4".parse().unwrap())
                .contains("several digits")
        );
        assert_eq!(
            err("86 725 43 _ 1"),
            "expected 9 tiles for a 3x3 board (the blank included), got 5 (a number of several \
             digits between spaces is one tile: put a space between every tile, or none at all)"
        );
        // A 4x4 board read as 3x3: its tiles are apart already.
        assert!(!err("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15").contains("several digits"));
        assert!(err("8672 54301").contains("several digits"));
        assert!(!err("8672 5430").contains("several digits"));
    }

    #[test]
    fn a_count_of_another_boards_cells_names_that_board() {
        let ask = |s: Shape| format!("give --board {s}");
        let note = |text: &str| {
            let e = parse_board(text, Shape::THREE_BY_THREE).unwrap_err();
            e.another_size_note(|_| true, ask)
        };
        let sixteen = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
        assert_eq!(
            note(sixteen).unwrap(),
            "16 tiles fit a 4x4 board (or 2x8, 8x2): give --board 4x4"
        );
        assert_eq!(
            note("123450").unwrap(),
            "6 tiles fit a 2x3 board (or 3x2): give --board 2x3"
        );
        assert_eq!(
            note("1234").unwrap(),
            "4 tiles fit a 2x2 board: give --board 2x2"
        );
        // No board has 7 cells; a bad tile is no count; 8 or 10 tiles are
        // more likely a slip on 3x3 than a 2x4 or 2x5 board.
        assert_eq!(note("1234560"), None);
        assert_eq!(note("12345678"), None);
        assert_eq!(note("1234567890"), None);
        assert_eq!(note("123455780"), None);
        // Digits run together have their own hint, and no other.
        assert_eq!(note("12 34 56 7 8 0"), None);
        // Only the boards served are named.
        let e = parse_board(
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
            Shape::THREE_BY_THREE,
        );
        let only_2x8 = |s: Shape| s.rows() == 2;
        assert_eq!(
            e.unwrap_err().another_size_note(only_2x8, ask).unwrap(),
            "16 tiles fit a 2x8 board: give --board 2x8"
        );
    }

    #[test]
    fn rows_on_lines_or_apart_by_spaces_read_as_rows() {
        let expected = board3("867254301");
        for text in [
            "8 6 7\n2 5 4\n3 0 1",
            "8 6 7\r\n2 5 4\r\n3 _ 1\n",
            "867\n254\n301",
            "867 254 301",
            "  867   254\t301 ",
        ] {
            assert_eq!(
                parse_board(text, Shape::THREE_BY_THREE),
                Ok(expected),
                "{text:?}"
            );
        }
        // What `--boards` prints reads back.
        assert_eq!(
            parse_board(&expected.grid(), Shape::THREE_BY_THREE),
            Ok(expected)
        );
        let two_by_four: Shape = "2x4".parse().unwrap();
        assert_eq!(
            parse_board("1234 5670", two_by_four),
            parse_board("1234/5670", two_by_four)
        );
        // Words that are not all rows are read as tiles, and refused.
        assert!(parse_board("86 7254 301", Shape::THREE_BY_THREE).is_err());
    }

    #[test]
    fn an_empty_field_between_commas_is_refused_by_column() {
        let s = Shape::THREE_BY_THREE;
        assert_eq!(
            parse_board("1,2,3,,4,5,6,7,8,0", s),
            Err(ParseError::EmptyField { column: 7 })
        );
        assert_eq!(
            parse_board(",1,2,3,4,5,6,7,8,0", s),
            Err(ParseError::EmptyField { column: 1 })
        );
        assert_eq!(
            parse_board("1,2,3,4,5,6,7,8,0,", s),
            Err(ParseError::EmptyField { column: 18 })
        );
        assert_eq!(
            parse_board("1, 2, 3, 4, 5, 6, 7, 8, 0", s),
            Ok(board3("123456780"))
        );
    }

    #[test]
    fn lists_nested_past_the_limit_are_called_that() {
        for depth in [200, 100_000] {
            let text = "[".repeat(depth);
            assert_eq!(
                parse_board(&text, S),
                Err(ParseError::JsonTooDeep),
                "{depth}"
            );
        }
        // Within the limit, a deep list is still a syntax error where it stops.
        assert!(matches!(
            parse_board(&"[".repeat(10), S),
            Err(ParseError::JsonSyntax { .. })
        ));
    }
}
