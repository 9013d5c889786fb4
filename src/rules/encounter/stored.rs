//! An encounter as stored: its events and the undo position. Undo and redo move the position;
//! a new event after an undo drops the undone ones (as in every editor), so the log up to the
//! position is always exactly the fight shown.

use super::rules::CombatRules;
use super::shared::Agreed;
use super::state::{Event, State, NAME_LIMIT};
use super::systems::rules_for;
use serde::{Deserialize, Serialize};

/// Most events one encounter may hold (a long fight has a few hundred).
pub const MAX_EVENTS: usize = 100_000;
/// Numbers in an encounter stay within ±`LIMIT`, so no sum of them can overflow.
pub const LIMIT: i32 = 1_000_000;
/// The most stats a combatant holds (Tempo's 65: a check bonus and a cost per action; 64
/// before).
pub const STAT_SLOTS: usize = 96;
/// The longest note or condition name an event carries, in bytes.
pub const NOTE_LIMIT: usize = 16 * 1024;
/// The most events one step holds (one damage roll against every combatant, each with its
/// consequences; 64 before, fewer than a fight of NPC groups can need).
pub const BATCH_LIMIT: usize = 4096;
/// The longest text a combatant carries, in bytes (a list of 200 damage types of 200 characters).
pub const TEXT_LIMIT: usize = 200 * 202 * 4;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encounter {
    pub schema_version: u64,
    pub id: String,
    pub name: String,
    pub system: String,
    /// Milliseconds since the Unix epoch.
    pub created: u64,
    pub updated: u64,
    pub events: Vec<Event>,
    /// How many events are in effect (the rest were undone and can be redone).
    pub cursor: usize,
    /// Per linked combatant, what it and its character's sheet last agreed on (not part of
    /// the log: undo moves the fight, and the sheet follows from this record).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agreed: Vec<Agreed>,
    /// The GM's choices for the live table (not part of the log, which players see): NPCs
    /// hidden from the players until their first turn, and NPCs whose numbers they see.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed: Vec<u32>,
}

impl Encounter {
    pub const CURRENT: u64 = 1;

    /// Whether the character stored as `link` is in this fight while it runs (started, not
    /// over, not left), read from the log in effect without replaying it (a sheet asks this
    /// before an edit that is a fight action, `rules::edit::in_fight`). Combatants are numbered
    /// 1, 2, … in the order they joined.
    pub fn runs_with(&self, link: &str) -> bool {
        let (mut joined, mut mine, mut started, mut ended) = (0u32, Vec::new(), false, false);
        let mut see = |e: &Event| match e {
            Event::Join(c) => {
                joined += 1;
                if c.link.as_deref() == Some(link) {
                    mine.push(joined);
                }
            }
            Event::Group(l) => {
                for c in l {
                    joined += 1;
                    if c.link.as_deref() == Some(link) {
                        mine.push(joined);
                    }
                }
            }
            Event::Leave(who) => mine.retain(|x| x != who),
            // The first Next starts a fight as Start does.
            Event::Start | Event::Next => started = true,
            Event::End => ended = true,
            _ => {}
        };
        for e in &self.events[..self.cursor.min(self.events.len())] {
            match e {
                Event::Batch(l) => l.iter().for_each(&mut see),
                e => see(e),
            }
        }
        started && !ended && !mine.is_empty()
    }

    /// A new, empty encounter; `None` for a system without combat rules.
    pub fn new(id: String, name: String, system: &str, now: u64) -> Option<Encounter> {
        rules_for(system)?;
        Some(Encounter {
            schema_version: Self::CURRENT,
            id,
            name: Self::clean_name(&name),
            system: system.to_owned(),
            created: now,
            updated: now,
            events: Vec::new(),
            cursor: 0,
            agreed: Vec::new(),
            hidden: Vec::new(),
            revealed: Vec::new(),
        })
    }

    /// A name as the Combat page's fields take it: trimmed and cut to [`NAME_LIMIT`] characters
    /// (what every phone's import takes); an empty one is "New fight".
    pub fn clean_name(name: &str) -> String {
        match crate::rules::edit::entry(name, NAME_LIMIT) {
            n if n.is_empty() => "New fight".to_owned(),
            n => n,
        }
    }

    /// The name with a suffix such as " (copy)", cut so both fit [`NAME_LIMIT`].
    pub fn suffixed(&self, suffix: &str) -> String {
        crate::rules::edit::suffixed(&self.name, suffix, NAME_LIMIT)
    }

    /// Toggles `who` in the GM's list `list` (hidden or revealed); `true` when it is in it now.
    pub fn toggle(list: &mut Vec<u32>, who: u32) -> bool {
        match list.iter().position(|&x| x == who) {
            Some(i) => {
                list.remove(i);
                false
            }
            None => {
                list.push(who);
                true
            }
        }
    }

    pub fn rules(&self) -> &'static CombatRules {
        rules_for(&self.system).unwrap_or(&super::systems::SYMBAROUM)
    }

    /// The fight as it stands: the events up to the undo position, replayed.
    pub fn state(&self) -> State {
        State::replay(
            self.rules(),
            &self.events[..self.cursor.min(self.events.len())],
        )
    }

    /// Records a new event (dropping any undone ones) and applies it to `state`, which must be
    /// this encounter's current state: the incremental twin of [`Encounter::state`].
    pub fn push(&mut self, event: Event, state: &mut State, now: u64) {
        self.events.truncate(self.cursor);
        state.apply(&event);
        self.events.push(event);
        self.cursor = self.events.len();
        self.updated = now;
    }

    /// What linked combatant `who` last agreed on with its sheet.
    pub fn agreed(&self, who: u32) -> Option<&Agreed> {
        self.agreed.iter().find(|a| a.who == who)
    }

    /// Records an agreement; true when it changed the record.
    pub fn agree(&mut self, a: Agreed) -> bool {
        match self.agreed.iter_mut().find(|x| x.who == a.who) {
            Some(x) if *x == a => false,
            Some(x) => {
                *x = a;
                true
            }
            None => {
                self.agreed.push(a);
                true
            }
        }
    }

    pub fn can_undo(&self) -> bool {
        self.cursor > 0
    }

    pub fn can_redo(&self) -> bool {
        self.cursor < self.events.len()
    }

    pub fn undo(&mut self, now: u64) -> bool {
        if !self.can_undo() {
            return false;
        }
        self.cursor -= 1;
        self.updated = now;
        true
    }

    pub fn redo(&mut self, now: u64) -> bool {
        if !self.can_redo() {
            return false;
        }
        self.cursor += 1;
        self.updated = now;
        true
    }

    /// Checks a stored or imported encounter: a known system, a position inside the log.
    pub fn validate(&self) -> Result<(), String> {
        if rules_for(&self.system).is_none() {
            return Err(format!("unknown system “{}”", self.system));
        }
        if self.cursor > self.events.len() {
            return Err(format!(
                "undo position {} is past the {} events",
                self.cursor,
                self.events.len()
            ));
        }
        if self.id.trim().is_empty() || self.id.len() > 64 {
            return Err("the encounter's id is missing or too long".into());
        }
        if self.name.chars().count() > NAME_LIMIT {
            return Err(format!("the name is longer than {NAME_LIMIT} characters"));
        }
        if self.events.len() > MAX_EVENTS {
            return Err(format!(
                "{} events (at most {MAX_EVENTS})",
                self.events.len()
            ));
        }
        if self.agreed.len() > MAX_EVENTS {
            return Err("too many shared-values records".into());
        }
        for a in &self.agreed {
            a.validate()?;
        }
        if self.hidden.len() > MAX_EVENTS || self.revealed.len() > MAX_EVENTS {
            return Err("too many hidden or revealed combatants".into());
        }
        for (i, e) in self.events.iter().enumerate() {
            if !event_ok(e, true) {
                return Err(format!(
                    "event {} holds a value out of range (at most ±{LIMIT}, names up to 200 characters)",
                    i + 1
                ));
            }
        }
        Ok(())
    }
}

fn small(v: i32) -> bool {
    (-LIMIT..=LIMIT).contains(&v)
}

fn combatant_ok(c: &super::Combatant) -> bool {
    c.name.chars().count() <= super::state::NAME_LIMIT
        && [c.hp, c.hp_max]
            .into_iter()
            .chain(c.stats.iter().copied())
            .chain(c.init.iter().copied())
            .chain(c.pools.iter().copied())
            .all(small)
        && c.stats.len() <= STAT_SLOTS
        && c.pools.len() <= 64
        && c.used.len() <= 64
        // Texts are dice, damage types and lists of them (Vogt's resistances): each is read
        // with its own parser when used, so only their size is bounded here. (Requiring dice
        // refused every Vogt fight with a saved character: its damage type is a word.)
        && c.texts.len() <= 64
        && c.texts.iter().all(|t| t.len() <= TEXT_LIMIT)
}

/// One event's numbers and texts within bounds; a batch holds at most 64 events, none of them
/// a batch (`outer` is false inside one).
pub fn event_ok(e: &Event, outer: bool) -> bool {
    match e {
        Event::Join(c) => combatant_ok(c),
        Event::Group(list) => list.len() <= 1000 && list.iter().all(combatant_ok),
        Event::Damage(_, n) | Event::Heal(_, n, _) | Event::Spend(_, _, n) => small(*n),
        Event::Set(_, i, n) => *i < STAT_SLOTS && small(*n),
        Event::Text(_, i, t) => *i < 64 && t.len() <= TEXT_LIMIT,
        Event::Sync(_, hp, _, _) => small(*hp),
        Event::Init(_, keys) => keys.iter().copied().all(small),
        // Notes are written by the app and name combatants (up to 200 characters each): an
        // attack's line with its target, guard and cluster passed the 500 allowed before.
        Event::Note(t) | Event::Add(_, t, _) | Event::Use(_, t) => t.len() <= NOTE_LIMIT,
        Event::Batch(list) => {
            outer && list.len() <= BATCH_LIMIT && list.iter().all(|e| event_ok(e, false))
        }
        _ => true,
    }
}
