//! `query solvable`: the parity test's verdict, checked against which
//! positions a breadth-first search from the goal reaches, and its numbers
//! against inversions counted here; no database needed.

use crate::util::{query_in, stderr_of, stdout_of};
use npuzzle::{Board, Move, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::collections::HashSet;

/// Pairs of tiles out of order, the blank left out, read row by row.
fn inversions(cells: &[u8]) -> u64 {
    let tiles: Vec<u8> = cells.iter().copied().filter(|&t| t != 0).collect();
    let mut count = 0;
    for (i, a) in tiles.iter().enumerate() {
        count += tiles[i + 1..].iter().filter(|b| *b < a).count() as u64;
    }
    count
}

/// `query ARGS` with no database anywhere about, and its exit code.
fn run(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = query_in(dir).args(args).output().unwrap();
    (out.status.code().unwrap(), stdout_of(&out), stderr_of(&out))
}

#[test]
fn the_verdict_is_what_a_search_reaches_and_its_numbers_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape::THREE_BY_THREE;
    let goal = Board::goal(shape);
    let mut reached = HashSet::from([goal]);
    let mut layer = vec![goal];
    while !layer.is_empty() {
        layer = (layer.iter().flat_map(|b| b.successors()))
            .map(|(_, n)| n)
            .filter(|n| reached.insert(*n))
            .collect();
    }
    assert_eq!(reached.len(), 181_440);
    let mut rng = StdRng::seed_from_u64(8);
    let mut verdicts = [0; 2];
    for _ in 0..40 {
        let mut cells: Vec<u8> = (0..9).collect();
        cells.shuffle(&mut rng);
        let text: String = cells.iter().map(|c| c.to_string()).collect();
        let (code, out, err) = run(dir.path(), &["solvable", &text, "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
        let board = npuzzle::parse_board(&text, shape).unwrap();
        let solvable = reached.contains(&board);
        assert_eq!(v["solvable"], solvable, "{v}");
        assert_eq!(code, if solvable { 0 } else { 1 }, "{v}");
        verdicts[solvable as usize] += 1;
        assert_eq!(v["start_inversions"], inversions(&cells), "{v}");
        assert_eq!(v["goal_inversions"], 0, "{v}");
        // Toward the goal of tiles in order, relative is as counted.
        assert_eq!(v["inversions"], v["start_inversions"], "{v}");
        let blank = cells.iter().position(|&c| c == 0).unwrap();
        assert_eq!(v["blank_row"], blank / 3 + 1, "{v}");
        let parity = if solvable {
            "an even number"
        } else {
            "an odd number"
        };
        assert!(v["reason"].as_str().unwrap().contains(parity), "{v}");
        // The text says the same.
        let (_, text_out, _) = run(dir.path(), &["solvable", &text]);
        let verdict = if solvable { "solvable" } else { "not solvable" };
        assert_eq!(
            text_out.lines().next().unwrap(),
            format!("{text} -> 123456780: {verdict}")
        );
    }
    assert!(verdicts[0] > 5 && verdicts[1] > 5, "{verdicts:?}");
}

/// On boards of even width the blank's row counts; up to 6x6, with no file.
#[test]
fn walked_positions_are_solvable_and_a_swap_is_not_on_any_board() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = StdRng::seed_from_u64(9);
    for size in ["4x4", "3x4", "2x5", "5x5", "6x6"] {
        let shape: Shape = size.parse().unwrap();
        let mut board = Board::goal(shape);
        for _ in 0..300 {
            let m = *Move::ALL.choose(&mut rng).unwrap();
            board = board.apply(m).unwrap_or(board);
        }
        let walked = board.to_string();
        let (code, out, err) = run(dir.path(), &["--board", size, "solvable", &walked]);
        assert_eq!(code, 0, "{size}: {out}{err}");
        assert!(out.contains(": solvable\n"), "{out}");
        // Two tiles swapped, the blank where it was: the other half.
        let mut tiles: Vec<&str> = walked.split(' ').collect();
        let (a, b) = match (tiles[0], tiles[1]) {
            ("0", _) | (_, "0") => (2, 3),
            _ => (0, 1),
        };
        tiles.swap(a, b);
        let swapped = tiles.join(" ");
        let (code, out, _) = run(dir.path(), &["--board", size, "solvable", &swapped]);
        assert_eq!(code, 1, "{size}: {out}");
        assert!(
            out.contains("their sum is odd") || out.contains("an odd number"),
            "{out}"
        );
    }
    let (code, _, err) = run(dir.path(), &["solvable", "12345678"]);
    assert_eq!(code, 2);
    assert!(err.contains("expected 9 tiles"), "{err}");
}

/// A file named with `--db` sets the board: tiles of another size say so,
/// and a `--board` the file does not hold is refused, as everywhere.
#[test]
fn a_named_file_sets_the_board_as_for_every_command() {
    let t = crate::util::temp_db("2x3");
    let out = crate::util::run_query(&t.path, &["solvable", "867254301"], 2);
    let said = stderr_of(&out);
    assert!(
        said.contains("the board size, 2x3, is that of --db"),
        "{said}"
    );
    assert!(said.contains("9 tiles fit a 3x3 board"), "{said}");
    let out = crate::util::run_query(&t.path, &["--board", "3x3", "solvable", "867254301"], 2);
    assert!(!stderr_of(&out).is_empty());
    crate::util::run_query(&t.path, &["solvable", "123450"], 0);
}
