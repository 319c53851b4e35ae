//! A set of pattern tables for one partition, and the heuristic they give.

use super::dual::{DualPlan, DualReach, DualSource};
use super::error::PatternError;
use super::partition::Partition;
use super::placement::{PlacementRanker, MAX_PATTERN_CELLS};
use super::second::{second_partition, Second};
use super::share::{sources, Source};
use super::table::build_pattern_table_toward;
use crate::puzzle::board::Board;
use crate::puzzle::shape::Shape;
use crate::table::generate::BuildProgress;
use std::sync::OnceLock;

/// The tables of a partition's patterns toward one goal, over any bytes:
/// `Vec<u8>` when built in memory, a memory map when read from a file.
/// The goal is canonical (tiles in order around its blank): the default
/// goal unless built or opened for another blank cell.
#[derive(Clone, Debug)]
pub struct PatternDb<B> {
    partition: Partition,
    goal_blank: usize,
    /// One per pattern with a table of its own ([`Source::own`]).
    tables: Vec<B>,
    /// Where each pattern's entries are read.
    sources: Vec<Source>,
    /// Per pattern: the index in `tables` of the table it reads.
    table_index: Vec<usize>,
    /// Per pattern: the ranker of the table it reads.
    rankers: Vec<PlacementRanker>,
    /// The second partition the search also reads, if any: the patterns'
    /// images under a symmetry, one of them with a table of its own (stored
    /// last) where no table serves it.
    second: Option<Second>,
    /// The search's dual lookup ([`PatternDb::own_duals`]), worked out when
    /// first asked for.
    dual_plan: OnceLock<DualPlan>,
    /// Each table's largest entry, where a file's header gives them
    /// ([`PatternDb::largest_estimate`]).
    largest: Option<Vec<u8>>,
}

/// How `count` tables line up with the patterns of `partition` toward the
/// goal blank `goal_blank`: where each pattern reads its entries, and
/// whether the second partition's extra table (if `extra`) comes last.
/// [`Partition::stored_patterns`] writes one of these layouts.
fn layout(
    partition: &Partition,
    goal_blank: usize,
    extra: bool,
    count: usize,
) -> (Vec<Source>, bool) {
    let patterns = partition.patterns();
    let shared = sources(partition.shape(), goal_blank, patterns);
    let own = (0..shared.len()).filter(|&i| shared[i].own(i)).count();
    let every = || (0..patterns.len()).map(|i| Source::itself(i, &patterns[i]));
    match count {
        n if extra && n == patterns.len() + 1 => (every().collect(), true),
        // A shared layout that would count as many tables as one with
        // every pattern's is written as that one.
        n if extra && n == own + 1 && n != patterns.len() => (shared, true),
        // A table for every pattern, as files written before tables were
        // shared have.
        n if n == patterns.len() => (every().collect(), false),
        _ => (shared, false),
    }
}

impl PatternDb<Vec<u8>> {
    /// Builds every table of `partition` toward the default goal, one
    /// after the other (each uses every core), but those a symmetry serves
    /// from another ([`Partition::stored_patterns`]). `on_cost` hears each
    /// table's progress with its index among those built.
    pub fn build(
        partition: Partition,
        on_cost: &(dyn Fn(usize, BuildProgress) + Sync),
    ) -> Result<PatternDb<Vec<u8>>, PatternError> {
        let last = partition.shape().cells() - 1;
        PatternDb::build_toward(partition, last, on_cost)
    }

    /// [`PatternDb::build`] toward the canonical goal with the blank in
    /// `goal_blank` (tiles in order around it).
    pub fn build_toward(
        partition: Partition,
        goal_blank: usize,
        on_cost: &(dyn Fn(usize, BuildProgress) + Sync),
    ) -> Result<PatternDb<Vec<u8>>, PatternError> {
        let shape = partition.shape();
        let tables = partition
            .stored_patterns(goal_blank)
            .iter()
            .enumerate()
            .map(|(index, tiles)| {
                build_pattern_table_toward(shape, goal_blank, tiles, &|p| on_cost(index, p))
            })
            .collect::<Result<Vec<_>, _>>()?;
        PatternDb::toward(partition, goal_blank, tables)
    }
}

impl<B: AsRef<[u8]>> PatternDb<B> {
    /// The database of `partition` with its tables toward the default goal,
    /// each checked for length: one per pattern in the partition's order,
    /// or one per pattern with a table of its own
    /// ([`Partition::stored_patterns`]), the others reading theirs through
    /// a symmetry. On square boards the tables are also read through the
    /// transposed board.
    pub fn new(partition: Partition, tables: Vec<B>) -> Result<PatternDb<B>, PatternError> {
        let last = partition.shape().cells() - 1;
        PatternDb::toward(partition, last, tables)
    }

    /// [`PatternDb::new`] for tables toward the canonical goal with the
    /// blank in `goal_blank`. The search also reads them through a symmetry
    /// of the board where they serve its images of the patterns, or where
    /// `tables` ends with the table of the one image none of them serves
    /// ([`Partition::stored_patterns`], [`PatternDb::uses_second_lookup`]).
    /// Where the shared tables and that one would number as many as the
    /// patterns, `tables` must hold every pattern's table and then that one,
    /// as `stored_patterns` lists them: that many tables alone read as one
    /// per pattern.
    pub fn toward(
        partition: Partition,
        goal_blank: usize,
        tables: Vec<B>,
    ) -> Result<PatternDb<B>, PatternError> {
        let cells = partition.shape().cells();
        if goal_blank >= cells {
            return Err(PatternError::GoalBlankOutside {
                blank: goal_blank,
                cells,
            });
        }
        let patterns = partition.patterns();
        let second = second_partition(partition.shape(), goal_blank, patterns);
        let extra = second.as_ref().and_then(|s| s.extra.as_ref());
        let (sources, with_extra) = layout(&partition, goal_blank, extra.is_some(), tables.len());
        let mut table_index = vec![0; patterns.len()];
        let mut count = 0;
        for (i, source) in sources.iter().enumerate() {
            if source.own(i) {
                table_index[i] = count;
                count += 1;
            } else {
                table_index[i] = table_index[source.table_of];
            }
        }
        let expected = count + extra.is_some() as usize;
        if tables.len() != count + with_extra as usize {
            return Err(PatternError::TableCount {
                expected,
                got: tables.len(),
            });
        }
        if let (Some(tiles), true) = (extra, with_extra) {
            let table = &tables[count];
            let ranker = PlacementRanker::new(cells, tiles.len())?;
            if table.as_ref().len() != ranker.len() {
                return Err(PatternError::TableLength {
                    index: count,
                    expected: ranker.len(),
                    got: table.as_ref().len(),
                });
            }
        }
        // A file written before the second lookup could have a table of its
        // own lacks that table, and is read without the second lookup.
        let second = second.filter(|s| s.extra.is_none() || with_extra);
        let rankers = sources
            .iter()
            .map(|s| PlacementRanker::new(cells, patterns[s.table_of].len()))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, ranker) in rankers.iter().enumerate() {
            let (index, got) = (table_index[i], tables[table_index[i]].as_ref().len());
            if got != ranker.len() {
                return Err(PatternError::TableLength {
                    index,
                    expected: ranker.len(),
                    got,
                });
            }
        }
        Ok(PatternDb {
            partition,
            goal_blank,
            tables,
            sources,
            table_index,
            rankers,
            second,
            dual_plan: OnceLock::new(),
            largest: None,
        })
    }

    /// The same tables, whose largest entries are `largest` (in `tables`'
    /// order), as a file's header records them: an estimate above what
    /// they add up to then shows damage.
    pub(crate) fn with_largest(mut self, largest: Vec<u8>) -> Self {
        self.largest = (largest.len() == self.tables.len()).then_some(largest);
        self
    }

    /// The most a good estimate of these tables can be: the larger of the
    /// two partitions' sums of their tables' largest entries (every
    /// lookup, the dual's too, adds one entry a pattern); no limit where
    /// the largest entries are not known (tables built in memory).
    pub(crate) fn largest_estimate(&self) -> u32 {
        let Some(largest) = &self.largest else {
            return u32::MAX;
        };
        let of_pattern = |p: usize| u32::from(largest[self.table_index[p]]);
        let direct: u32 = (0..self.sources.len()).map(of_pattern).sum();
        let image: u32 = (self.second.iter().flat_map(|s| s.sources.iter()))
            .map(|source| match source.table_of < self.sources.len() {
                true => of_pattern(source.table_of),
                false => u32::from(largest[largest.len() - 1]),
            })
            .sum();
        direct.max(image)
    }

    /// Whether to also read the tables through a symmetry of the board
    /// ([`PatternDb::uses_second_lookup`]; on by default). Off, searches
    /// visit more nodes.
    pub fn with_second_lookup(mut self, on: bool) -> PatternDb<B> {
        self.second = on.then(|| self.found_second()).flatten();
        // The dual reads the second partition too.
        self.dual_plan = OnceLock::new();
        self
    }

    /// The dual lookup at the blanks of the goal blank's class of cells,
    /// which these tables serve by themselves ([`DualReach::GoalClass`]).
    pub(crate) fn own_duals(&self) -> DualSource<'_, B> {
        let sets = std::slice::from_ref(self);
        let plan =
            (self.dual_plan).get_or_init(|| DualPlan::of(sets, &self.goal(), DualReach::GoalClass));
        DualSource { plan, sets }
    }

    /// The second partition, if the tables serve one: with its extra table
    /// where it needs one.
    fn found_second(&self) -> Option<Second> {
        let own = (0..self.sources.len())
            .filter(|&i| self.sources[i].own(i))
            .count();
        second_partition(self.shape(), self.goal_blank, self.partition.patterns())
            .filter(|s| s.extra.is_none() || self.tables.len() > own)
    }

    /// The blank cell of the goal the tables count toward.
    pub fn goal_blank(&self) -> usize {
        self.goal_blank
    }

    /// The goal the tables count toward: tiles in order around
    /// [`PatternDb::goal_blank`].
    pub fn goal(&self) -> Board {
        Board::canonical_goal(self.shape(), self.goal_blank)
    }

    /// Whether the search also reads the tables through a symmetry of the
    /// board: the patterns' images under the transpose (on square boards;
    /// the transposed lookup) or a reflection, one of them with a table of
    /// its own where no table serves it (edge goals of 4×4, 3×5 and 5×3's
    /// default goal). Without one, the tables are read once.
    pub fn uses_second_lookup(&self) -> bool {
        self.second.is_some()
    }

    /// The board.
    pub fn shape(&self) -> Shape {
        self.partition.shape()
    }

    /// The partition.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The tables: one per pattern with a table of its own, in the
    /// partition's order, then the second lookup's own table if any.
    pub fn tables(&self) -> &[B] {
        &self.tables
    }

    /// The ranker of the table each pattern reads.
    pub(crate) fn rankers(&self) -> &[PlacementRanker] {
        &self.rankers
    }

    /// Where each pattern's entries are read.
    pub(crate) fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// The table pattern `pattern` reads (its own, or the one a symmetry
    /// serves it from).
    pub(crate) fn table_of(&self, pattern: usize) -> &[u8] {
        self.tables[self.table_index[pattern]].as_ref()
    }

    /// The second partition the optimal search reads, if any.
    pub(crate) fn second(&self) -> Option<&Second> {
        self.second.as_ref()
    }

    /// The table a pattern of [`PatternDb::second`] reads.
    pub(crate) fn second_table(&self, source: &Source) -> &[u8] {
        match source.table_of < self.sources.len() {
            true => self.table_of(source.table_of),
            false => self.tables[self.tables.len() - 1].as_ref(),
        }
    }

    /// The sum of the pattern distances of `board`, relative to the tables'
    /// goal ([`PatternDb::goal`]): a lower bound on its distance.
    pub fn additive(&self, board: &Board) -> u32 {
        let mut cell_of = [0u8; MAX_PATTERN_CELLS];
        for (c, &t) in board.cells().iter().enumerate() {
            cell_of[t as usize] = c as u8;
        }
        self.sum_over(&cell_of)
    }

    /// The lower bound the search uses: the additive sum, or the second
    /// partition's where that is larger ([`PatternDb::uses_second_lookup`]).
    pub fn heuristic(&self, board: &Board) -> u32 {
        let mut cell_of = [0u8; MAX_PATTERN_CELLS];
        for (c, &t) in board.cells().iter().enumerate() {
            cell_of[t as usize] = c as u8;
        }
        self.sum_over(&cell_of).max(self.second_sum(&cell_of))
    }

    /// The sum of the second partition's entries (0 without one) for tiles
    /// in the cells `cell_of`.
    fn second_sum(&self, cell_of: &[u8; MAX_PATTERN_CELLS]) -> u32 {
        let sources = self.second.iter().flat_map(|s| s.sources.iter());
        (sources.enumerate())
            .map(|(i, source)| self.second_table(source)[self.image_index(i, cell_of) as usize])
            .map(u32::from)
            .sum()
    }

    /// The sum of the tables' entries for tiles in the cells `cell_of`.
    fn sum_over(&self, cell_of: &[u8; MAX_PATTERN_CELLS]) -> u32 {
        (0..self.sources.len())
            .map(|i| self.entry(i, |t| cell_of[t as usize]) as u32)
            .sum()
    }

    /// Pattern `i`'s entry for its tiles in the cells that `cell_of` gives
    /// for each tile.
    #[inline]
    fn entry(&self, i: usize, cell_of: impl Fn(u8) -> u8) -> u8 {
        self.table_of(i)[self.index(i, cell_of) as usize]
    }

    /// Where [`PatternDb::entry`] reads in pattern `i`'s table.
    #[inline]
    fn index(&self, i: usize, cell_of: impl Fn(u8) -> u8) -> u32 {
        let source = &self.sources[i];
        let cells = source
            .tiles
            .iter()
            .map(|&t| source.cell[cell_of(t) as usize]);
        self.rankers[i].rank(cells)
    }

    /// Where the second partition's pattern `i` finds its entry for tiles
    /// in the cells `cell_of`. Its patterns are the sizes of the
    /// partition's, in order, so they rank as the partition's do.
    #[inline]
    fn image_index(&self, i: usize, cell_of: &[u8; MAX_PATTERN_CELLS]) -> u32 {
        let second = self
            .second
            .as_ref()
            .expect("read only with a second partition");
        let source = &second.sources[i];
        let cells = source.tiles.iter();
        self.rankers[i].rank(cells.map(|&t| source.cell[cell_of[t as usize] as usize]))
    }

    /// `board`'s entries, and those of the second partition where it is
    /// used: what [`PatternDb::heuristic`] takes the larger sum of, kept
    /// for [`PatternDb::slide`].
    pub(crate) fn entries(&self, board: &Board) -> Entries {
        let mut cell_of = [0u8; MAX_PATTERN_CELLS];
        for (c, &t) in board.cells().iter().enumerate() {
            cell_of[t as usize] = c as u8;
        }
        let patterns = 0..self.sources.len();
        let direct = Parts::read(
            patterns
                .clone()
                .map(|i| self.entry(i, |t| cell_of[t as usize])),
        );
        let image = self.second.as_ref().map(|second| {
            let sources = second.sources.iter().enumerate();
            Parts::read(sources.map(|(i, source)| {
                self.second_table(source)[self.image_index(i, &cell_of) as usize]
            }))
        });
        Entries {
            cell_of,
            direct,
            image,
        }
    }

    /// What sliding `tile` into cell `to` changes in `entries`, but for the
    /// table reads, which [`PatternDb::read`] makes: a search that works
    /// out many children's slides before reading any waits on several
    /// reads at once rather than one after another. Only the table of the
    /// tile's pattern is read again (an additive partition leaves the
    /// blank out of every pattern, so its cell changes no entry), and that
    /// of its pattern in the second partition. `moves` is
    /// [`PatternDb::moves`].
    #[inline]
    pub(crate) fn slide(&self, entries: &Entries, moves: &Moves, tile: u8, to: usize) -> Slide {
        let mut cell_of = entries.cell_of;
        cell_of[tile as usize] = to as u8;
        let i = moves.pattern_of[tile as usize];
        let direct = entries
            .direct
            .reread(i, || self.index(i as usize, |t| cell_of[t as usize]));
        let image = match &entries.image {
            Some(parts) => {
                let j = moves.image_pattern_of[tile as usize];
                parts.reread(j, || self.image_index(j as usize, &cell_of))
            }
            None => Reread::NONE,
        };
        Slide {
            reads: [direct, image],
            tile,
            to: to as u8,
        }
    }

    /// Reads the entries `slide` needs from the tables.
    #[inline]
    pub(crate) fn read(&self, slide: &mut Slide) {
        let [direct, image] = &mut slide.reads;
        if let Some(pattern) = direct.pattern() {
            direct.entry = self.table_of(pattern)[direct.index as usize];
        }
        if let (Some(pattern), Some(second)) = (image.pattern(), &self.second) {
            let table = self.second_table(&second.sources[pattern]);
            image.entry = table[image.index as usize];
        }
    }

    /// What [`PatternDb::slide`] needs, worked out once: the pattern of each
    /// tile (`u8::MAX` for the blank, in none), directly and in the second
    /// partition.
    pub(crate) fn moves(&self) -> Moves {
        let pattern_of = |sources: &[Source]| {
            let mut pattern_of = [u8::MAX; MAX_PATTERN_CELLS];
            for (i, source) in sources.iter().enumerate() {
                for &t in &source.tiles {
                    pattern_of[t as usize] = i as u8;
                }
            }
            pattern_of
        };
        let second = self.second.as_ref().map(|s| &s.sources[..]);
        Moves {
            pattern_of: pattern_of(&self.sources),
            image_pattern_of: pattern_of(second.unwrap_or_default()),
        }
    }
}

/// How a move changes a position's [`Entries`]: see [`PatternDb::moves`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Moves {
    pattern_of: [u8; MAX_PATTERN_CELLS],
    image_pattern_of: [u8; MAX_PATTERN_CELLS],
}

/// One reading of a position in the tables: each tile's cell, and each
/// pattern's entry with their sum, directly and in the second partition
/// where it is used. The cells are kept once (the second partition's are
/// worked out from them), since a bounded search copies one per child.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entries {
    cell_of: [u8; MAX_PATTERN_CELLS],
    direct: Parts,
    image: Option<Parts>,
}

impl Entries {
    /// The lower bound: the larger sum.
    #[inline]
    pub fn bound(&self) -> u32 {
        self.image
            .map_or(self.direct.sum, |image| image.sum.max(self.direct.sum))
    }

    /// The entries after `slide` (made from these by [`PatternDb::slide`],
    /// then [`PatternDb::read`]).
    #[inline]
    pub fn after(&self, slide: &Slide) -> Entries {
        let mut next = *self;
        next.cell_of[slide.tile as usize] = slide.to;
        let [direct, image] = &slide.reads;
        next.direct.put(direct);
        if let Some(parts) = &mut next.image {
            parts.put(image);
        }
        next
    }
}

/// One move's change to a position's [`Entries`]: the tile, the cell it
/// entered, and for each sum (directly, and in the second partition) the
/// entry read again. 20 bytes where the entries take a hundred, for a
/// search that offers many children and keeps few.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slide {
    reads: [Reread; 2],
    tile: u8,
    to: u8,
}

impl Slide {
    /// The lower bound after the move, once [`PatternDb::read`] has read
    /// its entries.
    #[inline]
    pub fn bound(&self) -> u32 {
        let [direct, image] = &self.reads;
        direct.sum().max(image.sum())
    }

    /// Both sums after the move added, the weaker's say with the
    /// stronger's: of two moves with one bound, the one with the smaller
    /// total is the likelier to lie on a short path.
    #[inline]
    pub fn total(&self) -> u32 {
        let [direct, image] = &self.reads;
        direct.sum() + image.sum()
    }
}

/// One sum's part of a [`Slide`]: the pattern whose entry is read again
/// (if the tile is in one), where in its table (placements fit in 32 bits,
/// [`PlacementRanker::new`]), the entry read there, and the rest of the sum
/// (at most 36 entries of 255).
#[derive(Clone, Copy, Debug)]
struct Reread {
    index: u32,
    rest: u16,
    pattern: u8,
    entry: u8,
}

impl Reread {
    /// No pattern, and a sum of 0: the part of a sum not in use.
    const NONE: Reread = Reread {
        index: 0,
        rest: 0,
        pattern: u8::MAX,
        entry: 0,
    };

    /// The pattern read again, if any.
    fn pattern(&self) -> Option<usize> {
        (self.pattern != u8::MAX).then_some(self.pattern as usize)
    }

    /// The sum after the move.
    #[inline]
    fn sum(&self) -> u32 {
        self.rest as u32 + self.entry as u32
    }
}

/// Each pattern's entry, and their sum: an additive lower bound.
#[derive(Clone, Copy, Debug)]
struct Parts {
    entries: [u8; MAX_PATTERN_CELLS],
    sum: u32,
}

impl Parts {
    fn read(entries: impl Iterator<Item = u8>) -> Parts {
        let mut parts = Parts {
            entries: [0; MAX_PATTERN_CELLS],
            sum: 0,
        };
        for (part, entry) in parts.entries.iter_mut().zip(entries) {
            *part = entry;
            parts.sum += entry as u32;
        }
        parts
    }

    /// Pattern `i`'s entry to be read again (`i` is `u8::MAX` for a tile in
    /// none) where `locate` says, beside the rest of this sum.
    #[inline]
    fn reread(&self, i: u8, locate: impl FnOnce() -> u32) -> Reread {
        let sum = self.sum as u16;
        match self.entries.get(i as usize) {
            Some(&old) => Reread {
                index: locate(),
                rest: sum - old as u16,
                pattern: i,
                entry: 0,
            },
            None => Reread {
                rest: sum,
                ..Reread::NONE
            },
        }
    }

    /// `read`'s entry in its pattern's place, and its sum.
    #[inline]
    fn put(&mut self, read: &Reread) {
        self.sum = read.sum();
        if let Some(i) = read.pattern() {
            self.entries[i] = read.entry;
        }
    }
}
