//! Bo Vogt's system (`vogt`): abilities as rungs of a die-size ladder, inventory slots, exact
//! odds of checks, contests and damage with critical dice, and the initiative of declared
//! actions (lowest first). SPEC.md §5; seeds/002_2a10ed325ad0ce53.txt.

pub mod combat;
mod edit;
mod ladder;
pub mod referee;
mod rolls;
pub mod shared;
mod sheet;

pub use edit::{Edit, HANDS_LIMIT, ITEM_COUNT, ITEM_SLOTS};
pub use ladder::{parse_dice, Dice, LADDER, TOP};
pub use rolls::{
    before, best_of_two, check_dist, damage_dist, damage_expr, dismemberment_death, drop_chance,
    init_keys, map_values, roll_check, show_dice, tie_rule, CheckRoll, Edge, InitSide, Takes,
    UNCONSCIOUS_INIT,
};
pub use sheet::{
    dismemberment, status, Ability, Item, Place, Skill, StatusDef, VogtSheet, DISMEMBERMENT,
    EXHAUSTION_LIMIT, HP_LIMIT, STATUSES, STAT_LIMIT, TECH_DIES, TECH_LIMIT,
};
