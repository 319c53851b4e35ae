//! Axis maths: the ranges of count axes and the text of tick labels.

use super::Series;
use std::ops::Range;

/// The y range of a linear count axis: from zero to a little above the
/// highest value, so the tallest bar does not touch the frame.
pub(super) fn linear_range(series: &[Series]) -> Range<f64> {
    let finite = || {
        series
            .iter()
            .flat_map(|s| &s.values)
            .filter(|v| v.is_finite())
    };
    let high = finite().copied().fold(0.0, f64::max);
    let low = finite().copied().fold(0.0, f64::min);
    let high = if high > low { high } else { low + 1.0 };
    low..high * 1.05
}

/// The y range of a logarithmic count axis: from half the smallest positive
/// value (so a bar of height 1 is still a bar, not a line on the frame) to a
/// little above the highest value. Zero counts are not drawn at all: they
/// have no place on a log scale.
pub(super) fn log_range(series: &[Series]) -> Range<f64> {
    let positive = || {
        series
            .iter()
            .flat_map(|s| &s.values)
            .copied()
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let low = positive().fold(f64::INFINITY, f64::min);
    let high = positive().fold(0.0, f64::max);
    if !low.is_finite() {
        return 0.5..10.0;
    }
    let low = low / 2.0;
    let high = if high > low { high * 1.5 } else { low * 10.0 };
    low..high
}

/// A tick label: whole numbers with thousands separators (counts reach the
/// hundreds of thousands), fractions to two decimals without trailing zeros.
pub(super) fn tick_label(v: f64) -> String {
    let rounded = v.round();
    if (v - rounded).abs() < 1e-9 * v.abs().max(1.0) && rounded.abs() < 1e15 {
        let digits = format!("{}", rounded.abs() as u64);
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        if rounded < 0.0 {
            out.insert(0, '-');
        }
        out
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_group_thousands_and_trim_fractions() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(24047.0), "24,047");
        assert_eq!(tick_label(1_000_000.0), "1,000,000");
        assert_eq!(tick_label(2.5), "2.5");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(-3.0), "-3");
    }

    #[test]
    fn log_range_starts_below_the_smallest_positive_count() {
        let s = [Series::new("a", vec![0.0, 1.0, 2.0, 24047.0])];
        let r = log_range(&s);
        assert_eq!(r.start, 0.5);
        assert!(r.end > 24047.0);
    }
}
