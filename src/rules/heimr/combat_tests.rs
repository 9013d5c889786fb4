use super::*;
use crate::rules::dice::ScriptedSource;
use crate::rules::encounter::{systems::HEIMR, Event, State};
use crate::rules::heimr::roll_challenge;

/// Every (dice part, probability) of a challenge, by enumerating the d6 and the d10s: written
/// from the rules' words, not from the closed form under test.
fn enumerate(c: i32) -> Vec<(i32, f64)> {
    let n = c.unsigned_abs();
    let total = 6 * 10u32.pow(n);
    let mut out = Vec::new();
    for k in 0..total {
        let d6 = (k % 6) as i32 + 1;
        let mut rest = k / 6;
        let mut d10 = Vec::new();
        for _ in 0..n {
            d10.push((rest % 10) as i32 + 1);
            rest /= 10;
        }
        let dice = if c == 0 {
            d6
        } else if c > 0 {
            let hi = d10.iter().copied().chain([d6]).max().unwrap();
            let tens = d10.iter().filter(|&&v| v == 10).count() as i32;
            hi + (tens - 1).max(0)
        } else {
            let lo = d10.iter().copied().chain([d6]).min().unwrap();
            let ones = d10.iter().chain([&d6]).filter(|&&v| v == 1).count() as i32;
            lo - (ones - 1).max(0)
        };
        out.push((dice, 1.0 / f64::from(total)));
    }
    out
}

/// Compares with a brute-force sum; a sum of 1/6·10ⁿ weights is certain or impossible
/// exactly when it is within rounding of 1 or 0.
fn close(a: Chance, b: f64) {
    assert!((a.p() - b).abs() < 1e-12, "{} vs {}", a.p(), b);
    assert_eq!(
        a.is_certain(),
        (b - 1.0).abs() < 1e-12,
        "certain: {a:?} vs {b}"
    );
    assert_eq!(
        a.is_impossible(),
        b.abs() < 1e-12,
        "impossible: {a:?} vs {b}"
    );
}

#[test]
fn hit_chance_matches_enumeration_with_fatigue_and_defence() {
    for c in -3..=3 {
        let all = enumerate(c);
        for p in [-2, 0, 3] {
            for fatigue in [1, 4, 7, 12] {
                for def in [None, Some(-5), Some(4), Some(9), Some(30)] {
                    let want: f64 = all
                        .iter()
                        .filter(|(d, _)| *d >= fatigue && def.is_none_or(|x| d + p > x))
                        .map(|x| x.1)
                        .sum();
                    close(hit_chance(c, p, fatigue, def), want);
                }
            }
        }
    }
}

#[test]
fn certain_and_impossible_attacks_are_exact() {
    // Fatigue 1 and no defence: every roll stands.
    assert!(hit_chance(2, 0, 1, None).is_certain());
    // A defence no roll can beat.
    assert!(hit_chance(0, 0, 1, Some(6)).is_impossible());
    // Fatigue above every die a C −1 roll can show.
    assert!(hit_chance(-1, 10, 7, None).is_impossible());
}

#[test]
fn brawl_chances_match_enumeration() {
    for c in -2..=2 {
        let all = enumerate(c);
        for (p, f, def) in [
            (1, 1, Some(6)),
            (0, 3, Some(4)),
            (2, 5, Some(10)),
            (0, 1, None),
        ] {
            let full: f64 = all
                .iter()
                .filter(|(d, _)| *d >= f && def.is_none_or(|x| d + p > x))
                .map(|x| x.1)
                .sum();
            let weak: f64 = all
                .iter()
                .filter(|(d, _)| *d >= f && def.is_some_and(|x| d + p <= x && d + p >= x - 1))
                .map(|x| x.1)
                .sum();
            let (a, b) = brawl_chances(c, p, f, def);
            close(a, full);
            close(b, weak);
        }
    }
}

#[test]
fn luck_shot_is_a_tenth_of_the_attack() {
    let a = hit_chance(1, 2, 2, Some(7));
    close(luck_shot(a), a.p() / 10.0);
    assert!(luck_shot(Chance::Certain).p() == 0.1);
}

fn ready(kind: Defence, value: i32) -> Shown {
    Shown::Ready {
        kind,
        value,
        fails: false,
    }
}

#[test]
fn cluster_chances_match_enumeration() {
    // Target dodges 6, then a blocker 5, then a dodger 8; C starts at −3 (three in the
    // cluster) and rises by one per re-roll.
    let members = [
        ready(Defence::Dodge, 6),
        ready(Defence::Dodge, 7),
        ready(Defence::Block, 5),
        Shown::None,
    ];
    let (c0, p, f) = (-1, 2, 2);
    let (t, o) = cluster_chances(c0, p, f, &members);
    // Brute force over the rolls one after another.
    fn go(i: usize, c: i32, p: i32, f: i32, m: &[Shown], reach: f64, acc: &mut [f64; 2]) {
        if i >= m.len() {
            return;
        }
        for (d, q) in enumerate(c) {
            if d < f {
                continue; // the shot goes wide
            }
            let (value, kind) = match m[i] {
                Shown::Ready { kind, value, .. } => (Some(value), Some(kind)),
                Shown::None => (None, None),
            };
            if value.is_none_or(|v| d + p > v) {
                acc[usize::from(i > 0)] += reach * q;
            } else if kind == Some(Defence::Dodge) {
                go(i + 1, c + 1, p, f, m, reach * q, acc);
            }
        }
    }
    let mut acc = [0.0; 2];
    go(0, c0, p, f, &members, 1.0, &mut acc);
    close(t, acc[0]);
    close(o, acc[1]);
    // A blocking target stops the shot: nobody else can be hit.
    let (_, o) = cluster_chances(0, 0, 1, &[ready(Defence::Block, 3), Shown::None]);
    assert!(o.is_impossible());
}

#[test]
fn a_shot_a_guard_dodges_goes_on_with_the_same_roll_exactly() {
    // The guard shows a dodge of 7, the one it guards a block of 4, then a cluster member
    // re-rolled at C + 1; brute force over the first roll (the same roll meets the guard and
    // the ward) and the re-roll.
    for (c0, p, f) in [(-2, 1, 2), (0, 0, 1), (2, 3, 5), (1, -1, 3)] {
        for (g, t) in [
            (ready(Defence::Dodge, 7), ready(Defence::Block, 4)),
            (ready(Defence::Dodge, 9), Shown::None),
            (ready(Defence::Block, 6), ready(Defence::Dodge, 2)),
            (Shown::None, ready(Defence::Dodge, 5)),
        ] {
            let other = ready(Defence::Dodge, 3);
            let steps = [
                (g, Some(c0), None),
                (t, None, None),
                (other, Some(c0 + 1), None),
            ];
            let got = pass_on_chances(p, f, &steps);
            let beats = |d: i32, sh: Shown| match sh {
                Shown::Ready { value, .. } => d + p > value,
                Shown::None => true,
            };
            let dodged = |d: i32, sh: Shown| {
                matches!(
                    sh,
                    Shown::Ready {
                        kind: Defence::Dodge,
                        ..
                    }
                ) && !beats(d, sh)
            };
            let mut want = [0.0f64; 3];
            for (d, q) in enumerate(c0) {
                if d < f {
                    continue;
                }
                if beats(d, g) {
                    want[0] += q;
                } else if dodged(d, g) {
                    if beats(d, t) {
                        want[1] += q;
                    } else if dodged(d, t) {
                        for (d2, q2) in enumerate(c0 + 1) {
                            if d2 >= f && beats(d2, other) {
                                want[2] += q * q2;
                            }
                        }
                    }
                }
            }
            for (k, w) in want.iter().enumerate() {
                close(got[k], *w);
            }
            let sum: f64 = got.iter().map(|x| x.p()).sum();
            assert!(sum <= 1.0 + 1e-12);
        }
    }
}

#[test]
fn an_attack_against_a_defence_rolled_now_matches_enumeration() {
    // Each side's dice parts summed by value first (the enumeration's own weights).
    let by_value = |c: i32| {
        let mut m = std::collections::BTreeMap::new();
        for (v, q) in enumerate(c) {
            *m.entry(v).or_insert(0.0) += q;
        }
        m
    };
    for (c, p, f) in [(-2, 1, 2), (0, 3, 1), (2, 0, 4)] {
        for (dc, dp, df) in [(-3, 0, 1), (-4, 2, 3), (1, 1, 5)] {
            let (full, weak) = hit_vs_roll(c, p, f, (dc, dp, df));
            let (mut want_full, mut want_weak) = (0.0, 0.0);
            for (&x, &qx) in &by_value(c) {
                if x < f {
                    continue;
                }
                for (&y, &qy) in &by_value(dc) {
                    if y < df || x + p > y + dp {
                        want_full += qx * qy;
                    } else if x + p >= y + dp - 1 {
                        want_weak += qx * qy;
                    }
                }
            }
            // Sums of up to 6·10⁴ weights a value: agree to 1e-10, and exactly at the edges.
            for (got, want) in [(full, want_full), (weak, want_weak)] {
                assert!((got.p() - want).abs() < 1e-10, "{got:?} vs {want}");
                assert_eq!(got.is_impossible(), want == 0.0);
            }
        }
    }
}

#[test]
fn a_defended_shot_leaves_a_blind_spot_and_the_next_from_there_meets_a_defence_at_minus_5() {
    let mut s = fight(3);
    s.apply(&Event::Next);
    // N1 (2) holds a bow, N0 (1) a dodge of 8 rolled at Agility C 0.
    s.apply(&arm_events(s.get(2).unwrap(), 5, 0, (0, 0), (0, 0)));
    assert!(weapon(s.get(2).unwrap()).range > 0, "a ranged weapon");
    let ready = |s: &mut State| {
        s.apply(&Event::Set(1, DEF_KIND, Defence::Dodge as i32));
        s.apply(&Event::Set(1, DEF, 8));
        s.apply(&Event::Set(1, DEF_DICE, 6));
    };
    ready(&mut s);
    assert!(blind_spot_setup(&s, 1).is_err(), "no blind spot yet");
    let shot = Options {
        distance: 2,
        ..Options::default()
    };
    let r = roll_challenge(0, 0, &mut ScriptedSource::new(vec![5]));
    let (out, e) = resolve_attack(&s, 2, 1, &shot, &r);
    assert_eq!(out, Outcome::Miss);
    s.apply(&e);
    assert!(s.has(1, "Blind spot"));
    // The next shot from the blind spot: the dodge is rolled now at C 0 − 5.
    ready(&mut s);
    let (kind, st) = blind_spot_setup(&s, 1).unwrap();
    assert_eq!(kind, Defence::Dodge);
    assert_eq!(
        st.c.value,
        defence_setup(&s, 1, Defence::Dodge).unwrap().c.value - 5
    );
    // That defence rolls low: the shot that missed a shown 8 now hits.
    let low = roll_challenge(
        st.c.value,
        st.p.value,
        &mut ScriptedSource::new(vec![3, 2, 4, 5, 6, 2, 4, 5, 6, 7, 8, 9, 3, 4]),
    );
    let from = Options {
        blind_spot: true,
        redone: Some(Redone::from_roll(Defence::Dodge, &low)),
        ..shot
    };
    let r = roll_challenge(0, 0, &mut ScriptedSource::new(vec![5]));
    let (out, e) = resolve_attack(&s, 2, 1, &from, &r);
    assert_eq!(out, Outcome::Hit, "{e:?}");
    // It lasts until the defender's next turn.
    s.apply(&e);
    assert!(s.has(1, "Blind spot"));
    s.apply(&Event::Next);
    while s.current != Some(1) {
        s.apply(&Event::Next);
    }
    assert!(!s.has(1, "Blind spot"));
}

#[test]
fn an_undefended_attack_stands_and_leaves_no_blind_spot() {
    let mut s = fight(2);
    s.apply(&Event::Next);
    s.apply(&arm_events(s.get(2).unwrap(), 5, 0, (0, 0), (0, 0)));
    s.apply(&Event::Set(1, DEF_KIND, Defence::Dodge as i32));
    s.apply(&Event::Set(1, DEF, 30));
    s.apply(&Event::Set(1, DEF_DICE, 6));
    let o = Options {
        distance: 2,
        undefended: true,
        ..Options::default()
    };
    let r = roll_challenge(0, 0, &mut ScriptedSource::new(vec![5]));
    let (out, e) = resolve_attack(&s, 2, 1, &o, &r);
    assert_eq!(out, Outcome::Hit);
    s.apply(&e);
    assert!(!s.has(1, "Blind spot"));
    assert_eq!(
        s.get(1).unwrap().stat(DEF_KIND),
        Defence::Dodge as i32,
        "kept"
    );
}

fn fight(n: usize) -> State {
    let mut s = State::new(&HEIMR);
    for i in 0..n {
        s.apply(&Event::Join(npc(&format!("N{i}"), &Npc::default())));
    }
    s
}

#[test]
fn initiative_is_dex_and_willpower_with_ties_to_willpower() {
    let mut s = State::new(&HEIMR);
    let mk = |name: &str, dex, will| {
        npc(
            name,
            &Npc {
                dex,
                willpower: will,
                ..Npc::default()
            },
        )
    };
    s.apply(&Event::Join(mk("A", 0, 1)));
    s.apply(&Event::Join(mk("B", 0, 3)));
    // C = 0: only the d6. A rolls 6 (+1 = 7), B rolls 4 (+3 = 7): tie on 7, B has the
    // higher willpower.
    let mut src = ScriptedSource::new(vec![6, 4]);
    let e = initiative_events(&s, &mut src);
    s.apply(&e);
    assert_eq!(s.get(1).unwrap().init, vec![7, 1]);
    assert_eq!(s.get(2).unwrap().init, vec![7, 3]);
    assert_eq!(s.order, vec![2, 1]);
    assert_eq!(s.why_before(2, 1), "Willpower 3 vs 1");
}

#[test]
fn defence_penalties_stack_per_type_and_reset_at_its_turn() {
    let mut s = fight(2);
    s.apply(&Event::Set(2, SHIELD, 2));
    s.apply(&Event::Next); // start: N0's turn
    let c0 = defence_setup(&s, 2, Defence::Dodge).unwrap().c.value;
    s.apply(&Event::Spend(2, DODGES, 1));
    s.apply(&Event::Spend(2, DODGES, 1));
    let d = defence_setup(&s, 2, Defence::Dodge).unwrap();
    assert_eq!(d.c.value, c0 - 4);
    assert_eq!(d.c.text(), "−3 (−4 2 earlier dodge)");
    // Blocking is not touched by the dodges, and gets the small shield's +2 P.
    let b = defence_setup(&s, 2, Defence::Block).unwrap();
    assert_eq!(b.c.value, 1);
    assert_eq!(b.p.value, 1 + 2);
    // One parry per melee weapon between turns.
    assert!(defence_setup(&s, 2, Defence::Parry).is_ok());
    s.apply(&Event::Spend(2, PARRIES, 1));
    assert!(defence_setup(&s, 2, Defence::Parry).is_err());
    // Ongoing and prone each cost 2 more; difficult terrain 1 on dodge and parry, not block.
    s.apply(&Event::Add(2, "Ongoing".into(), Duration::Removed));
    s.apply(&Event::Add(
        2,
        "Difficult terrain".into(),
        Duration::Removed,
    ));
    assert_eq!(
        defence_setup(&s, 2, Defence::Dodge).unwrap().c.value,
        c0 - 7
    );
    assert_eq!(defence_setup(&s, 2, Defence::Block).unwrap().c.value, 1 - 2);
    // Its own turn restores every use.
    s.apply(&Event::Next);
    assert_eq!(s.current, Some(2));
    let c = s.get(2).unwrap();
    assert_eq!((uses(c, Defence::Dodge), uses(c, Defence::Parry)), (0, 0));
    // Dazed: no defence at all.
    s.apply(&Event::Add(2, "Dazed".into(), Duration::Removed));
    assert!(defence_setup(&s, 2, Defence::Dodge).is_err());
    assert_eq!(shown(&s, 2), Shown::None);
}

#[test]
fn an_attack_against_a_shown_defence_uses_it_and_raises_fatigue_once_per_turn() {
    let mut s = fight(2);
    s.apply(&Event::Next); // N0's turn
                           // N1 pre-rolls a dodge: C 1 → d6 5, d10 3: dice 5, + P 1 = 6.
    let r = roll_challenge(1, 1, &mut ScriptedSource::new(vec![5, 3]));
    s.apply(&defence_events(&s, 2, Defence::Dodge, &r));
    assert_eq!(shown(&s, 2), ready(Defence::Dodge, 6));
    assert_eq!(shown_text(&s, 2), "Dodge 6");
    // N0 attacks with a medium weapon (C 1, P 1 + 3): d6 2, d10 7 → 7 + 4 = 11 > 6: hit on the
    // right leg; the d6 2 is below fatigue 3, so N0's fatigue rises.
    let o = Options::default();
    let setup = attack_setup(&s, 1, 2, &o).unwrap();
    assert_eq!((setup.c.value, setup.p.value), (1, 4));
    let r = roll_challenge(1, 4, &mut ScriptedSource::new(vec![2, 7]));
    let (out, e) = resolve_attack(&s, 1, 2, &o, &r);
    assert_eq!(out, Outcome::Hit);
    s.apply(&e);
    let (a, t) = (s.get(1).unwrap(), s.get(2).unwrap());
    assert_eq!(a.stat(FATIGUE), 4);
    assert_eq!(t.hp, 5 - 2);
    assert_eq!(uses(t, Defence::Dodge), 1);
    assert_eq!(
        shown(&s, 2),
        Shown::None,
        "a used defence must be rolled anew"
    );
    // The dodge's d6 5 is not below fatigue 3: N1's fatigue stays.
    assert_eq!(t.stat(FATIGUE), 3);
    // A second low d6 in the same turn does not raise N0's fatigue again.
    let r = roll_challenge(1, 4, &mut ScriptedSource::new(vec![1, 9]));
    let (_, e) = resolve_attack(&s, 1, 2, &o, &r);
    s.apply(&e);
    assert_eq!(s.get(1).unwrap().stat(FATIGUE), 4);
    // A roll whose dice part is below fatigue fails and needs no defence.
    s.apply(&defence_events(
        &s,
        2,
        Defence::Dodge,
        &roll_challenge(1, 1, &mut ScriptedSource::new(vec![6, 6])),
    ));
    let r = roll_challenge(0, 4, &mut ScriptedSource::new(vec![3]));
    let (out, e) = resolve_attack(&s, 1, 2, &o, &r);
    assert_eq!(out, Outcome::Fails);
    s.apply(&e);
    assert_eq!(
        shown(&s, 2),
        ready(Defence::Dodge, 7),
        "the defence was not used"
    );
}

#[test]
fn a_defence_equal_to_the_attack_holds_and_a_brawl_one_below_touches() {
    let mut s = fight(2);
    s.apply(&Event::Next);
    s.apply(&Event::Set(2, DEF_KIND, Defence::Dodge as i32));
    s.apply(&Event::Set(2, DEF, 8));
    s.apply(&Event::Set(2, DEF_DICE, 6));
    let o = Options::default();
    let r = roll_challenge(0, 2, &mut ScriptedSource::new(vec![6])); // 8 = 8
    assert_eq!(resolve_attack(&s, 1, 2, &o, &r).0, Outcome::Miss);
    let b = Options {
        kind: Kind::BrawlHit,
        ..o
    };
    let r = roll_challenge(0, 1, &mut ScriptedSource::new(vec![6])); // 7 = 8 − 1
    let (out, e) = resolve_attack(&s, 1, 2, &b, &r);
    assert_eq!(out, Outcome::Weak);
    s.apply(&e);
    assert_eq!(
        s.get(2).unwrap().hp,
        5,
        "no HP damage from a weak brawl hit"
    );
    // A grab on a full hit: no defence rolls while grabbed.
    let g = Options {
        kind: Kind::BrawlBind,
        ..o
    };
    let r = roll_challenge(0, 9, &mut ScriptedSource::new(vec![6]));
    s.apply(&resolve_attack(&s, 1, 2, &g, &r).1);
    // The grabber holds on and makes no defence rolls; the one held keeps its own.
    assert!(s.has(1, "Grabbing") && !s.has(2, "Grabbing"));
    assert!(defence_setup(&s, 1, Defence::Dodge).is_err());
    assert!(defence_setup(&s, 2, Defence::Dodge).is_ok());
}

#[test]
fn attack_modifiers_follow_positions_terrain_and_range() {
    let mut s = fight(2);
    let o = Options {
        part: Some(Part::Torso),
        height: 1,
        concealment: 2,
        ..Options::default()
    };
    s.apply(&Event::Add(1, "Prone".into(), Duration::Removed));
    s.apply(&Event::Add(
        1,
        "Difficult terrain".into(),
        Duration::Removed,
    ));
    // 1 − 2 targeted + 1 height − 1 terrain − 2 prone − 2 concealment = −5
    assert_eq!(attack_setup(&s, 1, 2, &o).unwrap().c.value, -5);
    // A bow at distance 5 into a cluster of 3, target prone: 1 − 2 − 3 − 2 = −6; height and
    // terrain do not count for ranged attacks; +2 P from hiding.
    let mut s = fight(2);
    s.apply(&Event::Set(1, WEAPON, 5));
    s.apply(&Event::Add(2, "Prone".into(), Duration::Removed));
    let o = Options {
        distance: 5,
        cluster: 3,
        height: 1,
        from_hiding: true,
        ..Options::default()
    };
    let st = attack_setup(&s, 1, 2, &o).unwrap();
    assert_eq!((st.c.value, st.p.value), (-6, 1 + 1 + 2));
    // Out of range.
    let far = Options {
        distance: 7,
        ..Options::default()
    };
    assert!(attack_setup(&s, 1, 2, &far).is_err());
    // Climbing: −1 on attacks, −2 on defences.
    let mut s = fight(2);
    s.apply(&Event::Add(1, "Climbing".into(), Duration::Removed));
    assert_eq!(
        attack_setup(&s, 1, 2, &Options::default()).unwrap().c.value,
        0
    );
    assert_eq!(defence_setup(&s, 1, Defence::Dodge).unwrap().c.value, -1);
}

#[test]
fn body_parts_by_d6() {
    let names: Vec<&str> = (1..=6).map(|d| Part::from_d6(d).name()).collect();
    assert_eq!(
        names,
        [
            "left leg",
            "right leg",
            "other arm",
            "sword arm",
            "torso",
            "torso"
        ]
    );
}

#[test]
fn injuries_add_body_part_effects_and_dying_clocks() {
    let mut s = fight(2);
    s.apply(&Event::Next);
    // 5 HP, 5 damage to the sword arm: bloodied, the arm's effect, no clock.
    s.apply(&Event::Batch(hurt(&s, 2, 5, Some(Part::SwordArm))));
    assert!(s.has(2, "Injured arm") && s.has(2, "Dropped"));
    assert!(!dying(&s, 2));
    // 2 more to a leg: mangled at −2: down, fading after 5 minutes, dead after 10.
    s.apply(&Event::Batch(hurt(&s, 2, 2, Some(Part::LeftLeg))));
    assert!(s.has(2, "Injured leg") && s.has(2, "Prone"));
    assert!(dying(&s, 2) && s.has(2, "Fading"));
    // 149 more rounds: still conscious; the 150th round's end: unconscious.
    let rounds = |s: &mut State, n: u32| {
        for _ in 0..n * 2 {
            s.apply(&Event::Next);
        }
    };
    rounds(&mut s, ROUNDS_5_MIN - 1);
    assert!(!s.has(2, "Unconscious"));
    rounds(&mut s, 1);
    assert!(s.has(2, "Unconscious") && !s.get(2).unwrap().dead);
    rounds(&mut s, ROUNDS_10_MIN - ROUNDS_5_MIN);
    assert!(s.get(2).unwrap().dead, "dead after ten minutes");
}

#[test]
fn mutilated_is_unconscious_at_once_and_stabilising_stops_the_clock() {
    let mut s = fight(2);
    s.apply(&Event::Next);
    s.apply(&Event::Batch(hurt(&s, 2, 8, Some(Part::Torso)))); // 5 → −3 mangled
    s.apply(&Event::Batch(hurt(&s, 2, 1, None))); // −4 mutilated
    assert!(s.has(2, "Unconscious"));
    assert!(!s.has(2, "Fading"));
    let clocks = s
        .conditions_of(2)
        .filter(|a| a.name == "Bleeding out")
        .count();
    assert_eq!(
        clocks, 1,
        "the mangled clock is replaced by the two-minute one"
    );
    s.apply(&stabilise(&s, 2));
    assert!(!dying(&s, 2) && !s.has(2, "Unconscious"));
    for _ in 0..ROUNDS_10_MIN * 2 {
        s.apply(&Event::Next);
    }
    assert!(!s.get(2).unwrap().dead);
}

/// Four in a fixed order (N0 … N3), the first one's turn.
fn guarded() -> State {
    let mut s = fight(4);
    s.order = vec![1, 2, 3, 4];
    s.apply(&Event::Start);
    s.order = vec![1, 2, 3, 4];
    s.current = Some(1);
    s
}

#[test]
fn a_guard_takes_the_first_attack_meant_for_its_ward_then_ends() {
    let mut s = guarded();
    // N0 (1) guards N3 (4) on its turn, a free action once a turn.
    assert_eq!(ACTIONS[GUARD_ACTION].0, "Guard");
    let e = guard_events(&s, 1, 4).unwrap();
    s.apply(&e);
    assert!(s.has(1, "Guarding"));
    assert!(guard_events(&s, 1, 4).unwrap_err().contains("already used"));
    assert!(guard_events(&s, 1, 1).is_err());
    // N1 (2) attacks N3: N0 steps in; N2 (3) attacking N0 itself meets no guard.
    assert_eq!(interceptor(&s, 2, 4), Some(1));
    assert_eq!(interceptor(&s, 3, 1), None);
    s.apply(&Event::Batch(intercept_events(&s, 1, 2, 4)));
    // One opponent stopped: the guard ends, the next attacker reaches the ward.
    assert!(!s.has(1, "Guarding"));
    assert_eq!(interceptor(&s, 3, 4), None);
}

#[test]
fn guards_answer_in_initiative_order_from_the_attacker_and_not_the_hidden() {
    let mut s = guarded();
    s.apply(&guard_events(&s, 1, 4).unwrap());
    s.current = Some(2);
    s.apply(&guard_events(&s, 2, 4).unwrap());
    // From N2 (3) the order runs 3, 4, 1, 2: N0 (1) is the first guard; from N0's side
    // (an attack by 1 itself is not its own guard's business) N1 (2) answers.
    assert_eq!(interceptor(&s, 3, 4), Some(1));
    assert_eq!(interceptor(&s, 1, 4), Some(2));
    // Two guards stop two attackers; the third gets through.
    s.apply(&Event::Batch(intercept_events(&s, 1, 3, 4)));
    assert_eq!(interceptor(&s, 3, 4), Some(2));
    s.apply(&Event::Batch(intercept_events(&s, 2, 3, 4)));
    assert_eq!(interceptor(&s, 3, 4), None);
    // A hidden attacker slips past a guard.
    s.current = Some(1);
    let mut s2 = guarded();
    s2.apply(&guard_events(&s2, 1, 4).unwrap());
    s2.apply(&Event::Add(3, "Hidden".into(), Duration::Removed));
    assert_eq!(interceptor(&s2, 3, 4), None);
    // A dazed or unconscious guard cannot answer.
    s2.apply(&Event::Add(1, "Dazed".into(), Duration::Removed));
    assert_eq!(interceptor(&s2, 2, 4), None);
}

#[test]
fn any_attack_interrupts_an_upcoming_action_even_one_failed_on_fatigue() {
    let mut s = fight(2);
    s.apply(&Event::Next);
    s.apply(&Event::Add(2, "Upcoming".into(), Duration::Removed));
    s.apply(&Event::Set(1, FATIGUE, 7));
    // A d6 of 2 under fatigue 7: the blow fails, but N1 was attacked.
    let r = roll_challenge(0, 0, &mut ScriptedSource::new(vec![2]));
    let (out, e) = resolve_attack(&s, 1, 2, &Options::default(), &r);
    assert_eq!(out, Outcome::Fails);
    s.apply(&e);
    assert!(!s.has(2, "Upcoming"));
}

#[test]
fn an_attack_meets_the_guard_then_its_ward_with_the_same_roll_then_the_cluster() {
    let mut s = guarded();
    s.apply(&Event::Set(1, DEF_KIND, Defence::Dodge as i32));
    s.apply(&Event::Set(1, DEF, 6));
    let steps = attack_steps(&s, Some(1), &[4, 2], -2, true, (true, false));
    let seen: Vec<(u32, Option<i32>)> = steps.iter().map(|x| (x.who, x.roll)).collect();
    assert_eq!(seen, [(1, Some(-2)), (4, None), (2, Some(-1))]);
    assert!(matches!(steps[0].shown, Shown::Ready { value: 6, .. }));
    assert_eq!(steps[1].shown, Shown::None, "taken undefended");
    // A blow ends at the guard; without a guard the target rolls first.
    let blow = attack_steps(&s, Some(1), &[4], 0, false, (false, false));
    assert_eq!(blow.iter().map(|x| x.who).collect::<Vec<_>>(), [1]);
    let plain = attack_steps(&s, None, &[4, 2], 0, true, (false, false));
    assert_eq!(
        plain.iter().map(|x| x.roll).collect::<Vec<_>>(),
        [Some(0), Some(1)]
    );
    assert!(dodged(Outcome::Miss, steps[0].shown));
    assert!(!dodged(Outcome::Hit, steps[0].shown) && !dodged(Outcome::Miss, Shown::None));
}

#[test]
fn the_dazed_and_the_unconscious_take_no_actions() {
    let mut s = guarded();
    s.apply(&Event::Add(1, "Dazed".into(), Duration::Removed));
    assert_eq!(action_events(&s, 1, 4).unwrap_err(), "Dazed: no actions");
    assert!(guard_events(&s, 1, 4).unwrap_err().contains("Dazed"));
    let mut s = guarded();
    s.apply(&Event::Add(1, "Unconscious".into(), Duration::Removed));
    assert_eq!(
        action_events(&s, 1, 4).unwrap_err(),
        "Unconscious: no actions"
    );
    assert!(action_events(&guarded(), 1, 4).is_ok());
}

#[test]
fn a_guard_lasts_until_its_next_turn() {
    let mut s = guarded();
    s.apply(&guard_events(&s, 1, 4).unwrap());
    for _ in 0..3 {
        s.apply(&Event::Next);
    }
    assert_eq!(s.current, Some(4));
    assert_eq!(interceptor(&s, 3, 4), Some(1));
    s.apply(&Event::Next); // N0's turn again
    assert!(!s.has(1, "Guarding"));
    assert_eq!(interceptor(&s, 3, 4), None);
}

#[test]
fn the_damage_button_brings_the_injury_levels_conditions() {
    let mut s = fight(2);
    s.apply(&Event::Next);
    // 5 HP, 7 damage through the fight's Damage button: mangled at −2, dying.
    let e = s.damage_events(vec![2], 7);
    s.apply(&e);
    assert_eq!(s.get(2).unwrap().hp, -2);
    assert!(dying(&s, 2) && s.has(2, "Fading"));
    // 2 more: mutilated, unconscious at once, the two-minute clock.
    let e = s.damage_events(vec![2], 2);
    s.apply(&e);
    assert!(s.has(2, "Unconscious") && !s.has(2, "Fading"));
}

#[test]
fn healing_ends_the_injury_conditions_it_should() {
    let mut s = fight(2);
    s.apply(&Event::Next);
    // Torso and arm hit, then mutilated: every effect and the two-minute clock.
    s.apply(&Event::Batch(hurt(&s, 2, 6, Some(Part::Torso)))); // 5 → −1 bloodied
    s.apply(&Event::Batch(hurt(&s, 2, 3, Some(Part::SwordArm)))); // −4 mutilated
    assert!(s.has(2, "Injured torso") && s.has(2, "Injured arm") && s.has(2, "Unconscious"));
    // Healed to −2, still mangled: nothing ends (only stabilising stops the clock).
    let e = s.heal_events(vec![2], 2, true);
    s.apply(&e);
    assert_eq!(s.get(2).unwrap().hp, -2);
    assert!(dying(&s, 2) && s.has(2, "Unconscious"));
    // Healed to 0, bloodied: no longer dying, awake; the body-part effects stay.
    let e = s.heal_events(vec![2], 2, true);
    s.apply(&e);
    assert!(!dying(&s, 2) && !s.has(2, "Unconscious") && !s.has(2, "Fading"));
    assert!(s.has(2, "Injured torso") && s.has(2, "Dazed"));
    assert!(s.has(2, "Injured arm"));
    // Healed to 1: not injured, every effect gone, the implied ones with them.
    let e = s.heal_events(vec![2], 1, true);
    s.apply(&e);
    for n in ["Injured torso", "Injured arm", "Dazed", "Dropped", "Prone"] {
        assert!(!s.has(2, n), "{n} should have ended");
    }
    assert!(s.log.iter().any(|l| l.text.contains("no longer injured")));
    // The clock stays stopped.
    for _ in 0..ROUNDS_10_MIN * 2 {
        s.apply(&Event::Next);
    }
    assert!(!s.get(2).unwrap().dead);
    // A heal that ends nothing stays a plain Heal event (older logs replay unchanged).
    assert!(matches!(s.heal_events(vec![2], 1, true), Event::Heal(..)));
}

#[test]
fn healing_leaves_conditions_the_injury_did_not_bring() {
    let mut s = fight(2);
    s.apply(&Event::Add(2, "Prone".into(), Duration::Removed));
    s.apply(&Event::Batch(hurt(&s, 2, 5, Some(Part::LeftLeg)))); // 0: bloodied, leg
    let e = s.heal_events(vec![2], 3, true);
    assert!(matches!(e, Event::Batch(_)), "one step: heal and its ends");
    s.apply(&e);
    assert!(!s.has(2, "Injured leg"));
    assert!(s.has(2, "Prone"), "the prone it had before stays");
}

#[test]
fn effects_last_half_their_seconds_in_turns_and_odd_dazes_block_defence_longer() {
    let mut s = fight(2);
    s.apply(&Event::Next); // N0's turn
    s.apply(&effect_events(&s, 2, Effect::Stumble, 4));
    // Stumble 4: 2 of N1's turns.
    s.apply(&Event::Next); // N1's turn 1
    s.apply(&Event::Next); // N0
    assert!(s.has(2, "Stumbling"));
    s.apply(&Event::Next); // N1's turn 2
    assert!(s.has(2, "Stumbling"));
    s.apply(&Event::Next); // its end
    assert!(!s.has(2, "Stumbling"));
    // Daze 3: dazed for 1 turn, no defence until the start of its second turn.
    s.apply(&effect_events(&s, 2, Effect::Daze, 3));
    s.apply(&Event::Next); // N1's turn: dazed
    assert!(s.has(2, "Dazed"));
    s.apply(&Event::Next); // N0's turn: no longer dazed, still cannot defend
    assert!(!s.has(2, "Dazed"));
    assert!(defence_setup(&s, 2, Defence::Dodge).is_err());
    s.apply(&Event::Next); // N1's next turn starts
    assert!(defence_setup(&s, 2, Defence::Dodge).is_ok());
    // Daze 2: no defence only while dazed.
    s.apply(&effect_events(&s, 2, Effect::Daze, 2));
    assert!(!s.has(2, "No defence"));
    // Drain 3 from willpower 2: down to 0; Hit 2: HP 5 → 3.
    s.apply(&effect_events(&s, 2, Effect::Drain, 3));
    s.apply(&effect_events(&s, 2, Effect::Hit, 2));
    let c = s.get(2).unwrap();
    assert_eq!((c.stat(WILL), c.hp), (0, 3));
    // Fall 1 lasts no whole turn.
    s.apply(&effect_events(&s, 1, Effect::Fall, 1));
    assert!(!s.has(1, "Fallen"));
    assert_eq!(turns_of(5), 2);
}

#[test]
fn action_types_standard_once_free_once_each_ongoing_ends_the_turn() {
    let mut s = fight(2);
    s.apply(&Event::Next); // N0's turn
    let idx = |n: &str| ACTIONS.iter().position(|a| a.0 == n).unwrap();
    assert!(action_events(&s, 2, idx("Move")).is_err(), "not its turn");
    s.apply(&action_events(&s, 1, idx("Move")).unwrap());
    // A weapon drawn along with the move shares its standard action, once a turn (#7).
    s.apply(&action_events(&s, 1, idx("Draw a weapon")).unwrap());
    assert!(action_events(&s, 1, idx("Put a weapon away")).is_err());
    s.apply(&action_events(&s, 1, idx("Guard")).unwrap());
    assert!(action_events(&s, 1, idx("Guard")).is_err());
    assert!(action_events(&s, 1, idx("Speak")).is_ok());
    s.apply(&Event::Next);
    s.apply(&Event::Next); // N0 again: all restored
    assert!(action_events(&s, 1, idx("Guard")).is_ok());
    // Ongoing: ends the turn and costs −2 C on defences until its next turn.
    let before = defence_setup(&s, 1, Defence::Dodge).unwrap().c.value;
    s.apply(&Event::Set(1, FATIGUE, 7));
    s.apply(&action_events(&s, 1, idx("Take a breather")).unwrap());
    assert_eq!(s.current, Some(2));
    assert_eq!(s.get(1).unwrap().stat(FATIGUE), 5);
    assert_eq!(
        defence_setup(&s, 1, Defence::Dodge).unwrap().c.value,
        before - 2
    );
    s.apply(&Event::Next);
    assert_eq!(
        defence_setup(&s, 1, Defence::Dodge).unwrap().c.value,
        before
    );
    // A breather never goes below base fatigue (3).
    s.apply(&Event::Set(1, FATIGUE, 4));
    s.apply(&action_events(&s, 1, idx("Take a breather")).unwrap());
    assert_eq!(s.get(1).unwrap().stat(FATIGUE), 3);
}

#[test]
fn a_readied_action_moves_before_its_trigger_and_is_lost_at_its_next_turn() {
    let mut s = fight(3);
    s.apply(&Event::Next); // N0
    let ready = ACTIONS
        .iter()
        .position(|a| a.0 == "Ready an action")
        .unwrap();
    s.apply(&action_events(&s, 1, ready).unwrap());
    s.apply(&Event::Next); // N1
    s.apply(&Event::Next); // N2 triggers it
    s.apply(&trigger_events(&s, 1).unwrap());
    assert_eq!(s.order, vec![2, 1, 3]);
    assert_eq!(s.current, Some(3));
    assert!(!s.has(1, "Readied"));
    // Not triggered: gone at the start of its next turn.
    s.apply(&Event::Next); // N1 (round 2: 2, 1, 3)
    s.apply(&Event::Next);
    assert_eq!(s.current, Some(1));
    s.apply(&action_events(&s, 1, ready).unwrap());
    s.apply(&Event::Next);
    s.apply(&Event::Next);
    s.apply(&Event::Next);
    assert_eq!(s.current, Some(1));
    assert!(!s.has(1, "Readied"));
}

#[test]
fn fatigue_rises_only_below_and_never_past_twenty() {
    let mut s = fight(1);
    let c = s.get(1).unwrap().clone();
    assert!(
        fatigue_events(&c, 3).is_empty(),
        "d6 3 is not below fatigue 3"
    );
    assert_eq!(fatigue_events(&c, 2).len(), 3);
    s.apply(&Event::Set(1, FATIGUE, 20));
    let c = s.get(1).unwrap().clone();
    assert!(fatigue_events(&c, 1).is_empty());
    assert!(fatigue_rise_now(&c).is_impossible());
}

#[test]
fn falling_sets_hp_to_three_minus_height() {
    assert_eq!(fall_cr(1, false), None);
    assert_eq!(fall_cr(4, true), Some(8));
    assert_eq!(fall_cr(4, false), Some(10));
    let mut s = fight(1);
    s.apply(&Event::Batch(fall_events(&s, 1, 6)));
    assert_eq!(s.get(1).unwrap().hp, -3);
    assert!(s.has(1, "Injured leg") && dying(&s, 1));
    // Never raises HP: at 1 HP a fall from 2 leaves 1.
    let mut s = fight(1);
    s.apply(&Event::Damage(vec![1], 4));
    s.apply(&Event::Batch(fall_events(&s, 1, 2)));
    assert_eq!(s.get(1).unwrap().hp, 1);
}

#[test]
fn combat_time_counts_two_seconds_a_round() {
    let mut s = fight(1);
    assert_eq!(s.clock(), None);
    s.apply(&Event::Next);
    assert_eq!(s.clock().as_deref(), Some("0:00"));
    for _ in 0..30 {
        s.apply(&Event::Next);
    }
    assert_eq!(s.clock().as_deref(), Some("1:00"));
}

#[test]
fn a_character_joins_with_its_sheet_and_takes_up_a_weapon() {
    let sheet = HeimrSheet {
        fatigue: 5,
        ..HeimrSheet::default()
    };
    let c = combatant("Asa", &sheet, Some("id".into()));
    assert_eq!(c.stat(WEAPON), 0);
    assert_eq!(c.stat(FATIGUE), 5);
    let mut s = State::new(&HEIMR);
    s.apply(&Event::Join(c));
    let c = s.get(1).unwrap().clone();
    // A medium weapon with Dueling (C 2, P 1), a tower shield with Sword and shield (C 0, P 3).
    s.apply(&arm_events(&c, 2, 4, (2, 1), (0, 3)));
    let c = s.get(1).unwrap();
    assert_eq!(
        (weapon(c).damage, c.stat(MELEE), c.stat(WEAPON_C)),
        (2, 1, 2)
    );
    // The shield is used with its own ability (C 0, P 3) and its +5.
    let block = defence_setup(&s, 1, Defence::Block).unwrap();
    assert_eq!((block.c.value, block.p.value), (0, 8));
}
