//! The GM's side of the table, on the fight's page: open the table, one code per player, what
//! each phone must do next, and what happened at the table.

use super::{card, Card, Phase, Table};
use crate::rules::encounter::Encounter;
use crate::storage::table::MAX_SEATS;
use crate::ui::encounters::EncCtx;
use crate::ui::kit::{flag, tap, typed, when, Section, Stepper};
use crate::ui::share::ScanButton;
use leptos::prelude::*;

pub fn panel(ctx: EncCtx) -> AnyView {
    let t = expect_context::<Table>();
    let id = ctx.id.get_value();
    let here = id.clone();
    let serving = flag(move || t.fight.with(|f| f.as_deref() == Some(here.as_str())));
    let id = StoredValue::new(id);
    let open = move || t.serve(id.get_value());
    let paste = typed(move |text: String| {
        if !text.trim().is_empty() {
            t.share.receive(text);
        }
    });
    view! {
        <Section title="Table" key="fight.table">
            <Show when=when(serving) fallback=move || view! {
                <p class="muted">"Let every player follow this fight on their own phone, with no internet: the phones talk directly over the same Wi-Fi (or one phone’s hotspot). Each player scans a code here, then you scan theirs."</p>
                <button class="btn primary wide" on:click=tap(open)>"Open the table"</button>
            }>
                {asks(ctx)}
                <ol class="seats">
                    {move || t.seats.get().into_iter().filter(|s| s.n != super::PLAYER).map(|s| seat_view(t, s.n, s.phase)).collect_view()}
                </ol>
                <ScanButton/>
                <label class="field-label">"Or paste a player’s link"
                    <input type="url" inputmode="url" autocomplete="off" on:change=paste.clone() data-testid="answer-paste"/>
                </label>
                <div class="actions">
                    <button class="btn" hidden=flag(move || t.seats.with(|s| s.len() > MAX_SEATS)) on:click=tap(move || t.add_seat())>"Add a player"</button>
                    <button class="btn danger" on:click=tap(move || t.close_all())>"Close the table"</button>
                </div>
                <ul class="table-lines" aria-label="At the table" data-testid="table-lines">
                    {move || t.lines.get().into_iter().rev().map(|l| view! { <li>{l}</li> }).collect_view()}
                </ul>
            </Show>
            {npc_choices(t, ctx)}
        </Section>
    }
    .into_any()
}

/// The players' requests waiting for the GM, above the bottom bar so they are seen wherever the
/// page is scrolled: what each would write in the log, Accept or Refuse.
pub fn asks(ctx: EncCtx) -> AnyView {
    let t = expect_context::<Table>();
    let list = move || {
        t.asks.get().into_iter().enumerate().map(|(i, a)| {
            // What it would do to the fight as it is now (it may have moved since it came).
            let (who, text) = ctx.state.with(|s| (s.name(a.who).to_owned(), crate::storage::table::request_preview(s, a.who, &a.req).unwrap_or_else(|why| vec![format!("No longer possible: {why}.")]).join(" ")));
            // What it proposes of the situation (a distance, cover): the GM's to set, shown
            // beside what it would be by default.
            let facts = match &a.req {
                crate::storage::table::Request::Act(intent, _) => intent.facts(),
                _ => Vec::new(),
            };
            let changed = facts.iter().map(|f| f.value).ne(a.facts.iter().copied());
            let facts = facts.into_iter().enumerate().map(|(k, f)| {
                let value = Signal::derive(move || t.asks.with(|l| l.get(i).and_then(|a| a.facts.get(k).copied()).unwrap_or(f.value)));
                view! {
                    <div class="fact" data-testid="ask-fact">
                        <p class="field-label">{format!("{}: proposed {} · by default {}", f.label, f.value, f.default)}</p>
                        <Stepper label=f.label value set=Callback::new(move |v| t.set_fact(i, k, v)) min=f.min max=f.max/>
                    </div>
                }
            }).collect_view();
            view! {
                <li class="notice ask">
                    <p><strong>{format!("Player {} asks for {who}: ", a.seat + 1)}</strong>{text}</p>
                    {facts}
                    {changed.then(|| view! { <p class="muted">"Accept rolls it with the facts as you set them."</p> })}
                    <button class="btn" on:click=move |_| t.answer(ctx, i, false)>"Refuse"</button>
                    <button class="btn primary" on:click=move |_| t.answer(ctx, i, true)>"Accept"</button>
                </li>
            }
        }).collect_view()
    };
    let serving = flag(move || {
        t.fight
            .with(|f| f.as_deref() == Some(ctx.id.get_value().as_str()))
    });
    view! {
        <Show when=when(flag(move || serving.get() && t.asks.with(|l| !l.is_empty())))>
            <ul class="asks" aria-label="Players’ requests" data-testid="asks">{list}</ul>
        </Show>
    }
    .into_any()
}

/// Per NPC, what the players see of it: hidden until its first turn, and its numbers.
fn npc_choices(t: Table, ctx: EncCtx) -> impl IntoView {
    let id = ctx.id;
    let npcs = move || {
        ctx.state.with(|s| {
            s.combatants
                .iter()
                .filter(|c| !c.pc && !c.gone)
                .map(|c| (c.id, c.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    // `shown`: the list of NPCs whose numbers players see, else those hidden from them.
    let has = move |shown: bool, who: u32| {
        t.encounters.list.with(|l| {
            l.iter()
                .find(|e| e.id == id.get_value())
                .is_some_and(|e| if shown { &e.revealed } else { &e.hidden }.contains(&who))
        })
    };
    let flip = move |shown: bool, who: u32| {
        t.encounters.update(&id.get_value(), |e| {
            Encounter::toggle(
                if shown {
                    &mut e.revealed
                } else {
                    &mut e.hidden
                },
                who,
            );
        })
    };
    view! {
        <h3>"What the players see"</h3>
        <p class="muted">"NPCs show on the players’ phones as a word (“hurt”, “down”) unless you show their numbers; players roll against an NPC from their phones once its numbers are shown. A hidden NPC appears there at its first turn."</p>
        <ul class="npc-choices">
            {move || npcs().into_iter().map(|(who, name)| { let key = name.clone(); view! {
                <li data-npc=key>
                    <span>{name}</span>
                    <div class="toggles">
                        <button class="chip" aria-pressed=move || has(false, who).to_string() on:click=move |_| flip(false, who)>"Hidden"</button>
                        <button class="chip" aria-pressed=move || has(true, who).to_string() on:click=move |_| flip(true, who)>"Numbers shown"</button>
                    </div>
                </li>
            } }).collect_view()}
        </ul>
    }
}

fn seat_view(t: Table, n: u32, phase: Phase) -> impl IntoView {
    let title = format!("Player {}", n + 1);
    let c = match phase {
        Phase::Idle | Phase::Making => Card::says("Making the code…"),
        Phase::Showing(link, qr) => Card {
            code: Some((link, qr)),
            ..Card::says("1. On the player’s phone: Rollsheet → Scan a code, pointed at this code (or open the link). 2. Their phone then shows a code: tap Scan a code below and point this phone at it.")
        },
        Phase::Connecting => Card::says("Connecting…"),
        Phase::Open(who) => Card {
            class: "ok",
            ..Card::says(format!("Connected: {who}"))
        },
        Phase::Lost(why) => Card {
            class: "field-error",
            button: Some(("New code", Callback::new(move |()| t.offer(n)))),
            ..Card::says(why)
        },
    };
    view! {
        <li class="card seat" data-seat=n>
            <h3>{title}</h3>
            {card(c, "table-code")}
        </li>
    }
}
