//! Answering toward one goal: a table seen from that goal's frame, through
//! the renaming of its tiles and, where the table is a symmetric cell's,
//! the board's reflection or rotation.

use crate::db::error::AnswerError;
use crate::db::format::TableInfo;
use crate::puzzle::board::{Board, Move};
use crate::puzzle::metric::Metric;
use crate::puzzle::relabel::Relabelling;
use crate::puzzle::shape::Shape;
use crate::puzzle::solvability::{self, Unsolvable};
use crate::puzzle::symmetry::Symmetry;
use crate::table::entry;
use crate::table::path_table::{self, Replayer, MOVES_PER_WORD};
use crate::table::rank::{Cursor, Ranker};
use crate::table::step::toward_goal;
use std::ops::RangeInclusive;

/// That `board` is of the database's board size.
#[inline(always)]
pub(crate) fn check_shape(expected: Shape, board: &Board) -> Result<(), AnswerError> {
    if board.shape() == expected {
        Ok(())
    } else {
        Err(AnswerError::WrongShape {
            expected,
            got: board.shape(),
        })
    }
}

/// From a table's frame to a goal's: the inverses of a target's renaming
/// and symmetry.
#[derive(Clone, Copy)]
struct Back {
    relabelling: Relabelling,
    symmetry: Option<Symmetry>,
}

impl Back {
    fn apply(&self, board: &Board) -> Board {
        let relabelled = self.relabelling.apply(board);
        self.symmetry.map_or(relabelled, |s| s.apply(&relabelled))
    }
}

/// A database's table seen from one goal.
#[derive(Clone, Copy)]
pub struct GoalTable<'a> {
    goal: Board,
    goal_cursor: Cursor,
    /// Into the table's frame, when the table is not the goal's own.
    symmetry: Option<Symmetry>,
    /// Indexed by a move's code in the table's frame: the move in the goal's.
    moves_back: [Move; 4],
    relabelling: Relabelling,
    /// Whether the goal is its table's canonical goal (the renaming leaves
    /// every board as it is).
    canonical: bool,
    ranker: Ranker,
    entries: &'a [u8],
    /// The table's path table, if the file has one.
    path_table: Option<&'a [u8]>,
    replayer: Replayer,
    info: &'a TableInfo,
    /// Distance fields below this may mean the field or the field + 63:
    /// none on boards whose maximum is below 63.
    ambiguous: u8,
    shape: Shape,
    metric: Metric,
    /// The most cells the blank goes in one move: 1, or the longest slide.
    longest: usize,
}

impl<'a> GoalTable<'a> {
    /// The table `info` (whose entries and path table are given, ranked by
    /// `ranker`) seen from `goal`, through `symmetry` into the table's frame
    /// when the table is another cell's.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        goal: Board,
        symmetry: Option<Symmetry>,
        ranker: Ranker,
        metric: Metric,
        info: &'a TableInfo,
        entries: &'a [u8],
        path_table: Option<&'a [u8]>,
        replayer: Replayer,
    ) -> GoalTable<'a> {
        let table_goal = symmetry.map_or(goal, |s| s.apply(&goal));
        let relabelling = Relabelling::to_canonical(&table_goal);
        let moves_back = symmetry.map_or(Move::ALL, |s| {
            let back = s.inverse();
            Move::ALL.map(|m| back.apply_move(m))
        });
        GoalTable {
            goal,
            goal_cursor: ranker.cursor(&relabelling.apply(&table_goal)).0,
            symmetry,
            moves_back,
            relabelling,
            canonical: relabelling.is_identity(),
            ranker,
            entries,
            path_table,
            replayer,
            info,
            ambiguous: info.max_distance.saturating_sub(entry::MODULUS as u8 - 1),
            shape: ranker.shape(),
            metric,
            longest: metric.longest_slide(ranker.shape()),
        }
    }

    /// How the table's distances count moves.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Whether `other` sees its table from the same frame as this one (the
    /// same goal blank cell, symmetry and renaming), so that a rank names
    /// the same position in both.
    pub fn same_frame(&self, other: &GoalTable<'_>) -> bool {
        self.info.goal_blank == other.info.goal_blank
            && self.symmetry == other.symmetry
            && self.relabelling == other.relabelling
            && self.ranker.len() == other.ranker.len()
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The header entry of the table that serves this goal (its counts per
    /// distance hold for this goal too: relabelling changes no distance).
    pub fn info(&self) -> &'a TableInfo {
        self.info
    }

    /// The table's entries, indexed by the rank of a canonically labelled
    /// position (see [`GoalTable::ranker`]); [`entry`] decodes them, and
    /// [`GoalTable::distance_at`] tells their distances.
    pub fn entries(&self) -> &'a [u8] {
        self.entries
    }

    /// The table's path table ([`path_table`]), if the file has one.
    pub fn path_table(&self) -> Option<&'a [u8]> {
        self.path_table
    }

    /// The goal's rank in the table.
    pub fn goal_rank(&self) -> u32 {
        self.goal_cursor.rank()
    }

    /// The ranker of the table's canonical frame.
    pub fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    /// A board of the goal's frame in the table's: reflected or turned when
    /// the table belongs to a symmetric cell, and relabelled.
    #[inline]
    pub fn to_table(&self, board: &Board) -> Board {
        match &self.symmetry {
            Some(s) => self.relabelling.apply(&s.apply(board)),
            // The default goals need no renaming: skipped, for speed.
            None if self.canonical => *board,
            None => self.relabelling.apply(board),
        }
    }

    /// A board of the table's frame in the goal's: the inverse of
    /// [`GoalTable::to_table`].
    pub fn from_table(&self, board: &Board) -> Board {
        self.back().apply(board)
    }

    /// The way back from the table's frame, for scans that map many boards.
    fn back(&self) -> Back {
        Back {
            relabelling: self.relabelling.inverse(),
            symmetry: self.symmetry.map(|s| s.inverse()),
        }
    }

    /// A move of the table's frame as a move in the goal's.
    #[inline]
    pub fn move_from_table(&self, m: Move) -> Move {
        self.moves_back[m.code() as usize]
    }

    /// A move of the goal's frame as a move in the table's.
    #[inline]
    pub fn move_to_table(&self, m: Move) -> Move {
        self.symmetry.map_or(m, |s| s.apply_move(m))
    }

    /// The position with rank `rank` in the table, in the goal's frame.
    pub fn board_at(&self, rank: u32) -> Board {
        self.from_table(&self.ranker.unrank(rank))
    }

    /// Every position at exactly `distance` moves from the goal, in rank
    /// order. Scans the whole table.
    pub fn positions_at(&self, distance: u32) -> impl Iterator<Item = Board> + 'a {
        let (ranker, back) = (self.ranker, self.back());
        self.ranks_within(distance..=distance)
            .map(move |rank| back.apply(&ranker.unrank(rank)))
    }

    /// The ranks (in the table's frame) of every position whose distance
    /// from the goal lies in `distances`, in order. Scans the whole table.
    pub fn ranks_within(&self, distances: RangeInclusive<u32>) -> impl Iterator<Item = u32> + 'a {
        let target = *self;
        // The distance fields those distances store, one bit each.
        let last = (*distances.end()).min(self.info.max_distance as u32);
        let fields =
            (*distances.start()..=last).fold(0u64, |mask, d| mask | 1 << entry::field_of(d));
        self.entries
            .iter()
            .enumerate()
            .filter(move |&(_, e)| fields >> entry::distance_field(*e) & 1 == 1)
            .map(|(rank, _)| rank as u32)
            .filter(move |&rank| match target.distance_at(rank) {
                Ok(d) => distances.contains(&d),
                Err(_) => false,
            })
    }

    /// The distance of the position with rank `rank` in the table's frame.
    #[inline]
    pub fn distance_at(&self, rank: u32) -> Result<u32, AnswerError> {
        let field = entry::distance_field(self.entries[rank as usize]);
        if field < self.ambiguous {
            return self.resolve(rank, field);
        }
        Ok(field as u32)
    }

    /// The distance of a position whose field `field` may mean `field` or
    /// `field + 63` (see [`entry`]): it is `field` when the stored moves
    /// reach the goal in `field` steps. Each step must land on the next
    /// field down, so a damaged entry on the way gives an error.
    #[cold]
    #[inline(never)]
    fn resolve(&self, rank: u32, field: u8) -> Result<u32, AnswerError> {
        let mut position = self.ranker.cursor_at(rank);
        let mut e = self.entries[rank as usize];
        for _ in 0..field {
            let from = position.rank();
            (_, _, e) = toward_goal(&self.ranker, self.entries, &mut position, e, self.longest)
                .ok_or(AnswerError::Corrupt { rank: from })?;
        }
        if position == self.goal_cursor {
            Ok(field as u32)
        } else {
            Ok(field as u32 + entry::MODULUS)
        }
    }

    /// The start in the table's frame (see [`GoalTable::to_table`]), as a
    /// cursor for moving through the table; or why it has no place there.
    // Always inlined: every lookup starts here, and as a call it spilled
    // its registers (a distance lookup took 25 ns instead of 18).
    #[inline(always)]
    pub fn cursor(&self, start: &Board) -> Result<Cursor, AnswerError> {
        check_shape(self.shape, start)?;
        let board = self.to_table(start);
        let (cursor, inversions) = self.ranker.cursor(&board);
        if !self.ranker.reaches_goal(board.blank(), inversions) {
            return Err(self.unsolvable(start));
        }
        Ok(cursor)
    }

    /// Why `start` cannot reach the goal, told in the goal's frame.
    #[cold]
    fn unsolvable(&self, start: &Board) -> AnswerError {
        let relabelled = Relabelling::to_canonical(&self.goal).apply(start);
        let why = Unsolvable::check(
            self.shape,
            solvability::inversions(&relabelled),
            start.blank(),
            self.goal.blank(),
        );
        // The table's frame and the goal's agree: symmetries and renaming
        // preserve which positions reach which.
        let why = why.expect_err("the parities disagree");
        AnswerError::Unsolvable(why.with_plain_counts(start, &self.goal))
    }

    /// Fewest moves from `start` to the goal, its entry checked as
    /// [`GoalTable::checked_distance`] checks it.
    #[inline]
    pub fn distance(&self, start: &Board) -> Result<u32, AnswerError> {
        self.checked_distance(self.cursor(start)?)
    }

    /// The distance at `position`, its entry checked against its
    /// neighbours, so that a damaged entry gives an error, as in
    /// `solve_into`, rather than a wrong number: the goal, and it alone, is
    /// at distance 0; any other position's stored move must land one move
    /// closer, and under the multi-tile metric, where a slide may lead to a
    /// position as far as its own, no slide may land two or more moves
    /// closer. Under the single-tile metric, whose neighbours lie one move
    /// either side, the one step is check enough, but for a distance two
    /// too long with its move damaged to match, which `solve_into`'s walk
    /// passes too. A neighbour's damaged entry may refuse a good one.
    #[inline]
    pub fn checked_distance(&self, position: Cursor) -> Result<u32, AnswerError> {
        let rank = position.rank();
        let distance = self.distance_at(rank)?;
        let at_goal = rank == self.goal_rank();
        let fits = match distance {
            0 => at_goal,
            _ if at_goal => false,
            _ => {
                let mut next = position;
                let e = self.entries[rank as usize];
                toward_goal(&self.ranker, self.entries, &mut next, e, self.longest).is_some()
                    && (self.longest == 1 || self.no_slide_lands_closer(position, distance))
            }
        };
        match fits {
            true => Ok(distance),
            false => Err(AnswerError::Corrupt { rank }),
        }
    }

    /// Whether every slide from `position` lands at most one move closer
    /// than `distance` (a neighbour whose own entry is damaged counts as
    /// no closer: its check reports it).
    #[inline(never)]
    fn no_slide_lands_closer(&self, position: Cursor, distance: u32) -> bool {
        Move::ALL.into_iter().all(|m| {
            let mut next = position;
            (0..self.longest)
                .map_while(|_| self.ranker.advance(&mut next, m).then_some(next.rank()))
                .all(|rank| self.distance_at(rank).map_or(true, |d| d + 1 >= distance))
        })
    }

    /// Appends one shortest sequence of moves from `start` to the goal to
    /// `moves`, as single-tile moves, and returns its length in the table's
    /// metric (its distance; under the multi-tile metric its slides are the
    /// runs of equal moves, see [`crate::rules::slides`]). A damaged table
    /// gives an error, never a wrong sequence.
    ///
    /// With a path table, the start's word gives the moves (see
    /// [`path_table`]), and they are replayed: they must stay on the board
    /// and end on the goal after exactly the start's distance. Without one,
    /// each step follows the stored move and checks that it lands one step
    /// closer, and the last must land on the goal. Both give the same moves.
    // Always inlined, as `cursor` is: a batch answers every line through
    // here, and as a call it costs every line a call and a spill.
    #[inline(always)]
    pub fn solve_into(&self, start: &Board, moves: &mut Vec<Move>) -> Result<u32, AnswerError> {
        let position = self.cursor(start)?;
        if self.longest > 1 || position.rank() == self.goal_rank() {
            return self.solve_checked(position, moves);
        }
        self.walk(position, moves)
    }

    /// The walk checks every entry it passes but the start's own: one from
    /// the goal that comes back to it, or under the multi-tile metric one
    /// from a start stored a move too far whose slide lands on a neighbour
    /// as far as the start, fits every entry on the way. Those starts are
    /// checked against their neighbours first.
    #[inline(never)]
    fn solve_checked(&self, position: Cursor, moves: &mut Vec<Move>) -> Result<u32, AnswerError> {
        match self.checked_distance(position)? {
            0 => Ok(0),
            _ => self.walk(position, moves),
        }
    }

    #[inline(always)]
    fn walk(&self, position: Cursor, moves: &mut Vec<Move>) -> Result<u32, AnswerError> {
        match self.path_table {
            Some(words) => self.solve_by_words(position, words, moves),
            None => self.solve_by_steps(position, moves),
        }
    }

    fn solve_by_words(
        &self,
        position: Cursor,
        words: &[u8],
        moves: &mut Vec<Move>,
    ) -> Result<u32, AnswerError> {
        let total = self.distance_at(position.rank())?;
        moves.reserve(total as usize);
        let goal = self.goal_cursor.cells();
        let (mut cells, mut blank) = (position.cells(), position.blank());
        let (mut rank, mut left) = (position.rank(), total);
        // Within one word, the end is check enough: moves past the goal
        // could only be the word's zero padding (`U`s), which never come
        // back to it. A longer solution goes on from where the padding
        // would leave it, so it must not pass the goal on the way.
        let long = total > MOVES_PER_WORD;
        loop {
            let word = path_table::word_at(words, rank);
            let replayed = if long {
                self.replayer.replay::<true>(cells, blank, word, left, goal)
            } else {
                self.replayer
                    .replay::<false>(cells, blank, word, left, goal)
            };
            (cells, blank) = replayed.ok_or(AnswerError::Corrupt { rank })?;
            moves.extend(path_table::moves(word, left).map(|m| self.move_from_table(m)));
            left = left.saturating_sub(MOVES_PER_WORD);
            if left == 0 {
                break;
            }
            // A longer solution goes on with the word of where it has got to.
            let next = self.ranker.rank_cells(cells, blank);
            if self.distance_at(next)? != left {
                return Err(AnswerError::Corrupt { rank });
            }
            rank = next;
        }
        if cells != goal {
            return Err(AnswerError::Corrupt { rank });
        }
        Ok(total)
    }

    fn solve_by_steps(
        &self,
        mut position: Cursor,
        moves: &mut Vec<Move>,
    ) -> Result<u32, AnswerError> {
        let total = self.distance_at(position.rank())?;
        let mut e = self.entries[position.rank() as usize];
        moves.reserve(total as usize);
        // Each step must land on the next distance field down, modulo 63.
        for _ in 0..total {
            let rank = position.rank();
            let (m, cells, landed) =
                toward_goal(&self.ranker, self.entries, &mut position, e, self.longest)
                    .ok_or(AnswerError::Corrupt { rank })?;
            e = landed;
            if cells == 1 {
                moves.push(self.move_from_table(m));
            } else {
                moves.extend(std::iter::repeat_n(self.move_from_table(m), cells));
            }
        }
        if position != self.goal_cursor {
            return Err(AnswerError::Corrupt {
                rank: position.rank(),
            });
        }
        Ok(total)
    }
}
