//! The Energy / Aura system: aura, stamina and recovery surges with the defences and pools
//! needed mid-fight on top; every defence, weapon (melee, shot, throw) and unarmed attack as a
//! rollable row in Play, with the death roll and save when aura is gone; scores, gear and every
//! derived value with its formula in Edit; levels and proficiency picks in Advance.

mod advance;
pub mod combat;
mod edit;
mod play;
mod rolls;

use crate::rules::aura::AuraSheet;
use crate::storage::character::Sheet;
use crate::ui::kit::Mode;
use leptos::prelude::*;

/// The Energy / Aura sheet being shown.
pub type Ctx = crate::ui::sheet_ctx::SheetCtx<AuraSheet>;

pub fn view(id: String, mode: RwSignal<Mode>) -> AnyView {
    let ctx = Ctx::new(
        id,
        |s| match s {
            Sheet::Aura(x) => Some(x),
            _ => None,
        },
        |s| match s {
            Sheet::Aura(x) => Some(x),
            _ => None,
        },
    );
    provide_context(ctx);
    (move || match mode.get() {
        Mode::Play => play::play(ctx).into_any(),
        Mode::Edit => edit::edit(ctx).into_any(),
        Mode::Advance => advance::advance(ctx).into_any(),
    })
    .into_any()
}
