//! Symbaroum: every edit of Play, Edit, Advance, a death test, healing, damage from another
//! sheet's roll and a fight's write-back.

use crate::common::*;
use proptest::prelude::*;
use proptest_state_machine::prop_state_machine;
use rollsheet::rules::edit::ListEdit;
use rollsheet::rules::symbaroum::{
    DeathOutcome, Edit, SAttr, Shield, SymbaroumSheet, Weapon, WeaponQuality,
};

pub struct Symbaroum;

/// Now and then one list near its limit, by edits: `which` list, `n` entries.
fn fill(s: &mut SymbaroumSheet, (which, n): (usize, usize)) {
    use rollsheet::rules::edit::Edits;
    if which == 2 {
        let _ = s.apply(Edit::Experience(100_000));
    }
    for i in 0..n {
        let e = match which {
            0 => Edit::Equipment(ListEdit::Add(format!("Thing {i}"))),
            1 => Edit::AddWeapon(Weapon {
                name: format!("Knife {i}"),
                damage: "1d4".into(),
                qualities: vec![],
                attr: SAttr::Accurate,
            }),
            2 => Edit::Learn(format!("Ability {i}")),
            _ => return,
        };
        let _ = s.apply(e);
    }
}

fn dice() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["1d8", "1d10+1", "2d6", " 1d4 ", "1d6+1d4"]).prop_map(String::from),
        1 => prop::sample::select(vec!["", "   ", "sword", "1d", "101d6", "1d1001", "d8"]).prop_map(String::from),
        1 => text(),
    ]
}

fn weapon() -> impl Strategy<Value = Weapon> {
    (
        text(),
        dice(),
        prop::collection::vec(
            prop::sample::select(vec![
                WeaponQuality::Long,
                WeaponQuality::Short,
                WeaponQuality::Heavy,
            ]),
            0..4,
        ),
        prop::sample::select(SAttr::ALL.to_vec()),
    )
        .prop_map(|(name, damage, qualities, attr)| Weapon {
            name,
            damage,
            qualities,
            attr,
        })
}

fn outcome() -> impl Strategy<Value = DeathOutcome> {
    prop_oneof![
        (0u32..6).prop_map(DeathOutcome::Wakes),
        Just(DeathOutcome::Nothing),
        (0u32..6).prop_map(|steps| DeathOutcome::Closer { steps }),
        Just(DeathOutcome::Dies),
    ]
}

impl System for Symbaroum {
    type Sheet = SymbaroumSheet;
    type Edit = Edit;

    crate::sheet_of!(Symbaroum, SymbaroumSheet, "character-symbaroum-v1.json");

    fn generated() -> BoxedStrategy<SymbaroumSheet> {
        // Built by edits from a new sheet, so every generated sheet is one a player can make.
        (
            prop::collection::vec((0usize..8, 1i32..=20), 0..8),
            0i32..300,
            prop::collection::vec(
                prop_oneof![text().prop_map(Ok), (0usize..6).prop_map(Err)],
                0..10,
            ),
            0i32..30,
            any::<bool>(),
            (0usize..6, 195usize..=200),
        )
            .prop_map(|(attrs, xp, buys, damage, npc, full)| {
                let mut s = SymbaroumSheet::default();
                use rollsheet::rules::edit::Edits;
                for (i, v) in attrs {
                    let _ = s.apply(Edit::Attribute(i, v));
                }
                let _ = s.apply(Edit::Experience(xp));
                for b in buys {
                    let _ = s.apply(match b {
                        Ok(name) => Edit::Learn(name),
                        Err(i) => Edit::Raise(i),
                    });
                }
                let _ = s.apply(Edit::Toughness(s.toughness_max()));
                let _ = s.apply(Edit::Npc(npc));
                let _ = s.apply(Edit::Damage(damage));
                fill(&mut s, full);
                s
            })
            .boxed()
    }

    fn edits(s: &SymbaroumSheet) -> BoxedStrategy<Edit> {
        let a = s.abilities.len();
        let w = s.weapons.len();
        prop_oneof![
            2 => (index(8), number(1, 20)).prop_map(|(i, v)| Edit::Attribute(i, v)),
            1 => number(0, 1000).prop_map(Edit::Toughness),
            1 => any::<bool>().prop_map(Edit::Npc),
            1 => text().prop_map(Edit::ArmorName),
            1 => dice().prop_map(Edit::ArmorProtection),
            1 => number(0, 100).prop_map(Edit::ArmorImpeding),
            1 => prop::sample::select(vec![Shield::None, Shield::Shield, Shield::Buckler]).prop_map(Edit::Shield),
            1 => weapon().prop_map(Edit::AddWeapon),
            1 => index(w).prop_map(Edit::RemoveWeapon),
            1 => number(0, 1000).prop_map(Edit::CorruptionTemporary),
            1 => number(0, 1000).prop_map(Edit::CorruptionPermanent),
            1 => number(0, 100_000).prop_map(Edit::Experience),
            1 => list_edit(s.equipment.len()).prop_map(Edit::Equipment),
            2 => text().prop_map(Edit::Learn),
            2 => index(a).prop_map(Edit::Raise),
            1 => index(a).prop_map(Edit::Unlearn),
            1 => index(a).prop_map(Edit::Lower),
            1 => number(0, 30).prop_map(Edit::Damage),
            1 => number(0, 4).prop_map(Edit::Heal),
            1 => number(0, 4).prop_map(Edit::HealNatural),
            2 => (0u32..22, outcome()).prop_map(|(d, o)| Edit::DeathTest(d, o)),
            1 => Just(Edit::NotDead),
            1 => (0u32..6).prop_map(Edit::DeathSteps),
            1 => any::<bool>().prop_map(Edit::Dead),
        ]
        .boxed()
    }
}

prop_state_machine! {
    #![proptest_config(config())]
    #[test]
    fn symbaroum_edits_keep_every_backup(sequential 1..40 => Checked<Symbaroum>);
}

/// Regression cases. The earlier views reached no state the importer refuses (its steppers
/// clamped, and it bounds no list); these keep what the edits now hold at the limits.
mod found {
    use rollsheet::rules::edit::{Edits, LIST_LIMIT};
    use rollsheet::rules::symbaroum::{DeathOutcome, Edit, SymbaroumSheet};

    #[test]
    fn imported_corruption_at_the_u32_limit_sums_without_overflow() {
        let mut s = SymbaroumSheet {
            corruption_temporary: u32::MAX,
            corruption_permanent: u32::MAX,
            ..Default::default()
        };
        s.validate().unwrap();
        assert!(s.corruption_warning());
        s.apply(Edit::CorruptionTemporary(-5)).unwrap();
        assert_eq!(s.corruption_temporary, 0);
    }

    #[test]
    fn death_tests_and_a_fights_write_back_keep_at_most_three_steps() {
        let mut s = SymbaroumSheet::default();
        s.apply(Edit::Damage(99)).unwrap();
        s.apply(Edit::DeathTest(15, DeathOutcome::Closer { steps: 7 }))
            .unwrap();
        assert_eq!(s.death_steps, 3);
        s.apply(Edit::DeathSteps(u32::MAX)).unwrap();
        s.validate().unwrap();
        assert!(
            s.apply(Edit::HealNatural(1)).is_err(),
            "rest does not stabilize"
        );
        s.apply(Edit::Heal(1)).unwrap();
        assert_eq!((s.toughness, s.death_steps), (1, 0));
    }

    #[test]
    fn a_full_list_of_learned_abilities_refuses_one_more() {
        let mut s = SymbaroumSheet {
            experience: 100_000,
            ..Default::default()
        };
        for i in 0..LIST_LIMIT {
            s.apply(Edit::Learn(format!("Ability {i}"))).unwrap();
        }
        assert!(s.apply(Edit::Learn("One more".into())).is_err());
        s.validate().unwrap();
    }
}
