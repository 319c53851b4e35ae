//! `query random`: positions of exact difficulty, and a printable worksheet
//! of them (`--worksheet`).

use crate::numbers::whole;
use crate::print::{print, Layout};
use crate::worksheet::{self, Worksheet};
use crate::{GoalArg, Outcome, TableFormat};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{parse_distances, Sample, MAX_UNIFORM};
use npuzzle::{CompleteTables, Database, Metric, Shape};
use std::io::{self, Write};
use std::path::PathBuf;

/// Arguments of `query random`.
#[derive(clap::Args)]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text: {\"goal\", \"seed\", \"distances\": [from, to] (with \
     --distance), \"positions\": [{\"start\", \"distance\" (where complete tables know it)}]}"
)))]
pub struct RandomArgs {
    /// Moves from the goal: K, or a range A..=B (or A..B) drawn uniformly over all its positions
    /// (complete tables). Without it, positions drawn uniformly from every one that reaches the
    /// goal, on any board, with or without a database.
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
    #[arg(long, value_name = "FILE.html")]
    worksheet: Option<PathBuf>,
}

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
    if let Some(db) = db {
        // A goal the file cannot answer is refused, as every command
        // refuses it: its puzzles could not be solved from the file.
        db.check_goal(&goal)?;
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut report = Sample::uniform(&goal, args.count, seed);
    // Complete tables give the distances; pattern tables have none.
    if let Some(tables) = db.and_then(|db| db.complete().ok()) {
        report = report.with_distances(&tables.goal_table(&goal)?)?;
    }
    show(&report, args, out)
}

/// `query random` on a database: positions at the distances asked for
/// (complete tables), or without `--distance` drawn uniformly.
pub fn run(db: &Database<Mmap>, args: &RandomArgs, out: &mut impl Write) -> Result<Outcome> {
    match &args.distance {
        None => uniform(Some(db), db.shape(), args, out),
        Some(distances) => {
            let tables = crate::complete(db, "random --distance")?;
            at_distances(tables, distances.clone(), args, out)
        }
    }
}

/// `query random --distance`: positions drawn from those at `distances`.
fn at_distances(
    db: &CompleteTables<Mmap>,
    distances: std::ops::RangeInclusive<u32>,
    args: &RandomArgs,
    out: &mut impl Write,
) -> Result<Outcome> {
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
            Some(worksheet::start(path)?)
        }
        None => None,
    };
    let goal = args.goal.board(db.shape())?;
    let target = db.goal_table(&goal)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let report = Sample::draw(&target, distances, args.count, seed)?;
    if let Some(file) = sheet {
        Worksheet::solve(db, &report)?.write(file)?;
    }
    show(&report, args, out)
}

/// Prints `report`, and a seed drawn afresh on stderr.
fn show(report: &Sample, args: &RandomArgs, out: &mut impl Write) -> Result<Outcome> {
    let format = args.format.format();
    print(report, format, out)?;
    if args.seed.is_none() && format != crate::print::Format::Json {
        // The JSON holds the seed; text and CSV have no room for it.
        let seed = report.seed;
        eprintln!("seed {seed} (--seed {seed} draws these positions again)");
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
