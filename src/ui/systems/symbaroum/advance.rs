//! Advancing a Symbaroum-style character: experience earned, spent and left; learning and
//! raising abilities with a what-if first, and undo.

use super::Ctx as SymCtx;
use crate::rules::symbaroum::{Edit, EXPERIENCE_LIMIT};
use crate::ui::kit::Stepper;
use leptos::prelude::*;

pub fn advance() -> impl IntoView {
    view! { <SymAbilities/> }
}

#[component]
fn SymAbilities() -> impl IntoView {
    let ctx = expect_context::<SymCtx>();
    // The edits that undo the purchases made here, last first.
    let undo = RwSignal::new(Vec::<Edit>::new());
    let pending = RwSignal::new(None::<usize>);
    let (name, set_name) = signal(String::new());
    let buy = move |e: Edit, back: Edit| {
        if ctx.act(e) {
            undo.update(|u| u.push(back));
        }
        pending.set(None);
    };
    view! {
        <section class="card">
            <h2>"Abilities"</h2>
            <div class="grid2">
                <Stepper label="Experience earned" value=ctx.num(|s| s.experience as i32) min=0 max=EXPERIENCE_LIMIT set=ctx.set(Edit::Experience)/>
            </div>
            <p>{move || ctx.sheet.with(|s| format!("Spent {} · left ", s.experience_spent()))}<strong data-testid="xp-left">{move || ctx.sheet.with(|s| s.experience_left())}</strong></p>
            <ul class="text-list">
                {move || ctx.sheet.with(|s| s.abilities.clone()).into_iter().enumerate().map(|(i, a)| {
                    let next = a.level.next();
                    view! {
                        <li data-sym-ability=a.name.clone()>
                            <span>{format!("{} ({})", a.name, a.level.name())}</span>
                            {next.map(|n| view! {
                                <button class="btn small" on:click=move |_| pending.set(Some(i))>{format!("Raise to {} · {} XP", n.name(), n.total_cost() - a.level.total_cost())}</button>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ul>
            {move || pending.get().and_then(|i| ctx.sheet.with(|s| {
                let a = s.abilities.get(i)?.clone();
                let n = a.level.next()?;
                let cost = i64::from(n.total_cost() - a.level.total_cost());
                let left = s.experience_left() - cost;
                Some(view! {
                    <div class="what-if" role="region" aria-label="What if">
                        <p>{format!("{} {} → {}: costs {cost} XP, leaving {left}", a.name, a.level.name(), n.name())}</p>
                        {(left < 0).then(|| view! { <p class="field-error">"Not enough experience."</p> })}
                        <div class="actions">
                            <button class="btn primary" disabled=left < 0 on:click=move |_| buy(Edit::Raise(i), Edit::Lower(i))>"Buy"</button>
                            <button class="btn" on:click=move |_| pending.set(None)>"Cancel"</button>
                        </div>
                    </div>
                })
            }))}
            <Show when=move || undo.with(|u| !u.is_empty())>
                <button class="btn small" on:click=move |_| if let Some(back) = undo.try_update(Vec::pop).flatten() { ctx.act(back); }>"Undo last change"</button>
            </Show>
            <div class="row">
                <input type="text" aria-label="New ability" placeholder="New ability (novice, 10 XP)" prop:value=move || name.get() on:input=move |ev| set_name.set(event_target_value(&ev))/>
                <button class="btn" disabled=move || name.with(|n| n.trim().is_empty()) || ctx.sheet.with(|s| s.experience_left() < 10) on:click=move |_| {
                    let at = ctx.sheet.with_untracked(|s| s.abilities.len());
                    buy(Edit::Learn(name.get_untracked()), Edit::Unlearn(at));
                    set_name.set(String::new());
                }>"Learn"</button>
            </div>
        </section>
    }
}
