//! Goals answered through a symmetric cell's table.
//!
//! A database may hold tables for only some goal blank cells: one per class
//! of cells (`all_goals`) answers every goal, because a reflection or turn of
//! the board takes the goal's blank to a cell that has a table. Starts are
//! carried into that table's frame and moves carried back, and a slip in
//! either direction gives wrong distances, solutions that do not replay, or
//! the wrong positions. So every answer here is checked against a database
//! that holds each cell's own table (or against the board itself): distances
//! and unsolvable verdicts (told in the goal's frame), solutions, positions at
//! a distance, samples, counts and lists of shortest solutions, and heuristic
//! surveys, on 3×3 (where two edges are served through transposes, which
//! only square boards have) and on 2×4.

use npuzzle::analysis::survey_all;
use npuzzle::analysis::{count_shortest, list_shortest};
use npuzzle::tables::all_goals;
use npuzzle::{
    files::write_database, rules::move_string, rules::solvability, rules::symmetry, rules::Cells,
    tables::build_tables, tables::Table, AnswerError, Board, Cell, CompleteTables, Database,
    GoalTable, Move, Shape,
};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

type Db = CompleteTables<memmap2::Mmap>;

/// The table of every goal blank cell of 3×3 or 2×4, built once for all the
/// tests of this file.
fn every_table(shape: Shape) -> &'static [Table] {
    static THREE_BY_THREE: OnceLock<Vec<Table>> = OnceLock::new();
    static TWO_BY_FOUR: OnceLock<Vec<Table>> = OnceLock::new();
    let cache = match (shape.rows(), shape.cols()) {
        (3, 3) => &THREE_BY_THREE,
        (2, 4) => &TWO_BY_FOUR,
        _ => panic!("no tables are built for {shape}"),
    };
    cache.get_or_init(|| build_tables(shape, &(0..shape.cells()).collect::<Vec<_>>()))
}

/// A database of `shape` holding the tables of `blanks` only, in `dir`.
fn database(dir: &Path, shape: Shape, blanks: &[usize]) -> Db {
    let tables: Vec<Table> = every_table(shape)
        .iter()
        .filter(|t| blanks.contains(&t.goal_blank))
        .cloned()
        .collect();
    let name: Vec<String> = blanks.iter().map(|b| b.to_string()).collect();
    let path = dir.join(format!("{shape}-{}.db", name.join("-")));
    write_database(&path, shape, &tables).unwrap();
    Database::open(&path).unwrap().into_complete().unwrap()
}

/// Two databases of one board: `own` holds every cell's own table,
/// `symmetric` one table per class of cells.
struct Pair {
    own: Db,
    symmetric: Db,
    _dir: tempfile::TempDir,
}

impl Pair {
    fn new(size: &str) -> Pair {
        let shape: Shape = size.parse().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let every: Vec<usize> = (0..shape.cells()).collect();
        Pair {
            own: database(dir.path(), shape, &every),
            symmetric: database(dir.path(), shape, &all_goals(shape)),
            _dir: dir,
        }
    }

    fn shape(&self) -> Shape {
        self.own.shape()
    }
}

/// A random arrangement of the tiles with the blank in `blank`.
fn random_board(shape: Shape, blank: usize, rng: &mut StdRng) -> Board {
    let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
    cells.shuffle(rng);
    let zero = cells.iter().position(|&c| c == 0).unwrap();
    cells.swap(zero, blank);
    Board::new(shape, &cells).unwrap()
}

/// Random goals with the blank in each cell in turn (so most are served by
/// another cell's table), each with a random start, half of them unsolvable.
fn check_random_pairs(size: &str, pairs: usize, seed: u64) {
    let dbs = Pair::new(size);
    let shape = dbs.shape();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut unsolvable = 0;
    for i in 0..pairs {
        let goal = random_board(shape, i % shape.cells(), &mut rng);
        let start = random_board(shape, rng.gen_range(0..shape.cells()), &mut rng);
        let own = dbs.own.distance(&start, &goal);
        match (&own, dbs.symmetric.distance(&start, &goal)) {
            (Ok(d), Ok(got)) => {
                assert_eq!(got, *d, "{start} -> {goal}");
                let moves = dbs.symmetric.solve(&start, &goal).unwrap();
                assert_eq!(moves.len() as u32, *d, "{start} -> {goal}");
                assert_eq!(start.replay(&moves), Some(goal), "{start} -> {goal}");
            }
            (Err(own_err @ AnswerError::Unsolvable(_)), Err(got)) => {
                assert_eq!(got.to_string(), own_err.to_string(), "{start} -> {goal}");
                // Told in the goal's frame: the verdict of the direct check.
                let direct = solvability::check(&start, &goal).unwrap_err();
                assert_eq!(got, AnswerError::Unsolvable(direct), "{start} -> {goal}");
                unsolvable += 1;
            }
            (_, got) => panic!("{start} -> {goal}: own table {own:?}, symmetric {got:?}"),
        }
    }
    assert!(
        (pairs / 4..pairs * 3 / 4).contains(&unsolvable),
        "{unsolvable} of {pairs} unsolvable"
    );
}

#[test]
fn symmetric_tables_answer_3x3_like_own_tables() {
    check_random_pairs("3x3", 1000, 11);
}

#[test]
fn symmetric_tables_answer_2x4_like_own_tables() {
    check_random_pairs("2x4", 1000, 12);
}

#[test]
fn one_table_per_class_serves_every_goal_blank() {
    for size in ["3x3", "2x4"] {
        let dbs = Pair::new(size);
        let shape = dbs.shape();
        assert_eq!(dbs.symmetric.header().tables.len(), all_goals(shape).len());
        for blank in 0..shape.cells() {
            assert!(dbs.symmetric.serves(blank), "{size}: cell {blank}");
            let goal = Board::canonical_goal(shape, blank);
            let served_by = dbs.symmetric.goal_table(&goal).unwrap().info().goal_blank as usize;
            let class = symmetry::classes(shape)
                .into_iter()
                .find(|class| class.contains(&blank))
                .unwrap();
            assert!(class.contains(&served_by), "{size}: {blank} by {served_by}");
        }
        assert!(!dbs.symmetric.serves(shape.cells()), "{size}");
    }
}

#[test]
fn one_edge_table_serves_the_edges_only() {
    let shape = Shape::THREE_BY_THREE;
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path(), shape, &[7]);
    let served: Vec<usize> = (0..shape.cells()).filter(|&b| db.serves(b)).collect();
    assert_eq!(served, [1, 3, 5, 7]);

    let corner = Board::canonical_goal(shape, 0);
    let missing = AnswerError::MissingGoal {
        shape,
        cell: Cell::of(shape, 0),
        present: Cells::of(shape, [7]),
    };
    assert_eq!(db.goal_table(&corner).err(), Some(missing.clone()));
    assert_eq!(
        db.distance(&Board::goal(shape), &corner),
        Err(missing.clone())
    );
    let message = missing.to_string();
    assert!(message.contains("row 1, column 1,"), "{message}");
    assert!(message.ends_with("(row,column) 3,2"), "{message}");

    let centre = Board::canonical_goal(shape, 4);
    assert!(matches!(
        db.goal_table(&centre).err(),
        Some(AnswerError::MissingGoal { cell, .. }) if cell == Cell::of(shape, 4)
    ));
}

/// Goals that the 3×3 `all_goals` database serves through another cell's
/// table, with their tiles in random order: blanks in a corner (a half
/// turn), and on edges served by a transpose and by an anti-transpose.
fn symmetric_goals(rng: &mut StdRng) -> Vec<Board> {
    let shape = Shape::THREE_BY_THREE;
    [0, 5, 3]
        .map(|blank| random_board(shape, blank, rng))
        .into()
}

#[test]
fn positions_at_a_distance_come_back_in_the_goals_frame() {
    let dbs = Pair::new("3x3");
    for goal in symmetric_goals(&mut StdRng::seed_from_u64(21)) {
        let (own, symmetric) = targets(&dbs, &goal);
        assert_eq!(symmetric.info().counts, own.info().counts, "{goal}");
        let max = symmetric.info().max_distance as u32;
        for d in [0, 1, 9, 17, max] {
            let boards: Vec<Board> = symmetric.positions_at(d).collect();
            let distinct: HashSet<Board> = boards.iter().copied().collect();
            assert_eq!(distinct.len(), boards.len(), "{goal} at {d}");
            assert_eq!(boards.len() as u64, symmetric.info().counts[d as usize]);
            for board in &boards {
                assert_eq!(own.distance(board), Ok(d), "{board} -> {goal}");
            }
        }
        assert_eq!(symmetric.positions_at(0).collect::<Vec<_>>(), [goal]);
    }
}

/// The targets of `goal` in the database of own tables and in the one of
/// symmetric tables, checking that the second is another cell's.
fn targets<'a>(dbs: &'a Pair, goal: &Board) -> (GoalTable<'a>, GoalTable<'a>) {
    let own = dbs.own.goal_table(goal).unwrap();
    let symmetric = dbs.symmetric.goal_table(goal).unwrap();
    assert_ne!(symmetric.info().goal_blank as usize, goal.blank(), "{goal}");
    (own, symmetric)
}

#[test]
fn shortest_solutions_are_counted_and_listed_alike() {
    let dbs = Pair::new("3x3");
    for goal in symmetric_goals(&mut StdRng::seed_from_u64(22)) {
        let (own, symmetric) = targets(&dbs, &goal);
        for d in [1, 6, 12, 18] {
            for start in own.positions_at(d).step_by(997).take(3) {
                let count = count_shortest(&symmetric, &start).unwrap();
                assert_eq!(count, count_shortest(&own, &start).unwrap(), "{start}");
                let listed = list_shortest(&symmetric, &start, 200).unwrap();
                assert_eq!(listed, list_shortest(&own, &start, 200).unwrap(), "{start}");
                assert_eq!(listed.len() as u128, count.min(200), "{start}");
                check_listed(&start, &goal, d, &listed);
            }
        }
    }
}

/// Each listed sequence solves `start` in `d` moves, and they are distinct
/// and in alphabetical order of their letters.
fn check_listed(start: &Board, goal: &Board, d: u32, listed: &[Vec<Move>]) {
    for moves in listed {
        assert_eq!(moves.len() as u32, d, "{start} -> {goal}");
        assert_eq!(start.replay(moves), Some(*goal), "{start} -> {goal}");
    }
    let letters: Vec<String> = listed.iter().map(|m| move_string(m)).collect();
    assert!(letters.windows(2).all(|w| w[0] < w[1]), "{letters:?}");
}

#[test]
fn samples_lie_at_the_distances_asked_for() {
    let dbs = Pair::new("3x3");
    let mut rng = StdRng::seed_from_u64(23);
    for goal in symmetric_goals(&mut rng) {
        let (own, symmetric) = targets(&dbs, &goal);
        for distances in [20..=20, 5..=8, 31..=31] {
            let drawn = npuzzle::analysis::sample(&symmetric, distances.clone(), 2, &mut rng);
            for board in drawn.unwrap() {
                let d = own.distance(&board).unwrap();
                assert!(distances.contains(&d), "{board} -> {goal}: {d}");
            }
        }
    }
}

#[test]
fn a_goal_with_its_own_table_is_served_in_its_own_frame() {
    for size in ["3x3", "2x4"] {
        let dbs = Pair::new(size);
        let shape = dbs.shape();
        for blank in all_goals(shape) {
            let goal = Board::canonical_goal(shape, blank);
            let target = dbs.symmetric.goal_table(&goal).unwrap();
            assert_eq!(target.info().goal_blank as usize, blank, "{goal}");
            assert_eq!(target.to_table(&goal), goal);
            assert_eq!(target.from_table(&goal), goal);
            for m in Move::ALL {
                assert_eq!(target.move_to_table(m), m, "{goal}");
                assert_eq!(target.move_from_table(m), m, "{goal}");
            }
        }
    }
}

#[test]
fn every_goal_maps_onto_its_tables_goal_and_moves_follow() {
    let mut rng = StdRng::seed_from_u64(24);
    for size in ["3x3", "2x4"] {
        let dbs = Pair::new(size);
        let shape = dbs.shape();
        for blank in 0..shape.cells() {
            let goal = random_board(shape, blank, &mut rng);
            let target = dbs.symmetric.goal_table(&goal).unwrap();
            let table_blank = target.info().goal_blank as usize;
            assert_eq!(
                target.to_table(&goal),
                Board::canonical_goal(shape, table_blank)
            );
            assert_eq!(target.board_at(target.goal_rank()), goal);
            let board = random_board(shape, rng.gen_range(0..shape.cells()), &mut rng);
            check_frames(&target, &board);
        }
    }
}

/// `board` survives the trip to the table's frame and back, and each move
/// made in the goal's frame is the mapped move in the table's.
fn check_frames(target: &GoalTable<'_>, board: &Board) {
    let in_table = target.to_table(board);
    assert_eq!(target.from_table(&in_table), *board);
    for m in Move::ALL {
        let mapped = target.move_to_table(m);
        assert_eq!(target.move_from_table(mapped), m);
        assert_eq!(
            in_table.apply(mapped),
            board.apply(m).map(|next| target.to_table(&next)),
            "{board} then {m:?}"
        );
    }
}

#[test]
fn heuristic_surveys_through_a_symmetric_table_match_the_own_tables() {
    let dbs = Pair::new("3x3");
    for goal in symmetric_goals(&mut StdRng::seed_from_u64(25)) {
        let (own, symmetric) = targets(&dbs, &goal);
        for (mut got, expected) in survey_all(&symmetric)
            .unwrap()
            .into_iter()
            .zip(survey_all(&own).unwrap())
        {
            // Sums of ratios taken in another order differ in the last bits.
            assert!(
                (got.mean_ratio - expected.mean_ratio).abs() < 1e-9,
                "{goal}"
            );
            got.mean_ratio = expected.mean_ratio;
            assert_eq!(got, expected, "{goal}");
        }
    }
}
