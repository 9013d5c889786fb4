//! Symbaroum-style d20 roll-under (`symbaroum`): eight attributes, secondary attributes,
//! experience, success and opposed tests with exact odds (advantage, fighting blind), damage
//! against armor, death tests. SPEC.md §4; seeds/001_747545f513491440.txt.

pub mod combat;
mod edit;
pub mod referee;
#[cfg(test)]
mod review6_tests;
#[cfg(test)]
mod review_tests;
mod rolls;
pub mod shared;
mod sheet;

pub use edit::{
    Edit, ATTR_RANGE, CORRUPTION_LIMIT, DEATH_STEPS, EXPERIENCE_LIMIT, IMPEDING_LIMIT,
    TOUGHNESS_LIMIT,
};
pub use rolls::{
    damage_distribution, death_chance_within, roll_death_test, roll_test, success_chance, Blind,
    DeathOutcome, TestRoll,
};
pub use sheet::{
    modifier, test_target, Level, SAbility, SAttr, Shield, SymbaroumSheet, Weapon, WeaponQuality,
};
