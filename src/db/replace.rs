//! Replacing a file atomically: write a temporary file beside it, flush it
//! to disk, rename it over the target, flush the folder. A crash at any point
//! leaves the old file or the new one, never a part. Databases and charts
//! are written this way.

use super::error::shown_path;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tempfile::NamedTempFile;

/// Why a replacement could not start or finish. The old file, if any, is
/// untouched.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    /// Something on the way to the target's folder is not a folder.
    #[error("{} is not a folder", shown_path(.0))]
    NotAFolder(PathBuf),
    /// The target exists and is not a regular file: replacing it would put
    /// a file where a device, a pipe, a socket or a folder was.
    #[error("{} is a {kind}, not a regular file", shown_path(path))]
    NotAFile {
        /// The target (after following symbolic links).
        path: PathBuf,
        /// What it is.
        kind: &'static str,
    },
    /// The file system has no room for the new file, found before it was
    /// written.
    #[error("it needs {}{}", megabytes(*.needed), free_room(*.needed, *.free))]
    NoRoom {
        /// The bytes asked for.
        needed: u64,
        /// The bytes the file system has free for this process, if known.
        free: Option<u64>,
        /// The system's refusal.
        #[source]
        source: io::Error,
    },
    /// The new file would pass the process's file-size limit (`ulimit -f`).
    #[error(
        "it needs {}, more than this process may write to one file ({}, ulimit -f)",
        megabytes(*.needed),
        megabytes(*.limit)
    )]
    TooLarge {
        /// The bytes asked for.
        needed: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// Symbolic links that do not end.
    #[error("{} is a loop of symbolic links", shown_path(.0))]
    LinkLoop(PathBuf),
    /// A file name longer than file systems hold: refused before any work,
    /// not when the new file is put in place.
    #[error("its name is {0} bytes long, and a file name holds at most {NAME_MAX}")]
    NameTooLong(usize),
    /// A path ending in `/` (or `.`, `..`), which names a folder, not a
    /// file.
    #[error("the path ends in {0}, so it names a folder, not a file")]
    NamesAFolder(&'static str),
    /// A database would replace a file that is not one (a typo in `--out`
    /// would otherwise cost the file).
    #[error(
        "{} exists and is not an npuzzle database: remove it first, or choose another name",
        shown_path(.0)
    )]
    NotADatabase(PathBuf),
    /// A chart or a worksheet would replace a database (`--plot` naming the
    /// file read, through a link or not).
    #[error("{} is an npuzzle database, not a file to write over", shown_path(.0))]
    IsADatabase(PathBuf),
    /// A chart or a worksheet would replace a file that npuzzle did not
    /// write (`--worksheet index.html` over a page of one's own).
    #[error(
        "{} exists and is not a chart or a worksheet npuzzle wrote (only those are written \
         over): remove it first, or choose another name",
        shown_path(.0)
    )]
    NotOurs(PathBuf),
    /// The file to replace is read-only to its owner, who may have marked
    /// it so as not to lose it.
    #[error(
        "{} is read-only: make it writable (chmod u+w) to have it replaced, or choose another \
         name",
        shown_path(.0)
    )]
    ReadOnly(PathBuf),
    /// The folder of a chart or a worksheet does not exist: made only for
    /// databases, so that a misspelt folder is said, not made.
    #[error("the folder {} does not exist", shown_path(.0))]
    NoFolder(PathBuf),
    /// [`ReplaceError::NoFolder`], of the file a symbolic link points to.
    #[error(
        "the folder {} does not exist ({} is a link to {})",
        shown_path(folder),
        shown_path(link),
        shown_path(target)
    )]
    NoFolderOfLink {
        /// The missing folder.
        folder: PathBuf,
        /// The path given.
        link: PathBuf,
        /// Where the link points.
        target: PathBuf,
    },
    /// The system refused a step.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Bytes for messages: in megabytes, or in kilobytes or bytes where
/// megabytes would round to nothing (`ulimit -f 10` is 10,240 bytes).
pub fn megabytes(bytes: u64) -> String {
    // Bounds where the rounding to one decimal would reach the next unit.
    match bytes {
        1 => "1 byte".to_string(),
        0..1_000 => format!("{bytes} bytes"),
        1_000..999_950 => format!("{:.1} kB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// The free room, where it is what falls short: a file too large for the
/// process's limit may fit the file system.
fn free_room(needed: u64, free: Option<u64>) -> String {
    match free {
        Some(free) if free < needed => {
            format!(", and its file system has {} free", megabytes(free))
        }
        _ => String::new(),
    }
}

/// tempfile's error without the temporary file's path, which it appends
/// (`… at path "…"`): the message already names the target, and a path
/// is not worth printing twice, least of all an absurdly long one.
fn without_temporary_path(e: io::Error) -> io::Error {
    match e.to_string().split_once(" at path \"") {
        Some((what, _)) => io::Error::new(e.kind(), what.to_string()),
        None => e,
    }
}

/// What a replacement writes, which decides what it may write over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writes {
    /// A database: it replaces only a database (or an empty file), and makes
    /// its folder if missing.
    Database,
    /// A chart or a worksheet: it replaces only one npuzzle wrote (with its
    /// mark: [`SVG_MARK`], [`PNG_MARK`], [`HTML_MARK`]) or an empty file,
    /// in a folder that exists.
    Document,
}

/// The first line of every SVG chart: what lets a later chart replace it.
pub const SVG_MARK: &str = "<!-- drawn by npuzzle -->";
/// The `tEXt` chunk (keyword, text) of every PNG chart, written right after
/// its header.
pub const PNG_MARK: (&str, &str) = ("Software", "npuzzle");
/// The element in the head of every worksheet.
pub const HTML_MARK: &str = r#"<meta name="generator" content="npuzzle">"#;

/// A new version of a file, being written beside it.
pub struct Replacement {
    /// The file replaced: the target with symbolic links followed, so that
    /// a link stays a link and its file is replaced in its own folder.
    target: PathBuf,
    dir: PathBuf,
    temp: NamedTempFile,
    _listed: Unfinished,
}

/// The temporary files being written, which a process stopped by a signal
/// removes ([`remove_unfinished`]): its destructors do not run.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary file's place in [`UNFINISHED`], given up when it is renamed
/// or removed.
struct Unfinished(PathBuf);

impl Unfinished {
    fn list(path: &Path) -> Unfinished {
        UNFINISHED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(path.to_path_buf());
        Unfinished(path.to_path_buf())
    }
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        let mut listed = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
        listed.retain(|p| *p != self.0);
    }
}

/// Removes the temporary files of the replacements under way: for a
/// process about to end on a signal (Ctrl-C), whose replacements will not
/// finish, so that a build stopped leaves no file holding its room.
#[cfg(feature = "cli")]
pub fn remove_unfinished() {
    let listed = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
    for path in listed.iter() {
        let _ = std::fs::remove_file(path);
    }
}

impl Replacement {
    /// Starts a replacement of `target`, if `writes` may write over what
    /// is there (and, for a database, making its folder if it is missing).
    /// The temporary file is named `.NAME.PID.XXXXXX` + `suffix`,
    /// so that a later replacement can tell whether its writer still runs;
    /// leftovers of writers that were killed are removed first.
    pub fn start(target: &Path, suffix: &str, writes: Writes) -> Result<Replacement, ReplaceError> {
        if let Some(end) = folder_ending(target) {
            return Err(ReplaceError::NamesAFolder(end));
        }
        let given = target;
        let target = follow_links(given)?;
        let name_bytes = target.file_name().map_or(0, |n| n.len());
        if name_bytes > NAME_MAX {
            return Err(ReplaceError::NameTooLong(name_bytes));
        }
        let mut kept = None;
        match std::fs::metadata(&target) {
            Ok(meta) if !meta.is_file() => {
                return Err(ReplaceError::NotAFile {
                    kind: file_kind(&meta),
                    path: target,
                })
            }
            Ok(meta) => {
                kept = kept_mode(&meta);
                let database = is_database(&target)?;
                match writes {
                    Writes::Database if !database && meta.len() > 0 => {
                        return Err(ReplaceError::NotADatabase(target))
                    }
                    Writes::Document if database => return Err(ReplaceError::IsADatabase(target)),
                    Writes::Document if meta.len() > 0 && !is_document(&target)? => {
                        return Err(ReplaceError::NotOurs(target))
                    }
                    _ => {}
                }
                // Said only of a file that would otherwise be replaced:
                // advice to make another writable (a database a chart's
                // link points at) would cost it its protection.
                if read_only(&meta) {
                    return Err(ReplaceError::ReadOnly(target));
                }
            }
            Err(_) => {}
        }
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        make_folder(&dir, writes == Writes::Database).map_err(|e| match e {
            // Said with the link, whose own folder does exist.
            ReplaceError::NoFolder(folder) if given != target => ReplaceError::NoFolderOfLink {
                folder,
                link: given.to_path_buf(),
                target: target.clone(),
            },
            e => e,
        })?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = temporary_stem(&name, suffix);
        remove_abandoned(&dir, name, suffix);
        let prefix = format!(".{name}.{}.", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(suffix);
        // The files are for everyone to read; the temporary file would
        // otherwise keep its private 0600 mode through the rename.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
        let temp = builder.tempfile_in(&dir).map_err(without_temporary_path)?;
        let _listed = Unfinished::list(temp.path());
        // Where the file system keeps no modes, the default stands.
        if let Some(mode) = kept {
            let _ = temp.as_file().set_permissions(mode);
        }
        Ok(Replacement {
            target,
            dir,
            temp,
            _listed,
        })
    }

    /// The temporary file, to write into.
    pub fn file(&self) -> &File {
        self.temp.as_file()
    }

    /// Whether `other` replaces the same file: the same name in the same
    /// folder, links followed (two outputs of one command must not).
    pub fn same_target(&self, other: &Replacement) -> bool {
        let folder = |r: &Replacement| r.dir.canonicalize().ok();
        self.target.file_name() == other.target.file_name()
            && folder(self).is_some()
            && folder(self) == folder(other)
    }

    /// The temporary file's path, for writers that open files by name.
    pub fn path(&self) -> &Path {
        self.temp.path()
    }

    /// Sets aside room on disk for the new version's first `bytes`, so that
    /// a file system without it, or a file-size limit below it, refuses
    /// now rather than partway through the writing. The file's size stays
    /// as it is. Where the system cannot set room aside (a file system
    /// without the call, a system other than Linux), this does nothing and
    /// the writes find out.
    pub fn set_aside(&self, bytes: u64) -> Result<(), ReplaceError> {
        set_aside(self.temp.as_file(), bytes)
    }

    /// Flushes the new version and renames it over the target. Dropped
    /// without this, the temporary file is removed and the target untouched.
    pub fn commit(self) -> io::Result<()> {
        self.temp.as_file().sync_all()?;
        self.temp.persist(&self.target).map_err(|e| e.error)?;
        // Make the rename itself durable.
        File::open(&self.dir)?.sync_all()
    }
}

#[cfg(target_os = "linux")]
fn set_aside(file: &File, bytes: u64) -> Result<(), ReplaceError> {
    use rustix::fs::{fallocate, fstatvfs, FallocateFlags};
    use rustix::io::Errno;
    use rustix::process::{getrlimit, Resource};
    // Past the file-size limit (`ulimit -f`) every write would fail; said
    // here, since room set aside below the file's end is not checked
    // against the limit.
    if let Some(limit) = getrlimit(Resource::Fsize).current.filter(|&l| l < bytes) {
        return Err(ReplaceError::TooLarge {
            needed: bytes,
            limit,
        });
    }
    loop {
        // Room past the file's end, its size unchanged: a file system that
        // would write zeros to grow the file (FAT) only allocates.
        match fallocate(file, FallocateFlags::KEEP_SIZE, 0, bytes) {
            Ok(()) => return Ok(()),
            Err(Errno::INTR) => continue,
            Err(e @ (Errno::NOSPC | Errno::DQUOT | Errno::FBIG | Errno::NOMEM)) => {
                let free = fstatvfs(file)
                    .ok()
                    .map(|s| s.f_bavail.saturating_mul(s.f_frsize));
                return Err(ReplaceError::NoRoom {
                    needed: bytes,
                    free,
                    source: e.into(),
                });
            }
            // Not supported here, or refused for another reason: the
            // writes will tell.
            Err(_) => return Ok(()),
        }
    }
}

/// The longest file name most file systems hold, in bytes.
const NAME_MAX: usize = 255;

/// The path with every symbolic link along its last component followed
/// (the link's folder is the base of a relative link). A missing file is
/// fine: it is where the new one goes.
fn follow_links(path: &Path) -> Result<PathBuf, ReplaceError> {
    let mut path = path.to_path_buf();
    // As the system does (ELOOP), give up after 40 links.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(ReplaceError::LinkLoop(path))
}

/// True when `path` starts as an npuzzle database does, of any version.
fn is_database(path: &Path) -> io::Result<bool> {
    use super::format::{MAGIC, OLD_PATTERN_MAGIC};
    use std::io::Read;
    let mut start = [0u8; MAGIC.len()];
    match File::open(path)?.read_exact(&mut start) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
        Err(e) => return Err(e),
    }
    Ok(start == MAGIC || start == OLD_PATTERN_MAGIC)
}

/// The permissions a file's new version keeps: the old one's read and
/// write bits, so that a private file stays private, where this process
/// owns it. Not set-user or set-group bits, which would pass to new
/// content, and not another user's mode (a replacement by root), which
/// could lock that user out of what becomes root's file: the default,
/// readable by all, stands there.
fn kept_mode(meta: &std::fs::Metadata) -> Option<std::fs::Permissions> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let owned = meta.uid() == rustix::process::geteuid().as_raw();
        owned.then(|| std::fs::Permissions::from_mode(meta.mode() & 0o777))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = meta;
        None
    }
}

/// Whether a file's owner has marked it read-only (no write bit for the
/// owner), to keep it: refused even to root, which could write it.
fn read_only(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o200 == 0
    }
    #[cfg(not(unix))]
    meta.permissions().readonly()
}

/// Whether `path` begins as a chart or a worksheet npuzzle wrote: its
/// mark where npuzzle puts it, not merely somewhere in the file (a page
/// that quotes the mark in its text is someone's own): an SVG's first
/// line, a PNG's first chunk after its header, an HTML page's head.
fn is_document(path: &Path) -> io::Result<bool> {
    use std::io::Read;
    let mut start = Vec::with_capacity(1024);
    File::open(path)?.take(1024).read_to_end(&mut start)?;
    let (keyword, text) = PNG_MARK;
    let png = [b"tEXt", keyword.as_bytes(), b"\0", text.as_bytes()].concat();
    // 8 bytes of signature, 25 of header chunk, then the chunk's length.
    let png_marked =
        start.starts_with(PNG_SIGNATURE) && start.get(37..).is_some_and(|c| c.starts_with(&png));
    Ok(start.starts_with(SVG_MARK.as_bytes()) || png_marked || html_marked(&start))
}

/// The eight bytes every PNG file begins with.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Whether `start` opens an HTML page with [`HTML_MARK`] in its head.
fn html_marked(start: &[u8]) -> bool {
    let text = String::from_utf8_lossy(start).to_ascii_lowercase();
    let head_ends = text.find("</head>").unwrap_or(text.len());
    let head = &text[..head_ends];
    text.starts_with("<!doctype html>") && !head.contains("<body") && head.contains(HTML_MARK)
}

/// Makes `dir` and its missing parents where `make`, else refuses a
/// missing one; refuses a path through a file either way.
fn make_folder(dir: &Path, make: bool) -> Result<(), ReplaceError> {
    if dir.is_dir() {
        return Ok(());
    }
    // The nearest existing ancestor must be a folder for a folder to go
    // under it: name it, rather than the system's "not a directory".
    let mut existing = dir;
    while !existing.exists() {
        match existing.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => existing = parent,
            _ => break,
        }
    }
    if existing.exists() && !existing.is_dir() {
        return Err(ReplaceError::NotAFolder(existing.to_path_buf()));
    }
    if !make {
        return Err(ReplaceError::NoFolder(dir.to_path_buf()));
    }
    std::fs::create_dir_all(dir)?;
    Ok(())
}

/// What a non-regular file is, in words.
pub(crate) fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_block_device() {
            return "device";
        }
        if kind.is_fifo() {
            return "named pipe (FIFO)";
        }
        if kind.is_socket() {
            return "socket";
        }
    }
    if kind.is_dir() {
        "folder"
    } else {
        "special file"
    }
}

/// How `path` ends where its end can only name a folder (`/`, `.`, `..`),
/// which the system's path handling would otherwise take for the folder
/// itself or its parent.
fn folder_ending(path: &Path) -> Option<&'static str> {
    let bytes = path.as_os_str().as_encoded_bytes();
    let last = bytes.rsplit(|&b| b == b'/').next().unwrap_or_default();
    match last {
        b"" if !bytes.is_empty() => Some("/"),
        b"." => Some("."),
        b".." => Some(".."),
        _ => None,
    }
}

/// The part of the target's `name` that its temporary file's name begins
/// with: all of it where the whole temporary name fits the 255 bytes a
/// file name may have, else as much as fits, so that a target with a long
/// name is as writable as one with a short name.
fn temporary_stem<'a>(name: &'a str, suffix: &str) -> &'a str {
    // `.`, the name, `.`, a process id of up to 10 digits, `.`, 6 random
    // characters, the suffix.
    let room = 255usize.saturating_sub(19 + suffix.len());
    let mut end = name.len().min(room);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Removes temporary files of replacements of `name` in `dir` whose writer
/// process no longer runs. Best effort: what cannot be removed stays for the
/// next time.
fn remove_abandoned(dir: &Path, name: &str, suffix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        if !rest.ends_with(suffix) {
            continue;
        }
        let writer_alive = match rest
            .split('.')
            .next()
            .and_then(|pid| pid.parse::<u32>().ok())
        {
            Some(pid) => process_is_running(pid),
            None => true, // not a name this version writes: leave it alone
        };
        if !writer_alive {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this id exists. Where that cannot be known (no
/// /proc), every writer counts as running and nothing is removed.
fn process_is_running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_said_in_the_unit_that_shows_them() {
        let said: Vec<String> = [1, 999, 1_000, 10_240, 999_949, 999_950, 576_600_000]
            .into_iter()
            .map(megabytes)
            .collect();
        assert_eq!(
            said,
            [
                "1 byte",
                "999 bytes",
                "1.0 kB",
                "10.2 kB",
                "999.9 kB",
                "1.0 MB",
                "576.6 MB"
            ]
        );
    }
    use std::io::Write;

    #[test]
    fn leftovers_of_dead_writers_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dir.path().join(".x.db.4000000000.abc123.tmp");
        let live = dir
            .path()
            .join(format!(".x.db.{}.def456.tmp", std::process::id()));
        let foreign = dir.path().join(".x.db.notes.tmp");
        let other_file = dir.path().join(".y.db.4000000000.abc123.tmp");
        for f in [&dead, &live, &foreign, &other_file] {
            std::fs::write(f, b"partial").unwrap();
        }
        let target = dir.path().join("x.db");
        let replacement = Replacement::start(&target, ".tmp", Writes::Database).unwrap();
        replacement.file().write_all(b"new").unwrap();
        replacement.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert!(!dead.exists(), "a dead writer's file was kept");
        assert!(live.exists() && foreign.exists() && other_file.exists());
    }

    /// Names up to the system's 255 bytes are written, with multi-byte
    /// characters cut whole in the temporary file's name.
    #[test]
    fn a_target_with_the_longest_name_is_written() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b".repeat(250) + ".html", "é".repeat(125) + ".html"] {
            assert!(name.len() <= 255);
            let target = dir.path().join(&name);
            let replacement = Replacement::start(&target, ".html", Writes::Document).unwrap();
            replacement.file().write_all(b"page").unwrap();
            replacement.commit().unwrap();
            assert_eq!(std::fs::read(&target).unwrap(), b"page");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        // One byte more: refused at the start, nothing made.
        let long = dir.path().join("b".repeat(251) + ".html");
        let refused = Replacement::start(&long, ".html", Writes::Document);
        assert!(matches!(refused, Err(ReplaceError::NameTooLong(256))));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        assert_eq!(temporary_stem("short.db", ".tmp"), "short.db");
        // A name ending in / names a folder: refused, nothing made.
        let slashed = dir.path().join("x.db/");
        let refused = Replacement::start(&slashed, ".tmp", Writes::Database);
        assert!(matches!(refused, Err(ReplaceError::NamesAFolder("/"))));
        for (path, end) in [("x.db/.", "."), ("x.db/..", ".."), (".", "."), ("a/", "/")] {
            assert_eq!(folder_ending(Path::new(path)), Some(end), "{path}");
        }
        for path in ["x.db", "a/.x.db", "..x", "a/b..", "/x"] {
            assert_eq!(folder_ending(Path::new(path)), None, "{path}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_replacement_dropped_unfinished_leaves_the_target_alone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("x.db");
        std::fs::write(&target, b"NPUZZLE\0old").unwrap();
        let replacement = Replacement::start(&target, ".tmp", Writes::Database).unwrap();
        replacement.file().write_all(b"half").unwrap();
        drop(replacement);
        assert_eq!(std::fs::read(&target).unwrap(), b"NPUZZLE\0old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// A database replaces only a database (or nothing, or an empty file),
    /// and a chart anything but a database, through links too; the file
    /// refused is left as it was.
    #[test]
    fn databases_and_documents_replace_only_their_own_kind() {
        let dir = tempfile::tempdir().unwrap();
        let database = dir.path().join("x.db");
        let notes = dir.path().join("notes.txt");
        let empty = dir.path().join("empty.db");
        let old_pattern = dir.path().join("old.db");
        std::fs::write(&database, b"NPUZZLE\0header").unwrap();
        std::fs::write(&notes, b"notes").unwrap();
        std::fs::write(&empty, b"").unwrap();
        std::fs::write(&old_pattern, b"NPUZPDB\0header").unwrap();
        let link = dir.path().join("chart.svg");
        std::os::unix::fs::symlink(&database, &link).unwrap();
        let start = |path: &Path, writes| Replacement::start(path, ".tmp", writes);
        for path in [&database, &empty, &old_pattern] {
            assert!(start(path, Writes::Database).is_ok(), "{path:?}");
        }
        assert!(matches!(
            start(&notes, Writes::Database),
            Err(ReplaceError::NotADatabase(_))
        ));
        for path in [&database, &link, &old_pattern] {
            let refused = start(path, Writes::Document);
            assert!(
                matches!(refused, Err(ReplaceError::IsADatabase(_))),
                "{path:?}"
            );
        }
        // A document replaces only one npuzzle wrote, or an empty file.
        assert!(matches!(
            start(&notes, Writes::Document),
            Err(ReplaceError::NotOurs(_))
        ));
        let svg = dir.path().join("drawn.svg");
        let page = dir.path().join("sheet.html");
        let png = dir.path().join("chart.png");
        std::fs::write(&svg, format!("{SVG_MARK}\n<svg></svg>")).unwrap();
        let head = format!("<!doctype html>\n<html>\n<head>\n{HTML_MARK}\n</head>");
        std::fs::write(&page, head).unwrap();
        let png_start = [
            &b"\x89PNG\r\n\x1a\n"[..],
            &[0; 25],
            b"\0\0\0\x10tEXtSoftware\0npuzzle",
        ];
        std::fs::write(&png, png_start.concat()).unwrap();
        for path in [&svg, &page, &png, &empty] {
            assert!(start(path, Writes::Document).is_ok(), "{path:?}");
        }
        // The SVG's mark opens the file; further in, it is not the mark.
        std::fs::write(&svg, format!("<svg>{SVG_MARK}</svg>")).unwrap();
        assert!(start(&svg, Writes::Document).is_err());
        // A page that quotes the worksheet's mark in its text, or a PNG
        // whose text says so further in, is someone's own.
        let essay = format!("<!DOCTYPE html>\n<head><title>x</title></head>\n<body>{HTML_MARK}");
        let bodied = format!("<!doctype html>\n<body>\n<p>{HTML_MARK}");
        let quoted = format!("<p>This tag: {HTML_MARK}</p>");
        for text in [essay, bodied, quoted] {
            std::fs::write(&page, &text).unwrap();
            assert!(start(&page, Writes::Document).is_err(), "{text}");
        }
        let later = [png_start[0], &[0; 40], png_start[2]].concat();
        std::fs::write(&png, later).unwrap();
        assert!(start(&png, Writes::Document).is_err());
        assert_eq!(std::fs::read(&database).unwrap(), b"NPUZZLE\0header");
        assert_eq!(std::fs::read(&notes).unwrap(), b"notes");
    }

    /// A file replaced keeps its mode (a private one stays private), and a
    /// read-only one is refused, as its owner marked it to be kept.
    #[cfg(unix)]
    #[test]
    fn a_file_replaced_keeps_its_mode_and_a_read_only_one_is_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let chart = dir.path().join("c.svg");
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o7777;
        let set = |path: &Path, mode| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
        };
        let replace = |text: &str| {
            let replacement = Replacement::start(&chart, ".svg", Writes::Document)?;
            std::io::Write::write_all(&mut replacement.file(), text.as_bytes())?;
            replacement.commit()?;
            Ok::<(), ReplaceError>(())
        };
        replace(&format!("{SVG_MARK}\nfirst")).unwrap();
        set(&chart, 0o600);
        replace(&format!("{SVG_MARK}\nsecond")).unwrap();
        assert_eq!(mode(&chart), 0o600);
        // Set-user and set-group bits do not pass to new content.
        set(&chart, 0o6750);
        replace(&format!("{SVG_MARK}\nsecond")).unwrap();
        assert_eq!(mode(&chart), 0o750);
        // Read-only to its owner, though others may write it: refused.
        for read_only in [0o444, 0o464] {
            set(&chart, read_only);
            let refused = replace(&format!("{SVG_MARK}\nthird"));
            assert!(
                matches!(refused, Err(ReplaceError::ReadOnly(_))),
                "{refused:?}"
            );
        }
        let kept = std::fs::read_to_string(&chart).unwrap();
        assert_eq!(kept, format!("{SVG_MARK}\nsecond"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // A read-only file that would not be replaced anyway is refused as
        // such, not with advice to make it writable.
        let notes = dir.path().join("notes.svg");
        std::fs::write(&notes, "my own drawing").unwrap();
        set(&notes, 0o444);
        let refused = Replacement::start(&notes, ".svg", Writes::Document).err();
        assert!(
            matches!(refused, Some(ReplaceError::NotOurs(_))),
            "{refused:?}"
        );
    }

    /// Only a database makes its missing folder: a chart's misspelt folder
    /// is said.
    #[test]
    fn only_databases_make_their_folders() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such");
        let refused = Replacement::start(&missing.join("c.svg"), ".svg", Writes::Document);
        assert!(matches!(refused, Err(ReplaceError::NoFolder(_))));
        assert!(!missing.exists());
        Replacement::start(&missing.join("x.db"), ".tmp", Writes::Database).unwrap();
        assert!(missing.is_dir());
        // Through a link, the link is named beside the missing folder.
        #[cfg(unix)]
        {
            let link = dir.path().join("link.svg");
            std::os::unix::fs::symlink(dir.path().join("gone/c.svg"), &link).unwrap();
            let refused = Replacement::start(&link, ".svg", Writes::Document)
                .err()
                .unwrap();
            assert!(matches!(refused, ReplaceError::NoFolderOfLink { .. }));
            assert!(
                refused.to_string().contains("link.svg is a link to"),
                "{refused}"
            );
        }
    }
}
