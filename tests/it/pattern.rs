//! Pattern databases and IDA*: tables against a plain search of the same
//! abstraction, heuristics against true distances, solutions against
//! complete tables, and Korf's 100 15-puzzle instances.
//!
//! The 12-cell and 16-cell tests need release builds and are ignored by
//! default; run them with
//!
//! ```text
//! cargo test --release --test it pattern -- --ignored
//! ```

use crate::util::plain_bfs;
use npuzzle::pattern::{
    build_pattern_table, Partition, PatternDb, PlacementRanker, SolveError, SolveOptions, Stopped,
    HISTORY_DEPTH, UNREACHED,
};
use npuzzle::raw::{entry, Ranker};
use npuzzle::rules::{DuplicateState, Duplicates, Symmetry};
use npuzzle::{tables::build_table, Board, Cell, Move, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The fewest pattern-tile moves from each placement of `tiles` to the
/// default goal, minimum over blank cells, by the textbook 0-1 search over
/// (cells of the pattern's tiles, blank cell) with a deque and a hash map.
fn plain_pattern_distances(rows: usize, cols: usize, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
    let n = rows * cols;
    let start: (Vec<u8>, usize) = (tiles.iter().map(|&t| t - 1).collect(), n - 1);
    let mut cost: HashMap<(Vec<u8>, usize), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    cost.insert(start.clone(), 0);
    queue.push_back((start, 0));
    while let Some(((cells, blank), d)) = queue.pop_front() {
        if cost[&(cells.clone(), blank)] < d {
            continue;
        }
        let (r, c) = (blank / cols, blank % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank - cols);
        }
        if r + 1 < rows {
            next.push(blank + cols);
        }
        if c > 0 {
            next.push(blank - 1);
        }
        if c + 1 < cols {
            next.push(blank + 1);
        }
        for to in next {
            let mut moved = cells.clone();
            let step = match cells.iter().position(|&x| x as usize == to) {
                Some(i) => {
                    moved[i] = blank as u8;
                    1
                }
                None => 0,
            };
            let key = (moved, to);
            if cost.get(&key).is_none_or(|&old| old > d + step) {
                cost.insert(key.clone(), d + step);
                if step == 0 {
                    queue.push_front((key, d));
                } else {
                    queue.push_back((key, d + 1));
                }
            }
        }
    }
    let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((cells, _), d) in cost {
        let entry = best.entry(cells).or_insert(d);
        *entry = (*entry).min(d);
    }
    best
}

#[test]
fn tables_match_a_plain_search_of_the_abstraction() {
    let cases: &[(usize, usize, &[u8])] = &[
        (2, 3, &[1, 2, 3]),
        (2, 3, &[4, 5]),
        (2, 3, &[1, 2, 3, 4, 5]),
        (3, 2, &[2, 5, 3]),
        (3, 3, &[1, 2, 3, 4]),
        (3, 3, &[8, 6, 7, 5]),
        (3, 3, &[2, 4, 6, 8, 1]),
        (2, 4, &[1, 2, 3, 4, 5, 6]),
        // Boards beyond complete tables; cell 15 is the last a rank handles.
        (4, 4, &[15, 12, 11]),
        (4, 4, &[1, 6, 14]),
        (3, 5, &[14, 9, 10]),
        (5, 3, &[1, 14, 8]),
    ];
    for &(rows, cols, tiles) in cases {
        let shape = Shape::new(rows, cols).unwrap();
        let table = build_pattern_table(shape, tiles, &|_| {}).unwrap();
        let ranker = PlacementRanker::new(shape.cells(), tiles.len()).unwrap();
        let plain = plain_pattern_distances(rows, cols, tiles);
        for (cells, &d) in &plain {
            let rank = ranker.rank(cells.iter().copied());
            assert_eq!(
                table[rank as usize] as u32, d,
                "{rows}x{cols} {tiles:?} {cells:?}"
            );
        }
        // Every placement the plain search missed is marked unreached.
        // With every tile in the pattern, half are; on boards of two rows,
        // tiles also keep much of their cyclic order when few cells are
        // free, so some placements stay out of reach there too.
        let unreached = table.iter().filter(|&&e| e == UNREACHED).count();
        assert_eq!(
            unreached,
            table.len() - plain.len(),
            "{rows}x{cols} {tiles:?}"
        );
        if tiles.len() + 1 == shape.cells() {
            assert_eq!(unreached, table.len() / 2);
        } else if rows > 2 && cols > 2 {
            assert_eq!(unreached, 0, "{rows}x{cols} {tiles:?}");
        }
    }
}

fn cells_of(board: &Board) -> Vec<u8> {
    board.cells().to_vec()
}

fn board_of(shape: Shape, cells: &[u8]) -> Board {
    Board::new(shape, &cells.iter().map(|&t| t as u64).collect::<Vec<_>>()).unwrap()
}

#[test]
fn eight_puzzle_heuristics_are_admissible_and_searches_optimal() {
    let shape = Shape::THREE_BY_THREE;
    let goal = Board::goal(shape);
    let truth = plain_bfs(3, 3, &cells_of(&goal));
    let db = PatternDb::build(Partition::named(shape, "4-4").unwrap(), &|_, _| {}).unwrap();
    assert!(db.uses_second_lookup());
    let mut tighter = 0;
    for (cells, &d) in &truth {
        let board = board_of(shape, cells);
        let h = db.heuristic(&board);
        assert!(h <= d, "{board:?}: heuristic {h} above distance {d}");
        tighter += (h > db.additive(&board)) as u32;
    }
    assert!(tighter > 0, "the transposed lookup never helped");

    solves_a_sample_optimally(&db, &truth, 8, 300, &[false, true]);
}

/// Solves `count` of the positions of `truth` (drawn with `seed`) toward
/// the default goal, each way of `parallels` (sequential, split across
/// threads): each length is the true distance, each solution replays.
fn solves_a_sample_optimally<B: AsRef<[u8]>>(
    db: &PatternDb<B>,
    truth: &HashMap<Vec<u8>, u32>,
    seed: u64,
    count: usize,
    parallels: &[bool],
) {
    let (shape, goal) = (db.shape(), Board::goal(db.shape()));
    let mut positions: Vec<&Vec<u8>> = truth.keys().collect();
    positions.sort();
    let mut rng = StdRng::seed_from_u64(seed);
    for cells in positions.choose_multiple(&mut rng, count) {
        let start = board_of(shape, cells);
        for &parallel in parallels {
            let options = SolveOptions {
                parallel,
                ..SolveOptions::default()
            };
            let solution = db.solve(&start, &options).unwrap();
            assert_eq!(solution.moves.len() as u32, truth[*cells], "{start:?}");
            assert_eq!(start.replay(&solution.moves), Some(goal), "{start:?}");
        }
    }
}

/// On a rectangle the second lookup goes through a reflection: on 2×4
/// with patterns 1-3 and 4-7, upside down, one image reads a table and the
/// other has one of its own (stored last). Over every position it never
/// overestimates, it raises some estimates, and searches stay optimal.
#[test]
fn a_reflected_second_lookup_is_admissible_on_a_rectangle() {
    let shape = Shape::new(2, 4).unwrap();
    let goal = Board::goal(shape);
    let partition = Partition::new(shape, vec![vec![1, 2, 3], vec![4, 5, 6, 7]]).unwrap();
    let stored = partition.stored_patterns(7);
    assert_eq!(stored.len(), 3, "{stored:?}");
    let db = PatternDb::build(partition, &|_, _| {}).unwrap();
    assert!(db.uses_second_lookup());
    assert_eq!(db.tables().len(), 3);
    let once = PatternDb::new(db.partition().clone(), db.tables().to_vec())
        .unwrap()
        .with_second_lookup(false);
    let truth = plain_bfs(2, 4, &cells_of(&goal));
    let mut raised = 0;
    for (cells, &d) in &truth {
        let board = board_of(shape, cells);
        let h = db.heuristic(&board);
        assert!(h <= d, "{board:?}: heuristic {h} above distance {d}");
        raised += u32::from(h > once.heuristic(&board));
    }
    assert!(raised > 100, "the second lookup raised {raised} estimates");
    solves_a_sample_optimally(&db, &truth, 24, 200, &[false]);
}

#[test]
fn goals_in_other_corners_and_with_other_labels_are_solved() {
    let shape = Shape::THREE_BY_THREE;
    let db = PatternDb::build(Partition::named(shape, "4-4").unwrap(), &|_, _| {}).unwrap();
    let mut rng = StdRng::seed_from_u64(3);
    // Goals with the blank in each corner, tiles in scrambled order.
    for corner in [0usize, 2, 6, 8] {
        let mut tiles: Vec<u8> = (1..9).collect();
        tiles.shuffle(&mut rng);
        tiles.insert(corner, 0);
        let goal = board_of(shape, &tiles);
        let truth = plain_bfs(3, 3, &tiles);
        let mut positions: Vec<&Vec<u8>> = truth.keys().collect();
        positions.sort();
        for cells in positions.choose_multiple(&mut rng, 40) {
            let start = board_of(shape, cells);
            let solution = db
                .solve_to(&start, &goal, &SolveOptions::default())
                .unwrap();
            assert_eq!(solution.moves.len() as u32, truth[*cells]);
            assert_eq!(start.replay(&solution.moves), Some(goal));
        }
    }
    // A goal with the blank in the centre: no symmetry takes it to a corner.
    let centre = board_of(shape, &[1, 2, 3, 4, 0, 5, 6, 7, 8]);
    assert!(matches!(
        db.solve_to(&Board::goal(shape), &centre, &SolveOptions::default()),
        Err(SolveError::GoalBlank { cell, expected, .. })
            if cell == Cell::of(shape, 4) && expected == Cell::of(shape, 8)
    ));
    // Unsolvable: two tiles swapped.
    let swapped = board_of(shape, &[2, 1, 3, 4, 5, 6, 7, 8, 0]);
    assert!(matches!(
        db.solve(&swapped, &SolveOptions::default()),
        Err(SolveError::Unsolvable(_))
    ));
}

/// The sum the second lookup reads for `board`: the board turned by the
/// symmetry that keeps the goal's blank where it is (the transpose, for a
/// corner), each tile renamed after the goal's tile in the cell its own
/// goal cell turns to, and looked up as the first lookup does.
fn second_sum(db: &PatternDb<Vec<u8>>, board: &Board, goal: &Board) -> u32 {
    let shape = board.shape();
    let turn = (Symmetry::all(shape).into_iter().skip(1))
        .find(|s| s.cell(goal.blank()) == goal.blank())
        .expect("a corner has a symmetry besides the identity");
    let mut goal_cell = vec![0; shape.cells()];
    for (c, &t) in goal.cells().iter().enumerate() {
        goal_cell[t as usize] = c;
    }
    let renamed: Vec<u8> = (turn.apply(board).cells().iter())
        .map(|&t| goal.cells()[turn.cell(goal_cell[t as usize])])
        .collect();
    db.additive(&board_of(shape, &renamed))
}

/// The dual lookup of `position` toward `goal` (the tables' goal), the
/// plain way: the tables' estimate of the reversed problem, from `goal` to
/// `position`, after the symmetry that takes the position's blank to the
/// tables' goal blank and the renaming that makes the position their goal.
fn plain_dual(db: &PatternDb<Vec<u8>>, position: &Board, goal: &Board) -> u32 {
    let shape = position.shape();
    let turn = Symmetry::mapping(shape, position.blank(), db.goal_blank()).unwrap();
    let (position, goal) = (turn.apply(position), turn.apply(goal));
    let home = db.goal();
    let mut rename = vec![0u8; shape.cells()];
    for (c, &t) in position.cells().iter().enumerate() {
        rename[t as usize] = home.cells()[c];
    }
    let renamed: Vec<u8> = goal.cells().iter().map(|&t| rename[t as usize]).collect();
    db.heuristic(&board_of(shape, &renamed))
}

/// The search's first estimate of `start`: the tables' lookup, raised by
/// the dual where the start's blank is in the goal blank's class of cells.
fn start_estimate(db: &PatternDb<Vec<u8>>, start: &Board, goal: &Board) -> u32 {
    let served = Symmetry::mapping(start.shape(), start.blank(), goal.blank()).is_some();
    let dual = if served {
        plain_dual(db, start, goal)
    } else {
        0
    };
    db.heuristic(start).max(dual)
}

/// Nodes (generated, expanded) of a plain recursive IDA* with the library's
/// rules: no child whose moves end in a duplicate stretch; every child
/// estimated (the larger of the direct and transposed lookups) before any
/// is searched; children best first, ties by the sum of both lookups'
/// sums, then in the order of `Move::ALL`; from the third iteration on,
/// within `HISTORY_DEPTH` moves of the start, children then (ties kept) by
/// the lowest estimate generated below them in the last iteration, or their
/// own if it did not search them; the dual lookup ([`plain_dual`]) raising
/// the start's estimate and that of each child whose blank is in the goal
/// blank's class of cells and whom the bound lets in; and
/// BPMX, by which a position is at least one move less far than any child,
/// as estimated or as raised by the child's own search.
fn plain_ida_counts(db: &PatternDb<Vec<u8>>, start: &Board, goal: &Board) -> (u64, u64) {
    struct Search<'a> {
        db: &'a PatternDb<Vec<u8>>,
        goal: &'a Board,
        bound: u32,
        generated: u64,
        expanded: u64,
        next_bound: u32,
        /// Per path from the start: the lowest estimate generated below
        /// its end, its own included, when last searched.
        lowest: HashMap<Vec<Move>, u32>,
        path: Vec<Move>,
    }
    impl Search<'_> {
        /// `None` when the goal is found below `board` (estimated `h`),
        /// else its raised estimate and the lowest estimate generated below
        /// it.
        fn walk(
            &mut self,
            board: &Board,
            h: u32,
            depth: u32,
            moves: DuplicateState,
        ) -> Option<(u32, u32)> {
            let (db, goal, bound) = (self.db, self.goal, self.bound);
            let shape = goal.shape();
            self.expanded += 1;
            let mut children: Vec<(u32, u32, DuplicateState, Board, Move)> = Move::ALL
                .into_iter()
                .filter_map(|m| {
                    let moves = Duplicates::get().next(moves, m.code());
                    let child = board.apply(m).filter(|_| moves != Duplicates::SKIP)?;
                    let (direct, second) = (db.additive(&child), second_sum(db, &child, goal));
                    // The sums are the ones the library takes the larger of.
                    assert_eq!(db.heuristic(&child), direct.max(second), "{child:?}");
                    let mut h = direct.max(second);
                    let served = Symmetry::mapping(shape, child.blank(), goal.blank()).is_some();
                    if served && depth + 1 + h <= bound {
                        h = h.max(plain_dual(db, &child, goal));
                    }
                    Some((h, direct + second, moves, child, m))
                })
                .collect();
            self.generated += children.len() as u64;
            children.sort_by_key(|c| (c.0, c.1));
            let worst = children.last().map_or(0, |c| c.0);
            let mut own = h.max(worst.saturating_sub(1));
            let mut lowest = children.first().map_or(u32::MAX, |c| c.0);
            let ordered = depth < HISTORY_DEPTH;
            if ordered {
                let path = self.path.clone();
                let last = |m: Move| self.lowest.get(&[&path[..], &[m]].concat()).copied();
                children.sort_by_key(|c| last(c.4).unwrap_or(c.0));
            }
            for (h, _, moves, child, m) in children {
                if depth + own > bound {
                    self.next_bound = self.next_bound.min(depth + own);
                    break;
                }
                if depth + 1 + h > bound {
                    self.next_bound = self.next_bound.min(depth + 1 + h);
                    match ordered {
                        true => continue,
                        false => break,
                    }
                }
                if child == *goal {
                    return None;
                }
                self.path.push(m);
                let (raised, below) = self.walk(&child, h, depth + 1, moves)?;
                if ordered {
                    self.lowest.insert(self.path.clone(), below.min(h));
                }
                self.path.pop();
                lowest = lowest.min(below);
                own = own.max(raised.saturating_sub(1));
            }
            Some((own, lowest))
        }
    }
    let h = start_estimate(db, start, goal);
    let mut search = Search {
        db,
        goal,
        bound: h,
        generated: 0,
        expanded: 0,
        next_bound: u32::MAX,
        lowest: HashMap::new(),
        path: Vec::new(),
    };
    for iteration in 1.. {
        search.next_bound = u32::MAX;
        if search.walk(start, h, 0, Duplicates::START).is_none() {
            return (search.generated, search.expanded);
        }
        search.bound = search.next_bound;
        if iteration == 1 {
            // The library keeps no history of a first iteration.
            search.lowest.clear();
        }
    }
    unreachable!("every iteration either finds the goal or raises the bound")
}

#[test]
fn nodes_generated_and_expanded_match_a_plain_search() {
    let shape = Shape::THREE_BY_THREE;
    let goal = Board::goal(shape);
    let truth = plain_bfs(3, 3, &cells_of(&goal));
    let mut positions: Vec<&Vec<u8>> = truth.keys().filter(|c| truth[*c] > 0).collect();
    positions.sort();
    let mut rng = StdRng::seed_from_u64(22);
    // Patterns of one size, and of two (the search ranks every pattern in
    // as many steps as the largest has tiles).
    let uneven = Partition::new(shape, vec![vec![1, 2, 3], vec![4, 5, 6, 7, 8]]).unwrap();
    for partition in [Partition::named(shape, "4-4").unwrap(), uneven] {
        let db = PatternDb::build(partition, &|_, _| {}).unwrap();
        for cells in positions.choose_multiple(&mut rng, 60) {
            let start = board_of(shape, cells);
            let solution = db.solve(&start, &SolveOptions::default()).unwrap();
            let (generated, expanded) = plain_ida_counts(&db, &start, &goal);
            assert_eq!(
                (solution.nodes, solution.expanded),
                (generated, expanded),
                "{start:?}"
            );
            assert!(solution.expanded < solution.nodes);
        }
    }
    let db = PatternDb::build(Partition::named(shape, "4-4").unwrap(), &|_, _| {}).unwrap();
    // One move from the goal: the start is the only node expanded.
    let near = goal.apply(Move::Up).unwrap();
    let solution = db.solve(&near, &SolveOptions::default()).unwrap();
    assert_eq!(solution.moves.len(), 1);
    assert_eq!(solution.expanded, 1);
}

#[test]
fn each_iteration_reports_its_bound() {
    let shape = Shape::THREE_BY_THREE;
    let db = PatternDb::build(Partition::named(shape, "4-4").unwrap(), &|_, _| {}).unwrap();
    let start = board_of(shape, &[8, 6, 7, 2, 5, 4, 3, 0, 1]);
    let bounds = std::sync::Mutex::new(Vec::new());
    let report = |r: npuzzle::pattern::BoundReport| bounds.lock().unwrap().push(r);
    let options = SolveOptions {
        on_bound: Some(&report),
        ..SolveOptions::default()
    };
    let solution = db.solve(&start, &options).unwrap();
    let bounds = bounds.into_inner().unwrap();
    assert_eq!(
        bounds[0].bound,
        start_estimate(&db, &start, &Board::goal(shape))
    );
    assert_eq!(bounds[0].nodes, 0);
    assert!(bounds
        .windows(2)
        .all(|w| w[0].bound < w[1].bound && w[0].nodes < w[1].nodes));
    assert_eq!(bounds.last().unwrap().bound as usize, solution.moves.len());
}

#[test]
fn searches_stop_at_deadlines_and_cancellation() {
    let shape = Shape::THREE_BY_THREE;
    // A single-tile pattern: a weak heuristic, so the search takes a while.
    let partition = Partition::new(shape, vec![vec![1]]).unwrap();
    let db = PatternDb::build(partition, &|_, _| {}).unwrap();
    let start = board_of(shape, &[8, 6, 7, 2, 5, 4, 3, 0, 1]);
    let cancel = AtomicBool::new(true);
    let options = SolveOptions {
        cancel: Some(&cancel),
        ..SolveOptions::default()
    };
    assert!(matches!(
        db.solve(&start, &options),
        Err(SolveError::Stopped(Stopped::Cancelled { .. }))
    ));
    let options = SolveOptions {
        deadline: Some(Instant::now() + Duration::from_millis(1)),
        ..SolveOptions::default()
    };
    assert!(matches!(
        db.solve(&start, &options),
        Err(SolveError::Stopped(Stopped::TimedOut { .. }))
    ));
}

/// A sample of 3×4 positions: heuristic at most the true distance from the
/// complete table, and IDA* finds exactly that distance.
#[test]
#[ignore = "builds a 12-cell complete table; run in release"]
fn three_by_four_searches_match_the_complete_table() {
    let shape = Shape::new(3, 4).unwrap();
    let goal = Board::goal(shape);
    let complete = build_table(shape, shape.cells() - 1);
    let ranker = Ranker::new(shape, shape.cells() - 1);
    let db = PatternDb::build(Partition::named(shape, "6-5").unwrap(), &|_, _| {}).unwrap();
    let mut rng = StdRng::seed_from_u64(12);
    let ranks: Vec<u32> = (0..ranker.len() as u32).collect();
    for &rank in ranks.choose_multiple(&mut rng, 200) {
        let start = ranker.unrank(rank);
        // 3×4 distances stay below 63, so the field is the distance.
        let d = entry::distance_field(complete.entries[rank as usize]) as u32;
        assert!(db.heuristic(&start) <= d);
        let solution = db.solve(&start, &SolveOptions::default()).unwrap();
        assert_eq!(solution.moves.len() as u32, d, "{start:?}");
        assert_eq!(start.replay(&solution.moves), Some(goal));
    }
}

/// Korf's instances: (number, optimal length, cells with the blank
/// top-left goal `0 1 2 … 15`).
pub(crate) fn korf_instances() -> Vec<(u32, u32, Vec<u64>)> {
    include_str!("../data/korf100.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            (numbers[0] as u32, numbers[1] as u32, numbers[2..].to_vec())
        })
        .collect()
}

#[test]
fn korf_instances_are_as_published() {
    let instances = korf_instances();
    assert_eq!(instances.len(), 100);
    let total: u32 = instances.iter().map(|i| i.1).sum();
    assert_eq!(total, 5305);
    // 4×4 boards parse like any other.
    let shape = Shape::new(4, 4).unwrap();
    let first = npuzzle::parse_board("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", shape).unwrap();
    assert_eq!(first, Board::new(shape, &instances[0].2).unwrap());
    assert_eq!(first.to_string(), "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3");
}

fn solve_korf_100(partition: Partition) {
    let shape = partition.shape();
    let db = PatternDb::build(partition, &|_, _| {}).unwrap();
    let goal = Board::new(shape, &(0..16).collect::<Vec<_>>()).unwrap();
    for (number, length, cells) in korf_instances() {
        let start = Board::new(shape, &cells).unwrap();
        let options = SolveOptions {
            parallel: true,
            ..SolveOptions::default()
        };
        let solution = db.solve_to(&start, &goal, &options).unwrap();
        assert_eq!(solution.moves.len() as u32, length, "instance {number}");
        assert_eq!(
            start.replay(&solution.moves),
            Some(goal),
            "instance {number}"
        );
    }
}

#[test]
#[ignore = "builds the 6-6-3 tables (seconds in release) and solves 100 instances"]
fn korf_100_with_6_6_3() {
    let shape = Shape::new(4, 4).unwrap();
    solve_korf_100(Partition::named(shape, "6-6-3").unwrap());
}

#[test]
#[ignore = "builds the 7-8 tables (about a minute and 1.5 GB in release) and solves 100 instances"]
fn korf_100_with_the_default_partition() {
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::default_for(shape).unwrap();
    assert_eq!(partition, Partition::named(shape, "7-8").unwrap());
    solve_korf_100(partition);
}

/// The 24-puzzle's default tables, `6-6-6-6`, whose three corner blocks
/// share one table turned by symmetries, read directly and transposed:
/// - on every position within 14 moves of the goal (a plain breadth-first
///   search's), the estimate never exceeds the distance, and a sample
///   solves to it;
/// - on 20 walks of 40 moves, the lengths are those of six groups of four
///   tiles (small tables, no sharing, checked against a plain search in
///   `wide_boards_agree_with_a_plain_breadth_first_search`), the moves
///   replay, and no position along a solution is estimated past the moves
///   left, which are its distance.
#[test]
#[ignore = "builds the 5x5 tables (about 40 s and 1.1 GB in release) and solves walks"]
fn the_default_24_puzzle_tables_agree_with_plain_searches() {
    use rayon::prelude::*;
    let shape = Shape::new(5, 5).unwrap();
    let goal = Board::goal(shape);
    let partition = Partition::default_for(shape).unwrap();
    assert_eq!(partition, Partition::named(shape, "6-6-6-6").unwrap());
    let db = PatternDb::build(partition, &|_, _| {}).unwrap();
    let board = |cells: &[u8]| {
        let numbers: Vec<u64> = cells.iter().map(|&t| t as u64).collect();
        Board::new(shape, &numbers).unwrap()
    };
    let plain = crate::util::plain_bfs_within(5, 5, goal.cells(), 14);
    assert!(plain.len() > 100_000, "{} positions", plain.len());
    for (cells, &distance) in &plain {
        assert!(
            db.heuristic(&board(cells)) <= distance,
            "{cells:?}: {distance}"
        );
    }
    let mut rng = StdRng::seed_from_u64(2424);
    let mut near: Vec<_> = plain.iter().filter(|(_, &d)| d >= 12).collect();
    near.sort();
    for (cells, &distance) in near.choose_multiple(&mut rng, 100) {
        let start = board(cells);
        let solution = db.solve(&start, &SolveOptions::default()).unwrap();
        assert_eq!(solution.moves.len() as u32, distance, "{start}");
        assert_eq!(start.replay(&solution.moves), Some(goal), "{start}");
    }
    let fours = PatternDb::build(groups_of_four(shape, false), &|_, _| {}).unwrap();
    let starts: Vec<Board> = (0..20)
        .map(|_| {
            let mut b = goal;
            for _ in 0..40 {
                let next: Vec<Board> = b.successors().map(|(_, next)| next).collect();
                b = *next.choose(&mut rng).unwrap();
            }
            b
        })
        .collect();
    starts.par_iter().for_each(|start| {
        let ours = db.solve(start, &SolveOptions::default()).unwrap();
        let theirs = fours.solve(start, &SolveOptions::default()).unwrap();
        assert_eq!(ours.moves.len(), theirs.moves.len(), "{start}");
        assert_eq!(start.replay(&ours.moves), Some(goal), "{start}");
        let mut at = *start;
        for (done, &m) in ours.moves.iter().enumerate() {
            let left = (ours.moves.len() - done) as u32;
            assert!(db.heuristic(&at) <= left, "{at}: {left} moves left");
            at = at.apply(m).unwrap();
        }
    });
}

/// A search split across threads gives the same moves and counts the same
/// nodes on every run: those of its subtrees walked in order up to the
/// solution, whatever the other threads did meanwhile. Four threads share
/// the machine's cores, so their timing differs from run to run.
#[test]
fn a_parallel_search_answers_the_same_on_every_run() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal(shape);
    let db = PatternDb::build(groups_of_four(shape, false), &|_, _| {}).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let options = SolveOptions {
        parallel: true,
        ..SolveOptions::default()
    };
    let mut rng = StdRng::seed_from_u64(22);
    for _ in 0..8 {
        let start = walked_from(&goal, 60, &mut rng);
        let first = pool.install(|| db.solve(&start, &options)).unwrap();
        assert_eq!(start.replay(&first.moves), Some(goal));
        for _ in 0..6 {
            let again = pool.install(|| db.solve(&start, &options)).unwrap();
            assert_eq!(again, first, "{start:?}");
        }
    }
}

/// A position `moves` random moves from `goal` (never undoing the last
/// one), so that IDA* with small tables reaches it fast even in debug builds.
fn walked_from(goal: &Board, moves: usize, rng: &mut StdRng) -> Board {
    let mut board = *goal;
    let mut last: Option<npuzzle::Move> = None;
    for _ in 0..moves {
        let choices: Vec<npuzzle::Move> = npuzzle::Move::ALL
            .into_iter()
            .filter(|&m| Some(m.opposite()) != last && board.apply(m).is_some())
            .collect();
        let m = *choices.choose(rng).unwrap();
        board = board.apply(m).unwrap();
        last = Some(m);
    }
    board
}

/// `shape`'s tiles in order, cut into groups of four: row by row and
/// column by column give two different partitions of any board.
fn groups_of_four(shape: Shape, column_major: bool) -> Partition {
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut tiles: Vec<u8> = (1..shape.cells() as u8).collect();
    if column_major {
        // Tile t sits at row (t-1)/cols, column (t-1)%cols in the goal.
        tiles.sort_by_key(|&t| ((t as usize - 1) % cols, (t as usize - 1) / cols));
    }
    assert_eq!(tiles.len(), rows * cols - 1);
    Partition::new(shape, tiles.chunks(4).map(|c| c.to_vec()).collect()).unwrap()
}

/// 3×5 and 5×3: lengths agree between two different partitions (tiles in
/// fours row by row, and column by column; small tables, fast in debug), on
/// positions 40 random moves from the goal. Every solution replays to the
/// goal, and its length is at most the walk's, at least the Manhattan
/// distance and of the same parity as both. The named 7-7 and 6-6-2 take
/// seconds to minutes to build; `large::` checks them on 100 uniformly
/// random positions each.
#[test]
fn fifteen_cell_lengths_agree_between_two_partitions() {
    let mut rng = StdRng::seed_from_u64(15);
    for (rows, cols) in [(3, 5), (5, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = Board::goal(shape);
        let by_rows = PatternDb::build(groups_of_four(shape, false), &|_, _| {}).unwrap();
        let by_columns = PatternDb::build(groups_of_four(shape, true), &|_, _| {}).unwrap();
        assert_ne!(by_rows.partition(), by_columns.partition());
        let walk = 40;
        for _ in 0..8 {
            let start = walked_from(&goal, walk, &mut rng);
            let lengths = [&by_rows, &by_columns].map(|db| {
                let solution = db.solve(&start, &SolveOptions::default()).unwrap();
                assert_eq!(start.replay(&solution.moves), Some(goal), "{start}");
                solution.moves.len()
            });
            assert_eq!(lengths[0], lengths[1], "{start}");
            let manhattan =
                crate::util::plain_manhattan(cols, start.cells(), goal.cells()) as usize;
            let d = lengths[0];
            assert!(
                manhattan <= d && d <= walk,
                "{start}: {d}, Manhattan {manhattan}"
            );
            assert!(
                (d - manhattan).is_multiple_of(2) && (walk - d).is_multiple_of(2),
                "{start}: {d}"
            );
        }
    }
}

/// Boards past 16 cells, each with small tables (tiles in fours; on 6×6,
/// four tiles, the others left out): every position within 4
/// moves of the goal and a sample of those 5 to 8 moves away, solved by
/// IDA*, has the distance of a plain breadth-first search from the goal,
/// its moves replay, and the heuristic never overestimates it.
#[test]
fn wide_boards_agree_with_a_plain_breadth_first_search() {
    let mut rng = StdRng::seed_from_u64(25);
    for (rows, cols) in [(5, 5), (4, 5), (5, 4), (6, 6)] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = Board::goal(shape);
        let partition = match shape.cells() {
            36 => Partition::new(shape, vec![vec![28, 29, 34, 35]]).unwrap(),
            _ => groups_of_four(shape, false),
        };
        let db = PatternDb::build(partition, &|_, _| {}).unwrap();
        let plain = crate::util::plain_bfs_within(rows, cols, goal.cells(), 8);
        let mut positions: Vec<(&Vec<u8>, u32)> = plain.iter().map(|(c, &d)| (c, d)).collect();
        positions.sort();
        let (near, far): (Vec<_>, Vec<_>) = positions.into_iter().partition(|&(_, d)| d <= 4);
        let sample = far.choose_multiple(&mut rng, 16).copied();
        for (cells, distance) in near.into_iter().chain(sample) {
            let numbers: Vec<u64> = cells.iter().map(|&t| t as u64).collect();
            let start = Board::new(shape, &numbers).unwrap();
            let solution = db.solve(&start, &SolveOptions::default()).unwrap();
            assert_eq!(solution.moves.len() as u32, distance, "{shape} {start}");
            assert_eq!(start.replay(&solution.moves), Some(goal), "{start}");
            assert!(db.heuristic(&start) <= distance, "{start}");
        }
        // Squares read the transposed patterns; these rectangles' groups of
        // four have a second lookup through a reflection too.
        assert!(db.uses_second_lookup(), "{shape}");
    }
}
