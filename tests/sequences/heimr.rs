//! Heimr: every edit of Play, Edit, Advance, a roll and a fight's write-back.

use crate::common::*;
use proptest::prelude::*;
use proptest_state_machine::prop_state_machine;
use rollsheet::rules::heimr::{Ability, Attr, Edit, HeimrSheet, Track, ATTR_LIMIT, TRAIN_LIMIT};

pub struct Heimr;

fn attr() -> impl Strategy<Value = Attr> {
    prop::sample::select(Attr::ALL.to_vec())
}

fn track() -> impl Strategy<Value = Track> {
    prop_oneof![Just(Track::Consistency), Just(Track::Potential)]
}

impl System for Heimr {
    type Sheet = HeimrSheet;
    type Edit = Edit;

    crate::sheet_of!(Heimr, HeimrSheet, "character-heimr-v1.json");

    fn generated() -> BoxedStrategy<HeimrSheet> {
        // Built by edits from a new sheet, so every generated sheet is one a player can make.
        (
            prop::collection::vec((0usize..6, -ATTR_LIMIT..=ATTR_LIMIT), 0..6),
            0u32..5000,
            prop::collection::vec((0usize..6, track(), attr()), 0..12),
            -30i32..30,
        )
            .prop_map(|(attrs, xp, trains, hp)| {
                let mut s = HeimrSheet::default();
                use rollsheet::rules::edit::Edits;
                for (i, v) in attrs {
                    let _ = s.apply(Edit::Attribute(i, v));
                }
                let _ = s.apply(Edit::Xp(xp as i32));
                for (i, t, a) in trains {
                    let a = s.abilities[i].attrs.first().copied().unwrap_or(a);
                    let _ = s.apply(Edit::Train(i, t, a));
                }
                let _ = s.apply(Edit::Hp(hp));
                s
            })
            .boxed()
    }

    fn edits(s: &HeimrSheet) -> BoxedStrategy<Edit> {
        let n = s.abilities.len();
        let t = TRAIN_LIMIT as i32;
        prop_oneof![
            1 => number(-1000, 1000).prop_map(Edit::Hp),
            1 => number(0, 1000).prop_map(Edit::HpMax),
            1 => number(0, 1000).prop_map(Edit::Willpower),
            1 => number(0, 1000).prop_map(Edit::WillpowerMax),
            1 => number(1, 20).prop_map(Edit::Fatigue),
            1 => Just(Edit::Breather),
            1 => Just(Edit::ShortRest),
            1 => Just(Edit::SpendWillpower),
            1 => (index(6), number(-ATTR_LIMIT, ATTR_LIMIT)).prop_map(|(i, v)| Edit::Attribute(i, v)),
            1 => (index(n), number(-2, 3)).prop_map(|(i, v)| Edit::AbilityBase(i, v)),
            1 => (index(n), number(0, t)).prop_map(|(i, v)| Edit::AbilityTrainedC(i, v)),
            1 => (index(n), number(0, t)).prop_map(|(i, v)| Edit::AbilityTrainedP(i, v)),
            1 => (text(), prop::collection::vec(attr(), 0..4), number(-2, 3)).prop_map(|(name, attrs, b)| {
                Edit::AddAbility(Ability::new(&name, &attrs, b))
            }),
            1 => index(n).prop_map(Edit::RemoveAbility),
            1 => list_edit(s.skills.len()).prop_map(Edit::Skills),
            1 => list_edit(s.items.len()).prop_map(Edit::Items),
            1 => list_edit(s.conditions.len()).prop_map(Edit::Conditions),
            1 => number(0, 10_000_000).prop_map(Edit::Xp),
            4 => (index(n), track(), attr()).prop_map(|(i, t, a)| Edit::Train(i, t, a)),
            2 => Just(Edit::UndoPurchase),
            1 => any::<bool>().prop_map(Edit::Dead),
        ]
        .boxed()
    }
}

prop_state_machine! {
    #![proptest_config(config())]
    #[test]
    fn heimr_edits_keep_every_backup(sequential 1..40 => Checked<Heimr>);
}

/// Regression cases the sequences found, each as the one edit that broke the sheet.
mod found {
    use rollsheet::rules::edit::Edits;
    use rollsheet::rules::heimr::{Edit, HeimrSheet, Track, XP_LIMIT};
    use rollsheet::storage::character::Character;

    #[test]
    fn lowering_an_attribute_keeps_its_progress_below_the_next_step() {
        let mut s = HeimrSheet::default();
        s.attributes[0].value = 5;
        s.attributes[0].progress = 10;
        s.apply(Edit::Attribute(0, -1)).unwrap();
        assert_eq!((s.attributes[0].value, s.attributes[0].progress), (-1, 3));
        s.validate().unwrap();
    }

    #[test]
    fn an_undo_that_would_pass_the_xp_limit_is_refused() {
        let mut s = HeimrSheet::default();
        s.apply(Edit::Xp(10)).unwrap();
        s.apply(Edit::Train(0, Track::Consistency, s.abilities[0].attrs[0]))
            .unwrap();
        s.apply(Edit::Xp(XP_LIMIT as i32)).unwrap();
        let before = s.clone();
        assert!(s.apply(Edit::UndoPurchase).unwrap_err().contains("pass"));
        assert_eq!(s, before);
        s.validate().unwrap();
    }

    #[test]
    fn an_undo_after_the_attribute_was_lowered_is_refused() {
        let mut s = HeimrSheet::default();
        s.apply(Edit::Xp(100)).unwrap();
        let a = s.abilities[0].attrs[0].index();
        s.apply(Edit::Attribute(a, -20)).unwrap();
        s.attributes[a].progress = 7;
        s.apply(Edit::Train(0, Track::Consistency, s.abilities[0].attrs[0]))
            .unwrap();
        assert_eq!(s.attributes[a].value, -19, "8 progress raised it");
        s.apply(Edit::Attribute(a, -20)).unwrap();
        assert!(s.clone().apply(Edit::UndoPurchase).is_err());
    }

    #[test]
    fn a_sheet_stored_in_a_refused_state_is_repaired_on_loading() {
        let text = include_str!("../fixtures/character-heimr-refused-v1.json");
        let raw: Character = serde_json::from_str(text).unwrap();
        assert!(
            raw.validate().is_err(),
            "the fixture is one the importer refused"
        );
        let c = crate::common::loaded(raw.clone());
        c.validate().unwrap();
        let (
            rollsheet::storage::character::Sheet::Heimr(s),
            rollsheet::storage::character::Sheet::Heimr(r),
        ) = (&c.sheet, &raw.sheet)
        else {
            panic!()
        };
        assert_eq!(c.name.chars().count(), 200);
        assert!(raw.name.starts_with(&c.name));
        assert_eq!((s.attributes[0].value, s.attributes[0].progress), (0, 5));
        assert_eq!((s.attributes[5].value, s.attributes[5].progress), (-2, 5));
        assert_eq!(s.xp, XP_LIMIT);
        assert_eq!(s.abilities, r.abilities, "nothing else changes");
        assert_eq!(
            (&s.skills, &s.items, &c.notes),
            (&r.skills, &r.items, &raw.notes)
        );
    }
}
