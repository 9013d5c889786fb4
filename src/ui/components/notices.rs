use crate::ui::state::Notices;

use leptos::prelude::*;

/// Errors and messages for the player, each dismissable. Errors are announced at once.
#[component]
pub fn NoticeList() -> impl IntoView {
    let notices = expect_context::<Notices>();
    view! {
        <div class="notices">
            {move || notices.0.get().into_iter().map(|notice| view! {
                <div class="notice" class:error=notice.error role=if notice.error { "alert" } else { "status" }>
                    <p>{notice.text}</p>
                    <button class="btn small" on:click=move |_| notices.dismiss(notice.id)>"Dismiss"</button>
                </div>
            }).collect_view()}
        </div>
    }
}
