//! The 12-cell boards: published distance counts, the farthest positions,
//! solutions that replay, goals answered through a symmetric table, and the
//! far distances (63 and more, stored modulo 63) of the 2×6 board; and on
//! the 15-cell boards, IDA* lengths through two partitions' tables.
//!
//! Each table takes about 8 s and 240 MB in release (far too long in debug),
//! so these tests are ignored by default; run them with
//!
//! ```text
//! cargo test --release --test it -- --ignored large::
//! ```
//!
//! Each test builds one board's table, checks it, drops it, then builds the
//! transposed board's; and the tests take turns ([`one_at_a_time`]), so the
//! process holds one table at a time.

use crate::util::{histogram, plain_bfs_within, plain_manhattan, temp_db_with_blanks};
use npuzzle::analysis::sample;
use npuzzle::rules::symmetry::Symmetry;
use npuzzle::{
    files::write_database, tables::build_table, AnswerError, Board, CompleteTables, Database,
    GoalTable, Shape,
};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// OEIS A090166: positions of the 3×4 (and 4×3) puzzle at each distance
/// from a goal with the blank in a corner.
const A090166: [u64; 54] = [
    1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802, 71167,
    119888, 198363, 323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354, 7647872,
    10065800, 12760413, 15570786, 18171606, 20299876, 21587248, 21841159, 20906905, 18899357,
    16058335, 12772603, 9515217, 6583181, 4242753, 2503873, 1350268, 643245, 270303, 92311, 27116,
    5390, 1115, 86, 18,
];

/// OEIS A090167, as far as its data section goes (distances 0 to 38): the
/// 2×6 (and 6×2) puzzle from a goal with the blank in a corner. Its b-file
/// ends at distance 80, with 2 positions.
const A090167_START: [u64; 39] = [
    1, 2, 3, 6, 11, 20, 36, 60, 95, 155, 258, 426, 688, 1106, 1723, 2615, 3901, 5885, 8851, 13205,
    19508, 28593, 41179, 58899, 83582, 118109, 165136, 228596, 312542, 423797, 568233, 755727,
    994641, 1296097, 1667002, 2119476, 2660415, 3300586, 4038877,
];

/// 12!/2: the positions of every 12-cell table.
const POSITIONS: u64 = 239_500_800;

/// Tests that hold a 12-cell table take turns: two at once would double the
/// memory and share the same two cores anyway.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(PoisonError::into_inner)
}

#[test]
#[ignore = "builds 12-cell tables; .ci/run runs them in release"]
fn three_by_four_and_four_by_three_match_a090166() {
    let _turn = one_at_a_time();
    let t = temp_db_with_blanks("3x4", &[11]);
    assert_eq!(t.db.table_info(11).unwrap().counts, A090166);
    let farthest = check_lookups(&t.db, 16, 1);
    drop(t);
    check_transposed("4x3", &A090166, &farthest);
}

#[test]
#[ignore = "builds 12-cell tables; .ci/run runs them in release"]
fn two_by_six_and_six_by_two_match_a090167_to_distance_80() {
    let _turn = one_at_a_time();
    let t = temp_db_with_blanks("2x6", &[11]);
    let counts = t.db.table_info(11).unwrap().counts.clone();
    assert_eq!(counts[..39], A090167_START);
    assert_eq!(counts.len(), 81, "the maximum distance is 80");
    assert_eq!(counts[80], 2);
    assert_eq!(counts.iter().sum::<u64>(), POSITIONS);
    let farthest = check_lookups(&t.db, 20, 2);
    check_far_distances(&t.db, 3);
    let report = t.db.verify();
    assert!(report.ok, "{report:?}");
    drop(t);
    check_same_table_whatever_the_threads("2x6".parse().unwrap());
    check_transposed("6x2", &counts, &farthest);
}

/// The table built on one thread and on every core, byte for byte: where
/// a position has several moves one step closer, the build keeps the same
/// one however its threads meet (on 2×6, past distance 63 too, where the
/// entries' distance field wraps).
fn check_same_table_whatever_the_threads(shape: Shape) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let alone = one.install(|| build_table(shape, shape.cells() - 1));
    let together = build_table(shape, shape.cells() - 1);
    let differing = (alone.entries.iter().zip(&together.entries))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 0, "{shape}: entries differ between builds");
}

/// Lookups in a database holding only the table of the default goal (blank
/// in the last cell, a corner). Returns the positions farthest from it.
fn check_lookups(db: &CompleteTables<memmap2::Mmap>, plain_depth: u32, seed: u64) -> Vec<Board> {
    let shape = db.shape();
    assert_eq!(db.table_info(shape.cells() - 1).unwrap().entries, POSITIONS);
    let target = db.goal_table(&Board::goal(shape)).unwrap();
    let farthest = check_farthest(db, &target);
    check_near_a_corner_goal(db, plain_depth, seed);
    check_random_pairs(db, 600, seed);
    // Cell 1 is on an edge, in no corner's class: no table serves it.
    assert!(matches!(
        db.goal_table(&Board::canonical_goal(shape, 1)),
        Err(AnswerError::MissingGoal { .. })
    ));
    farthest
}

/// The positions at the maximum distance: as many as the header says, each
/// solved by that many moves that replay to the goal, and every neighbour
/// one step closer (none can be farther).
fn check_farthest(db: &CompleteTables<memmap2::Mmap>, target: &GoalTable<'_>) -> Vec<Board> {
    let info = target.info();
    let max = info.max_distance as u32;
    let goal = *target.goal();
    let farthest: Vec<Board> = target.positions_at(max).collect();
    assert_eq!(farthest.len() as u64, info.counts[max as usize]);
    for start in &farthest {
        assert_eq!(db.distance(start, &goal), Ok(max), "{start}");
        let moves = db.solve(start, &goal).unwrap();
        assert_eq!(moves.len() as u32, max, "{start}");
        assert_eq!(start.replay(&moves), Some(goal), "{start}");
        for next in npuzzle::Move::ALL.iter().filter_map(|&m| start.apply(m)) {
            assert_eq!(db.distance(&next, &goal), Ok(max - 1), "{start} -> {next}");
        }
    }
    farthest
}

/// A goal with the blank in the first cell and its tiles shuffled, served by
/// the last cell's table through a symmetry and a relabelling: a plain
/// search from it finds the published counts up to `depth`, and the
/// database agrees with it on every position it finds.
fn check_near_a_corner_goal(db: &CompleteTables<memmap2::Mmap>, depth: u32, seed: u64) {
    let shape = db.shape();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tiles: Vec<u8> = (1..shape.cells() as u8).collect();
    tiles.shuffle(&mut rng);
    let goal_cells: Vec<u8> = std::iter::once(0).chain(tiles).collect();
    let goal = board(shape, &goal_cells);
    let truth = plain_bfs_within(shape.rows(), shape.cols(), &goal_cells, depth);
    let counts = &db.goal_table(&Board::goal(shape)).unwrap().info().counts;
    assert_eq!(histogram(&truth), counts[..=depth as usize]);
    let target = db.goal_table(&goal).unwrap();
    for (cells, &d) in &truth {
        let start = board(shape, cells);
        assert_eq!(target.distance(&start), Ok(d), "{start} -> {goal}");
    }
}

/// Random starts and random goals with the blank in a corner: the database
/// agrees with the solvability rule, its solutions replay and have the
/// distance's length, which respects the Manhattan bound and its parity,
/// and every symmetric image of the pair (a goal in each corner, each served
/// through another symmetry) has the same distance.
fn check_random_pairs(db: &CompleteTables<memmap2::Mmap>, draws: usize, seed: u64) {
    let shape = db.shape();
    let symmetries = Symmetry::all(shape);
    let corners: Vec<usize> = symmetries
        .iter()
        .map(|s| s.cell(shape.cells() - 1))
        .collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut cells: Vec<u8> = (0..shape.cells() as u8).collect();
    let mut solvable = 0;
    for _ in 0..draws {
        let corner = *corners.choose(&mut rng).unwrap();
        cells.shuffle(&mut rng);
        let blank = cells.iter().position(|&t| t == 0).unwrap();
        cells.swap(blank, corner);
        let goal = board(shape, &cells);
        cells.shuffle(&mut rng);
        let start = board(shape, &cells);
        let d = match (
            npuzzle::rules::solvability::check(&start, &goal),
            db.distance(&start, &goal),
        ) {
            (Ok(()), Ok(d)) => d,
            (Err(why), Err(AnswerError::Unsolvable(got))) if why == got => continue,
            (rule, got) => {
                panic!("{start} -> {goal}: the rule says {rule:?}, the database {got:?}")
            }
        };
        solvable += 1;
        let lower = plain_manhattan(shape.cols(), start.cells(), goal.cells());
        assert!(
            lower <= d && (d - lower).is_multiple_of(2),
            "{start} -> {goal}: {d}, Manhattan {lower}"
        );
        for s in &symmetries {
            let (start, goal) = (s.apply(&start), s.apply(&goal));
            let moves = db.solve(&start, &goal).unwrap();
            assert_eq!(moves.len() as u32, d, "{start} -> {goal}");
            assert_eq!(start.replay(&moves), Some(goal), "{start} -> {goal}");
            assert_eq!(db.distance(&start, &goal), Ok(d), "{start} -> {goal}");
        }
    }
    assert!(
        solvable >= draws / 3,
        "only {solvable} of {draws} were solvable"
    );
}

/// Positions drawn ([`sample`]) at each distance whose field is ambiguous
/// (0 to 17, the same fields as 63 to 80) and from 62 to the maximum; the
/// entries hold the distance modulo 63, and the distance is told apart by
/// following the stored moves. Each position has
/// the distance it was drawn at, its solutions (toward the goal and toward
/// each symmetric image of the goal) replay and have that length, and each
/// neighbour is one step nearer or farther.
fn check_far_distances(db: &CompleteTables<memmap2::Mmap>, per_distance: usize) {
    let goal = Board::goal(db.shape());
    let target = db.goal_table(&goal).unwrap();
    let max = target.info().max_distance as u32;
    let mut rng = StdRng::seed_from_u64(80);
    for d in (0..=max - 63).chain(62..=max) {
        let count = per_distance.min(target.info().counts[d as usize] as usize);
        let starts = sample(&target, d..=d, count, &mut rng).unwrap();
        assert_eq!(starts.len(), count);
        for start in &starts {
            let rank = target.cursor(start).unwrap().rank();
            let stored = npuzzle::raw::entry::distance_field(target.entries()[rank as usize]);
            assert_eq!(stored as u32, d % 63, "{start} at {d}");
            assert_eq!(target.distance(start), Ok(d), "{start}");
            for s in Symmetry::all(db.shape()) {
                let (start, goal) = (s.apply(start), s.apply(&goal));
                let moves = db.solve(&start, &goal).unwrap();
                assert_eq!(moves.len() as u32, d, "{start} -> {goal}");
                assert_eq!(start.replay(&moves), Some(goal), "{start} -> {goal}");
            }
            for next in npuzzle::Move::ALL.iter().filter_map(|&m| start.apply(m)) {
                let e = target.distance(&next).unwrap();
                assert!(e + 1 == d || e == d + 1, "{start} at {d} -> {next} at {e}");
            }
        }
    }
}

/// The transposed board, built with [`build_table`]: the same counts, and
/// its farthest positions, turned about the diagonal and relabelled, are
/// exactly the original board's.
fn check_transposed(size: &str, counts: &[u64], farthest: &[Board]) {
    let shape: Shape = size.parse().unwrap();
    let last = shape.cells() - 1;
    let table = build_table(shape, last);
    assert_eq!(table.counts, counts, "{size}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{shape}.db"));
    write_database(&path, shape, std::slice::from_ref(&table)).unwrap();
    drop(table);
    let db = Database::open(&path).unwrap().into_complete().unwrap();
    let goal = Board::goal(shape);
    let target = db.goal_table(&goal).unwrap();
    let original_goal = Board::goal(transpose(&goal).shape());
    let mut mine: Vec<String> = check_farthest(&db, &target)
        .iter()
        .map(|b| rename(&transpose(b), &transpose(&goal), &original_goal).to_string())
        .collect();
    let mut theirs: Vec<String> = farthest.iter().map(|b| b.to_string()).collect();
    mine.sort();
    theirs.sort();
    assert_eq!(mine, theirs, "{size}");
}

fn board(shape: Shape, cells: &[u8]) -> Board {
    Board::new(shape, &cells.iter().map(|&c| c as u64).collect::<Vec<_>>()).unwrap()
}

/// The board turned about its main diagonal: rows × cols becomes cols × rows.
fn transpose(b: &Board) -> Board {
    let (rows, cols) = (b.shape().rows(), b.shape().cols());
    let mut cells = vec![0; rows * cols];
    for (i, &tile) in b.cells().iter().enumerate() {
        cells[(i % cols) * rows + i / cols] = tile;
    }
    board(Shape::new(cols, rows).unwrap(), &cells)
}

/// `b` with its tiles renamed the way that turns `from` into `to`.
fn rename(b: &Board, from: &Board, to: &Board) -> Board {
    let mut name = [0u8; 16];
    for (&old, &new) in from.cells().iter().zip(to.cells()) {
        name[old as usize] = new;
    }
    let cells: Vec<u8> = b.cells().iter().map(|&t| name[t as usize]).collect();
    board(b.shape(), &cells)
}

/// Issue 13's 3×5 and 5×3 target: 100 uniformly random solvable positions
/// on each board, solved by IDA* through the 7-7 tables and through the
/// 6-6-2 ones, get the same lengths, and every solution replays to the
/// goal. Each length is also at least the Manhattan distance, with its
/// parity. The 7-7 tables take the most time (tens of seconds per board in
/// release); each board's two databases are dropped before the next board.
#[test]
#[ignore = "builds the 7-7 and 6-6-2 tables of 3x5 and 5x3; .ci/run runs it in release"]
fn fifteen_cell_boards_agree_between_7_7_and_6_6_2() {
    use npuzzle::pattern::{Partition, PatternDb, SolveOptions};
    use rayon::prelude::*;
    let _turn = one_at_a_time();
    let mut rng = StdRng::seed_from_u64(1315);
    for (rows, cols) in [(3, 5), (5, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = Board::goal(shape);
        let mut cells: Vec<u8> = (0..shape.cells() as u8).collect();
        let mut starts = Vec::new();
        while starts.len() < 100 {
            cells.shuffle(&mut rng);
            let start = board(shape, &cells);
            if npuzzle::rules::solvability::check(&start, &goal).is_ok() {
                starts.push(start);
            }
        }
        let lengths = ["7-7", "6-6-2"].map(|name| {
            let partition = Partition::named(shape, name).unwrap();
            let db = PatternDb::build(partition, &|_, _| {}).unwrap();
            starts
                .par_iter()
                .map(|start| {
                    let solution = db.solve(start, &SolveOptions::default()).unwrap();
                    assert_eq!(start.replay(&solution.moves), Some(goal), "{name}: {start}");
                    solution.moves.len() as u32
                })
                .collect::<Vec<u32>>()
        });
        assert_eq!(lengths[0], lengths[1], "{shape}: 7-7 against 6-6-2");
        for (start, &d) in starts.iter().zip(&lengths[0]) {
            let lower = plain_manhattan(cols, start.cells(), goal.cells());
            assert!(
                lower <= d && (d - lower).is_multiple_of(2),
                "{start}: {d}, Manhattan {lower}"
            );
        }
    }
}
