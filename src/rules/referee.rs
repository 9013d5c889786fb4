//! Every refereed intent of every system, as one value that travels (a player's request carries
//! it with its dice): [`Intent`], what it may be now ([`offers`]) and the one maker of its
//! events ([`resolve`]). Each system's own actions and rules are in its module's `referee.rs`;
//! the turn actions all systems share are in `encounter::referee`.

use crate::rules::dice::DiceSource;
use crate::rules::encounter::referee::{
    resolve_turn, turn_offers, Offer, Replay, Rolled, Turn, MAX_DICE,
};
use crate::rules::encounter::{Event, State};
use crate::rules::symbaroum;

/// What a combatant intends, in any system's fight. On the wire a pair of numbers
/// ([`Intent::code`]): no serde code of its own on the phone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    Turn(Turn),
    Symbaroum(symbaroum::referee::Action),
}

impl Intent {
    /// (kind, argument): the intent as the wire carries it.
    pub fn code(self) -> (u32, u32) {
        use symbaroum::referee::Action as S;
        match self {
            Intent::Turn(Turn::End) => (0, 0),
            Intent::Turn(Turn::WaitLast) => (1, 0),
            Intent::Turn(Turn::Before(id)) => (2, id),
            Intent::Symbaroum(S::StandUp) => (100, 0),
            Intent::Symbaroum(S::DeathTest) => (101, 0),
        }
    }

    /// The intent a code names; `None` for a code this version does not know.
    pub fn from_code((kind, arg): (u32, u32)) -> Option<Intent> {
        use symbaroum::referee::Action as S;
        Some(match (kind, arg) {
            (0, 0) => Intent::Turn(Turn::End),
            (1, 0) => Intent::Turn(Turn::WaitLast),
            (2, id) => Intent::Turn(Turn::Before(id)),
            (100, 0) => Intent::Symbaroum(S::StandUp),
            (101, 0) => Intent::Symbaroum(S::DeathTest),
            _ => return None,
        })
    }
}

/// The fight's events for `intent` of `who`, its dice rolled from `dice`; or the rules' reason
/// it cannot be now. A system's intent in another system's fight is refused.
pub fn resolve(
    s: &State,
    who: u32,
    intent: Intent,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    match intent {
        Intent::Turn(t) => resolve_turn(s, who, t),
        Intent::Symbaroum(a) if s.rules.system == "symbaroum" => {
            symbaroum::referee::resolve(s, who, a, dice)
        }
        _ => Err("an action of another game’s rules".into()),
    }
}

/// [`resolve`] with dice rolled on another phone: refused unless they are exactly the dice the
/// action rolls (their number, their faces, values on the die).
/// A rule's refusal is said before any fault of the dice.
pub fn resolve_rolled(
    s: &State,
    who: u32,
    intent: Intent,
    rolled: &Rolled,
) -> Result<Event, String> {
    if rolled.len() > MAX_DICE {
        return Err(format!("more than {MAX_DICE} dice"));
    }
    let mut replay = Replay::new(rolled);
    let made = resolve(s, who, intent, &mut replay)?;
    replay.finish()?;
    Ok(made)
}

/// Every refereed action `who` could take now in fight `s`: its system's own, then the turn
/// actions every system shares; each allowed (with cost and odds) or not and why.
pub fn offers(s: &State, who: u32) -> Vec<Offer<Intent>> {
    fn wrap<A>(list: Vec<Offer<A>>, f: fn(A) -> Intent) -> impl Iterator<Item = Offer<Intent>> {
        list.into_iter().map(move |o| Offer {
            action: f(o.action),
            label: o.label,
            cost: o.cost,
            odds: o.odds,
            refused: o.refused,
        })
    }
    let mut out: Vec<Offer<Intent>> = Vec::new();
    if s.rules.system == "symbaroum" {
        out.extend(wrap(symbaroum::referee::offers(s, who), Intent::Symbaroum));
    }
    out.extend(wrap(turn_offers(s, who), Intent::Turn));
    out
}
