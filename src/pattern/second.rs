//! A second partition of the goal's tiles, read from the same tables: the
//! search takes the larger of its sum and the partition's own.
//!
//! A reflection or rotation maps moves onto moves, so the image of a
//! pattern is a pattern with the same distances, and reads its original's
//! table through the symmetry. Where the symmetry keeps the goal blank in
//! place (the transpose, on a corner or the diagonal of a square), the
//! images of a partition's patterns partition the tiles again: the
//! transposed lookup. Where it moves the goal blank, one image holds the
//! goal blank's cell and misses the cell the symmetry takes it to; with the
//! one cell swapped for the other, it is a pattern too. Each image reads
//! the table of a pattern a symmetry takes it onto, with the goal blank's
//! region (see [`super::share`]); one image that no table serves may have
//! a table of its own, stored after the partition's (one more table of its
//! size).

use super::region::CellMasks;
use super::share::{serve, sources, Source};
use super::table::goal_cells;
use crate::puzzle::board::Board;
use crate::puzzle::shape::Shape;
use crate::puzzle::symmetry::Symmetry;

/// The second partition: the symmetry it takes the patterns' images
/// under, and where each of them reads its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Second {
    /// The symmetry: the transpose wherever it serves.
    pub symmetry: Symmetry,
    /// One per pattern, in the partition's order. `table_of` is the index
    /// of the partition's pattern whose table it reads, or the partition's
    /// length for [`Second::extra`]'s.
    pub sources: Vec<Source>,
    /// The pattern with a table of its own, if any: its tiles, in ranking
    /// order.
    pub extra: Option<Vec<u8>>,
}

/// The transpose of a square `shape`.
fn transpose(shape: Shape) -> Option<Symmetry> {
    let side = shape.cols();
    Symmetry::all(shape).into_iter().find(|s| {
        shape.rows() == side && (0..shape.cells()).all(|c| s.cell(c) == c % side * side + c / side)
    })
}

/// The second partition of `patterns` toward the canonical goal with the
/// blank in `goal_blank`: the patterns' images under the transpose, where
/// the tables serve them all, else under the first symmetry whose images
/// they serve, else under the first whose images need one table more
/// (the transpose first); `None` where every symmetry's images need more
/// tables or are the partition itself.
pub(crate) fn second_partition(
    shape: Shape,
    goal_blank: usize,
    patterns: &[Vec<u8>],
) -> Option<Second> {
    let transpose = transpose(shape);
    let mut candidates: Vec<Symmetry> = transpose.into_iter().collect();
    let others = Symmetry::all(shape).into_iter().skip(1);
    candidates.extend(others.filter(|&s| Some(s) != transpose));
    let own = sources(shape, goal_blank, patterns);
    let tables: Vec<(usize, &[u8])> = (0..patterns.len())
        .filter(|&j| own[j].own(j))
        .map(|j| (j, &patterns[j][..]))
        .collect();
    let mut best = None;
    for symmetry in candidates {
        let Some(second) = images(shape, goal_blank, patterns, &tables, symmetry) else {
            continue;
        };
        if second.extra.is_none() {
            return Some(second);
        }
        best = best.or(Some(second));
    }
    best
}

/// The images of `patterns` under `symmetry` as a second partition, the
/// image that held the goal blank's cell moved onto the cell the symmetry
/// takes it to, each read from one of `tables` (the patterns with a table
/// of their own, by index): `None` if more than one reads none, or if they
/// are the partition's own patterns.
fn images(
    shape: Shape,
    goal_blank: usize,
    patterns: &[Vec<u8>],
    tables: &[(usize, &[u8])],
    symmetry: Symmetry,
) -> Option<Second> {
    let moved = symmetry.cell(goal_blank);
    let goal = Board::canonical_goal(shape, goal_blank);
    let masks = CellMasks::new(shape);
    // The symmetry itself first: where it serves every image, each pattern
    // is read exactly as through the symmetry's image of the board.
    let mut order = vec![symmetry];
    order.extend(Symmetry::all(shape).into_iter().filter(|&s| s != symmetry));
    let mut second = Second {
        symmetry,
        sources: Vec::with_capacity(patterns.len()),
        extra: None,
    };
    for tiles in patterns {
        let cells = goal_cells(shape, goal_blank, tiles);
        let images = cells.iter().map(|&c| symmetry.cell(c as usize));
        let mut image: Vec<u8> = images
            .map(|c| goal.cells()[if c == goal_blank { moved } else { c }])
            .collect();
        let served = tables
            .iter()
            .find_map(|&table| serve(shape, goal_blank, &masks, &order, &image, table));
        match served {
            Some(source) => second.sources.push(source),
            None if second.extra.is_none() => {
                image.sort_unstable();
                second.sources.push(Source::itself(patterns.len(), &image));
                second.extra = Some(image);
            }
            None => return None,
        }
    }
    let same = tile_sets(patterns.iter().map(Vec::as_slice))
        == tile_sets(second.sources.iter().map(|s| s.tiles.as_slice()));
    (!same).then_some(second)
}

/// The patterns as sets of tiles, in order: equal for the same partition
/// whatever the order of its patterns and tiles.
fn tile_sets<'a>(patterns: impl Iterator<Item = &'a [u8]>) -> Vec<Vec<u8>> {
    let mut sets: Vec<Vec<u8>> = patterns.map(|p| p.to_vec()).collect();
    sets.iter_mut().for_each(|p| p.sort_unstable());
    sets.sort_unstable();
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::Partition;

    #[test]
    fn a_goal_the_transpose_keeps_reads_the_transposed_patterns() {
        let shape = Shape::new(4, 4).unwrap();
        let partition = Partition::named(shape, "7-8").unwrap();
        let second = second_partition(shape, 15, partition.patterns()).unwrap();
        assert_eq!(Some(second.symmetry), transpose(shape));
        assert_eq!(second.extra, None);
        // Tiles 1-8 (the top half) transposed are the left half's tiles,
        // read from the same table through the transpose.
        assert_eq!(second.sources[1].table_of, 1);
        let mut left = second.sources[1].tiles.clone();
        left.sort_unstable();
        assert_eq!(left, [1, 2, 5, 6, 9, 10, 13, 14]);
        assert_eq!(second.sources[1].cell[4], 1);
    }

    #[test]
    fn an_edge_goal_reads_one_image_from_a_table_of_its_own() {
        let shape = Shape::new(4, 4).unwrap();
        let partition = Partition::named(shape, "7-8").unwrap();
        // Blank in cell 14 (row 4, column 3), which the transpose takes to
        // cell 11. The top half (tiles 1-8) turns into the left half, read
        // from its table. The bottom pattern (cells 8-13 and 15) turns into
        // the right half but cell 11; with the goal blank's cell 14 swapped
        // for 11, cells 2, 3, 6, 7, 10, 11 and 15, whose tiles are 3, 4, 7,
        // 8, 11, 12 and 15: no symmetry takes them onto a table's.
        // Every other symmetry's images need a table more too.
        let second = second_partition(shape, 14, partition.patterns()).unwrap();
        assert_eq!(Some(second.symmetry), transpose(shape));
        assert_eq!(second.sources[1].table_of, 1);
        assert_eq!(second.extra, Some(vec![3, 4, 7, 8, 11, 12, 15]));
        assert_eq!(second.sources[0].table_of, 2);
    }

    #[test]
    fn other_boards_take_the_symmetry_that_needs_fewest_tables() {
        // 3×5's 7-7 (left and right, blank in the last corner): upside
        // down, the left pattern's image reads its table, and the right's,
        // moved off the goal blank's cell onto cell 4, has a table of its
        // own.
        let shape = Shape::new(3, 5).unwrap();
        let partition = Partition::named(shape, "7-7").unwrap();
        let second = second_partition(shape, 14, partition.patterns()).unwrap();
        assert_eq!(second.symmetry.cell(14), 4);
        assert_eq!(second.sources[0].table_of, 0);
        assert_eq!(second.extra, Some(vec![3, 4, 5, 8, 9, 10, 14]));
        // 4×5's 6-6-7: the one symmetry whose images the tables serve gives
        // the partition back, and the others need two tables more.
        let shape = Shape::new(4, 5).unwrap();
        let partition = Partition::named(shape, "6-6-7").unwrap();
        assert_eq!(second_partition(shape, 19, partition.patterns()), None);
        // 3×3's edge goal: the mirror's images read the tables there are.
        let shape = Shape::THREE_BY_THREE;
        let partition = Partition::named(shape, "4-4").unwrap();
        let second = second_partition(shape, 7, partition.patterns()).unwrap();
        assert_eq!(second.symmetry.cell(0), 2);
        assert_eq!(second.extra, None);
    }
}

#[cfg(test)]
mod layouts {
    use crate::pattern::{build_pattern_table_toward, Partition, PatternDb, SolveOptions};
    use crate::puzzle::board::Board;
    use crate::puzzle::shape::Shape;

    /// The tables of `patterns` toward the goal blank 7 of 3×3.
    fn tables(shape: Shape, patterns: &[Vec<u8>]) -> Vec<Vec<u8>> {
        let quiet = |_| {};
        (patterns.iter())
            .map(|tiles| build_pattern_table_toward(shape, 7, tiles, &quiet).unwrap())
            .collect()
    }

    /// Files written before the second partition could have a table of its
    /// own hold the shared tables, or (before tables were shared) every
    /// pattern's: both still open, without it, and give the same lengths as
    /// the new layout.
    #[test]
    fn older_layouts_open_without_the_second_partition() {
        let shape = Shape::THREE_BY_THREE;
        // Toward the blank in cell 7, every symmetry's images of these need
        // a table more.
        let partition = Partition::new(shape, vec![vec![1, 2, 3, 5], vec![4, 6, 7, 8]]).unwrap();
        let stored = partition.stored_patterns(7);
        let shared = partition.shared_patterns(7);
        assert_eq!(stored.len(), shared.len() + 1);
        let toward = |patterns: &[Vec<u8>]| {
            PatternDb::toward(partition.clone(), 7, tables(shape, patterns)).unwrap()
        };
        let new = toward(&stored);
        assert!(new.uses_second_lookup());
        let older = [toward(&shared), toward(partition.patterns())];
        assert!(older.iter().all(|db| !db.uses_second_lookup()));
        // One table too many or too few is refused.
        let mut extra = tables(shape, &stored);
        extra.push(extra[0].clone());
        assert!(PatternDb::toward(partition.clone(), 7, extra).is_err());
        let start = Board::new(shape, &[8, 7, 6, 5, 4, 3, 2, 0, 1]).unwrap();
        let length = |db: &PatternDb<Vec<u8>>| {
            let solution = db.solve_to(&start, &db.goal(), &SolveOptions::default());
            let solution = solution.unwrap();
            assert_eq!(start.replay(&solution.moves), Some(db.goal()));
            solution.moves.len()
        };
        assert!(older.iter().all(|db| length(db) == length(&new)));
    }
}
