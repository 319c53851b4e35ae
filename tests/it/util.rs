//! Helpers shared by the integration tests: databases built once and
//! shared, databases in temporary folders, the binaries as commands, and a
//! plain breadth-first search that shares no code with the library.

use assert_cmd::assert::Assert;
use assert_cmd::Command;
use npuzzle::tables::default_paths;
use npuzzle::{CompleteTables, Database, Metric, Shape};
use predicates::prelude::*;
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Mutex, PoisonError};

/// OEIS A089473: 8-puzzle positions at each distance from 123456780.
pub const A089473: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
    16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

/// A database file and the database opened from it. The folder, where
/// there is one, is removed when this is dropped.
pub struct TempDb {
    _dir: Option<tempfile::TempDir>,
    pub path: PathBuf,
    pub db: CompleteTables<memmap2::Mmap>,
}

/// The database of `size` with a table for every goal blank cell (and path
/// tables where `build-db` adds them by default), built once per test run
/// and shared by every test that only reads it. It lives in cargo's
/// temporary folder for tests, under a fixed name, replaced atomically by
/// each run; tests that change a file copy it first.
pub fn temp_db(size: &str) -> &'static TempDb {
    temp_db_counting(size, Metric::SingleTile)
}

/// [`temp_db`], its distances counted in `metric` (as `data/3x3-mtm.db`
/// under the multi-tile metric).
pub fn temp_db_counting(size: &str, metric: Metric) -> &'static TempDb {
    static BUILT: Mutex<Vec<(String, Metric, &'static TempDb)>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, _, db)) = built.iter().find(|(s, m, _)| s == size && *m == metric) {
        return db;
    }
    let shape: Shape = size.parse().unwrap();
    let name = match metric {
        Metric::SingleTile => format!("{shape}.db"),
        Metric::MultiTile => format!("{shape}-{metric}.db"),
    };
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("shared")
        .join(name);
    let blanks: Vec<usize> = (0..shape.cells()).collect();
    let plan = npuzzle::Plan::Complete {
        shape,
        blanks,
        metric,
        paths: default_paths(shape, metric),
    };
    npuzzle::build(&path, &plan, &|_, _| {}).unwrap();
    let db = Database::open(&path).unwrap().into_complete().unwrap();
    let db: &'static TempDb = Box::leak(Box::new(TempDb {
        _dir: None,
        path,
        db,
    }));
    built.push((size.to_string(), metric, db));
    db
}

/// What a test needs to write a changed copy of the shared database of
/// `size` (see [`temp_db`]): a new temporary folder (removed when dropped),
/// a path named `name` in it, and the shared database's bytes.
pub fn bytes_to_change(size: &str, name: &str) -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    let bytes = std::fs::read(&temp_db(size).path).unwrap();
    (dir, path, bytes)
}

/// Distances from `goal` (cells row by row, 0 the blank) to every position
/// that reaches it, by the textbook search: a queue and a hash map.
pub fn plain_bfs(rows: usize, cols: usize, goal: &[u8]) -> HashMap<Vec<u8>, u32> {
    plain_bfs_within(rows, cols, goal, u32::MAX)
}

/// Positions at each distance in a plain search's result.
pub fn histogram(dist: &HashMap<Vec<u8>, u32>) -> Vec<u64> {
    let max = *dist.values().max().unwrap() as usize;
    let mut counts = vec![0; max + 1];
    for &d in dist.values() {
        counts[d as usize] += 1;
    }
    counts
}

/// A database of `shape` with only the tables of `blanks`, and path tables
/// where `build-db` adds them by default, built by
/// [`npuzzle::build`] into a temporary folder.
pub fn temp_db_with_blanks(size: &str, blanks: &[usize]) -> TempDb {
    let shape: Shape = size.parse().unwrap();
    temp_db_built(size, blanks, default_paths(shape, Metric::SingleTile))
}

/// [`temp_db_with_blanks`], with path tables or without as `paths` says.
pub fn temp_db_built(size: &str, blanks: &[usize], paths: bool) -> TempDb {
    let shape: Shape = size.parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{shape}.db"));
    let plan = npuzzle::Plan::Complete {
        shape,
        blanks: blanks.to_vec(),
        metric: Metric::SingleTile,
        paths,
    };
    let built = npuzzle::build(&path, &plan, &|_, _| {}).unwrap();
    assert_eq!(built.goal_blanks, blanks);
    assert_eq!(
        built.entries,
        blanks.len() as u64 * shape.positions().unwrap()
    );
    let db = Database::open(&path).unwrap().into_complete().unwrap();
    TempDb {
        _dir: Some(dir),
        path,
        db,
    }
}

/// The textbook search of [`plain_bfs`], stopped after `max_depth` moves:
/// every position within `max_depth` of `goal`, with its distance.
pub fn plain_bfs_within(
    rows: usize,
    cols: usize,
    goal: &[u8],
    max_depth: u32,
) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(goal.to_vec(), 0);
    queue.push_back(goal.to_vec());
    while let Some(state) = queue.pop_front() {
        let d = dist[&state];
        if d == max_depth {
            continue;
        }
        let blank = state.iter().position(|&t| t == 0).unwrap();
        let (r, c) = ((blank / cols) as isize, (blank % cols) as isize);
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (nr, nc) = (r + dr, c + dc);
            if nr < 0 || nc < 0 || nr >= rows as isize || nc >= cols as isize {
                continue;
            }
            let mut next = state.clone();
            next.swap(blank, nr as usize * cols + nc as usize);
            if !dist.contains_key(&next) {
                dist.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// A lower bound on the moves from `start` to `goal` (cells row by row, 0
/// the blank) that shares no code with the library: the tiles' Manhattan
/// distances. Every move changes it by exactly one, so the true distance
/// also has its parity.
pub fn plain_manhattan(cols: usize, start: &[u8], goal: &[u8]) -> u32 {
    let mut home = [0usize; 36];
    for (cell, &tile) in goal.iter().enumerate() {
        home[tile as usize] = cell;
    }
    start
        .iter()
        .enumerate()
        .filter(|&(_, &tile)| tile != 0)
        .map(|(cell, &tile)| {
            let to = home[tile as usize];
            ((cell / cols).abs_diff(to / cols) + (cell % cols).abs_diff(to % cols)) as u32
        })
        .sum()
}

/// Runs `build-db ARGS… --out OUT`, expects exit code `code`, and returns
/// what it printed.
pub fn run_build_db(args: &[&str], out: &Path, code: i32) -> Output {
    Command::cargo_bin("build-db")
        .unwrap()
        .args(args)
        .arg("--out")
        .arg(out)
        .assert()
        .code(code)
        .get_output()
        .clone()
}

/// `query --db PATH`, with no NPUZZLE_DB to interfere.
pub fn query(db: &Path) -> Command {
    let mut cmd = Command::cargo_bin("query").unwrap();
    cmd.env_remove("NPUZZLE_DB").arg("--db").arg(db);
    cmd
}

/// Whether `program` runs (`program --version`); says the test is skipped
/// where it does not.
pub fn installed(program: &str) -> bool {
    let runs = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        eprintln!("{program} is missing: skipped");
    }
    runs
}

/// Runs `query --db DB ARGS… FILE` with its file-size limit (`ulimit -f`)
/// set to 10,000 bytes through `prlimit`, over a FILE holding "old", and
/// checks the write is refused with the system's reason (exit 2, "cannot
/// write the `what`", "File too large"), the old file kept and no
/// temporary file left; returns stderr, or `None` where `prlimit` is
/// missing.
pub fn refused_past_file_size_limit(
    db: &Path,
    args: &[&str],
    name: &str,
    what: &str,
) -> Option<String> {
    if !installed("prlimit") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    let old = old_document(name, "old");
    std::fs::write(&file, &old).unwrap();
    let out = Command::new("prlimit")
        .arg("--fsize=10000")
        .arg(assert_cmd::cargo::cargo_bin("query"))
        .env_remove("NPUZZLE_DB")
        .arg("--db")
        .arg(db)
        .args(args)
        .arg(&file)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = stderr_of(&out);
    assert!(err.contains(&format!("cannot write the {what}")), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), old);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    Some(err)
}

/// A chart or a worksheet that `query` may write over, named `name`
/// (`.svg`, `.png` or `.html`): `text` after npuzzle's mark for the kind,
/// where npuzzle puts it.
pub fn old_document(name: &str, text: &str) -> Vec<u8> {
    use npuzzle::io::{HTML_MARK, PNG_MARK, SVG_MARK};
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("svg") => format!("{SVG_MARK}\n{text}").into_bytes(),
        // The signature, the header chunk, then the mark's chunk.
        Some("png") => [
            &b"\x89PNG\r\n\x1a\n"[..],
            &[0; 25],
            &[0, 0, 0, 16],
            format!("tEXt{}\0{}{text}", PNG_MARK.0, PNG_MARK.1).as_bytes(),
        ]
        .concat(),
        Some("html") => {
            format!("<!doctype html>\n<head>\n{HTML_MARK}\n</head>\n{text}").into_bytes()
        }
        _ => panic!("{name}: not a chart or a worksheet"),
    }
}

/// `query` with no database argument, run in `dir`, with its per-user data
/// folder at `dir/.xdg/npuzzle`.
pub fn query_in(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("query").unwrap();
    cmd.env_remove("NPUZZLE_DB")
        .env("XDG_DATA_HOME", dir.join(".xdg"))
        .current_dir(dir);
    cmd
}

/// Runs `query --db PATH ARGS…` and expects exit code `code`; the rest of
/// the output is the caller's to check.
pub fn expect_code(db: &Path, args: &[&str], code: i32) -> Assert {
    query(db).args(args).assert().code(code)
}

/// Runs `query ARGS…` in `dir` (see [`query_in`]) and expects exit code
/// `code`; the rest of the output is the caller's to check.
pub fn expect_code_in(dir: &Path, args: &[&str], code: i32) -> Assert {
    query_in(dir).args(args).assert().code(code)
}

/// Runs `query --db PATH ARGS…` and expects it refused: exit code 2,
/// nothing on stdout, and a message on stderr that contains each of
/// `needles`.
pub fn expect_refusal(db: &Path, args: &[&str], needles: &[&str]) -> Assert {
    stderr_has_all(expect_code(db, args, 2).stdout(""), needles)
}

/// That standard error contains each of `needles`.
pub fn stderr_has_all(assert: Assert, needles: &[&str]) -> Assert {
    needles.iter().fold(assert, |assert, needle| {
        assert.stderr(predicate::str::contains(*needle))
    })
}

/// Runs `query --db PATH ARGS…`, expects exit code `code`, and returns
/// what it printed.
pub fn run_query(db: &Path, args: &[&str], code: i32) -> Output {
    expect_code(db, args, code).get_output().clone()
}

/// Runs `query --db PATH ARGS…`, expects exit code `code`, and returns
/// what it printed on stdout, which must be UTF-8.
pub fn printed(db: &Path, args: &[&str], code: i32) -> String {
    stdout_of(&run_query(db, args, code))
}

/// Runs `query --db PATH ARGS…` with `input` on standard input and
/// expects exit code `code`; the rest of the output is the caller's to
/// check.
pub fn expect_batch(db: &Path, args: &[&str], input: impl Into<Vec<u8>>, code: i32) -> Assert {
    query(db).args(args).write_stdin(input).assert().code(code)
}

/// Runs `query --db PATH ARGS…` with `input` on standard input, expects
/// exit code `code`, and returns what it printed.
pub fn run_batch(db: &Path, args: &[&str], input: impl Into<Vec<u8>>, code: i32) -> Output {
    expect_batch(db, args, input, code).get_output().clone()
}

/// Runs `query --db PATH ARGS…`, expects exit 0 and one JSON line, and
/// returns it.
pub fn json_answer(db: &Path, args: &[&str]) -> Value {
    json_of(&run_query(db, args, 0))
}

/// Runs `query --db PATH ARGS…`, expects exit code `code`, nothing on
/// stderr and one JSON line, and returns it.
pub fn quiet_json_answer(db: &Path, args: &[&str], code: i32) -> Value {
    json_of(&expect_code(db, args, code).stderr("").get_output().clone())
}

/// A command's standard output, which must be UTF-8.
pub fn stdout_of(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// A command's standard error, any bytes that are not UTF-8 replaced.
pub fn stderr_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A command's standard output, which must be one line of JSON.
pub fn json_of(output: &Output) -> Value {
    let text = stdout_of(output);
    assert_eq!(
        text.lines().count(),
        1,
        "one JSON line expected, got {text:?}"
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:?}"))
}

/// A command's standard output, which must be UTF-8, line by line.
pub fn stdout_lines(output: &Output) -> Vec<String> {
    stdout_of(output).lines().map(String::from).collect()
}

/// A command's standard output, one JSON value a line.
pub fn json_lines(output: &Output) -> Vec<Value> {
    stdout_of(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:?}")))
        .collect()
}

/// The moves of a move string (`URDL`); panics on any other letter.
pub fn moves_of(letters: &str) -> Vec<npuzzle::Move> {
    letters
        .chars()
        .map(|c| npuzzle::Move::from_letter(c).unwrap_or_else(|| panic!("bad move letter {c:?}")))
        .collect()
}
