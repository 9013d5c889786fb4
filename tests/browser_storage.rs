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

/// A batch written as the app writes it (each character through the two-tab tracker) into a
/// real localStorage with room for only part of it: the first saves land, the one that does
/// not fit is refused with the full-storage error and leaves its stored version intact, and
/// the usage figures count what is there.
#[wasm_bindgen_test]
fn a_batch_cut_off_by_the_real_quota_leaves_every_entry_whole() {
    use rollsheet::storage::character::{key_of, Character, Sheet};
    use rollsheet::storage::merge::{canonical, Tracker};
    use rollsheet::storage::usage::{Usage, QUOTA};
    clear();
    let canon = |t: &str| canonical::<Character>(t, Character::validate);
    let mut tracker = Tracker::new(&[], canon, canon);
    let make = |id: &str, notes: usize| {
        let mut c = Character::new(id.into(), id.into(), Sheet::new("heimr").unwrap(), 1);
        c.notes = "n".repeat(notes);
        c
    };
    let text = |c: &Character| serde_json::to_string(c).unwrap();
    for id in ["a", "b"] {
        let c = make(id, 10);
        tracker
            .write(&LocalStore, &key_of(id), id, &text(&c))
            .unwrap();
    }
    let old_b = LocalStore.get(&key_of("b")).unwrap().unwrap();
    // Leave about 600 000 code units free.
    let filler = "x".repeat(QUOTA as usize - 600_000);
    LocalStore.set("filler", &filler).unwrap();
    let used = Usage::measure(&LocalStore).unwrap();
    assert_eq!(used.other, 6 + filler.len() as u64);
    assert!(used.nearly_full());
    // "a" grows by 400 000 (fits), then "b" by 400 000 (does not).
    let (a, b) = (make("a", 400_000), make("b", 400_000));
    tracker
        .write(&LocalStore, &key_of("a"), "a", &text(&a))
        .unwrap();
    assert_eq!(
        tracker.write(&LocalStore, &key_of("b"), "b", &text(&b)),
        Err(StorageError::QuotaExceeded)
    );
    assert_eq!(LocalStore.get(&key_of("a")).unwrap(), Some(text(&a)));
    assert_eq!(
        LocalStore.get(&key_of("b")).unwrap(),
        Some(old_b),
        "b whole, as before"
    );
    // Room again: the same write goes through.
    LocalStore.remove("filler").unwrap();
    tracker
        .write(&LocalStore, &key_of("b"), "b", &text(&b))
        .unwrap();
    let u = Usage::measure(&LocalStore).unwrap();
    assert!(u.characters > 800_000 && u.other == 0, "{u:?}");
    clear();
}
