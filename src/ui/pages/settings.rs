use crate::storage::settings::Theme;
use crate::ui::state::SettingsState;
use leptos::prelude::*;

#[component]
pub fn SettingsPage() -> impl IntoView {
    let settings = expect_context::<SettingsState>();
    let current = move || settings.0.with(|s| s.theme);
    view! {
        <section class="page">
            <h1>"Settings"</h1>
            <div class="card">
                <h2 id="theme-title">"Theme"</h2>
                <div class="segmented" role="radiogroup" aria-labelledby="theme-title">
                    {Theme::ALL.map(|theme| view! {
                        <button role="radio" class="btn"
                            aria-checked=move || if current() == theme { "true" } else { "false" }
                            on:click=move |_| settings.set_theme(theme)>
                            {theme.label()}
                        </button>
                    }).collect_view()}
                </div>
                <p class="muted">"Automatic follows your phone's light or dark mode."</p>
            </div>
            <div class="card">
                <h2>"About"</h2>
                <p>"Rollsheet version " <span data-testid="version">{env!("CARGO_PKG_VERSION")}</span></p>
                <p class="muted">"Everything stays on this device. Rollsheet works offline once opened."</p>
            </div>
        </section>
    }
}
