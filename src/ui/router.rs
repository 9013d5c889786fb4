//! A small path router: real URLs (`/roller`, `/settings`) through the History API, a reload on
//! any path works because the server and the service worker answer every path with the page.
//!
//! Written here instead of using leptos_router: for these few flat routes that crate cost about
//! 20 KB brotli of the phone's download (measured), a seventh of the whole budget.

use leptos::ev;
use leptos::prelude::*;

/// Every page of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Characters,
    Roller,
    Combat,
    Settings,
    /// One character's sheet, by id.
    Character(String),
    /// One encounter, by id.
    Encounter(String),
    /// The live table as a player's phone follows it.
    Table,
    /// The diagnostics page that panics on request (for the crash-screen test).
    Crash,
    NotFound(String),
}

impl Route {
    pub fn from_path(path: &str) -> Route {
        let trimmed = path.trim_end_matches('/');
        match trimmed {
            "" | "/index.html" => Route::Characters,
            "/roller" => Route::Roller,
            "/combat" => Route::Combat,
            "/settings" => Route::Settings,
            "/table" => Route::Table,
            "/__crash" => Route::Crash,
            _ => match (
                trimmed.strip_prefix("/c/"),
                trimmed.strip_prefix("/combat/"),
            ) {
                (Some(id), _) if !id.is_empty() && !id.contains('/') => {
                    Route::Character(id.to_owned())
                }
                (_, Some(id)) if !id.is_empty() && !id.contains('/') => {
                    Route::Encounter(id.to_owned())
                }
                _ => Route::NotFound(path.to_owned()),
            },
        }
    }
}

/// The current path, as a context.
#[derive(Clone, Copy)]
pub struct Location(pub RwSignal<String>);

impl Location {
    pub fn route(&self) -> Route {
        self.0.with(|p| Route::from_path(p))
    }

    /// Goes to `path` with a new history entry, like following a link.
    pub fn navigate(&self, path: &str) {
        if self.0.with_untracked(|p| p == path) {
            return;
        }
        let _ = window()
            .history()
            .and_then(|h| h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(path)));
        self.0.set(path.to_owned());
        window().scroll_to_with_x_and_y(0.0, 0.0);
    }
}

impl Location {
    /// Goes to `path` in place of the current history entry, keeping the fragment (a share
    /// link's, until its import is answered): Back then skips the link.
    pub fn replace(&self, path: &str) {
        let hash = window().location().hash().unwrap_or_default();
        let _ = window().history().and_then(|h| {
            h.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("{path}{hash}")),
            )
        });
        self.0.set(path.to_owned());
    }
}

/// Starts tracking the address bar (and the back and forward buttons).
pub fn provide_location() -> Location {
    let current = || {
        window()
            .location()
            .pathname()
            .unwrap_or_else(|_| "/".into())
    };
    let location = Location(RwSignal::new(current()));
    let handle = window_event_listener(ev::popstate, move |_| location.0.set(current()));
    std::mem::forget(handle); // lives as long as the page
    provide_context(location);
    location
}

/// A link inside the app: navigates without reloading, marks itself `aria-current="page"`.
/// Modified clicks (new tab, etc.) are left to the browser.
#[component]
pub fn Link(
    #[prop(into)] href: String,
    #[prop(optional)] class: &'static str,
    children: Children,
) -> impl IntoView {
    let location = expect_context::<Location>();
    let target = StoredValue::new(href.clone());
    let current = move || {
        target.with_value(|t| {
            location
                .0
                .with(|p| Route::from_path(p) == Route::from_path(t))
        })
    };
    view! {
        <a href=href class=class aria-current=move || current().then_some("page")
            on:click=move |e: ev::MouseEvent| {
                if e.button() == 0 && !(e.ctrl_key() || e.meta_key() || e.shift_key() || e.alt_key()) {
                    e.prevent_default();
                    target.with_value(|t| location.navigate(t));
                }
            }>
            {children()}
        </a>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_to_pages() {
        assert_eq!(Route::from_path("/"), Route::Characters);
        assert_eq!(Route::from_path(""), Route::Characters);
        assert_eq!(Route::from_path("/index.html"), Route::Characters);
        assert_eq!(Route::from_path("/roller"), Route::Roller);
        assert_eq!(Route::from_path("/roller/"), Route::Roller);
        assert_eq!(Route::from_path("/c/5f2c"), Route::Character("5f2c".into()));
        assert_eq!(Route::from_path("/c/"), Route::NotFound("/c/".into()));
        assert_eq!(Route::from_path("/c/a/b"), Route::NotFound("/c/a/b".into()));
        assert_eq!(Route::from_path("/combat"), Route::Combat);
        assert_eq!(Route::from_path("/settings"), Route::Settings);
        assert_eq!(
            Route::from_path("/rollers"),
            Route::NotFound("/rollers".into())
        );
        assert_eq!(
            Route::from_path("/no/such"),
            Route::NotFound("/no/such".into())
        );
    }
}
