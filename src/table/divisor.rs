//! Dividing by a fixed number with one multiplication, as both rankers do
//! when they turn a rank back into its digits.

/// A divisor above 1 and ceil(2^64 / divisor): `n / divisor` is then the
/// high half of `n · reciprocal`, exact whenever `n · divisor < 2^64`
/// (every rank's remainder times its digit's weight stays below that).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Divisor {
    divisor: u32,
    reciprocal: u64,
}

impl Divisor {
    /// The divisor `divisor`; 0 and 1 give a divisor whose [`Self::divide`]
    /// is not meaningful (callers treat weight 1 and the unused slots apart).
    pub fn new(divisor: u32) -> Divisor {
        let reciprocal = if divisor > 1 {
            u64::MAX / divisor as u64 + 1
        } else {
            0
        };
        Divisor {
            divisor,
            reciprocal,
        }
    }

    /// The number divided by.
    #[inline(always)]
    pub fn get(self) -> u32 {
        self.divisor
    }

    /// `n / divisor`, for `n · divisor < 2^64` and a divisor above 1.
    #[inline(always)]
    pub fn divide(self, n: u64) -> u64 {
        ((n as u128 * self.reciprocal as u128) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dividing_by_multiplication_equals_integer_division() {
        // Factorials (the complete tables' weights, halved) and falling
        // factorials (the pattern rankers'), with numerators up to the
        // largest that keeps n · divisor below 2^64.
        for divisor in [2u32, 3, 12, 360, 20_160, 19_958_400, 518_918_400, u32::MAX] {
            let d = Divisor::new(divisor);
            let limit = u64::MAX / divisor as u64;
            let mut probes = vec![0, 1, divisor as u64 - 1, divisor as u64, limit, limit - 1];
            probes.extend((1..1000u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) % limit));
            for n in probes {
                assert_eq!(d.divide(n), n / divisor as u64, "{n} / {divisor}");
            }
        }
    }
}
