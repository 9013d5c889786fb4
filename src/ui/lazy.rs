//! The pages a phone downloads when they first open. Each `#[wasm_split]` function is a split
//! point: the build (scripts/build-wasm.sh) moves the code only it reaches into a module of its
//! own, so a first visit loads the shell and the roster, not every page and rule system. The
//! service worker then keeps every module for offline play.
//!
//! A split point only hands back the `fn` that draws its page; the page is drawn by `later`, in
//! the route's own reactive scope (built inside the loading future, a page's effects outlived
//! it). On the host (tests) a split point is an ordinary async function.

use crate::ui::encounters::{load_engine, Encounters};
use crate::ui::pages::{
    character::CharacterPage, combat::CombatPage, roller::RollerPage, settings::SettingsPage,
};
use crate::ui::router::Route;
use crate::ui::systems::fight_ui;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

/// A module that could not be fetched: offline before the app was ever fully downloaded.
#[derive(Clone, Copy)]
pub struct NotLoaded;

impl From<SplitLoaderError> for NotLoaded {
    fn from(_: SplitLoaderError) -> Self {
        NotLoaded
    }
}

/// A split point: `fn name() -> Result<T, NotLoaded> { … }` becomes an async function whose
/// body, and the code only it reaches, is the module `module`. With the `split` feature (the
/// app's build, scripts/build-wasm.sh) it is `#[wasm_split]`; without it (host and browser
/// tests) an ordinary async function: a test binary has no split loader to fetch modules.
macro_rules! split_point {
    ($module:ident, fn $name:ident() -> $ret:ty $body:block) => {
        #[cfg(feature = "split")]
        #[leptos::wasm_split::wasm_split($module, fallible, wasm_split_path = leptos::wasm_split)]
        fn $name() -> $ret $body

        #[cfg(not(feature = "split"))]
        async fn $name() -> $ret $body
    };
}
pub(crate) use split_point;

/// The pages other than the roster, a sheet and a fight, as one module: small each (13–16 KB),
/// and split one by one they left the build tool dozens of tiny shared chunks.
fn draw_page(route: Route) -> AnyView {
    match route {
        Route::Roller => view! { <RollerPage/> }.into_any(),
        _ => view! { <SettingsPage/> }.into_any(),
    }
}

split_point! {
    pages,
    fn pages() -> Result<fn(Route) -> AnyView, NotLoaded> {
        Ok(draw_page)
    }
}

fn draw_combat() -> AnyView {
    view! { <CombatPage/> }.into_any()
}

split_point! {
    fights,
    fn combat_page() -> Result<fn() -> AnyView, NotLoaded> {
        Ok(draw_combat)
    }
}

fn fight_not_found() -> AnyView {
    view! {
        <section class="page">
            <h1>"Encounter not found"</h1>
            <p>"It may have been deleted. "<crate::ui::router::Link href="/combat".to_owned()>"All encounters"</crate::ui::router::Link></p>
        </section>
    }
    .into_any()
}

/// The page of `route`; a page in a module of its own once that module is in.
pub fn page(route: Route) -> AnyView {
    match route {
        Route::Roller | Route::Settings => later(pages(), move |draw| draw(route.clone())),
        // The list of fights comes with the fights' module: a GM opening it opens a fight
        // next, and its import checks a fight with the engine the fights' module holds.
        Route::Combat => later(
            async {
                load_engine().await;
                combat_page().await
            },
            |draw| draw(),
        ),
        // The live table's page comes with its module (the pairing and the channels).
        Route::Table => crate::ui::table::page(),
        // A fight's page comes with the fights' module (`FightUi::fight`).
        Route::Encounter(id) => {
            let system = expect_context::<Encounters>()
                .system_of(&id)
                .unwrap_or_default();
            later(
                async move {
                    load_engine().await;
                    fight_ui(&system).await
                },
                move |ui| match ui {
                    Some(ui) => (ui.fight)(id.clone(), ui.combat),
                    None => fight_not_found(),
                },
            )
        }
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

/// `draw(what load gives)`, drawn here once `load` is done: nothing meanwhile (a module
/// already fetched answers within a frame), a message if its module cannot be fetched.
pub fn later<T: Copy + Send + Sync + 'static>(
    load: impl std::future::Future<Output = Result<T, NotLoaded>> + 'static,
    draw: impl Fn(T) -> AnyView + Send + Sync + 'static,
) -> AnyView {
    let ready = RwSignal::new(None::<Result<T, NotLoaded>>);
    leptos::task::spawn_local(async move {
        let loaded = load.await;
        // Gone meanwhile (the player went elsewhere): nothing to draw.
        let _ = ready.try_set(Some(loaded));
    });
    (move || match ready.get() {
        None => ().into_any(),
        Some(Ok(t)) => draw(t),
        Some(Err(NotLoaded)) => not_loaded(),
    })
    .into_any()
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
