//! A Tempo fight: initiative entered or rolled with each combatant's check dice; on the
//! acting combatant's sheet, the actions its status and AP allow (the rest with the reason),
//! then the exchange step by step — the opponent, its reaction (on credit, with what it does to
//! the next recovery), a counter-tempo replacement — with the exact odds of both sides' rows
//! before one roll resolves it. The rules (`rules::tempo::combat`) decide everything.

use super::odds_line;
use crate::rules::dice::{parse, roll, Distribution, RollOutcome};
use crate::rules::encounter::{Event, State};
use crate::rules::referee::Intent;
use crate::rules::tempo::combat::{
    aimed, answered, ap, cost, declare_events, declared_as, facing, needs_target, npc, offered,
    reactions, rearm, recovery_preview, replacements, status, status_events, Exchange, Npc,
    DISARMED, T_DICE,
};
use crate::rules::tempo::{Status, ACTIONS, HEALTH_LIMIT};
use crate::rules::vogt::show_dice;
use crate::ui::encounters::EncCtx;
use crate::ui::kit::{choices, dist, fixed, flag, form, offers as kit_offers, text, Field};
use crate::ui::systems::{add_label, npc_names, CombatUi};
use leptos::prelude::*;

pub static UI: CombatUi = CombatUi {
    npc_form,
    panel,
    tools,
    tools_title: "Initiative",
    row_note,
};

/// "On Guard · 8 AP · aimed".
fn row_note(s: &State, who: u32) -> String {
    let Some(c) = s.get(who) else {
        return String::new();
    };
    let mut out = format!("{} · {} AP", status(s, who).name(), ap(s, who));
    if aimed(c) {
        out.push_str(" · aimed");
    }
    if c.stat(DISARMED) > 0 {
        out.push_str(" · disarmed");
    }
    out
}

fn live_others(s: &State, who: u32) -> Vec<(i32, String)> {
    s.order
        .iter()
        .filter(|&&x| x != who && s.get(x).is_some_and(|c| !c.dead && !c.gone))
        .map(|&x| (x as i32, s.name(x).to_owned()))
        .collect()
}

fn roll_init(ctx: EncCtx, who: u32) {
    let dice = ctx
        .state
        .with_untracked(|s| s.get(who).map(|c| c.text(T_DICE).to_owned()));
    let Some(Ok(e)) = dice.map(|d| parse(&d)) else {
        return ctx
            .notices()
            .error("Its check dice are not valid notation.");
    };
    if let Some(r) = ctx.roll(|src| roll(&e, src)) {
        ctx.act(Event::Init(who, vec![r.total as i32]));
    }
}

fn tools(ctx: EncCtx) -> AnyView {
    form(
        "Initiative",
        vec![
            Field::Text(
                "muted",
                "",
                fixed("Highest first; enter it on a combatant's sheet or roll it with its check dice. The round counter starts at 0; at the end of its turn each combatant recovers AP by the table."),
            ),
            Field::Act(
                fixed("Roll initiative for all without one"),
                "btn",
                "roll-all-init",
                flag(move || ctx.state.with(|s| s.round > 0 || s.order.is_empty())),
                Callback::new(move |()| {
                    let ids: Vec<u32> = ctx.state.with_untracked(|s| {
                        s.order
                            .iter()
                            .copied()
                            .filter(|&id| s.get(id).is_some_and(|c| c.init.is_empty()))
                            .collect()
                    });
                    for id in ids {
                        roll_init(ctx, id);
                    }
                }),
            ),
        ],
    )
}

fn npc_form(ctx: EncCtx) -> AnyView {
    let name = RwSignal::new("Brigand".to_owned());
    let [count, cd, acd, gd, health, bonus, melee, ranged] =
        [1, 5, 7, 4, 10, 0, 4, 0].map(RwSignal::new);
    let dice = RwSignal::new("1d10".to_owned());
    let ready = RwSignal::new(false);
    let add = move || {
        let n = Npc {
            defence: cd.get_untracked(),
            armoured: acd.get_untracked(),
            grapple: gd.get_untracked(),
            health: health.get_untracked(),
            dice: dice.get_untracked().trim().to_owned(),
            bonus: bonus.get_untracked(),
            melee: melee.get_untracked(),
            ranged: ranged.get_untracked(),
        };
        let ev = ctx.state.with_untracked(|s| {
            let names = name.with_untracked(|n| npc_names(s, n, count.get_untracked()));
            let first = s.combatants.iter().map(|c| c.id).max().unwrap_or(0) + 1;
            let mut ev = vec![Event::Group(names.iter().map(|x| npc(x, &n)).collect())];
            if ready.get_untracked() {
                for k in 0..names.len() as u32 {
                    ev.extend(status_events(s, first + k, Status::OnGuard));
                }
            }
            Event::Batch(ev)
        });
        ctx.act(ev);
    };
    form(
        "Quick NPC",
        vec![
            Field::Input("Name", name),
            Field::Pair(vec![
                Field::Num("How many", count, 1, 20),
                Field::Num("Health", health, 0, HEALTH_LIMIT),
                Field::Num("Combat defence", cd, -100, 100),
                Field::Num("Armoured defence", acd, -100, 100),
                Field::Num("Grapple defence", gd, -100, 100),
                Field::Num("Check bonus", bonus, -100, 100),
                Field::Num("Melee weapon AP (0: none)", melee, 0, 100),
                Field::Num("Ranged weapon AP (0: none)", ranged, 0, 100),
            ]),
            Field::Input("Check dice (e.g. 1d10)", dice),
            Field::Tick("Initiated or prepared: starts On Guard", ready),
            Field::Act(
                add_label(name, count),
                "btn primary wide",
                "add-npc",
                flag(move || dice.with(|d| !crate::rules::tempo::dice_ok(d))),
                Callback::new(move |()| add()),
            ),
        ],
    )
}

/// The exchange being declared on `who`'s sheet.
#[derive(Clone, Copy)]
struct Declared {
    who: u32,
    act: RwSignal<i32>,
    target: RwSignal<i32>,
    reaction: RwSignal<i32>,
    repl: RwSignal<i32>,
    /// What the last exchange did (cleared when the next is declared).
    result: RwSignal<String>,
}

/// A text of the fight for `d`'s sheet. `fn` pointers rather than closures: one compiled copy
/// of the reactive read for every text of the panel.
fn said(ctx: EncCtx, d: Declared, f: fn(&State, Declared) -> String) -> Signal<String> {
    text(move || ctx.state.with(|s| f(s, d)))
}

fn holds(ctx: EncCtx, d: Declared, f: fn(&State, Declared) -> bool) -> Signal<bool> {
    flag(move || ctx.state.with(|s| f(s, d)))
}

fn listed(
    ctx: EncCtx,
    d: Declared,
    f: fn(&State, Declared) -> Vec<(i32, String)>,
) -> Signal<Vec<(i32, String)>> {
    choices(move || ctx.state.with(|s| f(s, d)))
}

impl Declared {
    /// The declared action's index (0 while none is).
    fn act_at(&self) -> usize {
        self.act.get().max(0) as usize
    }

    /// The opponent's id (0: no one).
    fn tgt(&self) -> u32 {
        self.target.get().max(0) as u32
    }

    fn exchange(&self) -> Option<Exchange> {
        let act = usize::try_from(self.act.get()).ok()?;
        let reaction = usize::try_from(self.reaction.get()).ok();
        let replacement = reaction.and_then(|r| {
            usize::try_from(self.repl.get())
                .ok()
                .and_then(|k| replacements(act, r).get(k).copied())
        });
        Some(Exchange {
            actor: self.who,
            action: act,
            target: u32::try_from(self.target.get()).ok().filter(|&t| t > 0),
            reaction,
            replacement,
        })
    }

    fn reset(&self) {
        self.act.set(-1);
        self.reaction.set(-1);
        self.repl.set(-1);
    }
}

fn panel(ctx: EncCtx, who: u32) -> AnyView {
    let first = ctx
        .state
        .with_untracked(|s| live_others(s, who).first().map_or(0, |x| x.0));
    let d = Declared {
        who,
        act: RwSignal::new(-1),
        target: RwSignal::new(first),
        reaction: RwSignal::new(-1),
        repl: RwSignal::new(-1),
        result: RwSignal::new(String::new()),
    };
    let init = RwSignal::new(0);
    let result = d.result;
    // The target's answer, once given, is the exchange's reaction.
    // (Only when the answer changes: a reaction the GM picks by hand afterwards stays.)
    let got = Memo::new(move |_| {
        let (t, a) = (d.tgt(), d.act.get());
        ctx.state.with(|s| {
            usize::try_from(a)
                .ok()
                .filter(|&a| facing(s, t) == Some((who, a)))
                .and_then(|_| answered(s, t))
        })
    });
    Effect::new(move || {
        if let Some(r) = got.get() {
            d.reaction.set(r.map_or(-1, |r| r as i32));
        }
    });
    // Its own answer to an action declared against it.
    let mut fields = vec![
        Field::If(
            holds(ctx, d, |s, d| {
                facing(s, d.who).is_some() && answered(s, d.who).is_none()
            }),
            vec![
                Field::Text(
                    "verdict",
                    "facing",
                    said(ctx, d, |s, d| {
                        facing(s, d.who).map_or(String::new(), |(from, i)| {
                            format!(
                                "{} declares a {} against {}: its answer?",
                                s.name(from),
                                declared_as(i).to_lowercase(),
                                s.name(d.who)
                            )
                        })
                    }),
                ),
                // The answers the rules offer it (`tempo::referee`), each its own button.
                kit_offers(ctx, who, |i| matches!(i, Intent::Tempo(_))),
            ],
        ),
        Field::Text(
            "chance",
            "status-line",
            said(ctx, d, |s, d| row_note(s, d.who)),
        ),
        Field::If(
            holds(ctx, d, |s, d| {
                s.round == 0 && status(s, d.who) == Status::OffGuard
            }),
            vec![Field::Act(
                fixed("Initiated or prepared: starts On Guard"),
                "btn",
                "prepared",
                Signal::stored(false),
                Callback::new(move |()| {
                    let ev = ctx
                        .state
                        .with_untracked(|s| status_events(s, who, Status::OnGuard));
                    ctx.act(Event::Batch(ev));
                }),
            )],
        ),
        Field::If(
            holds(ctx, d, |s, d| {
                s.round == 0 || s.get(d.who).is_some_and(|c| c.init.is_empty())
            }),
            vec![
                Field::Pair(vec![
                    Field::Num("Initiative", init, -1000, 1000),
                    Field::Act(
                        fixed("Set initiative"),
                        "btn",
                        "set-init",
                        Signal::stored(false),
                        Callback::new(move |()| {
                            ctx.act(Event::Init(who, vec![init.get_untracked()]))
                        }),
                    ),
                ]),
                Field::Act(
                    said(ctx, d, |s, d| {
                        format!(
                            "Roll initiative ({})",
                            s.get(d.who).map_or("", |c| c.text(T_DICE))
                        )
                    }),
                    "btn",
                    "roll-init",
                    Signal::stored(false),
                    Callback::new(move |()| roll_init(ctx, who)),
                ),
            ],
        ),
        Field::Rows(std::sync::Arc::new(move || offers(ctx, d))),
        Field::Text("muted", "refused", said(ctx, d, |s, d| refused(s, d.who))),
    ];
    fields.push(Field::If(
        flag(move || d.act.get() >= 0),
        exchange_fields(ctx, d, result),
    ));
    fields.push(Field::Text("result-line", "exchange-result", result.into()));
    fields.push(Field::If(
        holds(ctx, d, |s, d| {
            s.get(d.who).is_some_and(|c| c.stat(DISARMED) > 0)
        }),
        vec![Field::Act(
            fixed("Takes up a weapon again"),
            "btn",
            "rearm",
            Signal::stored(false),
            Callback::new(move |()| {
                if let Some(e) = ctx.state.with_untracked(|s| rearm(s, who)) {
                    ctx.act(e);
                }
            }),
        )],
    ));
    form("Exchange", fields)
}

/// What cannot be taken now, grouped by why: "Needs Bound: Disarm, Press · Too few AP (0
/// left): Aim 4, Move 2".
fn refused(s: &State, who: u32) -> String {
    if s.round == 0 {
        return "The fight has not started: set initiative, then start it.".into();
    }
    if s.current != Some(who) {
        return "Not its turn: it answers an action declared against it (here, or on the acting combatant's sheet).".into();
    }
    let st = status(s, who);
    let left = ap(s, who);
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (i, r) in offered(s, who) {
        let Err(why) = r else { continue };
        let a = &ACTIONS[i];
        let (key, item) = if !a.allows(st) {
            (format!("Needs {}", a.needs()), a.name.to_owned())
        } else if let Some(c) = s.get(who).and_then(|c| cost(c, i).ok()) {
            (
                format!("Too few AP ({left} left)"),
                format!("{} {c}", a.name),
            )
        } else {
            (why, a.name.to_owned())
        };
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.push(item),
            None => groups.push((key, vec![item])),
        }
    }
    groups
        .into_iter()
        .map(|(k, v)| format!("{k}: {}", v.join(", ")))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One button per action the status and AP allow now.
fn offers(ctx: EncCtx, d: Declared) -> Vec<Field> {
    let list = ctx.state.with(|s| offered(s, d.who));
    list.into_iter()
        .filter_map(|(i, r)| r.ok().map(|c| (i, c)))
        .map(|(i, cost)| {
            Field::Act(
                Signal::stored(format!("{} · {cost} AP", ACTIONS[i].name)),
                "btn action",
                "offer",
                Signal::stored(false),
                Callback::new(move |()| {
                    d.reset();
                    d.result.set(String::new());
                    d.act.set(i as i32);
                    // Keep the opponent if it still can be one; else the first who can.
                    let t = d.target.get_untracked();
                    let ok = ctx.state.with_untracked(|s| {
                        let others = live_others(s, d.who);
                        if others.iter().any(|x| x.0 == t) || (t == 0 && !needs_target(i)) {
                            None
                        } else {
                            Some(others.first().map_or(0, |x| x.0))
                        }
                    });
                    if let Some(t) = ok {
                        d.target.set(t);
                    }
                }),
            )
        })
        .collect()
}

/// The counter-tempo replacements of the declared action after its reaction: (index, label
/// with the extra AP or the reason it is refused, affordable).
fn swaps(s: &State, d: Declared) -> Vec<(usize, String, bool)> {
    let (Ok(a), Ok(r)) = (
        usize::try_from(d.act.get()),
        usize::try_from(d.reaction.get()),
    ) else {
        return Vec::new();
    };
    let Some(base) = d.exchange() else {
        return Vec::new();
    };
    let first = Exchange {
        replacement: None,
        ..base
    }
    .costs(s)
    .map_or(0, |c| c.0);
    replacements(a, r)
        .into_iter()
        .enumerate()
        .map(|(k, x)| {
            let bonus = if x.bonus != 0 {
                format!(" at {:+}", x.bonus)
            } else {
                String::new()
            };
            let name = ACTIONS[x.action].name;
            match (Exchange {
                replacement: Some(x),
                ..base
            })
            .costs(s)
            {
                Ok((all, _)) => (k, format!("{name}{bonus} · +{} AP", all - first), true),
                Err(why) => (k, format!("{name} ({why})"), false),
            }
        })
        .collect()
}

fn exchange_fields(ctx: EncCtx, d: Declared, result: RwSignal<String>) -> Vec<Field> {
    vec![
        Field::Text(
            "chance",
            "declared",
            said(ctx, d, |_, d| {
                let a = &ACTIONS[d.act_at()];
                let shown = declared_as(d.act_at());
                if shown == a.name {
                    format!("Declared: {} — {}", a.name, a.text)
                } else {
                    format!(
                        "Declared: {} (the others see a {}) — {}",
                        a.name,
                        shown.to_lowercase(),
                        a.text
                    )
                }
            }),
        ),
        Field::Choose(
            "Against",
            listed(ctx, d, |s, d| {
                let mut o = live_others(s, d.who);
                let t = d.target.get();
                if !needs_target(d.act_at()) {
                    o.insert(0, (0, "No one in particular".into()));
                } else if t <= 0 {
                    o.insert(0, (t, "Pick an opponent".into()));
                }
                // An opponent who has left or died stays shown as the choice, so picking
                // another one is a change the select reports.
                if t > 0 && o.iter().all(|x| x.0 != t) {
                    o.insert(0, (t, format!("{} (out of the fight)", s.name(t as u32))));
                }
                o
            }),
            d.target.into(),
            Callback::new(move |v| {
                d.target.set(v);
                d.reaction.set(-1);
                d.repl.set(-1);
            }),
        ),
        Field::If(
            holds(ctx, d, |s, d| {
                let t = d.tgt();
                t > 0
                    && s.current == Some(d.who)
                    && facing(s, t) != Some((d.who, d.act_at()))
                    && !reactions(s, t, d.act_at()).is_empty()
            }),
            vec![Field::Act(
                said(ctx, d, |s, d| {
                    format!("Declare it: {} answers", s.name(d.tgt()))
                }),
                "btn",
                "declare",
                Signal::stored(false),
                Callback::new(move |()| {
                    let ev = ctx
                        .state
                        .with_untracked(|s| declare_events(s, d.who, d.act_at(), d.tgt()));
                    ctx.act(ev);
                }),
            )],
        ),
        Field::Text(
            "muted",
            "answer-wait",
            said(ctx, d, |s, d| {
                let t = d.tgt();
                match answered(s, t) {
                    _ if facing(s, t) != Some((d.who, d.act_at())) => String::new(),
                    None => format!("Waiting for {}’s answer (or pick it below).", s.name(t)),
                    Some(_) => format!("{} has answered.", s.name(t)),
                }
            }),
        ),
        Field::If(
            holds(ctx, d, |s, d| {
                d.tgt() > 0 && !reactions(s, d.tgt(), d.act_at()).is_empty()
            }),
            vec![Field::Choose(
                "Their reaction",
                listed(ctx, d, |s, d| {
                    let mut o = vec![(-1, "No reaction".to_owned())];
                    o.extend(
                        reactions(s, d.tgt(), d.act_at())
                            .into_iter()
                            .filter_map(|(r, c)| {
                                c.ok()
                                    .map(|c| (r as i32, format!("{} · {c} AP", ACTIONS[r].name)))
                            }),
                    );
                    o
                }),
                d.reaction.into(),
                Callback::new(move |v| {
                    d.reaction.set(v);
                    d.repl.set(-1);
                }),
            )],
        ),
        Field::Text(
            "muted",
            "reaction-note",
            said(ctx, d, |s, d| {
                let t = d.tgt();
                if t == 0 {
                    return String::new();
                }
                let mut out = Vec::new();
                let r = d.reaction.get();
                if let Some(c) = s
                    .get(t)
                    .filter(|_| r >= 0)
                    .and_then(|c| cost(c, r as usize).ok())
                {
                    out.push(format!("{}: {}", s.name(t), recovery_preview(s, t, c)));
                }
                let no: Vec<String> = reactions(s, t, d.act_at())
                    .into_iter()
                    .filter_map(|(r, c)| c.err().map(|why| format!("{} ({why})", ACTIONS[r].name)))
                    .collect();
                if !no.is_empty() {
                    out.push(format!("Cannot react with: {}", no.join(", ")));
                }
                out.join(" · ")
            }),
        ),
        Field::If(
            holds(ctx, d, |_, d| {
                let r = d.reaction.get();
                r >= 0 && !replacements(d.act_at(), r as usize).is_empty()
            }),
            vec![
                Field::Pick(
                    "Replace with (counter-tempo)",
                    listed(ctx, d, |s, d| {
                        std::iter::once((-1, format!("Keep the {}", ACTIONS[d.act_at()].name)))
                            .chain(
                                swaps(s, d)
                                    .into_iter()
                                    .filter_map(|(k, label, ok)| ok.then_some((k as i32, label))),
                            )
                            .collect()
                    }),
                    d.repl,
                ),
                Field::Text(
                    "muted",
                    "replace-note",
                    said(ctx, d, |s, d| {
                        let no: Vec<String> = swaps(s, d)
                            .into_iter()
                            .filter(|x| !x.2)
                            .map(|x| x.1)
                            .collect();
                        if no.is_empty() {
                            String::new()
                        } else {
                            format!("Cannot replace with: {}", no.join(", "))
                        }
                    }),
                ),
            ],
        ),
        Field::Text(
            "chance",
            "exchange-cost",
            said(ctx, d, |s, d| {
                let Some(x) = d.exchange() else {
                    return String::new();
                };
                match x.costs(s) {
                    Ok((a, r)) => {
                        let mut out = format!("{} pays {a} AP", s.name(d.who));
                        if x.replacement.is_some() {
                            out.push_str(" in all (the larger of the two)");
                        }
                        if let Some(t) = x.target.filter(|_| x.reaction.is_some()) {
                            out.push_str(&format!(" · {} pays {r} AP", s.name(t)));
                        }
                        out
                    }
                    Err(why) => format!("Cannot resolve: {why}"),
                }
            }),
        ),
        Field::Text(
            "chance",
            "exchange-odds",
            said(ctx, d, |s, d| {
                let Some(x) = d.exchange() else {
                    return String::new();
                };
                let Some((mine, theirs)) = x.odds(s) else {
                    return "The check dice are not valid notation.".into();
                };
                let net = x.net(s).unwrap_or_else(|| Distribution::point(0));
                let mut out = format!(
                    "Net {} to {} · {} ({} {:+}): {}",
                    net.min(),
                    net.max(),
                    x.acting().name,
                    s.name(d.who),
                    x.actor_bonus(s),
                    odds_line(&mine)
                );
                if let (Some(t), Some(r)) = (x.target, x.reaction) {
                    out.push_str(&format!(
                        "\n{} ({} {:+}): {}",
                        ACTIONS[r].name,
                        s.name(t),
                        x.reactor_bonus(s),
                        odds_line(&theirs)
                    ));
                }
                out
            }),
        ),
        Field::Chart(
            dist(move || {
                ctx.state
                    .with(|s| d.exchange().and_then(|x| x.net(s)))
                    .unwrap_or_else(|| Distribution::point(0))
            }),
            crate::ui::kit::target(|| Some(0)),
        ),
        Field::Act(
            fixed("Roll and resolve"),
            "btn primary roll-btn",
            "resolve",
            holds(ctx, d, |s, d| {
                d.exchange().is_none_or(|x| x.costs(s).is_err())
            }),
            Callback::new(move |()| resolve(ctx, d, result)),
        ),
        Field::Act(
            fixed("Cancel"),
            "btn small",
            "cancel-exchange",
            Signal::stored(false),
            Callback::new(move |()| d.reset()),
        ),
    ]
}

fn resolve(ctx: EncCtx, d: Declared, result: RwSignal<String>) {
    let Some(x) = d.exchange() else {
        return;
    };
    let dice = |s: &State, w: Option<u32>, check: bool| {
        w.filter(|_| check)
            .and_then(|w| s.get(w))
            .and_then(|c| parse(c.text(T_DICE)).ok())
    };
    let (mine, theirs) = ctx.state.with_untracked(|s| {
        (
            dice(s, Some(d.who), x.acting().check),
            dice(s, x.target, x.reaction.is_some_and(|r| ACTIONS[r].check)),
        )
    });
    let Some((a, b)) = ctx.roll(|src| (mine.map(|e| roll(&e, src)), theirs.map(|e| roll(&e, src))))
    else {
        return;
    };
    let faces = |r: &Option<RollOutcome>| r.as_ref().map(|r| (r.total, show_dice(r)));
    let (fa, fb) = (faces(&a), faces(&b));
    let ev = ctx.state.with_untracked(|s| {
        x.resolve(
            s,
            fa.as_ref().map(|(t, f)| (*t, f.as_str())),
            fb.as_ref().map(|(t, f)| (*t, f.as_str())),
        )
    });
    match ev {
        Ok(ev) => {
            if let Event::Batch(list) = &ev {
                let notes: Vec<&str> = list
                    .iter()
                    .filter_map(|e| match e {
                        Event::Note(t) => Some(t.as_str()),
                        _ => None,
                    })
                    .collect();
                result.set(notes.join("\n"));
            }
            ctx.act(ev);
            d.reset();
        }
        Err(why) => result.set(format!("Cannot resolve: {why}")),
    }
}
