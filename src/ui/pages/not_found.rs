use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;

#[component]
pub fn NotFoundPage() -> impl IntoView {
    let location = use_location();
    view! {
        <section class="page">
            <h1>"Page not found"</h1>
            <div class="card empty-state">
                <p>"There is nothing at " <code>{move || location.pathname.get()}</code> "."</p>
                <A href="/" attr:class="btn primary">"Back to characters"</A>
            </div>
        </section>
    }
}
