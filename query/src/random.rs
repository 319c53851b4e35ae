//! `query random`: positions of exact difficulty, and a printable worksheet
//! of them (`--worksheet`).

use crate::numbers::whole;
use crate::print::{print, Layout};
use crate::worksheet::{self, Part, Worksheet};
use crate::{GoalArg, Outcome, TableFormat};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{
    draw_fell_short, draw_stopped, parse_distances, DrawError, Sample, MAX_UNIFORM,
};
use npuzzle::pattern::Stopped;
use npuzzle::{Database, Metric, Shape};
use std::io::{self, Write};
use std::path::PathBuf;

/// Arguments of `query random`.
#[derive(clap::Args)]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text: {\"goal\", \"seed\", \"distances\": [from, to] (with \
     --distance), \"positions\": [{\"start\", \"distance\" (where complete tables know it)}]}"
)))]
pub struct RandomArgs {
    /// Moves from the goal: K, or a range A..=B (or A..B), drawn uniformly over all its positions
    /// on complete tables; on pattern databases (4x4, 5x5, …) each position is found by a random
    /// walk from the goal, solved and cut at K (exactly K moves away, not drawn uniformly; at most
    /// 1000). Without it, positions drawn uniformly from every one that reaches the goal, on any
    /// board, with or without a database.
    #[arg(long, value_name = "K", value_parser = parse_distances, allow_hyphen_values = true)]
    pub(crate) distance: Option<std::ops::RangeInclusive<u32>>,
    /// How many positions: distinct at a distance; drawn independently without --distance
    /// (at most 1000000).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = whole(1..=MAX_COUNT), allow_negative_numbers = true)]
    count: usize,
    /// Seed for a reproducible draw [default: a fresh random seed, shown on stderr, or in the JSON with --json].
    #[arg(long, value_name = "S", value_parser = whole(0..=u64::MAX), allow_negative_numbers = true)]
    seed: Option<u64>,
    #[command(flatten)]
    goal: GoalArg,
    #[command(flatten)]
    format: TableFormat,
    /// Also write a printable worksheet into FILE.html: the puzzles drawn as boards, and an
    /// answer key (each one's distance and one optimal solution) on a page of its own.
    #[arg(long, value_name = "FILE.html", value_parser = npuzzle::io::non_empty_path())]
    worksheet: Option<PathBuf>,
    /// With --worksheet: write the answer key into FILE.html instead, so that the worksheet
    /// holds the puzzles alone, to hand out.
    #[arg(long, value_name = "FILE.html", requires = "worksheet", value_parser = npuzzle::io::non_empty_path())]
    key: Option<PathBuf>,
    /// Give up on the draw after SECONDS of search (pattern databases with --distance; a
    /// complete table draws at once) [default: 60].
    #[arg(long, value_name = "SECONDS", value_parser = parse_draw_timeout, allow_hyphen_values = true)]
    timeout: Option<std::time::Duration>,
}

/// `--timeout`'s value, or why it is not one (the searches' rule; its
/// default here is [`DRAW_TIMEOUT`], not no limit).
fn parse_draw_timeout(text: &str) -> Result<std::time::Duration, String> {
    crate::search::parse_seconds(text, "leave --timeout out for the default of 60 s")
}

/// How long a draw on pattern databases searches without `--timeout`: far
/// more than a 4×4 draw takes (under a second for ten positions 60 moves
/// away), and a bound on what a distance no walk reaches costs.
const DRAW_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// The most positions one `query random` draws: past the largest table's
/// 239,500,800 positions, so the table, not this limit, says how many there are.
const MAX_COUNT: usize = u32::MAX as usize;

/// `query random` without `--distance`: positions drawn uniformly from
/// every one that reaches the goal, on any board `shape`; each with its
/// distance where `db` has complete tables toward the goal.
pub fn uniform(
    db: Option<&Database<Mmap>>,
    shape: Shape,
    args: &RandomArgs,
    out: &mut impl Write,
) -> Result<Outcome> {
    anyhow::ensure!(
        args.worksheet.is_none(),
        "a worksheet's puzzles are drawn at a distance, for its answer key: give --distance K"
    );
    anyhow::ensure!(
        args.count <= MAX_UNIFORM,
        "a draw without --distance holds at most {MAX_UNIFORM} positions, not {}: ask for \
         fewer with --count, or draw again with other seeds",
        args.count
    );
    let goal = args.goal.board(shape)?;
    let seed = args.seed.unwrap_or_else(npuzzle::analysis::fresh_seed);
    // The database's own refusal, which `query` adds its advice to.
    let report = Sample::uniform_for(db, &goal, args.count, seed).map_err(|e| match e {
        DrawError::Answer(e) => e.into(),
        e => anyhow::Error::from(e),
    })?;
    show(&report, args, out)
}

/// `query random` on a database: positions at the distances asked for
/// (drawn from complete tables, walked on pattern databases), or without
/// `--distance` drawn uniformly.
pub fn run(db: &Database<Mmap>, args: &RandomArgs, out: &mut impl Write) -> Result<Outcome> {
    let Some(distances) = args.distance.clone() else {
        return uniform(Some(db), db.shape(), args, out);
    };
    // A worksheet's size and file are checked before any work.
    let sheet = match &args.worksheet {
        Some(path) => {
            // Its answer key writes single-tile solutions.
            anyhow::ensure!(
                db.metric() == Metric::SingleTile,
                "a worksheet counts single-tile moves: draw it with --metric stm"
            );
            anyhow::ensure!(
                args.count <= worksheet::MAX_PUZZLES,
                "a worksheet holds at most {} puzzles, not {}: ask for fewer with --count",
                worksheet::MAX_PUZZLES,
                args.count
            );
            // The sheet's temporary file waits through the draw's searches:
            // Ctrl-C then must not leave it behind.
            npuzzle::io::remove_unfinished_on_signals();
            let sheet = worksheet::start(path, "worksheet")?;
            let key = match &args.key {
                Some(key_path) => {
                    let key = worksheet::start(key_path, "answer key")?;
                    anyhow::ensure!(
                        !sheet.same_file(&key),
                        "--key names the worksheet's own file, {}: give the answer key a file \
                         of its own",
                        npuzzle::files::shown_path(key_path)
                    );
                    Some(key)
                }
                None => None,
            };
            Some((sheet, key))
        }
        None => None,
    };
    let goal = args.goal.board(db.shape())?;
    let seed = args.seed.unwrap_or_else(npuzzle::analysis::fresh_seed);
    // One deadline for the walks' searches.
    let timeout = args.timeout.unwrap_or(DRAW_TIMEOUT);
    // Walks on pattern databases search, so they show their progress.
    let drawn = crate::search::with_progress(Some(timeout), false, "moves ≤", |options| {
        Sample::at_distance(db, &goal, distances, (args.count, seed), options)
    });
    let (report, solutions) = drawn.map_err(|e| match e {
        DrawError::TimedOut {
            stopped: why,
            found,
        } => {
            let again = (found.0.positions.len(), seed);
            stopped(&why, timeout, args.timeout.is_none(), again)
        }
        // An AnswerError as itself, for the advice `open` adds to it.
        DrawError::Answer(e) => e.into(),
        e @ DrawError::Walked(_) => anyhow::anyhow!(draw_fell_short(&e, |found| format!(
            "--count {found} --seed {seed}"
        ))),
        e => e.into(),
    })?;
    if let Some((file, key)) = sheet {
        let sheet = Worksheet::with_key(db, &report, solutions)?;
        match key {
            // The key first: a sheet handed out never lacks its key.
            Some(key) => sheet.write(vec![(key, Part::Key), (file, Part::Puzzles)])?,
            None => sheet.write(vec![(file, Part::Both)])?,
        }
    }
    show(&report, args, out)
}

/// `e`, a walk's search past the draw's `timeout` (`by_default`: no
/// `--timeout` was given), with what the search was for, and how to draw
/// again the positions found before it (how many, and the seed).
fn stopped(
    e: &Stopped,
    timeout: std::time::Duration,
    by_default: bool,
    (found, seed): (usize, u64),
) -> anyhow::Error {
    let limit = match by_default {
        true => format!(
            "the draw's default limit of {} s; --timeout sets another",
            timeout.as_secs_f64()
        ),
        false => format!("--timeout {} s", timeout.as_secs_f64()),
    };
    let again = format!("--count {found} --seed {seed}");
    anyhow::anyhow!(draw_stopped(e, &limit, found, &again))
}

/// Prints `report`, and a seed drawn afresh on stderr.
fn show(report: &Sample, args: &RandomArgs, out: &mut impl Write) -> Result<Outcome> {
    let format = args.format.format();
    print(report, format, out)?;
    if args.seed.is_none() && format != crate::print::Format::Json {
        // The JSON holds the seed; text and CSV have no room for it.
        let seed = report.seed;
        npuzzle::eprintln_or_drop!("seed {seed} (--seed {seed} draws these positions again)");
    }
    Ok(Outcome::Success)
}

impl Layout for Sample {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut text = Vec::with_capacity(self.positions.len() * 12);
        for p in &self.positions {
            p.start.write_to(&mut text);
            text.push(b'\n');
        }
        out.write_all(&text)
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "start,distance")?;
        for p in &self.positions {
            match p.distance {
                Some(d) => writeln!(out, "{},{d}", p.start)?,
                None => writeln!(out, "{},", p.start)?,
            }
        }
        Ok(())
    }
}
