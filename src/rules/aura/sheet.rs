//! The Energy / Aura sheet: six scores, level, size, martial proficiency and its picks, weapons,
//! armor, shield, aura, stamina and recovery surges. Every derived value (SPEC.md §6) is a
//! method returning the number and the formula with this character's figures in it, so the
//! sheet, the roll panels and the fight show the same thing.
//!
//! Rounding: every "/3" and every "halved" rounds down, toward −∞ (SPEC decision 3), so a Dex
//! modifier of −1 halves to −1. Decisions where the seed is silent, taken here:
//! - Aura strength is never below 0 (a very negative aura modifier would make it negative).
//! - Max agility is 3 + the bonuses typed in (the seed's Leg Strength section is missing).
//! - Draw weight: a bow or crossbow is drawn at the row of the character's Arm Strength (+5 for a
//!   two-handed crossbow), capped by the MPL rows (MPL 0–2: 40 kg, 3–4: 45 kg, 5+: 50 kg); the
//!   heavier rows are for heavy and siege crossbows, which the sheet does not model.
//! - The initiative roll is a d20 plus the initiative picks and bonus; higher wins, a tie loses
//!   for the challenger ("if your roll is higher").

use serde::{Deserialize, Serialize};

/// Largest score, level or bonus the sheet accepts (the importer's limit too).
pub const STAT_LIMIT: i32 = 100;
/// Largest aura, stamina or surge count.
pub const POOL_LIMIT: i32 = 10_000;
pub const LIST_LIMIT: usize = 100;
/// The longest weapon or condition list the importer takes: ten times what an edit lets it
/// reach, because the app before issue 27 let a death roll add conditions past the limit, and
/// a sheet stored that way must stay the player's to export.
pub const IMPORT_LIST_LIMIT: usize = 10 * LIST_LIMIT;
pub const NAME_LIMIT: usize = 200;

pub const SCORES: [&str; 6] = ["Str", "Con", "Dex", "Int", "Wis", "Cha"];
pub const STR: usize = 0;
pub const CON: usize = 1;
pub const DEX: usize = 2;
pub const INT: usize = 3;
pub const WIS: usize = 4;
pub const CHA: usize = 5;

/// ⌊a / b⌋ toward −∞ (b > 0).
pub fn floor_div(a: i32, b: i32) -> i32 {
    a.div_euclid(b)
}

/// A row of the size chart.
pub struct SizeRow {
    pub name: &'static str,
    pub evasion: i32,
    /// Miss chance modifier of the chart (a ranged attack at this size uses [`MISS_SIZE`]).
    pub miss: i32,
    pub jump: &'static str,
    pub speed: i32,
}

const fn size(
    name: &'static str,
    evasion: i32,
    miss: i32,
    jump: &'static str,
    speed: i32,
) -> SizeRow {
    SizeRow {
        name,
        evasion,
        miss,
        jump,
        speed,
    }
}

/// The size chart, Huge to Fine (index 2 is Medium).
pub const SIZES: [SizeRow; 7] = [
    size("Huge", 6, -4, "5", 10),
    size("Large", 7, -2, "4", 8),
    size("Medium", 8, 0, "3", 6),
    size("Small", 9, 2, "2", 5),
    size("Tiny", 10, 4, "1", 3),
    size("Diminutive", 11, 6, "0.5", 2),
    size("Fine", 12, 8, "0.3", 1),
];
pub const MEDIUM: usize = 2;

/// The target-size term of a ranged attack's miss chance (the ranged section's table, SPEC
/// decision 13): Huge … Fine as in [`SIZES`], then Miniscule.
pub const MISS_SIZE: [(&str, i32); 8] = [
    ("Huge", -4),
    ("Large", -2),
    ("Medium", 0),
    ("Small", 2),
    ("Tiny", 4),
    ("Diminutive", 8),
    ("Fine", 12),
    ("Miniscule", 18),
];

/// The movement term of a ranged attack's miss chance.
pub const MISS_MOVE: [(&str, i32); 3] = [
    ("Standing still", -5),
    ("Moving as usual", 0),
    ("Zig-zagging or sprinting", 5),
];

/// A row of the draw-weight table, from the Arm Strength it starts at.
pub struct DrawRow {
    pub from: i32,
    pub kg: &'static str,
    /// Added to a drawn weapon's range trio (the row's sign is each number's).
    pub add: [i32; 3],
    pub extra: i32,
    pub limit: &'static str,
}

impl DrawRow {
    /// The row's range as the table writes it: "+1/6/12", "−2/5/30", "+0".
    pub fn range_text(&self) -> String {
        let [a, b, c] = self.add;
        let sign = if a < 0 || b < 0 { "−" } else { "+" };
        if self.add == [0; 3] {
            return "+0".into();
        }
        format!("{sign}{}/{}/{}", a.abs(), b.abs(), c.abs())
    }
}

const fn draw(
    from: i32,
    kg: &'static str,
    add: [i32; 3],
    extra: i32,
    limit: &'static str,
) -> DrawRow {
    DrawRow {
        from,
        kg,
        add,
        extra,
        limit,
    }
}

/// The draw-weight table: from which Arm Strength each row applies (seed l.250). The low rows'
/// sign is read as applying to all three numbers ("−2/5/30": 2, 5 and 30 less).
pub const DRAW: [DrawRow; 11] = [
    draw(i32::MIN, "under 20", [-3, -10, -60], 0, ""),
    draw(1, "20", [-2, -5, -30], 0, ""),
    draw(4, "25", [-1, -5, -10], 0, ""),
    draw(8, "30", [0, 0, 0], 0, ""),
    draw(12, "35", [0, 5, 10], 1, "the most a hand crossbow takes"),
    draw(16, "40", [1, 6, 12], 2, "the most at MPL 1–2"),
    draw(20, "45", [1, 9, 18], 3, "the most at MPL 3–4"),
    draw(25, "50", [2, 12, 24], 4, "the most at MPL 5 and up"),
    draw(30, "60", [2, 15, 30], 5, "heavy and siege crossbows only"),
    draw(35, "70", [3, 18, 36], 6, "siege crossbows only"),
    draw(40, "80", [3, 26, 52], 7, "siege crossbows only"),
];

/// The draw-weight row of an Arm Strength.
pub fn draw_row(arm: i32) -> &'static DrawRow {
    DRAW.iter()
        .rev()
        .find(|r| arm >= r.from)
        .unwrap_or(&DRAW[0])
}

/// Extra throwing distance from Arm Strength: (from, added to the range trio).
pub const THROW: [(i32, [i32; 3]); 9] = [
    (i32::MIN, [0, 0, 0]),
    (5, [0, 2, 4]),
    (10, [1, 4, 8]),
    (15, [1, 6, 10]),
    (20, [2, 8, 16]),
    (25, [2, 10, 20]),
    (30, [3, 12, 24]),
    (35, [3, 14, 28]),
    (40, [4, 16, 32]),
];

pub fn throw_extra(arm: i32) -> [i32; 3] {
    THROW
        .iter()
        .rev()
        .find(|r| arm >= r.0)
        .map_or([0; 3], |r| r.1)
}

/// One martial proficiency level's pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pick {
    Arm,
    Leg,
    Initiative,
}

impl Pick {
    pub const ALL: [Pick; 3] = [Pick::Arm, Pick::Leg, Pick::Initiative];
    pub fn name(self) -> &'static str {
        match self {
            Pick::Arm => "+1 Arm Strength",
            Pick::Leg => "+1 Leg Strength",
            Pick::Initiative => "+1 Initiative",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Weapon {
    pub name: String,
    /// Damage dice in notation ("1d8").
    pub damage: String,
    /// AV bonus (and accuracy when thrown, for a Thrown weapon).
    pub av: i32,
    /// Evasion bonus while held.
    pub ev: i32,
    /// Accuracy of a ranged weapon.
    pub accuracy: i32,
    /// Martial proficiency requirement.
    pub mpr: i32,
    /// Shot from a bow, crossbow or sling (a hit roll) rather than swung.
    pub ranged: bool,
    /// A two-handed crossbow (+5 Arm Strength for draw weight).
    pub crossbow: bool,
    /// Adds the draw weight's extra damage (bows and crossbows).
    pub drawn: bool,
    /// The range trio of a ranged weapon, or of a Thrown one (zeros: the default by weight).
    pub range: [i32; 3],
    pub light: bool,
    pub heavy: bool,
    pub thrown: bool,
    pub blunt: bool,
    /// Precise n: crits on 20 − n and up.
    pub precise: i32,
    /// Counted for evasion (in hand).
    pub held: bool,
}

/// A plain bow: the weapon the sheet shows its draw weight for.
pub const BOW: Weapon = Weapon {
    name: String::new(),
    damage: String::new(),
    av: 0,
    ev: 0,
    accuracy: 0,
    mpr: 0,
    ranged: true,
    crossbow: false,
    drawn: true,
    range: [0; 3],
    light: false,
    heavy: false,
    thrown: false,
    blunt: false,
    precise: 0,
    held: false,
};

impl Default for Weapon {
    fn default() -> Self {
        Weapon {
            name: "Weapon".into(),
            damage: "1d6".into(),
            ranged: false,
            drawn: false,
            held: true,
            ..BOW
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Armor {
    pub name: String,
    /// Armor rating: subtracted from damage that hits the armor.
    pub ar: i32,
    /// Coverage against melee: a combat roll below it hits the armor.
    pub ac: i32,
    /// Coverage against ranged attacks.
    pub ranged_ac: i32,
    /// Evasion penalty.
    pub penalty: i32,
    pub mpr: i32,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Shield {
    pub name: String,
    /// Evasion and ranged evasion bonus while carried.
    pub bonus: i32,
    pub mpr: i32,
    pub carried: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AuraSheet {
    /// Str, Con, Dex, Int, Wis, Cha.
    pub scores: [i32; 6],
    pub level: i32,
    /// Index into [`SIZES`].
    pub size: usize,
    /// Martial proficiency level.
    pub mpl: i32,
    /// One pick per MPL (the first `mpl` count).
    pub picks: Vec<Pick>,
    /// Arm and Leg Strength before the picks.
    pub arm: i32,
    pub leg: i32,
    /// Initiative bonus before the picks.
    pub initiative: i32,
    /// Agility bonuses (raise max agility).
    pub agility: i32,
    pub weapons: Vec<Weapon>,
    pub armor: Armor,
    pub shield: Shield,
    /// Current aura.
    pub aura: i32,
    pub stamina: i32,
    /// Recovery surges left.
    pub surges: i32,
    pub conditions: Vec<String>,
    pub dead: bool,
}

impl Default for AuraSheet {
    fn default() -> Self {
        let mut s = AuraSheet {
            scores: [10; 6],
            level: 1,
            size: MEDIUM,
            mpl: 1,
            picks: vec![Pick::Arm],
            arm: 0,
            leg: 0,
            initiative: 0,
            agility: 0,
            weapons: vec![Weapon {
                name: "Longsword".into(),
                damage: "1d8".into(),
                av: 1,
                mpr: 1,
                ..Weapon::default()
            }],
            armor: Armor::default(),
            shield: Shield::default(),
            aura: 0,
            stamina: 0,
            surges: 0,
            conditions: Vec::new(),
            dead: false,
        };
        s.aura = s.aura_strength().0;
        s.stamina = s.max_stamina().0;
        s.surges = s.recovery_surges().0;
        s
    }
}

/// A derived number with its formula, this character's figures filled in.
pub type Derived = (i32, String);

/// A winded death roll's exhaustion as a sheet lists it: to the end of the next round.
pub const WINDED: &str = "Exhausted (2 rounds)";

/// Entry `entry` is condition `name`, whatever time it has left.
fn named(entry: &str, name: &str) -> bool {
    crate::rules::encounter::shared::split_entry(entry)
        .0
        .eq_ignore_ascii_case(name)
}

impl AuraSheet {
    pub fn modifier(&self, i: usize) -> i32 {
        floor_div(self.scores[i] - 10, 2)
    }

    fn half(&self, i: usize) -> i32 {
        floor_div(self.modifier(i), 2)
    }

    fn third_level(&self) -> i32 {
        floor_div(self.level, 3)
    }

    pub fn size_row(&self) -> &'static SizeRow {
        &SIZES[self.size.min(SIZES.len() - 1)]
    }

    fn picked(&self, p: Pick) -> i32 {
        self.picks
            .iter()
            .take(self.mpl.max(0) as usize)
            .filter(|&&x| x == p)
            .count() as i32
    }

    pub fn arm_strength(&self) -> Derived {
        let n = self.picked(Pick::Arm);
        (self.arm + n, format!("{} base + {n} picked", self.arm))
    }

    pub fn leg_strength(&self) -> Derived {
        let n = self.picked(Pick::Leg);
        (self.leg + n, format!("{} base + {n} picked", self.leg))
    }

    pub fn initiative_bonus(&self) -> Derived {
        let n = self.picked(Pick::Initiative);
        (
            self.initiative + n,
            format!(
                "{} bonus + {n} picked; rolled as d20 + this",
                self.initiative
            ),
        )
    }

    /// MASAB = MASDB = ⌊(Str mod + Dex mod) / 3⌋.
    pub fn masab(&self) -> Derived {
        let (s, d) = (self.modifier(STR), self.modifier(DEX));
        (
            floor_div(s + d, 3),
            format!("⌊(Str mod {s} + Dex mod {d}) / 3⌋"),
        )
    }

    pub fn unarmed_av(&self) -> Derived {
        let m = self.masab().0;
        (15 + m, format!("15 + MASAB {m}"))
    }

    pub fn unarmed_damage(&self) -> Derived {
        let m = self.masab().0;
        (m.max(1), format!("MASAB {m}, at least 1"))
    }

    pub fn proficient(&self, w: &Weapon) -> bool {
        self.mpl >= w.mpr
    }

    /// The evasion bonuses of held weapons, −1 for each held melee weapon used without
    /// proficiency.
    fn weapon_ev(&self) -> (i32, i32) {
        let held = self.weapons.iter().filter(|w| w.held);
        let bonus = held.clone().map(|w| w.ev).sum();
        let lost = held.filter(|w| !w.ranged && !self.proficient(w)).count() as i32;
        (bonus, lost)
    }

    fn shield_bonus(&self) -> i32 {
        if self.shield.carried {
            self.shield.bonus
        } else {
            0
        }
    }

    pub fn evasion(&self) -> Derived {
        let inh = self.size_row().evasion;
        let (l, d) = (self.third_level(), self.half(DEX));
        let (w, lost) = self.weapon_ev();
        let sh = self.shield_bonus();
        let p = self.armor.penalty;
        let mut f = format!(
            "inherent {inh} ({}) + ⌊level / 3⌋ {l} + ⌊Dex mod / 2⌋ {d} + shield {sh} + weapons {w} − armor penalty {p}",
            self.size_row().name
        );
        if lost > 0 {
            f.push_str(&format!(" − {lost} (weapon without proficiency)"));
        }
        (inh + l + d + sh + w - p - lost, f)
    }

    pub fn ranged_evasion(&self) -> Derived {
        let d = self.half(DEX);
        let sh = self.shield_bonus();
        let p = self.armor.penalty;
        (
            d + sh - p,
            format!("⌊Dex mod / 2⌋ {d} + shield {sh} − armor penalty {p}; rolled with 1d4*"),
        )
    }

    pub fn unarmed_evasion(&self) -> Derived {
        let inh = self.size_row().evasion;
        let (l, d) = (self.third_level(), self.half(DEX));
        let p = self.armor.penalty;
        (
            inh + l + d - p,
            format!("inherent {inh} + ⌊level / 3⌋ {l} + ⌊Dex mod / 2⌋ {d} − armor penalty {p} (no weapon or shield)"),
        )
    }

    pub fn fortitude(&self) -> Derived {
        let (l, c, s) = (self.third_level(), self.half(CON), self.half(STR));
        (
            10 + l + c + s,
            format!("10 + ⌊level / 3⌋ {l} + ⌊Con mod / 2⌋ {c} + ⌊Str mod / 2⌋ {s}"),
        )
    }

    pub fn will(&self) -> Derived {
        let (l, c, w) = (self.third_level(), self.half(CHA), self.half(WIS));
        (
            10 + l + c + w,
            format!("10 + ⌊level / 3⌋ {l} + ⌊Cha mod / 2⌋ {c} + ⌊Wis mod / 2⌋ {w}"),
        )
    }

    /// Str + Con + Int + Wis + Cha modifiers (not Dex).
    pub fn aura_modifier(&self) -> Derived {
        let m: Vec<i32> = [STR, CON, INT, WIS, CHA]
            .iter()
            .map(|&i| self.modifier(i))
            .collect();
        (
            m.iter().sum(),
            format!(
                "Str {} + Con {} + Int {} + Wis {} + Cha {} modifiers",
                m[0], m[1], m[2], m[3], m[4]
            ),
        )
    }

    pub fn aura_strength(&self) -> Derived {
        let m = self.aura_modifier().0;
        (
            (20 + floor_div(m * 4, 3)).max(0),
            format!("20 + ⌊aura modifier {m} × 4 / 3⌋, at least 0"),
        )
    }

    pub fn recovery_surges(&self) -> Derived {
        let c = self.half(CON);
        ((5 + c).max(0), format!("5 + ⌊Con mod / 2⌋ {c}"))
    }

    pub fn recovery_value(&self) -> Derived {
        let m = self.aura_modifier().0;
        (m.max(1), format!("aura modifier {m}, at least 1"))
    }

    pub fn max_stamina(&self) -> Derived {
        let c = self.scores[CON];
        (c.max(0), format!("Con score {c}"))
    }

    /// Energy at the start of a round from the stamina now (exhausted: 2 less).
    pub fn energy_per_round(&self) -> Derived {
        let exhausted = self.has("Exhausted");
        let e = energy_from_stamina(self.stamina, exhausted);
        let mut f = format!("stamina {}: ", self.stamina);
        f.push_str(match self.stamina {
            i32::MIN..=0 => "0, unconscious",
            1..=4 => "that many",
            _ => "5 or more gives 5",
        });
        if exhausted {
            f.push_str("; exhausted −2");
        }
        (e, f)
    }

    pub fn max_agility(&self) -> Derived {
        (
            3 + self.agility,
            format!("3 + agility bonuses {}", self.agility),
        )
    }

    /// Has condition `name`, for however long ("Exhausted (2 rounds)" is exhausted).
    pub fn has(&self, name: &str) -> bool {
        self.conditions.iter().any(|c| named(c, name))
    }

    /// Melee AV with a weapon: 15 + MASAB + its AV bonus, −1 without proficiency.
    pub fn melee_av(&self, w: &Weapon) -> Derived {
        let m = self.masab().0;
        let mut f = format!("15 + MASAB {m} + weapon {}", w.av);
        let lost = if self.proficient(w) {
            0
        } else {
            f.push_str(&format!(" − 1 (MPR {} above MPL {})", w.mpr, self.mpl));
            1
        };
        (15 + m + w.av - lost, f)
    }

    /// The accuracy a ranged (or thrown) attack uses: a Thrown weapon's is its AV bonus.
    pub fn accuracy(&self, w: &Weapon, thrown: bool) -> i32 {
        if thrown && w.thrown {
            w.av
        } else if thrown {
            0
        } else {
            w.accuracy
        }
    }

    /// Miss chance modifier = 8 − accuracy − ⌊Dex mod / 2⌋.
    pub fn miss_modifier(&self, w: &Weapon, thrown: bool) -> Derived {
        let a = self.accuracy(w, thrown);
        let d = self.half(DEX);
        (8 - a - d, format!("8 − accuracy {a} − ⌊Dex mod / 2⌋ {d}"))
    }

    /// The draw-weight row a drawn weapon is used at (bows capped by the MPL).
    pub fn draw_for(&self, w: &Weapon) -> &'static DrawRow {
        let arm = self.arm_strength().0 + if w.crossbow { 5 } else { 0 };
        let row = draw_row(arm);
        let cap = match self.mpl {
            i32::MIN..=2 => 16,
            3..=4 => 20,
            _ => 25,
        };
        if row.from > cap {
            draw_row(cap)
        } else {
            row
        }
    }

    /// Damage added to a weapon's dice: MASDB in melee, the draw weight's extra when shot.
    pub fn damage_bonus(&self, w: &Weapon, mode: AttackMode) -> Derived {
        match mode {
            AttackMode::Melee => {
                let m = self.masab().0;
                (m, format!("MASDB {m}"))
            }
            AttackMode::Shot if w.drawn => {
                let r = self.draw_for(w);
                (r.extra, format!("draw weight {} kg: +{}", r.kg, r.extra))
            }
            _ => (0, String::new()),
        }
    }

    /// The range trio of a shot or a throw (zeros when the weapon has none).
    pub fn range(&self, w: &Weapon, mode: AttackMode) -> [i32; 3] {
        match mode {
            AttackMode::Thrown => {
                let base = if w.range != [0; 3] && w.thrown {
                    w.range
                } else if w.light {
                    [3, 5, 10]
                } else if w.heavy {
                    [1, 3, 6]
                } else {
                    [2, 4, 8]
                };
                let x = throw_extra(self.arm_strength().0);
                [base[0] + x[0], base[1] + x[1], base[2] + x[2]]
            }
            // A bow or crossbow reaches as far as its draw weight (never below 0 m).
            AttackMode::Shot if w.drawn => {
                let add = self.draw_for(w).add;
                [0, 1, 2].map(|i| (w.range[i] + add[i]).max(0))
            }
            _ => w.range,
        }
    }

    /// Energy a ranged attack with it costs: 1, +1 without proficiency (SPEC decision 2).
    pub fn shot_energy(&self, w: &Weapon) -> i32 {
        1 + i32::from(!self.proficient(w))
    }

    /// Five minutes of a short rest: all stamina back, one recovery surge spent for aura (when
    /// `surge` and one is left), and what lasts until a short rest (exhausted from an
    /// injury, shaken) ends.
    pub fn short_rest(&mut self, surge: bool) {
        self.stamina = self.max_stamina().0;
        if surge && self.surges > 0 && self.aura < self.aura_strength().0 {
            self.surges -= 1;
            self.aura = (self.aura + self.recovery_value().0).min(self.aura_strength().0);
        }
        self.conditions
            .retain(|c| !named(c, "Exhausted") && !named(c, "Shaken"));
        self.woken();
    }

    /// Gaining aura stabilizes (it ends bleeding out); waking stays the GM's call (seed l.659).
    pub fn stabilized(&mut self) {
        if self.aura > 0 {
            self.conditions.retain(|c| c != "Bleeding out");
        }
    }

    /// After a rest: stabilized, and with stamina back and no bleeding, awake.
    pub fn woken(&mut self) {
        self.stabilized();
        if self.stamina > 0 && !self.has("Bleeding out") {
            self.conditions.retain(|c| c != "Unconscious");
        }
    }

    /// A long rest: aura, recovery surges and stamina full, and everything a short rest ends.
    pub fn long_rest(&mut self) {
        self.short_rest(false);
        self.aura = self.aura_strength().0;
        self.surges = self.recovery_surges().0;
        self.woken();
    }

    /// Sets the MPL, with a pick (+1 Arm Strength until chosen) for every level.
    pub fn set_mpl(&mut self, mpl: i32) {
        self.mpl = mpl.clamp(0, STAT_LIMIT);
        let n = self.mpl as usize;
        self.picks.resize(n.max(self.picks.len().min(n)), Pick::Arm);
        self.picks.truncate(n);
    }

    /// A death roll (d20) taken on the sheet, outside a fight: the table's conditions or death.
    pub fn after_death_roll(&mut self, d20: u32) {
        use super::rolls::{death_roll, DeathRoll};
        let r = death_roll(d20);
        if r == DeathRoll::Dead {
            self.dead = true;
            return;
        }
        let adds: &[&str] = match r {
            DeathRoll::Scratch | DeathRoll::Dead => &[],
            // Winded: to the end of the next round, as in a fight (`Round { n: 2 }`).
            DeathRoll::Winded => &[WINDED],
            DeathRoll::Injured => &["Exhausted"],
            DeathRoll::Bleeding => &["Exhausted", "Bleeding out"],
            DeathRoll::Down => &["Exhausted", "Bleeding out", "Unconscious"],
        };
        for c in adds {
            self.add(c);
        }
    }

    /// A death save (d20) taken on the sheet while bleeding out.
    pub fn after_death_save(&mut self, d20: u32) {
        use super::rolls::{death_save, DeathSave};
        match death_save(d20) {
            DeathSave::Stable => self.conditions.retain(|c| c != "Bleeding out"),
            DeathSave::Bleeding => {}
            DeathSave::Unconscious => self.add("Unconscious"),
            DeathSave::Dead => self.dead = true,
        }
    }

    fn add(&mut self, condition: &str) {
        if !self
            .conditions
            .iter()
            .any(|c| c.eq_ignore_ascii_case(condition))
        {
            self.conditions.push(condition.into());
        }
    }

    /// The character's numbers within the importer's bounds.
    pub fn validate(&self) -> Result<(), String> {
        for (n, &v) in SCORES.iter().zip(&self.scores) {
            if !(0..=STAT_LIMIT).contains(&v) {
                return Err(format!("{n} must be from 0 to {STAT_LIMIT}"));
            }
        }
        let small = [
            (self.level, "level"),
            (self.mpl, "MPL"),
            (self.arm, "Arm Strength"),
            (self.leg, "Leg Strength"),
            (self.initiative, "initiative"),
            (self.agility, "agility bonus"),
            (self.armor.ar, "armor rating"),
            (self.armor.ac, "armor coverage"),
            (self.armor.ranged_ac, "ranged coverage"),
            (self.armor.penalty, "armor penalty"),
            (self.armor.mpr, "armor MPR"),
            (self.shield.bonus, "shield bonus"),
            (self.shield.mpr, "shield MPR"),
        ];
        for (v, what) in small {
            if !(-STAT_LIMIT..=STAT_LIMIT).contains(&v) {
                return Err(format!("{what} must be within ±{STAT_LIMIT}"));
            }
        }
        if self.size >= SIZES.len() {
            return Err("unknown size".into());
        }
        for (v, what) in [
            (self.aura, "aura"),
            (self.stamina, "stamina"),
            (self.surges, "recovery surges"),
        ] {
            if !(0..=POOL_LIMIT).contains(&v) {
                return Err(format!("{what} must be from 0 to {POOL_LIMIT}"));
            }
        }
        if self.picks.len() > LIST_LIMIT {
            return Err(format!("more than {LIST_LIMIT} picks"));
        }
        if self.weapons.len() > IMPORT_LIST_LIMIT || self.conditions.len() > IMPORT_LIST_LIMIT {
            return Err(format!("a list is longer than {IMPORT_LIST_LIMIT} entries"));
        }
        let names = [&self.armor.name, &self.shield.name]
            .into_iter()
            .chain(self.conditions.iter())
            .chain(self.weapons.iter().map(|w| &w.name));
        for n in names {
            if n.chars().count() > NAME_LIMIT {
                return Err(format!("a name is longer than {NAME_LIMIT} characters"));
            }
        }
        for w in &self.weapons {
            let nums = [w.av, w.ev, w.accuracy, w.mpr, w.precise]
                .into_iter()
                .chain(w.range);
            if nums
                .clone()
                .any(|v| !(-STAT_LIMIT..=POOL_LIMIT).contains(&v))
            {
                return Err(format!("{}: a number is out of range", w.name));
            }
            if !(0..=19).contains(&w.precise) {
                return Err(format!("{}: Precise must be from 0 to 19", w.name));
            }
            if crate::rules::dice::parse(&w.damage).is_err() {
                return Err(format!("{}: damage “{}” is not dice", w.name, w.damage));
            }
        }
        Ok(())
    }
}

/// How a weapon is used in an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackMode {
    Melee,
    /// Shot from a ranged weapon.
    Shot,
    /// Thrown (a Thrown weapon at full damage, any other at half unless a natural 20).
    Thrown,
}

/// Energy at a round's start: 0 at 0 stamina, 1–4 as much as the stamina, 5 from 5 on;
/// exhausted 2 less, never below 0.
pub fn energy_from_stamina(stamina: i32, exhausted: bool) -> i32 {
    let e = stamina.clamp(0, 5);
    if exhausted {
        (e - 2).max(0)
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(scores: [i32; 6], level: i32) -> AuraSheet {
        AuraSheet {
            scores,
            level,
            ..AuraSheet::default()
        }
    }

    #[test]
    fn modifiers_round_down_at_every_edge() {
        let s = with([9, 10, 11, 12, 8, 1], 1);
        assert_eq!(
            (0..6).map(|i| s.modifier(i)).collect::<Vec<_>>(),
            [-1, 0, 0, 1, -1, -5]
        );
        assert_eq!(floor_div(-1, 2), -1);
        assert_eq!(floor_div(-1, 3), -1);
        assert_eq!(floor_div(-3, 3), -1);
        assert_eq!(floor_div(-4, 3), -2);
        assert_eq!(floor_div(2, 3), 0);
    }

    #[test]
    fn masab_is_a_third_of_str_and_dex_rounded_down() {
        // Str 14 (+2), Dex 12 (+1): 3/3 = 1.
        assert_eq!(with([14, 10, 12, 10, 10, 10], 1).masab().0, 1);
        // Str 14, Dex 10: 2/3 = 0.
        assert_eq!(with([14, 10, 10, 10, 10, 10], 1).masab().0, 0);
        // Str 8 (−1), Dex 10: −1/3 = −1 (down, not toward 0).
        assert_eq!(with([8, 10, 10, 10, 10, 10], 1).masab().0, -1);
        let s = with([8, 10, 10, 10, 10, 10], 1);
        assert_eq!(s.unarmed_av().0, 14);
        assert_eq!(s.unarmed_damage().0, 1, "at least 1");
        let s = with([20, 10, 20, 10, 10, 10], 1);
        assert_eq!((s.masab().0, s.unarmed_damage().0), (3, 3));
    }

    #[test]
    fn defences_follow_their_formulas() {
        // Level 5 (⌊5/3⌋ = 1), Dex 15 (+2 → 1), Con 13 (+1 → 0), Str 16 (+3 → 1),
        // Cha 7 (−2 → −1), Wis 9 (−1 → −1), Small (inherent 9).
        let mut s = with([16, 13, 15, 10, 9, 7], 5);
        s.size = 3;
        s.weapons.clear();
        s.armor.penalty = 2;
        s.shield = Shield {
            name: "Buckler".into(),
            bonus: 1,
            mpr: 0,
            carried: true,
        };
        assert_eq!(s.evasion().0, 9 + 1 + 1 + 1 - 2);
        assert_eq!(s.ranged_evasion().0, 1 + 1 - 2);
        assert_eq!(s.unarmed_evasion().0, 9 + 1 + 1 - 2);
        assert_eq!(s.fortitude().0, 12, "10 + 1 + 0 + 1");
        assert_eq!(s.will().0, 10 + 1 - 1 - 1);
        // Level 2 and 3: the third steps at 3.
        assert_eq!(with([10; 6], 2).fortitude().0, 10);
        assert_eq!(with([10; 6], 3).fortitude().0, 11);
    }

    #[test]
    fn a_held_weapon_adds_its_evasion_and_costs_one_without_proficiency() {
        let mut s = with([10; 6], 0);
        s.weapons = vec![Weapon {
            ev: 2,
            mpr: 3,
            ..Weapon::default()
        }];
        s.mpl = 2;
        assert_eq!(s.evasion().0, 8 + 2 - 1);
        assert_eq!(s.melee_av(&s.weapons[0]).0, 15 - 1);
        s.mpl = 3;
        assert_eq!(s.evasion().0, 8 + 2);
        assert_eq!(s.melee_av(&s.weapons[0]).0, 15);
        s.weapons[0].held = false;
        assert_eq!(s.evasion().0, 8);
    }

    #[test]
    fn aura_and_recovery() {
        // Str 12 +1, Con 14 +2, Int 8 −1, Wis 10 0, Cha 16 +3: modifier 5, Dex ignored.
        let s = with([12, 14, 18, 8, 10, 16], 1);
        assert_eq!(s.aura_modifier().0, 5);
        assert_eq!(s.aura_strength().0, 20 + 6); // ⌊20/3⌋
        assert_eq!(s.recovery_surges().0, 6);
        assert_eq!(s.recovery_value().0, 5);
        assert_eq!(s.max_stamina().0, 14);
        // Negative: modifier −4 → ⌊−16/3⌋ = −6; recovery value at least 1.
        let s = with([8, 8, 10, 8, 8, 10], 1);
        assert_eq!(s.aura_modifier().0, -4);
        assert_eq!(s.aura_strength().0, 14);
        assert_eq!(s.recovery_value().0, 1);
        assert_eq!(s.recovery_surges().0, 4);
        // Modifier 1 → ⌊4/3⌋ = 1; 2 → 2; 3 → 4.
        for (m, want) in [(1, 21), (2, 22), (3, 24)] {
            let s = with([10 + 2 * m, 10, 10, 10, 10, 10], 1);
            assert_eq!(s.aura_strength().0, want, "modifier {m}");
        }
        assert_eq!(with([1; 6], 1).aura_strength().0, 0, "never below 0");
    }

    #[test]
    fn energy_per_round_from_stamina() {
        let want = [0, 1, 2, 3, 4, 5, 5, 5];
        for (st, &e) in want.iter().enumerate() {
            assert_eq!(energy_from_stamina(st as i32, false), e);
        }
        assert_eq!(energy_from_stamina(5, true), 3);
        assert_eq!(energy_from_stamina(1, true), 0);
        let s = AuraSheet {
            stamina: 4,
            conditions: vec!["Exhausted".into()],
            ..AuraSheet::default()
        };
        assert_eq!(s.energy_per_round().0, 2);
    }

    #[test]
    fn picks_count_only_up_to_the_mpl() {
        let s = AuraSheet {
            mpl: 2,
            picks: vec![Pick::Arm, Pick::Initiative, Pick::Leg],
            arm: 3,
            ..AuraSheet::default()
        };
        assert_eq!(s.arm_strength().0, 4);
        assert_eq!(s.leg_strength().0, 0);
        assert_eq!(s.initiative_bonus().0, 1);
    }

    #[test]
    fn draw_weight_rows_at_their_edges() {
        for (arm, kg) in [
            (-5, "under 20"),
            (0, "under 20"),
            (1, "20"),
            (3, "20"),
            (4, "25"),
            (8, "30"),
            (11, "30"),
            (12, "35"),
            (19, "40"),
            (20, "45"),
            (24, "45"),
            (25, "50"),
            (30, "60"),
            (35, "70"),
            (40, "80"),
            (99, "80"),
        ] {
            assert_eq!(draw_row(arm).kg, kg, "arm {arm}");
        }
        assert_eq!(throw_extra(4), [0, 0, 0]);
        assert_eq!(throw_extra(5), [0, 2, 4]);
        assert_eq!(throw_extra(14), [1, 4, 8]);
        assert_eq!(throw_extra(40), [4, 16, 32]);
        // A two-handed crossbow adds 5; a bow stops at the MPL's row.
        let mut s = AuraSheet::default();
        s.picks.clear();
        s.arm = 20;
        s.mpl = 1;
        let bow = Weapon {
            ranged: true,
            drawn: true,
            ..Weapon::default()
        };
        assert_eq!(s.draw_for(&bow).extra, 2);
        let xbow = Weapon {
            crossbow: true,
            ..bow.clone()
        };
        assert_eq!(s.draw_for(&xbow).extra, 2, "capped by MPL 1 too");
        s.mpl = 5;
        assert_eq!(s.draw_for(&bow).extra, 3);
        assert_eq!(s.draw_for(&xbow).extra, 4);
    }

    /// Review item 14: a bow's range trio grows (or shrinks) by its draw-weight row's range.
    #[test]
    fn aura_r14_a_bows_range_adds_its_draw_weight_rows_range() {
        let mut s = AuraSheet::default();
        s.picks.clear();
        s.arm = 16;
        s.mpl = 1;
        assert_eq!(s.arm_strength().0, 16);
        let bow = Weapon {
            name: "Longbow".into(),
            ranged: true,
            drawn: true,
            range: [5, 30, 120],
            ..Weapon::default()
        };
        assert_eq!(s.draw_for(&bow).range_text(), "+1/6/12");
        assert_eq!(s.range(&bow, AttackMode::Shot), [6, 36, 132]);
        // The shot's label, and so the bands the player picks from, say the same.
        s.weapons.push(bow.clone());
        let last = Some(s.weapons.len() - 1);
        let a = super::super::strike::attacker(&s, last, AttackMode::Shot);
        assert_eq!(a.name, "Longbow shot, range 6/36/132");
        // A weak arm shortens it, never below 0 m; a sling (not drawn) keeps its own.
        s.arm = 2;
        assert_eq!(s.draw_for(&bow).range_text(), "−2/5/30");
        assert_eq!(s.range(&bow, AttackMode::Shot), [3, 25, 90]);
        s.arm = 0;
        let short = Weapon {
            range: [2, 8, 40],
            ..bow.clone()
        };
        assert_eq!(s.range(&short, AttackMode::Shot), [0, 0, 0]);
        let sling = Weapon {
            drawn: false,
            ..bow
        };
        assert_eq!(s.range(&sling, AttackMode::Shot), [5, 30, 120]);
        assert_eq!(DRAW[3].range_text(), "+0");
    }

    #[test]
    fn throwing_ranges_by_weight_plus_arm_strength() {
        let mut s = AuraSheet::default();
        s.picks.clear();
        let light = Weapon {
            light: true,
            ..Weapon::default()
        };
        let heavy = Weapon {
            heavy: true,
            ..Weapon::default()
        };
        assert_eq!(s.range(&light, AttackMode::Thrown), [3, 5, 10]);
        assert_eq!(s.range(&heavy, AttackMode::Thrown), [1, 3, 6]);
        assert_eq!(s.range(&Weapon::default(), AttackMode::Thrown), [2, 4, 8]);
        s.arm = 10;
        assert_eq!(s.range(&light, AttackMode::Thrown), [4, 9, 18]);
        let javelin = Weapon {
            thrown: true,
            range: [5, 10, 20],
            av: 2,
            ..Weapon::default()
        };
        assert_eq!(s.range(&javelin, AttackMode::Thrown), [6, 14, 28]);
        assert_eq!(s.accuracy(&javelin, true), 2);
        assert_eq!(s.accuracy(&light, true), 0);
    }

    #[test]
    fn miss_chance_modifier() {
        let s = with([10, 10, 16, 10, 10, 10], 1); // Dex +3 → 1
        let bow = Weapon {
            accuracy: 2,
            ranged: true,
            ..Weapon::default()
        };
        assert_eq!(s.miss_modifier(&bow, false).0, 8 - 2 - 1);
    }

    #[test]
    fn rests_restore_what_they_say() {
        let mut s = AuraSheet::default(); // aura 20, stamina 10, surges 5, recovery value 1
        s.scores[CON] = 14; // +2: aura modifier 2, strength 22, stamina 14, surges 6
        s.aura = 3;
        s.stamina = 0;
        s.surges = 2;
        s.conditions = vec!["Exhausted".into(), "Prone".into(), "Shaken".into()];
        s.short_rest(true);
        assert_eq!((s.aura, s.stamina, s.surges), (5, 14, 1));
        assert_eq!(s.conditions, vec!["Prone".to_owned()]);
        s.short_rest(false);
        assert_eq!((s.aura, s.surges), (5, 1));
        s.surges = 0;
        s.short_rest(true);
        assert_eq!(s.aura, 5, "no surge left");
        s.long_rest();
        assert_eq!((s.aura, s.stamina, s.surges), (22, 14, 6));
    }

    /// Review item 7: a winded roll (15–19) exhausts to the end of the next round, not for good;
    /// an injury (10–14) exhausts until a short rest; the entry's time does not hide it.
    #[test]
    fn aura_r7_winded_on_the_sheet_is_exhausted_to_the_end_of_the_next_round() {
        let mut s = AuraSheet::default();
        s.scores[CON] = 10;
        s.stamina = 10;
        assert_eq!(s.energy_per_round().0, 5);
        s.after_death_roll(17);
        assert_eq!(s.conditions, [WINDED]);
        assert_eq!(WINDED, "Exhausted (2 rounds)");
        assert!(s.has("Exhausted") && s.has("exhausted"));
        assert_eq!(s.energy_per_round().0, 3);
        // An injury on top: the lasting one joins the timed one.
        s.after_death_roll(12);
        assert_eq!(s.conditions, [WINDED, "Exhausted"]);
        s.short_rest(false);
        assert!(s.conditions.is_empty());
        assert_eq!(s.energy_per_round().0, 5);
    }

    #[test]
    fn death_rolls_and_saves_on_the_sheet() {
        let mut s = AuraSheet::default();
        s.after_death_roll(20);
        assert!(s.conditions.is_empty());
        s.after_death_roll(7);
        assert_eq!(s.conditions, ["Exhausted", "Bleeding out"]);
        s.after_death_roll(3);
        assert_eq!(s.conditions, ["Exhausted", "Bleeding out", "Unconscious"]);
        s.after_death_save(12);
        assert!(s.has("Bleeding out") && !s.dead);
        s.after_death_save(20);
        assert!(!s.has("Bleeding out"));
        s.after_death_save(1);
        assert!(s.dead);
        let mut t = AuraSheet::default();
        t.after_death_roll(1);
        assert!(t.dead);
    }

    #[test]
    fn the_default_sheet_is_valid_and_full() {
        let s = AuraSheet::default();
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(s.aura, 20);
        assert_eq!(s.stamina, 10);
        assert_eq!(s.surges, 5);
        let mut bad = s.clone();
        bad.scores[0] = 101;
        assert!(bad.validate().is_err());
        let mut bad = s.clone();
        bad.weapons[0].damage = "lots".into();
        assert!(bad.validate().is_err());
        let mut bad = s;
        bad.size = 7;
        assert!(bad.validate().is_err());
    }
}
