use crate::rules::dice::{DieRoll, RollOutcome};
use leptos::prelude::*;

/// One die as a chip: dropped dice are struck through and dimmed, exploded ones show the chain.
#[component]
pub fn DieChip(die: DieRoll) -> impl IntoView {
    let faces = die
        .faces
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("+");
    let title = format!(
        "d{}: {}{}",
        die.sides,
        die.value(),
        if die.kept { "" } else { " (dropped)" }
    );
    view! {
        <li class="die" class:dropped=!die.kept class:exploded=die.exploded() title=title.clone() aria-label=title>
            <span class="die-sides">{format!("d{}", die.sides)}</span>
            <span class="die-value">{faces}</span>
        </li>
    }
}

/// Every term's dice, in order, with signs and constants.
#[component]
pub fn DiceList(outcome: RollOutcome) -> impl IntoView {
    let parts = outcome
        .terms
        .into_iter()
        .enumerate()
        .map(|(i, term)| {
            let sign = match (i, term.negative) {
                (0, false) => None,
                (_, false) => Some("+"),
                (_, true) => Some("−"),
            };
            let body = match term.constant {
                Some(c) => view! { <li class="constant">{c}</li> }.into_any(),
                None => term
                    .dice
                    .into_iter()
                    .map(|d| view! { <DieChip die=d/> })
                    .collect_view()
                    .into_any(),
            };
            view! {
                {sign.map(|s| view! { <li class="op" aria-hidden="true">{s}</li> })}
                {body}
            }
        })
        .collect_view();
    view! { <ul class="dice-list">{parts}</ul> }
}
