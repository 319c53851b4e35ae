//! End-to-end tests of the `query` binary: exit codes, what goes to stdout
//! and stderr, and answers checked by replaying their moves.

use crate::util::{
    bytes_to_change, expect_code, expect_code_in, expect_refusal, json_answer, json_lines, json_of,
    moves_of, printed, query_in, quiet_json_answer, run_batch, run_build_db, run_query, stderr_of,
    stdout_lines, stdout_of, temp_db, TempDb, A089473,
};
use assert_cmd::assert::Assert;
use npuzzle::{parse_board, Board, Database, Move, Shape};
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const S: Shape = Shape::THREE_BY_THREE;

fn b(text: &str) -> Board {
    parse_board(text, S).unwrap()
}

/// Checks a solved answer object: its moves replay from its start to its
/// goal, in exactly `distance` moves.
fn check_solved(v: &Value, start: &str, goal: &str, distance: u64) {
    assert_eq!(v["start"], start, "{v}");
    assert_eq!(v["goal"], goal, "{v}");
    assert_eq!(v["solvable"], true, "{v}");
    assert_eq!(v["distance"], distance, "{v}");
    let moves = moves_of(v["moves"].as_str().expect("moves is a string"));
    assert_eq!(moves.len() as u64, distance, "{v}");
    assert_eq!(b(start).replay(&moves), Some(b(goal)), "{v}");
}

fn three_by_three() -> &'static TempDb {
    temp_db("3x3")
}

/// Runs `query batch ARGS…` on the shared 3x3 database with `input` on
/// stdin, expects exit code `code`, and returns what it printed.
fn batch(args: &[&str], input: impl Into<Vec<u8>>, code: i32) -> Output {
    let args = [&["batch"], args].concat();
    run_batch(&three_by_three().path, &args, input, code)
}

// ---------------------------------------------------------------- solve

#[test]
fn solve_the_hardest_eight_puzzle_in_31_moves() {
    let t = three_by_three();
    let v = quiet_json_answer(&t.path, &["solve", "867254301", "--json"], 0);
    check_solved(&v, "867254301", "123456780", 31);
    // The same key set as documented, no more.
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, ["distance", "goal", "moves", "solvable", "start"]);
}

#[test]
fn solve_as_text_gives_the_count_then_the_moves() {
    let t = three_by_three();
    let lines = stdout_lines(&run_query(&t.path, &["solve", "867254301"], 0));
    assert_eq!(lines[0], "867254301 -> 123456780: 31 moves");
    let moves = moves_of(&lines[1]);
    assert_eq!(moves.len(), 31);
    assert_eq!(b("867254301").replay(&moves), Some(Board::goal(S)));
    assert_eq!(lines[2], "");
    // One numbered line per move, and no grids without --boards.
    assert_eq!(lines.len(), 3 + 31, "{lines:#?}");
    assert!(lines[3].starts_with(" 1. "), "{:?}", lines[3]);
    assert!(lines[33].starts_with("31. "), "{:?}", lines[33]);
    assert!(
        !lines.iter().any(|l| l.contains('_')),
        "no grids without --boards: {lines:#?}"
    );
}

#[test]
fn solve_accepts_a_json_board_and_separate_words() {
    let t = three_by_three();
    let v = json_answer(&t.path, &["solve", "[[1,2,3],[4,6,8],[7,5,0]]", "--json"]);
    assert_eq!(v["moves"], "ULDR");
    check_solved(&v, "123468750", "123456780", 4);

    // `query solve 8 6 7 2 5 4 3 0 1`: the words are one board.
    let out = json_answer(
        &t.path,
        &[
            "solve", "8", "6", "7", "2", "5", "4", "3", "0", "1", "--json",
        ],
    );
    check_solved(&out, "867254301", "123456780", 31);
}

#[test]
fn solve_text_for_the_json_board_is_uldr() {
    let t = three_by_three();
    expect_code(&t.path, &["solve", "[[1,2,3],[4,6,8],[7,5,0]]"], 0).stdout(
        predicate::str::starts_with("123468750 -> 123456780: 4 moves\nULDR\n\n"),
    );
}

#[test]
fn solve_with_boards_prints_every_intermediate_grid_in_order() {
    let t = three_by_three();
    let text = printed(
        &t.path,
        &["solve", "[[1,2,3],[4,6,8],[7,5,0]]", "--boards"],
        0,
    );
    let grids = [
        "1 2 3\n4 6 8\n7 5 _\n",
        "1 2 3\n4 6 _\n7 5 8\n",
        "1 2 3\n4 _ 6\n7 5 8\n",
        "1 2 3\n4 5 6\n7 _ 8\n",
        "1 2 3\n4 5 6\n7 8 _\n",
    ];
    let mut from = 0;
    for grid in grids {
        let at = text[from..]
            .find(grid)
            .unwrap_or_else(|| panic!("grid {grid:?} missing (or out of order) in {text}"));
        from += at + grid.len();
    }
    // Each move line sits between the grid before it and the grid after it.
    assert!(text.contains("1 2 3\n4 6 8\n7 5 _\n1. U  tile 8 slides down\n1 2 3\n4 6 _\n7 5 8\n"));
    assert!(
        text.ends_with("4. R  tile 8 slides left\n1 2 3\n4 5 6\n7 8 _\n"),
        "{text}"
    );
}

/// Output flags that cannot go together are refused, each pair named.
#[test]
fn conflicting_output_flags_are_refused() {
    let t = three_by_three();
    for (args, conflict) in [
        (
            &["solve", "867254301", "--boards", "--json"][..],
            ["--boards", "--json"],
        ),
        (&["histogram", "--json", "--csv"], ["--json", "--csv"]),
    ] {
        expect_refusal(&t.path, args, &conflict);
    }
}

/// Each solvable question is answered as text, exactly, and as JSON, with
/// moves that replay from its start to its goal (the goal itself; another
/// goal, with the blank in the middle; the usual goal).
#[test]
fn questions_are_answered_as_text_and_as_json() {
    let t = three_by_three();
    // The question, its text answer, and the start, goal and distance.
    let cases: [(&[&str], &str, &str, &str, u64); 3] = [
        (
            &["solve", "123456780"],
            "123456780 is the goal: 0 moves\n",
            "123456780",
            "123456780",
            0,
        ),
        (
            &["distance", "216408753", "--goal", "123804765"],
            "18\n",
            "216408753",
            "123804765",
            18,
        ),
        (
            &["distance", "867254301"],
            "31\n",
            "867254301",
            "123456780",
            31,
        ),
    ];
    for (question, text, start, goal, distance) in cases {
        expect_code(&t.path, question, 0).stdout(text).stderr("");
        let v = json_answer(&t.path, &[question, &["--json"]].concat());
        check_solved(&v, start, goal, distance);
    }
    // `solve` toward another goal, in JSON.
    let v = json_answer(
        &t.path,
        &["solve", "216408753", "--goal", "123804765", "--json"],
    );
    check_solved(&v, "216408753", "123804765", 18);
}

// ---------------------------------------------------------------- unsolvable

/// An unsolvable pair (one toward a goal with the blank in the middle, and
/// the goal with two tiles swapped) is an answer, exit 1, with its reason.
#[test]
fn an_unsolvable_pair_exits_1() {
    let t = three_by_three();
    for (start, goal) in [("234150768", "123804765"), ("213456780", "123456780")] {
        for command in ["solve", "distance"] {
            let pair = [command, start, "--goal", goal];
            expect_code(&t.path, &pair, 1)
                .stdout(predicate::str::starts_with("unsolvable: "))
                .stderr("");
            let v = quiet_json_answer(&t.path, &[&pair[..], &["--json"]].concat(), 1);
            assert_eq!(v["start"], start, "{v}");
            assert_eq!(v["goal"], goal, "{v}");
            assert_eq!(v["solvable"], false, "{v}");
            assert!(v["distance"].is_null(), "{v}");
            assert!(v["moves"].is_null(), "{v}");
            assert!(!v["reason"].as_str().unwrap().is_empty(), "{v}");
        }
    }
    // The usual goal when none is given.
    expect_code(&t.path, &["distance", "213456780"], 1)
        .stdout(predicate::str::starts_with("unsolvable: "));
}

// ---------------------------------------------------------------- bad boards

#[test]
fn bad_start_and_goal_boards_exit_2_and_name_the_problem() {
    let t = three_by_three();
    let cases = [
        (
            "86725430",
            "expected 9 tiles for a 3x3 board (the blank included), got 8",
        ),
        (
            "1234567890",
            "expected 9 tiles for a 3x3 board (the blank included), got 10",
        ),
        (
            "867254311",
            "tile 1 appears twice (so the blank is missing)",
        ),
        (
            "1 2 3 4 12 6 7 8 0",
            "tile 12 is out of range for a 3x3 board (tiles are 1 to 8, and 0 is the blank)",
        ),
        ("8672x4301", "unexpected character 'x' at column 5"),
        ("12/345/678/0", "expected 3 rows for a 3x3 board, got 4"),
        ("[1,2,3", "invalid JSON board"),
    ];
    for (board, problem) in cases {
        for command in ["solve", "distance"] {
            let named = format!("bad start board {board:?}");
            expect_refusal(&t.path, &[command, board, "--json"], &[&named, problem]);
        }
    }
    // A bad goal is named as the goal, by `solve` and by `histogram`.
    for (args, needles) in [
        (
            &["solve", "867254301", "--goal", "12345678"][..],
            &["bad goal board \"12345678\"", "got 8"][..],
        ),
        (
            &["histogram", "--goal", "113456780"],
            &["tile 1 appears twice"],
        ),
    ] {
        expect_refusal(&t.path, args, needles);
    }
}

// ---------------------------------------------------------------- databases

/// `query ARGS…` run in `dir` with NPUZZLE_DB set to `db`, expecting exit
/// code `code`.
fn expect_code_with_npuzzle_db(
    dir: &Path,
    db: impl AsRef<std::ffi::OsStr>,
    args: &[&str],
    code: i32,
) -> Assert {
    query_in(dir)
        .env("NPUZZLE_DB", db)
        .args(args)
        .assert()
        .code(code)
}

#[test]
fn a_missing_database_names_the_build_command() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing.db");
    expect_refusal(
        &path,
        &["solve", "867254301"],
        &[
            &format!("no database at {}", path.display()),
            &format!("--board RxC --out {} (RxC: its board)\n", path.display()),
        ],
    );
}

#[test]
fn a_missing_default_database_is_named_where_build_db_would_write_it() {
    let dir = tempfile::tempdir().unwrap();
    // Outside a checkout: the per-user data folder, and the build-db beside
    // this query (by its path: PATH does not find it).
    let user = dir.path().join(".xdg/npuzzle");
    let build_db = assert_cmd::cargo::cargo_bin("build-db");
    expect_code_in(dir.path(), &["distance", "867254301"], 2)
        .stdout("")
        .stderr(format!(
            "query: no database at {}; build it with: {} --board 3x3\n",
            user.join("3x3.db").display(),
            build_db.display()
        ));
    expect_code_in(dir.path(), &["--board", "2x4", "info"], 2).stderr(format!(
        "query: no database at {}; build it with: {} --board 2x4\n",
        user.join("2x4.db").display(),
        build_db.display()
    ));
    // Inside a checkout: data/RxC.db, and the build through cargo.
    std::fs::create_dir_all(dir.path().join("build-db")).unwrap();
    std::fs::write(dir.path().join("build-db/Cargo.toml"), "").unwrap();
    expect_code_in(dir.path(), &["--board", "2x4", "info"], 2).stderr(
        "query: no database at data/2x4.db; build it with: \
         cargo run --release -p build-db -- --board 2x4\n",
    );
}

#[test]
fn the_per_user_folder_is_searched_after_the_current_folder() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    let user = dir.path().join(".xdg/npuzzle");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::copy(&t.path, user.join("3x3.db")).unwrap();
    expect_code_in(dir.path(), &["distance", "867254301"], 0).stdout("31\n");
    // data/3x3.db under the current folder comes first.
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/3x3.db"), b"not a database").unwrap();
    // Found there, not given: the advice is to clear the way for the
    // database, not to check a --db that was never passed.
    let said = expect_code_in(dir.path(), &["distance", "867254301"], 2);
    let said = String::from_utf8(said.get_output().stderr.clone()).unwrap();
    assert!(
        said.contains("data/3x3.db is not a usable database"),
        "{said}"
    );
    assert!(
        said.contains(
            "npuzzle cannot read it as one: move it away, then build the database with: "
        ),
        "{said}"
    );
    assert!(said.trim_end().ends_with("build-db --board 3x3"), "{said}");
    assert!(!said.contains("--db"), "{said}");
}

#[test]
fn npuzzle_db_comes_first_and_messages_say_so() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    expect_code_with_npuzzle_db(dir.path(), &t.path, &["distance", "867254301"], 0).stdout("31\n");
    expect_code_with_npuzzle_db(dir.path(), "nowhere.db", &["distance", "867254301"], 2).stderr(
        predicate::str::starts_with(format!(
            "query: no database at nowhere.db (from NPUZZLE_DB); build it with: \
             {} --board RxC --out nowhere.db (RxC: its board)\n",
            assert_cmd::cargo::cargo_bin("build-db").display()
        )),
    );
    // A newline left at the end of the variable is shown, and the advice
    // is a command a shell reads back; a space is quoted.
    for (path, shown, word) in [
        ("nowhere.db\n", "\"nowhere.db\\n\"", "$'nowhere.db\\n'"),
        ("no where.db", "no where.db", "'no where.db'"),
    ] {
        expect_code_with_npuzzle_db(dir.path(), path, &["distance", "867254301"], 2).stderr(
            predicate::str::starts_with(format!(
                "query: no database at {shown} (from NPUZZLE_DB); build it with: \
                 {} --board RxC --out {word} (RxC: its board)\n",
                assert_cmd::cargo::cargo_bin("build-db").display()
            )),
        );
    }
    // --db wins over NPUZZLE_DB.
    let db = t.path.to_str().unwrap();
    expect_code_with_npuzzle_db(
        dir.path(),
        "nowhere.db",
        &["--db", db, "distance", "867254301"],
        0,
    );
}

#[test]
fn the_default_database_is_found_relative_to_the_current_folder() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::copy(&t.path, dir.path().join("data/3x3.db")).unwrap();
    expect_code_in(dir.path(), &["distance", "867254301"], 0).stdout("31\n");
}

#[test]
fn a_text_file_is_not_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "this is a plain text file, not a database at all\n").unwrap();
    expect_refusal(
        &path,
        &["solve", "867254301"],
        &[
            &format!("{} is not a usable database", path.display()),
            "not an npuzzle database",
            "is --db pointing at the right file?",
        ],
    );
    // Too short even for the preamble.
    std::fs::write(&path, "hello\n").unwrap();
    expect_refusal(
        &path,
        &["info"],
        &["is not a usable database", "too short to be a database"],
    );
}

#[test]
fn a_truncated_database_is_refused_at_open() {
    let (_dir, path, bytes) = bytes_to_change("3x3", "cut.db");
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    expect_refusal(&path, &["distance", "867254301"], &["truncated"]);
}

/// Rebuild advice names the board the file holds where its header can
/// still be read, and no board where it cannot: advice with the wrong board
/// would overwrite a 2x4 database with a 3x3 one.
#[test]
fn rebuild_advice_names_only_a_board_it_knows() {
    let (_dir, path, bytes) = bytes_to_change("2x4", "mine.db");
    // A header that decodes, with a valid checksum, but impossible contents:
    // its board can still be read.
    let preamble_len = npuzzle::raw::PREAMBLE_LEN;
    let (preamble, _): (npuzzle::raw::Preamble, _) =
        bincode::decode_from_slice(&bytes[..preamble_len], npuzzle::raw::bincode_config()).unwrap();
    let header_start = bytes.len() - preamble.header_len as usize;
    let (mut header, _): (npuzzle::files::Header, _) =
        bincode::decode_from_slice(&bytes[header_start..], npuzzle::raw::bincode_config()).unwrap();
    header.tables[0].entries += 1;
    let header_bytes = npuzzle::raw::encode_header(&header);
    let preamble = npuzzle::raw::Preamble::of(&header_bytes);
    let mut changed = bincode::encode_to_vec(preamble, npuzzle::raw::bincode_config()).unwrap();
    changed.extend_from_slice(&bytes[preamble_len..header_start]);
    changed.extend_from_slice(&header_bytes);
    std::fs::write(&path, &changed).unwrap();
    expect_code(&path, &["info"], 2).stderr(
        predicate::str::contains("the header is inconsistent").and(predicate::str::ends_with(
            format!(
                "rebuild it with: cargo run --release -p build-db -- --board 2x4 --out {}\n",
                path.display()
            ),
        )),
    );
    // Truncated: the header (at the end) is gone, and so are the board and
    // the partition it may have been built with.
    std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
    expect_code(&path, &["info"], 2).stderr(
        predicate::str::contains("--board RxC")
            .and(predicate::str::contains("3x3").not())
            .and(predicate::str::ends_with(
                " (with the --partition it was built with, if any)\n",
            )),
    );
    // --board is the user's word for it.
    expect_code(&path, &["--board", "2x4", "info"], 2)
        .stderr(predicate::str::contains("--board 2x4 --out"));
}

#[test]
fn another_format_version_gets_advice_by_its_age() {
    let (_dir, path, bytes) = bytes_to_change("2x3", "v.db");
    // The version is the u32 after the 8 magic bytes.
    for (version, advice) in [
        (
            2u32,
            "rebuild it with: cargo run --release -p build-db -- --board RxC",
        ),
        (
            npuzzle::raw::VERSION + 1,
            "it was written by a newer npuzzle; upgrade this one to read it",
        ),
    ] {
        let mut changed = bytes.clone();
        changed[8..12].copy_from_slice(&version.to_le_bytes());
        std::fs::write(&path, &changed).unwrap();
        expect_code(&path, &["info"], 2).stderr(
            predicate::str::contains(format!("format version {version} is not supported"))
                .and(predicate::str::contains(advice))
                .and(predicate::str::contains("3x3").not()),
        );
    }
}

#[test]
fn a_folder_as_the_database_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    expect_code(dir.path(), &["info"], 2)
        .stdout("")
        .stderr(format!(
            "query: {} is a folder, not a regular file: a database is one file\n",
            dir.path().display()
        ));
}

/// A file the system makes up as it is read opens but does not map: the
/// message says what a database must be, not only the system's "No such
/// device".
#[test]
fn a_file_of_proc_as_the_database_is_named_as_such() {
    let status = Path::new("/proc/self/status");
    if !status.exists() {
        eprintln!("no /proc here: skipped");
        return;
    }
    expect_code(status, &["info"], 2).stdout("").stderr(
        predicate::str::starts_with(
            "query: /proc/self/status cannot be mapped into memory, as a database is read (",
        )
        .and(predicate::str::ends_with(
            "): a database is a file on a disk, not one of a system folder such as /proc\n",
        )),
    );
}

#[test]
fn a_board_size_the_database_does_not_hold_exits_2() {
    let t = three_by_three();
    expect_refusal(
        &t.path,
        &["--board", "2x4", "solve", "1234/5670"],
        &[
            &format!("{} holds 3x3 boards, not 2x4", t.path.display()),
            "build-db -- --board 2x4\n",
        ],
    );
    // The size that matches is fine.
    expect_code(&t.path, &["--board", "3x3", "distance", "867254301"], 0).stdout("31\n");
}

#[test]
fn another_board_size_works_with_its_own_database() {
    let t = temp_db("2x4");
    let v = json_answer(&t.path, &["--board", "2x4", "solve", "1234/5607", "--json"]);
    assert_eq!(v["start"], "12345607");
    assert_eq!(v["goal"], "12345670");
    assert_eq!(v["distance"], 1);
    assert_eq!(v["moves"], "R");
    // A 3x3 board given to a 2x4 database.
    expect_refusal(
        &t.path,
        &["solve", "867254301"],
        &["expected 8 tiles for a 2x4 board (the blank included), got 9"],
    );
}

#[test]
fn npuzzle_db_names_the_database() {
    let t = three_by_three();
    // An empty folder: without the variable there is no database here.
    let dir = tempfile::tempdir().unwrap();
    let in_dir = |args: &[&str], code| expect_code_with_npuzzle_db(dir.path(), &t.path, args, code);
    in_dir(&["distance", "216408753", "--goal", "123804765"], 0).stdout("18\n");
    let out = in_dir(&["info", "--json"], 0).get_output().clone();
    assert_eq!(json_of(&out)["path"], t.path.display().to_string());
    // --db wins over the variable.
    let missing = dir.path().join("missing.db");
    let no_database = format!("no database at {}", missing.display());
    let db = missing.to_str().unwrap();
    in_dir(&["--db", db, "distance", "867254301"], 2)
        .stderr(predicate::str::contains(no_database.as_str()));
    // A variable naming a missing file is reported as that file.
    expect_code_with_npuzzle_db(dir.path(), &missing, &["distance", "867254301"], 2)
        .stderr(predicate::str::contains(no_database));
}

// ---------------------------------------------------------------- histogram

#[test]
fn histogram_json_is_oeis_a089473() {
    let t = three_by_three();
    let v = json_answer(&t.path, &["histogram", "--json"]);
    let counts: Vec<u64> = serde_json::from_value(v["counts"].clone()).unwrap();
    assert_eq!(counts, A089473);
    assert_eq!(v["positions"], 181440);
    assert_eq!(v["max_distance"], 31);
    assert_eq!(v["goal"], "123456780");
}

#[test]
fn histogram_for_a_centre_blank_goal() {
    let t = three_by_three();
    let v = json_answer(&t.path, &["histogram", "--json", "--goal", "123804765"]);
    let counts: Vec<u64> = serde_json::from_value(v["counts"].clone()).unwrap();
    assert_eq!(counts.iter().sum::<u64>(), 181440);
    assert_eq!(v["positions"], 181440);
    // With the blank in the centre the farthest positions are 30 moves away.
    assert_eq!(v["max_distance"], 30);
    assert_eq!(counts.len(), 31);
    assert_eq!(&counts[..3], &[1, 4, 8]);
}

#[test]
fn histogram_csv_is_the_published_eight_puzzle_table() {
    let t = three_by_three();
    let lines = stdout_lines(&run_query(&t.path, &["histogram", "--csv"], 0));
    assert_eq!(lines[0], "distance,count");
    assert_eq!(lines.len(), 1 + 32);
    for (d, line) in lines[1..].iter().enumerate() {
        assert_eq!(line, &format!("{d},{}", A089473[d]));
    }
}

#[test]
fn histogram_text_names_the_totals() {
    let t = three_by_three();
    expect_code(&t.path, &["histogram"], 0).stdout(predicate::str::starts_with(
        "goal 123456780 (3x3, blank at row 3, column 3): 181440 positions, maximum distance 31\n",
    ));
}

// ---------------------------------------------------------------- info, verify

#[test]
fn info_json_lists_nine_tables() {
    let t = three_by_three();
    let v = json_answer(&t.path, &["info", "--json"]);
    assert_eq!(v["board"], "3x3");
    assert_eq!(v["path"], t.path.display().to_string());
    assert_eq!(v["kind"], "complete");
    // Complete tables never repeat one another: written as version 6,
    // which builds before version 7 read too.
    assert_eq!(v["format_version"], 6);
    assert_eq!(v["bytes"], std::fs::metadata(&t.path).unwrap().len());
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 9);
    for (i, table) in tables.iter().enumerate() {
        let cell = format!("{},{}", i / 3 + 1, i % 3 + 1);
        assert_eq!(table["goal_blank"], cell.as_str(), "{table}");
        assert_eq!(table["entries"], 181440, "{table}");
        let offset = table["offset"].as_u64().unwrap();
        assert!(offset >= 4096 && offset % 4096 == 0, "{table}");
        let max = if i == 4 { 30 } else { 31 };
        assert_eq!(table["max_distance"], max, "{table}");
    }
    assert_eq!(tables[8]["counts"], serde_json::json!(A089473));
}

#[test]
fn info_text_names_the_board_and_tables() {
    let t = three_by_three();
    expect_code(&t.path, &["info"], 0).stdout(predicate::str::contains("board    3x3\n").and(
        predicate::str::contains("tables   9 toward 9 of 9 goal blank cells\n"),
    ));
}

#[test]
fn verify_passes_a_good_database() {
    let t = three_by_three();
    expect_code(&t.path, &["verify"], 0).stderr("").stdout(
        predicate::str::contains(format!(
            "{}: ok, 9 tables, 1632960 positions checked",
            t.path.display()
        ))
        .and(predicate::str::contains("DAMAGED").not()),
    );
}

#[test]
fn verify_finds_one_flipped_table_byte() {
    let t = three_by_three();
    let (_dir, path, mut bytes) = bytes_to_change("3x3", "damaged.db");
    // A byte in the middle of the second table, well past the header page.
    let info = t.db.table_info(1).unwrap();
    assert!(info.offset >= 4096);
    let at = (info.offset + info.entries / 2) as usize;
    bytes[at] ^= 0xff;
    std::fs::write(&path, &bytes).unwrap();

    // The header is intact, so the file still opens…
    expect_code(&path, &["info", "--json"], 0);
    // …but verify reads the tables and finds the damage in exactly one.
    let out = expect_code(&path, &["verify"], 2)
        .stderr(predicate::str::contains(format!(
            "{} is damaged",
            path.display()
        )))
        .get_output()
        .clone();
    let text = stdout_of(&out);
    assert!(
        text.contains("table for blank at row 1, column 2: DAMAGED, checksum MISMATCH"),
        "{text}"
    );
    assert_eq!(text.matches("DAMAGED").count(), 1, "{text}");
    assert_eq!(text.matches(": ok, 181440 positions").count(), 8, "{text}");
    let summary = text.lines().last().unwrap();
    assert!(
        summary.starts_with(&format!("{}: 1 of ", path.display())) && summary.ends_with(" damaged"),
        "{summary}"
    );
    // The message says how to make it whole again: the build it came from.
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.contains("is damaged; rebuild it with: ") && err.contains(" --board 3x3 --out "),
        "{err}"
    );
    // Damage only in the padding before the first table: said so.
    let (_dir, path, mut bytes) = bytes_to_change("3x3", "padding.db");
    bytes[4095] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let text = stdout_of(&expect_code(&path, &["verify"], 2).get_output().clone());
    assert!(
        text.starts_with("padding: DAMAGED, 1 byte that should be zero is not\n")
            && text.ends_with(": the padding is damaged; its 9 tables are whole\n"),
        "{text}"
    );
}

// ---------------------------------------------------------------- batch

#[test]
fn batch_answers_every_line_in_order() {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"867254301\n"); // 1: good, default goal
    input.extend_from_slice(b"216408753 123804765\n"); // 2: pair by a space
    input.extend_from_slice(b"216408753\t123804765\n"); // 3: pair by a tab
    input.extend_from_slice(b"234150768 123804765\n"); // 4: unsolvable
    input.extend_from_slice(b"12345\n"); // 5: bad board
    input.extend_from_slice(b"\n"); // 6: empty
    input.extend_from_slice(b"123456708\r\n"); // 7: Windows line ending
    input.extend_from_slice(b"12\xff45\n"); // 8: not UTF-8
    input.extend_from_slice(b"8 6 7 2 5 4 3 0 1\n"); // 9: one board in words
    input.extend_from_slice(b"867/254/301;123/456/780"); // 10: `;` pair, no final newline

    let out = batch(&[], input, 2);
    assert!(
        stderr_of(&out).contains("3 of 10 lines could not be answered"),
        "{out:?}"
    );
    let one = batch(&[], "12345\n", 2);
    assert!(
        stderr_of(&one).contains("1 of 1 line could not be answered"),
        "{one:?}"
    );
    let answers = json_lines(&out);
    assert_eq!(answers.len(), 10, "{answers:?}");

    check_solved(&answers[0], "867254301", "123456780", 31);
    check_solved(&answers[1], "216408753", "123804765", 18);
    check_solved(&answers[2], "216408753", "123804765", 18);
    let unsolvable = &answers[3];
    assert_eq!(unsolvable["start"], "234150768");
    assert_eq!(unsolvable["goal"], "123804765");
    assert_eq!(unsolvable["solvable"], false);
    assert!(unsolvable["distance"].is_null() && unsolvable["moves"].is_null());
    assert!(unsolvable.get("error").is_none());

    for (i, input, problem) in [
        (4, "12345", "expected 9 tiles"),
        (5, "", "the line is empty"),
        (7, "12\u{fffd}45", "not valid UTF-8"),
    ] {
        let e = &answers[i];
        assert_eq!(e["line"], i + 1, "{e}");
        assert_eq!(e["input"], input, "{e}");
        let error = e["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {e}"));
        assert!(error.contains(problem), "{e}");
        assert!(e.get("solvable").is_none(), "{e}");
    }

    check_solved(&answers[6], "123456708", "123456780", 1);
    assert_eq!(answers[6]["moves"], "R");
    check_solved(&answers[8], "867254301", "123456780", 31);
    check_solved(&answers[9], "867254301", "123456780", 31);
}

/// A program that writes a line to `batch` and waits for its answer
/// before it writes the next gets each answer: lookups too are answered as
/// lines come, not once 1 MiB of input has.
#[test]
fn batch_answers_a_line_before_the_next_comes() {
    let mut query = std::process::Command::new(assert_cmd::cargo::cargo_bin("query"));
    query
        .env_remove("NPUZZLE_DB")
        .arg("--db")
        .arg(&three_by_three().path);
    query.args(["batch", "--format", "moves"]);
    crate::within::converse(query, &[("123456708", "R"), ("123456078", "RR")]);
}

#[test]
fn batch_of_good_lines_exits_0() {
    let input = "867254301\r\n123468750\n216408753\t123804765\n";
    let out = batch(&[], input, 0);
    assert_eq!(stderr_of(&out), "");
    let answers = json_lines(&out);
    assert_eq!(answers.len(), 3);
    check_solved(&answers[0], "867254301", "123456780", 31);
    check_solved(&answers[1], "123468750", "123456780", 4);
    assert_eq!(answers[1]["moves"], "ULDR");
    check_solved(&answers[2], "216408753", "123804765", 18);
}

#[test]
fn batch_unsolvable_lines_are_answers_not_errors() {
    let v = json_of(&batch(&[], "213456780\n", 0));
    assert_eq!(v["solvable"], false);
}

#[test]
fn batch_of_nothing_prints_nothing() {
    let out = batch(&[], "", 0);
    assert_eq!(
        (stdout_of(&out), stderr_of(&out)),
        (String::new(), String::new())
    );
}

#[test]
fn batch_goal_applies_to_lines_without_one() {
    let input = "216408753\n867254301 123456780\n";
    let answers = json_lines(&batch(&["--goal", "123804765"], input, 0));
    assert_eq!(answers.len(), 2);
    check_solved(&answers[0], "216408753", "123804765", 18);
    check_solved(&answers[1], "867254301", "123456780", 31);
    // An empty goal after the separator (a spreadsheet's empty last cell)
    // is no goal: `--goal` serves that line too.
    let input = "216408753\t\n216408753; \n";
    let answers = json_lines(&batch(&["--goal", "123804765"], input, 0));
    check_solved(&answers[0], "216408753", "123804765", 18);
    check_solved(&answers[1], "216408753", "123804765", 18);
}

/// More output than one 64 KiB block: order and count survive the flushes.
#[test]
fn a_long_batch_keeps_its_order() {
    let t = three_by_three();
    let goal = Board::goal(S);
    // Walk the blank around pseudo-randomly; each stop is a start.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut board = goal;
    let mut starts = Vec::new();
    for _ in 0..4000 {
        for _ in 0..7 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = Move::ALL[(state % 4) as usize];
            if let Some(next) = board.apply(m) {
                board = next;
            }
        }
        starts.push(board);
    }
    let input: String = starts.iter().map(|s| format!("{s}\n")).collect();
    let out = batch(&[], input, 0);
    assert!(out.stdout.len() > 1 << 16, "the test should cross a block");
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), starts.len());
    for (start, line) in starts.iter().zip(lines) {
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["start"], start.to_string());
        let moves = moves_of(v["moves"].as_str().unwrap());
        assert_eq!(start.replay(&moves), Some(goal), "{v}");
        assert_eq!(v["distance"], t.db.distance(start, &goal).unwrap(), "{v}");
    }
}

/// Lines of every kind, repeated past one input block (1 MiB), so that
/// block boundaries and thread shares fall in the middle of the mix.
fn mixed_batch_input() -> Vec<u8> {
    let kinds: [&[u8]; 8] = [
        b"867254301\n",
        b"283104765 123804765\n",
        b"234150768\t123804765\n",
        b"1234\n",
        b"\n",
        b"12345678x\r\n",
        b"\xff\xfe\n",
        b"8 6 7 2 5 4 3 0 1\n",
    ];
    let mut input = Vec::new();
    while input.len() < 1_300_000 {
        for kind in kinds {
            input.extend_from_slice(kind);
        }
    }
    input
}

#[test]
fn batch_output_is_the_same_for_any_number_of_threads() {
    let input = mixed_batch_input();
    let lines = input.iter().filter(|&&b| b == b'\n').count();
    for format in ["jsonl", "csv", "moves"] {
        let run = |threads: &str| {
            let args = ["--format", format, "--threads", threads];
            batch(&args, input.clone(), 2).stdout
        };
        let one = run("1");
        let header = usize::from(format == "csv");
        assert_eq!(
            one.iter().filter(|&&b| b == b'\n').count(),
            lines + header,
            "{format}"
        );
        assert_eq!(run("2"), one, "{format}: 2 threads differ from 1");
        assert_eq!(run("3"), one, "{format}: 3 threads differ from 1");
    }
}

#[test]
fn batch_formats_csv_and_moves() {
    let input = "867254301\n234150768 123804765\n123456780\n1234\n";
    let lines = stdout_lines(&batch(&["--format", "moves"], input, 2));
    assert_eq!(lines.len(), 4);
    assert_eq!(
        b("867254301").replay(&moves_of(&lines[0])),
        Some(Board::goal(S))
    );
    assert_eq!(lines[0].len(), 31);
    assert_eq!(lines[1], "-");
    assert_eq!(lines[2], "");
    assert!(
        lines[3].starts_with("error: line 4: bad start board: expected 9 tiles"),
        "{}",
        lines[3]
    );

    let csv = stdout_of(&batch(&["--format", "csv"], input, 2));
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.splitn(7, ',').collect()).collect();
    assert_eq!(
        rows[0],
        ["start", "goal", "solvable", "distance", "moves", "reason", "error"]
    );
    assert_eq!(rows[1][..4], ["867254301", "123456780", "true", "31"]);
    assert_eq!(
        b("867254301").replay(&moves_of(rows[1][4])),
        Some(Board::goal(S))
    );
    assert_eq!(rows[2][..5], ["234150768", "123804765", "false", "", ""]);
    assert!(rows[2][5].starts_with("\"the start has"), "{}", rows[2][5]);
    assert_eq!(rows[3], ["123456780", "123456780", "true", "0", "", "", ""]);
    assert_eq!(rows[4][..6], ["\"1234\"", "", "", "", "", ""]);
    assert!(
        rows[4][6].starts_with("\"line 4: bad start board"),
        "{:?}",
        rows[4]
    );
}

#[test]
fn batch_threads_must_be_positive() {
    let out = batch(&["--threads", "0"], "867254301\n", 2);
    assert_eq!(stdout_of(&out), "");
}

#[test]
fn random_draws_positions_at_the_distance_reproducibly() {
    let t = three_by_three();
    let run = |seed: &str| {
        let args = [
            "random",
            "--distance",
            "20",
            "--count",
            "25",
            "--seed",
            seed,
        ];
        stdout_of(&run_query(&t.path, &args, 0))
    };
    let first = run("3");
    let boards: Vec<Board> = first.lines().map(b).collect();
    assert_eq!(boards.len(), 25);
    let goal = Board::goal(S);
    for board in &boards {
        assert_eq!(t.db.distance(board, &goal), Ok(20), "{board}");
    }
    assert_eq!(run("3"), first);
    assert_ne!(run("4"), first);

    let v = json_answer(
        &t.path,
        &[
            "random",
            "--distance",
            "29..=31",
            "--count",
            "3",
            "--json",
            "--goal",
            "123804765",
        ],
    );
    assert!(v["seed"].is_u64());
    assert_eq!(v["goal"], "123804765");
    for p in v["positions"].as_array().unwrap() {
        let d = p["distance"].as_u64().unwrap();
        assert!((29..=30).contains(&d), "{p}");
        let start = b(p["start"].as_str().unwrap());
        assert_eq!(t.db.distance(&start, &b("123804765")), Ok(d as u32));
    }
}

#[test]
fn random_beyond_the_maximum_names_the_maximum() {
    let t = three_by_three();
    expect_code(&t.path, &["random", "--distance", "32"], 2)
        .stdout("")
        .stderr(predicate::str::contains("the maximum distance is 31"));
    expect_code(&t.path, &["random", "--distance", "20..10"], 2)
        .stderr(predicate::str::contains("empty range"));
}

#[test]
fn solve_all_counts_and_lists_shortest_solutions() {
    let t = three_by_three();
    let goal = Board::goal(S);
    let target = t.db.goal_table(&goal).unwrap();
    let start = b("867254301");
    let v = json_answer(
        &t.path,
        &["solve", "867254301", "--all", "--limit", "100", "--json"],
    );
    let count = npuzzle::analysis::count_shortest(&target, &start).unwrap();
    assert_eq!(v["solutions"].as_u64().unwrap() as u128, count);
    let listed = v["listed"].as_array().unwrap();
    assert_eq!(listed.len() as u128, count.min(100));
    for moves in listed {
        let moves = moves_of(moves.as_str().unwrap());
        assert_eq!(moves.len(), 31);
        assert_eq!(start.replay(&moves), Some(goal));
    }
    expect_code(&t.path, &["solve", "867254301", "--all", "--limit", "2"], 0)
        .stdout(predicate::str::contains(format!(
            "31 moves, {count} shortest solutions"
        )))
        .stdout(predicate::str::contains(format!("and {} more", count - 2)));
    expect_code(&t.path, &["solve", "213456780", "--all"], 1)
        .stdout(predicate::str::starts_with("unsolvable: "));
    // With --json, solve's unsolvable answer with the same fields as a
    // solvable one's: no solutions.
    let v = quiet_json_answer(&t.path, &["solve", "213456780", "--all", "--json"], 1);
    assert_eq!(v["solvable"], false);
    assert!(v["reason"].as_str().unwrap().contains("inversion"));
    assert_eq!(
        (&v["solutions"], &v["listed"]),
        (&serde_json::json!(0), &serde_json::json!([]))
    );
    // One move, and none: said as plain `solve` says them.
    expect_code(&t.path, &["solve", "123456708", "--all"], 0)
        .stdout("123456708 -> 123456780: 1 move, 1 shortest solution\nR\n");
    expect_code(&t.path, &["solve", "123456780", "--all"], 0)
        .stdout("123456780 is the goal: 0 moves, 1 shortest solution (no moves)\n");
}

#[test]
fn stats_lists_every_table_with_its_farthest_positions() {
    let t = three_by_three();
    let v = json_answer(&t.path, &["stats", "--json"]);
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 9);
    let last = tables.iter().find(|t| t["blank"] == "3,3").unwrap();
    assert_eq!(last["goal"], "123456780");
    assert_eq!(last["max_distance"], 31);
    assert_eq!(
        last["farthest"],
        serde_json::json!(["647850321", "867254301"])
    );
    let total: u64 = tables
        .iter()
        .map(|t| t["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 9 * 181_440);
}

#[test]
fn heuristics_report_admissibility_against_the_truth() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("h.svg");
    let v = json_answer(
        &t.path,
        &["heuristics", "--json", "--plot", svg.to_str().unwrap()],
    );
    // One object, as every command prints, naming the board and the goal.
    assert_eq!(v["board"], "3x3");
    assert_eq!(v["goal"], "123456780");
    assert_eq!(v["positions"], 181_440);
    let surveys = v["heuristics"].as_array().unwrap();
    assert_eq!(surveys.len(), 4);
    for s in surveys {
        let counts: Vec<u64> = s["by_distance"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["count"].as_u64().unwrap())
            .collect();
        assert_eq!(counts, A089473);
        let admissible = s["heuristic"] != "manhattan+blank";
        assert_eq!(
            s["inadmissible"].as_u64().unwrap() == 0,
            admissible,
            "{}",
            s["heuristic"]
        );
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(roxmltree::Document::parse(&text).is_ok());
    expect_code(&t.path, &["heuristics", "--csv"], 0).stdout(predicate::str::starts_with(
        "heuristic,distance,count,mean,min,max\nmisplaced,0,1,",
    ));
}

#[test]
fn compare_checks_every_algorithm_against_the_database() {
    let t = three_by_three();
    let v = json_answer(
        &t.path,
        &["compare", "283104765", "--goal", "123804765", "--json"],
    );
    assert_eq!(v["distance"], 4);
    let algorithms = v["algorithms"].as_array().unwrap();
    assert_eq!(algorithms.len(), 8);
    for a in algorithms {
        let moves = moves_of(a["moves"].as_str().unwrap());
        assert_eq!(
            b("283104765").replay(&moves),
            Some(b("123804765")),
            "{}",
            a["algorithm"]
        );
        assert_eq!(a["optimal"], moves.len() == 4);
    }
    let limited = run_query(
        &t.path,
        &["compare", "867254301", "--max-nodes", "100", "--json"],
        0,
    );
    let v = json_of(&limited);
    let bfs = &v["algorithms"][0];
    assert_eq!(bfs["hit_limit"], true);
    assert!(bfs["moves"].is_null());
    expect_code(&t.path, &["compare", "213456780"], 1);
    // Names a program can match, the depth limit in a field of its own, and
    // the report's own field names.
    let names: Vec<&str> = algorithms
        .iter()
        .map(|a| a["algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "bfs",
            "dfs",
            "iddfs",
            "astar-misplaced",
            "astar-manhattan",
            "astar-linear-conflict",
            "idastar-manhattan",
            "greedy-manhattan"
        ]
    );
    assert_eq!(algorithms[1]["depth_limit"], 30);
    assert!(algorithms[0]["depth_limit"].is_null());
    assert!(algorithms[0]["elapsed_ms"].is_number());
    assert!(v["database_elapsed_ms"].is_number());
    // A depth limit below the distance: "none" is explained.
    expect_code(&t.path, &["compare", "867254301", "--depth-limit", "3"], 0).stdout(
        predicate::str::contains("\"none\": no solution within the depth limit (3 moves"),
    );
    // The largest depth limit costs what --max-nodes allows: depth-first
    // search tested each child against its whole path, and took 117 s here
    // (release) at a depth of 65,535; now a second. The timeout only keeps
    // a regression from hanging the tests.
    let deep = [
        "compare",
        "680247531",
        "--depth-limit",
        "4294967295",
        "--json",
    ];
    let out = crate::util::query(&t.path)
        .args(deep)
        .timeout(std::time::Duration::from_secs(90))
        .assert()
        .code(0)
        .get_output()
        .clone();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dfs = &v["algorithms"][1];
    assert_eq!(dfs["algorithm"], "dfs");
    assert_eq!(dfs["depth_limit"], 4_294_967_295u64);
    if let Some(moves) = dfs["moves"].as_str() {
        let start = b("680247531");
        assert_eq!(start.replay(&moves_of(moves)), Some(Board::goal(S)));
    }
}

#[test]
fn histogram_plots_one_goal_or_every_blank() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("h.png");
    expect_code(
        &t.path,
        &["histogram", "--log", "--plot", png.to_str().unwrap()],
        0,
    )
    .stdout(predicate::str::contains("maximum distance 31"));
    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let info = decoder.read_info().unwrap().info().clone();
    assert!(info.width > 0 && info.height > 0);
    let v = json_answer(&t.path, &["histogram", "--all-blanks", "--json"]);
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 9);
    let last = tables.iter().find(|t| t["blank"] == "3,3").unwrap();
    assert_eq!(last["counts"], serde_json::json!(A089473));
    expect_code(&t.path, &["histogram", "--plot", "h.gif"], 2)
        .stderr(predicate::str::contains("unsupported extension \".gif\""));
}

#[test]
fn batch_survives_hostile_lines() {
    let mut input = Vec::new();
    input.extend(std::iter::repeat_n(b'a', 10 << 20)); // a 10 MB line
    input.push(b'\n');
    input.extend_from_slice(&"1 ".repeat(1000).into_bytes()); // 1,000 tiles
    input.push(b'\n');
    input.extend((0u8..=255).filter(|&b| b != b'\n')); // binary garbage
    input.push(b'\n');
    input.extend_from_slice(b"\n\r\n867254301\r\n"); // empty, empty with \r, a good one
    let out = batch(&["--threads", "2"], input, 2);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 6);
    assert!(lines[0]["error"]
        .as_str()
        .unwrap()
        .contains("the line is longer than 1048576 bytes"));
    assert!(
        lines[0]["input"].as_str().unwrap().chars().count() <= 201,
        "the 10 MB line is echoed whole"
    );
    assert!(lines[1]["error"].as_str().unwrap().contains("got 1000"));
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .contains("not valid UTF-8"));
    assert_eq!(lines[3]["error"], "the line is empty");
    assert_eq!(lines[4]["error"], "the line is empty");
    assert_eq!(lines[5]["distance"], 31);
    assert!(stderr_of(&out).contains("5 of 6 lines"));
}

/// A batch that started on one database keeps answering from it while
/// build-db replaces the file with another database (of fewer tables).
#[test]
fn a_running_batch_keeps_its_database_through_a_rebuild() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    let shape = S;
    npuzzle::files::write_database(
        &path,
        shape,
        &npuzzle::tables::build_tables(shape, &(0..9).collect::<Vec<_>>()),
    )
    .unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("query"))
        .arg("--db")
        .arg(&path)
        .args(["batch", "--format", "moves"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let starts = ["867254301", "123468750", "647850321", "123456780"];
    for s in &starts {
        writeln!(stdin, "{s}").unwrap();
    }
    stdin.flush().unwrap();
    // The batch maps the file as it starts: rebuild only once it has.
    wait_until_mapped(child.id(), &path);
    run_build_db(&["--board", "3x3", "--blank", "1,1"], &path, 0);
    let rebuilt = Database::open(&path).unwrap().into_complete().unwrap();
    assert_eq!(rebuilt.header().tables.len(), 1);
    for s in &starts {
        writeln!(stdin, "{s}").unwrap();
    }
    drop(stdin);
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert!(child.wait().unwrap().success());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * starts.len());
    for (line, start) in lines.iter().zip(starts.iter().chain(starts.iter())) {
        assert_eq!(
            b(start).replay(&moves_of(line)),
            Some(Board::goal(S)),
            "{start}"
        );
    }
    assert_eq!(lines[0].len(), 31);
}

/// Waits until process `pid` maps `path` (Linux lists a process's
/// mappings in /proc; elsewhere, half a second is given).
fn wait_until_mapped(pid: u32, path: &Path) {
    use std::time::{Duration, Instant};
    if !cfg!(target_os = "linux") {
        std::thread::sleep(Duration::from_millis(500));
        return;
    }
    let (maps, path) = (format!("/proc/{pid}/maps"), path.canonicalize().unwrap());
    let began = Instant::now();
    while !std::fs::read_to_string(&maps).is_ok_and(|m| m.contains(path.to_str().unwrap())) {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "{pid} never mapped {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

// ---------------------------------------------------------------- larger boards

/// Boards of more than nine cells are written with tiles separated by
/// spaces, in text and JSON, and read in every form; a goal with its blank in
/// the opposite corner goes through the one table by a half turn.
#[test]
fn boards_above_nine_cells_are_written_with_spaces() {
    let t = crate::util::temp_db_with_blanks("2x5", &[9]);
    expect_code(&t.path, &["solve", "1 2 3 4 5 / 6 7 8 0 9"], 0).stdout(
        predicate::str::starts_with("1 2 3 4 5 6 7 8 0 9 -> 1 2 3 4 5 6 7 8 9 0: 1 move\nR\n"),
    );
    let v = json_answer(&t.path, &["solve", "--json", "[[0,1,2,3,4],[5,6,7,8,9]]"]);
    assert_eq!(v["start"], "0 1 2 3 4 5 6 7 8 9");
    assert_eq!(v["goal"], "1 2 3 4 5 6 7 8 9 0");
    // The reverse question through the half-turned table: same distance.
    let back = json_answer(
        &t.path,
        &[
            "solve",
            "--json",
            "1,2,3,4,5,6,7,8,9,0",
            "--goal",
            "0 1 2 3 4 5 6 7 8 9",
        ],
    );
    assert_eq!(back["distance"], v["distance"]);
    let shape: Shape = "2x5".parse().unwrap();
    let moves = moves_of(back["moves"].as_str().unwrap());
    let start = parse_board("1 2 3 4 5 6 7 8 9 0", shape).unwrap();
    assert_eq!(
        start.replay(&moves),
        Some(parse_board("0 1 2 3 4 5 6 7 8 9", shape).unwrap())
    );
}
