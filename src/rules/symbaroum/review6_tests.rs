//! The Symbaroum review's turn-6 items (`rules-review/symbaroum.md`, round 6): each asserts the
//! review's exact value or refusal.

use super::combat::{npc, Npc};
use super::referee::{offers, resolve, Action, Strike};
use super::{death_chance_within, SAttr, Shield, SymbaroumSheet, Weapon, WeaponQuality};
use crate::rules::dice::{Chance, ScriptedSource};
use crate::rules::encounter::referee::{resolve_turn, turn_offers, Offer, Turn};
use crate::rules::encounter::systems::SYMBAROUM;
use crate::rules::encounter::{Combatant, Event, State};
use crate::rules::referee::Intent;

fn go(s: &State, who: u32, a: Action, dice: &[u32]) -> Result<State, String> {
    let e = resolve(s, who, a, &mut ScriptedSource::new(dice.to_vec()))?;
    let mut after = s.clone();
    after.apply(&e);
    Ok(after)
}

fn then(s: &State, e: Event) -> State {
    let mut after = s.clone();
    after.apply(&e);
    after
}

fn pools(s: &State, who: u32) -> Vec<i32> {
    s.get(who).unwrap().pools.clone()
}

fn weapon(name: &str, damage: &str, qs: &[WeaponQuality]) -> Weapon {
    Weapon {
        name: name.into(),
        damage: damage.into(),
        qualities: qs.to_vec(),
        attr: SAttr::Accurate,
    }
}

/// A player character from a sheet: Accurate 12, Quick `quick`, these weapons and shield.
fn pc(name: &str, quick: i32, ws: Vec<Weapon>, shield: Shield) -> Combatant {
    let mut s = SymbaroumSheet {
        weapons: ws,
        shield,
        ..SymbaroumSheet::default()
    };
    s.attributes[SAttr::Accurate.index()] = 12;
    s.attributes[SAttr::Quick.index()] = quick;
    super::combat::combatant(name, &s, true, None)
}

fn sword() -> Vec<Weapon> {
    vec![weapon("Sword", "1d8", &[])]
}

/// A goblin: Defense 11, Quick `quick`, 1d8 against 1d4 armor.
fn goblin(name: &str, quick: i32) -> Combatant {
    npc(
        name,
        &Npc {
            defense: 11,
            quick,
            weapon: "1d8".into(),
            armor: "1d4".into(),
            ..Npc::default()
        },
    )
}

fn started(cast: Vec<Combatant>, extra: &[Event]) -> State {
    let mut ev: Vec<Event> = cast.into_iter().map(Event::Join).collect();
    ev.push(Event::Start);
    ev.extend_from_slice(extra);
    State::replay(&SYMBAROUM, &ev)
}

fn offer(s: &State, who: u32, f: impl Fn(&Intent) -> bool) -> Offer {
    offers(s, who)
        .into_iter()
        .chain(turn_offers(s, who))
        .find(|o| f(&o.action))
        .unwrap()
}

fn hit(target: u32) -> Strike {
    Strike {
        target,
        ..Strike::default()
    }
}

/// T6-1: a wait is instead of acting. A (Quick 14, Accurate 12) attacks the goblin B (Quick
/// 10, Defense 11) in round 1, then taps "Wait until last": refused, so it never gets a second
/// turn in round 1. A dying A that has taken its death test cannot wait for a second one: its
/// chance of dying in round 1 from 0 steps stays 1/20, not 19/200. Before acting, a wait is
/// still allowed.
#[test]
fn symbaroum_6_t6_1_a_wait_after_acting_is_refused() {
    let s = started(
        vec![pc("A", 14, sword(), Shield::None), goblin("B", 10)],
        &[],
    );
    assert_eq!((s.round, s.current), (1, Some(1)));
    assert_eq!(
        resolve_turn(&s, 1, Turn::WaitLast),
        Ok(Event::Place(1, None))
    );
    let attacked = go(&s, 1, Action::Attack(hit(2)), &[20, 1, 1]).unwrap();
    assert_eq!(pools(&attacked, 1), [0, 1]);
    let why = "a wait is instead of acting: A has already acted this turn";
    assert_eq!(resolve_turn(&attacked, 1, Turn::WaitLast), Err(why.into()));
    let wait = offer(&attacked, 1, |i| *i == Intent::Turn(Turn::WaitLast));
    assert_eq!(wait.refused.as_deref(), Some(why));
    // Having only moved is acting too.
    let moved = go(&s, 1, Action::Leave(false), &[]).unwrap();
    assert_eq!(resolve_turn(&moved, 1, Turn::WaitLast), Err(why.into()));
    // A with B, C after it: "act before C" is refused the same way.
    let s3 = started(
        vec![
            pc("A", 14, sword(), Shield::None),
            goblin("B", 10),
            goblin("C", 8),
        ],
        &[],
    );
    let attacked3 = go(&s3, 1, Action::Attack(hit(2)), &[20, 1, 1]).unwrap();
    assert_eq!(
        resolve_turn(&attacked3, 1, Turn::Before(3)),
        Err(why.into())
    );
    // Dying: the death test taken, no wait for a second one in round 1.
    let dying = started(
        vec![pc("A", 14, sword(), Shield::None), goblin("B", 10)],
        &[Event::Damage(vec![1], 20)],
    );
    assert!(dying.dying(dying.get(1).unwrap()));
    assert_eq!(death_chance_within(0, 1), Chance::ratio(1, 20));
    let tested = go(&dying, 1, Action::DeathTest, &[5, 1]).unwrap();
    assert_eq!(resolve_turn(&tested, 1, Turn::WaitLast), Err(why.into()));
    // Its turn ends; B's turn; then round 2, not A again in round 1.
    let s = then(&then(&tested, Event::Next), Event::Next);
    assert_eq!((s.round, s.current), (2, Some(1)));
}
