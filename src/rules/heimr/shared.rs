//! What a Heimr character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | HP | hit points | HP (lower: damage with its injuries and dying clocks) | both |
//! | Willpower | current willpower | the Willpower stat (initiative's P, spent on luck) | both |
//! | Fatigue | fatigue | the Fatigue stat (rises after rolls; a rise from the sheet in a running fight is the turn's one rise: refused once spent) | both |
//! | Conditions | the conditions list | the body's conditions below, with time left | both |
//! | Dead | "Dead" in the conditions | dead | both |
//! | HP max | maximum hit points | the HP max stat (`HEIMR.max_stat`) | to the fight |
//!
//! Tactical states of one turn (readied, dodging, guarding, an ongoing action, a blind spot,
//! terrain, climbing, hidden) stay in the fight.

use super::combat::{sheet_fatigue_events, FATIGUE, HP_MAX, WILL};
use super::{Edit, HeimrSheet, DEAD};
use crate::rules::edit::{Edits, ListEdit};
use crate::rules::encounter::shared::{
    both, bring_conditions, dead_value, fight_conditions, hp_value, sheet_conditions, stat,
    stat_to, write_list, Flow, Linked, Shared, Value,
};

/// The fight's conditions a sheet lists.
pub const SHARED_CONDITIONS: &[&str] = &[
    "Prone",
    "Fallen",
    "Dropped",
    "Stumbling",
    "Dazed",
    "No defence",
    "Weakened",
    "Grabbing",
    "Helpless",
    "Sleeping",
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

impl Linked for HeimrSheet {
    const SHARED: &'static [Shared<Self>] = &[
        hp_value("HP", |s| Value::Num(s.hp), |s, v| set(s, Edit::Hp(v.num()))),
        both(
            "Willpower",
            |s| Value::Num(s.willpower),
            |s, v| set(s, Edit::Willpower(v.num())),
            stat::<WILL>,
            stat_to::<WILL>,
        ),
        both(
            "Fatigue",
            |s| Value::Num(s.fatigue),
            |s, v| set(s, Edit::Fatigue(v.num())),
            stat::<FATIGUE>,
            |s, c, v| sheet_fatigue_events(s, c, v.num()),
        ),
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
        dead_value(
            |s| Value::Flag(s.conditions.iter().any(|c| c == DEAD)),
            |s, v| set(s, Edit::Dead(v.flag())),
        ),
        // Only the sheet sets the maximum; brought first, so the HP after it is measured
        // against it (healing to a raised maximum is not capped at the old one).
        Shared {
            name: "HP max",
            flow: Flow::ToFight,
            sheet: |s| Value::Num(s.hp_max),
            fight: |s, c| Value::Num(s.rules.hp_max(c)),
            write: |_, _| {},
            bring: stat_to::<HP_MAX>,
        },
    ];
}
