use crate::rules::edit::{ListEdit, ENTRY_MAX};
use leptos::prelude::*;

/// A free list of short texts (skills, conditions, items): add and remove. `chips` shows them
/// as chips (conditions in play).
#[component]
pub fn TextList(
    #[prop(into)] title: String,
    #[prop(into)] items: Signal<Vec<String>>,
    #[prop(into)] set: Callback<ListEdit>,
    #[prop(optional)] chips: bool,
) -> impl IntoView {
    let (draft, set_draft) = signal(String::new());
    let add = move || {
        let text = draft.get_untracked();
        if !text.trim().is_empty() {
            set.run(ListEdit::Add(text));
            set_draft.set(String::new());
        }
    };
    let input_label = format!("New entry for {title}");
    view! {
        <section class="card">
            <h2>{title.clone()}</h2>
            <ul class=if chips { "chips" } else { "text-list" }>
                {move || items.get().into_iter().enumerate().map(|(i, item)| {
                    let remove_label = format!("Remove {item}");
                    view! {
                        <li>
                            <span>{item}</span>
                            <button class="btn small" aria-label=remove_label
                                on:click=move |_| set.run(ListEdit::Remove(i))>"✕"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <div class="row">
                <input type="text" maxlength=ENTRY_MAX aria-label=input_label prop:value=move || draft.get()
                    on:input=move |ev| set_draft.set(event_target_value(&ev))
                    on:keydown=move |ev| if ev.key() == "Enter" { add() }/>
                <button class="btn" on:click=move |_| add()>"Add"</button>
            </div>
        </section>
    }
}
