//! The thin UI layer: the app shell, pages and small components calling into rules/ and storage/.

pub mod components;
pub mod encounters;
pub mod files;
pub mod format;
pub mod kit;
pub mod lazy;
pub mod pages;
pub mod panic;
pub mod persist;
pub mod qr;
pub mod roster;
pub mod router;
pub mod share;
pub mod sheet_ctx;
pub mod state;
pub mod systems;
pub mod table;

use crate::ui::components::{nav::BottomNav, notices::NoticeList, update_banner::UpdateBanner};
use crate::ui::router::provide_location;
use leptos::prelude::*;

/// The whole app: shared state, the routed pages and the bottom navigation.
#[component]
pub fn App() -> impl IntoView {
    state::provide_app_state();
    let location = provide_location();
    share::provide(location, expect_context(), expect_context());
    table::provide();
    let route = Memo::new(move |_| location.route());
    let page = move || lazy::page(route.get());
    view! {
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
                {page}
            </ErrorBoundary>
        </main>
        <BottomNav/>
        <share::ShareDialog/>
    }
}

/// Entry point used by `main.rs`.
///
/// The app mounts once the static shell of index.html has painted: with the wasm already
/// cached (an installed app, a reload) it can be ready before the first paint, and the phone
/// would then show nothing until the app is built. Lighthouse saw that race as a largest
/// paint moved from the shell (1 s) to the app (3.3 s) in one run of three. When index.html's
/// script after the shell has seen it painted (`rollsheetPainted`, as on every first visit),
/// the app mounts in the next frame, painted right after: one frame sooner, and still a task
/// of its own (built in the task that started the wasm, Lighthouse's blocking time doubled).
/// A hidden tab paints nothing, so it mounts at once.
pub fn start() {
    panic::install();
    let painted =
        js_sys::Reflect::get(&window(), &"rollsheetPainted".into()).is_ok_and(|v| v.is_truthy());
    if document().hidden() {
        mount();
    } else if painted {
        request_animation_frame(mount);
    } else {
        // The first callback runs before the shell's frame is painted, the second one after it.
        request_animation_frame(|| request_animation_frame(mount));
    }
}

fn mount() {
    leptos::mount::mount_to_body(App);
    // The static shell of index.html has done its job once the app has rendered.
    if let Some(boot) = document().get_element_by_id("boot") {
        boot.remove();
    }
}
