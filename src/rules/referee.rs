//! Every refereed intent of every system, as one value that travels (a player's request carries
//! it with its dice): [`Intent`], what it may be now ([`allowed`]) and the one maker of its
//! events ([`resolve`]). Each system's own actions and rules are in its module's `referee.rs`;
//! the turn actions all systems share are in `encounter::referee`.

use crate::rules::dice::DiceSource;
use crate::rules::encounter::referee::{replayed, resolve_turn, turn_offers, Rolled, Turn};
use crate::rules::encounter::{Event, State};
use crate::rules::symbaroum;
use serde::{Deserialize, Serialize};

/// What a combatant intends, in any system's fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Intent {
    Turn(Turn),
    Symbaroum(symbaroum::referee::Action),
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
pub fn resolve_rolled(
    s: &State,
    who: u32,
    intent: Intent,
    rolled: &Rolled,
) -> Result<Event, String> {
    replayed(rolled, |r| resolve(s, who, intent, r))?
}

/// Whether `intent` may be taken by `who` now (`Err`: the reason, the same `resolve` gives).
pub fn allowed(s: &State, who: u32, intent: Intent) -> Result<(), String> {
    let found = match intent {
        Intent::Turn(t) => turn_offers(s, who)
            .into_iter()
            .find(|o| o.action == t)
            .map(|o| o.refused),
        Intent::Symbaroum(a) if s.rules.system == "symbaroum" => symbaroum::referee::offers(s, who)
            .into_iter()
            .find(|o| o.action == a)
            .map(|o| o.refused),
        _ => return Err("an action of another game’s rules".into()),
    };
    match found {
        Some(None) => Ok(()),
        Some(Some(why)) => Err(why),
        None => Err("not something this combatant can do in this fight".into()),
    }
}
