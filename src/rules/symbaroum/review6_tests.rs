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
    Strike { target, weapon: 0 }
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

/// T6-2: an attack's advantage and blindness are the fight's. Varla (Accurate 12) is Blind;
/// the goblin has Defense 11: the odds are (11/20)² = 121/400 and the roll takes two d20,
/// keeping the worse, whatever her phone sends (the intent carries the target and the weapon
/// only). A standing, unflanked goblin gives no advantage: no +2, no d4.
#[test]
fn symbaroum_6_t6_2_advantage_and_blindness_come_from_the_fight() {
    use super::combat::{attack_in, situation};
    use crate::rules::encounter::referee::replayed;
    use crate::rules::encounter::Duration;
    let blind = started(
        vec![pc("Varla", 14, sword(), Shield::None), goblin("Goblin", 10)],
        &[Event::Add(1, "Blind".into(), Duration::Removed)],
    );
    assert_eq!(situation(&blind, 1, 2, 0), (false, true, false));
    let odds = attack_in(&blind, 1, 2, 0).unwrap();
    assert_eq!(odds.hit, Chance::ratio(121, 400));
    let attack = Intent::Symbaroum(Action::Attack(hit(2)));
    let r = |d: &[(u32, u32)]| {
        replayed(d, |src| {
            crate::rules::referee::resolve(&blind, 1, &attack, src)
        })
    };
    // Two d20 (5 and 15: the worse, 15 > 11, misses), then the weapon's and the armor's dice.
    let e = r(&[(20, 5), (20, 15), (8, 8), (4, 1)]).unwrap().unwrap();
    let mut after = blind.clone();
    after.apply(&e);
    assert!(after
        .log
        .iter()
        .any(|l| l.text == "Varla attacks Goblin: d20 5, 15 → 15 > 11, miss"));
    assert_eq!(after.get(2).unwrap().hp, 10);
    assert!(
        r(&[(20, 5), (8, 8), (4, 1)]).is_err(),
        "one d20 is not the roll"
    );
    // On the wire: the target and the weapon, nothing else; a code with flags is refused.
    assert_eq!(attack.code(), [102, 2, 0]);
    assert_eq!(Intent::from_code(&[102, 2, 0]), Some(attack.clone()));
    assert_eq!(Intent::from_code(&[102, 2, 0, 1]), None);
    // Seeing, the goblin standing and not flanked: no advantage, 11/20 and one d20, no d4.
    let s = started(
        vec![pc("Varla", 14, sword(), Shield::None), goblin("Goblin", 10)],
        &[],
    );
    assert_eq!(situation(&s, 1, 2, 0), (false, false, false));
    assert_eq!(attack_in(&s, 1, 2, 0).unwrap().hit, Chance::ratio(11, 20));
    let r =
        |d: &[(u32, u32)]| replayed(d, |src| crate::rules::referee::resolve(&s, 1, &attack, src));
    assert!(r(&[(20, 3), (8, 4), (4, 1)]).unwrap().is_ok());
    assert!(
        r(&[(20, 3), (8, 4), (4, 1), (4, 1)]).is_err(),
        "no advantage d4"
    );
}

fn free(target: u32, weapon: u32) -> Action {
    Action::FreeAttack(Strike { target, weapon })
}

/// T6-3: a free attack only on a trigger, once per trigger. On A's own turn (Accurate 12, 1d8
/// against the goblin's Defense 11 and 1d4 armor) "Roll attack" then "Roll a free attack" twice:
/// the free attacks are refused, so the turn is one attack: 11/20 to hit and 407/320 damage on
/// average, not 7271/8000 and 1221/320. A foe withdrawing gives each enemy one; moving past
/// (another trigger) one more; the pain choice one to the dealer; a Long weapon's reach one a
/// fight; each lapses with its turn.
#[test]
fn symbaroum_6_t6_3_a_free_attack_needs_a_trigger_and_takes_it_once() {
    use super::combat::attack_in;
    use super::referee::free_attacks_due;
    let cast = || {
        vec![
            pc("A", 14, sword(), Shield::None),
            goblin("B", 10),
            goblin("C", 8),
        ]
    };
    let s = started(cast(), &[]);
    let one = attack_in(&s, 1, 2, 0).unwrap();
    assert_eq!(one.hit, Chance::ratio(11, 20));
    let per_turn = one.hit.p() * one.damage.unwrap().mean();
    assert!((per_turn - 407.0 / 320.0).abs() < 1e-12, "{per_turn}");
    let attacked = go(&s, 1, Action::Attack(hit(2)), &[15, 1, 1]).unwrap();
    let why = "no free attack is due to A";
    assert_eq!(go(&attacked, 1, free(2, 0), &[3, 8, 1]), Err(why.into()));
    let o = offer(&attacked, 1, |i| {
        matches!(i, Intent::Symbaroum(Action::FreeAttack(_)))
    });
    assert_eq!(o.refused.as_deref(), Some(why));
    // B withdraws on its turn: A has one free attack on B, not on C, and only one.
    let b_turn = then(&attacked, Event::Next);
    assert_eq!(b_turn.current, Some(2));
    let left = go(&b_turn, 2, Action::Leave(false), &[]).unwrap();
    assert_eq!(free_attacks_due(&left, 1), [(2, 0)]);
    assert_eq!(
        go(&left, 1, free(3, 0), &[3, 1, 1]),
        Err("no free attack is due against C".into())
    );
    let took = go(&left, 1, free(2, 0), &[15, 1, 1]).unwrap();
    assert!(took
        .log
        .iter()
        .any(|l| l.text == "A attacks B: d20 15 > 11, miss (a free attack)"));
    assert_eq!(go(&took, 1, free(2, 0), &[3, 1, 1]), Err(why.into()));
    // Withdrawing again is the same trigger: nothing more; moving past is another: one more.
    let again = go(&took, 2, Action::Leave(false), &[]).unwrap();
    assert_eq!(go(&again, 1, free(2, 0), &[3, 1, 1]), Err(why.into()));
    let past = go(&b_turn, 2, Action::Leave(true), &[]).unwrap();
    let took = go(&past, 1, free(2, 0), &[15, 1, 1]).unwrap();
    assert_eq!(go(&took, 1, free(2, 0), &[3, 1, 1]), Err(why.into()));
    let left = go(&took, 2, Action::Leave(false), &[]).unwrap();
    assert!(go(&left, 1, free(2, 0), &[15, 1, 1]).is_ok());
    let left = go(&b_turn, 2, Action::Leave(false), &[]).unwrap();
    // Not taken in B's turn: lapsed in C's.
    let lapsed = then(&left, Event::Next);
    assert_eq!(lapsed.current, Some(3));
    assert_eq!(go(&lapsed, 1, free(2, 0), &[3, 1, 1]), Err(why.into()));
    // The pain choice: A's hit of 7 over B's threshold 5, A chooses the free attack: one.
    let hurt = go(&s, 1, Action::Attack(hit(2)), &[3, 8, 1]).unwrap();
    assert_eq!(
        go(&hurt, 1, free(2, 0), &[3, 1, 1]),
        Err("first, the pain-threshold choice of its last hit".into())
    );
    let knocked = go(&hurt, 1, Action::Pain(true), &[]).unwrap();
    assert_eq!(go(&knocked, 1, free(2, 0), &[3, 1, 1]), Err(why.into()));
    let chose = go(&hurt, 1, Action::Pain(false), &[]).unwrap();
    assert_eq!(free_attacks_due(&chose, 1), [(2, 0)]);
    let took = go(&chose, 1, free(2, 0), &[15, 1, 1]).unwrap();
    assert_eq!(go(&took, 1, free(2, 0), &[3, 1, 1]), Err(why.into()));
    // A spear's reach: one free attack on an enemy without a Long weapon, once a fight.
    let spear = vec![weapon("Spear", "1d8", &[WeaponQuality::Long])];
    let s = started(vec![pc("A", 14, spear, Shield::None), goblin("B", 10)], &[]);
    let took = go(&s, 1, free(2, 0), &[15, 1, 1]).unwrap();
    assert_eq!(go(&took, 1, free(2, 0), &[3, 1, 1]), Err(why.into()));
    let later = then(&then(&took, Event::Next), Event::Next);
    assert_eq!(go(&later, 1, free(2, 0), &[3, 1, 1]), Err(why.into()));
}

/// #12: moving past an enemy with its combat action traded for the move goes around it: no
/// free attack (seed l.56); "Go around an enemy" spends both actions for the same. Moving past
/// on its movement action gives the goblin one.
#[test]
fn symbaroum_6_12_going_around_gives_no_free_attack() {
    use super::referee::free_attacks_due;
    let s = started(
        vec![pc("A", 14, sword(), Shield::None), goblin("B", 10)],
        &[],
    );
    let moved = then(&s, Event::Spend(1, 1, 1));
    assert_eq!(pools(&moved, 1), [1, 0]);
    let around = go(&moved, 1, Action::Leave(true), &[]).unwrap();
    assert_eq!(pools(&around, 1), [0, 0]);
    assert!(free_attacks_due(&around, 2).is_empty());
    assert_eq!(
        go(&around, 2, free(1, 0), &[3, 1, 1]),
        Err("no free attack is due to B".into())
    );
    let around = go(&s, 1, Action::GoAround, &[]).unwrap();
    assert_eq!(pools(&around, 1), [0, 0]);
    assert!(free_attacks_due(&around, 2).is_empty());
    let past = go(&s, 1, Action::Leave(true), &[]).unwrap();
    assert_eq!(pools(&past, 1), [1, 0]);
    assert_eq!(free_attacks_due(&past, 2), [(1, 0)]);
    // Going around needs the combat action.
    let spent = then(&s, Event::Spend(1, 0, 1));
    assert_eq!(
        go(&spent, 1, Action::GoAround, &[]),
        Err("going around takes the combat action: A has none left".into())
    );
    assert_eq!(
        Intent::from_code(&Intent::Symbaroum(Action::GoAround).code()),
        Some(Intent::Symbaroum(Action::GoAround))
    );
}

/// #8: (i) a dying character's turn does not end before its death test; (ii) one who wakes on
/// a 1 acts from its next turn, not at once.
#[test]
fn symbaroum_6_8_the_death_test_is_not_skipped_and_a_woken_pc_waits() {
    let dying = started(
        vec![pc("A", 14, sword(), Shield::None), goblin("B", 10)],
        &[Event::Damage(vec![1], 20)],
    );
    assert_eq!(dying.current, Some(1));
    let why = "A is dying: its death test comes first";
    assert_eq!(resolve_turn(&dying, 1, Turn::End), Err(why.into()));
    let end = offer(&dying, 1, |i| *i == Intent::Turn(Turn::End));
    assert_eq!(end.refused.as_deref(), Some(why));
    let tested = go(&dying, 1, Action::DeathTest, &[5, 1]).unwrap();
    assert_eq!(resolve_turn(&tested, 1, Turn::End), Ok(Event::Next));
    // (ii) A 1: awake with d4 3 toughness, and nothing more this turn.
    let woke = go(&dying, 1, Action::DeathTest, &[1, 3]).unwrap();
    let a = woke.get(1).unwrap();
    assert_eq!((a.hp, woke.dying(a)), (3, false));
    assert_eq!(pools(&woke, 1), [0, 0]);
    assert_eq!(
        go(&woke, 1, Action::Attack(hit(2)), &[3, 1, 1]),
        Err("A has no combat action left".into())
    );
    assert_eq!(
        go(&woke, 1, Action::Leave(false), &[]),
        Err("A has no movement or combat action left".into())
    );
    assert_eq!(resolve_turn(&woke, 1, Turn::End), Ok(Event::Next));
    // Its next turn: it acts.
    let next = then(&then(&woke, Event::Next), Event::Next);
    assert_eq!(next.current, Some(1));
    assert!(go(&next, 1, Action::Attack(hit(2)), &[3, 1, 1]).is_ok());
}

/// N4: a Blind character stands up with two d20, keeping the worse: Quick 12 gives
/// (12/20)² = 9/25 (36.0%), not 3/5.
#[test]
fn symbaroum_6_n4_a_blind_stand_up_keeps_the_worse_of_two() {
    use crate::rules::encounter::referee::replayed;
    use crate::rules::encounter::Duration;
    let s = started(
        vec![pc("A", 12, sword(), Shield::None), goblin("B", 10)],
        &[
            Event::Add(1, "Blind".into(), Duration::Removed),
            Event::Add(1, "Prone".into(), Duration::Removed),
        ],
    );
    let o = offer(&s, 1, |i| *i == Intent::Symbaroum(Action::StandUp));
    assert_eq!(o.odds, Some(Chance::ratio(9, 25)));
    assert_eq!(o.odds, Some(Chance::ratio(144, 400)));
    let r = |d: &[(u32, u32)]| replayed(d, |src| resolve(&s, 1, Action::StandUp, src));
    assert!(r(&[(20, 5)]).is_err(), "one d20 is not the roll");
    // 5 and 13: the worse, 13 > 12, fails: up only for the whole turn.
    let e = r(&[(20, 5), (20, 13)]).unwrap().unwrap();
    let mut after = s.clone();
    after.apply(&e);
    assert!(after
        .log
        .iter()
        .any(|l| l.text.contains("Quick test d20 5, 13 → 13 > 12")));
    assert_eq!(pools(&after, 1), [0, 0]);
    // Seeing: one d20, 3/5.
    let seeing = started(
        vec![pc("A", 12, sword(), Shield::None), goblin("B", 10)],
        &[Event::Add(1, "Prone".into(), Duration::Removed)],
    );
    let o = offer(&seeing, 1, |i| *i == Intent::Symbaroum(Action::StandUp));
    assert_eq!(o.odds, Some(Chance::ratio(3, 5)));
}

/// T6-4: a shield put away for a bow is taken up again with a one-handed weapon: Quick 14 and
/// a shield, Defense 15; the bow puts it away (14); the sword in hand again takes it up (15),
/// so a goblin (Accurate 10) hits 1/4 of the time, not 3/10.
#[test]
fn symbaroum_6_t6_4_the_shield_comes_back_with_a_one_handed_weapon() {
    use super::combat::{attack_in, DEFENSE, SHIELD};
    let arms = vec![
        weapon("Sword", "1d8", &[]),
        weapon("Bow", "1d8", &[WeaponQuality::Ranged]),
    ];
    let s = started(
        vec![pc("A", 14, arms, Shield::Shield), goblin("B", 10)],
        &[],
    );
    let def = |s: &State| s.get(1).unwrap().stat(DEFENSE);
    assert_eq!(def(&s), 15);
    let shot = go(
        &s,
        1,
        Action::Attack(Strike {
            target: 2,
            weapon: 1,
        }),
        &[15, 1, 1],
    )
    .unwrap();
    assert_eq!(def(&shot), 14);
    let b_turn = then(&shot, Event::Next);
    assert_eq!(
        attack_in(&b_turn, 2, 1, 0).unwrap().hit,
        Chance::ratio(3, 10)
    );
    let mine = then(&b_turn, Event::Next);
    assert_eq!(mine.current, Some(1));
    let drawn = go(&mine, 1, Action::Draw(0), &[]).unwrap();
    assert_eq!(pools(&drawn, 1), [1, 0], "a movement action");
    assert_eq!((def(&drawn), drawn.get(1).unwrap().stat(SHIELD)), (15, 1));
    assert!(drawn
        .log
        .iter()
        .any(|l| l.text == "A takes Sword in hand, the shield taken up again (Defense +1)"));
    assert_eq!(attack_in(&drawn, 2, 1, 0).unwrap().hit, Chance::ratio(1, 4));
}

/// T6-5: the surprise is rolled once, at the start, before the first turn ends: in round 3 it
/// is refused (no goblin sheathes a sword it has fought with), and a second roll in round 1
/// too.
#[test]
fn symbaroum_6_t6_5_the_surprise_is_rolled_once_at_the_start() {
    use super::combat::{surprise_events, surprise_refused, IN_HAND};
    let s = started(
        vec![pc("A", 14, sword(), Shield::None), goblin("B", 10)],
        &[],
    );
    assert_eq!(surprise_refused(&s, true), None);
    let once = then(&s, surprise_events(&s, true, 20).unwrap());
    let why = "the surprise has been rolled in this fight";
    assert_eq!(surprise_events(&once, true, 1), Err(why.into()));
    assert_eq!(surprise_events(&once, false, 1), Err(why.into()));
    let mut late = s.clone();
    for _ in 0..4 {
        late.apply(&Event::Next);
    }
    assert_eq!(late.round, 3);
    assert_eq!(
        surprise_events(&late, true, 1),
        Err("a surprise comes at the start: the first turn has ended".into())
    );
    assert_eq!(late.get(2).unwrap().stat(IN_HAND), 0);
    // The first turn over (B's begun): refused already in round 1.
    let second = then(&s, Event::Next);
    assert_eq!((second.round, second.current), (1, Some(2)));
    assert!(surprise_refused(&second, true).is_some());
}

/// N7: Medicus rolling 4 at 9 of 10 heals 1, and says so (the panel shows the rules' gain);
/// a dead character gains nothing from a herbal cure.
#[test]
fn symbaroum_6_n7_a_heal_says_what_it_adds() {
    use super::Edit;
    use crate::rules::edit::Edits;
    let mut s = SymbaroumSheet::default();
    assert_eq!(s.toughness_max(), 10);
    s.toughness = 9;
    assert_eq!(s.heal_gain(4), 1);
    s.apply(Edit::Heal(4)).unwrap();
    assert_eq!(s.toughness, 10);
    assert_eq!(s.heal_gain(1), 0);
    s.dead = true;
    s.toughness = 0;
    assert_eq!(s.heal_gain(1), 0);
}

/// N3: a sheet stored with Strong 11 and toughness 14 (by an older app) is repaired to 11 of
/// 11 when loaded; nothing else changes.
#[test]
fn symbaroum_6_n3_a_stored_toughness_above_its_maximum_is_repaired() {
    use crate::rules::edit::Edits;
    let mut s = SymbaroumSheet::default();
    s.attributes[SAttr::Strong.index()] = 11;
    s.toughness = 14;
    assert_eq!(s.toughness_max(), 11);
    let before = s.clone();
    s.repair();
    assert_eq!(s.toughness, 11);
    assert_eq!(
        SymbaroumSheet {
            toughness: 14,
            ..s.clone()
        },
        before
    );
    s.toughness = -3;
    s.repair();
    assert_eq!(s.toughness, 0);
}
