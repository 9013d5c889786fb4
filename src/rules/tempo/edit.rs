//! Every edit a Tempo sheet takes (Play's health, Edit's numbers, dice, bonuses and weapons,
//! a fight's write-back), each kept within what [`TempoSheet::validate`] accepts.

use super::actions::ACTIONS;
use super::sheet::{dice_ok, TempoSheet, Weapon, HEALTH_LIMIT, LIST_LIMIT, NAME_LIMIT, STAT_LIMIT};
use crate::rules::edit::Edits;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    Defence(i32),
    Armoured(i32),
    Grapple(i32),
    Movement(i32),
    /// Health now (Play's counter, Edit's field and a fight's write-back).
    Health(i32),
    HealthMax(i32),
    /// The table's check dice; refused unless the roller can roll them.
    Dice(String),
    /// The check bonus of an action (by its index in [`ACTIONS`]; only checked actions).
    Bonus(usize, i32),
    /// A weapon's AP cost for an action it prices: weapon, action (index in [`ACTIONS`]), AP.
    Cost(usize, usize, i32),
    /// A weapon's aimed accuracy.
    Aimed(usize, i32),
    /// A new weapon: its name and whether it is ranged.
    AddWeapon(String, bool),
    RemoveWeapon(usize),
    /// Kept as a non-player character.
    Npc(bool),
    /// Takes weapon `i` in hand: it becomes the first of its kind, the one a fight prices its
    /// actions by (an open fight takes the new prices through the shared "Weapons in hand").
    Wield(usize),
}

const S: i32 = STAT_LIMIT;

impl Edits for TempoSheet {
    type Edit = Edit;

    fn fight_action(e: &Edit) -> Option<&'static str> {
        Some(match e {
            Edit::Wield(_) => "taking a weapon in hand",
            _ => return None,
        })
    }

    fn apply(&mut self, e: Edit) -> Result<(), String> {
        let s = self;
        match e {
            Edit::Defence(v) => s.defence = v.clamp(-S, S),
            Edit::Armoured(v) => s.armoured = v.clamp(-S, S),
            Edit::Grapple(v) => s.grapple = v.clamp(-S, S),
            Edit::Movement(v) => s.movement = v.clamp(-S, S),
            Edit::Health(v) => s.health = v.clamp(-HEALTH_LIMIT, HEALTH_LIMIT),
            Edit::HealthMax(v) => s.health_max = v.clamp(0, HEALTH_LIMIT),
            Edit::Npc(on) => s.npc = on,
            Edit::Wield(i) => {
                if i < s.weapons.len() {
                    let w = s.weapons.remove(i);
                    let at = s
                        .weapons
                        .iter()
                        .position(|x| x.arm() == w.arm())
                        .unwrap_or(i);
                    s.weapons.insert(at.min(i), w);
                }
            }
            Edit::Dice(t) => {
                let t = t.trim();
                if !dice_ok(t) {
                    return Err("Not dice notation the app can roll (e.g. 1d10, 2d6)".into());
                }
                s.dice = t.to_owned();
            }
            Edit::Bonus(i, v) => {
                let a = ACTIONS
                    .get(i)
                    .filter(|a| a.check)
                    .ok_or("Only a checked action has a bonus")?;
                s.set_bonus(a.name, v);
            }
            Edit::Cost(w, i, v) => {
                let w = s.weapons.get_mut(w).ok_or("No such weapon")?;
                let a = ACTIONS
                    .get(i)
                    .filter(|a| a.arm == Some(w.arm()))
                    .ok_or("The weapon does not price that action")?;
                w.set_cost(a.name, v);
            }
            Edit::Aimed(w, v) => {
                s.weapons.get_mut(w).ok_or("No such weapon")?.aimed = v.clamp(-S, S)
            }
            Edit::AddWeapon(name, ranged) => {
                let name = crate::rules::edit::entry(&name, NAME_LIMIT);
                if name.is_empty() {
                    return Err("A weapon needs a name".into());
                }
                crate::rules::edit::room(s.weapons.len(), LIST_LIMIT, "weapons")?;
                s.weapons.push(Weapon::new(&name, ranged));
            }
            Edit::RemoveWeapon(i) => {
                if i >= s.weapons.len() {
                    return Err("No such weapon".into());
                }
                s.weapons.remove(i);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_kept_within_the_importers_ranges() {
        let mut s = TempoSheet::default();
        for e in [
            Edit::Defence(500),
            Edit::Health(-20_000),
            Edit::HealthMax(-3),
            Edit::Bonus(crate::rules::tempo::index("Parry").unwrap(), 1000),
            Edit::Aimed(0, -1000),
            Edit::Cost(0, crate::rules::tempo::index("Feint").unwrap(), -5),
        ] {
            s.apply(e).unwrap();
        }
        assert_eq!((s.defence, s.health, s.health_max), (S, -HEALTH_LIMIT, 0));
        assert_eq!((s.bonus("Parry"), s.weapons[0].aimed), (S, -S));
        assert_eq!(s.weapons[0].cost("Feint"), 0);
        s.validate().unwrap();
    }

    #[test]
    fn what_the_sheet_cannot_hold_is_refused() {
        let mut s = TempoSheet::default();
        let before = s.clone();
        assert!(s.apply(Edit::Dice("banana".into())).is_err());
        assert!(s.apply(Edit::AddWeapon("  ".into(), false)).is_err());
        let ranged = crate::rules::tempo::index("Ranged Attack").unwrap();
        assert!(s.apply(Edit::Cost(0, ranged, 2)).is_err(), "a sword");
        assert!(s.apply(Edit::RemoveWeapon(1)).is_err());
        assert_eq!(s, before);
        s.apply(Edit::Dice(" 2d6 ".into())).unwrap();
        assert_eq!(s.dice, "2d6");
    }
}
