//! The database file format, and writing it.
//!
//! ```text
//! offset 0   preamble, 20 bytes: magic "NPUZZLE\0", version u32,
//!            header_len u32, header_crc u32 (CRC-32 of the header bytes)
//! offset 20  header, header_len bytes: rows u8, cols u8, then the list of
//!            tables (u64 count, then per table: blank u8, positions u64,
//!            max_distance u8, counts (u64 length + u64 each), offset u64,
//!            checksum u32 = CRC-32 of the table's bytes)
//! then       zero padding to the next multiple of 4096
//! offset     each table: `positions` one-byte entries indexed by rank,
//!            followed by zero padding to a multiple of 4096, except after
//!            the last table, where the file ends
//! ```
//!
//! Preamble and header are bincode 2 with a pinned configuration: little
//! endian, fixed-width integers (see [`bincode_config`]). Tables are stored in
//! the order listed and each starts at the first page boundary after the
//! previous part, so a reader can compute every offset and the file's exact
//! length from the header alone and refuse anything else.

use crate::generate::Table;
use crate::replace::{ReplaceError, Replacement};
use crate::shape::Shape;
use bincode::{Decode, Encode};
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The first eight bytes of every database.
pub const MAGIC: [u8; 8] = *b"NPUZZLE\0";

/// The format version this build writes and reads.
///
/// Any change to the layout above or to the entry encoding
/// ([`crate::entry`]) gets a new version. Readers accept only their own
/// version; an older file is rebuilt with `build-db`, which takes seconds.
pub const VERSION: u32 = 1;

/// Tables start on multiples of this many bytes.
pub const PAGE: u64 = 4096;

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
}

/// Rounds up to the next page boundary.
pub fn page_align(offset: u64) -> u64 {
    offset.div_ceil(PAGE) * PAGE
}

/// A database could not be written. The previous file, if any, is untouched.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The folder to write into is missing.
    #[error("cannot write {}: the folder {} does not exist", path.display(), dir.display())]
    NoFolder {
        /// The database asked for.
        path: PathBuf,
        /// Its folder.
        dir: PathBuf,
    },
    /// The system refused a step of the write.
    #[error("cannot write {}: {io}", path.display())]
    Io {
        /// The database asked for.
        path: PathBuf,
        /// What the system said.
        io: io::Error,
    },
}

/// Lays out the header for these tables: offsets follow from the header's
/// own length, which does not depend on the offsets' values.
pub fn layout(shape: Shape, tables: &[Table]) -> (Preamble, Vec<u8>, Header) {
    let mut header = Header {
        rows: shape.rows() as u8,
        cols: shape.cols() as u8,
        tables: tables
            .iter()
            .map(|t| TableInfo {
                blank: t.goal_blank as u8,
                positions: t.entries.len() as u64,
                max_distance: t.max_distance() as u8,
                counts: t.counts.clone(),
                offset: 0,
                checksum: crc32fast::hash(&t.entries),
            })
            .collect(),
    };
    let encode = |h: &Header| bincode::encode_to_vec(h, bincode_config()).expect("header encodes");
    let header_len = encode(&header).len();
    let mut end = (PREAMBLE_LEN + header_len) as u64;
    for info in &mut header.tables {
        info.offset = page_align(end);
        end = info.offset + info.positions;
    }
    let bytes = encode(&header);
    debug_assert_eq!(bytes.len(), header_len);
    let preamble = Preamble {
        magic: MAGIC,
        version: VERSION,
        header_len: header_len as u32,
        header_crc: crc32fast::hash(&bytes),
    };
    (preamble, bytes, header)
}

/// Writes a database atomically: into a temporary file in the same folder,
/// flushed to disk, then renamed over `path`. A crash at any point leaves
/// either the old file or the new one, never a part; the temporary files of
/// builds that were killed are removed by the next build of the same file.
/// Returns the file size.
pub fn write_database(path: &Path, shape: Shape, tables: &[Table]) -> Result<u64, WriteError> {
    let (preamble, header_bytes, header) = layout(shape, tables);
    let error = |e| match e {
        ReplaceError::NoFolder(dir) => WriteError::NoFolder {
            path: path.to_path_buf(),
            dir,
        },
        ReplaceError::Io(io) => WriteError::Io {
            path: path.to_path_buf(),
            io,
        },
    };
    let replacement = Replacement::start(path, ".tmp").map_err(error)?;
    let size = write_contents(
        replacement.file(),
        &preamble,
        &header_bytes,
        &header,
        tables,
    )
    .map_err(|e| error(e.into()))?;
    replacement.commit().map_err(|e| error(e.into()))?;
    Ok(size)
}

fn write_contents(
    file: &File,
    preamble: &Preamble,
    header_bytes: &[u8],
    header: &Header,
    tables: &[Table],
) -> io::Result<u64> {
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let preamble = bincode::encode_to_vec(preamble, bincode_config()).expect("preamble encodes");
    debug_assert_eq!(preamble.len(), PREAMBLE_LEN);
    out.write_all(&preamble)?;
    out.write_all(header_bytes)?;
    let mut written = (preamble.len() + header_bytes.len()) as u64;
    for (info, table) in header.tables.iter().zip(tables) {
        let padding = vec![0u8; (info.offset - written) as usize];
        out.write_all(&padding)?;
        out.write_all(&table.entries)?;
        written = info.offset + info.positions;
    }
    out.flush()?;
    Ok(written)
}
