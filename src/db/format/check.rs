//! The checks a reader makes of a file before it touches a table: the
//! envelope (preamble, header framing, the file's exact length), then what
//! the header says, for either kind.

use super::{
    bincode_config, section_offsets, Header, Preamble, TableAt, TableInfo, MAGIC, MAX_HEADER_LEN,
    OLD_PATTERN_MAGIC, PREAMBLE_LEN, READABLE, VERSION,
};
use crate::db::error::{EnvelopeError, FormatError};
use crate::pattern::{table_search, Partition, PlacementRanker, UNREACHED};
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::{Shape, MAX_CELLS};
use crate::puzzle::symmetry::Symmetry;
use crate::table::path_table;

/// Past this, a preamble's version is not one a newer npuzzle wrote but
/// damage: versions grow by one with each change of the format.
const MOST_PLAUSIBLE_VERSION: u32 = 255;

/// A header that passed every check, with what it implies.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The header.
    pub header: Header,
    /// The board.
    pub shape: Shape,
    /// The pattern tables' partition; `None` for complete tables.
    pub partition: Option<Partition>,
    /// How the tables' distances count moves.
    pub metric: Metric,
    /// Where the header's bytes start: the file's last bytes are the header's.
    pub header_start: usize,
}

/// Checks everything about a file that the header alone decides, in the
/// order that makes each check safe: the length before anything is read,
/// the magic and version before the header is decoded, the checksum before
/// the header is trusted; then the board, the tables' goal blanks, the
/// partition and the sets, each table's size and counts before offsets are
/// added up, and the file's exact length last.
pub fn check_header(data: &[u8]) -> Result<Checked, FormatError> {
    let (header, header_start) = read_envelope(data)?;
    let shape =
        Shape::new(header.rows as usize, header.cols as usize).map_err(FormatError::Board)?;
    if header.partition.is_none() {
        shape.check_complete_tables().map_err(FormatError::Board)?;
    }
    let metric = Metric::from_code(header.metric).ok_or(FormatError::Metric(header.metric))?;
    if metric != Metric::SingleTile && header.partition.is_some() {
        return Err(FormatError::MultiTilePatterns);
    }
    if header.tables.is_empty() {
        return Err(FormatError::NoTables);
    }
    let at = header.tables_at();
    for (&at, t) in at.iter().zip(&header.tables) {
        check_kind(shape, metric, at, t)?;
    }
    let partition = match &header.partition {
        None => {
            check_distinct_blanks(&header)?;
            None
        }
        Some(patterns) => Some(check_sets(&header, shape, patterns)?),
    };
    for (&at, t) in at.iter().zip(&header.tables) {
        check_table(shape, at, t)?;
    }
    check_repeats(shape, &header, &at)?;
    let end = check_offsets(&header, &at)?;
    let expected = end + (data.len() - header_start) as u64;
    if data.len() as u64 != expected {
        return Err(EnvelopeError::Length {
            expected,
            got: data.len() as u64,
            shape,
        }
        .into());
    }
    Ok(Checked {
        header,
        shape,
        partition,
        metric,
        header_start,
    })
}

/// The preamble, and the header it frames, decoded and checked against it.
/// Returns the header and where its bytes start.
pub fn read_envelope(data: &[u8]) -> Result<(Header, usize), EnvelopeError> {
    if data.len() < PREAMBLE_LEN {
        return Err(EnvelopeError::TooShort {
            expected: PREAMBLE_LEN,
            got: data.len(),
        });
    }
    let (preamble, _): (Preamble, usize) =
        bincode::decode_from_slice(&data[..PREAMBLE_LEN], bincode_config())
            .map_err(EnvelopeError::HeaderDecode)?;
    if preamble.magic == OLD_PATTERN_MAGIC {
        return Err(EnvelopeError::OldPatternFormat {
            version: preamble.version,
        });
    }
    if preamble.magic != MAGIC {
        return Err(EnvelopeError::Magic {
            got: preamble.magic,
        });
    }
    if preamble.version > MOST_PLAUSIBLE_VERSION {
        return Err(EnvelopeError::ImplausibleVersion {
            got: preamble.version,
        });
    }
    if !READABLE.contains(&preamble.version) {
        return Err(EnvelopeError::Version {
            expected: VERSION,
            got: preamble.version,
        });
    }
    let header_len = preamble.header_len as usize;
    let available = data.len() - PREAMBLE_LEN;
    if header_len > MAX_HEADER_LEN || header_len > available {
        return Err(EnvelopeError::HeaderLength {
            claimed: header_len,
            available: available.min(MAX_HEADER_LEN),
        });
    }
    let header_start = data.len() - header_len;
    let header_bytes = &data[header_start..];
    let crc = crc32fast::hash(header_bytes);
    if crc != preamble.header_crc {
        return Err(EnvelopeError::HeaderChecksum {
            expected: preamble.header_crc,
            got: crc,
        });
    }
    let (header, read): (Header, usize) =
        bincode::decode_from_slice(header_bytes, bincode_config())
            .map_err(EnvelopeError::HeaderDecode)?;
    if read != header_len {
        return Err(EnvelopeError::HeaderTrailing {
            expected: header_len,
            got: read,
        });
    }
    Ok((header, header_start))
}

/// Complete tables: one table per goal blank cell at most.
fn check_distinct_blanks(header: &Header) -> Result<(), FormatError> {
    let mut seen = [false; MAX_CELLS];
    for t in &header.tables {
        if std::mem::replace(&mut seen[t.goal_blank as usize], true) {
            return Err(FormatError::DuplicateBlank {
                blank: t.goal_blank as usize,
            });
        }
    }
    Ok(())
}

/// A pattern database: a valid partition, and sets (runs of one goal
/// blank) in distinct classes of cells, each the partition's patterns in
/// order. Bounds the tables: at most one set per cell, one table per
/// pattern.
fn check_sets(
    header: &Header,
    shape: Shape,
    patterns: &[Vec<u8>],
) -> Result<Partition, FormatError> {
    let sets: Vec<&[TableInfo]> = header.sets().collect();
    for (set, tables) in sets.iter().enumerate() {
        let blank = tables[0].goal_blank as usize;
        let earlier = sets[..set]
            .iter()
            .position(|e| Symmetry::mapping(shape, e[0].goal_blank as usize, blank).is_some());
        if let Some(first) = earlier {
            let blanks = (sets[first][0].goal_blank as usize, blank);
            return Err(FormatError::SameClass {
                first,
                second: set,
                blanks,
            });
        }
    }
    let partition = Partition::new(shape, patterns.to_vec()).map_err(FormatError::Partition)?;
    for (set, tables) in sets.iter().enumerate() {
        // Every pattern's table, or (since version 6) only those no
        // symmetry serves from an earlier one's, and then the transposed
        // lookup's own table where it has one (files written before it
        // lack that one).
        let stored = partition.stored_patterns(tables[0].goal_blank as usize);
        let shared = partition.shared_patterns(tables[0].goal_blank as usize);
        let tiles = || tables.iter().map(|t| &t.tiles);
        if !tiles().eq(patterns) && !tiles().eq(&stored) && !tiles().eq(&shared) {
            return Err(FormatError::OtherPatterns {
                set,
                patterns: patterns.len(),
                stored: stored.len(),
            });
        }
    }
    Ok(partition)
}

/// What a table's kind allows: its goal blank on the board, tiles only in
/// a pattern table, a path table only beside a complete single-tile one.
fn check_kind(shape: Shape, metric: Metric, at: TableAt, t: &TableInfo) -> Result<(), FormatError> {
    let blank = t.goal_blank as usize;
    if blank >= shape.cells() {
        return Err(FormatError::BlankOutside { at, blank, shape });
    }
    let pattern = at.set.is_some();
    if !pattern && !t.tiles.is_empty() {
        return Err(FormatError::TilesInComplete { at });
    }
    if pattern && t.path_table.is_some() {
        return Err(FormatError::PatternPathTable { at });
    }
    if metric != Metric::SingleTile && t.path_table.is_some() {
        return Err(FormatError::MultiTilePathTable { at });
    }
    Ok(())
}

/// One table's size and counts, once its kind and (for a pattern table)
/// its tiles are known to be sound.
fn check_table(shape: Shape, at: TableAt, t: &TableInfo) -> Result<(), FormatError> {
    use FormatError as E;
    let pattern = at.set.is_some();
    let expected = if pattern {
        PlacementRanker::new(shape.cells(), t.tiles.len())
            .map_err(E::Partition)?
            .len() as u64
    } else {
        shape.table_positions()
    };
    if t.entries != expected {
        let tiles = pattern.then_some(t.tiles.len());
        let got = t.entries;
        return Err(E::Entries {
            at,
            expected,
            got,
            shape,
            tiles,
        });
    }
    if pattern && t.max_distance == UNREACHED {
        return Err(E::MaxDistance { at });
    }
    if t.counts.len() != t.max_distance as usize + 1 {
        let (max_distance, counts) = (t.max_distance, t.counts.len());
        return Err(E::CountsLength {
            at,
            max_distance,
            counts,
        });
    }
    if t.path_table.is_some() && t.max_distance as usize > path_table::MAX_DISTANCE {
        return Err(E::PathTableTooFar {
            at,
            max_distance: t.max_distance,
            limit: path_table::MAX_DISTANCE,
        });
    }
    // Complete tables reach every position; so does a pattern table unless
    // it holds every tile (the other half of the placements, then).
    let unreached = if pattern { t.unreached } else { 0 };
    let total = t
        .counts
        .iter()
        .try_fold(unreached, |a, &c| a.checked_add(c));
    if t.counts[0] != 1 || total != Some(t.entries) || t.unreached != unreached {
        return Err(E::CountsTotal {
            at,
            entries: t.entries,
        });
    }
    Ok(())
}

/// That each table at an earlier table's offset repeats it: a pattern
/// table with the same search (goal cells and goal blank region), size,
/// counts and checksum, whose bytes are then right for both.
fn check_repeats(shape: Shape, header: &Header, at: &[TableAt]) -> Result<(), FormatError> {
    for (i, earlier) in header.repeats().into_iter().enumerate() {
        let Some(earlier) = earlier else { continue };
        let (t, e) = (&header.tables[i], &header.tables[earlier]);
        let same_bytes = (
            t.entries,
            t.checksum,
            &t.counts,
            t.max_distance,
            t.unreached,
        ) == (
            e.entries,
            e.checksum,
            &e.counts,
            e.max_distance,
            e.unreached,
        );
        let why = if header.partition.is_none() {
            Some("only pattern tables repeat")
        } else if !same_bytes {
            Some("its size, counts or checksum differ")
        } else if table_search(shape, t.goal_blank as usize, &t.tiles)
            != table_search(shape, e.goal_blank as usize, &e.tiles)
        {
            Some("its tiles' goal cells or its goal blank's region differ")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(FormatError::NotARepeat {
                at: at[i],
                earlier: at[earlier],
                why,
            });
        }
    }
    Ok(())
}

/// That every section stored starts where the layout puts it; returns
/// where the last one ends. Only safe once the checks before have bounded
/// the sizes (at most one table per cell, or one set per cell of at most
/// 15 tables, each of at most 16! entries), so that the offsets add up
/// without overflow.
fn check_offsets(header: &Header, at: &[TableAt]) -> Result<u64, FormatError> {
    let sections = header.stored_sections();
    let (expected, end) = section_offsets(sections.iter().map(|&(_, _, _, size)| size));
    match sections
        .iter()
        .zip(expected)
        .find(|((_, _, got, _), expected)| got != expected)
    {
        Some((&(i, section, got, _), expected)) => Err(FormatError::SectionOffset {
            at: at[i],
            section,
            expected,
            got,
        }),
        None => Ok(end),
    }
}

/// Bytes that are not zero in the padding before and between sections,
/// given as (offset, size) in file order: damage the checksums of the
/// sections cannot see.
pub fn nonzero_padding(data: &[u8], sections: impl IntoIterator<Item = (u64, u64)>) -> u64 {
    let mut end = PREAMBLE_LEN;
    let mut count = 0;
    for (offset, size) in sections {
        count += data[end..offset as usize]
            .iter()
            .filter(|&&b| b != 0)
            .count() as u64;
        end = (offset + size) as usize;
    }
    count
}
