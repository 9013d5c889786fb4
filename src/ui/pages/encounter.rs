//! A running fight, for every system: the order with the current combatant highlighted, the
//! round, next turn, undo and redo, each combatant's vitals and conditions; tap a combatant for
//! damage, healing, conditions, waiting and the system's own actions (attacks, death tests).

use crate::rules::encounter::referee::Turn;
use crate::rules::encounter::{Duration, Event, State, Turns};
use crate::rules::referee::Intent;
use crate::ui::encounters::{EncCtx, Encounters, TableHook};
use crate::ui::kit::{
    choices, draw, flag, offers, tap, text, typed, when, Field, RollSheet, Section, Stepper,
};
use crate::ui::roster::Roster;
use crate::ui::router::Link;
use crate::ui::systems::CombatUi;
use leptos::prelude::*;

#[component]
pub fn EncounterPage(
    id: String,
    /// The fight's system's views (their module already in: `ui::lazy`).
    ui: Option<&'static CombatUi>,
) -> impl IntoView {
    let encounters = expect_context::<Encounters>();
    let Some(enc) = encounters.get(&id) else {
        return view! {
            <section class="page">
                <h1>"Encounter not found"</h1>
                <p>"It may have been deleted. "<Link href="/combat".to_owned()>"All encounters"</Link></p>
            </section>
        }
        .into_any();
    };
    let ctx = EncCtx {
        id: StoredValue::new(id.clone()),
        state: RwSignal::new(enc.state()),
        store: encounters,
        selected: RwSignal::new(None),
        ask: None,
    };
    encounters.show(&id, ctx.state);
    // A linked character changed elsewhere (its sheet in another tab): into the fight, logged.
    // The fight's own writes to the characters compare equal and add nothing.
    let roster = expect_context::<Roster>();
    Effect::new(move |_| {
        roster.chars.track();
        encounters.settle(&ctx.id.get_value(), Some(ctx.state), None, true);
    });
    let name = move || {
        encounters.list.with(|l| {
            l.iter()
                .find(|e| e.id == ctx.id.get_value())
                .map(|e| e.name.clone())
        })
    };
    view! {
        <section class="page fight">
            <p class="back"><Link href="/combat".to_owned()>"← Encounters"</Link></p>
            <h1>{name}</h1>
            <TurnBar ctx/>
            <ol class="order" aria-label="Turn order" data-testid="order">
                <For each=move || ctx.state.with(|s| s.order.clone()) key=|id| *id let(who)>
                    <Row ctx who ui/>
                </For>
            </ol>
            <Show when=when(flag(move || ctx.state.with(|s| s.order.is_empty())))>
                <p class="card empty-state">"No combatants yet: add saved characters or quick NPCs below."</p>
            </Show>
            {ui.map(|ui| view! { <AddCombatants ctx ui/> })}
            {ui.map(|ui| view! { <Section title=ui.tools_title key="fight.tools">{(ui.tools)(ctx)}</Section> })}
            {use_context::<TableHook>().map(|h| (h.0)(ctx))}
            <Log ctx/>
            <Show when=when(flag(move || ctx.state.with(|s| !s.ended && s.round > 0)))>
                <button class="btn danger wide" on:click=tap(move || ctx.state.with_untracked(State::ending).into_iter().for_each(|e| ctx.act(e)))>"End the fight"</button>
            </Show>
            // Built untracked: the sheet reads the fight as it is built, and must not be rebuilt
            // (closed and reopened) by every change it shows.
            {move || ctx.selected.get().map(|who| untrack(move || view! { <Combatant ctx who ui/> }))}
        </section>
    }
    .into_any()
}

/// Round, whose turn, what the current combatant has left, next turn, undo and redo.
#[component]
fn TurnBar(ctx: EncCtx) -> impl IntoView {
    let encounters = ctx.store;
    let can = move |back: bool| {
        encounters.list.with(|l| {
            l.iter()
                .find(|e| e.id == ctx.id.get_value())
                .is_some_and(|e| if back { e.can_undo() } else { e.can_redo() })
        })
    };
    let next_label = text(move || {
        ctx.state
            .with(|s| match (s.round, s.rules.turns, s.current) {
                (0, _, _) => "Start fight",
                (_, Turns::None, _) => "Next round",
                (_, Turns::EachRound, None) => "Start round",
                _ => "Next turn",
            })
            .to_owned()
    });
    let next = tap(move || {
        let (round, rolloff) = ctx.state.with_untracked(|s| (s.round, s.rules.rolloff_die));
        if round == 0 && rolloff > 0 {
            // Ties left by every key are settled with roll-off dice before the first turn.
            for _ in 0..20 {
                let tied = ctx.state.with_untracked(State::tied);
                if tied.is_empty() {
                    break;
                }
                for id in tied {
                    if let Some(v) =
                        ctx.roll(|src| crate::rules::dice::DiceSource::roll(src, rolloff))
                    {
                        ctx.act(Event::RollOff(id, v));
                    }
                }
            }
        }
        ctx.act(Event::Next);
    });
    let resources = move || {
        ctx.state.with(|s| {
            let Some(c) = s.current.and_then(|id| s.get(id)) else {
                return Vec::new();
            };
            s.rules
                .resources
                .iter()
                .enumerate()
                .filter(|(_, r)| !r.hidden)
                .map(|(i, r)| {
                    (
                        c.id,
                        i,
                        r.name,
                        c.pools.get(i).copied().unwrap_or(0),
                        r.full(c),
                    )
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="card turn-bar">
            <p class="turn-status" data-testid="turn-status" aria-live="polite">{text(move || ctx.state.with(State::status))}</p>
            <ul class="pools" aria-label="Left this turn">
                {move || resources().into_iter().map(|(who, i, name, left, full)| view! {
                    <li>
                        <button class="btn small pool" disabled=left <= 0 on:click=tap(move || ctx.act(Event::Spend(who, i, 1)))>
                            {format!("{name} {left}/{full}")}
                        </button>
                    </li>
                }).collect_view()}
                {move || (resources().len() >= 2 && resources()[0].3 > 0).then(|| {
                    let r = resources();
                    let (who, a, b) = (r[0].0, r[0].2, r[1].2);
                    view! { <li><button class="btn small pool" on:click=tap(move || ctx.act(Event::Trade(who, 0, 1)))>{format!("Trade {a} → {b}")}</button></li> }
                })}
            </ul>
            <div class="actions turn-actions">
                <button class="btn" aria-label="Undo" disabled=flag(move || !can(true)) on:click=tap(move || ctx.step(true))>"↶ Undo"</button>
                <button class="btn" aria-label="Redo" disabled=flag(move || !can(false)) on:click=tap(move || ctx.step(false))>"Redo ↷"</button>
                <button class="btn primary next" data-testid="next" disabled=flag(move || ctx.state.with(|s| s.ended || s.order.is_empty())) on:click=next>{next_label}</button>
            </div>
        </div>
    }
}

/// One combatant in the order: name, vitals, why it stands here, conditions.
#[component]
fn Row(ctx: EncCtx, who: u32, ui: Option<&'static CombatUi>) -> impl IntoView {
    // Memos: a turn changes two rows, not fifty; the others are left as they are.
    let line = Memo::new(move |_| {
        ctx.state.with(|s| {
            let Some(c) = s.get(who) else {
                return (String::new(), String::new(), String::new(), false, false);
            };
            let mut vit = format!("{} {}/{}", s.rules.hp_name, c.hp, s.rules.hp_max(c));
            if c.dead {
                vit.push_str(" · dead");
            } else if s.dying(c) {
                vit.push_str(&format!(" · dying {}/{}", c.death, s.rules.death_steps));
            }
            if let Some(note) = ui.map(|u| (u.row_note)(s, who)).filter(|n| !n.is_empty()) {
                vit.push_str(" · ");
                vit.push_str(&note);
            }
            let pos = s.order.iter().position(|&x| x == who);
            let why = match pos.and_then(|p| s.order.get(p + 1)) {
                Some(&next) if s.rules.has_turns() => {
                    format!("before {}: {}", s.name(next), s.why_before(who, next))
                }
                _ => String::new(),
            };
            (c.name.clone(), vit, why, s.current == Some(who), c.dead)
        })
    });
    let line = move || line.get();
    let current = flag(move || line().3);
    let name = text(move || line().0);
    let chips = Memo::new(move |_| {
        ctx.state.with(|s| {
            s.conditions_of(who)
                .map(|a| (a.name.clone(), s.remaining(a), a.parent.is_some()))
                .collect::<Vec<_>>()
        })
    });
    let chips = move || chips.get();
    view! {
        <li class="fighter" class:current=current class:dead=flag(move || line().4) data-combatant=name>
            <button class="fighter-main" aria-current=text(move || if current.get() { "true".into() } else { "false".into() }) on:click=tap(move || ctx.selected.set(Some(who)))>
                <span class="fighter-name">{name}</span>" "
                <span class="fighter-hp">{text(move || line().1)}</span>" "
                <span class="fighter-why muted">{text(move || line().2)}</span>
            </button>
            <ul class="chips" aria-label="Conditions">
                {move || chips().into_iter().map(|(name, left, implied)| view! {
                    <li class="chip" class:implied=implied>{name}{(!left.is_empty()).then(|| view! { " " <small>{left}</small> })}</li>
                }).collect_view()}
            </ul>
        </li>
    }
}

#[component]
fn AddCombatants(ctx: EncCtx, ui: &'static CombatUi) -> impl IntoView {
    let roster = expect_context::<Roster>();
    let system = ctx.state.with_untracked(|s| s.rules.system);
    let available = move || {
        let linked: Vec<String> = ctx.state.with(|s| {
            s.combatants
                .iter()
                .filter(|c| !c.gone)
                .filter_map(|c| c.link.clone())
                .collect()
        });
        roster.chars.with(|cs| {
            cs.iter()
                .filter(|c| c.sheet.system().id == system && !linked.contains(&c.id))
                .map(|c| (c.id.clone(), c.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Section title="Add combatants" key="fight.add">
            <h3>"Saved characters"</h3>
            <Show when=when(flag(move || available().is_empty()))>
                <p class="muted">"Every saved character of this system is in the fight (or none exists yet)."</p>
            </Show>
            <ul class="add-list">
                {move || available().into_iter().map(|(id, name)| {
                    let label = format!("Add {name}");
                    view! {
                        <li><button class="btn wide" on:click=tap(move || {
                            let join = roster.get(&id).and_then(|ch| {
                                ctx.state.with_untracked(|s| crate::storage::agree::join_event(&ch, s))
                            });
                            if let Some(e) = join {
                                ctx.act(e);
                            }
                        })>{label}</button></li>
                    }
                }).collect_view()}
            </ul>
            <h3>"Quick NPCs"</h3>
            {(ui.npc_form)(ctx)}
        </Section>
    }
}

#[component]
fn Log(ctx: EncCtx) -> impl IntoView {
    // The newest lines drawn; more on a tap, a page at a time (a long fight's log can hold a
    // hundred thousand lines, too many to lay out at once).
    let shown = RwSignal::new(30);
    let hidden = move || ctx.state.with(|s| s.log.len()).saturating_sub(shown.get());
    let lines = move || {
        ctx.state.with(|s| {
            let n = shown.get();
            s.log
                .iter()
                .rev()
                .take(n)
                .map(|l| (s.rules.counter(l.round), l.text.clone()))
                .collect::<Vec<_>>()
        })
    };
    let more = flag(move || hidden() > 0);
    view! {
        <Section title="Combat log" key="fight.log">
            <ol class="fight-log" data-testid="fight-log" data-lines=text(move || ctx.state.with(|s| s.log.len().to_string()))>
                {move || lines().into_iter().map(|(round, t)| view! { <li><small>{format!("R{round}")}</small>" "{t}</li> }).collect_view()}
            </ol>
            <Show when=when(more)>
                <button class="btn small" on:click=tap(move || shown.update(|n| *n += 300))>{text(move || format!("Show {} more ({} not shown)", hidden().min(300), hidden()))}</button>
            </Show>
        </Section>
    }
}

/// Durations offered when a condition is added: (label, value).
const DURATIONS: [(&str, &str); 6] = [
    ("Its default", "default"),
    ("Until removed", "removed"),
    ("Until the start of the anchor's next turn", "start1"),
    ("Until the end of the anchor's next turn", "end1"),
    ("Until the end of the round", "round1"),
    ("For 3 of the anchor's turns", "end3"),
];

fn duration(value: &str, name: &str, who: u32, anchor: u32, s: &State) -> Duration {
    match value {
        "removed" => Duration::Removed,
        "start1" => Duration::Start { who: anchor, n: 1 },
        "end1" => Duration::End { who: anchor, n: 1 },
        "round1" => Duration::Round { n: 1 },
        "end3" => Duration::End { who: anchor, n: 3 },
        _ => s.rules.condition(name).map_or(Duration::Removed, |d| {
            Duration::from_default(d.default, who)
        }),
    }
}

/// One combatant's sheet in the fight: damage and healing (to several at once), conditions,
/// waiting, the system's actions, leaving.
#[component]
fn Combatant(ctx: EncCtx, who: u32, ui: Option<&'static CombatUi>) -> impl IntoView {
    let title = ctx.state.with_untracked(|s| s.name(who).to_owned());
    let amount = RwSignal::new(1);
    let also = RwSignal::new(Vec::<u32>::new());
    let cond = RwSignal::new(
        ctx.state
            .with_untracked(|s| s.rules.conditions.first().map_or("", |c| c.name))
            .to_owned(),
    );
    let dur = RwSignal::new("default".to_owned());
    let anchor = RwSignal::new(who);
    let targets = move || {
        let mut t = also.get();
        t.insert(0, who);
        t
    };
    let others = move || {
        ctx.state.with(|s| {
            s.order
                .iter()
                .filter(|&&id| id != who)
                .filter_map(|&id| s.get(id))
                .map(|c| (c.id, c.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let vit = text(move || {
        ctx.state.with(|s| {
            s.get(who).map_or(String::new(), |c| {
                let mut t = format!("{} {} / {}", s.rules.hp_name, c.hp, s.rules.hp_max(c));
                if c.dead {
                    t.push_str(" · dead");
                } else if s.dying(c) {
                    t.push_str(" · dying");
                }
                t
            })
        })
    });
    let has_death = ctx.state.with_untracked(|s| s.rules.death_steps > 0);
    let conditions = move || {
        ctx.state.with(|s| {
            s.conditions_of(who)
                .map(|a| {
                    let parent = a
                        .parent
                        .and_then(|p| s.conditions.iter().find(|x| x.cid == p))
                        .map(|p| p.name.clone());
                    let text = s.rules.condition(&a.name).map_or("", |d| d.text);
                    (a.cid, a.name.clone(), s.remaining(a), parent, text)
                })
                .collect::<Vec<_>>()
        })
    };
    let catalogue = ctx.state.with_untracked(|s| s.rules.conditions);
    view! {
        <RollSheet title=Signal::stored(title) on_close=Callback::new(move |_| ctx.selected.set(None))>
            {use_context::<TableHook>().map(|h| (h.1)(ctx))}
            <p class="fighter-vitals" data-testid="fighter-vitals">{vit}</p>
            <section class="combat-panel" aria-label="Damage and healing">
                <Stepper label="Amount" value=amount min=0 max=1000 set=crate::ui::kit::set_to(amount) big=true/>
                <div class="actions">
                    <button class="btn danger" data-testid="damage" on:click=tap(move || ctx.act(ctx.state.with_untracked(|s| s.damage_events(targets(), amount.get_untracked()))))>"Damage"</button>
                    <button class="btn" data-testid="heal" on:click=tap(move || ctx.act(ctx.state.with_untracked(|s| s.heal_events(targets(), amount.get_untracked(), !has_death))))>{if has_death { "Heal (natural)" } else { "Heal" }}</button>
                    {has_death.then(|| view! {
                        <button class="btn" data-testid="heal-stabilize" on:click=tap(move || ctx.act(ctx.state.with_untracked(|s| s.heal_events(targets(), amount.get_untracked(), true))))>"Heal (stabilizes)"</button>
                    })}
                </div>
                {draw(Field::Toggles("Also to", choices(move || others().into_iter().map(|(id, name)| (id as i32, name)).collect()), also))}
            </section>
            {ui.map(|ui| (ui.panel)(ctx, who))}
            <section class="combat-panel" aria-label="Conditions">
                <h3>"Conditions"</h3>
                <ul class="cond-list">
                    {move || conditions().into_iter().map(|(cid, name, left, parent, about)| view! {
                        <li class="cond">
                            <span><strong>{name.clone()}</strong>" "<small>{left}</small><br/><small class="muted">{about}</small></span>
                            {match parent {
                                Some(p) => view! { <small class="muted">{format!("implied by {p}")}</small> }.into_any(),
                                None => view! { <button class="btn small" aria-label=format!("Remove {name}") on:click=tap(move || ctx.act(Event::Remove(cid)))>"Remove"</button> }.into_any(),
                            }}
                        </li>
                    }).collect_view()}
                </ul>
                <label class="field-label" for="cond-name">"Add"</label>
                <select id="cond-name" on:change=typed(move |v| cond.set(v))>
                    {catalogue.iter().map(|c| view! { <option value=c.name>{c.name}</option> }).collect_view()}
                </select>
                <label class="field-label" for="cond-dur">"Lasting"</label>
                <select id="cond-dur" on:change=typed(move |v| dur.set(v))>
                    {DURATIONS.map(|(label, v)| view! { <option value=v>{label}</option> }).collect_view()}
                </select>
                <label class="field-label" for="cond-anchor">"Anchor (whose turn counts)"</label>
                <select id="cond-anchor" on:change=typed(move |v| anchor.set(v.parse().unwrap_or(who)))>
                    {move || ctx.state.with(|s| s.order.iter().map(|&id| (id, s.name(id).to_owned())).collect::<Vec<_>>()).into_iter()
                        .map(|(id, name)| view! { <option value=id.to_string() selected=id == who>{name}</option> }).collect_view()}
                </select>
                <button class="btn primary" data-testid="add-condition" on:click=tap(move || {
                    let name = cond.get_untracked();
                    let d = ctx.state.with_untracked(|s| duration(&dur.get_untracked(), &name, who, anchor.get_untracked(), s));
                    ctx.act(Event::Add(who, name, d));
                })>"Add condition"</button>
            </section>
            <section class="combat-panel" aria-label="Place in the order">
                <h3>"Wait"</h3>
                {draw(offers(ctx, who, reorders))}
                <button class="btn small danger" on:click=tap(move || { ctx.act(Event::Leave(who)); ctx.selected.set(None); })>"Remove from the fight"</button>
            </section>
        </RollSheet>
    }
}

/// The turn's offers that move a combatant in the order (the GM's Next button ends turns).
fn reorders(i: &Intent) -> bool {
    matches!(i, Intent::Turn(Turn::WaitLast | Turn::Before(_)))
}
