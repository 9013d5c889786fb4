//! The live table's protocol: views and their privacy, the stream and every gap, every refusal.

use super::*;
use crate::rules::encounter::referee::Turn;
use crate::rules::encounter::systems::VOGT;
use crate::rules::encounter::{rules_for, Combatant, Duration, Encounter, Event, State};
use crate::rules::referee::Intent;

fn fighter(name: &str, hp: i32, pc: bool, link: Option<&str>) -> Combatant {
    let mut c: Combatant =
        serde_json::from_str(&format!(r#"{{"name":"{name}","hp":{hp},"hp_max":{hp}}}"#)).unwrap();
    c.pc = pc;
    c.link = link.map(str::to_owned);
    c.stats = vec![13, 11];
    c
}

/// A Symbaroum fight: two player characters (sheets "a" and "b"), a goblin and a goblin chief.
fn fight() -> Encounter {
    fight_in("symbaroum")
}

/// The same fight in another system's rules: Heimr’s (its raw events checked by `check_raw` directly: every system with turns is refereed now)
/// (checked by `check_raw`) until it is refereed.
fn fight_in(system: &str) -> Encounter {
    let mut e = Encounter::new("f1".into(), "Ambush".into(), system, 0).unwrap();
    let mut s = e.state();
    for c in [
        fighter("Varla", 12, true, Some("a")),
        fighter("Bram", 10, true, Some("b")),
        fighter("Goblin", 8, false, None),
        fighter("Goblin Chief", 15, false, None),
    ] {
        e.push(Event::Join(c), &mut s, 1);
    }
    e.push(Event::Start, &mut s, 2);
    e
}

fn view(e: &Encounter, chars: &[&str]) -> View {
    let chars: Vec<String> = chars.iter().map(|c| c.to_string()).collect();
    view_for(&e.id, &e.name, &e.state(), &chars, e.into())
}

fn act(e: &mut Encounter, ev: Event) {
    let mut s = e.state();
    e.push(ev, &mut s, 3);
}

#[test]
fn a_players_view_has_their_own_combatant_in_full_and_no_npc_numbers() {
    let mut e = fight();
    act(&mut e, Event::Damage(vec![3], 3));
    act(&mut e, Event::Damage(vec![4], 12));
    act(&mut e, Event::Damage(vec![1], 4));
    act(&mut e, Event::Heal(vec![3], 1, false));
    act(&mut e, Event::Add(4, "Prone".into(), Duration::Removed));
    let v = view(&e, &["a"]);
    assert_eq!(v.head.round, 1);
    assert!(v.head.started);
    let seat = |n: &str| v.seats.iter().find(|s| s.name == n).unwrap();
    assert_eq!(seat("Varla").hp, Some((8, 12)));
    assert!(seat("Varla").mine);
    assert_eq!(
        seat("Bram").hp,
        Some((10, 10)),
        "other players' characters are shown"
    );
    assert!(!seat("Bram").mine);
    assert_eq!(seat("Goblin").hp, None);
    assert_eq!(seat("Goblin").word, "hurt");
    assert_eq!(seat("Goblin Chief").word, "bloodied");
    assert_eq!(seat("Goblin Chief").conditions, ["Prone"]);
    assert_eq!(v.own.len(), 1);
    assert_eq!(v.own[0].name, "Varla");
    assert_eq!(v.own[0].stats[..2], [13, 11]);
    // The GM's log has the goblins' numbers; the player's has words.
    let gm: Vec<String> = e.state().log.iter().map(|l| l.text.clone()).collect();
    assert!(
        gm.iter()
            .any(|l| l == "Goblin takes 3 damage: Toughness 8 → 5"),
        "{gm:?}"
    );
    assert!(
        v.log.iter().any(|l| l == "Goblin takes 3 damage: hurt"),
        "{:?}",
        v.log
    );
    assert!(
        v.log
            .iter()
            .any(|l| l == "Goblin Chief takes 12 damage: bloodied"),
        "{:?}",
        v.log
    );
    assert!(
        v.log.iter().any(|l| l.starts_with("Goblin heals 1: hurt")),
        "{:?}",
        v.log
    );
    assert!(
        v.log
            .iter()
            .any(|l| l == "Varla takes 4 damage: Toughness 12 → 8"),
        "{:?}",
        v.log
    );
    // Nothing of the NPCs' numbers is in what is sent at all.
    let sent = serde_json::to_string(&v).unwrap();
    for secret in ["8 → 5", "15 → 3", "\"hp\":5", "\"hp\":3"] {
        assert!(!sent.contains(secret), "{secret} in {sent}");
    }
    assert!(!sent.contains("\"stats\":[13,11],\"texts\":[],\"hp\":5"));
    assert_eq!(
        sent.matches("\"stats\"").count(),
        2,
        "only the player's own combatant and the other player character in full"
    );
    assert_eq!(v.open.len(), 1);
    assert_eq!(v.open[0].name, "Bram");
}

#[test]
fn words_and_redaction() {
    assert_eq!(word(10, 10, false), "unhurt");
    assert_eq!(word(6, 10, false), "hurt");
    assert_eq!(word(5, 10, false), "bloodied");
    assert_eq!(word(0, 10, false), "down");
    assert_eq!(word(-3, 10, false), "down");
    assert_eq!(word(10, 10, true), "dead");
    let g = fighter("Goblin", 8, false, None);
    let g2 = fighter("Goblin 2", 20, false, None);
    let chief = fighter("Goblin Chief", 15, false, None);
    let varla = fighter("Varla", 9, true, None);
    let hidden = [(&g, true), (&g2, true), (&chief, false), (&varla, false)];
    assert_eq!(
        redact("Goblin takes 9 damage: HP 8 → -1, dead", &hidden, &VOGT),
        "Goblin takes 9 damage: down, dead"
    );
    assert_eq!(
        redact("Goblin 2 takes 5 damage: HP 20 → 15", &hidden, &VOGT),
        "Goblin 2 takes 5 damage: hurt"
    );
    assert_eq!(redact("Goblin’s turn", &hidden, &VOGT), "Goblin’s turn");
    // Bo Vogt's second drop to 0 halves the track's maximum: that number goes too.
    assert_eq!(
        redact(
            "Goblin takes 5 damage: HP 3 → 0, exhaustion 2, HP max halved to 5, prone",
            &hidden,
            &VOGT
        ),
        "Goblin takes 5 damage: down, exhaustion 2, prone"
    );
    // A revealed "Goblin Chief" is not the hidden "Goblin".
    assert_eq!(
        redact("Goblin Chief takes 3 damage: HP 15 → 12", &hidden, &VOGT),
        "Goblin Chief takes 3 damage: HP 15 → 12"
    );
    assert_eq!(
        redact("Goblinoid takes 3 damage: HP 15 → 12", &hidden, &VOGT),
        "Goblinoid takes 3 damage: HP 15 → 12"
    );
    assert_eq!(
        redact("Varla takes 5 damage: HP 9 → 4", &hidden, &VOGT),
        "Varla takes 5 damage: HP 9 → 4"
    );
}

/// Every pair of views met in a fight, including a log longer than a view's window and undo.
fn views() -> Vec<View> {
    let mut e = fight();
    let mut out = vec![view(&e, &["a"])];
    for i in 0..(LOG_LINES + 40) {
        let ev = match i % 7 {
            0 => Event::Damage(vec![(i % 4) as u32 + 1], 1),
            1 => Event::Next,
            2 => Event::Note(format!("note {i}")),
            3 => Event::Add(
                if i % 2 == 0 { 3 } else { 1 },
                "Prone".into(),
                Duration::Removed,
            ),
            4 => Event::Heal(vec![1], 1, false),
            5 => Event::Note(format!("note {i}")),
            _ => Event::Note("same".into()),
        };
        act(&mut e, ev);
        if i % 11 == 0 {
            e.undo(4);
        }
        if i % 13 == 0 {
            e.undo(4);
            e.undo(4);
            e.redo(4);
        }
        out.push(view(&e, &["a"]));
    }
    out
}

#[test]
fn a_diff_applied_gives_the_new_view_for_every_pair() {
    let vs = views();
    assert!(vs.last().unwrap().log.len() == LOG_LINES);
    let mut pairs = 0;
    for (i, old) in vs.iter().enumerate() {
        for new in vs.iter().skip(i.saturating_sub(3)).take(40) {
            let mut v = old.clone();
            apply(&mut v, diff(old, new));
            assert_eq!(&v, new);
            pairs += 1;
        }
    }
    assert!(pairs > 5000, "{pairs}");
    assert!(diff(&vs[5], &vs[5]).is_empty());
    // A full window moving on by one sends one line, not the window.
    let (a, b) = (&vs[vs.len() - 2], &vs[vs.len() - 1]);
    let change = diff(a, b);
    let added = change.log.as_ref().map_or(0, |l| l.2.len());
    assert!((1..=2).contains(&added), "{change:?}");
}

/// A lead and a follower over a channel that delivers what `pass` lets through.
fn stream(pass: impl Fn(usize) -> bool) -> (Lead, Follow, View) {
    let vs = views();
    let mut lead = Lead::default();
    let mut follow = Follow::default();
    for m in lead.catch_up(0, vs[0].clone()) {
        follow.receive(m);
    }
    let last = vs.len() - 1;
    for (n, v) in vs.iter().enumerate().skip(1) {
        if let Some(m) = lead.update(v.clone()) {
            // A lost last step is noticed with the next one: the last one gets through here.
            if pass(n) || n == last {
                if let Got::Gap { have } = follow.receive(m) {
                    for m in lead.catch_up(have, v.clone()) {
                        assert_ne!(follow.receive(m), Got::Gap { have: follow.seq });
                    }
                }
            }
        }
    }
    (lead, follow, vs.last().unwrap().clone())
}

#[test]
fn a_follower_on_a_perfect_channel_shows_every_step() {
    let (lead, follow, last) = stream(|_| true);
    assert_eq!(follow.view.as_ref(), Some(&last));
    assert_eq!(follow.seq, lead.seq());
}

#[test]
fn every_gap_is_noticed_and_caught_up() {
    for lost in [1, 2, 17, 100, 239] {
        let (_, follow, last) = stream(|n| n != lost);
        assert_eq!(follow.view.as_ref(), Some(&last), "lost step {lost}");
    }
    let (_, follow, last) = stream(|n| n % 3 != 0);
    assert_eq!(follow.view.as_ref(), Some(&last));
}

#[test]
fn catch_up_from_every_point_a_phone_can_hold() {
    let vs = views();
    let mut lead = Lead::default();
    let mut held = vec![];
    for m in lead.catch_up(0, vs[0].clone()) {
        let mut f = Follow::default();
        f.receive(m);
        held.push(f);
    }
    for v in &vs[1..] {
        if let Some(m) = lead.update(v.clone()) {
            let mut f = held.last().unwrap().clone();
            assert_eq!(f.receive(m.clone()), Got::Shown);
            assert_eq!(f.receive(m), Got::Old, "a step sent twice changes nothing");
            held.push(f);
        }
    }
    let last = vs.last().unwrap().clone();
    let newest = lead.seq();
    assert!(newest > HISTORY as u64 + 10);
    for f in &held {
        let (mut f, mut lead) = (f.clone(), lead.clone());
        let msgs = lead.catch_up(f.seq, last.clone());
        let snapshot = matches!(msgs[..], [ToPlayer::Snapshot { .. }]);
        // Steps when every missed one is kept; a snapshot otherwise.
        assert_eq!(snapshot, newest - f.seq > HISTORY as u64, "held {}", f.seq);
        for m in msgs {
            assert_eq!(f.receive(m), Got::Shown);
        }
        assert_eq!(f.view.as_ref(), Some(&last));
        assert_eq!(f.seq, lead.seq());
    }
    // A phone that held nothing, or steps of a lead that was since reloaded, gets a snapshot.
    for have in [0, lead.seq() + 5] {
        let msgs = lead.catch_up(have, last.clone());
        assert!(matches!(msgs[..], [ToPlayer::Snapshot { .. }]), "{have}");
    }
    let mut fresh = Lead::default();
    assert!(
        fresh.update(last.clone()).is_none(),
        "no step before a snapshot"
    );
    let mut f = Follow::default();
    assert_eq!(
        f.receive(ToPlayer::Step {
            seq: 1,
            change: Change::default()
        }),
        Got::Gap { have: 0 }
    );
    assert_eq!(f.view, None);
}

#[test]
fn a_peers_messages_are_checked_like_an_import() {
    let hello = r#"{"v":11,"token":"p1","fight":"f1","have":0,"chars":["a"]}"#;
    assert!(matches!(read_to_gm(hello), Ok(ToGm::Hello { .. })));
    assert_eq!(
        read_to_gm(r#"{"v":11,"have":3}"#),
        Ok(ToGm::Resync { have: 3 })
    );
    // Every message's version is checked, not only a greeting's: an older phone's request or
    // resync is refused with what to do, and so is a step from an older GM's phone; a refusal
    // is read from any version (it is how an older GM's phone says to update).
    assert_eq!(read_to_gm(r#"{"v":3,"have":3}"#), Err(Refused::Version(3)));
    assert_eq!(
        read_to_gm(r#"{"v":2,"have":0,"ask":[1,1,"Next"]}"#),
        Err(Refused::Version(2))
    );
    // Protocol 3's intent (a pair) from an older phone: told to update, never misread.
    assert_eq!(
        read_to_gm(r#"{"v":3,"have":0,"act":[1,1,[0,0],[]]}"#),
        Err(Refused::Version(3))
    );
    assert_eq!(
        read_to_gm(r#"{"v":12,"have":0,"act":[1,1,[0],[]]}"#),
        Err(Refused::Version(12))
    );
    // Protocols 4 and 5 did not know Heimr's attack, Tempo's exchange or Aura's intents: an
    // older phone is told.
    for v in [4, 5, 6, 7] {
        assert_eq!(
            read_to_gm(&format!(r#"{{"v":{v},"have":0,"act":[1,1,[0],[]]}}"#)),
            Err(Refused::Version(v))
        );
    }
    assert_eq!(
        read_to_gm(r#"{"v":11,"have":0,"act":[1,1,[0],[]]}"#),
        Ok(ToGm::Ask {
            n: 1,
            who: 1,
            req: Request::Act(Intent::Turn(Turn::End), Vec::new())
        })
    );
    // An action this version does not know, or two requests in one: not a message of the table.
    for bad in [
        r#"{"v":11,"have":0,"act":[1,1,[999],[]]}"#,
        r#"{"v":11,"have":0,"act":[1,1,[0,0],[]]}"#,
        r#"{"v":11,"have":0,"act":[1,1,[],[]]}"#,
        r#"{"v":11,"have":0,"act":[1,1,[204,1],[]]}"#,
        r#"{"v":11,"have":0,"act":[1,1,[0],[]],"ask":[1,1,"Next"]}"#,
    ] {
        assert!(matches!(read_to_gm(bad), Err(Refused::Shape(_))), "{bad}");
    }
    // Every intent survives its wire form.
    use crate::rules::symbaroum::referee::Action;
    use crate::rules::vogt::referee::{Action as V, Plan};
    for i in [
        Intent::Turn(Turn::End),
        Intent::Turn(Turn::WaitLast),
        Intent::Turn(Turn::Before(7)),
        Intent::Symbaroum(Action::StandUp),
        Intent::Symbaroum(Action::DeathTest),
        Intent::Symbaroum(Action::Leave(false)),
        Intent::Symbaroum(Action::Leave(true)),
        Intent::Symbaroum(Action::Draw(2)),
        Intent::Symbaroum(Action::Aid {
            target: 3,
            kind: crate::rules::symbaroum::referee::Aid::Both,
        }),
        Intent::Vogt(V::Declare(Plan::Attack(2))),
        Intent::Vogt(V::Declare(Plan::Technique(3))),
        Intent::Vogt(V::Reevaluate(Plan::Defend)),
        Intent::Vogt(V::Reevaluate(Plan::Help)),
        Intent::Vogt(V::Declare(Plan::Run)),
        Intent::Vogt(V::Attack {
            weapon: 1,
            extra: -3,
            targets: vec![2, 5],
        }),
        Intent::Vogt(V::UseTechnique),
        Intent::Vogt(V::Technique {
            dtype: 4,
            extra: -2,
            targets: vec![2, 3],
        }),
        Intent::Vogt(V::Break(1)),
        Intent::Vogt(V::Break(crate::rules::vogt::referee::BREAK_ARMOR)),
        Intent::Vogt(V::Defend),
        Intent::Vogt(V::Run),
        Intent::Vogt(V::Help(4)),
        Intent::Vogt(V::Table),
        Intent::Vogt(V::Tie(2)),
    ] {
        assert_eq!(Intent::from_code(&i.code()), Some(i.clone()));
        let m = ToGm::Ask {
            n: 2,
            who: 1,
            req: Request::Act(i, vec![(20, 3), (4, 1)]),
        };
        assert_eq!(read_to_gm(&serde_json::to_string(&m).unwrap()), Ok(m));
    }
    assert_eq!(
        read_to_player(r#"{"seq":4,"change":{"head":null}}"#).map(|_| ()),
        Err(Refused::Version(0))
    );
    assert_eq!(
        read_to_player(r#"{"why":"update"}"#),
        Ok(ToPlayer::Refused {
            why: "update".into()
        })
    );
    assert!(Refused::Version(2)
        .to_string()
        .contains("update both phones"));
    // Over the limit: refused before parsing (garbage that size is not even read).
    let huge = "x".repeat(MAX_MESSAGE + 1);
    assert_eq!(read_to_gm(&huge), Err(Refused::TooLarge(257, 16)));
    assert_eq!(read_to_player(&huge), Err(Refused::TooLarge(257, 256)));
    assert_eq!(
        read_to_gm(&format!("{{{}", " ".repeat(MAX_FROM_PLAYER))),
        Err(Refused::TooLarge(17, 16))
    );
    for bad in [
        "",
        "garbage",
        "{}",
        r#"{"attack":{}}"#,
        r#"{"v":11}"#,
        r#"{"v":11,"have":0,"chars":["a"]}"#,
        "[1,2]",
        r#"{"seq":1}"#,
    ] {
        assert!(matches!(read_to_gm(bad), Err(Refused::Shape(_))), "{bad}");
        assert!(
            matches!(read_to_player(bad), Err(Refused::Shape(_))),
            "{bad}"
        );
    }
    // A message to the player is one snapshot, one step or one refusal, never a mix.
    let shown = serde_json::to_string(&View {
        log: vec![],
        ..view_of_nothing()
    })
    .unwrap();
    for bad in [
        format!(r#"{{"seq":1,"view":{shown},"why":"no"}}"#),
        r#"{"seq":1,"change":{},"why":"no"}"#.to_owned(),
    ] {
        assert!(
            matches!(read_to_player(&bad), Err(Refused::Shape(_))),
            "{bad}"
        );
    }
    assert_eq!(
        read_to_gm(&hello.replace("\"v\":11", "\"v\":2")),
        Err(Refused::Version(2))
    );
    // A long note in the log reaches a player cut short: a snapshot always fits a channel.
    let mut e = fight();
    act(&mut e, Event::Note("é".repeat(3000)));
    let v = view(&e, &["a"]);
    let long = v.log.last().unwrap();
    assert!(
        long.len() <= LINE_BYTES + 3 && long.ends_with('…'),
        "{}",
        long.len()
    );
    assert!(
        matches!(read_to_gm(&hello.replace("\"p1\"", "\"\"")), Err(Refused::Shape(e)) if e.contains("without its token"))
    );
    let many = format!("[{}]", vec!["\"x\""; MAX_CHARS + 1].join(","));
    assert!(matches!(
        read_to_gm(&hello.replace("[\"a\"]", &many)),
        Err(Refused::Wrong(_))
    ));
    // Numbers out of range are a shape error, never a panic.
    assert!(read_to_gm(r#"{"v":1,"have":-1}"#).is_err());
}

fn view_of_nothing() -> View {
    view(&fight(), &[])
}

#[test]
fn every_message_survives_its_wire_form() {
    let f = fight();
    let msgs = [
        ToPlayer::Snapshot {
            seq: 3,
            view: view(&f, &["a"]),
        },
        ToPlayer::Step {
            seq: 4,
            change: diff(&view_of_nothing(), &view(&f, &["a"])),
        },
        ToPlayer::Refused {
            why: "another fight".into(),
        },
        ToPlayer::Answer {
            n: 4,
            taken: true,
            why: String::new(),
        },
        ToPlayer::Answer {
            n: 5,
            taken: false,
            why: "it is Bram’s turn".into(),
        },
    ];
    for m in msgs {
        assert_eq!(read_to_player(&serde_json::to_string(&m).unwrap()), Ok(m));
    }
    for m in [
        ToGm::Hello {
            v: VERSION,
            token: "t".into(),
            fight: "f1".into(),
            have: 2,
            chars: vec!["a".into()],
        },
        ToGm::Resync { have: 9 },
        ToGm::Ask {
            n: 4,
            who: 1,
            req: Request::Event(Event::Batch(vec![
                Event::Note("Varla hits".into()),
                Event::Damage(vec![3], 4),
            ])),
        },
    ] {
        assert_eq!(read_to_gm(&serde_json::to_string(&m).unwrap()), Ok(m));
    }
}

#[test]
fn pairing_codes_round_trip_and_are_checked() {
    let c = Code {
        table: VERSION,
        answer: false,
        fight: "f1".into(),
        name: "Ambush".into(),
        seat: 2,
        sdp: "v=0\r\n".into(),
    };
    let json = c.json();
    assert!(is_code(&json));
    assert!(!is_code(r#"{"schema_version":1}"#));
    assert_eq!(Code::read(&json), Ok(c.clone()));
    assert_eq!(
        Code::read(&json.replace(&format!("\"table\":{VERSION}"), "\"table\":12")),
        Err(Refused::Version(12))
    );
    assert!(matches!(
        Code::read(&json.replace("\"seat\":2", "\"seat\":8")),
        Err(Refused::Wrong(_))
    ));
    let long = Code {
        sdp: "a".repeat(MAX_SDP + 1),
        ..c
    };
    assert!(Code::read(&long.json()).is_err());
    assert!(matches!(
        Code::read("{\"table\":1}"),
        Err(Refused::Shape(_))
    ));
}

#[test]
fn a_view_of_a_fight_not_started_and_of_a_system_counting_from_zero() {
    let e = Encounter::new("t".into(), "Duel".into(), "tempo", 0).unwrap();
    let v = view(&e, &[]);
    assert!(!v.head.started);
    let mut s = State::new(rules_for("tempo").unwrap());
    s.apply(&Event::Join(fighter("A", 5, true, Some("x"))));
    s.apply(&Event::Start);
    let v = view_for("t", "Duel", &s, &["x".into()], Secrets::default());
    assert!(v.head.started);
    assert_eq!(v.head.round, 0, "Tempo counts its rounds from 0");
    assert_eq!(v.own.len(), 1);
}

/// An offer as Chromium made it on the test machine (non-trickle, two host candidates).
const OFFER: &str = "v=0\r\no=- 1513040471590779028 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\na=extmap-allow-mixed\r\na=msid-semantic: WMS\r\nm=application 58755 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 192.0.2.2\r\na=candidate:2085551646 1 udp 2113937151 192.0.2.2 58755 typ host generation 0 network-cost 999\r\na=candidate:2067567278 1 udp 2113942271 fd00::2 40566 typ host generation 0 network-cost 999\r\na=candidate:9 1 tcp 1518280447 192.0.2.2 9 typ host tcptype active generation 0\r\na=candidate:7 1 udp 2113937151 0b8e0b8c-5b1f-4d0e-a4a8-1c7c2f3d9e10.local 51234 typ host generation 0\r\na=ice-ufrag:nWMw\r\na=ice-pwd:RW/c8Ca5SR7q/b9C+55Z0xq+\r\na=ice-options:trickle\r\na=fingerprint:sha-256 8F:19:CC:C6:A2:D3:28:53:D7:97:BC:AA:CC:1A:41:6B:84:B9:F8:6C:5D:D1:AA:3B:10:A1:E7:59:0B:31:EE:46\r\na=setup:actpass\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n";

#[test]
fn a_session_description_compacts_to_what_a_data_channel_needs_and_back() {
    let short = compact(OFFER).unwrap();
    assert!(
        short.starts_with("nWMw RW/c8Ca5SR7q/b9C+55Z0xq+ "),
        "{short}"
    );
    assert!(
        short.ends_with(
            " x 192.0.2.2/58755 fd00::2/40566 0b8e0b8c-5b1f-4d0e-a4a8-1c7c2f3d9e10.local/51234"
        ),
        "{short}"
    );
    assert!(short.len() < 200, "{} characters", short.len());
    let full = expand(&short).unwrap();
    for line in [
        "a=ice-ufrag:nWMw",
        "a=ice-pwd:RW/c8Ca5SR7q/b9C+55Z0xq+",
        "a=fingerprint:sha-256 8F:19:CC:C6:A2:D3:28:53:D7:97:BC:AA:CC:1A:41:6B:84:B9:F8:6C:5D:D1:AA:3B:10:A1:E7:59:0B:31:EE:46",
        "a=setup:actpass",
        "a=candidate:1 1 udp 2113937151 192.0.2.2 58755 typ host generation 0",
        "a=candidate:2 1 udp 2113936895 fd00::2 40566 typ host generation 0",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    ] {
        assert!(full.contains(&format!("{line}\r\n")), "{line} in {full}");
    }
    assert_eq!(
        compact(&full).as_deref(),
        Some(short.as_str()),
        "a fixed point"
    );
    let answer = OFFER.replace("a=setup:actpass", "a=setup:active");
    assert!(expand(&compact(&answer).unwrap())
        .unwrap()
        .contains("a=setup:active\r\n"));
    // Damaged or hostile: no description, never a line break or a strange address written in.
    for bad in [
        "",
        "a b",
        "u p !!! x",
        "u p AAAA x",
        &short.replace(" x ", " q "),
        &format!("{short} 1.2.3.4/99999"),
        &format!("{short} evil\r\na=x/1"),
        &format!("{short} 1.2.3.4"),
    ] {
        assert_eq!(expand(bad), None, "{bad:?}");
    }
    assert_eq!(compact("v=0\r\n"), None);
}

#[test]
fn an_npc_the_gm_hid_shows_from_its_first_turn_and_one_revealed_shows_its_numbers() {
    let mut e = fight();
    // An ambusher hidden before it is seen: not in the order, not in the log, not on the wire.
    let mut s = e.state();
    e.push(Event::Join(fighter("Ambusher", 9, false, None)), &mut s, 5);
    let id = s.combatants.last().unwrap().id;
    assert!(Encounter::toggle(&mut e.hidden, id));
    act(&mut e, Event::Damage(vec![id], 2));
    let v = view(&e, &["a"]);
    let wire = serde_json::to_string(&v).unwrap();
    assert!(!wire.contains("Ambusher"), "{wire}");
    // Turns go round until its own: from then on it is seen, its numbers still as words.
    for _ in 0..8 {
        if e.state().current == Some(id) {
            break;
        }
        act(&mut e, Event::Next);
    }
    assert_eq!(e.state().current, Some(id), "its turn came");
    let v = view(&e, &["a"]);
    let seat = v
        .seats
        .iter()
        .find(|s| s.name == "Ambusher")
        .expect("seen from its turn");
    assert_eq!((seat.hp, seat.word.as_str()), (None, "hurt"));
    assert!(
        v.log.iter().any(|l| l == "Ambusher takes 2 damage: hurt"),
        "{:?}",
        v.log
    );
    // Undo before its turn hides it again (the view follows the log).
    e.undo(6);
    assert!(!serde_json::to_string(&view(&e, &["a"]))
        .unwrap()
        .contains("Ambusher"));
    e.redo(6);
    // The GM reveals the goblin chief: its numbers, in the order and the log.
    act(&mut e, Event::Damage(vec![4], 3));
    assert!(Encounter::toggle(&mut e.revealed, 4));
    let v = view(&e, &["a"]);
    let chief = v.seats.iter().find(|s| s.name == "Goblin Chief").unwrap();
    assert_eq!(chief.hp, Some((12, 15)));
    assert!(
        v.log
            .iter()
            .any(|l| l == "Goblin Chief takes 3 damage: Toughness 15 → 12"),
        "{:?}",
        v.log
    );
    assert!(!Encounter::toggle(&mut e.revealed, 4), "toggled back");
    assert_eq!(
        view(&e, &["a"])
            .seats
            .iter()
            .find(|s| s.name == "Goblin Chief")
            .unwrap()
            .hp,
        None
    );
}

/// The fight with its turn at combatant `who` (the order walked with Next).
fn at_turn(e: &mut Encounter, who: u32) -> State {
    for _ in 0..8 {
        if e.state().current == Some(who) {
            break;
        }
        act(e, Event::Next);
    }
    let s = e.state();
    assert_eq!(s.current, Some(who));
    s
}

#[test]
fn a_players_phone_knows_the_fight_its_panels_need_and_no_more() {
    let mut e = fight();
    act(&mut e, Event::Add(1, "Prone".into(), Duration::Removed));
    act(&mut e, Event::Add(3, "Prone".into(), Duration::Removed));
    act(&mut e, Event::Damage(vec![3], 2));
    e.revealed.push(4);
    let gm = e.state();
    let mine = view(&e, &["a"]).state().unwrap();
    // Its own combatant and those it sees in numbers (Bram, the revealed chief) in full; the
    // goblin, whose numbers the GM keeps, by name and word (issue 54 §5: still a target).
    let names: Vec<&str> = mine
        .combatants
        .iter()
        .filter(|c| !c.gone && !mine.veiled.contains(&c.id))
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["Varla", "Bram", "Goblin Chief"]);
    assert_eq!(mine.veiled, vec![3]);
    for c in mine
        .combatants
        .iter()
        .filter(|c| !mine.veiled.contains(&c.id))
    {
        let theirs = gm.get(c.id).unwrap();
        let link = if c.id == 1 { theirs.link.clone() } else { None };
        assert_eq!(
            *c,
            Combatant {
                link,
                ..theirs.clone()
            },
            "{} as the GM has it",
            c.name
        );
    }
    // The goblin by name and a word only: no numbers of it (standing: 1 of 1).
    let goblin = mine.get(3).unwrap();
    assert_eq!((goblin.name.as_str(), goblin.gone), ("Goblin", false));
    assert_eq!((goblin.hp, goblin.hp_max), (1, 1));
    assert!(goblin.stats.iter().all(|&x| x == 0) && goblin.texts.is_empty());
    assert!(mine.has(1, "Prone"));
    assert!(
        !mine.has(3, "Prone"),
        "its conditions stay on the GM's phone"
    );
    assert_eq!(
        (mine.round, mine.current, mine.ended),
        (gm.round, gm.current, gm.ended)
    );
    assert_eq!(mine.order, gm.order, "every seat in the GM's order");
    // The system's own odds come out the same on both phones.
    use crate::rules::symbaroum::combat::attack;
    for (a, b) in [(1, 4), (1, 2), (2, 1)] {
        let on = |s: &State| attack(s.get(a).unwrap(), s.get(b).unwrap(), false, false, false);
        assert_eq!(on(&mine), on(&gm), "{a} against {b}");
    }
}

#[test]
fn a_request_is_taken_only_for_the_senders_combatant_in_its_turn() {
    let mut e = fight_in("heimr");
    let a = vec!["a".to_owned()];
    let gm = Secrets::default();
    let end = Request::Act(Intent::Turn(Turn::End), Vec::new());
    // Before the start, nothing.
    let fresh = Encounter::new("f2".into(), "x".into(), "heimr", 0).unwrap();
    let mut s0 = fresh.state();
    s0.apply(&Event::Join(fighter("Varla", 12, true, Some("a"))));
    assert_eq!(
        check_request(&s0, &a, 1, &end, gm).unwrap_err(),
        "the fight has not started"
    );
    let s = at_turn(&mut e, 1);
    assert_eq!(
        check_request(&s, &a, 1, &end, gm).map(|r| r.0),
        Ok(Event::Next),
        "ending its own turn"
    );
    // Another's combatant, a combatant not there.
    assert_eq!(
        check_request(&s, &a, 2, &end, gm).unwrap_err(),
        "Bram is not one of this player’s characters"
    );
    assert_eq!(
        check_request(&s, &a, 9, &end, gm).unwrap_err(),
        "no such combatant in this fight"
    );
    // Anything as a raw event, the GM's own steps included: refused, whatever it is.
    let raw = [
        Event::Note("Varla hits the goblin".into()),
        Event::Damage(vec![3], 4),
        Event::Next,
        Event::Start,
        Event::End,
        Event::Leave(3),
        Event::Sync(1, 12, 0, false),
        Event::Join(fighter("Extra", 5, false, None)),
        Event::Death(2, 3, 1),
        Event::Place(2, None),
        Event::Remove(999),
        Event::Batch(Vec::new()),
        Event::Damage(vec![3], i32::MAX),
    ];
    for ev in raw {
        assert_eq!(
            check_ask(&s, &a, 1, &ev, gm),
            Err("a change the rules did not make (this game’s actions are intents)".into()),
            "{ev:?}"
        );
    }
    // Out of turn, the turn is not its to end; Bram's player may end his.
    let s = at_turn(&mut e, 2);
    assert!(check_request(&s, &a, 1, &end, gm).is_err());
    assert!(check_request(&s, &["b".to_owned()], 2, &end, gm).is_ok());
    // After the end.
    act(&mut e, Event::End);
    assert_eq!(
        check_request(&e.state(), &a, 1, &end, gm).unwrap_err(),
        "the fight is over"
    );
}

#[test]
fn a_request_out_of_range_is_refused_and_answered() {
    let mut e = fight_in("heimr");
    let s = at_turn(&mut e, 1);
    let a = vec!["a".to_owned()];
    let too_big = Event::Damage(vec![3], i32::MAX);
    // It reads (so the phone gets its answer), and is refused.
    let wire = ToGm::Ask {
        n: 1,
        who: 1,
        req: Request::Event(too_big.clone()),
    };
    assert_eq!(read_to_gm(&serde_json::to_string(&wire).unwrap()), Ok(wire));
    assert!(check_ask(&s, &a, 1, &too_big, Secrets::default()).is_err());
    // Too many dice are refused before they are replayed.
    let many = Request::Act(Intent::Turn(Turn::End), vec![(6, 1); 401]);
    assert_eq!(
        check_request(&s, &a, 1, &many, Secrets::default()).unwrap_err(),
        "more than 400 dice"
    );
    // A greeting with a request in it is neither.
    let both = r#"{"v":11,"have":0,"token":"t","fight":"f1","ask":[1,1,"Next"]}"#;
    assert!(matches!(read_to_gm(both), Err(Refused::Shape(_))));
}

#[test]
fn a_request_shows_the_gm_all_it_changes_and_touches_only_what_its_player_sees() {
    use crate::rules::heimr::referee::Action as H;
    let mut e = fight_in("heimr");
    e.hidden.push(4);
    let s = at_turn(&mut e, 1);
    let a = vec!["a".to_owned()];
    // What the GM is shown of a step: a number set without a line is shown all the same.
    let quiet = Event::Batch(vec![Event::Note("Varla waits".into()), Event::Set(2, 1, 5)]);
    let lines = preview(&s, &quiet);
    assert_eq!(lines[0], "Varla waits");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Bram: ") && l.ends_with(" 11 → 5")),
        "{lines:?}"
    );
    // The hidden chief is out of a request's reach (the goblin, its numbers hidden, is named
    // on the player's phone: an intent may name it), and the refusal does not name a
    // combatant the player does not see.
    let secrets = Secrets::from(&e);
    let guard = |w: u32| Request::Act(Intent::Heimr(H::Guard(w)), Vec::new());
    let unseen = "a combatant that is not in this fight (as this player sees it)";
    assert_eq!(
        check_request(&s, &a, 1, &guard(4), secrets).unwrap_err(),
        unseen
    );
    assert_eq!(
        check_request(&s, &a, 4, &guard(1), secrets).unwrap_err(),
        "that combatant is not one of this player’s characters"
    );
    assert!(check_request(&s, &a, 1, &guard(3), secrets).is_ok());
    // Another player's character comes without the sheet it is linked to, and nothing of
    // the hidden chief (its conditions neither) reaches the player.
    act(&mut e, Event::Add(4, "Prone".into(), Duration::Removed));
    let v = view(&e, &["a"]);
    assert!(v.open.iter().all(|c| c.link.is_none()));
    assert!(v.open.iter().any(|c| c.name == "Bram"));
    assert!(v.active.iter().all(|x| x.who != 4), "{:?}", v.active);
    assert!(!serde_json::to_string(&v).unwrap().contains("Goblin Chief"));
}

/// A Tempo duel: Ilse (player "a", a default sheet) and Brigand, both On Guard, started with
/// these initiatives.
fn tempo_duel(ilse_init: i32, brigand_init: i32) -> (Encounter, State) {
    use crate::rules::tempo::combat::{from_sheet, status_events};
    use crate::rules::tempo::tests::test_npc;
    use crate::rules::tempo::{Status, TempoSheet};
    let mut e = Encounter::new("t1".into(), "Duel".into(), "tempo", 0).unwrap();
    let mut s = e.state();
    let mut ilse = from_sheet("Ilse", &TempoSheet::default());
    ilse.link = Some("a".into());
    for ev in [
        Event::Join(ilse),
        Event::Join(test_npc("Brigand")),
        Event::Init(1, vec![ilse_init]),
        Event::Init(2, vec![brigand_init]),
    ] {
        e.push(ev, &mut s, 1);
    }
    for who in [1, 2] {
        let on_guard = Event::Batch(status_events(&s, who, Status::OnGuard));
        e.push(on_guard, &mut s, 1);
    }
    e.push(Event::Start, &mut s, 2);
    (e, s)
}

#[test]
fn out_of_its_turn_a_tempo_player_answers_what_is_declared_against_it_and_nothing_else() {
    use crate::rules::tempo::combat::{answer_events, declare_events};
    use crate::rules::tempo::ACTIONS;
    let (mut e, mut s) = tempo_duel(2, 9);
    assert_eq!(s.current, Some(2), "the brigand acts first");
    let a = vec!["a".to_owned()];
    let parry = ACTIONS.iter().position(|x| x.name == "Parry").unwrap();
    let attack = ACTIONS
        .iter()
        .position(|x| x.name == "Melee Attack")
        .unwrap();
    // Nothing declared yet: no answer; and raw events never (Tempo is refereed).
    let note = Event::Note("Ilse parries".into());
    let turn = Err("a change the rules did not make (this game’s actions are intents)".to_owned());
    assert_eq!(check_ask(&s, &a, 1, &note, Secrets::default()), turn);
    use crate::rules::tempo::referee::Action::Answer;
    let early = Request::Act(Intent::Tempo(Answer(None)), Vec::new());
    assert_eq!(
        check_request(&s, &a, 1, &early, Secrets::default()).unwrap_err(),
        "not something this combatant can do in this fight"
    );
    let ev = declare_events(&s, 2, attack, 1);
    e.push(ev, &mut s, 3);
    let answer = answer_events(&s, 1, Some(parry)).unwrap();
    // The answer travels as an intent (Tempo N2): the GM's phone makes its events.
    let intent = Request::Act(Intent::Tempo(Answer(Some(parry as u32))), Vec::new());
    let (made, lines) = check_request(&s, &a, 1, &intent, Secrets::default()).unwrap();
    assert_eq!(made, answer);
    assert_eq!(
        lines,
        [
            "Ilse answers Brigand’s melee attack with Parry".to_owned(),
            "Ilse uses 4 AP".to_owned(),
            "Ilse: Answer (reaction) 0 → 20".to_owned(),
            "Ilse: AP 12 → 8".to_owned()
        ]
    );
    // As raw events out of turn, nothing: not the answer, a note or a turn's end.
    for raw in [&answer, &note, &Event::Next] {
        assert_eq!(check_ask(&s, &a, 1, raw, Secrets::default()), turn);
    }
    assert_eq!(
        check_request(&s, &["b".to_owned()], 1, &intent, Secrets::default()).unwrap_err(),
        "Ilse is not one of this player’s characters"
    );
    // The player's phone sees the declaration (its own combatant's numbers) and answers.
    let mine = view(&e, &["a"]).state().unwrap();
    assert_eq!(
        crate::rules::tempo::combat::facing(&mine, 1),
        Some((2, attack))
    );
    assert_eq!(answer_events(&mine, 1, Some(parry)), Ok(answer));
}

#[test]
fn tempo_r3_another_players_character_reacts_too_from_its_phone() {
    use crate::rules::tempo::combat::{declare_events, from_sheet, joinable, status_events};
    use crate::rules::tempo::referee::{exchange_of, Action::Answer};
    use crate::rules::tempo::{Status, TempoSheet, ACTIONS};
    let (mut e, mut s) = tempo_duel(2, 9);
    let mut bo = from_sheet("Bo", &TempoSheet::default());
    bo.link = Some("b".into());
    e.push(Event::Join(bo), &mut s, 3);
    e.push(
        Event::Batch(status_events(&s, 3, Status::OnGuard)),
        &mut s,
        3,
    );
    let at = |n: &str| ACTIONS.iter().position(|x| x.name == n).unwrap();
    let (attack, counter, parry) = (at("Melee Attack"), at("Counter-Attack"), at("Parry"));
    // The brigand declares its attack on Ilse: Bo's phone sees it and may react too.
    e.push(declare_events(&s, 2, attack, 1), &mut s, 3);
    let b = vec!["b".to_owned()];
    let bos = view(&e, &["b"]).state().unwrap();
    assert_eq!(joinable(&bos, 3), Some((2, 1, attack)));
    let ask = |r: usize| Request::Act(Intent::Tempo(Answer(Some(r as u32))), Vec::new());
    assert_eq!(
        check_request(&s, &b, 3, &ask(parry), Secrets::default()).unwrap_err(),
        "Parry guards only the one it is against (Ilse)"
    );
    assert_eq!(
        check_request(&s, &["a".to_owned()], 3, &ask(counter), Secrets::default()).unwrap_err(),
        "Bo is not one of this player’s characters"
    );
    let (made, lines) = check_request(&s, &b, 3, &ask(counter), Secrets::default()).unwrap();
    assert_eq!(
        lines[0],
        "Bo reacts too, to Brigand’s melee attack: Counter-Attack"
    );
    e.push(made, &mut s, 3);
    // The GM's exchange takes Bo's reaction beside Ilse's answer.
    assert_eq!(
        exchange_of(&s, 2, attack as u32, 1, 0).also,
        vec![(3, counter)]
    );
    assert_eq!(joinable(&s, 3), None, "once");
}

/// The raw-event form of a request (what a modified page could send): refused in every
/// system, all five refereed.
fn check_ask(
    s: &State,
    chars: &[String],
    who: u32,
    event: &Event,
    gm: Secrets,
) -> Result<Vec<String>, String> {
    check_request(s, chars, who, &Request::Event(event.clone()), gm).map(|(_, lines)| lines)
}

/// A forged peer (issue 39): each request a modified page could send is refused with its line
/// and changes nothing; what the rules allow is taken, resolved by the GM's phone itself.
#[test]
fn a_forged_peer_is_refused_and_the_rules_decide() {
    use crate::rules::symbaroum::referee::Action;
    let mut e = fight();
    let a = vec!["a".to_owned()];
    let gm = Secrets::default();
    let act_of = |i: &Intent, d: Vec<(u32, u32)>| Request::Act(i.clone(), d);
    // Varla (a) is down and dying, on her turn.
    act(&mut e, Event::Damage(vec![1], 12));
    let s = at_turn(&mut e, 1);
    assert!(s.dying(s.get(1).unwrap()));
    let death = Intent::Symbaroum(Action::DeathTest);
    let before = e.clone();
    let refused = |req: Request, who: u32| check_request(&s, &a, who, &req, gm).unwrap_err();
    // Raw events, in a fight whose every action is refereed: a death test, an end of turn, a
    // wait, an attack's damage, its own Defense set to 100 (Tempo N3, Vogt N8's kind).
    for raw in [
        Event::Death(1, 20, 4),
        Event::Next,
        Event::Place(1, None),
        Event::Damage(vec![3], 4),
        Event::Set(1, 1, 100),
    ] {
        assert_eq!(
            refused(Request::Event(raw), 1),
            "a change the rules did not make (this game’s actions are intents)"
        );
    }
    // Dice outside the faces asked for, too few, too many.
    assert_eq!(
        refused(act_of(&death, vec![(20, 21), (4, 1)]), 1),
        "a d20 showing 21"
    );
    assert_eq!(
        refused(act_of(&death, vec![(6, 3), (4, 1)]), 1),
        "a d6 where the roll takes a d20"
    );
    assert_eq!(
        refused(act_of(&death, vec![(20, 3)]), 1),
        "fewer dice than the roll takes"
    );
    assert_eq!(
        refused(act_of(&death, vec![(20, 3), (4, 1), (4, 1)]), 1),
        "3 dice sent, the roll takes 2"
    );
    // Another player's combatant; a combatant the player does not see.
    assert_eq!(
        refused(act_of(&death, vec![(20, 3), (4, 1)]), 2),
        "Bram is not one of this player’s characters"
    );
    // What the rules forbid: a stand-up while dying (not even prone), out of turn.
    assert_eq!(
        refused(
            act_of(&Intent::Symbaroum(Action::StandUp), vec![(20, 1)]),
            1
        ),
        "not something this combatant can do in this fight"
    );
    // The one allowed: the death test, resolved here from the dice sent, and only once a turn.
    let (ev, lines) =
        check_request(&s, &a, 1, &act_of(&death, vec![(20, 14), (4, 1)]), gm).unwrap();
    assert!(lines.iter().any(|l| l.contains("d20 = 14")), "{lines:?}");
    let mut s2 = s.clone();
    s2.apply(&ev);
    assert_eq!(s2.get(1).unwrap().death, 1);
    assert_eq!(
        check_request(&s2, &a, 1, &act_of(&death, vec![(20, 2), (4, 1)]), gm).unwrap_err(),
        "Varla has taken this turn’s death test"
    );
    // A repeated request number, and an older one, are refused; a newer one is taken.
    let mut last = 0;
    assert!(fresh(&mut last, 17).is_ok());
    assert!(fresh(&mut last, 17).is_err());
    assert!(fresh(&mut last, 3).is_err());
    assert!(fresh(&mut last, 18).is_ok());
    // Nothing stored changed by any of it.
    assert_eq!(e, before);
}

/// Issue 39, point 5: a pre-rolled dodge of an NPC whose numbers the players do not see never
/// reaches a player's view (its dice and result are the GM's), nor does any step about an NPC
/// the GM keeps hidden, whatever its line says; told from the steps' data, not their words.
#[test]
fn an_npcs_secret_roll_never_reaches_a_players_log() {
    use crate::rules::dice::SeededSource;
    use crate::rules::heimr::combat::{combatant, defence_events, Defence};
    use crate::rules::heimr::{roll_challenge, HeimrSheet};
    let sheet = HeimrSheet::default();
    let mut e = Encounter::new("h1".into(), "Raid".into(), "heimr", 0).unwrap();
    let mut s = e.state();
    let mut pc = combatant("Varla", &sheet, Some("a".into()));
    pc.pc = true;
    let npc = |name: &str| {
        let mut c = combatant(name, &sheet, None);
        c.pc = false;
        c
    };
    for ev in [
        Event::Join(pc),
        Event::Join(npc("Raider")),
        Event::Join(npc("Lurker")),
        Event::Init(1, vec![9]),
        Event::Init(2, vec![5]),
        Event::Init(3, vec![1]),
        Event::Start,
    ] {
        e.push(ev, &mut s, 1);
    }
    e.hidden.push(3);
    let r = roll_challenge(2, 1, &mut SeededSource::new(3));
    let dodge = defence_events(&s, 2, Defence::Dodge, &r);
    e.push(dodge, &mut s, 2);
    // The hidden Lurker's own step, named in a line that does not say its name.
    e.push(
        Event::Batch(vec![
            Event::Note("Someone stirs in the reeds".into()),
            Event::Add(3, "Prone".into(), Duration::Removed),
        ]),
        &mut s,
        3,
    );
    // An attack on the Raider stays, with its damage as a word.
    e.push(Event::Damage(vec![2], 3), &mut s, 4);
    assert!(s
        .log
        .iter()
        .any(|l| l.text.starts_with("Raider readies a dodge")));
    let a = vec!["a".to_owned()];
    let view = view_for(&e.id, &e.name, &s, &a, (&e).into());
    let wire = serde_json::to_string(&view).unwrap();
    assert!(!wire.contains("readies"), "{:?}", view.log);
    assert!(!wire.contains("stirs"), "{:?}", view.log);
    assert!(
        view.log
            .iter()
            .any(|l| l.starts_with("Raider takes 3 damage")),
        "{:?}",
        view.log
    );
    assert!(!wire.contains("HP 3"), "{:?}", view.log);
    // Shown by the GM, the Raider's numbers (and its dodge) reach the player.
    e.revealed.push(2);
    let view = view_for(&e.id, &e.name, &s, &a, (&e).into());
    assert!(view
        .log
        .iter()
        .any(|l| l.starts_with("Raider readies a dodge")));
}

/// A Bo Vogt fight at the table: Asa (sheet "a", a Club 1d6), Bram (sheet "b"), a Goblin the
/// GM shows and a Sentry the GM hides; started, in round 1's declaration phase.
fn vogt_fight() -> (Encounter, Vec<u32>) {
    use crate::rules::vogt::combat::from_sheet;
    use crate::rules::vogt::{Item, VogtSheet};
    let mut e = Encounter::new("f2".into(), "Tollgate".into(), "vogt", 0).unwrap();
    let mut s = e.state();
    let sheet = VogtSheet {
        items: vec![Item {
            name: "Club".into(),
            slots: 1,
            count: 1,
            per_slot: 1,
            quick: false,
            damage: "1d6".into(),
            dtype: "blunt".into(),
        }],
        ..VogtSheet::default()
    };
    for (name, link) in [("Asa", "a"), ("Bram", "b")] {
        let mut c = from_sheet(name, &sheet);
        c.link = Some(link.into());
        e.push(Event::Join(c), &mut s, 1);
    }
    for name in ["Goblin", "Sentry"] {
        let mut c = Combatant::new(rules_for("vogt").unwrap(), name, 30);
        c.texts = vec!["1d6".into(), "slash".into(), String::new(), String::new()];
        e.push(Event::Join(c), &mut s, 1);
    }
    e.push(Event::Start, &mut s, 2);
    (e, vec![4])
}

/// Vogt N8: a forged raw change of a player's own numbers (a lost leg undone, STR 16) is
/// refused in a Bo Vogt fight, in the declaration phase and on its turn alike.
#[test]
fn vogt_n8_a_raw_change_of_its_own_numbers_is_refused() {
    let (mut e, _) = vogt_fight();
    let a = vec!["a".to_owned()];
    let why = "a change the rules did not make (this game’s actions are intents)";
    let s = e.state();
    let ev = Event::Batch(vec![
        Event::Add(1, "Lost a leg".into(), Duration::Removed),
        Event::Set(1, crate::rules::vogt::combat::ONE_LEG, 1),
    ]);
    act_all(&mut e, ev);
    let s2 = e.state();
    for st in [&s, &s2] {
        for raw in [
            Event::Set(1, crate::rules::vogt::combat::ONE_LEG, 0),
            Event::Set(1, crate::rules::vogt::combat::STR, 16),
        ] {
            assert_eq!(
                check_ask(st, &a, 1, &raw, Secrets::default()).unwrap_err(),
                why
            );
        }
    }
}

/// Issue 39 for Bo Vogt: every action of its fight is an intent; a player declares from the
/// phone while actions are declared (N7), rolls on the death and dismemberment table out of
/// its turn when one is due (N6); raw changes are refused (N8), as is an attack on an NPC the
/// player does not see.
#[test]
fn vogt_n7_a_vogt_player_declares_from_the_phone_and_sends_only_intents() {
    use crate::rules::vogt::referee::{Action as V, Plan};
    let (mut e, hidden) = vogt_fight();
    let a = vec!["a".to_owned()];
    let gm = Secrets {
        hidden: &hidden,
        ..Secrets::default()
    };
    let s = e.state();
    let act = |i: V| Request::Act(Intent::Vogt(i), Vec::new());
    // N7: declaring in the declaration phase, from the player's phone.
    let (ev, lines) = check_request(&s, &a, 1, &act(V::Declare(Plan::Attack(0))), gm).unwrap();
    assert_eq!(lines[0], "Asa will attack (1d6)");
    // Not for Bram, not while no one declares.
    assert_eq!(
        check_request(&s, &a, 2, &act(V::Declare(Plan::Defend)), gm).unwrap_err(),
        "Bram is not one of this player’s characters"
    );
    // N8: a raw change of its own numbers (a lost leg undone, STR 16) is refused.
    for raw in [Event::Set(1, 9, 0), Event::Set(1, 0, 16), ev.clone()] {
        assert_eq!(
            check_ask(&s, &a, 1, &raw, gm).unwrap_err(),
            "a change the rules did not make (this game’s actions are intents)"
        );
    }
    // Everyone declared and rolled; on Asa's turn an attack on the hidden Sentry is refused as
    // if it were not there; on the Goblin it is taken, with the dice sent.
    act_all(&mut e, ev);
    let s = e.state();
    let roll = crate::rules::vogt::combat::declare_all(
        &s,
        &[
            (
                1,
                crate::rules::vogt::combat::declared(s.get(1).unwrap()).unwrap(),
            ),
            (2, crate::rules::vogt::combat::Action::Defend),
            (3, crate::rules::vogt::combat::Action::Defend),
            (4, crate::rules::vogt::combat::Action::Defend),
        ],
        &mut crate::rules::dice::ScriptedSource::new(vec![1, 4, 4, 4]),
    );
    act_all(&mut e, roll);
    let s = at_turn(&mut e, 1);
    let attack = |t: u32| V::Attack {
        weapon: 0,
        extra: 0,
        targets: vec![t],
    };
    assert_eq!(
        check_request(
            &s,
            &a,
            1,
            &Request::Act(Intent::Vogt(attack(4)), vec![(6, 3)]),
            gm
        )
        .unwrap_err(),
        "a combatant that is not in this fight (as this player sees it)"
    );
    let (_, lines) = check_request(
        &s,
        &a,
        1,
        &Request::Act(Intent::Vogt(attack(3)), vec![(6, 3)]),
        gm,
    )
    .unwrap();
    assert!(
        lines.iter().any(|l| l.starts_with("Asa deals 1d6!")),
        "{lines:?}"
    );
    // N6: in the Goblin's turn, Asa at exhaustion 4 rolls on the table from the phone.
    act_all(&mut e, Event::Sync(1, 0, 4, false));
    let s = at_turn(&mut e, 3);
    let table = Request::Act(Intent::Vogt(V::Table), vec![(8, 7)]);
    let (ev, lines) = check_request(&s, &a, 1, &table, gm).unwrap();
    assert!(lines.iter().any(|l| l == "Asa dies"), "{lines:?}");
    let mut after = s.clone();
    after.apply(&ev);
    assert!(
        after.get(1).unwrap().dead,
        "a 7 kills, and the GM's fight says so"
    );
}

fn act_all(e: &mut Encounter, ev: Event) {
    let mut s = e.state();
    e.push(ev, &mut s, 3);
}

/// Symbaroum N1 at the table: on the Goblin's turn Varla's player sends a free attack (the
/// rules give one when a foe withdraws), taken by the GM's phone from the dice sent; her
/// ordinary attack is refused then, with the rules' reason.
#[test]
fn symbaroum_n1_a_free_attack_from_the_players_phone_out_of_turn() {
    use crate::rules::symbaroum::referee::{Action, Strike};
    let mut e = fight();
    let a = vec!["a".to_owned()];
    let s = at_turn(&mut e, 3);
    let st = Strike {
        target: 3,
        weapon: 0,
    };
    let free = Request::Act(Intent::Symbaroum(Action::FreeAttack(st)), vec![(20, 5)]);
    // No trigger yet: refused (T6-3); the goblin withdraws from melee: one is due.
    assert_eq!(
        check_request(&s, &a, 1, &free, Secrets::default()).unwrap_err(),
        "no free attack is due to Varla"
    );
    let leave = crate::rules::referee::resolve(
        &s,
        3,
        &Intent::Symbaroum(Action::Leave(false)),
        &mut crate::rules::dice::ScriptedSource::new(vec![]),
    )
    .unwrap();
    act(&mut e, leave);
    let s = e.state();
    let (_, lines) = check_request(&s, &a, 1, &free, Secrets::default()).unwrap();
    assert!(
        lines[0].starts_with("Varla attacks Goblin") && lines[0].ends_with("(a free attack)"),
        "{lines:?}"
    );
    let attack = Request::Act(Intent::Symbaroum(Action::Attack(st)), vec![(20, 5)]);
    assert_eq!(
        check_request(&s, &a, 1, &attack, Secrets::default()).unwrap_err(),
        "only on Varla’s own turn"
    );
}

/// Heimr #20 at the table: in the Goblin's turn Varla's player pre-rolls her dodge from the
/// phone (C 0: one d6); the GM's phone takes it; a second is refused while it stands.
#[test]
fn heimr_r20_a_defence_from_the_players_phone_out_of_turn() {
    use crate::rules::heimr::combat::Defence;
    use crate::rules::heimr::referee::Action;
    let mut e = fight_in("heimr");
    let a = vec!["a".to_owned()];
    let s = at_turn(&mut e, 3);
    let dodge = Request::Act(Intent::Heimr(Action::Ready(Defence::Dodge)), vec![(6, 4)]);
    let (ev, lines) = check_request(&s, &a, 1, &dodge, Secrets::default()).unwrap();
    assert!(lines[0].starts_with("Varla readies a dodge"), "{lines:?}");
    let mut after = s.clone();
    after.apply(&ev);
    assert_eq!(
        check_request(&after, &a, 1, &dodge, Secrets::default()).unwrap_err(),
        "its dodge 4 stands until an attack uses it or its next turn begins"
    );
}

/// Tempo N1 and N2 at the table: a player's declaration is an intent the GM's phone resolves
/// (its AP spent); the exchange the player then asks for is opposed by the answer the target
/// gave, whatever the player's phone would rather; a switch to another action is refused.
#[test]
fn tempo_n2_a_players_exchange_is_opposed_by_the_targets_own_answer() {
    use crate::rules::tempo::combat::ap;
    use crate::rules::tempo::index;
    use crate::rules::tempo::referee::Action as T;
    let (mut e, mut s) = tempo_duel(9, 2);
    let (a, gm) = (vec!["a".to_owned()], Secrets::default());
    let ma = index("Melee Attack").unwrap() as u32;
    let ask = |s: &State, act: T, dice: Vec<(u32, u32)>| {
        check_request(s, &a, 1, &Request::Act(Intent::Tempo(act), dice), gm)
    };
    let exchange = T::Exchange {
        action: ma,
        target: 2,
        replacement: 0,
    };
    assert_eq!(
        ask(&s, exchange, vec![(10, 9)]).unwrap_err(),
        "declare it first: Brigand may react"
    );
    let (made, _) = ask(
        &s,
        T::Declare {
            action: ma,
            target: 2,
        },
        Vec::new(),
    )
    .unwrap();
    e.push(made, &mut s, 3);
    assert_eq!(ap(&s, 1), 8);
    // The GM answers for the brigand: a parry.
    let parry = index("Parry").unwrap() as u32;
    let answer = crate::rules::referee::resolve(
        &s,
        2,
        &Intent::Tempo(T::Answer(Some(parry))),
        &mut crate::rules::dice::ScriptedSource::new(vec![]),
    )
    .unwrap();
    e.push(answer, &mut s, 4);
    // A switch after seeing the answer is refused; the declared attack is rolled against the
    // parry, with both check dice (Ilse's d10, then the brigand's).
    let feint = index("Feint").unwrap() as u32;
    let switch = T::Exchange {
        action: feint,
        target: 2,
        replacement: 0,
    };
    assert_eq!(
        ask(&s, switch, vec![(10, 9)]).unwrap_err(),
        "Ilse has declared a melee attack against Brigand: it goes ahead"
    );
    assert_eq!(
        ask(&s, exchange, vec![(10, 9)]).unwrap_err(),
        "fewer dice than the roll takes"
    );
    let (made, lines) = ask(&s, exchange, vec![(10, 9), (10, 2)]).unwrap();
    assert!(
        lines.iter().any(|l| l == "Brigand reacts: Parry"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "Ilse: 9 +0 = 9"), "{lines:?}");
    e.push(made, &mut s, 5);
    assert_eq!(ap(&s, 1), 8, "paid once, at the declaration");
}

/// Heimr #22 at the table: Varla's player attacks Bandit A, guarded by Bandit B, whose numbers
/// the GM keeps hidden (the player's phone knows nothing of the guard). The request is an
/// intent: the GM's phone plans it over its own fight, and B steps in.
#[test]
fn heimr_r22_a_players_attack_meets_the_hidden_guard() {
    use crate::rules::heimr::combat::{guard_events, npc, Npc};
    use crate::rules::heimr::referee::Action;
    use crate::rules::heimr::strike::Strike;
    let mut e = Encounter::new("h22".into(), "Gate".into(), "heimr", 0).unwrap();
    let mut s = e.state();
    let mut varla = npc("Varla", &Npc::default());
    varla.pc = true;
    varla.link = Some("a".into());
    for c in [
        varla,
        npc("Bandit A", &Npc::default()),
        npc("Bandit B", &Npc::default()),
    ] {
        e.push(Event::Join(c), &mut s, 1);
    }
    e.push(Event::Start, &mut s, 2);
    let s = at_turn(&mut e, 3);
    let guard = guard_events(&s, 3, 2).unwrap();
    act(&mut e, guard);
    let s = at_turn(&mut e, 1);
    let a = vec!["a".to_owned()];
    // A's numbers are shown; B's are not.
    let gm = Secrets {
        hidden: &[],
        revealed: &[2],
        events: &[],
    };
    let brawl = Strike {
        target: 2,
        kind: 0,
        ..Strike::default()
    };
    // Varla's attack, its dice rolled on her phone.
    let intent = Intent::Heimr(Action::Attack(brawl));
    let mut src = crate::rules::dice::SeededSource::new(3);
    let mut rec = crate::rules::encounter::referee::Recorder::new(&mut src);
    crate::rules::referee::resolve(&s, 1, &intent, &mut rec).unwrap();
    let req = Request::Act(intent, rec.rolled);
    let (_, lines) = check_request(&s, &a, 1, &req, gm).unwrap();
    assert_eq!(
        lines[0], "Bandit B guards Bandit A: the attack by Varla comes to it",
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Varla attacks Bandit B:")),
        "{lines:?}"
    );
    assert!(!lines
        .iter()
        .any(|l| l.starts_with("Varla attacks Bandit A:")));
}

/// An Aura fight: Asa (player "a", a default sheet) and these NPCs (the test gnoll's numbers
/// with the given fortitude), then `then`.
fn aura_fight(npcs: &[&str], fortitude: i32, then: Vec<Event>) -> (Encounter, State) {
    use crate::rules::aura::combat::{from_sheet, npc, tests::gnoll, Npc};
    let mut e = Encounter::new("a1".into(), "Ford".into(), "aura", 0).unwrap();
    let mut s = e.state();
    let mut asa = from_sheet("Asa", &crate::rules::aura::AuraSheet::default());
    asa.link = Some("a".into());
    let g = Npc {
        fortitude,
        ..gnoll()
    };
    let mut all = vec![Event::Join(asa)];
    all.extend(npcs.iter().map(|n| Event::Join(npc(n, &g))));
    all.push(Event::Start);
    all.extend(then);
    for ev in all {
        e.push(ev, &mut s, 1);
    }
    (e, s)
}

/// Aura is refereed whole: a player's phone sends intents only. Its attack is worked out on
/// the GM's phone from the fight's numbers (the gnoll's evasion roll made there, from the
/// dice the request carries); a raw event is refused; so is an initiative contest against
/// someone its view does not have.
#[test]
fn aura_a_players_attack_is_an_intent_the_gms_phone_resolves() {
    use crate::rules::aura::referee::Action as A;
    use crate::rules::aura::strike::FightAttack;
    let (_, s) = aura_fight(&["Gnoll", "Shade"], 10, Vec::new());
    let a = vec!["a".to_owned()];
    let gm = Secrets {
        hidden: &[3],
        revealed: &[2],
        events: &[],
    };
    let ask = |act: A, dice: Vec<(u32, u32)>| {
        check_request(&s, &a, 1, &Request::Act(Intent::Aura(act), dice), gm)
    };
    let raw = Request::Event(Event::Set(1, crate::rules::aura::combat::EVASION, 100));
    assert_eq!(
        check_request(&s, &a, 1, &raw, gm).unwrap_err(),
        "a change the rules did not make (this game’s actions are intents)"
    );
    let swing = FightAttack::plain(2, 2);
    // Unarmed: d20 18, the gnoll's d10 2 (evasion 8 + 2 = 10): no damage dice.
    assert_eq!(
        ask(A::Attack(swing), vec![(20, 18)]).unwrap_err(),
        "fewer dice than the roll takes"
    );
    let (_, lines) = ask(A::Attack(swing), vec![(20, 18), (10, 2)]).unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Asa → Gnoll: attack, combat roll 18 vs defence 2+8 = 10")),
        "{lines:?}"
    );
    assert_eq!(
        ask(A::Initiative(3), vec![(20, 5), (20, 5)]).unwrap_err(),
        "a combatant that is not in this fight (as this player sees it)"
    );
    let (_, lines) = ask(A::Initiative(2), vec![(20, 5), (20, 5)]).unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Asa loses initiative against Gnoll")),
        "{lines:?}"
    );
}

/// Review item N2 (seed l.575), at the table: a gnoll whose numbers the GM keeps holds Asa.
/// Her phone cannot know its fortitude roll, so it rolls her side only; the GM's phone rolls
/// the holder's side itself (`topped_up`), and the contest is against the gnoll, not a DC.
#[test]
fn aura_n2_breaking_free_of_a_hidden_holder_is_against_its_roll() {
    use crate::rules::aura::combat::HELD_BY;
    use crate::rules::aura::referee::Action as A;
    use crate::rules::dice::ScriptedSource;
    use crate::rules::encounter::referee::Recorder;
    use crate::rules::referee::{resolve, topped_up};
    let (e, s) = aura_fight(
        &["Gnoll"],
        12,
        vec![
            Event::Add(1, "Restrained".into(), Duration::Removed),
            Event::Add(2, "Restraining".into(), Duration::Removed),
            Event::Set(1, HELD_BY, 2),
        ],
    );
    let a = vec!["a".to_owned()];
    let gm = Secrets::from(&e);
    // Her phone: the gnoll's numbers are the GM's (issue 54 §5: in the fight, veiled); what
    // its roll takes is not known there: one die (a 6).
    let mine = view(&e, &["a"]).state().unwrap();
    assert!(mine.get(2).is_some_and(|c| !c.gone) && mine.veiled == vec![2]);
    let intent = Intent::Aura(A::Escape);
    let mut src = ScriptedSource::new(vec![6]);
    let mut rec = Recorder::new(&mut src);
    resolve(&mine, 1, &intent, &mut rec).unwrap();
    assert_eq!(rec.rolled, vec![(10, 6)]);
    let sent = Request::Act(intent.clone(), vec![(10, 6)]);
    assert_eq!(
        check_request(&s, &a, 1, &sent, gm).unwrap_err(),
        "fewer dice than the roll takes"
    );
    // The GM's phone rolls the gnoll's d10 (a 2): 6 + Asa's fortitude against 2 + 12.
    let full = topped_up(
        &s,
        1,
        &intent,
        &vec![(10, 6)],
        &mut ScriptedSource::new(vec![2]),
    );
    assert_eq!(full, vec![(10, 6), (10, 2)]);
    let (_, lines) = check_request(&s, &a, 1, &Request::Act(intent.clone(), full), gm).unwrap();
    assert!(
        lines.iter().any(|l| l.contains("vs Gnoll's fortitude 14")),
        "{lines:?}"
    );
    // What was sent stays first: a wrong die sent is still refused, and more dice than the
    // roll takes are not cut.
    let bad = topped_up(
        &s,
        1,
        &intent,
        &vec![(6, 6)],
        &mut ScriptedSource::new(vec![2]),
    );
    assert_eq!(bad[0], (6, 6));
    assert!(check_request(&s, &a, 1, &Request::Act(intent.clone(), bad), gm).is_err());
    let many = vec![(10, 6), (10, 2), (10, 3)];
    assert_eq!(
        topped_up(&s, 1, &intent, &many, &mut ScriptedSource::new(vec![])),
        many
    );
}

/// Tempo review N3 (l.177, and every defence the tables compare against): a player's phone
/// cannot change its own numbers. A raw step on its own combatant (its defence raised, its
/// disarm undone) is refused; what an intent changes of the sender's own combatant (the AP a
/// declaration spends) is shown to the GM in full.
#[test]
fn tempo_n3_a_players_own_numbers_change_only_by_the_rules() {
    use crate::rules::tempo::combat::DISARMED;
    use crate::rules::tempo::index;
    use crate::rules::tempo::referee::Action as T;
    let (_, s) = tempo_duel(9, 2);
    let a = vec!["a".to_owned()];
    for raw in [Event::Set(1, 0, 100), Event::Set(1, DISARMED, 0)] {
        assert_eq!(
            check_ask(&s, &a, 1, &raw, Secrets::default()).unwrap_err(),
            "a change the rules did not make (this game’s actions are intents)"
        );
    }
    let declare = T::Declare {
        action: index("Melee Attack").unwrap() as u32,
        target: 2,
    };
    let req = Request::Act(Intent::Tempo(declare), Vec::new());
    let (_, lines) = check_request(&s, &a, 1, &req, Secrets::default()).unwrap();
    assert!(lines.iter().any(|l| l == "Ilse: AP 12 → 8"), "{lines:?}");
}

/// Issue 54 §1: a player's request proposes the facts the fight cannot know (here a shot's
/// distance); the GM's phone keeps them or sets them, and the roll is made with the GM's. What
/// the fight holds is never taken from the request, and a GM's tool is never a player's.
#[test]
fn issue54_the_gm_decides_a_proposed_distance_and_keeps_the_gm_tools() {
    use crate::rules::dice::{ScriptedSource, SeededSource};
    use crate::rules::encounter::referee::Recorder;
    use crate::rules::heimr::combat::{npc, Npc};
    use crate::rules::heimr::referee::Action;
    use crate::rules::heimr::strike::{preview, Strike};
    use crate::rules::referee::{player_offers, resolve, GM_ONLY};
    let mut e = Encounter::new("h54".into(), "Field".into(), "heimr", 0).unwrap();
    let mut s = e.state();
    let mut varla = npc("Varla", &Npc::default());
    varla.pc = true;
    varla.link = Some("a".into());
    for c in [varla, npc("Bandit", &Npc::default())] {
        e.push(Event::Join(c), &mut s, 1);
    }
    e.push(Event::Start, &mut s, 2);
    let s = at_turn(&mut e, 1);
    let a = vec!["a".to_owned()];
    let gm = Secrets {
        hidden: &[],
        revealed: &[2],
        events: &[],
    };
    // Her phone proposes the bandit is next to her (distance 0), other C +3.
    let near = Strike {
        target: 2,
        kind: 0,
        c_bonus: 3,
        ..Strike::default()
    };
    let intent = Intent::Heimr(Action::Attack(near.clone()));
    let facts = intent.facts();
    assert_eq!(
        facts
            .iter()
            .map(|f| (f.label, f.value, f.default))
            .collect::<Vec<_>>(),
        vec![
            ("Distance (turns of movement)", 0, 0),
            ("Height (−1 below, +1 above)", 0, 0),
            ("Target’s concealment", 0, 0),
            ("Other C", 3, 0),
            ("Other P", 0, 0),
        ]
    );
    let mut src = SeededSource::new(54);
    let mut rec = Recorder::new(&mut src);
    resolve(&s, 1, &intent, &mut rec).unwrap();
    let req = Request::Act(intent.clone(), rec.rolled.clone());
    // Left as proposed: the very request that came.
    let same = decided(
        &s,
        1,
        &req,
        &[0, 0, 0, 3, 0],
        &mut ScriptedSource::new(vec![]),
    );
    assert_eq!(same, req);
    // The GM says: no bonus, and out of reach (distance 2).
    let gm_req = decided(&s, 1, &req, &[2, 0, 0, 0, 0], &mut SeededSource::new(7));
    let Request::Act(Intent::Heimr(Action::Attack(st)), dice) = &gm_req else {
        panic!("{gm_req:?}")
    };
    assert_eq!((st.distance, st.c_bonus), (2, 0));
    // The roll made is the one the GM's facts make, with exactly its dice: accepted as is, and
    // the same result as resolving the GM's intent with those dice.
    let (event, _) = check_request(&s, &a, 1, &gm_req, gm).unwrap();
    assert_eq!(
        Ok(event),
        crate::rules::referee::resolve_rolled(
            &s,
            1,
            &Intent::Heimr(Action::Attack(st.clone())),
            dice
        )
    );
    // Its chance is the one the GM's facts give, not the proposal's.
    let by_gm = preview(&s, 1, st).unwrap();
    let by_player = preview(&s, 1, &near).unwrap();
    assert_ne!(by_gm.hits, by_player.hits, "the facts changed the odds");
    // A GM's tool from her phone: refused at the table, shown refused on her phone.
    let fall = Intent::Heimr(Action::Fall {
        height: 3,
        jumped: true,
    });
    let mut src = SeededSource::new(1);
    let mut rec = Recorder::new(&mut src);
    assert!(
        resolve(&s, 1, &fall, &mut rec).is_ok(),
        "the GM's phone may"
    );
    assert_eq!(
        check_request(&s, &a, 1, &Request::Act(fall.clone(), rec.rolled), gm).map(|x| x.0),
        Err(GM_ONLY.to_owned())
    );
    let shown = player_offers(&s, 1);
    let f = shown
        .iter()
        .find(|o| matches!(o.action, Intent::Heimr(Action::Fall { .. })))
        .unwrap();
    assert_eq!(f.refused.as_deref(), Some(GM_ONLY));
    for o in &shown {
        assert!(!o.action.gm_only() || o.refused.as_deref() == Some(GM_ONLY));
    }
}

/// Issue 54 §5: an NPC whose numbers the GM keeps is a target on the player's phone. The player
/// sees its name, a word and what the rules make public (its shown dodge), and "odds known to
/// the GM" in place of a chance; the request is resolved on the GM's phone with its real
/// numbers, the dice the player's phone could not know of rolled there.
#[test]
fn issue54_a_player_targets_an_npc_whose_numbers_the_gm_keeps() {
    use crate::rules::dice::SeededSource;
    use crate::rules::encounter::referee::Recorder;
    use crate::rules::heimr::combat::{
        defence_events, defence_setup, npc, shown_text, Defence, Npc, DEF, DEF_KIND, FATIGUE,
    };
    use crate::rules::heimr::referee::Action;
    use crate::rules::heimr::roll_challenge;
    use crate::rules::heimr::strike::Strike;
    use crate::rules::referee::{offers, resolve, resolve_rolled};
    let mut e = Encounter::new("h54b".into(), "Road".into(), "heimr", 0).unwrap();
    let mut s = e.state();
    let mut asa = npc("Asa", &Npc::default());
    asa.pc = true;
    asa.link = Some("a".into());
    let bandit = Npc {
        base_fatigue: 4,
        agility_cp: (2, 3),
        ..Npc::default()
    };
    for c in [asa, npc("Bandit", &bandit)] {
        e.push(Event::Join(c), &mut s, 1);
    }
    e.push(Event::Start, &mut s, 2);
    // The bandit shows a dodge on its turn (its numbers stay on the GM's phone).
    let s = at_turn(&mut e, 2);
    let set = defence_setup(&s, 2, Defence::Dodge).unwrap();
    let r = roll_challenge(set.c.value, set.p.value, &mut SeededSource::new(5));
    act(&mut e, defence_events(&s, 2, Defence::Dodge, &r));
    let gm_state = at_turn(&mut e, 1);
    let a = vec!["a".to_owned()];
    let v = view_for(&e.id, &e.name, &gm_state, &a, (&e).into());
    let mine = v.state().unwrap();
    // On Asa's phone: in the order, a target, its shown dodge public, nothing else of it.
    let b = mine.get(2).unwrap();
    assert!(!b.gone && mine.order.contains(&2) && mine.veiled == vec![2]);
    assert_eq!(shown_text(&mine, 2), shown_text(&gm_state, 2));
    assert!(
        shown_text(&mine, 2).starts_with("Dodge "),
        "{}",
        shown_text(&mine, 2)
    );
    let real = gm_state.get(2).unwrap();
    for (i, &x) in b.stats.iter().enumerate() {
        if i == DEF_KIND || i == DEF {
            assert_eq!(x, real.stat(i));
        } else {
            assert_eq!(x, 0, "stat {i} of a kept NPC reached the player");
        }
    }
    assert_ne!(real.stat(FATIGUE), 0);
    assert!(offers(&mine, 1)
        .iter()
        .any(|o| matches!(o.action, Intent::Heimr(Action::Attack(_))) && o.allowed()));
    // Her phone rolls against what it knows and asks; the GM's phone takes it with the real
    // numbers, every die checked.
    let intent = Intent::Heimr(Action::Attack(Strike {
        target: 2,
        kind: 0,
        ..Strike::default()
    }));
    let mut src = SeededSource::new(11);
    let mut rec = Recorder::new(&mut src);
    resolve(&mine, 1, &intent, &mut rec).unwrap();
    let dice = dice_for(
        &gm_state,
        1,
        &intent,
        &rec.rolled,
        &mut SeededSource::new(12),
        (&e).into(),
    );
    assert_eq!(dice[0], rec.rolled[0], "her dice first, as she rolled them");
    let req = Request::Act(intent.clone(), dice.clone());
    let (event, lines) = check_request(&gm_state, &a, 1, &req, (&e).into()).unwrap();
    assert_eq!(Ok(event), resolve_rolled(&gm_state, 1, &intent, &dice));
    assert!(
        lines.iter().any(|l| l.starts_with("Asa attacks Bandit:")),
        "{lines:?}"
    );
}

/// The dice of a request whose facts the GM changed (`rules::referee::fitted`): those sent, in
/// order, while each is the die the roll asks for; a die of other faces and every one after it
/// from the GM's phone; dice left over dropped. The sender never picks which of its dice count.
#[test]
fn issue54_fitted_dice_keep_the_senders_order_and_nothing_else() {
    use crate::rules::dice::ScriptedSource;
    use crate::rules::referee::fitted;
    use crate::rules::symbaroum::referee::Action as S;
    let mut e = fight();
    act(&mut e, Event::Damage(vec![1], 12));
    let s = at_turn(&mut e, 1);
    // Varla's death test rolls a d20 then a d4.
    let test = Intent::Symbaroum(S::DeathTest);
    let exact = vec![(20, 14), (4, 2)];
    let none = &mut ScriptedSource::new(vec![]);
    assert_eq!(fitted(&s, 1, &test, &exact, none), exact);
    // One too many: dropped.
    let more = vec![(20, 14), (4, 2), (6, 6)];
    assert_eq!(fitted(&s, 1, &test, &more, none), exact);
    // Too few: the GM's phone rolls the rest.
    let fewer = vec![(20, 14)];
    assert_eq!(
        fitted(&s, 1, &test, &fewer, &mut ScriptedSource::new(vec![3])),
        vec![(20, 14), (4, 3)]
    );
    // A die of other faces: it and every later one from the GM's phone.
    let wrong = vec![(6, 6), (4, 2)];
    assert_eq!(
        fitted(&s, 1, &test, &wrong, &mut ScriptedSource::new(vec![1, 4])),
        vec![(20, 1), (4, 4)]
    );
}

/// Tempo review T6-5 (issue 54 §5): the lines of an exchange in a player's log carry none of the
/// numbers of an NPC the GM keeps (its check's bonus and total, its action points), and keep
/// the player's own and an open combatant's.
#[test]
fn tempo_6_t6_5_a_kept_npcs_numbers_stay_out_of_a_players_log() {
    use crate::rules::encounter::systems::TEMPO;
    let brigand = Combatant::new(&TEMPO, "Brigand", 12);
    let ilse = Combatant::new(&TEMPO, "Ilse", 12);
    let cast = [(&brigand, true), (&ilse, false)];
    for (line, shown) in [
        ("Brigand: 6 +1 = 7", "Brigand: rolls its check"),
        ("Brigand uses 3 AP", "Brigand acts"),
        (
            "Brigand recovers 12 AP by the table (9 → 12)",
            "Brigand recovers",
        ),
        ("Ilse: 8 +0 = 8", "Ilse: 8 +0 = 8"),
        ("Ilse uses 4 AP", "Ilse uses 4 AP"),
        (
            "Ilse: Melee Attack net 1: Hit",
            "Ilse: Melee Attack net 1: Hit",
        ),
    ] {
        assert_eq!(redact(line, &cast, &TEMPO), shown);
    }
}
