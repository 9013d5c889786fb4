//! The chase on a Heimr combatant's panel (`rules::heimr::chase` decides everything): whom it
//! chases and how far; while it chases, both sides' C and P on the ground the GM picks, the
//! exact odds of the next exchange and its roll; and the environment tables as one pick whose
//! number shows with each side's chance against it. Made of `Field`s only.

use crate::rules::heimr::chase::{odds_now, pair, quarry, Outcome};
use crate::rules::heimr::combat::{AGILITY_C, AGILITY_P, FATIGUE};
use crate::rules::heimr::referee::Action as H;
use crate::rules::heimr::success_chance;
use crate::rules::heimr::terrain::{Terrain, TERRAIN};
use crate::rules::referee::Intent;
use crate::ui::encounters::EncCtx;
use crate::ui::format::percent;
use crate::ui::kit::offers::{offers, picked};
use crate::ui::kit::{choices, flag, form, numbered_options as named, text, Field};
use leptos::prelude::*;
use std::sync::Arc;

pub fn chase(ctx: EncCtx, who: u32) -> AnyView {
    // Defaults: the first other combatant (or its quarry), both running on Agility.
    let (first, [c, p, qc, qp]) = ctx.state.with_untracked(|s| {
        let q = quarry(s, who).or_else(|| s.order.iter().copied().find(|&x| x != who));
        let ag = |id: Option<u32>, i| id.and_then(|x| s.get(x)).map_or(0, |c| c.stat(i));
        let me = Some(who);
        (
            q.unwrap_or(0) as i32,
            [
                ag(me, AGILITY_C),
                ag(me, AGILITY_P),
                ag(q, AGILITY_C),
                ag(q, AGILITY_P),
            ]
            .map(RwSignal::new),
        )
    });
    let (target, far, ground) = (RwSignal::new(first), RwSignal::new(3), RwSignal::new(0));
    let chasing = flag(move || ctx.state.with(|s| quarry(s, who).is_some()));
    let others = move || {
        ctx.state.with(|s| {
            s.order
                .iter()
                .filter(|&&x| x != who)
                .filter_map(|&x| s.get(x).filter(|c| !c.dead))
                .map(|c| (c.id as i32, c.name.clone()))
                .collect()
        })
    };
    let sides = move || (c.get(), p.get(), qc.get(), qp.get());
    let odds = text(move || {
        ctx.state.with(|s| {
            let (Ok((q, d)), Some(o)) = (pair(s, who), odds_now(s, who, sides())) else {
                return String::new();
            };
            let each: Vec<String> = Outcome::ALL
                .iter()
                .zip(o)
                .map(|(x, c)| format!("{} {}", x.name(), percent(c)))
                .collect();
            format!("{} is {d} ahead. Next: {}.", s.name(q), each.join(" · "))
        })
    });
    let note = text(move || {
        let t = TERRAIN[ground.get().clamp(0, TERRAIN.len() as i32 - 1) as usize];
        let vs = ctx.state.with(|s| {
            let f = |id| s.get(id).map(|x| Some(x.stat(FATIGUE)));
            let q = pair(s, who).ok().and_then(|(q, _)| f(q));
            match (t.kind.is_cr() && t.n > 0, f(who), q) {
                (true, Some(a), Some(b)) => format!(
                    " Chaser {}, quarry {}.",
                    percent(success_chance(c.get(), p.get(), t.n, a)),
                    percent(success_chance(qc.get(), qp.get(), t.n, b))
                ),
                _ => String::new(),
            }
        });
        format!("{}.{vs}", t.kind.note())
    });
    let [start, start_why] = picked(
        ctx,
        who,
        |i| matches!(i, Intent::Heimr(H::Chase { .. })),
        "Start the chase",
        "chase-start",
        Arc::new(move || {
            Intent::Heimr(H::Chase {
                target: target.get_untracked().max(0) as u32,
                distance: far.get_untracked().max(1) as u32,
            })
        }),
    );
    let [roll, roll_why] = picked(
        ctx,
        who,
        |i| matches!(i, Intent::Heimr(H::ChaseRoll { .. })),
        "Roll the chase",
        "chase-roll",
        Arc::new(move || {
            let (c, p, qc, qp) = untrack(sides);
            Intent::Heimr(H::ChaseRoll { c, p, qc, qp })
        }),
    );
    form(
        "Chase",
        vec![
            Field::If(
                flag(move || !chasing.get()),
                vec![
                    Field::Pick("Chase whom", choices(others), target),
                    Field::Num("Squares behind", far, 1, 99),
                    start,
                    start_why,
                ],
            ),
            Field::If(
                chasing,
                vec![
                    Field::Text("chance", "chase-odds", odds),
                    Field::Pair(vec![
                        Field::Num("Chaser C", c, -20, 20),
                        Field::Num("P", p, -20, 40),
                    ]),
                    Field::Pair(vec![
                        Field::Num("Quarry C", qc, -20, 20),
                        Field::Num("P", qp, -20, 40),
                    ]),
                    roll,
                    roll_why,
                    offers(ctx, who, |i| matches!(i, Intent::Heimr(H::ChaseEnd))),
                ],
            ),
            Field::Pick("Ground", named(TERRAIN.iter().map(Terrain::label)), ground),
            Field::Text("muted", "ground-note", note),
        ],
    )
}
