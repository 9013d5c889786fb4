//! App-wide state shared through context: settings, the roll log, notices and the update flag.
//! Each piece is a small `Copy` handle around signals; storage failures become notices.

use crate::rules::dice::{CryptoSource, EntropyError};
use crate::storage::roll_log::{LogEntry, RollLog};
use crate::storage::settings::{Settings, Theme};
use crate::storage::usage::{Usage, ADVICE};
use crate::storage::{load, LoadError, Loaded, LocalStore, StorageError, Versioned};
use leptos::prelude::*;
use std::cell::RefCell;

/// A message for the player: a storage failure, a quarantined entry, a finished action.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub id: u64,
    pub text: String,
    pub error: bool,
    /// A question about a document: what is asked, and the document's id.
    pub ask: Option<(Asked, String)>,
}

/// What a question is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// A character changed in two tabs.
    Character,
    /// A fight changed in two tabs.
    Encounter,
    /// A fight and a character's sheet both changed what they share.
    Link,
}

#[derive(Clone, Copy)]
pub struct Notices(pub RwSignal<Vec<Notice>>);

impl Notices {
    pub fn error(&self, text: impl Into<String>) {
        self.push(text.into(), true);
    }

    /// A failed write, said unless storage is off altogether: that is said once, at start,
    /// rather than after every save.
    pub fn failed(&self, text: String, e: &StorageError) {
        if !matches!(e, StorageError::Unavailable(_)) {
            self.error(text);
        }
    }

    pub fn info(&self, text: impl Into<String>) {
        self.push(text.into(), false);
    }

    /// Asks which side's values to keep; replaces an earlier question about the same document.
    pub fn ask(&self, text: String, what: Asked, doc: &str) {
        let ask = Some((what, doc.to_owned()));
        self.0.update(|list| list.retain(|n| n.ask != ask));
        self.add(text, true, ask);
    }

    fn push(&self, text: String, error: bool) {
        self.add(text, error, None);
    }

    fn add(&self, text: String, error: bool, ask: Option<(Asked, String)>) {
        self.0.update(|list| {
            // One notice per problem, not one per failed save; a question is per document
            // (`ask` replaces the earlier one), never dropped for sharing a text.
            if ask.is_none() && list.iter().any(|n| n.text == text) {
                return;
            }
            let id = list.iter().map(|n| n.id + 1).max().unwrap_or(0);
            list.push(Notice {
                id,
                text,
                error,
                ask,
            });
        });
    }

    pub fn dismiss(&self, id: u64) {
        self.0.update(|list| list.retain(|n| n.id != id));
    }
}

#[derive(Clone, Copy)]
/// The settings and where their save failures go (carried, not looked up: see `Roster`).
pub struct SettingsState(pub RwSignal<Settings>, pub Notices);

impl SettingsState {
    pub fn record_backup(&self, at: u64) {
        self.0.update(|s| s.last_backup = Some(at));
        self.save();
    }

    fn save(&self) {
        if let Err(e) = self.0.with_untracked(|s| s.save(&LocalStore)) {
            self.1.failed(format!("Settings not saved: {e}"), &e);
        }
    }

    /// Remembers whether the sheet section `key` is closed.
    pub fn set_collapsed(&self, key: &str, closed: bool) {
        let known = self
            .0
            .with_untracked(|s| s.collapsed.iter().any(|k| k == key));
        if known == closed {
            return;
        }
        self.0.update(|s| {
            s.collapsed.retain(|k| k != key);
            if closed {
                s.collapsed.push(key.to_owned());
            }
        });
        self.save();
    }

    pub fn set_theme(&self, theme: Theme) {
        self.0.update(|s| s.theme = theme);
        apply_theme(theme);
        self.save();
    }
}

/// The shared roll log and, after a clear, what it held (for undo during this session).
#[derive(Clone, Copy)]
pub struct RollLogState {
    pub log: RwSignal<RollLog>,
    pub cleared: RwSignal<Option<Vec<LogEntry>>>,
    /// Set when the stored log is from a newer app: then it is shown but never overwritten.
    pub read_only: RwSignal<bool>,
    notices: Notices,
}

impl RollLogState {
    pub fn record(&self, entry: LogEntry) {
        self.change(|log| log.push(entry));
    }

    pub fn clear(&self) {
        let mut taken = Vec::new();
        self.change(|log| taken = log.clear());
        self.cleared.set(Some(taken));
    }

    pub fn undo_clear(&self) {
        if let Some(entries) = self.cleared.get_untracked() {
            self.change(|log| log.restore(entries));
            self.cleared.set(None);
        }
    }

    /// Changes the log as stored now, not this tab's copy: another tab may have rolled since.
    fn change(&self, f: impl FnOnce(&mut RollLog)) {
        let mut log = self.stored().unwrap_or_else(|| self.log.get_untracked());
        f(&mut log);
        self.log.set(log);
        self.save();
    }

    fn stored(&self) -> Option<RollLog> {
        if self.read_only.get_untracked() {
            return None;
        }
        match load::<RollLog>(&LocalStore, now_ms()) {
            Ok(Loaded::Ok(log)) => Some(log),
            _ => None,
        }
    }

    fn save(&self) {
        if self.read_only.get_untracked() {
            return;
        }
        if let Err(e) = self.log.with_untracked(|log| log.save(&LocalStore)) {
            self.notices.failed(format!("Roll log not saved: {e}"), &e);
        }
    }
}

/// Said when the browser refuses this app any storage.
pub const BLOCKED: &str = "This browser is not letting Rollsheet save (site data is blocked, or a private mode). Nothing you do here will be kept after this page closes: use Export to keep a character.";

/// Set by `public/sw-register.js` (through a window event) when a new version is waiting.
#[derive(Clone, Copy)]
pub struct UpdateReady(pub RwSignal<bool>);

thread_local! {
    /// The dice every roll in the app uses: the browser's cryptographic generator, created once.
    static DICE: RefCell<Option<Result<CryptoSource, EntropyError>>> = const { RefCell::new(None) };
}

/// Runs `f` with the app's dice; fails (with a message for the player) if the browser has no
/// cryptographic generator.
pub fn with_dice<R>(f: impl FnOnce(&mut CryptoSource) -> R) -> Result<R, EntropyError> {
    DICE.with(|cell| {
        let mut slot = cell.borrow_mut();
        match slot.get_or_insert_with(CryptoSource::new) {
            Ok(src) => Ok(f(src)),
            Err(e) => Err(e.clone()),
        }
    })
}

/// A new random id (16 hex digits from the app's dice), made longer in the unlikely case that
/// `taken` says it is in use. For characters and encounters alike.
pub fn fresh_id(taken: &dyn Fn(&str) -> bool) -> String {
    let id = with_dice(|src: &mut CryptoSource| crate::storage::character::new_id(src))
        .unwrap_or_else(|_| format!("{:x}", now_ms()));
    if taken(&id) {
        return format!("{id}{:x}", now_ms() % 4096);
    }
    id
}

pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// Sets `data-theme` on `<html>`, or removes it to follow the system.
pub fn apply_theme(theme: Theme) {
    let Some(root) = document().document_element() else {
        return;
    };
    let _ = match theme.attribute() {
        Some(value) => root.set_attribute("data-theme", value),
        None => root.remove_attribute("data-theme"),
    };
}

fn load_or_notice<T: Versioned + Default>(notices: Notices, what: &str) -> (T, bool) {
    match load::<T>(&LocalStore, now_ms()) {
        Ok(Loaded::Ok(doc)) => (doc, false),
        Ok(Loaded::Missing) => (T::default(), false),
        Ok(Loaded::Quarantined {
            quarantine_key,
            reason,
        }) => {
            notices.error(format!(
                "Your saved {what} could not be read ({reason}). It was kept aside as “{quarantine_key}” and a fresh one started."
            ));
            (T::default(), false)
        }
        Err(e @ LoadError::TooNew { .. }) => {
            notices.error(format!("Your {what} was {e}. It is shown read-only."));
            (T::default(), true)
        }
        Err(e) => {
            notices.error(format!("Your {what} could not be loaded: {e}"));
            (T::default(), false)
        }
    }
}

pub fn provide_app_state() {
    let notices = Notices(RwSignal::new(Vec::new()));
    provide_context(notices);

    let roster = crate::ui::roster::provide_roster(notices);
    crate::ui::encounters::provide_encounters(notices, roster);

    let (settings, _) = load_or_notice::<Settings>(notices, "settings");
    apply_theme(settings.theme);
    provide_context(SettingsState(RwSignal::new(settings), notices));

    let (log, read_only) = load_or_notice::<RollLog>(notices, "roll log");
    let rolls = RollLogState {
        log: RwSignal::new(log),
        cleared: RwSignal::new(None),
        read_only: RwSignal::new(read_only),
        notices,
    };
    provide_context(rolls);
    // Another tab rolled or cleared: show the log as it now is.
    std::mem::forget(window_event_listener(
        leptos::ev::storage,
        move |e: web_sys::StorageEvent| {
            if e.key().is_none_or(|k| k == RollLog::KEY) {
                if let Some(log) = rolls.stored() {
                    rolls.log.set(log);
                }
            }
        },
    ));

    match Usage::measure(&LocalStore) {
        Ok(u) if u.nearly_full() => notices.error(format!("{}. {ADVICE}", u.summary())),
        Ok(_) => {}
        // Blocked: the loads above each failed; one plain message instead.
        Err(_) => notices.0.set(vec![Notice {
            id: 0,
            text: BLOCKED.into(),
            error: true,
            ask: None,
        }]),
    }
    if let Err(e) = with_dice(|_| ()) {
        notices.error(format!("Dice are disabled: {e}"));
    }

    let ready = UpdateReady(RwSignal::new(false));
    provide_context(ready);
    let handle =
        window_event_listener_untyped("rollsheet:update-ready", move |_| ready.0.set(true));
    // The app lives as long as the page: the listener is never removed.
    std::mem::forget(handle);
    // The worker script may have found a waiting version before the app mounted.
    if js_sys::Reflect::get(&window(), &"rollsheetUpdateReady".into()).is_ok_and(|v| v.is_truthy())
    {
        ready.0.set(true);
    }
}

/// Asks `sw-register.js` to activate the waiting worker; it reloads the page when it takes over.
pub fn apply_update() {
    if let Ok(event) = web_sys::CustomEvent::new("rollsheet:apply-update") {
        let _ = window().dispatch_event(&event);
    }
}
