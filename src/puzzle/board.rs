//! Positions on a board, and the blank's moves between them.

use crate::puzzle::shape::{Shape, MAX_CELLS};
use std::fmt;

/// A direction the blank moves in. A move swaps the blank with the tile on
/// that side of it, so `Up` slides the tile above the blank down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Move {
    /// The blank moves up.
    Up = 0,
    /// The blank moves down.
    Down = 1,
    /// The blank moves left.
    Left = 2,
    /// The blank moves right.
    Right = 3,
}

impl Move {
    /// All four moves, in the order of their codes.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move with code `code & 3` (the code is stored in two bits of a table entry).
    #[inline]
    pub fn from_code(code: u8) -> Move {
        match code & 3 {
            0 => Move::Up,
            1 => Move::Down,
            2 => Move::Left,
            _ => Move::Right,
        }
    }

    /// The move's two-bit code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The move that undoes this one.
    pub fn opposite(self) -> Move {
        Move::from_code(self.code() ^ 1)
    }

    /// The letter used in move strings: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// The move named by a letter (either case).
    pub fn from_letter(letter: char) -> Option<Move> {
        match letter.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// The direction the tile slides when the blank makes this move.
    pub fn tile_direction(self) -> &'static str {
        match self {
            Move::Up => "down",
            Move::Down => "up",
            Move::Left => "right",
            Move::Right => "left",
        }
    }
}

/// Writes moves as a string of letters such as `ULDR`.
pub fn move_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// Why a list of cell contents is not a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The number of cells does not match the board.
    #[error("expected {expected} tiles for a {shape} board (the blank included), got {got}")]
    WrongCount {
        /// The board.
        shape: Shape,
        /// rows × cols.
        expected: usize,
        /// What was given.
        got: usize,
    },
    /// A tile number larger than the board allows.
    #[error("tile {tile} is out of range for a {shape} board (tiles are 1 to {max}, and 0 is the blank)")]
    OutOfRange {
        /// The board.
        shape: Shape,
        /// The tile given.
        tile: u64,
        /// The largest tile.
        max: usize,
    },
    /// Tiles given more than once, and so others missing.
    #[error("{}", repeats(repeated, missing))]
    Duplicate {
        /// Each tile given more than once (0 for the blank), in order, with
        /// how many times.
        repeated: Vec<(u8, usize)>,
        /// The tiles not given, in order.
        missing: Vec<u8>,
    },
}

/// "tile 5 appears twice (so tile 4 is missing)", "tiles 1 and 2 appear
/// twice (so tiles 5 and 6 are missing)", "the blank appears 9 times (so
/// tiles 1 to 8 are missing)".
fn repeats(repeated: &[(u8, usize)], missing: &[u8]) -> String {
    let tiles: Vec<u8> = repeated.iter().map(|&(tile, _)| tile).collect();
    let times = match repeated {
        [(_, count), rest @ ..] if rest.iter().all(|(_, c)| c == count) => match count {
            2 => "twice".to_string(),
            n => format!("{n} times"),
        },
        _ => "more than once".to_string(),
    };
    let (appear, are) = match (tiles.len(), missing.len()) {
        (1, 1) => ("appears", "is"),
        (1, _) => ("appears", "are"),
        (_, 1) => ("appear", "is"),
        _ => ("appear", "are"),
    };
    format!(
        "{} {appear} {times} (so {} {are} missing)",
        tile_names(&tiles),
        tile_names(missing)
    )
}

/// "the blank", "tile 3", "the blank and tiles 3, 5 and 7 to 9".
fn tile_names(tiles: &[u8]) -> String {
    let blank = tiles.first() == Some(&0);
    let numbered = &tiles[usize::from(blank)..];
    // Runs of three or more consecutive tiles are written "7 to 9".
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbered.len() {
        let mut j = i;
        while j + 1 < numbered.len() && numbered[j + 1] == numbered[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{} to {}", numbered[i], numbered[j]));
        } else {
            parts.extend(numbered[i..=j].iter().map(u8::to_string));
        }
        i = j + 1;
    }
    let plural = numbered.len() > 1;
    let numbers = match parts.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    };
    match (blank, numbered.is_empty()) {
        (true, true) => "the blank".to_string(),
        (true, false) => format!(
            "the blank and tile{} {numbers}",
            if plural { "s" } else { "" }
        ),
        (false, _) => format!("tile{} {numbers}", if plural { "s" } else { "" }),
    }
}

/// A position: which tile is in each cell, row by row, with 0 for the blank.
///
/// Boards are small and `Copy`; every board is a valid permutation of
/// `0..cells` for its shape.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    blank: u8,
    cells: [u8; MAX_CELLS],
}

impl Board {
    /// A board from its cells, row by row, 0 for the blank.
    pub fn new(shape: Shape, cells: &[u64]) -> Result<Board, BoardError> {
        let n = shape.cells();
        if cells.len() != n {
            return Err(BoardError::WrongCount {
                shape,
                expected: n,
                got: cells.len(),
            });
        }
        if let Some(&tile) = cells.iter().find(|&&t| t >= n as u64) {
            return Err(BoardError::OutOfRange {
                shape,
                tile,
                max: n - 1,
            });
        }
        let mut times = [0usize; MAX_CELLS];
        for &t in cells {
            times[t as usize] += 1;
        }
        if times[..n].iter().any(|&count| count > 1) {
            let tiles = (0..n as u8).zip(times);
            return Err(BoardError::Duplicate {
                repeated: tiles.clone().filter(|&(_, count)| count > 1).collect(),
                missing: tiles
                    .filter(|&(_, count)| count == 0)
                    .map(|(t, _)| t)
                    .collect(),
            });
        }
        let mut board = Board {
            shape,
            blank: 0,
            cells: [0; MAX_CELLS],
        };
        for (i, &t) in cells.iter().enumerate() {
            board.cells[i] = t as u8;
            if t == 0 {
                board.blank = i as u8;
            }
        }
        Ok(board)
    }

    /// The default goal: tiles in order, blank in the last cell.
    pub fn goal(shape: Shape) -> Board {
        Board::canonical_goal(shape, shape.cells() - 1)
    }

    /// The goal with the blank in `blank` and tiles 1, 2, … in order in the
    /// other cells. Every goal is one of these after relabelling its tiles.
    pub fn canonical_goal(shape: Shape, blank: usize) -> Board {
        let mut cells = [0u8; MAX_CELLS];
        let mut next = 1;
        for (i, cell) in cells.iter_mut().enumerate().take(shape.cells()) {
            if i != blank {
                *cell = next;
                next += 1;
            }
        }
        Board {
            shape,
            blank: blank as u8,
            cells,
        }
    }

    /// Builds a board without checking; `cells` must be a permutation of
    /// `0..shape.cells()` and `blank` the index of its 0.
    pub(crate) fn from_parts(shape: Shape, blank: usize, cells: [u8; MAX_CELLS]) -> Board {
        debug_assert_eq!(cells[blank], 0);
        Board {
            shape,
            blank: blank as u8,
            cells,
        }
    }

    /// The board's dimensions.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cell that holds the blank.
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// The cells, row by row, 0 for the blank.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.shape.cells()]
    }

    /// All [`MAX_CELLS`] cell slots; those beyond the board hold 0.
    pub(crate) fn padded_cells(&self) -> &[u8; MAX_CELLS] {
        &self.cells
    }

    /// The cell the blank moves to with `m`, or `None` at the board's edge.
    #[inline]
    pub fn target(&self, m: Move) -> Option<usize> {
        self.shape.next_cell(self.blank(), m)
    }

    /// The board after the blank moves, or `None` if it cannot move that way.
    pub fn apply(&self, m: Move) -> Option<Board> {
        let to = self.target(m)?;
        Some(self.slide_from(to))
    }

    /// Every board one move away, with the blank's move that reaches it, in
    /// the order of [`Move::ALL`].
    pub fn successors(&self) -> impl Iterator<Item = (Move, Board)> + '_ {
        Move::ALL
            .into_iter()
            .filter_map(move |m| Some((m, self.apply(m)?)))
    }

    /// The board after the tile in cell `to` (next to the blank) slides into it.
    #[inline]
    pub(crate) fn slide_from(&self, to: usize) -> Board {
        let mut next = *self;
        next.cells[self.blank()] = self.cells[to];
        next.cells[to] = 0;
        next.blank = to as u8;
        next
    }

    /// The tile that slides when the blank makes move `m`.
    pub fn tile_moved_by(&self, m: Move) -> Option<u8> {
        self.target(m).map(|to| self.cells[to])
    }

    /// Applies a whole sequence; `None` if a move runs into the edge.
    pub fn replay(&self, moves: &[Move]) -> Option<Board> {
        moves.iter().try_fold(*self, |b, &m| b.apply(m))
    }

    /// The board drawn as rows of tiles, blank as `_`, one row per line.
    pub fn grid(&self) -> String {
        let width = if self.shape.cells() > 10 { 2 } else { 1 };
        let mut out = String::new();
        for row in self.cells().chunks(self.shape.cols()) {
            let line: Vec<String> = row
                .iter()
                .map(|&t| match t {
                    0 => format!("{:>width$}", "_"),
                    t => format!("{t:>width$}"),
                })
                .collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

impl Board {
    /// Appends the board's text form (see `Display`) to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        let compact = self.shape.cells() <= 9;
        for (i, &t) in self.cells().iter().enumerate() {
            if !compact && i > 0 {
                out.push(b' ');
            }
            if t >= 10 {
                out.push(b'0' + t / 10);
            }
            out.push(b'0' + t % 10);
        }
    }
}

impl fmt::Display for Board {
    /// One digit per cell (`867254301`) for boards of up to nine cells;
    /// tiles separated by spaces beyond that (`1 2 3 4 5 6 7 8 9 10 11 0`),
    /// where tiles reach two digits (all but 2×5 and 5×2, which keep one
    /// form for every board above nine cells).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::with_capacity(2 * MAX_CELLS);
        self.write_to(&mut text);
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} {})", self.shape, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(cells: &[u64]) -> Board {
        Board::new(Shape::THREE_BY_THREE, cells).unwrap()
    }

    #[test]
    fn the_blank_moves_and_the_tile_slides_the_other_way() {
        // The convention of the README: [[1,2,3],[4,6,8],[7,5,0]] is solved by ULDR.
        let start = board(&[1, 2, 3, 4, 6, 8, 7, 5, 0]);
        let moves: Vec<Move> = "ULDR"
            .chars()
            .map(|c| Move::from_letter(c).unwrap())
            .collect();
        assert_eq!(
            start.replay(&moves),
            Some(Board::goal(Shape::THREE_BY_THREE))
        );
        assert_eq!(start.tile_moved_by(Move::Up), Some(8));
        assert_eq!(start.apply(Move::Down), None);
        assert_eq!(start.apply(Move::Right), None);
    }

    #[test]
    fn opposite_moves_undo_each_other() {
        let start = board(&[1, 2, 3, 4, 0, 5, 6, 7, 8]);
        for m in Move::ALL {
            assert_eq!(start.apply(m).unwrap().apply(m.opposite()), Some(start));
        }
    }

    #[test]
    fn successors_are_the_legal_moves_in_order() {
        let centre = board(&[1, 2, 3, 4, 0, 5, 6, 7, 8]);
        let corner = board(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        let moves = |b: &Board| b.successors().map(|(m, _)| m).collect::<Vec<_>>();
        assert_eq!(moves(&centre), Move::ALL);
        let legal: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| corner.apply(m).is_some())
            .collect();
        assert_eq!(moves(&corner), legal);
        assert_eq!(legal.len(), 2);
        for (m, child) in corner.successors() {
            assert_eq!(child.apply(m.opposite()), Some(corner));
        }
    }

    #[test]
    fn invalid_cells_are_named() {
        let s = Shape::THREE_BY_THREE;
        assert_eq!(
            Board::new(s, &[1, 2, 3]).unwrap_err().to_string(),
            "expected 9 tiles for a 3x3 board (the blank included), got 3"
        );
        assert_eq!(
            Board::new(s, &[1, 2, 3, 5, 5, 6, 7, 8, 0])
                .unwrap_err()
                .to_string(),
            "tile 5 appears twice (so tile 4 is missing)"
        );
        assert_eq!(
            Board::new(s, &[1, 2, 3, 4, 12, 6, 7, 8, 0])
                .unwrap_err()
                .to_string(),
            "tile 12 is out of range for a 3x3 board (tiles are 1 to 8, and 0 is the blank)"
        );
        assert_eq!(
            Board::new(s, &[1, 2, 3, 4, 0, 6, 7, 8, 0])
                .unwrap_err()
                .to_string(),
            "the blank appears twice (so tile 5 is missing)"
        );
        let every = |cells: &[u64]| Board::new(s, cells).unwrap_err().to_string();
        assert_eq!(
            every(&[1, 1, 2, 2, 3, 3, 4, 4, 0]),
            "tiles 1 to 4 appear twice (so tiles 5 to 8 are missing)"
        );
        assert_eq!(
            every(&[0; 9]),
            "the blank appears 9 times (so tiles 1 to 8 are missing)"
        );
        assert_eq!(
            every(&[1, 1, 1, 2, 2, 3, 4, 5, 6]),
            "tiles 1 and 2 appear more than once (so the blank and tiles 7 and 8 are missing)"
        );
        assert_eq!(
            every(&[1, 2, 3, 4, 5, 6, 7, 7, 7]),
            "tile 7 appears 3 times (so the blank and tile 8 are missing)"
        );
    }

    #[test]
    fn boards_up_to_six_by_six_print_two_digit_tiles() {
        let s: Shape = "6x6".parse().unwrap();
        let goal = Board::goal(s);
        let text = goal.to_string();
        assert!(text.starts_with("1 2 3 4 5 6 7 8 9 10 11 "), "{text}");
        assert!(text.ends_with(" 29 30 31 32 33 34 35 0"), "{text}");
        assert!(
            goal.grid().ends_with("31 32 33 34 35  _\n"),
            "{}",
            goal.grid()
        );
        let up = goal.apply(Move::Up).unwrap();
        assert_eq!(up.tile_moved_by(Move::Down), Some(30));
        assert_eq!(up.blank(), 29);
        let err = Board::new(s, &[36; 36]).unwrap_err().to_string();
        assert!(err.contains("tiles are 1 to 35"), "{err}");
    }

    #[test]
    fn canonical_goals_put_tiles_in_order_around_the_blank() {
        let g = Board::canonical_goal(Shape::THREE_BY_THREE, 4);
        assert_eq!(g.to_string(), "123405678");
        assert_eq!(g.grid(), "1 2 3\n4 _ 5\n6 7 8\n");
        assert_eq!(Board::goal(Shape::THREE_BY_THREE).to_string(), "123456780");
    }
}
