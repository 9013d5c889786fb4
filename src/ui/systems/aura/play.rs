//! An Energy / Aura character at the table: aura, stamina and surges with the defences and
//! pools on top; a row per defence and per attack (tap to roll); conditions as chips; rests;
//! at 0 aura the death roll and death save with the exact chance of dying.

use super::rolls::{attack_form, death_tables, defence, luck, sheet_roll, typed_target, DEFENCES};
use super::Ctx;
use crate::rules::aura::combat::sheet_death_rolls_refused;
use crate::rules::aura::strike::attacker;
use crate::rules::aura::{death_roll, death_save, dying_chance, AttackMode, AuraSheet, Edit};
use crate::rules::encounter::systems::AURA;
use crate::ui::format::percent;
use crate::ui::kit::{
    fixed, flag, form, reactive, tap, text, Counter, Field, Fig, RollRow, RollSheet,
};
use crate::ui::state::with_dice;
use leptos::prelude::*;

/// What a roll sheet was opened for, as one number: a defence's index, `WEAPON` + a weapon's
/// × 3 + its mode, `UNARMED`, `LUCK`; `NONE` when closed.
const NONE: i32 = -1;
const WEAPON: i32 = 100;
const UNARMED: i32 = 90;
const LUCK: i32 = 91;

type Figure = (&'static str, &'static str, fn(&AuraSheet) -> String);

const FIGURES: [Figure; 6] = [
    ("Evasion", "evasion", |s| s.evasion().0.to_string()),
    ("Ranged ev.", "ranged-evasion", |s| {
        s.ranged_evasion().0.to_string()
    }),
    ("Fortitude", "fortitude", |s| s.fortitude().0.to_string()),
    ("Will", "will", |s| s.will().0.to_string()),
    ("Energy / round", "energy", |s| {
        s.energy_per_round().0.to_string()
    }),
    ("Agility", "agility", |s| s.max_agility().0.to_string()),
];

const MODES: [AttackMode; 3] = [AttackMode::Melee, AttackMode::Shot, AttackMode::Thrown];

/// The ways a weapon attacks: a ranged weapon shoots; any other strikes and can be thrown.
fn modes(w: &crate::rules::aura::Weapon) -> &'static [usize] {
    if w.ranged {
        &[1]
    } else {
        &[0, 2]
    }
}

pub fn play(ctx: Ctx) -> impl IntoView {
    let open = RwSignal::new(NONE);
    // A memo, so the panel (and the roll it shows) stays while the sheet changes under it.
    let down = Memo::new(move |_| ctx.sheet.with(|s| s.aura <= 0 && !s.dead));
    let weapons = ctx.num(|s| s.weapons.len() as i32);
    view! {
        <section class="card vitals" aria-label="Vitals">
            <div class="counters">
                <Counter label="Aura" value=ctx.num(|s| s.aura) set=ctx.set(Edit::Aura)
                    max=ctx.max(|s| s.aura_strength().0) min=0 limit=10_000
                    note=ctx.text(|s| if s.dead { "dead".into() } else if s.aura <= 0 { "at 0: each hit calls for a death roll".into() } else { String::new() })/>
                <Counter label="Stamina" value=ctx.num(|s| s.stamina) set=ctx.set(Edit::Stamina)
                    max=ctx.max(|s| s.max_stamina().0) min=0 limit=10_000
                    note=ctx.text(|s| if s.stamina <= 0 { "unconscious: a d20 each round, 20 wakes".into() } else { String::new() })/>
                <Counter label="Surges" value=ctx.num(|s| s.surges) set=ctx.set(Edit::Surges)
                    max=ctx.max(|s| s.recovery_surges().0) min=0 limit=10_000
                    note=ctx.text(|s| format!("+{} aura each", s.recovery_value().0))/>
            </div>
            <ul class="figures" aria-label="Figures">
                {FIGURES.map(|(label, id, get)| view! { <li><small>{label}</small><strong data-testid=id>{ctx.text(get)}</strong></li> }).collect_view()}
            </ul>
        </section>
        {reactive(move || if down.get() { dying(ctx) } else { ().into_any() })}
        <section class="card" aria-label="Defences">
            <h2>"Defences"</h2>
            <ul class="roll-rows">
                {DEFENCES.iter().enumerate().map(|(i, (name, _, _))| {
                    let name = *name;
                    view! {
                        <RollRow key=name name=Signal::stored(name.to_owned())
                            figs=Signal::stored(Vec::<Fig>::new()) sub=ctx.text_at(i, |s, i| format!("1d{}* {:+}", DEFENCES[i].1, (DEFENCES[i].2)(s)))
                            on_roll=Callback::new(move |_| open.set(i as i32))/>
                    }
                }).collect_view()}
            </ul>
        </section>
        <section class="card" aria-label="Attacks">
            <h2>"Attacks"</h2>
            <ul class="roll-rows">
                {reactive(move || (0..weapons.get() as usize).flat_map(|i| {
                    let list = ctx.sheet.with_untracked(|s| s.weapons.get(i).map(|w| modes(w).to_vec()).unwrap_or_default());
                    list.into_iter().map(move |m| {
                        let mode = MODES[m];
                        let label = ctx.sheet.with_untracked(|s| attacker(s, Some(i), mode).name);
                        view! {
                            <RollRow key=label.clone() name=Signal::stored(label)
                                sub=ctx.text_at(i * 3 + m, |s, k| {
                                    let a = attacker(s, Some(k / 3), MODES[k % 3]);
                                    let what = if a.mode == AttackMode::Melee { format!("AV {}", a.value) } else { format!("miss mod {}", a.value) };
                                    format!("{what} · {} {:+} · {} energy", a.dice, a.bonus, a.energy)
                                })
                                figs=Signal::stored(Vec::new())
                                on_roll=Callback::new(move |_| open.set(WEAPON + (i * 3 + m) as i32))/>
                        }
                    }).collect::<Vec<_>>()
                }).collect_view().into_any())}
                <RollRow key="unarmed" name=Signal::stored("Unarmed".to_owned())
                    sub=ctx.text(|s| format!("AV {} · damage {} · 2 energy", s.unarmed_av().0, s.unarmed_damage().0))
                    figs=Signal::stored(Vec::new()) on_roll=Callback::new(move |_| open.set(UNARMED))/>
                <RollRow key="luck" name=Signal::stored("Chance and initiative".to_owned())
                    sub=ctx.text(|s| format!("d20 · initiative {:+}", s.initiative_bonus().0))
                    figs=Signal::stored(Vec::new()) on_roll=Callback::new(move |_| open.set(LUCK))/>
            </ul>
        </section>
        <section class="card" aria-label="Conditions">
            <h2>"Conditions"</h2>
            <div class="chips toggles">
                {AURA.conditions.iter().map(|c| {
                    let name = c.name;
                    view! {
                        <button class="chip" title=c.text aria-pressed=text(move || ctx.sheet.with(|s| s.has(name)).to_string())
                            on:click=tap(move || { ctx.act(if ctx.sheet.with_untracked(|s| s.has(name)) { Edit::RemoveCondition(name.into()) } else { Edit::AddCondition(name.into()) }); })>{name}</button>
                    }
                }).collect_view()}
            </div>
        </section>
        {rests(ctx)}
        {reactive(move || if open.get() == NONE { ().into_any() } else {
            let what = open.get_untracked();
            let (title, body) = ctx.sheet.with_untracked(|s| match what {
                0..=4 => (format!("Roll {}", DEFENCES[what as usize].0), defence(ctx, what as usize)),
                LUCK => ("Chance and initiative".to_owned(), luck(ctx)),
                _ => {
                    let (w, mode) = if what == UNARMED {
                        (None, AttackMode::Melee)
                    } else {
                        let k = (what - WEAPON).max(0) as usize;
                        (Some(k / 3), MODES[k % 3])
                    };
                    let a = attacker(s, w, mode);
                    let (t, fields) = typed_target(mode == AttackMode::Melee);
                    let title = format!("Attack: {}", a.name);
                    let roll = sheet_roll(ctx, a.clone(), t.foe);
                    (title, attack_form(a, t, fields, roll))
                }
            });
            view! {
                <RollSheet title=Signal::stored(title) on_close=Callback::new(move |_| open.set(NONE))>
                    {body}
                </RollSheet>
            }.into_any()
        })}
    }
}

/// At 0 aura: the death roll (when damaged) and the death save (each round while bleeding out),
/// with the chance of dying before being stabilized.
fn dying(ctx: Ctx) -> AnyView {
    let result = RwSignal::new(String::new());
    // In a running fight the fight's own rolls are made (and counted) instead.
    let fights = use_context::<crate::ui::encounters::Encounters>();
    let engine = RwSignal::new(());
    if fights.is_some_and(|f| f.system_of_any("aura")) {
        leptos::task::spawn_local(async move {
            if crate::ui::encounters::load_engine().await.is_some() {
                engine.set(());
            }
        });
    }
    let in_fight = Memo::new(move |_| {
        engine.track();
        let me = ctx.id.get_value();
        fights.and_then(|f| {
            f.replayed("aura")
                .iter()
                .find_map(|s| sheet_death_rolls_refused(s, &me))
        })
    });
    let odds = text(move || {
        let bleeding = ctx.sheet.with(|s| s.has("Bleeding out"));
        format!(
            "With no aura gained and no more damage, dies before being stabilized: {} now{}; a death roll first: {}.",
            percent(dying_chance(bleeding, false)),
            if bleeding { "" } else { " (not bleeding)" },
            percent(dying_chance(bleeding, true)),
        )
    });
    let roll = move |save: bool| {
        let Ok(d20) = with_dice(|src| crate::rules::dice::DiceSource::roll(src, 20)) else {
            return;
        };
        let line = if save {
            format!("Death save d20 = {d20}: {}", death_save(d20).text())
        } else {
            format!("Death roll d20 = {d20}: {}", death_roll(d20).text())
        };
        let what = if save { "Death save" } else { "Death roll" };
        let how = if save {
            death_save(d20).short()
        } else {
            death_roll(d20).short()
        };
        ctx.log(
            format!("{what} d20: {how}"),
            crate::rules::dice::RollOutcome::single(20, d20),
        );
        ctx.act(if save {
            Edit::DeathSave(d20)
        } else {
            Edit::DeathRoll(d20)
        });
        result.set(line);
    };
    form(
        "At 0 aura",
        vec![
            Field::Text("chance", "dying-odds", odds),
            Field::Text("muted", "death-tables", Signal::stored(death_tables())),
            Field::Pair(vec![
                Field::Act(
                    fixed("Death roll"),
                    "btn",
                    "death-roll",
                    flag(move || in_fight.with(Option::is_some)),
                    Callback::new(move |()| roll(false)),
                ),
                Field::Act(
                    fixed("Death save"),
                    "btn",
                    "death-save",
                    flag(move || {
                        in_fight.with(Option::is_some) || ctx.sheet.with(|s| !s.has("Bleeding out"))
                    }),
                    Callback::new(move |()| roll(true)),
                ),
            ]),
            Field::Text(
                "muted",
                "dying-in-fight",
                text(move || {
                    in_fight
                        .get()
                        .map_or_else(String::new, |w| format!("Not here now: {w}."))
                }),
            ),
            Field::Text("result-line", "dying-result", result.into()),
        ],
    )
}

/// A short rest (per 5 minutes), with or without a recovery surge, and a long rest; what each
/// gives back is said above the buttons.
pub(super) fn rests(ctx: Ctx) -> AnyView {
    let dead = flag(move || ctx.sheet.with(|s| s.dead));
    form(
        "Rest",
        vec![
            Field::Text(
                "muted",
                "rest-preview",
                text(move || {
                    ctx.sheet.with(|s| {
                        let top = s.aura_strength().0.max(s.aura);
                        let surge = if s.surges > 0 { (s.aura + s.recovery_value().0).min(top) } else { s.aura };
                        format!(
                            "Short rest (5 min): stamina → {}; with a surge ({} left) aura → {surge}. Long rest (8 h): aura → {}, surges → {}.",
                            s.max_stamina().0,
                            s.surges,
                            s.aura_strength().0,
                            s.recovery_surges().0
                        )
                    })
                }),
            ),
            Field::Act(
                fixed("Short rest with a surge"),
                "btn wide",
                "short-rest",
                dead,
                Callback::new(move |()| {
                    ctx.act(Edit::ShortRest(true));
                }),
            ),
            Field::Act(
                fixed("Short rest, no surge"),
                "btn wide",
                "short-rest-no-surge",
                dead,
                Callback::new(move |()| {
                    ctx.act(Edit::ShortRest(false));
                }),
            ),
            Field::Act(
                fixed("Long rest"),
                "btn wide",
                "long-rest",
                dead,
                Callback::new(move |()| {
                    ctx.act(Edit::LongRest);
                }),
            ),
        ],
    )
}
