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
use crate::ui::lazy::{later, NotLoaded};
use leptos::prelude::*;

/// A system's views, its sheet and its fights, as one module of its own: downloaded when a
/// sheet or a fight of that system first opens (the split points below; see `ui::lazy`).
pub struct SystemUi {
    pub sheet: fn(String, RwSignal<Mode>) -> AnyView,
    pub combat: &'static CombatUi,
    /// A fight's page (the same for every system, reached through each system's module so
    /// it shares one chunk with them rather than being a module of its own).
    pub fight: fn(String, &'static CombatUi) -> AnyView,
}

fn fight(id: String, ui: &'static CombatUi) -> AnyView {
    let ui = Some(ui);
    view! { <crate::ui::pages::encounter::EncounterPage id ui/> }.into_any()
}

// One module per system. Each split point must be a function of its own (its module is named
// after it), so a macro writes the five.
macro_rules! system_module {
    ($module:ident, $name:ident) => {
        crate::ui::lazy::split_point! {
            $module,
            fn $name() -> Result<&'static SystemUi, NotLoaded> {
                static UI: SystemUi = SystemUi {
                    sheet: $module::view,
                    combat: &$module::combat::UI,
                    fight,
                };
                Ok(&UI)
            }
        }
    };
}
system_module!(heimr, heimr_ui);
system_module!(symbaroum, symbaroum_ui);
system_module!(vogt, vogt_ui);
system_module!(aura, aura_ui);
system_module!(tempo, tempo_ui);

/// The views of `system` once its module is in (`None`: no such system).
pub async fn system_ui(system: &str) -> Result<Option<&'static SystemUi>, NotLoaded> {
    Ok(Some(match system {
        "heimr" => heimr_ui().await?,
        "symbaroum" => symbaroum_ui().await?,
        "vogt" => vogt_ui().await?,
        "aura" => aura_ui().await?,
        "tempo" => tempo_ui().await?,
        _ => return Ok(None),
    }))
}

/// The sheet of character `id` of `system`, in the chosen mode, once its system's module is in.
pub fn sheet_view(system: &str, id: String, mode: RwSignal<Mode>) -> AnyView {
    let system = system.to_owned();
    later(async move { system_ui(&system).await }, move |ui| {
        ui.map_or_else(|| ().into_any(), |ui| (ui.sheet)(id.clone(), mode))
    })
}

/// The combat views of `system`: `None` until its module is in (or if it has none).
pub fn combat_ui_later(system: String) -> ReadSignal<Option<&'static CombatUi>> {
    let (ui, set) = signal(None);
    leptos::task::spawn_local(async move {
        if let Ok(Some(s)) = system_ui(&system).await {
            let _ = set.try_set(Some(s.combat));
        }
    });
    ui
}

/// Whether a system has fights (its rules in `rules::encounter`; every one has by now).
pub fn has_combat(system: &str) -> bool {
    crate::rules::encounter::rules_for(system).is_some()
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
