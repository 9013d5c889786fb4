//! Heimr combat on the encounter engine: initiative as a dice challenge, action types,
//! pre-rolled defences with their stacking penalties, attacks with exact chances (body parts,
//! positions, terrain, ranged clusters, luck shots, brawls), injuries with their dying clocks,
//! effects measured in seconds, fatigue that rises at most once a turn, and falling.
//!
//! Everything here is pure: it reads a [`State`] and returns the [`Event`]s that record what
//! happened, dice included, so a replay is exact and undo takes back the whole step.
//!
//! Decisions where the rules are silent (also in ARCHITECTURE.md):
//! - a weapon's or shield's "P+n" bonus is added to the rolls made with it (attack and parry,
//!   block);
//! - initiative is not a physical challenge with a requirement, so fatigue does not fail it;
//! - a defence is checked against the defender's fatigue when it is used, with the fatigue of
//!   that moment; a shown defence whose dice part is below it stops nothing;
//! - in a ranged attack into a cluster, a roll failed on fatigue ends the attack (the shot goes
//!   wide); only the first roll can raise the attacker's fatigue;
//! - hit points below −5 stay mutilated, the gravest level the rules define.

use super::challenge::{dice_distribution, ChallengeRoll};
use super::sheet::{HeimrSheet, Injury, InjuryLevel, FATIGUE_MAX};
use super::{Ability, Attr};
use crate::rules::dice::{Chance, Distribution};
use crate::rules::encounter::{systems::HEIMR, Combatant, Duration, Event, State};

// Indexes of HEIMR's stats.
pub const DEX: usize = 0;
pub const WILL: usize = 1;
pub const FATIGUE: usize = 2;
pub const BASE: usize = 3;
pub const WEAPON: usize = 4;
pub const SHIELD: usize = 5;
pub const WEAPON_C: usize = 6;
pub const WEAPON_P: usize = 7;
pub const SHIELD_C: usize = 8;
pub const SHIELD_P: usize = 9;
pub const AGILITY_C: usize = 10;
pub const AGILITY_P: usize = 11;
pub const BRAWL_C: usize = 12;
pub const BRAWL_P: usize = 13;
pub const DEF_KIND: usize = 14;
pub const DEF_DICE: usize = 15;
pub const DEF: usize = 16;
pub const DEF_D6: usize = 17;
pub const MELEE: usize = 18;
/// The id + 1 of the combatant it guards (0: none), while it has the condition "Guarding".
pub const GUARDING: usize = 19;
/// The hit point maximum as the sheet now has it (`HEIMR.max_stat`): raised on the sheet
/// mid-fight, it is the fight's too.
pub const HP_MAX: usize = 20;
/// The id + 1 of the one that dodged its melee weapon attack since its turn began: that one may
/// brawl it without a provoked attack (the seed, "Brawl attack"). Lapses at its turn.
pub const PASSED_BY: usize = 23;
/// The id + 1 of the one it holds with a brawl bind (0: none), while it has "Grabbing".
pub const GRABBING: usize = 24;
/// The id + 1 of the combatant it chases (0: none); see `heimr::chase`.
pub const CHASING: usize = 21;
/// How many squares behind its quarry it is, while it chases.
pub const CHASE_DISTANCE: usize = 22;
// Indexes of HEIMR's resources.
pub const STANDARD: usize = 0;
pub const RISE: usize = 1;
const DODGES: usize = 2;
const BLOCKS: usize = 3;
const PARRIES: usize = 4;

/// Rounds of two seconds in five and ten minutes (a mangled character's clock) and in two
/// minutes (a mutilated one's).
pub const ROUNDS_5_MIN: u32 = 150;
pub const ROUNDS_10_MIN: u32 = 300;
pub const ROUNDS_2_MIN: u32 = 60;

/// A weapon type of the medieval armoury: reach (0: melee), damage, bonus to P, and whether it
/// takes both hands (then no shield or second weapon).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weapon {
    pub name: &'static str,
    pub range: i32,
    pub damage: i32,
    pub bonus: i32,
    pub two_hands: bool,
}

const fn w(name: &'static str, range: i32, damage: i32, bonus: i32, two_hands: bool) -> Weapon {
    Weapon {
        name,
        range,
        damage,
        bonus,
        two_hands,
    }
}

pub const WEAPONS: [Weapon; 9] = [
    w("No weapon", 0, 0, 0, false),
    w("Light weapon", 0, 1, 2, false),
    w("Medium weapon", 0, 2, 3, false),
    w("Great weapon", 0, 3, 5, true),
    w("Pole arm", 0, 2, 4, true),
    w("Bow", 6, 3, 1, true),
    w("Crossbow", 4, 3, 0, true),
    w("Throwing weapon", 1, 1, 0, false),
    w("Blowgun", 2, 0, 1, false),
];

/// What the off hand holds: a shield (name and bonus to P on blocks) or, last, a second light
/// weapon (index 0: nothing).
pub const SHIELDS: [(&str, i32); 6] = [
    ("No shield", 0),
    ("Buckler", 0),
    ("Small shield", 2),
    ("Medium shield", 3),
    ("Tower shield", 5),
    ("Light weapon", 0),
];
/// The tower shield: its bearer's stamina counts one less (base fatigue +1).
pub const TOWER: i32 = 4;
/// A light weapon in the off hand: a second attack and a second parry.
pub const OFF_WEAPON: i32 = 5;

pub fn weapon(c: &Combatant) -> Weapon {
    WEAPONS[c.stat(WEAPON).clamp(0, WEAPONS.len() as i32 - 1) as usize]
}

fn shield_bonus(c: &Combatant) -> Option<i32> {
    match c.stat(SHIELD) {
        1..=4 => Some(SHIELDS[c.stat(SHIELD) as usize].1),
        _ => None,
    }
}

/// Sets a combatant's weapon and off hand (none beside a two-handed weapon), how many parries
/// it has between turns (one per melee weapon), and its base fatigue (a tower shield's
/// stamina −1).
pub fn arm(c: &mut Combatant, weapon: usize, shield: usize) {
    let weapon = weapon.min(WEAPONS.len() - 1);
    let w = WEAPONS[weapon];
    let shield = if w.two_hands {
        0
    } else {
        shield.min(SHIELDS.len() - 1) as i32
    };
    let tower = |v: i32| i32::from(v == TOWER);
    let more = tower(shield) - tower(c.stats[SHIELD]);
    c.stats[BASE] = (c.stats[BASE] + more).clamp(1, FATIGUE_MAX);
    if more > 0 {
        c.stats[FATIGUE] = c.stats[FATIGUE].max(c.stats[BASE]);
    }
    c.stats[WEAPON] = weapon as i32;
    c.stats[SHIELD] = shield;
    c.stats[MELEE] = i32::from(weapon > 0 && w.range == 0) + i32::from(shield == OFF_WEAPON);
}

/// Why a weapon and an off hand cannot be held together, if they cannot.
pub fn unfit(weapon: usize, shield: usize) -> Option<String> {
    let w = WEAPONS.get(weapon)?;
    (w.two_hands && shield > 0).then(|| {
        format!(
            "{} takes both hands: nothing in the off hand",
            w.name.to_lowercase()
        )
    })
}

/// The events that change a combatant's weapon (fought with C/P `wcp`) and off hand (`scp`:
/// the shield's ability, or the second weapon's) in the fight. Parries already made stay
/// counted; a new melee weapon brings its parry.
pub fn arm_events(
    c: &Combatant,
    weapon: usize,
    shield: usize,
    (wc, wp): (i32, i32),
    (sc, sp): (i32, i32),
) -> Event {
    let mut armed = c.clone();
    arm(&mut armed, weapon, shield);
    let mut list: Vec<Event> = [WEAPON, SHIELD, MELEE, BASE, FATIGUE]
        .into_iter()
        .filter(|&i| armed.stats[i] != c.stats[i] || i < MELEE)
        .map(|i| Event::Set(c.id, i, armed.stats[i]))
        .collect();
    let more = armed.stat(MELEE) - c.stat(MELEE);
    if more != 0 {
        list.push(Event::Spend(c.id, PARRIES, -more));
    }
    for (i, v) in [
        (WEAPON_C, wc),
        (WEAPON_P, wp),
        (SHIELD_C, sc),
        (SHIELD_P, sp),
    ] {
        list.push(Event::Set(c.id, i, v));
    }
    let off = SHIELDS[armed.stat(SHIELD) as usize].0.to_lowercase();
    list.push(Event::Note(format!(
        "{} takes up {} (C {wc}, P {wp}) and {off}{}",
        c.name,
        WEAPONS[armed.stat(WEAPON) as usize].name.to_lowercase(),
        if armed.stat(SHIELD) > 0 {
            format!(" (C {sc}, P {sp})")
        } else {
            String::new()
        }
    )));
    Event::Batch(list)
}

/// What a quick NPC needs: hit points, willpower, dexterity, base fatigue, its weapon and
/// shield, and C/P of its weapon, shield, agility and brawl abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Npc {
    pub hp: i32,
    pub willpower: i32,
    pub dex: i32,
    pub base_fatigue: i32,
    pub weapon: usize,
    pub shield: usize,
    pub weapon_cp: (i32, i32),
    pub shield_cp: (i32, i32),
    pub agility_cp: (i32, i32),
    pub brawl_cp: (i32, i32),
}

impl Default for Npc {
    fn default() -> Self {
        Npc {
            hp: 5,
            willpower: 2,
            dex: 1,
            base_fatigue: 3,
            weapon: 2,
            shield: 0,
            weapon_cp: (1, 1),
            shield_cp: (1, 1),
            agility_cp: (1, 1),
            brawl_cp: (1, 1),
        }
    }
}

pub fn npc(name: &str, n: &Npc) -> Combatant {
    let mut c = Combatant::new(&HEIMR, name, n.hp);
    c.stats[DEX] = n.dex;
    c.stats[WILL] = n.willpower;
    c.stats[BASE] = n.base_fatigue.clamp(1, FATIGUE_MAX);
    c.stats[FATIGUE] = c.stats[BASE];
    c.stats[HP_MAX] = n.hp;
    for (i, (cc, p)) in [
        (WEAPON_C, n.weapon_cp),
        (SHIELD_C, n.shield_cp),
        (AGILITY_C, n.agility_cp),
        (BRAWL_C, n.brawl_cp),
    ] {
        c.stats[i] = cc;
        c.stats[i + 1] = p;
    }
    arm(&mut c, n.weapon, n.shield);
    c.stats[FATIGUE] = c.stats[BASE];
    c
}

/// How many of a sheet's abilities its combatant brings to the fight (its texts).
pub const ABILITIES_MAX: usize = 64;

/// The abilities a combatant brought from its sheet: name, C and P (none for a quick NPC).
pub fn abilities(c: &Combatant) -> Vec<(String, i32, i32)> {
    c.texts
        .iter()
        .filter_map(|t| {
            let mut it = t.split('\t');
            let name = it.next()?.to_owned();
            let cc = it.next()?.parse().ok()?;
            let p = it.next()?.parse().ok()?;
            Some((name, cc, p))
        })
        .collect()
}

/// C and P a weapon (`stat` WEAPON_C) or off hand (SHIELD_C) is taken up with: `pick` 0 keeps
/// the numbers it fights with now, `k` the k-th ability it brought from its sheet.
pub fn picked_cp(c: &Combatant, stat: usize, pick: u32) -> Result<(i32, i32), String> {
    if pick == 0 {
        return Ok((c.stat(stat), c.stat(stat + 1)));
    }
    abilities(c)
        .get(pick as usize - 1)
        .map(|a| (a.1, a.2))
        .ok_or_else(|| "no such ability on its sheet".to_owned())
}

/// C and P of the sheet's ability called `name` (the standard ones always exist by default).
pub fn ability_cp(sheet: &HeimrSheet, name: &str) -> Option<(i32, i32)> {
    sheet
        .abilities
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
        .map(|a| cp(sheet, a))
}

pub fn cp(sheet: &HeimrSheet, a: &Ability) -> (i32, i32) {
    (sheet.consistency(a), sheet.potential(a))
}

/// A saved character as a combatant: unarmed (its brawl) until it takes up a weapon in the
/// fight; dodges with Agility.
pub fn combatant(name: &str, sheet: &HeimrSheet, link: Option<String>) -> Combatant {
    let brawl = ability_cp(sheet, "Brawl").unwrap_or((0, sheet.attr(Attr::Str)));
    let agility = ability_cp(sheet, "Agility").unwrap_or((0, sheet.attr(Attr::Dex)));
    let mut c = npc(
        name,
        &Npc {
            hp: sheet.hp_max,
            willpower: sheet.willpower,
            dex: sheet.attr(Attr::Dex),
            base_fatigue: sheet.base_fatigue(),
            weapon: 0,
            shield: 0,
            weapon_cp: brawl,
            shield_cp: brawl,
            agility_cp: agility,
            brawl_cp: brawl,
        },
    );
    c.hp = sheet.hp;
    c.stats[FATIGUE] = sheet.fatigue;
    c.texts = sheet
        .abilities
        .iter()
        .take(ABILITIES_MAX)
        .map(|a| {
            let (ac, ap) = cp(sheet, a);
            format!("{}\t{ac}\t{ap}", a.name)
        })
        .collect();
    c.pc = true;
    c.link = link;
    c
}

/// A combatant's initiative roll: C = dexterity, P = current willpower, no fatigue check.
pub fn initiative_setup(c: &Combatant) -> Setup {
    Setup {
        c: Figure::new(c.stat(DEX)),
        p: Figure::new(c.stat(WILL)),
        fatigue: i32::MIN,
    }
}

/// Initiative for everyone in the order who is still fighting: C = dexterity, P = current
/// willpower; the keys are the result, then willpower (its tie-break).
pub fn initiative_events<S>(s: &State, src: &mut S) -> Event
where
    S: crate::rules::dice::DiceSource + ?Sized,
{
    let mut list = Vec::new();
    for c in s
        .order
        .iter()
        .filter_map(|&id| s.get(id))
        .filter(|c| !c.dead)
    {
        let r = super::roll_challenge(c.stat(DEX), c.stat(WILL), src);
        list.push(Event::Note(format!(
            "{} rolls initiative: {}",
            c.name,
            describe(&r)
        )));
        list.push(Event::Init(c.id, vec![r.result, c.stat(WILL)]));
    }
    Event::Batch(list)
}

/// A rolled challenge in words: "d6 4 · d10 7, 2 → 7 + P 2 = 9".
pub fn describe(r: &ChallengeRoll) -> String {
    let d10 = if r.d10s.is_empty() {
        String::new()
    } else {
        let v: Vec<String> = r.d10s.iter().map(u32::to_string).collect();
        format!(" · d10 {}", v.join(", "))
    };
    let m = match r.modifier {
        0 => String::new(),
        m => format!(" {m:+}"),
    };
    format!(
        "d6 {}{d10} → {}{m} + P {} = {}",
        r.d6,
        r.kept_value(),
        r.p,
        r.result
    )
}

/// A C or P with the reasons it differs from the ability's own value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Figure {
    pub value: i32,
    pub why: Vec<String>,
}

impl Figure {
    fn new(value: i32) -> Figure {
        Figure {
            value,
            why: Vec::new(),
        }
    }

    fn add(&mut self, delta: i32, why: &str) {
        if delta != 0 {
            self.value += delta;
            let sign = if delta < 0 { '−' } else { '+' };
            self.why
                .push(format!("{sign}{} {why}", delta.unsigned_abs()));
        }
    }

    /// "3 (−2 prone, +1 height)" or "−1": a true minus sign, as in print.
    pub fn text(&self) -> String {
        let v = if self.value < 0 {
            format!("−{}", self.value.unsigned_abs())
        } else {
            self.value.to_string()
        };
        if self.why.is_empty() {
            v
        } else {
            format!("{v} ({})", self.why.join(", "))
        }
    }
}

/// A roll about to be made: C and P with their reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub c: Figure,
    pub p: Figure,
    pub fatigue: i32,
}

/// The three defences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defence {
    Dodge = 1,
    Block = 2,
    Parry = 3,
}

impl Defence {
    pub const ALL: [Defence; 3] = [Defence::Dodge, Defence::Block, Defence::Parry];

    pub fn from_stat(v: i32) -> Option<Defence> {
        Self::ALL.into_iter().find(|d| *d as i32 == v)
    }

    pub fn name(self) -> &'static str {
        match self {
            Defence::Dodge => "Dodge",
            Defence::Block => "Block",
            Defence::Parry => "Parry",
        }
    }

    fn pool(self) -> usize {
        match self {
            Defence::Dodge => DODGES,
            Defence::Block => BLOCKS,
            Defence::Parry => PARRIES,
        }
    }
}

/// Why a combatant cannot defend at all right now, if it cannot (holding a brawl bind is
/// one: the grabber makes no defence rolls).
pub fn no_defence(s: &State, who: u32) -> Option<&'static str> {
    ["Dazed", "No defence", "Unconscious", "Helpless", "Grabbing"]
        .into_iter()
        .find(|n| s.has(who, n))
}

/// Why `who`'s hands cannot use a weapon now (dropped, bound), if they cannot.
pub fn no_hands(s: &State, who: u32) -> Option<&'static str> {
    ["Dropped", "Bound hands"]
        .into_iter()
        .find(|n| s.has(who, n))
}

/// How often a defence was used since the combatant's last turn.
pub fn uses(c: &Combatant, d: Defence) -> i32 {
    let left = c.pools.get(d.pool()).copied().unwrap_or(0);
    match d {
        Defence::Parry => c.stat(MELEE) - left,
        _ => -left,
    }
}

/// C and P of `who`'s next roll of defence `d`, or why it cannot roll it.
pub fn defence_setup(s: &State, who: u32, d: Defence) -> Result<Setup, String> {
    let c = s.get(who).ok_or("not in the fight")?;
    if let Some(why) = no_defence(s, who) {
        return Err(format!("{why}: no defence"));
    }
    let (mut cc, mut p) = match d {
        Defence::Dodge => (
            Figure::new(c.stat(AGILITY_C)),
            Figure::new(c.stat(AGILITY_P)),
        ),
        Defence::Block => {
            let bonus = shield_bonus(c).ok_or("no shield to block with")?;
            if s.has(who, "Bound hands") {
                return Err("bound hands: no block".into());
            }
            // One hand holds on: the weapon stays in the other (the seed, "Climbing").
            if s.has(who, "Climbing") {
                return Err("climbing: one hand holds on, so no shield".into());
            }
            let mut p = Figure::new(c.stat(SHIELD_P));
            p.add(bonus, "shield");
            (Figure::new(c.stat(SHIELD_C)), p)
        }
        Defence::Parry => {
            if c.stat(MELEE) == 0 {
                return Err("no melee weapon to parry with".into());
            }
            let used = uses(c, d);
            if used >= c.stat(MELEE) {
                return Err("already parried since its last turn".into());
            }
            // The main weapon parries first, a second light weapon after it.
            let main = c.stat(WEAPON) > 0 && weapon(c).range == 0;
            let off = c.stat(SHIELD) == OFF_WEAPON && (used > 0 || !main);
            if let Some(why) = no_hands(s, who).filter(|&w| w == "Bound hands" || !off) {
                return Err(format!("{}: no parry", why.to_lowercase()));
            }
            let (wc, wp, bonus) = if off {
                (SHIELD_C, SHIELD_P, WEAPONS[1].bonus)
            } else {
                (WEAPON_C, WEAPON_P, weapon(c).bonus)
            };
            let mut p = Figure::new(c.stat(wp));
            p.add(bonus, "weapon");
            (Figure::new(c.stat(wc)), p)
        }
    };
    if d != Defence::Parry {
        let n = uses(c, d);
        cc.add(-2 * n, &format!("{n} earlier {}", d.name().to_lowercase()));
    }
    let has = |n: &str| s.has(who, n);
    if has("Ongoing") {
        cc.add(-2, "ongoing action");
    }
    if has("Prone") {
        cc.add(-2, "prone");
    }
    if has("Climbing") {
        cc.add(-2, "climbing");
    }
    if d != Defence::Block && has("Difficult terrain") {
        cc.add(-1, "difficult terrain");
    }
    if d == Defence::Dodge && has("Dodging") {
        p.add(2, "readied dodge");
    }
    Ok(Setup {
        c: cc,
        p,
        fatigue: c.stat(FATIGUE),
    })
}

/// How a roll with `st` may fall, exactly: the results it reaches with about three chances in
/// four, one in two and one in four, each with its chance of that much or more; and the
/// chance its dice part falls below the fatigue (then it stands for nothing).
pub fn spread(st: &Setup) -> (Vec<(i64, Chance)>, Chance) {
    let d = dice_distribution(st.c.value);
    let r = d.clone().shift(i64::from(st.p.value));
    let mut out: Vec<(i64, Chance)> = Vec::new();
    for q in [0.75, 0.5, 0.25] {
        let t = r
            .iter()
            .map(|x| x.0)
            .filter(|&t| r.at_least(t).p() >= q)
            .max();
        if let Some(t) = t.filter(|&t| out.last().is_none_or(|l| l.0 < t)) {
            out.push((t, r.at_least(t)));
        }
    }
    (out, d.at_least(i64::from(st.fatigue)).complement())
}

/// Records a pre-rolled defence: what attackers see until it is used.
pub fn defence_events(s: &State, who: u32, d: Defence, r: &ChallengeRoll) -> Event {
    let name = s.name(who);
    Event::Batch(vec![
        Event::Note(format!(
            "{name} readies a {}: {}",
            d.name().to_lowercase(),
            describe(r)
        )),
        Event::Set(who, DEF_KIND, d as i32),
        Event::Set(who, DEF_DICE, r.dice),
        Event::Set(who, DEF, r.result),
        Event::Set(who, DEF_D6, r.d6 as i32),
    ])
}

/// The defence an attacker sees on `who`: its kind and value, or why there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// A pre-rolled defence; `fails`: its dice part is below the defender's fatigue now.
    Ready {
        kind: Defence,
        value: i32,
        fails: bool,
    },
    /// Nothing stops an attack that stands.
    None,
}

pub fn shown(s: &State, who: u32) -> Shown {
    let Some(c) = s.get(who) else {
        return Shown::None;
    };
    match Defence::from_stat(c.stat(DEF_KIND)) {
        Some(kind) if no_defence(s, who).is_none() => Shown::Ready {
            kind,
            value: c.stat(DEF),
            fails: c.stat(DEF_DICE) < c.stat(FATIGUE),
        },
        _ => Shown::None,
    }
}

/// In words, for the order and the target list.
pub fn shown_text(s: &State, who: u32) -> String {
    match shown(s, who) {
        Shown::Ready { kind, value, fails } => format!(
            "{} {value}{}",
            kind.name(),
            if fails { " (fails: fatigue)" } else { "" }
        ),
        Shown::None => match no_defence(s, who) {
            Some(why) => format!("no defence ({})", why.to_lowercase()),
            None => "no defence rolled".into(),
        },
    }
}

/// The value an attack must beat, or `None` when nothing stands in its way.
pub fn standing(sh: Shown) -> Option<i32> {
    match sh {
        Shown::Ready { value, fails, .. } if !fails => Some(value),
        _ => None,
    }
}

/// The body part an attack's d6 picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    LeftLeg = 1,
    RightLeg = 2,
    OtherArm = 3,
    SwordArm = 4,
    Torso = 5,
}

impl Part {
    pub const ALL: [Part; 5] = [
        Part::Torso,
        Part::SwordArm,
        Part::OtherArm,
        Part::RightLeg,
        Part::LeftLeg,
    ];

    pub fn from_d6(d6: u32) -> Part {
        match d6 {
            1 => Part::LeftLeg,
            2 => Part::RightLeg,
            3 => Part::OtherArm,
            4 => Part::SwordArm,
            _ => Part::Torso,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Part::LeftLeg => "left leg",
            Part::RightLeg => "right leg",
            Part::OtherArm => "other arm",
            Part::SwordArm => "sword arm",
            Part::Torso => "torso",
        }
    }

    /// The injury condition a hit there gives while injured.
    pub fn injury(self) -> &'static str {
        match self {
            Part::LeftLeg | Part::RightLeg => "Injured leg",
            Part::OtherArm | Part::SwordArm => "Injured arm",
            Part::Torso => "Injured torso",
        }
    }
}

/// What kind of attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    #[default]
    Weapon,
    /// A brawl attack meant to do 1 HP.
    BrawlHit,
    /// A brawl attack meant to grab.
    BrawlBind,
    /// The second weapon's attack: a light weapon in the off hand.
    OffHand,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Weapon, Kind::BrawlHit, Kind::BrawlBind, Kind::OffHand];

    pub fn brawl(self) -> bool {
        matches!(self, Kind::BrawlHit | Kind::BrawlBind)
    }
}

/// The weapon an attack of `kind` by `c` is made with (a brawl's: none).
pub fn wielded(c: &Combatant, kind: Kind) -> Weapon {
    match kind {
        Kind::Weapon => weapon(c),
        Kind::OffHand => WEAPONS[1],
        _ => WEAPONS[0],
    }
}

/// Everything the attacker chooses or the table tells it before the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    pub kind: Kind,
    pub part: Option<Part>,
    /// Ranged: turns of movement to the target; characters in its cluster (0: none).
    pub distance: i32,
    pub cluster: i32,
    /// Melee: +1 attacking down from one height higher, −1 attacking up.
    pub height: i32,
    /// The target's concealment from the attacker.
    pub concealment: i32,
    /// The target is hidden: only a luck shot (a d10 showing 10 first).
    pub luck_shot: bool,
    /// The attacker is hidden from the target and charges or shoots: +2 P.
    pub from_hiding: bool,
    pub c_bonus: i32,
    pub p_bonus: i32,
    /// A re-roll at the next in a cluster: it cannot raise the attacker's fatigue.
    pub follow_up: bool,
    /// The blind-spot module: the attack comes from the target's blind spot, so the target
    /// defends with a defence rolled now at −5 C ([`blind_spot_setup`]) instead of its shown one.
    pub blind_spot: bool,
    /// That defence, once rolled (the attack's roll records it).
    pub redone: Option<Redone>,
    /// The target chooses not to defend: the attack stands unless it fails on fatigue; a shot
    /// makes no blind spot and the shown defence is kept.
    pub undefended: bool,
}

/// A defence rolled at the moment of an attack (from a blind spot, or a dodge instead of a
/// parry against a shot), instead of the shown one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Redone {
    pub kind: Defence,
    pub dice: i32,
    pub result: i32,
    pub d6: u32,
}

impl Redone {
    pub fn from_roll(kind: Defence, r: &ChallengeRoll) -> Redone {
        Redone {
            kind,
            dice: r.dice,
            result: r.result,
            d6: r.d6,
        }
    }
}

/// The blind-spot module: C and P of the defence `target` rolls against an attack from its
/// blind spot (its shown kind, −5 C), or why there is none to roll.
pub fn blind_spot_setup(s: &State, target: u32) -> Result<(Defence, Setup), String> {
    if !s.has(target, "Blind spot") {
        return Err(format!("{} has no blind spot now", s.name(target)));
    }
    let Some(c) = s.get(target) else {
        return Err("pick a target".into());
    };
    let kind = Defence::from_stat(c.stat(DEF_KIND))
        .ok_or_else(|| format!("{} shows no defence to roll again", c.name))?;
    // The shown one is not spent yet: the one rolled now stands in for it, counted the same.
    let mut st = defence_setup(s, target, kind)?;
    st.c.add(-5, "blind spot");
    Ok((kind, st))
}

/// The exact chances that an attack (C, P, the attacker's fatigue) beats a defence not yet
/// rolled (its C, P and the defender's fatigue), and that it falls short by at most one (a
/// brawl attack's harmless touch): a defence whose dice part is below the defender's fatigue
/// stops nothing.
pub fn hit_vs_roll(c: i32, p: i32, fatigue: i32, d: (i32, i32, i32)) -> (Chance, Chance) {
    let (dc, dp, dfat) = d;
    let att = dice_distribution(c);
    let def = dice_distribution(dc);
    // Masses and whether each side holds an outcome: [hit, touch, neither].
    let mut m = [0.0f64; 3];
    let mut some = [false; 3];
    for (x, qx) in att.iter().filter(|a| a.1 > 0.0) {
        if x < i64::from(fatigue) {
            m[2] += qx;
            some[2] = true;
            continue;
        }
        for (y, qy) in def.iter().filter(|b| b.1 > 0.0) {
            let (mine, theirs) = (x + i64::from(p), y + i64::from(dp));
            let k = if y < i64::from(dfat) || mine > theirs {
                0
            } else if mine >= theirs - 1 {
                1
            } else {
                2
            };
            m[k] += qx * qy;
            some[k] = true;
        }
    }
    let side = |k: usize| {
        let rest: f64 = (0..3).filter(|&j| j != k).map(|j| m[j]).sum();
        let rest_some = (0..3).any(|j| j != k && some[j]);
        Chance::from_masses(m[k], rest, some[k], rest_some)
    };
    (side(0), side(1))
}

/// The attack's C and P with every modifier the rules give, or why it cannot be made.
pub fn attack_setup(s: &State, who: u32, target: u32, o: &Options) -> Result<Setup, String> {
    let (Some(a), Some(_)) = (s.get(who), s.get(target)) else {
        return Err("pick a target".into());
    };
    if who == target {
        return Err("pick someone else".into());
    }
    if let Some(n) = no_actions(s, who) {
        return Err(format!("{n}: no attacks"));
    }
    if s.has(target, "Hidden") && !o.luck_shot {
        return Err("the target is hidden: only a luck shot reaches it".into());
    }
    let wp = wielded(a, o.kind);
    let ranged = o.kind == Kind::Weapon && wp.range > 0;
    let (mut c, mut p) = match o.kind {
        Kind::Weapon | Kind::OffHand => {
            let (held, wc, wpp) = match o.kind {
                Kind::Weapon => (a.stat(WEAPON) > 0, WEAPON_C, WEAPON_P),
                _ => (a.stat(SHIELD) == OFF_WEAPON, SHIELD_C, SHIELD_P),
            };
            if !held {
                return Err("no weapon in that hand (a brawl attack needs none)".into());
            }
            if let Some(why) = no_hands(s, who) {
                return Err(format!("{}: no weapon attack", why.to_lowercase()));
            }
            let mut p = Figure::new(a.stat(wpp));
            p.add(wp.bonus, "weapon");
            (Figure::new(a.stat(wc)), p)
        }
        _ => {
            if o.kind == Kind::BrawlBind && s.has(who, "Bound hands") {
                return Err("bound hands: no grab".into());
            }
            (Figure::new(a.stat(BRAWL_C)), Figure::new(a.stat(BRAWL_P)))
        }
    };
    if ranged && s.has(who, "Stumbling") {
        return Err("stumbling: no ranged attacks".into());
    }
    if ranged && o.distance > wp.range {
        return Err(format!(
            "out of range ({} reaches {})",
            wp.name.to_lowercase(),
            wp.range
        ));
    }
    if o.part.is_some() {
        c.add(-2, "targeted");
    }
    if ranged {
        c.add(-(o.distance.max(0) / 2), "distance");
        c.add(-o.cluster.max(0), "into a cluster");
        if s.has(target, "Prone") {
            c.add(-2, "target prone");
        }
    } else {
        c.add(o.height.clamp(-1, 1), "height");
        if s.has(who, "Difficult terrain") {
            c.add(-1, "difficult terrain");
        }
    }
    if s.has(who, "Prone") {
        c.add(-2, "prone");
    }
    if s.has(who, "Climbing") {
        c.add(-1, "climbing");
    }
    c.add(-o.concealment.max(0), "concealment");
    if o.luck_shot {
        c.add(-1, "luck shot");
    }
    c.add(o.c_bonus, "other");
    if o.from_hiding {
        p.add(2, "from hiding");
    }
    p.add(o.p_bonus, "other");
    Ok(Setup {
        c,
        p,
        fatigue: a.stat(FATIGUE),
    })
}

/// The guard that intercepts an attack by `who` meant for `target`, if any: of those guarding
/// the target (awake, not dazed, and `who` not hidden), the first in initiative order counted
/// from the attacker. Only that one responds (the seed, "Guarding").
pub fn interceptor(s: &State, who: u32, target: u32) -> Option<u32> {
    if s.has(who, "Hidden") {
        return None;
    }
    let at = s.order.iter().position(|&x| x == who).unwrap_or(0);
    s.order[at..]
        .iter()
        .chain(&s.order[..at])
        .copied()
        .filter(|&g| g != who && g != target)
        .find(|&g| {
            s.get(g).is_some_and(|c| {
                !c.dead
                    && !c.gone
                    && c.stat(GUARDING) == target as i32 + 1
                    && s.has(g, "Guarding")
                    && no_actions(s, g).is_none()
            })
        })
}

/// `who` guards `ward` (its free action on its own turn): the first attack meant for the ward
/// comes to it instead, until then or its next turn.
pub fn guard_events(s: &State, who: u32, ward: u32) -> Result<Event, String> {
    if who == ward {
        return Err("it cannot guard itself".into());
    }
    let w = s.get(ward).ok_or("pick whom to guard")?;
    if w.dead || w.gone {
        return Err(format!("{} is out of the fight", w.name));
    }
    let Event::Batch(mut list) = action_events(s, who, GUARD_ACTION)? else {
        return Err("no such action".into());
    };
    list.extend(ending(s, who, "Guarding"));
    list.push(Event::Note(format!("{} guards {}", s.name(who), w.name)));
    list.push(Event::Set(who, GUARDING, ward as i32 + 1));
    list.push(Event::Add(
        who,
        "Guarding".into(),
        Duration::Start { who, n: 1 },
    ));
    Ok(Event::Batch(list))
}

/// The guard steps in: the note and the end of its guard (it stops one opponent).
pub fn intercept_events(s: &State, guard: u32, who: u32, target: u32) -> Vec<Event> {
    let mut list = vec![Event::Note(format!(
        "{} guards {}: the attack by {} comes to it",
        s.name(guard),
        s.name(target),
        s.name(who)
    ))];
    list.extend(ending(s, guard, "Guarding"));
    list.push(Event::Set(guard, GUARDING, 0));
    list
}

/// A defence rolled at the moment an attack comes (not the shown one): its kind, C, P and the
/// defender's fatigue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fresh {
    pub kind: Defence,
    pub c: i32,
    pub p: i32,
    pub fatigue: i32,
}

/// One defender an attack meets: who, the defence it shows then, a defence it rolls now
/// instead (`fresh`), and the C of a fresh attack roll there (`None`: the roll before goes on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub who: u32,
    pub shown: Shown,
    pub roll: Option<i32>,
    pub fresh: Option<Fresh>,
}

impl Step {
    /// Whether the attack goes on past this step after `out`: it was dodged.
    pub fn passes(&self, out: Outcome) -> bool {
        match self.fresh {
            Some(f) => out == Outcome::Miss && f.kind == Defence::Dodge,
            None => dodged(out, self.shown),
        }
    }
}

/// Whom an attack meets, in order, and with which roll: the guard that steps in first (a
/// blow ends there; a shot it dodges goes on to the one it guarded with the same roll), then
/// the target (taken `undefended`: nothing stands; from its `blind` spot: its shown kind rolled
/// now at −5 C), then the rest of a shot's cluster (`members` after the target), each with a
/// fresh roll at one C more; one showing a parry, which cannot stop a shot, dodges now instead
/// (the seed, "Pre-rolling defence"). The odds ([`pass_on_chances`]) and the roll read the
/// same steps.
pub fn attack_steps(
    s: &State,
    guard: Option<u32>,
    members: &[u32],
    c: i32,
    ranged: bool,
    (undefended, blind): (bool, bool),
) -> Vec<Step> {
    let step = |who, shown, roll| Step {
        who,
        shown,
        roll,
        fresh: None,
    };
    let mut out: Vec<Step> = guard
        .map(|g| {
            let mut st = step(g, shown(s, g), Some(c));
            if ranged {
                st.fresh = dodge_shot(s, &mut st);
            }
            st
        })
        .into_iter()
        .collect();
    if guard.is_some() && !ranged {
        return out;
    }
    out.extend(members.iter().zip(0..).map(|(&x, i)| {
        let mut st = step(
            x,
            if undefended && i == 0 {
                Shown::None
            } else {
                shown(s, x)
            },
            (i > 0 || guard.is_none()).then_some(c + i),
        );
        let now = |(kind, d): (Defence, Setup)| Fresh {
            kind,
            c: d.c.value,
            p: d.p.value,
            fatigue: d.fatigue,
        };
        st.fresh = if i == 0 && blind && !undefended {
            blind_defence(s, x, ranged).ok().map(now)
        } else if ranged {
            dodge_shot(s, &mut st)
        } else {
            None
        };
        st
    }));
    out
}

/// One showing a parry, which cannot stop a shot, dodges it now instead (keeping its parry
/// for the next blow): the dodge's setup, or none when it cannot dodge (then nothing stands).
fn dodge_shot(s: &State, st: &mut Step) -> Option<Fresh> {
    let Shown::Ready {
        kind: Defence::Parry,
        ..
    } = st.shown
    else {
        return None;
    };
    let d = defence_setup(s, st.who, Defence::Dodge).ok();
    if d.is_none() {
        st.shown = Shown::None;
    }
    d.map(|d| Fresh {
        kind: Defence::Dodge,
        c: d.c.value,
        p: d.p.value,
        fatigue: d.fatigue,
    })
}

/// The defence `target` rolls against an attack from its blind spot ([`blind_spot_setup`]);
/// against a shot, a shown parry (which cannot stop it) is a dodge rolled at −5 C instead.
pub fn blind_defence(s: &State, target: u32, ranged: bool) -> Result<(Defence, Setup), String> {
    let (kind, st) = blind_spot_setup(s, target)?;
    if !(ranged && kind == Defence::Parry) {
        return Ok((kind, st));
    }
    let mut d = defence_setup(s, target, Defence::Dodge)?;
    d.c.add(-5, "blind spot");
    Ok((Defence::Dodge, d))
}

/// Whether a shot that missed `shown` was dodged, and so goes on.
pub fn dodged(out: Outcome, shown: Shown) -> bool {
    out == Outcome::Miss
        && matches!(
            shown,
            Shown::Ready {
                kind: Defence::Dodge,
                ..
            }
        )
}

/// An attack that may pass from one defender on to the next, exactly. `steps` in order: the
/// shown defence each one meets, the C of a fresh roll there (`None`: the same roll goes on,
/// as a shot a guard dodged goes on to the one it guarded), and a defence rolled there now
/// instead of the shown one. A dodge that holds sends the attack on; a block, a miss on
/// anything else, a hit or a roll failed on fatigue ends it. The chance it hits each step.
pub fn pass_on_chances(
    p: i32,
    fatigue: i32,
    steps: &[(Shown, Option<i32>, Option<Fresh>)],
) -> Vec<Chance> {
    let mut reach: Vec<(i64, f64)> = Vec::new();
    // Whether some outcome ended the attack before the step (so hitting it is not certain).
    let mut ended_before = false;
    let mut out = Vec::with_capacity(steps.len());
    let (p, f) = (i64::from(p), i64::from(fatigue));
    for (i, &(shown, roll, fresh)) in steps.iter().enumerate() {
        // The first step always rolls; a later one rolls anew with the mass that reached it.
        let roll = if i == 0 {
            Some(roll.unwrap_or(0))
        } else {
            roll
        };
        // Nothing reaches a step the attack can never get to: no roll is made there.
        if let Some(c) = roll.filter(|_| i == 0 || !reach.is_empty()) {
            let total: f64 = if i == 0 {
                1.0
            } else {
                reach.iter().map(|x| x.1).sum()
            };
            reach = dice_distribution(c)
                .iter()
                .filter(|x| x.1 > 0.0)
                .map(|(v, q)| (v, q * total))
                .collect();
        }
        // For each attack dice part: the chance the defence stands against it (and so the
        // attack misses), and whether it is a dodge that sends the attack on.
        let stands: Box<dyn Fn(i64) -> f64> = match fresh {
            Some(d) => {
                let def = dice_distribution(d.c);
                let (dp, df) = (i64::from(d.p), i64::from(d.fatigue));
                Box::new(move |v| {
                    def.iter()
                        .filter(|&(y, _)| y >= df && y + dp >= v + p)
                        .map(|x| x.1)
                        .sum()
                })
            }
            None => {
                let need = need(p as i32, fatigue, standing(shown));
                Box::new(move |v| if v >= need { 0.0 } else { 1.0 })
            }
        };
        let dodge = match (fresh, shown) {
            (Some(d), _) => d.kind == Defence::Dodge,
            (None, Shown::Ready { kind, fails, .. }) => kind == Defence::Dodge && !fails,
            _ => false,
        };
        let (mut hit, mut hit_possible, mut miss_possible) = (0.0, false, ended_before);
        let mut next = Vec::new();
        for &(v, q) in &reach {
            let held = if v < f { 1.0 } else { stands(v) };
            if held < 1.0 {
                hit += q * (1.0 - held);
                hit_possible = true;
            }
            if held > 0.0 {
                miss_possible = true;
                if dodge && v >= f {
                    next.push((v, q * held));
                }
            }
        }
        out.push(Chance::from_masses(
            hit,
            (1.0 - hit).max(0.0),
            hit_possible,
            miss_possible,
        ));
        let before: f64 = reach.iter().map(|x| x.1).sum();
        let after: f64 = next.iter().map(|x| x.1).sum();
        ended_before |= after < before || next.len() < reach.len();
        reach = next;
    }
    out
}

/// The dice part needed to beat `defence` (or only to stand against fatigue).
fn need(p: i32, fatigue: i32, defence: Option<i32>) -> i64 {
    let f = i64::from(fatigue);
    defence.map_or(f, |d| f.max(i64::from(d) - i64::from(p) + 1))
}

/// The exact chance that an attack (C, P, the attacker's fatigue) beats `defence`: its dice
/// part at least the fatigue and its result above the defence (`None`: nothing stands).
pub fn hit_chance(c: i32, p: i32, fatigue: i32, defence: Option<i32>) -> Chance {
    dice_distribution(c).at_least(need(p, fatigue, defence))
}

/// The exact chances of a brawl attack: a full hit, a hit too weak to do damage (the result is
/// the defence or one less), and a miss.
pub fn brawl_chances(c: i32, p: i32, fatigue: i32, defence: Option<i32>) -> (Chance, Chance) {
    let d = dice_distribution(c);
    let full = d.at_least(need(p, fatigue, defence));
    let weak = defence.map_or(Chance::Impossible, |def| {
        let lo = i64::from(fatigue).max(i64::from(def) - 1 - i64::from(p));
        within(&d, lo, i64::from(def) - i64::from(p))
    });
    (full, weak)
}

/// The exact chance that a dice part falls in `lo..=hi` (structurally 0 or 1 at the edges).
fn within(d: &Distribution, lo: i64, hi: i64) -> Chance {
    let (mut inside, mut outside, mut some_in, mut some_out) = (0.0, 0.0, false, false);
    for (v, q) in d.iter().filter(|x| x.1 > 0.0) {
        if (lo..=hi).contains(&v) {
            inside += q;
            some_in = true;
        } else {
            outside += q;
            some_out = true;
        }
    }
    Chance::from_masses(inside, outside, some_in, some_out)
}

/// A luck shot at a hidden target: the d10 must show 10 before the attack is rolled.
pub fn luck_shot(attack: Chance) -> Chance {
    Chance::ratio(1, 10).and(attack)
}

/// A ranged attack into a cluster: the exact chances of hitting the intended target and of
/// hitting someone else. `members` are the shown defences in initiative order from the target;
/// `c` is the first roll's C (the full cluster penalty), each re-roll has 1 more. A dodge
/// sends the attack on; a block stops it; a roll failed on fatigue ends it.
pub fn cluster_chances(c: i32, p: i32, fatigue: i32, members: &[Shown]) -> (Chance, Chance) {
    let steps: Vec<(Shown, Option<i32>, Option<Fresh>)> = (0..)
        .zip(members)
        .map(|(i, &m)| (m, Some(c + i), None))
        .collect();
    let each = pass_on_chances(p, fatigue, &steps);
    let target = each.first().copied().unwrap_or(Chance::Impossible);
    (target, anyone(each.get(1..).unwrap_or_default()))
}

/// The chance of hitting any one of `hits` (they exclude each other: one attack, one hit).
pub fn anyone(hits: &[Chance]) -> Chance {
    if hits.iter().all(|x| x.is_impossible()) {
        return Chance::Impossible;
    }
    let sum: f64 = hits.iter().map(|x| x.p()).sum();
    Chance::between(sum, (1.0 - sum).max(0.0))
}

/// How an attack went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The dice part was below the attacker's fatigue: no defence needed.
    Fails,
    Miss,
    /// A brawl attack equal to the defence or one less: a hit without HP damage.
    Weak,
    Hit,
}

/// One attack, rolled: what it did, the log line and every event it causes (the defence
/// used, fatigue on both sides, damage, injuries, a grab).
pub fn resolve_attack(
    s: &State,
    who: u32,
    target: u32,
    o: &Options,
    r: &ChallengeRoll,
) -> (Outcome, Event) {
    let (Some(a), Some(t)) = (s.get(who), s.get(target)) else {
        return (Outcome::Miss, Event::Batch(Vec::new()));
    };
    let part = o.part.unwrap_or_else(|| Part::from_d6(r.d6));
    let shown_now = shown(s, target);
    let sh = match (o.undefended, o.redone) {
        (true, _) => Shown::None,
        (false, Some(d)) => Shown::Ready {
            kind: d.kind,
            value: d.result,
            fails: d.dice < t.stat(FATIGUE),
        },
        _ => shown_now,
    };
    let def = standing(sh);
    let outcome = if r.dice < a.stat(FATIGUE) {
        Outcome::Fails
    } else if def.is_none_or(|d| r.result > d) {
        Outcome::Hit
    } else if o.kind.brawl() && def.is_some_and(|d| r.result >= d - 1) {
        Outcome::Weak
    } else {
        Outcome::Miss
    };
    let mut list = Vec::new();
    let def_text = match sh {
        Shown::Ready { kind, value, fails } => format!(
            "{} {value}{}",
            kind.name().to_lowercase(),
            if fails { " (fails on fatigue)" } else { "" }
        ),
        Shown::None if o.undefended => "takes it undefended".into(),
        Shown::None => "no defence".into(),
    };
    let def_text = match o.redone {
        Some(_) if o.undefended => def_text,
        Some(_) if o.blind_spot => format!("{def_text}, rolled now at −5 C: from its blind spot"),
        Some(_) => format!("{def_text}, rolled now: a parry cannot stop a shot"),
        None => def_text,
    };
    let what = match outcome {
        Outcome::Fails => "fails on fatigue, no defence needed".to_owned(),
        Outcome::Miss => format!("misses ({def_text})"),
        Outcome::Weak => format!("touches but does no harm ({def_text})"),
        Outcome::Hit => format!("hits the {} ({def_text})", part.name()),
    };
    list.push(Event::Note(format!(
        "{} attacks {}: {} · {what}",
        a.name,
        t.name,
        describe(r)
    )));
    if !o.follow_up {
        list.extend(fatigue_events(a, r.d6));
    }
    if outcome != Outcome::Fails {
        // The defence was used: counted, checked for fatigue, to be rolled anew.
        if let Shown::Ready { kind, .. } = sh {
            list.push(Event::Spend(target, kind.pool(), 1));
            let d6 = o.redone.map_or(t.stat(DEF_D6), |d| d.d6 as i32);
            list.extend(fatigue_events(t, d6.max(1) as u32));
            // The shown one is used up, unless a dodge was rolled beside a parry it keeps.
            let kept = o.redone.is_some_and(|d| d.kind as i32 != t.stat(DEF_KIND));
            if !kept {
                list.push(Event::Set(target, DEF_KIND, 0));
            }
            // The blind-spot module: defending against a shot from another square leaves
            // the squares behind open until the defender's next turn.
            let shot = !o.kind.brawl() && wielded(a, o.kind).range > 0 && o.distance > 0;
            if shot && !s.has(target, "Blind spot") {
                list.push(Event::Add(
                    target,
                    "Blind spot".into(),
                    Duration::Start { who: target, n: 1 },
                ));
            }
        }
    }
    // Being attacked interrupts an upcoming action, even by a blow that fails on the
    // attacker's fatigue (the seed, "Upcoming").
    if let Some(cid) = s
        .conditions_of(target)
        .find(|x| x.name == "Upcoming")
        .map(|x| x.cid)
    {
        list.push(Event::Remove(cid));
    }
    // A melee weapon attack dodged: the dodger got past the weapon and may brawl it.
    let melee = !o.kind.brawl() && wielded(a, o.kind).range == 0;
    if melee && dodged(outcome, sh) {
        list.push(Event::Set(who, PASSED_BY, target as i32 + 1));
    }
    if outcome == Outcome::Hit {
        // Hitting the one that holds it frees it; a sleeper wakes.
        if a_grab(s, target) == Some(who) {
            list.extend(release(s, target));
        }
        list.extend(ending(s, target, "Sleeping"));
        match o.kind {
            Kind::BrawlBind => list.extend(grab_events(s, who, target, part)),
            _ => {
                let dmg = if o.kind == Kind::BrawlHit {
                    1
                } else {
                    wielded(a, o.kind).damage
                };
                list.extend(hurt(s, target, dmg, Some(part)));
            }
        }
        if s.has(target, "Climbing") {
            list.push(Event::Note(format!(
                "{} is hit while climbing: a C 1 climb roll to hold on",
                t.name
            )));
        }
    }
    (outcome, Event::Batch(list))
}

/// Removing `who`'s conditions called `name`.
pub fn ending<'a>(s: &'a State, who: u32, name: &'a str) -> impl Iterator<Item = Event> + 'a {
    s.conditions_of(who)
        .filter(move |a| a.name == name)
        .map(|a| Event::Remove(a.cid))
}

/// The one `who` holds with a brawl bind, if it holds one.
pub fn a_grab(s: &State, who: u32) -> Option<u32> {
    let c = s.get(who)?;
    (s.has(who, "Grabbing") && c.stat(GRABBING) > 0).then(|| c.stat(GRABBING) as u32 - 1)
}

/// The bind a grab puts on the body part it hit.
pub fn grab_bind(part: Part) -> &'static str {
    match part {
        Part::LeftLeg | Part::RightLeg => "Bound leg",
        Part::OtherArm | Part::SwordArm => "Bound arm",
        Part::Torso => "Bound body",
    }
}

/// A brawl bind holds: the grabber holds `target` by the part it hit (so it makes no defence
/// rolls itself, `no_defence`), until it lets go ([`release`]), is hit by the one it holds or
/// suffers an effect. One bind at a time: an earlier one is let go.
pub fn grab_events(s: &State, who: u32, target: u32, part: Part) -> Vec<Event> {
    let mut list = release(s, who);
    list.push(Event::Note(format!(
        "{} grabs {} by the {}: no defence rolls while it holds on",
        s.name(who),
        s.name(target),
        part.name()
    )));
    list.push(Event::Add(
        target,
        grab_bind(part).into(),
        Duration::Removed,
    ));
    list.push(Event::Add(who, "Grabbing".into(), Duration::Removed));
    list.push(Event::Set(who, GRABBING, target as i32 + 1));
    list
}

/// `who` lets go of the one it holds (nothing when it holds no one).
pub fn release(s: &State, who: u32) -> Vec<Event> {
    let Some(held) = a_grab(s, who) else {
        return Vec::new();
    };
    let mut list = vec![Event::Note(format!(
        "{} lets go of {}",
        s.name(who),
        s.name(held)
    ))];
    let binds = ["Bound arm", "Bound leg", "Bound body"];
    list.extend(
        s.conditions_of(held)
            .filter(|x| binds.contains(&x.name.as_str()) && x.dur == Duration::Removed)
            .map(|x| Event::Remove(x.cid)),
    );
    list.extend(ending(s, who, "Grabbing"));
    list.push(Event::Set(who, GRABBING, 0));
    list
}

/// Damage and the injuries it brings: a new injury level starts its clock, a hit body part
/// adds its effect while injured.
pub fn hurt(s: &State, who: u32, dmg: i32, part: Option<Part>) -> Vec<Event> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    let after = c.hp.saturating_sub(dmg.max(0));
    let mut list = vec![Event::Damage(vec![who], dmg)];
    list.extend(injury_events(s, who, c.hp, after, part));
    list
}

/// The conditions an injury brings when HP go from `before` to `after`.
pub fn injury_events(
    s: &State,
    who: u32,
    before: i32,
    after: i32,
    part: Option<Part>,
) -> Vec<Event> {
    let (was, now) = (Injury::from_hp(before).level, Injury::from_hp(after).level);
    let mut list = Vec::new();
    if now != InjuryLevel::Uninjured {
        if let Some(part) = part.filter(|p| !s.has(who, p.injury())) {
            list.push(Event::Add(who, part.injury().into(), Duration::Removed));
        }
    }
    let clock = |n| Duration::Round { n };
    if now == InjuryLevel::Mangled && was < InjuryLevel::Mangled {
        list.push(Event::Add(who, "Fading".into(), clock(ROUNDS_5_MIN)));
        list.push(Event::Add(who, "Bleeding out".into(), clock(ROUNDS_10_MIN)));
    }
    if now == InjuryLevel::Mutilated && was < InjuryLevel::Mutilated {
        list.extend(
            s.conditions_of(who)
                .filter(|a| a.name == "Fading" || a.name == "Bleeding out")
                .map(|a| Event::Remove(a.cid)),
        );
        if !s.has(who, "Unconscious") {
            list.push(Event::Add(who, "Unconscious".into(), Duration::Removed));
        }
        list.push(Event::Add(who, "Bleeding out".into(), clock(ROUNDS_2_MIN)));
    }
    list
}

/// What a change of HP brings, whichever way it came (the Damage and Heal buttons; attacks and
/// falls add the body part through [`hurt`]): damage brings the injury level's conditions,
/// healing ends them ([`healed_events`]). `s` is the fight after the change.
pub fn hp_changed(s: &State, who: u32, before: i32, after: i32) -> Vec<Event> {
    if after < before {
        injury_events(s, who, before, after, None)
    } else {
        healed_events(s, who, before, after)
    }
}

/// What healing ends. Back to 1 HP or more the character is no longer injured: the body-part
/// effects (they last while injured), the dying clocks and the unconsciousness end. Back to
/// bloodied (0 or −1) from mangled or mutilated: bloodied does not kill, so the clocks end and
/// the character wakes; the body-part effects stay while it is injured. Healing that leaves it
/// mangled or mutilated ends nothing: only stabilising stops the clock (the seed, "Injuries").
pub fn healed_events(s: &State, who: u32, before: i32, after: i32) -> Vec<Event> {
    let (was, now) = (Injury::from_hp(before).level, Injury::from_hp(after).level);
    if now >= was || now >= InjuryLevel::Mangled {
        return Vec::new();
    }
    let mut names = vec!["Fading", "Bleeding out", "Unconscious"];
    let note = if now == InjuryLevel::Uninjured {
        names.extend(Part::ALL.iter().map(|p| p.injury()));
        "no longer injured: its injury effects and dying end"
    } else {
        "only bloodied now: no longer dying"
    };
    let ends: Vec<Event> = s
        .conditions_of(who)
        .filter(|a| a.parent.is_none() && names.contains(&a.name.as_str()))
        .map(|a| Event::Remove(a.cid))
        .collect();
    if ends.is_empty() {
        return ends;
    }
    std::iter::once(Event::Note(format!("{} is {note}", s.name(who))))
        .chain(ends)
        .collect()
}

/// A stabilised character stops dying and wakes.
pub fn stabilise(s: &State, who: u32) -> Event {
    let mut list = vec![Event::Note(format!("{} is stabilised", s.name(who)))];
    list.extend(
        s.conditions_of(who)
            .filter(|a| a.parent.is_none())
            .filter(|a| ["Fading", "Bleeding out", "Unconscious"].contains(&a.name.as_str()))
            .map(|a| Event::Remove(a.cid)),
    );
    Event::Batch(list)
}

/// A stabilised injury reopens when the injured part is moved: its clocks start again from
/// zero, as at the injury (the seed, "Injuries"). Only a mangled or mutilated character that
/// is not dying has one to reopen.
pub fn reopen_events(s: &State, who: u32) -> Result<Event, String> {
    let c = s.get(who).ok_or("not in the fight")?;
    if dying(s, who) {
        return Err("its injury is open: the clock runs".into());
    }
    let level = Injury::from_hp(c.hp).level;
    if level < InjuryLevel::Mangled {
        return Err("no injury that kills: only mangled or mutilated ones reopen".into());
    }
    let mut list = vec![Event::Note(format!(
        "{} moves the injured part: the injury reopens, its clock from zero",
        c.name
    ))];
    list.extend(injury_events(s, who, 1, c.hp, None));
    Ok(Event::Batch(list))
}

/// Whether `who` is dying: a clock runs.
pub fn dying(s: &State, who: u32) -> bool {
    s.has(who, "Bleeding out")
}

/// Fatigue after a physical roll whose d6 shows `d6`: up by one when the d6 is below it, at
/// most once between the combatant's turns, never above 20.
pub fn fatigue_events(c: &Combatant, d6: u32) -> Vec<Event> {
    let f = c.stat(FATIGUE);
    if may_rise(c) && (d6 as i32) < f && f < FATIGUE_MAX {
        vec![
            Event::Note(format!("{}: fatigue {} → {}", c.name, f, f + 1)),
            Event::Set(c.id, FATIGUE, f + 1),
            Event::Spend(c.id, RISE, 1),
        ]
    } else {
        Vec::new()
    }
}

/// The exact chance that a physical roll raises fatigue now (0 when it already rose since
/// the combatant's last turn).
pub fn fatigue_rise_now(c: &Combatant) -> Chance {
    super::challenge::rise_chance(c.stat(FATIGUE), may_rise(c))
}

/// Whether `c`'s fatigue may still rise before its next turn: its "Fatigue rise" is left.
fn may_rise(c: &Combatant) -> bool {
    c.pools.get(RISE).is_some_and(|&n| n > 0)
}

/// A fight that has started and not ended.
fn running(s: &State) -> bool {
    s.round > 0 && !s.ended
}

/// The fight's side of a fatigue the linked sheet changed to `v` (a Play roll, a breather, a
/// number typed): in a running fight a rise is the turn's one rise, taken with the rise spent
/// while it is left and refused once it is spent (the sheet then takes the fight's value back);
/// a fall, or any change before the fight starts, is set as it is.
pub fn sheet_fatigue_events(s: &State, c: &Combatant, v: i32) -> Vec<Event> {
    let (f, v) = (c.stat(FATIGUE), v.clamp(1, FATIGUE_MAX));
    if v == f {
        Vec::new()
    } else if v < f || !running(s) {
        vec![Event::Set(c.id, FATIGUE, v)]
    } else if may_rise(c) {
        vec![Event::Set(c.id, FATIGUE, v), Event::Spend(c.id, RISE, 1)]
    } else {
        Vec::new()
    }
}

/// Whether the character stored as `link` may have its fatigue rise now as fight `s` sees it:
/// not while it is in it, the fight running, and its rise for this turn spent.
pub fn linked_may_rise(s: &State, link: &str) -> bool {
    !running(s)
        || s.combatants
            .iter()
            .filter(|c| !c.gone && c.link.as_deref() == Some(link))
            .all(may_rise)
}

/// Effects called on a combatant, each with a number (seconds, or points for hit and drain).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Hit,
    Drain,
    Fall,
    Drop,
    Stumble,
    Daze,
    Bind(usize),
    Weaken,
}

/// Bind locations and their conditions.
pub const BINDS: [(&str, &str); 5] = [
    ("hands", "Bound hands"),
    ("arm", "Bound arm"),
    ("feet", "Bound feet"),
    ("leg", "Bound leg"),
    ("body", "Bound body"),
];

impl Effect {
    pub const ALL: [Effect; 8] = [
        Effect::Hit,
        Effect::Drain,
        Effect::Fall,
        Effect::Drop,
        Effect::Stumble,
        Effect::Daze,
        Effect::Bind(0),
        Effect::Weaken,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Effect::Hit => "Hit",
            Effect::Drain => "Drain",
            Effect::Fall => "Fall",
            Effect::Drop => "Drop",
            Effect::Stumble => "Stumble",
            Effect::Daze => "Daze",
            Effect::Bind(_) => "Bind",
            Effect::Weaken => "Weaken",
        }
    }

    /// Its number when none is called: 1 point for hit and drain, 2 seconds otherwise.
    pub fn default_number(self) -> i32 {
        match self {
            Effect::Hit | Effect::Drain => 1,
            _ => 2,
        }
    }

    /// The number a panel offers when effect `pick` (an index of [`Effect::ALL`]) is chosen:
    /// that effect's default, whatever number an earlier pick had.
    pub fn default_at(pick: i32) -> i32 {
        Effect::ALL[pick.clamp(0, Effect::ALL.len() as i32 - 1) as usize].default_number()
    }
}

/// Turns an effect of `seconds` lasts: half, rounded down.
pub fn turns_of(seconds: i32) -> u32 {
    (seconds.max(0) / 2) as u32
}

/// What an effect with number `n` does to `who`: damage, lost willpower, or conditions that
/// end by themselves after ⌊n/2⌋ of its turns. An odd daze also keeps it from defending until
/// the start of the turn in which the daze ends. Any effect cancels an upcoming action.
pub fn effect_events(s: &State, who: u32, e: Effect, n: i32) -> Event {
    let Some(c) = s.get(who) else {
        return Event::Batch(Vec::new());
    };
    let n = n.clamp(0, 1000);
    let k = turns_of(n);
    let mut list = vec![Event::Note(format!("{} suffers {} {n}", c.name, e.name()))];
    let lasting = |name: &str, list: &mut Vec<Event>| {
        if k > 0 {
            list.push(Event::Add(who, name.into(), Duration::End { who, n: k }));
        } else {
            list.push(Event::Note(format!("{name} passes within the turn")));
        }
    };
    match e {
        Effect::Hit => list.extend(hurt(s, who, n, None)),
        Effect::Drain => {
            let will = c.stat(WILL);
            list.push(Event::Note(format!(
                "{}: willpower {} → {}",
                c.name,
                will,
                (will - n).max(0)
            )));
            list.push(Event::Set(who, WILL, (will - n).max(0)));
        }
        Effect::Fall => lasting("Fallen", &mut list),
        Effect::Drop => lasting("Dropped", &mut list),
        Effect::Stumble => lasting("Stumbling", &mut list),
        Effect::Daze => {
            lasting("Dazed", &mut list);
            if n % 2 == 1 {
                list.push(Event::Add(
                    who,
                    "No defence".into(),
                    Duration::Start { who, n: k + 1 },
                ));
            }
        }
        Effect::Bind(i) => lasting(BINDS[i.min(4)].1, &mut list),
        Effect::Weaken => lasting("Weakened", &mut list),
    }
    list.extend(ending(s, who, "Upcoming"));
    // An effect on a grabber breaks its hold.
    list.extend(release(s, who));
    if s.has(who, "Climbing") {
        list.push(Event::Note(format!(
            "{}: a C 1 climb roll to hold on",
            c.name
        )));
    }
    Event::Batch(list)
}

/// Action types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionType {
    Standard,
    Free,
    Ongoing,
    Upcoming,
}

impl ActionType {
    pub fn name(self) -> &'static str {
        match self {
            ActionType::Standard => "standard",
            ActionType::Free => "free",
            ActionType::Ongoing => "ongoing: ends the turn, −2 C on defences",
            ActionType::Upcoming => "upcoming: ends the turn, goes on next turn",
        }
    }
}

/// The index of Guard in [`ACTIONS`] (it needs whom: [`guard_events`]).
pub const GUARD_ACTION: usize = 3;

/// What keeps `who` from acting at all, if anything (the seed, "Effects" and "Positions").
pub fn no_actions(s: &State, who: u32) -> Option<&'static str> {
    ["Dazed", "Unconscious", "Helpless"]
        .into_iter()
        .find(|n| s.has(who, n))
}

/// Actions that may be done along with a move, one a turn (the seed, "Draw a weapon").
const WITH_MOVE: [&str; 2] = ["Draw a weapon", "Put a weapon away"];
const GO_ON: &str = "Go on with the upcoming action";

/// The combat actions and their types.
pub const ACTIONS: [(&str, ActionType); 28] = [
    ("Weapon attack", ActionType::Standard),
    ("Brawl attack", ActionType::Standard),
    ("Charge", ActionType::Ongoing),
    ("Guard", ActionType::Free),
    ("Move", ActionType::Standard),
    ("Run", ActionType::Ongoing),
    ("Climb", ActionType::Ongoing),
    ("Jump down", ActionType::Free),
    ("Drop prone", ActionType::Free),
    ("Crawl", ActionType::Upcoming),
    ("Hide", ActionType::Free),
    ("Ready a dodge", ActionType::Standard),
    ("Ready an action", ActionType::Standard),
    ("Draw a weapon", ActionType::Standard),
    ("Put a weapon away", ActionType::Standard),
    ("Drop items", ActionType::Free),
    ("Get an item", ActionType::Ongoing),
    ("Hide an item", ActionType::Ongoing),
    ("Swap items", ActionType::Free),
    ("Take a breather", ActionType::Ongoing),
    ("Observation", ActionType::Free),
    ("Speak", ActionType::Free),
    ("Use a skill (standard)", ActionType::Standard),
    ("Use a skill (free)", ActionType::Free),
    ("Use a skill (ongoing)", ActionType::Ongoing),
    ("Use a skill (upcoming)", ActionType::Upcoming),
    (GO_ON, ActionType::Standard),
    ("Cancel the upcoming action", ActionType::Free),
];

/// The condition of one whose readied action went off ([`trigger_events`]): it takes that one
/// combat action (or an attack) now, in another's turn; it ends with that turn.
pub const TRIGGERED: &str = "Readied action now";

/// Whether `who`'s readied action is going off now, out of its own turn.
pub fn triggered(s: &State, who: u32) -> bool {
    s.current != Some(who) && s.has(who, TRIGGERED)
}

/// The actions a readied action cannot be (they belong to a turn of its own).
const NOT_READIED: [&str; 3] = ["Ready an action", GO_ON, "Cancel the upcoming action"];

/// Taking action `i` of [`ACTIONS`] on `who`'s own turn, or as its readied action once its
/// trigger happened (then it costs nothing more: readying took the standard action), or why
/// it cannot.
pub fn action_events(s: &State, who: u32, i: usize) -> Result<Event, String> {
    let c = s.get(who).ok_or("not in the fight")?;
    let (name, ty) = *ACTIONS.get(i).ok_or("no such action")?;
    let now = triggered(s, who);
    if s.current != Some(who) && !now {
        return Err("actions are taken on its own turn".into());
    }
    // Dazed, unconscious or helpless: no actions at all.
    if let Some(n) = no_actions(s, who) {
        return Err(format!("{n}: no actions"));
    }
    if now {
        return readied_action(s, who, name, ty);
    }
    if let Some(why) = bound_from(s, who, name) {
        return Err(why);
    }
    let used = |n: &str| c.used.iter().any(|u| u == n);
    if used(name) && ty == ActionType::Free {
        return Err(format!("{name} was already used this turn"));
    }
    // An upcoming action not interrupted goes on as this turn's standard action, unless
    // cancelled at its start (the seed, "Action types").
    let upcoming = s.conditions_of(who).find(|a| a.name == "Upcoming");
    let ours = upcoming.is_some_and(|a| matches!(a.dur, Duration::End { .. }));
    if name.ends_with("upcoming action") && !ours {
        return Err("no upcoming action goes on this turn".into());
    }
    let skill = name.starts_with("Use a skill");
    let mut standard = matches!(ty, ActionType::Standard | ActionType::Ongoing);
    if standard && ours && name != GO_ON && !skill {
        return Err("its upcoming action takes this turn's standard action: go on with it or cancel it first".into());
    }
    // A weapon drawn or put away along with a move shares its standard action, once a turn.
    let drew = WITH_MOVE.iter().any(|n| used(n));
    let together = match name {
        "Move" => drew && !used("Move"),
        n => WITH_MOVE.contains(&n) && used("Move") && !drew,
    };
    if together {
        standard = false;
    }
    if standard && c.pools.get(STANDARD).is_none_or(|&n| n <= 0) {
        return Err("its standard action is already used this turn".into());
    }
    let mut list = vec![Event::Use(who, name.into())];
    if standard {
        list.push(Event::Spend(who, STANDARD, 1));
    }
    if together {
        list.push(Event::Note(format!("{name} along with the move")));
    }
    // Using a skill interrupts one's own upcoming action; weakened, it costs 1 willpower more.
    if skill {
        list.extend(upcoming.map(|a| Event::Remove(a.cid)));
        if s.has(who, "Weakened") {
            let w = c.stat(WILL);
            list.push(Event::Note(format!(
                "{}: weakened, the skill costs 1 willpower more ({w} → {})",
                c.name,
                (w - 1).max(0)
            )));
            list.push(Event::Set(who, WILL, (w - 1).max(0)));
        }
    }
    if name.ends_with("upcoming action") {
        list.extend(upcoming.map(|a| Event::Remove(a.cid)));
    }
    let next_turn = Duration::Start { who, n: 1 };
    match name {
        "Drop prone" if !s.has(who, "Prone") => {
            list.push(Event::Add(who, "Prone".into(), Duration::Removed))
        }
        "Ready a dodge" => list.push(Event::Add(who, "Dodging".into(), next_turn)),
        "Ready an action" => list.push(Event::Add(who, "Readied".into(), next_turn)),
        "Take a breather" => {
            let (f, base) = (c.stat(FATIGUE), c.stat(BASE).max(1));
            let to = (f - 2).max(base).min(f);
            list.push(Event::Note(format!("{}: fatigue {f} → {to}", c.name)));
            list.push(Event::Set(who, FATIGUE, to));
        }
        _ => {}
    }
    match ty {
        ActionType::Ongoing => list.push(Event::Add(who, "Ongoing".into(), next_turn)),
        // It lasts through the next turn, whose standard action it takes ([`GO_ON`]).
        ActionType::Upcoming => list.push(Event::Add(
            who,
            "Upcoming".into(),
            Duration::End { who, n: 2 },
        )),
        _ => {}
    }
    // It ends the turn; a charge first makes its attack (the turn ends on Next).
    if matches!(ty, ActionType::Ongoing | ActionType::Upcoming) && name != "Charge" {
        list.push(Event::Next);
    }
    Ok(Event::Batch(list))
}

/// Why a bind stops movement `name`, if it does: bound feet allow only jumps and crawling, a
/// bound body no moving from its place at all.
fn bound_from(s: &State, who: u32, name: &str) -> Option<String> {
    let walks = ["Move", "Run", "Charge"].contains(&name);
    let moves = walks || ["Climb", "Jump down", "Crawl"].contains(&name);
    if moves && s.has(who, "Bound body") {
        return Some("bound body: it cannot move from its place".into());
    }
    (walks && s.has(who, "Bound feet"))
        .then(|| "bound feet: no walking or running, only jumping or crawling".into())
}

/// The readied action `name` taken now, in another's turn: what it does (a drop, a dodge
/// readied, an ongoing action's −2 until its next turn) but no standard action and no end of
/// the turn (the turn is another's). An attack action (weapon, brawl, charge) leaves the
/// readied action to its attack roll; any other action uses it up.
fn readied_action(s: &State, who: u32, name: &str, ty: ActionType) -> Result<Event, String> {
    if NOT_READIED.contains(&name) {
        return Err(format!("{name} cannot be a readied action"));
    }
    if let Some(why) = bound_from(s, who, name) {
        return Err(why);
    }
    let c = s.get(who).ok_or("not in the fight")?;
    let mut list = vec![
        Event::Note(format!(
            "{}’s readied action: {}",
            c.name,
            name.to_lowercase()
        )),
        Event::Use(who, name.into()),
    ];
    let next_turn = Duration::Start { who, n: 1 };
    match name {
        "Drop prone" if !s.has(who, "Prone") => {
            list.push(Event::Add(who, "Prone".into(), Duration::Removed))
        }
        "Ready a dodge" => list.push(Event::Add(who, "Dodging".into(), next_turn)),
        "Take a breather" => {
            let (f, base) = (c.stat(FATIGUE), c.stat(BASE).max(1));
            let to = (f - 2).max(base).min(f);
            list.push(Event::Note(format!("{}: fatigue {f} → {to}", c.name)));
            list.push(Event::Set(who, FATIGUE, to));
        }
        _ => {}
    }
    if ty == ActionType::Ongoing {
        list.push(Event::Add(who, "Ongoing".into(), next_turn));
    }
    if !["Weapon attack", "Brawl attack", "Charge"].contains(&name) {
        list.extend(ending(s, who, TRIGGERED));
    }
    Ok(Event::Batch(list))
}

/// A readied action goes off: `who` moves to just before the one whose turn it is, and takes
/// its readied action now ([`TRIGGERED`], until that turn ends).
pub fn trigger_events(s: &State, who: u32) -> Result<Event, String> {
    let ready = s
        .conditions_of(who)
        .find(|a| a.name == "Readied")
        .ok_or("nothing readied")?;
    if let Some(n) = no_actions(s, who) {
        return Err(format!("{n}: no actions"));
    }
    let cur = s
        .current
        .filter(|&c| c != who)
        .ok_or("it triggers on someone else's turn")?;
    Ok(Event::Batch(vec![
        Event::Note(format!(
            "{}’s readied action goes off on {}’s turn",
            s.name(who),
            s.name(cur)
        )),
        Event::Remove(ready.cid),
        Event::Place(who, Some(cur)),
        Event::Add(who, TRIGGERED.into(), Duration::End { who: cur, n: 1 }),
    ]))
}

/// The challenge requirement of landing from height `h`: 2h when jumping, 2 + 2h when falling
/// (no roll below a height of 2).
pub fn fall_cr(h: i32, jumped: bool) -> Option<i32> {
    (h >= 2).then(|| if jumped { 2 * h } else { 2 + 2 * h })
}

/// A failed landing: HP down to 3 − h (never up), a leg injured, and the torso when it comes to
/// −4 or less.
pub fn fall_events(s: &State, who: u32, h: i32) -> Vec<Event> {
    let Some(c) = s.get(who) else {
        return Vec::new();
    };
    let to = (3 - h).min(c.hp);
    let mut list = vec![Event::Damage(vec![who], c.hp - to)];
    list.extend(injury_events(s, who, c.hp, to, Some(Part::LeftLeg)));
    if to <= -4 && !s.has(who, "Injured torso") {
        list.push(Event::Add(who, "Injured torso".into(), Duration::Removed));
    }
    list
}

#[cfg(test)]
#[path = "combat_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "review_tests.rs"]
mod review_tests;
