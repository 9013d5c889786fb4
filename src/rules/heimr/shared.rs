//! What a Heimr character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | HP | hit points | HP (lower: damage with its injuries and dying clocks) | both |
//! | Willpower | current willpower | the Willpower stat (initiative's P, spent on luck) | both |
//! | Fatigue | fatigue | the Fatigue stat (rises after rolls) | both |
//! | Conditions | the conditions list | the body's conditions below, with time left | both |
//! | Dead | "Dead" in the conditions | dead | both |
//!
//! Tactical states of one turn (readied, dodging, guarding, an ongoing action, a blind spot,
//! terrain, climbing, hidden) stay in the fight.

use super::combat::{FATIGUE, WILL};
use super::{Edit, HeimrSheet, DEAD};
use crate::rules::edit::{Edits, ListEdit};
use crate::rules::encounter::shared::{
    bring_conditions, dead, dead_to, fight_conditions, hp, hp_to, sheet_conditions, write_list,
    Flow, Linked, Shared, Value,
};
use crate::rules::encounter::{Combatant, Event, State};

/// The fight's conditions a sheet lists.
pub const SHARED_CONDITIONS: &[&str] = &[
    "Prone",
    "Fallen",
    "Dropped",
    "Stumbling",
    "Dazed",
    "No defence",
    "Weakened",
    "Grabbed",
    "Bound hands",
    "Bound arm",
    "Bound feet",
    "Bound leg",
    "Bound body",
    "Injured arm",
    "Injured leg",
    "Injured torso",
    "Unconscious",
    "Fading",
    "Bleeding out",
];

fn set(s: &mut HeimrSheet, e: Edit) {
    let _ = s.apply(e);
}

fn stat_to(i: usize) -> impl Fn(&State, &Combatant, &Value) -> Vec<Event> {
    move |_, c, v| {
        if c.stat(i) == v.num() {
            Vec::new()
        } else {
            vec![Event::Set(c.id, i, v.num())]
        }
    }
}

impl Linked for HeimrSheet {
    const SHARED: &'static [Shared<Self>] = &[
        Shared {
            name: "HP",
            flow: Flow::Both,
            sheet: |s| Value::Num(s.hp),
            fight: hp,
            write: |s, v| set(s, Edit::Hp(v.num())),
            bring: hp_to,
        },
        Shared {
            name: "Willpower",
            flow: Flow::Both,
            sheet: |s| Value::Num(s.willpower),
            fight: |_, c| Value::Num(c.stat(WILL)),
            write: |s, v| set(s, Edit::Willpower(v.num())),
            bring: |s, c, v| stat_to(WILL)(s, c, v),
        },
        Shared {
            name: "Fatigue",
            flow: Flow::Both,
            sheet: |s| Value::Num(s.fatigue),
            fight: |_, c| Value::Num(c.stat(FATIGUE)),
            write: |s, v| set(s, Edit::Fatigue(v.num())),
            bring: |s, c, v| stat_to(FATIGUE)(s, c, v),
        },
        Shared {
            name: "Conditions",
            flow: Flow::Both,
            sheet: |s| sheet_conditions(&s.conditions, SHARED_CONDITIONS, true),
            fight: |s, c| fight_conditions(s, c, SHARED_CONDITIONS, true),
            write: |s, v| {
                write_list(
                    s,
                    |s| &s.conditions,
                    SHARED_CONDITIONS,
                    true,
                    v,
                    |s, i| set(s, Edit::Conditions(ListEdit::Remove(i))),
                    |s, n| set(s, Edit::Conditions(ListEdit::Add(n))),
                )
            },
            bring: |s, c, v| bring_conditions(s, c, v, SHARED_CONDITIONS, true),
        },
        Shared {
            name: "Dead",
            flow: Flow::Both,
            sheet: |s| Value::Flag(s.conditions.iter().any(|c| c == DEAD)),
            fight: dead,
            write: |s, v| set(s, Edit::Dead(v.flag())),
            bring: dead_to,
        },
    ];
}
