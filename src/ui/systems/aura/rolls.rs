//! Energy / Aura roll panels, drawn as kit forms: a defence roll (exploding, with the edge on
//! every die), an attack (melee, shot or throw) against a target described by its numbers,
//! with the exact chances to hit, crit and hit the armor, the damage after armor and
//! multipliers, maneuvers and non-lethal damage; and the chance and initiative rolls. The same
//! [`attack_form`] draws a fight's attack, its target read from the encounter.

use super::Ctx;
use crate::rules::aura::combat::{
    kept_outcome, kept_text, roll_defence, strike, strike_odds, Kept, Maneuver, Strike, Struck,
};
use crate::rules::aura::{
    chance, crit_from, cut_off, d20_at_least, d20_table_odds, death_roll, death_save, defence_roll,
    initiative_contest, maneuver, non_lethal_from, AttackMode, DeathRoll, DeathSave, Defender,
    NonLethal, Takes, MISS_MOVE, MISS_SIZE,
};
use crate::rules::dice::{parse, Chance, DiceSource, Distribution, Edge, EXPLODE_CAP};
use crate::ui::components::bar_chart::BarChart;
use crate::ui::format::{decimal, percent};
use crate::ui::kit::{fixed, flag, form, numbered_options, text, Field};
use crate::ui::state::with_dice;
use leptos::prelude::*;

pub const EDGES: [(&str, Edge); 3] = [
    ("Normal", Edge::Normal),
    ("Advantage: best of two", Edge::Advantage),
    ("Disadvantage: worst of two", Edge::Disadvantage),
];

pub fn edge(i: i32) -> Edge {
    EDGES[i.clamp(0, 2) as usize].1
}

/// An edge as the index of [`EDGES`] (kept in an `i32` signal, a type the app already has).
pub fn edge_index(e: Edge) -> i32 {
    match e {
        Edge::Normal => 0,
        Edge::Advantage => 1,
        Edge::Disadvantage => 2,
    }
}

/// The edge in a log line: "", " (advantage)", " (disadvantage)".
pub fn edge_word(e: Edge) -> &'static str {
    match e {
        Edge::Normal => "",
        Edge::Advantage => " (advantage)",
        Edge::Disadvantage => " (disadvantage)",
    }
}

/// Both death tables with each outcome's exact chance, shown before rolling on the sheet and
/// in the fight.
pub fn death_tables() -> String {
    fn rows<T: Copy + PartialEq>(
        t: Vec<(u32, u32, T, Chance)>,
        short: fn(T) -> &'static str,
    ) -> String {
        t.into_iter()
            .map(|(lo, hi, o, c)| {
                let faces = if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}–{hi}")
                };
                format!("{faces} {} {}", short(o), percent(c))
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }
    format!(
        "Death roll (d20, each time damaged at 0 aura): {}. Death save (d20, each round while bleeding out): {}. Gaining aura stabilizes.",
        rows(d20_table_odds(&DeathRoll::TABLE, death_roll), DeathRoll::short),
        rows(d20_table_odds(&DeathSave::TABLE, death_save), DeathSave::short),
    )
}

/// An attack rolled on a sheet, into the roll log: the combat or hit roll, then the damage and
/// the chance roll for non-lethal damage when they were rolled.
pub fn log_attack(ctx: Ctx, name: &str, x: &Rolled) {
    let what = if x.st.melee {
        "combat roll"
    } else {
        "hit roll"
    };
    let how = match (x.r.hit, x.r.crit) {
        (true, true) => "critical hit",
        (true, false) => "hit",
        (false, _) => "miss",
    };
    ctx.log(
        format!("{name}: {what}{}, {how}", edge_word(x.st.edge)),
        kept_outcome(20, &[x.r.d20_kept()], 0),
    );
    if let Some(d) = &x.r.damage {
        ctx.log(format!("{name}: damage, {} dealt", x.r.dealt), d.clone());
    }
    if let Some(c) = x.chance {
        ctx.log(
            format!(
                "{name}: chance roll for non-lethal, {}",
                if x.non_lethal { "non-lethal" } else { "lethal" }
            ),
            crate::rules::dice::RollOutcome::single(20, c),
        );
    }
}

fn edges() -> Signal<Vec<(i32, String)>> {
    numbered_options(EDGES.iter().map(|e| e.0.to_owned()))
}

type Value = fn(&crate::rules::aura::AuraSheet) -> i32;

/// The five defences: (name, die, value from the sheet).
pub const DEFENCES: [(&str, u32, Value); 5] = [
    ("Evasion", 10, |s| s.evasion().0),
    ("Ranged evasion", 4, |s| s.ranged_evasion().0),
    ("Unarmed evasion", 10, |s| s.unarmed_evasion().0),
    ("Fortitude", 10, |s| s.fortitude().0),
    ("Will", 10, |s| s.will().0),
];

/// A defence roll: 1d10* or 1d4* + the defence, with the edge on every die.
pub fn defence(ctx: Ctx, which: usize) -> AnyView {
    let (name, sides, value) = DEFENCES[which.min(4)];
    let e = RwSignal::new(0);
    let target = RwSignal::new(0);
    let result = RwSignal::new(String::new());
    let dist = move || defence_roll(sides, edge(e.get()), ctx.sheet.with(value));
    let odds = text(move || {
        let d = dist();
        let mut out = format!(
            "1d{sides}* + {}: {} and up, average {}",
            ctx.sheet.with(value),
            d.min(),
            decimal(d.mean())
        );
        let t = target.get();
        if t > 0 {
            out.push_str(&format!(
                " · {t} or more: {}",
                percent(d.at_least(i64::from(t)))
            ));
        }
        out
    });
    let cap = text(move || {
        format!(
            "A top face rolls again and adds, at most {EXPLODE_CAP} times; the cut-off leaves out {} of the outcomes.",
            percent(chance(cut_off(sides, edge(e.get())), 1.0))
        )
    });
    let roll = move || {
        let v = ctx.sheet.with_untracked(value);
        let ed = edge(e.get_untracked());
        let Ok((rolls, sum)) = with_dice(|src| roll_defence(sides, ed, src)) else {
            return result.set("The dice could not be rolled here.".into());
        };
        result.set(format!(
            "{name}: {} {v:+} = {}",
            kept_text(&rolls),
            sum + i64::from(v)
        ));
        ctx.log(
            format!("{name} 1d{sides}*{v:+}{}", edge_word(ed)),
            kept_outcome(sides, &rolls, i64::from(v)),
        );
    };
    view! {
        {form(
            name,
            vec![
                Field::Pick("Roll", edges(), e),
                Field::Num("Against (0: none)", target, 0, 1000),
                Field::Text("chance", "defence-odds", odds),
                Field::Text("muted", "explode-cap", cap),
                Field::Act(fixed("Roll"), "btn primary roll-btn", "roll-defence", Signal::stored(false), Callback::new(move |()| roll())),
                Field::Text("result-line", "defence-result", result.into()),
            ],
        )}
        <BarChart dist=crate::ui::kit::dist(dist) target=crate::ui::kit::target(move || {
            let t = target.get();
            (t > 0).then_some(i64::from(t))
        })/>
    }
    .into_any()
}

/// The attacker's side of an attack, fixed when the panel opens.
#[derive(Clone)]
pub struct Attacker {
    pub name: String,
    pub mode: AttackMode,
    /// Melee: the AV; shot or throw: the miss chance modifier.
    pub value: i32,
    pub precise: i32,
    pub dice: String,
    pub bonus: i32,
    pub halvings: u32,
    pub improvised_throw: bool,
    pub blunt: bool,
    pub unarmed: bool,
    /// Energy it costs (shown).
    pub energy: i32,
    /// The AV of an unarmed attack (restrain and push are made unarmed).
    pub unarmed_av: i32,
}

/// The target's side: read from its signals (typed on a sheet, from the fight in an encounter).
#[derive(Clone, Copy)]
pub struct Target {
    pub defence: Signal<i32>,
    pub fortitude: Signal<i32>,
    /// The target's evasion roll edge and fortitude roll edge, indexes of [`EDGES`].
    pub edge: Signal<i32>,
    pub fort_edge: Signal<i32>,
    /// The attacker's conditions give its attack rolls disadvantage (dazed, blinded).
    pub worse: Signal<bool>,
    /// A swift attack: a maneuver gives no advantage and leaves no one unguarded.
    pub swift: Signal<bool>,
    /// The target's size (an index of `MISS_SIZE`) when known (a fight); a sheet picks it.
    pub size: Option<Signal<i32>>,
    /// Why the attack cannot be made now (the pools); empty when it can.
    pub refuse: Signal<String>,
    pub defending: Signal<bool>,
    pub exposed: Signal<bool>,
    pub coverage: Signal<i32>,
    pub ar: Signal<i32>,
    pub aura: Signal<i32>,
    /// The target rolls no defence: every attack hits (helpless; unconscious against melee).
    pub auto_hit: Signal<bool>,
    /// The maneuver picked (0 none, then `Maneuver::ALL` from 1): the owner reads it for
    /// its refusals.
    pub maneuver: RwSignal<i32>,
}

/// The choices of one attack that are not the target's numbers.
#[derive(Clone, Copy)]
struct Choices {
    my_edge: RwSignal<i32>,
    resists: RwSignal<bool>,
    weak: RwSignal<bool>,
    size: RwSignal<i32>,
    moving: RwSignal<i32>,
    band: RwSignal<i32>,
    widen: RwSignal<i32>,
    man: RwSignal<i32>,
    try_nl: RwSignal<bool>,
}

/// The maneuver picked in `man` (0: none).
pub fn maneuver_at(man: i32) -> Option<Maneuver> {
    (man > 0).then(|| Maneuver::ALL[(man - 1).clamp(0, 3) as usize])
}

const BANDS: [&str; 3] = [
    "Within the first range: advantage",
    "Up to the second range",
    "Past the second range: disadvantage",
];

fn maneuver_of(c: Choices) -> Option<Maneuver> {
    maneuver_at(c.man.get())
}

/// The strike the odds are shown for and the roll makes. A maneuver is made at its full AV
/// (unarmed for restrain and push); the roll takes its −5 off.
fn strike_of(a: &Attacker, t: Target, c: Choices) -> Option<Strike> {
    let melee = a.mode == AttackMode::Melee;
    let damage = parse(&a.dice).ok();
    let man = maneuver_of(c);
    let widen = if man.is_some() {
        0
    } else {
        c.widen.get().clamp(0, 4)
    };
    let mut my_edge = edge(c.my_edge.get());
    if !melee {
        my_edge = match (my_edge, c.band.get()) {
            (Edge::Normal, 0) => Edge::Advantage,
            (Edge::Normal, 2) => Edge::Disadvantage,
            (Edge::Advantage, 2) | (Edge::Disadvantage, 0) => Edge::Normal,
            (e, _) => e,
        };
    }
    if t.worse.get() {
        my_edge = match my_edge {
            Edge::Advantage => Edge::Normal,
            _ => Edge::Disadvantage,
        };
    }
    let size = t.size.map_or_else(|| c.size.get(), |s| s.get());
    let value = if melee {
        let av = if man.is_some_and(Maneuver::unarmed) {
            a.unarmed_av
        } else {
            a.value
        };
        av - 3 * widen
    } else {
        a.value
            + MISS_SIZE[size.clamp(0, 7) as usize].1
            + MISS_MOVE[c.moving.get().clamp(0, 2) as usize].1
            + 3 * widen
    };
    // Against a target that is not exposed, a maneuver (not swift) meets advantage on the
    // target's first defence roll.
    let mut def_edge = edge(t.edge.get());
    if man.is_some() && !t.exposed.get() && !t.swift.get() {
        def_edge = match def_edge {
            Edge::Disadvantage => Edge::Normal,
            _ => Edge::Advantage,
        };
    }
    Some(Strike {
        melee,
        value,
        precise: a.precise,
        edge: my_edge,
        def_sides: if melee { 10 } else { 4 },
        def_edge,
        defence: t.defence.get(),
        wins_ties: t.defending.get(),
        coverage: t.coverage.get(),
        ar: t.ar.get(),
        damage: if man.is_some() { None } else { Some(damage?) },
        bonus: a.bonus,
        halvings: a.halvings,
        improvised_throw: a.improvised_throw,
        takes: Takes::from(c.resists.get(), c.weak.get()),
        auto_hit: t.auto_hit.get(),
    })
}

/// The non-lethal kind of an attack.
fn non_lethal_kind(a: &Attacker) -> NonLethal {
    if a.unarmed {
        NonLethal::Unarmed
    } else if a.mode != AttackMode::Melee {
        NonLethal::Ranged
    } else if a.blunt {
        NonLethal::Blunt
    } else {
        NonLethal::Melee
    }
}

/// An attack as rolled, for the panel's owner to apply.
pub struct Rolled {
    pub st: Strike,
    pub r: Struck,
    pub m: Option<Maneuver>,
    /// The target's fortitude roll against a maneuver.
    pub fort: Option<i64>,
    /// The damage is non-lethal (unarmed, or the chance roll made it).
    pub non_lethal: bool,
    /// The chance roll for non-lethal damage, when one was made.
    pub chance: Option<u32>,
    /// The rolls in one line.
    pub line: String,
}

/// What an attack panel does with a roll: gets the strike, what was rolled, the maneuver (if
/// any) and the target's fortitude roll for it; returns the line to show.
pub type OnRoll = std::sync::Arc<dyn Fn(&Rolled) -> String + Send + Sync>;

/// An attack panel.
pub fn attack_form(a: Attacker, t: Target, target_fields: Vec<Field>, on_roll: OnRoll) -> AnyView {
    let c = Choices {
        my_edge: RwSignal::new(0),
        resists: RwSignal::new(false),
        weak: RwSignal::new(false),
        size: RwSignal::new(2),
        moving: RwSignal::new(1),
        band: RwSignal::new(1),
        widen: RwSignal::new(0),
        man: t.maneuver,
        try_nl: RwSignal::new(false),
    };
    let result = RwSignal::new(String::new());
    let melee = a.mode == AttackMode::Melee;
    let held = std::sync::Arc::new(a.clone());
    let h1 = held.clone();
    let h2 = held.clone();
    let spec = std::sync::Arc::new(move || strike_of(&h1, t, c));
    let (s1, s2, s3, s4) = (spec.clone(), spec.clone(), spec.clone(), spec);
    let odds = text(move || {
        let Some(st) = s1() else {
            return "This weapon's damage is not dice: fix it in Edit.".into();
        };
        let (o, dmg) = strike_odds(&st, t.aura.get());
        let crits = crit_from(st.precise);
        let mut out = format!(
            "{}: hit {} (critical {}{}, on the armor {}) · miss {} · you are exposed {}",
            if st.auto_hit {
                "No defence roll: every combat or hit roll hits".to_owned()
            } else if melee {
                format!("AV {} vs 1d10*{:+}", st.value, st.defence)
            } else {
                format!("d20 ≥ {} + 1d4*{:+}", st.value, st.defence)
            },
            percent(chance(o.hit(), o.miss)),
            percent(chance(o.crit(), o.total() - o.crit())),
            if crits < 20 {
                format!(" on {crits}+")
            } else {
                String::new()
            },
            percent(chance(o.hit_armor, o.total() - o.hit_armor)),
            percent(chance(o.miss, o.hit())),
            percent(chance(o.exposed, 1.0 - o.exposed)),
        );
        let a3 = &held;
        if let Some(m) = maneuver_of(c) {
            // The same strike the roll makes: its defence edge already has the advantage.
            let d = Defender {
                roll: defence_roll(10, st.def_edge, st.defence),
                wins_ties: st.wins_ties,
                coverage: 0,
                ar: 0,
            };
            let fort = defence_roll(10, edge(t.fort_edge.get()), t.fortitude.get());
            let (hit, works) = maneuver(
                st.value,
                st.precise,
                st.edge,
                &d,
                m.saves().then_some(&fort),
                st.auto_hit,
            );
            return format!(
                "{}: AV {} − 5 to hit{}: hits {} · works {}{}",
                m.name(),
                st.value,
                if m.saves() {
                    format!(
                        ", then fortitude 1d10*{:+} must beat AV {}",
                        t.fortitude.get(),
                        st.value
                    )
                } else {
                    String::new()
                },
                percent(hit),
                percent(works),
                if t.exposed.get() || t.swift.get() {
                    ""
                } else {
                    " (not exposed: its first roll has advantage, and you end unguarded)"
                }
            );
        }
        if let Some((d, drop)) = dmg {
            out.push_str(&format!(
                "\nDamage if it hits: {} to {}, average {}",
                d.min(),
                d.max(),
                decimal(d.mean())
            ));
            if t.aura.get() > 0 {
                out.push_str(&format!(
                    " · takes {} aura to 0: {}",
                    t.aura.get(),
                    percent(drop)
                ));
            }
        }
        let w = c.widen.get();
        if w > 0 || a3.unarmed || c.try_nl.get() {
            let from = non_lethal_from(non_lethal_kind(a3), w as u32);
            out.push_str(&format!(
                "\nNon-lethal on a chance roll of {from}+: {}",
                percent(d20_at_least(from))
            ));
        }
        out
    });
    let dist = move || {
        s2().and_then(|st| strike_odds(&st, 0).1)
            .map_or_else(|| Distribution::point(0), |(d, _)| d)
    };
    let roll = move || {
        let Some(mut st) = s3() else { return };
        let m = maneuver_of(c);
        if m.is_some() {
            st.value -= 5;
        }
        let nl_from = non_lethal_from(
            non_lethal_kind(&h2),
            c.widen.get_untracked().clamp(0, 4) as u32,
        );
        let try_nl = c.try_nl.get_untracked() && m.is_none();
        let out = with_dice(|src| {
            let struck = strike(&st, src);
            let fort = m.filter(|m| m.saves() && struck.hit).map(|_| {
                let (_, sum) = roll_defence(10, edge(t.fort_edge.get_untracked()), src);
                sum + i64::from(t.fortitude.get_untracked())
            });
            let chance_roll = (try_nl && nl_from > 1 && struck.hit).then(|| src.roll(20));
            (struck, fort, chance_roll)
        });
        let Ok((r, fort, chance_roll)) = out else {
            return result.set("The dice could not be rolled here.".into());
        };
        let mut line = r.line(&st);
        if let Some(f) = fort {
            line.push_str(&format!("; the target's fortitude roll {f}"));
        }
        let non_lethal = try_nl && r.hit && chance_roll.is_none_or(|d| d as i32 >= nl_from);
        if let Some(d) = chance_roll {
            line.push_str(&format!(
                "; chance roll {d} vs {nl_from}: {}",
                if non_lethal { "non-lethal" } else { "lethal" }
            ));
        }
        let rolled = Rolled {
            st,
            r,
            m,
            fort,
            non_lethal,
            chance: chance_roll,
            line,
        };
        result.set(on_roll(&rolled));
    };
    let mut fields = vec![Field::Text(
        "muted",
        "attack-what",
        Signal::stored(format!(
            "{} · {} energy{}",
            a.name,
            a.energy,
            if a.halvings > 0 {
                " · without proficiency: half damage"
            } else {
                ""
            }
        )),
    )];
    fields.push(Field::Pick(
        if melee {
            "Your combat roll"
        } else {
            "Your hit roll"
        },
        edges(),
        c.my_edge,
    ));
    fields.extend(target_fields);
    fields.push(Field::Tick("The target resists this damage", c.resists));
    fields.push(Field::Tick("The target is weak to it", c.weak));
    if !melee {
        fields.push(Field::Pick(
            "Distance",
            numbered_options(BANDS.iter().map(|b| (*b).to_owned())),
            c.band,
        ));
        if t.size.is_none() {
            fields.push(Field::Pick(
                "Target size",
                numbered_options(MISS_SIZE.iter().map(|s| format!("{} ({:+})", s.0, s.1))),
                c.size,
            ));
        }
        fields.push(Field::Pick(
            "Target movement",
            numbered_options(MISS_MOVE.iter().map(|s| format!("{} ({:+})", s.0, s.1))),
            c.moving,
        ));
    }
    fields.push(Field::Tick("Try for non-lethal damage", c.try_nl));
    fields.push(Field::Num(
        if melee {
            "Non-lethal: −3 AV steps"
        } else {
            "Non-lethal: +3 miss steps"
        },
        c.widen,
        0,
        4,
    ));
    if melee {
        fields.push(Field::Pick(
            "Maneuver",
            numbered_options(
                std::iter::once("None: a damaging attack".to_owned())
                    .chain(Maneuver::ALL.iter().map(|m| m.name().to_owned())),
            ),
            c.man,
        ));
    }
    fields.push(Field::Text("chance pre", "attack-odds", odds));
    fields.push(Field::Text("field-error", "attack-refused", t.refuse));
    fields.push(Field::Act(
        fixed("Roll the attack"),
        "btn primary roll-btn",
        "roll-attack",
        flag(move || s4().is_none() || !t.refuse.with(String::is_empty)),
        Callback::new(move |()| roll()),
    ));
    fields.push(Field::Text("result-line", "attack-result", result.into()));
    view! {
        {form("Attack", fields)}
        <BarChart dist=crate::ui::kit::dist(dist) target=crate::ui::kit::target(move || {
            let a = t.aura.get();
            (a > 0).then_some(i64::from(a))
        })/>
    }
    .into_any()
}

/// The target typed in (a sheet's attack): its fields and signals.
pub fn typed_target(melee: bool) -> (Target, Vec<Field>) {
    let [defence, fortitude, coverage, ar, aura] =
        [if melee { 10 } else { 1 }, 11, 0, 0, 0].map(RwSignal::new);
    let e = RwSignal::new(0);
    let [defending, exposed, auto_hit] = [false, false, false].map(RwSignal::new);
    let t = Target {
        defence: defence.into(),
        fortitude: fortitude.into(),
        edge: e.into(),
        fort_edge: e.into(),
        worse: Signal::stored(false),
        swift: Signal::stored(false),
        size: None,
        refuse: Signal::stored(String::new()),
        defending: defending.into(),
        exposed: exposed.into(),
        coverage: coverage.into(),
        ar: ar.into(),
        aura: aura.into(),
        auto_hit: auto_hit.into(),
        maneuver: RwSignal::new(0),
    };
    let fields = vec![
        Field::Pair(vec![
            Field::Num(
                if melee {
                    "Target evasion"
                } else {
                    "Target ranged evasion"
                },
                defence,
                -100,
                1000,
            ),
            Field::Num("Target aura (0: none)", aura, 0, 10_000),
            Field::Num(
                if melee {
                    "Target coverage (AC)"
                } else {
                    "Target ranged AC"
                },
                coverage,
                0,
                100,
            ),
            Field::Num("Target AR", ar, 0, 100),
            Field::Num("Target fortitude", fortitude, -100, 1000),
        ]),
        Field::Pick("Target's defence roll", edges(), e),
        Field::Tick("The target is defending (wins ties)", defending),
        Field::Tick("The target is exposed", exposed),
        Field::Tick(
            "The target rolls no defence (helpless; unconscious against melee)",
            auto_hit,
        ),
    ];
    (t, fields)
}

/// The chance roll (d20 vs a DC) and an initiative roll against another's bonus.
pub fn luck(ctx: Ctx) -> AnyView {
    let dc = RwSignal::new(10);
    let theirs = RwSignal::new(0);
    let result = RwSignal::new(String::new());
    let mine = move || ctx.sheet.with(|s| s.initiative_bonus().0);
    let odds = text(move || {
        let (w, l) = initiative_contest(mine(), theirs.get());
        format!(
            "Chance roll d20 ≥ {}: {} · Initiative d20{:+} against d20{:+}: win {} · lose {} (a tie loses)",
            dc.get(),
            percent(d20_at_least(dc.get())),
            mine(),
            theirs.get(),
            percent(w),
            percent(l)
        )
    });
    let roll = move |what: u8| {
        let Ok(f) = with_dice(|src| crate::rules::dice::DiceSource::roll(src, 20)) else {
            return;
        };
        let (line, expr, bonus) = if what == 0 {
            let dc = dc.get_untracked();
            let how = if f as i32 >= dc { "success" } else { "failure" };
            (
                format!("Chance roll: {f} vs DC {dc}: {how}"),
                format!("Chance roll d20 vs DC {dc}: {how}"),
                0,
            )
        } else {
            let b = mine();
            (
                format!("Initiative: {f}{b:+} = {}", f as i32 + b),
                format!("Initiative d20{b:+}"),
                b,
            )
        };
        result.set(line);
        ctx.log(
            expr,
            kept_outcome(
                20,
                &[Kept {
                    faces: vec![f],
                    kept: f,
                }],
                i64::from(bonus),
            ),
        );
    };
    form(
        "Chance and initiative",
        vec![
            Field::Pair(vec![
                Field::Num("Chance DC", dc, 1, 21),
                Field::Num("Their initiative bonus", theirs, -100, 100),
            ]),
            Field::Text("chance", "luck-odds", odds),
            Field::Pair(vec![
                Field::Act(
                    fixed("Chance roll"),
                    "btn",
                    "roll-chance",
                    Signal::stored(false),
                    Callback::new(move |()| roll(0)),
                ),
                Field::Act(
                    fixed("Initiative roll"),
                    "btn",
                    "roll-initiative-d20",
                    Signal::stored(false),
                    Callback::new(move |()| roll(1)),
                ),
            ]),
            Field::Text("result-line", "luck-result", result.into()),
        ],
    )
}

/// What a sheet's weapon brings to an attack in `mode`.
pub fn attacker(s: &crate::rules::aura::AuraSheet, w: Option<usize>, mode: AttackMode) -> Attacker {
    match w.and_then(|i| s.weapons.get(i)) {
        None => Attacker {
            name: "Unarmed".into(),
            mode: AttackMode::Melee,
            value: s.unarmed_av().0,
            precise: 0,
            dice: "0".into(),
            bonus: s.unarmed_damage().0,
            halvings: 0,
            improvised_throw: false,
            blunt: true,
            unarmed: true,
            energy: 2,
            unarmed_av: s.unarmed_av().0,
        },
        Some(w) => {
            let halvings = u32::from(!s.proficient(w));
            let (value, energy) = match mode {
                AttackMode::Melee => (s.melee_av(w).0, 3),
                AttackMode::Shot => (s.miss_modifier(w, false).0, s.shot_energy(w)),
                AttackMode::Thrown => (s.miss_modifier(w, true).0, 1),
            };
            let range = s.range(w, mode);
            let name = match mode {
                AttackMode::Melee => format!("{} in melee", w.name),
                AttackMode::Shot => format!(
                    "{} shot, range {}/{}/{}",
                    w.name, range[0], range[1], range[2]
                ),
                AttackMode::Thrown => format!(
                    "{} thrown, range {}/{}/{}",
                    w.name, range[0], range[1], range[2]
                ),
            };
            Attacker {
                name,
                mode,
                value,
                precise: w.precise,
                dice: w.damage.clone(),
                bonus: s.damage_bonus(w, mode).0,
                halvings,
                improvised_throw: mode == AttackMode::Thrown && !w.thrown,
                blunt: w.blunt,
                unarmed: false,
                energy,
                unarmed_av: s.unarmed_av().0,
            }
        }
    }
}
