//! A Tempo fight: initiative entered or rolled with each combatant's check dice; on the
//! acting combatant's sheet, the actions its status and AP allow (the rest with the reason),
//! then the exchange: the opponent, the declaration it answers (here for an NPC on the GM's
//! phone, or on its player's phone), a counter-tempo replacement, with the exact odds of both
//! sides' rows before one roll. Every tap is an intent the rules (`rules::tempo::referee`)
//! decide and resolve; the panel builds no fight event but initiative.

use super::odds_line;
use crate::rules::dice::{parse, roll, Distribution};
use crate::rules::encounter::{Event, State};
use crate::rules::referee::{self, Intent};
use crate::rules::tempo::combat::{
    aimed, answered, ap, cost, declared_as, declared_by, facing, needs_target, npc, offered,
    open_to, partner, recovery_preview, replacements, status, status_events, Exchange, Npc,
    DISARMED, T_DICE,
};
use crate::rules::tempo::referee::{exchange_of, Action};
use crate::rules::tempo::{Status, ACTIONS, HEALTH_LIMIT};
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
    let [count, cd, acd, gd, health, bonus, melee, ranged, movement, aimed] =
        [1, 5, 7, 4, 10, 0, 4, 0, 4, 0].map(RwSignal::new);
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
            movement: movement.get_untracked(),
            aimed: aimed.get_untracked(),
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
                Field::Num("Base combat movement", movement, 0, 100),
                Field::Num("Aimed accuracy", aimed, -100, 100),
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

/// The exchange being chosen on `who`'s sheet: the action, the opponent, the counter-tempo
/// replacement. The reaction is the opponent's own answer, read from the fight.
#[derive(Clone, Copy)]
struct Declared {
    who: u32,
    act: RwSignal<i32>,
    target: RwSignal<i32>,
    repl: RwSignal<i32>,
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

    /// The intent a tap sends: the action against the opponent, with its replacement (0: none;
    /// `swap` false: as the rules offer it, without).
    fn intent(&self, declare: bool, swap: bool) -> Intent {
        let (action, target) = (self.act_at() as u32, self.tgt());
        Intent::Tempo(if declare {
            Action::Declare { action, target }
        } else {
            Action::Exchange {
                action,
                target,
                replacement: if swap {
                    (self.repl.get() + 1).max(0) as u32
                } else {
                    0
                },
            }
        })
    }

    fn exchange(&self, s: &State) -> Option<Exchange> {
        let k = (self.repl.get() + 1).max(0) as u32;
        (self.act.get() >= 0).then(|| exchange_of(s, self.who, self.act_at() as u32, self.tgt(), k))
    }

    /// The rules' reason the declaration (or the exchange) cannot be now.
    fn why(&self, s: &State, declare: bool) -> Option<String> {
        let want = self.intent(declare, false);
        referee::offers(s, self.who)
            .into_iter()
            .find(|o| o.action == want)
            .map_or(Some("pick an opponent in the fight".into()), |o| o.refused)
    }

    fn reset(&self) {
        self.act.set(-1);
        self.repl.set(-1);
    }
}

fn panel(ctx: EncCtx, who: u32) -> AnyView {
    // The one it is locked with first, else the first other in the order.
    let first = ctx.state.with_untracked(|s| {
        partner(s, who).map_or_else(
            || live_others(s, who).first().map_or(0, |x| x.0),
            |p| p as i32,
        )
    });
    let d = Declared {
        who,
        act: RwSignal::new(-1),
        target: RwSignal::new(first),
        repl: RwSignal::new(-1),
    };
    let init = RwSignal::new(0);
    // A declaration binds: the sheet shows the exchange it declared (here or on another phone).
    Effect::new(move || {
        if let Some((t, i)) = ctx.state.with(|s| declared_by(s, who)) {
            d.act.set(i as i32);
            d.target.set(t as i32);
        }
    });
    let fields = vec![
        // Its own answer to an action declared against it, or its reaction to one declared
        // against another.
        Field::If(
            holds(ctx, d, |s, d| open_to(s, d.who).is_some()),
            vec![
                Field::Text(
                    "verdict",
                    "facing",
                    said(ctx, d, |s, d| {
                        open_to(s, d.who).map_or(String::new(), |x| x.0)
                    }),
                ),
                answer_fields(ctx, who),
            ],
        ),
        Field::Text(
            "chance",
            "status-line",
            said(ctx, d, |s, d| row_note(s, d.who)),
        ),
        // Before the start, and initiative, are the GM's (a player's phone asks nothing
        // before the fight has started).
        Field::If(
            flag(move || {
                ctx.ask.is_none()
                    && ctx
                        .state
                        .with(|s| s.round == 0 && status(s, who) == Status::OffGuard)
            }),
            vec![Field::Act(
                fixed("Initiated or prepared: starts On Guard"),
                "btn",
                "prepared",
                Signal::stored(false),
                Callback::new(move |()| ctx.intend(who, Intent::Tempo(Action::Prepared))),
            )],
        ),
        Field::If(
            flag(move || {
                ctx.ask.is_none()
                    && ctx
                        .state
                        .with(|s| s.round == 0 || s.get(who).is_some_and(|c| c.init.is_empty()))
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
        Field::If(flag(move || d.act.get() >= 0), exchange_fields(ctx, d)),
        Field::Text(
            "result-line",
            "exchange-result",
            said(ctx, d, last_exchange),
        ),
        Field::If(
            holds(ctx, d, |s, d| {
                s.get(d.who).is_some_and(|c| c.stat(DISARMED) > 0)
            }),
            vec![Field::Act(
                fixed("Takes up a weapon again"),
                "btn",
                "rearm",
                Signal::stored(false),
                Callback::new(move |()| ctx.intend(who, Intent::Tempo(Action::Rearm))),
            )],
        ),
    ];
    form("Exchange", fields)
}

/// The answers the rules offer `who` (`tempo::referee`), each its own button, and what paying
/// on credit does to its next recovery.
fn answer_fields(ctx: EncCtx, who: u32) -> Field {
    Field::Rows(std::sync::Arc::new(move || {
        vec![
            kit_offers(ctx, who, |i| matches!(i, Intent::Tempo(Action::Answer(_)))),
            Field::Text(
                "muted",
                "reaction-note",
                text(move || {
                    ctx.state.with(|s| {
                        let Some((_, list)) = open_to(s, who) else {
                            return String::new();
                        };
                        // Each cost once, in the order the reactions come.
                        let mut out: Vec<String> = Vec::new();
                        for c in list.into_iter().filter_map(|x| x.1.ok()) {
                            let line = format!("{c} AP: {}", recovery_preview(s, who, c));
                            if !out.contains(&line) {
                                out.push(line);
                            }
                        }
                        out.join(" · ")
                    })
                }),
            ),
        ]
    }))
}

/// The lines of `d`'s latest exchange, read from the log (so every phone reads the same).
fn last_exchange(s: &State, d: Declared) -> String {
    let me = format!("{}: ", s.name(d.who));
    let Some(ev) = s
        .log
        .iter()
        .rev()
        .find(|l| l.text.starts_with(&me) && l.text.contains(" net "))
        .map(|l| l.ev)
    else {
        return String::new();
    };
    s.log
        .iter()
        .filter(|l| l.ev == ev)
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What cannot be taken now, grouped by why: "Needs Bound: Disarm, Press · Too few AP (0
/// left): Aim 4, Move 2".
fn refused(s: &State, who: u32) -> String {
    if s.round == 0 {
        return "The fight has not started: set initiative, then start it.".into();
    }
    if s.current != Some(who) {
        return "Not its turn: it may react to what the acting combatant declares (against it: here, or on that one's sheet).".into();
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

/// One button per action the status and AP allow now (none once one is declared: it is bound).
fn offers(ctx: EncCtx, d: Declared) -> Vec<Field> {
    let list = ctx.state.with(|s| {
        if declared_by(s, d.who).is_some() {
            Vec::new()
        } else {
            offered(s, d.who)
        }
    });
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

/// The counter-tempo replacements of the declared action after its answer: (index, label
/// with the extra AP or the reason it is refused, affordable).
fn swaps(s: &State, d: Declared) -> Vec<(usize, String, bool)> {
    let Some(base) = d.exchange(s) else {
        return Vec::new();
    };
    let Some(r) = base.reaction else {
        return Vec::new();
    };
    let first = Exchange {
        replacement: None,
        ..base.clone()
    }
    .costs(s)
    .map_or(0, |c| c.0);
    replacements(base.action, r)
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
                ..base.clone()
            })
            .costs(s)
            {
                Ok((all, _)) => (k, format!("{name}{bonus} · +{} AP", all - first), true),
                Err(why) => (k, format!("{name} ({why})"), false),
            }
        })
        .collect()
}

fn exchange_fields(ctx: EncCtx, d: Declared) -> Vec<Field> {
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
                // Bound by a declaration: its opponent stays.
                if ctx
                    .state
                    .with_untracked(|s| declared_by(s, d.who))
                    .is_none()
                {
                    d.target.set(v);
                    d.repl.set(-1);
                }
            }),
        ),
        Field::If(
            holds(ctx, d, |s, d| {
                declared_by(s, d.who).is_none() && d.why(s, true).is_none()
            }),
            vec![Field::Act(
                said(ctx, d, |s, d| {
                    format!("Declare it: {} answers", s.name(d.tgt()))
                }),
                "btn",
                "declare",
                Signal::stored(false),
                Callback::new(move |()| ctx.intend(d.who, d.intent(true, false))),
            )],
        ),
        // On the GM's phone, the opponent's answer (an NPC's, or a player's away from the table).
        Field::If(
            flag(move || {
                ctx.ask.is_none()
                    && ctx.state.with(|s| {
                        let t = d.tgt();
                        facing(s, t) == Some((d.who, d.act_at())) && answered(s, t).is_none()
                    })
            }),
            vec![Field::Rows(std::sync::Arc::new(move || {
                vec![answer_fields(ctx, d.tgt())]
            }))],
        ),
        Field::Text(
            "muted",
            "answer-wait",
            said(ctx, d, |s, d| {
                let t = d.tgt();
                let mut out = match answered(s, t) {
                    _ if facing(s, t) != Some((d.who, d.act_at())) => return String::new(),
                    None => format!("Waiting for {}’s answer.", s.name(t)),
                    Some(None) => format!("{} does not react.", s.name(t)),
                    Some(Some(r)) => format!("{} answers with {}.", s.name(t), ACTIONS[r].name),
                };
                for (w, r) in d.exchange(s).map(|x| x.also).unwrap_or_default() {
                    out.push_str(&format!(" {} reacts too: {}.", s.name(w), ACTIONS[r].name));
                }
                out
            }),
        ),
        Field::If(
            holds(ctx, d, |s, d| !swaps(s, d).is_empty()),
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
                let Some(x) = d.exchange(s) else {
                    return String::new();
                };
                let me = s.name(d.who);
                match x.costs(s) {
                    Ok((a, r)) => {
                        let first = s.get(d.who).and_then(|c| cost(c, x.action).ok());
                        let mut out = match first.filter(|_| x.paid(s)) {
                            Some(f) if a > f => {
                                format!("{me} paid {f} AP declaring, pays {} more", a - f)
                            }
                            Some(f) => format!("{me} paid {f} AP declaring"),
                            None => format!("{me} pays {a} AP"),
                        };
                        if x.replacement.is_some() {
                            out.push_str(" (the larger of the two in all)");
                        }
                        if let Some(t) = x.target.filter(|_| x.reaction.is_some()) {
                            let verb = if x.reaction_paid(s) { "paid" } else { "pays" };
                            out.push_str(&format!(" · {} {verb} {r} AP", s.name(t)));
                        }
                        let also = x.also_costs(s).unwrap_or_default();
                        for ((w, _), c) in x.also.iter().zip(also) {
                            out.push_str(&format!(" · {} paid {c} AP", s.name(*w)));
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
                let Some(x) = d.exchange(s) else {
                    return String::new();
                };
                // Against someone whose numbers the GM keeps: the GM's phone reckons it.
                if x.target.is_some_and(|t| s.veiled.contains(&t))
                    || x.also_odds(s)
                        .unwrap_or_default()
                        .iter()
                        .any(|(w, ..)| s.veiled.contains(w))
                {
                    return crate::rules::referee::GM_ODDS.into();
                }
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
                // Each other reactor's rows, from its own result less the actor's.
                for (w, r, rows) in x.also_odds(s).unwrap_or_default() {
                    out.push_str(&format!(
                        "\n{} ({} {:+}, too): {}",
                        ACTIONS[r].name,
                        s.name(w),
                        x.reaction_bonus(s, w, r),
                        odds_line(&rows)
                    ));
                }
                out
            }),
        ),
        Field::Chart(
            dist(move || {
                ctx.state
                    .with(|s| d.exchange(s).and_then(|x| x.net(s)))
                    .unwrap_or_else(|| Distribution::point(0))
            }),
            crate::ui::kit::target(|| Some(0)),
        ),
        Field::Act(
            fixed("Roll and resolve"),
            "btn primary roll-btn",
            "resolve",
            holds(ctx, d, |s, d| {
                d.why(s, false).is_some() || d.exchange(s).is_none_or(|x| x.costs(s).is_err())
            }),
            Callback::new(move |()| ctx.intend(d.who, d.intent(false, true))),
        ),
        Field::Text(
            "muted",
            "exchange-why",
            said(ctx, d, |s, d| {
                d.why(s, false)
                    .filter(|_| d.why(s, true).is_some() || declared_by(s, d.who).is_some())
                    .map_or_else(String::new, |w| format!("Not now: {w}."))
            }),
        ),
        Field::If(
            holds(ctx, d, |s, d| declared_by(s, d.who).is_none()),
            vec![Field::Act(
                fixed("Cancel"),
                "btn small",
                "cancel-exchange",
                Signal::stored(false),
                Callback::new(move |()| d.reset()),
            )],
        ),
    ]
}
