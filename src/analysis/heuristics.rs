//! The classic sliding-tile heuristics, and a survey of how good each one is
//! against the exact distances of a table.
//!
//! A heuristic estimates the number of moves left. A* and IDA* return
//! shortest solutions only when it is *admissible* (never above the true
//! distance), and A* never needs to reopen a position when it is also
//! *consistent* (one move changes it by at most 1). Courses teach these
//! properties with proofs; a complete table lets anyone count, over every
//! position, how far each heuristic is from the truth ([`survey`]).
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

use crate::db::goal_table::GoalTable;
use crate::puzzle::board::{Board, Move};
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::{Shape, MAX_CELLS, TILE_SLOTS};
use rayon::prelude::*;
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
/// [`survey`] can show what it costs.
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

    /// Parses a [`Heuristic::name`].
    fn from_str(text: &str) -> Result<Heuristic, UnknownHeuristic> {
        Heuristic::ALL
            .into_iter()
            .find(|h| h.name() == text)
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

    /// Each heuristic's estimate for `board` beside `distance`, its true
    /// distance to the goal: what the page's heuristics panel and `query
    /// heuristics START` show.
    pub fn estimates(&self, board: &Board, distance: u32) -> Vec<Estimate> {
        Heuristic::ALL
            .into_iter()
            .map(|heuristic| {
                let h = self.h(heuristic, board);
                Estimate {
                    heuristic,
                    h,
                    admissible_here: h <= distance,
                    overestimate: h.saturating_sub(distance),
                }
            })
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

/// One heuristic's estimate for one position, against its true distance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Estimate {
    /// The heuristic.
    pub heuristic: Heuristic,
    /// Its value for the position.
    pub h: u32,
    /// Whether it is at most the true distance here.
    pub admissible_here: bool,
    /// How far above the true distance it is (0 when admissible here).
    pub overestimate: u32,
}

/// What a heuristic estimates for the positions at one true distance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DistanceStats {
    /// The true distance to the goal.
    pub distance: u32,
    /// Positions at that distance.
    pub count: u64,
    /// Mean of the heuristic over them.
    pub mean: f64,
    /// Smallest value of the heuristic among them.
    pub min: u32,
    /// Largest value of the heuristic among them.
    pub max: u32,
    /// How many of them the heuristic gives each value, from 0 to `max`
    /// (`h_counts[h]`): the joint distribution of h and h*, for predictions
    /// of a search's nodes. Empty where no position lies at the distance.
    pub h_counts: Vec<u64>,
}

/// How one heuristic compares with the exact distances of every position
/// that can reach a goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Survey {
    /// The heuristic surveyed.
    pub heuristic: Heuristic,
    /// The goal, written as in the rest of the tool's output.
    pub goal: String,
    /// Positions surveyed: every position that can reach the goal.
    pub positions: u64,
    /// One entry per true distance, 0 to the table's maximum, in order.
    pub by_distance: Vec<DistanceStats>,
    /// Positions where the heuristic is above the true distance.
    pub inadmissible: u64,
    /// Moves examined for consistency: every legal move from every position,
    /// so each pair of neighbouring positions is examined once in each
    /// direction.
    pub moves: u64,
    /// Moves along which the heuristic drops by more than 1. Since the
    /// heuristic then rises along the reverse move, each inconsistent pair of
    /// neighbours is counted exactly once.
    pub inconsistent: u64,
    /// Mean of h / h* over the positions with true distance h* above 0: how
    /// much of the distance the heuristic sees.
    pub mean_ratio: f64,
}

/// Running sums for part of a table.
#[derive(Clone)]
struct Tally {
    count: Vec<u64>,
    sum: Vec<u64>,
    min: Vec<u32>,
    max: Vec<u32>,
    /// Positions by distance and h: `H_VALUES` counts per distance.
    by_h: Vec<u64>,
    inadmissible: u64,
    moves: u64,
    inconsistent: u64,
    ratio_sum: f64,
}

impl Tally {
    /// Counts the position of rank `rank`: its heuristic value `h[rank]`
    /// against its true distance, and against its neighbours' values.
    #[inline]
    fn add(&mut self, target: &GoalTable<'_>, h: &[u8], rank: u32) {
        let distances = self.count.len();
        // A damaged entry is `verify`'s to report.
        let Some(d) = target
            .distance_at(rank)
            .ok()
            .map(|d| d as usize)
            .filter(|&d| d < distances)
        else {
            return;
        };
        let value = h[rank as usize] as u32;
        self.count[d] += 1;
        self.sum[d] += value as u64;
        self.min[d] = self.min[d].min(value);
        self.max[d] = self.max[d].max(value);
        self.by_h[d * H_VALUES + value as usize] += 1;
        if value > d as u32 {
            self.inadmissible += 1;
        }
        if d > 0 {
            self.ratio_sum += value as f64 / d as f64;
        }
        let ranker = target.ranker();
        let cursor = ranker.cursor_at(rank);
        for m in Move::ALL {
            if let Some(next) = ranker.step(&cursor, m) {
                self.moves += 1;
                if value > h[next.rank() as usize] as u32 + 1 {
                    self.inconsistent += 1;
                }
            }
        }
    }

    fn new(distances: usize) -> Tally {
        Tally {
            count: vec![0; distances],
            sum: vec![0; distances],
            min: vec![u32::MAX; distances],
            max: vec![0; distances],
            by_h: vec![0; distances * H_VALUES],
            inadmissible: 0,
            moves: 0,
            inconsistent: 0,
            ratio_sum: 0.0,
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        for d in 0..self.count.len() {
            self.count[d] += other.count[d];
            self.sum[d] += other.sum[d];
            self.min[d] = self.min[d].min(other.min[d]);
            self.max[d] = self.max[d].max(other.max[d]);
        }
        for (mine, theirs) in self.by_h.iter_mut().zip(&other.by_h) {
            *mine += theirs;
        }
        self.inadmissible += other.inadmissible;
        self.moves += other.moves;
        self.inconsistent += other.inconsistent;
        self.ratio_sum += other.ratio_sum;
        self
    }
}

/// The values an h can take in a survey: it is kept in a byte.
const H_VALUES: usize = 256;

/// Ranks per unit of parallel work: large enough that scheduling costs
/// nothing, small enough that both passes split evenly across cores.
const CHUNK: usize = 4096;

/// The classic heuristics and the textbook searches count one tile a move:
/// set beside multi-tile distances, their figures would mislead (Manhattan
/// distance overestimates them), so they are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the heuristics and the textbook searches count single-tile moves, and this table counts \
     {metric} moves"
)]
pub struct NeedsSingleTile {
    /// The table's metric.
    pub metric: Metric,
}

impl NeedsSingleTile {
    /// Refuses any metric but the single-tile one.
    pub fn check(metric: Metric) -> Result<(), NeedsSingleTile> {
        match metric {
            Metric::SingleTile => Ok(()),
            metric => Err(NeedsSingleTile { metric }),
        }
    }
}

/// Compares `heuristic` with the true distance of every position that can
/// reach the target's goal (single-tile tables only).
///
/// Works in the table's canonical frame: each rank's board is unranked as
/// it is stored, and evaluated against the canonical goal. Renaming tiles,
/// and reflecting or turning the board (when the table is a symmetric
/// cell's), changes neither the heuristics nor the distances, so the figures
/// hold for the target's goal. A first pass evaluates every position once; a second
/// reads the neighbours' values by rank, moving a rank cursor instead of
/// evaluating neighbours again. Both passes run in parallel.
pub fn survey(target: &GoalTable<'_>, heuristic: Heuristic) -> Result<Survey, NeedsSingleTile> {
    NeedsSingleTile::check(target.metric())?;
    let ranker = *target.ranker();
    let entries = target.entries();
    let eval = Evaluator::new(&target.to_table(target.goal()));
    let distances = target.info().counts.len();

    // Every h fits a byte: at most 11 tiles, each at most 6 cells away, plus
    // 2 per tile in conflict.
    let mut h = vec![0u8; entries.len()];
    h.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, values)| {
            let first = chunk * CHUNK;
            for (i, value) in values.iter_mut().enumerate() {
                let board = ranker.unrank((first + i) as u32);
                *value = eval.h(heuristic, &board) as u8;
            }
        });

    let tally = (0..entries.len().div_ceil(CHUNK))
        .into_par_iter()
        .fold(
            || Tally::new(distances),
            |mut tally, chunk| {
                let ranks = chunk * CHUNK..((chunk + 1) * CHUNK).min(entries.len());
                for rank in ranks {
                    tally.add(target, &h, rank as u32);
                }
                tally
            },
        )
        .reduce(|| Tally::new(distances), Tally::merge);

    let by_distance = (0..distances)
        .map(|d| DistanceStats {
            distance: d as u32,
            count: tally.count[d],
            mean: if tally.count[d] == 0 {
                0.0
            } else {
                tally.sum[d] as f64 / tally.count[d] as f64
            },
            min: if tally.count[d] == 0 { 0 } else { tally.min[d] },
            max: tally.max[d],
            h_counts: match tally.count[d] {
                0 => Vec::new(),
                _ => tally.by_h[d * H_VALUES..=d * H_VALUES + tally.max[d] as usize].to_vec(),
            },
        })
        .collect();
    let beyond_goal = entries.len() as u64 - tally.count.first().copied().unwrap_or(0);
    Ok(Survey {
        heuristic,
        goal: target.goal().to_string(),
        positions: entries.len() as u64,
        by_distance,
        inadmissible: tally.inadmissible,
        moves: tally.moves,
        inconsistent: tally.inconsistent,
        mean_ratio: if beyond_goal == 0 {
            0.0
        } else {
            tally.ratio_sum / beyond_goal as f64
        },
    })
}

/// [`survey`] of each of [`Heuristic::ALL`], in that order, the four run in
/// parallel.
pub fn survey_all(target: &GoalTable<'_>) -> Result<Vec<Survey>, NeedsSingleTile> {
    NeedsSingleTile::check(target.metric())?;
    Heuristic::ALL
        .par_iter()
        .map(|&heuristic| survey(target, heuristic))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
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
