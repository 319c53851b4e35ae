//! `query solvable`: the inversion-parity test for a start and a goal,
//! either verdict explained with the numbers it rests on. It needs no
//! database: the test is arithmetic, on any board up to 6x6.

use crate::print::{print, Format, Layout};
use crate::{Outcome, PairArgs};
use anyhow::Result;
use npuzzle::rules::solvability::Parity;
use npuzzle::{Board, Shape};
use serde::Serialize;
use std::io::{self, Write};

/// Arguments of `query solvable`.
#[derive(clap::Args)]
#[command(mut_arg("json", |a| a.help(
    "One JSON object instead of text: {\"start\", \"goal\", \"solvable\", \"reason\", \
     \"inversions\" (the start's, its tiles numbered by their places in the goal), \
     \"start_inversions\" and \"goal_inversions\" (each counted in tile order), \
     \"blank_row\" and \"goal_blank_row\" (from 1 at the top)}"
)))]
pub struct SolvableArgs {
    #[command(flatten)]
    pair: PairArgs,
    #[arg(long)]
    json: bool,
}

/// The verdict and its reasons.
#[derive(Serialize)]
struct Report {
    #[serde(serialize_with = "as_text")]
    start: Board,
    #[serde(serialize_with = "as_text")]
    goal: Board,
    solvable: bool,
    /// Why, in words, either way.
    reason: String,
    inversions: u32,
    start_inversions: u32,
    goal_inversions: u32,
    blank_row: usize,
    goal_blank_row: usize,
}

fn as_text<S: serde::Serializer>(board: &Board, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(board)
}

/// `query solvable`: exit 0 when the start can reach the goal, 1 when it
/// cannot, 2 for a board that cannot be read.
pub fn run(shape: Shape, args: &SolvableArgs, out: &mut impl Write) -> Result<Outcome> {
    let (start, goal) = args.pair.boards(shape)?;
    let parity = Parity::of(&start, &goal);
    let (start_inversions, goal_inversions) = parity.tile_order_inversions();
    let (blank_row, goal_blank_row) = parity.blank_rows();
    let report = Report {
        start,
        goal,
        solvable: parity.solvable(),
        reason: parity.to_string(),
        inversions: parity.inversions(),
        start_inversions,
        goal_inversions,
        blank_row,
        goal_blank_row,
    };
    print(&report, Format::json_or_text(args.json), out)?;
    Ok(match report.solvable {
        true => Outcome::Success,
        false => Outcome::No,
    })
}

impl Layout for Report {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let verdict = match self.solvable {
            true => "solvable",
            false => "not solvable",
        };
        writeln!(out, "{} -> {}: {verdict}", self.start, self.goal)?;
        writeln!(out, "{}", self.reason)
    }
}
