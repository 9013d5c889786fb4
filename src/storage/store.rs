//! The key-value store every stored document goes through: real `localStorage` in the browser,
//! an in-memory map in host tests. Every write is read back, so a write the browser silently
//! dropped is reported like any other failure.

use std::cell::RefCell;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    #[error("this browser does not allow saving (storage is off, perhaps in private mode): {0}")]
    Unavailable(String),
    #[error("the phone's storage for this app is full; nothing new could be saved")]
    QuotaExceeded,
    #[error("saving failed: {0}")]
    WriteFailed(String),
    #[error("a save did not stick: reading it back gave something else")]
    NotPersisted,
}

pub trait KeyValueStore {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError>;
    /// Writes and verifies by reading back.
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError>;
    fn remove(&self, key: &str) -> Result<(), StorageError>;
    /// Every key, for listing quarantined entries and the like.
    fn keys(&self) -> Result<Vec<String>, StorageError>;
}

/// An in-memory store for host tests. `fail_writes` simulates a full or disabled storage.
#[derive(Debug, Default)]
pub struct MemoryStore {
    map: RefCell<BTreeMap<String, String>>,
    pub fail_writes: RefCell<Option<StorageError>>,
    /// When set, this many more writes succeed and every one after fails as a full storage
    /// would: a batch cut off in the middle.
    pub writes_left: std::cell::Cell<Option<usize>>,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(entries: &[(&str, &str)]) -> Self {
        let store = Self::new();
        for (k, v) in entries {
            store
                .map
                .borrow_mut()
                .insert((*k).to_owned(), (*v).to_owned());
        }
        store
    }

    pub fn raw(&self, key: &str) -> Option<String> {
        self.map.borrow().get(key).cloned()
    }
}

impl KeyValueStore for MemoryStore {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        Ok(self.map.borrow().get(key).cloned())
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        if let Some(err) = self.fail_writes.borrow().clone() {
            return Err(err);
        }
        match self.writes_left.get() {
            Some(0) => return Err(StorageError::QuotaExceeded),
            Some(n) => self.writes_left.set(Some(n - 1)),
            None => {}
        }
        self.map
            .borrow_mut()
            .insert(key.to_owned(), value.to_owned());
        Ok(())
    }

    fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.map.borrow_mut().remove(key);
        Ok(())
    }

    fn keys(&self) -> Result<Vec<String>, StorageError> {
        Ok(self.map.borrow().keys().cloned().collect())
    }
}

/// The browser's `localStorage`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalStore;

impl LocalStore {
    fn storage() -> Result<web_sys::Storage, StorageError> {
        let window =
            web_sys::window().ok_or_else(|| StorageError::Unavailable("no window".into()))?;
        match window.local_storage() {
            Ok(Some(s)) => Ok(s),
            Ok(None) => Err(StorageError::Unavailable("localStorage is missing".into())),
            Err(e) => Err(StorageError::Unavailable(js_error_text(&e))),
        }
    }
}

fn js_error_text(e: &wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return format!(
            "{}: {}",
            String::from(err.name()),
            String::from(err.message())
        );
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

impl KeyValueStore for LocalStore {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        Self::storage()?
            .get_item(key)
            .map_err(|e| StorageError::Unavailable(js_error_text(&e)))
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        let storage = Self::storage()?;
        if let Err(e) = storage.set_item(key, value) {
            let text = js_error_text(&e);
            // Chromium says QuotaExceededError, Firefox NS_ERROR_DOM_QUOTA_REACHED.
            return Err(if text.contains("Quota") || text.contains("QUOTA") {
                StorageError::QuotaExceeded
            } else {
                StorageError::WriteFailed(text)
            });
        }
        match storage.get_item(key) {
            Ok(Some(back)) if back == value => Ok(()),
            _ => Err(StorageError::NotPersisted),
        }
    }

    fn remove(&self, key: &str) -> Result<(), StorageError> {
        Self::storage()?
            .remove_item(key)
            .map_err(|e| StorageError::WriteFailed(js_error_text(&e)))
    }

    fn keys(&self) -> Result<Vec<String>, StorageError> {
        let storage = Self::storage()?;
        let n = storage
            .length()
            .map_err(|e| StorageError::Unavailable(js_error_text(&e)))?;
        Ok((0..n)
            .filter_map(|i| storage.key(i).ok().flatten())
            .collect())
    }
}
