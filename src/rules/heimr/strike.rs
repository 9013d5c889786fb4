//! One Heimr attack as the attacker chooses it ([`Strike`]): planned against the fight as it
//! is (the guard that steps in, a shot's cluster, a defence rolled now from a blind spot),
//! its exact chances before the roll ([`preview`]), and rolled into the fight's events
//! ([`strike_events`]). The referee's `Attack` is this; no panel works an attack out itself.

use super::challenge::roll_challenge;
use super::combat::{
    anyone, attack_setup, attack_steps, blind_spot_setup, brawl_chances, describe, dodged,
    fatigue_rise_now, hit_chance, hit_vs_roll, intercept_events, interceptor, luck_shot,
    pass_on_chances, resolve_attack, shown, shown_text, standing, weapon, Defence, Kind, Options,
    Part, Redone, Shown, FATIGUE,
};
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
}

impl Strike {
    /// The options the rules read, within their ranges; or why not.
    fn options(&self, s: &State) -> Result<Options, String> {
        let ok = self.kind < 3
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
            kind: [Kind::Weapon, Kind::BrawlHit, Kind::BrawlBind][self.kind as usize],
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
            if m.len() > 1 {
                return Err("an attack from a blind spot is worked out against its target alone: clear the cluster".into());
            }
            let (_, ds) = blind_spot_setup(s, t)?;
            Some((ds.c.value, ds.p.value, ds.fatigue))
        } else {
            None
        };
        for x in guard.into_iter().chain([t]) {
            if let (
                true,
                Shown::Ready {
                    kind: Defence::Parry,
                    ..
                },
            ) = (ranged, shown(s, x))
            {
                return Err(format!(
                    "{} shows a parry, which cannot stop a shot: it rolls a dodge or block first",
                    s.name(x)
                ));
            }
        }
        let mut text = format!(
            "C {} · P {} · fatigue {} · against {}",
            st.c.text(),
            st.p.text(),
            st.fatigue,
            shown_text(s, first)
        );
        if let Some((dc, dp, _)) = redo {
            text.push_str(&format!(" · its defence rolled now: C {dc} · P {dp}"));
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
    let steps = attack_steps(s, pl.guard, m, c, pl.ranged, o.undefended);
    let mut out = Preview {
        text: pl.text.clone(),
        hits: Vec::new(),
        others: None,
        weak: None,
        rise: fatigue_rise_now(a),
    };
    if steps.len() > 1 {
        // A shot that may go on: the guard's dodge passes it to the one it guards with the
        // same roll; a cluster's dodges pass it on to a re-roll at one C more.
        let odds: Vec<(Shown, Option<i32>)> = steps.iter().map(|x| (x.shown, x.roll)).collect();
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
        let (full, weak) = match pl.redo {
            Some(d) => hit_vs_roll(c, p, f, d),
            None if o.kind == Kind::Weapon => (hit_chance(c, p, f, def), Chance::Impossible),
            None => brawl_chances(c, p, f, def),
        };
        out.hits = vec![(steps[0].who, luck(full))];
        if o.kind != Kind::Weapon {
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
    let mut redone = None;
    if let Some((dc, dp, _)) = pl.redo {
        let dr = roll_challenge(dc, dp, src);
        all.push(Event::Note(format!(
            "{} defends from its blind spot, rolled now: {}",
            s.name(m[0]),
            describe(&dr)
        )));
        redone = Some(Redone::from_roll(&dr));
    }
    let steps = attack_steps(s, pl.guard, m, pl.c, pl.ranged, o.undefended);
    let mut r = None;
    for (i, step) in steps.iter().enumerate() {
        let guard = pl.guard == Some(step.who);
        if guard {
            all.extend(intercept_events(s, step.who, who, m[0]));
        }
        let target = step.who == m[0] && !guard;
        let oi = Options {
            follow_up: i > 0,
            undefended: o.undefended && target,
            blind_spot: o.blind_spot && target,
            redone: redone.filter(|_| target),
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
            all.extend(
                s.conditions_of(step.who)
                    .filter(|a| a.name == "Undefended")
                    .map(|a| Event::Remove(a.cid)),
            );
        }
        if !dodged(out, step.shown) {
            break;
        }
        r = Some(roll);
    }
    Ok(Event::Batch(all))
}
