//! A handle on one character's system sheet, shared by that sheet's components: read it as a
//! memo, edit it through the roster (which saves it).

use crate::rules::dice::RollOutcome;
use crate::rules::edit::{Edits, ListEdit};
use crate::storage::character::Sheet;
use crate::storage::roll_log::LogEntry;
use crate::ui::roster::Roster;
use crate::ui::state::{now_ms, RollLogState};
use leptos::prelude::*;

pub struct SheetCtx<T: Send + Sync + 'static> {
    pub sheet: Memo<T>,
    pub id: StoredValue<String>,
    pub roster: Roster,
    /// Taken when the sheet is built: rolls are logged from event handlers.
    log: RollLogState,
    pick: fn(&mut Sheet) -> Option<&mut T>,
    /// The fights on this phone: an edit that is a fight action is refused while the
    /// character is in a running one (`rules::edit::in_fight`).
    fights: Option<crate::ui::encounters::Encounters>,
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
            log: expect_context::<RollLogState>(),
            pick,
            fights: use_context::<crate::ui::encounters::Encounters>(),
        }
    }

    /// A number of the sheet as a signal. `fn` pointers rather than closures: one compiled
    /// copy per system, however many fields use it.
    pub fn num(&self, get: fn(&T) -> i32) -> Signal<i32> {
        let sheet = self.sheet;
        Signal::derive(move || sheet.with(get))
    }

    /// A counter's maximum, read from the sheet.
    pub fn max(&self, get: fn(&T) -> i32) -> Signal<Option<i32>> {
        let sheet = self.sheet;
        Signal::derive(move || Some(sheet.with(get)))
    }

    /// The number at index `i` (an attribute, an ability's figure).
    pub fn num_at(&self, i: usize, get: fn(&T, usize) -> i32) -> Signal<i32> {
        let sheet = self.sheet;
        Signal::derive(move || sheet.with(|s| get(s, i)))
    }

    /// A text of the sheet (a derived figure, a formula) as a signal.
    pub fn text(&self, get: fn(&T) -> String) -> Signal<String> {
        let sheet = self.sheet;
        Signal::derive(move || sheet.with(get))
    }

    pub fn text_at(&self, i: usize, get: fn(&T, usize) -> String) -> Signal<String> {
        let sheet = self.sheet;
        Signal::derive(move || sheet.with(|s| get(s, i)))
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
        self.log.record(LogEntry {
            at: now_ms(),
            who: self.name(),
            expr,
            outcome,
        });
    }
}

/// Edits through the system's rules (`Edits::apply`): what a tap does is what the tests run.
impl<T: Edits + Clone + PartialEq + Default + Send + Sync + 'static> SheetCtx<T> {
    /// Applies one edit (and saves); a refusal becomes a notice, the sheet unchanged.
    pub fn act(&self, e: T::Edit) -> bool {
        if T::fight_action(&e).is_some() {
            let fight = self
                .fights
                .and_then(|f| self.id.with_value(|id| f.running_with(id)));
            if let Some(why) = crate::rules::edit::in_fight::<T>(&e, fight.as_deref()) {
                self.roster.notices().error(why);
                return false;
            }
        }
        let pick = self.pick;
        let mut e = Some(e);
        self.id.with_value(|id| {
            change(
                self.roster,
                id,
                &mut |sheet| match (pick(sheet), e.take()) {
                    (Some(s), Some(e)) => s.apply(e),
                    _ => Ok(()),
                },
            )
        })
    }

    /// A number field's writer: `Edit::Hp` is the `fn(i32) -> Edit` it sends.
    pub fn set(&self, make: fn(i32) -> T::Edit) -> Callback<i32> {
        self.writer(Make::One(make))
    }

    /// The writer of the number at index `i` (an attribute, an ability's figure).
    pub fn set_at(&self, i: usize, make: fn(usize, i32) -> T::Edit) -> Callback<i32> {
        self.writer(Make::At(i, make))
    }

    /// One callback type for both kinds of number field: one compiled copy per system.
    fn writer(&self, make: Make<T::Edit>) -> Callback<i32> {
        let ctx = *self;
        Callback::new(move |v| {
            ctx.act(match make {
                Make::One(f) => f(v),
                Make::At(i, f) => f(i, v),
            });
        })
    }

    /// A free list of texts, read and edited (`Edit::Skills` is the `fn(ListEdit) -> Edit`).
    pub fn texts(
        &self,
        get: fn(&T) -> &Vec<String>,
        make: fn(ListEdit) -> T::Edit,
    ) -> (Signal<Vec<String>>, Callback<ListEdit>) {
        let ctx = *self;
        (
            Signal::derive(move || ctx.sheet.with(|s| get(s).clone())),
            Callback::new(move |e| {
                ctx.act(make(e));
            }),
        )
    }
}

/// The part of [`SheetCtx::act`] that does not depend on the system, compiled once: the edit
/// tried on a copy of the character's sheet, saved only if it changed anything; a refusal is a
/// notice and changes nothing.
fn change(
    roster: Roster,
    id: &str,
    apply: &mut dyn FnMut(&mut Sheet) -> Result<(), String>,
) -> bool {
    let Some(mut next) = roster
        .chars
        .with_untracked(|cs| cs.iter().find(|c| c.id == id).map(|c| c.sheet.clone()))
    else {
        return false;
    };
    if let Err(why) = apply(&mut next) {
        roster.notices().error(why);
        return false;
    }
    let same = roster
        .chars
        .with_untracked(|cs| cs.iter().any(|c| c.id == id && c.sheet == next));
    if !same {
        roster.update(id, |c| c.sheet = next);
    }
    true
}

/// How a number field makes its edit: `Edit::Hp`, or `Edit::Attribute` with its index.
enum Make<E> {
    One(fn(i32) -> E),
    At(usize, fn(usize, i32) -> E),
}

impl<E> Clone for Make<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Make<E> {}
