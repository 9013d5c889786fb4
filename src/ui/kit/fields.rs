use leptos::prelude::*;

/// A whole number with − and + buttons sized for a thumb, and direct typing. With `of`, it is a
/// current / max resource ("7 / 12").
#[component]
pub fn Stepper(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<i32>,
    #[prop(into)] set: Callback<i32>,
    #[prop(default = i32::MIN)] min: i32,
    #[prop(default = i32::MAX)] max: i32,
    /// The maximum shown after the value, for a resource.
    #[prop(optional, into)]
    of: Option<Signal<i32>>,
    #[prop(optional)] class: &'static str,
) -> impl IntoView {
    let clamp = move |v: i32| v.clamp(min, max);
    let minus = format!("Decrease {label}");
    let plus = format!("Increase {label}");
    let group = label.clone();
    view! {
        <div class=format!("stepper {class}") role="group" aria-label=group>
            <button class="btn" aria-label=minus disabled=move || { value.get() <= min }
                on:click=move |_| set.run(clamp(value.get_untracked() - 1))>"−"</button>
            <input type="number" inputmode="numeric" aria-label=label
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).trim().parse::<i32>() { set.run(clamp(v)) }
                }/>
            {of.map(|m| view! { <span class="of" aria-hidden="true">{move || format!("/ {}", m.get())}</span> })}
            <button class="btn" aria-label=plus disabled=move || { value.get() >= max }
                on:click=move |_| set.run(clamp(value.get_untracked() + 1))>"+"</button>
        </div>
    }
}
