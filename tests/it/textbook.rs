//! The classic searches against the database's exact distances: the optimal
//! ones find solutions of exactly the database's length, every solution
//! replays to the goal, and a node limit never turns into a wrong answer.

use crate::util::temp_db;
use npuzzle::analysis::{search, Algorithm, ShapeMismatch};
use npuzzle::{parse_board, rules::solvability, Board, CompleteTables, Move, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// `count` random (start, goal) pairs where the start can reach the goal,
/// with the database's distance for each.
fn random_pairs<B: AsRef<[u8]>>(
    db: &CompleteTables<B>,
    count: usize,
    seed: u64,
) -> Vec<(Board, Board, u32)> {
    let shape = db.shape();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
    let mut pairs = Vec::new();
    while pairs.len() < count {
        cells.shuffle(&mut rng);
        let goal = Board::new(shape, &cells).unwrap();
        cells.shuffle(&mut rng);
        let start = Board::new(shape, &cells).unwrap();
        if solvability::check(&start, &goal).is_ok() {
            pairs.push((start, goal, db.distance(&start, &goal).unwrap()));
        }
    }
    pairs
}

/// Runs `algorithm` with room enough to finish and checks what it returns.
/// A search on a connected half of a bipartite graph finds paths whose
/// length has the parity of the distance, and never shorter than it.
fn check_solves(algorithm: Algorithm, start: &Board, goal: &Board, distance: u32) {
    let report = search(algorithm, start, goal, 50_000_000).unwrap();
    let what = format!("{algorithm}: {start} -> {goal} (distance {distance})");
    assert!(report.solvable, "{what}");
    assert!(!report.hit_limit, "{what}");
    let moves = report
        .moves
        .unwrap_or_else(|| panic!("{what}: no solution"));
    assert_eq!(start.replay(&moves), Some(*goal), "{what}");
    let length = moves.len() as u32;
    if algorithm.is_optimal() {
        assert_eq!(length, distance, "{what}");
    } else {
        assert!(length >= distance && length % 2 == distance % 2, "{what}");
    }
    if let Algorithm::DepthLimitedDfs { limit } = algorithm {
        assert!(length <= limit, "{what}");
    }
    assert!(report.expanded >= distance as u64, "{what}");
}

/// The optimal searches on every pair.
const OPTIMAL: [Algorithm; 5] = [
    Algorithm::Bfs,
    Algorithm::AStarMisplaced,
    Algorithm::AStarManhattan,
    Algorithm::AStarLinearConflict,
    Algorithm::IdaStarManhattan,
];

#[test]
fn optimal_searches_match_the_database_on_the_eight_puzzle() {
    let t = temp_db("3x3");
    for (start, goal, distance) in random_pairs(&t.db, 30, 11) {
        for algorithm in OPTIMAL {
            check_solves(algorithm, &start, &goal, distance);
        }
    }
}

#[test]
fn greedy_and_depth_limited_dfs_find_valid_solutions() {
    let t = temp_db("3x3");
    for (start, goal, distance) in random_pairs(&t.db, 30, 12) {
        check_solves(Algorithm::GreedyManhattan, &start, &goal, distance);
    }
    // Plain DFS revisits positions off its path and can take millions of
    // expansions within 31 moves, so fewer pairs.
    for (start, goal, distance) in random_pairs(&t.db, 6, 13) {
        check_solves(
            Algorithm::DepthLimitedDfs { limit: 31 },
            &start,
            &goal,
            distance,
        );
    }
}

/// Iterative deepening finds the shortest solution, and expands what the
/// depth-first searches to 1, 2, … moves expand together, the last
/// stopping at the goal. Near the goal only: its work grows about 1.7
/// times a move.
#[test]
fn iterative_deepening_is_depth_first_search_deeper_each_time() {
    let t = temp_db("3x3");
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let target = t.db.goal_table(&goal).unwrap();
    for distance in 1..=14 {
        for start in target.positions_at(distance).take(3) {
            check_solves(Algorithm::Iddfs, &start, &goal, distance);
            let report = search(Algorithm::Iddfs, &start, &goal, u64::MAX).unwrap();
            let by_depth: u64 = (1..=distance)
                .map(|limit| {
                    let dfs = Algorithm::DepthLimitedDfs { limit };
                    search(dfs, &start, &goal, u64::MAX).unwrap().expanded
                })
                .sum();
            assert_eq!(report.expanded, by_depth, "{start}");
            // The path to the goal's parent, start included.
            assert_eq!(report.max_open, distance as u64, "{start}");
        }
    }
}

#[test]
fn depth_limited_dfs_finds_nothing_below_the_distance() {
    let t = temp_db("3x3");
    for (start, goal, distance) in random_pairs(&t.db, 5, 14) {
        let limit = distance - 1;
        let report = search(
            Algorithm::DepthLimitedDfs { limit },
            &start,
            &goal,
            u64::MAX,
        )
        .unwrap();
        assert_eq!(report.moves, None, "{start} -> {goal}, limit {limit}");
        assert!(!report.hit_limit);
        assert!(report.max_open <= limit as u64);
    }
}

#[test]
fn two_by_four_boards_too() {
    let t = temp_db("2x4");
    for (start, goal, distance) in random_pairs(&t.db, 5, 15) {
        // The limit a few moves above the distance keeps plain DFS quick.
        let others = [
            Algorithm::GreedyManhattan,
            Algorithm::DepthLimitedDfs {
                limit: distance + 4,
            },
        ];
        for algorithm in OPTIMAL.into_iter().chain(others) {
            check_solves(algorithm, &start, &goal, distance);
        }
    }
}

/// With too few expansions allowed, the limit is reported and no solution is
/// returned; with any limit, a solution returned is a right one.
#[test]
fn node_limits_never_give_wrong_answers() {
    let t = temp_db("3x3");
    let mut rng = StdRng::seed_from_u64(16);
    for (start, goal, distance) in random_pairs(&t.db, 10, 17) {
        assert!(distance > 0, "a random pair is almost never at distance 0");
        for algorithm in Algorithm::all(31) {
            // Every search expands at least one position per move of its
            // solution, so fewer than `distance` expansions cannot be enough.
            let report = search(algorithm, &start, &goal, distance as u64 - 1).unwrap();
            assert!(report.hit_limit, "{algorithm}: {start} -> {goal}");
            assert_eq!(report.moves, None, "{algorithm}: {start} -> {goal}");
            assert!(report.expanded < distance as u64);

            let max_nodes = rng.gen_range(0..3000);
            let report = search(algorithm, &start, &goal, max_nodes).unwrap();
            assert!(report.expanded <= max_nodes);
            match report.moves {
                Some(moves) => {
                    assert_eq!(start.replay(&moves), Some(goal), "{algorithm}");
                    if algorithm.is_optimal() {
                        assert_eq!(moves.len() as u32, distance, "{algorithm}");
                    }
                }
                None => assert!(report.hit_limit, "{algorithm}: {start} -> {goal}"),
            }
        }
    }
}

#[test]
fn unsolvable_pairs_are_not_searched() {
    let s = Shape::THREE_BY_THREE;
    let goal = Board::goal(s);
    // Two tiles of the goal swapped: the classic unsolvable position.
    let start = parse_board("213456780", s).unwrap();
    for algorithm in Algorithm::all(31) {
        let report = search(algorithm, &start, &goal, u64::MAX).unwrap();
        assert!(!report.solvable);
        assert_eq!(report.moves, None);
        assert_eq!((report.expanded, report.max_open), (0, 0));
        assert!(!report.hit_limit);
    }
}

#[test]
fn the_goal_itself_needs_no_moves() {
    let goal = parse_board("123804765", Shape::THREE_BY_THREE).unwrap();
    for algorithm in Algorithm::all(31) {
        let report = search(algorithm, &goal, &goal, 0).unwrap();
        assert_eq!(report.moves, Some(Vec::<Move>::new()), "{algorithm}");
        assert_eq!(report.expanded, 0);
    }
}

#[test]
fn boards_of_different_sizes_are_refused() {
    let start = Board::goal("2x4".parse().unwrap());
    let goal = Board::goal(Shape::THREE_BY_THREE);
    assert_eq!(
        search(Algorithm::Bfs, &start, &goal, 10),
        Err(ShapeMismatch {
            start: start.shape(),
            goal: goal.shape()
        })
    );
}

/// Each single comparison's run of the algorithm `name`.
fn runs_of<'a>(singles: &'a [serde_json::Value], name: &str) -> Vec<&'a serde_json::Value> {
    let of = |c: &'a serde_json::Value| {
        let runs = c["algorithms"].as_array().unwrap();
        runs.iter().find(|r| r["algorithm"] == name).unwrap()
    };
    singles.iter().map(of).collect()
}

/// `compare --distance`: each row's means are those of `compare START` over
/// the positions `random` draws with the same seed; b* fits its tree; the
/// optimal searches are optimal every time; where fewer positions lie at a
/// distance than asked, all of them are searched.
#[test]
fn mean_costs_at_a_distance_are_the_single_comparisons_averaged() {
    let t = crate::util::temp_db("3x3");
    let json = |args: &[&str]| crate::util::json_answer(&t.path, args);
    let costs = json(&[
        "compare",
        "--distance",
        "7..=8",
        "--count",
        "4",
        "--seed",
        "3",
        "--json",
    ]);
    let rows = costs["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2 * 8);
    for d in [7u32, 8] {
        let drawn = crate::util::printed(
            &t.path,
            &[
                "random",
                "--distance",
                &d.to_string(),
                "--count",
                "4",
                "--seed",
                "3",
            ],
            0,
        );
        let singles: Vec<serde_json::Value> = drawn
            .lines()
            .map(|s| json(&["compare", s, "--json"]))
            .collect();
        assert_eq!(singles.len(), 4);
        for row in rows.iter().filter(|r| r["distance"] == d) {
            let name = row["algorithm"].as_str().unwrap();
            let runs = runs_of(&singles, name);
            let mean = |key: &str| {
                runs.iter()
                    .map(|r| r[key].as_u64().unwrap() as f64)
                    .sum::<f64>()
                    / 4.0
            };
            assert_eq!(row["positions"], 4, "{row}");
            assert!(
                (row["mean_expanded"].as_f64().unwrap() - mean("expanded")).abs() < 1e-9,
                "{row}"
            );
            assert!(
                (row["mean_max_open"].as_f64().unwrap() - mean("max_open")).abs() < 1e-9,
                "{row}"
            );
            let optimal = runs.iter().filter(|r| r["optimal"] == true).count();
            assert_eq!(row["optimal"], optimal, "{row}");
            if ["bfs", "iddfs", "astar-manhattan", "idastar-manhattan"].contains(&name) {
                assert_eq!(optimal, 4, "{row}");
            }
            // 1 + b* + … + b*^d = expanded + 1.
            let b = row["effective_branching"].as_f64().unwrap();
            let tree: f64 = (0..=d).map(|i| b.powi(i as i32)).sum();
            let want = mean("expanded") + 1.0;
            assert!(
                b == 1.0 && tree >= want || (tree - want).abs() < 1e-6 * want,
                "{row}"
            );
        }
    }
    // Two positions lie one move from the goal: both are searched.
    let near = json(&["compare", "--distance", "1", "--count", "5", "--json"]);
    assert_eq!(near["rows"][0]["positions"], 2);
    let csv = crate::util::printed(&t.path, &["compare", "--distance", "1", "--csv"], 0);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("distance,algorithm,positions,solved,optimal,mean_expanded,effective_branching,mean_max_open")
    );
    assert_eq!(lines.count(), 8);
    // Refused: a start with --distance, a distance past the table's, the
    // flags of --distance without it, and --timeout with it.
    crate::util::run_query(&t.path, &["compare", "--distance", "3", "867254301"], 2);
    for flag in [
        &["--csv"][..],
        &["--count", "3"],
        &["--seed", "3"],
        &["--threads", "1"],
        &["--plot", "c.svg"],
    ] {
        let args = [&["compare", "867254301"][..], flag].concat();
        let out = crate::util::run_query(&t.path, &args, 2);
        assert!(
            crate::util::stderr_of(&out).contains("goes with --distance"),
            "{flag:?}"
        );
    }
    let args = ["compare", "--distance", "3", "--timeout", "5"];
    let out = crate::util::run_query(&t.path, &args, 2);
    assert!(crate::util::stderr_of(&out).contains("--timeout bounds the search for one start"));
    // The positions are searched side by side: on one thread or on every
    // core, the same bytes; a thread count past the machine's refused.
    let on = |threads: &str| {
        let args = [
            "compare",
            "--distance",
            "9..=10",
            "--count",
            "6",
            "--csv",
            "--threads",
            threads,
        ];
        crate::util::printed(&t.path, &args, 0)
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(on("1"), on(&cores.to_string()));
    for absurd in ["0", "-1", "65535", "99999999999999999999999", "two"] {
        let args = ["compare", "--distance", "3", "--threads", absurd];
        let said = crate::util::stderr_of(&crate::util::run_query(&t.path, &args, 2));
        assert!(said.contains("--threads"), "{absurd}: {said}");
    }
    // Past the farthest, refused before any search, a range too.
    for far in ["40", "0..=100000"] {
        let out = crate::util::run_query(&t.path, &["compare", "--distance", far], 2);
        let said = crate::util::stderr_of(&out);
        assert!(said.contains("the farthest lies 31 moves away"), "{said}");
    }
}

/// On a pattern database the positions are walked to: each row is the
/// mean of the single comparisons of the positions `random --distance`
/// finds, each of which the file's own search puts exactly that far;
/// depth-first search is limited to the distance; past the farthest 4×4
/// position, refused before any search.
#[test]
fn mean_costs_on_pattern_databases_average_the_walked_positions() {
    let path = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let json = |args: &[&str]| crate::util::json_answer(&path, args);
    let distances = [
        "compare",
        "--distance",
        "9..=10",
        "--count",
        "3",
        "--seed",
        "2",
    ];
    let limit = ["--max-nodes", "20000", "--json"];
    let costs = json(&[&distances[..], &limit].concat());
    assert_eq!(costs["drawn"], "walks");
    let rows = costs["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2 * 8);
    for d in [9u64, 10] {
        let shown = d.to_string();
        let random = [
            "random",
            "--distance",
            &shown,
            "--count",
            "3",
            "--seed",
            "2",
        ];
        let drawn = crate::util::printed(&path, &random, 0);
        let singles: Vec<serde_json::Value> = (drawn.lines())
            .map(|s| {
                let distance = crate::util::printed(&path, &["distance", s], 0);
                assert_eq!(distance.trim(), shown, "{s}");
                json(&[&["compare", s][..], &limit].concat())
            })
            .collect();
        assert_eq!(singles.len(), 3);
        for row in rows.iter().filter(|r| r["distance"] == d) {
            let name = row["algorithm"].as_str().unwrap();
            let runs = runs_of(&singles, name);
            let expanded: f64 = runs.iter().map(|r| r["expanded"].as_f64().unwrap()).sum();
            assert!((row["mean_expanded"].as_f64().unwrap() - expanded / 3.0).abs() < 1e-9);
            let optimal = runs.iter().filter(|r| r["optimal"] == true).count();
            assert_eq!(row["optimal"], optimal, "{row}");
            if ["astar-manhattan", "idastar-manhattan", "dfs"].contains(&name) {
                assert_eq!(optimal, 3, "{row}");
            }
            if name == "dfs" {
                assert!(runs.iter().all(|r| r["depth_limit"] == d));
            }
        }
    }
    let text = crate::util::printed(&path, &distances, 0);
    assert!(text.contains("found by random walks (seed 2)"), "{text}");
    // Charted, depth-first search is one line, though its limit is each
    // distance: its name is in the legend once.
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("costs.svg");
    let plot = [&distances[..], &["--plot", chart.to_str().unwrap()]].concat();
    crate::util::printed(&path, &plot, 0);
    let svg = std::fs::read_to_string(&chart).unwrap();
    let names = |name: &str| svg.matches(&format!(">\n{name}\n</text>")).count();
    assert_eq!((names("dfs"), names("bfs")), (1, 1), "{svg}");
    let out = crate::util::run_query(&path, &["compare", "--distance", "79..=81"], 2);
    let said = crate::util::stderr_of(&out);
    assert!(said.contains("the farthest lies 80 moves away"), "{said}");
    // Every distance's positions are walked to before any search: one the
    // walks never reach (none lies 32 moves out; few 29 to 31) ends the run
    // within seconds, where searching the distances before it, 300
    // positions each, would take many minutes.
    let patterns = crate::pattern_file::pattern_file("3x3", "4-4");
    let began = std::time::Instant::now();
    let args = ["compare", "--distance", "20..=32", "--count", "300"];
    let said = crate::util::stderr_of(&crate::util::run_query(&patterns, &args, 2));
    assert!(said.starts_with("query: no position "), "{said}");
    assert!(
        said.contains("moves from the goal was found in 256 walks"),
        "{said}"
    );
    assert!(began.elapsed().as_secs() < 60, "{:?}", began.elapsed());
}

/// `compare --distance --plot`: the chart names every search the table
/// lists, and the limit; a path that cannot take a chart is refused before
/// any search, and nothing is written.
#[test]
fn mean_costs_at_each_distance_are_charted() {
    let t = crate::util::temp_db("3x3");
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("costs.svg");
    let args = [
        "compare",
        "--distance",
        "1..=8",
        "--count",
        "3",
        "--max-nodes",
        "5000",
        "--json",
        "--plot",
        chart.to_str().unwrap(),
    ];
    let costs = crate::util::json_answer(&t.path, &args);
    let svg = std::fs::read_to_string(&chart).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    let rows = costs["rows"].as_array().unwrap();
    for name in rows.iter().map(|r| r["algorithm"].as_str().unwrap()) {
        assert!(texts.contains(&name), "{name}: {texts:?}");
    }
    assert!(texts.contains(&"limit: 5,000"), "{texts:?}");
    let bad = [
        ("costs.jpg", "use .svg or .png"),
        ("costs", "use .svg or .png"),
        ("missing/costs.svg", "does not exist"),
    ];
    for (bad, why) in bad {
        let path = dir.path().join(bad);
        let args = [
            "compare",
            "--distance",
            "1..=31",
            "--plot",
            path.to_str().unwrap(),
        ];
        let started = std::time::Instant::now();
        let said = crate::util::stderr_of(&crate::util::run_query(&t.path, &args, 2));
        assert!(
            said.contains("cannot write the chart") && said.contains(why),
            "{said}"
        );
        // Every distance at the default 2,000,000 expansions takes minutes.
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        assert!(!path.exists());
    }
}
