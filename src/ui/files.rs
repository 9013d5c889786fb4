//! Files in and out: download a JSON file, share it (or a link) with the Web Share API where the
//! phone supports it, read a picked file as text.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

fn json_parts(text: &str) -> js_sys::Array {
    js_sys::Array::of1(&JsValue::from_str(text))
}

/// Starts a download of `text` as `name` (an object URL on a temporary link).
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&json_parts(text), &opts).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let doc = leptos::prelude::document();
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(err)?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.set_hidden(true);
    if let Some(body) = doc.body() {
        let _ = body.append_child(&a);
    }
    a.click();
    a.remove();
    // Revoke later: some browsers read the URL after the click returns.
    leptos::prelude::set_timeout(
        move || drop(web_sys::Url::revoke_object_url(&url)),
        std::time::Duration::from_secs(30),
    );
    Ok(())
}

fn share_data(name: &str, text: &str) -> Result<js_sys::Object, String> {
    let opts = web_sys::FilePropertyBag::new();
    opts.set_type("application/json");
    let file = web_sys::File::new_with_str_sequence_and_options(&json_parts(text), name, &opts)
        .map_err(err)?;
    let data = js_sys::Object::new();
    js_sys::Reflect::set(&data, &"files".into(), &js_sys::Array::of1(&file)).map_err(err)?;
    js_sys::Reflect::set(&data, &"title".into(), &JsValue::from_str(name)).map_err(err)?;
    Ok(data)
}

fn navigator_method(name: &str) -> Option<js_sys::Function> {
    let nav = leptos::prelude::window().navigator();
    js_sys::Reflect::get(&nav, &name.into())
        .ok()?
        .dyn_into()
        .ok()
}

fn link_data(title: &str, url: &str) -> js_sys::Object {
    let data = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&data, &"title".into(), &JsValue::from_str(title));
    let _ = js_sys::Reflect::set(&data, &"url".into(), &JsValue::from_str(url));
    data
}

fn can_share(data: Result<js_sys::Object, String>) -> bool {
    let (Some(can), Ok(data)) = (navigator_method("canShare"), data) else {
        return false;
    };
    can.call1(&leptos::prelude::window().navigator(), &data)
        .is_ok_and(|v| v.is_truthy())
}

/// Whether this browser can share a JSON file (most phones can; most desktops cannot).
pub fn can_share_files() -> bool {
    can_share(share_data("x.json", "{}"))
}

/// Whether this browser can share a link (phones, and some desktops).
pub fn can_share_links() -> bool {
    let origin = leptos::prelude::window()
        .location()
        .origin()
        .unwrap_or_default();
    can_share(Ok(link_data("Rollsheet", &origin)))
}

/// Opens the phone's share sheet with the file: `Ok(false)` when the player cancelled it (not an
/// error, but nothing was sent).
pub async fn share(name: &str, text: &str) -> Result<bool, String> {
    share_with(share_data(name, text)?).await
}

/// Opens the phone's share sheet with a link, as `share` does.
pub async fn share_link(title: &str, url: &str) -> Result<bool, String> {
    share_with(link_data(title, url)).await
}

async fn share_with(data: js_sys::Object) -> Result<bool, String> {
    let share = navigator_method("share").ok_or("sharing is not supported here")?;
    let promise: js_sys::Promise = share
        .call1(&leptos::prelude::window().navigator(), &data.into())
        .map_err(err)?
        .unchecked_into();
    match JsFuture::from(promise).await {
        Ok(_) => Ok(true),
        Err(e) if err(e.clone()).starts_with("AbortError") => Ok(false),
        Err(e) => Err(err(e)),
    }
}

/// The text of the first file an `<input type=file>` holds, with its size checked first.
pub async fn read_picked(
    input: &web_sys::HtmlInputElement,
    max_bytes: usize,
) -> Result<Option<String>, String> {
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return Ok(None);
    };
    if file.size() > max_bytes as f64 {
        return Err(format!(
            "The file is {} KB; imports are limited to {} KB, more than a phone can store.",
            (file.size() / 1000.0).ceil() as u64,
            max_bytes / 1000
        ));
    }
    let text = JsFuture::from(file.text()).await.map_err(err)?;
    Ok(text.as_string())
}

fn err(e: JsValue) -> String {
    if let Some(e) = e.dyn_ref::<js_sys::Error>() {
        return format!("{}: {}", String::from(e.name()), String::from(e.message()));
    }
    e.as_string().unwrap_or_else(|| "unknown error".into())
}
