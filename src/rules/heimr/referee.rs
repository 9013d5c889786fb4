//! Heimr's referee (see `encounter::referee`): every action of a Heimr fight.
//! - Readying a defence, which a defender may roll out of its turn too (seed 000: pre-roll it
//!   "preferably at the end of your turn, and as soon as you've used your last"). A shown
//!   defence stands until an attack uses it or its owner's next turn begins
//!   (`CombatRules::lapse`); it is never rolled again meanwhile.
//! - The combat actions, on its own turn (free ones once, one standard), guarding whom, and a
//!   readied action going off on another's turn.
//! - An attack ([`Strike`]), worked out against the fight as it is (the guard that steps in, a
//!   shot's cluster, hidden ones included on the GM's phone): on its own turn, and before the
//!   first round (an ambush before initiative: the table's call).
//! - Stabilising a dying combatant, an effect on it, a landing from a height, and taking up a
//!   weapon and shield.
//! - A chase (`heimr::chase`): starting one, an exchange on the chaser's turn (its run), giving
//!   it up; no breather for either side while it lasts.

use super::challenge::roll_challenge;
use super::chase::{
    end_events, exchange_events, exchange_refused, in_chase, odds_now, quarry, rests, start_events,
    Outcome,
};
use super::combat::{
    a_grab, action_events, arm_events, defence_events, defence_setup, describe, dying,
    effect_events, ending, fall_cr, fall_events, fatigue_events, guard_events, no_actions,
    picked_cp, release, reopen_events, shown, stabilise, trigger_events, triggered, unfit, Defence,
    Effect, Shown, ACTIONS, AGILITY_C, AGILITY_P, BINDS, FATIGUE, GUARD_ACTION, OFF_WEAPON, SHIELD,
    SHIELDS, SHIELD_C, STANDARD, TRIGGERED, WEAPON, WEAPONS, WEAPON_C,
};

/// "Draw a weapon" in `ACTIONS`: what taking up gear costs.
const DRAW: usize = 13;
use super::sheet::{Injury, InjuryLevel};
use super::strike::{strike_events, Strike};
use crate::rules::dice::{Chance, DiceSource};
use crate::rules::encounter::referee::{check, Offer};
use crate::rules::encounter::{Duration, Event, State};
use crate::rules::referee::Intent;

/// What a Heimr combatant can intend in its fight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Roll this defence ahead: attackers see it until it is used.
    Ready(Defence),
    /// Take combat action `i` of `ACTIONS` (not Guard).
    Act(u32),
    /// Guard this combatant (0: a place or an object).
    Guard(u32),
    /// Its readied action goes off, on another's turn.
    Trigger,
    /// It chooses to take the next attack without defending (seed: "Characters can choose not
    /// to defend against an attack"): the target's choice, out of its turn too.
    Undefended,
    Attack(Strike),
    /// Stabilise it while it is dying.
    Stabilise,
    /// An effect on it: `effect` indexes `Effect::ALL`, `bind` the body part of a bind, `n`
    /// its seconds or points.
    Effect {
        effect: u32,
        bind: u32,
        n: u32,
    },
    /// It lands from `height`, jumped or fallen.
    Fall {
        height: u32,
        jumped: bool,
    },
    /// It takes up a weapon and what its off hand holds (indexes of `WEAPONS`, `SHIELDS`), on
    /// its turn as "Draw a weapon": the weapon fought with `ability`, the shield (or second
    /// weapon) with `off`: 0 keeps the numbers it fights with now, k its sheet's k-th ability
    /// as the fight holds it (`combat::abilities`).
    TakeUp {
        weapon: u32,
        shield: u32,
        ability: u32,
        off: u32,
    },
    /// It lets go of the one it holds with a brawl bind.
    Release,
    /// Its stabilised injury reopens (the injured part moved).
    Reopen,
    /// It starts chasing `target`, `distance` squares behind (`heimr::chase`).
    Chase {
        target: u32,
        distance: u32,
    },
    /// One exchange of its chase: its roll with C `c`, P `p`, then its quarry's with `qc`, `qp`
    /// (the GM's pick for the ground, which may change between exchanges).
    ChaseRoll {
        c: i32,
        p: i32,
        qc: i32,
        qp: i32,
    },
    /// It gives up its chase.
    ChaseEnd,
}

impl Action {
    /// Chosen among many (a target and options, whom to guard, an effect's number, a height,
    /// gear): one offer stands for all.
    pub fn picks(&self) -> bool {
        matches!(
            self,
            Action::Guard(_)
                | Action::Attack(_)
                | Action::Effect { .. }
                | Action::Fall { .. }
                | Action::TakeUp { .. }
                | Action::Chase { .. }
                | Action::ChaseRoll { .. }
        )
    }
}

fn offer(action: Action, label: String, refused: Option<String>) -> Offer {
    Offer {
        action: Intent::Heimr(action),
        label,
        cost: "",
        odds: None,
        refused,
    }
}

/// What rolling an attack on its own turn takes: the standard action, unless an attack action
/// (weapon attack, brawl attack, charge) was taken this turn; one roll a turn, one per weapon
/// held for a weapon attack (the seed, "Weapon attack"). Before the first round: nothing.
fn attack_cost(s: &State, who: u32) -> Result<Vec<Event>, String> {
    let c = s.get(who).ok_or("not in the fight")?;
    // A readied attack, its trigger happened: readying paid for it; one roll.
    if s.round > 0 && triggered(s, who) {
        return Ok(ending(s, who, TRIGGERED).collect());
    }
    if s.round == 0 || s.current != Some(who) {
        return Ok(Vec::new());
    }
    let rolled = c.used.iter().filter(|u| *u == "Attack roll").count() as i32;
    let weapons = i32::from(c.stat(WEAPON) > 0) + i32::from(c.stat(SHIELD) == OFF_WEAPON);
    if rolled >= weapons.max(1) {
        return Err("it has made its attack this turn".into());
    }
    let mut list = vec![Event::Use(who, "Attack roll".into())];
    let declared = ["Weapon attack", "Brawl attack", "Charge"];
    if !c.used.iter().any(|u| declared.contains(&u.as_str())) {
        if c.pools.get(STANDARD).is_none_or(|&n| n <= 0) {
            return Err("its standard action is already used this turn".into());
        }
        list.push(Event::Use(who, "Weapon attack".into()));
        list.push(Event::Spend(who, STANDARD, 1));
    }
    Ok(list)
}

/// Every Heimr action `who` could take now, allowed or not and why: each defence, in its turn
/// or out of it.
pub fn offers(s: &State, who: u32) -> Vec<Offer> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    if c.dead || c.gone {
        return Vec::new();
    }
    let mut out: Vec<Offer> = Defence::ALL
        .into_iter()
        .map(|d| {
            let setup = defence_setup(s, who, d);
            let label = match &setup {
                Ok(st) => format!(
                    "Roll {} · C {} · P {}",
                    d.name().to_lowercase(),
                    st.c.text(),
                    st.p.text()
                ),
                Err(e) => format!("{}: {e}", d.name()),
            };
            // Before the first round too: defences are rolled ahead.
            let refused = if s.ended {
                Some("the fight is over".to_owned())
            } else if let Shown::Ready { kind, value, .. } = shown(s, who) {
                Some(format!(
                    "its {} {value} stands until an attack uses it or its next turn begins",
                    kind.name().to_lowercase()
                ))
            } else {
                setup.err()
            };
            offer(Action::Ready(d), label, refused)
        })
        .collect();
    let over = s.ended.then(|| "the fight is over".to_owned());
    let chasing = in_chase(s, who);
    for (i, (name, ty)) in ACTIONS.iter().enumerate() {
        let why = over.clone().or_else(|| {
            if chasing && rests(i) {
                return Some("fatigue cannot drop during a chase".to_owned());
            }
            action_events(s, who, i).err()
        });
        let label = format!("{name} · {}", ty.name());
        let action = if i == GUARD_ACTION {
            Action::Guard(0)
        } else {
            Action::Act(i as u32)
        };
        out.push(offer(action, label, why));
    }
    if s.has(who, "Readied") {
        let why = over.clone().or_else(|| trigger_events(s, who).err());
        out.push(offer(
            Action::Trigger,
            "Its trigger happened: act now".into(),
            why,
        ));
    }
    let bare = over.clone().or_else(|| {
        s.has(who, "Undefended")
            .then(|| "it already takes the next attack undefended".to_owned())
    });
    out.push(offer(
        Action::Undefended,
        "Take the next attack undefended".into(),
        bare,
    ));
    let attack = over.clone().or_else(|| {
        if s.round > 0 && s.current != Some(who) && !triggered(s, who) {
            return Some("an attack is made on its own turn".to_owned());
        }
        no_actions(s, who)
            .map(|n| format!("{n}: no attacks"))
            .or_else(|| attack_cost(s, who).err())
    });
    out.push(offer(
        Action::Attack(Strike::default()),
        "Roll attack".into(),
        attack,
    ));
    if dying(s, who) {
        out.push(offer(Action::Stabilise, "Stabilise".into(), over.clone()));
    }
    if a_grab(s, who).is_some() {
        out.push(offer(Action::Release, "Let go".into(), over.clone()));
    }
    if Injury::from_hp(c.hp).level >= InjuryLevel::Mangled {
        let why = over.clone().or_else(|| reopen_events(s, who).err());
        out.push(offer(Action::Reopen, "The injury reopens".into(), why));
    }
    out.push(offer(
        Action::Effect {
            effect: 0,
            bind: 0,
            n: 0,
        },
        "Apply effect".into(),
        over.clone(),
    ));
    out.push(offer(
        Action::Fall {
            height: 0,
            jumped: false,
        },
        "Roll the landing".into(),
        over.clone(),
    ));
    let busy = over
        .clone()
        .or_else(|| no_actions(s, who).map(|n| format!("{n}: no actions")));
    out.push(offer(
        Action::TakeUp {
            weapon: 0,
            shield: 0,
            ability: 0,
            off: 0,
        },
        "Take up".into(),
        busy.or_else(|| (s.round > 0).then(|| action_events(s, who, DRAW).err())?),
    ));
    let target = quarry(s, who);
    let busy = target.map(|q| format!("it already chases {}", s.name(q)));
    out.push(offer(
        Action::Chase {
            target: 0,
            distance: 1,
        },
        "Start a chase".into(),
        over.clone().or(busy),
    ));
    // The offer's odds: both running on Agility, each checked against its fatigue now.
    let agility = |id: u32| {
        s.get(id)
            .map_or((0, 0), |c| (c.stat(AGILITY_C), c.stat(AGILITY_P)))
    };
    let (a, b) = (agility(who), target.map_or((0, 0), agility));
    let odds = odds_now(s, who, (a.0, a.1, b.0, b.1));
    // One square behind, closing in reaches the quarry, as its giving out does: the chance
    // shown is of reaching it.
    let last = crate::rules::heimr::chase::pair(s, who).is_ok_and(|(_, d)| d <= 1);
    let mut roll = offer(
        Action::ChaseRoll {
            c: a.0,
            p: a.1,
            qc: b.0,
            qp: b.1,
        },
        if last {
            "Roll the chase on Agility · reaches it"
        } else {
            "Roll the chase on Agility · closes in"
        }
        .into(),
        over.clone().or_else(|| exchange_refused(s, who)),
    );
    roll.odds = odds.map(|o| {
        let closer = o[Outcome::Closer as usize];
        if !last {
            return closer;
        }
        let caught = o[Outcome::Caught as usize];
        let yes = closer.p() + caught.p();
        Chance::from_masses(
            yes,
            1.0 - yes,
            !matches!((closer, caught), (Chance::Impossible, Chance::Impossible)),
            yes < 1.0,
        )
    });
    out.push(roll);
    let none = target.is_none().then(|| "it chases no one".to_owned());
    out.push(offer(
        Action::ChaseEnd,
        "Give up the chase".into(),
        over.or(none),
    ));
    out
}

/// The one maker of a Heimr action's events: refuses what [`offers`] refuses (same reason) and
/// rolls its dice from `dice`.
pub fn resolve(
    s: &State,
    who: u32,
    action: &Action,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    check(&offers(s, who), &Intent::Heimr(action.clone()))?;
    match *action {
        Action::Ready(d) => {
            let st = defence_setup(s, who, d)?;
            let r = roll_challenge(st.c.value, st.p.value, dice);
            Ok(defence_events(s, who, d, &r))
        }
        Action::Act(i) => action_events(s, who, i as usize),
        Action::Guard(0) => action_events(s, who, GUARD_ACTION),
        Action::Guard(ward) => guard_events(s, who, ward),
        Action::Trigger => trigger_events(s, who),
        Action::Undefended => Ok(Event::Batch(vec![
            Event::Note(format!(
                "{} will take the next attack without defending",
                s.name(who)
            )),
            Event::Add(who, "Undefended".into(), Duration::Start { who, n: 1 }),
        ])),
        Action::Attack(ref st) => {
            let cost = attack_cost(s, who)?;
            let mut list = match strike_events(s, who, st, dice)? {
                Event::Batch(l) => l,
                e => vec![e],
            };
            list.extend(cost);
            // A charge is an ongoing action: its attack made, the turn ends.
            let charged = s
                .get(who)
                .is_some_and(|c| c.used.iter().any(|u| u == "Charge"));
            if s.round > 0 && s.current == Some(who) && charged {
                list.push(Event::Next);
            }
            Ok(Event::Batch(list))
        }
        Action::Stabilise => Ok(stabilise(s, who)),
        Action::Effect { effect, bind, n } => {
            let e = match Effect::ALL.get(effect as usize) {
                Some(Effect::Bind(_)) if (bind as usize) < BINDS.len() => {
                    Effect::Bind(bind as usize)
                }
                Some(Effect::Bind(_)) | None => return Err("no such effect".into()),
                Some(&e) => e,
            };
            if n > 100 {
                return Err("a number from 0 to 100".into());
            }
            Ok(effect_events(s, who, e, n as i32))
        }
        Action::Fall { height, jumped } => {
            let h = height.min(20) as i32;
            let cr = fall_cr(h, jumped).ok_or("no roll below a height of 2")?;
            let c = s.get(who).ok_or("not in the fight")?;
            let r = roll_challenge(c.stat(AGILITY_C), c.stat(AGILITY_P), dice);
            let ok = r.succeeds(cr, Some(c.stat(FATIGUE)));
            let mut list = vec![Event::Note(format!(
                "{} lands from height {h} (CR {cr}): {} · {}",
                c.name,
                describe(&r),
                if ok { "safe" } else { "hurt" }
            ))];
            list.extend(fatigue_events(c, r.d6));
            if !ok {
                list.extend(fall_events(s, who, h));
            }
            Ok(Event::Batch(list))
        }
        Action::TakeUp {
            weapon,
            shield,
            ability,
            off,
        } => {
            let fits = (weapon as usize) < WEAPONS.len() && (shield as usize) < SHIELDS.len();
            let me = s
                .get(who)
                .filter(|_| fits)
                .ok_or("no such weapon or shield")?;
            if let Some(why) = unfit(weapon as usize, shield as usize) {
                return Err(why);
            }
            let wcp = picked_cp(me, WEAPON_C, ability)?;
            let scp = picked_cp(me, SHIELD_C, off)?;
            // Drawing takes the turn's standard action (or goes along with a move).
            let mut list = match s.round {
                0 => Vec::new(),
                _ => match action_events(s, who, DRAW)? {
                    Event::Batch(l) => l,
                    e => vec![e],
                },
            };
            if let Event::Batch(arm) = arm_events(me, weapon as usize, shield as usize, wcp, scp) {
                list.extend(arm);
            }
            Ok(Event::Batch(list))
        }
        Action::Release => Ok(Event::Batch(release(s, who))),
        Action::Reopen => reopen_events(s, who),
        Action::Chase { target, distance } => start_events(s, who, target, distance),
        Action::ChaseRoll { c, p, qc, qp } => {
            let fits = |c: i32, p: i32| (-20..=20).contains(&c) && (-20..=40).contains(&p);
            if !fits(c, p) || !fits(qc, qp) {
                return Err("C from −20 to 20, P from −20 to 40".into());
            }
            exchange_events(s, who, (c, p, qc, qp), dice)
        }
        Action::ChaseEnd => end_events(s, who),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedSource;
    use crate::rules::encounter::systems::HEIMR;
    use crate::rules::heimr::combat::{npc, Npc, DEF, DEF_KIND};

    /// Two NPCs (Agility C 1, P 1), started: N0's turn (initiative by the scripted d6s).
    fn fight() -> State {
        let mut s = State::new(&HEIMR);
        for n in ["N0", "N1"] {
            s.apply(&Event::Join(npc(n, &Npc::default())));
        }
        s.apply(&Event::Start);
        s
    }

    fn ready(s: &State, who: u32, d: Defence, dice: &[u32]) -> Result<State, String> {
        let e = resolve(
            s,
            who,
            &Action::Ready(d),
            &mut ScriptedSource::new(dice.to_vec()),
        )?;
        let mut after = s.clone();
        after.apply(&e);
        Ok(after)
    }

    /// #20 and #24: a defence is rolled out of its owner's turn (after a use, at the end of a
    /// turn), and a shown one is never rolled again until used: d6 4, d10 7 → dodge 7 + P 1 = 8
    /// stands; a second roll is refused with the reason.
    #[test]
    fn heimr_r24_a_shown_defence_is_not_rolled_again() {
        let s = fight();
        let other = if s.current == Some(1) { 2 } else { 1 };
        let after = ready(&s, other, Defence::Dodge, &[4, 7]).unwrap();
        let c = after.get(other).unwrap();
        assert_eq!((c.stat(DEF_KIND), c.stat(DEF)), (Defence::Dodge as i32, 8));
        let why = "its dodge 8 stands until an attack uses it or its next turn begins";
        assert_eq!(
            ready(&after, other, Defence::Dodge, &[6, 10]),
            Err(why.into())
        );
        assert_eq!(
            ready(&after, other, Defence::Parry, &[6, 10]),
            Err(why.into())
        );
        assert!(offers(&after, other)
            .iter()
            .filter(|o| matches!(o.action, Intent::Heimr(Action::Ready(_))))
            .all(|o| o.refused.as_deref() == Some(why)));
        // The dice of a C 1 roll: a d6 and one d10, nothing else.
        use crate::rules::encounter::referee::replayed;
        let r = |d: &[(u32, u32)]| {
            replayed(d, |src| {
                resolve(&s, other, &Action::Ready(Defence::Dodge), src)
            })
        };
        assert!(r(&[(6, 4), (10, 7)]).unwrap().is_ok());
        assert!(r(&[(6, 4)]).is_err());
        assert!(r(&[(10, 4), (10, 7)]).is_err());
    }

    /// #2: a shown defence lapses when its owner's next turn begins (then it is rolled anew,
    /// with that turn's modifiers); it stays through the others' turns.
    #[test]
    fn heimr_r2_a_shown_defence_lapses_at_its_owners_turn() {
        let s = fight();
        let first = s.current.unwrap();
        let second = if first == 1 { 2 } else { 1 };
        let mut s = ready(&s, second, Defence::Dodge, &[4, 7]).unwrap();
        s.apply(&Event::Next); // the second's turn: its dodge lapses
        assert_eq!(s.current, Some(second));
        assert_eq!(s.get(second).unwrap().stat(DEF_KIND), 0);
        let s = ready(&s, second, Defence::Dodge, &[4, 7]).unwrap();
        let mut s2 = s.clone();
        s2.apply(&Event::Next); // the first's turn: the second's dodge stands
        assert_eq!(
            s2.get(second).unwrap().stat(DEF_KIND),
            Defence::Dodge as i32
        );
    }

    /// #25: taking an attack undefended is the defender's own choice. The attacker's strike
    /// has no such option; the defender's `Undefended` makes the attack meet no defence (its
    /// shown dodge kept for later), and the attack uses the choice up.
    #[test]
    fn heimr_r25_the_defender_chooses_to_take_it_undefended() {
        use crate::rules::heimr::combat::hit_chance;
        use crate::rules::heimr::strike::{preview, strike_events, Strike};
        let s = fight();
        let (me, other) = match s.current {
            Some(1) => (1, 2),
            _ => (2, 1),
        };
        // The defender shows a dodge: d6 4, d10 7 → 8.
        let s = ready(&s, other, Defence::Dodge, &[4, 7]).unwrap();
        let st = Strike {
            target: other,
            ..Strike::default()
        };
        let with = preview(&s, me, &st).unwrap().hits[0].1;
        // Only the defender may choose it, and only once until used.
        let bare = resolve(
            &s,
            other,
            &Action::Undefended,
            &mut ScriptedSource::new(vec![]),
        )
        .unwrap();
        let mut t = s.clone();
        t.apply(&bare);
        assert!(t.has(other, "Undefended"));
        assert_eq!(
            resolve(
                &t,
                other,
                &Action::Undefended,
                &mut ScriptedSource::new(vec![])
            ),
            Err("it already takes the next attack undefended".into())
        );
        let pv = preview(&t, me, &st).unwrap();
        let plan = st.plan(&t, me).unwrap();
        let fatigue = t.get(me).unwrap().stat(FATIGUE);
        assert_eq!(pv.hits[0].1, hit_chance(plan.c, plan.p, fatigue, None));
        assert_ne!(pv.hits[0].1, with, "the dodge no longer counts");
        // Rolled: the log says so, the choice is used up, the dodge still stands.
        let e = strike_events(&t, me, &st, &mut ScriptedSource::new(vec![6, 6, 6, 6])).unwrap();
        t.apply(&e);
        assert!(
            t.log.iter().any(|l| l.text.contains("takes it undefended")),
            "{:?}",
            t.log
        );
        assert!(!t.has(other, "Undefended"));
        assert_eq!(t.get(other).unwrap().stat(DEF), 8);
    }
}
