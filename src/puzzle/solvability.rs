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
            })
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
            )
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
            )
        }
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
    }
}
