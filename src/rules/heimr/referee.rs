//! Heimr's referee (see `encounter::referee`). So far: readying a defence, the one a defender
//! may roll out of its turn (seed 000: pre-roll it "preferably at the end of your turn, and as
//! soon as you've used your last"). A shown defence stands until an attack uses it or its
//! owner's next turn begins (`CombatRules::lapse`); it is never rolled again meanwhile. The
//! attack, guarding and the rest still come from the panel (issue 40).

use super::challenge::roll_challenge;
use super::combat::{defence_events, defence_setup, shown, Defence, Shown};
use crate::rules::dice::DiceSource;
use crate::rules::encounter::referee::{check, Offer};
use crate::rules::encounter::{Event, State};
use crate::rules::referee::Intent;

/// What a Heimr combatant can intend in its fight (so far).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Roll this defence ahead: attackers see it until it is used.
    Ready(Defence),
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
    Defence::ALL
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
            Offer {
                action: Intent::Heimr(Action::Ready(d)),
                label,
                cost: "",
                odds: None,
                refused,
            }
        })
        .collect()
}

/// The one maker of a Heimr action's events: refuses what [`offers`] refuses (same reason) and
/// rolls its dice from `dice`.
pub fn resolve(
    s: &State,
    who: u32,
    action: Action,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    check(&offers(s, who), &Intent::Heimr(action))?;
    match action {
        Action::Ready(d) => {
            let st = defence_setup(s, who, d)?;
            let r = roll_challenge(st.c.value, st.p.value, dice);
            Ok(defence_events(s, who, d, &r))
        }
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
            Action::Ready(d),
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
            .all(|o| o.refused.as_deref() == Some(why)));
        // The dice of a C 1 roll: a d6 and one d10, nothing else.
        use crate::rules::encounter::referee::replayed;
        let r = |d: &[(u32, u32)]| {
            replayed(d, |src| {
                resolve(&s, other, Action::Ready(Defence::Dodge), src)
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
}
