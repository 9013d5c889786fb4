use super::systems::{AURA, HEIMR, SYMBAROUM, TEMPO, VOGT};
use super::*;
use crate::rules::dice::{DiceSource, SeededSource};
use crate::rules::symbaroum::combat::{npc, Npc, QUICK, VIGILANT};

fn sym(name: &str, quick: i32, vigilant: i32) -> Combatant {
    npc(name, &Npc::quick(10, 10, quick, vigilant, 10, "1d6", ""))
}

fn run(rules: &'static CombatRules, events: &[Event]) -> State {
    State::replay(rules, events)
}

fn names(s: &State) -> Vec<&str> {
    s.order.iter().map(|&id| s.name(id)).collect()
}

#[test]
fn symbaroum_order_quick_then_vigilant_then_rolloff() {
    let mut ev = vec![
        Event::Join(sym("Slow", 9, 15)),
        Event::Join(sym("Fast", 14, 8)),
        Event::Join(sym("Keen", 12, 13)),
        Event::Join(sym("Dull", 12, 9)),
        Event::Join(sym("Twin A", 11, 11)),
        Event::Join(sym("Twin B", 11, 11)),
    ];
    let s = run(&SYMBAROUM, &ev);
    assert_eq!(s.tied(), vec![5, 6], "the twins need a roll-off");
    ev.push(Event::RollOff(5, 7));
    ev.push(Event::RollOff(6, 7));
    let s = run(&SYMBAROUM, &ev);
    assert_eq!(s.tied(), vec![5, 6], "still tied after equal dice");
    ev.push(Event::RollOff(5, 3));
    ev.push(Event::RollOff(6, 18));
    ev.push(Event::Start);
    let s = run(&SYMBAROUM, &ev);
    assert!(s.tied().is_empty());
    assert_eq!(
        names(&s),
        ["Fast", "Keen", "Dull", "Twin B", "Twin A", "Slow"]
    );
    assert_eq!(s.why_before(2, 3), "Quick 14 vs 12");
    assert_eq!(s.why_before(3, 4), "Vigilant 13 vs 9");
    assert_eq!(s.why_before(6, 5), "roll-off d20: 7, 18 vs 7, 3");
    assert_eq!(s.current, Some(2));
    assert_eq!(s.round, 1);
}

#[test]
fn waiting_moves_a_combatant_and_says_why() {
    let mut ev = vec![
        Event::Join(sym("A", 14, 10)),
        Event::Join(sym("B", 12, 10)),
        Event::Join(sym("C", 10, 10)),
        Event::Start,
    ];
    ev.push(Event::Place(1, None)); // A waits until last: B acts now
    let s = run(&SYMBAROUM, &ev);
    assert_eq!(names(&s), ["B", "C", "A"]);
    assert_eq!(s.current, Some(2));
    assert_eq!(s.why_before(3, 1), "A chose this place");
    ev.push(Event::Next);
    ev.push(Event::Next);
    let s = run(&SYMBAROUM, &ev);
    assert_eq!((s.current, s.round), (Some(1), 1));
    ev.push(Event::Next);
    let s = run(&SYMBAROUM, &ev);
    assert_eq!(
        (s.current, s.round),
        (Some(2), 2),
        "the order stays as placed"
    );
}

/// Effects anchored to one of two combatants with identical initiative end on that
/// combatant's turn, never on its twin's.
#[test]
fn expiry_at_tied_initiatives() {
    let mut ev = vec![
        Event::Join(sym("A", 12, 12)),
        Event::Join(sym("B", 12, 12)),
        Event::Join(sym("C", 9, 9)),
        Event::RollOff(1, 10),
        Event::RollOff(2, 10),
        Event::RollOff(1, 9),
        Event::RollOff(2, 4),
        Event::Start, // A's turn
        Event::Add(3, "Prone".into(), Duration::End { who: 2, n: 1 }),
        Event::Add(3, "Blind".into(), Duration::Start { who: 2, n: 2 }),
        Event::Add(1, "Flanked".into(), Duration::Round { n: 1 }),
    ];
    let s = run(&SYMBAROUM, &ev);
    assert_eq!(s.current, Some(1));
    ev.push(Event::Next); // A's turn ends: nothing anchored to A
    let s = run(&SYMBAROUM, &ev);
    assert!(s.has(3, "Prone"));
    assert_eq!(s.current, Some(2));
    assert!(
        s.has(3, "Blind"),
        "first start of B's turn counts one of two"
    );
    ev.push(Event::Next); // B's turn ends: Prone ends
    let s = run(&SYMBAROUM, &ev);
    assert!(!s.has(3, "Prone"));
    assert!(s.log.iter().any(|l| l.text == "Prone on C ends"));
    assert!(s.has(1, "Flanked"));
    ev.push(Event::Next); // C's turn ends, round 2, A's turn: the round's end took Flanked
    let s = run(&SYMBAROUM, &ev);
    assert_eq!((s.round, s.current), (2, Some(1)));
    assert!(!s.has(1, "Flanked"));
    assert!(s.has(3, "Blind"));
    ev.push(Event::Next); // start of B's second turn: Blind ends
    let s = run(&SYMBAROUM, &ev);
    assert!(!s.has(3, "Blind"));
}

#[test]
fn implied_conditions_hold_with_their_parent() {
    // Heimr's injured leg holds its fall (Prone) while it holds.
    let mut ev = vec![
        Event::Join(Combatant::new(&HEIMR, "A", 10)),
        Event::Join(Combatant::new(&HEIMR, "B", 10)),
        Event::Start,
        Event::Add(2, "Injured leg".into(), Duration::Removed),
    ];
    let s = run(&HEIMR, &ev);
    let surprised = s
        .conditions_of(2)
        .find(|a| a.name == "Injured leg")
        .unwrap()
        .cid;
    let unaware = s
        .conditions_of(2)
        .find(|a| a.name == "Prone")
        .unwrap()
        .clone();
    assert_eq!(unaware.parent, Some(surprised));
    assert_eq!(s.remaining(&unaware), "from Injured leg");
    ev.push(Event::Remove(unaware.cid));
    let s = run(&HEIMR, &ev);
    assert!(s.has(2, "Prone"), "refused while Injured leg holds");
    assert!(s
        .log
        .last()
        .unwrap()
        .text
        .contains("while Injured leg holds"));
    let mut removed = ev.clone();
    removed.push(Event::Remove(surprised));
    let s = run(&HEIMR, &removed);
    assert_eq!(
        s.conditions_of(2).count(),
        0,
        "the daughter goes with the parent"
    );
    // A timed parent: Fallen for the round takes its Prone along when the round ends.
    let mut timed = ev[..3].to_vec();
    timed.push(Event::Add(2, "Fallen".into(), Duration::Round { n: 1 }));
    let s = run(&HEIMR, &timed);
    assert!(s.has(2, "Prone"));
    timed.extend([Event::Next, Event::Next]);
    let s = run(&HEIMR, &timed);
    assert_eq!(s.conditions_of(2).count(), 0);
    // Tempo: the five statuses imply nothing (one is held at a time; rules::tempo keeps it so).
    let t = run(
        &TEMPO,
        &[
            Event::Join(Combatant::new(&TEMPO, "P", 10)),
            Event::Add(1, "Pinned".into(), Duration::Removed),
        ],
    );
    assert_eq!(t.held(1), vec!["Pinned"]);
}

#[test]
fn per_turn_and_per_round_resources_reset_by_themselves() {
    // Symbaroum: one combat and one movement action per turn; a trade for a second move.
    let ev = vec![
        Event::Join(sym("A", 12, 12)),
        Event::Join(sym("B", 10, 10)),
        Event::Start,
        Event::Trade(1, 0, 1),
        Event::Spend(1, 1, 2),
        Event::Spend(1, 1, 1),
    ];
    let s = run(&SYMBAROUM, &ev);
    assert_eq!(s.get(1).unwrap().pools, vec![0, 0]);
    assert!(s.log.last().unwrap().text.contains("no Movement left"));
    let mut more = ev.clone();
    more.extend([Event::Next, Event::Next]);
    let s = run(&SYMBAROUM, &more);
    assert_eq!(
        s.get(1).unwrap().pools,
        vec![1, 1],
        "refilled at A's next turn"
    );
    // Aura: no turns, pools per round: energy from stamina (at most 5), agility from its
    // stat; stamina never refills by itself.
    let mut c = Combatant::new(&AURA, "E", 20);
    c.stats = vec![6, 3];
    let ev = vec![
        Event::Join(c),
        Event::Start,
        Event::Spend(1, 0, 4),
        Event::Spend(1, 4, 1),
        Event::Spend(1, 2, 3),
    ];
    let s = run(&AURA, &ev);
    assert_eq!(
        s.get(1).unwrap().pools,
        vec![1, 3, 3, 1, 0, 1, 1, 1, 0, 0, 0]
    );
    assert_eq!(s.current, None);
    let mut next = ev.clone();
    next.push(Event::Next);
    let s = run(&AURA, &next);
    assert_eq!(
        (s.round, s.get(1).unwrap().pools.clone()),
        (2, vec![3, 3, 3, 1, 1, 1, 1, 1, 0, 0, 0]),
        "energy follows the stamina left"
    );
    // Tempo: AP spent on reactions may go below 0 and recover at the end of one's own turn by
    // the Recover Stamina table (−2 gets 10 back).
    let mut a = Combatant::new(&TEMPO, "A", 10);
    a.init = vec![8];
    let mut b = Combatant::new(&TEMPO, "B", 10);
    b.init = vec![5];
    let ev = vec![
        Event::Join(a),
        Event::Join(b),
        Event::Start,
        Event::Spend(2, 0, 14),
    ];
    let s = run(&TEMPO, &ev);
    assert_eq!(s.get(2).unwrap().pools, vec![-2]);
    let mut e2 = ev.clone();
    e2.push(Event::Next); // A's turn ends: A refills; B still owes
    let s = run(&TEMPO, &e2);
    assert_eq!((s.get(2).unwrap().pools[0], s.current), (-2, Some(2)));
    e2.push(Event::Next);
    let s = run(&TEMPO, &e2);
    assert_eq!(s.get(2).unwrap().pools[0], 8);
    assert!(s
        .log
        .iter()
        .any(|l| l.text == "B recovers 10 AP by the table (-2 → 8)"));
}

#[test]
fn vogt_declares_every_round_and_the_lowest_goes_first() {
    let ev = vec![
        Event::Join(Combatant::new(&VOGT, "A", 10)),
        Event::Join(Combatant::new(&VOGT, "B", 10)),
        Event::Start,
        Event::Init(1, vec![7]),
        Event::Init(2, vec![3]),
    ];
    let s = run(&VOGT, &ev);
    assert_eq!((names(&s), s.current), (vec!["B", "A"], None));
    let mut e = ev.clone();
    e.push(Event::Next);
    let s = run(&VOGT, &e);
    assert_eq!(s.current, Some(2));
    e.extend([Event::Next, Event::Next]); // round 2: declaring again
    let s = run(&VOGT, &e);
    assert_eq!((s.round, s.current), (2, None));
    e.extend([
        Event::Init(1, vec![2]),
        Event::Init(2, vec![9]),
        Event::Next,
    ]);
    let s = run(&VOGT, &e);
    assert_eq!((names(&s), s.current), (vec!["A", "B"], Some(1)));
    // Heimr: rolled once; a later roll does not reorder a running fight.
    let mut a = Combatant::new(&HEIMR, "A", 10);
    a.init = vec![12, 3];
    let mut b = Combatant::new(&HEIMR, "B", 10);
    b.init = vec![12, 5];
    let s = run(
        &HEIMR,
        &[Event::Join(a.clone()), Event::Join(b.clone()), Event::Start],
    );
    assert_eq!(s.why_before(2, 1), "Willpower 5 vs 3");
    let s = run(
        &HEIMR,
        &[
            Event::Join(a),
            Event::Join(b),
            Event::Start,
            Event::Init(1, vec![20, 3]),
        ],
    );
    assert_eq!(names(&s), ["B", "A"]);
}

#[test]
fn dying_and_death_tests() {
    let mut pc = sym("Hero", 12, 10);
    pc.pc = true;
    let ev = vec![
        Event::Join(pc),
        Event::Join(sym("Goblin", 10, 10)),
        Event::Start,
        Event::Damage(vec![1, 2], 30),
    ];
    let s = run(&SYMBAROUM, &ev);
    let (hero, gob) = (s.get(1).unwrap(), s.get(2).unwrap());
    assert_eq!((hero.hp, hero.dead, s.dying(hero)), (0, false, true));
    assert!(gob.dead, "a non-player combatant dies at 0");
    let mut e = ev.clone();
    e.push(Event::Heal(vec![1], 1, false));
    let s = run(&SYMBAROUM, &e);
    assert_eq!(
        s.get(1).unwrap().hp,
        0,
        "natural healing does not stabilize"
    );
    e.push(Event::Death(1, 15, 0));
    e.push(Event::Death(1, 5, 0));
    e.push(Event::Death(1, 11, 0));
    let s = run(&SYMBAROUM, &e);
    assert_eq!(
        (s.get(1).unwrap().death, s.get(1).unwrap().dead),
        (2, false)
    );
    let mut healed = e.clone();
    healed.push(Event::Heal(vec![1], 3, true));
    let s = run(&SYMBAROUM, &healed);
    assert_eq!((s.get(1).unwrap().hp, s.get(1).unwrap().death), (3, 0));
    healed.push(Event::Heal(vec![1], 99, true));
    let s = run(&SYMBAROUM, &healed);
    assert_eq!(s.get(1).unwrap().hp, 10, "never above the maximum");
    e.push(Event::Death(1, 19, 0));
    let s = run(&SYMBAROUM, &e);
    assert!(s.get(1).unwrap().dead, "the third 11–19 kills");
    let mut woke = ev.clone();
    woke.push(Event::Death(1, 1, 3));
    let s = run(&SYMBAROUM, &woke);
    assert_eq!(s.get(1).unwrap().hp, 3);
    // The death test is due on the dying character's own turn.
    let mut turn = ev.clone();
    turn.extend([Event::Next, Event::Next]);
    let s = run(&SYMBAROUM, &turn);
    assert_eq!(s.current, Some(1), "the dead goblin is skipped");
    assert!(s.log.last().unwrap().text.contains("death test is due"));
}

#[test]
fn joining_and_leaving_mid_fight() {
    let ev = vec![
        Event::Join(sym("A", 14, 10)),
        Event::Join(sym("C", 8, 10)),
        Event::Start,
        Event::Next, // C's turn
        Event::Join(sym("B", 12, 10)),
    ];
    let s = run(&SYMBAROUM, &ev);
    assert_eq!(
        names(&s),
        ["A", "C", "B"],
        "never placed before the one acting"
    );
    let mut e = ev.clone();
    e.push(Event::Leave(2));
    let s = run(&SYMBAROUM, &e);
    assert_eq!((names(&s), s.current), (vec!["A", "B"], Some(3)));
    assert!(s.get(2).unwrap().gone);
    e.push(Event::End);
    e.push(Event::Next);
    let s = run(&SYMBAROUM, &e);
    assert!(s.ended);
    assert_eq!(s.current, None);
}

/// A random event for `rules` over up to `n` combatants.
fn random_event(rules: &'static CombatRules, src: &mut SeededSource, n: u32) -> Event {
    let who = src.roll(n.max(1));
    let other = src.roll(n.max(1));
    match src.roll(16) {
        1 | 2 => {
            let mut c = Combatant::new(rules, format!("C{}", src.roll(99)), src.roll(20) as i32);
            c.pc = src.roll(2) == 1;
            c.init = vec![src.roll(6) as i32, src.roll(6) as i32];
            if rules.stats.len() > VIGILANT {
                c.stats[QUICK] = c.init[0];
                c.stats[VIGILANT] = c.init[1];
            }
            c.stats[0] = src.roll(6) as i32;
            Event::Join(c)
        }
        3 if src.roll(3) == 1 => Event::Group(vec![
            Combatant::new(rules, "G1", 5),
            Combatant::new(rules, "G2", 5),
        ]),
        3 => Event::Leave(who),
        4 => Event::Init(who, vec![src.roll(10) as i32]),
        5 => Event::RollOff(who, src.roll(20)),
        6 => Event::Place(who, if src.roll(2) == 1 { Some(other) } else { None }),
        7..=9 => Event::Next,
        10 => Event::Damage(vec![who, other], src.roll(12) as i32),
        11 => Event::Heal(vec![who], src.roll(6) as i32, src.roll(2) == 1),
        12 => {
            let names: Vec<&str> = rules.conditions.iter().map(|c| c.name).collect();
            let name = names[src.roll(names.len() as u32) as usize - 1];
            let dur = match src.roll(4) {
                1 => Duration::Removed,
                2 => Duration::Start {
                    who: other,
                    n: src.roll(3),
                },
                3 => Duration::End {
                    who: other,
                    n: src.roll(3),
                },
                _ => Duration::Round { n: src.roll(2) },
            };
            Event::Add(who, name.into(), dur)
        }
        13 => Event::Remove(src.roll(12)),
        14 => Event::Spend(who, src.roll(4) as usize - 1, src.roll(5) as i32 - 2),
        15 => Event::Death(who, src.roll(20), src.roll(4)),
        _ => Event::Trade(who, 0, 1),
    }
}

/// The state kept up to date event by event equals the log replayed from the start, after a
/// save (JSON) and load, after undo / redo, for every system's shape.
#[test]
fn replay_equals_incremental_state_for_random_fights() {
    for rules in systems::ALL {
        for seed in 0..40 {
            let mut src = SeededSource::new(seed);
            let mut enc =
                Encounter::new(format!("e{seed}"), "Fight".into(), rules.system, 0).unwrap();
            let mut state = enc.state();
            for step in 0..150 {
                let n = state.combatants.len() as u32 + 1;
                if src.roll(10) == 1 && enc.can_undo() {
                    enc.undo(step);
                    state = enc.state();
                    continue;
                }
                let e = random_event(rules, &mut src, n);
                enc.push(e, &mut state, step);
            }
            assert_eq!(state, enc.state(), "{} seed {seed}", rules.system);
            let text = serde_json::to_string(&enc).unwrap();
            let back: Encounter = serde_json::from_str(&text).unwrap();
            assert_eq!(back.state(), state);
            // Undo everything, redo everything: the same fight.
            let mut walk = back.clone();
            let k = walk.cursor;
            for _ in 0..k {
                assert!(walk.undo(1));
            }
            assert_eq!(walk.state().log.len(), 0);
            for _ in 0..k {
                assert!(walk.redo(1));
            }
            assert_eq!(walk.state(), state);
            assert!(walk.validate().is_ok());
        }
    }
}

#[test]
fn undo_restores_durations_resources_and_death_steps() {
    let mut pc = sym("Hero", 12, 10);
    pc.pc = true;
    let mut enc = Encounter::new("e".into(), "F".into(), "symbaroum", 0).unwrap();
    let mut s = enc.state();
    for e in [
        Event::Join(pc),
        Event::Join(sym("Orc", 10, 10)),
        Event::Start,
        Event::Add(2, "Prone".into(), Duration::End { who: 2, n: 2 }),
        Event::Spend(1, 0, 1),
        Event::Damage(vec![1], 12),
        Event::Next,
    ] {
        enc.push(e, &mut s, 1);
    }
    let before = s.clone();
    enc.push(Event::Next, &mut s, 2); // Orc's turn ends: Prone 2 → 1; Hero: death test due
    enc.push(Event::Death(1, 14, 0), &mut s, 3);
    assert_eq!(s.get(1).unwrap().death, 1);
    enc.undo(4);
    enc.undo(5);
    assert_eq!(enc.state(), before);
    let prone = before.conditions_of(2).next().unwrap();
    assert_eq!(prone.dur, Duration::End { who: 2, n: 2 });
    enc.push(Event::Note("free attack".into()), &mut s, 6);
    assert!(!enc.can_redo(), "a new event drops the undone ones");
    assert_eq!(enc.events.len(), 8);
}

#[test]
fn validation_of_stored_encounters() {
    let mut e = Encounter::new("x".into(), "F".into(), "aura", 0).unwrap();
    assert!(e.validate().is_ok());
    e.cursor = 3;
    assert!(e.validate().unwrap_err().contains("past the 0 events"));
    e.cursor = 0;
    e.system = "chess".into();
    assert!(e.validate().unwrap_err().contains("chess"));
    assert!(Encounter::new("y".into(), "F".into(), "chess", 0).is_none());
}

mod refereed {
    use super::*;
    use crate::rules::encounter::referee::{replayed, resolve_turn, turn_offers, Recorder, Turn};

    fn abc() -> Vec<Event> {
        vec![
            Event::Join(sym("A", 14, 10)),
            Event::Join(sym("B", 12, 10)),
            Event::Join(sym("C", 10, 10)),
            Event::Start,
        ]
    }

    /// Tempo #2: A (9) and B (4), A's turn; C joins and its initiative is set to 10: from the
    /// next round it acts first, C, A, B (not last for good); a joiner at 5 acts this round,
    /// after A and before B.
    #[test]
    fn tempo_r2_a_joiner_takes_its_place_by_initiative() {
        let mut ev = vec![
            Event::Join(Combatant::new(&TEMPO, "A", 10)),
            Event::Join(Combatant::new(&TEMPO, "B", 10)),
            Event::Init(1, vec![9]),
            Event::Init(2, vec![4]),
            Event::Start,
        ];
        let s = run(&TEMPO, &ev);
        assert_eq!((names(&s), s.current), (vec!["A", "B"], Some(1)));
        ev.extend([
            Event::Join(Combatant::new(&TEMPO, "C", 10)),
            Event::Init(3, vec![10]),
        ]);
        let s = run(&TEMPO, &ev);
        assert_eq!(s.current, Some(1), "A's turn goes on");
        ev.extend([Event::Next, Event::Next]);
        let s = run(&TEMPO, &ev);
        assert_eq!(names(&s), ["C", "A", "B"]);
        assert_eq!(s.current, Some(3), "the next round opens with C");
        let mut ev = ev[..5].to_vec();
        ev.extend([
            Event::Join(Combatant::new(&TEMPO, "D", 10)),
            Event::Init(3, vec![5]),
            Event::Next,
        ]);
        let s = run(&TEMPO, &ev);
        assert_eq!(names(&s), ["A", "D", "B"]);
        assert_eq!(s.current, Some(3), "D acts this round, before B");
    }

    /// Symbaroum N2: B waits in round 1 (allowed while the order is being established): the
    /// turn goes to C, now in B's place, never back to A, who has acted.
    #[test]
    fn symbaroum_n2_a_wait_never_gives_a_second_turn() {
        let mut ev = abc();
        ev.push(Event::Next); // A → B
        let s = run(&SYMBAROUM, &ev);
        assert_eq!(s.current, Some(2));
        let wait = resolve_turn(&s, 2, Turn::WaitLast).unwrap();
        ev.push(wait);
        let s = run(&SYMBAROUM, &ev);
        assert_eq!(names(&s), ["A", "C", "B"]);
        assert_eq!(s.current, Some(3), "C's turn, not A's again");
        assert!(!s.log.iter().any(|l| l.text == "A’s turn" && l.ev > 4));
        // B's place comes round again in round 1: it may not wait twice.
        ev.push(Event::Next);
        let s = run(&SYMBAROUM, &ev);
        assert_eq!(s.current, Some(2));
        assert_eq!(
            resolve_turn(&s, 2, Turn::WaitLast),
            Err("B has already waited this round".into())
        );
        // Act before: the same hand-over.
        let mut ev = abc();
        let s = run(&SYMBAROUM, &ev);
        ev.push(resolve_turn(&s, 1, Turn::Before(3)).unwrap());
        let s = run(&SYMBAROUM, &ev);
        assert_eq!((names(&s), s.current), (vec!["B", "A", "C"], Some(2)));
    }

    /// Symbaroum #4: once the order is established (round 2 on) no wait, no act-before; the
    /// reason is the one `offers` gives.
    #[test]
    fn symbaroum_r4_the_order_cannot_change_after_it_is_set() {
        let mut ev = abc();
        ev.extend([Event::Next, Event::Next, Event::Next]);
        let s = run(&SYMBAROUM, &ev);
        assert_eq!((s.round, s.current), (2, Some(1)));
        let why = "the order is established: it cannot be changed after the first round";
        for t in [Turn::WaitLast, Turn::Before(3)] {
            assert_eq!(resolve_turn(&s, 1, t), Err(why.into()));
            let o = turn_offers(&s, 1);
            let o = o
                .iter()
                .find(|o| o.action == crate::rules::referee::Intent::Turn(t))
                .unwrap();
            assert_eq!(o.refused.as_deref(), Some(why));
        }
        assert_eq!(resolve_turn(&s, 1, Turn::End), Ok(Event::Next));
        // Out of its turn: neither end nor wait.
        assert_eq!(
            resolve_turn(&s, 2, Turn::End),
            Err("it is not B’s turn".into())
        );
        // Before the fight starts the GM may still place anyone.
        let s = run(&SYMBAROUM, &abc()[..3]);
        assert_eq!(
            resolve_turn(&s, 1, Turn::WaitLast),
            Ok(Event::Place(1, None))
        );
    }

    /// Heimr: a delay is declared at the start of the turn (seed 000, "Delaying and readied
    /// actions"), in any round, not once something is spent; Vogt and Tempo: never.
    #[test]
    fn heimr_delays_at_turn_start_vogt_and_tempo_never() {
        use crate::rules::heimr::{combat::combatant, HeimrSheet};
        let sheet = HeimrSheet::default();
        let mut ev = vec![
            Event::Join(combatant("A", &sheet, None)),
            Event::Join(combatant("B", &sheet, None)),
            Event::Join(combatant("C", &sheet, None)),
            Event::Init(1, vec![9]),
            Event::Init(2, vec![5]),
            Event::Init(3, vec![1]),
            Event::Start,
            Event::Next,
            Event::Next,
            Event::Next,
        ];
        let s = run(&HEIMR, &ev);
        assert_eq!((s.round, s.current), (2, Some(1)));
        assert!(
            resolve_turn(&s, 1, Turn::WaitLast).is_ok(),
            "round 2, turn start"
        );
        ev.push(Event::Spend(1, 0, 1));
        let s = run(&HEIMR, &ev);
        assert_eq!(
            resolve_turn(&s, 1, Turn::WaitLast),
            Err("a delay is declared at the start of the turn, before anything is spent".into())
        );
        for rules in [&VOGT, &TEMPO] {
            let s = run(rules, &[Event::Join(Combatant::new(rules, "X", 5))]);
            assert!(turn_offers(&s, 1)
                .iter()
                .all(|o| o.action == crate::rules::referee::Intent::Turn(Turn::End)));
        }
        let s = run(&AURA, &[Event::Join(Combatant::new(&AURA, "X", 5))]);
        assert!(turn_offers(&s, 1).is_empty(), "no turns in Energy / Aura");
    }

    /// The dice a request carries are the dice the rules roll: recorded on one phone, replayed
    /// on the other; other faces, values off the die, too few or too many are refused.
    #[test]
    fn dice_recorded_on_one_phone_replay_exactly_on_another() {
        let two = |src: &mut dyn DiceSource| (src.roll(20), src.roll(4));
        let mut dice = SeededSource::new(7);
        let mut rec = Recorder::new(&mut dice);
        let first = two(&mut rec);
        let rolled = rec.rolled;
        assert_eq!(rolled, vec![(20, first.0), (4, first.1)]);
        assert_eq!(replayed(&rolled, |r| two(r)), Ok(first));
        let bad = |d: Vec<(u32, u32)>| replayed(&d, |r| two(r)).unwrap_err();
        assert_eq!(bad(vec![(20, 3), (6, 2)]), "a d6 where the roll takes a d4");
        assert_eq!(bad(vec![(20, 21), (4, 2)]), "a d20 showing 21");
        assert_eq!(bad(vec![(20, 0), (4, 2)]), "a d20 showing 0");
        assert_eq!(bad(vec![(20, 3)]), "fewer dice than the roll takes");
        assert_eq!(
            bad(vec![(20, 3), (4, 1), (4, 1)]),
            "3 dice sent, the roll takes 2"
        );
        assert_eq!(
            replayed(&[], |r| r.next_u32()),
            Err("the rules asked for raw randomness".into())
        );
    }
}

/// Ending a fight: what is timed in rounds or turns lapses first (fight time is over), as a
/// step of its own before the end; a dying clock, whose running out kills, and what lasts until
/// removed stay; a condition implied by another goes with its source only.
#[test]
fn ending_a_fight_lapses_its_timed_conditions_but_not_a_dying_clock() {
    let a = Combatant::new(&HEIMR, "A", 10);
    let mut s = run(
        &HEIMR,
        &[
            Event::Join(a),
            Event::Start,
            Event::Add(1, "Dazed".into(), Duration::Round { n: 2 }),
            Event::Add(1, "Bound arm".into(), Duration::End { who: 1, n: 1 }),
            Event::Add(1, "Bleeding out".into(), Duration::Start { who: 1, n: 3 }),
            Event::Add(1, "Unconscious".into(), Duration::Removed),
        ],
    );
    let end = s.ending();
    assert_eq!(end.len(), 2, "{end:?}");
    assert_eq!(end[1], Event::End);
    for e in &end {
        s.apply(e);
    }
    let left: Vec<&str> = s.conditions_of(1).map(|a| a.name.as_str()).collect();
    assert_eq!(left, ["Bleeding out", "Unconscious", "Prone"]);
    assert!(s.ended);
    // With nothing timed, ending is the end alone.
    assert_eq!(s.ending(), vec![Event::End]);
}

/// Issue 54 §2: a character in a running fight is one character. Its sheet's fight actions
/// (death saves and rolls, death tests, the death and dismemberment roll, a breather or a rest,
/// a weapon taken in hand) are refused on the sheet while the fight runs, and taken there; the
/// same edits are the sheet's before the fight starts, after it ends and once it has left.
#[test]
fn issue54_a_sheets_fight_action_is_the_fights_while_it_runs() {
    use crate::rules::edit::{in_fight, Edits};
    use crate::rules::{aura, heimr, symbaroum, tempo, vogt};
    let mut e = Encounter::new("f".into(), "Ford".into(), "aura", 0).unwrap();
    let mut s = e.state();
    let mut asa = Combatant::new(&AURA, "Asa", 10);
    asa.link = Some("asa".into());
    e.push(Event::Join(Combatant::new(&AURA, "Gnoll", 10)), &mut s, 1);
    e.push(Event::Join(asa), &mut s, 1);
    assert!(!e.runs_with("asa"), "not before the start");
    e.push(Event::Start, &mut s, 1);
    assert!(e.runs_with("asa") && !e.runs_with("bea"));
    assert!(e.undo(1) && !e.runs_with("asa"), "an undone start");
    e.push(Event::Next, &mut s, 1);
    assert!(e.runs_with("asa"), "the first Next starts it too");
    assert!(e.undo(1));
    e.push(Event::Start, &mut s, 1);
    e.push(Event::Leave(2), &mut s, 1);
    assert!(!e.runs_with("asa"), "once it has left");
    assert!(e.undo(1));
    e.push(
        Event::Batch(vec![Event::Note("x".into()), Event::End]),
        &mut s,
        1,
    );
    assert!(!e.runs_with("asa"), "once it is over");
    // Every system's sheet actions that are fight actions, refused in a running fight with the
    // fight named; each sheet edit that is not one, taken.
    fn both<S: Edits>(fight: &[S::Edit], sheet: &[S::Edit]) {
        for x in fight {
            let why = in_fight::<S>(x, Some("Ford")).expect("a fight action");
            assert!(why.starts_with("In a running fight (Ford), "), "{why}");
            assert_eq!(
                in_fight::<S>(x, None),
                None,
                "the sheet's when no fight runs"
            );
        }
        for x in sheet {
            assert_eq!(in_fight::<S>(x, Some("Ford")), None);
        }
    }
    both::<aura::AuraSheet>(
        &[
            aura::Edit::DeathSave(12),
            aura::Edit::DeathRoll(3),
            aura::Edit::ToggleHeld(0),
            aura::Edit::ShortRest(true),
        ],
        &[aura::Edit::Level(2)],
    );
    both::<symbaroum::SymbaroumSheet>(
        &[symbaroum::Edit::DeathTest(
            14,
            symbaroum::DeathOutcome::Nothing,
        )],
        &[symbaroum::Edit::Experience(3)],
    );
    both::<vogt::VogtSheet>(
        &[vogt::Edit::Dismember(3), vogt::Edit::Siesta],
        &[vogt::Edit::Movement(6)],
    );
    both::<heimr::HeimrSheet>(
        &[heimr::Edit::Breather, heimr::Edit::ShortRest],
        &[heimr::Edit::Xp(5)],
    );
    both::<tempo::TempoSheet>(&[tempo::Edit::Wield(1)], &[tempo::Edit::Movement(5)]);
}
