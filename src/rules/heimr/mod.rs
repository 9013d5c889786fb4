//! Heimr (`heimr`): attributes with progress, abilities with consistency and potential,
//! derived values, XP costs, training with attribute progress, XP sharing, injury levels.
//! SPEC.md §3; seeds/000_660a93111b0de833.txt.

mod advancement;
pub mod challenge;
pub mod chase;
pub mod combat;
mod edit;
pub mod referee;
pub mod shared;
mod sheet;
pub mod strike;
pub mod terrain;

#[cfg(test)]
mod fight_review_tests;
#[cfg(test)]
mod review6_tests;

pub use advancement::{
    share_xp, train, undo_last, xp_cost, xp_total, Preview, Purchase, Track, TrainError, XpShare,
};
pub use challenge::{opposed_chances, roll_challenge, success_chance, ChallengeRoll};
pub use edit::{Edit, DEAD, HP_LIMIT};
pub use sheet::{
    base_fatigue, progress_required, Ability, Attr, AttrGroup, Attribute, HeimrSheet, Injury,
    InjuryLevel, ATTR_LIMIT, FATIGUE_MAX, FATIGUE_MIN, STANDARD_ABILITIES, TRAIN_LIMIT, XP_LIMIT,
};
