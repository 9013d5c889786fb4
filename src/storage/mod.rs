//! Everything stored on the phone: the store abstraction, versioned shapes with migrations and
//! quarantine, and the documents themselves.

pub mod agree;
pub mod character;
pub mod encounters;
pub mod link;
pub mod merge;
pub mod roll_log;
pub mod roster;
pub mod settings;
pub mod store;
pub mod table;
pub mod transfer;
pub mod usage;
pub mod versioned;

pub use store::{KeyValueStore, LocalStore, MemoryStore, StorageError};
pub use versioned::{load, load_key, LoadError, Loaded, Versioned};
