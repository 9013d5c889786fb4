//! Heimr combat views: initiative for everyone, and on a combatant's sheet its fatigue and
//! shown defence, pre-rolling the next defence, the combat actions with their types, attacks
//! with every modifier and their exact chances, effects, falling, stabilising and its gear.
//! The rules (`rules::heimr::combat`) decide everything; these views only ask and show.

use crate::rules::dice::DiceSource;
use crate::rules::encounter::{Event, State};
use crate::rules::heimr::combat::{
    action_events, anyone, arm_events, attack_setup, attack_steps, blind_spot_setup, brawl_chances,
    cp, describe, dodged, dying, effect_events, fall_cr, fall_events, fatigue_events,
    fatigue_rise_now, guard_events, hit_chance, hit_vs_roll, initiative_events, intercept_events,
    interceptor, luck_shot, npc, pass_on_chances, resolve_attack, shown, shown_text, stabilise,
    standing, trigger_events, turns_of, weapon, Defence, Effect, Kind, Npc, Options, Part, Redone,
    Shown, ACTIONS, AGILITY_C, AGILITY_P, BASE, BINDS, FATIGUE, GUARD_ACTION, SHIELD, SHIELDS,
    WEAPON, WEAPONS, WEAPON_C, WEAPON_P, WILL,
};
use crate::rules::heimr::{roll_challenge, success_chance, Injury};
use crate::storage::character::Sheet;
use crate::ui::encounters::EncCtx;
use crate::ui::format::percent;
use crate::ui::kit::{choices, fixed, flag, form, numbered_options as named, text, Field};
use crate::ui::systems::{add_label, numbered, CombatUi};
use leptos::prelude::*;

pub static UI: CombatUi = CombatUi {
    npc_form,
    panel,
    tools,
    tools_title: "Initiative",
    row_note,
};

fn row_note(s: &State, who: u32) -> String {
    s.get(who).map_or(String::new(), |c| {
        format!("fatigue {} · {}", c.stat(FATIGUE), shown_text(s, who))
    })
}

fn act(
    label: Signal<String>,
    class: &'static str,
    id: &'static str,
    off: Signal<bool>,
    run: impl Fn() + Send + Sync + 'static,
) -> Field {
    Field::Act(label, class, id, off, Callback::new(move |()| run()))
}

fn never() -> Signal<bool> {
    Signal::stored(false)
}

fn npc_form(ctx: EncCtx) -> AnyView {
    let name = RwSignal::new("Bandit".to_owned());
    let d = Npc::default();
    let [count, hp, will, dex, base, wc, wp, ac, ap, bc, bp] = [
        1,
        d.hp,
        d.willpower,
        d.dex,
        d.base_fatigue,
        d.weapon_cp.0,
        d.weapon_cp.1,
        d.agility_cp.0,
        d.agility_cp.1,
        d.brawl_cp.0,
        d.brawl_cp.1,
    ]
    .map(RwSignal::new);
    let (wpn, shd) = (RwSignal::new(d.weapon as i32), RwSignal::new(0));
    let add = move || {
        let base_name = name.get_untracked().trim().to_owned();
        let base_name = if base_name.is_empty() {
            "NPC".into()
        } else {
            base_name
        };
        let n = Npc {
            hp: hp.get_untracked(),
            willpower: will.get_untracked(),
            dex: dex.get_untracked(),
            base_fatigue: base.get_untracked(),
            weapon: wpn.get_untracked() as usize,
            shield: shd.get_untracked() as usize,
            weapon_cp: (wc.get_untracked(), wp.get_untracked()),
            shield_cp: (wc.get_untracked(), wp.get_untracked()),
            agility_cp: (ac.get_untracked(), ap.get_untracked()),
            brawl_cp: (bc.get_untracked(), bp.get_untracked()),
        };
        let names = ctx
            .state
            .with_untracked(|s| numbered(s, &base_name, count.get_untracked().max(1) as usize));
        ctx.act(Event::Group(names.iter().map(|x| npc(x, &n)).collect()));
    };
    let label = add_label(name, count);
    let nums = [
        ("How many", count, 1, 20),
        ("HP", hp, 1, 100),
        ("Willpower", will, 0, 50),
        ("Dexterity", dex, -10, 10),
        ("Base fatigue", base, 1, 20),
        ("Weapon C", wc, -10, 10),
        ("Weapon P", wp, -10, 20),
        ("Agility C", ac, -10, 10),
        ("Agility P", ap, -10, 20),
        ("Brawl C", bc, -10, 10),
        ("Brawl P", bp, -10, 20),
    ];
    form(
        "Quick NPC",
        vec![
            Field::Input("Name", name),
            Field::Pair(nums.map(|(l, v, a, b)| Field::Num(l, v, a, b)).into()),
            Field::Pick("Weapon", named(WEAPONS.iter().map(weapon_label)), wpn),
            Field::Pick("Shield", named(SHIELDS.iter().map(shield_label)), shd),
            act(label, "btn primary wide", "add-npc", never(), add),
        ],
    )
}

fn weapon_label(w: &crate::rules::heimr::combat::Weapon) -> String {
    let reach = if w.range > 0 {
        format!(", range {}", w.range)
    } else {
        String::new()
    };
    format!("{} (damage {}, P +{}{reach})", w.name, w.damage, w.bonus)
}

fn shield_label(s: &(&str, i32)) -> String {
    format!("{} (P +{})", s.0, s.1)
}

/// Initiative for everyone before the first round.
fn tools(ctx: EncCtx) -> AnyView {
    let started = flag(move || ctx.state.with(|s| s.round > 0 || s.order.is_empty()));
    form(
        "Initiative",
        vec![
            Field::Text(
                "muted",
                "",
                fixed("Each rolls C = dexterity, P = current willpower; highest first, ties to the higher willpower."),
            ),
            act(
                fixed("Roll initiative for everyone"),
                "btn primary",
                "roll-initiative",
                started,
                move || {
                    if let Some(e) =
                        ctx.state.with_untracked(|s| ctx.roll(|src| initiative_events(s, src)))
                    {
                        ctx.act(e);
                    }
                },
            ),
        ],
    )
}

fn panel(ctx: EncCtx, who: u32) -> AnyView {
    view! {
        {defend(ctx, who)}
        {actions(ctx, who)}
        {attack(ctx, who)}
        {effects(ctx, who)}
        {fall(ctx, who)}
        {gear(ctx, who)}
    }
    .into_any()
}

/// Fatigue, the shown defence, stabilising, and pre-rolling the next defence.
fn defend(ctx: EncCtx, who: u32) -> AnyView {
    let status = text(move || {
        ctx.state.with(|s| {
            s.get(who).map_or(String::new(), |c| {
                format!(
                    "Fatigue {} (base {}) · willpower {} · {} · defence: {} · the next physical roll raises fatigue: {}",
                    c.stat(FATIGUE),
                    c.stat(BASE),
                    c.stat(WILL),
                    Injury::from_hp(c.hp).name(),
                    shown_text(s, who),
                    percent(fatigue_rise_now(c))
                )
            })
        })
    });
    let is_dying = flag(move || ctx.state.with(|s| dying(s, who)));
    let mut fields = vec![
        Field::Text("muted", "heimr-status", status),
        Field::If(
            is_dying,
            vec![act(
                fixed("Stabilise (stops the clock)"),
                "btn primary",
                "stabilise",
                never(),
                move || ctx.act(ctx.state.with_untracked(|s| stabilise(s, who))),
            )],
        ),
        Field::Text(
            "muted",
            "",
            fixed("Roll the next defence at the end of the turn and after each use: attackers see it before they choose."),
        ),
    ];
    // Each defence as the rules offer it (`heimr::referee`): out of its turn too, never again
    // while one it showed stands.
    fields.push(crate::ui::kit::offers(ctx, who, |i| {
        matches!(i, crate::rules::referee::Intent::Heimr(_))
    }));
    form("Fatigue and defence", fields)
}

/// The Guard action asks whom.
const GUARD: i32 = GUARD_ACTION as i32;

fn actions(ctx: EncCtx, who: u32) -> AnyView {
    let pick = RwSignal::new(0);
    let ward = RwSignal::new(-1);
    let why = RwSignal::new(String::new());
    let run = move |e: Result<Event, String>| match e {
        Ok(e) => {
            ctx.act(e);
            why.set(String::new());
        }
        Err(e) => why.set(format!("Not now: {e}.")),
    };
    let readied = flag(move || {
        ctx.state
            .with(|s| s.has(who, "Readied") && s.current.is_some_and(|c| c != who))
    });
    form(
        "Actions",
        vec![
            Field::Pick(
                "Action",
                named(ACTIONS.iter().map(|(n, t)| format!("{n} · {}", t.name()))),
                pick,
            ),
            Field::If(
                flag(move || pick.get() == GUARD),
                vec![Field::Pick(
                    "Guard whom",
                    choices(move || {
                        ctx.state.with(|s| {
                            std::iter::once((-1, "A place or an object".to_owned()))
                                .chain(s.order.iter().filter(|&&x| x != who).filter_map(|&x| {
                                    s.get(x)
                                        .filter(|c| !c.dead)
                                        .map(|c| (x as i32, c.name.clone()))
                                }))
                                .collect()
                        })
                    }),
                    ward,
                )],
            ),
            act(
                fixed("Take action"),
                "btn primary",
                "take-action",
                never(),
                move || {
                    run(ctx.state.with_untracked(|s| match pick.get_untracked() {
                        // No one named: a place or an object is guarded (the table's call).
                        GUARD if ward.get_untracked() >= 0 => {
                            guard_events(s, who, ward.get_untracked() as u32)
                        }
                        i => action_events(s, who, i as usize),
                    }))
                },
            ),
            Field::Text("field-error", "action-error", why.into()),
            Field::If(
                readied,
                vec![act(
                    fixed("Its trigger happened: act now"),
                    "btn",
                    "trigger",
                    never(),
                    move || run(ctx.state.with_untracked(|s| trigger_events(s, who))),
                )],
            ),
        ],
    )
}

/// An attack as planned before the roll: its options, the target and the rest of its cluster,
/// the guard that steps in, C and P, and the setup in words.
struct Plan {
    o: Options,
    m: Vec<u32>,
    guard: Option<u32>,
    /// The blind-spot defence's C, P and the defender's fatigue, rolled with the attack.
    redo: Option<(i32, i32, i32)>,
    c: i32,
    p: i32,
    text: String,
}

fn attack(ctx: EncCtx, who: u32) -> AnyView {
    let target = RwSignal::new(
        ctx.state
            .with_untracked(|s| s.order.iter().copied().find(|&x| x != who))
            .unwrap_or(0) as i32,
    );
    let [kind, part, distance, height, concealment, c_bonus, p_bonus] = [0; 7].map(RwSignal::new);
    let [luck, hiding, blind, bare] = [false; 4].map(RwSignal::new);
    let cluster = RwSignal::new(Vec::<u32>::new());
    let result = RwSignal::new(String::new());
    let options = move || Options {
        kind: [Kind::Weapon, Kind::BrawlHit, Kind::BrawlBind][kind.get().clamp(0, 2) as usize],
        part: (part.get() > 0).then(|| Part::ALL[(part.get() - 1).clamp(0, 4) as usize]),
        distance: distance.get(),
        cluster: 0,
        height: height.get(),
        concealment: concealment.get(),
        luck_shot: luck.get(),
        from_hiding: hiding.get(),
        c_bonus: c_bonus.get(),
        p_bonus: p_bonus.get(),
        follow_up: false,
        blind_spot: blind.get() && ctx.state.with(|s| s.has(target.get() as u32, "Blind spot")),
        redone: None,
        undefended: bare.get(),
    };
    let ranged = flag(move || {
        kind.get() == 0
            && ctx
                .state
                .with(|s| s.get(who).is_some_and(|c| weapon(c).range > 0))
    });
    // The target first, then the others in its cluster in initiative order from it.
    let members = move |s: &State, t: u32| -> Vec<u32> {
        let picked = cluster.get();
        let at = s.order.iter().position(|&x| x == t).unwrap_or(0);
        let mut m = vec![t];
        m.extend(
            s.order[at..]
                .iter()
                .chain(&s.order[..at])
                .filter(|x| **x != t && picked.contains(x)),
        );
        m.truncate(8);
        m
    };
    // The guard that steps in (if any) meets the attack first.
    let plan = move |s: &State| -> Result<Plan, String> {
        let t = target.get() as u32;
        let mut o = options();
        let ranged = ranged.get();
        let m = if ranged { members(s, t) } else { vec![t] };
        if m.len() > 1 {
            o.cluster = m.len() as i32;
        }
        let guard = interceptor(s, who, t);
        let first = guard.unwrap_or(t);
        let st = attack_setup(s, who, first, &o)?;
        // From a blind spot the target rolls its defence now, at −5 C.
        let redo = if o.blind_spot {
            if let Some(g) = guard {
                return Err(format!(
                    "{} guards {}: the attack meets the guard, not a blind spot",
                    s.name(g),
                    s.name(t)
                ));
            }
            if m.len() > 1 {
                return Err("an attack from a blind spot is worked out against its target alone: clear the cluster".into());
            }
            let (_, ds) = blind_spot_setup(s, t)?;
            Some((ds.c.value, ds.p.value, ds.fatigue))
        } else {
            None
        };
        for x in guard.into_iter().chain([t]) {
            if let (
                true,
                Shown::Ready {
                    kind: Defence::Parry,
                    ..
                },
            ) = (ranged, shown(s, x))
            {
                return Err(format!(
                    "{} shows a parry, which cannot stop a shot: it rolls a dodge or block first",
                    s.name(x)
                ));
            }
        }
        let mut text = format!(
            "C {} · P {} · fatigue {} · against {}",
            st.c.text(),
            st.p.text(),
            st.fatigue,
            shown_text(s, first)
        );
        if let Some((dc, dp, _)) = redo {
            text.push_str(&format!(" · its defence rolled now: C {dc} · P {dp}"));
        }
        if let Some(g) = guard {
            text.push_str(&format!(
                " · {} guards {}: the attack comes to it first{}",
                s.name(g),
                s.name(t),
                if ranged {
                    " (a shot it dodges goes on)"
                } else {
                    ""
                }
            ));
        }
        Ok(Plan {
            o,
            m,
            guard,
            redo,
            c: st.c.value,
            p: st.p.value,
            text,
        })
    };
    let figures = move || {
        ctx.state.with(|s| {
            let pl = plan(s)?;
            let (o, m, c, p) = (pl.o, &pl.m, pl.c, pl.p);
            let a = s.get(who).ok_or("not in the fight")?;
            let f = a.stat(FATIGUE);
            let luck = |x| if o.luck_shot { luck_shot(x) } else { x };
            let steps = attack_steps(s, pl.guard, m, c, ranged.get(), o.undefended);
            let def = standing(steps[0].shown);
            let mut line = if steps.len() > 1 {
                // A shot that may go on: the guard's dodge passes it to the one it guards with
                // the same roll; a cluster's dodges pass it on to a re-roll at one C more.
                let odds: Vec<(Shown, Option<i32>)> =
                    steps.iter().map(|x| (x.shown, x.roll)).collect();
                let each = pass_on_chances(p, f, &odds);
                let named = 1 + usize::from(pl.guard.is_some());
                let mut l = steps[..named]
                    .iter()
                    .zip(&each)
                    .map(|(x, &h)| format!("hits {} {}", s.name(x.who), percent(luck(h))))
                    .collect::<Vec<_>>()
                    .join(" · ");
                l.replace_range(..1, "H");
                if m.len() > 1 {
                    l.push_str(&format!(
                        " · hits someone else {}",
                        percent(luck(anyone(&each[named..])))
                    ));
                }
                l
            } else {
                let (full, weak) = match pl.redo {
                    Some(d) => hit_vs_roll(c, p, f, d),
                    None if o.kind == Kind::Weapon => (
                        hit_chance(c, p, f, def),
                        crate::rules::dice::Chance::Impossible,
                    ),
                    None => brawl_chances(c, p, f, def),
                };
                if o.kind == Kind::Weapon {
                    format!("Hits {}", percent(luck(full)))
                } else {
                    format!(
                        "Hits {} · touches without harm {}",
                        percent(luck(full)),
                        percent(luck(weak))
                    )
                }
            };
            line.push_str(&format!(
                " · fatigue rises {}",
                percent(fatigue_rise_now(a))
            ));
            Ok::<_, String>((pl.text, line))
        })
    };
    let roll = move || {
        let Some(Ok(pl)) = ctx.state.with_untracked(|s| untrack(|| Some(plan(s)))) else {
            return;
        };
        let (o, m, c, p) = (pl.o, pl.m, pl.c, pl.p);
        let Some((events, line)) = ctx.state.with_untracked(|s| {
            ctx.roll(|src| {
                // Each roll meets another combatant, whom the earlier rolls did not change.
                let mut all = Vec::new();
                let mut last = String::new();
                if o.luck_shot {
                    let d10 = src.roll(10);
                    last = format!("{} tries a luck shot: d10 {d10}", s.name(who));
                    all.push(Event::Note(last.clone()));
                    if d10 != 10 {
                        return (all, format!("{last}: no shot"));
                    }
                }
                let mut redone = None;
                if let Some((dc, dp, _)) = pl.redo {
                    let dr = roll_challenge(dc, dp, src);
                    all.push(Event::Note(format!(
                        "{} defends from its blind spot, rolled now: {}",
                        s.name(m[0]),
                        describe(&dr)
                    )));
                    redone = Some(Redone::from_roll(&dr));
                }
                let steps = attack_steps(s, pl.guard, &m, c, ranged.get_untracked(), o.undefended);
                let mut r = None;
                for (i, st) in steps.iter().enumerate() {
                    let guard = pl.guard == Some(st.who);
                    if guard {
                        all.extend(intercept_events(s, st.who, who, m[0]));
                    }
                    let target = st.who == m[0] && !guard;
                    let oi = Options {
                        follow_up: i > 0,
                        undefended: o.undefended && target,
                        blind_spot: o.blind_spot && target,
                        redone: redone.filter(|_| target),
                        ..o
                    };
                    let roll = match (st.roll, r.take()) {
                        (None, Some(prev)) => prev,
                        (c, _) => roll_challenge(c.unwrap_or(pl.c), p, src),
                    };
                    let (out, e) = resolve_attack(s, who, st.who, &oi, &roll);
                    if let Event::Batch(list) = e {
                        if let Some(Event::Note(n)) = list.first() {
                            last.clone_from(n);
                        }
                        all.extend(list);
                    }
                    if !dodged(out, st.shown) {
                        break;
                    }
                    r = Some(roll);
                }
                (all, last)
            })
        }) else {
            return;
        };
        ctx.act(Event::Batch(events));
        result.set(line);
    };
    let targets = move || {
        ctx.state.with(|s| {
            s.order
                .iter()
                .filter(|&&x| x != who)
                .filter_map(|&x| s.get(x))
                .filter(|c| !c.dead)
                .map(|c| (c.id as i32, format!("{} · {}", c.name, shown_text(s, c.id))))
                .collect::<Vec<_>>()
        })
    };
    let bystanders = move || {
        targets()
            .into_iter()
            .filter(|t| t.0 != target.get())
            .collect::<Vec<_>>()
    };
    let parts = std::iter::once("Where the d6 falls".to_owned()).chain(
        Part::ALL
            .iter()
            .map(|p| format!("Aim at the {} (−2 C)", p.name())),
    );
    let heights = [
        "Target stands higher (−1 C)",
        "Same height",
        "Target stands lower (+1 C)",
    ];
    let failed = flag(move || figures().is_err());
    form(
        "Attack",
        vec![
            Field::Pick("Target (its shown defence)", choices(targets), target),
            Field::Pick(
                "Attack",
                named(
                    ["Weapon attack", "Brawl: hit 1", "Brawl: grab"]
                        .into_iter()
                        .map(String::from),
                ),
                kind,
            ),
            Field::Pick("Body part", named(parts), part),
            Field::If(
                ranged,
                vec![
                    Field::Num("Distance (turns of movement)", distance, 0, 50),
                    Field::Toggles("Also in the target's cluster", choices(bystanders), cluster),
                ],
            ),
            Field::If(
                flag(move || !ranged.get()),
                vec![Field::Pick(
                    "Height",
                    Signal::stored(
                        heights
                            .iter()
                            .zip(-1..)
                            .map(|(h, v)| (v, (*h).to_owned()))
                            .collect(),
                    ),
                    height,
                )],
            ),
            Field::Num("Target's concealment", concealment, 0, 10),
            Field::Tick(
                "Target is hidden: luck shot (a d10 must show 10 first)",
                luck,
            ),
            Field::Tick("Charging or shooting from hiding (+2 P)", hiding),
            Field::If(
                flag(move || ctx.state.with(|s| s.has(target.get() as u32, "Blind spot"))),
                vec![Field::Tick(
                    "From its blind spot: it rolls its defence now at −5 C (blind-spot module)",
                    blind,
                )],
            ),
            Field::Tick(
                "The target takes it undefended (no blind spot, no defence used)",
                bare,
            ),
            Field::Pair(vec![
                Field::Num("Other C", c_bonus, -20, 20),
                Field::Num("Other P", p_bonus, -20, 20),
            ]),
            Field::Text(
                "muted",
                "attack-setup",
                text(move || figures().map_or(String::new(), |f| f.0)),
            ),
            Field::Text(
                "chance",
                "attack-chance",
                text(move || match figures() {
                    Ok(f) => f.1,
                    Err(e) => format!("No attack: {e}."),
                }),
            ),
            act(
                fixed("Roll attack"),
                "btn primary roll-btn",
                "roll-attack",
                failed,
                roll,
            ),
            Field::Text("result-line", "attack-result", result.into()),
        ],
    )
}

fn effects(ctx: EncCtx, who: u32) -> AnyView {
    let (eff, bind, n) = (RwSignal::new(0), RwSignal::new(0), RwSignal::new(2));
    let effect = move || match Effect::ALL[eff.get().clamp(0, 7) as usize] {
        Effect::Bind(_) => Effect::Bind(bind.get().clamp(0, 4) as usize),
        e => e,
    };
    let lasts = text(move || match effect() {
        Effect::Hit => format!("Loses {} HP.", n.get()),
        Effect::Drain => format!("Loses {} willpower.", n.get()),
        _ => format!("{} seconds: {} of its turns.", n.get(), turns_of(n.get())),
    });
    form(
        "Effect",
        vec![
            Field::Pick(
                "Effect",
                named(
                    Effect::ALL
                        .iter()
                        .map(|e| format!("{} (default {})", e.name(), e.default_number())),
                ),
                eff,
            ),
            Field::If(
                flag(move || matches!(effect(), Effect::Bind(_))),
                vec![Field::Pick(
                    "Bound where",
                    named(BINDS.iter().map(|b| b.0.to_owned())),
                    bind,
                )],
            ),
            Field::Num("Number (seconds, or points)", n, 0, 100),
            Field::Text("muted", "effect-lasts", lasts),
            act(
                fixed("Apply effect"),
                "btn",
                "apply-effect",
                never(),
                move || {
                    let e = untrack(effect);
                    ctx.act(
                        ctx.state
                            .with_untracked(|s| effect_events(s, who, e, n.get_untracked())),
                    );
                },
            ),
        ],
    )
}

fn fall(ctx: EncCtx, who: u32) -> AnyView {
    let h = RwSignal::new(2);
    let jumped = RwSignal::new(true);
    let cr = move || fall_cr(h.get(), jumped.get());
    let odds = text(move || match cr() {
        None => "No roll below a height of 2.".into(),
        Some(cr) => ctx.state.with(|s| {
            s.get(who).map_or(String::new(), |c| {
                format!(
                    "Agility against CR {cr}: lands safely {}; otherwise HP drop to {}.",
                    percent(success_chance(
                        c.stat(AGILITY_C),
                        c.stat(AGILITY_P),
                        cr,
                        Some(c.stat(FATIGUE))
                    )),
                    3 - h.get()
                )
            })
        }),
    });
    let roll = move || {
        let (Some(cr), hh) = (untrack(cr), h.get_untracked()) else {
            return;
        };
        let Some(c) = ctx.state.with_untracked(|s| s.get(who).cloned()) else {
            return;
        };
        let Some(r) = ctx.roll(|src| roll_challenge(c.stat(AGILITY_C), c.stat(AGILITY_P), src))
        else {
            return;
        };
        let ok = r.succeeds(cr, Some(c.stat(FATIGUE)));
        let mut list = vec![Event::Note(format!(
            "{} lands from height {hh} (CR {cr}): {} · {}",
            c.name,
            crate::rules::heimr::combat::describe(&r),
            if ok { "safe" } else { "hurt" }
        ))];
        list.extend(fatigue_events(&c, r.d6));
        if !ok {
            list.extend(ctx.state.with_untracked(|s| fall_events(s, who, hh)));
        }
        ctx.act(Event::Batch(list));
    };
    form(
        "Jump down or fall",
        vec![
            Field::Num("Height", h, 0, 20),
            Field::Tick(
                "Jumped on purpose (CR 2 × height; a fall is 2 more)",
                jumped,
            ),
            Field::Text("chance", "fall-chance", odds),
            act(fixed("Roll the landing"), "btn", "roll-fall", never(), roll),
        ],
    )
}

fn gear(ctx: EncCtx, who: u32) -> AnyView {
    let Some(c) = ctx.state.with_untracked(|s| s.get(who).cloned()) else {
        return ().into_any();
    };
    let (wpn, shd) = (RwSignal::new(c.stat(WEAPON)), RwSignal::new(c.stat(SHIELD)));
    // A saved character picks the ability it fights with from its sheet.
    let abilities: Vec<(String, (i32, i32))> = c
        .link
        .as_ref()
        .and_then(|l| ctx.roster().get(l))
        .and_then(|ch| match ch.sheet {
            Sheet::Heimr(sh) => Some(
                sh.abilities
                    .iter()
                    .map(|a| {
                        let (ac, ap) = cp(&sh, a);
                        (format!("{} (C {ac}, P {ap})", a.name), (ac, ap))
                    })
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default();
    let ability = RwSignal::new(0);
    let mut fields = vec![
        Field::Pick("Weapon", named(WEAPONS.iter().map(weapon_label)), wpn),
        Field::Pick("Shield", named(SHIELDS.iter().map(shield_label)), shd),
    ];
    if !abilities.is_empty() {
        fields.push(Field::Pick(
            "Fights with (attack, parry and block)",
            named(abilities.iter().map(|a| a.0.clone())),
            ability,
        ));
    }
    let abilities = StoredValue::new(abilities);
    fields.push(act(
        fixed("Take up"),
        "btn",
        "take-up",
        never(),
        move || {
            let Some(c) = ctx.state.with_untracked(|s| s.get(who).cloned()) else {
                return;
            };
            let chosen =
                abilities.with_value(|a| a.get(ability.get_untracked() as usize).map(|x| x.1));
            let cp = chosen.unwrap_or((c.stat(WEAPON_C), c.stat(WEAPON_P)));
            ctx.act(arm_events(
                &c,
                wpn.get_untracked() as usize,
                shd.get_untracked() as usize,
                cp,
            ));
        },
    ));
    form("Weapon and shield", fields)
}
