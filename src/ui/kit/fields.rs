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
                    // What the sheet kept (a clamp to the value it had, a typo) is shown even
                    // when the value itself did not change.
                    event_target::<web_sys::HtmlInputElement>(&ev).set_value(&value.get_untracked().to_string());
                }/>
            <button class="btn" aria-label=plus disabled=move || { value.get() >= max }
                on:click=move |_| set.run(clamp(value.get_untracked() + 1))>"+"</button>
        </div>
    }
}

/// A choice among numbered options (a target, a weapon): one `<select>` inside its label.
#[component]
pub fn Choice(
    #[prop(into)] label: String,
    #[prop(into)] options: Signal<Vec<(i32, String)>>,
    value: RwSignal<i32>,
) -> impl IntoView {
    view! {
        <label class="field-label choice">{label}
            <select on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse() { value.set(v) } }>
                {move || options.get().into_iter().map(|(v, t)| view! { <option value=v.to_string() selected=move || value.get() == v>{t}</option> }).collect_view()}
            </select>
        </label>
    }
}

/// A yes / no option with its explanation.
#[component]
pub fn Check(#[prop(into)] label: String, value: RwSignal<bool>) -> impl IntoView {
    view! {
        <label class="check">
            <input type="checkbox" prop:checked=move || value.get() on:change=move |ev| value.set(event_target_checked(&ev))/>
            <span>{label}</span>
        </label>
    }
}
