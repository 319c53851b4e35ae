//! `query random --worksheet FILE.html`: the page it writes (the answer
//! key is `query solve`'s), written as every output is (atomically, never
//! over a device, a pipe or a folder), and its refusals, which cost
//! nothing and write nothing.

use crate::util::{expect_refusal, json_answer, printed, refused_past_file_size_limit, temp_db};
use std::path::Path;

fn three_by_three() -> &'static crate::util::TempDb {
    temp_db("3x3")
}

/// The answer key's rows: number, start, distance, moves (none where the
/// page has no key).
fn key_rows(html: &str) -> Vec<[String; 4]> {
    let key = html.split("id=\"answer-key\"").nth(1).unwrap_or_default();
    key.split("<tr><td>")
        .skip(1)
        .map(|row| {
            let cells: Vec<String> = row
                .split("</td>")
                .take(4)
                .map(|c| c.rsplit('>').next().unwrap().to_string())
                .collect();
            [
                cells[0].clone(),
                cells[1].clone(),
                cells[2].clone(),
                cells[3].clone(),
            ]
        })
        .collect()
}

#[test]
fn a_worksheet_holds_the_drawn_puzzles_and_query_solves_answers() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sheet.html");
    let args = ["random", "--distance", "18", "--count", "5", "--seed", "3"];
    let plain = printed(&t.path, &args, 0);
    let mut with_sheet = args.to_vec();
    with_sheet.extend(["--worksheet", file.to_str().unwrap()]);
    // The positions are printed as without --worksheet.
    assert_eq!(printed(&t.path, &with_sheet, 0), plain);
    let html = std::fs::read_to_string(&file).unwrap();
    let rows = key_rows(&html);
    let starts: Vec<&str> = plain.lines().collect();
    assert_eq!(rows.len(), 5);
    for (i, (row, start)) in rows.iter().zip(&starts).enumerate() {
        let solved = json_answer(&t.path, &["solve", start, "--json"]);
        assert_eq!(row[0], (i + 1).to_string());
        assert_eq!(row[1], *start);
        assert_eq!(row[2], solved["distance"].to_string());
        assert_eq!(row[3], solved["moves"].as_str().unwrap());
        // One drawing per puzzle, named by its position.
        assert!(
            html.contains(&format!("aria-label=\"puzzle {}: {start}\"", i + 1)),
            "{start}"
        );
    }
    // A page of its own for the key on paper; the CSS is inside the file.
    assert!(html.contains("<style>") && html.contains("break-before: page"));
    assert!(!html.contains("<script"));
    // Only the page is left in the folder: no temporary file.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // Written again, it replaces the old page: the same seed, the same page.
    printed(&t.path, &with_sheet, 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), html);
}

/// `--key FILE.html`: the puzzles alone on the sheet, to hand out, and
/// the key alone in its own file, the whole sheet's rows; never one file
/// for both.
#[test]
fn the_answer_key_can_be_written_apart() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    let [whole, sheet, key] = ["whole.html", "sheet.html", "key.html"].map(|n| dir.path().join(n));
    let args = [
        "random",
        "--distance",
        "0..=12",
        "--count",
        "6",
        "--seed",
        "4",
    ];
    let with = |extra: &[&std::path::Path]| {
        let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        for (flag, path) in ["--worksheet", "--key"].iter().zip(extra) {
            a.extend([flag.to_string(), path.to_str().unwrap().to_string()]);
        }
        a
    };
    let run = |a: Vec<String>, code| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        printed(&t.path, &a, code)
    };
    run(with(&[&whole]), 0);
    run(with(&[&sheet, &key]), 0);
    let [whole, sheet, key] = [&whole, &sheet, &key].map(|p| std::fs::read_to_string(p).unwrap());
    assert_eq!(key_rows(&key), key_rows(&whole));
    assert_eq!(key_rows(&sheet), Vec::<[String; 4]>::new());
    assert_eq!(sheet.matches("<li class=\"puzzle\">").count(), 6);
    assert_eq!(key.matches("<li class=\"puzzle\">").count(), 0);
    assert!(!sheet.contains("Answer key") && key.contains("<h1>Answer key: 6 3x3 puzzles"));
    // A line for the student's name on the sheet handed out, not the key.
    assert!(sheet.contains(">Name: </p>") && !key.contains(">Name: </p>"));
    // Refused, nothing written: one file for both, or a key with no sheet.
    let one = dir.path().join("one.html");
    let out = run(with(&[&one, &dir.path().join(".").join("one.html")]), 2);
    assert!(out.is_empty() && !one.exists());
    let mut alone: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    alone.extend(["--key".into(), one.to_str().unwrap().into()]);
    run(alone, 2);
    assert!(!one.exists());
    // A key that is a link to the sheet, not there yet: one file all the same.
    let link = dir.path().join("link.html");
    std::os::unix::fs::symlink("one.html", &link).unwrap();
    assert!(run(with(&[&one, &link]), 2).is_empty());
    assert!(!one.exists());
    // A key whose name no file system holds: refused before any work, and
    // the sheet is not written either.
    let long = dir.path().join(format!("{}.html", "k".repeat(300)));
    assert!(run(with(&[&one, &long]), 2).is_empty());
    assert!(!one.exists());
}

#[test]
fn a_worksheet_is_refused_before_any_work_where_it_cannot_be_written() {
    let t = three_by_three();
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let sheet = |path: &str, count: &str| {
        [
            "random",
            "--distance",
            "10",
            "--count",
            count,
            "--seed",
            "1",
            "--worksheet",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([path.to_string()])
        .collect::<Vec<String>>()
    };
    let refuse = |args: Vec<String>, needles: &[&str]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        expect_refusal(&t.path, &args, needles);
    };
    refuse(
        sheet(&at("sheet.txt"), "3"),
        &["a worksheet is an HTML page"],
    );
    refuse(sheet(&at("sheet"), "3"), &["give a name ending in .html"]);
    refuse(
        sheet(&at(".html"), "3"),
        &["give a name before .html, as sheet.html"],
    );
    refuse(
        sheet(&at("sheet.html"), "1001"),
        &["at most 1000 puzzles, not 1001"],
    );
    refuse(
        sheet(&at("sheet.html"), "4294967295"),
        &["at most 1000 puzzles"],
    );
    std::fs::create_dir(at("folder.html")).unwrap();
    refuse(
        sheet(&at("folder.html"), "3"),
        &["is a folder, not a regular file"],
    );
    // A page of one's own is not written over, nor a chart's name over
    // one's own drawing; the files stay as they were.
    std::fs::write(at("index.html"), "my page").unwrap();
    refuse(
        sheet(&at("index.html"), "3"),
        &[
            "index.html exists and is not a chart or a worksheet npuzzle wrote",
            "remove it first",
        ],
    );
    assert_eq!(
        std::fs::read_to_string(at("index.html")).unwrap(),
        "my page"
    );
    std::fs::write(at("logo.svg"), "<svg>mine</svg>").unwrap();
    let logo = at("logo.svg");
    let plot = ["histogram", "--plot", logo.as_str()];
    crate::util::expect_refusal(&t.path, &plot, &["logo.svg exists and is not a chart"]);
    assert_eq!(
        std::fs::read_to_string(at("logo.svg")).unwrap(),
        "<svg>mine</svg>"
    );
    #[cfg(unix)]
    {
        let fifo = at("pipe.html");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        refuse(
            sheet(&fifo, "3"),
            &["named pipe (FIFO), not a regular file"],
        );
        // A link to a device is judged by what it points to.
        std::os::unix::fs::symlink("/dev/null", at("null.html")).unwrap();
        refuse(
            sheet(&at("null.html"), "3"),
            &["/dev/null is a device, not a regular file"],
        );
        // A link to a regular file stays a link, and its file gets the page.
        std::fs::write(
            at("real.html"),
            crate::util::old_document("real.html", "old"),
        )
        .unwrap();
        std::os::unix::fs::symlink(at("real.html"), at("link.html")).unwrap();
        printed(
            &t.path,
            &sheet(&at("link.html"), "2")
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
            0,
        );
        assert!(std::fs::symlink_metadata(at("link.html"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            key_rows(&std::fs::read_to_string(at("real.html")).unwrap()).len(),
            2
        );
    }
    // A name of 100,000 characters is refused, shown short.
    let long = format!("{}.html", "x".repeat(100_000));
    let out = crate::util::run_query(
        &t.path,
        &sheet(&at(&long), "3")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        2,
    );
    assert!(out.stderr.len() < 600, "{} bytes", out.stderr.len());
    // Nothing was written by a refusal.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: &[&str] = if cfg!(unix) {
        &[
            "folder.html",
            "index.html",
            "link.html",
            "logo.svg",
            "null.html",
            "pipe.html",
            "real.html",
        ]
    } else {
        &["folder.html", "index.html", "logo.svg"]
    };
    assert_eq!(names, expected);
    assert!(!Path::new(&at("sheet.html")).exists());
}

/// A page past the file-size limit (`ulimit -f`, here through `prlimit`)
/// is refused with the system's reason, the old page kept and no
/// temporary file left, rather than `query` being killed (SIGXFSZ).
#[cfg(target_os = "linux")]
#[test]
fn a_worksheet_past_the_file_size_limit_keeps_the_old_page() {
    let args = [
        "random",
        "--distance",
        "20",
        "--count",
        "1000",
        "--worksheet",
    ];
    refused_past_file_size_limit(&three_by_three().path, &args, "sheet.html", "worksheet");
}

/// Ctrl-C (or SIGTERM, SIGHUP) while a worksheet's puzzles are searched for
/// removes the sheet's temporary file, and the old page stays. Signals this
/// test runs ignoring (a background job) the draw rightly keeps ignoring.
#[cfg(unix)]
#[test]
fn a_worksheet_stopped_by_a_signal_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let ignored = (status.lines())
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .unwrap_or(0);
    let db = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let names = |dir: &Path| {
        let mut names: Vec<String> = (std::fs::read_dir(dir).unwrap())
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let mut tested = 0;
    for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        if ignored & (1 << (number - 1)) != 0 {
            continue;
        }
        tested += 1;
        let dir = tempfile::tempdir().unwrap();
        let sheet = dir.path().join("sheet.html");
        let old = crate::util::old_document("sheet.html", "the old page");
        std::fs::write(&sheet, &old).unwrap();
        // Far puzzles on small tables: seconds of searching.
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("query"))
            .args(["--board", "4x4", "--db"])
            .arg(&db)
            .args([
                "random",
                "--distance",
                "50",
                "--count",
                "1000",
                "--seed",
                "1",
            ])
            .arg("--worksheet")
            .arg(&sheet)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while names(dir.path()).len() < 2 {
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
        assert!(
            status.signal().is_some() || status.code() == Some(128 + number),
            "{signal}: {status:?}"
        );
        assert_eq!(names(dir.path()), ["sheet.html"], "{signal}");
        assert_eq!(std::fs::read(&sheet).unwrap(), old);
    }
    // Only a test run ignoring all three tests nothing: nohup ignores HUP,
    // a background job INT, and nothing here TERM.
    assert!(tested > 0, "every signal is ignored by this test run");
}

/// The command a worksheet names draws its puzzles again, with the board
/// and a goal of two-digit tiles (which needs its quotes).
#[test]
fn a_worksheets_command_draws_its_puzzles_again() {
    let db = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("sheet.html");
    let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let args = [
        "--board",
        "4x4",
        "random",
        "--distance",
        "12",
        "--count",
        "3",
    ];
    let mut drawn = crate::util::query(&db);
    drawn
        .args(args)
        .args(["--seed", "5", "--goal", goal, "--worksheet"]);
    let drawn = drawn.arg(&sheet).output().unwrap();
    assert!(drawn.status.success(), "{drawn:?}");
    let html = std::fs::read_to_string(&sheet).unwrap();
    let command = html
        .split("Drawn by <code>")
        .nth(1)
        .and_then(|rest| rest.split("</code>").next())
        .expect("a command");
    // Words as a shell splits them: spaces outside double quotes.
    let mut words = vec![String::new()];
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => words.push(String::new()),
            c => words.last_mut().unwrap().push(c),
        }
    }
    assert_eq!(words[0], "query", "{command}");
    let again = crate::util::query(&db).args(&words[1..]).output().unwrap();
    assert!(again.status.success(), "{command}: {again:?}");
    assert_eq!(again.stdout, drawn.stdout, "{command}");
}
