//! The action list: what the rules offer a combatant now (`rules::referee::offers`), each as a
//! button with its cost and exact odds, or greyed with the rules' reason it cannot be now. A tap
//! sends the intent through `EncCtx::intend` (resolved here on the GM's phone, asked of the GM's
//! on a player's). Panels draw this instead of building events.

use crate::rules::encounter::referee::Offer;
use crate::rules::encounter::State;
use crate::rules::referee::Intent;
use crate::ui::encounters::EncCtx;
use crate::ui::format::percent;
use leptos::prelude::*;

/// The offers of `who` that `pick` keeps (e.g. only the system's own, or only the turn's).
#[component]
pub fn Offers(ctx: EncCtx, who: u32, pick: fn(&Intent) -> bool) -> impl IntoView {
    let list = move || {
        ctx.state.with(|s: &State| {
            crate::rules::referee::offers(s, who)
                .into_iter()
                .filter(|o| pick(&o.action))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <ul class="offers" data-testid="offers">
            {move || list().into_iter().map(|o| row(ctx, who, o)).collect_view()}
        </ul>
    }
}

fn row(ctx: EncCtx, who: u32, o: Offer<Intent>) -> impl IntoView {
    let intent = o.action;
    let odds = o.odds.map(|c| format!(" · {}", percent(c)));
    let note = match &o.refused {
        Some(why) => format!("Not now: {why}."),
        None => o.cost.clone(),
    };
    view! {
        <li class="offer">
            <button class="btn" disabled=o.refused.is_some() on:click=move |_| ctx.intend(who, intent)>
                {o.label}{odds}
            </button>
            {(!note.is_empty()).then(|| view! { <small class="muted">{note}</small> })}
        </li>
    }
}
