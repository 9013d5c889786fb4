//! What a combatant holds and carries: the melee weapon in hand and the ranged weapon ready,
//! and, for a saved character, every weapon of its sheet (one text each), so that any of them
//! can be taken in hand or stowed in the fight (seed l.37), dropped when disarmed and picked up
//! again, or flung away (l.565).
//!
//! A slot ([`MELEE_GEAR`], [`RANGED_GEAR`]) says which: 0 the weapon it joined with (a quick
//! NPC's, kept in the fixed stats), k ≥ 1 the k-th weapon it carries, −1 none.

use super::combat::{
    Act, ACTS, BLUNT, DROPPED, EVASION, HELD_EV, ITEM_ACT, LIGHT, MELEE_AV, MELEE_BONUS,
    MELEE_GEAR, MELEE_HALVED, MELEE_PRECISE, MISS_MOD, RANGED_BONUS, RANGED_GEAR, RANGED_HALVED,
    RANGED_PRECISE, SHOT_ENERGY, SIDE_ARM_ACT, THROW_IMPROVISED, THROW_MISS_MOD, THROW_PRECISE,
    THROW_RANGE, T_MELEE, T_RANGED, WEIGHT,
};
use super::sheet::{AttackMode, AuraSheet, Weapon};
use crate::rules::encounter::{Combatant, Event, State};

/// The first of a combatant's texts that is a weapon it carries.
pub const T_GEAR: usize = 2;

/// A weapon as the fight uses it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hand {
    pub name: String,
    pub dice: String,
    pub ranged: bool,
    /// Melee: its AV; shot: its miss chance modifier.
    pub value: i32,
    pub bonus: i32,
    pub precise: i32,
    /// Used without proficiency (half damage).
    pub halved: bool,
    pub blunt: bool,
    /// Thrown: its miss chance modifier, precise, improvised (not made for throwing), range.
    pub throw_mm: i32,
    pub throw_precise: i32,
    pub improvised: bool,
    pub range: [i32; 3],
    /// 0, [`super::combat::LIGHT`] or [`super::combat::HEAVY`].
    pub weight: i32,
    /// The evasion it adds while in hand (−1 without proficiency).
    pub ev: i32,
    pub shot_energy: i32,
}

impl Hand {
    /// Weapon `w` of sheet `s`, with the sheet's numbers.
    pub fn of(s: &AuraSheet, w: &Weapon) -> Hand {
        let prof = s.proficient(w);
        let (value, bonus) = if w.ranged {
            (
                s.miss_modifier(w, false).0,
                s.damage_bonus(w, AttackMode::Shot).0,
            )
        } else {
            (s.melee_av(w).0, s.damage_bonus(w, AttackMode::Melee).0)
        };
        Hand {
            name: w.name.clone(),
            dice: w.damage.clone(),
            ranged: w.ranged,
            value,
            bonus,
            precise: w.precise,
            halved: !prof,
            blunt: w.blunt,
            throw_mm: s.miss_modifier(w, true).0,
            throw_precise: w.precise,
            improvised: !w.thrown,
            range: s.range(w, AttackMode::Thrown),
            weight: super::combat::weight_of(w),
            ev: w.ev - i32::from(!w.ranged && !prof),
            shot_energy: s.shot_energy(w),
        }
    }

    fn numbers(&self) -> [i32; 15] {
        let [r0, r1, r2] = self.range;
        [
            i32::from(self.ranged),
            self.value,
            self.bonus,
            self.precise,
            i32::from(self.halved),
            i32::from(self.blunt),
            self.throw_mm,
            self.throw_precise,
            i32::from(self.improvised),
            r0,
            r1,
            r2,
            self.weight,
            self.ev,
            self.shot_energy,
        ]
    }

    /// As a combatant's text: "name\tdice\tnumbers".
    pub fn text(&self) -> String {
        let mut t = format!("{}\t{}\t", self.name, self.dice);
        for (i, n) in self.numbers().iter().enumerate() {
            if i > 0 {
                t.push(' ');
            }
            t.push_str(&n.to_string());
        }
        t
    }

    /// Read back from [`Hand::text`]; `None` for anything else.
    pub fn parse(t: &str) -> Option<Hand> {
        let mut parts = t.split('\t');
        let (name, dice, nums) = (parts.next()?, parts.next()?, parts.next()?);
        let mut n = [0i32; 15];
        let mut it = nums.split(' ');
        for x in &mut n {
            *x = it.next()?.parse().ok()?;
        }
        if it.next().is_some() {
            return None;
        }
        let [ranged, value, bonus, precise, halved, blunt, throw_mm, throw_precise, improvised, r0, r1, r2, weight, ev, shot_energy] =
            n;
        Some(Hand {
            name: name.to_owned(),
            dice: dice.to_owned(),
            ranged: ranged != 0,
            value,
            bonus,
            precise,
            halved: halved != 0,
            blunt: blunt != 0,
            throw_mm,
            throw_precise,
            improvised: improvised != 0,
            range: [r0, r1, r2],
            weight,
            ev,
            shot_energy,
        })
    }

    /// The action it is stowed or taken in hand with: a side arm (a light weapon) for 1 energy,
    /// anything else 2.
    pub fn act(&self) -> &'static Act {
        &ACTS[if self.weight == LIGHT {
            SIDE_ARM_ACT
        } else {
            ITEM_ACT
        }]
    }

    /// Whether it is `c`'s weapon in hand (or ready, when ranged), as its `k`-th carried one.
    pub fn in_slot(&self, c: &Combatant, k: u32) -> bool {
        c.stat(slot(self.ranged)) == k as i32
    }

    /// The weapon a combatant joined with, from its fixed stats (`None`: it had none).
    fn joined(c: &Combatant, ranged: bool) -> Option<Hand> {
        let dice = c.text(if ranged { T_RANGED } else { T_MELEE });
        if dice.is_empty() {
            return None;
        }
        let st = |i: usize| c.stat(i);
        Some(if ranged {
            Hand {
                name: "Ranged weapon".into(),
                dice: dice.to_owned(),
                ranged,
                value: st(MISS_MOD),
                bonus: st(RANGED_BONUS),
                precise: st(RANGED_PRECISE),
                halved: st(RANGED_HALVED) > 0,
                shot_energy: st(SHOT_ENERGY).max(1),
                ..Hand::default()
            }
        } else {
            Hand {
                name: "Melee weapon".into(),
                dice: dice.to_owned(),
                ranged,
                value: st(MELEE_AV),
                bonus: st(MELEE_BONUS),
                precise: st(MELEE_PRECISE),
                halved: st(MELEE_HALVED) > 0,
                blunt: st(BLUNT) > 0,
                throw_mm: st(THROW_MISS_MOD),
                throw_precise: st(THROW_PRECISE),
                improvised: st(THROW_IMPROVISED) > 0,
                range: THROW_RANGE.map(st),
                weight: st(WEIGHT),
                ev: st(HELD_EV),
                shot_energy: 1,
            }
        })
    }
}

/// Every weapon combatant `c` carries (a saved character's sheet weapons), in order.
pub fn carried(c: &Combatant) -> Vec<Hand> {
    c.texts
        .iter()
        .skip(T_GEAR)
        .filter_map(|t| Hand::parse(t))
        .collect()
}

/// The weapon in slot `code` (see the module's note) of `c`.
pub fn by_code(c: &Combatant, code: i32, ranged: bool) -> Option<Hand> {
    match code {
        0 => Hand::joined(c, ranged),
        k if k > 0 => Hand::parse(c.text(T_GEAR + k as usize - 1)),
        _ => None,
    }
}

fn slot(ranged: bool) -> usize {
    if ranged {
        RANGED_GEAR
    } else {
        MELEE_GEAR
    }
}

/// The melee weapon in `c`'s hand (`ranged`: its ranged weapon ready), if any.
pub fn in_hand(c: &Combatant, ranged: bool) -> Option<Hand> {
    by_code(c, c.stat(slot(ranged)), ranged)
}

/// `who` takes the weapon of slot code `code` (−1: none) as its melee weapon in hand (or its
/// ranged weapon ready, `ranged`): the slot, and the evasion the old and new weapon add.
pub fn wield_events(s: &State, who: u32, code: i32, ranged: bool) -> Vec<Event> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    let mut out = vec![Event::Set(who, slot(ranged), code)];
    if !ranged {
        let old = in_hand(c, false).map_or(0, |h| h.ev);
        let new = by_code(c, code, false).map_or(0, |h| h.ev);
        if old != new {
            out.push(Event::Set(who, EVASION, c.stat(EVASION) - old + new));
        }
        out.push(Event::Set(who, HELD_EV, new));
        if c.stat(DROPPED) == code + 1 && code >= 0 {
            out.push(Event::Set(who, DROPPED, 0));
        }
    }
    out
}

/// `who` loses its melee weapon in hand (disarmed): out of hand, lying at its feet to be
/// picked up again.
pub fn drop_events(s: &State, who: u32) -> Vec<Event> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    let code = c.stat(MELEE_GEAR);
    if in_hand(c, false).is_none() {
        return Vec::new();
    }
    let mut out = wield_events(s, who, -1, false);
    out.push(Event::Set(who, DROPPED, code + 1));
    out
}

/// The weapon `who` dropped, as a slot code, if one lies there.
pub fn dropped(c: &Combatant) -> Option<i32> {
    let d = c.stat(DROPPED);
    (d > 0).then_some(d - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weapon_survives_its_text() {
        let h = Hand {
            name: "Spear".into(),
            dice: "1d8".into(),
            value: 17,
            bonus: 2,
            range: [2, 4, 8],
            ev: -1,
            shot_energy: 1,
            halved: true,
            ..Hand::default()
        };
        assert_eq!(Hand::parse(&h.text()), Some(h));
        assert_eq!(Hand::parse("1d8"), None);
        assert_eq!(Hand::parse("a\tb\t1 2"), None);
    }
}
