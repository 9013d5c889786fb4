use super::sheet::{progress_required, Attr, HeimrSheet};
use serde::{Deserialize, Serialize};

/// XP cost of raising a training (consistency or potential) to `level`: 5, 10, then each the
/// sum of the two before (15, 25, 40, 65, 105, …). Level 0 costs nothing. Saturates at u64::MAX.
pub fn xp_cost(level: u32) -> u64 {
    let (mut a, mut b) = (5u64, 10u64);
    match level {
        0 => 0,
        1 => a,
        _ => {
            for _ in 2..level {
                (a, b) = (b, a.saturating_add(b));
            }
            b
        }
    }
}

/// Total XP to train from 0 to `level`: 5, 15, 30, 55, 95, 160, 265, …
pub fn xp_total(level: u32) -> u64 {
    (1..=level).fold(0u64, |sum, l| sum.saturating_add(xp_cost(l)))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Track {
    Consistency,
    Potential,
}

impl Track {
    pub fn name(self) -> &'static str {
        match self {
            Track::Consistency => "consistency",
            Track::Potential => "potential",
        }
    }
}

/// One bought training level, with what undoing it needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Purchase {
    pub ability: usize,
    pub ability_name: String,
    pub track: Track,
    /// The training level reached.
    pub level: u32,
    pub cost: u32,
    /// The attribute whose progress grew.
    pub attr: Attr,
    pub prev_progress: u32,
    /// Whether the attribute rose by 1 (progress reset to 0).
    pub raised: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrainError {
    #[error("needs {need} XP, {have} available")]
    NotEnoughXp { need: u64, have: u32 },
    #[error("that ability no longer exists")]
    NoSuchAbility,
    #[error("{0} does not govern this ability")]
    NotGoverning(&'static str),
    #[error("nothing to undo")]
    NothingToUndo,
    #[error("the ability was changed since that purchase, so it cannot be undone")]
    ChangedSince,
    #[error("training is at its highest ({0} levels)")]
    TrainingAtLimit(u32),
    #[error("{0} is at its highest ({1}); this level would raise it past that")]
    AttributeAtLimit(&'static str, i32),
    #[error("{0} was changed since that purchase, so its progress cannot be given back")]
    AttributeChangedSince(&'static str),
    #[error("the XP given back would pass {0}")]
    XpAtLimit(u32),
}

fn trained_mut(sheet: &mut HeimrSheet, ability: usize, track: Track) -> Option<&mut u32> {
    let ab = sheet.abilities.get_mut(ability)?;
    Some(match track {
        Track::Consistency => &mut ab.trained_consistency,
        Track::Potential => &mut ab.trained_potential,
    })
}

/// Buys the next level of `track` on an ability: spends XP, adds 1 progress to `attr` (one of
/// the ability's governing attributes) and raises that attribute when progress reaches what the
/// next value needs. Records the purchase for [`undo_last`].
pub fn train(
    sheet: &mut HeimrSheet,
    ability: usize,
    track: Track,
    attr: Attr,
) -> Result<Purchase, TrainError> {
    let ab = sheet
        .abilities
        .get(ability)
        .ok_or(TrainError::NoSuchAbility)?;
    if !ab.attrs.contains(&attr) {
        return Err(TrainError::NotGoverning(attr.name()));
    }
    let name = ab.name.clone();
    let level = trained_mut(sheet, ability, track).map_or(0, |t| *t) + 1;
    if level > super::sheet::TRAIN_LIMIT {
        return Err(TrainError::TrainingAtLimit(super::sheet::TRAIN_LIMIT));
    }
    let a = sheet.attributes[attr.index()];
    if a.progress + 1 >= progress_required(a.value + 1) && a.value >= super::sheet::ATTR_LIMIT {
        return Err(TrainError::AttributeAtLimit(
            attr.name(),
            super::sheet::ATTR_LIMIT,
        ));
    }
    let cost = xp_cost(level);
    if cost > u64::from(sheet.xp) {
        return Err(TrainError::NotEnoughXp {
            need: cost,
            have: sheet.xp,
        });
    }
    let cost = cost as u32;
    sheet.xp -= cost;
    if let Some(t) = trained_mut(sheet, ability, track) {
        *t = level;
    }
    let a = &mut sheet.attributes[attr.index()];
    let prev_progress = a.progress;
    a.progress += 1;
    let raised = a.progress >= progress_required(a.value + 1);
    if raised {
        a.value += 1;
        a.progress = 0;
    }
    let purchase = Purchase {
        ability,
        ability_name: name,
        track,
        level,
        cost,
        attr,
        prev_progress,
        raised,
    };
    sheet.purchases.push(purchase.clone());
    Ok(purchase)
}

/// Reverses the most recent purchase exactly: XP back, training down, progress (and a raised
/// attribute) restored.
pub fn undo_last(sheet: &mut HeimrSheet) -> Result<Purchase, TrainError> {
    let p = sheet
        .purchases
        .last()
        .cloned()
        .ok_or(TrainError::NothingToUndo)?;
    let current = sheet
        .abilities
        .get(p.ability)
        .filter(|a| a.name == p.ability_name)
        .map(|a| match p.track {
            Track::Consistency => a.trained_consistency,
            Track::Potential => a.trained_potential,
        });
    if current != Some(p.level) {
        return Err(TrainError::ChangedSince);
    }
    let a = sheet.attributes[p.attr.index()];
    let value = a.value - i32::from(p.raised);
    if value < -super::sheet::ATTR_LIMIT || p.prev_progress >= progress_required(value + 1) {
        return Err(TrainError::AttributeChangedSince(p.attr.name()));
    }
    let xp = sheet
        .xp
        .checked_add(p.cost)
        .filter(|&x| x <= super::sheet::XP_LIMIT)
        .ok_or(TrainError::XpAtLimit(super::sheet::XP_LIMIT))?;
    if let Some(t) = trained_mut(sheet, p.ability, p.track) {
        *t -= 1;
    }
    let a = &mut sheet.attributes[p.attr.index()];
    a.value = value;
    a.progress = p.prev_progress;
    sheet.xp = xp;
    sheet.purchases.pop();
    Ok(p)
}

/// What buying a level would do, computed on a copy before committing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    pub purchase: Purchase,
    pub xp_after: u32,
    pub attr_value_after: i32,
    pub progress_after: u32,
    pub progress_needed: u32,
    /// Abilities whose consistency or potential change: (name, C before, C after, P before, P after).
    pub changes: Vec<(String, i32, i32, i32, i32)>,
}

impl Preview {
    pub fn of(
        sheet: &HeimrSheet,
        ability: usize,
        track: Track,
        attr: Attr,
    ) -> Result<Preview, TrainError> {
        let mut after = sheet.clone();
        let purchase = train(&mut after, ability, track, attr)?;
        let a = after.attributes[attr.index()];
        let changes = sheet
            .abilities
            .iter()
            .zip(&after.abilities)
            .filter_map(|(b, n)| {
                let (cb, ca) = (sheet.consistency(b), after.consistency(n));
                let (pb, pa) = (sheet.potential(b), after.potential(n));
                (cb != ca || pb != pa).then(|| (b.name.clone(), cb, ca, pb, pa))
            })
            .collect();
        Ok(Preview {
            purchase,
            xp_after: after.xp,
            attr_value_after: a.value,
            progress_after: a.progress,
            progress_needed: progress_required(a.value + 1),
            changes,
        })
    }
}

/// An encounter's XP split among those present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XpShare {
    pub each: u32,
    pub remainder: u32,
}

/// Splits `xp` plus the `carried` remainder of the last share among `present` characters,
/// rounded down; the rest carries to the next share. No one present: everything carries.
pub fn share_xp(xp: u32, carried: u32, present: u32) -> XpShare {
    let pool = xp.saturating_add(carried);
    match present {
        0 => XpShare {
            each: 0,
            remainder: pool,
        },
        n => XpShare {
            each: pool / n,
            remainder: pool % n,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::sheet::Ability;
    use super::*;

    #[test]
    fn training_keeps_every_value_inside_what_import_accepts() {
        let mut s = HeimrSheet {
            xp: super::super::sheet::XP_LIMIT,
            ..HeimrSheet::default()
        };
        let brawl = 0;
        // Strength at 20 with progress one short of 21: the level that would raise it is refused.
        s.attributes[Attr::Str.index()].value = 20;
        s.attributes[Attr::Str.index()].progress = progress_required(21) - 1;
        let before = s.clone();
        assert_eq!(
            train(&mut s, brawl, Track::Consistency, Attr::Str),
            Err(TrainError::AttributeAtLimit("Strength", 20))
        );
        assert_eq!(s, before, "nothing changes");
        assert!(s.validate().is_ok());
        // Training stops at 40 levels.
        s.attributes[Attr::Str.index()].progress = 0;
        s.abilities[brawl].trained_potential = 40;
        assert_eq!(
            train(&mut s, brawl, Track::Potential, Attr::Str),
            Err(TrainError::TrainingAtLimit(40))
        );
        // Shared XP never wraps and never passes the limit.
        let mut s = HeimrSheet {
            xp: u32::MAX - 3,
            ..HeimrSheet::default()
        };
        assert!(s.add_xp(10).is_err());
        s.xp = 9_999_990;
        assert!(s.add_xp(11).is_err());
        assert_eq!(s.xp, 9_999_990);
        assert!(s.add_xp(10).is_ok());
        assert!(s.validate().is_ok());
    }

    #[test]
    fn costs_for_any_level() {
        let costs: Vec<u64> = (1..=12).map(xp_cost).collect();
        assert_eq!(
            costs,
            vec![5, 10, 15, 25, 40, 65, 105, 170, 275, 445, 720, 1165]
        );
        let totals: Vec<u64> = (1..=7).map(xp_total).collect();
        assert_eq!(totals, vec![5, 15, 30, 55, 95, 160, 265]);
        assert_eq!(xp_cost(0), 0);
        for n in 3..60 {
            assert_eq!(xp_cost(n), xp_cost(n - 1) + xp_cost(n - 2), "level {n}");
        }
        assert_eq!(xp_cost(500), u64::MAX, "saturates instead of overflowing");
    }

    fn rich(values: [i32; 6]) -> HeimrSheet {
        let mut s = HeimrSheet::default();
        for (a, v) in s.attributes.iter_mut().zip(values) {
            a.value = v;
        }
        s.xp = 100_000;
        s
    }

    #[test]
    fn training_spends_xp_and_adds_progress() {
        let mut s = rich([0; 6]);
        let p = train(&mut s, 0, Track::Consistency, Attr::Str).unwrap();
        assert_eq!((p.level, p.cost, p.raised), (1, 5, false));
        assert_eq!(s.xp, 100_000 - 5);
        assert_eq!(s.abilities[0].trained_consistency, 1);
        assert_eq!(s.attributes[0].progress, 1);
        let p = train(&mut s, 0, Track::Consistency, Attr::Str).unwrap();
        assert_eq!((p.level, p.cost), (2, 10));
    }

    /// At every starting value −3…5 the attribute rises exactly when progress reaches the
    /// requirement of the next value, and progress resets.
    #[test]
    fn thresholds_at_every_value() {
        for start in -3..=5 {
            let mut s = rich([start, 0, 0, 0, 0, 0]);
            let need = progress_required(start + 1);
            for i in 1..need {
                assert!(
                    !train(&mut s, 0, Track::Potential, Attr::Str)
                        .unwrap()
                        .raised,
                    "start {start}, step {i}"
                );
                assert_eq!(
                    s.attributes[0],
                    super::super::Attribute {
                        value: start,
                        progress: i
                    }
                );
            }
            let p = train(&mut s, 0, Track::Potential, Attr::Str).unwrap();
            assert!(p.raised, "start {start}: raised after {need}");
            assert_eq!(
                s.attributes[0],
                super::super::Attribute {
                    value: start + 1,
                    progress: 0
                }
            );
            // Brawl's base potential followed the attribute.
            assert_eq!(s.potential(&s.abilities[0]), start + 1 + need as i32);
        }
    }

    #[test]
    fn multi_attribute_abilities_let_the_player_pick() {
        let mut s = rich([0, 1, 0, 0, 0, 0]);
        s.abilities
            .push(Ability::new("Climbing", &[Attr::Str, Attr::Dex], 1));
        let i = s.abilities.len() - 1;
        train(&mut s, i, Track::Consistency, Attr::Dex).unwrap();
        assert_eq!((s.attributes[0].progress, s.attributes[1].progress), (0, 1));
        assert_eq!(
            train(&mut s, i, Track::Consistency, Attr::Emp),
            Err(TrainError::NotGoverning("Empathy"))
        );
    }

    #[test]
    fn not_enough_xp_changes_nothing() {
        let mut s = HeimrSheet {
            xp: 4,
            ..HeimrSheet::default()
        };
        let before = s.clone();
        assert_eq!(
            train(&mut s, 0, Track::Potential, Attr::Str),
            Err(TrainError::NotEnoughXp { need: 5, have: 4 })
        );
        assert_eq!(s, before);
    }

    #[test]
    fn undo_reverses_every_purchase_exactly() {
        let mut s = rich([-1, 0, 0, 0, 0, 0]);
        let start = s.clone();
        let mut states = vec![s.clone()];
        for _ in 0..15 {
            train(&mut s, 0, Track::Consistency, Attr::Str).unwrap();
            states.push(s.clone());
        }
        assert_eq!(s.attr(Attr::Str), 1, "−1 → 0 after 4, → 1 after 6 more");
        states.pop();
        while let Some(prev) = states.pop() {
            undo_last(&mut s).unwrap();
            let mut expect = prev;
            expect.purchases = s.purchases.clone();
            assert_eq!(s, expect);
        }
        assert_eq!(s, start);
        assert_eq!(undo_last(&mut s), Err(TrainError::NothingToUndo));
    }

    #[test]
    fn undo_refuses_when_the_ability_changed() {
        let mut s = rich([0; 6]);
        train(&mut s, 1, Track::Potential, Attr::Dex).unwrap();
        s.abilities.remove(1);
        assert_eq!(undo_last(&mut s), Err(TrainError::ChangedSince));
    }

    #[test]
    fn preview_matches_the_purchase_and_changes_nothing() {
        let mut s = rich([0, 0, 0, 0, 0, 0]);
        s.attributes[0].progress = 5; // reaching 1 needs 6: one more raises str 0 → 1
        s.abilities
            .push(Ability::new("Wrestling", &[Attr::Str, Attr::Dex], 0));
        let before = s.clone();
        let pv = Preview::of(&s, 0, Track::Consistency, Attr::Str).unwrap();
        assert_eq!(s, before);
        assert!(pv.purchase.raised);
        assert_eq!(
            (pv.attr_value_after, pv.progress_after, pv.progress_needed),
            (1, 0, 8)
        );
        // Brawl: C 0 → 1, P 0 → 1. Wrestling: P floor((1+0)/2) = 0, unchanged.
        assert_eq!(pv.changes, vec![("Brawl".to_string(), 0, 1, 0, 1)]);
        let mut bought = s.clone();
        train(&mut bought, 0, Track::Consistency, Attr::Str).unwrap();
        assert_eq!(bought.xp, pv.xp_after);
    }

    #[test]
    fn xp_sharing_rounds_down_and_carries() {
        assert_eq!(
            share_xp(10, 0, 4),
            XpShare {
                each: 2,
                remainder: 2
            }
        );
        assert_eq!(
            share_xp(10, 2, 4),
            XpShare {
                each: 3,
                remainder: 0
            }
        );
        assert_eq!(
            share_xp(7, 0, 1),
            XpShare {
                each: 7,
                remainder: 0
            }
        );
        assert_eq!(
            share_xp(5, 1, 0),
            XpShare {
                each: 0,
                remainder: 6
            }
        );
        assert_eq!(
            share_xp(0, 0, 3),
            XpShare {
                each: 0,
                remainder: 0
            }
        );
    }
}
