//! The rough edges a new user hit (issue 12), each pinned: flags and paths
//! that must be refused with a message, input forms that must be read,
//! and names that must be the same everywhere.

use crate::util::{
    bytes_to_change, expect_batch, expect_code, expect_code_in, json_answer, json_of, printed,
    query, run_batch, run_build_db, run_query, stderr_of, stdout_lines, stdout_of, temp_db,
};
use predicates::prelude::*;
use std::path::Path;

fn three_by_three() -> &'static crate::util::TempDb {
    temp_db("3x3")
}

/// A teacher who publishes a seed gets the same puzzles from every version:
/// this draw is pinned (the README shows it too).
#[test]
fn a_seeded_draw_is_pinned() {
    let t = three_by_three();
    let draw = ["random", "--distance", "20", "--seed", "42", "--count"];
    for (more, printed) in [
        (
            &["5"][..],
            "183472065\n325871460\n260578134\n057281463\n541806327\n",
        ),
        (
            &["2", "--csv"],
            "start,distance\n541807362,20\n326145780,20\n",
        ),
    ] {
        let out = run_query(&t.path, &[&draw[..], more].concat(), 0);
        assert_eq!(stdout_of(&out), printed, "{more:?}");
    }
}

#[test]
fn a_fifo_as_the_database_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.db");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo is missing: skipped");
        return;
    }
    let started = std::time::Instant::now();
    query(&fifo)
        .args(["distance", "867254301"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a regular file"));
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn an_absurd_thread_count_is_refused() {
    let t = three_by_three();
    query(&t.path)
        .args(["batch", "--threads", "65535"])
        .write_stdin("867254301\n")
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "--threads 65535 is more than this machine can use",
        ));
    // Past any integer type: the same limit, not the type's.
    for huge in ["99999999999999999999", "65536"] {
        expect_batch(&t.path, &["batch", "--threads", huge], "867254301\n", 2).stderr(
            predicate::str::contains("more than this machine can use")
                .and(predicate::str::contains("per core")),
        );
    }
    for (bad, why) in [
        ("0", "at least 1 thread"),
        ("two", "not a whole number"),
        ("", "not a whole number"),
    ] {
        expect_batch(&t.path, &["batch", "--threads", bad], "867254301\n", 2)
            .stderr(predicate::str::contains(why));
    }
    let one_thread = ["batch", "--threads", "1", "--format", "moves"];
    expect_batch(&t.path, &one_thread, "123456708\n", 0).stdout("R\n");
}

#[test]
fn a_global_option_given_twice_is_refused_in_either_order() {
    let t = three_by_three();
    for args in [
        vec!["--db", "a.db", "--db", "b.db", "distance", "867254301"],
        vec!["--db", "a.db", "distance", "867254301", "--db", "b.db"],
        vec!["--board", "3x3", "distance", "867254301", "--board=3x3"],
    ] {
        expect_code(&t.path, &args, 2).stderr(predicate::str::contains("is given"));
    }
}

/// Words clap or a board parser would misread get a message of the tool's
/// own: a negative number, an empty field between commas (by its column).
#[test]
fn negative_numbers_and_empty_fields_get_the_tools_own_message() {
    let t = three_by_three();
    for (args, message) in [
        (
            &["solve", "-1 2 3 4 5 6 7 8 0"][..],
            "starts with a negative number",
        ),
        (&["random", "--distance", "-1"], "\"-1\" is negative"),
        (
            &["distance", "1,2,3,,4,5,6,7,8,0"],
            "empty field at column 7",
        ),
    ] {
        expect_code(&t.path, args, 2).stderr(predicate::str::contains(message));
    }
}

#[test]
fn an_unquoted_goal_with_spaces_is_explained() {
    let t = three_by_three();
    let start = ["solve", "8", "6", "7", "2", "5", "4", "3", "0", "1"];
    let goal = ["--goal", "1", "2", "3", "4", "5", "6", "7", "8", "0"];
    expect_code(&t.path, &[start, goal].concat(), 2).stderr(predicate::str::contains(
        "--goal took only \"1\", and the rest joined the start: quote a goal written with \
             spaces, as in --goal '1 2 3 4 5 6 7 8 0'",
    ));
}

#[test]
fn a_huge_bad_board_is_echoed_short() {
    let t = three_by_three();
    let huge = "1".repeat(120_000);
    let out = run_query(&t.path, &["distance", &huge], 2);
    assert!(out.stderr.len() < 300, "{} bytes", out.stderr.len());
    assert!(stderr_of(&out).contains("…"));
}

#[test]
fn boards_as_the_tool_prints_them_read_back() {
    let t = three_by_three();
    let text = printed(&t.path, &["solve", "867254301", "--boards"], 0);
    // The start's grid: the three lines after the move list and a blank line.
    let grid: Vec<&str> = text.lines().skip(3).take(3).collect();
    assert_eq!(grid, ["8 6 7", "2 5 4", "3 _ 1"]);
    for board in [grid.join("\n"), "867 254 301".to_string()] {
        expect_code(&t.path, &["distance", &board], 0).stdout("31\n");
    }
}

#[test]
fn a_batch_reads_past_a_byte_order_mark_and_explains_json_pairs() {
    let t = three_by_three();
    let bom = "\u{feff}123456708\n123456708\n";
    expect_batch(&t.path, &["batch", "--format", "moves"], bom, 0).stdout("R\nR\n");
    let json_pair = "[1, 2, 3, 4, 5, 6, 7, 0, 8] [1, 2, 3, 4, 5, 6, 7, 8, 0]\n";
    expect_batch(&t.path, &["batch"], json_pair, 2).stdout(predicate::str::contains(
        "separate a start and a goal in JSON with a tab or `;`",
    ));
}

#[test]
fn batch_csv_keeps_the_reason_and_the_bad_input() {
    let t = three_by_three();
    let input = "234150768\t123804765\nnonsense\n";
    let lines = stdout_lines(&run_batch(&t.path, &["batch", "--csv"], input, 2));
    assert_eq!(lines[0], "start,goal,solvable,distance,moves,reason,error");
    assert!(
        lines[1].starts_with("234150768,123804765,false,,,\"the start has 9 tile inversions"),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("\"nonsense\",,,,,,\"line 2: bad start board"));
    // --json is --format jsonl.
    let v = json_of(&run_batch(&t.path, &["batch", "--json"], "123456708\n", 0));
    assert_eq!(v["moves"], "R");
}

#[test]
fn verify_counts_what_it_does_not_list_and_names_tables() {
    let (_dir, path, mut bytes) = bytes_to_change("3x3", "damaged.db");
    // Damage 20 entries of the first table (it starts at 4096).
    for i in 0..20 {
        bytes[4096 + 1000 + i * 97] ^= 0b0000_0111;
    }
    std::fs::write(&path, &bytes).unwrap();
    let text = printed(&path, &["verify"], 2);
    assert!(text.contains("… and "), "{text}");
    assert!(
        text.contains(" more (--json lists the same first ones)"),
        "{text}"
    );
    assert!(text.contains(": 1 of 9 tables damaged"), "{text}");
    let out = run_query(&path, &["verify", "--json"], 2);
    let v = json_of(&out);
    assert_eq!(v["ok"], false);
    let table = &v["tables"][0];
    assert_eq!(table["goal_blank"], "1,1");
    assert_eq!(table["ok"], false);
    assert!(table["fault_count"].as_u64().unwrap() >= 20);
    assert!(!table["faults"].as_array().unwrap().is_empty());
    assert_eq!(v["tables"][1]["ok"], true);
}

#[test]
fn counts_of_one_are_singular() {
    let t = three_by_three();
    // 1 tile inversion.
    expect_code(&t.path, &["distance", "123456870"], 1)
        .stdout(predicate::str::contains("has 1 tile inversion relative"));
    // Only 1 position lies at 0 moves.
    for (distance, count, message) in [
        ("0", "2", "only 1 lies at 0 moves"),
        ("1", "3", "only 2 lie at 1 move\n"),
    ] {
        let args = ["random", "--distance", distance, "--count", count];
        expect_code(&t.path, &args, 2).stderr(predicate::str::contains(message));
    }
}

#[test]
fn stats_lists_a_few_farthest_positions_and_all_in_json() {
    let t = three_by_three();
    let text = printed(&t.path, &["stats", "--goal", "123405678"], 0);
    assert!(
        text.contains("goal 123405678 (blank at row 2, column 2)"),
        "{text}"
    );
    assert!(
        text.contains("max distance    30 (148 positions)"),
        "{text}"
    );
    assert!(text.contains("… and 142 more (--json lists all)"), "{text}");
    let v = json_answer(&t.path, &["stats", "--goal", "123405678", "--json"]);
    assert_eq!(v["tables"][0]["farthest"].as_array().unwrap().len(), 148);
    assert_eq!(v["tables"][0]["blank"], "2,2");
    let lines = stdout_lines(&run_query(&t.path, &["stats", "--csv"], 0));
    assert_eq!(
        lines[0],
        "blank,goal,positions,mean_distance,max_distance,farthest"
    );
    assert_eq!(lines.len(), 10);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("\"3,3\",123456780,181440,21.97") && l.ends_with(",31,2")),
        "{lines:#?}"
    );
}

#[test]
fn one_name_for_one_thing_in_json() {
    let t = three_by_three();
    let v = json_answer(&t.path, &["histogram", "--json"]);
    assert_eq!(v["positions"], 181440);
    assert!(v.get("states").is_none());
    let v = json_answer(&t.path, &["info", "--json"]);
    let table = &v["tables"][8];
    assert_eq!(table["goal_blank"], "3,3");
    let checksum = table["checksum"].as_str().unwrap();
    assert_eq!(checksum.len(), 8);
    assert!(checksum.chars().all(|c| c.is_ascii_hexdigit()));
    let out = run_query(&t.path, &["histogram", "--all-blanks", "--csv"], 0);
    assert!(stdout_of(&out).starts_with("distance,\"1,1\",\"1,2\","));
    // solve --all --json: solve --json's fields, in its order, then more.
    let out = run_query(
        &t.path,
        &[
            "solve",
            "283104765",
            "--goal",
            "123804765",
            "--all",
            "--json",
        ],
        0,
    );
    assert_eq!(
        stdout_of(&out),
        "{\"start\":\"283104765\",\"goal\":\"123804765\",\"solvable\":true,\"distance\":4,\
         \"moves\":\"ULDR\",\"solutions\":1,\"listed\":[\"ULDR\"]}\n"
    );
}

#[test]
fn version_and_help_say_what_they_should() {
    let dir = tempfile::tempdir().unwrap();
    expect_code_in(dir.path(), &["--version"], 0).stdout(predicate::str::starts_with("query "));
    for (args, says) in [
        (
            &["--help"][..],
            &[
                "Moves are the blank's",
                "the tile beside it slides the other way",
            ][..],
        ),
        (
            &["batch", "--help"],
            &["a start and a goal separated by a tab"],
        ),
    ] {
        let help = stdout_of(&expect_code_in(dir.path(), args, 0).get_output().clone());
        for words in says {
            assert!(help.contains(words), "{args:?} lacks {words:?}: {help}");
        }
    }
}

/// On a file with a table for every cell, symmetric cells' curves would
/// hide each other: one curve per class, its legend naming every cell.
#[test]
fn every_blank_plots_one_curve_per_class() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("all.svg");
    let plot = ["histogram", "--all-blanks", "--plot", svg.to_str().unwrap()];
    expect_code(&t.path, &plot, 0);
    let text = std::fs::read_to_string(&svg).unwrap();
    let legends: Vec<&str> = text
        .split('>')
        .filter_map(|part| part.split('<').next())
        .map(str::trim)
        .filter(|t| t.starts_with("blank at"))
        .collect();
    assert_eq!(
        legends,
        [
            "blank at row 1, column 1 (also 1,3 3,1 3,3)",
            "blank at row 1, column 2 (also 2,1 2,3 3,2)",
            "blank at row 2, column 2"
        ]
    );
}

/// A huge value of any flag is echoed cut short, by either binary.
#[test]
fn a_huge_flag_value_is_echoed_short() {
    let dir = tempfile::tempdir().unwrap();
    let huge_board = "x".repeat(100_000);
    let huge_distance = "9".repeat(100_000);
    for args in [
        vec!["--board", huge_board.as_str(), "info"],
        vec!["random", "--distance", huge_distance.as_str()],
    ] {
        let out = expect_code_in(dir.path(), &args, 2).get_output().clone();
        assert!(out.stderr.len() < 400, "{} bytes", out.stderr.len());
        assert!(stderr_of(&out).contains("…"));
    }
    let huge_partition = "9-".repeat(50_000);
    for args in [
        vec!["--board", huge_board.as_str()],
        vec!["--partition", huge_partition.as_str(), "--out", "x.db"],
    ] {
        let out = assert_cmd::Command::cargo_bin("build-db")
            .unwrap()
            .current_dir(dir.path())
            .args(&args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(out.stderr.len() < 400, "{} bytes", out.stderr.len());
    }
}

/// A path far past any system's limit is named cut short in the message,
/// by either binary and for every kind of file, with nothing written.
#[test]
fn a_huge_path_is_named_short() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("b".repeat(100_000));
    let long = long.to_str().unwrap();
    let in_folder = format!("{long}/x.db");
    let (db, png, db_in_folder) = (format!("{long}.db"), format!("{long}.png"), &in_folder);
    let weird_extension = dir.path().join(format!("x.{}", "e".repeat(100_000)));
    let mut outputs = vec![
        run_build_db(&["--quiet"], Path::new(&db), 2),
        run_build_db(&["--quiet"], Path::new(db_in_folder), 2),
        run_build_db(
            &["--board", "3x3", "--partition", "4-4", "--quiet"],
            Path::new(&db),
            2,
        ),
        run_query(Path::new(&db), &["distance", "123456780"], 2),
    ];
    for plot in [png.as_str(), weird_extension.to_str().unwrap()] {
        outputs.push(run_query(&t.path, &["histogram", "--plot", plot], 2));
    }
    for out in outputs {
        let err = stderr_of(&out);
        assert!(err.len() < 600, "{} bytes: {}", err.len(), &err[..300]);
        assert!(err.contains('…'), "{err}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
