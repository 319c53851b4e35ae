//! Messages to standard error that never panic. `eprintln!` panics where
//! standard error cannot be written (`2>/dev/full`, `2>&1 | head -n 1`),
//! turning a refusal's exit code 2 into a panic's 101; a message that
//! cannot be written is lost instead, and the exit code still tells.

/// `eprintln!`, or nothing where standard error cannot be written.
#[macro_export]
macro_rules! eprintln_or_drop {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!`, or nothing where standard error cannot be written.
#[macro_export]
macro_rules! eprint_or_drop {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}
