use leptos::prelude::*;

/// A derived value: its name and figure, and how it was computed on tap.
#[component]
pub fn Derived(
    label: &'static str,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] formula: Signal<String>,
    /// `data-testid` of the figure.
    testid: &'static str,
) -> impl IntoView {
    view! {
        <details class="formula derived">
            <summary>{label} " " <strong data-testid=testid>{move || value.get()}</strong></summary>
            <p>{move || formula.get()}</p>
        </details>
    }
}
