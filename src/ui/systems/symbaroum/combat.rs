//! Symbaroum-style combat views: characters joining a fight, the quick-NPC form, attacks between
//! two combatants with the exact chances, the pain-threshold choice, standing up, death tests
//! and surprise.

use crate::rules::dice::{parse, DiceSource};
use crate::rules::encounter::{Combatant, Event, State};
use crate::rules::referee::Intent;
use crate::rules::symbaroum::combat::{
    attack_in, npc, reach_free_attack, situation, surprise_events, surprise_in, surprise_refused,
    weapons, wielding, Npc, Roller, IN_HAND,
};
use crate::rules::symbaroum::referee::{Action as A, Aid, Strike};
use crate::rules::symbaroum::{death_chance_within, Blind, WeaponQuality};
use crate::ui::components::bar_chart::BarChart;
use crate::ui::encounters::EncCtx;
use crate::ui::format::{decimal, percent};
use crate::ui::kit::offers::{last_said, picked};
use crate::ui::kit::{
    draw, flag, offers as kit_offers, set_to, tap, text, typed, when, Field, Stepper,
};
use crate::ui::systems::{numbered, CombatUi};
use leptos::prelude::*;

pub static UI: CombatUi = CombatUi {
    npc_form,
    panel,
    tools,
    tools_title: "Surprise",
    row_note,
};

fn row_note(_: &State, _: u32) -> String {
    String::new()
}

fn npc_form(ctx: EncCtx) -> AnyView {
    let name = RwSignal::new("Goblin".to_owned());
    let weapon = RwSignal::new("1d6".to_owned());
    let armor = RwSignal::new(String::new());
    let [count, accurate, defense, quick, vigilant, toughness, discreet, pain, quality] =
        [1, 10, 10, 10, 10, 10, 10, 5, 9].map(RwSignal::new);
    let bad = flag(move || {
        parse(&weapon.get()).is_err()
            || (!armor.with(|a| a.trim().is_empty()) && parse(&armor.get()).is_err())
    });
    let add = tap(move || {
        let base = name.get_untracked().trim().to_owned();
        let base = if base.is_empty() { "NPC".into() } else { base };
        let names = ctx
            .state
            .with_untracked(|s| numbered(s, &base, count.get_untracked().max(1) as usize));
        let list: Vec<Combatant> = names
            .iter()
            .map(|n| {
                npc(
                    n,
                    &Npc {
                        accurate: accurate.get_untracked(),
                        defense: defense.get_untracked(),
                        quick: quick.get_untracked(),
                        vigilant: vigilant.get_untracked(),
                        discreet: discreet.get_untracked(),
                        toughness: toughness.get_untracked(),
                        pain: pain.get_untracked(),
                        weapon: weapon.get_untracked().trim().into(),
                        quality: WeaponQuality::ALL
                            .get(quality.get_untracked() as usize)
                            .copied(),
                        natural: quality.get_untracked() == 8,
                        armor: armor.get_untracked().trim().into(),
                    },
                )
            })
            .collect();
        ctx.act(Event::Group(list));
    });
    view! {
        <div class="npc-form" data-testid="npc-form">
            <label class="field-label" for="npc-name">"Name"</label>
            <input id="npc-name" type="text" prop:value=move || name.get() on:input=typed(move |v| name.set(v))/>
            <div class="grid2">
                <Stepper label="How many" value=count min=1 max=20 set=set_to(count)/>
                <Stepper label="Toughness" value=toughness min=1 max=1000 set=Callback::new(move |v: i32| {
                    // Toughness over 10 is Strong: the pain threshold is half of it, rounded up.
                    toughness.set(v);
                    pain.set(if v > 10 { (v + 1) / 2 } else { 5 });
                })/>
                <Stepper label="Accurate" value=accurate min=1 max=20 set=set_to(accurate)/>
                <Stepper label="Defense" value=defense min=-20 max=20 set=set_to(defense)/>
                <Stepper label="Quick" value=quick min=1 max=20 set=set_to(quick)/>
                <Stepper label="Vigilant" value=vigilant min=1 max=20 set=set_to(vigilant)/>
                <Stepper label="Discreet" value=discreet min=1 max=20 set=set_to(discreet)/>
                <Stepper label="Pain threshold" value=pain min=0 max=500 set=set_to(pain)/>
            </div>
            <div class="grid2">
                <div>
                    <label class="field-label" for="npc-weapon">"Weapon damage"</label>
                    <input id="npc-weapon" type="text" prop:value=move || weapon.get() on:input=typed(move |v| weapon.set(v))/>
                </div>
                <div>
                    <label class="field-label" for="npc-armor">"Armor roll"</label>
                    <input id="npc-armor" type="text" placeholder="none" prop:value=move || armor.get() on:input=typed(move |v| armor.set(v))/>
                </div>
            </div>
            <label class="field-label" for="npc-quality">"Its weapon is"</label>
            <select id="npc-quality" on:change=typed(move |v| quality.set(v.parse().unwrap_or(9)))>
                <option value="9">"Ordinary"</option>
                <option value="8">"Natural (claws, teeth: always ready)"</option>
                {WeaponQuality::ALL.iter().enumerate().map(|(i, q)| view! { <option value=i.to_string()>{q.name()}</option> }).collect_view()}
            </select>
            <Show when=when(bad)><p class="field-error">"Weapon and armor take dice notation, like 1d6 and 1d4."</p></Show>
            <button class="btn primary wide" disabled=bad on:click=add>
                {move || if count.get() > 1 { format!("Add {} ×{}", name.get(), count.get()) } else { format!("Add {}", name.get()) }}
            </button>
        </div>
    }
    .into_any()
}

/// One combatant's Symbaroum actions in the fight.
fn panel(ctx: EncCtx, who: u32) -> AnyView {
    view! {
        <Attack ctx who/>
        {actions(ctx, who)}
    }
    .into_any()
}

#[component]
fn Attack(ctx: EncCtx, who: u32) -> impl IntoView {
    let targets = move || {
        ctx.state.with(|s| {
            s.order
                .iter()
                .filter(|&&id| id != who)
                .chain([&who])
                .filter_map(|&id| s.get(id))
                .filter(|c| !c.dead)
                .map(|c| (c.id, c.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let first = targets().into_iter().next().map_or(0, |t| t.0);
    let target = RwSignal::new(first);
    // Its weapons as the fight knows them (a saved character's, as it joined), the one in hand
    // first chosen.
    let (weapons, held): (Vec<String>, usize) = ctx.state.with_untracked(|s| {
        s.get(who).map_or_else(Default::default, |c| {
            let list = weapons(c)
                .into_iter()
                .map(|w| format!("{} ({}, {})", w.name, w.damage, w.with))
                .collect();
            (list, c.stat(IN_HAND).max(0) as usize)
        })
    });
    let weapon = RwSignal::new(held);
    let weapons = StoredValue::new(weapons);
    // The odds of the roll the rules make: the advantage and who cannot see are the fight's
    // (`combat::situation`), never ticked by hand.
    let figures = Memo::new(move |_| {
        let (t, w) = (target.get(), weapon.get());
        ctx.state.with(|s| {
            let a = wielding(s.get(who)?, w)?;
            let b = s.get(t)?;
            Some((
                attack_in(s, who, t, w)?,
                situation(s, who, t, w).0,
                reach_free_attack(&a, b),
                a.name.clone(),
                b.name.clone(),
                b.hp,
            ))
        })
    });
    let chart = Signal::derive(move || {
        figures.with(|f| {
            f.as_ref()
                .and_then(|f| f.0.damage.clone())
                .unwrap_or_else(|| crate::rules::dice::Distribution::point(0))
        })
    });
    let pain_at = Signal::derive(move || {
        let t = target.get();
        ctx.state.with(|s| {
            s.get(t)
                .map(|c| i64::from(c.stat(crate::rules::symbaroum::combat::PAIN)) + 1)
        })
    });
    let strike = move || Strike {
        target: target.get_untracked(),
        weapon: weapon.get_untracked() as u32,
    };
    let [roll, roll_why] = picked(
        ctx,
        who,
        |i| matches!(i, Intent::Symbaroum(A::Attack(_))),
        "Roll attack",
        "roll-attack",
        std::sync::Arc::new(move || Intent::Symbaroum(A::Attack(strike()))),
    );
    let [free, free_why] = picked(
        ctx,
        who,
        |i| matches!(i, Intent::Symbaroum(A::FreeAttack(_))),
        "Roll a free attack",
        "roll-free-attack",
        std::sync::Arc::new(move || Intent::Symbaroum(A::FreeAttack(strike()))),
    );
    let [draw_it, draw_why] = picked(
        ctx,
        who,
        |i| matches!(i, Intent::Symbaroum(A::Draw(_))),
        "Take in hand",
        "take-in-hand",
        std::sync::Arc::new(move || Intent::Symbaroum(A::Draw(weapon.get_untracked() as u32))),
    );
    let aid = RwSignal::new(0usize);
    let [give, give_why] = picked(
        ctx,
        who,
        |i| matches!(i, Intent::Symbaroum(A::Aid { .. })),
        "Give aid",
        "give-aid",
        std::sync::Arc::new(move || {
            Intent::Symbaroum(A::Aid {
                target: target.get_untracked(),
                kind: Aid::ALL[aid.get_untracked()],
            })
        }),
    );
    // Its last attack as the fight's log has it.
    let result = last_said(ctx, who, " attacks ");
    view! {
        <section class="combat-panel" aria-label="Attack">
            <h3>"Attack"</h3>
            <label class="field-label" for="attack-target">"Target"</label>
            <select id="attack-target" on:change=typed(move |v| target.set(v.parse().unwrap_or(0)))>
                {move || targets().into_iter().map(|(id, name)| view! { <option value=id.to_string() selected=move || target.get() == id>{name}</option> }).collect_view()}
            </select>
            {(weapons.with_value(Vec::len) > 1).then(|| view! {
                <label class="field-label" for="attack-weapon">"Weapon"</label>
                <select id="attack-weapon" on:change=typed(move |v| weapon.set(v.parse().unwrap_or(0)))>
                    {weapons.with_value(|ws| ws.iter().enumerate().map(|(i, w)| view! { <option value=i.to_string() selected=i == held>{w.clone()}</option> }).collect_view())}
                </select>
                {[draw_it, draw_why].into_iter().map(draw).collect_view()}
            })}
            {move || ctx.state.with(|s| s.veiled.contains(&target.get())).then(|| view! {
                <p class="muted" data-testid="attack-roll">{crate::rules::referee::GM_ODDS}</p>
            })}
            {move || figures.get().filter(|_| !ctx.state.with(|s| s.veiled.contains(&target.get()))).map(|(a, adv, reach, an, bn, hp)| {
                let who_rolls = match a.roller {
                    Roller::Attacker => format!("{an} rolls d20 ≤ {} (Accurate ← Defense)", a.target),
                    Roller::Defender => format!("{bn} defends: d20 ≤ {} (Defense ← Accurate)", a.target),
                };
                let twice = match a.blind {
                    Blind::Me => " · twice, keep the worse",
                    Blind::Enemy => " · twice, keep the better",
                    Blind::Neither => "",
                };
                let adv = if adv { " · with the advantage (+2, +1d4 damage)" } else { "" };
                view! {
                    <p class="muted" data-testid="attack-roll">{who_rolls}{adv}{twice}</p>
                    <p class="chance">"Hit " <strong data-testid="hit-chance">{percent(a.hit)}</strong>
                        " · over pain threshold " <strong data-testid="pain-chance">{percent(a.over_pain)}</strong>
                        " · to 0 (" {hp} ") " <strong data-testid="zero-chance">{percent(a.to_zero)}</strong></p>
                    <p class="muted">{a.damage.as_ref().map_or_else(|| "Damage needs dice notation.".to_owned(), |d| format!("Damage after armor, if it hits: average {}", decimal(d.mean())))}</p>
                    {reach.then(|| view! { <p class="verdict">"Long weapon: a free attack in the first turn of melee."</p> })}
                }
            })}
            <BarChart dist=chart target=pain_at/>
            {[roll, roll_why, free, free_why].into_iter().map(draw).collect_view()}
            <p class="result-line" data-testid="attack-result" aria-live="polite">{result}</p>
            <label class="field-label" for="aid-kind">"Aid to the target"</label>
            <select id="aid-kind" on:change=typed(move |v| aid.set(v.parse().unwrap_or(0)))>
                {Aid::ALL.iter().enumerate().map(|(i, a)| view! { <option value=i.to_string()>{a.name()}</option> }).collect_view()}
            </select>
            {[give, give_why].into_iter().map(draw).collect_view()}
        </section>
    }
}

/// Standing up and the death test: what the rules offer now (`symbaroum::referee`), with the
/// chance of dying within the next tests while dying.
fn actions(ctx: EncCtx, who: u32) -> AnyView {
    let dying = flag(move || ctx.state.with(|s| s.get(who).is_some_and(|c| s.dying(c))));
    let odds = text(move || {
        let steps = ctx.state.with(|s| s.get(who).map_or(0, |c| c.death));
        format!(
            "Dying: {} of 3 steps. Dies within 1 test {}, 2 tests {}, 3 tests {}. Only a herbal cure, Medicus or mystical healing stabilizes; natural healing does not.",
            steps,
            percent(death_chance_within(steps, 1)),
            percent(death_chance_within(steps, 2)),
            percent(death_chance_within(steps, 3))
        )
    });
    [
        Field::If(dying, vec![Field::Text("", "death-odds", odds)]),
        kit_offers(ctx, who, own),
    ]
    .into_iter()
    .map(draw)
    .collect_view()
    .into_any()
}

/// Symbaroum's own actions drawn as buttons (the turn's are drawn by the fight's page; the
/// attacks by the Attack panel, with their picks).
fn own(i: &Intent) -> bool {
    matches!(i, Intent::Symbaroum(a) if !a.picks())
}

/// Surprise: the surprising side's lowest Discreet against the other side's highest Vigilant.
fn tools(ctx: EncCtx) -> AnyView {
    let players_surprise = RwSignal::new(true);
    let figures = text(move || {
        ctx.state
            .with(|s| match surprise_in(s, players_surprise.get()) {
                Some((target, chance)) => format!(
                    "d20 ≤ {target} (lowest Discreet ← highest Vigilant): {}",
                    percent(chance)
                ),
                None => "Both sides need combatants.".into(),
            })
    });
    // The rules' word on rolling it now (once, at the start).
    let why = text(move || {
        ctx.state
            .with(|s| surprise_refused(s, players_surprise.get()))
            .unwrap_or_default()
    });
    let refused = flag(move || {
        ctx.state
            .with(|s| surprise_refused(s, players_surprise.get()).is_some())
    });
    let try_it = tap(move || {
        let pcs = players_surprise.get_untracked();
        if ctx
            .state
            .with_untracked(|s| surprise_refused(s, pcs))
            .is_some()
        {
            return;
        }
        let Some(d20) = ctx.roll(|src| src.roll(20)) else {
            return;
        };
        if let Ok(e) = ctx.state.with_untracked(|s| surprise_events(s, pcs, d20)) {
            ctx.act(e);
        }
    });
    view! {
        <div class="surprise">
            <div class="actions" role="group" aria-label="Who surprises">
                <button class="btn small" aria-pressed=move || players_surprise.get().to_string() on:click=tap(move || players_surprise.set(true))>"Players surprise"</button>
                <button class="btn small" aria-pressed=move || (!players_surprise.get()).to_string() on:click=tap(move || players_surprise.set(false))>"Enemies surprise"</button>
            </div>
            <p class="chance" data-testid="surprise-chance">{figures}</p>
            <button class="btn" disabled=refused on:click=try_it>"Roll surprise"</button>
            <p class="muted" data-testid="surprise-refused">{why}</p>
        </div>
    }
    .into_any()
}
