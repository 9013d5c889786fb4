//! Shown odds are the resolution's odds (issue 54 §4). Every offer the referee shows with a
//! chance, in every fight the random sequences reach, is resolved once for every way its dice
//! can fall (depth first over the faces `resolve` asks for, each sequence weighted exactly by
//! its dice), and the exact share of the outcomes the chance speaks of is compared with the
//! chance shown. An offer with a chance this file cannot read fails the test: a new kind of
//! odds needs its outcome said here.

use rollsheet::rules::dice::{Chance, DiceSource};
use rollsheet::rules::encounter::{Event, State};
use rollsheet::rules::referee::{self, Intent};

/// The most falls walked for one offer inside the random fights (more: that offer is left to
/// the host tests that enumerate it, e.g. `heimr_6_14_…`'s 3 600); keeps the test command's run
/// within its time.
const WALK: usize = 1500;

/// An exact probability: numerator over denominator, kept reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frac(pub u128, pub u128);

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Frac {
    pub const ZERO: Frac = Frac(0, 1);

    pub fn new(n: u128, d: u128) -> Frac {
        let g = gcd(n, d).max(1);
        Frac(n / g, d / g)
    }

    pub fn add(self, o: Frac) -> Frac {
        let g = gcd(self.1, o.1).max(1);
        let d = self.1 / g * o.1;
        Frac::new(self.0 * (d / self.1) + o.0 * (d / o.1), d)
    }

    pub fn f64(self) -> f64 {
        self.0 as f64 / self.1 as f64
    }
}

/// Faces handed out from a prefix, then 1s; every die asked for is kept with its faces.
struct Walk<'a> {
    prefix: &'a [u32],
    asked: Vec<(u32, u32)>,
}

impl DiceSource for Walk<'_> {
    fn next_u32(&mut self) -> u32 {
        panic!("the rules asked for a raw random word, not a die")
    }

    fn roll(&mut self, sides: u32) -> u32 {
        let v = self.prefix.get(self.asked.len()).copied().unwrap_or(1);
        assert!(
            (1..=sides).contains(&v),
            "a die of {sides} asked for at a place that had another"
        );
        self.asked.push((sides, v));
        v
    }
}

/// Every way the dice of `f` can fall, with its exact probability and what `f` made of it;
/// `None` when there are more than `limit` ways (too many to walk here). The number of dice may
/// depend on the faces before (an exploding die, a test only on a hit): the walk follows it.
pub fn every_fall<T>(
    limit: usize,
    mut f: impl FnMut(&mut dyn DiceSource) -> T,
) -> Option<Vec<(Frac, T)>> {
    let mut out = Vec::new();
    let mut prefix: Vec<u32> = Vec::new();
    loop {
        let mut w = Walk {
            prefix: &prefix,
            asked: Vec::new(),
        };
        let made = f(&mut w);
        let asked = w.asked;
        let den = asked
            .iter()
            .try_fold(1u128, |d, &(s, _)| d.checked_mul(u128::from(s)))?;
        out.push((Frac::new(1, den), made));
        if out.len() > limit {
            return None;
        }
        // The next sequence: the last die not at its top goes up one, everything after it
        // starts again.
        let Some(i) = asked.iter().rposition(|&(s, v)| v < s) else {
            return Some(out);
        };
        prefix = asked[..i].iter().map(|&(_, v)| v).collect();
        prefix.push(asked[i].1 + 1);
    }
}

/// What an offer's chance speaks of, read from the fight before and after its events; `None`
/// for an offer whose chance this file does not know how to read.
fn outcome(
    _before: &State,
    after: &State,
    who: u32,
    intent: &Intent,
    made: &Event,
) -> Option<bool> {
    use rollsheet::rules::symbaroum::referee::Action as S;
    use rollsheet::rules::vogt::referee::Action as V;
    let dead = || after.get(who).is_some_and(|c| c.dead);
    Some(match intent {
        // The chance of dying with this test or roll.
        Intent::Symbaroum(S::DeathTest) | Intent::Vogt(V::Table) => dead(),
        // The test passes: up, and not at the cost of the whole turn.
        Intent::Symbaroum(S::StandUp) => notes(made).iter().any(|n| n.contains('≤')),
        // A shaken combatant keeps hold of what it acts with (its drop roll passed).
        Intent::Aura(_) => !notes(made)
            .iter()
            .any(|n| n.contains("is shaken") && n.contains("drops it")),
        // A chase's exchange: one square closer; one square behind, reaching the quarry (by
        // closing in, or by its giving out).
        Intent::Heimr(rollsheet::rules::heimr::referee::Action::ChaseRoll { .. }) => {
            use rollsheet::rules::heimr::chase::pair;
            let (_, d) = pair(_before, who).ok()?;
            match pair(after, who) {
                Ok((_, to)) => to == d - 1,
                Err(_) => d == 1 && notes(made).iter().any(|n| n.contains("reaches")),
            }
        }
        _ => return None,
    })
}

fn notes(e: &Event) -> Vec<String> {
    match e {
        Event::Note(n) => vec![n.clone()],
        Event::Batch(v) => v.iter().flat_map(notes).collect(),
        _ => Vec::new(),
    }
}

/// The chance shown as a probability; `Impossible` and `Certain` exactly 0 and 1.
fn shown(c: Chance) -> f64 {
    match c {
        Chance::Impossible => 0.0,
        Chance::Certain => 1.0,
        Chance::Between { p, .. } => p,
    }
}

/// Every offer with a chance of every combatant of `s`: walked and compared. Returns how many
/// offers were walked (the test counts them, so that it cannot pass by walking none).
pub fn check_odds(s: &State, concrete: impl Fn(&State, u32, &Intent) -> Option<Intent>) -> usize {
    let mut walked = 0;
    for c in &s.combatants {
        for o in referee::offers(s, c.id) {
            let (Some(chance), None) = (o.odds, &o.refused) else {
                continue;
            };
            let Some(intent) = concrete(s, c.id, &o.action) else {
                continue;
            };
            let Some(falls) = every_fall(WALK, |d| referee::resolve(s, c.id, &intent, d)) else {
                continue;
            };
            let mut yes = Frac::ZERO;
            let mut total = Frac::ZERO;
            for (p, made) in &falls {
                let made = made
                    .as_ref()
                    .unwrap_or_else(|w| panic!("{intent:?} offered, refused on a fall: {w}"));
                let mut after = s.clone();
                after.apply(made);
                let hit = outcome(s, &after, c.id, &intent, made).unwrap_or_else(|| {
                    panic!(
                        "offer “{}” ({intent:?}) shows a chance this test cannot read: say here what it means",
                        o.label
                    )
                });
                total = total.add(*p);
                if hit {
                    yes = yes.add(*p);
                }
            }
            assert_eq!(total, Frac(1, 1), "the falls of {intent:?} do not sum to 1");
            let want = shown(chance);
            assert!(
                (yes.f64() - want).abs() < 1e-12,
                "“{}” ({intent:?}) shows {want}, its resolution gives {}/{} = {} (first fall: {:?}; {c:?})",
                o.label,
                yes.0,
                yes.1,
                yes.f64(),
                falls.first().map(|f| &f.1)
            );
            walked += 1;
        }
    }
    walked
}

#[test]
fn the_walk_covers_every_fall_once_with_its_exact_weight() {
    // 2d6: 36 falls of 1/36; a d4 then as many d6 as the d4 shows: 4 + 24 + 144 + 864 falls.
    let two = every_fall(100, |d| d.roll(6) + d.roll(6)).unwrap();
    assert_eq!(two.len(), 36);
    let sevens = two
        .iter()
        .filter(|(_, v)| *v == 7)
        .fold(Frac::ZERO, |a, (p, _)| a.add(*p));
    assert_eq!(sevens, Frac(1, 6));
    let chain = every_fall(10_000, |d| {
        let n = d.roll(4);
        (0..n).map(|_| d.roll(6)).sum::<u32>()
    })
    .unwrap();
    assert_eq!(chain.len(), 6 + 36 + 216 + 1296);
    let total = chain.iter().fold(Frac::ZERO, |a, (p, _)| a.add(*p));
    assert_eq!(total, Frac(1, 1));
    // Sum 1: only n = 1 with a 1: 1/4 · 1/6.
    let one = chain
        .iter()
        .filter(|(_, v)| *v == 1)
        .fold(Frac::ZERO, |a, (p, _)| a.add(*p));
    assert_eq!(one, Frac(1, 24));
    assert!(every_fall(10, |d| d.roll(6) + d.roll(6)).is_none());
}

/// The exact share of `falls` for which `f` holds.
fn share<T>(falls: &[(Frac, T)], f: impl Fn(&T) -> bool) -> Frac {
    falls
        .iter()
        .filter(|(_, t)| f(t))
        .fold(Frac::ZERO, |a, (p, _)| a.add(*p))
}

fn same(what: &str, shown_: Chance, got: Frac) {
    let want = shown(shown_);
    assert!(
        (got.f64() - want).abs() < 1e-12,
        "{what}: shown {want}, its resolution gives {}/{} = {}",
        got.0,
        got.1,
        got.f64()
    );
}

/// Falls with the notes each writes and the fight each leaves.
type Applied = Vec<(Frac, (Vec<String>, State))>;

/// Every fall of `who`'s `intent` (at most `limit`) with the notes it writes and the fight it
/// leaves; `Some(Err)` when a fall is refused, `None` when there are too many to walk.
fn applied(s: &State, who: u32, intent: &Intent, limit: usize) -> Option<Result<Applied, String>> {
    let falls = every_fall(limit, |d| referee::resolve(s, who, intent, d))?;
    Some(
        falls
            .into_iter()
            .map(|(p, made)| {
                let made = made?;
                let mut after = s.clone();
                after.apply(&made);
                Ok((p, (notes(&made), after)))
            })
            .collect(),
    )
}

/// Heimr's attack panel: every chance `strike::preview` shows (each one's hit, a brawl's weak
/// touch, the attacker's fatigue rise) against the walk of the attack's resolution. Returns
/// how many attacks were walked.
pub fn check_heimr_previews(
    s: &State,
    concrete: impl Fn(&State, u32, &Intent) -> Option<Intent>,
) -> usize {
    use rollsheet::rules::heimr::combat::FATIGUE;
    use rollsheet::rules::heimr::referee::Action as H;
    use rollsheet::rules::heimr::strike::preview;
    let mut walked = 0;
    for c in &s.combatants {
        for o in referee::offers(s, c.id) {
            if o.refused.is_some() || !matches!(o.action, Intent::Heimr(H::Attack(_))) {
                continue;
            }
            let Some(intent) = concrete(s, c.id, &o.action) else {
                continue;
            };
            let Intent::Heimr(H::Attack(st)) = &intent else {
                continue;
            };
            let Ok(pre) = preview(s, c.id, st) else {
                continue;
            };
            let Some(falls) = applied(s, c.id, &intent, WALK * 2) else {
                continue;
            };
            let falls = falls.unwrap_or_else(|w| panic!("{intent:?} refused on a fall: {w}"));
            let line = |n: &str, by: u32, on: u32, what: &str| {
                n.starts_with(&format!("{} attacks {}:", s.name(by), s.name(on)))
                    && n.contains(what)
            };
            if pre.past.is_some() {
                // A brawl at an armed foe (the target, or a guard stepping in): `hits` is the
                // chance its provoked blow hits the brawler, the one attack on it here.
                for &(on, ch) in &pre.hits {
                    let blow = format!(" attacks {}:", s.name(on));
                    same(
                        &format!("{intent:?}: the provoked blow hits {}", s.name(on)),
                        ch,
                        share(&falls, |(n, _)| {
                            n.iter()
                                .any(|n| n.contains(&blow) && n.contains("· hits the"))
                        }),
                    );
                }
            } else {
                for &(on, ch) in &pre.hits {
                    same(
                        &format!("{intent:?}: hits {}", s.name(on)),
                        ch,
                        share(&falls, |(n, _)| {
                            n.iter().any(|n| line(n, c.id, on, "· hits the"))
                        }),
                    );
                }
                if let Some(w) = pre.weak {
                    same(
                        &format!("{intent:?}: touches without harm"),
                        w,
                        share(&falls, |(n, _)| {
                            n.iter().any(|n| n.contains("touches but does no harm"))
                        }),
                    );
                }
            }
            same(
                &format!("{intent:?}: the attacker’s fatigue rises"),
                pre.rise,
                share(&falls, |(_, a)| {
                    a.get(c.id).map(|x| x.stat(FATIGUE)) > Some(c.stat(FATIGUE))
                }),
            );
            walked += 1;
        }
    }
    walked
}

/// Symbaroum's attack panel: the hit and the to-0 chances `combat::attack_in` shows (the fight's
/// advantage and blindness, as `resolve` reads them) against the walk of the attack's
/// resolution. Returns how many attacks were walked.
pub fn check_symbaroum_previews(
    s: &State,
    concrete: impl Fn(&State, u32, &Intent) -> Option<Intent>,
) -> usize {
    use rollsheet::rules::symbaroum::combat::attack_in;
    use rollsheet::rules::symbaroum::referee::Action as S;
    let mut walked = 0;
    for c in &s.combatants {
        for o in referee::offers(s, c.id) {
            if o.refused.is_some() || !matches!(o.action, Intent::Symbaroum(S::Attack(_))) {
                continue;
            }
            let Some(intent) = concrete(s, c.id, &o.action) else {
                continue;
            };
            let Intent::Symbaroum(S::Attack(st)) = &intent else {
                continue;
            };
            let Some(pre) = attack_in(s, c.id, st.target, st.weapon as usize) else {
                continue;
            };
            if pre.damage.is_none() {
                continue;
            }
            // A choice refused for its own reason (a weapon that cannot be drawn now): skipped.
            let Some(Ok(falls)) = applied(s, c.id, &intent, WALK) else {
                continue;
            };
            let head = format!("{} attacks {}:", s.name(c.id), s.name(st.target));
            same(
                &format!("{intent:?}: hits"),
                pre.hit,
                share(&falls, |(n, _)| {
                    n.iter()
                        .any(|n| n.starts_with(&head) && n.contains(", hit;"))
                }),
            );
            let before = s.get(st.target).map_or(0, |t| t.hp);
            if before > 0 {
                same(
                    &format!("{intent:?}: takes it to 0"),
                    pre.to_zero,
                    share(&falls, |(_, a)| {
                        a.get(st.target).is_some_and(|t| t.hp <= 0 || t.dead)
                    }),
                );
            }
            walked += 1;
        }
    }
    walked
}
