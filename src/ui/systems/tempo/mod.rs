//! A Tempo character: health, the three defences, movement and the check dice on top, every
//! checked action's odds against its outcome table in Play; defences, dice, check bonuses and
//! weapons with their AP costs in Edit. The rules have no advancement. The fight runs the
//! exchange step by step (`combat.rs`).

pub mod combat;
mod edit;
mod play;

use crate::rules::dice::Chance;
use crate::rules::tempo::TempoSheet;
use crate::storage::character::Sheet;
use crate::ui::format::percent;
use crate::ui::kit::{fixed, form, Field, Mode};
use leptos::prelude::*;

/// The Tempo sheet being shown.
pub type Ctx = crate::ui::sheet_ctx::SheetCtx<TempoSheet>;

pub fn view(id: String, mode: RwSignal<Mode>) -> AnyView {
    let ctx = Ctx::new(
        id,
        |s| match s {
            Sheet::Tempo(x) => Some(x),
            _ => None,
        },
        |s| match s {
            Sheet::Tempo(x) => Some(x),
            _ => None,
        },
    );
    provide_context(ctx);
    (move || match mode.get() {
        Mode::Play => play::play(ctx).into_any(),
        Mode::Edit => edit::edit(ctx),
        Mode::Advance => form(
            "Advance",
            vec![Field::Text(
                "muted",
                "no-advance",
                fixed("The tempo rules have no experience or advancement: change defences, bonuses and weapons in Edit."),
            )],
        ),
    })
    .into_any()
}

/// "Miss 45% · Hit 30% · Critical Hit 25%".
pub fn odds_line(rows: &[(&str, Chance)]) -> String {
    rows.iter()
        .map(|(n, c)| format!("{n} {}", percent(*c)))
        .collect::<Vec<_>>()
        .join(" · ")
}
