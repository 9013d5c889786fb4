use leptos::prelude::*;

/// One figure of a rollable row: "C 2".
#[derive(Debug, Clone, PartialEq)]
pub struct Fig {
    pub label: &'static str,
    pub value: String,
    /// `data-testid` of the value.
    pub testid: &'static str,
}

impl Fig {
    pub fn new(label: &'static str, value: impl ToString, testid: &'static str) -> Fig {
        Fig {
            label,
            value: value.to_string(),
            testid,
        }
    }
}

/// A rollable value as one compact row: the name, the numbers that matter, tap to roll.
#[component]
pub fn RollRow(
    #[prop(into)] name: Signal<String>,
    #[prop(into)] figs: Signal<Vec<Fig>>,
    #[prop(into)] on_roll: Callback<()>,
    /// A short note under the name (the governing attributes, a weapon's damage).
    #[prop(into)]
    sub: Signal<String>,
    /// `data-row` of the row (for tests and styling).
    #[prop(into)]
    key: String,
) -> impl IntoView {
    view! {
        <li class="roll-row" data-row=key>
            // The visible text is the accessible name ("Roll Brawl str C 0 P 2"): WCAG 2.5.3.
            <button class="roll-row-btn" on:click=move |_| on_roll.run(())>
                <span class="rr-name"><span class="visually-hidden">"Roll "</span>{move || name.get()}
                    <small class="muted">{move || sub.get()}</small></span>
                <span class="rr-figs">
                    {move || figs.get().into_iter().map(|f| view! {
                        <span class="fig"><small>{f.label}</small><strong data-testid=f.testid>{f.value}</strong></span>
                    }).collect_view()}
                </span>
                <span class="rr-go" aria-hidden="true">"⚄"</span>
            </button>
        </li>
    }
}
