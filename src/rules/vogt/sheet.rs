//! Bo Vogt's sheet: four abilities as rungs of the die-size ladder, skills as bonuses, HP, AR,
//! movement, technique dice, exhaustion, statuses, damage types, inventory. Every derived value
//! (slots, quick slots, encumbrance, effective speed and HP max, abilities after statuses) is a
//! method, so the sheet and the fight show the same numbers.

use super::ladder::{parse_dice, Dice, TOP};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ability {
    Str,
    Dex,
    Awr,
    Wil,
}

impl Ability {
    pub const ALL: [Ability; 4] = [Ability::Str, Ability::Dex, Ability::Awr, Ability::Wil];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn short(self) -> &'static str {
        ["STR", "DEX", "AWR", "WIL"][self.index()]
    }

    pub fn name(self) -> &'static str {
        ["Strength", "Dexterity", "Awareness", "Willpower"][self.index()]
    }
}

/// A status of the rules, in our own words; the encounter catalogue uses the same names.
pub struct StatusDef {
    pub name: &'static str,
    pub text: &'static str,
    /// Rungs lost by STR, DEX, AWR, WIL while it holds.
    pub rungs: [i32; 4],
}

const fn st(name: &'static str, text: &'static str, rungs: [i32; 4]) -> StatusDef {
    StatusDef { name, text, rungs }
}

pub const STATUSES: [StatusDef; 13] = [
    st("Afraid", "Cannot move or act toward what it fears.", [0; 4]),
    st(
        "Bleeding",
        "1 damage at the start of each of its turns.",
        [0; 4],
    ),
    st(
        "Blind",
        "Disadvantage on anything needing sight; AWR one die smaller.",
        [0, 0, 1, 0],
    ),
    st(
        "Deaf",
        "Disadvantage on anything needing hearing; AWR one die smaller.",
        [0, 0, 1, 0],
    ),
    st("Drenched", "Resists fire, vulnerable to lightning.", [0; 4]),
    st("Frozen", "STR and DEX one die smaller.", [1, 1, 0, 0]),
    st(
        "Hallucinating",
        "Sees what is not there; the GM narrates.",
        [0; 4],
    ),
    st("Immobile", "Speed 0.", [0; 4]),
    st(
        "Mute",
        "Cannot speak; disadvantage on anything needing a voice.",
        [0; 4],
    ),
    st("Nauseated", "Vulnerable to blunt, slash and stab.", [0; 4]),
    st("Prone", "Half movement, cannot fly, AR 0.", [0; 4]),
    st("Scorched", "AWR and WIL one die smaller.", [0, 0, 1, 1]),
    st(
        "Unconscious",
        "No movement, no actions; initiative 10d10.",
        [0; 4],
    ),
];

pub fn status(name: &str) -> Option<&'static StatusDef> {
    STATUSES.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// Results of the death and dismemberment table (d8; 6 or more: dead).
pub const DISMEMBERMENT: [&str; 6] = [
    "Weapon or armor breaks",
    "Lost an arm",
    "Lost an eye",
    "Lost a leg (movement 1)",
    "Lost the voice (mute for good)",
    "Dead",
];

/// What a broken weapon or armour is kept as: "Broken: Club", "Broken: armor" (a line of the
/// injuries list, so sheet and fight share it; removed when it is replaced).
pub const BROKEN: &str = "Broken: ";
pub const ARMOR: &str = "armor";

/// The line a break of `thing` (a weapon's name, or [`ARMOR`]) is kept as.
pub fn broken_line(thing: &str) -> String {
    format!("{BROKEN}{thing}")
}

/// Whether `thing` is broken among these injury lines.
pub fn is_broken<'a>(mut lines: impl Iterator<Item = &'a str>, thing: &str) -> bool {
    lines.any(|l| l.strip_prefix(BROKEN) == Some(thing))
}

/// The table's line for a d8 result.
pub fn dismemberment(d8: u32) -> &'static str {
    DISMEMBERMENT[(d8.clamp(1, 6) - 1) as usize]
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skill {
    pub name: String,
    pub ability: Ability,
    pub bonus: i32,
}

/// Something carried. `count` of them fit `per_slot` to a slot (a bundle); each slot-full takes
/// `slots` slots. A weapon has its damage dice and damage type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub name: String,
    pub slots: u32,
    #[serde(default = "one")]
    pub count: u32,
    #[serde(default = "one")]
    pub per_slot: u32,
    /// Wanted in a quick slot.
    #[serde(default)]
    pub quick: bool,
    /// Damage dice (`1d8`), empty when it is not a weapon.
    #[serde(default)]
    pub damage: String,
    #[serde(default)]
    pub dtype: String,
}

fn one() -> u32 {
    1
}

impl Item {
    /// Slots this entry takes: a slot-full per `per_slot` of them.
    pub fn slots_used(&self) -> u32 {
        self.slots
            .saturating_mul(self.count.div_ceil(self.per_slot.max(1)))
    }

    pub fn weapon_dice(&self) -> Option<Dice> {
        parse_dice(&self.damage)
    }
}

/// Where each item sits: filled into the quick slots in list order; an item that does not fit
/// whole in the quick slots left spans a quick and a normal slot and counts as normal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Quick,
    Spans,
    Bag,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VogtSheet {
    /// Rungs of STR, DEX, AWR, WIL (0 … 16).
    pub abilities: [i32; 4],
    pub skills: Vec<Skill>,
    pub hp: i32,
    pub hp_max: i32,
    pub ar: i32,
    pub movement: i32,
    /// The technique dice: `technique_dice` of them, each a d`technique_die`.
    pub technique_die: u32,
    pub technique_dice: i32,
    pub technique_spent: i32,
    pub exhaustion: u32,
    pub statuses: Vec<String>,
    pub resistances: Vec<String>,
    pub vulnerabilities: Vec<String>,
    pub items: Vec<Item>,
    pub bag: bool,
    pub hands: u32,
    /// Lines of the death and dismemberment table suffered.
    #[serde(default)]
    pub injuries: Vec<String>,
    #[serde(default)]
    pub dead: bool,
    /// The levels of exhaustion from 4 on already rolled for on the death and dismemberment
    /// table (here or in a fight: shared); never more than the levels there are.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub table_rolls: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Default for VogtSheet {
    fn default() -> Self {
        VogtSheet {
            abilities: [2, 2, 2, 2],
            skills: Vec::new(),
            hp: 10,
            hp_max: 10,
            ar: 0,
            movement: 6,
            technique_die: 6,
            technique_dice: 2,
            technique_spent: 0,
            exhaustion: 0,
            statuses: Vec::new(),
            resistances: Vec::new(),
            vulnerabilities: Vec::new(),
            items: vec![Item {
                name: "Club".into(),
                slots: 1,
                count: 1,
                per_slot: 1,
                quick: true,
                damage: "1d6".into(),
                dtype: "blunt".into(),
            }],
            bag: true,
            hands: 2,
            injuries: Vec::new(),
            dead: false,
            table_rolls: 0,
        }
    }
}

/// Bounds shared by the editor and the importer: what one allows, the other accepts.
pub const HP_LIMIT: i32 = 10_000;
pub const STAT_LIMIT: i32 = 1_000;
pub const TECH_LIMIT: i32 = 20;
pub const EXHAUSTION_LIMIT: u32 = 20;
pub const TECH_DIES: [u32; 5] = [4, 6, 8, 10, 12];
const LIST_LIMIT: usize = 200;
/// The longest list the importer takes: ten times what an edit lets a list reach, because the
/// app before issue 27 let every tap add one more (a status chip, a dismemberment roll), and a
/// sheet stored that way must stay the player's to export.
const IMPORT_LIST_LIMIT: usize = 10 * LIST_LIMIT;
const NAME_LIMIT: usize = 200;

impl VogtSheet {
    pub fn has(&self, status: &str) -> bool {
        self.statuses.iter().any(|s| s.eq_ignore_ascii_case(status))
    }

    /// Rungs lost to statuses by an ability.
    pub fn lost(&self, a: Ability) -> i32 {
        STATUSES
            .iter()
            .filter(|d| self.has(d.name))
            .map(|d| d.rungs[a.index()])
            .sum()
    }

    /// The ability's rung after statuses (never below 0).
    pub fn rung(&self, a: Ability) -> i32 {
        (self.abilities[a.index()] - self.lost(a)).clamp(0, TOP)
    }

    pub fn die(&self, a: Ability) -> Dice {
        Dice::of_rung(self.rung(a))
    }

    /// Hands left: one fewer for each arm lost on the death and dismemberment table.
    pub fn hands_now(&self) -> u32 {
        let lost = self
            .injuries
            .iter()
            .filter(|i| *i == DISMEMBERMENT[1])
            .count();
        self.hands.saturating_sub(lost as u32)
    }

    /// 10 + the STR die's median (rounded down), at least one per hand.
    pub fn inventory_slots(&self) -> u32 {
        (10 + self.die(Ability::Str).median_floor() as u32).max(self.hands_now())
    }

    /// 4 + DEX, at least one per hand, at most the inventory slots.
    pub fn quick_slots(&self) -> u32 {
        let want = (4 + self.rung(Ability::Dex)).max(0) as u32;
        want.max(self.hands_now()).min(self.inventory_slots())
    }

    /// Slots carried.
    pub fn carried(&self) -> u32 {
        self.items.iter().map(Item::slots_used).sum()
    }

    /// Slots carried beyond the inventory slots (bag or not): the saving throw against
    /// exhaustion every 15 minutes is made at minus this.
    pub fn over(&self) -> u32 {
        self.carried().saturating_sub(self.inventory_slots())
    }

    /// Without a bag, the items held beyond one per hand (they cannot be carried at all; a bag
    /// holds them). 0 with a bag.
    pub fn unheld(&self) -> u32 {
        if self.bag {
            return 0;
        }
        let items: u32 = self.items.iter().map(|i| i.count).sum();
        items.saturating_sub(self.hands_now())
    }

    /// Where each item sits (see [`Place`]), in list order.
    pub fn places(&self) -> Vec<Place> {
        let mut left = self.quick_slots();
        self.items
            .iter()
            .map(|it| {
                if !it.quick {
                    return Place::Bag;
                }
                let need = it.slots_used();
                if need <= left {
                    left -= need;
                    Place::Quick
                } else if left > 0 {
                    left = 0;
                    Place::Spans
                } else {
                    Place::Bag
                }
            })
            .collect()
    }

    pub fn quick_used(&self) -> u32 {
        self.items
            .iter()
            .zip(self.places())
            .filter(|(_, p)| *p == Place::Quick)
            .map(|(i, _)| i.slots_used())
            .sum()
    }

    pub fn unconscious(&self) -> bool {
        self.exhaustion >= 3 || self.has("Unconscious")
    }

    /// Movement after injuries, exhaustion and statuses, with the reasons.
    pub fn speed(&self) -> (i32, Vec<&'static str>) {
        let mut v = self.movement;
        let mut why = Vec::new();
        if self.exhaustion >= 1 {
            v /= 2;
            why.push("exhaustion 1: halved");
        }
        if self.has("Prone") {
            v /= 2;
            why.push("prone: halved");
        }
        if self.injuries.iter().any(|i| i == DISMEMBERMENT[3]) {
            v = v.min(1);
            why.push("lost a leg: at most 1");
        }
        if self.has("Immobile") {
            v = 0;
            why.push("immobile: 0");
        }
        if self.unconscious() {
            v = 0;
            why.push("unconscious: 0");
        }
        (v, why)
    }

    /// HP maximum after exhaustion (level 2 halves it, rounded down).
    pub fn hp_max_now(&self) -> i32 {
        if self.exhaustion >= 2 {
            self.hp_max.div_euclid(2)
        } else {
            self.hp_max
        }
    }

    /// Current HP as typed, never above the maximum now (exhaustion 2 halves it); below 0 it
    /// goes as damage takes it.
    pub fn set_hp(&mut self, v: i32) {
        self.hp = v.clamp(-HP_LIMIT, self.hp_max_now());
    }

    /// The HP maximum; current HP follows it down.
    pub fn set_hp_max(&mut self, v: i32) {
        self.hp_max = v.clamp(0, HP_LIMIT);
        self.hp = self.hp.min(self.hp_max_now());
    }

    /// The exhaustion level; from level 2 the halved maximum caps current HP at once (HP lost
    /// that way does not come back when the level falls again).
    pub fn set_exhaustion(&mut self, v: u32) {
        self.exhaustion = v.min(EXHAUSTION_LIMIT);
        self.hp = self.hp.min(self.hp_max_now());
        // A level taken back takes its roll with it: reached again, it is rolled again.
        self.table_rolls = self.table_rolls.min(self.table_levels());
    }

    /// The levels of exhaustion that each ask for a roll on the table (4 and on).
    pub fn table_levels(&self) -> u32 {
        self.exhaustion.saturating_sub(3)
    }

    /// The rolls on the death and dismemberment table still due: one for each level from 4 on
    /// not yet rolled for (on the sheet or in a fight).
    pub fn table_due(&self) -> u32 {
        if self.dead {
            0
        } else {
            self.table_levels().saturating_sub(self.table_rolls)
        }
    }

    /// The table rolls counted (as a fight writes them back), never more than the levels.
    pub fn set_table_rolls(&mut self, v: i32) {
        self.table_rolls = (v.max(0) as u32).min(self.table_levels());
    }

    /// AR after statuses and a broken armour (prone or broken: 0).
    pub fn ar_now(&self) -> i32 {
        if self.has("Prone") || is_broken(self.injuries.iter().map(String::as_str), ARMOR) {
            0
        } else {
            self.ar
        }
    }

    /// Damage types resisted, statuses included, without those also vulnerable (they cancel).
    pub fn resists(&self, dtype: &str) -> bool {
        self.resist_raw(dtype) && !self.vulnerable_raw(dtype)
    }

    pub fn vulnerable(&self, dtype: &str) -> bool {
        self.vulnerable_raw(dtype) && !self.resist_raw(dtype)
    }

    fn resist_raw(&self, t: &str) -> bool {
        let t = t.trim();
        !t.is_empty()
            && (self.resistances.iter().any(|r| r.eq_ignore_ascii_case(t))
                || (self.has("Drenched") && t.eq_ignore_ascii_case("fire")))
    }

    fn vulnerable_raw(&self, t: &str) -> bool {
        let t = t.trim();
        !t.is_empty()
            && (self
                .vulnerabilities
                .iter()
                .any(|r| r.eq_ignore_ascii_case(t))
                || (self.has("Drenched") && t.eq_ignore_ascii_case("lightning"))
                || (self.has("Nauseated")
                    && ["blunt", "slash", "stab"]
                        .iter()
                        .any(|x| x.eq_ignore_ascii_case(t))))
    }

    /// The weapons it can use: items with damage dice, none of them broken.
    pub fn weapons(&self) -> impl Iterator<Item = (usize, &Item)> {
        self.items.iter().enumerate().filter(|(_, i)| {
            i.weapon_dice().is_some()
                && !is_broken(self.injuries.iter().map(String::as_str), &i.name)
        })
    }

    pub fn technique_left(&self) -> i32 {
        (self.technique_dice - self.technique_spent).max(0)
    }

    /// Takes damage (HP may go below 0); damage that leaves 0 or less adds a level of
    /// exhaustion and prone, every time. Returns whether a level was added.
    pub fn take(&mut self, amount: i32) -> bool {
        if amount <= 0 {
            return false;
        }
        self.hp = (self.hp - amount.min(HP_LIMIT)).max(-HP_LIMIT);
        if self.hp <= 0 {
            self.exhaustion = (self.exhaustion + 1).min(EXHAUSTION_LIMIT);
            if !self.has("Prone") {
                self.statuses.push("Prone".into());
            }
            return true;
        }
        false
    }

    /// A siesta: half the HP maximum back (rounded down), never above the maximum now.
    pub fn siesta(&mut self) {
        self.hp = (self.hp + self.hp_max_now() / 2).min(self.hp_max_now());
    }

    /// A full rest: every HP and every technique die back.
    pub fn full_rest(&mut self) {
        self.hp = self.hp_max_now();
        self.technique_spent = 0;
    }

    /// Values an import must respect; the editor keeps to the same bounds.
    pub fn validate(&self) -> Result<(), String> {
        let name = |n: &str, what: &str| {
            if n.chars().count() > NAME_LIMIT {
                Err(format!("{what} is longer than {NAME_LIMIT} characters"))
            } else {
                Ok(())
            }
        };
        for (a, &r) in Ability::ALL.iter().zip(&self.abilities) {
            if !(0..=TOP).contains(&r) {
                return Err(format!("{} must be a rung from 0 to {TOP}", a.short()));
            }
        }
        if !(0..=HP_LIMIT).contains(&self.hp_max) || !(-HP_LIMIT..=HP_LIMIT).contains(&self.hp) {
            return Err(format!("HP must be within ±{HP_LIMIT}"));
        }
        for (v, what) in [(self.ar, "AR"), (self.movement, "movement")] {
            if !(0..=STAT_LIMIT).contains(&v) {
                return Err(format!("{what} must be from 0 to {STAT_LIMIT}"));
            }
        }
        if !TECH_DIES.contains(&self.technique_die)
            || !(0..=TECH_LIMIT).contains(&self.technique_dice)
            || !(0..=TECH_LIMIT).contains(&self.technique_spent)
        {
            return Err("technique dice must be up to 20 of d4, d6, d8, d10 or d12".into());
        }
        if self.exhaustion > EXHAUSTION_LIMIT || self.table_rolls > EXHAUSTION_LIMIT {
            return Err(format!("exhaustion must be at most {EXHAUSTION_LIMIT}"));
        }
        if self.hands > 10 {
            return Err("at most 10 hands".into());
        }
        let lists = [
            &self.statuses,
            &self.resistances,
            &self.vulnerabilities,
            &self.injuries,
        ];
        if lists.iter().any(|l| l.len() > IMPORT_LIST_LIMIT)
            || self.items.len() > IMPORT_LIST_LIMIT
            || self.skills.len() > IMPORT_LIST_LIMIT
        {
            return Err(format!("a list is longer than {IMPORT_LIST_LIMIT} entries"));
        }
        for l in lists {
            for s in l.iter() {
                name(s, "a status or damage type")?;
            }
        }
        for s in &self.skills {
            name(&s.name, "a skill's name")?;
            if !(-STAT_LIMIT..=STAT_LIMIT).contains(&s.bonus) {
                return Err(format!("the bonus of {} is out of range", s.name));
            }
        }
        for i in &self.items {
            name(&i.name, "an item's name")?;
            name(&i.dtype, "a damage type")?;
            if i.slots > 100 || i.count > 10_000 || i.per_slot == 0 || i.per_slot > 10_000 {
                return Err(format!("the slots or count of {} are out of range", i.name));
            }
            if !i.damage.trim().is_empty() && i.weapon_dice().is_none() {
                return Err(format!("the damage of {} is not dice like 1d8", i.name));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet() -> VogtSheet {
        VogtSheet::default()
    }

    #[test]
    fn slots_follow_the_str_median_and_hands() {
        let mut s = sheet();
        for (rung, slots) in [(0, 10), (1, 12), (2, 13), (6, 17), (10, 23), (16, 42)] {
            s.abilities[0] = rung;
            assert_eq!(s.inventory_slots(), slots, "rung {rung}");
        }
        s.abilities[0] = 0;
        s.hands = 10;
        assert_eq!(s.inventory_slots(), 10);
    }

    #[test]
    fn quick_slots_are_4_plus_dex_between_hands_and_slots() {
        let mut s = sheet();
        s.abilities = [0, 3, 0, 0];
        assert_eq!(s.quick_slots(), 7);
        s.abilities[1] = 16; // 20 wanted, 10 slots
        assert_eq!(s.quick_slots(), 10);
        s.abilities[1] = 0;
        s.hands = 6; // 4 wanted, 6 hands
        assert_eq!(s.quick_slots(), 6);
        s.statuses.push("Frozen".into()); // DEX one rung down
        s.abilities[1] = 3;
        s.hands = 2;
        assert_eq!(s.quick_slots(), 6);
    }

    #[test]
    fn quick_placement_and_an_item_spanning_counts_as_normal() {
        let mut s = sheet();
        s.abilities = [0, 0, 0, 0]; // 4 quick slots, 10 slots
        let item = |slots, quick| Item {
            name: "x".into(),
            slots,
            count: 1,
            per_slot: 1,
            quick,
            damage: String::new(),
            dtype: String::new(),
        };
        s.items = vec![item(2, true), item(1, false), item(3, true), item(1, true)];
        assert_eq!(
            s.places(),
            vec![Place::Quick, Place::Bag, Place::Spans, Place::Bag]
        );
        assert_eq!(s.quick_used(), 2);
        assert_eq!(s.carried(), 7);
        assert_eq!(s.over(), 0);
    }

    #[test]
    fn bundles_and_encumbrance() {
        let mut s = sheet();
        s.abilities[0] = 0; // 10 slots
        s.items = vec![Item {
            name: "Arrows".into(),
            slots: 1,
            count: 41,
            per_slot: 20,
            quick: false,
            damage: String::new(),
            dtype: String::new(),
        }];
        assert_eq!(s.items[0].slots_used(), 3);
        s.items[0].slots = 4; // 12 slots in all
        assert_eq!(s.over(), 2);
        // Corrected (review #6): without a bag the slots still count as slots (12 of 10: the
        // save at −2), and the hands hold one item each: 41 arrows, 39 more than two hands.
        s.bag = false;
        assert_eq!((s.carried(), s.over(), s.unheld()), (12, 2, 39));
    }

    fn item(name: &str, slots: u32) -> Item {
        Item {
            name: name.into(),
            slots,
            count: 1,
            per_slot: 1,
            quick: false,
            damage: String::new(),
            dtype: String::new(),
        }
    }

    /// #6: without a bag the character holds one item per hand, and the inventory slots decide
    /// the saving throw as they do with one.
    #[test]
    fn vogt_r6_without_a_bag_hands_hold_items_and_slots_still_count() {
        let mut s = sheet();
        s.abilities[0] = 0; // STR 0: 10 slots
        s.bag = false;
        s.hands = 2;
        // (a) three 1-slot items: only two can be held, and no save (3 of 10 slots).
        s.items = vec![item("Rope", 1), item("Torch", 1), item("Knife", 1)];
        assert_eq!((s.inventory_slots(), s.unheld(), s.over()), (10, 1, 0));
        // (b) two 6-slot items: both in hand, but 12 of 10 slots: the save at −2.
        s.items = vec![item("Chest", 6), item("Anvil", 6)];
        assert_eq!((s.unheld(), s.over()), (0, 2));
        // With a bag nothing is over the hands.
        s.bag = true;
        s.items = vec![item("Rope", 1), item("Torch", 1), item("Knife", 1)];
        assert_eq!((s.unheld(), s.over()), (0, 0));
    }

    /// #7: a lost arm takes a hand away (and with it the slots a hand guarantees); a second arm
    /// lost is a second line and a second hand.
    #[test]
    fn vogt_r7_a_lost_arm_lowers_the_hands() {
        use crate::rules::edit::Edits;
        let mut s = sheet();
        s.bag = false;
        s.hands = 2;
        s.items = vec![item("Sword", 1), item("Shield", 1)];
        s.apply(crate::rules::vogt::Edit::Dismember(2)).unwrap();
        assert_eq!((s.hands_now(), s.unheld()), (1, 1));
        s.apply(crate::rules::vogt::Edit::Dismember(2)).unwrap();
        assert_eq!(s.injuries, vec![DISMEMBERMENT[1], DISMEMBERMENT[1]]);
        assert_eq!((s.hands_now(), s.unheld()), (0, 2));
        // Hands as entered stay (a prosthesis, an undo): removing the line gives the hand back.
        s.injuries.pop();
        assert_eq!((s.hands, s.hands_now()), (2, 1));
        // Many hands: the slots' floor follows the hands left.
        s.hands = 10;
        s.abilities[0] = 0;
        assert_eq!(s.inventory_slots(), 10);
        s.injuries = vec![DISMEMBERMENT[1].into(); 3];
        assert_eq!((s.hands_now(), s.quick_slots()), (7, 7));
    }

    /// #5: HP goes below 0 as damage takes it; a siesta from −5 at maximum 10 comes back to 0.
    #[test]
    fn vogt_r5_hp_goes_below_zero() {
        let mut s = sheet();
        s.hp = 3;
        s.take(8);
        assert_eq!(s.hp, -5);
        s.siesta();
        assert_eq!(s.hp, 0);
        s.set_hp(-3);
        assert_eq!(s.hp, -3);
        s.set_hp(-HP_LIMIT - 5);
        assert_eq!(s.hp, -HP_LIMIT);
        assert!(s.validate().is_ok());
    }

    /// #8: damage taken on the sheet alone (a trap, no fight) follows the rule: left at 0 or
    /// less, a level of exhaustion and prone, and again for every further hit.
    #[test]
    fn vogt_r8_damage_on_the_sheet_adds_exhaustion_and_prone() {
        use crate::rules::edit::Edits;
        use crate::rules::vogt::Edit;
        let mut s = sheet();
        s.hp = 3;
        s.apply(Edit::Damage(5)).unwrap();
        assert_eq!((s.hp, s.exhaustion, s.has("Prone")), (-2, 1, true));
        s.apply(Edit::Damage(2)).unwrap();
        assert_eq!((s.hp, s.exhaustion), (-4, 2));
        // A typed HP is a correction: no rule follows.
        s.apply(Edit::Hp(-6)).unwrap();
        assert_eq!((s.hp, s.exhaustion), (-6, 2));
        // No damage, no level.
        s.apply(Edit::Damage(0)).unwrap();
        assert_eq!(s.exhaustion, 2);
    }

    /// O1 on the sheet: what broke is named; a broken weapon leaves the weapon list, a broken
    /// armour makes AR 0; replacing it (removing the line) undoes both.
    #[test]
    fn vogt_o1_a_broken_weapon_or_armor_on_the_sheet() {
        use crate::rules::edit::Edits;
        use crate::rules::vogt::Edit;
        let mut s = sheet();
        s.ar = 2;
        assert!(s.apply(Edit::Break(Some(0))).is_err(), "nothing broke yet");
        s.apply(Edit::Dismember(1)).unwrap();
        s.apply(Edit::Break(Some(0))).unwrap();
        assert_eq!(s.injuries, vec!["Broken: Club"]);
        assert_eq!(s.weapons().count(), 0);
        s.apply(Edit::Dismember(1)).unwrap();
        s.apply(Edit::Break(None)).unwrap();
        assert_eq!(s.ar_now(), 0);
        s.injuries.clear();
        assert_eq!((s.ar_now(), s.weapons().count()), (2, 1));
    }

    #[test]
    fn statuses_lower_rungs_and_change_numbers() {
        let mut s = sheet();
        s.abilities = [3, 3, 1, 2];
        s.statuses = vec![
            "Blind".into(),
            "Deaf".into(),
            "Scorched".into(),
            "deaf".into(),
        ];
        assert_eq!(s.rung(Ability::Awr), 0); // 1 − 3, never below 0
        assert_eq!(s.rung(Ability::Wil), 1);
        assert_eq!(s.die(Ability::Awr), Dice::NONE);
        s.statuses = vec!["Prone".into()];
        s.ar = 3;
        s.movement = 6;
        assert_eq!((s.ar_now(), s.speed().0), (0, 3));
        s.exhaustion = 1;
        assert_eq!(s.speed().0, 1);
        s.statuses = vec!["Immobile".into()];
        assert_eq!(s.speed().0, 0);
        s.statuses.clear();
        s.exhaustion = 2;
        s.hp_max = 11;
        assert_eq!((s.speed().0, s.hp_max_now()), (3, 5));
        s.exhaustion = 3;
        assert!(s.unconscious());
        assert_eq!(s.speed().0, 0);
        s.exhaustion = 0;
        s.injuries.push(DISMEMBERMENT[3].into());
        assert_eq!(s.speed().0, 1);
    }

    #[test]
    fn resistance_and_vulnerability_cancel_and_come_from_statuses() {
        let mut s = sheet();
        s.statuses = vec!["Drenched".into()];
        assert!(s.resists("fire") && !s.vulnerable("fire"));
        assert!(s.vulnerable("Lightning"));
        s.vulnerabilities.push("fire".into());
        assert!(!s.resists("fire") && !s.vulnerable("fire"));
        s.statuses = vec!["Nauseated".into()];
        s.vulnerabilities.clear();
        assert!(s.vulnerable("slash") && !s.vulnerable("fire"));
        assert!(!s.resists("") && !s.vulnerable(""));
    }

    #[test]
    fn current_hp_follows_the_halved_maximum() {
        let mut s = sheet();
        s.hp_max = 10;
        s.hp = 10;
        s.set_exhaustion(2);
        assert_eq!((s.hp, s.hp_max_now()), (5, 5));
        s.set_exhaustion(1);
        assert_eq!((s.hp, s.hp_max_now()), (5, 10));
        s.set_hp(12);
        assert_eq!(s.hp, 10);
        s.set_hp(-3);
        assert_eq!(s.hp, -3, "below 0 as typed (review #5)");
        s.set_hp(9);
        s.set_hp_max(7);
        assert_eq!((s.hp_max, s.hp), (7, 7));
        s.set_exhaustion(99);
        assert_eq!((s.exhaustion, s.hp), (EXHAUSTION_LIMIT, 3));
        assert!(s.validate().is_ok());
    }

    #[test]
    fn damage_to_zero_adds_exhaustion_and_prone_every_time() {
        let mut s = sheet();
        s.hp = 3;
        assert!(!s.take(2));
        assert!(s.take(5));
        assert_eq!((s.hp, s.exhaustion), (-4, 1));
        assert!(s.has("Prone"));
        assert!(s.take(1));
        assert_eq!(s.exhaustion, 2);
        assert_eq!(s.statuses.iter().filter(|x| *x == "Prone").count(), 1);
        assert!(!s.take(0));
        s.siesta(); // HP max halved by exhaustion 2: 10 → 5, half of it back
        assert_eq!(s.hp, -3);
        s.technique_spent = 2;
        s.full_rest();
        assert_eq!((s.hp, s.technique_spent), (5, 0));
    }

    #[test]
    fn validation_bounds() {
        assert!(sheet().validate().is_ok());
        let mut s = sheet();
        s.abilities[2] = 17;
        assert!(s.validate().unwrap_err().contains("AWR"));
        let mut s = sheet();
        s.items[0].damage = "club".into();
        assert!(s.validate().unwrap_err().contains("Club"));
        let mut s = sheet();
        s.technique_die = 7;
        assert!(s.validate().is_err());
        let mut s = sheet();
        s.items[0].per_slot = 0;
        assert!(s.validate().is_err());
        assert_eq!(dismemberment(8), "Dead");
        assert_eq!(dismemberment(4), DISMEMBERMENT[3]);
    }
}
