//! The library's layers, checked from its source: each folder of `src/`
//! uses only the layers below it, so nothing imports upwards.

use std::collections::BTreeSet;
use std::path::Path;

/// Each layer and the layers it may use. `pattern` (pattern tables and
/// their search) knows nothing of files: `db` opens both kinds and uses it.
const LAYERS: [(&str, &[&str]); 7] = [
    ("puzzle", &[]),
    ("table", &["puzzle"]),
    ("pattern", &["puzzle", "table"]),
    ("db", &["puzzle", "table", "pattern"]),
    ("io", &["puzzle", "pattern", "db"]),
    // `io` for the batch machinery and the answers that `batch --within`
    // shares; nothing of `analysis` (the heuristics it steers by are the
    // `puzzle` layer's).
    ("bounded", &["puzzle", "pattern", "db", "io"]),
    // `io` for its `Answer`, which `solve --all`'s report extends;
    // `bounded` for the quick solutions that show a walk's end too near.
    (
        "analysis",
        &["puzzle", "table", "pattern", "db", "io", "bounded"],
    ),
];

/// The names `src/lib.rs` re-exports at the crate's root, each with the
/// highest layer it reaches into: a path through the facade
/// (`crate::Board`, `crate::files::…`) uses that layer as surely as a path
/// that names it.
const FACADE: [(&str, &str); 23] = [
    ("Board", "puzzle"),
    ("Move", "puzzle"),
    ("Cell", "puzzle"),
    ("Metric", "puzzle"),
    ("Shape", "puzzle"),
    ("Unsolvable", "puzzle"),
    ("parse_board", "puzzle"),
    ("rules", "puzzle"),
    ("Database", "db"),
    ("CompleteTables", "db"),
    ("GoalTable", "db"),
    ("PatternTables", "db"),
    ("AnswerError", "db"),
    ("FormatError", "db"),
    ("NeedsCompleteTables", "db"),
    ("OpenError", "db"),
    ("build", "db"),
    ("BuildError", "db"),
    ("Plan", "db"),
    ("report", "db"),
    ("files", "db"),
    ("tables", "db"),
    ("raw", "db"),
];

fn identifier(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The first names of the paths a source file writes as `crate::NAME` or
/// `crate::{NAME, …}`.
fn crate_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let Some(group) = rest.strip_prefix('{') else {
            names.insert(identifier(rest));
            continue;
        };
        // Each item at the group's own depth: `crate::{a::b, c::{d, e}}`
        // names `a` and `c`.
        let mut depth = 0;
        let mut item_starts = true;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => item_starts = true,
                c if item_starts && !c.is_whitespace() => {
                    names.insert(identifier(&group[i..]));
                    item_starts = false;
                }
                _ => {}
            }
        }
    }
    names
}

/// The layers a source file uses, directly or through the facade.
fn layers_used(text: &str) -> BTreeSet<String> {
    crate_names(text)
        .into_iter()
        .map(
            |name| match FACADE.iter().find(|(facade, _)| *facade == name) {
                Some((_, layer)) => layer.to_string(),
                None => name,
            },
        )
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_layer_imports_from_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layer_names: Vec<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    let mut checked = 0;
    for (layer, allowed) in LAYERS {
        let dir = src.join(layer);
        if !dir.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for used in layers_used(&text) {
                assert!(
                    layer_names.contains(&used.as_str()),
                    "{} uses crate::{used}, which is neither a layer nor in FACADE: \
                     add it to FACADE with the layer it comes from",
                    file.display()
                );
                assert!(
                    used == layer || allowed.contains(&used.as_str()),
                    "{} (layer {layer}) uses crate::{used}, a layer above it",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} files found under src/");
}

#[test]
fn src_holds_the_facade_and_one_folder_per_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut loose: Vec<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    loose.sort();
    assert_eq!(loose, ["lib.rs"]);
}

#[test]
fn the_layer_check_sees_a_use_upwards() {
    let used =
        layers_used("use crate::db::database::CompleteTables;\nfn f() { crate::puzzle::x(); }");
    assert_eq!(used.into_iter().collect::<Vec<_>>(), ["db", "puzzle"]);
}

#[test]
fn the_layer_check_sees_uses_through_the_facade_and_in_groups() {
    let used =
        layers_used("use crate::{io::x, table::{a, b}};\nfn f() { crate::Database::open(); }");
    assert_eq!(used.into_iter().collect::<Vec<_>>(), ["db", "io", "table"]);
    let used = layers_used("use crate::{\n    Board,\n    rules::Cells,\n};");
    assert_eq!(used.into_iter().collect::<Vec<_>>(), ["puzzle"]);
}

#[test]
fn the_facade_list_names_what_lib_rs_exports() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    for (name, _) in FACADE {
        let exported = lib.contains(&format!("pub mod {name} "))
            || lib
                .lines()
                .filter(|line| line.starts_with("pub use "))
                .any(|line| {
                    line.contains(&format!("{name},"))
                        || line.contains(&format!("{name}}}"))
                        || line.contains(&format!("::{name};"))
                });
        assert!(
            exported,
            "{name} is in FACADE but src/lib.rs does not export it"
        );
    }
}
