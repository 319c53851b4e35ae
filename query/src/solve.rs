//! `query solve` and `query distance`.

use crate::Outcome;
use anyhow::Result;
use memmap2::Mmap;
use npuzzle::analysis::{count_shortest, list_shortest};
use npuzzle::io::write_json;
use npuzzle::{move_string, Board, Database, LookupError, Move};
use std::io::Write;

/// Arguments of `query solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub(crate) pair: crate::PairArgs,
    /// One JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print the board after every move.
    #[arg(long, conflicts_with = "json")]
    pub(crate) boards: bool,
    /// Count every shortest solution, and list some of them (complete tables only).
    #[arg(long, conflicts_with = "boards")]
    pub(crate) all: bool,
    /// With --all: how many solutions to list.
    #[arg(long, default_value_t = 10, requires = "all", value_name = "N")]
    limit: usize,
    #[command(flatten)]
    pub(crate) timeout: crate::pattern::TimeoutArg,
}

/// Arguments of `query distance`.
#[derive(clap::Args)]
pub struct DistanceArgs {
    #[command(flatten)]
    pub(crate) pair: crate::PairArgs,
    /// One JSON object instead of the bare number.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) timeout: crate::pattern::TimeoutArg,
}

/// The boards and the answer for them: the moves, or why there are none.
struct Answer {
    start: Board,
    goal: Board,
    moves: Result<Vec<Move>, npuzzle::Unsolvable>,
}

fn answer(db: &Database<Mmap>, pair: &crate::PairArgs) -> Result<Answer> {
    let (start, goal) = pair.boards(db.shape())?;
    let moves = match db.solve(&start, &goal) {
        Ok(moves) => Ok(moves),
        Err(LookupError::Unsolvable(why)) => Err(why),
        Err(e) => return Err(e.into()),
    };
    Ok(Answer { start, goal, moves })
}

impl Answer {
    fn write_json(&self, out: &mut impl Write) -> Result<Outcome> {
        let mut line = Vec::new();
        write_json(&mut line, &self.start, &self.goal, self.moves.as_deref());
        line.push(b'\n');
        out.write_all(&line)?;
        Ok(self.outcome())
    }

    fn outcome(&self) -> Outcome {
        match self.moves {
            Ok(_) => Outcome::Success,
            Err(_) => Outcome::Unsolvable,
        }
    }
}

/// `query solve`.
pub fn solve(db: &Database<Mmap>, args: &SolveArgs, out: &mut impl Write) -> Result<Outcome> {
    let answer = answer(db, &args.pair)?;
    if args.all {
        return all_solutions(db, &answer, args.limit, args.json, out);
    }
    if args.json {
        return answer.write_json(out);
    }
    let moves = match &answer.moves {
        Ok(moves) => moves,
        Err(why) => {
            writeln!(out, "unsolvable: {why}")?;
            return Ok(Outcome::Unsolvable);
        }
    };
    write_text(&answer.start, &answer.goal, moves, args.boards, out)
}

/// A solution as `query solve` prints it: the move string, then each move
/// (with the board after it, when `boards`).
pub(crate) fn write_text(
    start: &Board,
    goal: &Board,
    moves: &[Move],
    boards: bool,
    out: &mut impl Write,
) -> Result<Outcome> {
    if moves.is_empty() {
        writeln!(out, "{start} is the goal: 0 moves")?;
        return Ok(Outcome::Success);
    }
    let plural = if moves.len() == 1 { "" } else { "s" };
    writeln!(out, "{start} -> {goal}: {} move{plural}", moves.len())?;
    writeln!(out, "{}", move_string(moves))?;
    writeln!(out)?;
    if boards {
        write!(out, "{}", start.grid())?;
    }
    let width = moves.len().to_string().len();
    let mut board = *start;
    for (i, &m) in moves.iter().enumerate() {
        let tile = board
            .tile_moved_by(m)
            .expect("a solution's moves stay on the board");
        writeln!(
            out,
            "{:>width$}. {}  tile {tile} slides {}",
            i + 1,
            m.letter(),
            m.tile_direction()
        )?;
        board = board.apply(m).expect("checked above");
        if boards {
            write!(out, "{}", board.grid())?;
        }
    }
    Ok(Outcome::Success)
}

/// `query distance`.
pub fn distance(db: &Database<Mmap>, args: &DistanceArgs, out: &mut impl Write) -> Result<Outcome> {
    let answer = answer(db, &args.pair)?;
    if args.json {
        return answer.write_json(out);
    }
    match &answer.moves {
        Ok(moves) => writeln!(out, "{}", moves.len())?,
        Err(why) => writeln!(out, "unsolvable: {why}")?,
    }
    Ok(answer.outcome())
}

/// `query solve --all`: the number of shortest solutions, by dynamic
/// programming over the table, and the first `limit` in alphabetical order.
fn all_solutions(
    db: &Database<Mmap>,
    answer: &Answer,
    limit: usize,
    json: bool,
    out: &mut impl Write,
) -> Result<Outcome> {
    if let Err(why) = &answer.moves {
        if json {
            return answer.write_json(out);
        }
        writeln!(out, "unsolvable: {why}")?;
        return Ok(Outcome::Unsolvable);
    }
    let target = db.goal_table(&answer.goal)?;
    let count = count_shortest(&target, &answer.start)?;
    let listed = list_shortest(&target, &answer.start, limit)?;
    let distance = answer.moves.as_ref().map_or(0, |m| m.len());
    if json {
        // `solve --json`'s object, in its order, and then the count and list.
        let mut line = Vec::new();
        write_json(
            &mut line,
            &answer.start,
            &answer.goal,
            answer.moves.as_deref(),
        );
        line.pop(); // its closing brace
        let listed: Vec<String> = listed.iter().map(|m| move_string(m)).collect();
        write!(
            line,
            ",\"solutions\":{count},\"listed\":{}}}",
            serde_json::to_string(&listed)?
        )?;
        line.push(b'\n');
        out.write_all(&line)?;
        return Ok(Outcome::Success);
    }
    let plural = if count == 1 { "" } else { "s" };
    writeln!(
        out,
        "{} -> {}: {distance} moves, {count} shortest solution{plural}",
        answer.start, answer.goal
    )?;
    for moves in &listed {
        writeln!(out, "{}", move_string(moves))?;
    }
    if count > listed.len() as u128 {
        writeln!(
            out,
            "… and {} more (--limit N lists more)",
            count - listed.len() as u128
        )?;
    }
    Ok(Outcome::Success)
}
