//! How many threads a batch may take: one limit, and one wording of it, for
//! every face (`query batch --threads`, Python's `threads=`).

use std::sync::OnceLock;

/// Threads per core beyond which more threads only cost memory (each holds
/// a block of input and one of output) and start-up time.
pub const THREADS_PER_CORE: usize = 4;

/// This machine's cores (those this process may run on).
pub fn cores() -> usize {
    // Asked once: finding the cores reads the cgroup's files, tens of
    // microseconds, more than a small batch from Python takes.
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The most threads a batch can take on this machine.
pub fn most_threads() -> usize {
    THREADS_PER_CORE * cores()
}

/// A thread count a batch refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreadsError {
    /// No thread at all.
    #[error("a batch needs at least 1 thread")]
    None,
    /// More than [`most_threads`] allows.
    #[error(
        "more than this machine can use: it has {cores} core{}, and a batch takes at most {most} \
         threads ({THREADS_PER_CORE} per core)",
        if *cores == 1 { "" } else { "s" }
    )]
    TooMany {
        /// This machine's cores.
        cores: usize,
        /// The most threads a batch takes here.
        most: usize,
    },
}

impl ThreadsError {
    /// [`ThreadsError::TooMany`] with this machine's figures.
    pub fn too_many() -> ThreadsError {
        let (cores, most) = (cores(), most_threads());
        ThreadsError::TooMany { cores, most }
    }
}

/// `asked` threads if a batch takes that many on this machine: 1 to
/// [`most_threads`]. A face that reads a count too large for a u64 refuses
/// it with [`ThreadsError::too_many`], the same limit.
pub fn check_threads(asked: u64) -> Result<usize, ThreadsError> {
    let most = most_threads();
    match asked {
        0 => Err(ThreadsError::None),
        n if n > most as u64 => Err(ThreadsError::too_many()),
        n => Ok(n as usize),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_one_to_the_limit_are_taken() {
        let (cores, most) = (cores(), most_threads());
        let available = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!((cores, most), (available, 4 * available));
        assert_eq!(check_threads(1), Ok(1));
        assert_eq!(check_threads(most as u64), Ok(most));
        assert_eq!(check_threads(0), Err(ThreadsError::None));
        for past in [most as u64 + 1, u64::MAX] {
            let refused = check_threads(past).unwrap_err().to_string();
            assert!(
                refused.contains("more than this machine can use"),
                "{refused}"
            );
            assert!(refused.contains(&format!("at most {most} threads (4 per core)")));
        }
    }
}
