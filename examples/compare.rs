//! Looking up versus searching, on the same random 8-puzzle positions:
//! `cargo run --release --example compare`.
//!
//! Builds the nine 3×3 tables in process, draws 1,000 random positions that
//! can reach the default goal (fixed seed), and solves each one four ways:
//! the database's lookup, the `pathfinding` crate's `astar` and `idastar`
//! with the Manhattan heuristic, and a breadth-first search per query
//! ([`npuzzle::search`]). All four must agree on every distance, and every
//! solution must replay to the goal; otherwise the example says where and
//! exits with status 1. Then it prints how long each took.

use npuzzle::analysis::{search, Algorithm};
use npuzzle::{build, rules::solvability, Board, Database, Move, Plan, Shape};
use pathfinding::prelude::{astar, idastar};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::cell::Cell;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const POSITIONS: usize = 1000;
const SEED: u64 = 1;
/// The lookups take well under a millisecond for all positions together,
/// so they are timed over this many passes and divided.
const LOOKUP_PASSES: u32 = 1000;

/// A position for the `pathfinding` searches: the cells one per nibble
/// (first cell lowest) and the blank's cell in bits 48 and up. Small, `Copy`
/// and cheap to hash, as a state for a generic search should be.
type State = u64;

/// The board's moves and Manhattan distances, precomputed for one goal.
struct Packed {
    /// For each blank cell, the cells it can swap with.
    neighbours: Vec<Vec<usize>>,
    /// `distance[tile][cell]`: rows plus columns from `cell` to the tile's
    /// goal cell.
    distance: [[u32; 16]; 16],
    goal: State,
}

impl Packed {
    fn new(goal: &Board) -> Packed {
        let shape = goal.shape();
        let neighbours = (0..shape.cells())
            .map(|b| {
                let board = Board::canonical_goal(shape, b);
                Move::ALL.iter().filter_map(|&m| board.target(m)).collect()
            })
            .collect();
        let mut distance = [[0; 16]; 16];
        for (goal_cell, &tile) in goal.cells().iter().enumerate() {
            for (cell, d) in distance[tile as usize]
                .iter_mut()
                .enumerate()
                .take(shape.cells())
            {
                let rows = shape.row_of(cell).abs_diff(shape.row_of(goal_cell));
                let cols = shape.col_of(cell).abs_diff(shape.col_of(goal_cell));
                *d = (rows + cols) as u32;
            }
        }
        Packed {
            neighbours,
            distance,
            goal: pack(goal),
        }
    }

    /// The positions one move away, each at cost 1.
    fn successors(&self, state: State) -> impl Iterator<Item = (State, u32)> {
        let blank = (state >> 48) as usize;
        let mut next = [None; 4];
        for (slot, &cell) in next.iter_mut().zip(&self.neighbours[blank]) {
            let tile = (state >> (4 * cell)) & 15;
            let cells = (state & ((1 << 48) - 1)) & !(15 << (4 * cell)) | (tile << (4 * blank));
            *slot = Some((cells | ((cell as u64) << 48), 1));
        }
        next.into_iter().flatten()
    }

    /// Sum of the tiles' distances to their goal cells.
    fn manhattan(&self, state: State) -> u32 {
        (0..self.neighbours.len())
            .map(|cell| {
                let tile = (state >> (4 * cell)) & 15;
                if tile == 0 {
                    0
                } else {
                    self.distance[tile as usize][cell]
                }
            })
            .sum()
    }

    /// Whether `path` starts at `start`, ends at the goal and moves one
    /// step at a time.
    fn valid_path(&self, start: State, path: &[State]) -> bool {
        path.first() == Some(&start)
            && path.last() == Some(&self.goal)
            && path
                .windows(2)
                .all(|w| self.successors(w[0]).any(|(s, _)| s == w[1]))
    }
}

fn pack(board: &Board) -> State {
    let cells = board
        .cells()
        .iter()
        .rev()
        .fold(0, |k, &tile| (k << 4) | tile as u64);
    cells | ((board.blank() as u64) << 48)
}

/// One method's distances and what it cost.
struct Outcome {
    name: &'static str,
    distances: Vec<u32>,
    /// Positions expanded over all queries, where the method reports it.
    expanded: Option<u64>,
    /// Time for all the positions once.
    time: Duration,
}

fn main() -> ExitCode {
    match compare() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("compare: {message}");
            ExitCode::FAILURE
        }
    }
}

fn compare() -> Result<(), String> {
    let shape = Shape::THREE_BY_THREE;
    let goal = Board::goal(shape);

    let began = Instant::now();
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = dir.path().join("3x3.db");
    let blanks: Vec<usize> = (0..shape.cells()).collect();
    let plan = Plan::Complete {
        shape,
        metric: npuzzle::Metric::SingleTile,
        blanks,
        paths: true,
    };
    build(&path, &plan, &|_, _| {}).map_err(|e| e.to_string())?;
    let db = Database::open(&path)
        .map_err(|e| e.to_string())?
        .into_complete()
        .map_err(|e| e.to_string())?;
    let build_time = began.elapsed();
    let target = db.goal_table(&goal).map_err(|e| e.to_string())?;

    let mut rng = StdRng::seed_from_u64(SEED);
    let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
    let mut starts = Vec::with_capacity(POSITIONS);
    while starts.len() < POSITIONS {
        cells.shuffle(&mut rng);
        let board = Board::new(shape, &cells).map_err(|e| e.to_string())?;
        if solvability::check(&board, &goal).is_ok() {
            starts.push(board);
        }
    }

    let mut outcomes = Vec::new();

    // The database: solved once and checked, then timed over many passes.
    let mut moves = Vec::new();
    let mut distances = Vec::with_capacity(POSITIONS);
    for start in &starts {
        moves.clear();
        let d = target
            .solve_into(start, &mut moves)
            .map_err(|e| format!("the database cannot solve {start}: {e}"))?;
        if start.replay(&moves) != Some(goal) {
            return Err(format!("the database's solution for {start} is wrong"));
        }
        distances.push(d);
    }
    let began = Instant::now();
    for _ in 0..LOOKUP_PASSES {
        for start in &starts {
            moves.clear();
            black_box(target.solve_into(black_box(start), &mut moves)).ok();
        }
    }
    outcomes.push(Outcome {
        name: "database lookup (solve)",
        distances,
        expanded: None,
        time: began.elapsed() / LOOKUP_PASSES,
    });
    // The distance alone: one entry per position, no move sequence.
    let distances = starts
        .iter()
        .map(|s| target.distance(s).map_err(|e| e.to_string()))
        .collect::<Result<Vec<u32>, String>>()?;
    let began = Instant::now();
    for _ in 0..LOOKUP_PASSES {
        for start in &starts {
            black_box(target.distance(black_box(start))).ok();
        }
    }
    outcomes.push(Outcome {
        name: "database lookup (distance only)",
        distances,
        expanded: None,
        time: began.elapsed() / LOOKUP_PASSES,
    });

    // The pathfinding crate, on packed states with a counting successor
    // function (each call is one expansion).
    let packed = Packed::new(&goal);
    for (name, use_ida) in [
        ("pathfinding astar, Manhattan", false),
        ("pathfinding idastar, Manhattan", true),
    ] {
        let expanded = Cell::new(0u64);
        let successors = |s: &State| {
            expanded.set(expanded.get() + 1);
            packed.successors(*s)
        };
        let heuristic = |s: &State| packed.manhattan(*s);
        let success = |s: &State| *s == packed.goal;
        let began = Instant::now();
        let results: Vec<Option<(Vec<State>, u32)>> = starts
            .iter()
            .map(|start| {
                if use_ida {
                    idastar(&pack(start), successors, heuristic, success)
                } else {
                    astar(&pack(start), successors, heuristic, success)
                }
            })
            .collect();
        let time = began.elapsed();
        let mut distances = Vec::with_capacity(POSITIONS);
        for (start, result) in starts.iter().zip(results) {
            let (path, cost) = result.ok_or(format!("{name} found no path from {start}"))?;
            if !packed.valid_path(pack(start), &path) || path.len() != cost as usize + 1 {
                return Err(format!("{name}'s path from {start} is wrong"));
            }
            distances.push(cost);
        }
        outcomes.push(Outcome {
            name,
            distances,
            expanded: Some(expanded.get()),
            time,
        });
    }

    // Breadth-first search per query.
    let began = Instant::now();
    let reports: Vec<_> = starts
        .iter()
        .map(|start| search(Algorithm::Bfs, start, &goal, u64::MAX))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let time = began.elapsed();
    let mut distances = Vec::with_capacity(POSITIONS);
    for (start, report) in starts.iter().zip(&reports) {
        let moves = report
            .moves
            .as_ref()
            .ok_or(format!("BFS found no path from {start}"))?;
        if start.replay(moves) != Some(goal) {
            return Err(format!("BFS's solution for {start} is wrong"));
        }
        distances.push(moves.len() as u32);
    }
    outcomes.push(Outcome {
        name: "breadth-first search (npuzzle::search)",
        distances,
        expanded: Some(reports.iter().map(|r| r.expanded).sum()),
        time,
    });

    let truth = &outcomes[0].distances;
    for outcome in &outcomes[1..] {
        if let Some(i) = (0..POSITIONS).find(|&i| outcome.distances[i] != truth[i]) {
            return Err(format!(
                "{} says {} is {} moves from {goal}, the database says {}",
                outcome.name, starts[i], outcome.distances[i], truth[i]
            ));
        }
    }

    let (min, max) = (truth.iter().min().unwrap(), truth.iter().max().unwrap());
    let mean = truth.iter().sum::<u32>() as f64 / POSITIONS as f64;
    println!(
        "{POSITIONS} random 3x3 positions (seed {SEED}) that reach {goal}: \
         distances {min} to {max}, mean {mean:.2}"
    );
    println!("all methods agree on every distance, and every solution replays to the goal");
    println!("positions expanded over all {POSITIONS} queries:");
    for outcome in &outcomes[1..] {
        if let Some(expanded) = outcome.expanded {
            println!(
                "  {:<40} {:>11} ({:.0} per position)",
                outcome.name,
                expanded,
                expanded as f64 / POSITIONS as f64
            );
        }
    }
    println!();
    println!(
        "times on this machine (tables built in {:.1} ms, not counted; the lookup \
         time is the mean of {LOOKUP_PASSES} passes):",
        build_time.as_secs_f64() * 1e3
    );
    println!(
        "  {:<40} {:>12} {:>14} {:>14}",
        "method", "total", "per position", "vs database"
    );
    let base = outcomes[0].time.as_secs_f64();
    for outcome in &outcomes {
        let total = outcome.time.as_secs_f64();
        println!(
            "  {:<40} {:>12} {:>14} {:>14}",
            outcome.name,
            human(total),
            human(total / POSITIONS as f64),
            ratio(total / base)
        );
    }
    let fastest = outcomes[2..]
        .iter()
        .min_by(|a, b| a.time.cmp(&b.time))
        .expect("there are searches");
    println!();
    println!(
        "the fastest search, {}, takes {:.0}x the time of a database solve and {:.0}x that of a distance lookup",
        fastest.name,
        fastest.time.as_secs_f64() / outcomes[0].time.as_secs_f64(),
        fastest.time.as_secs_f64() / outcomes[1].time.as_secs_f64()
    );
    Ok(())
}

/// A ratio with as many decimals as it needs.
fn ratio(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}x")
    } else {
        format!("{r:.2}x")
    }
}

/// Seconds written with a unit that keeps three or four significant digits.
fn human(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.1} ms", seconds * 1e3)
    } else if seconds >= 1e-6 {
        format!("{:.2} µs", seconds * 1e6)
    } else {
        format!("{:.0} ns", seconds * 1e9)
    }
}
