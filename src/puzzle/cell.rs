//! Cells of a board as people name them: row and column counted from 1,
//! written `"row,column"` in every text, JSON and CSV output.

use crate::puzzle::shape::Shape;
use serde::{Serialize, Serializer};
use std::fmt;

/// One cell of a board: its row and column, counted from 1 when shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    row: u8,
    col: u8,
}

impl Cell {
    /// The cell with 0-based index `index` (row by row) on `shape`.
    pub fn of(shape: Shape, index: usize) -> Cell {
        Cell {
            row: shape.row_of(index) as u8,
            col: shape.col_of(index) as u8,
        }
    }

    /// The cell's 0-based index (row by row) on `shape`.
    pub fn index(self, shape: Shape) -> usize {
        self.row as usize * shape.cols() + self.col as usize
    }

    /// The row, counted from 1.
    pub fn row(self) -> usize {
        self.row as usize + 1
    }

    /// The column, counted from 1.
    pub fn col(self) -> usize {
        self.col as usize + 1
    }

    /// `row 2, column 3`, for sentences.
    pub fn name(self) -> String {
        format!("row {}, column {}", self.row(), self.col())
    }
}

/// `2,3`: row, then column, counted from 1.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.row(), self.col())
    }
}

/// As its text, `"2,3"`, like every other cell the tool writes.
impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A set of cells of one board, small enough to keep in an error: one bit
/// per cell index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cells {
    mask: u64,
    cols: u8,
}

impl Cells {
    /// The cells of `shape` with these 0-based indexes.
    pub fn of(shape: Shape, indexes: impl IntoIterator<Item = usize>) -> Cells {
        let mask = indexes.into_iter().fold(0, |m, i| m | 1 << i);
        Cells {
            mask,
            cols: shape.cols() as u8,
        }
    }

    /// The cells, in row-by-row order.
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        let cols = self.cols.max(1);
        (0..64)
            .filter(move |&i| self.mask >> i & 1 == 1)
            .map(move |i| Cell {
                row: i / cols,
                col: i % cols,
            })
    }

    /// Whether the set holds the cell with 0-based index `index`.
    pub fn contains_index(self, index: usize) -> bool {
        index < 64 && self.mask >> index & 1 == 1
    }
}

/// `3,3 2,3 2,2`: the cells, space separated.
impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for cell in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{cell}")?;
        }
        Ok(())
    }
}

/// As a list of cells: `["3,3", "2,3"]`.
impl Serialize for Cells {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_as_row_and_column_from_one() {
        let shape: Shape = "3x4".parse().unwrap();
        let cell = Cell::of(shape, 6);
        assert_eq!((cell.row(), cell.col()), (2, 3));
        assert_eq!(cell.to_string(), "2,3");
        assert_eq!(cell.name(), "row 2, column 3");
        assert_eq!(cell.index(shape), 6);
        assert_eq!(serde_json::to_string(&cell).unwrap(), "\"2,3\"");
        let set = Cells::of(shape, [11, 0, 6]);
        assert_eq!(set.to_string(), "1,1 2,3 3,4");
        assert!(set.contains_index(11) && !set.contains_index(1));
        assert_eq!(
            serde_json::to_string(&set).unwrap(),
            r#"["1,1","2,3","3,4"]"#
        );
    }
}
