//! Characters in storage: one key per character (`rollsheet.char.<id>`) plus an index that keeps
//! their order. Loading migrates each entry, sets aside what cannot be read, and keeps entries
//! from a newer app untouched and read-only.

use super::character::{key_of, Character};
use super::store::{KeyValueStore, StorageError};
use super::versioned::{load_key, save_to, LoadError, Loaded, Versioned};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Index {
    pub schema_version: u64,
    pub ids: Vec<String>,
}

impl Versioned for Index {
    const KEY: &'static str = "rollsheet.characters";
    const CURRENT: u64 = 1;
    fn migrate(from: u64, _doc: &str) -> Result<String, String> {
        Err(format!("no migration from index format {from}"))
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
}

/// Loads every character: those in the index first, in its order, then any found only by key.
pub fn load_roster(store: &dyn KeyValueStore, now: u64) -> Result<RosterLoad, StorageError> {
    let (characters, newer, quarantined) =
        load_collection::<Character>(store, now, Index::KEY, "character")?;
    Ok(RosterLoad {
        characters,
        newer,
        quarantined,
    })
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
    let mut orphans: Vec<String> = store
        .keys()?
        .into_iter()
        .filter_map(|k| k.strip_prefix(T::KEY).map(str::to_owned))
        .filter(|id| !ids.contains(id))
        .collect();
    orphans.sort();
    ids.extend(orphans);
    for id in ids {
        let key = format!("{}{id}", T::KEY);
        match load_key::<T>(store, &key, now) {
            Ok(Loaded::Ok(c)) => items.push(c),
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

pub fn save_index(store: &dyn KeyValueStore, ids: Vec<String>) -> Result<(), StorageError> {
    save_index_at(store, Index::KEY, ids)
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
    };
    save_to(store, key, &index)
}

pub fn delete_character(store: &dyn KeyValueStore, id: &str) -> Result<(), StorageError> {
    store.remove(&key_of(id))
}

#[cfg(test)]
mod tests {
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
        save_index(&store, vec!["b".into(), "a".into()]).unwrap();
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
        save_index(&store, vec!["gone".into()]).unwrap();
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
}
