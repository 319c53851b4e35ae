//! Building tables: one reverse breadth-first search from each goal.

use crate::board::{Board, Move};
use crate::entry::{self, MAX_DISTANCE, UNSEEN};
use crate::rank::Ranker;
use crate::shape::Shape;
use rayon::prelude::*;

/// A complete table for the canonical goal with the blank in `goal_blank`:
/// one entry per rank, and how many positions lie at each distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The goal's blank cell.
    pub goal_blank: usize,
    /// One [`entry`] per rank.
    pub entries: Vec<u8>,
    /// `counts[d]` = positions at distance `d`; the last is the maximum distance.
    pub counts: Vec<u64>,
}

impl Table {
    /// The largest distance in the table.
    pub fn max_distance(&self) -> usize {
        self.counts.len() - 1
    }
}

/// Builds the table for one goal blank cell.
///
/// Each level of the search expands the positions found at the previous
/// level. A child found for the first time gets the move that undoes the one
/// that reached it: that move leads one step back toward the goal. Ranks are
/// updated move by move with a [`crate::rank::Cursor`], never computed from
/// scratch.
pub fn build_table(shape: Shape, goal_blank: usize) -> Table {
    let ranker = Ranker::new(shape, goal_blank);
    let mut entries = vec![UNSEEN; ranker.len()];
    let (goal, _) = ranker.cursor(&Board::canonical_goal(shape, goal_blank));
    entries[goal.rank() as usize] = entry::encode(0, Move::Up);

    let mut counts = vec![1u64];
    let mut frontier = vec![goal];
    let mut next = Vec::new();
    let mut distance = 0u8;
    while !frontier.is_empty() {
        distance += 1;
        for position in &frontier {
            // The move back toward the goal only finds the parent again.
            let back = entry::next_move(entries[position.rank() as usize]);
            for m in Move::ALL {
                if m == back && distance > 1 {
                    continue;
                }
                let Some(child) = ranker.step(position, m) else {
                    continue;
                };
                let slot = &mut entries[child.rank() as usize];
                if *slot == UNSEEN {
                    *slot = entry::encode(distance, m.opposite());
                    next.push(child);
                }
            }
        }
        if !next.is_empty() {
            assert!(
                distance <= MAX_DISTANCE,
                "{shape} has distances beyond one-byte entries"
            );
            counts.push(next.len() as u64);
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    Table {
        goal_blank,
        entries,
        counts,
    }
}

/// Builds the tables for several goal blank cells in parallel.
pub fn build_tables(shape: Shape, goal_blanks: &[usize]) -> Vec<Table> {
    goal_blanks
        .par_iter()
        .map(|&blank| build_table(shape, blank))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_reached() {
        let shape: Shape = "2x3".parse().unwrap();
        for table in build_tables(shape, &[0, 5]) {
            assert!(table.entries.iter().all(|&e| e != UNSEEN));
            assert_eq!(table.counts.iter().sum::<u64>(), shape.positions());
            // The 2x3 puzzle's diameter is 21 for a corner goal.
            assert_eq!(table.max_distance(), 21);
        }
    }
}
