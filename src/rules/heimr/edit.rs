//! Every edit a Heimr sheet takes (Play, Edit, Advance, a roll's fatigue, a fight's write-back),
//! each kept within what [`HeimrSheet::validate`] accepts.

use super::sheet::{
    progress_required, Ability, Attr, HeimrSheet, ATTR_LIMIT, FATIGUE_MAX, FATIGUE_MIN,
    TRAIN_LIMIT, XP_LIMIT,
};
use super::{train, undo_last, Track};
use crate::rules::edit::{entry, Edits, ListEdit, ENTRY_LIMIT};

/// The hit point range a sheet keeps (a fight may go further; the sheet keeps the nearest).
pub const HP_LIMIT: i32 = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    Hp(i32),
    HpMax(i32),
    Willpower(i32),
    WillpowerMax(i32),
    Fatigue(i32),
    /// A breather out of a fight: fatigue back to its base in one step (in a fight, taking a
    /// breather is the fight's own ongoing action, −2).
    Breather,
    /// A short rest: hit points back to the maximum; refused below 1 HP
    /// ([`HeimrSheet::short_rest_refusal`]).
    ShortRest,
    /// A willpower point spent on a reroll.
    SpendWillpower,
    /// An attribute's value (by [`Attr::index`]); its progress is kept below the next step.
    Attribute(usize, i32),
    AbilityBase(usize, i32),
    AbilityTrainedC(usize, i32),
    AbilityTrainedP(usize, i32),
    AddAbility(Ability),
    /// Removes an added ability (the six standard ones stay).
    RemoveAbility(usize),
    Skills(ListEdit),
    Items(ListEdit),
    Conditions(ListEdit),
    Xp(i32),
    Train(usize, Track, Attr),
    UndoPurchase,
    /// A death (or its undoing) from a fight, kept as the "Dead" condition.
    Dead(bool),
}

/// The condition a sheet keeps a death as.
pub const DEAD: &str = "Dead";

impl Edits for HeimrSheet {
    type Edit = Edit;

    fn fight_action(e: &Edit) -> Option<&'static str> {
        Some(match e {
            Edit::Breather => "the breather",
            Edit::ShortRest => "a short rest",
            _ => return None,
        })
    }

    fn apply(&mut self, e: Edit) -> Result<(), String> {
        let s = self;
        match e {
            Edit::Hp(v) => s.hp = v.clamp(-HP_LIMIT, HP_LIMIT),
            Edit::HpMax(v) => s.hp_max = v.clamp(0, HP_LIMIT),
            Edit::Willpower(v) => s.willpower = v.clamp(0, 1000),
            Edit::WillpowerMax(v) => s.willpower_max = v.clamp(0, 1000),
            Edit::Fatigue(v) => s.fatigue = v.clamp(FATIGUE_MIN, FATIGUE_MAX),
            Edit::Breather => {
                let base = s.base_fatigue().min(FATIGUE_MAX);
                s.fatigue = s.fatigue.min(base);
            }
            Edit::ShortRest => {
                if let Some(why) = s.short_rest_refusal() {
                    return Err(why.into());
                }
                s.hp = s.hp.max(s.hp_max.min(HP_LIMIT));
            }
            Edit::SpendWillpower => {
                if s.willpower < 1 {
                    return Err("No willpower left to spend".into());
                }
                s.willpower -= 1;
            }
            Edit::Attribute(i, v) => {
                let a = s.attributes.get_mut(i).ok_or("No such attribute")?;
                a.value = v.clamp(-ATTR_LIMIT, ATTR_LIMIT);
                a.progress = a.progress.min(progress_required(a.value + 1) - 1);
            }
            Edit::AbilityBase(i, v) => ability(s, i)?.base_consistency = v.clamp(-2, 3),
            Edit::AbilityTrainedC(i, v) => {
                ability(s, i)?.trained_consistency = v.clamp(0, TRAIN_LIMIT as i32) as u32
            }
            Edit::AbilityTrainedP(i, v) => {
                ability(s, i)?.trained_potential = v.clamp(0, TRAIN_LIMIT as i32) as u32
            }
            Edit::AddAbility(mut ab) => {
                ab.name = entry(&ab.name, ENTRY_LIMIT);
                if ab.name.is_empty() {
                    return Err("An ability needs a name".into());
                }
                if ab.attrs.is_empty() {
                    return Err("An ability needs a governing attribute".into());
                }
                crate::rules::order::sort(&mut ab.attrs);
                ab.attrs.dedup();
                ab.base_consistency = ab.base_consistency.clamp(-2, 3);
                ab.trained_consistency = ab.trained_consistency.min(TRAIN_LIMIT);
                ab.trained_potential = ab.trained_potential.min(TRAIN_LIMIT);
                s.abilities.push(ab);
            }
            Edit::RemoveAbility(i) => {
                if i < super::STANDARD_ABILITIES.len() || i >= s.abilities.len() {
                    return Err("Only an added ability can be removed".into());
                }
                s.abilities.remove(i);
            }
            Edit::Skills(l) => l.apply(&mut s.skills)?,
            Edit::Items(l) => l.apply(&mut s.items)?,
            Edit::Conditions(l) => l.apply(&mut s.conditions)?,
            Edit::Xp(v) => s.xp = v.clamp(0, XP_LIMIT as i32) as u32,
            Edit::Train(i, track, attr) => {
                train(s, i, track, attr).map_err(|e| format!("Not bought: {e}"))?;
            }
            Edit::UndoPurchase => {
                undo_last(s).map_err(|e| format!("Cannot undo: {e}"))?;
            }
            Edit::Dead(dead) => {
                s.conditions.retain(|c| c != DEAD);
                if dead {
                    s.conditions.push(DEAD.into());
                }
            }
        }
        Ok(())
    }

    /// What earlier versions let a player store: an attribute lowered below its progress, XP
    /// given back past the limit by an undo, hit points written back from a fight.
    fn repair(&mut self) {
        for a in &mut self.attributes {
            a.value = a.value.clamp(-ATTR_LIMIT, ATTR_LIMIT);
            a.progress = a.progress.min(progress_required(a.value + 1) - 1);
        }
        self.xp = self.xp.min(XP_LIMIT);
        self.hp = self.hp.clamp(-HP_LIMIT, HP_LIMIT);
        self.fatigue = self.fatigue.clamp(FATIGUE_MIN, FATIGUE_MAX);
    }
}

fn ability(s: &mut HeimrSheet, i: usize) -> Result<&mut Ability, String> {
    s.abilities
        .get_mut(i)
        .ok_or_else(|| "No such ability".into())
}
