//! Puzzles of exact difficulty, all shortest solutions and state-space
//! statistics, checked against a plain search that shares no code with the
//! library.

use crate::util::{plain_bfs, temp_db};
use npuzzle::analysis::{count_shortest, list_shortest, sample, stats};
use npuzzle::{Board, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::collections::HashMap;

fn cells(board: &Board) -> Vec<u8> {
    board.cells().to_vec()
}

#[test]
fn random_positions_lie_at_the_asked_distance_and_repeat_with_the_seed() {
    let t = temp_db("3x3");
    let goal: Board = npuzzle::parse_board("123804765", Shape::THREE_BY_THREE).unwrap();
    let target = t.db.goal_table(&goal).unwrap();
    let truth = plain_bfs(3, 3, goal.cells());
    for range in [20..=20, 25..=28, 30..=30, 0..=0] {
        let count = target.info().counts[*range.start() as usize..=*range.end() as usize]
            .iter()
            .sum::<u64>()
            .min(500) as usize;
        let drawn = sample(&target, range.clone(), count, &mut StdRng::seed_from_u64(9)).unwrap();
        assert_eq!(drawn.len(), count);
        for p in &drawn {
            assert!(range.contains(&truth[&cells(p)]), "{p} is not at {range:?}");
        }
        let mut distinct = drawn.clone();
        distinct.sort_by_key(|b| b.to_string());
        distinct.dedup();
        assert_eq!(distinct.len(), count, "positions repeat");
        let again = sample(&target, range.clone(), count, &mut StdRng::seed_from_u64(9)).unwrap();
        assert_eq!(again, drawn, "the same seed gives another draw");
    }
    let other = sample(&target, 20..=20, 50, &mut StdRng::seed_from_u64(10)).unwrap();
    let first = sample(&target, 20..=20, 50, &mut StdRng::seed_from_u64(9)).unwrap();
    assert_ne!(other, first, "another seed gives the same draw");
    assert!(sample(&target, 32..=40, 1, &mut StdRng::seed_from_u64(1)).is_err());
    assert!(sample(&target, 31..=31, 3, &mut StdRng::seed_from_u64(1)).is_err());
}

/// The upper 0.1% point of the chi-square distribution (Wilson–Hilferty).
fn chi_square_critical(df: f64) -> f64 {
    let z = 3.09;
    df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3)
}

#[test]
fn random_positions_cover_their_distance_uniformly() {
    let t = temp_db("2x3");
    let goal = Board::goal(t.db.shape());
    let target = t.db.goal_table(&goal).unwrap();
    let truth = plain_bfs(2, 3, goal.cells());
    for (range, per_position) in [(12..=12, 200), (14..=16, 100)] {
        let population: Vec<&Vec<u8>> = truth
            .iter()
            .filter(|(_, d)| range.contains(*d))
            .map(|(c, _)| c)
            .collect();
        let draws = population.len() * per_position;
        let mut tally: HashMap<Vec<u8>, usize> = HashMap::new();
        for seed in 0..draws as u64 {
            let p = sample(&target, range.clone(), 1, &mut StdRng::seed_from_u64(seed)).unwrap();
            *tally.entry(cells(&p[0])).or_default() += 1;
        }
        assert_eq!(
            tally.len(),
            population.len(),
            "some positions were never drawn"
        );
        let expected = per_position as f64;
        let chi2: f64 = population
            .iter()
            .map(|c| {
                let o = *tally.get(*c).unwrap_or(&0) as f64;
                (o - expected).powi(2) / expected
            })
            .sum();
        let df = population.len() as f64 - 1.0;
        assert!(
            chi2 < chi_square_critical(df),
            "chi-square {chi2:.1} for {df} degrees of freedom"
        );
    }
}

/// Shortest paths counted by a plain recursion over a plain BFS's distances.
fn plain_count(
    dist: &HashMap<Vec<u8>, u32>,
    state: &[u8],
    cols: usize,
    memo: &mut HashMap<Vec<u8>, u128>,
) -> u128 {
    let d = dist[state];
    if d == 0 {
        return 1;
    }
    if let Some(&n) = memo.get(state) {
        return n;
    }
    let blank = state.iter().position(|&t| t == 0).unwrap();
    let rows = state.len() / cols;
    let (r, c) = (blank / cols, blank % cols);
    let mut total = 0;
    for (nr, nc) in [
        (r.wrapping_sub(1), c),
        (r + 1, c),
        (r, c.wrapping_sub(1)),
        (r, c + 1),
    ] {
        if nr >= rows || nc >= cols {
            continue;
        }
        let mut next = state.to_vec();
        next.swap(blank, nr * cols + nc);
        if dist[&next] + 1 == d {
            total += plain_count(dist, &next, cols, memo);
        }
    }
    memo.insert(state.to_vec(), total);
    total
}

#[test]
fn counts_of_shortest_solutions_agree_with_a_plain_count() {
    for (size, rows, cols) in [("3x3", 3, 3), ("2x4", 2, 4)] {
        let t = temp_db(size);
        let shape = t.db.shape();
        let mut rng = StdRng::seed_from_u64(17);
        let mut goal_cells: Vec<u8> = (0..shape.cells() as u8).collect();
        for _ in 0..2 {
            goal_cells.shuffle(&mut rng);
            let goal = Board::new(
                shape,
                &goal_cells.iter().map(|&c| c as u64).collect::<Vec<_>>(),
            )
            .unwrap();
            let dist = plain_bfs(rows, cols, &goal_cells);
            let target = t.db.goal_table(&goal).unwrap();
            let mut memo = HashMap::new();
            let starts: Vec<&Vec<u8>> = dist.keys().step_by(997).take(40).collect();
            for start_cells in starts {
                let start = Board::new(
                    shape,
                    &start_cells.iter().map(|&c| c as u64).collect::<Vec<_>>(),
                )
                .unwrap();
                let count = count_shortest(&target, &start).unwrap();
                assert_eq!(
                    count,
                    plain_count(&dist, start_cells, cols, &mut memo),
                    "{start} -> {goal}"
                );
                let listed = list_shortest(&target, &start, 50).unwrap();
                assert_eq!(listed.len() as u128, count.min(50));
                for moves in &listed {
                    assert_eq!(moves.len() as u32, dist[start_cells]);
                    assert_eq!(start.replay(moves), Some(goal));
                }
                let mut sorted = listed.clone();
                sorted.sort_by_key(|m| npuzzle::rules::move_string(m));
                sorted.dedup();
                assert_eq!(
                    sorted, listed,
                    "listed solutions repeat or are out of order"
                );
            }
        }
    }
}

#[test]
fn stats_match_the_published_eight_puzzle_facts() {
    let t = temp_db("3x3");
    let tables = stats(&t.db).tables;
    let cell = |index| npuzzle::Cell::of(Shape::THREE_BY_THREE, index);
    assert_eq!(tables.len(), 9);
    let last = tables.iter().find(|s| s.blank == cell(8)).unwrap();
    assert_eq!(last.goal, "123456780");
    assert_eq!(last.max_distance, 31);
    assert_eq!(last.farthest, ["647850321", "867254301"]);
    // Sum of d * A089473(d) / 181440.
    let mean: f64 = crate::util::A089473
        .iter()
        .enumerate()
        .map(|(d, &c)| d as f64 * c as f64)
        .sum::<f64>()
        / 181440.0;
    assert!((last.mean_distance - mean).abs() < 1e-12);
    let centre = tables.iter().find(|s| s.blank == cell(4)).unwrap();
    assert_eq!(centre.max_distance, 30);
    for s in &tables {
        let truth = plain_bfs(
            3,
            3,
            Board::canonical_goal(Shape::THREE_BY_THREE, s.blank.index(Shape::THREE_BY_THREE))
                .cells(),
        );
        let max = *truth.values().max().unwrap();
        let mut far: Vec<String> = truth
            .iter()
            .filter(|(_, &d)| d == max)
            .map(|(c, _)| c.iter().map(|t| t.to_string()).collect())
            .collect();
        far.sort();
        let mut antipodes = s.farthest.clone();
        antipodes.sort();
        assert_eq!(
            (s.max_distance, antipodes),
            (max, far),
            "blank in cell {}",
            s.blank
        );
    }
}

#[test]
fn best_moves_are_exactly_the_moves_one_step_closer() {
    use npuzzle::analysis::best_moves;
    use npuzzle::Move;
    for (size, rows, cols) in [("2x3", 2, 3), ("3x3", 3, 3)] {
        let t = temp_db(size);
        let shape = t.db.shape();
        let goal = Board::goal(shape);
        let dist = plain_bfs(rows, cols, goal.cells());
        let target = t.db.goal_table(&goal).unwrap();
        for start_cells in dist.keys().step_by(97) {
            let start = Board::new(
                shape,
                &start_cells.iter().map(|&c| c as u64).collect::<Vec<_>>(),
            )
            .unwrap();
            let d = dist[start_cells];
            let best = best_moves(&target, &start).unwrap();
            // Letter order, as `list_shortest` walks them.
            let expected: Vec<Move> = [Move::Down, Move::Left, Move::Right, Move::Up]
                .into_iter()
                .filter(|&m| {
                    start
                        .apply(m)
                        .is_some_and(|next| dist[&cells(&next)] + 1 == d)
                })
                .collect();
            assert_eq!(best, expected, "{start}");
            assert_eq!(best.is_empty(), d == 0, "{start}");
        }
    }
}

#[test]
fn neighbours_are_each_move_with_its_distance_from_either_kind_of_file() {
    use npuzzle::analysis::neighbours;
    use npuzzle::pattern::{Partition, SolveOptions};
    let shape = Shape::THREE_BY_THREE;
    let goal = Board::goal(shape);
    let truth = plain_bfs(3, 3, goal.cells());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x3-4-4.db");
    let plan = npuzzle::Plan::Patterns {
        partition: Partition::named(shape, "4-4").unwrap(),
        goal_blanks: vec![8],
    };
    npuzzle::build(&path, &plan, &|_, _| {}).unwrap();
    let patterns = npuzzle::Database::open(&path).unwrap();
    let complete = npuzzle::Database::open(&temp_db("3x3").path).unwrap();
    let mut positions: Vec<&Vec<u8>> = truth.keys().collect();
    positions.sort();
    positions.shuffle(&mut StdRng::seed_from_u64(5));
    let goal_cells = goal.cells().to_vec();
    for cells in positions.into_iter().take(150).chain([&goal_cells]) {
        let tiles: Vec<u64> = cells.iter().map(|&t| t.into()).collect();
        let start = Board::new(shape, &tiles).unwrap();
        let blank = cells.iter().position(|&t| t == 0).unwrap();
        // A corner's blank has 2 moves, an edge's 3, the centre's 4.
        let legal = [
            blank % 3 != 0,
            blank % 3 != 2,
            blank / 3 != 0,
            blank / 3 != 2,
        ]
        .iter()
        .filter(|&&can| can)
        .count();
        for db in [&complete, &patterns] {
            let (distance, moves) =
                neighbours(db, &start, &goal, &SolveOptions::default()).unwrap();
            assert_eq!(distance, truth[cells], "{start}");
            assert_eq!(moves.len(), legal, "{start}");
            for (m, tiles, next, after) in moves {
                assert_eq!((tiles, start.apply(m)), (1, Some(next)));
                assert_eq!(after, truth[next.cells()], "{start} then {m:?}");
            }
        }
    }
    let unsolvable = npuzzle::parse_board("213456780", shape).unwrap();
    for db in [&complete, &patterns] {
        let e = neighbours(db, &unsolvable, &goal, &SolveOptions::default()).unwrap_err();
        assert!(e.unsolvable().is_some(), "{e}");
    }
    // Toward a goal neither file serves (the 4-4 tables and a corner-only
    // complete file): unsolvable first, as `solve` says it.
    let corner = crate::util::temp_db_with_blanks("3x3", &[8]);
    let corner = npuzzle::Database::open(&corner.path).unwrap();
    let centre = npuzzle::parse_board("123804765", shape).unwrap();
    let unsolvable = npuzzle::parse_board("213804765", shape).unwrap();
    for db in [&corner, &patterns] {
        let e = neighbours(db, &unsolvable, &centre, &SolveOptions::default()).unwrap_err();
        assert!(e.unsolvable().is_some(), "{e}");
        let solvable = npuzzle::parse_board("123840765", shape).unwrap();
        let e = neighbours(db, &solvable, &centre, &SolveOptions::default()).unwrap_err();
        assert!(matches!(e, npuzzle::AnswerError::MissingGoal { .. }), "{e}");
    }
}

#[test]
fn a_uniform_draw_gives_distances_from_complete_tables_and_refuses_goals_not_served() {
    use npuzzle::analysis::{DrawError, Sample};
    let shape = Shape::THREE_BY_THREE;
    let goal = npuzzle::parse_board("123804765", shape).unwrap();
    let truth = plain_bfs(3, 3, goal.cells());
    let complete = npuzzle::Database::open(&temp_db("3x3").path).unwrap();
    let drawn = Sample::uniform_for(Some(&complete), &goal, 300, 4).unwrap();
    let without_file = Sample::uniform_for(None::<&npuzzle::Database<Vec<u8>>>, &goal, 300, 4);
    let without_file = without_file.unwrap();
    assert_eq!(drawn.positions.len(), 300);
    for (p, same) in drawn.positions.iter().zip(&without_file.positions) {
        assert_eq!(p.distance, Some(truth[&cells(&p.start)]), "{}", p.start);
        assert_eq!((same.start, same.distance), (p.start, None));
    }
    // A file with the corner goal's table only cannot answer this goal.
    let corner = crate::util::temp_db_with_blanks("3x3", &[8]);
    let corner = npuzzle::Database::open(&corner.path).unwrap();
    let refused = Sample::uniform_for(Some(&corner), &goal, 3, 4).unwrap_err();
    assert!(matches!(
        refused,
        DrawError::Answer(npuzzle::AnswerError::MissingGoal { .. })
    ));
    // A pattern file gives no distances, so its tables need not reach the
    // goal: the draw is the one made with no file.
    let patterns = crate::pattern_file::pattern_file("3x3", "4-4");
    let patterns = npuzzle::Database::open(&patterns).unwrap();
    assert!(patterns.check_goal(&goal).is_err());
    let drawn = Sample::uniform_for(Some(&patterns), &goal, 300, 4).unwrap();
    assert_eq!(drawn.positions, without_file.positions);
}
