//! Tempo's referee (see `encounter::referee`): every action of a Tempo fight. On its turn a
//! combatant declares a proactive action against an opponent who may react (its AP spent then,
//! seed l.11), and is bound to it: the exchange it rolls is that action against that opponent,
//! with the reaction the opponent gave (l.12) and a counter-tempo replacement the actor may
//! choose after it; every other opponent may react to it too until it is rolled. An action no
//! opponent can answer is rolled straight away. Out of its turn a combatant answers what is
//! declared against it, or reacts to what is declared against another. Before the first round it may start On Guard
//! (initiated or prepared); once disarmed it may take up a weapon again.

use super::combat::{
    answer_events, answered, declare_events, declared_as, declared_by, facing, join_events,
    joinable, joined, needs_target, offered, rearm, replacements, side_reactions, status,
    status_events, Exchange, DISARMED, T_DICE,
};
use super::{Status, ACTIONS};
use crate::rules::dice::{parse, roll, DiceSource, RollOutcome};
use crate::rules::encounter::referee::{check, Offer};
use crate::rules::encounter::{Event, State};
use crate::rules::referee::Intent;
use crate::rules::vogt::show_dice;

/// What a Tempo combatant can intend in its fight. Actions and reactions are indexes into
/// `ACTIONS`; a target 0 is no one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Answer what is declared against it: with this reaction, or with none. Declared against
    /// another, react to it too with this reaction.
    Answer(Option<u32>),
    /// Declare proactive action `action` against `target`, who may react; its AP spent now.
    Declare { action: u32, target: u32 },
    /// Roll the exchange: `action` against `target`, opposed by the reaction the target gave;
    /// `replacement` 0 keeps the action, k replaces it with the k-th counter-tempo replacement
    /// that reaction allows.
    Exchange {
        action: u32,
        target: u32,
        replacement: u32,
    },
    /// Starts On Guard: it initiated the fight or was prepared (before the first round).
    Prepared,
    /// Takes up a weapon again after a disarm.
    Rearm,
}

fn offer(action: Action, label: String, refused: Option<String>) -> Offer {
    Offer {
        action: Intent::Tempo(action),
        label,
        cost: "",
        odds: None,
        refused,
    }
}

/// The answers `who` may give now: no reaction, and each reaction that responds to what is
/// declared against it (refused with the reason when it cannot take it). None when nothing
/// waits for its answer.
fn answers(s: &State, who: u32, out: &mut Vec<Offer>) {
    if let Some((actor, t, i)) = joinable(s, who) {
        let list = side_reactions(s, who, actor, t, i);
        // Asked only when it has a reaction it can take (the refused ones then with why).
        if list.iter().all(|x| x.1.is_err()) {
            return;
        }
        for (r, able) in list {
            let a = &ACTIONS[r];
            let label = match &able {
                Ok(c) => format!("{} against {} · {c} AP: {}", a.name, s.name(actor), a.text),
                Err(_) => a.name.to_owned(),
            };
            out.push(offer(Action::Answer(Some(r as u32)), label, able.err()));
        }
        return;
    }
    let Some((from, i)) = facing(s, who) else {
        return;
    };
    if answered(s, who).is_some() {
        return;
    }
    out.push(offer(Action::Answer(None), "No reaction".into(), None));
    for (r, able) in side_reactions(s, who, from, who, i) {
        let a = &ACTIONS[r];
        let label = match &able {
            Ok(c) => format!("{} · {c} AP: {}", a.name, a.text),
            Err(_) => a.name.to_owned(),
        };
        out.push(offer(Action::Answer(Some(r as u32)), label, able.err()));
    }
}

/// Who could react to `who`'s action `i` against `t` (0: no one in particular), so it is
/// declared first: `t`, else the first other opponent with a reaction it can take.
fn reactor(s: &State, who: u32, t: u32, i: usize) -> Option<u32> {
    let can = |x: Vec<(usize, Result<i32, String>)>| x.iter().any(|x| x.1.is_ok());
    let live = |o: u32| s.get(o).is_some_and(|c| !c.dead && !c.gone);
    if t > 0 && can(side_reactions(s, t, who, t, i)) {
        return Some(t);
    }
    s.order
        .iter()
        .copied()
        .find(|&o| o != who && o != t && live(o) && can(side_reactions(s, o, who, t, i)))
}

/// Why exchange `x` cannot be rolled now (its costs, or check dice that are not dice).
fn unready(s: &State, x: &Exchange) -> Option<String> {
    let bad = |w: Option<u32>, check: bool| {
        w.filter(|_| check)
            .and_then(|w| s.get(w))
            .filter(|c| parse(c.text(T_DICE)).is_err())
            .map(|c| format!("{}’s check dice are not valid notation", c.name))
    };
    x.costs(s).err().or_else(|| {
        bad(Some(x.actor), x.acting().check)
            .or_else(|| bad(x.target, x.reaction.is_some_and(|r| ACTIONS[r].check)))
            .or_else(|| {
                x.also
                    .iter()
                    .find_map(|&(w, r)| bad(Some(w), ACTIONS[r].check))
            })
    })
}

/// Everything `who` could do now: its answer to a declaration against it; before the first
/// round, starting On Guard; once disarmed, taking up a weapon; on its turn, each proactive
/// action against each opponent (declared first when that opponent may react), or the one it
/// declared. Refused ones carry the reason.
pub fn offers(s: &State, who: u32) -> Vec<Offer> {
    let mut out = Vec::new();
    answers(s, who, &mut out);
    let Some(c) = s.get(who).filter(|c| !c.dead && !c.gone) else {
        return out;
    };
    let name = c.name.as_str();
    if s.round == 0 && status(s, who) == Status::OffGuard {
        out.push(offer(
            Action::Prepared,
            "Initiated or prepared: starts On Guard".into(),
            None,
        ));
    }
    if c.stat(DISARMED) > 0 {
        out.push(offer(Action::Rearm, "Takes up a weapon again".into(), None));
    }
    let declared = declared_by(s, who);
    for (i, can) in offered(s, who) {
        let a = &ACTIONS[i];
        let at = i as u32;
        let label = |t: u32| match t {
            0 => a.name.to_owned(),
            t => format!("{} against {}", a.name, s.name(t)),
        };
        // Bound by its declaration: that exchange only, once its target has answered.
        if let Some((t, d)) = declared {
            let (target, why) = if d == i {
                let why = match answered(s, t) {
                    None => Some(format!("waiting for {}’s answer", s.name(t))),
                    Some(_) => unready(s, &exchange_of(s, who, at, t, 0)),
                };
                (t, why)
            } else {
                let why = format!(
                    "{name} has declared a {} against {}: it goes ahead",
                    declared_as(d).to_lowercase(),
                    s.name(t)
                );
                (0, Some(why))
            };
            let again = format!("{name} has already declared its action");
            out.push(offer(
                Action::Declare { action: at, target },
                label(target),
                Some(again),
            ));
            out.push(offer(
                Action::Exchange {
                    action: at,
                    target,
                    replacement: 0,
                },
                label(target),
                why,
            ));
            continue;
        }
        if let Err(why) = can {
            for action in [
                Action::Declare {
                    action: at,
                    target: 0,
                },
                Action::Exchange {
                    action: at,
                    target: 0,
                    replacement: 0,
                },
            ] {
                out.push(offer(action, label(0), Some(why.clone())));
            }
            continue;
        }
        let alone = (!needs_target(i)).then_some(0);
        let others = s
            .order
            .iter()
            .copied()
            .filter(|&t| t != who && s.get(t).is_some_and(|c| !c.dead && !c.gone));
        for t in alone.into_iter().chain(others) {
            let exchange = Action::Exchange {
                action: at,
                target: t,
                replacement: 0,
            };
            let r = reactor(s, who, t, i);
            if let (0, Some(r)) = (t, r) {
                // Nobody in particular, yet an opponent may react: it is declared against one.
                let why = format!("declare it against someone first: {} may react", s.name(r));
                out.push(offer(exchange, label(t), Some(why)));
            } else if let Some(r) = r {
                out.push(offer(
                    Action::Declare {
                        action: at,
                        target: t,
                    },
                    label(t),
                    None,
                ));
                let first = format!("declare it first: {} may react", s.name(r));
                out.push(offer(exchange, label(t), Some(first)));
            } else {
                let why = unready(s, &exchange_of(s, who, at, t, 0));
                out.push(offer(exchange, label(t), why));
            }
        }
    }
    out
}

/// The exchange an [`Action::Exchange`] rolls: the reaction is the target's answer.
pub fn exchange_of(s: &State, who: u32, action: u32, target: u32, k: u32) -> Exchange {
    let i = action as usize;
    let reaction = answered(s, target)
        .filter(|_| facing(s, target) == Some((who, i)))
        .flatten();
    let paid = target > 0 && facing(s, target) == Some((who, i));
    Exchange {
        actor: who,
        action: i,
        target: (target > 0).then_some(target),
        reaction,
        replacement: reaction
            .zip(k.checked_sub(1))
            .and_then(|(r, k)| replacements(i, r).get(k as usize).copied()),
        also: if paid {
            joined(s, who, target, i)
        } else {
            Vec::new()
        },
    }
}

/// One side's check: its check dice rolled, or `None` when the action has no check.
fn rolled(
    s: &State,
    who: Option<u32>,
    check: bool,
    dice: &mut dyn DiceSource,
) -> Result<Option<(i64, String)>, String> {
    let Some(c) = who.filter(|_| check).and_then(|w| s.get(w)) else {
        return Ok(None);
    };
    let e = parse(c.text(T_DICE))
        .map_err(|_| format!("{}’s check dice are not valid notation", c.name))?;
    let r: RollOutcome = roll(&e, dice);
    Ok(Some((r.total, show_dice(&r))))
}

fn side(r: &Option<(i64, String)>) -> Option<(i64, &str)> {
    r.as_ref().map(|(t, f)| (*t, f.as_str()))
}

/// The one maker of a Tempo action's events: refuses what [`offers`] refuses (same reason).
/// An exchange rolls the actor's check dice, then the reactor's (when their actions check).
pub fn resolve(
    s: &State,
    who: u32,
    action: Action,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    // A replacement is chosen among those the reaction allows: its offer is the exchange's.
    let asked = match action {
        Action::Exchange {
            action: a,
            target: t,
            ..
        } => Action::Exchange {
            action: a,
            target: t,
            replacement: 0,
        },
        a => a,
    };
    let list = offers(s, who);
    let found = check(&list, &Intent::Tempo(asked));
    // An action refused as a whole is offered against no one: its reason stands for any target
    // not offered.
    let whole = match asked {
        Action::Declare { action, .. } => Action::Declare { action, target: 0 },
        Action::Exchange { action, .. } => Action::Exchange {
            action,
            target: 0,
            replacement: 0,
        },
        a => a,
    };
    if found.is_err() && list.iter().all(|o| o.action != Intent::Tempo(asked)) {
        if let Some(why) = list
            .iter()
            .find(|o| o.action == Intent::Tempo(whole))
            .and_then(|o| o.refused.clone())
        {
            return Err(why);
        }
    }
    found?;
    match action {
        Action::Answer(Some(r)) if joinable(s, who).is_some() => join_events(s, who, r as usize),
        Action::Answer(r) => answer_events(s, who, r.map(|r| r as usize)),
        Action::Declare { action, target } => Ok(declare_events(s, who, action as usize, target)),
        Action::Exchange {
            action,
            target,
            replacement,
        } => {
            let x = exchange_of(s, who, action, target, replacement);
            if replacement > 0 && x.replacement.is_none() {
                return Err("no such counter-tempo replacement here".into());
            }
            x.costs(s)?;
            let mine = rolled(s, Some(who), x.acting().check, dice)?;
            let react = x.reaction.is_some_and(|r| ACTIONS[r].check);
            let theirs = rolled(s, x.target, react, dice)?;
            let mut also = Vec::new();
            for &(w, r) in &x.also {
                also.push(rolled(s, Some(w), ACTIONS[r].check, dice)?);
            }
            let also: Vec<_> = also.iter().map(side).collect();
            x.resolve_all(s, side(&mine), side(&theirs), &also)
        }
        Action::Prepared => Ok(Event::Batch(status_events(s, who, Status::OnGuard))),
        Action::Rearm => rearm(s, who).ok_or_else(|| "it holds its weapon".into()),
    }
}
