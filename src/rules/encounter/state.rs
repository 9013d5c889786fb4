//! The state of a fight, and the events that change it. The state shown is always the log of
//! events replayed from the start; every automatic change (a condition expiring, a resource
//! refilling) happens inside the event that caused it, so undoing that event undoes it too.

use super::rules::{AtZero, CombatRules, DefaultDuration, Ends, Reset, ResourceDef, Turns};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// One fighter: a saved character (`link` holds its id) or a quick NPC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    /// Assigned by the encounter when the combatant joins (1, 2, …), never reused.
    #[serde(default)]
    pub id: u32,
    pub name: String,
    #[serde(default)]
    pub link: Option<String>,
    /// A player character (dies only through the system's death procedure).
    #[serde(default)]
    pub pc: bool,
    /// The system's stats, named by [`CombatRules::stats`].
    #[serde(default)]
    pub stats: Vec<i32>,
    /// The system's texts (dice notation of weapon and armor, …).
    #[serde(default)]
    pub texts: Vec<String>,
    pub hp: i32,
    pub hp_max: i32,
    /// Death-test results counted so far.
    #[serde(default)]
    pub death: u32,
    #[serde(default)]
    pub dead: bool,
    /// Initiative keys, compared in the order of [`CombatRules::init_keys`].
    #[serde(default)]
    pub init: Vec<i32>,
    /// Roll-off dice, only looked at when every key ties.
    #[serde(default)]
    pub rolloff: Vec<u32>,
    /// Current values of the system's resources.
    #[serde(default)]
    pub pools: Vec<i32>,
    /// Left the fight (kept so the log can still name it).
    #[serde(default)]
    pub gone: bool,
    /// Once-a-turn actions already taken this turn (cleared when its turn starts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub used: Vec<String>,
}

impl Combatant {
    /// A combatant of `rules` with every stat at 0.
    pub fn new(rules: &CombatRules, name: impl Into<String>, hp: i32) -> Combatant {
        Combatant {
            id: 0,
            name: name.into(),
            link: None,
            pc: false,
            stats: vec![0; rules.stats.len()],
            texts: Vec::new(),
            hp,
            hp_max: hp,
            death: 0,
            dead: false,
            init: Vec::new(),
            rolloff: Vec::new(),
            pools: Vec::new(),
            gone: false,
            used: Vec::new(),
        }
    }

    pub fn stat(&self, i: usize) -> i32 {
        self.stats.get(i).copied().unwrap_or(0)
    }

    pub fn text(&self, i: usize) -> &str {
        self.texts.get(i).map_or("", String::as_str)
    }
}

/// When a condition ends by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Duration {
    /// Until someone removes it.
    Removed,
    /// At the start of `who`'s `n`-th turn from now.
    Start { who: u32, n: u32 },
    /// At the end of `who`'s `n`-th turn from now.
    End { who: u32, n: u32 },
    /// At the end of the `n`-th round from now (the current one is the first).
    Round { n: u32 },
}

impl Duration {
    pub fn from_default(d: DefaultDuration, who: u32) -> Duration {
        match d {
            DefaultDuration::UntilRemoved => Duration::Removed,
            DefaultDuration::NextTurnStart => Duration::Start { who, n: 1 },
            DefaultDuration::NextTurnEnd => Duration::End { who, n: 1 },
            DefaultDuration::RoundEnd => Duration::Round { n: 1 },
        }
    }
}

/// A condition on a combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Active {
    pub cid: u32,
    pub who: u32,
    pub name: String,
    pub dur: Duration,
    /// The condition that implies this one: it holds while the parent holds.
    pub parent: Option<u32>,
}

/// A mark in `Combatant::used`: the combatant's turn was handed on mid-way (a new initiative)
/// and resumes, without starting again, when its new place comes up.
pub const RESUMES: &str = "resumes";

/// The longest name a combatant (or an encounter) keeps, in characters.
pub const NAME_LIMIT: usize = 200;

/// Everything that can happen in a fight. Dice are rolled before the event is made, and their
/// results are part of it, so replaying the log gives the same fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Join(Combatant),
    /// Several at once ("Goblin ×4"): one step to undo.
    Group(Vec<Combatant>),
    Leave(u32),
    /// New initiative keys (a roll at the start, a declared action's die).
    Init(u32, Vec<i32>),
    /// A roll-off die for a combatant tied on every key.
    RollOff(u32, u32),
    /// Waits / delays: moves `who` to just before `before` (or to the end when `None`).
    Place(u32, Option<u32>),
    Start,
    /// Ends the current turn (or the round, in a system without turns).
    Next,
    Damage(Vec<u32>, i32),
    /// Healing; `true` when it stabilizes a dying character (Medicus, herbal cure, mystic).
    Heal(Vec<u32>, i32, bool),
    /// The linked character's values as its sheet now has them: hp, death steps, dead.
    Sync(u32, i32, u32, bool),
    Add(u32, String, Duration),
    Remove(u32),
    /// Spends (or with a negative amount, gives back) a resource.
    Spend(u32, usize, i32),
    /// Trades one of a resource for one of another (a combat action for a second movement).
    Trade(u32, usize, usize),
    /// A death test: the d20, and the d4 of toughness if it woke the character.
    Death(u32, u32, u32),
    /// Anything else worth a line in the log: a roll, a choice, a free attack.
    Note(String),
    End,
    /// Sets one of the system's stats (fatigue, a pre-rolled defence); silent: it comes in a
    /// [`Event::Batch`] with the note that says why.
    Set(u32, usize, i32),
    /// Sets one of its texts (Tempo's check dice as its sheet now has them); silent, as `Set`.
    Text(u32, usize, String),
    /// Several events as one step (one undo): an attack with its damage, defence and fatigue.
    Batch(Vec<Event>),
    /// A once-a-turn action; refused when already taken this turn.
    Use(u32, String),
    /// Dies from the system's own table (Energy / Aura's death roll or death save).
    Dies(u32),
}

impl Event {
    /// The events of one step, a batch opened (a batch never holds a batch).
    pub fn flat(self) -> Vec<Event> {
        match self {
            Event::Batch(list) => list,
            e => vec![e],
        }
    }
}

/// A mark ([`Event::Use`]) starting with this is a system's bookkeeping, not something its
/// combatant did: no line in the log, and it does not count as acting (a wait stays open).
pub const QUIET: char = '~';

/// One line of the combat log, with the event that wrote it (for undo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub ev: usize,
    pub round: u32,
    pub text: String,
}

/// A fight as replayed from its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub rules: &'static CombatRules,
    pub combatants: Vec<Combatant>,
    /// Turn order (ids); in a system without turns, the listing order.
    pub order: Vec<u32>,
    /// 0 before the fight starts.
    pub round: u32,
    /// Whose turn it is (none before the start, between rounds while declaring, or always in a
    /// system without turns).
    pub current: Option<u32>,
    pub conditions: Vec<Active>,
    /// Ids that were placed by hand (wait, delay, ready): shown as the reason of their place.
    pub placed: Vec<u32>,
    pub ended: bool,
    pub log: Vec<Line>,
    /// Ids whose turn has begun at least once (an NPC the GM hid from the players shows from
    /// its first turn).
    pub had_turn: Vec<u32>,
    /// On a player's phone at the table: the combatants whose numbers the GM keeps (known here
    /// by name and a word): targets still, whose odds only the GM's phone can reckon.
    pub veiled: Vec<u32>,
    next_cid: u32,
    events: usize,
}

impl State {
    pub fn new(rules: &'static CombatRules) -> State {
        State {
            rules,
            combatants: Vec::new(),
            order: Vec::new(),
            round: 0,
            current: None,
            conditions: Vec::new(),
            placed: Vec::new(),
            ended: false,
            log: Vec::new(),
            had_turn: Vec::new(),
            veiled: Vec::new(),
            next_cid: 1,
            events: 0,
        }
    }

    /// The state after `events`, from the start.
    pub fn replay(rules: &'static CombatRules, events: &[Event]) -> State {
        let mut s = State::new(rules);
        for e in events {
            s.apply(e);
        }
        s
    }

    /// Where the fight is, in words: "Round 2 · Varla’s turn", "Not started", "Over after round 3".
    pub fn status(&self) -> String {
        let s = self;
        if s.ended {
            return format!("Over after round {}", s.rules.counter(s.round));
        }
        let shown = s.rules.counter(s.round);
        let status = match (s.round, s.current) {
            (0, _) => return "Not started".into(),
            (_, Some(c)) => format!("Round {shown} · {}’s turn", s.name(c)),
            (_, None) if s.rules.turns == Turns::EachRound => {
                format!("Round {shown} · declare actions")
            }
            (_, None) => format!("Round {shown}"),
        };
        match s.clock() {
            Some(t) => format!("{status} · {t}"),
            None => status,
        }
    }

    pub fn get(&self, id: u32) -> Option<&Combatant> {
        self.combatants.iter().find(|c| c.id == id)
    }

    fn get_mut(&mut self, id: u32) -> Option<&mut Combatant> {
        self.combatants.iter_mut().find(|c| c.id == id)
    }

    pub fn name(&self, id: u32) -> &str {
        self.get(id).map_or("?", |c| c.name.as_str())
    }

    /// Dying: the system's death procedure is running for this combatant.
    pub fn dying(&self, c: &Combatant) -> bool {
        self.rules.at_zero == AtZero::DyingIfPc && c.pc && c.hp <= 0 && !c.dead
    }

    pub fn conditions_of(&self, who: u32) -> impl Iterator<Item = &Active> {
        self.conditions.iter().filter(move |a| a.who == who)
    }

    /// The names of the conditions `who` holds, each once (however many times it was added).
    pub fn held(&self, who: u32) -> Vec<&str> {
        let mut names: Vec<&str> = self.conditions_of(who).map(|a| a.name.as_str()).collect();
        crate::rules::order::sort(&mut names);
        names.dedup();
        names
    }

    /// Ending the fight: the conditions timed in turns or rounds lapse with it (their time is
    /// fight time; a dying clock, whose running out does more, stays), then the end. Two steps,
    /// so that the lapse reaches the sheets before the fight stops sharing.
    pub fn ending(&self) -> Vec<Event> {
        let lapse: Vec<Event> = self
            .conditions
            .iter()
            .filter(|a| a.parent.is_none() && a.dur != Duration::Removed)
            .filter(|a| {
                self.rules
                    .condition(&a.name)
                    .is_none_or(|d| d.ends == Ends::Nothing)
            })
            .map(|a| Event::Remove(a.cid))
            .collect();
        let mut out = Vec::new();
        if !lapse.is_empty() {
            out.push(Event::Batch(lapse));
        }
        out.push(Event::End);
        out
    }

    pub fn has(&self, who: u32, name: &str) -> bool {
        self.conditions_of(who).any(|a| a.name == name)
    }

    fn say(&mut self, text: String) {
        let line = Line {
            ev: self.events,
            round: self.round,
            text,
        };
        self.log.push(line);
    }

    /// Applies one event. Events that the rules refuse change nothing but a log line.
    pub fn apply(&mut self, e: &Event) {
        if !self.ended || *e == Event::End {
            self.apply_one(e);
        }
        self.events += 1;
    }

    fn apply_one(&mut self, e: &Event) {
        match e {
            Event::Join(c) => self.join(c.clone()),
            Event::Group(list) => {
                for c in list {
                    self.join(c.clone());
                }
            }
            Event::Leave(who) => self.leave(*who),
            Event::Init(who, keys) => {
                if let Some(c) = self.get_mut(*who) {
                    let first = c.init.is_empty();
                    c.init = keys.clone();
                    let text = format!("{}: initiative {}", c.name, join_keys(keys));
                    self.say(text);
                    if self.round == 0
                        || (self.rules.turns == Turns::EachRound && self.current.is_none())
                    {
                        self.sort();
                    } else if self.rules.turns == Turns::EachRound {
                        self.resort_rest(*who);
                    } else if first && self.rules.turns == Turns::Fixed {
                        self.place_by_initiative(*who);
                    }
                }
            }
            Event::RollOff(who, roll) => {
                if let Some(c) = self.get_mut(*who) {
                    c.rolloff.push(*roll);
                    let text = format!("{} rolls {} in the roll-off", c.name, roll);
                    self.say(text);
                    if self.round == 0 || self.current.is_none() {
                        self.sort();
                    }
                }
            }
            Event::Place(who, before) => self.place(*who, *before),
            Event::Start => self.start(),
            Event::Next => self.next(),
            Event::Damage(who, amount) => {
                for w in who {
                    self.damage(*w, *amount);
                }
            }
            Event::Heal(who, amount, stabilize) => {
                for w in who {
                    self.heal(*w, *amount, *stabilize);
                }
            }
            Event::Sync(who, hp, death, dead) => {
                let hp_name = self.rules.hp_name;
                if let Some(c) = self.get_mut(*who) {
                    c.hp = *hp;
                    c.death = *death;
                    c.dead = *dead;
                    let text = format!("{}: {} {} as on the sheet", c.name, hp_name, hp);
                    self.say(text);
                }
            }
            Event::Add(who, name, dur) => self.add_condition(*who, name, *dur, None),
            Event::Remove(cid) => self.remove_condition(*cid),
            Event::Spend(who, res, n) => self.spend(*who, *res, *n),
            Event::Trade(who, from, to) => self.trade(*who, *from, *to),
            Event::Death(who, d20, wake) => self.death_test(*who, *d20, *wake),
            Event::Note(text) => self.say(text.clone()),
            Event::End => {
                self.ended = true;
                self.current = None;
                self.say("The fight is over".into());
            }
            Event::Set(who, i, v) => {
                // A stat the system names but an older combatant does not have yet is added.
                let named = self.rules.stats.len();
                if let Some(c) = self.get_mut(*who) {
                    if *i < named && c.stats.len() <= *i {
                        c.stats.resize(*i + 1, 0);
                    }
                    if let Some(x) = c.stats.get_mut(*i) {
                        *x = *v;
                    }
                }
            }
            Event::Text(who, i, t) => {
                if let Some(x) = self.get_mut(*who).and_then(|c| c.texts.get_mut(*i)) {
                    x.clone_from(t);
                }
            }
            Event::Batch(list) => {
                for e in list {
                    if !matches!(e, Event::Batch(_)) {
                        self.apply_one(e);
                    }
                }
            }
            Event::Dies(who) => {
                if let Some(c) = self.get_mut(*who).filter(|c| !c.dead && !c.gone) {
                    c.dead = true;
                    let text = format!("{} dies", c.name);
                    self.say(text);
                }
            }
            Event::Use(who, what) => {
                let Some(c) = self.get_mut(*who) else {
                    return;
                };
                // A system's bookkeeping (a trigger it records): kept without a line; the
                // note in its batch says what happened.
                if what.starts_with(QUIET) {
                    if !c.used.contains(what) {
                        c.used.push(what.clone());
                    }
                    return;
                }
                let text = if c.used.contains(what) {
                    format!("{} already did {} this turn", c.name, what)
                } else {
                    c.used.push(what.clone());
                    format!("{}: {}", c.name, what)
                };
                self.say(text);
            }
        }
    }

    /// The id the next combatant to join gets.
    pub fn next_id(&self) -> u32 {
        self.combatants.iter().map(|c| c.id).max().unwrap_or(0) + 1
    }

    /// A combatant joining with what comes with it (a saved character's conditions), as one
    /// step: `with` is given the combatant under the id it will have.
    pub fn join_events(
        &self,
        mut c: Combatant,
        with: impl FnOnce(&Combatant) -> Vec<Event>,
    ) -> Event {
        c.id = self.next_id();
        let mut out = vec![];
        for e in with(&c) {
            match e {
                Event::Batch(list) => out.extend(list),
                e => out.push(e),
            }
        }
        if out.is_empty() {
            return Event::Join(c);
        }
        out.insert(0, Event::Join(c));
        Event::Batch(out)
    }

    fn join(&mut self, mut c: Combatant) {
        c.id = self.next_id();
        c.stats.resize(self.rules.stats.len(), 0);
        // A resource that never refills by itself keeps the value it joins with (a linked
        // character's stamina), within 0..=full; everything else starts full.
        let kept = std::mem::take(&mut c.pools);
        c.pools = self
            .rules
            .resources
            .iter()
            .enumerate()
            .map(|(i, r)| match kept.get(i) {
                Some(&v) if r.reset == Reset::Never => v.clamp(0, r.full(&c).max(0)),
                _ => r.full(&c),
            })
            .collect();
        // A pool capped by another (energy by stamina) starts within it.
        for (i, r) in self.rules.resources.iter().enumerate() {
            if let Some(cap) = r.capped_by.and_then(|k| c.pools.get(k).copied()) {
                c.pools[i] = c.pools[i].min(cap);
            }
        }
        c.gone = false;
        let id = c.id;
        self.say(format!("{} joins the fight", c.name));
        self.combatants.push(c);
        if self.round == 0 || (self.rules.turns == Turns::EachRound && self.current.is_none()) {
            self.order.push(id);
            self.sort();
        } else {
            // Mid-fight: in its place by initiative, never before the one acting now.
            let after = self
                .current
                .and_then(|cur| self.order.iter().position(|&x| x == cur))
                .map_or(0, |p| p + 1);
            let at = (after..self.order.len())
                .find(|&i| self.cmp(id, self.order[i]) == Ordering::Less)
                .unwrap_or(self.order.len());
            self.order.insert(at, id);
        }
    }

    fn leave(&mut self, who: u32) {
        if self.current == Some(who) {
            self.next();
        }
        if self.current == Some(who) {
            self.current = None; // the last one standing
        }
        self.order.retain(|&x| x != who);
        let removed: Vec<u32> = self
            .conditions
            .iter()
            .filter(|a| a.who == who)
            .map(|a| a.cid)
            .collect();
        self.conditions.retain(|a| !removed.contains(&a.cid));
        if let Some(c) = self.get_mut(who) {
            c.gone = true;
            let text = format!("{} leaves the fight", c.name);
            self.say(text);
        }
    }

    /// Orders `a` before `b` (`Less`) by the keys, then the roll-off, then joining order.
    pub fn cmp(&self, a: u32, b: u32) -> Ordering {
        let (Some(x), Some(y)) = (self.get(a), self.get(b)) else {
            return Ordering::Equal;
        };
        let keys = if self.rules.lowest_first {
            x.init.cmp(&y.init)
        } else {
            y.init.cmp(&x.init)
        };
        keys.then_with(|| y.rolloff.cmp(&x.rolloff))
            .then_with(|| x.id.cmp(&y.id))
    }

    /// A new initiative mid-round (Bo Vogt's reevaluate): `who` moves among those still to act
    /// this round by its new keys; if it was acting, the turn passes to whoever is now first
    /// and its own turn resumes (without a second start) when its place comes up.
    fn resort_rest(&mut self, who: u32) {
        let Some(cur) = self.current else { return };
        let Some(pos) = self.order.iter().position(|&x| x == cur) else {
            return;
        };
        let from = if cur == who { pos } else { pos + 1 };
        if !self.order[from..].contains(&who) {
            return;
        }
        // Only `who` moves: the others keep their places (and any the GM chose).
        self.order.retain(|&x| x != who);
        let at = (from..self.order.len())
            .find(|&i| self.cmp(who, self.order[i]) == Ordering::Less)
            .unwrap_or(self.order.len());
        self.order.insert(at, who);
        if cur == who {
            if let Some(&first) = self.order[pos..].iter().find(|&&x| self.can_act(x)) {
                if first != who {
                    if let Some(c) = self
                        .get_mut(who)
                        .filter(|c| !c.used.iter().any(|u| u == RESUMES))
                    {
                        c.used.push(RESUMES.into());
                    }
                    self.current = Some(first);
                    self.turn_start(first);
                }
            }
        }
    }

    fn sort(&mut self) {
        let mut order = std::mem::take(&mut self.order);
        crate::rules::order::sort_with(&mut order, |&a, &b| self.cmp(a, b));
        self.order = order;
        self.placed.clear();
    }

    /// Combatants in the order who tie on every key and every roll-off die so far: each needs
    /// another roll-off die before the order is settled.
    pub fn tied(&self) -> Vec<u32> {
        if self.rules.rolloff_die == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for w in self.order.windows(2) {
            let (Some(a), Some(b)) = (self.get(w[0]), self.get(w[1])) else {
                continue;
            };
            if a.init == b.init && a.rolloff == b.rolloff {
                for id in [a.id, b.id] {
                    if !out.contains(&id) {
                        out.push(id);
                    }
                }
            }
        }
        out
    }

    /// Why `a` comes before `b`, in words: the first key that differs, the roll-off, or a wait.
    pub fn why_before(&self, a: u32, b: u32) -> String {
        let (Some(x), Some(y)) = (self.get(a), self.get(b)) else {
            return String::new();
        };
        if self.placed.contains(&b) || self.placed.contains(&a) {
            let who = if self.placed.contains(&b) { y } else { x };
            return format!("{} chose this place", who.name);
        }
        for (i, name) in self.rules.init_keys.iter().enumerate() {
            let (mut p, mut q) = (x.init.get(i).copied(), y.init.get(i).copied());
            if name.starts_with("higher ") {
                // Stored negated so that lowest-first puts the higher value first.
                (p, q) = (p.map(|v| -v), q.map(|v| -v));
            }
            if p != q && name.ends_with(" die") {
                // Stored as the highest total × 100 + count (Bo Vogt's `init_keys`).
                let die = |v: Option<i32>| {
                    v.map_or("–".into(), |v| {
                        let n = (v % 100).max(1);
                        format!("{n}d{}", v / 100 / n)
                    })
                };
                return format!("{name} {} vs {}", die(p), die(q));
            }
            if p != q {
                return format!(
                    "{} {} vs {}",
                    name,
                    p.map_or("–".into(), |v| v.to_string()),
                    q.map_or("–".into(), |v| v.to_string())
                );
            }
        }
        if x.rolloff != y.rolloff {
            return format!(
                "roll-off d{}: {} vs {}",
                self.rules.rolloff_die,
                join_rolls(&x.rolloff),
                join_rolls(&y.rolloff)
            );
        }
        "joined first".into()
    }

    fn place(&mut self, who: u32, before: Option<u32>) {
        let Some(was) = self.order.iter().position(|&x| x == who) else {
            return;
        };
        if before == Some(who) {
            return;
        }
        self.order.retain(|&x| x != who);
        let at = before
            .and_then(|b| self.order.iter().position(|&x| x == b))
            .unwrap_or(self.order.len());
        self.order.insert(at, who);
        if !self.placed.contains(&who) {
            self.placed.push(who);
        }
        let text = match before {
            Some(b) => format!("{} moves to just before {}", self.name(who), self.name(b)),
            None => format!("{} waits until last", self.name(who)),
        };
        self.say(text);
        // Moving the one whose turn it is hands the turn to whoever is now in its place (the
        // next after it that can act), never back to someone who has acted this round.
        if self.current == Some(who) {
            if let Some(&next) = self.order[was..].iter().find(|&&x| self.can_act(x)) {
                if next != who {
                    self.current = Some(next);
                    self.turn_start(next);
                }
            }
        }
    }

    /// A combatant that joined mid-fight without initiative, once it has one (Tempo #2): in its
    /// place in the order by initiative. Ahead of the one acting now, it first acts next round.
    fn place_by_initiative(&mut self, id: u32) {
        let Some(from) = self.order.iter().position(|&x| x == id) else {
            return;
        };
        if self.current == Some(id) {
            return;
        }
        self.order.remove(from);
        let at = (0..self.order.len())
            .find(|&i| self.cmp(id, self.order[i]) == Ordering::Less)
            .unwrap_or(self.order.len());
        self.order.insert(at, id);
    }

    fn can_act(&self, id: u32) -> bool {
        self.get(id).is_some_and(|c| !c.dead && !c.gone)
    }

    fn start(&mut self) {
        if self.round > 0 {
            return;
        }
        self.round = 1;
        let text = format!("Round {} begins", self.rules.counter(1));
        self.say(text);
        self.round_start();
        if self.rules.turns == Turns::Fixed {
            self.first_turn();
        }
    }

    fn first_turn(&mut self) {
        if let Some(&first) = self.order.iter().find(|&&x| self.can_act(x)) {
            self.current = Some(first);
            self.turn_start(first);
        }
    }

    fn next(&mut self) {
        if self.round == 0 {
            return self.start();
        }
        if self.rules.turns == Turns::None {
            return self.next_round();
        }
        let Some(cur) = self.current else {
            // Between rounds of declared actions: the first turn of the round.
            return self.first_turn();
        };
        self.turn_end(cur);
        let pos = self.order.iter().position(|&x| x == cur);
        let next = pos.and_then(|p| {
            self.order[p + 1..]
                .iter()
                .copied()
                .find(|&x| self.can_act(x))
        });
        match next {
            Some(n) => {
                self.current = Some(n);
                self.turn_start(n);
            }
            None => {
                self.current = None;
                self.next_round();
                if self.rules.turns == Turns::Fixed {
                    self.first_turn();
                }
            }
        }
    }

    /// Counts one boundary off every duration anchored to it (`Start`/`End` of `who`'s turn
    /// or `Round`, its `n` ignored) and ends those that reach zero.
    fn count_down(&mut self, boundary: Duration) {
        let mut expired = Vec::new();
        for a in &mut self.conditions {
            let n = match (&mut a.dur, boundary) {
                (Duration::Start { who, n }, Duration::Start { who: w, .. }) if *who == w => n,
                (Duration::End { who, n }, Duration::End { who: w, .. }) if *who == w => n,
                (Duration::Round { n }, Duration::Round { .. }) => n,
                _ => continue,
            };
            *n = n.saturating_sub(1);
            if *n == 0 {
                expired.push(a.cid);
            }
        }
        self.expire(expired);
    }

    fn next_round(&mut self) {
        self.count_down(Duration::Round { n: 0 });
        self.round += 1;
        let text = format!("Round {} begins", self.rules.counter(self.round));
        self.say(text);
        self.round_start();
    }

    fn round_start(&mut self) {
        self.refill(None, Reset::RoundStart);
    }

    fn refill(&mut self, who: Option<u32>, reset: Reset) {
        let rules = self.rules;
        let mut fills = Vec::new();
        for c in &self.combatants {
            if who.is_some_and(|w| w != c.id) {
                continue;
            }
            for (i, r) in rules.resources.iter().enumerate() {
                if r.reset == reset {
                    fills.push((c.id, i, self.full(c, r)));
                }
            }
        }
        for (id, i, full) in fills {
            let def = &rules.resources[i];
            let Some(c) = self.get_mut(id) else { continue };
            let Some(p) = c.pools.get_mut(i) else {
                continue;
            };
            if def.recovery.is_empty() {
                *p = full;
                continue;
            }
            let was = *p;
            let back = def
                .recovery
                .iter()
                .find(|(at, _)| was >= *at)
                .map_or(0, |r| r.1);
            *p = was.saturating_add(back).min(full);
            let text = format!(
                "{} recovers {back} {} by the table ({was} → {})",
                c.name, def.name, *p
            );
            self.say(text);
        }
    }

    /// What a resource refills to now: its full value, at most the resource it is capped by,
    /// less what the holder's conditions cut.
    pub fn full(&self, c: &Combatant, r: &ResourceDef) -> i32 {
        let mut full = r.full(c);
        if let Some(cap) = r.capped_by.and_then(|i| c.pools.get(i)) {
            full = full.min(*cap);
        }
        for (name, cut) in r.cuts {
            if self.has(c.id, name) {
                full = full.saturating_sub(*cut);
            }
        }
        if r.cuts.is_empty() {
            full
        } else {
            full.max(0)
        }
    }

    fn turn_start(&mut self, who: u32) {
        if !self.had_turn.contains(&who) {
            self.had_turn.push(who);
        }
        if let Some(c) = self.get_mut(who) {
            if let Some(i) = c.used.iter().position(|u| u == RESUMES) {
                c.used.remove(i);
                let text = format!("{}’s turn resumes", c.name);
                return self.say(text);
            }
        }
        let text = format!("{}’s turn", self.name(who));
        self.say(text);
        // Each condition hurts once, however many times it was added.
        let hurts: i32 = self
            .held(who)
            .into_iter()
            .filter_map(|n| self.rules.condition(n))
            .map(|d| d.hurts)
            .sum();
        if hurts > 0 {
            self.damage(who, hurts);
        }
        self.count_down(Duration::Start { who, n: 0 });
        self.refill(Some(who), Reset::TurnStart);
        let lapse = self.rules.lapse;
        if let Some(c) = self.get_mut(who) {
            c.used.clear();
            for &i in lapse {
                if let Some(x) = c.stats.get_mut(i) {
                    *x = 0;
                }
            }
        }
        if let Some(c) = self.get(who) {
            if self.dying(c) {
                let text = format!("{} is dying: a death test is due", c.name);
                self.say(text);
            }
        }
    }

    fn turn_end(&mut self, who: u32) {
        self.count_down(Duration::End { who, n: 0 });
        self.refill(Some(who), Reset::TurnEnd);
    }

    fn expire(&mut self, cids: Vec<u32>) {
        for cid in cids {
            if let Some(a) = self.conditions.iter().find(|a| a.cid == cid).cloned() {
                let text = format!("{} on {} ends", a.name, self.name(a.who));
                self.drop_condition(cid);
                self.say(text);
                match self.rules.condition(&a.name).map(|d| d.ends) {
                    Some(Ends::Becomes(next)) => {
                        self.add_condition(a.who, next, Duration::Removed, None)
                    }
                    Some(Ends::Dies) => {
                        if let Some(c) = self.get_mut(a.who).filter(|c| !c.dead) {
                            c.dead = true;
                            let text = format!("{} dies", c.name);
                            self.say(text);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Removes a condition and, recursively, every condition it implies.
    fn drop_condition(&mut self, cid: u32) {
        let children: Vec<u32> = self
            .conditions
            .iter()
            .filter(|a| a.parent == Some(cid))
            .map(|a| a.cid)
            .collect();
        self.conditions.retain(|a| a.cid != cid);
        for c in children {
            self.drop_condition(c);
        }
    }

    fn add_condition(&mut self, who: u32, name: &str, dur: Duration, parent: Option<u32>) {
        if self.get(who).is_none_or(|c| c.gone) {
            return;
        }
        let cid = self.next_cid;
        self.next_cid += 1;
        self.conditions.push(Active {
            cid,
            who,
            name: name.to_owned(),
            dur,
            parent,
        });
        if parent.is_none() {
            let text = format!("{}: {}", self.name(who), name);
            self.say(text);
        }
        if let Some(def) = self.rules.condition(name) {
            for implied in def.implies {
                self.add_condition(who, implied, Duration::Removed, Some(cid));
            }
        }
    }

    fn remove_condition(&mut self, cid: u32) {
        let Some(a) = self.conditions.iter().find(|a| a.cid == cid).cloned() else {
            return;
        };
        if let Some(parent) = a
            .parent
            .and_then(|p| self.conditions.iter().find(|x| x.cid == p))
        {
            let text = format!(
                "{} cannot be removed from {} while {} holds",
                a.name,
                self.name(a.who),
                parent.name
            );
            return self.say(text);
        }
        self.drop_condition(cid);
        let text = format!("{} removed from {}", a.name, self.name(a.who));
        self.say(text);
    }

    fn spend(&mut self, who: u32, res: usize, n: i32) {
        let Some(def) = self.rules.resources.get(res) else {
            return;
        };
        let Some(c) = self.get_mut(who) else {
            return;
        };
        let Some(left) = c.pools.get(res).copied() else {
            return;
        };
        let after = left.saturating_sub(n);
        // A count a system's panel keeps (Aura's movement this round) goes up without a line.
        if def.hidden && n < 0 {
            c.pools[res] = after;
            return;
        }
        let text = if after < 0 && !def.may_go_negative {
            format!("{} has no {} left", c.name, def.name)
        } else {
            c.pools[res] = after;
            if n >= 0 {
                format!("{} uses {} {}", c.name, n, def.name)
            } else {
                format!("{} gains {} {}", c.name, -n, def.name)
            }
        };
        self.say(text);
    }

    fn trade(&mut self, who: u32, from: usize, to: usize) {
        let defs = self.rules.resources;
        let (Some(a), Some(b)) = (defs.get(from), defs.get(to)) else {
            return;
        };
        let Some(c) = self.get_mut(who) else {
            return;
        };
        let text = if c.pools.get(from).is_some_and(|&n| n > 0) && to < c.pools.len() {
            c.pools[from] -= 1;
            c.pools[to] += 1;
            format!(
                "{} trades 1 {} for 1 {}",
                c.name,
                a.name.to_lowercase(),
                b.name.to_lowercase()
            )
        } else {
            format!("{} has no {} left", c.name, a.name)
        };
        self.say(text);
    }

    /// Damage to `who` as one step: the engine's [`Event::Damage`] and what the system's rules
    /// attach to the change ([`CombatRules::hp_changed`]). The Damage button and every
    /// system's attacks take this one path.
    /// Names for `count` new combatants called `base`: numbered after any already in the fight
    /// ("Goblin 3", "Goblin 4"), `base` alone for a single first one; trimmed, and cut so the
    /// number fits the 200 characters a name may have.
    pub fn numbered(&self, base: &str, count: usize) -> Vec<String> {
        let base = crate::rules::edit::entry(base, NAME_LIMIT);
        let taken = self
            .combatants
            .iter()
            .filter_map(|c| {
                c.name
                    .strip_prefix(base.as_str())?
                    .trim()
                    .parse::<usize>()
                    .ok()
            })
            .max()
            .unwrap_or(0);
        if count == 1 && taken == 0 && !self.combatants.iter().any(|c| c.name == base) {
            return vec![base];
        }
        (1..=count)
            .map(|k| {
                let n = format!(" {}", taken + k);
                let keep = NAME_LIMIT - n.len();
                let cut: String = base.chars().take(keep).collect();
                format!("{}{n}", cut.trim_end())
            })
            .collect()
    }

    pub fn damage_events(&self, who: Vec<u32>, amount: i32) -> Event {
        self.with_consequences(Event::Damage(who, amount))
    }

    /// Healing as one step, like [`State::damage_events`].
    pub fn heal_events(&self, who: Vec<u32>, amount: i32, stabilize: bool) -> Event {
        self.with_consequences(Event::Heal(who, amount, stabilize))
    }

    fn with_consequences(&self, base: Event) -> Event {
        let (Some(hook), Event::Damage(who, _) | Event::Heal(who, _, _)) =
            (self.rules.hp_changed, &base)
        else {
            return base;
        };
        // Damage to one already at 0 under a death roll (Energy / Aura) changes no hit points
        // but is still a change the rules count (a death roll due): it reaches the hook too.
        let at_floor =
            matches!(base, Event::Damage(_, n) if n > 0) && self.rules.at_zero == AtZero::DeathRoll;
        let mut after = self.clone();
        after.apply(&base);
        let more: Vec<Event> = who
            .iter()
            .filter_map(|&w| Some((w, self.get(w)?.hp, after.get(w)?.hp)))
            .filter(|&(w, was, now)| {
                was != now
                    || (at_floor && now <= 0 && self.get(w).is_some_and(|c| !c.dead && !c.gone))
            })
            .flat_map(|(w, was, now)| hook(&after, w, was, now))
            .collect();
        if more.is_empty() {
            return base;
        }
        Event::Batch(std::iter::once(base).chain(more).collect())
    }

    fn damage(&mut self, who: u32, amount: i32) {
        let rules = self.rules;
        let Some(c) = self.get_mut(who) else {
            return;
        };
        if c.dead || c.gone {
            return;
        }
        let was = c.hp;
        c.hp = c.hp.saturating_sub(amount.max(0));
        if let Some(floor) = rules.hp_floor {
            c.hp = c.hp.max(floor);
        }
        let mut text = format!(
            "{} takes {} damage: {} {} → {}",
            c.name, amount, rules.hp_name, was, c.hp
        );
        if c.hp <= 0 && was > 0 {
            match rules.at_zero {
                AtZero::DyingIfPc if c.pc => text.push_str(", dying"),
                AtZero::DyingIfPc => {
                    c.dead = true;
                    text.push_str(", dead");
                }
                AtZero::Down => text.push_str(", down"),
                AtZero::Table | AtZero::Levels { .. } | AtZero::DeathRoll => {}
            }
        }
        if rules.at_zero == AtZero::DeathRoll && was <= 0 && amount > 0 {
            text.push_str(&format!(
                ": already at 0 {}, a death roll is due",
                rules.hp_name.to_lowercase()
            ));
        }
        let level = match rules.at_zero {
            AtZero::Levels {
                name,
                adds,
                halve_at,
                out_at,
                out,
                table_at,
            } if c.hp <= 0 && amount > 0 => {
                c.death = c.death.saturating_add(1);
                let level = c.death;
                text.push_str(&format!(", {name} {level}"));
                if level == halve_at {
                    let max = rules.hp_max(c);
                    text.push_str(&format!(", {} max halved to {max}", rules.hp_name));
                }
                if level >= table_at {
                    text.push_str(": a roll on the table is due");
                }
                Some((level, adds, out_at, out))
            }
            _ => None,
        };
        self.say(text);
        if let Some((level, adds, out_at, out)) = level {
            if !self.has(who, adds) {
                self.add_condition(who, adds, Duration::Removed, None);
            }
            if level >= out_at && !self.has(who, out) {
                self.add_condition(who, out, Duration::Removed, None);
            }
        }
    }

    fn heal(&mut self, who: u32, amount: i32, stabilize: bool) {
        let Some(c) = self.get(who) else {
            return;
        };
        if c.dead || c.gone {
            return;
        }
        if self.dying(c) && !stabilize {
            let text = format!(
                "{} is dying: only healing that stabilizes helps (not natural healing)",
                c.name
            );
            return self.say(text);
        }
        let hp_name = self.rules.hp_name;
        let levels = matches!(self.rules.at_zero, AtZero::Levels { .. });
        let max = self.rules.hp_max(c);
        let Some(c) = self.get_mut(who) else {
            return;
        };
        let was = c.hp;
        c.hp = c.hp.saturating_add(amount.max(0)).min(max.max(was));
        // Death tests start over once healed; levels (exhaustion) stay until rest.
        if c.hp > 0 && !levels {
            c.death = 0;
        }
        let text = format!(
            "{} heals {}: {} {} → {}",
            c.name, amount, hp_name, was, c.hp
        );
        self.say(text);
    }

    fn death_test(&mut self, who: u32, d20: u32, wake: u32) {
        let steps = self.rules.death_steps;
        let Some(c) = self.get(who) else {
            return;
        };
        if !self.dying(c) {
            return;
        }
        let Some(c) = self.get_mut(who) else {
            return;
        };
        let outcome = match d20 {
            1 => {
                c.hp = (wake.max(1) as i32).min(c.hp_max);
                c.death = 0;
                format!("wakes with {}", c.hp)
            }
            2..=10 => "no change".into(),
            20 => {
                c.dead = true;
                "dies".into()
            }
            _ => {
                c.death += 1;
                if c.death >= steps {
                    c.dead = true;
                    "dies".into()
                } else {
                    format!("one step closer ({} of {})", c.death, steps)
                }
            }
        };
        let text = format!("{} death test: d20 = {}, {}", c.name, d20, outcome);
        self.say(text);
    }

    /// Time in the fiction at the start of the current round ("0:04"), when the system
    /// measures it.
    pub fn clock(&self) -> Option<String> {
        let per = self.rules.seconds_per_round;
        (per > 0 && self.round > 0).then(|| {
            let t = (self.round - 1).saturating_mul(per);
            format!("{}:{:02}", t / 60, t % 60)
        })
    }

    /// Remaining duration in words, for chips.
    pub fn remaining(&self, a: &Active) -> String {
        match a.dur {
            Duration::Removed => match a
                .parent
                .and_then(|p| self.conditions.iter().find(|x| x.cid == p))
            {
                Some(p) => format!("from {}", p.name),
                None => String::new(),
            },
            Duration::Start { who, n } => turns(n, "start", self.name(who)),
            Duration::End { who, n } => turns(n, "end", self.name(who)),
            Duration::Round { n: 1 } => "to round end".into(),
            Duration::Round { n } => format!("{n} rounds"),
        }
    }
}

/// Whether a time left as [`State::remaining`] writes it is counted in a combatant's turns
/// ("to end of Asa’s turn", "2 turns (start of Asa’s)"): that fight's own seconds, which mean
/// nothing in another fight (and lapse when it ends, [`State::ending`]).
pub fn turn_bound(left: &str) -> bool {
    left.ends_with("’s turn") || left.ends_with("’s)")
}

fn turns(n: u32, edge: &str, name: &str) -> String {
    if n == 1 {
        format!("to {edge} of {name}’s turn")
    } else {
        format!("{n} turns ({edge} of {name}’s)")
    }
}

fn join_keys(keys: &[i32]) -> String {
    keys.iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(" / ")
}

fn join_rolls(rolls: &[u32]) -> String {
    if rolls.is_empty() {
        return "–".into();
    }
    rolls
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
