//! Editing a Heimr sheet: attributes with their progress, health and will, every ability's
//! figures with formulas and direct settings, skills and items.

use super::Ctx as SheetCtx;
use crate::rules::heimr::{
    progress_required, Ability, Attr, AttrGroup, Edit, HeimrSheet, ATTR_LIMIT, FATIGUE_MAX,
    FATIGUE_MIN, TRAIN_LIMIT,
};
use crate::ui::kit::{Derived, Section, Stepper, TextList};
use leptos::prelude::*;

pub fn edit(ctx: SheetCtx) -> impl IntoView {
    let count = ctx.num(|s| s.abilities.len() as i32);
    let (skills, set_skills) = ctx.texts(|s| &s.skills, Edit::Skills);
    let (items, set_items) = ctx.texts(|s| &s.items, Edit::Items);
    view! {
        <Section title="Attributes" key="heimr.attributes">
            {[(AttrGroup::Physical, "Physical"), (AttrGroup::Mental, "Mental")].map(|(g, title)| view! {
                <h3>{title}</h3>
                {Attr::ALL.into_iter().filter(move |a| a.group() == g).map(|a| attr_row(ctx, a)).collect_view()}
            }).collect_view()}
        </Section>
        <Section title="Health and will" key="heimr.vitals">
            <div class="grid2">
                <Stepper label="Hit points" value=ctx.num(|s| s.hp) min=-1000 max=1000 set=ctx.set(Edit::Hp)/>
                <Stepper label="Max hit points" value=ctx.num(|s| s.hp_max) min=0 max=1000 set=ctx.set(Edit::HpMax)/>
                <Stepper label="Willpower" value=ctx.num(|s| s.willpower) min=0 max=1000 set=ctx.set(Edit::Willpower)/>
                <Stepper label="Max willpower" value=ctx.num(|s| s.willpower_max) min=0 max=1000 set=ctx.set(Edit::WillpowerMax)/>
                <Stepper label="Fatigue" value=ctx.num(|s| s.fatigue) min=FATIGUE_MIN max=FATIGUE_MAX set=ctx.set(Edit::Fatigue)/>
            </div>
            <Derived label="Base fatigue" testid="base-fatigue" value=ctx.text(|s| s.base_fatigue().to_string())
                formula=ctx.text(|s| format!("4 − stamina ({}) = {}, never below 1 → {}", s.attr(Attr::Sta), 4 - s.attr(Attr::Sta), s.base_fatigue()))/>
            <Derived label="Injury" testid="injury" value=ctx.text(|s| s.injury().label())
                formula=ctx.text(|s| format!("{} From hit points: 1 or more uninjured; 0 or −1 bloodied; −2 or −3 mangled; −4 or −5 mutilated. The table stops at −5: lower still counts as mutilated. A hit that injures: {}.",
                    s.injury().effect(),
                    crate::rules::heimr::Injury::BODY_PART_EFFECTS.iter().map(|(p, e)| format!("{p} → {e}")).collect::<Vec<_>>().join("; ")))/>
        </Section>
        <Section title="Abilities" key="heimr.abilities">
            <p class="muted small-note">"Trained levels set here spend no XP and add no attribute progress (for a character made on paper); buy training in Advance."</p>
            {move || (0..count.get() as usize).map(|i| ability_row(ctx, i)).collect_view()}
            <AddAbility/>
        </Section>
        <TextList title="Skills" items=skills set=set_skills/>
        <TextList title="Items" items=items set=set_items/>
    }
}

fn attr_row(ctx: SheetCtx, a: Attr) -> impl IntoView {
    let i = a.index();
    view! {
        <div class="attr-row" data-attr=a.short()>
            <div class="attr-name">
                <strong>{a.name()}</strong>
                <span class="muted progress-text">{ctx.text_at(i, progress_text)}</span>
            </div>
            <Stepper label=a.name() value=ctx.num_at(i, |s, i| s.attributes[i].value) min=-ATTR_LIMIT max=ATTR_LIMIT
                set=ctx.set_at(i, Edit::Attribute)/>
        </div>
    }
}

/// "progress 3/6 to 1": the attribute's progress towards its next value.
pub fn progress_text(s: &HeimrSheet, i: usize) -> String {
    let at = s.attributes[i];
    format!(
        "progress {}/{} to {}",
        at.progress,
        progress_required(at.value + 1),
        at.value + 1
    )
}

fn ability_row(ctx: SheetCtx, i: usize) -> impl IntoView {
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
                <span class="muted">{ctx.text_at(i, |s, i| s.abilities.get(i).map(|a| a.attrs.iter().map(|x| x.short()).collect::<Vec<_>>().join("+")).unwrap_or_default())}</span>
            </div>
            <div class="ability-figures">
                <Derived label="C" testid="consistency" value=ctx.text_at(i, |s, i| s.abilities.get(i).map_or(0, |a| s.consistency(a)).to_string())
                    formula=ctx.text_at(i, |s, i| s.abilities.get(i).map(|a| format!("base {} + trained {} = {}", a.base_consistency, a.trained_consistency, s.consistency(a))).unwrap_or_default())/>
                <Derived label="P" testid="potential" value=ctx.text_at(i, |s, i| s.abilities.get(i).map_or(0, |a| s.potential(a)).to_string())
                    formula=ctx.text_at(i, |s, i| s.abilities.get(i).map(|a| formula_potential(s, a)).unwrap_or_default())/>
            </div>
            <div class="grid2">
                <Stepper label=format!("Base consistency of {}", name.get_untracked()) value=ctx.num_at(i, |s, i| s.abilities.get(i).map_or(0, |a| a.base_consistency)) min=-2 max=3
                    set=ctx.set_at(i, Edit::AbilityBase)/>
                <Stepper label=format!("Trained consistency of {}", name.get_untracked()) value=ctx.num_at(i, |s, i| s.abilities.get(i).map_or(0, |a| a.trained_consistency as i32)) min=0 max=TRAIN_LIMIT as i32
                    set=ctx.set_at(i, Edit::AbilityTrainedC)/>
                <Stepper label=format!("Trained potential of {}", name.get_untracked()) value=ctx.num_at(i, |s, i| s.abilities.get(i).map_or(0, |a| a.trained_potential as i32)) min=0 max=TRAIN_LIMIT as i32
                    set=ctx.set_at(i, Edit::AbilityTrainedP)/>
            </div>
            {(i >= 6).then(|| view! {
                <button class="btn small danger" on:click=move |_| { ctx.act(Edit::RemoveAbility(i)); }>"Remove"</button>
            })}
        </div>
    }
}

fn formula_potential(s: &HeimrSheet, ab: &Ability) -> String {
    let vals: Vec<String> = ab
        .attrs
        .iter()
        .map(|a| format!("{} {}", a.short(), s.attr(*a)))
        .collect();
    let base = if ab.attrs.len() == 1 {
        format!("base {} (= {})", s.base_potential(ab), vals[0])
    } else {
        format!(
            "base {} (average of {}, rounded down)",
            s.base_potential(ab),
            vals.join(", ")
        )
    };
    format!(
        "{base} + trained {} = {}",
        ab.trained_potential,
        s.potential(ab)
    )
}

#[component]
fn AddAbility() -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let (name, set_name) = signal(String::new());
    let attrs = RwSignal::new(Vec::<Attr>::new());
    let base = RwSignal::new(0i32);
    view! {
        <details class="add-ability">
            <summary class="btn">"Add an ability"</summary>
            <label class="field-label" for="ability-name">"Name"</label>
            <input id="ability-name" type="text" prop:value=move || name.get() on:input=move |ev| set_name.set(event_target_value(&ev))/>
            <p class="field-label">"Governing attributes"</p>
            <div class="attr-picks">
                {Attr::ALL.map(|a| view! {
                    <label class="check">
                        <input type="checkbox" prop:checked=move || attrs.with(|v| v.contains(&a))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                attrs.update(|v| { v.retain(|x| *x != a); if on { v.push(a); crate::rules::order::sort(v); } });
                            }/>
                        <span>{a.short()}</span>
                    </label>
                }).collect_view()}
            </div>
            <Stepper label="Base consistency" value=base min=-2 max=3 set=crate::ui::kit::set_to(base)/>
            <button class="btn primary" disabled=move || name.with(|n| n.trim().is_empty()) || attrs.with(Vec::is_empty)
                on:click=move |_| {
                    let ab = Ability::new(name.get_untracked().trim(), &attrs.get_untracked(), base.get_untracked());
                    if !ctx.act(Edit::AddAbility(ab)) { return; }
                    set_name.set(String::new());
                    attrs.set(Vec::new());
                    base.set(0);
                }>"Add ability"</button>
        </details>
    }
}
