//! In-process speed of the core operations. `cargo bench` runs them all.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use npuzzle::raw::build_each;
use npuzzle::raw::Ranker;
use npuzzle::{
    build, parse_board, rules::solvability, tables::build_table, tables::build_table_reporting,
    tables::build_tables, Board, CompleteTables, Database, Shape,
};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::convert::Infallible;

/// A 3x3 database with the tables for `blanks`, with path tables or not.
fn three_by_three_db(
    blanks: &[usize],
    paths: bool,
) -> (tempfile::TempDir, CompleteTables<memmap2::Mmap>) {
    let shape = Shape::THREE_BY_THREE;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x3.db");
    let plan = npuzzle::Plan::Complete {
        shape,
        metric: npuzzle::Metric::SingleTile,
        blanks: blanks.to_vec(),
        paths,
    };
    build(&path, &plan, &|_, _| {}).unwrap();
    let db = Database::open(&path).unwrap().into_complete().unwrap();
    (dir, db)
}

/// 1,000 random positions that reach the default goal (seed 1): those of
/// `cargo run --release --example compare`.
fn random_starts(shape: Shape) -> Vec<Board> {
    let goal = Board::goal(shape);
    let mut rng = StdRng::seed_from_u64(1);
    let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
    let mut starts = Vec::new();
    while starts.len() < 1000 {
        cells.shuffle(&mut rng);
        let board = Board::new(shape, &cells).unwrap();
        if solvability::check(&board, &goal).is_ok() {
            starts.push(board);
        }
    }
    starts
}

fn benches(c: &mut Criterion) {
    let shape = Shape::THREE_BY_THREE;
    let ranker = Ranker::new(shape, 8);
    let board = parse_board("867254301", shape).unwrap();
    c.bench_function("rank 3x3", |b| b.iter(|| ranker.rank(black_box(&board))));
    c.bench_function("unrank 3x3", |b| {
        b.iter(|| ranker.unrank(black_box(123_456)))
    });
    c.bench_function("parse board 867254301", |b| {
        b.iter(|| parse_board(black_box("867254301"), shape).unwrap())
    });

    let nine: Vec<usize> = (0..9).collect();
    let (_dir, db) = three_by_three_db(&nine, true);
    let (_steps_dir, stepped) = three_by_three_db(&nine, false);
    let goal = Board::goal(shape);
    let target = db.goal_table(&goal).unwrap();
    c.bench_function("distance lookup (31 moves)", |b| {
        b.iter(|| target.distance(black_box(&board)).unwrap())
    });
    let mut moves = Vec::with_capacity(64);
    let starts = random_starts(shape);
    for (suffix, target) in [
        ("", target),
        (
            ", stepping (no path table)",
            stepped.goal_table(&goal).unwrap(),
        ),
    ] {
        c.bench_function(&format!("solve 31-move position{suffix}"), |b| {
            b.iter(|| {
                moves.clear();
                target.solve_into(black_box(&board), &mut moves).unwrap()
            })
        });
        c.bench_function(&format!("solve 1000 random positions{suffix}"), |b| {
            b.iter(|| {
                for start in &starts {
                    moves.clear();
                    target.solve_into(black_box(start), &mut moves).unwrap();
                }
            })
        });
    }
    let other_goal = parse_board("123804765", shape).unwrap();
    let far = parse_board("567408321", shape).unwrap();
    c.bench_function("solve for goal 123804765, with relabelling", |b| {
        b.iter(|| {
            moves.clear();
            let t = db.goal_table(black_box(&other_goal)).unwrap();
            t.solve_into(black_box(&far), &mut moves).unwrap()
        })
    });
    // The goal with the blank in the first corner, served by the last
    // corner's table through a half turn (what `build-db` writes by default).
    let (_classes_dir, classes) = three_by_three_db(&npuzzle::tables::all_goals(shape), true);
    let corner_goal = parse_board("012345678", shape).unwrap();
    let corner_far = classes
        .goal_table(&corner_goal)
        .unwrap()
        .positions_at(31)
        .next()
        .unwrap();
    c.bench_function("solve for goal 012345678 through a reflected table", |b| {
        b.iter(|| {
            moves.clear();
            let t = classes.goal_table(black_box(&corner_goal)).unwrap();
            t.solve_into(black_box(&corner_far), &mut moves).unwrap()
        })
    });
    c.bench_function("build one 3x3 table", |b| {
        b.iter(|| build_table(shape, black_box(8)))
    });
    c.bench_function("build all nine 3x3 tables", |b| {
        b.iter(|| build_tables(shape, black_box(&nine)))
    });
    c.bench_function("build all nine 3x3 tables with their path tables", |b| {
        b.iter(|| {
            let mut tables = Vec::new();
            let stm = npuzzle::Metric::SingleTile;
            let built = build_each(shape, black_box(&nine), stm, true, &|_, _| {}, |table| {
                tables.push(table);
                Ok::<(), Infallible>(())
            });
            built.map(|()| tables)
        })
    });
    c.bench_function("build one 3x3 table with its path table", |b| {
        b.iter(|| {
            build_table_reporting(
                shape,
                black_box(8),
                npuzzle::Metric::SingleTile,
                true,
                &|_| {},
            )
        })
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().without_plots().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = benches
}
criterion_main!(group);
