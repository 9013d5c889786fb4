//! Symbaroum-style rolls: the success test (with opposing values, advantage and fighting
//! blind), damage after armor, and death tests with healing.

use super::Ctx as SymCtx;
use crate::rules::dice::{parse, roll, DiceSource, DieRoll, RollOutcome, TermRoll};
use crate::rules::edit::Edits;
use crate::rules::symbaroum::{
    damage_distribution, death_chance_within, roll_death_test, roll_test, success_chance, Blind,
    DeathOutcome, Edit, SAttr,
};
use crate::storage::character::Sheet;
use crate::ui::components::bar_chart::BarChart;
use crate::ui::format::{decimal, percent};
use crate::ui::kit::{checked, flag, tap, text, typed, Stepper};
use crate::ui::state::{with_dice, Notices};
use leptos::prelude::*;

fn d20s(rolls: &[u32], kept: u32) -> RollOutcome {
    let mut seen = false;
    let dice = rolls
        .iter()
        .map(|&v| {
            let keep = v == kept && !seen;
            seen |= keep;
            DieRoll {
                sides: 20,
                faces: vec![v],
                kept: keep,
            }
        })
        .collect();
    RollOutcome {
        terms: vec![TermRoll {
            negative: false,
            dice,
            constant: None,
            value: i64::from(kept),
        }],
        total: i64::from(kept),
    }
}

/// What a test is made with: an attribute or the character's Defense.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    Attr(SAttr),
    Defense,
}

/// The success test, first set up for `base` (a row tapped in Play).
#[component]
pub fn SymTest(base: Base) -> impl IntoView {
    let ctx = expect_context::<SymCtx>();
    let notices = expect_context::<Notices>();
    let base = RwSignal::new(base);
    let free_mod = RwSignal::new(0i32);
    let opposing = RwSignal::new(String::new());
    let advantage = RwSignal::new(false);
    let blind = RwSignal::new(Blind::Neither);
    let last = RwSignal::new(None::<(String, crate::rules::symbaroum::TestRoll)>);
    let value = move || {
        ctx.sheet.with(|s| match base.get() {
            Base::Attr(a) => s.attr(a),
            Base::Defense => s.defense(),
        })
    };
    let opp = move || opposing.with(|t| t.trim().parse::<i32>().ok());
    let target = move || {
        crate::rules::symbaroum::test_target(value(), free_mod.get(), opp(), advantage.get())
    };
    let label = move || {
        let b = match base.get() {
            Base::Attr(a) => a.name().to_owned(),
            Base::Defense => "Defense".to_owned(),
        };
        match opp() {
            Some(v) => format!("[{b} ← {v}]"),
            None => b,
        }
    };
    let preset = move |b: Base| {
        base.set(b);
        opposing.set(String::new());
    };
    view! {
        <section class="card" aria-label="Success test">
            <h2>"Success test"</h2>
            <div class="actions">
                <button class="btn" on:click=tap(move || preset(Base::Attr(SAttr::Accurate)))>"Attack [Accurate ← Defense]"</button>
                <button class="btn" on:click=tap(move || preset(Base::Defense))>"Defend [Defense ← Accurate]"</button>
            </div>
            <label class="field-label" for="test-attr">"Test"</label>
            <select id="test-attr" on:change=typed(move |v: String| {
                base.set(SAttr::ALL.into_iter().find(|a| a.name() == v).map_or(Base::Defense, Base::Attr));
            })>
                {SAttr::ALL.map(|a| view! { <option value=a.name() selected=flag(move || base.get() == Base::Attr(a))>{a.name()}</option> }).collect_view()}
                <option value="Defense" selected=flag(move || base.get() == Base::Defense)>"Defense"</option>
            </select>
            <select aria-label="Opposing value from your characters" on:change=typed(move |v| opposing.set(v))>
                <option value="">"Pick an opponent's value…"</option>
                {move || {
                    let me = ctx.id.get_value();
                    ctx.roster.chars.with(|cs| cs.iter().filter(|c| c.id != me).filter_map(|c| match &c.sheet {
                        Sheet::Symbaroum(s) => Some((c.name.clone(), s.clone())),
                        _ => None,
                    }).collect::<Vec<_>>()).into_iter().flat_map(|(name, s)| {
                        let mut opts: Vec<(String, i32)> = vec![(format!("{name}: Defense {}", s.defense()), s.defense())];
                        opts.extend(SAttr::ALL.map(|a| (format!("{name}: {} {}", a.name(), s.attr(a)), s.attr(a))));
                        opts
                    }).map(|(label, v)| view! { <option value=v.to_string()>{label}</option> }).collect_view()
                }}
            </select>
            <label class="field-label" for="opposing">"Opposing value (blank: none)"</label>
            <input id="opposing" type="number" inputmode="numeric" placeholder="e.g. the target's Defense"
                prop:value=opposing on:input=typed(move |v| opposing.set(v))/>
            <label class="field-label" for="difficulty">"Difficulty"</label>
            <select id="difficulty" on:change=typed(move |v: String| free_mod.set(v.parse().unwrap_or(0)))>
                {(-5..=5).rev().map(|m| view! { <option value=m.to_string() selected=m == 0>{match m { 5 => "+5 very easy".to_owned(), -5 => "−5 very hard".to_owned(), 0 => "0 normal".to_owned(), m => format!("{m:+}") }}</option> }).collect_view()}
            </select>
            <label class="check"><input type="checkbox" prop:checked=advantage on:change=checked(move |v| advantage.set(v))/><span>"Advantage (+2, +1d4 damage)"</span></label>
            <label class="field-label" for="blind">"Fighting blind"</label>
            <select id="blind" on:change=typed(move |v: String| blind.set(match v.as_str() { "me" => Blind::Me, "enemy" => Blind::Enemy, _ => Blind::Neither }))>
                <option value="neither">"Nobody (or both)"</option>
                <option value="me">"I am: roll twice, keep the worse"</option>
                <option value="enemy">"Only the enemy: roll twice, keep the better"</option>
            </select>
            <p class="chance">{text(move || format!("{} needs {} or less on d20: ", label(), target().clamp(0, 20)))}
                <strong data-testid="test-chance">{text(move || percent(success_chance(target(), blind.get())))}</strong></p>
            <button class="btn primary roll-btn" on:click=tap(move || {
                let (t, b, name) = (target(), blind.get_untracked(), label());
                match with_dice(|src| roll_test(t, b, src)) {
                    Ok(r) => {
                        ctx.log(format!("{name} ≤ {t}"), d20s(&r.rolls, r.kept));
                        last.set(Some((name, r)));
                    }
                    Err(e) => notices.error(format!("Could not roll: {e}")),
                }
            })>"Roll test"</button>
            <div aria-live="polite" data-testid="test-result">
                {move || last.get().map(|(name, r)| view! {
                    <p class="result-head"><span>{name}</span><strong class="result-total" data-testid="test-kept">{r.kept}</strong></p>
                    <crate::ui::components::roll_result::DiceList outcome=d20s(&r.rolls, r.kept)/>
                    <p class="verdict" data-testid="test-verdict">{if r.success { format!("Success ({} ≤ {})", r.kept, r.target) } else { format!("Failure ({} > {})", r.kept, r.target) }}</p>
                })}
            </div>
        </section>
    }
}

/// Damage of a weapon after the target's armor, first set to weapon `weapon`.
#[component]
pub fn Damage(weapon: usize) -> impl IntoView {
    let ctx = expect_context::<SymCtx>();
    let roster = ctx.roster;
    let notices = expect_context::<Notices>();
    let weapon = RwSignal::new(weapon);
    let advantage = RwSignal::new(false);
    let armor = RwSignal::new(String::from("1d4"));
    let pain = RwSignal::new(5i32);
    let target_id = RwSignal::new(String::new());
    let last = RwSignal::new(None::<(i64, RollOutcome, RollOutcome)>);
    let targets = move || {
        roster.chars.with(|cs| {
            cs.iter()
                .filter_map(|c| match &c.sheet {
                    Sheet::Symbaroum(s) => Some((
                        c.id.clone(),
                        c.name.clone(),
                        s.armor_protection.clone(),
                        s.pain_threshold(),
                    )),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
    };
    let weapon_expr = move || {
        ctx.sheet.with(|s| {
            s.weapons
                .get(weapon.get())
                .and_then(|w| parse(&w.damage).ok())
        })
    };
    let armor_expr = move || {
        armor.with(|a| {
            if a.trim().is_empty() {
                Ok(None)
            } else {
                parse(a).map(Some)
            }
        })
    };
    let dist = Memo::new(move |_| {
        let (Some(w), Ok(a)) = (weapon_expr(), armor_expr()) else {
            return None;
        };
        damage_distribution(&w, advantage.get(), a.as_ref()).ok()
    });
    let chart = Signal::derive(move || {
        dist.get()
            .unwrap_or_else(|| crate::rules::dice::Distribution::point(0))
    });
    let above = Signal::derive(move || Some(i64::from(pain.get()) + 1));
    view! {
        <section class="card" aria-label="Damage">
            <h2>"Damage"</h2>
            <label class="field-label" for="dmg-weapon">"Weapon"</label>
            <select id="dmg-weapon" on:change=move |ev| weapon.set(event_target_value(&ev).parse().unwrap_or(0))>
                {move || ctx.sheet.with(|s| s.weapons.iter().enumerate().map(|(i, w)| view! {
                    <option value=i.to_string() selected=move || weapon.get() == i>{format!("{} ({})", w.name, w.damage)}</option>
                }).collect_view())}
            </select>
            <label class="check"><input type="checkbox" prop:checked=move || advantage.get() on:change=move |ev| advantage.set(event_target_checked(&ev))/><span>"Advantage (+1d4)"</span></label>
            <label class="field-label" for="dmg-target">"Target"</label>
            <select id="dmg-target" on:change=move |ev| {
                let id = event_target_value(&ev);
                if let Some((_, _, a, p)) = targets().into_iter().find(|t| t.0 == id) { armor.set(a); pain.set(p); }
                target_id.set(id);
            }>
                <option value="">"Someone else (enter armor and pain threshold)"</option>
                {move || targets().into_iter().map(|(id, name, _, _)| view! { <option value=id>{name}</option> }).collect_view()}
            </select>
            <label class="field-label" for="dmg-armor">"Target's armor roll"</label>
            <input id="dmg-armor" type="text" prop:value=move || armor.get() on:input=move |ev| armor.set(event_target_value(&ev))/>
            <Stepper label="Target's pain threshold" value=pain min=0 max=100 set=crate::ui::kit::set_to(pain)/>
            {move || match dist.get() {
                None => view! { <p class="field-error">"Weapon and armor need dice notation, like 1d8 and 1d4."</p> }.into_any(),
                Some(d) => view! {
                    <p class="chance">"Average " {decimal(d.mean())} " · above pain threshold: "
                        <strong data-testid="pain-chance">{percent(d.at_least(i64::from(pain.get()) + 1))}</strong></p>
                }.into_any(),
            }}
            <BarChart dist=chart target=above/>
            <button class="btn primary roll-btn" disabled=move || dist.with(Option::is_none) on:click=move |_| {
                let (Some(w), Ok(a)) = (weapon_expr(), armor_expr()) else { return };
                let adv = advantage.get_untracked();
                let rolled = with_dice(|src| {
                    let mut hit = roll(&w, src);
                    if adv {
                        let extra = src.roll(4);
                        hit.terms.push(TermRoll { negative: false, dice: vec![DieRoll { sides: 4, faces: vec![extra], kept: true }], constant: None, value: i64::from(extra) });
                        hit.total += i64::from(extra);
                    }
                    let armor_roll = a.as_ref().map(|a| roll(a, src));
                    (hit, armor_roll)
                });
                match rolled {
                    Ok((hit, armor_roll)) => {
                        let soak = armor_roll.as_ref().map_or(0, |r| r.total);
                        let dmg = (hit.total - soak).max(0);
                        ctx.log(format!("Damage {}", w), hit.clone());
                        last.set(Some((dmg, hit, armor_roll.unwrap_or(RollOutcome { terms: vec![], total: 0 }))));
                    }
                    Err(e) => notices.error(format!("Could not roll: {e}")),
                }
            }>"Roll damage"</button>
            <div aria-live="polite">
                {move || last.get().map(|(dmg, hit, soak)| view! {
                    <p class="result-head"><span>"Damage after armor"</span><strong class="result-total" data-testid="damage-total">{dmg}</strong></p>
                    <p class="muted">"Weapon"</p><crate::ui::components::roll_result::DiceList outcome=hit/>
                    <p class="muted">"Armor"</p><crate::ui::components::roll_result::DiceList outcome=soak/>
                    {(dmg > i64::from(pain.get_untracked())).then(|| view! { <p class="verdict">"Above the pain threshold: knock the target down or take a free attack."</p> })}
                    <button class="btn" disabled=move || target_id.with(String::is_empty) on:click=move |_| {
                        let id = target_id.get_untracked();
                        roster.update(&id, |c| if let Sheet::Symbaroum(s) = &mut c.sheet { let _ = s.apply(Edit::Damage(dmg as i32)); });
                        last.set(None);
                    }>"Apply to the target"</button>
                })}
            </div>
        </section>
    }
}

#[component]
pub fn Dying() -> impl IntoView {
    let ctx = expect_context::<SymCtx>();
    let notices = expect_context::<Notices>();
    let (message, set_message) = signal(None::<String>);
    let heal = move |amount: i32, what: &str| {
        // What it adds, as the rules count it (never more than the maximum allows).
        let (gain, dead) = ctx.sheet.with_untracked(|s| (s.heal_gain(amount), s.dead));
        let healed = ctx.act(if what.starts_with('A') {
            Edit::HealNatural(amount)
        } else {
            Edit::Heal(amount)
        });
        set_message.set(Some(if healed && dead {
            format!("{what}: the dead are not healed")
        } else if healed && gain == 0 {
            format!("{what}: toughness is already at its maximum")
        } else if healed {
            format!("{what}: +{gain} toughness")
        } else {
            format!("{what} does not stabilize a dying character: use a herbal cure, Medicus or mystical healing.")
        }));
    };
    view! {
        <section class="card" aria-label="Dying and healing">
            <h2>"Dying and healing"</h2>
            <Show when=move || ctx.sheet.with(|s| s.dead)>
                <p class="field-error" data-testid="dead">"Dead."</p>
                <button class="btn small" on:click=move |_| { ctx.act(Edit::NotDead); }>"Undo: not dead"</button>
            </Show>
            <Show when=move || ctx.sheet.with(|s| s.dying())>
                <p role="alert"><strong>"Dying"</strong>{move || format!(" — {} of 3 steps toward death", ctx.sheet.with(|s| s.death_steps))}</p>
                <p data-testid="death-odds">{move || {
                    let steps = ctx.sheet.with(|s| s.death_steps);
                    format!("Chance to die within 1 test {}, 2 tests {}, 3 tests {}", percent(death_chance_within(steps, 1)), percent(death_chance_within(steps, 2)), percent(death_chance_within(steps, 3)))
                }}</p>
                <button class="btn primary" on:click=move |_| {
                    let steps = ctx.sheet.with_untracked(|s| s.death_steps);
                    match with_dice(|src| roll_death_test(steps, src)) {
                        // In a running fight the test is the fight's (refused here, said so).
                        Ok((d20, outcome)) if ctx.act(Edit::DeathTest(d20, outcome)) => {
                            let text = match outcome {
                                DeathOutcome::Wakes(t) => format!("{d20}: wakes up with {t} toughness"),
                                DeathOutcome::Nothing => format!("{d20}: no change"),
                                DeathOutcome::Closer { steps } => format!("{d20}: a step closer ({steps} of 3)"),
                                DeathOutcome::Dies => format!("{d20}: dies"),
                            };
                            ctx.log("Death test".into(), d20s(&[d20], d20));
                            set_message.set(Some(text));
                        }
                        Ok(_) => {}
                        Err(e) => notices.error(format!("Could not roll: {e}")),
                    }
                }>"Roll death test"</button>
            </Show>
            <div class="actions">
                <button class="btn small" on:click=move |_| heal(1, "A day's rest")>"Natural (+1)"</button>
                <button class="btn small" on:click=move |_| heal(1, "Herbal cure")>"Herbal cure (+1)"</button>
                <button class="btn small" on:click=move |_| match with_dice(|src| src.roll(4)) {
                    Ok(v) => {
                        ctx.log("Medicus 1d4".into(), RollOutcome::single(4, v));
                        heal(v as i32, "Medicus 1d4")
                    }
                    Err(e) => notices.error(format!("Could not roll: {e}")),
                }>"Medicus (+1d4)"</button>
            </div>
            {move || message.get().map(|m| view! { <p role="status" class="ok" data-testid="dying-message">{m}</p> })}
        </section>
    }
}
