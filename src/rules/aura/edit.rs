//! Every edit an Energy / Aura sheet takes (Play's pools, conditions, rests and death rolls,
//! Edit's scores and gear, Advance's levels, a fight's write-back), each kept within what
//! [`AuraSheet::validate`] accepts.

use super::sheet::{
    AuraSheet, Pick, Weapon, LIST_LIMIT, NAME_LIMIT, POOL_LIMIT, SIZES, STAT_LIMIT,
};
use crate::rules::edit::Edits;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// A score (Str … Cha by index).
    Score(usize, i32),
    Level(i32),
    /// The MPL, with a pick for every level (+1 Arm Strength until chosen).
    Mpl(i32),
    Arm(i32),
    Leg(i32),
    Initiative(i32),
    Agility(i32),
    /// Index into [`SIZES`].
    Size(i32),
    /// The pick of an MPL level (index into [`Pick::ALL`]).
    Pick(usize, i32),
    /// Aura now: gaining aura stabilizes ([`AuraSheet::stabilized`]), as in a fight; waking is
    /// the GM's call.
    Aura(i32),
    Stamina(i32),
    Surges(i32),
    Dead(bool),
    ArmorAr(i32),
    ArmorAc(i32),
    ArmorRangedAc(i32),
    ArmorPenalty(i32),
    ArmorMpr(i32),
    ShieldBonus(i32),
    ShieldMpr(i32),
    ShieldCarried(bool),
    AddWeapon(Weapon),
    RemoveWeapon(usize),
    /// Takes a weapon in hand or puts it away.
    ToggleHeld(usize),
    /// Adds a condition (once, in any letter case).
    AddCondition(String),
    /// Removes a condition (in any letter case).
    RemoveCondition(String),
    /// A short rest, with a recovery surge or without.
    ShortRest(bool),
    LongRest,
    /// A death roll's d20 (1–20) taken on the sheet.
    DeathRoll(u32),
    /// A death save's d20 (1–20) taken on the sheet.
    DeathSave(u32),
    LevelUp,
    /// A proficiency level with its pick.
    MplUp(Pick),
    /// Stabilized by aura, woken by stamina (after a fight's write-back).
    Woken,
}

const S: i32 = STAT_LIMIT;

impl Edits for AuraSheet {
    type Edit = Edit;

    fn fight_action(e: &Edit) -> Option<&'static str> {
        Some(match e {
            Edit::DeathRoll(_) => "the death roll",
            Edit::DeathSave(_) => "the death save",
            Edit::ToggleHeld(_) => "taking a weapon in hand or stowing it",
            Edit::ShortRest(_) | Edit::LongRest => "a rest",
            Edit::Woken => "waking",
            _ => return None,
        })
    }

    fn apply(&mut self, e: Edit) -> Result<(), String> {
        let s = self;
        match e {
            Edit::Score(i, v) => *s.scores.get_mut(i).ok_or("No such score")? = v.clamp(0, S),
            Edit::Level(v) => s.level = v.clamp(0, S),
            Edit::Mpl(v) => s.set_mpl(v),
            Edit::Arm(v) => s.arm = v.clamp(-S, S),
            Edit::Leg(v) => s.leg = v.clamp(-S, S),
            Edit::Initiative(v) => s.initiative = v.clamp(-S, S),
            Edit::Agility(v) => s.agility = v.clamp(-S, S),
            Edit::Size(v) => s.size = v.clamp(0, SIZES.len() as i32 - 1) as usize,
            Edit::Pick(i, v) => {
                if i >= s.mpl.max(0) as usize {
                    return Err("Each MPL level has one pick".into());
                }
                if s.picks.len() <= i {
                    s.picks.resize(i + 1, Pick::Arm);
                }
                s.picks[i] = Pick::ALL[v.clamp(0, 2) as usize];
            }
            Edit::Aura(v) => {
                s.aura = v.clamp(0, POOL_LIMIT);
                s.stabilized();
            }
            Edit::Stamina(v) => {
                let was = s.stamina;
                s.stamina = v.clamp(0, POOL_LIMIT);
                // Dropping to 0 stamina knocks out at once (seed l.72): the sheet says so, and a
                // fight it joins or shares with takes it.
                if was > 0 && s.stamina == 0 && !s.dead && !s.has("Unconscious") {
                    let _ = s.apply(Edit::AddCondition("Unconscious".into()));
                }
            }
            Edit::Surges(v) => s.surges = v.clamp(0, POOL_LIMIT),
            Edit::Dead(v) => s.dead = v,
            Edit::ArmorAr(v) => s.armor.ar = v.clamp(0, S),
            Edit::ArmorAc(v) => s.armor.ac = v.clamp(0, S),
            Edit::ArmorRangedAc(v) => s.armor.ranged_ac = v.clamp(0, S),
            Edit::ArmorPenalty(v) => s.armor.penalty = v.clamp(0, S),
            Edit::ArmorMpr(v) => s.armor.mpr = v.clamp(0, S),
            Edit::ShieldBonus(v) => s.shield.bonus = v.clamp(0, S),
            Edit::ShieldMpr(v) => s.shield.mpr = v.clamp(0, S),
            Edit::ShieldCarried(v) => s.shield.carried = v,
            Edit::AddWeapon(mut w) => {
                w.name = crate::rules::edit::entry(&w.name, NAME_LIMIT);
                w.damage = w.damage.trim().to_owned();
                if w.name.is_empty() {
                    return Err("A weapon needs a name".into());
                }
                if crate::rules::dice::parse(&w.damage).is_err() {
                    return Err(format!("Damage “{}” is not dice", cut(&w.damage)));
                }
                crate::rules::edit::room(s.weapons.len(), LIST_LIMIT, "weapons")?;
                for v in [&mut w.av, &mut w.ev, &mut w.accuracy] {
                    *v = (*v).clamp(-S, S);
                }
                w.mpr = w.mpr.clamp(0, S);
                w.precise = w.precise.clamp(0, 19);
                for r in &mut w.range {
                    *r = (*r).clamp(0, POOL_LIMIT);
                }
                s.weapons.push(w);
            }
            Edit::RemoveWeapon(i) => {
                if i >= s.weapons.len() {
                    return Err("No such weapon".into());
                }
                s.weapons.remove(i);
            }
            Edit::ToggleHeld(i) => {
                let w = s.weapons.get_mut(i).ok_or("No such weapon")?;
                w.held = !w.held;
            }
            Edit::AddCondition(name) => {
                let name = crate::rules::edit::entry(&name, NAME_LIMIT);
                if name.is_empty() || s.conditions.iter().any(|c| c.eq_ignore_ascii_case(&name)) {
                    return Ok(());
                }
                crate::rules::edit::room(s.conditions.len(), LIST_LIMIT, "conditions")?;
                s.conditions.push(name);
            }
            Edit::RemoveCondition(name) => {
                let name = name.trim();
                s.conditions
                    .retain(|c| !c.trim().eq_ignore_ascii_case(name));
            }
            Edit::ShortRest(surge) => s.short_rest(surge),
            Edit::LongRest => s.long_rest(),
            Edit::DeathRoll(d20) => {
                let d20 = d20_of(d20)?;
                with_room(s, |s| s.after_death_roll(d20))?
            }
            Edit::DeathSave(d20) => {
                let d20 = d20_of(d20)?;
                with_room(s, |s| s.after_death_save(d20))?
            }
            Edit::LevelUp => {
                if s.level >= S {
                    return Err(format!("Level {S} is the highest"));
                }
                s.level += 1;
            }
            Edit::MplUp(p) => {
                if s.mpl >= S {
                    return Err(format!("MPL {S} is the highest"));
                }
                s.mpl = s.mpl.max(0);
                s.picks.truncate(s.mpl as usize);
                s.mpl += 1;
                s.picks.push(p);
            }
            Edit::Woken => s.woken(),
        }
        Ok(())
    }
}

/// Applies what a death roll or save adds, refused when the sheet's conditions have no room
/// for it (the sheet left as it was).
fn with_room(s: &mut AuraSheet, f: impl FnOnce(&mut AuraSheet)) -> Result<(), String> {
    let mut next = s.clone();
    f(&mut next);
    if next.conditions.len() > LIST_LIMIT {
        return Err(format!(
            "No room for its conditions: a sheet holds at most {LIST_LIMIT}"
        ));
    }
    *s = next;
    Ok(())
}

fn d20_of(d20: u32) -> Result<u32, String> {
    if (1..=20).contains(&d20) {
        Ok(d20)
    } else {
        Err(format!("A d20 does not roll {d20}"))
    }
}

fn cut(t: &str) -> String {
    t.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Review item N5 (seed l.659: "It is up to the GM to decide when you awaken"): raising
    /// aura on the sheet stabilizes, as gaining aura in the fight does, and leaves the
    /// character unconscious; a rest wakes.
    #[test]
    fn aura_n5_gaining_aura_on_the_sheet_stabilizes_and_does_not_wake() {
        let mut s = AuraSheet {
            aura: 0,
            stamina: 10,
            conditions: vec![
                "Bleeding out".into(),
                "Unconscious".into(),
                "Exhausted".into(),
            ],
            ..AuraSheet::default()
        };
        s.apply(Edit::Aura(5)).unwrap();
        assert!(!s.has("Bleeding out"));
        assert!(s.has("Unconscious"), "waking is the GM's call");
        s.apply(Edit::Woken).unwrap();
        assert!(!s.has("Unconscious"));
    }

    #[test]
    fn numbers_are_kept_within_the_importers_ranges() {
        let mut s = AuraSheet::default();
        for e in [
            Edit::Score(0, 500),
            Edit::Level(-4),
            Edit::Mpl(1000),
            Edit::Size(9),
            Edit::Aura(-1),
            Edit::Stamina(20_000),
            Edit::ArmorPenalty(-3),
        ] {
            s.apply(e).unwrap();
        }
        assert_eq!(
            (s.scores[0], s.level, s.mpl, s.size),
            (S, 0, S, SIZES.len() - 1)
        );
        assert_eq!((s.aura, s.stamina, s.armor.penalty), (0, POOL_LIMIT, 0));
        assert_eq!(s.picks.len(), S as usize);
        s.validate().unwrap();
        assert!(s.apply(Edit::MplUp(Pick::Leg)).is_err());
    }

    #[test]
    fn a_weapon_is_added_within_its_ranges_or_refused() {
        let mut s = AuraSheet::default();
        let before = s.clone();
        let bad = Weapon {
            damage: "lots".into(),
            ..Weapon::default()
        };
        assert!(s.apply(Edit::AddWeapon(bad)).is_err());
        assert_eq!(s, before);
        s.apply(Edit::AddWeapon(Weapon {
            name: format!("  {}", "é".repeat(300)),
            precise: 40,
            range: [-1, 5, 99_999],
            ..Weapon::default()
        }))
        .unwrap();
        let w = s.weapons.last().unwrap();
        assert_eq!(w.name.chars().count(), NAME_LIMIT);
        assert_eq!((w.precise, w.range), (19, [0, 5, POOL_LIMIT]));
        s.validate().unwrap();
    }
}
