//! A panic shows a readable message with a reload button (the `#fatal` block in index.html)
//! instead of a frozen or blank page.

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&message.clone().into());
        show_fatal(&message);
    }));
}

/// Fills and reveals the fatal-error block. Uses text content only, never HTML.
pub fn show_fatal(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(text) = doc.get_element_by_id("fatal-message") {
        text.set_text_content(Some(message));
    }
    if let Some(block) = doc.get_element_by_id("fatal") {
        let _ = block.remove_attribute("hidden");
    }
}
