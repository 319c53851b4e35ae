//! The `query` binary as built by this package. Its presence also makes
//! `cargo test --workspace` build the binary that the workspace's
//! integration tests (`tests/it`) drive.

use std::process::Command;

#[test]
fn version_and_every_command_in_help() {
    let run = |arg: &str| {
        Command::new(env!("CARGO_BIN_EXE_query"))
            .arg(arg)
            .output()
            .unwrap()
    };
    let version = run("--version");
    assert!(version.status.success());
    let text = String::from_utf8(version.stdout).unwrap();
    assert_eq!(text.trim(), format!("query {}", env!("CARGO_PKG_VERSION")));
    let help = String::from_utf8(run("--help").stdout).unwrap();
    // The commands as help lists them: two spaces, the name, then the
    // padding before its line (so that `compare` is not found in
    // `compare-metrics`).
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.strip_prefix("  ")?.split_whitespace().next())
        .collect();
    let every = [
        "solve",
        "distance",
        "histogram",
        "batch",
        "random",
        "check",
        "solvable",
        "heuristics",
        "compare",
        "stats",
        "compare-metrics",
        "info",
        "verify",
        "serve",
        "help",
    ];
    assert_eq!(listed, every, "{help}");
}
