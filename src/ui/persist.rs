//! Asking the browser to keep this app's storage (not evict it under pressure).

use wasm_bindgen_futures::JsFuture;

fn manager() -> Option<web_sys::StorageManager> {
    let nav = leptos::prelude::window().navigator();
    // Older browsers lack navigator.storage.
    js_sys::Reflect::has(&nav, &"storage".into())
        .ok()?
        .then(|| nav.storage())
}

/// Requests persistent storage; `Some(true)` when granted.
pub async fn request() -> Option<bool> {
    let promise = manager()?.persist().ok()?;
    JsFuture::from(promise).await.ok()?.as_bool()
}

/// Whether storage is persistent now.
pub async fn is_persisted() -> Option<bool> {
    let promise = manager()?.persisted().ok()?;
    JsFuture::from(promise).await.ok()?.as_bool()
}
