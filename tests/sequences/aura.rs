//! Energy / Aura: every edit of Play, Edit, Advance, a death roll or save and a fight's
//! write-back.

use crate::common::*;
use proptest::prelude::*;
use proptest_state_machine::prop_state_machine;
use rollsheet::rules::aura::{
    AuraSheet, Edit, Pick, Weapon, LIST_LIMIT, POOL_LIMIT, SIZES, STAT_LIMIT,
};
use rollsheet::rules::encounter::systems::AURA;

pub struct Aura;

fn pick() -> impl Strategy<Value = Pick> {
    prop::sample::select(Pick::ALL.to_vec())
}

/// A condition's name: the catalogue's (any case), the death tables', anything typed.
fn condition() -> BoxedStrategy<String> {
    let names: Vec<String> = AURA
        .conditions
        .iter()
        .map(|c| c.name.to_owned())
        .chain(["Bleeding out", "Exhausted", "Unconscious", "Shaken"].map(String::from))
        .collect();
    prop_oneof![
        3 => prop::sample::select(names.clone()),
        1 => prop::sample::select(names).prop_map(|n| format!(" {} ", n.to_uppercase())),
        1 => text(),
    ]
    .boxed()
}

fn weapon() -> BoxedStrategy<Weapon> {
    let s = STAT_LIMIT;
    (
        (
            text(),
            prop_oneof![
                3 => prop::sample::select(vec!["1d8", "2d6+1", " 1d10 ", "1d4*", "d6"]).prop_map(str::to_owned),
                1 => text(),
            ],
            number(-s, s),
            number(-s, s),
            number(-s, s),
            number(0, s),
            number(0, 19),
        ),
        (
            prop::array::uniform3(number(0, POOL_LIMIT)),
            prop::array::uniform8(any::<bool>()),
        ),
    )
        .prop_map(
            |((name, damage, av, ev, accuracy, mpr, precise), (range, f))| Weapon {
                name,
                damage,
                av,
                ev,
                accuracy,
                mpr,
                precise,
                range,
                ranged: f[0],
                drawn: f[1],
                crossbow: f[2],
                thrown: f[3],
                light: f[4],
                heavy: f[5],
                blunt: f[6],
                held: f[7],
            },
        )
        .boxed()
}

fn d20() -> BoxedStrategy<u32> {
    prop_oneof![10 => 1u32..=20, 1 => Just(0u32), 1 => 21u32..40].boxed()
}

impl System for Aura {
    type Sheet = AuraSheet;
    type Edit = Edit;

    crate::sheet_of!(Aura, AuraSheet, "character-aura-v1.json");

    fn generated() -> BoxedStrategy<AuraSheet> {
        // Built by edits from a new sheet, so every generated sheet is one a player can make.
        (
            prop::collection::vec((0usize..6, 0..=STAT_LIMIT), 0..6),
            (0..=STAT_LIMIT, 0..=STAT_LIMIT, 0..SIZES.len() as i32),
            prop::collection::vec(weapon(), 0..4),
            prop_oneof![
                2 => prop::collection::vec(condition(), 0..6),
                1 => (LIST_LIMIT - 3..LIST_LIMIT + 2).prop_map(|n| (0..n).map(|i| format!("Cond {i}")).collect()),
            ],
            (0..=40i32, 0..=40i32, 0..=20i32),
        )
            .prop_map(|(scores, (level, mpl, size), weapons, conditions, (aura, stamina, surges))| {
                use rollsheet::rules::edit::Edits;
                let mut s = AuraSheet::default();
                for (i, v) in scores {
                    let _ = s.apply(Edit::Score(i, v));
                }
                for e in [Edit::Level(level), Edit::Mpl(mpl), Edit::Size(size)] {
                    let _ = s.apply(e);
                }
                for w in weapons {
                    let _ = s.apply(Edit::AddWeapon(w));
                }
                for c in conditions {
                    let _ = s.apply(Edit::AddCondition(c));
                }
                for e in [Edit::Aura(aura), Edit::Stamina(stamina), Edit::Surges(surges)] {
                    let _ = s.apply(e);
                }
                s
            })
            .boxed()
    }

    fn edits(s: &AuraSheet) -> BoxedStrategy<Edit> {
        let n = s.weapons.len();
        let m = s.mpl.max(0) as usize;
        let c = s.conditions.len();
        let (st, p) = (STAT_LIMIT, POOL_LIMIT);
        let have = s.conditions.clone();
        prop_oneof![
            2 => (index(6), number(0, st)).prop_map(|(i, v)| Edit::Score(i, v)),
            1 => number(0, st).prop_map(Edit::Level),
            1 => number(0, st).prop_map(Edit::Mpl),
            1 => number(-st, st).prop_map(Edit::Arm),
            1 => number(-st, st).prop_map(Edit::Leg),
            1 => number(-st, st).prop_map(Edit::Initiative),
            1 => number(-st, st).prop_map(Edit::Agility),
            1 => number(0, SIZES.len() as i32 - 1).prop_map(Edit::Size),
            1 => (index(m), number(0, 2)).prop_map(|(i, v)| Edit::Pick(i, v)),
            2 => number(0, p).prop_map(Edit::Aura),
            2 => number(0, p).prop_map(Edit::Stamina),
            1 => number(0, p).prop_map(Edit::Surges),
            1 => any::<bool>().prop_map(Edit::Dead),
            1 => number(0, st).prop_map(Edit::ArmorAr),
            1 => number(0, st).prop_map(Edit::ArmorAc),
            1 => number(0, st).prop_map(Edit::ArmorRangedAc),
            1 => number(0, st).prop_map(Edit::ArmorPenalty),
            1 => number(0, st).prop_map(Edit::ArmorMpr),
            1 => number(0, st).prop_map(Edit::ShieldBonus),
            1 => number(0, st).prop_map(Edit::ShieldMpr),
            1 => any::<bool>().prop_map(Edit::ShieldCarried),
            2 => weapon().prop_map(Edit::AddWeapon),
            1 => index(n).prop_map(Edit::RemoveWeapon),
            1 => index(n).prop_map(Edit::ToggleHeld),
            3 => condition().prop_map(Edit::AddCondition),
            2 => prop_oneof![
                condition(),
                (0..c.max(1)).prop_map(move |i| have.get(i).cloned().unwrap_or_default()),
            ]
            .prop_map(Edit::RemoveCondition),
            1 => any::<bool>().prop_map(Edit::ShortRest),
            1 => Just(Edit::LongRest),
            2 => d20().prop_map(Edit::DeathRoll),
            2 => d20().prop_map(Edit::DeathSave),
            1 => Just(Edit::LevelUp),
            1 => pick().prop_map(Edit::MplUp),
            1 => Just(Edit::Woken),
        ]
        .boxed()
    }
}

prop_state_machine! {
    #![proptest_config(config())]
    #[test]
    fn aura_edits_keep_every_backup(sequential 1..40 => Checked<Aura>);
}

/// Regression cases the sequences found, each as the one edit that broke the sheet.
mod found {
    use super::*;
    use rollsheet::rules::edit::Edits;

    /// The app before issue 27 let a death roll take the conditions past 100: such a sheet,
    /// stored, is still accepted by its own importer (nothing dropped).
    #[test]
    fn conditions_stored_past_the_edit_limit_still_import() {
        let mut s = AuraSheet::default();
        for i in 0..LIST_LIMIT {
            s.apply(Edit::AddCondition(format!("Cond {i}"))).unwrap();
        }
        s.conditions
            .extend(["Exhausted", "Bleeding out", "Unconscious"].map(String::from));
        s.validate().unwrap();
        assert!(s.apply(Edit::AddCondition("Prone".into())).is_err());
    }

    /// 100 conditions, then a death roll of 5 (exhausted, bleeding out, unconscious): 103.
    #[test]
    fn a_death_roll_with_no_room_for_its_conditions_is_refused() {
        let mut s = AuraSheet::default();
        for i in 0..LIST_LIMIT {
            s.apply(Edit::AddCondition(format!("Cond {i}"))).unwrap();
        }
        let before = s.clone();
        let why = s.apply(Edit::DeathRoll(5)).unwrap_err();
        assert!(why.contains("No room"), "{why}");
        assert_eq!(s, before);
        // A roll that adds nothing, or kills, still counts.
        s.apply(Edit::DeathRoll(20)).unwrap();
        s.apply(Edit::DeathRoll(1)).unwrap();
        assert!(s.dead);
        s.validate().unwrap();
    }
}
