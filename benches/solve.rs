//! IDA* over pattern databases on Korf's 100 15-puzzle instances, one
//! thread: `cargo bench --bench solve`. Prints the nodes each benchmarked
//! instance generates (they do not vary from run to run, so a change in
//! the search shows there first), then times the solves.
//!
//! The tables are those of data/4x4.db when it holds a 4x4 pattern database
//! (the default `7-8`: `cargo run --release -p build-db -- --board 4x4`),
//! where all 100 are timed as one benchmark besides a few alone; else the
//! `6-6-3` tables are built into memory first (about 5 s), and only the
//! few alone are timed, since the 100 take seconds through them.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use npuzzle::pattern::{Partition, PatternDb, SolveOptions};
use npuzzle::{Board, Database, Shape};
use std::time::Duration;

/// Korf's 100 starts, in the file's order, toward the goal `0 1 … 15`.
fn korf100(shape: Shape) -> Vec<Board> {
    std::fs::read_to_string("tests/data/korf100.txt")
        .expect("tests/data/korf100.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let cells: Vec<u64> = line
                .split_whitespace()
                .skip(2)
                .map(|c| c.parse().unwrap())
                .collect();
            Board::new(shape, &cells).unwrap()
        })
        .collect()
}

/// Instances timed alone (numbers from 1): Korf's first, and four more of
/// the 7-8 tables' easy, middling and hard ones that `6-6-3` solves in
/// well under a second.
const ALONE: [usize; 5] = [1, 2, 5, 9, 13];

fn solve_each<B: AsRef<[u8]>>(c: &mut Criterion, db: &PatternDb<B>, name: &str, all: bool) {
    let shape = db.shape();
    let goal = Board::new(shape, &(0..16).collect::<Vec<_>>()).unwrap();
    let starts = korf100(shape);
    let options = SolveOptions::default();
    for number in ALONE {
        let solution = db.solve_to(&starts[number - 1], &goal, &options).unwrap();
        println!(
            "{name}: Korf's instance {number}: {} moves, {} nodes generated, {} expanded",
            solution.moves.len(),
            solution.nodes,
            solution.expanded
        );
        c.bench_function(&format!("{name}: Korf's instance {number}"), |b| {
            b.iter(|| db.solve_to(black_box(&starts[number - 1]), &goal, &options))
        });
    }
    if all {
        let nodes: u64 = starts
            .iter()
            .map(|s| db.solve_to(s, &goal, &options).unwrap().nodes)
            .sum();
        println!(
            "{name}: Korf's 100: {:.0} nodes generated per instance",
            nodes as f64 / 100.0
        );
        c.bench_function(&format!("{name}: Korf's 100"), |b| {
            b.iter(|| {
                for start in &starts {
                    black_box(db.solve_to(start, &goal, &options).unwrap());
                }
            })
        });
    }
}

fn benches(c: &mut Criterion) {
    let shape = Shape::new(4, 4).unwrap();
    let opened = Database::open(std::path::Path::new("data/4x4.db"))
        .ok()
        .and_then(Database::into_patterns)
        .filter(|db| db.shape() == shape);
    match opened {
        Some(db) => {
            let name = db.partition().name();
            solve_each(c, db.patterns(), name, true);
        }
        None => {
            let partition = Partition::named(shape, "6-6-3").unwrap();
            let db = PatternDb::build(partition, &|_, _| {}).unwrap();
            solve_each(c, &db, "6-6-3", false);
        }
    }
}

criterion_group! {
    name = solve;
    config = Criterion::default()
        .without_plots()
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    targets = benches
}
criterion_main!(solve);
