//! Property tests: every inverse pair is an identity on random inputs
//! (parse and format, rank and unrank, a cursor's moves and a fresh
//! ranking), and database answers obey the puzzle's laws: a solution
//! replays to the goal in exactly the distance, distance is symmetric, and
//! no answer depends on how the tiles are named or which table served it.
//!
//! Failing cases are shrunk and printed, not saved to a regressions file;
//! to keep one, copy it into a named test.

use npuzzle::raw::Ranker;
use npuzzle::{parse_board, rules::solvability, AnswerError, Board, CompleteTables, Move, Shape};
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::OnceLock;

/// Every supported board: parsing and ranking need no database.
const SHAPES: [&str; 12] = [
    "2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "2x5", "5x2", "3x4", "4x3", "2x6", "6x2",
];

/// Boards past complete tables, up to 6×6: parsing, printing and
/// solvability need no database.
const WIDE_SHAPES: [&str; 14] = [
    "4x4", "3x5", "5x3", "2x8", "3x6", "6x3", "2x9", "4x5", "5x4", "5x5", "4x6", "5x6", "6x5",
    "6x6",
];

/// Boards whose databases the lookup properties use: odd width and even
/// width, whose solvability rules differ.
const DATABASES: [&str; 2] = ["3x3", "2x4"];

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn shape(size: &str) -> Shape {
    size.parse().unwrap()
}

/// A uniformly random board of `shape`.
fn board_of(shape: Shape) -> impl Strategy<Value = Board> {
    Just((0..shape.cells() as u64).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(move |cells| Board::new(shape, &cells).unwrap())
}

/// A random board of a random supported shape.
fn any_board() -> impl Strategy<Value = Board> {
    select(&SHAPES[..]).prop_flat_map(|size| board_of(shape(size)))
}

/// A random board of any size up to 6×6.
fn any_size_board() -> impl Strategy<Value = Board> {
    let sizes: Vec<&str> = SHAPES.iter().chain(&WIDE_SHAPES).copied().collect();
    select(sizes).prop_flat_map(|size| board_of(shape(size)))
}

/// Whether `start` reaches `goal`, by the parity of the permutation that
/// takes one to the other (the blank counted as a tile, cycles counted
/// directly) against the parity of the blank's Manhattan distance: the
/// textbook argument, independent of the library's inversion count.
fn reaches_by_permutation_parity(start: &Board, goal: &Board) -> bool {
    let n = start.shape().cells();
    let mut goal_cell = vec![0; n];
    for (cell, &tile) in goal.cells().iter().enumerate() {
        goal_cell[tile as usize] = cell;
    }
    let to: Vec<usize> = start
        .cells()
        .iter()
        .map(|&t| goal_cell[t as usize])
        .collect();
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for first in 0..n {
        if !seen[first] {
            cycles += 1;
            let mut cell = first;
            while !seen[cell] {
                seen[cell] = true;
                cell = to[cell];
            }
        }
    }
    let permutation_odd = (n - cycles) % 2 == 1;
    let s = start.shape();
    let blank_moves = s.row_of(start.blank()).abs_diff(s.row_of(goal.blank()))
        + s.col_of(start.blank()).abs_diff(s.col_of(goal.blank()));
    permutation_odd == (blank_moves % 2 == 1)
}

/// The board with the cells `i` and `j` exchanged.
fn swapped(board: &Board, i: usize, j: usize) -> Board {
    let mut cells: Vec<u64> = board.cells().iter().map(|&t| t as u64).collect();
    cells.swap(i, j);
    Board::new(board.shape(), &cells).unwrap()
}

/// The board with its first two tiles exchanged: the other inversion
/// parity, so exactly one of `board` and this reaches any given goal.
fn other_parity(board: &Board) -> Board {
    let mut tiles = (0..board.shape().cells()).filter(|&i| i != board.blank());
    let (i, j) = (tiles.next().unwrap(), tiles.next().unwrap());
    swapped(board, i, j)
}

/// A board built from `board`'s cells rearranged: cell `i` of the result
/// holds cell `from(i)` of `board`.
fn rearranged(board: &Board, shape: Shape, from: impl Fn(usize) -> usize) -> Board {
    let cells: Vec<u64> = (0..shape.cells())
        .map(|i| board.cells()[from(i)] as u64)
        .collect();
    Board::new(shape, &cells).unwrap()
}

// ---------------------------------------------------------------------------
// Text forms, written independently of the library's own printing.

fn tile_text(tile: u8, blank: &str) -> String {
    if tile == 0 {
        blank.to_string()
    } else {
        tile.to_string()
    }
}

fn rows(board: &Board) -> impl Iterator<Item = &[u8]> {
    board.cells().chunks(board.shape().cols())
}

/// One character per cell (boards of up to ten cells).
fn compact(cells: &[u8], blank: &str) -> String {
    cells.iter().map(|&t| tile_text(t, blank)).collect()
}

/// Tiles joined by `sep`.
fn separated(cells: &[u8], sep: &str, blank: &str) -> String {
    let tiles: Vec<String> = cells.iter().map(|&t| tile_text(t, blank)).collect();
    tiles.join(sep)
}

/// Rows joined by `/`: compact rows where tiles are single digits,
/// space-separated rows beyond.
fn slashed(board: &Board, blank: &str) -> String {
    let small = board.shape().cells() <= 10;
    let rows: Vec<String> = rows(board)
        .map(|row| {
            if small {
                compact(row, blank)
            } else {
                separated(row, " ", blank)
            }
        })
        .collect();
    rows.join(if small { "/" } else { " / " })
}

fn json_nested(board: &Board) -> String {
    let rows: Vec<String> = rows(board)
        .map(|row| format!("[{}]", separated(row, ",", "0")))
        .collect();
    format!("[{}]", rows.join(","))
}

fn json_flat(board: &Board) -> String {
    format!("[{}]", separated(board.cells(), ",", "0"))
}

proptest! {
    #![proptest_config(config(1024))]

    /// parse ∘ format is the identity for every text form, every way of
    /// writing the blank, with whitespace around.
    #[test]
    fn every_text_form_parses_back_to_the_board(
        board in any_size_board(),
        blank in select(&["0", "_", "."][..]),
        pad in select(&["", " ", "\t", "  ", "\n"][..]),
    ) {
        let shape = board.shape();
        let mut forms = vec![
            board.to_string(),
            slashed(&board, blank),
            separated(board.cells(), " ", blank),
            separated(board.cells(), ",", blank),
            separated(board.cells(), ", ", blank),
            json_nested(&board),
            json_flat(&board),
        ];
        if shape.cells() <= 10 {
            forms.push(compact(board.cells(), blank));
        }
        for form in forms {
            for text in [form.clone(), format!("{pad}{form}{pad}")] {
                match parse_board(&text, shape) {
                    Ok(parsed) => prop_assert_eq!(parsed, board, "{:?}", text),
                    Err(e) => prop_assert!(false, "{:?} does not parse as {}: {}", text, shape, e),
                }
            }
        }
    }

    /// The library's solvability verdict (inversions relative to the goal,
    /// and the blank's row on even widths) agrees with the permutation's
    /// parity on every board size, and exactly one of a board and its
    /// two-tile swap reaches a goal.
    #[test]
    fn solvability_agrees_with_permutation_parity(
        (start, goal) in any_size_board().prop_flat_map(|b| (Just(b), board_of(b.shape()))),
    ) {
        let verdict = solvability::check(&start, &goal).is_ok();
        prop_assert_eq!(verdict, reaches_by_permutation_parity(&start, &goal), "{:?} to {:?}", start, goal);
        let swapped = other_parity(&start);
        prop_assert_eq!(solvability::check(&swapped, &goal).is_ok(), !verdict);
    }

    /// rank ∘ unrank is the identity on random ranks, for every goal
    /// blank cell, and unrank gives positions that belong to the table.
    #[test]
    fn rank_of_unrank_is_the_identity(
        (size, rank) in select(&SHAPES[..]).prop_flat_map(|size| {
            (Just(size), 0..shape(size).positions().unwrap() as u32)
        })
    ) {
        let s = shape(size);
        for goal_blank in 0..s.cells() {
            let ranker = Ranker::new(s, goal_blank);
            let board = ranker.unrank(rank);
            let cells: Vec<u64> = board.cells().iter().map(|&t| t as u64).collect();
            prop_assert_eq!(Board::new(s, &cells), Ok(board));
            let ranked = ranker.rank_and_inversions(&board);
            prop_assert_eq!(ranked.rank, rank, "goal blank {}: {:?}", goal_blank, board);
            prop_assert!(ranker.reaches_goal(board.blank(), ranked.inversions));
        }
    }

    /// unrank ∘ rank is the identity on random boards that reach the
    /// goal, for every goal blank cell; the blank's cell picks the block of
    /// ranks.
    #[test]
    fn unrank_of_rank_is_the_identity(board in any_board()) {
        let shape = board.shape();
        for goal_blank in 0..shape.cells() {
            let ranker = Ranker::new(shape, goal_blank);
            let inversions = ranker.rank_and_inversions(&board).inversions;
            let reaching = if ranker.reaches_goal(board.blank(), inversions) {
                board
            } else {
                other_parity(&board)
            };
            let ranked = ranker.rank_and_inversions(&reaching);
            prop_assert!(ranker.reaches_goal(reaching.blank(), ranked.inversions));
            prop_assert!((ranked.rank as usize) < ranker.len());
            prop_assert_eq!((ranked.rank / ranker.per_blank()) as usize, reaching.blank());
            prop_assert_eq!(ranker.unrank(ranked.rank), reaching, "goal blank {}", goal_blank);
        }
    }

    /// A random walk by `Ranker::step` stays where the same moves on a
    /// `Board` lead: the same cursor as ranking that board afresh, and
    /// blocked at exactly the same edges.
    #[test]
    fn cursor_steps_match_fresh_rankings(
        (size, goal_blank, start) in select(&SHAPES[..]).prop_flat_map(|size| {
            let s = shape(size);
            (Just(size), 0..s.cells(), 0..s.positions().unwrap() as u32)
        }),
        codes in prop::collection::vec(0u8..4, 0..120),
    ) {
        let ranker = Ranker::new(shape(size), goal_blank);
        let mut board = ranker.unrank(start);
        let mut cursor = ranker.cursor(&board).0;
        for code in codes {
            let m = Move::from_code(code);
            match (ranker.step(&cursor, m), board.apply(m)) {
                (Some(next), Some(moved)) => {
                    prop_assert_eq!(next, ranker.cursor(&moved).0, "{:?} then {:?}", board, m);
                    prop_assert_eq!(ranker.board(&next), moved);
                    cursor = next;
                    board = moved;
                }
                (None, None) => {}
                (stepped, applied) => prop_assert!(
                    false,
                    "{:?} then {:?}: the cursor gives {:?}, the board {:?}",
                    board, m, stepped, applied
                ),
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Lookups in complete databases.

/// The complete database of `size` (one of [`DATABASES`]), built once per
/// test binary and kept in memory; the temporary file is gone by the time
/// it is used.
fn database(size: &str) -> &'static CompleteTables<Vec<u8>> {
    static DBS: [OnceLock<CompleteTables<Vec<u8>>>; 2] = [OnceLock::new(), OnceLock::new()];
    let i = DATABASES.iter().position(|&s| s == size).unwrap();
    DBS[i].get_or_init(|| {
        let temp = crate::util::temp_db(size);
        CompleteTables::from_bytes(std::fs::read(&temp.path).unwrap()).unwrap()
    })
}

/// A database's size and a random (start, goal) pair for it.
fn pair() -> impl Strategy<Value = (&'static str, Board, Board)> {
    select(&DATABASES[..]).prop_flat_map(|size| {
        let s = shape(size);
        (Just(size), board_of(s), board_of(s))
    })
}

/// The pair with the start changed, if need be, so that it reaches the goal.
fn solvable(start: Board, goal: &Board) -> Board {
    if solvability::check(&start, goal).is_ok() {
        start
    } else {
        other_parity(&start)
    }
}

proptest! {
    #![proptest_config(config(512))]

    /// A solution replays from the start to the goal in exactly `distance`
    /// moves; an unsolvable pair is refused by both lookups.
    #[test]
    fn solutions_replay_to_the_goal_in_distance_moves((size, start, goal) in pair()) {
        let db = database(size);
        if solvability::check(&start, &goal).is_err() {
            prop_assert!(matches!(db.distance(&start, &goal), Err(AnswerError::Unsolvable(_))));
            prop_assert!(matches!(db.solve(&start, &goal), Err(AnswerError::Unsolvable(_))));
        }
        let start = solvable(start, &goal);
        let moves = db.solve(&start, &goal).unwrap();
        prop_assert_eq!(start.replay(&moves), Some(goal));
        prop_assert_eq!(moves.len() as u32, db.distance(&start, &goal).unwrap());
    }

    /// Moves are reversible, so the way back is exactly as long, and
    /// solvability is symmetric too.
    #[test]
    fn distance_is_symmetric((size, a, b) in pair()) {
        let db = database(size);
        prop_assert_eq!(solvability::check(&a, &b).is_ok(), solvability::check(&b, &a).is_ok());
        let a = solvable(a, &b);
        let there = db.distance(&a, &b).unwrap();
        let back = db.distance(&b, &a).unwrap();
        prop_assert_eq!(there, back, "{:?} <-> {:?}", a, b);
    }

    /// Renaming the tiles of start and goal alike changes no answer: the
    /// same distance and the very same moves (both pairs become the same
    /// pair in the table's canonical frame).
    #[test]
    fn renaming_tiles_changes_no_answer(
        (size, start, goal, renaming) in select(&DATABASES[..]).prop_flat_map(|size| {
            let s = shape(size);
            let tiles: Vec<u8> = (1..s.cells() as u8).collect();
            (Just(size), board_of(s), board_of(s), Just(tiles).prop_shuffle())
        })
    ) {
        let db = database(size);
        let rename = |b: &Board| {
            let cells: Vec<u64> = b
                .cells()
                .iter()
                .map(|&t| if t == 0 { 0 } else { renaming[t as usize - 1] as u64 })
                .collect();
            Board::new(b.shape(), &cells).unwrap()
        };
        let (start2, goal2) = (rename(&start), rename(&goal));
        prop_assert_eq!(db.distance(&start, &goal).is_ok(), db.distance(&start2, &goal2).is_ok());
        let start = solvable(start, &goal);
        let start2 = rename(&start);
        prop_assert_eq!(db.distance(&start, &goal), db.distance(&start2, &goal2));
        prop_assert_eq!(db.solve(&start, &goal), db.solve(&start2, &goal2));
    }

    /// Mirroring both boards left to right or top to bottom (and, on the
    /// square board, transposing them) gives a pair that another table
    /// serves, with the same distance.
    #[test]
    fn mirrored_pairs_have_the_same_distance((size, start, goal) in pair()) {
        let db = database(size);
        let s = shape(size);
        let (rows, cols) = (s.rows(), s.cols());
        let start = solvable(start, &goal);
        let distance = db.distance(&start, &goal).unwrap();
        let left_right = |i: usize| i / cols * cols + (cols - 1 - i % cols);
        let top_bottom = |i: usize| (rows - 1 - i / cols) * cols + i % cols;
        let transpose = |i: usize| (i % rows) * cols + i / rows;
        let mut images: Vec<&dyn Fn(usize) -> usize> = vec![&left_right, &top_bottom];
        if rows == cols {
            images.push(&transpose);
        }
        for from in images {
            let (a, b) = (rearranged(&start, s, from), rearranged(&goal, s, from));
            prop_assert_eq!(db.distance(&a, &b), Ok(distance), "{:?} -> {:?}", a, b);
        }
    }
}
