//! Advancing an Energy / Aura character: a level (a third of it adds to every defence) and a
//! martial proficiency level with its pick; what each changes is shown before it is taken.

use super::Ctx;
use crate::rules::aura::{AuraSheet, Edit, Pick};
use crate::ui::kit::{fixed, form, numbered_options, text, Field};
use leptos::prelude::*;

fn level_up(s: &AuraSheet) -> String {
    let mut next = s.clone();
    next.level += 1;
    let gains = next.evasion().0 - s.evasion().0;
    if gains > 0 {
        format!(
            "Level {} → {}: evasion, fortitude and will +{gains}",
            s.level, next.level
        )
    } else {
        format!(
            "Level {} → {}: defences rise at every third level",
            s.level, next.level
        )
    }
}

pub fn advance(ctx: Ctx) -> impl IntoView {
    let pick = RwSignal::new(0);
    form(
        "Advance",
        vec![
            Field::Text("muted", "level-note", text(move || ctx.sheet.with(level_up))),
            Field::Act(
                fixed("Gain a level"),
                "btn primary wide",
                "level-up",
                Signal::stored(false),
                Callback::new(move |()| {
                    ctx.act(Edit::LevelUp);
                }),
            ),
            Field::Text(
                "muted",
                "mpl-note",
                text(move || ctx.sheet.with(|s| format!("MPL {} → {}: weapons, armor and shields up to MPR {} without penalty, and one pick", s.mpl, s.mpl + 1, s.mpl + 1))),
            ),
            Field::Pick("Pick", numbered_options(Pick::ALL.iter().map(|p| p.name().to_owned())), pick),
            Field::Act(
                fixed("Gain a proficiency level"),
                "btn primary wide",
                "mpl-up",
                Signal::stored(false),
                Callback::new(move |()| {
                    let p = Pick::ALL[pick.get_untracked().clamp(0, 2) as usize];
                    ctx.act(Edit::MplUp(p));
                }),
            ),
            Field::Text("muted", "", fixed("Scores rise when the GM says; change them in Edit. Aura strength follows the new modifiers at once.")),
        ],
    )
}
