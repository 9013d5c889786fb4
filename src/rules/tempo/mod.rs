//! The Tempo system (`tempo`): 12 action points a round, five combat statuses, and the
//! exchange of a proactive action, a reaction and a counter-tempo replacement, resolved by
//! opposed checks against outcome tables. SPEC.md §7 and decisions 5 and 12;
//! seeds/004_43de91eb1b1c52ac.txt.

mod actions;
pub mod combat;
mod edit;
pub mod referee;
pub mod shared;
mod sheet;
#[cfg(test)]
pub(crate) mod tests;

pub use actions::{
    after_recovery, index, regained, Action, Arm, Dt, Effect, Kind, Row, Status, ACTIONS,
    FEINT_REPLACEMENT, RECOVERY, UNARMED_COUNTER,
};
pub use edit::Edit;
pub use sheet::{
    dice_dist, dice_ok, per_action, priced, set_per_action, PerAction, TempoSheet, Weapon,
    DEFAULT_COST, HEALTH_LIMIT, LIST_LIMIT, NAME_LIMIT, STAT_LIMIT,
};
