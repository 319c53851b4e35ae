//! The factor W of a bounded-suboptimal search: how much longer than the
//! optimum a solution may be.
//!
//! The search weighs the heuristic by W in whole thousandths, so that every
//! comparison is exact integer arithmetic. A weight given with more digits
//! is rounded *down* to a thousandth: the bound proved is then at least as
//! tight as the one asked for.

use crate::puzzle::parse::excerpt;
use std::fmt;
use std::str::FromStr;

/// The thousandths a weight is counted in.
pub(crate) const SCALE: u32 = 1000;

/// The largest weight accepted. Past it the search is greedy in all but
/// name and the bound says nothing useful; W = 100 already lets a solution
/// be a hundred times the optimum.
pub const MAX_WEIGHT: f64 = 100.0;

/// A weight W from 1 to [`MAX_WEIGHT`]: solutions are at most W times the
/// optimum. W = 1 asks for an optimal solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Weight {
    /// W in thousandths, from [`SCALE`] to `MAX_WEIGHT × SCALE`.
    thousandths: u32,
}

/// Why a value is not a weight.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightError {
    /// The text is not a number.
    #[error("{0:?} is not a number; a weight is a number from 1 to 100, for example 1.2 or 2")]
    NotANumber(String),
    /// Not a number (NaN).
    #[error("NaN is not a weight; a weight is a number from 1 to 100, for example 1.2 or 2")]
    NaN,
    /// Below 1: no solution is shorter than the optimum.
    #[error(
        "a weight of {0} is below 1: no solution is shorter than the optimum; use 1 for \
         optimal solutions, or more (for example 1.2) for faster ones within that factor"
    )]
    BelowOne(String),
    /// Above [`MAX_WEIGHT`], infinity included.
    #[error(
        "a weight of {0} is above the limit of 100: with more, the search is greedy and the \
         bound says nothing; use a weight from 1 to 100"
    )]
    TooLarge(String),
}

impl Weight {
    /// W = 1: optimal solutions.
    pub const OPTIMAL: Weight = Weight { thousandths: SCALE };

    /// The weight `value`, rounded down to a thousandth, or why it is
    /// refused: NaN, below 1, or above [`MAX_WEIGHT`].
    pub fn new(value: f64) -> Result<Weight, WeightError> {
        if value.is_nan() {
            return Err(WeightError::NaN);
        }
        if value < 1.0 {
            return Err(WeightError::BelowOne(shown(value)));
        }
        // Far past the limit (infinity too): no rounding brings it back.
        if value > 2.0 * MAX_WEIGHT {
            return Err(WeightError::TooLarge(shown(value)));
        }
        let scaled = value * SCALE as f64;
        // 1.2 is stored as 1.19999…; a value within rounding error of a
        // thousandth is that thousandth, any other is rounded down.
        let nearest = scaled.round();
        let thousandths = if (scaled - nearest).abs() < 1e-6 {
            nearest
        } else {
            scaled.floor()
        };
        // Judged once rounded, as the search counts it: 100.0004 is 100.
        if thousandths > MAX_WEIGHT * SCALE as f64 {
            return Err(WeightError::TooLarge(shown(value)));
        }
        Ok(Weight {
            thousandths: thousandths as u32,
        })
    }

    /// W as a number.
    pub fn value(self) -> f64 {
        self.thousandths as f64 / SCALE as f64
    }

    /// W in thousandths: 1200 for 1.2.
    pub fn thousandths(self) -> u32 {
        self.thousandths
    }

    /// Whether W is [`MAX_WEIGHT`]: a search out of time there is not
    /// helped by a larger one, none being taken.
    pub fn is_largest(self) -> bool {
        self.value() >= MAX_WEIGHT
    }
}

impl FromStr for Weight {
    type Err = WeightError;

    /// Parses a decimal number such as `1.2`, `2` or `1e0`.
    fn from_str(text: &str) -> Result<Weight, WeightError> {
        let trimmed = text.trim();
        let value: f64 = trimmed
            .parse()
            .map_err(|_| WeightError::NotANumber(excerpt(text, 40).into_owned()))?;
        // A value that overflowed to infinity is named as it was written.
        let written = || excerpt(trimmed, 40).into_owned();
        match Weight::new(value) {
            Err(WeightError::TooLarge(_)) => Err(WeightError::TooLarge(written())),
            Err(WeightError::BelowOne(_)) => Err(WeightError::BelowOne(written())),
            other => other,
        }
    }
}

/// A refused value as a message names it: `0.5`, `1e308`, `5e-324`, never
/// the hundreds of digits a float's plain decimal can take.
fn shown(value: f64) -> String {
    let plain = (1e-4..1e16).contains(&value.abs());
    if plain || value == 0.0 || !value.is_finite() {
        value.to_string()
    } else {
        format!("{value:e}")
    }
}

impl fmt::Display for Weight {
    /// The shortest decimal: `1.2`, `2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_kept_exactly_and_finer_ones_rounded_down() {
        assert_eq!("1.2".parse::<Weight>().unwrap().thousandths(), 1200);
        assert_eq!("1.1".parse::<Weight>().unwrap().thousandths(), 1100);
        assert_eq!("2".parse::<Weight>().unwrap().thousandths(), 2000);
        assert_eq!("1e0".parse::<Weight>().unwrap(), Weight::OPTIMAL);
        assert_eq!("1.0009".parse::<Weight>().unwrap(), Weight::OPTIMAL);
        assert_eq!("100".parse::<Weight>().unwrap().thousandths(), 100_000);
        // Rounded down before the limit is judged, as the guide says.
        assert_eq!("100.0004".parse::<Weight>().unwrap().thousandths(), 100_000);
        assert_eq!("100.0009".parse::<Weight>().unwrap().thousandths(), 100_000);
        assert_eq!(Weight::new(1.5).unwrap().to_string(), "1.5");
    }

    #[test]
    fn bad_weights_are_refused_by_name() {
        for (text, start) in [
            ("0.5", "a weight of 0.5 is below 1"),
            ("-3", "a weight of -3 is below 1"),
            ("-inf", "a weight of -inf is below 1"),
            ("nan", "NaN is not a weight"),
            ("1e308", "a weight of 1e308 is above the limit of 100"),
            ("1e999", "a weight of 1e999 is above the limit of 100"),
            ("inf", "a weight of inf is above the limit of 100"),
            ("100.5", "a weight of 100.5 is above the limit of 100"),
            ("100.001", "a weight of 100.001 is above the limit of 100"),
            ("abc", "\"abc\" is not a number"),
            ("1e-400", "a weight of 1e-400 is below 1"),
            ("", "\"\" is not a number"),
        ] {
            let message = text.parse::<Weight>().unwrap_err().to_string();
            assert!(message.starts_with(start), "{text}: {message}");
        }
        // Values from a float, not text: named short, whatever their size.
        for (value, start) in [
            (1e308, "a weight of 1e308 is above"),
            (5e-324, "a weight of 5e-324 is below"),
            (0.999, "a weight of 0.999 is below"),
            (-0.0, "a weight of -0 is below"),
            (f64::NEG_INFINITY, "a weight of -inf is below"),
            (123.5, "a weight of 123.5 is above"),
        ] {
            let message = Weight::new(value).unwrap_err().to_string();
            assert!(message.starts_with(start), "{value}: {message}");
        }
        // Text past any sensible length is named by its start.
        let long = "9".repeat(200_000);
        for text in [long.clone(), format!("x{long}")] {
            let message = text.parse::<Weight>().unwrap_err().to_string();
            assert!(message.len() < 300, "{} bytes", message.len());
        }
    }
}
