//! A solution of any board in milliseconds, far longer than the shortest:
//! the tiles put home as a person does it, a row or a column at a time.
//!
//! Each stage places one tile, or the last two of a row or a column
//! together (a lone last tile cannot be placed without moving its
//! neighbour), or the last three in the final 2×2, by the shortest way
//! that moves the blank only over cells not yet placed. The other tiles
//! are not looked at, so a stage's breadth-first search is over the
//! places of at most three tiles and the blank: at most 36³ = 46,656
//! states (a pair of tiles on a board of 36 cells).
//! Rows are placed from the top while the region left is at least as tall
//! as it is wide, columns from the left otherwise, so the region shrinks
//! to the bottom right 2×2. The goal's blank is first walked there, and
//! walked back at the end.
//!
//! Its length is a few times the shortest. Optimistic search starts from
//! it ([`super::optimistic`]): it proves a large W at once by the start's
//! estimate, where beams on a long thin board may find nothing in minutes
//! (2×18 at W = 100), and bounds the length of every beam's search.

use crate::puzzle::board::{Board, Move};
use std::collections::VecDeque;

/// The blank's moves from `start` to `goal`, a solvable pair of one shape.
pub(super) fn constructive(start: &Board, goal: &Board) -> Vec<Move> {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    // The goal with its blank walked to the bottom right corner: the
    // region the stages leave last.
    let walk: Vec<Move> = std::iter::repeat_n(Move::Down, rows - 1 - shape.row_of(goal.blank()))
        .chain(std::iter::repeat_n(
            Move::Right,
            cols - 1 - shape.col_of(goal.blank()),
        ))
        .collect();
    let cornered = goal.replay(&walk).expect("the walk stays on the board");
    let mut placer = Placer {
        board: *start,
        placed: vec![false; shape.cells()],
        moves: Vec::new(),
    };
    let (mut top, mut left) = (0, 0);
    while rows - top > 2 || cols - left > 2 {
        let (tall, wide) = (rows - top, cols - left);
        // The line to place: the region's top row or its left column.
        // (A region at least as tall as wide is taller than 2 here, by
        // the loop's condition.)
        let line: Vec<usize> = if tall >= wide {
            top += 1;
            (left..cols).map(|c| (top - 1) * cols + c).collect()
        } else {
            left += 1;
            (top..rows).map(|r| r * cols + left - 1).collect()
        };
        let (singles, last_two) = line.split_at(line.len() - 2);
        for &cell in singles {
            placer.place(&[(cornered.cells()[cell], cell)]);
        }
        placer.place(&[
            (cornered.cells()[last_two[0]], last_two[0]),
            (cornered.cells()[last_two[1]], last_two[1]),
        ]);
    }
    // The last 2×2: its three tiles at once, the blank left in the corner.
    let last: Vec<(u8, usize)> = [
        (rows - 2, cols - 2),
        (rows - 2, cols - 1),
        (rows - 1, cols - 2),
    ]
    .into_iter()
    .map(|(r, c)| (cornered.cells()[r * cols + c], r * cols + c))
    .collect();
    placer.place(&last);
    debug_assert_eq!(placer.board, cornered);
    let mut moves = placer.moves;
    moves.extend(walk.iter().rev().map(|m| m.opposite()));
    cancel_reversals(moves)
}

/// The board as the stages leave it, the cells placed so far, and the
/// moves made.
struct Placer {
    board: Board,
    placed: Vec<bool>,
    moves: Vec<Move>,
}

impl Placer {
    /// Moves each `(tile, cell)` of `tiles` to its cell by the fewest moves
    /// over cells not placed, plays them, and marks the cells placed.
    fn place(&mut self, tiles: &[(u8, usize)]) {
        let shape = self.board.shape();
        let free: Vec<usize> = (0..shape.cells()).filter(|&c| !self.placed[c]).collect();
        let mut index = vec![usize::MAX; shape.cells()];
        for (i, &cell) in free.iter().enumerate() {
            index[cell] = i;
        }
        let where_is = |tile: u8| {
            let cell = self.board.cells().iter().position(|&t| t == tile);
            index[cell.expect("every tile is on the board")]
        };
        // A state: the blank's free-cell index, then each tile's, in base
        // `free.len()`.
        let base = free.len();
        let encode = |places: &[usize]| places.iter().fold(0, |code, &p| code * base + p);
        let mut places = vec![index[self.board.blank()]];
        places.extend(tiles.iter().map(|&(tile, _)| where_is(tile)));
        let wanted: Vec<usize> = tiles.iter().map(|&(_, cell)| index[cell]).collect();
        let states = base.pow(places.len() as u32);
        // The move that reached each state, and the state it came from.
        let mut reached: Vec<Option<(Move, usize)>> = vec![None; states];
        let first = encode(&places);
        let mut queue = VecDeque::from([places]);
        let mut end = None;
        while let Some(at) = queue.pop_front() {
            let here = encode(&at);
            if at[1..] == wanted[..] {
                end = Some(here);
                break;
            }
            for m in Move::ALL {
                let Some(to) = shape.next_cell(free[at[0]], m) else {
                    continue;
                };
                if self.placed[to] {
                    continue;
                }
                let mut next = at.clone();
                // A tile in the way slides into the blank's cell.
                for p in next[1..].iter_mut().filter(|p| **p == index[to]) {
                    *p = at[0];
                }
                next[0] = index[to];
                let code = encode(&next);
                if code != first && reached[code].is_none() {
                    reached[code] = Some((m, here));
                    queue.push_back(next);
                }
            }
        }
        let mut code = end.expect("a solvable pair's stages always succeed");
        let mut path = Vec::new();
        while code != first {
            let (m, from) = reached[code].expect("a state reached has its way back");
            path.push(m);
            code = from;
        }
        path.reverse();
        self.board = self
            .board
            .replay(&path)
            .expect("the moves stay on the board");
        self.moves.extend(path);
        for &(_, cell) in tiles {
            self.placed[cell] = true;
        }
    }
}

/// `moves` with each move straight after its opposite taken out, again
/// until none is left: a stage may end by stepping back where the next
/// begins.
fn cancel_reversals(moves: Vec<Move>) -> Vec<Move> {
    let mut kept: Vec<Move> = Vec::with_capacity(moves.len());
    for m in moves {
        match kept.last() {
            Some(&last) if last == m.opposite() => {
                kept.pop();
            }
            _ => kept.push(m),
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::shape::Shape;
    use crate::puzzle::solvability;

    /// `count` random solvable positions of `shape`, toward random goals.
    fn pairs(shape: Shape, count: usize, seed: u64) -> Vec<(Board, Board)> {
        use rand::{seq::SliceRandom, Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut drawn = Vec::new();
        while drawn.len() < count {
            let shuffle = |rng: &mut rand::rngs::StdRng| {
                let mut tiles: Vec<u64> = (0..shape.cells() as u64).collect();
                tiles.shuffle(rng);
                Board::new(shape, &tiles).unwrap()
            };
            let (start, goal) = (shuffle(&mut rng), shuffle(&mut rng));
            let goal = if rng.gen_bool(0.5) {
                Board::goal(shape)
            } else {
                goal
            };
            if solvability::check(&start, &goal).is_ok() {
                drawn.push((start, goal));
            }
        }
        drawn
    }

    #[test]
    fn solutions_reach_the_goal_on_every_shape() {
        for rows in 2..=6 {
            for cols in 2..=6 {
                let shape = Shape::new(rows, cols).unwrap();
                for (start, goal) in pairs(shape, 20, (rows * 10 + cols) as u64) {
                    let moves = constructive(&start, &goal);
                    assert_eq!(start.replay(&moves), Some(goal), "{start} -> {goal}");
                }
            }
        }
        for (rows, cols) in [(2, 18), (18, 2), (3, 12), (12, 3), (4, 9), (2, 12)] {
            let shape = Shape::new(rows, cols).unwrap();
            for (start, goal) in pairs(shape, 5, rows as u64) {
                let moves = constructive(&start, &goal);
                assert_eq!(start.replay(&moves), Some(goal), "{start} -> {goal}");
            }
        }
    }

    #[test]
    fn the_goal_itself_needs_no_moves_and_one_move_away_few() {
        let shape = Shape::new(4, 5).unwrap();
        let goal = Board::goal(shape);
        assert_eq!(constructive(&goal, &goal), vec![]);
        let near = goal.apply(Move::Up).unwrap();
        let moves = constructive(&near, &goal);
        assert_eq!(near.replay(&moves), Some(goal));
        assert!(moves.len() < 40, "{}", moves.len());
    }
}
