use leptos::prelude::*;

/// A whole number with − and + buttons sized for a thumb, and direct typing.
#[component]
pub fn Stepper(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<i32>,
    #[prop(into)] set: Callback<i32>,
    #[prop(default = i32::MIN)] min: i32,
    #[prop(default = i32::MAX)] max: i32,
) -> impl IntoView {
    let clamp = move |v: i32| v.clamp(min, max);
    let minus = format!("Decrease {label}");
    let plus = format!("Increase {label}");
    let group = label.clone();
    view! {
        <div class="stepper" role="group" aria-label=group>
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

/// A free list of short texts (skills, conditions, items): add and remove.
#[component]
pub fn TextList(
    #[prop(into)] title: String,
    #[prop(into)] items: Signal<Vec<String>>,
    #[prop(into)] set: Callback<Vec<String>>,
) -> impl IntoView {
    let (draft, set_draft) = signal(String::new());
    let add = move || {
        let text = draft.get_untracked().trim().to_owned();
        if !text.is_empty() {
            let mut list = items.get_untracked();
            list.push(text);
            set.run(list);
            set_draft.set(String::new());
        }
    };
    let input_label = format!("New entry for {title}");
    view! {
        <section class="card">
            <h2>{title.clone()}</h2>
            <ul class="text-list">
                {move || items.get().into_iter().enumerate().map(|(i, item)| {
                    let remove_label = format!("Remove {item}");
                    view! {
                        <li>
                            <span>{item}</span>
                            <button class="btn small" aria-label=remove_label on:click=move |_| {
                                let mut list = items.get_untracked();
                                if i < list.len() { list.remove(i); }
                                set.run(list);
                            }>"✕"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <div class="row">
                <input type="text" aria-label=input_label prop:value=move || draft.get()
                    on:input=move |ev| set_draft.set(event_target_value(&ev))
                    on:keydown=move |ev| if ev.key() == "Enter" { add() }/>
                <button class="btn" on:click=move |_| add()>"Add"</button>
            </div>
        </section>
    }
}
