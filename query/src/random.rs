//! `query random`: positions of exact difficulty.

use crate::{GoalArg, Outcome, TableFormat};
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{parse_distances, sample};
use npuzzle::{Board, CompleteTables, GoalTable};
use rand::{rngs::StdRng, SeedableRng};
use std::io::Write;
use std::ops::RangeInclusive;

/// Arguments of `query random`.
#[derive(clap::Args)]
pub struct RandomArgs {
    /// Moves from the goal: K, or a range A..=B (or A..B) drawn uniformly over all its positions.
    #[arg(long, value_name = "K", value_parser = parse_distances, allow_hyphen_values = true)]
    distance: std::ops::RangeInclusive<u32>,
    /// How many distinct positions.
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: usize,
    /// Seed for a reproducible draw [default: a fresh random seed, shown with --json].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    #[command(flatten)]
    goal: GoalArg,
    #[command(flatten)]
    format: TableFormat,
}

/// `query random`.
pub fn run(db: &CompleteTables<Mmap>, args: &RandomArgs, out: &mut impl Write) -> Result<Outcome> {
    let goal = args.goal.board(db.shape())?;
    let target = db.goal_table(&goal)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut rng = StdRng::seed_from_u64(seed);
    let positions = sample(&target, args.distance.clone(), args.count, &mut rng)?;
    if args.format.json {
        writeln!(out, "{}", json(&target, seed, &args.distance, &positions))?;
    } else if args.format.csv {
        writeln!(out, "start,distance")?;
        for p in &positions {
            let distance = target
                .distance(p)
                .expect("sampled positions reach the goal");
            writeln!(out, "{p},{distance}")?;
        }
    } else {
        let mut text = Vec::with_capacity(positions.len() * 12);
        for p in &positions {
            p.write_to(&mut text);
            text.push(b'\n');
        }
        out.write_all(&text)?;
    }
    Ok(Outcome::Success)
}

/// The object `random --json` prints (and `query serve` answers): the
/// positions drawn toward `target`'s goal, with the seed that draws them again.
pub fn json(
    target: &GoalTable<'_>,
    seed: u64,
    distances: &RangeInclusive<u32>,
    positions: &[Board],
) -> serde_json::Value {
    let positions: Vec<_> = positions
        .iter()
        .map(|p| {
            let distance = target
                .distance(p)
                .expect("sampled positions reach the goal");
            serde_json::json!({ "start": p.to_string(), "distance": distance })
        })
        .collect();
    serde_json::json!({
        "goal": target.goal().to_string(),
        "seed": seed,
        "distances": [distances.start(), distances.end()],
        "positions": positions,
    })
}
