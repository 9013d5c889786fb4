//! Bo Vogt's system: HP, technique dice, exhaustion and the figures needed mid-game on top, every
//! ability, skill and weapon as a rollable row in Play; abilities, gear and inventory in Edit;
//! rests and the death and dismemberment table in Advance (the rules have no experience).

mod advance;
pub mod combat;
mod edit;
mod play;
mod rolls;

use crate::rules::vogt::VogtSheet;
use crate::storage::character::Sheet;
use crate::ui::kit::Mode;
use leptos::prelude::*;

/// The Bo Vogt sheet being shown.
pub type Ctx = crate::ui::sheet_ctx::SheetCtx<VogtSheet>;

pub fn view(id: String, mode: RwSignal<Mode>) -> AnyView {
    let ctx = Ctx::new(
        id,
        |s| match s {
            Sheet::Vogt(x) => Some(x),
            _ => None,
        },
        |s| match s {
            Sheet::Vogt(x) => Some(x),
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
