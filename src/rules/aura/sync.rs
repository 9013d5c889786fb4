//! A linked character's sheet and its fight, kept in step both ways (the UI only calls these):
//! - joining: the sheet's conditions that are in the fight's catalogue join with it, each
//!   until removed ([`join_conditions`]);
//! - sheet → fight ([`pull_events`], when the fight is shown again): stamina edited on the sheet
//!   moves the fight's stamina (0 knocks out, as spending it does), conditions added on the
//!   sheet join, and a lasting condition the fight wrote to the sheet ([`WRITTEN`]) that the
//!   player took off the sheet leaves the fight; each as a logged, undoable event;
//! - fight → sheet ([`keep_events_on_sheet`], after every fight event): the stamina left, the
//!   lasting conditions of [`WRITTEN`] the fight gave, and every catalogue condition the
//!   combatant no longer has leaves the sheet (conditions outside the catalogue stay).

use super::combat::STAMINA;
use super::edit::Edit;
use super::sheet::AuraSheet;
use crate::rules::edit::Edits;
use crate::rules::encounter::systems::AURA;
use crate::rules::encounter::{Combatant, Duration, Event, State};

/// The lasting conditions a fight writes to the sheet (the death table's and non-lethal
/// damage's; they outlast the fight).
pub const WRITTEN: [&str; 4] = ["Bleeding out", "Exhausted", "Shaken", "Unconscious"];

/// At most this many conditions join with a character (a batch holds 64 events).
const JOIN_LIMIT: usize = 40;

/// The catalogue's name for a condition written on a sheet (any letter case), if it has one.
pub fn catalogue_name(name: &str) -> Option<&'static str> {
    AURA.conditions
        .iter()
        .map(|c| c.name)
        .find(|n| n.eq_ignore_ascii_case(name.trim()))
}

/// The sheet's conditions that are in the catalogue, once each, in the sheet's order.
pub fn join_conditions(conditions: &[String]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for n in conditions.iter().filter_map(|c| catalogue_name(c)) {
        if !out.contains(&n) && out.len() < JOIN_LIMIT {
            out.push(n);
        }
    }
    out
}

/// A condition the fight gave that lasts (until removed, not implied by another).
fn lasting(s: &State, who: u32, name: &str) -> bool {
    s.conditions_of(who)
        .any(|x| x.name == name && x.parent.is_none() && x.dur == Duration::Removed)
}

/// What the sheet brings into the fight for combatant `c` (its id already the one it has or
/// will have on joining; its pools as they are): stamina, then conditions.
pub fn pull_events(sheet: &AuraSheet, s: &State, c: &Combatant) -> Vec<Event> {
    let mut out = Vec::new();
    let joined = s.get(c.id).is_some();
    let now = c.pools.get(STAMINA).copied().unwrap_or(0);
    let want = sheet
        .stamina
        .clamp(0, c.stat(super::combat::MAX_STAMINA).max(0));
    if joined && want != now {
        let mut ev = vec![
            Event::Note(format!(
                "{}: stamina {now} → {want}, as edited on the sheet",
                c.name
            )),
            Event::Spend(c.id, STAMINA, now - want),
        ];
        if want == 0 && !s.has(c.id, "Unconscious") {
            ev.push(Event::Add(c.id, "Unconscious".into(), Duration::Removed));
        }
        out.push(Event::Batch(ev));
    }
    let adds: Vec<Event> = join_conditions(&sheet.conditions)
        .into_iter()
        .filter(|n| !s.has(c.id, n))
        .map(|n| Event::Add(c.id, n.into(), Duration::Removed))
        .collect();
    let drops: Vec<Event> = if joined {
        WRITTEN
            .iter()
            .filter(|n| !sheet.has(n) && lasting(s, c.id, n))
            .flat_map(|n| {
                s.conditions_of(c.id)
                    .filter(|x| x.name == *n && x.parent.is_none())
                    .map(|x| Event::Remove(x.cid))
                    .collect::<Vec<_>>()
            })
            .collect()
    } else {
        Vec::new()
    };
    if !adds.is_empty() || !drops.is_empty() {
        let mut ev = vec![Event::Note(format!(
            "{}: conditions as on the sheet",
            c.name
        ))];
        ev.extend(adds);
        ev.extend(drops);
        out.push(Event::Batch(ev));
    }
    out
}

/// A character joining the fight with the conditions on its sheet, as one event.
pub fn join_event(s: &State, c: Combatant, sheet: &AuraSheet) -> Event {
    s.join_events(c, |c| pull_events(sheet, s, c))
}

/// Writes to the sheet what the fight changed besides aura: the stamina left, the lasting
/// conditions of [`WRITTEN`] it gave, and removes the catalogue conditions the combatant no
/// longer has. Gaining aura stabilizes and wakes. True when the sheet changed.
pub fn keep_events_on_sheet(a: &mut AuraSheet, s: &State, c: &Combatant) -> bool {
    let before = a.clone();
    let stamina = c.pools.get(STAMINA).copied().unwrap_or(0);
    let mut edits = vec![Edit::Stamina(stamina)];
    for name in WRITTEN {
        if lasting(s, c.id, name) {
            // Refused (and left off) when the sheet's conditions are full.
            edits.push(Edit::AddCondition(name.into()));
        }
    }
    let mut gone: Vec<&'static str> = a
        .conditions
        .iter()
        .filter_map(|x| catalogue_name(x))
        .filter(|n| !s.has(c.id, n))
        .collect();
    if !s.has(c.id, "Bleeding out") && c.hp > 0 {
        gone.push("Bleeding out");
    }
    edits.extend(gone.into_iter().map(|n| Edit::RemoveCondition(n.into())));
    edits.push(Edit::Woken);
    for e in edits {
        let _ = a.apply(e);
    }
    *a != before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::aura::combat::{from_sheet, ENERGY};

    fn sheet(conditions: &[&str]) -> AuraSheet {
        AuraSheet {
            conditions: conditions.iter().map(|c| (*c).to_owned()).collect(),
            ..AuraSheet::default()
        }
    }

    fn joined(sh: &AuraSheet) -> (State, u32) {
        let mut s = State::new(&AURA);
        s.apply(&Event::Join(from_sheet("Other", &AuraSheet::default())));
        let ev = join_event(&s, from_sheet("Asa", sh), sh);
        s.apply(&ev);
        s.apply(&Event::Start);
        let id = s.combatants.last().unwrap().id;
        (s, id)
    }

    #[test]
    fn sheet_conditions_in_the_catalogue_join_the_fight() {
        // "prone" in any case is the catalogue's Prone; "Cursed" is not a fight condition.
        let sh = sheet(&["prone", "Cursed", "Shaken", "Prone"]);
        assert_eq!(join_conditions(&sh.conditions), vec!["Prone", "Shaken"]);
        let (s, id) = joined(&sh);
        assert_eq!(id, 2);
        assert!(s.has(id, "Prone") && s.has(id, "Exposed") && s.has(id, "Shaken"));
        assert!(!s.has(1, "Prone"), "the other combatant gets nothing");
        // Nothing to pull right after joining.
        let c = s.get(id).unwrap().clone();
        assert!(pull_events(&sh, &s, &c).is_empty());
    }

    #[test]
    fn conditions_the_fight_removes_leave_the_sheet() {
        let mut sh = sheet(&["Prone", "Cursed"]);
        let (mut s, id) = joined(&sh);
        let cid = s.conditions_of(id).find(|x| x.name == "Prone").unwrap().cid;
        s.apply(&Event::Remove(cid));
        let c = s.get(id).unwrap().clone();
        assert!(keep_events_on_sheet(&mut sh, &s, &c));
        assert_eq!(sh.conditions, vec!["Cursed".to_owned()], "not the GM's own");
        // A lasting condition the fight gives is written.
        s.apply(&Event::Add(id, "Exhausted".into(), Duration::Removed));
        let c = s.get(id).unwrap().clone();
        assert!(keep_events_on_sheet(&mut sh, &s, &c));
        assert!(sh.has("Exhausted"));
        assert!(!keep_events_on_sheet(&mut sh, &s, &c), "nothing more");
    }

    #[test]
    fn stamina_edited_on_the_sheet_moves_into_the_fight() {
        let mut sh = sheet(&[]);
        let (mut s, id) = joined(&sh);
        assert_eq!(s.get(id).unwrap().pools[STAMINA], 10);
        sh.stamina = 4;
        let c = s.get(id).unwrap().clone();
        let ev = pull_events(&sh, &s, &c);
        assert_eq!(ev.len(), 1);
        s.apply(&ev[0]);
        assert_eq!(s.get(id).unwrap().pools[STAMINA], 4);
        assert!(s
            .log
            .iter()
            .any(|l| l.text.contains("stamina 10 → 4, as edited on the sheet")));
        // Back the other way: the fight spends 1, the sheet follows.
        s.apply(&Event::Spend(id, STAMINA, 1));
        let c = s.get(id).unwrap().clone();
        assert!(keep_events_on_sheet(&mut sh, &s, &c));
        assert_eq!(sh.stamina, 3);
        // 0 on the sheet knocks out; energy is 0 from the next round.
        sh.stamina = 0;
        let c = s.get(id).unwrap().clone();
        for e in pull_events(&sh, &s, &c) {
            s.apply(&e);
        }
        assert!(s.has(id, "Unconscious"));
        s.apply(&Event::Next);
        assert_eq!(s.get(id).unwrap().pools[ENERGY], 0);
        // Undoing is replaying without the event: the stored log handles it; the event is one
        // step (a batch) with its note.
    }

    #[test]
    fn conditions_added_or_taken_off_on_the_sheet_follow_into_the_fight() {
        let mut sh = sheet(&[]);
        let (mut s, id) = joined(&sh);
        s.apply(&Event::Add(id, "Shaken".into(), Duration::Removed));
        let c = s.get(id).unwrap().clone();
        keep_events_on_sheet(&mut sh, &s, &c);
        assert!(sh.has("Shaken"));
        // The player takes Shaken off the sheet and adds Dazed.
        sh.conditions = vec!["Dazed".into()];
        let c = s.get(id).unwrap().clone();
        for e in pull_events(&sh, &s, &c) {
            s.apply(&e);
        }
        assert!(s.has(id, "Dazed") && !s.has(id, "Shaken"));
        let c = s.get(id).unwrap().clone();
        assert!(pull_events(&sh, &s, &c).is_empty(), "in step now");
        assert!(!keep_events_on_sheet(&mut sh, &s, &c));
    }
}
