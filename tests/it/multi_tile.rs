//! The multi-tile metric (MTM), where sliding 1 to k tiles in a line is
//! one move: the tables against published distance counts and against a
//! plain breadth-first search written here with multi-tile moves, the
//! solutions replayed and counted, the bounds that tie MTM to single-tile
//! distances, and the command line's `--metric`.
//!
//! Published counts: the complete breadth-first searches of sliding-tile
//! puzzles in both metrics by lightln2, SlidingTilesSolver,
//! `results/multitile_frontier/*.txt`
//! (<https://github.com/lightln2/SlidingTilesSolver>): positions at each
//! MTM distance from a goal with the blank in a corner. A board and its
//! transpose (2x3 and 3x2) have the same counts, as do any two corners.

use crate::util::{
    expect_refusal, json_answer, printed, query, run_batch, run_build_db, stderr_of,
    temp_db_counting, TempDb,
};
use npuzzle::analysis::compare_metrics;
use npuzzle::{Board, Metric, Shape};
use std::collections::{HashMap, VecDeque};
use std::path::Path;

/// 2x3 (their `06-3x2`): radius 20.
const MTM_2X3: [u64; 21] = [
    1, 3, 4, 6, 8, 12, 15, 18, 22, 30, 36, 45, 42, 30, 28, 24, 18, 9, 5, 3, 1,
];

/// 2x4 (their `08-4x2`): radius 25.
const MTM_2X4: [u64; 26] = [
    1, 4, 6, 12, 18, 36, 53, 96, 136, 232, 324, 544, 728, 1064, 1366, 1928, 2321, 2780, 2884, 2436,
    1825, 800, 368, 140, 50, 8,
];

/// 3x3 (their `09-3x3`): radius 24, one antipode.
pub const MTM_3X3: [u64; 25] = [
    1, 4, 8, 16, 32, 64, 127, 244, 454, 856, 1576, 2854, 5117, 8588, 13466, 19739, 26558, 31485,
    30985, 23494, 11751, 3390, 589, 41, 1,
];

/// 2x5 (their `10-5x2`): radius 36.
const MTM_2X5: [u64; 37] = [
    1, 5, 8, 20, 32, 80, 127, 300, 458, 960, 1458, 3055, 4540, 8780, 12694, 23520, 33370, 57200,
    77373, 119315, 151791, 204225, 235617, 256305, 246642, 178775, 120853, 49655, 20885, 4530,
    1229, 440, 113, 30, 8, 5, 1,
];

/// The multi-tile distances from `goal` (cells row by row, 0 the blank) to
/// every position that reaches it, by a queue and a hash map: from each
/// position, the blank moves 1, 2, … cells in each direction, each
/// distance one move. Shares no code with the library.
fn plain_mtm_bfs(rows: usize, cols: usize, goal: &[u8]) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::from([(goal.to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(state) = queue.pop_front() {
        let d = dist[&state];
        let blank = state.iter().position(|&t| t == 0).unwrap();
        let (r, c) = ((blank / cols) as isize, (blank % cols) as isize);
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let mut next = state.clone();
            let (mut br, mut bc) = (r, c);
            loop {
                let (nr, nc) = (br + dr, bc + dc);
                if nr < 0 || nc < 0 || nr >= rows as isize || nc >= cols as isize {
                    break;
                }
                next.swap(
                    br as usize * cols + bc as usize,
                    nr as usize * cols + nc as usize,
                );
                (br, bc) = (nr, nc);
                if !dist.contains_key(&next) {
                    dist.insert(next.clone(), d + 1);
                    queue.push_back(next.clone());
                }
            }
        }
    }
    dist
}

fn board(shape: Shape, cells: &[u8]) -> Board {
    let cells: Vec<u64> = cells.iter().map(|&c| c as u64).collect();
    Board::new(shape, &cells).unwrap()
}

/// Goals with the blank in every cell, and the tiles in a scrambled order:
/// the tables' renaming and (for tables built for one cell per class) the
/// board's symmetries are both exercised.
fn goals(shape: Shape) -> Vec<Vec<u8>> {
    let n = shape.cells();
    (0..n)
        .map(|blank| {
            let mut tiles: Vec<u8> = (1..n as u8).rev().collect();
            tiles.rotate_left(blank % (n - 1));
            tiles.insert(blank, 0);
            tiles
        })
        .collect()
}

#[test]
fn mtm_tables_match_the_published_counts() {
    for (size, published) in [
        ("2x3", &MTM_2X3[..]),
        ("3x2", &MTM_2X3[..]),
        ("2x4", &MTM_2X4[..]),
        ("3x3", &MTM_3X3[..]),
        ("2x5", &MTM_2X5[..]),
    ] {
        let shape: Shape = size.parse().unwrap();
        let table = npuzzle::tables::build_table_reporting(
            shape,
            shape.cells() - 1,
            Metric::MultiTile,
            false,
            &|_| {},
        );
        assert_eq!(table.counts, published, "{size}");
    }
}

/// Every position's table distance toward goals with the blank in every
/// cell equals the plain search's: through each cell's own table (the
/// shared database has one per cell) and through `build-db`'s default
/// file, which has one table per class of cells and reads the others
/// through a reflection or rotation.
#[test]
fn mtm_tables_agree_with_a_plain_multi_tile_search() {
    let dir = tempfile::tempdir().unwrap();
    for size in ["2x3", "3x3", "2x4"] {
        let shape: Shape = size.parse().unwrap();
        let every_cell = &temp_db_counting(size, Metric::MultiTile).db;
        let path = dir.path().join(format!("{size}-mtm.db"));
        run_build_db(&["--board", size, "--metric", "mtm", "--quiet"], &path, 0);
        let by_class = npuzzle::Database::open(&path).unwrap();
        assert_eq!(by_class.metric(), Metric::MultiTile);
        let by_class = by_class.complete().unwrap();
        for goal_cells in goals(shape) {
            let truth = plain_mtm_bfs(shape.rows(), shape.cols(), &goal_cells);
            assert_eq!(truth.len() as u64, shape.positions().unwrap(), "{size}");
            let goal = board(shape, &goal_cells);
            let own = every_cell.goal_table(&goal).unwrap();
            let symmetric = by_class.goal_table(&goal).unwrap();
            for (cells, &d) in &truth {
                let start = board(shape, cells);
                assert_eq!(own.distance(&start), Ok(d), "{size} {start} -> {goal}");
                assert_eq!(
                    symmetric.distance(&start),
                    Ok(d),
                    "{size} {start} -> {goal}"
                );
            }
        }
    }
}

/// Every solution replays onto the goal, is made of slides (runs of one
/// direction, none longer than the board allows), and has as many slides
/// as the table's distance; the shortest solutions counted by `solve
/// --all` are each that long too.
#[test]
fn every_mtm_solution_replays_in_its_distance() {
    for size in ["2x3", "2x4", "3x3"] {
        let shape: Shape = size.parse().unwrap();
        let db = &temp_db_counting(size, Metric::MultiTile).db;
        let longest = shape.rows().max(shape.cols()) - 1;
        for goal_cells in goals(shape).into_iter().step_by(2) {
            let goal = board(shape, &goal_cells);
            let target = db.goal_table(&goal).unwrap();
            let step = if shape.cells() == 9 { 7 } else { 1 };
            for rank in (0..shape.positions().unwrap() as u32).step_by(step) {
                let start = target.board_at(rank);
                let d = target.distance(&start).unwrap();
                let mut moves = Vec::new();
                assert_eq!(target.solve_into(&start, &mut moves), Ok(d));
                assert_eq!(start.replay(&moves), Some(goal), "{start}");
                let runs: Vec<usize> = moves.chunk_by(|a, b| a == b).map(<[_]>::len).collect();
                assert_eq!(runs.len() as u32, d, "{start}: {moves:?}");
                assert!(runs.iter().all(|&r| r <= longest), "{start}");
            }
        }
    }
}

/// A slide of k tiles is k single-tile moves, and one single-tile move is
/// a slide: so for every position MTM ≤ STM ≤ MTM × (longer side − 1).
/// Checked position by position through each metric's table, and through
/// the joint histogram, whose counts add up to every position.
#[test]
fn mtm_lies_between_stm_over_the_longest_slide_and_stm() {
    for size in ["2x3", "2x4", "3x3"] {
        let shape: Shape = size.parse().unwrap();
        let longest = (shape.rows().max(shape.cols()) - 1) as u32;
        let single = &crate::util::temp_db(size).db;
        let multi = &temp_db_counting(size, Metric::MultiTile).db;
        for goal_cells in goals(shape).into_iter().step_by(3) {
            let goal = board(shape, &goal_cells);
            let (s, m) = (
                single.goal_table(&goal).unwrap(),
                multi.goal_table(&goal).unwrap(),
            );
            for rank in 0..shape.positions().unwrap() as u32 {
                let start = s.board_at(rank);
                let (stm, mtm) = (s.distance(&start).unwrap(), m.distance(&start).unwrap());
                assert!(
                    mtm <= stm && stm <= mtm * longest,
                    "{size} {start}: {stm} {mtm}"
                );
            }
            let joint = compare_metrics(&s, &m).unwrap();
            let total: u64 = joint.joint.iter().map(|j| j.positions).sum();
            assert_eq!(total, shape.positions().unwrap());
            assert!(joint
                .joint
                .iter()
                .all(|j| j.mtm <= j.stm && j.stm <= j.mtm * longest));
            let ratio = joint.largest_ratio.unwrap();
            assert!(ratio.ratio <= longest as f64 && ratio.ratio > 1.0);
            assert_eq!(s.distance(&ratio.position), Ok(ratio.stm));
            assert_eq!(m.distance(&ratio.position), Ok(ratio.mtm));
        }
    }
}

/// The command line under `--metric mtm`: the notation, the expanded
/// string in JSON, the count of shortest solutions, the histogram and
/// random draws at a multi-tile distance.
#[test]
fn query_answers_in_the_multi_tile_metric() {
    let TempDb { path, .. } = temp_db_counting("3x3", Metric::MultiTile);
    let mtm = ["--metric", "mtm"];
    let args = |rest: &[&'static str]| -> Vec<&'static str> { [&mtm[..], rest].concat() };
    let mtm_args =
        |rest: &[&str]| -> Vec<String> { mtm.iter().chain(rest).map(|s| s.to_string()).collect() };
    // The hardest 8-puzzle position (31 single-tile moves) is 20 slides away.
    let v = json_answer(path, &args(&["solve", "--json", "867254301"]));
    assert_eq!(v["distance"], 20);
    let slides: Vec<&str> = v["moves"].as_str().unwrap().split(' ').collect();
    assert_eq!(slides.len(), 20);
    let expanded: String = slides
        .iter()
        .map(|s| {
            let n = s[1..].parse::<usize>().unwrap_or(1);
            s[..1].repeat(n)
        })
        .collect();
    assert_eq!(v["single_tile_moves"], expanded);
    let moves: Vec<npuzzle::Move> = expanded
        .chars()
        .map(|c| npuzzle::Move::from_letter(c).unwrap())
        .collect();
    let start = npuzzle::parse_board("867254301", Shape::THREE_BY_THREE).unwrap();
    assert_eq!(
        start.replay(&moves),
        Some(Board::goal(Shape::THREE_BY_THREE))
    );

    assert_eq!(printed(path, &args(&["distance", "867254301"]), 0), "20\n");
    // The single antipode (published: one position at 24).
    let far = printed(
        path,
        &args(&["random", "--distance", "24", "--count", "1", "--seed", "1"]),
        0,
    );
    let far_args = mtm_args(&["distance", far.trim()]);
    let far_args: Vec<&str> = far_args.iter().map(String::as_str).collect();
    assert_eq!(printed(path, &far_args, 0), "24\n");
    let all = printed(
        path,
        &args(&["solve", "--all", "--limit", "100", "867254301"]),
        0,
    );
    let first = all.lines().next().unwrap();
    assert!(
        first.ends_with("20 moves (multi-tile), 2 shortest solutions"),
        "{first}"
    );
    for line in all.lines().skip(1) {
        assert_eq!(line.split(' ').count(), 20, "{line}");
    }
    let hist = json_answer(path, &args(&["histogram", "--json"]));
    let counts: Vec<u64> = hist["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(counts, MTM_3X3);
    let info = json_answer(path, &args(&["info", "--json"]));
    assert_eq!(info["metric"], "mtm");
    assert!(printed(path, &args(&["verify"]), 0).contains("ok, 9 tables"));

    let out = run_batch(
        path,
        &args(&["batch", "--format", "csv"]),
        "867254301\n123456708\n",
        0,
    );
    let text = crate::util::stdout_of(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].starts_with("867254301,123456780,true,20,"),
        "{text}"
    );
    assert_eq!(lines[2], "123456708,123456780,true,1,R,,");
    let moves = crate::util::stdout_of(&run_batch(
        path,
        &args(&["batch", "--format", "moves"]),
        "123450786\n",
        0,
    ));
    assert_eq!(moves, "D\n");
    let moves = crate::util::stdout_of(&run_batch(
        path,
        &args(&["batch", "--format", "moves"]),
        "123450786\n123456078\n",
        0,
    ));
    assert_eq!(moves, "D\nR2\n");
}

/// `compare-metrics` reads both files and prints their joint histogram,
/// which adds up to every position.
#[test]
fn compare_metrics_adds_up_to_every_position() {
    let single = &crate::util::temp_db("3x3").path;
    let multi = &temp_db_counting("3x3", Metric::MultiTile).path;
    let with = multi.to_str().unwrap();
    let v = json_answer(single, &["compare-metrics", "--json", "--with", with]);
    assert_eq!(v["positions"], 181440);
    let total: u64 = v["joint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 181440);
    assert_eq!(v["largest_ratio"]["ratio"], 2.0);
    // The same from the multi-tile side.
    let w = json_answer(
        multi,
        &[
            "compare-metrics",
            "--json",
            "--with",
            single.to_str().unwrap(),
        ],
    );
    assert_eq!(v, w);
    // Two files of the same metric are refused, and so is another board's,
    // with advice about --with, the flag that named the file.
    expect_refusal(
        single,
        &["compare-metrics", "--with", single.to_str().unwrap()],
        &[
            "counts single-tile moves, not multi-tile",
            "pass --with a 3x3 multi-tile database",
        ],
    );
    let other_board = crate::util::temp_db("2x3");
    let refused = expect_refusal(
        single,
        &[
            "compare-metrics",
            "--with",
            other_board.path.to_str().unwrap(),
        ],
        &[
            "holds 2x3 boards, not 3x3",
            "or build one with: cargo run --release -p build-db -- --board 3x3 --metric mtm",
        ],
    );
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(!err.contains("--db"), "{err}");
    // Where the multi-tile file that leaving out --with would open is
    // there, the advice is to leave it out.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::copy(multi, dir.path().join("data/3x3-mtm.db")).unwrap();
    let out = crate::util::query_in(dir.path())
        .args([
            "--db",
            single.to_str().unwrap(),
            "compare-metrics",
            "--with",
        ])
        .arg(&other_board.path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.ends_with("or leave out --with to use data/3x3-mtm.db\n"),
        "{err}"
    );
    // A goal the --with file has no table for: that file is named, with its
    // own rebuild (its metric, its tables), not the --db file's.
    let dir = tempfile::tempdir().unwrap();
    let partial = dir.path().join("2x3-mtm.db");
    let plan = npuzzle::Plan::Complete {
        shape: "2x3".parse().unwrap(),
        metric: Metric::MultiTile,
        blanks: vec![5],
        paths: false,
    };
    npuzzle::build(&partial, &plan, &|_, _| {}).unwrap();
    let full = crate::util::temp_db("2x3");
    let args = [
        "compare-metrics",
        "--with",
        partial.to_str().unwrap(),
        "--goal",
        "123405",
    ];
    expect_refusal(
        &full.path,
        &args,
        &[
            &format!(
                "in {}: the database has no table for goals with the blank in row 2, column 2",
                partial.display()
            ),
            "--metric mtm --out ",
            "--blank 2,3 --blank 2,2",
        ],
    );
}

/// What a user might try that cannot work is refused with a message that
/// names the problem, exit code 2, and no file written.
#[test]
fn absurd_metric_requests_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.db");
    for (args, needle) in [
        (&["--metric", "xtm"][..], "unknown metric \"xtm\""),
        (&["--metric", ""][..], "unknown metric"),
        (
            &["--metric", "mtm", "--board", "4x4"][..],
            "multi-tile tables are built for boards of up to 12",
        ),
        (
            &["--metric", "mtm", "--paths"][..],
            "multi-tile tables have none",
        ),
        (
            &["--metric", "mtm", "--partition", "4-4"][..],
            "--partition 4-4 builds a pattern database, which npuzzle builds in single-tile \
             moves only",
        ),
        (&["--metric", "mtm", "--metric", "stm"][..], "--metric"),
    ] {
        let output = run_build_db(args, &out, 2);
        assert!(
            stderr_of(&output).contains(needle),
            "{args:?}: {}",
            stderr_of(&output)
        );
        assert!(!out.exists(), "{args:?}");
    }
    // Naming the default is no conflict.
    run_build_db(
        &["--metric", "stm", "--partition", "4-4", "--quiet"],
        &out,
        0,
    );
    let single = &crate::util::temp_db("3x3").path;
    let multi = &temp_db_counting("3x3", Metric::MultiTile).path;
    expect_refusal(
        single,
        &["--metric", "mtm", "distance", "1"],
        &["counts single-tile moves, not multi-tile (--metric mtm)"],
    );
    expect_refusal(
        multi,
        &["--metric", "stm", "distance", "1"],
        &["counts multi-tile moves, not single-tile (--metric stm)"],
    );
    // Past 12 cells no multi-tile file can be built: said, with no build
    // command that build-db would refuse.
    let sixteen = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let refused = expect_refusal(
        &sixteen,
        &[
            "--metric",
            "mtm",
            "distance",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
        ],
        &[
            "counts single-tile moves, not multi-tile (--metric mtm)",
            "complete tables stop at 12 cells",
            "leave out --metric",
        ],
    );
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(!err.contains("build-db"), "{err}");
    expect_refusal(
        multi,
        &["--metric", "nope", "info"],
        &["unknown metric \"nope\""],
    );
    expect_refusal(
        multi,
        &["--metric", "mtm", "--metric", "mtm", "info"],
        &["--metric is given 2 times"],
    );
    expect_refusal(
        multi,
        &["heuristics"],
        &["counts multi-tile moves", "--metric stm"],
    );
    expect_refusal(
        multi,
        &["compare", "123456708"],
        &["counts multi-tile moves"],
    );
    // Asked for in multi-tile moves, with the file or none: refused at
    // once, rather than sent to build a file that would be refused.
    let none = tempfile::tempdir().unwrap();
    for command in ["heuristics", "compare"] {
        let args = ["--metric", "mtm", command, "123456708"];
        expect_refusal(multi, &args, &["single-tile moves; leave out --metric mtm"]);
        let refused = crate::util::expect_code_in(none.path(), &args, 2).stdout("");
        crate::util::stderr_has_all(refused, &["leave out --metric mtm"]);
    }
    crate::util::stderr_has_all(
        query(multi)
            .args(["--metric", "mtm", "--board", "4x4", "info"])
            .assert()
            .code(2),
        &["no multi-tile pattern databases"],
    );
    // Without --metric, a file is read in its own metric.
    assert_eq!(printed(multi, &["distance", "123456078"], 0), "1\n");
}

/// Every survey of a file says how its distances count moves, so a figure
/// or a JSON file of the 24-move multi-tile histogram cannot pass for the
/// 31-move single-tile one.
#[test]
fn surveys_say_which_metric_they_count() {
    for (metric, name, note) in [
        (Metric::SingleTile, "stm", None),
        (Metric::MultiTile, "mtm", Some("(multi-tile moves)")),
    ] {
        let TempDb { path, .. } = temp_db_counting("3x3", metric);
        let with = |rest: &[&'static str]| [&["--metric", name][..], rest].concat();
        let with_path = |rest: &[&'static str], path: &Path| {
            let mut args: Vec<String> = with(rest).iter().map(|s| s.to_string()).collect();
            args.push(path.to_str().unwrap().to_string());
            args
        };
        for survey in [
            &["histogram", "--json"][..],
            &["histogram", "--all-blanks", "--json"],
            &["stats", "--json"],
        ] {
            let v = json_answer(path, &with(survey));
            assert_eq!(v["metric"], name, "{survey:?}");
            assert_eq!(v["board"], "3x3", "{survey:?}");
        }
        let histogram = printed(path, &with(&["histogram"]), 0);
        let stats = printed(path, &with(&["stats"]), 0);
        for first in [histogram.lines().next(), stats.lines().next()] {
            let first = first.unwrap();
            match note {
                Some(note) => assert!(first.ends_with(note), "{first}"),
                None => assert!(!first.contains("multi-tile"), "{first}"),
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let svg = dir.path().join("h.svg");
        let plot = with_path(&["histogram", "--plot"], &svg);
        let plot: Vec<&str> = plot.iter().map(String::as_str).collect();
        printed(path, &plot, 0);
        let drawn = std::fs::read_to_string(&svg).unwrap();
        let axis = match metric {
            Metric::SingleTile => "distance (moves)",
            Metric::MultiTile => "distance (multi-tile moves)",
        };
        assert!(drawn.contains(axis), "no {axis:?} in the chart");
    }
}

#[test]
fn neighbours_under_the_multi_tile_metric_are_every_slide_with_its_distance() {
    use npuzzle::analysis::neighbours;
    let shape = Shape::THREE_BY_THREE;
    let goal = Board::goal(shape);
    let truth = plain_mtm_bfs(3, 3, goal.cells());
    let db = npuzzle::Database::open(&temp_db_counting("3x3", Metric::MultiTile).path).unwrap();
    let mut positions: Vec<&Vec<u8>> = truth.keys().collect();
    positions.sort();
    for cells in positions.into_iter().step_by(997) {
        let start = board(shape, cells);
        let blank = cells.iter().position(|&t| t == 0).unwrap();
        let (row, col) = (blank / 3, blank % 3);
        // The blank slides to each other cell of its row and of its column,
        // wherever it is: 2 + 2 slides, of 1 or 2 tiles.
        let slides = 4;
        let options = npuzzle::pattern::SolveOptions::default();
        let (distance, moves) = neighbours(&db, &start, &goal, &options).unwrap();
        assert_eq!(distance, truth[cells], "{start}");
        assert_eq!(
            moves.len(),
            slides,
            "{start} (blank at row {row}, column {col})"
        );
        for (m, tiles, next, after) in moves {
            let mut slid = start;
            for _ in 0..tiles {
                slid = slid.apply(m).unwrap();
            }
            assert_eq!(slid, next, "{start} then {m:?}×{tiles}");
            assert_eq!(after, truth[next.cells()], "{start} then {m:?}×{tiles}");
        }
    }
}
