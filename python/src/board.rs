//! `npuzzle.Board`, and boards read from whatever Python hands over: text in
//! every form the command line reads, lists and tuples (flat or nested),
//! NumPy arrays, and `Board`s.

use crate::answers::PySolvability;
use crate::arguments;
use crate::errors;
use npuzzle::analysis::{read_any_steps, Step, StepsError};
use npuzzle::rules::excerpt;
use npuzzle::{parse_board, rules::BoardError, rules::ParseError, Board, Move, Shape};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

/// A position: which tile is in each cell, row by row, 0 for the blank.
///
/// `Board(tiles, board=None)` reads text in any form the command line
/// reads, a list or tuple of tiles (flat, or one per row), or a NumPy
/// array; `board` is the size, "RxC" (nested rows give it, and so do rows
/// of text apart by "/" or on lines of their own, as `grid()` writes them;
/// else 3x3). Raises ParseError when the tiles are
/// not a board (bools are not tiles; as many tiles as another board has
/// cells get the `board=` to pass), ArgumentTypeError when they are of a
/// type a board cannot be (bytes: decode them first).
///
/// >>> b = Board("867254301")
/// >>> b
/// Board("867/254/301")
/// >>> print(b.grid(), end="")
/// 8 6 7
/// 2 5 4
/// 3 _ 1
/// >>> Board([[1, 2, 3], [4, 0, 5]]).size
/// '2x3'
/// >>> Board("12/34/50").size
/// '3x2'
#[pyclass(module = "npuzzle", name = "Board", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyBoard {
    pub board: Board,
}

/// A shape from its text (`"3x3"`), as a `ParseError` if it is not one.
pub fn shape_of(py: Python<'_>, text: &str) -> PyResult<Shape> {
    // Up to 36 cells: the boards of pattern databases and of search too.
    text.parse::<Shape>().map_err(|e| errors::parse(py, e))
}

/// `board=`: a size, "RxC".
pub fn size(obj: &Bound<'_, PyAny>) -> PyResult<Shape> {
    shape_of(obj.py(), &arguments::text(obj, "board")?)
}

/// The most characters of an argument a message echoes: the command
/// line's `ARGUMENT_ECHO_LIMIT`, which the library keeps behind its `cli`
/// feature (and its dependencies, which this crate does without).
pub(crate) const ARGUMENT_ECHO_LIMIT: usize = 60;

/// `e`, the error of reading the board argument `name` (`start`, `goal`,
/// `position`) from `obj`, worded as the command line words it (`bad goal
/// board "1234": …`, text echoed and cut short as it cuts it), so that a
/// bad goal is not taken for a bad start.
pub fn bad_argument(obj: &Bound<'_, PyAny>, name: &str, e: PyErr) -> PyErr {
    let text = obj.cast::<PyString>().ok().and_then(|t| t.to_str().ok());
    let shown = text.map_or(String::new(), |t| {
        format!(" {:?}", excerpt(t, ARGUMENT_ECHO_LIMIT))
    });
    errors::reworded(obj.py(), e, |message| {
        format!("bad {name} board{shown}: {message}")
    })
}

/// Where the size a board must have comes from, for the message when a
/// `Board` of another size is given.
#[derive(Clone, Copy)]
pub enum SizeFrom {
    /// The database asked.
    Database,
    /// The `board=` argument.
    Argument,
    /// The start, which a goal must match.
    Start,
    /// The first of many positions, which the others must match.
    First,
}

/// Where text given to a database gave as many tiles as another board
/// has cells: which, and how to open its database, as the command line
/// says for its file. Rows of batches and frames are told what `query
/// batch` tells its lines, and a board= or a start set the size on
/// purpose: no note.
fn another_size(e: &npuzzle::rules::ParseError, from: SizeFrom) -> Option<String> {
    // board= looks at NPUZZLE_DB's file first, whatever its board.
    let unset = match npuzzle::files::env_db() {
        Some(_) => "unset NPUZZLE_DB and ",
        None => "",
    };
    let open =
        |other: Shape| format!("{unset}open a {other} database (Database(board=\"{other}\"))");
    // Only boards a database is built for: those another file can answer.
    let buildable =
        |shape| npuzzle::tables::unbuildable(shape, npuzzle::Metric::SingleTile).is_none();
    match from {
        SizeFrom::Database => e.another_size_note(buildable, open),
        _ => None,
    }
}

/// Reads a board of `shape` from any accepted form.
#[inline]
pub fn to_board(obj: &Bound<'_, PyAny>, shape: Shape, from: SizeFrom) -> PyResult<Board> {
    let py = obj.py();
    if let Ok(text) = obj.cast::<PyString>() {
        let Ok(text) = text.to_str() else {
            let why = arguments::text_of(text).err().unwrap_or_default();
            return Err(errors::parse(py, format!("the board {why}")));
        };
        return parse_board(text, shape).map_err(|e| match another_size(&e, from) {
            Some(note) => errors::parse(py, format!("{e}; {note}")),
            None => errors::parse(py, e),
        });
    }
    if let Ok(board) = obj.cast::<PyBoard>() {
        let board = board.get().board;
        let got = board.shape();
        return match from {
            _ if got == shape => Ok(board),
            SizeFrom::Database => Err(errors::parse(
                py,
                npuzzle::AnswerError::WrongShape {
                    expected: shape,
                    got,
                },
            )),
            SizeFrom::Argument => Err(errors::parse(
                py,
                format!("the board is {got} but board= says {shape}"),
            )),
            SizeFrom::Start => Err(errors::parse(
                py,
                format!("the goal is {got} but the start is {shape}"),
            )),
            SizeFrom::First => Err(errors::parse(
                py,
                format!(
                    "the board is {got} but the first position is {shape} (board= sets the size)"
                ),
            )),
        };
    }
    let (cells, rows) = tiles_of(obj, Some(shape))?;
    if let Some(rows) = rows {
        check_rows(py, shape, &rows)?;
    }
    Board::new(shape, &cells).map_err(|e| errors::parse(py, ParseError::from(e)))
}

/// The library's check of rows' lengths, as a ParseError.
fn check_rows(py: Python<'_>, shape: Shape, rows: &[usize]) -> PyResult<()> {
    npuzzle::rules::check_rows(shape, rows.len(), rows).map_err(|e| errors::parse(py, e))
}

/// The items of a list, a tuple, or an array (anything whose `tolist()`
/// gives a list: NumPy arrays); `None` for other objects. Ints and strings
/// are turned away first: probing them for `tolist` would raise and catch
/// an AttributeError, several times the cost of a whole lookup.
fn items_of<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
    if let Ok(list) = obj.cast::<PyList>() {
        return Ok(Some(list.iter().collect()));
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return Ok(Some(tuple.iter().collect()));
    }
    if obj.cast::<PyInt>().is_ok() || obj.cast::<PyString>().is_ok() {
        return Ok(None);
    }
    let py = obj.py();
    // Called rather than looked up first: one attribute lookup, not two.
    match obj.call_method0(intern!(py, "tolist")) {
        Ok(list) if list.cast::<PyList>().is_ok() => items_of(&list),
        Ok(_) => Ok(None),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyAttributeError>(py) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Why `obj` is not a board at all.
fn not_a_board(obj: &Bound<'_, PyAny>) -> PyErr {
    let py = obj.py();
    let type_name = arguments::type_name(obj);
    let zero_dimensions = obj.hasattr("__array__").unwrap_or(false)
        && obj
            .getattr("ndim")
            .and_then(|n| n.extract::<usize>())
            .is_ok_and(|n| n == 0);
    if zero_dimensions {
        let shown = obj.str().map(|s| s.to_string()).unwrap_or_default();
        return errors::parse(
            py,
            format!(
                "a 0-dimensional array holds one number ({shown}), not a board: give an array \
                 of the tiles, of shape (cells,) or (rows, cols)"
            ),
        );
    }
    // pandas gives a missing value as NaN, None, NA or NaT.
    let missing = obj.is_none()
        || matches!(type_name.as_str(), "NAType" | "NaTType")
        || obj.extract::<f64>().is_ok_and(f64::is_nan);
    if missing {
        let shown = obj.str().map(|s| s.to_string()).unwrap_or_default();
        return errors::argument_type(
            py,
            format!(
                "the value is missing ({shown}), not a board (in a pandas column, drop the \
                 missing rows first: Series.dropna())"
            ),
        );
    }
    let hint = match type_name.as_str() {
        "bytes" | "bytearray" => ": decode text first (b.decode())",
        _ => "",
    };
    errors::argument_type(
        py,
        format!(
            "a board is text (\"867254301\"), a list or tuple of tiles or of rows, a NumPy \
             array, or a Board, not {type_name}{hint}"
        ),
    )
}

/// The tiles of a flat or nested sequence, with the length of each row
/// when nested. `shape` (when known) names the board in messages.
fn tiles_of(
    obj: &Bound<'_, PyAny>,
    shape: Option<Shape>,
) -> PyResult<(Vec<u64>, Option<Vec<usize>>)> {
    let py = obj.py();
    let Some(items) = items_of(obj)? else {
        return Err(not_a_board(obj));
    };
    let mut first_row = match items.first() {
        // The common case, a flat list of ints, without probing further.
        Some(first) if first.cast::<PyInt>().is_ok() => None,
        Some(first) => items_of(first)?,
        None => None,
    };
    // Without `board=`, nested rows tell the size their tiles must fit.
    let shape = shape.or_else(|| {
        let cols = first_row.as_ref()?.len();
        Shape::new(items.len(), cols).ok()
    });
    let max = shape.map_or(npuzzle::rules::MAX_CELLS, |s| s.cells()) - 1;
    if first_row.is_none() {
        let mut cells = Vec::with_capacity(items.len());
        for t in &items {
            cells.push(tile(t, shape, max)?);
        }
        return Ok((cells, None));
    }
    let mut cells = Vec::with_capacity(shape.map_or(items.len(), |s| s.cells()));
    let mut rows = Vec::new();
    for item in &items {
        let row = match first_row.take() {
            Some(row) => Some(row),
            None => items_of(item)?,
        };
        let Some(row) = row else {
            return Err(errors::parse(
                py,
                format!("{} is not a row (a list of tiles)", item.repr()?),
            ));
        };
        rows.push(row.len());
        for t in &row {
            cells.push(tile(t, shape, max)?);
        }
    }
    Ok((cells, Some(rows)))
}

/// One tile number.
#[inline]
fn tile(obj: &Bound<'_, PyAny>, shape: Option<Shape>, max: usize) -> PyResult<u64> {
    let py = obj.py();
    let out_of_range = |shown: String| {
        let message = match shape {
            Some(s) => format!(
                "tile {shown} is out of range for a {s} board (tiles are 1 to {max}, and 0 is the \
                 blank)"
            ),
            // The board is not known yet: no range but the largest board's
            // is sure, and a negative tile is out of every one.
            None if shown.starts_with('-') => {
                format!("tile {shown} is negative (tiles are 1 and up, and 0 is the blank)")
            }
            None => {
                format!("tile {shown} is out of range (tiles are 1 to {max}, and 0 is the blank)")
            }
        };
        errors::parse(py, message)
    };
    // The common case first: a plain int (a bool is an int's subclass, so
    // not exactly one).
    if obj.is_exact_instance_of::<PyInt>() {
        return match obj.extract::<i64>() {
            Ok(t) if t >= 0 => Ok(t as u64),
            Ok(t) => Err(out_of_range(t.to_string())),
            Err(_) => Err(out_of_range(arguments::shown(obj))),
        };
    }
    // The tiles of the board's size; with none given, no range is made up.
    let range = match shape {
        Some(_) => format!("tiles are 0 to {max}"),
        None => "tiles are whole numbers, 0 the blank".to_string(),
    };
    // `[True, 2, …]` would read as tiles 1 and 0, and NumPy's bool scalars
    // are not `bool`s: refused in every form.
    if arguments::is_bool(obj) {
        return Err(errors::parse(
            py,
            format!(
                "{} is a bool, not a tile number: bools are not tiles ({range})",
                obj.repr()?
            ),
        ));
    }
    // NumPy's integer scalars are not `int`s, but index like them.
    let indexes = obj.cast::<PyInt>().is_ok() || obj.hasattr("__index__")?;
    if !indexes || obj.cast::<pyo3::types::PyFloat>().is_ok() {
        // Text where a number belongs (`list("867254301")`), or a list a
        // level too deep (many boards where one belongs).
        let hint = if obj.cast::<PyString>().is_ok() {
            ": a list's tiles are numbers, and a board written as text is one string (\"867254301\")"
        } else if obj.hasattr("__len__")? {
            ": a board is a list of tiles or of rows, and many boards go to a batch (solve_many, \
             solve_many_within)"
        } else {
            ""
        };
        return Err(errors::parse(
            py,
            format!("{} is not a tile number ({range}){hint}", obj.repr()?),
        ));
    }
    match obj.extract::<i64>() {
        Ok(t) if t >= 0 => Ok(t as u64),
        Ok(t) => Err(out_of_range(t.to_string())),
        Err(_) => Err(out_of_range(arguments::shown(obj))),
    }
}

impl PyBoard {
    /// The board's text form with rows separated by `/`, as `repr` shows it.
    fn rows_text(&self) -> String {
        let shape = self.board.shape();
        let compact = shape.cells() <= 9;
        let rows: Vec<String> = self
            .board
            .cells()
            .chunks(shape.cols())
            .map(|row| {
                let tiles: Vec<String> = row.iter().map(|t| t.to_string()).collect();
                tiles.join(if compact { "" } else { " " })
            })
            .collect();
        rows.join(if compact { "/" } else { " / " })
    }

    fn wrap(board: Board) -> PyBoard {
        PyBoard { board }
    }
}

/// A move as `play` makes it: the blank's direction, and the tiles it
/// slides (1 but for a slide of the multi-tile metric, `R2`).
pub type Slide = (Move, usize);

/// A move as solutions write it: `R`, or for a slide of more tiles `R2`
/// (the library's notation, as `/api/moves` writes each slide).
pub fn written((m, tiles): Slide) -> String {
    npuzzle::rules::slide_notation(&vec![m; tiles])
}

/// Reads the blank's moves: letters (`U`, `D`, `L`, `R`, either case), each
/// with the count of tiles it slides where that is more than one (`R2`, as
/// the multi-tile metric writes solutions), in a string (`"U L D R2"`,
/// `"UR2"`) or a list (`["U", "R2"]`). The library's `read_any_steps` reads
/// them, as it reads `check`'s: one move list syntax for every face.
pub fn moves_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<Slide>> {
    if let Ok(text) = obj.cast::<PyString>() {
        let text = arguments::text_of(text)
            .map_err(|why| errors::parse(py, format!("the move string {why}")))?;
        return slides_in(py, &text, None);
    }
    let Some(items) = items_of(obj)? else {
        return Err(errors::argument_type(
            py,
            format!(
                "moves are a string of letters (\"ULDR\") or a list of them, not {}",
                arguments::type_name(obj)
            ),
        ));
    };
    let mut moves = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let text = match item.cast::<PyString>() {
            Ok(text) => arguments::text_of(text)
                .map_err(|why| errors::parse(py, format!("move {} {why}", i + 1)))?,
            Err(_) => {
                return Err(errors::parse(
                    py,
                    format!(
                        "move {} is {}, not a move letter (U, D, L or R)",
                        i + 1,
                        item.repr()?
                    ),
                ))
            }
        };
        match slides_in(py, &text, Some(i + 1))?.as_slice() {
            &[slide] => moves.push(slide),
            _ => return Err(not_a_move(py, i + 1, &text)),
        }
    }
    Ok(moves)
}

/// The moves written in `text`; `item` is its number in a list, which
/// messages name instead of a move's number in the text.
fn slides_in(py: Python<'_>, text: &str, item: Option<usize>) -> PyResult<Vec<Slide>> {
    let steps = read_any_steps(text).map_err(|e| match e {
        StepsError::NotAMove { position, found } => {
            not_a_move(py, item.unwrap_or(position), &found)
        }
        StepsError::SlideTooLong { position, found } => errors::parse(
            py,
            StepsError::SlideTooLong {
                position: item.unwrap_or(position),
                found,
            },
        ),
        // An item of a list is one move: its commas are not a list's.
        StepsError::EmptyField { position } => match item {
            Some(number) => not_a_move(py, number, text),
            None => errors::parse(py, StepsError::EmptyField { position }),
        },
        // Numbers are the tiles moved, which `check` grades and `play`
        // does not take.
        StepsError::Mixed => errors::parse(
            py,
            "the moves mix letters and numbers: a slide's count follows its letter, with no \
             space (R2), and tile numbers are not moves here",
        ),
        e => errors::parse(py, e),
    })?;
    steps
        .into_iter()
        .enumerate()
        .map(|(i, step)| match step {
            Step::Blank(m) => Ok((m, 1)),
            Step::Slide(m, tiles) => Ok((m, tiles)),
            Step::Tile(tile) => Err(not_a_move(py, item.unwrap_or(i + 1), &tile.to_string())),
        })
        .collect()
}

fn not_a_move(py: Python<'_>, number: usize, found: &str) -> PyErr {
    errors::parse(
        py,
        format!(
            "move {number} is {found:?}, not a move: moves are U, D, L and R (the blank's \
             direction), and a letter with a count slides that many tiles (R2)"
        ),
    )
}

/// Plays `moves` from `board`, or says which one (numbered as written)
/// leaves the board. A slide is played one tile at a time, so that no count
/// is ever allocated for, and stops at the edge.
pub fn play(py: Python<'_>, board: Board, moves: &[Slide]) -> PyResult<Board> {
    let mut at = board;
    for (i, &(m, tiles)) in moves.iter().enumerate() {
        for _ in 0..tiles {
            at = at.apply(m).ok_or_else(|| {
                errors::illegal_move(
                    py,
                    format!(
                        "move {} ({}) takes the blank off the board",
                        i + 1,
                        written((m, tiles))
                    ),
                )
            })?;
        }
    }
    Ok(at)
}

/// A board in any form, of the size `board` names (`"RxC"`); without it,
/// of the size a nested list's rows give, a `Board`'s own, or 3x3.
pub fn any_board(
    py: Python<'_>,
    tiles: &Bound<'_, PyAny>,
    board: Option<&Bound<'_, PyAny>>,
) -> PyResult<Board> {
    if let Some(board) = arguments::given(board) {
        return to_board(tiles, size(board)?, SizeFrom::Argument);
    }
    if let Ok(board) = tiles.cast::<PyBoard>() {
        return Ok(board.get().board);
    }
    if let Ok(text) = tiles.cast::<PyString>() {
        // A lone surrogate is refused by `to_board`, in its words.
        let Ok(text) = text.to_str() else {
            return to_board(tiles, Shape::THREE_BY_THREE, SizeFrom::Argument);
        };
        return parse_board(text, Shape::THREE_BY_THREE)
            .or_else(|e| by_its_rows(text).ok_or_else(|| not_three_by_three(py, e)));
    }
    let (cells, rows) = tiles_of(tiles, None)?;
    let shape = match &rows {
        Some(rows) => shape_of(
            py,
            &format!("{}x{}", rows.len(), rows.first().copied().unwrap_or(0)),
        )?,
        None => Shape::THREE_BY_THREE,
    };
    if let Some(rows) = rows {
        check_rows(py, shape, &rows)?;
        return Board::new(shape, &cells).map_err(|e| errors::parse(py, ParseError::from(e)));
    }
    Board::new(shape, &cells).map_err(|e: BoardError| not_three_by_three(py, e.into()))
}

/// Text in rows apart by `/` (`"12/34/50"`) or on lines of their own (a
/// `grid()`), read at the size they give: as many rows as it has, of the
/// one length at which they all parse.
fn by_its_rows(text: &str) -> Option<Board> {
    let text = text.trim();
    let rows = if text.contains('/') {
        text.split('/').count()
    } else if text.contains('\n') {
        text.lines().filter(|line| !line.trim().is_empty()).count()
    } else {
        return None;
    };
    (2..=npuzzle::rules::MAX_CELLS / 2)
        .filter_map(|cols| Shape::new(rows, cols).ok())
        .find_map(|shape| parse_board(text, shape).ok())
}

/// Tiles given with no size, read as 3x3, that are not a 3x3 board: the
/// error, and where their count is another board's cells, the `board=` to
/// pass (`Board(str(b))` of a 4x4 `b`: `pass board="4x4"`).
fn not_three_by_three(py: Python<'_>, e: ParseError) -> PyErr {
    let got = match &e {
        ParseError::Board {
            problem: BoardError::WrongCount { got, .. },
            ..
        } => *got,
        _ => 0,
    };
    // The squarest first: a 4x4 board's 16 tiles are more likely than 2x8's.
    let mut sizes: Vec<Shape> = (2..=got / 2)
        .filter(|rows| got.is_multiple_of(*rows))
        .filter_map(|rows| Shape::new(rows, got / rows).ok())
        .collect();
    sizes.sort_by_key(|s| (s.rows().abs_diff(s.cols()), s.rows()));
    let quoted: Vec<String> = sizes.iter().map(|s| format!("\"{s}\"")).collect();
    let hint = match quoted.as_slice() {
        [] => String::new(),
        [one] => format!("; pass board={one}"),
        [first, others @ ..] => format!("; pass board={first} (or {})", others.join(", ")),
    };
    errors::parse(py, format!("{e}{hint}"))
}

#[pymethods]
impl PyBoard {
    /// `Board(tiles, board=None)`, as the class's doc says (Python shows
    /// that one).
    #[new]
    #[pyo3(signature = (tiles, board = None))]
    fn new(
        py: Python<'_>,
        tiles: &Bound<'_, PyAny>,
        board: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBoard> {
        any_board(py, tiles, board).map(PyBoard::wrap)
    }

    /// The goal: tiles in order, the blank last. Raises ParseError for a
    /// board size that is not one (`"7x7"`: up to 6x6), ArgumentTypeError
    /// for one that is not text.
    ///
    /// >>> Board.goal("2x3")
    /// Board("123/450", board="2x3")
    #[staticmethod]
    #[pyo3(signature = (board = None), text_signature = "(board=\"3x3\")")]
    fn goal(board: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        let shape = match arguments::given(board) {
            Some(board) => size(board)?,
            None => Shape::THREE_BY_THREE,
        };
        Ok(PyBoard::wrap(Board::goal(shape)))
    }

    /// The tiles, row by row, 0 for the blank.
    ///
    /// >>> Board("123456780").cells
    /// (1, 2, 3, 4, 5, 6, 7, 8, 0)
    #[getter]
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.board.cells())
    }

    /// The board's size, "RxC".
    ///
    /// >>> Board("123456780").size
    /// '3x3'
    #[getter]
    fn size(&self) -> String {
        self.board.shape().to_string()
    }

    /// Rows of the board.
    ///
    /// >>> Board("123456780").rows
    /// 3
    #[getter]
    fn rows(&self) -> usize {
        self.board.shape().rows()
    }

    /// Columns of the board.
    ///
    /// >>> Board("123456780").cols
    /// 3
    #[getter]
    fn cols(&self) -> usize {
        self.board.shape().cols()
    }

    /// The index of the blank's cell, row by row from 0.
    ///
    /// >>> Board("123456780").blank
    /// 8
    #[getter]
    fn blank(&self) -> usize {
        self.board.blank()
    }

    /// The tiles as a list of rows.
    ///
    /// >>> Board("123456780").tolist()
    /// [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    fn tolist(&self) -> Vec<Vec<u32>> {
        let cols = self.board.shape().cols();
        self.board
            .cells()
            .chunks(cols)
            .map(|r| r.iter().map(|&t| u32::from(t)).collect())
            .collect()
    }

    /// The board drawn as rows of tiles, the blank as `_`.
    ///
    /// >>> print(Board("867254301").grid(), end="")
    /// 8 6 7
    /// 2 5 4
    /// 3 _ 1
    fn grid(&self) -> String {
        self.board.grid()
    }

    /// The moves the blank can make here, as letters in the order U, D, L, R.
    ///
    /// >>> Board("123456780").moves()
    /// 'UL'
    fn moves(&self) -> String {
        Move::ALL
            .iter()
            .filter(|&&m| self.board.apply(m).is_some())
            .map(|m| m.letter())
            .collect()
    }

    /// The board after the blank makes `moves` (letters U, D, L, R: the
    /// blank's direction; a string or a list). A letter with a count is a
    /// slide of that many tiles, as multi-tile solutions write it (`R2`).
    /// Raises ParseError for a move that cannot be read, IllegalMoveError
    /// for one off the board.
    ///
    /// >>> Board("123456078").apply("R2")
    /// Board("123/456/780")
    fn apply(&self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let moves = moves_of(py, moves)?;
        play(py, self.board, &moves).map(PyBoard::wrap)
    }

    /// Whether this board can reach `goal` (default: the tiles in order,
    /// the blank last), by the permutation-parity rule, with no database:
    /// any board up to 6x6. The goal is read at this board's size; one that
    /// does not read raises ParseError.
    ///
    /// >>> Board("213456780").solvable().reason[:30]
    /// 'the start has 1 tile inversion'
    #[pyo3(signature = (goal = None))]
    fn solvable(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<PySolvability> {
        let goal = match arguments::given(goal) {
            Some(goal) => to_board(goal, self.board.shape(), SizeFrom::Start)
                .map_err(|e| bad_argument(goal, "goal", e))?,
            None => Board::goal(self.board.shape()),
        };
        Ok(PySolvability::of(&self.board, &goal))
    }

    /// The tile that slides when the blank makes `move`, or None at the edge.
    /// Raises ParseError for anything but one move letter.
    ///
    /// >>> Board("123456708").tile_moved_by("R")
    /// 8
    fn tile_moved_by(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        match moves_of(py, r#move)?.as_slice() {
            [(m, 1)] => Ok(self.board.tile_moved_by(*m)),
            _ => Err(errors::parse(py, "expected one move letter (U, D, L or R)")),
        }
    }

    /// The command line's text form: `867254301`, or tiles separated by
    /// spaces on boards of more than nine cells.
    fn __str__(&self) -> String {
        self.board.to_string()
    }

    fn __repr__(&self) -> String {
        let shape = self.board.shape();
        if shape == Shape::THREE_BY_THREE {
            format!("Board(\"{}\")", self.rows_text())
        } else {
            format!("Board(\"{}\", board=\"{shape}\")", self.rows_text())
        }
    }

    /// The board as an HTML grid, for Jupyter.
    fn _repr_html_(&self) -> String {
        let shape = self.board.shape();
        let mut html = String::from(
            "<table style=\"border-collapse:collapse;font-family:monospace;font-size:1.4em\">",
        );
        for row in self.board.cells().chunks(shape.cols()) {
            html.push_str("<tr>");
            for &t in row {
                let (text, background) = match t {
                    0 => (String::new(), "#ddd"),
                    t => (t.to_string(), "#fff"),
                };
                html.push_str(&format!(
                    "<td style=\"border:2px solid #444;width:2em;height:2em;text-align:center;\
                     background:{background};color:#000\">{text}</td>"
                ));
            }
            html.push_str("</tr>");
        }
        html.push_str("</table>");
        html
    }

    /// The number of cells, as `iter(board)` gives them.
    fn __len__(&self) -> usize {
        self.board.shape().cells()
    }

    /// The tiles cell by cell, row by row, 0 for the blank: what `len`
    /// counts and `cells` holds (`tolist()` and NumPy give rows).
    ///
    /// >>> list(Board("123456780"))
    /// [1, 2, 3, 4, 5, 6, 7, 8, 0]
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        self.cells(py)?.try_iter()
    }

    /// The tiles as a NumPy array of rows (`np.array(board)`, `np.asarray`),
    /// as `tolist()` gives them; without this NumPy made a 0-d array of the
    /// object.
    ///
    /// >>> import numpy as np
    /// >>> np.array(Board("123456780")).shape
    /// (3, 3)
    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // A new array each time: copy=False cannot be honoured, and NumPy 2
        // asks that it be refused.
        if copy.is_some_and(|c| c.is_truthy().is_ok_and(|t| !t)) {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "a Board's tiles are not stored as a NumPy array: it cannot be viewed without \
                 a copy (copy=False)",
            ));
        }
        let numpy = py.import("numpy")?;
        let dtype = match dtype {
            Some(dtype) => dtype.clone(),
            None => numpy.getattr("int64")?,
        };
        numpy.call_method1("array", (self.tolist(), dtype))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let this = slf.get();
        Ok((
            slf.get_type().into_any(),
            (this.board.to_string(), this.board.shape().to_string()),
        ))
    }
}

pub fn wrap(board: Board) -> PyBoard {
    PyBoard::wrap(board)
}
