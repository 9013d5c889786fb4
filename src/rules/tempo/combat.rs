//! A Tempo fight on the encounter engine: combatants from sheets and quick NPCs, the status
//! each holds (one of five, kept as the fight's conditions), the actions it may declare with
//! the reason for every refusal, and one exchange — proactive action, the target's reaction,
//! the counter-tempo replacement — with the exact odds of both sides' outcome rows and its
//! resolution as one batch of events (one undo).
//!
//! Decisions where the seed is silent:
//! - A combatant holding no status yet is Off Guard (the seed's default start); the GM marks
//!   who initiated or prepared as On Guard before or during the fight.
//! - The opponent the action is declared against answers it; every other opponent may react
//!   too (seed l.12: "Opponents may declare"), each on credit (SPEC decision 12), until the
//!   exchange is rolled. The fight does not know who stands engaged with whom: that is the
//!   table's call. The actor's row reads its result less its target's; each other reactor's
//!   row reads its own result less the actor's (l.14). A reaction that foils (Parry, Evade,
//!   Dodge, Struggle, Wind) guards only the one the action is against; a counter-tempo
//!   replacement answers only that one's reaction.
//! - A counter-tempo replacement must be affordable: the actor pays the larger of the two
//!   costs in total, so it needs that many AP before the exchange.
//! - Foiling is checked on both sides first (the foiled action comes to nothing); then every
//!   action that was not foiled applies its row.
//! - A successful Aim holds for the actor's next proactive action in the same turn only; a
//!   weapon attack then adds that weapon's aimed accuracy.
//! - A feint is declared as a melee attack: the opponent's reactions are those to a melee
//!   attack.
//! - The odds shown are each table's rows; when a reaction foils the action, the action's row
//!   (a hit, say) does not apply — the resolution says so.
//! - Disarm leaves the target without its melee weapon until the GM gives it back.

use super::actions::{
    index, Action, Arm, Effect, Kind, Status, ACTIONS, FEINT_REPLACEMENT, UNARMED_COUNTER,
};
use super::sheet::{dice_dist, TempoSheet};
use crate::rules::dice::{Chance, Distribution};
use crate::rules::encounter::{Combatant, Duration, Event, State};

pub const DEFENCE: usize = 0;
pub const ARMOURED: usize = 1;
pub const GRAPPLE: usize = 2;
pub const MOVEMENT: usize = 3;
pub const MELEE_AIMED: usize = 4;
pub const RANGED_AIMED: usize = 5;
/// 1 after a successful Aim, until the next proactive action.
pub const AIMED: usize = 6;
/// 1 after being disarmed.
pub const DISARMED: usize = 7;
/// The check bonus of action `i` is stat `BONUS + i`.
pub const BONUS: usize = 8;
/// The AP cost of action `i` is stat `COST + i` (−1: no weapon for it).
pub const COST: usize = BONUS + ACTIONS.len();
/// The action declared against this combatant, waiting for its answer: its index + 1 (0: none).
pub const FACING: usize = COST + ACTIONS.len();
/// Who declared it.
pub const FACING_FROM: usize = FACING + 1;
/// Its answer: the reaction's index + 1, −1 for none, 0 while it has not answered.
pub const ANSWER: usize = FACING + 2;
/// The round it was declared in (a declaration never rolled is over with the actor's turn).
pub const FACING_ROUND: usize = FACING + 3;
/// The health maximum as a saved sheet now has it (raised mid-fight); 0 for a quick NPC: the
/// one it joined with.
pub const HP_MAX: usize = FACING + 4;
/// Whom it is bound, grappled or pinned with (an id; 0: no one, or a fight saved before).
pub const PARTNER: usize = FACING + 5;
/// 1 when the declaration it faces is not against it: it joined as another opponent.
pub const ASIDE: usize = FACING + 6;
pub const STAT_COUNT: usize = ASIDE + 1;
/// The check dice notation (the only text: the stored encounter accepts dice notation only).
pub const T_DICE: usize = 0;
/// The action-point pool.
pub const AP: usize = 0;

const fn stat_names() -> [&'static str; STAT_COUNT] {
    let mut n = ["(per action)"; STAT_COUNT];
    n[DEFENCE] = "Combat defence";
    n[ARMOURED] = "Combat defence (armoured)";
    n[GRAPPLE] = "Grapple defence";
    n[MOVEMENT] = "Base combat movement";
    n[MELEE_AIMED] = "Melee aimed accuracy";
    n[RANGED_AIMED] = "Ranged aimed accuracy";
    n[AIMED] = "Aimed";
    n[DISARMED] = "Disarmed";
    n[FACING] = "Facing (declared action)";
    n[FACING_FROM] = "Facing (declared by)";
    n[ANSWER] = "Answer (reaction)";
    n[FACING_ROUND] = "Facing (round)";
    n[HP_MAX] = "Health max";
    n[PARTNER] = "Bound or grappled with";
    n[ASIDE] = "Reacts as another opponent";
    n
}

/// The engine's stat names (one per check bonus and cost, so the list is long).
pub const STATS: [&str; STAT_COUNT] = stat_names();

fn base(name: &str, health: i32, defences: [i32; 4], dice: &str) -> Combatant {
    let mut c = Combatant {
        stats: vec![0; STAT_COUNT],
        texts: vec![dice.to_owned()],
        ..Combatant::new(&crate::rules::encounter::systems::TEMPO, name, health)
    };
    c.stats[..4].copy_from_slice(&defences);
    for (i, a) in ACTIONS.iter().enumerate() {
        c.stats[COST + i] = a.cost.unwrap_or(-1);
    }
    c
}

/// A saved character as a combatant: its first melee and first ranged weapon are in hand.
pub fn from_sheet(name: &str, s: &TempoSheet) -> Combatant {
    let mut c = base(
        name,
        s.health,
        [s.defence, s.armoured, s.grapple, s.movement],
        &s.dice,
    );
    c.hp_max = s.health_max.max(s.health);
    c.stats[HP_MAX] = c.hp_max;
    c.pc = !s.npc;
    for (i, a) in ACTIONS.iter().enumerate() {
        c.stats[BONUS + i] = s.bonus(a.name);
        if let Some(w) = a.arm.and_then(|arm| s.weapon(arm)) {
            c.stats[COST + i] = w.cost(a.name);
        }
    }
    for (arm, aim) in [(Arm::Melee, MELEE_AIMED), (Arm::Ranged, RANGED_AIMED)] {
        if let Some(w) = s.weapon(arm) {
            c.stats[aim] = w.aimed;
        }
    }
    c
}

/// A quick NPC: one bonus for every check, one cost for every melee and ranged weapon action
/// (0: no such weapon).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Npc {
    pub defence: i32,
    pub armoured: i32,
    pub grapple: i32,
    pub health: i32,
    pub dice: String,
    pub bonus: i32,
    pub melee: i32,
    pub ranged: i32,
    /// Base combat movement, in squares.
    pub movement: i32,
    /// Added to a weapon attack right after a successful Aim.
    pub aimed: i32,
}

pub fn npc(name: &str, n: &Npc) -> Combatant {
    let mut c = base(
        name,
        n.health,
        [n.defence, n.armoured, n.grapple, n.movement],
        &n.dice,
    );
    c.stats[MELEE_AIMED] = n.aimed;
    c.stats[RANGED_AIMED] = n.aimed;
    for (i, a) in ACTIONS.iter().enumerate() {
        if a.check {
            c.stats[BONUS + i] = n.bonus;
        }
        let by = match a.arm {
            Some(Arm::Melee) => n.melee,
            Some(Arm::Ranged) => n.ranged,
            None => continue,
        };
        c.stats[COST + i] = if by > 0 { by } else { -1 };
    }
    c
}

/// The status a combatant holds: the strongest of the five it has, Off Guard when none.
pub fn status(s: &State, who: u32) -> Status {
    [
        Status::Pinned,
        Status::Grappled,
        Status::Bound,
        Status::OnGuard,
    ]
    .into_iter()
    .find(|st| s.has(who, st.name()))
    .unwrap_or(Status::OffGuard)
}

/// Events that leave `who` holding only `new` of the five statuses (out of a bind or grapple:
/// with no partner).
pub fn status_events(s: &State, who: u32, new: Status) -> Vec<Event> {
    let mut out: Vec<Event> = s
        .conditions_of(who)
        .filter(|a| Status::ALL.iter().any(|st| st.name() == a.name))
        .map(|a| Event::Remove(a.cid))
        .collect();
    out.push(Event::Add(who, new.name().into(), Duration::Removed));
    if !locked(new) && s.get(who).is_some_and(|c| c.stat(PARTNER) != 0) {
        out.push(Event::Set(who, PARTNER, 0));
    }
    out
}

fn locked(st: Status) -> bool {
    matches!(st, Status::Bound | Status::Grappled | Status::Pinned)
}

/// Whom `who` is bound, grappled or pinned with: the one both name (`None` when it is not
/// locked with anyone the fight recorded).
pub fn partner(s: &State, who: u32) -> Option<u32> {
    let p = s.get(who)?.stat(PARTNER).max(0) as u32;
    (locked(status(s, who)) && s.get(p).is_some_and(|o| o.stat(PARTNER) == who as i32)).then_some(p)
}

/// The turn mark of a successful Aim: the engine clears it when the actor's next turn starts,
/// so an aim holds only for what follows it in the same turn.
const AIM_MARK: &str = "aims";

/// Whether the next weapon attack uses the aimed accuracy.
pub fn aimed(c: &Combatant) -> bool {
    c.stat(AIMED) > 0 && c.used.iter().any(|u| u == AIM_MARK)
}

pub fn ap(s: &State, who: u32) -> i32 {
    s.get(who)
        .and_then(|c| c.pools.get(AP).copied())
        .unwrap_or(0)
}

/// What action `i` costs this combatant (`Err`: no weapon for it).
pub fn cost(c: &Combatant, i: usize) -> Result<i32, String> {
    let a = &ACTIONS[i];
    if a.arm == Some(Arm::Melee) && c.stat(DISARMED) > 0 {
        return Err("disarmed".into());
    }
    match c.stat(COST + i) {
        n if n >= 0 => Ok(n),
        _ if a.arm == Some(Arm::Ranged) => Err("no ranged weapon".into()),
        _ => Err("no melee weapon".into()),
    }
}

fn able(s: &State, who: u32, i: usize) -> Result<(&Combatant, i32), String> {
    let c = s
        .get(who)
        .filter(|c| !c.dead && !c.gone)
        .ok_or("not in the fight")?;
    let a = &ACTIONS[i];
    let st = status(s, who);
    if !a.allows(st) {
        return Err(format!("{} needs {}", a.name, a.needs()));
    }
    Ok((c, cost(c, i)?))
}

/// Whether `who` may declare proactive action `i` now, and what it costs.
pub fn can_declare(s: &State, who: u32, i: usize) -> Result<i32, String> {
    if s.round == 0 {
        return Err("the fight has not started".into());
    }
    if s.current != Some(who) {
        return Err("not its turn".into());
    }
    if ACTIONS[i].kind != Kind::Proactive {
        return Err("not a proactive action".into());
    }
    let (_, cost) = able(s, who, i)?;
    let left = ap(s, who);
    if left < cost {
        return Err(format!("needs {cost} AP, {left} left"));
    }
    Ok(cost)
}

/// The proactive actions, each with its cost or the reason it is refused.
pub fn offered(s: &State, who: u32) -> Vec<(usize, Result<i32, String>)> {
    (0..ACTIONS.len())
        .filter(|&i| ACTIONS[i].kind == Kind::Proactive)
        .map(|i| (i, can_declare(s, who, i)))
        .collect()
}

/// The reactions that answer action `i`, each with its cost (paid on credit) or the reason the
/// reactor cannot take it.
pub fn reactions(s: &State, reactor: u32, i: usize) -> Vec<(usize, Result<i32, String>)> {
    let name = declared_as(i);
    (0..ACTIONS.len())
        .filter(|&r| ACTIONS[r].kind == Kind::Reactive && ACTIONS[r].responds.contains(&name))
        .map(|r| (r, able(s, reactor, r).map(|x| x.1)))
        .collect()
}

/// The action declared against `who` in this turn and who declared it, while it waits for its
/// answer or its roll (a declaration of an earlier turn is over).
pub fn facing(s: &State, who: u32) -> Option<(u32, usize)> {
    let c = s.get(who)?;
    let i = usize::try_from(c.stat(FACING) - 1)
        .ok()
        .filter(|&i| i < ACTIONS.len())?;
    let from = u32::try_from(c.stat(FACING_FROM)).ok()?;
    let now = i64::from(c.stat(FACING_ROUND)) == i64::from(s.round);
    (now && s.current == Some(from) && from != who).then_some((from, i))
}

/// How `who` answered what is declared against it: `None` while it has not; `Some(None)` for
/// no reaction; `Some(Some(r))` for reaction `r`.
pub fn answered(s: &State, who: u32) -> Option<Option<usize>> {
    facing(s, who)?;
    match s.get(who)?.stat(ANSWER) {
        0 => None,
        -1 => Some(None),
        n => Some(usize::try_from(n - 1).ok().filter(|&r| r < ACTIONS.len())),
    }
}

/// The declaration `who` made in this turn that still waits for its roll: (target, action).
pub fn declared_by(s: &State, who: u32) -> Option<(u32, usize)> {
    s.combatants.iter().find_map(|c| match facing(s, c.id) {
        Some((from, i)) if from == who && c.stat(ASIDE) == 0 => Some((c.id, i)),
        _ => None,
    })
}

/// Whether `who` faces a declaration as another opponent (it joined; not its target).
pub fn aside(s: &State, who: u32) -> bool {
    facing(s, who).is_some() && s.get(who).is_some_and(|c| c.stat(ASIDE) > 0)
}

/// The declaration `who` may still react to as another opponent: (actor, target, action),
/// while the actor's declaration waits for its roll and `who` has not reacted to it.
pub fn joinable(s: &State, who: u32) -> Option<(u32, u32, usize)> {
    let actor = s.current.filter(|&a| a != who)?;
    let (t, i) = declared_by(s, actor)?;
    let live = s.get(who).is_some_and(|c| !c.dead && !c.gone);
    (t != who && live && facing(s, who).is_none()).then_some((actor, t, i))
}

/// Whether a reaction's table foils the action it answers: such a reaction guards only the
/// one the action is against.
fn guards(r: usize) -> bool {
    ACTIONS[r]
        .rows
        .iter()
        .any(|x| matches!(x.effect, Effect::Foils | Effect::Binds))
}

/// The reactions `who` may take to `actor`'s action `i` against `target` (`who` itself, or
/// another opponent), each with its cost or the reason not: one locked with someone else
/// answers only that one; a reaction that guards is the target's alone.
pub fn side_reactions(
    s: &State,
    who: u32,
    actor: u32,
    target: u32,
    i: usize,
) -> Vec<(usize, Result<i32, String>)> {
    let locked = partner(s, who).filter(|&p| p != actor);
    reactions(s, who, i)
        .into_iter()
        .map(|(r, able)| {
            let why = if who != target && guards(r) {
                Some(format!(
                    "{} guards only the one it is against ({})",
                    ACTIONS[r].name,
                    s.name(target)
                ))
            } else {
                locked.map(|p| format!("{} is locked with {}", s.name(who), s.name(p)))
            };
            (r, why.map_or(able, Err))
        })
        .collect()
}

/// `who` reacts with `r` to the action declared in this turn against another: its AP spent
/// now, on credit, and it is in the exchange when it is rolled.
pub fn join_events(s: &State, who: u32, r: usize) -> Result<Event, String> {
    let (actor, t, i) = joinable(s, who).ok_or("nothing it may react to now")?;
    let (_, able) = side_reactions(s, who, actor, t, i)
        .into_iter()
        .find(|x| x.0 == r)
        .ok_or_else(|| format!("{} does not answer {}", ACTIONS[r].name, declared_as(i)))?;
    let pay = able?;
    let mut ev = vec![
        Event::Note(format!(
            "{} reacts too, to {}’s {}: {}",
            s.name(who),
            s.name(actor),
            declared_as(i).to_lowercase(),
            ACTIONS[r].name
        )),
        Event::Set(who, FACING, i as i32 + 1),
        Event::Set(who, FACING_FROM, actor as i32),
        Event::Set(who, ANSWER, r as i32 + 1),
        Event::Set(who, FACING_ROUND, s.round as i32),
        Event::Set(who, ASIDE, 1),
    ];
    if pay != 0 {
        ev.push(Event::Spend(who, AP, pay));
    }
    Ok(Event::Batch(ev))
}

/// Actions (indexes into `ACTIONS`), each with its AP cost or the reason it is refused.
pub type Priced = Vec<(usize, Result<i32, String>)>;

/// What waits for `who`'s reaction now, said for its sheet ("A declares a melee attack
/// against B: its answer?"), with the reactions it may take (each with its cost or the reason
/// not); `None` when nothing does.
pub fn open_to(s: &State, who: u32) -> Option<(String, Priced)> {
    let said = |from: u32, i: usize, t: u32| {
        format!(
            "{} declares a {} against {}",
            s.name(from),
            declared_as(i).to_lowercase(),
            s.name(t)
        )
    };
    if let Some((actor, t, i)) = joinable(s, who) {
        let list = side_reactions(s, who, actor, t, i);
        let text = format!("{}: {} may react too", said(actor, i, t), s.name(who));
        // Another opponent is asked only when it has a reaction it can take.
        return list.iter().any(|x| x.1.is_ok()).then_some((text, list));
    }
    let (from, i) = facing(s, who).filter(|_| answered(s, who).is_none())?;
    Some((
        format!("{}: its answer?", said(from, i, who)),
        side_reactions(s, who, from, who, i),
    ))
}

/// Every other opponent who reacted to `actor`'s declared action `i`, in the fight's order,
/// with its reaction (one dropped out since: fallen, or no longer able, included).
fn reacted(s: &State, actor: u32, i: usize) -> impl Iterator<Item = (u32, usize)> + '_ {
    s.order
        .iter()
        .filter(move |&&w| aside(s, w) && facing(s, w) == Some((actor, i)))
        .filter_map(move |&w| Some((w, answered(s, w).flatten()?)))
}

/// The other opponents in the exchange of `actor`'s declared action `i` against `target`: those
/// who reacted and still stand and may take their reaction (one fallen since, or locked with
/// another, drops out: its AP stay spent).
pub fn joined(s: &State, actor: u32, target: u32, i: usize) -> Vec<(u32, usize)> {
    reacted(s, actor, i)
        .filter(|&(w, r)| {
            let live = s.get(w).is_some_and(|c| !c.dead && !c.gone);
            let able = |x: &(usize, Result<i32, String>)| x.0 == r && x.1.is_ok();
            live && side_reactions(s, w, actor, target, i).iter().any(able)
        })
        .collect()
}

/// The actor declares action `i` against `target` aloud, before rolling, and spends its AP
/// (seed l.11): it is bound to it, and the target's player picks the reaction (on their own
/// phone at the live table, or on the target's sheet here).
pub fn declare_events(s: &State, actor: u32, i: usize, target: u32) -> Event {
    let cost = s.get(actor).and_then(|c| cost(c, i).ok()).unwrap_or(0);
    // A target with no reaction it can take has answered already (the others may react).
    let can = side_reactions(s, target, actor, target, i)
        .iter()
        .any(|x| x.1.is_ok());
    Event::Batch(vec![
        Event::Note(format!(
            "{} declares a {} against {}, who {}",
            s.name(actor),
            declared_as(i).to_lowercase(),
            s.name(target),
            if can { "may react" } else { "cannot react" }
        )),
        Event::Spend(actor, AP, cost),
        Event::Set(target, FACING, i as i32 + 1),
        Event::Set(target, FACING_FROM, actor as i32),
        Event::Set(target, ANSWER, if can { 0 } else { -1 }),
        Event::Set(target, FACING_ROUND, s.round as i32),
        Event::Set(target, ASIDE, 0),
    ])
}

/// `who` answers the action declared against it with reaction `r` (`None`: no reaction), if it
/// may take it.
pub fn answer_events(s: &State, who: u32, r: Option<usize>) -> Result<Event, String> {
    let (from, i) = facing(s, who).ok_or("nothing is declared against it now")?;
    let what = format!("{}’s {}", s.name(from), declared_as(i).to_lowercase());
    let (text, pay) = match r {
        Some(r) => {
            let (_, able) = side_reactions(s, who, from, who, i)
                .into_iter()
                .find(|x| x.0 == r)
                .ok_or_else(|| format!("{} does not answer {what}", ACTIONS[r].name))?;
            let text = format!("{} answers {what} with {}", s.name(who), ACTIONS[r].name);
            (text, able?)
        }
        None => (format!("{} does not react to {what}", s.name(who)), 0),
    };
    // A reaction's AP are spent as it is declared (seed l.12), on credit.
    let mut ev = vec![
        Event::Note(text),
        Event::Set(who, ANSWER, r.map_or(-1, |r| r as i32 + 1)),
    ];
    if pay != 0 {
        ev.push(Event::Spend(who, AP, pay));
    }
    Ok(Event::Batch(ev))
}

/// What the opponent sees declared: a feint is declared as a melee attack.
pub fn declared_as(i: usize) -> &'static str {
    match ACTIONS[i].name {
        "Feint" => "Melee Attack",
        n => n,
    }
}

/// Whether action `i` needs an opponent: its table reads the target's defences, or what it
/// does changes the other side too.
pub fn needs_target(i: usize) -> bool {
    ACTIONS[i].rows.iter().any(|r| {
        matches!(
            r.dt,
            super::actions::Dt::Defence
                | super::actions::Dt::Armoured
                | super::actions::Dt::Grapple
        ) || matches!(
            r.effect,
            Effect::Grapples | Effect::Pins | Effect::Frees | Effect::Disarms | Effect::Binds
        )
    }) || ACTIONS[i].name == "Feint"
}

/// A replacement of the proactive action after a reaction: the action and its extra bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replacement {
    pub action: usize,
    pub bonus: i32,
}

/// What may replace proactive action `i` once reaction `r` is declared.
pub fn replacements(i: usize, r: usize) -> Vec<Replacement> {
    let (a, re) = (ACTIONS[i].name, ACTIONS[r].name);
    let mut out: Vec<Replacement> = (0..ACTIONS.len())
        .filter(|&k| {
            let x = &ACTIONS[k];
            x.kind == Kind::CounterTempo && x.responds.contains(&re) && x.replaces.contains(&a)
        })
        .map(|action| Replacement { action, bonus: 0 })
        .collect();
    let (f, p, ca, bonus) = FEINT_REPLACEMENT;
    if a == f && re == p {
        if let Some(action) = index(ca) {
            out.push(Replacement { action, bonus });
        }
    }
    out
}

/// One exchange as declared.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Exchange {
    pub actor: u32,
    pub action: usize,
    pub target: Option<u32>,
    pub reaction: Option<usize>,
    pub replacement: Option<Replacement>,
    /// The other opponents who react too, each with its reaction.
    pub also: Vec<(u32, usize)>,
}

/// The chance of each outcome row, for one side.
pub type Rows = Vec<(&'static str, Chance)>;

impl Exchange {
    /// The action that resolves on the actor's side.
    pub fn acting(&self) -> &'static Action {
        &ACTIONS[self.replacement.map_or(self.action, |r| r.action)]
    }

    fn reacting(&self) -> Option<(u32, usize)> {
        self.target.zip(self.reaction)
    }

    /// Whether the action was declared against the target (and its AP spent then).
    pub fn paid(&self, s: &State) -> bool {
        self.target
            .is_some_and(|t| facing(s, t) == Some((self.actor, self.action)))
    }

    /// Whether the reaction is the target's answer to that declaration (its AP spent then).
    pub fn reaction_paid(&self, s: &State) -> bool {
        self.paid(s)
            && self.reaction.is_some()
            && self.target.and_then(|t| answered(s, t)) == Some(self.reaction)
    }

    /// The proactive action's own cost (paid at its declaration, or now).
    fn first_cost(&self, s: &State) -> Result<i32, String> {
        if self.paid(s) {
            Ok(able(s, self.actor, self.action)?.1)
        } else {
            can_declare(s, self.actor, self.action)
        }
    }

    /// The AP the actor pays in all (the larger of its two actions' costs, the declared part
    /// included) and the reactor's.
    pub fn costs(&self, s: &State) -> Result<(i32, i32), String> {
        let first = self.first_cost(s)?;
        if let Some(t) = self.target {
            if t == self.actor || !s.get(t).is_some_and(|c| !c.dead && !c.gone) {
                return Err("pick an opponent in the fight".into());
            }
        } else if needs_target(self.action) || self.reaction.is_some() {
            return Err(format!("{} needs an opponent", ACTIONS[self.action].name));
        }
        // Locked in a bind or grapple, each acts on the one it is locked with, and answers only
        // that one.
        let only = |who: u32, p: u32| {
            format!(
                "{} is locked with {}: only against it",
                s.name(who),
                s.name(p)
            )
        };
        if let (Some(p), Some(t)) = (partner(s, self.actor), self.target) {
            if t != p {
                return Err(only(self.actor, p));
            }
        }
        if let Some((who, _)) = self.reacting() {
            if let Some(p) = partner(s, who).filter(|&p| p != self.actor) {
                return Err(only(who, p));
            }
        }
        if let Some((who, r)) = self.reacting() {
            if !reactions(s, who, self.action).iter().any(|x| x.0 == r) {
                return Err(format!(
                    "{} does not answer {}",
                    ACTIONS[r].name,
                    declared_as(self.action)
                ));
            }
        }
        if let Some(rep) = self.replacement {
            let ok = self
                .reaction
                .is_some_and(|r| replacements(self.action, r).contains(&rep));
            if !ok {
                return Err(format!(
                    "{} cannot replace {} here",
                    ACTIONS[rep.action].name, ACTIONS[self.action].name
                ));
            }
        }
        let mut actor = first;
        if let Some(r) = self.replacement {
            let c = able(s, self.actor, r.action)?.1;
            actor = first.max(c);
            let left = ap(s, self.actor) + if self.paid(s) { first } else { 0 };
            if left < actor {
                return Err(format!(
                    "needs {} AP more, {} left",
                    actor - first,
                    left - first
                ));
            }
        }
        let reactor = match self.reacting() {
            Some((who, r)) => able(s, who, r)?.1,
            None => 0,
        };
        self.also_costs(s)?;
        Ok((actor, reactor))
    }

    /// What each other opponent's reaction costs it, or why it cannot be in this exchange.
    pub fn also_costs(&self, s: &State) -> Result<Vec<i32>, String> {
        let t = self.target.unwrap_or(0);
        let mut seen = Vec::new();
        self.also
            .iter()
            .map(|&(who, r)| {
                let live = s.get(who).is_some_and(|c| !c.dead && !c.gone);
                if who == self.actor || Some(who) == self.target || !live || seen.contains(&who) {
                    return Err(format!("{} cannot react as another opponent", s.name(who)));
                }
                seen.push(who);
                side_reactions(s, who, self.actor, t, self.action)
                    .into_iter()
                    .find(|x| x.0 == r)
                    .ok_or_else(|| {
                        format!(
                            "{} does not answer {}",
                            ACTIONS[r].name,
                            declared_as(self.action)
                        )
                    })?
                    .1
            })
            .collect()
    }

    /// Whether `who`'s reaction `r` was declared as it joined (its AP spent then).
    fn also_paid(&self, s: &State, who: u32, r: usize) -> bool {
        aside(s, who)
            && facing(s, who) == Some((self.actor, self.action))
            && answered(s, who) == Some(Some(r))
    }

    /// Another reactor's result: its check dice and the reaction's bonus.
    pub fn also_dist(&self, s: &State, who: u32, r: usize) -> Option<Distribution> {
        Self::dist_of(s, who, &ACTIONS[r], self.reaction_bonus(s, who, r))
    }

    /// The chance of every row of each other opponent's reaction, read from its result less
    /// the actor's (`None`: some check dice cannot be rolled).
    pub fn also_odds(&self, s: &State) -> Option<Vec<(u32, usize, Rows)>> {
        let own = self.actor_dist(s)?;
        let d = Self::defences(s, Some(self.actor));
        self.also
            .iter()
            .map(|&(who, r)| {
                let net = own.convolve(&self.also_dist(s, who, r)?.negate());
                Some((who, r, row_odds(&ACTIONS[r], &net, -1, d)))
            })
            .collect()
    }

    /// The actor's check bonus: the action's, the replacement's extra, aimed accuracy.
    pub fn actor_bonus(&self, s: &State) -> i32 {
        let Some(c) = s.get(self.actor) else {
            return 0;
        };
        let a = self.acting();
        let i = index(a.name).unwrap_or(0);
        let mut b = c.stat(BONUS + i) + self.replacement.map_or(0, |r| r.bonus);
        if a.weapon_attack() && aimed(c) {
            b += c.stat(if a.arm == Some(Arm::Ranged) {
                RANGED_AIMED
            } else {
                MELEE_AIMED
            });
        }
        b
    }

    /// The reactor's check bonus: the reaction's, +5 for a counter-attack on an unarmed attack.
    pub fn reactor_bonus(&self, s: &State) -> i32 {
        self.reacting()
            .map_or(0, |(who, r)| self.reaction_bonus(s, who, r))
    }

    /// `who`'s check bonus for reaction `r` to this exchange's action.
    pub fn reaction_bonus(&self, s: &State, who: u32, r: usize) -> i32 {
        let own = s.get(who).map_or(0, |c| c.stat(BONUS + r));
        let against_fists = ACTIONS[r].name == "Counter-Attack"
            && ACTIONS[self.action].name == "Unarmed Attack"
            && self.replacement.is_none();
        own + if against_fists { UNARMED_COUNTER } else { 0 }
    }

    fn dist_of(s: &State, who: u32, a: &Action, bonus: i32) -> Option<Distribution> {
        if !a.check {
            return Some(Distribution::point(0));
        }
        let c = s.get(who)?;
        Some(dice_dist(c.text(T_DICE))?.shift(i64::from(bonus)))
    }

    /// The actor's result (`None`: its check dice cannot be rolled).
    pub fn actor_dist(&self, s: &State) -> Option<Distribution> {
        Self::dist_of(s, self.actor, self.acting(), self.actor_bonus(s))
    }

    pub fn reactor_dist(&self, s: &State) -> Option<Distribution> {
        let (who, r) = self.reacting()?;
        Self::dist_of(s, who, &ACTIONS[r], self.reactor_bonus(s))
    }

    /// The actor's net result: its own check less the reactor's (the reactor's is its negation).
    pub fn net(&self, s: &State) -> Option<Distribution> {
        let own = self.actor_dist(s)?;
        Some(match self.reacting() {
            Some(_) => own.convolve(&self.reactor_dist(s)?.negate()),
            None => own,
        })
    }

    fn defences(s: &State, who: Option<u32>) -> [i32; 3] {
        who.and_then(|w| s.get(w)).map_or([0; 3], |c| {
            [c.stat(DEFENCE), c.stat(ARMOURED), c.stat(GRAPPLE)]
        })
    }

    /// The chance of every row of the actor's table and, with a reaction, of the reactor's.
    pub fn odds(&self, s: &State) -> Option<(Rows, Rows)> {
        let net = self.net(s)?;
        let a = self.acting();
        let t = Self::defences(s, self.target);
        let mine = row_odds(a, &net, 1, t);
        let theirs = match self.reacting() {
            Some((_, r)) => row_odds(&ACTIONS[r], &net, -1, Self::defences(s, Some(self.actor))),
            None => Vec::new(),
        };
        Some((mine, theirs))
    }

    /// The exchange as one batch: declarations and costs, the rolls (totals of the check dice
    /// before bonuses, with the faces for the log), the outcomes and what they change.
    pub fn resolve(
        &self,
        s: &State,
        actor_roll: Option<(i64, &str)>,
        reactor_roll: Option<(i64, &str)>,
    ) -> Result<Event, String> {
        self.resolve_all(s, actor_roll, reactor_roll, &[])
    }

    /// [`Exchange::resolve`] with the other reactors' rolls, in the order of `also`.
    pub fn resolve_all(
        &self,
        s: &State,
        actor_roll: Option<(i64, &str)>,
        reactor_roll: Option<(i64, &str)>,
        also_rolls: &[Option<(i64, &str)>],
    ) -> Result<Event, String> {
        let (pay, pay_r) = self.costs(s)?;
        let also_pay = self.also_costs(s)?;
        let name = |w: u32| s.name(w).to_owned();
        let me = name(self.actor);
        let first = &ACTIONS[self.action];
        let mut ev = Vec::new();
        let against = self
            .target
            .map(|t| format!(" against {}", name(t)))
            .unwrap_or_default();
        let shown = if declared_as(self.action) != first.name {
            format!(
                " (declared as a {})",
                declared_as(self.action).to_lowercase()
            )
        } else {
            String::new()
        };
        ev.push(Event::Note(format!("{me}: {}{against}{shown}", first.name)));
        let first_cost = self.first_cost(s)?;
        if !self.paid(s) {
            ev.push(Event::Spend(self.actor, AP, first_cost));
        }
        if let Some((who, r)) = self.reacting() {
            ev.push(Event::Note(format!(
                "{} reacts: {}",
                name(who),
                ACTIONS[r].name
            )));
            if !self.reaction_paid(s) {
                ev.push(Event::Spend(who, AP, pay_r));
            }
        }
        for (&(who, r), &c) in self.also.iter().zip(&also_pay) {
            ev.push(Event::Note(format!(
                "{} reacts too: {}",
                name(who),
                ACTIONS[r].name
            )));
            if !self.also_paid(s, who, r) && c != 0 {
                ev.push(Event::Spend(who, AP, c));
            }
        }
        if let Some(r) = self.replacement {
            let extra = if r.bonus != 0 {
                format!(" at {:+}", r.bonus)
            } else {
                String::new()
            };
            ev.push(Event::Note(format!(
                "{me} replaces it with {}{extra}; pays {} more",
                ACTIONS[r.action].name,
                pay - first_cost
            )));
            if pay > first_cost {
                ev.push(Event::Spend(self.actor, AP, pay - first_cost));
            }
        }
        let a = self.acting();
        let total = |roll: Option<(i64, &str)>, check: bool, bonus: i32, who: &str| {
            if !check {
                return Ok((0, format!("{who}: no check, result 0")));
            }
            let (t, faces) = roll.ok_or_else(|| format!("{who} has to roll"))?;
            let v = t + i64::from(bonus);
            Ok::<_, String>((v, format!("{who}: {faces} {bonus:+} = {v}")))
        };
        let (mine, line) = total(actor_roll, a.check, self.actor_bonus(s), &me)?;
        ev.push(Event::Note(line));
        let theirs = match self.reacting() {
            Some((who, r)) => {
                let (v, line) = total(
                    reactor_roll,
                    ACTIONS[r].check,
                    self.reactor_bonus(s),
                    &name(who),
                )?;
                ev.push(Event::Note(line));
                Some((who, &ACTIONS[r], v))
            }
            None => None,
        };
        let net = mine - theirs.map_or(0, |t| t.2);
        let [d, ad, g] = Self::defences(s, self.target);
        let row = &a.rows[a.row_of(net, d, ad, g)];
        // A move reads the mover's own base combat movement.
        let squares = match (a.name, s.get(self.actor)) {
            ("Move" | "Combat Move", Some(c)) => format!(" (movement {})", c.stat(MOVEMENT)),
            _ => String::new(),
        };
        ev.push(Event::Note(format!(
            "{me}: {} net {net}: {}{squares}",
            a.name, row.name
        )));
        let their_row = theirs.map(|(who, r, _)| {
            let [d, ad, g] = Self::defences(s, Some(self.actor));
            let x = &r.rows[r.row_of(-net, d, ad, g)];
            ev.push(Event::Note(format!(
                "{}: {} net {}: {}",
                name(who),
                r.name,
                -net,
                x.name
            )));
            (who, x)
        });
        let foils = |e: Effect| matches!(e, Effect::Foils | Effect::Binds);
        let mine_foiled = their_row.is_some_and(|(_, x)| foils(x.effect));
        let theirs_foiled = foils(row.effect) && their_row.is_some();
        if s.get(self.actor).is_some_and(|c| c.stat(AIMED) > 0) {
            ev.push(Event::Set(self.actor, AIMED, 0));
        }
        if mine_foiled {
            ev.push(Event::Note(format!("{me}'s {} comes to nothing", a.name)));
        } else {
            effect(s, &mut ev, self.actor, self.target, row.effect);
        }
        if let Some((who, x)) = their_row {
            if theirs_foiled {
                ev.push(Event::Note(format!(
                    "{}'s reaction comes to nothing",
                    name(who)
                )));
            } else {
                effect(s, &mut ev, who, Some(self.actor), x.effect);
            }
        }
        // Each other reactor against the actor's result: its own row, never foiled by the
        // actor's (that answers the target only), and a foil of its own is not on its table.
        let [d, ad, g] = Self::defences(s, Some(self.actor));
        for (k, &(who, r)) in self.also.iter().enumerate() {
            let x = &ACTIONS[r];
            let (v, line) = total(
                also_rolls.get(k).copied().flatten(),
                x.check,
                self.reaction_bonus(s, who, r),
                &name(who),
            )?;
            ev.push(Event::Note(line));
            let row = &x.rows[x.row_of(v - mine, d, ad, g)];
            ev.push(Event::Note(format!(
                "{}: {} net {}: {}",
                name(who),
                x.name,
                v - mine,
                row.name
            )));
            effect(s, &mut ev, who, Some(self.actor), row.effect);
        }
        // The declaration is answered and rolled: no one faces it any more (every one who
        // reacted, those in `also` and those who dropped out).
        let done = self
            .target
            .into_iter()
            .chain(reacted(s, self.actor, self.action).map(|x| x.0));
        for t in done.filter(|&t| facing(s, t).is_some()) {
            ev.extend(
                [FACING, FACING_FROM, ANSWER, FACING_ROUND, ASIDE].map(|i| Event::Set(t, i, 0)),
            );
        }
        Ok(Event::Batch(ev))
    }
}

/// The chance of each row of `a` over a net result, against the target's defences `t`
/// (`sign` −1: the reactor's side, which sees the negation).
pub fn row_odds(a: &Action, net: &Distribution, sign: i64, t: [i32; 3]) -> Rows {
    let mut mass = vec![0.0; a.rows.len()];
    let mut seen = vec![false; a.rows.len()];
    for (v, p) in net.iter() {
        let i = a.row_of(sign * v, t[0], t[1], t[2]);
        mass[i] += p;
        seen[i] |= p > 0.0;
    }
    let total: f64 = mass.iter().sum();
    a.rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let others = seen.iter().enumerate().any(|(k, &x)| x && k != i);
            (
                r.name,
                Chance::from_masses(mass[i], total - mass[i], seen[i], others),
            )
        })
        .collect()
}

/// What a row does to `who` (its actor) and `other` (its target).
fn effect(s: &State, ev: &mut Vec<Event>, who: u32, other: Option<u32>, e: Effect) {
    let mut set = |w: u32, st: Status| ev.extend(status_events(s, w, st));
    let name = |w: u32| s.name(w).to_owned();
    match e {
        Effect::Nothing | Effect::Foils => {}
        Effect::OnGuard => set(who, Status::OnGuard),
        Effect::Aimed => {
            ev.push(Event::Set(who, AIMED, 1));
            ev.push(Event::Use(who, AIM_MARK.into()));
        }
        Effect::Binds | Effect::Grapples | Effect::Frees | Effect::Disarms => {
            let st = match e {
                Effect::Binds => Status::Bound,
                Effect::Grapples => Status::Grappled,
                _ => Status::OnGuard,
            };
            set(who, st);
            if let Some(o) = other {
                set(o, st);
                if locked(st) {
                    ev.push(Event::Set(who, PARTNER, o as i32));
                    ev.push(Event::Set(o, PARTNER, who as i32));
                }
                if e == Effect::Disarms {
                    ev.push(Event::Set(o, DISARMED, 1));
                    ev.push(Event::Note(format!("{} is disarmed", name(o))));
                }
            }
        }
        Effect::Pins => {
            if let Some(o) = other {
                set(o, Status::Pinned);
            }
        }
        Effect::Hit | Effect::Crit => {
            if let Some(o) = other {
                ev.push(Event::Note(format!(
                    "{} is hit: roll damage, {}",
                    name(o),
                    if e == Effect::Crit {
                        "ignoring armour"
                    } else {
                        "armour counts"
                    }
                )));
            }
        }
    }
}

/// What paying `cost` on credit does to `who`'s next recovery:
/// "AP 2 → -3; at the end of its turn it regains 8, to 5 (12 without this)".
pub fn recovery_preview(s: &State, who: u32, cost: i32) -> String {
    use super::actions::{after_recovery, regained};
    let now = ap(s, who);
    let after = now.saturating_sub(cost);
    format!(
        "AP {now} → {after}; at the end of its turn it regains {}, to {} ({} without this)",
        regained(after),
        after_recovery(after),
        regained(now)
    )
}

/// Takes up a weapon again after a disarm (the GM's call).
pub fn rearm(s: &State, who: u32) -> Option<Event> {
    let c = s.get(who).filter(|c| c.stat(DISARMED) > 0)?;
    Some(Event::Batch(vec![
        Event::Set(who, DISARMED, 0),
        Event::Note(format!("{} has a weapon in hand again", c.name)),
    ]))
}
