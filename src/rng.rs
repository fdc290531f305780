//! A small seeded pseudo-random generator for the drill and for `traffic`'s reservoir sampling: SplitMix64 (Steele, Lea, Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014; the constants are those of `java.util.SplittableRandom`).
//!
//! Not cryptographic, and not meant to be: it is fast, passes BigCrush, has a full 2^64 period, and above all it is
//! *the same everywhere*, so a drill (or a calibration's sample) is repeatable from its seed. The core never draws OS randomness; whoever runs
//! a drill passes a seed.

/// SplitMix64: the state advances by a fixed odd constant (the golden gamma); each output is the state mixed by two
/// xor-shift-multiply rounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator from a seed (any value, 0 included).
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform draw in `[0, 1)` with 53 bits of precision.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `[0, n)` (`0` when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            // Multiply-shift (Lemire): unbiased enough for a drill, and branch-free.
            ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
        }
    }

    /// An exponential draw with the given mean (inverse transform: `-mean · ln(1 - U)`).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.next_f64()).ln()
    }

    /// A standard normal draw (Box–Muller, one of the pair).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.next_f64(); // (0, 1]: ln never sees 0
        let u2 = self.next_f64();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A log-normal draw with median `median` and log-spread `sigma`.
    pub fn log_normal(&mut self, median: f64, sigma: f64) -> f64 {
        median * (sigma * self.normal()).exp()
    }

    /// A new generator for an independent stream (the next output as its seed).
    pub fn split(&mut self) -> SplitMix64 {
        SplitMix64::new(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_outputs() {
        // SplitMix64 from seed 0: the published first outputs.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn exponential_mean_is_close() {
        let mut r = SplitMix64::new(7);
        let n = 20_000;
        let mean: f64 = (0..n).map(|_| r.exponential(250.0)).sum::<f64>() / n as f64;
        assert!((mean - 250.0).abs() < 10.0, "{mean}");
        let u: Vec<f64> = (0..1000).map(|_| r.next_f64()).collect();
        assert!(u.iter().all(|x| (0.0..1.0).contains(x)));
        assert!((0..1000).all(|_| r.below(3) < 3));
    }
}
