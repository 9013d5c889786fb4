//! Encounters in memory and their saving. Every action in a fight is one event, written at once
//! (a fight is taps, not typing), so a phone locking mid-round loses nothing; a failed write is
//! said, kept on the page and retried. Linked characters share what their system lists with the fight: each
//! change in the fight is written to the character, and a change made on the sheet comes into
//! the fight as a logged step (`storage::agree`).

use crate::rules::dice::CryptoSource;
use crate::rules::encounter::referee::Recorder;
use crate::rules::encounter::shared::Keep;
use crate::rules::encounter::{Encounter, Event, State};
use crate::rules::referee::{self, Intent};
use crate::storage::agree::{self, Outcome};
use crate::storage::encounters::{
    delete_encounter, key_of, load_encounters, save_encounter_index, INDEX_KEY,
};
use crate::storage::merge::{canonical, describe, Step, Tracker};
use crate::storage::roster::NewerEntry;
use crate::storage::table::Request;
use crate::storage::{KeyValueStore, Versioned};
use crate::storage::{LocalStore, StorageError};
use crate::ui::lazy::NotLoaded;
use crate::ui::roster::Roster;
use crate::ui::state::{now_ms, with_dice, Asked, Notices};
use leptos::prelude::*;
use std::collections::BTreeSet;
use std::time::Duration;

const RETRY_DELAY: Duration = Duration::from_secs(3);

#[derive(Clone, Copy)]
pub struct Encounters {
    pub list: RwSignal<Vec<Encounter>>,
    pub newer: RwSignal<Vec<NewerEntry>>,
    /// Deleted this session with their former position, newest last: for undo.
    pub deleted: RwSignal<Vec<(usize, Encounter)>>,
    /// On a player's phone at the table: the GM's running fight it follows, by name, with the
    /// characters of this phone in it (set by the table's module).
    pub followed: RwSignal<Option<(String, Vec<String>)>>,
    unsaved: StoredValue<BTreeSet<String>>,
    /// What storage held when this tab last read or wrote each encounter (see `Roster`).
    sync: StoredValue<Tracker>,
    /// The fight on screen, replayed again when another tab's version is taken.
    shown: StoredValue<Option<(String, RwSignal<State>)>>,
    roster: Roster,
    notices: Notices,
}

impl Encounters {
    /// The system of encounter `id` (without copying its events).
    pub fn system_of(&self, id: &str) -> Option<String> {
        self.list
            .with_untracked(|l| l.iter().find(|e| e.id == id).map(|e| e.system.clone()))
    }

    /// Whether any fight stored here is of `system`.
    pub fn system_of_any(&self, system: &str) -> bool {
        self.list
            .with_untracked(|l| l.iter().any(|e| e.system == system))
    }

    /// The fights of `system` as they stand, replayed (none until the fights' code is here:
    /// [`load_engine`]); tracked, for a sheet that asks what its fights say.
    pub fn replayed(&self, system: &str) -> Vec<State> {
        let Some(engine) = engine() else {
            return Vec::new();
        };
        self.list.with(|l| {
            l.iter()
                .filter(|e| e.system == system)
                .map(engine.state)
                .collect()
        })
    }

    /// The name of a running fight stored here that character `link` is in, if any.
    pub fn running_with(&self, link: &str) -> Option<String> {
        self.list
            .with_untracked(|l| l.iter().find(|e| e.runs_with(link)).map(|e| e.name.clone()))
            .or_else(|| {
                self.followed.with_untracked(|f| {
                    f.as_ref()
                        .filter(|(_, links)| links.iter().any(|x| x == link))
                        .map(|(name, _)| name.clone())
                })
            })
    }

    pub fn get(&self, id: &str) -> Option<Encounter> {
        self.list
            .with_untracked(|l| l.iter().find(|e| e.id == id).cloned())
    }

    fn fresh_id(&self) -> String {
        crate::ui::state::fresh_id(&|id| self.get(id).is_some())
    }

    pub fn create(&self, system: &str, name: &str) -> Option<String> {
        let e = Encounter::new(self.fresh_id(), name.to_owned(), system, now_ms())?;
        let id = e.id.clone();
        self.list.update(|l| l.push(e));
        self.save(&id);
        self.save_index();
        Some(id)
    }

    /// Changes an encounter's document (not its fight) and saves it.
    pub fn update(&self, id: &str, f: impl FnOnce(&mut Encounter)) {
        self.list.update(|l| {
            if let Some(e) = l.iter_mut().find(|e| e.id == id) {
                f(e);
                e.updated = now_ms();
            }
        });
        self.save(id);
    }

    pub fn duplicate(&self, id: &str) -> Option<String> {
        let mut copy = self.get(id)?;
        copy.id = self.fresh_id();
        copy.name = copy.suffixed(" (copy)");
        copy.created = now_ms();
        copy.updated = copy.created;
        let new_id = copy.id.clone();
        self.list.update(|l| {
            let at = l.iter().position(|e| e.id == id).map_or(l.len(), |i| i + 1);
            l.insert(at, copy);
        });
        self.save(&new_id);
        self.save_index();
        Some(new_id)
    }

    pub fn delete(&self, id: &str) {
        let mut removed = None;
        self.list.update(|l| {
            if let Some(i) = l.iter().position(|e| e.id == id) {
                removed = Some((i, l.remove(i)));
            }
        });
        let Some(entry) = removed else { return };
        self.deleted.update(|d| d.push(entry));
        self.unsaved.update_value(|u| {
            u.remove(id);
        });
        self.sync.update_value(|t| t.forget(id));
        self.report(delete_encounter(&LocalStore, id), "Deleting the encounter");
        self.save_index();
    }

    pub fn undo_delete(&self) {
        let Some((i, e)) = self.deleted.try_update(Vec::pop).flatten() else {
            return;
        };
        let id = e.id.clone();
        // Brought back since (an import of its export): keep that one, never a second copy.
        if self.list.with_untracked(|l| l.iter().any(|x| x.id == id)) {
            return;
        }
        self.list.update(|l| l.insert(i.min(l.len()), e));
        self.save(&id);
        self.save_index();
    }

    /// Adds an imported encounter; with `as_new`, under a fresh id ("keep both").
    pub fn add_imported(&self, mut e: Encounter, as_new: bool) -> String {
        if as_new {
            e.id = self.fresh_id();
            e.name = e.suffixed(" (imported)");
        }
        let id = e.id.clone();
        self.deleted.update(|d| d.retain(|(_, x)| x.id != id));
        self.list
            .update(|l| match l.iter_mut().find(|x| x.id == e.id) {
                Some(slot) => *slot = e,
                None => l.push(e),
            });
        self.save(&id);
        self.save_index();
        // A received fight is shown as it was sent: older copies of its characters follow it.
        let shown = self
            .shown
            .get_value()
            .filter(|(s, _)| *s == id)
            .map(|(_, st)| st);
        self.settle(&id, shown, None, true);
        id
    }

    fn save(&self, id: &str) {
        self.unsaved.update_value(|u| {
            u.insert(id.to_owned());
        });
        self.flush();
    }

    /// Writes every encounter not yet written; on failure, says so and tries again later.
    pub fn flush(&self) {
        let ids = self.unsaved.get_value();
        let mut failed = BTreeSet::new();
        for id in ids {
            let Some(text) = self.text(&id) else { continue };
            // Not written: a failure (said) or a question waiting for the player.
            let waiting = match self
                .sync
                .try_update_value(|t| t.write(&LocalStore, &key_of(&id), &id, &text))
            {
                Some(Ok(step)) => self.apply(&id, step),
                Some(Err(err)) => {
                    self.report(Err(err), "Saving the fight");
                    true
                }
                None => false,
            };
            if waiting {
                failed.insert(id);
            }
        }
        let retry = failed
            .iter()
            .any(|id| !self.sync.with_value(|t| t.is_pending(id)));
        self.unsaved.set_value(failed);
        if retry {
            let this = *self;
            set_timeout(move || this.flush(), RETRY_DELAY);
        }
    }

    /// The fight `id` is on screen with this state.
    pub fn show(&self, id: &str, state: RwSignal<State>) {
        self.shown.set_value(Some((id.to_owned(), state)));
    }

    /// Takes another tab's version (or the merge) or asks; true while the question is open.
    fn apply(&self, id: &str, step: Step) -> bool {
        match step {
            Step::Same => false,
            Step::Take(text) => {
                let Ok(e) = serde_json::from_str::<Encounter>(&text) else {
                    return false;
                };
                // The fight on screen: the engine came with its page (`ui::lazy::page`).
                if let (Some((_, state)), Some(engine)) =
                    (self.shown.get_value().filter(|(s, _)| s == id), engine())
                {
                    let _ = state.try_set((engine.state)(&e));
                }
                self.list
                    .update(|l| match l.iter_mut().find(|x| x.id == id) {
                        Some(slot) => *slot = e,
                        None => l.push(e),
                    });
                false
            }
            Step::Ask(conflicts) => {
                if !conflicts.is_empty() {
                    let name = self.get(id).map(|e| e.name).unwrap_or_default();
                    let text = describe(&format!("The fight “{name}”"), &conflicts);
                    self.notices.ask(text, Asked::Encounter, id);
                }
                true
            }
        }
    }

    /// The player's answer to a conflict (see `Roster::resolve`).
    pub fn resolve(&self, id: &str, keep_mine: bool) {
        let Some(mine) = self.text(id) else { return };
        if let Some(Some(doc)) = self
            .sync
            .try_update_value(|t| t.resolve(id, &mine, keep_mine))
        {
            self.apply(id, Step::Take(doc));
            self.save(id);
        }
    }

    /// Another tab wrote `key`.
    fn on_storage_event(&self, key: Option<String>) {
        let Some(id) = key.as_deref().and_then(|k| k.strip_prefix(Encounter::KEY)) else {
            if key.is_none_or(|k| k == INDEX_KEY) {
                self.reload_list();
            }
            return;
        };
        let unsaved = self.unsaved.with_value(|u| u.contains(id));
        match LocalStore.get(&key_of(id)) {
            Ok(Some(raw)) => {
                let mine = unsaved.then(|| self.text(id)).flatten();
                if let Some(step) = self
                    .sync
                    .try_update_value(|t| t.arrive(id, mine.as_deref(), &raw))
                {
                    self.apply(id, step);
                }
            }
            Ok(None) if !unsaved => {
                self.sync.update_value(|t| t.forget(id));
                self.list.update(|l| l.retain(|e| e.id != id));
            }
            _ => {}
        }
    }

    /// An encounter as saving writes it.
    fn text(&self, id: &str) -> Option<String> {
        self.list.with_untracked(|l| {
            let e = l.iter().find(|e| e.id == id)?;
            serde_json::to_string(e).ok()
        })
    }

    /// The other tab changed the list (added, deleted, reordered): its order, with this tab's
    /// unsaved encounters kept.
    fn reload_list(&self) {
        let Ok(loaded) = load_encounters(&LocalStore, now_ms()) else {
            return;
        };
        let unsaved = self.unsaved.get_value();
        let mut list = loaded.encounters;
        self.sync.update_value(|t| {
            for e in list.iter().filter(|e| !unsaved.contains(&e.id)) {
                if let Ok(text) = serde_json::to_string(e) {
                    t.seen(&e.id, text);
                }
            }
        });
        for e in self.list.get_untracked() {
            if unsaved.contains(&e.id) {
                match list.iter_mut().find(|x| x.id == e.id) {
                    Some(slot) => *slot = e,
                    None => list.push(e),
                }
            }
        }
        self.list.set(list);
        self.newer.set(loaded.newer);
    }

    fn save_index(&self) {
        let ids = self
            .list
            .with_untracked(|l| l.iter().map(|e| e.id.clone()).collect());
        self.report(
            save_encounter_index(&LocalStore, ids),
            "Saving the list of encounters",
        );
    }

    fn report(&self, r: Result<(), StorageError>, what: &str) {
        if let Err(e) = r {
            self.notices.failed(
                format!("{what} failed: {e}. The fight is kept on this page and saved as soon as there is room."),
                &e,
            );
        }
    }

    /// Records `event` in encounter `id`, applies it to `state`, saves, and writes the vitals
    /// of linked characters.
    pub fn act(&self, id: &str, state: RwSignal<State>, event: Event) {
        let now = now_ms();
        self.list.update(|l| {
            if let Some(e) = l.iter_mut().find(|e| e.id == id) {
                state.update(|s| e.push(event, s, now));
            }
        });
        self.after_change(id, state);
    }

    /// Steps back (`back`) or forward through the log.
    pub fn step(&self, id: &str, state: RwSignal<State>, back: bool) {
        let mut replayed = None;
        self.list.update(|l| {
            if let Some(e) = l.iter_mut().find(|e| e.id == id) {
                let moved = if back {
                    e.undo(now_ms())
                } else {
                    e.redo(now_ms())
                };
                if moved {
                    replayed = Some(e.state());
                }
            }
        });
        if let Some(s) = replayed {
            state.set(s);
            self.after_change(id, state);
        }
    }

    fn after_change(&self, id: &str, state: RwSignal<State>) {
        self.save(id);
        self.settle(id, Some(state), None, false);
    }

    /// Brings fight `id` and its linked characters into step (`storage::agree`, the one sync):
    /// what a sheet changed becomes a logged step of the fight, what the fight changed is
    /// written to the sheet, and a change on both sides is asked about. `state`: the fight on
    /// screen (else it is replayed); `tell`: say what a sheet took (on opening or an arrival,
    /// not after each of the fight's own steps).
    pub fn settle(&self, id: &str, state: Option<RwSignal<State>>, keep: Option<Keep>, tell: bool) {
        let now = now_ms();
        let roster = self.roster;
        let run = |s: &mut State| {
            let mut out = Outcome::default();
            roster.chars.with_untracked(|chars| {
                self.list.update_untracked(|l| {
                    if let Some(e) = l.iter_mut().find(|e| e.id == id) {
                        out = agree::settle(e, s, chars, now, keep);
                    }
                });
            });
            out
        };
        let out = match state {
            Some(sig) => {
                let out = sig.try_update_untracked(run).unwrap_or_default();
                if out.changed {
                    sig.notify();
                }
                out
            }
            None => match self.get(id) {
                Some(e) => run(&mut e.state()),
                None => return,
            },
        };
        if out.changed {
            self.list.notify();
            self.save(id);
        }
        let name = || self.get(id).map(|e| e.name).unwrap_or_default();
        if tell && !out.taken.is_empty() {
            self.notices.info(format!(
                "From the fight “{}”, as it is newer: {}.",
                name(),
                out.taken.join("; ")
            ));
        }
        for ch in out.sheets {
            self.roster.put(ch);
        }
        if !out.conflicts.is_empty() {
            let text = format!(
                "The fight “{}” and a sheet both changed since they last agreed. {}.",
                name(),
                out.conflicts.join(". ")
            );
            self.notices.ask(text, Asked::Link, id);
        }
    }

    /// The player's answer to a sheet-and-fight question.
    pub fn resolve_link(&self, id: &str, keep_sheet: bool) {
        let keep = if keep_sheet { Keep::Sheet } else { Keep::Fight };
        let (this, id) = (*self, id.to_owned());
        leptos::task::spawn_local(async move {
            match load_engine().await {
                Some(engine) => (engine.answer)(&this, &id, keep),
                None => this.notices.error(
                    "Not settled: the fights' part of the app was not downloaded before this phone went offline. Connect once; the question comes back when the fight opens.",
                ),
            }
        });
    }

    /// `resolve_link`'s answer, settled (in the engine's module).
    fn answer(&self, id: &str, keep: Keep) {
        let shown = self
            .shown
            .get_value()
            .filter(|(s, _)| s == id)
            .map(|(_, st)| st);
        self.settle(id, shown, Some(keep), false);
    }
}

/// The encounter engine's work for the store here at the root (replaying a fight, checking one,
/// settling one with its sheets), from the fights' module: the main module carries none of the
/// engine (34 KB brotli no first visit downloads). The root needs it only after a fight ran in
/// this tab: another tab's version of the fight on screen, the answer to a question `settle`
/// asked, a merge with this tab's unsaved fight.
pub struct Engine {
    validate: fn(&Encounter) -> Result<(), String>,
    state: fn(&Encounter) -> State,
    answer: fn(&Encounters, &str, Keep),
}

crate::ui::lazy::split_point! {
    fights,
    fn engine_module() -> Result<&'static Engine, NotLoaded> {
        static HERE: Engine = Engine {
            validate: Encounter::validate,
            state: Encounter::state,
            answer: Encounters::answer,
        };
        Ok(&HERE)
    }
}

thread_local! {
    /// The engine once loaded, for the root's uses that cannot wait.
    static ENGINE: std::cell::Cell<Option<&'static Engine>> = const { std::cell::Cell::new(None) };
}

fn engine() -> Option<&'static Engine> {
    ENGINE.with(std::cell::Cell::get)
}

/// The engine, its module fetched if need be (`None`: offline before it ever came). The pages
/// that change fights (a fight's, the list of fights) have it before they are drawn.
pub async fn load_engine() -> Option<&'static Engine> {
    let engine = engine_module().await.ok()?;
    ENGINE.with(|e| e.set(Some(engine)));
    Some(engine)
}

/// A merged fight checked as an import is; without the engine (no page that changes fights was
/// drawn in this tab, so no merge of this tab's own changes comes here) it counts as a conflict, and the player is
/// asked.
fn validate(e: &Encounter) -> Result<(), String> {
    match engine() {
        Some(engine) => (engine.validate)(e),
        None => Err("the fights' code is not here yet".into()),
    }
}

pub fn provide_encounters(notices: Notices, roster: Roster) -> Encounters {
    let (list, newer) = match load_encounters(&LocalStore, now_ms()) {
        Ok(loaded) => {
            for message in loaded.quarantined {
                notices.error(message);
            }
            (loaded.encounters, loaded.newer)
        }
        Err(e) => {
            notices.error(format!("Encounters could not be loaded: {e}"));
            (Vec::new(), Vec::new())
        }
    };
    // A fight's log and its undo position move together.
    let mut sync = Tracker::new(
        &["events", "cursor", "agreed", "hidden", "revealed"],
        |t| canonical::<Encounter>(t, |_| Ok(())),
        |t| canonical::<Encounter>(t, validate),
    );
    for e in &list {
        if let Ok(text) = serde_json::to_string(e) {
            sync.seen(&e.id, text);
        }
    }
    let encounters = Encounters {
        sync: StoredValue::new(sync),
        shown: StoredValue::new(None),
        list: RwSignal::new(list),
        newer: RwSignal::new(newer),
        deleted: RwSignal::new(Vec::new()),
        followed: RwSignal::new(None),
        unsaved: StoredValue::new(BTreeSet::new()),
        roster,
        notices,
    };
    provide_context(encounters);
    std::mem::forget(window_event_listener(
        leptos::ev::storage,
        move |e: web_sys::StorageEvent| encounters.on_storage_event(e.key()),
    ));
    encounters
}

/// The live table's parts on a fight's page, provided by the table (so the page never names
/// it): its panel (`.0`), and the players' requests (`.1`), also drawn in an open combatant's
/// sheet, which keeps the page behind it out of reach.
#[derive(Clone, Copy)]
pub struct TableHook(pub fn(EncCtx) -> AnyView, pub fn(EncCtx) -> AnyView);

/// The fight on screen: its id, its replayed state, and which combatant's sheet is open.
#[derive(Clone, Copy)]
pub struct EncCtx {
    pub id: StoredValue<String>,
    pub state: RwSignal<State>,
    pub store: Encounters,
    pub selected: RwSignal<Option<u32>>,
    /// Set on a player's phone at the live table: what the panel does is sent to the GM's
    /// phone as a request (for the combatant `selected`) instead of applied here.
    pub ask: Option<fn(EncCtx, Request)>,
}

impl EncCtx {
    /// A step only the GM's phone takes (a quick NPC, initiative for all, the GM's tools): on a
    /// player's phone it is not sent (the GM's phone takes intents only) but said so.
    pub fn act(&self, event: Event) {
        match self.ask {
            Some(_) => self
                .store
                .notices
                .error("Only the GM’s phone does this.".to_owned()),
            None => self.store.act(&self.id.get_value(), self.state, event),
        }
    }

    /// `who` intends `intent`: its dice rolled here, then resolved by the rules
    /// (`rules::referee`): into this fight on the GM's phone, or sent with the dice as a request
    /// on a player's, where the GM's phone resolves it again over its own fight. A refusal is a
    /// notice, in the rules' words.
    pub fn intend(&self, who: u32, intent: Intent) {
        if self.ask.is_some() && intent.gm_only() {
            let why = crate::rules::referee::GM_ONLY;
            return self.store.notices.error(format!("Not now: {why}."));
        }
        let Some((made, rolled)) = self.roll(|src| {
            let mut rec = Recorder::new(src);
            let made = self
                .state
                .with_untracked(|s| referee::resolve(s, who, &intent, &mut rec));
            (made, rec.rolled)
        }) else {
            return;
        };
        match (made, self.ask) {
            (Err(why), _) => self.store.notices.error(format!("Not now: {why}.")),
            (Ok(_), Some(send)) => send(*self, Request::Act(intent, rolled)),
            (Ok(event), None) => self.store.act(&self.id.get_value(), self.state, event),
        }
    }

    pub fn step(&self, back: bool) {
        self.store.step(&self.id.get_value(), self.state, back);
    }

    /// The rules' offers as this phone may take them: a player's phone sees the GM's tools
    /// refused (`rules::referee::player_offers`).
    pub fn offers(&self, s: &State, who: u32) -> Vec<crate::rules::encounter::referee::Offer> {
        match self.ask {
            Some(_) => crate::rules::referee::player_offers(s, who),
            None => crate::rules::referee::offers(s, who),
        }
    }

    pub fn notices(&self) -> Notices {
        self.store.notices
    }

    pub fn roster(&self) -> Roster {
        self.store.roster
    }

    /// A line in the fight's log for a roll made with the app's dice, or a notice if the dice
    /// are unavailable.
    pub fn roll<R>(&self, f: impl FnOnce(&mut CryptoSource) -> R) -> Option<R> {
        match with_dice(f) {
            Ok(r) => Some(r),
            Err(e) => {
                self.store.notices.error(format!("Could not roll: {e}"));
                None
            }
        }
    }
}
