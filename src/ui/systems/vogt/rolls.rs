//! Bo Vogt's roll panels, drawn as kit forms: an ability check (bonus, advantage or
//! disadvantage, a target, a contest against another character or typed dice) and a weapon's
//! damage (critical dice, the target's resistance or vulnerability, the chance to drop it).

use super::Ctx;
use crate::rules::dice::{parse, roll, Chance, DieRoll, Distribution, RollOutcome, TermRoll};
use crate::rules::vogt::{
    check_dist, damage_dist, damage_expr, drop_chance, roll_check, Ability, Dice, Edge, Takes,
};
use crate::storage::character::Sheet;
use crate::ui::components::bar_chart::BarChart;
use crate::ui::format::{decimal, percent};
use crate::ui::kit::{choices, fixed, flag, form, numbered_options, text, Field};
use crate::ui::state::with_dice;
use leptos::prelude::*;

const EDGES: [(&str, Edge); 3] = [
    ("Normal", Edge::Normal),
    ("Advantage (helped): best of two", Edge::Advantage),
    (
        "Disadvantage (blind, deaf, mute…): worst of two",
        Edge::Disadvantage,
    ),
];

/// Other Vogt characters' abilities to contest against: (character index × 4 + ability, label).
fn opponents(ctx: Ctx) -> Vec<(i32, String, Dice)> {
    let me = ctx.id.get_value();
    ctx.roster.chars.with(|cs| {
        let mut out = vec![(-1, "Nobody: type the dice below".to_owned(), Dice::NONE)];
        for (i, c) in cs.iter().enumerate() {
            if let (Sheet::Vogt(s), true) = (&c.sheet, c.id != me) {
                for a in Ability::ALL {
                    let d = s.die(a);
                    out.push((
                        (i * 4 + a.index()) as i32,
                        format!("{}: {} {d}", c.name, a.short()),
                        d,
                    ));
                }
            }
        }
        out
    })
}

/// The check panel, first set to `ability` with `bonus` (a skill's).
pub fn check(ctx: Ctx, ability: Ability, bonus: i32, title: String) -> AnyView {
    let ab = RwSignal::new(ability.index() as i32);
    let bonus = RwSignal::new(bonus);
    let edge = RwSignal::new(0);
    let target = RwSignal::new(0);
    let opp = RwSignal::new(-1);
    let typed = RwSignal::new(String::new());
    let result = RwSignal::new(String::new());
    let dice = move || {
        ctx.sheet
            .with(|s| s.die(Ability::ALL[ab.get().clamp(0, 3) as usize]))
    };
    let dist = move || {
        check_dist(
            dice(),
            bonus.get(),
            EDGES[edge.get().clamp(0, 2) as usize].1,
        )
    };
    let other = move || {
        let o = opp.get();
        if o >= 0 {
            opponents(ctx)
                .into_iter()
                .find(|x| x.0 == o)
                .map(|x| (x.1, x.2.dist()))
        } else {
            let t = typed.get();
            parse(&t)
                .ok()
                .and_then(|e| Distribution::of_expr(&e).ok())
                .map(|d| (t.trim().to_owned(), d))
        }
    };
    let odds = text(move || {
        let d = dist();
        let mut out = format!(
            "{}{:+}: {} to {}, average {}",
            dice(),
            bonus.get(),
            d.min(),
            d.max(),
            decimal(d.mean())
        );
        let t = target.get();
        if t > 0 {
            out.push_str(&format!(
                " · {t} or more: {}",
                percent(d.at_least(i64::from(t)))
            ));
        }
        out
    });
    let contest = text(move || {
        other().map_or(String::new(), |(name, od)| {
            let (w, t, l) = dist().versus(&od);
            format!(
                "Contest against {name}: win {} · tie {} (the GM decides) · lose {}",
                percent(w),
                percent(t),
                percent(l)
            )
        })
    });
    let do_roll = move || {
        let (d, b, e) = (
            dice(),
            bonus.get_untracked(),
            EDGES[edge.get_untracked().clamp(0, 2) as usize].1,
        );
        let Ok(r) = with_dice(|src| roll_check(d, b, e, src)) else {
            return result.set("The dice could not be rolled here.".into());
        };
        let sets: Vec<String> = r
            .sets
            .iter()
            .zip(&r.totals)
            .map(|(s, t)| {
                let f: Vec<String> = s.iter().map(u32::to_string).collect();
                format!(
                    "{} {b:+} = {t}",
                    if f.is_empty() {
                        "0".into()
                    } else {
                        f.join(" + ")
                    }
                )
            })
            .collect();
        let kept = if r.sets.len() > 1 {
            format!(" · keeps {}", r.total)
        } else {
            String::new()
        };
        result.set(format!("Rolled {}{kept}", sets.join(" | ")));
        let kept_set = r.totals.iter().position(|&t| t == r.total).unwrap_or(0);
        ctx.log(
            format!("{d}{b:+}"),
            outcome(&r.sets, d.sides, b, kept_set, r.total),
        );
    };
    view! {
        {form(
            "Ability check",
            vec![
                Field::Text("muted", "", Signal::stored(title)),
                Field::Pick(
                    "Ability",
                    choices(move || {
                        ctx.sheet.with(|s| {
                            Ability::ALL
                                .iter()
                                .map(|&a| (a.index() as i32, format!("{} {}", a.short(), s.die(a))))
                                .collect()
                        })
                    }),
                    ab,
                ),
                Field::Pair(vec![
                    Field::Num("Bonus", bonus, -100, 100),
                    Field::Num("Target (0: none)", target, 0, 1000),
                ]),
                Field::Pick("Roll", numbered_options(EDGES.iter().map(|e| e.0.to_owned())), edge),
                Field::Text("chance", "check-odds", odds),
                Field::Pick(
                    "Contest against",
                    choices(move || opponents(ctx).into_iter().map(|x| (x.0, x.1)).collect()),
                    opp,
                ),
                Field::If(flag(move || opp.get() < 0), vec![Field::Input("Opponent's dice (e.g. 2d6+1)", typed)]),
                Field::Text("chance", "contest-odds", contest),
                Field::Act(fixed("Roll check"), "btn primary roll-btn", "roll-check", Signal::stored(false), Callback::new(move |()| do_roll())),
                Field::Text("result-line", "check-result", result.into()),
            ],
        )}
        <BarChart dist=crate::ui::kit::dist(dist) target=crate::ui::kit::target(move || {
            let t = target.get();
            (t > 0).then_some(i64::from(t))
        })/>
    }
    .into_any()
}

/// A roll for the log: each set of dice, the kept one marked.
fn outcome(sets: &[Vec<u32>], sides: u32, bonus: i32, kept: usize, total: i64) -> RollOutcome {
    let mut terms: Vec<TermRoll> = sets
        .iter()
        .enumerate()
        .map(|(k, set)| TermRoll {
            negative: false,
            dice: set
                .iter()
                .map(|&f| DieRoll {
                    sides,
                    faces: vec![f],
                    kept: k == kept,
                })
                .collect(),
            constant: None,
            value: if k == kept {
                set.iter().map(|&f| i64::from(f)).sum()
            } else {
                0
            },
        })
        .collect();
    if bonus != 0 {
        terms.push(TermRoll {
            negative: bonus < 0,
            dice: Vec::new(),
            constant: Some(bonus.unsigned_abs()),
            value: i64::from(bonus),
        });
    }
    RollOutcome { terms, total }
}

/// A weapon's damage: its dice (each may crit) + the STR score, through the target's
/// resistance or vulnerability, with the chance to drop it (a fight applies it to targets).
pub fn damage(ctx: Ctx, weapon: usize) -> AnyView {
    let extra = RwSignal::new(0);
    let (resist, vuln) = (RwSignal::new(false), RwSignal::new(false));
    let hp = RwSignal::new(0);
    let result = RwSignal::new(String::new());
    let expr = move || {
        ctx.sheet.with(|s| {
            s.items.get(weapon).and_then(|w| {
                damage_expr(&w.damage, s.rung(Ability::Str).saturating_add(extra.get()))
            })
        })
    };
    let takes = move || {
        (
            Takes {
                resists: resist.get(),
                vulnerable: vuln.get(),
            },
            hp.get(),
        )
    };
    let dist = move || expr().and_then(|e| damage_dist(&e, takes().0).ok());
    let odds = text(move || {
        let Some(e) = expr() else {
            return "This weapon's damage is not dice: fix it in Edit.".into();
        };
        let (how, hp) = takes();
        let Some(d) = dist() else {
            return "Too many dice to compute exactly; it can still be rolled.".into();
        };
        let how = how.text();
        let mut out = format!(
            "{e} (STR {} added; a die at its top adds another){how}: {} to {}, average {}",
            ctx.sheet.with(|s| s.rung(Ability::Str)),
            d.min(),
            d.max(),
            decimal(d.mean())
        );
        if hp > 0 {
            out.push_str(&format!(
                " · drops a target with {hp} HP: {}",
                percent(drop_chance(&d, hp))
            ));
        }
        out
    });
    let cap = text(move || {
        let Some(e) = expr() else {
            return String::new();
        };
        let (sides, count) = e.terms.iter().fold((0, 0), |acc, t| match &t.kind {
            crate::rules::dice::TermKind::Dice(p) => (p.sides.max(acc.0), acc.1 + p.count),
            _ => acc,
        });
        if count == 0 {
            return String::new();
        }
        let m = Distribution::explode_truncated_mass(sides, count);
        format!(
            "Critical dice stop after {} in a row; that leaves out {} of the outcomes.",
            crate::rules::dice::EXPLODE_CAP,
            percent(Chance::exact(m))
        )
    });
    let do_roll = move || {
        let Some(e) = expr() else { return };
        let Ok(out) = with_dice(|src| roll(&e, src)) else {
            return result.set("The dice could not be rolled here.".into());
        };
        let (how, _) = takes();
        let taken = how.apply(out.total);
        result.set(format!(
            "Rolled [{}] = {}; the target takes {taken}",
            crate::rules::vogt::show_dice(&out),
            out.total.max(0)
        ));
        ctx.log(e.to_string(), out);
    };
    view! {
        {form(
            "Damage",
            vec![
                Field::Pair(vec![Field::Num("Target HP (0: none)", hp, 0, 10_000), Field::Num("Extra damage", extra, -100, 100)]),
                Field::Tick("The target resists this type", resist),
                Field::Tick("The target is vulnerable to it", vuln),
                Field::Text("chance", "damage-odds", odds),
                Field::Text("muted", "crit-cap", cap),
                Field::Act(fixed("Roll damage"), "btn primary roll-btn", "roll-damage", flag(move || expr().is_none()), Callback::new(move |()| do_roll())),
                Field::Text("result-line", "damage-result", result.into()),
            ],
        )}
        <BarChart dist=crate::ui::kit::dist(move || dist().unwrap_or_else(|| Distribution::point(0))) target=crate::ui::kit::target(move || {
            let h = takes().1;
            (h > 0).then_some(i64::from(h))
        })/>
    }
    .into_any()
}
