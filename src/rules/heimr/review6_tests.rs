//! The sixth Heimr rules review's items (`rules-review/heimr.md`, `heimr_6_…`), each with the
//! review's exact value or refusal, worked through the referee (`offers` / `resolve`).

use super::combat::*;
use super::fight_review_tests::{act, archer, fight, idx, near, plain, show};
use super::referee::{offers, Action};
use super::strike::{preview, Strike};
use crate::rules::encounter::{Duration, Event, State};
use crate::rules::referee::Intent;

fn refusal(s: &State, who: u32, a: &Action) -> Option<String> {
    offers(s, who)
        .into_iter()
        .find(|o| match (&o.action, a) {
            (Intent::Heimr(x), y) if x.picks() && y.picks() => {
                std::mem::discriminant(x) == std::mem::discriminant(y)
            }
            (Intent::Heimr(x), y) => x == y,
            _ => false,
        })
        .and_then(|o| o.refused)
}

/// T6-1: a target showing a parry can be shot at: it dodges the shot now (Agility C 1, P 1,
/// fatigue 3) and keeps its parry. The archer's shot (bow, C 2, P 2 + 1, fatigue 3) at the
/// Bandit showing parry 12 hits 28811/36000; a guard showing a parry dodges the same way.
#[test]
fn heimr_6_t6_1_a_target_showing_a_parry_dodges_a_shot() {
    let mut s = fight(&[archer(), plain("Bandit"), plain("Cara")]);
    show(&mut s, 2, Defence::Parry, 12);
    let shot = Strike {
        target: 2,
        ..Strike::default()
    };
    let pv = preview(&s, 1, &shot).unwrap();
    assert_eq!(pv.hits[0].0, 2);
    near(pv.hits[0].1, 28811.0, 36000.0);
    assert_eq!(refusal(&s, 1, &Action::Attack(shot.clone())), None);
    // Rolled: the Bandit dodges now, d6 6, d10 9 → 9 + 1 = 10; the shot d6 5, d10 8, d10 4 →
    // 8 + 3 = 11 > 10: hit. Its dodge is counted, its parry stays shown.
    let mut t = s.clone();
    act(&mut t, 1, Action::Attack(shot.clone()), &[6, 9, 5, 8, 4]).unwrap();
    let b = t.get(2).unwrap();
    assert!(b.hp < 5, "{:?}", t.log);
    assert_eq!(uses(b, Defence::Dodge), 1);
    assert_eq!((b.stat(DEF_KIND), b.stat(DEF)), (Defence::Parry as i32, 12));
    // A guard showing a parry: Cara guards the Bandit (no defence shown); the shot at the
    // Bandit meets Cara, who dodges it now: 28811/36000 on Cara.
    let mut g = s.clone();
    g.apply(&Event::Set(2, DEF_KIND, 0));
    show(&mut g, 3, Defence::Parry, 12);
    g.apply(&Event::Set(3, GUARDING, 3));
    g.apply(&Event::Add(
        3,
        "Guarding".into(),
        Duration::Start { who: 3, n: 1 },
    ));
    let pv = preview(&g, 1, &shot).unwrap();
    assert_eq!(pv.hits[0].0, 3);
    near(pv.hits[0].1, 28811.0, 36000.0);
    assert_eq!(refusal(&g, 1, &Action::Attack(shot)), None);
}

/// #20: a readied action is carried out when its trigger happens, on any phone. Asa readies
/// an action; in the Bandit's turn the trigger goes off, Asa moves before the Bandit and her
/// readied attack at it (no defence shown; C 1, P 4, fatigue 3) is rolled now: 14/15. It costs
/// no standard action (readying took it) and is one attack only.
#[test]
fn heimr_6_20_a_readied_attack_is_rolled_when_its_trigger_happens() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut s, 1, Action::Act(idx("Ready an action")), &[]).unwrap();
    while s.current != Some(2) {
        s.apply(&Event::Next);
    }
    assert!(s.has(1, "Readied"));
    let at = Strike {
        target: 2,
        ..Strike::default()
    };
    assert_eq!(
        refusal(&s, 1, &Action::Attack(at.clone())),
        Some("an attack is made on its own turn".into())
    );
    act(&mut s, 1, Action::Trigger, &[]).unwrap();
    assert_eq!(s.current, Some(2), "the Bandit's turn goes on");
    assert_eq!(
        s.order,
        vec![1, 2],
        "Asa acts before the Bandit from now on"
    );
    assert_eq!(refusal(&s, 1, &Action::Attack(at.clone())), None);
    let pv = preview(&s, 1, &at).unwrap();
    near(pv.hits[0].1, 14.0, 15.0);
    // d6 6, d10 9 → 9 + 4 = 13: hit for 2.
    act(&mut s, 1, Action::Attack(at.clone()), &[6, 9]).unwrap();
    assert_eq!(s.get(2).unwrap().hp, 3, "{:?}", s.log);
    assert!(!s.has(1, TRIGGERED));
    assert_eq!(
        refusal(&s, 1, &Action::Attack(at.clone())),
        Some("an attack is made on its own turn".into())
    );
    // Another readied action instead: a move, out of turn, once.
    let mut t = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut t, 1, Action::Act(idx("Ready an action")), &[]).unwrap();
    while t.current != Some(2) {
        t.apply(&Event::Next);
    }
    act(&mut t, 1, Action::Trigger, &[]).unwrap();
    act(&mut t, 1, Action::Act(idx("Move")), &[]).unwrap();
    assert_eq!(t.current, Some(2));
    assert_eq!(
        refusal(&t, 1, &Action::Act(idx("Move"))),
        Some("actions are taken on its own turn".into())
    );
}
