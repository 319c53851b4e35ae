//! `query info` and `query verify`, on either kind of file: the library's
//! [`Info`] and [`Report`], printed as text or as their JSON with the
//! file's path.

use crate::print::{print, Format, Layout};
use crate::{plural, Outcome};
use memmap2::Mmap;
use npuzzle::files::shown_path;
use npuzzle::{report::Info, report::Kind, report::Report, report::TableReport, Database};
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// `verify` found damage: the error `query` then adds the rebuild command to.
#[derive(Debug, thiserror::Error)]
#[error("{} is damaged", shown_path(path))]
pub(crate) struct Damaged {
    path: PathBuf,
}

/// Arguments of `query info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// One JSON object instead of text: {"path", "kind", "board", "bytes", "format_version",
    /// "metric", "partition", "default_goal", "goals": [...], "tables": [...]}, the same keys for
    /// complete tables and pattern databases.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Arguments of `query verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// One JSON object instead of text: {"path", "kind", "ok", "tables": [{"goal_blank",
    /// "tiles", "entries", "ok", "checksum_ok", "path_table_checksum_ok", "faults",
    /// "fault_count"}], "nonzero_padding", "entries", "elapsed_ms"}, the same keys for both
    /// kinds of file.
    #[arg(long)]
    pub(crate) json: bool,
}

/// A database and its file: what `info` and `verify` describe.
pub struct File<'a> {
    pub db: &'a Database<Mmap>,
    pub path: &'a Path,
}

/// A report with the file it is about, as the JSON gives it.
#[derive(Serialize)]
pub struct OfFile<'a, T> {
    path: String,
    #[serde(flatten)]
    report: &'a T,
}

impl File<'_> {
    /// `report` with this file's path, printed as text or JSON.
    fn print<'a, T>(&self, report: &'a T, json: bool, out: &mut impl Write) -> anyhow::Result<()>
    where
        OfFile<'a, T>: Layout,
    {
        // Data, not a message: the path whole, as JSON escapes it.
        let path = self.path.display().to_string();
        print(&OfFile { path, report }, Format::json_or_text(json), out)
    }

    /// `query info`: what the header says.
    pub fn info(&self, args: &InfoArgs, out: &mut impl Write) -> anyhow::Result<Outcome> {
        self.print(&self.db.info(), args.json, out)?;
        Ok(Outcome::Success)
    }

    /// `query verify`: reads every table; exit 2 on any fault.
    pub fn verify(&self, args: &VerifyArgs, out: &mut impl Write) -> anyhow::Result<Outcome> {
        let report = self.db.verify();
        self.print(&report, args.json, out)?;
        if report.ok {
            Ok(Outcome::Success)
        } else {
            out.flush()?;
            Err(Damaged {
                path: self.path.to_path_buf(),
            }
            .into())
        }
    }
}

impl Layout for OfFile<'_, Info> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        write_info(&self.path, self.report, out)
    }
}

impl Layout for OfFile<'_, Report> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        write_report(&self.path, self.report, out)
    }
}

/// What entries count: positions of a complete table, placements of a
/// pattern's tiles.
fn entry_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Complete => "positions",
        Kind::Pattern => "placements",
    }
}

fn write_info(path: &str, info: &Info, out: &mut dyn Write) -> io::Result<()> {
    let cells = info.board.cells();
    writeln!(out, "file     {} ({} bytes)", path, info.bytes)?;
    writeln!(out, "format   version {}", info.format_version)?;
    writeln!(out, "board    {}", info.board)?;
    let counted = match info.metric {
        npuzzle::Metric::SingleTile => "single-tile moves: one tile per move",
        npuzzle::Metric::MultiTile => {
            "multi-tile moves: a slide of 1 to k tiles in a line is one move"
        }
    };
    writeln!(out, "metric   {} ({counted})", info.metric)?;
    match &info.partition {
        None => writeln!(
            out,
            "kind     complete tables: every position's distance, looked up"
        )?,
        Some(name) => writeln!(
            out,
            "kind     pattern database {name}: the sum of a set's tables' entries (and, where \
             marked, the larger of it and the sum of the patterns' images under a symmetry \
             of the board, the transpose on square boards, with a table of its own, listed \
             last, for one image no table serves) bounds IDA*; a pattern that a reflection \
             or rotation takes onto an earlier one reads that one's table and has none listed"
        )?,
    }
    let tables = &info.tables;
    let repeated = tables.iter().filter(|t| t.same_as.is_some()).count();
    writeln!(
        out,
        "tables   {} toward {} of {cells} goal blank cells{}",
        tables.len(),
        info.goals.len(),
        match repeated {
            0 => String::new(),
            n => format!(" ({n} the same as an earlier set's, stored once: same offset)"),
        },
    )?;
    let served: usize = info.goals.iter().map(|g| g.answers.iter().count()).sum();
    writeln!(
        out,
        "goals    answered with the blank in {served} of {cells} cells (through a reflection or \
         rotation where a cell has no table of its own)"
    )?;
    let with_paths = info
        .tables
        .iter()
        .filter(|t| t.path_table.is_some())
        .count();
    if info.kind == Kind::Complete {
        writeln!(
            out,
            "paths    {with_paths} of {} tables have a path table (whole solutions, solved in \
             one lookup)",
            info.tables.len()
        )?;
    }
    writeln!(out)?;
    for goal in &info.goals {
        writeln!(
            out,
            "goal {} (blank at {}): answers the blank at {}{}",
            goal.goal,
            goal.goal_blank.name(),
            goal.answers,
            if goal.second_lookup {
                "; second lookup"
            } else {
                ""
            },
        )?;
    }
    writeln!(out)?;
    write_tables(info, out)
}

/// `info`'s table of tables: one line each.
fn write_tables(info: &Info, out: &mut dyn Write) -> io::Result<()> {
    let entries = entry_word(info.kind);
    let last_columns = match info.kind {
        Kind::Complete => "path table at  checksum",
        Kind::Pattern => "tiles",
    };
    writeln!(
        out,
        "goal blank  {entries:>10}  max  mean     offset  checksum  {last_columns}"
    )?;
    for t in &info.tables {
        let last = match (info.kind, t.path_table) {
            (Kind::Complete, Some(p)) => format!("{:>13}  {:08x}", p.offset, p.checksum),
            // Said in words in both columns: a blank or `-` reads as missing data.
            (Kind::Complete, None) => format!("{:>13}  {:>8}", "none", "none"),
            (Kind::Pattern, _) => {
                let tiles: Vec<String> = t.tiles.iter().map(u8::to_string).collect();
                tiles.join(" ")
            }
        };
        writeln!(
            out,
            "{:<10}  {:>10}  {:>3}  {:>4.1} {:>10}  {:08x}  {last}",
            t.goal_blank.to_string(),
            t.entries,
            t.max_distance,
            t.mean_distance,
            t.offset,
            t.checksum,
        )?;
    }
    Ok(())
}

fn write_report(path: &str, report: &Report, out: &mut dyn Write) -> io::Result<()> {
    if report.nonzero_padding > 0 {
        writeln!(
            out,
            "padding: DAMAGED, {} that should be zero {} not",
            plural(report.nonzero_padding, "byte"),
            if report.nonzero_padding == 1 {
                "is"
            } else {
                "are"
            }
        )?;
    }
    let entries = entry_word(report.kind);
    for t in &report.tables {
        write_table_report(report.kind, t, out)?;
    }
    let damaged = report.tables.iter().filter(|t| !t.ok).count();
    let tables = plural(report.tables.len() as u64, "table");
    if report.ok {
        writeln!(
            out,
            "{}: ok, {tables}, {} {entries} checked in {:.1} ms",
            path,
            report.entries,
            report.elapsed.as_secs_f64() * 1e3
        )?;
    } else if damaged == 0 {
        // Only the padding between sections.
        let whole = match report.tables.len() {
            1 => "its table is whole".to_string(),
            _ => format!("its {tables} are whole"),
        };
        writeln!(out, "{path}: the padding is damaged; {whole}")?;
    } else {
        let padding = if report.nonzero_padding > 0 {
            ", and its padding"
        } else {
            ""
        };
        writeln!(out, "{}: {damaged} of {tables} damaged{padding}", path)?;
    }
    Ok(())
}

fn write_table_report(kind: Kind, t: &TableReport, out: &mut dyn Write) -> io::Result<()> {
    let name = t.name(kind);
    if t.ok {
        writeln!(out, "{name}: ok, {} {}", t.entries, entry_word(kind))?;
        return Ok(());
    }
    let checksum = match (t.checksum_ok, t.path_table_checksum_ok) {
        (true, None | Some(true)) => "checksums ok",
        (false, None | Some(true)) => "checksum MISMATCH",
        (true, Some(false)) => "path table checksum MISMATCH",
        (false, Some(false)) => "checksum MISMATCH, path table checksum MISMATCH",
    };
    writeln!(
        out,
        "{name}: DAMAGED, {checksum}, {}",
        plural(t.fault_count, "fault")
    )?;
    for fault in &t.faults {
        writeln!(out, "  {fault}")?;
    }
    let unlisted = t.fault_count - t.faults.len() as u64;
    if unlisted > 0 {
        writeln!(
            out,
            "  … and {unlisted} more (--json lists the same first ones)"
        )?;
    }
    Ok(())
}
