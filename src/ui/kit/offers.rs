//! The action list: what the rules offer a combatant now (`rules::referee::offers`), each as a
//! button with its cost and exact odds, or greyed with the rules' reason it cannot be now. A tap
//! sends the intent through `EncCtx::intend` (resolved here on the GM's phone, asked of the GM's
//! on a player's). Panels draw this instead of building events. Made of [`Field`]s, so it adds
//! no view code of its own.

use super::form::Field;
use crate::rules::referee::Intent;
use crate::ui::encounters::EncCtx;
use crate::ui::format::percent;
use leptos::prelude::*;

/// The offers of `who` that `pick` keeps (e.g. only the system's own, or only the turn's).
pub fn offers(ctx: EncCtx, who: u32, pick: fn(&Intent) -> bool) -> Field {
    Field::Rows(std::sync::Arc::new(move || {
        let list: Vec<_> = ctx
            .state
            .with(|s| ctx.offers(s, who))
            .into_iter()
            .filter(|o| pick(&o.action))
            .collect();
        let notes: Vec<String> = list
            .iter()
            .map(|o| match &o.refused {
                Some(why) => format!("Not now: {why}."),
                None => o.cost.to_owned(),
            })
            .collect();
        let mut out = Vec::new();
        for (i, o) in list.into_iter().enumerate() {
            let intent = o.action;
            let odds = o
                .odds
                .map(|c| format!(" · {}", percent(c)))
                .unwrap_or_default();
            out.push(Field::Act(
                Signal::stored(format!("{}{odds}", o.label)),
                "btn",
                "offer",
                Signal::stored(o.refused.is_some()),
                Callback::new(move |()| ctx.intend(who, intent.clone())),
            ));
            // A note said once under a run of buttons that share it.
            let note = &notes[i];
            if !note.is_empty() && notes.get(i + 1) != Some(note) {
                out.push(Field::Text(
                    "muted",
                    "offer-note",
                    Signal::stored(note.clone()),
                ));
            }
        }
        out
    }))
}

/// An action chosen among many (a target, a weapon: one offer stands for all of them): its
/// button, greyed with the rules' reason while every offer `like` keeps is refused (the first
/// allowed one decides; else the first); a tap intends what `make` builds from the panel's
/// picks. One body for every panel (no generics).
pub fn picked(
    ctx: EncCtx,
    who: u32,
    like: fn(&Intent) -> bool,
    label: &'static str,
    id: &'static str,
    make: std::sync::Arc<dyn Fn() -> Intent + Send + Sync>,
) -> [Field; 2] {
    let why = Memo::new(move |_| {
        ctx.state.with(|s| {
            ctx.offers(s, who)
                .into_iter()
                .filter(|o| like(&o.action))
                .min_by_key(|o| o.refused.is_some())
                .map_or(Some("not in this fight".to_owned()), |o| o.refused)
        })
    });
    [
        Field::Act(
            Signal::stored(label.to_owned()),
            "btn primary",
            id,
            Signal::derive(move || why.with(Option::is_some)),
            Callback::new(move |()| ctx.intend(who, make())),
        ),
        Field::Text(
            "muted",
            "offer-note",
            Signal::derive(move || {
                why.get()
                    .map_or_else(String::new, |w| format!("Not now: {w}."))
            }),
        ),
    ]
}

/// The fight's latest log line of `who` doing `verb` (" attacks "): what its last roll did,
/// read from the log, so it reads the same on the GM's phone and, once taken, on a player's.
pub fn last_said(ctx: EncCtx, who: u32, verb: &'static str) -> Signal<String> {
    Signal::derive(move || {
        ctx.state.with(|s| {
            let start = format!("{}{verb}", s.name(who));
            s.log
                .iter()
                .rev()
                .find(|l| l.text.starts_with(&start))
                .map_or_else(String::new, |l| l.text.clone())
        })
    })
}
