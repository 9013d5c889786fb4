//! The referee's common parts: what a combatant may do now is decided here and in each
//! system's module, never in a panel. A system's actions are data (its `Action` enum); its
//! `offers(fight, who)` says, for each, whether it may be taken now (with its cost and exact
//! odds) or why not, and its `resolve(fight, who, action, dice)` is the one maker of the fight's
//! events for them: it refuses whatever `offers` refuses, with the same reason, and takes
//! exactly the dice the action rolls.
//!
//! Dice travel as [`Rolled`]: every die as (faces, value), in the order the rules ask for them.
//! A phone rolls with a [`Recorder`] around its own dice; `resolve` replays them with a
//! [`Replay`], which refuses a die of other faces, a value off the die, a missing die or one left
//! over. The same rules function thus rolls on the phone that acts and checks on the GM's.
//!
//! The turn actions every system with turns shares ([`Turn`]: end the turn, wait until last,
//! act before another) are refereed here from [`CombatRules::reorder`](super::CombatRules).

use super::rules::{AtZero, Reorder, Reset};
use super::state::{Event, State, QUIET};
use crate::rules::dice::{Chance, DiceSource};
use crate::rules::referee::Intent;

/// Every die an action rolled: (faces, value), in the order the rules rolled them.
pub type Rolled = Vec<(u32, u32)>;

/// The most dice one action may carry (a huge pool is refused before it is replayed).
pub const MAX_DICE: usize = 400;

/// One thing a combatant could do now: allowed, with its cost and odds, or not now and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    pub action: Intent,
    pub label: String,
    /// What it spends ("a combat action"), empty when nothing.
    pub cost: &'static str,
    /// The exact chance it succeeds, where it rolls.
    pub odds: Option<Chance>,
    /// `None`: allowed now. `Some(reason)`: not now, in the rules' words.
    pub refused: Option<String>,
}

impl Offer {
    pub fn allowed(&self) -> bool {
        self.refused.is_none()
    }
}

/// `Ok(())` when `action` is among `offers` and allowed; else the offer's reason (or that it
/// is not offered at all). What every `resolve` asks first. An action chosen among many
/// (`Intent::picks`: a target, a weapon) is matched by its kind: one offer stands for all.
pub fn check(offers: &[Offer], action: &Intent) -> Result<(), String> {
    let kind = action.code()[0];
    let found = offers.iter().find(|o| {
        if action.picks() {
            o.action.code()[0] == kind
        } else {
            o.action == *action
        }
    });
    match found {
        Some(Offer { refused: None, .. }) => Ok(()),
        Some(Offer {
            refused: Some(why), ..
        }) => Err(why.clone()),
        None => Err("not something this combatant can do in this fight".into()),
    }
}

/// The phone's own dice, each roll written down for the request that carries them.
pub struct Recorder<'a, S: DiceSource + ?Sized> {
    pub src: &'a mut S,
    pub rolled: Rolled,
}

impl<'a, S: DiceSource + ?Sized> Recorder<'a, S> {
    pub fn new(src: &'a mut S) -> Self {
        Recorder {
            src,
            rolled: Vec::new(),
        }
    }
}

impl<S: DiceSource + ?Sized> DiceSource for Recorder<'_, S> {
    fn next_u32(&mut self) -> u32 {
        self.src.next_u32()
    }

    fn roll(&mut self, sides: u32) -> u32 {
        let v = self.src.roll(sides);
        self.rolled.push((sides, v));
        v
    }
}

/// Dice rolled elsewhere, handed to the rules in order; any mismatch is kept and reported by
/// [`Replay::finish`] (the rules go on with a 1 meanwhile, and their result is then thrown away).
pub struct Replay<'a> {
    dice: &'a [(u32, u32)],
    at: usize,
    wrong: Option<String>,
}

impl<'a> Replay<'a> {
    pub fn new(dice: &'a [(u32, u32)]) -> Self {
        Replay {
            dice,
            at: 0,
            wrong: None,
        }
    }

    /// Whether the dice were exactly the ones the rules rolled.
    pub fn finish(self) -> Result<(), String> {
        if let Some(w) = self.wrong {
            return Err(w);
        }
        if self.at < self.dice.len() {
            return Err(format!(
                "{} dice sent, the roll takes {}",
                self.dice.len(),
                self.at
            ));
        }
        Ok(())
    }
}

impl DiceSource for Replay<'_> {
    fn next_u32(&mut self) -> u32 {
        self.wrong
            .get_or_insert_with(|| "the rules asked for raw randomness".into());
        0
    }

    fn roll(&mut self, sides: u32) -> u32 {
        let got = self.dice.get(self.at).copied();
        self.at += 1;
        match got {
            Some((f, v)) if f == sides && (1..=f).contains(&v) => v,
            Some((f, v)) => {
                self.wrong.get_or_insert_with(|| {
                    if f == sides {
                        format!("a d{f} showing {v}")
                    } else {
                        format!("a d{f} where the roll takes a d{sides}")
                    }
                });
                1
            }
            None => {
                self.wrong
                    .get_or_insert_with(|| "fewer dice than the roll takes".into());
                1
            }
        }
    }
}

/// Runs `f` over the dice `rolled` and keeps its result only if it took exactly those dice.
pub fn replayed<R>(rolled: &[(u32, u32)], f: impl FnOnce(&mut Replay) -> R) -> Result<R, String> {
    if rolled.len() > MAX_DICE {
        return Err(format!("more than {MAX_DICE} dice"));
    }
    let mut r = Replay::new(rolled);
    let out = f(&mut r);
    r.finish().map(|()| out)
}

/// The turn actions every system with turns shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Ends its own turn.
    End,
    /// Moves itself to the end of the order.
    WaitLast,
    /// Moves itself to just before another, later in the order.
    Before(u32),
}

/// Why `who` may not move itself in the order now (`None`: it may).
fn why_not_reorder(s: &State, who: u32) -> Option<String> {
    let name = s.name(who);
    match s.rules.reorder {
        // Never offered (see `turn_offers`).
        Reorder::Never => Some("these rules keep the order".into()),
        _ if s.ended => Some("the fight is over".into()),
        _ if s.round > 0 && s.current != Some(who) => Some(format!("only on {name}’s own turn")),
        Reorder::FirstRound if s.round > 1 => {
            Some("the order is established: it cannot be changed after the first round".into())
        }
        Reorder::FirstRound if s.round == 1 && s.placed.contains(&who) => {
            Some(format!("{name} has already waited this round"))
        }
        // A wait is instead of acting: once it has spent anything or used a once-a-turn mark
        // (a death test), its turn is taken and waiting would give it a second one.
        Reorder::FirstRound if s.round == 1 && !untouched(s, who) => Some(format!(
            "a wait is instead of acting: {name} has already acted this turn"
        )),
        Reorder::TurnStart if s.round > 0 && !untouched(s, who) => {
            Some("a delay is declared at the start of the turn, before anything is spent".into())
        }
        _ => None,
    }
}

/// The once-a-turn mark a death test leaves (a system whose dying roll a death test each turn,
/// `AtZero::DyingIfPc`): its turn does not end before it.
pub const DEATH_TEST: &str = "Death test";

/// Nothing spent or used yet this turn (a system's quiet bookkeeping aside).
fn untouched(s: &State, who: u32) -> bool {
    s.get(who).is_some_and(|c| {
        c.used.iter().all(|u| u.starts_with(QUIET))
            && s.rules.resources.iter().enumerate().all(|(i, r)| {
                r.reset != Reset::TurnStart || c.pools.get(i).is_none_or(|&v| v >= s.full(c, r))
            })
    })
}

/// The turn actions `who` could take now, each allowed or with the reason not.
pub fn turn_offers(s: &State, who: u32) -> Vec<Offer> {
    if !s.rules.has_turns() || s.get(who).is_none() {
        return Vec::new();
    }
    let name = s.name(who).to_owned();
    let alive = s.get(who).is_some_and(|c| !c.dead && !c.gone);
    let turn = if !alive {
        Some(format!("{name} is out of the fight"))
    } else if s.round == 0 {
        Some("the fight has not started".into())
    } else if s.ended {
        Some("the fight is over".into())
    } else if s.current != Some(who) {
        Some(format!("it is not {name}’s turn"))
    } else if s.rules.at_zero == AtZero::DyingIfPc
        && s.get(who)
            .is_some_and(|c| s.dying(c) && !c.used.iter().any(|u| u == DEATH_TEST))
    {
        // The dying roll their death test on their turn: it is not skipped by ending it.
        Some(format!("{name} is dying: its death test comes first"))
    } else {
        None
    };
    let mut out = vec![Offer {
        action: Intent::Turn(Turn::End),
        label: "End turn".into(),
        cost: "",
        odds: None,
        refused: turn,
    }];
    if s.rules.reorder == Reorder::Never {
        return out;
    }
    let reorder = if alive {
        why_not_reorder(s, who)
    } else {
        out[0].refused.clone()
    };
    let pos = s.order.iter().position(|&x| x == who);
    let last = pos.is_some_and(|p| p + 1 == s.order.len());
    out.push(Offer {
        action: Intent::Turn(Turn::WaitLast),
        label: "Wait until last".into(),
        cost: "",
        odds: None,
        refused: reorder
            .clone()
            .or_else(|| last.then(|| format!("{name} is already last"))),
    });
    // Before another: only one at least two places later (just before the next is no move).
    if let Some(p) = pos {
        for &id in s.order.iter().skip(p + 2) {
            if s.get(id).is_some_and(|c| !c.gone) {
                out.push(Offer {
                    action: Intent::Turn(Turn::Before(id)),
                    label: format!("Act before {}", s.name(id)),
                    cost: "",
                    odds: None,
                    refused: reorder.clone(),
                });
            }
        }
    }
    out
}

/// The one maker of a turn action's event.
pub fn resolve_turn(s: &State, who: u32, t: Turn) -> Result<Event, String> {
    check(&turn_offers(s, who), &Intent::Turn(t))?;
    Ok(match t {
        Turn::End => Event::Next,
        Turn::WaitLast => Event::Place(who, None),
        Turn::Before(id) => Event::Place(who, Some(id)),
    })
}
