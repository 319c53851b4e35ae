//! Which positions can reach which goals.
//!
//! Read the tiles row by row, skipping the blank, with each tile numbered by
//! its place in the goal. A horizontal move of the blank leaves that sequence
//! as it is. A vertical move carries one tile past `cols - 1` others, which
//! changes the number of inversions by an odd amount on boards of even width
//! and by an even amount on boards of odd width. So:
//!
//! * odd width: the parity of the inversions never changes;
//! * even width: the parity of inversions + the blank's row never changes.
//!
//! Half of all arrangements satisfy the invariant of a goal, and every one of
//! them can reach it; the other half can never reach it.

use crate::puzzle::board::Board;
use crate::puzzle::relabel::Relabelling;
use crate::puzzle::shape::Shape;
use std::fmt;

/// The parity (0 or 1) the inversion count must have, relative to a goal with
/// the blank in `goal_blank`, for a position with the blank in `blank`.
pub fn required_parity(shape: Shape, blank: usize, goal_blank: usize) -> u32 {
    if shape.cols() % 2 == 1 {
        0
    } else {
        ((shape.row_of(blank) + shape.row_of(goal_blank)) % 2) as u32
    }
}

/// Number of pairs of tiles (the blank left out) that stand in the opposite
/// order to their order in the goal, for a board already relabelled so that
/// the goal's tiles read 1, 2, 3, … row by row.
pub fn inversions(relabelled: &Board) -> u32 {
    let tiles: Vec<u8> = relabelled
        .cells()
        .iter()
        .copied()
        .filter(|&t| t != 0)
        .collect();
    let mut count = 0;
    for (i, &a) in tiles.iter().enumerate() {
        count += tiles[i + 1..].iter().filter(|&&b| b < a).count() as u32;
    }
    count
}

/// A start that can never reach its goal, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsolvable {
    shape: Shape,
    inversions: u32,
    blank_row: usize,
    goal_blank_row: usize,
    /// The inversions of the start and of the goal each counted in tile
    /// order, as a course counts them, where the boards were at hand.
    plain: Option<(u32, u32)>,
}

impl Unsolvable {
    /// Checks a (start, goal) pair of the same shape. The inversion count is
    /// relative to the goal; `inversions` must be that count for `start`.
    pub(crate) fn check(
        shape: Shape,
        inversions: u32,
        blank: usize,
        goal_blank: usize,
    ) -> Result<(), Unsolvable> {
        if inversions % 2 == required_parity(shape, blank, goal_blank) {
            Ok(())
        } else {
            Err(Unsolvable {
                shape,
                inversions,
                blank_row: shape.row_of(blank),
                goal_blank_row: shape.row_of(goal_blank),
                plain: None,
            })
        }
    }

    /// The reason with each board's inversions counted in tile order too:
    /// how a student counts them, whose two counts then differ in parity
    /// (with the blank's row on boards of even width).
    pub fn with_plain_counts(self, start: &Board, goal: &Board) -> Unsolvable {
        Unsolvable {
            plain: Some((inversions(start), inversions(goal))),
            ..self
        }
    }
}

/// "1 tile inversion", "3 tile inversions".
fn inversions_in_words(count: u32) -> String {
    match count {
        1 => "1 tile inversion".to_string(),
        n => format!("{n} tile inversions"),
    }
}

impl fmt::Display for Unsolvable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.shape.cols() % 2 == 1 {
            write!(
                f,
                "the start has {} relative to the goal, an odd number; \
                 on a board of odd width ({} columns) every move keeps that parity, and the goal has 0",
                inversions_in_words(self.inversions),
                self.shape.cols()
            )?;
            if let Some((start, goal)) = self.plain {
                write!(
                    f,
                    " (counted in tile order, the start has {start} and the goal {goal}: one \
                     even, one odd)"
                )?;
            }
        } else {
            let rows = self.blank_row.abs_diff(self.goal_blank_row);
            write!(
                f,
                "the start has {} relative to the goal and its blank is {} row{} from the goal's; \
                 their sum is odd, and on a board of even width ({} columns) every move keeps that sum's parity, which is 0 at the goal",
                inversions_in_words(self.inversions),
                rows,
                if rows == 1 { "" } else { "s" },
                self.shape.cols()
            )?;
            if let Some((start, goal)) = self.plain {
                // Rows counted from 1 at the top, as a course numbers them.
                let (row, goal_row) = (self.blank_row + 1, self.goal_blank_row + 1);
                write!(
                    f,
                    " (counted in tile order, the start has {start} with its blank in row {row} \
                     and the goal {goal} with its blank in row {goal_row}: sums of {} and {}, \
                     one even, one odd)",
                    start as usize + row,
                    goal as usize + goal_row
                )?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for Unsolvable {}

/// Whether `start` can reach `goal` (boards of the same shape), by the
/// invariant above, computed directly. Databases reach the same verdict as a
/// by-product of ranking.
pub fn check(start: &Board, goal: &Board) -> Result<(), Unsolvable> {
    let relabelled = Relabelling::to_canonical(goal).apply(start);
    Unsolvable::check(
        start.shape(),
        inversions(&relabelled),
        start.blank(),
        goal.blank(),
    )
    .map_err(|why| why.with_plain_counts(start, goal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse::{board3, parse_board};

    #[test]
    fn the_textbook_pairs_and_a_swapped_goal_are_judged_by_parity() {
        let goal = board3("123804765");
        let b = board3;
        assert!(check(&b("216408753"), &goal).is_ok());
        assert!(check(&b("283104765"), &goal).is_ok());
        let err = check(&b("234150768"), &goal).unwrap_err();
        assert!(err.to_string().contains("odd number"), "{err}");
        // As a course counts them, tile by tile: 2 3 4 1 5 7 6 8 has 4
        // inversions (2, 3, 4 before 1; 7 before 6), 1 2 3 8 4 7 6 5 has 7.
        assert!(
            err.to_string().ends_with(
                "(counted in tile order, the start has 4 and the goal 7: one even, one odd)"
            ),
            "{err}"
        );
        // Swapping two tiles of the goal is the classic unsolvable position.
        assert!(check(&b("213456780"), &b("123456780")).is_err());
    }

    #[test]
    fn even_width_counts_the_blank_row() {
        let s: Shape = "2x2".parse().unwrap();
        let goal = Board::goal(s); // 12/30
        let b = |t| parse_board(t, s).unwrap();
        assert!(check(&b("1032"), &goal).is_ok()); // one move up from the goal
        assert!(check(&b("2130"), &goal).is_err());
        let reason = check(&b("0123"), &goal).unwrap_err().to_string();
        assert!(reason.contains("1 row from the goal's"), "{reason}");
        // 1 2 3 has no inversion, its blank in row 1; the goal's in row 2.
        assert!(
            reason.ends_with("the start has 0 with its blank in row 1 and the goal 0 with its blank in row 2: sums of 1 and 2, one even, one odd)"),
            "{reason}"
        );
    }
}
