use super::*;
use crate::rules::dice::{Chance, ScriptedSource};
use crate::rules::encounter::{systems::HEIMR, Event, State};
use crate::rules::heimr::challenge::{dice_distribution, fatigue_rise_chance, success_chance};
use crate::rules::heimr::combat::{npc, Npc, FATIGUE, STANDARD};
use crate::rules::heimr::referee::{offers, resolve, Action};
use crate::rules::heimr::terrain::{Kind, TERRAIN};
use crate::rules::referee::Intent;
use std::collections::BTreeMap;

/// Every (dice part, result) of a challenge with how many die faces give it, out of
/// 6·10^|C|: each face combination rolled one by one through the app's own roll.
fn faces(c: i32, p: i32) -> (BTreeMap<(i32, i32), u64>, u64) {
    let n = c.unsigned_abs();
    let total = 6 * 10u64.pow(n);
    let mut out = BTreeMap::new();
    for k in 0..total {
        let mut dice = vec![(k % 6) as u32 + 1];
        let mut rest = k / 6;
        for _ in 0..n {
            dice.push((rest % 10) as u32 + 1);
            rest /= 10;
        }
        let r = roll_challenge(c, p, &mut ScriptedSource::new(dice));
        *out.entry((r.dice, r.result)).or_insert(0) += 1;
    }
    (out, total)
}

/// Outcome counts of one exchange by enumerating both sides' faces, and their total.
fn brute(a: Runner, b: Runner) -> ([u64; 6], u64) {
    let ((fa, ta), (fb, tb)) = (faces(a.c, a.p), faces(b.c, b.p));
    let mut count = [0u64; 6];
    for (&x, &na) in &fa {
        for (&y, &nb) in &fb {
            count[Outcome::of(a, x, b, y) as usize] += na * nb;
        }
    }
    (count, ta * tb)
}

fn runner(c: i32, p: i32, fatigue: i32) -> Runner {
    Runner { c, p, fatigue }
}

/// Exact to rounding, impossible and certain exactly when no case or every case gives it.
fn matches(odds: [Chance; 6], (count, total): ([u64; 6], u64), what: &str) {
    for (i, (&k, o)) in count.iter().zip(odds).enumerate() {
        let want = k as f64 / total as f64;
        assert!((o.p() - want).abs() < 1e-12, "{what} {i}: {o:?} vs {want}");
        assert_eq!(o.is_impossible(), k == 0, "{what} {i}");
        assert_eq!(o.is_certain(), k == total, "{what} {i}");
    }
}

#[test]
fn exchange_odds_match_enumeration_over_small_pools() {
    for ca in -2..=2 {
        for cb in -2..=2 {
            for (pa, fa, pb, fb) in [(0, 1, 0, 1), (1, 3, 0, 2), (-2, 4, 3, 6), (5, 7, 0, 1)] {
                let (a, b) = (runner(ca, pa, fa), runner(cb, pb, fb));
                matches(exchange_odds(a, b), brute(a, b), &format!("{a:?} {b:?}"));
            }
        }
    }
}

#[test]
fn certain_and_impossible_ends() {
    // Fatigue 1 never fails; two d6 + P 0 never differ by 6 or more.
    let o = exchange_odds(runner(0, 9, 1), runner(0, 0, 1));
    assert!(o[Outcome::Closer as usize].is_certain());
    assert!(Outcome::ALL[1..]
        .iter()
        .all(|&x| o[x as usize].is_impossible()));
    // Fatigue 12 and C 0: the d6 never reaches it, both always give out.
    let o = exchange_odds(runner(0, 0, 12), runner(0, 0, 12));
    assert!(o[Outcome::Spent as usize].is_certain());
    // With C 1 a ten (dice part 10) still meets fatigue 10, nothing meets 11.
    let o = exchange_odds(runner(1, 0, 10), runner(0, 0, 1));
    assert!((o[Outcome::Escaped as usize].q() - 0.1).abs() < 1e-15);
    let o = exchange_odds(runner(1, 0, 11), runner(0, 0, 1));
    assert!(o[Outcome::Escaped as usize].is_certain());
}

/// Over many setups: the outcomes sum to 1 (each with its complement); the fatigue
/// endings are the two fatigue checks' own chances; swapping the sides swaps closing in and
/// falling back, escaping and being caught; a higher P for the chaser never makes it worse.
#[test]
fn exchange_odds_hold_their_properties_over_many_setups() {
    let fails = |r: Runner| dice_distribution(r.c).at_most(i64::from(r.fatigue) - 1).p();
    let mut seen = 0;
    for ca in -5..=5 {
        for cb in [-3, 0, 2, 6] {
            for pa in [-2, 0, 3] {
                for pb in [0, 4] {
                    for (fa, fb) in [(1, 1), (3, 2), (4, 6), (7, 3), (13, 1)] {
                        let (a, b) = (runner(ca, pa, fa), runner(cb, pb, fb));
                        let o = exchange_odds(a, b);
                        let sum: f64 = o.iter().map(|c| c.p()).sum();
                        assert!((sum - 1.0).abs() < 1e-12, "{a:?} {b:?}: {sum}");
                        for c in o {
                            assert!((c.p() + c.q() - 1.0).abs() < 1e-12);
                        }
                        let [closer, farther, even, escaped, caught, spent] = o.map(|c| c.p());
                        assert!((escaped + spent - fails(a)).abs() < 1e-12);
                        assert!((caught + spent - fails(b)).abs() < 1e-12);
                        assert!((spent - fails(a) * fails(b)).abs() < 1e-12);
                        let m = exchange_odds(b, a).map(|c| c.p());
                        assert!((closer - m[1]).abs() < 1e-12 && (farther - m[0]).abs() < 1e-12);
                        assert!((escaped - m[4]).abs() < 1e-12 && (even - m[2]).abs() < 1e-12);
                        let up = exchange_odds(runner(ca, pa + 1, fa), b).map(|c| c.p());
                        assert!(up[0] >= closer - 1e-15 && up[1] <= farther + 1e-15);
                        assert!((up[3] - escaped).abs() < 1e-15, "P never helps fatigue");
                        seen += 1;
                    }
                }
            }
        }
    }
    assert_eq!(seen, 11 * 4 * 3 * 2 * 5);
}

/// Two NPCs: N0 (base fatigue `fa`) and N1 (`fb`), started; returns the fight and whose
/// turn it is first.
fn fight(fa: i32, fb: i32) -> (State, u32) {
    let mut s = State::new(&HEIMR);
    for (n, f) in [("N0", fa), ("N1", fb)] {
        let c = npc(
            n,
            &Npc {
                base_fatigue: f,
                ..Npc::default()
            },
        );
        s.apply(&Event::Join(c));
    }
    s.apply(&Event::Start);
    let first = s.current.unwrap();
    (s, first)
}

fn other(who: u32) -> u32 {
    if who == 1 {
        2
    } else {
        1
    }
}

fn act(s: &State, who: u32, a: Action, dice: &[u32]) -> Result<State, String> {
    let e = resolve(s, who, &a, &mut ScriptedSource::new(dice.to_vec()))?;
    let mut t = s.clone();
    t.apply(&e);
    Ok(t)
}

const D6S: Action = Action::ChaseRoll {
    c: 0,
    p: 0,
    qc: 0,
    qp: 0,
};

/// A chase in a fight: started at a distance, an exchange closes in (the chaser's run: its
/// standard action, the turn handed on, fatigue up when its d6 is below it), the quarry gains
/// a square back on the next, a breather is refused to both, and the quarry's failed fatigue
/// check ends it with the chaser at its side, its action kept.
#[test]
fn a_chase_in_a_fight_moves_the_distance_and_ends_on_a_fatigue_check() {
    let (s, me) = fight(3, 3);
    let q = other(me);
    let breather = Intent::Heimr(Action::Act(
        (0..ACTIONS.len()).find(|&i| rests(i)).unwrap() as u32
    ));
    let rest_why = |s: &State, who| {
        offers(s, who)
            .into_iter()
            .find(|o| o.action == breather)
            .and_then(|o| o.refused)
    };
    assert_eq!(rest_why(&s, me), None, "a breather before the chase");
    assert_eq!(
        act(&s, me, D6S, &[6, 1]),
        Err("it chases no one".into()),
        "no exchange before a chase"
    );
    let s = act(
        &s,
        me,
        Action::Chase {
            target: q,
            distance: 2,
        },
        &[],
    )
    .unwrap();
    assert_eq!(quarry(&s, me), Some(q));
    assert!(in_chase(&s, me) && in_chase(&s, q));
    assert_eq!(s.get(me).unwrap().stat(CHASE_DISTANCE), 2);
    // No breather for either while it lasts.
    for who in [me, q] {
        let why = rest_why(&s, who);
        assert_eq!(why.as_deref(), Some("fatigue cannot drop during a chase"));
    }
    // The quarry cannot roll the chaser's exchange.
    assert_eq!(act(&s, q, D6S, &[6, 1]), Err("it chases no one".into()));
    // d6 6 against d6 3 (both at fatigue 3): 6 − 3 = 3 → one square closer; the quarry's d6 3
    // is not below its fatigue 3, the chaser's 6 neither: no rise.
    let t = act(&s, me, D6S, &[6, 3]).unwrap();
    let c = t.get(me).unwrap();
    assert_eq!(c.stat(CHASE_DISTANCE), 1);
    assert_eq!(c.pools[STANDARD], 0, "the run is its standard action");
    assert!(t.has(me, "Ongoing"));
    assert_eq!(t.current, Some(q), "its turn ends");
    // 4 against 5: within 2, nothing changes.
    let u = act(&s, me, D6S, &[4, 5]).unwrap();
    assert_eq!(u.get(me).unwrap().stat(CHASE_DISTANCE), 2);
    // The quarry runs on its turn; back to the chaser: 3 against 6 → the quarry gains one.
    let mut t = t;
    t.apply(&Event::Next);
    assert_eq!(t.current, Some(me));
    let v = act(&t, me, D6S, &[3, 6]).unwrap();
    assert_eq!(v.get(me).unwrap().stat(CHASE_DISTANCE), 2);
    // The chaser's d6 2 is below its fatigue 3: it gives out, the quarry gets away (however
    // the other roll went), its fatigue rises, its run is spent.
    let x = act(&t, me, D6S, &[2, 6]).unwrap();
    let c = x.get(me).unwrap();
    assert_eq!((c.stat(CHASING), c.stat(FATIGUE)), (0, 4));
    assert_eq!(x.current, Some(q));
    assert!(x.log.iter().any(|l| l.text.contains("gets away")));
    // The quarry's d6 2 is below its fatigue 3: it gives out and the chaser reaches it,
    // keeps its standard action and its turn, and the chase is over; the quarry's fatigue
    // rises (its turn came since its last rise), the chaser's 4 does not raise its own.
    let w = act(&t, me, D6S, &[4, 2]).unwrap();
    let c = w.get(me).unwrap();
    assert_eq!((c.stat(CHASING), c.stat(CHASE_DISTANCE)), (0, 0));
    assert_eq!((c.pools[STANDARD], c.stat(FATIGUE)), (1, 3));
    assert_eq!(w.current, Some(me));
    assert_eq!(w.get(q).unwrap().stat(FATIGUE), 4);
    assert!(!in_chase(&w, q));
    assert!(
        w.log.iter().any(|l| l.text.contains("reaches")),
        "{:?}",
        w.log
    );
    // One exchange a turn, even after reaching it.
    let again = act(
        &w,
        me,
        Action::Chase {
            target: q,
            distance: 1,
        },
        &[],
    )
    .unwrap();
    assert_eq!(
        act(&again, me, D6S, &[6, 1]),
        Err("it already ran after someone this turn".into())
    );
}

/// Giving up, whom a chase may name, its wire codes, and the refusals of a bad start.
#[test]
fn a_chase_is_started_given_up_and_travels() {
    let (s, me) = fight(3, 3);
    let q = other(me);
    let start = |target, distance| Action::Chase { target, distance };
    assert_eq!(
        act(&s, me, start(me, 2), &[]),
        Err("no one to chase".into())
    );
    assert_eq!(act(&s, me, start(9, 2), &[]), Err("no one to chase".into()));
    assert_eq!(
        act(&s, me, start(q, 0), &[]),
        Err("a distance of 1 to 99 squares".into())
    );
    assert_eq!(
        act(&s, me, Action::ChaseEnd, &[]),
        Err("it chases no one".into())
    );
    let t = act(&s, me, start(q, 3), &[]).unwrap();
    assert_eq!(
        act(&t, me, start(q, 3), &[]),
        Err("it already chases N1".replace("N1", s.name(q)))
    );
    let too_big = Action::ChaseRoll {
        c: 21,
        p: 0,
        qc: 0,
        qp: 0,
    };
    assert_eq!(
        act(&t, me, too_big, &[]),
        Err("C from −20 to 20, P from −20 to 40".into())
    );
    let u = act(&t, me, Action::ChaseEnd, &[]).unwrap();
    assert_eq!(quarry(&u, me), None);
    assert!(!in_chase(&u, q));
    // Off its turn: the exchange is its run.
    let mut v = t.clone();
    v.apply(&Event::Next);
    assert_eq!(
        act(&v, me, D6S, &[6, 1]),
        Err("actions are taken on its own turn".into())
    );
    // Its quarry gone: no exchange, but it can still give up.
    let mut w = t.clone();
    w.apply(&Event::Leave(q));
    assert_eq!(
        act(&w, me, D6S, &[6, 1]),
        Err("its quarry has left the fight".into())
    );
    assert!(act(&w, me, Action::ChaseEnd, &[]).is_ok());
    // Another phone's dice: the chaser's d6 and its d10s, then the quarry's, nothing else.
    use crate::rules::encounter::referee::replayed;
    let c1 = Action::ChaseRoll {
        c: 1,
        p: 0,
        qc: 0,
        qp: 0,
    };
    let r = |d: &[(u32, u32)]| replayed(d, |src| resolve(&t, me, &c1, src));
    assert!(r(&[(6, 4), (10, 7), (6, 2)]).unwrap().is_ok());
    assert!(r(&[(6, 4), (6, 2)]).is_err());
    assert!(r(&[(6, 4), (10, 7), (6, 2), (6, 1)]).is_err());
    // The wire: every chase intent survives its code; a start names its quarry.
    for a in [
        start(q, 7),
        Action::ChaseRoll {
            c: -3,
            p: 12,
            qc: 2,
            qp: -4,
        },
        Action::ChaseEnd,
    ] {
        let i = Intent::Heimr(a);
        let code = i.code();
        assert!((320..330).contains(&code[0]), "{code:?}");
        assert_eq!(Intent::from_code(&code), Some(i.clone()));
    }
    assert_eq!(Intent::Heimr(start(q, 7)).names(), vec![q]);
    // The offer carries the exact chance of closing in with Agility on both sides.
    let roll = offers(&t, me)
        .into_iter()
        .find(|o| matches!(o.action, Intent::Heimr(Action::ChaseRoll { .. })))
        .unwrap();
    let f = |id: u32| t.get(id).unwrap().stat(FATIGUE);
    let want = exchange_odds(runner(1, 1, f(me)), runner(1, 1, f(q)))[0];
    assert_eq!(roll.odds, Some(want));
    assert_eq!(roll.refused, None);
}

/// #13, the case: chaser C 0, P 1 at fatigue 2 against a quarry C 0, P 0 at fatigue 3 (one
/// d6 each, 36 equal cases). The chaser gives out on a 1 (1/6), the quarry on 1 or 2 (2/6):
/// both 2/36, only the chaser 4/36, only the quarry 10/36. Both standing (d6 2–6 → 3–7
/// against d6 3–6): the chaser 3 or more ahead in 3 cases (6:3, 7:3, 7:4), 3 or more
/// behind in 1 (3:6), within 2 in 16. Fatigue rises on a d6 below it: 1/6 and 2/6. A rope
/// climb on the way (CR 4) succeeds for the chaser on d6 3–6: 4/6. In a fight at distance
/// 1, d6 6 against d6 3 (7 against 3) reaches the quarry: the chase ends, the chaser keeps
/// its turn and its standard action.
#[test]
fn heimr_r13_the_chase_and_the_environment_tables() {
    let (a, b) = (runner(0, 1, 2), runner(0, 0, 3));
    let odds = exchange_odds(a, b);
    let want = [3, 1, 16, 4, 10, 2].map(|k| Chance::ratio(k, 36));
    for (o, w) in odds.iter().zip(want) {
        assert!((o.p() - w.p()).abs() < 1e-15 && (o.q() - w.q()).abs() < 1e-15);
    }
    assert_eq!(brute(a, b), ([3, 1, 16, 4, 10, 2], 36));
    assert_eq!(fatigue_rise_chance(2), Chance::ratio(1, 6));
    assert_eq!(fatigue_rise_chance(3), Chance::ratio(2, 6));
    let rope = TERRAIN
        .iter()
        .find(|t| t.kind == Kind::Climbing && t.name == "Rope")
        .unwrap();
    assert_eq!(rope.n, 4);
    assert_eq!(success_chance(0, 1, rope.n, Some(2)), Chance::ratio(4, 6));
    // In a fight.
    let (s, me) = fight(2, 3);
    let q = other(me);
    let s = act(
        &s,
        me,
        Action::Chase {
            target: q,
            distance: 1,
        },
        &[],
    )
    .unwrap();
    let shown = odds_now(&s, me, (0, 1, 0, 0)).unwrap();
    assert_eq!(shown.map(|c| c.p()), odds.map(|c| c.p()));
    let roll = Action::ChaseRoll {
        c: 0,
        p: 1,
        qc: 0,
        qp: 0,
    };
    let t = act(&s, me, roll, &[6, 3]).unwrap();
    let c = t.get(me).unwrap();
    assert_eq!((c.stat(CHASING), c.stat(CHASE_DISTANCE)), (0, 0));
    assert_eq!((t.current, c.pools[STANDARD]), (Some(me), 1));
    let said = format!("reaches {} and may act against it now", s.name(q));
    assert!(t.log.iter().any(|l| l.text.ends_with(&said)), "{:?}", t.log);
    assert_eq!(ACTIONS[RUN].0, "Run");
}
