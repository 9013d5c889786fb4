//! What a Tempo character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | Health max | health max | the fight's maximum (brought first) | to the fight |
//! | Health | health | Health (lower: damage) | both |
//! | Combat defence, armoured, grapple | the three defences | the same stats | both |
//! | Base combat movement | movement | the same stat | both |
//! | Check dice | dice | the check dice | both |
//! | Check bonuses | each action's bonus | each action's bonus stat | both |
//! | Weapons in hand | the first melee and ranged weapon's AP per action and aimed accuracy | the costs and aimed accuracies | both |
//!
//! Everything else a Tempo fight tracks lasts one exchange or one fight: action points and
//! their debt, the status (on guard, off balance …), aiming, being disarmed.

use super::actions::{Arm, ACTIONS};
use super::combat::{
    ARMOURED, BONUS, COST, DEFENCE, GRAPPLE, HP_MAX, MELEE_AIMED, MOVEMENT, RANGED_AIMED, T_DICE,
};
use super::{Edit, TempoSheet};
use crate::rules::edit::Edits;
use crate::rules::encounter::shared::{both, hp_value, stat, stat_to, Flow, Linked, Shared, Value};
use crate::rules::encounter::{Combatant, Event, State};

fn set(s: &mut TempoSheet, e: Edit) {
    let _ = s.apply(e);
}

/// A number of the sheet's, both ways, as the fight's stat `I`.
const fn number<const I: usize>(
    name: &'static str,
    sheet: fn(&TempoSheet) -> Value,
    write: fn(&mut TempoSheet, &Value),
) -> Shared<TempoSheet> {
    both(name, sheet, write, stat::<I>, stat_to::<I>)
}

/// The per-action numbers a list shares, as entries ("Parry 2"): the check bonuses (`costs`
/// false) or the costs of the weapons in hand and their aimed accuracies.
fn entries(costs: bool, get: &dyn Fn(usize) -> Option<i32>, aimed: [Option<i32>; 2]) -> Value {
    let mut out: Vec<String> = ACTIONS
        .iter()
        .enumerate()
        .filter(|(_, a)| if costs { a.arm.is_some() } else { a.check })
        .filter_map(|(i, a)| get(i).map(|v| format!("{} {v}", a.name)))
        .collect();
    for (label, v) in ["Melee aimed", "Ranged aimed"].into_iter().zip(aimed) {
        if let Some(v) = v {
            out.push(format!("{label} {v}"));
        }
    }
    Value::Names(out)
}

/// The number an entry gives action (or aimed accuracy) `name`, if the list has it.
fn entry(v: &Value, name: &str) -> Option<i32> {
    v.names()
        .iter()
        .find_map(|e| e.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

fn sheet_bonuses(s: &TempoSheet) -> Value {
    entries(false, &|i| Some(s.bonus(ACTIONS[i].name)), [None; 2])
}

fn fight_bonuses(_: &State, c: &Combatant) -> Value {
    entries(false, &|i| Some(c.stat(BONUS + i)), [None; 2])
}

fn write_bonuses(s: &mut TempoSheet, v: &Value) {
    for (i, a) in ACTIONS.iter().enumerate() {
        if let Some(n) = entry(v, a.name) {
            set(s, Edit::Bonus(i, n));
        }
    }
}

/// The events that give the fight's stats `at(i)` the list's numbers.
fn bring_list(c: &Combatant, v: &Value, costs: bool) -> Vec<Event> {
    let mut out = Vec::new();
    for (i, a) in ACTIONS.iter().enumerate() {
        let at = if costs { COST } else { BONUS } + i;
        let n = entry(v, a.name).unwrap_or(if costs { -1 } else { 0 });
        if (if costs { a.arm.is_some() } else { a.check }) && c.stat(at) != n {
            out.push(Event::Set(c.id, at, n));
        }
    }
    if costs {
        for (label, at) in [("Melee aimed", MELEE_AIMED), ("Ranged aimed", RANGED_AIMED)] {
            let n = entry(v, label).unwrap_or(0);
            if c.stat(at) != n {
                out.push(Event::Set(c.id, at, n));
            }
        }
    }
    out
}

fn sheet_weapons(s: &TempoSheet) -> Value {
    let aimed = [Arm::Melee, Arm::Ranged].map(|arm| s.weapon(arm).map(|w| w.aimed));
    entries(
        true,
        &|i| {
            let a = &ACTIONS[i];
            s.weapon(a.arm?).map(|w| w.cost(a.name))
        },
        aimed,
    )
}

fn fight_weapons(_: &State, c: &Combatant) -> Value {
    let has = |arm| {
        ACTIONS
            .iter()
            .enumerate()
            .any(|(i, a)| a.arm == Some(arm) && c.stat(COST + i) >= 0)
    };
    let aimed = [(Arm::Melee, MELEE_AIMED), (Arm::Ranged, RANGED_AIMED)]
        .map(|(arm, at)| has(arm).then(|| c.stat(at)));
    entries(true, &|i| Some(c.stat(COST + i)).filter(|&n| n >= 0), aimed)
}

/// The fight's costs and aimed accuracies onto the sheet's weapons in hand (the first of each
/// kind; a kind the sheet has no weapon of stays without one).
fn write_weapons(s: &mut TempoSheet, v: &Value) {
    for arm in [Arm::Melee, Arm::Ranged] {
        let Some(w) = s.weapons.iter().position(|w| w.arm() == arm) else {
            continue;
        };
        for (i, a) in ACTIONS.iter().enumerate() {
            if let (true, Some(n)) = (a.arm == Some(arm), entry(v, a.name)) {
                set(s, Edit::Cost(w, i, n));
            }
        }
        let label = if arm == Arm::Melee {
            "Melee aimed"
        } else {
            "Ranged aimed"
        };
        if let Some(n) = entry(v, label) {
            set(s, Edit::Aimed(w, n));
        }
    }
}

fn dice(c: &Combatant) -> Value {
    Value::Names(vec![c.text(T_DICE).to_owned()])
}

impl Linked for TempoSheet {
    const SHARED: &'static [Shared<Self>] = &[
        hp_value(
            "Health",
            |s| Value::Num(s.health),
            |s, v| set(s, Edit::Health(v.num())),
        ),
        Shared {
            name: "Health max",
            flow: Flow::ToFight,
            sheet: |s| Value::Num(s.health_max.max(s.health)),
            fight: |s, c| Value::Num(s.rules.hp_max(c)),
            write: |_, _| {},
            bring: stat_to::<HP_MAX>,
        },
        number::<DEFENCE>(
            "Combat defence",
            |s| Value::Num(s.defence),
            |s, v| set(s, Edit::Defence(v.num())),
        ),
        number::<ARMOURED>(
            "Combat defence (armoured)",
            |s| Value::Num(s.armoured),
            |s, v| set(s, Edit::Armoured(v.num())),
        ),
        number::<GRAPPLE>(
            "Grapple defence",
            |s| Value::Num(s.grapple),
            |s, v| set(s, Edit::Grapple(v.num())),
        ),
        number::<MOVEMENT>(
            "Base combat movement",
            |s| Value::Num(s.movement),
            |s, v| set(s, Edit::Movement(v.num())),
        ),
        both(
            "Check dice",
            |s| Value::Names(vec![s.dice.clone()]),
            |s, v| {
                if let Some(d) = v.names().first() {
                    set(s, Edit::Dice(d.clone()));
                }
            },
            |_, c| dice(c),
            |_, c, v| match v.names().first() {
                Some(d) if *d != c.text(T_DICE) && super::dice_ok(d) => {
                    vec![Event::Text(c.id, T_DICE, d.clone())]
                }
                _ => Vec::new(),
            },
        ),
        both(
            "Check bonuses",
            sheet_bonuses,
            write_bonuses,
            fight_bonuses,
            |_, c, v| bring_list(c, v, false),
        ),
        both(
            "Weapons in hand",
            sheet_weapons,
            write_weapons,
            fight_weapons,
            |_, c, v| bring_list(c, v, true),
        ),
    ];
}
