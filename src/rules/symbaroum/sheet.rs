use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SAttr {
    Accurate,
    Cunning,
    Discreet,
    Persuasive,
    #[default]
    Quick,
    Resolute,
    Strong,
    Vigilant,
}

impl SAttr {
    pub const ALL: [SAttr; 8] = [
        SAttr::Accurate,
        SAttr::Cunning,
        SAttr::Discreet,
        SAttr::Persuasive,
        SAttr::Quick,
        SAttr::Resolute,
        SAttr::Strong,
        SAttr::Vigilant,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            SAttr::Accurate => "Accurate",
            SAttr::Cunning => "Cunning",
            SAttr::Discreet => "Discreet",
            SAttr::Persuasive => "Persuasive",
            SAttr::Quick => "Quick",
            SAttr::Resolute => "Resolute",
            SAttr::Strong => "Strong",
            SAttr::Vigilant => "Vigilant",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Novice,
    Adept,
    Master,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Novice, Level::Adept, Level::Master];

    pub fn name(self) -> &'static str {
        match self {
            Level::Novice => "novice",
            Level::Adept => "adept",
            Level::Master => "master",
        }
    }

    /// Experience spent to reach this level from nothing: 10, then 20 more, then 30 more.
    pub fn total_cost(self) -> u32 {
        match self {
            Level::Novice => 10,
            Level::Adept => 30,
            Level::Master => 60,
        }
    }

    pub fn next(self) -> Option<Level> {
        match self {
            Level::Novice => Some(Level::Adept),
            Level::Adept => Some(Level::Master),
            Level::Master => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SAbility {
    pub name: String,
    pub level: Level,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shield {
    #[default]
    None,
    Shield,
    Buckler,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WeaponQuality {
    Long,
    Short,
    Heavy,
    /// Shot or thrown: no advantage from a prone or flanked target; not with a shield.
    Ranged,
}

impl WeaponQuality {
    pub const ALL: [WeaponQuality; 4] = [
        WeaponQuality::Long,
        WeaponQuality::Short,
        WeaponQuality::Heavy,
        WeaponQuality::Ranged,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WeaponQuality::Long => "Long",
            WeaponQuality::Short => "Short",
            WeaponQuality::Heavy => "Heavy",
            WeaponQuality::Ranged => "Ranged",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: String,
    /// Dice notation, e.g. `1d8` or `1d10+1`.
    pub damage: String,
    pub qualities: Vec<WeaponQuality>,
    /// The attribute attacks use (usually Accurate).
    pub attr: SAttr,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbaroumSheet {
    /// Indexed by [`SAttr::index`].
    pub attributes: [i32; 8],
    pub abilities: Vec<SAbility>,
    pub armor_name: String,
    /// The armor's protection roll in dice notation (`1d4`), empty for none.
    pub armor_protection: String,
    pub armor_impeding: i32,
    pub shield: Shield,
    pub weapons: Vec<Weapon>,
    pub toughness: i32,
    pub corruption_temporary: u32,
    pub corruption_permanent: u32,
    pub experience: u32,
    pub equipment: Vec<String>,
    /// Death tests while dying: results of 11–19 so far (the third kills).
    pub death_steps: u32,
    pub dead: bool,
    /// A non-player character: dies at 0 toughness instead of dying.
    #[serde(default)]
    pub npc: bool,
    /// The attribute Defense is figured from: Quick, or another where an ability allows it
    /// (seed 001, "Combat Action").
    #[serde(default)]
    pub defense_from: SAttr,
}

impl Default for SymbaroumSheet {
    fn default() -> Self {
        SymbaroumSheet {
            attributes: [10; 8],
            abilities: Vec::new(),
            armor_name: String::new(),
            armor_protection: String::new(),
            armor_impeding: 0,
            shield: Shield::None,
            weapons: vec![Weapon {
                name: "Unarmed".into(),
                damage: "1d4".into(),
                qualities: vec![WeaponQuality::Short],
                attr: SAttr::Accurate,
            }],
            toughness: 10,
            corruption_temporary: 0,
            corruption_permanent: 0,
            experience: 50,
            equipment: Vec::new(),
            death_steps: 0,
            dead: false,
            npc: false,
            defense_from: SAttr::Quick,
        }
    }
}

/// The modifier an opposing value gives a test: 10 − value (saturating: any typed number is
/// safe).
pub fn modifier(v: i32) -> i32 {
    10i32.saturating_sub(v)
}

/// The number a test's d20 must not exceed: the value, a free modifier, the opposing value's
/// modifier and +2 for advantage, summed without overflow for any inputs.
pub fn test_target(value: i32, free: i32, opposing: Option<i32>, advantage: bool) -> i32 {
    value
        .saturating_add(free)
        .saturating_add(opposing.map_or(0, modifier))
        .saturating_add(if advantage { 2 } else { 0 })
}

impl SymbaroumSheet {
    pub fn attr(&self, a: SAttr) -> i32 {
        self.attributes[a.index()]
    }

    pub fn total(&self) -> i32 {
        self.attributes.iter().sum()
    }

    /// Strong, never below 10.
    pub fn toughness_max(&self) -> i32 {
        self.attr(SAttr::Strong).max(10)
    }

    /// Strong / 2 rounded up (from the real Strong, even below 10).
    pub fn pain_threshold(&self) -> i32 {
        (self.attr(SAttr::Strong) + 1).div_euclid(2)
    }

    /// Quick (or the attribute an ability puts in its place) − the armor's impeding value, +1
    /// with a shield or buckler.
    pub fn defense(&self) -> i32 {
        self.attr(self.defense_from) - self.armor_impeding + i32::from(self.shield != Shield::None)
    }

    /// Resolute / 2 rounded up.
    pub fn corruption_threshold(&self) -> i32 {
        (self.attr(SAttr::Resolute) + 1).div_euclid(2)
    }

    pub fn corruption_total(&self) -> u32 {
        self.corruption_temporary
            .saturating_add(self.corruption_permanent)
    }

    pub fn corruption_warning(&self) -> bool {
        self.corruption_total() as i64 >= i64::from(self.corruption_threshold())
    }

    pub fn experience_spent(&self) -> u32 {
        self.abilities.iter().map(|a| a.level.total_cost()).sum()
    }

    pub fn experience_left(&self) -> i64 {
        i64::from(self.experience) - i64::from(self.experience_spent())
    }

    /// Dying: a player character at 0 toughness, not yet dead (an NPC at 0 is dead).
    pub fn dying(&self) -> bool {
        self.toughness <= 0 && !self.dead && !self.npc
    }

    /// Attributes outside the usual 5…15 (allowed for NPCs).
    pub fn unusual_attributes(&self) -> Vec<SAttr> {
        SAttr::ALL
            .into_iter()
            .filter(|a| !(5..=15).contains(&self.attr(*a)))
            .collect()
    }

    /// Takes `damage` (already after armor): toughness never below 0; at 0 a player character
    /// is dying and an NPC dead.
    pub fn take_damage(&mut self, damage: i32) {
        self.set_toughness(self.toughness - damage.max(0));
    }

    /// Sets current toughness, never above the maximum nor below 0. As the fight counts it: a
    /// raise above 0 heals (the death tests start over), an NPC at 0 is dead.
    pub fn set_toughness(&mut self, v: i32) {
        let was = self.toughness;
        self.toughness = v.clamp(0, self.toughness_max());
        if self.toughness > was && self.toughness > 0 {
            self.death_steps = 0;
        }
        if self.npc && self.toughness <= 0 {
            self.dead = true;
        }
    }

    /// Natural healing (a day's rest): it does not stabilize, so a dying character gains
    /// nothing from it. Returns whether it healed.
    pub fn heal_natural(&mut self, amount: i32) -> bool {
        if self.dying() {
            return false;
        }
        self.heal(amount);
        true
    }

    /// The toughness a heal of `amount` actually adds now: up to the maximum, nothing to the
    /// dead (Medicus rolling 4 at 9 of 10 heals 1).
    pub fn heal_gain(&self, amount: i32) -> i32 {
        if self.dead {
            return 0;
        }
        let after = (self.toughness + amount.max(0)).min(self.toughness_max());
        (after - self.toughness).max(0)
    }

    /// Healing that stabilizes (herbal cure, Medicus, mystical healing): up to the maximum
    /// ([`Self::heal_gain`]); it ends dying and its death-test count.
    pub fn heal(&mut self, amount: i32) {
        if self.dead {
            return;
        }
        self.toughness += self.heal_gain(amount);
        if self.toughness > 0 {
            self.death_steps = 0;
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        for a in SAttr::ALL {
            if !(1..=20).contains(&self.attr(a)) {
                return Err(format!("{} is {}, outside 1…20", a.name(), self.attr(a)));
            }
        }
        if !(0..=100).contains(&self.armor_impeding) {
            return Err(format!(
                "armor impeding {} is outside 0…100",
                self.armor_impeding
            ));
        }
        if !(0..=1000).contains(&self.toughness) {
            return Err(format!("toughness {} is outside 0…1000", self.toughness));
        }
        if self.death_steps > 3 {
            return Err(format!(
                "{} death-test steps; the third is fatal",
                self.death_steps
            ));
        }
        for w in &self.weapons {
            if crate::rules::dice::parse(&w.damage).is_err() {
                return Err(format!(
                    "weapon “{}” has damage “{}”, which is not dice notation",
                    w.name, w.damage
                ));
            }
        }
        if !self.armor_protection.trim().is_empty()
            && crate::rules::dice::parse(&self.armor_protection).is_err()
        {
            return Err(format!(
                "armor protection “{}” is not dice notation",
                self.armor_protection
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn extreme_opposing_values_never_overflow() {
        use crate::rules::symbaroum::{success_chance, Blind};
        // −2147483648 typed as the opposing value: 10 − v saturates, the test is certain.
        let t = test_target(10, 0, Some(i32::MIN), false);
        assert_eq!(t, i32::MAX);
        assert!(success_chance(t, Blind::Neither).is_certain());
        let t = test_target(10, i32::MIN, Some(i32::MAX), true);
        assert!(success_chance(t, Blind::Neither).is_impossible());
        assert_eq!(test_target(12, 1, Some(13), true), 12 + 1 - 3 + 2);
    }

    use super::*;

    fn with(attr: SAttr, v: i32) -> SymbaroumSheet {
        let mut s = SymbaroumSheet::default();
        s.attributes[attr.index()] = v;
        s
    }

    #[test]
    fn secondary_attributes_at_their_edges() {
        for (strong, tough, pain) in [
            (5, 10, 3),
            (9, 10, 5),
            (10, 10, 5),
            (11, 11, 6),
            (14, 14, 7),
            (15, 15, 8),
            (1, 10, 1),
            (20, 20, 10),
        ] {
            let s = with(SAttr::Strong, strong);
            assert_eq!(
                (s.toughness_max(), s.pain_threshold()),
                (tough, pain),
                "Strong {strong}"
            );
        }
        for (resolute, threshold) in [(5, 3), (10, 5), (11, 6), (15, 8), (1, 1)] {
            assert_eq!(
                with(SAttr::Resolute, resolute).corruption_threshold(),
                threshold
            );
        }
        let mut s = with(SAttr::Quick, 13);
        s.armor_impeding = 2;
        assert_eq!(s.defense(), 11);
        s.shield = Shield::Buckler;
        assert_eq!(s.defense(), 12);
        s.shield = Shield::Shield;
        assert_eq!(s.defense(), 12);
        for (v, m) in [(5, 5), (10, 0), (15, -5), (13, -3)] {
            assert_eq!(modifier(v), m);
        }
    }

    #[test]
    fn corruption_warning_at_the_threshold() {
        let mut s = with(SAttr::Resolute, 9); // threshold 5
        s.corruption_temporary = 3;
        s.corruption_permanent = 1;
        assert!(!s.corruption_warning());
        s.corruption_permanent = 2;
        assert!(s.corruption_warning());
    }

    #[test]
    fn experience_costs() {
        let s = SymbaroumSheet {
            experience: 100,
            abilities: vec![
                SAbility {
                    name: "Iron Fist".into(),
                    level: Level::Novice,
                },
                SAbility {
                    name: "Medicus".into(),
                    level: Level::Adept,
                },
                SAbility {
                    name: "Recovery".into(),
                    level: Level::Master,
                },
            ],
            ..SymbaroumSheet::default()
        };
        assert_eq!(s.experience_spent(), 10 + 30 + 60);
        assert_eq!(s.experience_left(), 0);
        assert_eq!(Level::Novice.next(), Some(Level::Adept));
        assert_eq!(Level::Master.next(), None);
    }

    #[test]
    fn damage_and_healing() {
        let mut s = with(SAttr::Strong, 12);
        s.toughness = 12;
        s.take_damage(5);
        assert_eq!(s.toughness, 7);
        s.take_damage(20);
        assert_eq!(s.toughness, 0);
        assert!(s.dying());
        s.death_steps = 2;
        s.heal(3);
        assert_eq!((s.toughness, s.death_steps), (3, 0));
        s.heal(50);
        assert_eq!(s.toughness, 12);
        s.take_damage(-4);
        assert_eq!(s.toughness, 12, "negative damage heals nothing");
        s.take_damage(30);
        assert!(!s.heal_natural(1), "natural healing does not stabilize");
        assert_eq!((s.toughness, s.dying()), (0, true));
        s.heal(1);
        assert!(s.heal_natural(1));
        assert_eq!(s.toughness, 2);
        s.set_toughness(99);
        assert_eq!(s.toughness, 12, "never above the maximum");
        s.set_toughness(-3);
        assert_eq!(s.toughness, 0);
    }

    #[test]
    fn validation() {
        assert!(SymbaroumSheet::default().validate().is_ok());
        assert!(with(SAttr::Quick, 21)
            .validate()
            .unwrap_err()
            .contains("Quick"));
        let mut s = SymbaroumSheet::default();
        s.weapons[0].damage = "sword".into();
        assert!(s.validate().unwrap_err().contains("sword"));
        let s = with(SAttr::Cunning, 3);
        assert!(s.validate().is_ok(), "NPC values are allowed");
        assert_eq!(s.unusual_attributes(), vec![SAttr::Cunning]);
    }
}
