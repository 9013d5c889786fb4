//! Encounters in storage, like characters: one key per encounter (`rollsheet.enc.<id>`) and an
//! index keeping their order; versioned, migrated, quarantined when unreadable. Export and
//! import of one encounter (the GM hands a fight to another phone).

use super::roster::{load_collection, save_index_at, NewerEntry};
use super::store::{KeyValueStore, StorageError};
use super::transfer::{decode_checked, precheck, ImportError};
use super::versioned::{save_to, Versioned};
use crate::rules::encounter::Encounter;
use serde::Deserialize;

/// The index of encounter ids.
pub const INDEX_KEY: &str = "rollsheet.encounters";

impl Versioned for Encounter {
    const KEY: &'static str = "rollsheet.enc.";
    const CURRENT: u64 = Encounter::CURRENT;
    fn migrate(from: u64, _doc: &str) -> Result<String, String> {
        Err(format!("no migration from encounter format {from}"))
    }

    fn id_mut(&mut self) -> Option<&mut String> {
        Some(&mut self.id)
    }
}

pub fn key_of(id: &str) -> String {
    format!("{}{id}", Encounter::KEY)
}

pub struct EncounterLoad {
    pub encounters: Vec<Encounter>,
    pub newer: Vec<NewerEntry>,
    pub quarantined: Vec<String>,
}

pub fn load_encounters(store: &dyn KeyValueStore, now: u64) -> Result<EncounterLoad, StorageError> {
    let (encounters, newer, quarantined) =
        load_collection::<Encounter>(store, now, INDEX_KEY, "encounter")?;
    Ok(EncounterLoad {
        encounters,
        newer,
        quarantined,
    })
}

pub fn save_encounter(store: &dyn KeyValueStore, e: &Encounter) -> Result<(), StorageError> {
    save_to(store, &key_of(&e.id), e)
}

pub fn save_encounter_index(
    store: &dyn KeyValueStore,
    ids: Vec<String>,
) -> Result<(), StorageError> {
    save_index_at(store, INDEX_KEY, ids)
}

pub fn delete_encounter(store: &dyn KeyValueStore, id: &str) -> Result<(), StorageError> {
    store.remove(&key_of(id))
}

pub fn export_encounter(e: &Encounter) -> String {
    serde_json::to_string(e).unwrap_or_default()
}

/// Parses an exported encounter, validated; nothing is stored here.
pub fn parse_encounter(text: &str) -> Result<Encounter, ImportError> {
    #[derive(Deserialize)]
    struct Probe {
        schema_version: Option<u64>,
        events: Option<serde::de::IgnoredAny>,
        name: Option<String>,
        system: Option<String>,
    }
    precheck(text)?;
    let probe: Probe = serde_json::from_str(text).map_err(|_| ImportError::NotEncounter)?;
    if probe.schema_version.is_none() || probe.events.is_none() {
        return Err(ImportError::NotEncounter);
    }
    let name = probe
        .name
        .as_deref()
        .map_or_else(|| "The encounter".into(), crate::storage::transfer::short);
    if let Some(system) = probe.system {
        if crate::rules::encounter::rules_for(&system).is_none() {
            return Err(ImportError::UnknownSystem(
                name,
                crate::storage::transfer::short(&system),
            ));
        }
    }
    decode_checked(text, name, Encounter::validate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::encounter::{Duration, Event};
    use crate::rules::symbaroum::combat::{npc, Npc};
    use crate::storage::store::MemoryStore;
    use crate::storage::transfer::MAX_IMPORT_BYTES;
    use crate::storage::versioned::quarantined_keys;

    fn fight(id: &str) -> Encounter {
        let mut e = Encounter::new(id.into(), "Bridge ambush".into(), "symbaroum", 7).unwrap();
        let mut s = e.state();
        for ev in [
            Event::Join(npc("Goblin 1", &Npc::quick(11, 12, 13, 10, 8, "1d6", ""))),
            Event::Join(npc("Goblin 2", &Npc::quick(11, 12, 13, 10, 8, "1d6", ""))),
            Event::RollOff(1, 4),
            Event::RollOff(2, 15),
            Event::Start,
            Event::Add(1, "Prone".into(), Duration::End { who: 1, n: 1 }),
        ] {
            e.push(ev, &mut s, 8);
        }
        e
    }

    /// Whatever name the Combat page lets a GM type, every other phone's import takes: a new
    /// fight, a rename, a copy and a second import of a 300-character name all stay importable.
    #[test]
    fn every_name_the_combat_page_takes_imports_on_another_phone() {
        let long = "Ambush at the ford ".repeat(16); // 304 characters
        let mut e = Encounter::new("a1".into(), long.clone(), "symbaroum", 1).unwrap();
        assert_eq!(e.name.chars().count(), 200);
        assert!(parse_encounter(&export_encounter(&e)).is_ok());
        e.name = Encounter::clean_name(&format!("  {long}é  "));
        assert_eq!(e.name.chars().count(), 200);
        assert!(parse_encounter(&export_encounter(&e)).is_ok());
        for suffix in [" (copy)", " (imported)"] {
            let mut copy = e.clone();
            copy.name = e.suffixed(suffix);
            assert!(copy.name.ends_with(suffix), "{}", copy.name);
            assert_eq!(copy.name.chars().count(), 200);
            assert!(parse_encounter(&export_encounter(&copy)).is_ok());
        }
        assert_eq!(Encounter::clean_name("   "), "New fight");
        // One character over is still refused, with its reason.
        e.name = "x".repeat(201);
        let err = parse_encounter(&export_encounter(&e))
            .unwrap_err()
            .to_string();
        assert!(err.contains("longer than 200"), "{err}");
    }

    #[test]
    fn encounters_save_load_and_keep_their_order() {
        let store = MemoryStore::new();
        for e in [fight("b"), fight("a")] {
            save_encounter(&store, &e).unwrap();
        }
        save_encounter_index(&store, vec!["b".into(), "a".into()]).unwrap();
        let loaded = load_encounters(&store, 0).unwrap();
        let ids: Vec<&str> = loaded.encounters.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["b", "a"]);
        assert_eq!(loaded.encounters[0], fight("b"));
        delete_encounter(&store, "b").unwrap();
        assert_eq!(load_encounters(&store, 0).unwrap().encounters.len(), 1);
    }

    #[test]
    fn unreadable_and_newer_encounters_are_kept_aside() {
        let store = MemoryStore::new();
        save_encounter(&store, &fight("ok")).unwrap();
        store
            .set("rollsheet.enc.bad", "{\"schema_version\":1,")
            .unwrap();
        store
            .set(
                "rollsheet.enc.new",
                "{\"schema_version\":9,\"name\":\"Later\"}",
            )
            .unwrap();
        let loaded = load_encounters(&store, 5).unwrap();
        assert_eq!(loaded.encounters.len(), 1);
        assert_eq!(loaded.quarantined.len(), 1);
        assert!(loaded.quarantined[0].contains("encounter"));
        assert_eq!(loaded.newer[0].name, "Later");
        assert_eq!(
            quarantined_keys(&store).unwrap(),
            vec!["rollsheet.quarantine.rollsheet.enc.bad.5".to_string()]
        );
        assert!(
            store.get("rollsheet.enc.new").unwrap().is_some(),
            "newer entries stay untouched"
        );
    }

    #[test]
    fn v1_fixture_loads_and_replays() {
        let e = parse_encounter(include_str!(
            "../../tests/fixtures/encounter-symbaroum-v1.json"
        ))
        .unwrap();
        let s = e.state();
        assert_eq!(e.cursor, 9);
        assert_eq!(e.events.len(), 10, "one undone event to redo");
        assert_eq!(s.round, 1);
        assert_eq!(s.name(s.current.unwrap()), "Ulla");
        assert_eq!(s.get(3).unwrap().hp, 4);
        assert!(s.has(3, "Prone"));
    }

    #[test]
    fn import_round_trip_and_every_bad_input() {
        let e = fight("x");
        assert_eq!(parse_encounter(&export_encounter(&e)), Ok(e.clone()));
        assert_eq!(
            crate::storage::transfer::parse_import(&export_encounter(&e)),
            Err(ImportError::IsEncounter),
            "the character importer names what it got"
        );
        // The link's quick sorting (one pass, nothing checked) agrees with the importer.
        let fixture = |f: &str| std::fs::read_to_string(format!("tests/fixtures/{f}")).unwrap();
        for doc in [
            export_encounter(&e),
            fixture("encounter-vogt-v1.json"),
            fixture("encounter-symbaroum-v1.json"),
            fixture("character-heimr-v1.json"),
            crate::storage::transfer::export_all(&[], 0),
            r#"{"schema_version":9,"events":[]}"#.into(),
            r#"{"events":[]}"#.into(),
            r#"{"schema_version":1,"events":"x"}"#.into(),
            "[1]".into(),
            "{".into(),
        ] {
            assert_eq!(
                crate::storage::transfer::is_encounter(&doc),
                crate::storage::transfer::parse_backup(&doc) == Err(ImportError::IsEncounter),
                "{doc}"
            );
        }
        assert!(matches!(parse_encounter("{"), Err(ImportError::NotJson(_))));
        assert_eq!(parse_encounter("[1]"), Err(ImportError::NotEncounter));
        assert_eq!(
            parse_encounter(r#"{"schema_version":1,"characters":[]}"#),
            Err(ImportError::NotEncounter)
        );
        let mut v: serde_json::Value = serde_json::from_str(&export_encounter(&e)).unwrap();
        v["system"] = "chess".into();
        assert!(matches!(
            parse_encounter(&v.to_string()),
            Err(ImportError::UnknownSystem(..))
        ));
        v["system"] = "symbaroum".into();
        v["schema_version"] = 2.into();
        assert!(matches!(
            parse_encounter(&v.to_string()),
            Err(ImportError::TooNew(_, 2, 1))
        ));
        v["schema_version"] = 1.into();
        v["cursor"] = 99.into();
        assert!(matches!(
            parse_encounter(&v.to_string()),
            Err(ImportError::OutOfRange(..))
        ));
        v["cursor"] = 1.into();
        v["events"][0]["Join"]["hp"] = 2_000_000_000.into();
        assert!(matches!(
            parse_encounter(&v.to_string()),
            Err(ImportError::OutOfRange(..))
        ));
        v["events"][0]["Join"]["hp"] = 8.into();
        // A combatant's texts are dice or words (a Vogt damage type), bounded in size only.
        v["events"][0]["Join"]["texts"][0] = "slash".into();
        assert!(parse_encounter(&v.to_string()).is_ok());
        v["events"][0]["Join"]["texts"][0] =
            "x".repeat(crate::rules::encounter::TEXT_LIMIT + 1).into();
        assert!(matches!(
            parse_encounter(&v.to_string()),
            Err(ImportError::OutOfRange(..))
        ));
        v["events"][0] = serde_json::json!({"Explode": 1});
        assert!(matches!(
            parse_encounter(&v.to_string()),
            Err(ImportError::BadShape(..))
        ));
        let text = export_encounter(&e);
        assert!(matches!(
            parse_encounter(&text[..text.len() / 2]),
            Err(ImportError::NotJson(_))
        ));
        let huge = " ".repeat(MAX_IMPORT_BYTES + 1);
        assert!(matches!(
            parse_encounter(&huge),
            Err(ImportError::TooLarge(_))
        ));
    }

    #[test]
    fn links_round_trip_encounters_and_refuse_bad_ones() {
        use crate::storage::link::testing::{link_of, open};
        let by_link = |link: &str| -> Result<Encounter, String> {
            let text = open(link).map_err(|e| e.to_string())?;
            parse_encounter(&text).map_err(|e| e.to_string())
        };
        for n in 0..20u32 {
            let mut e = fight(&format!("e{n}"));
            let mut s = e.state();
            for k in 0..n {
                let goblin = npc(
                    &format!("Goblin {}", k + 3),
                    &Npc::quick(11, 12, 13, 10, 8, "1d6", ""),
                );
                e.push(Event::Join(goblin), &mut s, 100 + u64::from(k));
            }
            let link = link_of(&export_encounter(&e));
            assert_eq!(by_link(&link), Ok(e), "{n} more goblins");
            // Cut short: damaged, never imported.
            assert!(by_link(&link[..link.len() - 3]).is_err_and(|m| m.contains("damaged")));
        }
        let mut v: serde_json::Value =
            serde_json::from_str(&export_encounter(&fight("x"))).unwrap();
        v["schema_version"] = 2.into();
        assert!(by_link(&link_of(&v.to_string())).is_err_and(|m| m.contains("newer Rollsheet")));
        assert_eq!(
            by_link(&link_of("[1]")),
            Err(ImportError::NotEncounter.to_string())
        );
    }
}
