//! The classic sliding-tile heuristics and what they say about a position:
//! A* and IDA* return shortest solutions only when a heuristic is
//! *admissible* (never above the true distance), and A* never needs to
//! reopen a position when it is also *consistent* (one move changes it by at
//! most 1). The analyses measure them against exact distances; the bounded
//! searches steer by linear conflicts.
//!
//! ```
//! use npuzzle::analysis::{Evaluator, Heuristic};
//! use npuzzle::{parse_board, Board, Shape};
//!
//! let shape = Shape::THREE_BY_THREE;
//! let eval = Evaluator::new(&Board::goal(shape));
//! let board = parse_board("867254301", shape)?;
//! assert_eq!(eval.h(Heuristic::Misplaced, &board), 7);
//! assert_eq!(eval.h(Heuristic::Manhattan, &board), 21);
//! assert_eq!(eval.h(Heuristic::LinearConflict, &board), 23);
//! assert_eq!(eval.h(Heuristic::ManhattanWithBlank, &board), 22);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::puzzle::board::Board;
use crate::puzzle::shape::{Shape, MAX_CELLS, TILE_SLOTS};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// One of the classic estimates of the moves left to reach a goal.
///
/// [`Misplaced`](Heuristic::Misplaced), [`Manhattan`](Heuristic::Manhattan)
/// and [`LinearConflict`](Heuristic::LinearConflict) are admissible (never
/// above the true distance) and consistent (one move changes them by at most
/// 1), each at least as large as the one before it.
/// [`ManhattanWithBlank`](Heuristic::ManhattanWithBlank) is **not**
/// admissible: it is a common mistake in course code, kept here so that
/// the analyses' survey (`analysis::survey`) can show what it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Heuristic {
    /// Tiles not on their goal cell, the blank not counted. Every such tile
    /// must move at least once.
    #[serde(rename = "misplaced")]
    Misplaced,
    /// Sum over the tiles (the blank not counted) of the rows plus columns
    /// between each tile's cell and its goal cell. A move moves one tile by
    /// one cell.
    #[serde(rename = "manhattan")]
    Manhattan,
    /// Manhattan plus 2 for every tile that must leave its line and come
    /// back (Hansson, Mayer and Yung, 1992): in each row, among the tiles
    /// whose goal is in that row, the fewest to remove so that the rest
    /// stand in their goal order, and the same for each column. Two tiles in
    /// their goal row but in reversed order cannot pass each other without
    /// one of them leaving the row, which costs two vertical moves that
    /// Manhattan does not count.
    #[serde(rename = "linear-conflict")]
    LinearConflict,
    /// Manhattan with the blank's distance to its goal cell added. Not
    /// admissible: one move from the goal it says 2, since the blank and
    /// the tile both moved, yet one move undoes both.
    #[serde(rename = "manhattan+blank")]
    ManhattanWithBlank,
}

impl Heuristic {
    /// All four, admissible ones first, each admissible one at least as
    /// large as the one before.
    pub const ALL: [Heuristic; 4] = [
        Heuristic::Misplaced,
        Heuristic::Manhattan,
        Heuristic::LinearConflict,
        Heuristic::ManhattanWithBlank,
    ];

    /// The name used in output and accepted by [`FromStr`]: `misplaced`,
    /// `manhattan`, `linear-conflict` or `manhattan+blank`.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Misplaced => "misplaced",
            Heuristic::Manhattan => "manhattan",
            Heuristic::LinearConflict => "linear-conflict",
            Heuristic::ManhattanWithBlank => "manhattan+blank",
        }
    }

    /// Whether the heuristic never overestimates the distance to the goal.
    pub fn is_admissible(self) -> bool {
        self != Heuristic::ManhattanWithBlank
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`Heuristic::ALL`], as given (its first 40
/// characters, then `…`: a message need not repeat 200,000 of them).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown heuristic {0:?}: expected misplaced, manhattan, linear-conflict or manhattan+blank"
)]
pub struct UnknownHeuristic(pub String);

impl FromStr for Heuristic {
    type Err = UnknownHeuristic;

    /// Parses a [`Heuristic::name`], in any case, as a metric's name is.
    fn from_str(text: &str) -> Result<Heuristic, UnknownHeuristic> {
        Heuristic::ALL
            .into_iter()
            .find(|h| h.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| {
                let mut shown: String = text.chars().take(40).collect();
                if shown.len() < text.len() {
                    shown.push('…');
                }
                UnknownHeuristic(shown)
            })
    }
}

/// Evaluates the heuristics toward one goal. Everything that depends only on
/// the goal (each tile's goal row and column, its distance from every cell)
/// is computed once here, so an evaluation only reads small tables and never
/// allocates.
#[derive(Clone, Debug)]
pub struct Evaluator {
    goal: Board,
    shape: Shape,
    /// Indexed by tile (0 the blank), [`TILE_SLOTS`] long so that six bits
    /// index it.
    goal_row: [u8; TILE_SLOTS],
    /// Likewise, the goal column.
    goal_col: [u8; TILE_SLOTS],
    /// `distance[tile][cell]`: rows plus columns from `cell` to the tile's
    /// goal cell (row 0 is the blank's).
    distance: [[u8; MAX_CELLS]; TILE_SLOTS],
}

impl Evaluator {
    /// The evaluator for `goal`. Boards evaluated with it must have the
    /// goal's shape.
    pub fn new(goal: &Board) -> Evaluator {
        let shape = goal.shape();
        let mut goal_row = [0u8; TILE_SLOTS];
        let mut goal_col = [0u8; TILE_SLOTS];
        for (cell, &tile) in goal.cells().iter().enumerate() {
            goal_row[tile as usize] = shape.row_of(cell) as u8;
            goal_col[tile as usize] = shape.col_of(cell) as u8;
        }
        let mut distance = [[0u8; MAX_CELLS]; TILE_SLOTS];
        for (tile, row) in distance.iter_mut().enumerate().take(shape.cells()) {
            for (cell, d) in row.iter_mut().enumerate().take(shape.cells()) {
                let rows = shape.row_of(cell).abs_diff(goal_row[tile] as usize);
                let cols = shape.col_of(cell).abs_diff(goal_col[tile] as usize);
                *d = (rows + cols) as u8;
            }
        }
        Evaluator {
            goal: *goal,
            shape,
            goal_row,
            goal_col,
            distance,
        }
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The heuristic's estimate for `board`, which must have the goal's shape.
    #[inline]
    pub fn h(&self, heuristic: Heuristic, board: &Board) -> u32 {
        debug_assert_eq!(board.shape(), self.shape);
        match heuristic {
            Heuristic::Misplaced => self.misplaced(board),
            Heuristic::Manhattan => self.manhattan(board),
            Heuristic::LinearConflict => self.manhattan(board) + 2 * self.conflicts(board),
            Heuristic::ManhattanWithBlank => {
                self.manhattan(board) + self.distance[0][board.blank()] as u32
            }
        }
    }

    /// Each heuristic's estimate for `board`, judged against what is known
    /// of its distance to the goal: what the page's heuristics panel and
    /// `query heuristics START` show.
    pub fn estimates(&self, board: &Board, truth: Truth) -> Vec<Estimate> {
        Heuristic::ALL
            .into_iter()
            .map(|heuristic| Estimate::judged(heuristic, self.h(heuristic, board), truth))
            .collect()
    }

    /// Each cell's part of the Manhattan distance: the rows plus columns
    /// between its tile and the tile's goal cell (0 for the blank).
    pub fn manhattan_by_cell(&self, board: &Board) -> Vec<u32> {
        board
            .cells()
            .iter()
            .enumerate()
            .map(|(cell, &tile)| match tile {
                0 => 0,
                t => self.distance[t as usize % TILE_SLOTS][cell] as u32,
            })
            .collect()
    }

    /// Tiles away from their goal cell.
    #[inline]
    fn misplaced(&self, board: &Board) -> u32 {
        board
            .cells()
            .iter()
            .enumerate()
            .filter(|&(cell, &tile)| tile != 0 && self.distance[tile as usize][cell] != 0)
            .count() as u32
    }

    /// Sum of the tiles' distances to their goal cells.
    #[inline]
    fn manhattan(&self, board: &Board) -> u32 {
        let mut sum = 0u32;
        for (cell, &tile) in board.cells().iter().enumerate() {
            if tile != 0 {
                sum += self.distance[tile as usize % TILE_SLOTS][cell] as u32;
            }
        }
        sum
    }

    /// Tiles that must leave their goal row or column and come back: per
    /// line, the tiles whose goal lies in that line, minus the longest run of
    /// them (not necessarily adjacent) already in goal order.
    fn conflicts(&self, board: &Board) -> u32 {
        let cells = board.cells();
        let rows: u32 = (0..self.shape.rows())
            .map(|r| self.row_conflicts(cells, r))
            .sum();
        let cols: u32 = (0..self.shape.cols())
            .map(|c| self.col_conflicts(cells, c))
            .sum();
        rows + cols
    }

    /// The rows plus columns from `cell` to `tile`'s goal cell: its part of
    /// the Manhattan distance. A search that moves one tile updates the sum
    /// with two of these.
    #[inline]
    pub(crate) fn tile_distance(&self, tile: u8, cell: usize) -> u32 {
        self.distance[tile as usize][cell] as u32
    }

    /// The tiles of row `r` (of the board's `cells`) that must leave it and
    /// come back: its part of [`Heuristic::LinearConflict`] beyond
    /// Manhattan, halved. A vertical move changes two rows' parts only.
    pub(crate) fn row_conflicts(&self, cells: &[u8], r: usize) -> u32 {
        let cols = self.shape.cols();
        // In a row, ordered by goal column.
        let row = &cells[r * cols..(r + 1) * cols];
        line_conflicts(row.iter(), &self.goal_row, r, &self.goal_col)
    }

    /// [`Evaluator::row_conflicts`] for column `c`; a horizontal move
    /// changes two columns' parts only.
    pub(crate) fn col_conflicts(&self, cells: &[u8], c: usize) -> u32 {
        // In a column, ordered by goal row.
        let column = cells[c..].iter().step_by(self.shape.cols());
        line_conflicts(column, &self.goal_col, c, &self.goal_row)
    }
}

/// The tiles of one line that must leave it: of the `tiles` whose goal
/// line (`goal_line`, by tile) is `line`, all but the longest run already
/// in the order of `order` (the goal place along the line, by tile).
#[inline]
fn line_conflicts<'a>(
    tiles: impl Iterator<Item = &'a u8>,
    goal_line: &[u8],
    line: usize,
    order: &[u8],
) -> u32 {
    let mut places = [0u8; MAX_CELLS];
    let mut len = 0;
    for &tile in tiles {
        if tile != 0 && goal_line[tile as usize] as usize == line {
            places[len] = order[tile as usize];
            len += 1;
        }
    }
    len as u32 - longest_increasing(&places[..len])
}

/// Length of the longest strictly increasing subsequence. Lines hold at most
/// six tiles, so the quadratic method is the fast one.
#[inline]
fn longest_increasing(values: &[u8]) -> u32 {
    let mut ending_at = [0u8; MAX_CELLS];
    let mut best = 0;
    for i in 0..values.len() {
        let mut here = 1;
        for j in 0..i {
            if values[j] < values[i] {
                here = here.max(ending_at[j] + 1);
            }
        }
        ending_at[i] = here;
        best = best.max(here);
    }
    best as u32
}

/// What is known of a position's true distance: the distance itself, or,
/// where a search for it stopped, only a lower bound that was proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    /// The true distance.
    Exact(u32),
    /// The true distance is at least this.
    AtLeast(u32),
}

impl Truth {
    /// Whether `h` is at most the true distance, and by how much it is
    /// above it: both known with the distance, and, with a lower bound
    /// only, where `h` is at most the bound (then 0); `None` otherwise.
    pub fn judge(self, h: u32) -> (Option<bool>, Option<u32>) {
        match self {
            Truth::Exact(d) => (Some(h <= d), Some(h.saturating_sub(d))),
            Truth::AtLeast(bound) if h <= bound => (Some(true), Some(0)),
            Truth::AtLeast(_) => (None, None),
        }
    }

    /// The distance, where it is known.
    pub fn exact(self) -> Option<u32> {
        match self {
            Truth::Exact(d) => Some(d),
            Truth::AtLeast(_) => None,
        }
    }

    /// The largest value the distance is known to be at least: the
    /// distance itself where it is known.
    pub fn lower_bound(self) -> u32 {
        match self {
            Truth::Exact(d) | Truth::AtLeast(d) => d,
        }
    }
}

/// One heuristic's estimate for one position, against its true distance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Estimate {
    /// The heuristic.
    pub heuristic: Heuristic,
    /// Its value for the position.
    pub h: u32,
    /// Whether it is at most the true distance here; `None` where the
    /// distance is unknown and `h` is above the bound proved for it.
    pub admissible_here: Option<bool>,
    /// How far above the true distance it is (0 when admissible here);
    /// `None` where that is unknown.
    pub overestimate: Option<u32>,
}

impl Estimate {
    /// `heuristic`'s value `h`, judged against `truth` ([`Truth::judge`]).
    pub fn judged(heuristic: Heuristic, h: u32, truth: Truth) -> Estimate {
        let (admissible_here, overestimate) = truth.judge(h);
        Estimate {
            heuristic,
            h,
            admissible_here,
            overestimate,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Move;
    use crate::puzzle::parse::parse_board;

    fn board(text: &str) -> Board {
        parse_board(text, Shape::THREE_BY_THREE).unwrap()
    }

    #[test]
    fn the_hardest_eight_puzzle_positions_by_hand() {
        // Goal 123456780:     867254301:        647850321:
        //   1 2 3               8 6 7             6 4 7
        //   4 5 6               2 5 4             8 5 _
        //   7 8 _               3 _ 1             3 2 1
        //
        // 867254301, each tile's rows + columns to its goal cell:
        //   8: 2+1  6: 1+1  7: 2+2  2: 1+1  5: 0  4: 0+2  3: 2+2  1: 2+2
        //   = 3+2+4+2+0+2+4+4 = 21; every tile but 5 misplaced: 7;
        //   the blank is one cell from its goal: 22 with it.
        //   Row 2 holds 5 and 4, both goal row 2, 5 left of 4 but 4 belongs
        //   left of 5: one conflict, no other row or column has one: 21 + 2.
        // 647850321:
        //   6: 1+2  4: 1+1  7: 2+2  8: 1+1  5: 0  3: 2+2  2: 2+0  1: 2+2
        //   = 3+2+4+2+0+4+2+4 = 21; 7 misplaced; blank one cell off: 22.
        //   Column 2 holds 5 above 2, both goal column 2, but 2 belongs
        //   above 5: one conflict: 21 + 2.
        let eval = Evaluator::new(&Board::goal(Shape::THREE_BY_THREE));
        for text in ["867254301", "647850321"] {
            let b = board(text);
            let h: Vec<u32> = Heuristic::ALL.iter().map(|&x| eval.h(x, &b)).collect();
            assert_eq!(h, [7, 21, 23, 22], "{text}");
        }
    }

    #[test]
    fn the_goal_scores_zero_and_one_move_away_scores_one() {
        let goal = board("123804765");
        let eval = Evaluator::new(&goal);
        for x in Heuristic::ALL {
            assert_eq!(eval.h(x, &goal), 0, "{x}");
        }
        let near = goal.apply(Move::Up).unwrap(); // 103824765
        assert_eq!(eval.h(Heuristic::Misplaced, &near), 1);
        assert_eq!(eval.h(Heuristic::Manhattan, &near), 1);
        assert_eq!(eval.h(Heuristic::LinearConflict, &near), 1);
        assert_eq!(eval.h(Heuristic::ManhattanWithBlank, &near), 2);
    }

    #[test]
    fn three_tiles_in_reverse_in_their_row_need_two_to_leave() {
        // Row 1 holds 3 2 1, all goal row 1, fully reversed: the longest
        // run in order is one tile, so two leave. Manhattan: 2 + 0 + 2.
        let eval = Evaluator::new(&board("123456780"));
        let b = board("321456780");
        assert_eq!(eval.h(Heuristic::Manhattan, &b), 4);
        assert_eq!(eval.h(Heuristic::LinearConflict, &b), 4 + 2 * 2);
    }

    #[test]
    fn linear_conflict_is_never_below_manhattan() {
        let eval = Evaluator::new(&board("123804765"));
        let mut b = board("867254301");
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..10_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if let Some(next) = b.apply(Move::from_code(state as u8)) {
                b = next;
            }
            let manhattan = eval.h(Heuristic::Manhattan, &b);
            assert!(eval.h(Heuristic::LinearConflict, &b) >= manhattan, "{b}");
            assert!(eval.h(Heuristic::Misplaced, &b) <= manhattan, "{b}");
        }
    }

    #[test]
    fn names_round_trip() {
        for x in Heuristic::ALL {
            assert_eq!(x.name().parse::<Heuristic>(), Ok(x));
            assert_eq!(serde_json::to_string(&x).unwrap(), format!("\"{x}\""));
        }
        assert!("euclid".parse::<Heuristic>().is_err());
        // A name of 200,000 characters is named by its first 40.
        let long = "x".repeat(200_000).parse::<Heuristic>().unwrap_err();
        assert_eq!(long.0, format!("{}…", "x".repeat(40)));
        assert!(long.to_string().len() < 200);
    }
}
