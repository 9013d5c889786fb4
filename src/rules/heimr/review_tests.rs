//! Issue 40's items of the Heimr rules review (`shared/rules-review/heimr.md`), the sheet side:
//! each test asserts the review's expected values.

use super::*;
use crate::rules::edit::Edits;
use crate::rules::encounter::{systems::HEIMR, Event, State};
use crate::rules::heimr::Edit;

/// One NPC (HP 5, willpower 3) in a started fight.
fn fight() -> (State, u32) {
    let mut s = State::new(&HEIMR);
    let c = npc(
        "Asa",
        &Npc {
            hp: 5,
            willpower: 3,
            ..Npc::default()
        },
    );
    s.apply(&Event::Join(c));
    s.apply(&Event::Start);
    let who = s.combatants[0].id;
    (s, who)
}

/// #10: the Effect panel's number follows the picked effect's default (Hit → 1: HP 5 → 4;
/// Drain → 1), not a 2 kept from the panel's start or from an earlier pick.
#[test]
fn heimr_r10_the_effect_number_follows_the_picked_effects_default() {
    let hit = Effect::ALL.iter().position(|&e| e == Effect::Hit).unwrap() as i32;
    let drain = Effect::ALL
        .iter()
        .position(|&e| e == Effect::Drain)
        .unwrap() as i32;
    let daze = Effect::ALL.iter().position(|&e| e == Effect::Daze).unwrap() as i32;
    assert_eq!(Effect::default_at(hit), 1);
    assert_eq!(Effect::default_at(drain), 1);
    // Daze (2 seconds) picked, then Hit again: back to 1.
    assert_eq!(Effect::default_at(daze), 2);
    assert_eq!(Effect::default_at(hit), 1);
    let (mut s, who) = fight();
    s.apply(&effect_events(
        &s,
        who,
        Effect::Hit,
        Effect::default_at(hit),
    ));
    assert_eq!(s.get(who).unwrap().hp, 4, "HP 5 → 4");
    s.apply(&effect_events(
        &s,
        who,
        Effect::Drain,
        Effect::default_at(drain),
    ));
    assert_eq!(s.get(who).unwrap().stat(WILL), 2, "willpower 3 → 2");
}

/// A sheet with HP max 8 and the given HP, stamina 1 (base fatigue 3) and fatigue 11.
fn sheet(hp: i32) -> HeimrSheet {
    let mut s = HeimrSheet::default();
    for e in [
        Edit::HpMax(8),
        Edit::Hp(hp),
        Edit::Attribute(Attr::Sta.index(), 1),
        Edit::Fatigue(11),
    ] {
        s.apply(e).unwrap();
    }
    s
}

/// #11: a short rest restores hit points to the maximum, only from 1 HP (the seed: "one or
/// more hit points remaining"; bloodied: no short rest); below that it is refused with a reason.
#[test]
fn heimr_r11_a_short_rest_restores_hp_only_from_1_hp() {
    let mut s = sheet(1);
    assert_eq!(s.short_rest_refusal(), None);
    s.apply(Edit::ShortRest).unwrap();
    assert_eq!(s.hp, 8, "HP 1 → 8");
    for hp in [0, -1, -4] {
        let mut s = sheet(hp);
        let why = s.short_rest_refusal().expect("refused while injured");
        assert!(why.contains("injured"), "{why}");
        assert_eq!(s.apply(Edit::ShortRest), Err(why.to_owned()));
        assert_eq!(s.hp, hp, "nothing restored");
    }
    // At full HP there is nothing to restore.
    let full = sheet(8);
    assert!(full.short_rest_refusal().is_some());
}

/// #12: out of a fight, a breather returns fatigue to its base in one step (11, base 3 → 3);
/// at or below the base it changes nothing.
#[test]
fn heimr_r12_a_breather_out_of_combat_returns_fatigue_to_base_at_once() {
    let mut s = sheet(8);
    assert_eq!(s.base_fatigue(), 3);
    s.apply(Edit::Breather).unwrap();
    assert_eq!(s.fatigue, 3, "11 → 3 in one step");
    s.apply(Edit::Fatigue(2)).unwrap();
    s.apply(Edit::Breather).unwrap();
    assert_eq!(s.fatigue, 2);
}

/// #19: HP below −5 is past the end of the seed's injury table: still mutilated, with a note
/// that says so (SPEC decision 7); −4 and −5 are mutilated without it.
#[test]
fn heimr_r19_hp_below_minus_5_notes_that_the_table_ends() {
    let at = |hp| Injury::from_hp(hp);
    assert_eq!(at(-9).level, InjuryLevel::Mutilated);
    assert_eq!(at(-9).label(), "Mutilated (the table ends at −5)");
    assert_eq!(at(-6).label(), "Mutilated (the table ends at −5)");
    assert_eq!(at(-5).label(), "Mutilated");
    assert_eq!(at(-4).label(), "Mutilated");
    assert_eq!(at(0).label(), "Bloodied");
    assert_eq!(
        sheet(-9).injury().label(),
        "Mutilated (the table ends at −5)"
    );
}
