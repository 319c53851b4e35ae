//! Writes random positions, one per line, for batch benchmarks:
//! `cargo run --release --example positions -- COUNT [SEED] [RxC] > positions.txt`.
//! Every position can reach the default goal (tiles in order, blank last).

use npuzzle::{rules::solvability, Board, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::io::{BufWriter, Write};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: positions COUNT [SEED] [RxC]";
    let count: u64 = args.next().ok_or_else(|| anyhow::anyhow!(usage))?.parse()?;
    let seed: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1);
    // Boards past 12 cells too: their positions are for pattern databases.
    let shape = args
        .next()
        .map(|s| s.parse::<Shape>())
        .transpose()?
        .unwrap_or(Shape::THREE_BY_THREE);
    let goal = Board::goal(shape);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut cells: Vec<u64> = (0..shape.cells() as u64).collect();
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut written = 0;
    while written < count {
        cells.shuffle(&mut rng);
        let board = Board::new(shape, &cells)?;
        if solvability::check(&board, &goal).is_ok() {
            writeln!(out, "{board}")?;
            written += 1;
        }
    }
    out.flush()?;
    Ok(())
}
