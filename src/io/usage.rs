//! Usage errors as the binaries print them: clap's own message, except
//! where clap mistakes a negative number for an option, or would echo a
//! huge value whole.

use crate::puzzle::parse::excerpt;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// Characters of a bad value (a flag's, or a board given as an argument)
/// echoed in a message by either binary.
pub const ARGUMENT_ECHO_LIMIT: usize = 60;

/// Prints a usage error of `program` to stderr (ours where it says more
/// than clap's, else clap's) and returns the exit code: 2 for an error, 0
/// for `--help` and `--version`.
pub fn report_usage_error(e: &clap::Error, program: &str) -> std::process::ExitCode {
    match usage_message(e) {
        Some(message) => {
            eprintln!("{program}: {message}");
            std::process::ExitCode::from(2)
        }
        None => {
            let _ = e.print();
            std::process::ExitCode::from(e.exit_code() as u8)
        }
    }
}

/// The message for a usage error where ours says more than clap's, or
/// `None` to let clap print its own.
pub fn usage_message(e: &clap::Error) -> Option<String> {
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let arg = context(ContextKind::InvalidArg)?;
    if e.kind() == ErrorKind::UnknownArgument {
        let negative = arg
            .strip_prefix('-')
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
        return negative.then(|| {
            format!(
                "{:?} starts with a negative number: tiles count from 0 (the blank), \
                 distances from 0 moves, and other numbers from 0 or 1",
                excerpt(arg, ARGUMENT_ECHO_LIMIT)
            )
        });
    }
    let value = context(ContextKind::InvalidValue)?;
    (value.chars().count() > ARGUMENT_ECHO_LIMIT).then(|| {
        let why = std::error::Error::source(e).map_or(String::new(), |s| format!(": {s}"));
        format!(
            "invalid value {:?} for '{arg}'{why}",
            excerpt(value, ARGUMENT_ECHO_LIMIT)
        )
    })
}
