//! The rough edges a new user hit (issue 12), each pinned: flags and paths
//! that must be refused with a message, input forms that must be read,
//! and names that must be the same everywhere.

use crate::util::{
    bytes_to_change, expect_batch, expect_code, expect_code_in, json_answer, json_of, printed,
    query, refused_past_file_size_limit, run_batch, run_build_db, run_query, stderr_of,
    stdout_lines, stdout_of, temp_db,
};
use npuzzle::Shape;
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

/// Without `--distance`, positions are drawn uniformly from every one that
/// reaches the goal, on any board: each solvable (checked by parity apart
/// from the draw), the same for a seed, with its distance where complete
/// tables know it, and with no database at all on 6x6.
#[test]
fn a_draw_without_a_distance_is_uniform_on_any_board() {
    let t = three_by_three();
    let draw = ["random", "--count", "50", "--seed", "9", "--json"];
    let out = run_query(&t.path, &draw, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    let shape = Shape::THREE_BY_THREE;
    for p in v["positions"].as_array().unwrap() {
        let start = npuzzle::parse_board(p["start"].as_str().unwrap(), shape).unwrap();
        assert!(npuzzle::rules::solvability::check(&start, &npuzzle::Board::goal(shape)).is_ok());
        let d = run_query(&t.path, &["distance", &start.to_string()], 0);
        assert_eq!(stdout_of(&d).trim(), p["distance"].to_string());
    }
    assert!(v.get("distances").is_none(), "{v}");
    assert_eq!(stdout_of(&run_query(&t.path, &draw, 0)), stdout_of(&out));
    // No file for 6x6, and none needed.
    let dir = tempfile::tempdir().unwrap();
    let six = crate::util::query_in(dir.path())
        .args(["--board", "6x6", "random", "--count", "3", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(six.status.code(), Some(0), "{}", stderr_of(&six));
    let goal = npuzzle::Board::goal("6x6".parse().unwrap());
    for line in stdout_of(&six).lines() {
        let start = npuzzle::parse_board(line, goal.shape()).unwrap();
        assert!(
            npuzzle::rules::solvability::check(&start, &goal).is_ok(),
            "{line}"
        );
    }
    // With pattern tables, no distances; toward a goal the file does not
    // serve too, since the draw needs nothing of the tables.
    let patterns = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let args = ["--board", "4x4", "random", "--count", "5", "--json"];
    let drawn = stdout_of(&run_query(&patterns, &args, 0));
    let v: serde_json::Value = serde_json::from_str(&drawn).unwrap();
    let goal = npuzzle::Board::goal("4x4".parse().unwrap());
    for p in v["positions"].as_array().unwrap() {
        assert!(p.get("distance").is_none(), "{p}");
        let start = npuzzle::parse_board(p["start"].as_str().unwrap(), goal.shape()).unwrap();
        assert!(
            npuzzle::rules::solvability::check(&start, &goal).is_ok(),
            "{p}"
        );
    }
    let edge = "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15";
    let args = [
        "--board", "4x4", "random", "--goal", edge, "--count", "5", "--seed", "3",
    ];
    let drawn = stdout_of(&run_query(&patterns, &args, 0));
    let edge = npuzzle::parse_board(edge, goal.shape()).unwrap();
    let without_file = npuzzle::analysis::Sample::uniform(&edge, 5, 3);
    let starts: Vec<String> = (without_file.positions.iter())
        .map(|p| p.start.to_string())
        .collect();
    assert_eq!(drawn.lines().collect::<Vec<_>>(), starts);
    // A count past what is held without a table; a worksheet needs distances.
    let out = run_query(&t.path, &["random", "--count", "1000001"], 2);
    assert!(stderr_of(&out).contains("at most 1000000 positions"));
    let out = run_query(&t.path, &["random", "--worksheet", "w.html"], 2);
    assert!(stderr_of(&out).contains("a worksheet's puzzles are drawn at a distance"));
}

/// A draw without `--seed` shows its seed on stderr (text and CSV, which
/// have no room for it), and that seed draws the same positions again.
#[test]
fn an_unseeded_draw_shows_its_seed() {
    let t = three_by_three();
    for format in [&[][..], &["--csv"]] {
        let draw = [&["random", "--distance", "17", "--count", "4"][..], format].concat();
        let out = run_query(&t.path, &draw, 0);
        let said = stderr_of(&out);
        let seed = said
            .strip_prefix("seed ")
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("no seed on stderr: {said:?}"));
        assert_eq!(
            said,
            format!("seed {seed} (--seed {seed} draws these positions again)\n")
        );
        let again = run_query(&t.path, &[&draw[..], &["--seed", seed]].concat(), 0);
        assert_eq!(stdout_of(&again), stdout_of(&out), "{format:?}");
        assert_eq!(stderr_of(&again), "", "a seed given is not repeated");
    }
    let json = run_query(&t.path, &["random", "--distance", "17", "--json"], 0);
    assert_eq!(stderr_of(&json), "", "the JSON holds the seed");
    // Held exactly by a reader whose numbers are doubles (JavaScript, jq):
    // a fresh seed is below 2^53, and read back as a double it draws the
    // same positions. (Of 64-bit seeds, one in 2,048 would be.)
    for _ in 0..8 {
        let out = json_of(&run_query(
            &t.path,
            &["random", "--distance", "17", "--json"],
            0,
        ));
        let as_double = out["seed"].as_f64().unwrap();
        assert!(as_double < 2f64.powi(53), "{out}");
        let seed = (as_double as u64).to_string();
        let again = ["random", "--distance", "17", "--json", "--seed", &seed];
        assert_eq!(json_of(&run_query(&t.path, &again, 0)), out);
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
        .stderr(predicate::str::contains("not a regular file"));
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
    // Past any integer type: the same limit, not the type's, in the same
    // words.
    for (huge, named) in [
        ("99999999999999999999", "--threads 99999999999999999999 is"),
        ("18446744073709551615", "--threads 18446744073709551615 is"),
        ("65536", "--threads 65536 is"),
    ] {
        expect_batch(&t.path, &["batch", "--threads", huge], "867254301\n", 2).stderr(
            predicate::str::starts_with(format!("query: {named} more than this machine can use"))
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
    // Both after the command: said as a count, with what to do.
    crate::util::query_in(Path::new("."))
        .args(["distance", "867254301", "--db", "a.db", "--db", "b.db"])
        .assert()
        .code(2)
        .stderr("query: --db is given 2 times; give it once (only `serve` takes several)\n");
}

/// Words clap or a board parser would misread get a message of the tool's
/// own: a negative number, an empty field between commas (by its column).
#[test]
fn negative_numbers_and_empty_fields_get_the_tools_own_message() {
    let t = three_by_three();
    for (args, message) in [
        (
            &["solve", "-1 2 3 4 5 6 7 8 0"][..],
            "\"-1 2 3 4 5 6 7 8 0\" starts with a negative number",
        ),
        (
            &["solve", "-867254301"],
            "\"-867254301\" starts with a negative number",
        ),
        // A flag that takes no value is not named as the number's option.
        (
            &["solve", "--json", "-867254301"],
            "query: \"-867254301\" starts with a negative number",
        ),
        (&["random", "--distance", "-1"], "\"-1\" is negative"),
        (
            &["distance", "1,2,3,,4,5,6,7,8,0"],
            "empty field at column 7",
        ),
    ] {
        expect_code(&t.path, args, 2).stderr(predicate::str::contains(message));
    }
    // The option it was given to is named.
    let out = run_build_db(&["--blank", "-1,1"], &t.path.with_extension("never"), 2);
    let said = stderr_of(&out);
    assert!(
        said.contains("\"-1,1\" (after --blank) starts with a negative number"),
        "{said}"
    );
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
    // The goal typed is the example, where its tiles make one, before the
    // start or after it, and written --goal=.
    let other = ["--goal", "0", "1", "2", "3", "4", "5", "6", "7", "8"];
    let before = [&start[..1], &other, &start[1..]].concat();
    let equals = [&start[..1], &["--goal=0"], &other[2..], &start[1..]].concat();
    for args in [[start, other].concat(), before, equals] {
        expect_code(&t.path, &args, 2)
            .stderr(predicate::str::contains("as in --goal '0 1 2 3 4 5 6 7 8'"));
    }
    // With no start before it, whether the command takes one or not.
    for command in [&["solve"][..], &["heuristics"], &["histogram"], &["batch"]] {
        let args = [command, &goal].concat();
        let err = stderr_of(&run_query(&t.path, &args, 2));
        assert!(
            err.contains("--goal '1 2 3 4 5 6 7 8 0'"),
            "{args:?}: {err}"
        );
    }
    // `--goal=1 2 …` too; a complete start beside a bad goal blames the goal.
    let err = stderr_of(&run_query(
        &t.path,
        &[&["histogram", "--goal=1"][..], &goal[2..]].concat(),
        2,
    ));
    assert!(err.contains("--goal '1 2 3 4 5 6 7 8 0'"), "{err}");
    let err = stderr_of(&run_query(
        &t.path,
        &[&start[..], &["--goal", "5"]].concat(),
        2,
    ));
    assert!(err.contains("bad goal board \"5\""), "{err}");
    // The example is the board's own.
    let err = stderr_of(&run_query(
        &t.path,
        &["--board", "4x4", "batch", "--goal", "1", "2", "3"],
        2,
    ));
    assert!(
        err.contains("--goal '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0'"),
        "{err}"
    );
    // A number where none belongs, with no --goal about, is left to clap.
    let err = stderr_of(&run_query(&t.path, &["info", "5"], 2));
    assert!(!err.contains("--goal"), "{err}");
}

/// `compare`, `heuristics START` and `check` report an unsolvable pair as
/// `solve` does: on stdout, exit code 1, and with `--json` as one object,
/// the one the server's 422 carries.
#[test]
fn every_command_reports_an_unsolvable_pair_alike() {
    let t = three_by_three();
    let json_for = |command: &str| {
        let mut args = vec![command, "2 1 3 4 5 6 7 8 0"];
        if command == "check" {
            args.push("U");
        }
        args.push("--json");
        json_of(&run_query(&t.path, &args, 1))
    };
    let solved = json_for("solve");
    for command in ["distance", "compare", "heuristics", "check"] {
        assert_eq!(json_for(command), solved, "{command}");
    }
    let null = serde_json::Value::Null;
    assert_eq!((&solved["distance"], &solved["moves"]), (&null, &null));
    for command in ["solve", "compare", "heuristics"] {
        let text = run_query(&t.path, &[command, "213456780"], 1);
        assert!(
            stdout_of(&text).starts_with("unsolvable: the start has 1 tile inversion"),
            "{command}"
        );
        assert!(text.stderr.is_empty(), "{command}");
        let json = json_of(&run_query(
            &t.path,
            &[command, "2 1 3 4 5 6 7 8 0", "--json"],
            1,
        ));
        assert_eq!(json["solvable"], false, "{command}");
        assert_eq!(json["start"], "213456780", "{command}");
        assert!(
            json["reason"].as_str().unwrap().contains("odd"),
            "{command}"
        );
    }
    // `heuristics` takes --csv too.
    let csv = stdout_of(&run_query(
        &t.path,
        &["heuristics", "213456780", "--csv"],
        1,
    ));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("start,goal,solvable,reason"));
    assert!(lines
        .next()
        .unwrap()
        .starts_with("213456780,123456780,false,\"the start"));
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
        "blank,goal,positions,mean_distance,max_distance,farthest_count"
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

/// A chart past the file-size limit is refused with the system's reason
/// (not the drawing library's debug dump), the old chart kept and no
/// temporary file left.
#[cfg(target_os = "linux")]
#[test]
fn a_chart_past_the_file_size_limit_keeps_the_old_chart() {
    let args = ["histogram", "--plot"];
    let path = &three_by_three().path;
    if let Some(err) = refused_past_file_size_limit(path, &args, "chart.png", "chart") {
        assert!(!err.contains("Error("), "{err}");
    }
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

/// A negative or out-of-range number is blamed on its flag, with the
/// flag's range, not on the tiles of a board; `--count 0` is refused as
/// `/api/random?count=0` is.
#[test]
fn numbers_out_of_range_name_their_flag_and_range() {
    let t = three_by_three();
    for (args, flag, range) in [
        (
            &["batch", "--threads", "-1"][..],
            "'--threads <N>'",
            "at least 1 thread",
        ),
        (
            &["random", "--distance", "3", "--seed", "-1"],
            "'--seed <S>'",
            "from 0 to",
        ),
        (
            &["solve", "867254301", "--all", "--limit", "-1"],
            "'--limit <N>'",
            "from 0 to",
        ),
        (
            &["random", "--distance", "3", "--count", "-5"],
            "'--count <N>'",
            "from 1 to",
        ),
        (
            &["random", "--distance", "3", "--count", "0"],
            "'--count <N>'",
            "from 1 to",
        ),
        (
            &["compare", "867254301", "--depth-limit", "-1"],
            "'--depth-limit <D>'",
            "from 0 to",
        ),
        (
            &["compare", "867254301", "--max-nodes", "0"],
            "'--max-nodes <N>'",
            "from 1 to",
        ),
        (
            &[
                "compare",
                "867254301",
                "--max-nodes",
                "18446744073709551615",
            ],
            "'--max-nodes <N>'",
            "above 10000000",
        ),
        (
            &["solve", "867254301", "--timeout", "-1"],
            "'--timeout <SECONDS>'",
            "above 0 seconds",
        ),
        (
            &["serve", "--port", "-1"],
            "'--port <PORT>'",
            "from 0 to 65535",
        ),
        (
            &["serve", "--port", "65536"],
            "'--port <PORT>'",
            "from 0 to 65535",
        ),
        (
            &["--board", "-3x3", "info"],
            "'--board <RxC>'",
            "not of the form RxC",
        ),
    ] {
        let out = run_query(&t.path, args, 2);
        let err = stderr_of(&out);
        assert!(err.contains(flag) && err.contains(range), "{args:?}: {err}");
        assert!(!err.contains("tiles count from 0"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `solve START GOAL`, written as a batch line is: the goal belongs to
/// `--goal`, and the message says so rather than count the tiles.
#[test]
fn a_goal_given_as_a_second_word_is_pointed_to_goal() {
    let t = three_by_three();
    for command in ["solve", "distance", "heuristics"] {
        let out = run_query(&t.path, &[command, "867254301", "123456780"], 2);
        assert_eq!(
            stderr_of(&out),
            "query: two boards given, 867254301 and 123456780: a goal is given with --goal \
             (START --goal 123456780)\n",
            "{command}"
        );
    }
    // Two words that are no boards, but one board's digits: the count,
    // with the note on spaces and none on the size.
    let out = run_query(&t.path, &["solve", "8672", "54301"], 2);
    assert!(
        stderr_of(&out).ends_with("got 2 (a number of several digits between spaces is one tile: put a space between every tile, or none at all)\n"),
        "{}",
        stderr_of(&out)
    );
}

/// A board of another size on the default 3x3 (no `--board`, no `--db`)
/// names the boards its tiles fit; with `--board`, or a tile short, not.
#[test]
fn tiles_of_another_board_on_the_default_size_name_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::copy(&three_by_three().path, dir.path().join("data/3x3.db")).unwrap();
    let err = |args: &[&str]| {
        let out = crate::util::query_in(dir.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        stderr_of(&out)
    };
    let sixteen = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    assert!(
        err(&["solve", sixteen])
            .ends_with("got 16; 16 tiles fit a 4x4 board (or 2x8, 8x2): give --board 4x4\n"),
        "{}",
        err(&["solve", sixteen])
    );
    assert!(err(&["distance", "123450"]).ends_with("give --board 2x3\n"));
    assert!(!err(&["--board", "3x3", "solve", sixteen]).contains("fit a"));
    // A goal's tiles would name a board the start is not on.
    assert!(!err(&["solve", "--goal", "123450", "867254301"]).contains("fit a"));
    assert!(!err(&["solve", "12345678"]).contains("fit a"));
    // `solvable`, which needs no file, says it too.
    let thirty_six: Vec<String> = (1..36).map(|t| t.to_string()).chain(["0".into()]).collect();
    assert!(err(&["solvable", &thirty_six.join(" ")]).ends_with(": give --board 6x6\n"));
    // A --db of another size names only boards a database is built for:
    // none fits 27 tiles (3x9 has no partition), 25 fit 5x5.
    let db = three_by_three().path.to_str().unwrap().to_string();
    let tiles = |n: usize| {
        (1..n)
            .map(|t| t.to_string())
            .chain(["0".into()])
            .collect::<Vec<_>>()
    };
    let said = err(&["--db", &db, "distance", &tiles(27).join(" ")]);
    assert!(said.ends_with("got 27\n"), "{said}");
    let said = err(&["--db", &db, "distance", &tiles(25).join(" ")]);
    assert!(
        said.ends_with("25 tiles fit a 5x5 board: pass --db a 5x5 database\n"),
        "{said}"
    );
}

/// `serve` answers each file in its own metric: `--metric` is refused
/// rather than ignored, before anything listens.
#[test]
fn serve_refuses_a_metric() {
    let t = three_by_three();
    for metric in ["stm", "mtm"] {
        let out = run_query(&t.path, &["--metric", metric, "serve", "--port", "0"], 2);
        assert!(
            stderr_of(&out).contains(&format!("serve takes no --metric ({metric} given)")),
            "{}",
            stderr_of(&out)
        );
        assert!(out.stdout.is_empty());
    }
}

/// A range beyond the table is named as the range asked for.
#[test]
fn a_range_beyond_the_farthest_position_is_named_whole() {
    let t = three_by_three();
    expect_code(&t.path, &["random", "--distance", "35..=40"], 2).stderr(
        "query: no position is 35 to 40 moves from this goal: the maximum distance is 31\n",
    );
    // One that ends past 4 billion moves is refused before the table is
    // read, with the way out.
    expect_code(&t.path, &["random", "--distance", "29..=99999999999"], 2).stderr(
        predicates::str::contains(
            "\"29..=99999999999\" reaches past 4 billion moves, farther than any position \
             lies from its goal: end it at the goal's farthest distance or below",
        ),
    );
}

/// A board nested 100,000 lists deep is called that, not a syntax error.
#[test]
fn deep_nesting_is_called_nesting() {
    let t = three_by_three();
    let deep = "[".repeat(100_000);
    let err = stderr_of(&run_query(&t.path, &["solve", &deep], 2));
    assert!(err.contains("lists nested more than 128 deep"), "{err}");
    assert!(!err.contains("column"), "{err}");
}

/// `info` says "none" for a table without a path table, in both columns.
#[test]
fn info_says_none_where_there_is_no_path_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2x3.db");
    run_build_db(&["--board", "2x3", "--no-paths", "-q"], &path, 0);
    let text = printed(&path, &["info"], 0);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("2,")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        assert!(row.ends_with("none      none"), "{row:?}");
    }
}

/// `--goal`'s help speaks of batch lines only on `batch`; `--json`'s help
/// names the fields, where an installed binary has no guide beside it.
#[test]
fn help_says_what_each_command_does_with_goal_and_json() {
    let help = |command: &str| {
        let out = crate::util::query_in(Path::new("."))
            .args([command, "--help"])
            .output();
        String::from_utf8(out.unwrap().stdout).unwrap()
    };
    for command in [
        "solve",
        "random",
        "stats",
        "heuristics",
        "histogram",
        "compare",
    ] {
        let text = help(command);
        assert!(!text.contains("batch"), "{command}: {text}");
        assert!(!text.contains("docs/guide.md"), "{command}: {text}");
    }
    assert!(help("batch").contains("The goal of lines that give none"));
    assert!(help("stats").contains("\"farthest\": [every board at the maximum distance]"));
    assert!(help("heuristics").contains("\"inadmissible\""));
    assert!(help("random").contains("\"seed\""));
    assert!(help("histogram").contains("\"counts\""));
}

/// `stats`: `farthest` is a list of boards in JSON, and the CSV's count of
/// them is called `farthest_count`.
#[test]
fn farthest_means_one_thing() {
    let t = three_by_three();
    let v = json_answer(&t.path, &["stats", "--json"]);
    let lines = stdout_lines(&run_query(&t.path, &["stats", "--csv"], 0));
    assert!(
        lines[0].ends_with(",max_distance,farthest_count"),
        "{}",
        lines[0]
    );
    for (table, record) in v["tables"].as_array().unwrap().iter().zip(&lines[1..]) {
        let boards = table["farthest"].as_array().unwrap();
        assert!(boards
            .iter()
            .all(|b| b.as_str().is_some_and(|b| b.len() == 9)));
        assert!(record.ends_with(&format!(",{}", boards.len())), "{record}");
    }
}

/// With NPUZZLE_DB naming a file of another board, the advice is to unset
/// it (naming the file that `query` then opens) or to pass --db, and a
/// board of the wrong size says where the size came from.
#[test]
fn advice_knows_the_file_came_from_npuzzle_db() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::copy(&temp_db("2x3").path, dir.path().join("data/2x3.db")).unwrap();
    let env_query = |db: &Path, args: &[&str]| {
        let mut cmd = crate::util::query_in(dir.path());
        cmd.env("NPUZZLE_DB", db)
            .args(args)
            .assert()
            .code(2)
            .stdout("")
    };
    env_query(
        &three_by_three().path,
        &["--board", "2x3", "solve", "123450"],
    )
    .stderr(
        predicate::str::contains("(from NPUZZLE_DB) holds 3x3 boards, not 2x3 (--board)")
            .and(predicate::str::contains(
                "unset NPUZZLE_DB to use data/2x3.db",
            ))
            .and(predicate::str::contains("build-db").not()),
    );
    // A --db of another board while NPUZZLE_DB is set: leaving out --db
    // alone would open NPUZZLE_DB's file, so the advice unsets it too.
    env_query(
        &three_by_three().path,
        &[
            "--board",
            "2x3",
            "--db",
            three_by_three().path.to_str().unwrap(),
            "solve",
            "123450",
        ],
    )
    .stderr(
        predicate::str::contains("holds 3x3 boards, not 2x3 (--board)").and(
            predicate::str::contains("leave out --db and unset NPUZZLE_DB to use data/2x3.db"),
        ),
    );
    // NPUZZLE_DB naming the very file query would fall back to, a 3x3
    // database in data/2x3.db: not "unset it to use it", but the rename.
    let misnamed = dir.path().join("data/2x3.db");
    std::fs::copy(&three_by_three().path, &misnamed).unwrap();
    env_query(&misnamed, &["--board", "2x3", "solve", "123450"]).stderr(
        predicate::str::contains(
            "holds 3x3 boards counted in single-tile moves, not what its name",
        )
        .and(predicate::str::contains(
            "rename it to 3x3.db, then build a 2x3.db",
        ))
        .and(predicate::str::contains("unset NPUZZLE_DB to use").not()),
    );
    // A 2x3 file of the other metric there is no misnaming: the file's
    // metric is taken where --metric is not given, --board or not.
    let plan = npuzzle::Plan::Complete {
        shape: "2x3".parse().unwrap(),
        metric: npuzzle::Metric::MultiTile,
        blanks: vec![5],
        paths: false,
    };
    std::fs::remove_file(&misnamed).unwrap();
    npuzzle::build(&misnamed, &plan, &|_, _| {}).unwrap();
    let mut cmd = crate::util::query_in(dir.path());
    let solved = cmd
        .env("NPUZZLE_DB", &misnamed)
        .args(["--board", "2x3", "distance", "123045"]);
    solved.assert().code(0).stdout("1\n");
    std::fs::copy(&temp_db("2x3").path, &misnamed).unwrap();
    // No 2x4 file anywhere: unset it, and build one.
    env_query(
        &three_by_three().path,
        &["--board", "2x4", "solve", "1234 5670"],
    )
    .stderr(predicate::str::contains(
        "unset NPUZZLE_DB, and build a 2x4 database with:",
    ));
    env_query(&temp_db("2x3").path, &["solve", "867254301"]).stderr(
        predicate::str::contains("expected 6 tiles for a 2x3 board")
            .and(predicate::str::contains("the board size, 2x3, is that of"))
            .and(predicate::str::contains(
                "(from NPUZZLE_DB): for another size, unset NPUZZLE_DB",
            )),
    );
    // A file of the other metric: unset it to reach the one in data/.
    std::fs::copy(&three_by_three().path, dir.path().join("data/3x3.db")).unwrap();
    let multi = &crate::util::temp_db_counting("3x3", npuzzle::Metric::MultiTile).path;
    env_query(multi, &["--metric", "stm", "solve", "867254301"]).stderr(
        predicate::str::contains("counts multi-tile moves, not single-tile")
            .and(predicate::str::contains("(or unset NPUZZLE_DB)"))
            .and(predicate::str::contains("--db").count(1)),
    );
}

/// Outside a checkout, advice names a build-db that exists: the one beside
/// this query (by its path when PATH does not find it), or, where none was
/// installed, how to install it.
#[test]
fn advice_names_a_build_db_that_exists() {
    let dir = tempfile::tempdir().unwrap();
    let built = assert_cmd::cargo::cargo_bin("build-db");
    let err = stderr_of(
        &crate::util::query_in(dir.path())
            .env("PATH", "/usr/bin:/bin")
            .args(["solve", "867254301"])
            .output()
            .unwrap(),
    );
    assert!(
        err.contains(&format!("build it with: {} --board 3x3", built.display())),
        "{err}"
    );
    // A query copied alone, as a user might install one binary.
    let lone = dir.path().join("query");
    std::fs::copy(assert_cmd::cargo::cargo_bin("query"), &lone).unwrap();
    let mut run = std::process::Command::new(&lone);
    run.env_remove("NPUZZLE_DB")
        .env("XDG_DATA_HOME", dir.path().join(".xdg"))
        .current_dir(dir.path())
        .args(["solve", "867254301"]);
    // Another test's child, forked while the copy was open for writing,
    // holds it open until its own exec: running the copy then fails with
    // "text file busy" for a moment (rust-lang/rust#114554).
    let out = (0..100)
        .map(|_| run.output())
        .find(|r| {
            let busy = matches!(r, Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy);
            if busy {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            !busy
        })
        .expect("the copy stays busy")
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2));
    // The note comes after the whole message, the command in one piece.
    let note = " (build-db is not installed beside this query; install it from a checkout of \
                npuzzle with: cargo install --path build-db)\n";
    assert!(err.ends_with(note), "{err}");
    assert!(err.contains("build it with: build-db --board 3x3"), "{err}");
    // Flags that follow the board (--out, and the board left to fill in)
    // stay with the command.
    let mut other = std::process::Command::new(&lone);
    other
        .env_remove("NPUZZLE_DB")
        .current_dir(dir.path())
        .args(["--db", "nowhere.db", "info"]);
    let err = stderr_of(&other.output().unwrap());
    assert!(
        err.contains("build-db --board RxC --out nowhere.db (RxC: its board)"),
        "{err}"
    );
    assert!(err.ends_with(note), "{err}");
}

/// `serve` skips a file it cannot read with advice that names the board
/// its name says, or none: never 3x3 for `data/4x4.db`, which would
/// overwrite a 15-puzzle file with an 8-puzzle one.
#[test]
fn serve_advice_on_a_skipped_file_names_only_the_board_its_name_says() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    // A preamble from a newer version: the board cannot be read from it.
    let newer = [&b"NPUZZLE\0"[..], &9u32.to_le_bytes(), &[0; 8], &[0; 100]].concat();
    std::fs::write(dir.path().join("data/4x4.db"), &newer).unwrap();
    std::fs::write(dir.path().join("data/odd.db"), &newer).unwrap();
    let err = stderr_of(
        &crate::util::query_in(dir.path())
            .args(["serve", "--port", "0"])
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap(),
    );
    let skipped = |name: &str| {
        err.lines()
            .find(|l| l.contains(name))
            .unwrap_or("")
            .to_string()
    };
    assert!(skipped("data/4x4.db").ends_with("--board 4x4)"), "{err}");
    assert!(
        skipped("data/odd.db").contains("--board RxC --out data/odd.db"),
        "{err}"
    );
    assert!(!err.contains("--board 3x3 --out"), "{err}");
}

/// `serve` without `--db` serves the file every command opens for a board
/// (its own name, in `data/` or the per-user folder) before any other
/// file of that board, whatever the names sort as.
#[test]
fn serve_prefers_the_file_every_command_opens() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let (data, user) = (dir.path().join("data"), dir.path().join(".xdg/npuzzle"));
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&user).unwrap();
    let two_by_three = &crate::util::temp_db("2x3").path;
    for other in [
        data.join("2x3-mine.db"),
        data.join("2x3-stm.db"),
        user.join("2x3-a.db"),
    ] {
        std::fs::copy(two_by_three, other).unwrap();
    }
    std::fs::copy(two_by_three, user.join("2x3.db")).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("query"))
        .env_remove("NPUZZLE_DB")
        .env("XDG_DATA_HOME", dir.path().join(".xdg"))
        .current_dir(dir.path())
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let said: Vec<String> = std::io::BufReader::new(child.stderr.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .take_while(|l| !l.contains("the page is at"))
        .collect();
    child.kill().unwrap();
    child.wait().unwrap();
    let serving = format!(
        "query: serving 2x3 boards from {}",
        user.join("2x3.db").display()
    );
    assert_eq!(said, [serving]);
}

/// `serve --db A --board B` where B's own file is there says to add it,
/// not to build a file that would replace it; where it is not, how to
/// build it.
#[test]
fn serve_with_db_advises_adding_the_boards_own_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    let three = three_by_three();
    let refused = |board: &str| {
        let out = crate::util::query_in(dir.path())
            .args(["serve", "--port", "0", "--board", board, "--db"])
            .arg(&three.path)
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        stderr_of(&out)
    };
    assert!(
        refused("2x3").contains("build one with: "),
        "{}",
        refused("2x3")
    );
    std::fs::copy(&three.path, dir.path().join("data/2x3.db")).unwrap();
    assert_eq!(
        refused("2x3"),
        "query: no 2x3 database is served (--board): --db names every file served; add --db \
         data/2x3.db\n"
    );
}

/// An address no client can connect to is refused before any work; one
/// of loopback written as IPv6 is not said to be reachable by others.
#[test]
fn hosts_no_client_reaches_are_refused() {
    for (host, kind) in [
        ("224.0.0.1", "a multicast address"),
        ("ff02::1", "a multicast address"),
        ("::ffff:239.1.1.1", "a multicast address"),
        ("255.255.255.255", "the broadcast address"),
    ] {
        let out = run_query(&three_by_three().path, &["serve", "--host", host], 2);
        let err = stderr_of(&out);
        assert!(
            err.contains(&format!("{kind}, which no client can connect to")),
            "{host}: {err}"
        );
    }
}

/// A 100,000-character `--host` is refused without echoing it whole.
#[test]
fn a_huge_host_is_refused_short() {
    let host = "x".repeat(100_000); // one argument stops at 128 KiB
    let out = run_query(&three_by_three().path, &["serve", "--host", &host], 2);
    assert!(stderr_of(&out).contains("not an IP address"));
    assert!(out.stderr.len() < 400, "{} bytes", out.stderr.len());
}

/// An output flag never costs the database: `--plot` or `--worksheet`
/// naming the file read (itself or through a link) is refused and the file
/// kept; `build-db --out` does not write over a file that is not a
/// database; a chart's missing folder is said, not made.
#[test]
fn outputs_never_write_over_a_database_or_a_stranger() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("puzzle.svg");
    std::fs::copy(&three_by_three().path, &db).unwrap();
    let original = std::fs::read(&db).unwrap();
    let link = dir.path().join("chart.svg");
    std::os::unix::fs::symlink(&db, &link).unwrap();
    let page = dir.path().join("page.html");
    std::fs::copy(&db, &page).unwrap();
    let (db_s, link_s, page_s) = (
        db.to_str().unwrap(),
        link.to_str().unwrap(),
        page.to_str().unwrap(),
    );
    let worksheet = ["random", "--distance", "5", "--worksheet"];
    for args in [
        vec!["histogram", "--plot", db_s],
        vec!["histogram", "--plot", link_s],
        [&worksheet[..], &[page_s]].concat(),
    ] {
        expect_code(&db, &args, 2).stderr(predicate::str::contains(
            "is an npuzzle database, not a file to write over",
        ));
    }
    assert_eq!(std::fs::read(&db).unwrap(), original);
    assert_eq!(std::fs::read(&page).unwrap(), original);

    let missing = dir.path().join("no-such-folder/sheet.html");
    expect_code(
        &db,
        &[&worksheet[..], &[missing.to_str().unwrap()]].concat(),
        2,
    )
    .stderr(predicate::str::contains("does not exist"));
    assert!(!dir.path().join("no-such-folder").exists());

    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "notes").unwrap();
    let out = run_build_db(&["--board", "2x2"], &notes, 2);
    assert!(
        stderr_of(&out).contains("exists and is not an npuzzle database"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "notes");
}

/// A file found by its name (`data/3x3.db`) must hold what the name says:
/// a 2×3 file put there would answer 3×3 questions with 2×3 distances.
#[test]
fn a_file_found_by_name_must_hold_what_its_name_says() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    let misnamed = dir.path().join("data/3x3.db");
    for (held, start, says) in [
        (
            "2x3",
            "123450",
            "holds 2x3 boards counted in single-tile moves",
        ),
        (
            "3x3-mtm",
            "867254301",
            "holds 3x3 boards counted in multi-tile moves",
        ),
    ] {
        let metric = match held {
            "3x3-mtm" => npuzzle::Metric::MultiTile,
            _ => npuzzle::Metric::SingleTile,
        };
        let size = held.trim_end_matches("-mtm");
        std::fs::copy(&crate::util::temp_db_counting(size, metric).path, &misnamed).unwrap();
        expect_code_in(dir.path(), &["distance", start], 2)
            .stdout("")
            .stderr(predicate::str::contains(says))
            .stderr(predicate::str::contains(format!(
                "rename it to {held}.db, then build a 3x3.db"
            )));
    }
    // A name that is taken is not offered: the rename would cost that file.
    std::fs::copy(&three_by_three().path, dir.path().join("data/2x3.db")).unwrap();
    std::fs::copy(&crate::util::temp_db("2x3").path, &misnamed).unwrap();
    expect_code_in(dir.path(), &["distance", "123450"], 2).stderr(predicate::str::contains(
        "2x3.db is there already, so move this one elsewhere",
    ));
    std::fs::remove_file(dir.path().join("data/2x3.db")).unwrap();
    std::fs::copy(&three_by_three().path, &misnamed).unwrap();
    expect_code_in(dir.path(), &["distance", "867254301"], 0).stdout("31\n");
}

/// A reader that stops early (`query … | head`) ends every command quietly
/// with exit code 0, JSON included; a standard input or output that cannot
/// be read or written says so, naming it, with exit code 2.
#[test]
fn a_closed_pipe_is_quiet_and_a_full_output_is_named() {
    let t = three_by_three();
    let query_to = |args: &[&str], stdout: std::process::Stdio| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("query"))
            .arg("--db")
            .arg(&t.path)
            .args(args)
            .stdout(stdout)
            .output()
            .unwrap()
    };
    // A folder given as the batch's input is named as such.
    let folder = std::fs::File::open(std::env::temp_dir()).unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("query"))
        .arg("--db")
        .arg(&t.path)
        .arg("batch")
        .stdin(folder)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("cannot read standard input: Is a directory"),
        "{}",
        stderr_of(&out)
    );
    for args in [
        &["heuristics", "--json"][..],
        &["histogram", "--json"],
        &["stats", "--json"],
        &["solve", "--json", "867254301"],
        &["random", "--count", "2000"],
        // Help and the version too, which clap prints.
        &["--help"],
        &["solve", "--help"],
        &["--version"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = query_to(args, writer.into());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr_of(&out));
        assert_eq!(stderr_of(&out), "", "{args:?}");

        let out = query_to(args, dev_full().into());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr_of(&out).contains("cannot write to standard output: No space left on device"),
            "{args:?}: {}",
            stderr_of(&out)
        );
    }
    // build-db alike: the file is built, and the summary's loss is said,
    // but not where the reader has gone (a closed pipe).
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("2x2.db");
    let build = |stdout: std::process::Stdio| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("build-db"))
            .args(["--board", "2x2", "--out"])
            .arg(&built)
            .stdout(stdout)
            .output()
            .unwrap()
    };
    let out = build(dev_full().into());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("the database is built, but its summary could not be written"),
        "{}",
        stderr_of(&out)
    );
    expect_code(&built, &["verify"], 0);
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = build(writer.into());
    assert_eq!(
        (out.status.code(), stderr_of(&out)),
        (Some(0), String::new())
    );
}

/// `serve` whose address cannot be written to a full standard output
/// stops with exit code 2, as every command does, not a panic's 101.
#[test]
fn serve_with_a_full_output_says_so() {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("query"))
        .arg("--db")
        .arg(&three_by_three().path)
        .args(["serve", "--port", "0"])
        .stdout(dev_full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("cannot write to standard output: No space left on device"),
        "{}",
        stderr_of(&out)
    );
}

/// `/dev/full`, opened for writing: every write to it fails, "No space left
/// on device".
fn dev_full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap()
}

/// A message that standard error cannot take (`2>/dev/full`, `2>&1 | head
/// -n 1`) is lost, but the exit code still tells: never a panic's 101.
#[test]
fn a_full_or_closed_standard_error_keeps_the_exit_code() {
    let t = three_by_three();
    let stderr_to = |program: &str, args: &[&str], stderr: std::process::Stdio| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin(program))
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(stderr)
            .status()
            .unwrap()
            .code()
    };
    let db = t.path.to_str().unwrap();
    for (program, args, code) in [
        ("query", &["--db", db, "distance", "x"][..], 2),
        ("query", &["--db", db, "--bogus"], 2),
        ("query", &["--db", db, "random", "--count", "1"], 0),
        (
            "query",
            &["--db", "/nowhere/3x3.db", "distance", "867254301"],
            2,
        ),
        ("build-db", &["--board", "9x9"], 2),
    ] {
        assert_eq!(
            stderr_to(program, args, dev_full().into()),
            Some(code),
            "{args:?}"
        );
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        assert_eq!(
            stderr_to(program, args, writer.into()),
            Some(code),
            "{args:?}"
        );
    }
}

/// An empty path names no file: each path flag says so, before any work.
#[test]
fn an_empty_path_is_refused_as_empty() {
    let t = three_by_three();
    let db = t.path.to_str().unwrap();
    for args in [
        &["--db", "", "distance", "867254301"][..],
        &["--db", db, "random", "--distance", "3", "--worksheet", ""],
        &[
            "--db",
            db,
            "random",
            "--distance",
            "3",
            "--worksheet",
            "w.html",
            "--key",
            "",
        ],
        &["--db", db, "histogram", "--plot", ""],
        &["--db", db, "compare-metrics", "--with", ""],
    ] {
        let out = assert_cmd::Command::cargo_bin("query")
            .unwrap()
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr_of(&out).contains("the path is empty: name a file"),
            "{args:?}: {}",
            stderr_of(&out)
        );
    }
    let out = assert_cmd::Command::cargo_bin("build-db")
        .unwrap()
        .args(["--out", ""])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("the path is empty: name a file"));
}

/// A file's name need not be UTF-8 on Linux: every path flag takes it, as
/// `$NPUZZLE_DB` does; any other argument that is not UTF-8 is named by its
/// place and the option before it, where clap names none.
#[cfg(target_os = "linux")]
#[test]
fn a_path_that_is_not_utf8_is_a_path() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let not_utf8 = |stem: &str, ext: &str| {
        let mut name = stem.as_bytes().to_vec();
        name.push(0xE9);
        name.extend_from_slice(ext.as_bytes());
        dir.path().join(OsStr::from_bytes(&name))
    };
    let db = not_utf8("caf", ".db");
    run_build_db(&["--board", "2x3", "-q"], &db, 0);
    // Each path flag, the database's own among them.
    let plot = not_utf8("chart", ".svg");
    let sheet = not_utf8("sheet", ".html");
    let mtm = not_utf8("mtm", ".db");
    run_build_db(&["--board", "2x3", "--metric", "mtm", "-q"], &mtm, 0);
    for (args, written) in [
        (vec![OsStr::new("distance"), OsStr::new("123450")], None),
        (
            vec!["histogram".as_ref(), "--plot".as_ref(), plot.as_os_str()],
            Some(&plot),
        ),
        (
            vec![
                "random".as_ref(),
                "--distance".as_ref(),
                "3".as_ref(),
                "--worksheet".as_ref(),
                sheet.as_os_str(),
            ],
            Some(&sheet),
        ),
        (
            vec![
                "compare-metrics".as_ref(),
                "--with".as_ref(),
                mtm.as_os_str(),
            ],
            None,
        ),
    ] {
        let out = query(&db).arg("--board=2x3").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr_of(&out));
        assert!(written.is_none_or(|file| file.is_file()), "{args:?}");
    }
    let out = query(&db)
        .args(["--board=2x3", "distance", "123450", "--goal"])
        .arg(OsStr::from_bytes(b"12345\xE9"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("argument 7 \"12345\u{fffd}\", after --goal, is not UTF-8 text"),
        "{}",
        stderr_of(&out)
    );
}

/// Tiles of another board size than the file given with `--db` holds: the
/// message says the size is the file's, and which size the tiles fit.
#[test]
fn a_board_of_another_size_than_the_files_says_so() {
    let t = three_by_three();
    let out = run_query(
        &t.path,
        &["distance", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"],
        2,
    );
    let said = stderr_of(&out);
    assert!(
        said.contains(&format!(
            "got 16; the board size, 3x3, is that of --db {}: 16 tiles fit a 4x4 board",
            t.path.display()
        )),
        "{said}"
    );
    // A mistyped board of the file's size gets no such note.
    let out = run_query(&t.path, &["distance", "86725430"], 2);
    assert!(
        !stderr_of(&out).contains("is that of --db"),
        "{}",
        stderr_of(&out)
    );
}

/// A draw at a distance on a board no database serves says what needs
/// none: a uniform draw, whose command then works.
#[test]
fn a_distance_draw_with_no_database_points_to_the_uniform_draw() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        crate::util::query_in(dir.path())
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["--board", "6x6", "random", "--distance", "5"]);
    assert_eq!(out.status.code(), Some(2));
    let advice = "(query --board 6x6 random --count 10)";
    assert!(stderr_of(&out).contains(advice), "{}", stderr_of(&out));
    let out = run(&["--board", "6x6", "random", "--count", "10"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(stdout_of(&out).lines().count(), 10);
}
