use crate::rules::dice::{
    parse, roll, Chance, Distribution, Expr, RollOutcome, TermKind, EXPLODE_CAP,
};
use crate::storage::roll_log::LogEntry;
use crate::ui::components::{bar_chart::BarChart, roll_log::RollLogView, roll_result::DiceList};
use crate::ui::format::{decimal, percent};
use crate::ui::state::{now_ms, with_dice, Notices, RollLogState};
use leptos::prelude::*;

const QUICK_DICE: [u32; 7] = [4, 6, 8, 10, 12, 20, 100];

/// The chance that the explosion cap changed anything in this expression.
fn explosion_cut(expr: &Expr) -> Option<Chance> {
    let pools: Vec<_> = expr
        .terms
        .iter()
        .filter_map(|t| match &t.kind {
            TermKind::Dice(p) if p.explode => Some(*p),
            _ => None,
        })
        .collect();
    (!pools.is_empty()).then(|| {
        // 1 − Π(1 − mᵢ), computed without cancellation; the cap can always be reached.
        let log_none: f64 = pools
            .iter()
            .map(|p| (-Distribution::explode_truncated_mass(p.sides, p.count)).ln_1p())
            .sum();
        let cut = -log_none.exp_m1();
        Chance::Between {
            p: cut,
            q: 1.0 - cut,
        }
    })
}

/// The free dice roller: notation or quick dice, exact odds before the roll, every die after.
#[component]
pub fn RollerPage() -> impl IntoView {
    let log = expect_context::<RollLogState>();
    let notices = expect_context::<Notices>();

    let (text, set_text) = signal(String::from("1d20"));
    let parsed = Memo::new(move |_| text.with(|t| parse(t)));
    let dist = Memo::new(move |_| parsed.with(|p| p.as_ref().ok().map(Distribution::of_expr)));
    let (target_text, set_target_text) = signal(String::new());
    let target = Memo::new(move |_| target_text.with(|t| t.trim().parse::<i64>().ok()));
    let (last, set_last) = signal(None::<(String, RollOutcome)>);
    let result_ref = NodeRef::<leptos::html::Div>::new();

    let add_die = move |sides: u32| {
        let next = match parsed.get_untracked() {
            Ok(expr) => expr.with_die(sides).to_string(),
            Err(_) => Expr { terms: Vec::new() }.with_die(sides).to_string(),
        };
        set_text.set(next);
    };

    let do_roll = move || {
        let Ok(expr) = parsed.get_untracked() else {
            return;
        };
        match with_dice(|src| roll(&expr, src)) {
            Ok(outcome) => {
                let name = expr.to_string();
                log.record(LogEntry {
                    at: now_ms(),
                    who: None,
                    expr: name.clone(),
                    outcome: outcome.clone(),
                });
                set_last.set(Some((name, outcome)));
                // Bring the result into view above the sticky roll button.
                if let Some(el) = result_ref.get_untracked() {
                    let opts = web_sys::ScrollIntoViewOptions::new();
                    opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
                    el.scroll_into_view_with_scroll_into_view_options(&opts);
                }
            }
            Err(e) => notices.error(format!("Could not roll: {e}")),
        }
    };

    let error = move || parsed.with(|p| p.as_ref().err().map(ToString::to_string));
    let ready = Signal::derive(move || dist.with(|d| matches!(d, Some(Ok(_)))));
    let chart_dist = Signal::derive(move || {
        dist.with(|d| d.as_ref().and_then(|r| r.as_ref().ok()).cloned())
            .unwrap_or_else(|| Distribution::point(0))
    });

    view! {
        <section class="page roller">
            <h1 class="visually-hidden">"Dice roller"</h1>
            <div class="card">
                <label for="expr" class="field-label">"Roll"</label>
                <div class="row expr-row">
                    <input id="expr" class="expr-input" type="text" autocomplete="off" autocapitalize="off"
                        spellcheck="false" enterkeyhint="go"
                        aria-invalid=move || if error().is_some() { "true" } else { "false" }
                        aria-describedby="expr-help"
                        prop:value=move || text.get()
                        on:input=move |ev| set_text.set(event_target_value(&ev))
                        on:keydown=move |ev| if ev.key() == "Enter" { do_roll() }/>
                    <button class="btn" on:click=move |_| set_text.set(String::new())>"Clear"</button>
                </div>
                <p id="expr-help" class="field-help" class:field-error=move || error().is_some()>
                    {move || error().unwrap_or_else(|| "Like 2d6+1, 4d6kh3 (keep highest 3), 2d20kl1, 1d10! (exploding), d%".into())}
                </p>
                <div class="quick-dice" role="group" aria-label="Add a die">
                    {QUICK_DICE.map(|s| view! {
                        <button class="btn die-btn" on:click=move |_| add_die(s)>
                            {if s == 100 { "d%".to_string() } else { format!("d{s}") }}
                        </button>
                    }).collect_view()}
                </div>
            </div>

            <div class="card odds" role="region" aria-label="Odds">
                {move || match dist.get() {
                    None => view! { <p class="empty">"Fix the roll to see its odds."</p> }.into_any(),
                    Some(Err(e)) => view! { <p class="empty">{e.to_string()}</p> }.into_any(),
                    Some(Ok(d)) => view! {
                        <dl class="stats">
                            <div><dt>"Average"</dt><dd data-testid="mean">{decimal(d.mean())}</dd></div>
                            <div><dt>"Spread (σ)"</dt><dd>{decimal(d.std_dev())}</dd></div>
                            <div><dt>"Range"</dt><dd>{format!("{} – {}", d.min(), d.max())}</dd></div>
                        </dl>
                    }.into_any(),
                }}
                <Show when=move || ready.get()>
                    <BarChart dist=chart_dist target=target/>
                </Show>
                <div class="row target-row">
                    <label for="target" class="field-label">"Target"</label>
                    <input id="target" class="target-input" type="number" inputmode="numeric" placeholder="e.g. 15"
                        prop:value=move || target_text.get()
                        on:input=move |ev| set_target_text.set(event_target_value(&ev))/>
                </div>
                {move || {
                    let t = target.get()?;
                    let d = chart_dist.get();
                    ready.get().then(|| view! {
                        <dl class="stats chances">
                            <div><dt>{format!("{t} or more")}</dt><dd data-testid="p-at-least">{percent(d.at_least(t))}</dd></div>
                            <div><dt>{format!("{t} or less")}</dt><dd data-testid="p-at-most">{percent(d.at_most(t))}</dd></div>
                        </dl>
                    })
                }}
                {move || parsed.with(|p| p.as_ref().ok().and_then(explosion_cut)).map(|cut| view! {
                    <p class="note">{format!(
                        "Each exploding die re-rolls at most {EXPLODE_CAP} times; the cap affects {} of rolls.",
                        percent(cut)
                    )}</p>
                })}
            </div>

            <div class="roll-bar">
                <button class="btn primary roll-btn" disabled=move || parsed.with(Result::is_err)
                    on:click=move |_| do_roll()>
                    "Roll " {move || parsed.with(|p| p.as_ref().map(ToString::to_string).unwrap_or_default())}
                </button>
            </div>

            <div class="card result" node_ref=result_ref aria-live="polite" aria-atomic="true" data-testid="result">
                {move || match last.get() {
                    None => view! { <p class="empty">"Tap Roll to roll."</p> }.into_any(),
                    Some((name, outcome)) => view! {
                        <p class="result-head"><span class="result-expr">{name}</span>
                            <span class="visually-hidden">" rolled "</span>
                            <strong class="result-total" data-testid="total">{outcome.total}</strong></p>
                        <DiceList outcome=outcome/>
                    }.into_any(),
                }}
            </div>

            <RollLogView/>
        </section>
    }
}
