//! Usage errors as the binaries print them: clap's own message, except
//! where clap mistakes a negative number for an option, or would echo a
//! huge value whole.

use crate::puzzle::parse::excerpt;
use crate::{Board, Shape};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::io::Write;

/// Characters of a bad value (a flag's, or a board given as an argument)
/// echoed in a message by either binary.
pub const ARGUMENT_ECHO_LIMIT: usize = 60;

/// Prints a usage error of `program` to stderr (ours where it says more
/// than clap's, else clap's) and returns the exit code: 2 for an error, 0
/// for `--help` and `--version`.
pub fn report_usage_error(
    e: &clap::Error,
    program: &str,
    command: &clap::Command,
) -> std::process::ExitCode {
    let given: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let args: Vec<String> = given
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let takes_value =
        |option: &str| has_option(command, option, &|a| a.get_action().takes_values());
    let message = match e.kind() {
        ErrorKind::InvalidUtf8 => {
            let path = clap::value_parser!(std::path::PathBuf).type_id();
            let takes_path = |option: &str| {
                has_option(command, option, &|a| a.get_value_parser().type_id() == path)
            };
            not_utf8_message(&given, &takes_value, &takes_path)
        }
        _ => usage_message(e, &args, &takes_value),
    };
    match message {
        Some(message) => {
            // As `eprintln_or_drop!`: a full standard error is no panic.
            let _ = writeln!(std::io::stderr(), "{program}: {message}");
            std::process::ExitCode::from(2)
        }
        None => match e.print() {
            // Help or a version that cannot be written (`--help > /dev/full`)
            // is a failure, said as every command's output says it; a closed
            // pipe (`--help | head -1`) is the reader's choice.
            Err(err) if !e.use_stderr() && err.kind() != std::io::ErrorKind::BrokenPipe => {
                let _ = writeln!(
                    std::io::stderr(),
                    "{program}: cannot write to standard output: {err}"
                );
                std::process::ExitCode::from(2)
            }
            _ => std::process::ExitCode::from(e.exit_code() as u8),
        },
    }
}

/// clap's word for an argument that is not UTF-8 names none: ours names
/// the first such among `args` (the program's) by its place, and the
/// option it is the value of, where it follows one. A path (the value of
/// an option that `takes_path`) may be any bytes: see [`non_empty_path`].
fn not_utf8_message(
    args: &[std::ffi::OsString],
    takes_value: &dyn Fn(&str) -> bool,
    takes_path: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let (at, option) = (1..args.len())
        .filter(|&at| args[at].to_str().is_none())
        .map(|at| (at, option_of(args, at, takes_value)))
        .find(|(_, option)| !option.is_some_and(|(name, _)| takes_path(name)))?;
    let after = match option {
        Some((name, false)) => format!(", after {name},"),
        _ => String::new(),
    };
    Some(format!(
        "argument {at} {:?}{after} is not UTF-8 text (each \u{fffd} stands for bytes that are \
         not): boards, moves, numbers and names are written in ASCII",
        excerpt(&args[at].to_string_lossy(), ARGUMENT_ECHO_LIMIT)
    ))
}

/// The option whose value `args[at]` holds, and whether it is written in
/// the same argument (`--db=PATH`) rather than the one before (`--db
/// PATH`, where that option `takes_value`).
fn option_of<'a>(
    args: &'a [std::ffi::OsString],
    at: usize,
    takes_value: &dyn Fn(&str) -> bool,
) -> Option<(&'a str, bool)> {
    let bytes = args[at].as_encoded_bytes();
    if bytes.starts_with(b"--") {
        let name = bytes.split(|&b| b == b'=').next()?;
        return (name.len() < bytes.len())
            .then(|| std::str::from_utf8(name).ok())
            .flatten()
            .map(|name| (name, true));
    }
    let before = args[at - 1].to_str().filter(|_| at > 1)?;
    (before.starts_with("--") && !before.contains('=') && takes_value(before))
        .then_some((before, false))
}

/// Whether `option` (`--goal`) is an argument of `command` or any of its
/// subcommands that passes `test` (takes a value, or a path).
fn has_option(command: &clap::Command, option: &str, test: &dyn Fn(&clap::Arg) -> bool) -> bool {
    let name = option.trim_start_matches('-');
    command
        .get_arguments()
        .any(|a| a.get_long() == Some(name) && test(a))
        || command
            .get_subcommands()
            .any(|c| has_option(c, option, test))
}

/// The message for a usage error where ours says more than clap's, or
/// `None` to let clap print its own; `args` are the program's arguments,
/// and `takes_value` tells the options that take a value.
pub fn usage_message(
    e: &clap::Error,
    args: &[String],
    takes_value: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let arg = context(ContextKind::InvalidArg)?;
    if e.kind() == ErrorKind::UnknownArgument {
        let shown = excerpt(arg, ARGUMENT_ECHO_LIMIT);
        let negative = arg
            .strip_prefix('-')
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
        if negative {
            // clap names the first characters only ("-8" of "-867254301"):
            // the whole word says more, and the option it was meant for.
            let at = args
                .iter()
                .skip(1)
                .position(|a| a.starts_with(arg))
                .map(|i| i + 1);
            let word = at.map_or(arg, |i| args[i].as_str());
            let after = at
                .map(|i| args[i - 1].as_str())
                .filter(|before| before.starts_with("--") && takes_value(before));
            let option = after.map_or(String::new(), |option| format!(" (after {option})"));
            // A cell is named by its row and column, which count from 1.
            let counts = match after {
                Some("--blank") => {
                    "rows and columns count from 1 (--blank 3,3 is the bottom \
                                    right cell of 3x3)"
                }
                _ => {
                    "tiles count from 0 (the blank), distances from 0 moves, and other numbers \
                      from 0 or 1"
                }
            };
            return Some(format!(
                "{:?}{option} starts with a negative number: {counts}",
                excerpt(word, ARGUMENT_ECHO_LIMIT)
            ));
        }
        // `--goal 1 2 3 4 5 6 7 8 0` unquoted, where no start follows.
        let goal_took_one_tile = args.windows(2).any(|pair| {
            (pair[0] == "--goal" && is_tile_number(&pair[1]))
                || pair[1].strip_prefix("--goal=").is_some_and(is_tile_number)
        });
        return (is_tile_number(arg) && goal_took_one_tile).then(|| {
            format!(
                "unexpected argument {shown:?}: a board written with spaces is one argument, \
                 so quote it, as in --goal '{}'",
                spaced_goal(board_given(args))
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

/// Whether `word` is written as one tile's number, as an unquoted board's
/// first word is.
pub fn is_tile_number(word: &str) -> bool {
    !word.is_empty() && word.len() <= 2 && word.bytes().all(|b| b.is_ascii_digit())
}

/// The default goal of `shape`, its tiles separated by spaces: an example
/// of a board written with spaces.
pub fn spaced_goal(shape: Shape) -> String {
    let tiles: Vec<String> = Board::goal(shape)
        .cells()
        .iter()
        .map(u8::to_string)
        .collect();
    tiles.join(" ")
}

/// The board `--board` names among `args`, 3x3 where none is named.
fn board_given(args: &[String]) -> Shape {
    let named = args.windows(2).find_map(|pair| match pair[0].as_str() {
        "--board" => Some(pair[1].as_str()),
        _ => pair[1].strip_prefix("--board="),
    });
    named
        .and_then(|text| text.parse().ok())
        .unwrap_or(Shape::THREE_BY_THREE)
}

/// A path flag's parser: any bytes, as a file's name may be (UTF-8 or
/// not), refused when empty: clap's own word for `--db ""` is that no
/// value was supplied, when one was, and named nothing.
pub fn non_empty_path() -> impl clap::builder::TypedValueParser<Value = std::path::PathBuf> {
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new().try_map(|text| match text.is_empty() {
        true => Err("the path is empty: name a file"),
        false => Ok(std::path::PathBuf::from(text)),
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;

    fn args(words: &[&[u8]]) -> Vec<OsString> {
        words
            .iter()
            .map(|w| OsString::from_vec(w.to_vec()))
            .collect()
    }

    /// What `not_utf8_message` says of `words`, where `--goal` and `--db`
    /// take values and `--db` a path.
    fn said(words: &[&[u8]]) -> Option<String> {
        let takes_value = |o: &str| o == "--goal" || o == "--db";
        not_utf8_message(&args(words), &takes_value, &|o| o == "--db")
    }

    #[test]
    fn an_argument_that_is_not_utf8_is_named_by_its_place_and_option() {
        let shown =
            |message: Option<String>| message.map(|m| m[..m.find(" is not").unwrap()].to_string());
        // A path, in either form, is any bytes.
        assert_eq!(
            said(&[b"query", b"--db", b"caf\xe9.db", b"solve", b"1"]),
            None
        );
        assert_eq!(said(&[b"query", b"--db=caf\xe9.db", b"solve"]), None);
        // Another option's value, in either form; the option is named once.
        let goal = [&b"query"[..], b"solve", b"1", b"--goal", b"1\xe9"];
        assert_eq!(
            shown(said(&goal)).as_deref(),
            Some("argument 4 \"1\u{fffd}\", after --goal,")
        );
        let joined = [&b"query"[..], b"--goal=1\xe9"];
        assert_eq!(
            shown(said(&joined)).as_deref(),
            Some("argument 1 \"--goal=1\u{fffd}\"")
        );
        // The first argument, a word after a flag that takes no value, and
        // a word spelt as a path option's name without its dashes.
        for words in [
            &[&b"query"[..], b"\xe9"][..],
            &[b"query", b"--all", b"\xe9"],
            &[b"query", b"db", b"\xe9"],
        ] {
            let at = words.len() - 1;
            assert_eq!(
                shown(said(words)),
                Some(format!("argument {at} \"\u{fffd}\"")),
                "{words:?}"
            );
        }
        // A path first, then a board: the board is named.
        let both = [&b"query"[..], b"--db", b"\xe9.db", b"solve", b"\xe9"];
        assert_eq!(
            shown(said(&both)).as_deref(),
            Some("argument 4 \"\u{fffd}\"")
        );
        assert!(said(&[b"query", b"solve"]).is_none());
    }
}
