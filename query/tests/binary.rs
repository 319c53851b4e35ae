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
    for command in [
        "solve",
        "distance",
        "histogram",
        "batch",
        "random",
        "heuristics",
        "compare",
        "stats",
        "info",
        "verify",
        "serve",
    ] {
        assert!(help.contains(&format!("  {command}")), "{command}: {help}");
    }
}
