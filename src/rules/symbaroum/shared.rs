//! What a Symbaroum character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | Toughness | current toughness | Toughness (lower: damage, dying at 0) | both |
//! | Death steps | death tests failed so far | death steps | both |
//! | Dead | dead | dead | both |
//!
//! The sheet keeps no conditions (the rules' paper sheet has none): being prone, flanked,
//! unaware, surprised, blinded or on higher ground stays in the fight.

use super::{Edit, SymbaroumSheet};
use crate::rules::edit::Edits;
use crate::rules::encounter::shared::{dead_value, death_value, hp_value, Linked, Shared, Value};

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
    ];
}
