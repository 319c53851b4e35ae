//! Long calls that Ctrl-C stops. The work runs without the GIL on a thread
//! of its own while the calling thread waits, taking the GIL back every
//! [`SIGNAL_CHECK`] to let Python's signal handlers run: a
//! `KeyboardInterrupt` then asks the work to stop (through the caller's
//! cancel flags) and is raised once it has.

use pyo3::prelude::*;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// How often a caller waiting on long work checks for Ctrl-C: well within
/// the second a user waits for it to take.
pub const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// `work()` without the GIL, on a thread of its own; `stop()` is called when
/// a signal handler raises, and must make `work` return soon.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    stop: impl Fn(),
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = (Mutex::new(None), Condvar::new());
    std::thread::scope(|scope| {
        let mut worker = Some(scope.spawn(|| {
            let answer = work();
            *done.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(answer);
            done.1.notify_one();
        }));
        loop {
            let answer = py.detach(|| {
                let slot = done.0.lock().unwrap_or_else(|e| e.into_inner());
                let (mut slot, _) = done
                    .1
                    .wait_timeout_while(slot, SIGNAL_CHECK, |a| a.is_none())
                    .unwrap_or_else(|e| e.into_inner());
                slot.take()
            });
            if let Some(answer) = answer {
                return Ok(answer);
            }
            if let Some(finished) = worker.take_if(|w| w.is_finished()) {
                // It answered since the wait (the next one takes the
                // answer), or it panicked: pass that on.
                if let Err(panic) = finished.join() {
                    std::panic::resume_unwind(panic);
                }
                continue;
            }
            if let Err(interrupted) = py.check_signals() {
                stop();
                // Waited for without the GIL, which the work may need to
                // reach its next check (a progress bar writes to stderr).
                if let Some(worker) = worker.take() {
                    if let Err(panic) = py.detach(|| worker.join()) {
                        std::panic::resume_unwind(panic);
                    }
                }
                return Err(interrupted);
            }
        }
    })
}
