use crate::ui::state::{apply_update, UpdateReady};
use leptos::prelude::*;

/// "Update available": shown when a new service worker is waiting; the button activates it
/// and the page reloads into the new version. Stored data is untouched by an update.
#[component]
pub fn UpdateBanner() -> impl IntoView {
    let ready = expect_context::<UpdateReady>();
    let (pressed, set_pressed) = signal(false);
    view! {
        <Show when=move || ready.0.get()>
            <div class="update-banner" role="status">
                <span>"Update available"</span>
                <button class="btn primary" disabled=move || pressed.get()
                    on:click=move |_| { set_pressed.set(true); apply_update(); }>
                    {move || if pressed.get() { "Updating…" } else { "Update now" }}
                </button>
            </div>
        </Show>
    }
}
