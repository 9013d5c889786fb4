use serde::{Deserialize, Serialize};

pub const FATIGUE_MIN: i32 = 1;
pub const FATIGUE_MAX: i32 = 20;

/// The six attributes, in sheet order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attr {
    Str,
    Dex,
    Sta,
    Int,
    Soc,
    Emp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrGroup {
    Physical,
    Mental,
}

impl Attr {
    pub const ALL: [Attr; 6] = [
        Attr::Str,
        Attr::Dex,
        Attr::Sta,
        Attr::Int,
        Attr::Soc,
        Attr::Emp,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn short(self) -> &'static str {
        match self {
            Attr::Str => "str",
            Attr::Dex => "dex",
            Attr::Sta => "sta",
            Attr::Int => "int",
            Attr::Soc => "soc",
            Attr::Emp => "emp",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Attr::Str => "Strength",
            Attr::Dex => "Dexterity",
            Attr::Sta => "Stamina",
            Attr::Int => "Intelligence",
            Attr::Soc => "Sociability",
            Attr::Emp => "Empathy",
        }
    }

    pub fn group(self) -> AttrGroup {
        match self {
            Attr::Str | Attr::Dex | Attr::Sta => AttrGroup::Physical,
            Attr::Int | Attr::Soc | Attr::Emp => AttrGroup::Mental,
        }
    }
}

/// An attribute's value and its progress toward the next value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Attribute {
    pub value: i32,
    pub progress: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ability {
    pub name: String,
    /// One or more governing attributes.
    pub attrs: Vec<Attr>,
    /// Set by the GM, −2…+3.
    pub base_consistency: i32,
    pub trained_consistency: u32,
    pub trained_potential: u32,
}

impl Ability {
    pub fn new(name: &str, attrs: &[Attr], base_consistency: i32) -> Self {
        Ability {
            name: name.to_owned(),
            attrs: attrs.to_vec(),
            base_consistency,
            trained_consistency: 0,
            trained_potential: 0,
        }
    }
}

/// A Heimr character sheet (the `sheet` of a stored character).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeimrSheet {
    /// Indexed by [`Attr::index`].
    pub attributes: [Attribute; 6],
    pub abilities: Vec<Ability>,
    pub hp_max: i32,
    pub hp: i32,
    pub willpower_max: i32,
    pub willpower: i32,
    pub fatigue: i32,
    pub skills: Vec<String>,
    pub conditions: Vec<String>,
    pub items: Vec<String>,
    pub xp: u32,
    /// A copy of the party's XP remainder, as format 1 stored it on every character present.
    /// Loading moves it to the roster's index once and clears it here; nothing reads it since.
    pub xp_carried: u32,
    /// Purchases, oldest first, so each can be undone in reverse order.
    #[serde(default)]
    pub purchases: Vec<super::Purchase>,
}

/// The six standard abilities with their base consistency (chosen by the GM; 0 as a start).
pub const STANDARD_ABILITIES: [(&str, Attr); 6] = [
    ("Brawl", Attr::Str),
    ("Agility", Attr::Dex),
    ("Survival", Attr::Sta),
    ("Perception", Attr::Int),
    ("Persuasion", Attr::Soc),
    ("Insight", Attr::Emp),
];

impl Default for HeimrSheet {
    fn default() -> Self {
        HeimrSheet {
            attributes: [Attribute::default(); 6],
            abilities: STANDARD_ABILITIES
                .iter()
                .map(|(n, a)| Ability::new(n, &[*a], 0))
                .collect(),
            hp_max: 3,
            hp: 3,
            willpower_max: 3,
            willpower: 3,
            fatigue: base_fatigue(0),
            skills: Vec::new(),
            conditions: Vec::new(),
            items: Vec::new(),
            xp: 0,
            xp_carried: 0,
            purchases: Vec::new(),
        }
    }
}

/// Base fatigue: 4 − stamina, never below 1.
pub fn base_fatigue(stamina: i32) -> i32 {
    (4 - stamina).max(FATIGUE_MIN)
}

/// Progress needed for an attribute to reach `new_value`.
pub fn progress_required(new_value: i32) -> u32 {
    match new_value {
        i32::MIN..=-2 => 8,
        -1 => 6,
        0 => 4,
        1 => 6,
        2 => 8,
        3 => 10,
        _ => 12,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum InjuryLevel {
    Uninjured,
    Bloodied,
    Mangled,
    Mutilated,
}

/// The lowest hit points the seed's injury table lists (mutilated: −4 or −5).
pub const MUTILATED_LOWEST: i32 = -5;

/// The injury a hit-point total means, and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Injury {
    pub level: InjuryLevel,
    /// Below −5: past the end of the seed's table (still mutilated, SPEC decision 7).
    pub past_table: bool,
}

impl Injury {
    /// 1 or more: uninjured; 0/−1 bloodied; −2/−3 mangled; −4 and below mutilated (the seed
    /// lists −4/−5 and stops; below −5 stays mutilated, the gravest level it defines).
    pub fn from_hp(hp: i32) -> Injury {
        let level = match hp {
            1.. => InjuryLevel::Uninjured,
            -1..=0 => InjuryLevel::Bloodied,
            -3..=-2 => InjuryLevel::Mangled,
            _ => InjuryLevel::Mutilated,
        };
        Injury {
            level,
            past_table: hp < MUTILATED_LOWEST,
        }
    }

    /// The level as a sheet shows it: below −5 with a note that the table ends there.
    pub fn label(self) -> String {
        if self.past_table {
            format!("{} (the table ends at −5)", self.name())
        } else {
            self.name().to_owned()
        }
    }

    pub fn name(self) -> &'static str {
        match self.level {
            InjuryLevel::Uninjured => "Uninjured",
            InjuryLevel::Bloodied => "Bloodied",
            InjuryLevel::Mangled => "Mangled",
            InjuryLevel::Mutilated => "Mutilated",
        }
    }

    /// What the level means, in our words.
    pub fn effect(self) -> &'static str {
        match self.level {
            InjuryLevel::Uninjured => "A short rest restores all hit points.",
            InjuryLevel::Bloodied => "Needs treatment; no short rest until then.",
            InjuryLevel::Mangled => {
                "Dying: unconscious after 5 minutes, dead after 10, unless stabilised."
            }
            InjuryLevel::Mutilated => {
                "Unconscious at once; dead after 2 minutes unless stabilised."
            }
        }
    }

    /// The effect of an injuring hit by body part (lasts while injured).
    pub const BODY_PART_EFFECTS: [(&'static str, &'static str); 3] = [
        ("Either arm", "drops what it holds"),
        ("A leg", "falls"),
        ("Torso", "is dazed"),
    ];
}

/// The ranges a stored sheet keeps, checked on import ([`HeimrSheet::validate`]) and kept by
/// every edit, purchase and share, so whatever the app stores it can import again.
pub const ATTR_LIMIT: i32 = 20;
pub const TRAIN_LIMIT: u32 = 40;
pub const XP_LIMIT: u32 = 10_000_000;

impl HeimrSheet {
    /// Adds shared XP, or says why it cannot without passing [`XP_LIMIT`].
    pub fn add_xp(&mut self, n: u32) -> Result<(), String> {
        match self.xp.checked_add(n).filter(|&x| x <= XP_LIMIT) {
            Some(x) => {
                self.xp = x;
                Ok(())
            }
            None => Err(format!("it would pass {XP_LIMIT} XP")),
        }
    }

    pub fn attr(&self, a: Attr) -> i32 {
        self.attributes[a.index()].value
    }

    /// The governing attribute, or the floor of the average of several.
    pub fn base_potential(&self, ability: &Ability) -> i32 {
        if ability.attrs.is_empty() {
            return 0;
        }
        let sum: i32 = ability.attrs.iter().map(|&a| self.attr(a)).sum();
        sum.div_euclid(ability.attrs.len() as i32)
    }

    pub fn consistency(&self, ability: &Ability) -> i32 {
        ability.base_consistency + ability.trained_consistency as i32
    }

    pub fn potential(&self, ability: &Ability) -> i32 {
        self.base_potential(ability) + ability.trained_potential as i32
    }

    pub fn base_fatigue(&self) -> i32 {
        base_fatigue(self.attr(Attr::Sta))
    }

    pub fn injury(&self) -> Injury {
        Injury::from_hp(self.hp)
    }

    /// Why a short rest restores nothing now: only from 1 HP (an injured character needs
    /// treatment first); `None` when it may be taken.
    pub fn short_rest_refusal(&self) -> Option<&'static str> {
        if self.hp < 1 {
            Some("No short rest while injured (below 1 HP): treatment first.")
        } else if self.hp >= self.hp_max {
            Some("Hit points are already at their maximum.")
        } else {
            None
        }
    }

    /// A key figure for the roster: the sum of the attributes.
    pub fn attribute_total(&self) -> i32 {
        self.attributes.iter().map(|a| a.value).sum()
    }

    /// Checks imported values: every number within what the sheet can hold.
    pub fn validate(&self) -> Result<(), String> {
        for a in Attr::ALL {
            let v = self.attributes[a.index()];
            if !(-ATTR_LIMIT..=ATTR_LIMIT).contains(&v.value) {
                return Err(format!("{} is {}, outside −20…20", a.name(), v.value));
            }
            if v.progress >= progress_required(v.value + 1) {
                return Err(format!(
                    "{} progress {} should already have raised it",
                    a.name(),
                    v.progress
                ));
            }
        }
        for ab in &self.abilities {
            if ab.name.trim().is_empty() {
                return Err("an ability has no name".into());
            }
            if ab.attrs.is_empty() {
                return Err(format!("ability “{}” has no governing attribute", ab.name));
            }
            if !(-2..=3).contains(&ab.base_consistency) {
                return Err(format!(
                    "ability “{}” has base consistency {}, outside −2…3",
                    ab.name, ab.base_consistency
                ));
            }
            if ab.trained_consistency > TRAIN_LIMIT || ab.trained_potential > TRAIN_LIMIT {
                return Err(format!(
                    "ability “{}” has more than 40 levels of training",
                    ab.name
                ));
            }
        }
        if !(FATIGUE_MIN..=FATIGUE_MAX).contains(&self.fatigue) {
            return Err(format!("fatigue is {}, outside 1…20", self.fatigue));
        }
        for (what, v) in [
            ("hit points", self.hp_max),
            ("willpower", self.willpower_max),
        ] {
            if !(0..=1000).contains(&v) {
                return Err(format!("maximum {what} is {v}, outside 0…1000"));
            }
        }
        if !(-1000..=1000).contains(&self.hp) || !(0..=1000).contains(&self.willpower) {
            return Err("current hit points or willpower out of range".into());
        }
        if self.xp > XP_LIMIT {
            return Err(format!("XP {} is more than 10 000 000", self.xp));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet_with(values: [i32; 6]) -> HeimrSheet {
        let mut s = HeimrSheet::default();
        for (a, v) in s.attributes.iter_mut().zip(values) {
            a.value = v;
        }
        s
    }

    #[test]
    fn base_potential_is_the_floor_of_the_average() {
        let s = sheet_with([0, 3, -1, -2, 2, 5]);
        let p = |attrs: &[Attr]| s.base_potential(&Ability::new("x", attrs, 0));
        assert_eq!(p(&[Attr::Str]), 0);
        assert_eq!(
            p(&[Attr::Str, Attr::Dex]),
            1,
            "0 and 3: 1.5 → 1 (seed example)"
        );
        assert_eq!(
            p(&[Attr::Sta, Attr::Str]),
            -1,
            "−1 and 0: −0.5 → −1, floor not truncation"
        );
        assert_eq!(p(&[Attr::Int, Attr::Sta]), -2, "−2 and −1: −1.5 → −2");
        assert_eq!(
            p(&[Attr::Int, Attr::Soc, Attr::Emp]),
            1,
            "(−2+2+5)/3 = 1.67 → 1"
        );
        assert_eq!(
            p(&[Attr::Sta, Attr::Int, Attr::Str]),
            -1,
            "−3/3 = −1 exactly"
        );
        assert_eq!(p(&[Attr::Emp]), 5);
    }

    #[test]
    fn consistency_and_potential_add_training() {
        let s = sheet_with([2, 0, 0, 0, 0, 0]);
        let mut brawl = Ability::new("Brawl", &[Attr::Str], -2);
        brawl.trained_consistency = 3;
        brawl.trained_potential = 2;
        assert_eq!(s.consistency(&brawl), 1);
        assert_eq!(s.potential(&brawl), 4);
    }

    #[test]
    fn base_fatigue_follows_stamina_and_never_drops_below_one() {
        assert_eq!(base_fatigue(3), 1);
        assert_eq!(base_fatigue(-2), 6);
        assert_eq!(base_fatigue(4), 1);
        assert_eq!(base_fatigue(9), 1);
        assert_eq!(base_fatigue(0), 4);
        assert_eq!(base_fatigue(-3), 7);
    }

    #[test]
    fn progress_requirements() {
        let table = [
            (-5, 8),
            (-2, 8),
            (-1, 6),
            (0, 4),
            (1, 6),
            (2, 8),
            (3, 10),
            (4, 12),
            (5, 12),
            (9, 12),
        ];
        for (v, need) in table {
            assert_eq!(progress_required(v), need, "to reach {v}");
        }
    }

    #[test]
    fn injury_levels() {
        use InjuryLevel::*;
        for (hp, level) in [
            (5, Uninjured),
            (1, Uninjured),
            (0, Bloodied),
            (-1, Bloodied),
            (-2, Mangled),
            (-3, Mangled),
            (-4, Mutilated),
            (-5, Mutilated),
            (-9, Mutilated),
        ] {
            assert_eq!(Injury::from_hp(hp).level, level, "hp {hp}");
        }
    }

    #[test]
    fn a_new_sheet_has_the_six_standard_abilities() {
        let s = HeimrSheet::default();
        let names: Vec<_> = s
            .abilities
            .iter()
            .map(|a| (a.name.as_str(), a.attrs[0]))
            .collect();
        assert_eq!(names, STANDARD_ABILITIES.to_vec());
        assert_eq!(s.fatigue, 4);
        assert!(s.validate().is_ok());
    }

    #[test]
    fn validation_names_the_problem() {
        let mut s = HeimrSheet::default();
        s.abilities[0].base_consistency = 5;
        assert!(s.validate().unwrap_err().contains("Brawl"));
        let s = HeimrSheet {
            fatigue: 0,
            ..HeimrSheet::default()
        };
        assert!(s.validate().unwrap_err().contains("fatigue"));
        let mut s = HeimrSheet::default();
        s.attributes[0].progress = 4; // reaching 1 needs 6: fine
        assert!(s.validate().is_ok());
        s.attributes[0].progress = 6;
        assert!(s.validate().unwrap_err().contains("Strength"));
    }
}
