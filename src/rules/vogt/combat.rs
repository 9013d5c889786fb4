//! Bo Vogt's fight on the encounter engine: every round each combatant declares an action and
//! rolls its die (lowest first; ties to the higher DEX, then the smaller die, then the GM);
//! reevaluating rolls a new action's die and adds it; one damage roll hits every target, each
//! through its own resistances. Every step is returned as engine events with the dice inside.
//!
//! Decisions where the seed is silent:
//! - Reevaluating is done on the combatant's turn (or before it): the new die's roll is added
//!   to the old initiative and the combatant moves among those still to act; its turn resumes
//!   there without starting again (bleeding does not strike twice).
//! - Help gives the helped combatant "Helped" until the start of the helper's next turn.
//! - A quick NPC's damage types resisted and vulnerable are typed as lists ("fire, cold").

use super::ladder::Dice;
use super::rolls::{init_keys, InitSide, Takes, UNCONSCIOUS_INIT};
use super::sheet::{Ability, VogtSheet, DISMEMBERMENT};
use crate::rules::dice::{roll, DiceSource, Expr};
use crate::rules::encounter::{systems::VOGT, Combatant, Duration, Event, State};

/// Indexes of [`VOGT`]'s stats.
pub const STR: usize = 0;
pub const DEX: usize = 1;
pub const AR: usize = 4;
pub const MOVE: usize = 5;
pub const ACTION: usize = 6;
pub const DICE: usize = 7;
pub const DIE: usize = 8;
/// 1 once a leg is lost (death and dismemberment 4): movement at most 1, as on the sheet.
pub const ONE_LEG: usize = 9;
/// The technique die's sides and how many technique dice are left (a saved character's).
pub const TECH_DIE: usize = 10;
pub const TECH_LEFT: usize = 11;
/// Rolls made on the death and dismemberment table, one for each level of exhaustion from 4
/// on that was rolled for (shared with the sheet: a level rolled on either side is not rolled
/// again on the other; a level lost takes its roll with it).
pub const TABLE_ROLLS: usize = 12;
/// The weapon an attack was declared with: its index in [`weapons`] + 1 (0: none).
pub const WEAPON_AT: usize = 13;
/// The round whose initiative the combatant rolled (0: none): the declarations close then.
pub const ROLLED: usize = 14;
/// The round the combatant declared its action in (0: none): a declaration lasts its round.
pub const DECLARED: usize = 15;
/// A saved character's HP maximum as its sheet now has it, before exhaustion halves it (0: the
/// maximum it joined with); `VOGT.max_stat`.
pub const HP_MAX: usize = 16;

/// Indexes of a combatant's texts: its weapon's damage dice and type, damage types resisted
/// and vulnerable (comma-separated).
pub const T_WEAPON: usize = 0;
pub const T_DTYPE: usize = 1;
pub const T_RESIST: usize = 2;
pub const T_VULN: usize = 3;
/// From this index on, a saved character's weapons: (name, damage dice, damage type) each.
pub const T_WEAPONS: usize = 4;
/// The most weapons a combatant carries into a fight.
pub const WEAPON_LIMIT: usize = 20;

/// A weapon a combatant can attack with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weapon {
    pub name: String,
    pub damage: String,
    pub dtype: String,
}

/// The actions every character has, with the die each rolls for initiative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The wielded weapon's damage die.
    Attack(Dice),
    /// The technique dice spent.
    Technique(Dice),
    Defend,
    Help,
    Run,
}

impl Action {
    pub fn dice(self) -> Dice {
        match self {
            Action::Attack(d) | Action::Technique(d) => d,
            Action::Defend => Dice::new(1, 4),
            Action::Help | Action::Run => Dice::new(1, 6),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Action::Attack(_) => "Attack",
            Action::Technique(_) => "Use technique",
            Action::Defend => "Defend",
            Action::Help => "Help",
            Action::Run => "Run",
        }
    }

    /// Stored in the combatant's `Action` stat (0: nothing declared).
    pub fn code(self) -> i32 {
        match self {
            Action::Attack(_) => 1,
            Action::Technique(_) => 2,
            Action::Defend => 3,
            Action::Help => 4,
            Action::Run => 5,
        }
    }

    pub fn from_code(code: i32, dice: Dice) -> Option<Action> {
        Some(match code {
            1 => Action::Attack(dice),
            2 => Action::Technique(dice),
            3 => Action::Defend,
            4 => Action::Help,
            5 => Action::Run,
            _ => return None,
        })
    }
}

/// What the combatant last declared, if anything (see [`declared_now`] for this round's).
pub fn declared(c: &Combatant) -> Option<Action> {
    Action::from_code(
        c.stat(ACTION),
        Dice::new(c.stat(DICE).max(0) as u32, c.stat(DIE).max(0) as u32),
    )
}

/// The round as the declarations count it (those made before the start count for round 1).
pub fn this_round(s: &State) -> i32 {
    s.round.max(1) as i32
}

/// What the combatant declared this round, if anything: a declaration lapses at the round's
/// end.
pub fn declared_now(s: &State, c: &Combatant) -> Option<Action> {
    declared(c).filter(|_| c.stat(DECLARED) == this_round(s))
}

/// The weapon (its index in [`weapons`]) this round's attack was declared with.
pub fn declared_weapon(s: &State, c: &Combatant) -> Option<u32> {
    match declared_now(s, c)? {
        Action::Attack(_) if c.stat(WEAPON_AT) > 0 => Some((c.stat(WEAPON_AT) - 1) as u32),
        _ => None,
    }
}

/// Whether `c` has rolled its initiative this round: the declarations are closed for it (a
/// new action is a reevaluation, its die added).
pub fn rolled(s: &State, c: &Combatant) -> bool {
    c.stat(ROLLED) == this_round(s)
}

/// The first weapon not broken whose damage dice are `dice` (the one an attack of those dice
/// is made with when no weapon was named).
pub fn weapon_of(s: &State, id: u32, dice: Dice) -> Option<u32> {
    usable(s, id)
        .into_iter()
        .find(|(_, w)| super::ladder::parse_dice(&w.damage) == Some(dice))
        .map(|(i, _)| i as u32)
}

/// The combatant's weapon dice (an NPC's, or the one chosen when it joined).
pub fn weapon(c: &Combatant) -> Dice {
    super::ladder::parse_dice(c.text(T_WEAPON)).unwrap_or(Dice::new(1, 4))
}

/// The weapons `c` can attack with: a saved character's, as it joined; else its one weapon.
pub fn weapons(c: &Combatant) -> Vec<Weapon> {
    let list: Vec<Weapon> = c
        .texts
        .get(T_WEAPONS..)
        .unwrap_or_default()
        .chunks_exact(3)
        .map(|w| Weapon {
            name: w[0].clone(),
            damage: w[1].clone(),
            dtype: w[2].clone(),
        })
        .collect();
    if list.is_empty() {
        vec![Weapon {
            name: "Weapon".into(),
            damage: c.text(T_WEAPON).to_owned(),
            dtype: c.text(T_DTYPE).to_owned(),
        }]
    } else {
        list
    }
}

/// Whether `thing` (a weapon's name, or the armour) of `id` is broken in the fight: a lasting
/// condition "Broken: …", shared with the sheet's injury lines.
pub fn broken(s: &State, id: u32, thing: &str) -> bool {
    super::sheet::is_broken(s.conditions_of(id).map(|a| a.name.as_str()), thing)
}

/// The weapons `id` can attack with now (none broken), each with its index in [`weapons`].
pub fn usable(s: &State, id: u32) -> Vec<(usize, Weapon)> {
    s.get(id).map_or_else(Vec::new, |c| {
        weapons(c)
            .into_iter()
            .enumerate()
            .filter(|(_, w)| !broken(s, id, &w.name))
            .collect()
    })
}

/// An ability's rung in the fight: as it joined, one down for each status held here that takes
/// a die off it (frozen: STR and DEX; blind, deaf: AWR; scorched: AWR and WIL).
pub fn rung(s: &State, id: u32, ability: usize) -> i32 {
    let base = s.get(id).map_or(0, |c| c.stat(ability));
    let lost: i32 = s
        .held(id)
        .into_iter()
        .filter_map(super::sheet::status)
        .map(|d| d.rungs.get(ability).copied().unwrap_or(0))
        .sum();
    (base - lost).max(0)
}

/// Movement in the fight: 0 when immobile or unconscious; halved by exhaustion and by prone,
/// doubled while running.
pub fn speed(s: &State, id: u32) -> i32 {
    let Some(c) = s.get(id) else { return 0 };
    if s.has(id, "Immobile") || unconscious(s, id) {
        return 0;
    }
    let mut v = c.stat(MOVE);
    if c.death >= 1 {
        v /= 2;
    }
    if s.has(id, "Prone") {
        v /= 2;
    }
    if s.has(id, "Running") {
        v *= 2;
    }
    // A lost leg caps what is left at 1, after the halvings, as the sheet counts it.
    if c.stat(ONE_LEG) > 0 {
        v = v.min(1);
    }
    v
}

pub fn unconscious(s: &State, id: u32) -> bool {
    s.has(id, "Unconscious") || s.get(id).is_some_and(|c| c.death >= 3)
}

/// The dice `id` rolls for initiative with `action`: 10d10 while unconscious.
pub fn init_side(s: &State, id: u32, action: Action) -> InitSide {
    let dex = rung(s, id, DEX);
    let dice = if unconscious(s, id) {
        UNCONSCIOUS_INIT
    } else {
        action.dice()
    };
    InitSide { dice, dex }
}

/// A saved character as a combatant: abilities as rungs before statuses (its statuses join as
/// the fight's conditions, which take their dice off: [`rung`]), AR, movement, the HP maximum
/// before exhaustion (the fight halves it from level 2 as the sheet does), exhaustion (as the
/// engine's level count), its weapons that are not broken, its damage types.
pub fn from_sheet(name: &str, s: &VogtSheet) -> Combatant {
    let mut c = Combatant::new(&VOGT, name, s.hp_max);
    // A sheet stored before HP followed the halved maximum joins at that maximum.
    c.hp = s.hp.min(s.hp_max_now());
    c.pc = true;
    for a in Ability::ALL {
        c.stats[a.index()] = s.abilities[a.index()].clamp(0, super::ladder::TOP);
    }
    c.stats[AR] = s.ar;
    c.stats[MOVE] = s.movement;
    c.stats[ONE_LEG] = i32::from(s.injuries.iter().any(|i| i == DISMEMBERMENT[3]));
    c.stats[TECH_DIE] = s.technique_die as i32;
    c.stats[TECH_LEFT] = s.technique_left();
    c.death = s.exhaustion;
    c.dead = s.dead;
    c.stats[TABLE_ROLLS] = s.table_rolls.min(s.table_levels()) as i32;
    c.stats[HP_MAX] = s.hp_max;
    let w = s.weapons().next().map(|(_, w)| w);
    c.texts = vec![
        w.map_or("1d4".into(), |w| w.damage.clone()),
        w.map_or("blunt".into(), |w| w.dtype.clone()),
        s.resistances.join(", "),
        s.vulnerabilities.join(", "),
    ];
    for (_, w) in s.weapons().take(WEAPON_LIMIT) {
        c.texts
            .extend([w.name.clone(), w.damage.clone(), w.dtype.clone()]);
    }
    c
}

/// How `target` takes damage of `dtype`: its lists and its statuses (drenched, nauseated).
pub fn takes(s: &State, target: u32, dtype: &str) -> Takes {
    let Some(c) = s.get(target) else {
        return Takes::default();
    };
    let mut sheet = VogtSheet {
        resistances: split(c.text(T_RESIST)),
        vulnerabilities: split(c.text(T_VULN)),
        ..VogtSheet::default()
    };
    sheet.statuses = s.conditions_of(target).map(|a| a.name.clone()).collect();
    Takes {
        resists: sheet.resists(dtype),
        vulnerable: sheet.vulnerable(dtype),
    }
}

fn split(list: &str) -> Vec<String> {
    list.split(',')
        .map(|x| x.trim().to_owned())
        .filter(|x| !x.is_empty())
        .collect()
}

/// Everyone's declared action and its die rolled, as one step: the order is sorted from these
/// keys before the round's first turn. The declarations close with it ([`rolled`]).
pub fn declare_all<S: DiceSource + ?Sized>(
    s: &State,
    actions: &[(u32, Action)],
    src: &mut S,
) -> Event {
    let mut out = Vec::new();
    for &(id, action) in actions {
        let side = init_side(s, id, action);
        let faces = side.dice.roll(src);
        let total: i64 = faces.iter().map(|&f| i64::from(f)).sum();
        out.push(Event::Note(format!(
            "{} declares {} and rolls {} for initiative: {}",
            s.name(id),
            action.name(),
            side.dice,
            show(&faces, total)
        )));
        // The weapon declared with it, when it is this attack; else the first of its dice.
        let weapon = s.get(id).and_then(|c| {
            let Action::Attack(d) = action else {
                return None;
            };
            declared_weapon(s, c)
                .filter(|_| declared_now(s, c) == Some(action))
                .or_else(|| weapon_of(s, id, d))
        });
        out.extend(declare_events(s, id, action, weapon));
        out.push(Event::Set(id, ROLLED, this_round(s)));
        out.push(Event::Init(id, init_keys(total, side)));
    }
    Event::Batch(out)
}

/// The round's roll (the GM's "roll initiative for everyone"): each combatant able to act that
/// has not rolled this round rolls the die of what it declared this round (an attack with its
/// first usable weapon when it declared nothing). Once a round: `None` when everyone rolled.
pub fn roll_round<S: DiceSource + ?Sized>(s: &State, src: &mut S) -> Option<Event> {
    let acts = round_actions(s);
    (!acts.is_empty()).then(|| declare_all(s, &acts, src))
}

/// Who rolls in [`roll_round`], with the action each rolls for.
pub fn round_actions(s: &State) -> Vec<(u32, Action)> {
    s.order
        .iter()
        .filter_map(|&id| s.get(id).filter(|c| !c.dead && !c.gone && !rolled(s, c)))
        .map(|c| {
            let first = usable(s, c.id)
                .first()
                .and_then(|(_, w)| super::ladder::parse_dice(&w.damage))
                .unwrap_or_else(|| weapon(c));
            (c.id, declared_now(s, c).unwrap_or(Action::Attack(first)))
        })
        .collect()
}

/// One combatant's declaration before the rolls (kept in the fight, so a reload keeps it); an
/// attack with the first weapon of its dice.
pub fn declare(s: &State, id: u32, action: Action) -> Event {
    let weapon = match action {
        Action::Attack(d) => weapon_of(s, id, d),
        _ => None,
    };
    declare_with(s, id, action, weapon)
}

/// One combatant's declaration, an attack with the weapon of this index.
pub fn declare_with(s: &State, id: u32, action: Action, weapon: Option<u32>) -> Event {
    let mut out = vec![Event::Note(format!(
        "{} will {} ({})",
        s.name(id),
        action.name().to_lowercase(),
        action.dice()
    ))];
    out.extend(declare_events(s, id, action, weapon));
    Event::Batch(out)
}

fn declare_events(s: &State, id: u32, action: Action, weapon: Option<u32>) -> [Event; 5] {
    let dice = action.dice();
    [
        Event::Set(id, ACTION, action.code()),
        Event::Set(id, DICE, dice.count as i32),
        Event::Set(id, DIE, dice.sides as i32),
        Event::Set(id, WEAPON_AT, weapon.map_or(0, |w| w as i32 + 1)),
        Event::Set(id, DECLARED, this_round(s)),
    ]
}

fn show(faces: &[u32], total: i64) -> String {
    if faces.len() <= 1 {
        total.to_string()
    } else {
        let f: Vec<String> = faces.iter().map(u32::to_string).collect();
        format!("{} = {total}", f.join(" + "))
    }
}

/// Reevaluating: a new action, its die rolled and added to the current initiative (an attack
/// with the first weapon of its dice).
pub fn reevaluate<S: DiceSource + ?Sized>(
    s: &State,
    id: u32,
    action: Action,
    src: &mut S,
) -> Option<Event> {
    let weapon = match action {
        Action::Attack(d) => weapon_of(s, id, d),
        _ => None,
    };
    reevaluate_with(s, id, action, weapon, src)
}

/// Reevaluating to `action`, an attack with the weapon of this index.
pub fn reevaluate_with<S: DiceSource + ?Sized>(
    s: &State,
    id: u32,
    action: Action,
    weapon: Option<u32>,
    src: &mut S,
) -> Option<Event> {
    let c = s.get(id)?;
    let old = *c.init.first()?;
    let side = init_side(s, id, action);
    let faces = side.dice.roll(src);
    let total: i64 = faces.iter().map(|&f| i64::from(f)).sum();
    let new = i64::from(old) + total;
    let mut out = vec![Event::Note(format!(
        "{} reevaluates to {}: {} rolls {}, initiative {} + {} = {} (no movement until then)",
        c.name,
        action.name(),
        side.dice,
        show(&faces, total),
        old,
        total,
        new
    ))];
    out.extend(declare_events(s, id, action, weapon));
    out.push(Event::Set(id, ROLLED, this_round(s)));
    out.push(Event::Init(id, init_keys(new, side)));
    Some(Event::Batch(out))
}

/// One damage roll of `expr` against every target, each through its own resistances. Returns
/// the step and the rolled total.
pub fn hit<S: DiceSource + ?Sized>(
    s: &State,
    by: u32,
    targets: &[u32],
    expr: &Expr,
    dtype: &str,
    src: &mut S,
) -> (Event, i64) {
    let out = roll(expr, src);
    let typ = if dtype.trim().is_empty() {
        String::new()
    } else {
        format!(" {}", dtype.trim())
    };
    let mut ev = vec![Event::Note(format!(
        "{} deals {expr}{typ}: [{}] = {}",
        s.name(by),
        super::rolls::show_dice(&out),
        out.total.max(0)
    ))];
    for &t in targets {
        let how = takes(s, t, dtype);
        let amount = how.apply(out.total).min(1_000_000) as i32;
        if how.resists {
            ev.push(Event::Note(format!("{} resists: half", s.name(t))));
        } else if how.vulnerable {
            ev.push(Event::Note(format!("{} is vulnerable: double", s.name(t))));
        }
        ev.push(Event::Damage(vec![t], amount));
    }
    (Event::Batch(ev), out.total)
}

/// Defend: +2 AR until the start of its next turn.
pub fn defend(id: u32) -> Event {
    Event::Add(id, "Defending".into(), Duration::Start { who: id, n: 1 })
}

/// Run: double movement until the end of the round.
pub fn run(id: u32) -> Event {
    Event::Add(id, "Running".into(), Duration::Round { n: 1 })
}

/// Help: advantage for `target` until the start of the helper's next turn.
pub fn help(helper: u32, target: u32) -> Event {
    Event::Add(
        target,
        "Helped".into(),
        Duration::Start { who: helper, n: 1 },
    )
}

/// AR now: prone 0; a broken armour gives 0; defending adds 2 (to a broken armour's 0 too).
pub fn ar_now(s: &State, id: u32) -> i32 {
    if s.has(id, "Prone") {
        return 0;
    }
    let base = if broken(s, id, super::sheet::ARMOR) {
        0
    } else {
        s.get(id).map_or(0, |c| c.stat(AR))
    };
    if s.has(id, "Defending") {
        base + 2
    } else {
        base
    }
}

/// The death and dismemberment roll (d8): a note, and death on 6 or more.
pub fn dismember(s: &State, id: u32, d8: u32) -> Option<Event> {
    let c = s.get(id)?;
    let line = super::sheet::dismemberment(d8);
    let note = Event::Note(format!(
        "{} rolls {} on the death and dismemberment table: {}",
        c.name, d8, line
    ));
    // What the character lives with is kept as a lasting condition of the line's name, so
    // its saved sheet lists it (`shared`).
    let kept = Event::Add(id, line.into(), Duration::Removed);
    Some(Event::Batch(match d8 {
        4 => vec![note, kept, Event::Set(id, ONE_LEG, 1)],
        5 => vec![note, kept, Event::Add(id, "Mute".into(), Duration::Removed)],
        6.. => vec![note, Event::Dies(id)],
        _ => vec![note, kept],
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{parse, ScriptedSource};
    use crate::rules::encounter::Event as E;
    use crate::rules::vogt::{damage_expr, Item};

    fn npc(name: &str, hp: i32, dex: i32) -> Combatant {
        let mut c = Combatant::new(&VOGT, name, hp);
        c.stats[DEX] = dex;
        c.texts = vec!["1d6".into(), "slash".into(), String::new(), String::new()];
        c
    }

    fn fight() -> Vec<Event> {
        vec![
            E::Join(npc("A", 10, 2)),
            E::Join(npc("B", 10, 3)),
            E::Join(npc("C", 10, 2)),
            E::Start,
        ]
    }

    /// Everyone declares and rolls these faces: one step pushed onto the fight.
    fn roll_round(ev: &mut Vec<Event>, acts: &[(u32, Action)], faces: &[u32]) {
        let s = State::replay(&VOGT, ev);
        let mut src = ScriptedSource::new(faces.to_vec());
        ev.push(declare_all(&s, acts, &mut src));
    }

    /// Everyone defends (1d4), rolling these faces.
    fn all_defend(ev: &mut Vec<Event>, faces: &[u32]) {
        roll_round(
            ev,
            &[
                (1, Action::Defend),
                (2, Action::Defend),
                (3, Action::Defend),
            ],
            faces,
        );
    }

    fn order(s: &State) -> Vec<&str> {
        s.order.iter().map(|&i| s.name(i)).collect()
    }

    #[test]
    fn declared_dice_order_the_round_with_every_tie_break() {
        let mut ev = fight();
        // A attacks (1d8), B defends (1d4), C runs (1d6): A and B roll 3, C rolls 3.
        roll_round(
            &mut ev,
            &[
                (1, Action::Attack(Dice::new(1, 8))),
                (2, Action::Defend),
                (3, Action::Run),
            ],
            &[3, 3, 3],
        );
        let s = State::replay(&VOGT, &ev);
        // B has the higher DEX; A and C tie on DEX, C's 1d6 is the smaller die.
        assert_eq!(order(&s), vec!["B", "C", "A"]);
        assert_eq!(s.why_before(2, 3), "higher DEX 3 vs 2");
        assert_eq!(s.why_before(3, 1), "smaller die 1d6 vs 1d8");
        assert_eq!(
            declared(s.get(1).unwrap()),
            Some(Action::Attack(Dice::new(1, 8)))
        );
        assert!(s
            .log
            .iter()
            .any(|l| l.text == "A declares Attack and rolls 1d8 for initiative: 3"));
    }

    #[test]
    fn the_fight_moves_a_character_as_far_as_its_sheet_says() {
        // Seed 002: exhaustion 1 halves speed; a lost leg leaves movement 1 (at most 1 after
        // the halvings, as the sheet counts it).
        for movement in 0..=8 {
            for exhaustion in 0..=2 {
                for leg in [false, true] {
                    let sheet = VogtSheet {
                        movement,
                        exhaustion,
                        injuries: if leg {
                            vec![DISMEMBERMENT[3].into()]
                        } else {
                            Vec::new()
                        },
                        ..VogtSheet::default()
                    };
                    let mut s = State::new(&VOGT);
                    s.apply(&Event::Join(from_sheet("A", &sheet)));
                    assert_eq!(
                        speed(&s, 1),
                        sheet.speed().0,
                        "movement {movement}, exhaustion {exhaustion}, lost leg {leg}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_sheet_above_its_halved_maximum_joins_at_that_maximum() {
        let sheet = VogtSheet {
            hp_max: 10,
            hp: 10,
            exhaustion: 2,
            ..VogtSheet::default()
        };
        let c = from_sheet("A", &sheet);
        // The maximum joins whole; the fight halves it while exhaustion is 2 or more.
        assert_eq!((c.hp, c.hp_max, VOGT.hp_max(&c)), (5, 10, 5));
    }

    #[test]
    fn unconscious_rolls_10d10() {
        let mut ev = fight();
        ev.push(E::Add(1, "Unconscious".into(), Duration::Removed));
        let s = State::replay(&VOGT, &ev);
        assert_eq!(init_side(&s, 1, Action::Defend).dice, UNCONSCIOUS_INIT);
        let mut src = ScriptedSource::new([1; 10]);
        let step = declare_all(&s, &[(1, Action::Defend)], &mut src);
        ev.push(step);
        let s = State::replay(&VOGT, &ev);
        // 10d10: highest 100, ten dice.
        assert_eq!(s.get(1).unwrap().init, vec![10, -2, 10010]);
        // The declaration keeps the action's own die for when it wakes.
        assert_eq!(declared(s.get(1).unwrap()), Some(Action::Defend));
        assert_eq!(s.get(1).unwrap().stat(DICE), 1);
    }

    #[test]
    fn reevaluate_adds_the_new_die_and_moves_the_turn_on() {
        let mut ev = fight();
        roll_round(
            &mut ev,
            &[(1, Action::Defend), (2, Action::Run), (3, Action::Help)],
            &[1, 4, 5],
        );
        ev.push(E::Add(1, "Bleeding".into(), Duration::Removed));
        ev.push(E::Next); // A's turn: bleeds 1
        let s = State::replay(&VOGT, &ev);
        assert_eq!((s.current, s.get(1).unwrap().hp), (Some(1), 9));
        let mut src = ScriptedSource::new([6]);
        ev.push(reevaluate(&s, 1, Action::Attack(Dice::new(1, 6)), &mut src).unwrap());
        let s = State::replay(&VOGT, &ev);
        // 1 + 6 = 7: after B (4) and C (5); B acts now.
        assert_eq!(order(&s), vec!["B", "C", "A"]);
        assert_eq!(s.current, Some(2));
        ev.extend([E::Next, E::Next]);
        let s = State::replay(&VOGT, &ev);
        // A's turn resumes: no second bleeding.
        assert_eq!((s.current, s.get(1).unwrap().hp), (Some(1), 9));
        assert!(s.log.iter().any(|l| l.text == "A’s turn resumes"));
        // Next round A bleeds again at its turn's start.
        ev.push(E::Next);
        let s = State::replay(&VOGT, &ev);
        assert_eq!((s.round, s.current), (2, None));
        all_defend(&mut ev, &[1, 2, 3]);
        ev.push(E::Next);
        let s = State::replay(&VOGT, &ev);
        assert_eq!((s.current, s.get(1).unwrap().hp), (Some(1), 8));
    }

    #[test]
    fn damage_to_zero_adds_exhaustion_and_prone_and_unconscious_at_three() {
        let mut ev = fight();
        ev.push(E::Damage(vec![1], 12));
        let s = State::replay(&VOGT, &ev);
        let a = s.get(1).unwrap();
        assert_eq!((a.hp, a.death), (-2, 1));
        assert!(s.has(1, "Prone") && !s.has(1, "Unconscious"));
        ev.push(E::Add(1, "Bleeding".into(), Duration::Removed));
        ev.push(E::Damage(vec![1], 1));
        ev.push(E::Damage(vec![1], 0)); // no damage taken: no level
        let s = State::replay(&VOGT, &ev);
        assert_eq!(s.get(1).unwrap().death, 2);
        assert_eq!(s.conditions_of(1).filter(|a| a.name == "Prone").count(), 1);
        ev.push(E::Damage(vec![1], 2));
        let s = State::replay(&VOGT, &ev);
        assert_eq!(s.get(1).unwrap().death, 3);
        assert!(s.has(1, "Unconscious") && unconscious(&s, 1));
        ev.push(E::Damage(vec![1], 2));
        let s = State::replay(&VOGT, &ev);
        assert!(s
            .log
            .last()
            .unwrap()
            .text
            .contains("exhaustion 4: a roll on the table is due"));
        let s2 = {
            let mut e = ev.clone();
            e.push(dismember(&s, 1, 6).unwrap());
            State::replay(&VOGT, &e)
        };
        assert!(s2.get(1).unwrap().dead);
        let mut e = ev.clone();
        e.push(dismember(&s, 1, 2).unwrap());
        let s3 = State::replay(&VOGT, &e);
        assert!(!s3.get(1).unwrap().dead);
        assert!(s3.log.last().unwrap().text.ends_with("Lost an arm"));
        // A lost leg: movement 1; the voice: mute.
        let mut e = ev.clone();
        e.push(dismember(&s, 1, 4).unwrap());
        e.push(dismember(&s, 1, 5).unwrap());
        let s4 = State::replay(&VOGT, &e);
        assert_eq!(s4.get(1).unwrap().stat(ONE_LEG), 1);
        assert!(s4.has(1, "Mute"));
        // Healing keeps the exhaustion levels; level 2 halved the maximum (10 → 5).
        e.push(E::Heal(vec![1], 20, false));
        let s5 = State::replay(&VOGT, &e);
        let a = s5.get(1).unwrap();
        assert_eq!((a.hp, VOGT.hp_max(a), a.death), (5, 5, 4));
    }

    #[test]
    fn one_roll_hits_every_target_through_its_own_resistances() {
        let mut ev = fight();
        ev[1] = {
            let mut b = npc("B", 20, 3);
            b.texts[T_RESIST] = "slash".into();
            E::Join(b)
        };
        ev.push(E::Add(3, "Nauseated".into(), Duration::Removed));
        let s = State::replay(&VOGT, &ev);
        let e = damage_expr("1d6", 1).unwrap();
        // A critical: 6, then 3, + 1 STR = 10.
        let mut src = ScriptedSource::new([6, 3]);
        let (step, total) = hit(&s, 1, &[2, 3], &e, "slash", &mut src);
        assert_eq!(total, 10);
        ev.push(step);
        let s = State::replay(&VOGT, &ev);
        assert_eq!(s.get(2).unwrap().hp, 15); // resisted: 5
        assert_eq!(s.get(3).unwrap().hp, -10); // nauseated: 20 taken (below 0: review #5)
        assert!(s
            .log
            .iter()
            .any(|l| l.text == "A deals 1d6!+1 slash: [6+3 (critical)] = 10"));
        assert_eq!(takes(&s, 3, "fire"), Takes::default());
        let _ = parse("1d6").unwrap();
    }

    #[test]
    fn defend_run_help_and_ar() {
        let mut ev = fight();
        roll_round(
            &mut ev,
            &[(1, Action::Defend), (2, Action::Run), (3, Action::Help)],
            &[1, 2, 3],
        );
        ev.extend([E::Next, defend(1)]);
        let s = State::replay(&VOGT, &ev);
        assert_eq!(ar_now(&s, 1), 2);
        ev.extend([E::Next, run(2), E::Next, help(3, 1)]);
        let s = State::replay(&VOGT, &ev);
        assert!(s.has(2, "Running") && s.has(1, "Helped"));
        ev.push(E::Next); // round ends: Running ends
        let s = State::replay(&VOGT, &ev);
        assert!(!s.has(2, "Running") && s.has(1, "Defending"));
        all_defend(&mut ev, &[3, 2, 1]);
        ev.push(E::Next); // C's turn starts: Helped on A ends
        let s = State::replay(&VOGT, &ev);
        assert_eq!(s.current, Some(3));
        assert!(!s.has(1, "Helped") && s.has(1, "Defending"));
        ev.extend([E::Next, E::Next]); // A's turn starts: Defending ends
        let s = State::replay(&VOGT, &ev);
        assert!(!s.has(1, "Defending"));
        ev.push(E::Add(1, "Prone".into(), Duration::Removed));
        assert_eq!(ar_now(&State::replay(&VOGT, &ev), 1), 0);
    }

    #[test]
    fn speed_in_the_fight_follows_exhaustion_prone_and_running() {
        let mut ev = fight();
        ev.push(E::Set(1, MOVE, 6));
        let s = State::replay(&VOGT, &ev);
        assert_eq!(speed(&s, 1), 6);
        ev.push(E::Add(1, "Running".into(), Duration::Removed));
        ev.push(E::Add(1, "Prone".into(), Duration::Removed));
        assert_eq!(speed(&State::replay(&VOGT, &ev), 1), 6);
        ev.push(E::Damage(vec![1], 10)); // exhaustion 1
        assert_eq!(speed(&State::replay(&VOGT, &ev), 1), 2);
        ev.push(E::Add(1, "Immobile".into(), Duration::Removed));
        assert_eq!(speed(&State::replay(&VOGT, &ev), 1), 0);
    }

    #[test]
    fn statuses_in_the_fight_take_a_die_off() {
        let mut ev = fight();
        ev.push(E::Add(2, "Frozen".into(), Duration::Removed));
        let s = State::replay(&VOGT, &ev);
        assert_eq!((rung(&s, 2, DEX), rung(&s, 1, DEX)), (2, 2));
        assert_eq!(init_side(&s, 2, Action::Defend).dex, 2);
        ev.push(E::Add(2, "Frozen".into(), Duration::Removed));
        // The same status twice still takes one die off.
        let s = State::replay(&VOGT, &ev);
        assert_eq!(rung(&s, 2, DEX), 2);
    }

    #[test]
    fn a_sheet_joins_with_abilities_before_statuses_and_its_whole_maximum() {
        let mut sh = VogtSheet {
            abilities: [3, 4, 2, 2],
            statuses: vec!["Frozen".into()],
            exhaustion: 2,
            hp_max: 12,
            hp: 5,
            ..VogtSheet::default()
        };
        sh.items.insert(
            0,
            Item {
                name: "Rope".into(),
                slots: 1,
                count: 1,
                per_slot: 1,
                quick: false,
                damage: String::new(),
                dtype: String::new(),
            },
        );
        let c = from_sheet("Bo", &sh);
        // Corrected (review N1): the rungs join before Frozen, which joins as a condition and
        // takes its die off there (`rung`) once; the maximum joins whole and halves there.
        assert_eq!(
            (
                c.stat(STR),
                c.stat(DEX),
                c.hp,
                c.hp_max,
                VOGT.hp_max(&c),
                c.death
            ),
            (3, 4, 5, 12, 6, 2)
        );
        assert_eq!((c.text(T_WEAPON), c.text(T_DTYPE)), ("1d6", "blunt"));
    }
}
