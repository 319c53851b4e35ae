//! What every command that searches shares: `--timeout`, the bound shown
//! on a terminal during a long search, and the advice when a search for a
//! distance stops at its limit.

use npuzzle::io::{check_timeout, TimedOut, TimeoutError};
use npuzzle::pattern::{BoundReport, SolveOptions, Stopped};
use npuzzle::{AnswerError, Board, Shape};
use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

/// `--timeout`, as the commands that search take it.
#[derive(clap::Args)]
pub struct TimeoutArg {
    /// Give up on a position after SECONDS of search (pattern databases, and searches with
    /// no file; a complete table answers at once) [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout, allow_hyphen_values = true)]
    pub(crate) timeout: Option<Duration>,
}

/// `--timeout`'s value, or why it is not one (clap shows the value itself).
fn parse_timeout(text: &str) -> Result<Duration, String> {
    parse_seconds(text, "leave --timeout out to search without a limit")
}

/// A timeout in seconds, or why it is not one ([`check_timeout`]'s rule);
/// `no_limit` says what to do instead of a value at 0 or past the limit
/// (`serve` has no unlimited searches, so it words that otherwise).
pub(crate) fn parse_seconds(text: &str, no_limit: &str) -> Result<Duration, String> {
    const EXAMPLE: &str = "for example 10 or 0.5";
    let Ok(mut seconds) = text.trim().parse::<f64>() else {
        return Err(format!("not a number of seconds ({EXAMPLE})"));
    };
    // A long enough run of digits parses as infinity too; only a value
    // that says so is called infinite.
    if seconds == f64::INFINITY && !text.to_ascii_lowercase().contains("inf") {
        seconds = f64::MAX;
    }
    check_timeout(seconds).map_err(|e| match e {
        TimeoutError::NaN | TimeoutError::BelowNanosecond => format!("{e} ({EXAMPLE})"),
        e => e.advising(no_limit),
    })
}

/// `e`, and where it is a search for a distance stopped at `--timeout`
/// (`need` says what needed it, as "grading needs …, and a search for one
/// stopped"), what may answer sooner: more time, or complete tables, or
/// where the search had no file (`with_file` false) pattern databases (a
/// bounded search gives no distance).
pub(crate) fn distance_stopped(
    (shape, with_file): (Shape, bool),
    e: AnswerError,
    timeout: Option<Duration>,
    need: &str,
) -> anyhow::Error {
    if !matches!(e, AnswerError::Stopped(Stopped::TimedOut { .. })) {
        return e.into();
    }
    let sooner = match shape.check_complete_tables() {
        Ok(()) => format!(", or complete tables answer at once (build-db --board {shape})"),
        // The 24-puzzle and its cousins: minutes to hours far from the goal.
        Err(_) if shape.cells() >= 20 => {
            "; on this board a position far from the goal may take hours".to_string()
        }
        Err(_) if !with_file => {
            format!(", or pattern databases search far sooner (build-db --board {shape})")
        }
        Err(_) => String::new(),
    };
    anyhow::anyhow!(
        "{need}: {e} (--timeout {} s); a longer --timeout may find it{sooner}",
        timeout.unwrap_or_default().as_secs_f64()
    )
}

/// With `--json` (`json`), a search stopped at `--timeout` still prints
/// its object on standard output, as a `batch` line does: no distance,
/// the reason, the nodes and the lower bound it proved. The message, and
/// exit code 2, follow as for any error.
pub(crate) fn print_timed_out(
    json: bool,
    out: &mut dyn Write,
    (start, goal): (&Board, &Board),
    timeout: Option<Duration>,
    stopped: &Stopped,
) -> io::Result<()> {
    let Some(stop) = TimedOut::of(timeout.unwrap_or_default(), stopped).filter(|_| json) else {
        return Ok(());
    };
    let mut line = Vec::new();
    stop.write_json(&mut line, start, goal);
    line.push(b'\n');
    out.write_all(&line)
}

/// Runs `search` with `timeout`'s deadline, on every core when
/// `parallel`, telling a terminal the bound it is at ("searching
/// `bound_words` N") once the search has taken a second, and each second
/// after.
pub(crate) fn with_progress<T>(
    timeout: Option<Duration>,
    parallel: bool,
    bound_words: &str,
    search: impl FnOnce(&SolveOptions) -> T,
) -> T {
    let started = Instant::now();
    let latest: std::sync::Mutex<Option<BoundReport>> = std::sync::Mutex::new(None);
    let on_bound = |r: BoundReport| {
        *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
    };
    let options = SolveOptions {
        deadline: timeout.map(|t| started + t),
        parallel,
        on_bound: Some(&on_bound),
        ..SolveOptions::default()
    };
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        if io::stderr().is_terminal() {
            let latest = &latest;
            scope.spawn(move || {
                let mut shown = false;
                // Woken each second until the search ends (the sender drops).
                while finished.recv_timeout(Duration::from_secs(1)).is_err_and(|e| {
                    e == std::sync::mpsc::RecvTimeoutError::Timeout
                }) {
                    let now = *latest.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(r) = now {
                        shown = true;
                        npuzzle::eprint_or_drop!(
                            "\rquery: searching {bound_words} {} ({} nodes before it), {:.0} s\x1b[K",
                            r.bound,
                            r.nodes,
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
                if shown {
                    npuzzle::eprint_or_drop!("\r\x1b[K");
                }
            });
        }
        let result = search(&options);
        drop(done);
        result
    })
}
