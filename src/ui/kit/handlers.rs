//! Small glue for views: event handlers and derived texts/flags from closures, each boxed once
//! and handed to one non-generic function. Measured on the release build, this costs the same
//! bytes as writing the closures inline (a first version that called `Signal::derive` with each
//! closure directly cost 90 KB more: every generic Leptos constructor is compiled again per
//! closure type). It keeps roll panels short to read; it is not a size trick.

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

/// Writes a number into a local signal (a roll's inputs): one callback type for all of them.
pub fn set_to(s: RwSignal<i32>) -> Callback<i32> {
    Callback::new(move |v| s.set(v))
}

type ChoicesFn = Arc<dyn Fn() -> Vec<(i32, String)> + Send + Sync>;

/// Options that follow the signals `f` reads (the combatants one can target).
pub fn choices(
    f: impl Fn() -> Vec<(i32, String)> + Send + Sync + 'static,
) -> Signal<Vec<(i32, String)>> {
    choices_dyn(Arc::new(f))
}

#[inline(never)]
fn choices_dyn(f: ChoicesFn) -> Signal<Vec<(i32, String)>> {
    Signal::derive(move || f())
}

type DistFn = Arc<dyn Fn() -> crate::rules::dice::Distribution + Send + Sync>;

/// A distribution that follows the signals `f` reads (a roll panel's chart).
pub fn dist(
    f: impl Fn() -> crate::rules::dice::Distribution + Send + Sync + 'static,
) -> Signal<crate::rules::dice::Distribution> {
    dist_dyn(Arc::new(f))
}

#[inline(never)]
fn dist_dyn(f: DistFn) -> Signal<crate::rules::dice::Distribution> {
    Signal::derive(move || f())
}

type NumFn = Arc<dyn Fn() -> i32 + Send + Sync>;

/// A number that follows the signals `f` reads (a target's defence read from a fight).
pub fn num(f: impl Fn() -> i32 + Send + Sync + 'static) -> Signal<i32> {
    num_dyn(Arc::new(f))
}

#[inline(never)]
fn num_dyn(f: NumFn) -> Signal<i32> {
    Signal::derive(move || f())
}

type TargetFn = Arc<dyn Fn() -> Option<i64> + Send + Sync>;

/// A chart's target value that follows the signals `f` reads (`None`: no target line).
pub fn target(f: impl Fn() -> Option<i64> + Send + Sync + 'static) -> Signal<Option<i64>> {
    target_dyn(Arc::new(f))
}

#[inline(never)]
fn target_dyn(f: TargetFn) -> Signal<Option<i64>> {
    Signal::derive(move || f())
}

type ViewFn = Arc<dyn Fn() -> AnyView + Send + Sync>;

/// A part of a view made anew whenever what `f` reads changes: one compiled copy of the
/// reactive child for the whole app instead of one per closure.
pub fn reactive(f: impl Fn() -> AnyView + Send + Sync + 'static) -> AnyView {
    reactive_dyn(Arc::new(f))
}

#[inline(never)]
fn reactive_dyn(f: ViewFn) -> AnyView {
    (move || f()).into_any()
}
