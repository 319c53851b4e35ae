//! Path tables: solving with one word per position gives exactly the moves
//! that stepping through the table gives, on every board that has them,
//! including solutions longer than one word.

use crate::util::{plain_bfs, temp_db_built, TempDb};
use npuzzle::{tables::all_goals, Board, GoalTable, Move, Shape};

/// Solves every position of `target` and `stepped` (the same table without
/// a path table) at distances in `distances`, and checks that the two agree
/// move for move and that the moves replay to the goal. Returns how many
/// positions it solved.
fn agree(
    with_paths: &GoalTable<'_>,
    stepped: &GoalTable<'_>,
    distances: std::ops::RangeInclusive<u32>,
) -> usize {
    assert!(with_paths.path_table().is_some() && stepped.path_table().is_none());
    let goal = *with_paths.goal();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut solved = 0;
    for rank in with_paths.ranks_within(distances) {
        let start = with_paths.board_at(rank);
        a.clear();
        b.clear();
        let d = with_paths.solve_into(&start, &mut a).unwrap();
        assert_eq!(stepped.solve_into(&start, &mut b), Ok(d), "{start}");
        assert_eq!(a, b, "{start}");
        assert_eq!(a.len() as u32, d);
        assert_eq!(start.replay(&a), Some(goal), "{start}");
        solved += 1;
    }
    solved
}

fn pair(size: &str) -> (TempDb, TempDb) {
    let shape: Shape = size.parse().unwrap();
    let blanks = all_goals(shape);
    (
        temp_db_built(size, &blanks, true),
        temp_db_built(size, &blanks, false),
    )
}

/// All 181,440 positions for the default goal, and for goals served through
/// a relabelling and through a reflected table.
#[test]
fn three_by_three_words_give_the_stepped_moves() {
    let (paths, steps) = pair("3x3");
    let shape = Shape::THREE_BY_THREE;
    for goal in ["123456780", "123804765", "012345678", "087654321"] {
        let goal = npuzzle::parse_board(goal, shape).unwrap();
        let (a, b) = (
            paths.db.goal_table(&goal).unwrap(),
            steps.db.goal_table(&goal).unwrap(),
        );
        let solved = agree(&a, &b, 0..=31);
        assert_eq!(solved, 181_440, "{goal}");
    }
}

/// 2×4 reaches 36 moves and 2×5 55: past 32, a solution goes on with the
/// word of the position it has reached.
#[test]
fn solutions_longer_than_a_word_continue() {
    let (paths, steps) = pair("2x4");
    let goal = Board::goal(paths.db.shape());
    let (a, b) = (
        paths.db.goal_table(&goal).unwrap(),
        steps.db.goal_table(&goal).unwrap(),
    );
    assert_eq!(agree(&a, &b, 0..=36), 20_160);
    // Each length is the true distance, by a search that shares no code.
    let truth = plain_bfs(2, 4, goal.cells());
    let mut moves = Vec::new();
    for (cells, d) in truth {
        let cells: Vec<u64> = cells.iter().map(|&t| t as u64).collect();
        let start = Board::new(goal.shape(), &cells).unwrap();
        moves.clear();
        assert_eq!(a.solve_into(&start, &mut moves), Ok(d), "{start}");
    }

    let (paths, steps) = pair("2x5");
    let shape = paths.db.shape();
    for goal in [Board::goal(shape), Board::canonical_goal(shape, 0)] {
        let (a, b) = (
            paths.db.goal_table(&goal).unwrap(),
            steps.db.goal_table(&goal).unwrap(),
        );
        assert!(agree(&a, &b, 50..=55) > 0);
        assert!(agree(&a, &b, 31..=33) > 0);
    }
}

/// Words hold moves two bits each, first move lowest, zeros after the last.
#[test]
fn a_word_spells_its_moves() {
    let (paths, _) = pair("2x3");
    let goal = Board::goal(paths.db.shape());
    let target = paths.db.goal_table(&goal).unwrap();
    let words = target.path_table().unwrap();
    let start = npuzzle::parse_board("012345", goal.shape()).unwrap();
    let rank = target.ranker().rank(&start);
    let word = npuzzle::raw::path_table::word_at(words, rank);
    let moves = paths.db.solve(&start, &goal).unwrap();
    let expected = moves
        .iter()
        .rev()
        .fold(0u64, |w, m: &Move| w << 2 | m.code() as u64);
    assert_eq!(word, expected);
}
