use crate::storage::character::NOTES_MAX;
use crate::ui::kit::modes::tab_id;
use crate::ui::kit::{Mode, ModeTabs};
use crate::ui::roster::Roster;
use crate::ui::router::Link;
use leptos::prelude::*;

/// One character: its name, the mode tabs (Play, Edit, Advance) and the system's sheet in that
/// mode; notes in Edit.
#[component]
pub fn CharacterPage(id: String) -> impl IntoView {
    let roster = expect_context::<Roster>();
    let id = StoredValue::new(id);
    let mode = RwSignal::new(Mode::Play);
    let exists = Memo::new(move |_| {
        id.with_value(|id| roster.chars.with(|cs| cs.iter().any(|c| &c.id == id)))
    });
    // Only the system decides which sheet to draw: edits must not rebuild it.
    let system =
        Memo::new(move |_| id.with_value(|id| roster.get(id).map(|c| c.sheet.system().id)));
    let field = move |f: fn(&crate::storage::character::Character) -> String| {
        move || {
            id.with_value(|id| {
                roster
                    .chars
                    .with(|cs| cs.iter().find(|c| &c.id == id).map(f).unwrap_or_default())
            })
        }
    };
    view! {
        <section class="page sheet">
            <Show when=move || exists.get() fallback=|| view! {
                <h1>"Character not found"</h1>
                <div class="card empty-state">
                    <p>"This character is not on this phone (it may have been deleted)."</p>
                    <Link href="/" class="btn primary">"Back to characters"</Link>
                </div>
            }>
                <input class="name-input" type="text" maxlength="200" aria-label="Character name"
                    prop:value=field(|c| c.name.clone())
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        if !name.trim().is_empty() { id.with_value(|id| roster.update(id, |c| { c.rename(&name); })); }
                    }/>
                <p class="muted">{field(|c| c.sheet.system().name.to_owned())}
                    {move || roster.unsaved.with(|u| id.with_value(|id| u.contains(id))).then_some(" · saving…")}</p>
                <ModeTabs mode/>
                <div id="mode-panel" role="tabpanel" aria-labelledby=move || tab_id(mode.get())>
                    {move || system.get().map(|sys| crate::ui::systems::sheet_view(sys, id.get_value(), mode))}
                </div>
                <Show when=move || mode.get() == Mode::Edit>
                <section class="card">
                    <label class="field-label" for="notes">"Notes"</label>
                    <textarea id="notes" rows="4" maxlength=NOTES_MAX prop:value=field(|c| c.notes.clone())
                        on:change=move |ev| {
                            let notes = event_target_value(&ev);
                            id.with_value(|id| roster.update(id, |c| c.set_notes(&notes)));
                        }></textarea>
                </section>
                </Show>
            </Show>
        </section>
    }
}
