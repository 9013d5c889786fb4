//! What a Bo Vogt character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | HP | hit points | HP (lower: damage; at 0 or less a level of exhaustion and prone; higher: as the sheet says) | both |
//! | Exhaustion | exhaustion level | the exhaustion levels (from 2 the HP maximum halved, on both sides) | both |
//! | Statuses | the statuses | the conditions of the same names | both |
//! | Injuries | the death-and-dismemberment lines and what broke ("Broken: Club") | the same lines, kept as lasting conditions (a lost leg also caps movement) | both |
//! | Dead | dead | dead | both |
//! | Technique dice | technique dice left | technique dice left (a technique spends them) | both |
//! | HP max | the HP maximum (before exhaustion) | the same, halved there from exhaustion 2 (brought before the HP) | to the fight |
//! | Table rolls | the levels from 4 on rolled for on the death and dismemberment table | the same count (a roll in the fight adds one) | both |
//!
//! Defending, running and being helped last a turn or a round and stay in the fight.

use super::combat::{HP_MAX, ONE_LEG, TABLE_ROLLS, TECH_LEFT};
use super::{Edit, VogtSheet, DISMEMBERMENT, STATUSES};
use crate::rules::edit::{Edits, ListEdit};
use crate::rules::encounter::shared::{
    both, bring_conditions, dead_value, death_value, diff, fight_conditions, hp, sheet_conditions,
    stat, stat_to, Flow, Linked, Shared, Value,
};
use crate::rules::encounter::{Combatant, Duration, Event, State};

/// The statuses a sheet toggles, which are the fight's conditions of the same names.
pub const SHARED_CONDITIONS: &[&str] = &[
    "Afraid",
    "Bleeding",
    "Blind",
    "Deaf",
    "Drenched",
    "Frozen",
    "Hallucinating",
    "Immobile",
    "Mute",
    "Nauseated",
    "Prone",
    "Scorched",
    "Unconscious",
];

/// The table's lines a character lives with (the sixth is death), and what broke.
fn kept(line: &str) -> bool {
    DISMEMBERMENT[..5].contains(&line) || line.starts_with(super::sheet::BROKEN)
}

/// The sheet's HP into the fight as it stands, lower or higher: what the sheet did to reach it
/// comes with it as its own values (damage taken there brings its level of exhaustion and
/// prone; a typed HP is a correction and brings none), so one edit gives the same outcome with
/// a fight open or not. A healing the sheet capped by its maximum is not capped again here
/// (the fight's next value, the level, may raise the maximum).
fn hp_to(_: &State, c: &Combatant, v: &Value) -> Vec<Event> {
    vec![Event::Sync(c.id, v.num(), c.death, c.dead)]
}

const LEG: usize = 3;

fn set(s: &mut VogtSheet, e: Edit) {
    let _ = s.apply(e);
}

fn sheet_injuries(s: &VogtSheet) -> Value {
    Value::sorted(s.injuries.iter().filter(|i| kept(i)).cloned().collect())
}

fn fight_injuries(s: &State, c: &Combatant) -> Value {
    let mut l: Vec<String> = s
        .conditions_of(c.id)
        .filter(|a| a.parent.is_none() && kept(&a.name))
        .map(|a| a.name.clone())
        .collect();
    let leg = DISMEMBERMENT[LEG];
    // A lost leg from before injuries were kept as conditions: only the stat says so.
    if c.stat(ONE_LEG) > 0 && !l.iter().any(|x| x == leg) {
        l.push(leg.into());
    }
    Value::sorted(l)
}

fn write_injuries(s: &mut VogtSheet, v: &Value) {
    let have = sheet_injuries(s);
    let (gone, new) = diff(have.names(), v.names());
    let mut drop: Vec<usize> = Vec::new();
    for g in gone {
        if let Some(i) = (0..s.injuries.len()).find(|&i| !drop.contains(&i) && s.injuries[i] == g) {
            drop.push(i);
        }
    }
    crate::rules::order::sort_with(&mut drop, |a, b| b.cmp(a));
    for i in drop {
        set(s, Edit::Injuries(ListEdit::Remove(i)));
    }
    for n in new {
        set(s, Edit::Injuries(ListEdit::Add(n.into())));
    }
}

fn bring_injuries(s: &State, c: &Combatant, v: &Value) -> Vec<Event> {
    let have = fight_injuries(s, c);
    let (gone, new) = diff(have.names(), v.names());
    let leg = DISMEMBERMENT[LEG];
    let mut out = Vec::new();
    let mut taken = Vec::new();
    for g in gone {
        if let Some(a) = s
            .conditions_of(c.id)
            .find(|a| a.parent.is_none() && a.name == g && !taken.contains(&a.cid))
        {
            taken.push(a.cid);
            out.push(Event::Remove(a.cid));
        }
    }
    for n in new {
        out.push(Event::Add(c.id, n.into(), Duration::Removed));
    }
    let legs = v.names().iter().any(|x| x == leg);
    if legs != (c.stat(ONE_LEG) > 0) {
        out.push(Event::Set(c.id, ONE_LEG, i32::from(legs)));
    }
    out
}

impl Linked for VogtSheet {
    const SHARED: &'static [Shared<Self>] = &[
        both(
            "HP",
            |s| Value::Num(s.hp),
            |s, v| set(s, Edit::Hp(v.num())),
            hp,
            hp_to,
        ),
        death_value(
            "Exhaustion",
            |s| Value::Num(s.exhaustion as i32),
            |s, v| set(s, Edit::Exhaustion(v.num())),
        ),
        Shared {
            name: "Statuses",
            flow: Flow::Both,
            sheet: |s| sheet_conditions(&s.statuses, SHARED_CONDITIONS, false),
            fight: |s, c| fight_conditions(s, c, SHARED_CONDITIONS, false),
            write: |s, v| {
                for (i, st) in STATUSES.iter().enumerate() {
                    if s.has(st.name) != v.names().iter().any(|n| n == st.name) {
                        set(s, Edit::Status(i));
                    }
                }
            },
            bring: |s, c, v| bring_conditions(s, c, v, SHARED_CONDITIONS, false),
        },
        Shared {
            name: "Injuries",
            flow: Flow::Both,
            sheet: sheet_injuries,
            fight: fight_injuries,
            write: write_injuries,
            bring: bring_injuries,
        },
        dead_value(|s| Value::Flag(s.dead), |s, v| set(s, Edit::Dead(v.flag()))),
        both(
            "Technique dice",
            |s| Value::Num(s.technique_left()),
            |s, v| set(s, Edit::TechniqueLeft(v.num())),
            stat::<TECH_LEFT>,
            stat_to::<TECH_LEFT>,
        ),
        // After the level: a level taken back on the sheet takes its roll with it.
        both(
            "Table rolls",
            |s| Value::Num(s.table_rolls as i32),
            |s, v| set(s, Edit::TableRolls(v.num())),
            stat::<TABLE_ROLLS>,
            stat_to::<TABLE_ROLLS>,
        ),
        // Only the sheet sets the maximum (brought first: the HP after it is measured against
        // it); the fight halves it from exhaustion 2 as the sheet does.
        Shared {
            name: "HP max",
            flow: Flow::ToFight,
            sheet: |s| Value::Num(s.hp_max),
            fight: |_, c| {
                Value::Num(if c.stat(HP_MAX) > 0 {
                    c.stat(HP_MAX)
                } else {
                    c.hp_max
                })
            },
            write: |_, _| {},
            bring: stat_to::<HP_MAX>,
        },
    ];
}
