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

/// The roll log, newest first, with a clear button and an undo for the clear.
#[component]
pub fn RollLogView() -> impl IntoView {
    let state = expect_context::<RollLogState>();
    let count = move || state.log.with(|l| l.entries.len());
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
            <ol class="log-list">
                <For each=move || state.log.get().entries key=|e| e.at let:entry>
                    <li class="log-entry">
                        <div class="log-head">
                            <span class="log-expr">
                                {entry.who.clone().map(|w| format!("{w}: "))}
                                {entry.expr.clone()}
                            </span>
                            <time>{clock(entry.at)}</time>
                        </div>
                        <div class="log-body">
                            <DiceList outcome=entry.outcome.clone()/>
                            <strong class="log-total">{entry.outcome.total}</strong>
                        </div>
                    </li>
                </For>
            </ol>
        </section>
    }
}
