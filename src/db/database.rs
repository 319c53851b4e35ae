//! One database over both kinds of file: complete tables answer by lookup,
//! pattern tables by IDA*, and a caller that only wants answers never
//! asks which. What needs every position's distance (histograms, random
//! positions at a distance, all shortest solutions, statistics) asks for
//! the complete tables, and a pattern file answers with one typed error.

use crate::db::complete::CompleteTables;
use crate::db::error::{AnswerError, FormatError, NeedsCompleteTables, OpenError};
use crate::db::format::check::check_header;
use crate::db::goal_table::GoalTable;
use crate::db::patterns::PatternTables;
use crate::db::report::{self, Info, Report};
use crate::pattern::{Solution, SolveOptions};
use crate::puzzle::board::Board;
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use crate::puzzle::solvability;
use memmap2::Mmap;
use std::fs::File;
use std::path::Path;

/// An opened npuzzle database of either kind: generic over its bytes, so
/// tests can use a `Vec<u8>` and the tools a memory map.
pub struct Database<B = Mmap> {
    kind: Kind<B>,
}

/// What the file holds. One database is opened per process, so the size
/// difference of the variants (complete tables keep their routing inline)
/// costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
enum Kind<B> {
    Complete(CompleteTables<B>),
    Pattern(PatternTables<B>),
}

impl Database<Mmap> {
    /// Opens and maps a database file of either kind, told apart by its
    /// header (a partition: pattern tables). Only the header is read and checked; table pages are
    /// read by the system when a question first touches them.
    ///
    /// # The mapping's contract
    /// The file is mapped, not read: it must not be truncated or rewritten
    /// in place while the database is open. A file truncated under a reader
    /// makes the next question that touches a missing page crash the
    /// process (SIGBUS); no check can prevent that. `build-db` never does
    /// it: it writes a new file and renames it into place, and an open map
    /// keeps the old file alive.
    pub fn open(path: &Path) -> Result<Database<Mmap>, OpenError> {
        let map = map_file(path)?;
        Database::from_bytes(map).map_err(|problem| OpenError::Format {
            path: path.to_path_buf(),
            problem,
        })
    }
}

/// Maps a database file of either kind read-only, after checking that it
/// is a regular file; nothing of it is read yet. The contract is
/// [`Database::open`]'s: the file must not be truncated or rewritten in
/// place while mapped.
#[allow(unsafe_code)]
pub(crate) fn map_file(path: &Path) -> Result<Mmap, OpenError> {
    let io_err = |source| OpenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let not_a_file = |meta: &std::fs::Metadata| OpenError::NotAFile {
        path: path.to_path_buf(),
        kind: crate::db::replace::file_kind(meta),
    };
    // The type first: opening a FIFO would block until a writer came.
    let meta = std::fs::metadata(path).map_err(io_err)?;
    if !meta.is_file() {
        return Err(not_a_file(&meta));
    }
    let file = File::open(path).map_err(io_err)?;
    let meta = file.metadata().map_err(io_err)?;
    if !meta.is_file() {
        return Err(not_a_file(&meta));
    }
    // SAFETY: the map is read-only and lives as long as the database. The
    // contract of `Mmap::map` is that no one truncates or rewrites the
    // file while it is mapped; `build-db` never does (it writes a new file
    // and renames it into place, and a mapped file outlives its name).
    // A file truncated by another program would fault (SIGBUS) on access,
    // which no check here can prevent; `open`'s documentation says so.
    let map = unsafe { Mmap::map(&file) }.map_err(|system| {
        // A file the system makes up as it is read (in /proc or /sys)
        // says it is empty, and refuses a mapping ("No such device"); any
        // other failure (an address space too small) is the system's own.
        const NO_SUCH_DEVICE: i32 = 19;
        let made_up = system.raw_os_error() == Some(NO_SUCH_DEVICE)
            || file.metadata().is_ok_and(|m| m.len() == 0);
        match made_up {
            true => OpenError::Unmappable {
                path: path.to_path_buf(),
                system,
            },
            false => io_err(system),
        }
    })?;
    // Pages read from disk for a mapping with this advice enter the page
    // cache in 2 MiB pieces, which this process and every later one map
    // with one fault each instead of one per 64 KiB: Korf's 100 through the
    // 577 MB `7-8` file take about 550 page faults instead of 10,000, and
    // their reads miss the TLB less. Only a hint: refused, or on other
    // systems, the pages stay ordinary.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
}

impl<B: AsRef<[u8]>> Database<B> {
    /// Checks the header of a database held in memory. Costs time
    /// proportional to the header, not to the tables.
    pub fn from_bytes(bytes: B) -> Result<Database<B>, FormatError> {
        let checked = check_header(bytes.as_ref())?;
        let kind = match checked.partition {
            None => Kind::Complete(CompleteTables::from_checked(bytes, checked)),
            Some(partition) => Kind::Pattern(PatternTables::from_checked(
                bytes,
                checked.header,
                partition,
                checked.header_start,
            )),
        };
        Ok(Database { kind })
    }

    /// The board of every position in the database.
    pub fn shape(&self) -> Shape {
        match &self.kind {
            Kind::Complete(db) => db.shape(),
            Kind::Pattern(db) => db.shape(),
        }
    }

    /// How the file's distances count moves: always single-tile moves for
    /// a pattern database.
    pub fn metric(&self) -> Metric {
        match &self.kind {
            Kind::Complete(db) => db.metric(),
            Kind::Pattern(_) => Metric::SingleTile,
        }
    }

    /// Which kind of file it is, as `info` and every face name it.
    pub fn kind(&self) -> report::Kind {
        match &self.kind {
            Kind::Complete(_) => report::Kind::Complete,
            Kind::Pattern(_) => report::Kind::Pattern,
        }
    }

    /// A pattern database's partition of the tiles (`7-8`, `6-6-3`), or
    /// `None` for complete tables.
    pub fn partition(&self) -> Option<&str> {
        self.patterns().map(|p| p.partition().name())
    }

    /// The complete tables, or why this file cannot serve what needs them.
    pub fn complete(&self) -> Result<&CompleteTables<B>, NeedsCompleteTables> {
        match &self.kind {
            Kind::Complete(db) => Ok(db),
            Kind::Pattern(_) => Err(NeedsCompleteTables {
                shape: self.shape(),
            }),
        }
    }

    /// [`Database::complete`], keeping the bytes.
    pub fn into_complete(self) -> Result<CompleteTables<B>, NeedsCompleteTables> {
        let shape = self.shape();
        match self.kind {
            Kind::Complete(db) => Ok(db),
            Kind::Pattern(_) => Err(NeedsCompleteTables { shape }),
        }
    }

    /// [`Database::patterns`], keeping the bytes.
    pub fn into_patterns(self) -> Option<PatternTables<B>> {
        match self.kind {
            Kind::Pattern(db) => Some(db),
            Kind::Complete(_) => None,
        }
    }

    /// The pattern tables, if that is the kind.
    pub fn patterns(&self) -> Option<&PatternTables<B>> {
        match &self.kind {
            Kind::Pattern(db) => Some(db),
            Kind::Complete(_) => None,
        }
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.kind {
            Kind::Complete(db) => db.bytes(),
            Kind::Pattern(db) => db.bytes(),
        }
    }

    /// Whether goals with the blank in `cell` are answered (by the cell's
    /// own tables or, through a symmetry, another cell's).
    pub fn serves(&self, cell: usize) -> bool {
        match &self.kind {
            Kind::Complete(db) => db.serves(cell),
            Kind::Pattern(db) => db.set_for(cell).is_some(),
        }
    }

    /// Checks, before any work, that goals like `goal` are answered: its
    /// board and its blank's class. A batch says so once instead of on
    /// every line.
    pub fn check_goal(&self, goal: &Board) -> Result<(), AnswerError> {
        match &self.kind {
            Kind::Complete(db) => db.goal_table(goal).map(|_| ()),
            Kind::Pattern(db) => db.set_serving(goal).map(|_| ()),
        }
    }

    /// Prepares lookups toward one goal; needs complete tables.
    pub fn goal_table(&self, goal: &Board) -> Result<GoalTable<'_>, AnswerError> {
        self.complete()?.goal_table(goal)
    }

    /// One shortest sequence of blank moves from `start` to `goal`, and the
    /// nodes searched to find it. Complete tables look it up (`nodes` is 0:
    /// nothing is searched) and ignore `options`; pattern tables search,
    /// within `options`' deadline.
    pub fn solve(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<Solution, AnswerError> {
        let solved = match &self.kind {
            Kind::Complete(db) => db.solve(start, goal).map(|moves| Solution {
                moves,
                nodes: 0,
                expanded: 0,
            }),
            Kind::Pattern(db) => db.solve(start, goal, options),
        };
        solved.map_err(|e| unsolvable_before_missing(e, start, goal))
    }

    /// Fewest moves from `start` to `goal` (a search finds a solution to
    /// know it).
    pub fn distance(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<u32, AnswerError> {
        match &self.kind {
            Kind::Complete(db) => db
                .distance(start, goal)
                .map_err(|e| unsolvable_before_missing(e, start, goal)),
            Kind::Pattern(_) => Ok(self.solve(start, goal, options)?.moves.len() as u32),
        }
    }

    /// What the file holds, with the same fields for both kinds.
    pub fn info(&self) -> Info {
        match &self.kind {
            Kind::Complete(db) => Info::of_complete(db),
            Kind::Pattern(db) => Info::of_patterns(db),
        }
    }

    /// Reads every table and checks it (see [`Report`]): the explicit,
    /// whole-file step that opening skips.
    pub fn verify(&self) -> Report
    where
        B: Sync + Send,
    {
        match &self.kind {
            Kind::Complete(db) => db.verify(),
            Kind::Pattern(db) => db.verify(),
        }
    }
}

/// `e`, unless it is that no table serves `goal` and `start` cannot reach
/// it anyway: then that, which needs no table. Checked only once a table
/// is missing, so that lookups pay nothing for it.
pub(crate) fn unsolvable_before_missing(
    e: AnswerError,
    start: &Board,
    goal: &Board,
) -> AnswerError {
    match e {
        AnswerError::MissingGoal { .. } => match solvability::check(start, goal) {
            Err(why) => AnswerError::Unsolvable(why),
            Ok(()) => e,
        },
        e => e,
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::map_file;
    use std::path::Path;

    /// The flags the kernel lists for the mapping holding `address`, from
    /// `/proc/self/smaps`; `None` where it lists none (some sandboxes).
    fn mapping_flags(address: usize) -> Option<Vec<String>> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((start, end)) = range.split_once('-') {
                if let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                ) {
                    inside = (start..end).contains(&address);
                    continue;
                }
            }
            if let Some(flags) = line.strip_prefix("VmFlags:").filter(|_| inside) {
                return Some(flags.split_whitespace().map(String::from).collect());
            }
        }
        None
    }

    #[test]
    fn a_mapped_file_asks_for_huge_pages_where_the_kernel_has_them() {
        if !Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tables");
        std::fs::write(&path, vec![7u8; 4 << 20]).unwrap();
        let map = map_file(&path).unwrap();
        // Where the kernel lists no flags, nothing here can be checked.
        if let Some(flags) = mapping_flags(map.as_ptr() as usize) {
            assert!(flags.iter().any(|f| f == "hg"), "{flags:?}");
        }
    }
}
