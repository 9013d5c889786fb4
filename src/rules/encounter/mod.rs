//! The encounter engine every system's combat runs on: combatants, a round counter, the current
//! turn and an append-only log of events whose replay is the state shown. Systems plug in as a
//! [`CombatRules`] value (`systems.rs`): the five shapes of a round are five values of it.

pub mod referee;
mod rules;
pub mod shared;
mod state;
mod stored;
pub mod systems;

pub use rules::{
    AtZero, CombatRules, ConditionDef, DefaultDuration, Ends, Reorder, Reset, ResourceDef, Turns,
};
pub use state::{Active, Combatant, Duration, Event, Line, State, NAME_LIMIT, QUIET, RESUMES};
pub use stored::{event_ok, Encounter, BATCH_LIMIT, LIMIT, MAX_EVENTS, NOTE_LIMIT, TEXT_LIMIT};
pub use systems::rules_for;

#[cfg(test)]
mod tests;
