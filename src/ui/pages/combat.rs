use leptos::prelude::*;

#[component]
pub fn CombatPage() -> impl IntoView {
    view! {
        <section class="page">
            <h1>"Combat"</h1>
            <div class="card empty-state">
                <p>"No encounter running."</p>
                <p class="muted">"Initiative, rounds, damage and conditions will be tracked here once characters can join a fight."</p>
            </div>
        </section>
    }
}
