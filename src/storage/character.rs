//! The stored character: one envelope for every system, the sheet a closed enum tagged by
//! `system`, so adding a system is a change the compiler checks everywhere.

use super::versioned::Versioned;
use crate::rules::aura::AuraSheet;
use crate::rules::heimr::HeimrSheet;
use crate::rules::symbaroum::SymbaroumSheet;
use crate::rules::tempo::TempoSheet;
use crate::rules::vogt::VogtSheet;
use serde::{Deserialize, Serialize};

/// `{ schema_version, id, system, name, notes, created, updated, sheet }` (SPEC.md §2).
///
/// Read through [`RawCharacter`] rather than `#[serde(flatten)]`: flatten buffers every field
/// through serde's generic content tree, which costs the phone a lot of code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawCharacter")]
pub struct Character {
    pub schema_version: u64,
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub notes: String,
    /// Milliseconds since the Unix epoch.
    pub created: u64,
    pub updated: u64,
    #[serde(flatten)]
    pub sheet: Sheet,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "system", content = "sheet", rename_all = "lowercase")]
pub enum Sheet {
    Heimr(HeimrSheet),
    Symbaroum(SymbaroumSheet),
    Vogt(VogtSheet),
    Aura(AuraSheet),
    Tempo(TempoSheet),
}

/// The stored shape with the sheet still unparsed, so `system` can choose its type.
#[derive(Deserialize)]
struct RawCharacter {
    schema_version: u64,
    id: String,
    name: String,
    #[serde(default)]
    notes: String,
    created: u64,
    updated: u64,
    system: String,
    sheet: Box<serde_json::value::RawValue>,
}

impl TryFrom<RawCharacter> for Character {
    type Error = String;
    fn try_from(raw: RawCharacter) -> Result<Self, String> {
        let sheet_text = raw.sheet.get();
        let sheet = match raw.system.as_str() {
            "heimr" => {
                Sheet::Heimr(serde_json::from_str(sheet_text).map_err(|e| format!("sheet: {e}"))?)
            }
            "symbaroum" => Sheet::Symbaroum(
                serde_json::from_str(sheet_text).map_err(|e| format!("sheet: {e}"))?,
            ),
            "vogt" => {
                Sheet::Vogt(serde_json::from_str(sheet_text).map_err(|e| format!("sheet: {e}"))?)
            }
            "aura" => {
                Sheet::Aura(serde_json::from_str(sheet_text).map_err(|e| format!("sheet: {e}"))?)
            }
            "tempo" => {
                Sheet::Tempo(serde_json::from_str(sheet_text).map_err(|e| format!("sheet: {e}"))?)
            }
            other => return Err(format!("unknown system “{other}”")),
        };
        Ok(Character {
            schema_version: raw.schema_version,
            id: raw.id,
            name: raw.name,
            notes: raw.notes,
            created: raw.created,
            updated: raw.updated,
            sheet,
        })
    }
}

/// Every rule system, available or coming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub available: bool,
}

pub const SYSTEMS: [SystemInfo; 5] = [
    SystemInfo {
        id: "heimr",
        name: "Heimr",
        available: true,
    },
    SystemInfo {
        id: "symbaroum",
        name: "Symbaroum-style d20",
        available: true,
    },
    SystemInfo {
        id: "vogt",
        name: "Bo Vogt's die-size system",
        available: true,
    },
    SystemInfo {
        id: "aura",
        name: "Energy / Aura",
        available: true,
    },
    SystemInfo {
        id: "tempo",
        name: "Tempo combat",
        available: true,
    },
];

impl Sheet {
    pub fn new(system: &str) -> Option<Sheet> {
        match system {
            "heimr" => Some(Sheet::Heimr(HeimrSheet::default())),
            "symbaroum" => Some(Sheet::Symbaroum(SymbaroumSheet::default())),
            "vogt" => Some(Sheet::Vogt(VogtSheet::default())),
            "aura" => Some(Sheet::Aura(AuraSheet::default())),
            "tempo" => Some(Sheet::Tempo(TempoSheet::default())),
            _ => None,
        }
    }

    pub fn system(&self) -> SystemInfo {
        match self {
            Sheet::Heimr(_) => SYSTEMS[0],
            Sheet::Symbaroum(_) => SYSTEMS[1],
            Sheet::Vogt(_) => SYSTEMS[2],
            Sheet::Aura(_) => SYSTEMS[3],
            Sheet::Tempo(_) => SYSTEMS[4],
        }
    }

    /// One figure for the roster.
    pub fn key_figure(&self) -> String {
        match self {
            Sheet::Heimr(s) => format!("{} XP · HP {}/{}", s.xp, s.hp, s.hp_max),
            Sheet::Symbaroum(s) => format!(
                "Toughness {}/{} · {} XP left",
                s.toughness,
                s.toughness_max(),
                s.experience_left()
            ),
            Sheet::Vogt(s) => format!(
                "HP {}/{} · exhaustion {}",
                s.hp,
                s.hp_max_now(),
                s.exhaustion
            ),
            Sheet::Aura(s) => format!(
                "Aura {}/{} · stamina {}/{}",
                s.aura,
                s.aura_strength().0,
                s.stamina,
                s.max_stamina().0
            ),
            Sheet::Tempo(s) => format!(
                "Defence {}/{} · health {}/{}",
                s.defence, s.armoured, s.health, s.health_max
            ),
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        match self {
            Sheet::Heimr(s) => s.validate(),
            Sheet::Symbaroum(s) => s.validate(),
            Sheet::Vogt(s) => s.validate(),
            Sheet::Aura(s) => s.validate(),
            Sheet::Tempo(s) => s.validate(),
        }
    }
}

impl Versioned for Character {
    /// Characters live one per key: `KEY` + id (see `roster.rs`).
    const KEY: &'static str = "rollsheet.char.";
    const CURRENT: u64 = 1;
    fn migrate(from: u64, _doc: &str) -> Result<String, String> {
        Err(format!("no migration from character format {from}"))
    }

    fn id_mut(&mut self) -> Option<&mut String> {
        Some(&mut self.id)
    }

    /// Names made too long by an earlier version's " (copy)" and " (imported)", and sheets its
    /// edits left outside their ranges (see each system's `Edits::repair`).
    fn repair(&mut self) {
        if self.name.chars().count() > NAME_LIMIT {
            self.name = self.name.chars().take(NAME_LIMIT).collect();
        }
        use crate::rules::edit::Edits;
        match &mut self.sheet {
            Sheet::Heimr(s) => s.repair(),
            Sheet::Symbaroum(s) => s.repair(),
            Sheet::Vogt(s) => s.repair(),
            Sheet::Aura(s) => s.repair(),
            Sheet::Tempo(s) => s.repair(),
        }
    }
}

impl Character {
    pub fn new(id: String, name: String, sheet: Sheet, now: u64) -> Self {
        Character {
            schema_version: Self::CURRENT,
            id,
            name,
            notes: String::new(),
            created: now,
            updated: now,
            sheet,
        }
    }

    pub fn key(&self) -> String {
        key_of(&self.id)
    }

    /// Values an import must respect.
    pub fn validate(&self) -> Result<(), String> {
        if self.id.trim().is_empty() || self.id.len() > 64 {
            return Err("the character's id is missing or too long".into());
        }
        if self.name.chars().count() > NAME_LIMIT {
            return Err(format!("the name is longer than {NAME_LIMIT} characters"));
        }
        self.sheet.validate()
    }
}

/// The longest name a character keeps, in characters (the name field's `maxlength`).
pub const NAME_LIMIT: usize = 200;
/// The longest notes a character keeps (the notes field's `maxlength`).
pub const NOTES_LIMIT: usize = 20_000;
/// [`NOTES_LIMIT`] as the notes field's `maxlength` text.
pub const NOTES_MAX: &str = "20000";

impl Character {
    /// Renames as the name field does: trimmed and cut to [`NAME_LIMIT`]; an empty name
    /// changes nothing (false).
    pub fn rename(&mut self, name: &str) -> bool {
        let name = crate::rules::edit::entry(name, NAME_LIMIT);
        if name.is_empty() {
            return false;
        }
        self.name = name;
        true
    }

    pub fn set_notes(&mut self, notes: &str) {
        self.notes = notes.chars().take(NOTES_LIMIT).collect();
    }

    /// This character as a combatant of its system's fight, linked by id: the one way a saved
    /// character joins (the fight page, the host tests, the live table).
    pub fn combatant(&self) -> crate::rules::encounter::Combatant {
        use crate::rules::{aura, heimr, symbaroum, tempo, vogt};
        let mut c = match &self.sheet {
            Sheet::Heimr(s) => heimr::combat::combatant(&self.name, s, None),
            Sheet::Symbaroum(s) => symbaroum::combat::combatant(&self.name, s, !s.npc, None),
            Sheet::Vogt(s) => vogt::combat::from_sheet(&self.name, s),
            Sheet::Aura(s) => aura::combat::from_sheet(&self.name, s),
            Sheet::Tempo(s) => tempo::combat::from_sheet(&self.name, s),
        };
        c.link = Some(self.id.clone());
        c
    }

    /// The name with a suffix such as " (copy)", the name cut so both fit [`NAME_LIMIT`].
    pub fn suffixed(&self, suffix: &str) -> String {
        crate::rules::edit::suffixed(&self.name, suffix, NAME_LIMIT)
    }
}

pub fn key_of(id: &str) -> String {
    format!("{}{id}", Character::KEY)
}

/// A new random id: 16 hex digits from the given dice.
pub fn new_id<S: crate::rules::dice::DiceSource + ?Sized>(src: &mut S) -> String {
    format!("{:08x}{:08x}", src.next_u32(), src.next_u32())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_fields_maxlength_is_the_limit() {
        assert_eq!(NOTES_MAX, NOTES_LIMIT.to_string());
    }

    #[test]
    fn names_keep_to_the_limit_when_renamed_copied_or_imported() {
        let mut c = Character::new("a".into(), "x".into(), Sheet::new("heimr").unwrap(), 0);
        assert!(!c.rename("   "), "an empty name changes nothing");
        assert_eq!(c.name, "x");
        assert!(c.rename(&format!("  {}  ", "é".repeat(250))));
        assert_eq!(c.name.chars().count(), NAME_LIMIT);
        let copy = c.suffixed(" (copy)");
        assert_eq!(copy.chars().count(), NAME_LIMIT);
        assert!(copy.ends_with(" (copy)"));
        c.name = copy;
        c.validate().unwrap();
        c.set_notes(&"n".repeat(NOTES_LIMIT + 9));
        assert_eq!(c.notes.len(), NOTES_LIMIT);
    }
    use crate::storage::versioned::decode;

    #[test]
    fn envelope_shape_is_flat_with_system_beside_sheet() {
        let c = Character::new(
            "abc".into(),
            "Astrid".into(),
            Sheet::new("heimr").unwrap(),
            5,
        );
        let v: serde_json::Value = serde_json::to_value(&c).unwrap();
        for field in [
            "schema_version",
            "id",
            "system",
            "name",
            "notes",
            "created",
            "updated",
            "sheet",
        ] {
            assert!(v.get(field).is_some(), "{field} missing");
        }
        assert_eq!(v["system"], "heimr");
        assert_eq!(decode::<Character>(&v.to_string()), Ok(c));
    }

    #[test]
    fn symbaroum_v1_fixture_loads() {
        let c: Character = decode(include_str!(
            "../../tests/fixtures/character-symbaroum-v1.json"
        ))
        .unwrap();
        let Sheet::Symbaroum(s) = &c.sheet else {
            panic!("not symbaroum")
        };
        assert_eq!(
            (
                s.toughness_max(),
                s.pain_threshold(),
                s.defense(),
                s.corruption_threshold()
            ),
            (13, 7, 11, 6)
        );
        assert_eq!(s.experience_left(), 20);
        assert!(c.validate().is_ok());
    }

    #[test]
    fn vogt_v1_fixture_loads() {
        let c: Character =
            decode(include_str!("../../tests/fixtures/character-vogt-v1.json")).unwrap();
        let Sheet::Vogt(s) = &c.sheet else {
            panic!("not vogt")
        };
        // STR 2d6 (median 7): 17 slots; DEX 1d8 (rung 3): 7 quick slots; a bag.
        assert_eq!((s.inventory_slots(), s.quick_slots()), (17, 7));
        assert_eq!((s.carried(), s.over()), (5, 0));
        assert_eq!(s.speed().0, 3); // exhaustion 1 halves 6
        assert!(c.validate().is_ok());
    }

    #[test]
    fn tempo_v1_fixture_loads() {
        let c: Character =
            decode(include_str!("../../tests/fixtures/character-tempo-v1.json")).unwrap();
        let Sheet::Tempo(s) = &c.sheet else {
            panic!("not tempo")
        };
        assert_eq!((s.defence, s.armoured, s.grapple, s.movement), (6, 9, 5, 4));
        assert_eq!(s.dice, "1d10");
        assert_eq!(s.bonus("Parry"), 2);
        assert_eq!(s.bonus("Evade"), 0);
        let sword = s.weapon(crate::rules::tempo::Arm::Melee).unwrap();
        assert_eq!((sword.cost("Melee Attack"), sword.cost("Feint")), (4, 3));
        let bow = s.weapon(crate::rules::tempo::Arm::Ranged).unwrap();
        assert_eq!((bow.cost("Ranged Attack"), bow.aimed), (6, 3));
        assert!(c.validate().is_ok());
    }

    #[test]
    fn aura_v1_fixture_loads() {
        let c: Character =
            decode(include_str!("../../tests/fixtures/character-aura-v1.json")).unwrap();
        let Sheet::Aura(s) = &c.sheet else {
            panic!("not aura")
        };
        // Str 14 (+2), Con 13 (+1), Dex 16 (+3), Int 10, Wis 12 (+1), Cha 8 (−1); level 4.
        assert_eq!(s.masab().0, 1);
        // Evasion: 8 + 1 + 1 + 0 shield + 1 scimitar − 1 penalty.
        assert_eq!(s.evasion().0, 10);
        assert_eq!((s.fortitude().0, s.will().0), (12, 10));
        assert_eq!((s.aura_modifier().0, s.aura_strength().0), (3, 24));
        assert_eq!((s.arm_strength().0, s.initiative_bonus().0), (12, 1));
        assert_eq!(s.melee_av(&s.weapons[0]).0, 17);
        assert_eq!(s.draw_for(&s.weapons[1]).extra, 1);
        assert!(c.validate().is_ok());
    }

    #[test]
    fn v1_fixture_loads() {
        let c: Character =
            decode(include_str!("../../tests/fixtures/character-heimr-v1.json")).unwrap();
        assert_eq!(c.name, "Astrid Ulfsdottir");
        let Sheet::Heimr(s) = &c.sheet else {
            panic!("not heimr")
        };
        assert_eq!(s.abilities.len(), 7);
        assert_eq!(s.potential(&s.abilities[6]), 2);
        assert!(c.validate().is_ok());
    }
}
