//! The shared roll log: newest first, capped, kept across reloads, cleared only on request
//! (with undo).

use super::versioned::Versioned;
use crate::rules::dice::RollOutcome;
use serde::{Deserialize, Serialize};

/// The log keeps this many newest entries.
pub const LOG_CAP: usize = 500;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Milliseconds since the Unix epoch; also unique within a log (see [`RollLog::push`]).
    pub at: u64,
    /// Who rolled, when a sheet rolled it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub who: Option<String>,
    /// The expression in canonical notation, or the roll's name.
    pub expr: String,
    pub outcome: RollOutcome,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RollLog {
    pub schema_version: u64,
    /// Newest first.
    pub entries: Vec<LogEntry>,
}

impl Default for RollLog {
    fn default() -> Self {
        RollLog {
            schema_version: Self::CURRENT,
            entries: Vec::new(),
        }
    }
}

impl Versioned for RollLog {
    const KEY: &'static str = "rollsheet.rolllog";
    const CURRENT: u64 = 1;
    fn migrate(from: u64, _doc: &str) -> Result<String, String> {
        Err(format!("no migration from roll log format {from}"))
    }
}

impl RollLog {
    /// Adds an entry at the top and drops the oldest past [`LOG_CAP`]. Timestamps are nudged
    /// forward to stay unique, so an entry's `at` can serve as its key.
    pub fn push(&mut self, mut entry: LogEntry) {
        if let Some(newest) = self.entries.first() {
            entry.at = entry.at.max(newest.at + 1);
        }
        self.entries.insert(0, entry);
        self.entries.truncate(LOG_CAP);
    }

    /// Empties the log and hands back what it held, for an undo.
    pub fn clear(&mut self) -> Vec<LogEntry> {
        std::mem::take(&mut self.entries)
    }

    /// Puts cleared entries back, below anything rolled since the clear, within the cap.
    pub fn restore(&mut self, cleared: Vec<LogEntry>) {
        self.entries.extend(cleared);
        self.entries.truncate(LOG_CAP);
    }
}

#[cfg(test)]
mod tests {
    use super::super::store::{MemoryStore, StorageError};
    use super::super::versioned::{load, quarantined_keys, LoadError, Loaded};
    use super::*;
    use crate::rules::dice::{parse, roll, SeededSource};

    fn entry(at: u64) -> LogEntry {
        let expr = parse("2d6").unwrap();
        LogEntry {
            at,
            who: None,
            expr: expr.to_string(),
            outcome: roll(&expr, &mut SeededSource::new(at)),
        }
    }

    #[test]
    fn newest_first_capped_at_500() {
        let mut log = RollLog::default();
        for i in 0..(LOG_CAP as u64 + 20) {
            log.push(entry(1000 + i));
        }
        assert_eq!(log.entries.len(), LOG_CAP);
        assert_eq!(log.entries[0].at, 1000 + LOG_CAP as u64 + 19);
        assert_eq!(
            log.entries.last().unwrap().at,
            1020,
            "the 20 oldest were dropped"
        );
    }

    #[test]
    fn timestamps_stay_unique() {
        let mut log = RollLog::default();
        log.push(entry(5));
        log.push(entry(5));
        log.push(entry(3));
        let ats: Vec<u64> = log.entries.iter().map(|e| e.at).collect();
        assert_eq!(ats, vec![7, 6, 5]);
    }

    #[test]
    fn clear_and_undo() {
        let mut log = RollLog::default();
        log.push(entry(1));
        log.push(entry(2));
        let cleared = log.clear();
        assert!(log.entries.is_empty());
        log.push(entry(10));
        log.restore(cleared);
        assert_eq!(
            log.entries.iter().map(|e| e.at).collect::<Vec<_>>(),
            vec![10, 2, 1]
        );
    }

    #[test]
    fn saves_and_loads_through_a_store() {
        let store = MemoryStore::new();
        let mut log = RollLog::default();
        log.push(entry(42));
        log.save(&store).unwrap();
        assert_eq!(load::<RollLog>(&store, 0).unwrap(), Loaded::Ok(log));
    }

    #[test]
    fn v1_fixture_loads() {
        let store = MemoryStore::with(&[(
            RollLog::KEY,
            include_str!("../../tests/fixtures/rolllog-v1.json"),
        )]);
        let Loaded::Ok(log) = load::<RollLog>(&store, 0).unwrap() else {
            panic!("fixture must load")
        };
        assert_eq!(log.entries.len(), 2);
        assert_eq!(log.entries[0].outcome.total, 14);
        assert_eq!(log.entries[0].who.as_deref(), Some("Astrid"));
        assert!(!log.entries[0].outcome.terms[0].dice[2].kept);
    }

    #[test]
    fn unreadable_log_is_quarantined_not_lost() {
        let store = MemoryStore::with(&[(RollLog::KEY, "{not json")]);
        let loaded = load::<RollLog>(&store, 77).unwrap();
        let Loaded::Quarantined { quarantine_key, .. } = loaded else {
            panic!("{loaded:?}")
        };
        assert_eq!(store.raw(&quarantine_key).as_deref(), Some("{not json"));
        assert_eq!(store.raw(RollLog::KEY), None);
        assert_eq!(quarantined_keys(&store).unwrap(), vec![quarantine_key]);
    }

    #[test]
    fn newer_format_is_refused_and_left_alone() {
        let text = r#"{"schema_version": 9, "entries": []}"#;
        let store = MemoryStore::with(&[(RollLog::KEY, text)]);
        assert_eq!(
            load::<RollLog>(&store, 0),
            Err(LoadError::TooNew { found: 9, known: 1 })
        );
        assert_eq!(store.raw(RollLog::KEY).as_deref(), Some(text), "untouched");
    }

    #[test]
    fn failed_write_is_reported() {
        let store = MemoryStore::new();
        *store.fail_writes.borrow_mut() = Some(StorageError::QuotaExceeded);
        assert_eq!(
            RollLog::default().save(&store),
            Err(StorageError::QuotaExceeded)
        );
    }
}
