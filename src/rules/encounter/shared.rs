//! What a saved character and the fights it is in share, and the one way they are kept in step.
//!
//! Each system lists its shared values as data ([`Linked::SHARED`]): how each is read from the
//! sheet and from the fight, which way it may flow, how the sheet takes it (through the sheet's
//! own edits, clamped or refused as a tap would be) and which events bring it into the fight
//! (through the fight's own paths: a lower HP is damage with its consequences).
//!
//! An encounter remembers, per linked combatant, the values it last agreed on with the sheet and
//! the sheet's `updated` at that moment ([`Agreed`]). [`settle`] then decides per value:
//! - the fight changed it since (its value differs from the agreed one) → the sheet takes it;
//! - the sheet changed it since (a newer sheet whose value differs) → the fight takes it, as one
//!   logged, undoable step;
//! - both changed, differently → nothing moves and the player is asked;
//! - a sheet older than the agreement (a fight received from a phone with a newer copy) → the
//!   fight's value wins: a received fight is shown as it was sent.

use super::state::{Combatant, Duration, Event, State};
use super::stored::LIMIT;
use serde::{Deserialize, Serialize};

/// One shared value as either side holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Flag(bool),
    Num(i32),
    /// Condition names (with their remaining duration where the sheet keeps it), sorted.
    Names(Vec<String>),
}

impl Value {
    pub fn num(&self) -> i32 {
        match self {
            Value::Num(n) => *n,
            Value::Flag(b) => i32::from(*b),
            Value::Names(l) => l.len() as i32,
        }
    }

    pub fn flag(&self) -> bool {
        self.num() != 0
    }

    pub fn names(&self) -> &[String] {
        match self {
            Value::Names(l) => l,
            _ => &[],
        }
    }

    /// A sorted list (conditions compare as a set of entries, in any order).
    pub fn sorted(mut l: Vec<String>) -> Value {
        crate::rules::order::sort(&mut l);
        Value::Names(l)
    }

    /// "7", "yes", or for lists the change from `before`: "+Prone, −Dazed".
    fn change(&self, before: &Value) -> String {
        match (before, self) {
            (Value::Names(a), Value::Names(b)) => {
                let (gone, new) = diff(a, b);
                let mut out: Vec<String> = new.iter().map(|n| format!("+{n}")).collect();
                out.extend(gone.iter().map(|n| format!("−{n}")));
                out.join(", ")
            }
            _ => format!("{} → {}", before.text(), self.text()),
        }
    }

    /// The value as an agreement records it: "7", "true", or a list's entries each after a
    /// separator no typed text holds.
    pub fn key(&self) -> String {
        match self {
            Value::Names(l) => l.iter().map(|n| format!("\u{1f}{n}")).collect(),
            Value::Flag(b) => b.to_string(),
            Value::Num(n) => n.to_string(),
        }
    }

    /// The value a [`key`](Value::key) stands for, read as the same kind as `like`.
    pub fn from_key(key: &str, like: &Value) -> Option<Value> {
        Some(match like {
            Value::Flag(_) => Value::Flag(key.parse().ok()?),
            Value::Num(_) => Value::Num(key.parse().ok()?),
            Value::Names(_) => {
                Value::Names(key.split('\u{1f}').skip(1).map(str::to_owned).collect())
            }
        })
    }

    pub fn text(&self) -> String {
        match self {
            Value::Flag(true) => "yes".into(),
            Value::Flag(false) => "no".into(),
            Value::Num(n) => n.to_string(),
            Value::Names(l) if l.is_empty() => "none".into(),
            Value::Names(l) => l.join(", "),
        }
    }
}

/// Which way a value may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Both,
    /// Only the fight changes it (the sheet's own edits of it stay on the sheet).
    ToSheet,
    /// Only the sheet changes it.
    ToFight,
}

/// One value a character and its fights share.
pub struct Shared<S: 'static> {
    pub name: &'static str,
    pub flow: Flow,
    pub sheet: fn(&S) -> Value,
    pub fight: fn(&State, &Combatant) -> Value,
    /// The sheet takes the fight's value (through its edits).
    pub write: fn(&mut S, &Value),
    /// The events that give the fight the sheet's value (empty when it has it).
    pub bring: fn(&State, &Combatant, &Value) -> Vec<Event>,
}

/// A sheet type whose character can be in a fight.
pub trait Linked: Clone + PartialEq + 'static {
    /// Its shared values, in a fixed order (an [`Agreed`] record lists values in this order).
    const SHARED: &'static [Shared<Self>];
}

/// What a linked combatant and its sheet last agreed on: the sheet's `updated` then, and each
/// shared value in [`Linked::SHARED`]'s order, as its [`Value::key`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agreed {
    pub who: u32,
    pub at: u64,
    pub values: Vec<String>,
}

/// The most values a record holds, and the longest one (2 000 entries of a list).
pub const AGREED_VALUES: usize = 16;
pub const AGREED_BYTES: usize = 2000 * 202;

impl Agreed {
    pub fn validate(&self) -> Result<(), String> {
        if self.values.len() > AGREED_VALUES {
            return Err("a shared-values record is too long".into());
        }
        if self.values.iter().any(|v| v.len() > AGREED_BYTES) {
            return Err("a shared value is too long".into());
        }
        Ok(())
    }
}

/// On a conflict, the side the player chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    Sheet,
    Fight,
}

/// What [`settle`] decided for one combatant.
#[derive(Debug, Clone, PartialEq)]
pub struct Settled<S> {
    /// One step for the fight (a batch with its note), when the sheet moved anything.
    pub event: Option<Event>,
    /// The sheet, when the fight moved anything on it.
    pub sheet: Option<S>,
    /// What the sheet took from the fight: "HP 10 → 4".
    pub taken: Vec<String>,
    /// The values both hold afterwards, as keys (the next [`Agreed`]).
    pub values: Vec<String>,
    /// Values both sides changed differently: (name, sheet's, fight's). Nothing else moved.
    pub conflicts: Vec<(&'static str, String, String)>,
}

/// A shared value's fight side: nothing in it depends on the sheet's type, so the decisions
/// below are compiled once for every system.
struct Side {
    name: &'static str,
    flow: Flow,
    fight: fn(&State, &Combatant) -> Value,
    bring: fn(&State, &Combatant, &Value) -> Vec<Event>,
}

/// The fight after the sheet's values came in, and what to record.
struct Plan {
    event: Option<Event>,
    after: State,
    conflicts: Vec<(&'static str, String, String)>,
}

/// Keeps sheet `sheet` and combatant `c` of fight `s` in step (see the module notes).
/// `agreed`: the values of the last agreement, if any; `sheet_newer`: the sheet was saved after
/// it (without a record: after the fight was). `keep` settles values both sides changed.
pub fn settle<S: Linked>(
    sheet: &S,
    s: &State,
    c: &Combatant,
    agreed: Option<&[String]>,
    sheet_newer: bool,
    keep: Option<Keep>,
) -> Settled<S> {
    let defs = S::SHARED;
    let (sides, mine) = erase(sheet);
    let plan = decide(&sides, &mine, s, c, agreed, sheet_newer, keep);
    let mut out = Settled {
        event: plan.event,
        sheet: None,
        taken: Vec::new(),
        values: Vec::new(),
        conflicts: plan.conflicts,
    };
    if !out.conflicts.is_empty() {
        return out;
    }
    // Then the fight's values onto the sheet, wherever they still differ; twice, as a sheet
    // may bound one value by another (Vogt's HP by its exhaustion).
    let after = &plan.after;
    let now = after.get(c.id).unwrap_or(c);
    let fight: Vec<Value> = sides.iter().map(|d| (d.fight)(after, now)).collect();
    let mut next = sheet.clone();
    for pass in 0..2 {
        for (d, fv) in defs.iter().zip(&fight) {
            let sv = (d.sheet)(&next);
            if d.flow != Flow::ToFight && *fv != sv {
                (d.write)(&mut next, fv);
                if pass == 0 {
                    out.taken.push(taken(d.name, fv, &sv));
                }
            }
        }
    }
    out.values = defs
        .iter()
        .zip(fight)
        .map(|(d, fv)| match d.flow {
            Flow::ToFight => (d.sheet)(&next).key(),
            _ => fv.key(),
        })
        .collect();
    if next != *sheet {
        out.sheet = Some(next);
    }
    out
}

/// The fight's side of every shared value of combatant `c`, as keys, in [`Linked::SHARED`]'s
/// order: what the GM's phone sends a player's phone for its own combatants.
pub fn fight_keys<S: Linked>(s: &State, c: &Combatant) -> Vec<String> {
    S::SHARED.iter().map(|d| (d.fight)(s, c).key()).collect()
}

/// A player's phone following the GM's fight, where the fight is the authority and this phone
/// cannot change it: each value the fight holds (`fight`, as [`fight_keys`]) is written to the
/// sheet through its own edits, unless only the sheet moved it since they last agreed
/// (`agreed`; `sheet_newer`: the sheet was saved after that), e.g. the player undid what the
/// fight wrote: those are listed in `conflicts` (name, the sheet's, the fight's), and the
/// agreement's time must stay as it was for them to stay. The sheet's changes go nowhere: the
/// GM's phone decides the fight.
pub fn follow<S: Linked>(
    sheet: &S,
    fight: &[String],
    agreed: Option<&[String]>,
    sheet_newer: bool,
) -> Settled<S> {
    let defs = S::SHARED;
    // A record from an app with fewer shared values: those it lacks are the fight's to give.
    let agreed = agreed.filter(|a| a.len() <= defs.len());
    let mut out = Settled {
        event: None,
        sheet: None,
        taken: Vec::new(),
        values: Vec::new(),
        conflicts: Vec::new(),
    };
    if fight.len() != defs.len() {
        return out;
    }
    let mut next = sheet.clone();
    for pass in 0..2 {
        for (i, (d, key)) in defs.iter().zip(fight).enumerate() {
            let sv = (d.sheet)(&next);
            let Some(fv) = Value::from_key(key, &sv) else {
                continue;
            };
            let sheet_only =
                agreed.is_some_and(|a| sheet_newer && a.get(i) == Some(key) && sv.key() != *key);
            if d.flow == Flow::ToFight || fv == sv {
                continue;
            }
            if sheet_only {
                if pass == 0 {
                    out.conflicts.push((d.name, sv.text(), fv.text()));
                }
            } else {
                (d.write)(&mut next, &fv);
                if pass == 0 {
                    out.taken.push(taken(d.name, &fv, &sv));
                }
            }
        }
    }
    out.values = fight.to_vec();
    if next != *sheet {
        out.sheet = Some(next);
    }
    out
}

fn taken(name: &str, now: &Value, was: &Value) -> String {
    let mut t = format!("{name} {}", now.change(was));
    cut(&mut t, 200);
    t
}

/// Which side moved each value, and the sheet's values brought into the fight.
fn decide(
    sides: &[Side],
    mine: &[Value],
    s: &State,
    c: &Combatant,
    agreed: Option<&[String]>,
    sheet_newer: bool,
    keep: Option<Keep>,
) -> Plan {
    // A record from an app with fewer shared values (one added since): the fight never agreed
    // on those it lacks, so the sheet's stand (what the player kept there until then).
    let agreed = agreed.filter(|a| a.len() <= sides.len());
    let mut bring = Vec::new();
    let mut conflicts = Vec::new();
    for (i, (d, sv)) in sides.iter().zip(mine).enumerate() {
        let fv = (d.fight)(s, c);
        if *sv == fv {
            continue;
        }
        let (sheet_moved, fight_moved) = match agreed {
            Some(a) => match a.get(i) {
                Some(k) => (sheet_newer && sv.key() != *k, fv.key() != *k),
                None => (true, false),
            },
            None => (sheet_newer, !sheet_newer),
        };
        let to_fight = match (sheet_moved, fight_moved, keep) {
            (true, true, None) if d.flow == Flow::Both => {
                conflicts.push((d.name, sv.text(), fv.text()));
                continue;
            }
            (true, true, Some(k)) => k == Keep::Sheet,
            (true, false, _) => true,
            _ => false,
        };
        // What only the sheet sets (a maximum) first: the values after it are measured
        // against it.
        if to_fight && d.flow == Flow::ToFight {
            bring.insert(0, (d, sv, fv));
        } else if to_fight && d.flow != Flow::ToSheet {
            bring.push((d, sv, fv));
        }
    }
    let mut after = s.clone();
    if !conflicts.is_empty() {
        return Plan {
            event: None,
            after,
            conflicts,
        };
    }
    // The sheet's values into the fight, each through the fight's own paths, in order (a lower
    // HP first, so a value the sheet set itself overrides what the damage implied).
    let mut events = Vec::new();
    let mut said = Vec::new();
    for (d, sv, fv) in bring {
        let Some(now) = after.get(c.id).cloned() else {
            break;
        };
        let ev = (d.bring)(&after, &now, sv);
        if ev.is_empty() {
            continue;
        }
        for e in &ev {
            after.apply(e);
        }
        events.extend(ev);
        said.push(format!("{} {}", d.name, sv.change(&fv)));
    }
    let event = (!events.is_empty()).then(|| {
        let mut note = format!("{}, as on the sheet: {}", c.name, said.join("; "));
        cut(&mut note, 1000);
        events.insert(0, Event::Note(note));
        Event::Batch(events)
    });
    Plan {
        event,
        after,
        conflicts,
    }
}

/// The fight's events for a character joining with `sheet`: the join, then what the sheet holds
/// that the built combatant does not (conditions), in one step.
pub fn join_events<S: Linked>(s: &State, c: Combatant, sheet: &S) -> Event {
    let (sides, mine) = erase(sheet);
    join_with(&sides, &mine, s, c)
}

fn erase<S: Linked>(sheet: &S) -> (Vec<Side>, Vec<Value>) {
    S::SHARED
        .iter()
        .map(|d| {
            let side = Side {
                name: d.name,
                flow: d.flow,
                fight: d.fight,
                bring: d.bring,
            };
            (side, (d.sheet)(sheet))
        })
        .unzip()
}

fn join_with(sides: &[Side], mine: &[Value], s: &State, c: Combatant) -> Event {
    s.join_events(c, |c| {
        let mut after = s.clone();
        after.apply(&Event::Join(c.clone()));
        let mut out = Vec::new();
        for (d, sv) in sides.iter().zip(mine) {
            let Some(now) = after.get(c.id).cloned() else {
                break;
            };
            if d.flow != Flow::ToSheet && (d.fight)(&after, &now) != *sv {
                let ev = (d.bring)(&after, &now, sv);
                for e in &ev {
                    after.apply(e);
                }
                out.extend(ev);
            }
        }
        out
    })
}

fn cut(s: &mut String, max: usize) {
    if s.len() > max {
        let mut at = max;
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        s.truncate(at);
        s.push('…');
    }
}

/// Entries of `a` missing from `b` and of `b` missing from `a`, counted as multisets.
pub fn diff<'a>(a: &'a [String], b: &'a [String]) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut rest: Vec<&str> = b.iter().map(String::as_str).collect();
    let mut gone = Vec::new();
    for x in a {
        match rest.iter().position(|y| y == x) {
            Some(i) => {
                rest.remove(i);
            }
            None => gone.push(x.as_str()),
        }
    }
    (gone, rest)
}

// ---- Helpers the systems' tables are built from ----

/// A value that flows both ways.
pub const fn both<S>(
    name: &'static str,
    sheet: fn(&S) -> Value,
    write: fn(&mut S, &Value),
    fight: fn(&State, &Combatant) -> Value,
    bring: fn(&State, &Combatant, &Value) -> Vec<Event>,
) -> Shared<S> {
    Shared {
        name,
        flow: Flow::Both,
        sheet,
        fight,
        write,
        bring,
    }
}

/// The fight's hit points under the system's name: lower is damage, higher is healing, each
/// with its consequences ([`hp_to`]).
pub const fn hp_value<S>(
    name: &'static str,
    sheet: fn(&S) -> Value,
    write: fn(&mut S, &Value),
) -> Shared<S> {
    both(name, sheet, write, hp, hp_to)
}

/// The fight's death steps (or the system's levels) under the system's name.
pub const fn death_value<S>(
    name: &'static str,
    sheet: fn(&S) -> Value,
    write: fn(&mut S, &Value),
) -> Shared<S> {
    both(name, sheet, write, death, death_to)
}

/// One of the system's stats (Heimr's willpower and fatigue).
pub fn stat<const I: usize>(_: &State, c: &Combatant) -> Value {
    Value::Num(c.stat(I))
}

pub fn stat_to<const I: usize>(_: &State, c: &Combatant, v: &Value) -> Vec<Event> {
    if c.stat(I) == v.num() {
        Vec::new()
    } else {
        vec![Event::Set(c.id, I, v.num())]
    }
}

/// Dead or alive.
pub const fn dead_value<S>(sheet: fn(&S) -> Value, write: fn(&mut S, &Value)) -> Shared<S> {
    both("Dead", sheet, write, dead, dead_to)
}

/// The events that take the combatant's HP to `v`: damage or healing, with what the system
/// attaches to a change of HP (the one path every change of HP takes). Healing from the sheet
/// stabilises: the player wrote it after whatever healed them.
pub fn hp_to(s: &State, c: &Combatant, v: &Value) -> Vec<Event> {
    let v = v.num().clamp(-LIMIT, LIMIT);
    match v.cmp(&c.hp) {
        std::cmp::Ordering::Less => vec![s.damage_events(vec![c.id], c.hp - v)],
        std::cmp::Ordering::Greater => vec![s.heal_events(vec![c.id], v - c.hp, true)],
        std::cmp::Ordering::Equal => Vec::new(),
    }
    .into_iter()
    .flat_map(Event::flat)
    .collect()
}

/// The death steps (or the system's levels) as the sheet has them.
pub fn death_to(_: &State, c: &Combatant, v: &Value) -> Vec<Event> {
    let v = v.num().clamp(0, LIMIT) as u32;
    if v == c.death {
        return Vec::new();
    }
    vec![Event::Sync(c.id, c.hp, v, c.dead)]
}

pub fn dead_to(_: &State, c: &Combatant, v: &Value) -> Vec<Event> {
    if v.flag() == c.dead {
        return Vec::new();
    }
    vec![Event::Sync(c.id, c.hp, c.death, v.flag())]
}

pub fn hp(_: &State, c: &Combatant) -> Value {
    Value::Num(c.hp)
}

pub fn death(_: &State, c: &Combatant) -> Value {
    Value::Num(c.death.min(LIMIT as u32) as i32)
}

pub fn dead(_: &State, c: &Combatant) -> Value {
    Value::Flag(c.dead)
}

/// A condition entry as a sheet writes it: "Dazed", or with its remaining duration
/// "Bleeding out (3 rounds)". The catalogue's name and what is in brackets.
pub fn split_entry(entry: &str) -> (&str, Option<&str>) {
    let t = entry.trim();
    // At the first bracket: a catalogue name has none, a time left may ("3 turns (end of …)").
    match t.strip_suffix(')').and_then(|x| x.split_once(" (")) {
        Some((name, inside)) => (name.trim(), Some(inside.trim())),
        None => (t, None),
    }
}

/// The catalogue's spelling of a shared condition named on a sheet (any letter case, any
/// remaining duration after it), if it is one of `set`.
pub fn shared_name(set: &'static [&'static str], entry: &str) -> Option<&'static str> {
    let (name, _) = split_entry(entry);
    set.iter().copied().find(|n| n.eq_ignore_ascii_case(name))
}

/// The shared conditions combatant `c` has in the fight (not those implied by another), each
/// with its remaining duration when `durations`.
pub fn fight_conditions(
    s: &State,
    c: &Combatant,
    set: &'static [&'static str],
    durations: bool,
) -> Value {
    once_each(
        durations,
        s.conditions_of(c.id)
            .filter(|a| a.parent.is_none() && set.contains(&a.name.as_str()))
            .map(|a| entry_of(s, a, durations))
            .collect(),
    )
}

/// "Fading (3 rounds)": a condition as a sheet lists it; the name alone when there is no time
/// left to say, or when saying it would not fit a sheet's entry.
fn entry_of(s: &State, a: &crate::rules::encounter::Active, durations: bool) -> String {
    let left = if durations {
        s.remaining(a)
    } else {
        String::new()
    };
    let entry = format!("{} ({left})", a.name);
    if left.is_empty() || entry.chars().count() > crate::rules::edit::ENTRY_LIMIT {
        a.name.clone()
    } else {
        entry
    }
}

/// Names only (no durations) compare as a set: a status is had or not.
fn once_each(durations: bool, mut l: Vec<String>) -> Value {
    if !durations {
        crate::rules::order::sort(&mut l);
        l.dedup();
    }
    Value::sorted(l)
}

/// The shared conditions a sheet lists, in the catalogue's spelling (with what follows it when
/// `durations`).
pub fn sheet_conditions(list: &[String], set: &'static [&'static str], durations: bool) -> Value {
    once_each(
        durations,
        list.iter()
            .filter_map(|e| {
                let name = shared_name(set, e)?;
                Some(match split_entry(e).1 {
                    Some(left) if durations => format!("{name} ({left})"),
                    _ => name.to_owned(),
                })
            })
            .collect(),
    )
}

/// A duration written on a sheet: "3 rounds", "to round end"; others take the catalogue's.
fn parse_duration(s: &State, who: u32, name: &str, left: Option<&str>) -> Duration {
    let rounds = left.and_then(|l| match l {
        "to round end" => Some(1),
        l => l.strip_suffix(" rounds")?.trim().parse::<u32>().ok(),
    });
    match rounds {
        Some(n) => Duration::Round {
            n: n.clamp(1, 10_000),
        },
        None => s.rules.condition(name).map_or(Duration::Removed, |d| {
            Duration::from_default(d.default, who)
        }),
    }
}

/// The events that give combatant `c` exactly the shared conditions of `v`: the ones it has
/// that the sheet does not leave, the sheet's new ones join (with the duration written, else
/// the catalogue's). An entry whose time is counted in turns (a fight's seconds: "Dazed (to
/// end of Asa’s turn)") is never brought: it is left from an earlier fight, or this fight has
/// already had it; the sheet then takes the fight's list.
pub fn bring_conditions(
    s: &State,
    c: &Combatant,
    v: &Value,
    set: &'static [&'static str],
    durations: bool,
) -> Vec<Event> {
    let have = fight_conditions(s, c, set, durations);
    let (gone, new) = diff(have.names(), v.names());
    let mut out = Vec::new();
    let mut taken: Vec<u32> = Vec::new();
    for g in gone {
        let cid = s
            .conditions_of(c.id)
            .filter(|a| a.parent.is_none() && !taken.contains(&a.cid))
            .filter(|a| entry_of(s, a, durations) == g)
            .map(|a| a.cid)
            // One entry for each written with its duration; every one for a name alone.
            .take(if durations { 1 } else { usize::MAX })
            .collect::<Vec<_>>();
        for cid in cid {
            taken.push(cid);
            out.push(Event::Remove(cid));
        }
    }
    for n in new {
        let Some(name) = shared_name(set, n) else {
            continue;
        };
        let left = split_entry(n).1;
        if left.is_some_and(super::state::turn_bound) {
            continue;
        }
        out.push(Event::Add(
            c.id,
            name.to_owned(),
            parse_duration(s, c.id, name, left),
        ));
    }
    out
}

/// The sheet's list made to hold exactly the shared entries of `v` (others untouched): each
/// removal by its index (highest first), then each addition; `edit` applies one through the
/// sheet's edits.
pub fn write_list<S>(
    sheet: &mut S,
    list: fn(&S) -> &Vec<String>,
    set: &'static [&'static str],
    durations: bool,
    v: &Value,
    remove: fn(&mut S, usize),
    add: fn(&mut S, String),
) {
    let (drop, new) = list_change(list(sheet), set, durations, v);
    for i in drop {
        remove(sheet, i);
    }
    for n in new {
        add(sheet, n);
    }
}

/// What [`write_list`] does to `list`, worked out once for every sheet type: the indexes to
/// remove (highest first), then the entries to add.
fn list_change(
    list: &[String],
    set: &'static [&'static str],
    durations: bool,
    v: &Value,
) -> (Vec<usize>, Vec<String>) {
    let have = sheet_conditions(list, set, durations);
    let (gone, new) = diff(have.names(), v.names());
    let mut drop: Vec<usize> = Vec::new();
    for g in gone {
        let at = list.iter().enumerate().position(|(i, e)| {
            !drop.contains(&i)
                && shared_name(set, e).is_some_and(|name| {
                    let written = match split_entry(e).1 {
                        Some(left) if durations => format!("{name} ({left})"),
                        _ => name.to_owned(),
                    };
                    written == g
                })
        });
        if let Some(i) = at {
            drop.push(i);
        }
    }
    crate::rules::order::sort_with(&mut drop, |a, b| b.cmp(a));
    (drop, new.into_iter().map(str::to_owned).collect())
}
