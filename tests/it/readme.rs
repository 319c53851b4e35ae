//! The console examples of the README and the guide, run: each `$ cargo run
//! --release --bin query -- …` (or `-p build-db -- …`) line is run with the
//! binary this test was built with, and must print what the page shows.
//! A page's examples run in order, in a fresh folder that looks like a
//! checkout (a `data/` folder and a `build-db/` crate), as they would from
//! the repository's root.
//!
//! In the expected text, a line holding only `…` stands for any number of
//! lines, and times (`21.2 ms`, `81 ns`) match any time: the rest must be
//! exact, so a published seed's positions cannot drift unnoticed.

use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds that take too long in a debug test run (12-cell boards).
const SKIPPED: [&str; 1] = ["--board 3x4"];

struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The `$` commands of every ```console block of a page, with the lines
/// each is shown to print.
fn examples(page: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (i, line) in page.lines().enumerate() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            continue;
        }
        if line.starts_with("```") {
            in_console = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            found.push(Example {
                line: i + 1,
                command: command.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(example) = found.last_mut() {
            example.expected.push(line.to_string());
        }
    }
    found
}

fn binary(name: &str) -> PathBuf {
    assert_cmd::cargo::cargo_bin(name)
}

/// The example's command with `cargo run` replaced by the built binary.
fn shell_command(command: &str) -> Option<String> {
    let query = binary("query");
    let build_db = binary("build-db");
    let replaced = command
        .replace(
            "cargo run --release --bin query --",
            &query.display().to_string(),
        )
        .replace(
            "cargo run --release -p build-db --",
            &build_db.display().to_string(),
        );
    let replaced = match replaced.strip_suffix("cargo run --release -p build-db") {
        Some(before) => format!("{before}{}", build_db.display()),
        None => replaced,
    };
    (!replaced.contains("cargo run")).then_some(replaced)
}

/// The expected lines as one pattern: `…` lines match any lines, times any
/// time, and everything else itself.
fn pattern(expected: &[String]) -> Regex {
    let time = Regex::new(r"\d+(\.\d+)? (ms|µs|ns|s)\b").unwrap();
    let mut pattern = String::from("^");
    for line in expected {
        if line.trim() == "…" {
            pattern.push_str(r"(?:.*\n)*?");
            continue;
        }
        let mut last = 0;
        for m in time.find_iter(line) {
            // Times are right-aligned in columns: the spaces before one
            // depend on its width.
            pattern.push_str(&regex::escape(line[last..m.start()].trim_end_matches(' ')));
            pattern.push_str(r" *\d+(?:\.\d+)? (?:ms|µs|ns|s)");
            last = m.end();
        }
        pattern.push_str(&regex::escape(&line[last..]));
        pattern.push_str(r"\n");
    }
    pattern.push('$');
    Regex::new(&pattern).unwrap()
}

/// Runs every example of `page` and returns how many ran; panics with
/// every mismatch.
fn run_page(page: &Path) -> usize {
    let text = std::fs::read_to_string(page).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::create_dir_all(dir.path().join("build-db")).unwrap();
    std::fs::write(dir.path().join("build-db/Cargo.toml"), "").unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for example in examples(&text) {
        if SKIPPED.iter().any(|s| example.command.contains(s)) {
            continue;
        }
        let Some(command) = shell_command(&example.command) else {
            failures.push(format!(
                "{}:{}: not a query or build-db command: {}",
                page.display(),
                example.line,
                example.command
            ));
            continue;
        };
        let output = Command::new("bash")
            .arg("-c")
            .arg(format!("{command} 2>&1"))
            .current_dir(dir.path())
            .env_remove("NPUZZLE_DB")
            .env("XDG_DATA_HOME", dir.path().join(".xdg"))
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&output.stdout);
        if !pattern(&example.expected).is_match(&got) {
            failures.push(format!(
                "{}:{}: $ {}\n--- shown\n{}\n--- printed\n{got}",
                page.display(),
                example.line,
                example.command,
                example.expected.join("\n")
            ));
        }
        ran += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    ran
}

#[test]
fn the_readme_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(run_page(&root.join("README.md")) >= 5);
}

#[test]
fn the_guide_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(run_page(&root.join("docs/guide.md")) >= 20);
}

/// The licence every manifest names is the one in LICENSE, and the
/// changelog has a heading for the version the manifests carry.
#[test]
fn the_licence_and_changelog_match_the_manifests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap();
    assert!(read("LICENSE").starts_with("MIT License\n"));
    for manifest in [
        "Cargo.toml",
        "query/Cargo.toml",
        "build-db/Cargo.toml",
        "python/Cargo.toml",
    ] {
        let text = read(manifest);
        assert!(text.contains("license = \"MIT\""), "{manifest}");
        assert!(text.contains("version = \"0.1.0\""), "{manifest}");
    }
    assert!(read("python/pyproject.toml").contains("license = { text = \"MIT\" }"));
    let changelog = read("CHANGELOG.md");
    assert!(changelog.contains("\n## 0.1.0 — "), "{changelog}");
}

#[test]
fn the_example_matcher_allows_elisions_and_times_only() {
    let expected: Vec<String> = ["built x in 21.2 ms", "…", "end"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let p = pattern(&expected);
    assert!(p.is_match("built x in 3.0 ms\na\nb\nend\n"));
    assert!(p.is_match("built x in 81 ns\nend\n"));
    assert!(!p.is_match("built y in 3.0 ms\nend\n"));
    assert!(!p.is_match("built x in 3.0 ms\nend\nmore\n"));
    let column: Vec<String> = vec!["lookup        81 ns".into()];
    assert!(pattern(&column).is_match("lookup       6.6 µs\n"));
}
