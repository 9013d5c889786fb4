use super::Ctx as SheetCtx;
use crate::rules::dice::{DieRoll, RollOutcome, TermRoll};
use crate::rules::heimr::challenge::{
    opposed_chances, result_distribution, rise_chance, roll_challenge, success_chance,
    ChallengeRoll,
};
use crate::rules::heimr::combat::linked_may_rise;
use crate::rules::heimr::{Attr, AttrGroup, Edit, HeimrSheet};
use crate::storage::character::Sheet;
use crate::storage::roll_log::LogEntry;
use crate::ui::components::bar_chart::BarChart;
use crate::ui::format::percent;
use crate::ui::kit::{checked, flag, tap, text, typed, Stepper};
use crate::ui::roster::Roster;
use crate::ui::state::{now_ms, with_dice, Notices, RollLogState};
use leptos::prelude::*;

/// What a challenge is rolled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollFor {
    Ability(usize),
    Attribute(Attr),
}

impl RollFor {
    fn attrs(self, s: &HeimrSheet) -> Vec<Attr> {
        match self {
            RollFor::Ability(i) => s
                .abilities
                .get(i)
                .map(|a| a.attrs.clone())
                .unwrap_or_default(),
            RollFor::Attribute(a) => vec![a],
        }
    }

    pub fn name(self, s: &HeimrSheet) -> String {
        match self {
            RollFor::Ability(i) => s
                .abilities
                .get(i)
                .map(|a| a.name.clone())
                .unwrap_or_default(),
            RollFor::Attribute(a) => a.name().to_owned(),
        }
    }

    /// A roll is physical when any attribute behind it is.
    fn physical(self, s: &HeimrSheet) -> bool {
        self.attrs(s)
            .iter()
            .any(|a| a.group() == AttrGroup::Physical)
    }
}

/// The dice of a challenge as a generic outcome, for the shared roll log and the dice chips.
fn as_outcome(r: &ChallengeRoll) -> RollOutcome {
    let dice = std::iter::once((6, r.d6))
        .chain(r.d10s.iter().map(|&v| (10, v)))
        .enumerate()
        .map(|(i, (sides, v))| DieRoll {
            sides,
            faces: vec![v],
            kept: i == r.kept,
        })
        .collect();
    let mut terms = vec![TermRoll {
        negative: false,
        dice,
        constant: None,
        value: i64::from(r.kept_value()),
    }];
    for v in [r.modifier, r.p] {
        if v != 0 {
            terms.push(TermRoll {
                negative: v < 0,
                dice: vec![],
                constant: Some(v.unsigned_abs()),
                value: i64::from(v),
            });
        }
    }
    RollOutcome {
        terms,
        total: i64::from(r.result),
    }
}

/// The roll panel for one ability or attribute (the body of its roll sheet): C and P with
/// penalties, the exact odds against a CR or an opponent, the roll with every die, fatigue, and
/// a re-roll for willpower.
#[component]
pub fn ChallengePanel(what: RollFor) -> impl IntoView {
    let ctx = expect_context::<SheetCtx>();
    let roster = expect_context::<Roster>();
    let log = expect_context::<RollLogState>();
    let notices = expect_context::<Notices>();

    let gm_c = RwSignal::new(0i32); // attribute rolls: C chosen by the GM
    let pen_self = RwSignal::new(0i32);
    let pen_attr = RwSignal::new(0i32);
    let pen_group = RwSignal::new(0i32);
    // Bonuses too: a readied dodge or observation raises P, attacking down from height C.
    let c_bonus = RwSignal::new(0i32);
    let p_mod = RwSignal::new(0i32);
    let cr_text = RwSignal::new(String::new());
    let cr = Memo::new(move |_| cr_text.with(|t| t.trim().parse::<i32>().ok()));
    let opposed = RwSignal::new(false);
    let opp_c = RwSignal::new(0i32);
    let opp_p = RwSignal::new(0i32);
    // The opponent's fatigue on a physical roll; 0 when its roll is not physical.
    let opp_f = RwSignal::new(0i32);
    let last = RwSignal::new(None::<ChallengeRoll>);
    let opp_last = RwSignal::new(None::<ChallengeRoll>);
    let rerolls = RwSignal::new(0u32);
    // The fatigue in force when the shown roll was made (the roll itself may raise it).
    let fatigue_before = RwSignal::new(None::<i32>);

    let physical = Memo::new(move |_| ctx.sheet.with(|s| what.physical(s)));
    let name = Memo::new(move |_| ctx.sheet.with(|s| what.name(s)));
    let base_c = Memo::new(move |_| {
        ctx.sheet.with(|s| match what {
            RollFor::Ability(i) => s.abilities.get(i).map_or(0, |a| s.consistency(a)),
            RollFor::Attribute(_) => gm_c.get(),
        })
    });
    let p = Memo::new(move |_| {
        p_mod.get()
            + ctx.sheet.with(|s| match what {
                RollFor::Ability(i) => s.abilities.get(i).map_or(0, |a| s.potential(a)),
                RollFor::Attribute(a) => s.attr(a),
            })
    });
    let c = Memo::new(move |_| {
        base_c.get() - pen_self.get() - pen_attr.get() - pen_group.get() + c_bonus.get()
    });
    let fatigue = Memo::new(move |_| physical.get().then(|| ctx.sheet.with(|s| s.fatigue)));
    // In a running fight whose rise this turn is spent, a roll here raises no fatigue.
    let fights = use_context::<crate::ui::encounters::Encounters>();
    let engine = RwSignal::new(());
    if fights.is_some_and(|f| f.system_of_any("heimr")) {
        leptos::task::spawn_local(async move {
            if crate::ui::encounters::load_engine().await.is_some() {
                engine.set(());
            }
        });
    }
    let may_rise = Memo::new(move |_| {
        engine.track();
        let me = ctx.id.get_value();
        fights.is_none_or(|f| f.replayed("heimr").iter().all(|s| linked_may_rise(s, &me)))
    });
    let dist = Signal::derive(move || result_distribution(c.get(), p.get()));
    // Highlight exactly the results that succeed: at least the CR and, on a physical roll, a
    // dice part (result − P) at least the fatigue.
    let target = Signal::derive(move || {
        cr.get()
            .map(|cr| i64::from(fatigue.get().map_or(cr, |f| cr.max(f + p.get()))))
    });
    let chance = move || {
        cr.get()
            .map(|cr| success_chance(c.get(), p.get(), cr, fatigue.get()))
    };
    // Both sides' fatigue checks count: a roll that fails outright loses to one that stands.
    let opp_fatigue = move || Some(opp_f.get()).filter(|&f| f > 0);
    let versus = Memo::new(move |_| {
        opposed_chances(
            (c.get(), p.get(), fatigue.get()),
            (opp_c.get(), opp_p.get(), opp_fatigue()),
        )
    });
    let who = move || roster.get(&ctx.id.get_value()).map(|c| c.name);

    let record = move |r: &ChallengeRoll, label: String, who: Option<String>| {
        log.record(LogEntry {
            at: now_ms(),
            who,
            expr: label,
            outcome: as_outcome(r),
        });
    };
    let roll_once = move || -> Option<ChallengeRoll> {
        let (c, p) = (c.get_untracked(), p.get_untracked());
        match with_dice(|src| roll_challenge(c, p, src)) {
            Ok(r) => {
                if let Some(f) = fatigue.get_untracked() {
                    let after = r.fatigue_after_if(f, may_rise.get_untracked());
                    ctx.act(Edit::Fatigue(after));
                }
                record(
                    &r,
                    format!("{} (C {c}, P {p})", name.get_untracked()),
                    who(),
                );
                Some(r)
            }
            Err(e) => {
                notices.error(format!("Could not roll: {e}"));
                None
            }
        }
    };
    let do_roll = move || {
        // The fatigue that applies is the one before this roll raises it.
        let before = fatigue.get_untracked();
        if let Some(r) = roll_once() {
            last.set(Some(r));
            rerolls.set(0);
            fatigue_before.set(before);
        }
        if opposed.get_untracked() {
            let (oc, op) = (opp_c.get_untracked(), opp_p.get_untracked());
            if let Ok(r) = with_dice(|src| roll_challenge(oc, op, src)) {
                record(
                    &r,
                    format!("Opponent (C {oc}, P {op})"),
                    Some("Opponent".into()),
                );
                opp_last.set(Some(r));
            }
        } else {
            opp_last.set(None);
        }
    };
    let failed = move || {
        let (Some(r), Some(cr)) = (last.get(), cr.get()) else {
            return false;
        };
        !r.succeeds(cr, fatigue_before.get())
    };
    let willpower = Signal::derive(move || ctx.sheet.with(|s| s.willpower));
    let reroll = move || {
        if !ctx.act(Edit::SpendWillpower) {
            return;
        }
        let before = fatigue.get_untracked();
        if let Some(r) = roll_once() {
            last.set(Some(r));
            rerolls.update(|n| *n += 1);
            fatigue_before.set(before);
        }
    };
    let group_name = move || {
        ctx.sheet.with(|s| {
            if what.physical(s) {
                "physical"
            } else {
                "mental"
            }
        })
    };

    let c_text = text(move || c.get().to_string());
    let p_text = text(move || p.get().to_string());
    let mean_text = text(move || crate::ui::format::decimal(dist.with(|d| d.mean())));
    let chance_text = text(move || chance().map(percent).unwrap_or_default());
    let fatigue_note = text(move || {
        fatigue.get().map_or_else(String::new, |f| {
            format!(
                " (dice part must reach fatigue {f}; fatigue rises with {})",
                percent(rise_chance(f, may_rise.get()))
            )
        })
    });
    let versus_text = text(move || {
        let (w, t, l) = versus.get();
        format!(
            "Win {} · tie {} · lose {}",
            percent(w),
            percent(t),
            percent(l)
        )
    });
    let roll_label = text(move || format!("Roll {}", name.get()));
    let reroll_label = text(move || format!("Re-roll for 1 willpower ({} left)", willpower.get()));
    let set_gm_c = Callback::new(move |v| gm_c.set(v));
    view! {
        <div class="challenge">
            {matches!(what, RollFor::Attribute(_)).then(|| view! {
                <Stepper label="Consistency set by the GM" value=gm_c min=-20 max=20 set=set_gm_c/>
            })}
            <details class="penalties">
                <summary class="btn small">"Situational bonuses and penalties"</summary>
                <Stepper label="Bonus on C" value=c_bonus min=0 max=20 set=crate::ui::kit::set_to(c_bonus)/>
                <Stepper label="Bonus or penalty on P" value=p_mod min=-20 max=20 set=crate::ui::kit::set_to(p_mod)/>
                <Stepper label="Penalty on this roll" value=pen_self min=0 max=20 set=crate::ui::kit::set_to(pen_self)/>
                <Stepper label="Penalty on its attribute" value=pen_attr min=0 max=20 set=crate::ui::kit::set_to(pen_attr)/>
                <Stepper label=format!("Penalty on all {} rolls", group_name()) value=pen_group min=0 max=20 set=crate::ui::kit::set_to(pen_group)/>
            </details>
            <dl class="stats">
                <div><dt>"Consistency"</dt><dd data-testid="roll-c">{c_text}</dd></div>
                <div><dt>"Potential"</dt><dd data-testid="roll-p">{p_text}</dd></div>
                <div><dt>"Average"</dt><dd>{mean_text}</dd></div>
                <Show when=move || fatigue.with(Option::is_some)>
                    <div><dt>"Fatigue"</dt><dd data-testid="roll-fatigue">{text(move || fatigue.get().unwrap_or(0).to_string())}</dd></div>
                </Show>
            </dl>
            <BarChart dist target/>
            <div class="row target-row">
                <label class="field-label" for="cr">"CR"</label>
                <input id="cr" class="target-input" type="number" inputmode="numeric" placeholder="e.g. 9"
                    prop:value=cr_text on:input=typed(move |v| cr_text.set(v))/>
            </div>
            <Show when=move || cr.with(Option::is_some)>
                <p class="chance">"Chance of success: "<strong data-testid="success-chance">{chance_text}</strong>{fatigue_note}</p>
            </Show>
            <label class="check">
                <input type="checkbox" prop:checked=opposed on:change=checked(move |v| opposed.set(v))/>
                <span>"Opposed roll"</span>
            </label>
            <Show when=move || opposed.get()>
                <OpponentPicker opp_c opp_p opp_f/>
                <p class="chance" data-testid="opposed-chances">{versus_text}</p>
            </Show>
            <button class="btn primary roll-btn" on:click=tap(do_roll)>{roll_label}</button>
            <div class="challenge-result" aria-live="polite" aria-atomic="true" data-testid="challenge-result">
                {move || last.get().map(|r| {
                    let fb = fatigue_before.get();
                    let verdict = cr.get().map(|cr| {
                        if r.fatigue_failure(fb) {
                            format!("Failed: the dice part {} is below fatigue {}", r.dice, fb.unwrap_or(0))
                        } else if r.succeeds(cr, fb) { format!("Success against CR {cr}") } else { format!("Failed against CR {cr}") }
                    });
                    let rerolled = (rerolls.get() > 0).then(|| format!("Re-rolled {} time(s) for willpower", rerolls.get()));
                    view! {
                        <p class="result-head">
                            <span>{format!("kept {}{}{}", r.kept_value(), signed(r.modifier, " extra"), signed(r.p, " P"))}</span>
                            <strong class="result-total" data-testid="challenge-total">{r.result}</strong>
                        </p>
                        <crate::ui::components::roll_result::DiceList outcome=as_outcome(&r)/>
                        {verdict.map(|v| view! { <p class="verdict" data-testid="verdict">{v}</p> })}
                        {rerolled.map(|t| view! { <p class="muted">{t}</p> })}
                    }
                })}
                {move || opp_last.get().map(|o| {
                    let mine = last.get();
                    let my_fail = mine.as_ref().is_some_and(|r| r.fatigue_failure(fatigue_before.get()));
                    let their_fail = o.fatigue_failure(opp_fatigue());
                    let outcome = match (my_fail, their_fail) {
                        (true, true) => "Tie: both dice parts are below fatigue",
                        (true, false) => "Opponent wins: your dice part is below your fatigue",
                        (false, true) => "You win: the opponent's dice part is below its fatigue",
                        _ => match mine.map_or(0, |r| r.result).cmp(&o.result) {
                            std::cmp::Ordering::Greater => "You win",
                            std::cmp::Ordering::Equal => "Tie",
                            std::cmp::Ordering::Less => "Opponent wins",
                        },
                    };
                    view! {
                        <p class="result-head"><span>"Opponent"</span><strong class="result-total" data-testid="opponent-total">{o.result}</strong></p>
                        <crate::ui::components::roll_result::DiceList outcome=as_outcome(&o)/>
                        <p class="verdict" data-testid="opposed-verdict">{outcome}</p>
                    }
                })}
            </div>
            <Show when=failed>
                <button class="btn" disabled=flag(move || willpower.get() < 1) on:click=tap(reroll)>
                    {reroll_label}
                </button>
            </Show>
        </div>
    }
}

fn signed(v: i32, what: &str) -> String {
    match v {
        0 => String::new(),
        v if v > 0 => format!(" + {v}{what}"),
        v => format!(" − {}{what}", -v),
    }
}

/// The opponent: C and P entered directly, or taken from another Heimr character's ability.
#[component]
fn OpponentPicker(
    opp_c: RwSignal<i32>,
    opp_p: RwSignal<i32>,
    opp_f: RwSignal<i32>,
) -> impl IntoView {
    let roster = expect_context::<Roster>();
    let ctx = expect_context::<SheetCtx>();
    let others = move || {
        let me = ctx.id.get_value();
        roster.chars.with(|cs| {
            cs.iter()
                .filter(|c| c.id != me)
                .flat_map(|c| match &c.sheet {
                    Sheet::Heimr(s) => s
                        .abilities
                        .iter()
                        .map(|a| {
                            (
                                format!("{}: {}", c.name, a.name),
                                s.consistency(a),
                                s.potential(a),
                                if a.attrs.iter().any(|x| x.group() == AttrGroup::Physical) {
                                    s.fatigue
                                } else {
                                    0
                                },
                            )
                        })
                        .collect::<Vec<_>>(),
                    _ => Vec::new(),
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="opponent">
            <select aria-label="Opponent from your characters" on:change=move |ev| {
                let pick = event_target_value(&ev);
                if let Some((_, c, p, f)) = others().into_iter().find(|(n, ..)| *n == pick) {
                    opp_c.set(c);
                    opp_p.set(p);
                    opp_f.set(f);
                }
            }>
                <option value="">"Pick a character's ability…"</option>
                {move || others().into_iter().map(|(n, c, p, _)| view! {
                    <option value=n.clone()>{format!("{n} (C {c}, P {p})")}</option>
                }).collect_view()}
            </select>
            <div class="grid2">
                <Stepper label="Opponent C" value=opp_c min=-20 max=20 set=crate::ui::kit::set_to(opp_c)/>
                <Stepper label="Opponent P" value=opp_p min=-50 max=50 set=crate::ui::kit::set_to(opp_p)/>
            </div>
            <Stepper label="Opponent fatigue (0: not a physical roll)" value=opp_f min=0 max=20 set=crate::ui::kit::set_to(opp_f)/>
        </div>
    }
}
