//! Storage against the browser's real localStorage: checked writes, a full storage, quarantine.
#![cfg(target_arch = "wasm32")]

use rollsheet::rules::dice::{parse, roll, SeededSource};
use rollsheet::storage::roll_log::{LogEntry, RollLog};
use rollsheet::storage::versioned::quarantined_keys;
use rollsheet::storage::{load, KeyValueStore, Loaded, LocalStore, StorageError, Versioned};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn clear() {
    web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .clear()
        .unwrap();
}

#[wasm_bindgen_test]
fn local_store_round_trip() {
    clear();
    let store = LocalStore;
    assert_eq!(store.get("k").unwrap(), None);
    store.set("k", "v1").unwrap();
    assert_eq!(store.get("k").unwrap().as_deref(), Some("v1"));
    assert_eq!(store.keys().unwrap(), vec!["k".to_string()]);
    store.remove("k").unwrap();
    assert_eq!(store.get("k").unwrap(), None);
}

#[wasm_bindgen_test]
fn a_full_storage_is_reported_and_keeps_the_old_value() {
    clear();
    let store = LocalStore;
    store.set("sheet", "old").unwrap();
    // localStorage holds about 5 MB per origin; 12 M UTF-16 code units cannot fit.
    let huge = "x".repeat(12 * 1024 * 1024);
    assert_eq!(store.set("sheet", &huge), Err(StorageError::QuotaExceeded));
    assert_eq!(
        store.get("sheet").unwrap().as_deref(),
        Some("old"),
        "nothing lost"
    );
}

#[wasm_bindgen_test]
fn roll_log_persists_in_local_storage() {
    clear();
    let expr = parse("3d6").unwrap();
    let mut log = RollLog::default();
    log.push(LogEntry {
        at: 1,
        who: None,
        expr: expr.to_string(),
        outcome: roll(&expr, &mut SeededSource::new(3)),
    });
    log.save(&LocalStore).unwrap();
    assert_eq!(load::<RollLog>(&LocalStore, 5).unwrap(), Loaded::Ok(log));
}

#[wasm_bindgen_test]
fn an_unreadable_entry_is_quarantined_in_local_storage() {
    clear();
    LocalStore
        .set(RollLog::KEY, "{\"schema_version\": 1, \"entries\": 7}")
        .unwrap();
    let loaded = load::<RollLog>(&LocalStore, 99).unwrap();
    let Loaded::Quarantined { quarantine_key, .. } = loaded else {
        panic!("{loaded:?}")
    };
    assert_eq!(
        quarantined_keys(&LocalStore).unwrap(),
        vec![quarantine_key.clone()]
    );
    assert!(LocalStore
        .get(&quarantine_key)
        .unwrap()
        .unwrap()
        .contains("\"entries\": 7"));
    assert_eq!(LocalStore.get(RollLog::KEY).unwrap(), None);
}

#[wasm_bindgen_test]
fn characters_round_trip_through_local_storage_and_survive_a_full_storage() {
    use rollsheet::storage::character::{Character, Sheet};
    use rollsheet::storage::roster::{load_roster, save_character, save_index_with};
    clear();
    let mut c = Character::new(
        "c1".into(),
        "Astrid".into(),
        Sheet::new("heimr").unwrap(),
        1,
    );
    save_character(&LocalStore, &c).unwrap();
    save_index_with(&LocalStore, vec!["c1".into()], 0).unwrap();
    assert_eq!(
        load_roster(&LocalStore, 2).unwrap().characters,
        vec![c.clone()]
    );
    // Fill the storage so the next save cannot fit: the error is reported, the saved copy stays.
    let filler = "x".repeat(4 * 1024 * 1024);
    let _ = LocalStore.set("filler", &filler);
    c.notes = "y".repeat(3 * 1024 * 1024);
    assert_eq!(
        save_character(&LocalStore, &c),
        Err(StorageError::QuotaExceeded)
    );
    let loaded = load_roster(&LocalStore, 3).unwrap().characters;
    assert_eq!(loaded[0].notes, "", "the last good save is intact");
    clear();
}
