//! The checks every step of a sequence must pass, and the state machine that runs a system's
//! edits: what a player can reach by taps, their backup, link and other tab must bring back.

use proptest::prelude::*;
use proptest::test_runner::Config;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
use rollsheet::rules::edit::{Edits, ListEdit};
use rollsheet::storage::character::{Character, Sheet};
use rollsheet::storage::link;
use rollsheet::storage::merge::{canonical, reconcile, Outcome};
use rollsheet::storage::roster::{load_roster, save_character, save_index_with};
use rollsheet::storage::transfer::{export_one, parse_import, MAX_IMPORT_BYTES};
use rollsheet::storage::MemoryStore;
use std::fmt::Debug;
use std::marker::PhantomData;

/// Sequences per system: about 10³ in the test command, `SEQ_CASES` (scripts/fuzz-edits.sh)
/// for long runs; `PROPTEST_RNG_SEED` replays one.
pub fn config() -> Config {
    let cases = std::env::var("SEQ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let default = Config::default();
    // The test command's run is the same every time (seed 27); the long run picks its own.
    let rng_seed = match std::env::var("PROPTEST_RNG_SEED") {
        Ok(_) => default.rng_seed,
        Err(_) => proptest::test_runner::RngSeed::Fixed(27),
    };
    Config {
        cases,
        rng_seed,
        failure_persistence: None,
        max_shrink_iters: 2000,
        ..default
    }
}

/// A system as the sequences see it: its sheet, where its fixtures come from and which edits
/// a player can make at a given state.
pub trait System: 'static {
    type Sheet: Edits<Edit = Self::Edit> + Clone + Debug;
    type Edit: Clone + Debug;
    fn fixture() -> &'static str;
    fn sheet(s: &Sheet) -> &Self::Sheet;
    fn sheet_mut(s: &mut Sheet) -> &mut Self::Sheet;
    /// Sheets a player could have made (within what the importer accepts).
    fn generated() -> BoxedStrategy<Self::Sheet>;
    fn wrap(s: Self::Sheet) -> Sheet;
    /// The edits offered at this state (indices within its lists, values around its limits).
    fn edits(s: &Self::Sheet) -> BoxedStrategy<Self::Edit>;
}

/// A system's fixture and its sheet inside the character's `Sheet`, for `impl System`.
#[macro_export]
macro_rules! sheet_of {
    ($variant:ident, $ty:ty, $file:literal) => {
        fn fixture() -> &'static str {
            include_str!(concat!("../fixtures/", $file))
        }
        fn sheet(s: &rollsheet::storage::character::Sheet) -> &$ty {
            match s {
                rollsheet::storage::character::Sheet::$variant(x) => x,
                _ => unreachable!("another system's sheet"),
            }
        }
        fn sheet_mut(s: &mut rollsheet::storage::character::Sheet) -> &mut $ty {
            match s {
                rollsheet::storage::character::Sheet::$variant(x) => x,
                _ => unreachable!("another system's sheet"),
            }
        }
        fn wrap(s: $ty) -> rollsheet::storage::character::Sheet {
            rollsheet::storage::character::Sheet::$variant(s)
        }
    };
}

/// One step a player takes on a character.
#[derive(Clone, Debug)]
pub enum Step<E> {
    Sheet(E),
    Rename(String),
    Notes(String),
}

/// Applies a step as the app does: on a copy, kept only when the edit is accepted.
pub fn step<S: System>(c: &Character, t: &Step<S::Edit>) -> Character {
    let mut next = c.clone();
    match t {
        Step::Sheet(e) => {
            let mut s = S::sheet(&next.sheet).clone();
            if s.apply(e.clone()).is_ok() {
                *S::sheet_mut(&mut next.sheet) = s;
            }
        }
        Step::Rename(n) => {
            next.rename(n);
        }
        Step::Notes(n) => next.set_notes(n),
    }
    next
}

/// A character loaded as the app loads one (saved, then read back).
pub fn loaded(c: Character) -> Character {
    let store = MemoryStore::new();
    save_character(&store, &c).unwrap();
    save_index_with(&store, vec![c.id.clone()], 0).unwrap();
    load_roster(&store, 0).unwrap().characters.remove(0)
}

fn canon(t: &str) -> Option<String> {
    canonical::<Character>(t, Character::validate)
}

/// Everything a player's data must survive, checked on `c` reached from `prev`.
pub fn check(prev: &Character, c: &Character) {
    c.validate()
        .unwrap_or_else(|e| panic!("the sheet reached is refused by its own importer: {e}"));
    // Export → import.
    let text = export_one(c);
    assert!(text.len() <= MAX_IMPORT_BYTES);
    let back = parse_import(&text).unwrap_or_else(|e| panic!("its backup is refused: {e}"));
    assert_eq!(
        back,
        vec![c.clone()],
        "the backup brings back another character"
    );
    // Share link (packed as the browser packs it).
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(text.as_bytes(), 6);
    let url = link::make("https://roll.example", &packed);
    if url.len() <= link::MAX_LINK_CHARS {
        let payload = link::payload(&url).expect("its link is refused");
        let unpacked = miniz_oxide::inflate::decompress_to_vec_zlib(&payload).unwrap();
        let json = link::text_of(unpacked).expect("its link does not unpack");
        assert_eq!(
            parse_import(&json).expect("its link's character is refused"),
            back
        );
    }
    // Reload: saved, loaded, nothing quarantined.
    assert_eq!(&loaded(c.clone()), c, "a reload gives another character");
    let store = MemoryStore::new();
    save_character(&store, c).unwrap();
    save_index_with(&store, vec![c.id.clone()], 0).unwrap();
    let l = load_roster(&store, 0).unwrap();
    assert!(
        l.quarantined.is_empty(),
        "quarantined on reload: {:?}",
        l.quarantined
    );
    // Two tabs: this step here, the notes changed in the other tab since `prev`.
    let base = serde_json::to_string(prev).unwrap();
    let mine = serde_json::to_string(c).unwrap();
    let mut other = prev.clone();
    other.set_notes(if prev.notes == "Other tab" {
        "Other tab 2"
    } else {
        "Other tab"
    });
    let theirs = serde_json::to_string(&other).unwrap();
    let (base, mine, theirs) = (
        canon(&base).unwrap(),
        canon(&mine).unwrap(),
        canon(&theirs).unwrap(),
    );
    match reconcile(&base, &mine, &theirs, &[], canon) {
        Outcome::Merged(m) => {
            let merged: Character = serde_json::from_str(&m).unwrap();
            let mut want = c.clone();
            want.notes = other.notes.clone();
            assert_eq!(
                merged, want,
                "the two tabs' changes merge into something else"
            );
        }
        Outcome::Ask { conflicts, .. } => assert!(
            prev.notes != c.notes && conflicts.iter().all(|k| k.path == "notes"),
            "the two tabs conflict on fields only one changed: {conflicts:?}"
        ),
    }
}

/// The reference machine: the character as the player's taps leave it.
pub struct Machine<S>(PhantomData<S>);

impl<S: System> ReferenceStateMachine for Machine<S> {
    type State = Character;
    type Transition = Step<S::Edit>;

    fn init_state() -> BoxedStrategy<Character> {
        let fixture: Character = serde_json::from_str(S::fixture()).unwrap();
        let start = fixture.clone();
        prop_oneof![
            1 => Just(loaded(fixture)),
            3 => S::generated().prop_map(move |s| {
                let mut c = start.clone();
                c.sheet = S::wrap(s);
                loaded(c)
            }),
        ]
        .boxed()
    }

    fn transitions(c: &Character) -> BoxedStrategy<Step<S::Edit>> {
        prop_oneof![
            12 => S::edits(S::sheet(&c.sheet)).prop_map(Step::Sheet),
            1 => text().prop_map(Step::Rename),
            1 => text().prop_map(Step::Notes),
        ]
        .boxed()
    }

    fn apply(c: Character, t: &Step<S::Edit>) -> Character {
        step::<S>(&c, t)
    }
}

/// The system under test holds the state before the last step, for the two-tab merge.
pub struct Checked<S>(PhantomData<S>);

impl<S: System> StateMachineTest for Checked<S> {
    type SystemUnderTest = Character;
    type Reference = Machine<S>;

    fn init_test(c: &Character) -> Character {
        check(c, c);
        c.clone()
    }

    fn apply(prev: Character, c: &Character, _: Step<S::Edit>) -> Character {
        check(&prev, c);
        c.clone()
    }
}

/// Texts as players type them: empty, blank, short, long, past a limit, any script.
pub fn text() -> BoxedStrategy<String> {
    prop_oneof![
        Just(String::new()),
        Just("   ".to_string()),
        "[a-zA-Z ]{1,12}",
        "\\PC{1,40}",
        (150usize..260).prop_map(|n| "é".repeat(n)),
        (19_990usize..20_020).prop_map(|n| "x".repeat(n)),
    ]
    .boxed()
}

/// A list editor's edits on a list of `len` entries.
pub fn list_edit(len: usize) -> BoxedStrategy<ListEdit> {
    prop_oneof![
        text().prop_map(ListEdit::Add),
        (0..len + 2).prop_map(ListEdit::Remove),
    ]
    .boxed()
}

/// Numbers as typed into a field: near the limits, past them, anything.
pub fn number(lo: i32, hi: i32) -> BoxedStrategy<i32> {
    prop_oneof![
        4 => lo..=hi,
        1 => Just(lo),
        1 => Just(hi),
        1 => (lo - 20)..lo,
        1 => (hi + 1)..(hi + 20),
        1 => any::<i32>(),
    ]
    .boxed()
}

/// An index into a list of `len`, sometimes one past it.
pub fn index(len: usize) -> BoxedStrategy<usize> {
    (0..len + 1).boxed()
}
