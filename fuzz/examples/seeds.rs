//! Writes the seed corpus of the fuzz targets (the files named `seed-*`
//! under `fuzz/corpus/`): small valid databases for `open_database`, small
//! valid pattern databases for `open_pattern_database`, and a few boards
//! and batch lines for `parse_board` and `batch_line`.
//!
//! `cargo run --manifest-path fuzz/Cargo.toml --example seeds -- fuzz/corpus`

use npuzzle::pattern::Partition;
use npuzzle::{build, Plan, Shape};
use npuzzle_fuzz::database_bytes;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/corpus".into()),
    );
    let shape = |r, c| Shape::new(r, c).expect("a supported shape");
    // A page for the preamble and one per table, plus the header: 4 KB
    // per table, so only the 2x2 file holds every table.
    let databases = [
        (
            "seed-2x2-all.db",
            database_bytes(shape(2, 2), &[0, 1, 2, 3]),
        ),
        ("seed-2x2-blank3.db", database_bytes(shape(2, 2), &[3])),
        ("seed-2x3-blank5.db", database_bytes(shape(2, 3), &[5])),
        ("seed-3x2-blank2.db", database_bytes(shape(3, 2), &[2])),
    ];
    let dir = root.join("open_database");
    std::fs::create_dir_all(&dir)?;
    for (name, bytes) in databases {
        std::fs::write(dir.join(name), bytes)?;
    }
    // Pattern databases, written through the library as `build-db` writes
    // them: a page for the preamble and one per table, plus the header.
    let dir = root.join("open_pattern_database");
    std::fs::create_dir_all(&dir)?;
    let patterns: [(&str, Shape, &str, Vec<Vec<u8>>); 3] = [
        (
            "seed-2x2-2-1.db",
            shape(2, 2),
            "custom",
            vec![vec![1, 2], vec![3]],
        ),
        (
            "seed-2x3-3-2.db",
            shape(2, 3),
            "custom",
            vec![vec![1, 2, 3], vec![4, 5]],
        ),
        ("seed-3x3-4-4.db", Shape::THREE_BY_THREE, "4-4", Vec::new()),
    ];
    for (file, shape, name, groups) in patterns {
        let partition = if groups.is_empty() {
            Partition::named(shape, name)?
        } else {
            Partition::new(shape, groups)?
        };
        let goal_blanks = vec![shape.cells() - 1];
        let plan = Plan::Patterns {
            partition,
            goal_blanks,
        };
        build(&dir.join(file), &plan, &|_, _| {})?;
    }
    // A file with a set for every class of goal blank cells (2x3 has two).
    let plan = Plan::Patterns {
        partition: Partition::new(shape(2, 3), vec![vec![1, 2, 3], vec![4, 5]])?,
        goal_blanks: npuzzle::tables::all_goals(shape(2, 3)),
    };
    build(&dir.join("seed-2x3-3-2-all-goals.db"), &plan, &|_, _| {})?;
    let texts: [(&str, &[&str]); 2] = [
        (
            "parse_board",
            &[
                "867254301",
                "8672543_1",
                "867/254/3.1",
                "8 6 7 / 2 5 4 / 3 0 1",
                "8,6,7,2,5,4,3,0,1",
                "[[8,6,7],[2,5,4],[3,0,1]]",
                "[1,2,3,4,5,6,7,8,9,10,11,0]",
                "1 2 3 4 / 5 6 7 8 / 9 10 11 0",
            ],
        ),
        (
            "batch_line",
            &[
                "123450\n",
                "012453 123450\n",
                "1 2 3 4 5 0\t1,2,3,4,0,5\r\n",
                "[[4,1,3],[0,2,5]];123/045\n213450\n\n12345x\n",
            ],
        ),
    ];
    for (target, seeds) in texts {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        for (i, seed) in seeds.iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{i}")), seed)?;
        }
    }
    Ok(())
}
