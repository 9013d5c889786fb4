//! One folder per rule system: how its sheet is drawn with the kit (src/ui/kit/), in the three
//! modes. Each system exposes `view(id, mode)`; this registry picks it by the sheet's system id.

pub mod aura;
pub mod heimr;
pub mod symbaroum;
pub mod tempo;
pub mod vogt;

use crate::rules::encounter::State;
use crate::ui::encounters::EncCtx;
use crate::ui::kit::Mode;
use crate::ui::lazy::{later, Page};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

/// The sheet of character `id` of `system`, in the chosen mode: each system's sheet is a
/// module of its own, downloaded when a sheet of that system first opens (see `ui::lazy`).
pub fn sheet_view(system: &str, id: String, mode: RwSignal<Mode>) -> Option<AnyView> {
    Some(match system {
        "heimr" => later(heimr_sheet(id, mode)),
        "symbaroum" => later(symbaroum_sheet(id, mode)),
        "vogt" => later(vogt_sheet(id, mode)),
        "aura" => later(aura_sheet(id, mode)),
        "tempo" => later(tempo_sheet(id, mode)),
        _ => return None,
    })
}

#[wasm_split(heimr_sheet, fallible, wasm_split_path = leptos::wasm_split)]
fn heimr_sheet(id: String, mode: RwSignal<Mode>) -> Page {
    Ok(heimr::view(id, mode))
}

#[wasm_split(symbaroum_sheet, fallible, wasm_split_path = leptos::wasm_split)]
fn symbaroum_sheet(id: String, mode: RwSignal<Mode>) -> Page {
    Ok(symbaroum::view(id, mode))
}

#[wasm_split(vogt_sheet, fallible, wasm_split_path = leptos::wasm_split)]
fn vogt_sheet(id: String, mode: RwSignal<Mode>) -> Page {
    Ok(vogt::view(id, mode))
}

#[wasm_split(aura_sheet, fallible, wasm_split_path = leptos::wasm_split)]
fn aura_sheet(id: String, mode: RwSignal<Mode>) -> Page {
    Ok(aura::view(id, mode))
}

#[wasm_split(tempo_sheet, fallible, wasm_split_path = leptos::wasm_split)]
fn tempo_sheet(id: String, mode: RwSignal<Mode>) -> Page {
    Ok(tempo::view(id, mode))
}

/// How a system's fights are drawn: `fn` pointers, so the encounter page is compiled once for
/// every system. (What a fight and its characters share is in the rules: `rules::<system>::shared`.)
pub struct CombatUi {
    /// The quick-NPC form.
    pub npc_form: fn(EncCtx) -> AnyView,
    /// The system's part of one combatant's sheet in the fight (attacks, death tests).
    pub panel: fn(EncCtx, u32) -> AnyView,
    /// Tools for the whole fight (surprise, initiative) and their section's title.
    pub tools: fn(EncCtx) -> AnyView,
    pub tools_title: &'static str,
    /// What the order shows after a combatant's vitals (a pre-rolled defence).
    pub row_note: fn(&State, u32) -> String,
}

/// The combat views of a system, if it has any yet.
pub fn combat_ui(system: &str) -> Option<&'static CombatUi> {
    match system {
        "symbaroum" => Some(&symbaroum::combat::UI),
        "heimr" => Some(&heimr::combat::UI),
        "vogt" => Some(&vogt::combat::UI),
        "aura" => Some(&aura::combat::UI),
        "tempo" => Some(&tempo::combat::UI),
        _ => None,
    }
}

/// The quick-NPC form's button: "Add Goblin", or "Add Goblin ×3".
pub fn add_label(name: RwSignal<String>, count: RwSignal<i32>) -> Signal<String> {
    crate::ui::kit::text(move || {
        if count.get() > 1 {
            format!("Add {} ×{}", name.get(), count.get())
        } else {
            format!("Add {}", name.get())
        }
    })
}

/// The names of the NPCs to add: the typed name (at most 100 characters, "NPC" when empty),
/// numbered past those already in the fight.
pub fn npc_names(s: &State, typed: &str, count: i32) -> Vec<String> {
    let base: String = typed.trim().chars().take(100).collect();
    let base = if base.is_empty() { "NPC".into() } else { base };
    numbered(s, &base, count.max(1) as usize)
}

/// "Goblin" → "Goblin 3" when Goblin 1 and 2 are already in the fight.
pub fn numbered(s: &State, base: &str, count: usize) -> Vec<String> {
    s.numbered(base, count)
}
