//! The pages a phone downloads when they first open. Each function here is a split point: the
//! build (scripts/build-wasm.sh) moves it and the code only it reaches into a module of its
//! own, so a first visit loads the shell and the roster, not every page and rule system. The
//! service worker then keeps every module for offline play.
//!
//! On the host (tests) a split point is an ordinary async function.

use crate::ui::pages::{
    character::CharacterPage, combat::CombatPage, encounter::EncounterPage, roller::RollerPage,
    settings::SettingsPage,
};
use crate::ui::router::Route;
use leptos::prelude::*;
use leptos::wasm_split::{wasm_split, SplitLoaderError};

/// A module that could not be fetched: offline before the app was ever fully downloaded.
pub struct NotLoaded;

impl From<SplitLoaderError> for NotLoaded {
    fn from(_: SplitLoaderError) -> Self {
        NotLoaded
    }
}

pub type Page = Result<AnyView, NotLoaded>;

/// The pages other than the roster and fights, as one module: small each (13–16 KB), and split
/// one by one they left the build tool dozens of tiny shared chunks (one request each).
#[wasm_split(pages, fallible, wasm_split_path = leptos::wasm_split)]
fn pages(route: Route) -> Page {
    Ok(match route {
        Route::Roller => view! { <RollerPage/> }.into_any(),
        Route::Combat => view! { <CombatPage/> }.into_any(),
        Route::Settings => view! { <SettingsPage/> }.into_any(),
        _ => view! { <crate::ui::table::TablePage/> }.into_any(),
    })
}

#[wasm_split(encounter, fallible, wasm_split_path = leptos::wasm_split)]
fn encounter(id: String) -> Page {
    Ok(view! { <EncounterPage id/> }.into_any())
}

/// The page of `route` once its module is in; nothing meanwhile (a module already fetched
/// answers at once).
pub fn page(route: Route) -> AnyView {
    match route {
        Route::Roller | Route::Combat | Route::Settings | Route::Table => later(pages(route)),
        Route::Encounter(id) => later(encounter(id)),
        // The first screen, a sheet's frame (its system's part is a module of its own:
        // `systems::sheet_view`) and the rare pages stay in the main module.
        Route::Characters => view! { <crate::ui::pages::characters::CharactersPage/> }.into_any(),
        Route::Character(id) => view! { <CharacterPage id/> }.into_any(),
        Route::Crash => view! { <crate::ui::pages::crash::CrashPage/> }.into_any(),
        Route::NotFound(path) => {
            view! { <crate::ui::pages::not_found::NotFoundPage path/> }.into_any()
        }
    }
}

/// What `load` gives once it is in; nothing meanwhile (a module already fetched answers at
/// once), and a message if its module cannot be fetched.
pub fn later(load: impl std::future::Future<Output = Page> + Send + 'static) -> AnyView {
    Suspend::new(async move { load.await.unwrap_or_else(|NotLoaded| not_loaded()) }).into_any()
}

fn not_loaded() -> AnyView {
    view! {
        <section class="page" role="alert">
            <h1>"Not on this phone yet"</h1>
            <p>"This page was not downloaded before the phone went offline. Connect once and open it again; after that it works offline."</p>
            <button class="btn primary" on:click=|_| { let _ = window().location().reload(); }>"Try again"</button>
        </section>
    }
    .into_any()
}
