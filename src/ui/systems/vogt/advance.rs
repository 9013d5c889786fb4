//! Bo Vogt's rules have no experience points: a character grows when the GM says so. Advance
//! says that plainly. The rests and the death and dismemberment table live here for Play.

use super::Ctx;
use crate::rules::dice::{DiceSource, RollOutcome};
use crate::rules::vogt::{dismemberment, dismemberment_death, Edit, DISMEMBERMENT};
use crate::ui::format::percent;
use crate::ui::kit::{fixed, flag, form, text, Field};
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

/// Siesta, full rest and, from exhaustion 4, the death and dismemberment roll.
pub(super) fn rests(ctx: Ctx) -> AnyView {
    let result = RwSignal::new(String::new());
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
        "Rest and recovery",
        vec![
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
                        Signal::stored(false),
                        Callback::new(move |()| roll_table()),
                    ),
                ],
            ),
            Field::Text("result-line", "table-result", result.into()),
        ],
    )
}
