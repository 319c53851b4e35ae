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
    ("io", &["puzzle", "table", "pattern", "db"]),
    // `io` for its `Answer`, which `solve --all`'s report extends.
    ("analysis", &["puzzle", "table", "pattern", "db", "io"]),
    // `analysis` for the classic heuristics it weighs; `io` for the batch
    // machinery and the answers that `batch --within` shares.
    ("bounded", &["puzzle", "pattern", "db", "io", "analysis"]),
];

/// The layers a source file names as `crate::LAYER`.
fn layers_used(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        used.insert(name);
    }
    used
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
                let is_layer = layer_names.contains(&used.as_str());
                assert!(
                    !is_layer || used == layer || allowed.contains(&used.as_str()),
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
    assert_eq!(
        used.into_iter().collect::<Vec<_>>(),
        ["db".to_string(), "puzzle".to_string()]
    );
}
