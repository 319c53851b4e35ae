//! How long a search may run: one rule, and one wording of it, for every
//! face (`--timeout` on the command line and `serve`, Python's `timeout=`).

use std::time::Duration;

/// The longest timeout, in seconds: about 31 years, past any search anyone
/// waits for, and far from where a deadline would overflow the clock.
pub const MAX_TIMEOUT_SECONDS: f64 = 1e9;

/// A number of seconds that is no timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TimeoutError {
    /// Not a number.
    #[error("NaN is not a number of seconds")]
    NaN,
    /// 0 or below.
    #[error("a timeout must be above 0 seconds")]
    NotPositive,
    /// Infinity, as written: no limit at all.
    #[error("an infinite timeout is no limit")]
    Infinite,
    /// Past [`MAX_TIMEOUT_SECONDS`].
    #[error("above the limit of {MAX_TIMEOUT_SECONDS:.0} seconds (about 31 years)")]
    TooLong,
    /// Below a nanosecond.
    #[error("below a nanosecond, the clock's finest step: the shortest timeout is 1e-9")]
    BelowNanosecond,
}

impl TimeoutError {
    /// The message, with `no_limit` (how this face searches without a
    /// limit) where the value asked for no limit or more than the limit.
    pub fn advising(self, no_limit: &str) -> String {
        match self {
            TimeoutError::Infinite => format!("{self}: {no_limit}"),
            TimeoutError::NotPositive | TimeoutError::TooLong => format!("{self}; {no_limit}"),
            TimeoutError::NaN | TimeoutError::BelowNanosecond => self.to_string(),
        }
    }
}

/// `seconds` as a timeout, or why it is none. Infinity is taken as written
/// infinity: a face that reads a number too large for a float (a long run
/// of digits) passes `f64::MAX`, which is past the limit.
pub fn check_timeout(seconds: f64) -> Result<Duration, TimeoutError> {
    if seconds.is_nan() {
        Err(TimeoutError::NaN)
    } else if seconds <= 0.0 {
        Err(TimeoutError::NotPositive)
    } else if seconds == f64::INFINITY {
        Err(TimeoutError::Infinite)
    } else if seconds > MAX_TIMEOUT_SECONDS {
        Err(TimeoutError::TooLong)
    } else if seconds < 1e-9 {
        Err(TimeoutError::BelowNanosecond)
    } else {
        Ok(Duration::from_secs_f64(seconds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_and_its_words() {
        assert_eq!(check_timeout(0.5), Ok(Duration::from_millis(500)));
        assert_eq!(check_timeout(1e-9), Ok(Duration::from_nanos(1)));
        assert!(check_timeout(MAX_TIMEOUT_SECONDS).is_ok());
        for (seconds, why) in [
            (f64::NAN, TimeoutError::NaN),
            (0.0, TimeoutError::NotPositive),
            (-1.0, TimeoutError::NotPositive),
            (f64::NEG_INFINITY, TimeoutError::NotPositive),
            (f64::INFINITY, TimeoutError::Infinite),
            (f64::MAX, TimeoutError::TooLong),
            (1e-10, TimeoutError::BelowNanosecond),
        ] {
            assert_eq!(check_timeout(seconds), Err(why), "{seconds}");
        }
        assert_eq!(
            TimeoutError::TooLong.advising("leave it out"),
            "above the limit of 1000000000 seconds (about 31 years); leave it out"
        );
        assert_eq!(
            TimeoutError::Infinite.advising("leave it out"),
            "an infinite timeout is no limit: leave it out"
        );
    }
}
