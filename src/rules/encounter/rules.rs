//! The per-system interface of the encounter engine: a system describes its round with data and
//! a few `fn` pointers, never with code inside the engine. Each of the five shapes of a round is
//! one small [`CombatRules`] value (see `systems.rs`).

use super::state::Combatant;

/// How turns work in a system's round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turns {
    /// An order fixed at the start (from attributes or one roll); waiting or delaying moves a
    /// combatant later, readying moves it before its trigger. Heimr, Symbaroum, Tempo.
    Fixed,
    /// Every round each combatant declares an action and rolls its die; the order is sorted
    /// anew before the round's first turn. Bo Vogt.
    EachRound,
    /// Rounds only: everyone acts freely within the round. Energy / Aura.
    None,
}

/// When a combatant may move itself later in the order (wait, delay, act before another).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reorder {
    /// Never: the order is the rolls' (Bo Vogt moves only by a new declaration; no order in
    /// Energy / Aura; none in Tempo's seed).
    Never,
    /// While the order is being established: before the fight starts and in the first round,
    /// on its own turn; once everyone has had a turn it is fixed (Symbaroum: "once the order is
    /// established it cannot be changed").
    FirstRound,
    /// At the start of its own turn, in any round, before it has spent anything (Heimr: delay,
    /// declared at the start of the turn).
    TurnStart,
}

/// When a per-round or per-turn resource refills by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reset {
    /// At the start of the combatant's own turn (actions per turn).
    TurnStart,
    /// At the start of every round, for everyone (pools per round).
    RoundStart,
    /// At the end of the combatant's own turn (recovery after spending on reactions).
    TurnEnd,
    /// Never by itself: a rest refills it (Energy / Aura's stamina); a linked character joins
    /// with its sheet's current value.
    Never,
}

/// A resource a combatant spends during a fight: actions, energy, action points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceDef {
    pub name: &'static str,
    /// Its full value; `max_stat` (an index into the combatant's stats) overrides it.
    pub max: i32,
    pub max_stat: Option<usize>,
    pub reset: Reset,
    /// Whether it may be spent below zero (Tempo's reactions on credit).
    pub may_go_negative: bool,
    /// Kept by the system's own panel (a count of uses) rather than shown in the turn bar.
    pub hidden: bool,
    /// The full value is at most another resource's current value (energy from stamina).
    pub capped_by: Option<usize>,
    /// While the holder has the named condition, the full value is that much lower (never
    /// below 0): exhausted −2 energy, slowed no agility.
    pub cuts: &'static [(&'static str, i32)],
    /// With `Reset::TurnEnd`: instead of refilling, the balance gains what this table gives
    /// for it — (lowest balance, amount) rows, highest first, nothing below the last — up to
    /// the full value (Tempo's Recover Stamina).
    pub recovery: &'static [(i32, i32)],
}

impl ResourceDef {
    /// The full value from the stats alone (before `capped_by` and `cuts`).
    pub fn full(&self, c: &Combatant) -> i32 {
        self.max_stat
            .and_then(|i| c.stats.get(i).copied())
            .unwrap_or(self.max)
    }
}

/// A duration offered by default when a condition is added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultDuration {
    UntilRemoved,
    /// Until the start of the affected combatant's next turn.
    NextTurnStart,
    /// Until the end of the affected combatant's next turn.
    NextTurnEnd,
    RoundEnd,
}

/// A condition of a system's catalogue, described in our own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConditionDef {
    pub name: &'static str,
    pub text: &'static str,
    pub default: DefaultDuration,
    /// Conditions that hold while this one does (removed with it, never on their own).
    pub implies: &'static [&'static str],
    /// What happens when it runs out by itself (a dying clock).
    pub ends: Ends,
    /// Damage taken at the start of each of the holder's turns (bleeding).
    pub hurts: i32,
}

/// What a condition's running out does besides ending it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ends {
    Nothing,
    /// Another condition takes hold (until removed).
    Becomes(&'static str),
    /// The combatant dies.
    Dies,
}

/// What a hit point total of zero (or below the floor) means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtZero {
    /// Player characters are dying (death tests on their turn); others die.
    DyingIfPc,
    /// Everyone keeps fighting below zero; the system's own table says what happens.
    Table,
    /// Unconscious, not dead (the GM decides).
    Down,
    /// Damage taken at zero calls for the system's death roll (Energy / Aura); the system's
    /// panel rolls it.
    DeathRoll,
    /// Every hit that leaves 0 or less adds a level (counted in `Combatant::death`, kept when
    /// healed) and the condition `adds`; at `halve_at` the maximum halves; at level `out_at`
    /// the condition `out` too; from `table_at` on, each
    /// level calls for a roll on the system's table (Bo Vogt's exhaustion).
    Levels {
        name: &'static str,
        adds: &'static str,
        /// The level at which the hit point maximum is halved (rounded down).
        halve_at: u32,
        out_at: u32,
        out: &'static str,
        table_at: u32,
    },
}

/// One system's combat: the five shapes are five values of this.
#[derive(Debug, Clone, Copy)]
pub struct CombatRules {
    pub system: &'static str,
    pub turns: Turns,
    /// When a combatant may move itself in the order.
    pub reorder: Reorder,
    /// Names of the initiative keys compared in order; the last tie-break is a roll-off.
    pub init_keys: &'static [&'static str],
    /// Lowest first (Bo Vogt's action dice) instead of highest first.
    pub lowest_first: bool,
    /// The die of the roll-off that breaks ties left by the keys (0: ties keep joining order).
    pub rolloff_die: u32,
    /// Names of the stats a combatant carries (indexes of `Combatant::stats`).
    pub stats: &'static [&'static str],
    /// What the hit point track is called ("Toughness", "HP").
    pub hp_name: &'static str,
    /// Lowest value damage can bring it to (`None`: no floor).
    pub hp_floor: Option<i32>,
    pub at_zero: AtZero,
    /// Results of death tests that kill when reached (0: the system has no death tests).
    pub death_steps: u32,
    pub resources: &'static [ResourceDef],
    pub conditions: &'static [ConditionDef],
    /// The number the round counter shows for the first round (1; Tempo counts from 0).
    pub round_base: u32,
    /// How long a round lasts in the fiction (0: not measured); the fight shows its clock.
    pub seconds_per_round: u32,
    /// What the system's rules attach to a change of hit points (Heimr's injuries: conditions,
    /// dying clocks, and their end when healed): given the fight before the change, who, and
    /// the hit points before and after. Every way hit points change goes through it
    /// ([`super::State::damage_events`], [`super::State::heal_events`]).
    pub hp_changed: Option<HpChanged>,
    /// Stats set back to 0 when their combatant's turn begins (Heimr: a defence shown ahead
    /// lapses then, unused).
    pub lapse: &'static [usize],
    /// Stats the rules make public, seen by every player even on an NPC whose numbers the GM
    /// keeps (Heimr's shown defence: its kind and value).
    pub public: &'static [usize],
    /// The stat that holds the hit point maximum as a saved sheet now has it (Symbaroum's
    /// Toughness from a Strong raised mid-fight); 0 there, or none: the maximum it joined with.
    pub max_stat: Option<usize>,
}

/// See [`CombatRules::hp_changed`].
pub type HpChanged = fn(&super::State, u32, i32, i32) -> Vec<super::Event>;

/// One value per system: two are the same rules when they are the same system's (a fight
/// compares its rules by name; the hook's address is not a meaningful identity).
impl PartialEq for CombatRules {
    fn eq(&self, other: &Self) -> bool {
        self.system == other.system
    }
}

impl Eq for CombatRules {}

impl CombatRules {
    pub fn condition(&self, name: &str) -> Option<&'static ConditionDef> {
        self.conditions.iter().find(|c| c.name == name)
    }

    /// The combatant's hit point maximum now: its own (or as its sheet now has it,
    /// [`CombatRules::max_stat`]), halved (rounded down) while it holds as many levels as the
    /// system's halving takes (Bo Vogt's exhaustion 2), back when they fall.
    pub fn hp_max(&self, c: &super::Combatant) -> i32 {
        let max = self
            .max_stat
            .map(|i| c.stat(i))
            .filter(|&m| m > 0)
            .unwrap_or(c.hp_max);
        match self.at_zero {
            AtZero::Levels { halve_at, .. } if c.death >= halve_at => max.div_euclid(2),
            _ => max,
        }
    }

    /// The round counter as shown for the engine's round `n` (1 for the first).
    pub fn counter(&self, n: u32) -> u32 {
        (n + self.round_base).saturating_sub(1)
    }

    pub fn has_turns(&self) -> bool {
        self.turns != Turns::None
    }
}
