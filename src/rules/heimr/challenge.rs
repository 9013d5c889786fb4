//! The Heimr dice challenge: 1d6 plus |C| d10, the highest kept when C > 0 (each extra 10 adds
//! 1), the lowest when C < 0 (each extra 1, the d6's included, subtracts 1), then + P.
//!
//! Its exact distribution is in closed form: with C > 0 the count of tens decides everything
//! above 9 (a binomial), and below it P(highest ≤ m) = P(d6 ≤ m)·(m/10)^C; with C < 0 the count
//! of ones (the d6's Bernoulli plus a binomial) decides everything below 2, and above it
//! P(lowest ≥ m) = P(d6 ≥ m)·((11 − m)/10)^|C|. O(|C|) work for any C.

use crate::rules::dice::{Chance, DiceSource, Distribution};

/// Fatigue stays within these bounds.
use super::sheet::{FATIGUE_MAX, FATIGUE_MIN};

fn binomial_pmf(n: u32, p: f64) -> Vec<f64> {
    // Built by repeated convolution with a Bernoulli: exact to rounding, no factorials.
    let mut pmf = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; pmf.len() + 1];
        for (k, &q) in pmf.iter().enumerate() {
            next[k] += q * (1.0 - p);
            next[k + 1] += q * p;
        }
        pmf = next;
    }
    pmf
}

/// The distribution of the dice part of a challenge (kept die ± bonus/penalty, before P).
pub fn dice_distribution(c: i32) -> Distribution {
    let n = c.unsigned_abs();
    match c.signum() {
        0 => Distribution::die(6),
        1 => {
            // Values 1..=9 with no ten shown, then 9 + t for t ≥ 1 tens.
            let cdf = |m: i32| f64::from(m.min(6)) / 6.0 * (f64::from(m) / 10.0).powi(c);
            let mut probs: Vec<f64> = (1..=9).map(|m| cdf(m) - cdf(m - 1)).collect();
            probs.extend(binomial_pmf(n, 0.1).into_iter().skip(1));
            Distribution::from_probs(1, probs)
        }
        _ => {
            // Ones: the d6 (1/6) and each d10 (1/10). u ≥ 1 ones give 2 − u.
            let d10_ones = binomial_pmf(n, 0.1);
            let mut ones = vec![0.0; d10_ones.len() + 1];
            for (k, &q) in d10_ones.iter().enumerate() {
                ones[k] += q * 5.0 / 6.0;
                ones[k + 1] += q / 6.0;
            }
            let survive = |m: i32| {
                f64::from((7 - m).max(0)) / 6.0 * (f64::from(11 - m) / 10.0).powi(n as i32)
            };
            let lowest = 2 - (ones.len() as i64 - 1); // all n + 1 dice show 1
            let mut probs = vec![0.0; (6 - lowest + 1) as usize];
            for (u, &q) in ones.iter().enumerate().skip(1) {
                probs[(2 - u as i64 - lowest) as usize] += q;
            }
            for m in 2..=6 {
                probs[(m as i64 - lowest) as usize] += survive(m) - survive(m + 1);
            }
            Distribution::from_probs(lowest, probs)
        }
    }
}

/// The distribution of a challenge's result (dice part + P).
pub fn result_distribution(c: i32, p: i32) -> Distribution {
    dice_distribution(c).shift(i64::from(p))
}

/// The exact chance of success against a challenge requirement: result ≥ CR and, on a physical
/// roll, the dice part (before P) at least the fatigue.
pub fn success_chance(c: i32, p: i32, cr: i32, fatigue: Option<i32>) -> Chance {
    let need = i64::from(cr - p).max(fatigue.map_or(i64::MIN, i64::from));
    dice_distribution(c).at_least(need)
}

/// One side of an opposed challenge: C, P and, on a physical roll, the fatigue.
pub type Side = (i32, i32, Option<i32>);

/// Win, tie and lose of side `a` against side `b`, each side's fatigue check included: a
/// physical roll whose dice part is below its fatigue fails outright, so it loses to any roll
/// that stands, and two such failures tie. Failures are folded into one value below every
/// result either side can reach, then the two distributions are compared exactly.
pub fn opposed_chances(a: Side, b: Side) -> (Chance, Chance, Chance) {
    let (da, db) = (dice_distribution(a.0), dice_distribution(b.0));
    let floor = (da.min() + i64::from(a.1)).min(db.min() + i64::from(b.1)) - 1;
    let side = |d: &Distribution, (_, p, f): Side| {
        let top = d.max() + i64::from(p);
        let mut probs = vec![0.0; (top - floor + 1) as usize];
        for (v, q) in d.iter() {
            let at = if f.is_some_and(|f| v < i64::from(f)) {
                floor
            } else {
                v + i64::from(p)
            };
            probs[(at - floor) as usize] += q;
        }
        Distribution::from_probs(floor, probs)
    };
    side(&da, a).versus(&side(&db, b))
}

/// The chance that a physical roll raises fatigue: the d6 shows less than the fatigue, and
/// fatigue is not already at its maximum.
pub fn fatigue_rise_chance(fatigue: i32) -> Chance {
    if fatigue >= FATIGUE_MAX {
        return Chance::Impossible;
    }
    Chance::ratio((fatigue - 1).clamp(0, 6) as u64, 6)
}

/// The chance that a physical roll raises fatigue when a rise is still open (`may`: false once
/// it rose this turn in a running fight, where it rises at most once a turn).
pub fn rise_chance(fatigue: i32, may: bool) -> Chance {
    if may {
        fatigue_rise_chance(fatigue)
    } else {
        Chance::Impossible
    }
}

/// One rolled challenge with every die.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChallengeRoll {
    pub c: i32,
    pub p: i32,
    pub d6: u32,
    pub d10s: Vec<u32>,
    /// Which die was kept: 0 is the d6, i + 1 is `d10s[i]`.
    pub kept: usize,
    /// +1 per extra 10 (C > 0), −1 per extra 1 (C < 0).
    pub modifier: i32,
    /// Kept die + modifier: what fatigue is checked against.
    pub dice: i32,
    pub result: i32,
}

impl ChallengeRoll {
    pub fn kept_value(&self) -> u32 {
        if self.kept == 0 {
            self.d6
        } else {
            self.d10s[self.kept - 1]
        }
    }

    /// Against a challenge requirement, with the fatigue check on physical rolls.
    pub fn succeeds(&self, cr: i32, fatigue: Option<i32>) -> bool {
        self.result >= cr && fatigue.is_none_or(|f| self.dice >= f)
    }

    /// Fatigue failure: the dice part is below the fatigue (physical rolls only).
    pub fn fatigue_failure(&self, fatigue: Option<i32>) -> bool {
        fatigue.is_some_and(|f| self.dice < f)
    }

    /// The fatigue after this physical roll: +1 when the d6 shows less than it, within 1…20.
    pub fn fatigue_after(&self, fatigue: i32) -> i32 {
        let up = i32::from((self.d6 as i32) < fatigue);
        (fatigue + up).clamp(FATIGUE_MIN, FATIGUE_MAX)
    }

    /// [`fatigue_after`](Self::fatigue_after) when a rise is still open (`may`, as
    /// [`rise_chance`]); the fatigue unchanged otherwise.
    pub fn fatigue_after_if(&self, fatigue: i32, may: bool) -> i32 {
        if may {
            self.fatigue_after(fatigue)
        } else {
            fatigue
        }
    }
}

/// Rolls a challenge: the d6 first, then the d10s.
pub fn roll_challenge<S: DiceSource + ?Sized>(c: i32, p: i32, src: &mut S) -> ChallengeRoll {
    let d6 = src.roll(6);
    let d10s: Vec<u32> = (0..c.unsigned_abs()).map(|_| src.roll(10)).collect();
    let all = std::iter::once(d6).chain(d10s.iter().copied());
    let (kept, modifier) = match c.signum() {
        0 => (0, 0),
        1 => {
            // Highest; on a tie the d10 (a ten can only be a d10).
            let kept = all
                .enumerate()
                .max_by_key(|&(i, v)| (v, i))
                .map_or(0, |(i, _)| i);
            let tens = d10s.iter().filter(|&&v| v == 10).count() as i32;
            (kept, (tens - 1).max(0))
        }
        _ => {
            let kept = all
                .enumerate()
                .min_by_key(|&(i, v)| (v, i))
                .map_or(0, |(i, _)| i);
            let ones = i32::from(d6 == 1) + d10s.iter().filter(|&&v| v == 1).count() as i32;
            (kept, -(ones - 1).max(0))
        }
    };
    let kept_value = if kept == 0 { d6 } else { d10s[kept - 1] };
    let dice = kept_value as i32 + modifier;
    ChallengeRoll {
        c,
        p,
        d6,
        d10s,
        kept,
        modifier,
        dice,
        result: dice + p,
    }
}

#[cfg(test)]
mod opposed_tests {
    use super::*;

    /// Every (dice part, probability) of a challenge by enumerating the d6 and the d10s.
    fn enumerate(c: i32) -> Vec<(i32, f64)> {
        let n = c.unsigned_abs();
        let mut out = Vec::new();
        let total = 6 * 10u32.pow(n);
        for code in 0..total {
            let d6 = code % 6 + 1;
            let mut rest = code / 6;
            let d10s: Vec<u32> = (0..n)
                .map(|_| {
                    let v = rest % 10 + 1;
                    rest /= 10;
                    v
                })
                .collect();
            let mut dice = vec![d6];
            dice.extend(&d10s);
            let part = match c.signum() {
                0 => d6 as i32,
                1 => {
                    let tens = d10s.iter().filter(|&&v| v == 10).count() as i32;
                    if tens > 0 {
                        9 + tens
                    } else {
                        *dice.iter().max().unwrap() as i32
                    }
                }
                _ => {
                    let ones = dice.iter().filter(|&&v| v == 1).count() as i32;
                    if ones > 0 {
                        2 - ones
                    } else {
                        *dice.iter().min().unwrap() as i32
                    }
                }
            };
            out.push((part, 1.0 / f64::from(total)));
        }
        // Equal dice parts merged (still every die combination counted one by one above).
        crate::rules::order::sort_with(&mut out, |a, b| a.0.cmp(&b.0));
        out.dedup_by(|x, y| {
            let same = x.0 == y.0;
            if same {
                y.1 += x.1;
            }
            same
        });
        out
    }

    #[test]
    fn opposed_chances_match_enumeration_with_fatigue_on_either_side() {
        let sides: [Side; 8] = [
            (0, 2, None),
            (1, 0, Some(3)),
            (2, 3, Some(6)),
            (-1, 4, None),
            (-2, 1, Some(2)),
            (3, -1, Some(20)),
            (0, 5, Some(1)),
            (-3, 0, Some(4)),
        ];
        for a in sides {
            for b in sides {
                let (w, t, l) = opposed_chances(a, b);
                let (mut ew, mut et, mut el) = (0.0, 0.0, 0.0);
                for (x, px) in enumerate(a.0) {
                    for (y, py) in enumerate(b.0) {
                        let fa = a.2.is_some_and(|f| x < f);
                        let fb = b.2.is_some_and(|f| y < f);
                        let q = px * py;
                        match (fa, fb) {
                            (true, true) => et += q,
                            (true, false) => el += q,
                            (false, true) => ew += q,
                            _ => match (x + a.1).cmp(&(y + b.1)) {
                                std::cmp::Ordering::Greater => ew += q,
                                std::cmp::Ordering::Equal => et += q,
                                std::cmp::Ordering::Less => el += q,
                            },
                        }
                    }
                }
                for (got, want) in [(w, ew), (t, et), (l, el)] {
                    assert!(
                        (got.p() - want).abs() < 1e-9,
                        "{a:?} vs {b:?}: {} vs {want}",
                        got.p()
                    );
                    assert_eq!(want == 0.0, got.is_impossible(), "{a:?} vs {b:?}");
                }
                assert!((w.p() + t.p() + l.p() - 1.0).abs() < 1e-12);
            }
        }
        // At fatigue 20 a physical roll (dice part at most 9 + tens) nearly always fails; with
        // C 0 (dice part ≤ 6) it always does: it can never win, and two such rolls always tie.
        let hopeless = (0, 10, Some(20));
        assert!(opposed_chances(hopeless, (0, 0, None)).0.is_impossible());
        assert!(opposed_chances(hopeless, hopeless).1.is_certain());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedSource;
    use std::collections::BTreeMap;

    /// Every face combination of 1d6 + |C| d10, rolled through `roll_challenge` itself.
    fn brute_force(c: i32) -> BTreeMap<i32, f64> {
        let n = c.unsigned_abs();
        let total = 6 * 10u32.pow(n);
        let mut out = BTreeMap::new();
        for code in 0..total {
            let mut faces = vec![code % 6 + 1];
            let mut rest = code / 6;
            for _ in 0..n {
                faces.push(rest % 10 + 1);
                rest /= 10;
            }
            let r = roll_challenge(c, 0, &mut ScriptedSource::new(faces));
            *out.entry(r.dice).or_insert(0.0) += 1.0 / f64::from(total);
        }
        out
    }

    #[test]
    fn closed_form_equals_enumeration_for_small_pools() {
        for c in -4..=4 {
            let d = dice_distribution(c);
            let bf = brute_force(c);
            assert!((d.total() - 1.0).abs() < 1e-12, "C {c}");
            for (&v, &p) in &bf {
                assert!(
                    (d.p(i64::from(v)) - p).abs() < 1e-12,
                    "C {c}: P({v}) {} vs {p}",
                    d.p(i64::from(v))
                );
            }
            assert_eq!(
                d.iter().filter(|&(_, p)| p > 0.0).count(),
                bf.len(),
                "C {c}: same support"
            );
            for p in [-3, 0, 2, 5] {
                let r = result_distribution(c, p);
                assert!((r.mean() - d.mean() - f64::from(p)).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn sums_to_one_and_the_mean_rises_with_c() {
        let mut last = f64::NEG_INFINITY;
        for c in -20..=20 {
            let d = dice_distribution(c);
            assert!((d.total() - 1.0).abs() < 1e-12, "C {c}: {}", d.total());
            assert!(d.mean() > last, "C {c}: mean {} not above {last}", d.mean());
            last = d.mean();
        }
        assert_eq!(
            dice_distribution(20).max(),
            29,
            "all twenty d10 show 10: 10 + 19"
        );
        assert_eq!(
            dice_distribution(-20).min(),
            -19,
            "all 21 dice show 1: 1 − 20"
        );
    }

    /// The seed's side notes, recomputed from the rules (the −5 one is wrong in the seed).
    #[test]
    fn side_notes_recomputed() {
        // C = 5: the highest die is 9 or 10 — any d10 at 9 or more.
        let p_high = 1.0 - 0.8f64.powi(5);
        let d = dice_distribution(5);
        assert!((d.p_at_least(9) - p_high).abs() < 1e-12);
        assert!((p_high - 0.672).abs() < 1e-3);
        // C = −5: the lowest die is 1 or 2 — by enumeration of the lowest die itself.
        let mut low = 0u32;
        for code in 0..6 * 100_000u32 {
            let mut lowest = code % 6 + 1;
            let mut rest = code / 6;
            for _ in 0..5 {
                lowest = lowest.min(rest % 10 + 1);
                rest /= 10;
            }
            low += u32::from(lowest <= 2);
        }
        let p_low = f64::from(low) / 600_000.0;
        assert!((p_low - (1.0 - 4.0 / 6.0 * 0.8f64.powi(5))).abs() < 1e-12);
        assert!((p_low - 0.78155).abs() < 1e-5 && (p_low - 0.89).abs() > 0.1);
    }

    /// The seed's six worked examples, with the dice it lists. Two of its sums are slips of
    /// arithmetic: "10+1+6 = 18" is 17 and "1-2-4 = -2" is −5; the terms it writes follow the
    /// rules, so the rules' totals are what the app shows.
    #[test]
    fn the_seed_examples() {
        // (C, P, d6, d10s, result)
        let cases: [(i32, i32, u32, &[u32], i32); 6] = [
            (3, 3, 1, &[4, 9, 10], 13),
            (5, 6, 1, &[3, 5, 7, 10, 10], 17),
            (0, 0, 3, &[], 3),
            (4, 3, 6, &[1, 1, 2, 4], 9),
            (2, -3, 3, &[10, 10], 8),
            (-4, -4, 4, &[1, 1, 1, 9], -5),
        ];
        for (c, p, d6, d10s, result) in cases {
            let faces: Vec<u32> = std::iter::once(d6).chain(d10s.iter().copied()).collect();
            let r = roll_challenge(c, p, &mut ScriptedSource::new(faces));
            assert_eq!(r.result, result, "C {c} P {p}: {r:?}");
            assert_eq!((r.d6, r.d10s.as_slice()), (d6, d10s));
        }
        let r = roll_challenge(5, 6, &mut ScriptedSource::new(vec![1, 3, 5, 7, 10, 10]));
        assert_eq!((r.kept_value(), r.modifier), (10, 1));
        let r = roll_challenge(-4, -4, &mut ScriptedSource::new(vec![4, 1, 1, 1, 9]));
        assert_eq!((r.kept_value(), r.modifier, r.dice), (1, -2, -1));
    }

    #[test]
    fn success_and_fatigue() {
        // C 0, P 2, CR 6: d6 + 2 ≥ 6 ⇔ d6 ≥ 4: 1/2. With fatigue 5 the die must also be ≥ 5: 1/3.
        assert!((success_chance(0, 2, 6, None).p() - 0.5).abs() < 1e-12);
        assert!((success_chance(0, 2, 6, Some(5)).p() - 2.0 / 6.0).abs() < 1e-12);
        assert_eq!(
            success_chance(0, 9, 1, Some(7)),
            Chance::Impossible,
            "fatigue 7 beats a lone d6"
        );
        assert_eq!(success_chance(0, 9, 1, None), Chance::Certain);
        let r = roll_challenge(0, 9, &mut ScriptedSource::new(vec![6]));
        assert!(r.fatigue_failure(Some(7)) && !r.succeeds(1, Some(7)) && r.succeeds(1, None));
        assert_eq!(r.fatigue_after(7), 8);
        assert_eq!(r.fatigue_after(6), 6, "a 6 is not below 6");
        assert_eq!(r.fatigue_after(20), 20, "never above 20");
        assert!((fatigue_rise_chance(4).p() - 0.5).abs() < 1e-12);
        assert_eq!(fatigue_rise_chance(9), Chance::Certain);
        assert_eq!(fatigue_rise_chance(20), Chance::Impossible);
        assert_eq!(fatigue_rise_chance(19), Chance::Certain);
        assert_eq!(fatigue_rise_chance(1), Chance::Impossible);
        // Success chance agrees with counting scripted rolls.
        for (c, p, cr, f) in [
            (2i32, 1, 9, Some(4)),
            (-2, 3, 5, None),
            (3, -1, 8, Some(6)),
            (-1, 0, 2, Some(2)),
            (0, 9, 1, None),
            (2, 0, 11, Some(1)),
            (2, 0, 12, None),
            (-2, 5, 4, Some(1)),
        ] {
            let n = c.unsigned_abs();
            let total = 6 * 10u32.pow(n);
            let wins = (0..total)
                .filter(|code| {
                    let mut faces = vec![code % 6 + 1];
                    let mut rest = code / 6;
                    for _ in 0..n {
                        faces.push(rest % 10 + 1);
                        rest /= 10;
                    }
                    roll_challenge(c, p, &mut ScriptedSource::new(faces)).succeeds(cr, f)
                })
                .count();
            let chance = success_chance(c, p, cr, f);
            assert!((chance.p() - wins as f64 / f64::from(total)).abs() < 1e-12);
            assert_eq!(
                chance.is_certain(),
                wins == total as usize,
                "{c} {p} {cr} {f:?}"
            );
            assert_eq!(chance.is_impossible(), wins == 0, "{c} {p} {cr} {f:?}");
        }
    }

    #[test]
    fn opposed_chances_cover_every_outcome() {
        let a = result_distribution(2, 1);
        let b = result_distribution(-1, 3);
        let (win, tie) = a.beats(&b);
        let (lose, tie2) = b.beats(&a);
        assert!((tie - tie2).abs() < 1e-12);
        assert!((win + tie + lose - 1.0).abs() < 1e-12);
    }
}
