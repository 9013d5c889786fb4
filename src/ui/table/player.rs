//! The player's side of the table: pairing with the GM's phone, then the fight as the GM's
//! phone shows it to this player (read-only): round and turn, the order with NPCs as words,
//! this player's own combatants in full, and the log. The last view stays after a reload.

use super::{card, Card, Phase, Table};
use crate::rules::encounter::rules_for;
use crate::rules::referee::Intent;
use crate::storage::table::{Seat, View};
use crate::ui::encounters::EncCtx;
use crate::ui::kit::{draw, flag, offers, when};
use crate::ui::share::ScanButton;
use crate::ui::systems::combat_ui_later;
use leptos::prelude::*;

/// The table's page, as its module hands it out.
pub fn page() -> AnyView {
    view! { <TablePage/> }.into_any()
}

#[component]
pub fn TablePage() -> impl IntoView {
    let t = expect_context::<Table>();
    let status = move || {
        let phase = t.mine();
        let c = match phase {
            Phase::Idle => Card::says(
                "To follow the GM’s fight here, scan the code on the GM’s phone (Table → Open the table).",
            ),
            Phase::Making | Phase::Connecting => Card::says("Making this phone’s code…"),
            Phase::Showing(link, qr) => Card {
                code: Some((link, qr)),
                button: Some(("Start over", Callback::new(move |()| t.start_over()))),
                ..Card::says("Now show this code to the GM: they scan it with Rollsheet. Keep this page open.")
            },
            Phase::Open(_) => Card {
                class: "ok",
                ..Card::says("Connected to the GM’s phone.")
            },
            Phase::Lost(why) => Card {
                class: "field-error",
                button: Some(("Rejoin", Callback::new(move |()| t.start_over()))),
                ..Card::says(why)
            },
        };
        card(c, "answer-code")
    };
    let view = move || t.held.with(|h| h.view.clone());
    view! {
        <section class="page table">
            <h1>"Table"</h1>
            <div class="card">
                {status}
                <Show when=when(flag(move || t.mine() == Phase::Idle))><ScanButton/></Show>
            </div>
            <Show when=when(flag(move || t.lines.with(|l| !l.is_empty())))>
                <div class="card" data-testid="followed">
                    <ul>{move || t.lines.get().into_iter().rev().take(5).map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                    <button class="btn" on:click=move |_| t.undo_follow()>"Undo on my sheets"</button>
                </div>
            </Show>
            {move || view().map(live)}
            {actions(t)}
            {move || view().map(order_and_log)}
            <Show when=when(flag(move || t.held.with(|h| h.view.is_none())))>
                <p class="muted">"Nothing to show yet: the fight appears here once the phones are paired."</p>
            </Show>
        </section>
    }
}

fn seat_row(s: Seat, current: bool) -> impl IntoView {
    let state = match s.hp {
        Some((hp, max)) => format!("{hp}/{max}"),
        None => s.word.clone(),
    };
    let conditions = s.conditions.join(", ");
    view! {
        <li class="fighter" class:current=current class:mine=s.mine class:dead=s.word == "dead">
            <div class="fighter-main">
                <span class="fighter-name">{s.name}{s.mine.then_some(" (you)")}</span>
                <span class="fighter-hp">{state}</span>
                <span class="fighter-why muted">{conditions}</span>
            </div>
        </li>
    }
}

fn live(v: View) -> impl IntoView {
    let heading = v.head.status.clone();
    let rules = rules_for(&v.system);
    let own = v
        .own
        .iter()
        .map(|c| {
            // What this combatant has left this round; conditions show in the order below.
            let stats = rules
                .map(|r| {
                    r.resources
                        .iter()
                        .zip(&c.pools)
                        .map(|(d, v)| format!("{} {v}", d.name))
                        .collect::<Vec<_>>()
                        .join(" · ")
                })
                .unwrap_or_default();
            let hp = rules.map_or("HP", |r| r.hp_name);
            view! {
                <div class="card own" data-testid="own">
                    <h3>{c.name.clone()}</h3>
                    <p class="big">{format!("{hp} {}/{}", c.hp, rules.map_or(c.hp_max, |r| r.hp_max(c)))}{(c.death > 0).then(|| format!(" · death {}", c.death))}{c.dead.then_some(" · dead")}</p>
                    <p class="muted">{stats}</p>
                </div>
            }
        })
        .collect_view();
    view! {
        <h2>{v.name.clone()}</h2>
        <p class="turn" role="status" data-testid="table-turn">{heading}</p>
        {own}
    }
}

/// The player's own actions: the system's own combat panel for each of their combatants, over
/// the fight as this phone knows it, whose acts go to the GM's phone as requests; and the
/// requests sent, with the GM's answers.
fn actions(t: Table) -> impl IntoView {
    // Drawn again only when the fight or the player's combatants change, not at every step.
    let key = Memo::new(move |_| {
        t.held.with(|h| {
            h.view.as_ref().map(|v| {
                let ids: Vec<u32> = v.own.iter().filter(|c| !c.gone).map(|c| c.id).collect();
                (v.fight.clone(), v.system.clone(), ids)
            })
        })
    });
    let connected = flag(move || matches!(t.mine(), Phase::Open(_)));
    let panels = move || {
        let (fight, system, ids) = key.get()?;
        // The system's views: their module fetched on the first fight of that system.
        let ui = combat_ui_later(system);
        Some(move || {
            let ui = ui.get()?;
            let ids = ids.clone();
            let state = RwSignal::new(t.held.with_untracked(|h| h.view.as_ref()?.state())?);
            Effect::new(move || {
                if let Some(s) = t.held.with(|h| h.view.as_ref().and_then(View::state)) {
                    if state.with_untracked(|now| *now != s) {
                        state.set(s);
                    }
                }
            });
            let fight = StoredValue::new(fight.clone());
            // Built untracked: a panel reading the fight as it is drawn must not redraw them all.
            Some(untrack(move || {
                ids.into_iter().map(|who| {
            let ctx = EncCtx {
                id: fight,
                state,
                store: t.encounters,
                selected: RwSignal::new(Some(who)),
                ask: Some(super::ask),
            };
            let name = state.with_untracked(|s| s.name(who).to_owned());
            let turn = flag(move || state.with(|s| s.current == Some(who)));
            view! {
                <section class="card" data-testid="my-actions">
                    <h3>{format!("{name}: your actions")}</h3>
                    <p class="muted">"In your turn (or to react to what another declares), what you roll here goes to the GM’s phone: it counts once the GM accepts it."</p>
                    {(ui.panel)(ctx, who)}
                    <Show when=when(turn)>
                        {draw(offers(ctx, who, turns))}
                    </Show>
                </section>
            }
        }).collect_view()
            }))
        })
    };
    let sent = move || {
        t.asks.get().into_iter().rev().take(5).map(|a| view! {
            <li>{a.text}<br/><strong>{a.said.unwrap_or_else(|| "Waiting for the GM…".into())}</strong></li>
        }).collect_view()
    };
    view! {
        <Show when=when(connected)>{panels}</Show>
        <Show when=when(flag(move || t.asks.with(|l| !l.is_empty())))>
            <div class="card">
                <h3>"Your requests"</h3>
                <ul class="asks-sent" data-testid="my-asks">{sent}</ul>
            </div>
        </Show>
    }
}

fn order_and_log(v: View) -> impl IntoView {
    let current = v.head.current;
    let log = v
        .log
        .iter()
        .rev()
        .take(40)
        .map(|l| view! { <li>{l.clone()}</li> })
        .collect_view();
    view! {
        <ol class="order" aria-label="Turn order" data-testid="table-order">
            {v.seats.into_iter().map(|s| { let cur = Some(s.id) == current; seat_row(s, cur) }).collect_view()}
        </ol>
        <h2>"Log"</h2>
        <ol class="fight-log" data-testid="table-log">{log}</ol>
    }
}

/// The turn actions of every system (end the turn, wait, act before another).
fn turns(i: &Intent) -> bool {
    matches!(i, Intent::Turn(_))
}
