//! What an Energy / Aura character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | Aura | current aura | Aura (lower: damage; a death roll due at 0) | both |
//! | Stamina | stamina | the stamina pool (0 knocks out, as spending it does) | both |
//! | Conditions | the conditions list | the body's conditions below, with time left | both |
//! | Dead | dead | dead | both |
//!
//! Energy and agility refill every round and stay in the fight, as do the conditions of one
//! round or one hold (exposed, unguarded, surprised, restrained, restraining, defending).

use super::combat::{MAX_STAMINA, STAMINA};
use super::{AuraSheet, Edit};
use crate::rules::edit::Edits;
use crate::rules::encounter::shared::{
    bring_conditions, dead_value, fight_conditions, hp_value, sheet_conditions, write_list, Flow,
    Linked, Shared, Value,
};
use crate::rules::encounter::{Combatant, Duration, Event, State};

/// The fight's conditions a sheet lists.
pub const SHARED_CONDITIONS: &[&str] = &[
    "Dazed",
    "Blinded",
    "Prone",
    "Unconscious",
    "Helpless",
    "Slowed",
    "Exhausted",
    "Shaken",
    "Bleeding out",
];

fn set(s: &mut AuraSheet, e: Edit) {
    let _ = s.apply(e);
}

fn stamina(c: &Combatant) -> i32 {
    c.pools.get(STAMINA).copied().unwrap_or(0)
}

/// Stamina as the sheet has it (within 0 … the fight's maximum); at 0, unconscious.
fn bring_stamina(s: &State, c: &Combatant, v: &Value) -> Vec<Event> {
    let now = stamina(c);
    let want = v.num().clamp(0, c.stat(MAX_STAMINA).max(0));
    if want == now {
        return Vec::new();
    }
    let mut out = vec![Event::Spend(c.id, STAMINA, now - want)];
    if want == 0 && !s.has(c.id, "Unconscious") {
        out.push(Event::Add(c.id, "Unconscious".into(), Duration::Removed));
    }
    out
}

impl Linked for AuraSheet {
    const SHARED: &'static [Shared<Self>] = &[
        hp_value(
            "Aura",
            |s| Value::Num(s.aura),
            |s, v| set(s, Edit::Aura(v.num())),
        ),
        Shared {
            name: "Stamina",
            flow: Flow::Both,
            sheet: |s| Value::Num(s.stamina),
            fight: |_, c| Value::Num(stamina(c)),
            write: |s, v| set(s, Edit::Stamina(v.num())),
            bring: bring_stamina,
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
                    |s, i| {
                        if i < s.conditions.len() {
                            s.conditions.remove(i);
                        }
                    },
                    |s, n| set(s, Edit::AddCondition(n)),
                )
            },
            bring: |s, c, v| bring_conditions(s, c, v, SHARED_CONDITIONS, true),
        },
        dead_value(|s| Value::Flag(s.dead), |s, v| set(s, Edit::Dead(v.flag()))),
    ];
}
