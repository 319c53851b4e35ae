//! What the peer benchmarks share: summaries of timed runs.

use std::time::Duration;

/// The middle time (the mean of the middle two for an even count); zero
/// for none.
pub fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    let n = times.len();
    match n {
        0 => Duration::ZERO,
        _ if !n.is_multiple_of(2) => times[n / 2],
        _ => (times[n / 2 - 1] + times[n / 2]) / 2,
    }
}
