//! A Bo Vogt character at the table: HP, technique dice and exhaustion with AR, speed and slots
//! on top; one row per ability (its die), skill and weapon (tap to roll); statuses as chips.

use super::rolls::{check, damage};
use super::Ctx;
use crate::rules::vogt::{Ability, Edit, VogtSheet, STATUSES};
use crate::ui::kit::{Counter, Fig, RollRow, RollSheet};
use leptos::prelude::*;

/// What a roll sheet was opened for, as one number (a signal of a type the app already has):
/// an ability's index, `SKILL` + a skill's, `WEAPON` + an item's; `NONE` when closed.
const NONE: i32 = -1;
const SKILL: i32 = 100;
const WEAPON: i32 = 1000;

type Figure = (&'static str, &'static str, fn(&VogtSheet) -> String);

const FIGURES: [Figure; 4] = [
    ("AR", "ar", |s| s.ar_now().to_string()),
    ("Speed", "speed", |s| s.speed().0.to_string()),
    ("Slots", "slots", |s| {
        format!("{} / {}", s.carried(), s.inventory_slots())
    }),
    ("Quick slots", "quick-slots", |s| {
        format!("{} / {}", s.quick_used(), s.quick_slots())
    }),
];

/// Over the slots (a saving throw) and, without a bag, more items than hands (not carried).
fn encumbered(s: &VogtSheet) -> String {
    let mut t = Vec::new();
    if s.over() > 0 {
        t.push(format!(
            "Over by {}: the saving throw against exhaustion every 15 minutes is at −{}.",
            s.over(),
            s.over()
        ));
    }
    if s.unheld() > 0 {
        t.push(format!(
            "No bag: only {} held (one per hand); {} more need a bag.",
            s.hands_now(),
            s.unheld()
        ));
    }
    t.join(" ")
}

pub fn play(ctx: Ctx) -> impl IntoView {
    let open = RwSignal::new(NONE);
    let skills = ctx.num(|s| s.skills.len() as i32);
    // The weapon rows follow the items and which of them can be used (a broken one cannot).
    let items = ctx.num(|s| (s.items.len() * 1000 + s.weapons().count()) as i32);
    view! {
        <section class="card vitals" aria-label="Vitals">
            <div class="counters">
                <Counter label="HP" value=ctx.num(|s| s.hp) set=ctx.set(Edit::Hp)
                    max=ctx.max(|s| s.hp_max_now()) min=-10_000 limit=10_000
                    note=ctx.text(|s| if s.dead { "dead".into() } else if s.hp <= 0 { "a hit adds exhaustion: Damage taken".into() } else { String::new() })/>
                <Counter label="Technique dice" value=ctx.num(|s| s.technique_left()) set=ctx.set(Edit::TechniqueLeft)
                    max=ctx.max(|s| s.technique_dice) min=0 limit=20
                    note=ctx.text(|s| format!("d{} each", s.technique_die))/>
                <Counter label="Exhaustion" value=ctx.num(|s| s.exhaustion as i32) set=ctx.set(Edit::Exhaustion)
                    max=Signal::stored(None) min=0 limit=20
                    note=ctx.text(|s| exhaustion_note(s).into())/>
            </div>
            <ul class="figures" aria-label="Figures">
                {FIGURES.map(|(label, id, get)| view! { <li><small>{label}</small><strong data-testid=id>{ctx.text(get)}</strong></li> }).collect_view()}
            </ul>
            <Show when=move || ctx.sheet.with(|s| s.over() > 0 || s.unheld() > 0)>
                <p class="field-error" role="alert" data-testid="encumbered">{ctx.text(encumbered)}</p>
            </Show>
        </section>
        <section class="card" aria-label="Abilities">
            <h2>"Abilities"</h2>
            <ul class="roll-rows grid">
                {Ability::ALL.map(|a| view! {
                    <RollRow key=a.short() name=Signal::stored(a.name().to_owned()) sub=Signal::stored(String::new())
                        figs=Signal::derive(move || ctx.sheet.with(|s| vec![Fig::new(a.short(), s.die(a), "ability-die")]))
                        on_roll=Callback::new(move |_| open.set(a.index() as i32))/>
                }).collect_view()}
            </ul>
        </section>
        <section class="card" aria-label="Skills and weapons">
            <h2>"Skills and weapons"</h2>
            <ul class="roll-rows">
                {move || (0..skills.get() as usize).map(|i| view! {
                    <RollRow key=ctx.text_at(i, skill_name).get_untracked() name=ctx.text_at(i, skill_name)
                        sub=ctx.text_at(i, |s, i| s.skills.get(i).map(|k| format!("{} {} {:+}", k.ability.short(), s.die(k.ability), k.bonus)).unwrap_or_default())
                        figs=Signal::stored(Vec::new())
                        on_roll=Callback::new(move |_| open.set(SKILL + i as i32))/>
                }).collect_view()}
                {move || (0..items.get() as usize / 1000).filter(|&i| ctx.sheet.with_untracked(|s| s.weapons().any(|(j, _)| j == i))).map(|i| view! {
                    <RollRow key=ctx.text_at(i, item_name).get_untracked() name=ctx.text_at(i, item_name)
                        sub=ctx.text_at(i, |s, i| s.items.get(i).map(|w| format!("{} + STR {} {}", w.damage, s.rung(Ability::Str), w.dtype)).unwrap_or_default())
                        figs=Signal::stored(Vec::new())
                        on_roll=Callback::new(move |_| open.set(WEAPON + i as i32))/>
                }).collect_view()}
            </ul>
        </section>
        <section class="card" aria-label="Statuses">
            <h2>"Statuses"</h2>
            <div class="chips toggles">
                {STATUSES.iter().enumerate().map(|(i, st)| {
                    let name = st.name;
                    view! {
                        <button class="chip" title=st.text aria-pressed=move || ctx.sheet.with(|s| s.has(name)).to_string()
                            on:click=move |_| { ctx.act(Edit::Status(i)); }>{name}</button>
                    }
                }).collect_view()}
            </div>
            <p class="muted" data-testid="status-effects">{ctx.text(status_effects)}</p>
        </section>
        {super::advance::rests(ctx)}
        {move || (open.get() != NONE).then(|| {
            let what = open.get_untracked();
            let (title, body) = ctx.sheet.with_untracked(|s| match what {
                0..=3 => {
                    let a = Ability::ALL[what as usize];
                    (format!("Roll {}", a.name()), check(ctx, a, 0, format!("{} {}", a.short(), s.die(a))))
                }
                SKILL..WEAPON => {
                    let k = s.skills.get((what - SKILL) as usize).cloned();
                    let (a, b, n) = k.map_or((Ability::Str, 0, String::new()), |k| (k.ability, k.bonus, k.name));
                    (format!("Roll {n}"), check(ctx, a, b, format!("{n}: {} {} {b:+}", a.short(), s.die(a))))
                }
                _ => {
                    let i = (what - WEAPON).max(0) as usize;
                    (format!("Roll {}", item_name(s, i)), damage(ctx, i))
                }
            });
            view! {
                <RollSheet title=Signal::stored(title) on_close=Callback::new(move |_| open.set(NONE))>
                    {body}
                </RollSheet>
            }
        })}
    }
}

fn skill_name(s: &VogtSheet, i: usize) -> String {
    s.skills.get(i).map(|k| k.name.clone()).unwrap_or_default()
}

fn item_name(s: &VogtSheet, i: usize) -> String {
    s.items.get(i).map(|k| k.name.clone()).unwrap_or_default()
}

pub(super) fn exhaustion_note(s: &VogtSheet) -> &'static str {
    match s.exhaustion {
        0 => "",
        1 => "speed halved",
        2 => "speed and HP max halved",
        3 => "unconscious",
        _ => "roll on the table",
    }
}

/// What the statuses held change, in one line.
fn status_effects(s: &VogtSheet) -> String {
    let mut out: Vec<String> = Vec::new();
    for a in Ability::ALL {
        let lost = s.lost(a);
        if lost > 0 {
            out.push(format!(
                "{} {} → {}",
                a.short(),
                crate::rules::vogt::Dice::of_rung(s.abilities[a.index()]),
                s.die(a)
            ));
        }
    }
    let (_, why) = s.speed();
    out.extend(why.into_iter().map(str::to_owned));
    for (t, how) in [
        ("fire", "drenched"),
        ("lightning", "drenched"),
        ("stab", "nauseated"),
    ] {
        if s.has(how) && s.vulnerable(t) {
            out.push(format!("vulnerable to {t}"));
        }
    }
    if out.is_empty() {
        "No status changes any figure.".into()
    } else {
        out.join(" · ")
    }
}
