//! Works out, once per build, the automaton of move sequences a search may
//! skip (`src/puzzle/stretches.rs`), and writes its table as Rust to
//! `$OUT_DIR/duplicates.rs`, which `src/puzzle/duplicates.rs` includes.

#[path = "src/puzzle/stretches.rs"]
mod stretches;

use std::fmt::Write;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/puzzle/stretches.rs");
    let stretches = stretches::skipped_stretches(stretches::LONGEST_STRETCH);
    let next = stretches::automaton(&stretches);
    let mut rust = String::new();
    writeln!(
        rust,
        "/// For each state and move code, the next state, or `SKIP`: {} \
         stretches of up to {} moves.",
        stretches.len(),
        stretches::LONGEST_STRETCH
    )
    .unwrap();
    writeln!(rust, "static NEXT: [[u16; 4]; {}] = [", next.len()).unwrap();
    for row in &next {
        writeln!(rust, "    {row:?},").unwrap();
    }
    rust.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("duplicates.rs"), rust).expect("OUT_DIR is writable");
}
