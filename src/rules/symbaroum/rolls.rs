use crate::rules::dice::{Chance, DiceSource, Distribution, Expr, TooLarge};

/// Who fights blind: the roller rolls twice and keeps the worse, or only the enemy is blind
/// and the roller keeps the better of two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Blind {
    #[default]
    Neither,
    Me,
    Enemy,
}

/// The exact chance of a d20 roll-under test succeeding: d20 ≤ target, the target clamped to
/// 0…20; twice-and-worse needs both dice to pass, twice-and-better either.
pub fn success_chance(target: i32, blind: Blind) -> Chance {
    let t = target.clamp(0, 20) as u64;
    match blind {
        Blind::Neither => Chance::ratio(t, 20),
        Blind::Me => Chance::ratio(t * t, 400),
        Blind::Enemy => Chance::ratio(400 - (20 - t) * (20 - t), 400),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestRoll {
    pub target: i32,
    /// One d20, or two when fighting blind.
    pub rolls: Vec<u32>,
    pub kept: u32,
    pub success: bool,
}

pub fn roll_test<S: DiceSource + ?Sized>(target: i32, blind: Blind, src: &mut S) -> TestRoll {
    let first = src.roll(20);
    let (rolls, kept) = match blind {
        Blind::Neither => (vec![first], first),
        Blind::Me => {
            let second = src.roll(20);
            (vec![first, second], first.max(second))
        }
        Blind::Enemy => {
            let second = src.roll(20);
            (vec![first, second], first.min(second))
        }
    };
    TestRoll {
        target,
        rolls,
        kept,
        success: kept as i32 <= target,
    }
}

/// Damage after armor: the weapon's roll (+1d4 with advantage) minus the armor's roll, never
/// below 0.
pub fn damage_distribution(
    weapon: &Expr,
    advantage: bool,
    armor: Option<&Expr>,
) -> Result<Distribution, TooLarge> {
    let mut d = Distribution::of_expr(weapon)?;
    if advantage {
        d = d.convolve(&Distribution::die(4));
    }
    if let Some(armor) = armor {
        d = d.convolve(&Distribution::of_expr(armor)?.negate());
    }
    Ok(d.floored(0))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeathOutcome {
    /// A 1: wakes with this much toughness (1d4).
    Wakes(u32),
    /// 2–10.
    Nothing,
    /// 11–19: one step closer; `steps` counts them (the third kills).
    Closer { steps: u32 },
    /// A 20, or the third 11–19.
    Dies,
}

/// One death test for a dying character with `steps` earlier results of 11–19.
pub fn roll_death_test<S: DiceSource + ?Sized>(steps: u32, src: &mut S) -> (u32, DeathOutcome) {
    let d20 = src.roll(20);
    let outcome = match d20 {
        1 => DeathOutcome::Wakes(src.roll(4)),
        2..=10 => DeathOutcome::Nothing,
        11..=19 if steps + 1 >= 3 => DeathOutcome::Dies,
        11..=19 => DeathOutcome::Closer { steps: steps + 1 },
        _ => DeathOutcome::Dies,
    };
    (d20, outcome)
}

/// The exact chance of dying within the next `tests` death tests, from `steps` results of 11–19
/// so far (a Markov chain over 0, 1, 2 steps; waking up ends the tests).
pub fn death_chance_within(steps: u32, tests: u32) -> Chance {
    // A living character counted at 3 steps or more (a count typed on its sheet) dies at its
    // next step, as one at 2 does: both rolls (the sheet's and the fight's) read it so.
    let steps = steps.min(2);
    if tests == 0 {
        return Chance::Impossible;
    }
    let mut alive = [0.0f64; 3];
    alive[steps as usize] = 1.0;
    let mut dead = 0.0;
    for _ in 0..tests {
        let mut next = [0.0; 3];
        for s in 0..3 {
            let p = alive[s];
            next[s] += p * 9.0 / 20.0;
            dead += p / 20.0;
            if s + 1 == 3 {
                dead += p * 9.0 / 20.0;
            } else {
                next[s + 1] += p * 9.0 / 20.0;
            }
            // 1/20 wakes: leaves the chain.
        }
        alive = next;
    }
    // A 20 can kill at every test and a 1 can wake at every test: strictly between 0 and 1.
    Chance::between(
        dead,
        alive.iter().sum::<f64>() + (1.0 - dead - alive.iter().sum::<f64>()).max(0.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{parse, ScriptedSource};

    #[test]
    fn success_chances_clamp_and_match_enumeration() {
        for target in -3..=24 {
            for blind in [Blind::Neither, Blind::Me, Blind::Enemy] {
                let mut wins = 0;
                let mut total = 0;
                for a in 1..=20u32 {
                    for b in 1..=20u32 {
                        let r = roll_test(target, blind, &mut ScriptedSource::new(vec![a, b]));
                        wins += u32::from(r.success);
                        total += 1;
                    }
                }
                let exact = f64::from(wins) / f64::from(total);
                assert!(
                    (success_chance(target, blind).p() - exact).abs() < 1e-12,
                    "target {target} {blind:?}"
                );
            }
        }
        assert_eq!(success_chance(25, Blind::Neither), Chance::Certain);
        assert_eq!(success_chance(-2, Blind::Neither), Chance::Impossible);
        assert_eq!(success_chance(20, Blind::Me), Chance::Certain);
        assert_eq!(success_chance(0, Blind::Enemy), Chance::Impossible);
        assert!(!success_chance(19, Blind::Me).is_certain());
        assert!((success_chance(10, Blind::Neither).p() - 0.5).abs() < 1e-15);
    }

    #[test]
    fn blind_keeps_the_worse_or_the_better() {
        let r = roll_test(10, Blind::Me, &mut ScriptedSource::new(vec![4, 15]));
        assert_eq!((r.kept, r.success), (15, false));
        let r = roll_test(10, Blind::Enemy, &mut ScriptedSource::new(vec![4, 15]));
        assert_eq!((r.kept, r.success), (4, true));
    }

    #[test]
    fn damage_after_armor_equals_enumeration() {
        let weapon = parse("1d8").unwrap();
        let armor = parse("1d4").unwrap();
        for advantage in [false, true] {
            let d = damage_distribution(&weapon, advantage, Some(&armor)).unwrap();
            let mut expect = std::collections::BTreeMap::new();
            let extra: Vec<i64> = if advantage {
                (1..=4).collect()
            } else {
                vec![0]
            };
            let n = (8 * 4 * extra.len()) as f64;
            for w in 1..=8i64 {
                for a in 1..=4i64 {
                    for &x in &extra {
                        *expect.entry((w + x - a).max(0)).or_insert(0.0) += 1.0 / n;
                    }
                }
            }
            assert!((d.total() - 1.0).abs() < 1e-12);
            for (&v, &p) in &expect {
                assert!((d.p(v) - p).abs() < 1e-12, "adv {advantage}: P({v})");
            }
            assert_eq!(d.min(), 0);
        }
        let d = damage_distribution(&parse("1d6").unwrap(), false, None).unwrap();
        assert!(
            (d.p_at_least(5) - 2.0 / 6.0).abs() < 1e-12,
            "no armor: the weapon alone"
        );
        // Armor that always stops everything.
        let d = damage_distribution(&parse("1d4").unwrap(), false, Some(&parse("10").unwrap()))
            .unwrap();
        assert_eq!((d.min(), d.max(), d.p(0)), (0, 0, 1.0));
    }

    #[test]
    fn death_tests() {
        let cases = [
            (1, DeathOutcome::Wakes(3)),
            (7, DeathOutcome::Nothing),
            (15, DeathOutcome::Closer { steps: 1 }),
            (20, DeathOutcome::Dies),
        ];
        for (face, outcome) in cases {
            assert_eq!(
                roll_death_test(0, &mut ScriptedSource::new(vec![face, 3])).1,
                outcome,
                "{face}"
            );
        }
        assert_eq!(
            roll_death_test(2, &mut ScriptedSource::new(vec![11])).1,
            DeathOutcome::Dies,
            "the third 11–19 kills"
        );
    }

    /// The Markov chain against every sequence of up to three d20s, from every step count.
    #[test]
    fn death_chances_equal_enumeration() {
        for steps in 0..3u32 {
            for tests in 1..=3u32 {
                let mut dead = 0u32;
                let total = 20u32.pow(tests);
                for code in 0..total {
                    let (mut s, mut c) = (steps, code);
                    for _ in 0..tests {
                        let face = c % 20 + 1;
                        c /= 20;
                        match roll_death_test(s, &mut ScriptedSource::new(vec![face, 1])).1 {
                            DeathOutcome::Dies => {
                                dead += 1;
                                break;
                            }
                            DeathOutcome::Wakes(_) => break,
                            DeathOutcome::Closer { steps } => s = steps,
                            DeathOutcome::Nothing => {}
                        }
                    }
                }
                let exact = f64::from(dead) / f64::from(total);
                assert!(
                    (death_chance_within(steps, tests).p() - exact).abs() < 1e-12,
                    "steps {steps}, {tests} tests"
                );
            }
        }
        assert!((death_chance_within(0, 1).p() - 0.05).abs() < 1e-15);
        assert!((death_chance_within(2, 1).p() - 0.5).abs() < 1e-15);
        // Three steps counted and alive (typed on a sheet): the next step kills, as both the
        // sheet's roll and the fight's do (found by tests/sequences/odds.rs).
        assert!((death_chance_within(3, 1).p() - 0.5).abs() < 1e-15);
        assert_eq!(death_chance_within(0, 0), Chance::Impossible);
    }
}
