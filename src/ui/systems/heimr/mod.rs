//! Heimr: vitals and every ability and attribute as a rollable row in Play; attributes,
//! abilities and lists in Edit; XP, training with its what-if and undo in Advance.

mod advance;
mod chase;
pub mod combat;
mod edit;
mod play;
pub mod roll;

use crate::rules::heimr::HeimrSheet;
use crate::storage::character::Sheet;
use crate::ui::kit::Mode;
use leptos::prelude::*;

/// The Heimr sheet being shown.
pub type Ctx = crate::ui::sheet_ctx::SheetCtx<HeimrSheet>;

pub fn view(id: String, mode: RwSignal<Mode>) -> AnyView {
    let ctx = Ctx::new(
        id,
        |s| match s {
            Sheet::Heimr(h) => Some(h),
            _ => None,
        },
        |s| match s {
            Sheet::Heimr(h) => Some(h),
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
