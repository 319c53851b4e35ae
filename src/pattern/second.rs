//! A second partition of the goal's tiles, read from the same tables: the
//! search takes the larger of its sum and the partition's own.
//!
//! The transpose (the reflection in the main diagonal) maps moves onto
//! moves, so the image of a pattern is a pattern with the same distances,
//! and reads its original's table through the transpose. Where the
//! transpose keeps the goal blank in place (a corner or the diagonal), the
//! images of a partition's patterns partition the tiles again: the
//! transposed lookup. Where it moves the goal blank (4×4 goals with the
//! blank on an edge), one image holds the goal blank's cell and misses the
//! cell the transpose takes it to. That image, with the one cell swapped for
//! the other, is a pattern of its own: a symmetry may serve it from one of
//! the partition's tables, and otherwise it has a table of its own, stored
//! after the partition's (one more table of its size).

use super::region::CellMasks;
use super::share::{serve, sources, Source};
use super::table::goal_cells;
use crate::puzzle::board::Board;
use crate::puzzle::shape::Shape;
use crate::puzzle::symmetry::Symmetry;

/// The second partition: where each of its patterns reads its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Second {
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
/// blank in `goal_blank`, or `None` on a board that is not square, or where
/// an image other than the one that held the goal blank's cell reads no
/// table through a symmetry (the goal blank outside its region).
pub(crate) fn second_partition(
    shape: Shape,
    goal_blank: usize,
    patterns: &[Vec<u8>],
) -> Option<Second> {
    let transpose = transpose(shape)?;
    let moved = transpose.cell(goal_blank);
    let goal = Board::canonical_goal(shape, goal_blank);
    let masks = CellMasks::new(shape);
    // The transpose first: where it serves every image, as on the default
    // goal, the tables are read exactly as through a transposed board.
    let mut order = vec![transpose];
    order.extend(Symmetry::all(shape).into_iter().filter(|&s| s != transpose));
    let own = sources(shape, goal_blank, patterns);
    let tables: Vec<(usize, &[u8])> = (0..patterns.len())
        .filter(|&j| own[j].own(j))
        .map(|j| (j, &patterns[j][..]))
        .collect();
    let mut second = Second {
        sources: Vec::with_capacity(patterns.len()),
        extra: None,
    };
    for tiles in patterns {
        let cells = goal_cells(shape, goal_blank, tiles);
        let images = cells.iter().map(|&c| transpose.cell(c as usize));
        let held_blank = images.clone().any(|c| c == goal_blank);
        let mut image: Vec<u8> = images
            .map(|c| goal.cells()[if c == goal_blank { moved } else { c }])
            .collect();
        let served = tables
            .iter()
            .find_map(|&table| serve(shape, goal_blank, &masks, &order, &image, table));
        match served {
            Some(source) => second.sources.push(source),
            None if held_blank => {
                image.sort_unstable();
                second.sources.push(Source::itself(patterns.len(), &image));
                second.extra = Some(image);
            }
            None => return None,
        }
    }
    Some(second)
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
        let second = second_partition(shape, 14, partition.patterns()).unwrap();
        assert_eq!(second.sources[1].table_of, 1);
        assert_eq!(second.extra, Some(vec![3, 4, 7, 8, 11, 12, 15]));
        assert_eq!(second.sources[0].table_of, 2);
        // Non-square boards have none.
        let shape = Shape::new(3, 5).unwrap();
        let partition = Partition::named(shape, "7-7").unwrap();
        assert_eq!(second_partition(shape, 14, partition.patterns()), None);
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

    /// Files written before edge goals had a second partition hold the
    /// shared tables, or (before tables were shared) every pattern's: both
    /// still open, without it, and give the same lengths as the new layout.
    #[test]
    fn older_layouts_open_without_the_second_partition() {
        let shape = Shape::THREE_BY_THREE;
        let partition = Partition::named(shape, "4-4").unwrap();
        let stored = partition.stored_patterns(7);
        let shared = partition.shared_patterns(7);
        assert_eq!(stored.len(), shared.len() + 1);
        let toward = |patterns: &[Vec<u8>]| {
            PatternDb::toward(partition.clone(), 7, tables(shape, patterns)).unwrap()
        };
        let new = toward(&stored);
        assert!(new.uses_transpose());
        let older = [toward(&shared), toward(partition.patterns())];
        assert!(older.iter().all(|db| !db.uses_transpose()));
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
