//! A character and its fights, every shared value of every system in both directions, with
//! conflicts, undo, and fights received from another phone.

use super::*;
use crate::rules::edit::Edits;
use crate::rules::encounter::shared::{Keep, Linked};
use crate::rules::encounter::{Duration, Event, State};
use crate::rules::{aura, heimr, symbaroum, tempo, vogt};

/// The sheet of one system inside a `Sheet` (a test's own character), and its mutable twin.
macro_rules! access {
    ($get:ident, $mut:ident, $var:ident, $ty:ty) => {
        fn $get(sh: &Sheet) -> &$ty {
            match sh {
                Sheet::$var(x) => x,
                _ => unreachable!(),
            }
        }

        fn $mut(sh: &mut Sheet) -> &mut $ty {
            match sh {
                Sheet::$var(x) => x,
                _ => unreachable!(),
            }
        }
    };
}

const T0: u64 = 1_000;

/// A fight with an NPC and `ch` joined, started, and settled once (their first agreement).
fn linked(ch: &Character) -> (Encounter, State, Character, u32) {
    let system = ch.sheet.system().id;
    let mut e = Encounter::new("f".into(), "Fight".into(), system, T0).unwrap();
    let mut s = e.state();
    let npc = crate::rules::encounter::Combatant::new(s.rules, "Goblin", 8);
    e.push(Event::Join(npc), &mut s, T0);
    let join = join_event(ch, &s).unwrap();
    e.push(join, &mut s, T0);
    e.push(Event::Start, &mut s, T0);
    let who = s.combatants.last().unwrap().id;
    let mut ch = ch.clone();
    let out = settle(&mut e, &mut s, std::slice::from_ref(&ch), T0 + 1, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    if let Some(c) = out.sheets.into_iter().next() {
        ch = c;
    }
    assert!(e.agreed(who).is_some(), "the join is agreed");
    (e, s, ch, who)
}

/// Settles at `now` and returns the character as stored afterwards.
fn step(
    e: &mut Encounter,
    s: &mut State,
    ch: &Character,
    now: u64,
    keep: Option<Keep>,
) -> (Character, Outcome) {
    let out = settle(e, s, std::slice::from_ref(ch), now, keep);
    let next = out.sheets.first().cloned().unwrap_or_else(|| ch.clone());
    (next, out)
}

fn character(sheet: Sheet) -> Character {
    Character::new("c1".into(), "Asa".into(), sheet, T0 - 100)
}

/// The shared values a sheet holds, whatever its system.
fn values(sh: &Sheet) -> Vec<String> {
    fn of<S: Linked>(x: &S) -> Vec<String> {
        S::SHARED
            .iter()
            .map(|d| format!("{}={}", d.name, (d.sheet)(x).text()))
            .collect()
    }
    match sh {
        Sheet::Heimr(x) => of(x),
        Sheet::Symbaroum(x) => of(x),
        Sheet::Vogt(x) => of(x),
        Sheet::Aura(x) => of(x),
        Sheet::Tempo(x) => of(x),
    }
}

/// One shared value in both directions: the fight's change reaches the sheet (and undo takes
/// it back); the sheet's change reaches the fight as one logged, undoable step; both changed
/// asks, and either answer settles it.
struct Case {
    what: &'static str,
    sheet: Sheet,
    /// A change made in the fight to combatant `who`.
    in_fight: fn(&State, u32) -> Event,
    /// True when the sheet shows that change.
    on_sheet: fn(&Sheet) -> bool,
    /// A change made on the sheet.
    edit: fn(&mut Sheet),
    /// True when the fight shows that change.
    in_fight_now: fn(&State, u32) -> bool,
}

fn run(case: &Case) {
    let what = case.what;
    let (mut e, mut s, ch, who) = linked(&character(case.sheet.clone()));
    let before = values(&ch.sheet);

    // Fight → sheet.
    let agreed_before = e.agreed(who).cloned();
    let ev = (case.in_fight)(&s, who);
    e.push(ev, &mut s, T0 + 10);
    // A player's phone following this fight at the live table takes the same values through
    // the same sheet edits, from the keys the GM's phone sends; and an undo there sticks.
    let keys = fight_keys(&s, s.get(who).unwrap());
    let (followed, taken, rec) = follow(&ch, who, &keys, agreed_before.as_ref(), T0 + 11);
    let followed = followed.unwrap_or_else(|| panic!("{what}: the player's sheet follows"));
    assert!(
        (case.on_sheet)(&followed.sheet),
        "{what}: on the player's phone too"
    );
    assert!(!taken.is_empty(), "{what}: and says what it took");
    let (none, _, _) = follow(&followed, who, &keys, Some(&rec), T0 + 12);
    assert!(none.is_none(), "{what}: in step on the player's phone");
    let undone = Character {
        updated: T0 + 13,
        ..ch.clone()
    };
    let (kept, _, rec2) = follow(&undone, who, &keys, Some(&rec), T0 + 14);
    assert!(
        kept.is_none(),
        "{what}: the player's undo stays until the fight changes it again"
    );
    let (kept, _, _) = follow(&undone, who, &keys, Some(&rec2), T0 + 15);
    assert!(kept.is_none(), "{what}: and through the steps after it");
    let (ch2, out) = step(&mut e, &mut s, &ch, T0 + 11, None);
    assert_eq!(
        values(&followed.sheet),
        values(&ch2.sheet),
        "{what}: the player's phone and the GM's agree"
    );
    assert!(out.conflicts.is_empty(), "{what}: {out:?}");
    assert!(
        (case.on_sheet)(&ch2.sheet),
        "{what}: the sheet follows the fight: {:?}",
        values(&ch2.sheet)
    );
    assert_eq!(ch2.updated, T0 + 11);
    let (_, again) = step(&mut e, &mut s, &ch2, T0 + 12, None);
    assert!(
        again.sheets.is_empty() && !again.changed,
        "{what}: in step now: {again:?}"
    );
    // Undo in the fight: the sheet goes back.
    assert!(e.undo(T0 + 13));
    s = e.state();
    let (ch3, _) = step(&mut e, &mut s, &ch2, T0 + 14, None);
    assert_eq!(
        values(&ch3.sheet),
        before,
        "{what}: undo takes it back on the sheet"
    );

    // Sheet → fight, a later edit.
    let mut ch4 = ch3.clone();
    (case.edit)(&mut ch4.sheet);
    ch4.updated = T0 + 20;
    let events = e.cursor;
    let (ch5, out) = step(&mut e, &mut s, &ch4, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{what}: {out:?}");
    assert!(
        (case.in_fight_now)(&s, who),
        "{what}: the fight follows the sheet"
    );
    assert_eq!(e.cursor, events + 1, "{what}: one step");
    assert!(
        s.log.iter().any(|l| l.text.contains("as on the sheet")),
        "{what}: the log says why"
    );
    assert!(s.get(who).is_some());
    let (_, again) = step(&mut e, &mut s, &ch5, T0 + 22, None);
    assert!(
        again.sheets.is_empty() && !again.changed,
        "{what}: in step: {again:?}"
    );
    // Undo of the sync: the fight and the sheet go back.
    assert!(e.undo(T0 + 23));
    s = e.state();
    let (ch6, _) = step(&mut e, &mut s, &ch5, T0 + 24, None);
    assert!(!(case.in_fight_now)(&s, who), "{what}: undone in the fight");
    assert_eq!(values(&ch6.sheet), before, "{what}: and on the sheet");

    // Both sides change: asked, nothing moves; each answer settles it.
    for keep in [Keep::Sheet, Keep::Fight] {
        let (mut e, mut s, ch, who) = linked(&character(case.sheet.clone()));
        let ev = (case.in_fight)(&s, who);
        e.push(ev, &mut s, T0 + 10);
        let mut mine = ch.clone();
        (case.edit)(&mut mine.sheet);
        mine.updated = T0 + 30;
        let cursor = e.cursor;
        let (same, out) = step(&mut e, &mut s, &mine, T0 + 31, None);
        if (case.on_sheet)(&mine.sheet) && (case.in_fight_now)(&s, who) {
            continue; // both made the same change: nothing to ask
        }
        assert_eq!(out.conflicts.len(), 1, "{what}: asked");
        assert!(
            out.sheets.is_empty() && e.cursor == cursor,
            "{what}: nothing moved"
        );
        assert_eq!(same, mine);
        let (after, out) = step(&mut e, &mut s, &mine, T0 + 32, Some(keep));
        assert!(out.conflicts.is_empty(), "{what}");
        match keep {
            Keep::Sheet => assert!((case.in_fight_now)(&s, who), "{what}: the sheet's kept"),
            Keep::Fight => assert!((case.on_sheet)(&after.sheet), "{what}: the fight's kept"),
        }
        let (_, again) = step(&mut e, &mut s, &after, T0 + 33, None);
        assert!(
            again.conflicts.is_empty() && again.sheets.is_empty(),
            "{what}: settled"
        );
    }
}

fn heimr_sheet() -> Sheet {
    let mut h = heimr::HeimrSheet::default();
    for ed in [
        heimr::Edit::HpMax(10),
        heimr::Edit::Hp(10),
        heimr::Edit::WillpowerMax(6),
        heimr::Edit::Willpower(6),
    ] {
        h.apply(ed).unwrap();
    }
    Sheet::Heimr(h)
}

access!(heimr, heimr_mut, Heimr, heimr::HeimrSheet);

#[test]
fn heimr_shares_hp_willpower_fatigue_conditions_and_death() {
    use heimr::combat::{FATIGUE, WILL};
    use heimr::Edit as H;
    let cases = [
        Case {
            what: "heimr HP",
            sheet: heimr_sheet(),
            in_fight: |s, w| s.damage_events(vec![w], 3),
            on_sheet: |sh| heimr(sh).hp == 7,
            edit: |sh| heimr_mut(sh).apply(H::Hp(8)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().hp == 8,
        },
        Case {
            what: "heimr willpower",
            sheet: heimr_sheet(),
            in_fight: |_, w| Event::Batch(vec![Event::Note("luck".into()), Event::Set(w, WILL, 4)]),
            on_sheet: |sh| heimr(sh).willpower == 4,
            edit: |sh| heimr_mut(sh).apply(H::Willpower(2)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().stat(WILL) == 2,
        },
        Case {
            what: "heimr fatigue",
            sheet: heimr_sheet(),
            in_fight: |s, w| Event::Set(w, FATIGUE, s.get(w).unwrap().stat(FATIGUE) + 1),
            on_sheet: |sh| heimr(sh).fatigue == heimr::base_fatigue(0) + 1,
            edit: |sh| heimr_mut(sh).apply(H::Fatigue(9)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().stat(FATIGUE) == 9,
        },
        Case {
            what: "heimr conditions",
            sheet: heimr_sheet(),
            in_fight: |_, w| Event::Add(w, "Injured leg".into(), Duration::Removed),
            on_sheet: |sh| heimr(sh).conditions.iter().any(|c| c == "Injured leg"),
            edit: |sh| {
                heimr_mut(sh)
                    .apply(H::Conditions(crate::rules::edit::ListEdit::Add(
                        "weakened".into(),
                    )))
                    .unwrap()
            },
            in_fight_now: |s, w| s.has(w, "Weakened"),
        },
        Case {
            what: "heimr condition with its time left, written on the sheet",
            sheet: heimr_sheet(),
            in_fight: |_, w| Event::Add(w, "Injured leg".into(), Duration::Removed),
            on_sheet: |sh| heimr(sh).conditions.iter().any(|c| c == "Injured leg"),
            edit: |sh| {
                heimr_mut(sh)
                    .apply(H::Conditions(crate::rules::edit::ListEdit::Add(
                        "Dazed (3 rounds)".into(),
                    )))
                    .unwrap()
            },
            in_fight_now: |s, w| {
                s.conditions_of(w)
                    .any(|a| a.name == "Dazed" && s.remaining(a) == "3 rounds")
            },
        },
        Case {
            what: "heimr condition taken off the sheet",
            sheet: {
                let mut sh = heimr_sheet();
                heimr_mut(&mut sh)
                    .apply(H::Conditions(crate::rules::edit::ListEdit::Add(
                        "Weakened".into(),
                    )))
                    .unwrap();
                sh
            },
            in_fight: |_, w| Event::Add(w, "Injured leg".into(), Duration::Removed),
            on_sheet: |sh| heimr(sh).conditions.iter().any(|c| c == "Injured leg"),
            edit: |sh| {
                let at = heimr(sh)
                    .conditions
                    .iter()
                    .position(|c| c.starts_with("Weakened"))
                    .unwrap();
                heimr_mut(sh)
                    .apply(H::Conditions(crate::rules::edit::ListEdit::Remove(at)))
                    .unwrap()
            },
            in_fight_now: |s, w| !s.has(w, "Weakened"),
        },
        Case {
            what: "heimr death",
            sheet: heimr_sheet(),
            in_fight: |s, w| Event::Sync(w, s.get(w).unwrap().hp, 0, true),
            on_sheet: |sh| heimr(sh).conditions.iter().any(|c| c == heimr::DEAD),
            edit: |sh| heimr_mut(sh).apply(H::Dead(true)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().dead,
        },
    ];
    for c in &cases {
        run(c);
    }
}

#[test]
fn heimr_dying_clocks_reach_the_sheet_with_their_time_left_and_come_back() {
    let (mut e, mut s, ch, who) = linked(&character(heimr_sheet()));
    // Mangled: HP −2 starts the fading clock (the system's consequence of any HP change).
    let ev = s.damage_events(vec![who], 12);
    e.push(ev, &mut s, T0 + 10);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 11, None);
    let listed: Vec<&String> = heimr(&ch.sheet)
        .conditions
        .iter()
        .filter(|c| c.starts_with("Fading") || c.starts_with("Bleeding"))
        .collect();
    assert!(
        !listed.is_empty()
            && listed
                .iter()
                .all(|c| c.ends_with(" rounds)") || c.ends_with("round end)")),
        "{listed:?}"
    );
    let before = listed[0].clone();
    // A round later the time left on the sheet counts down.
    e.push(Event::Next, &mut s, T0 + 12);
    e.push(Event::Next, &mut s, T0 + 12);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 13, None);
    let now: Vec<&String> = heimr(&ch.sheet)
        .conditions
        .iter()
        .filter(|c| c.starts_with(before.split(" (").next().unwrap()))
        .collect();
    assert!(now.len() == 1 && *now[0] != before, "{before} → {now:?}");
    // HP edited on the sheet goes through the fight's own path: healed to 10, the clocks end.
    let mut mine = ch.clone();
    heimr_mut(&mut mine.sheet)
        .apply(heimr::Edit::Hp(10))
        .unwrap();
    mine.updated = T0 + 20;
    let (ch, out) = step(&mut e, &mut s, &mine, T0 + 21, None);
    assert!(out.conflicts.is_empty());
    assert_eq!(s.get(who).unwrap().hp, 10);
    assert!(
        !s.has(who, "Fading") && !s.has(who, "Bleeding out"),
        "healing ends the clocks"
    );
    assert!(
        !heimr(&ch.sheet)
            .conditions
            .iter()
            .any(|c| c.starts_with("Fading")),
        "and the sheet follows"
    );
}

/// A Heimr sheet after `edits`, saved at `at`.
fn heimr_edited(ch: &Character, at: u64, edits: &[heimr::Edit]) -> Character {
    let mut ch = ch.clone();
    for e in edits {
        heimr_mut(&mut ch.sheet).apply(e.clone()).unwrap();
    }
    ch.updated = at;
    ch
}

/// Steps the fight to the start of `who`'s next turn.
fn to_turn_of(e: &mut Encounter, s: &mut State, who: u32, at: u64) {
    e.push(Event::Next, s, at);
    while s.current != Some(who) {
        e.push(Event::Next, s, at);
    }
}

/// Heimr review #27: fatigue rises at most once a turn in a fight, sheet ⇄ fight. Asa (fatigue
/// 3) attacks on its turn and its fatigue rises to 4; a Play roll on the sheet then has no
/// chance to raise it (0 %), rolls a d6 of 1 and leaves it at 4; a rise brought from the sheet
/// anyway is refused by the fight (its rise pool) and the sheet takes 4 back. From Asa's next
/// turn a rise from the sheet is taken, and spends that turn's rise.
#[test]
fn heimr_r27_fatigue_rises_once_a_turn_whether_rolled_on_the_sheet_or_in_the_fight() {
    use heimr::combat::{fatigue_events, linked_may_rise, FATIGUE, RISE};
    use heimr::Edit as H;
    let sta = heimr::Attr::Sta.index();
    let start = heimr_edited(
        &character(heimr_sheet()),
        T0 - 100,
        &[H::Attribute(sta, 1), H::Fatigue(3)],
    );
    let (mut e, mut s, ch, who) = linked(&start);
    to_turn_of(&mut e, &mut s, who, T0 + 2);
    assert!(linked_may_rise(&s, &ch.id));
    // The attack's d6 2 is below fatigue 3: 3 → 4, the turn's rise spent.
    let rise = fatigue_events(s.get(who).unwrap(), 2);
    e.push(Event::Batch(rise), &mut s, T0 + 10);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 11, None);
    assert_eq!(heimr(&ch.sheet).fatigue, 4);
    assert_eq!(s.get(who).unwrap().pools[RISE], 0);
    // The Play roll: the fight says no rise is left, so 0 % and a d6 of 1 changes nothing.
    let may = linked_may_rise(&s, &ch.id);
    assert!(!may);
    assert_eq!(
        heimr::challenge::rise_chance(4, may),
        crate::rules::dice::Chance::Impossible
    );
    let roll = heimr::roll_challenge(0, 0, &mut crate::rules::dice::ScriptedSource::new(vec![1]));
    assert_eq!(roll.fatigue_after_if(4, may), 4);
    assert_eq!(roll.fatigue_after(4), 5, "out of a fight it would rise");
    // A rise written on the sheet anyway (another tab, an older app): the fight refuses it and
    // the sheet takes the fight's value back.
    let pushed = heimr_edited(&ch, T0 + 20, &[H::Fatigue(5)]);
    let (ch, out) = step(&mut e, &mut s, &pushed, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    assert_eq!(s.get(who).unwrap().stat(FATIGUE), 4, "the fight stays at 4");
    assert_eq!(heimr(&ch.sheet).fatigue, 4, "and so does the sheet");
    // Still so in the goblin's turn (the rise counts until Asa's next turn starts).
    e.push(Event::Next, &mut s, T0 + 30);
    assert_ne!(s.current, Some(who));
    assert!(!linked_may_rise(&s, &ch.id));
    // Asa's next turn: a rise from the sheet is the turn's rise.
    to_turn_of(&mut e, &mut s, who, T0 + 40);
    assert!(linked_may_rise(&s, &ch.id));
    let rolled = heimr_edited(&ch, T0 + 50, &[H::Fatigue(5)]);
    let (ch, _) = step(&mut e, &mut s, &rolled, T0 + 51, None);
    assert_eq!(s.get(who).unwrap().stat(FATIGUE), 5);
    assert_eq!(heimr(&ch.sheet).fatigue, 5);
    assert_eq!(s.get(who).unwrap().pools[RISE], 0, "the rise is spent");
    assert!(!linked_may_rise(&s, &ch.id));
    // A fall (a value typed lower) is taken as it is.
    let lower = heimr_edited(&ch, T0 + 60, &[H::Fatigue(3)]);
    step(&mut e, &mut s, &lower, T0 + 61, None);
    assert_eq!(s.get(who).unwrap().stat(FATIGUE), 3);
}

/// Heimr review #30: a turn-bound condition (Daze 2: "to end of Asa’s turn") leaves the sheet
/// when the fight ends before that turn is over, and a sheet still listing one from an earlier
/// fight does not bring it into the next: Asa joins that fight undazed.
#[test]
fn heimr_r30_turn_bound_conditions_end_with_the_fight_and_never_join_another() {
    use heimr::combat::{effect_events, Effect};
    let (mut e, mut s, ch, who) = linked(&character(heimr_sheet()));
    let daze = effect_events(&s, who, Effect::Daze, 2);
    e.push(daze, &mut s, T0 + 10);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 11, None);
    let dazed = "Dazed (to end of Asa’s turn)";
    assert!(
        heimr(&ch.sheet).conditions.iter().any(|c| c == dazed),
        "{:?}",
        heimr(&ch.sheet).conditions
    );
    // The GM ends the fight before Asa's turn is over.
    let mut ch = ch;
    for ev in s.ending() {
        e.push(ev, &mut s, T0 + 20);
        ch = step(&mut e, &mut s, &ch, T0 + 21, None).0;
    }
    assert!(s.ended);
    assert!(
        !heimr(&ch.sheet)
            .conditions
            .iter()
            .any(|c| c.starts_with("Dazed")),
        "{:?}",
        heimr(&ch.sheet).conditions
    );
    // A sheet that kept it (from before this was fixed) joins a later fight, older or newer
    // than that fight: not dazed, and the stale entry leaves the sheet.
    for at in [T0 - 100, T0 + 5] {
        let mut old = heimr_sheet();
        heimr_mut(&mut old)
            .apply(heimr::Edit::Conditions(crate::rules::edit::ListEdit::Add(
                dazed.into(),
            )))
            .unwrap();
        let mut stale = character(old);
        stale.updated = at;
        let (_, s, ch, who) = linked(&stale);
        assert!(!s.has(who, "Dazed"), "joins undazed");
        assert!(
            !heimr(&ch.sheet)
                .conditions
                .iter()
                .any(|c| c.starts_with("Dazed")),
            "{:?}",
            heimr(&ch.sheet).conditions
        );
    }
}

/// Heimr review #32: the sheet's HP max is the fight's. Asa 6/6 in a fight; the GM sets max 8
/// and HP 8 on the sheet: 8/8 on both sides (not healed only to the old 6 and put back to 6).
#[test]
fn heimr_r32_a_maximum_raised_on_the_sheet_is_the_fights() {
    use heimr::Edit as H;
    let six = heimr_edited(
        &character(heimr_sheet()),
        T0 - 100,
        &[H::HpMax(6), H::Hp(6)],
    );
    let (mut e, mut s, ch, who) = linked(&six);
    let c = s.get(who).unwrap();
    assert_eq!((c.hp, s.rules.hp_max(c)), (6, 6));
    let raised = heimr_edited(&ch, T0 + 20, &[H::HpMax(8), H::Hp(8)]);
    let (ch, out) = step(&mut e, &mut s, &raised, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let c = s.get(who).unwrap();
    assert_eq!((c.hp, s.rules.hp_max(c)), (8, 8));
    assert_eq!((heimr(&ch.sheet).hp, heimr(&ch.sheet).hp_max), (8, 8));
}

fn sym_sheet() -> Sheet {
    Sheet::Symbaroum(symbaroum::SymbaroumSheet::default())
}

access!(sym, sym_mut, Symbaroum, symbaroum::SymbaroumSheet);

#[test]
fn symbaroum_shares_toughness_death_steps_and_death() {
    use symbaroum::Edit as Y;
    let cases = [
        Case {
            what: "symbaroum toughness",
            sheet: sym_sheet(),
            in_fight: |s, w| s.damage_events(vec![w], 4),
            on_sheet: |sh| sym(sh).toughness == 6,
            edit: |sh| sym_mut(sh).apply(Y::Toughness(3)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().hp == 3,
        },
        Case {
            what: "symbaroum death steps",
            sheet: sym_sheet(),
            in_fight: |s, w| Event::Sync(w, s.get(w).unwrap().hp, 1, false),
            on_sheet: |sh| sym(sh).death_steps == 1,
            edit: |sh| sym_mut(sh).apply(Y::DeathSteps(2)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().death == 2,
        },
        Case {
            what: "symbaroum death",
            sheet: sym_sheet(),
            in_fight: |s, w| Event::Sync(w, s.get(w).unwrap().hp, 0, true),
            on_sheet: |sh| sym(sh).dead,
            edit: |sh| sym_mut(sh).apply(Y::Dead(true)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().dead,
        },
    ];
    for c in &cases {
        run(c);
    }
}

fn vogt_sheet() -> Sheet {
    Sheet::Vogt(vogt::VogtSheet::default())
}

access!(vg, vg_mut, Vogt, vogt::VogtSheet);

#[test]
fn vogt_shares_hp_exhaustion_statuses_injuries_and_death() {
    use vogt::Edit as V;
    let frozen = vogt::STATUSES
        .iter()
        .position(|s| s.name == "Frozen")
        .unwrap();
    assert_eq!(frozen, 5);
    let cases = [
        Case {
            what: "vogt HP",
            sheet: vogt_sheet(),
            in_fight: |s, w| s.damage_events(vec![w], 4),
            on_sheet: |sh| vg(sh).hp == 6,
            edit: |sh| vg_mut(sh).apply(V::Hp(5)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().hp == 5,
        },
        Case {
            what: "vogt exhaustion",
            sheet: vogt_sheet(),
            in_fight: |s, w| Event::Sync(w, s.get(w).unwrap().hp, 1, false),
            on_sheet: |sh| vg(sh).exhaustion == 1,
            edit: |sh| vg_mut(sh).apply(V::Exhaustion(2)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().death == 2,
        },
        Case {
            what: "vogt statuses",
            sheet: vogt_sheet(),
            in_fight: |_, w| Event::Add(w, "Scorched".into(), Duration::Removed),
            on_sheet: |sh| vg(sh).has("Scorched"),
            edit: |sh| vg_mut(sh).apply(V::Status(5)).unwrap(),
            in_fight_now: |s, w| s.has(w, "Frozen"),
        },
        Case {
            what: "vogt injuries",
            sheet: vogt_sheet(),
            in_fight: |s, w| vogt::combat::dismember(s, w, 2).unwrap(),
            on_sheet: |sh| vg(sh).injuries == ["Lost an arm"],
            edit: |sh| vg_mut(sh).apply(V::Dismember(4)).unwrap(),
            in_fight_now: |s, w| {
                s.has(w, "Lost a leg (movement 1)")
                    && s.get(w).unwrap().stat(vogt::combat::ONE_LEG) == 1
            },
        },
        Case {
            what: "vogt death",
            sheet: vogt_sheet(),
            in_fight: |s, w| vogt::combat::dismember(s, w, 7).unwrap(),
            on_sheet: |sh| vg(sh).dead,
            edit: |sh| vg_mut(sh).apply(V::Dead(true)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().dead,
        },
    ];
    for c in &cases {
        run(c);
    }
}

#[test]
fn vogt_damage_to_zero_reaches_the_sheet_with_its_exhaustion_and_prone() {
    let (mut e, mut s, ch, who) = linked(&character(vogt_sheet()));
    let ev = s.damage_events(vec![who], 30);
    e.push(ev, &mut s, T0 + 10);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 11, None);
    let v = vg(&ch.sheet);
    assert_eq!(
        (v.hp, v.exhaustion),
        (-20, 1),
        "HP below 0 as the damage took it"
    );
    assert!(v.has("Prone"));
    // A lost voice from the table: the injury and the status, both on the sheet.
    let ev = vogt::combat::dismember(&s, who, 5).unwrap();
    e.push(ev, &mut s, T0 + 12);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 13, None);
    assert!(vg(&ch.sheet).has("Mute"));
    assert!(vg(&ch.sheet)
        .injuries
        .iter()
        .any(|i| i == vogt::DISMEMBERMENT[4]));
}

fn aura_sheet() -> Sheet {
    let mut a = aura::AuraSheet::default();
    a.apply(aura::Edit::Aura(10)).unwrap();
    a.apply(aura::Edit::Stamina(6)).unwrap();
    Sheet::Aura(a)
}

access!(au, au_mut, Aura, aura::AuraSheet);

#[test]
fn aura_shares_aura_stamina_conditions_and_death() {
    use aura::combat::STAMINA;
    use aura::Edit as A;
    let cases = [
        Case {
            what: "aura aura",
            sheet: aura_sheet(),
            in_fight: |s, w| s.damage_events(vec![w], 3),
            on_sheet: |sh| au(sh).aura == au_start() - 3,
            edit: |sh| au_mut(sh).apply(A::Aura(2)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().hp == 2,
        },
        Case {
            what: "aura stamina",
            sheet: aura_sheet(),
            in_fight: |_, w| Event::Spend(w, STAMINA, 2),
            on_sheet: |sh| au(sh).stamina == au_stamina() - 2,
            edit: |sh| au_mut(sh).apply(A::Stamina(1)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().pools[STAMINA] == 1,
        },
        Case {
            what: "aura conditions",
            sheet: aura_sheet(),
            in_fight: |_, w| Event::Add(w, "Shaken".into(), Duration::Removed),
            on_sheet: |sh| au(sh).has("Shaken"),
            edit: |sh| au_mut(sh).apply(A::AddCondition("dazed".into())).unwrap(),
            in_fight_now: |s, w| s.has(w, "Dazed"),
        },
        Case {
            what: "aura death",
            sheet: aura_sheet(),
            in_fight: |_, w| Event::Dies(w),
            on_sheet: |sh| au(sh).dead,
            edit: |sh| au_mut(sh).apply(A::Dead(true)).unwrap(),
            in_fight_now: |s, w| s.get(w).unwrap().dead,
        },
    ];
    for c in &cases {
        run(c);
    }
}

fn au_start() -> i32 {
    au(&aura_sheet()).aura
}

fn au_stamina() -> i32 {
    au(&aura_sheet()).stamina
}

#[test]
fn aura_stamina_to_zero_on_the_sheet_knocks_out_in_the_fight_and_conditions_outside_stay() {
    let mut sh = aura_sheet();
    au_mut(&mut sh)
        .apply(aura::Edit::AddCondition("Cursed".into()))
        .unwrap();
    au_mut(&mut sh)
        .apply(aura::Edit::AddCondition("prone".into()))
        .unwrap();
    let (mut e, mut s, ch, who) = linked(&character(sh));
    assert!(
        s.has(who, "Prone"),
        "a sheet condition joins with the character"
    );
    let mut mine = ch.clone();
    au_mut(&mut mine.sheet)
        .apply(aura::Edit::Stamina(0))
        .unwrap();
    mine.updated = T0 + 20;
    let (ch, _) = step(&mut e, &mut s, &mine, T0 + 21, None);
    assert!(s.has(who, "Unconscious"));
    assert!(
        au(&ch.sheet).has("Unconscious"),
        "the consequence reaches the sheet"
    );
    // The fight removes Prone: it leaves the sheet; "Cursed" is the sheet's own.
    let cid = s
        .conditions_of(who)
        .find(|a| a.name == "Prone" && a.parent.is_none())
        .unwrap()
        .cid;
    e.push(Event::Remove(cid), &mut s, T0 + 30);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 31, None);
    assert!(!au(&ch.sheet).has("Prone") && au(&ch.sheet).has("Cursed"));
}

fn tempo_sheet() -> Sheet {
    Sheet::Tempo(tempo::TempoSheet::default())
}

access!(tp, tp_mut, Tempo, tempo::TempoSheet);

#[test]
fn tempo_shares_health() {
    run(&Case {
        what: "tempo health",
        sheet: tempo_sheet(),
        in_fight: |s, w| s.damage_events(vec![w], 4),
        on_sheet: |sh| tp(sh).health == 6,
        edit: |sh| tp_mut(sh).apply(tempo::Edit::Health(3)).unwrap(),
        in_fight_now: |s, w| s.get(w).unwrap().hp == 3,
    });
}

/// Phone A's fight, in which Asa took damage, sent to phone B.
fn sent_fight() -> (Encounter, Character, u32) {
    let ch = character(sym_sheet());
    let (mut e, mut s, ch, who) = linked(&ch);
    let ev = s.damage_events(vec![who], 4);
    e.push(ev, &mut s, T0 + 50);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 51, None);
    assert_eq!(sym(&ch.sheet).toughness, 6);
    let text = crate::storage::encounters::export_encounter(&e);
    (
        crate::storage::encounters::parse_encounter(&text).unwrap(),
        ch,
        who,
    )
}

#[test]
fn a_fight_received_from_a_phone_with_a_newer_copy_keeps_its_damage() {
    let (mut e, _, who) = sent_fight();
    let sent = e.clone();
    // Phone B holds the older copy of Asa (before the fight touched it).
    let older = character(sym_sheet());
    let mut s = e.state();
    let (ch, out) = step(&mut e, &mut s, &older, T0 + 60, None);
    assert_eq!(s.get(who).unwrap().hp, 6, "the fight keeps its damage");
    assert_eq!(e.events, sent.events, "shown as it was sent");
    assert_eq!(sym(&ch.sheet).toughness, 6, "the older sheet takes it");
    assert_eq!(out.taken, ["Asa: Toughness 10 → 6"]);
}

#[test]
fn a_fight_received_where_this_phone_changed_the_character_later_brings_it_in_logged() {
    // B's copy of Asa was edited after A's fight last agreed with A's copy: newer wins, as one
    // logged step the GM can undo.
    let (mut e, sent_ch, who) = sent_fight();
    let mut mine = character(sym_sheet());
    sym_mut(&mut mine.sheet)
        .apply(symbaroum::Edit::Toughness(9))
        .unwrap();
    mine.updated = sent_ch.updated + 100;
    let mut s = e.state();
    let cursor = e.cursor;
    let (_, out) = step(&mut e, &mut s, &mine, T0 + 200, None);
    assert!(out.conflicts.is_empty() && out.sheets.is_empty());
    assert_eq!(s.get(who).unwrap().hp, 9);
    assert_eq!(e.cursor, cursor + 1);
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "Asa, as on the sheet: Toughness 6 → 9"));
    // Then the fight changes it too, and so does the sheet: asked.
    let ev = s.damage_events(vec![who], 2);
    e.push(ev, &mut s, T0 + 300);
    sym_mut(&mut mine.sheet)
        .apply(symbaroum::Edit::Toughness(8))
        .unwrap();
    mine.updated = T0 + 400;
    let (_, out) = step(&mut e, &mut s, &mine, T0 + 401, None);
    assert_eq!(
        out.conflicts,
        ["Asa: Toughness 8 on the sheet, 7 in the fight"]
    );
}

#[test]
fn without_a_record_the_newer_document_wins_and_an_ended_fight_moves_nothing() {
    let (mut e, mut s, ch, who) = linked(&character(tempo_sheet()));
    e.agreed.clear();
    let ev = s.damage_events(vec![who], 2);
    e.push(ev, &mut s, T0 + 500);
    // The sheet is older than the fight: the fight wins.
    let (ch2, _) = step(&mut e, &mut s, &ch, T0 + 501, None);
    assert_eq!(tp(&ch2.sheet).health, 8);
    e.agreed.clear();
    let mut newer = ch2.clone();
    tp_mut(&mut newer.sheet)
        .apply(tempo::Edit::Health(5))
        .unwrap();
    newer.updated = T0 + 900;
    let (_, _) = step(&mut e, &mut s, &newer, T0 + 901, None);
    assert_eq!(s.get(who).unwrap().hp, 5, "a newer sheet wins");
    e.push(Event::End, &mut s, T0 + 950);
    let mut later = newer.clone();
    tp_mut(&mut later.sheet)
        .apply(tempo::Edit::Health(10))
        .unwrap();
    later.updated = T0 + 990;
    let (_, out) = step(&mut e, &mut s, &later, T0 + 991, None);
    assert_eq!(out, Outcome::default(), "an ended fight is left alone");
    assert_eq!(s.get(who).unwrap().hp, 5);
}

#[test]
fn joining_brings_the_sheets_conditions_and_injuries() {
    let mut h = heimr_sheet();
    heimr_mut(&mut h)
        .apply(heimr::Edit::Conditions(crate::rules::edit::ListEdit::Add(
            "Injured leg".into(),
        )))
        .unwrap();
    let (_, s, _, who) = linked(&character(h));
    assert!(s.has(who, "Injured leg") && s.has(who, "Prone"));
    let mut v = vogt_sheet();
    vg_mut(&mut v).apply(vogt::Edit::Status(5)).unwrap();
    vg_mut(&mut v).apply(vogt::Edit::Dismember(2)).unwrap();
    let (e, s, _, who) = linked(&character(v));
    assert!(s.has(who, "Frozen") && s.has(who, "Lost an arm"));
    assert_eq!(e.events.len(), 3, "one step for the join");
}

#[test]
fn records_travel_with_the_fight_and_bad_ones_are_refused() {
    let (e, _, _) = sent_fight();
    assert!(!e.agreed.is_empty());
    let mut v: serde_json::Value =
        serde_json::from_str(&crate::storage::encounters::export_encounter(&e)).unwrap();
    assert_eq!(
        e.agreed[0].values,
        ["6", "0", "false", "10", "5"],
        "toughness, death steps, dead, toughness max, pain threshold"
    );
    v["agreed"][0]["values"][0] = 7.into();
    assert!(
        crate::storage::encounters::parse_encounter(&v.to_string()).is_err(),
        "not text"
    );
    v["agreed"][0]["values"][0] = "x".repeat(2000 * 202 + 1).into();
    assert!(
        crate::storage::encounters::parse_encounter(&v.to_string()).is_err(),
        "too long"
    );
    v["agreed"][0]["values"] = serde_json::json!(vec!["1"; 17]);
    assert!(
        crate::storage::encounters::parse_encounter(&v.to_string()).is_err(),
        "too many"
    );
    v["agreed"][0]["values"] = serde_json::json!(["6", "0", "false"]);
    assert!(crate::storage::encounters::parse_encounter(&v.to_string()).is_ok());
    // An encounter stored before the records (format 1 without them) loads as it was.
    let mut v: serde_json::Value =
        serde_json::from_str(&crate::storage::encounters::export_encounter(&e)).unwrap();
    v.as_object_mut().unwrap().remove("agreed");
    let old = crate::storage::encounters::parse_encounter(&v.to_string()).unwrap();
    assert!(old.agreed.is_empty());
}

/// Issue 39 (found at the table): two writes of the fight to a player's sheet in a row, then
/// "Undo on my sheets": both are undone (HP 10 → 6 and Scorched), not only the last.
#[test]
fn undo_on_my_sheets_puts_back_every_write_it_listed() {
    let (mut e, mut s, ch, who) = linked(&character(vogt_sheet()));
    let mut undo = Vec::new();
    let mut held = ch.clone();
    let mut rec = e.agreed(who).cloned();
    let steps: [fn(&State, u32) -> Event; 2] = [
        |s, w| s.damage_events(vec![w], 4),
        |_, w| Event::Add(w, "Scorched".into(), Duration::Removed),
    ];
    for (k, step) in steps.iter().enumerate() {
        let ev = step(&s, who);
        e.push(ev, &mut s, T0 + 10 + k as u64);
        let keys = fight_keys(&s, s.get(who).unwrap());
        let now = T0 + 20 + k as u64;
        let (new, _, r) = follow(&held, who, &keys, rec.as_ref(), now);
        let new = new.expect("the sheet follows each step");
        undo.push((held.clone(), new.updated));
        held = new;
        rec = Some(r);
    }
    assert_eq!(vg(&held.sheet).hp, 6);
    assert!(vg(&held.sheet).has("Scorched"));
    let stored = held.updated;
    let back = undo_follow(undo.clone(), |_| Some(stored), T0 + 50);
    assert_eq!(back.len(), 1);
    assert_eq!(
        values(&back[0].sheet),
        values(&ch.sheet),
        "both writes undone"
    );
    assert_eq!(vg(&back[0].sheet).hp, 10);
    assert_eq!(back[0].updated, T0 + 50);
    // A sheet the player changed after the last write keeps it: nothing is undone.
    assert!(undo_follow(undo.clone(), |_| Some(stored + 1), T0 + 50).is_empty());
    // A sheet deleted since: nothing to put back.
    assert!(undo_follow(undo, |_| None, T0 + 50).is_empty());
}

/// Aura review N4: a winded death roll's exhaustion lasts to the end of the next round on the
/// sheet too; it counts down with the fight, and it lapses when the GM ends the fight, so the
/// sheet's energy per round is 3 only while it lasts.
#[test]
fn aura_n4_a_fights_timed_exhaustion_reaches_the_sheet_with_its_time_and_lapses_at_the_end() {
    let mut sh = aura_sheet();
    au_mut(&mut sh).apply(aura::Edit::Aura(0)).unwrap();
    let (mut e, mut s, ch, who) = linked(&character(sh));
    let five = au(&ch.sheet).energy_per_round().0;
    assert_eq!(five, 5, "stamina 6 gives 5 energy a round");
    let roll = aura::combat::death_roll_events(&s, who, 17);
    e.push(roll, &mut s, T0 + 10);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 11, None);
    assert_eq!(au(&ch.sheet).conditions, vec![aura::WINDED.to_owned()]);
    assert_eq!(au(&ch.sheet).energy_per_round().0, 3);
    // The round ends: one round left.
    e.push(Event::Next, &mut s, T0 + 20);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert_eq!(au(&ch.sheet).conditions, vec!["Exhausted (to round end)"]);
    assert_eq!(au(&ch.sheet).energy_per_round().0, 3);
    // The GM ends the fight: the round-bound exhaustion lapses and the sheet learns it.
    let mut ch = ch;
    for ev in s.ending() {
        e.push(ev, &mut s, T0 + 30);
        ch = step(&mut e, &mut s, &ch, T0 + 31, None).0;
    }
    assert!(s.ended);
    assert!(
        au(&ch.sheet).conditions.is_empty(),
        "{:?}",
        au(&ch.sheet).conditions
    );
    assert_eq!(au(&ch.sheet).energy_per_round().0, five);
}

/// Aura review N4, the other way: a sheet's timed condition joins a fight with its time, and an
/// injury's lasting exhaustion stays lasting (both may be had at once).
#[test]
fn aura_n4_a_sheets_timed_exhaustion_joins_the_fight_with_its_time() {
    let mut sh = aura_sheet();
    au_mut(&mut sh).apply(aura::Edit::Aura(0)).unwrap();
    au_mut(&mut sh).apply(aura::Edit::DeathRoll(17)).unwrap();
    au_mut(&mut sh)
        .apply(aura::Edit::AddCondition("Dazed (to round end)".into()))
        .unwrap();
    let (_, s, _, who) = linked(&character(sh));
    let durs: Vec<(String, Duration)> = s
        .conditions_of(who)
        .filter(|a| a.parent.is_none())
        .map(|a| (a.name.clone(), a.dur))
        .collect();
    assert_eq!(
        durs,
        vec![
            ("Dazed".to_owned(), Duration::Round { n: 1 }),
            ("Exhausted".to_owned(), Duration::Round { n: 2 }),
        ]
    );
}

/// Aura review O2, sheet ⇄ fight: the melee weapon in hand is one value, the fight's. Taken in
/// hand in the fight, it is the held weapon on the sheet; held on the sheet beside a running
/// fight, it does not come into the hand there for free (review T6-5).
#[test]
fn aura_o2_the_weapon_in_hand_is_the_same_on_the_sheet_and_in_the_fight() {
    let mut sh = aura_sheet();
    let a = au_mut(&mut sh);
    a.weapons[0].held = true;
    a.apply(aura::Edit::AddWeapon(aura::Weapon {
        name: "Spear".into(),
        damage: "1d10".into(),
        av: 2,
        held: false,
        ..aura::Weapon::default()
    }))
    .unwrap();
    let (mut e, mut s, ch, who) = linked(&character(sh));
    let held = |sh: &Sheet| -> Vec<String> {
        au(sh)
            .weapons
            .iter()
            .filter(|w| w.held)
            .map(|w| w.name.clone())
            .collect()
    };
    assert_eq!(held(&ch.sheet), ["Longsword"]);
    let mut dice = crate::rules::dice::ScriptedSource::new(Vec::new());
    let ev = aura::referee::resolve(&s, who, aura::referee::Action::Wield(2), &mut dice).unwrap();
    e.push(ev, &mut s, T0 + 10);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 11, None);
    assert_eq!(held(&ch.sheet), ["Spear"]);
    // The player holds the longsword again on the sheet: the fight keeps the spear in hand
    // (taking a weapon in hand there is an action with its price: Aura review T6-5), and the
    // sheet is put back to the fight's.
    let mut mine = ch.clone();
    au_mut(&mut mine.sheet)
        .apply(aura::Edit::ToggleHeld(1))
        .unwrap();
    au_mut(&mut mine.sheet)
        .apply(aura::Edit::ToggleHeld(0))
        .unwrap();
    mine.updated = T0 + 20;
    let (ch, _) = step(&mut e, &mut s, &mine, T0 + 21, None);
    assert_eq!(held(&ch.sheet), ["Spear"]);
    let hand = aura::gear::in_hand(s.get(who).unwrap(), false).unwrap();
    assert_eq!(hand.name, "Spear");
}

/// A Bo Vogt character linked to a fight (see [`linked`]) from this sheet.
fn vogt_linked(sh: vogt::VogtSheet) -> (Encounter, State, Character, u32) {
    linked(&character(Sheet::Vogt(sh)))
}

/// The sheet edited on the phone at `at` (newer than the fight's agreement).
fn vogt_edit(ch: &Character, at: u64, edits: &[vogt::Edit]) -> Character {
    let mut ch = ch.clone();
    for e in edits {
        vg_mut(&mut ch.sheet).apply(e.clone()).unwrap();
    }
    ch.updated = at;
    ch
}

/// N1: Frozen takes its die off STR and DEX once. The sheet's rungs join as they are before
/// statuses, and Frozen joins as the fight's condition: STR 3 → 2, DEX 2 → 1 in the fight as on
/// the sheet; the club's damage and the order's "smaller die" read those.
#[test]
fn vogt_n1_frozen_counts_once_after_joining() {
    use vogt::combat::{init_side, rung, Action, DEX, STR};
    let sh = vogt::VogtSheet {
        abilities: [3, 2, 2, 2],
        statuses: vec!["Frozen".into()],
        ..vogt::VogtSheet::default()
    };
    let (_, s, ch, who) = vogt_linked(sh);
    let sheet = vg(&ch.sheet);
    assert_eq!(
        (
            sheet.rung(vogt::Ability::Str),
            sheet.rung(vogt::Ability::Dex)
        ),
        (2, 1)
    );
    assert_eq!((rung(&s, who, STR), rung(&s, who, DEX)), (2, 1));
    // Club 1d6 + STR 2 against 7 HP: 1/3 (the app before: 1d6 + 1, 1/6).
    let e = vogt::damage_expr("1d6", rung(&s, who, STR)).unwrap();
    let d = vogt::damage_dist(&e, vogt::Takes::default()).unwrap();
    let drop = vogt::drop_chance(&d, 7).p();
    assert!((drop - 1.0 / 3.0).abs() < 1e-12, "{drop}");
    // Against an NPC of DEX rung 1 attacking with 1d8: equal DEX, the smaller die first: 11/16.
    let me = init_side(&s, who, Action::Attack(vogt::Dice::new(1, 6)));
    let npc = vogt::InitSide {
        dice: vogt::Dice::new(1, 8),
        dex: 1,
    };
    let first = vogt::before(me, npc).0.p();
    assert!((first - 11.0 / 16.0).abs() < 1e-12, "{first}");
}

/// N2: the fight's HP maximum follows the exhaustion level whichever side sets it: halved from
/// level 2, whole again below it, never halved twice.
#[test]
fn vogt_n2_the_hp_maximum_follows_exhaustion_both_ways() {
    let sh = vogt::VogtSheet {
        exhaustion: 1,
        ..vogt::VogtSheet::default()
    };
    let (mut e, mut s, ch, who) = vogt_linked(sh);
    let max = |s: &State| s.rules.hp_max(s.get(who).unwrap());
    // (a) The GM sets exhaustion 2 on the sheet: 5/5 on both sides, and a heal stays at 5.
    let ch = vogt_edit(&ch, T0 + 20, &[vogt::Edit::Exhaustion(2)]);
    assert_eq!((vg(&ch.sheet).hp, vg(&ch.sheet).hp_max_now()), (5, 5));
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert_eq!((s.get(who).unwrap().hp, max(&s)), (5, 5));
    e.push(s.heal_events(vec![who], 5, false), &mut s, T0 + 22);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 23, None);
    assert_eq!((s.get(who).unwrap().hp, vg(&ch.sheet).hp), (5, 5));
    // (b) Hurt to 0 in the fight; on the sheet the level goes back to 1 and HP to 8: 8/10 in
    // both places.
    e.push(s.damage_events(vec![who], 5), &mut s, T0 + 24);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 25, None);
    assert_eq!((vg(&ch.sheet).hp, vg(&ch.sheet).exhaustion), (0, 3));
    let ch = vogt_edit(
        &ch,
        T0 + 30,
        &[vogt::Edit::Exhaustion(1), vogt::Edit::Hp(8)],
    );
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 31, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    assert_eq!((s.get(who).unwrap().hp, max(&s)), (8, 10));
    assert_eq!((vg(&ch.sheet).hp, vg(&ch.sheet).hp_max_now()), (8, 10));
    // (c) A new drop to 0 makes level 2 again: the maximum is 5 once more, not 2.
    e.push(s.damage_events(vec![who], 8), &mut s, T0 + 32);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 33, None);
    assert_eq!((s.get(who).unwrap().death, max(&s)), (2, 5));
    assert_eq!(vg(&ch.sheet).hp_max_now(), 5);
}

/// #8 with a fight open: damage taken on the sheet adds its level and prone there, and the
/// fight takes the damage through its own path without a second level.
#[test]
fn vogt_r8_damage_on_the_sheet_reaches_the_fight_with_one_level() {
    let (mut e, mut s, ch, who) = vogt_linked(vogt::VogtSheet {
        hp: 3,
        ..vogt::VogtSheet::default()
    });
    let ch = vogt_edit(&ch, T0 + 20, &[vogt::Edit::Damage(5)]);
    assert_eq!((vg(&ch.sheet).hp, vg(&ch.sheet).exhaustion), (-2, 1));
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let c = s.get(who).unwrap();
    assert_eq!((c.hp, c.death), (-2, 1));
    assert!(s.has(who, "Prone"));
    assert_eq!((vg(&ch.sheet).hp, vg(&ch.sheet).exhaustion), (-2, 1));
}

/// #2 (c) and #7, sheet ⇄ fight: technique dice left are one value, and an arm lost in the
/// fight takes a hand on the sheet.
#[test]
fn vogt_r2_technique_dice_left_are_shared_with_the_sheet() {
    run(&Case {
        what: "vogt technique dice",
        sheet: Sheet::Vogt(vogt::VogtSheet {
            technique_dice: 4,
            ..vogt::VogtSheet::default()
        }),
        in_fight: |_, w| Event::Set(w, vogt::combat::TECH_LEFT, 1),
        on_sheet: |sh| vg(sh).technique_left() == 1 && vg(sh).technique_spent == 3,
        edit: |sh| vg_mut(sh).apply(vogt::Edit::TechniqueLeft(0)).unwrap(),
        in_fight_now: |s, w| s.get(w).unwrap().stat(vogt::combat::TECH_LEFT) == 0,
    });
    let (mut e, mut s, ch, who) = vogt_linked(vogt::VogtSheet {
        bag: false,
        ..vogt::VogtSheet::default()
    });
    e.push(
        vogt::combat::dismember(&s, who, 2).unwrap(),
        &mut s,
        T0 + 10,
    );
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 11, None);
    assert_eq!(vg(&ch.sheet).hands_now(), 1);
}

/// T6-4 (b), (c), sheet ⇄ fight: the rolls on the death and dismemberment table are one count.
/// (b) Level 4 is reached in the fight and rolled there (a 3): the sheet has no roll left to
/// make for it, so the level's death chance is 3/8, not 39/64 (two rolls). (c) The count follows
/// the levels: the GM takes the level back on the sheet, a new hit makes it 4 again, and its
/// roll is due in the fight.
#[test]
fn vogt_6_t6_4_the_table_rolls_are_one_count_for_sheet_and_fight() {
    use crate::rules::dice::ScriptedSource;
    use vogt::referee::{resolve, table_due, Action};
    let (mut e, mut s, ch, who) = vogt_linked(vogt::VogtSheet {
        hp: 1,
        exhaustion: 3,
        ..vogt::VogtSheet::default()
    });
    e.push(s.damage_events(vec![who], 5), &mut s, T0 + 10);
    assert_eq!(s.get(who).unwrap().death, 4);
    assert_eq!(table_due(s.get(who).unwrap()), 1);
    let roll = resolve(&s, who, &Action::Table, &mut ScriptedSource::new(vec![3])).unwrap();
    e.push(roll, &mut s, T0 + 11);
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 12, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let sheet = vg(&ch.sheet);
    assert_eq!((sheet.exhaustion, sheet.table_rolls), (4, 1));
    assert!(sheet.injuries.iter().any(|l| l == "Lost an eye"));
    assert_eq!(
        sheet.table_due(),
        0,
        "no second roll for level 4 on the sheet"
    );
    // The rolls made for level 4: the fight's one and none on the sheet: death 3/8.
    let rolls = 1 + sheet.table_due();
    let (all, live) = (8u64.pow(rolls), 5u64.pow(rolls));
    assert_eq!((all - live, all), (3, 8), "not 39/64");
    // (c) The level taken back on the sheet (4 → 3), then a new hit in the fight: 4 again.
    let ch = vogt_edit(&ch, T0 + 20, &[vogt::Edit::Exhaustion(3)]);
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let c = s.get(who).unwrap();
    assert_eq!((c.death, c.stat(vogt::combat::TABLE_ROLLS)), (3, 0));
    e.push(s.damage_events(vec![who], 1), &mut s, T0 + 22);
    assert_eq!(s.get(who).unwrap().death, 4);
    assert_eq!(
        table_due(s.get(who).unwrap()),
        1,
        "one roll for the new level"
    );
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 23, None);
    assert_eq!(vg(&ch.sheet).table_due(), 1);
}

/// T6-9: the HP maximum is the sheet's in the fight: raised mid-fight from 10 to 14 (HP 14),
/// the row reads 14/14, not 14/10; later, at exhaustion 2 and HP −1, a heal of 10 in the fight
/// stops at min(9, ⌊14/2⌋) = 7, not 5, and 7 is written to the sheet.
#[test]
fn vogt_6_t6_9_the_hp_maximum_is_shared_to_the_fight() {
    let (mut e, mut s, ch, who) = vogt_linked(vogt::VogtSheet::default());
    let ch = vogt_edit(&ch, T0 + 20, &[vogt::Edit::HpMax(14), vogt::Edit::Hp(14)]);
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let c = s.get(who).unwrap();
    assert_eq!((c.hp, s.rules.hp_max(c)), (14, 14));
    let ch = vogt_edit(
        &ch,
        T0 + 30,
        &[vogt::Edit::Exhaustion(2), vogt::Edit::Hp(-1)],
    );
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 31, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let c = s.get(who).unwrap();
    assert_eq!((c.hp, c.death, s.rules.hp_max(c)), (-1, 2, 7));
    e.push(s.heal_events(vec![who], 10, false), &mut s, T0 + 32);
    assert_eq!(s.get(who).unwrap().hp, 7);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 33, None);
    assert_eq!(vg(&ch.sheet).hp, 7);
}

/// T6-10: a typed HP is the same edit with or without a fight open: HP 3 corrected to 0 gives
/// exhaustion 0 and no Prone on the sheet alone, and the same on both sides with a fight open.
#[test]
fn vogt_6_t6_10_a_typed_hp_is_the_same_edit_with_or_without_a_fight() {
    let three = vogt::VogtSheet {
        hp: 3,
        ..vogt::VogtSheet::default()
    };
    let mut alone = three.clone();
    alone.apply(vogt::Edit::Hp(0)).unwrap();
    assert_eq!(
        (alone.hp, alone.exhaustion, alone.has("Prone")),
        (0, 0, false)
    );
    let (mut e, mut s, ch, who) = vogt_linked(three);
    let ch = vogt_edit(&ch, T0 + 20, &[vogt::Edit::Hp(0)]);
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let sheet = vg(&ch.sheet);
    assert_eq!(
        (sheet.hp, sheet.exhaustion, sheet.has("Prone")),
        (0, 0, false)
    );
    let c = s.get(who).unwrap();
    assert_eq!((c.hp, c.death, s.has(who, "Prone")), (0, 0, false));
}

/// A fight saved by an app with one shared value fewer (Bo Vogt's technique dice came later):
/// the value its record lacks is the sheet's, where the player kept it until then; the fight's
/// count from the join does not overwrite it.
#[test]
fn a_record_with_fewer_values_takes_the_sheets_for_the_ones_it_lacks() {
    let (mut e, mut s, ch, who) = vogt_linked(vogt::VogtSheet {
        technique_dice: 3,
        ..vogt::VogtSheet::default()
    });
    // As the older app left it: no "Technique dice" (nor the later "Table rolls") in the
    // record, and the player spent two on the sheet since the join.
    for a in &mut e.agreed {
        a.values.truncate(5);
    }
    let ch = vogt_edit(&ch, T0 + 20, &[vogt::Edit::TechniqueLeft(1)]);
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    assert_eq!(vg(&ch.sheet).technique_left(), 1);
    assert_eq!(s.get(who).unwrap().stat(vogt::combat::TECH_LEFT), 1);
    assert_eq!(
        e.agreed(who).unwrap().values.len(),
        8,
        "the record is whole again"
    );
}

/// Symbaroum N6: Strong raised mid-fight raises the fight's maximum, and the toughness raised
/// with it is the fight's too (12/12 on both sides, not 10 written back over the player's 12).
#[test]
fn symbaroum_n6_a_maximum_raised_on_the_sheet_is_the_fights() {
    use symbaroum::Edit as Y;
    let strong = symbaroum::SAttr::Strong.index();
    let (mut e, mut s, ch, who) = linked(&character(sym_sheet()));
    assert_eq!(s.rules.hp_max(s.get(who).unwrap()), 10);
    let mut ch = ch.clone();
    sym_mut(&mut ch.sheet)
        .apply(Y::Attribute(strong, 12))
        .unwrap();
    sym_mut(&mut ch.sheet).apply(Y::Toughness(12)).unwrap();
    ch.updated = T0 + 20;
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let c = s.get(who).unwrap();
    assert_eq!((c.hp, s.rules.hp_max(c)), (12, 12));
    assert_eq!(sym(&ch.sheet).toughness, 12);
    assert_eq!(
        c.stat(symbaroum::combat::PAIN),
        6,
        "the pain threshold follows Strong"
    );
    // And down again: Strong 10, the maximum 10, toughness follows it (N3) on both sides.
    let mut ch = ch.clone();
    sym_mut(&mut ch.sheet)
        .apply(Y::Attribute(strong, 10))
        .unwrap();
    ch.updated = T0 + 30;
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 31, None);
    let c = s.get(who).unwrap();
    assert_eq!(
        (c.hp, s.rules.hp_max(c), sym(&ch.sheet).toughness),
        (10, 10, 10)
    );
}

/// Symbaroum N8: raising toughness on the sheet is healing, whether a fight is open or not:
/// the death tests start over on both sides (the fight's heal rule, now the sheet's too).
#[test]
fn symbaroum_n8_a_toughness_raised_on_the_sheet_starts_the_death_tests_over_either_way() {
    use symbaroum::Edit as Y;
    // No fight: dying with 2 steps, the counter set to 3.
    let mut alone = symbaroum::SymbaroumSheet {
        toughness: 0,
        death_steps: 2,
        ..symbaroum::SymbaroumSheet::default()
    };
    alone.apply(Y::Toughness(3)).unwrap();
    assert_eq!((alone.toughness, alone.death_steps), (3, 0));
    // With a fight open: the same edit, the same result on both sides.
    let (mut e, mut s, ch, who) = linked(&character(Sheet::Symbaroum(symbaroum::SymbaroumSheet {
        toughness: 0,
        death_steps: 2,
        ..symbaroum::SymbaroumSheet::default()
    })));
    let mut ch = ch.clone();
    sym_mut(&mut ch.sheet).apply(Y::Toughness(3)).unwrap();
    ch.updated = T0 + 20;
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let c = s.get(who).unwrap();
    assert_eq!((c.hp, c.death), (3, 0));
    assert_eq!(
        (sym(&ch.sheet).toughness, sym(&ch.sheet).death_steps),
        (3, 0)
    );
}

/// Tempo N4: the defences, movement, dice, bonuses and the weapons in hand cross both ways,
/// and a maximum raised on the sheet is the fight's (Health 12/12, not healed back to 10).
#[test]
fn tempo_n4_defences_dice_bonuses_and_weapons_cross_both_ways() {
    use crate::rules::tempo::combat::{BONUS, COST, DEFENCE, MOVEMENT, T_DICE};
    use tempo::Edit as T;
    let parry = tempo::index("Parry").unwrap();
    let (mut e, mut s, ch, who) = linked(&character(tempo_sheet()));
    let ev = s.damage_events(vec![who], 4);
    e.push(ev, &mut s, T0 + 10);
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 11, None);
    assert_eq!(tp(&ch.sheet).health, 6);
    // On the sheet: CD 5 → 7, movement 3, 2d6, Parry +1, the sword's Parry 2 AP, max and
    // health 12.
    let mut ch = ch.clone();
    for ed in [
        T::Defence(7),
        T::Movement(3),
        T::Dice("2d6".into()),
        T::Bonus(parry, 1),
        T::Cost(0, parry, 2),
        T::HealthMax(12),
        T::Health(12),
    ] {
        tp_mut(&mut ch.sheet).apply(ed).unwrap();
    }
    ch.updated = T0 + 20;
    let (ch, out) = step(&mut e, &mut s, &ch, T0 + 21, None);
    assert!(out.conflicts.is_empty(), "{out:?}");
    let c = s.get(who).unwrap();
    assert_eq!(
        (c.stat(DEFENCE), c.stat(MOVEMENT), c.text(T_DICE)),
        (7, 3, "2d6")
    );
    assert_eq!((c.stat(BONUS + parry), c.stat(COST + parry)), (1, 2));
    assert_eq!((c.hp, s.rules.hp_max(c)), (12, 12));
    assert_eq!(tp(&ch.sheet).health, 12, "the player's edit stands");
    // In the fight (the GM's edit): Parry +3 and 3 AP reach the sheet.
    e.push(
        Event::Batch(vec![
            Event::Set(who, BONUS + parry, 3),
            Event::Set(who, COST + parry, 3),
        ]),
        &mut s,
        T0 + 30,
    );
    let (ch, _) = step(&mut e, &mut s, &ch, T0 + 31, None);
    let sh = tp(&ch.sheet);
    assert_eq!((sh.bonus("Parry"), sh.weapons[0].cost("Parry")), (3, 3));
    assert_eq!((sh.defence, sh.movement, sh.dice.as_str()), (7, 3, "2d6"));
}
