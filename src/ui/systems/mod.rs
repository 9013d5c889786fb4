//! One folder per rule system: how its sheet is drawn with the kit (src/ui/kit/), in the three
//! modes. Each system exposes `view(id, mode)`; this registry picks it by the sheet's system id.

pub mod heimr;
pub mod symbaroum;

use crate::ui::kit::Mode;
use leptos::prelude::*;

/// The sheet of character `id` of `system`, in the chosen mode.
pub fn sheet_view(system: &str, id: String, mode: RwSignal<Mode>) -> Option<AnyView> {
    match system {
        "heimr" => Some(heimr::view(id, mode)),
        "symbaroum" => Some(symbaroum::view(id, mode)),
        _ => None,
    }
}
