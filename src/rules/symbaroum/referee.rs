//! Symbaroum's referee: what a combatant may do now and the one maker of its events (see
//! `encounter::referee`): standing up, the death test, the attack on its turn (its combat
//! action), a free attack when the rules give one (out of turn too: a foe withdrawing or moving
//! past, a Long weapon's reach, a hit over the pain threshold), and the pain-threshold choice,
//! made by the player whose character suffers the hit, or deals it to an NPC (seed 001: "it is
//! the player who decides between the two").

use super::combat::{
    over_pain_threshold, reach_free_attack, readying, situation, strike, surprise_due,
    take_in_hand, weapons, wielding, PAIN_BY, PAIN_DAMAGE, PAIN_TARGET, QUICK, REACH_TAKEN,
    SURPRISE_ATTACK,
};
use super::rolls::{death_chance_within, roll_test, success_chance, Blind};
use crate::rules::dice::DiceSource;
/// The once-a-turn mark a death test leaves (the engine's: a dying character's turn does not
/// end before it).
pub use crate::rules::encounter::referee::DEATH_TEST;
use crate::rules::encounter::referee::{check, Offer};
use crate::rules::encounter::{Combatant, Duration, Event, State, QUIET};
use crate::rules::referee::Intent;

/// Indexes of Symbaroum's resources: a combat action and a movement action per turn.
const COMBAT: usize = 0;
const MOVEMENT: usize = 1;

/// A free attack's trigger (seed 001, "Free Attack": one per triggering factor and turn).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// A surpriser's one free attack at the start.
    Surprise,
    /// Recorded by the fight in this turn: a foe withdrawing or moving past, or the pain
    /// choice of a hit; the mark it left (taken once).
    Recorded(String),
    /// Its Long weapon's reach, once a fight, on an enemy without one.
    Reach,
}

/// This turn, as the marks of its triggers name it: whose turn, the round, and how many have
/// had a turn (a turn after a wait in round 1 is another turn).
fn this_turn(s: &State) -> String {
    format!(
        "{}.{}.{}",
        s.current.unwrap_or(0),
        s.round,
        s.had_turn.len()
    )
}

/// The quiet mark a trigger leaves on the one it gives a free attack: `what` ("withdrawing",
/// "passing", "pain") against `target`, in this turn.
fn due_mark(s: &State, what: &str, target: u32) -> String {
    format!("{QUIET}free attack {what} on {target} in {}", this_turn(s))
}

/// The mark of a due free attack taken.
fn taken(due: &str) -> String {
    format!("{QUIET}taken {due}")
}

/// The events giving each of `to` a free attack on `target` for `what`, once in this turn.
fn give_free_attacks(s: &State, to: &[u32], what: &str, target: u32) -> Vec<Event> {
    let mark = due_mark(s, what, target);
    to.iter()
        .filter(|&&id| s.get(id).is_some_and(|c| !c.used.contains(&mark)))
        .map(|&id| Event::Use(id, mark.clone()))
        .collect()
}

/// The trigger that gives `who` a free attack on `target` with its weapon `weapon` now, if
/// any: its surprise attack at the start, one recorded in this turn and not yet taken, or its
/// Long weapon's reach.
pub fn free_attack_due(s: &State, who: u32, target: u32, weapon: usize) -> Option<Trigger> {
    let (c, t) = (s.get(who)?, s.get(target)?);
    if t.dead || t.gone || who == target {
        return None;
    }
    if surprise_due(s, who, target) {
        return Some(Trigger::Surprise);
    }
    let suffix = format!(" on {target} in {}", this_turn(s));
    let prefix = format!("{QUIET}free attack ");
    if let Some(m) = c
        .used
        .iter()
        .find(|u| u.starts_with(&prefix) && u.ends_with(&suffix) && !c.used.contains(&taken(u)))
    {
        return Some(Trigger::Recorded(m.clone()));
    }
    let armed = wielding(c, weapon)?;
    (c.stat(REACH_TAKEN) == 0 && c.pc != t.pc && reach_free_attack(&armed, t))
        .then_some(Trigger::Reach)
}

/// Every (target, weapon) `who` could take a free attack on now, with a weapon it can use as
/// a reaction (in hand, natural, or a Short one it unsheathes for free).
pub fn free_attacks_due(s: &State, who: u32) -> Vec<(u32, u32)> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    let n = weapons(c).len();
    let mut out = Vec::new();
    for t in &s.combatants {
        for i in 0..n {
            let ready = matches!(readying(c, i), Ok(None | Some(true)));
            if ready && free_attack_due(s, who, t.id, i).is_some() {
                out.push((t.id, i as u32));
            }
        }
    }
    out
}

/// Whether any free attack is due to `who`, whatever the weapon.
fn any_free_attack(s: &State, who: u32) -> bool {
    let n = s.get(who).map_or(0, |c| weapons(c).len());
    s.combatants
        .iter()
        .any(|t| (0..n).any(|i| free_attack_due(s, who, t.id, i).is_some()))
}

/// An attack's choices: the target and the weapon (an index into `combat::weapons`). The
/// advantage and who cannot see are the fight's (`combat::situation`), never the intent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Strike {
    pub target: u32,
    pub weapon: u32,
}

/// What a Symbaroum combatant can intend in its fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// On its turn: its combat action, an attack.
    Attack(Strike),
    /// An attack the rules give outside the turn's actions; no action spent.
    FreeAttack(Strike),
    /// The pain-threshold choice waiting on this combatant: knocked down (`true`) or a free
    /// attack for the one who dealt the hit.
    Pain(bool),
    /// Get up from prone: a Quick test (d20); a movement action if it passes (a combat action
    /// stands in for a spent one), the entire turn if not (seed 001, "Stand Up").
    StandUp,
    /// A dying character's death test, once on each of its turns (d20, and the d4 of
    /// toughness it wakes with on a 1).
    DeathTest,
    /// A movement action out of melee (`false`) or past an enemy to one beyond (`true`): each
    /// enemy it leaves or passes may take a free attack (seed 001, "Disengage", "Movement"),
    /// one each; past an enemy with its combat action traded for the move, it goes around:
    /// none (seed 001, "Flanking").
    Leave(bool),
    /// Goes around an enemy without entering melee: its combat action traded for a second
    /// movement action, both spent; no free attack (seed 001, "Flanking").
    GoAround,
    /// First aid or an elixir on `target` (itself too): see [`Aid`].
    Aid { target: u32, kind: Aid },
    /// Takes its weapon `i` (of `combat::weapons`) in hand: a movement action ("Switch
    /// weapons"), free for a Short weapon, which unsheathes as a free action.
    Draw(u32),
}

/// What a combatant gives: a herbal cure (1 toughness), Medicus (1d4), both (1d4 + 1), each of
/// which stabilizes the dying; or an elixir, whose effect the GM applies. On another: a combat
/// action (first aid); a cure or an elixir on itself: a movement action (seed 001, "Use/Apply
/// Elixir", "First Aid").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aid {
    Herbal,
    Medicus,
    Both,
    Elixir,
}

impl Aid {
    pub const ALL: [Aid; 4] = [Aid::Herbal, Aid::Medicus, Aid::Both, Aid::Elixir];

    pub fn name(self) -> &'static str {
        match self {
            Aid::Herbal => "a herbal cure",
            Aid::Medicus => "Medicus",
            Aid::Both => "Medicus with a herbal cure",
            Aid::Elixir => "an elixir",
        }
    }
}

impl Action {
    /// Whether it is chosen among many (target, weapon): one offer stands for the kind.
    pub fn picks(&self) -> bool {
        matches!(
            self,
            Action::Attack(_) | Action::FreeAttack(_) | Action::Aid { .. } | Action::Draw(_)
        )
    }
}

/// The pain-threshold choice waiting on `c`: (damage, who takes it, who dealt it).
pub fn pain_due(c: &Combatant) -> Option<(i32, u32, u32)> {
    let d = c.stat(PAIN_DAMAGE);
    (d > 0).then(|| {
        (
            d,
            c.stat(PAIN_TARGET).max(0) as u32,
            c.stat(PAIN_BY).max(0) as u32,
        )
    })
}

/// Why `who` cannot attack now, its turn aside (`None`: it can).
fn cannot_attack(s: &State, c: &Combatant) -> Option<String> {
    if c.dead || c.gone {
        return Some(format!("{} is out of the fight", c.name));
    }
    if s.round == 0 {
        return Some("the fight has not started".into());
    }
    if s.ended {
        return Some("the fight is over".into());
    }
    if s.dying(c) {
        return Some(format!("{} is dying and cannot help itself", c.name));
    }
    if s.combatants
        .iter()
        .any(|x| pain_due(x).is_some_and(|p| p.2 == c.id))
    {
        return Some("first, the pain-threshold choice of its last hit".into());
    }
    None
}

/// Why `who` cannot act on its own turn now (`None`: it can).
fn not_its_turn(s: &State, who: u32) -> Option<String> {
    let c = s.get(who)?;
    if c.dead || c.gone {
        return Some(format!("{} is out of the fight", c.name));
    }
    if s.round == 0 {
        return Some("the fight has not started".into());
    }
    if s.ended {
        return Some("the fight is over".into());
    }
    if s.current != Some(who) {
        return Some(format!("only on {}’s own turn", c.name));
    }
    None
}

/// Every Symbaroum action `who` could take now, allowed (with its cost and odds) or not and why.
/// Only those that apply to it are listed: standing up while prone, a death test while dying.
pub fn offers(s: &State, who: u32) -> Vec<Offer> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    let dying = s.dying(c);
    let mut out = Vec::new();
    let pool = |i: usize| pool(c, i);
    // Moving, standing and helping: on its turn, with an action left to spend (a combat action
    // stands in for a movement action), not while dying.
    let acting = || {
        not_its_turn(s, who)
            .or_else(|| dying.then(|| format!("{} is dying and cannot help itself", c.name)))
            .or_else(|| {
                (pool(MOVEMENT) < 1 && pool(COMBAT) < 1)
                    .then(|| format!("{} has no movement or combat action left", c.name))
            })
    };
    if !c.dead && !c.gone {
        let refused = not_its_turn(s, who)
            .or_else(|| cannot_attack(s, c))
            .or_else(|| {
                (pool(COMBAT) < 1).then(|| format!("{} has no combat action left", c.name))
            });
        out.push(Offer {
            action: Intent::Symbaroum(Action::Attack(Strike::default())),
            label: "Roll attack".into(),
            cost: "its combat action",
            odds: None,
            refused,
        });
        out.push(Offer {
            action: Intent::Symbaroum(Action::FreeAttack(Strike::default())),
            label: "Roll a free attack".into(),
            cost: "none: one per trigger (a foe withdrawing or moving past, a Long weapon’s reach, a hit over the pain threshold, a surprise)",
            odds: None,
            refused: cannot_attack(s, c).or_else(|| {
                (!any_free_attack(s, who))
                    .then(|| format!("no free attack is due to {}", c.name))
            }),
        });
        for past in [false, true] {
            out.push(Offer {
                action: Intent::Symbaroum(Action::Leave(past)),
                label: if past {
                    "Move past an enemy"
                } else {
                    "Withdraw from melee"
                }
                .into(),
                cost: if past && pool(MOVEMENT) < 1 {
                    "its combat action as movement, going around: no free attack"
                } else {
                    "a movement action; each enemy left behind may take a free attack"
                },
                odds: None,
                refused: acting(),
            });
        }
        out.push(Offer {
            action: Intent::Symbaroum(Action::GoAround),
            label: "Go around an enemy".into(),
            cost: "its combat action traded for movement, and its movement action: no free attack",
            odds: None,
            refused: acting().or_else(|| {
                (pool(COMBAT) < 1).then(|| {
                    format!(
                        "going around takes the combat action: {} has none left",
                        c.name
                    )
                })
            }),
        });
        out.push(Offer {
            action: Intent::Symbaroum(Action::Aid {
                target: 0,
                kind: Aid::Herbal,
            }),
            label: "Give aid".into(),
            cost: "a combat action; on itself, a movement action",
            odds: None,
            refused: acting(),
        });
        out.push(Offer {
            action: Intent::Symbaroum(Action::Draw(0)),
            label: "Take in hand".into(),
            cost: "a movement action; none for a Short weapon",
            odds: None,
            refused: acting(),
        });
    }
    if let Some((_, target, _)) = pain_due(c) {
        let t = s.name(target).to_owned();
        for knock in [true, false] {
            out.push(Offer {
                action: Intent::Symbaroum(Action::Pain(knock)),
                label: if knock {
                    format!("Pain threshold: knock {t} down")
                } else {
                    format!("Pain threshold: a free attack on {t}")
                },
                cost: "",
                odds: None,
                refused: None,
            });
        }
    }
    if s.has(who, "Prone") {
        let refused = acting();
        // Blind, the test is rolled twice, keeping the worse (seed 001, "Blind Fighting").
        let blind = if s.has(who, "Blind") {
            Blind::Me
        } else {
            Blind::Neither
        };
        let cost = if pool(MOVEMENT) >= 1 {
            "a movement action; the whole turn if the test fails"
        } else {
            "its combat action as movement; the whole turn if the test fails"
        };
        out.push(Offer {
            action: Intent::Symbaroum(Action::StandUp),
            label: "Roll to stand up".into(),
            cost,
            odds: Some(success_chance(c.stat(QUICK), blind)),
            refused,
        });
    }
    if dying {
        let refused = not_its_turn(s, who).or_else(|| {
            c.used
                .iter()
                .any(|u| u == DEATH_TEST)
                .then(|| format!("{} has taken this turn’s death test", c.name))
        });
        out.push(Offer {
            action: Intent::Symbaroum(Action::DeathTest),
            label: "Roll death test".into(),
            cost: "once on each of its turns",
            // Shown as the chance of dying with this test.
            odds: Some(death_chance_within(c.death, 1)),
            refused,
        });
    }
    out
}

/// The one maker of a Symbaroum action's events: refuses what [`offers`] refuses (same
/// reason) and rolls its dice from `dice` (a phone's own, or a [`Replay`] of a request's).
///
/// [`Replay`]: crate::rules::encounter::referee::Replay
pub fn resolve(
    s: &State,
    who: u32,
    action: Action,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    check(&offers(s, who), &Intent::Symbaroum(action))?;
    let c = s.get(who).ok_or("no such combatant")?;
    Ok(match action {
        Action::Attack(st) | Action::FreeAttack(st) => {
            let t = s
                .get(st.target)
                .filter(|t| t.id != who && !t.dead && !t.gone)
                .ok_or("pick someone else in the fight")?;
            let i = st.weapon as usize;
            let armed = wielding(c, i).ok_or("no such weapon")?;
            let free_attack = matches!(action, Action::FreeAttack(_));
            // The advantage and who cannot see, as the fight stands before anything is done.
            let (adv, me_blind, target_blind) = situation(s, who, t.id, i);
            let mut out = Vec::new();
            if let Some(free) = readying(c, i)? {
                let w = &weapons(c)[i].name;
                if !free && (free_attack || pool(c, MOVEMENT) < 1) {
                    return Err(format!(
                        "{w} is not in hand: taking it takes a movement action{}",
                        if free_attack {
                            ", not a reaction"
                        } else {
                            "; none is left"
                        }
                    ));
                }
                if !free {
                    out.push(Event::Spend(who, MOVEMENT, 1));
                }
                out.extend(take_in_hand(c, i));
            }
            // A free attack only on a trigger, each taken once.
            let trigger = if free_attack {
                Some(
                    free_attack_due(s, who, t.id, i)
                        .ok_or_else(|| format!("no free attack is due against {}", t.name))?,
                )
            } else {
                None
            };
            // The first attack a surpriser makes at the start is its surprise attack.
            if surprise_due(s, who, t.id) {
                out.push(Event::Use(who, SURPRISE_ATTACK.into()));
            }
            match trigger {
                Some(Trigger::Recorded(m)) => out.push(Event::Use(who, taken(&m))),
                Some(Trigger::Reach) => out.push(Event::Set(who, REACH_TAKEN, 1)),
                Some(Trigger::Surprise) | None => {}
            }
            let hit = strike(&armed, t, adv, me_blind, target_blind, dice);
            if !free_attack {
                out.push(Event::Spend(who, COMBAT, 1));
            }
            let free = if matches!(action, Action::FreeAttack(_)) {
                " (a free attack)"
            } else {
                ""
            };
            out.push(Event::Note(format!("{}{free}", hit.line)));
            if hit.hit && hit.damage > 0 {
                let hurt = s.damage_events(vec![t.id], hit.damage);
                let mut after = s.clone();
                after.apply(&hurt);
                out.extend(hurt.flat());
                // Over the pain threshold and still standing: a choice, made by the player
                // whose character takes the hit, else by the attacker's side.
                if over_pain_threshold(t, hit.damage) && after.get(t.id).is_some_and(|x| !x.dead) {
                    let chooser = if t.pc { t.id } else { who };
                    out.extend([
                        Event::Set(chooser, PAIN_DAMAGE, hit.damage),
                        Event::Set(chooser, PAIN_TARGET, t.id as i32),
                        Event::Set(chooser, PAIN_BY, who as i32),
                        Event::Note(format!(
                            "Over {}’s pain threshold: {} chooses, knocked down or a free attack",
                            t.name,
                            s.name(chooser)
                        )),
                    ]);
                }
            }
            Event::Batch(out)
        }
        Action::Pain(knock) => {
            let (_, target, by) = pain_due(c).ok_or("no pain-threshold choice waits")?;
            let mut out: Vec<Event> = [PAIN_DAMAGE, PAIN_TARGET, PAIN_BY]
                .into_iter()
                .map(|i| Event::Set(who, i, 0))
                .collect();
            let standing = s.get(target).is_some_and(|t| !t.dead && !t.gone);
            out.push(match (knock, standing) {
                (_, false) => Event::Note(format!("{} is down: no choice to make", s.name(target))),
                (true, true) if s.has(target, "Prone") => {
                    Event::Note(format!("{} is already down", s.name(target)))
                }
                (true, true) => Event::Add(target, "Prone".into(), Duration::Removed),
                (false, true) => Event::Note(format!(
                    "{} takes a free attack on {} (pain threshold)",
                    s.name(by),
                    s.name(target)
                )),
            });
            if !knock && standing {
                out.extend(give_free_attacks(s, &[by], "pain", target));
            }
            Event::Batch(out)
        }
        Action::StandUp => {
            let blind = if s.has(who, "Blind") {
                Blind::Me
            } else {
                Blind::Neither
            };
            let test = roll_test(c.stat(QUICK), blind, dice);
            let d20 = match test.rolls.as_slice() {
                [one] => one.to_string(),
                rolls => format!(
                    "{} → {}",
                    rolls
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                    test.kept
                ),
            };
            let cid = s
                .conditions_of(who)
                .find(|a| a.name == "Prone")
                .ok_or("not prone")?
                .cid;
            let quick = c.stat(QUICK);
            let ok = test.success;
            let pool = |i: usize| pool(c, i);
            // A failed test takes the entire turn (no combat action while getting up): with
            // its movement already spent, it cannot get up this turn.
            let whole = pool(MOVEMENT) >= 1 && pool(COMBAT) >= 1;
            let up = ok || whole;
            let mut out = Vec::new();
            if pool(MOVEMENT) < 1 {
                out.push(Event::Trade(who, COMBAT, MOVEMENT));
            }
            out.push(Event::Note(format!(
                "{} tries to stand up: Quick test d20 {d20} {} {quick}, {}",
                c.name,
                if ok { "≤" } else { ">" },
                match (ok, whole) {
                    (true, _) => "up for a movement action",
                    (false, true) => "up, and that takes the whole turn",
                    (false, false) => "still prone: getting up would take the whole turn",
                }
            )));
            if up {
                out.push(Event::Remove(cid));
            }
            out.push(Event::Spend(who, MOVEMENT, 1));
            if !ok && whole {
                out.push(Event::Spend(who, COMBAT, 1));
            }
            Event::Batch(out)
        }
        Action::DeathTest => {
            let (d20, d4) = (dice.roll(20), dice.roll(4));
            let mut out = vec![
                Event::Use(who, DEATH_TEST.into()),
                Event::Death(who, d20, d4),
            ];
            // Woken by a 1, it acts from its next turn (seed 001, "Dying Characters").
            if d20 == 1 {
                out.extend(
                    [COMBAT, MOVEMENT]
                        .into_iter()
                        .filter(|&i| pool(c, i) > 0)
                        .map(|i| Event::Spend(who, i, pool(c, i))),
                );
                out.push(Event::Note(format!("{} acts from its next turn", c.name)));
            }
            Event::Batch(out)
        }
        Action::Leave(true) if pool(c, MOVEMENT) < 1 => {
            let mut out = movement(c);
            out.push(Event::Note(format!(
                "{} goes around an enemy, its combat action traded for the move: no free attack",
                c.name
            )));
            Event::Batch(out)
        }
        Action::Leave(past) => {
            let mut out = movement(c);
            out.push(Event::Note(format!(
                "{} {}: each enemy {} may take a free attack on it",
                c.name,
                if past {
                    "moves past an enemy"
                } else {
                    "withdraws from melee"
                },
                if past { "passed" } else { "engaged with it" }
            )));
            // Each enemy able to strike gets one on it, once in this turn for each way.
            let enemies: Vec<u32> = s
                .combatants
                .iter()
                .filter(|x| x.pc != c.pc && !x.dead && !x.gone && !s.dying(x))
                .map(|x| x.id)
                .collect();
            let what = if past { "passing" } else { "withdrawing" };
            out.extend(give_free_attacks(s, &enemies, what, who));
            Event::Batch(out)
        }
        Action::GoAround => {
            let mut out = Vec::new();
            if pool(c, MOVEMENT) >= 1 {
                out.push(Event::Spend(who, MOVEMENT, 1));
            }
            out.extend([
                Event::Trade(who, COMBAT, MOVEMENT),
                Event::Spend(who, MOVEMENT, 1),
                Event::Note(format!(
                    "{} goes around an enemy, its combat action traded for the move: no free attack",
                    c.name
                )),
            ]);
            Event::Batch(out)
        }
        Action::Draw(i) => {
            let free = readying(c, i as usize)?;
            let w = &weapons(c)[i as usize].name;
            let free = free.ok_or(format!("{w} is already in hand"))?;
            let mut out = if free { Vec::new() } else { movement(c) };
            out.extend(take_in_hand(c, i as usize));
            Event::Batch(out)
        }
        Action::Aid { target, kind } => {
            let t = s
                .get(target)
                .filter(|t| !t.dead && !t.gone)
                .ok_or("pick someone in the fight")?;
            // On itself a cure or an elixir is drunk or applied: a movement action.
            let mut out = if target == who && matches!(kind, Aid::Herbal | Aid::Elixir) {
                movement(c)
            } else if pool(c, COMBAT) < 1 {
                return Err(format!("{} has no combat action left", c.name));
            } else {
                vec![Event::Spend(who, COMBAT, 1)]
            };
            let d4 = matches!(kind, Aid::Medicus | Aid::Both).then(|| dice.roll(4) as i32);
            let heal = d4.unwrap_or(0) + i32::from(matches!(kind, Aid::Herbal | Aid::Both));
            out.push(Event::Note(format!(
                "{} gives {} {}{}",
                c.name,
                t.name,
                kind.name(),
                match d4 {
                    Some(d) => format!(": d4 {d}"),
                    None if kind == Aid::Elixir => ": its effect as the GM reads it".into(),
                    None => String::new(),
                }
            )));
            if heal > 0 {
                out.extend(s.heal_events(vec![target], heal, true).flat());
            }
            Event::Batch(out)
        }
    })
}

fn pool(c: &Combatant, i: usize) -> i32 {
    c.pools.get(i).copied().unwrap_or(0)
}

/// Spending a movement action (its combat action in its place when none is left).
fn movement(c: &Combatant) -> Vec<Event> {
    let mut out = Vec::new();
    if pool(c, MOVEMENT) < 1 {
        out.push(Event::Trade(c.id, COMBAT, MOVEMENT));
    }
    out.push(Event::Spend(c.id, MOVEMENT, 1));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedSource;
    use crate::rules::encounter::systems::SYMBAROUM;
    use crate::rules::encounter::Duration;
    use crate::rules::symbaroum::combat::{npc, Npc};

    /// A (Quick 14, a player character) and B (Quick 10); round 1, A's turn.
    fn fight(extra: &[Event]) -> State {
        let mut a = npc("A", &Npc::quick(10, 10, 14, 10, 10, "1d6", ""));
        a.pc = true;
        let mut ev = vec![
            Event::Join(a),
            Event::Join(npc("B", &Npc::quick(10, 10, 10, 10, 10, "1d6", ""))),
            Event::Start,
        ];
        ev.extend_from_slice(extra);
        State::replay(&SYMBAROUM, &ev)
    }

    fn go(s: &State, who: u32, a: Action, dice: &[u32]) -> Result<State, String> {
        let e = resolve(s, who, a, &mut ScriptedSource::new(dice.to_vec()))?;
        let mut after = s.clone();
        after.apply(&e);
        Ok(after)
    }

    fn stand(s: &State) -> Offer {
        offers(s, 1)
            .into_iter()
            .find(|o| o.action == Intent::Symbaroum(Action::StandUp))
            .unwrap()
    }

    fn pools(s: &State, who: u32) -> Vec<i32> {
        s.get(who).unwrap().pools.clone()
    }

    /// #5 (a): A has moved (Movement 0/1, Combat 1/1) and passes the Quick test: its combat
    /// action stands in for the movement, so it is up with nothing left, never up with its
    /// combat action kept.
    #[test]
    fn symbaroum_r5_standing_up_needs_a_movement_action() {
        let prone = Event::Add(1, "Prone".into(), Duration::Removed);
        let s = fight(&[prone.clone(), Event::Spend(1, MOVEMENT, 1)]);
        assert_eq!(pools(&s, 1), [1, 0]);
        let after = go(&s, 1, Action::StandUp, &[5]).unwrap();
        assert!(!after.has(1, "Prone"));
        assert_eq!(
            pools(&after, 1),
            [0, 0],
            "the combat action went on standing"
        );
        // Failed with its movement spent: still prone, and the attempt took the combat action.
        let after = go(&s, 1, Action::StandUp, &[17]).unwrap();
        assert!(after.has(1, "Prone"));
        assert_eq!(pools(&after, 1), [0, 0]);
        // Failed with the whole turn left: up, and the whole turn is gone.
        let s = fight(std::slice::from_ref(&prone));
        let after = go(&s, 1, Action::StandUp, &[17]).unwrap();
        assert!(!after.has(1, "Prone"));
        assert_eq!(pools(&after, 1), [0, 0]);
        let after = go(&s, 1, Action::StandUp, &[14]).unwrap();
        assert_eq!(pools(&after, 1), [1, 0], "passed: a movement action only");
        // Nothing left: refused, with the reason offers gives.
        let s = fight(&[prone.clone(), Event::Spend(1, 0, 1), Event::Spend(1, 1, 1)]);
        let why = "A has no movement or combat action left";
        assert_eq!(go(&s, 1, Action::StandUp, &[1]), Err(why.into()));
        assert_eq!(stand(&s).refused.as_deref(), Some(why));
        // #5 (b): off its turn, not at all.
        let s = fight(&[Event::Add(2, "Prone".into(), Duration::Removed)]);
        assert_eq!(
            go(&s, 2, Action::StandUp, &[1]),
            Err("only on B’s own turn".into())
        );
        // The odds shown are the Quick test's: 14 in 20.
        let s = fight(&[prone]);
        assert_eq!(stand(&s).odds.map(|c| c.p()), Some(0.7));
    }

    /// #8: one death test per turn, and a dying character cannot help itself (no standing up).
    /// A dying PC (0 steps) rolls 14: 1 step; a second test that turn is refused, so the next
    /// test's chance of death stays 1/20, not the 1/2 of a third step.
    #[test]
    fn symbaroum_r8_one_death_test_a_turn_and_dying_cannot_act() {
        let s = fight(&[Event::Damage(vec![1], 10)]);
        assert!(s.dying(s.get(1).unwrap()));
        let o = offers(&s, 1);
        let death = o
            .iter()
            .find(|o| o.action == Intent::Symbaroum(Action::DeathTest))
            .unwrap();
        assert!(death.allowed());
        assert!(
            (death.odds.unwrap().p() - 0.05).abs() < 1e-12,
            "only a 20 kills at 0 steps"
        );
        let after = go(&s, 1, Action::DeathTest, &[14, 1]).unwrap();
        assert_eq!(after.get(1).unwrap().death, 1);
        let why = "A has taken this turn’s death test";
        assert_eq!(go(&after, 1, Action::DeathTest, &[17, 1]), Err(why.into()));
        let o = offers(&after, 1);
        let next = o
            .iter()
            .find(|o| o.action == Intent::Symbaroum(Action::DeathTest))
            .unwrap();
        assert_eq!(next.refused.as_deref(), Some(why));
        assert!(
            (next.odds.unwrap().p() - 0.05).abs() < 1e-12,
            "1/20, not 1/2"
        );
        // Its next turn: due again.
        let mut ev = vec![Event::Next, Event::Next];
        let mut s2 = after.clone();
        for e in ev.drain(..) {
            s2.apply(&e);
        }
        assert_eq!(s2.current, Some(1));
        assert!(go(&s2, 1, Action::DeathTest, &[3, 1]).is_ok());
        // Dying and prone: it cannot stand up.
        let s = fight(&[
            Event::Add(1, "Prone".into(), Duration::Removed),
            Event::Damage(vec![1], 10),
        ]);
        assert_eq!(
            go(&s, 1, Action::StandUp, &[1]),
            Err("A is dying and cannot help itself".into())
        );
    }

    /// N5 (c): the dice a death test takes are a d20 and a d4, nothing else.
    #[test]
    fn symbaroum_n5_a_death_test_takes_exactly_its_dice() {
        use crate::rules::encounter::referee::replayed;
        let s = fight(&[Event::Damage(vec![1], 10)]);
        let r = |d: &[(u32, u32)]| replayed(d, |src| resolve(&s, 1, Action::DeathTest, src));
        assert!(r(&[(20, 1), (4, 4)]).unwrap().is_ok());
        assert!(r(&[(20, 1)]).is_err());
        assert!(r(&[(20, 1), (6, 4)]).is_err());
        assert!(r(&[(20, 1), (4, 4), (20, 1)]).is_err());
    }

    fn hit_b() -> Action {
        Action::Attack(Strike {
            target: 2,
            weapon: 0,
        })
    }

    /// An attack is the turn's combat action: d20, the weapon's dice, the armor's; one a turn.
    /// A hit over an NPC's pain threshold (6 > 5) waits for the attacker's player's choice;
    /// until it is made the attacker attacks no more.
    #[test]
    fn an_attack_spends_the_combat_action_and_a_pain_choice_waits_on_the_chooser() {
        use crate::rules::encounter::referee::replayed;
        let s = fight(&[]);
        let r = |d: &[(u32, u32)]| replayed(d, |src| resolve(&s, 1, hit_b(), src));
        assert!(r(&[(20, 3), (6, 6)]).unwrap().is_ok());
        assert!(r(&[(20, 3)]).is_err());
        assert!(r(&[(20, 3), (8, 6)]).is_err());
        let after = go(&s, 1, hit_b(), &[3, 6]).unwrap();
        assert_eq!(after.get(2).unwrap().hp, 4);
        assert_eq!(pools(&after, 1), [0, 1]);
        assert_eq!(pain_due(after.get(1).unwrap()), Some((6, 2, 1)));
        let why = "first, the pain-threshold choice of its last hit";
        assert_eq!(go(&after, 1, hit_b(), &[3, 6]), Err(why.into()));
        let knocked = go(&after, 1, Action::Pain(true), &[]).unwrap();
        assert!(knocked.has(2, "Prone"));
        assert_eq!(pain_due(knocked.get(1).unwrap()), None);
        assert_eq!(
            go(&knocked, 1, hit_b(), &[3, 6]),
            Err("A has no combat action left".into())
        );
        // Under the threshold (5): the damage only, nothing waits.
        let after = go(&s, 1, hit_b(), &[3, 5]).unwrap();
        assert_eq!(pain_due(after.get(1).unwrap()), None);
        assert_eq!(after.get(2).unwrap().hp, 5);
    }

    /// O1: when an NPC's hit goes over a player character's pain threshold, the choice waits
    /// on that character (its player's phone), out of its turn; the attacker has none.
    #[test]
    fn symbaroum_o1_the_pain_choice_is_the_struck_players() {
        let s = fight(&[Event::Next]);
        assert_eq!(s.current, Some(2));
        let hit_a = Action::Attack(Strike {
            target: 1,
            weapon: 0,
        });
        // A defends: d20 15 > Defense 10: hit, 6 damage over A's threshold 5.
        let after = go(&s, 2, hit_a, &[15, 6]).unwrap();
        assert_eq!(after.get(1).unwrap().hp, 4);
        assert_eq!(pain_due(after.get(1).unwrap()), Some((6, 1, 2)));
        assert_eq!(pain_due(after.get(2).unwrap()), None);
        assert!(offers(&after, 2)
            .iter()
            .all(|o| !matches!(o.action, Intent::Symbaroum(Action::Pain(_)))));
        let free = go(&after, 1, Action::Pain(false), &[]).unwrap();
        assert!(!free.has(1, "Prone"));
        assert!(free
            .log
            .iter()
            .any(|l| l.text == "B takes a free attack on A (pain threshold)"));
    }

    /// N1: a free attack is the rules' to give out of turn (here B withdrawing from melee):
    /// offered then, at no cost; never to a dying character (T6-3: never without a trigger).
    #[test]
    fn symbaroum_n1_a_free_attack_out_of_turn() {
        let s = fight(&[Event::Next]);
        let free = Action::FreeAttack(Strike {
            target: 2,
            weapon: 0,
        });
        assert_eq!(
            go(&s, 1, free, &[3, 2]),
            Err("no free attack is due to A".into()),
            "no trigger yet"
        );
        let s = go(&s, 2, Action::Leave(false), &[]).unwrap();
        let after = go(&s, 1, free, &[3, 2]).unwrap();
        assert_eq!(after.get(2).unwrap().hp, 8);
        assert_eq!(pools(&after, 1), pools(&s, 1), "nothing spent");
        assert!(after
            .log
            .iter()
            .any(|l| l.text.ends_with("(a free attack)")));
        // On the Goblin's turn, A's ordinary attack is refused.
        assert_eq!(
            go(&s, 1, hit_b(), &[3, 2]),
            Err("only on A’s own turn".into())
        );
        let dying = fight(&[Event::Damage(vec![1], 10), Event::Next]);
        let dying = go(&dying, 2, Action::Leave(false), &[]).unwrap();
        assert_eq!(
            go(&dying, 1, free, &[3, 2]),
            Err("A is dying and cannot help itself".into())
        );
    }
}
