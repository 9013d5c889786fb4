//! Advancing a Heimr character: XP, each ability's next training level with its cost, a
//! what-if before buying, undo of the last purchase, and the attributes' progress.

use super::edit::progress_text;
use super::Ctx as SheetCtx;
use crate::rules::heimr::{xp_cost, Attr, Edit, Preview, Track, XP_LIMIT};
use crate::ui::kit::Stepper;
use leptos::prelude::*;

pub fn advance(ctx: SheetCtx) -> impl IntoView {
    let count = ctx.num(|s| s.abilities.len() as i32);
    let pending = RwSignal::new(None::<(usize, Track)>);
    let last = ctx.get(|s| s.purchases.last().cloned());
    let carried = expect_context::<crate::ui::roster::Roster>().xp_carried;
    view! {
        <section class="card">
            <h2>"Experience"</h2>
            <div class="row xp-row">
                <Stepper label="XP" value=ctx.num(|s| s.xp as i32) min=0 max=XP_LIMIT as i32 set=ctx.set(Edit::Xp)/>
                <span class="muted">{move || format!("party carries {}", carried.get())}</span>
            </div>
            <Show when=move || last.with(Option::is_some)>
                <div class="undo-row">
                    <span>{move || last.get().map(|p| format!("Last: {} {} → {} ({} XP)", p.ability_name, p.track.name(), p.level, p.cost))}</span>
                    <button class="btn small" on:click=move |_| { ctx.act(Edit::UndoPurchase); }>"Undo purchase"</button>
                </div>
            </Show>
        </section>
        <section class="card">
            <h2>"Training"</h2>
            {move || (0..count.get() as usize).map(|i| train_row(ctx, i, pending)).collect_view()}
        </section>
        <section class="card">
            <h2>"Attribute progress"</h2>
            <ul class="plain">
                {Attr::ALL.map(|a| view! {
                    <li data-attr=a.short()><strong>{a.name()}</strong>" "
                        <span class="muted progress-text">{ctx.text_at(a.index(), progress_text)}</span></li>
                }).collect_view()}
            </ul>
        </section>
    }
}

fn train_row(ctx: SheetCtx, i: usize, pending: RwSignal<Option<(usize, Track)>>) -> impl IntoView {
    let cost = move |t: Track| {
        ctx.sheet.with(|s| {
            s.abilities.get(i).map_or(0, |a| {
                xp_cost(
                    1 + if t == Track::Consistency {
                        a.trained_consistency
                    } else {
                        a.trained_potential
                    },
                )
            })
        })
    };
    let name = ctx.text_at(i, |s, i| {
        s.abilities
            .get(i)
            .map(|a| a.name.clone())
            .unwrap_or_default()
    });
    view! {
        <div class="ability" data-ability=name>
            <div class="ability-head">
                <strong class="ability-name">{name}</strong>
                <span class="muted">"C "<strong data-testid="consistency">{ctx.text_at(i, |s, i| s.abilities.get(i).map_or(0, |a| s.consistency(a)).to_string())}</strong>
                    " · P "<strong data-testid="potential">{ctx.text_at(i, |s, i| s.abilities.get(i).map_or(0, |a| s.potential(a)).to_string())}</strong></span>
            </div>
            <div class="actions">
                <button class="btn small" on:click=move |_| pending.set(Some((i, Track::Consistency)))>
                    {move || format!("+1 C · {} XP", cost(Track::Consistency))}
                </button>
                <button class="btn small" on:click=move |_| pending.set(Some((i, Track::Potential)))>
                    {move || format!("+1 P · {} XP", cost(Track::Potential))}
                </button>
            </div>
            <Show when=move || pending.get().is_some_and(|(j, _)| j == i)>
                <WhatIf i pending/>
            </Show>
        </div>
    }
}

/// The cost and effect of one more level, before buying it.
#[component]
fn WhatIf(i: usize, pending: RwSignal<Option<(usize, Track)>>) -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let attrs = ctx.get(move |s| {
        s.abilities
            .get(i)
            .map(|a| a.attrs.clone())
            .unwrap_or_default()
    });
    let choice = RwSignal::new(attrs.get_untracked().first().copied().unwrap_or(Attr::Str));
    let track = move || pending.get().map_or(Track::Consistency, |(_, t)| t);
    let preview = Memo::new(move |_| {
        ctx.sheet
            .with(|s| Preview::of(s, i, track(), choice.get()).map_err(|e| e.to_string()))
    });
    view! {
        <div class="what-if" role="region" aria-label="What if">
            <Show when=move || attrs.with(|a| a.len() > 1)>
                <p class="field-label">"Progress goes to"</p>
                <div class="segmented">
                    {move || attrs.get().into_iter().map(|a| view! {
                        <button class="btn" role="radio" aria-checked=move || (choice.get() == a).to_string()
                            on:click=move |_| choice.set(a)>{a.name()}</button>
                    }).collect_view()}
                </div>
            </Show>
            {move || match preview.get() {
                Err(e) => view! { <p class="field-error">{e}</p> }.into_any(),
                Ok(pv) => {
                    let a = pv.purchase.attr;
                    view! {
                        <ul class="preview">
                            <li>{format!("{} → {}: costs {} XP, leaving {}", pv.purchase.track.name(), pv.purchase.level, pv.purchase.cost, pv.xp_after)}</li>
                            <li>{if pv.purchase.raised {
                                format!("{} rises to {} (progress resets; next needs {})", a.name(), pv.attr_value_after, pv.progress_needed)
                            } else {
                                format!("{} progress {}/{}", a.name(), pv.progress_after, pv.progress_needed)
                            }}</li>
                            {pv.changes.into_iter().map(|(n, c0, c1, p0, p1)| view! {
                                <li>{format!("{n}: C {c0} → {c1}, P {p0} → {p1}")}</li>
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }
            }}
            <div class="actions">
                <button class="btn primary" disabled=move || preview.with(Result::is_err) on:click=move |_| {
                    if ctx.act(Edit::Train(i, track(), choice.get_untracked())) {
                        pending.set(None);
                    }
                }>"Buy"</button>
                <button class="btn" on:click=move |_| pending.set(None)>"Cancel"</button>
            </div>
        </div>
    }
}
