//! One Energy / Aura attack, the same on a sheet and in a fight: the attacker's side
//! ([`Attacker`], from a sheet's weapon or a combatant's), the target's numbers ([`Foe`]: typed
//! on a sheet, read from the fight in an encounter) and the attacker's choices ([`Aim`]) make
//! the one [`Strike`] the odds are shown for and the roll makes ([`strike_of`], [`roll_attack`]).
//! The referee's `Attack` plans it against the fight as it is (`fight_attack`) and turns the roll
//! into the fight's events; no panel works an attack out itself.

use super::combat::{
    attack_edge, auto_hit, can_attack, fortitude_roll, guard, maneuver_limit, no_ranged_evasion,
    roll_defence, strike, swift_limit, Maneuver, Strike, Struck, AGILITY, AR, COVERAGE, FORTITUDE,
    HEAVY, RANGED_COVERAGE, SIZE, UNARMED_AV, UNARMED_DAMAGE,
};
use super::gear::in_hand;
use super::{non_lethal_from, AttackMode, AuraSheet, NonLethal, Takes, MISS_MOVE, MISS_SIZE};
use crate::rules::dice::{parse, DiceSource, Edge};
use crate::rules::encounter::State;

/// The attacker's side of an attack: what its weapon (or fist) brings.
#[derive(Debug, Clone, PartialEq)]
pub struct Attacker {
    pub name: String,
    pub mode: AttackMode,
    /// Melee: the AV; shot or throw: the miss chance modifier.
    pub value: i32,
    pub precise: i32,
    pub dice: String,
    pub bonus: i32,
    pub halvings: u32,
    pub improvised_throw: bool,
    pub blunt: bool,
    pub unarmed: bool,
    /// Energy it costs (before a swift attack's or an unarmed maneuver's lower price).
    pub energy: i32,
    /// The AV of an unarmed attack (restrain and push are made unarmed).
    pub unarmed_av: i32,
}

/// The target's numbers an attack meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Foe {
    /// The evasion it rolls (after facing), its edge, and its fortitude roll's.
    pub defence: i32,
    pub edge: Edge,
    pub fortitude: i32,
    pub fort_edge: Edge,
    /// The attacker's conditions give its attack rolls disadvantage (dazed, blinded).
    pub worse: bool,
    /// A swift attack: a maneuver gives no advantage and leaves no one unguarded.
    pub swift: bool,
    /// Its size (an index of `MISS_SIZE`) when known (a fight); a sheet's aim picks it.
    pub size: Option<i32>,
    pub defending: bool,
    pub exposed: bool,
    pub coverage: i32,
    pub ar: i32,
    pub aura: i32,
    /// It rolls no defence: every attack hits (helpless; unconscious against melee).
    pub auto_hit: bool,
    /// A shot it makes no ranged evasion roll against (unconscious: not aware of it, seed
    /// l.202): the miss chance is the attacker's fixed part alone.
    pub unaware: bool,
}

/// The attacker's choices that are not the target's numbers. Small numbers, so an intent
/// carries them as they are: `my_edge` indexes (normal, advantage, disadvantage), `size`
/// `MISS_SIZE` (read only when the target's size is unknown), `moving` `MISS_MOVE`, `band` the
/// range bands, `widen` the non-lethal steps (0–4), `maneuver` 0 for none or 1 + its index in
/// `Maneuver::ALL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aim {
    pub my_edge: u32,
    pub resists: bool,
    pub weak: bool,
    pub size: u32,
    pub moving: u32,
    pub band: u32,
    pub widen: u32,
    pub maneuver: u32,
    pub try_nl: bool,
    /// A trip's target is on the move: disadvantage on its fortitude roll (seed l.559).
    pub on_the_move: bool,
    /// A disarm flings the dropped weapon up to 2 m away, for 1 agility (l.565; not Heavy).
    pub fling: bool,
}

impl Default for Aim {
    fn default() -> Self {
        Aim {
            my_edge: 0,
            resists: false,
            weak: false,
            size: 2,
            moving: 1,
            band: 1,
            widen: 0,
            maneuver: 0,
            try_nl: false,
            on_the_move: false,
            fling: false,
        }
    }
}

/// An edge from its index (normal, advantage, disadvantage).
pub fn edge_at(i: u32) -> Edge {
    [Edge::Normal, Edge::Advantage, Edge::Disadvantage][i.min(2) as usize]
}

impl Aim {
    /// The maneuver picked, if any.
    pub fn maneuver(&self) -> Option<Maneuver> {
        (self.maneuver > 0).then(|| Maneuver::ALL[(self.maneuver as usize - 1).min(3)])
    }

    /// The edge of the target's fortitude roll against this maneuver: its own (`own`, from
    /// its conditions), with disadvantage against a trip while it is moving.
    pub fn fort_edge(&self, own: Edge) -> Edge {
        if !(self.on_the_move && self.maneuver() == Some(Maneuver::Trip)) {
            return own;
        }
        match own {
            Edge::Advantage => Edge::Normal,
            _ => Edge::Disadvantage,
        }
    }

    /// Whether the attack tries for non-lethal damage: ticked, and not a maneuver (which deals
    /// none).
    pub fn tries_non_lethal(&self, a: &Attacker) -> bool {
        self.try_nl && !(a.mode == AttackMode::Melee && self.maneuver().is_some())
    }

    /// The non-lethal steps the attack is rolled with: those picked when it tries for
    /// non-lethal damage, else none.
    pub fn non_lethal_steps(&self, a: &Attacker) -> u32 {
        if self.tries_non_lethal(a) {
            self.widen.min(4)
        } else {
            0
        }
    }

    /// The chance roll (d20 ≥ this) that makes a hit non-lethal, when the attack tries for it
    /// (`None`: it does not, and a hit is lethal): what the odds show and the roll makes.
    pub fn non_lethal_from(&self, a: &Attacker) -> Option<i32> {
        self.tries_non_lethal(a)
            .then(|| non_lethal_from(non_lethal_kind(a), self.non_lethal_steps(a)))
    }

    /// Within its ranges: a maneuver only with a melee attack (a shot or a throw cannot
    /// restrain, trip, disarm or push).
    pub fn fits(&self, a: &Attacker) -> Result<(), String> {
        let ok = self.my_edge < 3
            && self.size < MISS_SIZE.len() as u32
            && self.moving < 3
            && self.band < 3
            && self.widen < 5
            && self.maneuver <= Maneuver::ALL.len() as u32;
        if !ok {
            return Err("an attack option out of range".into());
        }
        if self.maneuver > 0 && a.mode != AttackMode::Melee {
            return Err("a maneuver is a melee attack".into());
        }
        Ok(())
    }
}

/// The non-lethal kind of an attack.
pub fn non_lethal_kind(a: &Attacker) -> NonLethal {
    if a.unarmed {
        NonLethal::Unarmed
    } else if a.mode != AttackMode::Melee {
        NonLethal::Ranged
    } else if a.blunt {
        NonLethal::Blunt
    } else {
        NonLethal::Melee
    }
}

/// The strike the odds are shown for and the roll makes. A maneuver is made at its full AV
/// (unarmed for restrain and push); the roll takes its −5 off. `None`: the damage is not dice.
pub fn strike_of(a: &Attacker, t: &Foe, c: &Aim) -> Option<Strike> {
    let melee = a.mode == AttackMode::Melee;
    let damage = parse(&a.dice).ok();
    let man = if melee { c.maneuver() } else { None };
    // The non-lethal steps (−3 AV or +3 miss chance each) are part of the attempt only (seed
    // l.519): an attack that does not try for it is rolled as it is.
    let widen = c.non_lethal_steps(a) as i32;
    let mut my_edge = edge_at(c.my_edge);
    if !melee {
        my_edge = match (my_edge, c.band) {
            (Edge::Normal, 0) => Edge::Advantage,
            (Edge::Normal, 2) => Edge::Disadvantage,
            (Edge::Advantage, 2) | (Edge::Disadvantage, 0) => Edge::Normal,
            (e, _) => e,
        };
    }
    if t.worse {
        my_edge = match my_edge {
            Edge::Advantage => Edge::Normal,
            _ => Edge::Disadvantage,
        };
    }
    let size = t.size.unwrap_or(c.size as i32);
    let value = if melee {
        let av = if man.is_some_and(Maneuver::unarmed) {
            a.unarmed_av
        } else {
            a.value
        };
        av - 3 * widen
    } else {
        a.value
            + MISS_SIZE[size.clamp(0, MISS_SIZE.len() as i32 - 1) as usize].1
            + MISS_MOVE[c.moving.min(2) as usize].1
            + 3 * widen
    };
    // Against a target that is not exposed, a maneuver (not swift) meets advantage on the
    // target's first defence roll.
    let mut def_edge = t.edge;
    if man.is_some() && !t.exposed && !t.swift {
        def_edge = match def_edge {
            Edge::Disadvantage => Edge::Normal,
            _ => Edge::Advantage,
        };
    }
    Some(Strike {
        melee,
        value,
        precise: a.precise,
        edge: my_edge,
        def_sides: match (melee, t.unaware) {
            (true, _) => 10,
            (false, false) => 4,
            (false, true) => 0,
        },
        def_edge,
        defence: if !melee && t.unaware { 0 } else { t.defence },
        wins_ties: t.defending,
        coverage: t.coverage,
        ar: t.ar,
        damage: if man.is_some() { None } else { Some(damage?) },
        bonus: a.bonus,
        halvings: a.halvings,
        improvised_throw: a.improvised_throw,
        takes: Takes::from(c.resists, c.weak),
        auto_hit: t.auto_hit,
    })
}

/// An attack as rolled.
#[derive(Debug, Clone, PartialEq)]
pub struct Rolled {
    pub st: Strike,
    pub r: Struck,
    pub m: Option<Maneuver>,
    /// The target's fortitude roll against a maneuver.
    pub fort: Option<i64>,
    /// The damage is non-lethal (unarmed, or the chance roll made it).
    pub non_lethal: bool,
    /// The chance roll for non-lethal damage, when one was made.
    pub chance: Option<u32>,
    /// The rolls in one line.
    pub line: String,
}

/// Rolls an attack: the strike (a maneuver at −5), the target's fortitude roll when a
/// maneuver that allows one hits, and the chance roll for non-lethal damage when tried.
/// `None`: the damage is not dice.
pub fn roll_attack<S: DiceSource + ?Sized>(
    a: &Attacker,
    t: &Foe,
    c: &Aim,
    src: &mut S,
) -> Option<Rolled> {
    let mut st = strike_of(a, t, c)?;
    let m = if st.melee { c.maneuver() } else { None };
    if m.is_some() {
        st.value -= 5;
    }
    let try_nl = c.tries_non_lethal(a);
    let nl_from = c.non_lethal_from(a).unwrap_or(1);
    let r = strike(&st, src);
    let fort = m.filter(|m| m.saves() && r.hit).map(|_| {
        let (_, sum) = roll_defence(10, c.fort_edge(t.fort_edge), src);
        sum + i64::from(t.fortitude)
    });
    let chance = (try_nl && nl_from > 1 && r.hit).then(|| src.roll(20));
    let mut line = r.line(&st);
    if let Some(f) = fort {
        line.push_str(&format!("; the target's fortitude roll {f}"));
    }
    let non_lethal = try_nl && r.hit && chance.is_none_or(|d| d as i32 >= nl_from);
    if let Some(d) = chance {
        line.push_str(&format!(
            "; chance roll {d} vs {nl_from}: {}",
            if non_lethal { "non-lethal" } else { "lethal" }
        ));
    }
    Some(Rolled {
        st,
        r,
        m,
        fort,
        non_lethal,
        chance,
        line,
    })
}

/// What a sheet's weapon (`None`: a fist) brings to an attack in `mode`.
pub fn attacker(s: &AuraSheet, w: Option<usize>, mode: AttackMode) -> Attacker {
    let unarmed_av = s.unarmed_av().0;
    let Some(w) = w.and_then(|i| s.weapons.get(i)) else {
        return fist(unarmed_av, s.unarmed_damage().0);
    };
    let (value, energy) = match mode {
        AttackMode::Melee => (s.melee_av(w).0, 3),
        AttackMode::Shot => (s.miss_modifier(w, false).0, s.shot_energy(w)),
        AttackMode::Thrown => (s.miss_modifier(w, true).0, 1),
    };
    let [r0, r1, r2] = s.range(w, mode);
    let name = match mode {
        AttackMode::Melee => format!("{} in melee", w.name),
        AttackMode::Shot => format!("{} shot, range {r0}/{r1}/{r2}", w.name),
        AttackMode::Thrown => format!("{} thrown, range {r0}/{r1}/{r2}", w.name),
    };
    Attacker {
        name,
        mode,
        value,
        precise: w.precise,
        dice: w.damage.clone(),
        bonus: s.damage_bonus(w, mode).0,
        halvings: u32::from(!s.proficient(w)),
        improvised_throw: mode == AttackMode::Thrown && !w.thrown,
        blunt: w.blunt,
        unarmed: false,
        energy,
        unarmed_av,
    }
}

/// An unarmed attack: 2 energy, blunt, its damage a fixed number.
fn fist(av: i32, damage: i32) -> Attacker {
    Attacker {
        name: "Unarmed".into(),
        mode: AttackMode::Melee,
        value: av,
        precise: 0,
        dice: "0".into(),
        bonus: damage,
        halvings: 0,
        improvised_throw: false,
        blunt: true,
        unarmed: true,
        energy: 2,
        unarmed_av: av,
    }
}

/// The attacks a combatant has in its fight, each with its label: its melee weapon, that
/// weapon thrown (1 energy, its own miss modifier and range), a fist, its ranged weapon.
pub fn attackers(s: &State, who: u32) -> Vec<(String, Attacker)> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let unarmed_av = c.stat(UNARMED_AV);
    if let Some(h) = in_hand(c, false) {
        let strike = Attacker {
            name: format!("{} {}{:+}", h.name, h.dice, h.bonus),
            mode: AttackMode::Melee,
            value: h.value,
            precise: h.precise,
            dice: h.dice.clone(),
            bonus: h.bonus,
            halvings: u32::from(h.halved),
            improvised_throw: false,
            blunt: h.blunt,
            unarmed: false,
            energy: 3,
            unarmed_av,
        };
        let [r0, r1, r2] = h.range;
        let throw = Attacker {
            name: format!(
                "{} thrown {}, range {r0}/{r1}/{r2}{}",
                h.name,
                h.dice,
                if h.improvised {
                    " · not made for throwing: half damage unless a natural 20"
                } else {
                    ""
                }
            ),
            mode: AttackMode::Thrown,
            value: h.throw_mm,
            precise: h.throw_precise,
            bonus: 0,
            improvised_throw: h.improvised,
            energy: 1,
            ..strike.clone()
        };
        out.push((format!("{} {}", h.name, h.dice), strike));
        out.push((format!("Throw {} {}", h.name, h.dice), throw));
    }
    out.push(("Unarmed".into(), fist(unarmed_av, c.stat(UNARMED_DAMAGE))));
    if let Some(h) = in_hand(c, true) {
        out.push((
            format!("{} {}", h.name, h.dice),
            Attacker {
                name: format!("{} {}{:+}", h.name, h.dice, h.bonus),
                mode: AttackMode::Shot,
                value: h.value,
                precise: h.precise,
                dice: h.dice.clone(),
                bonus: h.bonus,
                halvings: u32::from(h.halved),
                improvised_throw: false,
                blunt: false,
                unarmed: false,
                energy: h.shot_energy.max(1),
                unarmed_av,
            },
        ));
    }
    out
}

/// The attack panel's heading: what it is made with and the energy it is charged ([`cost`]),
/// so the price shown is the price paid.
pub fn heading(a: &Attacker, swift: bool, m: Option<Maneuver>) -> String {
    let m = m.filter(|_| a.mode == AttackMode::Melee);
    format!(
        "{} · {} energy{}",
        a.name,
        cost(a, swift, m),
        if a.halvings > 0 {
            " · without proficiency: half damage"
        } else {
            ""
        }
    )
}

/// The energy an attack costs: a swift melee attack 1, a restrain or push 2 (unarmed).
pub fn cost(a: &Attacker, swift: bool, m: Option<Maneuver>) -> i32 {
    let melee = a.mode == AttackMode::Melee;
    match (swift && melee, m.is_some_and(Maneuver::unarmed)) {
        (true, _) => 1,
        (false, true) => 2,
        (false, false) => a.energy,
    }
}

/// An attack in a fight as the attacker chooses it: against `target` (0: none picked yet),
/// with the `with`-th of its [`attackers`], from behind or not, swift (through the reach of a
/// target `passing`), enhanced with stamina, and the rest of its choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FightAttack {
    pub target: u32,
    pub with: u32,
    pub behind: bool,
    pub swift: bool,
    pub passing: bool,
    pub enhance: u32,
    pub aim: Aim,
}

/// The target's numbers in the fight as it is: the defence it meets from where the attack
/// comes, its conditions, its armour against this kind of attack.
pub fn foe(s: &State, who: u32, t: u32, melee: bool, behind: bool, swift: bool) -> Foe {
    let g = guard(s, t, melee, behind);
    let stat = |i: usize| s.get(t).map_or(0, |c| c.stat(i));
    Foe {
        defence: g.value,
        edge: g.edge,
        fortitude: stat(FORTITUDE),
        fort_edge: fortitude_roll(s, t).0,
        worse: attack_edge(s, who, Edge::Normal) == Edge::Disadvantage,
        swift,
        size: Some(stat(SIZE)),
        defending: s.has(t, "Defending"),
        exposed: s.has(t, "Exposed"),
        coverage: stat(if melee { COVERAGE } else { RANGED_COVERAGE }),
        ar: stat(AR),
        aura: s.get(t).map_or(0, |c| c.hp),
        auto_hit: auto_hit(s, t, melee).is_some(),
        unaware: !melee && no_ranged_evasion(s, t),
    }
}

impl FightAttack {
    /// `who`'s plain attack on `target` with its `with`-th attacker: from the front, not
    /// swift, not enhanced, no other choice made.
    pub fn plain(target: u32, with: u32) -> FightAttack {
        FightAttack {
            target,
            with,
            behind: false,
            swift: false,
            passing: false,
            enhance: 0,
            aim: Aim::default(),
        }
    }

    /// What `who` attacks with, what the attack costs, and why it cannot be made now (its
    /// pools, the swift attack's and the maneuver's limits, a target that is not there).
    pub fn plan(&self, s: &State, who: u32) -> Result<(Attacker, i32), String> {
        let a = attackers(s, who)
            .into_iter()
            .nth(self.with as usize)
            .map(|x| x.1)
            .ok_or("no such weapon")?;
        self.aim.fits(&a)?;
        let m = self.aim.maneuver();
        let energy = cost(&a, self.swift, m);
        can_attack(s, who, energy, self.enhance as i32, self.swift)?;
        let t = self.target;
        if t == 0 {
            return Ok((a, energy));
        }
        if t == who || s.get(t).is_none_or(|c| c.dead || c.gone) {
            return Err("not a target in this fight".into());
        }
        if self.swift {
            swift_limit(s, t, self.passing)?;
        }
        if let Some(m) = m {
            let weight = if a.unarmed || m.unarmed() {
                0
            } else {
                s.get(who)
                    .and_then(|c| in_hand(c, false))
                    .map_or(0, |h| h.weight)
            };
            maneuver_limit(s, who, t, m, weight, self.behind)?;
        }
        if self.aim.fling {
            self.fling(s, who)?;
        }
        Ok((a, energy))
    }

    /// A fling comes with a disarm, costs 1 agility, and cannot throw a Heavy weapon.
    fn fling(&self, s: &State, who: u32) -> Result<(), String> {
        if self.aim.maneuver() != Some(Maneuver::Disarm) {
            return Err("only a disarm flings the weapon".into());
        }
        let theirs = s.get(self.target).and_then(|c| in_hand(c, false));
        if theirs.is_some_and(|h| h.weight == HEAVY) {
            return Err("a Heavy weapon cannot be flung".into());
        }
        if s.get(who)
            .is_none_or(|c| c.pools.get(AGILITY).is_none_or(|&a| a < 1))
        {
            return Err("flinging the weapon needs 1 agility".into());
        }
        Ok(())
    }

    /// The plainest attack `who` could make on `target` now: each of its attackers without
    /// options, then a swift melee one at a target passing through its reach (1 energy); the
    /// first the rules allow, or the reason the cheapest is refused.
    pub fn plainest(s: &State, who: u32, target: u32) -> Result<FightAttack, String> {
        let n = attackers(s, who).len() as u32;
        let plain = (0..n)
            .map(|with| (with, false))
            .chain((0..n).map(|w| (w, true)));
        let mut why = None;
        for (with, swift) in plain {
            let x = FightAttack {
                swift,
                passing: swift,
                ..FightAttack::plain(target, with)
            };
            match x.plan(s, who) {
                Ok(_) => return Ok(x),
                Err(w) => {
                    why.get_or_insert(w);
                }
            }
        }
        Err(why.unwrap_or_else(|| "nothing to attack with".into()))
    }

    /// The target's numbers for this attack.
    pub fn foe(&self, s: &State, who: u32, a: &Attacker) -> Foe {
        foe(
            s,
            who,
            self.target,
            a.mode == AttackMode::Melee,
            self.behind,
            self.swift,
        )
    }
}
