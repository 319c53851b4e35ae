//! `build-db`: builds a database of every position for a board, one table
//! per goal blank cell, and writes it atomically.

use anyhow::{bail, Context};
use clap::Parser;
use npuzzle::{build_tables, write_database, Shape, MAX_BUILD_CELLS};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Builds an npuzzle database by reverse breadth-first search from every goal blank cell.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Board size, rows x columns.
    #[arg(long, default_value = "3x3", value_name = "RxC")]
    board: Shape,
    /// Where to write the database [default: data/RxC.db].
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("build-db: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> anyhow::Result<()> {
    let shape = args.board;
    if shape.cells() > MAX_BUILD_CELLS {
        bail!(
            "a {shape} board has {} positions per table, and this version builds boards of at most \
             {MAX_BUILD_CELLS} cells",
            shape.positions()
        );
    }
    let path = match &args.out {
        Some(p) => p.clone(),
        None => {
            // The default folder is part of the layout; make it if it is missing.
            std::fs::create_dir_all("data").context("cannot create the folder data/")?;
            PathBuf::from(format!("data/{shape}.db"))
        }
    };
    let started = Instant::now();
    let blanks: Vec<usize> = (0..shape.cells()).collect();
    let tables = build_tables(shape, &blanks);
    let built = started.elapsed();
    let bytes = write_database(&path, shape, &tables)?;
    let total = started.elapsed();

    let positions: u64 = tables.iter().map(|t| t.entries.len() as u64).sum();
    let max = tables.iter().map(|t| t.max_distance()).max().unwrap_or(0);
    println!(
        "built {}: {shape} board, {} tables (one per goal blank cell), {positions} positions, \
         max distance {max}, {:.1} ms ({:.1} ms searching), {bytes} bytes",
        path.display(),
        tables.len(),
        total.as_secs_f64() * 1e3,
        built.as_secs_f64() * 1e3,
    );
    Ok(())
}
