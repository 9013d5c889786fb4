//! Characters in storage: one key per character (`rollsheet.char.<id>`) plus an index that keeps
//! their order. Loading migrates each entry, sets aside what cannot be read, and keeps entries
//! from a newer app untouched and read-only.

use super::character::{key_of, Character, Sheet};
use super::store::{KeyValueStore, StorageError};
use super::versioned::{load_key, save_to, LoadError, Loaded, Versioned};
use serde::{Deserialize, Serialize};

/// The list of ids in their order. Format 2 adds the party's carried XP remainder (Heimr XP
/// sharing), kept once here rather than copied onto every character present.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Index {
    pub schema_version: u64,
    pub ids: Vec<String>,
    /// `None` in a format-1 index migrated but not yet given the characters' remainder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xp_carried: Option<u32>,
}

impl Versioned for Index {
    const KEY: &'static str = "rollsheet.characters";
    const CURRENT: u64 = 2;
    fn migrate(from: u64, doc: &str) -> Result<String, String> {
        /// Format 1: the ids only.
        #[derive(Deserialize)]
        struct V1 {
            ids: Vec<String>,
        }
        match from {
            1 => {
                let v1: V1 = serde_json::from_str(doc).map_err(|e| e.to_string())?;
                let v2 = Index {
                    schema_version: 2,
                    ids: v1.ids,
                    xp_carried: None,
                };
                serde_json::to_string(&v2).map_err(|e| e.to_string())
            }
            _ => Err(format!("no migration from index format {from}")),
        }
    }
}

/// An entry saved by a newer Rollsheet: shown, never rewritten.
#[derive(Debug, Clone, PartialEq)]
pub struct NewerEntry {
    pub key: String,
    pub name: String,
    pub raw: String,
    pub found: u64,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RosterLoad {
    pub characters: Vec<Character>,
    pub newer: Vec<NewerEntry>,
    /// Messages about entries moved to quarantine keys during this load.
    pub quarantined: Vec<String>,
    /// The party's carried XP remainder (Heimr sharing).
    pub xp_carried: u32,
}

/// Loads every character: those in the index first, in its order, then any found only by key.
///
/// An index from before format 2 gets the party's XP remainder from the characters: the one
/// carried by the most recently updated Heimr character (the last share wrote it on everyone
/// present), written to the index first and only then cleared from every character, so it can
/// be paid out once only.
pub fn load_roster(store: &dyn KeyValueStore, now: u64) -> Result<RosterLoad, StorageError> {
    let (mut characters, newer, quarantined) =
        load_collection::<Character>(store, now, Index::KEY, "character")?;
    let index = match load_key::<Index>(store, Index::KEY, now) {
        Ok(Loaded::Ok(index)) => Ok(index.xp_carried),
        Ok(Loaded::Missing) => Ok(None),
        // From a newer app, or unreadable: left exactly as it is.
        _ => Err(()),
    };
    let xp_carried = match index {
        Ok(Some(v)) => v,
        Err(()) => 0,
        Ok(None) if !characters.iter().any(carries) => 0,
        Ok(None) => {
            let v = characters
                .iter()
                .filter(|c| carries(c))
                .max_by_key(|c| c.updated)
                .map_or(0, |c| match &c.sheet {
                    Sheet::Heimr(h) => h.xp_carried,
                    _ => 0,
                });
            let ids = characters.iter().map(|c| c.id.clone()).collect();
            save_index_with(store, ids, v)?;
            for c in characters.iter_mut().filter(|c| carries(c)) {
                if let Sheet::Heimr(h) = &mut c.sheet {
                    h.xp_carried = 0;
                }
                save_character(store, c)?;
            }
            v
        }
    };
    Ok(RosterLoad {
        characters,
        newer,
        quarantined,
        xp_carried,
    })
}

/// A Heimr character still holding a copy of an old remainder.
fn carries(c: &Character) -> bool {
    matches!(&c.sheet, Sheet::Heimr(h) if h.xp_carried > 0)
}

/// What [`load_collection`] found: the documents, entries from a newer app, quarantine messages.
pub type Collection<T> = (Vec<T>, Vec<NewerEntry>, Vec<String>);

/// Loads documents stored one per key (`T::KEY` + id) with an index of ids under `index_key`:
/// those in the index first, in its order, then any found only by key. `noun` names one in
/// messages.
pub fn load_collection<T: Versioned>(
    store: &dyn KeyValueStore,
    now: u64,
    index_key: &str,
    noun: &str,
) -> Result<Collection<T>, StorageError> {
    let (mut items, mut newer, mut quarantined) = (Vec::new(), Vec::new(), Vec::new());
    let mut ids = match load_key::<Index>(store, index_key, now) {
        Ok(Loaded::Ok(index)) => index.ids,
        Ok(Loaded::Missing) => Vec::new(),
        Ok(Loaded::Quarantined {
            quarantine_key,
            reason,
        }) => {
            quarantined.push(format!("The {noun} list was unreadable ({reason}); it was rebuilt and the old one kept as {quarantine_key}."));
            Vec::new()
        }
        Err(LoadError::TooNew { .. }) => Vec::new(), // the keys below still find every entry
        Err(LoadError::Storage(e)) => return Err(e),
    };
    // An index listing an id twice loads it once. A set, not a scan of the list: a full phone
    // holds some ten thousand characters (a hundred million comparisons).
    let mut seen = std::collections::BTreeSet::new();
    ids.retain(|id| seen.insert(id.clone()));
    let mut orphans: Vec<String> = store
        .keys()?
        .into_iter()
        .filter_map(|k| k.strip_prefix(T::KEY).map(str::to_owned))
        .filter(|id| !seen.contains(id))
        .collect();
    crate::rules::order::sort(&mut orphans);
    ids.extend(orphans);
    for id in ids {
        let key = format!("{}{id}", T::KEY);
        match load_key::<T>(store, &key, now) {
            Ok(Loaded::Ok(mut c)) => {
                // The key says where an entry lives: an id inside it that disagrees (an edited
                // or copied entry) would make its next save overwrite another one.
                if let Some(inner) = c.id_mut() {
                    inner.clone_from(&id);
                }
                items.push(c)
            }
            Ok(Loaded::Missing) => {}
            Ok(Loaded::Quarantined { quarantine_key, reason }) => quarantined.push(format!(
                "A saved {noun} could not be read ({reason}); it was set aside as {quarantine_key} (see Settings)."
            )),
            Err(LoadError::TooNew { found, .. }) => {
                let raw = store.get(&key)?.unwrap_or_default();
                #[derive(Deserialize)]
                struct Name {
                    name: Option<String>,
                }
                let name = serde_json::from_str::<Name>(&raw).ok().and_then(|n| n.name).unwrap_or_else(|| id.clone());
                newer.push(NewerEntry { key, name, raw, found });
            }
            Err(LoadError::Storage(e)) => return Err(e),
        }
    }
    Ok((items, newer, quarantined))
}

pub fn save_character(store: &dyn KeyValueStore, c: &Character) -> Result<(), StorageError> {
    save_to(store, &c.key(), c)
}

/// Writes the character index with the party's carried XP remainder.
pub fn save_index_with(
    store: &dyn KeyValueStore,
    ids: Vec<String>,
    xp_carried: u32,
) -> Result<(), StorageError> {
    let index = Index {
        schema_version: Index::CURRENT,
        ids,
        xp_carried: Some(xp_carried),
    };
    save_to(store, Index::KEY, &index)
}

/// Writes an index of ids under `key` (characters, encounters).
pub fn save_index_at(
    store: &dyn KeyValueStore,
    key: &str,
    ids: Vec<String>,
) -> Result<(), StorageError> {
    let index = Index {
        schema_version: Index::CURRENT,
        ids,
        xp_carried: None,
    };
    save_to(store, key, &index)
}

pub fn delete_character(store: &dyn KeyValueStore, id: &str) -> Result<(), StorageError> {
    store.remove(&key_of(id))
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_entry_whose_id_disagrees_with_its_key_never_overwrites_another() {
        let a = crate::storage::transfer::export_one(&Character::new(
            "aaaaaaaaaaaaaaaa".into(),
            "Real".into(),
            crate::storage::character::Sheet::new("heimr").unwrap(),
            1,
        ));
        // A copy of A's text stored under B's key, and an index that lists A twice.
        let store = crate::storage::MemoryStore::with(&[
            ("rollsheet.char.aaaaaaaaaaaaaaaa", &a),
            (
                "rollsheet.char.bbbbbbbbbbbbbbbb",
                &a.replace("Real", "Copy"),
            ),
            (
                "rollsheet.characters",
                r#"{"schema_version":2,"ids":["aaaaaaaaaaaaaaaa","aaaaaaaaaaaaaaaa","bbbbbbbbbbbbbbbb"],"xp_carried":0}"#,
            ),
        ]);
        let loaded = load_roster(&store, 0).unwrap().characters;
        let ids: Vec<&str> = loaded.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"]);
        // Saving the copy writes under its own key; the real one stays.
        save_character(&store, &loaded[1]).unwrap();
        assert_eq!(
            store.raw("rollsheet.char.aaaaaaaaaaaaaaaa").as_deref(),
            Some(a.as_str())
        );
    }

    use super::*;
    use crate::storage::character::Sheet;
    use crate::storage::store::MemoryStore;
    use crate::storage::versioned::quarantined_keys;

    fn ch(id: &str, name: &str) -> Character {
        Character::new(id.into(), name.into(), Sheet::new("heimr").unwrap(), 1)
    }

    #[test]
    fn saves_and_loads_in_index_order() {
        let store = MemoryStore::new();
        for c in [ch("b", "Bo"), ch("a", "Astrid")] {
            save_character(&store, &c).unwrap();
        }
        save_index_with(&store, vec!["b".into(), "a".into()], 0).unwrap();
        let loaded = load_roster(&store, 0).unwrap();
        assert_eq!(
            loaded
                .characters
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>(),
            vec!["Bo", "Astrid"]
        );
    }

    #[test]
    fn characters_missing_from_the_index_are_still_found() {
        let store = MemoryStore::new();
        save_character(&store, &ch("z", "Zed")).unwrap();
        save_index_with(&store, vec!["gone".into()], 0).unwrap();
        assert_eq!(
            load_roster(&store, 0).unwrap().characters,
            vec![ch("z", "Zed")]
        );
    }

    #[test]
    fn unreadable_entries_are_quarantined_and_the_rest_load() {
        let store = MemoryStore::new();
        save_character(&store, &ch("a", "Astrid")).unwrap();
        store
            .set("rollsheet.char.bad", "{\"schema_version\":1,\"id\":\"bad\"")
            .unwrap();
        let loaded = load_roster(&store, 9).unwrap();
        assert_eq!(loaded.characters.len(), 1);
        assert_eq!(loaded.quarantined.len(), 1);
        let q = quarantined_keys(&store).unwrap();
        assert_eq!(
            q,
            vec!["rollsheet.quarantine.rollsheet.char.bad.9".to_string()]
        );
        assert_eq!(
            store.raw(&q[0]).as_deref(),
            Some("{\"schema_version\":1,\"id\":\"bad\"")
        );
    }

    #[test]
    fn entries_from_a_newer_app_are_kept_read_only() {
        let raw = r#"{"schema_version":5,"id":"n","name":"Future","system":"heimr","sheet":{"new":true}}"#;
        let store = MemoryStore::with(&[("rollsheet.char.n", raw)]);
        let loaded = load_roster(&store, 0).unwrap();
        assert!(loaded.characters.is_empty());
        assert_eq!(
            loaded.newer,
            vec![NewerEntry {
                key: "rollsheet.char.n".into(),
                name: "Future".into(),
                raw: raw.into(),
                found: 5
            }]
        );
        assert_eq!(
            store.raw("rollsheet.char.n").as_deref(),
            Some(raw),
            "untouched"
        );
    }

    #[test]
    fn an_unreadable_index_is_rebuilt_from_the_keys() {
        let store = MemoryStore::new();
        save_character(&store, &ch("a", "Astrid")).unwrap();
        store.set(Index::KEY, "nonsense").unwrap();
        let loaded = load_roster(&store, 3).unwrap();
        assert_eq!(loaded.characters.len(), 1);
        assert_eq!(loaded.quarantined.len(), 1);
    }

    #[test]
    fn delete_removes_only_that_character() {
        let store = MemoryStore::new();
        save_character(&store, &ch("a", "Astrid")).unwrap();
        save_character(&store, &ch("b", "Bo")).unwrap();
        delete_character(&store, "a").unwrap();
        assert_eq!(
            load_roster(&store, 0).unwrap().characters,
            vec![ch("b", "Bo")]
        );
    }

    #[test]
    fn a_failed_save_is_reported() {
        let store = MemoryStore::new();
        *store.fail_writes.borrow_mut() = Some(StorageError::QuotaExceeded);
        assert_eq!(
            save_character(&store, &ch("a", "A")),
            Err(StorageError::QuotaExceeded)
        );
    }

    fn heimr(id: &str, carried: u32, updated: u64) -> Character {
        let mut c = ch(id, id);
        c.updated = updated;
        if let Sheet::Heimr(h) = &mut c.sheet {
            h.xp_carried = carried;
        }
        c
    }

    /// Format 1 kept the remainder on every character present at the last share. Loading moves
    /// the most recent copy to the index once and clears every copy: it is paid out once only.
    #[test]
    fn v1_remainder_moves_to_the_index_once() {
        let store = MemoryStore::new();
        store
            .set(
                Index::KEY,
                include_str!("../../tests/fixtures/index-v1.json"),
            )
            .unwrap();
        // b2 was present at the last share (remainder 2); a1 still holds an older 1.
        for c in [heimr("a1", 1, 5), heimr("b2", 2, 9), heimr("c3", 0, 7)] {
            save_character(&store, &c).unwrap();
        }
        let loaded = load_roster(&store, 0).unwrap();
        assert_eq!(loaded.xp_carried, 2);
        for c in &loaded.characters {
            let Sheet::Heimr(h) = &c.sheet else { panic!() };
            assert_eq!(h.xp_carried, 0, "{} keeps no copy", c.id);
        }
        let stored: Index = serde_json::from_str(&store.get(Index::KEY).unwrap().unwrap()).unwrap();
        assert_eq!(
            (stored.schema_version, stored.ids.len(), stored.xp_carried),
            (2, 3, Some(2))
        );
        let again = load_roster(&store, 0).unwrap();
        assert_eq!(again.xp_carried, 2, "moved once, then read from the index");
        assert_eq!(again.characters, loaded.characters);
    }

    #[test]
    fn a_newer_index_is_never_rewritten() {
        let store = MemoryStore::new();
        let newer = r#"{"schema_version":9,"ids":["a1"],"party":{}}"#;
        store.set(Index::KEY, newer).unwrap();
        save_character(&store, &heimr("a1", 3, 1)).unwrap();
        let loaded = load_roster(&store, 0).unwrap();
        assert_eq!(loaded.characters.len(), 1);
        assert_eq!(store.get(Index::KEY).unwrap().as_deref(), Some(newer));
    }
}
