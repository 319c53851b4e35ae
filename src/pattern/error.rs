//! What can go wrong with patterns, their tables, and searches that use them.

use super::search::Work;
use crate::puzzle::cell::Cell;
use crate::puzzle::shape::Shape;
use crate::puzzle::solvability::Unsolvable;

/// Why a partition, a pattern or a set of tables is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// A partition name this board has no grouping for.
    #[error("no partition named {name:?} for a {shape} board; known: {known}")]
    UnknownPartition {
        /// The name asked for.
        name: String,
        /// The board.
        shape: Shape,
        /// The names this board has, comma separated.
        known: String,
    },
    /// A tile number the board does not have.
    #[error("tile {tile} is not on a {shape} board (tiles are 1 to {max})")]
    TileOutOfRange {
        /// The tile given.
        tile: usize,
        /// The board.
        shape: Shape,
        /// The largest tile.
        max: usize,
    },
    /// A tile in two patterns: the sum of their tables would overestimate.
    #[error("tile {tile} is in two patterns; additive patterns must be disjoint")]
    TileTwice {
        /// The repeated tile.
        tile: u8,
    },
    /// A pattern without tiles.
    #[error("pattern {index} has no tiles")]
    EmptyPattern {
        /// Its place in the partition, from 0.
        index: usize,
    },
    /// A pattern whose table would have more than `u32::MAX` entries.
    #[error(
        "a pattern of {tiles} tiles on {cells} cells has {placements} placements, \
         more than a table indexes (at most 4294967295); use smaller patterns"
    )]
    TooManyPlacements {
        /// Tiles in the pattern.
        tiles: usize,
        /// Cells of the board.
        cells: usize,
        /// n!/(n-k)!.
        placements: u64,
    },
    /// A pattern so small on a board so large that its build cannot keep
    /// the blank's free cells in one 64-bit word.
    #[error(
        "a pattern of {tiles} tiles on {cells} cells leaves {} cells free; the build \
         handles at most {most} free cells on boards of more than 32 cells: use patterns \
         of at least {} tiles",
        cells - tiles,
        cells - most
    )]
    TooManyFree {
        /// Tiles in the pattern.
        tiles: usize,
        /// Cells of the board.
        cells: usize,
        /// The most free cells handled.
        most: usize,
    },
    /// A goal blank cell the board does not have.
    #[error("the goal's blank cell {blank} is not on a board of {cells} cells")]
    GoalBlankOutside {
        /// The cell given.
        blank: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// Tables given for a partition do not match its patterns.
    #[error("expected {expected} tables, one per pattern, got {got}")]
    TableCount {
        /// Patterns in the partition.
        expected: usize,
        /// Tables given.
        got: usize,
    },
    /// A table of the wrong length for its pattern.
    #[error(
        "the table of pattern {index} has {got} entries, expected {expected} \
         (one per placement); rebuild it for this partition"
    )]
    TableLength {
        /// The pattern's place in the partition.
        index: usize,
        /// Placements of the pattern.
        expected: usize,
        /// Entries given.
        got: usize,
    },
}

/// Why a search gave no solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A board of another shape than the database's.
    #[error("expected a {expected} board, got a {got} board")]
    WrongShape {
        /// The database's board.
        expected: Shape,
        /// The board given.
        got: Shape,
    },
    /// The start can never reach the goal.
    #[error("no solution: {0}")]
    Unsolvable(#[from] Unsolvable),
    /// A goal whose blank no symmetry takes to the tables' goal blank.
    #[error(
        "the goal's blank is in {}; these tables answer goals with the blank in {}, or in a \
         cell a reflection or rotation of the board takes there",
        .cell.name(),
        .expected.name()
    )]
    GoalBlank {
        /// The tables' board.
        shape: Shape,
        /// The goal's blank cell.
        cell: Cell,
        /// The tables' goal blank cell.
        expected: Cell,
    },
    /// The search stopped before it found a solution.
    #[error(transparent)]
    Stopped(#[from] Stopped),
    /// The tables cannot be right, so no search through them is trusted.
    #[error("the pattern tables are damaged: {damage}")]
    DamagedTables {
        /// What gave them away.
        damage: Damage,
    },
}

impl SolveError {
    /// Why the search stopped, when it stopped before a solution.
    pub fn stopped(&self) -> Option<&Stopped> {
        match self {
            SolveError::Stopped(why) => Some(why),
            _ => None,
        }
    }
}

/// What damaged pattern tables did, that good ones cannot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Damage {
    /// They put their own goal this many moves from itself, where it must
    /// be 0.
    #[error("they put the goal {0} moves from itself, where it must be 0")]
    GoalAway(u32),
    /// The search went through every position they let it reach without
    /// meeting the goal.
    #[error("the search went through every position they allow without reaching the goal")]
    NoWayToGoal,
    /// An estimate above the most their entries add up to: the sum of each
    /// table's largest entry, as the file's header records them.
    #[error(
        "they estimate a position {estimate} moves from the goal, more than the {largest} their \
         largest entries add up to"
    )]
    AboveLargest {
        /// The estimate read.
        estimate: u32,
        /// The most a good file's entries give.
        largest: u32,
    },
}

/// `Ok` where tables estimate their own goal at 0 moves (`at_goal`), as
/// every search needs: it tells the goal by that estimate first.
pub(crate) fn goal_at_zero(at_goal: u32) -> Result<(), SolveError> {
    match at_goal {
        0 => Ok(()),
        n => Err(SolveError::DamagedTables {
            damage: Damage::GoalAway(n),
        }),
    }
}

/// `Ok` where `estimate` is at most `largest`, the most good tables give.
pub(crate) fn within_largest(estimate: u32, largest: u32) -> Result<u32, SolveError> {
    match estimate <= largest {
        true => Ok(estimate),
        false => Err(SolveError::DamagedTables {
            damage: Damage::AboveLargest { estimate, largest },
        }),
    }
}

/// Why a search stopped before it found a solution: its deadline passed,
/// or its caller cancelled it. A database's answer carries it on as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    /// The deadline passed.
    #[error("no solution within the time allowed: stopped at bound {bound} after {nodes} nodes")]
    TimedOut {
        /// The bound being searched.
        bound: u32,
        /// Nodes generated.
        nodes: u64,
        /// Nodes expanded (their children generated).
        expanded: u64,
    },
    /// The caller cancelled the search.
    #[error("search cancelled at bound {bound} after {nodes} nodes")]
    Cancelled {
        /// The bound being searched.
        bound: u32,
        /// Nodes generated.
        nodes: u64,
        /// Nodes expanded (their children generated).
        expanded: u64,
    },
}

impl Stopped {
    /// The deadline passed at `bound`, after `work`.
    pub(crate) fn timed_out(bound: u32, work: Work) -> Stopped {
        let (nodes, expanded) = (work.generated, work.expanded);
        Stopped::TimedOut {
            bound,
            nodes,
            expanded,
        }
    }

    /// The caller cancelled the search at `bound`, after `work`.
    pub(crate) fn cancelled(bound: u32, work: Work) -> Stopped {
        let (nodes, expanded) = (work.generated, work.expanded);
        Stopped::Cancelled {
            bound,
            nodes,
            expanded,
        }
    }

    /// The bound being searched.
    pub fn bound(self) -> u32 {
        match self {
            Stopped::TimedOut { bound, .. } | Stopped::Cancelled { bound, .. } => bound,
        }
    }

    /// The nodes generated and expanded before the stop.
    pub(crate) fn work(self) -> Work {
        match self {
            Stopped::TimedOut {
                nodes, expanded, ..
            }
            | Stopped::Cancelled {
                nodes, expanded, ..
            } => Work {
                generated: nodes,
                expanded,
            },
        }
    }

    /// The same kind of stop at `bound` after `work`.
    fn with(self, bound: u32, work: Work) -> Stopped {
        match self {
            Stopped::TimedOut { .. } => Stopped::timed_out(bound, work),
            Stopped::Cancelled { .. } => Stopped::cancelled(bound, work),
        }
    }

    /// The same stop, reporting `bound` in place of its own: for a search
    /// of another problem, whose bounds do not hold for the one asked.
    pub(crate) fn at_bound(self, bound: u32) -> Stopped {
        self.with(bound, self.work())
    }

    /// The same stop, after earlier searches of the same position that
    /// proved the lower bound `proved` and did the work `spent`: the
    /// larger bound, and all the work.
    pub(crate) fn after(self, proved: u32, spent: Work) -> Stopped {
        let mut work = self.work();
        work += spent;
        self.with(self.bound().max(proved), work)
    }
}

impl SolveError {
    /// [`Stopped::after`] where the search stopped; any other error as it
    /// is.
    pub(crate) fn after(self, proved: u32, spent: Work) -> SolveError {
        match self {
            SolveError::Stopped(stop) => SolveError::Stopped(stop.after(proved, spent)),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stop after earlier searches keeps the best bound any of them
    /// proved and counts all their work; other errors pass unchanged.
    #[test]
    fn a_stop_after_earlier_searches_keeps_their_bound_and_nodes() {
        let work = |generated, expanded| Work {
            generated,
            expanded,
        };
        let late = Stopped::timed_out(95, work(7, 3));
        assert_eq!(
            late.after(101, work(40, 20)),
            Stopped::TimedOut {
                bound: 101,
                nodes: 47,
                expanded: 23
            }
        );
        let cancelled = Stopped::cancelled(99, work(1, 0));
        assert_eq!(
            cancelled.after(97, Work::default()),
            Stopped::Cancelled {
                bound: 99,
                nodes: 1,
                expanded: 0
            }
        );
        // Another problem's bound gives way to the one given, however
        // much larger it was.
        assert_eq!(late.at_bound(80), Stopped::timed_out(80, work(7, 3)));
        assert_eq!(cancelled.at_bound(100), Stopped::cancelled(100, work(1, 0)));
        let error = SolveError::from(late).after(101, work(40, 20));
        assert!(
            error.to_string().contains("bound 101 after 47 nodes"),
            "{error}"
        );
        let wrong = SolveError::WrongShape {
            expected: Shape::THREE_BY_THREE,
            got: "4x4".parse().unwrap(),
        };
        assert!(matches!(
            wrong.after(101, work(40, 20)),
            SolveError::WrongShape { .. }
        ));
    }
}
