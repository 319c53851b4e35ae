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

/// Makes Ctrl-C (SIGINT), SIGTERM and SIGHUP remove the temporary files of
/// the replacements under way before the process ends as the signal
/// ends it: a build stopped would otherwise leave its temporary file,
/// holding the room set aside, until the next build of the same file.
pub fn remove_unfinished_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                crate::db::replace::remove_unfinished();
                // Ends the process as the signal would have: the shell sees
                // 130 for Ctrl-C.
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
    }
}
