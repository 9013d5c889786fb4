//! A fight and the saved characters in it, kept in step: the one sync every path uses (a
//! character joining, a fight event, an undo, a sheet edited in this tab or another, a fight or
//! a character arriving by link or file). What is shared, per system, and which way it flows
//! is data in the rules (`rules::<system>::shared`); the decision per value is
//! `rules::encounter::shared::settle`. This module applies it to the stored documents.

use super::character::{Character, Sheet};
use crate::rules::encounter::shared::{self, Agreed, Keep, Linked, Settled};
use crate::rules::encounter::{Combatant, Encounter, Event, State};

/// What one [`settle`] did and what it leaves to the player.
#[derive(Debug, Default, PartialEq)]
pub struct Outcome {
    /// Characters the fight changed, to store as they are (`updated` is the time given).
    pub sheets: Vec<Character>,
    /// What each of those took from the fight: "Asa: HP 10 → 4".
    pub taken: Vec<String>,
    /// Combatants whose sheet and fight both changed the same values since they last agreed:
    /// "Asa: HP 7 on the sheet, 4 in the fight". Nothing of theirs moved.
    pub conflicts: Vec<String>,
    /// The encounter changed (a step from a sheet, a new agreement): save it.
    pub changed: bool,
}

fn lift<S>(r: Settled<S>, wrap: fn(S) -> Sheet) -> Settled<Sheet> {
    Settled {
        event: r.event,
        sheet: r.sheet.map(wrap),
        taken: r.taken,
        values: r.values,
        conflicts: r.conflicts,
    }
}

fn one<S: Linked>(
    sheet: &S,
    wrap: fn(S) -> Sheet,
    s: &State,
    c: &Combatant,
    rec: Option<&Agreed>,
    newer: bool,
    keep: Option<Keep>,
) -> Settled<Sheet> {
    lift(
        shared::settle(sheet, s, c, rec.map(|r| &r.values[..]), newer, keep),
        wrap,
    )
}

/// Brings encounter `enc` (whose replayed fight is `state`) and the linked characters among
/// `chars` into step, at time `now`: the sheets' changes become steps of the fight, the
/// fight's are written to the sheets (returned, for the caller to store). `keep` answers the
/// question a conflict asked. An ended fight moves nothing.
pub fn settle(
    enc: &mut Encounter,
    state: &mut State,
    chars: &[Character],
    now: u64,
    keep: Option<Keep>,
) -> Outcome {
    let mut out = Outcome::default();
    if state.ended {
        return out;
    }
    let fight_saved = enc.updated;
    let linked: Vec<u32> = state
        .combatants
        .iter()
        .filter(|c| !c.gone && c.link.is_some())
        .map(|c| c.id)
        .collect();
    for who in linked {
        let Some(c) = state.get(who).cloned() else {
            continue;
        };
        let Some(ch) = c
            .link
            .as_deref()
            .and_then(|l| chars.iter().find(|x| x.id == l))
        else {
            continue;
        };
        if ch.sheet.system().id != enc.system {
            continue;
        }
        let rec = enc.agreed(who);
        // Without a record (a fight saved before records were kept): the newer document wins.
        let newer = rec.map_or(ch.updated > fight_saved, |r| ch.updated > r.at);
        let r = match &ch.sheet {
            Sheet::Heimr(x) => one(x, Sheet::Heimr, state, &c, rec, newer, keep),
            Sheet::Symbaroum(x) => one(x, Sheet::Symbaroum, state, &c, rec, newer, keep),
            Sheet::Vogt(x) => one(x, Sheet::Vogt, state, &c, rec, newer, keep),
            Sheet::Aura(x) => one(x, Sheet::Aura, state, &c, rec, newer, keep),
            Sheet::Tempo(x) => one(x, Sheet::Tempo, state, &c, rec, newer, keep),
        };
        if !r.conflicts.is_empty() {
            let what: Vec<String> = r
                .conflicts
                .iter()
                .map(|(n, s, f)| format!("{n} {s} on the sheet, {f} in the fight"))
                .collect();
            out.conflicts
                .push(format!("{}: {}", ch.name, what.join("; ")));
            continue;
        }
        if let Some(e) = r.event {
            enc.push(e, state, now);
            out.changed = true;
        }
        let mut at = ch.updated;
        if let Some(sheet) = r.sheet {
            let mut ch = ch.clone();
            ch.sheet = sheet;
            ch.updated = now;
            at = now;
            out.taken
                .push(format!("{}: {}", ch.name, r.taken.join(", ")));
            out.sheets.push(ch);
        }
        out.changed |= enc.agree(Agreed {
            who,
            at,
            values: r.values,
        });
    }
    out
}

/// The fight's side of the values combatant `c` shares with a sheet of its fight's system, as
/// keys (what a player's phone receives for its own combatants).
pub fn fight_keys(s: &State, c: &Combatant) -> Vec<String> {
    use crate::rules::{aura::AuraSheet, heimr::HeimrSheet, symbaroum::SymbaroumSheet};
    use crate::rules::{tempo::TempoSheet, vogt::VogtSheet};
    match s.rules.system {
        "heimr" => shared::fight_keys::<HeimrSheet>(s, c),
        "symbaroum" => shared::fight_keys::<SymbaroumSheet>(s, c),
        "vogt" => shared::fight_keys::<VogtSheet>(s, c),
        "aura" => shared::fight_keys::<AuraSheet>(s, c),
        "tempo" => shared::fight_keys::<TempoSheet>(s, c),
        _ => Vec::new(),
    }
}

/// A player's phone following the GM's fight: character `ch`, whose combatant there holds
/// `fight` (as [`fight_keys`]) and last agreed `rec`, takes the fight's values (see
/// [`shared::follow`]). Returns the character to store (if it changed, `updated` = `now`),
/// what it took, and the new agreement.
pub fn follow(
    ch: &Character,
    who: u32,
    fight: &[String],
    rec: Option<&Agreed>,
    now: u64,
) -> (Option<Character>, Vec<String>, Agreed) {
    let agreed = rec.map(|r| &r.values[..]);
    let newer = rec.is_some_and(|r| ch.updated > r.at);
    fn go<S: Linked>(
        x: &S,
        wrap: fn(S) -> Sheet,
        f: &[String],
        a: Option<&[String]>,
        n: bool,
    ) -> Settled<Sheet> {
        lift(shared::follow(x, f, a, n), wrap)
    }
    let r = match &ch.sheet {
        Sheet::Heimr(x) => go(x, Sheet::Heimr, fight, agreed, newer),
        Sheet::Symbaroum(x) => go(x, Sheet::Symbaroum, fight, agreed, newer),
        Sheet::Vogt(x) => go(x, Sheet::Vogt, fight, agreed, newer),
        Sheet::Aura(x) => go(x, Sheet::Aura, fight, agreed, newer),
        Sheet::Tempo(x) => go(x, Sheet::Tempo, fight, agreed, newer),
    };
    let mut at = ch.updated;
    let changed = r.sheet.map(|sheet| {
        let mut c = ch.clone();
        c.sheet = sheet;
        c.updated = now;
        at = now;
        c
    });
    // A value the sheet kept stays kept only while the sheet is newer than the agreement.
    if !r.conflicts.is_empty() {
        at = rec.map_or(0, |r| r.at);
    }
    let rec = Agreed {
        who,
        at,
        values: r.values,
    };
    (changed, r.taken, rec)
}

/// Undo of what a followed fight wrote to this phone's sheets: `undo` holds, oldest first, each
/// sheet as it was before a write and the `updated` stamp that write gave it; `now_at` is each
/// sheet's stamp as stored now. Returns every sheet to put back, as it was before the first of
/// the writes undone (stamped `now`). A sheet the player changed after the fight's last write
/// keeps that change: its writes are not undone; nor is any write older than one that was not.
pub fn undo_follow(
    undo: Vec<(Character, u64)>,
    now_at: impl Fn(&str) -> Option<u64>,
    now: u64,
) -> Vec<Character> {
    // Per sheet: the stamp it would have once the later writes were undone, and what to put.
    let mut at: Vec<(String, Option<u64>, Option<Character>)> = Vec::new();
    for (before, written) in undo.into_iter().rev() {
        let i = match at.iter().position(|(id, ..)| *id == before.id) {
            Some(i) => i,
            None => {
                at.push((before.id.clone(), now_at(&before.id), None));
                at.len() - 1
            }
        };
        let slot = &mut at[i];
        if slot.1 == Some(written) {
            slot.1 = Some(before.updated);
            slot.2 = Some(before);
        } else {
            slot.1 = None; // changed since: this write and every older one stay
        }
    }
    at.into_iter()
        .filter_map(|(.., ch)| ch)
        .map(|mut ch| {
            ch.updated = now;
            ch
        })
        .collect()
}

/// A saved character joining fight `s`: the combatant built from its sheet and, in the same
/// step, what else its sheet holds (conditions); `None` for another system's character.
pub fn join_event(ch: &Character, s: &State) -> Option<Event> {
    if ch.sheet.system().id != s.rules.system {
        return None;
    }
    let c = ch.combatant();
    Some(match &ch.sheet {
        Sheet::Heimr(x) => shared::join_events(s, c, x),
        Sheet::Symbaroum(x) => shared::join_events(s, c, x),
        Sheet::Vogt(x) => shared::join_events(s, c, x),
        Sheet::Aura(x) => shared::join_events(s, c, x),
        Sheet::Tempo(x) => shared::join_events(s, c, x),
    })
}

#[cfg(test)]
#[path = "agree_tests.rs"]
mod tests;
