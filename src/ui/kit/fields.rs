use leptos::prelude::*;

/// A whole number with − and + buttons sized for a thumb, and direct typing. `big` draws it
/// wide with a large figure (a resource counter).
#[component]
pub fn Stepper(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<i32>,
    #[prop(into)] set: Callback<i32>,
    #[prop(default = i32::MIN)] min: i32,
    #[prop(default = i32::MAX)] max: i32,
    #[prop(optional)] big: bool,
) -> impl IntoView {
    let clamp = move |v: i32| v.clamp(min, max);
    let minus = format!("Decrease {label}");
    let plus = format!("Increase {label}");
    let group = label.clone();
    view! {
        <div class="stepper" class:big=big role="group" aria-label=group>
            <button class="btn" aria-label=minus disabled=move || { value.get() <= min }
                on:click=move |_| set.run(clamp(value.get_untracked() - 1))>"−"</button>
            <input type="number" inputmode="numeric" aria-label=label
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).trim().parse::<i32>() { set.run(clamp(v)) }
                }/>
            <button class="btn" aria-label=plus disabled=move || { value.get() >= max }
                on:click=move |_| set.run(clamp(value.get_untracked() + 1))>"+"</button>
        </div>
    }
}
