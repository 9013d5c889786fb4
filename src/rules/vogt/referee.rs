//! Bo Vogt's referee: what a combatant may do now and the one maker of its events (see
//! `encounter::referee`). Each round opens with every combatant declaring its action (from its
//! own phone at the table); on its turn it takes that one action, or reevaluates to another
//! first. An unconscious combatant takes none. The death and dismemberment roll is made
//! whenever one is due, in anyone's turn.

use super::combat::{
    self, declared, dismember, hit, reevaluate, unconscious, weapons, TABLE_ROLLS, TECH_DIE,
    TECH_LEFT,
};
use super::ladder::{parse_dice, Dice};
use super::rolls::damage_expr;
use crate::rules::dice::DiceSource;
use crate::rules::encounter::referee::{check, Offer};
use crate::rules::encounter::{Combatant, Event, State};
use crate::rules::referee::Intent;

/// The most technique dice one technique spends (the sheet's limit).
const TECH_MOST: u32 = super::sheet::TECH_LIMIT as u32;
/// The most a typed modifier may add to (or take from) a damage roll.
pub const EXTRA_LIMIT: i32 = 100;
/// The marks a turn's one action leaves (`Event::Use`).
const ACTED: [&str; 5] = ["Attack", "Technique", "Defend", "Run", "Help"];

/// An action to declare for the round, or to reevaluate to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Attack with the combatant's weapon of this index (its die is the initiative).
    Attack(u32),
    /// A technique of this many technique dice.
    Technique(u32),
    Defend,
    Help,
    Run,
}

/// What a Bo Vogt combatant can intend in its fight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// In the declaration phase at the start of a round: the action it will take.
    Declare(Plan),
    /// On its turn, before acting: another action, its die rolled and added to the initiative.
    Reevaluate(Plan),
    /// The declared attack: one damage roll of this weapon (plus STR and `extra`) against
    /// every target.
    Attack {
        weapon: u32,
        extra: i32,
        targets: Vec<u32>,
    },
    /// The declared technique.
    Technique,
    Defend,
    Run,
    /// Help this combatant: advantage on its next check.
    Help(u32),
    /// A roll (d8) on the death and dismemberment table, when one is due.
    Table,
}

impl Action {
    /// Whether it is chosen among many (a target, a weapon): one offer stands for the kind.
    pub fn picks(&self) -> bool {
        matches!(self, Action::Attack { .. } | Action::Help(_))
    }
}

/// The declared action a plan makes for `c`; `None` when `c` has no such weapon or dice.
pub fn plan_action(c: &Combatant, plan: Plan) -> Option<combat::Action> {
    Some(match plan {
        Plan::Attack(i) => {
            let w = weapons(c).into_iter().nth(i as usize)?;
            combat::Action::Attack(parse_dice(&w.damage)?)
        }
        Plan::Technique(n) => {
            let die = c.stat(TECH_DIE);
            if n == 0 || n as i32 > c.stat(TECH_LEFT) || die < 2 {
                return None;
            }
            combat::Action::Technique(Dice::new(n, die as u32))
        }
        Plan::Defend => combat::Action::Defend,
        Plan::Help => combat::Action::Help,
        Plan::Run => combat::Action::Run,
    })
}

/// Every plan `c` can choose: each weapon, a technique of each number of dice it has left,
/// defend, help, run.
pub fn plans(c: &Combatant) -> Vec<Plan> {
    let mut out: Vec<Plan> = (0..weapons(c).len() as u32)
        .map(Plan::Attack)
        .filter(|&p| plan_action(c, p).is_some())
        .collect();
    let left = c.stat(TECH_LEFT).clamp(0, TECH_MOST as i32) as u32;
    out.extend((1..=left).map(Plan::Technique));
    out.extend([Plan::Defend, Plan::Help, Plan::Run]);
    out
}

/// A plan for people: "Attack with Club · 1d6".
pub fn plan_label(c: &Combatant, plan: Plan) -> String {
    let dice = plan_action(c, plan).map_or(String::new(), |a| format!(" · {}", a.dice()));
    match plan {
        Plan::Attack(i) => {
            let name = weapons(c)
                .into_iter()
                .nth(i as usize)
                .map_or_else(String::new, |w| w.name);
            format!("Attack with {name}{dice}")
        }
        Plan::Technique(_) => format!("Technique{dice}"),
        Plan::Defend => format!("Defend (+2 AR){dice}"),
        Plan::Help => format!("Help (advantage){dice}"),
        Plan::Run => format!("Run (double move){dice}"),
    }
}

/// The rolls on the death and dismemberment table `c` has still to make.
pub fn table_due(c: &Combatant) -> i32 {
    if c.dead {
        return 0;
    }
    (c.death as i32 - 3 - c.stat(TABLE_ROLLS)).max(0)
}

/// Whether it is the declaration phase: no turn running (before the first round too).
fn declaring(s: &State) -> bool {
    !s.ended && s.current.is_none()
}

/// Why `who` cannot take an action on its turn now (`None`: it can).
fn not_now(s: &State, c: &Combatant) -> Option<String> {
    if s.ended {
        return Some("the fight is over".into());
    }
    if s.current != Some(c.id) {
        return Some(if declaring(s) {
            "actions are being declared; it acts on its turn".into()
        } else {
            format!("only on {}’s own turn", c.name)
        });
    }
    if unconscious(s, c.id) {
        return Some(format!("{} is unconscious and cannot act", c.name));
    }
    if c.used.iter().any(|u| ACTED.contains(&u.as_str())) {
        return Some(format!("{} has taken this turn’s action", c.name));
    }
    None
}

/// Why the declared action must be `kind` (`None` when it is, or nothing was declared).
fn not_declared(c: &Combatant, kind: i32, what: &str) -> Option<String> {
    let d = declared(c)?;
    (d.code() != kind).then(|| {
        format!(
            "{} declared {} this round; reevaluate to {what} first",
            c.name,
            d.name().to_lowercase()
        )
    })
}

/// Every Bo Vogt action `who` could take now, allowed (with its cost and odds) or not and why.
/// The attack and help stand for every weapon, target and modifier (`Action::picks`).
pub fn offers(s: &State, who: u32) -> Vec<Offer> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    if c.dead || c.gone {
        return Vec::new();
    }
    let mut out = Vec::new();
    let offer =
        |action: Action, label: String, cost: &'static str, refused: Option<String>| Offer {
            action: Intent::Vogt(action),
            label,
            cost,
            odds: None,
            refused,
        };
    if declaring(s) {
        let why = unconscious(s, who)
            .then(|| format!("{} is unconscious: it rolls 10d10 and cannot act", c.name));
        for p in plans(c) {
            out.push(offer(
                Action::Declare(p),
                format!("Declare: {}", plan_label(c, p)),
                "",
                why.clone(),
            ));
        }
    }
    let turn = not_now(s, c);
    if s.current == Some(who) {
        let why = turn
            .clone()
            .or_else(|| c.init.is_empty().then(|| "no initiative rolled yet".into()));
        for p in plans(c) {
            out.push(offer(
                Action::Reevaluate(p),
                format!("Reevaluate: {}", plan_label(c, p)),
                "its die is added to the initiative",
                why.clone(),
            ));
        }
    }
    let kinds: [(Action, &str, i32, &str); 5] = [
        (
            Action::Attack {
                weapon: 0,
                extra: 0,
                targets: Vec::new(),
            },
            "Roll damage and apply",
            1,
            "attack",
        ),
        (Action::Technique, "Use the technique", 2, "a technique"),
        (Action::Defend, "Defend: +2 AR", 3, "defend"),
        (
            Action::Help(0),
            "Help: advantage on their next check",
            4,
            "help",
        ),
        (Action::Run, "Run: double move", 5, "run"),
    ];
    for (action, label, code, what) in kinds {
        let why = turn.clone().or_else(|| not_declared(c, code, what));
        out.push(offer(action, label.into(), "its action this turn", why));
    }
    if c.death >= 4 && !c.dead {
        let why = (table_due(c) == 0).then(|| "no roll on the table is due".to_owned());
        let mut o = offer(
            Action::Table,
            "Roll on the death and dismemberment table (d8)".into(),
            "one roll for each level from 4 on; dies on 6+",
            why,
        );
        o.odds = Some(super::rolls::dismemberment_death());
        out.push(o);
    }
    out
}

/// Whether `t` can be picked as a target or a help by `who`: in the fight, not itself.
fn other(s: &State, who: u32, t: u32) -> Result<(), String> {
    match s.get(t) {
        Some(c) if t != who && !c.dead && !c.gone => Ok(()),
        _ => Err("pick someone else in the fight".into()),
    }
}

/// The one maker of a Bo Vogt action's events: refuses what [`offers`] refuses (same reason)
/// and rolls its dice from `dice` (a phone's own, or a replay of a request's).
pub fn resolve(
    s: &State,
    who: u32,
    action: &Action,
    dice: &mut dyn DiceSource,
) -> Result<Event, String> {
    check(&offers(s, who), &Intent::Vogt(action.clone()))?;
    let c = s.get(who).ok_or("no such combatant")?;
    // The turn's action marked, then its steps (one batch: a batch never holds a batch).
    let with = |what: &str, e: Event| {
        let mut out = vec![Event::Use(who, what.into())];
        match e {
            Event::Batch(list) => out.extend(list),
            e => out.push(e),
        }
        Event::Batch(out)
    };
    Ok(match action {
        Action::Declare(p) => {
            let a = plan_action(c, *p).ok_or("no such action for this combatant")?;
            combat::declare(s, who, a)
        }
        Action::Reevaluate(p) => {
            let a = plan_action(c, *p).ok_or("no such action for this combatant")?;
            reevaluate(s, who, a, dice).ok_or("no initiative rolled yet")?
        }
        Action::Attack {
            weapon,
            extra,
            targets,
        } => {
            let w = weapons(c)
                .into_iter()
                .nth(*weapon as usize)
                .ok_or("no such weapon")?;
            if !(-EXTRA_LIMIT..=EXTRA_LIMIT).contains(extra) {
                return Err(format!("a modifier beyond ±{EXTRA_LIMIT}"));
            }
            if targets.is_empty() {
                return Err("pick at least one target".into());
            }
            let mut seen = Vec::new();
            for &t in targets {
                other(s, who, t)?;
                if seen.contains(&t) {
                    return Err("a target picked twice".into());
                }
                seen.push(t);
            }
            let str_rung = combat::rung(s, who, combat::STR);
            let e = damage_expr(&w.damage, str_rung.saturating_add(*extra))
                .ok_or("the weapon's damage is not dice")?;
            with("Attack", hit(s, who, targets, &e, &w.dtype, dice).0)
        }
        Action::Technique => with(
            "Technique",
            Event::Note(format!(
                "{} uses the technique ({})",
                c.name,
                declared(c).map_or(String::new(), |a| a.dice().to_string())
            )),
        ),
        Action::Defend => with("Defend", combat::defend(who)),
        Action::Run => with("Run", combat::run(who)),
        Action::Help(t) => {
            other(s, who, *t)?;
            with("Help", combat::help(who, *t))
        }
        Action::Table => {
            let d8 = dice.roll(8);
            let mut out = vec![Event::Set(who, TABLE_ROLLS, c.stat(TABLE_ROLLS) + 1)];
            match dismember(s, who, d8).ok_or("no such combatant")? {
                Event::Batch(list) => out.extend(list),
                e => out.push(e),
            }
            Event::Batch(out)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedSource;
    use crate::rules::encounter::referee::replayed;
    use crate::rules::encounter::systems::VOGT;
    use crate::rules::vogt::VogtSheet;

    /// Asa (a saved character: Club 1d6, Greatsword 2d6, two d6 technique dice, STR rung 2)
    /// and a Goblin (1d6, 30 HP); started, in the declaration phase of round 1.
    fn fight() -> State {
        let sheet = VogtSheet {
            items: vec![
                crate::rules::vogt::Item {
                    name: "Club".into(),
                    damage: "1d6".into(),
                    dtype: "blunt".into(),
                    slots: 1,
                    count: 1,
                    per_slot: 1,
                    quick: false,
                },
                crate::rules::vogt::Item {
                    name: "Greatsword".into(),
                    damage: "2d6".into(),
                    dtype: "slash".into(),
                    slots: 1,
                    count: 1,
                    per_slot: 1,
                    quick: false,
                },
            ],
            technique_dice: 2,
            ..VogtSheet::default()
        };
        let mut asa = combat::from_sheet("Asa", &sheet);
        asa.hp = 10;
        let mut gob = Combatant::new(&VOGT, "Goblin", 30);
        gob.texts = vec!["1d6".into(), "slash".into(), String::new(), String::new()];
        State::replay(&VOGT, &[Event::Join(asa), Event::Join(gob), Event::Start])
    }

    fn go(s: &State, who: u32, a: &Action, dice: &[u32]) -> Result<State, String> {
        let e = resolve(s, who, a, &mut ScriptedSource::new(dice.to_vec()))?;
        let mut after = s.clone();
        after.apply(&e);
        Ok(after)
    }

    fn why(s: &State, who: u32, a: &Action) -> String {
        go(s, who, a, &[1; 8]).unwrap_err()
    }

    /// Declared (Asa: the Greatsword; Goblin: defend), rolled (Asa 1+1, Goblin 4), Asa's turn.
    fn asa_turn() -> State {
        let s = fight();
        let s = go(&s, 1, &Action::Declare(Plan::Attack(1)), &[]).unwrap();
        let mut s = go(&s, 2, &Action::Declare(Plan::Defend), &[]).unwrap();
        let acts = [
            (1, declared(s.get(1).unwrap()).unwrap()),
            (2, declared(s.get(2).unwrap()).unwrap()),
        ];
        let e = combat::declare_all(&s, &acts, &mut ScriptedSource::new(vec![1, 1, 4]));
        s.apply(&e);
        s.apply(&Event::Next);
        assert_eq!(s.current, Some(1));
        s
    }

    fn hit_goblin() -> Action {
        Action::Attack {
            weapon: 1,
            extra: 0,
            targets: vec![2],
        }
    }

    /// #1: the attack's initiative die is the chosen weapon's (a Greatsword 2d6 after a Club
    /// 1d6 on the sheet); a technique of each number of dice left is offered (#2 a, b).
    #[test]
    fn vogt_r1_each_weapon_and_the_technique_dice_left_are_declared() {
        let s = fight();
        let labels: Vec<String> = offers(&s, 1)
            .into_iter()
            .filter(|o| matches!(o.action, Intent::Vogt(Action::Declare(_))) && o.allowed())
            .map(|o| o.label)
            .collect();
        assert_eq!(
            labels,
            [
                "Declare: Attack with Club · 1d6",
                "Declare: Attack with Greatsword · 2d6",
                "Declare: Technique · 1d6",
                "Declare: Technique · 2d6",
                "Declare: Defend (+2 AR) · 1d4",
                "Declare: Help (advantage) · 1d6",
                "Declare: Run (double move) · 1d6",
            ]
        );
        // A third technique die it does not have, a weapon it does not carry: refused.
        assert!(go(&s, 1, &Action::Declare(Plan::Technique(3)), &[]).is_err());
        assert!(go(&s, 1, &Action::Declare(Plan::Attack(2)), &[]).is_err());
        let after = go(&s, 1, &Action::Declare(Plan::Attack(1)), &[]).unwrap();
        assert_eq!(
            declared(after.get(1).unwrap()),
            Some(combat::Action::Attack(Dice::new(2, 6)))
        );
    }

    /// N3: while actions are declared (no one's turn) no action is taken: attack, defend, run
    /// and help are refused; so is everything of a dead combatant.
    #[test]
    fn vogt_n3_no_action_while_declaring_and_none_when_dead() {
        let s = fight();
        assert_eq!(s.current, None);
        let declaring = "actions are being declared; it acts on its turn";
        for a in [hit_goblin(), Action::Defend, Action::Run, Action::Help(2)] {
            assert_eq!(why(&s, 1, &a), declaring, "{a:?}");
        }
        let mut dead = asa_turn();
        dead.apply(&Event::Dies(1));
        assert!(offers(&dead, 1).is_empty());
        assert_eq!(
            why(&dead, 1, &hit_goblin()),
            "not something this combatant can do in this fight"
        );
    }

    /// N5: an unconscious combatant (exhaustion 3) gets its turn but takes no action; it cannot
    /// declare one either (it rolls 10d10).
    #[test]
    fn vogt_n5_an_unconscious_combatant_takes_no_action() {
        let mut s = asa_turn();
        s.apply(&Event::Sync(1, 10, 3, false));
        let out = "Asa is unconscious and cannot act";
        for a in [
            hit_goblin(),
            Action::Defend,
            Action::Run,
            Action::Help(2),
            Action::Reevaluate(Plan::Defend),
        ] {
            assert_eq!(why(&s, 1, &a), out, "{a:?}");
        }
        let mut s = fight();
        s.apply(&Event::Sync(1, 10, 3, false));
        assert_eq!(
            why(&s, 1, &Action::Declare(Plan::Defend)),
            "Asa is unconscious: it rolls 10d10 and cannot act"
        );
    }

    /// N6: the death and dismemberment roll is made when due, in anyone's turn and while
    /// declaring; a 6 kills (3 in 8); one roll per level from 4 on, no more.
    #[test]
    fn vogt_n6_the_table_roll_is_taken_when_due_in_any_turn() {
        let mut s = asa_turn();
        s.apply(&Event::Next); // the Goblin's turn
        assert_eq!(s.current, Some(2));
        s.apply(&Event::Sync(1, 10, 4, false));
        let o = offers(&s, 1);
        let table = o
            .iter()
            .find(|o| o.action == Intent::Vogt(Action::Table))
            .unwrap();
        assert!(table.allowed());
        assert_eq!(table.odds.map(|c| c.p()), Some(3.0 / 8.0));
        let after = go(&s, 1, &Action::Table, &[6]).unwrap();
        assert!(after.get(1).unwrap().dead, "a 6 kills");
        let after = go(&s, 1, &Action::Table, &[4]).unwrap();
        assert!(!after.get(1).unwrap().dead);
        assert_eq!(after.get(1).unwrap().stat(combat::ONE_LEG), 1);
        assert_eq!(
            why(&after, 1, &Action::Table),
            "no roll on the table is due"
        );
        // Another level (5): one more is due.
        let mut more = after.clone();
        more.apply(&Event::Sync(1, 10, 5, false));
        assert!(go(&more, 1, &Action::Table, &[2]).is_ok());
        // Only a d8.
        let r = |d: &[(u32, u32)]| replayed(d, |src| resolve(&s, 1, &Action::Table, src));
        assert!(r(&[(8, 8)]).unwrap().is_ok());
        assert!(r(&[(6, 6)]).is_err());
        assert!(r(&[(8, 9)]).is_err());
    }

    /// N7: each combatant declares its own action in the declaration phase (a player's phone
    /// sends this intent); not once its turns run.
    #[test]
    fn vogt_n7_declaring_is_an_action_of_the_declaration_phase() {
        let s = fight();
        let after = go(&s, 1, &Action::Declare(Plan::Defend), &[]).unwrap();
        assert_eq!(
            declared(after.get(1).unwrap()),
            Some(combat::Action::Defend)
        );
        let s = asa_turn();
        assert!(offers(&s, 1)
            .iter()
            .all(|o| !matches!(o.action, Intent::Vogt(Action::Declare(_)))));
        assert_eq!(
            why(&s, 1, &Action::Declare(Plan::Run)),
            "not something this combatant can do in this fight"
        );
    }

    /// One action a turn, and it is the one declared (reevaluating first changes it).
    #[test]
    fn a_turn_takes_the_declared_action_once() {
        let s = asa_turn();
        assert_eq!(
            why(&s, 1, &Action::Defend),
            "Asa declared attack this round; reevaluate to defend first"
        );
        // The Greatsword's damage: 2d6 (each exploding) + STR: exactly two d6 when no 6.
        let r = |d: &[(u32, u32)]| replayed(d, |src| resolve(&s, 1, &hit_goblin(), src));
        assert!(r(&[(6, 2), (6, 3)]).unwrap().is_ok());
        assert!(r(&[(6, 2)]).is_err());
        assert!(r(&[(8, 2), (6, 3)]).is_err());
        let after = go(&s, 1, &hit_goblin(), &[2, 3]).unwrap();
        let g = after.get(2).unwrap();
        assert!(g.hp < 30, "the goblin took the hit");
        assert_eq!(
            why(&after, 1, &hit_goblin()),
            "Asa has taken this turn’s action"
        );
        // Reevaluating to defend: 1d4 (3) added to its initiative, 5, after the Goblin's 4;
        // its turn resumes after the Goblin's, and then it defends.
        let mut re = go(&s, 1, &Action::Reevaluate(Plan::Defend), &[3]).unwrap();
        assert_eq!(re.get(1).unwrap().init[0], 1 + 1 + 3);
        assert_eq!(re.current, Some(2));
        re.apply(&Event::Next);
        assert_eq!(re.current, Some(1));
        let d = go(&re, 1, &Action::Defend, &[]).unwrap();
        assert!(d.has(1, "Defending"));
        // A target it cannot pick: itself, twice the same, none, a modifier beyond the limit.
        for (t, e) in [
            (vec![1], "pick someone else in the fight"),
            (vec![2, 2], "a target picked twice"),
            (vec![], "pick at least one target"),
        ] {
            let a = Action::Attack {
                weapon: 1,
                extra: 0,
                targets: t,
            };
            assert_eq!(why(&s, 1, &a), e);
        }
        let a = Action::Attack {
            weapon: 1,
            extra: 101,
            targets: vec![2],
        };
        assert_eq!(why(&s, 1, &a), "a modifier beyond ±100");
    }
}
