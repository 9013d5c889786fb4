use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A bottom sheet for a roll: a modal `<dialog>` (focus stays inside, screen readers announce
/// it by its title), closed by its Close button, Escape, a tap outside or a swipe down on its
/// handle. The caller removes it when `on_close` runs.
#[component]
pub fn RollSheet(
    #[prop(into)] title: Signal<String>,
    #[prop(into)] on_close: Callback<()>,
    children: Children,
) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let start_y = StoredValue::new(None::<i32>);
    Effect::new(move |_| {
        if let Some(d) = dialog.get() {
            if !d.open() {
                let _ = d.show_modal();
            }
        }
    });
    let close = move || {
        if let Some(d) = dialog.get_untracked() {
            d.close();
        }
        on_close.run(());
    };
    view! {
        <dialog class="roll-sheet" node_ref=dialog aria-label=move || title.get()
            on:close=move |_| on_close.run(())
            on:click=move |ev| {
                // The sheet's body fills the dialog: a click on the dialog itself is outside.
                let outside = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDialogElement>().ok()).is_some();
                if outside { close() }
            }>
            <div class="sheet-body">
                <div class="sheet-handle" aria-hidden="true"
                    on:pointerdown=move |ev| {
                        // Keep receiving this pointer when it leaves the handle (a mouse drag;
                        // touch is captured by the browser already).
                        if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                            let _ = el.set_pointer_capture(ev.pointer_id());
                        }
                        start_y.set_value(Some(ev.client_y()));
                    }
                    on:pointerup=move |ev| {
                        if start_y.get_value().is_some_and(|y| ev.client_y() - y > 60) { close() }
                        start_y.set_value(None);
                    }></div>
                <div class="sheet-head">
                    <h2 class="sheet-title">{move || title.get()}</h2>
                    <button class="btn small" on:click=move |_| close()>"Close"</button>
                </div>
                {children()}
            </div>
        </dialog>
    }
}
