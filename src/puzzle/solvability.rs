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
    parity_for_rows(shape, shape.row_of(blank), shape.row_of(goal_blank))
}

/// [`required_parity`] for blanks in rows `blank_row` and `goal_blank_row`.
fn parity_for_rows(shape: Shape, blank_row: usize, goal_blank_row: usize) -> u32 {
    if shape.cols() % 2 == 1 {
        0
    } else {
        ((blank_row + goal_blank_row) % 2) as u32
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
        let numbers = Numbers {
            shape: self.shape,
            inversions: self.inversions,
            blank_row: self.blank_row,
            goal_blank_row: self.goal_blank_row,
        };
        numbers.explain(f, self.plain)
    }
}

/// What the parity test rests on for a pair: the start's inversions
/// relative to the goal, and the rows of the two blanks (0 at the top).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Numbers {
    shape: Shape,
    inversions: u32,
    blank_row: usize,
    goal_blank_row: usize,
}

impl Numbers {
    /// Whether the invariant holds: the start can reach the goal.
    fn solvable(&self) -> bool {
        self.inversions % 2 == parity_for_rows(self.shape, self.blank_row, self.goal_blank_row)
    }

    /// The verdict in words, with each board's inversions counted in tile
    /// order too where they are given (`plain`: the start's, the goal's).
    fn explain(&self, f: &mut fmt::Formatter<'_>, plain: Option<(u32, u32)>) -> fmt::Result {
        let (parity, kept) = match self.solvable() {
            true => ("even", "both even, or both odd"),
            false => ("odd", "one even, one odd"),
        };
        let inversions = inversions_in_words(self.inversions);
        let cols = self.shape.cols();
        if cols % 2 == 1 {
            write!(
                f,
                "the start has {inversions} relative to the goal, an {parity} number; on a board \
                 of odd width ({cols} columns) every move keeps that parity, and the goal has 0 \
                 relative to itself"
            )?;
            if let Some((start, goal)) = plain {
                let kept = match (start + goal) % 2 {
                    0 => ["both even", "both odd"][start as usize % 2],
                    _ => kept,
                };
                write!(
                    f,
                    " (counted in tile order instead, the start has {start} and the goal {goal}: {kept})"
                )?;
            }
            return Ok(());
        }
        let rows = self.blank_row.abs_diff(self.goal_blank_row);
        write!(
            f,
            "the start has {inversions} relative to the goal and its blank is {rows} row{} from \
             the goal's; their sum is {parity}, and on a board of even width ({cols} columns) \
             every move keeps that sum's parity, which is 0 at the goal",
            if rows == 1 { "" } else { "s" },
        )?;
        if let Some((start, goal)) = plain {
            // Rows counted from 1 at the top, as a course numbers them.
            let (row, goal_row) = (self.blank_row + 1, self.goal_blank_row + 1);
            let sums = (start as usize + row, goal as usize + goal_row);
            let kept = match (sums.0 + sums.1) % 2 {
                0 => ["both even", "both odd"][sums.0 % 2],
                _ => kept,
            };
            write!(
                f,
                " (counted in tile order instead, the start has {start} with its blank in row {row} \
                 and the goal {goal} with its blank in row {goal_row}: sums of {} and {}, {kept})",
                sums.0, sums.1
            )?;
        }
        Ok(())
    }
}

/// The parity test for a pair, solvable or not, with the numbers it rests
/// on: its text explains the verdict either way (`query solvable`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parity {
    numbers: Numbers,
    /// The inversions of the start and of the goal counted in tile order.
    plain: (u32, u32),
}

impl Parity {
    /// The test for `start` toward `goal` (boards of the same shape).
    pub fn of(start: &Board, goal: &Board) -> Parity {
        let relabelled = Relabelling::to_canonical(goal).apply(start);
        let shape = start.shape();
        Parity {
            numbers: Numbers {
                shape,
                inversions: inversions(&relabelled),
                blank_row: shape.row_of(start.blank()),
                goal_blank_row: shape.row_of(goal.blank()),
            },
            plain: (inversions(start), inversions(goal)),
        }
    }

    /// Whether the start can reach the goal.
    pub fn solvable(&self) -> bool {
        self.numbers.solvable()
    }

    /// The start's tile inversions relative to the goal (its tiles numbered
    /// by their places in the goal).
    pub fn inversions(&self) -> u32 {
        self.numbers.inversions
    }

    /// The inversions of the start and of the goal, each counted in tile
    /// order, as a course counts them.
    pub fn tile_order_inversions(&self) -> (u32, u32) {
        self.plain
    }

    /// The rows of the start's blank and of the goal's, from 1 at the top.
    pub fn blank_rows(&self) -> (usize, usize) {
        (self.numbers.blank_row + 1, self.numbers.goal_blank_row + 1)
    }
}

impl fmt::Display for Parity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.numbers.explain(f, Some(self.plain))
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
                "(counted in tile order instead, the start has 4 and the goal 7: one even, one odd)"
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

    /// The test explains either verdict; its verdict is the reachability
    /// a breadth-first search from the goal finds, on every 2x3 and 3x2
    /// arrangement; unsolvable, its text is the error's.
    #[test]
    fn the_parity_test_says_why_either_way() {
        for shape in ["2x3", "3x2", "2x2"] {
            let shape: Shape = shape.parse().unwrap();
            let goal = Board::goal(shape);
            let mut reached = std::collections::HashSet::from([goal]);
            let mut layer = vec![goal];
            while !layer.is_empty() {
                let next: Vec<Board> = (layer.iter().flat_map(|b| b.successors()))
                    .map(|(_, n)| n)
                    .filter(|n| reached.insert(*n))
                    .collect();
                layer = next;
            }
            // Every arrangement, by the permutations of the cells' tiles.
            let mut all: Vec<Vec<u64>> = vec![vec![]];
            for _ in 0..shape.cells() {
                all = (all.iter())
                    .flat_map(|p| {
                        (0..shape.cells() as u64)
                            .filter(|t| !p.contains(t))
                            .map(|t| [&p[..], &[t]].concat())
                    })
                    .collect();
            }
            for cells in &all {
                let start = Board::new(shape, cells).unwrap();
                let parity = Parity::of(&start, &goal);
                assert_eq!(parity.solvable(), reached.contains(&start), "{start}");
                match check(&start, &goal) {
                    Ok(()) => assert!(parity.solvable()),
                    Err(why) => assert_eq!(why.to_string(), parity.to_string()),
                }
            }
            // Half of them, as the module says.
            assert_eq!(all.len(), 2 * reached.len());
        }
        let goal = board3("123456780");
        // 8 6 7 2 5 4 3 1: 7 + 5 + 5 + 1 + 3 + 2 + 1 = 24 pairs out of order.
        let parity = Parity::of(&board3("867254301"), &goal);
        assert!(parity.solvable());
        assert_eq!(
            parity.to_string(),
            "the start has 24 tile inversions relative to the goal, an even number; on a board \
             of odd width (3 columns) every move keeps that parity, and the goal has 0 relative \
             to itself (counted in tile order instead, the start has 24 and the goal 0: both \
             even)"
        );
        assert_eq!(
            (parity.inversions(), parity.tile_order_inversions()),
            (24, (24, 0))
        );
        assert_eq!(parity.blank_rows(), (3, 3));
    }
}
