//! `query`: answers questions about sliding-tile positions from a database.
//!
//! Exit codes: 0 success, 1 the position is unsolvable, 2 bad input or an
//! unusable database. Results go to stdout, messages to stderr.

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
mod plot;
mod print;
mod random;
mod serve;
mod solve;
mod stats;
mod stdio;
mod within;
mod worksheet;

use anyhow::Context;
use clap::{Parser, Subcommand};
use memmap2::Mmap;
use npuzzle::io::ARGUMENT_ECHO_LIMIT;
use npuzzle::pattern::Partition;
use npuzzle::{
    files::locate, files::locate_unnamed, files::Location, files::Origin, parse_board,
    rules::excerpt, rules::ParseError, AnswerError, Board, CompleteTables, Database, FormatError,
    Metric, NeedsCompleteTables, OpenError, PatternTables, Shape,
};
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
    #[arg(long, global = true, value_name = "PATH")]
    db: Vec<PathBuf>,
    /// Board size; the database must hold this size (4x4, 3x5, 5x3, 4x5, 5x4 and 5x5 are
    /// pattern databases; up to 6x6 with solve --within and no database).
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
    /// The classic heuristics over every position (or one), against the true distance.
    Heuristics(heuristics::HeuristicsArgs),
    /// The classic search algorithms on one position, checked against the database.
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
            eprintln!("query: {option} is given {times} times; give it once");
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
        eprintln!(
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
            eprintln!("query: {e:#}");
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
        _ => anyhow::bail!("--db is given once (only `serve` takes several)"),
    };
    let shape = cli.board.unwrap_or(Shape::THREE_BY_THREE);
    if cli.metric == Some(Metric::MultiTile) && shape.cells() > npuzzle::rules::MAX_TABLE_CELLS {
        anyhow::bail!(
            "--metric mtm: multi-tile tables exist for boards of up to {} cells; npuzzle builds \
             no multi-tile pattern databases, so a {shape} board is answered in single-tile \
             moves only (leave out --metric)",
            npuzzle::rules::MAX_TABLE_CELLS
        );
    }
    let location = locate(shape, cli.metric.unwrap_or_default(), given);
    let within = match &cli.command {
        Command::Solve(args) => args.within,
        Command::Batch(args) => args.within,
        _ => None,
    };
    if let Some(weight) = within {
        return run_within(cli, &location, shape, weight);
    }
    // A uniform draw needs no file: none is opened where none is found.
    if let (Command::Random(args), false) = (&cli.command, is_found(&location)) {
        if args.distance.is_none() {
            return random::uniform(None, shape, args, &mut stdio::stdout());
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
        Command::Compare(args) => compare::run(single_tile(&db, "compare")?, args, out),
        Command::CompareMetrics(args) => {
            compare_metrics::run(complete(&db, "compare-metrics")?, &location, args, out)
        }
        Command::Serve(_) => unreachable!("served above, without opening one database"),
    };
    outcome.map_err(|e| with_advice(e, &location, &db, cli.board.is_some()))
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
            location.path.display()
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
        Origin::Given => "leave out --db",
        Origin::Env => "unset NPUZZLE_DB",
        Origin::WorkingDir | Origin::UserData => return e,
    };
    if none_to_build(shape, Metric::SingleTile).is_some() {
        return e;
    }
    anyhow::anyhow!("{e:#} (--within needs no database: to {leave_out} is enough)")
}

/// The complete tables that `query COMMAND` needs, or the one message that
/// says a pattern file cannot serve it.
pub(crate) fn complete<'a>(
    db: &'a Database<Mmap>,
    command: &str,
) -> anyhow::Result<&'a CompleteTables<Mmap>> {
    db.complete().map_err(|e| needs_complete(command, e))
}

/// The single-tile database that `query COMMAND` needs: the heuristics
/// and the textbook searches count one tile per move, and are measured
/// against single-tile distances only.
fn single_tile<'a>(db: &'a Database<Mmap>, command: &str) -> anyhow::Result<&'a Database<Mmap>> {
    if db.metric() != Metric::SingleTile {
        anyhow::bail!(
            "`query {command}`: the heuristics and the textbook searches count single-tile \
             moves, and this database counts multi-tile moves; run it with --metric stm (and a \
             single-tile database, data/{}.db)",
            db.shape()
        );
    }
    Ok(db)
}

/// `query COMMAND` asked of a pattern file.
fn needs_complete(command: &str, e: NeedsCompleteTables) -> anyhow::Error {
    anyhow::anyhow!("`query {command}`: {e}")
}

/// Library errors say what is wrong; this adds what to do about it: the
/// command that rebuilds a file with a missing table, `query verify` for a
/// damaged one, or, when a board of another size was given and neither
/// `--board` (`board_given`) nor `--db` was, that `NPUZZLE_DB` chose the
/// file, and so the size.
fn with_advice(
    e: anyhow::Error,
    location: &Location,
    db: &Database<Mmap>,
    board_given: bool,
) -> anyhow::Error {
    let (path, shape) = (&location.path, db.shape());
    let misfit = e
        .chain()
        .filter_map(|c| c.downcast_ref::<ParseError>())
        .any(ParseError::is_for_another_size);
    // Only a file the environment chose hides where the size came from:
    // `--db` was typed (a note there would lengthen every mistyped board's
    // message), and a default path is named for its board.
    if misfit && !board_given && location.origin == Origin::Env {
        return anyhow::anyhow!(
            "{e:#}; the board size, {shape}, is that of {} (from NPUZZLE_DB): for another \
             size, unset NPUZZLE_DB and give --board RxC, or pass --db with a database of that \
             size",
            path.display(),
        );
    }
    let answer = e.chain().find_map(|c| c.downcast_ref::<AnswerError>());
    match (answer, db.patterns()) {
        (Some(AnswerError::MissingGoal { cell, present, .. }), None) => {
            let mut cmd = build_command(path, shape, db.metric());
            for cell in present.iter().chain([*cell]) {
                cmd.push_str(&format!(" --blank {cell}"));
            }
            anyhow::anyhow!(
                "{e:#}; rebuild it with that table too: {cmd} (or with --all-goals, for every goal)"
            )
        }
        (Some(AnswerError::MissingGoal { .. }), Some(patterns)) => anyhow::anyhow!(
            "{e:#}; rebuild it with a set for every goal: {} --all-goals",
            pattern_build_command(path, patterns, false)
        ),
        (Some(AnswerError::Corrupt { .. }), _) => anyhow::anyhow!(
            "{e:#}; run `query --db {} verify` to list the damage, then rebuild it with: {}",
            path.display(),
            build_command(path, shape, db.metric())
        ),
        (Some(AnswerError::DamagedPatterns { .. }), Some(patterns)) => anyhow::anyhow!(
            "{e:#}; run `query --db {} verify` to list the damage, then rebuild it with: {}",
            path.display(),
            pattern_build_command(path, patterns, patterns.sets().len() > 1)
        ),
        // `verify` found damage: the file is rebuilt as it was built.
        (None, Some(patterns)) if e.downcast_ref::<info::Damaged>().is_some() => anyhow::anyhow!(
            "{e:#}; rebuild it with: {}",
            pattern_build_command(path, patterns, patterns.sets().len() > 1)
        ),
        _ => e,
    }
}

/// The command that rebuilds the pattern database `db` at `path`: its
/// partition, where `build-db` would not choose it unasked (and always on
/// boards that get complete tables by default), and `--all-goals` if asked.
fn pattern_build_command(path: &Path, db: &PatternTables<Mmap>, all_goals: bool) -> String {
    let shape = db.shape();
    let mut cmd = build_command(path, shape, Metric::SingleTile);
    let partition = db.partition();
    let unasked = shape.cells() > npuzzle::rules::MAX_TABLE_CELLS
        && Partition::default_for(shape).as_ref() == Some(partition);
    if !unasked && partition.name() != "custom" {
        cmd.push_str(&format!(" --partition {}", partition.name()));
    }
    if all_goals {
        cmd.push_str(" --all-goals");
    }
    cmd
}

/// The command that (re)builds the database at `path` for `shape` boards
/// counted in `metric`, as it runs from the current folder (see
/// [`build_db_program`]).
fn build_command(path: &Path, shape: Shape, metric: Metric) -> String {
    let (program, missing) = build_db_program();
    let mut cmd = format!("{program} --board {shape}");
    if metric != Metric::SingleTile {
        cmd.push_str(&format!(" --metric {metric}"));
    }
    if *path != npuzzle::files::default_output(shape, metric).path {
        cmd.push_str(&format!(" --out {}", path.display()));
    }
    if missing {
        cmd.push_str(
            " (build-db is not installed beside this query; install it from a checkout of \
             npuzzle with: cargo install --path build-db)",
        );
    }
    cmd
}

/// How to run `build-db` the way this `query` was run, and whether it is
/// missing: through cargo inside a checkout of npuzzle; else the `build-db`
/// installed beside this binary, by name where `PATH` finds that one, else
/// by its path; else by name, missing.
fn build_db_program() -> (String, bool) {
    if Path::new("build-db/Cargo.toml").is_file() {
        return ("cargo run --release -p build-db --".to_string(), false);
    }
    let name = format!("build-db{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join(&name)))
        .filter(|p| p.is_file());
    let Some(beside) = beside else {
        return ("build-db".to_string(), true);
    };
    let on_path = std::env::var_os("PATH")
        .map(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(&name))
                .find(|p| p.is_file())
        })
        .unwrap_or_default();
    let same = |a: &Path, b: &Path| a.canonicalize().ok() == b.canonicalize().ok();
    match on_path {
        Some(found) if same(&found, &beside) => ("build-db".to_string(), false),
        _ => (beside.display().to_string(), false),
    }
}

/// Opens the database found for `shape` boards (`wanted` when --board
/// asked), or says what is wrong and what to do, naming the board only
/// where it is known (`--board`, a default path, or the file's header where
/// it can still be read): advice to rebuild with the wrong board would
/// overwrite a good database with another board's.
pub(crate) fn open_database(
    location: &Location,
    shape: Shape,
    wanted: Option<Shape>,
    wanted_metric: Option<Metric>,
) -> anyhow::Result<Database<Mmap>> {
    let metric = wanted_metric.unwrap_or_default();
    let path = &location.path;
    let from = location.origin.note();
    // The board to name in advice: only one that is known, never a guess. A
    // default path is the board's own (`data/RxC.db`).
    let named = match location.origin {
        Origin::WorkingDir | Origin::UserData => Some(shape),
        Origin::Given | Origin::Env => wanted,
    };
    let db = Database::open(path).map_err(|e| open_error(e, path, from, named, metric))?;
    let found_by_name = matches!(location.origin, Origin::WorkingDir | Origin::UserData);
    if found_by_name && (db.shape(), db.metric()) != (shape, metric) {
        // A file found by its name holds what the name says, or its
        // answers would be another board's or metric's.
        let (held, named) = (
            npuzzle::files::file_name(db.shape(), db.metric()),
            npuzzle::files::file_name(shape, metric),
        );
        // Advice that never costs a file: a rename onto a taken name, or a
        // build over this one, would.
        let set_aside = match path.with_file_name(&held).exists() {
            false => format!("rename it to {held}"),
            true => format!("{held} is there already, so move this one elsewhere"),
        };
        anyhow::bail!(
            "{} holds {} boards counted in {} moves, not what its name {named} says; {set_aside}, \
             then build a {named} with: {}",
            path.display(),
            db.shape(),
            metric_words(db.metric()),
            build_command(path, shape, metric)
        );
    }
    if let Some(wanted) = wanted {
        if db.shape() != wanted {
            anyhow::bail!(
                "{}{from} holds {} boards, not {wanted} (--board); {}",
                path.display(),
                db.shape(),
                other_board_advice(location.origin, wanted, metric)
            );
        }
    }
    if let Some(wanted) = wanted_metric {
        if db.metric() != wanted {
            // Only a file named by --db or NPUZZLE_DB gets here: one found
            // by its name holds the metric its name says.
            let other = locate_unnamed(db.shape(), wanted);
            let advice = if other.path.is_file() {
                let stop = if location.origin == Origin::Env {
                    "unset NPUZZLE_DB"
                } else {
                    "leave out --db"
                };
                format!("pass --db {} (or {stop})", other.path.display())
            } else {
                format!(
                    "build one with: {}",
                    build_command(&other.path, db.shape(), wanted)
                )
            };
            anyhow::bail!(
                "{}{from} counts {} moves, not {} (--metric {wanted}); {advice}",
                path.display(),
                metric_words(db.metric()),
                metric_words(wanted),
            );
        }
    }
    Ok(db)
}

/// A metric in words, for messages.
pub(crate) fn metric_words(metric: Metric) -> &'static str {
    match metric {
        Metric::SingleTile => "single-tile",
        Metric::MultiTile => "multi-tile",
    }
}

/// How to reach a `wanted` database when the file found, from `origin`,
/// holds another board: the file `query` finds when no name is given (or
/// the command that builds it), and how to stop naming the other one.
fn other_board_advice(origin: Origin, wanted: Shape, metric: Metric) -> String {
    let unnamed = locate_unnamed(wanted, metric);
    let build = || build_command(&unnamed.path, wanted, metric);
    // Only a file named by --db or NPUZZLE_DB gets here: one found by its
    // name holds the board its name says.
    let stop = match origin {
        Origin::Env => "unset NPUZZLE_DB",
        _ => "leave out --db",
    };
    if let Some(why) = none_to_build(wanted, metric) {
        return format!("{stop}: {why}");
    }
    if unnamed.path.is_file() {
        format!(
            "{stop} to use {}, or pass --db with a {wanted} database",
            unnamed.path.display()
        )
    } else {
        format!("{stop}, and build a {wanted} database with: {}", build())
    }
}

/// Why no database can be built for `shape` in `metric`, and what answers
/// there without one; `None` where `build-db` builds one.
pub(crate) fn none_to_build(shape: Shape, metric: Metric) -> Option<String> {
    let why = npuzzle::tables::unbuildable(shape, metric)?;
    Some(match metric {
        Metric::SingleTile => format!(
            "{why}, and solutions within a factor of the shortest need none: query --board \
             {shape} solve --within 2 BOARD"
        ),
        Metric::MultiTile => why,
    })
}

/// Why a file could not be opened as a database, with what to do about it.
fn open_error(
    e: OpenError,
    path: &Path,
    from: &str,
    named: Option<Shape>,
    metric: Metric,
) -> anyhow::Error {
    match e {
        OpenError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound => {
            match named.and_then(|shape| none_to_build(shape, metric)) {
                Some(why) => anyhow::anyhow!("no database at {}{from}; {why}", path.display()),
                None => anyhow::anyhow!(
                    "no database at {}{from}; build it with: {}",
                    path.display(),
                    build_advice(path, named, metric)
                ),
            }
        }
        e @ OpenError::NotAFile { .. } => anyhow::anyhow!("{e}{from}"),
        OpenError::Format { problem, .. } => {
            let advice = match &problem {
                // Not ours at all: suggesting a rebuild there would overwrite the file.
                FormatError::Envelope(e) if e.is_foreign() => {
                    "is --db or NPUZZLE_DB pointing at the right file?".to_string()
                }
                FormatError::Envelope(e) if e.newer_version().is_some() => format!(
                    "it was written by a newer npuzzle; upgrade this one to read it (or rebuild \
                     it with: {})",
                    build_advice(path, named, metric)
                ),
                problem => format!(
                    "rebuild it with: {}",
                    build_advice(path, problem.readable_board().or(named), metric)
                ),
            };
            anyhow::anyhow!(
                "{} is not a usable database{from}: {problem}; {advice}",
                path.display()
            )
        }
        e => anyhow::Error::new(e).context(format!("the database{from}")),
    }
}

/// The command that builds `path`, for its board where known; where not,
/// with the board left for the user to fill in, rather than a guess that
/// would overwrite a good database with another board's.
fn build_advice(path: &Path, shape: Option<Shape>, metric: Metric) -> String {
    match shape {
        Some(shape) => build_command(path, shape, metric),
        None => {
            let cmd = build_command(path, Shape::THREE_BY_THREE, metric);
            format!(
                "{} (RxC: its board)",
                cmd.replace("--board 3x3", "--board RxC")
            )
        }
    }
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
                anyhow::bail!(
                    "--goal took only {:?}, and the rest joined the start: quote a goal \
                     written with spaces, as in --goal '{}'",
                    excerpt(goal, ARGUMENT_ECHO_LIMIT),
                    npuzzle::io::spaced_goal(shape)
                );
            }
        }
        start
    }
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
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

impl PlotArg {
    /// The chart's path, once its format is known to be one that can be
    /// drawn: checked before any work, so a bad name costs nothing.
    pub fn checked(&self) -> anyhow::Result<Option<&Path>> {
        if let Some(path) = &self.plot {
            plot::Format::from_path(path)?;
        }
        Ok(self.plot.as_deref())
    }
}

/// Parses a board given on the command line; `what` names it in errors.
fn board_arg(text: &str, shape: Shape, what: &str) -> anyhow::Result<Board> {
    parse_board(text, shape)
        .with_context(|| format!("bad {what} board {:?}", excerpt(text, ARGUMENT_ECHO_LIMIT)))
}

/// "1 move", "2 moves": a count and its noun, singular or plural.
fn plural(count: u64, noun: &str) -> String {
    match (count, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{count} {stem}ies"),
        (_, None) => format!("{count} {noun}s"),
    }
}
