//! Pattern-database files: IDA* through a file that was built, written,
//! reopened and mapped, against complete tables; damaged files refused at
//! open or caught by `verify`, never a wrong answer.

use npuzzle::pattern::{
    build_pattern_database, check_pattern_header, verify_patterns, AnyDatabase, Partition,
    PatternDatabase, PatternFormatError, SolveOptions, PATTERN_MAGIC,
};
use npuzzle::raw::{entry, Ranker, PREAMBLE_LEN};
use npuzzle::{build_table, Board, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The pattern database of `partition` on `size`, built once per test run
/// into cargo's temporary folder for tests.
pub fn pattern_file(size: &str, partition: &str) -> PathBuf {
    static BUILT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    let shape = Shape::parse_for_search(size).unwrap();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("patterns")
        .join(format!("{shape}-{partition}.db"));
    if !built.contains(&path) {
        let p = Partition::named(shape, partition).unwrap();
        build_pattern_database(&path, &p, partition, &|_, _| {}).unwrap();
        built.push(path.clone());
    }
    path
}

fn bytes_of(size: &str, partition: &str) -> Vec<u8> {
    std::fs::read(pattern_file(size, partition)).unwrap()
}

/// Every 3×3 position at each of a spread of distances, solved through the
/// mapped 4-4 file, has the complete table's distance, and its moves replay.
#[test]
fn three_by_three_through_the_file_matches_the_complete_table() {
    let shape = Shape::THREE_BY_THREE;
    let db = match AnyDatabase::open(&pattern_file("3x3", "4-4")).unwrap() {
        AnyDatabase::Pattern(db) => db,
        AnyDatabase::Complete(_) => panic!("a pattern file opened as complete tables"),
    };
    let complete = build_table(shape, 8);
    let ranker = Ranker::new(shape, 8);
    let goal = Board::goal(shape);
    let mut rng = StdRng::seed_from_u64(3);
    let ranks: Vec<u32> = (0..ranker.len() as u32).collect();
    for &rank in ranks.choose_multiple(&mut rng, 400) {
        let start = ranker.unrank(rank);
        let d = entry::distance_field(complete.entries[rank as usize]) as usize;
        let solution = db.solve(&start, &goal, &SolveOptions::default()).unwrap();
        assert_eq!(solution.moves.len(), d, "{start}");
        assert_eq!(start.replay(&solution.moves), Some(goal));
    }
}

/// A 3×4 sample through the 6-5 file: release builds only (a 12-cell
/// complete table).
#[test]
#[ignore = "builds a 12-cell complete table; run in release"]
fn three_by_four_through_the_file_matches_the_complete_table() {
    let shape = Shape::new(3, 4).unwrap();
    let db = PatternDatabase::open(&pattern_file("3x4", "6-5")).unwrap();
    let complete = build_table(shape, 11);
    let ranker = Ranker::new(shape, 11);
    let goal = Board::goal(shape);
    let mut rng = StdRng::seed_from_u64(34);
    for _ in 0..200 {
        let rank = rand::Rng::gen_range(&mut rng, 0..ranker.len() as u32);
        let start = ranker.unrank(rank);
        let d = entry::distance_field(complete.entries[rank as usize]) as usize;
        let solution = db.solve(&start, &goal, &SolveOptions::default()).unwrap();
        assert_eq!(solution.moves.len(), d, "{start}");
        assert_eq!(start.replay(&solution.moves), Some(goal));
    }
}

#[test]
fn a_good_file_opens_and_verifies() {
    let db = PatternDatabase::from_bytes(bytes_of("3x3", "4-4")).unwrap();
    assert_eq!(db.header().partition, "4-4");
    assert_eq!(db.header().tables.len(), 2);
    assert!(verify_patterns(&db).is_ok());
    assert_eq!(&db.bytes()[..8], &PATTERN_MAGIC);
}

#[test]
fn complete_table_readers_refuse_a_pattern_file() {
    let err = npuzzle::Database::from_bytes(bytes_of("3x3", "4-4"))
        .err()
        .unwrap();
    assert!(
        matches!(
            err,
            npuzzle::FormatError::Envelope(npuzzle::EnvelopeError::Magic { .. })
        ),
        "{err}"
    );
}

#[test]
fn flipping_any_header_byte_is_refused_at_open() {
    let good = bytes_of("3x3", "4-4");
    let header = PatternDatabase::from_bytes(good.clone())
        .unwrap()
        .header_range();
    assert_eq!(header.end, good.len());
    for i in (0..PREAMBLE_LEN).chain(header) {
        let mut bad = good.clone();
        bad[i] ^= 0xFF;
        assert!(
            check_pattern_header(&bad).is_err(),
            "flipping byte {i} went unnoticed"
        );
        assert!(AnyDatabase::from_bytes(bad).is_err(), "byte {i}");
    }
}

#[test]
fn truncated_or_extended_files_are_refused() {
    let good = bytes_of("3x3", "4-4");
    let header_start = PatternDatabase::from_bytes(good.clone())
        .unwrap()
        .header_range()
        .start;
    let cuts = (0..=PREAMBLE_LEN + 1)
        .chain([4096, 4097, header_start - 1, header_start])
        .chain(header_start + 1..good.len());
    for len in cuts {
        assert!(
            PatternDatabase::from_bytes(good[..len].to_vec()).is_err(),
            "a file cut to {len} bytes opened"
        );
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(PatternDatabase::from_bytes(longer).is_err());
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&good);
    assert!(PatternDatabase::from_bytes(shifted).is_err());
}

#[test]
fn another_version_is_refused_by_name() {
    let mut bad = bytes_of("3x3", "4-4");
    bad[8] = 2;
    let err = PatternDatabase::from_bytes(bad).err().unwrap();
    assert!(
        matches!(
            err,
            PatternFormatError::Envelope(npuzzle::EnvelopeError::Version {
                expected: 1,
                got: 2,
                ..
            })
        ),
        "{err}"
    );
}

/// A flipped table byte keeps the header sound, so the file opens; verify
/// finds it, in every table and at either end.
#[test]
fn a_flipped_table_byte_is_caught_by_verify() {
    let good = bytes_of("3x3", "4-4");
    let db = PatternDatabase::from_bytes(good.clone()).unwrap();
    let tables = db.header().tables.clone();
    for t in &tables {
        for at in [
            t.offset,
            t.offset + t.placements / 2,
            t.offset + t.placements - 1,
        ] {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut bad = good.clone();
                bad[at as usize] ^= flip;
                let db = PatternDatabase::from_bytes(bad).unwrap();
                let report = verify_patterns(&db);
                assert!(!report.is_ok(), "byte {at} ^ {flip:#x} passed verify");
                assert!(report.tables.iter().any(|r| !r.checksum_ok));
            }
        }
    }
    // Padding too.
    let mut bad = good;
    bad[PREAMBLE_LEN + 5] = 1;
    let report = verify_patterns(&PatternDatabase::from_bytes(bad).unwrap());
    assert_eq!(report.nonzero_padding, 1);
}

/// On a sound file, each property verify checks holds table by table.
#[test]
fn verify_reports_what_it_found() {
    let db = PatternDatabase::from_bytes(bytes_of("3x3", "4-4")).unwrap();
    let report = verify_patterns(&db);
    for t in &report.tables {
        assert_eq!(t.goal_entry, 0);
        assert_eq!(t.out_of_range, 0);
        assert!(t.count_mismatches.is_empty());
    }
}
