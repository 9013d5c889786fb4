//! Every edit a Bo Vogt sheet takes (Play, Edit, the rests and the dismemberment table, a
//! fight's write-back), each kept within what [`VogtSheet::validate`] accepts.

use super::ladder::{parse_dice, TOP};
use super::sheet::{
    broken_line, dismemberment, Item, Skill, VogtSheet, ARMOR, DISMEMBERMENT, STATUSES, STAT_LIMIT,
    TECH_DIES, TECH_LIMIT,
};
use crate::rules::edit::{entry, Edits, ListEdit, ENTRY_LIMIT, LIST_LIMIT};

/// The most hands a sheet keeps.
pub const HANDS_LIMIT: i32 = 10;
/// An item's limits: slots it takes, how many, how many to a slot.
pub const ITEM_SLOTS: u32 = 100;
pub const ITEM_COUNT: u32 = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// An ability's rung (by [`super::Ability::index`]).
    Ability(usize, i32),
    /// HP as typed (a correction: no rule follows).
    Hp(i32),
    /// Damage taken: HP down (below 0 too); left at 0 or less, a level of exhaustion and prone.
    Damage(i32),
    HpMax(i32),
    Ar(i32),
    Movement(i32),
    Hands(i32),
    /// How many technique dice; those spent never exceed them.
    TechniqueDice(i32),
    /// The technique die's size (4, 6, 8, 10 or 12).
    TechniqueDie(i32),
    /// Technique dice left (the Play counter).
    TechniqueLeft(i32),
    Exhaustion(i32),
    Bag(bool),
    Dead(bool),
    /// Toggles a status of [`STATUSES`] by its index.
    Status(usize),
    Resistances(ListEdit),
    Vulnerabilities(ListEdit),
    Injuries(ListEdit),
    AddSkill(Skill),
    RemoveSkill(usize),
    AddItem(Item),
    RemoveItem(usize),
    /// Into or out of a quick slot.
    ToggleQuick(usize),
    /// A siesta (1 h).
    Siesta,
    /// A full rest (8 h).
    FullRest,
    /// A d8 on the death and dismemberment table (6 or more: dead); it counts as the roll of a
    /// level due ([`VogtSheet::table_due`]).
    Dismember(u32),
    /// The levels rolled for on the table (a fight's count written back).
    TableRolls(i32),
    /// What a "weapon or armor breaks" line was: the item of this index, or the armour (`None`).
    Break(Option<usize>),
}

impl Edits for VogtSheet {
    type Edit = Edit;

    fn fight_action(e: &Edit) -> Option<&'static str> {
        Some(match e {
            Edit::Dismember(_) => "the death and dismemberment roll",
            Edit::Siesta | Edit::FullRest => "a rest",
            _ => return None,
        })
    }

    fn apply(&mut self, e: Edit) -> Result<(), String> {
        let s = self;
        match e {
            Edit::Ability(i, v) => {
                *s.abilities.get_mut(i).ok_or("No such ability")? = v.clamp(0, TOP)
            }
            Edit::Hp(v) => s.set_hp(v),
            Edit::Damage(v) => {
                s.take(v);
            }
            Edit::HpMax(v) => s.set_hp_max(v),
            Edit::Ar(v) => s.ar = v.clamp(0, STAT_LIMIT),
            Edit::Movement(v) => s.movement = v.clamp(0, STAT_LIMIT),
            Edit::Hands(v) => s.hands = v.clamp(0, HANDS_LIMIT) as u32,
            Edit::TechniqueDice(v) => {
                s.technique_dice = v.clamp(0, TECH_LIMIT);
                s.technique_spent = s.technique_spent.min(s.technique_dice);
            }
            Edit::TechniqueDie(v) => {
                let d = u32::try_from(v).ok().filter(|d| TECH_DIES.contains(d));
                s.technique_die = d.ok_or_else(|| format!("d{v} is not a technique die"))?;
            }
            Edit::TechniqueLeft(v) => {
                s.technique_spent = s
                    .technique_dice
                    .saturating_sub(v)
                    .clamp(0, s.technique_dice)
            }
            Edit::Exhaustion(v) => s.set_exhaustion(v.max(0) as u32),
            Edit::Bag(on) => s.bag = on,
            Edit::Dead(on) => s.dead = on,
            Edit::Status(i) => {
                let st = STATUSES.get(i).ok_or("No such status")?.name;
                if s.has(st) {
                    s.statuses.retain(|x| !x.eq_ignore_ascii_case(st));
                } else {
                    crate::rules::edit::room(s.statuses.len(), LIST_LIMIT, "statuses")?;
                    s.statuses.push(st.into());
                }
            }
            Edit::Resistances(l) => l.apply(&mut s.resistances)?,
            Edit::Vulnerabilities(l) => l.apply(&mut s.vulnerabilities)?,
            Edit::Injuries(l) => l.apply(&mut s.injuries)?,
            Edit::AddSkill(mut k) => {
                k.name = entry(&k.name, ENTRY_LIMIT);
                if k.name.is_empty() {
                    return Err("A skill needs a name".into());
                }
                crate::rules::edit::room(s.skills.len(), LIST_LIMIT, "skills")?;
                k.bonus = k.bonus.clamp(-STAT_LIMIT, STAT_LIMIT);
                s.skills.push(k);
            }
            Edit::RemoveSkill(i) => {
                if i < s.skills.len() {
                    s.skills.remove(i);
                }
            }
            Edit::AddItem(mut it) => {
                it.name = entry(&it.name, ENTRY_LIMIT);
                if it.name.is_empty() {
                    return Err("An item needs a name".into());
                }
                it.damage = it.damage.trim().into();
                if !it.damage.is_empty() && parse_dice(&it.damage).is_none() {
                    return Err(format!("Damage “{}” is not dice like 1d8", it.damage));
                }
                crate::rules::edit::room(s.items.len(), LIST_LIMIT, "items")?;
                it.dtype = entry(&it.dtype, ENTRY_LIMIT);
                it.slots = it.slots.min(ITEM_SLOTS);
                it.count = it.count.clamp(1, ITEM_COUNT);
                it.per_slot = it.per_slot.clamp(1, ITEM_COUNT);
                s.items.push(it);
            }
            Edit::RemoveItem(i) => {
                if i < s.items.len() {
                    s.items.remove(i);
                }
            }
            Edit::ToggleQuick(i) => {
                let it = s.items.get_mut(i).ok_or("No such item")?;
                it.quick = !it.quick;
            }
            Edit::Siesta => s.siesta(),
            Edit::FullRest => s.full_rest(),
            Edit::TableRolls(v) => s.set_table_rolls(v),
            Edit::Dismember(d8) => {
                let line = dismemberment(d8);
                if d8 >= 6 {
                    s.dead = true;
                } else {
                    // Every roll is a line of its own: a second arm is a second arm lost.
                    crate::rules::edit::room(s.injuries.len(), LIST_LIMIT, "injuries")?;
                    s.injuries.push(line.into());
                    if d8 == 5 && !s.has("Mute") {
                        s.statuses.push("Mute".into());
                    }
                }
                s.set_table_rolls(s.table_rolls as i32 + 1);
            }
            Edit::Break(item) => {
                let at = s
                    .injuries
                    .iter()
                    .position(|x| x == DISMEMBERMENT[0])
                    .ok_or("Nothing broke: roll 1 on the table first")?;
                let thing = match item {
                    Some(i) => {
                        let it = s.items.get(i).filter(|it| it.weapon_dice().is_some());
                        it.ok_or("No such weapon")?.name.clone()
                    }
                    None => ARMOR.into(),
                };
                s.injuries[at] = broken_line(&thing);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_clamped_and_bad_dice_refused() {
        let mut s = VogtSheet::default();
        s.apply(Edit::Ability(0, 99)).unwrap();
        s.apply(Edit::Hands(-3)).unwrap();
        s.apply(Edit::TechniqueLeft(i32::MIN)).unwrap();
        assert_eq!((s.abilities[0], s.hands, s.technique_spent), (TOP, 0, 2));
        assert!(s.apply(Edit::TechniqueDie(7)).is_err());
        assert_eq!(s.technique_die, 6);
        s.apply(Edit::Status(0)).unwrap();
        s.apply(Edit::Status(0)).unwrap();
        assert!(s.statuses.is_empty());
        s.validate().unwrap();
    }

    /// Corrected (review #7): this test asserted "a lost eye is lost once"; every roll is a
    /// line of its own (a character has two eyes, two arms), and 5 makes the sheet mute.
    #[test]
    fn the_table_adds_injuries_and_kills_from_6() {
        let mut s = VogtSheet::default();
        s.apply(Edit::Dismember(3)).unwrap();
        s.apply(Edit::Dismember(3)).unwrap();
        assert_eq!(s.injuries.len(), 2, "each eye is lost on its own roll");
        s.apply(Edit::Dismember(5)).unwrap();
        assert!(s.has("Mute"));
        s.apply(Edit::Dismember(8)).unwrap();
        assert!(s.dead);
    }
}
