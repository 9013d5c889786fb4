use crate::ui::encounters::Encounters;
use crate::ui::roster::Roster;
use crate::ui::state::{Asked, Notices};

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Errors and messages for the player, each dismissable. Errors are announced at once. A
/// question about a document changed in two tabs offers the two answers instead.
///
/// One click handler for the whole list reads which button was pressed (`data-act`, `data-n`):
/// no closure per notice to keep in step with a list that changes under the finger.
#[component]
pub fn NoticeList() -> impl IntoView {
    let notices = expect_context::<Notices>();
    // Looked up here, in the component: the click handler runs outside the reactive owner.
    let roster = expect_context::<Roster>();
    let encounters = expect_context::<Encounters>();
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(button) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("button[data-n]").ok().flatten())
        else {
            return;
        };
        let Some(n) = button.get_attribute("data-n").and_then(|s| s.parse().ok()) else {
            return;
        };
        let ask = notices
            .0
            .with_untracked(|l| l.iter().find(|x| x.id == n).and_then(|x| x.ask.clone()));
        notices.dismiss(n);
        let keep = button.get_attribute("data-act").as_deref() == Some("keep");
        match ask {
            Some((Asked::Encounter, id)) => encounters.resolve(&id, keep),
            Some((Asked::Character, id)) => roster.resolve(&id, keep),
            Some((Asked::Link, id)) => encounters.resolve_link(&id, keep),
            None => {}
        }
    };
    view! {
        <div class="notices" on:click=on_click>
            {move || notices.0.get().into_iter().map(|notice| {
                let asks = notice.ask.is_some();
                // A sheet-and-fight question: keep the sheet's ("keep") or the fight's.
                let link = matches!(notice.ask, Some((Asked::Link, _)));
                view! {
                    <div class="notice" class:error=notice.error class:ask=asks role=if notice.error { "alert" } else { "status" }>
                        <p>{notice.text}</p>
                        <button class="btn small" data-n=notice.id data-act=if asks { "keep" } else { "dismiss" }>
                            {match (asks, link) { (_, true) => "Keep the sheet’s", (true, _) => "Keep this tab’s", _ => "Dismiss" }}
                        </button>
                        {asks.then(|| view! {
                            <button class="btn small" data-n=notice.id data-act="take">{if link { "Keep the fight’s" } else { "Use the other tab’s" }}</button>
                        })}
                    </div>
                }
            }).collect_view()}
        </div>
    }
}
