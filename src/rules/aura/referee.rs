//! Energy / Aura's referee (see `encounter::referee`): every action of a fight without turns.
//! Anyone may act whenever it makes sense, paying from the round's pools: the action list
//! (`ACTS`), the once-a-round stamina swap and initiative roll, an attack ([`FightAttack`],
//! worked out against the fight as it is: the defence it meets, the target's conditions), and
//! when held, breaking free or letting go. At 0 aura or 0 stamina: the death roll, the death
//! save and the wake roll, each when due; and gaining aura, which stabilizes.

use super::combat::Act;
use super::combat::{
    answers_initiative, can, can_escape, can_roll, cannot_act, death_roll_events, death_rolls_due,
    death_save_events, drop_roll_due, escape_dc, escape_events, fortitude_roll, heal_events,
    holder_of, initiative_events, keep_initiative_events, keeps_initiative, let_go_events,
    maneuver_events, may_roll_initiative, roll_defence, swap, swing_events, take, thrown_note,
    ManeuverRoll, Swing, ACTS, DROPPED, DROP_DC, INITIATIVE, SAVE, WAKE,
};
use super::gear::{by_code, carried, drop_events, dropped, in_hand, wield_events, Hand};
use super::strike::{roll_attack, FightAttack};
use super::AttackMode;
use crate::rules::dice::DiceSource;
use crate::rules::encounter::referee::{check, Offer};
use crate::rules::encounter::{Combatant, Event, State};
use crate::rules::referee::Intent;

/// What an Energy / Aura combatant can intend in its fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Take action `i` of `ACTS` (a move, defend, catch your breath …).
    Act(u32),
    /// Once a round: 1 stamina for 1 energy.
    Swap,
    /// Challenge this combatant's action with an initiative roll.
    Initiative(u32),
    Attack(FightAttack),
    /// Break free of a hold: against the holder's fortitude roll, or, when no one in the fight
    /// holds it, the DC the fight holds (the GM's: `combat::escape_dc`), never one it names.
    Escape,
    /// Let go of everyone it holds.
    LetGo,
    /// A death roll (damaged at 0 aura).
    DeathRoll,
    /// The round's death save while bleeding out.
    DeathSave,
    /// The round's wake roll while unconscious at 0 stamina.
    Wake,
    /// It gains this much aura (healing stabilizes).
    GainAura(u32),
    /// Takes the k-th weapon it carries (from 1) in hand, or ready when ranged; stows it when
    /// it is there already. Another weapon in that slot is stowed first, at its own price.
    Wield(u32),
    /// Keeps its initiative roll this round (true): challenged, it does not roll and loses,
    /// keeping the roll for later (seed l.126); or answers challenges again (false).
    KeepInitiative(bool),
}

impl Action {
    /// A GM's tool, not the combatant's own action (see `Intent::gm_only`): gaining aura
    /// (healing by fiat) and the wake roll (waking is the GM's call, seed l.659).
    pub fn gm_only(&self) -> bool {
        matches!(self, Action::GainAura(_) | Action::Wake)
    }

    /// Chosen among many (a target, a weapon, a number): one offer stands for all.
    pub fn picks(&self) -> bool {
        matches!(
            self,
            Action::Initiative(_) | Action::Attack(_) | Action::GainAura(_)
        )
    }
}

fn offer(action: Action, label: String, refused: Result<(), String>) -> Offer {
    Offer {
        action: Intent::Aura(action),
        label,
        cost: "",
        odds: None,
        refused: refused.err(),
    }
}

/// An action's price in words: "3 energy + 1 stamina".
fn price(energy: i32, agility: i32, stamina: i32) -> String {
    [
        (energy, "energy"),
        (agility, "agility"),
        (stamina, "stamina"),
    ]
    .iter()
    .filter(|c| c.0 > 0)
    .map(|c| format!("{} {}", c.0, c.1))
    .collect::<Vec<_>>()
    .join(" + ")
}

/// Whether `who` is down: at 0 aura, bleeding out or unconscious (and not dead).
fn down(s: &State, who: u32) -> bool {
    s.get(who).is_some_and(|c| {
        !c.dead && (c.hp <= 0 || s.has(who, "Bleeding out") || s.has(who, "Unconscious"))
    })
}

/// Everything `who` could do now, allowed or not and why: the action list with its costs,
/// the swap, initiative, an attack (one offer for every target and weapon), a hold's actions
/// while held or holding, and the rolls at 0 aura when down.
pub fn offers(s: &State, who: u32) -> Vec<Offer> {
    let Some(c) = s.get(who).filter(|c| !c.dead && !c.gone) else {
        return Vec::new();
    };
    let mut out: Vec<Offer> = ACTS
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let label = format!("{} · {}", a.name, price(a.energy, a.agility, a.stamina));
            shaken(
                s,
                who,
                a,
                offer(Action::Act(i as u32), label, can(s, who, a)),
            )
        })
        .collect();
    out.push(offer(
        Action::Swap,
        "Swap 1 stamina for 1 energy (once a round)".into(),
        swap(s, who).map(|_| ()),
    ));
    let init = cannot_act(s, who).and_then(|()| {
        if may_roll_initiative(s, who) {
            Ok(())
        } else {
            Err("its initiative roll of this round is made: another would fail by itself".into())
        }
    });
    out.push(offer(
        Action::Initiative(0),
        "Roll initiative (once a round)".into(),
        init.clone(),
    ));
    let keeps = keeps_initiative(s, who);
    out.push(offer(
        Action::KeepInitiative(!keeps),
        if keeps {
            "Answer initiative challenges again".into()
        } else {
            "Keep my initiative roll: challenged, do not roll (lose, keep it for later)".into()
        },
        init,
    ));
    let plain = FightAttack::plainest(s, who, 0);
    let refused = plain.as_ref().map(|_| ()).map_err(Clone::clone);
    let any = plain.unwrap_or(FightAttack::plain(0, 0));
    out.push(offer(Action::Attack(any), "Attack".into(), refused));
    if s.has(who, "Restrained") {
        out.push(offer(
            Action::Escape,
            "Break free · 3 energy".into(),
            can_escape(s, who),
        ));
    }
    if s.has(who, "Restraining") {
        out.push(offer(Action::LetGo, "Let go".into(), Ok(())));
    }
    out.extend(wield_offers(s, who));
    if down(s, who) {
        let due = death_rolls_due(s, who);
        let at_zero = if c.hp > 0 {
            Err("a death roll comes with damage at 0 aura".into())
        } else if due < 1 {
            Err("no death roll due: one comes with each hit taken at 0 aura".into())
        } else {
            Ok(())
        };
        out.push(offer(
            Action::DeathRoll,
            format!("Death roll (d20) · {due} due"),
            at_zero,
        ));
        out.push(offer(
            Action::DeathSave,
            "Death save (d20)".into(),
            can_roll(s, who, SAVE),
        ));
        // The GM's tools (`Action::gm_only`): whether a fall calls for a wake roll depends
        // on its cause; bleeding out, waking is the GM's call with no roll (seed l.659).
        let wake = can_roll(s, who, WAKE).and_then(|()| {
            if s.has(who, "Bleeding out") {
                Err("bleeding out: the GM decides when it wakes".into())
            } else {
                Ok(())
            }
        });
        out.push(offer(
            Action::Wake,
            "GM: wake roll (d20, after stamina loss or a blow)".into(),
            wake,
        ));
        out.push(offer(
            Action::GainAura(1),
            "GM: gain aura (a surge or an ability; stabilizes)".into(),
            Ok(()),
        ));
    }
    out
}

/// Stowing or taking in hand each weapon `who` carries (seed l.37): the side arm's price or
/// an item's, the shaken drop roll's odds; not one lying on the ground (pick it up).
fn wield_offers(s: &State, who: u32) -> Vec<Offer> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    carried(c)
        .iter()
        .zip(1u32..)
        .map(|(h, k)| {
            let (there, a) = (h.in_slot(c, k), wield_act(c, h, k));
            let a = &a;
            let verb = match (there, h.ranged) {
                (true, _) => "Stow",
                (false, true) => "Ready",
                (false, false) => "Take in hand:",
            };
            let stows = match in_hand(c, h.ranged) {
                Some(old) if !there => format!(" (stows {} first)", old.name),
                _ => String::new(),
            };
            let o = offer(
                Action::Wield(k),
                format!("{verb} {} · {} energy{stows}", h.name, a.energy),
                can(s, who, a).and_then(|()| {
                    if dropped(c) == Some(k as i32) {
                        Err("it lies on the ground: pick it up".into())
                    } else {
                        Ok(())
                    }
                }),
            );
            shaken(s, who, a, o)
        })
        .collect()
}

/// What stowing or taking weapon `h` (the `k`-th carried) in hand costs `c`: its own action
/// (a side arm 1 energy, else 2; seed l.37), and, taking it while another is in that slot,
/// stowing that one first at its own price: a swap of two weapons of 2 is 4.
fn wield_act(c: &Combatant, h: &Hand, k: u32) -> Act {
    let a = *h.act();
    if h.in_slot(c, k) {
        return a;
    }
    match in_hand(c, h.ranged) {
        Some(old) => Act {
            name: if h.ranged {
                "Stow one ranged weapon and ready another"
            } else {
                "Stow one weapon and take another in hand"
            },
            energy: old.act().energy + a.energy,
            ..a
        },
        None => a,
    }
}

/// Offer `o` of action `a`, with the drop roll's chance to keep hold (d20 ≥ 5) when shaken.
fn shaken(s: &State, who: u32, a: &super::combat::Act, mut o: Offer) -> Offer {
    if drop_roll_due(s, who, a) {
        o.label.push_str(" · shaken: a d20 of 5 or more keeps hold");
        o.odds = Some(crate::rules::dice::Chance::ratio(
            21 - u64::from(DROP_DC),
            20,
        ));
    }
    o
}

/// Stowing or taking weapon `k` in hand: the action's price (and drop roll when shaken), then
/// the slot; a weapon dropped on a failed drop roll lies on the ground.
fn wield(s: &State, who: u32, k: u32, dice: &mut dyn DiceSource) -> Result<Event, String> {
    let c = s.get(who).ok_or("not in this fight")?;
    let h = by_code(c, k as i32, false).ok_or("no such weapon")?;
    let (there, a) = (h.in_slot(c, k), wield_act(c, &h, k));
    let drop = drop_roll_due(s, who, &a).then(|| dice.roll(20));
    let mut out = take(s, who, &a, drop).flat();
    let kept = drop.is_none_or(|d| d >= DROP_DC);
    let (code, said) = match (there, kept) {
        (true, true) => (-1, "stows"),
        (false, true) => (k as i32, if h.ranged { "readies" } else { "takes in hand" }),
        (_, false) => (-1, "drops"),
    };
    out.push(Event::Note(format!("{} {said} {}", s.name(who), h.name)));
    if there || kept {
        out.extend(wield_events(s, who, code, h.ranged));
    }
    if !kept && !h.ranged {
        out.push(Event::Set(who, DROPPED, k as i32 + 1));
    }
    Ok(Event::Batch(out))
}

/// A d20 for `who`'s death roll, death save or wake roll, as events.
fn d20(s: &State, who: u32, f: fn(&State, u32, u32) -> Event, dice: &mut dyn DiceSource) -> Event {
    let r = dice.roll(20);
    f(s, who, r)
}

/// The events of `action` by `who`, its dice rolled from `dice`; or why it cannot be now
/// (what `offers` says).
pub fn resolve(
    s: &State,
    who: u32,
    action: Action,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    check(&offers(s, who), &Intent::Aura(action))?;
    Ok(match action {
        Action::Act(i) => {
            let a = ACTS.get(i as usize).ok_or("no such action")?;
            let drop = drop_roll_due(s, who, a).then(|| dice.roll(20));
            take(s, who, a, drop)
        }
        Action::Swap => swap(s, who)?,
        Action::Initiative(other) => {
            if other == who || s.get(other).is_none_or(|c| c.dead || c.gone) {
                return Err("not a combatant in this fight".into());
            }
            let bonus = |x: u32| i64::from(s.get(x).map_or(0, |c| c.stat(INITIATIVE)));
            let mine = i64::from(dice.roll(20)) + bonus(who);
            let theirs =
                answers_initiative(s, other).then(|| i64::from(dice.roll(20)) + bonus(other));
            initiative_events(s, who, other, Some(mine), theirs)
        }
        Action::Attack(x) => attack(s, who, &x, dice)?,
        Action::Escape => {
            can_escape(s, who)?;
            let (e, f) = fortitude_roll(s, who);
            let mine = roll_defence(10, e, dice).1 + i64::from(f);
            let theirs = match holder_of(s, who) {
                Some(h) => {
                    let (he, hf) = fortitude_roll(s, h);
                    roll_defence(10, he, dice).1 + i64::from(hf)
                }
                None => i64::from(escape_dc(s, who)),
            };
            escape_events(s, who, mine, theirs)
        }
        Action::LetGo => let_go_events(s, who),
        Action::DeathRoll => d20(s, who, death_roll_events, dice),
        Action::DeathSave => d20(s, who, death_save_events, dice),
        Action::Wake => d20(s, who, super::combat::wake_events, dice),
        Action::GainAura(n) => {
            if !(1..=10_000).contains(&n) {
                return Err("an amount out of range".into());
            }
            heal_events(s, who, n as i32)
        }
        Action::Wield(k) => wield(s, who, k, dice)?,
        Action::KeepInitiative(keep) => {
            if keep == keeps_initiative(s, who) {
                return Err("so it is already".into());
            }
            keep_initiative_events(s, who, keep)
        }
    })
}

/// An attack: planned against the fight as it is, rolled, and its events (the spend, the
/// rolls, damage or a maneuver's outcome, exposure, a thrown weapon out of hand).
fn attack(
    s: &State,
    who: u32,
    x: &FightAttack,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    let (a, energy) = x.plan(s, who)?;
    let t = x.target;
    if t == 0 {
        return Err("pick a target first".into());
    }
    let foe = x.foe(s, who, &a);
    let r = roll_attack(&a, &foe, &x.aim, dice)
        .ok_or("this weapon's damage is not dice: fix it on the sheet")?;
    let thrown = a.mode == AttackMode::Thrown;
    let mut also = r.m.map_or_else(Vec::new, |m| {
        maneuver_events(
            s,
            who,
            t,
            &ManeuverRoll {
                m,
                hit: r.r.hit,
                fortitude: r.fort,
                av: r.st.value + 5,
                swift: x.swift,
                fling: x.aim.fling,
            },
        )
    });
    if thrown {
        // Out of hand: it lies where it landed until picked up.
        also.push(thrown_note(s, who));
        also.extend(drop_events(s, who));
    }
    let label = match (r.m, thrown) {
        (Some(m), _) => m.name().to_lowercase(),
        (None, true) => "throw".to_owned(),
        (None, false) => "attack".to_owned(),
    };
    Ok(swing_events(
        s,
        &Swing {
            attacker: who,
            target: t,
            label,
            energy,
            enhance: x.enhance as i32,
            swift: x.swift,
            d20: r.r.d20,
            hit: r.r.hit,
            crit: r.r.crit,
            dealt: if r.m.is_some() { 0 } else { r.r.dealt },
            rolls: r.line,
            non_lethal: r.non_lethal,
            also,
        },
    ))
}

#[cfg(test)]
#[path = "referee_tests.rs"]
mod tests;
