//! Export (one character or a backup of all) and import with validation: every way an input can
//! be wrong gets its own message, and nothing is applied until the whole input is valid.

use super::character::{Character, SYSTEMS};
use super::versioned::{decode, DecodeError, Versioned};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// What localStorage holds per origin, in UTF-16 code units (Chromium and Firefox: 5 Mi; Safari
/// less). Everything the app stores, and so everything it exports, fits in it.
pub const STORAGE_UNITS: usize = 5 * 1024 * 1024;

/// Largest file or pasted text an import accepts: a full storage exported, at the worst 3 bytes
/// of UTF-8 per UTF-16 unit, plus the backup's wrapper. Whatever the app exports, it imports.
pub const MAX_IMPORT_BYTES: usize = 3 * STORAGE_UNITS + 64 * 1024;

/// `{ schema_version, exported_at, characters: [...] }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Backup {
    pub schema_version: u64,
    pub exported_at: u64,
    pub characters: Vec<Character>,
}

pub fn export_one(c: &Character) -> String {
    serde_json::to_string(c).unwrap_or_default()
}

pub fn export_all(characters: &[Character], now: u64) -> String {
    let backup = Backup {
        schema_version: Character::CURRENT,
        exported_at: now,
        characters: characters.to_vec(),
    };
    serde_json::to_string(&backup).unwrap_or_default()
}

/// A file name from a character's name: `astrid-ulfsdottir.rollsheet.json`.
pub fn file_name(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
        if slug.chars().count() >= 40 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    format!(
        "{}.rollsheet.json",
        if slug.is_empty() { "character" } else { slug }
    )
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("The file is {0} KB; imports are limited to {max} KB, more than a phone can store.", max = MAX_IMPORT_BYTES / 1000)]
    TooLarge(usize),
    #[error("This is not JSON ({0}). Pick a file exported from Rollsheet.")]
    NotJson(String),
    #[error(
        "This JSON is not a Rollsheet character or backup (no schema_version and characters)."
    )]
    NotRollsheet,
    #[error("“{0}” uses the rule system “{1}”, which this version of Rollsheet does not know.")]
    UnknownSystem(String, String),
    #[error("“{0}” was saved by a newer Rollsheet (format {1}; this app reads up to {2}). Update the app, then import again.")]
    TooNew(String, u64, u64),
    #[error("“{0}” has a value out of range: {1}.")]
    OutOfRange(String, String),
    #[error("“{0}” is damaged or incomplete: {1}.")]
    BadShape(String, String),
    #[error("The backup holds no characters.")]
    Empty,
    #[error("The backup lists the id {0} twice.")]
    DuplicateId(String),
    #[error("This JSON is not a Rollsheet encounter (no schema_version and events).")]
    NotEncounter,
    #[error("This is an encounter: import it on the Combat page.")]
    IsEncounter,
}

/// Just enough of a document to tell what it is.
#[derive(Deserialize)]
struct Probe<'a> {
    schema_version: Option<u64>,
    #[serde(borrow)]
    characters: Option<Vec<&'a RawValue>>,
    events: Option<serde::de::IgnoredAny>,
    system: Option<String>,
    name: Option<String>,
}

/// What every import checks first: the size, then whether the text is JSON at all.
pub(crate) fn precheck(text: &str) -> Result<(), ImportError> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge(text.len().div_ceil(1000)));
    }
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map_err(|e| ImportError::NotJson(plain(&e.to_string())))?;
    Ok(())
}

/// At most 40 characters of a name or value in a message, so a 100 000-character name cannot
/// fill the screen.
pub fn short(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(MAX - 1).collect();
        t.push('…');
        t
    }
}

/// What a type in a parser message means to a player.
fn kind(t: &str) -> String {
    let t = t.trim();
    let words = match t {
        "i32" | "i64" | "integer" => "a whole number",
        "u32" | "u64" | "usize" => "a whole number from 0 up",
        "f64" | "floating point" => "a decimal number",
        "a string" | "string" => "text",
        "a boolean" | "boolean" => "true or false",
        "a sequence" | "sequence" => "a list",
        "map" | "a map" => "a group of fields",
        "null" => "nothing (null)",
        _ => return short(t),
    };
    words.to_owned()
}

/// A JSON parser's message in a player's words: what is wrong, with the field and the place,
/// long values cut short. "invalid type: floating point `1e+308`, expected i32 at line 1
/// column 30" → "a decimal number (1e+308) where a whole number belongs (line 1, column 30)".
pub fn plain(msg: &str) -> String {
    // "sheet: invalid type …": the part named first, then the message.
    if let Some((part, rest)) = msg.split_once(": ") {
        if !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_') {
            let known = [
                "invalid type",
                "invalid value",
                "missing field",
                "unknown field",
            ];
            if !known.iter().any(|k| msg.starts_with(k)) {
                return format!("in the {part}, {}", plain(rest));
            }
        }
    }
    let (what, place) = match msg.rfind(" at line ") {
        Some(i) => {
            let nums: Vec<&str> = msg[i + 9..].split(" column ").collect();
            (
                &msg[..i],
                format!(
                    " (line {}, column {})",
                    nums[0],
                    nums.get(1).unwrap_or(&"?")
                ),
            )
        }
        None => (msg, String::new()),
    };
    let ticked = |s: &str| -> String {
        let mut parts = s.split('`');
        parts.next();
        parts.next().map(short).unwrap_or_default()
    };
    // (how the parser starts, what it means: "{}" is the value it quotes).
    const SAID: [(&str, &str); 7] = [
        ("missing field ", "the field “{}” is missing"),
        ("unknown field ", "there is an unknown field “{}”"),
        ("unknown variant ", "“{}” is not one of the allowed values"),
        (
            "EOF while parsing",
            "the text stops in the middle (is the file complete?)",
        ),
        ("trailing characters", "there is more text after the end"),
        ("recursion limit", "it is nested too deeply"),
        ("", "it is not valid JSON here: {}"),
    ];
    let text = match what
        .strip_prefix("invalid type: ")
        .or_else(|| what.strip_prefix("invalid value: "))
    {
        Some(rest) => {
            let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, "?"));
            let value = ticked(found);
            let value = if value.is_empty() {
                value
            } else {
                format!(" ({value})")
            };
            let found = found.split('`').next().unwrap_or(found);
            format!("{}{value} where {} belongs", kind(found), kind(expected))
        }
        None => {
            let (start, meaning) = SAID
                .iter()
                .find(|(p, _)| what.starts_with(p))
                .copied()
                .unwrap_or(SAID[6]);
            let quoted = if start.is_empty() {
                short(what)
            } else {
                ticked(what)
            };
            meaning.replace("{}", &quoted)
        }
    };
    format!("{text}{place}")
}

/// Decodes (migrating) one document called `name` in the messages, then checks its values.
pub(crate) fn decode_checked<T: Versioned>(
    text: &str,
    name: String,
    validate: fn(&T) -> Result<(), String>,
) -> Result<T, ImportError> {
    let doc = match decode::<T>(text) {
        Ok(doc) => doc,
        Err(DecodeError::TooNew { found, known }) => {
            return Err(ImportError::TooNew(name, found, known))
        }
        Err(DecodeError::Invalid(why)) => return Err(ImportError::BadShape(name, plain(&why))),
    };
    validate(&doc).map_err(|why| ImportError::OutOfRange(name, short(&why)))?;
    Ok(doc)
}

/// A backup with some characters that cannot be imported: the others, and why each one was
/// left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub characters: Vec<Character>,
    pub left_out: Vec<ImportError>,
}

/// Parses an exported character or backup. A backup imports every character that is valid and
/// names each one left out with the reason; it fails only when none is valid. Nothing is
/// stored here.
pub fn parse_backup(text: &str) -> Result<Parsed, ImportError> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge(text.len().div_ceil(1000)));
    }
    // One pass over a good document; the parser's own message only for a bad one.
    let probe: Probe = serde_json::from_str(text).map_err(|_| match precheck(text) {
        Err(e) => e,
        Ok(()) => ImportError::NotRollsheet,
    })?;
    match (&probe.characters, probe.schema_version) {
        (Some(list), Some(v)) if v <= Character::CURRENT && probe.events.is_none() => {
            let mut out = Parsed {
                characters: Vec::new(),
                left_out: Vec::new(),
            };
            // Ids seen so far: a set, not a scan of those before (a backup of 11 000 characters
            // made that 60 million comparisons).
            let mut ids = std::collections::BTreeSet::new();
            for raw in list {
                match one(raw.get()) {
                    Ok(c) if !ids.insert(c.id.clone()) => {
                        out.left_out.push(ImportError::DuplicateId(c.id))
                    }
                    Ok(c) => out.characters.push(c),
                    Err(e) => out.left_out.push(e),
                }
            }
            match (out.characters.is_empty(), out.left_out.first()) {
                (true, Some(e)) => Err(e.clone()),
                (true, None) => Err(ImportError::Empty),
                _ => Ok(out),
            }
        }
        (_, None) => Err(ImportError::NotRollsheet),
        _ if probe.events.is_some() => Err(ImportError::IsEncounter),
        (Some(_), Some(v)) => Err(ImportError::TooNew(
            "The backup".into(),
            v,
            Character::CURRENT,
        )),
        (None, _) if probe.system.is_some() || probe.name.is_some() => Ok(Parsed {
            characters: vec![one(text)?],
            left_out: Vec::new(),
        }),
        (None, _) => Err(ImportError::NotRollsheet),
    }
}

/// Whether a document is an encounter (what the Combat page imports), read in one pass
/// without checking its characters or events.
pub fn is_encounter(text: &str) -> bool {
    serde_json::from_str::<Probe>(text)
        .is_ok_and(|p| p.schema_version.is_some() && p.events.is_some())
}

/// Parses an exported character or backup into validated characters, all or nothing.
pub fn parse_import(text: &str) -> Result<Vec<Character>, ImportError> {
    let parsed = parse_backup(text)?;
    match parsed.left_out.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(parsed.characters),
    }
}

fn one(text: &str) -> Result<Character, ImportError> {
    let probe: Probe = serde_json::from_str(text).map_err(|_| ImportError::NotRollsheet)?;
    let name = probe
        .name
        .as_deref()
        .map_or_else(|| "A character".into(), short);
    let system = probe.system.clone().ok_or(ImportError::NotRollsheet)?;
    if !SYSTEMS.iter().any(|s| s.id == system && s.available) {
        return Err(ImportError::UnknownSystem(name, short(&system)));
    }
    decode_checked(text, name, Character::validate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{DiceSource, SeededSource};
    use crate::rules::heimr::{Ability, Attr, HeimrSheet};
    use crate::storage::character::Sheet;

    fn pick<'a, T>(src: &mut SeededSource, items: &'a [T]) -> &'a T {
        &items[(src.roll(items.len() as u32) - 1) as usize]
    }

    fn text(src: &mut SeededSource) -> String {
        let parts = [
            "Astrid",
            "Bo",
            "\"quoted\"",
            "ünï",
            "🎲",
            "back\\slash",
            "line\nbreak",
            " ",
            "",
            "Ωmega",
        ];
        (0..src.roll(4))
            .map(|_| *pick(src, &parts))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A random but valid Heimr character.
    fn generated(seed: u64) -> Character {
        let mut src = SeededSource::new(seed);
        let mut s = HeimrSheet::default();
        for a in s.attributes.iter_mut() {
            a.value = src.roll(13) as i32 - 5;
            a.progress = src.roll(crate::rules::heimr::progress_required(a.value + 1)) - 1;
        }
        for _ in 0..src.roll(5) - 1 {
            let n = src.roll(3) as usize;
            let attrs: Vec<Attr> = (0..n).map(|_| *pick(&mut src, &Attr::ALL)).collect();
            let mut ab = Ability::new(
                &format!("Ability {}", text(&mut src)),
                &attrs,
                src.roll(6) as i32 - 3,
            );
            ab.trained_consistency = src.roll(10) - 1;
            ab.trained_potential = src.roll(10) - 1;
            s.abilities.push(ab);
        }
        s.hp_max = src.roll(10) as i32;
        s.hp = src.roll(16) as i32 - 6;
        s.willpower_max = src.roll(6) as i32;
        s.willpower = src.roll(6) as i32 - 1;
        s.fatigue = src.roll(20) as i32;
        s.skills = (0..src.roll(3) - 1).map(|_| text(&mut src)).collect();
        s.items = (0..src.roll(3) - 1).map(|_| text(&mut src)).collect();
        s.conditions = (0..src.roll(2) - 1).map(|_| text(&mut src)).collect();
        s.xp = src.next_u32() % 5000;
        s.xp_carried = src.roll(5) - 1;
        let mut c = Character::new(
            format!("{seed:016x}"),
            text(&mut src),
            Sheet::Heimr(s),
            1_700_000_000_000 + seed,
        );
        c.notes = text(&mut src);
        c.updated += u64::from(src.roll(1000));
        c
    }

    /// A random but valid Symbaroum-style character.
    fn generated_symbaroum(seed: u64) -> Character {
        use crate::rules::symbaroum::{
            Level, SAbility, SAttr, SymbaroumSheet, Weapon, WeaponQuality,
        };
        let mut src = SeededSource::new(seed);
        let mut s = SymbaroumSheet::default();
        for a in s.attributes.iter_mut() {
            *a = src.roll(20) as i32;
        }
        s.abilities = (0..src.roll(4) - 1)
            .map(|_| SAbility {
                name: text(&mut src),
                level: *pick(&mut src, &Level::ALL),
            })
            .collect();
        s.armor_protection = pick(&mut src, &["", "1d4", "1d6", "2d4+1"]).to_string();
        s.armor_impeding = src.roll(4) as i32 - 1;
        s.weapons.push(Weapon {
            name: text(&mut src),
            damage: pick(&mut src, &["1d8", "1d10+1", "2d6"]).to_string(),
            qualities: vec![*pick(
                &mut src,
                &[
                    WeaponQuality::Long,
                    WeaponQuality::Short,
                    WeaponQuality::Heavy,
                ],
            )],
            attr: *pick(&mut src, &SAttr::ALL),
        });
        s.toughness = src.roll(20) as i32 - 1;
        s.death_steps = src.roll(3) - 1;
        s.experience = src.next_u32() % 1000;
        s.equipment = (0..src.roll(3) - 1).map(|_| text(&mut src)).collect();
        Character::new(
            format!("s{seed:015x}"),
            text(&mut src),
            Sheet::Symbaroum(s),
            1_700_000_000_000 + seed,
        )
    }

    #[test]
    fn parser_messages_are_in_a_players_words_with_long_values_cut() {
        assert_eq!(
            plain("invalid type: floating point `1e+308`, expected i32 at line 1 column 30"),
            "a decimal number (1e+308) where a whole number belongs (line 1, column 30)"
        );
        assert_eq!(
            plain("missing field `hp_max` at line 3 column 1"),
            "the field “hp_max” is missing (line 3, column 1)"
        );
        assert_eq!(
            plain("EOF while parsing an object at line 1 column 12"),
            "the text stops in the middle (is the file complete?) (line 1, column 12)"
        );
        assert_eq!(
            plain("invalid value: integer `-1`, expected u32 at line 1 column 9"),
            "a whole number (-1) where a whole number from 0 up belongs (line 1, column 9)"
        );
        let long = format!(
            "unknown variant `{}`, expected one of `heimr`",
            "x".repeat(5000)
        );
        assert!(plain(&long).chars().count() < 80, "{}", plain(&long));
        // Through the importer: the float where a number belongs, and a 100 000-character name.
        let mut c = generated(7);
        c.name = "N".repeat(100_000);
        let text = export_one(&c).replace("\"hp_max\":", "\"hp_max\":1e308,\"x\":");
        let err = parse_import(&text).unwrap_err().to_string();
        assert!(err.chars().count() < 200, "{err}");
        assert!(
            err.contains("in the sheet, a decimal number (1e+308) where a whole number belongs"),
            "{err}"
        );
        assert!(err.contains("NNN…"), "{err}");
        let err = parse_import(&export_one(&c).replace("\"heimr\"", "\"nope\"")).unwrap_err();
        assert!(err.to_string().chars().count() < 200);
        assert!(parse_import("{\"a\":")
            .unwrap_err()
            .to_string()
            .contains("stops in the middle"));
    }

    #[test]
    fn a_backup_with_one_bad_character_imports_the_others_and_says_which_and_why() {
        let good: Vec<Character> = (0..3).map(generated).collect();
        let mut bad = generated(99);
        bad.name = "Broken".into();
        let mut all = good.clone();
        all.insert(1, bad);
        let text = export_all(&all, 1).replace(
            &format!("\"name\":\"Broken\",{}", &export_one(&all[1])[..0]),
            "\"name\":\"Broken\",",
        );
        // Break only that character: an hp_max out of range.
        let bad_json = export_one(&all[1]);
        let broken = bad_json.replacen("\"hp_max\":", "\"hp_max\":5000,\"_\":", 1);
        let text = text.replacen(&bad_json, &broken, 1);
        let parsed = parse_backup(&text).unwrap();
        assert_eq!(parsed.characters, good);
        assert_eq!(parsed.left_out.len(), 1);
        let why = parsed.left_out[0].to_string();
        assert!(why.starts_with("“Broken”"), "{why}");
        // The strict parser still refuses the whole file; a backup with no good one fails.
        assert!(parse_import(&text).is_err());
        assert!(parse_backup(&export_all(&[], 1)).is_err());
        let only_bad = export_all(&all[1..2], 1).replacen(&bad_json, &broken, 1);
        assert!(matches!(
            parse_backup(&only_bad),
            Err(ImportError::OutOfRange(..)) | Err(ImportError::BadShape(..))
        ));
        // Twice the same id: the first is kept, the second named.
        let twice = export_all(&[good[0].clone(), good[0].clone()], 1);
        let parsed = parse_backup(&twice).unwrap();
        assert_eq!(parsed.characters.len(), 1);
        assert_eq!(
            parsed.left_out,
            vec![ImportError::DuplicateId(good[0].id.clone())]
        );
    }

    /// A random but valid Bo Vogt character.
    fn generated_vogt(seed: u64) -> Character {
        use crate::rules::vogt::{Ability as VA, Item, Skill, VogtSheet, STATUSES};
        let mut src = SeededSource::new(seed);
        let mut s = VogtSheet::default();
        for a in s.abilities.iter_mut() {
            *a = src.roll(17) as i32 - 1;
        }
        s.skills = (0..src.roll(3) - 1)
            .map(|_| Skill {
                name: text(&mut src),
                ability: *pick(&mut src, &VA::ALL),
                bonus: src.roll(7) as i32 - 3,
            })
            .collect();
        s.hp_max = src.roll(30) as i32;
        s.hp = src.roll(31) as i32 - 1;
        s.ar = src.roll(5) as i32 - 1;
        s.technique_die = *pick(&mut src, &[4, 6, 8, 10, 12]);
        s.technique_dice = src.roll(5) as i32 - 1;
        s.exhaustion = src.roll(6) - 1;
        s.statuses = (0..src.roll(3) - 1)
            .map(|_| pick(&mut src, &STATUSES).name.to_owned())
            .collect();
        s.resistances = (0..src.roll(2) - 1).map(|_| text(&mut src)).collect();
        s.items = (0..src.roll(5) - 1)
            .map(|_| Item {
                name: text(&mut src),
                slots: src.roll(3),
                count: src.roll(40),
                per_slot: src.roll(20),
                quick: src.roll(2) == 1,
                damage: pick(&mut src, &["", "1d6", "2d8", "d12"]).to_string(),
                dtype: pick(&mut src, &["", "slash", "fire"]).to_string(),
            })
            .collect();
        s.bag = src.roll(2) == 1;
        s.hands = src.roll(4);
        Character::new(
            format!("v{seed:015x}"),
            text(&mut src),
            Sheet::Vogt(s),
            1_700_000_000_000 + seed,
        )
    }

    /// A random but valid Energy / Aura character.
    fn generated_aura(seed: u64) -> Character {
        use crate::rules::aura::{AuraSheet, Pick, Weapon, SIZES};
        let mut src = SeededSource::new(seed);
        let mut s = AuraSheet::default();
        for v in s.scores.iter_mut() {
            *v = src.roll(25) as i32 - 1;
        }
        s.level = src.roll(20) as i32 - 1;
        s.size = src.roll(SIZES.len() as u32) as usize - 1;
        s.mpl = src.roll(8) as i32 - 1;
        s.picks = (0..s.mpl).map(|_| *pick(&mut src, &Pick::ALL)).collect();
        s.arm = src.roll(30) as i32 - 5;
        s.weapons = (0..src.roll(3) - 1)
            .map(|_| Weapon {
                name: text(&mut src),
                damage: pick(&mut src, &["1d6", "2d4+1", "d12"]).to_string(),
                av: src.roll(5) as i32 - 2,
                precise: src.roll(3) as i32 - 1,
                ranged: src.roll(2) == 1,
                range: [
                    src.roll(10) as i32,
                    src.roll(50) as i32,
                    src.roll(100) as i32,
                ],
                ..Weapon::default()
            })
            .collect();
        s.armor.ar = src.roll(6) as i32 - 1;
        s.armor.ac = src.roll(15) as i32 - 1;
        s.aura = src.roll(40) as i32 - 1;
        s.stamina = src.roll(20) as i32 - 1;
        s.surges = src.roll(8) as i32 - 1;
        s.conditions = (0..src.roll(3) - 1).map(|_| text(&mut src)).collect();
        Character::new(
            format!("a{seed:015x}"),
            text(&mut src),
            Sheet::Aura(s),
            1_700_000_000_000 + seed,
        )
    }

    /// A random but valid Tempo character.
    fn generated_tempo(seed: u64) -> Character {
        use crate::rules::tempo::{priced, Arm, TempoSheet, Weapon, ACTIONS};
        let mut src = SeededSource::new(seed);
        let mut s = TempoSheet {
            defence: src.roll(20) as i32 - 5,
            armoured: src.roll(20) as i32,
            grapple: src.roll(12) as i32,
            movement: src.roll(8) as i32 - 1,
            health: src.roll(30) as i32 - 5,
            health_max: src.roll(30) as i32,
            dice: pick(&mut src, &["1d10", "2d6", "1d20", "3d6kh2"]).to_string(),
            ..TempoSheet::default()
        };
        for a in ACTIONS.iter().filter(|a| a.check) {
            if src.roll(3) == 1 {
                s.set_bonus(a.name, src.roll(9) as i32 - 4);
            }
        }
        s.weapons = (0..src.roll(3) - 1)
            .map(|_| {
                let mut w = Weapon::new(&text(&mut src), src.roll(2) == 1);
                for name in priced(if w.ranged { Arm::Ranged } else { Arm::Melee }) {
                    if src.roll(2) == 1 {
                        w.set_cost(name, src.roll(8) as i32 - 1);
                    }
                }
                w.aimed = src.roll(5) as i32 - 1;
                w
            })
            .collect();
        Character::new(
            format!("t{seed:015x}"),
            text(&mut src),
            Sheet::Tempo(s),
            1_700_000_000_000 + seed,
        )
    }

    #[test]
    fn export_then_import_gives_back_identical_characters() {
        for seed in 0..200 {
            let c = generated_tempo(seed);
            assert_eq!(c.validate(), Ok(()), "tempo seed {seed}");
            assert_eq!(
                parse_import(&export_one(&c)),
                Ok(vec![c.clone()]),
                "tempo seed {seed}"
            );
        }
        for seed in 0..200 {
            let c = generated_aura(seed);
            assert_eq!(c.validate(), Ok(()), "aura seed {seed}");
            assert_eq!(
                parse_import(&export_one(&c)),
                Ok(vec![c.clone()]),
                "aura seed {seed}"
            );
        }
        for seed in 0..200 {
            let c = generated_vogt(seed);
            assert_eq!(c.validate(), Ok(()), "vogt seed {seed}");
            assert_eq!(
                parse_import(&export_one(&c)),
                Ok(vec![c.clone()]),
                "vogt seed {seed}"
            );
        }
        for seed in 0..200 {
            let c = generated_symbaroum(seed);
            assert_eq!(c.validate(), Ok(()), "symbaroum seed {seed}");
            assert_eq!(
                parse_import(&export_one(&c)),
                Ok(vec![c.clone()]),
                "symbaroum seed {seed}"
            );
        }
        for seed in 0..300 {
            let c = generated(seed);
            assert_eq!(
                c.validate(),
                Ok(()),
                "generator makes valid sheets (seed {seed})"
            );
            assert_eq!(
                parse_import(&export_one(&c)),
                Ok(vec![c.clone()]),
                "seed {seed}"
            );
        }
        let all: Vec<Character> = (1000..1040).map(generated).collect();
        assert_eq!(parse_import(&export_all(&all, 42)), Ok(all));
    }

    #[test]
    fn the_fixture_imports() {
        let list =
            parse_import(include_str!("../../tests/fixtures/character-heimr-v1.json")).unwrap();
        assert_eq!(list[0].name, "Astrid Ulfsdottir");
    }

    #[test]
    fn every_bad_input_has_its_own_message() {
        let good = export_one(&generated(1));
        let with = |from: &str, to: &str| {
            assert!(good.contains(from), "{from}");
            good.replacen(from, to, 1)
        };
        let big = format!(
            "{{\"schema_version\":1,\"pad\":\"{}\"}}",
            "x".repeat(MAX_IMPORT_BYTES)
        );
        assert!(matches!(parse_import(&big), Err(ImportError::TooLarge(_))));
        assert!(matches!(
            parse_import("hello"),
            Err(ImportError::NotJson(_))
        ));
        assert!(matches!(
            parse_import("{\"a\": 1"),
            Err(ImportError::NotJson(_))
        ));
        assert_eq!(parse_import("[1, 2]"), Err(ImportError::NotRollsheet));
        assert_eq!(
            parse_import("{\"title\": \"shopping list\"}"),
            Err(ImportError::NotRollsheet)
        );
        assert!(
            matches!(parse_import(&with("\"heimr\"", "\"gurps\"")), Err(ImportError::UnknownSystem(_, s)) if s == "gurps")
        );
        assert!(matches!(
            parse_import(&with("\"schema_version\":1", "\"schema_version\":7")),
            Err(ImportError::TooNew(_, 7, 1))
        ));
        assert!(
            matches!(parse_import(&with("\"fatigue\":", "\"fatigue\":99")), Err(ImportError::OutOfRange(_, why)) if why.contains("fatigue"))
        );
        assert!(
            matches!(parse_import(&with("\"hp_max\"", "\"hp_maximum\"")), Err(ImportError::BadShape(_, why)) if why.contains("hp_max"))
        );
        assert_eq!(
            parse_import("{\"schema_version\":1,\"exported_at\":0,\"characters\":[]}"),
            Err(ImportError::Empty)
        );
        let twice =
            format!("{{\"schema_version\":1,\"exported_at\":0,\"characters\":[{good},{good}]}}");
        assert!(matches!(
            parse_import(&twice),
            Err(ImportError::DuplicateId(_))
        ));
        let newer = "{\"schema_version\":3,\"exported_at\":0,\"characters\":[]}";
        assert!(matches!(
            parse_import(newer),
            Err(ImportError::TooNew(_, 3, 1))
        ));
    }

    #[test]
    fn messages_read_well() {
        let e = parse_import(&export_one(&generated(2)).replacen("\"heimr\"", "\"gurps\"", 1))
            .unwrap_err();
        assert!(e.to_string().contains("“gurps”"), "{e}");
        assert_eq!(
            ImportError::TooLarge(16_000).to_string(),
            "The file is 16000 KB; imports are limited to 15794 KB, more than a phone can store."
        );
    }

    #[test]
    fn file_names() {
        assert_eq!(
            file_name("Astrid Ulfsdottir"),
            "astrid-ulfsdottir.rollsheet.json"
        );
        assert_eq!(file_name("  !!! "), "character.rollsheet.json");
        assert_eq!(file_name("Ünï / Ωmega"), "ünï-ωmega.rollsheet.json");
        assert!(file_name(&"a".repeat(300)).len() < 60);
    }

    #[test]
    fn a_backup_of_a_full_storage_round_trips() {
        // Characters whose notes fill localStorage's 5 Mi UTF-16 units, in 2- and 4-byte UTF-8.
        let per = 12_000;
        let count = STORAGE_UNITS / per;
        let characters: Vec<Character> = (0..count as u64)
            .map(|i| {
                let mut c = generated(i);
                c.id = format!("c{i}");
                c.notes = "ü🎲".repeat(per / 3);
                c
            })
            .collect();
        let text = export_all(&characters, 7);
        assert!(text.len() > 2 * STORAGE_UNITS, "{} bytes", text.len());
        assert!(text.len() <= MAX_IMPORT_BYTES);
        assert_eq!(parse_import(&text).unwrap(), characters);
    }

    /// A link's characters, through the same import as a file.
    fn by_link(link: &str) -> Result<Vec<Character>, String> {
        let text = crate::storage::link::testing::open(link).map_err(|e| e.to_string())?;
        parse_import(&text).map_err(|e| e.to_string())
    }

    #[test]
    fn links_round_trip_characters_of_every_system_and_backups() {
        use crate::storage::link::testing::link_of;
        let makers: [fn(u64) -> Character; 5] = [
            generated,
            generated_symbaroum,
            generated_vogt,
            generated_aura,
            generated_tempo,
        ];
        for make in makers {
            for seed in 0..60 {
                let c = make(seed);
                let link = link_of(&export_one(&c));
                assert!(link.starts_with("https://roll.example/#share=1."));
                assert_eq!(by_link(&link), Ok(vec![c]), "seed {seed}");
            }
        }
        let all: Vec<Character> = (0..30)
            .map(|i| makers[i % makers.len()](i as u64 + 500))
            .collect();
        assert_eq!(by_link(&link_of(&export_all(&all, 9))), Ok(all));
    }

    #[test]
    fn links_refuse_every_bad_input_a_file_is_refused_for() {
        use crate::storage::link::{testing::link_of, LinkError, MAX_LINK_CHARS};
        let good = export_one(&generated(3));
        let link = link_of(&good);
        let damaged = |r: Result<Vec<Character>, String>| {
            r.is_err_and(|e| e.starts_with("This link is damaged or cut short"))
        };
        // Cut short anywhere after the format: damaged, never a different character.
        let start = link.find("#share=1.").unwrap() + 9;
        for end in start..link.len() {
            assert!(damaged(by_link(&link[..end])), "cut at {end}");
        }
        // Any one character changed: caught (base64url or the checksum), never a different
        // character. Only the unused bits after the stream's last code may change unseen, and
        // they change nothing.
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let (mut tried, mut same) = (0, 0);
        for (i, c) in link.char_indices().skip(start) {
            for other in alphabet.chars().filter(|&o| o != c).step_by(7) {
                let mut t = link.clone();
                t.replace_range(i..i + 1, &other.to_string());
                let r = by_link(&t);
                tried += 1;
                if r == Ok(vec![generated(3)]) {
                    same += 1;
                    assert!(i + 12 >= link.len(), "{other} at {i} of {}", link.len());
                } else {
                    assert!(damaged(r.clone()), "{other} at {i}: {r:?}");
                }
            }
        }
        assert!(
            tried > 4000 && same * 100 < tried,
            "{same} of {tried} unchanged"
        );
        // A newer link format; a newer document inside a current link.
        let newer = link.replacen("#share=1.", "#share=2.", 1);
        assert_eq!(
            by_link(&newer),
            Err(LinkError::NewerFormat("2".into()).to_string())
        );
        let inner = link_of(&good.replacen("\"schema_version\":1", "\"schema_version\":7", 1));
        assert_eq!(
            by_link(&inner),
            Err(ImportError::TooNew(short(&generated(3).name), 7, 1).to_string())
        );
        // Inside, every message of the file import.
        assert!(by_link(&link_of("hello")).is_err_and(|e| e.starts_with("This is not JSON")));
        assert_eq!(
            by_link(&link_of("{\"title\": \"shopping\"}")),
            Err(ImportError::NotRollsheet.to_string())
        );
        let gurps = link_of(&good.replacen("\"heimr\"", "\"gurps\"", 1));
        assert!(by_link(&gurps).is_err_and(|e| e.contains("“gurps”")));
        let fatigue = link_of(&good.replacen("\"fatigue\":", "\"fatigue\":99", 1));
        assert!(by_link(&fatigue).is_err_and(|e| e.contains("out of range")));
        // Huge: a link longer than any browser keeps, and a small one that unpacks past what a
        // phone stores (the unpacking stops at the limit).
        let long = format!("https://x/#share=1.{}", "A".repeat(MAX_LINK_CHARS));
        assert_eq!(
            by_link(&long),
            Err(LinkError::TooLong(long.len().div_ceil(1000)).to_string())
        );
        let bomb = link_of(&" ".repeat(MAX_IMPORT_BYTES + 10));
        assert!(bomb.len() < 40_000, "{} characters", bomb.len());
        assert_eq!(by_link(&bomb), Err(LinkError::TooLarge.to_string()));
    }
}
