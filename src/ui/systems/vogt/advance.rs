//! Bo Vogt's rules have no experience points: a character grows when the GM says so. Advance
//! says that plainly. The rests and the death and dismemberment table live here for Play.

use super::Ctx;
use crate::rules::dice::{DiceSource, RollOutcome};
use crate::rules::vogt::{dismemberment, dismemberment_death, Edit, DISMEMBERMENT, HP_LIMIT};
use crate::ui::format::percent;
use crate::ui::kit::{choices, fixed, flag, form, text, Field};
use crate::ui::state::with_dice;
use leptos::prelude::*;

pub fn advance(_ctx: Ctx) -> impl IntoView {
    view! {
        <section class="card" aria-label="Growth">
            <h2>"Growth"</h2>
            <p class="muted">"These rules keep no experience. When the GM grants it, raise an ability one die (Edit), add technique dice or skills."</p>
        </section>
    }
}

/// Damage taken (the rule: at 0 or less a level of exhaustion and prone), siesta, full rest
/// and, from exhaustion 4, the death and dismemberment roll with what broke on a 1.
pub(super) fn rests(ctx: Ctx) -> AnyView {
    let result = RwSignal::new(String::new());
    let hurt = RwSignal::new(0);
    let table = DISMEMBERMENT
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{}{}: {l}", i + 1, if i == 5 { "+" } else { "" }))
        .collect::<Vec<_>>()
        .join(" · ");
    let roll_table = move || {
        let Ok(d8) = with_dice(|src| src.roll(8)) else {
            return;
        };
        let line = dismemberment(d8);
        ctx.act(Edit::Dismember(d8));
        result.set(format!("d8: {d8} — {line}"));
        ctx.log(
            "1d8 death and dismemberment".into(),
            RollOutcome::single(8, d8),
        );
    };
    form(
        "Damage and rest",
        vec![
            Field::Pair(vec![
                Field::Num("Damage taken", hurt, 0, HP_LIMIT),
                Field::Act(
                    fixed("Apply"),
                    "btn",
                    "take-damage",
                    flag(move || ctx.sheet.with(|s| s.dead) || hurt.get() <= 0),
                    Callback::new(move |()| {
                        if ctx.act(Edit::Damage(hurt.get_untracked())) {
                            hurt.set(0);
                        }
                    }),
                ),
            ]),
            Field::Act(
                text(move || {
                    ctx.sheet.with(|s| {
                        format!(
                            "Siesta (1 h): HP → {}",
                            (s.hp + s.hp_max_now() / 2).min(s.hp_max_now())
                        )
                    })
                }),
                "btn wide",
                "siesta",
                flag(move || ctx.sheet.with(|s| s.dead)),
                Callback::new(move |()| {
                    ctx.act(Edit::Siesta);
                }),
            ),
            Field::Act(
                text(move || {
                    ctx.sheet.with(|s| {
                        format!(
                            "Full rest (8 h): HP → {}, dice → {}",
                            s.hp_max_now(),
                            s.technique_dice
                        )
                    })
                }),
                "btn wide",
                "full-rest",
                flag(move || ctx.sheet.with(|s| s.dead)),
                Callback::new(move |()| {
                    ctx.act(Edit::FullRest);
                }),
            ),
            Field::If(
                flag(move || ctx.sheet.with(|s| s.exhaustion >= 4 && !s.dead)),
                vec![
                    Field::Text(
                        "chance",
                        "table-odds",
                        text(move || {
                            format!("Exhaustion 4 or more: roll a d8 on the death and dismemberment table. Dies: {}. Each other line: 12.5%.", percent(dismemberment_death()))
                        }),
                    ),
                    Field::Text("muted", "", Signal::stored(table)),
                    Field::Act(
                        fixed("Roll on the table (d8)"),
                        "btn primary",
                        "roll-table",
                        flag(move || ctx.sheet.with(|s| s.table_due() == 0)),
                        Callback::new(move |()| roll_table()),
                    ),
                ],
            ),
            Field::Text("result-line", "table-result", result.into()),
            Field::If(
                flag(move || {
                    ctx.sheet
                        .with(|s| s.injuries.iter().any(|l| l == DISMEMBERMENT[0]))
                }),
                vec![Field::Choose(
                    "What broke",
                    choices(move || {
                        ctx.sheet.with(|s| {
                            let mut l = vec![(-2, "Pick what broke".to_owned())];
                            l.extend(s.weapons().map(|(i, w)| (i as i32, w.name.clone())));
                            l.push((-1, "The armor (AR 0 until replaced)".into()));
                            l
                        })
                    }),
                    Signal::stored(-2),
                    Callback::new(move |w: i32| {
                        if w > -2 {
                            ctx.act(Edit::Break(usize::try_from(w).ok()));
                        }
                    }),
                )],
            ),
        ],
    )
}
