//! All shortest solutions: how many there are, and some of them.
//!
//! From a position at distance d, every move to a neighbour at distance d−1
//! starts a shortest solution, and every shortest solution starts that way.
//! So the shortest solutions form a layered graph that the table lays out
//! without any search: counting them is dynamic programming over its layers
//! (each position once per layer), instant even when the count is huge.

use crate::db::error::AnswerError;
use crate::db::goal_table::GoalTable;
use crate::io::Answer;
use crate::puzzle::board::{move_string, Move};
use crate::table::rank::Cursor;
use serde::{Serialize, Serializer};
use std::collections::HashMap;

/// Every shortest solution of a solvable pair, counted, and the first few
/// listed: what `query solve --all` reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShortestSolutions {
    /// The answer for the pair, as `solve` gives it.
    #[serde(flatten)]
    pub answer: Answer,
    /// How many shortest solutions there are.
    pub solutions: u128,
    /// The first ones, in alphabetical order of their move strings.
    #[serde(serialize_with = "as_letters")]
    pub listed: Vec<Vec<Move>>,
}

impl ShortestSolutions {
    /// Counts the shortest solutions of `answer`'s pair toward `target`'s
    /// goal, and lists up to `limit`. `answer` must be solvable.
    pub fn of(
        target: &GoalTable<'_>,
        answer: Answer,
        limit: usize,
    ) -> Result<ShortestSolutions, AnswerError> {
        Ok(ShortestSolutions {
            solutions: count_shortest(target, &answer.start)?,
            listed: list_shortest(target, &answer.start, limit)?,
            answer,
        })
    }
}

fn as_letters<S: Serializer>(listed: &[Vec<Move>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(listed.iter().map(|m| move_string(m)))
}

/// The moves from `position` (in the table's frame) that lead one step
/// closer, in the goal's frame and in letter order (D, L, R, U), with the
/// positions they lead to.
fn closer<'a>(
    target: &GoalTable<'a>,
    position: &Cursor,
) -> impl Iterator<Item = (Move, Cursor)> + 'a {
    let target = *target;
    let ranker = *target.ranker();
    let d = target.distance_at(position.rank());
    let position = *position;
    [Move::Down, Move::Left, Move::Right, Move::Up]
        .into_iter()
        .filter_map(move |m| {
            let next = ranker.step(&position, target.move_to_table(m))?;
            Some((m, next))
        })
        .filter(move |(_, next)| {
            matches!((&d, target.distance_at(next.rank())), (Ok(d), Ok(n)) if n + 1 == *d)
        })
}

/// Every move from `start` that leads one step closer to the goal: the
/// first moves of all shortest solutions, in letter order (D, L, R, U).
/// Empty at the goal.
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
    let position = target.cursor(start)?;
    let distance = target.distance_at(position.rank())?;
    let moves: Vec<Move> = closer(target, &position).map(|(m, _)| m).collect();
    // Every position but the goal has a move one step closer; none means damage.
    if moves.is_empty() && distance > 0 {
        return Err(AnswerError::Corrupt {
            rank: position.rank(),
        });
    }
    Ok(moves)
}

/// The number of distinct shortest move sequences from `start` to the goal.
/// At most 4·3^79 for the 80 moves of the longest boards, so a `u128` holds it.
pub fn count_shortest(target: &GoalTable<'_>, start: &crate::Board) -> Result<u128, AnswerError> {
    let first = target.cursor(start)?;
    let mut layer: HashMap<u32, (Cursor, u128)> = HashMap::from([(first.rank(), (first, 1))]);
    let distance = target.distance_at(first.rank())?;
    for _ in 0..distance {
        let mut next: HashMap<u32, (Cursor, u128)> = HashMap::with_capacity(layer.len() * 2);
        for (position, ways) in layer.values() {
            for (_, after) in closer(target, position) {
                next.entry(after.rank()).or_insert((after, 0)).1 += ways;
            }
        }
        if next.is_empty() {
            return Err(AnswerError::Corrupt { rank: first.rank() });
        }
        layer = next;
    }
    Ok(layer.values().map(|&(_, ways)| ways).sum())
}

/// Up to `limit` shortest move sequences from `start` to the goal, in
/// alphabetical order of their move strings.
pub fn list_shortest(
    target: &GoalTable<'_>,
    start: &crate::Board,
    limit: usize,
) -> Result<Vec<Vec<Move>>, AnswerError> {
    let first = target.cursor(start)?;
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
        found.push(path.clone());
        return;
    }
    for (m, next) in closer(target, at) {
        path.push(m);
        walk(target, &next, path, found, limit);
        path.pop();
        if found.len() >= limit {
            return;
        }
    }
}
