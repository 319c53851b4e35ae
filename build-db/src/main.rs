//! `build-db`: builds a database of every position for a board, one table
//! per chosen goal blank cell, or (on boards past 12 cells, or with
//! `--partition`) a pattern database, and writes it atomically.

// Unsafe code belongs to the library's memory mapping alone.
#![forbid(unsafe_code)]

use anyhow::{bail, Context};
use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle::files::shown_path;
use npuzzle::io::ARGUMENT_ECHO_LIMIT;
use npuzzle::pattern::Partition;
use npuzzle::{
    build, files::default_output, files::user_data_path, parse_board, rules::excerpt,
    rules::MAX_TABLE_CELLS, tables::all_goals, tables::default_blanks, tables::default_paths,
    tables::distinct_blanks, tables::BuildProgress, tables::Built, tables::PATHS_MAX_CELLS,
    BuildError, Cell, Metric, Plan, Shape,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Builds an npuzzle database by reverse breadth-first search from each chosen goal.
///
/// By default: tables that answer every goal on boards of up to 10 cells
/// (one per class of blank cells under the board's reflections and
/// rotations), and the default goal's table (tiles in order, blank last) on
/// 12-cell boards (no board has 11). Boards of up to 9 cells also get path
/// tables, which hold each position's whole solution so that `query`
/// solves with one lookup.
///
/// Boards of 13 to 25 cells (4x4, 3x5, 5x3, 4x5, 5x4, 5x5 …) get pattern databases
/// instead: tables of a few tiles each, whose sum bounds the distance from
/// below, for `query` to solve with IDA*. `--partition` chooses the tiles.
///
/// `--metric mtm` counts a slide of 1 to k tiles in a line as one move
/// (boards of up to 12 cells, written to data/RxC-mtm.db, without path
/// tables).
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Board size, rows x columns: 2x2 to 3x4, 4x3, 2x6 and 6x2 for complete tables;
    /// 4x4, 3x5, 5x3, 4x5, 5x4 and 5x5 for pattern databases.
    #[arg(long, default_value = "3x3", value_name = "RxC", value_parser = str::parse::<Shape>, allow_hyphen_values = true)]
    board: Shape,
    /// Build a pattern database with these tile groups instead of complete tables:
    /// 7-8 or 6-6-3 on 4x4, 7-7 or 6-6-2 on 3x5 and 5x3, 6-6-7 or 5-5-5-4 on 4x5 and 5x4,
    /// 6-6-6-6 or 4-4-4-4-4-4 on 5x5, 6-5 on 3x4 and 4x3, 4-4 on 3x3
    /// [default on 4x4: 7-8; on 3x5 and 5x3: 7-7; on 4x5 and 5x4: 6-6-7; on 5x5: 6-6-6-6].
    #[arg(long, value_name = "NAME", conflicts_with_all = ["goal", "blank", "every_blank", "paths", "no_paths"])]
    partition: Option<String>,
    /// How moves are counted: stm (one tile per move) or mtm (a slide of 1 to k tiles in a
    /// line is one move; boards of up to 12 cells).
    #[arg(long, default_value = "stm", value_name = "METRIC", value_parser = str::parse::<Metric>)]
    metric: Metric,
    /// Where to write the database (missing folders are made; a symbolic link is followed)
    /// [default: data/RxC.db (data/RxC-mtm.db for mtm) inside a checkout of npuzzle, else
    /// the per-user data folder].
    #[arg(long, value_name = "PATH", value_parser = npuzzle::io::non_empty_path())]
    out: Option<PathBuf>,
    /// Write to the per-user data folder ($XDG_DATA_HOME/npuzzle or the platform's
    /// equivalent), where `query` looks from any folder.
    #[arg(long, conflicts_with = "out")]
    user: bool,
    /// Build the table for this goal's blank cell (repeatable).
    #[arg(long, value_name = "BOARD", conflicts_with_all = ["all_goals", "every_blank"])]
    goal: Vec<String>,
    /// Build the table for goals with the blank in this cell, 1-based (repeatable).
    #[arg(long, value_name = "ROW,COL", conflicts_with_all = ["all_goals", "every_blank"])]
    blank: Vec<String>,
    /// Build the tables that answer every goal: one per class of blank cells (for a
    /// pattern database, one set of tables per class).
    #[arg(long, conflicts_with = "every_blank")]
    all_goals: bool,
    /// Build a table for every blank cell, so no goal needs a reflection.
    #[arg(long)]
    every_blank: bool,
    /// Add path tables (8 bytes per position) on boards of up to 10 cells
    /// [default: on boards of up to 9 cells].
    #[arg(long, conflicts_with = "no_paths")]
    paths: bool,
    /// Leave the path tables out: solving then follows the table move by move.
    #[arg(long)]
    no_paths: bool,
    /// No progress bar (it is also off when stderr is not a terminal).
    #[arg(long, short)]
    quiet: bool,
}

fn main() -> ExitCode {
    npuzzle::io::file_size_limit_as_error();
    npuzzle::io::remove_unfinished_on_signals();
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            return npuzzle::io::report_usage_error(
                &e,
                "build-db",
                &<Args as clap::CommandFactory>::command(),
            )
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            npuzzle::eprintln_or_drop!("build-db: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> anyhow::Result<()> {
    let shape = args.board;
    let complete_options = !args.goal.is_empty()
        || !args.blank.is_empty()
        || args.every_blank
        || args.paths
        || args.no_paths;
    if shape.cells() > MAX_TABLE_CELLS && complete_options {
        let why = shape
            .check_complete_tables()
            .expect_err("past the table limit");
        bail!(
            "{why}. --goal, --blank, --every-blank and the path-table options are for \
             complete tables; without them, build-db builds a pattern database for this board \
             (--all-goals: one set of tables per class of goal blank cells)"
        );
    }
    if let Err(e) = args.metric.check_tables(shape) {
        bail!("--metric {}: {e}; leave out --metric", args.metric);
    }
    if let (Some(partition), Metric::MultiTile) = (&args.partition, args.metric) {
        bail!(
            "--partition {partition} builds a pattern database, which npuzzle builds in \
             single-tile moves only; leave out --metric mtm"
        );
    }
    if args.partition.is_some() || shape.cells() > MAX_TABLE_CELLS {
        return run_patterns(args);
    }
    let paths = chosen_paths(args)?;
    let plan = Plan::Complete {
        shape,
        blanks: chosen_blanks(args)?,
        metric: args.metric,
        paths,
    };
    let path = output_path(args)?;
    let started = Instant::now();
    let built = run_build(&path, &plan, args.quiet)?;
    let total = started.elapsed();

    let cells: Vec<String> = built
        .goal_blanks
        .iter()
        .map(|&b| cell_name(shape, b))
        .collect();
    say(format_args!(
        "built {}: {shape} board, {} {}table{} (blank at {}){}, {}, max distance {}, \
         {:.1} ms ({:.1} ms searching), {} bytes",
        shown_path(&path),
        built.goal_blanks.len(),
        match args.metric {
            Metric::SingleTile => "",
            Metric::MultiTile => "multi-tile ",
        },
        if built.goal_blanks.len() == 1 {
            ""
        } else {
            "s"
        },
        cells.join(" "),
        if paths { " with path tables" } else { "" },
        // Each table holds every position toward its goal: the state
        // space's size, not the sum, is what a reader looks for.
        match built.goal_blanks.len() {
            1 => format!("{} positions", built.entries),
            n => format!(
                "{} positions in each table ({} in all)",
                built.entries / n as u64,
                built.entries
            ),
        },
        built.max_distance(),
        total.as_secs_f64() * 1e3,
        built.searching.as_secs_f64() * 1e3,
        built.bytes,
    ))
}

/// `build-db` for a pattern database: the partition asked for, or the
/// board's default.
fn run_patterns(args: &Args) -> anyhow::Result<()> {
    let shape = args.board;
    let partition = match &args.partition {
        Some(name) => Partition::named(shape, name).context("--partition")?,
        None => Partition::default_for(shape).with_context(|| {
            let why = npuzzle::tables::unbuildable(shape, npuzzle::Metric::SingleTile)
                .unwrap_or_else(|| format!("a {shape} board has no pattern database partition"));
            format!(
                "{why}. Any board up to 6x6 is solved within a factor of the shortest with no \
                 file: query --board {shape} solve --within 2 BOARD"
            )
        })?,
    };
    let name = partition.name();
    let path = output_path(args)?;
    // The default goal's set (blank last) first.
    let blanks = if args.all_goals {
        all_goals(shape)
    } else {
        vec![shape.cells() - 1]
    };
    let plan = Plan::Patterns {
        partition: partition.clone(),
        goal_blanks: blanks.clone(),
    };
    let started = Instant::now();
    let built = run_build(&path, &plan, args.quiet)?;
    let total = started.elapsed();
    let sizes: Vec<String> = partition
        .patterns()
        .iter()
        .map(|p| p.len().to_string())
        .collect();
    let maxima: Vec<String> = built.max_distances.iter().map(u8::to_string).collect();
    let cells: Vec<String> = blanks.iter().map(|&b| cell_name(shape, b)).collect();
    say(format_args!(
        "built {}: {shape} board, pattern database {name} (patterns of {} tiles, {} table{}{}), {} \
         (goal blank at {}), {} placements searched, largest entries {}, {:.1} s ({:.1} s searching), {} \
         bytes",
        shown_path(&path),
        sizes.join(", "),
        built.max_distances.len(),
        if built.max_distances.len() == 1 {
            ""
        } else {
            "s"
        },
        match built.repeated {
            0 => String::new(),
            n => format!(", {n} the same as an earlier set's and stored once"),
        },
        if blanks.len() == 1 {
            "1 set".to_string()
        } else {
            format!("{} sets", blanks.len())
        },
        cells.join(" "),
        built.entries,
        maxima.join(", "),
        total.as_secs_f64(),
        built.searching.as_secs_f64(),
        built.bytes,
    ))
}

/// Prints the build's summary. A closed standard output (`build-db … |
/// head -0`) loses the line, not the build: the file is already in place.
/// Any other failure (a full disk) is said, as `query` says it.
fn say(summary: std::fmt::Arguments) -> anyhow::Result<()> {
    match writeln!(std::io::stdout(), "{summary}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(anyhow::anyhow!(
            "the database is built, but its summary could not be written: cannot write to \
             standard output: {e}"
        )),
        _ => Ok(()),
    }
}

/// Where to write: `--out`, the per-user data folder (`--user`), or the
/// default place for the board.
fn output_path(args: &Args) -> anyhow::Result<PathBuf> {
    Ok(match &args.out {
        // `-` means standard output to most tools; a database is a file
        // that is checked, renamed into place and memory-mapped.
        Some(p) if p.as_os_str() == "-" => bail!(
            "--out -: a database is written to a file, not to standard output; \
             name a file (./- for one called -)"
        ),
        Some(p) => p.clone(),
        None if args.user => user_data_path(args.board, args.metric)
            .context("--user: this system has no home folder to hold a per-user data folder")?,
        None => default_output(args.board, args.metric).path,
    })
}

/// Builds `plan` at `path` with a progress bar, cleared before any error
/// is printed, too.
fn run_build(path: &std::path::Path, plan: &Plan, quiet: bool) -> anyhow::Result<Built> {
    let (stage, what) = match plan {
        Plan::Complete { .. } => ("depth", "positions"),
        Plan::Patterns { .. } => ("cost", "placements"),
    };
    let progress = Progress::new(plan.entries(), plan.tables(), quiet);
    let built = build(path, plan, &|table, p| progress.step(table, stage, p, what));
    progress.bar.finish_and_clear();
    Ok(built?)
}

/// The goal blank cells asked for, in the order asked, without repeats.
fn chosen_blanks(args: &Args) -> anyhow::Result<Vec<usize>> {
    let shape = args.board;
    if args.every_blank {
        return Ok((0..shape.cells()).collect());
    }
    if args.all_goals {
        return Ok(all_goals(shape));
    }
    let mut blanks = Vec::new();
    for goal in &args.goal {
        let board = parse_board(goal, shape)
            .with_context(|| format!("--goal {:?}", excerpt(goal, ARGUMENT_ECHO_LIMIT)))?;
        blanks.push(board.blank());
    }
    for cell in &args.blank {
        blanks.push(parse_cell(cell, shape)?);
    }
    if blanks.is_empty() {
        return Ok(default_blanks(shape));
    }
    Ok(distinct_blanks(blanks))
}

/// Whether to add path tables: as asked, or by the board's default.
fn chosen_paths(args: &Args) -> anyhow::Result<bool> {
    let shape = args.board;
    // The library's refusals, checked before any table is searched.
    if args.paths && shape.cells() > PATHS_MAX_CELLS {
        bail!("--paths: {}", BuildError::PathsTooLarge { shape });
    }
    if args.paths && args.metric != Metric::SingleTile {
        bail!("--paths: {}", BuildError::MultiTilePaths);
    }
    Ok(args.paths || (default_paths(shape, args.metric) && !args.no_paths))
}

/// A cell written `ROW,COL`, both counted from 1.
fn parse_cell(text: &str, shape: Shape) -> anyhow::Result<usize> {
    let parsed = text.split_once(',').and_then(|(r, c)| {
        Some((
            r.trim().parse::<usize>().ok()?,
            c.trim().parse::<usize>().ok()?,
        ))
    });
    let text = excerpt(text, ARGUMENT_ECHO_LIMIT);
    let Some((row, col)) = parsed else {
        bail!("--blank {text:?} is not a cell: write ROW,COL, counted from 1 (for example 1,1)");
    };
    if !(1..=shape.rows()).contains(&row) || !(1..=shape.cols()).contains(&col) {
        bail!(
            "--blank {text:?} is off the board: a {shape} board has rows 1 to {} and columns 1 to {}",
            shape.rows(),
            shape.cols()
        );
    }
    Ok((row - 1) * shape.cols() + col - 1)
}

fn cell_name(shape: Shape, cell: usize) -> String {
    Cell::of(shape, cell).to_string()
}

/// The progress bar: hidden for the first second (most builds are over by
/// then), when asked, and when stderr is not a terminal.
struct Progress {
    bar: ProgressBar,
    tables: usize,
    started: Instant,
    quiet: bool,
}

impl Progress {
    fn new(total: u64, tables: usize, quiet: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:20}] {msg}, {eta} left")
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        Progress {
            bar,
            tables,
            started: Instant::now(),
            quiet,
        }
    }

    /// Table `table` finished one distance (a depth of complete tables, a
    /// cost of pattern tables).
    fn step(&self, table: usize, stage: &str, progress: BuildProgress, what: &str) {
        let (at, found) = (progress.distance, progress.found);
        if !self.quiet && self.bar.is_hidden() && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.inc(found);
        let millions = |n: u64| n as f64 / 1e6;
        let found = self.bar.position();
        self.bar
            .set_prefix(format!("table {}/{}, {stage} {at}", table + 1, self.tables));
        self.bar.set_message(format!(
            "{:.1} of {:.1} M {what}, {:.1} M/s",
            millions(found),
            millions(self.bar.length().unwrap_or(found)),
            millions(found) / self.started.elapsed().as_secs_f64()
        ));
    }
}
