//! Bo Vogt: every edit of Play, Edit, the rests, the death and dismemberment table and a
//! fight's write-back.

use crate::common::*;
use proptest::prelude::*;
use proptest_state_machine::prop_state_machine;
use rollsheet::rules::edit::ListEdit;
use rollsheet::rules::vogt::{Ability, Edit, Item, Skill, VogtSheet, STATUSES, TOP};

pub struct Vogt;

/// Now and then one list near its limit: `which` list, `n` entries (statuses as an imported
/// sheet may carry them; the others by edits).
fn fill(s: &mut VogtSheet, (which, n): (usize, usize)) {
    use rollsheet::rules::edit::Edits;
    for i in 0..n {
        let e = match which {
            0 => Edit::Injuries(ListEdit::Add(format!("Scar {i}"))),
            1 => Edit::Resistances(ListEdit::Add(format!("Type {i}"))),
            2 => Edit::AddItem(Item {
                name: format!("Item {i}"),
                slots: 0,
                count: 1,
                per_slot: 1,
                quick: false,
                damage: String::new(),
                dtype: String::new(),
            }),
            3 => Edit::AddSkill(Skill {
                name: format!("Skill {i}"),
                ability: Ability::Str,
                bonus: 0,
            }),
            4 if s.statuses.len() < n => {
                s.statuses.push(format!("Mark {i}"));
                continue;
            }
            _ => return,
        };
        let _ = s.apply(e);
    }
}

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

    crate::sheet_of!(Vogt, VogtSheet, "character-vogt-v1.json");

    fn generated() -> BoxedStrategy<VogtSheet> {
        // Built by edits from a new sheet, so every generated sheet is one a player can make.
        (
            prop::collection::vec((0usize..4, 0..=TOP), 0..5),
            (0i32..40, 0i32..40, 0i32..6),
            prop::collection::vec(item(), 0..5),
            prop::collection::vec(skill(), 0..4),
            prop::collection::vec(0usize..STATUSES.len(), 0..4),
            (0usize..8, 195usize..=200),
        )
            .prop_map(|(abilities, vitals, items, skills, statuses, full)| {
                let mut s = VogtSheet::default();
                use rollsheet::rules::edit::Edits;
                for (i, v) in abilities {
                    let _ = s.apply(Edit::Ability(i, v));
                }
                let (hp_max, hp, exhaustion) = vitals;
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
                fill(&mut s, full);
                s
            })
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

/// Regression cases: what the earlier views let a player reach that the importer refuses (a
/// list past its 200 entries), each as the edit that now refuses it with a reason. The
/// sequences reach them from the generated sheets with a list near its limit.
mod found {
    use rollsheet::rules::edit::{Edits, ListEdit, LIST_LIMIT};
    use rollsheet::rules::vogt::{Ability, Edit, Item, Skill, VogtSheet, STATUSES};

    #[test]
    fn a_status_tapped_onto_a_full_imported_list_is_refused() {
        let mut s = VogtSheet {
            statuses: (0..LIST_LIMIT).map(|i| format!("Mark {i}")).collect(),
            ..Default::default()
        };
        s.validate().unwrap();
        let before = s.clone();
        let prone = STATUSES.iter().position(|d| d.name == "Prone").unwrap();
        assert!(s.apply(Edit::Status(prone)).unwrap_err().contains("200"));
        assert_eq!(s, before);
        s.statuses[0] = "prone".into();
        s.apply(Edit::Status(prone)).unwrap();
        assert_eq!(
            s.statuses.len(),
            LIST_LIMIT - 1,
            "taking one off still works"
        );
    }

    /// The app before issue 27 let a tap add the 201st status or injury: such a sheet, stored,
    /// is still accepted by its own importer (nothing dropped), and an edit adds no more.
    #[test]
    fn a_list_stored_past_the_edit_limit_still_imports() {
        let mut s = VogtSheet {
            injuries: (0..LIST_LIMIT + 7).map(|i| format!("Scar {i}")).collect(),
            ..Default::default()
        };
        s.validate().unwrap();
        assert!(s.apply(Edit::Dismember(1)).is_err());
        assert_eq!(s.injuries.len(), LIST_LIMIT + 7);
    }

    #[test]
    fn the_table_on_a_full_injury_list_is_refused_but_still_kills() {
        let mut s = VogtSheet::default();
        for _ in 0..LIST_LIMIT {
            s.apply(Edit::Dismember(1)).unwrap();
        }
        assert!(s.apply(Edit::Dismember(1)).is_err());
        assert!(s
            .apply(Edit::Injuries(ListEdit::Add("Scar".into())))
            .is_err());
        s.validate().unwrap();
        s.apply(Edit::Dismember(7)).unwrap();
        assert!(s.dead);
        s.validate().unwrap();
    }

    #[test]
    fn the_201st_item_or_skill_is_refused() {
        let mut s = VogtSheet::default();
        let item = Item {
            name: " Torch ".into(),
            slots: 500,
            count: 0,
            per_slot: 0,
            quick: false,
            damage: String::new(),
            dtype: "x".repeat(300),
        };
        while s.items.len() < LIST_LIMIT {
            s.apply(Edit::AddItem(item.clone())).unwrap();
        }
        assert_eq!(
            (
                s.items[1].name.as_str(),
                s.items[1].slots,
                s.items[1].count,
                s.items[1].per_slot
            ),
            ("Torch", 100, 1, 1)
        );
        assert!(s.apply(Edit::AddItem(item)).is_err());
        let skill = Skill {
            name: "Climbing".into(),
            ability: Ability::Str,
            bonus: 5000,
        };
        for _ in 0..LIST_LIMIT {
            s.apply(Edit::AddSkill(skill.clone())).unwrap();
        }
        assert!(s.apply(Edit::AddSkill(skill)).is_err());
        assert_eq!(s.skills[0].bonus, 1000);
        s.validate().unwrap();
    }
}
