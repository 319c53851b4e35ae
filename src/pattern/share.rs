//! One table for two patterns: where a symmetry of the board takes one
//! pattern's goal onto an earlier pattern's, the later one reads the
//! earlier one's table through that symmetry and has no table of its own.
//!
//! A symmetry σ (a reflection or rotation) maps the board's moves onto
//! moves, so a pattern's distances are those of its image. Pattern `i`'s
//! entry for its tiles in cells `c` is pattern `j`'s entry for `σ(c)` when
//! σ takes `i`'s goal cells onto `j`'s (each tile of `i` onto the goal cell
//! of one of `j`'s) and its goal onto `j`'s: the goal blank's region around
//! `j`'s tiles at home must hold σ of the goal blank, since a pattern's goal
//! is its tiles at home with the blank anywhere in that region. On the
//! 24-puzzle's Korf–Felner partition the three 2×3 blocks are quarter and
//! half turns of one another, so one table serves all three.

use super::placement::MAX_PATTERN_CELLS;
use super::region::CellMasks;
use super::table::goal_cells;
use crate::puzzle::shape::Shape;
use crate::puzzle::symmetry::Symmetry;

/// Where a pattern's entries are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Source {
    /// The pattern whose table holds them: the pattern itself, or an
    /// earlier one.
    pub table_of: usize,
    /// The pattern's tiles in the ranking order of that table: the cell of
    /// `tiles[k]`, mapped through `cell`, is ranked where that pattern's
    /// `k`-th tile is.
    pub tiles: Vec<u8>,
    /// The symmetry's image of each cell (the identity for its own table).
    pub cell: [u8; MAX_PATTERN_CELLS],
}

impl Source {
    /// Pattern `index` (of `tiles`) read from its own table.
    pub fn itself(index: usize, tiles: &[u8]) -> Source {
        Source {
            table_of: index,
            tiles: tiles.to_vec(),
            cell: std::array::from_fn(|c| c as u8),
        }
    }

    /// Whether the pattern reads a table of its own.
    pub fn own(&self, pattern: usize) -> bool {
        self.table_of == pattern
    }
}

/// Where each of `patterns` reads its entries, toward the canonical goal
/// with the blank in `goal_blank`: the first earlier pattern with a table
/// of its own that a symmetry serves it from (in [`Symmetry::all`] order),
/// else its own table.
pub(crate) fn sources(shape: Shape, goal_blank: usize, patterns: &[Vec<u8>]) -> Vec<Source> {
    let symmetries = Symmetry::all(shape);
    let masks = CellMasks::new(shape);
    let mut sources: Vec<Source> = Vec::with_capacity(patterns.len());
    for (i, tiles) in patterns.iter().enumerate() {
        let served = (0..i).filter(|&j| sources[j].own(j)).find_map(|j| {
            let table = (j, &patterns[j][..]);
            serve(shape, goal_blank, &masks, &symmetries[1..], tiles, table)
        });
        sources.push(served.unwrap_or_else(|| Source::itself(i, tiles)));
    }
    sources
}

/// `tiles` read from the table of pattern `j` (`table`: its index and
/// tiles) through the first of `symmetries` that takes their goal cells
/// onto its tiles' and keeps the goal blank in that table's goal region.
pub(crate) fn serve(
    shape: Shape,
    goal_blank: usize,
    masks: &CellMasks,
    symmetries: &[Symmetry],
    tiles: &[u8],
    (j, table): (usize, &[u8]),
) -> Option<Source> {
    if table.len() != tiles.len() {
        return None;
    }
    let home = goal_cells(shape, goal_blank, tiles);
    let target = goal_cells(shape, goal_blank, table);
    let occupied = target.iter().fold(0u64, |m, &c| m | 1 << c);
    let region = masks.flood(1 << goal_blank, masks.all() & !occupied);
    symmetries.iter().find_map(|s| {
        if region >> s.cell(goal_blank) & 1 == 0 {
            return None;
        }
        // The tile whose goal cell σ takes to each of j's goal cells, in
        // j's order.
        let order: Option<Vec<u8>> = target
            .iter()
            .map(|&c| {
                let at = home
                    .iter()
                    .position(|&h| s.cell(h as usize) == c as usize)?;
                Some(tiles[at])
            })
            .collect();
        let cell = std::array::from_fn(|c| {
            if c < shape.cells() {
                s.cell(c) as u8
            } else {
                c as u8
            }
        });
        Some(Source {
            table_of: j,
            tiles: order?,
            cell,
        })
    })
}

/// The patterns of `patterns` that have a table of their own toward the
/// goal blank `goal_blank`, in order: the tables a file stores.
pub(crate) fn stored(shape: Shape, goal_blank: usize, patterns: &[Vec<u8>]) -> Vec<Vec<u8>> {
    sources(shape, goal_blank, patterns)
        .iter()
        .enumerate()
        .filter(|(i, s)| s.own(*i))
        .map(|(i, _)| patterns[i].clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::Partition;

    #[test]
    fn the_three_blocks_of_the_24_puzzle_share_one_table() {
        let shape = Shape::new(5, 5).unwrap();
        let partition = Partition::named(shape, "6-6-6-6").unwrap();
        let sources = sources(shape, 24, partition.patterns());
        let tables: Vec<usize> = sources.iter().map(|s| s.table_of).collect();
        assert_eq!(tables, [0, 1, 1, 1]);
        // The top-right block {3,4,5,8,9,10} is the bottom-left one
        // {16,17,18,21,22,23} turned a half turn: tile 3 (cell 2) goes to
        // cell 22, tile 23's.
        assert_eq!(sources[2].cell[2], 22);
        assert_eq!(sources[2].tiles, [10, 9, 8, 5, 4, 3]);
        assert_eq!(stored(shape, 24, partition.patterns()).len(), 2);
    }

    #[test]
    fn a_symmetry_must_keep_the_goal_blank_in_its_region() {
        let shape = Shape::THREE_BY_THREE;
        // Tiles 2, 3 (cells 1, 2) transposed are tiles 4, 7 (cells 3, 6),
        // and the transpose keeps the goal blank (cell 8) in place.
        let shared = sources(shape, 8, &[vec![2, 3], vec![4, 7]]);
        assert_eq!(shared[1].table_of, 0);
        assert_eq!(shared[1].tiles, [4, 7]);
        assert_eq!(shared[1].cell[3], 1);
        // Tiles 6, 8 (cells 5, 7) are tiles 2, 4 (cells 1, 3) turned a half
        // turn, or reflected in the other diagonal; both take the goal
        // blank to cell 0, which tiles 2 and 4 at home wall off from it.
        let apart = sources(shape, 8, &[vec![2, 4], vec![6, 8]]);
        assert!(apart.iter().enumerate().all(|(i, s)| s.own(i)));
        // Patterns of different sizes never share.
        let apart = sources(shape, 8, &[vec![1, 2, 3], vec![7, 4]]);
        assert!(apart.iter().enumerate().all(|(i, s)| s.own(i)));
    }

    /// Every entry of a pattern served by another's table equals the
    /// entry its own table would hold, placement by placement.
    fn served_entries_are_the_patterns_own(shape: Shape, goal_blank: usize, patterns: &[Vec<u8>]) {
        use crate::pattern::{build_pattern_table_toward, PlacementRanker};
        let sources = sources(shape, goal_blank, patterns);
        let mut shared = 0;
        for (i, source) in sources.iter().enumerate().filter(|(i, s)| !s.own(*i)) {
            shared += 1;
            let quiet = |_| {};
            let own = build_pattern_table_toward(shape, goal_blank, &patterns[i], &quiet).unwrap();
            let tiles = &patterns[source.table_of];
            let other = build_pattern_table_toward(shape, goal_blank, tiles, &quiet).unwrap();
            let ranker = PlacementRanker::new(shape.cells(), tiles.len()).unwrap();
            for (rank, &entry) in own.iter().enumerate() {
                let cells = ranker.unrank(rank as u32);
                // Cell of each tile of pattern i, then ranked in the
                // serving table's order through the symmetry.
                let cell_of = |t: u8| cells[patterns[i].iter().position(|&p| p == t).unwrap()];
                let mapped = source
                    .tiles
                    .iter()
                    .map(|&t| source.cell[cell_of(t) as usize]);
                assert_eq!(
                    other[ranker.rank(mapped) as usize],
                    entry,
                    "pattern {i}, rank {rank}"
                );
            }
        }
        assert!(shared > 0);
    }

    #[test]
    fn a_served_pattern_reads_its_own_distances() {
        let shape = Shape::THREE_BY_THREE;
        served_entries_are_the_patterns_own(shape, 4, &[vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        served_entries_are_the_patterns_own(shape, 8, &[vec![2, 3], vec![4, 7]]);
        let shape = Shape::new(5, 5).unwrap();
        let column_and_row = [vec![5, 10, 15, 20], vec![21, 22, 23, 24]];
        served_entries_are_the_patterns_own(shape, 24, &column_and_row);
    }
}
