use crate::ui::router::Link;
use leptos::prelude::*;

#[component]
pub fn NotFoundPage(path: String) -> impl IntoView {
    view! {
        <section class="page">
            <h1>"Page not found"</h1>
            <div class="card empty-state">
                <p>"There is nothing at " <code>{path}</code> "."</p>
                <Link href="/" class="btn primary">"Back to characters"</Link>
            </div>
        </section>
    }
}
