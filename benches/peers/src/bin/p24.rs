//! npuzzle's optimal 24-puzzle solver beside the `puzzle24` crate's (Korf &
//! Felner's 6-6-6-6 pattern databases with their reflection, IDA*), one
//! thread each, on the same positions: random walks of 40, 60 and 80 moves
//! from the goal `0 1 2 … 24` (blank top-left, puzzle24's and Korf's goal),
//! and on request Korf & Taylor's ten instances.
//!
//! Both solutions must have the same length (the published one for Korf &
//! Taylor's) and replay to the goal on npuzzle's board; any mismatch makes
//! the run exit with status 1. See README.md.

use anyhow::{bail, Context};
use clap::Parser;
use cpu_time::ThreadTime;
use npuzzle::pattern::{PatternDb, SolveOptions};
use npuzzle::{Board, Database, Move, Shape};
use npuzzle_peers::median;
use puzzle24::{ArrayGrid24, DefaultPatternDB, Dir, Pattern6Puzzle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Korf & Taylor's ten: number, published optimal length, 25 cells.
const KORF_TAYLOR: &str = include_str!("../../../../tests/data/korf-taylor24.txt");

/// Entries of one puzzle24 table: 25^6.
const PUZZLE24_ENTRIES: usize = 244_140_625;

#[derive(Parser)]
#[command(about = "npuzzle against the puzzle24 crate on 5x5 positions, one thread each")]
struct Args {
    /// The 5x5 pattern database written by `build-db --board 5x5`.
    #[arg(long)]
    db: PathBuf,
    /// The folder for puzzle24's two tables (2 × 244 MB): read from there,
    /// or built and written there first when missing (not timed).
    #[arg(long)]
    tables: PathBuf,
    /// Walk lengths from the goal, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [40, 60, 80])]
    walks: Vec<usize>,
    /// Positions per walk length.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// Seed of the walks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also solve the first this many of Korf & Taylor's ten (hours each).
    #[arg(long, default_value_t = 0)]
    korf_taylor: usize,
    /// Print one line per position.
    #[arg(long)]
    verbose: bool,
    /// Time the first pass too: without this, every group is solved once
    /// untimed by both solvers first, so that neither pays for touching its
    /// tables' pages for the first time (npuzzle's are mapped from the page
    /// cache, puzzle24's read into memory).
    #[arg(long)]
    cold: bool,
}

/// One position and what each solver did with it.
struct Case {
    label: String,
    start: Board,
    /// The published optimal length, where there is one.
    published: Option<usize>,
    ours: Run,
    theirs: Run,
}

/// One solver on one position.
struct Run {
    time: Duration,
    cpu: Duration,
    nodes: u64,
    moves: Option<Vec<Move>>,
}

/// A start to solve: its label, the board, and its published length if
/// known.
type Start = (String, Board, Option<usize>);

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("p24: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> anyhow::Result<bool> {
    let shape = Shape::new(5, 5)?;
    let goal = Board::new(shape, &(0..25).collect::<Vec<_>>())?;
    // puzzle24's tables first: they are built (once) before anything else.
    let theirs = puzzle24_tables(&args.tables)?;
    let db = Database::open(&args.db)?
        .into_patterns()
        .ok_or_else(|| anyhow::anyhow!("{} holds complete tables", args.db.display()))?;
    if db.shape() != shape {
        bail!("{} is for {}, not 5x5", args.db.display(), db.shape());
    }
    println!(
        "npuzzle: {} (partition {}, memory-mapped); puzzle24 0.1.0: DefaultPatternDB",
        args.db.display(),
        db.partition().name()
    );

    let mut groups: Vec<(String, Vec<Start>)> = Vec::new();
    let mut rng = SplitMix(args.seed);
    for &walk in &args.walks {
        let starts = (0..args.count)
            .map(|i| {
                (
                    format!("walk {walk} #{i}"),
                    random_walk(&goal, walk, &mut rng),
                    None,
                )
            })
            .collect();
        groups.push((format!("walks of {walk}"), starts));
    }
    if args.korf_taylor > 0 {
        groups.push((
            "Korf & Taylor".to_string(),
            korf_taylor(shape, args.korf_taylor)?,
        ));
    }

    let mut all_right = true;
    for (name, starts) in groups {
        if !args.cold {
            for (_, start, _) in &starts {
                solve_npuzzle(db.patterns(), start, &goal);
                solve_puzzle24(&theirs, start);
            }
        }
        let cases: Vec<Case> = starts
            .into_iter()
            .map(|(label, start, published)| {
                // Each solver in turn, so that load from other work on a
                // shared machine falls on both alike.
                let ours = solve_npuzzle(db.patterns(), &start, &goal);
                let theirs = solve_puzzle24(&theirs, &start);
                Case {
                    label,
                    start,
                    published,
                    ours,
                    theirs,
                }
            })
            .collect();
        all_right &= check(&cases, &goal, args.verbose);
        report(&name, &cases);
    }
    if !all_right {
        eprintln!("p24: some solutions are missing or wrong (see above)");
    }
    Ok(all_right)
}

/// puzzle24's tables from `folder`, built and written there first if
/// missing.
fn puzzle24_tables(folder: &Path) -> anyhow::Result<DefaultPatternDB> {
    let mut tables = Vec::new();
    for (name, pattern) in [
        ("pattern0.bin", Pattern6Puzzle::DEFAULT_PATTERN0),
        ("pattern1.bin", Pattern6Puzzle::DEFAULT_PATTERN1),
    ] {
        let path = folder.join(name);
        let table = if path.exists() {
            std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?
        } else {
            let began = Instant::now();
            let table = pattern.build_pattern_db();
            println!("puzzle24: {name} built in {:.1?}", began.elapsed());
            std::fs::create_dir_all(folder)?;
            std::fs::write(&path, &table).with_context(|| format!("writing {}", path.display()))?;
            table
        };
        if table.len() != PUZZLE24_ENTRIES {
            bail!(
                "{} holds {} bytes, not {PUZZLE24_ENTRIES}",
                path.display(),
                table.len()
            );
        }
        tables.push(table);
    }
    let second = tables.pop().expect("two tables");
    let first = tables.pop().expect("two tables");
    Ok(DefaultPatternDB::new(first, second))
}

fn solve_npuzzle<B: AsRef<[u8]>>(db: &PatternDb<B>, start: &Board, goal: &Board) -> Run {
    let (began, cpu) = (Instant::now(), ThreadTime::now());
    let solution = db.solve_to(start, goal, &SolveOptions::default());
    Run {
        time: began.elapsed(),
        cpu: cpu.elapsed(),
        nodes: solution.as_ref().map_or(0, |s| s.nodes),
        moves: solution.ok().map(|s| s.moves),
    }
}

/// puzzle24's IDA*. Its path names the direction each tile slides, the
/// opposite of the blank's move; its cells and directions are npuzzle's.
fn solve_puzzle24(db: &DefaultPatternDB, start: &Board) -> Run {
    let mut cells = [0u8; 25];
    cells.copy_from_slice(start.cells());
    let grid = ArrayGrid24::from(cells);
    let (began, cpu) = (Instant::now(), ThreadTime::now());
    let (nodes, path) = puzzle24::solve_ita(db, grid);
    let (time, cpu) = (began.elapsed(), cpu.elapsed());
    let moves = path
        .iter()
        .map(|dir| match dir.inv() {
            Dir::UP => Move::Up,
            Dir::DOWN => Move::Down,
            Dir::LEFT => Move::Left,
            Dir::RIGHT => Move::Right,
        })
        .collect();
    Run {
        time,
        cpu,
        nodes: nodes as u64,
        moves: Some(moves),
    }
}

/// A walk of `length` random moves from `goal`, never straight back.
fn random_walk(goal: &Board, length: usize, rng: &mut SplitMix) -> Board {
    let mut board = *goal;
    let mut last: Option<Move> = None;
    let mut made = 0;
    while made < length {
        let m = Move::ALL[(rng.next() % 4) as usize];
        if Some(m.opposite()) == last {
            continue;
        }
        if let Some(next) = board.apply(m) {
            board = next;
            last = Some(m);
            made += 1;
        }
    }
    board
}

/// The first `count` of Korf & Taylor's ten.
fn korf_taylor(shape: Shape, count: usize) -> anyhow::Result<Vec<Start>> {
    KORF_TAYLOR
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(count)
        .map(|line| {
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .with_context(|| format!("korf-taylor24.txt: {line}"))?;
            if numbers.len() != 27 {
                bail!(
                    "korf-taylor24.txt: expected 27 numbers, got {}",
                    numbers.len()
                );
            }
            let start = Board::new(shape, &numbers[2..])?;
            Ok((
                format!("Korf-Taylor {}", numbers[0]),
                start,
                Some(numbers[1] as usize),
            ))
        })
        .collect()
}

/// Both solutions replay to the goal, with the same length (and the
/// published one where known). True when everything is right.
fn check(cases: &[Case], goal: &Board, verbose: bool) -> bool {
    let mut right = true;
    for case in cases {
        let length = |run: &Run| run.moves.as_ref().map(Vec::len);
        let reaches = |run: &Run| {
            run.moves
                .as_ref()
                .is_some_and(|m| case.start.replay(m) == Some(*goal))
        };
        let (ours, theirs) = (length(&case.ours), length(&case.theirs));
        let problem = if !reaches(&case.ours) || !reaches(&case.theirs) {
            Some("a solution is missing or does not reach the goal".to_string())
        } else if ours != theirs || (case.published.is_some() && ours != case.published) {
            Some(format!(
                "lengths differ: npuzzle {ours:?}, puzzle24 {theirs:?}, published {:?}",
                case.published
            ))
        } else {
            None
        };
        if let Some(problem) = problem {
            eprintln!("p24: {}: {problem}", case.label);
            right = false;
        } else if verbose {
            println!(
                "{}: {} moves; npuzzle {:.2?}, {} nodes; puzzle24 {:.2?}, {} nodes",
                case.label,
                ours.unwrap_or(0),
                case.ours.time,
                case.ours.nodes,
                case.theirs.time,
                case.theirs.nodes
            );
        }
    }
    right
}

/// One group's figures: lengths, nodes, and both clocks for each solver.
fn report(name: &str, cases: &[Case]) {
    let n = cases.len().max(1) as f64;
    let mean_length = cases
        .iter()
        .filter_map(|c| c.ours.moves.as_ref().map(Vec::len))
        .sum::<usize>() as f64
        / n;
    let nodes = |run: fn(&Case) -> &Run| cases.iter().map(|c| run(c).nodes).sum::<u64>() as f64 / n;
    println!();
    println!(
        "{name}: {} positions, mean optimal length {mean_length:.1}; mean nodes generated: \
         npuzzle {:.0}, puzzle24 {:.0}",
        cases.len(),
        nodes(npuzzle_run),
        nodes(puzzle24_run)
    );
    for (clock, time) in [
        ("wall clock", (|r: &Run| r.time) as fn(&Run) -> Duration),
        ("CPU time of the solving thread", |r: &Run| r.cpu),
    ] {
        let total = |run: Side| cases.iter().map(|c| time(run(c))).sum::<Duration>();
        let middle = |run: Side| median(cases.iter().map(|c| time(run(c))).collect());
        let (ours, theirs): (Side, Side) = (npuzzle_run, puzzle24_run);
        println!(
            "  {clock}: npuzzle {:.3} s in total, median {:.1} ms; puzzle24 {:.3} s, median \
             {:.1} ms; npuzzle faster {:.1}× in total, {:.1}× in median",
            total(ours).as_secs_f64(),
            middle(ours).as_secs_f64() * 1e3,
            total(theirs).as_secs_f64(),
            middle(theirs).as_secs_f64() * 1e3,
            total(theirs).as_secs_f64() / total(ours).as_secs_f64().max(1e-9),
            middle(theirs).as_secs_f64() / middle(ours).as_secs_f64().max(1e-9),
        );
    }
}

/// One solver's run of a case.
type Side = fn(&Case) -> &Run;

fn npuzzle_run(case: &Case) -> &Run {
    &case.ours
}

fn puzzle24_run(case: &Case) -> &Run {
    &case.theirs
}

/// A small, seedable generator (SplitMix64), so that runs repeat.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
