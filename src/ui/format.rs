//! How numbers are written for the player, in integer arithmetic (no float formatting code in
//! the app binary).
//!
//! Chances: "0%" and "100%" only for impossible and certain events (decided where the chance is
//! made, see [`Chance`]); from 1% to 99% one decimal ("45.3%"); closer to either end two
//! significant digits of the small side ("0.049%", "99.9986%"); below one in a million
//! "1 in 8.1 × 10³⁸"; above 1 − 10⁻⁶ "> 99.9999%". Never a noise digit, never a panic.

use crate::rules::dice::Chance;

/// A chance as the player reads it (see the module notes).
pub fn percent(c: Chance) -> String {
    match c {
        Chance::Impossible => "0%".into(),
        Chance::Certain => "100%".into(),
        Chance::Between { p, q } => {
            // Read the small side: it carries the digits.
            if p <= q {
                small_percent(p)
            } else {
                near_certain(q)
            }
        }
    }
}

/// A plain probability in [0, 1] that is known to be neither certain nor impossible unless it
/// is exactly 0 or 1 (e.g. a bar of a chart).
pub fn percent_of(p: f64) -> String {
    percent(Chance::exact(p))
}

/// 0 < p ≤ 0.5 (p may have underflowed to 0.0 in an extreme tail).
fn small_percent(p: f64) -> String {
    let x = p * 100.0;
    if x.is_nan() || x < 1e-4 {
        return one_in(p);
    }
    if x >= 1.0 {
        return format!("{}%", fixed(scale(x, 1), 1));
    }
    let d = sig2_decimals(x);
    format!("{}%", fixed(scale(x, d), d))
}

/// 0 < q < 0.5: the event fails with probability q.
fn near_certain(q: f64) -> String {
    let y = q * 100.0;
    if y.is_nan() || y < 1e-4 {
        return "> 99.9999%".into();
    }
    let d = if y >= 1.0 { 1 } else { sig2_decimals(y) };
    let full = 100 * 10u64.pow(d);
    // 100 − y rounded half up is 100 minus y rounded half *down* (57.75% shows 57.8%).
    format!("{}%", fixed(full - scale_half_down(y, d), d))
}

/// Decimals that show two significant digits of 1e-4 ≤ x < 1 (at most 7).
fn sig2_decimals(x: f64) -> u32 {
    // 2 for 0.1 ≤ x < 1, 3 for 0.01 ≤ x < 0.1, …
    ((-x.log10()).ceil() as i32 + 1).clamp(1, 7) as u32
}

/// "1 in 8.1 × 10³⁸" for p below one in a million, from logarithms so that no magnitude
/// overflows; an underflowed 0 says what is known.
fn one_in(p: f64) -> String {
    if p.is_nan() || p <= 0.0 {
        return "< 1 in 10³⁰⁸".into();
    }
    let l = -p.log10();
    let mut e = l.floor() as i64;
    let mut m = (10f64.powf(l - e as f64) * 10.0).round() as u64; // mantissa × 10
    if m >= 100 {
        m /= 10;
        e += 1;
    }
    format!("1 in {}.{} × 10{}", m / 10, m % 10, superscript(e))
}

fn superscript(n: i64) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string()
        .chars()
        .map(|c| c.to_digit(10).map_or('⁻', |d| DIGITS[d as usize]))
        .collect()
}

/// A mean or deviation with up to two decimals, without trailing zeros.
pub fn decimal(x: f64) -> String {
    let scaled = scale(x.abs(), 2);
    let text = fixed(scaled, 2);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if x < 0.0 && scaled > 0 {
        format!("-{text}")
    } else {
        text.to_owned()
    }
}

/// How far from an exact half a scaled value may be and still be that half: a chance made of
/// exact fractions (231/400 = 57.75%) reaches here a few ulps off, either way (SPEC decision 11:
/// rounded correctly).
const TIE: f64 = 1e-9;

/// `x` (≥ 0) times 10^decimals, rounded half up (saturating for absurd inputs).
fn scale(x: f64, decimals: u32) -> u64 {
    let v = x * 10f64.powi(decimals as i32);
    (v + 0.5 + v * TIE).floor() as u64
}

/// `x` (≥ 0) times 10^decimals, rounded half down (the complement of [`scale`]).
fn scale_half_down(x: f64, decimals: u32) -> u64 {
    let v = x * 10f64.powi(decimals as i32);
    (v - 0.5 - v * TIE).ceil().max(0.0) as u64
}

/// Writes a scaled integer with a decimal point.
fn fixed(scaled: u64, decimals: u32) -> String {
    if decimals == 0 {
        return scaled.to_string();
    }
    let unit = 10u64.pow(decimals);
    format!(
        "{}.{:0width$}",
        scaled / unit,
        scaled % unit,
        width = decimals as usize
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn between(p: f64) -> Chance {
        Chance::Between { p, q: 1.0 - p }
    }

    #[test]
    fn exact_ends() {
        assert_eq!(percent(Chance::Impossible), "0%");
        assert_eq!(percent(Chance::Certain), "100%");
        assert_eq!(percent_of(0.0), "0%");
        assert_eq!(percent_of(1.0), "100%");
    }

    #[test]
    fn ordinary_chances_have_one_decimal() {
        assert_eq!(percent(between(0.453)), "45.3%");
        assert_eq!(percent(between(0.5)), "50.0%");
        assert_eq!(percent(between(1.0 / 36.0)), "2.8%");
        assert_eq!(percent(between(0.95)), "95.0%");
        assert_eq!(percent(between(0.0105)), "1.1%");
    }

    #[test]
    fn small_chances_keep_two_significant_digits() {
        assert_eq!(percent(between(0.000488)), "0.049%");
        assert_eq!(
            percent(between(0.00999)),
            "1.00%",
            "rounds up across the decade"
        );
        assert_eq!(percent(between(0.005)), "0.50%");
        assert_eq!(percent(between(1.5e-6)), "0.00015%");
        assert_eq!(percent(between(1.01e-6)), "0.00010%");
        assert_eq!(percent(between(0.99e-6)), "1 in 1.0 × 10⁶");
    }

    #[test]
    fn tiny_chances_are_one_in_a_power_of_ten() {
        // 50d6 all sixes: 6⁻⁵⁰ = 1.24 × 10⁻³⁹.
        assert_eq!(percent(between(6f64.powi(-50))), "1 in 8.1 × 10³⁸");
        assert_eq!(percent(between(1e-9)), "1 in 1.0 × 10⁹");
        assert_eq!(percent(between(9.99e-8)), "1 in 1.0 × 10⁷");
        assert_eq!(percent(between(1e-300)), "1 in 1.0 × 10³⁰⁰");
        assert_eq!(percent(between(5e-324)), "1 in 2.0 × 10³²³");
        assert_eq!(percent(Chance::Between { p: 0.0, q: 1.0 }), "< 1 in 10³⁰⁸");
    }

    #[test]
    fn nearly_certain_chances_never_show_100() {
        assert_eq!(
            percent(Chance::Between {
                p: 0.999_986,
                q: 0.000_014
            }),
            "99.9986%"
        );
        assert_eq!(
            percent(Chance::Between {
                p: 0.9996,
                q: 0.0004
            }),
            "99.960%"
        );
        assert_eq!(
            percent(Chance::Between {
                p: 0.9995,
                q: 0.0005
            }),
            "99.950%"
        );
        assert_eq!(percent(Chance::Between { p: 0.999, q: 0.001 }), "99.90%");
        assert_eq!(percent(Chance::Between { p: 0.991, q: 0.009 }), "99.10%");
        assert_eq!(percent(Chance::Between { p: 0.98, q: 0.02 }), "98.0%");
        assert_eq!(percent(Chance::Between { p: 1.0, q: 1e-40 }), "> 99.9999%");
        assert_eq!(percent(Chance::Between { p: 1.0, q: 0.0 }), "> 99.9999%");
    }

    #[test]
    fn no_magnitude_panics_and_text_is_short() {
        let mut p = 1.0f64;
        while p > 0.0 {
            for c in [between(p), Chance::Between { p: 1.0 - p, q: p }] {
                let text = percent(c);
                assert!(text.len() < 24, "{p}: {text}");
                assert_ne!(text, "0%");
                assert_ne!(text, "100%");
            }
            p /= 3.7;
        }
    }

    /// SPEC decision 11: every ordinary chance k/n (both sides at least 1%) shows k/n rounded
    /// half up to one decimal, whichever side carries the digits; checked against integer
    /// arithmetic for every fraction with a denominator up to 400 and for the thousandths and
    /// ten-thousandths, where the ties are.
    #[test]
    fn ordinary_chances_round_half_up_exactly() {
        assert_eq!(percent(Chance::ratio(231, 400)), "57.8%");
        assert_eq!(percent(Chance::ratio(169, 400)), "42.3%");
        assert_eq!(percent(Chance::ratio(3, 8)), "37.5%");
        assert_eq!(percent(Chance::ratio(5, 8)), "62.5%");
        let mut checked = 0;
        let dens = (1..=400u64).chain([1000, 2000, 4000, 8000, 10_000, 20_000]);
        for n in dens {
            for k in 1..n {
                if 100 * k.min(n - k) < n {
                    continue; // the two-significant-digit regime, checked below
                }
                // ⌊1000k/n + ½⌋ in integers.
                let tenths = (2000 * k + n) / (2 * n);
                let want = format!("{}.{}%", tenths / 10, tenths % 10);
                for c in [Chance::ratio(k, n), between(k as f64 / n as f64)] {
                    assert_eq!(percent(c), want, "{k}/{n}");
                }
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked}");
        // Near certain, two significant digits of the small side, still half up.
        assert_eq!(percent(Chance::ratio(99_775, 100_000)), "99.78%");
        assert_eq!(percent(Chance::ratio(9_985, 10_000)), "99.85%");
        assert_eq!(percent(Chance::ratio(225, 100_000)), "0.23%");
    }

    /// Symbaroum #7: the blind figures that end in an exact 5 show rounded half up (the
    /// review's nine cases: enemy blind at targets 7–17, you blind at 15–19).
    #[test]
    fn symbaroum_r7_blind_test_chances_round_half_up() {
        use crate::rules::symbaroum::{success_chance, Blind};
        let cases = [
            (7, Blind::Enemy, "57.8%"),
            (9, Blind::Enemy, "69.8%"),
            (11, Blind::Enemy, "79.8%"),
            (13, Blind::Enemy, "87.8%"),
            (15, Blind::Enemy, "93.8%"),
            (17, Blind::Enemy, "97.8%"),
            (15, Blind::Me, "56.3%"),
            (17, Blind::Me, "72.3%"),
            (19, Blind::Me, "90.3%"),
        ];
        for (target, blind, want) in cases {
            assert_eq!(
                percent(success_chance(target, blind)),
                want,
                "{target} {blind:?}"
            );
        }
    }

    /// Vogt N10: 1d6 against 1d8 at equal DEX acts first 11/16 = 68.75% → "68.8%"; the 1d8's
    /// side, 5/16 = 31.25% → "31.3%" (half up on both sides).
    #[test]
    fn vogt_n10_before_chances_round_half_up() {
        use crate::rules::vogt::{before, Dice, InitSide};
        let d6 = InitSide {
            dice: Dice::new(1, 6),
            dex: 2,
        };
        let d8 = InitSide {
            dice: Dice::new(1, 8),
            dex: 2,
        };
        let (first, tie, second) = before(d6, d8);
        assert_eq!(percent(first), "68.8%");
        assert_eq!(tie, Chance::Impossible);
        assert_eq!(percent(second), "31.3%");
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal(10.5), "10.5");
        assert_eq!(decimal(7.0), "7");
        assert_eq!(decimal(12.2445), "12.24");
        assert_eq!(decimal(-0.001), "0");
        assert_eq!(decimal(-2.5), "-2.5");
        assert_eq!(decimal(0.0), "0");
    }
}
