//! Facts anyone can check: published distance tables, known positions,
//! replayed solutions, and a plain search that shares no code with the library.

use crate::util::{histogram, plain_bfs, temp_db, A089473};
use npuzzle::{parse_board, AnswerError, Board, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};

#[test]
fn the_eight_puzzle_histogram_is_the_published_one() {
    let t = temp_db("3x3");
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let target = t.db.goal_table(&goal).unwrap();
    assert_eq!(target.info().counts, A089473);
    let mut farthest: Vec<String> = target.positions_at(31).map(|b| b.to_string()).collect();
    farthest.sort();
    assert_eq!(farthest, ["647850321", "867254301"]);
}

#[test]
fn known_distances_and_an_unsolvable_pair() {
    let t = temp_db("3x3");
    let s = Shape::THREE_BY_THREE;
    let b = |text| parse_board(text, s).unwrap();
    let goal = b("123804765");
    assert_eq!(t.db.distance(&b("216408753"), &goal), Ok(18));
    assert_eq!(t.db.distance(&b("283104765"), &goal), Ok(4));
    assert!(matches!(
        t.db.distance(&b("234150768"), &goal),
        Err(AnswerError::Unsolvable(_))
    ));
    assert_eq!(t.db.distance(&b("867254301"), &Board::goal(s)), Ok(31));
    let moves = t.db.solve(&b("123468750"), &Board::goal(s)).unwrap();
    assert_eq!(npuzzle::rules::move_string(&moves), "ULDR");
}

/// Random (start, goal) pairs, goals random too: the database agrees with a
/// plain BFS from the goal, and every solution replays to the goal.
fn agrees_with_plain_bfs(size: &str, goals: usize, starts: usize, seed: u64) {
    let t = temp_db(size);
    let shape = t.db.shape();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut cells: Vec<u8> = (0..shape.cells() as u8).collect();
    for _ in 0..goals {
        cells.shuffle(&mut rng);
        let goal_cells = cells.clone();
        let truth = plain_bfs(shape.rows(), shape.cols(), &goal_cells);
        let goal = board(shape, &goal_cells);
        assert_eq!(
            t.db.goal_table(&goal).unwrap().info().counts,
            histogram(&truth)
        );
        for _ in 0..starts {
            cells.shuffle(&mut rng);
            let start = board(shape, &cells);
            match (truth.get(&cells), t.db.solve(&start, &goal)) {
                (Some(&d), Ok(moves)) => {
                    assert_eq!(moves.len() as u32, d, "{start} -> {goal}");
                    assert_eq!(start.replay(&moves), Some(goal), "{start} -> {goal}");
                    assert_eq!(t.db.distance(&start, &goal), Ok(d));
                }
                (None, Err(AnswerError::Unsolvable(_))) => {}
                (expected, got) => {
                    panic!("{start} -> {goal}: plain BFS {expected:?}, database {got:?}")
                }
            }
        }
    }
}

fn board(shape: Shape, cells: &[u8]) -> Board {
    Board::new(shape, &cells.iter().map(|&c| c as u64).collect::<Vec<_>>()).unwrap()
}

#[test]
fn three_by_three_agrees_with_plain_bfs_for_random_goals() {
    agrees_with_plain_bfs("3x3", 3, 300, 1);
}

#[test]
fn every_small_board_agrees_with_plain_bfs() {
    for (size, seed) in [("2x2", 2), ("2x3", 3), ("3x2", 4), ("2x4", 5), ("4x2", 6)] {
        agrees_with_plain_bfs(size, 6, 200, seed);
    }
}

#[test]
fn every_table_of_every_small_board_matches_plain_bfs() {
    for size in ["2x2", "2x3", "3x2", "2x4", "4x2"] {
        let t = temp_db(size);
        let shape = t.db.shape();
        for blank in 0..shape.cells() {
            let goal = Board::canonical_goal(shape, blank);
            let truth = plain_bfs(shape.rows(), shape.cols(), goal.cells());
            let info = t.db.table_info(blank).unwrap();
            assert_eq!(
                info.counts,
                histogram(&truth),
                "{size}, blank in cell {blank}"
            );
        }
    }
}

#[test]
fn a_database_passes_verify() {
    let t = temp_db("2x4");
    assert!(t.db.verify().ok);
}

#[test]
fn lookups_from_many_threads_at_once_agree() {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<npuzzle::CompleteTables<memmap2::Mmap>>();

    let t = temp_db("3x3");
    let shape = Shape::THREE_BY_THREE;
    let goal = parse_board("123804765", shape).unwrap();
    let target = t.db.goal_table(&goal).unwrap();
    let starts: Vec<Board> = (0..=30)
        .flat_map(|d| target.positions_at(d).step_by(97))
        .collect();
    let expected: Vec<Vec<npuzzle::Move>> = starts
        .iter()
        .map(|s| t.db.solve(s, &goal).unwrap())
        .collect();
    std::thread::scope(|scope| {
        for offset in 0..8 {
            let (db, starts, expected) = (&t.db, &starts, &expected);
            scope.spawn(move || {
                for i in (offset..starts.len()).chain(0..offset) {
                    assert_eq!(db.solve(&starts[i], &goal).unwrap(), expected[i]);
                }
            });
        }
    });
}

/// The largest board a plain search checks in a test's time: both of the
/// library's searches (lists for small boards, bitsets for 12-cell ones)
/// find every distance the textbook search finds, and the maximum is 55
/// (OEIS A090036).
#[test]
fn two_by_five_agrees_with_plain_bfs_in_both_searches() {
    use npuzzle::raw::{search_with_bitsets, search_with_lists};
    let shape: Shape = "2x5".parse().unwrap();
    let goal = Board::goal(shape);
    let truth = plain_bfs(shape.rows(), shape.cols(), goal.cells());
    let ranker = npuzzle::raw::Ranker::new(shape, goal.blank());
    let lists = |shape, blank, on_level: &(dyn Fn(npuzzle::tables::BuildProgress) + Sync)| {
        search_with_lists(shape, blank, npuzzle::Metric::SingleTile, false, on_level)
    };
    let bitsets = |shape, blank, on_level: &(dyn Fn(npuzzle::tables::BuildProgress) + Sync)| {
        search_with_bitsets(shape, blank, npuzzle::Metric::SingleTile, on_level)
    };
    for search in [lists, bitsets] {
        let table = search(shape, goal.blank(), &|_| {});
        assert_eq!(table.counts, histogram(&truth));
        assert_eq!(table.max_distance(), 55);
        for (cells, &d) in &truth {
            let rank = ranker.rank(&board(shape, cells));
            assert_eq!(
                npuzzle::raw::entry::distance_field(table.entries[rank as usize]) as u32,
                d
            );
        }
    }
}
