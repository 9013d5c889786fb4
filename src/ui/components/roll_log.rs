use crate::ui::components::roll_result::DiceList;
use crate::ui::state::RollLogState;
use leptos::prelude::*;

fn clock(ms: u64) -> String {
    let date = js_sys::Date::new(&(ms as f64).into());
    format!(
        "{:02}:{:02}:{:02}",
        date.get_hours(),
        date.get_minutes(),
        date.get_seconds()
    )
}

/// How many of the newest rolls the log shows before "Show all".
const SHOWN: usize = 50;

/// The roll log, newest first, with a clear button and an undo for the clear.
#[component]
pub fn RollLogView() -> impl IntoView {
    let state = expect_context::<RollLogState>();
    let count = move || state.log.with(|l| l.entries.len());
    let limit = RwSignal::new(SHOWN);
    view! {
        <section class="card roll-log" aria-labelledby="log-title">
            <header class="row">
                <h2 id="log-title">"Roll log " <small>{move || format!("({})", count())}</small></h2>
                <Show when=move || { count() > 0 }>
                    <button class="btn small" on:click=move |_| state.clear()>"Clear log"</button>
                </Show>
            </header>
            <Show when=move || state.cleared.with(|c| c.as_ref().is_some_and(|v| !v.is_empty()))>
                <div class="undo-row" role="status">
                    <span>"Log cleared."</span>
                    <button class="btn small primary" on:click=move |_| state.undo_clear()>"Undo"</button>
                </div>
            </Show>
            <Show when=move || { count() == 0 } fallback=|| ()>
                <p class="empty">"No rolls yet."</p>
            </Show>
            // The newest entries as a plain list, rebuilt on each roll: cheaper in code than a
            // keyed list, and quick because only the newest SHOWN entries are drawn until the
            // player asks for all (two rolls in one millisecond would also share a key).
            <ol class="log-list">
                {move || state.log.with(|l| l.entries.iter().take(limit.get()).cloned().collect::<Vec<_>>()).into_iter().map(|entry| view! {
                    <li class="log-entry">
                        <div class="log-head">
                            <span class="log-expr">
                                {entry.who.map(|w| format!("{w}: "))}
                                {entry.expr}
                            </span>
                            <time>{clock(entry.at)}</time>
                        </div>
                        <div class="log-body">
                            <DiceList outcome=entry.outcome.clone()/>
                            <strong class="log-total">{entry.outcome.total}</strong>
                        </div>
                    </li>
                }).collect_view()}
            </ol>
            <Show when=move || { count() > limit.get() }>
                <button class="btn wide" on:click=move |_| limit.set(usize::MAX)>{move || format!("Show all {} rolls", count())}</button>
            </Show>
        </section>
    }
}
