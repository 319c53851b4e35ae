//! Positions of exact difficulty, drawn uniformly.
//!
//! The table knows every position's distance, so drawing "a puzzle of
//! exactly K moves" is a draw from the list of positions at K: unbiased, and
//! unlike a random walk it needs no search and cannot stop short.

use crate::board::Board;
use crate::database::Target;
use rand::seq::SliceRandom;
use rand::Rng;
use std::ops::RangeInclusive;

/// Why a sample cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// The distances asked for lie beyond the goal's farthest position.
    #[error("no position is {asked} moves from this goal: the maximum distance is {max}")]
    BeyondMaximum {
        /// The distance (or the range's start) asked for.
        asked: u32,
        /// The table's maximum distance.
        max: u32,
    },
    /// The table holds fewer positions at those distances than its header
    /// counts: it is damaged.
    #[error("the table is damaged: it holds fewer positions at those distances than its header says (run `query verify`)")]
    Damaged,
    /// More distinct positions asked for than exist.
    #[error("asked for {asked} distinct positions, but only {available} lie at {distances} moves")]
    TooFew {
        /// Positions asked for.
        asked: usize,
        /// Positions that exist at those distances.
        available: u64,
        /// The distances, as the user wrote them.
        distances: String,
    },
}

/// Draws `count` distinct positions, uniformly among all positions whose
/// distance to the target's goal lies in `distances`, in random order.
pub fn sample(
    target: &Target<'_>,
    distances: RangeInclusive<u32>,
    count: usize,
    rng: &mut impl Rng,
) -> Result<Vec<Board>, SampleError> {
    let max = target.info().max_distance as u32;
    if *distances.start() > max {
        return Err(SampleError::BeyondMaximum {
            asked: *distances.start(),
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
        let (lo, hi) = (*distances.start(), *distances.end());
        return Err(SampleError::TooFew {
            asked: count,
            available,
            distances: if lo == hi {
                lo.to_string()
            } else {
                format!("{lo} to {hi}")
            },
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

/// Reads a distance or a range of distances: `20`, `20..=25` or `20..26`.
pub fn parse_distances(text: &str) -> Result<RangeInclusive<u32>, String> {
    let number = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("{text:?} is not a distance: write K, A..=B or A..B"))
    };
    let range = if let Some((a, b)) = text.split_once("..=") {
        number(a)?..=number(b)?
    } else if let Some((a, b)) = text.split_once("..") {
        let end = number(b)?;
        if end == 0 {
            return Err(format!("{text:?} is an empty range"));
        }
        number(a)?..=end - 1
    } else {
        let k = number(text)?;
        k..=k
    };
    if range.is_empty() {
        return Err(format!("{text:?} is an empty range"));
    }
    Ok(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_ranges() {
        assert_eq!(parse_distances("20"), Ok(20..=20));
        assert_eq!(parse_distances("20..=25"), Ok(20..=25));
        assert_eq!(parse_distances("20..26"), Ok(20..=25));
        assert!(parse_distances("25..=20").is_err());
        assert!(parse_distances("3..3").is_err());
        assert!(parse_distances("0..0").is_err());
        assert!(parse_distances("-1").is_err());
        assert!(parse_distances("x").unwrap_err().contains("not a distance"));
    }
}
