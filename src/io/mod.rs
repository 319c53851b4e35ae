//! Text and JSON in and out at speed: answers written without allocation,
//! and batches of (start, goal) lines answered in blocks over threads (as
//! many as [`check_threads`] allows). Beside them, what every face's
//! input and output need: the limits of threads and timeouts, files
//! replaced whole ([`Replacement`]), standard error that may be closed,
//! and with the `cli` feature the usage errors, the file-size limit and
//! the signals of the command line.
//!
//! Uses `puzzle`, `pattern` and `db`.

mod answer;
mod batch;
#[cfg(feature = "cli")]
mod file_size;
mod stderr;
mod threads;
mod timeout;
#[cfg(feature = "cli")]
mod usage;

pub use crate::db::replace::{Replacement, Writes, HTML_MARK, PNG_MARK, SVG_MARK};
pub(crate) use answer::{write_counted_moves, write_csv_text, write_decimal, write_json_string};
pub use answer::{Answer, Nodes, WithinBound};
pub(crate) use batch::{
    answer_lines, inner_carriage_return, line_text, read_line, write_answer, write_error,
    write_work_columns, AnswerLine, BadLine, LinesPerShare,
};
pub use batch::{
    run_batch, split_pair, BatchFormat, BatchSummary, LineAnswerer, LineOutcome, TimedOut,
    CSV_HEADER, SEARCH_CSV_HEADER,
};
#[cfg(feature = "cli")]
pub use file_size::{file_size_limit_as_error, remove_unfinished_on_signals, stop_on_ctrl_c};
pub use threads::{check_threads, cores, most_threads, ThreadsError, THREADS_PER_CORE};
pub use timeout::{check_timeout, TimeoutError, MAX_TIMEOUT_SECONDS};
#[cfg(feature = "cli")]
pub use usage::{
    is_tile_number, non_empty_path, report_usage_error, spaced_goal, usage_message,
    ARGUMENT_ECHO_LIMIT,
};
