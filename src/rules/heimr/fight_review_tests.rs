//! The Heimr rules review's fight items (`rules-review/heimr.md`), each with the review's exact
//! value or refusal, worked through the referee (`offers` / `resolve`) or the rules it calls.

use super::combat::*;
use super::referee::{offers, resolve, Action};
use super::strike::{preview, strike_events, Strike};
use crate::rules::dice::{Chance, ScriptedSource};
use crate::rules::encounter::{systems::HEIMR, Duration, Event, State};
use crate::rules::heimr::challenge::dice_distribution;
use crate::rules::heimr::{roll_challenge, Attr, HeimrSheet};
use crate::rules::referee::Intent;

pub(super) fn near(c: Chance, num: f64, den: f64) {
    assert!(
        (c.p() - num / den).abs() < 1e-12,
        "{c:?} is not {num}/{den} = {}",
        num / den
    );
}

/// NPCs by name (the default: a medium weapon with C 1, P 1 → P 4 with its bonus; Agility
/// C 1, P 1; fatigue 3), ids 1, 2, …; started, and it is the first one's turn.
pub(super) fn fight(npcs: &[(&str, Npc)]) -> State {
    let mut s = State::new(&HEIMR);
    for (n, c) in npcs {
        s.apply(&Event::Join(npc(n, c)));
    }
    s.apply(&Event::Start);
    while s.current != Some(1) {
        s.apply(&Event::Next);
    }
    s
}

pub(super) fn plain(n: &str) -> (&str, Npc) {
    (n, Npc::default())
}

/// The archer of the shots: a bow with C 2, P 2 (+1 the bow's), fatigue 3.
pub(super) fn archer() -> (&'static str, Npc) {
    (
        "Archer",
        Npc {
            weapon: 5,
            weapon_cp: (2, 2),
            ..Npc::default()
        },
    )
}

/// `who` shows `kind` with `value` (its dice part 9, above any fatigue here).
pub(super) fn show(s: &mut State, who: u32, kind: Defence, value: i32) {
    for (i, v) in [
        (DEF_KIND, kind as i32),
        (DEF, value),
        (DEF_DICE, 9),
        (DEF_D6, 6),
    ] {
        s.apply(&Event::Set(who, i, v));
    }
}

pub(super) fn act(s: &mut State, who: u32, a: Action, dice: &[u32]) -> Result<(), String> {
    let e = resolve(s, who, &a, &mut ScriptedSource::new(dice.to_vec()))?;
    s.apply(&e);
    Ok(())
}

/// Taking up `weapon` and `shield` with these numbers: the fight's own (an NPC's), so the
/// intent keeps them (0).
pub(super) fn take_up(weapon: u32, shield: u32, wcp: (i32, i32), scp: (i32, i32)) -> TakeUp {
    TakeUp {
        weapon,
        shield,
        wcp,
        scp,
    }
}

/// A take-up with the numbers it is fought with, set on the combatant first.
pub(super) struct TakeUp {
    weapon: u32,
    shield: u32,
    wcp: (i32, i32),
    scp: (i32, i32),
}

impl TakeUp {
    pub(super) fn on(&self, s: &mut State, who: u32) -> Action {
        for (i, v) in [
            (WEAPON_C, self.wcp.0),
            (WEAPON_P, self.wcp.1),
            (SHIELD_C, self.scp.0),
            (SHIELD_P, self.scp.1),
        ] {
            s.apply(&Event::Set(who, i, v));
        }
        Action::TakeUp {
            weapon: self.weapon,
            shield: self.shield,
            ability: 0,
            off: 0,
        }
    }
}

pub(super) fn idx(n: &str) -> u32 {
    ACTIONS.iter().position(|a| a.0 == n).unwrap() as u32
}

/// #1: the grabber holds its foe by the part it hit and makes no defence rolls itself (C's
/// medium weapon, C 1 P 4, fatigue 3, against the grabber's dodge 9: 14/15, not 7/12); the
/// one held keeps its defences; letting go frees it.
#[test]
fn heimr_r1_the_grab_is_on_the_grabbers_side() {
    let mut s = fight(&[plain("A"), plain("B"), plain("C")]);
    show(&mut s, 1, Defence::Dodge, 9);
    let grab = Options {
        kind: Kind::BrawlBind,
        part: Some(Part::SwordArm),
        ..Options::default()
    };
    let r = roll_challenge(1, 1, &mut ScriptedSource::new(vec![6, 9]));
    let (out, e) = resolve_attack(&s, 1, 2, &grab, &r);
    assert_eq!(out, Outcome::Hit);
    s.apply(&e);
    assert!(s.has(1, "Grabbing") && s.has(2, "Bound arm"));
    assert_eq!(no_defence(&s, 1), Some("Grabbing"));
    assert_eq!(no_defence(&s, 2), None);
    let at_a = Strike {
        target: 1,
        ..Strike::default()
    };
    let pv = preview(&s, 3, &at_a).unwrap();
    near(pv.hits[0].1, 14.0, 15.0);
    // Letting go, on its own word, out of its turn too.
    let mut t = s.clone();
    t.apply(&Event::Next);
    act(&mut t, 1, Action::Release, &[]).unwrap();
    assert!(!t.has(1, "Grabbing") && !t.has(2, "Bound arm"));
    assert_eq!(
        act(&mut t, 1, Action::Release, &[]),
        Err("not something this combatant can do in this fight".into())
    );
    // An effect on the grabber breaks the hold too.
    let mut u = s.clone();
    u.apply(&effect_events(&u, 1, Effect::Drop, 2));
    assert!(!u.has(1, "Grabbing") && !u.has(2, "Bound arm"));
    // And so does a hit by the one it holds.
    let r = roll_challenge(1, 4, &mut ScriptedSource::new(vec![6, 9]));
    let (out, e) = resolve_attack(&s, 2, 1, &Options::default(), &r);
    assert_eq!(out, Outcome::Hit);
    s.apply(&e);
    assert!(!s.has(1, "Grabbing") && !s.has(2, "Bound arm"));
}

/// #3: a bystander in a shot's cluster showing a parry cannot stop the shot: it dodges now.
/// Archer (bow, C 2, P 2 + 1, fatigue 3) at A (dodge 8) beside B (parry 12; Agility C 1 P 1,
/// fatigue 3): A is hit 1/6, someone else 791/2400. Rolled: B's dodge is counted, its parry
/// stays shown.
#[test]
fn heimr_r3_a_bystanders_parry_does_not_stop_a_shot() {
    let mut s = fight(&[archer(), plain("A"), plain("B")]);
    show(&mut s, 2, Defence::Dodge, 8);
    show(&mut s, 3, Defence::Parry, 12);
    let shot = Strike {
        target: 2,
        cluster: vec![3],
        ..Strike::default()
    };
    let pv = preview(&s, 1, &shot).unwrap();
    near(pv.hits[0].1, 1.0, 6.0);
    near(pv.others.unwrap(), 791.0, 2400.0);
    // d6 4 at C 0: 4 + 3 = 7, A dodges; B dodges now: d6 6, d10 9 → 10; the re-roll at C 1:
    // d6 5, d10 8 → 8 + 3 = 11 > 10: B is hit.
    let e = strike_events(&s, 1, &shot, &mut ScriptedSource::new(vec![4, 6, 9, 5, 8])).unwrap();
    s.apply(&e);
    assert!(
        s.log
            .iter()
            .any(|l| l.text.contains("B dodges the shot, rolled now")),
        "{:?}",
        s.log
    );
    let b = s.get(3).unwrap();
    assert_eq!(b.stat(DEF_KIND), Defence::Parry as i32, "the parry stays");
    assert_eq!(uses(b, Defence::Dodge), 1);
    assert!(b.hp < 5, "hit");
}

/// #4: the block is rolled with the shield's own ability: Dueling C 2 P 3 for a light weapon,
/// Sword and shield C 0 P 1 for a small shield → block C 0, P 3; the default NPC's blow
/// (C 1, P 4, fatigue 3) then hits 149/180 (not 7157/36000).
#[test]
fn heimr_r4_the_block_uses_the_shields_ability() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    let take = take_up(1, 2, (2, 3), (0, 1));
    {
        let a = take.on(&mut s, 1);
        act(&mut s, 1, a, &[])
    }
    .unwrap();
    let block = defence_setup(&s, 1, Defence::Block).unwrap();
    assert_eq!((block.c.value, block.p.value), (0, 3));
    let parry = defence_setup(&s, 1, Defence::Parry).unwrap();
    assert_eq!((parry.c.value, parry.p.value), (2, 5));
    near(hit_vs_roll(1, 4, 3, (0, 3, 3)).0, 149.0, 180.0);
}

/// #5: a two-handed weapon leaves no hand for a shield: taking up a great weapon with a tower
/// shield is refused; a quick NPC given both has no shield, so no block.
#[test]
fn heimr_r5_a_two_handed_weapon_takes_no_shield() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    let take = |weapon| take_up(weapon, 4, (2, 1), (0, 1));
    for w in [3, 4, 5, 6] {
        let why = {
            let a = take(w).on(&mut s, 1);
            act(&mut s, 1, a, &[])
        }
        .unwrap_err();
        assert!(
            why.ends_with("takes both hands: nothing in the off hand"),
            "{why}"
        );
    }
    let giant = Npc {
        weapon: 3,
        shield: 4,
        ..Npc::default()
    };
    let s = fight(&[("Giant", giant), plain("Asa")]);
    assert_eq!(s.get(1).unwrap().stat(SHIELD), 0);
    assert_eq!(
        defence_setup(&s, 1, Defence::Block),
        Err("no shield to block with".into())
    );
}

/// #7: drawing (or putting away) a weapon along with a move is one standard action, once a
/// turn.
#[test]
fn heimr_r7_a_weapon_is_drawn_along_with_a_move() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut s, 1, Action::Act(idx("Move")), &[]).unwrap();
    act(&mut s, 1, Action::Act(idx("Draw a weapon")), &[]).unwrap();
    assert_eq!(
        s.get(1).unwrap().pools[STANDARD],
        0,
        "one standard action spent"
    );
    assert!(act(&mut s, 1, Action::Act(idx("Put a weapon away")), &[]).is_err());
    // The other way round: the move along with the draw.
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut s, 1, Action::Act(idx("Draw a weapon")), &[]).unwrap();
    act(&mut s, 1, Action::Act(idx("Move")), &[]).unwrap();
    assert_eq!(s.get(1).unwrap().pools[STANDARD], 0);
}

/// #14: a brawl at a foe holding a melee weapon provokes its attack first; only a dodge gets
/// the brawler past it. The Bandit (C 1, P 4, fatigue 3) against Asa's dodge 9: its attack
/// hits 7/12, Asa gets past 5/12. Past it (or having dodged its attack in its turn), the brawl
/// is rolled as usual.
#[test]
fn heimr_r14_a_brawl_against_a_weapon_provokes_its_attack() {
    let unarmed = Npc {
        weapon: 0,
        ..Npc::default()
    };
    let mut s = fight(&[("Asa", unarmed), plain("Bandit")]);
    show(&mut s, 1, Defence::Dodge, 9);
    let brawl = Strike {
        target: 2,
        kind: 1,
        ..Strike::default()
    };
    let pv = preview(&s, 1, &brawl).unwrap();
    assert_eq!(pv.hits[0].0, 1, "the chance it hits Asa");
    near(pv.hits[0].1, 7.0, 12.0);
    near(pv.past.unwrap(), 5.0, 12.0);
    // The Bandit rolls d6 3, d10 2 → 3 + 4 = 7 ≤ 9: dodged; the brawl is rolled at once:
    // d6 6, d10 9 → 10 against no defence: 1 HP.
    let e = strike_events(&s, 1, &brawl, &mut ScriptedSource::new(vec![3, 2, 6, 9])).unwrap();
    s.apply(&e);
    assert_eq!(s.get(2).unwrap().stat(PASSED_BY), 2, "{:?}", s.log);
    assert_eq!(s.get(2).unwrap().hp, 4, "the brawl is rolled past it");
    let pv = preview(&s, 1, &brawl).unwrap();
    assert!(pv.past.is_none());
    assert_eq!(pv.hits[0].0, 2);
    // Not dodged (no defence shown): the brawl fails, nothing more is rolled.
    let mut t = fight(&[("Asa", unarmed), plain("Bandit")]);
    let e = strike_events(&t, 1, &brawl, &mut ScriptedSource::new(vec![6, 9])).unwrap();
    t.apply(&e);
    assert!(t.log.iter().any(|l| l.text == "Asa’s brawl attack fails"));
    assert_eq!(t.get(2).unwrap().stat(PASSED_BY), 0);
}

/// #15: a light weapon in each hand: an attack with each, and a parry per melee weapon, the
/// second with the off hand's ability.
#[test]
fn heimr_r15_two_weapons_two_attacks_two_parries() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    let take = take_up(1, 5, (1, 2), (0, 1));
    {
        let a = take.on(&mut s, 1);
        act(&mut s, 1, a, &[])
    }
    .unwrap();
    assert_eq!(s.get(1).unwrap().stat(MELEE), 2);
    let first = defence_setup(&s, 1, Defence::Parry).unwrap();
    assert_eq!((first.c.value, first.p.value), (1, 4));
    s.apply(&Event::Spend(1, 4, 1)); // one parry used
    let second = defence_setup(&s, 1, Defence::Parry).unwrap();
    assert_eq!((second.c.value, second.p.value), (0, 3));
    s.apply(&Event::Spend(1, 4, 1));
    assert!(defence_setup(&s, 1, Defence::Parry).is_err());
    // The off hand's attack: C 0, P 1 + 2, damage 1.
    let off = Strike {
        target: 2,
        kind: 3,
        ..Strike::default()
    };
    let pv = preview(&s, 1, &off).unwrap();
    near(pv.hits[0].1, 4.0, 6.0);
    let e = strike_events(&s, 1, &off, &mut ScriptedSource::new(vec![6])).unwrap();
    s.apply(&e);
    assert_eq!(s.get(2).unwrap().hp, 4);
}

/// #16: an upcoming action not interrupted goes on as the next turn's standard action, or is
/// cancelled at its start; interrupted, the next turn is free.
#[test]
fn heimr_r16_an_upcoming_action_goes_on_or_is_cancelled() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut s, 1, Action::Act(idx("Crawl")), &[]).unwrap();
    assert_eq!(s.current, Some(2), "it ends the turn");
    s.apply(&Event::Next);
    assert_eq!(s.current, Some(1));
    assert!(s.has(1, "Upcoming"));
    assert_eq!(
        act(&mut s, 1, Action::Act(idx("Move")), &[]),
        Err("its upcoming action takes this turn's standard action: go on with it or cancel it first".into())
    );
    let mut go = s.clone();
    act(
        &mut go,
        1,
        Action::Act(idx("Go on with the upcoming action")),
        &[],
    )
    .unwrap();
    assert!(!go.has(1, "Upcoming"));
    assert_eq!(go.get(1).unwrap().pools[STANDARD], 0);
    act(
        &mut s,
        1,
        Action::Act(idx("Cancel the upcoming action")),
        &[],
    )
    .unwrap();
    act(&mut s, 1, Action::Act(idx("Move")), &[]).unwrap();
    // Interrupted by an attack: nothing goes on.
    let mut t = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut t, 1, Action::Act(idx("Crawl")), &[]).unwrap();
    let r = roll_challenge(1, 4, &mut ScriptedSource::new(vec![1, 1]));
    t.apply(&resolve_attack(&t, 2, 1, &Options::default(), &r).1);
    t.apply(&Event::Next);
    assert!(!t.has(1, "Upcoming"));
    act(&mut t, 1, Action::Act(idx("Move")), &[]).unwrap();
    assert_eq!(
        act(
            &mut t,
            1,
            Action::Act(idx("Go on with the upcoming action")),
            &[]
        ),
        Err("no upcoming action goes on this turn".into())
    );
}

/// #17: moving the injured part reopens a stabilised injury: mangled (HP −2), its clocks
/// start again from zero (150 and 300 rounds).
#[test]
fn heimr_r17_a_stabilised_injury_reopens() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    s.apply(&Event::Batch(hurt(&s, 1, 7, None)));
    assert!(dying(&s, 1));
    assert_eq!(
        act(&mut s, 1, Action::Reopen, &[]),
        Err("its injury is open: the clock runs".into())
    );
    act(&mut s, 1, Action::Stabilise, &[]).unwrap();
    assert!(!dying(&s, 1));
    act(&mut s, 1, Action::Reopen, &[]).unwrap();
    let clocks: Vec<(String, Duration)> = s
        .conditions_of(1)
        .map(|a| (a.name.clone(), a.dur))
        .filter(|a| a.0 == "Fading" || a.0 == "Bleeding out")
        .collect();
    assert_eq!(
        clocks,
        [
            ("Fading".to_owned(), Duration::Round { n: 150 }),
            ("Bleeding out".to_owned(), Duration::Round { n: 300 })
        ]
    );
    // Bloodied: nothing to reopen.
    let t = fight(&[plain("Asa"), plain("Bandit")]);
    assert!(!offers(&t, 1)
        .iter()
        .any(|o| o.action == Intent::Heimr(Action::Reopen)));
}

/// #18: the tower shield's Sta −1: stamina 1 (base fatigue 3) carrying one has base fatigue 4;
/// putting it down gives the 3 back.
#[test]
fn heimr_r18_the_tower_shield_costs_stamina() {
    let mut sheet = HeimrSheet::default();
    sheet.attributes[Attr::Sta.index()].value = 1;
    sheet.fatigue = 3;
    let mut s = State::new(&HEIMR);
    s.apply(&Event::Join(combatant("Asa", &sheet, None)));
    assert_eq!(s.get(1).unwrap().stat(BASE), 3);
    let take = |shield| take_up(2, shield, (1, 1), (0, 1));
    {
        let a = take(4).on(&mut s, 1);
        act(&mut s, 1, a, &[])
    }
    .unwrap();
    let c = s.get(1).unwrap();
    assert_eq!((c.stat(BASE), c.stat(FATIGUE)), (4, 4));
    {
        let a = take(2).on(&mut s, 1);
        act(&mut s, 1, a, &[])
    }
    .unwrap();
    assert_eq!(s.get(1).unwrap().stat(BASE), 3);
}

/// #21: a saved character takes up a melee weapon in the fight and may parry before its next
/// turn (Swordmanship C 1, P 2 + 3); the Bandit's blow (C 1, P 4, fatigue 3) against that
/// parry rolled now at fatigue 4: 1271/3600.
#[test]
fn heimr_r21_a_weapon_taken_up_brings_its_parry() {
    let sheet = HeimrSheet {
        fatigue: 4,
        ..HeimrSheet::default()
    };
    let mut s = State::new(&HEIMR);
    s.apply(&Event::Join(combatant("Asa", &sheet, None)));
    s.apply(&Event::Join(npc("Bandit", &Npc::default())));
    s.apply(&Event::Start);
    while s.current != Some(1) {
        s.apply(&Event::Next);
    }
    let take = take_up(2, 0, (1, 2), (0, 0));
    {
        let a = take.on(&mut s, 1);
        act(&mut s, 1, a, &[])
    }
    .unwrap();
    let parry = defence_setup(&s, 1, Defence::Parry).unwrap();
    assert_eq!((parry.c.value, parry.p.value, parry.fatigue), (1, 5, 4));
    near(hit_vs_roll(1, 4, 3, (1, 5, 4)).0, 1271.0, 3600.0);
    // Used once, it is gone until its next turn.
    s.apply(&Event::Spend(1, 4, 1));
    assert_eq!(
        defence_setup(&s, 1, Defence::Parry),
        Err("already parried since its last turn".into())
    );
}

/// #28: a guard ticked in its ward's cluster meets the shot once, as the guard: Archer C 2,
/// P 3, fatigue 3 at W (dodge 8) guarded by G (dodge 8): G 1/6, W 0, nobody else; G's dodge
/// counted once.
#[test]
fn heimr_r28_the_guard_in_the_cluster_is_met_once() {
    let mut s = fight(&[archer(), plain("W"), plain("G")]);
    show(&mut s, 2, Defence::Dodge, 8);
    show(&mut s, 3, Defence::Dodge, 8);
    s.apply(&Event::Set(3, GUARDING, 3));
    s.apply(&Event::Add(3, "Guarding".into(), Duration::Removed));
    let shot = Strike {
        target: 2,
        cluster: vec![3],
        ..Strike::default()
    };
    let pv = preview(&s, 1, &shot).unwrap();
    assert_eq!(pv.hits.iter().map(|h| h.0).collect::<Vec<_>>(), [3, 2]);
    near(pv.hits[0].1, 1.0, 6.0);
    assert!(pv.hits[1].1.is_impossible());
    assert!(pv.others.is_none());
    // d6 5 at C 0: 5 + 3 = 8: G dodges, W too; the shot ends there.
    let e = strike_events(&s, 1, &shot, &mut ScriptedSource::new(vec![5])).unwrap();
    s.apply(&e);
    assert_eq!(uses(s.get(3).unwrap(), Defence::Dodge), 1);
}

/// #29: a dropped weapon (an injured arm) or bound hands: no weapon attack, no parry; bound
/// hands hold no shield either. A brawl hit is still there.
#[test]
fn heimr_r29_dropped_or_bound_hands_use_no_weapon() {
    let mut s = fight(&[plain("Bandit"), plain("Asa")]);
    s.apply(&Event::Add(1, "Injured arm".into(), Duration::Removed));
    assert!(s.has(1, "Dropped"), "implied");
    let at = |kind| Strike {
        target: 2,
        kind,
        ..Strike::default()
    };
    assert_eq!(
        preview(&s, 1, &at(0)).err(),
        Some("dropped: no weapon attack".into())
    );
    assert_eq!(
        defence_setup(&s, 1, Defence::Parry),
        Err("dropped: no parry".into())
    );
    assert!(preview(&s, 1, &at(1)).is_ok());
    let shielded = Npc {
        shield: 2,
        ..Npc::default()
    };
    let mut t = fight(&[("Bandit", shielded), plain("Asa")]);
    t.apply(&effect_events(&t, 1, Effect::Bind(0), 2));
    assert_eq!(
        defence_setup(&t, 1, Defence::Block),
        Err("bound hands: no block".into())
    );
    assert_eq!(
        preview(&t, 1, &at(2)).err(),
        Some("bound hands: no grab".into())
    );
}

/// #34: climbing takes a hand: no shield (no block) while the weapon stays.
#[test]
fn heimr_r34_climbing_holds_no_shield() {
    let shielded = Npc {
        shield: 2,
        ..Npc::default()
    };
    let mut s = fight(&[("Bandit", shielded), plain("Asa")]);
    assert!(defence_setup(&s, 1, Defence::Block).is_ok());
    s.apply(&Event::Add(1, "Climbing".into(), Duration::Removed));
    assert_eq!(
        defence_setup(&s, 1, Defence::Block),
        Err("climbing: one hand holds on, so no shield".into())
    );
    assert!(defence_setup(&s, 1, Defence::Parry).is_ok());
}

/// #35: a shot from the blind spot into a cluster: the target's defence rolled now at −5 C,
/// then the others as usual; the chances against brute force over every die.
#[test]
fn heimr_r35_a_blind_spot_shot_into_a_cluster() {
    let mut s = fight(&[archer(), plain("A"), plain("B")]);
    show(&mut s, 2, Defence::Dodge, 8);
    show(&mut s, 3, Defence::Dodge, 7);
    s.apply(&Event::Add(2, "Blind spot".into(), Duration::Removed));
    let shot = Strike {
        target: 2,
        cluster: vec![3],
        blind: true,
        ..Strike::default()
    };
    let pv = preview(&s, 1, &shot).unwrap();
    // Brute force: the shot at C 0, P 3, fatigue 3; A dodges now at C 1 − 5 = −4, P 1,
    // fatigue 3; a dodge that holds sends it on to B (dodge 7) at C 1.
    let (shot_d, a_d, re_d) = (
        dice_distribution(0),
        dice_distribution(-4),
        dice_distribution(1),
    );
    let (mut hit_a, mut hit_b) = (0.0, 0.0);
    for (v, q) in shot_d.iter() {
        if v < 3 {
            continue;
        }
        for (y, r) in a_d.iter() {
            if y < 3 || v + 3 > y + 1 {
                hit_a += q * r;
            } else {
                for (w, t) in re_d.iter() {
                    if w >= 3 && w + 3 > 7 {
                        hit_b += q * r * t;
                    }
                }
            }
        }
    }
    near(pv.hits[0].1, hit_a, 1.0);
    near(pv.others.unwrap(), hit_b, 1.0);
    let e = strike_events(&s, 1, &shot, &mut ScriptedSource::new(vec![6; 12])).unwrap();
    s.apply(&e);
    assert!(s
        .log
        .iter()
        .any(|l| l.text.contains("defends from its blind spot, rolled now")));
}

/// #36: using a skill (its type as the skill says) cancels one's upcoming action and, while
/// weakened, costs 1 willpower more; helpless (or sleeping: prone and helpless) takes no
/// action and no defence, and a hit wakes a sleeper.
#[test]
fn heimr_r36_skills_helpless_and_sleeping() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    s.apply(&effect_events(&s, 1, Effect::Weaken, 4));
    act(&mut s, 1, Action::Act(idx("Use a skill (free)")), &[]).unwrap();
    assert_eq!(s.get(1).unwrap().stat(WILL), 1);
    act(&mut s, 1, Action::Act(idx("Use a skill (upcoming)")), &[]).unwrap();
    s.apply(&Event::Next);
    assert!(s.has(1, "Upcoming"));
    act(&mut s, 1, Action::Act(idx("Use a skill (standard)")), &[]).unwrap();
    assert!(!s.has(1, "Upcoming"), "the skill cancels it");
    let mut t = fight(&[plain("Asa"), plain("Bandit")]);
    t.apply(&Event::Add(1, "Sleeping".into(), Duration::Removed));
    assert!(t.has(1, "Prone") && t.has(1, "Helpless"));
    assert_eq!(
        act(&mut t, 1, Action::Act(idx("Move")), &[]),
        Err("Helpless: no actions".into())
    );
    assert_eq!(no_defence(&t, 1), Some("Helpless"));
    let r = roll_challenge(1, 4, &mut ScriptedSource::new(vec![6, 9]));
    t.apply(&resolve_attack(&t, 2, 1, &Options::default(), &r).1);
    assert!(!t.has(1, "Sleeping") && !t.has(1, "Helpless"));
}

/// #37: each defence and the initiative show how the roll may fall before it: dodge C 1,
/// P 1 reaches 9 or more with 3/10, and the chances match the distribution.
#[test]
fn heimr_r37_every_roll_shows_its_spread_first() {
    let s = fight(&[plain("Asa"), plain("Bandit")]);
    let dodge = defence_setup(&s, 1, Defence::Dodge).unwrap();
    let (ts, fails) = spread(&dodge);
    assert_eq!(ts.iter().map(|t| t.0).collect::<Vec<_>>(), [5, 7, 9]);
    near(ts[2].1, 3.0, 10.0);
    // Fails on fatigue 3: a dice part of 1 or 2.
    let d = dice_distribution(1);
    near(fails, d.p(1) + d.p(2), 1.0);
    for (t, c) in &ts {
        let want: f64 = d.iter().filter(|x| x.0 + 1 >= *t).map(|x| x.1).sum();
        near(*c, want, 1.0);
        assert!(c.p() >= 0.25);
    }
    let init = initiative_setup(s.get(1).unwrap());
    assert_eq!((init.c.value, init.p.value), (1, 2));
    assert_eq!(spread(&init).0.len(), 3);
}

/// Every chance of a shot with defences rolled at the moment (a blind spot, a dodge for a
/// parry) against brute force over every die, over a grid of small setups: the shot, a first
/// defender rolling now (dodge or block), a second showing a dodge or nothing.
#[test]
fn fresh_defences_in_a_shot_match_enumeration() {
    for (c, p, f) in [(0, 2, 2), (1, 0, 3), (-1, 3, 1), (2, 1, 4)] {
        for (dc, dp, df) in [(-2, 1, 2), (0, 0, 3), (1, 2, 1)] {
            for kind in [Defence::Dodge, Defence::Block] {
                for second in [
                    Shown::None,
                    Shown::Ready {
                        kind: Defence::Dodge,
                        value: 7,
                        fails: false,
                    },
                ] {
                    let fresh = Fresh {
                        kind,
                        c: dc,
                        p: dp,
                        fatigue: df,
                    };
                    let got = pass_on_chances(
                        p,
                        f,
                        &[
                            (Shown::None, Some(c), Some(fresh)),
                            (second, Some(c + 1), None),
                        ],
                    );
                    let (mut first, mut then) = (0.0, 0.0);
                    for (v, q) in dice_distribution(c).iter() {
                        if v < i64::from(f) {
                            continue;
                        }
                        for (y, r) in dice_distribution(dc).iter() {
                            if y < i64::from(df) || v + i64::from(p) > y + i64::from(dp) {
                                first += q * r;
                            } else if kind == Defence::Dodge {
                                for (w, t) in dice_distribution(c + 1).iter() {
                                    let beats = match second {
                                        Shown::Ready { value, .. } => {
                                            w + i64::from(p) > i64::from(value)
                                        }
                                        Shown::None => true,
                                    };
                                    if w >= i64::from(f) && beats {
                                        then += q * r * t;
                                    }
                                }
                            }
                        }
                    }
                    near(got[0], first, 1.0);
                    near(got[1], then, 1.0);
                    assert!(got[0].p() + got[1].p() <= 1.0 + 1e-12);
                }
            }
        }
    }
}

/// The chance of getting past a provoked attack against brute force: the foe's dice part
/// below its fatigue, or its result at most the brawler's shown dodge; with a block or parry
/// shown only the fatigue lets it through.
#[test]
fn getting_past_a_provoked_attack_matches_enumeration() {
    for (wc, wp) in [(-1, 1), (0, 2), (1, 1), (2, 3)] {
        for (kind, value) in [
            (Defence::Dodge, 6),
            (Defence::Dodge, 11),
            (Defence::Parry, 9),
        ] {
            let unarmed = Npc {
                weapon: 0,
                ..Npc::default()
            };
            let foe = Npc {
                weapon_cp: (wc, wp),
                ..Npc::default()
            };
            let mut s = fight(&[("Asa", unarmed), ("Foe", foe)]);
            show(&mut s, 1, kind, value);
            let brawl = Strike {
                target: 2,
                kind: 1,
                ..Strike::default()
            };
            let pv = preview(&s, 1, &brawl).unwrap();
            let (p, f) = (i64::from(wp + 3), 3);
            let (mut past, mut hit) = (0.0, 0.0);
            for (v, q) in dice_distribution(wc).iter() {
                if v < f || (kind == Defence::Dodge && v + p <= i64::from(value)) {
                    past += q;
                }
                if v >= f && v + p > i64::from(value) {
                    hit += q;
                }
            }
            near(pv.past.unwrap(), past, 1.0);
            near(pv.hits[0].1, hit, 1.0);
        }
    }
}

/// The review's notes: an attack rolled on its turn takes the standard action (none left, no
/// attack; one roll per weapon held), a hidden target is reached by a luck shot only, a charge
/// keeps the turn for its attack, and a character joining mangled with no clock running is
/// offered "The injury reopens" (the GM's call: stabilised or not).
#[test]
fn heimr_notes_an_attack_takes_the_standard_action_and_a_charge_its_attack() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    let at = Strike {
        target: 2,
        ..Strike::default()
    };
    act(&mut s, 1, Action::Attack(at.clone()), &[1, 1]).unwrap();
    assert_eq!(s.get(1).unwrap().pools[STANDARD], 0);
    assert_eq!(
        act(&mut s, 1, Action::Attack(at.clone()), &[1, 1]),
        Err("it has made its attack this turn".into())
    );
    // A charge: the turn goes on to its attack, which the charge has paid for.
    let mut t = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut t, 1, Action::Act(idx("Charge")), &[]).unwrap();
    assert_eq!(t.current, Some(1));
    act(&mut t, 1, Action::Attack(at.clone()), &[1, 1]).unwrap();
    // Hidden: only a luck shot.
    let mut u = fight(&[plain("Asa"), plain("Bandit")]);
    u.apply(&Event::Add(2, "Hidden".into(), Duration::Removed));
    assert_eq!(
        preview(&u, 1, &at).err(),
        Some("the target is hidden: only a luck shot reaches it".into())
    );
    let luck = Strike {
        luck: true,
        ..at.clone()
    };
    assert!(preview(&u, 1, &luck).is_ok());
    // Joined at −4 with no clock: the fight offers to start it.
    let mut v = State::new(&HEIMR);
    let mut c = npc("Asa", &Npc::default());
    c.hp = -4;
    v.apply(&Event::Join(c));
    assert!(offers(&v, 1)
        .iter()
        .any(|o| o.action == Intent::Heimr(Action::Reopen) && o.allowed()));
}
