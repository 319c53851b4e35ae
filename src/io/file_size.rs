//! The file-size limit (`ulimit -f`) as an error rather than a kill.

/// Makes a write past the process's file-size limit fail with "File too
/// large", as a write to a full disk fails, instead of the system killing
/// the process (SIGXFSZ) with nothing said and its temporary file left
/// behind. The binaries call this first; Python does the same at start-up.
pub fn file_size_limit_as_error() {
    // The handler only sets a flag no one reads: catching the signal is
    // what turns the kill into the write's error.
    #[cfg(unix)]
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
}
