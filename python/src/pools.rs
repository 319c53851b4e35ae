//! Rayon's thread pools, one of each per process, so that a child made by
//! `os.fork()` works.
//!
//! A pool's threads live in the process that started them. A child made by
//! `os.fork()` (multiprocessing's default on Linux, `ProcessPoolExecutor`,
//! `Pool.map`) inherits the pools but none of their threads, and work handed
//! to them waits forever. So each pool remembers the process that built it,
//! and any other process builds its own. Rayon's global pool cannot be
//! replaced that way, so it is never used from Python: the library's
//! parallel work (searches split over the cores, builds) runs inside
//! [`LIBRARY`]'s `install`, where rayon's parallel iterators use that pool.
//! A batch's workers search one position each on one thread (not split):
//! work that a batch splits must be put in a pool's `install` too, or it
//! would reach the global pool again.

use npuzzle::io::most_threads;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::Mutex;

/// A thread pool for this process, built on first use in each process.
pub struct PerProcess {
    /// The process that built the pool, and the pool. Leaked: a forked
    /// child drops nothing of its parent's pool, whose threads it has not
    /// (dropping would signal them, and they do not exist).
    built: Mutex<Option<(u32, &'static ThreadPool)>>,
    /// How many threads, and their names' stem.
    threads: fn() -> Option<usize>,
    name: &'static str,
}

impl PerProcess {
    const fn new(name: &'static str, threads: fn() -> Option<usize>) -> Self {
        PerProcess {
            built: Mutex::new(None),
            threads,
            name,
        }
    }

    /// This process's pool, started on its first use here.
    pub fn get(&self) -> Result<&'static ThreadPool, String> {
        let pid = std::process::id();
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((owner, pool)) = *built {
            if owner == pid {
                return Ok(pool);
            }
        }
        let name = self.name;
        let mut builder = ThreadPoolBuilder::new().thread_name(move |i| format!("{name}-{i}"));
        if let Some(threads) = (self.threads)() {
            builder = builder.num_threads(threads);
        }
        let pool = builder
            .build()
            .map_err(|e| format!("cannot start the {name} threads: {e}"))?;
        let pool: &'static ThreadPool = Box::leak(Box::new(pool));
        *built = Some((pid, pool));
        Ok(pool)
    }
}

/// The pool every batch draws its threads from, with as many as a batch may
/// take ([`most_threads`]); a batch of `n` threads runs on its own thread
/// and `n - 1` of the pool's. One pool rather than one per count asked for:
/// counts vary from call to call, a pool per count would add up to
/// thousands of threads on a large machine, and building one per call costs
/// more than a small batch (the cause of issue 21's hang at
/// `threads=10000`). Idle threads sleep.
pub static BATCH: PerProcess = PerProcess::new("npuzzle-batch", || Some(most_threads()));

/// The pool of the library's parallel work: one thread per core (or
/// `RAYON_NUM_THREADS`), as rayon's global pool would have.
pub static LIBRARY: PerProcess = PerProcess::new("npuzzle", || None);
