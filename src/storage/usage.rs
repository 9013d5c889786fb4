//! How full the phone's storage for this app is, by kind of data. Browsers give an origin about
//! 5 MiB of `localStorage`, counted in UTF-16 code units over keys and values (Chromium refuses
//! the write that would pass 5 242 880; Firefox and Safari allow about as much), and no API says
//! how much is left, so the app counts what it holds against that.

use super::character::Character;
use super::encounters::INDEX_KEY as ENC_INDEX;
use super::roll_log::RollLog;
use super::roster::Index;
use super::store::{KeyValueStore, StorageError};
use super::versioned::{Versioned, QUARANTINE_PREFIX};
use crate::rules::encounter::Encounter;

/// What a browser holds per origin, in code units of keys and values.
pub const QUOTA: u64 = super::transfer::STORAGE_UNITS as u64;
/// From this share on, the app warns.
pub const WARN_PERCENT: u64 = 80;

/// Code units used, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    pub characters: u64,
    pub encounters: u64,
    pub roll_log: u64,
    /// Entries set aside as unreadable.
    pub quarantine: u64,
    /// Settings and anything not the app's.
    pub other: u64,
}

impl Usage {
    /// Counts every key and value in `store`.
    pub fn measure(store: &dyn KeyValueStore) -> Result<Usage, StorageError> {
        let mut u = Usage::default();
        for key in store.keys()? {
            let size = store.get(&key)?.map_or(0, |v| units(&v)) + units(&key);
            let slot = if key.starts_with(QUARANTINE_PREFIX) {
                &mut u.quarantine
            } else if key.starts_with(Character::KEY) || key == Index::KEY {
                &mut u.characters
            } else if key.starts_with(Encounter::KEY) || key == ENC_INDEX {
                &mut u.encounters
            } else if key == RollLog::KEY {
                &mut u.roll_log
            } else {
                &mut u.other
            };
            *slot += size;
        }
        Ok(u)
    }

    pub fn total(&self) -> u64 {
        self.characters + self.encounters + self.roll_log + self.quarantine + self.other
    }

    /// Whole percent of [`QUOTA`], rounded up (so "100%" only when nothing fits).
    pub fn percent(&self) -> u64 {
        (self.total() * 100).div_ceil(QUOTA).min(100)
    }

    pub fn nearly_full(&self) -> bool {
        self.percent() >= WARN_PERCENT
    }

    /// "1,234 KB of about 5,120 KB (24%)".
    pub fn summary(&self) -> String {
        format!(
            "{} of about {} used ({}%)",
            kb(self.total()),
            kb(QUOTA),
            self.percent()
        )
    }

    /// Each kind with its size.
    pub fn parts(&self) -> String {
        format!(
            "Characters {} · encounters {} · roll log {} · set aside {} · other {}",
            kb(self.characters),
            kb(self.encounters),
            kb(self.roll_log),
            kb(self.quarantine),
            kb(self.other)
        )
    }
}

/// What to do when storage is nearly full.
pub const ADVICE: &str = "Storage is nearly full: once it is, changes can no longer be saved. Export a backup (Characters → Export all), then delete characters or encounters you no longer need, or clear the roll log.";

/// Size as the browser counts it: UTF-16 code units.
fn units(s: &str) -> u64 {
    s.encode_utf16().count() as u64
}

/// Kilobytes (of 1024 code units), rounded up, with thousands separated: "5,120 KB".
pub fn kb(units: u64) -> String {
    let k = units.div_ceil(1024).to_string();
    let mut out = String::new();
    for (i, c) in k.chars().enumerate() {
        if i > 0 && (k.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out + " KB"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStore;

    #[test]
    fn every_key_is_counted_once_in_its_kind() {
        let store = MemoryStore::with(&[
            ("rollsheet.char.a", "12345"),
            ("rollsheet.characters", "ab"),
            ("rollsheet.enc.x", "é"), // one code unit
            ("rollsheet.encounters", ""),
            ("rollsheet.rolllog", "🎲"), // two code units
            ("rollsheet.quarantine.rollsheet.char.b.1", "x"),
            ("rollsheet.settings", "{}"),
        ]);
        let u = Usage::measure(&store).unwrap();
        assert_eq!(u.characters, 16 + 5 + 20 + 2);
        assert_eq!(u.encounters, 15 + 1 + 20);
        assert_eq!(u.roll_log, 17 + 2);
        assert_eq!(u.quarantine, 39 + 1);
        assert_eq!(u.other, 18 + 2);
        assert_eq!(
            u.total(),
            store
                .keys()
                .unwrap()
                .iter()
                .map(|k| units(k) + units(&store.raw(k).unwrap()))
                .sum::<u64>()
        );
    }

    #[test]
    fn percent_and_warning_threshold() {
        let at = |total: u64| Usage {
            other: total,
            ..Usage::default()
        };
        assert_eq!(at(0).percent(), 0);
        assert_eq!(
            at(1).percent(),
            1,
            "rounded up: not 0% while something is stored"
        );
        assert_eq!(at(QUOTA).percent(), 100);
        assert_eq!(at(QUOTA * 2).percent(), 100);
        let warn_from = QUOTA * WARN_PERCENT / 100;
        assert!(!at(warn_from - QUOTA / 50).nearly_full());
        assert!(at(warn_from).nearly_full());
        assert_eq!(
            at(QUOTA * 9 / 10).summary(),
            "4,608 KB of about 5,120 KB used (90%)"
        );
        assert_eq!(kb(0), "0 KB");
        assert_eq!(kb(1), "1 KB");
        assert_eq!(kb(1024 * 999), "999 KB");
        assert_eq!(kb(1024 * 1000), "1,000 KB");
        assert_eq!(kb(1024 * 1_234_567), "1,234,567 KB");
    }
}
