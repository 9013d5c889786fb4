//! The characters in memory and their saving: edits apply at once in memory and are written
//! shortly after (debounced), immediately when the page is hidden, each write read back. A
//! failed write keeps the character marked unsaved, says so, and is retried on the next save.

use crate::storage::character::{key_of, Character, Sheet};
use crate::storage::merge::{canonical, describe, Step, Tracker};
use crate::storage::roster::{delete_character, load_roster, save_index_with, NewerEntry};
use crate::storage::{KeyValueStore, LocalStore, StorageError, Versioned};
use crate::ui::state::{now_ms, Asked, Notices};
use leptos::ev;
use leptos::prelude::*;
use std::collections::BTreeSet;
use std::time::Duration;

/// How long edits wait before they are written.
const SAVE_DELAY: Duration = Duration::from_millis(400);
/// After a failed save (a full storage): try again this often until it sticks.
const RETRY_DELAY: Duration = Duration::from_secs(3);

#[derive(Clone, Copy)]
pub struct Roster {
    pub chars: RwSignal<Vec<Character>>,
    pub newer: RwSignal<Vec<NewerEntry>>,
    /// Deleted this session, newest last, with their former position: for undo.
    pub deleted: RwSignal<Vec<(usize, Character)>>,
    /// Ids with edits not yet written.
    pub unsaved: RwSignal<BTreeSet<String>>,
    /// The party's carried Heimr XP remainder (stored once, in the index).
    pub xp_carried: RwSignal<u32>,
    timer: StoredValue<Option<TimeoutHandle>>,
    /// What storage held when this tab last read or wrote each character, for merging with
    /// another tab's save.
    sync: StoredValue<Tracker>,
    asked_persist: StoredValue<bool>,
    /// Carried here, not looked up: saves run from timers, storage events and page-hide
    /// handlers, outside the reactive owner where a context lookup panics.
    notices: Notices,
}

impl Roster {
    pub fn notices(&self) -> Notices {
        self.notices
    }

    pub fn get(&self, id: &str) -> Option<Character> {
        self.chars
            .with(|cs| cs.iter().find(|c| c.id == id).cloned())
    }

    fn fresh_id(&self) -> String {
        crate::ui::state::fresh_id(&|id| {
            self.chars
                .with_untracked(|cs| cs.iter().any(|c| c.id == id))
        })
    }

    pub fn create(&self, system: &str, name: &str) -> Option<String> {
        let sheet = Sheet::new(system)?;
        let id = self.fresh_id();
        let name = if name.trim().is_empty() {
            "New character".to_owned()
        } else {
            name.trim().to_owned()
        };
        self.chars
            .update(|cs| cs.push(Character::new(id.clone(), name, sheet, now_ms())));
        self.mark(&id);
        self.save_index();
        Some(id)
    }

    /// Changes a character in memory and schedules the write.
    pub fn update(&self, id: &str, f: impl FnOnce(&mut Character)) {
        let mut changed = false;
        self.chars.update(|cs| {
            if let Some(c) = cs.iter_mut().find(|c| c.id == id) {
                f(c);
                c.updated = now_ms();
                changed = true;
            }
        });
        if changed {
            self.mark(id);
        }
    }

    pub fn duplicate(&self, id: &str) -> Option<String> {
        let mut copy = self.get(id)?;
        copy.id = self.fresh_id();
        copy.name = copy.suffixed(" (copy)");
        copy.created = now_ms();
        copy.updated = copy.created;
        let new_id = copy.id.clone();
        self.chars.update(|cs| {
            let at = cs
                .iter()
                .position(|c| c.id == id)
                .map_or(cs.len(), |i| i + 1);
            cs.insert(at, copy);
        });
        self.mark(&new_id);
        self.save_index();
        Some(new_id)
    }

    pub fn delete(&self, id: &str) {
        let mut removed = None;
        self.chars.update(|cs| {
            if let Some(i) = cs.iter().position(|c| c.id == id) {
                removed = Some((i, cs.remove(i)));
            }
        });
        let Some(entry) = removed else { return };
        self.unsaved.update(|u| {
            u.remove(id);
        });
        self.deleted.update(|d| d.push(entry));
        self.sync.update_value(|t| t.forget(id));
        self.report(delete_character(&LocalStore, id), "Deleting");
        self.save_index();
    }

    /// Keeps the party's remainder after an XP share.
    pub fn set_xp_carried(&self, v: u32) {
        self.xp_carried.set(v);
        self.save_index();
    }

    pub fn undo_delete(&self) {
        let Some((i, c)) = self.deleted.try_update(Vec::pop).flatten() else {
            return;
        };
        let id = c.id.clone();
        // Brought back since (an import of its export): keep that one, never a second copy.
        if self
            .chars
            .with_untracked(|cs| cs.iter().any(|x| x.id == id))
        {
            return;
        }
        self.chars.update(|cs| cs.insert(i.min(cs.len()), c));
        self.mark(&id);
        self.save_index();
    }

    /// Stores a character as given (its `updated` kept: the fight it agreed with records it).
    pub fn put(&self, c: Character) {
        let id = c.id.clone();
        let mut found = false;
        self.chars.update(|cs| {
            if let Some(slot) = cs.iter_mut().find(|x| x.id == c.id) {
                *slot = c;
                found = true;
            }
        });
        if found {
            self.mark(&id);
        }
    }

    /// Adds imported characters; `replace` ones overwrite the character with the same id.
    /// One update for the whole list, each id found through a map: a backup of ten thousand
    /// characters into a full roster was a hundred million comparisons.
    pub fn add_imported(&self, list: Vec<Character>) {
        let mut ids = BTreeSet::new();
        for c in &list {
            ids.insert(c.id.clone());
        }
        // An import of a deleted character replaces its pending undo.
        self.deleted
            .update(|d| d.retain(|(_, x)| !ids.contains(&x.id)));
        self.chars.update(|cs| {
            let mut at = std::collections::BTreeMap::new();
            for (i, c) in cs.iter().enumerate() {
                at.insert(c.id.clone(), i);
            }
            for c in list {
                match at.get(&c.id) {
                    Some(&i) => cs[i] = c,
                    None => {
                        at.insert(c.id.clone(), cs.len());
                        cs.push(c);
                    }
                }
            }
        });
        self.mark_all(ids);
        self.save_index();
    }

    /// A copy with a new id, for "keep both".
    pub fn as_new(&self, mut c: Character) -> Character {
        c.id = self.fresh_id();
        c.name = c.suffixed(" (imported)");
        c
    }

    fn mark(&self, id: &str) {
        self.mark_all([id.to_owned()]);
    }

    fn mark_all(&self, ids: impl IntoIterator<Item = String>) {
        self.unsaved.update(|u| u.extend(ids));
        if let Some(handle) = self.timer.get_value() {
            handle.clear();
        }
        let this = *self;
        self.timer
            .set_value(set_timeout_with_handle(move || this.flush(), SAVE_DELAY).ok());
    }

    /// Writes every unsaved character now.
    pub fn flush(&self) {
        let ids = self.unsaved.get_untracked();
        if ids.is_empty() {
            return;
        }
        let mut failed = BTreeSet::new();
        // In one pass over the roster (a full phone holds ten thousand characters).
        let texts: Vec<(String, String)> = self.chars.with_untracked(|cs| {
            cs.iter()
                .filter(|c| ids.contains(&c.id))
                .filter_map(|c| Some((c.id.clone(), serde_json::to_string(c).ok()?)))
                .collect()
        });
        for (id, text) in texts {
            // Not written: a failure (said) or a question waiting for the player.
            let waiting = match self
                .sync
                .try_update_value(|t| t.write(&LocalStore, &key_of(&id), &id, &text))
            {
                Some(Ok(step)) => self.apply(&id, step),
                Some(Err(e)) => {
                    self.report(Err(e), "Saving");
                    true
                }
                None => false,
            };
            if waiting {
                failed.insert(id);
            }
        }
        let saved_any = failed.len() < self.unsaved.with_untracked(BTreeSet::len);
        let retry = failed
            .iter()
            .any(|id| !self.sync.with_value(|t| t.is_pending(id)));
        self.unsaved.set(failed);
        if retry {
            // The edit stays on the page; try again until the storage has room.
            let this = *self;
            if let Some(handle) = self.timer.get_value() {
                handle.clear();
            }
            self.timer
                .set_value(set_timeout_with_handle(move || this.flush(), RETRY_DELAY).ok());
        }
        if saved_any && !self.asked_persist.get_value() {
            self.asked_persist.set_value(true);
            leptos::task::spawn_local(async {
                let _ = crate::ui::persist::request().await;
            });
        }
    }

    fn save_index(&self) {
        let ids = self
            .chars
            .with_untracked(|cs| cs.iter().map(|c| c.id.clone()).collect());
        self.report(
            save_index_with(&LocalStore, ids, self.xp_carried.get_untracked()),
            "Saving the character list",
        );
    }

    fn report(&self, r: Result<(), StorageError>, what: &str) {
        if let Err(e) = r {
            self.notices.failed(
                format!("{what} failed: {e}. Your changes are kept on this page and saved as soon as there is room."),
                &e,
            );
        }
    }

    /// Another tab wrote `key`: take its version unless this tab has unsaved edits of its own.
    fn on_storage_event(&self, key: Option<String>) {
        let Some(key) = key else {
            return self.reload_all();
        };
        if key == crate::storage::roster::Index::KEY {
            return self.reload_all();
        }
        let Some(id) = key.strip_prefix(Character::KEY).map(str::to_owned) else {
            return;
        };
        let unsaved = self.unsaved.with_untracked(|u| u.contains(&id));
        match LocalStore.get(&key) {
            Ok(Some(raw)) => {
                let mine = unsaved.then(|| self.text(&id)).flatten();
                if let Some(step) = self
                    .sync
                    .try_update_value(|t| t.arrive(&id, mine.as_deref(), &raw))
                {
                    self.apply(&id, step);
                }
            }
            // Deleted in the other tab: an unsaved edit here keeps it (and saves it back).
            Ok(None) if !unsaved => {
                self.sync.update_value(|t| t.forget(&id));
                self.chars.update(|cs| cs.retain(|c| c.id != id));
            }
            _ => {}
        }
    }

    /// A character as saving writes it.
    fn text(&self, id: &str) -> Option<String> {
        self.chars.with_untracked(|cs| {
            let c = cs.iter().find(|c| c.id == id)?;
            serde_json::to_string(c).ok()
        })
    }

    /// Shows what syncing with storage gave: another tab's version (or the merge) taken on the
    /// page, or the question. True while the question is open.
    fn apply(&self, id: &str, step: Step) -> bool {
        match step {
            Step::Same => false,
            Step::Take(text) => {
                let Ok(c) = serde_json::from_str::<Character>(&text) else {
                    return false;
                };
                self.chars
                    .update(|cs| match cs.iter_mut().find(|x| x.id == id) {
                        Some(slot) => *slot = c,
                        None => cs.push(c),
                    });
                false
            }
            Step::Ask(conflicts) => {
                if !conflicts.is_empty() {
                    let name = self.chars.with_untracked(|cs| {
                        cs.iter().find(|c| c.id == id).map(|c| c.name.clone())
                    });
                    self.notices.ask(
                        describe(&format!("“{}”", name.unwrap_or_default()), &conflicts),
                        Asked::Character,
                        id,
                    );
                }
                true
            }
        }
    }

    /// The player's answer to a conflict: this tab's values (`keep_mine`) or the other's.
    pub fn resolve(&self, id: &str, keep_mine: bool) {
        let Some(mine) = self.text(id) else {
            return;
        };
        if let Some(Some(doc)) = self
            .sync
            .try_update_value(|t| t.resolve(id, &mine, keep_mine))
        {
            self.apply(id, Step::Take(doc));
            self.mark(id);
        }
    }

    fn reload_all(&self) {
        if let Ok(loaded) = load_roster(&LocalStore, now_ms()) {
            let unsaved = self.unsaved.get_untracked();
            let mine: Vec<Character> = self.chars.with_untracked(|cs| {
                cs.iter()
                    .filter(|c| unsaved.contains(&c.id))
                    .cloned()
                    .collect()
            });
            let mut list = loaded.characters;
            self.sync.update_value(|t| {
                for c in list.iter().filter(|c| !unsaved.contains(&c.id)) {
                    if let Ok(text) = serde_json::to_string(c) {
                        t.seen(&c.id, text);
                    }
                }
            });
            for c in mine {
                match list.iter_mut().find(|x| x.id == c.id) {
                    Some(slot) => *slot = c,
                    None => list.push(c),
                }
            }
            self.chars.set(list);
            self.newer.set(loaded.newer);
        }
    }
}

fn canon(text: &str) -> Option<String> {
    canonical::<Character>(text, Character::validate)
}

pub fn provide_roster(notices: Notices) -> Roster {
    let (chars, newer, carried) = match load_roster(&LocalStore, now_ms()) {
        Ok(loaded) => {
            for message in loaded.quarantined {
                notices.error(message);
            }
            for n in &loaded.newer {
                notices.error(format!(
                    "“{}” was saved by a newer Rollsheet (format {}); it is shown read-only. Update the app to edit it.",
                    n.name, n.found
                ));
            }
            (loaded.characters, loaded.newer, loaded.xp_carried)
        }
        Err(e) => {
            notices.error(format!("Characters could not be loaded: {e}"));
            (Vec::new(), Vec::new(), 0)
        }
    };
    let mut sync = Tracker::new(&[], |t| canonical::<Character>(t, |_| Ok(())), canon);
    for c in &chars {
        if let Ok(text) = serde_json::to_string(c) {
            sync.seen(&c.id, text);
        }
    }
    let roster = Roster {
        sync: StoredValue::new(sync),
        chars: RwSignal::new(chars),
        newer: RwSignal::new(newer),
        deleted: RwSignal::new(Vec::new()),
        unsaved: RwSignal::new(BTreeSet::new()),
        xp_carried: RwSignal::new(carried),
        timer: StoredValue::new(None),
        asked_persist: StoredValue::new(false),
        notices,
    };
    provide_context(roster);
    // Write at once when the phone locks or the tab goes away. Text typed but not yet
    // committed is committed first: index.html's script leaves the field on the same events,
    // before this listener runs, which fires its change (the name, the notes).
    let flush = move |_| roster.flush();
    std::mem::forget(window_event_listener_untyped("visibilitychange", flush));
    std::mem::forget(window_event_listener_untyped("pagehide", flush));
    std::mem::forget(window_event_listener(
        ev::storage,
        move |e: web_sys::StorageEvent| roster.on_storage_event(e.key()),
    ));
    roster
}
