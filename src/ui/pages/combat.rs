//! The Combat page: every encounter on this phone; create, rename, duplicate, delete with undo,
//! export and import (replace or keep both).

use crate::rules::encounter::Encounter;
use crate::storage::character::SYSTEMS;
use crate::storage::encounters::{export_encounter, parse_encounter};
use crate::storage::transfer::{file_name, MAX_IMPORT_BYTES};
use crate::ui::encounters::Encounters;
use crate::ui::files;
use crate::ui::kit::{flag, tap, text, typed, when};
use crate::ui::router::{Link, Location};
use crate::ui::share::{self, ScanButton, Share};
use crate::ui::systems::has_combat;
use leptos::prelude::*;

#[component]
pub fn CombatPage() -> impl IntoView {
    let encounters = expect_context::<Encounters>();
    let location = expect_context::<Location>();
    let name = RwSignal::new(String::new());
    let system = RwSignal::new("symbaroum".to_owned());
    let create = tap(move || {
        if let Some(id) = encounters.create(&system.get_untracked(), &name.get_untracked()) {
            name.set(String::new());
            location.navigate(&format!("/combat/{id}"));
        }
    });
    view! {
        <section class="page">
            <h1>"Combat"</h1>
            <p><Link href="/table".to_owned() class="btn">"Follow the GM’s fight (table)"</Link></p>
            <div class="card">
                <h2>"New encounter"</h2>
                <label class="field-label" for="enc-name">"Name"</label>
                <input id="enc-name" type="text" maxlength="200" placeholder="New fight" prop:value=name on:input=typed(move |v| name.set(v))/>
                <label class="field-label" for="enc-system">"Rule system"</label>
                <select id="enc-system" on:change=typed(move |v| system.set(v))>
                    {SYSTEMS.iter().map(|s| {
                        let ready = has_combat(s.id);
                        view! { <option value=s.id disabled=!ready selected=s.id == "symbaroum">{s.name}{(!ready).then_some(" (combat coming)")}</option> }
                    }).collect_view()}
                </select>
                <button class="btn primary wide" on:click=create>"Create encounter"</button>
            </div>
            <Show when=when(flag(move || encounters.deleted.with(|d| !d.is_empty())))>
                <div class="card undo-row" role="status">
                    <span>{text(move || encounters.deleted.with(|d| d.last().map(|(_, e)| format!("Deleted “{}”.", e.name)).unwrap_or_default()))}</span>
                    <button class="btn small primary" on:click=tap(move || encounters.undo_delete())>"Undo"</button>
                </div>
            </Show>
            <Show when=when(flag(move || encounters.list.with(Vec::is_empty)))>
                <div class="card empty-state">
                    <p>"No encounter yet."</p>
                    <p class="muted">"Create one above: add saved characters and quick NPCs, then run rounds, damage, conditions and death tests."</p>
                </div>
            </Show>
            <ul class="roster">
                {move || encounters.list.get().into_iter().map(|e| entry(encounters, e)).collect_view()}
                {move || encounters.newer.get().into_iter().map(|n| view! {
                    <li class="card roster-entry read-only"><strong>{n.name}</strong>
                        <p class="muted">{format!("Saved by a newer Rollsheet (format {}). Read-only until you update the app.", n.found)}</p></li>
                }).collect_view()}
            </ul>
            <ImportEncounter/>
        </section>
    }
}

fn entry(encounters: Encounters, e: Encounter) -> impl IntoView {
    let share = expect_context::<Share>();
    let s = e.state();
    let summary = format!(
        "{} · {} · {} combatants{}",
        SYSTEMS
            .iter()
            .find(|x| x.id == e.system)
            .map_or("?", |x| x.name),
        if s.round == 0 {
            "not started".to_owned()
        } else {
            format!("round {}", s.rules.counter(s.round))
        },
        s.combatants.iter().filter(|c| !c.gone).count(),
        if s.ended { " · over" } else { "" }
    );
    let id = StoredValue::new(e.id.clone());
    let renaming = RwSignal::new(false);
    let draft = RwSignal::new(e.name.clone());
    let rename = move || {
        let name = draft.get_untracked();
        if !name.trim().is_empty() {
            encounters.update(&id.get_value(), |e| e.name = Encounter::clean_name(&name));
        }
        renaming.set(false);
    };
    let href = StoredValue::new(format!("/combat/{}", e.id));
    let name = StoredValue::new(e.name.clone());
    view! {
        <li class="card roster-entry">
            <Show when=when(renaming.into()) fallback=move || view! { <Link href=href.get_value() class="roster-name">{name.get_value()}</Link> }>
                <div class="row">
                    <input type="text" maxlength="200" aria-label="New name" prop:value=draft on:input=typed(move |v| draft.set(v))/>
                    <button class="btn primary" on:click=tap(rename)>"Save"</button>
                </div>
            </Show>
            <p class="muted">{summary}</p>
            <div class="actions">
                <button class="btn small" on:click=tap(move || renaming.set(true))>"Rename"</button>
                <button class="btn small" on:click=tap(move || { encounters.duplicate(&id.get_value()); })>"Duplicate"</button>
                <button class="btn small" on:click=tap(move || {
                    if let Some(e) = encounters.get(&id.get_value()) {
                        share.offer(&e.name, file_name(&e.name), export_encounter(&e), false);
                    }
                })>"Share"</button>
                <button class="btn small danger" on:click=tap(move || encounters.delete(&id.get_value()))>"Delete"</button>
            </div>
        </li>
    }
}

#[component]
fn ImportEncounter() -> impl IntoView {
    let encounters = expect_context::<Encounters>();
    let share = expect_context::<Share>();
    let text = RwSignal::new(String::new());
    let message = RwSignal::new(None::<(bool, String)>);
    let pending = RwSignal::new(None::<Encounter>);
    // From a link: nothing is stored before the player says so, even without a conflict.
    let from_link = RwSignal::new(false);
    let known =
        move || pending.with(|p| p.as_ref().is_some_and(|e| encounters.get(&e.id).is_some()));
    let finish = move |as_new: bool| {
        if let Some(e) = pending.get_untracked() {
            let name = e.name.clone();
            encounters.add_imported(e, as_new);
            pending.set(None);
            text.set(String::new());
            share::clear_fragment();
            message.set(Some((false, format!("Imported “{name}”."))));
        }
    };
    let check = move |input: String, link: bool| match parse_encounter(&input) {
        Err(e) => {
            share::clear_fragment();
            message.set(Some((true, e.to_string())));
        }
        Ok(e) => {
            message.set(None);
            from_link.set(link);
            pending.set(Some(e));
            if !link && !known() {
                finish(false);
            }
        }
    };
    // A link opened, scanned or pasted: its encounter waits here for the player's answer.
    let import_text = share.importer(true, check);
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        leptos::task::spawn_local(async move {
            match files::read_picked(&input, MAX_IMPORT_BYTES).await {
                Ok(Some(t)) => check(t, false),
                Ok(None) => {}
                Err(e) => message.set(Some((true, e))),
            }
            input.set_value("");
        });
    };
    let cancel = tap(move || {
        pending.set(None);
        share::clear_fragment();
        message.set(Some((false, "Import cancelled; nothing changed.".into())));
    });
    let name = move || {
        pending.with(|p| {
            p.as_ref()
                .map(|e| crate::storage::transfer::short(&e.name))
                .unwrap_or_default()
        })
    };
    view! {
        <section class="card">
            <h2>"Import an encounter"</h2>
            <label class="btn file-btn">
                "Choose a file…"
                <input type="file" accept=".json,application/json" class="visually-hidden" on:change=on_file/>
            </label>
            <ScanButton/>
            <label class="field-label" for="enc-import-text">"…or paste exported text or a link"</label>
            <textarea id="enc-import-text" rows="3" prop:value=text on:input=typed(move |v| text.set(v)) on:paste=crate::ui::share::Share::paste(import_text)></textarea>
            <button class="btn" disabled=flag(move || text.with(|t| t.trim().is_empty())) on:click=tap(move || import_text(text.get_untracked()))>"Import text"</button>
            {move || message.get().map(|(error, m)| view! {
                <p class:field-error=error class:ok=!error role=if error { "alert" } else { "status" }>{m}</p>
            })}
            <Show when=when(flag(move || pending.with(Option::is_some) && (from_link.get() || known())))>
                <div class="conflict" role="alertdialog" aria-label=crate::ui::kit::text(move || if known() { "Already on this phone".into() } else { "Import from a link".into() })>
                    <p>{crate::ui::kit::text(move || if known() {
                        format!("“{}” is already on this phone. Replace it, or keep both?", name())
                    } else {
                        format!("A link holds the encounter “{}”. Import it to this phone?", name())
                    })}</p>
                    <div class="actions">
                        <button class="btn primary" hidden=flag(known) on:click=tap(move || finish(false))>"Import"</button>
                        <button class="btn danger" hidden=flag(move || !known()) on:click=tap(move || finish(false))>"Replace"</button>
                        <button class="btn primary" hidden=flag(move || !known()) on:click=tap(move || finish(true))>"Keep both"</button>
                        <button class="btn" on:click=cancel.clone()>"Cancel"</button>
                    </div>
                </div>
            </Show>
        </section>
    }
}
