//! End-to-end tests of the `build-db` binary: what it writes, where, and how
//! it refuses what it cannot build.

use assert_cmd::assert::Assert;
use assert_cmd::Command;
use npuzzle::{Board, Database, Shape};
use predicates::prelude::*;
use std::path::{Path, PathBuf};

/// `build-db`, run in `dir` so that nothing lands in the source tree, with
/// its per-user data folder at `dir/.xdg/npuzzle`.
fn build_db(dir: &Path) -> Command {
    in_dir(Command::cargo_bin("build-db").unwrap(), dir)
}

/// `command` run in `dir`, with the per-user data folder at
/// `dir/.xdg/npuzzle` and no NPUZZLE_DB.
fn in_dir(mut command: Command, dir: &Path) -> Command {
    command
        .current_dir(dir)
        .env("XDG_DATA_HOME", dir.join(".xdg"))
        .env_remove("NPUZZLE_DB");
    command
}

/// Runs `build-db ARGS…` in `dir` and expects exit code `code`; the rest of
/// the output is the caller's to check.
fn build(dir: &Path, args: &[&str], code: i32) -> Assert {
    build_db(dir).args(args).assert().code(code)
}

/// Runs `build-db ARGS… --out OUT` in `dir` and expects exit code `code`.
fn build_to(dir: &Path, args: &[&str], out: &Path, code: i32) -> Assert {
    build_db(dir)
        .args(args)
        .arg("--out")
        .arg(out)
        .assert()
        .code(code)
}

/// Runs `build-db ARGS…` in `dir` and expects it refused: exit code 2,
/// nothing on stdout, and a message on stderr that contains each of
/// `needles`.
fn refused(dir: &Path, args: &[&str], needles: &[&str]) -> Assert {
    needles
        .iter()
        .fold(build(dir, args, 2).stdout(""), |assert, needle| {
            assert.stderr(predicate::str::contains(*needle))
        })
}

/// The names in a folder, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn builds_a_two_by_three_database_where_told() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    let out = build_to(dir.path(), &["--board", "2x3", "--every-blank"], &path, 0)
        .stderr("")
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(&format!("built {}: 2x3 board, 6 tables", path.display())),
        "{stdout}"
    );
    // 6 tables of 6!/2 = 360 positions; the 2x3 puzzle's hardest positions
    // are 21 moves from the goal.
    assert!(
        stdout.contains(", 360 positions in each table (2160 in all), max distance 21,"),
        "{stdout}"
    );
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(stdout.ends_with(&format!(", {size} bytes\n")), "{stdout}");

    let db = Database::open(&path).unwrap().into_complete().unwrap();
    let shape: Shape = "2x3".parse().unwrap();
    assert_eq!(db.shape(), shape);
    assert_eq!(db.header().tables.len(), 6);
    for (blank, table) in db.header().tables.iter().enumerate() {
        assert_eq!(table.goal_blank as usize, blank);
        assert_eq!(table.entries, 360);
        assert_eq!(table.counts.iter().sum::<u64>(), 360);
    }
    assert!(db.verify().ok);
    // And it answers: one move from the goal is one move away.
    let goal = Board::goal(shape);
    let start = npuzzle::parse_board("123/405", shape).unwrap();
    assert_eq!(db.distance(&start, &goal), Ok(1));
    // Only the database is left in the folder.
    assert_eq!(names_in(dir.path()), ["x.db"]);
}

#[test]
fn inside_a_checkout_the_default_output_is_data_rxc_db() {
    let dir = tempfile::tempdir().unwrap();
    // A folder with `data/` counts as a checkout.
    std::fs::create_dir(dir.path().join("data")).unwrap();
    build(dir.path(), &["--board", "2x2"], 0).stdout(predicate::str::starts_with(
        "built data/2x2.db: 2x2 board, 1 table (blank at 2,2)",
    ));
    let path = dir.path().join("data/2x2.db");
    assert!(path.is_file(), "{} was not written", path.display());
    assert_eq!(names_in(dir.path()), ["data"]);
    assert_eq!(names_in(&dir.path().join("data")), ["2x2.db"]);
    let db = Database::open(&path).unwrap().into_complete().unwrap();
    assert_eq!(db.shape(), "2x2".parse().unwrap());
    // Every cell of a 2x2 board is a corner: one table answers every goal.
    assert_eq!(db.header().tables.len(), 1);
    assert!((0..4).all(|blank| db.serves(blank)));
    for table in &db.header().tables {
        // 4!/2 = 12 positions, at most 6 moves apart.
        assert_eq!(table.entries, 12);
        assert_eq!(table.max_distance, 6);
    }
}

#[test]
fn the_default_board_is_three_by_three() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    build(dir.path(), &[], 0).stdout(
        predicate::str::starts_with(
            "built data/3x3.db: 3x3 board, 3 tables (blank at 3,3 3,2 2,2)",
        )
        .and(predicate::str::contains(
            "181440 positions in each table (544320 in all), max distance 31",
        )),
    );
    let db = Database::open(&dir.path().join("data/3x3.db"))
        .unwrap()
        .into_complete()
        .unwrap();
    // A corner, an edge and the centre: every goal through the symmetries.
    let blanks: Vec<u8> = db.header().tables.iter().map(|t| t.goal_blank).collect();
    assert_eq!(blanks, [8, 7, 4]);
    assert!((0..9).all(|blank| db.serves(blank)));
}

#[test]
fn four_by_four_complete_tables_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        dir.path(),
        &["--board", "4x4", "--every-blank"],
        &[
            "4x4",
            "16 cells",
            "12 cells",
            "16!/2 ≈ 1.0e13 positions",
            "pattern databases",
        ],
    );
    assert!(names_in(dir.path()).is_empty(), "nothing should be written");
    build(dir.path(), &["--board", "7x7"], 2)
        .stderr(predicate::str::contains("boards stop at 36 cells"));
    assert!(names_in(dir.path()).is_empty(), "nothing should be written");
}

#[test]
fn tables_are_chosen_by_goal_blank_cell_or_class() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    let blanks = |args: &[&str]| -> Vec<u8> {
        let args = [&["--board", "2x3"], args].concat();
        build_to(dir.path(), &args, &path, 0).stderr("");
        let db = Database::open(&path).unwrap().into_complete().unwrap();
        db.header().tables.iter().map(|t| t.goal_blank).collect()
    };
    // A goal's blank cell, then cells by row and column (1-based); repeats once.
    assert_eq!(
        blanks(&["--goal", "123/450", "--blank", "1,2", "--blank", "2,3"]),
        [5, 1]
    );
    assert_eq!(blanks(&["--blank", "1,1"]), [0]);
    // Corners and middles of the long sides.
    assert_eq!(blanks(&["--all-goals"]), [5, 4]);
    assert_eq!(blanks(&["--every-blank"]), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn bad_table_choices_are_refused_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            &["--blank", "3,1"][..],
            "--blank \"3,1\" is off the board: a 2x3 board has rows 1 to 2",
        ),
        (
            &["--blank", "x"][..],
            "--blank \"x\" is not a cell: write ROW,COL",
        ),
        (
            &["--blank", "-1,1"][..],
            "\"-1,1\" (after --blank) starts with a negative number: rows and columns count from 1",
        ),
        (&["--goal", "1234"][..], "--goal \"1234\""),
        (
            &["--blank", "1,1", "--all-goals"][..],
            "cannot be used with",
        ),
        (&["--every-blank", "--all-goals"][..], "cannot be used with"),
    ] {
        let args = [&["--board", "2x3", "--out", "x.db"], args].concat();
        refused(dir.path(), &args, &[message]);
    }
    // A huge value is shown cut short, as `query` shows a huge board.
    let huge = "1".repeat(100_000);
    let many_tiles = vec!["1"; 50_000].join(" ");
    for (flag, value) in [
        ("--goal", &huge),
        ("--blank", &huge),
        ("--goal", &many_tiles),
    ] {
        let args = ["--board", "2x3", "--out", "x.db", flag, value];
        let out = refused(dir.path(), &args, &[&format!("{flag} \"1")])
            .get_output()
            .clone();
        assert!(out.stderr.len() < 300, "{flag}: {} bytes", out.stderr.len());
    }
    assert!(names_in(dir.path()).is_empty(), "nothing should be written");
}

#[test]
fn a_malformed_board_size_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        dir.path(),
        &["--board", "3by3"],
        &["invalid value '3by3' for '--board <RxC>'", "RxC"],
    );
    // A leading minus sign is the board's, not taken for a flag.
    refused(
        dir.path(),
        &["--board", "-3x3"],
        &["invalid value '-3x3' for '--board <RxC>'"],
    );
    build(dir.path(), &["--board", "1x5"], 2).stderr(predicate::str::contains("too small"));
    assert!(names_in(dir.path()).is_empty());
}

#[test]
fn outside_a_checkout_the_default_output_is_the_per_user_folder() {
    let dir = tempfile::tempdir().unwrap();
    let expected = dir.path().join(".xdg/npuzzle/2x2.db");
    build(dir.path(), &["--board", "2x2"], 0).stdout(predicate::str::starts_with(format!(
        "built {}: 2x2 board",
        expected.display()
    )));
    assert!(expected.is_file());
    assert_eq!(names_in(dir.path()), [".xdg"]);
    // --user asks for it from inside a checkout too.
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::remove_file(&expected).unwrap();
    build(dir.path(), &["--board", "2x2", "--user"], 0);
    assert!(expected.is_file());
    assert!(names_in(&dir.path().join("data")).is_empty());
}

#[test]
fn missing_out_folders_are_made() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no/such/folder/x.db");
    build_to(dir.path(), &["--board", "2x2"], &path, 0);
    assert!(Database::open(&path).is_ok_and(|db| db.complete().is_ok()));
    assert_eq!(names_in(&dir.path().join("no/such/folder")), ["x.db"]);
}

#[test]
fn an_out_path_through_a_file_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes"), b"keep").unwrap();
    build(dir.path(), &["--board", "2x2", "--out", "notes/x.db"], 2)
        .stdout("")
        .stderr("build-db: cannot write notes/x.db: notes is not a folder\n");
    assert_eq!(std::fs::read(dir.path().join("notes")).unwrap(), b"keep");
}

/// `--out` at something that is not a regular file is refused before any
/// work, and the thing is left as it was. As root, `--out /dev/null` once
/// replaced the system's `/dev/null` with a regular file.
#[test]
fn an_out_path_that_is_not_a_regular_file_is_refused_and_left_alone() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let folder = dir.path().join("folder.db");
    std::fs::create_dir(&folder).unwrap();
    let mut cases = vec![
        (
            PathBuf::from("/dev/null"),
            "is a device, not a regular file",
        ),
        (folder.clone(), "is a folder, not a regular file"),
    ];
    if made.is_ok_and(|s| s.success()) {
        cases.push((fifo.clone(), "is a named pipe (FIFO), not a regular file"));
    } else {
        eprintln!("mkfifo is missing: the FIFO case is skipped");
    }
    for (path, message) in cases {
        // 3x4 would take seconds to build: the refusal comes first.
        let started = std::time::Instant::now();
        build_to(dir.path(), &["--board", "3x4"], &path, 2)
            .stdout("")
            .stderr(predicate::str::contains(message));
        assert!(started.elapsed().as_secs() < 5, "{}", path.display());
    }
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    assert!(folder.is_dir() && names_in(&folder).is_empty());
    if fifo.exists() {
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }
}

/// `--out -` is not taken for a file named `-`: most tools read it as
/// standard output, which cannot hold a database. `./-` is that file.
#[test]
fn out_dash_is_refused_and_dot_slash_dash_is_a_file() {
    let dir = tempfile::tempdir().unwrap();
    build_to(dir.path(), &["--board", "2x2"], Path::new("-"), 2)
        .stdout("")
        .stderr(predicate::str::contains(
            "--out -: a database is written to a file, not to standard output",
        ));
    assert!(names_in(dir.path()).is_empty());
    build_to(dir.path(), &["--board", "2x2"], Path::new("./-"), 0);
    assert!(dir.path().join("-").is_file());
}

/// A database of another board or metric is not replaced, through a link
/// either: it is refused before any work, and the file kept. The same
/// board's is rebuilt, and a name is only a name.
#[test]
fn a_database_of_another_board_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let theirs = dir.path().join("mine.db");
    build_to(dir.path(), &["--board", "2x3"], &theirs, 0);
    let before = std::fs::read(&theirs).unwrap();
    let link = dir.path().join("current.db");
    std::os::unix::fs::symlink(&theirs, &link).unwrap();
    for out in [&theirs, &link] {
        build_to(dir.path(), &["--board", "2x2"], out, 2)
            .stdout("")
            .stderr(format!(
                "build-db: {} holds a 2x3 database, which this 2x2 build would replace: remove \
                 it first, or choose another name\n",
                out.display()
            ));
    }
    build_to(
        dir.path(),
        &["--board", "2x3", "--metric", "mtm"],
        &theirs,
        2,
    )
    .stderr(predicate::str::contains(
        "holds a 2x3 (single-tile moves) database, which this 2x3 (multi-tile moves) build",
    ));
    assert_eq!(std::fs::read(&theirs).unwrap(), before);
    build_to(dir.path(), &["--board", "2x3", "--blank", "1,1"], &link, 0);
    assert!(std::fs::read(&theirs).unwrap().len() < before.len());
    std::fs::remove_file(&theirs).unwrap();
    build_to(dir.path(), &["--board", "2x2"], &link, 0);
}

/// A symbolic link is followed: the file it points to is replaced in its
/// own folder, atomically, and the link stays a link.
#[test]
fn an_out_symlink_is_followed_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real_dir = dir.path().join("real");
    std::fs::create_dir(&real_dir).unwrap();
    let real = real_dir.join("2x2.db");
    std::fs::write(&real, b"NPUZZLE\0an old database").unwrap();
    let link = dir.path().join("link.db");
    std::os::unix::fs::symlink("real/2x2.db", &link).unwrap();
    build(dir.path(), &["--board", "2x2", "--out", "link.db"], 0);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(Database::open(&real).is_ok_and(|db| db.complete().is_ok()));
    assert_eq!(names_in(&real_dir), ["2x2.db"]);
    assert_eq!(names_in(dir.path()), ["link.db", "real"]);
    // A dangling link gets its file made.
    std::fs::remove_file(&real).unwrap();
    build(dir.path(), &["--board", "2x2", "--out", "link.db"], 0);
    assert!(Database::open(&real).is_ok_and(|db| db.complete().is_ok()));
    // A loop of links is refused.
    let a = dir.path().join("a.db");
    std::os::unix::fs::symlink("b.db", &a).unwrap();
    std::os::unix::fs::symlink("a.db", dir.path().join("b.db")).unwrap();
    build(dir.path(), &["--board", "2x2", "--out", "a.db"], 2)
        .stderr(predicate::str::contains("loop of symbolic links"));
}

#[test]
fn rebuilding_replaces_the_file_and_leaves_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    // Something that is not a database is kept, and the build refused;
    // then a 2x3 database of one table, then one of two over it: each
    // build replaces the file whole.
    std::fs::write(&path, "not a database\n").unwrap();
    build_to(dir.path(), &["--board", "2x3"], &path, 2).stderr(predicate::str::contains(
        "exists and is not an npuzzle database",
    ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "not a database\n");
    std::fs::remove_file(&path).unwrap();
    build_to(dir.path(), &["--board", "2x3", "--blank", "1,1"], &path, 0);
    let first = std::fs::read(&path).unwrap();
    let one = Database::open(&path).unwrap().into_complete().unwrap();
    assert_eq!(one.header().tables.len(), 1);

    build_to(dir.path(), &["--board", "2x3"], &path, 0)
        .stdout(predicate::str::contains("2 tables"));
    let db = Database::open(&path).unwrap().into_complete().unwrap();
    assert_eq!(db.shape(), "2x3".parse().unwrap());
    assert_eq!(db.header().tables.len(), 2);
    assert_eq!(
        db.bytes().len() as u64,
        std::fs::metadata(&path).unwrap().len()
    );
    assert_ne!(db.bytes(), &first[..]);
    assert_eq!(names_in(dir.path()), ["x.db"], "no .tmp files may remain");

    // The same build again gives the same bytes.
    let before = std::fs::read(&path).unwrap();
    build_to(dir.path(), &["--board", "2x3"], &path, 0);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(names_in(dir.path()), ["x.db"], "no .tmp files may remain");
}

#[test]
fn a_relative_out_path_is_relative_to_the_current_folder() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &["--board", "3x2", "--out", "small.db"], 0).stdout(
        predicate::str::starts_with("built small.db: 3x2 board, 2 tables"),
    );
    assert_eq!(names_in(dir.path()), ["small.db"]);
    let db = Database::open(&dir.path().join("small.db"))
        .unwrap()
        .into_complete()
        .unwrap();
    assert_eq!(db.shape(), "3x2".parse().unwrap());
}

/// SIGKILL at several moments of a long build (a 2x5 database takes seconds
/// in a debug build): the previous database stays byte for byte, nothing
/// half-written takes its name, and the next build leaves no temporary file.
#[test]
fn a_killed_build_leaves_the_previous_database_intact() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    build_to(dir.path(), &["--board", "2x2"], &path, 0);
    let before = std::fs::read(&path).unwrap();
    let binary = assert_cmd::cargo::cargo_bin("build-db");
    for delay_ms in [50, 300, 900, 2000] {
        let mut child = std::process::Command::new(&binary)
            .args(["--board", "2x5", "--out"])
            .arg(&path)
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        if std::fs::read(&path).unwrap() == before {
            assert!(Database::open(&path).is_ok_and(|db| db.complete().is_ok()));
            continue;
        }
        // The build put its file in place before the kill, which can land
        // after that, before the process exits (so killed or not): then the
        // new database is whole, and no temporary file is left.
        let db = Database::open(&path).unwrap().into_complete().unwrap();
        assert_eq!(
            db.shape().to_string(),
            "2x5",
            "killed after {delay_ms} ms, {status}"
        );
        assert!(db.verify().ok);
        assert_eq!(names_in(dir.path()), ["x.db"]);
        return;
    }
    build_to(dir.path(), &["--board", "2x2"], &path, 0);
    assert_eq!(
        names_in(dir.path()),
        ["x.db"],
        "temporary files were left behind"
    );
}

/// A small tmpfs mounted for a test, unmounted when dropped.
struct Mount(std::path::PathBuf);

impl Mount {
    fn tmpfs(at: &Path, options: &str) -> Mount {
        std::fs::create_dir_all(at).unwrap();
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(at)
            .status()
            .expect("mount runs");
        assert!(
            status.success(),
            "mounting a tmpfs needs root: run as root, or skip this test"
        );
        Mount(at.to_path_buf())
    }

    fn remount(&self, options: &str) {
        let status = std::process::Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

/// A database that once worked, then a failure to write over it: the error
/// names the problem and the old file stays byte for byte, with nothing left
/// beside it.
fn assert_failed_build_keeps(dir: &Path, path: &Path, before: &[u8], message: &str) {
    build_to(dir, &["--board", "3x3"], path, 2)
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "cannot write {}",
            path.display()
        )))
        .stderr(predicate::str::contains(message));
    assert_eq!(std::fs::read(path).unwrap(), before);
    assert_eq!(names_in(path.parent().unwrap()), ["x.db"]);
}

/// A 3x3 database of one table (182 KB) built onto a tmpfs mounted at
/// `dir/name` with `options`: the mount, the database's path, and its
/// bytes. The same board as the build over it, which is what replaces it.
fn database_on_tmpfs(dir: &Path, name: &str, options: &str) -> (Mount, PathBuf, Vec<u8>) {
    let mount = Mount::tmpfs(&dir.join(name), options);
    let path = mount.0.join("x.db");
    let one_table = ["--board", "3x3", "--blank", "1,1", "--no-paths"];
    build_to(dir, &one_table, &path, 0);
    let before = std::fs::read(&path).unwrap();
    (mount, path, before)
}

#[test]
#[ignore = "needs root to mount a tmpfs; .ci/run runs it"]
fn a_full_disk_keeps_the_old_database() {
    let dir = tempfile::tempdir().unwrap();
    let (_mount, path, before) = database_on_tmpfs(dir.path(), "small", "size=256k");
    assert_failed_build_keeps(dir.path(), &path, &before, "No space left on device");
}

/// A build whose file cannot fit is refused before its search: the 7-8
/// build would search for a minute in 1.5 GB, then fail to write. The
/// timeout only stops a regression from taking that minute.
fn refused_before_the_search(dir: &Path, command: &mut Command, needles: &[&str]) {
    let assert = command
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(2)
        .stdout("");
    needles.iter().fold(assert, |assert, needle| {
        assert.stderr(predicate::str::contains(*needle))
    });
    assert!(names_in(dir).is_empty(), "{:?}", names_in(dir));
}

#[test]
#[ignore = "needs root to mount a tmpfs; .ci/run runs it"]
fn a_disk_too_small_for_the_file_is_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let mount = Mount::tmpfs(&dir.path().join("small"), "size=256k");
    let mut command = build_db(dir.path());
    command.args(["--board", "4x4", "--quiet", "--out"]);
    refused_before_the_search(
        &mount.0,
        command.arg(mount.0.join("4x4.db")),
        &[
            "cannot write",
            "it needs 576.6 MB, and its file system has ",
            " kB free",
            "No space left on device",
        ],
    );
}

/// `build-db` in `dir` under a limit of `limit` bytes on the size of the
/// files it writes (`prlimit`, which needs no root), or `None` where
/// `prlimit` is missing.
#[cfg(target_os = "linux")]
fn build_db_limited(dir: &Path, limit: u64) -> Option<Command> {
    let has_prlimit = std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_prlimit {
        eprintln!("prlimit is missing: skipped");
        return None;
    }
    let mut command = in_dir(Command::new("prlimit"), dir);
    command
        .arg(format!("--fsize={limit}"))
        .arg(assert_cmd::cargo::cargo_bin("build-db"));
    Some(command)
}

/// The same under a file-size limit (`ulimit -f`): the file system has
/// room, so the message names the limit.
#[cfg(target_os = "linux")]
#[test]
fn a_file_past_the_size_limit_is_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    // (board, limit in bytes, what the message says): a limit far under a
    // megabyte is said in kilobytes, not as 0.0 MB.
    for (board, limit, needles) in [
        (
            "4x4",
            1_000_000,
            &[
                "cannot write",
                "it needs 576.6 MB, more than this process may write to one file (1.0 MB, ulimit -f)",
            ][..],
        ),
        (
            "2x3",
            10_240,
            &["kB, more than this process may write to one file (10.2 kB, ulimit -f)"][..],
        ),
    ] {
        let Some(mut command) = build_db_limited(dir.path(), limit) else {
            return;
        };
        let out = format!("{board}.db");
        command.args(["--board", board, "--quiet", "--out", &out]);
        refused_before_the_search(dir.path(), &mut command, needles);
    }
}

/// A limit that the tables fit under but the whole file does not: the
/// last write fails, and the system's signal for it (SIGXFSZ, which kills
/// by default) becomes that write's error, so the old file stays and the
/// temporary one goes.
#[cfg(target_os = "linux")]
#[test]
fn a_write_past_the_size_limit_keeps_the_old_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    build_to(dir.path(), &["--board", "3x3"], &path, 0);
    let before = std::fs::read(&path).unwrap();
    let Some(mut command) = build_db_limited(dir.path(), before.len() as u64 - 1) else {
        return;
    };
    command
        .args(["--board", "3x3", "--out"])
        .arg(&path)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "cannot write {}",
            path.display()
        )))
        .stderr(predicate::str::contains("File too large"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(names_in(dir.path()), ["x.db"]);
}

#[test]
#[ignore = "needs root to mount a tmpfs; .ci/run runs it"]
fn a_read_only_folder_keeps_the_old_database() {
    let dir = tempfile::tempdir().unwrap();
    let (mount, path, before) = database_on_tmpfs(dir.path(), "ro", "size=4m");
    mount.remount("ro");
    assert_failed_build_keeps(dir.path(), &path, &before, "Read-only file system");
}

/// Runs `build-db ARGS` on a pseudo-terminal with `script` (util-linux) and
/// returns what the terminal showed; `None` where `script` is missing.
fn on_a_terminal(dir: &Path, args: &str) -> Option<String> {
    let binary = assert_cmd::cargo::cargo_bin("build-db");
    let output = std::process::Command::new("script")
        .args(["-qec", &format!("{} {args}", binary.display()), "/dev/null"])
        .current_dir(dir)
        .output()
        .ok()?;
    assert!(output.status.success(), "{output:?}");
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// A build of more than a second shows its progress on a terminal, and
/// `--quiet` hides it. Off a terminal nothing is drawn: the other tests
/// check that stderr stays empty.
#[test]
fn a_long_build_shows_progress_on_a_terminal_unless_quiet() {
    // Every cell's table of 2x5 takes more than a second in a debug build;
    // in release it takes 0.4 s, and 2x6 (7 s) is the build that long.
    let (build, built) = if cfg!(debug_assertions) {
        ("--board 2x5 --every-blank", "2x5 board, 10 tables")
    } else {
        ("--board 2x6", "2x6 board, 1 table")
    };
    let dir = tempfile::tempdir().unwrap();
    let Some(shown) = on_a_terminal(dir.path(), &format!("{build} --out a.db")) else {
        eprintln!("skipped: no `script` command to make a terminal");
        return;
    };
    assert!(shown.contains("M positions"), "{shown}");
    assert!(
        shown.contains("table ") && shown.contains(", depth "),
        "{shown}"
    );
    assert!(shown.contains(&format!("built a.db: {built}")), "{shown}");
    let quiet = on_a_terminal(dir.path(), &format!("--quiet {build} --out b.db")).unwrap();
    assert!(!quiet.contains("M positions"), "{quiet}");
    assert!(quiet.contains(&format!("built b.db: {built}")), "{quiet}");
}

#[test]
fn path_tables_are_added_up_to_nine_cells_unless_refused() {
    let dir = tempfile::tempdir().unwrap();
    let paths_of = |args: &[&str], name: &str| {
        let path = dir.path().join(name);
        build_to(dir.path(), args, &path, 0);
        let db = Database::open(&path).unwrap().into_complete().unwrap();
        let with: Vec<bool> = db
            .header()
            .tables
            .iter()
            .map(|t| t.path_table.is_some())
            .collect();
        (with, std::fs::metadata(&path).unwrap().len())
    };
    let (with, size) = paths_of(&["--board", "2x4"], "default.db");
    assert_eq!(with, [true, true]);
    let (without, smaller) = paths_of(&["--board", "2x4", "--no-paths"], "none.db");
    assert_eq!(without, [false, false]);
    // Two path tables of 20,160 words of 8 bytes, plus at most a page of
    // padding before each.
    let grown = size - smaller;
    assert!(
        (2 * 20_160 * 8..2 * (20_160 * 8 + 4096)).contains(&grown),
        "{grown}"
    );
    let (with, _) = paths_of(&["--board", "2x5", "--blank", "1,1"], "ten.db");
    assert_eq!(with, [false]);
    let (with, _) = paths_of(
        &["--board", "2x5", "--blank", "1,1", "--paths"],
        "ten-paths.db",
    );
    assert_eq!(with, [true]);
}

#[test]
fn path_tables_past_ten_cells_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            &["--board", "3x4", "--paths", "--out", "x.db"][..],
            "--paths: path tables stop at 10 cells; a 3x4 board's would take 1.9 GB per table",
        ),
        (
            &["--board", "2x3", "--paths", "--no-paths", "--out", "x.db"],
            "cannot be used with",
        ),
    ] {
        build(dir.path(), args, 2).stderr(predicate::str::contains(message));
    }
    assert!(names_in(dir.path()).is_empty());
}

/// A reader that stops reading (`build-db … | head -0`) loses the summary
/// line, not the build: exit code 0, no panic, and the file in place. Both
/// kinds of file: complete tables and a pattern database.
#[test]
fn a_closed_stdout_loses_the_summary_not_the_build() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--board", "2x3"][..],
        &["--board", "3x3", "--partition", "4-4"],
    ] {
        let out = dir.path().join(format!("{}.db", args.join("-")));
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("build-db"))
            .args(args)
            .arg("--out")
            .arg(&out)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Closed before the build ends, so that its summary meets a closed pipe.
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(Database::open(&out).is_ok(), "{args:?}");
    }
}

/// Ctrl-C (or SIGTERM, SIGHUP) during a build removes its temporary file,
/// and the process ends as the signal ends it; the old database stays as
/// it was. A signal this test runs ignoring (under `nohup`, or in a
/// background job) the build inherits and rightly keeps ignoring: the next
/// test covers that.
#[cfg(unix)]
#[test]
fn a_build_stopped_by_a_signal_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let ignored = status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .unwrap_or(0);
    let caught = [("INT", 2), ("TERM", 15), ("HUP", 1)]
        .into_iter()
        .filter(|&(_, number)| ignored & (1 << (number - 1)) == 0);
    for (signal, _) in caught {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("big.db");
        std::fs::write(&out, b"NPUZZLE\0the old file").unwrap();
        // Seconds of work, so that the signal comes while it searches.
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("build-db"))
            .args(["--board", "2x5", "--every-blank", "--quiet", "--out"])
            .arg(&out)
            .current_dir(dir.path())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while names_in(dir.path()).len() < 2 {
            assert!(
                started.elapsed().as_secs() < 20,
                "no temporary file appeared"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let sent = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        assert!(status.signal().is_some(), "{signal}: {status:?}");
        assert_eq!(names_in(dir.path()), ["big.db"], "{signal}");
        assert_eq!(std::fs::read(&out).unwrap(), b"NPUZZLE\0the old file");
    }
}

/// A signal the build was started ignoring (`nohup`, `trap '' HUP`) stays
/// ignored: the build goes on to its end.
#[cfg(unix)]
#[test]
fn a_signal_ignored_at_start_stays_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let binary = assert_cmd::cargo::cargo_bin("build-db");
    let build = format!(
        "trap '' HUP; exec '{}' --board 2x5 --every-blank --quiet --out big.db",
        binary.display()
    );
    let mut child = std::process::Command::new("sh")
        .args(["-c", &build])
        .current_dir(dir.path())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while names_in(dir.path()).is_empty() {
        assert!(
            started.elapsed().as_secs() < 20,
            "no temporary file appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let sent = std::process::Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    assert!(child.wait().unwrap().success());
    assert_eq!(names_in(dir.path()), ["big.db"]);
    assert!(Database::open(&dir.path().join("big.db")).is_ok());
}
