//! Korf's 100 random 15-puzzle instances, solved optimally with pattern
//! databases and IDA*:
//!
//! ```text
//! cargo run --release --example korf100 -- --partition 7-8 --threads 2
//! ```
//!
//! Builds the partition's tables (or reads them from `--tables FILE`, and
//! writes them there after a build when the file does not exist yet), then
//! solves the instances of `tests/data/korf100.txt`, checks every length
//! against the published one and every solution by replaying it, and
//! prints the time and the nodes generated. `--mode split` (the default)
//! solves one instance at a time with every thread in its search; `--mode
//! instances` hands whole instances to the threads. Exits with status 1 if
//! any length or replay is wrong.

use anyhow::{bail, Context};
use clap::{Parser, ValueEnum};
use npuzzle::pattern::{Partition, PatternDb, SolveOptions};
use npuzzle::{Board, Shape};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
struct Args {
    /// Partition of the 15-puzzle's tiles: 7-8 or 6-6-3.
    #[arg(long, default_value = "7-8")]
    partition: String,
    /// Explicit patterns instead of a named partition, such as
    /// `1,2,3/4,5,6,7` (tiles of the default goal, blank last).
    #[arg(long)]
    groups: Option<String>,
    /// Solve everything this many times and report the fastest run.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Threads in the pool.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// How the threads share the work.
    #[arg(long, value_enum, default_value_t = Mode::Split)]
    mode: Mode,
    /// Raw tables (those of `Partition::stored_patterns`), one after the
    /// other: read if present, else written after the build.
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Keep the tables on ordinary pages rather than copying them onto huge pages.
    #[arg(long)]
    small_pages: bool,
    /// Read the tables once: skip the second lookup (through the transpose).
    #[arg(long)]
    no_second_lookup: bool,
    /// Print one line per instance.
    #[arg(long)]
    verbose: bool,
    /// Solve only the first this many instances.
    #[arg(long, default_value_t = 100)]
    count: usize,
}

#[derive(Clone, Copy, ValueEnum)]
enum Mode {
    /// One instance at a time, each search split across the threads.
    Split,
    /// Several instances at a time, one thread each.
    Instances,
}

/// User and system CPU time of this process so far.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime and
    // stime are the 12th and 13th, in clock ticks of 1/100 s.
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
    let fields: Vec<u64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let ticks = fields.get(11).unwrap_or(&0) + fields.get(12).unwrap_or(&0);
    Duration::from_millis(ticks * 10)
}

fn main() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    let shape = Shape::new(4, 4)?;
    let partition = match &args.groups {
        Some(groups) => Partition::new(
            shape,
            groups
                .split('/')
                .map(|g| g.split(',').map(|t| t.trim().parse()).collect())
                .collect::<Result<_, _>>()?,
        )?,
        None => Partition::named(shape, &args.partition)?,
    };
    // What the messages call the partition: its name, or the groups given.
    let label = args.groups.as_deref().unwrap_or(&args.partition);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;

    let started = Instant::now();
    let tables = match &args.tables {
        Some(path) if path.exists() => {
            let lens: Vec<usize> = (partition.stored_patterns(15).iter())
                .map(|pattern| (16 - pattern.len() + 1..=16).product())
                .collect();
            let wanted: usize = lens.iter().sum();
            // Checked before reading, so that a wrong file is not read whole.
            let size = std::fs::metadata(path)
                .with_context(|| format!("reading {}", path.display()))?
                .len();
            if size != wanted as u64 {
                bail!(
                    "{} is {size} bytes, but the raw {label} tables this example writes take {wanted}; \
                     --tables takes those, not a database file of build-db (query --db reads that)",
                    path.display(),
                );
            }
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            let mut tables = Vec::new();
            let mut rest = &bytes[..];
            for len in lens {
                tables.push(rest[..len].to_vec());
                rest = &rest[len..];
            }
            eprintln!("read tables in {:.2?}", started.elapsed());
            tables
        }
        _ => {
            let db = pool.install(|| {
                PatternDb::build(partition.clone(), &|index, p| {
                    if p.found > 0 && args.verbose {
                        eprintln!(
                            "pattern {index}: cost {:>2}: {:>10} found, {:>10} of {}",
                            p.distance, p.found, p.reached, p.entries
                        );
                    }
                })
            })?;
            eprintln!(
                "built tables in {:.2?} ({:.2?} CPU)",
                started.elapsed(),
                cpu_time()
            );
            let tables = db.tables().to_vec();
            if let Some(path) = &args.tables {
                std::fs::write(path, tables.concat())
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            tables
        }
    };
    let db = PatternDb::new(partition, tables)?.with_second_lookup(!args.no_second_lookup);
    let huge = if args.small_pages {
        None
    } else {
        Some(db.to_huge_pages()?)
    };

    let goal = Board::new(shape, &(0..16).collect::<Vec<_>>())?;
    let instances: Vec<(u32, u32, Board)> = include_str!("../tests/data/korf100.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(args.count)
        .map(|line| {
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            let board = Board::new(shape, &numbers[2..]).expect("a 15-puzzle position");
            (numbers[0] as u32, numbers[1] as u32, board)
        })
        .collect();

    let solve = |&(number, length, start): &(u32, u32, Board)| {
        let began = Instant::now();
        let options = SolveOptions {
            parallel: matches!(args.mode, Mode::Split) && args.threads > 1,
            ..SolveOptions::default()
        };
        let solution = match &huge {
            Some(db) => db.solve_to(&start, &goal, &options),
            None => db.solve_to(&start, &goal, &options),
        };
        (number, length, start, solution, began.elapsed())
    };
    let mut best = None;
    for _ in 0..args.repeat.max(1) {
        let cpu_before = cpu_time();
        let started = Instant::now();
        let results: Vec<_> = pool.install(|| match args.mode {
            Mode::Split => instances.iter().map(solve).collect(),
            Mode::Instances => instances.par_iter().map(solve).collect(),
        });
        let wall = started.elapsed();
        let cpu = cpu_time() - cpu_before;
        if best.as_ref().is_none_or(|(w, _, _)| wall < *w) {
            best = Some((wall, cpu, results));
        }
    }
    let (wall, cpu, results) = best.expect("at least one run");

    let mut wrong = 0;
    let (mut nodes, mut expanded, mut moves) = (0u64, 0u64, 0usize);
    for (number, length, start, solution, time) in results {
        let solution = solution?;
        let ok =
            solution.moves.len() == length as usize && start.replay(&solution.moves) == Some(goal);
        wrong += !ok as u32;
        nodes += solution.nodes;
        expanded += solution.expanded;
        moves += solution.moves.len();
        if args.verbose || !ok {
            println!(
                "{number:>3}: {:>2} moves (published {length}){} {:>12} nodes {:>10.2?}",
                solution.moves.len(),
                if ok { "" } else { " WRONG" },
                solution.nodes,
                time
            );
        }
    }
    let count = instances.len() as f64;
    println!(
        "{} instances, partition {}{}, {} threads, {} mode: {moves} moves in all, \
         {:.3} s wall, {:.2} s CPU (ratio {:.2}), {:.0} nodes generated and {:.0} expanded per instance, \
         {:.1} M nodes generated/s",
        instances.len(),
        label,
        if db.uses_second_lookup() {
            " + second lookup"
        } else {
            ""
        },
        args.threads,
        match args.mode {
            Mode::Split => "split",
            Mode::Instances => "instances",
        },
        wall.as_secs_f64(),
        cpu.as_secs_f64(),
        cpu.as_secs_f64() / wall.as_secs_f64(),
        nodes as f64 / count,
        expanded as f64 / count,
        nodes as f64 / wall.as_secs_f64() / 1e6,
    );
    Ok(if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
