//! Heimr at the table: hit points, willpower and fatigue on top, then one row per ability and
//! attribute (tap to roll), then conditions.

use super::roll::{ChallengePanel, RollFor};
use super::Ctx;
use crate::rules::heimr::{Attr, Edit, HeimrSheet, FATIGUE_MAX, FATIGUE_MIN};
use crate::ui::kit::{Counter, Fig, RollRow, RollSheet, TextList};
use leptos::prelude::*;

pub fn play(ctx: Ctx) -> impl IntoView {
    let open = RwSignal::new(None::<RollFor>);
    let count = ctx.num(|s| s.abilities.len() as i32);
    let (conditions, set_conditions) = ctx.texts(|s| &s.conditions, Edit::Conditions);
    view! {
        <section class="card vitals" aria-label="Vitals">
            <div class="counters">
                <Counter label="Hit points" value=ctx.num(|s| s.hp) set=ctx.set(Edit::Hp)
                    max=ctx.max(|s| s.hp_max) min=-1000 limit=1000
                    note=ctx.text(|s| s.injury().label())/>
                <Counter label="Willpower" value=ctx.num(|s| s.willpower) set=ctx.set(Edit::Willpower)
                    max=ctx.max(|s| s.willpower_max) min=0 limit=1000
                    note=Signal::derive(String::new)/>
                <Counter label="Fatigue" value=ctx.num(|s| s.fatigue) set=ctx.set(Edit::Fatigue)
                    max=Signal::stored(None) min=FATIGUE_MIN limit=FATIGUE_MAX
                    note=ctx.text(|s| format!("base {}", s.base_fatigue()))/>
            </div>
            <button class="btn wide" on:click=move |_| { ctx.act(Edit::Breather); }
                disabled=move || ctx.sheet.with(|s| s.fatigue <= s.base_fatigue())>
                "Breather (fatigue to base)"
            </button>
            <button class="btn wide" data-testid="short-rest" on:click=move |_| { ctx.act(Edit::ShortRest); }
                disabled=move || ctx.sheet.with(|s| s.short_rest_refusal().is_some())>
                "Short rest (hit points to max)"
            </button>
            <p class="muted" data-testid="short-rest-why">{ctx.text(|s| s.short_rest_refusal().unwrap_or_default().to_owned())}</p>
        </section>
        <section class="card" aria-label="Abilities">
            <h2>"Abilities"</h2>
            <ul class="roll-rows">
                {move || (0..count.get() as usize).map(|i| view! {
                    <RollRow key=ctx.text_at(i, ability_name).get_untracked()
                        name=ctx.text_at(i, ability_name)
                        sub=ctx.text_at(i, |s, i| s.abilities.get(i).map(|a| a.attrs.iter().map(|x| x.short()).collect::<Vec<_>>().join("+")).unwrap_or_default())
                        figs=Signal::derive(move || ctx.sheet.with(|s| ability_figs(s, i)))
                        on_roll=Callback::new(move |_| open.set(Some(RollFor::Ability(i))))/>
                }).collect_view()}
            </ul>
        </section>
        <section class="card" aria-label="Attributes">
            <h2>"Attributes"</h2>
            <ul class="roll-rows grid">
                {Attr::ALL.map(|a| view! {
                    <RollRow key=a.short() name=Signal::stored(a.name().to_owned())
                        sub=Signal::stored(String::new())
                        figs=Signal::derive(move || vec![Fig::new("", ctx.sheet.with(|s| s.attr(a)), "attr-value")])
                        on_roll=Callback::new(move |_| open.set(Some(RollFor::Attribute(a))))/>
                }).collect_view()}
            </ul>
        </section>
        <TextList title="Conditions" items=conditions set=set_conditions chips=true/>
        {move || open.get().map(|what| view! {
            <RollSheet title=Signal::derive(move || format!("Roll {}", ctx.sheet.with(|s| what.name(s))))
                on_close=Callback::new(move |_| open.set(None))>
                <ChallengePanel what/>
            </RollSheet>
        })}
    }
}

fn ability_name(s: &HeimrSheet, i: usize) -> String {
    s.abilities
        .get(i)
        .map(|a| a.name.clone())
        .unwrap_or_default()
}

fn ability_figs(s: &HeimrSheet, i: usize) -> Vec<Fig> {
    s.abilities.get(i).map_or_else(Vec::new, |a| {
        vec![
            Fig::new("C", s.consistency(a), "consistency"),
            Fig::new("P", s.potential(a), "potential"),
        ]
    })
}
