//! Positions of exact difficulty, drawn uniformly.
//!
//! The table knows every position's distance, so drawing "a puzzle of
//! exactly K moves" is a draw from the list of positions at K: unbiased, and
//! unlike a random walk it needs no search and cannot stop short.

use super::walked::DrawError;
use crate::db::error::AnswerError;
use crate::db::goal_table::GoalTable;
use crate::puzzle::board::Board;
use crate::puzzle::solvability;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::ops::RangeInclusive;

/// The most positions one uniform draw ([`Sample::uniform`]) is asked for
/// by the faces: no table bounds them, and each is kept (about 50 MB).
pub const MAX_UNIFORM: usize = 1_000_000;

/// A seed for a draw where none is given: below 2^53, so that a program
/// reading the JSON it is shown in (JavaScript, `jq`, any reader that
/// holds numbers as doubles) gets it back exactly and draws the same set.
pub fn fresh_seed() -> u64 {
    rand::random::<u64>() >> 11
}

/// Positions drawn toward a goal, with the seed that draws them again:
/// what `query random` reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sample {
    /// The goal.
    #[serde(serialize_with = "super::histogram::as_text")]
    pub goal: Board,
    /// The seed of the draw.
    pub seed: u64,
    /// The distances drawn from, first and last; none for a uniform draw
    /// over every position that reaches the goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distances: Option<[u32; 2]>,
    /// The positions, in the order drawn.
    pub positions: Vec<Drawn>,
}

/// One position drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Drawn {
    /// The position.
    #[serde(serialize_with = "super::histogram::as_text")]
    pub start: Board,
    /// Its distance to the goal; none where a uniform draw does not know it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
}

impl Sample {
    /// [`sample`] with a generator seeded by `seed`: the same seed draws
    /// the same positions on every face.
    pub fn draw(
        target: &GoalTable<'_>,
        distances: RangeInclusive<u32>,
        count: usize,
        seed: u64,
    ) -> Result<Sample, DrawError> {
        let mut rng = StdRng::seed_from_u64(seed);
        let boards = sample(target, distances.clone(), count, &mut rng)?;
        Ok(Sample {
            goal: *target.goal(),
            seed,
            distances: Some([*distances.start(), *distances.end()]),
            positions: checked_distances(target, boards)?,
        })
    }

    /// Each position with its distance in `target` (the goal's table),
    /// checked as [`Sample::draw`] checks it.
    pub fn with_distances(self, target: &GoalTable<'_>) -> Result<Sample, DrawError> {
        let boards = self.positions.into_iter().map(|drawn| drawn.start);
        Ok(Sample {
            positions: checked_distances(target, boards)?,
            ..self
        })
    }

    /// `count` positions drawn uniformly from every one that reaches
    /// `goal`, on any board: what needs no table.
    pub fn uniform(goal: &Board, count: usize, seed: u64) -> Sample {
        let mut rng = StdRng::seed_from_u64(seed);
        let positions = (0..count).map(|_| Drawn {
            start: uniform(goal, &mut rng),
            distance: None,
        });
        Sample {
            goal: *goal,
            seed,
            distances: None,
            positions: positions.collect(),
        }
    }
}

/// Each of `boards` with its distance in `target`, checked by a shortest
/// solution as `solve` checks one ([`GoalTable::solve_into`]): a damaged
/// entry is refused, never given as a position's distance (a puzzle of
/// "exactly K moves" that is not).
fn checked_distances(
    target: &GoalTable<'_>,
    boards: impl IntoIterator<Item = Board>,
) -> Result<Vec<Drawn>, AnswerError> {
    let mut moves = Vec::new();
    (boards.into_iter())
        .map(|start| {
            moves.clear();
            let distance = target.solve_into(&start, &mut moves)?;
            Ok(Drawn {
                start,
                distance: Some(distance),
            })
        })
        .collect()
}

/// A position drawn uniformly from those that reach `goal`: a uniform
/// arrangement of the cells, with two tiles swapped when it cannot reach
/// the goal. The swap flips the parity that decides solvability, and pairs
/// the arrangements that cannot reach it one to one with those that can,
/// so each of those is drawn with the same chance.
fn uniform(goal: &Board, rng: &mut StdRng) -> Board {
    let shape = goal.shape();
    let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
    cells.shuffle(rng);
    let drawn = Board::new(shape, &cells).expect("a permutation of the cells");
    if solvability::check(&drawn, goal).is_ok() {
        return drawn;
    }
    let tiles: Vec<usize> = (0..cells.len())
        .filter(|&c| cells[c] != 0)
        .take(2)
        .collect();
    cells.swap(tiles[0], tiles[1]);
    Board::new(shape, &cells).expect("a permutation of the cells")
}

/// Why a sample cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// The distances asked for lie beyond the goal's farthest position.
    #[error("no position is {distances} moves from this goal: the maximum distance is {max}")]
    BeyondMaximum {
        /// The distances asked for, as the user wrote them.
        distances: String,
        /// The table's maximum distance.
        max: u32,
    },
    /// The table holds fewer positions at those distances than its header
    /// counts: it is damaged.
    #[error(
        "the table is damaged: it holds fewer positions at those distances than its header says"
    )]
    Damaged,
    /// More distinct positions asked for than exist.
    #[error(
        "asked for {asked} distinct positions, but only {available} {} at {distances} move{}",
        if *.available == 1 { "lies" } else { "lie" },
        if .distances == "1" { "" } else { "s" }
    )]
    TooFew {
        /// Positions asked for.
        asked: usize,
        /// Positions that exist at those distances.
        available: u64,
        /// The distances, as the user wrote them.
        distances: String,
    },
}

/// `distances` as messages write them: `20`, or `20 to 25`.
pub(super) fn in_words(distances: &RangeInclusive<u32>) -> String {
    match distances.start() == distances.end() {
        true => distances.start().to_string(),
        false => format!("{} to {}", distances.start(), distances.end()),
    }
}

/// Draws `count` distinct positions, uniformly among all positions whose
/// distance to the target's goal lies in `distances`, in random order.
pub fn sample(
    target: &GoalTable<'_>,
    distances: RangeInclusive<u32>,
    count: usize,
    rng: &mut impl Rng,
) -> Result<Vec<Board>, SampleError> {
    let max = target.info().max_distance as u32;
    let lo = *distances.start();
    let written = || in_words(&distances);
    if lo > max {
        return Err(SampleError::BeyondMaximum {
            distances: written(),
            max,
        });
    }
    let available: u64 = target
        .info()
        .counts
        .iter()
        .enumerate()
        .filter(|&(d, _)| distances.contains(&(d as u32)))
        .map(|(_, &c)| c)
        .sum();
    if count as u64 > available {
        return Err(SampleError::TooFew {
            asked: count,
            available,
            distances: written(),
        });
    }
    // Which of the matching positions, counted in rank order, to take: a
    // uniform choice of `count` distinct indices, then one scan of the
    // table. Memory is proportional to `count`, not to the matches (which
    // reach 239.5 million on 12-cell boards).
    let mut chosen = rand::seq::index::sample(rng, available as usize, count).into_vec();
    chosen.sort_unstable();
    let mut wanted = chosen.iter().peekable();
    let mut ranks: Vec<u32> = Vec::with_capacity(count);
    for (i, rank) in target.ranks_within(distances.clone()).enumerate() {
        if wanted.peek() == Some(&&i) {
            ranks.push(rank);
            wanted.next();
            if wanted.peek().is_none() {
                break;
            }
        }
    }
    if ranks.len() < count {
        return Err(SampleError::Damaged);
    }
    ranks.shuffle(rng);
    Ok(ranks.iter().map(|&rank| target.board_at(rank)).collect())
}

/// Why a `--distance` argument is not a distance or a range of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DistanceRangeError {
    /// Not a whole number of moves, nor a range of them.
    #[error("{0:?} is not a distance: write K, A..=B or A..B with whole numbers of moves")]
    NotADistance(String),
    /// A distance below zero.
    #[error("{0:?} is negative: distances count moves, from 0 up")]
    Negative(String),
    /// A range that holds no distance.
    #[error("{0:?} is an empty range")]
    Empty(String),
    /// A whole number past any distance a table holds (a range's end
    /// too: cut at 4 billion, it would be shown as if asked for).
    #[error("{0:?} {PAST_EVERY_TABLE}")]
    TooFar(String),
}

/// What [`DistanceRangeError::TooFar`] says of the distances asked for,
/// after naming them (Python names a `range` as Python writes it).
pub const PAST_EVERY_TABLE: &str = "reaches past 4 billion moves, farther than any position \
                                    lies from its goal: end it at the goal's farthest distance \
                                    or below";

/// Reads a distance or a range of distances: `20`, `20..=25` or `20..26`.
pub fn parse_distances(text: &str) -> Result<RangeInclusive<u32>, DistanceRangeError> {
    // The text as given, cut short for the message.
    let given = || crate::puzzle::parse::excerpt(text, 40).into_owned();
    let number = |s: &str| {
        let s = s.trim();
        s.parse::<u32>().map_err(|_| match s.parse::<i64>() {
            Ok(n) if n < 0 => DistanceRangeError::Negative(given()),
            _ if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
                DistanceRangeError::TooFar(given())
            }
            _ => DistanceRangeError::NotADistance(given()),
        })
    };
    let range = if let Some((a, b)) = text.split_once("..=") {
        number(a)?..=number(b)?
    } else if let Some((a, b)) = text.split_once("..") {
        let end = number(b)?;
        if end == 0 {
            return Err(DistanceRangeError::Empty(given()));
        }
        number(a)?..=end - 1
    } else {
        let k = number(text)?;
        k..=k
    };
    if range.is_empty() {
        return Err(DistanceRangeError::Empty(given()));
    }
    Ok(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_ranges_parse_and_each_mistake_is_named() {
        use DistanceRangeError::*;
        assert_eq!(parse_distances("20"), Ok(20..=20));
        assert_eq!(parse_distances("20..=25"), Ok(20..=25));
        assert_eq!(parse_distances("20..26"), Ok(20..=25));
        assert_eq!(parse_distances("25..=20"), Err(Empty("25..=20".into())));
        assert_eq!(parse_distances("3..3"), Err(Empty("3..3".into())));
        assert_eq!(parse_distances("0..0"), Err(Empty("0..0".into())));
        let far = "9".repeat(30);
        assert_eq!(parse_distances(&far), Err(TooFar(far.clone())));
        assert_eq!(
            parse_distances("4294967296"),
            Err(TooFar("4294967296".into()))
        );
        assert_eq!(
            parse_distances("1..=4294967296"),
            Err(TooFar("1..=4294967296".into()))
        );
        assert_eq!(parse_distances("-1"), Err(Negative("-1".into())));
        assert_eq!(parse_distances("2..=-1"), Err(Negative("2..=-1".into())));
        assert_eq!(parse_distances("x"), Err(NotADistance("x".into())));
    }
}
