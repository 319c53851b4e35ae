//! Boards of 10 to 12 cells: building 2x5, and solving the hardest 3x4
//! positions from a warm memory map. `cargo bench --bench large`.
//!
//! The 3x4 table is read from data/3x4.db when that file exists (build it
//! with `cargo run --release -p build-db -- --board 3x4`), else built into a
//! temporary folder first, which takes about 8 s.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use npuzzle::rules::symmetry::Symmetry;
use npuzzle::tables::all_goals;
use npuzzle::{build, tables::build_tables, Board, CompleteTables, Database, Plan, Shape};
use std::path::PathBuf;
use std::time::Duration;

fn three_by_four_db() -> (Option<tempfile::TempDir>, CompleteTables<memmap2::Mmap>) {
    let shape: Shape = "3x4".parse().unwrap();
    let existing = PathBuf::from("data/3x4.db");
    if let Ok(Ok(db)) = Database::open(&existing).map(Database::into_complete) {
        if db.shape() == shape && db.serves(shape.cells() - 1) {
            return (None, db);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x4.db");
    let plan = Plan::Complete {
        shape,
        metric: npuzzle::Metric::SingleTile,
        blanks: vec![shape.cells() - 1],
        paths: false,
    };
    build(&path, &plan, &|_, _| {}).unwrap();
    let db = Database::open(&path).unwrap().into_complete().unwrap();
    (Some(dir), db)
}

fn benches(c: &mut Criterion) {
    let two_by_five: Shape = "2x5".parse().unwrap();
    c.bench_function("build 2x5, every goal (3 tables)", |b| {
        b.iter(|| build_tables(two_by_five, black_box(&all_goals(two_by_five))))
    });

    let (_dir, db) = three_by_four_db();
    let goal = Board::goal(db.shape());
    let target = db.goal_table(&goal).unwrap();
    let farthest: Vec<Board> = target.positions_at(53).collect();
    assert_eq!(farthest.len(), 18);
    let mut moves = Vec::with_capacity(64);
    let mut next = farthest.iter().cycle();
    c.bench_function("solve 53-move 3x4 positions (the 18 in turn)", |b| {
        b.iter(|| {
            moves.clear();
            target
                .solve_into(black_box(next.next().unwrap()), &mut moves)
                .unwrap()
        })
    });
    // The goal with the blank in the first corner is served by the table of
    // the last through a half turn. A 53-move start for it: a farthest
    // position, turned, with tiles renamed t -> 12 - t to match that goal.
    let corner = npuzzle::parse_board("0 1 2 3 4 5 6 7 8 9 10 11", db.shape()).unwrap();
    let turned = Symmetry::all(db.shape())[3].apply(&farthest[0]);
    let renamed: Vec<u64> = turned
        .cells()
        .iter()
        .map(|&t| if t == 0 { 0 } else { 12 - t as u64 })
        .collect();
    let far = Board::new(db.shape(), &renamed).unwrap();
    assert_eq!(db.distance(&far, &corner), Ok(53));
    c.bench_function("solve 3x4 for goal 0 1 2 … 11 (a reflected table)", |b| {
        b.iter(|| {
            moves.clear();
            let t = db.goal_table(black_box(&corner)).unwrap();
            t.solve_into(black_box(&far), &mut moves).unwrap()
        })
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().without_plots().sample_size(30).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
    targets = benches
}
criterion_main!(group);
