//! Energy / Aura rolls with exact odds: exploding defence rolls with advantage on every die,
//! melee and ranged attacks (critical, exposure, armor coverage) with the damage after armor,
//! resistance and weakness, combat maneuvers, non-lethal damage, the chance roll, initiative
//! between two combatants, and the death roll and death save tables with the chance of dying
//! before being stabilized.

use crate::rules::dice::{best_of_two, map_values, Chance, Distribution, Edge, EXPLODE_CAP};

/// The chance of an event from its mass and its complement's, both summed from outcomes
/// (a side with no outcome is exactly 0.0 here: the masses are sums of positive products).
pub fn chance(p: f64, q: f64) -> Chance {
    Chance::from_masses(p, q, p > 0.0, q > 0.0)
}

/// The probability of each face 1..=sides of one roll with an edge (advantage keeps the higher
/// of two dice: P(k) = (2k − 1) / s²).
pub fn faces(sides: u32, edge: Edge) -> Vec<f64> {
    let s = f64::from(sides);
    (1..=sides)
        .map(|k| {
            let k = f64::from(k);
            match edge {
                Edge::Normal => 1.0 / s,
                Edge::Advantage => (2.0 * k - 1.0) / (s * s),
                Edge::Disadvantage => (2.0 * (s - k) + 1.0) / (s * s),
            }
        })
        .collect()
}

/// One exploding die whose every roll (explosions included) has `edge` (SPEC decision 14),
/// stopping after `cap` explosions: the last roll at the cap counts whatever it shows.
pub fn exploding_with(sides: u32, edge: Edge, cap: u32) -> Distribution {
    let f = faces(sides, edge);
    let s = sides as usize;
    let cap = cap as usize;
    let mut probs = vec![0.0; s * (cap + 1)];
    let mut chain = 1.0; // probability of k top faces in a row
    for k in 0..=cap {
        let last = if k == cap { s } else { s - 1 };
        for r in 1..=last {
            probs[k * s + r - 1] += chain * f[r - 1];
        }
        chain *= f[s - 1];
    }
    Distribution::from_probs(1, probs)
}

/// A defence roll: 1d10* (evasion, fortitude, will) or 1d4* (ranged evasion) + the defence.
pub fn defence_roll(sides: u32, edge: Edge, defence: i32) -> Distribution {
    exploding_with(sides, edge, EXPLODE_CAP).shift(i64::from(defence))
}

/// The mass the explosion cap leaves out of a defence roll: the chance of `cap + 1` top faces
/// in a row.
pub fn cut_off(sides: u32, edge: Edge) -> f64 {
    faces(sides, edge)[sides as usize - 1].powi(EXPLODE_CAP as i32 + 1)
}

/// A bare d20 (combat roll, hit roll) with an edge.
pub fn d20(edge: Edge) -> Vec<f64> {
    faces(20, edge)
}

/// What the defender brings to one attack.
#[derive(Debug, Clone, PartialEq)]
pub struct Defender {
    /// The defence roll's distribution (evasion for melee, ranged evasion for a shot).
    pub roll: Distribution,
    /// Defending: wins ties.
    pub wins_ties: bool,
    /// Armor coverage against this attack (melee AC or ranged AC); 0: no armor.
    pub coverage: i32,
    pub ar: i32,
}

/// The outcome of one attack, each a probability; `hit_*` exclude critical hits.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Outcome {
    pub miss: f64,
    /// Hit, and the roll was below the coverage: the armor takes its AR off.
    pub hit_armor: f64,
    /// Hit past the armor.
    pub hit_clean: f64,
    /// Critical hit on a natural 20.
    pub crit20: f64,
    /// Critical hit below 20 (Precise).
    pub crit_low: f64,
    /// The attacker is exposed (a roll of 1–3).
    pub exposed: f64,
}

impl Outcome {
    pub fn hit(&self) -> f64 {
        self.hit_armor + self.hit_clean + self.crit()
    }
    pub fn crit(&self) -> f64 {
        self.crit20 + self.crit_low
    }
    pub fn total(&self) -> f64 {
        self.miss + self.hit()
    }
}

/// How the d20 roll `face` fares when the attack would otherwise hit with probability `p_hit`.
fn add_face(o: &mut Outcome, face: i32, p: f64, crit_from: i32, p_hit: f64, coverage: i32) {
    if face <= 3 {
        o.exposed += p;
    }
    if face == 1 {
        o.miss += p;
    } else if face >= crit_from {
        if face == 20 {
            o.crit20 += p;
        } else {
            o.crit_low += p;
        }
    } else {
        let hit = p * p_hit;
        if face < coverage {
            o.hit_armor += hit;
        } else {
            o.hit_clean += hit;
        }
        o.miss += p * (1.0 - p_hit);
    }
}

/// The lowest natural roll that crits: 20, or lower with Precise n.
pub fn crit_from(precise: i32) -> i32 {
    20 - precise.clamp(0, 18)
}

/// A melee attack: the combat roll (d20, with `edge`), the hit when AV ≥ the defence roll (AV
/// must beat it when the defender wins ties).
pub fn melee(av: i32, precise: i32, edge: Edge, d: &Defender) -> Outcome {
    let limit = i64::from(av) - i64::from(d.wins_ties);
    let p_hit = d.roll.p_at_most(limit);
    let mut o = Outcome::default();
    for (i, &p) in d20(edge).iter().enumerate() {
        add_face(
            &mut o,
            i as i32 + 1,
            p,
            crit_from(precise),
            p_hit,
            d.coverage,
        );
    }
    o
}

/// An attack on a target that rolls no defence (helpless; unconscious against melee): every
/// d20 hits, a natural 1 included (see `combat`'s notes); the face still decides a critical,
/// the armor coverage and the attacker's exposure on 1–3.
pub fn automatic(precise: i32, edge: Edge, coverage: i32) -> Outcome {
    let mut o = Outcome::default();
    for (i, &p) in d20(edge).iter().enumerate() {
        let face = i as i32 + 1;
        if face <= 3 {
            o.exposed += p;
        }
        if face != 1 && face >= crit_from(precise) {
            if face == 20 {
                o.crit20 += p;
            } else {
                o.crit_low += p;
            }
        } else if face < coverage {
            o.hit_armor += p;
        } else {
            o.hit_clean += p;
        }
    }
    o
}

/// A ranged attack: the hit roll (d20, with `edge`) hits when it is at least the miss chance,
/// `base` (miss chance modifier + size + movement) + the target's ranged evasion roll.
pub fn ranged(base: i32, precise: i32, edge: Edge, d: &Defender) -> Outcome {
    let mut o = Outcome::default();
    for (i, &p) in d20(edge).iter().enumerate() {
        let face = i as i32 + 1;
        // Hit iff face ≥ base + R (face > base + R when the defender wins ties).
        let limit = i64::from(face) - i64::from(base) - i64::from(d.wins_ties);
        let p_hit = d.roll.p_at_most(limit);
        add_face(&mut o, face, p, crit_from(precise), p_hit, d.coverage);
    }
    o
}

/// Damage multiplier of the target against this attack's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Takes {
    #[default]
    Normal,
    /// Resistance: halved, rounded down.
    Resists,
    /// Weakness: doubled.
    Weak,
}

impl Takes {
    /// From the target's resistance and weakness to the type: both at once cancel.
    pub fn from(resists: bool, weak: bool) -> Takes {
        match (resists, weak) {
            (true, false) => Takes::Resists,
            (false, true) => Takes::Weak,
            _ => Takes::Normal,
        }
    }
}

/// What one hit deals: the rolled damage (dice + additions), less the AR when it hit the armor
/// (never below 0), then the halvings (no proficiency, an improvised throw), then resistance or
/// weakness: every multiplier after armor (the seed's clarification), halves rounded down.
/// Decision: the multipliers apply one after the other, each rounding down (a halved 7 is 3,
/// doubled by a weakness 6), as a table does it by hand.
pub fn dealt(rolled: i64, ar: i32, armor: bool, halvings: u32, takes: Takes) -> i64 {
    let mut v = rolled;
    if armor {
        v -= i64::from(ar);
    }
    v = v.max(0);
    // SPEC decision 15: the multipliers add as their differences from ×1 (a halving −½, a
    // weakness +1, a resistance −½), the factor never below 0, applied once, rounded down.
    // In halves: 2 is ×1.
    let halves = 2 - i64::from(halvings)
        + match takes {
            Takes::Normal => 0,
            Takes::Resists => -1,
            Takes::Weak => 2,
        };
    (v.saturating_mul(halves.max(0))).div_euclid(2)
}

/// One attack's damage: how it is reduced on each kind of hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DamageRule {
    pub ar: i32,
    /// Halvings on every hit (a weapon used without proficiency).
    pub halvings: u32,
    /// A throw of a weapon without the Thrown property: half unless a natural 20.
    pub improvised_throw: bool,
    pub takes: Takes,
}

/// The damage distribution given a hit, mixing the kinds of hit by their chances, and the
/// chance the attack (hit or not) takes a target with `aura` to 0.
pub fn damage_given_hit(
    rolled: &Distribution,
    o: &Outcome,
    rule: DamageRule,
    aura: i32,
) -> (Distribution, Chance) {
    let h = o.hit();
    if h <= 0.0 {
        return (Distribution::point(0), Chance::Impossible);
    }
    let throw = u32::from(rule.improvised_throw);
    let kinds = [
        (o.hit_armor, true, rule.halvings + throw),
        (o.hit_clean, false, rule.halvings + throw),
        (o.crit_low, false, rule.halvings + throw),
        (o.crit20, false, rule.halvings),
    ];
    // Damage dealt is never below 0.
    let hi = kinds
        .iter()
        .map(|&(_, armor, halv)| dealt(rolled.max(), rule.ar, armor, halv, rule.takes))
        .max()
        .unwrap_or(0)
        .max(0);
    let mut probs = vec![0.0; (hi + 1) as usize];
    let (mut drop, mut stay) = (0.0, o.miss);
    for (w, armor, halv) in kinds {
        if w <= 0.0 {
            continue;
        }
        let d = map_values(rolled, |v| dealt(v, rule.ar, armor, halv, rule.takes));
        for (v, p) in d.iter() {
            probs[v as usize] += w * p / h;
            if aura > 0 && v >= i64::from(aura) {
                drop += w * p;
            } else {
                stay += w * p;
            }
        }
    }
    let dist = Distribution::from_probs(0, probs);
    let c = if aura <= 0 {
        Chance::Certain
    } else {
        chance(drop, stay)
    };
    (dist, c)
}

/// A combat maneuver (trip, disarm, push: `fortitude` is the target's fortitude roll; restrain:
/// `None`): a melee attack at AV − 5, then the target's fortitude roll must beat the full AV.
/// Returns (the attack hits, the maneuver works). Against a target that is not exposed, the
/// target has advantage on its first defence roll (the caller passes `d.roll` with it). With
/// `auto_hit` the target rolls no evasion ([`automatic`]); its fortitude roll still counts.
pub fn maneuver(
    av: i32,
    precise: i32,
    edge: Edge,
    d: &Defender,
    fortitude: Option<&Distribution>,
    auto_hit: bool,
) -> (Chance, Chance) {
    let o = if auto_hit {
        automatic(precise, edge, 0)
    } else {
        melee(av - 5, precise, edge, d)
    };
    let hit = chance(o.hit(), o.miss);
    let works = match fortitude {
        None => hit,
        Some(f) => {
            // The target's save fails when its fortitude roll is not higher than the AV.
            // A defending target wins the tie.
            let fails = f.p_at_most(i64::from(av) - i64::from(d.wins_ties));
            let resists = 1.0 - fails;
            let w = o.hit() * fails;
            if fails <= 0.0 {
                Chance::Impossible
            } else {
                chance(w, o.miss + o.hit() * resists.max(0.0))
            }
        }
    };
    (hit, works)
}

/// The lowest chance roll that makes the damage non-lethal: blunt melee 5, other melee 10,
/// ranged or thrown 15, each −3 AV taken widening it by 5.
pub fn non_lethal_from(kind: NonLethal, widen: u32) -> i32 {
    let base = match kind {
        NonLethal::Unarmed => return 1,
        NonLethal::Blunt => 5,
        NonLethal::Melee => 10,
        NonLethal::Ranged => 15,
    };
    (base - 5 * widen.min(4) as i32).max(1)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonLethal {
    Unarmed,
    Blunt,
    Melee,
    Ranged,
}

/// The chance a d20 shows at least `dc` (the chance roll: DC 10 unless told).
pub fn d20_at_least(dc: i32) -> Chance {
    let k = (21 - dc.clamp(1, 21)) as u64;
    Chance::ratio(k, 20)
}

/// The initiative roll of one combatant: d20 + its bonus.
pub fn initiative(bonus: i32) -> Distribution {
    Distribution::die(20).shift(i64::from(bonus))
}

/// A challenger's initiative against another's: (wins, loses: a tie loses).
pub fn initiative_contest(challenger: i32, other: i32) -> (Chance, Chance) {
    let (w, _, _) = initiative(challenger).versus(&initiative(other));
    (w, w.complement())
}

/// What a death roll (d20, taken with 0 aura when damaged) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeathRoll {
    /// 20: nothing.
    Scratch,
    /// 15–19: exhausted until the end of the next round.
    Winded,
    /// 10–14: exhausted until the next short rest.
    Injured,
    /// 5–9: injured, and bleeding out (a death save every round).
    Bleeding,
    /// 2–4: bleeding out and unconscious.
    Down,
    /// 1: dead.
    Dead,
}

pub fn death_roll(d20: u32) -> DeathRoll {
    on_table(&DeathRoll::TABLE, d20)
}

/// The row of a d20 table a face falls in (above 20 as 20, below 1 as 1).
fn on_table<T: Copy>(table: &[(u32, u32, T)], d20: u32) -> T {
    let f = d20.clamp(1, 20);
    table
        .iter()
        .find(|r| (r.0..=r.1).contains(&f))
        .map_or(table[table.len() - 1].2, |r| r.2)
}

impl DeathRoll {
    /// The table, top face first: (lowest face, highest face, outcome).
    pub const TABLE: [(u32, u32, DeathRoll); 6] = [
        (20, 20, DeathRoll::Scratch),
        (15, 19, DeathRoll::Winded),
        (10, 14, DeathRoll::Injured),
        (5, 9, DeathRoll::Bleeding),
        (2, 4, DeathRoll::Down),
        (1, 1, DeathRoll::Dead),
    ];

    /// A word or two for the table.
    pub fn short(self) -> &'static str {
        match self {
            DeathRoll::Scratch => "nothing",
            DeathRoll::Winded => "winded",
            DeathRoll::Injured => "major injury",
            DeathRoll::Bleeding => "bleeding out",
            DeathRoll::Down => "bleeding and unconscious",
            DeathRoll::Dead => "dead",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            DeathRoll::Scratch => "just a scratch: nothing",
            DeathRoll::Winded => "winded: exhausted until the end of the next round",
            DeathRoll::Injured => "a major injury: exhausted until the next short rest",
            DeathRoll::Bleeding => "a major injury and bleeding out: a death save every round",
            DeathRoll::Down => "bleeding out and unconscious",
            DeathRoll::Dead => "dead",
        }
    }
}

/// What a death save (d20, at the start of each round while bleeding out) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeathSave {
    /// 20: stabilized.
    Stable,
    /// 5–19: still bleeding out.
    Bleeding,
    /// 2–4: falls unconscious (still bleeding out).
    Unconscious,
    /// 1: dies.
    Dead,
}

pub fn death_save(d20: u32) -> DeathSave {
    on_table(&DeathSave::TABLE, d20)
}

impl DeathSave {
    /// The table, top face first: (lowest face, highest face, outcome).
    pub const TABLE: [(u32, u32, DeathSave); 4] = [
        (20, 20, DeathSave::Stable),
        (5, 19, DeathSave::Bleeding),
        (2, 4, DeathSave::Unconscious),
        (1, 1, DeathSave::Dead),
    ];

    pub fn short(self) -> &'static str {
        match self {
            DeathSave::Stable => "stabilized",
            DeathSave::Bleeding => "still bleeding",
            DeathSave::Unconscious => "unconscious",
            DeathSave::Dead => "dead",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            DeathSave::Stable => "stabilized",
            DeathSave::Bleeding => "still bleeding out",
            DeathSave::Unconscious => "falls unconscious, still bleeding out",
            DeathSave::Dead => "dies",
        }
    }
}

/// Each row of a d20 table with its exact chance, counted face by face on the d20: the faces
/// whose outcome (by `of`) is the row's, out of 20.
pub fn d20_table_odds<T: PartialEq + Copy>(
    table: &[(u32, u32, T)],
    of: fn(u32) -> T,
) -> Vec<(u32, u32, T, Chance)> {
    table
        .iter()
        .map(|&(lo, hi, t)| {
            let faces = (1..=20u32).filter(|&f| of(f) == t).count() as u64;
            (lo, hi, t, Chance::ratio(faces, 20))
        })
        .collect()
}

/// The chance of dying before being stabilized, with no healing and no more damage: while
/// bleeding out each round's save kills on 1 and stabilizes on 20 (the other 18 faces go on),
/// so it is 1 / (1 + 1) = 1/2; a death roll kills on 1 (1/20) and starts the bleeding on 2–9
/// (8/20): 1/20 + 8/20 · 1/2 = 1/4. `bleeding` is the state now; `roll_due` says a death roll
/// comes first (the combatant was just damaged at 0 aura).
pub fn dying_chance(bleeding: bool, roll_due: bool) -> Chance {
    match (bleeding, roll_due) {
        (false, false) => Chance::Impossible,
        (true, false) => Chance::ratio(1, 2),
        // Bleeding already: the roll kills on 1, otherwise the bleeding goes on: 1/20 + 19/40.
        (true, true) => Chance::ratio(21, 40),
        (false, true) => Chance::ratio(1, 4),
    }
}

/// The chance a bleeding combatant has died within `rounds` death saves (no healing).
pub fn dead_within(rounds: u32) -> Chance {
    if rounds == 0 {
        return Chance::Impossible;
    }
    // Dies in round k: (18/20)^(k−1) · 1/20; summed: (1 − 0.9^n) / 2.
    let go_on = 0.9f64.powi(rounds as i32);
    chance((1.0 - go_on) / 2.0, (1.0 + go_on) / 2.0)
}

/// The distribution of the better (or worse) of two d20s, as a distribution.
pub fn d20_dist(edge: Edge) -> Distribution {
    let one = Distribution::die(20);
    match edge {
        Edge::Normal => one,
        Edge::Advantage => best_of_two(&one, true),
        Edge::Disadvantage => best_of_two(&one, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn death_tables_carry_each_outcomes_exact_chance() {
        let roll = d20_table_odds(&DeathRoll::TABLE, death_roll);
        let twentieths: Vec<f64> = roll.iter().map(|r| r.3.p() * 20.0).collect();
        // 20 → 5 %, 15–19 → 25 %, 10–14 → 25 %, 5–9 → 25 %, 2–4 → 15 %, 1 → 5 %.
        for (got, want) in twentieths.iter().zip([1.0, 5.0, 5.0, 5.0, 3.0, 1.0]) {
            assert!((got - want).abs() < 1e-12, "{twentieths:?}");
        }
        let save = d20_table_odds(&DeathSave::TABLE, death_save);
        let twentieths: Vec<f64> = save.iter().map(|r| r.3.p() * 20.0).collect();
        for (got, want) in twentieths.iter().zip([1.0, 15.0, 3.0, 1.0]) {
            assert!((got - want).abs() < 1e-12, "{twentieths:?}");
        }
        // The rows' ranges are the rules' own: every face falls in exactly one row, the one
        // whose outcome the rule gives, and the chances sum to 1.
        for f in 1..=20u32 {
            let rows: Vec<_> = roll.iter().filter(|r| (r.0..=r.1).contains(&f)).collect();
            assert_eq!(rows.len(), 1);
            assert_eq!(rows[0].2, death_roll(f));
            let rows: Vec<_> = save.iter().filter(|r| (r.0..=r.1).contains(&f)).collect();
            assert_eq!(rows.len(), 1);
            assert_eq!(rows[0].2, death_save(f));
        }
        for sum in [
            roll.iter().map(|r| r.3.p()).sum::<f64>(),
            save.iter().map(|r| r.3.p()).sum::<f64>(),
        ] {
            assert!((sum - 1.0).abs() < 1e-12);
        }
    }

    /// Every sequence of `cap + 1` rolls of (one die, or two kept by the edge), equally likely:
    /// the value is the exploding sum up to the first non-top roll.
    fn brute_exploding(sides: u32, edge: Edge, cap: u32) -> Vec<(i64, f64)> {
        let per: Vec<u32> = match edge {
            Edge::Normal => (1..=sides).collect(),
            _ => {
                let mut v = Vec::new();
                for a in 1..=sides {
                    for b in 1..=sides {
                        v.push(if edge == Edge::Advantage {
                            a.max(b)
                        } else {
                            a.min(b)
                        });
                    }
                }
                v
            }
        };
        let n = per.len();
        let rolls = cap as usize + 1;
        let total = (n as f64).powi(rolls as i32);
        let mut counts = std::collections::BTreeMap::<i64, f64>::new();
        let mut idx = vec![0usize; rolls];
        loop {
            let mut sum = 0i64;
            for (k, &i) in idx.iter().enumerate() {
                let f = per[i];
                sum += i64::from(f);
                if f != sides || k == rolls - 1 {
                    break;
                }
            }
            *counts.entry(sum).or_default() += 1.0 / total;
            // Next sequence.
            let mut k = 0;
            loop {
                if k == rolls {
                    return counts.into_iter().collect();
                }
                idx[k] += 1;
                if idx[k] < n {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }

    #[test]
    fn exploding_with_an_edge_matches_brute_force() {
        for (sides, cap) in [(4, 3), (10, 2), (6, 2)] {
            for edge in [Edge::Normal, Edge::Advantage, Edge::Disadvantage] {
                let d = exploding_with(sides, edge, cap);
                assert!(
                    (d.total() - 1.0).abs() < 1e-12,
                    "d{sides} {edge:?} sums to 1"
                );
                for (v, p) in brute_exploding(sides, edge, cap) {
                    assert!(
                        (d.p(v) - p).abs() < 1e-12,
                        "d{sides} {edge:?} cap {cap}: P({v})"
                    );
                }
            }
        }
    }

    #[test]
    fn the_plain_exploding_defence_equals_the_dice_core() {
        let core = Distribution::exploding_die(10);
        let ours = exploding_with(10, Edge::Normal, EXPLODE_CAP);
        for v in 1..=110 {
            assert!((core.p(v) - ours.p(v)).abs() < 1e-15);
        }
    }

    #[test]
    fn the_cut_off_mass_is_stated_and_small() {
        // d10: 10⁻¹¹; d4 with advantage: (7/16)¹¹ ≈ 1.1e-4.
        assert!((cut_off(10, Edge::Normal) - 1e-11).abs() < 1e-20);
        assert!((cut_off(4, Edge::Advantage) - (7.0f64 / 16.0).powi(11)).abs() < 1e-15);
        assert!(cut_off(4, Edge::Advantage) < 2e-4);
    }

    fn brute_melee(av: i32, precise: i32, defence: i32, coverage: i32, ties: bool) -> Outcome {
        // d20 × d10* truncated at 3 explosions, enumerated.
        let d = brute_exploding(10, Edge::Normal, 3);
        let mut o = Outcome::default();
        for c in 1..=20 {
            let pc = 1.0 / 20.0;
            if c <= 3 {
                o.exposed += pc;
            }
            for &(r, pr) in &d {
                let p = pc * pr;
                let roll = r + i64::from(defence);
                if c == 1 {
                    o.miss += p;
                } else if c >= 20 - precise {
                    if c == 20 {
                        o.crit20 += p
                    } else {
                        o.crit_low += p
                    }
                } else if i64::from(av) > roll || (!ties && i64::from(av) == roll) {
                    if c < coverage {
                        o.hit_armor += p
                    } else {
                        o.hit_clean += p
                    }
                } else {
                    o.miss += p;
                }
            }
        }
        o
    }

    #[test]
    fn melee_odds_match_brute_force() {
        for (av, precise, def, cov, ties) in [
            (16, 0, 8, 0, false),
            (20, 1, 10, 12, false),
            (14, 2, 6, 20, true),
            (30, 0, 8, 5, false),
        ] {
            let d = Defender {
                roll: exploding_with(10, Edge::Normal, 3).shift(i64::from(def)),
                wins_ties: ties,
                coverage: cov,
                ar: 2,
            };
            let o = melee(av, precise, Edge::Normal, &d);
            let b = brute_melee(av, precise, def, cov, ties);
            for (x, y) in [
                (o.miss, b.miss),
                (o.hit_armor, b.hit_armor),
                (o.hit_clean, b.hit_clean),
                (o.crit20, b.crit20),
                (o.crit_low, b.crit_low),
                (o.exposed, b.exposed),
            ] {
                assert!((x - y).abs() < 1e-12, "av {av}: {x} vs {y}");
            }
            assert!((o.total() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn melee_edges() {
        // AV far above any roll: every non-1 hits; the 1 misses; 20 crits.
        let d = Defender {
            roll: Distribution::point(5),
            wins_ties: false,
            coverage: 0,
            ar: 0,
        };
        let o = melee(50, 0, Edge::Normal, &d);
        assert!((o.miss - 0.05).abs() < 1e-15);
        assert!((o.crit20 - 0.05).abs() < 1e-15);
        assert!((o.exposed - 0.15).abs() < 1e-15);
        // AV 5 ties the roll 5: hits; a defending target wins the tie.
        let o = melee(5, 0, Edge::Normal, &d);
        assert!((o.hit_clean - 0.9).abs() < 1e-12);
        let o = melee(
            5,
            0,
            Edge::Normal,
            &Defender {
                wins_ties: true,
                ..d.clone()
            },
        );
        assert!((o.hit_clean).abs() < 1e-15);
        assert!((o.crit20 - 0.05).abs() < 1e-15, "a crit hits anyway");
        // Coverage 11: rolls 2..=10 hit the armor.
        let o = melee(50, 0, Edge::Normal, &Defender { coverage: 11, ..d });
        assert!((o.hit_armor - 9.0 / 20.0).abs() < 1e-12);
        assert!((o.hit_clean - 9.0 / 20.0).abs() < 1e-12);
    }

    #[test]
    fn ranged_odds_match_brute_force() {
        // Hit roll with advantage vs miss chance base 6 + 1d4* + 1 (cap 3).
        let r = exploding_with(4, Edge::Normal, 3).shift(1);
        let d = Defender {
            roll: r.clone(),
            wins_ties: false,
            coverage: 8,
            ar: 3,
        };
        let o = ranged(6, 0, Edge::Advantage, &d);
        let mut want = Outcome::default();
        for a in 1..=20 {
            for b in 1..=20 {
                let h: i32 = a.max(b);
                let ph = 1.0 / 400.0;
                if h <= 3 {
                    want.exposed += ph;
                }
                for (v, pv) in r.iter() {
                    let p = ph * pv;
                    if h == 1 {
                        want.miss += p
                    } else if h == 20 {
                        want.crit20 += p
                    } else if i64::from(h) >= 6 + v {
                        if h < 8 {
                            want.hit_armor += p
                        } else {
                            want.hit_clean += p
                        }
                    } else {
                        want.miss += p
                    }
                }
            }
        }
        for (x, y) in [
            (o.miss, want.miss),
            (o.hit_armor, want.hit_armor),
            (o.hit_clean, want.hit_clean),
            (o.crit20, want.crit20),
            (o.exposed, want.exposed),
        ] {
            assert!((x - y).abs() < 1e-12, "{x} vs {y}");
        }
    }

    #[test]
    fn damage_after_armor_then_multipliers() {
        assert_eq!(dealt(7, 3, true, 0, Takes::Normal), 4);
        assert_eq!(
            dealt(7, 3, true, 0, Takes::Resists),
            2,
            "after armor, halved down"
        );
        assert_eq!(dealt(7, 3, true, 0, Takes::Weak), 8);
        assert_eq!(
            dealt(2, 3, true, 0, Takes::Weak),
            0,
            "never below 0 before doubling"
        );
        assert_eq!(dealt(1, 0, false, 0, Takes::Resists), 0);
        assert_eq!(
            dealt(9, 0, false, 1, Takes::Normal),
            4,
            "no proficiency halves"
        );
        assert_eq!(Takes::from(true, true), Takes::Normal, "they cancel");
    }

    /// The review's note on several multipliers (seed l.386: "two sources of double damage …
    /// 3 times"), settled by SPEC decision 15: they add as their differences from ×1. A hit
    /// without proficiency (×½) on a weakness (×2) for 7 deals ⌊7 × 1.5⌋ = 10 (it was 6, one
    /// step at a time); an improvised throw without proficiency (two halvings) deals nothing;
    /// a halving and a resistance, ⌊8 × 0⌋ = 0.
    #[test]
    fn aura_multipliers_add_as_their_differences_from_one() {
        assert_eq!(dealt(7, 0, false, 1, Takes::Weak), 10);
        assert_eq!(dealt(7, 0, false, 2, Takes::Normal), 0);
        assert_eq!(dealt(8, 0, false, 1, Takes::Resists), 0);
        assert_eq!(dealt(9, 2, true, 0, Takes::Weak), 14, "after armour: 7 × 2");
    }

    #[test]
    fn damage_distribution_mixes_the_kinds_of_hit_and_sums_to_1() {
        let rolled = Distribution::die(6).shift(1); // 1d6 + 1
        let o = Outcome {
            miss: 0.5,
            hit_armor: 0.2,
            hit_clean: 0.2,
            crit20: 0.1,
            crit_low: 0.0,
            exposed: 0.15,
        };
        let rule = DamageRule {
            ar: 2,
            halvings: 0,
            improvised_throw: false,
            takes: Takes::Normal,
        };
        let (d, drop) = damage_given_hit(&rolled, &o, rule, 7);
        assert!((d.total() - 1.0).abs() < 1e-12);
        // Given a hit: armor (0.4): 2..7 − 2 = 0..5; clean or crit (0.6): 2..7.
        assert!((d.p(0) - 0.4 / 6.0).abs() < 1e-12);
        assert!((d.p(7) - 0.6 / 6.0).abs() < 1e-12);
        // Drops aura 7 only on a clean or critical 7: 0.3 × 1/6.
        assert!((drop.p() - 0.05).abs() < 1e-12);
        // An improvised throw halves all but the natural 20.
        let rule = DamageRule {
            improvised_throw: true,
            ..rule
        };
        let (d, _) = damage_given_hit(&rolled, &o, rule, 0);
        assert!((d.p(7) - 0.2 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn maneuvers_combine_the_hit_and_the_fortitude_roll() {
        let d = Defender {
            roll: Distribution::point(10),
            wins_ties: false,
            coverage: 0,
            ar: 0,
        };
        let fort = Distribution::die(10).shift(10); // 11..=20
                                                    // AV 15 → 10 to hit: every 2..=19 hits (ties hit) and the 20 crits; 1 misses: 0.95.
        let (hit, works) = maneuver(15, 0, Edge::Normal, &d, Some(&fort), false);
        assert!((hit.p() - 0.95).abs() < 1e-12);
        // The save fails when the roll is ≤ 15: 11..=15 = 1/2.
        assert!((works.p() - 0.475).abs() < 1e-12);
        let (_, restrain) = maneuver(15, 0, Edge::Normal, &d, None, false);
        assert!((restrain.p() - 0.95).abs() < 1e-12);
        // Defending: a fortitude roll equal to the AV now resists (11..=14 fail: 2/5).
        let def = Defender {
            wins_ties: true,
            ..d.clone()
        };
        let (_, works) = maneuver(15, 0, Edge::Normal, &def, Some(&fort), false);
        let hit_def = melee(10, 0, Edge::Normal, &def).hit();
        assert!((works.p() - hit_def * 0.4).abs() < 1e-12);
        // Fortitude always above the AV: the maneuver cannot work.
        let (_, never) = maneuver(5, 0, Edge::Normal, &d, Some(&fort), false);
        assert_eq!(never, Chance::Impossible);
        // A helpless target: the attack always hits (a natural 1 too), the save still counts.
        let (hit, works) = maneuver(15, 0, Edge::Normal, &d, Some(&fort), true);
        assert_eq!(hit, Chance::Certain);
        assert!((works.p() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn non_lethal_thresholds() {
        assert_eq!(non_lethal_from(NonLethal::Blunt, 0), 5);
        assert_eq!(non_lethal_from(NonLethal::Melee, 0), 10);
        assert_eq!(non_lethal_from(NonLethal::Ranged, 0), 15);
        assert_eq!(
            non_lethal_from(NonLethal::Ranged, 2),
            5,
            "the seed's example: −6, 5 or more"
        );
        assert_eq!(non_lethal_from(NonLethal::Blunt, 1), 1);
        assert_eq!(non_lethal_from(NonLethal::Unarmed, 0), 1);
        assert_eq!(d20_at_least(10), Chance::ratio(11, 20));
        assert_eq!(d20_at_least(1), Chance::Certain);
        assert_eq!(d20_at_least(21), Chance::Impossible);
    }

    #[test]
    fn initiative_ties_lose_for_the_challenger() {
        let (w, l) = initiative_contest(0, 0);
        // P(a > b) over 400 pairs: 190.
        assert!((w.p() - 190.0 / 400.0).abs() < 1e-12);
        assert!((l.p() - 210.0 / 400.0).abs() < 1e-12);
        assert_eq!(initiative_contest(20, 0).0, Chance::Certain);
    }

    #[test]
    fn death_tables_cover_every_face() {
        let rolls: Vec<DeathRoll> = (1..=20).map(death_roll).collect();
        let count = |r| rolls.iter().filter(|&&x| x == r).count();
        assert_eq!(
            [
                count(DeathRoll::Dead),
                count(DeathRoll::Down),
                count(DeathRoll::Bleeding),
                count(DeathRoll::Injured),
                count(DeathRoll::Winded),
                count(DeathRoll::Scratch)
            ],
            [1, 3, 5, 5, 5, 1]
        );
        let saves: Vec<DeathSave> = (1..=20).map(death_save).collect();
        let count = |r| saves.iter().filter(|&&x| x == r).count();
        assert_eq!(
            [
                count(DeathSave::Dead),
                count(DeathSave::Unconscious),
                count(DeathSave::Bleeding),
                count(DeathSave::Stable)
            ],
            [1, 3, 15, 1]
        );
    }

    #[test]
    fn dying_chances_match_a_long_chain() {
        // Sum the chain round by round until the rest is negligible.
        let mut alive = 1.0;
        let mut dead = 0.0;
        for _ in 0..2000 {
            dead += alive / 20.0;
            alive *= 18.0 / 20.0;
        }
        assert!((dying_chance(true, false).p() - dead).abs() < 1e-12);
        // A death roll first: 1 dies, 2..=9 bleeds.
        assert!((dying_chance(false, true).p() - (1.0 / 20.0 + 8.0 / 20.0 * dead)).abs() < 1e-12);
        assert!((dying_chance(true, true).p() - (1.0 / 20.0 + 19.0 / 20.0 * dead)).abs() < 1e-12);
        assert!((dead_within(1).p() - 0.05).abs() < 1e-15);
        assert!((dead_within(2).p() - (0.05 + 0.9 * 0.05)).abs() < 1e-15);
    }
}
