//! Bo Vogt's referee: what a combatant may do now and the one maker of its events (see
//! `encounter::referee`). Each round opens with every combatant declaring its action (from its
//! own phone at the table); on its turn it takes that one action, or reevaluates to another
//! first. An unconscious combatant takes none. The death and dismemberment roll is made
//! whenever one is due, in anyone's turn.

use super::combat::{
    self, broken, declared_now, declared_weapon, dismember, hit, rolled, unconscious, weapons,
    TABLE_ROLLS, TECH_DIE, TECH_LEFT,
};
use super::ladder::{parse_dice, Dice};
use super::rolls::damage_expr;
use super::sheet::{broken_line, ARMOR, DISMEMBERMENT};
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
/// The damage types a technique may deal (by index; 0: untyped): the ones the rules name.
pub const DAMAGE_TYPES: [&str; 6] = ["", "blunt", "slash", "stab", "fire", "lightning"];
/// [`Action::Break`]'s choice for the armour (a weapon is its index).
pub const BREAK_ARMOR: u32 = 99;

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
    /// The declared technique, its technique dice spent, without a damage roll.
    UseTechnique,
    /// The declared technique, its technique dice spent, with one damage roll of those dice
    /// (plus `extra`, of the type [`DAMAGE_TYPES`]`[dtype]`) against every target.
    Technique {
        dtype: u32,
        extra: i32,
        targets: Vec<u32>,
    },
    Defend,
    Run,
    /// Help this combatant: advantage on its next check.
    Help(u32),
    /// A roll (d8) on the death and dismemberment table, when one is due.
    Table,
    /// What the table's "weapon or armor breaks" broke: the weapon of this index, or the armour
    /// ([`BREAK_ARMOR`]).
    Break(u32),
    /// The GM's call on a full tie (the same roll, DEX and die): it acts before this combatant,
    /// which the order had first. Once the round's initiative is rolled, before its first turn.
    Tie(u32),
}

impl Action {
    /// Whether it is chosen among many (a target, a weapon): one offer stands for the kind.
    pub fn picks(&self) -> bool {
        matches!(
            self,
            Action::Attack { .. } | Action::Technique { .. } | Action::Help(_)
        )
    }
}

/// The declared action a plan makes for `c`; `None` when `c` has no such weapon (or it is
/// broken) or not that many technique dice left.
pub fn plan_action(s: &State, c: &Combatant, plan: Plan) -> Option<combat::Action> {
    Some(match plan {
        Plan::Attack(i) => {
            let w = weapons(c).into_iter().nth(i as usize)?;
            if broken(s, c.id, &w.name) {
                return None;
            }
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
pub fn plans(s: &State, c: &Combatant) -> Vec<Plan> {
    let mut out: Vec<Plan> = (0..weapons(c).len() as u32)
        .map(Plan::Attack)
        .filter(|&p| plan_action(s, c, p).is_some())
        .collect();
    let left = c.stat(TECH_LEFT).clamp(0, TECH_MOST as i32) as u32;
    out.extend((1..=left).map(Plan::Technique));
    out.extend([Plan::Defend, Plan::Help, Plan::Run]);
    out
}

/// A plan for people: "Attack with Club · 1d6".
pub fn plan_label(s: &State, c: &Combatant, plan: Plan) -> String {
    let dice = plan_action(s, c, plan).map_or(String::new(), |a| format!(" · {}", a.dice()));
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

/// The weapon a plan attacks with.
fn plan_weapon(p: Plan) -> Option<u32> {
    match p {
        Plan::Attack(i) => Some(i),
        _ => None,
    }
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

/// Why the declared action must be `kind` (`None` when it is, or nothing was declared this
/// round).
fn not_declared(s: &State, c: &Combatant, kind: i32, what: &str) -> Option<String> {
    let d = declared_now(s, c)?;
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
            .then(|| format!("{} is unconscious: it rolls 10d10 and cannot act", c.name))
            .or_else(|| {
                rolled(s, c).then(|| "initiative is rolled: reevaluate instead".to_owned())
            });
        for p in plans(s, c) {
            out.push(offer(
                Action::Declare(p),
                format!("Declare: {}", plan_label(s, c, p)),
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
        for p in plans(s, c) {
            out.push(offer(
                Action::Reevaluate(p),
                format!("Reevaluate: {}", plan_label(s, c, p)),
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
        (
            Action::UseTechnique,
            "Use the technique (no damage roll)",
            2,
            "a technique",
        ),
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
        let mut why = turn.clone().or_else(|| not_declared(s, c, code, what));
        let mut cost = "its action this turn";
        if code == 2 {
            let need = declared_now(s, c).map_or(0, |a| a.dice().count as i32);
            let left = c.stat(TECH_LEFT);
            cost = "its action this turn and the technique dice declared";
            if why.is_none() && declared_now(s, c).is_none() {
                why = Some("declare a technique and its dice first".into());
            } else if why.is_none() && need > left {
                why = Some(format!("{need} technique dice declared, {left} left"));
            }
            // Its damage roll, refused alike (the Attack panel's, with the targets picked).
            let damage = Action::Technique {
                dtype: 0,
                extra: 0,
                targets: Vec::new(),
            };
            out.push(offer(damage, "Technique damage".into(), cost, why.clone()));
        }
        out.push(offer(action, label.into(), cost, why));
    }
    // A "weapon or armor breaks" line not yet told what broke: each weapon whole, or the armour.
    if !s.ended && s.has(who, DISMEMBERMENT[0]) {
        let list = weapons(c);
        for (i, w) in list.iter().enumerate() {
            if !broken(s, who, &w.name) {
                out.push(offer(
                    Action::Break(i as u32),
                    format!("It broke: {}", w.name),
                    "",
                    None,
                ));
            }
        }
        if !broken(s, who, ARMOR) {
            out.push(offer(
                Action::Break(BREAK_ARMOR),
                "It broke: the armor (AR 0)".into(),
                "",
                None,
            ));
        }
    }
    // A full tie, ordered by joining until the GM says otherwise.
    if declaring(s) && rolled(s, c) && !c.init.is_empty() {
        for &o in s.order.iter().take_while(|&&o| o != who) {
            if tied(s, c, o) {
                out.push(offer(
                    Action::Tie(o),
                    format!("GM: {} acts before {} (a full tie)", c.name, s.name(o)),
                    "",
                    None,
                ));
            }
        }
    }
    if c.death >= 4 && !c.dead {
        // One who left the fight, or a fight over, rolls on the sheet.
        let why = if s.ended {
            // Found by the walk of shown odds: an ended fight takes no more events.
            Some("the fight is over: roll on the sheet".to_owned())
        } else if c.gone {
            Some(format!("{} has left the fight", c.name))
        } else {
            (table_due(c) == 0).then(|| "no roll on the table is due".to_owned())
        };
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

/// Whether `c` and `o` rolled this round and tie on every key (the GM decides between them).
fn tied(s: &State, c: &Combatant, o: u32) -> bool {
    s.get(o)
        .is_some_and(|x| x.id != c.id && !x.dead && !x.gone && rolled(s, x) && x.init == c.init)
}

/// A damage roll's modifier and targets: within bounds, at least one (exactly one for a
/// weapon's attack: `one`), each once, none itself.
fn aim(s: &State, who: u32, extra: i32, targets: &[u32], one: bool) -> Result<(), String> {
    if !(-EXTRA_LIMIT..=EXTRA_LIMIT).contains(&extra) {
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
    if one && targets.len() > 1 {
        return Err("a weapon attack strikes one target".into());
    }
    Ok(())
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
            let a = plan_action(s, c, *p).ok_or("no such action for this combatant")?;
            combat::declare_with(s, who, a, plan_weapon(*p))
        }
        Action::Reevaluate(p) => {
            let a = plan_action(s, c, *p).ok_or("no such action for this combatant")?;
            combat::reevaluate_with(s, who, a, plan_weapon(*p), dice)
                .ok_or("no initiative rolled yet")?
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
            if broken(s, who, &w.name) {
                return Err(format!("the {} is broken", w.name));
            }
            // The weapon whose die was rolled: another one is a reevaluation first.
            if let Some(d) = declared_weapon(s, c).filter(|&d| d != *weapon) {
                let was = weapons(c)
                    .into_iter()
                    .nth(d as usize)
                    .map_or_else(String::new, |w| w.name);
                return Err(format!(
                    "{} declared the attack with the {was}; reevaluate to attack with the {} first",
                    c.name, w.name
                ));
            }
            aim(s, who, *extra, targets, true)?;
            let str_rung = combat::rung(s, who, combat::STR);
            let e = damage_expr(&w.damage, str_rung.saturating_add(*extra))
                .ok_or("the weapon's damage is not dice")?;
            with("Attack", hit(s, who, targets, &e, &w.dtype, dice).0)
        }
        Action::UseTechnique | Action::Technique { .. } => {
            let d = declared_now(s, c).map_or(Dice::new(0, 0), |a| a.dice());
            let left = c.stat(TECH_LEFT) - d.count as i32;
            let mut out = vec![
                Event::Note(format!(
                    "{} uses the technique ({d}): {} technique dice spent, {left} left",
                    c.name, d.count
                )),
                Event::Set(who, TECH_LEFT, left),
            ];
            if let Action::Technique {
                dtype,
                extra,
                targets,
            } = action
            {
                let typ = DAMAGE_TYPES
                    .get(*dtype as usize)
                    .ok_or("no such damage type")?;
                aim(s, who, *extra, targets, false)?;
                let e = damage_expr(&d.to_string(), *extra).ok_or("no technique dice")?;
                out.extend(hit(s, who, targets, &e, typ, dice).0.flat());
            }
            with("Technique", Event::Batch(out))
        }
        Action::Defend => with("Defend", combat::defend(who)),
        Action::Run => with("Run", combat::run(who)),
        Action::Help(t) => {
            other(s, who, *t)?;
            with("Help", combat::help(who, *t))
        }
        Action::Break(k) => {
            let generic = s
                .conditions_of(who)
                .find(|a| a.name == DISMEMBERMENT[0])
                .ok_or("nothing broke")?;
            let thing = if *k == BREAK_ARMOR {
                ARMOR.to_owned()
            } else {
                weapons(c)
                    .into_iter()
                    .nth(*k as usize)
                    .ok_or("no such weapon")?
                    .name
            };
            Event::Batch(vec![
                Event::Note(format!("{}: what broke is the {thing}", c.name)),
                Event::Remove(generic.cid),
                Event::Add(
                    who,
                    broken_line(&thing),
                    crate::rules::encounter::Duration::Removed,
                ),
            ])
        }
        Action::Tie(o) => Event::Batch(vec![
            Event::Note(format!(
                "The GM decides the tie: {} acts before {}",
                c.name,
                s.name(*o)
            )),
            Event::Place(who, Some(*o)),
        ]),
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
    use crate::rules::vogt::combat::declared;
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

    fn close(x: f64, y: f64) {
        assert!((x - y).abs() < 1e-12, "{x} vs {y}");
    }

    /// Both declare (the Goblin attacks with its one weapon), then the round's one roll with
    /// these faces (Asa's first).
    fn declared_and_rolled(s: &State, asa: Plan, faces: &[u32]) -> State {
        let s = go(s, 1, &Action::Declare(asa), &[]).unwrap();
        let mut s = go(&s, 2, &Action::Declare(Plan::Attack(0)), &[]).unwrap();
        let e = combat::roll_round(&s, &mut ScriptedSource::new(faces.to_vec())).unwrap();
        s.apply(&e);
        s
    }

    /// The before-chance of Asa over the Goblin from the actions each declared this round.
    fn first(s: &State) -> f64 {
        let side = |id: u32| {
            let c = s.get(id).unwrap();
            combat::init_side(s, id, declared_now(s, c).unwrap())
        };
        super::super::rolls::before(side(1), side(2)).0.p()
    }

    /// T6-1: once initiative is rolled the declarations are closed: Asa (Defend 1d4, rolled)
    /// cannot re-declare the Greatsword and keep the 1d4's roll (3/4 before a Goblin's 1d6 at
    /// equal DEX); the Greatsword is a reevaluation, its 2d6 added. Declared honestly, the 2d6
    /// acts first with 5/54.
    #[test]
    fn vogt_6_t6_1_declaring_closes_when_initiative_is_rolled() {
        let mut s = fight();
        s.apply(&Event::Set(2, combat::DEX, 2));
        let honest = go(&s, 1, &Action::Declare(Plan::Attack(1)), &[]).unwrap();
        let honest = go(&honest, 2, &Action::Declare(Plan::Attack(0)), &[]).unwrap();
        close(first(&honest), 5.0 / 54.0);
        // Defend 1d4 declared and rolled (1 against the Goblin's 4): 3/4 with that die.
        let r = declared_and_rolled(&s, Plan::Defend, &[1, 4]);
        close(first(&r), 3.0 / 4.0);
        assert_eq!(
            why(&r, 1, &Action::Declare(Plan::Attack(1))),
            "initiative is rolled: reevaluate instead"
        );
        assert!(offers(&r, 1)
            .iter()
            .filter(|o| matches!(o.action, Intent::Vogt(Action::Declare(_))))
            .all(|o| o.refused.as_deref() == Some("initiative is rolled: reevaluate instead")));
        // Still Defend's 1d4 for the roll of 1: the Greatsword waits for a reevaluation.
        let asa = r.get(1).unwrap();
        assert_eq!(declared_now(&r, asa), Some(combat::Action::Defend));
        let mut t = r.clone();
        t.apply(&Event::Next);
        assert_eq!(t.current, Some(1));
        assert_eq!(
            why(&t, 1, &hit_goblin()),
            "Asa declared defend this round; reevaluate to attack first"
        );
        // The reevaluation rolls the 2d6 (5 + 6) onto the 1: initiative 12, after the Goblin.
        let re = go(&t, 1, &Action::Reevaluate(Plan::Attack(1)), &[5, 6]).unwrap();
        assert_eq!(re.get(1).unwrap().init[0], 1 + 5 + 6);
        assert_eq!(re.current, Some(2));
        // The round's roll is made once: nothing is left to roll.
        assert!(combat::roll_round(&r, &mut ScriptedSource::new(vec![1; 4])).is_none());
    }

    /// T6-2: the declaration names the weapon: Asa declares the Club (1d6, first before a
    /// Goblin's 1d8 at equal DEX with 11/16) and cannot strike with the Greatsword (2d6!+2 drops
    /// a 7-HP target with 5/6) without reevaluating; declared honestly, the Greatsword acts first
    /// with 7/36.
    #[test]
    fn vogt_6_t6_2_the_declared_weapon_is_the_one_used() {
        let mut s = fight();
        s.apply(&Event::Set(2, combat::DEX, 2));
        s.apply(&Event::Text(2, combat::T_WEAPON, "1d8".into()));
        let honest = go(&s, 1, &Action::Declare(Plan::Attack(1)), &[]).unwrap();
        let honest = go(&honest, 2, &Action::Declare(Plan::Attack(0)), &[]).unwrap();
        close(first(&honest), 7.0 / 36.0);
        let mut t = declared_and_rolled(&s, Plan::Attack(0), &[1, 5]);
        close(first(&t), 11.0 / 16.0);
        let asa = t.get(1).unwrap();
        assert_eq!(combat::declared_weapon(&t, asa), Some(0));
        t.apply(&Event::Next);
        assert_eq!(t.current, Some(1));
        assert_eq!(
            why(&t, 1, &hit_goblin()),
            "Asa declared the attack with the Club; reevaluate to attack with the Greatsword first"
        );
        let club = Action::Attack {
            weapon: 0,
            extra: 0,
            targets: vec![2],
        };
        assert!(go(&t, 1, &club, &[3]).is_ok());
        // Reevaluated to the Greatsword (its 2d6 added), its attack is the one taken.
        let mut re = go(&t, 1, &Action::Reevaluate(Plan::Attack(1)), &[6, 6]).unwrap();
        re.apply(&Event::Next);
        assert_eq!(re.current, Some(1));
        assert_eq!(combat::declared_weapon(&re, re.get(1).unwrap()), Some(1));
        assert!(go(&re, 1, &hit_goblin(), &[2, 3]).is_ok());
        assert_eq!(
            why(&re, 1, &club),
            "Asa declared the attack with the Greatsword; reevaluate to attack with the Club first"
        );
    }

    /// T6-6: a weapon attack strikes one target: the Club at three Goblins is refused (one roll
    /// would drop all three together with 1/3); at one it is taken. A technique still takes
    /// several (#9).
    #[test]
    fn vogt_6_t6_6_a_weapon_attack_takes_one_target() {
        let mut s = fight();
        for n in ["Goblin 2", "Goblin 3"] {
            let mut g = Combatant::new(&VOGT, n, 7);
            g.texts = vec!["1d6".into(), "slash".into(), String::new(), String::new()];
            s.apply(&Event::Join(g));
        }
        let t = turn_of(s, Plan::Attack(0));
        let at = |targets: Vec<u32>| Action::Attack {
            weapon: 0,
            extra: 0,
            targets,
        };
        assert_eq!(
            why(&t, 1, &at(vec![2, 3, 4])),
            "a weapon attack strikes one target"
        );
        assert_eq!(
            why(&t, 1, &at(vec![3, 4])),
            "a weapon attack strikes one target"
        );
        let after = go(&t, 1, &at(vec![3]), &[4]).unwrap();
        assert_eq!(after.get(3).unwrap().hp, 7 - (4 + 2));
        assert_eq!(after.get(4).unwrap().hp, 7);
    }

    /// T6-8: Defend gives +2 AR on a broken armour too (0 + 2 = 2); prone is AR 0.
    #[test]
    fn vogt_6_t6_8_defend_on_broken_armor_gives_two() {
        let mut s = fight();
        s.apply(&Event::Set(1, combat::AR, 2));
        s.apply(&Event::Add(
            1,
            broken_line(ARMOR),
            crate::rules::encounter::Duration::Removed,
        ));
        assert_eq!(combat::ar_now(&s, 1), 0);
        let t = turn_of(s, Plan::Defend);
        let d = go(&t, 1, &Action::Defend, &[]).unwrap();
        assert_eq!(combat::ar_now(&d, 1), 2);
        let mut p = d.clone();
        p.apply(&Event::Add(
            1,
            "Prone".into(),
            crate::rules::encounter::Duration::Removed,
        ));
        assert_eq!(combat::ar_now(&p, 1), 0);
    }

    /// T6-4 (a): a sheet at exhaustion 4 that already rolled its level (a 3, "Lost an eye")
    /// joins a fight: no roll is due there. (c) The count follows the levels: the level taken
    /// back takes its roll with it, and reached again it is due again.
    #[test]
    fn vogt_6_t6_4_a_level_rolled_on_the_sheet_is_not_rolled_in_the_fight() {
        use crate::rules::edit::Edits;
        use crate::rules::vogt::Edit;
        let mut sheet = VogtSheet::default();
        sheet.apply(Edit::Exhaustion(4)).unwrap();
        assert_eq!(sheet.table_due(), 1);
        sheet.apply(Edit::Dismember(3)).unwrap();
        assert_eq!((sheet.table_due(), sheet.table_rolls), (0, 1));
        let s = State::replay(
            &VOGT,
            &[Event::Join(combat::from_sheet("Asa", &sheet)), Event::Start],
        );
        assert_eq!(table_due(s.get(1).unwrap()), 0);
        assert_eq!(why(&s, 1, &Action::Table), "no roll on the table is due");
        // (c) on the sheet: 4 → 3 → 4, one roll due for the new level.
        sheet.apply(Edit::Exhaustion(3)).unwrap();
        assert_eq!(sheet.table_rolls, 0);
        sheet.apply(Edit::Exhaustion(4)).unwrap();
        assert_eq!(sheet.table_due(), 1);
        // A sheet that never rolled joins with its roll due.
        let fresh = VogtSheet {
            exhaustion: 4,
            ..VogtSheet::default()
        };
        let s = State::replay(&VOGT, &[Event::Join(combat::from_sheet("Asa", &fresh))]);
        assert_eq!(table_due(s.get(1).unwrap()), 1);
    }

    /// T6-3: a full tie (two Goblins, DEX 2, 1d6 each: 1/6 of the time) is the GM's to decide:
    /// the order puts the first joined first until the GM places the other before it (a GM-only
    /// intent: a player's phone cannot send it).
    #[test]
    fn vogt_6_t6_3_the_gm_decides_a_full_tie() {
        let goblin = |n: &str| {
            let mut g = Combatant::new(&VOGT, n, 7);
            g.stats[combat::DEX] = 2;
            g.texts = vec!["1d6".into(), "slash".into(), String::new(), String::new()];
            Event::Join(g)
        };
        let mut s = State::replay(
            &VOGT,
            &[goblin("Goblin 1"), goblin("Goblin 2"), Event::Start],
        );
        let side = combat::init_side(&s, 1, combat::Action::Attack(Dice::new(1, 6)));
        let (a, gm, b) = super::super::rolls::before(side, side);
        close(gm.p(), 1.0 / 6.0);
        close(a.p(), 5.0 / 12.0);
        close(b.p(), 5.0 / 12.0);
        // Not before the roll: nothing to decide yet.
        let tie = Action::Tie(1);
        assert_eq!(
            why(&s, 2, &tie),
            "not something this combatant can do in this fight"
        );
        let e = combat::roll_round(&s, &mut ScriptedSource::new(vec![3, 3])).unwrap();
        s.apply(&e);
        assert_eq!(s.order, [1, 2], "joined first, until the GM decides");
        let labels: Vec<String> = offers(&s, 2)
            .into_iter()
            .filter(|o| matches!(o.action, Intent::Vogt(Action::Tie(_))))
            .map(|o| o.label)
            .collect();
        assert_eq!(labels, ["GM: Goblin 2 acts before Goblin 1 (a full tie)"]);
        assert!(Intent::Vogt(tie.clone()).gm_only());
        let mut after = go(&s, 2, &tie, &[]).unwrap();
        assert_eq!(after.order, [2, 1]);
        after.apply(&Event::Next);
        assert_eq!(after.current, Some(2));
        // No tie, no call: a roll of 3 against a 4.
        let mut s2 = State::replay(
            &VOGT,
            &[goblin("Goblin 1"), goblin("Goblin 2"), Event::Start],
        );
        let e = combat::roll_round(&s2, &mut ScriptedSource::new(vec![3, 4])).unwrap();
        s2.apply(&e);
        assert!(go(&s2, 2, &Action::Tie(1), &[]).is_err());
    }

    /// T6-5 (a), (c): a declaration lapses at the round's end, and the round's initiative is
    /// rolled once. Asa declares a 2d6 technique in round 1 and spends both dice; in round 2
    /// nothing is declared, so the roll is not her spent technique's 2d6 but an attack with
    /// her first weapon (1d6), and her turn's attack is not refused for the old technique. The
    /// roll made, it is not made again.
    #[test]
    fn vogt_6_t6_5_declarations_lapse_and_initiative_is_rolled_once() {
        let mut s = fight();
        s.apply(&Event::Set(1, TECH_LEFT, 2));
        let t = turn_of(s, Plan::Technique(2));
        let mut r = go(&t, 1, &Action::UseTechnique, &[]).unwrap();
        assert_eq!(r.get(1).unwrap().stat(TECH_LEFT), 0);
        r.apply(&Event::Next); // the Goblin's turn
        r.apply(&Event::Next); // round 2, declaring
        assert_eq!((r.round, r.current), (2, None));
        let asa = r.get(1).unwrap();
        assert_eq!(declared_now(&r, asa), None, "round 1's technique lapsed");
        let acts = combat::round_actions(&r);
        assert_eq!(
            acts,
            [
                (1, combat::Action::Attack(Dice::new(1, 6))),
                (2, combat::Action::Attack(Dice::new(1, 6)))
            ]
        );
        let mut src = ScriptedSource::new(vec![1, 4]);
        let e = combat::roll_round(&r, &mut src).unwrap();
        r.apply(&e);
        assert!(
            combat::roll_round(&r, &mut src).is_none(),
            "rolled once a round"
        );
        assert!(combat::round_actions(&r).is_empty());
        r.apply(&Event::Next);
        assert_eq!(r.current, Some(1));
        let club = Action::Attack {
            weapon: 0,
            extra: 0,
            targets: vec![2],
        };
        assert!(go(&r, 1, &club, &[3]).is_ok());
        assert_eq!(
            why(&r, 1, &Action::UseTechnique),
            "Asa declared attack this round; reevaluate to a technique first"
        );
    }

    /// N4: the declared action binds the turn, by either path. Declared Defend 1d4 (3/4 before a
    /// Goblin's 1d6 at equal DEX) and rolled: neither a new declaration of the Greatsword nor
    /// its damage on the turn is accepted; only a reevaluation, its 2d6 added. Declared
    /// honestly, the Greatsword acts first with 5/54.
    #[test]
    fn vogt_6_n4_a_defend_roll_is_not_spent_on_a_greatsword() {
        let mut s = fight();
        s.apply(&Event::Set(2, combat::DEX, 2));
        let r = declared_and_rolled(&s, Plan::Defend, &[1, 4]);
        close(first(&r), 3.0 / 4.0);
        assert_eq!(
            why(&r, 1, &Action::Declare(Plan::Attack(1))),
            "initiative is rolled: reevaluate instead"
        );
        let mut t = r.clone();
        t.apply(&Event::Next);
        assert_eq!(
            why(&t, 1, &hit_goblin()),
            "Asa declared defend this round; reevaluate to attack first"
        );
        for a in [Action::Run, Action::Help(2)] {
            assert!(go(&t, 1, &a, &[]).is_err(), "{a:?}");
        }
        let honest = go(&s, 1, &Action::Declare(Plan::Attack(1)), &[]).unwrap();
        let honest = go(&honest, 2, &Action::Declare(Plan::Attack(0)), &[]).unwrap();
        close(first(&honest), 5.0 / 54.0);
    }

    /// #1: the initiative die is the declared weapon's, and so is the attack: the Greatsword
    /// (2d6) before a Defend (1d4) at equal DEX with 1/36; a Club declared (1d6, 1/4) cannot
    /// strike with the Greatsword.
    #[test]
    fn vogt_6_1_the_attack_is_made_with_the_weapon_whose_die_was_rolled() {
        let mut s = fight();
        s.apply(&Event::Set(2, combat::DEX, 2));
        let defend = |s: &State, p: Plan| {
            let s = go(s, 1, &Action::Declare(p), &[]).unwrap();
            go(&s, 2, &Action::Declare(Plan::Defend), &[]).unwrap()
        };
        close(first(&defend(&s, Plan::Attack(1))), 1.0 / 36.0);
        let club = defend(&s, Plan::Attack(0));
        close(first(&club), 1.0 / 4.0);
        let mut t = club.clone();
        t.apply(&combat::roll_round(&t, &mut ScriptedSource::new(vec![1, 4])).unwrap());
        t.apply(&Event::Next);
        assert_eq!(t.current, Some(1));
        assert_eq!(
            why(&t, 1, &hit_goblin()),
            "Asa declared the attack with the Club; reevaluate to attack with the Greatsword first"
        );
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

    /// Asa declares `plan` and the others defend; all roll (Asa all 1s, the others 4); Asa's turn.
    fn turn_of(mut s: State, plan: Plan) -> State {
        s = go(&s, 1, &Action::Declare(plan), &[]).unwrap();
        let ids: Vec<u32> = s.order.clone();
        for &id in &ids[1..] {
            s = go(&s, id, &Action::Declare(Plan::Defend), &[]).unwrap();
        }
        let acts: Vec<(u32, combat::Action)> = ids
            .iter()
            .map(|&id| (id, declared(s.get(id).unwrap()).unwrap()))
            .collect();
        // Asa's dice all 1s, the others' 1d4 a 4 each: Asa first.
        let mut faces = vec![1; acts[0].1.dice().count as usize];
        faces.extend(vec![4; ids.len() - 1]);
        let e = combat::declare_all(&s, &acts, &mut ScriptedSource::new(faces));
        s.apply(&e);
        s.apply(&Event::Next);
        assert_eq!(s.current, Some(1));
        s
    }

    /// #2: the technique dice left decide what can be declared (four: up to 4d6; none: no
    /// technique), and using the technique spends the dice declared; fewer left than declared
    /// (spent on the sheet meanwhile) is refused.
    #[test]
    fn vogt_r2_technique_dice_are_declared_from_what_is_left_and_spent() {
        let mut s = fight();
        s.apply(&Event::Set(1, TECH_LEFT, 4));
        let techniques = |s: &State| -> Vec<String> {
            offers(s, 1)
                .into_iter()
                .filter(|o| {
                    matches!(o.action, Intent::Vogt(Action::Declare(Plan::Technique(_))))
                        && o.allowed()
                })
                .map(|o| o.label)
                .collect()
        };
        assert_eq!(
            techniques(&s),
            [
                "Declare: Technique · 1d6",
                "Declare: Technique · 2d6",
                "Declare: Technique · 3d6",
                "Declare: Technique · 4d6"
            ]
        );
        let t = turn_of(s.clone(), Plan::Technique(3));
        let after = go(&t, 1, &Action::UseTechnique, &[]).unwrap();
        assert_eq!(after.get(1).unwrap().stat(TECH_LEFT), 1);
        assert!(after
            .log
            .iter()
            .any(|l| l.text.contains("3 technique dice spent, 1 left")));
        // Spent elsewhere in the meantime: 3 declared, 2 left.
        let mut short = t.clone();
        short.apply(&Event::Set(1, TECH_LEFT, 2));
        assert_eq!(
            why(&short, 1, &Action::UseTechnique),
            "3 technique dice declared, 2 left"
        );
        // None left: no technique to declare.
        let mut none = s.clone();
        none.apply(&Event::Set(1, TECH_LEFT, 0));
        assert!(techniques(&none).is_empty());
        assert!(go(&none, 1, &Action::Declare(Plan::Technique(1)), &[]).is_err());
    }

    /// #9: a technique's damage is its dice rolled once (each die's critical chain, plus the
    /// modifier typed), applied to every target through its own resistances: 2d6 fire at the
    /// Goblin and at a drenched Imp (it resists fire: half).
    #[test]
    fn vogt_r9_a_technique_rolls_its_damage_once_for_every_target() {
        let mut s = fight();
        s.apply(&Event::Set(1, TECH_LEFT, 2));
        s.apply(&Event::Join(Combatant::new(&VOGT, "Imp", 20)));
        s.apply(&Event::Add(
            3,
            "Drenched".into(),
            crate::rules::encounter::Duration::Removed,
        ));
        let t = turn_of(s, Plan::Technique(2));
        let fire = DAMAGE_TYPES.iter().position(|&d| d == "fire").unwrap() as u32;
        let a = Action::Technique {
            dtype: fire,
            extra: 0,
            targets: vec![2, 3],
        };
        // 3 + 4 = 7: the Goblin takes 7, the drenched Imp 3.
        let after = go(&t, 1, &a, &[3, 4]).unwrap();
        assert_eq!(after.get(2).unwrap().hp, 30 - 7);
        assert_eq!(after.get(3).unwrap().hp, 20 - 3);
        assert_eq!(after.get(1).unwrap().stat(TECH_LEFT), 0);
        // One roll: two dice were read, not four.
        let mut src = ScriptedSource::new(vec![3, 4]);
        resolve(&t, 1, &a, &mut src).unwrap();
        // It is the declared technique's action: an attack declared cannot do it.
        let atk = turn_of(fight(), Plan::Attack(0));
        assert!(why(&atk, 1, &a).contains("reevaluate to a technique first"));
        // Its damage roll needs a target (the plain use is the other button).
        let none = Action::Technique {
            dtype: fire,
            extra: 0,
            targets: Vec::new(),
        };
        assert_eq!(why(&t, 1, &none), "pick at least one target");
        // A damage type out of the list is refused.
        let bad = Action::Technique {
            dtype: 99,
            extra: 0,
            targets: vec![2],
        };
        assert_eq!(why(&t, 1, &bad), "no such damage type");
    }

    /// O1: "weapon or armor breaks" is then named: a broken weapon can no longer be declared or
    /// attacked with; a broken armour leaves AR 0. The choice is offered only while a break is
    /// unnamed.
    #[test]
    fn vogt_o1_a_broken_weapon_or_armor_takes_effect() {
        let mut s = fight();
        s.apply(&Event::Set(1, combat::AR, 2));
        assert!(!offers(&s, 1)
            .iter()
            .any(|o| matches!(o.action, Intent::Vogt(Action::Break(_)))));
        s.apply(&dismember(&s, 1, 1).unwrap());
        let breaks: Vec<String> = offers(&s, 1)
            .into_iter()
            .filter(|o| matches!(o.action, Intent::Vogt(Action::Break(_))))
            .map(|o| o.label)
            .collect();
        assert_eq!(
            breaks,
            [
                "It broke: Club",
                "It broke: Greatsword",
                "It broke: the armor (AR 0)"
            ]
        );
        let broke = go(&s, 1, &Action::Break(1), &[]).unwrap();
        assert!(broke.has(1, "Broken: Greatsword") && !broke.has(1, DISMEMBERMENT[0]));
        assert!(go(&broke, 1, &Action::Declare(Plan::Attack(1)), &[]).is_err());
        assert!(go(&broke, 1, &Action::Declare(Plan::Attack(0)), &[]).is_ok());
        assert!(
            go(&broke, 1, &Action::Break(0), &[]).is_err(),
            "no break left to name"
        );
        // Declared before it broke: the attack with it is refused.
        let t = turn_of(fight(), Plan::Attack(1));
        let mut t2 = t.clone();
        t2.apply(&Event::Add(
            1,
            "Broken: Greatsword".into(),
            crate::rules::encounter::Duration::Removed,
        ));
        assert_eq!(why(&t2, 1, &hit_goblin()), "the Greatsword is broken");
        // The armour.
        let mut a = s.clone();
        a.apply(&dismember(&a, 1, 1).unwrap());
        let a = go(&a, 1, &Action::Break(BREAK_ARMOR), &[]).unwrap();
        assert_eq!(combat::ar_now(&a, 1), 0);
    }
}
