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

/// A system's fights. Sheets and fights are modules of their own (split points below; see
/// `ui::lazy`): a sheet opened at the table downloads no fight code, a fight no sheet code.
pub struct FightUi {
    pub combat: &'static CombatUi,
    /// A fight's page (the same for every system).
    pub fight: fn(String, &'static CombatUi) -> AnyView,
}

/// A sheet's view: character `id` in the chosen mode.
type SheetFn = fn(String, RwSignal<Mode>) -> AnyView;

fn fight(id: String, ui: &'static CombatUi) -> AnyView {
    let ui = Some(ui);
    view! { <crate::ui::pages::encounter::EncounterPage id ui/> }.into_any()
}

// One module per system's sheet; each split point must be a function of its own (its module is
// named after it), so a macro writes the five.
macro_rules! sheet_module {
    ($module:ident, $sheet:ident) => {
        crate::ui::lazy::split_point! {
            $module,
            fn $sheet() -> Result<SheetFn, NotLoaded> {
                Ok($module::view)
            }
        }
    };
}
sheet_module!(heimr, heimr_sheet);
sheet_module!(symbaroum, symbaroum_sheet);
sheet_module!(vogt, vogt_sheet);
sheet_module!(aura, aura_sheet);
sheet_module!(tempo, tempo_sheet);

/// Every system's fights, as one module: the fight page and the five combat views share most of
/// their code, and one module per system's fights left the build tool a hundred shared chunks
/// (a sheet's first visit then asked for 37 files).
fn fights_of(system: &str) -> Option<&'static FightUi> {
    macro_rules! ui {
        ($module:ident) => {{
            static UI: FightUi = FightUi {
                combat: &$module::combat::UI,
                fight,
            };
            &UI
        }};
    }
    Some(match system {
        "heimr" => ui!(heimr),
        "symbaroum" => ui!(symbaroum),
        "vogt" => ui!(vogt),
        "aura" => ui!(aura),
        "tempo" => ui!(tempo),
        _ => return None,
    })
}

crate::ui::lazy::split_point! {
    fights,
    fn fights() -> Result<fn(&str) -> Option<&'static FightUi>, NotLoaded> {
        Ok(fights_of)
    }
}

/// The sheet view of `system` once its module is in (`None`: no such system).
async fn sheet_ui(system: &str) -> Result<Option<SheetFn>, NotLoaded> {
    Ok(Some(match system {
        "heimr" => heimr_sheet().await?,
        "symbaroum" => symbaroum_sheet().await?,
        "vogt" => vogt_sheet().await?,
        "aura" => aura_sheet().await?,
        "tempo" => tempo_sheet().await?,
        _ => return Ok(None),
    }))
}

/// The fight views of `system` once the fights' module is in (`None`: no such system).
pub async fn fight_ui(system: &str) -> Result<Option<&'static FightUi>, NotLoaded> {
    Ok(fights().await?(system))
}

/// The sheet of character `id` of `system`, in the chosen mode, once its system's module is in.
pub fn sheet_view(system: &str, id: String, mode: RwSignal<Mode>) -> AnyView {
    let system = system.to_owned();
    later(async move { sheet_ui(&system).await }, move |ui| {
        ui.map_or_else(|| ().into_any(), |sheet| sheet(id.clone(), mode))
    })
}

/// The combat views of `system`: `None` until the fights' module is in (or if it has none).
pub fn combat_ui_later(system: String) -> ReadSignal<Option<&'static CombatUi>> {
    let (ui, set) = signal(None);
    leptos::task::spawn_local(async move {
        if let Ok(Some(f)) = fight_ui(&system).await {
            let _ = set.try_set(Some(f.combat));
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
