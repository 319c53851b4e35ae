//! What the dual lookup would save the 15-puzzle's search: Korf's 100
//! solved by a plain IDA* (the move back pruned, nothing else), once with
//! the tables' estimate toward the goal and once with the larger of it and
//! the dual lookup, the estimate from the goal back to the node
//! ([`npuzzle::PatternTables::estimate`] both ways):
//!
//! ```text
//! cargo run --release -p build-db -- --board 4x4 --all-goals --out 4x4-all.db
//! cargo run --release --example dual -- 4x4-all.db [COUNT] [--corners]
//! cargo run --release --example dual -- FILE --library [REPEAT]
//! ```
//!
//! The dual reads the set of the node's blank, so the file needs a set for
//! every class of blank cells (`--all-goals`). `--corners` takes the dual
//! only where the node's blank is in a corner, the one class the default
//! file has. Prints each instance's number, length, first estimate and
//! nodes generated either way, then the means; checks every length against
//! the published one. The search reads the tables through the general
//! `estimate`, so its time per node says nothing of the library's search.
//!
//! `--library` times the library's own search instead, on any 4×4 file:
//! each instance solved on one thread with the dual read nowhere, in the
//! goal blank's class of cells (the default, the corners here) and
//! wherever a set serves the blank (every cell with an `--all-goals`
//! file), in turn (`PatternTables::solve_reading`), `REPEAT` times (5 by
//! default). Prints the nodes generated per instance each way, the sum of
//! the instances' median times and the median instance's.

use anyhow::{bail, Context};
use npuzzle::pattern::{DualReach, SolveOptions};
use npuzzle::{Board, Database, Move, PatternTables, Shape};
use std::time::Instant;

type Tables = PatternTables<memmap2::Mmap>;

/// A plain IDA* that counts the children it generates.
struct Ida<'a> {
    tables: &'a Tables,
    goal: Board,
    /// Where the dual lookup is taken: every blank cell, or the corners.
    dual: Option<&'a [usize]>,
    nodes: u64,
}

impl Ida<'_> {
    fn estimate(&self, board: &Board) -> anyhow::Result<u32> {
        let direct = self.tables.estimate(board, &self.goal)?;
        match self.dual {
            Some(cells) if cells.contains(&board.blank()) => {
                Ok(direct.max(self.tables.estimate(&self.goal, board)?))
            }
            _ => Ok(direct),
        }
    }

    /// Ok(Some(length)) when the goal is within `bound`; Ok(None) and the
    /// least f above it in `next` otherwise.
    fn search(
        &mut self,
        board: &Board,
        (g, h, bound): (u32, u32, u32),
        back: Option<Move>,
        next: &mut u32,
    ) -> anyhow::Result<Option<u32>> {
        if g + h > bound {
            *next = (*next).min(g + h);
            return Ok(None);
        }
        if *board == self.goal {
            return Ok(Some(g));
        }
        for (m, child) in board.successors() {
            if Some(m) == back {
                continue;
            }
            self.nodes += 1;
            let h = self.estimate(&child)?;
            if let Some(length) =
                self.search(&child, (g + 1, h, bound), Some(m.opposite()), next)?
            {
                return Ok(Some(length));
            }
        }
        Ok(None)
    }

    fn solve(&mut self, start: &Board) -> anyhow::Result<(u32, u32)> {
        let first = self.estimate(start)?;
        let mut bound = first;
        loop {
            let mut next = u32::MAX;
            if let Some(length) = self.search(start, (0, first, bound), None, &mut next)? {
                return Ok((first, length));
            }
            bound = next;
        }
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        bail!("usage: dual FILE [COUNT] [--corners] (FILE: build-db --board 4x4 --all-goals)");
    };
    // COUNT, or REPEAT with --library.
    let number: Option<usize> = match args[1..].iter().find(|a| !a.starts_with("--")) {
        Some(n) => Some(n.parse().context("COUNT and REPEAT are whole numbers")?),
        None => None,
    };
    let db = Database::open(std::path::Path::new(path))?;
    let Some(tables) = db.patterns() else {
        bail!("{path} holds complete tables, not pattern databases");
    };
    let shape = Shape::new(4, 4)?;
    let goal = Board::new(shape, &(0..16).collect::<Vec<u64>>())?;
    if args.iter().any(|a| a == "--library") {
        return library(tables, &goal, number.unwrap_or(5));
    }
    let every: Vec<usize> = (0..16).collect();
    let corners = [0, 3, 12, 15];
    let dual: &[usize] = if args.iter().any(|a| a == "--corners") {
        &corners
    } else {
        &every
    };
    let mut totals = [0u64; 2];
    println!("instance length first-estimate nodes first-estimate-with-dual nodes-with-dual");
    let count = number.unwrap_or(100);
    for (number, published, start) in korf100(shape)?.into_iter().take(count) {
        let mut row = format!("{number} {published}");
        for (k, dual) in [None, Some(dual)].into_iter().enumerate() {
            let mut ida = Ida {
                tables,
                goal,
                dual,
                nodes: 0,
            };
            let (first, length) = ida.solve(&start)?;
            if length as usize != published {
                bail!("instance {number}: {length} moves, published {published}");
            }
            totals[k] += ida.nodes;
            row += &format!(" {first} {}", ida.nodes);
        }
        println!("{row}");
    }
    let n = count.max(1) as u64;
    println!(
        "mean nodes generated: {} without the dual, {} with it",
        totals[0] / n,
        totals[1] / n
    );
    Ok(())
}

/// Korf's 100: each instance's number, published length and start.
fn korf100(shape: Shape) -> anyhow::Result<Vec<(u32, usize, Board)>> {
    let lines = include_str!("../tests/data/korf100.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    lines
        .map(|line| {
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(|x| x.parse())
                .collect::<Result<_, _>>()?;
            let start = Board::new(shape, &numbers[2..])?;
            Ok((numbers[0] as u32, numbers[1] as usize, start))
        })
        .collect()
}

/// The library's search on Korf's 100 with the dual read nowhere, in the
/// goal's class of blank cells and everywhere, in turn, `repeat` times;
/// every length checked.
fn library(tables: &Tables, goal: &Board, repeat: usize) -> anyhow::Result<()> {
    let instances = korf100(goal.shape())?;
    let options = SolveOptions::default();
    let reaches = [DualReach::None, DualReach::GoalClass, DualReach::Everywhere];
    let mut times = vec![[(); 3].map(|_| Vec::new()); instances.len()];
    let mut nodes = [0u64; 3];
    for round in 0..repeat.max(1) {
        for (i, (number, length, start)) in instances.iter().enumerate() {
            // Which goes first turns, so that none always finds the caches
            // another left.
            for k in 0..3 {
                let side = (round + i + k) % 3;
                let began = Instant::now();
                let solution = tables.solve_reading(start, goal, reaches[side], &options)?;
                times[i][side].push(began.elapsed().as_secs_f64());
                if solution.moves.len() != *length {
                    let found = solution.moves.len();
                    bail!("instance {number}: {found} moves, published {length}");
                }
                if round == 0 {
                    nodes[side] += solution.nodes;
                }
            }
        }
    }
    for (side, reach) in reaches.iter().enumerate() {
        let mut medians: Vec<f64> = (times.iter())
            .map(|t| median(&mut t[side].clone()))
            .collect();
        let total: f64 = medians.iter().sum();
        println!(
            "dual {reach:?}: {} nodes generated per instance, {total:.4} s in all, {:.3} ms the median instance",
            nodes[side] / instances.len() as u64,
            median(&mut medians) * 1e3
        );
    }
    Ok(())
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
