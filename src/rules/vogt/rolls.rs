//! Bo Vogt's rolls with exact odds: ability checks (with advantage or disadvantage), contests,
//! damage with critical dice (a die at its maximum adds another of its size, capped like the
//! dice core's explosions) through resistance and vulnerability, the death and dismemberment
//! table, and who acts first from the declared action dice.

use super::ladder::Dice;
pub use crate::rules::dice::{best_of_two, map_values, Edge};
use crate::rules::dice::{parse, Chance, DiceSource, Distribution, Expr, TermKind, TooLarge};

/// An ability check: the ability's dice plus bonuses, once or best / worst of two.
pub fn check_dist(dice: Dice, bonus: i32, edge: Edge) -> Distribution {
    let one = dice.dist().shift(i64::from(bonus));
    match edge {
        Edge::Normal => one,
        Edge::Advantage => best_of_two(&one, true),
        Edge::Disadvantage => best_of_two(&one, false),
    }
}

/// A check as rolled: each set of dice, and the kept total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRoll {
    pub sets: Vec<Vec<u32>>,
    pub totals: Vec<i64>,
    pub total: i64,
}

pub fn roll_check<S: DiceSource + ?Sized>(
    dice: Dice,
    bonus: i32,
    edge: Edge,
    src: &mut S,
) -> CheckRoll {
    let n = if edge == Edge::Normal { 1 } else { 2 };
    let sets: Vec<Vec<u32>> = (0..n).map(|_| dice.roll(src)).collect();
    let totals: Vec<i64> = sets
        .iter()
        .map(|s| s.iter().map(|&f| i64::from(f)).sum::<i64>() + i64::from(bonus))
        .collect();
    let total = match edge {
        Edge::Disadvantage => totals.iter().copied().min(),
        _ => totals.iter().copied().max(),
    }
    .unwrap_or(0);
    CheckRoll {
        sets,
        totals,
        total,
    }
}

/// A weapon's damage: its dice with critical dice (each pool explodes), plus STR and any
/// modifier typed in. Errors when the text is not dice notation.
pub fn damage_expr(dice: &str, plus: i32) -> Option<Expr> {
    let mut e = parse(&format!("{}{plus:+}", dice.trim())).ok()?;
    for t in &mut e.terms {
        if let TermKind::Dice(p) = &mut t.kind {
            p.explode = p.sides >= 2;
        }
    }
    Some(e)
}

/// A damage roll's dice for people: each die's faces, a critical chain marked ("6+3 (critical), 2").
pub fn show_dice(out: &crate::rules::dice::RollOutcome) -> String {
    out.dice()
        .map(|d| {
            let f: Vec<String> = d.faces.iter().map(u32::to_string).collect();
            if d.exploded() {
                format!("{} (critical)", f.join("+"))
            } else {
                f.join("+")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// How a target takes damage of a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Takes {
    pub resists: bool,
    pub vulnerable: bool,
}

impl Takes {
    /// Never below 0; resistance halves (rounded down), vulnerability doubles, both cancel.
    pub fn apply(self, rolled: i64) -> i64 {
        let d = rolled.max(0);
        match (self.resists, self.vulnerable) {
            (true, false) => d / 2,
            (false, true) => d * 2,
            _ => d,
        }
    }

    /// How the damage line names what [`Takes::apply`] does: the words follow the figures.
    pub fn text(self) -> &'static str {
        match (self.resists, self.vulnerable) {
            (true, false) => " · resisted: halved, rounded down",
            (false, true) => " · vulnerable: doubled",
            (true, true) => " · resisted and vulnerable: they cancel, taken as rolled",
            (false, false) => "",
        }
    }
}

/// The damage a target takes from one roll of `expr`.
pub fn damage_dist(expr: &Expr, takes: Takes) -> Result<Distribution, TooLarge> {
    let rolled = Distribution::of_expr(expr)?;
    Ok(map_values(&rolled, |v| takes.apply(v)))
}

/// The chance one roll takes a target with `hp` to 0 or below, so adding a level of exhaustion:
/// at 0 or below already, the chance it deals at least 1.
pub fn drop_chance(taken: &Distribution, hp: i32) -> Chance {
    // At 0 or less already, what a hit does is add a level: it takes at least 1 damage.
    taken.at_least(i64::from(hp.max(1)))
}

/// The chance the death and dismemberment roll (d8) kills: 6, 7 or 8.
pub fn dismemberment_death() -> Chance {
    Chance::ratio(3, 8)
}

/// One combatant's side of the initiative: the dice it rolls, and its DEX for ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitSide {
    pub dice: Dice,
    pub dex: i32,
}

/// The order keys of a rolled initiative, lowest first: the roll, then the higher DEX (as −DEX),
/// then the smaller die: the smaller highest total, and at an equal one fewer dice, as
/// highest × 100 + count. That is the ladder's order (1d12 before 2d6, 2d12 before 3d8), and it
/// places the pools off the ladder too (2d4 before 1d10, 3d4 before 2d8).
pub fn init_keys(roll: i64, side: InitSide) -> Vec<i32> {
    let count = side.dice.count.min(99);
    vec![
        roll.clamp(-1_000_000, 1_000_000) as i32,
        -side.dex,
        (count * side.dice.sides.min(1000) * 100 + count) as i32,
    ]
}

/// Which tie-break rule put `a` before `b` (both keys from [`init_keys`]).
pub fn tie_rule(a: &[i32], b: &[i32]) -> &'static str {
    match (
        a.first() == b.first(),
        a.get(1) == b.get(1),
        a.get(2) == b.get(2),
    ) {
        (false, _, _) => "lower roll",
        (true, false, _) => "tie: higher DEX",
        (true, true, false) => "tie: smaller die",
        _ => "tie: the GM decides",
    }
}

/// Before the rolls: the chances that `a` acts before `b`, that the GM must decide, and that
/// `b` acts first, from the dice both declared. Exact: the two totals' distributions compared.
pub fn before(a: InitSide, b: InitSide) -> (Chance, Chance, Chance) {
    let (x, y) = (a.dice.dist(), b.dice.dist());
    let (hi, tie, lo) = x.versus(&y); // x > y, x = y, x < y
    let ka = init_keys(0, a);
    let kb = init_keys(0, b);
    // On an equal roll the other keys decide, the same way for every value.
    let tie_order = (ka[1], ka[2]).cmp(&(kb[1], kb[2]));
    match tie_order {
        // Every tie goes one way: the two chances left are complements, each exact.
        std::cmp::Ordering::Less => (hi.complement(), Chance::Impossible, hi),
        std::cmp::Ordering::Greater => (lo, Chance::Impossible, lo.complement()),
        std::cmp::Ordering::Equal => (lo, tie, hi),
    }
}

/// The initiative dice of an unconscious combatant.
pub const UNCONSCIOUS_INIT: Dice = Dice {
    count: 10,
    sides: 10,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{roll, ScriptedSource};

    #[test]
    fn damage_words_follow_the_figures_when_both_are_ticked() {
        let both = Takes {
            resists: true,
            vulnerable: true,
        };
        assert_eq!(both.apply(7), 7);
        assert!(both.text().contains("cancel"), "{}", both.text());
        assert!(!both.text().contains("halved"));
        let r = Takes {
            resists: true,
            vulnerable: false,
        };
        assert_eq!((r.apply(7), r.text().contains("halved")), (3, true));
        let v = Takes {
            resists: false,
            vulnerable: true,
        };
        assert_eq!((v.apply(7), v.text().contains("doubled")), (14, true));
        assert_eq!(Takes::default().text(), "");
    }

    /// Every outcome of `dice` with its weight (brute force).
    fn outcomes(dice: Dice) -> Vec<i64> {
        let mut out = vec![0i64];
        for _ in 0..dice.count {
            out = out
                .iter()
                .flat_map(|&t| (1..=dice.sides as i64).map(move |f| t + f))
                .collect();
        }
        out
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    #[test]
    fn checks_with_advantage_and_disadvantage_match_enumeration() {
        for dice in [
            Dice::new(1, 4),
            Dice::new(1, 6),
            Dice::new(2, 6),
            Dice::new(3, 4),
        ] {
            for bonus in [-2, 0, 3] {
                let all = outcomes(dice);
                let n = (all.len() * all.len()) as f64;
                for (edge, pick) in [
                    (Edge::Advantage, i64::max as fn(i64, i64) -> i64),
                    (Edge::Disadvantage, i64::min),
                ] {
                    let d = check_dist(dice, bonus, edge);
                    close(d.total(), 1.0);
                    for t in -5..30 {
                        let hits = all
                            .iter()
                            .flat_map(|&a| all.iter().map(move |&b| pick(a, b)))
                            .filter(|&v| v + i64::from(bonus) >= t)
                            .count() as f64;
                        close(d.p_at_least(t), hits / n);
                    }
                }
                let plain = check_dist(dice, bonus, Edge::Normal);
                for t in -5..30 {
                    let hits = all.iter().filter(|&&v| v + i64::from(bonus) >= t).count();
                    close(plain.p_at_least(t), hits as f64 / all.len() as f64);
                }
            }
        }
        // No die: a check is its bonus.
        assert_eq!(check_dist(Dice::NONE, 2, Edge::Advantage).p(2), 1.0);
    }

    #[test]
    fn rolled_checks_keep_the_better_or_worse() {
        let mut src = ScriptedSource::new([2, 5]);
        let r = roll_check(Dice::new(1, 6), 1, Edge::Advantage, &mut src);
        assert_eq!((r.totals.clone(), r.total), (vec![3, 6], 6));
        let mut src = ScriptedSource::new([2, 5]);
        assert_eq!(
            roll_check(Dice::new(1, 6), 1, Edge::Disadvantage, &mut src).total,
            3
        );
    }

    #[test]
    fn contests_win_tie_lose_match_enumeration_and_sum_to_one() {
        let (a, b) = (Dice::new(1, 8), Dice::new(2, 4));
        let (w, t, l) = a.dist().versus(&b.dist());
        let (xa, xb) = (outcomes(a), outcomes(b));
        let n = (xa.len() * xb.len()) as f64;
        let count = |f: &dyn Fn(i64, i64) -> bool| {
            xa.iter()
                .flat_map(|&x| xb.iter().map(move |&y| (x, y)))
                .filter(|&(x, y)| f(x, y))
                .count() as f64
                / n
        };
        close(w.p(), count(&|x, y| x > y));
        close(t.p(), count(&|x, y| x == y));
        close(l.p(), count(&|x, y| x < y));
        close(w.p() + t.p() + l.p(), 1.0);
    }

    /// Brute force of a capped critical chain for one die: faces in a row at the top.
    fn crit_outcomes(sides: i64, depth: u32) -> Vec<(i64, f64)> {
        let mut out = Vec::new();
        for f in 1..=sides {
            let p = 1.0 / sides as f64;
            if f == sides && depth > 0 {
                for (v, q) in crit_outcomes(sides, depth - 1) {
                    out.push((f + v, p * q));
                }
            } else {
                out.push((f, p));
            }
        }
        out
    }

    #[test]
    fn damage_with_criticals_resistance_and_vulnerability_matches_brute_force() {
        let e = damage_expr("1d4", 2).unwrap();
        let one = crit_outcomes(4, crate::rules::dice::EXPLODE_CAP);
        for takes in [
            Takes::default(),
            Takes {
                resists: true,
                vulnerable: false,
            },
            Takes {
                resists: false,
                vulnerable: true,
            },
            Takes {
                resists: true,
                vulnerable: true,
            },
        ] {
            let d = damage_dist(&e, takes).unwrap();
            close(d.total(), 1.0);
            for v in 0..40 {
                let want: f64 = one
                    .iter()
                    .filter(|(x, _)| takes.apply(x + 2) == v)
                    .map(|(_, p)| p)
                    .sum();
                close(d.p(v), want);
            }
        }
        // 1d4+2 resisted: 3 → 1, 4 → 2, 5 → 2, then a critical 4+1+2 = 7 → 3.
        let d = damage_dist(
            &e,
            Takes {
                resists: true,
                vulnerable: false,
            },
        )
        .unwrap();
        close(d.p(1), 0.25);
        close(d.p(2), 0.5);
        // Two dice: each may crit on its own (brute force over two chains).
        let two = damage_expr("2d3", 0).unwrap();
        let d = damage_dist(&two, Takes::default()).unwrap();
        let c = crit_outcomes(3, crate::rules::dice::EXPLODE_CAP);
        for v in 2..30 {
            let want: f64 = c
                .iter()
                .flat_map(|a| c.iter().map(move |b| (a.0 + b.0, a.1 * b.1)))
                .filter(|x| x.0 == v)
                .map(|x| x.1)
                .sum();
            close(d.p(v), want);
        }
    }

    #[test]
    fn a_rolled_critical_adds_a_die_of_the_same_size() {
        let e = damage_expr("1d6", 1).unwrap();
        let mut src = ScriptedSource::new([6, 6, 2]);
        let out = roll(&e, &mut src);
        assert_eq!(out.total, 15);
        assert_eq!(out.dice().next().unwrap().faces, vec![6, 6, 2]);
        // Negative totals deal 0.
        assert_eq!(Takes::default().apply(-3), 0);
    }

    #[test]
    fn drop_chance_is_the_upper_tail() {
        let d = damage_dist(&damage_expr("1d4", 0).unwrap(), Takes::default()).unwrap();
        close(drop_chance(&d, 4).p(), 0.25);
        assert_eq!(drop_chance(&d, 1), Chance::Certain);
        assert_eq!(drop_chance(&d, 0), Chance::Certain);
        close(dismemberment_death().p(), 0.375);
    }

    /// N9: at 0 HP or less a hit adds a level when it deals at least 1: a 1d4 slash (STR 0)
    /// at a target that resists slash deals ⌊roll/2⌋, at least 1 with 3/4 (not certain).
    #[test]
    fn vogt_6_n9_a_resisted_hit_at_zero_hp_adds_a_level_three_in_four() {
        let resisted = Takes {
            resists: true,
            vulnerable: false,
        };
        let d = damage_dist(&damage_expr("1d4", 0).unwrap(), resisted).unwrap();
        for hp in [0, -3] {
            let c = drop_chance(&d, hp);
            assert_ne!(c, Chance::Certain);
            close(c.p(), 3.0 / 4.0);
            close(c.q(), 1.0 / 4.0);
        }
    }

    /// #3: "the smaller die" compares any pool, on the ladder or off it: the smaller highest
    /// total first (2d4 before 1d10, 3d4 before 2d8), fewer dice at an equal one (1d12 before
    /// 2d6, as the ladder has it). Checked against an enumeration that orders ties by that rule
    /// written out on its own, over every pair of small pools.
    #[test]
    fn vogt_r3_the_smaller_die_compares_pools_off_the_ladder() {
        let side = |count, sides| InitSide {
            dice: Dice::new(count, sides),
            dex: 2,
        };
        // The review's cases, exactly.
        close(before(side(2, 4), side(1, 10)).0.p(), 3.0 / 5.0);
        close(before(side(3, 4), side(2, 8)).0.p(), 711.0 / 1024.0);
        close(before(side(1, 12), side(2, 6)).0.p(), 7.0 / 12.0);
        let smaller = |a: InitSide, b: InitSide| {
            let (ma, mb) = (a.dice.count * a.dice.sides, b.dice.count * b.dice.sides);
            (ma, a.dice.count).cmp(&(mb, b.dice.count))
        };
        let mut pools = Vec::new();
        for count in 1..=3 {
            for sides in [2, 4, 6, 8, 10, 12] {
                pools.push(side(count, sides));
            }
        }
        for &a in &pools {
            for &b in &pools {
                before_matches(a, b, |x, y| x.cmp(&y).then(smaller(a, b)));
            }
        }
    }

    /// `before(a, b)` against every pair of rolls ordered by `order` (lower first), and the
    /// three chances summing to 1.
    fn before_matches(a: InitSide, b: InitSide, order: impl Fn(i64, i64) -> std::cmp::Ordering) {
        let (first, gm, second) = before(a, b);
        let (xa, xb) = (outcomes(a.dice), outcomes(b.dice));
        let n = (xa.len() * xb.len()) as f64;
        let (mut f, mut g, mut s) = (0.0, 0.0, 0.0);
        for &x in &xa {
            for &y in &xb {
                match order(x, y) {
                    std::cmp::Ordering::Less => f += 1.0,
                    std::cmp::Ordering::Equal => g += 1.0,
                    std::cmp::Ordering::Greater => s += 1.0,
                }
            }
        }
        close(first.p(), f / n);
        close(gm.p(), g / n);
        close(second.p(), s / n);
        close(first.p() + gm.p() + second.p(), 1.0);
    }

    #[test]
    fn before_you_chances_match_enumeration_with_every_tie_break() {
        let sides = [
            InitSide {
                dice: Dice::new(1, 4),
                dex: 2,
            },
            InitSide {
                dice: Dice::new(1, 6),
                dex: 2,
            },
            InitSide {
                dice: Dice::new(1, 6),
                dex: 3,
            },
            InitSide {
                dice: Dice::new(2, 4),
                dex: 2,
            },
            InitSide {
                dice: Dice::new(1, 6),
                dex: 2,
            },
        ];
        for a in sides {
            for b in sides {
                before_matches(a, b, |x, y| init_keys(x, a).cmp(&init_keys(y, b)));
            }
        }
        // 1d4 against 1d6 at equal DEX: ties go to the smaller die.
        let (f, g, _) = before(sides[0], sides[1]);
        close(f.p(), 18.0 / 24.0); // 14 lower rolls + 4 ties
        assert_eq!(g, Chance::Impossible);
        // Higher DEX wins ties before die size.
        assert_eq!(
            tie_rule(&init_keys(3, sides[2]), &init_keys(3, sides[1])),
            "tie: higher DEX"
        );
        assert_eq!(
            tie_rule(&init_keys(3, sides[0]), &init_keys(3, sides[1])),
            "tie: smaller die"
        );
        assert_eq!(
            tie_rule(&init_keys(3, sides[1]), &init_keys(3, sides[4])),
            "tie: the GM decides"
        );
        assert_eq!(
            tie_rule(&init_keys(2, sides[1]), &init_keys(3, sides[4])),
            "lower roll"
        );
    }
}
