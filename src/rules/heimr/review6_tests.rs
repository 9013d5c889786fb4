//! The sixth Heimr rules review's items (`rules-review/heimr.md`, `heimr_6_…`), each with the
//! review's exact value or refusal, worked through the referee (`offers` / `resolve`).

use super::challenge::dice_distribution;
use super::combat::*;
use super::fight_review_tests::{act, archer, fight, idx, near, plain, show};
use super::referee::{offers, Action};
use super::strike::{preview, Strike};
use crate::rules::encounter::{Duration, Event, State};
use crate::rules::referee::Intent;

fn refusal(s: &State, who: u32, a: &Action) -> Option<String> {
    offers(s, who)
        .into_iter()
        .find(|o| match (&o.action, a) {
            (Intent::Heimr(x), y) if x.picks() && y.picks() => {
                std::mem::discriminant(x) == std::mem::discriminant(y)
            }
            (Intent::Heimr(x), y) => x == y,
            _ => false,
        })
        .and_then(|o| o.refused)
}

/// T6-1: a target showing a parry can be shot at: it dodges the shot now (Agility C 1, P 1,
/// fatigue 3) and keeps its parry. The archer's shot (bow, C 2, P 2 + 1, fatigue 3) at the
/// Bandit showing parry 12 hits 28811/36000; a guard showing a parry dodges the same way.
#[test]
fn heimr_6_t6_1_a_target_showing_a_parry_dodges_a_shot() {
    let mut s = fight(&[archer(), plain("Bandit"), plain("Cara")]);
    show(&mut s, 2, Defence::Parry, 12);
    let shot = Strike {
        target: 2,
        ..Strike::default()
    };
    let pv = preview(&s, 1, &shot).unwrap();
    assert_eq!(pv.hits[0].0, 2);
    near(pv.hits[0].1, 28811.0, 36000.0);
    assert_eq!(refusal(&s, 1, &Action::Attack(shot.clone())), None);
    // Rolled: the Bandit dodges now, d6 6, d10 9 → 9 + 1 = 10; the shot d6 5, d10 8, d10 4 →
    // 8 + 3 = 11 > 10: hit. Its dodge is counted, its parry stays shown.
    let mut t = s.clone();
    act(&mut t, 1, Action::Attack(shot.clone()), &[6, 9, 5, 8, 4]).unwrap();
    let b = t.get(2).unwrap();
    assert!(b.hp < 5, "{:?}", t.log);
    assert_eq!(uses(b, Defence::Dodge), 1);
    assert_eq!((b.stat(DEF_KIND), b.stat(DEF)), (Defence::Parry as i32, 12));
    // A guard showing a parry: Cara guards the Bandit (no defence shown); the shot at the
    // Bandit meets Cara, who dodges it now: 28811/36000 on Cara.
    let mut g = s.clone();
    g.apply(&Event::Set(2, DEF_KIND, 0));
    show(&mut g, 3, Defence::Parry, 12);
    g.apply(&Event::Set(3, GUARDING, 3));
    g.apply(&Event::Add(
        3,
        "Guarding".into(),
        Duration::Start { who: 3, n: 1 },
    ));
    let pv = preview(&g, 1, &shot).unwrap();
    assert_eq!(pv.hits[0].0, 3);
    near(pv.hits[0].1, 28811.0, 36000.0);
    assert_eq!(refusal(&g, 1, &Action::Attack(shot)), None);
}

/// #20: a readied action is carried out when its trigger happens, on any phone. Asa readies
/// an action; in the Bandit's turn the trigger goes off, Asa moves before the Bandit and her
/// readied attack at it (no defence shown; C 1, P 4, fatigue 3) is rolled now: 14/15. It costs
/// no standard action (readying took it) and is one attack only.
#[test]
fn heimr_6_20_a_readied_attack_is_rolled_when_its_trigger_happens() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut s, 1, Action::Act(idx("Ready an action")), &[]).unwrap();
    while s.current != Some(2) {
        s.apply(&Event::Next);
    }
    assert!(s.has(1, "Readied"));
    let at = Strike {
        target: 2,
        ..Strike::default()
    };
    assert_eq!(
        refusal(&s, 1, &Action::Attack(at.clone())),
        Some("an attack is made on its own turn".into())
    );
    act(&mut s, 1, Action::Trigger, &[]).unwrap();
    assert_eq!(s.current, Some(2), "the Bandit's turn goes on");
    assert_eq!(
        s.order,
        vec![1, 2],
        "Asa acts before the Bandit from now on"
    );
    assert_eq!(refusal(&s, 1, &Action::Attack(at.clone())), None);
    let pv = preview(&s, 1, &at).unwrap();
    near(pv.hits[0].1, 14.0, 15.0);
    // d6 6, d10 9 → 9 + 4 = 13: hit for 2.
    act(&mut s, 1, Action::Attack(at.clone()), &[6, 9]).unwrap();
    assert_eq!(s.get(2).unwrap().hp, 3, "{:?}", s.log);
    assert!(!s.has(1, TRIGGERED));
    assert_eq!(
        refusal(&s, 1, &Action::Attack(at.clone())),
        Some("an attack is made on its own turn".into())
    );
    // Another readied action instead: a move, out of turn, once.
    let mut t = fight(&[plain("Asa"), plain("Bandit")]);
    act(&mut t, 1, Action::Act(idx("Ready an action")), &[]).unwrap();
    while t.current != Some(2) {
        t.apply(&Event::Next);
    }
    act(&mut t, 1, Action::Trigger, &[]).unwrap();
    act(&mut t, 1, Action::Act(idx("Move")), &[]).unwrap();
    assert_eq!(t.current, Some(2));
    assert_eq!(
        refusal(&t, 1, &Action::Act(idx("Move"))),
        Some("actions are taken on its own turn".into())
    );
}

/// Asa (unarmed; Brawl C 1, P 1; fatigue 3) showing dodge 9 (its d6 `d6`) brawls the
/// Bandit (medium weapon, C 1, P 4, fatigue 3) showing dodge 8.
fn brawl_at_armed(d6: i32) -> (State, Strike) {
    let unarmed = Npc {
        weapon: 0,
        ..Npc::default()
    };
    let mut s = fight(&[("Asa", unarmed), plain("Bandit")]);
    show(&mut s, 1, Defence::Dodge, 9);
    s.apply(&Event::Set(1, DEF_D6, d6));
    show(&mut s, 2, Defence::Dodge, 8);
    let brawl = Strike {
        target: 2,
        kind: 1,
        ..Strike::default()
    };
    (s, brawl)
}

/// Every roll of the Bandit's blow (d6, d10) and then of Asa's brawl (d6, d10), each with its
/// weight: the chance the request lands the brawl, and that Asa's fatigue rises, as resolved.
fn resolved_brawl(s: &State, brawl: &Strike) -> (f64, f64) {
    let (mut lands, mut rises) = (0.0, 0.0);
    for dice in (0..3600u32).map(|i| vec![i / 600 + 1, i / 60 % 10 + 1, i / 10 % 6 + 1, i % 10 + 1])
    {
        let mut t = s.clone();
        act(&mut t, 1, Action::Attack(brawl.clone()), &dice).unwrap();
        let w = 1.0 / 3600.0;
        if t.get(2).unwrap().hp < 5 {
            lands += w;
        }
        if t.get(1).unwrap().stat(FATIGUE) > 3 {
            rises += w;
        }
    }
    (lands, rises)
}

/// #14: a brawl past the attack it provokes is rolled at once, on the referee's one request
/// (not refused by the one-roll-a-turn rule): Asa gets past the Bandit's blow 5/12, and her
/// brawl then hits its dodge 8 with 3/10, so the request lands 1/8 (enumerated as resolved).
#[test]
fn heimr_6_14_a_brawl_past_the_provoked_attack_is_rolled() {
    let (s, brawl) = brawl_at_armed(6);
    assert_eq!(refusal(&s, 1, &Action::Attack(brawl.clone())), None);
    let pv = preview(&s, 1, &brawl).unwrap();
    near(pv.past.unwrap(), 5.0, 12.0);
    near(pv.lands.unwrap(), 1.0, 8.0);
    near(dice_distribution(1).at_least(8 - 1 + 1), 3.0, 10.0);
    // The Bandit d6 3, d10 2 → 7 ≤ 9: dodged; the brawl d6 6, d10 9 → 10 > 8: 1 HP.
    let mut t = s.clone();
    act(&mut t, 1, Action::Attack(brawl.clone()), &[3, 2, 6, 9]).unwrap();
    assert_eq!(t.get(2).unwrap().hp, 4, "{:?}", t.log);
    assert_eq!(
        refusal(&t, 1, &Action::Attack(brawl.clone())),
        Some("it has made its attack this turn".into())
    );
    let (lands, _) = resolved_brawl(&s, &brawl);
    assert!((lands - 1.0 / 8.0).abs() < 1e-12, "{lands}");
}

/// T6-5: the fatigue rise shown for a brawl past a provoked attack is the resolution's. Asa's
/// dodge 9 has d6 1 (below her fatigue 3): the Bandit's blow that stands on its fatigue
/// (14/15) uses the dodge and raises her fatigue; a blow failing on its fatigue (1/15) lets the
/// brawl be rolled, whose d6 raises it 1/3: 14/15 + 1/45 = 43/45 (the review's 14/15 is the
/// dodge's part, from before the brawl was rolled past it; the app showed 1/3). With the
/// dodge's d6 6 only the brawl's d6 counts: 5/12 · 1/3 = 5/36. Both match the resolution.
#[test]
fn heimr_6_t6_5_a_provoked_brawls_fatigue_rise_is_the_resolutions() {
    let (s, brawl) = brawl_at_armed(1);
    let pv = preview(&s, 1, &brawl).unwrap();
    near(pv.rise, 43.0, 45.0);
    near(dice_distribution(1).at_least(3), 14.0, 15.0);
    let (_, rises) = resolved_brawl(&s, &brawl);
    assert!((rises - 43.0 / 45.0).abs() < 1e-12, "{rises}");
    let (s, brawl) = brawl_at_armed(6);
    let pv = preview(&s, 1, &brawl).unwrap();
    near(pv.rise, 5.0, 36.0);
    let (_, rises) = resolved_brawl(&s, &brawl);
    assert!((rises - 5.0 / 36.0).abs() < 1e-12, "{rises}");
}

/// #31: a luck shot's fatigue rise is shown only for the d10 that lets it be rolled: at
/// fatigue 4, 1/10 · 1/2 = 1/20 (the app showed 1/2).
#[test]
fn heimr_6_31_a_luck_shots_fatigue_rise_counts_its_d10() {
    let mut s = fight(&[archer(), plain("Bandit")]);
    s.apply(&Event::Set(1, FATIGUE, 4));
    s.apply(&Event::Add(2, "Hidden".into(), Duration::Removed));
    let shot = Strike {
        target: 2,
        luck: true,
        ..Strike::default()
    };
    let pv = preview(&s, 1, &shot).unwrap();
    near(pv.rise, 1.0, 20.0);
}

/// T6-2: taking up gear is "Draw a weapon": on its own turn, for the standard action. Asa
/// (bow, no parry; her dodge used; Agility C 0, P 0; fatigue 4) in the Bandit's turn cannot
/// take up a sword: her only defence is a second dodge (C −2, P 0), which the Bandit's blow
/// (C 1, P 4, fatigue 3) beats 14/15. On her own turn it takes her standard action.
#[test]
fn heimr_6_t6_2_taking_up_gear_is_drawing_on_its_own_turn() {
    let asa = Npc {
        weapon: 5,
        agility_cp: (0, 0),
        base_fatigue: 4,
        ..Npc::default()
    };
    let mut s = fight(&[("Asa", asa), plain("Bandit")]);
    let sword = Action::TakeUp {
        weapon: 2,
        shield: 0,
        ability: 0,
        off: 0,
    };
    let mut t = s.clone();
    t.apply(&Event::Next);
    assert_eq!(t.current, Some(2));
    t.apply(&Event::Spend(1, 2, 1)); // her dodge used
    assert_eq!(
        refusal(&t, 1, &sword),
        Some("actions are taken on its own turn".into())
    );
    assert!(act(&mut t, 1, sword.clone(), &[]).is_err());
    assert!(defence_setup(&t, 1, Defence::Parry).is_err());
    let dodge = defence_setup(&t, 1, Defence::Dodge).unwrap();
    assert_eq!((dodge.c.value, dodge.p.value, dodge.fatigue), (-2, 0, 4));
    near(hit_vs_roll(1, 4, 3, (-2, 0, 4)).0, 14.0, 15.0);
    // Her own turn: drawing takes the standard action; nothing else standard after it.
    act(&mut s, 1, sword.clone(), &[]).unwrap();
    let c = s.get(1).unwrap();
    assert_eq!((c.stat(WEAPON), c.pools[STANDARD]), (2, 0));
    assert!(c.used.iter().any(|u| u == "Draw a weapon"));
    assert_eq!(
        refusal(&s, 1, &Action::Act(idx("Run"))),
        Some("its standard action is already used this turn".into())
    );
}

/// The intent's facts (§1): a take-up names which of its abilities it fights with; the numbers
/// are the fight's (the sheet's abilities as the combatant brought them), never the phone's.
/// The gear panel's pick starts on "as it fights now", not on Brawl.
#[test]
fn heimr_6_notes_taking_up_reads_the_abilities_from_the_fight() {
    use crate::rules::heimr::{Ability, Attr, HeimrSheet};
    let mut sheet = HeimrSheet::default();
    sheet
        .abilities
        .push(Ability::new("Swordmanship", &[Attr::Dex], 1));
    let me = combatant("Asa", &sheet, None);
    let list = abilities(&me);
    let k = list.iter().position(|a| a.0 == "Swordmanship").unwrap();
    let want = crate::rules::heimr::combat::ability_cp(&sheet, "Swordmanship").unwrap();
    assert_eq!((list[k].1, list[k].2), want);
    let mut s = State::new(&crate::rules::encounter::systems::HEIMR);
    s.apply(&Event::Join(me));
    let take = |ability| Action::TakeUp {
        weapon: 2,
        shield: 0,
        ability,
        off: 0,
    };
    assert_eq!(
        act(&mut s.clone(), 1, take(list.len() as u32 + 1), &[]),
        Err("no such ability on its sheet".into())
    );
    act(&mut s, 1, take(k as u32 + 1), &[]).unwrap();
    let c = s.get(1).unwrap();
    assert_eq!((c.stat(WEAPON_C), c.stat(WEAPON_P)), want);
}

/// T6-6: a charge is an ongoing action: once its attack is rolled the turn ends, so a free
/// guard or an upcoming skill after it is refused (it is the Bandit's turn).
#[test]
fn heimr_6_t6_6_a_charge_ends_the_turn_after_its_attack() {
    let mut s = fight(&[plain("Asa"), plain("Bandit"), plain("Cara")]);
    act(&mut s, 1, Action::Act(idx("Charge")), &[]).unwrap();
    assert_eq!(
        s.current,
        Some(1),
        "the charge keeps the turn for its attack"
    );
    let at = Strike {
        target: 2,
        ..Strike::default()
    };
    act(&mut s, 1, Action::Attack(at), &[1, 1]).unwrap();
    assert_ne!(s.current, Some(1));
    let own = Some("actions are taken on its own turn".to_owned());
    assert_eq!(refusal(&s, 1, &Action::Guard(3)), own);
    assert_eq!(
        refusal(&s, 1, &Action::Act(idx("Use a skill (upcoming)"))),
        own
    );
}

/// T6-10: a helpless (or sleeping) guard cannot respond: the blow at its ward meets the
/// ward's dodge 8: 11/15 (the app gave the guard 14/15 and the ward 0).
#[test]
fn heimr_6_t6_10_a_helpless_guard_does_not_intercept() {
    let mut s = fight(&[plain("Asa"), plain("G"), plain("W")]);
    show(&mut s, 3, Defence::Dodge, 8);
    s.apply(&Event::Set(2, GUARDING, 4));
    s.apply(&Event::Add(
        2,
        "Guarding".into(),
        Duration::Start { who: 2, n: 1 },
    ));
    let at = Strike {
        target: 3,
        ..Strike::default()
    };
    assert_eq!(
        preview(&s, 1, &at).unwrap().hits[0].0,
        2,
        "awake, it steps in"
    );
    s.apply(&Event::Add(2, "Sleeping".into(), Duration::Removed));
    assert_eq!(interceptor(&s, 1, 3), None);
    let pv = preview(&s, 1, &at).unwrap();
    assert_eq!(pv.hits.len(), 1);
    assert_eq!(pv.hits[0].0, 3);
    near(pv.hits[0].1, 11.0, 15.0);
}

/// T6-12: binds stop movement: bound feet refuse Move, Run and Charge (a crawl or a jump is
/// still possible); a bound body refuses every move from its place.
#[test]
fn heimr_6_t6_12_binds_stop_movement() {
    let mut s = fight(&[plain("Asa"), plain("Bandit")]);
    s.apply(&Event::Add(1, "Bound feet".into(), Duration::Removed));
    let feet = Some("bound feet: no walking or running, only jumping or crawling".to_owned());
    for a in ["Move", "Run", "Charge"] {
        assert_eq!(refusal(&s, 1, &Action::Act(idx(a))), feet, "{a}");
    }
    assert_eq!(refusal(&s, 1, &Action::Act(idx("Jump down"))), None);
    let mut t = fight(&[plain("Asa"), plain("Bandit")]);
    t.apply(&Event::Add(1, "Bound body".into(), Duration::Removed));
    let body = Some("bound body: it cannot move from its place".to_owned());
    for a in ["Move", "Run", "Charge", "Crawl", "Climb", "Jump down"] {
        assert_eq!(refusal(&t, 1, &Action::Act(idx(a))), body, "{a}");
    }
}

/// T6-14: the cover note says what the seed says: concealment works against any attacker
/// outside the combat cluster (not only those outside the square).
#[test]
fn heimr_6_t6_14_the_terrain_note_names_the_cluster() {
    use crate::rules::heimr::terrain::Kind;
    assert_eq!(
        Kind::Cover.note(),
        "concealment against any attacker outside its combat cluster"
    );
}

/// Review T6-4 (issue 54 §2): the sheet's breather and short rest are the fight's while its
/// character is in a running fight: refused on the sheet (fatigue stays 11, HP stays 3), the
/// sheet's again once the fight is over. Asa, fatigue 11 (base 3), HP 3 of 8.
#[test]
fn heimr_6_t6_4_the_sheets_breather_and_rest_wait_for_the_running_fight() {
    use crate::rules::edit::{in_fight, Edits};
    use crate::rules::encounter::{Combatant, Encounter};
    use crate::rules::heimr::{Edit, HeimrSheet};
    let mut sheet = HeimrSheet {
        fatigue: 11,
        hp: 3,
        hp_max: 8,
        ..HeimrSheet::default()
    };
    let mut e = Encounter::new("h".into(), "Bridge".into(), "heimr", 0).unwrap();
    let mut s = e.state();
    let mut asa = Combatant::new(s.rules, "Asa", 3);
    asa.link = Some("asa".into());
    e.push(Event::Join(asa), &mut s, 1);
    e.push(Event::Start, &mut s, 1);
    let running = e.runs_with("asa").then_some(e.name.as_str());
    for edit in [Edit::Breather, Edit::ShortRest] {
        let why = in_fight::<HeimrSheet>(&edit, running).expect("the fight's");
        assert!(why.starts_with("In a running fight (Bridge), "), "{why}");
    }
    assert_eq!(
        (sheet.fatigue, sheet.hp),
        (11, 3),
        "nothing changed on the sheet"
    );
    e.push(Event::End, &mut s, 1);
    let over = e.runs_with("asa").then_some(e.name.as_str());
    assert_eq!(in_fight::<HeimrSheet>(&Edit::Breather, over), None);
    sheet.apply(Edit::Breather).unwrap();
    assert_eq!(
        sheet.fatigue,
        sheet.base_fatigue(),
        "a breather out of combat: to base"
    );
}
