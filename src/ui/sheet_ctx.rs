//! A handle on one character's system sheet, shared by that sheet's components: read it as a
//! memo, edit it through the roster (which saves it).

use crate::rules::dice::RollOutcome;
use crate::storage::character::Sheet;
use crate::storage::roll_log::LogEntry;
use crate::ui::roster::Roster;
use crate::ui::state::{now_ms, RollLogState};
use leptos::prelude::*;

pub struct SheetCtx<T: Send + Sync + 'static> {
    pub sheet: Memo<T>,
    pub id: StoredValue<String>,
    pub roster: Roster,
    pick: fn(&mut Sheet) -> Option<&mut T>,
}

impl<T: Send + Sync + 'static> Clone for SheetCtx<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for SheetCtx<T> {}

impl<T: Clone + PartialEq + Default + Send + Sync + 'static> SheetCtx<T> {
    /// `read` and `pick` select this system's sheet from the character's `Sheet`.
    pub fn new(
        id: String,
        read: fn(&Sheet) -> Option<&T>,
        pick: fn(&mut Sheet) -> Option<&mut T>,
    ) -> Self {
        let roster = expect_context::<Roster>();
        let id = StoredValue::new(id);
        let sheet = Memo::new(move |_| {
            id.with_value(|id| {
                roster.chars.with(|cs| {
                    cs.iter()
                        .find(|c| &c.id == id)
                        .and_then(|c| read(&c.sheet).cloned())
                })
            })
            .unwrap_or_default()
        });
        SheetCtx {
            sheet,
            id,
            roster,
            pick,
        }
    }

    pub fn edit(&self, f: impl FnOnce(&mut T)) {
        let pick = self.pick;
        self.id.with_value(|id| {
            self.roster.update(id, |c| {
                if let Some(s) = pick(&mut c.sheet) {
                    f(s);
                }
            })
        });
    }

    /// One derived value as a signal.
    pub fn get<U: Send + Sync + Clone + 'static>(
        &self,
        f: impl Fn(&T) -> U + Copy + Send + Sync + 'static,
    ) -> Signal<U> {
        let sheet = self.sheet;
        Signal::derive(move || sheet.with(f))
    }

    pub fn name(&self) -> Option<String> {
        self.id.with_value(|id| self.roster.get(id).map(|c| c.name))
    }

    /// Adds a roll to the shared log under this character's name.
    pub fn log(&self, expr: String, outcome: RollOutcome) {
        expect_context::<RollLogState>().record(LogEntry {
            at: now_ms(),
            who: self.name(),
            expr,
            outcome,
        });
    }
}
