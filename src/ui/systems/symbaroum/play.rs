//! A Symbaroum-style character at the table: toughness and corruption with the secondary values
//! on top, one row per attribute, Defense and weapon (tap to roll), then dying and healing.

use super::rolls::{Base, Damage, Dying, SymTest};
use super::Ctx as SymCtx;
use crate::rules::symbaroum::{modifier, Edit, SAttr, SymbaroumSheet};
use crate::ui::kit::{Counter, Fig, RollRow, RollSheet, Stepper};
use leptos::prelude::*;

/// What a roll sheet was opened for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Test(Base),
    Weapon(usize),
}

pub fn play(ctx: SymCtx) -> impl IntoView {
    let open = RwSignal::new(None::<Open>);
    let weapons = ctx.num(|s| s.weapons.len() as i32);
    view! {
        <section class="card vitals" aria-label="Vitals">
            <div class="counters">
                <Counter label="Toughness" value=ctx.num(|s| s.toughness) set=ctx.set(Edit::Toughness)
                    max=ctx.max(|s| s.toughness_max()) min=0 limit=1000
                    note=ctx.text(|s| if s.dead { "dead".into() } else if s.dying() { "dying".into() } else { String::new() })/>
            </div>
            <ul class="figures" aria-label="Secondary values">
                <li><small>"Defense"</small><strong data-testid="defense">{ctx.text(|s| s.defense().to_string())}</strong></li>
                <li><small>"Pain threshold"</small><strong data-testid="pain-threshold">{ctx.text(|s| s.pain_threshold().to_string())}</strong></li>
                <li><small>"Toughness max"</small><strong data-testid="toughness-max">{ctx.text(|s| s.toughness_max().to_string())}</strong></li>
                <li><small>"Corruption"</small><strong data-testid="corruption">{ctx.text(|s| format!("{} / {}", s.corruption_total(), s.corruption_threshold()))}</strong></li>
            </ul>
            {corruption(ctx)}
        </section>
        <section class="card" aria-label="Tests">
            <h2>"Tests"</h2>
            <ul class="roll-rows grid">
                {SAttr::ALL.map(|a| view! {
                    <RollRow key=a.name() name=Signal::stored(a.name().to_owned()) sub=Signal::stored(String::new())
                        figs=Signal::derive(move || ctx.sheet.with(|s| attr_figs(s, a)))
                        on_roll=Callback::new(move |_| open.set(Some(Open::Test(Base::Attr(a)))))/>
                }).collect_view()}
                <RollRow key="Defense" name=Signal::stored("Defense".to_owned()) sub=Signal::stored(String::new())
                    figs=Signal::derive(move || vec![Fig::new("", ctx.sheet.with(|s| s.defense()), "defense-row")])
                    on_roll=Callback::new(move |_| open.set(Some(Open::Test(Base::Defense))))/>
            </ul>
        </section>
        <section class="card" aria-label="Weapons">
            <h2>"Weapons"</h2>
            <Show when=move || { weapons.get() == 0 }>
                <p class="muted">"No weapons yet: add them in Edit."</p>
            </Show>
            <ul class="roll-rows">
                {move || (0..weapons.get() as usize).map(|i| view! {
                    <RollRow key=ctx.text_at(i, weapon_name).get_untracked() name=ctx.text_at(i, weapon_name)
                        sub=ctx.text_at(i, |s, i| s.weapons.get(i).map(|w| format!("{} · {}", w.damage, w.attr.name())).unwrap_or_default())
                        figs=Signal::derive(move || ctx.sheet.with(|s| weapon_figs(s, i)))
                        on_roll=Callback::new(move |_| open.set(Some(Open::Weapon(i))))/>
                }).collect_view()}
            </ul>
        </section>
        <Dying/>
        {move || open.get().map(|what| {
            let title = match what {
                Open::Test(Base::Attr(a)) => format!("Roll {}", a.name()),
                Open::Test(Base::Defense) => "Roll Defense".to_owned(),
                Open::Weapon(i) => format!("Roll {}", ctx.sheet.with_untracked(|s| weapon_name(s, i))),
            };
            view! {
                <RollSheet title=Signal::stored(title) on_close=Callback::new(move |_| open.set(None))>
                    {match what {
                        Open::Test(base) => view! { <SymTest base/> }.into_any(),
                        Open::Weapon(i) => {
                            let attr = ctx.sheet.with_untracked(|s| s.weapons.get(i).map_or(SAttr::Accurate, |w| w.attr));
                            view! { <SymTest base=Base::Attr(attr)/><Damage weapon=i/> }.into_any()
                        }
                    }}
                </RollSheet>
            }
        })}
    }
}

/// Temporary and permanent corruption with the warning at the threshold (Play and Edit).
pub(super) fn corruption(ctx: SymCtx) -> impl IntoView {
    view! {
        <div class="grid2">
            <Stepper label="Temporary corruption" value=ctx.num(|s| s.corruption_temporary as i32) min=0 max=1000 set=ctx.set(Edit::CorruptionTemporary)/>
            <Stepper label="Permanent corruption" value=ctx.num(|s| s.corruption_permanent as i32) min=0 max=1000 set=ctx.set(Edit::CorruptionPermanent)/>
        </div>
        <Show when=move || ctx.sheet.with(|s| s.corruption_warning())>
            <p class="field-error" role="alert" data-testid="corruption-warning">{ctx.text(|s| format!("Corruption {} has reached the threshold {}: the character is marked by it.", s.corruption_total(), s.corruption_threshold()))}</p>
        </Show>
    }
}

fn attr_figs(s: &SymbaroumSheet, a: SAttr) -> Vec<Fig> {
    vec![Fig::new("", s.attr(a), "attr-value")]
}

fn weapon_name(s: &SymbaroumSheet, i: usize) -> String {
    s.weapons.get(i).map(|w| w.name.clone()).unwrap_or_default()
}

fn weapon_figs(s: &SymbaroumSheet, i: usize) -> Vec<Fig> {
    s.weapons.get(i).map_or_else(Vec::new, |w| {
        vec![Fig::new(w.attr.name(), s.attr(w.attr), "weapon-attr")]
    })
}

/// The modifier an opposing value gives (for the rows' notes).
#[allow(dead_code)]
fn opposing(v: i32) -> i32 {
    modifier(v)
}
