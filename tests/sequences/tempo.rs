//! Tempo: every edit of Play, Edit and a fight's write-back.

use crate::common::*;
use proptest::prelude::*;
use proptest_state_machine::prop_state_machine;
use rollsheet::rules::tempo::{
    Edit, TempoSheet, ACTIONS, HEALTH_LIMIT, LIST_LIMIT, NAME_LIMIT, STAT_LIMIT,
};

pub struct Tempo;

/// Dice as typed: the usual, the unusual, too many, not dice at all.
fn dice() -> BoxedStrategy<String> {
    prop_oneof![
        12 => prop::sample::select(vec!["1d10", "2d6", " 1d20 ", "1d10+2", "3d6-1", "1d4*", "d6", "0d6", "1d10 + 1d6"])
            .prop_map(str::to_owned),
        // The most dice the roller takes, and one more (100d1000, slow to check, has its own
        // test below).
        1 => prop::sample::select(vec!["100d6", "100d6+100d6", "101d6"]).prop_map(str::to_owned),
        2 => "[1-9]d[0-9]{1,2}([+-][0-9]{1,3})?",
        2 => text(),
    ]
    .boxed()
}

impl System for Tempo {
    type Sheet = TempoSheet;
    type Edit = Edit;

    crate::sheet_of!(Tempo, TempoSheet, "character-tempo-v1.json");

    fn generated() -> BoxedStrategy<TempoSheet> {
        // Built by edits from a new sheet, so every generated sheet is one a player can make.
        (
            prop_oneof![
                4 => prop::collection::vec((text(), any::<bool>()), 0..6),
                // A full list (most names taken, some refused).
                1 => prop::collection::vec(("[a-z]{1,8}", any::<bool>()), LIST_LIMIT - 2..LIST_LIMIT + 3),
            ],
            prop::collection::vec((0..ACTIONS.len(), -STAT_LIMIT..=STAT_LIMIT), 0..20),
            prop::collection::vec(
                (0..LIST_LIMIT, 0..ACTIONS.len(), 0..=STAT_LIMIT),
                0..30,
            ),
            dice(),
            -HEALTH_LIMIT..=HEALTH_LIMIT,
        )
            .prop_map(|(weapons, bonuses, costs, dice, health)| {
                use rollsheet::rules::edit::Edits;
                let mut s = TempoSheet::default();
                for (name, ranged) in weapons {
                    let _ = s.apply(Edit::AddWeapon(name, ranged));
                }
                for (i, v) in bonuses {
                    let _ = s.apply(Edit::Bonus(i, v));
                }
                for (w, i, v) in costs {
                    let _ = s.apply(Edit::Cost(w, i, v));
                }
                let _ = s.apply(Edit::Dice(dice));
                let _ = s.apply(Edit::Health(health));
                s
            })
            .boxed()
    }

    fn edits(s: &TempoSheet) -> BoxedStrategy<Edit> {
        let n = s.weapons.len();
        let (st, h) = (STAT_LIMIT, HEALTH_LIMIT);
        prop_oneof![
            1 => number(-st, st).prop_map(Edit::Defence),
            1 => number(-st, st).prop_map(Edit::Armoured),
            1 => number(-st, st).prop_map(Edit::Grapple),
            1 => number(-st, st).prop_map(Edit::Movement),
            2 => number(-h, h).prop_map(Edit::Health),
            1 => number(0, h).prop_map(Edit::HealthMax),
            2 => dice().prop_map(Edit::Dice),
            2 => (index(ACTIONS.len()), number(-st, st)).prop_map(|(i, v)| Edit::Bonus(i, v)),
            3 => (index(n), index(ACTIONS.len()), number(0, st))
                .prop_map(|(w, i, v)| Edit::Cost(w, i, v)),
            1 => (index(n), number(-st, st)).prop_map(|(w, v)| Edit::Aimed(w, v)),
            2 => (text(), any::<bool>()).prop_map(|(t, r)| Edit::AddWeapon(t, r)),
            1 => index(n).prop_map(Edit::RemoveWeapon),
        ]
        .boxed()
    }
}

prop_state_machine! {
    #![proptest_config(config())]
    #[test]
    fn tempo_edits_keep_every_backup(sequential 1..40 => Checked<Tempo>);
}

/// Regression cases the sequences found (none so far), and the limits the edits hold.
mod found {
    use super::*;

    #[test]
    fn a_weapon_name_is_cut_to_the_limit() {
        use rollsheet::rules::edit::Edits;
        let mut s = TempoSheet::default();
        s.apply(Edit::AddWeapon("é".repeat(NAME_LIMIT + 50), true))
            .unwrap();
        assert_eq!(s.weapons[1].name.chars().count(), NAME_LIMIT);
        s.validate().unwrap();
    }

    #[test]
    fn the_largest_dice_the_roller_takes_are_kept_and_one_more_refused() {
        use rollsheet::rules::edit::Edits;
        let mut s = TempoSheet::default();
        s.apply(Edit::Dice("100d1000".into())).unwrap();
        s.validate().unwrap();
        assert!(s.apply(Edit::Dice("100d1001".into())).is_err());
        assert!(s.apply(Edit::Dice("101d6".into())).is_err());
        assert_eq!(s.dice, "100d1000");
    }
}
