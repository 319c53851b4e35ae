//! The database file format: its layout, writing it, and the checks a
//! reader makes of the header before it touches a table.
//!
//! ```text
//! offset 0     preamble, 20 bytes: magic "NPUZZLE\0", version u32,
//!              header_len u32, header_crc u32 (CRC-32 of the header bytes)
//! then         zero padding to offset 4096
//! offset 4096  the sections, in the header's order: each table's
//!              `positions` one-byte entries indexed by rank (see `entry`),
//!              then, if it has one, its path table: `positions` u64 words,
//!              little endian (see `path_table`). Each section starts on a
//!              multiple of 4096, after zero padding.
//! the end      the header, the file's last header_len bytes: rows u8,
//!              cols u8, then the list of tables (u64 count, then per table:
//!              blank u8, positions u64, max_distance u8, counts (u64 length
//!              + u64 each), offset u64, checksum u32 = CRC-32 of the
//!              table's bytes, path_table: u8 0 for none, or 1 then offset
//!              u64 and checksum u32 of the path table)
//! ```
//!
//! Preamble and header are bincode 2 with a pinned configuration: little
//! endian, fixed-width integers (see [`bincode_config`]). The header comes
//! last so that tables can be written as each is built, without knowing the
//! others' maximum distances (which fix the header's length). Every offset
//! and the file's exact length follow from the header alone, and a reader
//! refuses anything else.

use crate::db::error::{EnvelopeError, FormatError, WriteError};
use crate::db::replace::{ReplaceError, Replacement};
use crate::puzzle::shape::{Shape, MAX_CELLS};
use crate::table::generate::Table;
use crate::table::path_table::{self, WORD_BYTES};
use bincode::{Decode, Encode};
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

/// The first eight bytes of every database.
pub const MAGIC: [u8; 8] = *b"NPUZZLE\0";

/// The format version this build writes and reads.
///
/// Any change to the layout above or to the entry encoding
/// ([`crate::table::entry`]) gets a new version. Readers accept only their own
/// version; an older file is rebuilt with `build-db`. Version 2 moved the
/// header to the end and stores distances modulo 63 ([`crate::table::entry`]);
/// version 3 added path tables ([`crate::table::path_table`]).
pub const VERSION: u32 = 3;

/// Sections start on multiples of this many bytes.
pub const PAGE: u64 = 4096;

/// What tells the two kinds of file apart, and names them in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    /// The file's first eight bytes.
    pub magic: [u8; 8],
    /// The format version this build writes and reads.
    pub version: u32,
    /// What messages call it: "database", "pattern database".
    pub name: &'static str,
}

/// Complete tables: [`MAGIC`], [`VERSION`].
pub const COMPLETE_TABLES: FileKind = FileKind {
    magic: MAGIC,
    version: VERSION,
    name: "database",
};

/// Length of the encoded [`Preamble`].
pub const PREAMBLE_LEN: usize = 20;

/// Headers longer than this are refused before they are decoded.
pub const MAX_HEADER_LEN: usize = 1 << 20;

/// The pinned bincode configuration of preamble and header.
pub fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_little_endian()
        .with_fixed_int_encoding()
        .with_limit::<MAX_HEADER_LEN>()
}

/// The fixed-size start of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub struct Preamble {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// [`VERSION`].
    pub version: u32,
    /// Bytes of the header that follows.
    pub header_len: u32,
    /// CRC-32 of those bytes.
    pub header_crc: u32,
}

/// What the file holds.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct Header {
    /// Rows of the board.
    pub rows: u8,
    /// Columns of the board.
    pub cols: u8,
    /// The tables, in file order.
    pub tables: Vec<TableInfo>,
}

/// One table's description.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct TableInfo {
    /// The goal's blank cell (0-based, row by row).
    pub blank: u8,
    /// Entries in the table: cells!/2.
    pub positions: u64,
    /// The largest distance.
    pub max_distance: u8,
    /// Positions at each distance, 0 to `max_distance`.
    pub counts: Vec<u64>,
    /// Where the table starts in the file.
    pub offset: u64,
    /// CRC-32 of the table's bytes.
    pub checksum: u32,
    /// The table's path table, if the file has one.
    pub path_table: Option<PathTableInfo>,
}

/// Where a table's path table lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct PathTableInfo {
    /// Where the path table starts in the file.
    pub offset: u64,
    /// CRC-32 of its bytes.
    pub checksum: u32,
}

impl TableInfo {
    /// The header entry of `table`, stored at `offset`, with its path
    /// table (if it has one) at `path_table_offset`.
    pub fn describe(table: &Table, offset: u64, path_table_offset: Option<u64>) -> TableInfo {
        TableInfo {
            blank: table.goal_blank as u8,
            positions: table.entries.len() as u64,
            max_distance: table.max_distance() as u8,
            counts: table.counts.clone(),
            offset,
            checksum: crc32fast::hash(&table.entries),
            path_table: table
                .path_table
                .as_ref()
                .zip(path_table_offset)
                .map(|(words, offset)| PathTableInfo {
                    offset,
                    checksum: crc32fast::hash(words),
                }),
        }
    }

    /// The sizes in bytes of the table's sections, in file order: its
    /// entries, then its path table if it has one.
    pub fn section_sizes(&self) -> impl Iterator<Item = u64> {
        let words = self.path_table.map(|_| self.positions * WORD_BYTES as u64);
        std::iter::once(self.positions).chain(words)
    }

    /// The table's sections as (name, offset, size), in file order.
    pub fn sections(&self) -> impl Iterator<Item = (&'static str, u64, u64)> {
        let offsets = std::iter::once(("table", self.offset))
            .chain(self.path_table.map(|p| ("path table", p.offset)));
        offsets
            .zip(self.section_sizes())
            .map(|((name, offset), size)| (name, offset, size))
    }
}

/// Rounds up to the next page boundary.
pub fn page_align(offset: u64) -> u64 {
    offset.div_ceil(PAGE) * PAGE
}

/// Where the first section starts.
pub const FIRST_SECTION: u64 = PAGE;

/// Where each section starts, for sections of these sizes, and where the
/// last one ends (and the header begins).
pub fn section_offsets(sizes: impl IntoIterator<Item = u64>) -> (Vec<u64>, u64) {
    let mut end = FIRST_SECTION;
    let mut offsets = Vec::new();
    for size in sizes {
        let offset = page_align(end);
        offsets.push(offset);
        end = offset + size;
    }
    (offsets, end)
}

/// Encodes a header as stored.
pub fn encode_header(header: &Header) -> Vec<u8> {
    bincode::encode_to_vec(header, bincode_config()).expect("a header always encodes")
}

/// The preamble of a complete-tables file for these header bytes.
pub fn preamble_for(header_bytes: &[u8]) -> Preamble {
    Preamble::of(COMPLETE_TABLES, header_bytes)
}

impl Preamble {
    /// The preamble of a file of `kind` for these header bytes.
    pub fn of(kind: FileKind, header_bytes: &[u8]) -> Preamble {
        Preamble {
            magic: kind.magic,
            version: kind.version,
            header_len: header_bytes.len() as u32,
            header_crc: crc32fast::hash(header_bytes),
        }
    }
}

/// A file of either kind being written, one page-aligned section at a
/// time, into a temporary file that replaces `path` only when
/// [`SectionWriter::finish`] succeeds. Dropped before that, it removes the
/// temporary file and leaves `path` as it was.
pub struct SectionWriter<'a> {
    path: &'a Path,
    kind: FileKind,
    replacement: Replacement,
    out: BufWriter<File>,
    written: u64,
}

impl<'a> SectionWriter<'a> {
    /// Starts a file of `kind` at `path`.
    pub fn create(path: &'a Path, kind: FileKind) -> Result<SectionWriter<'a>, WriteError> {
        let replacement = Replacement::start(path, ".tmp").map_err(|e| write_error(path, e))?;
        let file = replacement
            .file()
            .try_clone()
            .map_err(|e| write_error(path, e.into()))?;
        let mut writer = SectionWriter {
            path,
            kind,
            replacement,
            out: BufWriter::with_capacity(1 << 20, file),
            written: 0,
        };
        // The preamble's place; it is written last, once the header is known.
        writer.pad_to(FIRST_SECTION)?;
        Ok(writer)
    }

    /// Writes one section at the next page boundary; returns its offset.
    pub fn append_section(&mut self, bytes: &[u8]) -> Result<u64, WriteError> {
        let offset = page_align(self.written);
        self.pad_to(offset)?;
        self.write(bytes)?;
        Ok(offset)
    }

    /// Writes the header (encoded) and the preamble, flushes everything to
    /// disk and renames the file into place. Returns the file's size.
    pub fn finish(mut self, header_bytes: &[u8]) -> Result<u64, WriteError> {
        self.write(header_bytes)?;
        let preamble =
            bincode::encode_to_vec(Preamble::of(self.kind, header_bytes), bincode_config())
                .expect("a preamble always encodes");
        let path = self.path;
        let io = |e: io::Error| write_error(path, e.into());
        self.out.flush().map_err(io)?;
        let mut file = self.out.into_inner().map_err(|e| io(e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&preamble).map_err(io)?;
        self.replacement
            .commit()
            .map_err(|e| write_error(path, e.into()))?;
        Ok(self.written)
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.out
            .write_all(bytes)
            .map_err(|e| write_error(self.path, e.into()))?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    fn pad_to(&mut self, offset: u64) -> Result<(), WriteError> {
        const ZEROS: [u8; PAGE as usize] = [0; PAGE as usize];
        while self.written < offset {
            let n = (offset - self.written).min(PAGE) as usize;
            self.write(&ZEROS[..n])?;
        }
        Ok(())
    }
}

fn write_error(path: &Path, source: ReplaceError) -> WriteError {
    WriteError {
        path: path.to_path_buf(),
        source,
    }
}

/// A database being written, one table at a time, into a temporary file
/// that replaces `path` only when [`DatabaseWriter::finish`] succeeds.
/// Dropped before that, it removes the temporary file and leaves `path` as
/// it was.
pub struct DatabaseWriter<'a> {
    sections: SectionWriter<'a>,
    header: Header,
}

impl<'a> DatabaseWriter<'a> {
    /// Starts a database of `shape` boards at `path`.
    pub fn create(path: &'a Path, shape: Shape) -> Result<DatabaseWriter<'a>, WriteError> {
        Ok(DatabaseWriter {
            sections: SectionWriter::create(path, COMPLETE_TABLES)?,
            header: Header {
                rows: shape.rows() as u8,
                cols: shape.cols() as u8,
                tables: Vec::new(),
            },
        })
    }

    /// Appends one table, and its path table if it has one.
    pub fn append(&mut self, table: &Table) -> Result<(), WriteError> {
        let offset = self.sections.append_section(&table.entries)?;
        let path_table_offset = match &table.path_table {
            Some(words) => Some(self.sections.append_section(words)?),
            None => None,
        };
        let info = TableInfo::describe(table, offset, path_table_offset);
        self.header.tables.push(info);
        Ok(())
    }

    /// Writes the header and the preamble, flushes everything to disk and
    /// renames the file into place. Returns the file's size.
    pub fn finish(self) -> Result<u64, WriteError> {
        self.sections.finish(&encode_header(&self.header))
    }
}

/// Writes a database atomically: into a temporary file in the same folder,
/// flushed to disk, then renamed over `path`. A crash at any point leaves
/// either the old file or the new one, never a part; the temporary files of
/// builds that were killed are removed by the next build of the same file.
/// Returns the file size.
pub fn write_database(path: &Path, shape: Shape, tables: &[Table]) -> Result<u64, WriteError> {
    let mut writer = DatabaseWriter::create(path, shape)?;
    for table in tables {
        writer.append(table)?;
    }
    writer.finish()
}

/// A file's header, decoded and checked against its preamble.
#[derive(Clone, Debug)]
pub struct Envelope<H> {
    /// The header.
    pub header: H,
    /// Where its bytes start: the file's last bytes are the header's.
    pub header_start: usize,
}

/// Reads the envelope both kinds of file share, in the order that makes
/// each check safe: the length before anything is read, the magic and
/// version before the header is decoded, the checksum before the header is
/// trusted. What the header says is left to the caller, which then checks
/// the layout with `check_section_offsets` and [`Envelope::check_length`].
pub fn read_envelope<H: Decode<()>>(
    data: &[u8],
    kind: FileKind,
) -> Result<Envelope<H>, EnvelopeError> {
    if data.len() < PREAMBLE_LEN {
        return Err(EnvelopeError::TooShort {
            expected: PREAMBLE_LEN,
            got: data.len(),
        });
    }
    let (preamble, _): (Preamble, usize) =
        bincode::decode_from_slice(&data[..PREAMBLE_LEN], bincode_config())
            .map_err(EnvelopeError::HeaderDecode)?;
    if preamble.magic != kind.magic {
        return Err(EnvelopeError::Magic {
            kind,
            got: preamble.magic,
        });
    }
    if preamble.version != kind.version {
        return Err(EnvelopeError::Version {
            kind,
            expected: kind.version,
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
    let (header, read): (H, usize) = bincode::decode_from_slice(header_bytes, bincode_config())
        .map_err(EnvelopeError::HeaderDecode)?;
    if read != header_len {
        return Err(EnvelopeError::HeaderTrailing {
            expected: header_len,
            got: read,
        });
    }
    Ok(Envelope {
        header,
        header_start,
    })
}

/// A section that does not start where the layout puts it: its index among
/// the sections, in file order. Each kind names it in its own error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Misplaced {
    /// Index of the section in file order.
    pub index: usize,
    /// Where the layout puts it.
    pub expected: u64,
    /// Where the header says it is.
    pub got: u64,
}

/// That the sections, as (offset, size) in file order, start where the
/// layout puts them; returns where the last one ends. Only safe once the
/// caller has bounded the sizes, so that the offsets add up without
/// overflow.
pub fn check_section_offsets(
    sections: impl IntoIterator<Item = (u64, u64)>,
) -> Result<u64, Misplaced> {
    let (offsets, sizes): (Vec<u64>, Vec<u64>) = sections.into_iter().unzip();
    let (expected, end) = section_offsets(sizes);
    match offsets
        .into_iter()
        .zip(expected)
        .enumerate()
        .find(|(_, (got, expected))| got != expected)
    {
        Some((index, (got, expected))) => Err(Misplaced {
            index,
            expected,
            got,
        }),
        None => Ok(end),
    }
}

impl<H> Envelope<H> {
    /// That the file ends exactly with the header, right after the last
    /// section (which ends at `sections_end`).
    pub fn check_length(
        &self,
        data: &[u8],
        sections_end: u64,
        shape: Shape,
    ) -> Result<(), EnvelopeError> {
        let expected = sections_end + (data.len() - self.header_start) as u64;
        if data.len() as u64 != expected {
            return Err(EnvelopeError::Length {
                expected,
                got: data.len() as u64,
                shape,
            });
        }
        Ok(())
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

/// Checks everything about a complete-tables file that the header alone
/// decides: the envelope ([`read_envelope`]), then each table's
/// description, table sizes before offsets are added up, and the file's
/// exact length last. Returns the header, the board, and where the header
/// starts.
pub fn check_header(data: &[u8]) -> Result<(Header, Shape, usize), FormatError> {
    let envelope: Envelope<Header> = read_envelope(data, COMPLETE_TABLES)?;
    let header = &envelope.header;
    let shape =
        Shape::new(header.rows as usize, header.cols as usize).map_err(FormatError::Board)?;
    check_tables(header, shape)?;
    check_offsets(&envelope, data, shape)?;
    Ok((envelope.header, shape, envelope.header_start))
}

/// Each table's description on its own: its cell, size and counts.
fn check_tables(header: &Header, shape: Shape) -> Result<(), FormatError> {
    if header.tables.is_empty() {
        return Err(FormatError::NoTables);
    }
    let mut seen = [false; MAX_CELLS];
    for (table, t) in header.tables.iter().enumerate() {
        let blank = t.blank as usize;
        if blank >= shape.cells() {
            return Err(FormatError::BlankOutside {
                table,
                blank,
                shape,
            });
        }
        if std::mem::replace(&mut seen[blank], true) {
            return Err(FormatError::DuplicateBlank { blank });
        }
        if t.positions != shape.positions() {
            return Err(FormatError::Positions {
                table,
                expected: shape.positions(),
                got: t.positions,
                shape,
            });
        }
        if t.counts.len() != t.max_distance as usize + 1 {
            return Err(FormatError::CountsLength {
                table,
                max_distance: t.max_distance,
                counts: t.counts.len(),
            });
        }
        if t.path_table.is_some() && t.max_distance as usize > path_table::MAX_DISTANCE {
            return Err(FormatError::PathTableTooFar {
                table,
                max_distance: t.max_distance,
                limit: path_table::MAX_DISTANCE,
            });
        }
        let total = t.counts.iter().try_fold(0u64, |a, &c| a.checked_add(c));
        if t.counts[0] != 1 || total != Some(t.positions) {
            return Err(FormatError::CountsTotal {
                table,
                positions: t.positions,
            });
        }
    }
    Ok(())
}

/// That every section starts where the layout puts it and the file ends
/// with the header. Only safe once [`check_tables`] has bounded the sizes
/// (at most one table per cell, of cells!/2 positions each), so that the
/// offsets add up without overflow.
fn check_offsets(
    envelope: &Envelope<Header>,
    data: &[u8],
    shape: Shape,
) -> Result<(), FormatError> {
    let sections = || {
        envelope
            .header
            .tables
            .iter()
            .enumerate()
            .flat_map(|(table, t)| {
                t.sections()
                    .map(move |(section, offset, size)| (table, section, offset, size))
            })
    };
    let end = check_section_offsets(sections().map(|(_, _, offset, size)| (offset, size)))
        .map_err(|misplaced| {
            let (table, section, _, _) = sections()
                .nth(misplaced.index)
                .expect("the misplaced section is one of them");
            FormatError::SectionOffset {
                table,
                section,
                expected: misplaced.expected,
                got: misplaced.got,
            }
        })?;
    Ok(envelope.check_length(data, end, shape)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoding is the file format: these bytes are what the module
    /// documentation above promises, written out by hand. A change here is
    /// a new format version.
    #[test]
    fn the_header_and_preamble_encode_to_the_documented_bytes() {
        let header = Header {
            rows: 3,
            cols: 3,
            tables: vec![TableInfo {
                blank: 8,
                positions: 0x0102_0304_0506_0708,
                max_distance: 2,
                counts: vec![1, 2],
                offset: 4096,
                checksum: 0xDEAD_BEEF,
                path_table: Some(PathTableInfo {
                    offset: 0x1_0000,
                    checksum: 0x0A0B_0C0D,
                }),
            }],
        };
        #[rustfmt::skip]
        let expected: Vec<u8> = [
            &[3u8, 3][..],                                  // rows, cols
            &[1, 0, 0, 0, 0, 0, 0, 0],                      // tables: 1
            &[8],                                           // blank
            &[8, 7, 6, 5, 4, 3, 2, 1],                      // positions, little endian
            &[2],                                           // max_distance
            &[2, 0, 0, 0, 0, 0, 0, 0],                      // counts: 2
            &[1, 0, 0, 0, 0, 0, 0, 0],                      //   1
            &[2, 0, 0, 0, 0, 0, 0, 0],                      //   2
            &[0, 0x10, 0, 0, 0, 0, 0, 0],                   // offset 4096
            &[0xEF, 0xBE, 0xAD, 0xDE],                      // checksum
            &[1],                                           // path table: present
            &[0, 0, 1, 0, 0, 0, 0, 0],                      //   offset
            &[0x0D, 0x0C, 0x0B, 0x0A],                      //   checksum
        ]
        .concat();
        let bytes = encode_header(&header);
        assert_eq!(bytes, expected);

        let preamble = bincode::encode_to_vec(preamble_for(&bytes), bincode_config()).unwrap();
        let len = (expected.len() as u32).to_le_bytes();
        let crc = crc32fast::hash(&expected).to_le_bytes();
        let expected_preamble = [&b"NPUZZLE\0"[..], &VERSION.to_le_bytes(), &len, &crc].concat();
        assert_eq!(preamble, expected_preamble);
        assert_eq!(preamble.len(), PREAMBLE_LEN);

        let no_path_table = Header {
            tables: vec![TableInfo {
                path_table: None,
                ..header.tables[0].clone()
            }],
            ..header
        };
        let bytes = encode_header(&no_path_table);
        assert_eq!(bytes, [&expected[..expected.len() - 13], &[0]].concat());
    }
}
