use crate::ui::pages::heimr_sheet::HeimrSheetView;
use crate::ui::pages::symbaroum_sheet::SymbaroumSheetView;
use crate::ui::roster::Roster;
use crate::ui::router::Link;
use leptos::prelude::*;

/// One character: name and notes, then the system's own sheet.
#[component]
pub fn CharacterPage(id: String) -> impl IntoView {
    let roster = expect_context::<Roster>();
    let id = StoredValue::new(id);
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
                <input class="name-input" type="text" aria-label="Character name"
                    prop:value=field(|c| c.name.clone())
                    on:change=move |ev| {
                        let name = event_target_value(&ev).trim().to_owned();
                        if !name.is_empty() { id.with_value(|id| roster.update(id, |c| c.name = name)); }
                    }/>
                <p class="muted">{field(|c| c.sheet.system().name.to_owned())}
                    {move || roster.unsaved.with(|u| id.with_value(|id| u.contains(id))).then_some(" · saving…")}</p>
                {move || match system.get() {
                    Some("heimr") => Some(view! { <HeimrSheetView id=id.get_value()/> }.into_any()),
                    Some("symbaroum") => Some(view! { <SymbaroumSheetView id=id.get_value()/> }.into_any()),
                    _ => None,
                }}
                <section class="card">
                    <label class="field-label" for="notes">"Notes"</label>
                    <textarea id="notes" rows="4" prop:value=field(|c| c.notes.clone())
                        on:change=move |ev| {
                            let notes = event_target_value(&ev);
                            id.with_value(|id| roster.update(id, |c| c.notes = notes));
                        }></textarea>
                </section>
            </Show>
        </section>
    }
}
