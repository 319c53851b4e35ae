//! Damaged, truncated and foreign files: refused at open when the header is
//! touched, caught by `verify` when only table bytes are, and never a panic
//! or a wrong move sequence.

use npuzzle::files::Header;
use npuzzle::raw::{bincode_config, Preamble, PREAMBLE_LEN};
use npuzzle::{AnswerError, Board, CompleteTables, FormatError};

fn small_db_bytes() -> Vec<u8> {
    std::fs::read(&crate::util::temp_db("2x3").path).unwrap()
}

fn open(bytes: Vec<u8>) -> Result<CompleteTables<Vec<u8>>, FormatError> {
    CompleteTables::from_bytes(bytes)
}

#[test]
fn a_good_file_opens() {
    let db = open(small_db_bytes()).unwrap();
    assert_eq!(db.header().tables.len(), 6);
    assert!(db.verify().ok);
}

#[test]
fn flipping_any_header_byte_is_refused_at_open() {
    let good = small_db_bytes();
    let header = open(good.clone()).unwrap().header_range();
    assert_eq!(header.end, good.len());
    for i in (0..PREAMBLE_LEN).chain(header) {
        let mut bad = good.clone();
        bad[i] ^= 0xFF;
        assert!(open(bad).is_err(), "flipping byte {i} went unnoticed");
    }
}

#[test]
fn truncated_or_extended_files_are_refused() {
    let good = small_db_bytes();
    let db = open(good.clone()).unwrap();
    let mut cuts: Vec<usize> = (0..=PREAMBLE_LEN + 1).chain(db.header_range()).collect();
    for t in &db.header().tables {
        assert!(
            t.path_table.is_some(),
            "2x3 files have path tables by default"
        );
        for (_, start, len) in t.sections() {
            let (start, len) = (start as usize, len as usize);
            cuts.extend([
                start - 1,
                start,
                start + 1,
                start + len / 2,
                start + len - 1,
            ]);
        }
    }
    for cut in cuts {
        assert!(
            open(good[..cut].to_vec()).is_err(),
            "cut at {cut} went unnoticed"
        );
    }
    // The header is the file's last bytes, so an extra byte shifts it.
    let mut longer = good.clone();
    longer.push(0);
    let err = open(longer)
        .err()
        .expect("an extended file is refused")
        .to_string();
    assert!(err.contains("truncated or has extra bytes"), "{err}");
}

#[test]
fn damaged_tables_open_but_verify_catches_them_and_solve_never_lies() {
    let good = small_db_bytes();
    let db = open(good.clone()).unwrap();
    let shape = db.shape();
    let goal = Board::goal(shape);
    let starts: Vec<Board> = (0..=21)
        .flat_map(|d| {
            db.goal_table(&goal)
                .unwrap()
                .positions_at(d)
                .collect::<Vec<_>>()
        })
        .collect();
    let table = db.table_info(goal.blank()).unwrap().clone();
    for (k, flip) in [
        (0usize, 0x01u8),
        (1, 0x40),
        (100, 0xFF),
        (359, 0x80),
        (200, 0x3F),
    ] {
        let mut bad = good.clone();
        bad[table.offset as usize + k] ^= flip;
        let db = open(bad).expect("table bytes are not the header's business");
        let report = db.verify();
        assert!(
            !report.ok,
            "flipping table byte {k} went unnoticed by verify"
        );
        let target = db.goal_table(&goal).unwrap();
        for start in &starts {
            let mut moves = Vec::new();
            match target.solve_into(start, &mut moves) {
                Ok(_) => assert_eq!(start.replay(&moves), Some(goal), "{start}"),
                Err(AnswerError::Corrupt { .. }) => {}
                Err(e) => panic!("{start}: {e}"),
            }
        }
    }
}

/// A damaged word gives an error or the right answer, never a wrong one:
/// the moves it spells are replayed, and must end on the goal after exactly
/// the start's distance.
#[test]
fn damaged_path_tables_are_caught_and_solve_never_lies() {
    let good = small_db_bytes();
    let db = open(good.clone()).unwrap();
    let goal = Board::goal(db.shape());
    let target = db.goal_table(&goal).unwrap();
    let truth: Vec<(Board, u32)> = (0..=21)
        .flat_map(|d| target.positions_at(d).map(move |b| (b, d)))
        .collect();
    let paths = db.table_info(goal.blank()).unwrap().path_table.unwrap();
    let mut corrupt = 0;
    for (rank, byte, flip) in [
        (0usize, 0usize, 0x01u8),
        (7, 0, 0x02),
        (100, 3, 0xFF),
        (359, 7, 0x80),
        (200, 1, 0x10),
        (250, 0, 0x0C),
    ] {
        let mut bad = good.clone();
        bad[paths.offset as usize + rank * 8 + byte] ^= flip;
        let db = open(bad).unwrap();
        assert!(
            !db.verify().ok,
            "flipping path word {rank} went unnoticed by verify"
        );
        let target = db.goal_table(&goal).unwrap();
        for (start, d) in &truth {
            let mut moves = Vec::new();
            match target.solve_into(start, &mut moves) {
                Ok(n) => {
                    assert_eq!(n, *d, "{start}");
                    assert_eq!(start.replay(&moves), Some(goal), "{start}");
                }
                Err(AnswerError::Corrupt { .. }) => corrupt += 1,
                Err(e) => panic!("{start}: {e}"),
            }
        }
    }
    assert!(corrupt > 0, "no damaged word was ever caught by solve");
}

#[test]
fn damaged_padding_is_reported_by_verify() {
    let mut bad = small_db_bytes();
    bad[PREAMBLE_LEN + 5] = 1;
    let db = open(bad).unwrap();
    assert_eq!(db.verify().nonzero_padding, 1);
}

#[test]
fn foreign_files_get_their_own_messages() {
    let cases: [(&[u8], &str); 5] = [
        (b"", "the file is 0 bytes long, too short to be a database"),
        (b"x", "the file is 1 byte long, too short to be a database"),
        (b"hello", "the file is 5 bytes long"),
        (
            b"\x89PNG\r\n\x1a\n0000000000000000",
            "not an npuzzle database: expected magic bytes",
        ),
        (&[0u8; 4096], "not an npuzzle database"),
    ];
    for (bytes, message) in cases {
        let err = open(bytes.to_vec()).err().unwrap().to_string();
        assert!(err.starts_with(message), "{err}");
    }
}

type HeaderChange = dyn FnOnce(&mut Preamble, &mut Header);

/// Re-encodes a file with a changed header and a valid header checksum, as
/// a buggy or malicious writer would.
fn with_header(good: &[u8], change: Box<HeaderChange>) -> Vec<u8> {
    let (mut preamble, _): (Preamble, _) =
        bincode::decode_from_slice(&good[..PREAMBLE_LEN], bincode_config()).unwrap();
    let header_start = good.len() - preamble.header_len as usize;
    let header_bytes = &good[header_start..];
    let (mut header, _): (Header, _) =
        bincode::decode_from_slice(header_bytes, bincode_config()).unwrap();
    change(&mut preamble, &mut header);
    let new_header = bincode::encode_to_vec(&header, bincode_config()).unwrap();
    preamble.header_len = new_header.len() as u32;
    preamble.header_crc = crc32fast::hash(&new_header);
    let mut out = bincode::encode_to_vec(preamble, bincode_config()).unwrap();
    out.extend_from_slice(&good[PREAMBLE_LEN..header_start]);
    out.extend_from_slice(&new_header);
    out
}

#[test]
fn another_version_is_refused_by_name() {
    // 3: complete tables before pattern databases shared the format; 4:
    // before the header recorded the metric; 8: a newer build's.
    for version in [1, 3, 4, 8] {
        let bad = with_header(&small_db_bytes(), Box::new(move |p, _| p.version = version));
        assert_eq!(
            open(bad).err().unwrap().to_string(),
            format!(
                "database format version {version} is not supported: this build reads versions \
                 5 to 7"
            )
        );
    }
    // A version no npuzzle writes is damage, not a newer build's file.
    let bad = with_header(&small_db_bytes(), Box::new(|p, _| p.version = 4228060747));
    assert_eq!(
        open(bad).err().unwrap().to_string(),
        "the preamble is damaged: 4228060747 is no format version of npuzzle's (this build reads \
         versions 5 to 7)"
    );
}

#[test]
fn headers_with_a_valid_checksum_but_impossible_contents_are_refused() {
    let good = small_db_bytes();
    for (change, message, variant) in impossible_headers() {
        let err = open(with_header(&good, change)).err().expect(message);
        assert!(format!("{err:?}").starts_with(variant), "{err:?}");
        let err = err.to_string();
        assert!(err.starts_with("the header is inconsistent: "), "{err}");
        assert!(err.contains(message), "{err}");
    }
}

type Case = (Box<HeaderChange>, &'static str, &'static str);

/// Changes of the 2x3 file's header, each with a part of its message and
/// the start of its variant.
fn impossible_headers() -> Vec<Case> {
    let mut cases = layout_changes();
    cases.extend(content_changes());
    cases
}

/// Changes of where sections are and how large.
fn layout_changes() -> Vec<Case> {
    vec![
        (
            Box::new(|_, h| h.tables[1].offset += 4096),
            "the table of table 1 starts at",
            "SectionOffset { at: TableAt { set: None, table: 1 }, section: \"table\"",
        ),
        (
            Box::new(|_, h| h.tables[1].path_table.as_mut().unwrap().offset -= 4096),
            "the path table of table 1 starts at",
            "SectionOffset { at: TableAt { set: None, table: 1 }, section: \"path table\"",
        ),
        (
            Box::new(|_, h| h.tables[1].offset = h.tables[0].offset),
            "table 1 starts where table 0 does, but is not the same table (only pattern tables repeat)",
            "NotARepeat { at: TableAt { set: None, table: 1 }",
        ),
        (
            Box::new(|_, h| h.tables[0].path_table = None),
            "the table of table 1 starts at",
            "SectionOffset { at: TableAt { set: None, table: 1 }, section: \"table\"",
        ),
        (
            Box::new(|_, h| {
                let t = &mut h.tables[0];
                t.counts.resize(64, 0);
                t.max_distance = 63;
            }),
            "table 0 has a path table, but its distances reach 63",
            "PathTableTooFar { at: TableAt { set: None, table: 0 }, max_distance: 63",
        ),
        (
            Box::new(|_, h| h.tables[0].entries = 1 << 40),
            "table 0 has 1099511627776 entries, expected 360 (one per position of a 2x3 board)",
            "Entries { at: TableAt { set: None, table: 0 }, expected: 360, got: 1099511627776",
        ),
        // Found by fuzzing: offsets must not be added up before the sizes
        // are known to be sane.
        (
            Box::new(|_, h| h.tables[1].entries = u64::MAX),
            "table 1 has 18446744073709551615 entries",
            "Entries { at: TableAt { set: None, table: 1 }, expected: 360, got: 18446744073709551615",
        ),
    ]
}

/// Changes of what the tables say.
fn content_changes() -> Vec<Case> {
    vec![
        (
            Box::new(|_, h| h.tables[2].goal_blank = 9),
            "table 2 has its goal blank in cell 9",
            "BlankOutside { at: TableAt { set: None, table: 2 }, blank: 9",
        ),
        (
            Box::new(|_, h| h.tables[3].goal_blank = h.tables[0].goal_blank),
            "two tables have their blank in cell 0",
            "DuplicateBlank { blank: 0 }",
        ),
        (
            Box::new(|_, h| h.tables[0].counts[3] += 1),
            "the counts of table 0 do not add up",
            "CountsTotal { at: TableAt { set: None, table: 0 },",
        ),
        // Complete tables reach every position.
        (
            Box::new(|_, h| h.tables[4].unreached = 1),
            "the counts of table 4 do not add up",
            "CountsTotal { at: TableAt { set: None, table: 4 },",
        ),
        (
            Box::new(|_, h| h.tables[0].max_distance = 63),
            "table 0 has maximum distance 63",
            "CountsLength { at: TableAt { set: None, table: 0 }, max_distance: 63",
        ),
        (
            Box::new(|_, h| h.tables[5].tiles = vec![1, 2]),
            "table 5 lists tiles, but the file has no partition",
            "TilesInComplete { at: TableAt { set: None, table: 5 } }",
        ),
        // With a partition, the tables read as pattern tables, which do
        // list their tiles.
        (
            Box::new(|_, h| h.partition = Some(vec![vec![1, 2, 3, 4, 5]])),
            "table 0 of set 0 has a path table, but pattern tables have none",
            "PatternPathTable { at: TableAt { set: Some(0), table: 0 } }",
        ),
        (
            Box::new(|_, h| h.tables.clear()),
            "it lists no tables",
            "NoTables",
        ),
        (
            Box::new(|_, h| h.cols = 9),
            "a 2x9 board has 18 cells",
            "Board(",
        ),
        (
            Box::new(|_, h| h.rows = 0),
            "a 0x3 board is too small",
            "Board(",
        ),
    ]
}

/// The damage `solve` cannot see without path tables: a position's own
/// entry claiming two moves more, with a move to a neighbour that really is
/// one step farther. Every stored move still leads one step down from
/// there, so the answer replays (only longer); `verify` names the entry,
/// since a neighbour is closer than its distance allows. With a path table
/// the start's word holds only the true moves, so `solve` sees it too.
#[test]
fn verify_names_an_entry_that_claims_a_longer_distance() {
    for paths in [false, true] {
        let good = std::fs::read(crate::util::temp_db_built("2x3", &[5], paths).path).unwrap();
        let db = open(good.clone()).unwrap();
        let goal = Board::goal(db.shape());
        let target = db.goal_table(&goal).unwrap();
        let ranker = *target.ranker();
        // A position at 5 and a neighbour at 6 whose own way down avoids it.
        let (rank, m) = target
            .ranks_within(5..=5)
            .find_map(|rank| {
                let position = ranker.cursor_at(rank);
                npuzzle::Move::ALL.into_iter().find_map(|m| {
                    let next = ranker.step(&position, m)?;
                    let down =
                        npuzzle::raw::entry::next_move(target.entries()[next.rank() as usize]);
                    let avoids = ranker.step(&next, down)?.rank() != rank;
                    (target.distance_at(next.rank()) == Ok(6) && avoids).then_some((rank, m))
                })
            })
            .unwrap();
        let offset = db.table_info(goal.blank()).unwrap().offset as usize;
        let mut bad = good.clone();
        bad[offset + rank as usize] = npuzzle::raw::entry::encode(7, m);
        let db = open(bad).unwrap();
        let start = db.goal_table(&goal).unwrap().board_at(rank);
        let solved = db.solve(&start, &goal);
        if paths {
            assert_eq!(solved, Err(AnswerError::Corrupt { rank }));
        } else {
            let moves = solved.unwrap();
            assert_eq!((moves.len(), start.replay(&moves)), (7, Some(goal)));
        }
        let report = db.verify();
        let table = report
            .tables
            .iter()
            .find(|t| t.goal_blank == npuzzle::Cell::of(goal.shape(), goal.blank()))
            .unwrap();
        assert!(
            table
                .faults
                .iter()
                .any(|f| f.starts_with(&format!("rank {rank} ("))),
            "{:?}",
            table.faults
        );
    }
}

/// A start entry whose distance field alone is damaged: with a path table,
/// every wrong value is caught, including those that a word padded with
/// zeros (`U` moves) would otherwise stretch past the goal and back.
#[test]
fn a_damaged_distance_never_stretches_a_path_table_solution() {
    for (size, blank) in [("3x3", 8), ("2x4", 7)] {
        let t = crate::util::temp_db_built(size, &[blank], true);
        let good = std::fs::read(&t.path).unwrap();
        let db = open(good.clone()).unwrap();
        let goal = Board::canonical_goal(db.shape(), blank);
        let target = db.goal_table(&goal).unwrap();
        let offset = db.table_info(blank).unwrap().offset as usize;
        let max = target.info().max_distance as u32;
        // A few positions at every distance.
        let ranks: Vec<u32> = (1..=max)
            .flat_map(|d| target.ranks_within(d..=d).step_by(97).take(3))
            .collect();
        for rank in ranks {
            let d = target.distance_at(rank).unwrap();
            let start = target.board_at(rank);
            for field in (0..=62).filter(|&f| f != d) {
                let mut bad = good.clone();
                let e = &mut bad[offset + rank as usize];
                *e = (*e & 0b1100_0000) | field as u8;
                let db = open(bad).unwrap();
                assert_eq!(
                    db.solve(&start, &goal),
                    Err(AnswerError::Corrupt { rank }),
                    "{size}: {start} at {d} stored as {field}"
                );
            }
        }
    }
}

/// A position whose stored distance was damaged is never drawn as a
/// puzzle of that many moves, nor given that distance in a uniform draw:
/// each drawn position's distance is checked by its solution, as `solve`
/// checks it.
#[test]
fn a_damaged_distance_is_never_drawn() {
    use npuzzle::analysis::{DrawError, Drawn, Sample};
    let t = crate::util::temp_db_built("3x3", &[8], true);
    let good = std::fs::read(&t.path).unwrap();
    let db = open(good.clone()).unwrap();
    let goal = Board::goal(db.shape());
    let target = db.goal_table(&goal).unwrap();
    let offset = db.table_info(8).unwrap().offset as usize;
    let rank = target.ranks_within(10..=10).nth(100).unwrap();
    let start = target.board_at(rank);
    // Stored as 20 moves: the header still counts it at 10, so every
    // position the table now lists at 20 is one more than the header's
    // count; all but one of them are drawn, in every seed's order.
    let mut bad = good.clone();
    let e = &mut bad[offset + rank as usize];
    *e = (*e & 0b1100_0000) | 20;
    let db = open(bad).unwrap();
    let target = db.goal_table(&goal).unwrap();
    let at_20 = target.info().counts[20] as usize;
    let refused = (1..=20).filter(|&seed| match Sample::draw(&target, 20..=20, at_20, seed) {
        Err(DrawError::Answer(AnswerError::Corrupt { rank: r })) => {
            assert_eq!(r, rank);
            true
        }
        Ok(sample) => {
            assert!(sample.positions.iter().all(|p| p.start != start));
            false
        }
        Err(e) => panic!("{e}"),
    });
    // A draw leaves out one of the listed positions, the damaged one with
    // a chance of 1 in thousands: nearly every seed's draw holds it.
    assert!(refused.count() >= 19);
    let drawn = Sample {
        goal,
        seed: 1,
        distances: None,
        positions: vec![Drawn {
            start,
            distance: None,
        }],
    };
    assert!(matches!(
        drawn.with_distances(&target),
        Err(DrawError::Answer(AnswerError::Corrupt { rank: r })) if r == rank
    ));
}

/// A distance read from a damaged entry is an error, never a wrong
/// number: every value its byte can hold (the move and the distance) is
/// read either as the true distance or as damage, save, under the
/// single-tile metric, a distance two too long whose move was damaged to
/// lead one step farther, which a solve's walk cannot tell either. The
/// questions that start from a distance (the best moves, the count and
/// list of shortest solutions) refuse the damage too, and on the command
/// line `check` and `heuristics` refuse the file as `solve` does.
#[test]
fn a_damaged_distance_is_never_read_as_one() {
    use npuzzle::analysis::{best_moves, count_shortest, list_shortest};
    let t = crate::util::temp_db_built("3x3", &[8], true);
    let good = std::fs::read(&t.path).unwrap();
    let db = open(good.clone()).unwrap();
    let goal = Board::goal(db.shape());
    let offset = db.table_info(8).unwrap().offset as usize;
    let target = db.goal_table(&goal).unwrap();
    let rank = target.ranks_within(22..=22).nth(7).unwrap();
    let start = target.board_at(rank);
    let neighbours: Vec<u32> = start
        .successors()
        .map(|(_, b)| target.distance(&b).unwrap())
        .collect();
    assert!(neighbours.contains(&23), "{neighbours:?}");
    let mut bad = good.clone();
    let (mut true_reads, mut longer_reads) = (0, 0);
    for byte in 0..=u8::MAX {
        bad[offset + rank as usize] = byte;
        let db = open(bad.clone()).unwrap();
        let target = db.goal_table(&goal).unwrap();
        match target.distance(&start) {
            Ok(22) => true_reads += 1,
            Ok(24) => longer_reads += 1,
            Err(AnswerError::Corrupt { rank: r }) => {
                assert_eq!(r, rank);
                assert!(best_moves(&target, &start).is_err(), "{byte:#010b}");
                assert!(count_shortest(&target, &start).is_err(), "{byte:#010b}");
                assert!(list_shortest(&target, &start, 3).is_err(), "{byte:#010b}");
            }
            other => panic!("byte {byte:#010b}: {other:?}"),
        }
    }
    // 22 with each move that leads to a neighbour at 21 (the true move
    // among them), 24 with each that leads to one at 23.
    let at = |d| neighbours.iter().filter(|&&n| n == d).count();
    assert_eq!((true_reads, longer_reads), (at(21), at(23)));

    // On the command line: the grading and the survey refuse the file.
    let e = good[offset + rank as usize];
    bad[offset + rank as usize] = (e & 0b1100_0000) | 18;
    std::fs::write(&t.path, &bad).unwrap();
    let moves = {
        let mut moves = Vec::new();
        let db = open(good).unwrap();
        db.goal_table(&goal)
            .unwrap()
            .solve_into(&start, &mut moves)
            .unwrap();
        npuzzle::rules::move_string(&moves)
    };
    let text = start.to_string();
    for args in [
        &["check", text.as_str(), moves.as_str(), "--json"][..],
        &["heuristics", text.as_str(), "--json"],
        &["distance", text.as_str()],
    ] {
        let out = crate::util::run_query(&t.path, args, 2);
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = crate::util::stderr_of(&out);
        assert!(
            err.contains(&format!("damaged at rank {rank}")),
            "{args:?}: {err}"
        );
    }
}

/// Under the multi-tile metric a slide may lead to a position as far as
/// its own, so one step along the stored move is not enough: an entry one
/// too long whose move still lands one closer would pass it. Every value
/// of a damaged entry's byte, at positions of every distance (the goal's
/// included), is read as the true distance or refused, by a distance read
/// and by a solve.
#[test]
fn a_damaged_multi_tile_distance_is_never_read_as_one() {
    let t = crate::util::temp_db_counting("3x3", npuzzle::Metric::MultiTile);
    let good = std::fs::read(&t.path).unwrap();
    let db = open(good.clone()).unwrap();
    let goal = Board::goal(db.shape());
    let offset = db.table_info(8).unwrap().offset as usize;
    let target = db.goal_table(&goal).unwrap();
    let most = u32::from(target.info().max_distance);
    let mut bad = good.clone();
    for d in 0..=most {
        let rank = target.ranks_within(d..=d).next().unwrap();
        let start = target.board_at(rank);
        for byte in 0..=u8::MAX {
            bad[offset + rank as usize] = byte;
            let db = open(bad.clone()).unwrap();
            let target = db.goal_table(&goal).unwrap();
            let mut moves = Vec::new();
            // A solve walks on from the start, but a walk from the goal
            // that comes back to it would fit every entry it passes.
            let solved = target.solve_into(&start, &mut moves);
            for read in [target.distance(&start), solved] {
                match read {
                    Ok(read) => assert_eq!(read, d, "{start} at {d}, byte {byte:#010b}"),
                    Err(AnswerError::Corrupt { .. }) => {}
                    Err(e) => panic!("{e}"),
                }
            }
        }
        bad[offset + rank as usize] = good[offset + rank as usize];
    }
}

/// The header's metric byte is checked at open: a value that names no
/// metric, multi-tile pattern tables (never built) and a path table beside
/// multi-tile tables are refused by name.
#[test]
fn impossible_metrics_are_refused_at_open() {
    let bad = with_header(&small_db_bytes(), Box::new(|_, h| h.metric = 7));
    let err = open(bad).err().unwrap().to_string();
    assert!(
        err.ends_with("its metric is 7, expected 0 (single-tile) or 1 (multi-tile)"),
        "{err}"
    );

    // 2x3 files carry path tables.
    let bad = with_header(&small_db_bytes(), Box::new(|_, h| h.metric = 1));
    let err = open(bad).err().unwrap().to_string();
    assert!(
        err.contains("counts multi-tile moves but has a path table"),
        "{err}"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x3-4-4.db");
    let shape = npuzzle::Shape::THREE_BY_THREE;
    let plan = npuzzle::Plan::Patterns {
        partition: npuzzle::pattern::Partition::named(shape, "4-4").unwrap(),
        goal_blanks: vec![8],
    };
    npuzzle::build(&path, &plan, &|_, _| {}).unwrap();
    let bad = with_header(
        &std::fs::read(&path).unwrap(),
        Box::new(|_, h| h.metric = 1),
    );
    let err = npuzzle::Database::from_bytes(bad)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("pattern tables counted in multi-tile moves"),
        "{err}"
    );
}

/// A file whose header names the other metric, with a valid header
/// checksum: it opens, but `verify` finds that its moves do not lead one
/// move closer in the metric it claims, both ways round.
#[test]
fn a_table_read_in_the_wrong_metric_fails_verify() {
    let multi =
        std::fs::read(&crate::util::temp_db_counting("2x3", npuzzle::Metric::MultiTile).path)
            .unwrap();
    let as_single = with_header(&multi, Box::new(|_, h| h.metric = 0));
    assert!(!open(as_single).unwrap().verify().ok);
    let single = crate::util::temp_db_built("2x3", &[5], false);
    let as_multi = with_header(
        &std::fs::read(&single.path).unwrap(),
        Box::new(|_, h| h.metric = 1),
    );
    assert!(!open(as_multi).unwrap().verify().ok);
    assert!(open(multi).unwrap().verify().ok);
}

/// A damaged multi-tile entry is caught by `verify`, and `solve` never
/// returns a wrong solution: every answer it gives replays in its distance.
#[test]
fn damaged_multi_tile_entries_are_caught() {
    let path = &crate::util::temp_db_counting("2x3", npuzzle::Metric::MultiTile).path;
    let good = std::fs::read(path).unwrap();
    let db = open(good.clone()).unwrap();
    let info = db.header().tables[0].clone();
    let goal = Board::canonical_goal(db.shape(), info.goal_blank as usize);
    let mut caught = 0;
    for rank in (0..info.entries).step_by(7) {
        let mut bad = good.clone();
        let at = (info.offset + rank) as usize;
        bad[at] ^= 0b1100_0001;
        let db = open(bad).unwrap();
        assert!(!db.verify().ok, "rank {rank}");
        let target = db.goal_table(&goal).unwrap();
        for r in 0..info.entries as u32 {
            let start = target.board_at(r);
            let mut moves = Vec::new();
            match target.solve_into(&start, &mut moves) {
                Ok(d) => {
                    assert_eq!(start.replay(&moves), Some(goal));
                    assert_eq!(npuzzle::Metric::MultiTile.length(&moves) as u32, d);
                }
                Err(AnswerError::Corrupt { .. }) => caught += 1,
                Err(e) => panic!("{e}"),
            }
        }
    }
    assert!(caught > 0);
}
