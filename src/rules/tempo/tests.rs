//! The exchange on the encounter engine: statuses, refusals, costs, counter-tempo, recovery,
//! and every chance against brute-force enumeration of the dice.

use super::combat::*;
use super::*;
use crate::rules::encounter::systems::TEMPO;
use crate::rules::encounter::{Event, State};

fn id(name: &str) -> usize {
    index(name).unwrap()
}

/// A (CD 5, armoured 8) with a sword priced per action, B an NPC with weapon cost 3.
/// A quick NPC with a melee weapon (cost 3), defences 6 / 9 / 4, health 10, 1d10 +1: the
/// opponent of these tests and of the live table's.
pub(crate) fn test_npc(name: &str) -> crate::rules::encounter::Combatant {
    npc(
        name,
        &Npc {
            defence: 6,
            armoured: 9,
            grapple: 4,
            health: 10,
            dice: "1d10".into(),
            bonus: 1,
            melee: 3,
            ranged: 0,
            movement: 4,
            aimed: 0,
        },
    )
}

fn fight() -> State {
    let mut sheet = TempoSheet::default();
    sheet.weapons[0].set_cost("Melee Attack", 4);
    sheet.weapons[0].set_cost("Feint", 2);
    sheet.weapons[0].set_cost("Counter-Attack", 5);
    sheet.set_bonus("Melee Attack", 2);
    let a = from_sheet("A", &sheet);
    let b = test_npc("B");
    let mut s = State::new(&TEMPO);
    s.apply(&Event::Join(a));
    s.apply(&Event::Join(b));
    s.apply(&Event::Init(1, vec![9]));
    s.apply(&Event::Init(2, vec![4]));
    set_status(&mut s, 2, Status::OnGuard);
    s.apply(&Event::Start);
    s
}

fn run(s: &mut State, e: Event) {
    s.apply(&e);
}

/// Gives `who` a status as the rules do (the others it held removed).
fn set_status(s: &mut State, who: u32, st: Status) {
    for e in status_events(s, who, st) {
        s.apply(&e);
    }
}

#[test]
fn off_guard_cannot_attack_and_readies() {
    let mut s = fight();
    assert_eq!(s.rules.counter(s.round), 0, "the round counter starts at 0");
    assert_eq!(status(&s, 1), Status::OffGuard);
    assert_eq!(status(&s, 2), Status::OnGuard);
    assert_eq!(
        can_declare(&s, 1, id("Melee Attack")),
        Err("Melee Attack needs On Guard".into())
    );
    assert_eq!(
        can_declare(&s, 2, id("Melee Attack")),
        Err("not its turn".into())
    );
    let ok: Vec<&str> = offered(&s, 1)
        .into_iter()
        .filter(|x| x.1.is_ok())
        .map(|x| ACTIONS[x.0].name)
        .collect();
    assert_eq!(ok, ["Move", "Ready"]);
    let ex = Exchange {
        actor: 1,
        action: id("Ready"),
        target: None,
        reaction: None,
        replacement: None,
        also: Vec::new(),
    };
    let (mine, theirs) = ex.odds(&s).unwrap();
    assert_eq!(mine.len(), 1);
    assert!(mine[0].1.is_certain());
    assert!(theirs.is_empty());
    let e = ex.resolve(&s, None, None).unwrap();
    run(&mut s, e);
    assert_eq!(status(&s, 1), Status::OnGuard);
    assert_eq!(ap(&s, 1), 11);
    assert!(s.log.iter().any(|l| l.text == "A uses 1 AP"));
}

#[test]
fn parry_at_exactly_zero_binds_both_and_the_bind_limits_the_list() {
    let mut s = fight();
    set_status(&mut s, 1, Status::OnGuard);
    let ma = id("Melee Attack");
    let list = reactions(&s, 2, ma);
    let names: Vec<&str> = list.iter().map(|x| ACTIONS[x.0].name).collect();
    assert_eq!(names, ["Counter-Attack", "Evade", "Parry"]);
    let ex = Exchange {
        actor: 1,
        action: ma,
        target: Some(2),
        reaction: Some(id("Parry")),
        replacement: None,
        also: Vec::new(),
    };
    assert_eq!(ex.costs(&s), Ok((4, 3)));
    // A rolls 5 + 2 = 7; B rolls 6 + 1 = 7: parry net 0.
    let e = ex.resolve(&s, Some((5, "5")), Some((6, "6"))).unwrap();
    run(&mut s, e);
    assert_eq!(status(&s, 1), Status::Bound);
    assert_eq!(status(&s, 2), Status::Bound);
    assert_eq!(ap(&s, 1), 8);
    assert_eq!(ap(&s, 2), 9);
    assert!(s.log.iter().any(|l| l.text == "B: Parry net 0: Bind"));
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "A's Melee Attack comes to nothing"));
    // Only Bound is held: no stale status left behind.
    assert_eq!(s.held(1), vec!["Bound"]);
    let ok: Vec<&str> = offered(&s, 1)
        .into_iter()
        .filter(|x| x.1.is_ok())
        .map(|x| ACTIONS[x.0].name)
        .collect();
    assert_eq!(ok, ["Disarm", "Grapple", "Press", "Withdraw"]);
    assert_eq!(
        can_declare(&s, 1, ma),
        Err("Melee Attack needs On Guard".into())
    );
    // The bound reactions answer a press.
    let r: Vec<&str> = reactions(&s, 2, id("Press"))
        .iter()
        .map(|x| ACTIONS[x.0].name)
        .collect();
    assert_eq!(r, ["Double", "Wind"]);
}

#[test]
fn feint_replaced_by_a_counter_attack_pays_the_larger_cost_with_plus_three() {
    let mut s = fight();
    set_status(&mut s, 1, Status::OnGuard);
    let feint = id("Feint");
    let parry = id("Parry");
    let reps = replacements(feint, parry);
    assert_eq!(
        reps,
        [Replacement {
            action: id("Counter-Attack"),
            bonus: 3
        }]
    );
    // A melee attack drawing a parry has nothing to replace it with.
    assert!(replacements(id("Melee Attack"), parry).is_empty());
    let ex = Exchange {
        actor: 1,
        action: feint,
        target: Some(2),
        reaction: Some(parry),
        replacement: Some(reps[0]),
        also: Vec::new(),
    };
    // Feint 2, counter-attack 5: 5 in all.
    assert_eq!(ex.costs(&s), Ok((5, 3)));
    assert_eq!(ex.actor_bonus(&s), 3);
    // A rolls 9 + 3 = 12; B 2 + 1 = 3: net 9 ≥ armoured 9: critical.
    let e = ex.resolve(&s, Some((9, "9")), Some((2, "2"))).unwrap();
    run(&mut s, e);
    assert_eq!(ap(&s, 1), 7);
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "A replaces it with Counter-Attack at +3; pays 3 more"));
    assert!(s.log.iter().any(|l| l.text == "A: 9 +3 = 12"));
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "A: Counter-Attack net 9: Critical Hit"));
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "B is hit: roll damage, ignoring armour"));
    // A melee attack drawing a counter-attack may become a CT action.
    let cts = replacements(id("Melee Attack"), id("Counter-Attack"));
    let names: Vec<&str> = cts.iter().map(|r| ACTIONS[r.action].name).collect();
    assert_eq!(names, ["CT Counter-Attack", "CT Parry"]);
    // A feint draws the reactions to a melee attack, and the log says how it was declared.
    let r: Vec<&str> = reactions(&s, 2, feint)
        .iter()
        .map(|x| ACTIONS[x.0].name)
        .collect();
    assert_eq!(r, ["Counter-Attack", "Evade", "Parry"]);
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "A: Feint against B (declared as a melee attack)"));
}

#[test]
fn a_counter_tempo_replacement_must_be_affordable() {
    let mut s = fight();
    set_status(&mut s, 1, Status::OnGuard);
    run(&mut s, Event::Spend(1, AP, 9)); // 3 left
    let ex = Exchange {
        actor: 1,
        action: id("Feint"),
        target: Some(2),
        reaction: Some(id("Parry")),
        replacement: Some(Replacement {
            action: id("Counter-Attack"),
            bonus: 3,
        }),
        also: Vec::new(),
    };
    assert_eq!(ex.costs(&s), Err("needs 3 AP more, 1 left".into()));
    let plain = Exchange {
        replacement: None,
        also: Vec::new(),
        ..ex.clone()
    };
    assert_eq!(plain.costs(&s), Ok((2, 3)));
    run(&mut s, Event::Spend(1, AP, 2)); // 1 left
    assert_eq!(
        can_declare(&s, 1, id("Melee Attack")),
        Err("needs 4 AP, 1 left".into())
    );
}

#[test]
fn reactions_go_on_credit_and_recovery_follows_the_table() {
    let mut s = fight();
    set_status(&mut s, 1, Status::OnGuard);
    run(&mut s, Event::Spend(2, AP, 10)); // B has 2
    assert_eq!(
        recovery_preview(&s, 2, 3),
        "AP 2 → -1; at the end of its turn it regains 11, to 10 (12 without this)"
    );
    let ex = Exchange {
        actor: 1,
        action: id("Melee Attack"),
        target: Some(2),
        reaction: Some(id("Parry")),
        replacement: None,
        also: Vec::new(),
    };
    let e = ex.resolve(&s, Some((9, "9")), Some((1, "1"))).unwrap();
    run(&mut s, e);
    assert_eq!(ap(&s, 2), -1, "a reaction may take AP below 0");
    // A's turn ends: A (12 − 4 = 8) recovers to 12.
    run(&mut s, Event::Next);
    assert_eq!(ap(&s, 1), 12);
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "A recovers 12 AP by the table (8 → 12)"));
    // B's turn: spend 2 more (−3), end: +8 → 5.
    run(&mut s, Event::Spend(2, AP, 2));
    run(&mut s, Event::Next);
    assert_eq!(ap(&s, 2), 5);
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "B recovers 8 AP by the table (-3 → 5)"));
    assert_eq!(s.rules.counter(s.round), 1, "one full round has passed");
    assert!(s.log.iter().any(|l| l.text == "Round 1 begins"));
    // Every balance from −20 to 12 against the table.
    for b in -20..=12 {
        let mut t = fight();
        run(&mut t, Event::Spend(1, AP, 12 - b));
        run(&mut t, Event::Next);
        assert_eq!(ap(&t, 1), after_recovery(b), "balance {b}");
    }
}

#[test]
fn counter_attack_against_fists_gets_five_and_both_can_land() {
    let mut s = fight();
    set_status(&mut s, 1, Status::OnGuard);
    let ex = Exchange {
        actor: 1,
        action: id("Unarmed Attack"),
        target: Some(2),
        reaction: Some(id("Counter-Attack")),
        replacement: None,
        also: Vec::new(),
    };
    assert_eq!(ex.reactor_bonus(&s), 1 + 5);
    let other = Exchange {
        action: id("Melee Attack"),
        ..ex.clone()
    };
    assert_eq!(other.reactor_bonus(&s), 1);
    // A 3 + 0; B 8 + 6 = 14: B's net 11 ≥ A's armoured 8: critical on A.
    let e = ex.resolve(&s, Some((3, "3")), Some((8, "8"))).unwrap();
    run(&mut s, e);
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "A is hit: roll damage, ignoring armour"));
}

#[test]
fn grapple_pin_escape_and_disarm_change_statuses() {
    let mut s = fight();
    for w in [1, 2] {
        set_status(&mut s, w, Status::Bound);
    }
    let grapple = Exchange {
        actor: 1,
        action: id("Grapple"),
        target: Some(2),
        reaction: None,
        replacement: None,
        also: Vec::new(),
    };
    let e = grapple.resolve(&s, Some((6, "6")), None).unwrap();
    run(&mut s, e); // 6 + 0 < 8
    assert_eq!(status(&s, 1), Status::Bound);
    let e = grapple.resolve(&s, Some((8, "8")), None).unwrap();
    run(&mut s, e);
    assert_eq!(
        (status(&s, 1), status(&s, 2)),
        (Status::Grappled, Status::Grappled)
    );
    let pin = Exchange {
        action: id("Pin"),
        ..grapple
    };
    // Grapple defence 4: 4 pins.
    let e = pin.resolve(&s, Some((4, "4")), None).unwrap();
    run(&mut s, e);
    assert_eq!(
        (status(&s, 1), status(&s, 2)),
        (Status::Grappled, Status::Pinned)
    );
    // B, pinned, may only escape (on its turn).
    run(&mut s, Event::Next);
    let ok: Vec<&str> = offered(&s, 2)
        .into_iter()
        .filter(|x| x.1.is_ok())
        .map(|x| ACTIONS[x.0].name)
        .collect();
    assert_eq!(ok, ["Escape"]);
    let esc = Exchange {
        actor: 2,
        action: id("Escape"),
        target: Some(1),
        reaction: Some(id("Struggle")),
        replacement: None,
        also: Vec::new(),
    };
    // B 5 + 1 = 6, A struggles 2 + 0: B's net 4 ≥ 1: free; A's struggle net −4 fails.
    let e = esc.resolve(&s, Some((5, "5")), Some((2, "2"))).unwrap();
    run(&mut s, e);
    assert_eq!(
        (status(&s, 1), status(&s, 2)),
        (Status::OnGuard, Status::OnGuard)
    );
    // Disarm from a bind.
    for w in [1, 2] {
        set_status(&mut s, w, Status::Bound);
    }
    let dis = Exchange {
        actor: 2,
        action: id("Disarm"),
        target: Some(1),
        reaction: None,
        replacement: None,
        also: Vec::new(),
    };
    let e = dis.resolve(&s, Some((7, "7")), None).unwrap();
    run(&mut s, e);
    assert_eq!(status(&s, 1), Status::OnGuard);
    assert_eq!(cost(s.get(1).unwrap(), id("Parry")), Err("disarmed".into()));
    let e = rearm(&s, 1).unwrap();
    run(&mut s, e);
    assert_eq!(cost(s.get(1).unwrap(), id("Parry")), Ok(DEFAULT_COST));
}

#[test]
fn aim_adds_the_aimed_accuracy_to_the_next_weapon_attack_only() {
    let mut sheet = TempoSheet::default();
    let mut bow = Weapon::new("Bow", true);
    bow.aimed = 3;
    sheet.weapons.push(bow);
    let mut s = State::new(&TEMPO);
    run(&mut s, Event::Join(from_sheet("A", &sheet)));
    run(&mut s, Event::Join(from_sheet("B", &sheet)));
    run(&mut s, Event::Init(1, vec![5]));
    run(&mut s, Event::Start);
    set_status(&mut s, 1, Status::OnGuard);
    let shot = Exchange {
        actor: 1,
        action: id("Ranged Attack"),
        target: Some(2),
        reaction: None,
        replacement: None,
        also: Vec::new(),
    };
    assert_eq!(shot.actor_bonus(&s), 0);
    let aim = Exchange {
        action: id("Aim"),
        ..shot.clone()
    };
    let e = aim.resolve(&s, None, None).unwrap();
    run(&mut s, e);
    assert_eq!(shot.actor_bonus(&s), 3);
    let e = shot.resolve(&s, Some((1, "1")), None).unwrap();
    run(&mut s, e);
    assert_eq!(shot.actor_bonus(&s), 0, "used up");
    // A counter-fire on the aim (net 0 − its roll) makes the aim fail.
    let aim_opposed = Exchange {
        reaction: Some(id("Counter-Fire")),
        ..aim.clone()
    };
    run(&mut s, Event::Spend(1, AP, -8)); // 12 again
    set_status(&mut s, 2, Status::OnGuard);
    let e = aim_opposed.resolve(&s, None, Some((2, "2"))).unwrap();
    run(&mut s, e);
    assert_eq!(shot.actor_bonus(&s), 0);
    // An aim holds only within the turn: after A's turn ends, the next turn's shot has none.
    let e = aim.resolve(&s, None, None).unwrap();
    run(&mut s, e);
    assert_eq!(shot.actor_bonus(&s), 3);
    run(&mut s, Event::Next);
    run(&mut s, Event::Next);
    assert_eq!(s.current, Some(1));
    assert_eq!(shot.actor_bonus(&s), 0);
}

#[test]
fn counter_tempo_parry_binds_and_bogus_declarations_are_refused() {
    let mut s = fight();
    set_status(&mut s, 1, Status::OnGuard);
    let ma = id("Melee Attack");
    let ca = id("Counter-Attack");
    let ct_parry = Replacement {
        action: id("CT Parry"),
        bonus: 0,
    };
    let ex = Exchange {
        actor: 1,
        action: ma,
        target: Some(2),
        reaction: Some(ca),
        replacement: Some(ct_parry),
        also: Vec::new(),
    };
    // CT Parry 4 after a melee attack 4: nothing more to pay; B's counter-attack 3.
    assert_eq!(ex.costs(&s), Ok((4, 3)));
    // A 4 + 0 (CT Parry has no bonus) against B 3 + 1: net 0 on both sides: bind.
    let e = ex.resolve(&s, Some((4, "4")), Some((3, "3"))).unwrap();
    run(&mut s, e);
    assert_eq!(
        (status(&s, 1), status(&s, 2)),
        (Status::Bound, Status::Bound)
    );
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "B's reaction comes to nothing"));
    let mut t = fight();
    set_status(&mut t, 1, Status::OnGuard);
    let bogus = [
        (
            Exchange {
                replacement: Some(Replacement {
                    action: ca,
                    bonus: 3,
                }),
                also: Vec::new(),
                ..ex.clone()
            },
            "Counter-Attack cannot replace Melee Attack here",
        ),
        (
            Exchange {
                reaction: Some(id("Dodge")),
                replacement: None,
                also: Vec::new(),
                ..ex.clone()
            },
            "Dodge does not answer Melee Attack",
        ),
        (
            Exchange {
                target: None,
                reaction: None,
                replacement: None,
                also: Vec::new(),
                ..ex.clone()
            },
            "Melee Attack needs an opponent",
        ),
        (
            Exchange {
                target: Some(1),
                ..ex.clone()
            },
            "pick an opponent in the fight",
        ),
        (
            Exchange {
                reaction: None,
                ..ex.clone()
            },
            "CT Parry cannot replace Melee Attack here",
        ),
    ];
    for (x, why) in bogus {
        assert_eq!(x.costs(&t), Err(why.into()));
        assert!(x.resolve(&t, Some((1, "1")), Some((1, "1"))).is_err());
    }
    let plain = Exchange {
        reaction: None,
        replacement: None,
        also: Vec::new(),
        ..ex.clone()
    };
    assert_eq!(plain.resolve(&t, None, None), Err("A has to roll".into()));
    // Odds with the replacement: CT Parry's rows from the net of A's check less B's.
    let (mine, theirs) = ex.odds(&t).unwrap();
    let names: Vec<&str> = mine.iter().map(|r| r.0).collect();
    assert_eq!(names, ["Failure", "Bind", "Success"]);
    // 1d10 against 1d10+1: A's net is 0 with chance 9/100 (A = B + 1).
    assert!((mine[1].1.p() - 0.09).abs() < 1e-12);
    let sum: f64 = theirs.iter().map(|r| r.1.p()).sum();
    assert!((sum - 1.0).abs() < 1e-12);
}

/// Brute force: every face of both check dice, against the exact odds shown.
#[test]
fn odds_equal_enumeration_and_sum_to_one() {
    use crate::rules::dice::Distribution;
    for (da, db) in [("1d10", "1d10"), ("2d6", "1d8"), ("1d4+1", "1d6")] {
        let mut s = fight();
        set_status(&mut s, 1, Status::OnGuard);
        s.combatants[0].texts[0] = da.into();
        s.combatants[1].texts[0] = db.into();
        for (action, reaction) in [
            ("Melee Attack", Some("Parry")),
            ("Melee Attack", Some("Counter-Attack")),
            ("Melee Attack", Some("Evade")),
            ("Combat Move", Some("Retreat")),
            ("Move", Some("Counter-Attack")),
            ("Combat Move", None),
            ("Melee Attack", None),
        ] {
            let ex = Exchange {
                actor: 1,
                action: id(action),
                target: Some(2),
                reaction: reaction.map(id),
                replacement: None,
                also: Vec::new(),
            };
            let (mine, theirs) = ex.odds(&s).unwrap();
            let a_act = &ACTIONS[id(action)];
            let av: Vec<i64> = if a_act.check {
                faces(da)
                    .into_iter()
                    .map(|x| x + i64::from(ex.actor_bonus(&s)))
                    .collect()
            } else {
                vec![0]
            };
            let bv: Vec<i64> = match reaction {
                Some(_) => faces(db)
                    .into_iter()
                    .map(|x| x + i64::from(ex.reactor_bonus(&s)))
                    .collect(),
                None => vec![0],
            };
            let mut count_a = vec![0u64; a_act.rows.len()];
            let mut count_b = vec![0u64; reaction.map_or(0, |r| ACTIONS[id(r)].rows.len())];
            for x in &av {
                for y in &bv {
                    count_a[a_act.row_of(x - y, 6, 9, 4)] += 1;
                    if let Some(r) = reaction {
                        count_b[ACTIONS[id(r)].row_of(y - x, 5, 8, 5)] += 1;
                    }
                }
            }
            let n = (av.len() * bv.len()) as f64;
            let check = |rows: &Rows, counts: &[u64]| {
                let mut sum = 0.0;
                for ((_, c), k) in rows.iter().zip(counts) {
                    let want = *k as f64 / n;
                    assert!(
                        (c.p() - want).abs() < 1e-12,
                        "{action} {reaction:?} {da} {db}"
                    );
                    assert_eq!(c.is_impossible(), *k == 0);
                    assert_eq!(c.is_certain(), *k as f64 == n);
                    sum += c.p();
                }
                assert!((sum - 1.0).abs() < 1e-12);
            };
            check(&mine, &count_a);
            if reaction.is_some() {
                check(&theirs, &count_b);
            }
            let net: Distribution = ex.net(&s).unwrap();
            assert!((net.total() - 1.0).abs() < 1e-12);
        }
    }
}

/// A fight with a linked character and an NPC is a valid stored encounter (exported, imported
/// and merged between tabs by the same check): its combatants' texts are dice only.
#[test]
fn a_tempo_fight_is_a_valid_stored_encounter() {
    let mut sheet = TempoSheet::default();
    sheet.weapons.push(Weapon::new("Short bow", true));
    let s = fight();
    let mut e =
        crate::rules::encounter::Encounter::new("e1".into(), "Yard".into(), "tempo", 1).unwrap();
    e.events.push(Event::Join(from_sheet("Ilse", &sheet)));
    e.events.push(Event::Join(s.get(2).unwrap().clone()));
    e.cursor = e.events.len();
    assert_eq!(e.validate(), Ok(()));
}

#[test]
fn refusals_name_the_reason() {
    let s = fight();
    let b = s.get(2).unwrap();
    // B has no ranged weapon.
    assert_eq!(cost(b, id("Ranged Attack")), Err("no ranged weapon".into()));
    let r = reactions(&s, 2, id("Aim"));
    assert_eq!(r[0].1, Err("no ranged weapon".into()));
    // A is Off Guard: its reactions need On Guard.
    let r = reactions(&s, 1, id("Melee Attack"));
    assert!(r
        .iter()
        .all(|x| x.1 == Err(format!("{} needs On Guard", ACTIONS[x.0].name))));
    let mut before = State::new(&TEMPO);
    before.apply(&Event::Join(s.get(1).unwrap().clone()));
    assert_eq!(
        can_declare(&before, 1, id("Ready")),
        Err("the fight has not started".into())
    );
}

#[test]
fn a_declared_action_waits_for_the_targets_answer_which_the_exchange_takes_then_clears() {
    let mut s = fight();
    set_status(&mut s, 1, Status::OnGuard);
    let ma = id("Melee Attack");
    assert_eq!(s.current, Some(1));
    assert_eq!(facing(&s, 2), None);
    assert_eq!(
        answer_events(&s, 2, None),
        Err("nothing is declared against it now".into())
    );
    // A declares; B faces it and has not answered.
    let e = declare_events(&s, 1, ma, 2);
    run(&mut s, e);
    assert_eq!(facing(&s, 2), Some((1, ma)));
    assert_eq!(answered(&s, 2), None);
    assert_eq!(facing(&s, 1), None, "the actor faces nothing");
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "A declares a melee attack against B, who may react"));
    // Only a reaction to that action, and one it can take.
    assert_eq!(
        answer_events(&s, 2, Some(id("Press"))),
        Err("Press does not answer A’s melee attack".into())
    );
    let parry = answer_events(&s, 2, Some(id("Parry"))).unwrap();
    // The referee takes it out of B's turn (its intent), and only from B.
    use crate::rules::tempo::referee::{resolve as referee, Action::Answer};
    let dice = &mut crate::rules::dice::ScriptedSource::new(vec![]);
    assert_eq!(
        referee(&s, 2, Answer(Some(id("Parry") as u32)), dice),
        Ok(parry.clone())
    );
    assert!(
        referee(&s, 1, Answer(Some(id("Parry") as u32)), dice).is_err(),
        "not A's"
    );
    assert_eq!(
        referee(&s, 2, Answer(Some(id("Press") as u32)), dice),
        Err("not something this combatant can do in this fight".into())
    );
    run(&mut s, parry);
    assert_eq!(answered(&s, 2), Some(Some(id("Parry"))));
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "B answers A’s melee attack with Parry"));
    // No reaction is an answer too.
    let mut t = s.clone();
    let e = answer_events(&t, 2, None).unwrap();
    run(&mut t, e);
    assert_eq!(answered(&t, 2), Some(None));
    // The exchange with that answer, rolled: B faces nothing any more.
    let ex = Exchange {
        actor: 1,
        action: ma,
        target: Some(2),
        reaction: Some(id("Parry")),
        replacement: None,
        also: Vec::new(),
    };
    let e = ex.resolve(&s, Some((5, "5")), Some((6, "6"))).unwrap();
    run(&mut s, e);
    assert_eq!(facing(&s, 2), None);
    assert_eq!(s.get(2).unwrap().stat(ANSWER), 0);
    // A declaration not rolled ends with the actor's turn.
    let mut u = fight();
    set_status(&mut u, 1, Status::OnGuard);
    let e = declare_events(&u, 1, ma, 2);
    run(&mut u, e);
    run(&mut u, Event::Next);
    assert_eq!(facing(&u, 2), None);
    assert!(crate::rules::tempo::referee::offers(&u, 2)
        .iter()
        .all(|o| !matches!(o.action, crate::rules::referee::Intent::Tempo(Answer(_)))));
    // …and does not come back at the actor's turn of the next round.
    for _ in 0..4 {
        if u.current == Some(1) && u.round > 1 {
            break;
        }
        run(&mut u, Event::Next);
    }
    assert_eq!(u.current, Some(1));
    assert!(u.round > 1);
    assert_eq!(facing(&u, 2), None, "an old declaration is over");
}

#[test]
fn an_older_combatant_takes_the_new_stats_when_set() {
    let mut s = fight();
    let mut c = s.get(2).unwrap().clone();
    c.stats.truncate(COST + ACTIONS.len());
    c.name = "Old".into();
    s.apply(&Event::Join(c));
    let old = s.combatants.last().unwrap().id;
    s.apply(&Event::Set(old, ANSWER, 3));
    assert_eq!(s.get(old).unwrap().stat(ANSWER), 3);
    assert_eq!(s.get(old).unwrap().stats.len(), STAT_COUNT);
    // A stat the system does not name is still not added.
    s.apply(&Event::Set(old, STAT_COUNT + 5, 3));
    assert_eq!(s.get(old).unwrap().stats.len(), STAT_COUNT);
}

/// The review's duel: A (a default sheet: sword 4 AP, bonus 0, 1d10, 12 AP) against Brigand
/// (a quick NPC: CD 6, ACD 9, 1d10 + 1, melee 3), both On Guard, A's turn.
fn review_duel() -> State {
    duel(&TempoSheet::default())
}

/// A (this sheet) against Brigand, both On Guard, A's turn.
fn duel(sheet: &TempoSheet) -> State {
    let mut s = State::new(&TEMPO);
    s.apply(&Event::Join(from_sheet("A", sheet)));
    s.apply(&Event::Join(test_npc("Brigand")));
    s.apply(&Event::Init(1, vec![9]));
    s.apply(&Event::Init(2, vec![4]));
    set_status(&mut s, 1, Status::OnGuard);
    set_status(&mut s, 2, Status::OnGuard);
    s.apply(&Event::Start);
    s
}

/// `who` takes `action` through the referee, with these dice, and the fight goes on from it.
fn take(
    s: &mut State,
    who: u32,
    action: super::referee::Action,
    dice: &mut crate::rules::dice::ScriptedSource,
) {
    let e = super::referee::resolve(s, who, action, dice).unwrap();
    run(s, e);
}

/// Action `action` (an index of `ACTIONS`) rolled against B (id 2), with replacement `k`.
fn against_b(action: u32, k: u32) -> super::referee::Action {
    super::referee::Action::Exchange {
        action,
        target: 2,
        replacement: k,
    }
}

/// Action `action` declared against B (id 2).
fn declare_b(action: u32) -> super::referee::Action {
    super::referee::Action::Declare { action, target: 2 }
}

/// Every total of dice notation `n` ("2d6+1"), one per combination of faces (small sums).
fn faces(n: &str) -> Vec<i64> {
    let (k, rest) = n.split_once('d').unwrap();
    let (sides, plus) = rest.split_once('+').unwrap_or((rest, "0"));
    let (k, sides, plus): (u32, i64, i64) = (
        k.parse().unwrap(),
        sides.parse().unwrap(),
        plus.parse().unwrap(),
    );
    (0..k).fold(vec![plus], |acc, _| {
        acc.iter()
            .flat_map(|s| (1..=sides).map(move |f| s + f))
            .collect()
    })
}

fn row_chances(s: &State, x: &Exchange) -> Vec<(&'static str, f64)> {
    x.odds(s)
        .unwrap()
        .0
        .into_iter()
        .map(|(n, c)| (n, c.p()))
        .collect()
}

#[test]
fn tempo_n1_a_declaration_spends_its_ap_and_binds_the_actor_to_it() {
    use crate::rules::tempo::referee::{exchange_of, resolve, Action::*};
    let mut s = review_duel();
    let (ma, feint, parry) = (
        id("Melee Attack") as u32,
        id("Feint") as u32,
        id("Parry") as u32,
    );
    let dice = &mut crate::rules::dice::ScriptedSource::new(vec![7, 3]);
    // Brigand may react: the attack is declared first, not rolled straight away.
    let straight = against_b(ma, 0);
    assert_eq!(
        resolve(&s, 1, straight, dice),
        Err("declare it first: Brigand may react".into())
    );
    take(&mut s, 1, declare_b(ma), dice);
    // The action's AP are spent at the declaration (seed l.11).
    assert_eq!(ap(&s, 1), 8);
    // Bound: no second declaration, no other action, no rolling before the answer.
    assert_eq!(
        resolve(&s, 1, declare_b(feint), dice),
        Err("A has already declared its action".into())
    );
    let switch = against_b(feint, 0);
    assert_eq!(
        resolve(&s, 1, switch, dice),
        Err("A has declared a melee attack against Brigand: it goes ahead".into())
    );
    assert_eq!(
        resolve(&s, 1, straight, dice),
        Err("waiting for Brigand’s answer".into())
    );
    take(&mut s, 2, Answer(Some(parry)), dice);
    assert_eq!(ap(&s, 2), 9, "the parry paid as it is declared: 3 AP");
    // The declared attack against the parry: Miss 47/50, Hit 3/50, Critical 0.
    let x = exchange_of(&s, 1, ma, 2, 0);
    assert_eq!(x.reaction, Some(parry as usize));
    assert!(x.paid(&s));
    assert_eq!(x.costs(&s), Ok((4, 3)));
    let rows = row_chances(&s, &x);
    assert_eq!(rows[0].0, "Miss");
    assert!((rows[0].1 - 47.0 / 50.0).abs() < 1e-12, "{rows:?}");
    assert!((rows[1].1 - 3.0 / 50.0).abs() < 1e-12, "{rows:?}");
    assert_eq!(rows[2].1, 0.0);
    // Rolled: A's d10 then Brigand's; no AP spent twice.
    let e = resolve(&s, 1, straight, dice).unwrap();
    assert_eq!(dice.remaining(), 0, "both check dice rolled");
    run(&mut s, e);
    assert_eq!((ap(&s, 1), ap(&s, 2)), (8, 9));
    assert!(s.log.iter().any(|l| l.text == "A: 7 +0 = 7"), "{:?}", s.log);
    assert!(s.log.iter().any(|l| l.text == "Brigand: 3 +1 = 4"));
    assert_eq!(facing(&s, 2), None, "rolled: the declaration is over");
}

#[test]
fn tempo_n2_the_reaction_is_the_targets_own_answer() {
    use crate::rules::referee::Intent;
    use crate::rules::tempo::referee::{exchange_of, offers, resolve, Action::*};
    let mut s = review_duel();
    let ma = id("Melee Attack") as u32;
    let dice = &mut crate::rules::dice::ScriptedSource::new(vec![5, 5]);
    take(&mut s, 1, declare_b(ma), dice);
    // Only Brigand answers, and only once; the actor's side offers no reaction to pick.
    assert!(offers(&s, 1)
        .iter()
        .all(|o| !matches!(o.action, Intent::Tempo(Answer(_)))));
    assert!(resolve(&s, 1, Answer(None), dice).is_err());
    let parry = id("Parry") as u32;
    take(&mut s, 2, Answer(Some(parry)), dice);
    assert_eq!(
        resolve(&s, 2, Answer(None), dice),
        Err("not something this combatant can do in this fight".into()),
        "answered once"
    );
    // The exchange the actor rolls is opposed by that parry, whatever it would rather.
    let x = exchange_of(&s, 1, ma, 2, 0);
    assert_eq!(x.reaction, Some(parry as usize));
    take(&mut s, 1, against_b(ma, 0), dice);
    assert!(s.log.iter().any(|l| l.text == "Brigand reacts: Parry"));
    // A replacement only among those the answer allows (a parry of a melee attack: none).
    assert!(replacements(ma as usize, parry as usize).is_empty());
}

#[test]
fn an_action_no_one_can_answer_is_rolled_straight_away_and_a_feint_turns_after_the_answer() {
    use crate::rules::tempo::referee::{resolve, Action::*};
    let mut s = review_duel();
    let dice = &mut crate::rules::dice::ScriptedSource::new(vec![4, 6, 9]);
    // A move against no one in particular: Brigand, On Guard with a sword, could counter-attack
    // it (#3), so it is declared against someone first; Off Guard, nobody reacts: rolled at once.
    let ready = Exchange {
        action: id("Move") as u32,
        target: 0,
        replacement: 0,
    };
    assert_eq!(
        resolve(&s, 1, ready, dice),
        Err("declare it against someone first: Brigand may react".into())
    );
    set_status(&mut s, 2, Status::OffGuard);
    take(&mut s, 1, ready, dice);
    assert_eq!(ap(&s, 1), 10);
    // A feint (2 AP on this sheet) declared, parried, then replaced by the counter-attack at +3: the larger cost in all, the rest paid now.
    let mut sheet = TempoSheet::default();
    sheet.weapons[0].set_cost("Feint", 2);
    sheet.weapons[0].set_cost("Counter-Attack", 5);
    let mut t = duel(&sheet);
    let (feint, parry) = (id("Feint") as u32, id("Parry") as u32);
    take(&mut t, 1, declare_b(feint), dice);
    assert_eq!(ap(&t, 1), 10);
    assert!(t
        .log
        .iter()
        .any(|l| l.text == "A declares a melee attack against Brigand, who may react"));
    take(&mut t, 2, Answer(Some(parry)), dice);
    let turn = |k| against_b(feint, k);
    assert_eq!(
        resolve(&t, 1, turn(2), dice),
        Err("no such counter-tempo replacement here".into())
    );
    take(&mut t, 1, turn(1), dice);
    assert_eq!(ap(&t, 1), 7, "5 in all: 3 more after the declared 2");
    assert!(t
        .log
        .iter()
        .any(|l| l.text == "A replaces it with Counter-Attack at +3; pays 3 more"));
}

/// The exact Miss / Hit / Critical of an unopposed check of 1d10 + `bonus` against CD 5 /
/// ACD 8, counted over the ten faces, as tenths.
fn tenths(a: &Action, bonus: i32) -> Vec<u32> {
    let mut out = vec![0; a.rows.len()];
    for f in 1..=10 {
        out[a.row_of(i64::from(f + bonus), 5, 8, 5)] += 1;
    }
    out
}

/// #5: Play's check adds what the fight adds: a bow's aimed accuracy +3 after an aim (Miss
/// 1/10, Hit 3/10, Critical 3/5 against CD 5 / ACD 8, not 2/5, 3/10, 3/10), a feint's
/// counter-attack +3, a counter-attack against fists +5; nothing where it does not apply.
#[test]
fn tempo_r5_plays_check_has_aim_feint_and_fists() {
    let mut sheet = TempoSheet::default();
    let mut bow = Weapon::new("Bow", true);
    bow.aimed = 3;
    sheet.weapons.push(bow);
    let (ra, ca, parry) = (id("Ranged Attack"), id("Counter-Attack"), id("Parry"));
    assert_eq!(sheet.situational(ra, 1), 3);
    assert_eq!(sheet.situational(ra, 0), 0);
    assert_eq!(sheet.situational(ca, 2), 3);
    assert_eq!(sheet.situational(ca, 3), 5);
    assert_eq!(sheet.situational(parry, 3), 0, "only a counter-attack");
    assert_eq!(sheet.situational(parry, 1), 0, "not a weapon attack");
    // Play's odds are the rows over the dice shifted by the bonus and the situation.
    let a = &ACTIONS[ra];
    let b = sheet.bonus(a.name) + sheet.situational(ra, 1);
    let net = sheet.dice_dist().unwrap().shift(i64::from(b));
    let rows = row_odds(a, &net, 1, [5, 8, 5]);
    let got: Vec<f64> = rows.iter().map(|r| r.1.p()).collect();
    let want: Vec<f64> = tenths(a, b).iter().map(|&n| f64::from(n) / 10.0).collect();
    assert_eq!(want, [0.1, 0.3, 0.6]);
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-12, "{got:?}");
    }
}

/// The archer of #6 and N7: moves 2, +3 aimed accuracy, a bow at 3 AP, defences 5 / 8.
fn archer() -> Npc {
    Npc {
        defence: 5,
        armoured: 8,
        grapple: 5,
        health: 10,
        dice: "1d10".into(),
        bonus: 0,
        melee: 0,
        ranged: 3,
        movement: 2,
        aimed: 3,
    }
}

/// #6: the quick NPC's base combat movement is the GM's: an ogre's move reads 2, not a fixed 4.
#[test]
fn tempo_r6_the_quick_npc_moves_by_its_own_movement() {
    let c = npc("Archer", &archer());
    assert_eq!(c.stat(MOVEMENT), 2);
    let mut m = State::new(&TEMPO);
    run(&mut m, Event::Join(c));
    run(&mut m, Event::Init(1, vec![5]));
    run(&mut m, Event::Start);
    let mv = Exchange {
        actor: 1,
        action: id("Move"),
        target: None,
        reaction: None,
        replacement: None,
        also: Vec::new(),
    };
    let e = mv.resolve(&m, None, None).unwrap();
    run(&mut m, e);
    assert!(
        m.log
            .iter()
            .any(|l| l.text.ends_with("Success (movement 2)")),
        "{:?}",
        m.log
    );
}

/// N7: the quick NPC's aimed accuracy: an archer with +3 shoots after its aim at Miss 1/10,
/// Hit 3/10, Critical 3/5 against CD 5 / ACD 8 (not 2/5, 3/10, 3/10: the aim bought nothing).
#[test]
fn tempo_n7_the_quick_npcs_aim_adds_its_aimed_accuracy() {
    let mut s = State::new(&TEMPO);
    run(&mut s, Event::Join(npc("Archer", &archer())));
    run(&mut s, Event::Join(npc("Target", &archer())));
    run(&mut s, Event::Init(1, vec![5]));
    run(&mut s, Event::Start);
    set_status(&mut s, 1, Status::OnGuard);
    let shot = Exchange {
        actor: 1,
        action: id("Ranged Attack"),
        target: Some(2),
        reaction: None,
        replacement: None,
        also: Vec::new(),
    };
    let aim = Exchange {
        action: id("Aim"),
        ..shot.clone()
    };
    assert_eq!(shot.actor_bonus(&s), 0);
    let e = aim.resolve(&s, None, None).unwrap();
    run(&mut s, e);
    assert_eq!(shot.actor_bonus(&s), 3);
    let (rows, _) = shot.odds(&s).unwrap();
    let got: Vec<f64> = rows.iter().map(|r| r.1.p()).collect();
    assert_eq!(tenths(&ACTIONS[id("Ranged Attack")], 3), [1, 3, 6]);
    for (g, w) in got.iter().zip([0.1, 0.3, 0.6]) {
        assert!((g - w).abs() < 1e-12, "{got:?}");
    }
}

/// N6: a saved sheet marked as an NPC joins as one (its numbers stay on the GM's phone); an
/// unmarked one as a player character; a sheet saved before the mark reads unmarked.
#[test]
fn tempo_n6_a_saved_npc_stays_an_npc() {
    let mut sheet = TempoSheet::default();
    assert!(from_sheet("Ilse", &sheet).pc);
    crate::rules::edit::Edits::apply(&mut sheet, Edit::Npc(true)).unwrap();
    let ogre = from_sheet("Ogre", &sheet);
    assert!(!ogre.pc);
    assert!(
        !crate::storage::table::open(&ogre),
        "its numbers are not shown"
    );
    let mut json = serde_json::to_value(&sheet).unwrap();
    json.as_object_mut().unwrap().remove("npc");
    let old: TempoSheet = serde_json::from_value(json).unwrap();
    assert!(!old.npc);
}

/// #1: a bind or grapple records who is locked with whom; each acts on (and answers) only its
/// partner. A, C and B; A's attack parried at exactly 0 binds A and B (C Off Guard): A's
/// Withdraw "against" C is refused (it freed B's bind on nobody before), against B frees both;
/// grappled with B, A's Pin or Press against On Guard C is refused.
#[test]
fn tempo_r1_a_bind_or_grapple_is_with_its_partner() {
    let mut s = fight();
    run(&mut s, Event::Join(test_npc("C")));
    set_status(&mut s, 1, Status::OnGuard);
    let ex = Exchange {
        actor: 1,
        action: id("Melee Attack"),
        target: Some(2),
        reaction: Some(id("Parry")),
        replacement: None,
        also: Vec::new(),
    };
    let e = ex.resolve(&s, Some((5, "5")), Some((6, "6"))).unwrap();
    run(&mut s, e);
    assert_eq!(
        (partner(&s, 1), partner(&s, 2), partner(&s, 3)),
        (Some(2), Some(1), None)
    );
    let against = |action: &str, t: u32| Exchange {
        actor: 1,
        action: id(action),
        target: Some(t),
        reaction: None,
        replacement: None,
        also: Vec::new(),
    };
    let only_b = Err("A is locked with B: only against it".to_owned());
    assert_eq!(against("Withdraw", 3).costs(&s).map(|_| ()), only_b.clone());
    assert_eq!(against("Press", 3).costs(&s).map(|_| ()), only_b.clone());
    // Nor does A answer anyone but B: C's attack on A gets no wind from it.
    let mut on_c = s.clone();
    set_status(&mut on_c, 3, Status::OnGuard);
    for _ in 0..4 {
        if on_c.current != Some(3) {
            run(&mut on_c, Event::Next);
        }
    }
    assert_eq!(on_c.current, Some(3));
    assert_eq!(partner(&on_c, 1), Some(2), "still bound");
    let c_attacks = Exchange {
        actor: 3,
        action: id("Melee Attack"),
        target: Some(1),
        reaction: Some(id("Wind")),
        replacement: None,
        also: Vec::new(),
    };
    assert_eq!(c_attacks.costs(&on_c).map(|_| ()), only_b.clone());
    let e = against("Withdraw", 2)
        .resolve(&s, Some((9, "9")), None)
        .unwrap();
    let mut freed = s.clone();
    run(&mut freed, e);
    assert_eq!(status(&freed, 1), Status::OnGuard);
    assert_eq!(status(&freed, 2), Status::OnGuard);
    assert_eq!(status(&freed, 3), Status::OffGuard, "C unchanged");
    assert_eq!((partner(&freed, 1), partner(&freed, 2)), (None, None));
    assert_eq!(freed.get(1).unwrap().stat(PARTNER), 0);
    // Grappled with B, C On Guard: Pin and Press against C refused, Pin against B allowed.
    let mut g = s.clone();
    let e = against("Grapple", 2)
        .resolve(&g, Some((9, "9")), None)
        .unwrap();
    run(&mut g, e);
    assert_eq!((status(&g, 1), partner(&g, 1)), (Status::Grappled, Some(2)));
    set_status(&mut g, 3, Status::OnGuard);
    assert_eq!(against("Pin", 3).costs(&g).map(|_| ()), only_b);
    assert!(against("Pin", 2).costs(&g).is_ok());
    // A fight saved before kept no partner: nothing is refused for it.
    let mut old = s.clone();
    run(&mut old, Event::Set(1, PARTNER, 0));
    assert_eq!(partner(&old, 1), None);
    assert!(against("Withdraw", 3).costs(&old).is_ok());
}

/// #4: each action is priced by the weapon in hand, and a switch is taken: [Dagger: Melee
/// Attack 2, Parry 2], [Long sword: 4, 3]; the long sword taken in hand prices Melee Attack 4
/// and Parry 3 on the sheet and in the fight it joins (and, open, the shared "Weapons in hand"
/// brings the new prices: `tempo_n4_…`).
#[test]
fn tempo_r4_actions_are_priced_by_the_weapon_in_hand() {
    use crate::rules::edit::Edits;
    let mut sheet = TempoSheet::default();
    let mut dagger = Weapon::new("Dagger", false);
    dagger.set_cost("Melee Attack", 2);
    dagger.set_cost("Parry", 2);
    let mut sword = Weapon::new("Long sword", false);
    sword.set_cost("Melee Attack", 4);
    sword.set_cost("Parry", 3);
    let bow = Weapon::new("Bow", true);
    sheet.weapons = vec![dagger, bow, sword];
    let (ma, parry) = (id("Melee Attack"), id("Parry"));
    let priced = |s: &TempoSheet| {
        let c = from_sheet("A", s);
        (cost(&c, ma), cost(&c, parry))
    };
    assert_eq!(priced(&sheet), (Ok(2), Ok(2)), "the dagger in hand");
    sheet.apply(Edit::Wield(2)).unwrap();
    assert_eq!(sheet.weapon(Arm::Melee).unwrap().name, "Long sword");
    assert_eq!(priced(&sheet), (Ok(4), Ok(3)));
    let names: Vec<&str> = sheet.weapons.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(
        names,
        ["Long sword", "Dagger", "Bow"],
        "the bow stays in hand too"
    );
    assert_eq!(sheet.weapon(Arm::Ranged).unwrap().name, "Bow");
    // Back to the dagger; a weapon already in hand or out of range changes nothing.
    sheet.apply(Edit::Wield(1)).unwrap();
    assert_eq!(priced(&sheet), (Ok(2), Ok(2)));
    let before = sheet.clone();
    sheet.apply(Edit::Wield(0)).unwrap();
    sheet.apply(Edit::Wield(9)).unwrap();
    assert_eq!(sheet, before);
}

/// A (this sheet) against two quick NPCs, B and C, all On Guard, A's turn.
fn melee_of_three(sheet: &TempoSheet) -> State {
    let mut s = duel(sheet);
    s.apply(&Event::Join(test_npc("C")));
    s.apply(&Event::Init(3, vec![2]));
    set_status(&mut s, 3, Status::OnGuard);
    s
}

#[test]
fn tempo_r3_every_opponent_may_react_not_only_the_target() {
    use crate::rules::referee::Intent;
    use crate::rules::tempo::referee::{exchange_of, offers, resolve, Action::*};
    // The review's case: A moves past B and C, both On Guard with swords.
    let mut s = melee_of_three(&TempoSheet::default());
    let (mv, ca) = (id("Move") as u32, id("Counter-Attack") as u32);
    let dice = &mut crate::rules::dice::ScriptedSource::new(vec![2, 7]);
    // Nothing declared yet: C has nothing to react to.
    assert_eq!(
        resolve(&s, 3, Answer(Some(ca)), dice),
        Err("not something this combatant can do in this fight".into())
    );
    take(&mut s, 1, declare_b(mv), dice);
    assert_eq!(ap(&s, 1), 10);
    // B answers as the target; C, the other opponent, is offered its own reactions to it.
    assert_eq!(
        open_to(&s, 3).map(|x| x.0),
        Some("A declares a move against Brigand: C may react too".into())
    );
    let c_may: Vec<String> = offers(&s, 3)
        .into_iter()
        .filter(|o| matches!(o.action, Intent::Tempo(Answer(_))) && o.refused.is_none())
        .map(|o| o.label)
        .collect();
    assert_eq!(c_may.len(), 2, "{c_may:?}");
    assert!(c_may[0].starts_with("Counter-Attack against A · 3 AP"));
    assert!(c_may[1].starts_with("Retreat against A · 3 AP"));
    take(&mut s, 2, Answer(Some(ca)), dice);
    take(&mut s, 3, Answer(Some(ca)), dice);
    // C's reaction is declared, paid on credit and in the exchange (it kept 12 AP before).
    assert_eq!(ap(&s, 3), 9);
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "C reacts too, to A’s move: Counter-Attack"));
    assert_eq!(open_to(&s, 3), None, "once");
    let x = exchange_of(&s, 1, mv, 2, 0);
    assert_eq!(x.also, vec![(3, ca as usize)]);
    // Its rows before the roll: C's 1d10 + 1 less A's 0 against A's defences 5 / 8.
    let (_, _, rows) = x.also_odds(&s).unwrap().remove(0);
    let p: Vec<f64> = rows.iter().map(|r| (r.1.p() * 1e9).round() / 1e9).collect();
    assert_eq!(p, [0.3, 0.3, 0.4], "miss 2–4, hit 5–7, critical 8–11");
    // Rolled: A moves (no check), B rolls 2 + 1, C 7 + 1: both strike A, each its own row.
    take(&mut s, 1, against_b(mv, 0), dice);
    let said: Vec<&str> = s.log.iter().map(|l| l.text.as_str()).collect();
    for line in [
        "Brigand reacts: Counter-Attack",
        "C reacts too: Counter-Attack",
        "C: 7 +1 = 8",
        "C: Counter-Attack net 8: Critical Hit",
        "A is hit: roll damage, ignoring armour",
    ] {
        assert!(said.contains(&line), "{line}: {said:?}");
    }
    assert_eq!(ap(&s, 3), 9, "paid once");
    assert_eq!(open_to(&s, 3), None);
    assert_eq!(facing(&s, 3), None, "the declaration is over for C too");
}

#[test]
fn tempo_r3_one_who_reacted_and_fell_drops_out_of_the_exchange() {
    use crate::rules::tempo::referee::{exchange_of, Action::*};
    let mut s = melee_of_three(&TempoSheet::default());
    let (mv, ca) = (id("Move") as u32, id("Counter-Attack") as u32);
    let dice = &mut crate::rules::dice::ScriptedSource::new(vec![4]);
    take(&mut s, 1, declare_b(mv), dice);
    take(&mut s, 3, Answer(Some(ca)), dice);
    take(&mut s, 2, Answer(None), dice);
    assert_eq!(exchange_of(&s, 1, mv, 2, 0).also, vec![(3, ca as usize)]);
    // C falls before the roll (damage from elsewhere): the exchange goes on without it.
    run(&mut s, Event::Dies(3));
    assert!(exchange_of(&s, 1, mv, 2, 0).also.is_empty());
    take(&mut s, 1, against_b(mv, 0), dice);
    assert!(!s
        .log
        .iter()
        .any(|l| l.text == "C reacts too: Counter-Attack"));
    assert_eq!(ap(&s, 3), 9, "its AP stay spent");
    assert_eq!(facing(&s, 3), None, "the declaration is over for it too");
}

#[test]
fn tempo_r3_a_guarding_reaction_is_the_targets_alone() {
    use crate::rules::tempo::referee::{exchange_of, resolve, Action::*};
    let mut s = melee_of_three(&TempoSheet::default());
    let ma = id("Melee Attack") as u32;
    let dice = &mut crate::rules::dice::ScriptedSource::new(vec![9, 1, 1]);
    take(&mut s, 1, declare_b(ma), dice);
    // C may counter-attack A's attack on B, not parry or evade it for B.
    let list = open_to(&s, 3).unwrap().1;
    let why = |r: &str| list.iter().find(|x| x.0 == id(r)).unwrap().1.clone();
    assert_eq!(why("Counter-Attack"), Ok(3));
    assert_eq!(
        why("Parry"),
        Err("Parry guards only the one it is against (Brigand)".into())
    );
    assert_eq!(
        why("Evade"),
        Err("Evade guards only the one it is against (Brigand)".into())
    );
    assert_eq!(
        resolve(&s, 3, Answer(Some(id("Parry") as u32)), dice),
        Err("Parry guards only the one it is against (Brigand)".into())
    );
    // C has no "no reaction" to give: it simply does not react, and the exchange does not
    // wait for it.
    assert!(resolve(&s, 3, Answer(None), dice).is_err());
    take(&mut s, 2, Answer(None), dice);
    assert!(exchange_of(&s, 1, ma, 2, 0).also.is_empty());
    // One locked with someone else (C bound with D) answers only that one.
    let mut t = melee_of_three(&TempoSheet::default());
    t.apply(&Event::Join(test_npc("D")));
    for (w, o) in [(3, 4), (4, 3)] {
        set_status(&mut t, w, Status::Bound);
        t.apply(&Event::Set(w, PARTNER, o));
    }
    assert_eq!(partner(&t, 3), Some(4));
    take(&mut t, 1, declare_b(id("Move") as u32), dice);
    let c = side_reactions(&t, 3, 1, 2, id("Move"));
    assert!(!c.is_empty());
    for (r, why) in c {
        let locked = Err("C is locked with D".to_owned());
        let off = Err(format!("{} needs On Guard", ACTIONS[r].name));
        assert!(why == locked || why == off, "{why:?}");
    }
    assert_eq!(open_to(&t, 3), None, "not asked: nothing it can take");
    // The target locked with another is refused the same way (not asked to pay and then
    // refused at the roll): B bound with D, A's move against B.
    let mut u = melee_of_three(&TempoSheet::default());
    u.apply(&Event::Join(test_npc("D")));
    for (w, o) in [(2, 4), (4, 2)] {
        set_status(&mut u, w, Status::Bound);
        u.apply(&Event::Set(w, PARTNER, o));
    }
    let mv = id("Move");
    assert!(side_reactions(&u, 2, 1, 2, mv).iter().all(|x| x.1.is_err()));
    take(&mut u, 1, declare_b(mv as u32), dice);
    assert!(u
        .log
        .iter()
        .any(|l| l.text == "A declares a move against Brigand, who cannot react"));
    assert_eq!(answered(&u, 2), Some(None), "answered at the declaration");
    assert_eq!(
        open_to(&u, 3).map(|x| x.0),
        Some("A declares a move against Brigand: C may react too".into())
    );
}

#[test]
fn tempo_r3_the_others_rows_match_enumeration_and_sum_to_one() {
    // A's action against B with B's reaction, and C's reaction too, over small dice: C's rows
    // from C's result less A's, by brute force over every face.
    for (da, dc) in [("1d4", "1d6"), ("2d4", "1d8"), ("1d6+1", "2d3")] {
        let mut s = melee_of_three(&TempoSheet::default());
        s.combatants[0].texts[0] = da.into();
        s.combatants[2].texts[0] = dc.into();
        for (action, bystander) in [
            ("Melee Attack", "Counter-Attack"),
            ("Unarmed Attack", "Counter-Attack"),
            ("Combat Move", "Counter-Attack"),
            ("Combat Move", "Retreat"),
            ("Move", "Retreat"),
        ] {
            let x = Exchange {
                actor: 1,
                action: id(action),
                target: Some(2),
                reaction: None,
                replacement: None,
                also: vec![(3, id(bystander))],
            };
            assert!(x.costs(&s).is_ok(), "{action} / {bystander}");
            let a = &ACTIONS[id(action)];
            let r = &ACTIONS[id(bystander)];
            let av: Vec<i64> = if a.check {
                faces(da)
                    .into_iter()
                    .map(|v| v + i64::from(x.actor_bonus(&s)))
                    .collect()
            } else {
                vec![0]
            };
            let cb = i64::from(x.reaction_bonus(&s, 3, id(bystander)));
            let cv: Vec<i64> = faces(dc).into_iter().map(|v| v + cb).collect();
            let mut want = vec![0.0; r.rows.len()];
            for &u in &av {
                for &v in &cv {
                    want[r.row_of(v - u, 5, 8, 5)] += 1.0 / (av.len() * cv.len()) as f64;
                }
            }
            let got = x.also_odds(&s).unwrap().remove(0).2;
            let sum: f64 = got.iter().map(|g| g.1.p()).sum();
            assert!((sum - 1.0).abs() < 1e-12, "{action} / {bystander}: {sum}");
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g.1.p() - w).abs() < 1e-12,
                    "{action} / {bystander} {}: {} vs {w}",
                    g.0,
                    g.1.p()
                );
            }
        }
    }
}
