//! Loading a stored document of a versioned shape: migrate old versions step by step, refuse
//! versions newer than this app, and never drop data the app cannot read — it is moved aside to
//! a quarantine key instead.

use super::store::{KeyValueStore, StorageError};
use serde::de::DeserializeOwned;
use serde_json::Value;

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
    /// Rewrites a document of version `from` into version `from + 1`.
    fn migrate(from: u64, doc: Value) -> Result<Value, String>;
}

/// What loading found.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded<T> {
    Missing,
    Ok(T),
    /// The entry could not be read; its raw text now sits under `quarantine_key`.
    Quarantined { quarantine_key: String, reason: String },
}

/// Parses and migrates a document's text (no storage involved): the shared core of loading and
/// of import.
pub fn decode<T: Versioned>(text: &str) -> Result<T, DecodeError> {
    let mut doc: Value = serde_json::from_str(text).map_err(|e| DecodeError::Invalid(e.to_string()))?;
    let version = doc
        .get("schema_version")
        .and_then(Value::as_u64)
        .ok_or_else(|| DecodeError::Invalid("no schema_version".into()))?;
    if version > T::CURRENT {
        return Err(DecodeError::TooNew { found: version, known: T::CURRENT });
    }
    if version == 0 {
        return Err(DecodeError::Invalid("schema_version 0 does not exist".into()));
    }
    for from in version..T::CURRENT {
        doc = T::migrate(from, doc).map_err(DecodeError::Invalid)?;
        doc["schema_version"] = Value::from(from + 1);
    }
    serde_json::from_value(doc).map_err(|e| DecodeError::Invalid(e.to_string()))
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
    let Some(text) = store.get(T::KEY)? else {
        return Ok(Loaded::Missing);
    };
    match decode::<T>(&text) {
        Ok(doc) => Ok(Loaded::Ok(doc)),
        Err(DecodeError::TooNew { found, known }) => Err(LoadError::TooNew { found, known }),
        Err(DecodeError::Invalid(reason)) => {
            let quarantine_key = format!("{QUARANTINE_PREFIX}{}.{now_ms}", T::KEY);
            store.set(&quarantine_key, &text)?;
            store.remove(T::KEY)?;
            Ok(Loaded::Quarantined { quarantine_key, reason })
        }
    }
}

/// Keys of every quarantined entry.
pub fn quarantined_keys(store: &dyn KeyValueStore) -> Result<Vec<String>, StorageError> {
    Ok(store.keys()?.into_iter().filter(|k| k.starts_with(QUARANTINE_PREFIX)).collect())
}
