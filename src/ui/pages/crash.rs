use leptos::prelude::*;

/// A diagnostics page (not linked): its button panics, so the end-to-end tests can prove that a
/// panic shows the readable reload screen instead of a blank or frozen page.
#[component]
pub fn CrashPage() -> impl IntoView {
    view! {
        <section class="page">
            <h1>"Diagnostics"</h1>
            <button class="btn" on:click=|_| panic!("crash requested on the diagnostics page")>"Crash the app"</button>
        </section>
    }
}
