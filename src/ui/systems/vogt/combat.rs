//! Bo Vogt's fight: every round each combatant declares an action, the exact chance of acting
//! before each opponent is shown from the declared dice, then everyone rolls; on a combatant's
//! sheet: reevaluate, defend, run, help, attacks with one damage roll against every target
//! (each through its own resistances, with the chance to drop it), and the death and
//! dismemberment table. The rules (`rules::vogt::combat`) decide everything.

use crate::rules::encounter::{Combatant, Event, State};
use crate::rules::referee::Intent;
use crate::rules::vogt::combat::{
    ar_now, declared, declared_now, declared_weapon, init_side, roll_round, round_actions, rung,
    speed, takes, unconscious, usable, Action, AR, DEX, MOVE, STR, TECH_LEFT,
};
use crate::rules::vogt::referee::{Action as Act, DAMAGE_TYPES, EXTRA_LIMIT};
use crate::rules::vogt::{before, damage_dist, damage_expr, drop_chance, parse_dice, TOP};
use crate::ui::encounters::EncCtx;
use crate::ui::format::{decimal, percent};
use crate::ui::kit::offers::{last_said, picked};
use crate::ui::kit::{choices, fixed, flag, form, offers, text, Field};
use crate::ui::systems::{add_label, npc_names, CombatUi};
use leptos::prelude::*;

pub static UI: CombatUi = CombatUi {
    npc_form,
    panel,
    tools,
    tools_title: "Declare and roll",
    row_note,
};

fn row_note(s: &State, who: u32) -> String {
    let Some(c) = s.get(who) else {
        return String::new();
    };
    let mut out = format!("AR {}", ar_now(s, who));
    if c.death > 0 {
        out.push_str(&format!(" · exhaustion {}", c.death));
    }
    if let (Some(a), Some(&roll)) = (declared(c), c.init.first()) {
        out.push_str(&format!(" · {} {} → {roll}", a.name(), a.dice()));
        if unconscious(s, who) {
            out.push_str(" (unconscious: 10d10)");
        }
    }
    out
}

fn npc_form(ctx: EncCtx) -> AnyView {
    let name = RwSignal::new("Goblin".to_owned());
    let [count, hp, dex, str_, ar, mv] = [1, 6, 2, 1, 0, 6].map(RwSignal::new);
    let weapon = RwSignal::new("1d6".to_owned());
    let dtype = RwSignal::new("slash".to_owned());
    let resist = RwSignal::new(String::new());
    let vuln = RwSignal::new(String::new());
    let add = move || {
        let names = ctx
            .state
            .with_untracked(|s| name.with_untracked(|n| npc_names(s, n, count.get_untracked())));
        let list = names
            .into_iter()
            .map(|n| {
                let mut c = Combatant::new(
                    &crate::rules::encounter::systems::VOGT,
                    n,
                    hp.get_untracked(),
                );
                c.stats[STR] = str_.get_untracked();
                c.stats[DEX] = dex.get_untracked();
                c.stats[AR] = ar.get_untracked();
                c.stats[MOVE] = mv.get_untracked();
                c.texts = vec![
                    weapon.get_untracked().trim().to_owned(),
                    dtype.get_untracked().trim().chars().take(40).collect(),
                    resist.get_untracked().chars().take(200).collect(),
                    vuln.get_untracked().chars().take(200).collect(),
                ];
                c
            })
            .collect();
        ctx.act(Event::Group(list));
    };
    let label = add_label(name, count);
    form(
        "Quick NPC",
        vec![
            Field::Input("Name", name),
            Field::Pair(vec![
                Field::Num("How many", count, 1, 20),
                Field::Num("HP", hp, 1, 1000),
                Field::Num("STR rung", str_, 0, TOP),
                Field::Num("DEX rung", dex, 0, TOP),
                Field::Num("AR", ar, 0, 100),
                Field::Num("Movement", mv, 0, 100),
            ]),
            Field::Input("Weapon damage (e.g. 1d6)", weapon),
            Field::Input("Damage type", dtype),
            Field::Input("Resists (e.g. fire, cold)", resist),
            Field::Input("Vulnerable to", vuln),
            Field::Act(
                label,
                "btn primary wide",
                "add-npc",
                flag(move || weapon.with(|w| parse_dice(w).is_none())),
                Callback::new(move |()| add()),
            ),
        ],
    )
}

/// Each combatant's chances of acting before each other one, from the declared dice (of those
/// still to roll this round).
fn chances(s: &State) -> String {
    let acts = round_actions(s);
    if acts.len() > 12 {
        return "With more than 12 combatants, open one's sheet to see its chances.".into();
    }
    acts.iter()
        .map(|&(a, aa)| {
            let mine = init_side(s, a, aa);
            let vs: Vec<String> = acts
                .iter()
                .filter(|x| x.0 != a)
                .map(|&(b, ba)| {
                    let (first, gm, _) = before(mine, init_side(s, b, ba));
                    let gm = if gm.is_impossible() {
                        String::new()
                    } else {
                        format!(" (GM decides {})", percent(gm))
                    };
                    format!("before {} {}{gm}", s.name(b), percent(first))
                })
                .collect();
            format!(
                "{} ({} {}): {}",
                s.name(a),
                aa.name(),
                mine.dice,
                vs.join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Between rounds: the chances of acting before each other one from the declared actions
/// (each declared on its own sheet, as the rules offer), and one roll for everyone.
fn tools(ctx: EncCtx) -> AnyView {
    let declaring = flag(move || {
        ctx.state
            .with(|s| s.current.is_none() && !s.ended && !round_actions(s).is_empty())
    });
    let roll_all = move || {
        if let Some(Some(e)) = ctx
            .state
            .with_untracked(|s| ctx.roll(|src| roll_round(s, src)))
        {
            ctx.act(e);
        }
    };
    form(
        "Declare and roll",
        vec![
            Field::Text(
                "muted",
                "",
                fixed("Each declares an action on its sheet (a player on their phone); its die is the initiative, lowest first. Ties: the higher DEX, then the smaller die, then the GM."),
            ),
            Field::If(
                declaring,
                vec![
                    Field::Text("chance pre", "before-chances", text(move || ctx.state.with(chances))),
                    Field::Act(fixed("Roll initiative for everyone"), "btn primary wide", "roll-initiative", Signal::stored(false), Callback::new(move |()| roll_all())),
                ],
            ),
        ],
    )
}

fn panel(ctx: EncCtx, who: u32) -> AnyView {
    view! {
        {status(ctx, who)}
        {actions(ctx, who)}
        {attack(ctx, who)}
    }
    .into_any()
}

fn status(ctx: EncCtx, who: u32) -> AnyView {
    let line = text(move || {
        ctx.state.with(|s| {
            if s.get(who).is_none() {
                return String::new();
            }
            let mut out = row_note(s, who);
            out.push_str(&format!(
                " · speed {} · DEX rung {} · STR rung {}",
                speed(s, who),
                rung(s, who, DEX),
                rung(s, who, STR)
            ));
            let left = s.get(who).map_or(0, |c| c.stat(TECH_LEFT));
            if left > 0 {
                out.push_str(&format!(" · technique dice left {left}"));
            }
            out
        })
    });
    form("Status", vec![Field::Text("muted", "vogt-status", line)])
}

/// Vogt's own actions as the rules offer them now: declaring (in the declaration phase),
/// reevaluating, the declared action, the death and dismemberment roll; help with its pick.
fn actions(ctx: EncCtx, who: u32) -> AnyView {
    let mate = RwSignal::new(0);
    let others = choices(move || {
        ctx.state.with(|s| {
            s.order
                .iter()
                .filter(|&&x| x != who)
                .map(|&x| (x as i32, s.name(x).to_owned()))
                .collect()
        })
    });
    let [help, why] = picked(
        ctx,
        who,
        |i| matches!(i, Intent::Vogt(Act::Help(_))),
        "Help (advantage)",
        "help",
        std::sync::Arc::new(move || Intent::Vogt(Act::Help(mate.get_untracked().max(0) as u32))),
    );
    form(
        "Actions",
        vec![
            offers(ctx, who, |i| matches!(i, Intent::Vogt(a) if !a.picks())),
            Field::Pick("Help whom", others, mate),
            help,
            why,
        ],
    )
}

/// Whether `who` declared a technique this round (its damage is then the technique's dice).
fn technique(s: &State, who: u32) -> bool {
    s.get(who)
        .and_then(|c| declared_now(s, c))
        .is_some_and(|a| matches!(a, Action::Technique(_)))
}

/// The "With" choice for a technique's damage of type [`DAMAGE_TYPES`]`[i]`.
const TECH_PICK: i32 = 100;

/// The weapon the "With" choice `w` stands for: that one if it can be used, else the first that
/// can (what the list shows first when its choice is gone).
fn weapon_at(s: &State, who: u32, w: i32) -> Option<(usize, crate::rules::vogt::combat::Weapon)> {
    let list = with_list(s, who);
    let at = list.iter().position(|(i, _)| *i as i32 == w).unwrap_or(0);
    list.into_iter().nth(at)
}

/// The weapons the "With" list offers: the one declared this round, else each not broken.
fn with_list(s: &State, who: u32) -> Vec<(usize, crate::rules::vogt::combat::Weapon)> {
    let chosen = s.get(who).and_then(|c| declared_weapon(s, c));
    usable(s, who)
        .into_iter()
        .filter(|(i, _)| chosen.is_none_or(|d| d as usize == *i))
        .collect()
}

/// The damage roll: the chosen weapon's (plus STR), or with a technique declared its dice of
/// the type picked (plus the modifier), one roll for every target.
fn attack(ctx: EncCtx, who: u32) -> AnyView {
    let w = RwSignal::new(0);
    let extra = RwSignal::new(0);
    let targets = RwSignal::new(Vec::<u32>::new());
    let chosen = move || {
        ctx.state.with(|s| {
            if technique(s, who) {
                let d = declared_now(s, s.get(who)?)?.dice();
                let t = DAMAGE_TYPES.get((w.get() - TECH_PICK).max(0) as usize)?;
                return Some((damage_expr(&d.to_string(), extra.get())?, (*t).to_owned()));
            }
            let (_, w) = weapon_at(s, who, w.get())?;
            Some((
                damage_expr(&w.damage, rung(s, who, STR).saturating_add(extra.get()))?,
                w.dtype,
            ))
        })
    };
    let odds = text(move || {
        let Some((e, dtype)) = chosen() else {
            return "The weapon's damage is not dice.".into();
        };
        let picked = targets.get();
        if picked.is_empty() {
            return format!("{e}: pick the targets; one roll hits them all.");
        }
        ctx.state.with(|s| {
            picked
                .iter()
                .map(|&t| {
                    if s.veiled.contains(&t) {
                        return format!("{}: {}", s.name(t), crate::rules::referee::GM_ODDS);
                    }
                    let how = takes(s, t, &dtype);
                    let hp = s.get(t).map_or(0, |c| c.hp);
                    match damage_dist(&e, how) {
                        Ok(d) => format!(
                            "{}: {e}{}, average {}, to 0 HP or less, a level ({hp} left): {}",
                            s.name(t),
                            if how.resists {
                                " halved"
                            } else if how.vulnerable {
                                " doubled"
                            } else {
                                ""
                            },
                            decimal(d.mean()),
                            percent(drop_chance(&d, hp))
                        ),
                        Err(_) => format!("{}: too many dice to compute", s.name(t)),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
    });
    let [strike, why] = picked(
        ctx,
        who,
        |i| matches!(i, Intent::Vogt(Act::Attack { .. } | Act::Technique { .. })),
        "Roll damage and apply",
        "roll-damage",
        std::sync::Arc::new(move || {
            let (targets, extra, w) = (
                targets.get_untracked(),
                extra.get_untracked(),
                w.get_untracked(),
            );
            ctx.state.with_untracked(|s| {
                Intent::Vogt(if technique(s, who) {
                    Act::Technique {
                        dtype: (w - TECH_PICK).max(0) as u32,
                        extra,
                        targets,
                    }
                } else {
                    Act::Attack {
                        weapon: weapon_at(s, who, w).map_or(0, |(i, _)| i as u32),
                        extra,
                        targets,
                    }
                })
            })
        }),
    );
    // The roll as the fight's log has it (a critical chain marked).
    let result = last_said(ctx, who, " deals ");
    form(
        "Attack",
        vec![
            Field::Pick(
                "With",
                choices(move || {
                    ctx.state.with(|s| {
                        let Some(c) = s.get(who) else {
                            return Vec::new();
                        };
                        // A technique declared: its dice, of each damage type; else each
                        // weapon not broken.
                        if let Some(d) = declared_now(s, c).filter(|_| technique(s, who)) {
                            let d = d.dice();
                            return (0..DAMAGE_TYPES.len() as i32)
                                .map(|i| {
                                    let t = DAMAGE_TYPES[i as usize];
                                    (
                                        TECH_PICK + i,
                                        format!(
                                            "Technique · {d} {}",
                                            if t.is_empty() { "untyped" } else { t }
                                        ),
                                    )
                                })
                                .collect();
                        }
                        with_list(s, who)
                            .into_iter()
                            .map(|(i, w)| {
                                (i as i32, format!("{} · {} {}", w.name, w.damage, w.dtype))
                            })
                            .collect()
                    })
                }),
                w,
            ),
            Field::Num("Extra damage", extra, -EXTRA_LIMIT, EXTRA_LIMIT),
            Field::Toggles(
                "Targets",
                choices(move || {
                    ctx.state.with(|s| {
                        s.order
                            .iter()
                            .filter(|&&x| x != who)
                            .filter(|&&x| s.get(x).is_some_and(|c| !c.dead && !c.gone))
                            .map(|&x| (x as i32, s.name(x).to_owned()))
                            .collect()
                    })
                }),
                targets,
            ),
            Field::Text("chance pre", "attack-odds", odds),
            strike,
            why,
            Field::Text("result-line", "attack-result", result),
        ],
    )
}
