//! `query check`: a move list graded against the database, each verdict
//! checked against facts found apart from it (a solution `solve` printed
//! and replayed, moves that undo each other, parity).

use crate::util::{
    json_lines, query, run_batch, run_query, stderr_of, stdout_of, temp_db, temp_db_counting,
};
use npuzzle::{parse_board, Board, Metric, Move, Shape};

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_str(&stdout_of(out)).unwrap()
}

/// A shortest solution grades as one; the same with a move out and back
/// appended is two longer, with the move out named; each move checked by
/// replaying it.
#[test]
fn a_solution_and_a_detour_are_graded_by_their_length() {
    let t = temp_db("3x3");
    let start = "867254301";
    let solved = json(&run_query(&t.path, &["solve", "--json", start], 0));
    let moves = solved["moves"].as_str().unwrap().to_string();
    assert_eq!(moves.len(), 31);
    let out = run_query(&t.path, &["check", start, &moves], 0);
    assert_eq!(
        stdout_of(&out),
        "867254301 -> 123456780: 31 moves reach the goal: a shortest solution\n"
    );
    // From the goal (blank bottom right), L then R leave and come back.
    let detour = format!("{moves}LR");
    let graded = json(&run_query(&t.path, &["check", "--json", start, &detour], 0));
    assert_eq!(graded["reaches_goal"], true);
    assert_eq!(
        (graded["length"].as_u64(), graded["excess"].as_u64()),
        (Some(33), Some(2))
    );
    assert_eq!(graded["away"], serde_json::json!([32]));
    assert_eq!(graded["moves"], serde_json::json!(detour));
    // The solution's last move put the board on the goal.
    assert_eq!(graded["goal_reached_after"], 31);
    let text = stdout_of(&run_query(&t.path, &["check", start, &detour], 0));
    assert_eq!(
        text,
        "867254301 -> 123456780: 33 moves reach the goal, 2 more than the shortest (31 moves)\n\
         the goal is reached after move 31: the moves after it are not needed\n\
         move 32 goes farther from the goal\n"
    );
    // Past the goal and not back: it ends a move away, which was not needed.
    let past = format!("{moves}L");
    let out = run_query(&t.path, &["check", start, &past], 1);
    assert!(
        stdout_of(&out).contains("the goal is reached after move 31: the moves after it"),
        "{}",
        stdout_of(&out)
    );
    let graded = json(&run_query(&t.path, &["check", "--json", start, &past], 1));
    assert_eq!(
        (
            graded["reaches_goal"].clone(),
            graded["goal_reached_after"].clone()
        ),
        (false.into(), 31.into())
    );
    // A solution that stops at the goal says nothing of the kind.
    let out = run_query(&t.path, &["check", start, &moves], 0);
    assert!(!stdout_of(&out).contains("not needed"));
    // The tiles moved grade as the blank's moves do.
    let board = parse_board(start, Shape::THREE_BY_THREE).unwrap();
    let mut tiles = Vec::new();
    let mut now = board;
    for letter in moves.chars() {
        let m = npuzzle::Move::from_letter(letter).unwrap();
        tiles.push(now.tile_moved_by(m).unwrap().to_string());
        now = now.apply(m).unwrap();
    }
    assert_eq!(now, Board::goal(Shape::THREE_BY_THREE));
    let by_tiles = json(&run_query(
        &t.path,
        &["check", "--json", start, &tiles.join(" ")],
        0,
    ));
    assert_eq!(
        by_tiles,
        json(&run_query(&t.path, &["check", "--json", start, &moves], 0))
    );
}

/// Lists that do not reach the goal exit 1 and say where they stop.
#[test]
fn moves_that_fall_short_or_leave_the_board_exit_1() {
    let t = temp_db("3x3");
    // The blank in the middle of the bottom row cannot go down.
    let out = run_query(&t.path, &["check", "123456708", "DR"], 1);
    assert_eq!(
        stdout_of(&out),
        "123456708 -> 123456780: move 1 is illegal: D (the blank at row 3, column 2 cannot \
         move down); the start is 1 move from the goal\n"
    );
    // Up and back down: legal, two moves, and where it started.
    let graded = json(&run_query(
        &t.path,
        &["check", "--json", "123456708", "UD"],
        1,
    ));
    assert_eq!(
        (graded["legal"].as_bool(), graded["reaches_goal"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(
        (graded["end"].as_str(), graded["remaining"].as_u64()),
        (Some("123456708"), Some(1))
    );
    assert_eq!(graded["away"], serde_json::json!([1]));
    // A tile that is not beside the blank is illegal there; one the board
    // lacks, or a slide longer than its side, is illegal everywhere: input
    // that cannot be read, refused before any distance is asked.
    let out = run_query(&t.path, &["check", "123456708", "8 1"], 1);
    assert!(
        stdout_of(&out).contains("move 2 is illegal: tile 1 (it is not next to the blank"),
        "{}",
        stdout_of(&out)
    );
    for (moves, refusal) in [
        (
            "8 9",
            "move 2 is tile 9: the tiles of a 3x3 board are 1 to 8",
        ),
        (
            "L U3",
            "move 2 is \"U3\": on a 3x3 board a slide up or down moves at most 2 tiles",
        ),
    ] {
        let out = run_query(&t.path, &["check", "123456708", moves], 2);
        assert_eq!(stderr_of(&out), format!("query: bad moves: {refusal}\n"));
    }
    // Two tiles swapped: no moves reach the goal, and the reason says why.
    let out = run_query(&t.path, &["check", "132456780", "R"], 1);
    assert!(stdout_of(&out).starts_with("unsolvable: the start has 1 tile inversion"));
}

/// A solution written in the tiles' directions (each letter the other
/// way) is not one here, and the answer says how it was likely meant.
#[test]
fn moves_written_as_the_tiles_directions_get_a_hint() {
    let t = temp_db("3x3");
    let solution = "RUULDDRUULDLDRRULLURRDLLDRUURDD";
    let turned: String = solution
        .chars()
        .map(|c| match c {
            'U' => 'D',
            'D' => 'U',
            'L' => 'R',
            _ => 'L',
        })
        .collect();
    let hint = "read as the ways the tiles slide, these moves reach the goal";
    let out = run_query(&t.path, &["check", "867254301", &turned], 1);
    assert!(stdout_of(&out).contains(hint), "{}", stdout_of(&out));
    let out = run_query(&t.path, &["check", "867254301", "RUUL"], 1);
    assert!(!stdout_of(&out).contains(hint), "{}", stdout_of(&out));
    // The JSON (the page's /api/check, Python's Check) says it too.
    let json = |moves: &str| {
        let out = run_query(&t.path, &["check", "867254301", moves, "--json"], 1);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    assert_eq!(json(&turned)["reversed_reaches_goal"], true);
    assert_eq!(json("RUUL")["reversed_reaches_goal"], false);
    let out = run_query(&t.path, &["check", "867254301", solution, "--json"], 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reversed_reaches_goal"], false);
}

/// What cannot be read is refused with exit code 2; a start written one
/// word per tile may stand unquoted before the moves, and moves a word
/// each after a start in one word.
#[test]
fn the_arguments_are_read_as_solve_reads_them() {
    let t = temp_db("3x3");
    let out = run_query(
        &t.path,
        &["check", "1", "2", "3", "4", "5", "6", "7", "0", "8", "R"],
        0,
    );
    assert!(stdout_of(&out).ends_with("1 move reaches the goal: a shortest solution\n"));
    for moves in [&["U", "L", "D", "R"][..], &["8", "6", "5", "8"]] {
        let args = [&["check", "123468750"][..], moves].concat();
        let out = run_query(&t.path, &args, 0);
        assert!(
            stdout_of(&out).ends_with("4 moves reach the goal: a shortest solution\n"),
            "{moves:?}"
        );
    }
    for (args, needle) in [
        (
            &["check", "123456708", "XR"][..],
            "bad moves: move 1 is \"X\"",
        ),
        (&["check", "123456708", "R0"], "bad moves: move 1 is \"R0\""),
        (
            &["check", "123456708", "R,,L"],
            "bad moves: move 2 is missing: there is nothing between two commas",
        ),
        (
            &["check", "1", "2", "3", "ULDR"],
            "quote a board or moves written with spaces",
        ),
        (&["check", "123456789", "R"], "bad start board"),
        // A tile missing from a start written a word per tile is named.
        (
            &["check", "1", "2", "3", "4", "5", "6", "7", "8", "R"],
            "bad start board \"1 2 3 4 5 6 7 8\": expected 9 tiles for a 3x3 board (the blank \
             included), got 8",
        ),
        // A start with no moves, in either writing, is said to lack them.
        (
            &["check", "123456708"],
            "got no moves: give them after the start",
        ),
        (
            &["check", "1", "2", "3", "4", "5", "6", "7", "0", "8"],
            "got no moves: give them after the start",
        ),
        // The goal's tiles unquoted, or a goal where the moves go, are
        // pointed to --goal.
        (
            &[
                "check",
                "123456708",
                "R",
                "--goal",
                "1",
                "2",
                "3",
                "4",
                "5",
                "6",
                "7",
                "8",
                "0",
            ],
            "--goal took only \"1\"",
        ),
        (
            &["check", "123456708", "123456780"],
            "the moves, 123456780, are a board: a goal is given with --goal",
        ),
    ] {
        let out = query(&t.path).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr_of(&out).contains(needle),
            "{args:?}: {}",
            stderr_of(&out)
        );
        assert_eq!(stdout_of(&out), "");
    }
    // Options may stand between the two.
    let out = run_query(&t.path, &["check", "123456708", "--json", "R"], 0);
    assert!(stdout_of(&out).contains("\"reaches_goal\":true"));
    let long = "LR".repeat(30_000);
    let out = query(&t.path)
        .args(["check", "123456708", &long])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("60000 moves: at most 10000 moves are graded at once"));
}

/// Moves are numbered as written, and the text says so where that is not
/// how they count; a slide past an illegal move still counts its tiles.
#[test]
fn moves_are_numbered_as_written() {
    let t = temp_db("3x3");
    let out = run_query(&t.path, &["check", "123456708", "U2 R D2"], 1);
    assert!(
        stdout_of(&out).contains("\nmoves 1, 2, 3 as written go farther from the goal\n"),
        "{}",
        stdout_of(&out)
    );
    let graded = json(&run_query(
        &t.path,
        &["check", "--json", "123456708", "L L2 R2"],
        1,
    ));
    assert_eq!(
        (graded["illegal_move"].as_u64(), graded["length"].as_u64()),
        (Some(2), Some(5))
    );
    let out = run_query(&t.path, &["check", "123456708", "L L2 R2"], 1);
    assert!(stdout_of(&out).contains("move 2 as written is illegal: L2 (the blank at row 3, column 1 cannot move left 2 cells)"), "{}", stdout_of(&out));
}

/// Under the multi-tile metric a slide is one move, written as `solve`
/// writes it; its solution grades as a shortest one.
#[test]
fn slides_grade_as_one_move_under_the_multi_tile_metric() {
    let t = temp_db_counting("3x3", Metric::MultiTile);
    let out = run_query(&t.path, &["check", "123456078", "R2"], 0);
    assert_eq!(
        stdout_of(&out),
        "123456078 -> 123456780: 1 move (multi-tile) reaches the goal: a shortest solution\n"
    );
    let solved = stdout_of(&run_query(&t.path, &["solve", "867254301"], 0));
    let slides = solved.lines().nth(1).unwrap();
    assert!(slides.contains('2'), "{slides}");
    let graded = json(&run_query(
        &t.path,
        &["check", "--json", "867254301", slides],
        0,
    ));
    assert_eq!(
        (graded["length"].as_u64(), graded["excess"].as_u64()),
        (Some(20), Some(0))
    );
}

/// On a pattern board each position the moves pass through is searched:
/// a walk out and its moves back grade against `distance`'s answer.
#[test]
fn a_pattern_board_grades_by_search() {
    let db = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let shape: Shape = "4x4".parse().unwrap();
    let goal = Board::goal(shape);
    // Up the last column, then left along the top: 3 + 3 moves out.
    let start = goal.replay(&crate::util::moves_of("UUULLL")).unwrap();
    let distance = stdout_of(&run_query(
        &db,
        &["--board", "4x4", "distance", &start.to_string()],
        0,
    ));
    let graded = json(&run_query(
        &db,
        &[
            "--board",
            "4x4",
            "check",
            "--json",
            &start.to_string(),
            "RRRDDD",
        ],
        0,
    ));
    assert_eq!(graded["optimal"].as_u64(), distance.trim().parse().ok());
    assert_eq!(graded["length"], 6);
    assert_eq!(graded["end"], serde_json::json!(goal.to_string()));
    // Past --timeout: more time is the advice, not a bounded search, which
    // cannot grade.
    let far = "0 12 9 13 15 11 10 14 3 7 5 6 4 8 2 1";
    let out = query(&db)
        .args(["--board", "4x4", "check", "--timeout", "0.05", far, "R"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = stderr_of(&out);
    assert!(
        said.contains("grading needs the distance of every position"),
        "{said}"
    );
    assert!(
        said.contains("a longer --timeout may find it") && !said.contains("--within"),
        "{said}"
    );
}

/// Each move is judged as the metric counts it, however it is written: a
/// run of letters the same way is one slide under the multi-tile metric
/// (numbered by its first letter), and a slide written `L2` is two moves
/// under the single-tile one (numbered by the slide). `away` is checked
/// against the distances `batch` looks up at each move's ends, on walks
/// that often repeat a way.
#[test]
fn moves_are_judged_as_the_metric_counts_them_whatever_the_writing() {
    for metric in [Metric::SingleTile, Metric::MultiTile] {
        let t = temp_db_counting("3x3", metric);
        let multi = metric == Metric::MultiTile;
        let mut seed = 0x9e37_79b9_u64;
        let mut random = move |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize % n
        };
        for _ in 0..12 {
            let mut at = Board::goal(Shape::THREE_BY_THREE);
            for _ in 0..20 {
                let next: Vec<Board> = at.successors().map(|(_, b)| b).collect();
                at = next[random(next.len())];
            }
            let start = at;
            // The walk, each move the way of the last one when it can be.
            let mut walk: Vec<Move> = Vec::new();
            for _ in 0..14 {
                let ways: Vec<Move> = at.successors().map(|(m, _)| m).collect();
                let again = walk.last().filter(|m| ways.contains(m) && random(3) > 0);
                let m = again.copied().unwrap_or_else(|| ways[random(ways.len())]);
                walk.push(m);
                at = at.apply(m).unwrap();
            }
            let runs: Vec<&[Move]> = walk.chunk_by(|a, b| a == b).collect();
            // Written letter by letter under the multi-tile metric, as
            // slides (`L2`) under the single-tile one.
            let written: Vec<String> = match multi {
                true => walk.iter().map(|m| m.letter().to_string()).collect(),
                false => runs
                    .iter()
                    .map(|r| format!("{}{}", r[0].letter(), r.len()))
                    .collect(),
            };
            // The moves as counted: (the step written, the board after it).
            let mut counted = Vec::new();
            let (mut board, mut letter) = (start, 0);
            for (slide, run) in runs.iter().enumerate() {
                for (i, &m) in run.iter().enumerate() {
                    board = board.apply(m).unwrap();
                    letter += 1;
                    if !multi {
                        counted.push((slide + 1, board));
                    } else if i + 1 == run.len() {
                        counted.push((letter - run.len() + 1, board));
                    }
                }
            }
            let lines: Vec<String> = std::iter::once(start)
                .chain(counted.iter().map(|(_, b)| *b))
                .map(|b| b.to_string())
                .collect();
            let looked_up = json_lines(&run_batch(
                &t.path,
                &["batch", "--format", "jsonl"],
                lines.join("\n") + "\n",
                0,
            ));
            let distances: Vec<u64> = looked_up
                .iter()
                .map(|a| a["distance"].as_u64().unwrap())
                .collect();
            let mut away: Vec<u64> = Vec::new();
            for (k, (number, _)) in counted.iter().enumerate() {
                if distances[k + 1] > distances[k] && away.last() != Some(&(*number as u64)) {
                    away.push(*number as u64);
                }
            }
            let moves = written.join(" ");
            let graded = json(&run_query(
                &t.path,
                &["check", "--json", &start.to_string(), &moves],
                1,
            ));
            let graded_away: Vec<u64> = (graded["away"].as_array().unwrap().iter())
                .map(|n| n.as_u64().unwrap())
                .collect();
            assert_eq!(graded_away, away, "{metric:?} {start} {moves}");
            assert_eq!(
                graded["length"].as_u64(),
                Some(counted.len() as u64),
                "{moves}"
            );
            assert_eq!(
                graded["remaining"].as_u64(),
                distances.last().copied(),
                "{moves}"
            );
        }
    }
}

/// A long list of wrong ways is named up to 20 moves, then counted; the
/// JSON keeps them all. Out and back 4,999 times from one move away: each
/// move out (the odd ones) goes farther.
#[test]
fn a_long_list_of_wrong_ways_is_cut_in_the_text() {
    let t = temp_db("3x3");
    let moves = "LR".repeat(4999) + "R";
    let out = run_query(&t.path, &["check", "123456708", &moves], 0);
    let said = stdout_of(&out);
    let odd: Vec<String> = (0..20).map(|i| (2 * i + 1).to_string()).collect();
    let expected = format!(
        "moves {}, … and 4979 more go farther from the goal\n",
        odd.join(", ")
    );
    assert!(said.ends_with(&expected), "{said}");
    let graded = json(&run_query(
        &t.path,
        &["check", "--json", "123456708", &moves],
        0,
    ));
    assert_eq!(graded["away"].as_array().unwrap().len(), 4999);
}

/// `check --batch`: a class's answers graded a line each, in input order,
/// each record the grading `check --json` gives that line alone (with the
/// moves as written beside it); unreadable lines get an error record and
/// exit 2; CSV rows all have the same columns, the grading's fields in
/// them; threads and the kind of file change nothing.
#[test]
fn a_batch_of_move_lists_grades_each_as_check_does() {
    let t = temp_db("3x3");
    let start = "867254301";
    let solved = json(&run_query(&t.path, &["solve", "--json", start], 0));
    let solution = solved["moves"].as_str().unwrap().to_string();
    // Right, long, past the goal, short, illegal, tiles moved, spaced,
    // another goal, unsolvable; then unreadable lines.
    let graded: Vec<(String, String, Option<&str>)> = vec![
        (start.into(), solution.clone(), None),
        (start.into(), format!("{solution}LR"), None),
        (start.into(), format!("{solution}L"), None),
        (start.into(), solution[..10].to_string(), None),
        (start.into(), format!("{}RR", &solution[..11]), None),
        ("123468750".into(), "8 6 5 8".into(), None),
        ("8 6 7 2 5 4 3 0 1".into(), solution.clone(), None),
        // (Its blank where the default goal's is: a pattern file of one
        // goal blank cell grades it too.)
        ("412736850".into(), "ULDR".into(), Some("412753860")),
        ("213456780".into(), "UL".into(), None),
    ];
    let mut input: String = graded
        .iter()
        .map(|(s, m, g)| match g {
            Some(g) => format!("{s}\t{m}\t{g}\n"),
            None => format!("{s}\t{m}\n"),
        })
        .collect();
    // The command line's forms: the start's word, then moves a word each.
    input.push_str(&format!("{start} {}\n", solution.replace("", " ").trim()));
    // The last: lines ended by a carriage return alone, once read as one.
    // And a line whose start and goal are both bad: the start is named.
    input.push_str("123468750;ULDX\n\n=1+1\tU\n123468750\n123468750\tUL\r123468750\tDR\n;U;1\n");
    let out = run_batch(&t.path, &["check", "--batch"], input.clone(), 2);
    assert!(stderr_of(&out).contains("6 of 16 lines could not be answered"));
    let records = json_lines(&out);
    assert_eq!(records.len(), 16);
    for ((s, moves, goal), record) in graded.iter().zip(&records) {
        let mut args = vec!["check", "--json", s.as_str(), moves.as_str()];
        if let Some(goal) = goal {
            args.extend(["--goal", goal]);
        }
        let alone = query(&t.path).args(&args).output().unwrap();
        let mut alone = json(&alone);
        alone["written"] = moves.as_str().into();
        assert_eq!(record, &alone, "{s} {moves}");
    }
    let mut spaced = records[0].clone();
    spaced["written"] = solution.replace("", " ").trim().into();
    assert_eq!(records[9], spaced);
    // An empty goal after the moves (a spreadsheet's empty last cell) is no goal.
    let input_with_empty_goals = format!("{start}\t{solution}\t\n{start};{solution}; ;\t\n");
    let no_goals = run_batch(&t.path, &["check", "--batch"], input_with_empty_goals, 0);
    assert_eq!(
        json_lines(&no_goals),
        vec![records[0].clone(), records[0].clone()]
    );
    for (record, (line, says)) in records[10..].iter().zip([
        (11, "bad moves: move 4 is \"X\""),
        (12, "the line is empty"),
        (13, "bad start board"),
        (14, "a line holds the start and then the moves"),
        (15, "a carriage return inside the line"),
        (16, "bad start board: the board is empty"),
    ]) {
        assert_eq!(record["line"], line, "{record}");
        assert!(record["error"].as_str().unwrap().contains(says), "{record}");
    }
    // Threads change nothing; nor does a pattern file.
    let two = run_batch(
        &t.path,
        &["check", "--batch", "--threads", "2"],
        input.clone(),
        2,
    );
    assert_eq!(stdout_of(&two), stdout_of(&out));
    let patterns = crate::pattern_file::pattern_file("3x3", "4-4");
    let searched = run_batch(&patterns, &["check", "--batch"], input.clone(), 2);
    assert_eq!(stdout_of(&searched), stdout_of(&out));

    // CSV: the same gradings in columns, every row as wide as the header.
    let csv = stdout_of(&run_batch(
        &t.path,
        &["check", "--batch", "--csv"],
        input,
        2,
    ));
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    assert_eq!(header.len(), 16);
    let rows: Vec<Vec<String>> = rows.map(csv_fields).collect();
    assert_eq!(rows.len(), 16);
    for (row, record) in rows.iter().zip(&records) {
        assert_eq!(row.len(), 16, "{row:?}");
        let field = |name: &str| &row[header.iter().position(|h| *h == name).unwrap()];
        let text = |v: &serde_json::Value| match v {
            serde_json::Value::Null => String::new(),
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(a) => a
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            v => v.to_string(),
        };
        if record.get("line").is_some() {
            assert!(field("error").starts_with(&format!("line {}: ", record["line"])));
            continue;
        }
        for name in ["start", "goal", "written", "reason"] {
            assert_eq!(field(name), &text(&record[name]), "{name} of {row:?}");
        }
        if record["solvable"] == false {
            assert_eq!(field("legal"), "", "{row:?}");
            continue;
        }
        for name in &header[3..14] {
            assert_eq!(field(name), &text(&record[*name]), "{name} of {row:?}");
        }
    }
    // A line that would be a formula in a spreadsheet is not one.
    assert!(rows[12][0].starts_with("'=1+1"), "{:?}", rows[12]);
}

/// The fields of a CSV row: quoted fields may hold commas and doubled
/// quotes.
fn csv_fields(row: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// A line of `check --batch` whose searches run past `--timeout` keeps its
/// start, goal and moves in CSV, beside why it was not graded.
#[test]
fn a_batch_line_past_its_timeout_keeps_its_pair() {
    let db = crate::pattern_file::pattern_file("4x4", "6-6-3");
    // Gasser's 80-move position, turned to this goal: far past the timeout.
    let start = "0 12 9 13 15 11 10 14 3 7 5 6 4 8 2 1";
    let input = format!("{start}\tRDLU\n");
    let args = [
        "--board",
        "4x4",
        "check",
        "--batch",
        "--csv",
        "--timeout",
        "0.001",
    ];
    let csv = stdout_of(&run_batch(&db, &args, input, 2));
    let row = csv.lines().nth(1).unwrap();
    let goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";
    assert!(
        row.starts_with(&format!("{start},{goal},\"RDLU\",,,")),
        "{row}"
    );
    assert!(
        row.contains("\"line 1: grading needs the distance of every position"),
        "{row}"
    );
    assert_eq!(csv_fields(row).len(), 16, "{row}");
}

/// The flags of `--batch` alone are refused, and its threads' limit holds.
#[test]
fn batch_flags_without_batch_are_refused() {
    let t = temp_db("3x3");
    for flag in [&["--csv"][..], &["--threads", "2"]] {
        let args = [&["check"][..], flag, &["123468750", "ULDR"]].concat();
        let out = run_query(&t.path, &args, 2);
        assert!(
            stderr_of(&out).contains("goes with --batch"),
            "{}",
            stderr_of(&out)
        );
    }
    let out = run_batch(&t.path, &["check", "--batch", "--threads", "65535"], "", 2);
    assert!(stderr_of(&out).contains("--threads 65535 is more than"));
    let out = run_batch(&t.path, &["check", "--batch", "123468750", "ULDR"], "", 2);
    assert!(stderr_of(&out).contains("cannot be used with"));
}
