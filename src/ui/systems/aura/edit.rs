//! Editing an Energy / Aura sheet: scores, level, size, proficiency and its picks, armor,
//! shield, weapons, the current pools; every derived value with its formula on tap.

use super::Ctx;
use crate::rules::aura::{
    draw_row, throw_extra, AttackMode, AuraSheet, Edit, Pick, Weapon, BOW, POOL_LIMIT, SCORES,
    SIZES, STAT_LIMIT,
};
use crate::ui::kit::{fixed, flag, fold, numbered_options, Field};
use leptos::prelude::*;

type Num = (
    &'static str,
    fn(&AuraSheet) -> i32,
    fn(i32) -> Edit,
    i32,
    i32,
);

const S: i32 = STAT_LIMIT;

const NUMBERS: [Num; 7] = [
    ("Level", |s| s.level, Edit::Level, 0, S),
    ("MPL", |s| s.mpl, Edit::Mpl, 0, S),
    ("Arm Strength (base)", |s| s.arm, Edit::Arm, -S, S),
    ("Leg Strength (base)", |s| s.leg, Edit::Leg, -S, S),
    (
        "Initiative bonus",
        |s| s.initiative,
        Edit::Initiative,
        -S,
        S,
    ),
    ("Agility bonuses", |s| s.agility, Edit::Agility, -S, S),
    (
        "Recovery surges left",
        |s| s.surges,
        Edit::Surges,
        0,
        POOL_LIMIT,
    ),
];

const ARMOR: [Num; 7] = [
    ("Armor AR", |s| s.armor.ar, Edit::ArmorAr, 0, S),
    ("Coverage (AC)", |s| s.armor.ac, Edit::ArmorAc, 0, S),
    (
        "Ranged AC",
        |s| s.armor.ranged_ac,
        Edit::ArmorRangedAc,
        0,
        S,
    ),
    (
        "Evasion penalty",
        |s| s.armor.penalty,
        Edit::ArmorPenalty,
        0,
        S,
    ),
    ("Armor MPR", |s| s.armor.mpr, Edit::ArmorMpr, 0, S),
    ("Shield bonus", |s| s.shield.bonus, Edit::ShieldBonus, 0, S),
    ("Shield MPR", |s| s.shield.mpr, Edit::ShieldMpr, 0, S),
];

type Text = fn(&AuraSheet) -> String;

/// Every derived value: label, test id, value, formula.
const DERIVED: [(&str, &str, Text, Text); 22] = [
    (
        "MASAB / MASDB",
        "masab",
        |s| s.masab().0.to_string(),
        |s| s.masab().1,
    ),
    (
        "Unarmed AV",
        "unarmed-av",
        |s| s.unarmed_av().0.to_string(),
        |s| s.unarmed_av().1,
    ),
    (
        "Unarmed damage",
        "unarmed-damage",
        |s| s.unarmed_damage().0.to_string(),
        |s| s.unarmed_damage().1,
    ),
    (
        "Evasion",
        "d-evasion",
        |s| s.evasion().0.to_string(),
        |s| s.evasion().1,
    ),
    (
        "Ranged evasion",
        "d-ranged-evasion",
        |s| s.ranged_evasion().0.to_string(),
        |s| s.ranged_evasion().1,
    ),
    (
        "Unarmed evasion",
        "d-unarmed-evasion",
        |s| s.unarmed_evasion().0.to_string(),
        |s| s.unarmed_evasion().1,
    ),
    (
        "Fortitude",
        "d-fortitude",
        |s| s.fortitude().0.to_string(),
        |s| s.fortitude().1,
    ),
    ("Will", "d-will", |s| s.will().0.to_string(), |s| s.will().1),
    (
        "Aura modifier",
        "aura-modifier",
        |s| s.aura_modifier().0.to_string(),
        |s| s.aura_modifier().1,
    ),
    (
        "Aura strength",
        "aura-strength",
        |s| s.aura_strength().0.to_string(),
        |s| s.aura_strength().1,
    ),
    (
        "Recovery surges",
        "recovery-surges",
        |s| s.recovery_surges().0.to_string(),
        |s| s.recovery_surges().1,
    ),
    (
        "Recovery value",
        "recovery-value",
        |s| s.recovery_value().0.to_string(),
        |s| s.recovery_value().1,
    ),
    (
        "Max stamina",
        "max-stamina",
        |s| s.max_stamina().0.to_string(),
        |s| s.max_stamina().1,
    ),
    (
        "Energy per round",
        "energy-per-round",
        |s| s.energy_per_round().0.to_string(),
        |s| s.energy_per_round().1,
    ),
    (
        "Max agility",
        "max-agility",
        |s| s.max_agility().0.to_string(),
        |s| s.max_agility().1,
    ),
    (
        "Arm Strength",
        "arm-strength",
        |s| s.arm_strength().0.to_string(),
        |s| s.arm_strength().1,
    ),
    (
        "Leg Strength",
        "leg-strength",
        |s| s.leg_strength().0.to_string(),
        |s| s.leg_strength().1,
    ),
    (
        "Initiative",
        "initiative",
        |s| format!("{:+}", s.initiative_bonus().0),
        |s| s.initiative_bonus().1,
    ),
    (
        "Draw weight",
        "draw-weight",
        |s| {
            let r = s.draw_for(&BOW);
            format!(
                "{} kg · range {} · +{} damage",
                r.kg,
                r.range_text(),
                r.extra
            )
        },
        |s| {
            let x = s.draw_for(&Weapon {
                crossbow: true,
                ..BOW
            });
            format!(
                "the row of Arm Strength {} ({} kg), at most the MPL's row (MPL 1–2: 40 kg, 3–4: 45, 5+: 50); a two-handed crossbow counts 5 more: {} kg, +{}",
                s.arm_strength().0,
                draw_row(s.arm_strength().0).kg,
                x.kg,
                x.extra
            )
        },
    ),
    (
        "Extra throwing distance",
        "throw-extra",
        |s| {
            let x = throw_extra(s.arm_strength().0);
            format!("+{}/{}/{} m", x[0], x[1], x[2])
        },
        |s| format!("from Arm Strength {}", s.arm_strength().0),
    ),
    (
        "Size",
        "size-chart",
        |s| s.size_row().name.to_owned(),
        |s| {
            let r = s.size_row();
            format!(
                "the size chart: inherent evasion {}, miss chance {:+}, jump {} m, speed {} m (speed is by race; this is the typical one)",
                r.evasion, r.miss, r.jump, r.speed
            )
        },
    ),
    (
        "Modifiers",
        "modifiers",
        |s| {
            (0..6)
                .map(|i| format!("{} {:+}", SCORES[i], s.modifier(i)))
                .collect::<Vec<_>>()
                .join(" · ")
        },
        |_| "⌊(score − 10) / 2⌋".into(),
    ),
];

pub fn edit(ctx: Ctx) -> impl IntoView {
    let scores: Vec<Field> = vec![Field::Pair(
        (0..6)
            .map(|i| {
                Field::Bound(
                    SCORES[i],
                    ctx.num_at(i, |s, i| s.scores[i]),
                    ctx.set_at(i, Edit::Score),
                    0,
                    S,
                )
            })
            .collect(),
    )];
    let bound = |list: [Num; 7]| -> Vec<Field> {
        list.map(|(label, get, set, min, max)| {
            Field::Bound(label, ctx.num(get), ctx.set(set), min, max)
        })
        .into()
    };
    let mut basics = vec![Field::Pair(bound(NUMBERS))];
    basics.push(Field::Choose(
        "Size",
        numbered_options(SIZES.iter().map(|r| r.name.to_owned())),
        ctx.num(|s| s.size as i32),
        ctx.set(Edit::Size),
    ));
    basics.push(Field::Rows(std::sync::Arc::new(move || pick_rows(ctx))));
    basics.push(Field::Pair(vec![
        Field::Bound(
            "Aura now",
            ctx.num(|s| s.aura),
            ctx.set(Edit::Aura),
            0,
            POOL_LIMIT,
        ),
        Field::Bound(
            "Stamina now",
            ctx.num(|s| s.stamina),
            ctx.set(Edit::Stamina),
            0,
            POOL_LIMIT,
        ),
    ]));
    basics.push(Field::Flag(
        "Dead",
        flag(move || ctx.sheet.with(|s| s.dead)),
        Callback::new(move |v| {
            ctx.act(Edit::Dead(v));
        }),
    ));
    let mut armor = vec![Field::Pair(bound(ARMOR))];
    armor.push(Field::Flag(
        "Carries the shield",
        flag(move || ctx.sheet.with(|s| s.shield.carried)),
        Callback::new(move |v| {
            ctx.act(Edit::ShieldCarried(v));
        }),
    ));
    let derived = DERIVED
        .map(|(label, id, value, formula)| {
            Field::Derived(label, id, ctx.text(value), ctx.text(formula))
        })
        .into();
    view! {
        {fold("Scores", "aura.scores", scores)}
        {fold("Level, size and proficiency", "aura.basics", basics)}
        {fold("Derived", "aura.derived", derived)}
        {fold("Armor and shield", "aura.armor", armor)}
        {weapons(ctx)}
    }
}

/// One choice per MPL level: +1 Arm Strength, +1 Leg Strength or +1 Initiative.
fn pick_rows(ctx: Ctx) -> Vec<Field> {
    let n = ctx.sheet.with(|s| s.mpl.clamp(0, 100) as usize);
    let options = numbered_options(Pick::ALL.iter().map(|p| p.name().to_owned()));
    (0..n)
        .map(|i| {
            Field::Choose(
                "MPL pick",
                options,
                ctx.num_at(i, |s, i| {
                    s.picks.get(i).map_or(0, |p| {
                        Pick::ALL.iter().position(|x| x == p).unwrap_or(0) as i32
                    })
                }),
                ctx.set_at(i, Edit::Pick),
            )
        })
        .collect()
}

fn weapon_rows(ctx: Ctx) -> Vec<Field> {
    let list = ctx.sheet.with(|s| s.weapons.clone());
    list.into_iter()
        .enumerate()
        .flat_map(|(i, w)| {
            let mut props = Vec::new();
            for (on, name) in [
                (w.ranged, "ranged"),
                (w.drawn, "draw weight"),
                (w.crossbow, "two-handed crossbow"),
                (w.thrown, "Thrown"),
                (w.light, "Light"),
                (w.heavy, "Heavy"),
                (w.blunt, "blunt"),
                (w.held, "in hand"),
            ] {
                if on {
                    props.push(name.to_owned());
                }
            }
            if w.precise > 0 {
                props.push(format!("Precise {}", w.precise));
            }
            let what = format!(
                "{} · {} · AV {:+} · EV {:+} · accuracy {:+} · MPR {}{}{}",
                w.name,
                w.damage,
                w.av,
                w.ev,
                w.accuracy,
                w.mpr,
                if w.range != [0; 3] {
                    let r = ctx.sheet.with(|s| s.range(&w, AttackMode::Shot));
                    let mut t = format!(" · range {}/{}/{}", w.range[0], w.range[1], w.range[2]);
                    if w.ranged && r != w.range {
                        t.push_str(&format!(
                            " ({}/{}/{} at this draw weight)",
                            r[0], r[1], r[2]
                        ));
                    }
                    t
                } else {
                    String::new()
                },
                if props.is_empty() {
                    String::new()
                } else {
                    format!(" · {}", props.join(", "))
                }
            );
            let held = if w.held { "Put away" } else { "Take in hand" };
            [
                Field::Text("list-entry", "list-entry", Signal::stored(what)),
                Field::Pair(vec![
                    Field::Act(
                        Signal::stored(held.to_owned()),
                        "btn small",
                        "",
                        Signal::stored(false),
                        Callback::new(move |()| {
                            ctx.act(Edit::ToggleHeld(i));
                        }),
                    ),
                    Field::Act(
                        Signal::stored(format!("Remove {}", w.name)),
                        "btn small",
                        "",
                        Signal::stored(false),
                        Callback::new(move |()| {
                            ctx.act(Edit::RemoveWeapon(i));
                        }),
                    ),
                ]),
            ]
        })
        .collect()
}

fn weapons(ctx: Ctx) -> AnyView {
    let name = RwSignal::new(String::new());
    let dmg = RwSignal::new("1d6".to_owned());
    let [av, ev, acc, mpr, precise, r1, r2, r3] = [0; 8].map(RwSignal::new);
    let [ranged, drawn, crossbow, thrown, light, heavy, blunt] = [false; 7].map(RwSignal::new);
    let bad = flag(move || {
        name.with(|n| n.trim().is_empty() || n.chars().count() > 200)
            || dmg.with(|d| crate::rules::dice::parse(d).is_err())
    });
    fold(
        "Weapons",
        "aura.weapons",
        vec![
            Field::Rows(std::sync::Arc::new(move || weapon_rows(ctx))),
            Field::Text("field-label", "", fixed("Add a weapon")),
            Field::Input("Weapon", name),
            Field::Input("Damage dice (e.g. 1d8)", dmg),
            Field::Pair(vec![
                Field::Num("AV bonus", av, -S, S),
                Field::Num("Evasion bonus", ev, -S, S),
                Field::Num("Accuracy", acc, -S, S),
                Field::Num("MPR", mpr, 0, S),
                Field::Num("Precise", precise, 0, 19),
            ]),
            Field::Tick("Ranged (bow, crossbow, sling)", ranged),
            Field::Tick("Adds draw weight damage", drawn),
            Field::Tick("Two-handed crossbow", crossbow),
            Field::Tick("Thrown property", thrown),
            Field::Pair(vec![
                Field::Tick("Light", light),
                Field::Tick("Heavy", heavy),
                Field::Tick("Blunt", blunt),
            ]),
            Field::Pair(vec![
                Field::Num("Range: advantage within", r1, 0, POOL_LIMIT),
                Field::Num("disadvantage past", r2, 0, POOL_LIMIT),
                Field::Num("maximum", r3, 0, POOL_LIMIT),
            ]),
            Field::Act(
                fixed("Add weapon"),
                "btn primary",
                "add-weapon",
                bad,
                Callback::new(move |()| {
                    let w = Weapon {
                        name: name.get_untracked().trim().to_owned(),
                        damage: dmg.get_untracked().trim().to_owned(),
                        av: av.get_untracked(),
                        ev: ev.get_untracked(),
                        accuracy: acc.get_untracked(),
                        mpr: mpr.get_untracked(),
                        precise: precise.get_untracked(),
                        ranged: ranged.get_untracked(),
                        drawn: drawn.get_untracked(),
                        crossbow: crossbow.get_untracked(),
                        thrown: thrown.get_untracked(),
                        light: light.get_untracked(),
                        heavy: heavy.get_untracked(),
                        blunt: blunt.get_untracked(),
                        range: [r1.get_untracked(), r2.get_untracked(), r3.get_untracked()],
                        held: true,
                    };
                    if ctx.act(Edit::AddWeapon(w)) {
                        name.set(String::new());
                    }
                }),
            ),
        ],
    )
}
