//! `query`: answers questions about sliding-tile positions from a database.
//!
//! Exit codes: 0 success, 1 the position is unsolvable, 2 bad input or an
//! unusable database. Results go to stdout, messages to stderr.

mod batch;
mod compare;
mod heuristics;
mod histogram;
mod info;
mod random;
mod solve;
mod stats;

use anyhow::Context;
use clap::{Parser, Subcommand};
use memmap2::Mmap;
use npuzzle::{parse_board, Board, Database, FormatError, LookupError, OpenError, Shape};
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exact answers to sliding-tile puzzles, looked up in a database built by `build-db`.
#[derive(Parser)]
#[command(version)]
struct Cli {
    /// The database file. Without it: data/RxC.db for --board, else $NPUZZLE_DB, else data/3x3.db.
    #[arg(long, global = true, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Board size; the database must hold this size.
    #[arg(long, global = true, value_name = "RxC")]
    board: Option<Shape>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The distance to the goal and one shortest sequence of moves.
    Solve(solve::SolveArgs),
    /// The distance to the goal.
    Distance(solve::DistanceArgs),
    /// How many positions lie at each distance from the goal.
    Histogram(histogram::HistogramArgs),
    /// Solves one position per line of stdin, one JSON object per line on stdout.
    Batch(batch::BatchArgs),
    /// Positions drawn uniformly from those at exactly K moves (or a range) from the goal.
    Random(random::RandomArgs),
    /// The classic heuristics over every position, against the true distance.
    Heuristics(heuristics::HeuristicsArgs),
    /// The classic search algorithms on one position, checked against the database.
    Compare(compare::CompareArgs),
    /// Per table: positions, mean and maximum distance, and the farthest positions.
    Stats(stats::StatsArgs),
    /// What the database holds.
    Info(info::InfoArgs),
    /// Checks every table: checksums, counts, and that every move leads one step closer.
    Verify,
}

/// How a command ended, as an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: the position cannot reach the goal.
    Unsolvable,
    /// Exit 2: some input was bad (the rest was answered).
    BadInput,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Unsolvable) => ExitCode::from(1),
        Ok(Outcome::BadInput) => ExitCode::from(2),
        // A closed pipe (`query histogram | head`) is the reader's choice, not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("query: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

fn run(cli: &Cli) -> anyhow::Result<Outcome> {
    let path = database_path(cli);
    let db = open_database(cli, &path)?;
    let out = &mut io::stdout().lock();
    let outcome = match &cli.command {
        Command::Solve(args) => solve::solve(&db, args, out),
        Command::Distance(args) => solve::distance(&db, args, out),
        Command::Histogram(args) => histogram::run(&db, args, out),
        Command::Batch(args) => batch::run(&db, args, out),
        Command::Random(args) => random::run(&db, args, out),
        Command::Stats(args) => stats::run(&db, args, out),
        Command::Heuristics(args) => heuristics::run(&db, args, out),
        Command::Compare(args) => compare::run(&db, args, out),
        Command::Info(args) => info::info(&db, &path, args, out),
        Command::Verify => info::verify(&db, &path, out),
    };
    outcome.map_err(|e| with_table_hint(e, &path, db.shape()))
}

/// A missing table's error, with the command that rebuilds the file with
/// the tables it has and the one that was missing.
fn with_table_hint(e: anyhow::Error, path: &Path, shape: Shape) -> anyhow::Error {
    let Some(LookupError::MissingTable {
        row, col, present, ..
    }) = e.chain().find_map(|c| c.downcast_ref::<LookupError>())
    else {
        return e;
    };
    let mut cmd = build_command(path, shape);
    let missing = row * shape.cols() + col;
    for cell in npuzzle::database::cells_of(*present).chain([missing]) {
        cmd.push_str(&format!(
            " --blank {},{}",
            shape.row_of(cell) + 1,
            shape.col_of(cell) + 1
        ));
    }
    anyhow::anyhow!(
        "{e:#}; rebuild it with that table too: {cmd} (or with --all-goals, for every goal)"
    )
}

/// --db, else data/RxC.db for --board, else $NPUZZLE_DB, else data/3x3.db.
fn database_path(cli: &Cli) -> PathBuf {
    if let Some(path) = &cli.db {
        return path.clone();
    }
    if let Some(shape) = cli.board {
        return default_path(shape);
    }
    match std::env::var_os("NPUZZLE_DB") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => default_path(Shape::THREE_BY_THREE),
    }
}

fn default_path(shape: Shape) -> PathBuf {
    PathBuf::from(format!("data/{shape}.db"))
}

/// The command that (re)builds the database at `path`.
fn build_command(path: &Path, shape: Shape) -> String {
    let mut cmd = format!("cargo run --release -p build-db -- --board {shape}");
    if path != default_path(shape) {
        cmd.push_str(&format!(" --out {}", path.display()));
    }
    cmd
}

fn open_database(cli: &Cli, path: &Path) -> anyhow::Result<Database<Mmap>> {
    let shape = cli.board.unwrap_or(Shape::THREE_BY_THREE);
    let db = match Database::open(path) {
        Ok(db) => db,
        Err(OpenError::Io { io, .. }) if io.kind() == io::ErrorKind::NotFound => {
            anyhow::bail!(
                "no database at {}; build it with: {}",
                path.display(),
                build_command(path, shape)
            )
        }
        // Not ours at all: suggesting a rebuild there would overwrite the file.
        Err(
            e @ OpenError::Format {
                problem: FormatError::Magic { .. } | FormatError::TooShort { .. },
                ..
            },
        ) => anyhow::bail!("{e}; is --db or NPUZZLE_DB pointing at the right file?"),
        Err(e @ OpenError::Format { .. }) => {
            anyhow::bail!("{e}; rebuild it with: {}", build_command(path, shape))
        }
        Err(e) => return Err(e.into()),
    };
    if let Some(wanted) = cli.board {
        if db.shape() != wanted {
            anyhow::bail!(
                "{} holds {} boards, not {wanted} (--board); build one with: {}",
                path.display(),
                db.shape(),
                build_command(&default_path(wanted), wanted)
            );
        }
    }
    Ok(db)
}

/// A start position and an optional goal, as most commands take them.
#[derive(clap::Args)]
pub struct PairArgs {
    /// The start position, in any form (`867254301`, `867/254/301`, `8 6 7 2 5 4 3 0 1`, JSON).
    #[arg(required = true, num_args = 1..)]
    start: Vec<String>,
    /// The goal [default: tiles in order, blank last].
    #[arg(long)]
    goal: Option<String>,
}

impl PairArgs {
    /// The two boards. Separate words are one board: `query solve 8 6 7 2 5 4 3 0 1`.
    fn boards(&self, shape: Shape) -> anyhow::Result<(Board, Board)> {
        let start = board_arg(&self.start.join(" "), shape, "start")?;
        Ok((start, goal_arg(self.goal.as_deref(), shape)?))
    }
}

/// Parses a board given on the command line; `what` names it in errors.
fn board_arg(text: &str, shape: Shape, what: &str) -> anyhow::Result<Board> {
    parse_board(text, shape).with_context(|| format!("bad {what} board {text:?}"))
}

/// The goal given with --goal, or the default: tiles in order, blank last.
fn goal_arg(goal: Option<&str>, shape: Shape) -> anyhow::Result<Board> {
    match goal {
        Some(text) => board_arg(text, shape, "goal"),
        None => Ok(Board::goal(shape)),
    }
}

/// "row 2, column 3" for a 0-based cell.
fn cell_name(shape: Shape, cell: usize) -> String {
    format!(
        "row {}, column {}",
        shape.row_of(cell) + 1,
        shape.col_of(cell) + 1
    )
}
