//! All shortest solutions: how many there are, and some of them.
//!
//! From a position at distance d, every move to a neighbour at distance d−1
//! starts a shortest solution, and every shortest solution starts that way.
//! So the shortest solutions form a layered graph that the table lays out
//! without any search: counting them is dynamic programming over its layers
//! (each position once per layer), instant even when the count is huge.
//! Under the multi-tile metric a move is a slide of 1 to k tiles, and the
//! same holds slide by slide.

use crate::db::database::{unsolvable_before_missing, Database};
use crate::db::error::AnswerError;
use crate::db::goal_table::GoalTable;
use crate::io::Answer;
use crate::pattern::SolveOptions;
use crate::puzzle::board::{Board, Move};
use crate::puzzle::metric::Metric;
use crate::puzzle::solvability;
use crate::table::rank::Cursor;
use serde::{Serialize, Serializer};
use std::collections::HashMap;

/// Every shortest solution of a solvable pair, counted, and the first few
/// listed: what `query solve --all` reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortestSolutions {
    /// The answer for the pair, as `solve` gives it.
    pub answer: Answer,
    /// How many shortest solutions there are.
    pub solutions: u128,
    /// The first ones as single-tile moves, in order of their first moves'
    /// directions (D, L, R, U; under the multi-tile metric, shorter slides
    /// first): alphabetical order under the single-tile metric.
    pub listed: Vec<Vec<Move>>,
}

/// The answer's fields, then `solutions` and `listed`, each solution
/// written as the answer's metric writes moves.
impl Serialize for ShortestSolutions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shown<'a> {
            #[serde(flatten)]
            answer: &'a Answer,
            solutions: u128,
            listed: Vec<String>,
        }
        let metric = self.answer.metric;
        Shown {
            answer: &self.answer,
            solutions: self.solutions,
            listed: self.listed.iter().map(|m| metric.notation(m)).collect(),
        }
        .serialize(s)
    }
}

impl ShortestSolutions {
    /// Counts the shortest solutions of `answer`'s pair toward `target`'s
    /// goal, and lists up to `limit`: none where `answer` is unsolvable.
    pub fn of(
        target: &GoalTable<'_>,
        answer: Answer,
        limit: usize,
    ) -> Result<ShortestSolutions, AnswerError> {
        if !answer.solvable {
            return Ok(ShortestSolutions {
                answer,
                solutions: 0,
                listed: Vec::new(),
            });
        }
        Ok(ShortestSolutions {
            solutions: count_shortest(target, &answer.start)?,
            listed: list_shortest(target, &answer.start, limit)?,
            answer,
        })
    }
}

/// The moves from `position` (in the table's frame) that lead one move
/// closer, in the goal's frame and in letter order (D, L, R, U), each with
/// the cells the blank goes (1, or under the multi-tile metric 1 to k,
/// shorter first) and the position it leads to.
fn closer<'a>(
    target: &GoalTable<'a>,
    position: &Cursor,
) -> impl Iterator<Item = (Move, usize, Cursor)> + 'a {
    let target = *target;
    let ranker = *target.ranker();
    let longest = target.metric().longest_slide(ranker.shape());
    let d = target.distance_at(position.rank());
    let position = *position;
    [Move::Down, Move::Left, Move::Right, Move::Up]
        .into_iter()
        .flat_map(move |m| {
            let (mut next, toward) = (position, target.move_to_table(m));
            (1..=longest).map_while(move |cells| ranker.advance(&mut next, toward).then_some((m, cells, next)))
        })
        .filter(move |(_, _, next)| {
            matches!((&d, target.distance_at(next.rank())), (Ok(d), Ok(n)) if n + 1 == *d)
        })
}

/// Every move from `start` that leads one step closer to the goal: the
/// first moves of all shortest solutions, in letter order (D, L, R, U).
/// Empty at the goal. Under the multi-tile metric, the directions of the
/// slides that lead one move closer (see [`best_slides`] for their lengths).
///
/// ```
/// # use npuzzle::{analysis::best_moves, tables::build_tables, parse_board, files::write_database, Database, Shape, Board};
/// # let shape: Shape = "2x3".parse()?;
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("2x3.db");
/// # write_database(&path, shape, &build_tables(shape, &[5]))?;
/// let db = Database::open(&path)?;
/// let target = db.goal_table(&Board::goal(shape))?;
/// // The blank can go up (one step closer) or left (one step away).
/// let start = parse_board("123/450", shape)?;
/// assert!(best_moves(&target, &start)?.is_empty());
/// let start = parse_board("120/453", shape)?;
/// assert_eq!(npuzzle::rules::move_string(&best_moves(&target, &start)?), "D");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn best_moves(target: &GoalTable<'_>, start: &crate::Board) -> Result<Vec<Move>, AnswerError> {
    let mut moves: Vec<Move> = best_slides(target, start)?
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    // A direction's slides of several lengths, shorter first, are one move.
    moves.dedup();
    Ok(moves)
}

/// Every slide from `start` that leads one move closer to the goal, as its
/// direction and the tiles it moves (always 1 under the single-tile
/// metric), in letter order, shorter slides first. Empty at the goal.
pub fn best_slides(
    target: &GoalTable<'_>,
    start: &crate::Board,
) -> Result<Vec<(Move, usize)>, AnswerError> {
    let position = target.cursor(start)?;
    let distance = target.checked_distance(position)?;
    let slides: Vec<(Move, usize)> = closer(target, &position)
        .map(|(m, cells, _)| (m, cells))
        .collect();
    // Every position but the goal has a move one step closer; none means damage.
    if slides.is_empty() && distance > 0 {
        return Err(AnswerError::Corrupt {
            rank: position.rank(),
        });
    }
    Ok(slides)
}

/// A legal move from a position (the blank's direction, and how many cells:
/// more than one for a slide under the multi-tile metric), the board it
/// leads to, and that board's distance to the goal.
pub type Neighbour = (Move, usize, Board, u32);

/// The distance from `start` to `goal`, and each legal move with the board
/// it leads to and that board's distance: under the multi-tile metric,
/// every slide, of one tile or more. Complete tables look each one up.
/// Pattern tables store no moves, so each neighbour is solved (within
/// `options`), and the start's distance is one more than its nearest
/// neighbour's: a move changes the distance by exactly one (the puzzle's
/// graph is bipartite), and some move of a position off the goal leads one
/// closer, so the start needs no search of its own. An unsolvable start is
/// refused as such before a goal the file cannot serve, as `solve` refuses
/// it.
pub fn neighbours<B: AsRef<[u8]>>(
    db: &Database<B>,
    start: &Board,
    goal: &Board,
    options: &SolveOptions,
) -> Result<(u32, Vec<Neighbour>), AnswerError> {
    each_neighbour(db, start, goal, options).map_err(|e| unsolvable_before_missing(e, start, goal))
}

fn each_neighbour<B: AsRef<[u8]>>(
    db: &Database<B>,
    start: &Board,
    goal: &Board,
    options: &SolveOptions,
) -> Result<(u32, Vec<Neighbour>), AnswerError> {
    let Ok(tables) = db.complete() else {
        // Said before any search: no set for the goal, or no solution.
        db.check_goal(goal)?;
        solvability::check(start, goal).map_err(AnswerError::Unsolvable)?;
        let mut moves = Vec::with_capacity(4);
        // Pattern databases count single-tile moves only.
        for (m, next) in start.successors() {
            let after = db.solve(&next, goal, options)?.moves.len() as u32;
            moves.push((m, 1, next, after));
        }
        let distance = match moves.iter().map(|&(_, _, _, d)| d).min() {
            _ if start == goal => 0,
            Some(nearest) => nearest + 1,
            None => unreachable!("every board has a legal move"),
        };
        return Ok((distance, moves));
    };
    let target = tables.goal_table(goal)?;
    let distance = target.distance(start)?;
    let mut moves = Vec::with_capacity(4);
    for (m, next) in start.successors() {
        let mut reached = (1, next);
        loop {
            let (cells, next) = reached;
            moves.push((m, cells, next, target.distance(&next)?));
            match next.apply(m) {
                Some(farther) if db.metric() == Metric::MultiTile => reached = (cells + 1, farther),
                _ => break,
            }
        }
    }
    Ok((distance, moves))
}

/// The number of distinct shortest move sequences from `start` to the goal.
/// At most 4·3^79 for the 80 moves of the longest boards, so a `u128` holds it.
pub fn count_shortest(target: &GoalTable<'_>, start: &crate::Board) -> Result<u128, AnswerError> {
    let first = target.cursor(start)?;
    let mut layer: HashMap<u32, (Cursor, u128)> = HashMap::from([(first.rank(), (first, 1))]);
    let distance = target.checked_distance(first)?;
    for _ in 0..distance {
        let mut next: HashMap<u32, (Cursor, u128)> = HashMap::with_capacity(layer.len() * 2);
        for (position, ways) in layer.values() {
            for (_, _, after) in closer(target, position) {
                next.entry(after.rank()).or_insert((after, 0)).1 += ways;
            }
        }
        if next.is_empty() {
            return Err(AnswerError::Corrupt { rank: first.rank() });
        }
        layer = next;
    }
    // The last layer is the goal alone, unless entries on the way are damaged.
    if layer.len() != 1 || !layer.contains_key(&target.goal_rank()) {
        return Err(AnswerError::Corrupt { rank: first.rank() });
    }
    Ok(layer.values().map(|&(_, ways)| ways).sum())
}

/// Up to `limit` shortest move sequences from `start` to the goal, as
/// single-tile moves, in the order of [`ShortestSolutions::listed`].
pub fn list_shortest(
    target: &GoalTable<'_>,
    start: &crate::Board,
    limit: usize,
) -> Result<Vec<Vec<Move>>, AnswerError> {
    let first = target.cursor(start)?;
    target.checked_distance(first)?;
    let mut found = Vec::new();
    let mut path = Vec::new();
    walk(target, &first, &mut path, &mut found, limit);
    Ok(found)
}

fn walk(
    target: &GoalTable<'_>,
    at: &Cursor,
    path: &mut Vec<Move>,
    found: &mut Vec<Vec<Move>>,
    limit: usize,
) {
    if found.len() >= limit {
        return;
    }
    if target.distance_at(at.rank()) == Ok(0) {
        // Only the goal is at 0; another position there is a damaged entry.
        if at.rank() == target.goal_rank() {
            found.push(path.clone());
        }
        return;
    }
    for (m, cells, next) in closer(target, at) {
        path.extend(std::iter::repeat_n(m, cells));
        walk(target, &next, path, found, limit);
        path.truncate(path.len() - cells);
        if found.len() >= limit {
            return;
        }
    }
}
