use crate::ui::router::Link;
use leptos::prelude::*;

#[component]
pub fn CharactersPage() -> impl IntoView {
    view! {
        <section class="page">
            <h1>"Characters"</h1>
            <div class="card empty-state">
                <p>"No characters yet."</p>
                <p class="muted">"Character sheets for Heimr and four more rule systems are on their way. Meanwhile the dice roller shows the exact odds of any roll."</p>
                <Link href="/roller" class="btn primary">"Open the roller"</Link>
            </div>
        </section>
    }
}
