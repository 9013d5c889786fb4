use crate::ui::state::SettingsState;
use leptos::prelude::*;

/// A collapsible card that remembers whether it was closed (in the settings, per `key`).
#[component]
pub fn Section(title: &'static str, key: &'static str, children: Children) -> impl IntoView {
    let settings = expect_context::<SettingsState>();
    let open = settings
        .0
        .with_untracked(|s| !s.collapsed.iter().any(|k| k == key));
    view! {
        <details class="card section" open=open data-section=key
            on:toggle=move |ev| {
                let now_open = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
                settings.set_collapsed(key, !now_open);
            }>
            <summary><h2>{title}</h2></summary>
            {children()}
        </details>
    }
}
