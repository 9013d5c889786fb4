//! A Tempo character: the three defence values, movement, the check dice the table uses (SPEC
//! decision 5), the check bonus of each action, and weapons with their AP cost per action and
//! aimed accuracy. Health is a plain input (the seed leaves damage to the table).

use super::actions::{Arm, ACTIONS};
use crate::rules::dice::{parse, Distribution};
use serde::{Deserialize, Serialize};

pub const STAT_LIMIT: i32 = 100;
pub const HEALTH_LIMIT: i32 = 10_000;
pub const NAME_LIMIT: usize = 100;
pub const LIST_LIMIT: usize = 50;
/// The cost a new weapon asks for each of its actions until the player types its own.
pub const DEFAULT_COST: i32 = 4;

/// A number for one action (a bonus, a cost): a list rather than a map, which costs the phone
/// less code; at most one entry per action (validated).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerAction {
    pub action: String,
    pub value: i32,
}

/// The value for `action`, if the list has one.
pub fn per_action(list: &[PerAction], action: &str) -> Option<i32> {
    list.iter().find(|x| x.action == action).map(|x| x.value)
}

/// Sets the value for `action`; `default` removes the entry.
pub fn set_per_action(list: &mut Vec<PerAction>, action: &str, value: i32, default: i32) {
    list.retain(|x| x.action != action);
    if value != default {
        list.push(PerAction {
            action: action.into(),
            value,
        });
    }
}

fn check_list(list: &[PerAction], what: &str, min: i32) -> Result<(), String> {
    for (i, x) in list.iter().enumerate() {
        if !ACTIONS.iter().any(|a| a.name == x.action) {
            return Err(format!(
                "{what} for “{}”, which is not an action",
                x.action.chars().take(40).collect::<String>()
            ));
        }
        if list[..i].iter().any(|y| y.action == x.action) {
            return Err(format!("{what} for {} is given twice", x.action));
        }
        if !(min..=STAT_LIMIT).contains(&x.value) {
            return Err(format!(
                "{what} for {} must be from {min} to {STAT_LIMIT}",
                x.action
            ));
        }
    }
    Ok(())
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: String,
    #[serde(default)]
    pub ranged: bool,
    /// AP per action; an action missing here costs [`DEFAULT_COST`].
    #[serde(default)]
    pub costs: Vec<PerAction>,
    /// Added to a weapon attack right after a successful Aim.
    #[serde(default)]
    pub aimed: i32,
}

impl Weapon {
    pub fn new(name: &str, ranged: bool) -> Weapon {
        Weapon {
            name: name.into(),
            ranged,
            costs: Vec::new(),
            aimed: 0,
        }
    }

    pub fn arm(&self) -> Arm {
        if self.ranged {
            Arm::Ranged
        } else {
            Arm::Melee
        }
    }

    pub fn cost(&self, action: &str) -> i32 {
        per_action(&self.costs, action).unwrap_or(DEFAULT_COST)
    }

    pub fn set_cost(&mut self, action: &str, v: i32) {
        set_per_action(
            &mut self.costs,
            action,
            v.clamp(0, STAT_LIMIT),
            DEFAULT_COST,
        );
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TempoSheet {
    pub defence: i32,
    pub armoured: i32,
    pub grapple: i32,
    pub movement: i32,
    #[serde(default)]
    pub health: i32,
    #[serde(default)]
    pub health_max: i32,
    /// The table's check dice, in the roller's notation.
    pub dice: String,
    /// The check bonus per action (0 when missing).
    #[serde(default)]
    pub bonuses: Vec<PerAction>,
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// A non-player character kept as a sheet: an NPC at the table (its numbers the GM's).
    #[serde(default)]
    pub npc: bool,
}

impl Default for TempoSheet {
    fn default() -> Self {
        TempoSheet {
            defence: 5,
            armoured: 8,
            grapple: 5,
            movement: 4,
            health: 10,
            health_max: 10,
            dice: "1d10".into(),
            bonuses: Vec::new(),
            weapons: vec![Weapon::new("Sword", false)],
            npc: false,
        }
    }
}

impl TempoSheet {
    pub fn bonus(&self, action: &str) -> i32 {
        per_action(&self.bonuses, action).unwrap_or(0)
    }

    pub fn set_bonus(&mut self, action: &str, v: i32) {
        set_per_action(
            &mut self.bonuses,
            action,
            v.clamp(-STAT_LIMIT, STAT_LIMIT),
            0,
        );
    }

    /// What a check of action `i` adds in `situation` (Play's check, as the fight adds it):
    /// 1 aimed (its weapon's aimed accuracy, for a weapon attack), 2 a feint's counter-attack
    /// (+3), 3 a counter-attack against fists (+5); else nothing.
    pub fn situational(&self, i: usize, situation: i32) -> i32 {
        let Some(a) = crate::rules::tempo::ACTIONS.get(i) else {
            return 0;
        };
        let counter = a.name == "Counter-Attack";
        match situation {
            1 if a.weapon_attack() => a
                .arm
                .and_then(|arm| self.weapon(arm))
                .map_or(0, |w| w.aimed),
            2 if counter => crate::rules::tempo::FEINT_REPLACEMENT.3,
            3 if counter => crate::rules::tempo::UNARMED_COUNTER,
            _ => 0,
        }
    }

    /// The weapon a fight uses for `arm`: the first of its kind on the sheet.
    pub fn weapon(&self, arm: Arm) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.arm() == arm)
    }

    /// The check dice's distribution, if the notation is valid and small enough.
    pub fn dice_dist(&self) -> Option<Distribution> {
        dice_dist(&self.dice)
    }

    pub fn validate(&self) -> Result<(), String> {
        for (v, what) in [
            (self.defence, "combat defence"),
            (self.armoured, "combat defence (armoured)"),
            (self.grapple, "grapple defence"),
            (self.movement, "movement"),
        ] {
            if !(-STAT_LIMIT..=STAT_LIMIT).contains(&v) {
                return Err(format!("{what} must be within ±{STAT_LIMIT}"));
            }
        }
        if !(0..=HEALTH_LIMIT).contains(&self.health_max)
            || !(-HEALTH_LIMIT..=HEALTH_LIMIT).contains(&self.health)
        {
            return Err(format!("health must be within ±{HEALTH_LIMIT}"));
        }
        if !dice_ok(&self.dice) {
            return Err(format!(
                "the check dice “{}” are not dice notation the app can roll",
                self.dice.chars().take(40).collect::<String>()
            ));
        }
        if self.weapons.len() > LIST_LIMIT {
            return Err(format!("at most {LIST_LIMIT} weapons"));
        }
        check_list(&self.bonuses, "a bonus", -STAT_LIMIT)?;
        for w in &self.weapons {
            if w.name.chars().count() > NAME_LIMIT {
                return Err(format!(
                    "a weapon name is longer than {NAME_LIMIT} characters"
                ));
            }
            if !(-STAT_LIMIT..=STAT_LIMIT).contains(&w.aimed) {
                return Err(format!("aimed accuracy must be within ±{STAT_LIMIT}"));
            }
            check_list(&w.costs, "an AP cost", 0)?;
        }
        Ok(())
    }
}

/// Whether a check dice notation parses and its distribution can be computed, from sizes
/// alone (a sheet's dice are checked on every load, import and edit).
pub fn dice_ok(notation: &str) -> bool {
    parse(notation).is_ok_and(|e| Distribution::fits(&e))
}

/// A check dice notation's distribution (`None` when it does not parse or is too large).
pub fn dice_dist(notation: &str) -> Option<Distribution> {
    parse(notation)
        .ok()
        .and_then(|e| Distribution::of_expr(&e).ok())
}

/// The "by weapon" actions a weapon of `arm` prices, in catalogue order.
pub fn priced(arm: Arm) -> impl Iterator<Item = &'static str> {
    ACTIONS
        .iter()
        .filter(move |a| a.arm == Some(arm))
        .map(|a| a.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_round_trip() {
        let s = TempoSheet::default();
        assert_eq!(s.validate(), Ok(()));
        let j = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<TempoSheet>(&j).unwrap(), s);
    }

    #[test]
    fn bad_values_are_refused_with_a_reason() {
        let mut s = TempoSheet {
            dice: "banana".into(),
            ..TempoSheet::default()
        };
        assert!(s.validate().unwrap_err().contains("check dice"));
        s.dice = "2d6".into();
        s.bonuses.push(PerAction {
            action: "Fly".into(),
            value: 2,
        });
        assert!(s.validate().unwrap_err().contains("not an action"));
        s.bonuses.clear();
        s.set_bonus("Parry", 2);
        s.bonuses.push(PerAction {
            action: "Parry".into(),
            value: 1,
        });
        assert_eq!(s.validate(), Err("a bonus for Parry is given twice".into()));
        s.bonuses.clear();
        s.weapons[0].costs.push(PerAction {
            action: "Parry".into(),
            value: -1,
        });
        assert!(s
            .validate()
            .unwrap_err()
            .contains("an AP cost for Parry must be from 0"));
        s.weapons[0].costs.clear();
        s.weapons[0].set_cost("Parry", 3);
        assert_eq!(s.validate(), Ok(()));
        s.defence = 101;
        assert!(s.validate().is_err());
    }

    #[test]
    fn weapons_price_their_own_actions() {
        let melee: Vec<&str> = priced(Arm::Melee).collect();
        assert_eq!(
            melee,
            [
                "Disarm",
                "Feint",
                "Grapple",
                "Melee Attack",
                "Press",
                "Counter-Attack",
                "Double",
                "Parry",
                "Wind",
                "CT Counter-Attack",
                "CT Parry"
            ]
        );
        assert_eq!(
            priced(Arm::Ranged).collect::<Vec<_>>(),
            ["Ranged Attack", "Counter-Fire"]
        );
        let mut s = TempoSheet::default();
        s.weapons[0].set_cost("Feint", 2);
        assert_eq!(s.weapon(Arm::Melee).unwrap().cost("Feint"), 2);
        assert_eq!(s.weapon(Arm::Melee).unwrap().cost("Parry"), DEFAULT_COST);
        assert!(s.weapon(Arm::Ranged).is_none());
        s.set_bonus("Parry", 3);
        s.set_bonus("Feint", 0);
        assert_eq!(s.bonus("Parry"), 3);
        assert!(per_action(&s.bonuses, "Feint").is_none());
        s.weapons[0].set_cost("Feint", DEFAULT_COST);
        assert!(s.weapons[0].costs.is_empty(), "the default is not stored");
    }
}
