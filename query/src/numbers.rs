//! Flags that take a whole number: each says its own range when refused,
//! so `--count -5` is blamed on `--count`, not on the tiles of a board.
//!
//! Such flags also set `allow_negative_numbers`, or clap would take `-5`
//! for an unknown option before any parser saw it.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A clap value parser for a whole number in `range`. clap names the flag
/// and the value; the refusal says what the flag takes.
pub fn whole<T>(range: RangeInclusive<T>) -> impl Fn(&str) -> Result<T, String> + Clone
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let (lo, hi) = (*range.start(), *range.end());
        let wanted = format!("it takes a whole number from {lo} to {hi}");
        let digits = text.trim();
        if let Some(rest) = digits.strip_prefix('-') {
            if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("a negative number; {wanted}"));
            }
        }
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("not a whole number; {wanted}"));
        }
        match digits.parse::<T>() {
            Ok(n) if n < lo => Err(format!("below {lo}; {wanted}")),
            Ok(n) if n > hi => Err(format!("above {hi}; {wanted}")),
            Ok(n) => Ok(n),
            // Only digits, so the type overflowed.
            Err(_) => Err(format!("above {hi}; {wanted}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::whole;

    #[test]
    fn refusals_name_the_range() {
        let count = whole(1usize..=1_000);
        assert_eq!(count("12"), Ok(12));
        assert_eq!(count(" 7 "), Ok(7));
        let wanted = "it takes a whole number from 1 to 1000";
        assert_eq!(count("-5"), Err(format!("a negative number; {wanted}")));
        assert_eq!(count("0"), Err(format!("below 1; {wanted}")));
        assert_eq!(count("1001"), Err(format!("above 1000; {wanted}")));
        assert_eq!(
            count("99999999999999999999999"),
            Err(format!("above 1000; {wanted}"))
        );
        assert_eq!(count("1.5"), Err(format!("not a whole number; {wanted}")));
        assert_eq!(count("-x"), Err(format!("not a whole number; {wanted}")));
        assert_eq!(count(""), Err(format!("not a whole number; {wanted}")));
        let port = whole(0u16..=u16::MAX);
        assert_eq!(
            port("65536"),
            Err("above 65535; it takes a whole number from 0 to 65535".into())
        );
    }
}
