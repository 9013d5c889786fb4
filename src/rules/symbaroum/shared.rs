//! What a Symbaroum character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | Toughness | current toughness | Toughness (lower: damage, dying at 0) | both |
//! | Death steps | death tests failed so far | death steps | both |
//! | Dead | dead | dead | both |
//! | Toughness max | Strong (at least 10) | the maximum (brought before the others) | to the fight |
//! | Pain threshold | Strong / 2, rounded up | the pain threshold | to the fight |
//!
//! The sheet keeps no conditions (the rules' paper sheet has none): being prone, flanked,
//! unaware, surprised, blinded or on higher ground stays in the fight.

use super::combat::{PAIN, TOUGHNESS_MAX};
use super::{Edit, SymbaroumSheet};
use crate::rules::edit::Edits;
use crate::rules::encounter::shared::{
    dead_value, death_value, hp_value, stat, stat_to, Flow, Linked, Shared, Value,
};
use crate::rules::encounter::{Combatant, State};

fn set(s: &mut SymbaroumSheet, e: Edit) {
    let _ = s.apply(e);
}

impl Linked for SymbaroumSheet {
    const SHARED: &'static [Shared<Self>] = &[
        hp_value(
            "Toughness",
            |s| Value::Num(s.toughness),
            |s, v| set(s, Edit::Toughness(v.num())),
        ),
        death_value(
            "Death steps",
            |s| Value::Num(s.death_steps as i32),
            |s, v| set(s, Edit::DeathSteps(v.num().max(0) as u32)),
        ),
        dead_value(|s| Value::Flag(s.dead), |s, v| set(s, Edit::Dead(v.flag()))),
        Shared {
            name: "Toughness max",
            flow: Flow::ToFight,
            sheet: |s| Value::Num(s.toughness_max()),
            fight: max,
            write: |_, _| {},
            bring: stat_to::<TOUGHNESS_MAX>,
        },
        Shared {
            name: "Pain threshold",
            flow: Flow::ToFight,
            sheet: |s| Value::Num(s.pain_threshold()),
            fight: stat::<PAIN>,
            write: |_, _| {},
            bring: stat_to::<PAIN>,
        },
    ];
}

/// The fight's maximum now (the sheet's once it has set it, else the one it joined with).
fn max(s: &State, c: &Combatant) -> Value {
    Value::Num(s.rules.hp_max(c))
}
