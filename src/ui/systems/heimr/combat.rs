//! Heimr combat views: initiative for everyone, and on a combatant's sheet its fatigue and
//! shown defence, pre-rolling the next defence, the combat actions with their types, attacks
//! with every modifier and their exact chances, effects, falling, stabilising and its gear.
//! The rules (`rules::heimr::combat`) decide everything; these views only ask and show.

use crate::rules::encounter::referee::check;
use crate::rules::encounter::{Event, State};
use crate::rules::heimr::combat::{
    abilities, defence_setup, dying, fall_cr, fatigue_rise_now, initiative_events,
    initiative_setup, npc, shown_text, spread, turns_of, weapon, Defence, Effect, Npc, Part,
    ACTIONS, AGILITY_C, AGILITY_P, BASE, BINDS, FATIGUE, GUARD_ACTION, SHIELD, SHIELDS, WEAPON,
    WEAPONS, WILL,
};
use crate::rules::heimr::referee::Action as H;
use crate::rules::heimr::strike::{preview, Strike};
use crate::rules::heimr::{success_chance, Injury};
use crate::rules::referee::Intent;
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
    let [count, hp, will, dex, base, wc, wp, sc, sp, ac, ap, bc, bp] = [
        1,
        d.hp,
        d.willpower,
        d.dex,
        d.base_fatigue,
        d.weapon_cp.0,
        d.weapon_cp.1,
        d.shield_cp.0,
        d.shield_cp.1,
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
            shield_cp: (sc.get_untracked(), sp.get_untracked()),
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
        ("Off hand C", sc, -10, 10),
        ("Off hand P", sp, -10, 20),
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
            Field::Pick("Off hand", named(SHIELDS.iter().map(shield_label)), shd),
            act(label, "btn primary wide", "add-npc", never(), add),
        ],
    )
}

/// "7+ 76.0% · 9+ 51.2% · 11+ 24.8%".
fn spread_text(ts: &[(i64, crate::rules::dice::Chance)]) -> String {
    ts.iter()
        .map(|(t, c)| format!("{t}+ {}", percent(*c)))
        .collect::<Vec<_>>()
        .join(" · ")
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
    match s.0 {
        "Light weapon" => "Light weapon (a second one: attack, parry)".into(),
        "Tower shield" => "Tower shield (P +5, Sta −1)".into(),
        n => format!("{n} (P +{})", s.1),
    }
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
            Field::Text(
                "chance",
                "initiative-spread",
                text(move || {
                    ctx.state.with(|s| {
                        s.order
                            .iter()
                            .filter_map(|&id| s.get(id))
                            .map(|c| {
                                let st = initiative_setup(c);
                                format!("{}: {}", c.name, spread_text(&spread(&st).0))
                            })
                            .collect::<Vec<_>>()
                            .join(". ")
                    })
                }),
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
        {super::chase::chase(ctx, who)}
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
                move || ctx.intend(who, Intent::Heimr(H::Stabilise)),
            )],
        ),
        Field::Text(
            "muted",
            "",
            fixed("Roll the next defence at the end of the turn and after each use: attackers see it before they choose."),
        ),
    ];
    // What each defence rolled now may come to, exactly, before the roll.
    fields.push(Field::Text(
        "chance",
        "defence-spread",
        text(move || {
            ctx.state.with(|s| {
                Defence::ALL
                    .iter()
                    .filter_map(|&d| {
                        let st = defence_setup(s, who, d).ok()?;
                        let (ts, fails) = spread(&st);
                        Some(format!(
                            "{}: {} · fails on fatigue {}",
                            d.name(),
                            spread_text(&ts),
                            percent(fails)
                        ))
                    })
                    .collect::<Vec<_>>()
                    .join(". ")
            })
        }),
    ));
    // Each defence as the rules offer it (`heimr::referee`): out of its turn too, never again
    // while one it showed stands.
    // Taking the next attack undefended is the defender's own choice (here, or on its
    // player's phone), never the attacker's.
    fields.push(crate::ui::kit::offers(ctx, who, |i| {
        matches!(
            i,
            Intent::Heimr(H::Ready(_) | H::Undefended | H::Release | H::Reopen)
        )
    }));
    form("Fatigue and defence", fields)
}

/// The Guard action asks whom.
const GUARD: i32 = GUARD_ACTION as i32;

fn actions(ctx: EncCtx, who: u32) -> AnyView {
    let pick = RwSignal::new(0);
    let ward = RwSignal::new(-1);
    let intent = move || {
        Intent::Heimr(match pick.get() {
            // No one named: a place or an object is guarded (the table's call).
            GUARD => H::Guard(ward.get().max(0) as u32),
            i => H::Act(i as u32),
        })
    };
    // The rules' reason the picked action could not be taken, after a tap.
    let why = RwSignal::new(String::new());
    let take = move || {
        let want = untrack(intent);
        match ctx
            .state
            .with_untracked(|s| check(&ctx.offers(s, who), &want))
        {
            Ok(()) => {
                why.set(String::new());
                ctx.intend(who, want);
            }
            Err(w) => why.set(format!("Not now: {w}.")),
        }
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
                take,
            ),
            Field::Text("field-error", "action-error", why.into()),
            Field::If(
                readied,
                vec![act(
                    fixed("Its trigger happened: act now"),
                    "btn",
                    "trigger",
                    never(),
                    move || ctx.intend(who, Intent::Heimr(H::Trigger)),
                )],
            ),
        ],
    )
}

fn attack(ctx: EncCtx, who: u32) -> AnyView {
    let target = RwSignal::new(
        ctx.state
            .with_untracked(|s| s.order.iter().copied().find(|&x| x != who))
            .unwrap_or(0) as i32,
    );
    let [kind, part, distance, height, concealment, c_bonus, p_bonus] = [0; 7].map(RwSignal::new);
    let [luck, hiding, blind] = [false; 3].map(RwSignal::new);
    let cluster = RwSignal::new(Vec::<u32>::new());
    // The attack as chosen; the rules plan it against the fight (`heimr::strike`).
    let strike = move || Strike {
        target: target.get().max(0) as u32,
        kind: kind.get().clamp(0, 3) as u32,
        part: part.get().clamp(0, 5) as u32,
        distance: distance.get(),
        height: height.get(),
        concealment: concealment.get(),
        c_bonus: c_bonus.get(),
        p_bonus: p_bonus.get(),
        luck: luck.get(),
        hiding: hiding.get(),
        blind: blind.get(),
        cluster: cluster.get(),
    };
    let ranged = flag(move || {
        kind.get() == 0
            && ctx
                .state
                .with(|s| s.get(who).is_some_and(|c| weapon(c).range > 0))
    });
    let figures = move || {
        let st = strike();
        ctx.state.with(|s| {
            let pv = preview(s, who, &st)?;
            // Someone it meets has numbers the GM keeps: the GM's phone reckons it.
            if pv.hits.iter().any(|(x, _)| s.veiled.contains(x))
                || st.cluster.iter().any(|x| s.veiled.contains(x))
            {
                return Ok((pv.text, crate::rules::referee::GM_ODDS.to_owned()));
            }
            let mut line = pv
                .hits
                .iter()
                .map(|(x, h)| format!("hits {} {}", s.name(*x), percent(*h)))
                .collect::<Vec<_>>()
                .join(" · ");
            if pv.hits.len() == 1 && pv.others.is_none() {
                // One defender: "Hits 40%".
                line = format!("hits {}", percent(pv.hits[0].1));
            }
            if let Some(o) = pv.others {
                line.push_str(&format!(" · hits someone else {}", percent(o)));
            }
            if let Some(pp) = pv.past {
                line = format!("its attack {line} first · gets past it {}", percent(pp));
            }
            if let Some(l) = pv.lands {
                line.push_str(&format!(" · the brawl lands {}", percent(l)));
            }
            if let Some(w) = pv.weak {
                line.push_str(&format!(" · touches without harm {}", percent(w)));
            }
            line.replace_range(..1, &line[..1].to_uppercase());
            line.push_str(&format!(" · fatigue rises {}", percent(pv.rise)));
            Ok::<_, String>((pv.text, line))
        })
    };
    let roll = move || ctx.intend(who, Intent::Heimr(H::Attack(untrack(strike))));
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
                    [
                        "Weapon attack",
                        "Brawl: hit 1",
                        "Brawl: grab",
                        "Second weapon",
                    ]
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
            Field::Text(
                "result-line",
                "attack-result",
                crate::ui::kit::offers::last_said(ctx, who, " attacks "),
            ),
        ],
    )
}

fn effects(ctx: EncCtx, who: u32) -> AnyView {
    let (eff, bind, n) = (
        RwSignal::new(0),
        RwSignal::new(0),
        RwSignal::new(Effect::default_at(0)),
    );
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
            Field::Choose(
                "Effect",
                named(
                    Effect::ALL
                        .iter()
                        .map(|e| format!("{} (default {})", e.name(), e.default_number())),
                ),
                eff.into(),
                Callback::new(move |i| {
                    eff.set(i);
                    n.set(Effect::default_at(i));
                }),
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
                    let effect = eff.get_untracked().max(0) as u32;
                    let bind = bind.get_untracked().max(0) as u32;
                    let n = n.get_untracked().max(0) as u32;
                    ctx.intend(who, Intent::Heimr(H::Effect { effect, bind, n }));
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
        let height = h.get_untracked().max(0) as u32;
        let jumped = jumped.get_untracked();
        ctx.intend(who, Intent::Heimr(H::Fall { height, jumped }));
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
    // A saved character picks the ability it fights with among those it brought to the fight.
    let mut picks = vec!["As it fights now".to_owned()];
    picks.extend(
        abilities(&c)
            .into_iter()
            .map(|(n, ac, ap)| format!("{n} (C {ac}, P {ap})")),
    );
    let (ability, off) = (RwSignal::new(0), RwSignal::new(0));
    let mut fields = vec![
        Field::Pick("Weapon", named(WEAPONS.iter().map(weapon_label)), wpn),
        Field::Pick("Off hand", named(SHIELDS.iter().map(shield_label)), shd),
    ];
    if picks.len() > 1 {
        for (l, v) in [
            ("Weapon with (attack, parry)", ability),
            ("Off hand with (block, second weapon)", off),
        ] {
            fields.push(Field::Pick(l, named(picks.iter().cloned()), v));
        }
    }
    fields.push(act(
        fixed("Take up"),
        "btn",
        "take-up",
        never(),
        move || {
            ctx.intend(
                who,
                Intent::Heimr(H::TakeUp {
                    weapon: wpn.get_untracked() as u32,
                    shield: shd.get_untracked() as u32,
                    ability: ability.get_untracked().max(0) as u32,
                    off: off.get_untracked().max(0) as u32,
                }),
            );
        },
    ));
    form("Weapon and shield", fields)
}
