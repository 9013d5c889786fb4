//! Heimr's chase (seed 000, "Chasing", L300–306; "Run", L352–353; fatigue, L284–314): a chaser
//! and the one it chases (its quarry), kept apart by a distance in squares, both rolling the
//! dice challenge the GM picks for the ground (C and P per side) until one of them gives out.
//!
//! How the rules are read here:
//! - "Characters take turns rolling this dice challenge" (L302): one exchange is the chaser's
//!   roll followed by its quarry's, each with its own C and P. An exchange is the chaser's Run
//!   (L352–353: "Two characters running after each other starts a chase"), so it is taken on the
//!   chaser's own turn, costs its standard action and ends its turn like any ongoing action:
//!   one exchange a round. The GM may change the C and P of either side from one exchange to
//!   the next (L306: the quarry may pick new ground, a wall to climb, a river to swim).
//! - The ±3 comparisons (L302) compare the two results (dice part + P): the chaser 3 or more
//!   above its quarry closes in one square; 3 or more below, the quarry gains one square;
//!   anything within 2 leaves the distance as it was. Both rolls are physical: fatigue is
//!   "the" check of a chase (L302: "done purely on the basis of fatigue"; L284).
//! - The fatigue check (L284, L304): a roll whose dice part (before P) is below the roller's
//!   fatigue fails, and that side cannot go on. The chaser failing lets the quarry escape; the
//!   quarry failing lets the chaser reach it. Both failing in the same exchange: both stop
//!   where they are and the chase ends with neither (the seed does not say; neither can go
//!   on, so neither gets away nor catches up). A failed check ends the chase whatever the
//!   other roll was: there is no comparison with a roll that failed.
//! - Reaching the quarry (L302: "During the roll in which the chaser would surpass the chase
//!   target, he or she can take an action against the target instead of moving ahead"): the
//!   exchange that brings the distance to 0 (or in which the quarry gives out) puts the
//!   chaser with its quarry; instead of running on past it, the chaser keeps its standard
//!   action to act against it now (an attack, a brawl). The chase is over.
//! - Fatigue rises as on any physical roll (L286), at most once a turn in a fight (L310), for
//!   either side (`fatigue_events`); it cannot drop during a chase (L304), so a breather is
//!   refused to a chaser and to its quarry (`in_chase`).
//! - A chase ends only by the fatigue check, by reaching the quarry, or when the chaser gives
//!   it up; the distance has no upper bound.
//!
//! Everything here is pure: the odds are exact (every dice part of both rolls weighed, never
//! sampled) and an exchange is a batch of events.

use super::challenge::{dice_distribution, roll_challenge};
use super::combat::{action_events, describe, fatigue_events, ACTIONS, CHASE_DISTANCE, CHASING};
use crate::rules::dice::{Chance, DiceSource};
use crate::rules::encounter::{Event, State};

/// How far apart the two results must be for the distance to change.
pub const GAP: i32 = 3;
/// The longest distance a chase may start at.
pub const MAX_START: u32 = 99;
/// The combat action an exchange is: the chaser runs (`ACTIONS[RUN]`).
pub const RUN: usize = 5;
/// The mark of an exchange rolled this turn (one a turn, even after reaching a quarry).
const CHASED: &str = "Chase";

/// One side of an exchange: its C and P on the ground the GM picked, and its fatigue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runner {
    pub c: i32,
    pub p: i32,
    pub fatigue: i32,
}

/// What one exchange does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The chaser rolled 3 or more above: one square closer.
    Closer,
    /// The chaser rolled 3 or more below: the quarry gains a square.
    Farther,
    /// Within 2 of each other: no change.
    Even,
    /// The chaser failed its fatigue check: the quarry gets away.
    Escaped,
    /// The quarry failed its fatigue check: the chaser reaches it.
    Caught,
    /// Both failed their fatigue checks: both stop, the chase ends.
    Spent,
}

impl Outcome {
    pub const ALL: [Outcome; 6] = [
        Outcome::Closer,
        Outcome::Farther,
        Outcome::Even,
        Outcome::Escaped,
        Outcome::Caught,
        Outcome::Spent,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Closer => "closes in",
            Outcome::Farther => "falls back",
            Outcome::Even => "no change",
            Outcome::Escaped => "chaser gives out",
            Outcome::Caught => "quarry gives out",
            Outcome::Spent => "both give out",
        }
    }

    /// The outcome of two rolls: each side's dice part (before P) and result.
    pub fn of(chaser: Runner, (cd, cr): (i32, i32), quarry: Runner, (qd, qr): (i32, i32)) -> Self {
        match (cd < chaser.fatigue, qd < quarry.fatigue) {
            (true, true) => Outcome::Spent,
            (true, false) => Outcome::Escaped,
            (false, true) => Outcome::Caught,
            (false, false) => Outcome::compare(cr, qr),
        }
    }

    /// Two results that both stand: the chaser's against its quarry's.
    pub fn compare(chaser: i32, quarry: i32) -> Self {
        if chaser - quarry >= GAP {
            Outcome::Closer
        } else if quarry - chaser >= GAP {
            Outcome::Farther
        } else {
            Outcome::Even
        }
    }
}

/// A side's masses: the fatigue failure, then each standing result with its probability.
fn side(r: Runner) -> (f64, bool, Vec<(i32, f64)>) {
    let d = dice_distribution(r.c);
    let (mut fail, mut can_fail, mut stand) = (0.0, false, Vec::new());
    for (v, q) in d.iter().filter(|x| x.1 > 0.0) {
        let v = v as i32;
        if v < r.fatigue {
            fail += q;
            can_fail = true;
        } else {
            stand.push((v + r.p, q));
        }
    }
    (fail, can_fail, stand)
}

/// The exact chance of each outcome of one exchange, in [`Outcome::ALL`]'s order. Each is
/// summed over every pair of dice parts, its complement summed on its own from the others,
/// and it is impossible or certain only when no pair (or every pair) gives it.
pub fn exchange_odds(chaser: Runner, quarry: Runner) -> [Chance; 6] {
    let (cf, c_fails, cs) = side(chaser);
    let (qf, q_fails, qs) = side(quarry);
    let (c_stands, q_stands) = (!cs.is_empty(), !qs.is_empty());
    let mut mass = [0.0; 6];
    let mut can = [false; 6];
    for &(a, pa) in &cs {
        for &(b, pb) in &qs {
            let i = Outcome::compare(a, b) as usize;
            mass[i] += pa * pb;
            can[i] = true;
        }
    }
    let (sc, sq): (f64, f64) = (cs.iter().map(|x| x.1).sum(), qs.iter().map(|x| x.1).sum());
    mass[Outcome::Escaped as usize] = cf * sq;
    mass[Outcome::Caught as usize] = sc * qf;
    mass[Outcome::Spent as usize] = cf * qf;
    can[Outcome::Escaped as usize] = c_fails && q_stands;
    can[Outcome::Caught as usize] = c_stands && q_fails;
    can[Outcome::Spent as usize] = c_fails && q_fails;
    std::array::from_fn(|i| {
        let rest = (0..6).filter(|&j| j != i);
        let rest_mass: f64 = rest.clone().map(|j| mass[j]).sum();
        Chance::from_masses(mass[i], rest_mass, can[i], rest.into_iter().any(|j| can[j]))
    })
}

/// The one `who` chases, if any (still in the fight or not).
pub fn quarry(s: &State, who: u32) -> Option<u32> {
    let n = s.get(who)?.stat(CHASING);
    u32::try_from(n - 1).ok()
}

/// Whether `who` is in a chase, as chaser or quarry: its fatigue cannot drop (L304).
pub fn in_chase(s: &State, who: u32) -> bool {
    quarry(s, who).is_some()
        || s.combatants
            .iter()
            .any(|c| !c.dead && !c.gone && quarry(s, c.id) == Some(who))
}

/// The chaser and its quarry as they are now, or why no exchange can be rolled.
pub fn pair(s: &State, who: u32) -> Result<(u32, i32), String> {
    let q = quarry(s, who).ok_or("it chases no one")?;
    match s.get(q) {
        Some(c) if !c.dead && !c.gone => {}
        _ => return Err("its quarry has left the fight".into()),
    }
    let d = s.get(who).map_or(0, |c| c.stat(CHASE_DISTANCE));
    Ok((q, d))
}

/// Why `who` cannot roll an exchange now (the rules' words), or `None`.
pub fn exchange_refused(s: &State, who: u32) -> Option<String> {
    let ran = s
        .get(who)
        .is_some_and(|c| c.used.iter().any(|u| u == CHASED));
    pair(s, who)
        .err()
        .or_else(|| action_events(s, who, RUN).err())
        .or_else(|| ran.then(|| "it already ran after someone this turn".to_owned()))
}

/// The odds of the next exchange with these C and P (chaser, then quarry), each side checked
/// against its fatigue now.
pub fn odds_now(s: &State, who: u32, (c, p, qc, qp): (i32, i32, i32, i32)) -> Option<[Chance; 6]> {
    let (q, _) = pair(s, who).ok()?;
    let f = |id| s.get(id).map_or(0, |x| x.stat(super::combat::FATIGUE));
    Some(exchange_odds(
        Runner {
            c,
            p,
            fatigue: f(who),
        },
        Runner {
            c: qc,
            p: qp,
            fatigue: f(q),
        },
    ))
}

fn stop(who: u32) -> [Event; 2] {
    [
        Event::Set(who, CHASING, 0),
        Event::Set(who, CHASE_DISTANCE, 0),
    ]
}

/// `who` starts chasing `target`, `distance` squares away.
pub fn start_events(s: &State, who: u32, target: u32, distance: u32) -> Result<Event, String> {
    let t = s
        .get(target)
        .filter(|t| target != who && !t.dead && !t.gone)
        .ok_or("no one to chase")?;
    if !(1..=MAX_START).contains(&distance) {
        return Err(format!("a distance of 1 to {MAX_START} squares"));
    }
    Ok(Event::Batch(vec![
        Event::Note(format!(
            "{} chases {}, {distance} squares behind",
            s.name(who),
            t.name
        )),
        Event::Set(who, CHASING, target as i32 + 1),
        Event::Set(who, CHASE_DISTANCE, distance as i32),
    ]))
}

/// `who` gives up its chase.
pub fn end_events(s: &State, who: u32) -> Result<Event, String> {
    let q = quarry(s, who).ok_or("it chases no one")?;
    let mut list = vec![Event::Note(format!(
        "{} gives up chasing {}",
        s.name(who),
        s.name(q)
    ))];
    list.extend(stop(who));
    Ok(Event::Batch(list))
}

/// One exchange: the chaser's roll, then its quarry's (dice from `dice`, in that order), the
/// fatigue of both, and what it does to the chase; the chaser's run unless it reached its
/// quarry (then it acts against it instead).
pub fn exchange_events(
    s: &State,
    who: u32,
    (c, p, qc, qp): (i32, i32, i32, i32),
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    if let Some(why) = exchange_refused(s, who) {
        return Err(why);
    }
    let (q, d) = pair(s, who)?;
    let (me, them) = (
        s.get(who).ok_or("not in the fight")?,
        s.get(q).ok_or("gone")?,
    );
    let fat = super::combat::FATIGUE;
    let (a, b) = (roll_challenge(c, p, dice), roll_challenge(qc, qp, dice));
    let runner = |c, p, x: &crate::rules::encounter::Combatant| Runner {
        c,
        p,
        fatigue: x.stat(fat),
    };
    let out = Outcome::of(
        runner(c, p, me),
        (a.dice, a.result),
        runner(qc, qp, them),
        (b.dice, b.result),
    );
    let to = match out {
        Outcome::Closer => d - 1,
        Outcome::Farther => d + 1,
        _ => d,
    };
    let reached = out == Outcome::Caught || to <= 0;
    let what = match out {
        _ if reached => format!("reaches {} and may act against it now", them.name),
        Outcome::Escaped => format!("gives out; {} gets away", them.name),
        Outcome::Spent => "both give out; the chase ends".into(),
        _ => format!("{to} squares apart"),
    };
    let mut list = vec![Event::Note(format!(
        "{} chases {} (fatigue {} and {}): {} against {} · {}",
        me.name,
        them.name,
        me.stat(fat),
        them.stat(fat),
        describe(&a),
        describe(&b),
        what
    ))];
    list.extend(fatigue_events(me, a.d6));
    list.extend(fatigue_events(them, b.d6));
    list.push(Event::Use(who, CHASED.into()));
    if reached || matches!(out, Outcome::Escaped | Outcome::Spent) {
        list.extend(stop(who));
    } else {
        list.push(Event::Set(who, CHASE_DISTANCE, to));
    }
    if !reached {
        // The run: its standard action, −2 C on defences until its next turn, the turn ends.
        match action_events(s, who, RUN)? {
            Event::Batch(run) => list.extend(run),
            e => list.push(e),
        }
    }
    Ok(Event::Batch(list))
}

/// Whether combat action `i` would lower fatigue (a breather), refused during a chase.
pub fn rests(i: usize) -> bool {
    ACTIONS.get(i).is_some_and(|a| a.0 == "Take a breather")
}

#[cfg(test)]
#[path = "chase_tests.rs"]
mod tests;
