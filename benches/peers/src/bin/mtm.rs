//! npuzzle's multi-tile tables against slidy's optimal multi-tile solvers
//! for small boards (`slidy::solver::small`, slidy 0.4.1), one thread each,
//! on the same uniformly random positions: 3×3 and 3×4 by default. Every
//! distance must agree and every solution replay; prints each side's
//! setup (npuzzle: opening the file; slidy: building its pattern
//! database), its solving time, and the two end to end.
//!
//! `cargo run --release --manifest-path benches/peers/Cargo.toml --bin mtm --
//! --db3 data/3x3-mtm.db --db34 data/3x4-mtm.db`

use anyhow::{bail, Context};
use clap::Parser;
use cpu_time::ThreadTime;
use npuzzle::analysis::Sample;
use npuzzle::{Board, Database, Metric, Move, Shape};
use slidy::algorithm::algorithm::Algorithm;
use slidy::algorithm::direction::Direction;
use slidy::algorithm::metric::Mtm;
use slidy::puzzle::label::label::RowGrids;
use slidy::puzzle::{puzzle::Puzzle, size::Size};
use slidy::solver::small::solver::Solver as SmallSolver;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Parser)]
struct Args {
    /// The 3x3 multi-tile database (build-db --metric mtm).
    #[arg(long)]
    db3: PathBuf,
    /// The 3x4 multi-tile database (build-db --board 3x4 --metric mtm); 3x4 is skipped without it.
    #[arg(long)]
    db34: Option<PathBuf>,
    /// Random 3x3 positions.
    #[arg(long, default_value_t = 1000)]
    count3: usize,
    /// Random 3x4 positions.
    #[arg(long, default_value_t = 200)]
    count34: usize,
    #[arg(long, default_value_t = 26)]
    seed: u64,
    /// Read each database file into memory (as slidy holds its tables)
    /// instead of mapping it: setup then reads the whole file, and no solve
    /// waits for a page of the file to be mapped.
    #[arg(long)]
    read: bool,
}

/// One side's times: setup, then all the solves.
struct Timed {
    setup: Duration,
    solving: Duration,
    cpu: Duration,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let three: Shape = "3x3".parse()?;
    let (seed, read) = (args.seed, args.read);
    compare(
        three,
        &args.db3,
        args.count3,
        seed,
        read,
        SmallSolver::<3, 3, 9, Mtm>::new,
    )?;
    if let Some(db34) = &args.db34 {
        let shape: Shape = "3x4".parse()?;
        // slidy's Puzzle<W, H> is W columns by H rows.
        compare(
            shape,
            db34,
            args.count34,
            seed,
            read,
            SmallSolver::<4, 3, 12, Mtm>::new,
        )?;
    }
    Ok(())
}

fn compare<S>(
    shape: Shape,
    db: &PathBuf,
    count: usize,
    seed: u64,
    read: bool,
    make_slidy: impl FnOnce() -> S,
) -> anyhow::Result<()>
where
    S: slidy::solver::solver::Solver<Puzzle, u8, RowGrids, (), Mtm>,
{
    let goal = Board::goal(shape);
    let starts: Vec<Board> = Sample::uniform(&goal, count, seed)
        .positions
        .into_iter()
        .map(|d| d.start)
        .collect();

    // npuzzle: open the file, then one lookup per position, on this thread.
    let (began, cpu) = (Instant::now(), ThreadTime::now());
    let database = if read {
        let bytes = std::fs::read(db).with_context(|| db.display().to_string())?;
        Database::from_bytes(Bytes::Read(bytes))?
    } else {
        let mapped = Database::open(db).with_context(|| db.display().to_string())?;
        Database::from_bytes(Bytes::Mapped(Box::new(mapped)))?
    };
    if database.metric() != Metric::MultiTile || database.shape() != shape {
        bail!("{} is not a {shape} multi-tile database", db.display());
    }
    let table = database.goal_table(&goal)?;
    let setup = began.elapsed();
    let mut ours = Vec::with_capacity(count);
    let solving = Instant::now();
    for start in &starts {
        let mut moves = Vec::new();
        let d = table.solve_into(start, &mut moves)?;
        ours.push((d, moves));
    }
    let npuzzle = Timed {
        setup,
        solving: solving.elapsed(),
        cpu: cpu.elapsed(),
    };

    // slidy: build its pattern database, then one search per position.
    let (began, cpu) = (Instant::now(), ThreadTime::now());
    let solver = make_slidy();
    let setup = began.elapsed();
    let mut theirs = Vec::with_capacity(count);
    let solving = Instant::now();
    for start in &starts {
        theirs.push(solver.solve(&to_slidy(start)?)?);
    }
    let slidy = Timed {
        setup,
        solving: solving.elapsed(),
        cpu: cpu.elapsed(),
    };

    for ((start, (d, moves)), alg) in starts.iter().zip(&ours).zip(&theirs) {
        let slidy_length: u32 = alg.len_mtm();
        if *d != slidy_length {
            bail!("{start}: npuzzle {d} moves, slidy {slidy_length}");
        }
        if start.replay(moves) != Some(goal) || start.replay(&from_slidy(alg)) != Some(goal) {
            bail!("{start}: a solution does not replay");
        }
        if Metric::MultiTile.length(moves) as u32 != *d {
            bail!("{start}: npuzzle's solution is not {d} slides");
        }
    }
    let total = |t: &Timed| t.setup + t.solving;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{shape}, {count} positions, every distance equal (mean {:.2} slides)",
        ours.iter().map(|(d, _)| *d as f64).sum::<f64>() / count as f64
    );
    for (name, t) in [("npuzzle", &npuzzle), ("slidy", &slidy)] {
        println!(
            "  {name:8} setup {:>10.3} ms  solving {:>10.3} ms ({:>9.2} µs each)  end to end {:>10.3} ms  cpu {:>10.3} ms",
            ms(t.setup),
            ms(t.solving),
            ms(t.solving) * 1e3 / count as f64,
            ms(total(t)),
            ms(t.cpu)
        );
    }
    println!(
        "  npuzzle faster: {:.1}x end to end, {:.1}x solving alone",
        total(&slidy).as_secs_f64() / total(&npuzzle).as_secs_f64(),
        slidy.solving.as_secs_f64() / npuzzle.solving.as_secs_f64()
    );
    Ok(())
}

/// A database's bytes: read into memory, or a mapped file's.
enum Bytes {
    Read(Vec<u8>),
    Mapped(Box<Database>),
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            Bytes::Read(bytes) => bytes,
            Bytes::Mapped(db) => db.bytes(),
        }
    }
}

/// slidy's puzzle of the same cells: its solved state is npuzzle's default
/// goal (tiles in order, the blank last), so no renaming is needed.
fn to_slidy(board: &Board) -> anyhow::Result<Puzzle> {
    let shape = board.shape();
    let pieces = board.cells().iter().map(|&c| u64::from(c)).collect();
    Ok(Puzzle::with_pieces(
        pieces,
        Size::new(shape.cols() as u64, shape.rows() as u64)?,
    )?)
}

/// slidy's moves as the blank's: slidy names the direction a tile slides,
/// so the blank goes the other way.
fn from_slidy(alg: &Algorithm) -> Vec<Move> {
    alg.moves()
        .iter()
        .flat_map(|m| {
            let blank = match m.direction() {
                Direction::Up => Move::Down,
                Direction::Down => Move::Up,
                Direction::Left => Move::Right,
                Direction::Right => Move::Left,
            };
            std::iter::repeat_n(blank, m.amount() as usize)
        })
        .collect()
}
