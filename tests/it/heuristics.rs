//! The heuristics against exact distances: which ones are admissible and
//! consistent over every position, and a check of their values by a plain
//! implementation that shares no code with the library.

use crate::util::temp_db;
use npuzzle::analysis::{survey, survey_all, Evaluator, Heuristic, Survey};
use npuzzle::{Board, GoalTable, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};

/// The three heuristics that are admissible.
const ADMISSIBLE: [Heuristic; 3] = [
    Heuristic::Misplaced,
    Heuristic::Manhattan,
    Heuristic::LinearConflict,
];

/// Where `tile` stands on a board given as cells row by row: (row, column).
fn find(cells: &[u8], cols: usize, tile: u8) -> (usize, usize) {
    let at = cells.iter().position(|&t| t == tile).unwrap();
    (at / cols, at % cols)
}

fn plain_misplaced(board: &[u8], goal: &[u8]) -> u32 {
    board
        .iter()
        .zip(goal)
        .filter(|&(&b, &g)| b != 0 && b != g)
        .count() as u32
}

fn plain_manhattan(board: &[u8], goal: &[u8], cols: usize) -> u32 {
    (1..board.len() as u8)
        .map(|tile| {
            let (r, c) = find(board, cols, tile);
            let (gr, gc) = find(goal, cols, tile);
            (r.abs_diff(gr) + c.abs_diff(gc)) as u32
        })
        .sum()
}

/// The fewest tiles to take out of `line` (goal positions along the line,
/// in the order the tiles stand) so that the rest are in increasing order,
/// by trying every subset to keep.
fn fewest_to_remove(line: &[usize]) -> u32 {
    let mut best = line.len() as u32;
    for keep in 0u32..1 << line.len() {
        let kept: Vec<usize> = (0..line.len())
            .filter(|&i| keep >> i & 1 == 1)
            .map(|i| line[i])
            .collect();
        if kept.windows(2).all(|w| w[0] < w[1]) {
            best = best.min(line.len() as u32 - kept.len() as u32);
        }
    }
    best
}

fn plain_linear_conflict(board: &[u8], goal: &[u8], rows: usize, cols: usize) -> u32 {
    // Rows, then columns: each line's cells in order, and each tile's goal
    // as (line, position along it).
    let row_goal = |t| find(goal, cols, t);
    let col_goal = |t| {
        let (r, c) = find(goal, cols, t);
        (c, r)
    };
    let rows_removed: u32 = (0..rows)
        .map(|r| line_removals(board, (0..cols).map(|c| r * cols + c), r, row_goal))
        .sum();
    let cols_removed: u32 = (0..cols)
        .map(|c| line_removals(board, (0..rows).map(|r| r * cols + c), c, col_goal))
        .sum();
    plain_manhattan(board, goal, cols) + 2 * (rows_removed + cols_removed)
}

/// The fewest tiles to take out of line `line` (its `cells` in order) for
/// the tiles whose goal is in that line to stand in their goal order;
/// `goal_of` gives a tile's goal as (line, position along it).
fn line_removals(
    board: &[u8],
    cells: impl Iterator<Item = usize>,
    line: usize,
    goal_of: impl Fn(u8) -> (usize, usize),
) -> u32 {
    let along: Vec<usize> = cells
        .map(|i| board[i])
        .filter(|&t| t != 0 && goal_of(t).0 == line)
        .map(|t| goal_of(t).1)
        .collect();
    fewest_to_remove(&along)
}

fn plain_manhattan_with_blank(board: &[u8], goal: &[u8], cols: usize) -> u32 {
    let (r, c) = find(board, cols, 0);
    let (gr, gc) = find(goal, cols, 0);
    plain_manhattan(board, goal, cols) + (r.abs_diff(gr) + c.abs_diff(gc)) as u32
}

fn plain(heuristic: Heuristic, board: &Board, goal: &Board) -> u32 {
    let shape = board.shape();
    let (b, g) = (board.cells(), goal.cells());
    match heuristic {
        Heuristic::Misplaced => plain_misplaced(b, g),
        Heuristic::Manhattan => plain_manhattan(b, g, shape.cols()),
        Heuristic::LinearConflict => plain_linear_conflict(b, g, shape.rows(), shape.cols()),
        Heuristic::ManhattanWithBlank => plain_manhattan_with_blank(b, g, shape.cols()),
    }
}

fn random_board(shape: Shape, rng: &mut StdRng) -> Board {
    let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
    cells.shuffle(rng);
    Board::new(shape, &cells).unwrap()
}

#[test]
fn evaluations_match_a_plain_implementation() {
    let mut rng = StdRng::seed_from_u64(21);
    for size in ["3x3", "2x4", "4x2", "2x5", "3x4", "2x6"] {
        let shape: Shape = size.parse().unwrap();
        for _ in 0..20 {
            let goal = random_board(shape, &mut rng);
            let eval = Evaluator::new(&goal);
            for _ in 0..50 {
                let board = random_board(shape, &mut rng);
                for heuristic in Heuristic::ALL {
                    assert_eq!(
                        eval.h(heuristic, &board),
                        plain(heuristic, &board, &goal),
                        "{heuristic} of {board} toward {goal} ({size})"
                    );
                }
            }
        }
    }
}

/// Facts every survey of a complete table must show, for any goal.
fn check_survey(target: &GoalTable<'_>, s: &Survey) {
    let counts: Vec<u64> = s.by_distance.iter().map(|d| d.count).collect();
    assert_eq!(counts, target.info().counts, "{}", s.heuristic);
    assert_eq!(s.positions, target.info().entries);
    assert_eq!(s.goal, target.goal().to_string());
    for (d, stats) in s.by_distance.iter().enumerate() {
        assert_eq!(stats.distance, d as u32);
        assert!(stats.min as f64 <= stats.mean && stats.mean <= stats.max as f64);
    }
    // The goal alone is at distance 0, and every heuristic is 0 there.
    let at_goal = &s.by_distance[0];
    assert_eq!((at_goal.count, at_goal.min, at_goal.max), (1, 0, 0));
    // One move from the goal, one tile is one cell off; the blank too.
    let one = &s.by_distance[1];
    let expected = if s.heuristic == Heuristic::ManhattanWithBlank {
        2
    } else {
        1
    };
    assert_eq!((one.min, one.max), (expected, expected), "{}", s.heuristic);
    // On a 3x3 board, 4 blank cells have 2 moves, 4 have 3 and one has 4,
    // and each blank cell holds 9!/2 / 9 = 20160 positions.
    assert_eq!(s.moves, 20_160 * (4 * 2 + 4 * 3 + 4));
    if s.heuristic.is_admissible() {
        assert_eq!(s.inadmissible, 0, "{}", s.heuristic);
        assert!(s.by_distance.iter().all(|d| d.max <= d.distance));
        assert!(s.mean_ratio > 0.0 && s.mean_ratio <= 1.0);
        // Consistent too: one move never drops any of them by more than 1.
        assert_eq!(s.inconsistent, 0, "{}", s.heuristic);
    } else {
        assert!(s.inadmissible > 0);
        assert!(s.inconsistent > 0);
    }
}

/// Mean of the plain implementation over the positions at each of the first
/// few distances, which the survey must equal.
fn check_means_by_plain_evaluation(target: &GoalTable<'_>, s: &Survey) {
    for d in 0..10 {
        let values: Vec<u32> = target
            .positions_at(d)
            .map(|b| plain(s.heuristic, &b, target.goal()))
            .collect();
        let stats = &s.by_distance[d as usize];
        let mean = values.iter().sum::<u32>() as f64 / values.len() as f64;
        assert!((stats.mean - mean).abs() < 1e-9, "{} at {d}", s.heuristic);
        assert_eq!(stats.min, *values.iter().min().unwrap());
        assert_eq!(stats.max, *values.iter().max().unwrap());
        // The joint counts: how many positions at d have each value.
        let mut counts = vec![0u64; stats.max as usize + 1];
        for &h in &values {
            counts[h as usize] += 1;
        }
        assert_eq!(stats.h_counts, counts, "{} at {d}", s.heuristic);
    }
    // Every position is counted once, at its distance.
    for stats in &s.by_distance {
        assert_eq!(stats.h_counts.iter().sum::<u64>(), stats.count);
    }
}

#[test]
fn the_default_goal() {
    let t = temp_db("3x3");
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let target = t.db.goal_table(&goal).unwrap();
    let surveys = survey_all(&target).unwrap();
    let order: Vec<Heuristic> = surveys.iter().map(|s| s.heuristic).collect();
    assert_eq!(order, Heuristic::ALL);
    for s in &surveys {
        check_survey(&target, s);
        check_means_by_plain_evaluation(&target, s);
    }
    // Both positions 31 moves away, 867254301 and 647850321, have 7 tiles
    // misplaced, Manhattan 21, one linear conflict each, and the blank one
    // cell from its goal (by hand in the library's unit tests).
    let farthest: Vec<(u32, u32)> = surveys
        .iter()
        .map(|s| (s.by_distance[31].min, s.by_distance[31].max))
        .collect();
    assert_eq!(farthest, [(7, 7), (21, 21), (23, 23), (22, 22)]);
    // Each admissible heuristic sees more of the distance than the last.
    assert!(surveys[0].mean_ratio < surveys[1].mean_ratio);
    assert!(surveys[1].mean_ratio < surveys[2].mean_ratio);
}

#[test]
fn a_random_goal() {
    let t = temp_db("3x3");
    let mut rng = StdRng::seed_from_u64(22);
    let goal = random_board(Shape::THREE_BY_THREE, &mut rng);
    assert_ne!(goal, Board::goal(Shape::THREE_BY_THREE));
    let target = t.db.goal_table(&goal).unwrap();
    for heuristic in Heuristic::ALL {
        let s = survey(&target, heuristic).unwrap();
        assert_eq!(s.heuristic, heuristic);
        check_survey(&target, &s);
        check_means_by_plain_evaluation(&target, &s);
    }
}

#[test]
fn the_admissible_ones_are_ordered_position_by_position() {
    let t = temp_db("3x3");
    let mut rng = StdRng::seed_from_u64(23);
    let goal = random_board(Shape::THREE_BY_THREE, &mut rng);
    let target = t.db.goal_table(&goal).unwrap();
    let eval = Evaluator::new(&goal);
    for d in [5, 17, 28] {
        for board in target.positions_at(d).take(500) {
            let h: Vec<u32> = ADMISSIBLE.iter().map(|&x| eval.h(x, &board)).collect();
            assert!(h[0] <= h[1] && h[1] <= h[2] && h[2] <= d, "{board}: {h:?}");
        }
    }
}

#[test]
fn surveys_serialize_to_json() {
    let t = temp_db("2x3");
    let goal = Board::goal("2x3".parse().unwrap());
    let target = t.db.goal_table(&goal).unwrap();
    let json =
        serde_json::to_value(survey(&target, Heuristic::ManhattanWithBlank).unwrap()).unwrap();
    assert_eq!(json["heuristic"], "manhattan+blank");
    assert_eq!(json["goal"], "123450");
    assert_eq!(json["positions"], 360);
    assert_eq!(json["by_distance"][0]["count"], 1);
}

/// `query heuristics START`: each heuristic beside the true distance, from
/// a complete table or (the same numbers) a 3x3 pattern file's search; the
/// Manhattan parts are a plain implementation's; an unsolvable start exits
/// 1, and a chart of one position is refused.
#[test]
fn one_position_is_shown_beside_its_true_distance_on_both_kinds() {
    let t = temp_db("3x3");
    let pattern = crate::pattern_file::pattern_file("3x3", "4-4");
    let start = "867254301";
    let answer = crate::util::json_answer(&t.path, &["heuristics", start, "--json"]);
    assert_eq!(answer["distance"], 31);
    let cells: Vec<u8> = start.bytes().map(|b| b - b'0').collect();
    let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    let by_cell: Vec<u64> = (0..9)
        .map(|cell| match cells[cell] {
            0 => 0,
            tile => {
                let (r, c) = find(&goal, 3, tile);
                (r.abs_diff(cell / 3) + c.abs_diff(cell % 3)) as u64
            }
        })
        .collect();
    assert_eq!(answer["manhattan_by_cell"], serde_json::json!(by_cell));
    assert_eq!(answer["heuristics"][1]["h"], by_cell.iter().sum::<u64>());
    let mut searched = crate::util::json_answer(&pattern, &["heuristics", start, "--json"]);
    // The pattern file adds its own estimate; the rest is the same.
    let estimate = searched.as_object_mut().unwrap().remove("pattern_database");
    assert_eq!(searched, answer);
    assert!(answer.get("pattern_database").is_none());
    let estimate = estimate.expect("a pattern file gives its estimate");
    assert_eq!(estimate["partition"], "4-4");
    assert_eq!(estimate["admissible_here"], true);
    // The search is bounded by --timeout, as `solve`'s is. Stopped before
    // its first node, it has proved only the tables' estimate: the values
    // stand, beside that bound (or linear conflict's, the larger), and
    // every verdict is settled by it, as every value here is admissible
    // but manhattan+blank, which is below the bound.
    let stopped = ["heuristics", start, "--json", "--timeout", "1e-9"];
    let stopped = crate::util::json_answer(&pattern, &stopped);
    assert_eq!(stopped["distance"], serde_json::Value::Null);
    let h = estimate["h"].as_u64().unwrap();
    assert_eq!(stopped["lower_bound"], h.max(23));
    assert_eq!(stopped["pattern_database"]["h"], h);
    assert_eq!(stopped["heuristics"], answer["heuristics"]);
    let text = crate::util::printed(&pattern, &["heuristics", start, "--timeout", "1e-9"], 0);
    let first = format!(
        "{start} -> 123456780: at least {} moves (the search for the distance was stopped)\n",
        h.max(23)
    );
    assert!(text.starts_with(&first), "{text}");
    crate::util::expect_refusal(
        &pattern,
        &["compare", start, "--timeout", "1e-9"],
        &[
            "compare needs the true distance, and the database's search stopped",
            "(--timeout 0.000000001 s); a longer --timeout",
        ],
    );
    // A table answers whatever the limit.
    let quick = ["heuristics", start, "--json", "--timeout", "1e-9"];
    assert_eq!(crate::util::json_answer(&t.path, &quick), answer);
    assert_eq!(answer["lower_bound"], 31);
    // One move from the goal, manhattan+blank says 2.
    let text = crate::util::printed(&t.path, &["heuristics", "123456708"], 0);
    assert!(
        text.starts_with("123456708 -> 123456780: 1 move\n"),
        "{text}"
    );
    assert!(
        text.contains("manhattan+blank    2  overestimates by 1"),
        "{text}"
    );
    crate::util::expect_code(&t.path, &["heuristics", "213456780"], 1);
    crate::util::expect_refusal(
        &t.path,
        &["heuristics", start, "--plot", "h.svg"],
        &["cannot be used with"],
    );
}

/// A pattern file's own estimate, beside the classics: never above the
/// complete table's distance, never below Manhattan (its patterns' moves
/// add up to at least their Manhattan distances), in text, CSV and JSON.
#[test]
fn a_pattern_files_estimate_is_admissible_and_above_manhattan() {
    let t = temp_db("3x3");
    let pattern = crate::pattern_file::pattern_file("3x3", "4-4");
    let mut rng = StdRng::seed_from_u64(7);
    let mut above_manhattan = 0;
    for _ in 0..40 {
        // A random walk from the goal: solvable, at any distance up to 31.
        let mut board = Board::goal(Shape::THREE_BY_THREE);
        for _ in 0..60 {
            let m = *npuzzle::Move::ALL.choose(&mut rng).unwrap();
            board = board.apply(m).unwrap_or(board);
        }
        let start = board.to_string();
        let args = ["heuristics", start.as_str(), "--json"];
        let distance = crate::util::json_answer(&t.path, &args)["distance"]
            .as_u64()
            .unwrap();
        let answer = crate::util::json_answer(&pattern, &args);
        let h = answer["pattern_database"]["h"].as_u64().unwrap();
        let manhattan = answer["heuristics"][1]["h"].as_u64().unwrap();
        assert!(
            manhattan <= h && h <= distance,
            "{start}: {manhattan} {h} {distance}"
        );
        assert_eq!(answer["pattern_database"]["overestimate"], 0);
        above_manhattan += usize::from(h > manhattan);
    }
    assert!(
        above_manhattan > 0,
        "the tables never said more than Manhattan"
    );
    let text = crate::util::printed(&pattern, &["heuristics", "867254301"], 0);
    assert!(text.contains("\npattern db        "), "{text}");
    assert!(text.contains("admissible here (4-4 tables)\n"), "{text}");
    let csv = crate::util::printed(&pattern, &["heuristics", "867254301", "--csv"], 0);
    assert!(csv.contains("\npattern-database 4-4,"), "{csv}");
}

/// The pattern file's estimate is the one its search starts from: where
/// the search reads the dual lookup (the start's blank in the goal's
/// corner), the larger of the position's lookup and the dual, which is the
/// lookup from the goal toward the start; the bound a search stopped before
/// its first node reports is the same. For the set's own goal, and for one
/// it serves through a symmetry.
#[test]
fn a_pattern_files_estimate_includes_the_dual_the_search_reads() {
    use npuzzle::Move::{Down, Left, Right, Up};
    let t = temp_db("3x3");
    let pattern = crate::pattern_file::pattern_file("3x3", "4-4");
    let mut rng = StdRng::seed_from_u64(11);
    let mut dual_larger = 0;
    let goals = [
        ("123456780", [Right, Right, Down, Down]),
        ("012345678", [Left, Left, Up, Up]),
    ];
    for (goal, corner) in goals {
        for _ in 0..30 {
            // A random walk from the goal, ending with the blank in its corner.
            let mut board = npuzzle::parse_board(goal, Shape::THREE_BY_THREE).unwrap();
            for _ in 0..60 {
                let m = *npuzzle::Move::ALL.choose(&mut rng).unwrap();
                board = board.apply(m).unwrap_or(board);
            }
            for m in corner {
                board = board.apply(m).unwrap_or(board);
            }
            let start = board.to_string();
            if start == goal {
                continue; // answered before any search
            }
            let args = ["heuristics", start.as_str(), "--goal", goal, "--json"];
            let estimate = crate::util::json_answer(&pattern, &args)["pattern_database"].clone();
            let (h, lookup) = (
                estimate["h"].as_u64().unwrap(),
                estimate["lookup"].as_u64().unwrap(),
            );
            let back = ["heuristics", goal, "--goal", start.as_str(), "--json"];
            let dual =
                crate::util::json_answer(&pattern, &back)["pattern_database"]["lookup"].clone();
            assert_eq!(estimate["dual"], dual, "{start}");
            let dual = dual.as_u64().unwrap();
            assert_eq!(h, lookup.max(dual), "{start}");
            let distance = crate::util::json_answer(&t.path, &args)["distance"]
                .as_u64()
                .unwrap();
            assert!(h <= distance, "{start}: {h} > {distance}");
            dual_larger += usize::from(dual > lookup);
            let batch = ["batch", "--timeout", "1e-9", "--goal", goal];
            let stopped = crate::util::run_batch(&pattern, &batch, format!("{start}\n"), 2);
            let stopped = crate::util::json_lines(&stopped);
            assert_eq!(
                (
                    stopped[0]["lower_bound"].as_u64(),
                    stopped[0]["nodes"].as_u64()
                ),
                (Some(h), Some(0)),
                "{start}"
            );
        }
    }
    assert!(dual_larger > 0, "the dual never said more than the lookup");
    // Elsewhere the search reads no dual, and neither does the estimate.
    let edge = crate::util::json_answer(&pattern, &["heuristics", "867254301", "--json"]);
    assert_eq!(edge["pattern_database"]["dual"], serde_json::Value::Null);
    let text = crate::util::printed(&pattern, &["heuristics", "523146780"], 0);
    assert!(
        text.contains(
            "pattern db        10  admissible here (4-4 tables; the lookup 6, the dual 10)\n"
        ),
        "{text}"
    );
}

#[test]
fn the_library_refuses_to_measure_single_tile_heuristics_against_multi_tile_tables() {
    use npuzzle::analysis::{compare, CompareError, NeedsSingleTile};
    let t = crate::util::temp_db_counting("3x3", npuzzle::Metric::MultiTile);
    let target =
        t.db.goal_table(&Board::goal(Shape::THREE_BY_THREE))
            .unwrap();
    let refused = NeedsSingleTile {
        metric: npuzzle::Metric::MultiTile,
    };
    assert_eq!(survey_all(&target).unwrap_err(), refused);
    assert_eq!(survey(&target, Heuristic::Manhattan).unwrap_err(), refused);
    let start = npuzzle::parse_board("867254301", Shape::THREE_BY_THREE).unwrap();
    let compared = compare(&target, &start, 1000, None, None);
    assert!(matches!(compared, Err(CompareError::NeedsSingleTile(e)) if e == refused));
    assert!(
        refused
            .to_string()
            .contains("this table counts multi-tile moves"),
        "{refused}"
    );
}

/// Where the distance's search stops on a large board, the values stand
/// beside the bound it proved, which is never above the published optimum:
/// Korf's instance 1 (57 moves) on the 6-6-3 tables, stopped before its
/// first node (a release build solves it in 10 ms, so any longer limit
/// would make the test depend on the machine). A verdict the bound does
/// not settle is unknown (null; empty in CSV), never a guess.
#[test]
fn a_stopped_search_gives_the_values_and_the_bound_it_proved() {
    let pattern = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let korf_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let args = [
        "heuristics",
        korf_1,
        "--goal",
        goal,
        "--json",
        "--timeout",
        "1e-9",
    ];
    let answer = crate::util::json_answer(&pattern, &args);
    assert_eq!(answer["distance"], serde_json::Value::Null, "{answer}");
    let bound = answer["lower_bound"].as_u64().unwrap();
    let cells: Vec<u8> = korf_1.split(' ').map(|t| t.parse().unwrap()).collect();
    let goal_cells: Vec<u8> = (0..16).collect();
    let manhattan = crate::util::plain_manhattan(4, &cells, &goal_cells) as u64;
    assert_eq!(answer["heuristics"][1]["h"], manhattan);
    let pattern_h = answer["pattern_database"]["h"].as_u64().unwrap();
    assert!(
        manhattan.max(pattern_h) <= bound && bound <= 57,
        "{manhattan} {pattern_h} {bound}"
    );
    for e in answer["heuristics"].as_array().unwrap() {
        let h = e["h"].as_u64().unwrap();
        let (here, over) = (&e["admissible_here"], &e["overestimate"]);
        if h <= bound {
            assert_eq!(
                (here.as_bool(), over.as_u64()),
                (Some(true), Some(0)),
                "{e}"
            );
        } else {
            assert!(here.is_null() && over.is_null(), "{e}");
        }
    }
    let csv_args = [
        "heuristics",
        korf_1,
        "--goal",
        goal,
        "--csv",
        "--timeout",
        "1e-9",
    ];
    let csv = crate::util::printed(&pattern, &csv_args, 0);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("heuristic,h,distance,admissible_here,overestimate,lower_bound")
    );
    let manhattan_row = lines.nth(1).unwrap();
    assert!(
        manhattan_row.starts_with(&format!("manhattan,{manhattan},,true,0,")),
        "{manhattan_row}"
    );
}

/// With no file, one position's distance is searched over linear
/// conflicts, on any board up to 6x6: equal to a plain breadth-first
/// search's near the goal on 6x6, 5x5 and 4x5, and to the complete
/// table's on 3x3; far from the goal, the bound that search proved.
#[test]
fn with_no_file_the_distance_is_searched() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = StdRng::seed_from_u64(11);
    for (rows, cols) in [(6, 6), (5, 5), (4, 5)] {
        let shape: Shape = format!("{rows}x{cols}").parse().unwrap();
        let goal: Vec<u8> = (1..shape.cells() as u8).chain([0]).collect();
        let near = crate::util::plain_bfs_within(rows, cols, &goal, 6);
        let mut positions: Vec<_> = near.iter().collect();
        positions.sort();
        for (cells, &distance) in positions.choose_multiple(&mut rng, 8) {
            let start: Vec<String> = cells.iter().map(u8::to_string).collect();
            let start = start.join(" ");
            let board = shape.to_string();
            let args = ["--board", &board, "heuristics", &start, "--json"];
            let out = crate::util::expect_code_in(dir.path(), &args, 0);
            let answer: serde_json::Value =
                serde_json::from_slice(&out.get_output().stdout).unwrap();
            assert_eq!(answer["distance"], distance, "{board} {start}");
            assert_eq!(answer["lower_bound"], distance);
        }
    }
    let t = temp_db("3x3");
    for start in ["867254301", "647850321", "123456708", "123456780"] {
        let args = ["heuristics", start, "--json"];
        let out = crate::util::expect_code_in(dir.path(), &args, 0);
        let answer: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(answer, crate::util::json_answer(&t.path, &args), "{start}");
    }
    // Far from the goal on 6x6, the search stops at --timeout.
    // `query --board 6x6 random --seed 1`.
    let start = "12 29 17 2 23 22 15 31 30 32 10 26 4 6 0 14 5 27 21 33 34 20 18 1 9 13 3 19 11 \
                 28 16 8 25 7 24 35";
    let args = [
        "--board",
        "6x6",
        "heuristics",
        start,
        "--json",
        "--timeout",
        "0.2",
    ];
    let out = crate::util::expect_code_in(dir.path(), &args, 0);
    let answer: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(answer["distance"], serde_json::Value::Null);
    assert!(answer.get("pattern_database").is_none());
    let linear_conflict = answer["heuristics"][2]["h"].as_u64().unwrap();
    assert!(answer["lower_bound"].as_u64().unwrap() >= linear_conflict);
    // The whole-table survey still needs complete tables.
    crate::util::expect_code_in(dir.path(), &["heuristics"], 2);
}

/// A pattern file with no table toward the goal asked about serves as no
/// file would: the distance is searched over linear conflicts, equal to
/// the complete table's toward that goal, the tables' estimate is left
/// out, and standard error says why. Toward the goals it serves, the
/// tables answer.
#[test]
fn a_pattern_file_built_for_other_goals_is_searched_without() {
    let t = temp_db("3x3");
    let pattern = crate::pattern_file::pattern_file("3x3", "4-4");
    let mut rng = StdRng::seed_from_u64(5);
    // The blank in the centre: no reflection or rotation takes it to the
    // corner the file serves.
    let goal = "123405678";
    for _ in 0..12 {
        let mut board = npuzzle::parse_board(goal, Shape::THREE_BY_THREE).unwrap();
        for _ in 0..40 {
            let m = *npuzzle::Move::ALL.choose(&mut rng).unwrap();
            board = board.apply(m).unwrap_or(board);
        }
        let start = board.to_string();
        let args = ["heuristics", start.as_str(), "--goal", goal, "--json"];
        let out = crate::util::expect_code(&pattern, &args, 0);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            stderr.contains("no table for goals with the blank in row 2, column 2")
                && stderr.contains("searched over linear conflicts instead"),
            "{stderr}"
        );
        let searched: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert!(searched.get("pattern_database").is_none());
        assert_eq!(
            searched,
            crate::util::json_answer(&t.path, &args),
            "{start}"
        );
    }
    // A start that cannot reach it is said to be unsolvable, with no note.
    let unsolvable = ["heuristics", "213456780", "--goal", goal];
    crate::util::expect_code(&pattern, &unsolvable, 1).stderr("");
    // Toward a goal it serves, the tables answer, and nothing is said.
    let served = ["heuristics", "867254301", "--json"];
    let answer = crate::util::quiet_json_answer(&pattern, &served, 0);
    assert_eq!(answer["pattern_database"]["partition"], "4-4");
    // A goal of another board is still refused.
    crate::util::expect_refusal(
        &pattern,
        &[
            "heuristics",
            "867254301",
            "--goal",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
        ],
        &["goal"],
    );
}

/// Ctrl-C stops the distance's search with no answer lost: the values come
/// beside the bound proved so far, exit code 0 (a far 6x6 position with no
/// file and no --timeout, whose search would run for hours).
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_search_and_shows_the_values() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let start = "12 29 17 2 23 22 15 31 30 32 10 26 4 6 0 14 5 27 21 33 34 20 18 1 9 13 3 19 11 \
                 28 16 8 25 7 24 35";
    // As `util::query_in` runs it: no file to be found.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("query"))
        .env_remove("NPUZZLE_DB")
        .env("XDG_DATA_HOME", dir.path().join(".xdg"))
        .current_dir(dir.path())
        .args(["--board", "6x6", "heuristics", start, "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Time to start and catch the signal; the search runs on.
    std::thread::sleep(Duration::from_secs(1));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the search went on after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["distance"], serde_json::Value::Null);
    let linear_conflict = answer["heuristics"][2]["h"].as_u64().unwrap();
    assert!(answer["lower_bound"].as_u64().unwrap() >= linear_conflict);
}
