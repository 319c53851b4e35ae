//! Standard output, where every command but `serve` writes its answer.

use std::io::{self, Write};

/// Standard output, whose write errors say that they are its own: "No space
/// left on device" after `> /full/disk/answers` would otherwise read as a
/// database's. The error keeps its kind, so a closed pipe is still told
/// apart (`query … | head` is the reader's choice, not an error).
pub struct Stdout(io::StdoutLock<'static>);

/// Standard output, locked for the command's answer.
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(named)
    }
}

fn named(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot write to standard output: {e}"))
}
