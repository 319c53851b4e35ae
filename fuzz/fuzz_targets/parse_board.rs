//! Any text, parsed as a board of every supported shape: no panic, and a
//! board that parses prints as text that parses back to the same board.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::{parse_board, Shape};
use npuzzle_fuzz::SHAPES;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (rows, cols) in SHAPES {
        let shape = Shape::new(rows, cols).expect("a supported shape");
        let Ok(board) = parse_board(text, shape) else {
            continue;
        };
        assert_eq!(board.shape(), shape);
        let printed = board.to_string();
        match parse_board(&printed, shape) {
            Ok(again) => assert_eq!(again, board, "{text:?} printed as {printed:?}"),
            Err(e) => {
                panic!("{text:?} parsed as {board:?}, printed as {printed:?}, which fails: {e}")
            }
        }
        let grid = board.grid();
        assert_eq!(grid.lines().count(), rows, "{grid:?}");
    }
});
