//! Standard input and output, whose errors say that they are theirs:
//! "Is a directory" after `< /tmp`, or "No space left on device" after
//! `> /full/disk/answers`, would otherwise read as a database's.

use std::io::{self, BufRead, Read, Write};

/// Standard output, where every command but `serve` writes its answer. Its
/// errors keep their kind, so a closed pipe is still told apart (`query …
/// | head` is the reader's choice, not an error). Locked at each write, not
/// for the command: a batch's searches write from the threads that answer.
pub struct Stdout(io::Stdout);

/// Standard output.
pub fn stdout() -> Stdout {
    Stdout(io::stdout())
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

/// Standard input, where `batch` reads its lines.
pub struct Stdin(io::StdinLock<'static>);

/// Standard input, locked for the batch.
pub fn stdin() -> Stdin {
    Stdin(io::stdin().lock())
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(unread)
    }
}

impl BufRead for Stdin {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.0.fill_buf().map_err(unread)
    }

    fn consume(&mut self, amount: usize) {
        self.0.consume(amount)
    }
}

fn unread(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot read standard input: {e}"))
}
