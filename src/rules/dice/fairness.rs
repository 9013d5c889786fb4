//! Pearson's χ² goodness-of-fit test against a fair die, used by the fairness tests on the host
//! (seeded source) and in the browser (the real `getrandom` source).

use super::source::DiceSource;

/// Rolls a `sides`-sided die `n` times and returns how often each face came up.
pub fn face_counts<S: DiceSource + ?Sized>(src: &mut S, sides: u32, n: u64) -> Vec<u64> {
    let mut counts = vec![0u64; sides as usize];
    for _ in 0..n {
        counts[(src.roll(sides) - 1) as usize] += 1;
    }
    counts
}

/// Pearson's statistic for counts expected to be equal.
pub fn chi_square_statistic(counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    let expected = n as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// P(χ²(df) ≥ stat): the chance a fair die looks at least this uneven.
pub fn chi_square_p_value(stat: f64, df: u32) -> f64 {
    upper_regularized_gamma(f64::from(df) / 2.0, stat / 2.0)
}

/// The p-value of `n` rolls of a `sides`-sided die from `src`.
pub fn fairness_p_value<S: DiceSource + ?Sized>(src: &mut S, sides: u32, n: u64) -> f64 {
    chi_square_p_value(chi_square_statistic(&face_counts(src, sides, n)), sides - 1)
}

/// ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9; ~15 significant digits).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection formula.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Q(a, x) = Γ(a, x) / Γ(a): a series below a + 1, a continued fraction above (Lentz).
fn upper_regularized_gamma(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let log_prefix = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * log_prefix.exp()).max(0.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (log_prefix.exp() * h).min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::source::{uniform_below, SeededSource};
    use super::*;

    /// The significance level of the fairness tests: a fair die fails once in a million runs.
    const ALPHA: f64 = 1e-6;

    #[test]
    fn p_values_match_tables() {
        // Critical values at 5 % and 0.1 % from standard χ² tables.
        let cases = [
            (3.841, 1, 0.05),
            (18.307, 10, 0.05),
            (123.225, 99, 0.05),
            (10.828, 1, 0.001),
            (29.588, 10, 0.001),
        ];
        for (stat, df, p) in cases {
            let got = chi_square_p_value(stat, df);
            assert!(
                (got - p).abs() < p * 2e-3,
                "χ²({df}) ≥ {stat}: {got}, table {p}"
            );
        }
        assert!((chi_square_p_value(0.0, 5) - 1.0).abs() < 1e-15);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
    }

    /// One million rolls of every standard die from the seeded source pass at α = 1e-6.
    #[test]
    fn every_die_type_is_fair_over_a_million_rolls() {
        for (i, sides) in [4u32, 6, 8, 10, 12, 20, 100].into_iter().enumerate() {
            let mut src = SeededSource::new(1000 + i as u64);
            let p = fairness_p_value(&mut src, sides, 1_000_000);
            assert!(p > ALPHA, "d{sides}: p = {p}");
        }
    }

    /// The test has teeth: `x % sides` on 16-bit words for a 40 000-sided die (faces below
    /// 25 537 come up twice as often) is caught, while Lemire's method on the same generator passes.
    #[test]
    fn the_test_catches_a_modulo_biased_die() {
        struct Biased16(SeededSource);
        impl DiceSource for Biased16 {
            fn next_u32(&mut self) -> u32 {
                self.0.next_u32() >> 16
            }
            fn roll(&mut self, sides: u32) -> u32 {
                self.next_u32() % sides + 1
            }
        }
        let mut biased = Biased16(SeededSource::new(9));
        let p = fairness_p_value(&mut biased, 40_000, 1_000_000);
        assert!(
            p < ALPHA,
            "a 16-bit modulo die of 40 000 faces must be caught: p = {p}"
        );

        struct Fair16(SeededSource);
        impl DiceSource for Fair16 {
            fn next_u32(&mut self) -> u32 {
                self.0.next_u32()
            }
            fn roll(&mut self, sides: u32) -> u32 {
                uniform_below(self, sides) + 1
            }
        }
        let p = fairness_p_value(&mut Fair16(SeededSource::new(9)), 6, 1_000_000);
        assert!(p > ALPHA);
    }
}
