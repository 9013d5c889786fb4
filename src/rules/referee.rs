//! Every refereed intent of every system, as one value that travels (a player's request carries
//! it with its dice): [`Intent`], what it may be now ([`offers`]) and the one maker of its
//! events ([`resolve`]). Each system's own actions and rules are in its module's `referee.rs`;
//! the turn actions all systems share are in `encounter::referee`.

use crate::rules::dice::DiceSource;
use crate::rules::encounter::referee::{
    resolve_turn, turn_offers, Offer, Replay, Rolled, Turn, MAX_DICE,
};
use crate::rules::encounter::{Event, State};
use crate::rules::heimr::combat::Defence;
use crate::rules::{aura, heimr, symbaroum, tempo, vogt};

/// What a combatant intends, in any system's fight. On the wire a list of numbers
/// ([`Intent::code`]: its kind, then its choices): no serde code of its own on the phone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    Turn(Turn),
    Symbaroum(symbaroum::referee::Action),
    Vogt(vogt::referee::Action),
    Heimr(heimr::referee::Action),
    Tempo(tempo::referee::Action),
    Aura(aura::referee::Action),
}

impl Intent {
    /// The intent as the wire carries it: its kind, then its choices.
    pub fn code(&self) -> Vec<u32> {
        use symbaroum::referee::Action as S;
        use vogt::referee::{Action as V, Plan};
        let mut v: Vec<u32> = Vec::with_capacity(4);
        let plan = |v: &mut Vec<u32>, p: &Plan| match *p {
            Plan::Attack(i) => v.extend([0, i]),
            Plan::Technique(n) => v.extend([1, n]),
            Plan::Defend => v.push(2),
            Plan::Help => v.push(3),
            Plan::Run => v.push(4),
        };
        let strike = |v: &mut Vec<u32>, st: &symbaroum::referee::Strike| {
            v.extend([st.target, st.weapon]);
        };
        match self {
            Intent::Turn(Turn::End) => v.push(0),
            Intent::Turn(Turn::WaitLast) => v.push(1),
            Intent::Turn(Turn::Before(id)) => v.extend([2, *id]),
            Intent::Symbaroum(S::StandUp) => v.push(100),
            Intent::Symbaroum(S::DeathTest) => v.push(101),
            Intent::Symbaroum(S::Attack(st)) => {
                v.push(102);
                strike(&mut v, st);
            }
            Intent::Symbaroum(S::FreeAttack(st)) => {
                v.push(103);
                strike(&mut v, st);
            }
            Intent::Symbaroum(S::Pain(knock)) => v.extend([104, u32::from(*knock)]),
            Intent::Symbaroum(S::Leave(past)) => v.extend([105, u32::from(*past)]),
            Intent::Symbaroum(S::Aid { target, kind }) => v.extend([106, *target, *kind as u32]),
            Intent::Symbaroum(S::Draw(i)) => v.extend([107, *i]),
            Intent::Symbaroum(S::GoAround) => v.push(108),
            Intent::Vogt(V::Declare(p)) => {
                v.push(200);
                plan(&mut v, p);
            }
            Intent::Vogt(V::Reevaluate(p)) => {
                v.push(201);
                plan(&mut v, p);
            }
            Intent::Vogt(V::Attack {
                weapon,
                extra,
                targets,
            }) => {
                v.extend([202, *weapon, *extra as u32]);
                v.extend_from_slice(targets);
            }
            Intent::Vogt(V::Technique {
                dtype,
                extra,
                targets,
            }) => {
                v.extend([203, *dtype, *extra as u32]);
                v.extend_from_slice(targets);
            }
            Intent::Vogt(V::Break(k)) => v.extend([208, *k]),
            Intent::Vogt(V::UseTechnique) => v.push(209),
            Intent::Vogt(V::Defend) => v.push(204),
            Intent::Vogt(V::Run) => v.push(205),
            Intent::Vogt(V::Help(t)) => v.extend([206, *t]),
            Intent::Vogt(V::Table) => v.push(207),
            Intent::Vogt(V::Tie(o)) => v.extend([210, *o]),
            Intent::Heimr(h) => {
                use heimr::referee::Action as H;
                match h {
                    H::Ready(d) => v.extend([300, *d as u32]),
                    H::Act(i) => v.extend([301, *i]),
                    H::Guard(w) => v.extend([302, *w]),
                    H::Trigger => v.push(303),
                    H::Attack(st) => {
                        let flags = u32::from(st.luck)
                            | u32::from(st.hiding) << 1
                            | u32::from(st.blind) << 2;
                        v.extend([304, st.target, st.kind, st.part, flags]);
                        v.extend(
                            [
                                st.distance,
                                st.height,
                                st.concealment,
                                st.c_bonus,
                                st.p_bonus,
                            ]
                            .map(|x| x as u32),
                        );
                        v.extend_from_slice(&st.cluster);
                    }
                    H::Stabilise => v.push(305),
                    H::Undefended => v.push(309),
                    H::Effect { effect, bind, n } => v.extend([306, *effect, *bind, *n]),
                    H::Fall { height, jumped } => v.extend([307, *height, u32::from(*jumped)]),
                    H::TakeUp {
                        weapon,
                        shield,
                        ability,
                        off,
                    } => v.extend([308, *weapon, *shield, *ability, *off]),
                    H::Release => v.push(310),
                    H::Reopen => v.push(311),
                    H::Chase { target, distance } => v.extend([320, *target, *distance]),
                    H::ChaseRoll { c, p, qc, qp } => {
                        v.push(321);
                        v.extend([c, p, qc, qp].map(|x| *x as u32));
                    }
                    H::ChaseEnd => v.push(322),
                }
            }
            Intent::Tempo(t) => {
                use tempo::referee::Action as T;
                match *t {
                    T::Answer(r) => v.extend([400, r.map_or(0, |r| r + 1)]),
                    T::Declare { action, target } => v.extend([401, action, target]),
                    T::Exchange {
                        action,
                        target,
                        replacement,
                    } => v.extend([402, action, target, replacement]),
                    T::Prepared => v.push(403),
                    T::Rearm => v.push(404),
                }
            }
            Intent::Aura(a) => {
                use aura::referee::Action as A;
                match *a {
                    A::Act(i) => v.extend([500, i]),
                    A::Swap => v.push(501),
                    A::Initiative(o) => v.extend([502, o]),
                    A::Attack(x) => {
                        let m = &x.aim;
                        let flags = u32::from(x.behind)
                            | u32::from(x.swift) << 1
                            | u32::from(x.passing) << 2
                            | u32::from(m.resists) << 3
                            | u32::from(m.weak) << 4
                            | u32::from(m.try_nl) << 5
                            | u32::from(m.on_the_move) << 6
                            | u32::from(m.fling) << 7;
                        v.extend([503, x.target, x.with, flags, x.enhance]);
                        v.extend([m.my_edge, m.size, m.moving, m.band, m.widen, m.maneuver]);
                    }
                    A::Escape => v.push(504),
                    A::LetGo => v.push(505),
                    A::DeathRoll => v.push(506),
                    A::DeathSave => v.push(507),
                    A::Wake => v.push(508),
                    A::GainAura(n) => v.extend([509, n]),
                    A::Wield(k) => v.extend([510, k]),
                    A::KeepInitiative(keep) => v.extend([511, u32::from(keep)]),
                }
            }
        }
        v
    }

    /// The other combatants it names (targets, the one helped, the one to act before): a
    /// player's request may name only those the player sees.
    pub fn names(&self) -> Vec<u32> {
        use symbaroum::referee::Action as S;
        use vogt::referee::Action as V;
        match self {
            Intent::Turn(Turn::Before(id))
            | Intent::Vogt(V::Help(id))
            | Intent::Vogt(V::Tie(id)) => vec![*id],
            Intent::Symbaroum(S::Attack(st) | S::FreeAttack(st)) => vec![st.target],
            Intent::Symbaroum(S::Aid { target, .. }) => vec![*target],
            Intent::Vogt(V::Attack { targets, .. } | V::Technique { targets, .. }) => {
                targets.clone()
            }
            Intent::Heimr(heimr::referee::Action::Attack(st)) => {
                let mut v = vec![st.target];
                v.extend_from_slice(&st.cluster);
                v
            }
            Intent::Heimr(heimr::referee::Action::Guard(w)) if *w > 0 => vec![*w],
            Intent::Heimr(heimr::referee::Action::Chase { target, .. }) => vec![*target],
            Intent::Tempo(
                tempo::referee::Action::Declare { target, .. }
                | tempo::referee::Action::Exchange { target, .. },
            ) if *target > 0 => vec![*target],
            Intent::Aura(aura::referee::Action::Initiative(o)) => vec![*o],
            Intent::Aura(aura::referee::Action::Attack(x)) if x.target > 0 => vec![x.target],
            _ => Vec::new(),
        }
    }

    /// The facts of the situation it proposes that the fight cannot know (a distance, a
    /// height, cover, a bonus the situation gives): the GM's to decide. A player's request
    /// carries them as proposed; the GM's phone shows each beside its default and may change
    /// them before accepting ([`Intent::with_facts`]). Everything the fight holds is read from
    /// the fight by `resolve`, never from here.
    pub fn facts(&self) -> Vec<Fact> {
        match self {
            Intent::Heimr(heimr::referee::Action::Attack(st)) => vec![
                Fact::new("Distance (turns of movement)", st.distance, 0, 0, 50),
                Fact::new("Height (−1 below, +1 above)", st.height, 0, -1, 1),
                Fact::new("Target’s concealment", st.concealment, 0, 0, 10),
                Fact::new("Other C", st.c_bonus, 0, -20, 20),
                Fact::new("Other P", st.p_bonus, 0, -20, 20),
            ],
            _ => Vec::new(),
        }
    }

    /// The intent with its facts set to `values` (in the order of [`Intent::facts`], each
    /// kept within its range); the same intent when there are none.
    pub fn with_facts(&self, values: &[i32]) -> Intent {
        let facts = self.facts();
        let v = |i: usize| {
            facts.get(i).map(|f| {
                values
                    .get(i)
                    .copied()
                    .unwrap_or(f.value)
                    .clamp(f.min, f.max)
            })
        };
        match self {
            Intent::Heimr(heimr::referee::Action::Attack(st)) => {
                let mut st = st.clone();
                st.distance = v(0).unwrap_or(st.distance);
                st.height = v(1).unwrap_or(st.height);
                st.concealment = v(2).unwrap_or(st.concealment);
                st.c_bonus = v(3).unwrap_or(st.c_bonus);
                st.p_bonus = v(4).unwrap_or(st.p_bonus);
                Intent::Heimr(heimr::referee::Action::Attack(st))
            }
            i => i.clone(),
        }
    }

    /// Whether it is the GM's to do, never a player's request: what a combatant does not choose
    /// but the situation or the GM decides (an effect that befalls it, a fall, an injury
    /// reopening, its stabilising by others, the start of a chase, aura gained by a surge or a
    /// spell). A player's phone shows it refused ([`player_offers`]) and the GM's phone refuses
    /// it in a request (`storage::table`).
    /// Energy / Aura's: gaining aura and the wake roll (`aura::referee::Action::gm_only`).
    pub fn gm_only(&self) -> bool {
        use heimr::referee::Action as H;
        matches!(
            self,
            Intent::Heimr(
                H::Effect { .. } | H::Fall { .. } | H::Reopen | H::Stabilise | H::Chase { .. }
            ) | Intent::Vogt(vogt::referee::Action::Tie(_))
        ) || matches!(self, Intent::Aura(a) if a.gm_only())
    }

    /// Whether it is chosen among many (targets, a weapon, the one helped): one offer stands
    /// for every choice of its kind.
    pub fn picks(&self) -> bool {
        match self {
            Intent::Vogt(a) => a.picks(),
            Intent::Symbaroum(a) => a.picks(),
            Intent::Heimr(a) => a.picks(),
            Intent::Aura(a) => a.picks(),
            _ => false,
        }
    }

    /// The intent a code names; `None` for one this version does not know (or with choices
    /// left over).
    pub fn from_code(code: &[u32]) -> Option<Intent> {
        use aura::referee::Action as A;
        use heimr::referee::Action as H;
        use symbaroum::referee::Action as S;
        use tempo::referee::Action as T;
        use vogt::referee::{Action as V, Plan};
        let plan = |rest: &[u32]| {
            Some(match *rest {
                [0, i] => Plan::Attack(i),
                [1, n] => Plan::Technique(n),
                [2] => Plan::Defend,
                [3] => Plan::Help,
                [4] => Plan::Run,
                _ => return None,
            })
        };
        let strike = |rest: &[u32]| match *rest {
            // The target and the weapon only: the advantage and who cannot see are the
            // fight's, so a code that would carry them is not this version's.
            [target, weapon] => Some(symbaroum::referee::Strike { target, weapon }),
            _ => None,
        };
        let (&kind, rest) = code.split_first()?;
        Some(match (kind, rest) {
            (0, []) => Intent::Turn(Turn::End),
            (1, []) => Intent::Turn(Turn::WaitLast),
            (2, &[id]) => Intent::Turn(Turn::Before(id)),
            (100, []) => Intent::Symbaroum(S::StandUp),
            (101, []) => Intent::Symbaroum(S::DeathTest),
            (102, rest) => Intent::Symbaroum(S::Attack(strike(rest)?)),
            (103, rest) => Intent::Symbaroum(S::FreeAttack(strike(rest)?)),
            (104, &[k]) if k < 2 => Intent::Symbaroum(S::Pain(k == 1)),
            (105, &[k]) if k < 2 => Intent::Symbaroum(S::Leave(k == 1)),
            (106, &[target, k]) => Intent::Symbaroum(S::Aid {
                target,
                kind: *symbaroum::referee::Aid::ALL.get(k as usize)?,
            }),
            (107, &[i]) => Intent::Symbaroum(S::Draw(i)),
            (108, []) => Intent::Symbaroum(S::GoAround),
            (200, rest) => Intent::Vogt(V::Declare(plan(rest)?)),
            (201, rest) => Intent::Vogt(V::Reevaluate(plan(rest)?)),
            (202, [weapon, extra, targets @ ..]) => Intent::Vogt(V::Attack {
                weapon: *weapon,
                extra: *extra as i32,
                targets: targets.to_vec(),
            }),
            (203, [dtype, extra, targets @ ..]) => Intent::Vogt(V::Technique {
                dtype: *dtype,
                extra: *extra as i32,
                targets: targets.to_vec(),
            }),
            (208, &[k]) => Intent::Vogt(V::Break(k)),
            (209, []) => Intent::Vogt(V::UseTechnique),
            (204, []) => Intent::Vogt(V::Defend),
            (205, []) => Intent::Vogt(V::Run),
            (206, &[t]) => Intent::Vogt(V::Help(t)),
            (207, []) => Intent::Vogt(V::Table),
            (210, &[o]) => Intent::Vogt(V::Tie(o)),
            (400, &[r]) => Intent::Tempo(T::Answer(r.checked_sub(1))),
            (401, &[action, target]) => Intent::Tempo(T::Declare { action, target }),
            (402, &[action, target, replacement]) => Intent::Tempo(T::Exchange {
                action,
                target,
                replacement,
            }),
            (403, []) => Intent::Tempo(T::Prepared),
            (404, []) => Intent::Tempo(T::Rearm),
            (300, &[d]) => Intent::Heimr(H::Ready(Defence::from_stat(i32::try_from(d).ok()?)?)),
            (301, &[i]) => Intent::Heimr(H::Act(i)),
            (302, &[w]) => Intent::Heimr(H::Guard(w)),
            (303, []) => Intent::Heimr(H::Trigger),
            (304, [target, kind, part, flags, d, h, c, cb, pb, cluster @ ..]) if *flags < 8 => {
                Intent::Heimr(H::Attack(heimr::strike::Strike {
                    target: *target,
                    kind: *kind,
                    part: *part,
                    distance: *d as i32,
                    height: *h as i32,
                    concealment: *c as i32,
                    c_bonus: *cb as i32,
                    p_bonus: *pb as i32,
                    luck: flags & 1 != 0,
                    hiding: flags & 2 != 0,
                    blind: flags & 4 != 0,
                    cluster: cluster.to_vec(),
                }))
            }
            (305, []) => Intent::Heimr(H::Stabilise),
            (309, []) => Intent::Heimr(H::Undefended),
            (306, &[effect, bind, n]) => Intent::Heimr(H::Effect { effect, bind, n }),
            (307, &[height, j]) if j < 2 => Intent::Heimr(H::Fall {
                height,
                jumped: j == 1,
            }),
            (308, &[weapon, shield, ability, off]) => Intent::Heimr(H::TakeUp {
                weapon,
                shield,
                ability,
                off,
            }),
            (310, []) => Intent::Heimr(H::Release),
            (311, []) => Intent::Heimr(H::Reopen),
            (320, &[target, distance]) => Intent::Heimr(H::Chase { target, distance }),
            (321, &[c, p, qc, qp]) => Intent::Heimr(H::ChaseRoll {
                c: c as i32,
                p: p as i32,
                qc: qc as i32,
                qp: qp as i32,
            }),
            (322, []) => Intent::Heimr(H::ChaseEnd),
            (500, &[i]) => Intent::Aura(A::Act(i)),
            (501, []) => Intent::Aura(A::Swap),
            (502, &[o]) => Intent::Aura(A::Initiative(o)),
            (
                503,
                &[target, with, flags, enhance, my_edge, size, moving, band, widen, maneuver],
            ) if flags < 256 => Intent::Aura(A::Attack(aura::strike::FightAttack {
                target,
                with,
                behind: flags & 1 != 0,
                swift: flags & 2 != 0,
                passing: flags & 4 != 0,
                enhance,
                aim: aura::strike::Aim {
                    my_edge,
                    resists: flags & 8 != 0,
                    weak: flags & 16 != 0,
                    size,
                    moving,
                    band,
                    widen,
                    maneuver,
                    try_nl: flags & 32 != 0,
                    on_the_move: flags & 64 != 0,
                    fling: flags & 128 != 0,
                },
            })),
            (504, []) => Intent::Aura(A::Escape),
            (505, []) => Intent::Aura(A::LetGo),
            (506, []) => Intent::Aura(A::DeathRoll),
            (507, []) => Intent::Aura(A::DeathSave),
            (508, []) => Intent::Aura(A::Wake),
            (509, &[n]) => Intent::Aura(A::GainAura(n)),
            (510, &[k]) if k > 0 => Intent::Aura(A::Wield(k)),
            (511, &[k]) if k < 2 => Intent::Aura(A::KeepInitiative(k == 1)),
            _ => return None,
        })
    }
}

/// The fight's events for `intent` of `who`, its dice rolled from `dice`; or the rules' reason
/// it cannot be now. A system's intent in another system's fight is refused.
pub fn resolve(
    s: &State,
    who: u32,
    intent: &Intent,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    match intent {
        Intent::Turn(t) => resolve_turn(s, who, *t),
        Intent::Symbaroum(a) if s.rules.system == "symbaroum" => {
            symbaroum::referee::resolve(s, who, *a, dice)
        }
        Intent::Vogt(a) if s.rules.system == "vogt" => vogt::referee::resolve(s, who, a, dice),
        Intent::Heimr(a) if s.rules.system == "heimr" => heimr::referee::resolve(s, who, a, dice),
        Intent::Tempo(a) if s.rules.system == "tempo" => tempo::referee::resolve(s, who, *a, dice),
        Intent::Aura(a) if s.rules.system == "aura" => aura::referee::resolve(s, who, *a, dice),
        _ => Err("an action of another game’s rules".into()),
    }
}

/// [`resolve`] with dice rolled on another phone: refused unless they are exactly the dice the
/// action rolls (their number, their faces, values on the die).
/// A rule's refusal is said before any fault of the dice.
pub fn resolve_rolled(
    s: &State,
    who: u32,
    intent: &Intent,
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

/// The dice a player's phone sent for `intent`, topped up from `rest` (the GM's phone's own
/// dice) where the roll on the GM's fight takes more: a roll the player's phone could not know
/// of, because what it depends on is hidden from it (a holder whose numbers the GM keeps, its
/// edge). The dice sent stay first and as they are ([`resolve_rolled`] still checks them); a
/// die is only ever added after the last one sent, so a phone gains nothing by sending fewer.
pub fn topped_up(
    s: &State,
    who: u32,
    intent: &Intent,
    rolled: &Rolled,
    rest: &mut dyn DiceSource,
) -> Rolled {
    struct Topped<'a> {
        given: &'a [(u32, u32)],
        rest: &'a mut dyn DiceSource,
        out: Rolled,
    }
    impl DiceSource for Topped<'_> {
        fn next_u32(&mut self) -> u32 {
            self.rest.next_u32()
        }
        fn roll(&mut self, sides: u32) -> u32 {
            let at = self.out.len();
            let v = match self.given.get(at) {
                // A die sent: kept as sent (a wrong one is refused by the replay after).
                Some(&(f, v)) => {
                    self.out.push((f, v));
                    return if f == sides && (1..=f).contains(&v) {
                        v
                    } else {
                        1
                    };
                }
                None => self.rest.roll(sides),
            };
            self.out.push((sides, v));
            v
        }
    }
    if rolled.len() > MAX_DICE {
        return rolled.clone();
    }
    let mut t = Topped {
        given: rolled,
        rest,
        out: Vec::with_capacity(rolled.len()),
    };
    if resolve(s, who, intent, &mut t).is_err() || t.out.len() < rolled.len() {
        return rolled.clone();
    }
    t.out
}

/// A fact of the situation an intent proposes ([`Intent::facts`]): its name, the value
/// proposed, the value it has when nobody says otherwise, and its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fact {
    pub label: &'static str,
    pub value: i32,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

impl Fact {
    const fn new(label: &'static str, value: i32, default: i32, min: i32, max: i32) -> Fact {
        Fact {
            label,
            value,
            default,
            min,
            max,
        }
    }
}

/// The dice of a request fitted to `intent` as the GM decided it (its facts changed after the
/// player's phone rolled): the dice sent are used in order while each is a die of the faces the
/// roll asks for; where the roll asks for another die or more dice, the GM's phone rolls them
/// from `rest`; dice left over are dropped. The same dice when nothing changed.
pub fn fitted(
    s: &State,
    who: u32,
    intent: &Intent,
    rolled: &Rolled,
    rest: &mut dyn DiceSource,
) -> Rolled {
    struct Fit<'a> {
        given: &'a [(u32, u32)],
        matching: bool,
        rest: &'a mut dyn DiceSource,
        out: Rolled,
    }
    impl DiceSource for Fit<'_> {
        fn next_u32(&mut self) -> u32 {
            self.rest.next_u32()
        }
        fn roll(&mut self, sides: u32) -> u32 {
            let at = self.out.len();
            let v = match self.given.get(at) {
                Some(&(f, v)) if self.matching && f == sides && (1..=f).contains(&v) => v,
                _ => {
                    // From the first die that does not fit on, the GM's phone rolls.
                    self.matching = false;
                    self.rest.roll(sides)
                }
            };
            self.out.push((sides, v));
            v
        }
    }
    if rolled.len() > MAX_DICE {
        return rolled.clone();
    }
    let mut f = Fit {
        given: rolled,
        matching: true,
        rest,
        out: Vec::with_capacity(rolled.len()),
    };
    match resolve(s, who, intent, &mut f) {
        Ok(_) => f.out,
        Err(_) => rolled.clone(),
    }
}

/// [`offers`] as a player's phone shows them: the GM's tools ([`Intent::gm_only`]) refused with
/// the reason, whatever the rules would allow.
pub fn player_offers(s: &State, who: u32) -> Vec<Offer> {
    let mut out = offers(s, who);
    for o in &mut out {
        if o.action.gm_only() {
            o.refused = Some(GM_ONLY.into());
        }
    }
    out
}

/// In place of a chance that would show numbers the GM keeps.
pub const GM_ODDS: &str = "Odds known to the GM: the roll is checked on the GM’s phone";

/// Why a player cannot ask for a GM's tool.
pub const GM_ONLY: &str = "the GM’s to decide: ask at the table";

/// Every refereed action `who` could take now in fight `s`: its system's own, then the turn
/// actions every system shares; each allowed (with cost and odds) or not and why.
pub fn offers(s: &State, who: u32) -> Vec<Offer> {
    let mut out = match s.rules.system {
        "symbaroum" => symbaroum::referee::offers(s, who),
        "vogt" => vogt::referee::offers(s, who),
        "heimr" => heimr::referee::offers(s, who),
        "tempo" => tempo::referee::offers(s, who),
        "aura" => aura::referee::offers(s, who),
        _ => Vec::new(),
    };
    out.extend(turn_offers(s, who));
    out
}
