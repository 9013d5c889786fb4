//! App settings: the theme override (and more as features come).

use super::versioned::Versioned;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Follow the phone's light or dark setting.
    #[default]
    System,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "Automatic",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
        }
    }

    /// The `data-theme` attribute value on `<html>`; `None` lets CSS follow the system.
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::System => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub schema_version: u64,
    #[serde(default)]
    pub theme: Theme,
    /// When a backup of all characters was last exported (ms since the epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_backup: Option<u64>,
    /// Sheet sections the player closed (their keys); the rest are open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collapsed: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            schema_version: Self::CURRENT,
            theme: Theme::System,
            last_backup: None,
            collapsed: Vec::new(),
        }
    }
}

impl Versioned for Settings {
    /// index.html reads this key before the app starts, to paint the right theme at once.
    const KEY: &'static str = "rollsheet.settings";
    const CURRENT: u64 = 1;
    fn migrate(from: u64, _doc: &str) -> Result<String, String> {
        Err(format!("no migration from settings format {from}"))
    }
}

/// A backup is suggested when none was made, or the last is older than this.
pub const BACKUP_EVERY_MS: u64 = 14 * 24 * 60 * 60 * 1000;

impl Settings {
    pub fn backup_due(&self, now: u64) -> bool {
        self.last_backup
            .is_none_or(|t| now.saturating_sub(t) > BACKUP_EVERY_MS)
    }
}

#[cfg(test)]
mod tests {
    use super::super::store::MemoryStore;
    use super::super::versioned::{load, Loaded};
    use super::*;

    #[test]
    fn backup_is_due_when_never_made_or_older_than_14_days() {
        let day = 24 * 60 * 60 * 1000;
        let mut s = Settings::default();
        assert!(s.backup_due(100 * day));
        s.last_backup = Some(100 * day);
        assert!(!s.backup_due(114 * day));
        assert!(s.backup_due(114 * day + 1));
    }

    #[test]
    fn theme_round_trips_and_defaults() {
        let store = MemoryStore::new();
        let s = Settings {
            theme: Theme::Dark,
            ..Settings::default()
        };
        s.save(&store).unwrap();
        assert_eq!(
            store.raw(Settings::KEY).as_deref(),
            Some(r#"{"schema_version":1,"theme":"dark"}"#)
        );
        assert_eq!(load::<Settings>(&store, 0).unwrap(), Loaded::Ok(s));
        let store = MemoryStore::with(&[(Settings::KEY, r#"{"schema_version":1}"#)]);
        assert_eq!(
            load::<Settings>(&store, 0).unwrap(),
            Loaded::Ok(Settings::default())
        );
    }

    #[test]
    fn collapsed_sections_round_trip_and_old_settings_have_none() {
        let store = MemoryStore::new();
        let s = Settings {
            collapsed: vec!["heimr.skills".into()],
            ..Settings::default()
        };
        s.save(&store).unwrap();
        assert_eq!(load::<Settings>(&store, 0).unwrap(), Loaded::Ok(s));
        let old = MemoryStore::with(&[(Settings::KEY, r#"{"schema_version":1,"theme":"light"}"#)]);
        match load::<Settings>(&old, 0).unwrap() {
            Loaded::Ok(s) => assert!(s.collapsed.is_empty()),
            other => panic!("{other:?}"),
        }
    }
}
