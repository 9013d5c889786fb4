//! A panel described as data: numbers, choices, ticks, texts, buttons and toggles, drawn by one
//! renderer. A system's combat panels are lists of these, so adding a panel adds its logic but
//! no new view code (each `view!` is compiled again for every shape it is used with; this one
//! is compiled once).

use super::derived::Derived;
use super::fields::{Check, Choice, Stepper};
use super::section::Section;
use leptos::prelude::*;

/// Options of a [`Field::Pick`] or [`Field::Toggles`]: (value, label).
pub type Options = Signal<Vec<(i32, String)>>;

#[derive(Clone)]
pub enum Field {
    /// A whole number between `min` and `max`.
    Num(&'static str, RwSignal<i32>, i32, i32),
    /// A line of text typed in.
    Input(&'static str, RwSignal<String>),
    Pick(&'static str, Options, RwSignal<i32>),
    Tick(&'static str, RwSignal<bool>),
    /// A line of text: its class and test id.
    Text(&'static str, &'static str, Signal<String>),
    /// A button: label, class, test id, disabled, what it does.
    Act(
        Signal<String>,
        &'static str,
        &'static str,
        Signal<bool>,
        Callback<()>,
    ),
    /// Chips that toggle ids in and out of a set (label, options, the set).
    Toggles(&'static str, Options, RwSignal<Vec<u32>>),
    /// Fields shown only while the flag holds.
    If(Signal<bool>, Vec<Field>),
    /// Fields side by side, two to a row.
    Pair(Vec<Field>),
    /// A number kept elsewhere (a sheet's): label, value, how to set it, min, max.
    Bound(&'static str, Signal<i32>, Callback<i32>, i32, i32),
    /// A yes / no kept elsewhere.
    Flag(&'static str, Signal<bool>, Callback<bool>),
    /// A choice kept elsewhere: label, options, value, how to set it.
    Choose(&'static str, Options, Signal<i32>, Callback<i32>),
    /// A derived figure with its formula on tap: label, test id, value, formula.
    Derived(&'static str, &'static str, Signal<String>, Signal<String>),
    /// Fields made anew whenever what they read changes (a list's entries).
    Rows(Rows),
    /// A distribution's bar chart, bars from the target on highlighted.
    Chart(
        Signal<crate::rules::dice::Distribution>,
        Signal<Option<i64>>,
    ),
}

/// The fields of a list, from the signals they read.
pub type Rows = std::sync::Arc<dyn Fn() -> Vec<Field> + Send + Sync>;

/// A button's label that never changes.
pub fn fixed(s: &'static str) -> Signal<String> {
    Signal::stored(s.to_owned())
}

/// Options from names, numbered from 0.
pub fn numbered_options(names: impl Iterator<Item = String>) -> Options {
    Signal::stored(names.enumerate().map(|(i, n)| (i as i32, n)).collect())
}

/// One field on its own, outside a panel.
pub fn draw(f: Field) -> AnyView {
    match f {
        Field::Num(label, v, min, max) => {
            view! { <Stepper label=label value=v min max set=Callback::new(move |x| v.set(x))/> }
                .into_any()
        }
        Field::Input(label, v) => view! {
            <label class="field-label choice">{label}
                <input type="text" prop:value=move || v.get() on:input=move |ev| v.set(event_target_value(&ev))/>
            </label>
        }
        .into_any(),
        Field::Pick(label, options, v) => view! { <Choice label options value=v/> }.into_any(),
        Field::Tick(label, v) => view! { <Check label value=v/> }.into_any(),
        Field::Text(class, id, t) => {
            view! { <p class=class data-testid=id aria-live="polite">{move || t.get()}</p> }.into_any()
        }
        Field::Act(label, class, id, off, run) => view! {
            <button class=class data-testid=id disabled=move || off.get() on:click=move |_| run.run(())>{move || label.get()}</button>
        }
        .into_any(),
        Field::Toggles(label, options, set) => view! {
            <p class="field-label">{label}</p>
            <div class="chips toggles">
                {move || options.get().into_iter().map(|(id, name)| {
                    let id = id as u32;
                    view! {
                        <button class="chip" aria-pressed=move || set.with(|c| c.contains(&id)).to_string()
                            on:click=move |_| set.update(|c| if let Some(i) = c.iter().position(|&x| x == id) { c.remove(i); } else { c.push(id); })>{name}</button>
                    }
                }).collect_view()}
            </div>
        }
        .into_any(),
        Field::If(when, fields) => {
            (move || when.get().then(|| fields.clone().into_iter().map(draw).collect_view()))
                .into_any()
        }
        Field::Pair(fields) => {
            view! { <div class="grid2">{fields.into_iter().map(draw).collect_view()}</div> }.into_any()
        }
        Field::Bound(label, value, set, min, max) => {
            view! { <Stepper label value min max set/> }.into_any()
        }
        Field::Flag(label, value, set) => view! {
            <label class="check">
                <input type="checkbox" prop:checked=move || value.get() on:change=move |ev| set.run(event_target_checked(&ev))/>
                <span>{label}</span>
            </label>
        }
        .into_any(),
        Field::Choose(label, options, value, set) => view! {
            <label class="field-label choice">{label}
                <select on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse() { set.run(v) } }>
                    {move || options.get().into_iter().map(|(v, t)| view! { <option value=v.to_string() selected=move || value.get() == v>{t}</option> }).collect_view()}
                </select>
            </label>
        }
        .into_any(),
        Field::Derived(label, id, value, formula) => {
            view! { <Derived label testid=id value formula/> }.into_any()
        }
        Field::Rows(rows) => (move || rows().into_iter().map(draw).collect_view()).into_any(),
        Field::Chart(dist, target) => {
            view! { <crate::ui::components::bar_chart::BarChart dist target/> }.into_any()
        }
    }
}

/// A folding section of the sheet (its state remembered under `key`) made of fields.
pub fn fold(title: &'static str, key: &'static str, fields: Vec<Field>) -> AnyView {
    view! { <Section title key>{fields.into_iter().map(draw).collect_view()}</Section> }.into_any()
}

/// A titled panel of fields.
pub fn form(title: &'static str, fields: Vec<Field>) -> AnyView {
    view! {
        <section class="combat-panel" aria-label=title>
            <h3>{title}</h3>
            {fields.into_iter().map(draw).collect_view()}
        </section>
    }
    .into_any()
}
