//! `query`: answers questions about sliding-tile positions from a database.
//!
//! Exit codes: 0 success, 1 the position is unsolvable (for `check`, the
//! moves do not reach the goal), 2 bad input, an unusable database or a
//! search stopped by `--timeout`. Results go to stdout, messages to stderr.

// Unsafe code belongs to the library's memory mapping alone.
#![forbid(unsafe_code)]

mod batch;
mod check;
mod compare;
mod compare_metrics;
mod heuristics;
mod histogram;
mod info;
mod numbers;
mod open;
mod plot;
mod print;
mod random;
mod search;
mod serve;
mod solvable;
mod solve;
mod stats;
mod stdio;
mod within;
mod worksheet;

use anyhow::Context;
use clap::{Parser, Subcommand};
use npuzzle::files::shown_path;
use npuzzle::io::ARGUMENT_ECHO_LIMIT;
use npuzzle::{
    files::locate, files::Location, files::Origin, parse_board, rules::excerpt, Board, Database,
    Metric, Shape,
};
use open::single_tile;
pub(crate) use open::with_advice;
pub(crate) use open::{build_command, complete, needs_complete, none_to_build, open_database};
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exact answers to sliding-tile puzzles, looked up in a database built by `build-db`.
#[derive(Parser)]
#[command(
    name = "query",
    version,
    after_help = "Moves are the blank's: U, D, L and R move the blank up, down, left or \
                  right, and the tile beside it slides the other way (U: the tile above the \
                  blank slides down). Boards are written in any form: 867254301, 867/254/301, \
                  '8 6 7 2 5 4 3 0 1', [[8,6,7],[2,5,4],[3,0,1]], with 0, _ or . for the blank."
)]
struct Cli {
    /// The database file. Without it: $NPUZZLE_DB, else data/RxC.db under the current
    /// folder, else RxC.db in the per-user data folder (RxC from --board, 3x3 by default).
    /// Given once, except to `serve`, which serves every file given.
    #[arg(long, global = true, value_name = "PATH", value_parser = npuzzle::io::non_empty_path())]
    db: Vec<PathBuf>,
    /// Board size; the database must hold this size (4x4, 3x5, 5x3, 4x5, 5x4 and 5x5 are
    /// pattern databases; up to 6x6 with no database for solve --within, random and
    /// heuristics START).
    #[arg(long, global = true, value_name = "RxC", value_parser = str::parse::<Shape>, allow_hyphen_values = true)]
    board: Option<Shape>,
    /// How moves are counted: stm (one tile per move) or mtm (a slide of 1 to k tiles in a
    /// line is one move, written U3 L R2). The database must count the same way; mtm looks
    /// for data/RxC-mtm.db [default: stm, or the metric of the file given with --db].
    #[arg(long, global = true, value_name = "METRIC", value_parser = str::parse::<Metric>)]
    metric: Option<Metric>,
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
    /// Solves one position per line of stdin, one answer per line on stdout.
    ///
    /// Each line is a start, or a start and a goal separated by a tab, a `;`, or (when both
    /// are written without spaces) a space: `867254301`, `867254301 123456780`,
    /// `8 6 7 2 5 4 3 0 1;1 2 3 4 5 6 7 8 0`. Answers come in input order.
    Batch(batch::BatchArgs),
    /// Positions at exactly K moves (or a range) from the goal, drawn uniformly from complete
    /// tables or found by random walks on pattern databases, or without --distance drawn
    /// uniformly from every position that reaches it.
    Random(random::RandomArgs),
    /// Grades a move list: legal, reaching the goal, how much longer than the shortest, and
    /// which moves went farther from the goal. Exit code 0 when the moves reach the goal, 1
    /// when they do not.
    Check(check::CheckArgs),
    /// Whether a start can reach the goal, by the inversion-parity test, with the numbers it
    /// rests on either way (needs no database; any board up to 6x6). Exit code 0 when it
    /// can, 1 when it cannot.
    Solvable(solvable::SolvableArgs),
    /// The classic heuristics over every position (or one), against the true distance.
    Heuristics(heuristics::HeuristicsArgs),
    /// The classic search algorithms on one position, checked against the database (or with
    /// no file, an optimal search over linear conflicts); with --distance, their mean costs
    /// over positions drawn at each distance.
    Compare(compare::CompareArgs),
    /// Per table: positions, mean and maximum distance, and the farthest positions.
    Stats(stats::StatsArgs),
    /// Single-tile against multi-tile distances over every position: their joint
    /// histogram, and the largest ratio.
    CompareMetrics(compare_metrics::CompareMetricsArgs),
    /// What the database holds.
    Info(info::InfoArgs),
    /// Checks every table: checksums, counts, and that every move leads one step closer.
    Verify(info::VerifyArgs),
    /// A local web page to play every board served, with exact distances and hints.
    Serve(serve::ServeArgs),
}

/// How a command ended, as an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: the answer is no: the position cannot reach the goal, or
    /// (`check`) the moves given do not reach it.
    No,
    /// Exit 2: some input was bad (the rest was answered).
    BadInput,
}

fn main() -> ExitCode {
    npuzzle::io::file_size_limit_as_error();
    // Global options may come before or after the subcommand. Given on both
    // sides, clap keeps one side's values and drops the other's: count them.
    let given = |option: &str| {
        std::env::args_os()
            .filter(|a| {
                let a = a.to_string_lossy();
                a == option || a.starts_with(&format!("{option}="))
            })
            .count()
    };
    for option in ["--board", "--metric"] {
        let times = given(option);
        if times > 1 {
            npuzzle::eprintln_or_drop!("query: {option} is given {times} times; give it once");
            return ExitCode::from(2);
        }
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            return npuzzle::io::report_usage_error(
                &e,
                "query",
                &<Cli as clap::CommandFactory>::command(),
            )
        }
    };
    let dbs = given("--db");
    if dbs > 1 && dbs != cli.db.len() {
        npuzzle::eprintln_or_drop!(
            "query: --db is given {dbs} times, before and after the command; give it once \
             (`serve` takes several, all after it)"
        );
        return ExitCode::from(2);
    }
    match run(&cli) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::No) => ExitCode::from(1),
        Ok(Outcome::BadInput) => ExitCode::from(2),
        // A closed pipe (`query histogram | head`) is the reader's choice, not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let said = format!("{e:#}");
            npuzzle::eprintln_or_drop!("query: {said}{}", open::install_note(&said));
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    // JSON is written through serde_json, whose error carries the kind.
    let kind = |c: &(dyn std::error::Error + 'static)| match c.downcast_ref::<io::Error>() {
        Some(e) => Some(e.kind()),
        None => c.downcast_ref::<serde_json::Error>()?.io_error_kind(),
    };
    e.chain()
        .any(|c| kind(c) == Some(io::ErrorKind::BrokenPipe))
}

fn run(cli: &Cli) -> anyhow::Result<Outcome> {
    if let Command::Serve(args) = &cli.command {
        if let Some(metric) = cli.metric {
            anyhow::bail!(
                "serve takes no --metric ({metric} given): it serves each file in the metric \
                 the file counts, and the page switches between them; leave out --metric"
            );
        }
        return serve::run(args, &cli.db, cli.board);
    }
    let given = match cli.db.as_slice() {
        [] => None,
        [path] => Some(path.as_path()),
        many => anyhow::bail!(
            "--db is given {} times; give it once (only `serve` takes several)",
            many.len()
        ),
    };
    let shape = cli.board.unwrap_or(Shape::THREE_BY_THREE);
    check_metric(cli, shape)?;
    let location = locate(shape, cli.metric.unwrap_or_default(), given);
    if let Command::Solvable(args) = &cli.command {
        return run_solvable(cli, &location, (shape, given), args);
    }
    let within = match &cli.command {
        Command::Solve(args) => args.within,
        Command::Batch(args) => args.within,
        _ => None,
    };
    if let Some(weight) = within {
        return run_within(cli, &location, shape, weight);
    }
    if !is_found(&location) {
        if let Some(outcome) = run_without_file(cli, shape) {
            return outcome;
        }
    }
    let db = open_database(&location, shape, cli.board, cli.metric)?;
    let path = &location.path;
    let out = &mut stdio::stdout();
    let file = info::File { db: &db, path };
    let outcome = match &cli.command {
        Command::Solve(args) => solve::solve(&db, args, out),
        Command::Distance(args) => solve::distance(&db, args, out),
        Command::Batch(args) => {
            let advise = |e| with_advice(e, &location, &db, cli.board.is_some());
            batch::run(&db, args, &advise, out)
        }
        Command::Info(args) => file.info(args, out),
        Command::Verify(args) => file.verify(args, out),
        Command::Histogram(args) => histogram::run(complete(&db, "histogram")?, args, out),
        Command::Random(args) => random::run(&db, args, out),
        Command::Check(args) => check::run(&db, args, out),
        Command::Stats(args) => stats::run(complete(&db, "stats")?, args, out),
        Command::Heuristics(args) => heuristics::run(single_tile(&db, "heuristics")?, args, out),
        Command::Compare(args) => {
            compare::run(Some(single_tile(&db, "compare")?), db.shape(), args, out)
        }
        Command::CompareMetrics(args) => {
            compare_metrics::run(complete(&db, "compare-metrics")?, &location, args, out)
        }
        Command::Serve(_) => unreachable!("served above, without opening one database"),
        Command::Solvable(_) => unreachable!("answered above, with no table"),
    };
    outcome.map_err(|e| with_advice(e, &location, &db, cli.board.is_some()))
}

/// `--metric`, where the board has no tables of it or the command counts
/// single-tile moves only.
fn check_metric(cli: &Cli, shape: Shape) -> anyhow::Result<()> {
    if let Some(metric) = cli.metric {
        metric
            .check_tables(shape)
            .map_err(|e| anyhow::anyhow!("--metric {metric}: {e}; leave out --metric"))?;
    }
    if cli.metric == Some(Metric::MultiTile) {
        if let Command::Heuristics(_) | Command::Compare(_) = &cli.command {
            anyhow::bail!(
                "the heuristics and the textbook searches count single-tile moves; leave out \
                 --metric mtm"
            );
        }
    }
    Ok(())
}

/// `query solvable`: arithmetic, needing no table. A file named (`given`)
/// opens for its size, and is refused as every command refuses it, for
/// another `--board`.
fn run_solvable(
    cli: &Cli,
    location: &Location,
    (shape, given): (Shape, Option<&Path>),
    args: &solvable::SolvableArgs,
) -> anyhow::Result<Outcome> {
    let out = &mut stdio::stdout();
    if given.is_none() {
        return solvable::run(shape, args, out).map_err(|e| {
            match open::other_size_note(&e, cli.board.is_some(), |_| true, open::give_board) {
                Some(note) => anyhow::anyhow!("{e:#}; {note}"),
                None => e,
            }
        });
    }
    let db = open_database(location, shape, cli.board, cli.metric)?;
    solvable::run(db.shape(), args, out)
        .map_err(|e| with_advice(e, location, &db, cli.board.is_some()))
}

/// The commands that answer with no file where none is found: a uniform
/// draw, one position's heuristics (its distance searched over linear
/// conflicts) and the textbook searches' comparison. `None` for the rest,
/// which need one.
fn run_without_file(cli: &Cli, shape: Shape) -> Option<anyhow::Result<Outcome>> {
    let out = &mut stdio::stdout();
    match &cli.command {
        Command::Random(args) if args.distance.is_none() => {
            Some(random::uniform(None, shape, args, out))
        }
        Command::Heuristics(args) if args.has_start() => {
            Some(heuristics::without_file(shape, args, out))
        }
        Command::Compare(args) => Some(compare::run(None, shape, args, out)),
        _ => None,
    }
}

/// `query solve --within W` and `query batch --within W`: with the
/// database found, if any, for its pattern tables; a file named by `--db`
/// or `NPUZZLE_DB` must open, but none is needed.
fn run_within(
    cli: &Cli,
    location: &Location,
    shape: Shape,
    weight: npuzzle::bounded::Weight,
) -> anyhow::Result<Outcome> {
    if cli.metric == Some(Metric::MultiTile) {
        anyhow::bail!(
            "--within counts single-tile moves; leave out --metric mtm (complete multi-tile \
             tables give exact answers: query --metric mtm solve)"
        );
    }
    let out = &mut stdio::stdout();
    let mut run = |db: Option<&Database>, shape| match &cli.command {
        Command::Batch(args) => batch::run_within(db, shape, args, weight, out),
        Command::Solve(args) => within::run(db, shape, args, weight, out),
        _ => unreachable!("only solve and batch take --within"),
    };
    if !is_found(location) {
        return run(None, shape);
    }
    let db = open_database(location, shape, cli.board, cli.metric)
        .map_err(|e| none_is_needed(e, location.origin, shape))?;
    if db.metric() != Metric::SingleTile {
        anyhow::bail!(
            "--within counts single-tile moves, and {} counts multi-tile moves; pass a \
             single-tile database, or none",
            shown_path(&location.path)
        );
    }
    run(Some(&db), db.shape()).map_err(|e| with_advice(e, location, &db, cli.board.is_some()))
}

/// Whether a database is there to open: one named (`--db`, `NPUZZLE_DB`)
/// must be, and one in a default place is where the file exists.
fn is_found(location: &Location) -> bool {
    matches!(location.origin, Origin::Given | Origin::Env) || location.path.is_file()
}

/// A file named for `--within` by `--db` or `NPUZZLE_DB` that cannot
/// serve: the usual message, and that the question needs no file (said
/// already where no database can be built for the board). A file found in
/// a default place is the user's own to rebuild: its message stands.
fn none_is_needed(e: anyhow::Error, origin: Origin, shape: Shape) -> anyhow::Error {
    let leave_out = match origin {
        Origin::Given | Origin::Env => open::stop_naming(origin),
        Origin::WorkingDir | Origin::UserData => return e,
    };
    if none_to_build(shape, Metric::SingleTile).is_some() {
        return e;
    }
    anyhow::anyhow!("{e:#} (--within needs no database: to {leave_out} is enough)")
}

/// A start position and an optional goal, as most commands take them.
#[derive(clap::Args)]
pub struct PairArgs {
    /// The start position, in any form (`867254301`, `867/254/301`, `8 6 7 2 5 4 3 0 1`, JSON).
    #[arg(required = true, num_args = 1..)]
    start: Vec<String>,
    #[command(flatten)]
    goal: GoalArg,
}

impl PairArgs {
    /// The two boards. Separate words are one board: `query solve 8 6 7 2 5 4 3 0 1`.
    fn boards(&self, shape: Shape) -> anyhow::Result<(Board, Board)> {
        let start = self.goal.start_of(&self.start, shape)?;
        Ok((start, self.goal.board(shape)?))
    }
}

/// `--goal`, as every command that answers toward a goal takes it.
#[derive(clap::Args)]
pub struct GoalArg {
    /// The goal [default: tiles in order, blank last]. Quote a goal written with spaces.
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    goal: Option<String>,
}

impl GoalArg {
    /// The goal given, or the default: tiles in order, blank last.
    pub fn board(&self, shape: Shape) -> anyhow::Result<Board> {
        match &self.goal {
            Some(text) => board_arg(text, shape, "goal"),
            None => Ok(Board::goal(shape)),
        }
    }

    /// The start written as `words` beside this goal: separate words are
    /// one board (`query solve 8 6 7 2 5 4 3 0 1`).
    pub fn start_of(&self, words: &[String], shape: Shape) -> anyhow::Result<Board> {
        // `--goal 1 2 3 4 5 6 7 8 0` unquoted: the goal is "1" and the rest
        // joins the start. Say so, rather than blame the start's tiles.
        let start = board_arg(&words.join(" "), shape, "start");
        // `solve START GOAL`, as a batch line is written.
        if let (Err(_), [first, second]) = (&start, words) {
            let board = |w: &String| parse_board(w, shape).is_ok();
            if board(first) && board(second) {
                anyhow::bail!(
                    "two boards given, {first} and {second}: a goal is given with --goal \
                     (START --goal {second})"
                );
            }
        }
        if let (Err(_), Some(goal)) = (&start, &self.goal) {
            if npuzzle::io::is_tile_number(goal) && words.len() + 1 >= shape.cells() {
                // The goal meant: the tiles typed after --goal, where they
                // make a board; else the tiles in order.
                let example = goal_typed(shape)
                    .filter(|meant| parse_board(meant, shape).is_ok())
                    .unwrap_or_else(|| npuzzle::io::spaced_goal(shape));
                anyhow::bail!(
                    "--goal took only {:?}, and the rest joined the start: quote a goal \
                     written with spaces, as in --goal '{example}'",
                    excerpt(goal, ARGUMENT_ECHO_LIMIT),
                );
            }
        }
        start
    }
}

/// The words typed from `--goal` on (`--goal 1 2 3 …`, `--goal=1 2 …`), as
/// many as `shape` has cells: the goal meant, where it was not quoted.
fn goal_typed(shape: Shape) -> Option<String> {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let at = args
        .iter()
        .position(|a| a == "--goal" || a.starts_with("--goal="))?;
    let first = match args[at] == "--goal" {
        true => at + 1,
        false => at,
    };
    let mut words: Vec<&str> = args.get(first..)?.iter().map(String::as_str).collect();
    if let Some(value) = words.first_mut() {
        *value = value.trim_start_matches("--goal=");
    }
    words.truncate(shape.cells());
    Some(words.join(" "))
}

/// `--goal`, `--json`/`--csv` and `--plot`, as the commands that chart one
/// goal's table take them.
#[derive(clap::Args)]
pub struct ChartArgs {
    #[command(flatten)]
    pub goal: GoalArg,
    #[command(flatten)]
    pub format: TableFormat,
    #[command(flatten)]
    pub plot: PlotArg,
}

/// `--json` and `--csv`, as every command that prints a table takes them.
#[derive(clap::Args)]
pub struct TableFormat {
    /// JSON instead of text (each command's help names the fields).
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// CSV with a header line instead of text.
    #[arg(long)]
    pub csv: bool,
}

/// `--plot FILE`, as every command that draws takes it.
#[derive(clap::Args)]
pub struct PlotArg {
    /// Also draw a chart into FILE: SVG or PNG, by its extension.
    #[arg(long, value_name = "FILE", value_parser = npuzzle::io::non_empty_path())]
    plot: Option<PathBuf>,
}

impl PlotArg {
    /// Whether a chart was asked for.
    pub fn given(&self) -> bool {
        self.plot.is_some()
    }

    /// The chart's file, started before any work: a path that cannot take
    /// a chart (a bad extension, a missing folder, a FIFO, a file npuzzle
    /// did not write) costs nothing.
    pub fn start(&self) -> anyhow::Result<Option<plot::ChartFile>> {
        let Some(path) = &self.plot else {
            return Ok(None);
        };
        // Ctrl-C must not leave the waiting temporary file behind.
        npuzzle::io::remove_unfinished_on_signals();
        Ok(Some(plot::ChartFile::start(path)?))
    }
}

/// Parses a board given on the command line; `what` names it in errors.
pub(crate) fn board_arg(text: &str, shape: Shape, what: &'static str) -> anyhow::Result<Board> {
    parse_board(text, shape).with_context(|| BadBoard {
        what,
        shown: excerpt(text, ARGUMENT_ECHO_LIMIT).into_owned(),
    })
}

/// What a board that does not read was given as: `bad start board "…"`,
/// so that advice can tell a start from a goal.
#[derive(Debug)]
pub(crate) struct BadBoard {
    /// `start` or `goal`.
    pub what: &'static str,
    /// The text given, shortened.
    shown: String,
}

impl std::fmt::Display for BadBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad {} board {:?}", self.what, self.shown)
    }
}

/// "1 move", "2 moves": a count and its noun, singular or plural.
fn plural(count: u64, noun: &str) -> String {
    match (count, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{count} {stem}ies"),
        (_, None) => format!("{count} {noun}s"),
    }
}
