//! The five shapes of a round, one small [`CombatRules`] value each. Stats, resources and
//! conditions are what the engine needs to run the round; the systems' own modules compute
//! everything else (attacks, defences, damage) from the same combatants.

use super::rules::{
    AtZero, CombatRules, ConditionDef, DefaultDuration as D, Ends, Reorder, Reset, ResourceDef,
    Turns,
};

const fn per_turn(name: &'static str) -> ResourceDef {
    ResourceDef {
        recovery: &[],
        name,
        max: 1,
        max_stat: None,
        reset: Reset::TurnStart,
        may_go_negative: false,
        hidden: false,
        capped_by: None,
        cuts: &[],
    }
}

const fn per_round(name: &'static str, max: i32, max_stat: Option<usize>) -> ResourceDef {
    ResourceDef {
        recovery: &[],
        name,
        max,
        max_stat,
        reset: Reset::RoundStart,
        may_go_negative: false,
        hidden: false,
        capped_by: None,
        cuts: &[],
    }
}

/// A once-a-round roll kept by the system's own panel (not shown in the turn bar).
const fn once_a_round(name: &'static str) -> ResourceDef {
    ResourceDef {
        recovery: &[],
        hidden: true,
        ..per_round(name, 1, None)
    }
}

const fn cond(name: &'static str, text: &'static str, default: D) -> ConditionDef {
    ConditionDef {
        name,
        text,
        default,
        implies: &[],
        ends: Ends::Nothing,
        hurts: 0,
    }
}

/// Shape 1: fixed order from attributes (Quick, then Vigilant, then a d20 roll-off), with waiting.
pub const SYMBAROUM: CombatRules = CombatRules {
    system: "symbaroum",
    reorder: Reorder::FirstRound,
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
        "Pain choice",
        "Pain target",
        "Pain by",
        "Toughness max",
        "Weapon in hand",
        "Reach attack taken",
    ],
    hp_name: "Toughness",
    hp_floor: Some(0),
    at_zero: AtZero::DyingIfPc,
    death_steps: 3,
    resources: &[per_turn("Combat"), per_turn("Movement")],
    round_base: 1,
    seconds_per_round: 0,
    hp_changed: None,
    lapse: &[],
    public: &[],
    max_stat: Some(crate::rules::symbaroum::combat::TOUGHNESS_MAX),
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
            text: "Caught off guard at the start: each surpriser gets one free attack on it, with the advantage, before the first turn ends; its weapons are still sheathed.",
            default: D::RoundEnd,
            implies: &[],
            ends: Ends::Nothing,
            hurts: 0,
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

/// A count of uses since the combatant's last turn (dodges, blocks): starts at 0 and goes
/// down, each use one more; the system's panel turns it into a penalty.
const fn uses(name: &'static str, max_stat: Option<usize>) -> ResourceDef {
    ResourceDef {
        recovery: &[],
        name,
        max: 0,
        max_stat,
        reset: Reset::TurnStart,
        may_go_negative: max_stat.is_none(),
        hidden: true,
        capped_by: None,
        cuts: &[],
    }
}

const fn implying(
    name: &'static str,
    text: &'static str,
    default: D,
    implies: &'static [&'static str],
) -> ConditionDef {
    ConditionDef {
        name,
        text,
        default,
        implies,
        ends: Ends::Nothing,
        hurts: 0,
    }
}

const fn clock(name: &'static str, text: &'static str, ends: Ends) -> ConditionDef {
    ConditionDef {
        name,
        text,
        default: D::UntilRemoved,
        implies: &[],
        ends,
        hurts: 0,
    }
}

/// Shape 2: rolled once at the start (a dice challenge), ties to the higher willpower; delay
/// and readied actions move a combatant. Two seconds a round; the stats are what
/// `rules::heimr::combat` reads (its constants index them).
pub const HEIMR: CombatRules = CombatRules {
    system: "heimr",
    reorder: Reorder::TurnStart,
    turns: Turns::Fixed,
    init_keys: &["Initiative", "Willpower"],
    lowest_first: false,
    rolloff_die: 6,
    stats: &[
        "Dexterity",
        "Willpower",
        "Fatigue",
        "Base fatigue",
        "Weapon",
        "Shield",
        "Weapon C",
        "Weapon P",
        "Shield C",
        "Shield P",
        "Agility C",
        "Agility P",
        "Brawl C",
        "Brawl P",
        "Defence kind",
        "Defence dice",
        "Defence",
        "Defence d6",
        "Melee weapons",
        "Guarding",
        "HP max",
        "Chasing",
        "Chase distance",
        "Got past by",
        "Grabbing",
    ],
    hp_name: "HP",
    hp_floor: None,
    at_zero: AtZero::Table,
    death_steps: 0,
    resources: &[
        per_turn("Standard action"),
        ResourceDef {
            recovery: &[],
            name: "Fatigue rise",
            max: 1,
            max_stat: None,
            reset: Reset::TurnStart,
            may_go_negative: false,
            hidden: true,
            capped_by: None,
            cuts: &[],
        },
        uses("Dodges", None),
        uses("Blocks", None),
        uses("Parries", Some(18)),
    ],
    round_base: 1,
    seconds_per_round: 2,
    hp_changed: Some(crate::rules::heimr::combat::hp_changed),
    lapse: &[
        crate::rules::heimr::combat::DEF_KIND,
        crate::rules::heimr::combat::DEF_DICE,
        crate::rules::heimr::combat::DEF,
        crate::rules::heimr::combat::DEF_D6,
        crate::rules::heimr::combat::PASSED_BY,
    ],
    public: &[
        crate::rules::heimr::combat::DEF_KIND,
        crate::rules::heimr::combat::DEF,
    ],
    max_stat: Some(crate::rules::heimr::combat::HP_MAX),
    conditions: &[
        cond("Readied", "Waits for its trigger: acts just before whoever sets it off; lost at its next turn.", D::NextTurnStart),
        cond("Dodging", "A readied dodge: +2 P on its dodge rolls.", D::NextTurnStart),
        cond("Ongoing", "Busy with an ongoing action: −2 C on every defence roll until its next turn.", D::NextTurnStart),
        cond("Upcoming", "An action that carries on into its next turn; an attack on it, an effect or a skill cancels it.", D::NextTurnStart),
        cond("Prone", "On the ground: −2 C on its attacks and defences; ranged attacks at it −2 C.", D::UntilRemoved),
        cond("Climbing", "Holding on: −2 C on defences, −1 C on attacks; when hit, a C 1 climb roll to hold on.", D::UntilRemoved),
        cond("Difficult terrain", "Bad footing: −1 C on melee attacks, parries and dodges.", D::UntilRemoved),
        cond("Hidden", "Unseen: only a luck shot can reach it; +2 P on its charges and ranged attacks; guards cannot stop it.", D::UntilRemoved),
        cond("Blind spot", "Defended against a shot from another square: shots from the squares behind it, and melee from those who came in from there, meet a defence rolled at −5 C (blind-spot module); until its next turn.", D::NextTurnStart),
        cond("Undefended", "Takes the next attack without defending (its own choice): until that attack or its next turn.", D::NextTurnStart),
        cond("Guarding", "Stands in the way of the first attack meant for the one it guards and takes it instead (a shot it dodges goes on); ends after that one, or at its next turn.", D::NextTurnStart),
        implying("Fallen", "Knocked down; can stand when this ends.", D::NextTurnEnd, &["Prone"]),
        cond("Dropped", "Let go of what it held; can pick it up when this ends.", D::NextTurnEnd),
        cond("Stumbling", "Pushed out of its cluster: no ranged attacks, melee only at those beside it, no step back the way the push came.", D::NextTurnEnd),
        cond("Dazed", "No actions, no defences, no skills.", D::NextTurnEnd),
        cond("No defence", "Cannot roll defences until this ends (an odd daze).", D::NextTurnStart),
        cond("Weakened", "Its skills cost 1 willpower more.", D::NextTurnEnd),
        cond("Grabbing", "Holds someone with a brawl bind: no defence rolls of its own until it lets go, is hit by the one it holds or suffers an effect.", D::UntilRemoved),
        cond("Helpless", "No actions, no defences.", D::UntilRemoved),
        implying("Sleeping", "Asleep: prone and helpless; a hit wakes it.", D::UntilRemoved, &["Prone", "Helpless"]),
        cond("Bound hands", "Hands held together: cannot use or pick up items.", D::NextTurnEnd),
        cond("Bound arm", "The arm stays stuck to what it touches.", D::NextTurnEnd),
        cond("Bound feet", "Feet together: no walking or running, only jumps and crawling.", D::NextTurnEnd),
        cond("Bound leg", "The leg stays stuck to what it touches.", D::NextTurnEnd),
        cond("Bound body", "Cannot leave its place.", D::NextTurnEnd),
        implying("Injured arm", "An injury to an arm: drops what that hand holds while injured.", D::UntilRemoved, &["Dropped"]),
        implying("Injured leg", "An injury to a leg: down while injured.", D::UntilRemoved, &["Prone"]),
        implying("Injured torso", "An injury to the torso: dazed while injured.", D::UntilRemoved, &["Dazed"]),
        implying("Unconscious", "Prone and helpless: no actions, no defences.", D::UntilRemoved, &["Prone"]),
        clock("Fading", "Mangled: falls unconscious when this runs out, unless stabilised.", Ends::Becomes("Unconscious")),
        clock("Bleeding out", "Dies when this runs out, unless stabilised.", Ends::Dies),
    ],
};

/// Shape 3: each round, declare an action, roll its die, lowest first (Bo Vogt). The stats
/// are what `rules::vogt::combat` reads (its constants index them); a hit that leaves 0 HP
/// or less adds a level of exhaustion (kept in `Combatant::death`) and prone.
pub const VOGT: CombatRules = CombatRules {
    system: "vogt",
    reorder: Reorder::Never,
    turns: Turns::EachRound,
    init_keys: &["roll", "higher DEX", "smaller die"],
    lowest_first: true,
    rolloff_die: 0,
    stats: &[
        "STR",
        "DEX",
        "AWR",
        "WIL",
        "AR",
        "Movement",
        "Action",
        "Dice",
        "Die",
        "One leg",
        "Technique die",
        "Technique dice",
        "Table rolls",
        "Weapon declared",
        "Rolled in round",
        "Declared in round",
        "HP max",
    ],
    hp_name: "HP",
    // Below 0 as the damage takes it (the seed: "0 or fewer hit points").
    hp_floor: None,
    at_zero: AtZero::Levels {
        name: "exhaustion",
        adds: "Prone",
        halve_at: 2,
        out_at: 3,
        out: "Unconscious",
        table_at: 4,
    },
    death_steps: 0,
    resources: &[],
    round_base: 1,
    seconds_per_round: 6,
    hp_changed: None,
    lapse: &[],
    public: &[],
    // The maximum as the sheet now has it (before exhaustion halves it).
    max_stat: Some(crate::rules::vogt::combat::HP_MAX),
    conditions: &[
        cond(
            "Afraid",
            "Cannot move or act toward what it fears.",
            D::UntilRemoved,
        ),
        ConditionDef {
            name: "Bleeding",
            text: "1 damage at the start of each of its turns.",
            default: D::UntilRemoved,
            implies: &[],
            ends: Ends::Nothing,
            hurts: 1,
        },
        cond(
            "Blind",
            "Disadvantage where sight matters; AWR one die smaller.",
            D::UntilRemoved,
        ),
        cond(
            "Deaf",
            "Disadvantage where hearing matters; AWR one die smaller.",
            D::UntilRemoved,
        ),
        cond(
            "Drenched",
            "Resists fire, vulnerable to lightning.",
            D::UntilRemoved,
        ),
        cond("Frozen", "STR and DEX one die smaller.", D::UntilRemoved),
        cond(
            "Hallucinating",
            "Sees what is not there; the GM narrates.",
            D::UntilRemoved,
        ),
        cond("Immobile", "Speed 0.", D::UntilRemoved),
        cond(
            "Mute",
            "Cannot speak; disadvantage where a voice matters.",
            D::UntilRemoved,
        ),
        cond(
            "Nauseated",
            "Vulnerable to blunt, slash and stab.",
            D::UntilRemoved,
        ),
        cond("Prone", "Half movement, cannot fly, AR 0.", D::UntilRemoved),
        cond("Scorched", "AWR and WIL one die smaller.", D::UntilRemoved),
        cond(
            "Unconscious",
            "No movement, no actions; initiative 10d10.",
            D::UntilRemoved,
        ),
        cond(
            "Defending",
            "+2 AR until the start of its next turn.",
            D::NextTurnStart,
        ),
        cond(
            "Running",
            "Double movement until the end of the round.",
            D::RoundEnd,
        ),
        cond(
            "Helped",
            "Advantage on the next check for the task it is helped with.",
            D::NextTurnStart,
        ),
    ],
};

/// Shape 4: no turn order: rounds with per-round pools and once-per-round actions (Energy / Aura).
pub const AURA: CombatRules = CombatRules {
    system: "aura",
    reorder: Reorder::Never,
    turns: Turns::None,
    init_keys: &[],
    lowest_first: false,
    rolloff_die: 0,
    // What `rules::aura::combat` reads (its constants index them).
    stats: &[
        "Max stamina",
        "Max agility",
        "Evasion",
        "Ranged evasion",
        "Unarmed evasion",
        "Fortitude",
        "Will",
        "Coverage",
        "Ranged coverage",
        "AR",
        "Size",
        "Melee AV",
        "Melee damage bonus",
        "Melee precise",
        "Miss chance modifier",
        "Ranged damage bonus",
        "Ranged precise",
        "Initiative",
        "Shot energy",
        "Unarmed AV",
        "Unarmed damage",
        "Melee halved",
        "Ranged halved",
        "Blunt",
        "Throw miss chance modifier",
        "Throw precise",
        "Throw improvised",
        "Throw range near",
        "Throw range far",
        "Throw range max",
        "Weapon weight",
        "Shield bonus",
        "Held by",
        "Melee weapon in hand",
        "Ranged weapon ready",
        "Evasion from the weapon in hand",
        "Dropped weapon",
        "Escape DC",
        "Death rolls due",
    ],
    hp_name: "Aura",
    hp_floor: Some(0),
    at_zero: AtZero::DeathRoll,
    death_steps: 0,
    resources: &[
        ResourceDef {
            recovery: &[],
            name: "Energy",
            max: 5,
            max_stat: None,
            reset: Reset::RoundStart,
            may_go_negative: false,
            hidden: false,
            capped_by: Some(2),
            cuts: &[("Exhausted", 2), ("Unconscious", 99)],
        },
        ResourceDef {
            recovery: &[],
            name: "Agility",
            max: 3,
            max_stat: Some(1),
            reset: Reset::RoundStart,
            may_go_negative: false,
            hidden: false,
            capped_by: None,
            cuts: &[("Slowed", 99), ("Unconscious", 99)],
        },
        ResourceDef {
            recovery: &[],
            name: "Stamina",
            max: 0,
            max_stat: Some(0),
            reset: Reset::Never,
            may_go_negative: false,
            hidden: false,
            capped_by: None,
            cuts: &[],
        },
        per_round("Initiative roll", 1, None),
        per_round("Swift attack", 1, None),
        per_round("Stamina swap", 1, None),
        once_a_round("Death save"),
        once_a_round("Wake roll"),
        // Counted up from 0 each round (kept by the system's panel): what a round's movement
        // and non-movement energy allow (`rules::aura::combat`).
        ResourceDef {
            max: 0,
            ..once_a_round("Moved (thirds of a metre)")
        },
        ResourceDef {
            max: 0,
            ..once_a_round("Agile moves")
        },
        // 1 while it keeps its initiative roll this round: challenged, it does not roll (as if
        // it lost) and keeps the roll for a challenge of its own (seed l.126).
        ResourceDef {
            max: 0,
            ..once_a_round("Keeps its initiative roll")
        },
    ],
    round_base: 1,
    seconds_per_round: 5,
    hp_changed: Some(crate::rules::aura::combat::hp_changed),
    lapse: &[],
    public: &[],
    max_stat: None,
    conditions: &[
        cond("Exposed", "Open to combat maneuvers.", D::RoundEnd),
        implying(
            "Unguarded",
            "Anyone may make a swift attack on it.",
            D::RoundEnd,
            &["Exposed"],
        ),
        implying(
            "Dazed",
            "Disadvantage on defence rolls, attack rolls and skill checks.",
            D::UntilRemoved,
            &["Exposed"],
        ),
        implying(
            "Blinded",
            "Disadvantage on attack rolls, evasion and sight checks.",
            D::UntilRemoved,
            &["Unguarded"],
        ),
        implying(
            "Prone",
            "On the ground: disadvantage on evasion; kneeling costs 1 energy.",
            D::UntilRemoved,
            &["Exposed"],
        ),
        cond(
            "Kneeling",
            "Up from prone, not yet standing: standing up costs 1 energy before any move.",
            D::UntilRemoved,
        ),
        implying(
            "Surprised",
            "Disadvantage on defence rolls until the first round ends.",
            D::RoundEnd,
            &["Unguarded"],
        ),
        implying(
            "Unconscious",
            "Out: no actions, no energy; melee attacks hit it.",
            D::UntilRemoved,
            &["Unguarded"],
        ),
        implying(
            "Helpless",
            "Asleep or tied fast: rolls no evasion, so every attack on it hits; cannot move or attack.",
            D::UntilRemoved,
            &["Unguarded"],
        ),
        implying(
            "Restrained",
            "No movement or attacks; 3 energy and a contest to break free.",
            D::UntilRemoved,
            &["Exposed"],
        ),
        implying(
            "Restraining",
            "Holding someone: no attacks.",
            D::UntilRemoved,
            &["Slowed"],
        ),
        cond(
            "Slowed",
            "Half speed, rounded up; no agility.",
            D::UntilRemoved,
        ),
        cond(
            "Exhausted",
            "No stamina may be spent; 2 less energy a round.",
            D::UntilRemoved,
        ),
        cond(
            "Shaken",
            "No stamina may be spent; may drop what it handles (chance roll, DC 5).",
            D::UntilRemoved,
        ),
        cond(
            "Defending",
            "Wins ties on its defences until it attacks or runs.",
            D::UntilRemoved,
        ),
        cond(
            "Bleeding out",
            "A death save at the start of every round until stabilized (gaining aura stabilizes).",
            D::UntilRemoved,
        ),
    ],
};

/// Shape 5: initiative order with an action-point pool spent on one's own turn and on
/// reactions, recovered at the end of one's own turn (Tempo).
pub const TEMPO: CombatRules = CombatRules {
    system: "tempo",
    reorder: Reorder::Never,
    turns: Turns::Fixed,
    init_keys: &["Initiative"],
    lowest_first: false,
    rolloff_die: 10,
    stats: &crate::rules::tempo::combat::STATS,
    hp_name: "Health",
    hp_floor: None,
    at_zero: AtZero::Down,
    death_steps: 0,
    resources: &[ResourceDef {
        recovery: crate::rules::tempo::RECOVERY,
        name: "AP",
        max: 12,
        max_stat: None,
        reset: Reset::TurnEnd,
        may_go_negative: true,
        hidden: false,
        capped_by: None,
        cuts: &[],
    }],
    round_base: 0,
    seconds_per_round: 6,
    hp_changed: None,
    lapse: &[],
    public: &[],
    max_stat: Some(crate::rules::tempo::combat::HP_MAX),
    conditions: &[
        cond("Off Guard", "Caught unready: Ready or Move only.", D::UntilRemoved),
        cond("On Guard", "In a guard: attacks, moves and most reactions.", D::UntilRemoved),
        cond("Bound", "Blades locked with an opponent: press, disarm, grapple, withdraw; wind or double in answer.", D::UntilRemoved),
        cond("Grappled", "Wrestling: pin, strike unarmed, escape; struggle in answer.", D::UntilRemoved),
        cond("Pinned", "Held down: escape is all that is left.", D::UntilRemoved),
    ],
};

pub const ALL: [&CombatRules; 5] = [&HEIMR, &SYMBAROUM, &VOGT, &AURA, &TEMPO];

/// The combat rules of a system id.
pub fn rules_for(system: &str) -> Option<&'static CombatRules> {
    ALL.into_iter().find(|r| r.system == system)
}
