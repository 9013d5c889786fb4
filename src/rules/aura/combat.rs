//! Energy / Aura on the encounter engine: no turns, rounds whose start refills energy (from
//! stamina) and agility and the once-per-round initiative roll, swift attack and stamina swap.
//! Actions are data with their costs; [`can`] refuses what the pools or conditions forbid, with
//! the reason; every action is one [`Event::Batch`] (one undo). Attacks are rolled here, with a
//! `DiceSource` passed in, and come back as events: the spend, the rolls as a note, the damage,
//! exposure and the death roll due at 0 aura.
//!
//! Decisions where the seed is silent, taken here:
//! - A death roll is due when a combatant already at 0 aura takes damage (the seed: "any
//!   further damage"); the hit that takes aura to 0 does not call for one.
//! - Exposure from a critical hit lasts to the end of the round (the Exposed section's default);
//!   from an attacker's roll of 1–3, to the end of the next round (as the tables say).
//! - Catch your breath costs 3 energy, or all that is left when less.
//! - Non-lethal damage to a target at 0 aura does both things the seed says (its two paragraphs
//!   read as the two sides of one event): exhausted to the end of the next round, shaken until
//!   a short rest, and 5 stamina lost (unconscious at 0).
//! - A linked character's sheet conditions that are in the fight's catalogue join the fight
//!   with it (until removed), and the fight's removals leave the sheet ([`super::sync`]).
//! - Throwing (seed 17, 272–288): the held melee weapon can be thrown as a ranged attack for 1
//!   energy; without the Thrown property it is an improvised throw (half damage unless the hit
//!   roll is a natural 20), with it its AV bonus is its accuracy. The weapon leaves the hand:
//!   the log says so and that picking it up is the usual 1-energy action; the fight does not
//!   track where it lies, so the melee attack stays on the list (the table keeps it honest).
//!   A quick NPC throws its weapon as an improvised one (no Thrown field).
//! - From behind (seed 204, 338–342, 404): a melee attack from where the target is not facing
//!   meets its unarmed evasion (no weapon, no shield bonus) rolled with disadvantage; a ranged
//!   one meets its ranged evasion without the shield bonus, with disadvantage, still on 1d4*
//!   (unarmed evasion is a melee figure). Disarm needs a target facing the attacker (565).
//! - Automatic hits (seed 346, 653, 686): a Helpless target (asleep or tied fast) rolls no
//!   evasion and every attack hits it; an Unconscious one is hit by every melee attack. The
//!   attack's d20 is still rolled: it decides a critical (past the armor), the armor coverage
//!   and the attacker's exposure on 1–3. Decision: a natural 1 hits too (the seed says the hit
//!   is automatic; the 1 still exposes the attacker).
//! - Escaping a hold (seed 575, 682): 3 energy; the held one rolls fortitude (1d10*) against
//!   the holder's fortitude roll, or against a DC when no one in the fight holds it. We use
//!   fortitude on both sides (the seed's Arm / Leg Strength checks have no roll defined here).
//!   A tie keeps the hold (the escaper must beat the holder's roll); against a DC, reaching it
//!   is enough (as every d20-versus-DC roll of the seed). The holder is kept as the target's
//!   "Held by" stat, set by the restrain that made the hold.
//! - Size limits (561, 573, 589): sizes are indexes of `SIZES`, Huge (0) to Fine (6): a lower
//!   index is larger. Trip reaches a target at most one category larger; restrain and push
//!   none larger. Light weapons cannot disarm heavy ones (567): the weapon weight is a stat.
//! - Swift attacks (481–487) need a target that is unguarded (helpless and unconscious imply
//!   it), or one passing through the attacker's reach (the attacker says so).

use super::rolls::{
    crit_from, dealt, death_roll, death_save, defence_roll, DeathRoll, DeathSave, Takes,
};
use super::sheet::AuraSheet;
use crate::rules::dice::{
    roll, Chance, DiceSource, DieRoll, Distribution, Edge, Expr, RollOutcome, TermRoll,
};
use crate::rules::encounter::systems::AURA;
use crate::rules::encounter::{Combatant, Duration, Event, State};

// Stats of a combatant (indexes of `AURA.stats`).
pub const MAX_STAMINA: usize = 0;
pub const MAX_AGILITY: usize = 1;
pub const EVASION: usize = 2;
pub const RANGED_EVASION: usize = 3;
pub const UNARMED_EVASION: usize = 4;
pub const FORTITUDE: usize = 5;
pub const WILL: usize = 6;
pub const COVERAGE: usize = 7;
pub const RANGED_COVERAGE: usize = 8;
pub const AR: usize = 9;
pub const SIZE: usize = 10;
pub const MELEE_AV: usize = 11;
pub const MELEE_BONUS: usize = 12;
pub const MELEE_PRECISE: usize = 13;
pub const MISS_MOD: usize = 14;
pub const RANGED_BONUS: usize = 15;
pub const RANGED_PRECISE: usize = 16;
pub const INITIATIVE: usize = 17;
pub const SHOT_ENERGY: usize = 18;
pub const UNARMED_AV: usize = 19;
pub const UNARMED_DAMAGE: usize = 20;
/// 1 when the weapon is used without proficiency (half damage).
pub const MELEE_HALVED: usize = 21;
pub const RANGED_HALVED: usize = 22;
/// 1 when the melee weapon is blunt (non-lethal from a chance roll of 5).
pub const BLUNT: usize = 23;
/// Throwing the held melee weapon: its miss chance modifier, precise, 1 when it lacks the
/// Thrown property (an improvised throw), and its range trio (with Arm Strength's extra).
pub const THROW_MISS_MOD: usize = 24;
pub const THROW_PRECISE: usize = 25;
pub const THROW_IMPROVISED: usize = 26;
pub const THROW_RANGE: [usize; 3] = [27, 28, 29];
/// The held melee weapon's weight class: 0 other, [`LIGHT`] or [`HEAVY`].
pub const WEIGHT: usize = 30;
/// The shield bonus counted in evasion and ranged evasion (lost from behind).
pub const SHIELD: usize = 31;
/// Who holds this combatant (its id; 0: no one in the fight).
pub const HELD_BY: usize = 32;
/// The weapon slots and what was dropped (see `super::gear`): the melee weapon in hand, the
/// ranged weapon ready, the evasion the one in hand adds, a dropped weapon's slot code + 1.
pub const MELEE_GEAR: usize = 33;
pub const RANGED_GEAR: usize = 34;
pub const HELD_EV: usize = 35;
pub const DROPPED: usize = 36;
/// The DC of a hold no one in the fight makes (a net, a trap), set by the GM (0: not set, the
/// default [`ESCAPE_DC_DEFAULT`] stands).
pub const ESCAPE_DC: usize = 37;
/// Death rolls due: one for every hit taken at 0 aura, counted down by each death roll made.
pub const DEATH_DUE: usize = 38;
pub const LIGHT: i32 = 1;
pub const HEAVY: i32 = 2;

/// The weight class of a weapon as [`WEIGHT`] keeps it.
pub fn weight_of(w: &super::sheet::Weapon) -> i32 {
    if w.heavy {
        HEAVY
    } else if w.light {
        LIGHT
    } else {
        0
    }
}

/// The throwing range of a weapon of this weight without a range of its own (seed 272).
pub fn throw_range(weight: i32) -> [i32; 3] {
    match weight {
        LIGHT => [3, 5, 10],
        HEAVY => [1, 3, 6],
        _ => [2, 4, 8],
    }
}

// Texts: damage dice of the melee and the ranged weapon ("" when none).
pub const T_MELEE: usize = 0;
pub const T_RANGED: usize = 1;

// Resources (indexes of `AURA.resources`).
pub const ENERGY: usize = 0;
pub const AGILITY: usize = 1;
pub const STAMINA: usize = 2;
pub const INIT_ROLL: usize = 3;
pub const SWIFT: usize = 4;
pub const SWAP: usize = 5;
/// Once a round each: the death save while bleeding out, the d20 to wake.
pub const SAVE: usize = 6;
pub const WAKE: usize = 7;
/// This round's movement in thirds of a metre (a Run is a third of Speed per energy), and the
/// agile moves the round's non-movement energy has earned (seed l.29), both counted up from 0.
pub const MOVED: usize = 8;
pub const AGILE: usize = 9;
/// 1 while `who` keeps its initiative roll this round (it declines to answer challenges).
pub const KEEPS_INIT: usize = 10;

/// A linked character as a combatant: its defences, every weapon of its sheet (its first held
/// melee weapon in hand, its first ranged weapon ready), its aura (hit points) and stamina now.
pub fn from_sheet(name: &str, s: &AuraSheet) -> Combatant {
    let mut c = Combatant::new(&AURA, name, s.aura_strength().0);
    c.hp = s.aura.min(c.hp_max.max(s.aura));
    c.pc = true;
    c.dead = s.dead;
    let st = &mut c.stats;
    st[MAX_STAMINA] = s.max_stamina().0;
    st[MAX_AGILITY] = s.max_agility().0;
    st[EVASION] = s.evasion().0;
    st[RANGED_EVASION] = s.ranged_evasion().0;
    st[UNARMED_EVASION] = s.unarmed_evasion().0;
    st[FORTITUDE] = s.fortitude().0;
    st[WILL] = s.will().0;
    st[COVERAGE] = s.armor.ac;
    st[RANGED_COVERAGE] = s.armor.ranged_ac;
    st[AR] = s.armor.ar;
    st[SIZE] = s.size as i32;
    st[INITIATIVE] = s.initiative_bonus().0;
    st[UNARMED_AV] = s.unarmed_av().0;
    st[UNARMED_DAMAGE] = s.unarmed_damage().0;
    st[SHIELD] = if s.shield.carried { s.shield.bonus } else { 0 };
    let melee = s.weapons.iter().position(|w| !w.ranged && w.held);
    let shot = s.weapons.iter().position(|w| w.ranged);
    let code = |i: Option<usize>| i.map_or(0, |i| i as i32 + 1);
    st[MELEE_GEAR] = code(melee);
    st[RANGED_GEAR] = code(shot);
    // Every weapon of the sheet, to take in hand in the fight (`super::gear`): the slots name
    // the one in hand and the one ready.
    let hands: Vec<super::gear::Hand> = s
        .weapons
        .iter()
        .map(|w| super::gear::Hand::of(s, w))
        .collect();
    st[HELD_EV] = melee.map_or(0, |i| hands[i].ev);
    let mut texts = vec![String::new(), String::new()];
    texts.extend(hands.iter().map(super::gear::Hand::text));
    c.texts = texts;
    c.pools = vec![0; AURA.resources.len()];
    c.pools[STAMINA] = s.stamina;
    c
}

/// A quick NPC: defences, one weapon, aura and stamina.
pub struct Npc {
    pub aura: i32,
    pub stamina: i32,
    pub evasion: i32,
    /// Its ranged evasion (rolled on 1d4*), unarmed evasion (no weapon or shield bonus).
    pub ranged_evasion: i32,
    pub unarmed_evasion: i32,
    pub fortitude: i32,
    pub will: i32,
    pub initiative: i32,
    pub av: i32,
    pub damage: String,
    pub bonus: i32,
    /// Its unarmed AV (restrain and push are made with it).
    pub unarmed_av: i32,
    /// Its ranged weapon's damage dice ("" none) and miss chance modifier.
    pub shot: String,
    pub miss: i32,
    pub coverage: i32,
    pub ranged_coverage: i32,
    pub ar: i32,
    /// An index of `SIZES` (Huge 0 … Fine 6; Medium is 2).
    pub size: usize,
    /// Its weapon's weight class: 0 other, [`LIGHT`], [`HEAVY`].
    pub weight: i32,
    /// Its melee weapon is blunt (non-lethal from a chance roll of 5), and its precise value
    /// (a critical on 20 − precise and up).
    pub blunt: bool,
    pub precise: i32,
}

impl Default for Npc {
    /// A Medium creature with a 1d8 weapon: the quick form's starting numbers.
    fn default() -> Self {
        Npc {
            aura: 20,
            stamina: 10,
            evasion: 9,
            ranged_evasion: 1,
            unarmed_evasion: 8,
            fortitude: 11,
            will: 10,
            initiative: 0,
            av: 16,
            damage: "1d8".into(),
            bonus: 1,
            unarmed_av: 14,
            shot: String::new(),
            miss: 8,
            coverage: 0,
            ranged_coverage: 0,
            ar: 0,
            size: 2,
            weight: 0,
            blunt: false,
            precise: 0,
        }
    }
}

pub fn npc(name: &str, n: &Npc) -> Combatant {
    let mut c = Combatant::new(&AURA, name, n.aura);
    let st = &mut c.stats;
    st[MAX_STAMINA] = n.stamina;
    st[MAX_AGILITY] = 3;
    st[EVASION] = n.evasion;
    st[RANGED_EVASION] = n.ranged_evasion;
    st[UNARMED_EVASION] = n.unarmed_evasion;
    st[FORTITUDE] = n.fortitude;
    st[WILL] = n.will;
    st[INITIATIVE] = n.initiative;
    st[COVERAGE] = n.coverage;
    st[RANGED_COVERAGE] = n.ranged_coverage;
    st[AR] = n.ar;
    st[SIZE] = n.size.min(super::sheet::SIZES.len() - 1) as i32;
    st[WEIGHT] = n.weight.clamp(0, HEAVY);
    // Its weapon thrown as an improvised one: accuracy 0, no Dex known.
    st[THROW_MISS_MOD] = 8;
    st[THROW_IMPROVISED] = 1;
    for (i, v) in THROW_RANGE.into_iter().zip(throw_range(st[WEIGHT])) {
        st[i] = v;
    }
    st[MELEE_AV] = n.av;
    st[MELEE_BONUS] = n.bonus;
    st[BLUNT] = i32::from(n.blunt);
    st[MELEE_PRECISE] = n.precise.clamp(0, 18);
    st[UNARMED_AV] = n.unarmed_av;
    st[UNARMED_DAMAGE] = 1;
    st[SHOT_ENERGY] = 1;
    st[MISS_MOD] = n.miss;
    c.texts = vec![n.damage.clone(), n.shot.clone()];
    c
}

/// Quick NPCs `names`, all of `n`, joining as one step; with no stamina they join
/// unconscious, as stamina at 0 knocks out (seed l.72).
pub fn npcs_join(s: &State, names: Vec<String>, n: &Npc) -> Event {
    let first = s.next_id();
    let count = names.len() as u32;
    let group = Event::Group(names.into_iter().map(|x| npc(&x, n)).collect());
    if n.stamina > 0 {
        return group;
    }
    let mut out = vec![group];
    out.extend(
        (first..first + count).map(|id| Event::Add(id, "Unconscious".into(), Duration::Removed)),
    );
    Event::Batch(out)
}

/// An action of the list: what it costs, how far it moves, and what it does besides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Act {
    pub name: &'static str,
    pub energy: i32,
    pub agility: i32,
    pub stamina: i32,
    pub kind: Kind,
    pub moves: Moves,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Move,
    /// 1 m for 1 agility, earned by energy spent on other actions (seed l.29).
    AgileMove,
    /// Other actions (equip, pick up).
    Other,
    /// Loads a ranged weapon (the weapon sets the cost); a shaken hand may drop it.
    Load,
    /// Gets up from prone to kneeling: removes Prone, leaves the combatant unguarded.
    Kneel,
    /// From kneeling to standing.
    StandUp,
    Defend,
    CatchBreath,
    /// Picks up an item: exposed.
    PickUp,
    /// Lands a jump: unguarded.
    Jump,
}

/// How far an action moves: a metre, thirds of the mover's Speed, or past its Speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moves {
    Still,
    Metre,
    Thirds(i32),
    Beyond,
}

const fn act(
    name: &'static str,
    energy: i32,
    agility: i32,
    stamina: i32,
    kind: Kind,
    moves: Moves,
) -> Act {
    Act {
        name,
        energy,
        agility,
        stamina,
        kind,
        moves,
    }
}

const STILL: Moves = Moves::Still;

/// Every action that is not an attack (SPEC §6 and decision 2). New ones go at the end: an
/// intent names an action by its place here.
pub const ACTS: [Act; 18] = [
    act("Run", 3, 0, 0, Kind::Move, Moves::Thirds(3)),
    act(
        "Sprint (run + 1 stamina)",
        3,
        0,
        1,
        Kind::Move,
        Moves::Beyond,
    ),
    act("Quick run", 2, 0, 0, Kind::Move, Moves::Thirds(2)),
    act("Shift 1 m", 1, 0, 0, Kind::Move, Moves::Metre),
    act("Shift 1 m with agility", 0, 2, 0, Kind::Move, Moves::Metre),
    act("Agile move 1 m", 0, 1, 0, Kind::AgileMove, Moves::Metre),
    act("Jump after moving 2 m", 1, 0, 1, Kind::Jump, STILL),
    act("Standing jump", 2, 0, 1, Kind::Jump, STILL),
    act("Kneel from prone", 1, 0, 0, Kind::Kneel, STILL),
    act("Stand up", 1, 0, 0, Kind::StandUp, STILL),
    act("Defend", 1, 0, 0, Kind::Defend, STILL),
    act("Stow or equip a side arm", 1, 0, 0, Kind::Other, STILL),
    act("Stow or equip an item", 2, 0, 0, Kind::Other, STILL),
    act("Pick up an item", 1, 0, 0, Kind::PickUp, STILL),
    act(
        "Catch your breath (+1 stamina)",
        3,
        0,
        0,
        Kind::CatchBreath,
        STILL,
    ),
    // An incomplete run pays for what it did (seed l.142): a third of Speed, 1 energy.
    act(
        "Run, stopped at a third of Speed",
        1,
        0,
        0,
        Kind::Move,
        Moves::Thirds(1),
    ),
    act(
        "Load a ranged weapon (1 energy)",
        1,
        0,
        0,
        Kind::Load,
        STILL,
    ),
    act(
        "Load a ranged weapon (2 energy)",
        2,
        0,
        0,
        Kind::Load,
        STILL,
    ),
];

/// `who`'s Speed in metres now: its size's, halved (rounded up) while slowed.
pub fn speed(s: &State, who: u32) -> i32 {
    let size = s
        .get(who)
        .map_or(super::MEDIUM, |c| c.stat(SIZE).clamp(0, 6) as usize);
    let v = super::SIZES[size].speed;
    if s.has(who, "Slowed") {
        (v + 1) / 2
    } else {
        v
    }
}

/// How far `a` takes `who`, in thirds of a metre.
fn thirds(s: &State, who: u32, m: Moves) -> i32 {
    match m {
        Moves::Still => 0,
        Moves::Metre => 3,
        Moves::Thirds(k) => k * speed(s, who),
        Moves::Beyond => 3 * speed(s, who) + 3,
    }
}

/// The chance roll a shaken combatant makes to keep hold of what it handles (seed l.666: DC 5).
pub const DROP_DC: u32 = 5;

/// Whether `a` taken by `who` now calls for the shaken drop roll.
/// The actions a weapon is stowed or taken in hand with: a side arm (1 energy), else 2.
pub const SIDE_ARM_ACT: usize = 11;
pub const ITEM_ACT: usize = 12;

pub fn drop_roll_due(s: &State, who: u32, a: &Act) -> bool {
    matches!(a.kind, Kind::Other | Kind::Load) && s.has(who, "Shaken")
}

fn pool(s: &State, who: u32, i: usize) -> i32 {
    s.get(who)
        .and_then(|c| c.pools.get(i).copied())
        .unwrap_or(0)
}

/// Whether `who` may spend stamina (not exhausted, not shaken).
fn stamina_barred(s: &State, who: u32) -> Option<&'static str> {
    ["Exhausted", "Shaken"].into_iter().find(|&c| s.has(who, c))
}

/// Why `who` cannot act at all now (not in the fight, dead, before the start, unconscious).
pub fn cannot_act(s: &State, who: u32) -> Result<(), String> {
    let Some(c) = s.get(who) else {
        return Err("not in the fight".into());
    };
    if c.dead {
        return Err("dead".into());
    }
    if s.round == 0 {
        return Err("the fight has not started".into());
    }
    if s.has(who, "Unconscious") {
        return Err("unconscious".into());
    }
    Ok(())
}

fn pays(s: &State, who: u32, energy: i32, agility: i32, stamina: i32) -> Result<(), String> {
    let e = pool(s, who, ENERGY);
    if energy > e {
        return Err(format!("needs {energy} energy, {e} left"));
    }
    let a = pool(s, who, AGILITY);
    if agility > 0 && s.has(who, "Slowed") {
        return Err("slowed: no agility".into());
    }
    if agility > a {
        return Err(format!("needs {agility} agility, {a} left"));
    }
    if stamina > 0 {
        if let Some(why) = stamina_barred(s, who) {
            return Err(format!("{}: no stamina may be spent", why.to_lowercase()));
        }
        let st = pool(s, who, STAMINA);
        if stamina > st {
            return Err(format!("needs {stamina} stamina, {st} left"));
        }
    }
    Ok(())
}

/// Why `who` cannot take `a` now, if it cannot.
pub fn can(s: &State, who: u32, a: &Act) -> Result<(), String> {
    cannot_act(s, who)?;
    if matches!(a.kind, Kind::Move | Kind::Jump | Kind::AgileMove) {
        if s.has(who, "Restrained") {
            return Err("restrained: no movement".into());
        }
        if s.has(who, "Helpless") {
            return Err("helpless: no movement".into());
        }
        if s.has(who, "Prone") {
            return Err("prone: kneel first".into());
        }
        if s.has(who, "Kneeling") {
            return Err("kneeling: stand up first (1 energy)".into());
        }
    }
    if a.kind == Kind::AgileMove && pool(s, who, AGILE) < 1 {
        return Err(
            "an agile move comes once per energy spent on something other than moving: none earned"
                .into(),
        );
    }
    if a.kind == Kind::Kneel && !s.has(who, "Prone") {
        return Err("not prone".into());
    }
    if a.kind == Kind::StandUp && s.has(who, "Prone") {
        return Err("prone: kneel first (1 energy), then stand".into());
    }
    if a.kind == Kind::StandUp && !s.has(who, "Kneeling") {
        return Err("already standing".into());
    }
    let energy = if a.kind == Kind::CatchBreath {
        // Three, or all that is left (at least one).
        a.energy.min(pool(s, who, ENERGY)).max(1)
    } else {
        a.energy
    };
    pays(s, who, energy, a.agility, a.stamina)
}

fn spend_events(s: &State, who: u32, energy: i32, agility: i32, stamina: i32) -> Vec<Event> {
    let mut out = Vec::new();
    if energy > 0 {
        out.push(Event::Spend(who, ENERGY, energy));
    }
    if agility > 0 {
        out.push(Event::Spend(who, AGILITY, agility));
    }
    if stamina > 0 {
        out.push(Event::Spend(who, STAMINA, stamina));
        if pool(s, who, STAMINA) - stamina <= 0 {
            out.push(Event::Add(who, "Unconscious".into(), Duration::Removed));
        }
    }
    out
}

/// Removes `name` from `who` where no parent condition holds it; says so where one does.
fn clear(s: &State, who: u32, name: &str, out: &mut Vec<Event>) {
    for a in s.conditions_of(who).filter(|a| a.name == name) {
        if a.parent.is_none() {
            out.push(Event::Remove(a.cid));
        } else if let Some(p) = s.conditions.iter().find(|x| Some(x.cid) == a.parent) {
            out.push(Event::Note(format!(
                "{} stays {} while {}",
                s.name(who),
                name.to_lowercase(),
                p.name.to_lowercase()
            )));
        }
    }
}

/// The events of `who` taking `a` (check [`can`] first); `drop` the d20 of the shaken drop
/// roll when one is due ([`drop_roll_due`]).
pub fn take(s: &State, who: u32, a: &Act, drop: Option<u32>) -> Event {
    let energy = if a.kind == Kind::CatchBreath {
        a.energy.min(pool(s, who, ENERGY)).max(1)
    } else {
        a.energy
    };
    let mut out = vec![Event::Note(format!("{}: {}", s.name(who), a.name))];
    out.extend(spend_events(s, who, energy, a.agility, a.stamina));
    let moving = matches!(a.kind, Kind::Move | Kind::Jump | Kind::AgileMove);
    if !moving {
        out.extend(earned(who, energy));
    }
    if a.kind == Kind::AgileMove {
        out.push(Event::Spend(who, AGILE, 1));
    }
    let far = thirds(s, who, a.moves);
    if far > 0 {
        // Moving more than Speed in a round ends the defend bonus (seed l.35); a Run alone
        // moves exactly Speed and keeps it.
        if pool(s, who, MOVED) + far > 3 * speed(s, who) {
            clear(s, who, "Defending", &mut out);
        }
        out.push(Event::Spend(who, MOVED, -far));
    }
    if let Some(d) = drop {
        let kept = d >= DROP_DC;
        out.push(Event::Note(format!(
            "{} is shaken: chance roll {d} vs DC {DROP_DC}, {}",
            s.name(who),
            if kept { "keeps hold" } else { "drops it" }
        )));
    }
    match a.kind {
        Kind::Kneel => {
            clear(s, who, "Prone", &mut out);
            out.push(Event::Add(who, "Kneeling".into(), Duration::Removed));
            out.push(Event::Add(
                who,
                "Unguarded".into(),
                Duration::Round { n: 1 },
            ));
        }
        Kind::StandUp => clear(s, who, "Kneeling", &mut out),
        Kind::Defend => {
            // Ends being unguarded, then exposed, unless a parent condition holds them.
            clear(s, who, "Unguarded", &mut out);
            for x in s.conditions_of(who).filter(|x| x.name == "Exposed") {
                let parent = x
                    .parent
                    .and_then(|p| s.conditions.iter().find(|y| y.cid == p));
                match parent {
                    None => out.push(Event::Remove(x.cid)),
                    Some(p) if p.name == "Unguarded" && p.parent.is_none() => {}
                    Some(p) => out.push(Event::Note(format!(
                        "{} stays exposed while {}",
                        s.name(who),
                        p.name.to_lowercase()
                    ))),
                }
            }
            if !s.has(who, "Defending") {
                out.push(Event::Add(who, "Defending".into(), Duration::Removed));
            }
        }
        Kind::CatchBreath => {
            let max = s.get(who).map_or(0, |c| c.stat(MAX_STAMINA));
            if pool(s, who, STAMINA) < max {
                out.push(Event::Spend(who, STAMINA, -1));
            }
        }
        Kind::PickUp => {
            out.push(Event::Add(who, "Exposed".into(), Duration::Round { n: 1 }));
            // A weapon it dropped (disarmed) goes back in hand.
            if let Some(code) = s.get(who).and_then(super::gear::dropped) {
                out.extend(super::gear::wield_events(s, who, code, false));
            }
        }
        Kind::Jump => out.push(Event::Add(
            who,
            "Unguarded".into(),
            Duration::Round { n: 1 },
        )),
        Kind::Move | Kind::AgileMove | Kind::Other | Kind::Load => {}
    }
    Event::Batch(out)
}

/// The agile moves `energy` spent on something other than moving earns (one a point).
fn earned(who: u32, energy: i32) -> Option<Event> {
    (energy > 0).then(|| Event::Spend(who, AGILE, -energy))
}

/// Once per round: 1 stamina in place of 1 energy.
pub fn swap(s: &State, who: u32) -> Result<Event, String> {
    cannot_act(s, who)?;
    if pool(s, who, SWAP) < 1 {
        return Err("already swapped this round".into());
    }
    pays(s, who, 0, 0, 1)?;
    let mut out = vec![
        Event::Spend(who, SWAP, 1),
        Event::Trade(who, STAMINA, ENERGY),
    ];
    if pool(s, who, STAMINA) <= 1 {
        out.push(Event::Add(who, "Unconscious".into(), Duration::Removed));
    }
    Ok(Event::Batch(out))
}

/// The edge of `who`'s attack rolls from its conditions (dazed, blinded: disadvantage).
pub fn attack_edge(s: &State, who: u32, given: Edge) -> Edge {
    let worse = s.has(who, "Dazed") || s.has(who, "Blinded");
    combine(given, worse)
}

/// The edge of `who`'s defence roll: dazed or surprised on every defence; prone or blinded on
/// evasion (melee or ranged).
pub fn defence_edge(s: &State, who: u32, evasion: bool, given: Edge) -> Edge {
    let worse = s.has(who, "Dazed")
        || s.has(who, "Surprised")
        || (evasion && (s.has(who, "Prone") || s.has(who, "Blinded")));
    combine(given, worse)
}

/// Advantage and disadvantage cancel.
fn combine(given: Edge, worse: bool) -> Edge {
    match (given, worse) {
        (e, false) => e,
        (Edge::Advantage, true) => Edge::Normal,
        (_, true) => Edge::Disadvantage,
    }
}

/// The defence an attack meets: its die, value and edge, and what it is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guard {
    pub sides: u32,
    pub value: i32,
    pub edge: Edge,
    pub name: &'static str,
}

/// The defence `target` rolls against a melee or ranged attack, from where it is facing or
/// from behind (seed 204, 338–342, 404): from behind, melee meets its unarmed evasion and a
/// shot its ranged evasion without the shield, both with disadvantage; its conditions add their
/// edges ([`defence_edge`]).
pub fn guard(s: &State, target: u32, melee: bool, from_behind: bool) -> Guard {
    let stat = |i: usize| s.get(target).map_or(0, |c| c.stat(i));
    let edge = combine(defence_edge(s, target, true, Edge::Normal), from_behind);
    let (sides, value, name) = match (melee, from_behind) {
        (true, false) => (10, stat(EVASION), "evasion"),
        (true, true) => (10, stat(UNARMED_EVASION), "unarmed evasion (from behind)"),
        (false, false) => (4, stat(RANGED_EVASION), "ranged evasion"),
        (false, true) => (
            4,
            stat(RANGED_EVASION) - stat(SHIELD),
            "ranged evasion without the shield (from behind)",
        ),
    };
    Guard {
        sides,
        value,
        edge,
        name,
    }
}

/// Why an attack on `target` hits without a defence roll, if it does (seed 346, 653, 686): a
/// helpless target is hit by every attack, an unconscious one by melee attacks.
pub fn auto_hit(s: &State, target: u32, melee: bool) -> Option<&'static str> {
    if s.has(target, "Helpless") {
        Some("helpless: no evasion roll, every attack hits")
    } else if melee && s.has(target, "Unconscious") {
        Some("unconscious: melee attacks hit without an evasion roll")
    } else {
        None
    }
}

/// Whether `target` makes no ranged evasion roll: it must be aware of the shot and able to
/// avoid it (seed l.202); an unconscious one is neither (a helpless one is hit outright).
pub fn no_ranged_evasion(s: &State, target: u32) -> bool {
    s.has(target, "Unconscious")
}

/// Whether a maneuver can reach a target of this size (seed 561, 573, 589). Sizes index
/// `SIZES`, Huge 0 to Fine 6, so a lower index is larger.
pub fn size_limit(m: Maneuver, attacker: i32, target: i32) -> Result<(), String> {
    let larger = attacker - target;
    let most = if m == Maneuver::Trip { 1 } else { 0 };
    if m == Maneuver::Disarm || larger <= most {
        return Ok(());
    }
    let name = |i: i32| super::sheet::SIZES[i.clamp(0, 6) as usize].name;
    Err(format!(
        "too large to {}: {} against your {} (at most {})",
        m.name().to_lowercase(),
        name(target),
        name(attacker),
        if most == 1 {
            "one size larger"
        } else {
            "your own size"
        }
    ))
}

/// Light weapons cannot disarm heavy ones (seed 567).
pub fn disarm_limit(attacker_weight: i32, target_weight: i32) -> Result<(), String> {
    if attacker_weight == LIGHT && target_weight == HEAVY {
        Err("a light weapon cannot disarm a heavy one".into())
    } else {
        Ok(())
    }
}

/// Why `attacker` cannot make maneuver `m` on `target` now: size, weapon weight, facing.
/// `weight` is the weight class of what it attacks with (0 unarmed).
pub fn maneuver_limit(
    s: &State,
    attacker: u32,
    target: u32,
    m: Maneuver,
    weight: i32,
    from_behind: bool,
) -> Result<(), String> {
    let stat = |who: u32, i: usize| s.get(who).map_or(0, |c| c.stat(i));
    size_limit(m, stat(attacker, SIZE), stat(target, SIZE))?;
    if m == Maneuver::Disarm {
        if from_behind {
            return Err("disarm needs a target facing you".into());
        }
        let Some(theirs) = s.get(target).and_then(|c| super::gear::in_hand(c, false)) else {
            return Err(format!("{} has no weapon in hand", s.name(target)));
        };
        disarm_limit(weight, theirs.weight)?;
    }
    Ok(())
}

/// A swift attack needs an unguarded target (helpless, unconscious, blinded and surprised
/// ones are) or one passing through the attacker's reach (seed 485, 487).
pub fn swift_limit(s: &State, target: u32, passing: bool) -> Result<(), String> {
    if passing || s.has(target, "Unguarded") {
        Ok(())
    } else {
        Err(format!(
            "a swift attack needs an unguarded target: {} is not",
            s.name(target)
        ))
    }
}

/// The log line that a thrown weapon has left the hand.
pub fn thrown_note(s: &State, who: u32) -> Event {
    Event::Note(format!(
        "{}'s thrown weapon is out of hand: picking it up is the 1-energy action",
        s.name(who)
    ))
}

/// Who holds `who` in the fight (set by the restrain that made the hold), if anyone still does.
pub fn holder_of(s: &State, who: u32) -> Option<u32> {
    let h = s.get(who)?.stat(HELD_BY);
    let h = u32::try_from(h).ok().filter(|&h| h > 0)?;
    (s.has(who, "Restrained") && s.has(h, "Restraining") && s.get(h).is_some_and(|c| !c.dead))
        .then_some(h)
}

/// Energy an escape attempt costs (seed 575).
pub const ESCAPE_ENERGY: i32 = 3;

/// Why `who` cannot try to break free now.
pub fn can_escape(s: &State, who: u32) -> Result<(), String> {
    cannot_act(s, who)?;
    if !s.has(who, "Restrained") {
        return Err("not restrained".into());
    }
    pays(s, who, ESCAPE_ENERGY, 0, 0)
}

/// The fortitude roll `who` makes in an escape contest (its conditions give its edge).
pub fn fortitude_roll(s: &State, who: u32) -> (Edge, i32) {
    (
        defence_edge(s, who, false, Edge::Normal),
        s.get(who).map_or(0, |c| c.stat(FORTITUDE)),
    )
}

/// The DC of a hold no one in the fight makes when the GM has set none. The seed gives no
/// number for it (l.575); 15 is the app's choice, a hard roll for a fortitude of 10 (3/5).
pub const ESCAPE_DC_DEFAULT: i32 = 15;

/// The DC `who` must reach to break a hold no one in the fight makes: the GM's (a fact of the
/// fight, [`escape_dc_events`]), or [`ESCAPE_DC_DEFAULT`]. The escaper never names it.
pub fn escape_dc(s: &State, who: u32) -> i32 {
    s.get(who)
        .map(|c| c.stat(ESCAPE_DC))
        .filter(|&d| d > 0)
        .unwrap_or(ESCAPE_DC_DEFAULT)
}

/// The GM sets the DC of the hold on `who` that no one in the fight makes (1–1000): a GM tool
/// (the GM's phone only), read by every escape attempt until the hold ends.
pub fn escape_dc_events(s: &State, who: u32, dc: i32) -> Event {
    let dc = dc.clamp(1, 1000);
    Event::Batch(vec![
        Event::Note(format!(
            "The GM sets the DC to break free of {}'s hold: {dc}",
            s.name(who)
        )),
        Event::Set(who, ESCAPE_DC, dc),
    ])
}

/// The exact chance of breaking free: against the holder's fortitude roll (a tie keeps the
/// hold: win, tie, lose), or against the fight's DC (reaching it frees: the tie is part of the
/// win).
pub fn escape_odds(s: &State, who: u32) -> (Chance, Chance, Chance) {
    let dc = escape_dc(s, who);
    let (e, f) = fortitude_roll(s, who);
    let mine = defence_roll(10, e, f);
    match holder_of(s, who) {
        Some(h) => {
            let (he, hf) = fortitude_roll(s, h);
            escape_contest(&mine, &defence_roll(10, he, hf))
        }
        None => {
            let w = mine.at_least(i64::from(dc));
            (w, Chance::Impossible, w.complement())
        }
    }
}

/// One exploding roll against another: (the first beats it, they tie, it does not).
pub fn escape_contest(mine: &Distribution, theirs: &Distribution) -> (Chance, Chance, Chance) {
    mine.versus(theirs)
}

/// An escape attempt as rolled: `mine` the escaper's fortitude roll, `theirs` the holder's
/// (or the DC when no one holds it). 3 energy; a win ends Restrained and the holder's
/// Restraining (when it holds no one else).
pub fn escape_events(s: &State, who: u32, mine: i64, theirs: i64) -> Event {
    let holder = holder_of(s, who);
    let free = match holder {
        Some(_) => mine > theirs,
        None => mine >= theirs,
    };
    let against = match holder {
        Some(h) => format!("{}'s fortitude {theirs}", s.name(h)),
        None => format!("DC {theirs}"),
    };
    let mut out = vec![Event::Note(format!(
        "{} tries to break free: fortitude {mine} vs {against}: {}",
        s.name(who),
        if free { "breaks free" } else { "still held" }
    ))];
    out.extend(spend_events(s, who, ESCAPE_ENERGY, 0, 0));
    out.extend(earned(who, ESCAPE_ENERGY));
    if free {
        out.extend(release(s, who, holder));
    }
    Event::Batch(out)
}

/// Ends a hold: Restrained off `who`, and Restraining off its holder unless it holds another.
fn release(s: &State, who: u32, holder: Option<u32>) -> Vec<Event> {
    let mut out = Vec::new();
    clear(s, who, "Restrained", &mut out);
    out.push(Event::Set(who, HELD_BY, 0));
    if s.get(who).is_some_and(|c| c.stat(ESCAPE_DC) != 0) {
        // The DC was this hold's.
        out.push(Event::Set(who, ESCAPE_DC, 0));
    }
    if let Some(h) = holder {
        let others = s
            .combatants
            .iter()
            .any(|c| c.id != who && c.stat(HELD_BY) == h as i32 && s.has(c.id, "Restrained"));
        if !others {
            clear(s, h, "Restraining", &mut out);
        }
    }
    out
}

/// The holder lets go of everyone it holds.
pub fn let_go_events(s: &State, holder: u32) -> Event {
    let mut out = vec![Event::Note(format!("{} lets go", s.name(holder)))];
    for c in s.combatants.iter() {
        if holder_of(s, c.id) == Some(holder) {
            clear(s, c.id, "Restrained", &mut out);
            out.push(Event::Set(c.id, HELD_BY, 0));
        }
    }
    clear(s, holder, "Restraining", &mut out);
    Event::Batch(out)
}

/// One d20 with an edge: both dice and the kept one.
pub fn roll_d20<S: DiceSource + ?Sized>(edge: Edge, src: &mut S) -> (Vec<u32>, u32) {
    let k = roll_kept(20, edge, src);
    (k.faces, k.kept)
}

/// One roll of a die under an edge: every face it showed (two with an edge) and the one kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub faces: Vec<u32>,
    pub kept: u32,
}

impl Kept {
    /// The faces other than the kept one (the first face equal to it is the kept die).
    fn dropped(&self) -> Vec<u32> {
        let mut rest = self.faces.clone();
        if let Some(i) = rest.iter().position(|&f| f == self.kept) {
            rest.remove(i);
        }
        rest
    }

    /// "7", or with an edge "7 (3 dropped)": both dice are shown, the kept one first.
    pub fn text(&self) -> String {
        let rest = self.dropped();
        if rest.is_empty() {
            return self.kept.to_string();
        }
        let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
        format!("{} ({} dropped)", self.kept, rest.join(", "))
    }

    /// Its dice as the roll log shows them: the kept one, then the dropped one struck through.
    fn dice(&self, sides: u32) -> impl Iterator<Item = DieRoll> + '_ {
        std::iter::once(self.kept)
            .map(|f| (f, true))
            .chain(self.dropped().into_iter().map(|f| (f, false)))
            .map(move |(f, kept)| DieRoll {
                sides,
                faces: vec![f],
                kept,
            })
    }
}

/// Rolls of one die (an exploding chain, each roll with its edge) in a line: "10 (4 dropped) +
/// 6 (2 dropped)".
pub fn kept_text(rolls: &[Kept]) -> String {
    rolls.iter().map(Kept::text).collect::<Vec<_>>().join(" + ")
}

/// Rolls of a `sides` die plus `bonus`, as the roll log keeps them: every die of every pair,
/// the dropped ones marked, and the total of the kept ones plus the bonus.
pub fn kept_outcome(sides: u32, rolls: &[Kept], bonus: i64) -> RollOutcome {
    let dice: Vec<DieRoll> = rolls.iter().flat_map(|k| k.dice(sides)).collect();
    let sum: i64 = rolls.iter().map(|k| i64::from(k.kept)).sum();
    let mut terms = vec![TermRoll {
        negative: false,
        dice,
        constant: None,
        value: sum,
    }];
    if bonus != 0 {
        terms.push(TermRoll {
            negative: bonus < 0,
            dice: Vec::new(),
            constant: Some(bonus.unsigned_abs().min(u64::from(u32::MAX)) as u32),
            value: bonus,
        });
    }
    RollOutcome {
        terms,
        total: sum + bonus,
    }
}

fn roll_kept<S: DiceSource + ?Sized>(sides: u32, edge: Edge, src: &mut S) -> Kept {
    let a = src.roll(sides);
    let (faces, kept) = match edge {
        Edge::Normal => (vec![a], a),
        Edge::Advantage => {
            let b = src.roll(sides);
            (vec![a, b], a.max(b))
        }
        Edge::Disadvantage => {
            let b = src.roll(sides);
            (vec![a, b], a.min(b))
        }
    };
    Kept { faces, kept }
}

/// An exploding defence die rolled with an edge on every roll: every roll (both dice of each
/// pair, the kept one marked) and the sum of the kept faces (capped like the dice core).
pub fn roll_defence<S: DiceSource + ?Sized>(
    sides: u32,
    edge: Edge,
    src: &mut S,
) -> (Vec<Kept>, i64) {
    let mut rolls = Vec::new();
    for k in 0..=crate::rules::dice::EXPLODE_CAP {
        let r = roll_kept(sides, edge, src);
        let top = r.kept == sides;
        rolls.push(r);
        if !top || k == crate::rules::dice::EXPLODE_CAP {
            break;
        }
    }
    let sum = rolls.iter().map(|r| i64::from(r.kept)).sum();
    (rolls, sum)
}

/// What happens on a death roll, as events (one undo with the roll's note).
pub fn death_roll_events(s: &State, who: u32, d20: u32) -> Event {
    let r = death_roll(d20);
    let mut out = vec![Event::Note(format!(
        "{} death roll: d20 = {d20}, {}",
        s.name(who),
        r.text()
    ))];
    let due = death_rolls_due(s, who);
    if due > 0 {
        out.push(Event::Set(who, DEATH_DUE, due - 1));
    }
    let add = |name: &str, d: Duration| Event::Add(who, name.into(), d);
    match r {
        DeathRoll::Scratch => {}
        DeathRoll::Winded => out.push(add("Exhausted", Duration::Round { n: 2 })),
        DeathRoll::Injured | DeathRoll::Bleeding | DeathRoll::Down => {
            out.push(add("Exhausted", Duration::Removed));
            if r != DeathRoll::Injured && !s.has(who, "Bleeding out") {
                out.push(add("Bleeding out", Duration::Removed));
                // The saves come at the beginning of every round (seed l.635): the first in
                // the next round, none in this one.
                if pool(s, who, SAVE) > 0 {
                    out.push(Event::Spend(who, SAVE, 1));
                }
            }
            if r == DeathRoll::Down && !s.has(who, "Unconscious") {
                out.push(add("Unconscious", Duration::Removed));
            }
        }
        DeathRoll::Dead => out.push(Event::Dies(who)),
    }
    Event::Batch(out)
}

/// Why `who` cannot make its death save (`SAVE`) or wake roll (`WAKE`) now: once a round.
pub fn can_roll(s: &State, who: u32, which: usize) -> Result<(), String> {
    let c = s.get(who).ok_or("not in the fight")?;
    if c.dead || s.round == 0 {
        return Err("not now".into());
    }
    let (needs, what) = if which == SAVE {
        ("Bleeding out", "death save")
    } else {
        ("Unconscious", "wake roll")
    };
    if !s.has(who, needs) {
        return Err(format!("no {what} due"));
    }
    if pool(s, who, which) < 1 {
        return Err(format!(
            "one {what} a round, at its beginning: the next in the next round"
        ));
    }
    Ok(())
}

/// Why the sheet of the character stored as `link` may not make a death roll or death save of
/// its own now: it is in fight `s`, running, where they are made and counted (one roll for each
/// hit at 0 aura, one save a round: seed l.626, l.645). `None`: the sheet may.
pub fn sheet_death_rolls_refused(s: &State, link: &str) -> Option<String> {
    let running = s.round > 0 && !s.ended;
    let inside = s
        .combatants
        .iter()
        .any(|c| !c.gone && !c.dead && c.link.as_deref() == Some(link));
    (running && inside).then(|| {
        "in a running fight: made there, where each is counted (one save a round)".to_owned()
    })
}

/// A death save at the start of a round while bleeding out.
pub fn death_save_events(s: &State, who: u32, d20: u32) -> Event {
    let r = death_save(d20);
    let mut out = vec![
        Event::Spend(who, SAVE, 1),
        Event::Note(format!(
            "{} death save: d20 = {d20}, {}",
            s.name(who),
            r.text()
        )),
    ];
    match r {
        DeathSave::Stable => clear(s, who, "Bleeding out", &mut out),
        DeathSave::Bleeding => {}
        DeathSave::Unconscious => {
            if !s.has(who, "Unconscious") {
                out.push(Event::Add(who, "Unconscious".into(), Duration::Removed));
            }
        }
        DeathSave::Dead => out.push(Event::Dies(who)),
    }
    Event::Batch(out)
}

/// Unconscious at 0 stamina: a d20 each round, 20 wakes with 1 stamina.
pub fn wake_events(s: &State, who: u32, d20: u32) -> Event {
    let mut out = vec![
        Event::Spend(who, WAKE, 1),
        Event::Note(format!(
            "{} tries to wake: d20 = {d20}{}",
            s.name(who),
            if d20 >= 20 { ", wakes" } else { ", still out" }
        )),
    ];
    if d20 >= 20 {
        clear(s, who, "Unconscious", &mut out);
        if pool(s, who, STAMINA) == 0 {
            out.push(Event::Spend(who, STAMINA, -1));
        }
    }
    Event::Batch(out)
}

/// Gaining aura: the fight's one healing path ([`State::heal_events`]), which stabilizes a
/// bleeding combatant ([`hp_changed`]).
pub fn heal_events(s: &State, who: u32, amount: i32) -> Event {
    s.heal_events(vec![who], amount, false)
}

/// What a change of aura brings, whichever way it came (the Heal button, gaining aura, an
/// edit on a linked sheet): any gain stabilizes (seed: gaining aura ends bleeding out).
/// `s` is the fight after the change.
pub fn hp_changed(s: &State, who: u32, was: i32, now: i32) -> Vec<Event> {
    let mut out = Vec::new();
    let due = s.get(who).map_or(0, |c| c.stat(DEATH_DUE));
    if now > was {
        clear(s, who, "Bleeding out", &mut out);
        if now > 0 && due != 0 {
            // Back above 0 aura: the rolls its wounds called for are behind it.
            out.push(Event::Set(who, DEATH_DUE, 0));
        }
    } else if was <= 0 && now <= 0 {
        // Damaged at 0 aura: one more death roll is due (seed l.626).
        out.push(Event::Set(who, DEATH_DUE, due.max(0) + 1));
    }
    out
}

/// How many death rolls `who` owes: one for every hit taken at 0 aura not yet rolled for.
pub fn death_rolls_due(s: &State, who: u32) -> i32 {
    s.get(who).map_or(0, |c| c.stat(DEATH_DUE).max(0))
}

/// Everything one attack needs to be rolled: the attacker's side, the defender's, the damage.
#[derive(Debug, Clone, PartialEq)]
pub struct Strike {
    pub melee: bool,
    /// Melee: the AV (after maneuver and non-lethal penalties). Ranged: the miss chance's fixed
    /// part (modifier + size + movement + penalties).
    pub value: i32,
    pub precise: i32,
    pub edge: Edge,
    /// The defence roll: its die (10 or 4; 0: none is rolled, e.g. a shot at an unconscious
    /// target, seed l.202), edge and defence value.
    pub def_sides: u32,
    pub def_edge: Edge,
    pub defence: i32,
    pub wins_ties: bool,
    pub coverage: i32,
    pub ar: i32,
    /// Damage dice + bonus (`None`: a maneuver, no damage).
    pub damage: Option<Expr>,
    pub bonus: i32,
    pub halvings: u32,
    pub improvised_throw: bool,
    pub takes: Takes,
    /// The target rolls no defence: the attack hits whatever the d20 shows (see the notes).
    pub auto_hit: bool,
}

/// An attack as rolled.
#[derive(Debug, Clone, PartialEq)]
pub struct Struck {
    pub d20s: Vec<u32>,
    pub d20: u32,
    /// The target's defence roll, each roll with both dice when it had an edge.
    pub def_faces: Vec<Kept>,
    pub def_total: i64,
    pub hit: bool,
    pub crit: bool,
    pub armor: bool,
    pub damage: Option<RollOutcome>,
    pub dealt: i64,
}

impl Struck {
    /// The combat or hit roll: both d20s with an edge, the kept one marked.
    pub fn d20_kept(&self) -> Kept {
        Kept {
            faces: self.d20s.clone(),
            kept: self.d20,
        }
    }

    /// The rolls in one line: "combat roll 14 vs evasion 10+3 = 13: hit on the armor, 7 − 2 = 5".
    pub fn line(&self, st: &Strike) -> String {
        let d20 = self.d20_kept().text();
        let def = kept_text(&self.def_faces);
        let what = if st.auto_hit {
            format!(
                "{} {d20}, no defence roll",
                if st.melee { "combat roll" } else { "hit roll" }
            )
        } else if st.melee {
            format!(
                "combat roll {d20} vs defence {def}{:+} = {}",
                st.defence, self.def_total
            )
        } else {
            format!(
                "hit roll {d20} vs miss chance {} + ranged evasion {def}{:+} = {}",
                st.value,
                st.defence,
                self.def_total + i64::from(st.value)
            )
        };
        let how = match (self.hit, self.crit, self.armor) {
            (false, _, _) if self.d20 == 1 => "critical failure, a miss".to_owned(),
            (false, _, _) => "a miss".to_owned(),
            (true, true, _) => "a critical hit (past the armor)".to_owned(),
            (true, false, true) => format!("a hit on the armor (AR {})", st.ar),
            (true, false, false) => "a hit".to_owned(),
        };
        let dmg = match (&self.damage, self.hit) {
            (Some(d), true) => format!(", {} damage rolled, {} dealt", d.total, self.dealt),
            _ => String::new(),
        };
        format!("{what}: {how}{dmg}")
    }
}

/// The exact odds of a strike before it is rolled: the outcome, and (when it deals damage and
/// its dice can be computed) the damage given a hit with the chance to take `aura` to 0.
pub fn strike_odds(
    st: &Strike,
    aura: i32,
) -> (
    super::rolls::Outcome,
    Option<(crate::rules::dice::Distribution, crate::rules::dice::Chance)>,
) {
    use super::rolls::{automatic, damage_given_hit, melee, ranged, DamageRule, Defender};
    let d = Defender {
        roll: if st.def_sides == 0 {
            crate::rules::dice::Distribution::point(i64::from(st.defence))
        } else {
            defence_roll(st.def_sides, st.def_edge, st.defence)
        },
        wins_ties: st.wins_ties,
        coverage: st.coverage,
        ar: st.ar,
    };
    let o = if st.auto_hit {
        automatic(st.precise, st.edge, st.coverage)
    } else if st.melee {
        melee(st.value, st.precise, st.edge, &d)
    } else {
        ranged(st.value, st.precise, st.edge, &d)
    };
    let dmg = st.damage.as_ref().and_then(|e| {
        let rolled = crate::rules::dice::Distribution::of_expr(e)
            .ok()?
            .shift(i64::from(st.bonus));
        let rule = DamageRule {
            ar: st.ar,
            halvings: st.halvings,
            improvised_throw: st.improvised_throw,
            takes: st.takes,
        };
        Some(damage_given_hit(&rolled, &o, rule, aura))
    });
    (o, dmg)
}

/// Rolls one attack: the d20 (with its edge), the defender's exploding roll, the damage.
pub fn strike<S: DiceSource + ?Sized>(st: &Strike, src: &mut S) -> Struck {
    let (d20s, d20) = roll_d20(st.edge, src);
    let (def_faces, sum) = if st.auto_hit || st.def_sides == 0 {
        (Vec::new(), 0)
    } else {
        roll_defence(st.def_sides, st.def_edge, src)
    };
    let def_total = sum + i64::from(st.defence);
    let face = d20 as i32;
    let crit = face != 1 && face >= crit_from(st.precise);
    let tie = i64::from(st.wins_ties);
    let beats = if st.auto_hit {
        true
    } else if st.melee {
        i64::from(st.value) >= def_total + tie
    } else {
        // The miss chance: the fixed part plus the ranged evasion roll (dice + value).
        i64::from(face) >= i64::from(st.value) + def_total + tie
    };
    let hit = st.auto_hit || (face != 1 && (crit || beats));
    let armor = hit && !crit && face < st.coverage;
    let damage = st.damage.as_ref().filter(|_| hit).map(|e| roll(e, src));
    let dealt_now = damage.as_ref().map_or(0, |d| {
        let halvings = st.halvings + u32::from(st.improvised_throw && face != 20);
        dealt(
            d.total + i64::from(st.bonus),
            st.ar,
            armor,
            halvings,
            st.takes,
        )
    });
    Struck {
        d20s,
        d20,
        def_faces,
        def_total,
        hit,
        crit,
        armor,
        damage,
        dealt: dealt_now,
    }
}

/// The four combat maneuvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Maneuver {
    Trip,
    Disarm,
    Restrain,
    Push,
}

impl Maneuver {
    pub const ALL: [Maneuver; 4] = [
        Maneuver::Trip,
        Maneuver::Disarm,
        Maneuver::Restrain,
        Maneuver::Push,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Maneuver::Trip => "Trip",
            Maneuver::Disarm => "Disarm",
            Maneuver::Restrain => "Restrain",
            Maneuver::Push => "Push",
        }
    }
    /// Whether the target then rolls fortitude against the full AV.
    pub fn saves(self) -> bool {
        self != Maneuver::Restrain
    }
    /// Made as an unarmed attack (2 energy) rather than a weapon attack (3).
    pub fn unarmed(self) -> bool {
        matches!(self, Maneuver::Restrain | Maneuver::Push)
    }
}

/// A maneuver as rolled: whether its attack hit, the target's fortitude roll (when it saves)
/// against the full `av`, and whether it was a swift attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManeuverRoll {
    pub m: Maneuver,
    pub hit: bool,
    pub fortitude: Option<i64>,
    pub av: i32,
    pub swift: bool,
    /// A disarm flings the weapon away (1 agility).
    pub fling: bool,
}

/// What a maneuver does after its attack. Made (not as a swift attack) against a target that
/// is not exposed, it leaves the attacker unguarded (the target's advantage is in its first
/// roll).
pub fn maneuver_events(s: &State, attacker: u32, target: u32, r: &ManeuverRoll) -> Vec<Event> {
    let ManeuverRoll {
        m,
        hit,
        fortitude,
        av,
        swift,
        fling,
    } = *r;
    let mut out = Vec::new();
    let unguard = |who: u32| Event::Add(who, "Unguarded".into(), Duration::Round { n: 1 });
    if !swift && !s.has(target, "Exposed") {
        out.push(unguard(attacker));
    }
    if !hit {
        return out;
    }
    let tie = i64::from(s.has(target, "Defending"));
    let fails = !m.saves() || fortitude.is_some_and(|f| f <= i64::from(av) - tie);
    let t = s.name(target).to_owned();
    let (text, events) = match (m, fails) {
        (Maneuver::Restrain, _) => (
            format!("{t} is held"),
            vec![
                Event::Add(target, "Restrained".into(), Duration::Removed),
                Event::Add(attacker, "Restraining".into(), Duration::Removed),
                Event::Set(target, HELD_BY, attacker as i32),
            ],
        ),
        (Maneuver::Trip, true) => (
            format!("{t} is knocked prone"),
            vec![Event::Add(target, "Prone".into(), Duration::Removed)],
        ),
        (Maneuver::Disarm, true) => {
            let mut ev = super::gear::drop_events(s, target);
            let flung = fling && pool(s, attacker, AGILITY) > 0;
            if flung {
                ev.push(Event::Spend(attacker, AGILITY, 1));
            }
            let how = if flung {
                "it is flung 2 m away"
            } else {
                "it lies at its feet"
            };
            (format!("{t} drops its weapon: {how}"), ev)
        }
        (Maneuver::Push, true) => (
            format!("{t} is pushed 1 m and unguarded"),
            vec![unguard(target)],
        ),
        (Maneuver::Push, false) => (
            format!("{t} stands firm: the pusher is unguarded"),
            vec![unguard(attacker)],
        ),
        (_, false) => (format!("{t} resists"), Vec::new()),
    };
    let roll = fortitude.map_or(String::new(), |f| format!(" (fortitude {f} vs AV {av})"));
    out.push(Event::Note(format!("{}{roll}", text)));
    out.extend(events);
    out
}

/// An initiative contest: `who` challenges `other`, each rolling once a round (seed: "You may
/// only roll Initiative once per Round"). `mine` and `theirs` are the rolls with their bonuses;
/// `None` for a side that has already rolled this round, which fails by itself (the
/// challenger's failing first). Each roll made spends its roller's roll of the round.
pub fn initiative_events(
    s: &State,
    who: u32,
    other: u32,
    mine: Option<i64>,
    theirs: Option<i64>,
) -> Event {
    let (a, b) = (s.name(who), s.name(other));
    let wins = match (mine, theirs) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(m), Some(t)) => m > t,
    };
    let how = if wins { "wins" } else { "loses" };
    let shown = |r: Option<i64>, x: u32, n: &str| {
        r.map_or_else(
            || {
                if may_roll_initiative(s, x) {
                    format!("{n} does not roll (keeps its roll for later)")
                } else {
                    format!("{n} already rolled this round")
                }
            },
            |r| r.to_string(),
        )
    };
    let mut out = vec![Event::Note(format!(
        "{a} {how} initiative against {b}: {} vs {}",
        shown(mine, who, a),
        shown(theirs, other, b)
    ))];
    if mine.is_some() {
        out.push(Event::Spend(who, INIT_ROLL, 1));
    }
    if theirs.is_some() {
        out.push(Event::Spend(other, INIT_ROLL, 1));
    }
    Event::Batch(out)
}

/// Whether `who` still has its initiative roll this round.
pub fn may_roll_initiative(s: &State, who: u32) -> bool {
    pool(s, who, INIT_ROLL) >= 1
}

/// Whether `who` keeps its initiative roll this round: challenged, it does not roll, loses,
/// and keeps the roll (seed l.126: the challenged side's own choice).
pub fn keeps_initiative(s: &State, who: u32) -> bool {
    pool(s, who, KEEPS_INIT) > 0
}

/// Whether `who` rolls when challenged now: it has its roll and does not keep it.
pub fn answers_initiative(s: &State, who: u32) -> bool {
    may_roll_initiative(s, who) && !keeps_initiative(s, who)
}

/// `who` keeps its initiative roll from now on this round (`keep`), or answers challenges
/// again.
pub fn keep_initiative_events(s: &State, who: u32, keep: bool) -> Event {
    Event::Batch(vec![
        Event::Note(format!(
            "{} {}",
            s.name(who),
            if keep {
                "keeps its initiative roll: challenged, it does not roll this round"
            } else {
                "answers initiative challenges again"
            }
        )),
        Event::Spend(who, KEEPS_INIT, if keep { -1 } else { 1 }),
    ])
}

/// The exact chance `who` wins an initiative contest it starts against `other` now (a tie
/// loses; a side that has already rolled this round, or keeps its roll, fails by itself).
pub fn initiative_odds(s: &State, who: u32, other: u32) -> Chance {
    let stat = |x: u32| s.get(x).map_or(0, |c| c.stat(INITIATIVE));
    match (may_roll_initiative(s, who), answers_initiative(s, other)) {
        (false, _) => Chance::Impossible,
        (true, false) => Chance::Certain,
        (true, true) => super::initiative_contest(stat(who), stat(other)).0,
    }
}

/// An attack as rolled, to be turned into events.
#[derive(Debug, Clone, PartialEq)]
pub struct Swing {
    pub attacker: u32,
    pub target: u32,
    pub label: String,
    pub energy: i32,
    /// Stamina spent to enhance it (at most 4), and one swift attack used.
    pub enhance: i32,
    pub swift: bool,
    /// The d20 (kept) and the whole attack's line of rolls.
    pub d20: u32,
    pub hit: bool,
    pub crit: bool,
    pub dealt: i64,
    pub rolls: String,
    pub non_lethal: bool,
    /// What else the attack does (a maneuver's outcome).
    pub also: Vec<Event>,
}

/// Why `attacker` cannot make this attack now.
pub fn can_attack(
    s: &State,
    attacker: u32,
    energy: i32,
    enhance: i32,
    swift: bool,
) -> Result<(), String> {
    cannot_act(s, attacker)?;
    if s.has(attacker, "Restrained") {
        return Err("restrained: no attacks".into());
    }
    if s.has(attacker, "Restraining") {
        return Err("restraining: no attacks".into());
    }
    if s.has(attacker, "Helpless") {
        return Err("helpless: no attacks".into());
    }
    if swift && pool(s, attacker, SWIFT) < 1 {
        return Err("the swift attack of this round is used".into());
    }
    if !(0..=4).contains(&enhance) {
        return Err("at most 4 stamina enhance one attack".into());
    }
    pays(s, attacker, energy, 0, enhance)
}

/// The events of an attack: what it cost, its rolls, the damage, exposure, the end of the
/// attacker's defend bonus, and a death roll due when the target was already at 0 aura.
pub fn swing_events(s: &State, w: &Swing) -> Event {
    let (a, t) = (w.attacker, w.target);
    let mut out = vec![Event::Note(format!(
        "{} → {}: {}, {}",
        s.name(a),
        s.name(t),
        w.label,
        w.rolls
    ))];
    if w.swift {
        out.push(Event::Spend(a, SWIFT, 1));
    }
    out.extend(spend_events(s, a, w.energy, 0, w.enhance));
    out.extend(earned(a, w.energy));
    clear(s, a, "Defending", &mut out);
    if w.d20 <= 3 {
        out.push(Event::Add(a, "Exposed".into(), Duration::Round { n: 2 }));
    }
    if w.crit {
        out.push(Event::Add(t, "Exposed".into(), Duration::Round { n: 1 }));
    }
    out.extend(w.also.iter().cloned());
    if w.hit && w.dealt > 0 {
        let at_zero = s.get(t).is_some_and(|c| c.hp <= 0);
        if at_zero && w.non_lethal {
            // Non-lethal at 0 aura takes no aura (there is none) and calls for no death roll
            // (seed l.507): it exhausts, shakes and costs stamina instead.
            out.push(Event::Note(format!(
                "{} is at 0 aura: non-lethal, no death roll; exhausted to the end of the next round, shaken until a short rest, 5 stamina lost",
                s.name(t)
            )));
            out.push(Event::Add(t, "Exhausted".into(), Duration::Round { n: 2 }));
            if !s.has(t, "Shaken") {
                out.push(Event::Add(t, "Shaken".into(), Duration::Removed));
            }
            let st = pool(s, t, STAMINA);
            out.push(Event::Spend(t, STAMINA, st.min(5)));
            if st <= 5 && !s.has(t, "Unconscious") {
                out.push(Event::Add(t, "Unconscious".into(), Duration::Removed));
            }
        } else {
            // At 0 aura the engine's damage line says a death roll is due (once), and the
            // rules count it (`hp_changed`).
            out.extend(
                s.damage_events(
                    vec![t],
                    // The importer's bound on any number in an event (200 dice of 1000 sides,
                    // doubled).
                    w.dealt.clamp(0, i64::from(crate::rules::encounter::LIMIT)) as i32,
                )
                .flat(),
            );
        }
    }
    Event::Batch(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::dice::ScriptedSource;

    /// The gnoll of [`fight`]: Medium, a weapon neither light nor heavy.
    /// The test gnoll: Medium, a 1d6 weapon neither light nor heavy, 10 aura, 3 stamina.
    pub(crate) fn gnoll() -> Npc {
        Npc {
            aura: 10,
            stamina: 3,
            evasion: 8,
            fortitude: 10,
            will: 10,
            av: 15,
            damage: "1d6".into(),
            bonus: 0,
            coverage: 0,
            ar: 0,
            size: 2,
            weight: 0,
            ranged_evasion: 0,
            unarmed_evasion: 8,
            initiative: 0,
            unarmed_av: 15,
            shot: String::new(),
            miss: 8,
            ranged_coverage: 0,
            blunt: false,
            precise: 0,
        }
    }

    fn fight() -> (State, u32, u32) {
        let mut s = State::new(&AURA);
        let sheet = AuraSheet::default();
        s.apply(&Event::Join(from_sheet("Asa", &sheet)));
        s.apply(&Event::Join(npc("Gnoll", &gnoll())));
        s.apply(&Event::Start);
        (s, 1, 2)
    }

    #[test]
    fn rounds_refill_energy_from_stamina_and_agility() {
        let (mut s, a, g) = fight();
        // Asa: stamina 10 → 5 energy; the gnoll: stamina 3 → 3.
        assert_eq!(pool(&s, a, ENERGY), 5);
        assert_eq!(pool(&s, g, ENERGY), 3);
        assert_eq!(pool(&s, a, AGILITY), 3);
        assert_eq!(pool(&s, a, STAMINA), 10);
        let run = &ACTS[0];
        s.apply(&take(&s, a, run, None));
        assert_eq!(pool(&s, a, ENERGY), 2);
        // A second run cannot be paid.
        assert_eq!(can(&s, a, run), Err("needs 3 energy, 2 left".into()));
        // Exhausted: 2 less next round; slowed: no agility.
        s.apply(&Event::Add(a, "Exhausted".into(), Duration::Removed));
        s.apply(&Event::Add(a, "Slowed".into(), Duration::Removed));
        s.apply(&Event::Next);
        assert_eq!(s.round, 2);
        assert_eq!(pool(&s, a, ENERGY), 3);
        assert_eq!(pool(&s, a, AGILITY), 0);
        assert!(can(&s, a, &ACTS[4]).unwrap_err().contains("slowed"));
        assert!(can(&s, a, &ACTS[1]).unwrap_err().contains("exhausted"));
    }

    #[test]
    fn joining_mid_fight_the_energy_is_within_the_stamina() {
        let (mut s, _, _) = fight();
        let tired = AuraSheet {
            stamina: 2,
            ..AuraSheet::default()
        };
        s.apply(&Event::Join(from_sheet("Late", &tired)));
        let id = s.combatants.last().unwrap().id;
        assert_eq!((pool(&s, id, ENERGY), pool(&s, id, STAMINA)), (2, 2));
    }

    #[test]
    fn the_stamina_swap_is_once_a_round_and_stamina_0_knocks_out() {
        let (mut s, _, g) = fight();
        s.apply(&swap(&s, g).unwrap());
        assert_eq!((pool(&s, g, ENERGY), pool(&s, g, STAMINA)), (4, 2));
        assert!(swap(&s, g).is_err());
        s.apply(&Event::Next);
        // Round 2: energy from stamina 2.
        assert_eq!(pool(&s, g, ENERGY), 2);
        s.apply(&swap(&s, g).unwrap());
        s.apply(&Event::Next);
        s.apply(&swap(&s, g).unwrap());
        assert_eq!(pool(&s, g, STAMINA), 0);
        assert!(s.has(g, "Unconscious"));
        s.apply(&Event::Next);
        assert_eq!(pool(&s, g, ENERGY), 0);
        // Waking: a 20 gives 1 stamina back; one try a round.
        s.apply(&wake_events(&s, g, 19));
        assert!(s.has(g, "Unconscious"));
        assert!(can_roll(&s, g, WAKE).is_err());
        s.apply(&Event::Next);
        s.apply(&wake_events(&s, g, 20));
        assert!(!s.has(g, "Unconscious"));
        assert_eq!(pool(&s, g, STAMINA), 1);
    }

    #[test]
    fn defend_does_not_clear_an_exposure_held_by_a_parent() {
        let (mut s, a, _) = fight();
        s.apply(&Event::Add(a, "Prone".into(), Duration::Removed));
        s.apply(&Event::Add(a, "Unguarded".into(), Duration::Round { n: 1 }));
        assert!(s.has(a, "Exposed"));
        s.apply(&take(&s, a, &ACTS[10], None));
        assert!(!s.has(a, "Unguarded"), "its own unguarded ends");
        assert!(s.has(a, "Exposed"), "prone still exposes it");
        assert!(s.has(a, "Defending"));
        assert!(s
            .log
            .iter()
            .any(|l| l.text.contains("stays exposed while prone")));
        // Kneel: prone ends (and its exposure), unguarded again.
        s.apply(&take(&s, a, &ACTS[8], None));
        assert!(!s.has(a, "Prone"));
        assert!(s.has(a, "Unguarded"));
        // Defend now clears both, in the same round.
        assert!(s.has(a, "Unguarded") && s.has(a, "Exposed"));
        s.apply(&take(&s, a, &ACTS[10], None));
        assert!(!s.has(a, "Unguarded") && !s.has(a, "Exposed"));
        // Standing up from prone needs a kneel first.
        s.apply(&Event::Add(a, "Prone".into(), Duration::Removed));
        assert!(can(&s, a, &ACTS[9]).unwrap_err().contains("kneel first"));
        s.apply(&Event::Next);
        // Blinded → unguarded → exposed: Defend clears neither.
        s.apply(&Event::Add(a, "Blinded".into(), Duration::Removed));
        s.apply(&take(&s, a, &ACTS[10], None));
        assert!(s.has(a, "Unguarded") && s.has(a, "Exposed"));
    }

    #[test]
    fn conditions_imply_their_daughters() {
        let (mut s, a, _) = fight();
        for (parent, kids) in [
            ("Dazed", &["Exposed"][..]),
            ("Unguarded", &["Exposed"]),
            ("Blinded", &["Unguarded", "Exposed"]),
            ("Prone", &["Exposed"]),
            ("Surprised", &["Unguarded", "Exposed"]),
            ("Unconscious", &["Unguarded", "Exposed"]),
            ("Restrained", &["Exposed"]),
            ("Restraining", &["Slowed"]),
        ] {
            s.apply(&Event::Add(a, parent.into(), Duration::Removed));
            for k in kids {
                assert!(s.has(a, k), "{parent} → {k}");
            }
            let cid = s.conditions_of(a).find(|x| x.name == parent).unwrap().cid;
            s.apply(&Event::Remove(cid));
            assert!(
                s.conditions_of(a).next().is_none(),
                "{parent} removed with its daughters"
            );
        }
    }

    #[test]
    fn a_death_roll_at_zero_aura_and_the_saves() {
        let (mut s, a, g) = fight();
        s.apply(&Event::Damage(vec![g], 10));
        assert_eq!(s.get(g).unwrap().hp, 0);
        let hit = Swing {
            attacker: a,
            target: g,
            label: "Longsword".into(),
            energy: 3,
            enhance: 0,
            swift: false,
            d20: 12,
            hit: true,
            crit: false,
            dealt: 4,
            rolls: "combat roll 12".into(),
            non_lethal: false,
            also: Vec::new(),
        };
        s.apply(&swing_events(&s, &hit));
        let due: Vec<_> = s
            .log
            .iter()
            .filter(|l| l.text.contains("a death roll is due"))
            .collect();
        assert_eq!(due.len(), 1, "said once: {due:?}");
        s.apply(&death_roll_events(&s, g, 7));
        assert!(s.has(g, "Bleeding out") && s.has(g, "Exhausted"));
        // Review item 5: no save in the round the bleeding starts.
        assert!(can_roll(&s, g, SAVE)
            .unwrap_err()
            .contains("one death save a round"));
        s.apply(&Event::Next);
        s.apply(&death_save_events(&s, g, 3));
        assert!(s.has(g, "Unconscious"));
        assert!(can_roll(&s, g, SAVE)
            .unwrap_err()
            .contains("one death save a round"));
        s.apply(&Event::Next);
        assert_eq!(can_roll(&s, g, SAVE), Ok(()));
        s.apply(&death_save_events(&s, g, 20));
        assert!(!s.has(g, "Bleeding out"));
        s.apply(&death_roll_events(&s, g, 1));
        assert!(s.get(g).unwrap().dead);
    }

    #[test]
    fn gaining_aura_stabilizes() {
        let (mut s, _, g) = fight();
        s.apply(&Event::Damage(vec![g], 10));
        s.apply(&Event::Add(g, "Bleeding out".into(), Duration::Removed));
        s.apply(&heal_events(&s, g, 2));
        assert!(!s.has(g, "Bleeding out"));
    }

    /// Review item 4 (seed l.647): the fight's generic Heal is the same path as gaining aura:
    /// bleeding out at 0 aura, Heal 5 gives aura 5 and stabilizes; no death save is due.
    #[test]
    fn aura_r4_the_generic_heal_stabilizes() {
        let (mut s, _, g) = fight();
        s.apply(&Event::Damage(vec![g], 10));
        s.apply(&Event::Add(g, "Bleeding out".into(), Duration::Removed));
        assert_eq!(can_roll(&s, g, SAVE), Ok(()));
        s.apply(&s.heal_events(vec![g], 5, false));
        assert_eq!(s.get(g).unwrap().hp, 5);
        assert!(!s.has(g, "Bleeding out"));
        assert_eq!(can_roll(&s, g, SAVE), Err("no death save due".into()));
        // Damage never stabilizes.
        s.apply(&Event::Add(g, "Bleeding out".into(), Duration::Removed));
        s.apply(&s.damage_events(vec![g], 5));
        assert!(s.has(g, "Bleeding out"));
    }

    #[test]
    fn attacks_are_refused_when_the_pools_cannot_pay() {
        let (mut s, a, g) = fight();
        assert_eq!(can_attack(&s, g, 3, 0, false), Ok(()));
        assert_eq!(
            can_attack(&s, g, 3, 5, false),
            Err("at most 4 stamina enhance one attack".into())
        );
        assert!(can_attack(&s, g, 3, 4, false)
            .unwrap_err()
            .contains("needs 4 stamina"));
        s.apply(&Event::Spend(a, SWIFT, 1));
        assert!(can_attack(&s, a, 1, 0, true).unwrap_err().contains("swift"));
    }

    #[test]
    fn rolled_defences_explode_with_the_edge_on_every_die() {
        // Advantage: (3, 10) keeps 10 and explodes, (10, 2) keeps 10, (4, 1) keeps 4.
        let mut src = ScriptedSource::new([3, 10, 10, 2, 4, 1]);
        let (rolls, sum) = roll_defence(10, Edge::Advantage, &mut src);
        let kept: Vec<u32> = rolls.iter().map(|r| r.kept).collect();
        assert_eq!((kept, sum), (vec![10, 10, 4], 24));
        // Both dice of every pair are kept for display, the kept one first.
        assert_eq!(
            kept_text(&rolls),
            "10 (3 dropped) + 10 (2 dropped) + 4 (1 dropped)"
        );
        let out = kept_outcome(10, &rolls, 5);
        assert_eq!(out.total, 29);
        let shown: Vec<(u32, bool)> = out.dice().map(|d| (d.faces[0], d.kept)).collect();
        assert_eq!(
            shown,
            [
                (10, true),
                (3, false),
                (10, true),
                (2, false),
                (4, true),
                (1, false)
            ]
        );
        assert_eq!(
            out.dice()
                .filter(|d| d.kept)
                .map(|d| d.value())
                .sum::<i64>()
                + 5,
            out.total
        );
        let mut src = ScriptedSource::new([10, 3]);
        let (rolls, sum) = roll_defence(10, Edge::Disadvantage, &mut src);
        assert_eq!((kept_text(&rolls), sum), ("3 (10 dropped)".to_owned(), 3));
        assert_eq!(kept_outcome(10, &rolls, -2).total, 1);
        // Without an edge: one die a roll, nothing dropped.
        let mut src = ScriptedSource::new([4, 2]);
        let (rolls, _) = roll_defence(4, Edge::Normal, &mut src);
        assert_eq!(kept_text(&rolls), "4 + 2");
        // Equal faces: one kept, one dropped.
        let mut src = ScriptedSource::new([6, 6]);
        let (rolls, _) = roll_defence(10, Edge::Advantage, &mut src);
        assert_eq!(kept_text(&rolls), "6 (6 dropped)");
    }

    #[test]
    fn a_struck_blow_follows_the_rules_it_was_shown_with() {
        let st = Strike {
            melee: true,
            value: 16,
            precise: 1,
            edge: Edge::Normal,
            def_sides: 10,
            def_edge: Edge::Normal,
            defence: 8,
            wins_ties: false,
            coverage: 12,
            ar: 2,
            damage: Some(crate::rules::dice::parse("1d8").unwrap()),
            bonus: 1,
            halvings: 0,
            improvised_throw: false,
            takes: Takes::Normal,
            auto_hit: false,
        };
        // Combat roll 5 (< coverage 12), defence 8 + 8 = 16 ≤ AV 16: a hit on the armor;
        // 1d8 = 6, + 1 − 2 = 5.
        let mut src = ScriptedSource::new([5, 8, 6]);
        let r = strike(&st, &mut src);
        assert!(r.hit && r.armor && !r.crit);
        assert_eq!(r.dealt, 5);
        // Defending: the tie goes to the defender.
        let mut src = ScriptedSource::new([5, 8]);
        let r = strike(
            &Strike {
                wins_ties: true,
                ..st.clone()
            },
            &mut src,
        );
        assert!(!r.hit);
        // 19 crits with Precise 1, past the armor, whatever the defence (10, 10, 3 = 23).
        let mut src = ScriptedSource::new([19, 10, 10, 3, 4]);
        let r = strike(&st, &mut src);
        assert!(r.hit && r.crit && !r.armor);
        assert_eq!((r.def_total, r.dealt), (31, 5));
        // A 1 misses.
        let mut src = ScriptedSource::new([1, 1]);
        assert!(!strike(&st, &mut src).hit);
        // Ranged: miss chance 6 + the ranged evasion roll (1d4* + 1).
        let shot = Strike {
            melee: false,
            value: 6,
            def_sides: 4,
            defence: 1,
            ..st
        };
        // Hit roll 9 vs 6 + (1 + 2) = 9: a hit (≥), on the armor (9 < 12).
        let mut src = ScriptedSource::new([9, 2, 3]);
        let r = strike(&shot, &mut src);
        assert!(r.hit && r.armor, "{}", r.line(&shot));
        let mut src = ScriptedSource::new([8, 2]);
        assert!(!strike(&shot, &mut src).hit);
    }

    #[test]
    fn every_scripted_strike_agrees_with_the_odds_shown() {
        // Enumerate every d20 face and every defence face (no explosion reached: d10 faces
        // 1..=9, and the 10 followed by each face) and weigh them: the hit mass must equal the
        // odds' hit chance.
        let st = Strike {
            melee: true,
            value: 17,
            precise: 1,
            edge: Edge::Normal,
            def_sides: 10,
            def_edge: Edge::Normal,
            defence: 8,
            wins_ties: false,
            coverage: 10,
            ar: 1,
            damage: None,
            bonus: 0,
            halvings: 0,
            improvised_throw: false,
            takes: Takes::Normal,
            auto_hit: false,
        };
        let (o, _) = strike_odds(&st, 0);
        let (mut hit, mut armor) = (0.0, 0.0);
        for c in 1..=20u32 {
            for d in 1..=10u32 {
                let seq: Vec<u32> = if d == 10 { vec![c, 10, 1] } else { vec![c, d] };
                // The 10 then a 1 stands for every 10-then-x (all of them exceed AV 17 − 8 = 9).
                let w = 1.0 / 200.0;
                let mut src = ScriptedSource::new(seq);
                let r = strike(&st, &mut src);
                if r.hit {
                    hit += w;
                }
                if r.armor {
                    armor += w;
                }
            }
        }
        assert!((o.hit() - hit).abs() < 1e-12, "{} vs {hit}", o.hit());
        assert!((o.hit_armor - armor).abs() < 1e-12);
    }

    fn roll(m: Maneuver, fortitude: Option<i64>, swift: bool) -> ManeuverRoll {
        ManeuverRoll {
            fling: false,
            m,
            hit: true,
            fortitude,
            av: 15,
            swift,
        }
    }

    #[test]
    fn maneuvers_apply_their_outcomes() {
        let (mut s, a, g) = fight();
        // Not exposed, not swift: the attacker is left unguarded; a failed save trips.
        let ev = maneuver_events(&s, a, g, &roll(Maneuver::Trip, Some(15), false));
        s.apply(&Event::Batch(ev));
        assert!(s.has(a, "Unguarded") && s.has(g, "Prone"));
        // The save beats the AV: nothing happens to the target.
        let ev = maneuver_events(&s, a, g, &roll(Maneuver::Push, Some(16), false));
        s.apply(&Event::Batch(ev));
        assert!(
            !s.has(g, "Unguarded"),
            "exposed (prone): no unguarding of the attacker from that"
        );
        let ev = maneuver_events(&s, a, g, &roll(Maneuver::Restrain, None, false));
        s.apply(&Event::Batch(ev));
        assert!(s.has(g, "Restrained") && s.has(a, "Restraining") && s.has(a, "Slowed"));
        assert!(can_attack(&s, a, 3, 0, false)
            .unwrap_err()
            .contains("restraining"));
        // A defending target wins a tie on its save.
        s.apply(&Event::Add(g, "Defending".into(), Duration::Removed));
        let ev = maneuver_events(&s, a, g, &roll(Maneuver::Disarm, Some(15), true));
        assert!(ev
            .iter()
            .any(|e| matches!(e, Event::Note(t) if t.contains("resists"))));
    }

    #[test]
    fn one_initiative_roll_a_round() {
        let (mut s, a, g) = fight();
        s.apply(&initiative_events(&s, a, g, Some(12), Some(9)));
        assert_eq!(pool(&s, a, INIT_ROLL), 0);
        assert_eq!(pool(&s, g, INIT_ROLL), 0, "the challenged one rolled too");
        s.apply(&Event::Next);
        assert_eq!(pool(&s, a, INIT_ROLL), 1);
        assert_eq!(pool(&s, g, INIT_ROLL), 1);
    }

    fn held_blade() -> AuraSheet {
        let mut sh = AuraSheet::default();
        sh.weapons.clear();
        sh.weapons.push(crate::rules::aura::Weapon {
            name: "Dagger".into(),
            damage: "1d4".into(),
            av: 1,
            light: true,
            held: true,
            ..crate::rules::aura::Weapon::default()
        });
        sh
    }

    #[test]
    fn the_held_melee_weapon_can_be_thrown() {
        // Seed 272: a weapon without Thrown is improvised; a light one throws 3/5/10 (plus
        // Arm Strength's extra, 276–288); a Thrown weapon's accuracy is its AV bonus.
        let sh = held_blade();
        let w = &sh.weapons[0];
        let hand =
            |sh: &AuraSheet| super::super::gear::in_hand(&from_sheet("Asa", sh), false).unwrap();
        let h = hand(&sh);
        assert_eq!(h.throw_mm, sh.miss_modifier(w, true).0);
        assert!(h.improvised);
        let x = crate::rules::aura::throw_extra(sh.arm_strength().0);
        assert_eq!(h.range, [3 + x[0], 5 + x[1], 10 + x[2]]);
        assert_eq!(h.weight, LIGHT);
        let mut sh2 = sh.clone();
        sh2.weapons[0].thrown = true;
        let h2 = hand(&sh2);
        assert!(!h2.improvised);
        assert_eq!(h2.throw_mm, h.throw_mm - 1, "AV bonus 1");
        // A quick NPC throws its weapon as an improvised one, its range by weight.
        let (s, _, g) = fight();
        let n = s.get(g).unwrap();
        assert_eq!((n.stat(THROW_MISS_MOD), n.stat(THROW_IMPROVISED)), (8, 1));
        assert_eq!(THROW_RANGE.map(|i| n.stat(i)), [2, 4, 8]);
        assert_eq!(throw_range(HEAVY), [1, 3, 6]);
        // Improvised: half damage unless the hit roll is a natural 20.
        let st = Strike {
            melee: false,
            value: 0,
            precise: 0,
            edge: Edge::Normal,
            def_sides: 4,
            def_edge: Edge::Normal,
            defence: 0,
            wins_ties: false,
            coverage: 0,
            ar: 0,
            damage: Some(crate::rules::dice::parse("1d8").unwrap()),
            bonus: 0,
            halvings: 0,
            improvised_throw: true,
            takes: Takes::Normal,
            auto_hit: false,
        };
        let r = strike(&st, &mut ScriptedSource::new([15, 1, 7]));
        assert_eq!((r.hit, r.dealt), (true, 3));
        let r = strike(&st, &mut ScriptedSource::new([20, 1, 7]));
        assert_eq!((r.hit, r.dealt), (true, 7));
        assert!(matches!(thrown_note(&s, 1), Event::Note(t) if t.contains("out of hand")));
    }

    #[test]
    fn from_behind_meets_unarmed_evasion_with_disadvantage() {
        // Seed 404 (disadvantage, unarmed evasion), 338–342, 204 (no shield from behind).
        let mut sh = AuraSheet::default();
        sh.shield.carried = true;
        sh.shield.bonus = 2;
        let mut s = State::new(&AURA);
        s.apply(&Event::Join(from_sheet("Asa", &sh)));
        let front = guard(&s, 1, true, false);
        assert_eq!(
            (front.sides, front.value, front.edge),
            (10, sh.evasion().0, Edge::Normal)
        );
        let back = guard(&s, 1, true, true);
        assert_eq!(
            (back.sides, back.value, back.edge),
            (10, sh.unarmed_evasion().0, Edge::Disadvantage)
        );
        let shot = guard(&s, 1, false, true);
        assert_eq!(
            (shot.sides, shot.value, shot.edge),
            (4, sh.ranged_evasion().0 - 2, Edge::Disadvantage)
        );
        assert_eq!(guard(&s, 1, false, false).value, sh.ranged_evasion().0);
        // Prone and from behind: still one disadvantage.
        s.apply(&Event::Add(1, "Prone".into(), Duration::Removed));
        assert_eq!(guard(&s, 1, true, true).edge, Edge::Disadvantage);
        assert_eq!(guard(&s, 1, true, false).edge, Edge::Disadvantage);
    }

    #[test]
    fn helpless_and_unconscious_targets_are_hit_without_a_defence_roll() {
        let (mut s, a, g) = fight();
        assert_eq!(auto_hit(&s, g, true), None);
        s.apply(&Event::Add(g, "Unconscious".into(), Duration::Removed));
        // Seed 653, 686: melee only.
        assert!(auto_hit(&s, g, true).is_some());
        assert_eq!(auto_hit(&s, g, false), None);
        s.apply(&Event::Add(a, "Helpless".into(), Duration::Removed));
        // Seed 346: every attack; helpless implies unguarded (swift attacks).
        assert!(auto_hit(&s, a, false).is_some() && s.has(a, "Unguarded"));
        assert!(can_attack(&s, a, 1, 0, false)
            .unwrap_err()
            .contains("helpless"));
        assert!(can(&s, a, &ACTS[0]).unwrap_err().contains("helpless"));
        let st = Strike {
            melee: true,
            value: 0,
            precise: 0,
            edge: Edge::Normal,
            def_sides: 10,
            def_edge: Edge::Normal,
            defence: 50,
            wins_ties: true,
            coverage: 10,
            ar: 2,
            damage: Some(crate::rules::dice::parse("1d6").unwrap()),
            bonus: 0,
            halvings: 0,
            improvised_throw: false,
            takes: Takes::Normal,
            auto_hit: true,
        };
        // A natural 1 hits (on the armor: 1 < coverage 10); no defence die is rolled: the
        // second die is the damage.
        let r = strike(&st, &mut ScriptedSource::new([1, 5]));
        assert!(r.hit && r.armor && r.def_faces.is_empty());
        assert_eq!(r.dealt, 3);
        assert!(r.line(&st).contains("no defence roll"));
        let r = strike(&st, &mut ScriptedSource::new([20, 5]));
        assert!(r.crit && !r.armor && r.dealt == 5);
        let (o, _) = strike_odds(&st, 0);
        assert!((o.hit() - 1.0).abs() < 1e-12 && o.miss == 0.0);
    }

    #[test]
    fn automatic_odds_match_every_scripted_d20() {
        for edge in [Edge::Normal, Edge::Advantage, Edge::Disadvantage] {
            for (precise, coverage) in [(0, 0), (2, 12), (1, 21)] {
                let o = crate::rules::aura::automatic(precise, edge, coverage);
                assert!((o.total() - 1.0).abs() < 1e-12, "sums to 1");
                let st = Strike {
                    melee: true,
                    value: 0,
                    precise,
                    edge,
                    def_sides: 10,
                    def_edge: Edge::Normal,
                    defence: 0,
                    wins_ties: false,
                    coverage,
                    ar: 0,
                    damage: None,
                    bonus: 0,
                    halvings: 0,
                    improvised_throw: false,
                    takes: Takes::Normal,
                    auto_hit: true,
                };
                let (mut hit, mut armor, mut crit, mut exposed) = (0.0, 0.0, 0.0, 0.0);
                let pairs: Vec<Vec<u32>> = if edge == Edge::Normal {
                    (1..=20).map(|a| vec![a]).collect()
                } else {
                    (1..=20)
                        .flat_map(|a| (1..=20).map(move |b| vec![a, b]))
                        .collect()
                };
                let w = 1.0 / pairs.len() as f64;
                for seq in pairs {
                    let r = strike(&st, &mut ScriptedSource::new(seq));
                    hit += w * f64::from(u8::from(r.hit));
                    armor += w * f64::from(u8::from(r.armor));
                    crit += w * f64::from(u8::from(r.crit));
                    exposed += w * f64::from(u8::from(r.d20 <= 3));
                }
                for (x, y) in [
                    (o.hit(), hit),
                    (o.hit_armor, armor),
                    (o.crit(), crit),
                    (o.exposed, exposed),
                ] {
                    assert!(
                        (x - y).abs() < 1e-12,
                        "{edge:?} {precise} {coverage}: {x} vs {y}"
                    );
                }
            }
        }
    }

    #[test]
    fn maneuvers_have_size_weight_and_facing_limits() {
        // Sizes: Huge 0, Large 1, Medium 2, Small 3. Seed 561: trip one size larger at most.
        assert_eq!(size_limit(Maneuver::Trip, 2, 1), Ok(()));
        assert_eq!(
            size_limit(Maneuver::Trip, 2, 0),
            Err("too large to trip: Huge against your Medium (at most one size larger)".into())
        );
        // Seed 573, 589: restrain and push none larger.
        assert_eq!(size_limit(Maneuver::Restrain, 2, 2), Ok(()));
        assert_eq!(size_limit(Maneuver::Push, 2, 3), Ok(()));
        assert!(size_limit(Maneuver::Restrain, 3, 2)
            .unwrap_err()
            .starts_with("too large to restrain: Medium"));
        assert!(size_limit(Maneuver::Push, 2, 1).is_err());
        assert_eq!(size_limit(Maneuver::Disarm, 6, 0), Ok(()));
        // Seed 567.
        assert!(disarm_limit(LIGHT, HEAVY).is_err());
        assert_eq!(disarm_limit(0, HEAVY), Ok(()));
        assert_eq!(disarm_limit(LIGHT, LIGHT), Ok(()));
        // In a fight: an NPC of size Large cannot be pushed by a Medium character.
        let (mut s, a, _) = fight();
        let n = Npc {
            size: 1,
            weight: HEAVY,
            ..gnoll()
        };
        s.apply(&Event::Join(npc("Ogre", &n)));
        assert!(maneuver_limit(&s, a, 3, Maneuver::Push, 0, false).is_err());
        assert_eq!(maneuver_limit(&s, a, 3, Maneuver::Trip, 0, false), Ok(()));
        assert!(maneuver_limit(&s, a, 3, Maneuver::Disarm, LIGHT, false)
            .unwrap_err()
            .contains("light"));
        assert!(maneuver_limit(&s, a, 3, Maneuver::Disarm, 0, true)
            .unwrap_err()
            .contains("facing"));
    }

    #[test]
    fn swift_attacks_need_an_unguarded_target() {
        // Seed 485, 487.
        let (mut s, _, g) = fight();
        assert!(swift_limit(&s, g, false).is_err());
        assert_eq!(swift_limit(&s, g, true), Ok(()));
        s.apply(&Event::Add(g, "Surprised".into(), Duration::Round { n: 1 }));
        assert_eq!(swift_limit(&s, g, false), Ok(()));
    }

    #[test]
    fn escaping_a_hold_is_a_fortitude_contest() {
        let (mut s, a, g) = fight();
        let ev = maneuver_events(&s, a, g, &roll(Maneuver::Restrain, None, true));
        s.apply(&Event::Batch(ev));
        assert_eq!(holder_of(&s, g), Some(a));
        assert_eq!(can_escape(&s, g), Ok(()));
        assert!(can_escape(&s, a).unwrap_err().contains("not restrained"));
        // A tie keeps the hold (seed 575 is silent: our decision); 3 energy spent.
        s.apply(&escape_events(&s, g, 14, 14));
        assert!(s.has(g, "Restrained") && s.has(a, "Restraining"));
        assert_eq!(pool(&s, g, ENERGY), 0);
        assert!(can_escape(&s, g).unwrap_err().contains("needs 3 energy"));
        s.apply(&Event::Next);
        s.apply(&escape_events(&s, g, 15, 14));
        assert!(!s.has(g, "Restrained") && !s.has(g, "Exposed"));
        assert!(!s.has(a, "Restraining") && !s.has(a, "Slowed"));
        assert_eq!(s.get(g).unwrap().stat(HELD_BY), 0);
        // No holder in the fight: a DC, reached to break free.
        s.apply(&Event::Next);
        s.apply(&Event::Add(g, "Restrained".into(), Duration::Removed));
        assert_eq!(holder_of(&s, g), None);
        s.apply(&escape_events(&s, g, 15, 15));
        assert!(!s.has(g, "Restrained"));
        // The holder lets go.
        s.apply(&Event::Next);
        let ev = maneuver_events(&s, a, g, &roll(Maneuver::Restrain, None, true));
        s.apply(&Event::Batch(ev));
        s.apply(&let_go_events(&s, a));
        assert!(!s.has(g, "Restrained") && !s.has(a, "Restraining"));
    }

    /// Every sequence of `cap + 1` d`sides` rolls: the exploding sum's distribution.
    fn brute(sides: u32, cap: u32, bonus: i64) -> Vec<(i64, f64)> {
        let n = cap + 1;
        let total = f64::from(sides).powi(n as i32);
        let mut m = std::collections::BTreeMap::<i64, f64>::new();
        for k in 0..sides.pow(n) {
            let (mut sum, mut x) = (bonus, k);
            for j in 0..n {
                let f = x % sides + 1;
                x /= sides;
                sum += i64::from(f);
                if f != sides || j == cap {
                    break;
                }
            }
            *m.entry(sum).or_default() += 1.0 / total;
        }
        m.into_iter().collect()
    }

    #[test]
    fn escape_contest_odds_match_brute_force_and_sum_to_1() {
        for (mine, theirs) in [(0, 0), (2, 0), (0, 3)] {
            let a = crate::rules::aura::exploding_with(4, Edge::Normal, 2).shift(mine);
            let b = crate::rules::aura::exploding_with(4, Edge::Normal, 2).shift(theirs);
            let (w, t, l) = escape_contest(&a, &b);
            let (mut bw, mut bt, mut bl) = (0.0, 0.0, 0.0);
            for (x, px) in brute(4, 2, mine) {
                for (y, py) in brute(4, 2, theirs) {
                    match x.cmp(&y) {
                        std::cmp::Ordering::Greater => bw += px * py,
                        std::cmp::Ordering::Equal => bt += px * py,
                        std::cmp::Ordering::Less => bl += px * py,
                    }
                }
            }
            assert!((w.p() - bw).abs() < 1e-12 && (t.p() - bt).abs() < 1e-12);
            assert!((l.p() - bl).abs() < 1e-12);
            assert!((w.p() + t.p() + l.p() - 1.0).abs() < 1e-12);
        }
        // In a fight: the escaper's and the holder's fortitude (10 each, no edges): a tie keeps
        // the hold, so winning is below one half; against a DC of 11 it is the 1d10* ≥ 1.
        let (mut s, a, g) = fight();
        let ev = maneuver_events(&s, a, g, &roll(Maneuver::Restrain, None, true));
        s.apply(&Event::Batch(ev));
        let (fa, fg) = (
            s.get(a).unwrap().stat(FORTITUDE),
            s.get(g).unwrap().stat(FORTITUDE),
        );
        let (w, t, l) = escape_odds(&s, g);
        let want = defence_roll(10, Edge::Normal, fg).versus(&defence_roll(10, Edge::Normal, fa));
        assert_eq!((w, t, l), want);
        assert!((w.p() + t.p() + l.p() - 1.0).abs() < 1e-12);
        s.apply(&let_go_events(&s, a));
        s.apply(&Event::Add(g, "Restrained".into(), Duration::Removed));
        s.apply(&escape_dc_events(&s, g, fg + 1));
        assert_eq!(escape_odds(&s, g).0, Chance::Certain);
        s.apply(&escape_dc_events(&s, g, fg + 5));
        let (w, _, l) = escape_odds(&s, g);
        assert!((w.p() - 0.6).abs() < 1e-12 && (l.p() - 0.4).abs() < 1e-12);
    }

    #[test]
    fn edges_from_conditions_cancel() {
        let (mut s, a, _) = fight();
        s.apply(&Event::Add(a, "Prone".into(), Duration::Removed));
        assert_eq!(defence_edge(&s, a, true, Edge::Normal), Edge::Disadvantage);
        assert_eq!(defence_edge(&s, a, false, Edge::Normal), Edge::Normal);
        assert_eq!(defence_edge(&s, a, true, Edge::Advantage), Edge::Normal);
        s.apply(&Event::Add(a, "Dazed".into(), Duration::Removed));
        assert_eq!(attack_edge(&s, a, Edge::Normal), Edge::Disadvantage);
    }
}
