//! The five shapes of a round, one small [`CombatRules`] value each. Stats, resources and
//! conditions are what the engine needs to run the round; the systems' own modules compute
//! everything else (attacks, defences, damage) from the same combatants.

use super::rules::{
    AtZero, CombatRules, ConditionDef, DefaultDuration as D, Reset, ResourceDef, Turns,
};

const fn per_turn(name: &'static str) -> ResourceDef {
    ResourceDef {
        name,
        max: 1,
        max_stat: None,
        reset: Reset::TurnStart,
        may_go_negative: false,
    }
}

const fn per_round(name: &'static str, max: i32, max_stat: Option<usize>) -> ResourceDef {
    ResourceDef {
        name,
        max,
        max_stat,
        reset: Reset::RoundStart,
        may_go_negative: false,
    }
}

const fn cond(name: &'static str, text: &'static str, default: D) -> ConditionDef {
    ConditionDef {
        name,
        text,
        default,
        implies: &[],
    }
}

/// Shape 1: fixed order from attributes (Quick, then Vigilant, then a d20 roll-off), with waiting.
pub const SYMBAROUM: CombatRules = CombatRules {
    system: "symbaroum",
    turns: Turns::Fixed,
    init_keys: &["Quick", "Vigilant"],
    lowest_first: false,
    rolloff_die: 20,
    stats: &[
        "Accurate",
        "Defense",
        "Quick",
        "Vigilant",
        "Discreet",
        "Pain threshold",
        "Long weapon",
        "Shield",
    ],
    hp_name: "Toughness",
    hp_floor: Some(0),
    at_zero: AtZero::DyingIfPc,
    death_steps: 3,
    resources: &[per_turn("Combat"), per_turn("Movement")],
    conditions: &[
        cond(
            "Prone",
            "Lying down: melee attacks against it have the advantage. Getting up costs a movement action after a passed Quick test, otherwise the whole turn.",
            D::UntilRemoved,
        ),
        cond(
            "Flanked",
            "Enemies stand on opposite sides: melee attacks against it have the advantage.",
            D::UntilRemoved,
        ),
        cond(
            "Unaware",
            "Does not see the attack coming: attacks against it have the advantage.",
            D::RoundEnd,
        ),
        ConditionDef {
            name: "Surprised",
            text: "Caught off guard at the start: each surpriser gets one free attack on it, and its weapons are still sheathed.",
            default: D::RoundEnd,
            implies: &["Unaware"],
        },
        cond(
            "Blind",
            "Cannot see: its tests are rolled twice, keeping the worse die.",
            D::UntilRemoved,
        ),
        cond(
            "Higher ground",
            "Above its enemies: its attacks against them have the advantage.",
            D::UntilRemoved,
        ),
    ],
};

/// Shape 2: rolled once at the start (a dice challenge), ties to the higher willpower; delay
/// and readied actions move a combatant.
pub const HEIMR: CombatRules = CombatRules {
    system: "heimr",
    turns: Turns::Fixed,
    init_keys: &["Initiative", "Willpower"],
    lowest_first: false,
    rolloff_die: 6,
    stats: &["Dexterity", "Willpower", "Defence"],
    hp_name: "HP",
    hp_floor: None,
    at_zero: AtZero::Table,
    death_steps: 0,
    resources: &[per_turn("Fatigue check")],
    conditions: &[
        cond("Readied", "Waits for a trigger; acts just before whoever triggers it, or loses the action at its next turn.", D::NextTurnStart),
        cond("Dodging", "A readied dodge: +2 P on defences.", D::NextTurnStart),
        cond("Prone", "On the ground.", D::UntilRemoved),
    ],
};

/// Shape 3: each round, declare an action, roll its die, lowest first (Bo Vogt).
pub const VOGT: CombatRules = CombatRules {
    system: "vogt",
    turns: Turns::EachRound,
    init_keys: &["Action die"],
    lowest_first: true,
    rolloff_die: 0,
    stats: &["STR", "DEX", "AWR", "WIL", "AR"],
    hp_name: "HP",
    hp_floor: Some(0),
    at_zero: AtZero::Down,
    death_steps: 0,
    resources: &[],
    conditions: &[
        cond("Prone", "Half movement, AR 0.", D::UntilRemoved),
        cond("Immobile", "Speed 0.", D::UntilRemoved),
        ConditionDef {
            name: "Unconscious",
            text: "No movement; initiative 10d10.",
            default: D::UntilRemoved,
            implies: &["Prone"],
        },
    ],
};

/// Shape 4: no turn order: rounds with per-round pools and once-per-round actions (Energy / Aura).
pub const AURA: CombatRules = CombatRules {
    system: "aura",
    turns: Turns::None,
    init_keys: &[],
    lowest_first: false,
    rolloff_die: 0,
    stats: &[
        "Energy per round",
        "Max agility",
        "Evasion",
        "Fortitude",
        "Will",
    ],
    hp_name: "Stamina",
    hp_floor: Some(0),
    at_zero: AtZero::Down,
    death_steps: 0,
    resources: &[
        per_round("Energy", 0, Some(0)),
        per_round("Agility", 0, Some(1)),
        per_round("Initiative roll", 1, None),
        per_round("Swift attack", 1, None),
    ],
    conditions: &[
        cond("Exposed", "Open to a follow-up.", D::RoundEnd),
        cond(
            "Unconscious",
            "Out of the fight at 0 stamina.",
            D::UntilRemoved,
        ),
    ],
};

/// Shape 5: initiative order with an action-point pool spent on one's own turn and on
/// reactions, recovered at the end of one's own turn (Tempo).
pub const TEMPO: CombatRules = CombatRules {
    system: "tempo",
    turns: Turns::Fixed,
    init_keys: &["Initiative"],
    lowest_first: false,
    rolloff_die: 10,
    stats: &["Combat defence", "Armoured defence", "Grapple defence"],
    hp_name: "Wounds",
    hp_floor: None,
    at_zero: AtZero::Down,
    death_steps: 0,
    resources: &[ResourceDef {
        name: "AP",
        max: 12,
        max_stat: None,
        reset: Reset::TurnEnd,
        may_go_negative: true,
    }],
    conditions: &[
        cond("Off Guard", "Not ready for the exchange.", D::UntilRemoved),
        cond("On Guard", "Ready for the exchange.", D::UntilRemoved),
        cond("Bound", "Blades locked with an opponent.", D::UntilRemoved),
        cond("Grappled", "Held in a grapple.", D::UntilRemoved),
        ConditionDef {
            name: "Pinned",
            text: "Pinned down in the grapple.",
            default: D::UntilRemoved,
            implies: &["Grappled"],
        },
    ],
};

pub const ALL: [&CombatRules; 5] = [&HEIMR, &SYMBAROUM, &VOGT, &AURA, &TEMPO];

/// The combat rules of a system id.
pub fn rules_for(system: &str) -> Option<&'static CombatRules> {
    ALL.into_iter().find(|r| r.system == system)
}
