//! The command line's signals: the file-size limit (`ulimit -f`) as an
//! error rather than a kill, an unfinished file removed when a build is
//! ended by a signal, and a first Ctrl-C that stops a search with
//! something to show.

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
///
/// A signal the process was started ignoring (`nohup`, a background job
/// of a script, `trap '' HUP`) stays ignored: catching it would end a
/// build its user meant to outlive the terminal.
pub fn remove_unfinished_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Some(ignored) = ignored_signals() else {
            return;
        };
        let caught = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&s| !ignored(s));
        let Ok(mut signals) = signal_hook::iterator::Signals::new(caught) else {
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

/// A flag the first Ctrl-C (SIGINT) sets, for a long search that has
/// something to show when stopped (`query heuristics START`: the values
/// beside the bound proved); a second Ctrl-C ends the process as Ctrl-C
/// does (exit code 130). `None` where SIGINT is ignored (a background
/// job), or cannot be caught: Ctrl-C then does what it did.
pub fn stop_on_ctrl_c() -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    #[cfg(unix)]
    {
        use signal_hook::consts::SIGINT;
        use std::sync::Arc;
        if ignored_signals()?(SIGINT) {
            return None;
        }
        let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
        // The handlers run in the order registered: at the second Ctrl-C
        // the flag is already set, and the process ends.
        signal_hook::flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&flag)).ok()?;
        signal_hook::flag::register(SIGINT, Arc::clone(&flag)).ok()?;
        Some(flag)
    }
    #[cfg(not(unix))]
    None
}

/// Which signals this process ignores, from Linux's `/proc/self/status`
/// (`SigIgn`, a mask of bit `n - 1` for signal `n`); `None` where that
/// cannot be read, and then no signal is caught, as before this existed.
#[cfg(unix)]
fn ignored_signals() -> Option<impl Fn(i32) -> bool> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mask = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
    let mask = u64::from_str_radix(mask.trim(), 16).ok()?;
    Some(move |signal: i32| (1..=64).contains(&signal) && mask & (1 << (signal - 1)) != 0)
}
