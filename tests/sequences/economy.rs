//! The action economy holds in every order (issue 54 §3). Per system, random fights driven only
//! by what the referee allows: every action `offers` allows of any combatant (in its turn or
//! out of it: reactions, waits, answers), in random order, with the GM's start and next turn
//! between. After every step:
//! - no combatant begins a second turn in a round;
//! - no turn pool is spent below empty (but the counters and credit the rules allow:
//!   `may_go_negative`);
//! - a once-a-turn or once-a-round roll is taken once (Symbaroum's death test in each of its
//!   turns, Aura's death save in each round), whichever way it was asked;
//! - what the rules allow is taken, with exactly its dice, and what they refuse is refused.

use crate::common::config;
use proptest::prelude::*;
use proptest_state_machine::{prop_state_machine, ReferenceStateMachine, StateMachineTest};
use rollsheet::rules::dice::SeededSource;
use rollsheet::rules::encounter::{rules_for, Combatant, Encounter, Event, State};
use rollsheet::rules::referee::{self, Intent};
use rollsheet::storage::agree;
use rollsheet::storage::character::Character;
use std::marker::PhantomData;

pub trait Sys: 'static {
    const SYSTEM: &'static str;
    fn fixture() -> &'static str;
}

macro_rules! sys {
    ($t:ident, $s:literal, $f:literal) => {
        pub struct $t;
        impl Sys for $t {
            const SYSTEM: &'static str = $s;
            fn fixture() -> &'static str {
                include_str!(concat!("../fixtures/", $f))
            }
        }
    };
}

sys!(Heimr, "heimr", "character-heimr-v1.json");
sys!(Symbaroum, "symbaroum", "character-symbaroum-v1.json");
sys!(Vogt, "vogt", "character-vogt-v1.json");
sys!(Aura, "aura", "character-aura-v1.json");
sys!(Tempo, "tempo", "character-tempo-v1.json");

#[derive(Clone, Debug)]
pub enum Op {
    Join,
    Npcs(usize, i32),
    Start,
    Next,
    /// The k-th allowed offer of the i-th combatant, seeded dice.
    Intend(usize, usize, u64),
}

/// A fight and what happened in it so far: each turn acted in (round, who) and each once-only
/// roll taken (round, whose turn, who, kind).
#[derive(Clone, Debug)]
pub struct Run {
    enc: Encounter,
    state: State,
    turns: Vec<(u32, u32)>,
    once: Vec<(u32, Option<u32>, u32, u32)>,
    joined: usize,
}

/// The intents a combatant may take once a turn (its own) or once a round: their wire kinds.
fn once_kind(system: &str, i: &Intent) -> Option<(u32, bool)> {
    let kind = i.code()[0];
    match (system, kind) {
        // Symbaroum's death test: once in each of its turns.
        ("symbaroum", 101) => Some((kind, true)),
        // Aura's death save: once a round.
        ("aura", 507) => Some((kind, false)),
        _ => None,
    }
}

fn live(s: &State) -> Vec<u32> {
    s.combatants
        .iter()
        .filter(|c| !c.gone)
        .map(|c| c.id)
        .collect()
}

fn step<S: Sys>(r: &Run, op: &Op) -> Run {
    let mut next = r.clone();
    let s = &next.state;
    let mut taken: Option<(u32, Intent)> = None;
    let event = match op {
        Op::Join => {
            let mut c: Character = serde_json::from_str(S::fixture()).unwrap();
            c.id = format!("c{}", next.joined);
            c.rename(&format!("Hero {}", next.joined));
            next.joined += 1;
            agree::join_event(&c, s)
        }
        Op::Npcs(n, hp) => {
            let names = s.numbered("Foe", *n);
            Some(Event::Group(
                names
                    .iter()
                    .map(|x| Combatant::new(s.rules, x.clone(), *hp))
                    .collect(),
            ))
        }
        Op::Start => (s.round == 0 && !s.combatants.is_empty()).then_some(Event::Start),
        Op::Next => (s.round > 0 && !s.ended).then_some(Event::Next),
        Op::Intend(i, k, seed) => {
            let ids = live(s);
            (!ids.is_empty())
                .then(|| ids[i % ids.len()])
                .and_then(|who| {
                    let allowed: Vec<_> = referee::offers(s, who)
                        .into_iter()
                        .filter(|o| o.allowed())
                        .collect();
                    let o = allowed.get(k % allowed.len().max(1))?;
                    let action = crate::encounters::concrete_pub(s, who, &o.action, *k)?;
                    let made = referee::resolve(s, who, &action, &mut SeededSource::new(*seed));
                    // One offer stands for every choice of its kind (a target, a weapon): a
                    // choice may be refused for its own reason, changing nothing.
                    let made = match made {
                        Err(_) if o.action.picks() => return None,
                        m => m.unwrap_or_else(|w| panic!("{action:?} offered, refused: {w}")),
                    };
                    taken = Some((who, action));
                    Some(made)
                })
        }
    };
    if let Some(e) = event {
        let before = (next.state.round, next.state.current);
        next.enc.push(e, &mut next.state, 1);
        let after = (next.state.round, next.state.current);
        // Acting in one's own turn uses it: a later turn in the same round would be a second
        // (a wait or delay before acting only moves the turn).
        if let Some((who, i)) = &taken {
            if !matches!(i, Intent::Turn(_)) && before.1 == Some(*who) && before.0 > 0 {
                next.turns.push((before.0, *who));
            }
        }
        if let (true, (round, Some(who))) = (after != before, after) {
            assert!(
                !next.turns.contains(&(round, who)),
                "{} begins a second turn in round {round} after acting in one ({op:?})",
                next.state.name(who)
            );
        }
        if let Some((who, i)) = taken {
            if let Some((kind, own_turn)) = once_kind(S::SYSTEM, &i) {
                let key = (before.0, if own_turn { before.1 } else { None }, who, kind);
                assert!(
                    !next.once.contains(&key),
                    "{i:?} taken twice by {} in one {}",
                    next.state.name(who),
                    if own_turn { "turn" } else { "round" }
                );
                next.once.push(key);
            }
        }
    }
    // No pool below empty, but those the rules keep as counters or credit (`may_go_negative`:
    // Heimr's defences used, Tempo's action points on credit).
    let defs = next.state.rules.resources;
    for c in &next.state.combatants {
        for (i, &p) in c.pools.iter().enumerate() {
            let counter = defs.get(i).is_none_or(|d| d.may_go_negative);
            assert!(
                counter || p >= 0,
                "{} spent beyond its {}: {:?} ({op:?})",
                c.name,
                defs[i].name,
                c.pools
            );
        }
    }
    next
}

pub struct Machine<S>(PhantomData<S>);

impl<S: Sys> ReferenceStateMachine for Machine<S> {
    type State = Run;
    type Transition = Op;

    fn init_state() -> BoxedStrategy<Run> {
        let enc = Encounter::new("e".into(), "Fight".into(), S::SYSTEM, 0).unwrap();
        let state = enc.state();
        Just(Run {
            enc,
            state,
            turns: Vec::new(),
            once: Vec::new(),
            joined: 0,
        })
        .boxed()
    }

    fn transitions(r: &Run) -> BoxedStrategy<Op> {
        let n = r.state.combatants.len() + 1;
        prop_oneof![
            2 => Just(Op::Join),
            2 => (1usize..4, 1i32..30).prop_map(|(n, hp)| Op::Npcs(n, hp)),
            2 => Just(Op::Start),
            2 => Just(Op::Next),
            14 => (0..n, 0usize..12, any::<u64>()).prop_map(|(i, k, s)| Op::Intend(i, k, s)),
        ]
        .boxed()
    }

    fn apply(r: Run, op: &Op) -> Run {
        step::<S>(&r, op)
    }
}

pub struct Checked<S>(PhantomData<S>);

impl<S: Sys> StateMachineTest for Checked<S> {
    type SystemUnderTest = ();
    type Reference = Machine<S>;

    fn init_test(_: &Run) {
        assert!(rules_for(S::SYSTEM).is_some());
    }

    fn apply(_: (), r: &Run, _: Op) {
        // Every offer with a chance shows the chance its resolution has (§4), here too.
        let pick = |s: &State, who: u32, i: &Intent| {
            crate::encounters::concrete_pub(s, who, i, r.turns.len() + r.once.len())
        };
        crate::odds::check_odds(&r.state, pick);
        if S::SYSTEM == "symbaroum" {
            crate::odds::check_symbaroum_previews(&r.state, pick);
        }
        if S::SYSTEM == "heimr" && r.state.log.len() % 2 == 0 {
            crate::odds::check_heimr_previews(&r.state, pick);
        }
    }
}

/// A fifth of the sequences of the other machines (each step walks every offer's dice).
fn economy_config() -> proptest::test_runner::Config {
    let c = config();
    proptest::test_runner::Config {
        cases: (c.cases / 5).max(20),
        ..c
    }
}

prop_state_machine! {
    #![proptest_config(economy_config())]
    #[test]
    fn heimr_action_economy_holds_in_every_order(sequential 1..80 => Checked<Heimr>);
    #[test]
    fn symbaroum_action_economy_holds_in_every_order(sequential 1..80 => Checked<Symbaroum>);
    #[test]
    fn vogt_action_economy_holds_in_every_order(sequential 1..80 => Checked<Vogt>);
    #[test]
    fn aura_action_economy_holds_in_every_order(sequential 1..80 => Checked<Aura>);
    #[test]
    fn tempo_action_economy_holds_in_every_order(sequential 1..80 => Checked<Tempo>);
}
