//! One Heimr attack as the attacker chooses it ([`Strike`]): planned against the fight as it
//! is (the guard that steps in, a shot's cluster, a defence rolled now from a blind spot),
//! its exact chances before the roll ([`preview`]), and rolled into the fight's events
//! ([`strike_events`]). The referee's `Attack` is this; no panel works an attack out itself.

use super::challenge::{dice_distribution, rise_chance, roll_challenge};
use super::combat::{
    anyone, attack_setup, attack_steps, blind_defence, brawl_chances, describe, ending,
    fatigue_rise_now, hit_chance, hit_vs_roll, intercept_events, interceptor, luck_shot,
    pass_on_chances, resolve_attack, shown, shown_text, standing, weapon, Defence, Kind, Options,
    Outcome, Part, Redone, Setup, Shown, DEF_D6, FATIGUE, PASSED_BY, WEAPON,
};
use super::sheet::FATIGUE_MAX;
use crate::rules::dice::{Chance, DiceSource};
use crate::rules::encounter::{Event, State};

/// An attack as chosen: the target, the attack's kind (0 weapon, 1 brawl hit, 2 brawl grab),
/// the body part aimed at (0: where the d6 falls, else 1 + its index in `Part::ALL`), the
/// table's modifiers, and for a shot the others in the target's cluster.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Strike {
    pub target: u32,
    pub kind: u32,
    pub part: u32,
    pub distance: i32,
    pub height: i32,
    pub concealment: i32,
    pub c_bonus: i32,
    pub p_bonus: i32,
    pub luck: bool,
    pub hiding: bool,
    pub blind: bool,
    pub cluster: Vec<u32>,
}

/// An attack planned against the fight as it is.
pub struct Plan {
    pub o: Options,
    /// The target, then the others of its cluster in initiative order from it.
    pub m: Vec<u32>,
    pub guard: Option<u32>,
    /// The blind-spot defence's C, P and the defender's fatigue, rolled with the attack.
    pub redo: Option<(i32, i32, i32)>,
    pub c: i32,
    pub p: i32,
    pub ranged: bool,
    /// The setup in words.
    pub text: String,
}

/// The chances of a planned attack: whom it hits (a guard, the target), anyone else of a
/// cluster, a brawl's harmless touch, and the attacker's fatigue rising.
pub struct Preview {
    pub text: String,
    pub hits: Vec<(u32, Chance)>,
    pub others: Option<Chance>,
    pub weak: Option<Chance>,
    pub rise: Chance,
    /// A brawl at an armed foe: the chance of getting past its provoked attack ([`provoked`]);
    /// `hits` then holds the chance that attack hits the brawler.
    pub past: Option<Chance>,
    /// That brawl: the chance it gets past the provoked attack and lands in full (rolled at
    /// once).
    pub lands: Option<Chance>,
}

/// The attack a brawl provokes: `first` (the one the brawl meets) holds a melee weapon and
/// `who` has not dodged its melee attack since `first`'s turn began, so `first` attacks
/// `who` first, as if readied; only a dodge (or a blow failing on fatigue) gets `who` past it
/// (the seed, "Brawl attack"). Its C and P, or `None` when the brawl provokes nothing.
pub fn provoked(s: &State, who: u32, first: u32, kind: Kind) -> Option<Setup> {
    let b = s.get(first)?;
    let armed = b.stat(WEAPON) > 0 && weapon(b).range == 0;
    if !kind.brawl() || !armed || b.stat(PASSED_BY) == who as i32 + 1 {
        return None;
    }
    attack_setup(s, first, who, &Options::default()).ok()
}

/// The exact odds of a brawl past a provoked attack `b` (by a foe at fatigue `bf`): that
/// `who` gets past it (the blow fails on its fatigue, or misses a dodge `who` shows), that the
/// brawl then rolled (C `c`, P `p`, against the foe's `def`) lands in full, and that `who`'s
/// fatigue rises on the way: the shown defence used against the blow (its d6 below the
/// fatigue), or else the brawl's own d6 once rolled.
fn provoked_odds(
    s: &State,
    who: u32,
    b: &Setup,
    (c, p, def): (i32, i32, Option<i32>),
) -> Option<(Chance, Chance, Chance)> {
    let me = s.get(who)?;
    let (bp, bf) = (i64::from(b.p.value), i64::from(b.fatigue));
    let f = me.stat(FATIGUE);
    let may = fatigue_rise_now(me) != Chance::Impossible;
    // The shown defence: whether the blow meets one, and what stops it (a dodge that stands).
    let (meets, top, d6) = match shown(s, who) {
        Shown::Ready { kind, value, fails } => (
            true,
            (kind == Defence::Dodge && !fails).then_some(i64::from(value) - bp),
            me.stat(DEF_D6),
        ),
        Shown::None => (false, None, 0),
    };
    let rises_on_defence = meets && may && d6 < f && f < FATIGUE_MAX;
    let f_after = f + i32::from(rises_on_defence);
    let brawl = |fat: i32| brawl_chances(c, p, fat, def).0.p();
    let rise = |fat: i32, may: bool| rise_chance(fat, may).p();
    let (mut past, mut lands, mut up) = (0.0, 0.0, 0.0);
    for (v, q) in dice_distribution(b.c.value).iter().filter(|x| x.1 > 0.0) {
        if v < bf {
            // It fails on its fatigue: no defence used, the brawl rolled at the fatigue now.
            past += q;
            lands += q * brawl(f);
            up += q * rise(f, may);
        } else {
            if rises_on_defence {
                up += q;
            }
            if top.is_some_and(|t| v <= t) {
                past += q;
                lands += q * brawl(f_after);
                if !rises_on_defence {
                    up += q * rise(f_after, may);
                }
            }
        }
    }
    let chance = |x: f64| Chance::from_masses(x, (1.0 - x).max(0.0), x > 0.0, x < 1.0);
    Some((chance(past), chance(lands), chance(up)))
}

impl Strike {
    /// The options the rules read, within their ranges; or why not.
    fn options(&self, s: &State) -> Result<Options, String> {
        let ok = self.kind < 4
            && self.part <= Part::ALL.len() as u32
            && (0..=50).contains(&self.distance)
            && (-1..=1).contains(&self.height)
            && (0..=10).contains(&self.concealment)
            && (-20..=20).contains(&self.c_bonus)
            && (-20..=20).contains(&self.p_bonus)
            && self.cluster.len() < 8;
        if !ok {
            return Err("an attack option out of range".into());
        }
        Ok(Options {
            kind: Kind::ALL[self.kind as usize],
            part: self.part.checked_sub(1).map(|i| Part::ALL[i as usize]),
            distance: self.distance,
            cluster: 0,
            height: self.height,
            concealment: self.concealment,
            luck_shot: self.luck,
            from_hiding: self.hiding,
            c_bonus: self.c_bonus,
            p_bonus: self.p_bonus,
            follow_up: false,
            blind_spot: self.blind && s.has(self.target, "Blind spot"),
            redone: None,
            // The target's own choice (`Action::Undefended`), never the attacker's.
            undefended: s.has(self.target, "Undefended"),
        })
    }

    /// The attack against the fight as it is: the guard that steps in meets it first.
    pub fn plan(&self, s: &State, who: u32) -> Result<Plan, String> {
        let t = self.target;
        let mut o = self.options(s)?;
        let target = s.get(t).filter(|c| !c.dead && !c.gone && t != who);
        target.ok_or("pick someone else in the fight")?;
        let ranged = o.kind == Kind::Weapon && s.get(who).is_some_and(|c| weapon(c).range > 0);
        // The target first, then the others in its cluster in initiative order from it.
        let mut m = vec![t];
        if ranged {
            for &x in &self.cluster {
                if x == who || x == t || s.get(x).is_none_or(|c| c.dead || c.gone) {
                    return Err("a cluster of others in the fight".into());
                }
            }
            let at = s.order.iter().position(|&x| x == t).unwrap_or(0);
            m.extend(
                s.order[at..]
                    .iter()
                    .chain(&s.order[..at])
                    .filter(|x| **x != t && self.cluster.contains(x)),
            );
        }
        if m.len() > 1 {
            o.cluster = m.len() as i32;
        }
        let guard = interceptor(s, who, t);
        // A guard ticked in its ward's cluster meets the shot once, as the guard.
        m.retain(|&x| Some(x) != guard);
        let first = guard.unwrap_or(t);
        let st = attack_setup(s, who, first, &o)?;
        // From a blind spot the target rolls its defence now, at −5 C.
        let redo = if o.blind_spot {
            if let Some(g) = guard {
                return Err(format!(
                    "{} guards {}: the attack meets the guard, not a blind spot",
                    s.name(g),
                    s.name(t)
                ));
            }
            let (_, ds) = blind_defence(s, t, ranged)?;
            Some((ds.c.value, ds.p.value, ds.fatigue))
        } else {
            None
        };
        let mut text = format!(
            "C {} · P {} · fatigue {} · against {}",
            st.c.text(),
            st.p.text(),
            st.fatigue,
            shown_text(s, first)
        );
        if let Some((dc, dp, _)) = redo {
            text.push_str(&format!(" · its defence rolled now: C {dc} · P {dp}"));
        } else if ranged
            && matches!(
                shown(s, first),
                Shown::Ready {
                    kind: Defence::Parry,
                    ..
                }
            )
        {
            text.push_str(" · a parry cannot stop a shot: it dodges now and keeps the parry");
        }
        if let Some(g) = guard {
            text.push_str(&format!(
                " · {} guards {}: the attack comes to it first{}",
                s.name(g),
                s.name(t),
                if ranged {
                    " (a shot it dodges goes on)"
                } else {
                    ""
                }
            ));
        }
        Ok(Plan {
            o,
            m,
            guard,
            redo,
            c: st.c.value,
            p: st.p.value,
            ranged,
            text,
        })
    }
}

/// The exact chances of attack `st` by `who`, before the roll.
pub fn preview(s: &State, who: u32, st: &Strike) -> Result<Preview, String> {
    let pl = st.plan(s, who)?;
    let (o, m, c, p) = (pl.o, &pl.m, pl.c, pl.p);
    let a = s.get(who).ok_or("not in the fight")?;
    let f = a.stat(FATIGUE);
    let luck = |x| if o.luck_shot { luck_shot(x) } else { x };
    let steps = attack_steps(s, pl.guard, m, c, pl.ranged, (o.undefended, o.blind_spot));
    let first = pl.guard.unwrap_or(m[0]);
    let mut out = Preview {
        text: pl.text.clone(),
        hits: Vec::new(),
        others: None,
        weak: None,
        // Rolled only when a luck shot's d10 comes up.
        rise: luck(fatigue_rise_now(a)),
        past: None,
        lands: None,
    };
    if let Some(b) = provoked(s, who, first, o.kind) {
        out.text = format!(
            "{} holds a melee weapon: its attack comes first (C {} · P {}); dodge it to brawl",
            s.name(first),
            b.c.text(),
            b.p.text()
        );
        let hit = hit_chance(b.c.value, b.p.value, b.fatigue, standing(shown(s, who)));
        out.hits = vec![(who, hit)];
        let def = standing(steps[0].shown);
        if let Some((past, lands, rise)) = provoked_odds(s, who, &b, (c, p, def)) {
            out.past = Some(past);
            out.lands = Some(luck(lands));
            out.rise = luck(rise);
        }
        return Ok(out);
    }
    if steps.len() > 1 {
        // A shot that may go on: the guard's dodge passes it to the one it guards with the
        // same roll; a cluster's dodges pass it on to a re-roll at one C more.
        let odds: Vec<_> = steps.iter().map(|x| (x.shown, x.roll, x.fresh)).collect();
        let each = pass_on_chances(p, f, &odds);
        let named = 1 + usize::from(pl.guard.is_some());
        out.hits = steps[..named]
            .iter()
            .zip(&each)
            .map(|(x, &h)| (x.who, luck(h)))
            .collect();
        if m.len() > 1 {
            out.others = Some(luck(anyone(&each[named..])));
        }
    } else {
        let def = standing(steps[0].shown);
        // A defence rolled now: from a blind spot, or a dodge instead of a parry at a shot.
        let (full, weak) = match steps[0].fresh {
            Some(d) => hit_vs_roll(c, p, f, (d.c, d.p, d.fatigue)),
            None if !o.kind.brawl() => (hit_chance(c, p, f, def), Chance::Impossible),
            None => brawl_chances(c, p, f, def),
        };
        out.hits = vec![(steps[0].who, luck(full))];
        if o.kind.brawl() {
            out.weak = Some(luck(weak));
        }
    }
    Ok(out)
}

/// Attack `st` by `who`, rolled: a luck shot's d10, a blind-spot defence, then each step's
/// challenge (a dodged shot goes on). Each roll meets another combatant, whom the earlier
/// rolls did not change. A target that chose to take it undefended has done so once it meets
/// it.
pub fn strike_events(
    s: &State,
    who: u32,
    st: &Strike,
    src: &mut dyn DiceSource,
) -> Result<Event, String> {
    let pl = st.plan(s, who)?;
    let (o, m) = (pl.o, &pl.m);
    let mut all = Vec::new();
    if o.luck_shot {
        let d10 = src.roll(10);
        all.push(Event::Note(format!(
            "{} tries a luck shot: d10 {d10}{}",
            s.name(who),
            if d10 == 10 { "" } else { ": no shot" }
        )));
        if d10 != 10 {
            return Ok(Event::Batch(all));
        }
    }
    let first = pl.guard.unwrap_or(m[0]);
    if let Some(b) = provoked(s, who, first, o.kind) {
        // The foe's weapon first; the brawl itself is the next attack, once past it.
        let r = roll_challenge(b.c.value, b.p.value, src);
        let (out, e) = resolve_attack(s, first, who, &Options::default(), &r);
        all.push(Event::Note(format!(
            "{} brawls at {}, who holds a melee weapon: its attack comes first",
            s.name(who),
            s.name(first)
        )));
        if let Event::Batch(list) = e {
            all.extend(list);
        }
        let dodged = out == Outcome::Miss
            && matches!(
                shown(s, who),
                Shown::Ready {
                    kind: Defence::Dodge,
                    ..
                }
            );
        if out == Outcome::Fails || dodged {
            all.push(Event::Note(format!(
                "{} gets past the weapon: the brawl is rolled",
                s.name(who)
            )));
            all.push(Event::Set(first, PASSED_BY, who as i32 + 1));
            // The brawl itself, now, in the fight as the foe's attack left it.
            let mut after = s.clone();
            after.apply(&Event::Batch(all.clone()));
            if let Event::Batch(list) = rolled(&after, who, st, src)? {
                all.extend(list);
            }
        } else {
            all.push(Event::Note(format!("{}’s brawl attack fails", s.name(who))));
        }
        return Ok(Event::Batch(all));
    }
    rolled(s, who, st, src).map(|e| match e {
        Event::Batch(mut list) => {
            all.append(&mut list);
            Event::Batch(all)
        }
        e => e,
    })
}

/// Attack `st` by `who` after its luck shot (if any) came up: each step's challenge.
fn rolled(s: &State, who: u32, st: &Strike, src: &mut dyn DiceSource) -> Result<Event, String> {
    let pl = st.plan(s, who)?;
    let (o, m) = (pl.o, &pl.m);
    let mut all = Vec::new();
    let steps = attack_steps(
        s,
        pl.guard,
        m,
        pl.c,
        pl.ranged,
        (o.undefended, o.blind_spot),
    );
    let mut r = None;
    for (i, step) in steps.iter().enumerate() {
        let guard = pl.guard == Some(step.who);
        if guard {
            all.extend(intercept_events(s, step.who, who, m[0]));
        }
        let target = step.who == m[0] && !guard;
        // A defence rolled now (a blind spot, a dodge instead of a parry) before the attack.
        let redone = step.fresh.map(|f| {
            let dr = roll_challenge(f.c, f.p, src);
            all.push(Event::Note(format!(
                "{} {}, rolled now: {}",
                s.name(step.who),
                if o.blind_spot && target {
                    "defends from its blind spot"
                } else {
                    "dodges the shot"
                },
                describe(&dr)
            )));
            Redone::from_roll(f.kind, &dr)
        });
        let oi = Options {
            follow_up: i > 0,
            undefended: o.undefended && target,
            blind_spot: o.blind_spot && target,
            redone,
            ..o
        };
        let roll = match (step.roll, r.take()) {
            (None, Some(prev)) => prev,
            (c, _) => roll_challenge(c.unwrap_or(pl.c), pl.p, src),
        };
        let (out, e) = resolve_attack(s, who, step.who, &oi, &roll);
        if let Event::Batch(list) = e {
            all.extend(list);
        }
        if oi.undefended {
            all.extend(ending(s, step.who, "Undefended"));
        }
        if !step.passes(out) {
            break;
        }
        r = Some(roll);
    }
    Ok(Event::Batch(all))
}
