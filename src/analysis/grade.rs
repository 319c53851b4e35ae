//! Grading a move list against the exact distances: whether every move is
//! legal, whether the list reaches the goal, how long it is against the
//! optimum, and which moves went away from the goal.
//!
//! One function for every face that grades: Python's `check`, and the
//! page's `/api/check`. The distances come from a closure, so that complete
//! tables look them up and pattern databases search, each within its own
//! budget.
//!
//! ```
//! use npuzzle::analysis::{grade, read_steps};
//! use npuzzle::{parse_board, Board, Metric, Shape};
//!
//! let shape = Shape::THREE_BY_THREE;
//! let start = parse_board("123456708", shape)?;
//! let goal = Board::goal(shape);
//! // A made-up distance: tiles out of place (exact this close to the goal).
//! let misplaced = |b: &Board| -> Result<u32, ()> {
//!     Ok(b.cells().iter().zip(goal.cells()).filter(|(a, g)| a != g && **a != 0).count() as u32)
//! };
//! let steps = read_steps("L R R")?;
//! let graded = grade(&start, &goal, &steps, Metric::SingleTile, misplaced).unwrap();
//! assert!(graded.reaches_goal);
//! assert_eq!((graded.length, graded.optimal, graded.excess), (3, 1, Some(2)));
//! assert_eq!(graded.away, vec![1]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::db::database::Database;
use crate::db::error::AnswerError;
use crate::pattern::SolveOptions;
use crate::puzzle::board::{Board, Move};
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use serde::{Serialize, Serializer};

/// One move of a list: the blank's (`U`, `D`, `L`, `R`), a slide of
/// several tiles in a line (`U3`, as the multi-tile metric writes it), or
/// the tile that slides into the gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The blank moves this way.
    Blank(Move),
    /// The blank moves this way this many cells at once: one move under
    /// the multi-tile metric, as many under the single-tile one.
    Slide(Move, usize),
    /// This tile slides into the gap (legal only next to it).
    Tile(u8),
}

impl Step {
    /// The blank's moves this step makes on `board`, and the board after
    /// them, if they are legal there.
    fn on(self, board: &Board) -> Option<(Move, usize, Board)> {
        let (m, cells) = match self {
            Step::Blank(m) => (m, 1),
            Step::Slide(m, cells) => (m, cells),
            Step::Tile(tile) => board
                .successors()
                .find(|&(m, _)| board.tile_moved_by(m) == Some(tile))
                .map(|(m, _)| (m, 1))?,
        };
        let mut after = *board;
        for _ in 0..cells {
            after = after.apply(m)?;
        }
        Some((m, cells, after))
    }
}

/// The most moves one list may hold: far past any optimal solution (80 on
/// the largest complete table), and small enough that grading it is cheap.
pub const MAX_STEPS: usize = 10_000;

/// The most tiles one slide moves on any board: the longest side (2×18's
/// 18 cells) less one.
pub const LONGEST_SLIDE: usize = crate::puzzle::shape::MAX_CELLS / 2 - 1;

/// A move list that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepsError {
    /// A character that is neither a move letter nor a separator.
    #[error("move {position} is {found:?}: write the blank's moves as letters (ULDR, or U3 for a slide of three tiles) or the tiles moved as numbers (6 5 2)")]
    NotAMove {
        /// 1-based position of the move in the list.
        position: usize,
        /// What was there.
        found: String,
    },
    /// A slide of more tiles than any board's side holds.
    #[error(
        "move {position} is {found:?}: a slide moves at most {LONGEST_SLIDE} tiles, on any board"
    )]
    SlideTooLong {
        /// 1-based position of the move in the list.
        position: usize,
        /// What was there.
        found: String,
    },
    /// Nothing between two commas, or a comma at either end: a move left out.
    #[error("move {position} is missing: there is nothing between two commas (or before the first, or after the last)")]
    EmptyField {
        /// 1-based position the missing move would have in the list.
        position: usize,
    },
    /// Letters and tile numbers mixed.
    #[error("the moves mix letters and tile numbers: write either the blank's moves (ULDR) or the tiles moved (6 5 2)")]
    Mixed,
    /// More than [`MAX_STEPS`] moves (`usize::MAX`: past any count).
    #[error("{}: at most {MAX_STEPS} moves are graded at once", too_many(*.0))]
    TooMany(usize),
    /// A tile the board does not have, which no position lets move.
    #[error("move {position} is tile {tile}: the tiles of a {shape} board are 1 to {}{}", shape.cells() - 1, run_together(tile, *shape))]
    NoSuchTile {
        /// 1-based position of the move in the list.
        position: usize,
        /// The tile named, as written.
        tile: String,
        /// The board's size.
        shape: Shape,
    },
    /// A slide longer than the board's side, which no position allows.
    #[error("move {position} is {found:?}: on a {shape} board a slide {along} moves at most {most} tile{}", if *most == 1 { "" } else { "s" })]
    SlideTooLongHere {
        /// 1-based position of the move in the list.
        position: usize,
        /// The slide, as the multi-tile metric writes it (`U9`).
        found: String,
        /// The board's size.
        shape: Shape,
        /// `up or down`, or `left or right`.
        along: &'static str,
        /// The most tiles a slide that way moves on this board.
        most: usize,
    },
}

/// Where a tile number is tiles of one digit written together (`8658` on
/// 3×3), the way to write them apart; empty otherwise, and on boards with
/// tiles of two digits, where digits together may be meant as one tile.
fn run_together(tile: &str, shape: Shape) -> String {
    let tiles = 1..shape.cells();
    let digits: Vec<usize> = tile
        .bytes()
        .map(|b| usize::from(b.wrapping_sub(b'0')))
        .collect();
    if tile.len() < 2 || shape.cells() > 10 || !digits.iter().all(|d| tiles.contains(d)) {
        return String::new();
    }
    let apart: Vec<String> = digits.iter().map(usize::to_string).collect();
    format!("; tiles moved are written apart: {}", apart.join(" "))
}

/// "12000 moves", or for a count past any number "more than 10000 moves".
fn too_many(count: usize) -> String {
    match count {
        usize::MAX => format!("more than {MAX_STEPS} moves"),
        n => format!("{n} moves"),
    }
}

/// Reads a move list: the blank's moves as letters (`ULDR`, either case,
/// separated by spaces or commas; a letter with a count, `U3`, is a slide of
/// that many tiles, as the multi-tile metric writes it), or the tiles
/// moved as numbers separated by spaces or commas (`6 5 2`; a comma with
/// nothing after it is a move left out). At most
/// [`MAX_STEPS`] single-tile moves: a list to grade.
pub fn read_steps(text: &str) -> Result<Vec<Step>, StepsError> {
    read_steps_up_to(text, MAX_STEPS)
}

/// [`read_steps`] for a board of `shape`: a move that no position of it
/// allows (a tile it does not have, a slide longer than its side) is
/// unreadable, as a tile out of range is in a board, where a move that the
/// position it meets does not allow is graded as illegal.
pub fn read_steps_on(text: &str, shape: Shape) -> Result<Vec<Step>, StepsError> {
    let steps = read_steps(text).map_err(|e| match e {
        // A number no tile has (0, 300) and a slide no board allows, said
        // for this board.
        StepsError::NotAMove { position, found } if found.bytes().all(|b| b.is_ascii_digit()) => {
            StepsError::NoSuchTile {
                position,
                tile: found,
                shape,
            }
        }
        StepsError::SlideTooLong { position, found } => {
            match found.chars().next().and_then(Move::from_letter) {
                Some(m) => slide_too_long(position, found, m, shape),
                None => StepsError::SlideTooLong { position, found },
            }
        }
        e => e,
    })?;
    steps_fit(&steps, shape)?;
    Ok(steps)
}

/// A slide `found` (of move `m`) longer than a `shape` board's side.
fn slide_too_long(position: usize, found: String, m: Move, shape: Shape) -> StepsError {
    let (along, most) = slide_limit(m, shape);
    StepsError::SlideTooLongHere {
        position,
        found,
        shape,
        along,
        most,
    }
}

/// Which way a slide of `m` goes, in words, and the most tiles it moves on
/// a `shape` board.
fn slide_limit(m: Move, shape: Shape) -> (&'static str, usize) {
    match m {
        Move::Up | Move::Down => ("up or down", shape.rows() - 1),
        Move::Left | Move::Right => ("left or right", shape.cols() - 1),
    }
}

/// The first of `steps` that no position of a `shape` board allows, as
/// [`read_steps_on`] refuses it.
pub fn steps_fit(steps: &[Step], shape: Shape) -> Result<(), StepsError> {
    let refusal = |(i, step): (usize, &Step)| match *step {
        Step::Tile(tile) if usize::from(tile) >= shape.cells() => Some(StepsError::NoSuchTile {
            position: i + 1,
            tile: tile.to_string(),
            shape,
        }),
        Step::Slide(m, cells) if cells > slide_limit(m, shape).1 => {
            let found = format!("{}{cells}", m.letter());
            Some(slide_too_long(i + 1, found, m, shape))
        }
        _ => None,
    };
    match steps.iter().enumerate().find_map(refusal) {
        Some(refused) => Err(refused),
        None => Ok(()),
    }
}

/// [`read_steps`] with no bound on the moves but the text's length: moves
/// to play rather than grade (Python's `Board.apply`, a long scramble).
pub fn read_any_steps(text: &str) -> Result<Vec<Step>, StepsError> {
    read_steps_up_to(text, usize::MAX)
}

fn read_steps_up_to(text: &str, most: usize) -> Result<Vec<Step>, StepsError> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let numbers = words
        .iter()
        .any(|w| w.starts_with(|c: char| c.is_ascii_digit()));
    // A mixed list is said as such before any move is counted in it.
    let letters = |w: &&str| w.chars().any(|c| c.is_ascii_alphabetic());
    if numbers && words.iter().any(letters) {
        return Err(StepsError::Mixed);
    }
    if let Some(position) = empty_field(text) {
        return Err(StepsError::EmptyField { position });
    }
    if numbers {
        if words.len() > most {
            return Err(StepsError::TooMany(words.len()));
        }
        return words
            .iter()
            .enumerate()
            .map(|(i, w)| match w.parse::<u8>() {
                Ok(tile) if tile > 0 => Ok(Step::Tile(tile)),
                _ => Err(StepsError::NotAMove {
                    position: i + 1,
                    found: crate::rules::excerpt(w, 20).to_string(),
                }),
            })
            .collect();
    }
    // A slide no board holds is said as written, before any counting.
    let too_long =
        |count: &str| !count.is_empty() && count.parse().map_or(true, |n: usize| n > LONGEST_SLIDE);
    if let Some((i, (written, _, _))) = lettered(&words)
        .enumerate()
        .find(|(_, (_, _, c))| too_long(c))
    {
        return Err(StepsError::SlideTooLong {
            position: i + 1,
            found: crate::rules::excerpt(written, 20).to_string(),
        });
    }
    // Counted first, so that a long list costs nothing to refuse.
    let cells = lettered(&words).fold(0usize, |sum, (_, _, count)| {
        sum.saturating_add(match count {
            "" => 1,
            digits => digits.parse().unwrap_or(usize::MAX),
        })
    });
    if cells > most {
        return Err(StepsError::TooMany(cells));
    }
    lettered(&words)
        .enumerate()
        .map(|(i, (written, letter, count))| {
            let not_a_move = || StepsError::NotAMove {
                position: i + 1,
                found: crate::rules::excerpt(written, 20).to_string(),
            };
            let m = Move::from_letter(letter).ok_or_else(not_a_move)?;
            match count.parse::<usize>() {
                _ if count.is_empty() => Ok(Step::Blank(m)),
                Ok(cells) if cells > 0 => Ok(Step::Slide(m, cells)),
                _ => Err(not_a_move()),
            }
        })
        .collect()
}

/// Where a comma-separated list has a field with nothing in it (`8,,1`,
/// `,U`, `U,`), the position of the move left out, counted as the moves
/// read before it are: a number is one move, letters one each.
fn empty_field(text: &str) -> Option<usize> {
    if !text.contains(',') {
        return None;
    }
    let mut before = 0usize;
    for field in text.split(',') {
        let words: Vec<&str> = field.split_whitespace().collect();
        if words.is_empty() {
            return Some(before + 1);
        }
        before += words
            .iter()
            .map(|w| match w.starts_with(|c: char| c.is_ascii_digit()) {
                true => 1,
                false => lettered(std::slice::from_ref(w)).count(),
            })
            .sum::<usize>();
    }
    None
}

/// The moves written as letters in `words`, each with the count after it
/// (`U3`: `("U3", 'U', "3")`; `L`: `("L", 'L', "")`).
fn lettered<'a>(words: &'a [&'a str]) -> impl Iterator<Item = (&'a str, char, &'a str)> + 'a {
    words.iter().flat_map(|word| {
        let mut rest = *word;
        std::iter::from_fn(move || {
            let letter = rest.chars().next()?;
            let after = letter.len_utf8();
            let end = rest[after..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(rest.len(), |e| e + after);
            let (written, left) = rest.split_at(end);
            rest = left;
            Some((written, letter, &written[after..]))
        })
    })
}

/// A move list graded: the JSON object of `/api/check`, and the fields of
/// Python's `check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Graded {
    /// The start.
    #[serde(serialize_with = "as_text")]
    pub start: Board,
    /// The goal.
    #[serde(serialize_with = "as_text")]
    pub goal: Board,
    /// The legal moves played, as the blank's letters (tiles moved are
    /// turned into letters; nothing after the first illegal move).
    #[serde(serialize_with = "letters")]
    pub moves: Vec<Move>,
    /// Every move stays on the board (a tile moved is next to the gap).
    pub legal: bool,
    /// The 1-based number of the first illegal move, if any.
    pub illegal_move: Option<usize>,
    /// The moves are legal and end on the goal.
    pub reaches_goal: bool,
    /// Moves given (the illegal ones and those after them included).
    pub length: usize,
    /// The fewest moves from the start to the goal.
    pub optimal: u32,
    /// How many moves longer than optimal, when they reach the goal.
    pub excess: Option<u32>,
    /// Where the moves end (before the first illegal one).
    #[serde(serialize_with = "as_text")]
    pub end: Board,
    /// The fewest moves from where they end to the goal (0 at the goal).
    pub remaining: u32,
    /// The 1-based numbers, as written, of the legal moves that went
    /// farther from the goal, each move judged as the metric counts it (a
    /// slide of a run of letters by its first letter's number).
    pub away: Vec<usize>,
    /// The moves do not reach the goal as written, but would with each
    /// letter turned the other way: the ways the tiles slide were likely
    /// written, where the blank's are meant.
    pub reversed_reaches_goal: bool,
    /// The number, as written, of the move after which the moves first
    /// stand on the goal (0 for a start that is the goal), where they do:
    /// a number below the moves' count means those after it were not
    /// needed.
    pub goal_reached_after: Option<usize>,
}

/// Grades `steps` from `start` toward `goal`, with `distance` giving each
/// position's exact distance to the goal in `metric`'s moves (asked once
/// per position the legal moves pass through, the start included): its
/// error is returned as is.
pub fn grade<E>(
    start: &Board,
    goal: &Board,
    steps: &[Step],
    metric: Metric,
    mut distance: impl FnMut(&Board) -> Result<u32, E>,
) -> Result<Graded, E> {
    let optimal = distance(start)?;
    // The legal steps played, each single-tile move with the number of the
    // step it was written in.
    let mut end = *start;
    let mut moves = Vec::with_capacity(steps.len());
    let mut numbers = Vec::with_capacity(steps.len());
    let mut illegal_move = None;
    let mut played = 0;
    for (i, step) in steps.iter().enumerate() {
        let Some((m, cells, next)) = step.on(&end) else {
            illegal_move = Some(i + 1);
            break;
        };
        moves.extend(std::iter::repeat_n(m, cells));
        numbers.extend(std::iter::repeat_n(i + 1, cells));
        (end, played) = (next, i + 1);
    }
    // Each move judged as the metric counts it, whatever the writing: `R2`
    // is two moves under the single-tile metric, and `L L` one slide under
    // the multi-tile one, numbered by the step of its first letter.
    let (mut at, mut before) = (*start, optimal);
    let mut away = Vec::new();
    let mut goal_reached_after = (start == goal).then_some(0);
    let mut first = 0;
    for (m, cells) in metric.moves_of(&moves) {
        for _ in 0..cells {
            at = at.apply(m).expect("the moves were played on the board");
        }
        // At the goal nothing is left to search.
        let after = if at == *goal { 0 } else { distance(&at)? };
        let number = numbers[first];
        if after > before && away.last() != Some(&number) {
            away.push(number);
        }
        if at == *goal && goal_reached_after.is_none() {
            // The step of the move's last letter: a slide written as
            // letters reaches the goal only once all of them are played.
            goal_reached_after = Some(numbers[first + cells - 1]);
        }
        (before, first) = (after, first + cells);
    }
    let legal = illegal_move.is_none();
    let reaches_goal = legal && end == *goal;
    let length = metric.length(&moves) + unplayed_length(&steps[played..], metric);
    let reversed_reaches_goal = !reaches_goal && reaches_reversed(steps, start, goal);
    Ok(Graded {
        start: *start,
        goal: *goal,
        moves,
        legal,
        illegal_move,
        reaches_goal,
        length,
        optimal,
        excess: reaches_goal.then(|| length as u32 - optimal),
        end,
        remaining: before,
        away,
        reversed_reaches_goal,
        goal_reached_after,
    })
}

/// How many moves `metric` counts in `steps`, from the illegal one on, as
/// written: under the single-tile metric a slide of k tiles is k moves;
/// under the multi-tile one letters in a row the same way are one slide,
/// as the moves played before are (not joined to them: the illegal one
/// is where playing stopped), and a tile's number, whose way no board
/// says now, is a move of its own.
fn unplayed_length(steps: &[Step], metric: Metric) -> usize {
    let way = |step: &Step| match step {
        Step::Blank(m) | Step::Slide(m, _) => Some(*m),
        Step::Tile(_) => None,
    };
    match metric {
        Metric::SingleTile => (steps.iter())
            .map(|step| match step {
                Step::Slide(_, cells) => *cells,
                _ => 1,
            })
            .sum(),
        Metric::MultiTile => (steps.iter().map(way))
            .collect::<Vec<_>>()
            .chunk_by(|a, b| a.is_some() && a == b)
            .count(),
    }
}

/// [`grade`] with `db`'s distances toward `goal`: looked up in complete
/// tables; on a pattern database each is a search, done once for a
/// position however often the moves come back to it ([`searched_once`]).
pub fn grade_in<B: AsRef<[u8]>>(
    db: &Database<B>,
    (start, goal): (&Board, &Board),
    steps: &[Step],
    options: &SolveOptions,
) -> Result<Graded, AnswerError> {
    let distance = |b: &Board| db.distance(b, goal, options);
    match db.complete() {
        // A lookup costs less than keeping its answer.
        Ok(_) => grade(start, goal, steps, db.metric(), distance),
        Err(_) => grade(start, goal, steps, db.metric(), searched_once(distance)),
    }
}

/// `distance`, each position's answer kept: a search is not done again for
/// a position the moves come back to (`LRLR…` asks for two).
pub fn searched_once<E>(
    mut distance: impl FnMut(&Board) -> Result<u32, E>,
) -> impl FnMut(&Board) -> Result<u32, E> {
    let mut known = std::collections::HashMap::new();
    move |board: &Board| match known.get(board) {
        Some(&d) => Ok(d),
        None => {
            let d = distance(board)?;
            known.insert(*board, d);
            Ok(d)
        }
    }
}

/// Whether `steps`, the blank's moves each turned the other way (as a
/// student who wrote the tiles' directions meant them), take `start` to
/// `goal`. Tiles named are no directions.
fn reaches_reversed(steps: &[Step], start: &Board, goal: &Board) -> bool {
    let mut board = *start;
    for step in steps {
        let (m, cells) = match *step {
            Step::Blank(m) => (m, 1),
            Step::Slide(m, cells) => (m, cells),
            Step::Tile(_) => return false,
        };
        for _ in 0..cells {
            match board.apply(m.opposite()) {
                Some(next) => board = next,
                None => return false,
            }
        }
    }
    board == *goal
}

fn as_text<S: Serializer>(board: &Board, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(board)
}

fn letters<S: Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::rules::move_string(moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::shape::Shape;

    fn board(text: &str) -> Board {
        crate::parse_board(text, Shape::THREE_BY_THREE).unwrap()
    }

    /// Distances by breadth-first search from the goal, for small tests.
    fn exact(goal: Board) -> impl FnMut(&Board) -> Result<u32, ()> {
        let mut seen = std::collections::HashMap::from([(goal, 0u32)]);
        let mut layer = vec![goal];
        for d in 1..=31 {
            let mut next = Vec::new();
            for b in &layer {
                for (_, n) in b.successors() {
                    if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(n) {
                        e.insert(d);
                        next.push(n);
                    }
                }
            }
            layer = next;
        }
        move |b| seen.get(b).copied().ok_or(())
    }

    #[test]
    fn letters_and_tiles_grade_alike() {
        let goal = Board::goal(Shape::THREE_BY_THREE);
        let start = board("123456708");
        let mut d = exact(goal);
        // The blank goes up (tile 5 slides down), back, then right.
        let by_letters = grade(
            &start,
            &goal,
            &read_steps("u d r").unwrap(),
            Metric::SingleTile,
            &mut d,
        )
        .unwrap();
        let by_tiles = grade(
            &start,
            &goal,
            &read_steps("5, 5, 8").unwrap(),
            Metric::SingleTile,
            &mut d,
        )
        .unwrap();
        assert_eq!(by_letters, by_tiles);
        assert!(by_letters.reaches_goal);
        assert_eq!(by_letters.away, vec![1]);
        assert_eq!(by_letters.excess, Some(2));
    }

    /// Moves back and forth between two positions ask for two distances,
    /// however many there are: each is a search on a pattern board.
    #[test]
    fn a_position_come_back_to_is_searched_once() {
        let goal = Board::goal(Shape::THREE_BY_THREE);
        let mut exact = exact(goal);
        let mut asked = Vec::new();
        let counted = |b: &Board| {
            asked.push(*b);
            exact(b)
        };
        let start = board("867254301");
        let graded = grade(
            &start,
            &goal,
            &read_steps(&"LR".repeat(50)).unwrap(),
            Metric::SingleTile,
            searched_once(counted),
        )
        .unwrap();
        assert_eq!(asked, vec![start, start.apply(Move::Left).unwrap()]);
        assert_eq!(graded.away.len(), 50);
        assert_eq!((graded.remaining, graded.length), (31, 100));
    }

    /// Where the moves first stand on the goal, by the step written: after
    /// move 2 of `RRLR`, before a start that is the goal moves at all, and
    /// nowhere for moves that never get there.
    #[test]
    fn the_goal_is_found_where_the_moves_first_reach_it() {
        let goal = Board::goal(Shape::THREE_BY_THREE);
        let start = board("123456078");
        let after = |start: &Board, moves: &str, metric| {
            let steps = read_steps(moves).unwrap();
            let graded = grade(start, &goal, &steps, metric, exact(goal)).unwrap();
            graded.goal_reached_after
        };
        assert_eq!(after(&start, "RRLR", Metric::SingleTile), Some(2));
        assert_eq!(after(&start, "RR", Metric::SingleTile), Some(2));
        assert_eq!(after(&start, "RRL", Metric::SingleTile), Some(2));
        assert_eq!(after(&start, "RRRR", Metric::SingleTile), Some(2));
        assert_eq!(after(&start, "RL", Metric::SingleTile), None);
        assert_eq!(after(&goal, "LR", Metric::SingleTile), Some(0));
        assert_eq!(after(&goal, "", Metric::SingleTile), Some(0));
        // A slide, and the letters of one under the multi-tile metric, reach
        // it with their last cell: the step written last.
        assert_eq!(after(&start, "U R2 D", Metric::SingleTile), None);
        assert_eq!(after(&start, "R2 L", Metric::SingleTile), Some(1));
        assert_eq!(after(&start, "R2 L", Metric::MultiTile), Some(1));
        assert_eq!(after(&start, "R R L", Metric::MultiTile), Some(2));
    }

    /// Single-digit tiles written together are a tile no board has: the
    /// error says how to write them apart, only where each digit is a tile.
    #[test]
    fn tiles_written_together_are_said_apart() {
        let shape = Shape::THREE_BY_THREE;
        let said = |text: &str| read_steps_on(text, shape).unwrap_err().to_string();
        assert_eq!(
            said("8658"),
            "move 1 is tile 8658: the tiles of a 3x3 board are 1 to 8; tiles moved are written \
             apart: 8 6 5 8"
        );
        assert!(!said("8 90").contains("apart"), "{}", said("8 90"));
        assert!(!said("9").contains("apart"));
    }

    #[test]
    fn the_first_illegal_move_stops_the_grading() {
        let goal = Board::goal(Shape::THREE_BY_THREE);
        let start = board("123456708");
        let graded = grade(
            &start,
            &goal,
            &read_steps("DRR").unwrap(),
            Metric::SingleTile,
            exact(goal),
        )
        .unwrap();
        assert_eq!(graded.illegal_move, Some(1));
        assert!(!graded.legal && !graded.reaches_goal);
        assert_eq!((graded.end, graded.remaining, graded.length), (start, 1, 3));
        // Tile 1 is not next to the gap.
        let graded = grade(
            &start,
            &goal,
            &read_steps("8 1").unwrap(),
            Metric::SingleTile,
            exact(goal),
        )
        .unwrap();
        assert_eq!(graded.illegal_move, Some(2));
        assert_eq!(graded.moves, vec![Move::Right]);
        assert_eq!(graded.remaining, 0);
    }

    /// A slide (`R2`, as the multi-tile metric writes it) is one move
    /// under that metric and as many as its tiles under the single-tile
    /// one; one that runs off the board is illegal as a whole.
    #[test]
    fn slides_are_read_and_graded_in_either_metric() {
        assert_eq!(
            read_steps("U3 l r2").unwrap(),
            vec![
                Step::Slide(Move::Up, 3),
                Step::Blank(Move::Left),
                Step::Slide(Move::Right, 2)
            ]
        );
        let goal = Board::goal(Shape::THREE_BY_THREE);
        let start = board("123456078");
        let slide = read_steps("R2").unwrap();
        let graded = grade(&start, &goal, &slide, Metric::SingleTile, exact(goal)).unwrap();
        assert!(graded.reaches_goal);
        assert_eq!((graded.length, graded.optimal), (2, 2));
        assert_eq!(graded.moves, vec![Move::Right, Move::Right]);
        // One slide from the goal, under the multi-tile metric.
        let multi = |b: &Board| if *b == start { Ok(1) } else { Err(()) };
        let graded = grade(&start, &goal, &slide, Metric::MultiTile, multi).unwrap();
        assert!(graded.reaches_goal);
        assert_eq!(
            (graded.length, graded.optimal, graded.excess),
            (1, 1, Some(0))
        );
        // Two cells to the right of the middle of the bottom row: off the board.
        let near = board("123456708");
        let graded = grade(&near, &goal, &slide, Metric::SingleTile, exact(goal)).unwrap();
        assert_eq!((graded.illegal_move, graded.end), (Some(1), near));
        assert!(graded.moves.is_empty());
        // Past an illegal move, a slide is as many moves as its tiles under
        // the single-tile metric, and one under the multi-tile one.
        let after = read_steps("L U3 R2").unwrap();
        let graded = grade(&near, &goal, &after, Metric::SingleTile, exact(goal)).unwrap();
        assert_eq!((graded.illegal_move, graded.length), (Some(2), 6));
        let multi = |_: &Board| Ok::<u32, ()>(3);
        let graded = grade(&near, &goal, &after, Metric::MultiTile, multi).unwrap();
        assert_eq!((graded.illegal_move, graded.length), (Some(2), 3));
        // Letters in a row the same way are one slide there too, as `R2`
        // is; a tile's number is a move of its own.
        let corner = board("123456780");
        for (written, length) in [("U R R", 2), ("U R2", 2), ("U RR", 2), ("U R R L R", 4)] {
            let steps = read_steps(written).unwrap();
            let graded = grade(&corner, &goal, &steps, Metric::MultiTile, multi).unwrap();
            assert_eq!(
                (graded.illegal_move, graded.length),
                (Some(2), length),
                "{written}"
            );
        }
        let steps = read_steps("8 1 1").unwrap();
        let graded = grade(&corner, &goal, &steps, Metric::MultiTile, multi).unwrap();
        assert_eq!((graded.illegal_move, graded.length), (Some(2), 3));
    }

    #[test]
    fn unreadable_lists_are_refused() {
        assert_eq!(
            read_steps("U0"),
            Err(StepsError::NotAMove {
                position: 1,
                found: "U0".to_string()
            })
        );
        assert_eq!(
            read_steps("U3X"),
            Err(StepsError::NotAMove {
                position: 2,
                found: "X".to_string()
            })
        );
        // A slide no board holds is said as written, whatever its count.
        for (list, position, found) in [
            ("L U99999", 2, "U99999"),
            ("U99999999999999999999999", 1, "U9999999999999999999…"),
            ("R2 D18", 2, "D18"),
        ] {
            assert_eq!(
                read_steps(list),
                Err(StepsError::SlideTooLong {
                    position,
                    found: found.to_string()
                })
            );
        }
        // The longest side of any board is 2x18's: boards have 2 rows at least.
        let longest = crate::Shape::new(2, LONGEST_SLIDE + 1).unwrap();
        assert_eq!(longest.cells(), crate::puzzle::shape::MAX_CELLS);
        assert!(crate::Shape::new(1, crate::puzzle::shape::MAX_CELLS).is_err());
        assert_eq!(
            read_steps("D17").unwrap(),
            vec![Step::Slide(Move::Down, LONGEST_SLIDE)]
        );
        assert_eq!(
            read_steps(&"U17 ".repeat(600)),
            Err(StepsError::TooMany(10_200))
        );
        assert_eq!(
            StepsError::TooMany(usize::MAX).to_string(),
            "more than 10000 moves: at most 10000 moves are graded at once"
        );
        assert!(matches!(
            read_steps("UX"),
            Err(StepsError::NotAMove { position: 2, .. })
        ));
        assert_eq!(read_steps("5 U"), Err(StepsError::Mixed));
        assert!(matches!(
            read_steps("5 0"),
            Err(StepsError::NotAMove { position: 2, .. })
        ));
        assert!(matches!(
            read_steps("5 300"),
            Err(StepsError::NotAMove { .. })
        ));
        assert_eq!(
            read_steps(&"U".repeat(200_000)),
            Err(StepsError::TooMany(200_000))
        );
        assert_eq!(read_steps("").unwrap(), vec![]);
    }

    #[test]
    fn a_move_left_out_between_commas_is_refused() {
        for (list, position) in [
            ("8,,1", 2),
            ("8, ,1", 2),
            (",8,1", 1),
            ("8,1,", 3),
            ("UL,,DR", 3),
            ("U3 L,,R", 3),
            (",", 1),
        ] {
            assert_eq!(
                read_steps(list),
                Err(StepsError::EmptyField { position }),
                "{list}"
            );
        }
        assert_eq!(read_steps("8, 1").unwrap(), read_steps("8 1").unwrap());
        assert_eq!(read_steps("U, L,D").unwrap(), read_steps("ULD").unwrap());
        assert_eq!(read_steps("8,ab,,1"), Err(StepsError::Mixed));
        assert_eq!(read_steps("  ").unwrap(), vec![]);
    }

    #[test]
    fn moves_no_position_of_the_board_allows_are_refused() {
        let shape = crate::Shape::new(2, 6).unwrap();
        assert_eq!(
            read_steps_on("U L5", shape).unwrap(),
            vec![Step::Blank(Move::Up), Step::Slide(Move::Left, 5)]
        );
        assert_eq!(read_steps_on("11", shape).unwrap(), vec![Step::Tile(11)]);
        let refused = |text| read_steps_on(text, shape).unwrap_err().to_string();
        assert_eq!(
            refused("L D2"),
            "move 2 is \"D2\": on a 2x6 board a slide up or down moves at most 1 tile"
        );
        assert_eq!(
            refused("R6"),
            "move 1 is \"R6\": on a 2x6 board a slide left or right moves at most 5 tiles"
        );
        assert_eq!(
            refused("11 12"),
            "move 2 is tile 12: the tiles of a 2x6 board are 1 to 11"
        );
        // Numbers no tile has, and slides no board allows, are said for
        // this board too.
        assert_eq!(
            refused("11 0"),
            "move 2 is tile 0: the tiles of a 2x6 board are 1 to 11"
        );
        assert_eq!(
            refused("300"),
            "move 1 is tile 300: the tiles of a 2x6 board are 1 to 11"
        );
        assert_eq!(
            refused("u18"),
            "move 1 is \"u18\": on a 2x6 board a slide up or down moves at most 1 tile"
        );
        // The first such move is named, after any the text cannot read.
        assert_eq!(refused("12 X"), StepsError::Mixed.to_string());
    }
}
