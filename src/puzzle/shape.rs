//! Board dimensions: how many rows and columns, and which sizes the tool supports.

use crate::puzzle::board::Move;
use std::fmt;
use std::str::FromStr;

/// The largest number of cells any board may have: 6×6. Boards above
/// [`MAX_TABLE_CELLS`] are solved by search (`npuzzle::pattern`), never by
/// a complete table.
pub const MAX_CELLS: usize = 36;

/// Slots of a table indexed by tile: a power of two above [`MAX_CELLS`],
/// so that `tile % TILE_SLOTS` indexes it without a bounds check.
pub const TILE_SLOTS: usize = 64;
const _: () = assert!(MAX_CELLS <= TILE_SLOTS);

/// The largest board a complete table covers: ranks of boards this size
/// (12!/2 = 239,500,800) still fit in a `u32`. Building and opening
/// complete tables refuse larger boards ([`Shape::check_complete_tables`]).
pub const MAX_TABLE_CELLS: usize = 12;

/// The dimensions of a rectangular board: at least 2×2, at most [`MAX_CELLS`]
/// cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: u8,
    cols: u8,
    /// Bit `i` set when cell `i` is in the first column, for `i` up to
    /// and including `cells`: so bit `i + 1` says whether cell `i` is in
    /// the last column.
    row_starts: u64,
}

/// Why a pair of dimensions is not a board this tool handles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// The text is not of the form `RxC`.
    #[error("board size {0:?} is not of the form RxC (for example 3x3)")]
    Syntax(String),
    /// A side past any number: far past any board.
    #[error("board size {0:?} is far past any board: boards stop at {MAX_CELLS} cells (6x6)")]
    Huge(String),
    /// A board needs at least two rows and two columns.
    #[error("a {rows}x{cols} board is too small: boards need at least 2 rows and 2 columns")]
    TooSmall {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// More cells than a complete table (or any board) allows.
    #[error("{}", too_large(*.rows, *.cols, *.cells, *.max))]
    TooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// rows × cols.
        cells: usize,
        /// The limit.
        max: usize,
    },
}

/// Why a board of `cells` cells is refused under a limit of `max`.
fn too_large(rows: usize, cols: usize, cells: usize, max: usize) -> String {
    if rows.checked_mul(cols).is_none() {
        // `cells` stopped at the largest number it holds.
        return format!("a {rows}x{cols} board has more than {cells} cells; boards stop at {MAX_CELLS} cells (6x6)");
    }
    if max == MAX_TABLE_CELLS {
        format!(
            "a {rows}x{cols} board has {cells} cells: a complete table would hold {cells}!/2{} \
             positions, far more than one machine holds. Complete tables stop at {max} cells \
             ({max}!/2 = 239500800 positions); for larger boards, pattern databases with a \
             search such as IDA* are the tool to use",
            half_factorial(cells)
        )
    } else {
        format!("a {rows}x{cols} board has {cells} cells; boards stop at {max} cells (6x6)")
    }
}

/// " ≈ n!/2" in figures, while a float holds it: for telling how far out of
/// reach a board is.
fn half_factorial(n: usize) -> String {
    if n > 170 {
        return String::new();
    }
    let value = (2..=n).map(|k| k as f64).product::<f64>() / 2.0;
    format!(" ≈ {value:.1e}")
}

impl Shape {
    /// A board of `rows` × `cols` cells: at least 2×2, at most
    /// [`MAX_CELLS`] cells. Boards past [`MAX_TABLE_CELLS`] are solved from
    /// pattern databases; complete tables refuse them
    /// ([`Shape::check_complete_tables`]).
    pub fn new(rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        if rows < 2 || cols < 2 {
            return Err(ShapeError::TooSmall { rows, cols });
        }
        Shape::check_cells(rows, cols, MAX_CELLS)?;
        Ok(Shape::new_unchecked(rows as u8, cols as u8))
    }

    /// Whether complete tables cover this board: at most
    /// [`MAX_TABLE_CELLS`] cells, or why not (and what to use instead).
    pub fn check_complete_tables(self) -> Result<(), ShapeError> {
        Shape::check_cells(self.rows(), self.cols(), MAX_TABLE_CELLS)
    }

    fn check_cells(rows: usize, cols: usize, max: usize) -> Result<(), ShapeError> {
        let cells = rows.saturating_mul(cols);
        if cells > max {
            return Err(ShapeError::TooLarge {
                rows,
                cols,
                cells,
                max,
            });
        }
        Ok(())
    }

    const fn new_unchecked(rows: u8, cols: u8) -> Shape {
        let mut row_starts = 0;
        let mut row = 0;
        while row <= rows as u64 {
            row_starts |= 1 << (row * cols as u64);
            row += 1;
        }
        Shape {
            rows,
            cols,
            row_starts,
        }
    }

    /// The classic 8-puzzle board.
    pub const THREE_BY_THREE: Shape = Shape::new_unchecked(3, 3);

    /// Whether `cell` is in the first column.
    #[inline]
    pub fn on_left_edge(self, cell: usize) -> bool {
        self.row_starts >> cell & 1 == 1
    }

    /// Whether `cell` is in the last column.
    #[inline]
    pub fn on_right_edge(self, cell: usize) -> bool {
        self.row_starts >> (cell + 1) & 1 == 1
    }

    /// The cell next to `cell` the way `m` goes, or `None` past the edge.
    #[inline]
    pub fn next_cell(self, cell: usize, m: Move) -> Option<usize> {
        let cols = self.cols();
        match m {
            Move::Up if cell >= cols => Some(cell - cols),
            Move::Down if cell + cols < self.cells() => Some(cell + cols),
            Move::Left if !self.on_left_edge(cell) => Some(cell - 1),
            Move::Right if !self.on_right_edge(cell) => Some(cell + 1),
            _ => None,
        }
    }

    /// Number of rows.
    pub fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    pub fn cols(self) -> usize {
        self.cols as usize
    }

    /// Number of cells, the blank's included.
    pub fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// Number of positions reachable from any one goal, cells!/2, where
    /// it fits a `u64` (boards of up to 20 cells; every board with
    /// complete tables).
    pub fn positions(self) -> Option<u64> {
        (1..=self.cells() as u64)
            .try_fold(1u64, |product, k| product.checked_mul(k))
            .map(|n| n / 2)
    }

    /// Number of positions reachable from any one goal, cells!/2, as a
    /// float: for telling how large a board's state space is, whatever its
    /// size.
    pub fn positions_approx(self) -> f64 {
        (2..=self.cells()).map(|k| k as f64).product::<f64>() / 2.0
    }

    /// Number of positions reachable from any one goal, cells!/2, for
    /// boards where complete tables exist ([`Shape::check_complete_tables`]).
    pub(crate) fn table_positions(self) -> u64 {
        debug_assert!(self.cells() <= MAX_TABLE_CELLS);
        (1..=self.cells() as u64).product::<u64>() / 2
    }

    /// The row of a cell, counting from 0 at the top.
    pub fn row_of(self, cell: usize) -> usize {
        cell / self.cols()
    }

    /// The column of a cell, counting from 0 at the left.
    pub fn col_of(self, cell: usize) -> usize {
        cell % self.cols()
    }

    /// The fewest moves that take the blank from cell `a` to cell `b`:
    /// rows apart plus columns apart.
    pub fn steps_between(self, a: usize, b: usize) -> usize {
        self.row_of(a).abs_diff(self.row_of(b)) + self.col_of(a).abs_diff(self.col_of(b))
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    /// Parses `RxC` (also `R×C` and `RXC`), for example `3x3` or `2x4`.
    fn from_str(text: &str) -> Result<Shape, ShapeError> {
        let (rows, cols) = parse_dimensions(text)?;
        Shape::new(rows, cols)
    }
}

/// The rows and columns of `RxC`.
fn parse_dimensions(text: &str) -> Result<(usize, usize), ShapeError> {
    // The text as given, cut short: a message is no place for a huge argument.
    let shown = || crate::puzzle::parse::excerpt(text, 40).into_owned();
    let side = |side: &str| {
        side.trim().parse::<usize>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => ShapeError::Huge(shown()),
            _ => ShapeError::Syntax(shown()),
        })
    };
    let (r, c) = (text.trim())
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| ShapeError::Syntax(shown()))?;
    Ok((side(r)?, side(c)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blank's fewest moves between cells: rows plus columns apart,
    /// either way round.
    #[test]
    fn steps_between_cells_count_rows_and_columns() {
        let s: Shape = "3x4".parse().unwrap();
        assert_eq!(s.steps_between(0, 0), 0);
        assert_eq!(s.steps_between(0, 11), 5);
        assert_eq!(s.steps_between(11, 0), 5);
        assert_eq!(s.steps_between(5, 6), 1);
        assert_eq!(s.steps_between(3, 4), 4);
    }

    /// Dimensions whose product overflows are not given a count.
    #[test]
    fn a_board_past_counting_says_so() {
        let e = "4294967299x4294967299".parse::<Shape>().unwrap_err();
        assert!(
            e.to_string().starts_with(
                "a 4294967299x4294967299 board has more than 18446744073709551615 cells; boards stop at 36"
            ),
            "{e}"
        );
    }

    #[test]
    fn parses_and_formats_sizes() {
        let s: Shape = "2x4".parse().unwrap();
        assert_eq!((s.rows(), s.cols(), s.cells()), (2, 4, 8));
        assert_eq!(s.to_string(), "2x4");
        assert_eq!("3×3".parse::<Shape>().unwrap(), Shape::THREE_BY_THREE);
        assert_eq!(Shape::THREE_BY_THREE.positions(), Some(181_440));
        assert_eq!(
            "3x4".parse::<Shape>().unwrap().positions(),
            Some(239_500_800)
        );
        // 20!/2 is the last that fits; 21!/2 does not.
        assert_eq!(
            "4x5".parse::<Shape>().unwrap().positions(),
            Some(1_216_451_004_088_320_000)
        );
        assert_eq!("3x7".parse::<Shape>().unwrap().positions(), None);
    }

    #[test]
    fn refuses_sizes_out_of_range() {
        assert!(matches!(
            "1x5".parse::<Shape>(),
            Err(ShapeError::TooSmall { .. })
        ));
        assert!(matches!(
            "6x7".parse::<Shape>(),
            Err(ShapeError::TooLarge {
                cells: 42,
                max: 36,
                ..
            })
        ));
        assert!(matches!(
            "3by3".parse::<Shape>(),
            Err(ShapeError::Syntax(_))
        ));
        // A number past any count is a board past any size, not bad syntax.
        for huge in ["99999999999999999999x2", "2x18446744073709551616"] {
            let why = huge.parse::<Shape>().unwrap_err();
            assert_eq!(
                why.to_string(),
                format!("board size {huge:?} is far past any board: boards stop at 36 cells (6x6)")
            );
        }
        assert!(matches!(
            "-3x2".parse::<Shape>(),
            Err(ShapeError::Syntax(_))
        ));
    }

    #[test]
    fn boards_reach_thirty_six_cells_and_complete_tables_twelve() {
        for size in ["4x4", "3x5", "5x3", "2x8", "5x5", "4x5", "6x6", "2x18"] {
            let s: Shape = size.parse().unwrap();
            assert_eq!(s.to_string(), size);
            let why = s.check_complete_tables().unwrap_err();
            assert!(matches!(why, ShapeError::TooLarge { max: 12, .. }), "{why}");
            assert!(why.to_string().contains("pattern databases"), "{why}");
        }
        for size in ["3x4", "2x6", "3x3", "2x2"] {
            let s: Shape = size.parse().unwrap();
            assert_eq!(s.check_complete_tables(), Ok(()), "{size}");
        }
    }
}
