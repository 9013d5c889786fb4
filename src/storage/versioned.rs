//! Loading a stored document of a versioned shape: migrate old versions step by step, refuse
//! versions newer than this app, and never drop data the app cannot read — it is moved aside to
//! a quarantine key instead.

use super::store::{KeyValueStore, StorageError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Prefix of keys holding stored entries that could not be read; listed in Settings.
pub const QUARANTINE_PREFIX: &str = "rollsheet.quarantine.";

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    Storage(#[from] StorageError),
    #[error("saved with a newer version of Rollsheet (format {found}, this app knows up to {known}); update the app to use it")]
    TooNew { found: u64, known: u64 },
}

/// A stored document shape with a schema version and migrations from every earlier one.
pub trait Versioned: DeserializeOwned {
    const KEY: &'static str;
    const CURRENT: u64;
    /// Rewrites the JSON text of a document of version `from` into version `from + 1`
    /// (including its `schema_version`). Text in, text out: a shape with no migrations yet
    /// carries no JSON-tree code in the app.
    fn migrate(from: u64, doc: &str) -> Result<String, String>;

    /// Brings a decoded document back within what its importer accepts, where an earlier
    /// version of the app let a player edit it outside (issue 27): the same shape, values
    /// clamped to their nearest allowed one, nothing removed. Runs on loading what this phone
    /// stored, after any migration, so a repaired document needs no new format; an import
    /// is never repaired: a file out of range is refused with its reason, changing nothing.
    fn repair(&mut self) {}

    /// The id of a document stored one per key (`KEY` + id), to be kept equal to its key.
    fn id_mut(&mut self) -> Option<&mut String> {
        None
    }

    /// Writes the document under its key (the store reads it back).
    fn save(&self, store: &dyn KeyValueStore) -> Result<(), StorageError>
    where
        Self: Serialize,
    {
        save_to(store, Self::KEY, self)
    }
}

/// Writes any document as JSON under `key` (the store reads it back).
pub fn save_to<T: Serialize + ?Sized>(
    store: &dyn KeyValueStore,
    key: &str,
    doc: &T,
) -> Result<(), StorageError> {
    let text = serde_json::to_string(doc).map_err(|e| StorageError::WriteFailed(e.to_string()))?;
    store.set(key, &text)
}

/// What loading found.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded<T> {
    Missing,
    Ok(T),
    /// The entry could not be read; its raw text now sits under `quarantine_key`.
    Quarantined {
        quarantine_key: String,
        reason: String,
    },
}

/// Parses and migrates a document's text (no storage involved): the shared core of loading and
/// of import.
pub fn decode<T: Versioned>(text: &str) -> Result<T, DecodeError> {
    /// Just the version; every other field is skipped.
    #[derive(Deserialize)]
    struct Header {
        schema_version: Option<u64>,
    }
    let header: Header =
        serde_json::from_str(text).map_err(|e| DecodeError::Invalid(e.to_string()))?;
    let version = header
        .schema_version
        .ok_or_else(|| DecodeError::Invalid("no schema_version".into()))?;
    if version > T::CURRENT {
        return Err(DecodeError::TooNew {
            found: version,
            known: T::CURRENT,
        });
    }
    if version == 0 {
        return Err(DecodeError::Invalid(
            "schema_version 0 does not exist".into(),
        ));
    }
    let mut doc = Cow::Borrowed(text);
    for from in version..T::CURRENT {
        doc = Cow::Owned(T::migrate(from, &doc).map_err(DecodeError::Invalid)?);
    }
    serde_json::from_str(&doc).map_err(|e| DecodeError::Invalid(e.to_string()))
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    #[error("unreadable: {0}")]
    Invalid(String),
    #[error("format {found} is newer than this app's {known}")]
    TooNew { found: u64, known: u64 },
}

/// Loads `T::KEY`. An unreadable entry is copied to a quarantine key (and only then removed from
/// its own key), so the app can start fresh without losing anything.
pub fn load<T: Versioned>(store: &dyn KeyValueStore, now_ms: u64) -> Result<Loaded<T>, LoadError> {
    load_key(store, T::KEY, now_ms)
}

/// [`load`] from any key (documents stored one per key, like characters).
pub fn load_key<T: Versioned>(
    store: &dyn KeyValueStore,
    key: &str,
    now_ms: u64,
) -> Result<Loaded<T>, LoadError> {
    let Some(text) = store.get(key)? else {
        return Ok(Loaded::Missing);
    };
    match decode::<T>(&text) {
        Ok(mut doc) => {
            doc.repair();
            Ok(Loaded::Ok(doc))
        }
        Err(DecodeError::TooNew { found, known }) => Err(LoadError::TooNew { found, known }),
        Err(DecodeError::Invalid(reason)) => {
            let quarantine_key = format!("{QUARANTINE_PREFIX}{key}.{now_ms}");
            store.set(&quarantine_key, &text)?;
            store.remove(key)?;
            Ok(Loaded::Quarantined {
                quarantine_key,
                reason,
            })
        }
    }
}

/// Keys of every quarantined entry.
pub fn quarantined_keys(store: &dyn KeyValueStore) -> Result<Vec<String>, StorageError> {
    Ok(store
        .keys()?
        .into_iter()
        .filter(|k| k.starts_with(QUARANTINE_PREFIX))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStore;
    use serde::Serialize;

    /// A shape at version 3 whose v1 named the field `nick` and whose v2 stored `level` as text.
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Doc {
        schema_version: u64,
        name: String,
        level: u32,
    }

    impl Versioned for Doc {
        const KEY: &'static str = "test.doc";
        const CURRENT: u64 = 3;
        fn migrate(from: u64, doc: &str) -> Result<String, String> {
            let mut v: serde_json::Value = serde_json::from_str(doc).map_err(|e| e.to_string())?;
            match from {
                1 => {
                    let nick = v["nick"].take();
                    v["name"] = nick;
                    v["level"] = "1".into();
                }
                2 => {
                    let level: u32 = v["level"]
                        .as_str()
                        .and_then(|s| s.parse().ok())
                        .ok_or("bad level")?;
                    v["level"] = level.into();
                }
                _ => return Err(format!("no migration from {from}")),
            }
            v["schema_version"] = (from + 1).into();
            Ok(v.to_string())
        }
    }

    #[test]
    fn migrations_chain_from_every_old_version() {
        let want = Doc {
            schema_version: 3,
            name: "Astrid".into(),
            level: 1,
        };
        assert_eq!(
            decode::<Doc>(r#"{"schema_version":1,"nick":"Astrid"}"#),
            Ok(want)
        );
        let want = Doc {
            schema_version: 3,
            name: "Bo".into(),
            level: 4,
        };
        assert_eq!(
            decode::<Doc>(r#"{"schema_version":2,"name":"Bo","level":"4"}"#),
            Ok(want)
        );
        assert!(matches!(
            decode::<Doc>(r#"{"schema_version":2,"name":"Bo","level":"x"}"#),
            Err(DecodeError::Invalid(_))
        ));
    }

    #[test]
    fn versions_are_checked() {
        assert_eq!(
            decode::<Doc>(r#"{"schema_version":4}"#),
            Err(DecodeError::TooNew { found: 4, known: 3 })
        );
        assert!(matches!(
            decode::<Doc>(r#"{"schema_version":0}"#),
            Err(DecodeError::Invalid(_))
        ));
        assert!(matches!(
            decode::<Doc>(r#"{"name":"x"}"#),
            Err(DecodeError::Invalid(_))
        ));
        assert!(matches!(
            decode::<Doc>("[1,2]"),
            Err(DecodeError::Invalid(_))
        ));
    }

    #[test]
    fn a_failed_quarantine_write_leaves_the_entry_in_place() {
        let store = MemoryStore::with(&[("test.doc", "garbage")]);
        *store.fail_writes.borrow_mut() = Some(StorageError::QuotaExceeded);
        assert_eq!(
            load::<Doc>(&store, 1),
            Err(LoadError::Storage(StorageError::QuotaExceeded))
        );
        assert_eq!(store.raw("test.doc").as_deref(), Some("garbage"));
    }
}
