//! An Energy / Aura fight: no turn order. Each row shows the pools left this round; on a
//! combatant's sheet, the actions with their costs (refused with the reason when the pools or
//! conditions forbid them), the once-a-round stamina swap and initiative roll, attacks against
//! a target read from the fight with the exact odds, and the death roll, death save and waking
//! at 0 aura or 0 stamina. The rules (`rules::aura::combat`) decide everything.

use super::rolls::{
    attack_form, death_tables, edge_index, edge_word, maneuver_at, Attacker, Target,
};
use crate::rules::aura::combat::{
    attack_edge, auto_hit, can, can_attack, can_escape, can_roll, death_roll_events,
    death_save_events, escape_events, escape_odds, fortitude_roll, guard, heal_events, holder_of,
    initiative_events, let_go_events, maneuver_events, maneuver_limit, npc, roll_defence, swap,
    swift_limit, swing_events, take, thrown_note, wake_events, Maneuver, Npc, Swing, ACTS, AGILITY,
    AR, BLUNT, COVERAGE, ENERGY, ESCAPE_ENERGY, FORTITUDE, INITIATIVE, MAX_STAMINA, MELEE_AV,
    MELEE_BONUS, MELEE_HALVED, MELEE_PRECISE, MISS_MOD, RANGED_BONUS, RANGED_COVERAGE,
    RANGED_HALVED, RANGED_PRECISE, SAVE, SHOT_ENERGY, SIZE, STAMINA, THROW_IMPROVISED,
    THROW_MISS_MOD, THROW_PRECISE, THROW_RANGE, T_MELEE, T_RANGED, UNARMED_AV, UNARMED_DAMAGE,
    WAKE, WEIGHT,
};
use crate::rules::aura::{dying_chance, AttackMode, SIZES};
use crate::rules::dice::{DiceSource, Edge};
use crate::rules::encounter::{Event, State};
use crate::ui::encounters::EncCtx;
use crate::ui::format::percent;
use crate::ui::kit::{choices, fixed, flag, form, num, numbered_options, reactive, text, Field};
use crate::ui::systems::{add_label, npc_names, CombatUi};
use leptos::prelude::*;

pub static UI: CombatUi = CombatUi {
    npc_form,
    panel,
    tools,
    tools_title: "Rounds",
    row_note,
};

fn pool(s: &State, who: u32, i: usize) -> i32 {
    s.get(who)
        .and_then(|c| c.pools.get(i).copied())
        .unwrap_or(0)
}

/// The pools left this round, and what is due.
fn row_note(s: &State, who: u32) -> String {
    let Some(c) = s.get(who) else {
        return String::new();
    };
    let full = |i: usize| s.full(c, &s.rules.resources[i]);
    let mut out = format!(
        "energy {}/{} · agility {}/{} · stamina {}/{}",
        pool(s, who, ENERGY),
        full(ENERGY).min(5),
        pool(s, who, AGILITY),
        full(AGILITY),
        pool(s, who, STAMINA),
        c.stat(MAX_STAMINA)
    );
    if c.dead {
        return out;
    }
    if s.has(who, "Bleeding out") {
        out.push_str(" · a death save each round");
    }
    if s.has(who, "Unconscious") && pool(s, who, STAMINA) == 0 {
        out.push_str(" · a d20 each round to wake");
    }
    out
}

fn tools(ctx: EncCtx) -> AnyView {
    let due = text(move || {
        ctx.state.with(|s| {
            let list: Vec<String> = s
                .order
                .iter()
                .filter(|&&id| s.get(id).is_some_and(|c| !c.dead && !c.gone))
                .filter_map(|&id| {
                    let mut d = Vec::new();
                    if s.has(id, "Bleeding out") {
                        d.push("death save");
                    }
                    if s.has(id, "Unconscious") && pool(s, id, STAMINA) == 0 {
                        d.push("wake roll");
                    }
                    (!d.is_empty()).then(|| format!("{}: {}", s.name(id), d.join(", ")))
                })
                .collect();
            if list.is_empty() || s.round == 0 {
                String::new()
            } else {
                format!("Due this round: {}", list.join(" · "))
            }
        })
    });
    form(
        "Rounds",
        vec![
            Field::Text(
                "muted",
                "",
                fixed("No turn order: everyone acts when it makes sense, paying from the round's pools. Next round refills energy (from stamina), agility, the initiative roll, the swift attack and the stamina swap."),
            ),
            Field::Text("chance", "due", due),
        ],
    )
}

fn npc_form(ctx: EncCtx) -> AnyView {
    let name = RwSignal::new("Gnoll".to_owned());
    let [count, aura, stamina, ev, fort, will, av, bonus, cov, ar] =
        [1, 20, 10, 9, 11, 10, 16, 1, 0, 0].map(RwSignal::new);
    let damage = RwSignal::new("1d8".to_owned());
    let size = RwSignal::new(2);
    let weight = RwSignal::new(0);
    let add = move || {
        let n = Npc {
            aura: aura.get_untracked(),
            stamina: stamina.get_untracked(),
            evasion: ev.get_untracked(),
            fortitude: fort.get_untracked(),
            will: will.get_untracked(),
            av: av.get_untracked(),
            damage: damage.get_untracked().trim().to_owned(),
            bonus: bonus.get_untracked(),
            coverage: cov.get_untracked(),
            ar: ar.get_untracked(),
            size: size.get_untracked().clamp(0, 6) as usize,
            weight: weight.get_untracked(),
        };
        let names = ctx
            .state
            .with_untracked(|s| name.with_untracked(|n| npc_names(s, n, count.get_untracked())));
        ctx.act(Event::Group(
            names.into_iter().map(|x| npc(&x, &n)).collect(),
        ));
    };
    form(
        "Quick NPC",
        vec![
            Field::Input("Name", name),
            Field::Pair(vec![
                Field::Num("How many", count, 1, 20),
                Field::Num("Aura", aura, 0, 10_000),
                Field::Num("Stamina", stamina, 0, 1000),
                Field::Num("Evasion", ev, -100, 1000),
                Field::Num("Fortitude", fort, -100, 1000),
                Field::Num("Will", will, -100, 1000),
                Field::Num("Melee AV", av, -100, 1000),
                Field::Num("Damage bonus", bonus, -100, 100),
                Field::Num("Coverage (AC)", cov, 0, 100),
                Field::Num("AR", ar, 0, 100),
            ]),
            Field::Input("Weapon damage (e.g. 1d8)", damage),
            Field::Pick(
                "Size",
                numbered_options(SIZES.iter().map(|r| r.name.to_owned())),
                size,
            ),
            Field::Pick(
                "Its weapon",
                numbered_options(
                    ["Neither light nor heavy", "Light", "Heavy"]
                        .into_iter()
                        .map(str::to_owned),
                ),
                weight,
            ),
            Field::Act(
                add_label(name, count),
                "btn primary wide",
                "add-npc",
                flag(move || damage.with(|d| crate::rules::dice::parse(d).is_err())),
                Callback::new(move |()| add()),
            ),
        ],
    )
}

fn panel(ctx: EncCtx, who: u32) -> AnyView {
    view! {
        {actions(ctx, who)}
        {attack(ctx, who)}
        {hold(ctx, who)}
        {down(ctx, who)}
    }
    .into_any()
}

/// The action list: each with its cost, refused (with why) when it cannot be paid.
fn actions(ctx: EncCtx, who: u32) -> AnyView {
    let mut fields: Vec<Field> = vec![Field::Text(
        "chance",
        "pools",
        text(move || ctx.state.with(|s| row_note(s, who))),
    )];
    let buttons: Vec<Field> = ACTS
        .iter()
        .map(|a| {
            let label = text(move || {
                ctx.state.with(|s| {
                    let cost = [
                        (a.energy, "energy"),
                        (a.agility, "agility"),
                        (a.stamina, "stamina"),
                    ]
                    .iter()
                    .filter(|c| c.0 > 0)
                    .map(|c| format!("{} {}", c.0, c.1))
                    .collect::<Vec<_>>()
                    .join(" + ");
                    match can(s, who, a) {
                        Ok(()) => format!("{} · {cost}", a.name),
                        Err(why) => format!("{} · {cost} · {why}", a.name),
                    }
                })
            });
            Field::Act(
                label,
                "btn action",
                "act",
                flag(move || ctx.state.with(|s| can(s, who, a).is_err())),
                Callback::new(move |()| {
                    if let Some(e) = ctx
                        .state
                        .with_untracked(|s| can(s, who, a).ok().map(|()| take(s, who, a)))
                    {
                        ctx.act(e);
                    }
                }),
            )
        })
        .collect();
    fields.extend(buttons);
    fields.push(Field::Act(
        text(move || {
            ctx.state.with(|s| match swap(s, who) {
                Ok(_) => "Swap 1 stamina for 1 energy (once a round)".to_owned(),
                Err(why) => format!("Swap 1 stamina for 1 energy · {why}"),
            })
        }),
        "btn action",
        "swap",
        flag(move || ctx.state.with(|s| swap(s, who).is_err())),
        Callback::new(move |()| {
            if let Some(Ok(e)) = ctx
                .state
                .with_untracked(|s| s.get(who).map(|_| swap(s, who)))
            {
                ctx.act(e);
            }
        }),
    ));
    let other = RwSignal::new(0);
    let others = choices(move || {
        ctx.state.with(|s| {
            std::iter::once((0, "Pick a combatant".to_owned()))
                .chain(
                    s.order
                        .iter()
                        .filter(|&&x| x != who && s.get(x).is_some_and(|c| !c.dead && !c.gone))
                        .map(|&x| (x as i32, s.name(x).to_owned())),
                )
                .collect()
        })
    });
    fields.push(Field::Pick("Initiative against", others, other));
    fields.push(Field::Text(
        "chance",
        "init-odds",
        text(move || {
            ctx.state.with(|s| {
                let o = other.get();
                let (Some(a), Some(b)) = (s.get(who), s.get(o.max(0) as u32)) else {
                    return String::new();
                };
                let (w, _) =
                    crate::rules::aura::initiative_contest(a.stat(INITIATIVE), b.stat(INITIATIVE));
                format!(
                    "d20{:+} against d20{:+}: wins {} (a tie loses)",
                    a.stat(INITIATIVE),
                    b.stat(INITIATIVE),
                    percent(w)
                )
            })
        }),
    ));
    fields.push(Field::Act(
        fixed("Roll initiative (once a round)"),
        "btn",
        "roll-init",
        flag(move || other.get() <= 0),
        Callback::new(move |()| {
            let o = other.get_untracked().max(0) as u32;
            let Some((x, y)) = ctx.roll(|src| (src.roll(20), src.roll(20))) else {
                return;
            };
            if let Some(e) = ctx.state.with_untracked(|s| {
                let (a, b) = (s.get(who)?, s.get(o)?);
                Some(initiative_events(
                    s,
                    who,
                    o,
                    i64::from(x) + i64::from(a.stat(INITIATIVE)),
                    i64::from(y) + i64::from(b.stat(INITIATIVE)),
                ))
            }) {
                ctx.act(e);
            }
        }),
    ));
    form("Actions", fields)
}

/// The attacks this combatant has: (label, mode, value, precise, dice, bonus, halvings, energy).
fn kinds(s: &State, who: u32) -> Vec<(String, Attacker)> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let melee_dice = c.text(T_MELEE);
    if !melee_dice.is_empty() {
        let strike = Attacker {
            name: format!("Melee weapon {melee_dice}{:+}", c.stat(MELEE_BONUS)),
            mode: AttackMode::Melee,
            value: c.stat(MELEE_AV),
            precise: c.stat(MELEE_PRECISE),
            dice: melee_dice.to_owned(),
            bonus: c.stat(MELEE_BONUS),
            halvings: u32::from(c.stat(MELEE_HALVED) > 0),
            improvised_throw: false,
            blunt: c.stat(BLUNT) > 0,
            unarmed: false,
            energy: 3,
            unarmed_av: c.stat(UNARMED_AV),
        };
        // The same weapon thrown: its own miss modifier, range and precision, 1 energy.
        let r = THROW_RANGE.map(|i| c.stat(i));
        let improvised = c.stat(THROW_IMPROVISED) > 0;
        let throw = Attacker {
            name: format!(
                "Melee weapon thrown {melee_dice}, range {}/{}/{}{}",
                r[0],
                r[1],
                r[2],
                if improvised {
                    " · not made for throwing: half damage unless a natural 20"
                } else {
                    ""
                }
            ),
            mode: AttackMode::Thrown,
            value: c.stat(THROW_MISS_MOD),
            precise: c.stat(THROW_PRECISE),
            bonus: 0,
            improvised_throw: improvised,
            energy: 1,
            ..strike.clone()
        };
        out.push((format!("Melee weapon {melee_dice}"), strike));
        out.push((format!("Throw the melee weapon {melee_dice}"), throw));
    }
    out.push((
        "Unarmed".into(),
        Attacker {
            name: "Unarmed".into(),
            mode: AttackMode::Melee,
            value: c.stat(UNARMED_AV),
            precise: 0,
            dice: "0".into(),
            bonus: c.stat(UNARMED_DAMAGE),
            halvings: 0,
            improvised_throw: false,
            blunt: true,
            unarmed: true,
            energy: 2,
            unarmed_av: c.stat(UNARMED_AV),
        },
    ));
    let ranged_dice = c.text(T_RANGED);
    if !ranged_dice.is_empty() {
        out.push((
            format!("Ranged weapon {ranged_dice}"),
            Attacker {
                name: format!("Ranged weapon {ranged_dice}{:+}", c.stat(RANGED_BONUS)),
                mode: AttackMode::Shot,
                value: c.stat(MISS_MOD),
                precise: c.stat(RANGED_PRECISE),
                dice: ranged_dice.to_owned(),
                bonus: c.stat(RANGED_BONUS),
                halvings: u32::from(c.stat(RANGED_HALVED) > 0),
                improvised_throw: false,
                blunt: false,
                unarmed: false,
                energy: c.stat(SHOT_ENERGY).max(1),
                unarmed_av: c.stat(UNARMED_AV),
            },
        ));
    }
    out
}

/// What one attack tries, for its refusal: its cost and the choices that can forbid it.
#[derive(Clone, Copy)]
struct Try {
    energy: i32,
    enhance: i32,
    swift: bool,
    passing: bool,
    m: Option<Maneuver>,
    /// The weight class of what it attacks with (0 unarmed).
    weight: i32,
    behind: bool,
}

/// The energy an attack costs: a swift melee attack 1, a restrain or push 2 (unarmed).
fn cost(energy: i32, melee: bool, swift: bool, m: Option<Maneuver>) -> i32 {
    match (swift && melee, m.is_some_and(Maneuver::unarmed)) {
        (true, _) => 1,
        (false, true) => 2,
        (false, false) => energy,
    }
}

/// Why `who` cannot make this attack on `t` (0: none picked yet) now.
fn refusal(s: &State, who: u32, t: u32, x: Try) -> Result<(), String> {
    can_attack(s, who, x.energy, x.enhance, x.swift)?;
    if t == 0 {
        return Ok(());
    }
    if x.swift {
        swift_limit(s, t, x.passing)?;
    }
    match x.m {
        Some(m) => maneuver_limit(s, who, t, m, x.weight, x.behind),
        None => Ok(()),
    }
}

fn attack(ctx: EncCtx, who: u32) -> AnyView {
    let kind = RwSignal::new(0);
    let target = RwSignal::new(0);
    let swift = RwSignal::new(false);
    let passing = RwSignal::new(false);
    let behind = RwSignal::new(false);
    let enhance = RwSignal::new(0);
    let man = RwSignal::new(0);
    let head = vec![
        Field::Pick(
            "With",
            choices(move || {
                ctx.state.with(|s| {
                    kinds(s, who)
                        .into_iter()
                        .enumerate()
                        .map(|(i, (l, _))| (i as i32, l))
                        .collect()
                })
            }),
            kind,
        ),
        Field::Pick(
            "Target",
            choices(move || {
                ctx.state.with(|s| {
                    std::iter::once((0, "Pick a target".to_owned()))
                        .chain(
                            s.order
                                .iter()
                                .filter(|&&x| {
                                    x != who && s.get(x).is_some_and(|c| !c.dead && !c.gone)
                                })
                                .map(|&x| (x as i32, s.name(x).to_owned())),
                        )
                        .collect()
                })
            }),
            target,
        ),
        Field::Tick(
            "From behind (where it is not facing: unarmed evasion, disadvantage)",
            behind,
        ),
        Field::Tick("A swift attack (once a round; melee costs 1 energy)", swift),
        Field::Tick(
            "It is passing through my reach (a swift attack on a guarded target)",
            passing,
        ),
        Field::Num("Stamina to enhance it (at most 4)", enhance, 0, 4),
    ];
    let body = move || {
        let k = kind.get();
        let Some((_, a)) = ctx
            .state
            .with_untracked(|s| kinds(s, who).into_iter().nth(k.max(0) as usize))
        else {
            return ().into_any();
        };
        let melee = a.mode == AttackMode::Melee;
        let thrown = a.mode == AttackMode::Thrown;
        let unarmed = a.unarmed;
        let tgt = move || target.get().max(0) as u32;
        let energy = a.energy;
        let stat =
            move |i: usize| num(move || ctx.state.with(|s| s.get(tgt()).map_or(0, |c| c.stat(i))));
        let guarded = move || ctx.state.with(|s| guard(s, tgt(), melee, behind.get()));
        let tried = move |s: &State| {
            let m = maneuver_at(man.get());
            Try {
                energy: cost(energy, melee, swift.get(), m),
                enhance: enhance.get(),
                swift: swift.get(),
                passing: passing.get(),
                m,
                weight: if unarmed || m.is_some_and(Maneuver::unarmed) {
                    0
                } else {
                    s.get(who).map_or(0, |c| c.stat(WEIGHT))
                },
                behind: behind.get(),
            }
        };
        let t = Target {
            defence: num(move || guarded().value),
            fortitude: stat(FORTITUDE),
            edge: num(move || edge_index(guarded().edge)),
            defending: flag(move || ctx.state.with(|s| s.has(tgt(), "Defending"))),
            exposed: flag(move || ctx.state.with(|s| s.has(tgt(), "Exposed"))),
            coverage: stat(if melee { COVERAGE } else { RANGED_COVERAGE }),
            ar: stat(AR),
            aura: num(move || ctx.state.with(|s| s.get(tgt()).map_or(0, |c| c.hp))),
            fort_edge: num(move || ctx.state.with(|s| edge_index(fortitude_roll(s, tgt()).0))),
            worse: flag(move || {
                ctx.state
                    .with(|s| attack_edge(s, who, Edge::Normal) == Edge::Disadvantage)
            }),
            swift: swift.into(),
            size: Some(stat(SIZE)),
            refuse: text(move || {
                ctx.state
                    .with(|s| refusal(s, who, tgt(), tried(s)))
                    .err()
                    .unwrap_or_default()
            }),
            auto_hit: flag(move || ctx.state.with(|s| auto_hit(s, tgt(), melee).is_some())),
            maneuver: man,
        };
        let facts = Field::Text(
            "muted",
            "target-facts",
            text(move || {
                ctx.state.with(|s| {
                    let Some(c) = s.get(tgt()) else {
                        return "Pick a target: its numbers come from the fight.".into();
                    };
                    let g = guard(s, tgt(), melee, behind.get());
                    let mut out = format!(
                        "{}: aura {} · {} {}{} · coverage {} · AR {}",
                        c.name,
                        c.hp,
                        g.name,
                        g.value,
                        edge_word(g.edge),
                        t.coverage.get(),
                        c.stat(AR)
                    );
                    if let Some(why) = auto_hit(s, tgt(), melee) {
                        out.push_str(&format!(" · {why}"));
                    }
                    if attack_edge(s, who, Edge::Normal) == Edge::Disadvantage {
                        out.push_str(" · your attack rolls have disadvantage (dazed or blinded)");
                    }
                    out
                })
            }),
        );
        let on_roll: super::rolls::OnRoll = std::sync::Arc::new(move |x| {
            let (st, r, m, fort) = (&x.st, &x.r, x.m, x.fort);
            let t = tgt();
            if t == 0 {
                return "Pick a target first.".to_owned();
            }
            let sw = swift.get_untracked();
            let cost = cost(energy, melee, sw, m);
            let en = enhance.get_untracked();
            let checked = ctx
                .state
                .with_untracked(|s| refusal(s, who, t, untrack(|| tried(s))));
            if let Err(why) = checked {
                return format!("Not applied: {why}.");
            }
            let line = x.line.clone();
            let ev = ctx.state.with_untracked(|s| {
                let mut also = m.map_or_else(Vec::new, |m| {
                    maneuver_events(
                        s,
                        who,
                        t,
                        &crate::rules::aura::combat::ManeuverRoll {
                            m,
                            hit: r.hit,
                            fortitude: fort,
                            av: st.value + 5,
                            swift: sw,
                        },
                    )
                });
                if thrown {
                    also.push(thrown_note(s, who));
                }
                let label = match (m, thrown) {
                    (Some(m), _) => m.name().to_lowercase(),
                    (None, true) => "throw".to_owned(),
                    (None, false) => "attack".to_owned(),
                };
                swing_events(
                    s,
                    &Swing {
                        attacker: who,
                        target: t,
                        label,
                        energy: cost,
                        enhance: en,
                        swift: sw,
                        d20: r.d20,
                        hit: r.hit,
                        crit: r.crit,
                        dealt: if m.is_some() { 0 } else { r.dealt },
                        rolls: line.clone(),
                        non_lethal: x.non_lethal,
                        also,
                    },
                )
            });
            ctx.act(ev);
            line
        });
        attack_form(a, t, vec![facts], on_roll)
    };
    view! {
        {form("Attack", head)}
        {reactive(body)}
    }
    .into_any()
}

/// While held or holding: breaking free (3 energy, a fortitude contest, its exact odds) and
/// letting go.
fn hold(ctx: EncCtx, who: u32) -> AnyView {
    let dc = RwSignal::new(15);
    let show = flag(move || {
        ctx.state
            .with(|s| s.has(who, "Restrained") || s.has(who, "Restraining"))
    });
    let odds = text(move || {
        ctx.state.with(|s| {
            if !s.has(who, "Restrained") {
                return String::new();
            }
            let (e, f) = fortitude_roll(s, who);
            let (w, t, l) = escape_odds(s, who, dc.get());
            match holder_of(s, who) {
                Some(h) => {
                    let (he, hf) = fortitude_roll(s, h);
                    format!(
                        "Break free: fortitude 1d10*{f:+}{} against {}'s fortitude 1d10*{hf:+}{}: free {} · a tie keeps the hold {} · still held {}",
                        edge_word(e),
                        s.name(h),
                        edge_word(he),
                        percent(w),
                        percent(t),
                        percent(l)
                    )
                }
                None => format!(
                    "Break free: fortitude 1d10*{f:+}{} must reach DC {} (no one in the fight holds it): free {} · still held {}",
                    edge_word(e),
                    dc.get(),
                    percent(w),
                    percent(l)
                ),
            }
        })
    });
    let escape = move || {
        let Some((e, f, theirs)) = ctx.state.with_untracked(|s| {
            can_escape(s, who).ok()?;
            let (e, f) = fortitude_roll(s, who);
            Some((e, f, holder_of(s, who).map(|h| fortitude_roll(s, h))))
        }) else {
            return;
        };
        let Some((mine, other)) = ctx.roll(|src| {
            let mine = roll_defence(10, e, src).1 + i64::from(f);
            let other = match theirs {
                Some((he, hf)) => roll_defence(10, he, src).1 + i64::from(hf),
                None => i64::from(dc.get_untracked()),
            };
            (mine, other)
        }) else {
            return;
        };
        let ev = ctx
            .state
            .with_untracked(|s| escape_events(s, who, mine, other));
        ctx.act(ev);
    };
    form(
        "Held",
        vec![Field::If(
            show,
            vec![
                Field::Text("chance", "escape-odds", odds),
                Field::Num("DC when no one in the fight holds it", dc, 1, 1000),
                Field::Act(
                    text(move || {
                        ctx.state.with(|s| match can_escape(s, who) {
                            Ok(()) => format!("Break free · {ESCAPE_ENERGY} energy"),
                            Err(why) => format!("Break free · {ESCAPE_ENERGY} energy · {why}"),
                        })
                    }),
                    "btn",
                    "escape",
                    flag(move || ctx.state.with(|s| can_escape(s, who).is_err())),
                    Callback::new(move |()| escape()),
                ),
                Field::Act(
                    fixed("Let go"),
                    "btn",
                    "let-go",
                    flag(move || ctx.state.with(|s| !s.has(who, "Restraining"))),
                    Callback::new(move |()| {
                        let e = ctx.state.with_untracked(|s| let_go_events(s, who));
                        ctx.act(e);
                    }),
                ),
            ],
        )],
    )
}

/// At 0 aura or 0 stamina: the death roll, the death save, waking, and gaining aura.
fn down(ctx: EncCtx, who: u32) -> AnyView {
    let amount = RwSignal::new(1);
    let show = flag(move || {
        ctx.state.with(|s| {
            s.get(who).is_some_and(|c| {
                !c.dead && (c.hp <= 0 || s.has(who, "Bleeding out") || s.has(who, "Unconscious"))
            })
        })
    });
    let d20 = move |f: fn(&State, u32, u32) -> Event| {
        if let Some(r) = ctx.roll(|src| src.roll(20)) {
            let e = ctx.state.with_untracked(|s| f(s, who, r));
            ctx.act(e);
        }
    };
    form(
        "At 0 aura",
        vec![Field::If(
            show,
            vec![
                Field::Text(
                    "chance",
                    "dying-odds",
                    text(move || {
                        ctx.state.with(|s| {
                            let b = s.has(who, "Bleeding out");
                            format!(
                                "Dies before being stabilized (no aura gained, no more damage): {}; after another hit's death roll: {}",
                                percent(dying_chance(b, false)),
                                percent(dying_chance(b, true))
                            )
                        })
                    }),
                ),
                Field::Text("muted", "death-tables", Signal::stored(death_tables())),
                Field::Pair(vec![
                    Field::Act(
                        fixed("Death roll (d20)"),
                        "btn",
                        "death-roll",
                        flag(move || ctx.state.with(|s| s.get(who).is_none_or(|c| c.hp > 0))),
                        Callback::new(move |()| d20(death_roll_events)),
                    ),
                    Field::Act(
                        fixed("Death save (d20)"),
                        "btn",
                        "death-save",
                        flag(move || ctx.state.with(|s| can_roll(s, who, SAVE).is_err())),
                        Callback::new(move |()| d20(death_save_events)),
                    ),
                    Field::Act(
                        fixed("Wake roll (d20)"),
                        "btn",
                        "wake",
                        flag(move || ctx.state.with(|s| can_roll(s, who, WAKE).is_err())),
                        Callback::new(move |()| d20(wake_events)),
                    ),
                ]),
                Field::Num("Aura gained", amount, 1, 10_000),
                Field::Act(
                    fixed("Gain aura (stabilizes)"),
                    "btn",
                    "gain-aura",
                    Signal::stored(false),
                    Callback::new(move |()| {
                        let e = ctx
                            .state
                            .with_untracked(|s| heal_events(s, who, amount.get_untracked()));
                        ctx.act(e);
                    }),
                ),
            ],
        )],
    )
}
