//! The binaries on a small pattern database (3×3, partition 4-4): build-db
//! writes it, and query answers from it as from complete tables, refusing
//! what needs every position's distance.

use crate::pattern_file::pattern_file;
use crate::util::{
    json_answer, json_lines, moves_of, query, run_batch, run_build_db, run_query, stdout_lines,
    stdout_of,
};

#[test]
fn build_db_writes_a_pattern_database_that_query_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.db");
    let out = run_build_db(&["--board", "3x3", "--partition", "4-4", "-q"], &path, 0);
    assert!(stdout_of(&out).contains("pattern database 4-4"));
    let info = stdout_of(&run_query(&path, &["info"], 0));
    assert!(info.contains("pattern database 4-4"), "{info}");
    assert!(info.contains("  1 2 3 4\n"), "{info}");
    run_query(&path, &["verify"], 0);
}

#[test]
fn build_db_refuses_an_unknown_partition() {
    // A folder of the test's own: were the partition ever accepted, the
    // build would write there and nowhere else.
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("x.db");
    let out = run_build_db(&["--board", "4x4", "--partition", "9-9"], &out_path, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("6-6-3, 7-8"), "{err}");
    assert!(!out_path.exists());
}

#[test]
fn solve_prints_moves_that_replay_and_json_counts_nodes() {
    let db = pattern_file("3x3", "4-4");
    let text = stdout_of(&run_query(&db, &["solve", "867254301"], 0));
    assert!(
        text.starts_with("867254301 -> 123456780: 31 moves\n"),
        "{text}"
    );
    let v = json_answer(&db, &["solve", "--json", "867254301"]);
    assert_eq!(v["distance"], 31);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    let moves = v["moves"].as_str().unwrap();
    let start = npuzzle::parse_board("867254301", npuzzle::Shape::THREE_BY_THREE).unwrap();
    let moves: Vec<npuzzle::Move> = moves
        .chars()
        .map(|c| npuzzle::Move::from_letter(c).unwrap())
        .collect();
    assert_eq!(
        start.replay(&moves),
        Some(npuzzle::Board::goal(npuzzle::Shape::THREE_BY_THREE))
    );
    assert_eq!(
        stdout_of(&run_query(&db, &["distance", "867254301"], 0)),
        "31\n"
    );
}

#[test]
fn korf_convention_goals_are_answered_through_a_symmetry() {
    let db = pattern_file("3x3", "4-4");
    let v = json_answer(
        &db,
        &["solve", "--json", "--goal", "012345678", "123456780"],
    );
    // The default goal to its half turn's blank-first goal: 8-puzzle
    // distance from 123456780 to 012345678 is 22.
    assert_eq!(v["goal"], "012345678");
    assert_eq!(v["distance"], 22);
}

#[test]
fn unsolvable_exits_1_and_bad_input_exits_2() {
    let db = pattern_file("3x3", "4-4");
    let out = run_query(&db, &["solve", "213456780"], 1);
    assert!(stdout_of(&out).starts_with("unsolvable: "));
    let v = crate::util::json_of(&run_query(&db, &["distance", "--json", "213456780"], 1));
    assert_eq!(v["solvable"], false);
    run_query(&db, &["solve", "12345678"], 2);
    // A goal with the blank in the middle: no symmetry takes it to a corner.
    let out = run_query(&db, &["solve", "--goal", "123405678", "867254301"], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("blank"));
}

#[test]
fn batch_answers_in_order_with_nodes_and_marks_bad_lines() {
    let db = pattern_file("3x3", "4-4");
    let input = "867254301\n123456780\nbad\n213456780\n867254301 123456780\n";
    let lines = json_lines(&run_batch(&db, &["batch", "--threads", "2"], input, 2));
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["distance"], 31);
    assert!(lines[0]["nodes"].as_u64().is_some());
    assert_eq!(lines[1]["distance"], 0);
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(lines[3]["solvable"], false);
    assert_eq!(lines[4]["distance"], 31);
    let csv = stdout_of(&run_batch(&db, &["batch", "--csv"], "867254301\n", 0));
    let (header, row) = csv.split_once('\n').unwrap();
    assert_eq!(
        header,
        "start,goal,solvable,distance,moves,reason,error,nodes,nodes_expanded,lower_bound"
    );
    let fields: Vec<&str> = row.trim_end().split(',').collect();
    // The work is the JSON's, column for field; no bound, as nothing ran out.
    let work = |key: &str| lines[0][key].to_string();
    assert_eq!(
        fields,
        [
            "867254301",
            "123456780",
            "true",
            "31",
            fields[4],
            "",
            "",
            &work("nodes"),
            &work("nodes_expanded"),
            ""
        ]
    );
    let board = |text| npuzzle::parse_board(text, npuzzle::Shape::THREE_BY_THREE).unwrap();
    let moves = moves_of(fields[4]);
    assert_eq!(moves.len(), 31);
    assert_eq!(board("867254301").replay(&moves), Some(board("123456780")));
}

/// A search stopped in the middle counts its work as a finished one does:
/// nodes generated, and fewer expanded (each expanded node generates at
/// least one child), in that order after the reason.
#[test]
fn a_timed_out_batch_line_counts_nodes_generated_and_expanded() {
    let db = pattern_file("4x4", "6-6-3");
    // Gasser's 80-move position, turned to this goal: far past the timeout.
    let input = "0 12 9 13 15 11 10 14 3 7 5 6 4 8 2 1\n";
    let args = [
        "--board",
        "4x4",
        "batch",
        "--threads",
        "1",
        "--timeout",
        "0.2",
    ];
    let out = run_batch(&db, &args, input.to_string(), 2);
    let line = stdout_of(&out);
    let json = json_lines(&out);
    let (nodes, expanded) = (
        json[0]["nodes"].as_u64().unwrap(),
        json[0]["nodes_expanded"].as_u64().unwrap(),
    );
    assert!(0 < expanded && expanded < nodes, "{line}");
    assert!(
        line.contains(&format!(
            "\"nodes\":{nodes},\"nodes_expanded\":{expanded},\"lower_bound\":"
        )),
        "{line}"
    );
    // At most the position's distance: 80 moves.
    assert!(json[0]["lower_bound"].as_u64().unwrap() <= 80, "{line}");
}

/// A line whose search ran past `--timeout` parsed and is solvable: its
/// record keeps both boards, and its reason says it timed out. The search
/// checks its deadline at the first node of every iteration, so a deadline
/// of a nanosecond always stops it.
#[test]
fn a_timed_out_batch_line_keeps_its_boards() {
    let db = pattern_file("3x4", "6-5");
    let (start, goal) = ("0 11 10 9 8 7 6 5 4 3 1 2", "1 2 3 4 5 6 7 8 9 10 11 0");
    let input = format!("{start}\t{goal}\n");
    let args = ["--board", "3x4", "batch", "--timeout", "1e-9"];
    let json = json_lines(&run_batch(&db, &args, input.clone(), 2));
    assert_eq!(json[0]["start"], start);
    assert_eq!(json[0]["goal"], goal);
    assert_eq!(json[0]["solvable"], true);
    assert_eq!(json[0]["distance"], serde_json::Value::Null);
    let reason = json[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("timed out after 0.000000001 s (--timeout)"),
        "{reason}"
    );
    assert!(json[0]["nodes"].as_u64().is_some());
    assert!(json[0]["nodes_expanded"].as_u64() <= json[0]["nodes"].as_u64());
    // The bound proved is the one the reason names, and no more than the
    // distance (the plain search of the same pair, with no time limit).
    let bound = json[0]["lower_bound"].as_u64().unwrap();
    assert!(
        reason.contains(&format!("stopped at bound {bound} after")),
        "{reason}"
    );
    let solved = json_lines(&run_batch(
        &db,
        &["--board", "3x4", "batch"],
        input.clone(),
        0,
    ));
    assert!(bound <= solved[0]["distance"].as_u64().unwrap());
    let csv = stdout_of(&run_batch(&db, &[&args[..], &["--csv"]].concat(), input, 2));
    let record = csv.lines().nth(1).unwrap();
    assert!(
        record.starts_with(&format!("{start},{goal},true,,,\"timed out after")),
        "{record}"
    );
    // The work and the bound in the last three columns, as JSON has them.
    let tail = format!(
        "nodes\",,{},{},{bound}",
        json[0]["nodes"], json[0]["nodes_expanded"]
    );
    assert!(record.ends_with(&tail), "{record}");
    // `solve --json` and `distance --json` print the same object, with the
    // message on stderr and exit code 2 (their text prints nothing).
    let pair = [start, "--goal", goal, "--timeout", "1e-9"];
    for command in ["solve", "distance"] {
        let args = [&["--board", "3x4", command, "--json"][..], &pair].concat();
        let out = run_query(&db, &args, 2);
        let one: serde_json::Value = serde_json::from_str(&stdout_of(&out)).unwrap();
        let keys =
            |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&one), keys(&json[0]), "{command}");
        for field in ["start", "goal", "solvable", "distance", "moves", "reason"] {
            assert_eq!(one[field], json[0][field], "{command} {field}");
        }
        assert!(one["lower_bound"].as_u64().unwrap() <= solved[0]["distance"].as_u64().unwrap());
        let err = crate::util::stderr_of(&out);
        assert!(err.contains("no solution within the time allowed"), "{err}");
        let text = run_query(&db, &[&["--board", "3x4", command][..], &pair].concat(), 2);
        assert!(text.stdout.is_empty(), "{command}");
    }
}

#[test]
fn commands_that_need_a_complete_table_refuse_and_say_why() {
    let db = pattern_file("3x3", "4-4");
    for args in [
        &["histogram"][..],
        &["solve", "--all", "867254301"],
        &["stats"],
        &["heuristics"],
    ] {
        let out = run_query(&db, args, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("needs complete tables") && err.contains("pattern database"),
            "{args:?}: {err}"
        );
    }
}

/// Positions at a distance are walked on a pattern database: each is as
/// far as asked by the complete table's count (a breadth-first search's),
/// distinct, the same for a seed, and the first of a larger count.
#[test]
fn random_at_a_distance_walks_to_positions_exactly_that_far() {
    let db = pattern_file("3x3", "4-4");
    let complete = crate::util::temp_db("3x3");
    let drawn = |args: &[&str]| {
        let all = [&["random", "--seed", "7"][..], args].concat();
        json_answer(&db, &all)
    };
    for (distances, count) in [("5", "3"), ("20", "20"), ("26..=28", "10")] {
        let v = drawn(&["--distance", distances, "--count", count, "--json"]);
        let starts: Vec<&str> = (v["positions"].as_array().unwrap().iter())
            .map(|p| p["start"].as_str().unwrap())
            .collect();
        assert_eq!(starts.len().to_string(), count);
        let unique: std::collections::HashSet<_> = starts.iter().collect();
        assert_eq!(unique.len(), starts.len(), "{starts:?}");
        let looked_up = json_lines(&run_batch(
            &complete.path,
            &["batch", "--format", "jsonl"],
            starts.join("\n") + "\n",
            0,
        ));
        for (p, answer) in v["positions"].as_array().unwrap().iter().zip(&looked_up) {
            assert_eq!(p["distance"], answer["distance"], "{p}");
        }
        let (lo, hi) = match distances.split_once("..=") {
            Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
            None => (distances.parse().unwrap(), distances.parse().unwrap()),
        };
        assert!(looked_up
            .iter()
            .all(|a| (lo..=hi).contains(&a["distance"].as_u64().unwrap())));
        // The same seed, the same positions; fewer, the first of them.
        let again = drawn(&["--distance", distances, "--count", "2", "--json"]);
        assert_eq!(again["positions"][0], v["positions"][0]);
        assert_eq!(again["positions"][1], v["positions"][1]);
    }
    // 3×3 has 1 position at distance 0, 2 at 1 and 4 at 2 (BFS). Within a
    // move of the goal they are counted, and more refused at once, as a
    // complete table refuses them; farther, the walks tell.
    for (distance, count, said) in [
        (
            "0",
            "2",
            "asked for 2 distinct positions, but only 1 lies at 0 moves",
        ),
        (
            "1",
            "3",
            "asked for 3 distinct positions, but only 2 lie at 1 move",
        ),
        (
            "0..=1",
            "4",
            "asked for 4 distinct positions, but only 3 lie at 0 to 1 moves",
        ),
        ("2", "5", "found 4 distinct positions at 2 moves, not 5"),
    ] {
        let out = run_query(
            &db,
            &["random", "--distance", distance, "--count", count],
            2,
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{err}");
    }
    let out = run_query(&db, &["random", "--distance", "32"], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    let said = "no position 32 moves from the goal was found in 256 walks, none of which ended \
                more than ";
    let farthest = err
        .split_once(said)
        .map(|(_, rest)| rest.split_once(' ').unwrap().0);
    // No 3x3 position lies more than 31 moves from its goal (BFS).
    assert!(farthest.unwrap().parse::<u32>().unwrap() <= 31, "{err}");
    // A range reaching far past the walks draws distances they cannot
    // reach: the message names the range and where the walks end.
    let out = run_query(&db, &["random", "--distance", "0..1000", "--seed", "1"], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(" moves from the goal (drawn from 0 to 999) was found"),
        "{err}"
    );
    let about = err
        .split_once("ask for a range up to about ")
        .expect(&err)
        .1;
    assert!(
        about.split(' ').next().unwrap().parse::<u32>().unwrap() <= 31,
        "{err}"
    );
    // Walks that reach a far distance a few times, then no more: the
    // message says how to draw those found, and that draws them.
    let out = run_query(
        &db,
        &["random", "--distance", "29", "--count", "40", "--seed", "1"],
        2,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let said = "no further position 29 moves from the goal was found in the next 256 walks";
    let (_, again) = err.split_once("; --count ").expect(&err);
    let (count, rest) = again.split_once(' ').unwrap();
    assert!(err.contains(said), "{err}");
    assert!(
        rest.starts_with("--seed 1 draws the ") && count != "0",
        "{err}"
    );
    let args = [
        "random",
        "--distance",
        "29",
        "--count",
        count,
        "--seed",
        "1",
    ];
    let v = json_answer(&db, &[&args[..], &["--json"]].concat());
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len().to_string(), count);
    let starts: Vec<&str> = positions
        .iter()
        .map(|p| p["start"].as_str().unwrap())
        .collect();
    let lines = starts.join("\n") + "\n";
    let looked_up = json_lines(&run_batch(&complete.path, &["batch"], lines, 0));
    assert!(looked_up.iter().all(|a| a["distance"] == 29), "{v}");
    let out = run_query(&db, &["random", "--distance", "5", "--count", "1001"], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 1000 positions, not 1001"));
    // The walks are solved on one thread: the same positions whatever the
    // cores.
    let draws: Vec<Vec<u8>> = ["1", "2", "8"]
        .iter()
        .map(|threads| {
            let args = [
                "random",
                "--distance",
                "26",
                "--count",
                "30",
                "--seed",
                "11",
            ];
            let out = query(&db)
                .env("RAYON_NUM_THREADS", threads)
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success());
            out.stdout
        })
        .collect();
    assert!(draws.iter().all(|d| *d == draws[0]));
    // Past the farthest distance proved on 4x4 and 5x5, refused before
    // any search: a search of the 5x5 walks' ends would take hours.
    for (size, partition, distance, farthest) in [
        ("4x4", "6-6-3", "81", 80),
        ("5x5", "4-4-4-4-4-4", "211", 210),
        ("5x5", "4-4-4-4-4-4", "4000000000", 210),
    ] {
        let file = pattern_file(size, partition);
        let out = run_query(
            &file,
            &["--board", size, "random", "--distance", distance],
            2,
        );
        let err = String::from_utf8_lossy(&out.stderr);
        let refusal = format!(
            "no {size} position lies {distance} moves from its goal: none lies more than \
             {farthest} moves away"
        );
        assert!(err.contains(&refusal), "{err}");
    }
    // A move no 5x5 position allows is refused before the start's search,
    // which would take hours (a broken refusal fails at the timeout).
    let file = pattern_file("5x5", "4-4-4-4-4-4");
    let far = "24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0";
    for (moves, refusal) in [
        (
            "99",
            "move 1 is tile 99: the tiles of a 5x5 board are 1 to 24",
        ),
        (
            "L R5",
            "move 2 is \"R5\": on a 5x5 board a slide left or right moves at most 4 tiles",
        ),
    ] {
        let args = ["--board", "5x5", "check", "--timeout", "60", far, moves];
        let out = run_query(&file, &args, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err, format!("query: bad moves: {refusal}\n"));
    }
    let sixteen = pattern_file("4x4", "6-6-3");
    // A draw past its --timeout says what it searched for, and what may
    // find them, in the words of every face.
    let args = [
        "--board",
        "4x4",
        "random",
        "--distance",
        "62",
        "--count",
        "1000",
    ];
    let mut stopped = args.to_vec();
    stopped.extend(["--seed", "1", "--timeout", "0.01"]);
    let err = String::from_utf8_lossy(&run_query(&sixteen, &stopped, 2).stderr).into_owned();
    assert!(
        err.starts_with(
            "query: the draw searches for each position's shortest solution, and one search \
             stopped: no solution within the time allowed"
        ),
        "{err}"
    );
    assert!(
        err.contains("(--timeout 0.01 s); more time, or fewer moves or positions, may find them"),
        "{err}"
    );
    // Positions found before the search that stopped are the first the
    // seed draws: the message says how to draw them alone, and that draw
    // gives as many. (Seed 3's first few lie few moves away, found in
    // milliseconds even in a debug build; a later one takes minutes.)
    let walk = [
        "--board",
        "4x4",
        "random",
        "--distance",
        "1..62",
        "--seed",
        "3",
    ];
    let mut stopped = walk.to_vec();
    stopped.extend(["--count", "1000", "--timeout", "2"]);
    let err = String::from_utf8_lossy(&run_query(&sixteen, &stopped, 2).stderr).into_owned();
    let (_, again) = err.split_once("may find them; --count ").expect(&err);
    let (found, rest) = again.split_once(' ').unwrap();
    let many = match found {
        "1" => "the one position found before it, given the time it took".to_string(),
        n => format!("the {n} positions found before it, given the time they took"),
    };
    assert_eq!(rest, format!("--seed 3 draws {many}\n"), "{err}");
    let mut again = walk.to_vec();
    again.extend(["--count", found, "--timeout", "600"]);
    let out = run_query(&sixteen, &again, 0);
    assert_eq!(
        stdout_lines(&out).len(),
        found.parse::<usize>().unwrap(),
        "{err}"
    );
}

/// `compare` on a pattern database: the textbook searches are the same as
/// beside the complete table, and the truth is the search's, with the
/// complete table's distance.
#[test]
fn compare_runs_the_textbook_searches_against_the_search() {
    let db = pattern_file("3x3", "4-4");
    let complete = crate::util::temp_db("3x3");
    for start in ["680247531", "867254301"] {
        let args = ["compare", "--json", "--depth-limit", "31", start];
        let searched = json_answer(&db, &args);
        let looked_up = json_answer(&complete.path, &args);
        assert_eq!(
            (
                searched["database"].as_str(),
                looked_up["database"].as_str()
            ),
            (Some("search"), Some("lookup"))
        );
        assert_eq!(searched["distance"], looked_up["distance"]);
        // The search's expansions are `solve`'s (the same split, the same
        // threads); a lookup has none.
        let solved = json_answer(&db, &["solve", "--json", start]);
        assert_eq!(searched["database_expanded"], solved["nodes_expanded"]);
        assert!(searched["database_expanded"].as_u64() > Some(0));
        assert_eq!(looked_up["database_expanded"], serde_json::Value::Null);
        let runs = |v: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value, serde_json::Value)> {
            (v["algorithms"].as_array().unwrap().iter())
                .map(|r| (r["algorithm"].clone(), r["moves"].clone(), r["expanded"].clone()))
                .collect()
        };
        assert_eq!(runs(&searched), runs(&looked_up));
    }
    let text = stdout_of(&run_query(&db, &["compare", "680247531"], 0));
    assert!(
        text.contains("\ndatabase search                 24      yes       "),
        "{text}"
    );
}

/// `compare` with no file, or with a file that has no table toward the
/// goal: the truth is IDA*'s over linear conflicts (`database`
/// `linear-conflict`), with the distance of the complete table or of a
/// plain breadth-first search, and the textbook searches are the same.
#[test]
fn compare_needs_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let complete = crate::util::temp_db("3x3");
    let runs = |v: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value)> {
        (v["algorithms"].as_array().unwrap().iter())
            .map(|r| (r["algorithm"].clone(), r["moves"].clone()))
            .collect()
    };
    for start in ["680247531", "867254301"] {
        let args = [
            "compare",
            "--json",
            "--depth-limit",
            "31",
            "--max-nodes",
            "20000",
            start,
        ];
        let out = crate::util::expect_code_in(dir.path(), &args, 0);
        let searched: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        let looked_up = json_answer(&complete.path, &args);
        assert_eq!(searched["database"], "linear-conflict");
        assert_eq!(searched["distance"], looked_up["distance"]);
        assert!(searched["database_expanded"].as_u64() > Some(0));
        assert_eq!(runs(&searched), runs(&looked_up));
    }
    // A pattern file with no table toward the goal (the blank in the
    // centre): the same, and standard error says why.
    let patterns = pattern_file("3x3", "4-4");
    let args = [
        "compare",
        "--json",
        "867254301",
        "--goal",
        "123405678",
        "--max-nodes",
        "20000",
    ];
    let out = crate::util::expect_code(&patterns, &args, 0);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("searched over linear conflicts instead, as with no file"),
        "{stderr}"
    );
    let searched: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let looked_up = json_answer(&complete.path, &args);
    assert_eq!(searched["database"], "linear-conflict");
    assert_eq!(searched["distance"], looked_up["distance"]);
    assert_eq!(runs(&searched), runs(&looked_up));
    // On 3x4 near the goal, against a plain breadth-first search.
    let goal: Vec<u8> = (1..12).chain([0]).collect();
    let near = crate::util::plain_bfs_within(3, 4, &goal, 8);
    let mut far: Vec<_> = near.iter().filter(|(_, &d)| d == 8).collect();
    far.sort();
    for (cells, &distance) in far.into_iter().take(5) {
        let start: Vec<String> = cells.iter().map(u8::to_string).collect();
        let start = start.join(" ");
        let args = ["--board", "3x4", "compare", &start, "--json"];
        let out = crate::util::expect_code_in(dir.path(), &args, 0);
        let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(v["distance"], distance, "{start}");
    }
    // The text names the search, not a database.
    let args = ["compare", "680247531", "--max-nodes", "20000"];
    let out = crate::util::expect_code_in(dir.path(), &args, 0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.starts_with(
            "680247531 -> 123456780: 24 moves (no file: IDA* over linear conflicts)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("\nidastar-linear-conflict         24      yes"),
        "{text}"
    );
    // Stopped by --timeout on 4x4 (Korf's hardest, 66 moves), the advice
    // names the pattern databases.
    let hardest = "15 14 0 4 11 1 6 13 7 5 8 9 3 2 10 12";
    let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let args = [
        "--board",
        "4x4",
        "compare",
        hardest,
        "--goal",
        goal,
        "--timeout",
        "0.05",
    ];
    let out = crate::util::expect_code_in(dir.path(), &args, 2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("its search (no file) stopped")
            && stderr.contains("pattern databases search far sooner (build-db --board 4x4)"),
        "{stderr}"
    );
}

#[test]
fn info_and_verify_speak_json() {
    let db = pattern_file("3x3", "4-4");
    let v = json_answer(&db, &["info", "--json"]);
    assert_eq!(v["kind"], "pattern");
    assert_eq!(v["partition"], "4-4");
    assert_eq!(v["tables"].as_array().unwrap().len(), 2);
    let v = json_answer(&db, &["verify", "--json"]);
    assert_eq!(v["ok"], true);
}

/// Every key of an object, and of the first object of each list in it, as
/// paths (`tables[].entries`). A value that is an object where the other
/// kind has `null` (a complete table's path table) counts as its key alone.
fn key_paths(value: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    let serde_json::Value::Object(map) = value else {
        return;
    };
    for (key, inner) in map {
        let path = format!("{prefix}{key}");
        if let Some(first) = inner.as_array().and_then(|items| items.first()) {
            key_paths(first, &format!("{path}[]."), out);
        }
        out.push(path);
    }
}

/// `info --json` and `verify --json` give the same keys, nested ones too,
/// for complete tables and pattern databases of the same board.
#[test]
fn info_and_verify_give_the_same_keys_for_both_kinds() {
    let complete = crate::util::temp_db("3x3").path.clone();
    let pattern = pattern_file("3x3", "4-4");
    for command in ["info", "verify"] {
        let keys = |path: &std::path::Path| {
            let mut keys = Vec::new();
            key_paths(&json_answer(path, &[command, "--json"]), "", &mut keys);
            keys.sort();
            keys
        };
        let (of_complete, of_pattern) = (keys(&complete), keys(&pattern));
        assert!(
            of_complete.contains(&"tables[].goal_blank".to_string()),
            "{of_complete:?}"
        );
        assert_eq!(of_complete, of_pattern, "{command} --json");
    }
    let kinds = |path: &std::path::Path| json_answer(path, &["info", "--json"])["kind"].clone();
    assert_eq!(
        (kinds(&complete), kinds(&pattern)),
        ("complete".into(), "pattern".into())
    );
}

#[test]
fn a_damaged_pattern_file_is_refused_or_caught() {
    let good = std::fs::read(pattern_file("3x3", "4-4")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.db");
    // The header's last byte: refused at open, with advice to rebuild.
    let mut bad = good.clone();
    *bad.last_mut().unwrap() ^= 0xFF;
    std::fs::write(&path, &bad).unwrap();
    let out = run_query(&path, &["solve", "867254301"], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a usable database"), "{err}");
    assert!(err.contains("build-db"), "{err}");
    // A table byte: opens, and verify says it is damaged.
    let mut bad = good;
    bad[4096 + 100] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    let out = run_query(&path, &["verify"], 2);
    assert!(stdout_of(&out).contains("checksum MISMATCH"));
}

#[test]
fn timeout_gives_up_with_a_clear_error() {
    let db = pattern_file("3x3", "4-4");
    query(&db)
        .args(["solve", "--timeout", "abc", "867254301"])
        .assert()
        .code(2);
    // A deadline of a microsecond: the search stops at its first check
    // or finishes first; either way the exit code says which.
    let out = query(&db)
        .args(["solve", "--timeout", "0.000001", "867254301"])
        .output()
        .unwrap();
    match out.status.code() {
        Some(0) => {}
        Some(2) => assert!(String::from_utf8_lossy(&out.stderr).contains("within the time")),
        other => panic!("exit {other:?}"),
    }
    // A nanosecond stops every search at its first check. The advice:
    // complete tables where the board has them, else a stronger partition
    // where there is one (else, on a default partition, `solve --within`).
    let korf_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let sixteen = [
        "--board",
        "4x4",
        "--goal",
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
    ];
    for (file, args, advice) in [
        (
            db,
            vec!["867254301"],
            "or complete tables answer at once (build-db --board 3x3)",
        ),
        (
            pattern_file("4x4", "6-6-3"),
            [&sixteen[..], &[korf_1]].concat(),
            "or a stronger partition (build-db --partition) finds it sooner",
        ),
    ] {
        let out = query(&file)
            .args(["solve", "--timeout", "1e-9"])
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(advice), "{err}");
    }
}

/// Each bad `--timeout` gets its own reason, exit 2, for every command
/// that searches, and a huge value is not echoed whole.
#[test]
fn each_bad_timeout_says_what_is_wrong_with_it() {
    let db = pattern_file("3x3", "4-4");
    let huge = "9".repeat(100_000);
    let cases = [
        ("abc", "not a number of seconds"),
        ("", "not a number of seconds"),
        ("1_000", "not a number of seconds"),
        ("nan", "NaN is not a number of seconds"),
        ("0", "must be above 0 seconds"),
        ("-1", "must be above 0 seconds"),
        ("-inf", "must be above 0 seconds"),
        ("inf", "an infinite timeout is no limit"),
        ("1e300", "above the limit of 1000000000 seconds"),
        ("1000000001", "above the limit of 1000000000 seconds"),
        (huge.as_str(), "above the limit of 1000000000 seconds"),
        ("1e-12", "the shortest timeout is 1e-9"),
    ];
    for (value, reason) in cases {
        let flag = format!("--timeout={value}");
        for command in [
            &["solve", "867254301", flag.as_str()][..],
            &["distance", "867254301", flag.as_str()],
            &["batch", flag.as_str()],
        ] {
            let out = run_query(&db, command, 2);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(reason), "{value:.20}: {err}");
            assert!(err.len() < 400, "{value:.20}: {} bytes", err.len());
            assert!(out.stdout.is_empty());
        }
    }
    // Given apart from its flag, a value that starts with a minus is still
    // the flag's value, not another flag.
    for value in ["-inf", "-1"] {
        let out = run_query(&db, &["solve", "867254301", "--timeout", value], 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("must be above 0 seconds"), "{value}: {err}");
    }
    // The limit itself, and the shortest, are accepted.
    for value in ["1000000000", "1e-9"] {
        let out = query(&db)
            .args(["distance", "123456708", "--timeout", value])
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 2)),
            "{value}: {:?}",
            out.status
        );
        if out.status.code() == Some(2) {
            // A nanosecond may run out before the one-move search ends.
            assert!(String::from_utf8_lossy(&out.stderr).contains("within the time"));
        }
    }
}

/// 3×5 and 5×3 list both their partitions; a partition of another board,
/// an empty name, or a board without named partitions is refused with the
/// names there are.
#[test]
fn partitions_are_listed_per_board_and_others_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.db");
    let refusal = |board: &str, partition: &str| {
        let output = run_build_db(&["--board", board, "--partition", partition, "-q"], &out, 2);
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    for board in ["3x5", "5x3"] {
        let err = refusal(board, "7-8");
        assert!(
            err.contains(&format!("for a {board} board; known: 7-7, 6-6-2")),
            "{err}"
        );
    }
    let err = refusal("4x4", "7-7");
    assert!(
        err.contains("no partition named \"7-7\" for a 4x4 board; known: 6-6-3, 7-8"),
        "{err}"
    );
    let err = refusal("4x4", "");
    assert!(
        err.contains("no partition named \"\" for a 4x4 board"),
        "{err}"
    );
    let err = refusal("2x3", "4-4");
    assert!(
        err.contains("known: none (boards with named partitions: 4x4, 3x5"),
        "{err}"
    );
    // A board with no partition at all points to what works without one.
    let output = run_build_db(&["--board", "6x6", "-q"], &out, 2);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("no database can be built for 6x6 boards")
            && err.contains("with one: 4x4, 3x5, 5x3, 5x5, 4x5, 5x4)")
            && err.contains("query --board 6x6 solve --within 2 BOARD"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written for a refused partition");
}

/// `build-db --help` names every board that has named partitions, and
/// each of their names, so that the help never falls behind the library.
#[test]
fn build_db_help_names_every_partition() {
    use npuzzle::pattern::Partition;
    let out = assert_cmd::Command::cargo_bin("build-db")
        .unwrap()
        .arg("--help")
        .output()
        .unwrap();
    // The help wraps lines at the terminal's width: compare words.
    let help = String::from_utf8(out.stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for board in Partition::boards() {
        assert!(help.contains(&board), "{board} missing from: {help}");
        let shape = board.parse().unwrap();
        for name in Partition::names(shape) {
            assert!(help.contains(name), "{name} ({board}) missing from: {help}");
        }
    }
}

/// A 5×5 position `moves` (letters) from the default goal, written out.
fn five_by_five_from_goal(moves: &str) -> (npuzzle::Board, String) {
    let shape = npuzzle::Shape::new(5, 5).unwrap();
    let mut board = npuzzle::Board::goal(shape);
    for letter in moves.chars() {
        board = board
            .apply(npuzzle::Move::from_letter(letter).unwrap())
            .unwrap();
    }
    (board, board.to_string())
}

/// 5×5 through the binaries, on a file of small tables: solve, distance
/// and batch agree, solutions replay, the JSON counts nodes, and a search
/// that cannot finish within `--timeout` gives up with exit 2.
#[test]
fn five_by_five_solve_distance_and_batch_agree() {
    let db = pattern_file("5x5", "4-4-4-4-4-4");
    let (board, start) = five_by_five_from_goal("UULLDRULLURDDRULDDRU");
    let v = json_answer(&db, &["--board", "5x5", "solve", "--json", &start]);
    let distance = v["distance"].as_u64().unwrap();
    assert!(distance <= 20 && distance.is_multiple_of(2), "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0 && v["nodes_expanded"].as_u64().is_some());
    let moves: Vec<npuzzle::Move> = v["moves"]
        .as_str()
        .unwrap()
        .chars()
        .map(|c| npuzzle::Move::from_letter(c).unwrap())
        .collect();
    assert_eq!(moves.len() as u64, distance);
    assert_eq!(
        board.replay(&moves),
        Some(npuzzle::Board::goal(board.shape()))
    );
    let text = stdout_of(&run_query(&db, &["--board", "5x5", "distance", &start], 0));
    assert_eq!(text, format!("{distance}\n"));
    let goal = npuzzle::Board::goal(board.shape()).to_string();
    let input = format!("{start}\n{goal}\n");
    let lines = json_lines(&run_batch(
        &db,
        &["--board", "5x5", "batch", "--threads", "2"],
        input,
        0,
    ));
    assert_eq!(lines[0]["distance"], distance);
    assert!(lines[0]["nodes"].as_u64().is_some());
    assert_eq!(lines[1]["distance"], 0);

    // The tiles reversed: solvable (276 inversions, blank home), and far
    // beyond what these tables solve in half a second.
    let reversed: Vec<String> = (0..25).rev().map(|t| t.to_string()).collect();
    let out = run_query(
        &db,
        &[
            "--board",
            "5x5",
            "solve",
            "--timeout",
            "0.5",
            &reversed.join(" "),
        ],
        2,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("within the time"), "{err}");
}

/// On a terminal, a search past a second shows the bound it is at, each
/// second, and clears the line before the answer (here a timeout's error).
/// `script` gives `query` a terminal.
#[cfg(target_os = "linux")]
#[test]
fn a_long_search_shows_its_bound_on_a_terminal() {
    if !crate::util::installed("script") {
        return;
    }
    // 200 random moves out: far beyond what 4-tile tables solve in seconds.
    let far = "4 13 12 1 9 16 2 8 14 3 17 7 10 5 15 11 6 20 22 19 18 21 24 23 0";
    let db = pattern_file("5x5", "4-4-4-4-4-4");
    let command = format!(
        "{} --board 5x5 --db {} distance --timeout 4 '{far}'",
        assert_cmd::cargo::cargo_bin("query").display(),
        db.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env_remove("NPUZZLE_DB")
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(shown.contains("\rquery: searching moves ≤ "), "{shown}");
    // Each second's line: the first wake may come late on a busy machine.
    assert!(shown.contains(" nodes before it), "), "{shown}");
    assert!(shown.contains(" s\x1b[K"), "{shown}");
    // Cleared, then the error on a line of its own.
    assert!(
        shown.contains("\r\x1b[Kquery: no solution within the time allowed"),
        "{shown}"
    );
}
