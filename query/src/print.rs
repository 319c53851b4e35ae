//! The one printer: every command computes a typed report (in the
//! library, where the library computes it), and this renders it as text,
//! JSON or CSV. JSON is the report's serde form, the same that `query
//! serve` answers, so the contract is kept by the types; each command's
//! module gives only its text layout (and its CSV columns).

use crate::TableFormat;
use serde::Serialize;
use std::io::{self, Write};

/// How a report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For people: each report's own layout.
    Text,
    /// One JSON object (or array) on one line: the report's fields.
    Json,
    /// A header line and records.
    Csv,
}

impl Format {
    /// JSON when `json`, else text: for commands that take no `--csv`.
    pub fn json_or_text(json: bool) -> Format {
        if json {
            Format::Json
        } else {
            Format::Text
        }
    }
}

impl TableFormat {
    /// The format `--json` or `--csv` asks for, text by default.
    pub fn format(&self) -> Format {
        match (self.json, self.csv) {
            (true, _) => Format::Json,
            (_, true) => Format::Csv,
            _ => Format::Text,
        }
    }
}

/// A report's renderings other than JSON, which serde gives.
pub trait Layout: Serialize {
    /// The report as text, for people.
    fn text(&self, out: &mut dyn Write) -> io::Result<()>;

    /// The report as CSV with a header line. Only the commands that take
    /// `--csv` ask for it.
    fn csv(&self, _out: &mut dyn Write) -> io::Result<()> {
        Err(io::Error::other("this report has no CSV form"))
    }
}

/// Prints `report` in `format`.
pub fn print<R: Layout + ?Sized>(
    report: &R,
    format: Format,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    match format {
        Format::Text => report.text(out)?,
        Format::Csv => report.csv(out)?,
        Format::Json => {
            serde_json::to_writer(&mut *out, report)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
