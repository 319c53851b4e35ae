//! Pattern tables in a file: the header checked, the tables handed
//! to the search as slices of the file's bytes, one [`PatternDb`] per set,
//! and each goal routed to the set of its class of blank cells.

use crate::db::error::{AnswerError, FormatError};
use crate::db::format::check::{check_header, Checked};
use crate::db::format::{Header, TableInfo};
use crate::pattern::{
    within_largest, Budget, DualPlan, DualReach, DualSource, Partition, PatternDb, Raised,
    Solution, SolveOptions,
};
use crate::puzzle::board::Board;
use crate::puzzle::cell::{Cell, Cells};
use crate::puzzle::relabel::Relabelling;
use crate::puzzle::shape::Shape;
use crate::puzzle::symmetry::Symmetry;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// One table's bytes inside the file's: a shared handle on the whole file
/// and the table's range, so that the search reads the file in place.
#[derive(Debug)]
pub struct Section<B> {
    bytes: Arc<B>,
    range: Range<usize>,
}

impl<B: AsRef<[u8]>> AsRef<[u8]> for Section<B> {
    fn as_ref(&self) -> &[u8] {
        &(*self.bytes).as_ref()[self.range.clone()]
    }
}

/// The pattern tables of a file (see [`crate::Database::patterns`]):
/// generic over its bytes, so tests can use a `Vec<u8>` and the tools a
/// memory map.
pub struct PatternTables<B> {
    bytes: Arc<B>,
    header: Header,
    partition: Partition,
    header_start: usize,
    /// One per set of the header, in its order.
    sets: Vec<PatternDb<Section<B>>>,
    /// Per set: the dual lookup of searches toward its goal wherever a set
    /// serves the blank, worked out when first asked for.
    dual_plans: Vec<OnceLock<DualPlan>>,
}

impl<B: AsRef<[u8]>> PatternTables<B> {
    /// Checks the header of a pattern database held in memory. Costs time
    /// proportional to the header, not to the tables. Complete tables are
    /// refused ([`FormatError::NotPatterns`]); [`crate::Database`] opens
    /// either kind.
    pub fn from_bytes(bytes: B) -> Result<PatternTables<B>, FormatError> {
        let Checked {
            header,
            shape,
            partition,
            header_start,
            ..
        } = check_header(bytes.as_ref())?;
        let partition = partition.ok_or(FormatError::NotPatterns { shape })?;
        Ok(PatternTables::from_checked(
            bytes,
            header,
            partition,
            header_start,
        ))
    }

    /// The tables of a checked header with its partition.
    pub(crate) fn from_checked(
        bytes: B,
        header: Header,
        partition: Partition,
        header_start: usize,
    ) -> PatternTables<B> {
        let bytes = Arc::new(bytes);
        let sets: Vec<PatternDb<Section<B>>> = header
            .sets()
            .map(|set| {
                let tables = set
                    .iter()
                    .map(|t| Section {
                        bytes: Arc::clone(&bytes),
                        range: t.offset as usize..(t.offset + t.entries) as usize,
                    })
                    .collect();
                PatternDb::toward(partition.clone(), set[0].goal_blank as usize, tables)
                    .expect("the header check covers the sets' blanks and tables")
                    .with_largest(set.iter().map(|t| t.max_distance).collect())
            })
            .collect();
        PatternTables {
            bytes,
            header,
            partition,
            header_start,
            dual_plans: sets.iter().map(|_| Default::default()).collect(),
            sets,
        }
    }

    /// The board of every position the database answers.
    pub fn shape(&self) -> Shape {
        self.sets[0].shape()
    }

    /// The partition the tables are for; its name is
    /// [`Partition::name`].
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// What the file holds.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    /// About how large the file grows rebuilt with a set for every goal
    /// (`build-db --all-goals`, which replaces it): the entries its plan
    /// builds, a byte each, and this file's own header and padding.
    pub fn all_goals_bytes(&self) -> u64 {
        let entries = |goal_blanks| {
            let partition = self.partition.clone();
            crate::db::build::Plan::Patterns {
                partition,
                goal_blanks,
            }
            .entries()
        };
        let held = self.sets.iter().map(|s| s.goal_blank()).collect();
        let header = (self.bytes().len() as u64).saturating_sub(entries(held));
        entries(crate::db::build::all_goals(self.shape())) + header
    }

    /// Where the header's bytes lie: the end of the file.
    pub fn header_range(&self) -> Range<usize> {
        self.header_start..self.bytes().len()
    }

    /// The entries of one of this database's tables (`info` from its
    /// header), indexed by placement rank. Open checked that they lie in
    /// the file.
    pub fn table_entries(&self, info: &TableInfo) -> &[u8] {
        &self.bytes()[info.offset as usize..(info.offset + info.entries) as usize]
    }

    /// The tables as the search reads them, one [`PatternDb`] per set,
    /// in file order.
    pub fn sets(&self) -> &[PatternDb<Section<B>>] {
        &self.sets
    }

    /// The first set's tables as the search reads them (the default goal's,
    /// in a file `build-db` wrote).
    pub fn patterns(&self) -> &PatternDb<Section<B>> {
        &self.sets[0]
    }

    /// The set that answers goals with the blank in `blank`: the cell's
    /// own, else one whose cell a symmetry of the board takes it to.
    pub fn set_for(&self, blank: usize) -> Option<&PatternDb<Section<B>>> {
        self.index_for(blank).map(|i| &self.sets[i])
    }

    /// The index of the set [`PatternTables::set_for`] `blank`.
    fn index_for(&self, blank: usize) -> Option<usize> {
        let own = self.sets.iter().position(|s| s.goal_blank() == blank);
        own.or_else(|| {
            let shape = self.shape();
            (self.sets.iter())
                .position(|s| Symmetry::mapping(shape, blank, s.goal_blank()).is_some())
        })
    }

    /// The goal of the first set (tiles in order, blank last, in a file
    /// `build-db` wrote).
    pub fn default_goal(&self) -> Board {
        self.sets[0].goal()
    }

    /// The tables' lower bound on the distance from `start` to `goal`, the
    /// position's own lookup (the search starts from the larger of it and
    /// the dual: [`PatternTables::search_estimate`]): through the set
    /// serving `goal`, a symmetry taking its blank to the set's and the
    /// tiles renamed so that `goal` is the set's goal.
    ///
    /// Moves can be undone, so `estimate(goal, start)` bounds the same
    /// distance: the dual lookup. It reads the set for `start`'s blank,
    /// which a file has for every blank only when built with
    /// `--all-goals`; read in the set of `goal`'s blank instead, the dual
    /// overestimates (docs/benchmarks.md).
    pub fn estimate(&self, start: &Board, goal: &Board) -> Result<u32, AnswerError> {
        let set = self.set_serving(goal)?;
        if start.shape() != goal.shape() {
            return Err(AnswerError::WrongShape {
                expected: goal.shape(),
                got: start.shape(),
            });
        }
        // set_serving found a set whose blank a symmetry reaches.
        let symmetry = Symmetry::mapping(self.shape(), goal.blank(), set.goal_blank())
            .ok_or_else(|| self.missing_goal(goal))?;
        let (start, goal) = (symmetry.apply(start), symmetry.apply(goal));
        let h = set.heuristic(&Relabelling::to_canonical(&goal).apply(&start));
        // Past what good tables add up to, the entries read are damaged.
        Ok(within_largest(h, set.largest_estimate())?)
    }

    /// The dual lookup of a search from `start` toward `goal`
    /// ([`PatternTables::estimate`] from `goal` toward `start`) where the
    /// search reads it: at a start whose blank is in the goal blank's class
    /// of cells ([`DualReach::GoalClass`]), as the set's own plan says;
    /// none elsewhere.
    pub fn dual_estimate(&self, start: &Board, goal: &Board) -> Result<Option<u32>, AnswerError> {
        if start.shape() != goal.shape() {
            return Err(AnswerError::WrongShape {
                expected: goal.shape(),
                got: start.shape(),
            });
        }
        // The search's frame: the goal's blank turned to its set's.
        let set = self.set_serving(goal)?;
        let symmetry = Symmetry::mapping(self.shape(), goal.blank(), set.goal_blank())
            .ok_or_else(|| self.missing_goal(goal))?;
        match set.own_duals().plan.serves(symmetry.apply(start).blank()) {
            true => self.estimate(goal, start).map(Some),
            false => Ok(None),
        }
    }

    /// The bound a search from `start` toward `goal` starts from: the
    /// larger of the position's lookup and, where the search reads it, the
    /// dual ([`PatternTables::dual_estimate`]).
    pub fn search_estimate(&self, start: &Board, goal: &Board) -> Result<u32, AnswerError> {
        let lookup = self.estimate(start, goal)?;
        Ok(lookup.max(self.dual_estimate(start, goal)?.unwrap_or(0)))
    }

    /// An optimal solution from `start` to `goal`: the search of the set
    /// serving `goal`, which also reads the dual lookup where the blank of
    /// the position searched is in the goal blank's class of cells
    /// ([`DualReach::GoalClass`]; docs/guide.md, "The dual lookup").
    pub fn solve(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<Solution, AnswerError> {
        self.solve_reading(start, goal, DualReach::GoalClass, options)
    }

    /// [`PatternTables::solve`] with the dual lookup read where `reach`
    /// says.
    pub fn solve_reading(
        &self,
        start: &Board,
        goal: &Board,
        reach: DualReach,
        options: &SolveOptions,
    ) -> Result<Solution, AnswerError> {
        let index = self.serving(goal)?;
        let duals = self.duals(index, reach);
        Ok(self.sets[index].solve_reading(start, goal, duals, options)?)
    }

    /// [`PatternTables::solve`] within `budget`, which may give up first
    /// ([`Raised::Spent`]); its solution is the same wherever the budget
    /// paused it.
    pub(crate) fn solve_budgeted(
        &self,
        start: &Board,
        goal: &Board,
        budget: &mut dyn Budget,
        options: &SolveOptions,
    ) -> Result<Raised, AnswerError> {
        let index = self.serving(goal)?;
        let duals = self.duals(index, DualReach::GoalClass);
        Ok(self.sets[index].solve_budgeted(start, goal, duals, budget, options)?)
    }

    /// The dual lookup the search of set `index` reads, where `reach` says.
    fn duals(&self, index: usize, reach: DualReach) -> Option<DualSource<'_, Section<B>>> {
        let set = &self.sets[index];
        match reach {
            DualReach::None => None,
            DualReach::GoalClass => Some(set.own_duals()),
            DualReach::Everywhere => Some(DualSource {
                plan: self.dual_plans[index]
                    .get_or_init(|| DualPlan::of(&self.sets, &set.goal(), reach)),
                sets: &self.sets,
            }),
        }
    }

    /// The set that answers toward `goal` ([`PatternTables::set_for`] its
    /// blank), or why none does.
    pub fn set_serving(&self, goal: &Board) -> Result<&PatternDb<Section<B>>, AnswerError> {
        Ok(&self.sets[self.serving(goal)?])
    }

    /// The index of the set [`PatternTables::set_serving`] `goal`.
    fn serving(&self, goal: &Board) -> Result<usize, AnswerError> {
        let shape = self.shape();
        if goal.shape() != shape {
            return Err(AnswerError::WrongShape {
                expected: shape,
                got: goal.shape(),
            });
        }
        self.index_for(goal.blank())
            .ok_or_else(|| self.missing_goal(goal))
    }

    /// Why no set answers toward `goal`: the sets' blanks, and its.
    fn missing_goal(&self, goal: &Board) -> AnswerError {
        let shape = self.shape();
        AnswerError::MissingGoal {
            shape,
            cell: Cell::of(shape, goal.blank()),
            present: Cells::of(shape, self.sets.iter().map(|s| s.goal_blank())),
        }
    }
}
