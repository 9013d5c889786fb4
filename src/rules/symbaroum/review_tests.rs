//! The Symbaroum review's items (`rules-review/symbaroum.md`) that the fight's rules model: the
//! quick NPC's numbers, surprise, drawing, the shield, ranged weapons, leaving melee, first aid
//! and elixirs, and Defense from another attribute. Each asserts the review's exact value or
//! refusal.

use super::combat::{
    advantage, attack, combatant, npc, reach_free_attack, readying, surprise_events, surprise_in,
    weapons, Npc, DEFENSE, IN_HAND, SURPRISE_ATTACK,
};
use super::referee::{offers, resolve, Action, Aid, Strike};
use super::{Edit, SAttr, Shield, SymbaroumSheet, Weapon, WeaponQuality};
use crate::rules::dice::{Chance, ScriptedSource};
use crate::rules::edit::Edits;
use crate::rules::encounter::systems::SYMBAROUM;
use crate::rules::encounter::{Combatant, Duration, Event, State};
use crate::rules::referee::Intent;

fn near(c: Chance, p: f64) -> bool {
    (c.p() - p).abs() < 1e-12
}

fn go(s: &State, who: u32, a: Action, dice: &[u32]) -> Result<State, String> {
    let e = resolve(s, who, a, &mut ScriptedSource::new(dice.to_vec()))?;
    let mut after = s.clone();
    after.apply(&e);
    Ok(after)
}

fn then_next(s: &State) -> State {
    let mut after = s.clone();
    after.apply(&Event::Next);
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

/// A player character from a sheet with these weapons, Accurate 12 and Quick `quick`.
fn pc(name: &str, quick: i32, ws: Vec<Weapon>, shield: Shield) -> Combatant {
    let mut s = SymbaroumSheet {
        weapons: ws,
        shield,
        ..SymbaroumSheet::default()
    };
    s.attributes[SAttr::Accurate.index()] = 12;
    s.attributes[SAttr::Quick.index()] = quick;
    combatant(name, &s, true, None)
}

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

fn strike(target: u32, weapon: u32) -> Strike {
    Strike { target, weapon }
}

/// #3: the quick NPC's numbers are the GM's, the seed's defaults first: (a) a Strong 7
/// creature's pain threshold 4 (not 5 from its toughness 10): 1/4 over it, not 3/16; (b) its
/// Discreet 13 against Vigilant 11: 3/5, not 9/20; (c) a Long weapon of its own: no reach note.
#[test]
fn symbaroum_r3_the_quick_npc_has_the_numbers_the_fight_reads() {
    let d = Npc::default();
    assert_eq!(
        (d.toughness, d.pain, d.discreet),
        (10, 5, 10),
        "Strong 10's"
    );
    let creature = npc(
        "Beast",
        &Npc {
            pain: 4,
            weapon: "1d8".into(),
            ..Npc::default()
        },
    );
    let mut p = npc(
        "P",
        &Npc {
            weapon: "1d8".into(),
            ..Npc::default()
        },
    );
    p.pc = true;
    let a = attack(&p, &creature, false, false, false);
    assert!(near(a.hit, 0.5));
    assert!(near(a.over_pain, 0.25), "{:?}", a.over_pain);
    // (b) Goblins with a lowest Discreet of 13 against the players' highest Vigilant of 11.
    let sneaky = |n: &str| {
        npc(
            n,
            &Npc {
                discreet: 13,
                ..Npc::default()
            },
        )
    };
    let mut watcher = npc(
        "W",
        &Npc {
            vigilant: 11,
            ..Npc::default()
        },
    );
    watcher.pc = true;
    let s = started(vec![sneaky("G1"), sneaky("G2"), watcher], &[]);
    let (target, chance) = surprise_in(&s, false).unwrap();
    assert_eq!(target, 12);
    assert!(near(chance, 0.6));
    // (c) A spear against a spear: no reach; against a short blade, reach.
    let spear = pc(
        "S",
        10,
        vec![weapon("Spear", "1d8", &[WeaponQuality::Long])],
        Shield::None,
    );
    let quality = |q| {
        npc(
            "N",
            &Npc {
                quality: Some(q),
                ..Npc::default()
            },
        )
    };
    assert!(!reach_free_attack(&spear, &quality(WeaponQuality::Long)));
    assert!(reach_free_attack(&spear, &quality(WeaponQuality::Short)));
    assert!(weapons(&quality(WeaponQuality::Ranged))[0].is(WeaponQuality::Ranged));
    // Claws are always ready, surprised or not.
    let mut wolf = npc(
        "Wolf",
        &Npc {
            natural: true,
            ..Npc::default()
        },
    );
    wolf.stats[IN_HAND] = -1;
    assert_eq!(readying(&wolf, 0), Ok(None));
}

/// #6: a surprise gives each surpriser one free attack with the advantage at the start; later
/// in round 1 an attack on the surprised goblin (Defense 11) with Accurate 12 is 11/20 and
/// deals 37/16 on average (1d8 − 1d4), not 13/20 and 581/128.
#[test]
fn symbaroum_r6_surprise_advantage_is_the_surprisers_free_attack_only() {
    let sword = || vec![weapon("Sword", "1d8", &[])];
    // A (Quick 14) acts first, B the goblin second, C (Quick 5) last.
    let cast = vec![
        pc("A", 14, sword(), Shield::None),
        goblin("B", 10),
        pc("C", 5, sword(), Shield::None),
    ];
    let s0 = started(cast, &[]);
    let s = {
        let mut s = s0.clone();
        s.apply(&surprise_events(&s0, true, 1).unwrap());
        s
    };
    assert!(s.has(2, "Surprised") && !s.has(2, "Unaware"));
    // At the start (A's turn, the first): C's surprise attack has the advantage: 13/20.
    assert!(advantage(&s, 3, 2, 0));
    let with = attack(s.get(3).unwrap(), s.get(2).unwrap(), true, false, false);
    assert!(near(with.hit, 0.65));
    assert!((with.damage.unwrap().mean() - 581.0 / 128.0).abs() < 1e-12);
    // Made: its mark is left, and the advantage is gone with it.
    let after = go(&s, 3, Action::FreeAttack(strike(2, 0)), &[20, 1, 1, 1]).unwrap();
    assert!(after
        .get(3)
        .unwrap()
        .used
        .iter()
        .any(|u| u == SURPRISE_ATTACK));
    assert!(!advantage(&after, 3, 2, 0));
    // Later in round 1 (B's turn): the goblin is still Surprised, no advantage: 11/20.
    let mut later = s.clone();
    later.apply(&Event::Next);
    assert_eq!((later.round, later.current), (1, Some(2)));
    assert!(later.has(2, "Surprised"));
    assert!(!advantage(&later, 3, 2, 0));
    assert!(!advantage(&later, 1, 2, 0));
    let plain = attack(
        later.get(1).unwrap(),
        later.get(2).unwrap(),
        false,
        false,
        false,
    );
    assert!(near(plain.hit, 0.55));
    assert!((plain.damage.unwrap().mean() - 37.0 / 16.0).abs() < 1e-12);
    // An ally is never a surpriser's target.
    assert!(!advantage(&s, 1, 3, 0));
    // A surpriser first in the order: its first attack on its turn is its surprise attack
    // (with the advantage), and there is no second one.
    let after = go(&s, 1, Action::Attack(strike(2, 0)), &[20, 1, 1, 1]).unwrap();
    assert!(!advantage(&after, 1, 2, 0));
    assert!(after
        .get(1)
        .unwrap()
        .used
        .iter()
        .any(|u| u == SURPRISE_ATTACK));
}

/// #9: surprised, a character's weapons are sheathed: drawing a sword takes its movement
/// action (and a free attack cannot wait for it); a Short dagger comes out free.
#[test]
fn symbaroum_r9_drawing_when_surprised_costs_a_movement_action_unless_short() {
    let arms = vec![
        weapon("Sword", "1d8", &[]),
        weapon("Dagger", "1d6", &[WeaponQuality::Short]),
    ];
    let s0 = started(vec![pc("A", 14, arms, Shield::None), goblin("B", 10)], &[]);
    assert_eq!(
        s0.get(1).unwrap().stat(IN_HAND),
        0,
        "drawn when not surprised"
    );
    let mut s = s0.clone();
    s.apply(&surprise_events(&s0, false, 1).unwrap());
    assert_eq!(s.get(1).unwrap().stat(IN_HAND), -1, "sheathed");
    assert_eq!(readying(s.get(1).unwrap(), 0), Ok(Some(false)));
    assert_eq!(readying(s.get(1).unwrap(), 1), Ok(Some(true)));
    // The sword: drawn for its movement action, then the attack: nothing left.
    let after = go(&s, 1, Action::Attack(strike(2, 0)), &[20, 1, 1]).unwrap();
    assert_eq!(pools(&after, 1), [0, 0]);
    assert_eq!(after.get(1).unwrap().stat(IN_HAND), 0);
    // The dagger: free; the movement action is left.
    let after = go(&s, 1, Action::Attack(strike(2, 1)), &[20, 1, 1]).unwrap();
    assert_eq!(pools(&after, 1), [0, 1]);
    assert_eq!(after.get(1).unwrap().stat(IN_HAND), 1);
    // No movement left: the sword cannot come out; nor in a free attack.
    let mut moved = s.clone();
    moved.apply(&Event::Spend(1, 1, 1));
    assert_eq!(
        go(&moved, 1, Action::Attack(strike(2, 0)), &[20, 1, 1]),
        Err("Sword is not in hand: taking it takes a movement action; none is left".into())
    );
    // A free attack (the goblin withdrawing gives A one) cannot wait for it either.
    let left = go(&then_next(&s), 2, Action::Leave(false), &[]).unwrap();
    assert_eq!(
        go(&left, 1, Action::FreeAttack(strike(2, 0)), &[20, 1, 1]),
        Err("Sword is not in hand: taking it takes a movement action, not a reaction".into())
    );
    // Switching weapons later is the same movement action (seed 001, "Switch weapons").
    let drawn = go(&s, 1, Action::Attack(strike(2, 1)), &[20, 1, 1]).unwrap();
    let mut next_turn = drawn.clone();
    next_turn.apply(&Event::Next);
    next_turn.apply(&Event::Next);
    assert_eq!(next_turn.current, Some(1));
    let after = go(&next_turn, 1, Action::Attack(strike(2, 0)), &[20, 1, 1]).unwrap();
    assert_eq!(pools(&after, 1), [0, 0]);
    // Or on its own, ready for what comes (a Long weapon's reach): the sword for the movement
    // action, the dagger free, the one in hand refused.
    let after = go(&s, 1, Action::Draw(0), &[]).unwrap();
    assert_eq!(
        (after.get(1).unwrap().stat(IN_HAND), pools(&after, 1)),
        (0, vec![1, 0])
    );
    assert_eq!(
        go(&after, 1, Action::Draw(0), &[]),
        Err("Sword is already in hand".into())
    );
    let after = go(&after, 1, Action::Draw(1), &[]).unwrap();
    assert_eq!(
        (after.get(1).unwrap().stat(IN_HAND), pools(&after, 1)),
        (1, vec![1, 0])
    );
}

/// #10: a shield (not a buckler) and a Heavy or ranged weapon are not used together: taking
/// one in hand puts the shield away (a movement action, Defense −1), so that it is never both.
#[test]
fn symbaroum_r10_a_shield_and_a_heavy_or_ranged_weapon_are_not_used_together() {
    use super::combat::SHIELD;
    let arms = || {
        vec![
            weapon("Sword", "1d8", &[]),
            weapon("Greataxe", "1d12", &[WeaponQuality::Heavy]),
            weapon("Bow", "1d8", &[WeaponQuality::Ranged]),
        ]
    };
    let s = started(
        vec![pc("A", 14, arms(), Shield::Shield), goblin("B", 10)],
        &[],
    );
    assert_eq!(s.get(1).unwrap().stat(DEFENSE), 15, "Quick 14 + 1");
    for i in [1, 2] {
        assert_eq!(readying(s.get(1).unwrap(), i), Ok(Some(false)));
        let after = go(&s, 1, Action::Attack(strike(2, i as u32)), &[20, 1, 1]).unwrap();
        let c = after.get(1).unwrap();
        assert_eq!(
            (c.stat(SHIELD), c.stat(DEFENSE), c.stat(IN_HAND)),
            (-1, 14, i as i32),
            "put away, not gone (T6-4)"
        );
        assert_eq!(
            pools(&after, 1),
            [0, 0],
            "the switch took the movement action"
        );
        assert!(after
            .log
            .iter()
            .any(|l| l.text.contains("the shield put away (Defense −1)")));
    }
    // Heavy first on the sheet, with a shield: never used together even at the start.
    let s2 = started(
        vec![
            pc(
                "A",
                14,
                vec![weapon("Greataxe", "1d12", &[WeaponQuality::Heavy])],
                Shield::Shield,
            ),
            goblin("B", 10),
        ],
        &[],
    );
    assert_eq!(readying(s2.get(1).unwrap(), 0), Ok(Some(false)));
    // The sword goes with the shield; a buckler with anything.
    assert_eq!(readying(s.get(1).unwrap(), 0), Ok(None));
    let s = started(
        vec![pc("A", 14, arms(), Shield::Buckler), goblin("B", 10)],
        &[],
    );
    let after = go(&s, 1, Action::Attack(strike(2, 1)), &[20, 1, 1, 1]).unwrap();
    assert_eq!(after.get(1).unwrap().stat(DEFENSE), 15, "the buckler stays");
}

/// #11: a prone or flanked target gives the advantage to melee attacks only: a bow against a
/// prone goblin (Accurate 12 against Defense 11) is 11/20, a sword 13/20; higher ground counts
/// for both.
#[test]
fn symbaroum_r11_prone_and_flanked_help_melee_only() {
    let arms = vec![
        weapon("Sword", "1d8", &[]),
        weapon("Bow", "1d8", &[WeaponQuality::Ranged]),
    ];
    for cond in ["Prone", "Flanked"] {
        let s = started(
            vec![pc("A", 14, arms.clone(), Shield::None), goblin("B", 10)],
            &[Event::Add(2, cond.into(), Duration::Removed)],
        );
        assert!(advantage(&s, 1, 2, 0), "{cond}: the sword");
        assert!(!advantage(&s, 1, 2, 1), "{cond}: the bow");
        let (a, b) = (s.get(1).unwrap(), s.get(2).unwrap());
        assert!(near(
            attack(a, b, advantage(&s, 1, 2, 1), false, false).hit,
            0.55
        ));
        assert!(near(
            attack(a, b, advantage(&s, 1, 2, 0), false, false).hit,
            0.65
        ));
    }
    let s = started(
        vec![pc("A", 14, arms, Shield::None), goblin("B", 10)],
        &[Event::Add(1, "Higher ground".into(), Duration::Removed)],
    );
    assert!(advantage(&s, 1, 2, 1) && advantage(&s, 1, 2, 0));
}

/// #12: withdrawing from melee or moving past an enemy is a movement action (a combat action in
/// its place when none is left) that says each enemy left behind may take a free attack; that
/// free attack is open to the enemy out of its turn.
#[test]
fn symbaroum_r12_leaving_melee_opens_free_attacks() {
    let sword = || vec![weapon("Sword", "1d8", &[])];
    let s = started(
        vec![pc("A", 14, sword(), Shield::None), goblin("B", 10)],
        &[],
    );
    for past in [false, true] {
        let after = go(&s, 1, Action::Leave(past), &[]).unwrap();
        assert_eq!(pools(&after, 1), [1, 0]);
        let line = &after.log.last().unwrap().text;
        assert!(line.contains("may take a free attack on it"), "{line}");
        // The goblin's free attack, out of its turn: allowed.
        let free = offers(&after, 2)
            .into_iter()
            .find(|o| matches!(o.action, Intent::Symbaroum(Action::FreeAttack(_))))
            .unwrap();
        assert_eq!(free.refused, None);
        assert!(go(&after, 2, Action::FreeAttack(strike(1, 0)), &[1, 1, 1]).is_ok());
    }
    // A second time: the combat action stands in.
    let twice = go(
        &go(&s, 1, Action::Leave(false), &[]).unwrap(),
        1,
        Action::Leave(true),
        &[],
    );
    assert_eq!(pools(&twice.unwrap(), 1), [0, 0]);
    // Not on another's turn; not while dying.
    assert_eq!(
        go(&s, 2, Action::Leave(false), &[]),
        Err("only on B’s own turn".into())
    );
    let dying = started(
        vec![pc("A", 14, sword(), Shield::None), goblin("B", 10)],
        &[Event::Damage(vec![1], 10)],
    );
    assert_eq!(
        go(&dying, 1, Action::Leave(false), &[]),
        Err("A is dying and cannot help itself".into())
    );
}

/// #13: first aid on another is a combat action: a herbal cure heals 1, Medicus 1d4, both
/// 1d4 + 1, each stabilizing the dying; an elixir is a combat action on another and a movement
/// action on itself (its effect the GM's); a cure on itself a movement action.
#[test]
fn symbaroum_r13_first_aid_and_elixirs_spend_their_actions() {
    let sword = || vec![weapon("Sword", "1d8", &[])];
    // A (first) and C, both players; C is dying.
    let s = started(
        vec![
            pc("A", 14, sword(), Shield::None),
            goblin("B", 10),
            pc("C", 5, sword(), Shield::None),
        ],
        &[Event::Damage(vec![3], 10), Event::Death(3, 15, 1)],
    );
    assert!(s.dying(s.get(3).unwrap()));
    assert_eq!(s.get(3).unwrap().death, 1);
    let aid = |kind| Action::Aid { target: 3, kind };
    let after = go(&s, 1, aid(Aid::Herbal), &[]).unwrap();
    let c = after.get(3).unwrap();
    assert_eq!((c.hp, c.death), (1, 0), "stabilized with 1");
    assert!(!after.dying(c));
    assert_eq!(pools(&after, 1), [0, 1], "a combat action");
    let after = go(&s, 1, aid(Aid::Medicus), &[3]).unwrap();
    assert_eq!(after.get(3).unwrap().hp, 3);
    let after = go(&s, 1, aid(Aid::Both), &[2]).unwrap();
    assert_eq!(after.get(3).unwrap().hp, 3, "1d4 2 + 1");
    let after = go(&s, 1, aid(Aid::Elixir), &[]).unwrap();
    assert_eq!(
        after.get(3).unwrap().hp,
        0,
        "the GM applies an elixir's effect"
    );
    assert_eq!(pools(&after, 1), [0, 1]);
    // On itself: a cure or an elixir is a movement action; Medicus a combat action.
    let hurt = {
        let mut h = s.clone();
        h.apply(&Event::Damage(vec![1], 4));
        h
    };
    let mine = |kind| Action::Aid { target: 1, kind };
    let after = go(&hurt, 1, mine(Aid::Herbal), &[]).unwrap();
    assert_eq!(
        (after.get(1).unwrap().hp, pools(&after, 1)),
        (7, vec![1, 0])
    );
    let after = go(&hurt, 1, mine(Aid::Elixir), &[]).unwrap();
    assert_eq!(pools(&after, 1), [1, 0]);
    let after = go(&hurt, 1, mine(Aid::Medicus), &[4]).unwrap();
    assert_eq!(
        (after.get(1).unwrap().hp, pools(&after, 1)),
        (10, vec![0, 1])
    );
    // No combat action left: first aid on another is refused; nor off its turn or dying.
    let spent = go(&s, 1, aid(Aid::Elixir), &[]).unwrap();
    assert_eq!(
        go(&spent, 1, aid(Aid::Herbal), &[]),
        Err("A has no combat action left".into())
    );
    assert_eq!(
        go(
            &s,
            3,
            Action::Aid {
                target: 1,
                kind: Aid::Herbal
            },
            &[]
        ),
        Err("only on C’s own turn".into())
    );
}

/// #14: Defense from another attribute where an ability allows it: Resolute 13, armor
/// impeding 2 and a shield give 12, on the sheet and in the fight; a sheet saved before reads
/// Quick.
#[test]
fn symbaroum_r14_defense_from_another_attribute() {
    let mut s = SymbaroumSheet {
        armor_impeding: 2,
        shield: Shield::Shield,
        ..SymbaroumSheet::default()
    };
    s.attributes[SAttr::Resolute.index()] = 13;
    assert_eq!(s.defense(), 9, "Quick 10 − 2 + 1");
    s.apply(Edit::DefenseFrom(SAttr::Resolute)).unwrap();
    assert_eq!(s.defense(), 12);
    assert_eq!(combatant("R", &s, true, None).stat(DEFENSE), 12);
    let mut json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["defense_from"], "resolute");
    json.as_object_mut().unwrap().remove("defense_from");
    let old: SymbaroumSheet = serde_json::from_value(json).unwrap();
    assert_eq!((old.defense_from, old.defense()), (SAttr::Quick, 9));
}
