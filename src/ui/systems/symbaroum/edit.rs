//! Editing a Symbaroum-style sheet: attributes, the secondary values with their formulas,
//! toughness and corruption, armor, shield, weapons and equipment.

use super::Ctx as SymCtx;
use crate::rules::dice::parse;
use crate::rules::symbaroum::{modifier, Edit, SAttr, Shield, Weapon, WeaponQuality};
use crate::ui::kit::{Derived, Section, Stepper, TextList};
use leptos::prelude::*;

pub fn edit(ctx: SymCtx) -> impl IntoView {
    let (equipment, set_equipment) = ctx.texts(|s| &s.equipment, Edit::Equipment);
    view! {
        <SymAttributes/>
        <Secondary/>
        <Gear/>
        <TextList title="Equipment" items=equipment set=set_equipment/>
    }
}

#[component]
fn SymAttributes() -> impl IntoView {
    let ctx = expect_context::<SymCtx>();
    view! {
        <Section title="Attributes" key="symbaroum.attributes">
            <p class="muted" data-testid="attr-total">{move || format!("total {}", ctx.sheet.with(|s| s.total()))}</p>
            {SymbaroumSheetAttrs(ctx)}
            <p class="muted">"Usually 5–15; 1–20 is allowed for NPCs."</p>
        </Section>
    }
}

#[allow(non_snake_case)]
fn SymbaroumSheetAttrs(ctx: SymCtx) -> impl IntoView {
    SAttr::ALL
        .map(|a| {
            let i = a.index();
            let unusual = move || ctx.sheet.with(|s| !(5..=15).contains(&s.attr(a)));
            view! {
                <div class="attr-row" data-attr=a.name()>
                    <div class="attr-name">
                        <strong>{a.name()}</strong>
                        <span class="muted progress-text">{move || format!("modifier against it {:+}", modifier(ctx.sheet.with(|s| s.attr(a))))}</span>
                        <Show when=unusual><span class="field-error">"outside 5–15"</span></Show>
                    </div>
                    <Stepper label=a.name() value=ctx.num_at(i, |s, i| s.attributes[i]) min=1 max=20
                        set=ctx.set_at(i, Edit::Attribute)/>
                </div>
            }
        })
        .collect_view()
}

#[component]
fn Secondary() -> impl IntoView {
    let ctx = expect_context::<SymCtx>();
    view! {
        <Section title="Secondary attributes" key="symbaroum.secondary">
            <Derived label="Toughness max" testid="toughness-max" value=ctx.text(|s| s.toughness_max().to_string())
                formula=ctx.text(|s| format!("Strong {} (never below 10)", s.attr(SAttr::Strong)))/>
            <Derived label="Pain threshold" testid="pain-threshold" value=ctx.text(|s| s.pain_threshold().to_string())
                formula=ctx.text(|s| format!("Strong {} ÷ 2, rounded up; damage above it in one hit knocks down or gives a free attack", s.attr(SAttr::Strong)))/>
            <Derived label="Defense" testid="defense" value=ctx.text(|s| s.defense().to_string())
                formula=ctx.text(|s| format!("Quick {} − impeding {}{}", s.attr(SAttr::Quick), s.armor_impeding, if s.shield != Shield::None { " + 1 (shield)" } else { "" }))/>
            <Derived label="Corruption threshold" testid="corruption-threshold" value=ctx.text(|s| s.corruption_threshold().to_string())
                formula=ctx.text(|s| format!("Resolute {} ÷ 2, rounded up", s.attr(SAttr::Resolute)))/>
            <div class="grid2">
                <Stepper label="Toughness" value=ctx.num(|s| s.toughness) min=0 max=1000 set=ctx.set(Edit::Toughness)/>
            </div>
            <label class="check"><input type="checkbox" data-testid="npc-flag" prop:checked=move || ctx.sheet.with(|s| s.npc)
                on:change=crate::ui::kit::checked(move |on| { ctx.act(Edit::Npc(on)); })/><span>"Non-player character: dies at 0 toughness"</span></label>
            {super::play::corruption(ctx)}
            <Derived label="Opposing value → modifier" testid="modifier-table" value=Signal::stored(String::new())
                formula=Signal::stored((5..=15).map(|v| format!("{v}: {:+}", modifier(v))).collect::<Vec<_>>().join(" · "))/>
        </Section>
    }
}

#[component]
fn Gear() -> impl IntoView {
    let ctx = expect_context::<SymCtx>();
    view! {
        <Section title="Armor and weapons" key="symbaroum.gear">
            <label class="field-label" for="armor-name">"Armor"</label>
            <input id="armor-name" type="text" prop:value=move || ctx.sheet.with(|s| s.armor_name.clone()) on:change=move |ev| { ctx.act(Edit::ArmorName(event_target_value(&ev))); }/>
            <label class="field-label" for="armor-protection">"Protection roll"</label>
            <input id="armor-protection" type="text" placeholder="e.g. 1d4" prop:value=move || ctx.sheet.with(|s| s.armor_protection.clone())
                on:change=move |ev| { ctx.act(Edit::ArmorProtection(event_target_value(&ev))); }/>
            <div class="grid2">
                <Stepper label="Impeding" value=ctx.num(|s| s.armor_impeding) min=0 max=100 set=ctx.set(Edit::ArmorImpeding)/>
            </div>
            <label class="field-label" for="shield">"Shield"</label>
            <select id="shield" prop:value=move || ctx.sheet.with(|s| match s.shield { Shield::None => "none", Shield::Shield => "shield", Shield::Buckler => "buckler" })
                on:change=move |ev| { ctx.act(Edit::Shield(match event_target_value(&ev).as_str() { "shield" => Shield::Shield, "buckler" => Shield::Buckler, _ => Shield::None })); }>
                <option value="none">"None"</option><option value="shield">"Shield (+1 Defense)"</option><option value="buckler">"Buckler (+1 Defense)"</option>
            </select>
            <label class="field-label" for="defense-from">"Defense from (an ability may allow another)"</label>
            <select id="defense-from" prop:value=move || ctx.sheet.with(|s| s.defense_from.name())
                on:change=move |ev| { let v = event_target_value(&ev); if let Some(a) = SAttr::ALL.into_iter().find(|a| a.name() == v) { ctx.act(Edit::DefenseFrom(a)); } }>
                {SAttr::ALL.map(|a| view! { <option value=a.name()>{a.name()}</option> }).collect_view()}
            </select>
            <h3>"Weapons"</h3>
            {move || ctx.sheet.with(|s| s.weapons.clone()).into_iter().enumerate().map(|(i, w)| view! {
                <div class="weapon">
                    <p><strong>{w.name.clone()}</strong>{format!(" · {} · {} {}", w.damage, w.attr.name(), w.qualities.iter().map(|q| q.name()).collect::<Vec<_>>().join(", "))}</p>
                    <button class="btn small danger" on:click=move |_| { ctx.act(Edit::RemoveWeapon(i)); }>"Remove"</button>
                </div>
            }).collect_view()}
            <AddWeapon/>
        </Section>
    }
}

#[component]
fn AddWeapon() -> impl IntoView {
    let ctx = expect_context::<SymCtx>();
    let (name, set_name) = signal(String::new());
    let (damage, set_damage) = signal(String::from("1d8"));
    let qualities = RwSignal::new(Vec::<WeaponQuality>::new());
    let attr = RwSignal::new(SAttr::Accurate);
    view! {
        <details class="add-ability">
            <summary class="btn">"Add a weapon"</summary>
            <input type="text" aria-label="Weapon name" placeholder="Name" prop:value=move || name.get() on:input=move |ev| set_name.set(event_target_value(&ev))/>
            <input type="text" aria-label="Weapon damage" placeholder="Damage, e.g. 1d8" prop:value=move || damage.get() on:input=move |ev| set_damage.set(event_target_value(&ev))/>
            {WeaponQuality::ALL.map(|q| view! {
                <label class="check"><input type="checkbox" prop:checked=move || qualities.with(|v| v.contains(&q))
                    on:change=move |ev| { let on = event_target_checked(&ev); qualities.update(|v| { v.retain(|x| *x != q); if on { v.push(q) } }) }/><span>{q.name()}</span></label>
            }).collect_view()}
            <select aria-label="Attribute the weapon uses" on:change=move |ev| {
                let v = event_target_value(&ev);
                if let Some(a) = SAttr::ALL.into_iter().find(|a| a.name() == v) { attr.set(a) }
            }>
                {SAttr::ALL.map(|a| view! { <option value=a.name()>{format!("Attacks with {}", a.name())}</option> }).collect_view()}
            </select>
            <button class="btn primary" disabled=move || name.with(|n| n.trim().is_empty()) || damage.with(|d| parse(d).is_err()) on:click=move |_| {
                let w = Weapon { name: name.get_untracked().trim().to_owned(), damage: damage.get_untracked(), qualities: qualities.get_untracked(), attr: attr.get_untracked() };
                if ctx.act(Edit::AddWeapon(w)) { set_name.set(String::new()); }
            }>"Add weapon"</button>
        </details>
    }
}
