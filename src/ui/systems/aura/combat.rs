//! An Energy / Aura fight: no turn order. Each row shows the pools left this round; on a
//! combatant's sheet, the actions with their costs (refused with the reason when the pools or
//! conditions forbid them), the once-a-round stamina swap and initiative roll, attacks against
//! a target read from the fight with the exact odds, and the death roll, death save and waking
//! at 0 aura or 0 stamina. The rules (`rules::aura::combat`) decide everything.

use super::rolls::{attack_form, death_tables, edge_word, Target};
use crate::rules::aura::combat::{
    auto_hit, can_roll, escape_dc, escape_dc_events, escape_odds, fortitude_roll, guard, holder_of,
    initiative_odds, may_roll_initiative, npcs_join, speed, Npc, AGILE, AGILITY, AR, ENERGY,
    ESCAPE_DC_DEFAULT, HELD_BY, INITIATIVE, MAX_STAMINA, MOVED, SAVE, STAMINA, WAKE,
};
use crate::rules::aura::referee::Action as A;
use crate::rules::aura::strike::{attackers, foe, Aim, FightAttack};
use crate::rules::aura::{dying_chance, AttackMode, SIZES};
use crate::rules::encounter::State;
use crate::rules::referee::Intent;
use crate::ui::encounters::EncCtx;
use crate::ui::format::percent;
use crate::ui::kit::offers::{last_said, picked};
use crate::ui::kit::{
    choices, fixed, flag, form, numbered_options, offers as kit_offers, reactive, text, Field,
};
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
    let (moved, agile) = (pool(s, who, MOVED), pool(s, who, AGILE));
    if moved > 0 {
        let m = crate::ui::format::decimal(f64::from(moved) / 3.0);
        out.push_str(&format!(" · moved {m} of {} m", speed(s, who)));
    }
    if agile > 0 {
        out.push_str(&format!(" · {agile} agile moves earned"));
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
                    if can_roll(s, id, SAVE).is_ok() {
                        d.push("death save");
                    }
                    if can_roll(s, id, WAKE).is_ok() && pool(s, id, STAMINA) == 0 {
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
    let d = Npc::default();
    let name = RwSignal::new("Gnoll".to_owned());
    let [count, aura, stamina, ev, rev, uev, fort, will, init, av, bonus, uav, miss, cov, rcov, ar] =
        [
            1,
            d.aura,
            d.stamina,
            d.evasion,
            d.ranged_evasion,
            d.unarmed_evasion,
            d.fortitude,
            d.will,
            d.initiative,
            d.av,
            d.bonus,
            d.unarmed_av,
            d.miss,
            d.coverage,
            d.ranged_coverage,
            d.ar,
        ]
        .map(RwSignal::new);
    let damage = RwSignal::new(d.damage.clone());
    let shot = RwSignal::new(String::new());
    let size = RwSignal::new(2);
    let weight = RwSignal::new(0);
    let blunt = RwSignal::new(false);
    let precise = RwSignal::new(0);
    let add = move || {
        let n = Npc {
            aura: aura.get_untracked(),
            stamina: stamina.get_untracked(),
            evasion: ev.get_untracked(),
            ranged_evasion: rev.get_untracked(),
            unarmed_evasion: uev.get_untracked(),
            fortitude: fort.get_untracked(),
            will: will.get_untracked(),
            initiative: init.get_untracked(),
            av: av.get_untracked(),
            damage: damage.get_untracked().trim().to_owned(),
            bonus: bonus.get_untracked(),
            unarmed_av: uav.get_untracked(),
            shot: shot.get_untracked().trim().to_owned(),
            miss: miss.get_untracked(),
            coverage: cov.get_untracked(),
            ranged_coverage: rcov.get_untracked(),
            ar: ar.get_untracked(),
            size: size.get_untracked().clamp(0, 6) as usize,
            weight: weight.get_untracked(),
            blunt: blunt.get_untracked(),
            precise: precise.get_untracked(),
        };
        let names = ctx
            .state
            .with_untracked(|s| name.with_untracked(|n| npc_names(s, n, count.get_untracked())));
        ctx.act(ctx.state.with_untracked(|s| npcs_join(s, names, &n)));
    };
    let bad = flag(move || {
        damage.with(|d| crate::rules::dice::parse(d).is_err())
            || shot.with(|d| !d.trim().is_empty() && crate::rules::dice::parse(d).is_err())
    });
    form(
        "Quick NPC",
        vec![
            Field::Input("Name", name),
            Field::Pair(vec![
                Field::Num("How many", count, 1, 20),
                Field::Num("Aura", aura, 0, 10_000),
                Field::Num("Stamina", stamina, 0, 1000),
                Field::Num("Initiative bonus", init, -100, 100),
                Field::Num("Evasion", ev, -100, 1000),
                Field::Num("Ranged evasion (1d4*)", rev, -100, 1000),
                Field::Num("Unarmed evasion (no weapon or shield)", uev, -100, 1000),
                Field::Num("Fortitude", fort, -100, 1000),
                Field::Num("Will", will, -100, 1000),
                Field::Num("Melee AV", av, -100, 1000),
                Field::Num("Damage bonus", bonus, -100, 100),
                Field::Num("Unarmed AV (restrain, push)", uav, -100, 1000),
                Field::Num("Coverage (AC)", cov, 0, 100),
                Field::Num("Ranged coverage (AC)", rcov, 0, 100),
                Field::Num("AR", ar, 0, 100),
                Field::Num("Ranged miss chance modifier", miss, -100, 100),
                Field::Num(
                    "Weapon precise (critical 20 − precise and up)",
                    precise,
                    0,
                    18,
                ),
            ]),
            Field::Tick(
                "Its weapon is blunt (non-lethal from a chance roll of 5)",
                blunt,
            ),
            Field::Input("Weapon damage (e.g. 1d8)", damage),
            Field::Input("Ranged weapon damage (empty: none)", shot),
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
                bad,
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

fn is<const K: u32>(i: &Intent) -> bool {
    i.code()[0] == K
}

/// The action list and the swap as the rules offer them (refused with why when the pools or
/// conditions forbid them), and the once-a-round initiative roll against a pick.
fn actions(ctx: EncCtx, who: u32) -> AnyView {
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
    let odds = text(move || {
        ctx.state.with(|s| {
            let o = other.get().max(0) as u32;
            let (Some(a), Some(b)) = (s.get(who), s.get(o)) else {
                return String::new();
            };
            let w = initiative_odds(s, who, o);
            let theirs = if may_roll_initiative(s, o) {
                format!("d20{:+}", b.stat(INITIATIVE))
            } else {
                format!("{} (already rolled this round: fails by itself)", b.name)
            };
            format!(
                "d20{:+} against {theirs}: wins {} (a tie loses)",
                a.stat(INITIATIVE),
                percent(w)
            )
        })
    });
    let mut fields = vec![
        Field::Text(
            "chance",
            "pools",
            text(move || ctx.state.with(|s| row_note(s, who))),
        ),
        kit_offers(ctx, who, |i| {
            is::<500>(i) || is::<501>(i) || is::<510>(i) || is::<511>(i)
        }),
        Field::Pick("Initiative against", others, other),
        Field::Text("chance", "init-odds", odds),
    ];
    fields.extend(picked(
        ctx,
        who,
        is::<502>,
        "Roll initiative (once a round)",
        "roll-init",
        std::sync::Arc::new(move || {
            Intent::Aura(A::Initiative(other.get_untracked().max(0) as u32))
        }),
    ));
    form("Actions", fields)
}

fn attack(ctx: EncCtx, who: u32) -> AnyView {
    let kind = RwSignal::new(0);
    let target = RwSignal::new(0);
    let swift = RwSignal::new(false);
    let passing = RwSignal::new(false);
    let behind = RwSignal::new(false);
    let enhance = RwSignal::new(0);
    let man = RwSignal::new(0);
    // A maneuver is a melee attack: a new weapon starts without one.
    Effect::new(move |_| {
        kind.track();
        man.set(0);
    });
    let head = vec![
        Field::Pick(
            "With",
            choices(move || {
                ctx.state.with(|s| {
                    attackers(s, who)
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
        let k = kind.get().max(0) as u32;
        let Some((_, a)) = ctx
            .state
            .with_untracked(|s| attackers(s, who).into_iter().nth(k as usize))
        else {
            return ().into_any();
        };
        let plan = move |aim: Aim| FightAttack {
            target: target.get().max(0) as u32,
            with: k,
            behind: behind.get(),
            swift: swift.get(),
            passing: passing.get(),
            enhance: enhance.get().max(0) as u32,
            aim,
        };
        let melee = a.mode == AttackMode::Melee;
        let tgt = move || target.get().max(0) as u32;
        let foe = Signal::derive(move || {
            ctx.state
                .with(|s| foe(s, who, tgt(), melee, behind.get(), swift.get()))
        });
        let t = Target {
            foe,
            refuse: text(move || {
                let aim = Aim {
                    maneuver: man.get().max(0) as u32,
                    ..Aim::default()
                };
                ctx.state
                    .with(|s| plan(aim).plan(s, who))
                    .err()
                    .unwrap_or_default()
            }),
            maneuver: man,
            said: Some(last_said(ctx, who, " → ")),
            veiled: flag(move || ctx.state.with(|s| s.veiled.contains(&tgt()))),
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
                    let f = foe.get();
                    let mut out = format!(
                        "{}: aura {} · {} {}{} · coverage {} · AR {}",
                        c.name,
                        c.hp,
                        g.name,
                        g.value,
                        edge_word(g.edge),
                        f.coverage,
                        c.stat(AR)
                    );
                    if let Some(why) = auto_hit(s, tgt(), melee) {
                        out.push_str(&format!(" · {why}"));
                    }
                    if f.worse {
                        out.push_str(" · your attack rolls have disadvantage (dazed or blinded)");
                    }
                    out
                })
            }),
        );
        let on_roll: super::rolls::OnRoll = std::sync::Arc::new(move |aim| {
            if tgt() == 0 {
                return "Pick a target first.".to_owned();
            }
            let x = untrack(|| plan(aim));
            ctx.intend(who, Intent::Aura(A::Attack(x)));
            String::new()
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
/// letting go. The DC of a hold no one in the fight makes is the fight's, set by the GM here.
fn hold(ctx: EncCtx, who: u32) -> AnyView {
    let dc = RwSignal::new(ESCAPE_DC_DEFAULT);
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
            let (w, t, l) = escape_odds(s, who);
            // On a player's phone, a holder whose numbers the GM keeps is a name only.
            let by = s.get(who).map_or(0, |c| c.stat(HELD_BY)).max(0) as u32;
            if let Some(h) = s.get(by).filter(|h| h.gone && holder_of(s, who).is_none()) {
                return format!(
                    "Break free: fortitude 1d10*{f:+}{} against {}'s fortitude roll, which the GM's phone makes (its numbers are not shown here); a tie keeps the hold",
                    edge_word(e),
                    h.name
                );
            }
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
                    "Break free: fortitude 1d10*{f:+}{} must reach DC {} (no one in the fight holds it; the GM sets the DC): free {} · still held {}",
                    edge_word(e),
                    escape_dc(s, who),
                    percent(w),
                    percent(l)
                ),
            }
        })
    });
    let gm = flag(move || {
        ctx.ask.is_none()
            && ctx
                .state
                .with(|s| s.has(who, "Restrained") && holder_of(s, who).is_none())
    });
    let fields = vec![
        Field::Text("chance", "escape-odds", odds),
        kit_offers(ctx, who, |i| is::<504>(i) || is::<505>(i)),
        Field::If(
            gm,
            vec![
                Field::Num("DC of this hold (the GM's)", dc, 1, 1000),
                Field::Act(
                    fixed("Set the DC"),
                    "btn",
                    "escape-dc",
                    flag(|| false),
                    Callback::new(move |()| {
                        ctx.act(
                            ctx.state
                                .with_untracked(|s| escape_dc_events(s, who, dc.get_untracked())),
                        )
                    }),
                ),
            ],
        ),
    ];
    form("Held", vec![Field::If(show, fields)])
}

/// At 0 aura or 0 stamina: the chance of dying, both tables, and the death roll, death save,
/// wake roll and gaining aura as the rules offer them.
fn down(ctx: EncCtx, who: u32) -> AnyView {
    let amount = RwSignal::new(1);
    let show = flag(move || {
        ctx.state.with(|s| {
            s.get(who).is_some_and(|c| {
                !c.dead && (c.hp <= 0 || s.has(who, "Bleeding out") || s.has(who, "Unconscious"))
            })
        })
    });
    let mut fields = vec![
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
        kit_offers(ctx, who, |i| matches!(i.code()[0], 506..=507)),
    ];
    // The GM's tools (`Intent::gm_only`): on the GM's phone only.
    let mut gm = vec![
        kit_offers(ctx, who, is::<508>),
        Field::Num("Aura gained", amount, 1, 10_000),
    ];
    gm.extend(picked(
        ctx,
        who,
        is::<509>,
        "GM: gain aura (stabilizes)",
        "gain-aura",
        std::sync::Arc::new(move || {
            Intent::Aura(A::GainAura(amount.get_untracked().max(1) as u32))
        }),
    ));
    fields.push(Field::If(flag(move || ctx.ask.is_none()), gm));
    form("At 0 aura", vec![Field::If(show, fields)])
}
