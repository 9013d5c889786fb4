//! A Tempo character at the table: health, defences, movement and dice on the first screen;
//! then one check panel: pick an action, see its cost, the exact chance of each row of its
//! outcome table (against a target's defences, and an opponent's dice when opposed), roll.

use super::{odds_line, Ctx};
use crate::rules::dice::{parse, roll, Distribution};
use crate::rules::tempo::combat::row_odds;
use crate::rules::tempo::{dice_dist, dice_ok, Edit, Kind, TempoSheet, ACTIONS, HEALTH_LIMIT};
use crate::rules::vogt::show_dice;
use crate::ui::kit::{choices, dist, fixed, flag, form, text, Counter, Field};
use crate::ui::state::with_dice;
use leptos::prelude::*;

type Figure = (&'static str, &'static str, fn(&TempoSheet) -> String);

const FIGURES: [Figure; 5] = [
    ("Combat defence", "defence", |s| s.defence.to_string()),
    ("Armoured", "armoured", |s| s.armoured.to_string()),
    ("Grapple defence", "grapple", |s| s.grapple.to_string()),
    ("Movement", "movement", |s| s.movement.to_string()),
    ("Check dice", "dice", |s| s.dice.clone()),
];

/// The checked actions (those with a roll), as (index, label with bonus and kind).
fn checked(s: &TempoSheet) -> Vec<(i32, String)> {
    ACTIONS
        .iter()
        .enumerate()
        .filter(|(_, a)| a.check)
        .map(|(i, a)| {
            let kind = match a.kind {
                Kind::Reactive => " (reaction)",
                Kind::CounterTempo => " (counter-tempo)",
                _ => "",
            };
            (i as i32, format!("{} {:+}{kind}", a.name, s.bonus(a.name)))
        })
        .collect()
}

/// What the action costs this character: fixed, or its weapon's.
fn cost_of(s: &TempoSheet, i: usize) -> String {
    let a = &ACTIONS[i];
    match (a.cost, a.arm) {
        (Some(c), _) => format!("{c} AP"),
        (None, Some(arm)) => s.weapon(arm).map_or_else(
            || "needs a weapon of its kind".to_owned(),
            |w| format!("{} AP with {}", w.cost(a.name), w.name),
        ),
        _ => String::new(),
    }
}

pub fn play(ctx: Ctx) -> impl IntoView {
    view! {
        <section class="card vitals" aria-label="Vitals">
            <div class="counters">
                <Counter label="Health" value=ctx.num(|s| s.health) set=ctx.set(Edit::Health)
                    max=ctx.max(|s| s.health_max) min=-HEALTH_LIMIT limit=HEALTH_LIMIT
                    note=ctx.text(|s| if s.health <= 0 { "down".into() } else { String::new() })/>
            </div>
            <ul class="figures" aria-label="Figures">
                {FIGURES.map(|(label, id, get)| view! { <li><small>{label}</small><strong data-testid=id>{ctx.text(get)}</strong></li> }).collect_view()}
            </ul>
        </section>
        {check(ctx)}
    }
}

fn check(ctx: Ctx) -> AnyView {
    let act = RwSignal::new(crate::rules::tempo::index("Melee Attack").unwrap_or(0) as i32);
    let [cd, acd, gd] = [5, 8, 5].map(RwSignal::new);
    let opp = RwSignal::new(String::new());
    let result = RwSignal::new(String::new());
    let sit = RwSignal::new(0);
    let i = move || act.get().clamp(0, ACTIONS.len() as i32 - 1) as usize;
    let action = move || &ACTIONS[i()];
    // The action's bonus and what the situation adds, as the fight adds them.
    let bonus = move |s: &TempoSheet| s.bonus(action().name) + s.situational(i(), sit.get());
    let own = move || {
        ctx.sheet.with(|s| {
            s.dice_dist()
                .map(|d| d.shift(i64::from(bonus(s))))
                .unwrap_or_else(|| Distribution::point(0))
        })
    };
    let other = move || opp.with(|o| (!o.trim().is_empty()).then(|| dice_dist(o)).flatten());
    let net = move || match other() {
        Some(o) => own().convolve(&o.negate()),
        None => own(),
    };
    let odds = text(move || {
        let rows = row_odds(action(), &net(), 1, [cd.get(), acd.get(), gd.get()]);
        let against = opp.with(|o| {
            if o.trim().is_empty() {
                "unopposed".to_owned()
            } else if dice_ok(o) {
                format!("less the opponent's {}", o.trim())
            } else {
                "the opponent's dice are not valid notation".to_owned()
            }
        });
        let d = net();
        format!(
            "Net result {} to {} ({against}): {}",
            d.min(),
            d.max(),
            odds_line(&rows)
        )
    });
    let about = text(move || {
        let a = action();
        ctx.sheet
            .with(|s| format!("{} Costs {}.", a.text, cost_of(s, act.get() as usize)))
    });
    let do_roll = move || {
        let a = action();
        let (dice, bonus) = ctx.sheet.with_untracked(|s| (s.dice.clone(), bonus(s)));
        let Ok(mine) = parse(&dice) else {
            return result.set("The check dice are not valid notation.".into());
        };
        let theirs = opp.with_untracked(|o| parse(o).ok());
        let Ok((r, o)) = with_dice(|src| (roll(&mine, src), theirs.as_ref().map(|e| roll(e, src))))
        else {
            return result.set("The dice could not be rolled here.".into());
        };
        let total = r.total + i64::from(bonus);
        let net = total - o.as_ref().map_or(0, |x| x.total);
        let t = [cd.get_untracked(), acd.get_untracked(), gd.get_untracked()];
        let row = a.rows[a.row_of(net, t[0], t[1], t[2])].name;
        let vs = o.as_ref().map_or(String::new(), |x| {
            format!(" − opponent {} ({})", x.total, show_dice(x))
        });
        result.set(format!(
            "{}: rolled {} ({}) {bonus:+} = {total}{vs} → net {net}: {row}",
            a.name,
            r.total,
            show_dice(&r)
        ));
        ctx.log(format!("{} {dice}{bonus:+}", a.name), r);
    };
    view! {
        {form(
            "Check",
            vec![
                Field::Pick("Action", choices(move || ctx.sheet.with(checked)), act),
                Field::Text("muted", "action-about", about),
                Field::Pick(
                    "Situation",
                    choices(|| {
                        [
                            "None",
                            "Aimed: the weapon's aimed accuracy",
                            "A feint's counter-attack: +3",
                            "Against an unarmed attack: +5",
                        ]
                        .into_iter()
                        .enumerate()
                        .map(|(k, t)| (k as i32, t.to_owned()))
                        .collect()
                    }),
                    sit,
                ),
                Field::Pair(vec![
                    Field::Num("Target's combat defence", cd, -100, 100),
                    Field::Num("Target's armoured defence", acd, -100, 100),
                    Field::Num("Target's grapple defence", gd, -100, 100),
                ]),
                Field::Input("Opposed by (the opponent's dice and bonus, e.g. 1d10+2; empty: unopposed)", opp),
                Field::Text("chance", "check-odds", odds),
                Field::Chart(dist(net), crate::ui::kit::target(|| Some(0))),
                Field::Act(
                    fixed("Roll check"),
                    "btn primary roll-btn",
                    "roll-check",
                    flag(move || {
                        ctx.sheet.with(|s| !dice_ok(&s.dice))
                            || opp.with(|o| !o.trim().is_empty() && !dice_ok(o))
                    }),
                    Callback::new(move |()| do_roll()),
                ),
                Field::Text("result-line", "check-result", result.into()),
            ],
        )}
    }
    .into_any()
}
