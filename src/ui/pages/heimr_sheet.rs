use crate::rules::heimr::{
    progress_required, train, undo_last, xp_cost, Ability, Attr, AttrGroup, HeimrSheet, Preview,
    Track, FATIGUE_MAX, FATIGUE_MIN,
};
use crate::storage::character::Sheet;
use crate::ui::components::fields::{Stepper, TextList};
use crate::ui::pages::heimr_roll::{ChallengePanel, RollFor};
use crate::ui::state::Notices;
use leptos::prelude::*;

/// The Heimr sheet being shown.
pub type SheetCtx = crate::ui::sheet_ctx::SheetCtx<HeimrSheet>;

/// Which roll panel is open on this sheet, if any.
#[derive(Clone, Copy)]
struct OpenRoll(RwSignal<Option<RollFor>>);

#[component]
pub fn HeimrSheetView(id: String) -> impl IntoView {
    let ctx = SheetCtx::new(
        id,
        |s| match s {
            Sheet::Heimr(h) => Some(h),
            _ => None,
        },
        |s| match s {
            Sheet::Heimr(h) => Some(h),
            _ => None,
        },
    );
    provide_context(OpenRoll(RwSignal::new(None)));
    provide_context(ctx);
    view! {
        <Attributes/>
        <Vitals/>
        <Abilities/>
        <TextList title="Skills" items=ctx.get(|s| s.skills.clone()) set=Callback::new(move |v| ctx.edit(|s| s.skills = v))/>
        <TextList title="Conditions" items=ctx.get(|s| s.conditions.clone()) set=Callback::new(move |v| ctx.edit(|s| s.conditions = v))/>
        <TextList title="Items" items=ctx.get(|s| s.items.clone()) set=Callback::new(move |v| ctx.edit(|s| s.items = v))/>
    }
}

#[component]
fn Attributes() -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let rolling = expect_context::<OpenRoll>().0;
    let group = move |g: AttrGroup, title: &'static str| {
        let rows = Attr::ALL.into_iter().filter(move |a| a.group() == g).map(move |a| {
            let i = a.index();
            let value = ctx.get(move |s| s.attributes[i].value);
            let progress = ctx.get(move |s| s.attributes[i].progress);
            let need = move || progress_required(value.get() + 1);
            view! {
                <div class="attr-row" data-attr=a.short()>
                    <div class="attr-name">
                        <strong>{a.name()}</strong>
                        <span class="muted progress-text">{move || format!("progress {}/{} to {}", progress.get(), need(), value.get() + 1)}</span>
                        <progress max=move || need() value=move || progress.get()></progress>
                    </div>
                    <Stepper label=a.name() value min=-20 max=20
                        set=Callback::new(move |v| ctx.edit(|s| s.attributes[i].value = v))/>
                    <button class="btn small roll-chip" aria-label=format!("Roll {}", a.name())
                        on:click=move |_| rolling.set(Some(RollFor::Attribute(a)))>"Roll"</button>
                </div>
                <Show when=move || rolling.get() == Some(RollFor::Attribute(a))>
                    <ChallengePanel what=RollFor::Attribute(a) on_close=Callback::new(move |_| rolling.set(None))/>
                </Show>
            }
        }).collect_view();
        view! { <h3>{title}</h3>{rows} }
    };
    view! {
        <section class="card">
            <h2>"Attributes"</h2>
            {group(AttrGroup::Physical, "Physical")}
            {group(AttrGroup::Mental, "Mental")}
        </section>
    }
}

#[component]
fn Vitals() -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let base_fatigue = ctx.get(|s| s.base_fatigue());
    let injury = ctx.get(|s| s.injury());
    let sta = ctx.get(|s| s.attr(Attr::Sta));
    view! {
        <section class="card">
            <h2>"Health and will"</h2>
            <div class="grid2">
                <Stepper label="Hit points" value=ctx.get(|s| s.hp) min=-1000 max=1000 set=Callback::new(move |v| ctx.edit(|s| s.hp = v))/>
                <Stepper label="Max hit points" value=ctx.get(|s| s.hp_max) min=0 max=1000 set=Callback::new(move |v| ctx.edit(|s| s.hp_max = v))/>
                <Stepper label="Willpower" value=ctx.get(|s| s.willpower) min=0 max=1000 set=Callback::new(move |v| ctx.edit(|s| s.willpower = v))/>
                <Stepper label="Max willpower" value=ctx.get(|s| s.willpower_max) min=0 max=1000 set=Callback::new(move |v| ctx.edit(|s| s.willpower_max = v))/>
                <Stepper label="Fatigue" value=ctx.get(|s| s.fatigue) min=FATIGUE_MIN max=FATIGUE_MAX set=Callback::new(move |v| ctx.edit(|s| s.fatigue = v))/>
            </div>
            <button class="btn" on:click=move |_| ctx.edit(|s| s.fatigue = (s.fatigue - 2).max(s.base_fatigue()))
                disabled=move || ctx.sheet.with(|s| s.fatigue <= s.base_fatigue())>
                "Take a breather (fatigue −2)"
            </button>
            <details class="formula">
                <summary>"Base fatigue " <strong data-testid="base-fatigue">{move || base_fatigue.get()}</strong></summary>
                {move || format!("4 − stamina ({}) = {}, never below 1 → {}", sta.get(), 4 - sta.get(), base_fatigue.get())}
            </details>
            <details class="formula">
                <summary>"Injury: " <strong data-testid="injury">{move || injury.get().name()}</strong></summary>
                <p>{move || injury.get().effect()}</p>
                <p class="muted">"From hit points: 1 or more uninjured; 0 or −1 bloodied; −2 or −3 mangled; −4 or lower mutilated."</p>
                <p class="muted">"A hit that injures: "{crate::rules::heimr::Injury::BODY_PART_EFFECTS.iter().map(|(p, e)| format!("{p} → {e}")).collect::<Vec<_>>().join("; ")}"."</p>
            </details>
        </section>
    }
}

#[component]
fn Abilities() -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let notices = expect_context::<Notices>();
    let count = ctx.get(|s| s.abilities.len());
    let pending = RwSignal::new(None::<(usize, Track)>);
    let last = ctx.get(|s| s.purchases.last().cloned());
    view! {
        <section class="card">
            <h2>"Abilities"</h2>
            <div class="row xp-row">
                <span class="field-label">"XP unspent"</span>
                <Stepper label="XP" value=ctx.get(|s| s.xp as i32) min=0 max=10_000_000 set=Callback::new(move |v: i32| ctx.edit(|s| s.xp = v.max(0) as u32))/>
                <span class="muted">{move || ctx.sheet.with(|s| format!("carried {}", s.xp_carried))}</span>
            </div>
            <For each=move || 0..count.get() key=|i| *i let:i>
                <AbilityRow i pending/>
            </For>
            <Show when=move || last.with(Option::is_some)>
                <div class="undo-row">
                    <span>{move || last.get().map(|p| format!("Last: {} {} → {} ({} XP)", p.ability_name, p.track.name(), p.level, p.cost))}</span>
                    <button class="btn small" on:click=move |_| {
                        let mut result = Ok(());
                        ctx.edit(|s| result = undo_last(s).map(|_| ()));
                        if let Err(e) = result { notices.error(format!("Cannot undo: {e}")); }
                    }>"Undo purchase"</button>
                </div>
            </Show>
            <AddAbility/>
        </section>
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
fn AbilityRow(i: usize, pending: RwSignal<Option<(usize, Track)>>) -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let rolling = expect_context::<OpenRoll>().0;
    let ab = ctx.get(move |s| s.abilities.get(i).cloned());
    let c = ctx.get(move |s| s.abilities.get(i).map_or(0, |a| s.consistency(a)));
    let p = ctx.get(move |s| s.abilities.get(i).map_or(0, |a| s.potential(a)));
    let is_standard = move || i < 6;
    let cost = move |t: Track| {
        ab.with(|a| {
            a.as_ref().map_or(0, |a| {
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
    let name = move || ab.with(|a| a.as_ref().map(|a| a.name.clone()).unwrap_or_default());
    view! {
        <div class="ability" data-ability=name>
            <div class="ability-head">
                <button class="btn small roll-chip" aria-label=move || format!("Roll {}", name())
                    on:click=move |_| rolling.set(Some(RollFor::Ability(i)))>"Roll"</button>
                <strong class="ability-name">{name}</strong>
                <span class="muted">{move || ab.with(|a| a.as_ref().map(|a| a.attrs.iter().map(|x| x.short()).collect::<Vec<_>>().join("+")).unwrap_or_default())}</span>
            </div>
            <div class="ability-figures">
                <details class="formula">
                    <summary>"C " <strong data-testid="consistency">{move || c.get()}</strong></summary>
                    {move || ab.with(|a| a.as_ref().map(|a| format!("base {} + trained {} = {}", a.base_consistency, a.trained_consistency, c.get())))}
                </details>
                <details class="formula">
                    <summary>"P " <strong data-testid="potential">{move || p.get()}</strong></summary>
                    {move || ctx.sheet.with(|s| s.abilities.get(i).map(|a| formula_potential(s, a)))}
                </details>
            </div>
            <div class="actions">
                <button class="btn small" on:click=move |_| pending.set(Some((i, Track::Consistency)))>
                    {move || format!("+1 C · {} XP", cost(Track::Consistency))}
                </button>
                <button class="btn small" on:click=move |_| pending.set(Some((i, Track::Potential)))>
                    {move || format!("+1 P · {} XP", cost(Track::Potential))}
                </button>
                <select aria-label="Base consistency" class="base-c" on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<i32>() {
                        ctx.edit(|s| if let Some(a) = s.abilities.get_mut(i) { a.base_consistency = v });
                    }
                } prop:value=move || ab.with(|a| a.as_ref().map_or(0, |a| a.base_consistency)).to_string()>
                    {(-2..=3).map(|v| view! { <option value=v.to_string()>{format!("base C {v:+}")}</option> }).collect_view()}
                </select>
                <Show when=move || !is_standard()>
                    <button class="btn small danger" on:click=move |_| {
                        pending.set(None);
                        ctx.edit(|s| { if i < s.abilities.len() { s.abilities.remove(i); } });
                    }>"Remove"</button>
                </Show>
            </div>
            <details class="set-training">
                <summary class="btn small">"Set training directly"</summary>
                <p class="muted">"For a character made on paper or at creation: no XP is spent and no attribute progress is added."</p>
                <div class="grid2">
                    <Stepper label=format!("Trained consistency of {}", name()) value=ctx.get(move |s| s.abilities.get(i).map_or(0, |a| a.trained_consistency as i32)) min=0 max=40
                        set=Callback::new(move |v: i32| ctx.edit(|s| if let Some(a) = s.abilities.get_mut(i) { a.trained_consistency = v as u32 }))/>
                    <Stepper label=format!("Trained potential of {}", name()) value=ctx.get(move |s| s.abilities.get(i).map_or(0, |a| a.trained_potential as i32)) min=0 max=40
                        set=Callback::new(move |v: i32| ctx.edit(|s| if let Some(a) = s.abilities.get_mut(i) { a.trained_potential = v as u32 }))/>
                </div>
            </details>
            <Show when=move || pending.get().is_some_and(|(j, _)| j == i)>
                <WhatIf i pending/>
            </Show>
            <Show when=move || rolling.get() == Some(RollFor::Ability(i))>
                <ChallengePanel what=RollFor::Ability(i) on_close=Callback::new(move |_| rolling.set(None))/>
            </Show>
        </div>
    }
}

/// The cost and effect of one more level, before buying it.
#[component]
fn WhatIf(i: usize, pending: RwSignal<Option<(usize, Track)>>) -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let notices = expect_context::<Notices>();
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
                    let mut result = Ok(());
                    ctx.edit(|s| result = train(s, i, track(), choice.get_untracked()).map(|_| ()));
                    match result {
                        Ok(()) => pending.set(None),
                        Err(e) => notices.error(format!("Not bought: {e}")),
                    }
                }>"Buy"</button>
                <button class="btn" on:click=move |_| pending.set(None)>"Cancel"</button>
            </div>
        </div>
    }
}

#[component]
fn AddAbility() -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let (name, set_name) = signal(String::new());
    let attrs = RwSignal::new(Vec::<Attr>::new());
    let (base, set_base) = signal(0i32);
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
                                attrs.update(|v| { v.retain(|x| *x != a); if on { v.push(a); v.sort(); } });
                            }/>
                        <span>{a.short()}</span>
                    </label>
                }).collect_view()}
            </div>
            <Stepper label="Base consistency" value=base min=-2 max=3 set=Callback::new(move |v| set_base.set(v))/>
            <button class="btn primary" disabled=move || name.with(|n| n.trim().is_empty()) || attrs.with(Vec::is_empty)
                on:click=move |_| {
                    let ab = Ability::new(name.get_untracked().trim(), &attrs.get_untracked(), base.get_untracked());
                    ctx.edit(|s| s.abilities.push(ab));
                    set_name.set(String::new());
                    attrs.set(Vec::new());
                    set_base.set(0);
                }>"Add ability"</button>
        </details>
    }
}
