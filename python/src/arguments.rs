//! Arguments other than boards and moves, read from whatever Python hands
//! over. Each refusal is an `npuzzle.Error` that names the argument and what
//! it takes: PyO3's own conversions would raise a bare `OverflowError`
//! (`count=-1`), `TypeError` or `UnicodeEncodeError` (a lone surrogate).

use crate::errors;
use npuzzle::bounded::WeightError;
use npuzzle::io::{check_threads, check_timeout, ThreadsError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyString};
use std::path::PathBuf;
use std::time::Duration;

/// An optional argument when given, and not as None (None means the
/// default, as in Python's own signatures).
pub fn given<'a, 'py>(obj: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    obj.filter(|o| !o.is_none())
}

/// A whole number as Python gave it: within a u64, or past it either way
/// (kept as its text, for the message).
pub enum Whole {
    Value(u64),
    Negative(String),
    TooLarge(String),
}

/// `name=` as a whole number: an `int` or anything with `__index__` (NumPy
/// integers), but not a bool or a float.
pub fn whole(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Whole> {
    let py = obj.py();
    let is_integer = obj.cast::<PyInt>().is_ok() || obj.hasattr("__index__")?;
    if is_bool(obj) || obj.cast::<PyFloat>().is_ok() || !is_integer {
        return Err(errors::argument_type(
            py,
            format!("{name}= is a whole number, not {}", type_name(obj)),
        ));
    }
    let index = match obj.cast::<PyInt>() {
        Ok(int) => int.clone().into_any(),
        // A NumPy array has `__index__`, which refuses all but one integer.
        Err(_) => py
            .import("operator")?
            .call_method1("index", (obj,))
            .map_err(|_| {
                errors::argument_type(
                    py,
                    format!("{name}= is a whole number, not {}", type_name(obj)),
                )
            })?,
    };
    match index.extract::<u64>() {
        Ok(n) => Ok(Whole::Value(n)),
        Err(_) if index.lt(0)? => Ok(Whole::Negative(shown(&index))),
        Err(_) => Ok(Whole::TooLarge(shown(&index))),
    }
}

/// A Python int as a message shows it: its digits, cut short when long;
/// past the 4,300 digits Python turns into text, its size in bits.
pub fn shown(int: &Bound<'_, PyAny>) -> String {
    match int.str() {
        Ok(text) => npuzzle::rules::excerpt(&text.to_string(), 60).into_owned(),
        Err(_) => {
            let bits = int
                .call_method0("bit_length")
                .and_then(|b| b.extract::<u64>());
            format!("a number of {} bits", bits.unwrap_or(0))
        }
    }
}

/// `count=`: positions to draw, 1 or more.
pub fn count(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let Some(obj) = given(obj) else {
        return Ok(1);
    };
    let refused = |shown: &str| {
        errors::argument(
            obj.py(),
            format!("count= is the number of positions to draw, 1 or more, not {shown}"),
        )
    };
    match whole(obj, "count")? {
        Whole::Value(0) => Err(refused("0")),
        Whole::Value(n) => usize::try_from(n).map_err(|_| refused(&n.to_string())),
        Whole::Negative(n) => Err(refused(&n)),
        Whole::TooLarge(n) => Err(errors::argument(
            obj.py(),
            format!("count={n} is more positions than any board has"),
        )),
    }
}

/// `name=`: a whole number within `range`, or None for the default.
pub fn whole_in(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
) -> PyResult<Option<u64>> {
    let Some(obj) = given(obj) else {
        return Ok(None);
    };
    let refused = |shown: &str| {
        let (lo, hi) = (range.start(), range.end());
        errors::argument(
            obj.py(),
            format!("{name}= is a whole number from {lo} to {hi}, not {shown}"),
        )
    };
    match whole(obj, name)? {
        Whole::Value(n) if range.contains(&n) => Ok(Some(n)),
        Whole::Value(n) => Err(refused(&n.to_string())),
        Whole::Negative(n) | Whole::TooLarge(n) => Err(refused(&n)),
    }
}

/// `seed=`: a 64-bit seed; None draws a fresh one.
pub fn seed(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(obj) = given(obj) else {
        return Ok(None);
    };
    match whole(obj, "seed")? {
        Whole::Value(n) => Ok(Some(n)),
        Whole::Negative(n) | Whole::TooLarge(n) => Err(errors::argument(
            obj.py(),
            format!("seed= is a whole number from 0 to 2**64 - 1, not {n}"),
        )),
    }
}

/// `limit=`: the most solutions to list, 0 or more; past what memory could
/// hold it lists them all.
pub fn limit(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let Some(obj) = given(obj) else {
        return Ok(10);
    };
    match whole(obj, "limit")? {
        Whole::Value(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        Whole::TooLarge(_) => Ok(usize::MAX),
        Whole::Negative(n) => Err(errors::argument(
            obj.py(),
            format!("limit= is the most solutions to list, 0 or more, not {n}"),
        )),
    }
}

/// `threads=`: 1 to the limit every face shares (`query batch --threads`
/// too); None for one per core.
pub fn threads(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(obj) = given(obj) else {
        return Ok(None);
    };
    let (shown, checked) = match whole(obj, "threads")? {
        Whole::Value(n) => (n.to_string(), check_threads(n)),
        Whole::Negative(n) => (n, Err(ThreadsError::None)),
        Whole::TooLarge(n) => (n, Err(ThreadsError::too_many())),
    };
    match checked {
        Ok(n) => Ok(Some(n)),
        Err(e @ ThreadsError::None) => {
            Err(errors::argument(obj.py(), format!("threads={shown}: {e}")))
        }
        Err(e) => Err(errors::argument(
            obj.py(),
            format!("threads={shown} is {e}"),
        )),
    }
}

/// `timeout=`: seconds, as an int or a float, refused where the command
/// line's `--timeout` refuses them ([`check_timeout`]: at or below 0,
/// below a nanosecond, past the limit, infinite or NaN). None (or leaving
/// it out) is no limit.
pub fn seconds(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    let Some(obj) = given(obj) else {
        return Ok(None);
    };
    let py = obj.py();
    if is_bool(obj) {
        return Err(errors::argument_type(
            py,
            "timeout= is a number of seconds, not bool",
        ));
    }
    let seconds = match obj.extract::<f64>() {
        Ok(seconds) => seconds,
        // An int past a float's range: past the limit either way.
        Err(_) if obj.cast::<PyInt>().is_ok() => match obj.lt(0)? {
            true => f64::MIN,
            false => f64::MAX,
        },
        Err(_) => {
            return Err(errors::argument_type(
                py,
                format!("timeout= is a number of seconds, not {}", type_name(obj)),
            ))
        }
    };
    check_timeout(seconds).map(Some).map_err(|e| {
        let why = e.advising("leave timeout= out (or None) to search without a limit");
        errors::argument(py, format!("timeout={}: {why}", shown(obj)))
    })
}

/// `heuristic=`: a classic heuristic's name, as the command line writes it.
pub fn heuristic(obj: &Bound<'_, PyAny>) -> PyResult<npuzzle::analysis::Heuristic> {
    let py = obj.py();
    let Ok(name) = obj.cast::<PyString>() else {
        return Err(errors::argument_type(
            py,
            format!(
                "heuristic= is a name such as \"manhattan\", not {}",
                type_name(obj)
            ),
        ));
    };
    let name = text_of(name).map_err(|why| errors::argument(py, format!("heuristic= {why}")))?;
    name.parse()
        .map_err(|e: npuzzle::analysis::UnknownHeuristic| {
            errors::argument(py, format!("heuristic=: {e}"))
        })
}

/// `count=` of a draw without `distance=` (uniform, independent): at most
/// [`npuzzle::analysis::MAX_UNIFORM`], as `query random` takes.
pub fn uniform_count(py: Python<'_>, count: usize) -> PyResult<()> {
    let most = npuzzle::analysis::MAX_UNIFORM;
    match count > most {
        true => Err(errors::argument(
            py,
            format!(
                "count= is at most {most} without distance=, not {count}: draw again with other \
                 seeds for more"
            ),
        )),
        false => Ok(()),
    }
}

/// `within=`: a number W from 1 to 100, the factor a solution may exceed
/// the optimum by; the library's refusal (below 1, NaN, too large) as
/// ArgumentError.
pub fn weight(obj: &Bound<'_, PyAny>) -> PyResult<npuzzle::bounded::Weight> {
    let py = obj.py();
    if is_bool(obj) {
        return Err(errors::argument_type(
            py,
            "within= is a number such as 1.2, not bool",
        ));
    }
    let refused = |e: WeightError| errors::argument(py, format!("within=: {e}"));
    match obj.extract::<f64>() {
        Ok(value) => npuzzle::bounded::Weight::new(value).map_err(refused),
        // An int past a float's range is past a limit too, named by its digits.
        Err(_) if obj.cast::<PyInt>().is_ok() => Err(refused(if obj.lt(0)? {
            WeightError::BelowOne(shown(obj))
        } else {
            WeightError::TooLarge(shown(obj))
        })),
        Err(_) => Err(errors::argument_type(
            py,
            format!("within= is a number such as 1.2, not {}", type_name(obj)),
        )),
    }
}

/// A bool, Python's or NumPy's (`numpy.bool_` is not a `bool`): refused
/// where a number is meant, as `True` would quietly read as 1.
pub fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    obj.cast::<PyBool>().is_ok() || matches!(type_name(obj).as_str(), "bool" | "bool_")
}

/// `name=` as text (a `str`), for sizes, partitions and the like.
pub fn text(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    let py = obj.py();
    let Ok(text) = obj.cast::<PyString>() else {
        return Err(errors::argument_type(
            py,
            format!("{name}= is text, not {}", type_name(obj)),
        ));
    };
    text_of(text).map_err(|why| errors::argument(py, format!("{name}= {why}")))
}

/// A `str`'s text, or why it is not text: a lone surrogate (from
/// `surrogateescape` decoding, or written as `"\ud800"`), which UTF-8 cannot
/// hold.
pub fn text_of(text: &Bound<'_, PyString>) -> Result<String, String> {
    if let Ok(s) = text.to_str() {
        return Ok(s.to_string());
    }
    let chars: Vec<char> = text.to_string_lossy().chars().collect();
    let at = chars
        .iter()
        .position(|&c| c == char::REPLACEMENT_CHARACTER)
        .map_or(String::new(), |i| format!(" at character {}", i + 1));
    Err(format!(
        "holds a lone surrogate{at} (a half of a UTF-16 pair, such as \"\\ud800\"), which is \
         not a character"
    ))
}

/// `name=` as a flag: True or False.
pub fn flag(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<bool>> {
    let Some(obj) = given(obj) else {
        return Ok(None);
    };
    obj.extract::<bool>().map(Some).map_err(|_| {
        errors::argument_type(
            obj.py(),
            format!("{name}= is True or False, not {}", type_name(obj)),
        )
    })
}

/// `path=`: a file path, as a `str`, `bytes` or an `os.PathLike`.
pub fn path(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<PathBuf>> {
    let Some(obj) = given(obj) else {
        return Ok(None);
    };
    let py = obj.py();
    let path = py
        .import("os")?
        .call_method1("fspath", (obj,))
        .map_err(|_| {
            errors::argument_type(
                py,
                format!(
                    "path= is a file path (a str, bytes or an os.PathLike), not {}",
                    type_name(obj)
                ),
            )
        })?;
    // The system's bytes for the name, which need not be UTF-8: a `str`
    // from `os.listdir` holds such bytes as lone surrogates
    // (`surrogateescape`), which `os.fsencode` turns back.
    let bytes = match py.import("os")?.call_method1("fsencode", (&path,)) {
        Ok(bytes) => bytes.cast_into::<PyBytes>()?.as_bytes().to_vec(),
        // A surrogate that stands for no byte ("\ud800").
        Err(e) => match path.cast::<PyString>() {
            Ok(text) => {
                let why = text_of(text).err().unwrap_or_else(|| e.to_string());
                return Err(errors::argument(py, format!("path= {why}")));
            }
            Err(_) => return Err(e),
        },
    };
    if bytes.is_empty() {
        return Err(errors::argument(
            py,
            "path= is empty: name a file, or leave path= out to use the usual places",
        ));
    }
    Ok(Some(path_of_bytes(bytes)))
}

#[cfg(unix)]
fn path_of_bytes(bytes: Vec<u8>) -> PathBuf {
    <std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(bytes).into()
}

#[cfg(not(unix))]
fn path_of_bytes(bytes: Vec<u8>) -> PathBuf {
    String::from_utf8_lossy(&bytes).into_owned().into()
}

/// `blanks=`: goal blank cells, as whole numbers (checked against the board
/// by the build). A cell past any board's is kept past it, for the message.
pub fn cells(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<CellArg>>> {
    let Some(obj) = given(obj) else {
        return Ok(None);
    };
    let py = obj.py();
    if obj.cast::<PyString>().is_ok() || obj.try_iter().is_err() {
        return Err(errors::argument_type(
            py,
            format!("blanks= is a list of cell numbers, not {}", type_name(obj)),
        ));
    }
    let mut cells = Vec::new();
    for item in obj.try_iter()? {
        cells.push(match whole(&item?, "blanks")? {
            Whole::Value(n) => CellArg::Cell(n),
            Whole::Negative(n) | Whole::TooLarge(n) => CellArg::OffEveryBoard(n),
        });
    }
    Ok(Some(cells))
}

/// One of `blanks=`: a cell number, or one no board has (negative or huge).
pub enum CellArg {
    Cell(u64),
    OffEveryBoard(String),
}

/// The type's name, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "that type".to_string(), |n| n.to_string())
}

/// `metric=`: `"stm"` (the default, when `None`) or `"mtm"`; ArgumentError
/// names any other text, ArgumentTypeError anything that is not text.
pub fn metric(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<npuzzle::Metric> {
    match given(obj) {
        None => Ok(npuzzle::Metric::SingleTile),
        Some(obj) => text(obj, "metric")?
            .parse()
            .map_err(|e| errors::argument(py, format!("metric=: {e}"))),
    }
}
