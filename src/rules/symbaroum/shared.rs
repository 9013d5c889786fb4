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
use crate::rules::encounter::shared::{
    dead, dead_to, death, death_to, hp, hp_to, Flow, Linked, Shared, Value,
};

fn set(s: &mut SymbaroumSheet, e: Edit) {
    let _ = s.apply(e);
}

impl Linked for SymbaroumSheet {
    const SHARED: &'static [Shared<Self>] = &[
        Shared {
            name: "Toughness",
            flow: Flow::Both,
            sheet: |s| Value::Num(s.toughness),
            fight: hp,
            write: |s, v| set(s, Edit::Toughness(v.num())),
            bring: hp_to,
        },
        Shared {
            name: "Death steps",
            flow: Flow::Both,
            sheet: |s| Value::Num(s.death_steps as i32),
            fight: death,
            write: |s, v| set(s, Edit::DeathSteps(v.num().max(0) as u32)),
            bring: death_to,
        },
        Shared {
            name: "Dead",
            flow: Flow::Both,
            sheet: |s| Value::Flag(s.dead),
            fight: dead,
            write: |s, v| set(s, Edit::Dead(v.flag())),
            bring: dead_to,
        },
    ];
}
