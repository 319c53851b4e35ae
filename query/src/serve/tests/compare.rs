//! `/api/compare`: the textbook searches on one position, as `query
//! compare --json` runs them, on complete tables, pattern databases and
//! with no file; and its limits: the expansions a request may ask for, a
//! turn a core, and the server's `--timeout`.

use super::*;

/// `query [--db PATH] --board B compare ARGS… --json`, run in-process, with
/// the times taken out: they vary from run to run, and nothing else does.
fn cli_compare(path: Option<&Path>, board: &str, args: &[&str]) -> serde_json::Value {
    let mut argv = vec!["query", "--board", board, "compare", "--json"];
    argv.extend_from_slice(args);
    let cli = crate::Cli::try_parse_from(argv).unwrap();
    let crate::Command::Compare(a) = &cli.command else {
        unreachable!("parsed as compare")
    };
    let db = path.map(|p| Database::open(p).unwrap());
    let mut out = Vec::new();
    crate::compare::run(db.as_ref(), board.parse().unwrap(), a, &mut out).unwrap();
    timeless(serde_json::from_slice(&out).unwrap())
}

fn timeless(mut v: serde_json::Value) -> serde_json::Value {
    v.as_object_mut().unwrap().remove("database_elapsed_ms");
    for run in v["algorithms"].as_array_mut().unwrap() {
        run.as_object_mut().unwrap().remove("elapsed_ms");
    }
    v
}

#[test]
fn compare_answers_as_the_command_line_on_every_kind_of_file_and_with_none() {
    let f = files();
    for (path, database) in [(&f.full_3x3, "lookup"), (&f.pattern_3x3, "search")] {
        let server = start(&[path]);
        for (start, extra) in [
            ("867254301", "&max_nodes=20000"),
            ("123456708", "&max_nodes=20000&depth_limit=3"),
            ("8 6 7 / 2 5 4 / 3 0 1", "&max_nodes=500&goal=123405678"),
            ("123456780", ""),
        ] {
            let (status, v) = get(
                server.addr,
                &format!("/api/compare?start={}{extra}", enc(start)),
            );
            assert_eq!(status, 200, "{v}");
            // The pattern file holds tables toward the default goal alone.
            let other_goal = extra.contains("goal") && database == "search";
            let truth = if other_goal {
                "linear-conflict"
            } else {
                database
            };
            assert_eq!(v["database"], truth, "{v}");
            // The same flags, as the command line names them.
            let mut args = vec![start];
            for pair in extra.split('&').filter(|p| !p.is_empty()) {
                let (name, value) = pair.split_once('=').unwrap();
                args.extend([
                    match name {
                        "max_nodes" => "--max-nodes",
                        "depth_limit" => "--depth-limit",
                        _ => "--goal",
                    },
                    value,
                ]);
            }
            assert_eq!(
                timeless(v),
                cli_compare(Some(path), "3x3", &args),
                "{start}"
            );
        }
    }
    // A 4x4 position on a server with no 4x4 file: IDA* over linear
    // conflicts gives the truth, as the command line's with no file.
    let server = start(&[&f.full_3x3]);
    let near = walk(&Board::goal("4x4".parse().unwrap()), 10, 2).to_string();
    let (status, v) = get(
        server.addr,
        &format!("/api/compare?board=4x4&start={}&max_nodes=5000", enc(&near)),
    );
    assert_eq!(
        (status, &v["database"]),
        (200, &"linear-conflict".into()),
        "{v}"
    );
    assert_eq!(
        timeless(v),
        cli_compare(None, "4x4", &[&near, "--max-nodes", "5000"])
    );
}

#[test]
fn compare_refuses_what_it_cannot_run() {
    let server = start(&[&files().full_3x3]);
    let s5: Vec<String> = (1..24).chain([0, 24]).map(|t| t.to_string()).collect();
    for (query, code, needle) in [
        (
            "start=867254301&max_nodes=0",
            "bad_parameter",
            "from 1 to 2000000",
        ),
        (
            "start=867254301&max_nodes=2000001",
            "bad_parameter",
            "--max-nodes takes up to 10000000",
        ),
        (
            "start=867254301&max_nodes=-5",
            "bad_parameter",
            "bad max_nodes \"-5\"",
        ),
        (
            "start=867254301&depth_limit=x",
            "bad_parameter",
            "bad depth_limit \"x\"",
        ),
        (
            "start=867254301&depth_limit=4294967296",
            "bad_parameter",
            "0 to 4294967295",
        ),
        (
            "start=867254301&metric=mtm",
            "bad_parameter",
            "single-tile moves only",
        ),
        (
            &format!("board=5x5&start={}", enc(&s5.join(" "))),
            "bad_parameter",
            "at most 16 cells",
        ),
        (
            "max_nodes=5",
            "missing_parameter",
            "missing parameter: start",
        ),
        (
            "start=867254301&part=key",
            "unknown_parameter",
            "takes no part",
        ),
        ("start=213456780", "unsolvable", "inversion"),
    ] {
        let (status, v) = get(server.addr, &format!("/api/compare?{query}"));
        assert_eq!(v["code"], code, "{query}: {v}");
        assert!(str_of(&v["error"]).contains(needle), "{query}: {v}");
        assert!(status >= 400, "{query}");
    }
    // An unsolvable start is answered as solve --json answers it.
    let (_, v) = get(server.addr, "/api/compare?start=213456780");
    assert_eq!(
        (&v["solvable"], &v["distance"]),
        (&false.into(), &serde_json::Value::Null)
    );
}

/// On a pattern board, a draw whose walks' searches run past the server's
/// `--timeout` says so, and to ask for fewer positions or distances (not
/// for a position closer to the goal: none was given).
#[test]
fn walks_past_the_timeout_ask_for_fewer_positions() {
    let server = start_with(&[pattern_4x4()], Duration::from_secs(1));
    let asked = "/api/compare?board=4x4&distance=60&count=1000&max_nodes=1";
    let (status, v) = get(server.addr, asked);
    assert_eq!((status, &v["code"]), (503, &"timed_out".into()), "{v}");
    let said = str_of(&v["error"]);
    assert!(said.contains("found by random walks"), "{said}");
    assert!(
        said.contains("ask for fewer positions (count) or distances"),
        "{said}"
    );
}

/// Each comparison holds a core: past one a core at once, a request is
/// answered 503 at once, unless it cannot run at all; a comparison past the
/// server's `--timeout` is answered 503, saying which search was slow, and
/// gives its turn back.
#[test]
fn compare_takes_a_turn_a_core_and_stops_at_the_timeout() {
    let server = start_with(&[&files().full_3x3], Duration::from_secs(1));
    // Its truth is found at once; breadth-first search alone takes seconds
    // to its 2,000,000 expansions.
    let near = walk(&Board::goal("4x4".parse().unwrap()), 30, 9);
    let slow = format!("/api/compare?board=4x4&start={}", enc(&near.to_string()));
    let turns = crate::serve::api::fileless_searches();
    let (answers, meanwhile) = std::thread::scope(|scope| {
        let asked: Vec<_> = (0..=turns)
            .map(|_| scope.spawn(|| get(server.addr, &slow)))
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        // What cannot run is refused as such while the turns are taken.
        let s5: Vec<String> = (1..24).chain([0, 24]).map(|t| t.to_string()).collect();
        let large = format!("board=5x5&start={}", enc(&s5.join(" ")));
        let meanwhile = [&*large, "start=213456780", "distance=40"].map(|q| {
            let (status, v) = get(server.addr, &format!("/api/compare?{q}"));
            (status, v["code"].clone())
        });
        let answers: Vec<(u16, serde_json::Value)> =
            asked.into_iter().map(|a| a.join().unwrap()).collect();
        (answers, meanwhile)
    });
    assert_eq!(
        meanwhile,
        [
            (400, "bad_parameter".into()),
            (422, "unsolvable".into()),
            (400, "bad_parameter".into())
        ]
    );
    let codes: Vec<&str> = answers
        .iter()
        .map(|(_, v)| v["code"].as_str().unwrap())
        .collect();
    assert!(
        answers.iter().all(|(status, _)| *status == 503),
        "{answers:?}"
    );
    let busy = codes.iter().filter(|&&c| c == "busy").count();
    let timed_out: Vec<&serde_json::Value> = (answers.iter())
        .filter(|(_, v)| v["code"] == "timed_out")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(busy + timed_out.len(), turns + 1, "{answers:?}");
    assert!(busy >= 1 && !timed_out.is_empty(), "{answers:?}");
    for v in timed_out {
        let said = str_of(&v["error"]);
        assert!(said.contains("the textbook searches ran past"), "{said}");
    }
    // The turns are free again.
    let (status, v) = get(server.addr, "/api/compare?start=123456708&max_nodes=100");
    assert_eq!(status, 200, "{v}");
    // Where the search for the truth is the slow part, it says where it
    // stopped: fewer expansions would not help.
    let (status, v) = get(
        server.addr,
        &format!("/api/compare?{}&max_nodes=10", far_4x4()),
    );
    assert_eq!((status, &v["code"]), (503, &"timed_out".into()), "{v}");
    let said = str_of(&v["error"]);
    assert!(
        said.contains("its search stopped: no solution within the time allowed"),
        "{said}"
    );
}

/// With `distance`, the searches averaged over positions drawn at each
/// distance (walked to on pattern boards): the command line's `compare
/// --distance --json`, its defaults too; refused where it cannot run.
#[test]
fn compare_at_distances_answers_as_the_command_line() {
    let f = files();
    let server = start(&[&f.full_3x3, pattern_4x4()]);
    for (query, args) in [
        (
            "distance=3..%3D4&count=3&seed=2&max_nodes=5000",
            &[
                "3..=4",
                "--count",
                "3",
                "--seed",
                "2",
                "--max-nodes",
                "5000",
            ][..],
        ),
        ("distance=1", &["1"][..]),
        (
            "distance=6&count=2&goal=123405678&depth_limit=8",
            &[
                "6",
                "--count",
                "2",
                "--goal",
                "123405678",
                "--depth-limit",
                "8",
            ][..],
        ),
    ] {
        let (status, v) = get(server.addr, &format!("/api/compare?{query}"));
        assert_eq!(status, 200, "{query}: {v}");
        let mut argv = vec!["compare", "--distance"];
        argv.extend_from_slice(args);
        argv.push("--json");
        assert_eq!(v, cli_json(&f.full_3x3, &argv), "{query}");
    }
    let (status, v) = get(
        server.addr,
        "/api/compare?board=4x4&distance=5..%3D6&count=3&max_nodes=2000",
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["drawn"], "walks", "{v}");
    let argv = "compare --distance 5..=6 --count 3 --max-nodes 2000 --json";
    let argv: Vec<&str> = argv.split(' ').collect();
    assert_eq!(v, cli_json(pattern_4x4(), &argv));
    for (query, code, needle) in [
        (
            "distance=32",
            "bad_parameter",
            "the farthest lies 31 moves away",
        ),
        (
            "distance=3&start=867254301",
            "bad_parameter",
            "start or distance, not both",
        ),
        (
            "start=867254301&count=3",
            "bad_parameter",
            "count goes with distance",
        ),
        (
            "start=867254301&seed=3",
            "bad_parameter",
            "seed goes with distance",
        ),
        (
            "distance=3&count=1001",
            "bad_parameter",
            "count must be from 1 to 1000",
        ),
        (
            "board=4x4&distance=81",
            "bad_parameter",
            "the farthest lies 80 moves away",
        ),
        (
            "board=2x3&distance=3",
            "board_not_served",
            "no 2x3 database is served",
        ),
    ] {
        let (_, v) = get(server.addr, &format!("/api/compare?{query}"));
        assert_eq!(v["code"], code, "{query}: {v}");
        assert!(str_of(&v["error"]).contains(needle), "{query}: {v}");
    }
}
