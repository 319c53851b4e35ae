//! Pattern-database files: IDA* through a file that was built, written,
//! reopened and mapped, against complete tables; damaged files refused at
//! open or caught by `verify`, never a wrong answer.

use npuzzle::pattern::{DualReach, Partition, PatternDb, SolveOptions};
use npuzzle::raw::{
    bincode_config, check_header, encode_header, entry, Preamble, Ranker, MAGIC, OLD_PATTERN_MAGIC,
    PREAMBLE_LEN,
};
use npuzzle::{build, files::Header, Database, FormatError, PatternTables, Plan};
use npuzzle::{tables::build_table, Board, Cell, Shape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The pattern database of `partition` on `size`, built once per test run
/// into cargo's temporary folder for tests.
pub fn pattern_file(size: &str, partition: &str) -> PathBuf {
    built_file(size, partition, false)
}

/// `partition`'s file on `size` toward the default goal, or with a set for
/// every class of goal blank cells (`all_goals`), built once per test run.
fn built_file(size: &str, partition: &str, all_goals: bool) -> PathBuf {
    static BUILT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    let shape = size.parse::<Shape>().unwrap();
    let name = match all_goals {
        true => format!("{shape}-{partition}-all-goals.db"),
        false => format!("{shape}-{partition}.db"),
    };
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("patterns")
        .join(name);
    if !built.contains(&path) {
        let plan = Plan::Patterns {
            partition: Partition::named(shape, partition).unwrap(),
            goal_blanks: match all_goals {
                true => npuzzle::tables::all_goals(shape),
                false => vec![shape.cells() - 1],
            },
        };
        build(&path, &plan, &|_, _| {}).unwrap();
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
    let db = Database::open(&pattern_file("3x3", "4-4")).unwrap();
    assert!(
        db.complete().is_err(),
        "a pattern file opened as complete tables"
    );
    check_against_complete_table(&db, shape, |ranker| {
        let mut rng = StdRng::seed_from_u64(3);
        let ranks: Vec<u32> = (0..ranker.len() as u32).collect();
        ranks.choose_multiple(&mut rng, 400).copied().collect()
    });
}

/// Solves, through `db`, the positions of `shape` whose ranks `sample`
/// picks from the complete table of the usual goal (blank in the last
/// cell): each solution has the table's length and replays to the goal.
fn check_against_complete_table<B: AsRef<[u8]>>(
    db: &Database<B>,
    shape: Shape,
    sample: impl FnOnce(&Ranker) -> Vec<u32>,
) {
    let blank = shape.cells() - 1;
    let complete = build_table(shape, blank);
    let ranker = Ranker::new(shape, blank);
    let goal = Board::goal(shape);
    for rank in sample(&ranker) {
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
    let db = Database::open(&pattern_file("3x4", "6-5")).unwrap();
    check_against_complete_table(&db, shape, |ranker| {
        let mut rng = StdRng::seed_from_u64(34);
        (0..200)
            .map(|_| rand::Rng::gen_range(&mut rng, 0..ranker.len() as u32))
            .collect()
    });
}

#[test]
fn a_good_file_opens_and_verifies() {
    let db = PatternTables::from_bytes(bytes_of("3x3", "4-4")).unwrap();
    let patterns = vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]];
    assert_eq!(db.header().partition, Some(patterns.clone()));
    assert_eq!(db.partition().patterns(), patterns);
    assert_eq!(db.partition().name(), "4-4");
    assert_eq!(db.header().sets().count(), 1);
    assert_eq!(db.header().tables.len(), 2);
    assert!(db.verify().ok);
    // One magic for both kinds of file.
    assert_eq!(&db.bytes()[..8], &MAGIC);
}

#[test]
fn each_kind_s_reader_refuses_the_other_kind() {
    let err = npuzzle::CompleteTables::from_bytes(bytes_of("3x3", "4-4"))
        .err()
        .unwrap();
    assert!(matches!(err, FormatError::NotComplete { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "the file holds pattern databases for 3x3, not complete tables"
    );
    let complete = std::fs::read(&crate::util::temp_db("2x3").path).unwrap();
    let err = PatternTables::from_bytes(complete).err().unwrap();
    assert!(matches!(err, FormatError::NotPatterns { .. }), "{err}");
}

#[test]
fn flipping_any_header_byte_is_refused_at_open() {
    let good = bytes_of("3x3", "4-4");
    let header = PatternTables::from_bytes(good.clone())
        .unwrap()
        .header_range();
    assert_eq!(header.end, good.len());
    for i in (0..PREAMBLE_LEN).chain(header) {
        let mut bad = good.clone();
        bad[i] ^= 0xFF;
        assert!(
            check_header(&bad).is_err(),
            "flipping byte {i} went unnoticed"
        );
        assert!(Database::from_bytes(bad).is_err(), "byte {i}");
    }
}

#[test]
fn truncated_or_extended_files_are_refused() {
    let good = bytes_of("3x3", "4-4");
    let header_start = PatternTables::from_bytes(good.clone())
        .unwrap()
        .header_range()
        .start;
    let cuts = (0..=PREAMBLE_LEN + 1)
        .chain([4096, 4097, header_start - 1, header_start])
        .chain(header_start + 1..good.len());
    for len in cuts {
        assert!(
            PatternTables::from_bytes(good[..len].to_vec()).is_err(),
            "a file cut to {len} bytes opened"
        );
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(PatternTables::from_bytes(longer).is_err());
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&good);
    assert!(PatternTables::from_bytes(shifted).is_err());
}

#[test]
fn another_version_is_refused_by_name() {
    let mut bad = bytes_of("3x3", "4-4");
    bad[8] = 3;
    let err = PatternTables::from_bytes(bad).err().unwrap();
    assert!(
        matches!(
            err,
            FormatError::Envelope(npuzzle::files::EnvelopeError::Version {
                expected: 7,
                got: 3,
            })
        ),
        "{err}"
    );
    // Version 5 files, which store every pattern's table, and version 6
    // files, which repeat none, are still read.
    for old in [5, 6] {
        let mut bytes = bytes_of("3x3", "4-4");
        bytes[8] = old;
        assert!(PatternTables::from_bytes(bytes).is_ok());
    }
}

/// A flipped table byte keeps the header sound, so the file opens; verify
/// finds it, in every table and at either end.
#[test]
fn a_flipped_table_byte_is_caught_by_verify() {
    let good = bytes_of("3x3", "4-4");
    let db = PatternTables::from_bytes(good.clone()).unwrap();
    let tables = db.header().tables.clone();
    for t in &tables {
        for at in [t.offset, t.offset + t.entries / 2, t.offset + t.entries - 1] {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut bad = good.clone();
                bad[at as usize] ^= flip;
                let db = PatternTables::from_bytes(bad).unwrap();
                let report = db.verify();
                assert!(!report.ok, "byte {at} ^ {flip:#x} passed verify");
                assert!(report.tables.iter().any(|r| !r.checksum_ok));
                // Every fault counted is listed: a table's are few.
                for r in &report.tables {
                    assert_eq!(r.fault_count, r.faults.len() as u64, "{r:?}");
                }
            }
        }
    }
    // Padding too.
    let mut bad = good;
    bad[PREAMBLE_LEN + 5] = 1;
    let report = PatternTables::from_bytes(bad).unwrap().verify();
    assert_eq!(report.nonzero_padding, 1);
}

/// Tables that put the goal away from itself would hide it from every
/// search (each tells the goal by its estimate of 0 before comparing
/// cells): the optimal and the bounded searches refuse them at once, and
/// the command line says how to find and mend the damage.
#[test]
fn tables_that_estimate_the_goal_above_zero_are_called_damaged() {
    use npuzzle::bounded::{solve_within, Guidance, Weight};
    use npuzzle::pattern::{Damage, SolveError};
    use npuzzle::AnswerError;
    let bad = first_table_damaged(|entries| entries.fill(2));
    let db = PatternTables::from_bytes(bad.clone()).unwrap();
    let shape = Shape::THREE_BY_THREE;
    let (start, goal) = (
        npuzzle::parse_board("867254301", shape).unwrap(),
        Board::goal(shape),
    );
    let set = db.set_serving(&goal).unwrap();
    // Searched, the hidden goal would never be found: time would run out.
    let options = SolveOptions {
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(10)),
        ..SolveOptions::default()
    };
    let solved = set.solve_to(&start, &goal, &options);
    assert!(
        matches!(solved, Err(SolveError::DamagedTables { damage: Damage::GoalAway(n) }) if n >= 2),
        "{solved:?}"
    );
    let answer: Result<_, AnswerError> = solved.map_err(Into::into);
    let message = answer.unwrap_err().to_string();
    assert!(
        message.contains("damaged") && message.contains("from itself"),
        "{message}"
    );
    let within = solve_within(
        &start,
        &goal,
        Weight::new(1.5).unwrap(),
        &Guidance::patterns(set),
        &options,
    );
    assert!(
        matches!(
            within,
            Err(SolveError::DamagedTables {
                damage: Damage::GoalAway(_)
            })
        ),
        "{within:?}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.db");
    std::fs::write(&path, &bad).unwrap();
    for args in [
        &["solve", "867254301"][..],
        &["solve", "--within", "1.5", "867254301"],
    ] {
        let out = crate::util::run_query(&path, args, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("damaged") && err.contains("verify") && err.contains("--partition 4-4"),
            "{args:?}: {err}"
        );
    }
}

/// The 3×3 `4-4` file's bytes with its first table's entries changed by
/// `damage`.
fn first_table_damaged(damage: impl FnOnce(&mut [u8])) -> Vec<u8> {
    let mut bytes = bytes_of("3x3", "4-4");
    let first = PatternTables::from_bytes(bytes.clone())
        .unwrap()
        .header()
        .tables[0]
        .clone();
    damage(&mut bytes[first.offset as usize..(first.offset + first.entries) as usize]);
    bytes
}

/// Entries damaged enough to lift an estimate past what the tables'
/// largest entries add up to (every 7th set to 0xFF, as a disk that wrote
/// garbage might) never give a wrong answer: each position searched gets
/// the complete table's distance, or where the search read the damage, a
/// refusal naming it, on the command line too.
#[test]
fn entries_above_the_largest_are_refused_not_searched_through() {
    use npuzzle::pattern::Damage;
    use npuzzle::AnswerError;
    // Not the goal's own entry, whose damage another check names.
    let bad = first_table_damaged(|entries| {
        for entry in entries.iter_mut().skip(1).step_by(7) {
            *entry = 0xFF;
        }
    });
    let db = PatternTables::from_bytes(bad.clone()).unwrap();
    let complete = crate::util::temp_db("3x3");
    let shape = Shape::THREE_BY_THREE;
    let goal = Board::goal(shape);
    let truth = complete.db.goal_table(&goal).unwrap();
    let (mut right, mut refused) = (0, 0);
    // On one thread and split over the pool, whose other walkers stop.
    let split = SolveOptions {
        parallel: true,
        ..SolveOptions::default()
    };
    for (distance, options) in (4..=31)
        .step_by(3)
        .zip([SolveOptions::default(), split].iter().cycle())
    {
        for start in truth.positions_at(distance).take(10) {
            match db.solve(&start, &goal, options) {
                Ok(solution) => {
                    assert_eq!(solution.moves.len() as u32, distance, "{start}");
                    right += 1;
                }
                Err(AnswerError::DamagedPatterns {
                    damage: Damage::AboveLargest { estimate, largest },
                }) => {
                    assert!(estimate > largest && estimate >= 0xFF, "{start}");
                    refused += 1;
                }
                Err(e) => panic!("{start}: {e}"),
            }
        }
    }
    assert!(refused > 0 && right > 0, "{refused} refused, {right} right");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.db");
    std::fs::write(&path, &bad).unwrap();
    let out = crate::util::run_query(&path, &["distance", "867254301"], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("damaged: they estimate a position") && err.contains("verify"),
        "{err}"
    );
}

/// On a sound file, each property verify checks holds table by table.
#[test]
fn verify_reports_what_it_found() {
    let db = PatternTables::from_bytes(bytes_of("3x3", "4-4")).unwrap();
    let report = db.verify();
    assert!(report.ok);
    for t in &report.tables {
        assert!(t.ok && t.checksum_ok, "{t:?}");
        assert_eq!((t.fault_count, t.faults.len()), (0, 0), "{t:?}");
        assert_eq!(t.path_table_checksum_ok, None);
    }
}

/// The 3×3 pattern database of `4-4` with one set per class of goal blank
/// cells (`build-db --all-goals`), built once per test run.
pub fn all_goals_pattern_file() -> PathBuf {
    built_file("3x3", "4-4", true)
}

/// A goal with the blank in `blank` and the tiles in a random order.
fn random_goal(shape: Shape, blank: usize, rng: &mut StdRng) -> Board {
    let mut tiles: Vec<u64> = (1..shape.cells() as u64).collect();
    tiles.shuffle(rng);
    tiles.insert(blank, 0);
    Board::new(shape, &tiles).unwrap()
}

/// Through the all-goals file, goals with the blank in every cell (every
/// class, canonical or with the tiles shuffled) get the complete tables'
/// distances, and the moves replay.
#[test]
fn every_goal_through_an_all_goals_file_matches_the_complete_tables() {
    let shape = Shape::THREE_BY_THREE;
    let db = Database::open(&all_goals_pattern_file()).unwrap();
    let complete = &crate::util::temp_db("3x3").db;
    let mut rng = StdRng::seed_from_u64(13);
    for blank in 0..shape.cells() {
        for goal in [
            Board::canonical_goal(shape, blank),
            random_goal(shape, blank, &mut rng),
        ] {
            let mut solved = 0;
            while solved < 25 {
                let start = random_goal(shape, rand::Rng::gen_range(&mut rng, 0..9), &mut rng);
                let Ok(d) = complete.distance(&start, &goal) else {
                    continue;
                };
                let solution = db.solve(&start, &goal, &SolveOptions::default()).unwrap();
                assert_eq!(solution.moves.len() as u32, d, "{start} to {goal}");
                assert_eq!(start.replay(&solution.moves), Some(goal));
                solved += 1;
            }
        }
    }
}

/// Each set counts toward its own canonical goal: its heuristic is 0 there,
/// and never above the complete table's distance to that goal, over every
/// position of the 3×3 board.
#[test]
fn each_set_of_an_all_goals_file_is_admissible_toward_its_own_goal() {
    let shape = Shape::THREE_BY_THREE;
    let db = Database::open(&all_goals_pattern_file())
        .unwrap()
        .into_patterns()
        .unwrap();
    let blanks: Vec<usize> = db.sets().iter().map(|s| s.goal_blank()).collect();
    assert_eq!(blanks, npuzzle::tables::all_goals(shape));
    let complete = &crate::util::temp_db("3x3").db;
    for set in db.sets() {
        let blank = set.goal_blank();
        let goal = Board::canonical_goal(shape, blank);
        assert_eq!(set.goal(), goal);
        assert_eq!(set.heuristic(&goal), 0);
        let entries = complete.table_entries(complete.table_info(blank).unwrap());
        let ranker = Ranker::new(shape, blank);
        let mut tight = 0;
        for rank in 0..ranker.len() as u32 {
            let board = ranker.unrank(rank);
            let d = entry::distance_field(entries[rank as usize]) as u32;
            let h = set.heuristic(&board);
            assert!(
                h <= d,
                "{board}: heuristic {h} above distance {d} toward {goal}"
            );
            tight += u32::from(h == d);
        }
        // Not a heuristic of zeros: the tables say something.
        assert!(tight > 1000, "blank {blank}: only {tight} exact");
    }
}

/// Every set reads a second partition too, the edge set (blank in cell 7,
/// which no symmetry keeps in place) the patterns' mirror images, from the
/// tables it has. It raises the heuristic (admissible, as the test above
/// checks over every position) and cuts the nodes, with the same lengths.
#[test]
fn an_edge_goal_reads_the_mirrored_patterns_too() {
    let shape = Shape::THREE_BY_THREE;
    let db = Database::open(&all_goals_pattern_file())
        .unwrap()
        .into_patterns()
        .unwrap();
    let edge = db.set_for(7).unwrap();
    assert_eq!(edge.goal_blank(), 7);
    assert!(db.sets().iter().all(|set| set.uses_second_lookup()));
    assert_eq!(edge.tables().len(), edge.partition().patterns().len());
    let copies = edge.tables().iter().map(|t| t.as_ref().to_vec()).collect();
    let direct = PatternDb::toward(edge.partition().clone(), 7, copies).unwrap();
    let direct = direct.with_second_lookup(false);
    let goal = edge.goal();
    let truth = crate::util::plain_bfs(3, 3, goal.cells());
    let mut positions: Vec<&Vec<u8>> = truth.keys().collect();
    positions.sort();
    let mut rng = StdRng::seed_from_u64(7);
    let (mut raised, mut nodes, mut nodes_direct) = (0, 0, 0);
    for cells in positions.choose_multiple(&mut rng, 200) {
        let start =
            Board::new(shape, &cells.iter().map(|&t| t as u64).collect::<Vec<_>>()).unwrap();
        raised += u32::from(edge.heuristic(&start) > direct.heuristic(&start));
        let options = SolveOptions::default();
        let with = edge.solve_to(&start, &goal, &options).unwrap();
        let without = direct.solve_to(&start, &goal, &options).unwrap();
        assert_eq!(with.moves.len() as u32, truth[*cells], "{start}");
        assert_eq!(without.moves.len(), with.moves.len(), "{start}");
        assert_eq!(start.replay(&with.moves), Some(goal));
        (nodes, nodes_direct) = (nodes + with.nodes, nodes_direct + without.nodes);
    }
    assert!(raised > 20, "the second partition raised {raised} of 200");
    assert!(nodes < nodes_direct, "{nodes} nodes against {nodes_direct}");
}

#[test]
fn a_goal_whose_class_has_no_set_is_refused_naming_the_fix() {
    let shape = Shape::THREE_BY_THREE;
    let db = Database::open(&pattern_file("3x3", "4-4")).unwrap();
    let centre = Board::canonical_goal(shape, 4);
    let err = db
        .solve(&Board::goal(shape), &centre, &SolveOptions::default())
        .unwrap_err();
    assert!(
        matches!(
            err,
            npuzzle::AnswerError::MissingGoal { cell, .. } if cell == Cell::of(shape, 4)
        ),
        "{err}"
    );
    assert!(err.to_string().contains("row 2, column 2"), "{err}");
    let out = crate::util::run_query(
        &pattern_file("3x3", "4-4"),
        &["solve", "--goal", "123405678", "867254301"],
        2,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--partition 4-4 --all-goals"), "{stderr}");
    // With how large the rebuilt file grows: about the size it has (its
    // entries, and the header of the file it replaces: a 3x3 file's header
    // is a third of it, and grows with the sets).
    let size = |path: &Path| std::fs::metadata(path).unwrap().len();
    let (now, all) = (
        size(&pattern_file("3x3", "4-4")),
        size(&built_file("3x3", "4-4", true)),
    );
    let said = stderr
        .split_once("(a file of about ")
        .and_then(|(_, rest)| rest.split_once(" kB in place of this one's "))
        .unwrap_or_else(|| panic!("{stderr}"));
    let estimate: f64 = said.0.parse().unwrap();
    assert!(
        (estimate * 1e3 - all as f64).abs() < 0.15 * all as f64,
        "{all}: {stderr}"
    );
    assert!(
        said.1.starts_with(&format!("{:.1} kB)", now as f64 / 1e3)),
        "{now}: {stderr}"
    );
    // A start that cannot reach that goal anyway (two of its tiles
    // swapped) is unsolvable, which needs no table: through pattern
    // tables and a complete table of the same one goal alike.
    let complete = crate::util::temp_db_with_blanks("3x3", &[8]);
    for file in [pattern_file("3x3", "4-4"), complete.path.clone()] {
        let db = Database::open(&file).unwrap();
        let swapped = npuzzle::parse_board("213405678", shape).unwrap();
        let goal = npuzzle::parse_board("123405678", shape).unwrap();
        let err = db
            .solve(&swapped, &goal, &SolveOptions::default())
            .unwrap_err();
        assert!(err.unsolvable().is_some(), "{err}");
        for command in ["solve", "distance"] {
            let out =
                crate::util::run_query(&file, &[command, "--goal", "123405678", "213405678"], 1);
            assert!(String::from_utf8_lossy(&out.stdout).starts_with("unsolvable: "));
        }
    }
    // In batch, said once with the fix; a line that gives no goal gets the
    // error as its answer, and one that gives its own is answered.
    for file in [pattern_file("3x3", "4-4"), complete.path.clone()] {
        let out = crate::util::query(&file)
            .args(["batch", "--goal", "123405678"])
            .write_stdin("867254301\n867254301;123456780\n")
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.matches("--all-goals").count(), 1, "{stderr}");
        assert!(
            stderr.contains("lines that give no goal of their own"),
            "{stderr}"
        );
        let lines = crate::util::json_lines(&out);
        assert!(lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("row 2, column 2"));
        assert_eq!(lines[1]["distance"], 31);
    }
    // The all-goals file answers it (the complete table's distance).
    let all = Database::open(&all_goals_pattern_file()).unwrap();
    let start = npuzzle::parse_board("867254301", shape).unwrap();
    let d = crate::util::temp_db("3x3")
        .db
        .distance(&start, &centre)
        .unwrap();
    assert_eq!(
        all.distance(&start, &centre, &SolveOptions::default())
            .unwrap(),
        d
    );
}

/// Pattern databases of formats 1 and 2 had their own magic: refused by
/// name, whatever their version, and `query` says to rebuild them.
#[test]
fn a_file_of_the_old_pattern_format_is_refused_with_advice_to_rebuild() {
    for version in [1u32, 2] {
        let mut old = bytes_of("3x3", "4-4");
        old[..8].copy_from_slice(&OLD_PATTERN_MAGIC);
        old[8..12].copy_from_slice(&version.to_le_bytes());
        let err = Database::from_bytes(old.clone()).err().unwrap();
        assert!(
            matches!(
                err,
                FormatError::Envelope(npuzzle::files::EnvelopeError::OldPatternFormat { version: v })
                    if v == version
            ),
            "{err}"
        );
        assert!(
            err.to_string().starts_with(&format!(
                "this is a pattern database of an old format (magic \"NPUZPDB\", pattern \
                 format version {version}); this build reads database format version 7"
            )),
            "{err}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        std::fs::write(&path, old).unwrap();
        let out = crate::util::run_query(&path, &["info"], 2);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("an old format"), "{stderr}");
        assert!(stderr.contains("rebuild it with: "), "{stderr}");
    }
}

#[test]
fn info_and_verify_cover_every_set() {
    let path = all_goals_pattern_file();
    let info = crate::util::stdout_of(&crate::util::run_query(&path, &["info"], 0));
    assert!(
        // The centre's two patterns are a half turn of each other: one
        // table. Tiles 1–4's table is the same toward all three blanks.
        info.contains(
            "tables   5 toward 3 of 9 goal blank cells (2 the same as an earlier set's, stored \
             once: same offset)\n"
        ),
        "{info}"
    );
    assert!(
        info.contains("goal 123405678 (blank at row 2, column 2): answers the blank at 2,2"),
        "{info}"
    );
    assert!(info.contains("2,2"), "{info}");
    let v = crate::util::json_answer(&path, &["info", "--json"]);
    let goals = v["goals"].as_array().unwrap();
    let blanks: Vec<&str> = goals
        .iter()
        .map(|s| s["goal_blank"].as_str().unwrap())
        .collect();
    assert_eq!(blanks, ["3,3", "3,2", "2,2"]);
    let sizes: Vec<usize> = goals
        .iter()
        .map(|s| s["answers"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [4, 4, 1]);
    assert_eq!(v["tables"][4]["tiles"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(v["tables"].as_array().unwrap().len(), 5);
    // Tables 2 and 4 (tiles 1–4 toward cells 7 and 4) share table 0's bytes.
    let same_as: Vec<_> = (0..5).map(|i| v["tables"][i]["same_as"].clone()).collect();
    let none = serde_json::Value::Null;
    assert_eq!(
        same_as,
        [none.clone(), none.clone(), 0.into(), none, 0.into()]
    );
    let v = crate::util::json_answer(&path, &["verify", "--json"]);
    assert_eq!(v["ok"], true);
    assert_eq!(v["tables"].as_array().unwrap().len(), 5);
    assert_eq!(v["tables"][4]["goal_blank"], "2,2");

    // A byte of the last set's last table: verify names it and fails.
    let good = std::fs::read(&path).unwrap();
    let db = PatternTables::from_bytes(good.clone()).unwrap();
    let last = db.header().sets().nth(2).unwrap()[0].clone();
    let mut bad = good;
    bad[(last.offset + 7) as usize] ^= 0x40;
    let dir = tempfile::tempdir().unwrap();
    let bad_path = dir.path().join("bad.db");
    std::fs::write(&bad_path, bad).unwrap();
    let out = crate::util::run_query(&bad_path, &["verify"], 2);
    let stdout = crate::util::stdout_of(&out);
    assert!(
        stdout.contains(
            "table of tiles 1 2 3 4 for blank at row 2, column 2: DAMAGED, checksum MISMATCH"
        ),
        "{stdout}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--partition 4-4 --all-goals"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn flipping_any_header_byte_of_an_all_goals_file_is_refused_at_open() {
    let good = std::fs::read(all_goals_pattern_file()).unwrap();
    let header = PatternTables::from_bytes(good.clone())
        .unwrap()
        .header_range();
    for i in (0..PREAMBLE_LEN).chain(header) {
        let mut bad = good.clone();
        bad[i] ^= 0xFF;
        assert!(check_header(&bad).is_err(), "byte {i}");
    }
}

/// The file `good` with its header replaced by `change` of it, and the
/// preamble's length and checksum made to match: only the header's own
/// consistency checks stand between it and a reader.
fn with_header(good: &[u8], change: impl FnOnce(&mut Header)) -> Vec<u8> {
    let db = PatternTables::from_bytes(good.to_vec()).unwrap();
    let mut header = db.header().clone();
    change(&mut header);
    let bytes = encode_header(&header);
    let preamble = Preamble::of(&bytes);
    let preamble = bincode::encode_to_vec(preamble, bincode_config()).unwrap();
    let mut file = good[..db.header_range().start].to_vec();
    file[..PREAMBLE_LEN].copy_from_slice(&preamble);
    file.extend_from_slice(&bytes);
    file
}

/// Headers whose checksum matches but whose sets contradict each other,
/// the partition or the layout are refused by name. The all-goals file's
/// tables: set 0 (cell 8) tables 0 and 1, set 1 (cell 7) tables 2 and 3,
/// set 2 (cell 4) table 4 (its other pattern reads that table through a
/// half turn). Tables 2 and 4 (tiles 1–4, in the top row and the left of
/// the middle one toward each of these blanks) repeat table 0.
#[test]
fn inconsistent_sets_are_refused_at_open() {
    let good = std::fs::read(all_goals_pattern_file()).unwrap();
    assert!(PatternTables::from_bytes(with_header(&good, |_| {})).is_ok());
    for (change, expected, variant) in inconsistent_headers() {
        let err = PatternTables::from_bytes(with_header(&good, change))
            .err()
            .expect(expected);
        assert!(format!("{err:?}").starts_with(variant), "{err:?}");
        let err = err.to_string();
        assert!(err.contains(expected), "{err}");
        assert!(err.starts_with("the header is inconsistent: "), "{err}");
    }
}

type Change = fn(&mut Header);

/// Changes of the all-goals file's header, each with a part of its message
/// and the start of its variant.
fn inconsistent_headers() -> Vec<(Change, &'static str, &'static str)> {
    [inconsistent_sets(), inconsistent_tables()].concat()
}

/// Changes of the sets and the partition.
fn inconsistent_sets() -> Vec<(Change, &'static str, &'static str)> {
    vec![
        (|h| h.tables.clear(), "it lists no tables", "NoTables"),
        (
            |h| h.tables[2..4].iter_mut().for_each(|t| t.goal_blank = 9),
            "table 0 of set 1 has its goal blank in cell 9",
            "BlankOutside { at: TableAt { set: Some(1), table: 0 }",
        ),
        // Cell 6 is a corner, as is set 0's cell 8.
        (
            |h| h.tables[4..].iter_mut().for_each(|t| t.goal_blank = 6),
            "sets 0 and 2 serve the same goal blank cells",
            "SameClass { first: 0, second: 2",
        ),
        (
            |h| h.tables.swap(2, 3),
            "the tables of set 1 are not for the same patterns",
            "OtherPatterns { set: 1, patterns: 2, stored: 2 }",
        ),
        (
            |h| h.tables[4].tiles.reverse(),
            "the tables of set 2 are not for the same patterns",
            "OtherPatterns { set: 2,",
        ),
        (
            |h| h.partition.as_mut().unwrap().reverse(),
            "the tables of set 0 are not for the same patterns",
            "OtherPatterns { set: 0,",
        ),
        (
            |h| {
                // Tile 9 is not on a 3x3 board, in the partition and its tables alike.
                let mut patterns = h.partition.clone().unwrap();
                patterns[1][3] = 9;
                for (i, t) in h.tables.iter_mut().enumerate() {
                    t.tiles = patterns[i % 2].clone();
                }
                h.partition = Some(patterns);
            },
            "tile 9",
            "Partition(",
        ),
    ]
}

/// Changes of one table's description.
fn inconsistent_tables() -> Vec<(Change, &'static str, &'static str)> {
    vec![
        (
            |h| {
                h.tables[1].path_table = Some(npuzzle::files::PathTableInfo {
                    offset: 0,
                    checksum: 0,
                })
            },
            "table 1 of set 0 has a path table, but pattern tables have none",
            "PatternPathTable { at: TableAt { set: Some(0), table: 1 }",
        ),
        (
            |h| h.tables[3].entries += 1,
            "table 1 of set 1 has 3025 entries, expected 3024 (one per placement of its 4 tiles)",
            "Entries { at: TableAt { set: Some(1), table: 1 }, expected: 3024, got: 3025",
        ),
        (
            |h| {
                let t = &mut h.tables[2];
                t.max_distance = 255;
                t.counts.resize(256, 0);
            },
            "table 0 of set 1 has maximum distance 255, the mark of entries never reached",
            "MaxDistance { at: TableAt { set: Some(1), table: 0 }",
        ),
        (
            |h| h.tables[4].max_distance += 1,
            "table 0 of set 2 has maximum distance",
            "CountsLength { at: TableAt { set: Some(2), table: 0 }",
        ),
        (
            |h| h.tables[0].counts[1] += 1,
            "the counts of table 0 of set 0 do not add up to its 3024 entries",
            "CountsTotal { at: TableAt { set: Some(0), table: 0 }",
        ),
        (
            |h| h.tables[0].unreached += 1,
            "the counts of table 0 of set 0 do not add up",
            "CountsTotal { at: TableAt { set: Some(0), table: 0 }",
        ),
        (
            |h| {
                let (a, b) = (h.tables[1].offset, h.tables[3].offset);
                h.tables[1].offset = b;
                h.tables[3].offset = a;
            },
            "the table of table 1 of set 0 starts at",
            "SectionOffset { at: TableAt { set: Some(0), table: 1 }",
        ),
        (
            |h| h.tables[2].offset = h.tables[1].offset,
            "table 0 of set 1 starts where table 1 of set 0 does, but is not the same table \
             (its size, counts or checksum differ)",
            "NotARepeat { at: TableAt { set: Some(1), table: 0 }",
        ),
        (
            |h| {
                // The same bytes described, but toward another goal: tiles
                // 5–8 toward cell 7 are not where they are toward cell 8.
                let (goal_blank, tiles) = (h.tables[3].goal_blank, h.tables[3].tiles.clone());
                h.tables[3] = npuzzle::files::TableInfo {
                    goal_blank,
                    tiles,
                    ..h.tables[1].clone()
                };
            },
            "table 1 of set 1 starts where table 1 of set 0 does, but is not the same table \
             (its tiles' goal cells or its goal blank's region differ)",
            "NotARepeat { at: TableAt { set: Some(1), table: 1 }",
        ),
        // Without its partition, the file reads as complete tables, which
        // list no tiles.
        (
            |h| h.partition = None,
            "table 0 lists tiles, but the file has no partition",
            "TilesInComplete { at: TableAt { set: None, table: 0 }",
        ),
    ]
}

/// A 5×5 file (small tables) is refused like every other file: any header
/// byte flipped or the file cut short at open, a flipped table byte by
/// verify; and the sound file opens and verifies.
#[test]
fn corrupt_five_by_five_files_are_refused() {
    let good = bytes_of("5x5", "4-4-4-4-4-4");
    let db = PatternTables::from_bytes(good.clone()).unwrap();
    assert_eq!(db.shape(), Shape::new(5, 5).unwrap());
    assert!(db.verify().ok);
    let header = db.header_range();
    for i in (0..PREAMBLE_LEN).chain(header.clone()) {
        let mut bad = good.clone();
        bad[i] ^= 0xFF;
        assert!(
            Database::from_bytes(bad).is_err(),
            "flipping byte {i} went unnoticed"
        );
    }
    for cut in [
        0,
        PREAMBLE_LEN,
        4096,
        header.start - 1,
        header.start,
        good.len() - 1,
    ] {
        assert!(
            PatternTables::from_bytes(good[..cut].to_vec()).is_err(),
            "cut at {cut}"
        );
    }
    for t in &db.header().tables {
        let mut bad = good.clone();
        bad[(t.offset + t.entries / 2) as usize] ^= 0x40;
        assert!(!PatternTables::from_bytes(bad).unwrap().verify().ok);
    }
}

/// `PatternTables::estimate` is a lower bound both ways: toward the goal,
/// and from the goal back to the start (the dual lookup, through the set of
/// the start's blank), on random 3×3 positions and goals against the
/// complete tables; and the dual says more than the direct lookup at some.
#[test]
fn estimates_both_ways_never_exceed_the_distance() {
    let shape = Shape::THREE_BY_THREE;
    let db = Database::open(&all_goals_pattern_file()).unwrap();
    let tables = db.patterns().unwrap();
    let complete = &crate::util::temp_db("3x3").db;
    let mut rng = StdRng::seed_from_u64(22);
    let (mut checked, mut dual_higher) = (0, 0);
    for round in 0..4000 {
        let goal = if round % 2 == 0 {
            Board::goal(shape)
        } else {
            random_goal(shape, rand::Rng::gen_range(&mut rng, 0..9), &mut rng)
        };
        let start = random_goal(shape, rand::Rng::gen_range(&mut rng, 0..9), &mut rng);
        let Ok(distance) = complete.distance(&start, &goal) else {
            continue; // unsolvable
        };
        let direct = tables.estimate(&start, &goal).unwrap();
        let dual = tables.estimate(&goal, &start).unwrap();
        assert!(
            direct <= distance && dual <= distance,
            "{start} → {goal}: {direct}, {dual} > {distance}"
        );
        if start == goal {
            assert_eq!((direct, dual), (0, 0));
        }
        checked += 1;
        dual_higher += usize::from(dual > direct);
    }
    assert!(
        checked > 1500 && dual_higher > checked / 20,
        "{checked} {dual_higher}"
    );
    // A file with the default goal's set alone has no dual for most starts.
    let one_set = Database::open(&pattern_file("3x3", "4-4")).unwrap();
    let goal = Board::goal(shape);
    let middle = Board::canonical_goal(shape, 4);
    let refused = one_set.patterns().unwrap().estimate(&goal, &middle);
    assert!(
        matches!(refused, Err(npuzzle::AnswerError::MissingGoal { .. })),
        "{refused:?}"
    );
}

/// A file's search reads the dual lookup at the goal blank's class of
/// cells, or wherever a set serves the blank: through a file with every
/// class's set (3×3 and 3×4) and one with the default goal's, the same
/// lengths as the set's search without it (the complete tables' on 3×3),
/// every solution replayed, and fewer nodes in all.
#[test]
fn the_search_through_a_file_reads_the_dual_lookup() {
    let shape = Shape::THREE_BY_THREE;
    let complete = &crate::util::temp_db("3x3").db;
    let files = [
        (shape, all_goals_pattern_file()),
        (shape, pattern_file("3x3", "4-4")),
        (Shape::new(3, 4).unwrap(), built_file("3x4", "6-5", true)),
    ];
    let mut rng = StdRng::seed_from_u64(46);
    for (shape, path) in files {
        let db = Database::open(&path).unwrap();
        let tables = db.patterns().unwrap();
        let options = SolveOptions::default();
        let (mut nodes, mut solved) = ([0; 3], 0);
        while solved < 60 {
            let goal = match solved % 3 {
                0 => Board::goal(shape),
                _ => {
                    let corner = [0, shape.cells() - 1][solved % 2];
                    random_goal(shape, corner, &mut rng)
                }
            };
            let blank = rand::Rng::gen_range(&mut rng, 0..shape.cells());
            let start = random_goal(shape, blank, &mut rng);
            if npuzzle::rules::solvability::check(&start, &goal).is_err() {
                continue;
            }
            let d = match shape.cells() {
                9 => complete.distance(&start, &goal).unwrap() as usize,
                _ => (tables.solve_reading(&start, &goal, DualReach::None, &options))
                    .unwrap()
                    .moves
                    .len(),
            };
            let reaches = [DualReach::None, DualReach::GoalClass, DualReach::Everywhere];
            for (k, reach) in reaches.into_iter().enumerate() {
                let solution = tables
                    .solve_reading(&start, &goal, reach, &options)
                    .unwrap();
                assert_eq!(solution.moves.len(), d, "{start} to {goal}, {reach:?}");
                assert_eq!(start.replay(&solution.moves), Some(goal));
                nodes[k] += solution.nodes;
            }
            let default = tables.solve(&start, &goal, &options).unwrap();
            assert_eq!(default.moves.len(), d, "{start} to {goal}");
            solved += 1;
        }
        let file = path.display();
        assert!(nodes[1] < nodes[0], "{file}: {nodes:?}");
        assert!(nodes[2] <= nodes[1], "{file}: {nodes:?}");
    }
}
