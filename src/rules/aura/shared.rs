//! What an Energy / Aura character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | Aura | current aura | Aura (lower: damage; a death roll due at 0) | both |
//! | Stamina | stamina | the stamina pool (0 knocks out, as spending it does) | both |
//! | Conditions | the conditions list (and Unconscious at 0 stamina) | the body's conditions below, with time left | both |
//! | Dead | dead | dead | both |
//! | In hand | the held melee weapon (by name) | the melee weapon in hand | to the sheet |
//!
//! Energy and agility refill every round and stay in the fight, as do the conditions of one
//! round or one hold (exposed, unguarded, surprised, restrained, restraining, defending).
//!
//! A character at 0 stamina is unconscious (seed l.72) whether or not its sheet lists it: it
//! joins a fight unconscious. The weapon in hand joins with the character; after that only the
//! fight changes it, through its priced actions (take in hand, stow, pick up: seed l.37-39), and
//! the sheet follows; the sheet's own "held" beside a running fight is put back to the fight's.

use super::combat::{MAX_STAMINA, STAMINA};
use super::gear::{carried, in_hand};
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

/// What a combatant that carries none of its sheet's weapons (one that joined before they were
/// carried) shares as its weapon in hand: a name no sheet's write or fight's bring acts on.
const UNSHARED: &str = "?";

/// The sheet's melee weapon in hand: the first held one, by name.
fn sheet_hand(s: &AuraSheet) -> Value {
    Value::Names(
        s.weapons
            .iter()
            .find(|w| !w.ranged && w.held)
            .map(|w| w.name.clone())
            .into_iter()
            .collect(),
    )
}

fn fight_hand(_: &State, c: &Combatant) -> Value {
    if carried(c).is_empty() {
        return Value::Names(vec![UNSHARED.into()]);
    }
    Value::Names(in_hand(c, false).map(|h| h.name).into_iter().collect())
}

/// The sheet holds exactly the fight's melee weapon in hand (the first of that name), or none;
/// a name it does not have changes nothing.
fn write_hand(s: &mut AuraSheet, v: &Value) {
    let want = v.names().first();
    let at = want.and_then(|n| s.weapons.iter().position(|w| !w.ranged && w.name == *n));
    if want.is_some() && at.is_none() {
        return;
    }
    for i in 0..s.weapons.len() {
        let w = &s.weapons[i];
        if !w.ranged && w.held != (Some(i) == at) {
            set(s, Edit::ToggleHeld(i));
        }
    }
}

/// The sheet's held weapon never reaches a running fight by itself: taking a weapon in hand
/// there is an action with its price (and a dropped one must be picked up).
fn bring_hand(_: &State, _: &Combatant, _: &Value) -> Vec<Event> {
    Vec::new()
}

/// The conditions as the sheet has them, with Unconscious at 0 stamina (seed l.72) when it
/// does not list it.
fn sheet_conditions_now(s: &AuraSheet) -> Value {
    if s.stamina <= 0 && !s.dead && !s.has("Unconscious") {
        let mut l = s.conditions.clone();
        l.push("Unconscious".into());
        return sheet_conditions(&l, SHARED_CONDITIONS, true);
    }
    sheet_conditions(&s.conditions, SHARED_CONDITIONS, true)
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
            sheet: sheet_conditions_now,
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
        Shared {
            name: "In hand",
            flow: Flow::ToSheet,
            sheet: sheet_hand,
            fight: fight_hand,
            write: write_hand,
            bring: bring_hand,
        },
    ];
}
