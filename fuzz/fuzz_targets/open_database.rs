//! Any bytes as a database file: opening never panics, and whatever opens
//! answers lookups and `verify` without panicking. A sequence of moves that
//! comes back must really lead from the start to the goal, however damaged
//! the table, and a table that `verify` finds free of faults answers every
//! solvable start.
//!
//! The header's checksum shields every header field from mutation: almost
//! any change to one makes the file fail at the checksum. So each input is
//! also tried with its header checksum recomputed, which lets the fuzzer
//! reach the checks of the header's contents.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::raw::PREAMBLE_LEN;
use npuzzle::GoalTable;
use npuzzle::{rules::solvability, AnswerError, Board, Cell, CompleteTables};
use npuzzle_fuzz::{board_from_bytes, check_with_and_without_checksum_fix};

/// Boards taken from the input, beyond the fixed goals.
const DERIVED: usize = 4;

fuzz_target!(|data: &[u8]| check_with_and_without_checksum_fix(data, check_file));

fn check_file(data: &[u8]) {
    let Ok(db) = CompleteTables::from_bytes(data) else {
        return;
    };
    let shape = db.shape();
    let n = shape.cells();
    let report = db.verify();
    assert_eq!(report.tables.len(), db.header().tables.len());

    // The padding after the preamble is bytes that opening does not check,
    // so the fuzzer can steer these boards freely.
    let free = &data[PREAMBLE_LEN..];
    let mut boards: Vec<Board> = (0..DERIVED)
        .map(|i| board_from_bytes(shape, free.get(i * n..).unwrap_or(&[])))
        .collect();
    let mut goals = vec![Board::goal(shape)];
    goals.extend(
        db.header()
            .tables
            .iter()
            .map(|t| Board::canonical_goal(shape, t.goal_blank as usize)),
    );
    goals.extend_from_slice(&boards);
    boards.extend_from_slice(&goals);

    for goal in &goals {
        let target = match db.goal_table(goal) {
            Ok(target) => target,
            Err(AnswerError::MissingGoal { .. }) => {
                assert!(db.table_info(goal.blank()).is_none());
                assert!(!db.serves(goal.blank()));
                continue;
            }
            Err(e) => panic!("target {goal:?}: {e}"),
        };
        let faultless = report
            .tables
            .iter()
            .any(|t| t.goal_blank == Cell::of(shape, goal.blank()) && t.fault_count == 0);
        for start in &boards {
            check_pair(&db, &target, start, goal, faultless);
        }
        let at_zero: Vec<Board> = target.positions_at(0).take(3).collect();
        if faultless {
            assert_eq!(at_zero, [*goal], "a verified table has one goal");
        }
        for d in [1, 2] {
            for position in target.positions_at(d).take(2) {
                let _ = target.distance(&position);
            }
        }
    }
}

fn check_pair(
    db: &CompleteTables<&[u8]>,
    target: &GoalTable,
    start: &Board,
    goal: &Board,
    faultless: bool,
) {
    let solvable = solvability::check(start, goal).is_ok();
    let distance = target.distance(start);
    assert_eq!(db.distance(start, goal), distance);
    match &distance {
        Err(AnswerError::Unsolvable(_)) => assert!(!solvable, "{start:?} -> {goal:?}"),
        // A field that may mean d or d + 63 is resolved by following its
        // moves, which can show damage.
        Err(e @ AnswerError::Corrupt { .. }) => {
            assert!(
                solvable && !faultless,
                "distance on a table verify passed: {e}"
            )
        }
        Err(e) => panic!("distance {start:?} -> {goal:?}: {e}"),
        Ok(_) => assert!(solvable, "{start:?} -> {goal:?}"),
    }
    let mut moves = Vec::new();
    match target.solve_into(start, &mut moves) {
        Ok(length) => {
            match distance {
                Ok(d) => assert_eq!(d, length),
                // A distance checks the entry's own move, which a solve
                // through a path table does not read: on a damaged table it
                // may refuse where the solve answers, never give another
                // number.
                Err(AnswerError::Corrupt { .. }) => assert!(!faultless, "{start:?} -> {goal:?}"),
                Err(e) => panic!("distance {start:?} -> {goal:?}: {e}"),
            }
            assert_eq!(moves.len(), length as usize);
            assert_eq!(start.replay(&moves), Some(*goal), "a wrong sequence");
            assert_eq!(db.solve(start, goal).as_deref(), Ok(&moves[..]));
        }
        Err(AnswerError::Unsolvable(_)) => assert!(!solvable),
        Err(e @ AnswerError::Corrupt { .. }) => {
            assert!(!faultless, "a table verify passed is corrupt: {e}")
        }
        Err(e) => panic!("solve {start:?} -> {goal:?}: {e}"),
    }
}
