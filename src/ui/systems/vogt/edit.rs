//! Editing a Bo Vogt sheet: abilities as rungs (their dice shown), vitals, technique dice, every
//! derived figure with its formula, skills, inventory, damage types and injuries.

use super::Ctx;
use crate::rules::vogt::{
    parse_dice, Ability, Dice, Edit, Item, Place, Skill, VogtSheet, EXHAUSTION_LIMIT, HANDS_LIMIT,
    HP_LIMIT, STAT_LIMIT, TECH_DIES, TECH_LIMIT, TOP,
};
use crate::ui::kit::{fixed, flag, fold, numbered_options, Field, TextList};
use leptos::prelude::*;

pub fn edit(ctx: Ctx) -> impl IntoView {
    let (resist, set_resist) = ctx.texts(|s| &s.resistances, Edit::Resistances);
    let (vuln, set_vuln) = ctx.texts(|s| &s.vulnerabilities, Edit::Vulnerabilities);
    let (injuries, set_injuries) = ctx.texts(|s| &s.injuries, Edit::Injuries);
    let mut abilities: Vec<Field> = Ability::ALL
        .iter()
        .flat_map(|&a| {
            let i = a.index();
            [
                Field::Text(
                    "attr-name",
                    RUNG_IDS[i],
                    ctx.text_at(i, |s, i| {
                        let r = s.abilities[i];
                        format!(
                            "{} · rung {r} = {}",
                            Ability::ALL[i].name(),
                            Dice::of_rung(r)
                        )
                    }),
                ),
                Field::Bound(
                    a.short(),
                    ctx.num_at(i, |s, i| s.abilities[i]),
                    ctx.set_at(i, Edit::Ability),
                    0,
                    TOP,
                ),
            ]
        })
        .collect();
    abilities.push(Field::Text(
        "muted",
        "",
        fixed("Each step is the next die: 0, 1d4, 1d6, 1d8, 1d10, 1d12, 2d6, 2d8, 2d10, 2d12, 3d8, 3d10, 3d12, 4d10, 4d12, 5d10, 5d12."),
    ));
    let mut vitals: Vec<Field> = vec![Field::Pair(
        NUMBERS
            .map(|(label, get, set, min, max)| {
                Field::Bound(label, ctx.num(get), ctx.set(set), min, max)
            })
            .into(),
    )];
    vitals.push(Field::Choose(
        "Technique die",
        Signal::stored(
            TECH_DIES
                .iter()
                .map(|&d| (d as i32, format!("d{d}")))
                .collect(),
        ),
        ctx.num(|s| s.technique_die as i32),
        ctx.set(Edit::TechniqueDie),
    ));
    vitals.extend(FLAGS.map(|(label, get, set)| {
        Field::Flag(
            label,
            ctx.get(get),
            Callback::new(move |on| {
                ctx.act(set(on));
            }),
        )
    }));
    let derived = DERIVED
        .map(|(label, id, value, formula)| {
            Field::Derived(label, id, ctx.text(value), ctx.text(formula))
        })
        .into();
    view! {
        {fold("Abilities", "vogt.abilities", abilities)}
        {fold("Vitals and gear", "vogt.vitals", vitals)}
        {fold("Derived", "vogt.derived", derived)}
        {skills(ctx)}
        {inventory(ctx)}
        <TextList title="Resistances (damage types)" items=resist set=set_resist/>
        <TextList title="Vulnerabilities (damage types)" items=vuln set=set_vuln/>
        <TextList title="Injuries" items=injuries set=set_injuries/>
    }
}

const RUNG_IDS: [&str; 4] = ["rung-str", "rung-dex", "rung-awr", "rung-wil"];

type Num = (
    &'static str,
    fn(&VogtSheet) -> i32,
    fn(i32) -> Edit,
    i32,
    i32,
);

const NUMBERS: [Num; 7] = [
    ("HP max", |s| s.hp_max, Edit::HpMax, 0, HP_LIMIT),
    ("HP", |s| s.hp, Edit::Hp, -HP_LIMIT, HP_LIMIT),
    ("AR", |s| s.ar, Edit::Ar, 0, STAT_LIMIT),
    ("Movement", |s| s.movement, Edit::Movement, 0, STAT_LIMIT),
    ("Hands", |s| s.hands as i32, Edit::Hands, 0, HANDS_LIMIT),
    (
        "Technique dice",
        |s| s.technique_dice,
        Edit::TechniqueDice,
        0,
        TECH_LIMIT,
    ),
    (
        "Exhaustion level",
        |s| s.exhaustion as i32,
        Edit::Exhaustion,
        0,
        EXHAUSTION_LIMIT as i32,
    ),
];

type Flag = (&'static str, fn(&VogtSheet) -> bool, fn(bool) -> Edit);

const FLAGS: [Flag; 2] = [
    (
        "Carries a bag (without one: one item per hand)",
        |s| s.bag,
        Edit::Bag,
    ),
    ("Dead", |s| s.dead, Edit::Dead),
];

type Text = fn(&VogtSheet) -> String;

const DERIVED: [(&str, &str, Text, Text); 7] = [
    (
        "Inventory slots",
        "inventory-slots",
        |s| s.inventory_slots().to_string(),
        |s| {
            let d = s.die(Ability::Str);
            format!(
                "10 + median of STR {d} ({}, rounded down), at least {} (hands)",
                d.median_floor(),
                s.hands_now()
            )
        },
    ),
    (
        "Quick slots",
        "quick-slots-derived",
        |s| s.quick_slots().to_string(),
        |s| {
            let dex = s.rung(Ability::Dex);
            format!(
                "4 + DEX {dex} = {}, at least {} (hands), at most {} (inventory slots)",
                4 + dex,
                s.hands_now(),
                s.inventory_slots()
            )
        },
    ),
    (
        "Carried",
        "carried",
        |s| format!("{} / {}", s.carried(), s.inventory_slots()),
        |s| {
            let mut t = String::from("slots of every item (a bundle counts a slot per bundle) against the inventory slots");
            if !s.bag {
                t.push_str(&format!(
                    "; no bag: one item per hand, {} hands",
                    s.hands_now()
                ));
            }
            t
        },
    ),
    (
        "Over-encumbrance",
        "over",
        |s| {
            if s.over() > 0 {
                format!("−{}", s.over())
            } else {
                "none".into()
            }
        },
        |_| {
            "Carrying more calls for a saving throw against exhaustion every 15 minutes, minus the extra slots; the GM picks the die and target.".into()
        },
    ),
    (
        "Speed",
        "speed-derived",
        |s| s.speed().0.to_string(),
        |s| {
            let (_, why) = s.speed();
            format!(
                "movement {}{}",
                s.movement,
                if why.is_empty() {
                    String::new()
                } else {
                    format!(", {}", why.join(", "))
                }
            )
        },
    ),
    (
        "HP max now",
        "hp-max-now",
        |s| s.hp_max_now().to_string(),
        |s| {
            format!(
                "{} ({})",
                s.hp_max,
                if s.exhaustion >= 2 {
                    "halved by exhaustion 2, rounded down"
                } else {
                    "exhaustion 2 halves it"
                }
            )
        },
    ),
    (
        "AR now",
        "ar-now",
        |s| s.ar_now().to_string(),
        |s| {
            if s.has("Prone") {
                "prone: 0".into()
            } else {
                format!("{} (prone: 0; defending: +2)", s.ar)
            }
        },
    ),
];

/// A list entry and its buttons, as kit fields (one renderer for every list).
fn entry(text: String, buttons: Vec<Field>) -> [Field; 2] {
    [
        Field::Text("list-entry", "list-entry", Signal::stored(text)),
        Field::Pair(buttons),
    ]
}

fn button(label: String, run: impl Fn() + Send + Sync + 'static) -> Field {
    Field::Act(
        Signal::stored(label),
        "btn small",
        "",
        Signal::stored(false),
        Callback::new(move |()| run()),
    )
}

fn skill_rows(ctx: Ctx) -> Vec<Field> {
    let skills = ctx.sheet.with(|s| s.skills.clone());
    skills
        .into_iter()
        .enumerate()
        .flat_map(|(i, k)| {
            entry(
                format!("{} · {} {:+}", k.name, k.ability.short(), k.bonus),
                vec![button(format!("Remove {}", k.name), move || {
                    ctx.act(Edit::RemoveSkill(i));
                })],
            )
        })
        .collect()
}

fn item_rows(ctx: Ctx) -> Vec<Field> {
    let (items, places) = ctx.sheet.with(|s| (s.items.clone(), s.places()));
    items
        .into_iter()
        .zip(places)
        .enumerate()
        .flat_map(|(i, (it, place))| {
            let used = it.slots_used();
            let what = format!(
                "{}{} · {used} slot{}{} · {}",
                it.name,
                if it.count > 1 {
                    format!(" ×{} ({} a slot)", it.count, it.per_slot)
                } else {
                    String::new()
                },
                if used == 1 { "" } else { "s" },
                if it.damage.is_empty() {
                    String::new()
                } else {
                    format!(" · {} {}", it.damage, it.dtype)
                },
                match place {
                    Place::Quick => "quick slot",
                    Place::Spans => "spans a quick and a normal slot: counts as normal",
                    Place::Bag => "in the bag",
                }
            );
            let quick = if it.quick {
                "Out of quick slot"
            } else {
                "To a quick slot"
            };
            entry(
                what,
                vec![
                    button(quick.into(), move || {
                        ctx.act(Edit::ToggleQuick(i));
                    }),
                    button(format!("Remove {}", it.name), move || {
                        ctx.act(Edit::RemoveItem(i));
                    }),
                ],
            )
        })
        .collect()
}

fn skills(ctx: Ctx) -> AnyView {
    let name = RwSignal::new(String::new());
    let ability = RwSignal::new(0);
    let bonus = RwSignal::new(1);
    fold(
        "Skills",
        "vogt.skills",
        vec![
            Field::Rows(std::sync::Arc::new(move || skill_rows(ctx))),
            Field::Text("field-label", "", fixed("Add a skill")),
            Field::Input("Skill", name),
            Field::Pick(
                "Ability",
                numbered_options(Ability::ALL.iter().map(|a| a.name().to_owned())),
                ability,
            ),
            Field::Num("Bonus", bonus, -100, 100),
            Field::Act(
                fixed("Add skill"),
                "btn primary",
                "add-skill",
                flag(move || name.with(|n| n.trim().is_empty() || n.chars().count() > 200)),
                Callback::new(move |()| {
                    let k = Skill {
                        name: name.get_untracked(),
                        ability: Ability::ALL[ability.get_untracked().clamp(0, 3) as usize],
                        bonus: bonus.get_untracked(),
                    };
                    if ctx.act(Edit::AddSkill(k)) {
                        name.set(String::new());
                    }
                }),
            ),
        ],
    )
}

fn inventory(ctx: Ctx) -> AnyView {
    let name = RwSignal::new(String::new());
    let [slots, count, per] = [1, 1, 1].map(RwSignal::new);
    let quick = RwSignal::new(false);
    let dmg = RwSignal::new(String::new());
    let dtype = RwSignal::new(String::new());
    let bad = flag(move || {
        name.with(|n| n.trim().is_empty() || n.chars().count() > 200)
            || dmg.with(|d| !d.trim().is_empty() && parse_dice(d).is_none())
    });
    fold(
        "Inventory",
        "vogt.inventory",
        vec![
            Field::Rows(std::sync::Arc::new(move || item_rows(ctx))),
            Field::Text("field-label", "", fixed("Add an item")),
            Field::Input("Item", name),
            Field::Pair(vec![
                Field::Num("Slots", slots, 0, 100),
                Field::Num("How many", count, 1, 10_000),
            ]),
            Field::Pair(vec![Field::Num("Bundled per slot", per, 1, 10_000)]),
            Field::Tick("In a quick slot", quick),
            Field::Input("Weapon damage (e.g. 1d8; blank: not a weapon)", dmg),
            Field::Input("Damage type (blunt, slash, stab, fire…)", dtype),
            Field::Act(
                fixed("Add item"),
                "btn primary",
                "add-item",
                bad,
                Callback::new(move |()| {
                    let it = Item {
                        name: name.get_untracked(),
                        slots: slots.get_untracked().max(0) as u32,
                        count: count.get_untracked().max(1) as u32,
                        per_slot: per.get_untracked().max(1) as u32,
                        quick: quick.get_untracked(),
                        damage: dmg.get_untracked(),
                        dtype: dtype.get_untracked(),
                    };
                    if ctx.act(Edit::AddItem(it)) {
                        name.set(String::new());
                        dmg.set(String::new());
                    }
                }),
            ),
        ],
    )
}
