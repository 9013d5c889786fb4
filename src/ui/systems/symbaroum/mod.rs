//! Symbaroum-style: toughness, corruption and the secondary values on top, every attribute and
//! weapon as a rollable row in Play; attributes and gear in Edit; experience in Advance.

mod advance;
pub mod combat;
mod edit;
mod play;
mod rolls;

use crate::rules::symbaroum::SymbaroumSheet;
use crate::storage::character::Sheet;
use crate::ui::kit::Mode;
use leptos::prelude::*;

/// The Symbaroum-style sheet being shown.
pub type Ctx = crate::ui::sheet_ctx::SheetCtx<SymbaroumSheet>;

pub fn view(id: String, mode: RwSignal<Mode>) -> AnyView {
    let ctx = Ctx::new(
        id,
        |s| match s {
            Sheet::Symbaroum(x) => Some(x),
            _ => None,
        },
        |s| match s {
            Sheet::Symbaroum(x) => Some(x),
            _ => None,
        },
    );
    provide_context(ctx);
    (move || match mode.get() {
        Mode::Play => play::play(ctx).into_any(),
        Mode::Edit => edit::edit(ctx).into_any(),
        Mode::Advance => advance::advance().into_any(),
    })
    .into_any()
}
