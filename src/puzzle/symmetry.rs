//! The symmetries of a rectangular board, and the classes of cells they relate.
//!
//! Reflecting or rotating a board changes neither distances nor the shape of
//! a solution: a move made in the original board becomes the mapped move in
//! the reflected one. So a goal whose blank sits in some cell is answered by
//! the table of any cell its symmetries reach, and one table per class of
//! cells is enough. Every board has four symmetries (identity, upside down,
//! mirror, half turn); square boards have four more (the two diagonal
//! reflections and the two quarter turns).

use crate::puzzle::board::{Board, Move};
use crate::puzzle::shape::{Shape, MAX_CELLS};

/// One symmetry of a board's shape: where each cell goes, and which way each
/// of the blank's moves points afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    shape: Shape,
    /// `cells[i]` is the image of cell `i`; slots beyond the board map to themselves.
    cells: [u8; MAX_CELLS],
    /// Indexed by [`Move::code`]: the image of each move.
    moves: [Move; 4],
}

/// A symmetry as geometry: optionally transpose (row, col), then optionally
/// reverse the rows and the columns. The eight combinations are the eight
/// symmetries of a square; those without `transpose` are the four of any
/// rectangle.
#[derive(Clone, Copy)]
struct Geometry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Geometry {
    /// The order of [`Symmetry::all`]: identity, upside down, mirror, half
    /// turn; then transpose, anti-transpose, quarter turn clockwise, quarter
    /// turn anticlockwise.
    const ALL: [Geometry; 8] = [
        Geometry::new(false, false, false),
        Geometry::new(false, true, false),
        Geometry::new(false, false, true),
        Geometry::new(false, true, true),
        Geometry::new(true, false, false),
        Geometry::new(true, true, true),
        Geometry::new(true, false, true),
        Geometry::new(true, true, false),
    ];

    const fn new(transpose: bool, flip_rows: bool, flip_cols: bool) -> Geometry {
        Geometry {
            transpose,
            flip_rows,
            flip_cols,
        }
    }

    /// The image of a cell of `shape`. Transposing needs a square board, so
    /// that the image has the same shape.
    fn cell(self, shape: Shape, cell: usize) -> usize {
        let (mut row, mut col) = (shape.row_of(cell), shape.col_of(cell));
        if self.transpose {
            (row, col) = (col, row);
        }
        if self.flip_rows {
            row = shape.rows() - 1 - row;
        }
        if self.flip_cols {
            col = shape.cols() - 1 - col;
        }
        row * shape.cols() + col
    }

    /// The image of a move: its direction transformed like a difference of
    /// cells (swapped by a transpose, negated by a flip; the shifts cancel).
    fn direction(self, m: Move) -> Move {
        let (mut rows, mut cols) = step(m);
        if self.transpose {
            (rows, cols) = (cols, rows);
        }
        if self.flip_rows {
            rows = -rows;
        }
        if self.flip_cols {
            cols = -cols;
        }
        from_step(rows, cols)
    }
}

/// How far the blank moves in rows and columns.
fn step(m: Move) -> (i8, i8) {
    match m {
        Move::Up => (-1, 0),
        Move::Down => (1, 0),
        Move::Left => (0, -1),
        Move::Right => (0, 1),
    }
}

/// The move taking the blank one step by `(rows, cols)`, a unit step.
fn from_step(rows: i8, cols: i8) -> Move {
    match (rows, cols) {
        (-1, 0) => Move::Up,
        (1, 0) => Move::Down,
        (0, -1) => Move::Left,
        (0, 1) => Move::Right,
        _ => unreachable!("a symmetry maps unit steps to unit steps"),
    }
}

impl Symmetry {
    fn from_geometry(shape: Shape, geometry: Geometry) -> Symmetry {
        debug_assert!(!geometry.transpose || shape.rows() == shape.cols());
        let mut cells = std::array::from_fn(|i| i as u8);
        for (i, image) in cells.iter_mut().enumerate().take(shape.cells()) {
            *image = geometry.cell(shape, i) as u8;
        }
        let moves = Move::ALL.map(|m| geometry.direction(m));
        Symmetry {
            shape,
            cells,
            moves,
        }
    }

    /// The symmetry that moves nothing.
    pub fn identity(shape: Shape) -> Symmetry {
        Symmetry::from_geometry(shape, Geometry::ALL[0])
    }

    /// Every symmetry of `shape`, the identity first: 4 for a rectangle
    /// (identity, upside down, mirror, half turn), 8 for a square (then
    /// transpose, anti-transpose, quarter turn clockwise and anticlockwise).
    pub fn all(shape: Shape) -> Vec<Symmetry> {
        let count = if shape.rows() == shape.cols() { 8 } else { 4 };
        Geometry::ALL[..count]
            .iter()
            .map(|&g| Symmetry::from_geometry(shape, g))
            .collect()
    }

    /// The first symmetry in [`Symmetry::all`] order that takes cell `from`
    /// to cell `to`, or `None` when the two are in different classes.
    pub fn mapping(shape: Shape, from: usize, to: usize) -> Option<Symmetry> {
        Symmetry::all(shape)
            .into_iter()
            .find(|s| s.cell(from) == to)
    }

    /// The shape this symmetry belongs to.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cell that cell `cell` goes to.
    pub fn cell(&self, cell: usize) -> usize {
        self.cells[cell] as usize
    }

    /// The move in the transformed board that corresponds to the blank's
    /// move `m` in the original board.
    pub fn apply_move(&self, m: Move) -> Move {
        self.moves[m.code() as usize]
    }

    /// The board with each cell's content moved to its image; tiles keep
    /// their labels.
    ///
    /// # Panics
    ///
    /// If the board's shape is not the symmetry's.
    pub fn apply(&self, board: &Board) -> Board {
        assert_eq!(board.shape(), self.shape, "a symmetry of another shape");
        let mut cells = [0u8; MAX_CELLS];
        for (i, &tile) in board.cells().iter().enumerate() {
            cells[self.cell(i)] = tile;
        }
        Board::from_parts(self.shape, self.cell(board.blank()), cells)
    }

    /// The symmetry that undoes this one.
    pub fn inverse(&self) -> Symmetry {
        let mut cells = [0u8; MAX_CELLS];
        for (i, &image) in self.cells.iter().enumerate() {
            cells[image as usize] = i as u8;
        }
        let mut moves = Move::ALL;
        for m in Move::ALL {
            moves[self.apply_move(m).code() as usize] = m;
        }
        Symmetry {
            shape: self.shape,
            cells,
            moves,
        }
    }
}

/// The classes of cells that symmetries relate (the orbits of the cells),
/// each in increasing order, the classes ordered by their first cell.
/// A 3×3 board has three: corners, edges and the centre.
pub fn classes(shape: Shape) -> Vec<Vec<usize>> {
    let symmetries = Symmetry::all(shape);
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for cell in 0..shape.cells() {
        if classes.iter().any(|class| class.contains(&cell)) {
            continue;
        }
        let mut class: Vec<usize> = symmetries.iter().map(|s| s.cell(cell)).collect();
        class.sort_unstable();
        class.dedup();
        classes.push(class);
    }
    classes
}

/// The cell that stands for `cell`'s class: its highest-numbered cell, so
/// that the default goal's blank (the last cell) stands for its own class.
pub fn representative(shape: Shape, cell: usize) -> usize {
    Symmetry::all(shape)
        .iter()
        .map(|s| s.cell(cell))
        .max()
        .unwrap_or(cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every supported shape of 4 to 12 cells, both orientations.
    fn shapes() -> Vec<Shape> {
        [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (2, 5),
            (5, 2),
            (3, 3),
            (2, 6),
            (6, 2),
            (3, 4),
            (4, 3),
            (4, 4),
            (4, 5),
            (5, 4),
            (5, 5),
            (3, 6),
            (6, 6),
        ]
        .iter()
        .map(|&(r, c)| Shape::new(r, c).unwrap())
        .collect()
    }

    /// Boards with the blank in every cell and the tiles scattered, so that
    /// a misplaced tile shows.
    fn boards(shape: Shape) -> Vec<Board> {
        let n = shape.cells();
        (0..n)
            .map(|blank| {
                // Tile k goes 7k cells after the blank; 7 is coprime to
                // every cell count here, so every cell gets one tile.
                let mut cells = vec![0u64; n];
                for k in 1..n {
                    cells[(blank + 7 * k) % n] = k as u64;
                }
                Board::new(shape, &cells).unwrap()
            })
            .collect()
    }

    fn adjacent(shape: Shape, a: usize, b: usize) -> bool {
        shape.steps_between(a, b) == 1
    }

    #[test]
    fn squares_have_eight_symmetries_and_rectangles_four() {
        for shape in shapes() {
            let all = Symmetry::all(shape);
            let expected = if shape.rows() == shape.cols() { 8 } else { 4 };
            assert_eq!(all.len(), expected, "{shape}");
            assert_eq!(all[0], Symmetry::identity(shape), "{shape}");
            for (i, s) in all.iter().enumerate() {
                assert!(!all[..i].contains(s), "{shape}: repeated symmetry {s:?}");
            }
        }
    }

    #[test]
    fn symmetries_are_permutations_undone_by_their_inverse() {
        for shape in shapes() {
            for s in Symmetry::all(shape) {
                let mut images: Vec<usize> = (0..shape.cells()).map(|i| s.cell(i)).collect();
                images.sort_unstable();
                assert_eq!(images, (0..shape.cells()).collect::<Vec<_>>(), "{s:?}");

                let inverse = s.inverse();
                for i in 0..shape.cells() {
                    assert_eq!(inverse.cell(s.cell(i)), i, "{s:?}");
                }
                for m in Move::ALL {
                    assert_eq!(inverse.apply_move(s.apply_move(m)), m, "{s:?}");
                }
                for board in boards(shape) {
                    assert_eq!(inverse.apply(&s.apply(&board)), board, "{s:?}");
                }
            }
        }
    }

    #[test]
    fn symmetries_keep_neighbours_neighbours() {
        for shape in shapes() {
            for s in Symmetry::all(shape) {
                for a in 0..shape.cells() {
                    for b in 0..shape.cells() {
                        assert_eq!(
                            adjacent(shape, a, b),
                            adjacent(shape, s.cell(a), s.cell(b)),
                            "{s:?}: cells {a} and {b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn moves_map_to_the_mapped_moves() {
        for shape in shapes() {
            for s in Symmetry::all(shape) {
                for board in boards(shape) {
                    let image = s.apply(&board);
                    assert_eq!(image.blank(), s.cell(board.blank()));
                    for m in Move::ALL {
                        let mapped = s.apply_move(m);
                        match board.apply(m) {
                            Some(next) => {
                                assert_eq!(
                                    image.apply(mapped),
                                    Some(s.apply(&next)),
                                    "{s:?}: {board:?} then {m:?}"
                                );
                            }
                            None => {
                                assert_eq!(image.apply(mapped), None, "{s:?}: {board:?} {m:?}")
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn named_symmetries_move_the_corner_where_expected() {
        // On a 3x3 board cell 0 (top left) goes to: itself, bottom left,
        // top right, bottom right; itself, bottom right, top right, bottom left.
        let images: Vec<usize> = Symmetry::all(Shape::THREE_BY_THREE)
            .iter()
            .map(|s| s.cell(0))
            .collect();
        assert_eq!(images, [0, 6, 2, 8, 0, 8, 2, 6]);
        // The clockwise quarter turn takes the blank's Up to Right.
        let quarter = Symmetry::all(Shape::THREE_BY_THREE)[6];
        assert_eq!(quarter.apply_move(Move::Up), Move::Right);
        assert_eq!(quarter.cell(1), 5);
    }

    #[test]
    fn every_board_has_its_published_number_of_cell_classes() {
        let expected = [
            ("2x2", 1),
            ("2x3", 2),
            ("3x2", 2),
            ("2x4", 2),
            ("4x2", 2),
            ("2x5", 3),
            ("5x2", 3),
            ("3x3", 3),
            ("2x6", 3),
            ("6x2", 3),
            ("3x4", 4),
            ("4x3", 4),
            // Past complete tables: ⌈r/2⌉·⌈c/2⌉ classes on a rectangle, and
            // m(m+1)/2 with m = ⌈n/2⌉ on an n×n square.
            ("4x4", 3),
            ("4x5", 6),
            ("5x4", 6),
            ("3x6", 6),
            ("5x5", 6),
            ("6x6", 6),
        ];
        for (text, count) in expected {
            let shape: Shape = text.parse().unwrap();
            let classes = classes(shape);
            assert_eq!(classes.len(), count, "{shape}: {classes:?}");
            let mut all: Vec<usize> = classes.concat();
            all.sort_unstable();
            assert_eq!(all, (0..shape.cells()).collect::<Vec<_>>(), "{shape}");
        }
        assert_eq!(
            classes(Shape::THREE_BY_THREE),
            [vec![0, 2, 6, 8], vec![1, 3, 5, 7], vec![4]]
        );
    }

    #[test]
    fn representatives_are_the_highest_cell_of_their_class() {
        for shape in shapes() {
            let last = shape.cells() - 1;
            assert_eq!(representative(shape, last), last, "{shape}");
            for class in classes(shape) {
                let highest = *class.last().unwrap();
                for &cell in &class {
                    assert_eq!(representative(shape, cell), highest, "{shape}: {cell}");
                    let s = Symmetry::mapping(shape, cell, highest).unwrap();
                    assert_eq!(s.cell(cell), highest);
                }
            }
        }
    }

    #[test]
    fn mapping_finds_the_first_symmetry_or_none() {
        let shape = Shape::THREE_BY_THREE;
        assert_eq!(
            Symmetry::mapping(shape, 4, 4),
            Some(Symmetry::identity(shape))
        );
        assert_eq!(Symmetry::mapping(shape, 0, 4), None);
        assert_eq!(
            Symmetry::mapping(shape, 1, 3),
            Some(Symmetry::all(shape)[4])
        );
        let two_by_four: Shape = "2x4".parse().unwrap();
        assert_eq!(Symmetry::mapping(two_by_four, 0, 1), None);
        assert_eq!(
            Symmetry::mapping(two_by_four, 0, 7),
            Some(Symmetry::all(two_by_four)[3])
        );
    }
}
