//! The Energy / Aura system (`aura`): six scores and a dozen derived defences and pools,
//! exploding defence rolls with advantage on every die, melee and ranged attacks with armor
//! coverage, maneuvers, the death tables, and rounds without turn order on the encounter
//! engine. SPEC.md §6; seeds/003_ca603e8fb651e0df.txt.

pub mod combat;
mod edit;
pub mod gear;
pub mod referee;
mod rolls;
pub mod shared;
mod sheet;
pub mod strike;

pub use edit::Edit;
pub use rolls::{
    automatic, chance, crit_from, cut_off, d20_at_least, d20_dist, d20_table_odds,
    damage_given_hit, dead_within, dealt, death_roll, death_save, defence_roll, dying_chance,
    exploding_with, faces, initiative, initiative_contest, maneuver, melee, non_lethal_from,
    ranged, DamageRule, DeathRoll, DeathSave, Defender, NonLethal, Outcome, Takes,
};
pub use sheet::{
    draw_row, energy_from_stamina, floor_div, throw_extra, Armor, AttackMode, AuraSheet, Derived,
    DrawRow, Pick, Shield, SizeRow, Weapon, BOW, DRAW, LIST_LIMIT, MEDIUM, MISS_MOVE, MISS_SIZE,
    NAME_LIMIT, POOL_LIMIT, SCORES, SIZES, STAT_LIMIT, WINDED,
};
