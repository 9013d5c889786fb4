//! Cheap reactive glue for views. Every generic Leptos constructor (`Signal::derive`,
//! `Callback::new`, an `on:` closure) is compiled again for each closure type it is given, and
//! with the arena and event plumbing inlined that costs far more than the closure itself. These
//! helpers box the closure first and hand it to one non-generic function, so each call site
//! costs an allocation and a vtable, and the plumbing is compiled once for the whole app.

use leptos::prelude::*;
use std::sync::Arc;
use web_sys::{Event, MouseEvent};

type Thunk = Arc<dyn Fn() + Send + Sync>;
type TextFn = Arc<dyn Fn() -> String + Send + Sync>;
type FlagFn = Arc<dyn Fn() -> bool + Send + Sync>;
type TakeText = Arc<dyn Fn(String) + Send + Sync>;
type TakeFlag = Arc<dyn Fn(bool) + Send + Sync>;

/// `on:click=tap(move || …)`.
pub fn tap(f: impl Fn() + Send + Sync + 'static) -> impl FnMut(MouseEvent) + Clone + 'static {
    tap_dyn(Arc::new(f))
}

#[inline(never)]
fn tap_dyn(f: Thunk) -> impl FnMut(MouseEvent) + Clone + 'static {
    move |_| f()
}

/// `on:input` / `on:change` with the control's value.
pub fn typed(f: impl Fn(String) + Send + Sync + 'static) -> impl FnMut(Event) + Clone + 'static {
    typed_dyn(Arc::new(f))
}

#[inline(never)]
fn typed_dyn(f: TakeText) -> impl FnMut(Event) + Clone + 'static {
    move |ev| f(event_target_value(&ev))
}

/// `on:change` of a checkbox, with whether it is checked.
pub fn checked(f: impl Fn(bool) + Send + Sync + 'static) -> impl FnMut(Event) + Clone + 'static {
    checked_dyn(Arc::new(f))
}

#[inline(never)]
fn checked_dyn(f: TakeFlag) -> impl FnMut(Event) + Clone + 'static {
    move |ev| f(event_target_checked(&ev))
}

/// A text that follows the signals `f` reads.
pub fn text(f: impl Fn() -> String + Send + Sync + 'static) -> Signal<String> {
    text_dyn(Arc::new(f))
}

#[inline(never)]
fn text_dyn(f: TextFn) -> Signal<String> {
    Signal::derive(move || f())
}

/// A flag that follows the signals `f` reads (for `disabled`, `when`).
pub fn flag(f: impl Fn() -> bool + Send + Sync + 'static) -> Signal<bool> {
    flag_dyn(Arc::new(f))
}

#[inline(never)]
fn flag_dyn(f: FlagFn) -> Signal<bool> {
    Signal::derive(move || f())
}

/// `<Show when=when(flag)>`: one `Show` for the whole app instead of one per condition.
pub fn when(f: Signal<bool>) -> impl Fn() -> bool + Send + Sync + Clone + 'static {
    move || f.get()
}
