//! Any bytes as batch input, toward a 2x3 database built once in memory:
//! no panic; every line gets exactly one answer line in every format; every
//! JSON answer parses; every move string solves its line; and
//! `batch::run`, with one thread and with two, writes exactly the answers
//! of its lines one by one (so one line out per line in, in input order).
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::io::{run_batch, split_pair, BatchFormat, LineAnswerer, LineOutcome, CSV_HEADER};
use npuzzle::GoalTable;
use npuzzle::{parse_board, Board, Database, Move, Shape};
use npuzzle_fuzz::database_bytes;
use std::sync::OnceLock;

const FORMATS: [BatchFormat; 3] = [BatchFormat::Jsonl, BatchFormat::Csv, BatchFormat::Moves];

fn shape() -> Shape {
    Shape::new(2, 3).expect("2x3 is supported")
}

fn db() -> &'static Database<Vec<u8>> {
    static DB: OnceLock<Database<Vec<u8>>> = OnceLock::new();
    DB.get_or_init(|| {
        let blanks: Vec<usize> = (0..shape().cells()).collect();
        Database::from_bytes(database_bytes(shape(), &blanks)).expect("a fresh database opens")
    })
}

fuzz_target!(|data: &[u8]| {
    let db = db();
    let goal = Board::goal(shape());
    let target = db.goal_table(&goal).expect("the default goal has a table");

    // Line by line, in every format.
    let lines = split_lines(data);
    let mut expected: Vec<Vec<u8>> = Vec::new();
    for format in FORMATS {
        let mut all = Vec::new();
        if format == BatchFormat::Csv {
            all.extend_from_slice(CSV_HEADER.as_bytes());
        }
        let mut answerer = LineAnswerer::new(db, &goal, format, None);
        for (i, line) in lines.iter().enumerate() {
            let mut out = Vec::new();
            let outcome = answerer.answer(i as u64 + 1, line, &mut out);
            check_answer(format, line, &out, outcome, &target);
            all.extend_from_slice(&out);
        }
        expected.push(all);
    }

    // The whole input as one batch. Each call builds a thread pool and
    // megabyte buffers, the slow part of this target, so one format per
    // input (chosen by its length) goes through `run`.
    let which = data.len() % FORMATS.len();
    let format = FORMATS[which];
    for threads in [1, 2] {
        let mut out = Vec::new();
        let summary = run_batch(db, &goal, format, threads, None, data, &mut out)
            .expect("a Vec takes every byte");
        assert_eq!(summary.lines, lines.len() as u64);
        assert_eq!(
            summary.solved + summary.unsolvable + summary.errors,
            summary.lines
        );
        let header = usize::from(format == BatchFormat::Csv);
        assert_eq!(
            newlines(&out),
            lines.len() + header,
            "{format:?}, {threads} threads"
        );
        assert!(
            out == expected[which],
            "{format:?}, {threads} threads: run wrote {:?}, the lines one by one {:?}",
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&expected[which])
        );
    }
});

/// The lines of the input, each with its `\n`; the last may lack it.
fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    data.split_inclusive(|&b| b == b'\n').collect()
}

fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// One answer is one line, and says what the outcome says.
fn check_answer(
    format: BatchFormat,
    line: &[u8],
    out: &[u8],
    outcome: LineOutcome,
    target: &GoalTable,
) {
    let shown = || String::from_utf8_lossy(out).into_owned();
    assert_eq!(newlines(out), 1, "{format:?}: {:?}", shown());
    assert!(out.ends_with(b"\n"), "{format:?}: {:?}", shown());
    let answer = &out[..out.len() - 1];
    match format {
        BatchFormat::Jsonl => {
            let v: serde_json::Value = serde_json::from_slice(answer)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", shown()));
            match outcome {
                LineOutcome::Solved(d) => assert_eq!(v["distance"], d),
                LineOutcome::Unsolvable => assert_eq!(v["solvable"], false),
                LineOutcome::Error => assert!(v["error"].is_string(), "{v}"),
            }
        }
        BatchFormat::Moves => {
            if let LineOutcome::Solved(d) = outcome {
                check_moves(line, answer, d, target.goal());
            }
        }
        BatchFormat::Csv => {}
    }
}

/// A solved line's move string leads from its start to its goal.
fn check_moves(line: &[u8], answer: &[u8], distance: u32, default: &Board) {
    let text = std::str::from_utf8(line).expect("a solved line is UTF-8");
    let text = text.strip_suffix('\n').unwrap_or(text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    // The first line may start with a byte-order mark, which a batch skips.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (start, goal) = match split_pair(text) {
        // Two words that are no pair are one board in rows (`123 405`).
        (start, Some(_)) if parse_board(start, shape()).is_err() && !text.contains(['\t', ';']) => {
            (text.trim(), None)
        }
        pair => pair,
    };
    let start = parse_board(start, shape()).expect("a solved line's start parses");
    // An empty goal (`START<TAB>`, as a spreadsheet writes an empty last
    // cell) is none.
    let goal = match goal.filter(|g| !g.trim().is_empty()) {
        Some(g) => parse_board(g, shape()).expect("a solved line's goal parses"),
        None => *default,
    };
    let moves: Option<Vec<Move>> = answer
        .iter()
        .map(|&b| Move::from_letter(b as char))
        .collect();
    let moves = moves.expect("a move string holds only U, D, L and R");
    assert_eq!(moves.len(), distance as usize);
    assert_eq!(start.replay(&moves), Some(goal), "{text:?}");
}
