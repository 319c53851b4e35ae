//! npuzzle's optimal 15-puzzle solver side by side with its peers, in one
//! run and on one thread: Korf's 100 instances solved one after another by
//! npuzzle (a pattern database written by `build-db`, IDA*) and by slidy
//! 0.4.1's optimal single-tile-metric solver, and the easiest few by
//! pathfinding's generic IDA* with the Manhattan distance, for scale.
//!
//! Every solution's length is checked against the published one and every
//! solution is replayed to the goal on npuzzle's board; any mismatch makes
//! the run exit with status 1. See README.md.

use anyhow::{bail, Context};
use clap::Parser;
use cpu_time::ThreadTime;
use npuzzle::pattern::{Solution, SolveOptions};
use npuzzle::Database;
use npuzzle::{Board, Move, Shape};
use npuzzle_peers::median;
use slidy::algorithm::direction::Direction;
use slidy::puzzle::{puzzle::Puzzle, size::Size};
use slidy::solver::size4x4::stm::solver::Solver as SlidyStm;
use slidy::solver::solver::Solver as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Korf's 100: number, published optimal length, then the 16 cells with
/// the blank as 0; the goal is `0 1 2 … 15` (blank top-left).
const KORF100: &str = include_str!("../../../tests/data/korf100.txt");

#[derive(Parser)]
#[command(about = "npuzzle against slidy and pathfinding on Korf's 100, one thread each")]
struct Args {
    /// The 4x4 pattern database written by `build-db --board 4x4` (7-8).
    #[arg(long)]
    db: PathBuf,
    /// Solve only the first this many instances with npuzzle and slidy.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// How many of the instances with the smallest published lengths
    /// pathfinding's IDA* solves (0 skips it).
    #[arg(long, default_value_t = 10)]
    pathfinding_count: usize,
    /// Seconds pathfinding's IDA* may spend on one instance before it is
    /// reported as given up.
    #[arg(long, default_value_t = 300)]
    pathfinding_limit: u64,
    /// Also time npuzzle with the default goal's tables copied onto huge
    /// pages (the copy is not timed; that search reads no dual lookup).
    #[arg(long)]
    huge_pages: bool,
    /// Print one line per instance and solver.
    #[arg(long)]
    verbose: bool,
}

struct Instance {
    number: u32,
    length: usize,
    start: Board,
}

/// What one solver did on one instance.
struct Run {
    number: u32,
    /// Wall-clock time.
    time: Duration,
    /// CPU time of the solving thread: on a shared machine, the wall clock
    /// also counts the time other processes held the core.
    cpu: Duration,
    /// Nodes generated, where the solver reports them (npuzzle only).
    nodes: u64,
    /// The blank's moves in the instance's frame, when a solution came back.
    moves: Option<Vec<Move>>,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("peers: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Solves everything; `Ok(false)` when any solution is wrong.
fn run(args: Args) -> anyhow::Result<bool> {
    let shape = Shape::new(4, 4)?;
    let goal = Board::new(shape, &(0..16).collect::<Vec<_>>())?;
    let instances = korf100(shape)?;
    let instances = &instances[..args.count.min(instances.len())];

    let opened = Instant::now();
    let db = Database::open(&args.db)?
        .into_patterns()
        .ok_or_else(|| anyhow::anyhow!("{} holds complete tables", args.db.display()))?;
    if db.shape() != shape {
        bail!("{} is for {}, not 4x4", args.db.display(), db.shape());
    }
    let open_time = opened.elapsed();
    let built = Instant::now();
    let slidy = SlidyStm::new();
    let slidy_build = built.elapsed();
    println!(
        "npuzzle: {} opened in {open_time:.2?} (memory-mapped, partition {}); \
         slidy: tables built in {slidy_build:.2?} (not timed below)",
        args.db.display(),
        db.partition().name(),
    );

    let huge = if args.huge_pages {
        let copied = Instant::now();
        let huge = db.patterns().to_huge_pages()?;
        println!(
            "npuzzle: tables copied onto huge pages in {:.2?} (not timed below)",
            copied.elapsed()
        );
        Some(huge)
    } else {
        None
    };

    // Instance by instance, each solver in turn, so that load from other
    // work on a shared machine falls on all of them alike. Sequential
    // options: one thread, no parallel split of the search.
    let options = SolveOptions::default();
    let (mut npuzzle, mut huge_runs, mut slidy_runs) = (Vec::new(), Vec::new(), Vec::new());
    for instance in instances {
        // The file's search, which reads the dual lookup where a set of
        // the file serves the blank (the corners, with the default file).
        npuzzle.push(solve_npuzzle(instance, |start| {
            db.solve(start, &goal, &options).map_err(anyhow::Error::from)
        }));
        if let Some(huge) = &huge {
            huge_runs.push(solve_npuzzle(instance, |start| {
                (huge.solve_to(start, &goal, &options)).map_err(anyhow::Error::from)
            }));
        }
        slidy_runs.push(solve_slidy(&slidy, instance)?);
    }
    let huge = huge_runs;

    let mut easiest: Vec<&Instance> = instances.iter().collect();
    easiest.sort_by_key(|i| (i.length, i.number));
    easiest.truncate(args.pathfinding_count);
    let limit = Duration::from_secs(args.pathfinding_limit);
    let pathfinding_runs: Vec<Run> = easiest
        .iter()
        .map(|instance| manhattan_idastar(instance, &goal, limit))
        .collect();

    let mut all_right = true;
    let solvers = [
        ("npuzzle, file mapped", &npuzzle),
        ("npuzzle, huge pages, no dual", &huge),
        ("slidy 0.4.1 (stm::Solver)", &slidy_runs),
        ("pathfinding idastar, Manhattan", &pathfinding_runs),
    ];
    for (name, runs) in solvers {
        all_right &= check(name, runs, instances, &goal, args.verbose);
    }
    let nodes: u64 = npuzzle.iter().map(|r| r.nodes).sum();
    let cpu: Duration = npuzzle.iter().map(|r| r.cpu).sum();
    println!(
        "npuzzle: {nodes} nodes generated, {:.0} per instance, {:.0} ns of CPU per node",
        nodes as f64 / npuzzle.len().max(1) as f64,
        cpu.as_secs_f64() * 1e9 / nodes.max(1) as f64
    );
    for (clock, time) in [
        ("wall clock", (|r: &Run| r.time) as fn(&Run) -> Duration),
        ("CPU time of the solving thread", |r: &Run| r.cpu),
    ] {
        println!();
        println!("{clock}:");
        println!(
            "{:<32} {:>9} {:>10} {:>12} {:>10}   npuzzle (file mapped) faster (×)",
            "solver", "instances", "total (s)", "median (ms)", "mean (ms)"
        );
        for (name, runs) in solvers {
            if runs.is_empty() {
                continue;
            }
            let s = summary(runs, time);
            // npuzzle's times on the instances this solver ran.
            let ours: Vec<&Run> = npuzzle
                .iter()
                .filter(|r| runs.iter().any(|o| o.number == r.number))
                .collect();
            let ours = summary(&ours, time);
            let speedup = if name.starts_with("npuzzle") {
                String::new()
            } else {
                format!(
                    "{:.1} in total, {:.1} in median",
                    s.total.as_secs_f64() / ours.total.as_secs_f64(),
                    s.median.as_secs_f64() / ours.median.as_secs_f64()
                )
            };
            println!(
                "{:<32} {:>9} {:>10.3} {:>12.2} {:>10.2}   {speedup}",
                name,
                runs.len(),
                s.total.as_secs_f64(),
                s.median.as_secs_f64() * 1e3,
                s.mean.as_secs_f64() * 1e3,
            );
        }
    }
    if !all_right {
        eprintln!("peers: some solutions are missing or wrong (see above)");
    }
    Ok(all_right)
}

/// One instance solved by npuzzle's IDA*, through `solve`.
fn solve_npuzzle(
    instance: &Instance,
    solve: impl Fn(&Board) -> anyhow::Result<Solution>,
) -> Run {
    let (began, cpu) = (Instant::now(), ThreadTime::now());
    let solution = solve(&instance.start);
    Run {
        number: instance.number,
        time: began.elapsed(),
        cpu: cpu.elapsed(),
        nodes: solution.as_ref().map_or(0, |s| s.nodes),
        moves: solution.ok().map(|s| s.moves),
    }
}

/// One instance solved by slidy's optimal 4x4 solver. A solution slidy's
/// own replay rejects counts as none; ours is checked with the others.
fn solve_slidy(slidy: &SlidyStm, instance: &Instance) -> anyhow::Result<Run> {
    let puzzle = to_slidy(&instance.start)?;
    let (began, cpu) = (Instant::now(), ThreadTime::now());
    let solution = slidy.solve(&puzzle);
    let (time, cpu) = (began.elapsed(), cpu.elapsed());
    let moves = solution
        .ok()
        .filter(|alg| alg.is_solution_of(puzzle.clone()))
        .map(|alg| from_slidy(&alg));
    Ok(Run {
        number: instance.number,
        time,
        cpu,
        nodes: 0,
        moves,
    })
}

/// Korf's 100 from `tests/data/korf100.txt`.
fn korf100(shape: Shape) -> anyhow::Result<Vec<Instance>> {
    KORF100
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .with_context(|| format!("korf100.txt: {line}"))?;
            if numbers.len() != 18 {
                bail!("korf100.txt: expected 18 numbers, got {}", numbers.len());
            }
            Ok(Instance {
                number: numbers[0] as u32,
                length: numbers[1] as usize,
                start: Board::new(shape, &numbers[2..])?,
            })
        })
        .collect()
}

/// The instance in slidy's convention (goal `1 2 … 15 0`, blank
/// bottom-right): the board turned half a turn, so Korf's goal (blank
/// top-left) lands on slidy's, and tile `t` renamed `16 - t`, so that the
/// turned goal's tiles read in order.
fn to_slidy(board: &Board) -> anyhow::Result<Puzzle> {
    let cells = board.cells();
    let pieces = (0..16)
        .map(|cell| match u64::from(cells[15 - cell]) {
            0 => 0,
            tile => 16 - tile,
        })
        .collect();
    Ok(Puzzle::with_pieces(pieces, Size::new(4, 4)?)?)
}

/// slidy's moves as the blank's moves on the unturned board. slidy names
/// the direction a tile slides (`Up`: the tile below the blank moves up,
/// so the blank moves down); the half turn reverses every direction again,
/// so each name carries over unchanged.
fn from_slidy(alg: &slidy::algorithm::algorithm::Algorithm) -> Vec<Move> {
    alg.moves()
        .iter()
        .flat_map(|m| {
            let blank = match m.direction() {
                Direction::Up => Move::Up,
                Direction::Down => Move::Down,
                Direction::Left => Move::Left,
                Direction::Right => Move::Right,
            };
            std::iter::repeat_n(blank, m.amount() as usize)
        })
        .collect()
}

/// pathfinding's generic IDA* with the Manhattan distance to Korf's goal
/// (tile `t` home in cell `t`). Past `limit` it is starved of successors,
/// which ends the search without a solution.
fn manhattan_idastar(instance: &Instance, goal: &Board, limit: Duration) -> Run {
    let (began, cpu) = (Instant::now(), ThreadTime::now());
    let deadline = began + limit;
    let mut generated = 0u64;
    let result = pathfinding::directed::idastar::idastar(
        &instance.start,
        |board| {
            generated += 1;
            if generated.is_multiple_of(65_536) && Instant::now() > deadline {
                return Vec::new();
            }
            Move::ALL
                .iter()
                .filter_map(|&m| board.apply(m).map(|next| (next, 1u32)))
                .collect()
        },
        manhattan,
        |board| board == goal,
    );
    let (time, cpu) = (began.elapsed(), cpu.elapsed());
    let moves = result.map(|(path, _)| {
        path.windows(2)
            .map(|pair| {
                Move::ALL
                    .into_iter()
                    .find(|&m| pair[0].apply(m) == Some(pair[1]))
                    .expect("idastar's path steps by moves")
            })
            .collect()
    });
    Run {
        number: instance.number,
        time,
        cpu,
        nodes: 0,
        moves,
    }
}

/// The sum of every tile's row and column distance from its home cell `t`.
fn manhattan(board: &Board) -> u32 {
    board
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &tile)| tile != 0)
        .map(|(cell, &tile)| {
            let (cell, tile) = (cell as i32, i32::from(tile));
            ((cell / 4 - tile / 4).abs() + (cell % 4 - tile % 4).abs()) as u32
        })
        .sum()
}

/// Checks every run's length against the published one and replays it to
/// the goal; prints what is wrong. True when everything is right.
fn check(name: &str, runs: &[Run], instances: &[Instance], goal: &Board, verbose: bool) -> bool {
    let mut right = true;
    for run in runs {
        let instance = instances
            .iter()
            .find(|i| i.number == run.number)
            .expect("a run of a known instance");
        let problem = match &run.moves {
            None => Some("no solution".to_string()),
            Some(moves) if moves.len() != instance.length => Some(format!(
                "{} moves, published {}",
                moves.len(),
                instance.length
            )),
            Some(moves) if instance.start.replay(moves) != Some(*goal) => {
                Some("the moves do not lead to the goal".to_string())
            }
            Some(_) => None,
        };
        if let Some(problem) = &problem {
            eprintln!("peers: {name}: instance {}: {problem}", run.number);
            right = false;
        } else if verbose {
            println!(
                "{name}: instance {:>3}: {} moves in {:.2?}",
                run.number, instance.length, run.time
            );
        }
    }
    right
}

struct Summary {
    total: Duration,
    median: Duration,
    mean: Duration,
}

fn summary<R: std::borrow::Borrow<Run>>(runs: &[R], time: fn(&Run) -> Duration) -> Summary {
    let times: Vec<Duration> = runs.iter().map(|r| time(r.borrow())).collect();
    let total: Duration = times.iter().sum();
    Summary {
        total,
        median: median(times),
        mean: total / runs.len().max(1) as u32,
    }
}
