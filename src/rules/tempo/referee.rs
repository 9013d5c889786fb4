//! Tempo's referee (see `encounter::referee`). So far: the answer to an action declared
//! against a combatant — a reaction it can pay for, or none — the one thing a Tempo combatant
//! does in another's turn, from its own player's phone. The declaration, the exchange and the
//! rest still come from the panel (issue 44).

use super::combat::{answer_events, answered, facing, reactions};
use super::ACTIONS;
use crate::rules::dice::DiceSource;
use crate::rules::encounter::referee::{check, Offer};
use crate::rules::encounter::{Event, State};
use crate::rules::referee::Intent;

/// What a Tempo combatant can intend in its fight (so far).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Answer what is declared against it: with this reaction (an index into `ACTIONS`), or
    /// with none.
    Answer(Option<u32>),
}

/// The answers `who` may give now: no reaction, and each reaction that responds to what is
/// declared against it (refused with the reason when it cannot pay for it). None when nothing
/// waits for its answer.
pub fn offers(s: &State, who: u32) -> Vec<Offer> {
    let Some((_, i)) = facing(s, who) else {
        return Vec::new();
    };
    if answered(s, who).is_some() {
        return Vec::new();
    }
    let mut out = vec![Offer {
        action: Intent::Tempo(Action::Answer(None)),
        label: "No reaction".into(),
        cost: "",
        odds: None,
        refused: None,
    }];
    for (r, able) in reactions(s, who, i) {
        let a = &ACTIONS[r];
        out.push(Offer {
            action: Intent::Tempo(Action::Answer(Some(r as u32))),
            label: match &able {
                Ok(c) => format!("{} · {c} AP: {}", a.name, a.text),
                Err(_) => a.name.to_owned(),
            },
            cost: "",
            odds: None,
            refused: able.err(),
        });
    }
    out
}

/// The one maker of a Tempo action's events: refuses what [`offers`] refuses (same reason).
/// An answer rolls nothing (the exchange rolls, on the actor's side).
pub fn resolve(
    s: &State,
    who: u32,
    action: Action,
    _dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    check(&offers(s, who), &Intent::Tempo(action))?;
    match action {
        Action::Answer(r) => answer_events(s, who, r.map(|r| r as usize)),
    }
}
