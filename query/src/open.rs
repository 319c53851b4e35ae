//! Opening the database a command needs, and what to do when that fails:
//! every refusal of a file names it and, where the board is known, the
//! command that builds or rebuilds it.

use crate::info;
use memmap2::Mmap;
use npuzzle::files::{megabytes, shell_path, shown_path};
use npuzzle::pattern::Partition;
use npuzzle::{
    files::locate_unnamed, files::Location, files::Origin, rules::ParseError, AnswerError,
    CompleteTables, Database, FormatError, Metric, NeedsCompleteTables, OpenError, PatternTables,
    Shape,
};
use std::io;
use std::path::Path;

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
pub(crate) fn single_tile<'a>(
    db: &'a Database<Mmap>,
    command: &str,
) -> anyhow::Result<&'a Database<Mmap>> {
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
pub(crate) fn needs_complete(command: &str, e: NeedsCompleteTables) -> anyhow::Error {
    anyhow::anyhow!("`query {command}`: {e}")
}

/// Library errors say what is wrong; this adds what to do about it: the
/// command that rebuilds a file with a missing table, `query verify` for a
/// damaged one, or, when a board of another size was given and neither
/// `--board` (`board_given`) nor `--db` was, that `NPUZZLE_DB` chose the
/// file, and so the size.
pub(crate) fn with_advice(
    e: anyhow::Error,
    location: &Location,
    db: &Database<Mmap>,
    board_given: bool,
) -> anyhow::Error {
    let (path, shape) = (&location.path, db.shape());
    let parse_error = e.chain().find_map(|c| c.downcast_ref::<ParseError>());
    let misfit = parse_error.is_some_and(ParseError::is_for_another_size);
    // Only a file the environment chose hides where the size came from:
    // `--db` was typed (a note there would lengthen every mistyped board's
    // message), and a default path is named for its board.
    if misfit && !board_given && location.origin == Origin::Env {
        return anyhow::anyhow!(
            "{e:#}; the board size, {shape}, is that of {} (from NPUZZLE_DB): for another \
             size, unset NPUZZLE_DB and give --board RxC, or pass --db with a database of that \
             size",
            shown_path(path),
        );
    }
    if location.origin != Origin::Given {
        if let Some(note) = other_size_note(&e, board_given, |_| true, give_board) {
            return anyhow::anyhow!("{e:#}; {note}");
        }
    }
    // A file typed with `--db` of another size than the tiles fit: that
    // file set the size (only where the tiles make a board of another,
    // one a database is built for).
    let buildable = |shape| npuzzle::tables::unbuildable(shape, db.metric()).is_none();
    let fits = match location.origin {
        Origin::Given => other_size_note(&e, board_given, buildable, |shape| {
            format!("pass --db a {shape} database")
        }),
        _ => None,
    };
    if let Some(note) = fits {
        return anyhow::anyhow!(
            "{e:#}; the board size, {shape}, is that of --db {}: {note}",
            shown_path(path)
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
        // The rebuild replaces the file: said how large it grows.
        (Some(AnswerError::MissingGoal { .. }), Some(patterns)) => anyhow::anyhow!(
            "{e:#}; rebuild it with a set for every goal (a file of about {} in place of this \
             one's {}): {} --all-goals",
            megabytes(patterns.all_goals_bytes()),
            megabytes(patterns.bytes().len() as u64),
            pattern_build_command(path, patterns, false)
        ),
        (Some(AnswerError::Corrupt { .. }), _) => anyhow::anyhow!(
            "{e:#}; run `query --db {} verify` to list the damage, then rebuild it with: {}",
            shell_path(path),
            rebuild_command(path, db)
        ),
        (Some(AnswerError::DamagedPatterns { .. }), Some(patterns)) => anyhow::anyhow!(
            "{e:#}; run `query --db {} verify` to list the damage, then rebuild it with: {}",
            shell_path(path),
            pattern_build_command(path, patterns, patterns.sets().len() > 1)
        ),
        // `verify` found damage: the file is rebuilt as it was built.
        (None, _) if e.downcast_ref::<info::Damaged>().is_some() => {
            anyhow::anyhow!("{e:#}; rebuild it with: {}", rebuild_command(path, db))
        }
        _ => e,
    }
}

/// Where no `--board` was given and the start's tiles fit another board
/// than the one read (a goal's count would name a board the start is not
/// on): which of those `served`, and how to `ask` for it.
pub(crate) fn other_size_note(
    e: &anyhow::Error,
    board_given: bool,
    served: impl Fn(Shape) -> bool,
    ask: impl Fn(Shape) -> String,
) -> Option<String> {
    let of_start = e
        .downcast_ref::<crate::BadBoard>()
        .is_none_or(|b| b.what == "start");
    if board_given || !of_start {
        return None;
    }
    let parse_error = e.chain().find_map(|c| c.downcast_ref::<ParseError>())?;
    parse_error.another_size_note(served, ask)
}

/// The advice to read the tiles as a `shape` board.
pub(crate) fn give_board(shape: Shape) -> String {
    format!("give --board {shape}")
}

/// The command that rebuilds `db` at `path` with the tables it holds.
fn rebuild_command(path: &Path, db: &Database<Mmap>) -> String {
    match (db.patterns(), db.complete()) {
        (Some(patterns), _) => pattern_build_command(path, patterns, patterns.sets().len() > 1),
        (None, Ok(tables)) => complete_build_command(path, tables),
        (None, Err(_)) => build_command(path, db.shape(), db.metric()),
    }
}

/// The command that rebuilds the complete tables `db` at `path`: the
/// default build, with `--blank` for each of its tables' goal blank cells
/// where they are not the default ones.
fn complete_build_command(path: &Path, db: &CompleteTables<Mmap>) -> String {
    let shape = db.shape();
    let mut cmd = build_command(path, shape, db.metric());
    let held = db.header().tables.iter().map(|t| usize::from(t.goal_blank));
    let mut blanks = npuzzle::tables::distinct_blanks(held);
    let mut default = npuzzle::tables::default_blanks(shape);
    blanks.sort_unstable();
    default.sort_unstable();
    if blanks != default {
        for blank in blanks {
            cmd.push_str(&format!(" --blank {}", npuzzle::Cell::of(shape, blank)));
        }
    }
    cmd
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
/// [`build_db_program`]; where it is missing, [`install_note`] says how to
/// install it, after the whole message).
pub(crate) fn build_command(path: &Path, shape: Shape, metric: Metric) -> String {
    let (program, _) = build_db_program();
    let mut cmd = format!("{program} --board {shape}");
    if metric != Metric::SingleTile {
        cmd.push_str(&format!(" --metric {metric}"));
    }
    if *path != npuzzle::files::default_output(shape, metric).path {
        cmd.push_str(&format!(" --out {}", shell_path(path)));
    }
    cmd
}

/// What a `message` that advises a `build-db` command adds where none is
/// installed beside this `query`: how to install it. It comes after the
/// whole message, so that the command, with the flags that follow its
/// board, stays in one piece to copy.
pub(crate) fn install_note(message: &str) -> &'static str {
    match message.contains("build-db --board") && build_db_program().1 {
        true => {
            " (build-db is not installed beside this query; install it from a checkout of \
             npuzzle with: cargo install --path build-db)"
        }
        false => "",
    }
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
        _ => (shell_path(&beside), false),
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
    let (origin, from) = (location.origin, location.origin.note());
    // The board to name in advice: only one that is known, never a guess. A
    // default path is the board's own (`data/RxC.db`).
    let named = match location.origin {
        Origin::WorkingDir | Origin::UserData => Some(shape),
        Origin::Given | Origin::Env => wanted,
    };
    let db = Database::open(path).map_err(|e| open_error(e, path, origin, named, metric))?;
    // A file named (--db, NPUZZLE_DB) for a --board whose default file it
    // is, holding another board: its name is wrong, not the naming, and the
    // advice is the rename. (Its metric is the file's unless --metric asks.)
    let misnamed_for_wanted = || {
        let default = locate_unnamed(shape, metric).path;
        wanted.is_some_and(|wanted| wanted != db.shape())
            && path.canonicalize().ok() == default.canonicalize().ok()
    };
    let found_by_name = matches!(location.origin, Origin::WorkingDir | Origin::UserData);
    if (found_by_name && (db.shape(), db.metric()) != (shape, metric)) || misnamed_for_wanted() {
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
            shown_path(path),
            db.shape(),
            db.metric().words(),
            build_command(path, shape, metric)
        );
    }
    if let Some(wanted) = wanted {
        if db.shape() != wanted {
            anyhow::bail!(
                "{}{from} holds {} boards, not {wanted} (--board); {}",
                shown_path(path),
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
            let advice = if let Some(why) = none_to_build(db.shape(), wanted) {
                format!("{why}; leave out --metric")
            } else if other.path.is_file() {
                let stop = stop_naming(location.origin);
                format!("pass --db {} (or {stop})", shell_path(&other.path))
            } else {
                format!(
                    "build one with: {}",
                    build_command(&other.path, db.shape(), wanted)
                )
            };
            anyhow::bail!(
                "{}{from} counts {} moves, not {} (--metric {wanted}); {advice}",
                shown_path(path),
                db.metric().words(),
                wanted.words(),
            );
        }
    }
    Ok(db)
}

/// How to reach a `wanted` database when the file found, from `origin`,
/// holds another board: the file `query` finds when no name is given (or
/// the command that builds it), and how to stop naming the other one.
fn other_board_advice(origin: Origin, wanted: Shape, metric: Metric) -> String {
    let unnamed = locate_unnamed(wanted, metric);
    let build = || build_command(&unnamed.path, wanted, metric);
    // Only a file named by --db or NPUZZLE_DB gets here: one found by its
    // name holds the board its name says.
    let stop = stop_naming(origin);
    if let Some(why) = none_to_build(wanted, metric) {
        return format!("{stop}: {why}");
    }
    if unnamed.path.is_file() {
        format!(
            "{stop} to use {}, or pass --db with a {wanted} database",
            shown_path(&unnamed.path)
        )
    } else {
        format!("{stop}, and build a {wanted} database with: {}", build())
    }
}

/// How to stop naming the file that `origin` (`--db` or `NPUZZLE_DB`)
/// named, so that the one named for the board is opened: wherever `--db`
/// is left out, NPUZZLE_DB's file is opened, whatever its board.
pub(crate) fn stop_naming(origin: Origin) -> &'static str {
    match origin {
        Origin::Env => "unset NPUZZLE_DB",
        _ if npuzzle::files::env_db().is_some() => "leave out --db and unset NPUZZLE_DB",
        _ => "leave out --db",
    }
}

/// Why no database can be built for `shape` in `metric`, and what answers
/// there without one; `None` where `build-db` builds one.
pub(crate) fn none_to_build(shape: Shape, metric: Metric) -> Option<String> {
    let why = npuzzle::tables::unbuildable(shape, metric)?;
    Some(match metric {
        Metric::SingleTile => format!(
            "{why}, and solutions within a factor of the shortest need none (query --board \
             {shape} solve --within 2 BOARD), nor does one position's heuristics (query --board \
             {shape} heuristics BOARD), nor random positions drawn uniformly, without \
             --distance (query --board {shape} random --count 10)"
        ),
        Metric::MultiTile => why,
    })
}

/// Why a file could not be opened as a database, with what to do about it.
fn open_error(
    e: OpenError,
    path: &Path,
    origin: Origin,
    named: Option<Shape>,
    metric: Metric,
) -> anyhow::Error {
    let from = origin.note();
    match e {
        OpenError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound => {
            match named.and_then(|shape| none_to_build(shape, metric)) {
                Some(why) => anyhow::anyhow!("no database at {}{from}; {why}", shown_path(path)),
                None => anyhow::anyhow!(
                    "no database at {}{from}; build it with: {}",
                    shown_path(path),
                    build_advice(path, named, metric)
                ),
            }
        }
        e @ (OpenError::NotAFile { .. } | OpenError::Unmappable { .. }) => {
            anyhow::anyhow!("{e}{from}")
        }
        OpenError::Format { problem, .. } => {
            let advice = match &problem {
                // Not ours at all: suggesting a rebuild there would overwrite the file.
                FormatError::Envelope(e) if e.is_foreign() => {
                    origin.foreign_file_advice("--db", &build_advice(path, named, metric))
                }
                FormatError::Envelope(e) if e.newer_version().is_some() => format!(
                    "it was written by a newer npuzzle; upgrade this one to read it (or rebuild \
                     it with: {})",
                    build_advice(path, named, metric)
                ),
                problem => format!(
                    "rebuild it with: {}{}",
                    build_advice(path, problem.readable_board().or(named), metric),
                    match problem.header_lost() {
                        true => " (with the --partition it was built with, if any)",
                        false => "",
                    }
                ),
            };
            anyhow::anyhow!(
                "{} is not a usable database{from}: {problem}; {advice}",
                shown_path(path)
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
