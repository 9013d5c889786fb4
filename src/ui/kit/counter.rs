use super::fields::Stepper;
use leptos::prelude::*;

/// A current / max resource (hit points, willpower, toughness) sized for a thumb: the name and
/// the maximum above, big − and + below.
#[component]
pub fn Counter(
    label: &'static str,
    #[prop(into)] value: Signal<i32>,
    #[prop(into)] set: Callback<i32>,
    /// The maximum, or `None` for a counter without one (fatigue).
    #[prop(into)]
    max: Signal<Option<i32>>,
    #[prop(default = i32::MIN)] min: i32,
    #[prop(default = i32::MAX)] limit: i32,
    /// A short status under the number ("Bloodied", "base 3").
    #[prop(into)]
    note: Signal<String>,
) -> impl IntoView {
    view! {
        <div class="counter" data-counter=label>
            <div class="counter-head">
                <span class="counter-label">{label}</span>
                <span class="muted counter-note">{move || note.get()}</span>
                {move || max.get().map(|m| view! { <span class="counter-max">{format!("max {m}")}</span> })}
            </div>
            <Stepper label=label value set min max=limit big=true/>
        </div>
    }
}
