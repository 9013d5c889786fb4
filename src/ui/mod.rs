//! The thin UI layer: the app shell, pages and small components calling into rules/ and storage/.

pub mod components;
pub mod format;
pub mod pages;
pub mod panic;
pub mod state;

use crate::ui::components::{nav::BottomNav, notices::NoticeList, update_banner::UpdateBanner};
use crate::ui::pages::{
    characters::CharactersPage, combat::CombatPage, not_found::NotFoundPage, roller::RollerPage,
    settings::SettingsPage,
};
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

/// The whole app: shared state, the routed pages and the bottom navigation.
#[component]
pub fn App() -> impl IntoView {
    state::provide_app_state();
    view! {
        <Router>
            <UpdateBanner/>
            <NoticeList/>
            <main id="main">
                <ErrorBoundary fallback=|errors| {
                    view! {
                        <section class="page error-page" role="alert">
                            <h1>"Something went wrong"</h1>
                            <ul>
                                {move || errors.get().into_iter().map(|(_, e)| view! { <li>{e.to_string()}</li> }).collect_view()}
                            </ul>
                            <button class="btn primary" on:click=|_| { let _ = window().location().reload(); }>"Reload"</button>
                        </section>
                    }
                }>
                    <Routes fallback=NotFoundPage>
                        <Route path=path!("/") view=CharactersPage/>
                        <Route path=path!("/roller") view=RollerPage/>
                        <Route path=path!("/combat") view=CombatPage/>
                        <Route path=path!("/settings") view=SettingsPage/>
                    </Routes>
                </ErrorBoundary>
            </main>
            <BottomNav/>
        </Router>
    }
}

/// Entry point used by `main.rs`.
pub fn start() {
    panic::install();
    leptos::mount::mount_to_body(App);
}
