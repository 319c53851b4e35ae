//! `query batch`: one answer per line of stdin, in input order.

use crate::{GoalArg, Outcome};
use anyhow::{Context, Result};
use memmap2::Mmap;
use npuzzle::bounded::{Weight, WithinBatch};
use npuzzle::io::{check_threads, run_batch, BatchFormat, ThreadsError};
use npuzzle::{Database, Shape};
use std::io::Write;

/// Arguments of `query batch` (the line format is in `Command::Batch`).
#[derive(clap::Args)]
#[command(mut_arg("goal", |a| a.help(
    "The goal of lines that give none [default: tiles in order, blank last]. Quote a goal \
     written with spaces"
)))]
pub struct BatchArgs {
    #[command(flatten)]
    pub(crate) goal: GoalArg,
    /// jsonl: one JSON object per line; csv: start,goal,solvable,distance,moves,reason,error
    /// (a line that cannot be answered is echoed in start; a pattern database's searches add
    /// nodes,nodes_expanded,lower_bound); moves: the move string alone (`-` when
    /// unsolvable).
    #[arg(long, value_enum, default_value_t = FormatArg::Jsonl, conflicts_with_all = ["json", "csv"])]
    format: FormatArg,
    /// The same as --format jsonl.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// The same as --format csv.
    #[arg(long)]
    csv: bool,
    /// Threads to spread the work over, at most 4 per core [default: one per core]; with
    /// --within, at most one per core runs (each search may hold 2.5 GB).
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    threads: Option<Threads>,
    /// Answers at most W times as long as the shortest (W from 1 to 100), each with a
    /// lower bound on the shortest that proves it, as `solve --within`: any board up to
    /// 6x6, with or without a database file. JSON lines add length, lower_bound, within
    /// and heuristic; CSV adds the columns length, lower_bound, nodes and nodes_expanded;
    /// distance is given only
    /// where the bound proves the answer shortest.
    #[arg(long, value_name = "W", value_parser = str::parse::<Weight>, allow_hyphen_values = true)]
    pub(crate) within: Option<Weight>,
    #[command(flatten)]
    pub(crate) timeout: crate::search::TimeoutArg,
}

/// `--threads` as given: the count (one past `u64` taken as `u64::MAX`, as
/// far past the limit), and the digits typed, for the message.
#[derive(Clone, Debug)]
pub(crate) struct Threads {
    count: u64,
    typed: String,
}

/// `--threads`: a whole number above 0. The limit per core is checked with
/// the other arguments, for any number however large.
pub(crate) fn parse_threads(text: &str) -> Result<Threads, String> {
    let text = text.trim();
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not a whole number of threads (for example 2)".to_string());
    }
    if digits.len() < text.len() {
        return Err(format!("a negative number; {}", ThreadsError::None));
    }
    let typed = npuzzle::rules::excerpt(digits, 40).to_string();
    match digits.parse::<u64>() {
        Ok(0) => Err(ThreadsError::None.to_string()),
        Ok(count) => Ok(Threads { count, typed }),
        Err(_) => Ok(Threads {
            count: u64::MAX,
            typed,
        }),
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Jsonl,
    Csv,
    Moves,
}

impl From<FormatArg> for BatchFormat {
    fn from(f: FormatArg) -> BatchFormat {
        match f {
            FormatArg::Jsonl => BatchFormat::Jsonl,
            FormatArg::Csv => BatchFormat::Csv,
            FormatArg::Moves => BatchFormat::Moves,
        }
    }
}

/// `query batch`: bad lines get an error answer and the batch goes on; the
/// exit code is 2 if any line was bad.
pub fn run(
    db: &Database<Mmap>,
    args: &BatchArgs,
    advise: &dyn Fn(anyhow::Error) -> anyhow::Error,
    out: &mut (impl Write + Send),
) -> Result<Outcome> {
    let goal = args.goal.board(db.shape())?;
    let (threads, format) = args.threads_and_format()?;
    // A goal no table serves fails every line that gives none: said once,
    // with the fix, and the lines that give their own are still answered.
    if let Err(e) = db.check_goal(&goal) {
        let said = format!("{:#}", advise(e.into()));
        npuzzle::eprintln_or_drop!(
            "query: {said}; lines that give no goal of their own get this as their error{}",
            crate::open::install_note(&said)
        );
    }
    let timeout = args.timeout.timeout;
    let input = crate::stdio::stdin();
    let summary =
        run_batch(db, &goal, format, threads, timeout, input, out).context("batch stopped")?;
    Ok(report(summary))
}

/// `query batch --within W`, guided by `db`'s pattern tables where it has
/// them (`db` is `None` where no file was found, and none is needed).
pub fn run_within(
    db: Option<&Database<Mmap>>,
    shape: Shape,
    args: &BatchArgs,
    weight: Weight,
    out: &mut (impl Write + Send),
) -> Result<Outcome> {
    let goal = args.goal.board(shape)?;
    let (threads, format) = args.threads_and_format()?;
    let batch = WithinBatch {
        db,
        shape,
        goal,
        weight,
        timeout: args.timeout.timeout,
    };
    let input = crate::stdio::stdin();
    let summary = batch
        .run(format, threads, input, out)
        .context("batch stopped")?;
    Ok(report(summary))
}

/// The threads asked for, checked against the cores, or one a core.
pub(crate) fn threads_or_cores(asked: Option<&Threads>) -> Result<usize> {
    Ok(match asked {
        Some(Threads { count, typed }) => {
            check_threads(*count).map_err(|e| anyhow::anyhow!("--threads {typed} is {e}"))?
        }
        None => npuzzle::io::cores(),
    })
}

impl BatchArgs {
    /// The threads asked for (checked against the cores) and the format.
    pub(crate) fn threads_and_format(&self) -> Result<(usize, BatchFormat)> {
        let threads = threads_or_cores(self.threads.as_ref())?;
        let format = if self.json {
            BatchFormat::Jsonl
        } else if self.csv {
            BatchFormat::Csv
        } else {
            self.format.into()
        };
        Ok((threads, format))
    }
}

/// Exit 2, with a message, when some lines could not be answered.
pub(crate) fn report(summary: npuzzle::io::BatchSummary) -> Outcome {
    if summary.errors > 0 {
        let lines = if summary.lines == 1 { "line" } else { "lines" };
        npuzzle::eprintln_or_drop!(
            "query: {} of {} {lines} could not be answered (each one's record says why)",
            summary.errors,
            summary.lines
        );
        return Outcome::BadInput;
    }
    Outcome::Success
}
