//! The dual lookup: the tables read for the way back, from the goal to a
//! position, which is as far as the way there (Zahavi, Felner et al.).
//!
//! The reversed problem has the position as its goal, so its tables are
//! those of the position's blank cell `c`: a set that serves it, read
//! through a symmetry `σ` of the board that takes `c` to the set's goal
//! blank, with the tiles renamed so that the position is the set's goal.
//! Read in a set whose goal blank `σ` does not reach, the dual overestimates
//! (docs/benchmarks.md), so positions whose blank no set serves have none.
//!
//! Renamed, the reversed problem's tile at home in cell `h` is the one the
//! position holds in `σ⁻¹(h)`, and it starts where the goal holds that
//! tile, moved by `σ`. So a pattern's entry is read from the position's
//! cells: the tiles in the cells `σ⁻¹(h)` of the pattern's home cells, each
//! ranked at `σ` of its own goal cell. The dual is the larger sum of the
//! set's two partitions (the second read through the transpose), as the
//! direct estimate is.

use super::db::PatternDb;
use super::memory::prefetch;
use super::placement::PlacementRanker;
use super::share::Source;
use crate::puzzle::board::Board;
use crate::puzzle::symmetry::Symmetry;

/// Tile slots of a pattern, as the search's.
const TILES: usize = 16;

/// Cell slots of a position, as the wide search's: every board's.
const CELLS: usize = 64;

/// The most patterns the dual reads for one position, both partitions':
/// a set with more serves no dual.
pub(super) const DUAL_GROUPS: usize = 8;

/// The ranks of one position's dual entries, both partitions' groups in
/// turn.
pub(super) type DualRanks = [u32; DUAL_GROUPS];

/// Where a pattern read for the dual finds its table in a set.
#[derive(Clone, Copy, Debug)]
enum TableOf {
    /// The table of the set's pattern with this index.
    Pattern(usize),
    /// The table of the second partition's pattern with this index.
    Second(usize),
}

/// One pattern of a set read for the dual.
#[derive(Clone, Debug)]
struct DualGroup {
    /// The cells whose tiles are ranked, in the table's ranking order;
    /// cell 0 past the pattern's tiles (their weights are 0).
    read: [u8; TILES],
    /// Where each tile is ranked: `σ` of its goal cell, through the
    /// pattern's source.
    rank_cell: [u8; CELLS],
    ranker: PlacementRanker,
    /// The set, by its index, and its table.
    set: usize,
    table: TableOf,
}

impl DualGroup {
    /// The rank of the pattern's placement in the reversed problem of the
    /// position with tile `cells[c]` in each cell `c`, in `len` steps.
    #[inline(always)]
    fn rank<const N: usize>(&self, cells: &[u8; N], len: usize) -> u32 {
        let ranked = (self.read[..len].iter())
            .map(|&c| self.rank_cell[cells[c as usize & (N - 1)] as usize & (CELLS - 1)]);
        if N <= 16 {
            self.ranker.rank_narrow(ranked)
        } else {
            self.ranker.rank_wide(ranked)
        }
    }
}

/// What the dual lookup reads for the blank in one cell: where its groups
/// of each partition lie in [`DualPlan::groups`] (none where no set serves
/// the cell).
#[derive(Clone, Copy, Debug, Default)]
struct DualAt {
    groups: [(u16, u8); 2],
}

/// The dual lookup of searches toward one goal, worked out once: for each
/// blank cell, the set that serves it, through which symmetry, and where
/// each of its patterns reads. It names the tables rather than holding
/// them, so that the tables' owner can keep it beside them.
#[derive(Clone, Debug)]
pub(crate) struct DualPlan {
    groups: Vec<DualGroup>,
    /// Per blank cell.
    at: Vec<DualAt>,
    /// The blank cells with a dual lookup, as bits.
    served: u64,
    /// Slots every rank takes: the largest pattern's tiles.
    len: usize,
}

/// Where a search reads the dual lookup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DualReach {
    /// Nowhere: the direct estimate alone.
    None,
    /// At the positions whose blank is in the goal blank's class of cells
    /// (the four corners, for the default goal): the goal's own set
    /// serves them, so the dual reads tables the search reads anyway.
    #[default]
    GoalClass,
    /// At every position whose blank a set serves: every cell, with a
    /// file built `--all-goals`. Fewer nodes, but the other sets' tables
    /// compete for the caches (docs/benchmarks.md).
    Everywhere,
}

impl DualPlan {
    /// The dual lookup through `sets` (tables of `goal`'s board, or none)
    /// for searches toward `goal`, at the blank cells `reach` allows: each
    /// read in the first set that serves it.
    pub fn of<B: AsRef<[u8]>>(sets: &[PatternDb<B>], goal: &Board, reach: DualReach) -> DualPlan {
        let shape = goal.shape();
        let mut home = [0usize; CELLS];
        for (c, &t) in goal.cells().iter().enumerate() {
            home[t as usize] = c;
        }
        let mut plan = DualPlan {
            groups: Vec::new(),
            at: Vec::new(),
            served: 0,
            len: 0,
        };
        let reached = |blank| match reach {
            DualReach::None => false,
            DualReach::GoalClass => Symmetry::mapping(shape, blank, goal.blank()).is_some(),
            DualReach::Everywhere => true,
        };
        for blank in 0..shape.cells() {
            let mut sets = sets.iter().enumerate().filter(|_| reached(blank));
            let serving = sets.find_map(|(index, set)| {
                let symmetry = Symmetry::mapping(shape, blank, set.goal_blank())?;
                let second = set.second().map_or(0, |s| s.sources.len());
                let fits =
                    set.shape() == shape && set.sources().len().max(second) <= DUAL_GROUPS / 2;
                fits.then_some((index, set, symmetry))
            });
            let at = match serving {
                Some((index, set, symmetry)) => plan.place(index, set, &symmetry, &home),
                None => DualAt::default(),
            };
            if at.groups[0].1 + at.groups[1].1 > 0 {
                plan.served |= 1 << blank;
            }
            plan.at.push(at);
        }
        if plan.groups.is_empty() {
            plan.at.clear();
        }
        plan
    }

    /// Whether searches read the dual lookup at positions with the blank in
    /// `blank`.
    pub(crate) fn serves(&self, blank: usize) -> bool {
        self.served & (1 << (blank & 63)) != 0
    }

    /// The groups of `set` (the `index`-th) read through `symmetry` in both
    /// its partitions, in a search whose goal holds tile `t` in `home[t]`.
    fn place<B: AsRef<[u8]>>(
        &mut self,
        index: usize,
        set: &PatternDb<B>,
        symmetry: &Symmetry,
        home: &[usize; CELLS],
    ) -> DualAt {
        let n = set.shape().cells();
        let back = symmetry.inverse();
        let set_goal = set.goal();
        let mut group = |source: &Source, ranker: PlacementRanker, table: TableOf| {
            let mut read = [0u8; TILES];
            for (k, &tile) in source.tiles.iter().enumerate() {
                let cell = set_goal.cells().iter().position(|&t| t == tile);
                read[k] = back.cell(cell.expect("a pattern's tile is on the board")) as u8;
            }
            let rank_cell = std::array::from_fn(|t| match t < n {
                true => source.cell[symmetry.cell(home[t])],
                false => 0,
            });
            self.len = self.len.max(source.tiles.len());
            DualGroup {
                read,
                rank_cell,
                ranker,
                set: index,
                table,
            }
        };
        let first: Vec<_> = (set.sources().iter().zip(set.rankers()).enumerate())
            .map(|(i, (source, &ranker))| group(source, ranker, TableOf::Pattern(i)))
            .collect();
        let second: Vec<_> = (set
            .second()
            .iter()
            .flat_map(|s| s.sources.iter())
            .enumerate())
        .map(|(i, source)| group(source, set.rankers()[i], TableOf::Second(i)))
        .collect();
        let mut at = DualAt::default();
        for (side, groups) in [first, second].into_iter().enumerate() {
            at.groups[side] = (self.groups.len() as u16, groups.len() as u8);
            self.groups.extend(groups);
        }
        at
    }
}

/// The dual lookup a search reads: a plan, and the sets it was worked out
/// from.
pub(crate) struct DualSource<'a, B> {
    pub plan: &'a DualPlan,
    pub sets: &'a [PatternDb<B>],
}

impl<B> Clone for DualSource<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B> Copy for DualSource<'_, B> {}

/// A [`DualPlan`] with its tables, as a search reads it.
pub(super) struct Duals<'a, const N: usize> {
    plan: Option<&'a DualPlan>,
    /// The plan's [`DualPlan::served`], 0 without one.
    served: u64,
    /// The table of each of the plan's groups.
    tables: Vec<&'a [u8]>,
}

impl<'a, const N: usize> Duals<'a, N> {
    /// The plan of `source` with its tables; none without a source.
    pub fn of<B: AsRef<[u8]>>(source: Option<DualSource<'a, B>>) -> Self {
        let source = source.filter(|s| !s.plan.at.is_empty());
        let plan = source.map(|s| s.plan);
        let groups = source
            .iter()
            .flat_map(|s| s.plan.groups.iter().map(|g| (s.sets, g)));
        let tables = groups
            .map(|(sets, g)| {
                let set = &sets[g.set];
                match g.table {
                    TableOf::Pattern(i) => set.table_of(i),
                    TableOf::Second(i) => {
                        let second = set.second().expect("a plan of this set");
                        set.second_table(&second.sources[i])
                    }
                }
            })
            .collect();
        Duals {
            plan,
            served: plan.map_or(0, |p| p.served),
            tables,
        }
    }

    /// Whether there is a dual lookup.
    #[inline]
    pub fn any(&self) -> bool {
        self.plan.is_some()
    }

    /// Whether positions with the blank in `blank` have a dual lookup.
    #[inline]
    pub fn serves(&self, blank: usize) -> bool {
        self.served & (1 << (blank & 63)) != 0
    }

    /// The first index and count of one partition's groups for the blank
    /// in `blank`.
    #[inline]
    fn side(plan: &DualPlan, blank: usize, side: usize) -> std::ops::Range<usize> {
        let (start, count) = plan.at[blank].groups[side];
        start as usize..start as usize + count as usize
    }

    /// Ranks the dual of the position with tile `cells[c]` in each cell `c`
    /// and the blank in `blank` into `ranks`, and starts its reads without
    /// waiting for them: [`Duals::estimate`] soon after finds them on their
    /// way. Keeping the ranks spares ranking the position again, as many
    /// steps as its direct lookups take.
    #[inline(always)]
    pub fn prefetch(&self, cells: &[u8; N], blank: usize, ranks: &mut DualRanks) {
        if let Some(plan) = self.plan {
            let groups = Self::side(plan, blank, 0).chain(Self::side(plan, blank, 1));
            for (g, rank) in groups.zip(ranks.iter_mut()) {
                *rank = plan.groups[g].rank(cells, plan.len);
                prefetch(self.tables[g], *rank as usize);
            }
        }
    }

    /// The dual estimate of a position with the blank in `blank`, whose
    /// `ranks` [`Duals::prefetch`] worked out: 0 where no set serves the
    /// blank.
    #[inline]
    pub fn estimate(&self, blank: usize, ranks: &DualRanks) -> u32 {
        let Some(plan) = self.plan else {
            return 0;
        };
        let first = Self::side(plan, blank, 0);
        let second = Self::side(plan, blank, 1);
        let sum = |groups: std::ops::Range<usize>, ranks: &[u32]| -> u32 {
            (groups.zip(ranks))
                .map(|(g, &rank)| self.tables[g][rank as usize] as u32)
                .sum()
        };
        let split = first.len();
        sum(first, &ranks[..split]).max(sum(second, &ranks[split..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::Partition;
    use crate::puzzle::relabel::Relabelling;
    use crate::puzzle::shape::Shape;
    use crate::puzzle::symmetry::classes;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// A set of `partition`'s tables toward a goal blank of each class of
    /// cells, the corners' first (as `build-db --all-goals` writes them).
    fn every_class(partition: &Partition) -> Vec<PatternDb<Vec<u8>>> {
        let mut blanks: Vec<usize> = classes(partition.shape())
            .iter()
            .map(|class| *class.last().unwrap())
            .collect();
        blanks.sort_unstable_by(|a, b| b.cmp(a));
        (blanks.into_iter())
            .map(|blank| PatternDb::build_toward(partition.clone(), blank, &|_, _| {}).unwrap())
            .collect()
    }

    /// What the dual should be, worked out the plain way: the reversed
    /// problem (from `goal` to `position`) solved by the set of the
    /// position's blank, through a symmetry and a renaming of the tiles;
    /// 0 where no set serves that blank.
    fn reversed_estimate(sets: &[PatternDb<Vec<u8>>], position: &Board, goal: &Board) -> u32 {
        let shape = position.shape();
        let serving = sets.iter().find_map(|set| {
            Symmetry::mapping(shape, position.blank(), set.goal_blank()).map(|s| (set, s))
        });
        let Some((set, symmetry)) = serving else {
            return 0;
        };
        let (position, goal) = (symmetry.apply(position), symmetry.apply(goal));
        set.heuristic(&Relabelling::to_canonical(&position).apply(&goal))
    }

    /// A board with the blank in `blank` and the tiles in a random order.
    fn shuffled(shape: Shape, blank: usize, rng: &mut StdRng) -> Board {
        let mut tiles: Vec<u64> = (1..shape.cells() as u64).collect();
        tiles.shuffle(rng);
        tiles.insert(blank, 0);
        Board::new(shape, &tiles).unwrap()
    }

    /// `Duals::estimate` with `N` cell slots, or 0 without a dual.
    fn dual<const N: usize>(duals: &Duals<N>, position: &Board) -> u32 {
        let mut cells = [0u8; N];
        cells[..position.cells().len()].copy_from_slice(position.cells());
        let mut ranks = DualRanks::default();
        match duals.serves(position.blank()) {
            true => {
                duals.prefetch(&cells, position.blank(), &mut ranks);
                duals.estimate(position.blank(), &ranks)
            }
            false => 0,
        }
    }

    /// The search's dual, read in narrow and wide slots, is the reversed
    /// problem's estimate for random positions and goals (its bound is
    /// checked against complete tables in tests/it/pattern_file.rs), with
    /// every class's set or the corners' alone (0 elsewhere).
    fn agrees_with_the_reversed_estimate(partition: &str, shape: Shape, count: usize) {
        let partition = Partition::named(shape, partition).unwrap();
        let every = every_class(&partition);
        let mut rng = StdRng::seed_from_u64(22);
        let mut higher = 0;
        for sets in [&every[..], &every[..1]] {
            for _ in 0..count {
                let goal = shuffled(shape, rng.gen_range(0..shape.cells()), &mut rng);
                let position = shuffled(shape, rng.gen_range(0..shape.cells()), &mut rng);
                let expected = reversed_estimate(sets, &position, &goal);
                let plan = &DualPlan::of(sets, &goal, DualReach::Everywhere);
                let source = Some(DualSource { plan, sets });
                assert_eq!(dual(&Duals::<16>::of(source), &position), expected);
                assert_eq!(dual(&Duals::<64>::of(source), &position), expected);
                higher += usize::from(expected > 0);
                // In the goal blank's class of cells only, or nowhere.
                let own_class = Symmetry::mapping(shape, position.blank(), goal.blank());
                let plan = &DualPlan::of(sets, &goal, DualReach::GoalClass);
                let source = Some(DualSource { plan, sets });
                let expected = own_class.map_or(0, |_| expected);
                assert_eq!(dual(&Duals::<16>::of(source), &position), expected);
                let plan = &DualPlan::of(sets, &goal, DualReach::None);
                let source = Some(DualSource { plan, sets });
                assert_eq!(dual(&Duals::<16>::of(source), &position), 0);
            }
        }
        // Most blanks have a set; the corners' set serves at least 4 cells.
        assert!(higher > count, "{higher} of {}", 2 * count);
    }

    #[test]
    fn the_dual_is_the_reversed_problems_estimate() {
        agrees_with_the_reversed_estimate("4-4", Shape::THREE_BY_THREE, 500);
        agrees_with_the_reversed_estimate("6-5", Shape::new(3, 4).unwrap(), 200);
    }

    #[test]
    fn sets_of_another_board_give_no_dual() {
        let sets = every_class(&Partition::named(Shape::THREE_BY_THREE, "4-4").unwrap());
        let goal = Board::goal(Shape::new(3, 4).unwrap());
        let plan = &DualPlan::of(&sets, &goal, DualReach::Everywhere);
        assert!(!Duals::<16>::of(Some(DualSource { plan, sets: &sets })).any());
        let none: &[PatternDb<Vec<u8>>] = &[];
        let plan = &DualPlan::of(
            none,
            &Board::goal(Shape::THREE_BY_THREE),
            DualReach::Everywhere,
        );
        assert!(!Duals::<16>::of(Some(DualSource { plan, sets: none })).any());
    }
}
