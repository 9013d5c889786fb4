//! Energy / Aura roll panels, drawn as kit forms: a defence roll (exploding, with the edge on
//! every die), an attack (melee, shot or throw) against a target described by its numbers,
//! with the exact chances to hit, crit and hit the armor, the damage after armor and
//! multipliers, maneuvers and non-lethal damage; and the chance and initiative rolls. The same
//! [`attack_form`] draws a fight's attack, its target read from the encounter.

use super::Ctx;
use crate::rules::aura::combat::{
    kept_outcome, kept_text, roll_defence, strike_odds, Kept, Maneuver,
};
use crate::rules::aura::strike::{heading, roll_attack, strike_of, Aim, Attacker, Foe, Rolled};
use crate::rules::aura::{
    chance, crit_from, cut_off, d20_at_least, d20_table_odds, death_roll, death_save, defence_roll,
    initiative_contest, maneuver, AttackMode, DeathRoll, DeathSave, Defender, MISS_MOVE, MISS_SIZE,
};
use crate::rules::dice::{Chance, Distribution, Edge, EXPLODE_CAP};
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

/// The target's side of an attack panel: its numbers (typed on a sheet, from the fight in an
/// encounter), why the attack cannot be made now (empty when it can), and the maneuver picked
/// (0 none, then `Maneuver::ALL` from 1), which the owner reads for its refusals.
#[derive(Clone, Copy)]
pub struct Target {
    pub foe: Signal<Foe>,
    pub refuse: Signal<String>,
    pub maneuver: RwSignal<i32>,
    /// What the result line shows: the fight's own log line of the attack; `None`, the line
    /// the roll returns (a sheet's roll).
    pub said: Option<Signal<String>>,
    /// A target whose numbers the GM keeps (a player's phone at the table): no odds here.
    pub veiled: Signal<bool>,
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
    on_the_move: RwSignal<bool>,
    fling: RwSignal<bool>,
}

impl Choices {
    /// The choices as the rules take them (tracked).
    fn aim(self) -> Aim {
        let n = |x: RwSignal<i32>| x.get().max(0) as u32;
        Aim {
            my_edge: n(self.my_edge),
            resists: self.resists.get(),
            weak: self.weak.get(),
            size: n(self.size),
            moving: n(self.moving),
            band: n(self.band),
            widen: n(self.widen),
            maneuver: n(self.man),
            try_nl: self.try_nl.get(),
            on_the_move: self.on_the_move.get(),
            fling: self.fling.get(),
        }
    }
}

const BANDS: [&str; 3] = [
    "Within the first range: advantage",
    "Up to the second range",
    "Past the second range: disadvantage",
];

/// What an attack panel does with the roll button: gets the choices; returns the line to show.
pub type OnRoll = std::sync::Arc<dyn Fn(Aim) -> String + Send + Sync>;

/// A sheet's attack, rolled here against the typed target and logged.
pub fn sheet_roll(ctx: Ctx, a: Attacker, foe: Signal<Foe>) -> OnRoll {
    std::sync::Arc::new(move |aim| {
        let f = foe.get_untracked();
        match with_dice(|src| roll_attack(&a, &f, &aim, src)) {
            Ok(Some(r)) => {
                log_attack(ctx, &a.name, &r);
                r.line
            }
            Ok(None) => "This weapon's damage is not dice: fix it in Edit.".into(),
            Err(_) => "The dice could not be rolled here.".into(),
        }
    })
}

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
        on_the_move: RwSignal::new(false),
        fling: RwSignal::new(false),
    };
    let result = RwSignal::new(String::new());
    let melee = a.mode == AttackMode::Melee;
    let held = std::sync::Arc::new(a.clone());
    let h1 = held.clone();
    let h2 = held.clone();
    let spec = std::sync::Arc::new(move || t.foe.with(|f| strike_of(&h1, f, &c.aim())));
    let (s1, s2, s4) = (spec.clone(), spec.clone(), spec);
    let odds = text(move || {
        if t.veiled.get() {
            return crate::rules::referee::GM_ODDS.into();
        }
        let Some(st) = s1() else {
            return "This weapon's damage is not dice: fix it in Edit.".into();
        };
        let foe = t.foe.get();
        let (o, dmg) = strike_odds(&st, foe.aura);
        let crits = crit_from(st.precise);
        let mut out = format!(
            "{}: hit {} (critical {}{}, on the armor {}) · miss {} · you are exposed {}",
            if st.auto_hit {
                "No defence roll: every combat or hit roll hits".to_owned()
            } else if melee {
                format!("AV {} vs 1d10*{:+}", st.value, st.defence)
            } else if st.def_sides == 0 {
                format!(
                    "d20 ≥ {} (unaware of the shot: no ranged evasion roll)",
                    st.value
                )
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
        if let Some(m) = c.aim().maneuver().filter(|_| st.melee) {
            // The same strike the roll makes: its defence edge already has the advantage.
            let d = Defender {
                roll: defence_roll(10, st.def_edge, st.defence),
                wins_ties: st.wins_ties,
                coverage: 0,
                ar: 0,
            };
            let fort = defence_roll(10, c.aim().fort_edge(foe.fort_edge), foe.fortitude);
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
                        foe.fortitude, st.value
                    )
                } else {
                    String::new()
                },
                percent(hit),
                percent(works),
                if foe.exposed || foe.swift {
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
            if foe.aura > 0 {
                out.push_str(&format!(
                    " · takes {} aura to 0: {}",
                    foe.aura,
                    percent(drop)
                ));
            }
        }
        // Only for what will be rolled: an attack that tries for non-lethal damage.
        if let Some(from) = c.aim().non_lethal_from(a3) {
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
        let aim = untrack(|| c.aim());
        result.set(on_roll(aim));
    };
    let mut fields = vec![Field::Text(
        "muted",
        "attack-what",
        text(move || heading(&h2, t.foe.with(|f| f.swift), c.aim().maneuver())),
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
        if untrack(|| t.foe.with(|f| f.size.is_none())) {
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
        fields.push(Field::Tick(
            "Trip: the target is on the move",
            c.on_the_move,
        ));
        fields.push(Field::Tick(
            "Disarm: fling the weapon 2 m (1 agility)",
            c.fling,
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
    fields.push(Field::Text(
        "result-line",
        "attack-result",
        t.said.unwrap_or(result.into()),
    ));
    view! {
        {form("Attack", fields)}
        <BarChart dist=crate::ui::kit::dist(dist) target=crate::ui::kit::target(move || {
            let a = t.foe.with(|f| f.aura);
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
    let foe = Signal::derive(move || Foe {
        defence: defence.get(),
        edge: edge(e.get()),
        fortitude: fortitude.get(),
        fort_edge: edge(e.get()),
        worse: false,
        swift: false,
        size: None,
        defending: defending.get(),
        exposed: exposed.get(),
        coverage: coverage.get(),
        ar: ar.get(),
        aura: aura.get(),
        auto_hit: auto_hit.get(),
        unaware: false,
    });
    let t = Target {
        foe,
        refuse: Signal::stored(String::new()),
        maneuver: RwSignal::new(0),
        said: None,
        veiled: Signal::stored(false),
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
