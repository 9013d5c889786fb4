//! Every edit a Symbaroum-style sheet takes (Play, Edit, Advance, a death test, healing, damage
//! from another sheet's roll, a fight's write-back), each kept within what
//! [`SymbaroumSheet::validate`] accepts.

use super::rolls::DeathOutcome;
use super::sheet::{Level, SAbility, Shield, SymbaroumSheet, Weapon};
use crate::rules::dice::parse;
use crate::rules::edit::{entry, Edits, ListEdit, ENTRY_LIMIT, LIST_LIMIT};

/// The attribute range the importer accepts (5…15 usual, 1…20 for NPCs).
pub const ATTR_RANGE: (i32, i32) = (1, 20);
/// The highest armor impeding value a sheet keeps.
pub const IMPEDING_LIMIT: i32 = 100;
/// The highest corruption (each kind) a sheet keeps.
pub const CORRUPTION_LIMIT: i32 = 1000;
/// The most experience a sheet keeps.
pub const EXPERIENCE_LIMIT: i32 = 100_000;
/// The toughness range the importer accepts.
pub const TOUGHNESS_LIMIT: i32 = 1000;
/// Death-test steps: the third is fatal.
pub const DEATH_STEPS: u32 = 3;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// An attribute's value (by [`super::SAttr::index`]).
    Attribute(usize, i32),
    /// Current toughness, between 0 and the maximum.
    Toughness(i32),
    Npc(bool),
    ArmorName(String),
    /// The armor's protection roll: dice notation, or blank for none.
    ArmorProtection(String),
    ArmorImpeding(i32),
    Shield(Shield),
    /// The attribute Defense is figured from.
    DefenseFrom(super::SAttr),
    AddWeapon(Weapon),
    RemoveWeapon(usize),
    CorruptionTemporary(i32),
    CorruptionPermanent(i32),
    Experience(i32),
    Equipment(ListEdit),
    /// Learns an ability at novice (10 XP).
    Learn(String),
    /// Raises an ability one level (its cost in XP).
    Raise(usize),
    /// Undoes a `Learn`: forgets the ability.
    Unlearn(usize),
    /// Undoes a `Raise`: one level down (a novice stays).
    Lower(usize),
    /// Damage after armor from another character's roll.
    Damage(i32),
    /// Healing that stabilizes (herbal cure, Medicus, mystical healing).
    Heal(i32),
    /// A day's rest: refused while dying (it does not stabilize).
    HealNatural(i32),
    /// A death test's d20 and what it did.
    DeathTest(u32, DeathOutcome),
    /// "Undo: not dead".
    NotDead,
    /// A fight's write-back: death-test steps and death.
    DeathSteps(u32),
    Dead(bool),
}

impl Edits for SymbaroumSheet {
    type Edit = Edit;

    fn fight_action(e: &Edit) -> Option<&'static str> {
        Some(match e {
            Edit::DeathTest(..) => "the death test",
            Edit::HealNatural(_) => "a day’s rest",
            _ => return None,
        })
    }

    /// What earlier versions let a phone store: toughness above its maximum (a Strong
    /// lowered before the toughness followed it; SPEC decision 10) or below 0.
    fn repair(&mut self) {
        self.toughness = self.toughness.clamp(0, self.toughness_max());
    }

    fn apply(&mut self, e: Edit) -> Result<(), String> {
        let s = self;
        match e {
            Edit::Attribute(i, v) => {
                *s.attributes.get_mut(i).ok_or("No such attribute")? =
                    v.clamp(ATTR_RANGE.0, ATTR_RANGE.1);
                // A lower Strong lowers the maximum; current toughness follows it down.
                s.toughness = s.toughness.min(s.toughness_max());
            }
            Edit::Toughness(v) => s.set_toughness(v),
            Edit::Npc(on) => s.npc = on,
            Edit::ArmorName(n) => s.armor_name = entry(&n, ENTRY_LIMIT),
            Edit::ArmorProtection(p) => {
                let p = p.trim();
                if !p.is_empty() {
                    parse(p).map_err(|e| format!("Protection “{p}” is not a roll: {e}"))?;
                }
                s.armor_protection = p.into();
            }
            Edit::ArmorImpeding(v) => s.armor_impeding = v.clamp(0, IMPEDING_LIMIT),
            Edit::Shield(sh) => s.shield = sh,
            Edit::DefenseFrom(a) => s.defense_from = a,
            Edit::AddWeapon(mut w) => {
                w.name = entry(&w.name, ENTRY_LIMIT);
                if w.name.is_empty() {
                    return Err("A weapon needs a name".into());
                }
                w.damage = w.damage.trim().into();
                parse(&w.damage)
                    .map_err(|e| format!("Damage “{}” is not a roll: {e}", w.damage))?;
                crate::rules::edit::room(s.weapons.len(), LIST_LIMIT, "weapons")?;
                let mut seen = Vec::new();
                w.qualities.retain(|q| {
                    let new = !seen.contains(q);
                    seen.push(*q);
                    new
                });
                s.weapons.push(w);
            }
            Edit::RemoveWeapon(i) => {
                if i < s.weapons.len() {
                    s.weapons.remove(i);
                }
            }
            Edit::CorruptionTemporary(v) => {
                s.corruption_temporary = v.clamp(0, CORRUPTION_LIMIT) as u32
            }
            Edit::CorruptionPermanent(v) => {
                s.corruption_permanent = v.clamp(0, CORRUPTION_LIMIT) as u32
            }
            Edit::Experience(v) => s.experience = v.clamp(0, EXPERIENCE_LIMIT) as u32,
            Edit::Equipment(l) => l.apply(&mut s.equipment)?,
            Edit::Learn(name) => {
                let name = entry(&name, ENTRY_LIMIT);
                if name.is_empty() {
                    return Err("An ability needs a name".into());
                }
                crate::rules::edit::room(s.abilities.len(), LIST_LIMIT, "abilities")?;
                if s.experience_left() < i64::from(Level::Novice.total_cost()) {
                    return Err("Not enough experience".into());
                }
                s.abilities.push(SAbility {
                    name,
                    level: Level::Novice,
                });
            }
            Edit::Raise(i) => {
                let left = s.experience_left();
                let a = s.abilities.get_mut(i).ok_or("No such ability")?;
                let next = a.level.next().ok_or("Already a master")?;
                if left < i64::from(next.total_cost() - a.level.total_cost()) {
                    return Err("Not enough experience".into());
                }
                a.level = next;
            }
            Edit::Unlearn(i) => {
                if i >= s.abilities.len() {
                    return Err("No such ability".into());
                }
                s.abilities.remove(i);
            }
            Edit::Lower(i) => {
                let a = s.abilities.get_mut(i).ok_or("No such ability")?;
                a.level = match a.level {
                    Level::Master => Level::Adept,
                    Level::Adept => Level::Novice,
                    Level::Novice => return Err("A novice cannot go lower".into()),
                };
            }
            Edit::Damage(d) => s.take_damage(d),
            Edit::Heal(v) => s.heal(v),
            Edit::HealNatural(v) => {
                if !s.heal_natural(v) {
                    return Err(
                        "A day's rest does not stabilize a dying character: use a herbal cure, Medicus or mystical healing."
                            .into(),
                    );
                }
            }
            Edit::DeathTest(d20, outcome) => match outcome {
                DeathOutcome::Wakes(t) => {
                    s.set_toughness(t.min(TOUGHNESS_LIMIT as u32) as i32);
                    s.death_steps = 0;
                }
                DeathOutcome::Nothing => {}
                DeathOutcome::Closer { steps } => s.death_steps = steps.min(DEATH_STEPS),
                DeathOutcome::Dies => {
                    // A 20 kills outright; an 11–19 is the third step.
                    s.dead = true;
                    if d20 != 20 {
                        s.death_steps = DEATH_STEPS;
                    }
                }
            },
            Edit::NotDead => {
                s.dead = false;
                s.death_steps = 0;
            }
            Edit::DeathSteps(n) => s.death_steps = n.min(DEATH_STEPS),
            Edit::Dead(d) => s.dead = d,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_clamped_and_bad_rolls_refused() {
        let mut s = SymbaroumSheet::default();
        s.apply(Edit::Attribute(0, 0)).unwrap();
        s.apply(Edit::ArmorImpeding(-4)).unwrap();
        s.apply(Edit::DeathSteps(9)).unwrap();
        assert_eq!(
            (s.attributes[0], s.armor_impeding, s.death_steps),
            (1, 0, 3)
        );
        assert!(s.apply(Edit::ArmorProtection("1d".into())).is_err());
        s.apply(Edit::ArmorProtection(" 1d4 ".into())).unwrap();
        assert_eq!(s.armor_protection, "1d4");
        assert!(s.apply(Edit::Attribute(8, 10)).is_err());
        s.validate().unwrap();
    }

    #[test]
    fn learning_and_raising_cost_experience_and_undo() {
        let mut s = SymbaroumSheet {
            experience: 30,
            ..Default::default()
        };
        s.apply(Edit::Learn(" Medicus ".into())).unwrap();
        s.apply(Edit::Raise(0)).unwrap();
        assert_eq!(s.experience_left(), 0);
        assert!(s.apply(Edit::Learn("Recovery".into())).is_err());
        s.apply(Edit::Lower(0)).unwrap();
        s.apply(Edit::Unlearn(0)).unwrap();
        assert_eq!(s.experience_left(), 30);
    }

    /// N3: a lower Strong lowers the maximum, and current toughness follows it down.
    #[test]
    fn symbaroum_n3_toughness_follows_a_lowered_strong() {
        let mut s = SymbaroumSheet::default();
        let strong = crate::rules::symbaroum::SAttr::Strong.index();
        s.apply(Edit::Attribute(strong, 14)).unwrap();
        s.apply(Edit::Toughness(14)).unwrap();
        s.apply(Edit::Attribute(strong, 11)).unwrap();
        assert_eq!((s.toughness, s.toughness_max()), (11, 11));
        // Raised again, the maximum rises; toughness stays until healed.
        s.apply(Edit::Attribute(strong, 14)).unwrap();
        assert_eq!((s.toughness, s.toughness_max()), (11, 14));
        s.validate().unwrap();
    }

    /// #2: an NPC's sheet at 0 is dead, not dying (no death tests); a player character's is
    /// dying. An NPC kept at 0 by an older app joins a fight dead.
    #[test]
    fn symbaroum_r2_an_npc_sheet_at_zero_is_dead() {
        let mut npc = SymbaroumSheet {
            npc: true,
            toughness: 4,
            ..SymbaroumSheet::default()
        };
        npc.apply(Edit::Toughness(-2)).unwrap();
        assert_eq!((npc.toughness, npc.dead, npc.dying()), (0, true, false));
        let mut pc = SymbaroumSheet {
            toughness: 4,
            ..SymbaroumSheet::default()
        };
        pc.take_damage(6);
        assert_eq!((pc.toughness, pc.dead, pc.dying()), (0, false, true));
        let old = SymbaroumSheet {
            npc: true,
            toughness: 0,
            ..SymbaroumSheet::default()
        };
        let c = crate::rules::symbaroum::combat::combatant("Ghoul", &old, false, None);
        assert!(c.dead);
    }
}
