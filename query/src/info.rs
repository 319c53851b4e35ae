//! `query info` and `query verify`.

use crate::{cell_name, cell_position, plural, Outcome};
use memmap2::Mmap;
use npuzzle::raw::VERSION;
use npuzzle::Database;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Arguments of `query info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// One JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

/// A database and its file: what `info` and `verify` describe.
pub struct File<'a> {
    pub db: &'a Database<Mmap>,
    pub path: &'a Path,
}

impl File<'_> {
    /// `query info`: what the header says.
    pub fn info(&self, args: &InfoArgs, out: &mut impl Write) -> anyhow::Result<Outcome> {
        let File { db, path } = *self;
        let shape = db.shape();
        let header = db.header();
        if args.json {
            // Cells as row,column and checksums in hex, as the text has them.
            let tables: Vec<_> = header
                .tables
                .iter()
                .map(|t| {
                    serde_json::json!({
                        "blank": cell_position(shape, t.blank as usize),
                        "positions": t.positions,
                        "max_distance": t.max_distance,
                        "counts": t.counts,
                        "offset": t.offset,
                        "checksum": format!("{:08x}", t.checksum),
                        "path_table": t.path_table.map(|p| serde_json::json!({
                            "offset": p.offset,
                            "checksum": format!("{:08x}", p.checksum),
                        })),
                    })
                })
                .collect();
            let served: Vec<String> = (0..shape.cells())
                .filter(|&b| db.serves(b))
                .map(|b| cell_position(shape, b))
                .collect();
            let value = serde_json::json!({
                "path": path.display().to_string(),
                "bytes": db.bytes().len(),
                "version": VERSION,
                "board": shape.to_string(),
                "tables": tables,
                "goal_blanks_served": served,
            });
            writeln!(out, "{value}")?;
            return Ok(Outcome::Success);
        }
        writeln!(
            out,
            "file     {} ({} bytes)",
            path.display(),
            db.bytes().len()
        )?;
        writeln!(out, "format   version {VERSION}")?;
        writeln!(out, "board    {shape}")?;
        writeln!(
            out,
            "tables   {} of {} goal blank cells",
            header.tables.len(),
            shape.cells()
        )?;
        let served = (0..shape.cells()).filter(|&b| db.serves(b)).count();
        writeln!(
            out,
            "goals    answered with the blank in {served} of {} cells (through a reflection or \
         rotation where a cell has no table of its own)",
            shape.cells()
        )?;
        let with_paths = header
            .tables
            .iter()
            .filter(|t| t.path_table.is_some())
            .count();
        writeln!(
        out,
        "paths    {with_paths} of {} tables have a path table (whole solutions, solved in one lookup)",
        header.tables.len()
    )?;
        writeln!(out)?;
        writeln!(
        out,
        "goal blank         positions  max distance     offset  checksum  path table at  checksum"
    )?;
        for t in &header.tables {
            let paths = match t.path_table {
                Some(p) => format!("{:>13}  {:08x}", p.offset, p.checksum),
                None => format!("{:>13}", "-"),
            };
            writeln!(
                out,
                "{:<18} {:>9}  {:>12} {:>10}  {:08x}  {paths}",
                cell_name(shape, t.blank as usize),
                t.positions,
                t.max_distance,
                t.offset,
                t.checksum
            )?;
        }
        Ok(Outcome::Success)
    }
}

/// Arguments of `query verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// One JSON object instead of text: {"path", "ok", "nonzero_padding", "tables": [{"blank",
    /// "positions", "ok", "checksum_ok", "path_table_checksum_ok", "fault_count", "faults"}],
    /// "ms"}. A pattern database's: {"path", "kind", "ok", "nonzero_padding", "tables":
    /// [{"tiles", "placements", "checksum_ok", "out_of_range", "count_mismatches",
    /// "goal_entry", "ok"}]}.
    #[arg(long)]
    pub(crate) json: bool,
}

impl File<'_> {
    /// `query verify`: reads every table; exit 2 on any fault.
    pub fn verify(&self, args: &VerifyArgs, out: &mut impl Write) -> anyhow::Result<Outcome> {
        let File { db, path } = *self;
        let started = Instant::now();
        let report = npuzzle::verify(db);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let verified = Verified {
            shape: db.shape(),
            path,
            report: &report,
            ms,
        };
        if args.json {
            verified.write_json(out)?;
        } else {
            verified.write_text(out)?;
        }
        if report.is_ok() {
            Ok(Outcome::Success)
        } else {
            out.flush()?;
            anyhow::bail!("{} is damaged", path.display());
        }
    }
}

/// What `verify` found, and where, to be written as text or JSON.
struct Verified<'a> {
    shape: npuzzle::Shape,
    path: &'a Path,
    report: &'a npuzzle::Report,
    ms: f64,
}

impl Verified<'_> {
    fn write_json(&self, out: &mut impl Write) -> anyhow::Result<()> {
        let tables: Vec<_> = self
            .report
            .tables
            .iter()
            .map(|r| {
                serde_json::json!({
                    "blank": cell_position(self.shape, r.blank),
                    "positions": r.positions,
                    "ok": r.is_ok(),
                    "checksum_ok": r.checksum_ok,
                    "path_table_checksum_ok": r.path_table_checksum_ok,
                    "fault_count": r.fault_count,
                    "faults": r.faults,
                })
            })
            .collect();
        let value = serde_json::json!({
            "path": self.path.display().to_string(),
            "ok": self.report.is_ok(),
            "nonzero_padding": self.report.nonzero_padding,
            "tables": tables,
            "ms": self.ms,
        });
        writeln!(out, "{value}")?;
        Ok(())
    }

    fn write_text(&self, out: &mut impl Write) -> anyhow::Result<()> {
        let Verified {
            shape,
            path,
            report,
            ms,
        } = *self;
        let reports = &report.tables;
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
        let mut damaged = 0;
        for r in reports {
            let name = cell_name(shape, r.blank);
            if r.is_ok() {
                writeln!(
                    out,
                    "table for blank at {name}: ok, {} positions",
                    r.positions
                )?;
                continue;
            }
            damaged += 1;
            let checksum = match (r.checksum_ok, r.path_table_checksum_ok) {
                (true, None | Some(true)) => "checksums ok",
                (false, None | Some(true)) => "checksum MISMATCH",
                (true, Some(false)) => "path table checksum MISMATCH",
                (false, Some(false)) => "checksum MISMATCH, path table checksum MISMATCH",
            };
            writeln!(
                out,
                "table for blank at {name}: DAMAGED, {checksum}, {}",
                plural(r.fault_count, "faulty entry")
            )?;
            for fault in &r.faults {
                writeln!(out, "  {fault}")?;
            }
            let unlisted = r.fault_count - r.faults.len() as u64;
            if unlisted > 0 {
                writeln!(
                    out,
                    "  … and {unlisted} more (--json lists the same first ones)"
                )?;
            }
        }
        let positions: u64 = reports.iter().map(|r| r.positions).sum();
        if damaged > 0 || report.nonzero_padding > 0 {
            let padding = if report.nonzero_padding > 0 {
                ", and its padding"
            } else {
                ""
            };
            writeln!(
                out,
                "{}: {damaged} of {} damaged{padding}",
                path.display(),
                plural(reports.len() as u64, "table"),
            )?;
            return Ok(());
        }
        writeln!(
            out,
            "{}: ok, {}, {positions} positions checked in {ms:.1} ms",
            path.display(),
            plural(reports.len() as u64, "table"),
        )?;
        Ok(())
    }
}
