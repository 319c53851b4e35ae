//! Any bytes as a pattern-database file: opening never panics, and whatever
//! opens answers `verify`, the heuristic and a few solves (under a short
//! deadline, so no input can hang the fuzzer) without panicking. A solution
//! that comes back must really lead from the start to the goal, however
//! damaged the tables; a start and goal of different parity are refused as
//! unsolvable; and tables that `verify` passes and that equal the library's
//! own build of their pattern give the optimal length, checked against a
//! complete table on boards of up to 9 cells.
//!
//! As in `open_database`, each input is also tried with its header checksum
//! recomputed, so that mutations reach the checks of the header's contents.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::pattern::{build_pattern_table_toward, SolveOptions};
use npuzzle::raw::PREAMBLE_LEN;
use npuzzle::{rules::solvability, Board, CompleteTables, Shape};
use npuzzle::{AnswerError, PatternTables};
use npuzzle_fuzz::{board_from_bytes, check_with_and_without_checksum_fix, database_bytes};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Boards taken from the input, beyond the goals.
const DERIVED: usize = 2;

/// Time one solve may take: a damaged table can make IDA* search for long.
const SOLVE_TIME: Duration = Duration::from_millis(2);

/// Boards up to this many cells get a complete table to check lengths by.
const COMPLETE_MAX_CELLS: usize = 9;

fuzz_target!(|data: &[u8]| check_with_and_without_checksum_fix(data, check_file));

fn check_file(data: &[u8]) {
    let Ok(db) = PatternTables::from_bytes(data) else {
        return;
    };
    let shape = db.shape();
    let report = db.verify();
    assert_eq!(report.tables.len(), db.header().tables.len());
    let genuine = report.ok && tables_are_the_librarys(&db);

    // The padding after the preamble is bytes that opening does not check,
    // so the fuzzer can steer these boards freely.
    let free = &data[PREAMBLE_LEN..];
    let n = shape.cells();
    let mut starts: Vec<Board> = (0..DERIVED)
        .map(|i| board_from_bytes(shape, free.get(i * n..).unwrap_or(&[])))
        .collect();
    let goals = [
        Board::goal(shape),
        // Blank in the first cell: served through the half turn.
        Board::canonical_goal(shape, 0),
        // Blank in the second cell: a corner only on 2x2.
        Board::canonical_goal(shape, 1),
    ];
    starts.extend_from_slice(&goals);
    for start in &starts {
        let _ = db.patterns().heuristic(start);
        for goal in &goals {
            check_solve(&db, start, goal, genuine);
        }
    }
}

fn check_solve(db: &PatternTables<&[u8]>, start: &Board, goal: &Board, genuine: bool) {
    let options = SolveOptions {
        deadline: Some(Instant::now() + SOLVE_TIME),
        ..SolveOptions::default()
    };
    let solvable = solvability::check(start, goal).is_ok();
    let solved = db
        .set_serving(goal)
        .and_then(|set| Ok(set.solve_to(start, goal, &options)?));
    match solved {
        Ok(solution) => {
            assert!(solvable, "solved an unsolvable {start:?} -> {goal:?}");
            assert_eq!(
                start.replay(&solution.moves),
                Some(*goal),
                "a wrong sequence"
            );
            if genuine {
                if let Some(distance) = complete_distance(start, goal) {
                    assert_eq!(
                        solution.moves.len() as u32,
                        distance,
                        "not optimal with the library's own tables: {start:?} -> {goal:?}"
                    );
                }
            }
        }
        Err(AnswerError::Unsolvable(_)) => assert!(!solvable, "{start:?} -> {goal:?}"),
        // Tables that put the goal away from itself, or that hide it from
        // the search: only damaged ones.
        Err(AnswerError::DamagedPatterns { .. }) => {
            assert!(
                !genuine,
                "sound tables called damaged: {start:?} -> {goal:?}"
            )
        }
        Err(AnswerError::MissingGoal { .. } | AnswerError::Stopped(_)) => {}
        Err(e) => panic!("solve {start:?} -> {goal:?}: {e}"),
    }
}

/// A pattern's entries as the library builds them, by board, goal blank
/// and tiles.
type Built = HashMap<(Shape, usize, Vec<u8>), Vec<u8>>;

/// Whether every table holds exactly the entries the library builds for
/// its pattern: then the heuristic is admissible and IDA* is optimal.
fn tables_are_the_librarys(db: &PatternTables<&[u8]>) -> bool {
    static BUILT: OnceLock<Mutex<Built>> = OnceLock::new();
    let shape = db.shape();
    if shape.cells() > COMPLETE_MAX_CELLS {
        return false;
    }
    let mut built = BUILT.get_or_init(Default::default).lock().unwrap();
    db.header().tables.iter().all(|info| {
        let goal_blank = info.goal_blank as usize;
        let entries = built
            .entry((shape, goal_blank, info.tiles.clone()))
            .or_insert_with(|| {
                build_pattern_table_toward(shape, goal_blank, &info.tiles, &|_| {})
                    .unwrap_or_default()
            });
        db.table_entries(info) == &entries[..]
    })
}

/// The distance by a complete table (built once per board), for boards of
/// up to [`COMPLETE_MAX_CELLS`] cells.
fn complete_distance(start: &Board, goal: &Board) -> Option<u32> {
    static TABLES: OnceLock<Mutex<HashMap<Shape, Vec<u8>>>> = OnceLock::new();
    let shape = start.shape();
    if shape.cells() > COMPLETE_MAX_CELLS {
        return None;
    }
    let mut tables = TABLES.get_or_init(Default::default).lock().unwrap();
    let bytes = tables
        .entry(shape)
        .or_insert_with(|| database_bytes(shape, &[shape.cells() - 1]));
    CompleteTables::from_bytes(&bytes[..])
        .ok()?
        .distance(start, goal)
        .ok()
}
