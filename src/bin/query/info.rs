//! `query info` and `query verify`.

use crate::{cell_name, Outcome};
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
    json: bool,
}

/// `query info`: what the header says.
pub fn info(
    db: &Database<Mmap>,
    path: &Path,
    args: &InfoArgs,
    out: &mut impl Write,
) -> anyhow::Result<Outcome> {
    let shape = db.shape();
    let header = db.header();
    if args.json {
        let value = serde_json::json!({
            "path": path.display().to_string(),
            "bytes": db.bytes().len(),
            "version": VERSION,
            "board": shape.to_string(),
            "tables": header.tables,
            "goal_blanks_served": (0..shape.cells()).filter(|&b| db.serves(b)).collect::<Vec<_>>(),
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

/// `query verify`: reads every table; exit 2 on any fault.
pub fn verify(db: &Database<Mmap>, path: &Path, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let report = npuzzle::verify(db);
    let reports = &report.tables;
    let shape = db.shape();
    let mut damaged = 0;
    if report.nonzero_padding > 0 {
        damaged += 1;
        writeln!(
            out,
            "padding: DAMAGED, {} bytes that should be zero are not",
            report.nonzero_padding
        )?;
    }
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
            "table for blank at {name}: DAMAGED, {checksum}, {} faulty entries",
            r.fault_count
        )?;
        for fault in &r.faults {
            writeln!(out, "  {fault}")?;
        }
    }
    let positions: u64 = reports.iter().map(|r| r.positions).sum();
    let ms = started.elapsed().as_secs_f64() * 1e3;
    if damaged > 0 {
        writeln!(
            out,
            "{}: {damaged} of {} parts damaged",
            path.display(),
            reports.len() + 1
        )?;
        out.flush()?;
        anyhow::bail!("{} is damaged; rebuild it with build-db", path.display());
    }
    writeln!(
        out,
        "{}: ok, {} table{}, {positions} positions checked in {ms:.1} ms",
        path.display(),
        reports.len(),
        if reports.len() == 1 { "" } else { "s" }
    )?;
    Ok(Outcome::Success)
}
