//! Symbaroum-style combat on the encounter engine: combatants from sheets, attacks between two
//! combatants with exact chances, surprise, reach, and what a hit over the pain threshold offers.

use super::rolls::{damage_distribution, success_chance, Blind};
use super::sheet::{SAttr, Shield, SymbaroumSheet, WeaponQuality};
use crate::rules::dice::{parse, roll, Chance, DiceSource, Distribution};
use crate::rules::encounter::{systems::SYMBAROUM, Combatant, Duration, Event, State};

/// Indexes of [`SYMBAROUM`]'s stats.
pub const ACCURATE: usize = 0;
pub const DEFENSE: usize = 1;
pub const QUICK: usize = 2;
pub const VIGILANT: usize = 3;
pub const DISCREET: usize = 4;
pub const PAIN: usize = 5;
pub const LONG: usize = 6;
/// A shield: 1 held (+1 Defense), −1 carried but put away (for a Heavy or ranged weapon), 0
/// none or a buckler.
pub const SHIELD: usize = 7;
/// A hit over a pain threshold waiting for its choice (knocked down or a free attack), kept on
/// the one who chooses: the damage, who takes it, who dealt it (ids; 0 when none waits).
pub const PAIN_DAMAGE: usize = 8;
pub const PAIN_TARGET: usize = 9;
pub const PAIN_BY: usize = 10;
/// The toughness maximum as the saved sheet now has it (its Strong raised or lowered
/// mid-fight); 0 for a quick NPC: the maximum it joined with.
pub const TOUGHNESS_MAX: usize = 11;
/// The weapon in hand: its index in [`weapons`] (the first when it joins), −1 while none is
/// drawn (surprised at the start).
pub const IN_HAND: usize = 12;
/// 1 once its Long weapon's one free attack (its reach in the first turn of melee) is taken.
pub const REACH_TAKEN: usize = 13;
/// Indexes of the texts: the weapon's damage and the armor's protection, in dice notation.
pub const WEAPON: usize = 0;
pub const ARMOR: usize = 1;
/// From this index on, a saved character's weapons: (name, damage, attack attribute with its
/// value as "Accurate 13", "long" or "") each.
pub const T_WEAPONS: usize = 2;
/// The most weapons a combatant carries into a fight.
pub const WEAPON_LIMIT: usize = 15;

/// A weapon a combatant can attack with, as the fight knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Armed {
    pub name: String,
    pub damage: String,
    /// The attack attribute and its value, for people ("Accurate 13").
    pub with: String,
    /// The attack attribute's value with it.
    pub attr: i32,
    /// Its qualities as the fight reads them ("long heavy"; a fight saved before knew "long").
    pub flags: String,
}

impl Armed {
    pub fn is(&self, q: WeaponQuality) -> bool {
        self.flags.contains(&q.name().to_lowercase())
    }
}

/// A weapon's qualities as a combatant carries them into a fight.
fn flags(qs: &[WeaponQuality]) -> String {
    let names: Vec<String> = qs.iter().map(|q| q.name().to_lowercase()).collect();
    names.join(" ")
}

/// The weapons `c` can attack with: a saved character's, as it joined (a quick NPC's one, with
/// its live Accurate); else its one weapon.
pub fn weapons(c: &Combatant) -> Vec<Armed> {
    let list: Vec<Armed> = c
        .texts
        .get(T_WEAPONS..)
        .unwrap_or_default()
        .chunks_exact(4)
        .map(|w| Armed {
            name: w[0].clone(),
            damage: w[1].clone(),
            with: w[2].clone(),
            attr: w[2]
                .rsplit(' ')
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or(c.stat(ACCURATE)),
            flags: w[3].clone(),
        })
        .collect();
    if list.is_empty() {
        vec![Armed {
            name: "Weapon".into(),
            damage: c.text(WEAPON).to_owned(),
            with: format!("Accurate {}", c.stat(ACCURATE)),
            attr: c.stat(ACCURATE),
            // Old quick NPCs and sheets without weapons: its one weapon, always ready.
            flags: if c.stat(LONG) != 0 {
                "long natural"
            } else {
                "natural"
            }
            .into(),
        }]
    } else {
        list
    }
}

/// `c` wielding its weapon `i`: the attack attribute, damage and reach the attack reads.
pub fn wielding(c: &Combatant, i: usize) -> Option<Combatant> {
    let w = weapons(c).into_iter().nth(i)?;
    let mut c = c.clone();
    c.stats[ACCURATE] = w.attr;
    c.stats[LONG] = i32::from(w.is(WeaponQuality::Long));
    if let Some(t) = c.texts.get_mut(WEAPON) {
        t.clone_from(&w.damage);
    }
    Some(c)
}

/// A combatant with the sheet's numbers (its first weapon), ordered by Quick then Vigilant.
pub fn combatant(name: &str, sheet: &SymbaroumSheet, pc: bool, link: Option<String>) -> Combatant {
    let weapon = sheet.weapons.first();
    let mut c = Combatant::new(&SYMBAROUM, name, sheet.toughness_max());
    c.hp = sheet.toughness.min(c.hp_max);
    c.pc = pc;
    c.link = link;
    c.death = sheet.death_steps;
    // An NPC kept at 0 by an older app (which let it be "dying") joins dead.
    c.dead = sheet.dead || (sheet.npc && sheet.toughness <= 0);
    c.stats = vec![
        weapon.map_or(sheet.attr(SAttr::Accurate), |w| sheet.attr(w.attr)),
        sheet.defense(),
        sheet.attr(SAttr::Quick),
        sheet.attr(SAttr::Vigilant),
        sheet.attr(SAttr::Discreet),
        sheet.pain_threshold(),
        i32::from(weapon.is_some_and(|w| w.qualities.contains(&WeaponQuality::Long))),
        // A shield takes a hand and cancels a Long weapon's reach; a buckler does not (seed 001,
        // "Shield").
        i32::from(sheet.shield == Shield::Shield),
    ];
    c.stats.resize(SYMBAROUM.stats.len(), 0);
    c.texts = vec![
        weapon.map_or_else(|| "1d4".into(), |w| w.damage.clone()),
        sheet.armor_protection.clone(),
    ];
    for w in sheet.weapons.iter().take(WEAPON_LIMIT) {
        c.texts.extend([
            w.name.clone(),
            w.damage.clone(),
            format!("{} {}", w.attr.name(), sheet.attr(w.attr)),
            flags(&w.qualities),
        ]);
    }
    c.init = initiative(&c);
    c
}

/// What a quick NPC's form asks for: every number its fight reads, the seed's defaults
/// first ([`Npc::default`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Npc {
    pub accurate: i32,
    pub defense: i32,
    pub quick: i32,
    pub vigilant: i32,
    pub discreet: i32,
    pub toughness: i32,
    /// ⌈Strong / 2⌉: 5 for a Strong of 10 (the toughness of 10 it gives).
    pub pain: i32,
    pub weapon: String,
    /// Its weapon's quality, if any ("" for none): Long, Short, Heavy or Ranged.
    pub quality: Option<WeaponQuality>,
    /// Claws, teeth, fists: always ready, never drawn.
    pub natural: bool,
    pub armor: String,
}

impl Default for Npc {
    fn default() -> Self {
        Npc {
            accurate: 10,
            defense: 10,
            quick: 10,
            vigilant: 10,
            discreet: 10,
            toughness: 10,
            pain: 5,
            weapon: "1d6".into(),
            quality: None,
            natural: false,
            armor: String::new(),
        }
    }
}

#[cfg(test)]
impl Npc {
    /// The form's values with these (the pain threshold half the toughness, rounded up).
    pub fn quick(acc: i32, def: i32, quick: i32, vig: i32, t: i32, w: &str, a: &str) -> Npc {
        Npc {
            accurate: acc,
            defense: def,
            quick,
            vigilant: vig,
            toughness: t,
            pain: (t.max(1) + 1) / 2,
            weapon: w.into(),
            armor: a.into(),
            ..Npc::default()
        }
    }
}

/// A quick NPC: only the numbers a fight needs, each as the GM gave it.
pub fn npc(name: &str, n: &Npc) -> Combatant {
    let mut c = Combatant::new(&SYMBAROUM, name, n.toughness.max(1));
    c.stats[ACCURATE] = n.accurate;
    c.stats[DEFENSE] = n.defense;
    c.stats[QUICK] = n.quick;
    c.stats[VIGILANT] = n.vigilant;
    c.stats[DISCREET] = n.discreet;
    c.stats[PAIN] = n.pain.max(0);
    c.stats[LONG] = i32::from(n.quality == Some(WeaponQuality::Long));
    let qs: Vec<WeaponQuality> = n.quality.into_iter().collect();
    let mut f = flags(&qs);
    if n.natural {
        f.push_str(" natural");
    }
    c.texts = vec![
        n.weapon.clone(),
        n.armor.clone(),
        "Weapon".into(),
        n.weapon.clone(),
        "Accurate".into(),
        f,
    ];
    c.init = initiative(&c);
    c
}

/// Initiative keys: Quick, then Vigilant.
pub fn initiative(c: &Combatant) -> Vec<i32> {
    vec![c.stat(QUICK), c.stat(VIGILANT)]
}

/// Who rolls: the player. A player character attacking rolls [Accurate←Defense]; a non-player
/// attacking a player character is answered by that player's [Defense←Accurate].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roller {
    Attacker,
    Defender,
}

/// An attack between two combatants, everything exact.
#[derive(Debug, Clone, PartialEq)]
pub struct Attack {
    pub roller: Roller,
    /// The number the rolling d20 must not exceed.
    pub target: i32,
    /// The blind situation from the roller's side.
    pub blind: Blind,
    /// The roller's chance to pass its test.
    pub pass: Chance,
    /// The chance the attack hits.
    pub hit: Chance,
    /// Damage after the target's armor, given a hit (`None` when the notation is unusable).
    pub damage: Option<Distribution>,
    /// Hit and damage over the target's pain threshold.
    pub over_pain: Chance,
    /// Hit and damage taking the target to 0.
    pub to_zero: Chance,
}

/// `attacker` attacks `target`. `advantage`: +2 to the test and +1d4 damage (prone or flanked
/// target, higher ground, unaware target). `attacker_blind` / `target_blind`: who cannot see.
pub fn attack(
    attacker: &Combatant,
    target: &Combatant,
    advantage: bool,
    attacker_blind: bool,
    target_blind: bool,
) -> Attack {
    let adv = if advantage { 2 } else { 0 };
    let roller = if !attacker.pc && target.pc {
        Roller::Defender
    } else {
        Roller::Attacker
    };
    let (test, blind_me, blind_enemy) = match roller {
        Roller::Attacker => (
            attacker.stat(ACCURATE) + 10 - target.stat(DEFENSE) + adv,
            attacker_blind,
            target_blind,
        ),
        Roller::Defender => (
            target.stat(DEFENSE) + 10 - attacker.stat(ACCURATE) - adv,
            target_blind,
            attacker_blind,
        ),
    };
    let blind = match (blind_me, blind_enemy) {
        (true, false) => Blind::Me,
        (false, true) => Blind::Enemy,
        _ => Blind::Neither,
    };
    let pass = success_chance(test, blind);
    let hit = match roller {
        Roller::Attacker => pass,
        Roller::Defender => pass.complement(),
    };
    let armor = parse(target.text(ARMOR)).ok();
    let damage = parse(attacker.text(WEAPON))
        .ok()
        .and_then(|w| damage_distribution(&w, advantage, armor.as_ref()).ok());
    let (over_pain, to_zero) = match &damage {
        Some(d) => (
            Chance::and(hit, d.at_least(i64::from(target.stat(PAIN)) + 1)),
            Chance::and(hit, d.at_least(i64::from(target.hp.max(1)))),
        ),
        None => (Chance::Impossible, Chance::Impossible),
    };
    Attack {
        roller,
        target: test,
        blind,
        pass,
        hit,
        damage,
        over_pain,
        to_zero,
    }
}

/// An attack rolled: its line for the log, whether it hit and the damage after armor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Struck {
    pub line: String,
    pub hit: bool,
    pub damage: i32,
}

/// Rolls `attacker`'s attack on `target` as [`attack`] gives its odds: the d20 (twice, keeping
/// the better or worse, when someone cannot see), the weapon's dice, the advantage d4 and the
/// armor's dice, each in the line.
pub fn strike<S: DiceSource + ?Sized>(
    attacker: &Combatant,
    target: &Combatant,
    advantage: bool,
    attacker_blind: bool,
    target_blind: bool,
    src: &mut S,
) -> Struck {
    let a = attack(attacker, target, advantage, attacker_blind, target_blind);
    let (an, bn) = (&attacker.name, &target.name);
    let (weapon, armor) = (attacker.text(WEAPON), target.text(ARMOR));
    let first = src.roll(20);
    let second = (a.blind != Blind::Neither).then(|| src.roll(20));
    let kept = match (a.blind, second) {
        (Blind::Me, Some(x)) => first.max(x),
        (Blind::Enemy, Some(x)) => first.min(x),
        _ => first,
    };
    let w = parse(weapon).map(|e| roll(&e, src).total).unwrap_or(0);
    let extra = if advantage { i64::from(src.roll(4)) } else { 0 };
    let soak = parse(armor).map(|e| roll(&e, src).total).unwrap_or(0);
    let damage = (w + extra - soak).clamp(0, i64::from(crate::rules::encounter::LIMIT)) as i32;
    let dice = match second {
        Some(x) => format!("d20 {first}, {x} → {kept}"),
        None => format!("d20 {first}"),
    };
    let plus = if advantage {
        format!(" + d4 {extra}")
    } else {
        String::new()
    };
    let detail = format!("{weapon} {w}{plus} − armor {soak} = {damage}");
    let pass = kept as i32 <= a.target;
    let hit = match a.roller {
        Roller::Attacker => pass,
        Roller::Defender => !pass,
    };
    let t = a.target;
    let line = match (a.roller, hit) {
        (Roller::Attacker, true) => {
            format!("{an} attacks {bn}: {dice} ≤ {t}, hit; damage {detail}")
        }
        (Roller::Attacker, false) => format!("{an} attacks {bn}: {dice} > {t}, miss"),
        (Roller::Defender, true) => {
            format!("{an} attacks {bn}: {bn} defends with {dice} > {t}, hit; damage {detail}")
        }
        (Roller::Defender, false) => {
            format!("{an} attacks {bn}: {bn} defends with {dice} ≤ {t}, parried")
        }
    };
    Struck { line, hit, damage }
}

/// Surprise: [Discreet←Vigilant]; for groups, the attackers' lowest Discreet against the
/// defenders' highest Vigilant. `None` when a side is empty.
pub fn surprise(attackers: &[&Combatant], defenders: &[&Combatant]) -> Option<(i32, Chance)> {
    let discreet = attackers.iter().map(|c| c.stat(DISCREET)).min()?;
    let vigilant = defenders.iter().map(|c| c.stat(VIGILANT)).max()?;
    let target = discreet + 10 - vigilant;
    Some((target, success_chance(target, Blind::Neither)))
}

/// The surprise roll of a fight: the players' side surprising (`pcs`) or the other, its target
/// and chance from the live combatants of each side; `None` when a side is empty.
pub fn surprise_in(s: &State, pcs: bool) -> Option<(i32, Chance)> {
    let live = |c: &&Combatant| !c.gone && !c.dead;
    let att: Vec<&Combatant> = s
        .combatants
        .iter()
        .filter(live)
        .filter(|c| c.pc == pcs)
        .collect();
    let def: Vec<&Combatant> = s
        .combatants
        .iter()
        .filter(live)
        .filter(|c| c.pc != pcs)
        .collect();
    surprise(&att, &def)
}

/// How the surprise roll's line begins (how the fight knows it was rolled).
const SURPRISE_LINE: &str = "Surprise: d20 ";

/// Why the surprise cannot be rolled now (`None`: it can): once a fight, at its start, before
/// the first turn has ended (seed 001: "at the start of combat"), with both sides there.
pub fn surprise_refused(s: &State, pcs: bool) -> Option<String> {
    if s.ended {
        return Some("the fight is over".into());
    }
    if s.round > 1 || (s.round == 1 && s.had_turn.len() > 1) {
        return Some("a surprise comes at the start: the first turn has ended".into());
    }
    if s.log.iter().any(|l| l.text.starts_with(SURPRISE_LINE)) {
        return Some("the surprise has been rolled in this fight".into());
    }
    surprise_in(s, pcs)
        .is_none()
        .then(|| "both sides need combatants".into())
}

/// The surprise roll as one step: its line, and on success every live combatant of the
/// surprised side Surprised for a round (the surprisers' free attacks at the start); refused
/// as [`surprise_refused`] says.
pub fn surprise_events(s: &State, pcs: bool, d20: u32) -> Result<Event, String> {
    if let Some(why) = surprise_refused(s, pcs) {
        return Err(why);
    }
    let (target, _) = surprise_in(s, pcs).ok_or("both sides need combatants")?;
    let ok = d20 as i32 <= target;
    let mut out = vec![Event::Note(format!(
        "{SURPRISE_LINE}{d20} {} {target}, {}",
        if ok { "≤" } else { ">" },
        if ok {
            "each surpriser gets a free attack at the start"
        } else {
            "noticed in time"
        }
    ))];
    if ok {
        out.extend(
            s.combatants
                .iter()
                .filter(|c| !c.gone && !c.dead && c.pc != pcs)
                .flat_map(|c| {
                    [
                        Event::Add(c.id, "Surprised".into(), Duration::Round { n: 1 }),
                        Event::Set(c.id, IN_HAND, -1),
                    ]
                }),
        );
    }
    Ok(Event::Batch(out))
}

/// The mark a surpriser's free attack leaves.
pub const SURPRISE_ATTACK: &str = "Surprise attack";

/// Whether `who` may still make its surprise free attack on `target`: the target is Surprised
/// and of the other side, and the first turn of the fight has not ended (the surprisers' free
/// attacks come "at the start"; seed 001, "Surprise").
pub fn surprise_due(s: &State, who: u32, target: u32) -> bool {
    let (Some(a), Some(t)) = (s.get(who), s.get(target)) else {
        return false;
    };
    s.round == 1
        && s.had_turn.len() <= 1
        && a.pc != t.pc
        && s.has(target, "Surprised")
        && !a.used.iter().any(|u| u == SURPRISE_ATTACK)
}

/// Whether `who`'s attack on `target` with its weapon `weapon` has the advantage as the fight
/// stands (seed 001, "Advantage"): a prone or flanked target for a melee weapon only, higher
/// ground, an unaware target, and a surpriser's free attack at the start. Not the rest of a
/// surprised target's first round: then the usual turn order follows.
pub fn advantage(s: &State, who: u32, target: u32, weapon: usize) -> bool {
    let ranged = s
        .get(who)
        .and_then(|c| weapons(c).into_iter().nth(weapon))
        .is_some_and(|w| w.is(WeaponQuality::Ranged));
    (!ranged && (s.has(target, "Prone") || s.has(target, "Flanked")))
        || s.has(who, "Higher ground")
        || s.has(target, "Unaware")
        || surprise_due(s, who, target)
}

/// What the fight says of `who` attacking `target` with its weapon `weapon`: (the advantage,
/// `who` cannot see, `target` cannot see), from the Blind condition of each and [`advantage`].
/// Never the attacker's say: an attack's odds and its roll both read this.
pub fn situation(s: &State, who: u32, target: u32, weapon: usize) -> (bool, bool, bool) {
    (
        advantage(s, who, target, weapon),
        s.has(who, "Blind"),
        s.has(target, "Blind"),
    )
}

/// `who`'s attack on `target` with its weapon `weapon` as the fight stands ([`situation`]):
/// the odds of exactly the roll its `resolve` makes.
pub fn attack_in(s: &State, who: u32, target: u32, weapon: usize) -> Option<Attack> {
    let a = wielding(s.get(who)?, weapon)?;
    let t = s.get(target)?;
    let (adv, me, them) = situation(s, who, target, weapon);
    Some(attack(&a, t, adv, me, them))
}

/// What attacking with weapon `i` asks of `c` first: `Ok(None)` nothing (in hand, or a
/// natural weapon, always ready), `Ok(Some(free))` taking it in hand (free for a Short weapon,
/// which unsheathes as a free action; else a movement action: "Switch weapons"). A Heavy or
/// ranged weapon takes both hands: with a shield held, taking it puts the shield away (seed
/// 001, "Shield"), never free.
pub fn readying(c: &Combatant, i: usize) -> Result<Option<bool>, String> {
    let w = weapons(c).into_iter().nth(i).ok_or("no such weapon")?;
    if w.flags.contains("natural") {
        return Ok(None);
    }
    let (clash, back) = (shield_clash(c, &w), shield_back(c, &w));
    Ok((clash || back || c.stat(IN_HAND) != i as i32)
        .then(|| w.is(WeaponQuality::Short) && !clash && !back))
}

fn two_handed(w: &Armed) -> bool {
    w.is(WeaponQuality::Heavy) || w.is(WeaponQuality::Ranged)
}

/// The shield is held and `w` needs both hands: the shield is put away.
fn shield_clash(c: &Combatant, w: &Armed) -> bool {
    c.stat(SHIELD) > 0 && two_handed(w)
}

/// The shield was put away and `w` leaves a hand for it: the shield is taken up again.
fn shield_back(c: &Combatant, w: &Armed) -> bool {
    c.stat(SHIELD) < 0 && !two_handed(w)
}

/// The events of `c` taking its weapon `i` in hand (after [`readying`]): the shield put away
/// for a two-handed one (its +1 Defense gone), the weapon in hand.
pub fn take_in_hand(c: &Combatant, i: usize) -> Vec<Event> {
    let mut out = Vec::new();
    let Some(w) = weapons(c).into_iter().nth(i) else {
        return out;
    };
    let mut line = format!("{} takes {} in hand", c.name, w.name);
    if shield_clash(c, &w) {
        out.extend([
            Event::Set(c.id, SHIELD, -1),
            Event::Set(c.id, DEFENSE, c.stat(DEFENSE) - 1),
        ]);
        line.push_str(", the shield put away (Defense −1)");
    } else if shield_back(c, &w) {
        out.extend([
            Event::Set(c.id, SHIELD, 1),
            Event::Set(c.id, DEFENSE, c.stat(DEFENSE) + 1),
        ]);
        line.push_str(", the shield taken up again (Defense +1)");
    }
    out.extend([Event::Set(c.id, IN_HAND, i as i32), Event::Note(line)]);
    out
}

/// A Long weapon's free attack in the first turn of melee: not against another Long weapon,
/// and not when the wielder holds a shield (one hand only).
pub fn reach_free_attack(attacker: &Combatant, target: &Combatant) -> bool {
    attacker.stat(LONG) != 0 && attacker.stat(SHIELD) <= 0 && target.stat(LONG) == 0
}

/// Damage that exceeds the pain threshold in one hit offers a choice.
pub fn over_pain_threshold(target: &Combatant, damage: i32) -> bool {
    damage > target.stat(PAIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fighter(acc: i32, def: i32, pc: bool) -> Combatant {
        let mut c = npc("x", &Npc::quick(acc, def, 10, 10, 12, "1d8", "1d4"));
        c.pc = pc;
        c
    }

    /// Brute force over every d20 (and second d20), weapon die, advantage die and armor die.
    fn brute(att: &Combatant, tgt: &Combatant, adv: bool, ab: bool, tb: bool) -> (f64, f64, f64) {
        let a = attack(att, tgt, adv, ab, tb);
        let (mut hit, mut pain, mut zero, mut n) = (0.0, 0.0, 0.0, 0.0);
        let blind = ab != tb;
        for r1 in 1..=20u32 {
            for r2 in 1..=20u32 {
                if !blind && r2 > 1 {
                    continue;
                }
                let kept = match a.blind {
                    Blind::Neither => r1,
                    Blind::Me => r1.max(r2),
                    Blind::Enemy => r1.min(r2),
                };
                let pass = kept as i32 <= a.target;
                let hits = if a.roller == Roller::Attacker {
                    pass
                } else {
                    !pass
                };
                for w in 1..=8 {
                    for ad in 1..=(if adv { 4 } else { 1 }) {
                        for ar in 1..=4 {
                            n += 1.0;
                            let dmg = (w + if adv { ad } else { 0 } - ar).max(0);
                            if hits {
                                hit += 1.0;
                                if dmg > tgt.stat(PAIN) {
                                    pain += 1.0;
                                }
                                if dmg >= tgt.hp {
                                    zero += 1.0;
                                }
                            }
                        }
                    }
                }
            }
        }
        (hit / n, pain / n, zero / n)
    }

    #[test]
    fn attacks_match_brute_force() {
        for (acc, def) in [(10, 10), (15, 5), (5, 15), (13, 11), (20, 1), (1, 20)] {
            for (apc, tpc) in [(true, false), (false, true), (false, false)] {
                for adv in [false, true] {
                    for (ab, tb) in [(false, false), (true, false), (false, true), (true, true)] {
                        let att = fighter(acc, 10, apc);
                        let mut tgt = fighter(10, def, tpc);
                        tgt.hp = 5;
                        let a = attack(&att, &tgt, adv, ab, tb);
                        let (h, p, z) = brute(&att, &tgt, adv, ab, tb);
                        for (got, want) in
                            [(a.hit.p(), h), (a.over_pain.p(), p), (a.to_zero.p(), z)]
                        {
                            assert!(
                                (got - want).abs() < 1e-12,
                                "{acc} {def} {apc} {adv} {ab} {tb}: {got} vs {want}"
                            );
                        }
                        assert!((a.hit.p() + a.hit.q() - 1.0).abs() < 1e-12);
                        let d = a.damage.unwrap();
                        assert!((d.total() - 1.0).abs() < 1e-12);
                    }
                }
            }
        }
    }

    #[test]
    fn who_rolls() {
        let pc = fighter(13, 12, true);
        let npc = fighter(11, 9, false);
        let a = attack(&npc, &pc, false, false, false);
        assert_eq!((a.roller, a.target), (Roller::Defender, 12 + 10 - 11));
        assert_eq!(a.hit, Chance::ratio(9, 20));
        let a = attack(&pc, &npc, true, false, false);
        assert_eq!((a.roller, a.target), (Roller::Attacker, 13 + 10 - 9 + 2));
        assert_eq!(a.hit, Chance::ratio(16, 20));
        let strong = fighter(20, 10, true);
        assert!(attack(&strong, &npc, true, false, false).hit.is_certain());
    }

    #[test]
    fn surprise_uses_lowest_discreet_and_highest_vigilant() {
        let mut a = fighter(10, 10, true);
        a.stats[DISCREET] = 14;
        let mut b = fighter(10, 10, true);
        b.stats[DISCREET] = 9;
        let mut x = fighter(10, 10, false);
        x.stats[VIGILANT] = 12;
        let mut y = fighter(10, 10, false);
        y.stats[VIGILANT] = 8;
        let (target, chance) = surprise(&[&a, &b], &[&x, &y]).unwrap();
        assert_eq!(target, 9 + 10 - 12);
        assert_eq!(chance, Chance::ratio(7, 20));
        assert!(surprise(&[], &[&x]).is_none());
        // In a fight, as one step: the surprised side's live combatants Surprised on a roll
        // at or under 7; a roll over it, a line only.
        let mut s = State::new(&SYMBAROUM);
        for c in [a, b, x, y] {
            s.apply(&Event::Join(c));
        }
        assert_eq!(surprise_in(&s, true), Some((7, Chance::ratio(7, 20))));
        let missed = surprise_events(&s, true, 8).unwrap();
        s.apply(&surprise_events(&s, true, 7).unwrap());
        let surprised: Vec<u32> = s
            .combatants
            .iter()
            .filter(|c| s.has(c.id, "Surprised"))
            .map(|c| c.id)
            .collect();
        assert_eq!(surprised, [3, 4]);
        assert!(matches!(&missed, Event::Batch(v) if v.len() == 1));
    }

    #[test]
    fn reach_and_pain() {
        let mut long = fighter(10, 10, true);
        long.stats[LONG] = 1;
        let short = fighter(10, 10, false);
        assert!(reach_free_attack(&long, &short));
        assert!(!reach_free_attack(&short, &long));
        assert!(
            !reach_free_attack(&long, &long),
            "not against another Long weapon"
        );
        long.stats[SHIELD] = 1;
        assert!(!reach_free_attack(&long, &short), "a shield cancels reach");
        // From a sheet: a shield takes the reach away, a buckler leaves it.
        let mut sheet = SymbaroumSheet {
            weapons: vec![crate::rules::symbaroum::Weapon {
                name: "Spear".into(),
                damage: "1d8".into(),
                qualities: vec![WeaponQuality::Long],
                attr: SAttr::Accurate,
            }],
            ..SymbaroumSheet::default()
        };
        for (shield, reach) in [
            (Shield::Buckler, true),
            (Shield::Shield, false),
            (Shield::None, true),
        ] {
            sheet.shield = shield;
            let c = combatant("Spear", &sheet, true, None);
            assert_eq!(reach_free_attack(&c, &short), reach, "{shield:?}");
        }
        let t = npc("t", &Npc::quick(10, 10, 10, 10, 11, "1d6", "")); // pain threshold 6
        assert!(!over_pain_threshold(&t, 6));
        assert!(over_pain_threshold(&t, 7));
    }

    #[test]
    fn combatant_from_a_sheet() {
        let mut s = SymbaroumSheet::default();
        s.attributes[SAttr::Quick.index()] = 14;
        s.attributes[SAttr::Strong.index()] = 13;
        s.toughness = 40; // stored above the maximum: the fight uses the maximum
        s.shield = Shield::Buckler;
        let c = combatant("Ada", &s, true, Some("id1".into()));
        assert_eq!(
            (c.hp, c.hp_max, c.stat(PAIN), c.stat(DEFENSE)),
            (13, 13, 7, 15)
        );
        assert_eq!(c.init, vec![14, 10]);
        assert_eq!(c.text(WEAPON), "1d4");
    }
}
