//! The routes of the page as a classroom tool: `/api/check`,
//! `/api/heuristics` and `/worksheet`, on complete tables and pattern
//! databases, against the command line and the library, and their
//! refusals.

use super::*;
use npuzzle::analysis::Evaluator;

/// The distance of every position along `letters` from `start`, from the
/// complete 3x3 table: what a grading must find.
fn along(start: &Board, letters: &str) -> Vec<u32> {
    let table = Database::open(&files().full_3x3).unwrap();
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let target = table.goal_table(&goal).unwrap();
    let mut at = *start;
    let mut ds = vec![target.distance(&at).unwrap()];
    for l in letters.chars() {
        at = at.apply(Move::from_letter(l).unwrap()).unwrap();
        ds.push(target.distance(&at).unwrap());
    }
    ds
}

#[test]
fn check_grades_as_the_distances_say_on_both_kinds_of_file() {
    let f = files();
    let start = npuzzle::parse_board("867254301", Shape::THREE_BY_THREE).unwrap();
    // Legal moves, then one off the board (the blank is in the bottom row).
    let legal = "URDLUULDRD";
    let ds = along(&start, legal);
    let away: Vec<usize> = (1..ds.len()).filter(|&i| ds[i] > ds[i - 1]).collect();
    assert!(!away.is_empty() && away.len() < legal.len(), "{ds:?}");
    let letters = format!("{legal}DDU");
    let end = legal.chars().fold(start, |b, l| {
        b.apply(Move::from_letter(l).unwrap()).unwrap()
    });
    for path in [&f.full_3x3, &f.pattern_3x3] {
        let server = start_with_one(path);
        let (status, v) = get(
            server.addr,
            &format!("/api/check?start=867254301&moves={letters}"),
        );
        assert_eq!(status, 200, "{v}");
        assert_eq!(
            v,
            serde_json::json!({
                "start": "867254301", "goal": "123456780", "moves": legal,
                "legal": false, "illegal_move": legal.len() + 1, "reaches_goal": false,
                "length": letters.len(), "optimal": 31, "excess": null,
                "end": end.to_string(), "remaining": ds[legal.len()], "away": away,
                "reversed_reaches_goal": false,
                "goal_reached_after": ds.iter().position(|&d| d == 0),
            }),
            "{}",
            path.display()
        );
    }
    // The tiles moved grade as the blank's letters; the solution is optimal.
    let server = full();
    let (_, solved) = get(server.addr, "/api/solve?start=123456708");
    assert_eq!(solved["moves"], "R");
    let (_, by_tiles) = get(server.addr, "/api/check?start=123456708&moves=5%2C5%2C8");
    let (_, by_letters) = get(server.addr, "/api/check?start=123456708&moves=udr");
    assert_eq!(by_tiles, by_letters);
    assert_eq!(by_tiles["excess"], 2);
    assert_eq!(by_tiles["away"], serde_json::json!([1]));
    assert_eq!(by_tiles["goal_reached_after"], 3);
    // Past the goal and back: reached after the first move.
    let (_, past) = get(server.addr, "/api/check?start=123456708&moves=RLR");
    assert_eq!(
        (past["goal_reached_after"].clone(), past["excess"].clone()),
        (1.into(), 2.into())
    );
    let (_, optimal) = get(server.addr, "/api/check?start=123456708&moves=R");
    assert_eq!(
        (optimal["reaches_goal"].clone(), optimal["excess"].clone()),
        (true.into(), 0.into())
    );
}

fn start_with_one(path: &Path) -> TestServer {
    start(&[path])
}

#[test]
fn heuristics_equal_the_command_lines_and_the_library() {
    let f = files();
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let eval = Evaluator::new(&goal);
    for path in [&f.full_3x3, &f.pattern_3x3] {
        let server = start_with_one(path);
        for start in [
            "867254301",
            "123456708",
            "123456780",
            "8 6 7 / 2 5 4 / 3 0 1",
        ] {
            let (status, v) = get(
                server.addr,
                &format!("/api/heuristics?start={}", enc(start)),
            );
            assert_eq!(status, 200, "{v}");
            assert_eq!(
                v,
                cli_json(path, &["heuristics", start, "--json"]),
                "{start}"
            );
            let board = npuzzle::parse_board(start, Shape::THREE_BY_THREE).unwrap();
            let d = v["distance"].as_u64().unwrap() as u32;
            let manhattan = eval.h(npuzzle::analysis::Heuristic::Manhattan, &board);
            assert_eq!(v["heuristics"][1]["h"], manhattan);
            let sum: u64 = v["manhattan_by_cell"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap())
                .sum();
            assert_eq!(sum, u64::from(manhattan));
            // manhattan+blank overestimates one move from the goal.
            if d == 1 {
                assert_eq!(v["heuristics"][3]["admissible_here"], false);
                assert_eq!(v["heuristics"][3]["overestimate"], 1);
            }
        }
    }
}

#[test]
fn on_4x4_heuristics_and_check_search_within_the_timeout() {
    let server = with_4x4();
    let goal = Board::goal("4x4".parse::<Shape>().unwrap());
    let start = walk(&goal, 12, 5);
    let (status, h) = get(
        server.addr,
        &format!(
            "/api/heuristics?board=4x4&start={}",
            enc(&start.to_string())
        ),
    );
    assert_eq!(status, 200, "{h}");
    let (_, solved) = get(
        server.addr,
        &format!("/api/solve?board=4x4&start={}", enc(&start.to_string())),
    );
    assert_eq!(h["distance"], solved["distance"]);
    // Toward a goal the file has no table for (the blank on an edge), as
    // with no file: searched over linear conflicts, no tables' estimate.
    let edge = npuzzle::parse_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", goal.shape()).unwrap();
    let near_edge = walk(&edge, 12, 6);
    let (status, unserved) = get(
        server.addr,
        &format!(
            "/api/heuristics?board=4x4&start={}&goal={}",
            enc(&near_edge.to_string()),
            enc(&edge.to_string())
        ),
    );
    assert_eq!(status, 200, "{unserved}");
    let options = npuzzle::pattern::SolveOptions::default();
    let truth =
        npuzzle::analysis::search_truth::<&[u8]>(None, &near_edge, &edge, &options).unwrap();
    assert_eq!(unserved["distance"], truth.exact().unwrap());
    assert!(unserved.get("pattern_database").is_none(), "{unserved}");
    assert!(h.get("pattern_database").is_some(), "{h}");
    let moves = solved["moves"].as_str().unwrap();
    let (status, c) = get(
        server.addr,
        &format!(
            "/api/check?board=4x4&start={}&moves={moves}",
            enc(&start.to_string())
        ),
    );
    assert_eq!(status, 200, "{c}");
    assert_eq!(
        (
            c["reaches_goal"].clone(),
            c["excess"].clone(),
            c["away"].clone()
        ),
        (true.into(), 0.into(), serde_json::json!([]))
    );
    // A worksheet's positions are walked on a pattern board, each solved.
    let (status, html) = raw(
        server.addr,
        &request("GET", "/worksheet?board=4x4&distance=10&count=2&seed=4"),
    );
    assert_eq!(status, 200, "{html}");
    assert_eq!(html.matches("<li class=\"puzzle\">").count(), 2);
    assert!(html.contains("4x4 puzzles, 10 moves from the goal (seed 4)"));
    // Its command draws the same board's puzzles, not 3x3 ones.
    let drawn_by = "<code>query --board 4x4 random --distance 10 --count 2 --seed 4</code>";
    assert!(html.contains(drawn_by), "{html}");
}

#[test]
fn the_worksheet_is_the_command_lines_page_with_its_css_linked() {
    let f = files();
    let server = full();
    let (status, html) = raw(
        server.addr,
        &request("GET", "/worksheet?distance=14&count=3&seed=5"),
    );
    assert_eq!(status, 200);
    assert!(html.contains("<code>query random --distance 14 --count 3 --seed 5</code>"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.html");
    let db = Database::open(&f.full_3x3).unwrap();
    // `query random --distance 14 --count 3 --seed 5` and the file flags.
    let write = |files: &[&str]| {
        let mut argv = [
            "query",
            "random",
            "--distance",
            "14",
            "--count",
            "3",
            "--seed",
            "5",
        ]
        .to_vec();
        argv.extend(files);
        let cli = crate::Cli::try_parse_from(argv).unwrap();
        let crate::Command::Random(args) = &cli.command else {
            unreachable!()
        };
        crate::random::run(&db, args, &mut Vec::new()).unwrap();
    };
    write(&["--worksheet", file.to_str().unwrap()]);
    let written = std::fs::read_to_string(&file).unwrap();
    let inline = format!("<style>\n{}</style>", crate::worksheet::CSS);
    assert_eq!(
        html.replace("<link rel=\"stylesheet\" href=\"/worksheet.css\">", &inline),
        written
    );
    assert_eq!(html.matches("<li class=\"puzzle\">").count(), 3);
    let (status, css) = raw(server.addr, &request("GET", "/worksheet.css"));
    assert_eq!((status, css.as_str()), (200, crate::worksheet::CSS));

    // Apart: the puzzles alone and the key alone, as `--key` writes them.
    let key = dir.path().join("k.html");
    write(&[
        "--worksheet",
        file.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
    ]);
    for (part, path) in [("puzzles", &file), ("key", &key)] {
        let (status, served) = raw(
            server.addr,
            &request(
                "GET",
                &format!("/worksheet?distance=14&count=3&seed=5&part={part}"),
            ),
        );
        assert_eq!(status, 200);
        let written = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            served.replace("<link rel=\"stylesheet\" href=\"/worksheet.css\">", &inline),
            written
        );
    }
    let puzzles = std::fs::read_to_string(&file).unwrap();
    let key = std::fs::read_to_string(&key).unwrap();
    assert_eq!(puzzles.matches("<li class=\"puzzle\">").count(), 3);
    assert!(!puzzles.contains("Answer key") && !puzzles.contains("class=\"moves\""));
    assert_eq!(key.matches("<td class=\"moves\">").count(), 3);
    assert!(!key.contains("<li class=\"puzzle\">"));
    // The key's solutions are the whole sheet's.
    let moves = |html: &str| -> Vec<String> {
        html.split("<td class=\"moves\">")
            .skip(1)
            .map(|s| s.split('<').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(moves(&key), moves(&html));
    let (status, v) = get(server.addr, "/worksheet?distance=14&part=answers");
    assert_eq!(
        (status, &v["code"]),
        (400, &serde_json::json!("bad_parameter")),
        "{v}"
    );
}

#[test]
fn absurd_values_of_the_new_parameters_are_refused_in_json() {
    let server = full();
    let long_moves = "U".repeat(200_000);
    let longest = "U".repeat(900);
    for (path, status, needle) in [
        (
            "/api/check?start=123456708",
            400,
            "missing parameter: moves",
        ),
        (
            "/api/check?start=123456708&moves=UX",
            400,
            "bad moves: move 2",
        ),
        (
            "/api/check?start=123456708&moves=5%20U",
            400,
            "mix letters and tile numbers",
        ),
        (
            "/api/check?start=123456708&moves=5%2099999999999",
            400,
            "bad moves: move 2",
        ),
        (
            "/api/check?start=123456708&moves=8%209",
            400,
            "bad moves: move 2 is tile 9: the tiles of a 3x3 board are 1 to 8",
        ),
        (
            "/api/check?start=123456708&moves=LU3",
            400,
            "bad moves: move 2 is \"U3\": on a 3x3 board a slide up or down moves at most 2 tiles",
        ),
        ("/api/check?moves=U", 400, "missing parameter: start"),
        ("/api/check?start=213456780&moves=U", 422, "inversion"),
        (
            "/api/check?start=123456708&moves=U&moves=D",
            400,
            "moves is given more than once: give it once",
        ),
        (
            &format!("/api/check?start=123456708&moves={long_moves}"),
            431,
            "over 16384 bytes",
        ),
        (
            &format!("/api/check?start=123456708&moves={longest}U{longest}"),
            414,
            "at most 1024",
        ),
        (
            &format!("/api/check?start=123456708&moves={longest}"),
            200,
            "",
        ),
        (
            "/api/check?board=7x7&start=1&moves=U",
            400,
            "bad board size",
        ),
        (
            "/api/check?board=2x2&start=1230&moves=U",
            404,
            "no 2x2 database",
        ),
        ("/api/heuristics", 400, "missing parameter: start"),
        ("/api/heuristics?start=12345678", 400, "expected 9 tiles"),
        ("/api/heuristics?start=213456780", 422, "inversion"),
        (
            "/api/heuristics?start=123456708&metric=mtm",
            400,
            "the heuristics: single-tile moves only; ask with metric=stm",
        ),
        (
            "/api/heuristics?start=123456780&goal=123456708&goal=1",
            400,
            "goal is given more than once: give it once",
        ),
        ("/worksheet", 400, "missing parameter: distance"),
        ("/worksheet?distance=99", 400, "no position is 99 moves"),
        ("/worksheet?distance=-1", 400, "bad distance"),
        (
            "/worksheet?distance=5&count=0",
            400,
            "count must be from 1 to 1000",
        ),
        (
            "/worksheet?distance=5&count=1001",
            400,
            "count must be from 1 to 1000",
        ),
        (
            "/worksheet?distance=5&count=99999999999999999999999999",
            400,
            "count must be from 1 to 1000",
        ),
        (
            "/worksheet?distance=5&seed=18446744073709551616",
            400,
            "seed must be from 0 to",
        ),
        (
            "/worksheet?distance=31&count=3",
            400,
            "only 2 lie at 31 moves",
        ),
        (
            "/worksheet?distance=5&nonsense=1",
            400,
            "/worksheet takes no nonsense: it reads",
        ),
    ] {
        let (got, body) = raw(server.addr, &request("GET", path));
        let shown: String = path.chars().take(80).collect();
        assert_eq!(got, status, "{shown}: {body}");
        if status != 200 {
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            let error = v["error"].as_str().unwrap();
            assert!(error.contains(needle), "{shown}: {error}");
        }
    }
}
