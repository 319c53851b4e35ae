//! The wide boards' code paths (64-bit masks in the build, the wide ranking
//! and the 64-slot search) checked against the narrow ones on boards of up
//! to 16 cells, where both run: the same entries, and the same solutions
//! found with the same number of nodes.

use super::dual::{DualPlan, DualReach, DualSource};
use super::search::{ida_star, ida_star_wide};
use super::table::{build_every_way, reflects};
use super::{Partition, PatternDb, SolveOptions};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::shape::Shape;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// Every pattern of `partition`, toward the goal blank `goal_blank`, built
/// with every kind of masks: the same bytes each time.
fn builds_agree(partition: &Partition, goal_blank: usize) {
    for tiles in partition.patterns() {
        tables_agree(partition.shape(), goal_blank, tiles);
    }
}

/// The pattern `tiles` toward `goal_blank` built every way: the same bytes.
fn tables_agree(shape: Shape, goal_blank: usize, tiles: &[u8]) {
    let tables = build_every_way(shape, goal_blank, tiles);
    assert!(tables.len() >= 3, "{tiles:?}");
    for table in &tables[1..] {
        assert!(table == &tables[0], "{tiles:?} toward {goal_blank}");
    }
}

/// Patterns that are their own mirror image build the same table from
/// half the placements, on narrow and wide boards, left to right and top
/// to bottom; with the blank's goal cell off the axis too.
#[test]
fn reflected_builds_find_what_full_ones_find() {
    for (shape, goal_blank, tiles) in [
        ("3x3", 8, &[1, 3][..]),
        ("3x3", 8, &[1, 7]),
        ("3x4", 11, &[1, 2, 3, 4]),
        ("4x4", 0, &[13, 1, 14, 2]),
        ("4x5", 19, &[1, 2, 4, 5]),
        ("5x5", 24, &[1, 5]),
        ("5x4", 0, &[17, 1, 2, 18]),
    ] {
        let shape: Shape = shape.parse().unwrap();
        assert!(reflects(shape, goal_blank, tiles), "{shape} {tiles:?}");
        tables_agree(shape, goal_blank, tiles);
    }
    // Tiles 1, 3 and 5 of 3×3 mirror onto themselves, but wall the blank
    // into its corner, whose image is the other corner.
    assert!(!reflects(Shape::THREE_BY_THREE, 0, &[1, 3, 5]));
}

#[test]
fn every_kind_of_masks_builds_the_same_tables() {
    let shape = Shape::THREE_BY_THREE;
    builds_agree(&Partition::named(shape, "4-4").unwrap(), 8);
    builds_agree(&Partition::named(shape, "4-4").unwrap(), 4);
    let shape = Shape::new(3, 4).unwrap();
    let partition = Partition::new(shape, vec![vec![1, 2, 5, 6], vec![3, 4, 7, 8, 11]]).unwrap();
    builds_agree(&partition, 11);
    // 4×4, with more free cells than a 16-bit word holds.
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::new(shape, vec![vec![1, 2, 3, 4], vec![12, 15]]).unwrap();
    builds_agree(&partition, 15);
}

/// A position `moves` random moves (none undoing the last) from `goal`.
fn walked_from(goal: &Board, moves: usize, rng: &mut StdRng) -> Board {
    let mut board = *goal;
    let mut last: Option<Move> = None;
    for _ in 0..moves {
        let choices: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| Some(m.opposite()) != last && board.apply(m).is_some())
            .collect();
        let m = *choices.choose(rng).unwrap();
        board = board.apply(m).unwrap();
        last = Some(m);
    }
    board
}

/// Positions walked from the default goal, solved by the narrow and the
/// wide search (reading the dual lookup in `duals`): the same moves, nodes
/// and expansions, one at a time and split across threads.
fn searches_agree(db: &PatternDb<Vec<u8>>, duals: &[PatternDb<Vec<u8>>], walks: &[usize]) {
    let goal = Board::goal(db.shape());
    let plan = &DualPlan::of(duals, &db.goal(), DualReach::Everywhere);
    let duals = Some(DualSource { plan, sets: duals });
    let mut rng = StdRng::seed_from_u64(25);
    for &walk in walks {
        let start = walked_from(&goal, walk, &mut rng);
        let options = SolveOptions::default();
        let narrow = ida_star(db, duals, &start, &options).unwrap();
        let wide = ida_star_wide(db, duals, &start, &options).unwrap();
        assert_eq!(narrow, wide, "{start:?}");
        assert_eq!(start.replay(&wide.moves), Some(goal));
        let parallel = SolveOptions {
            parallel: true,
            ..options
        };
        let split = ida_star_wide(db, duals, &start, &parallel).unwrap();
        assert_eq!(split.moves.len(), narrow.moves.len(), "{start:?}");
    }
}

#[test]
fn the_wide_search_finds_what_the_narrow_one_finds() {
    let shape = Shape::THREE_BY_THREE;
    let db = PatternDb::build(Partition::named(shape, "4-4").unwrap(), &|_, _| {}).unwrap();
    searches_agree(&db, &[], &[0, 1, 5, 12, 20, 31, 40, 60]);
    // Without the transposed lookup too.
    searches_agree(&db.with_second_lookup(false), &[], &[9, 25, 50]);
    let shape = Shape::new(3, 4).unwrap();
    let db = PatternDb::build(Partition::named(shape, "6-5").unwrap(), &|_, _| {}).unwrap();
    searches_agree(&db, &[], &[3, 17, 30, 45]);
    let shape = Shape::new(4, 4).unwrap();
    let small = Partition::new(
        shape,
        vec![
            vec![1, 2, 5, 6],
            vec![3, 4, 7, 8],
            vec![9, 10, 13, 14],
            vec![11, 12, 15],
        ],
    )
    .unwrap();
    let db = PatternDb::build(small, &|_, _| {}).unwrap();
    searches_agree(&db, &[], &[10, 24, 30]);
    // With the dual lookup where the blank is in a corner.
    searches_agree(&db, std::slice::from_ref(&db), &[10, 24, 30]);
}

/// With the dual lookup of a set for every class of blank cells (and the
/// default goal's set alone), both searches find the same; and as short
/// solutions as without it.
#[test]
fn the_wide_search_reads_the_dual_as_the_narrow_one_does() {
    let partition = Partition::named(Shape::THREE_BY_THREE, "4-4").unwrap();
    let sets: Vec<_> = [8, 7, 4]
        .map(|blank| PatternDb::build_toward(partition.clone(), blank, &|_, _| {}).unwrap())
        .into();
    let walks = [0, 1, 5, 12, 20, 31, 40, 60];
    searches_agree(&sets[0], &sets, &walks);
    searches_agree(&sets[0], &sets[..1], &walks);
    let mut rng = StdRng::seed_from_u64(26);
    for walk in walks {
        let start = walked_from(&sets[0].goal(), walk, &mut rng);
        let options = SolveOptions::default();
        let plain = ida_star(&sets[0], None, &start, &options).unwrap();
        let plan = &DualPlan::of(&sets, &sets[0].goal(), DualReach::Everywhere);
        let duals = Some(DualSource { plan, sets: &sets });
        let dual = ida_star(&sets[0], duals, &start, &options).unwrap();
        assert_eq!(plain.moves.len(), dual.moves.len(), "{start:?}");
    }
}
