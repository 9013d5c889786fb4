//! Bo Vogt: every edit of Play, Edit, the rests, the death and dismemberment table and a
//! fight's write-back.

use crate::common::*;
use proptest::prelude::*;
use proptest_state_machine::prop_state_machine;
use rollsheet::rules::vogt::{Ability, Edit, Item, Skill, VogtSheet, STATUSES, TOP};
use rollsheet::storage::character::Sheet;

pub struct Vogt;

fn dice() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["", "1d8", "2d6", " 1d4 ", "1d12"]).prop_map(String::from),
        1 => prop::sample::select(vec!["   ", "club", "1d", "d8", "1d7", "3d6+1", "0d6"]).prop_map(String::from),
        1 => text(),
    ]
}

fn ability() -> impl Strategy<Value = Ability> {
    prop::sample::select(Ability::ALL.to_vec())
}

fn skill() -> impl Strategy<Value = Skill> {
    (text(), ability(), number(-1000, 1000)).prop_map(|(name, ability, bonus)| Skill {
        name,
        ability,
        bonus,
    })
}

fn count(hi: u32) -> BoxedStrategy<u32> {
    prop_oneof![4 => 0..=hi, 1 => Just(hi), 1 => hi..hi + 20, 1 => any::<u32>()].boxed()
}

fn item() -> impl Strategy<Value = Item> {
    (
        text(),
        count(100),
        count(10_000),
        count(10_000),
        any::<bool>(),
        dice(),
        text(),
    )
        .prop_map(
            |(name, slots, count, per_slot, quick, damage, dtype)| Item {
                name,
                slots,
                count,
                per_slot,
                quick,
                damage,
                dtype,
            },
        )
}

impl System for Vogt {
    type Sheet = VogtSheet;
    type Edit = Edit;

    fn fixture() -> &'static str {
        include_str!("../fixtures/character-vogt-v1.json")
    }

    fn sheet(s: &Sheet) -> &VogtSheet {
        match s {
            Sheet::Vogt(x) => x,
            _ => unreachable!(),
        }
    }

    fn sheet_mut(s: &mut Sheet) -> &mut VogtSheet {
        match s {
            Sheet::Vogt(x) => x,
            _ => unreachable!(),
        }
    }

    fn wrap(s: VogtSheet) -> Sheet {
        Sheet::Vogt(s)
    }

    fn generated() -> BoxedStrategy<VogtSheet> {
        // Built by edits from a new sheet, so every generated sheet is one a player can make.
        (
            prop::collection::vec((0usize..4, 0..=TOP), 0..5),
            (0i32..40, 0i32..40, 0i32..6),
            prop::collection::vec(item(), 0..5),
            prop::collection::vec(skill(), 0..4),
            prop::collection::vec(0usize..STATUSES.len(), 0..4),
        )
            .prop_map(
                |(abilities, (hp_max, hp, exhaustion), items, skills, statuses)| {
                    let mut s = VogtSheet::default();
                    use rollsheet::rules::edit::Edits;
                    for (i, v) in abilities {
                        let _ = s.apply(Edit::Ability(i, v));
                    }
                    let _ = s.apply(Edit::HpMax(hp_max));
                    let _ = s.apply(Edit::Hp(hp));
                    let _ = s.apply(Edit::Exhaustion(exhaustion));
                    for it in items {
                        let _ = s.apply(Edit::AddItem(it));
                    }
                    for k in skills {
                        let _ = s.apply(Edit::AddSkill(k));
                    }
                    for st in statuses {
                        let _ = s.apply(Edit::Status(st));
                    }
                    s
                },
            )
            .boxed()
    }

    fn edits(s: &VogtSheet) -> BoxedStrategy<Edit> {
        prop_oneof![
            2 => (index(4), number(0, TOP)).prop_map(|(i, v)| Edit::Ability(i, v)),
            2 => number(0, 10_000).prop_map(Edit::Hp),
            1 => number(0, 10_000).prop_map(Edit::HpMax),
            1 => number(0, 1000).prop_map(Edit::Ar),
            1 => number(0, 1000).prop_map(Edit::Movement),
            1 => number(0, 10).prop_map(Edit::Hands),
            1 => number(0, 20).prop_map(Edit::TechniqueDice),
            1 => prop_oneof![prop::sample::select(vec![4, 6, 8, 10, 12]), number(0, 13)].prop_map(Edit::TechniqueDie),
            1 => number(0, 20).prop_map(Edit::TechniqueLeft),
            2 => number(0, 20).prop_map(Edit::Exhaustion),
            1 => any::<bool>().prop_map(Edit::Bag),
            1 => any::<bool>().prop_map(Edit::Dead),
            2 => index(STATUSES.len()).prop_map(Edit::Status),
            1 => list_edit(s.resistances.len()).prop_map(Edit::Resistances),
            1 => list_edit(s.vulnerabilities.len()).prop_map(Edit::Vulnerabilities),
            1 => list_edit(s.injuries.len()).prop_map(Edit::Injuries),
            1 => skill().prop_map(Edit::AddSkill),
            1 => index(s.skills.len()).prop_map(Edit::RemoveSkill),
            2 => item().prop_map(Edit::AddItem),
            1 => index(s.items.len()).prop_map(Edit::RemoveItem),
            1 => index(s.items.len()).prop_map(Edit::ToggleQuick),
            1 => Just(Edit::Siesta),
            1 => Just(Edit::FullRest),
            2 => (0u32..10).prop_map(Edit::Dismember),
        ]
        .boxed()
    }
}

prop_state_machine! {
    #![proptest_config(config())]
    #[test]
    fn vogt_edits_keep_every_backup(sequential 1..40 => Checked<Vogt>);
}

/// Regression cases the sequences found, each as the one edit that broke the sheet.
mod found {}
