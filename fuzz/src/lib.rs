//! Helpers shared by the fuzz targets and the seed generator.

use npuzzle::raw::build_each;
use npuzzle::raw::{encode_header, section_offsets, Preamble, FIRST_SECTION, PREAMBLE_LEN};
use npuzzle::tables::default_paths;
use npuzzle::{files::Header, files::PathTableInfo, files::TableInfo, tables::Table, Board, Shape};
use std::convert::Infallible;

/// Every board size the library accepts, as `(rows, cols)`.
pub const SHAPES: [(usize, usize); 12] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (4, 2),
    (3, 3),
    (2, 5),
    (5, 2),
    (3, 4),
    (4, 3),
    (2, 6),
    (6, 2),
];

/// The bytes of a database for `shape` holding the tables for the goal
/// blank cells `blanks`, with path tables where `build-db` adds them by
/// default, built in memory: the same layout [`npuzzle::files::write_database`]
/// writes, without a file.
pub fn database_bytes(shape: Shape, blanks: &[usize]) -> Vec<u8> {
    let mut tables: Vec<Table> = Vec::new();
    let stm = npuzzle::Metric::SingleTile;
    let built = build_each(
        shape,
        blanks,
        stm,
        default_paths(shape, stm),
        &|_, _| {},
        |t| {
            tables.push(t);
            Ok::<(), Infallible>(())
        },
    );
    built.unwrap_or_else(|never| match never {});
    let sections: Vec<&[u8]> = tables
        .iter()
        .flat_map(|t| std::iter::once(&t.entries[..]).chain(t.path_table.as_deref()))
        .collect();
    let (offsets, _) = section_offsets(sections.iter().map(|s| s.len() as u64));
    // Each table's offset, then its path table's if it has one.
    let mut next_offset = offsets.iter().copied();
    let header = Header {
        rows: shape.rows() as u8,
        cols: shape.cols() as u8,
        metric: stm.code(),
        partition: None,
        tables: tables
            .iter()
            .map(|table| {
                let offset = next_offset.next().expect("a table has a section");
                let path_table = table.path_table.as_ref().map(|words| PathTableInfo {
                    offset: next_offset.next().expect("a path table has a section"),
                    checksum: crc32fast::hash(words),
                });
                TableInfo {
                    goal_blank: table.goal_blank as u8,
                    tiles: Vec::new(),
                    entries: table.entries.len() as u64,
                    max_distance: table.max_distance() as u8,
                    counts: table.counts.clone(),
                    unreached: 0,
                    offset,
                    checksum: crc32fast::hash(&table.entries),
                    path_table,
                }
            })
            .collect(),
    };
    let header_bytes = encode_header(&header);
    let mut bytes = encode_preamble(&Preamble::of(&header_bytes));
    bytes.resize(FIRST_SECTION as usize, 0);
    for (offset, section) in offsets.iter().zip(&sections) {
        bytes.resize(*offset as usize, 0);
        bytes.extend_from_slice(section);
    }
    bytes.extend_from_slice(&header_bytes);
    bytes
}

/// The 20-byte preamble: magic, then version, header length and header
/// checksum as little-endian u32 (the layout the README documents).
fn encode_preamble(p: &Preamble) -> Vec<u8> {
    let mut out = p.magic.to_vec();
    for n in [p.version, p.header_len, p.header_crc] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    out
}

/// A board of `shape` shuffled by `bytes` (Fisher–Yates, one byte per
/// swap; missing bytes count as 0), so every input names some valid board.
pub fn board_from_bytes(shape: Shape, bytes: &[u8]) -> Board {
    let n = shape.cells();
    let mut cells: Vec<u64> = (0..n as u64).collect();
    for (k, i) in (1..n).rev().enumerate() {
        let j = bytes.get(k).copied().unwrap_or(0) as usize % (i + 1);
        cells.swap(i, j);
    }
    Board::new(shape, &cells).expect("a shuffle of 0..cells is a board")
}

/// A copy of `data` with the preamble's header checksum made to match the
/// header, when the header length fits and the checksum does not match.
/// Both kinds of file (complete tables and pattern databases) share the
/// format, so this serves either.
fn with_header_checksum_fixed(data: &[u8]) -> Option<Vec<u8>> {
    let header_len = u32::from_le_bytes(data.get(12..16)?.try_into().ok()?) as usize;
    let header = data.get(data.len().checked_sub(header_len)?.max(PREAMBLE_LEN)..)?;
    let crc = crc32fast::hash(header).to_le_bytes();
    if data[16..20] == crc {
        return None;
    }
    let mut fixed = data.to_vec();
    fixed[16..20].copy_from_slice(&crc);
    Some(fixed)
}

/// Runs `check` on `data` and, when its header checksum does not match,
/// on a copy with the checksum fixed. The checksum shields every header
/// field from mutation (almost any change fails at it), so the fixed copy
/// is what lets the fuzzer reach the checks of the header's contents.
pub fn check_with_and_without_checksum_fix(data: &[u8], check: impl Fn(&[u8])) {
    check(data);
    if let Some(fixed) = with_header_checksum_fixed(data) {
        check(&fixed);
    }
}
