//! Writing a database file of either kind, one page-aligned section at a
//! time, atomically. Pattern tables may be searched in another order than
//! the file's: their sections are reserved first, in file order, and each
//! is filled when its table is built, in the background while the next
//! table is searched.

use super::{
    bincode_config, encode_header, page_align, Header, PathTableInfo, Preamble, TableInfo,
    FIRST_SECTION, PAGE,
};
use crate::db::error::WriteError;
use crate::db::replace::{ReplaceError, Replacement, Writes};
use crate::pattern::Partition;
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use crate::table::generate::Table;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;
use std::thread::JoinHandle;

/// A database being written, one table at a time, into a temporary file
/// that replaces `path` only when [`Writer::finish`] succeeds. Dropped
/// before that, it removes the temporary file and leaves `path` as it was.
pub struct Writer<'a> {
    path: &'a Path,
    replacement: Replacement,
    out: BufWriter<File>,
    written: u64,
    header: Header,
    /// The table being written in the background, if one is.
    filling: Option<JoinHandle<io::Result<()>>>,
}

impl<'a> Writer<'a> {
    /// Starts a database of `shape` boards at `path`, whose distances count
    /// moves in `metric`: of complete tables, or of the pattern tables of
    /// `partition`.
    pub fn create(
        path: &'a Path,
        shape: Shape,
        metric: Metric,
        partition: Option<&Partition>,
    ) -> Result<Writer<'a>, WriteError> {
        let replacement =
            Replacement::start(path, ".tmp", Writes::Database).map_err(|e| write_error(path, e))?;
        let file = replacement
            .file()
            .try_clone()
            .map_err(|e| write_error(path, e.into()))?;
        let mut writer = Writer {
            path,
            replacement,
            out: BufWriter::with_capacity(1 << 20, file),
            written: 0,
            header: Header {
                rows: shape.rows() as u8,
                cols: shape.cols() as u8,
                metric: metric.code(),
                partition: partition.map(|p| p.patterns().to_vec()),
                tables: Vec::new(),
            },
            filling: None,
        };
        // The preamble's place; it is written last, once the header is known.
        writer.pad_to(FIRST_SECTION)?;
        Ok(writer)
    }

    /// Appends one table toward the canonical goal with the blank in
    /// `goal_blank`: `tiles` its pattern (empty for a complete table),
    /// `entries` its bytes, `counts` its entries at each distance 0 to the
    /// largest (the rest were never reached), and its path table if it has
    /// one. A pattern database's tables go set by set, each set the
    /// partition's patterns in order.
    pub fn append(
        &mut self,
        goal_blank: usize,
        tiles: &[u8],
        entries: &[u8],
        counts: &[u64],
        path_table: Option<&[u8]>,
    ) -> Result<(), WriteError> {
        let offset = self.append_section(entries)?;
        let path_table = match path_table {
            Some(words) => Some(PathTableInfo {
                offset: self.append_section(words)?,
                checksum: crc32fast::hash(words),
            }),
            None => None,
        };
        let reached: u64 = counts.iter().sum();
        self.header.tables.push(TableInfo {
            goal_blank: goal_blank as u8,
            tiles: tiles.to_vec(),
            entries: entries.len() as u64,
            max_distance: counts.len().saturating_sub(1) as u8,
            counts: counts.to_vec(),
            // Counts that overshoot are the caller's bug; opening refuses the file.
            unreached: (entries.len() as u64).saturating_sub(reached),
            offset,
            checksum: crc32fast::hash(entries),
            path_table,
        });
        Ok(())
    }

    /// Lists a pattern table toward `goal_blank` whose bytes are those of
    /// the earlier table `earlier` (its index in file order), without
    /// writing them again: the same search ([`crate::pattern`]'s goal cells
    /// and goal blank region) makes the same table. Panics if `earlier` is
    /// not the index of a table already appended; opening the file refuses
    /// a repeat whose search differs.
    pub fn append_repeat(&mut self, goal_blank: usize, tiles: &[u8], earlier: usize) {
        let table = TableInfo {
            goal_blank: goal_blank as u8,
            tiles: tiles.to_vec(),
            ..self.header.tables[earlier].clone()
        };
        self.header.tables.push(table);
    }

    /// Appends one complete table, and its path table if it has one.
    pub fn append_table(&mut self, table: &Table) -> Result<(), WriteError> {
        let words = table.path_table.as_deref();
        self.append(table.goal_blank, &[], &table.entries, &table.counts, words)
    }

    /// Reserves the next section for a pattern table of `entries` bytes
    /// toward the canonical goal with the blank in `goal_blank`, to be
    /// written by [`Self::fill`]; returns its index in file order. Tables
    /// reserved and repeated ([`Self::append_repeat`]) take their places
    /// in the file in the order of the calls, whatever the order they are
    /// filled in.
    pub fn reserve(&mut self, goal_blank: usize, tiles: &[u8], entries: u64) -> usize {
        let offset = page_align(self.written);
        self.written = offset + entries;
        self.header.tables.push(TableInfo {
            goal_blank: goal_blank as u8,
            tiles: tiles.to_vec(),
            entries,
            max_distance: 0,
            counts: Vec::new(),
            unreached: entries,
            offset,
            checksum: 0,
            path_table: None,
        });
        self.header.tables.len() - 1
    }

    /// Sets aside room on disk for the sections written and reserved so
    /// far and for further sections of `sizes` bytes, before any of them
    /// is built: a file system that lacks the room refuses the file at
    /// once (a 7-8 build would otherwise fail after its minute of search).
    pub fn set_aside(&self, sizes: impl IntoIterator<Item = u64>) -> Result<(), WriteError> {
        let end = (sizes.into_iter()).fold(self.written, |end, size| page_align(end) + size);
        (self.replacement)
            .set_aside(end)
            .map_err(|e| write_error(self.path, e))
    }

    /// Writes the pattern table reserved as `table` ([`Self::reserve`]):
    /// `entries` its bytes, `counts` its entries at each distance. The bytes
    /// are written in the background, so that the caller can search the
    /// next table meanwhile; this waits first for the table written before
    /// ([`Self::wait`]), so memory holds at most one table being written.
    pub fn fill(
        &mut self,
        table: usize,
        entries: Vec<u8>,
        counts: &[u64],
    ) -> Result<(), WriteError> {
        self.wait()?;
        let info = &self.header.tables[table];
        assert_eq!(info.entries, entries.len() as u64, "the table reserved");
        let offset = info.offset;
        let reached: u64 = counts.iter().sum();
        let checksum = crc32fast::hash(&entries);
        // Repeats of this table share its section.
        for info in self.header.tables.iter_mut().filter(|t| t.offset == offset) {
            info.max_distance = counts.len().saturating_sub(1) as u8;
            info.counts = counts.to_vec();
            info.unreached = info.entries.saturating_sub(reached);
            info.checksum = checksum;
        }
        // What the buffer holds belongs before the sections.
        self.out
            .flush()
            .map_err(|e| write_error(self.path, e.into()))?;
        let mut file = self
            .replacement
            .file()
            .try_clone()
            .map_err(|e| write_error(self.path, e.into()))?;
        // While this runs, nothing else writes: `wait`, here and in
        // `finish`, comes first.
        self.filling = Some(std::thread::spawn(move || {
            file.seek(SeekFrom::Start(offset))?;
            file.write_all(&entries)
        }));
        Ok(())
    }

    /// Waits for the table being written in the background, if any.
    pub fn wait(&mut self) -> Result<(), WriteError> {
        match self.filling.take() {
            Some(filling) => filling
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                .map_err(|e| write_error(self.path, e.into())),
            None => Ok(()),
        }
    }

    /// The header so far.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Writes the header and the preamble, flushes everything to disk and
    /// renames the file into place. Returns the file's size.
    pub fn finish(mut self) -> Result<u64, WriteError> {
        self.wait()?;
        let filled = self.header.tables.iter().all(|t| !t.counts.is_empty());
        assert!(
            filled,
            "every reserved table is filled before the file is finished"
        );
        let header_bytes = encode_header(&self.header);
        // Reserved sections end the file, and their bytes went in by
        // another handle.
        let end = self.written;
        let seek = self.out.seek(SeekFrom::Start(end));
        seek.map_err(|e| write_error(self.path, e.into()))?;
        self.write(&header_bytes)?;
        let preamble = Preamble {
            version: self.header.written_version(),
            ..Preamble::of(&header_bytes)
        };
        let preamble =
            bincode::encode_to_vec(preamble, bincode_config()).expect("a preamble always encodes");
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

    /// Writes one section at the next page boundary; returns its offset.
    fn append_section(&mut self, bytes: &[u8]) -> Result<u64, WriteError> {
        // After reserved sections, the file's position is elsewhere, and
        // the background write moves the same position.
        self.wait()?;
        let seek = self.out.seek(SeekFrom::Start(self.written));
        seek.map_err(|e| write_error(self.path, e.into()))?;
        let offset = page_align(self.written);
        self.pad_to(offset)?;
        self.write(bytes)?;
        Ok(offset)
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

/// Writes complete tables atomically: into a temporary file in the same
/// folder, flushed to disk, then renamed over `path`. A crash at any point
/// leaves either the old file or the new one, never a part; the temporary
/// files of builds that were killed are removed by the next build of the
/// same file. The tables count moves in one metric, the first one's.
/// Returns the file size.
pub fn write_database(path: &Path, shape: Shape, tables: &[Table]) -> Result<u64, WriteError> {
    let metric = tables.first().map_or(Metric::SingleTile, |t| t.metric);
    debug_assert!(tables.iter().all(|t| t.metric == metric));
    let mut writer = Writer::create(path, shape, metric, None)?;
    for table in tables {
        writer.append_table(table)?;
    }
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries at each distance, as a build counts them.
    fn counts(entries: &[u8]) -> Vec<u64> {
        let mut counts = vec![0u64; 1 + *entries.iter().max().unwrap() as usize];
        for &e in entries {
            counts[e as usize] += 1;
        }
        counts
    }

    /// Tables reserved in file order and filled the other way round, with
    /// a repeat between them, make the file that appending them in order
    /// makes, byte for byte.
    #[test]
    fn reserved_sections_filled_out_of_order_make_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let shape = Shape::THREE_BY_THREE;
        let partition = Partition::named(shape, "4-4").unwrap();
        let (tiles, low): (&[u8], &[u8]) = (&[1, 2, 3, 4], &[5, 6, 7, 8]);
        let first: Vec<u8> = (0..5000u32).map(|i| (i % 7) as u8).collect();
        let second: Vec<u8> = (0..3000u32).map(|i| (i % 5) as u8).collect();
        let (appended_path, filled_path) = (dir.path().join("a.db"), dir.path().join("f.db"));
        let create = |path| Writer::create(path, shape, Metric::SingleTile, Some(&partition));

        let mut appended = create(&appended_path).unwrap();
        appended
            .append(8, tiles, &first, &counts(&first), None)
            .unwrap();
        appended
            .append(8, low, &second, &counts(&second), None)
            .unwrap();
        appended.append_repeat(0, tiles, 0);
        appended.finish().unwrap();

        let mut filled = create(&filled_path).unwrap();
        let one = filled.reserve(8, tiles, first.len() as u64);
        let two = filled.reserve(8, low, second.len() as u64);
        filled.append_repeat(0, tiles, one);
        filled.fill(two, second.clone(), &counts(&second)).unwrap();
        filled.fill(one, first.clone(), &counts(&first)).unwrap();
        filled.finish().unwrap();

        let read = |path| std::fs::read(path).unwrap();
        assert_eq!(read(&appended_path), read(&filled_path));
    }
}
