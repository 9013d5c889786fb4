//! Editing a Tempo sheet: defences, movement and health; the table's check dice; the check
//! bonus of every rolled action; weapons with their AP cost per action and aimed accuracy.

use super::Ctx;
use crate::rules::tempo::{
    dice_dist, dice_ok, priced, Edit, TempoSheet, ACTIONS, HEALTH_LIMIT, LIST_LIMIT, NAME_LIMIT,
    STAT_LIMIT,
};
use crate::ui::format::decimal;
use crate::ui::kit::{fixed, flag, fold, text, Field};
use leptos::prelude::*;

type Num = (
    &'static str,
    fn(&TempoSheet) -> i32,
    fn(i32) -> Edit,
    i32,
    i32,
);

const S: i32 = STAT_LIMIT;
const H: i32 = HEALTH_LIMIT;

const NUMBERS: [Num; 6] = [
    ("Combat defence", |s| s.defence, Edit::Defence, -S, S),
    (
        "Combat defence (armoured)",
        |s| s.armoured,
        Edit::Armoured,
        -S,
        S,
    ),
    ("Grapple defence", |s| s.grapple, Edit::Grapple, -S, S),
    (
        "Base combat movement",
        |s| s.movement,
        Edit::Movement,
        -S,
        S,
    ),
    ("Health", |s| s.health, Edit::Health, -H, H),
    ("Health max", |s| s.health_max, Edit::HealthMax, 0, H),
];

/// The label of a weapon's cost for an action (the action's own name labels its bonus).
const COST_LABELS: [(&str, &str); 13] = [
    ("Disarm", "Disarm AP"),
    ("Feint", "Feint AP"),
    ("Grapple", "Grapple AP"),
    ("Melee Attack", "Melee Attack AP"),
    ("Press", "Press AP"),
    ("Ranged Attack", "Ranged Attack AP"),
    ("Counter-Attack", "Counter-Attack AP"),
    ("Counter-Fire", "Counter-Fire AP"),
    ("Double", "Double AP"),
    ("Parry", "Parry AP"),
    ("Wind", "Wind AP"),
    ("CT Counter-Attack", "CT Counter-Attack AP"),
    ("CT Parry", "CT Parry AP"),
];

fn cost_label(name: &str) -> &'static str {
    COST_LABELS
        .iter()
        .find(|x| x.0 == name)
        .map_or("AP", |x| x.1)
}

pub fn edit(ctx: Ctx) -> AnyView {
    let numbers = vec![Field::Pair(
        NUMBERS
            .map(|(label, get, set, min, max)| {
                Field::Bound(label, ctx.num(get), ctx.set(set), min, max)
            })
            .into(),
    )];
    let bonuses = vec![Field::Pair(
        ACTIONS
            .iter()
            .enumerate()
            .filter(|(_, a)| a.check)
            .map(|(i, a)| {
                Field::Bound(
                    a.name,
                    ctx.num_at(i, |s, i| s.bonus(ACTIONS[i].name)),
                    ctx.set_at(i, Edit::Bonus),
                    -S,
                    S,
                )
            })
            .collect(),
    )];
    let mut numbers = numbers;
    numbers.push(Field::Flag(
        "Non-player character: its numbers stay on the GM’s phone",
        flag(move || ctx.sheet.with(|s| s.npc)),
        Callback::new(move |v| {
            ctx.act(Edit::Npc(v));
        }),
    ));
    view! {
        {fold("Defences and health", "tempo.numbers", numbers)}
        {dice(ctx)}
        {fold("Check bonuses", "tempo.bonuses", bonuses)}
        {weapons(ctx)}
    }
    .into_any()
}

/// The table's check dice: typed, checked, then used.
fn dice(ctx: Ctx) -> AnyView {
    let typed = RwSignal::new(ctx.sheet.with_untracked(|s| s.dice.clone()));
    let about = text(move || {
        typed.with(|t| match dice_dist(t) {
            Some(d) => format!(
                "{} to {}, average {} (each check adds the action's bonus)",
                d.min(),
                d.max(),
                decimal(d.mean())
            ),
            None => "Not dice notation the app can roll (e.g. 1d10, 2d6, 1d20).".into(),
        })
    });
    fold(
        "Check dice",
        "tempo.dice",
        vec![
            Field::Text(
                "muted",
                "",
                fixed("The rules leave the dice to the table: 1d10 unless yours says otherwise."),
            ),
            Field::Input("Check dice", typed),
            Field::Text("chance", "dice-about", about),
            Field::Act(
                text(move || {
                    ctx.sheet
                        .with(|s| format!("Use these dice (now {})", s.dice))
                }),
                "btn",
                "use-dice",
                flag(move || {
                    typed.with(|t| !dice_ok(t))
                        || ctx.sheet.with(|s| typed.with(|t| s.dice == t.trim()))
                }),
                Callback::new(move |()| {
                    let t = typed.get_untracked().trim().to_owned();
                    ctx.act(Edit::Dice(t));
                }),
            ),
        ],
    )
}

fn weapon_rows(ctx: Ctx) -> Vec<Field> {
    let list = ctx.sheet.with(|s| s.weapons.clone());
    list.into_iter()
        .enumerate()
        .flat_map(|(i, w)| {
            let mut out = vec![Field::Text(
                "list-entry",
                "list-entry",
                Signal::stored(format!(
                    "{} · {}{}",
                    w.name,
                    if w.ranged { "ranged" } else { "melee" },
                    if ctx.sheet.with_untracked(|s| s.weapon(w.arm()) == Some(&w)) {
                        " · in hand in a fight"
                    } else {
                        ""
                    }
                )),
            )];
            let costs: Vec<Field> = priced(w.arm())
                .map(|name| {
                    let k = crate::rules::tempo::index(name).unwrap_or(0);
                    Field::Bound(
                        cost_label(name),
                        ctx.num_at(i * 100 + k, |s, ik| {
                            s.weapons
                                .get(ik / 100)
                                .map_or(0, |w| w.cost(ACTIONS[ik % 100].name))
                        }),
                        ctx.set_at(i * 100 + k, |ik, v| Edit::Cost(ik / 100, ik % 100, v)),
                        0,
                        S,
                    )
                })
                .chain([Field::Bound(
                    "Aimed accuracy",
                    ctx.num_at(i, |s, i| s.weapons.get(i).map_or(0, |w| w.aimed)),
                    ctx.set_at(i, Edit::Aimed),
                    -S,
                    S,
                )])
                .collect();
            out.push(Field::Pair(costs));
            if !ctx.sheet.with_untracked(|s| s.weapon(w.arm()) == Some(&w)) {
                out.push(Field::Act(
                    Signal::stored(format!("Take {} in hand", w.name)),
                    "btn small",
                    "wield",
                    Signal::stored(false),
                    Callback::new(move |()| {
                        ctx.act(Edit::Wield(i));
                    }),
                ));
            }
            out.push(Field::Act(
                Signal::stored(format!("Remove {}", w.name)),
                "btn small",
                "",
                Signal::stored(false),
                Callback::new(move |()| {
                    ctx.act(Edit::RemoveWeapon(i));
                }),
            ));
            out
        })
        .collect()
}

fn weapons(ctx: Ctx) -> AnyView {
    let name = RwSignal::new(String::new());
    let ranged = RwSignal::new(false);
    fold(
        "Weapons",
        "tempo.weapons",
        vec![
            Field::Text(
                "muted",
                "",
                fixed("AP per action, as the weapon prices it. One melee and one ranged weapon are in hand; a fight prices its actions by them, and takes a switch made here."),
            ),
            Field::Rows(std::sync::Arc::new(move || weapon_rows(ctx))),
            Field::Text("field-label", "", fixed("Add a weapon")),
            Field::Input("Weapon", name),
            Field::Tick("Ranged", ranged),
            Field::Act(
                fixed("Add weapon"),
                "btn primary",
                "add-weapon",
                flag(move || {
                    name.with(|n| n.trim().is_empty() || n.chars().count() > NAME_LIMIT)
                        || ctx.sheet.with(|s| s.weapons.len() >= LIST_LIMIT)
                }),
                Callback::new(move |()| {
                    if ctx.act(Edit::AddWeapon(name.get_untracked(), ranged.get_untracked())) {
                        name.set(String::new());
                    }
                }),
            ),
        ],
    )
}
