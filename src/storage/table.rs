//! The live table's protocol, pure: what the GM's phone and a player's phone say to each other
//! over their direct channel, and every check a message meets before it changes anything.
//!
//! - **Pairing codes** ([`Code`]) carry one side of a WebRTC session (its SDP, gathered in full:
//!   no server helps the phones find each other). They travel as share links (`storage::link`),
//!   so a code is a link, a QR code and a paste alike.
//! - **The GM's phone is the one authority.** Each player follows a numbered stream of one
//!   [`View`] of the fight made for them ([`view_for`]): a [`ToPlayer::Snapshot`] on connect and
//!   after any gap, then each change as a [`ToPlayer::Step`] of one [`Change`]. [`Lead`] (on the GM's
//!   phone, one per player) writes the stream and keeps its recent steps, so a phone that
//!   rejoins catches up from the last step it holds; [`Follow`] (on the player's phone) applies
//!   it, and asks for a snapshot when a step is missing.
//! - **NPCs' numbers never leave the GM's phone**: a player's view has, for a combatant no player
//!   owns, a word for its state ("bloodied") instead of its hit points, and the log's lines about
//!   it say that word where the GM's log has the numbers.
//! - **A peer is checked like an import** ([`read_to_gm`], [`read_to_player`]): the size limit
//!   before parsing, then the format version (of every message), the shape and the lengths.
//! - **A player's phone sends intents, not outcomes** ([`Request::Act`]): what its combatant
//!   intends and the dice it rolled; the GM's phone resolves it itself by the rules
//!   (`rules::referee`), over its own fight with every hidden NPC, and refuses dice other than
//!   the ones the action rolls. A request is answered once ([`fresh`]).

use crate::rules::encounter::referee::Rolled;
use crate::rules::encounter::shared::Agreed;
use crate::rules::encounter::{rules_for, Active, CombatRules, Combatant, Event, State};
use crate::rules::referee::{resolve_rolled, Intent};
use serde::{Deserialize, Serialize};

/// The protocol this app speaks; every message carries it, and a peer with another is refused
/// with what to do. 3: requests carry intents and their dice (`Request::Act`); every message's
/// version is checked; request numbers only grow. 4: the Vogt, Symbaroum, Heimr-defence and
/// Tempo-answer intents. 5: Heimr and Tempo refereed whole (their attacks, actions and
/// exchanges are intents; a raw event is refused in every system with turns). 6: Aura refereed
/// whole (its intents, 500–509); a raw event is refused in every system. 7: Aura's weapons in
/// hand (510; a saved character carries its sheet's weapons), a trip's moving target and a
/// disarm's fling. 8: Vogt's technique spends its dice and may deal damage (203 with its
/// choices; 209 without a damage roll), what broke (208), and the fight's technique dice and
/// HP below 0. 11 (issue 54): Symbaroum's attacks carry no advantage or blindness (the fight's),
/// Heimr's take-up no ability numbers, Aura's escape no DC; Aura keeps its initiative, Vogt's
/// tie is the GM's; the view says who has had a turn.
pub const VERSION: u32 = 11;
/// The largest message a player's phone reads, in bytes (checked before parsing), and the
/// largest a data channel carries. A snapshot stays far below it: the view keeps the last
/// [`LOG_LINES`] lines, each cut to [`LINE_BYTES`] bytes.
pub const MAX_MESSAGE: usize = 256 * 1024;
/// The largest message the GM's phone reads from a player (a greeting is well under 1 KB).
pub const MAX_FROM_PLAYER: usize = 16 * 1024;
/// The longest log line a player's view carries, in bytes (200 of them stay far below
/// [`MAX_MESSAGE`] whatever the script).
pub const LINE_BYTES: usize = 500;
/// Players one GM's phone pairs with.
pub const MAX_SEATS: usize = 8;
/// Lines of the log a player's view keeps (the newest).
pub const LOG_LINES: usize = 200;
/// Steps a [`Lead`] keeps for a phone that rejoins.
pub const HISTORY: usize = 64;
/// The most characters a player's phone may claim as its own.
pub const MAX_CHARS: usize = 64;
/// The longest SDP a pairing code carries, in bytes.
pub const MAX_SDP: usize = 16 * 1024;
/// The most requests from one phone the GM's phone keeps waiting for an answer.
pub const MAX_WAITING: usize = 8;

/// One side of a pairing, as a link carries it: the GM's offer (`answer: false`) or a player's
/// answer, for seat `seat` of fight `fight`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Code {
    pub table: u32,
    pub answer: bool,
    pub fight: String,
    pub name: String,
    pub seat: u32,
    pub sdp: String,
}

/// Why a code or a message was refused, in words for the phone's owner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("a message of {0} KB, over the limit of {1} KB")]
    TooLarge(usize, usize),
    #[error("it was made by another version of Rollsheet (table format {0}); update both phones to the same version")]
    Version(u32),
    #[error("it is not a message of the table ({0})")]
    Shape(String),
    #[error("{0}")]
    Wrong(&'static str),
}

/// Whether exported JSON arriving by link is a pairing code (rather than a character or fight).
pub fn is_code(json: &str) -> bool {
    json.trim_start().starts_with("{\"table\":")
}

impl Code {
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A code read from a link, checked.
    pub fn read(json: &str) -> Result<Code, Refused> {
        check_size(json, MAX_SDP * 2)?;
        let c: Code = serde_json::from_str(json).map_err(|e| Refused::Shape(e.to_string()))?;
        if c.table != VERSION {
            return Err(Refused::Version(c.table));
        }
        if c.sdp.len() > MAX_SDP || c.fight.len() > 64 || c.name.len() > 800 {
            return Err(Refused::Wrong("the code is longer than any this app makes"));
        }
        if c.seat as usize >= MAX_SEATS {
            return Err(Refused::Wrong(
                "the code is for a seat this app never offers",
            ));
        }
        Ok(c)
    }
}

/// One combatant as a player sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub id: u32,
    pub name: String,
    /// Linked to one of this player's characters.
    #[serde(default)]
    pub mine: bool,
    /// Current and greatest hit points (or the system's equivalent), for player characters
    /// only; an NPC's stay on the GM's phone.
    #[serde(default)]
    pub hp: Option<(i32, i32)>,
    /// A word for its state: "unhurt", "hurt", "bloodied", "down", "dead".
    pub word: String,
    #[serde(default)]
    pub conditions: Vec<String>,
    /// What the rules make public of an NPC whose numbers the GM keeps (`CombatRules::public`):
    /// (stat, value) for those not 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub public: Vec<(usize, i32)>,
}

/// The fight as one player sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub fight: String,
    pub name: String,
    pub system: String,
    pub head: Head,
    /// In turn order (the listing order in a system without turns).
    pub seats: Vec<Seat>,
    /// The newest [`LOG_LINES`] lines, oldest first.
    pub log: Vec<String>,
    /// This player's own combatants, in full.
    pub own: Vec<Combatant>,
    /// What each of them shares with its sheet, as the fight holds it (`agree::fight_keys`),
    /// in the order of `own`: the player's saved character follows it.
    #[serde(default)]
    pub shared: Vec<Vec<String>>,
    /// The other combatants whose numbers this player sees (player characters, NPCs the GM
    /// showed), in full: the player's own panels roll against them.
    #[serde(default)]
    pub open: Vec<Combatant>,
    /// The conditions of the `own` and `open` combatants.
    #[serde(default)]
    pub active: Vec<Active>,
}

impl View {
    /// The fight as far as this player knows it, for the system's own combat panel on the
    /// player's phone: its own and open combatants in the order, their conditions, the round
    /// and turn. NPCs the player sees only as words are there by name and word alone, their
    /// numbers the GM's (`State::veiled`).
    pub fn state(&self) -> Option<State> {
        let rules = rules_for(&self.system)?;
        let mut s = State::new(rules);
        s.combatants = self.own.iter().chain(&self.open).cloned().collect();
        // The others whose numbers the GM keeps: in the order by name and a word, targets on
        // this phone as on the GM's (a request naming one is resolved there with its real
        // numbers), their odds the GM's to reckon (`State::veiled`).
        for seat in &self.seats {
            if s.get(seat.id).is_none() {
                let hp = i32::from(seat.word != "down" && seat.word != "dead");
                let mut c = Combatant::new(rules, seat.name.clone(), hp);
                c.id = seat.id;
                c.hp_max = 1;
                c.dead = seat.word == "dead";
                for &(i, v) in &seat.public {
                    if let Some(x) = c.stats.get_mut(i) {
                        *x = v;
                    }
                }
                s.combatants.push(c);
                s.veiled.push(seat.id);
            }
        }
        // In the GM's order, every seat.
        s.order = self.seats.iter().map(|seat| seat.id).collect();
        s.round = self.head.at;
        s.had_turn = self.head.had_turn.clone();
        s.current = self.head.current;
        s.ended = self.head.ended;
        s.conditions = self.active.clone();
        // Its log as the player sees it (a panel's last result line reads it).
        s.log = self
            .log
            .iter()
            .map(|text| crate::rules::encounter::Line {
                ev: 0,
                round: 0,
                text: text.clone(),
            })
            .collect();
        Some(s)
    }
}

/// Round, turn and whether the fight is over.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Head {
    /// As the GM's phone says it: "Round 2 · Varla’s turn".
    pub status: String,
    /// The round as the system counts it (0 before the start where it counts from 1).
    pub round: u32,
    pub started: bool,
    pub current: Option<u32>,
    pub ended: bool,
    /// The fight's own round number (before the system's counting).
    #[serde(default)]
    pub at: u32,
    /// Of those this player sees, who has had a turn this fight (`State::had_turn`): the rules
    /// on the player's phone read it as the GM's do (a surprise's first attack, a free attack's
    /// trigger in this turn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub had_turn: Vec<u32>,
}

/// One change of a [`View`]: the parts that changed, whole, and the log's new lines (one
/// struct of optional parts: far fewer bytes of decoding in the app than an enum of them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<Head>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<Seat>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<LogChange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<Vec<Combatant>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared: Option<Vec<Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<Vec<Combatant>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<Vec<Active>>,
}

/// The log's change: drop the first `.0` lines, keep the next `.1`, add `.2` after them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogChange(pub usize, pub usize, pub Vec<String>);

impl Change {
    pub fn is_empty(&self) -> bool {
        *self == Change::default()
    }
}

/// What the GM's phone sends a player. On the wire, one flat object (`PlayerWire`): a struct
/// of optional parts decodes in far fewer bytes of app than an enum of structs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "PlayerWire", try_from = "PlayerWire")]
pub enum ToPlayer {
    Snapshot {
        seq: u64,
        view: View,
    },
    Step {
        seq: u64,
        change: Change,
    },
    /// The GM's phone will not serve this phone: why.
    Refused {
        why: String,
    },
    /// The GM's answer to request `n`: taken into the fight, or not and why.
    Answer {
        n: u32,
        taken: bool,
        why: String,
    },
}

/// What a player's phone sends the GM's (on the wire one flat object, `GmWire`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "GmWire", try_from = "GmWire")]
pub enum ToGm {
    /// On opening the channel: the protocol, this phone's lasting token (a rejoin is known by
    /// it), the fight it paired for, the last step it holds (0: none), and its characters' ids.
    Hello {
        v: u32,
        token: String,
        fight: String,
        have: u64,
        chars: Vec<String>,
    },
    /// A step was missing: send the fight again from step `have`.
    Resync { have: u64 },
    /// Request `n` (numbered by the phone, growing): `req`, made on the player's phone for
    /// combatant `who`, for the GM to accept or refuse.
    Ask { n: u32, who: u32, req: Request },
}

/// What a player's phone asks for (on the wire, a field of its own for each: `GmWire`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// An intent the rules referee, with the dice rolled for it on the player's phone.
    Act(Intent, Rolled),
    /// Events a system's panel built (the panels not yet refereed; never a turn action, a
    /// death test or an order change, which travel as intents).
    Event(Event),
}

#[derive(Serialize, Deserialize)]
struct PlayerWire {
    /// The protocol (0: a phone from before every message carried it).
    #[serde(default)]
    v: u32,
    #[serde(default)]
    seq: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    view: Option<View>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    change: Option<Change>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    asked: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    taken: bool,
}

impl From<ToPlayer> for PlayerWire {
    fn from(m: ToPlayer) -> Self {
        let mut w = PlayerWire {
            v: VERSION,
            seq: 0,
            view: None,
            change: None,
            why: None,
            asked: None,
            taken: false,
        };
        match m {
            ToPlayer::Snapshot { seq, view } => (w.seq, w.view) = (seq, Some(view)),
            ToPlayer::Step { seq, change } => (w.seq, w.change) = (seq, Some(change)),
            ToPlayer::Refused { why } => w.why = Some(why),
            ToPlayer::Answer { n, taken, why } => {
                (w.asked, w.taken, w.why) = (Some(n), taken, Some(why))
            }
        }
        w
    }
}

impl TryFrom<PlayerWire> for ToPlayer {
    type Error = &'static str;
    fn try_from(w: PlayerWire) -> Result<Self, Self::Error> {
        match w {
            PlayerWire {
                view: None,
                change: None,
                asked: Some(n),
                taken,
                why,
                ..
            } => Ok(ToPlayer::Answer {
                n,
                taken,
                why: why.unwrap_or_default(),
            }),
            PlayerWire {
                seq,
                view: Some(view),
                change: None,
                why: None,
                ..
            } => Ok(ToPlayer::Snapshot { seq, view }),
            PlayerWire {
                seq,
                view: None,
                change: Some(change),
                why: None,
                ..
            } => Ok(ToPlayer::Step { seq, change }),
            PlayerWire {
                view: None,
                change: None,
                why: Some(why),
                ..
            } => Ok(ToPlayer::Refused { why }),
            _ => Err("not one snapshot, step or refusal"),
        }
    }
}

/// A greeting carries a token; a request to resync does not.
#[derive(Serialize, Deserialize)]
struct GmWire {
    v: u32,
    have: u64,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    token: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    fight: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    chars: Vec<String>,
    /// A raw-event request: (number, combatant, event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ask: Option<(u32, u32, Event)>,
    /// An intent: (number, combatant, [kind, choices…], dice as (faces, value)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    act: Option<(u32, u32, Vec<u32>, Rolled)>,
}

impl From<ToGm> for GmWire {
    fn from(m: ToGm) -> Self {
        match m {
            ToGm::Hello {
                v,
                token,
                fight,
                have,
                chars,
            } => GmWire {
                v,
                have,
                token,
                fight,
                chars,
                ask: None,
                act: None,
            },
            ToGm::Resync { have } => GmWire {
                v: VERSION,
                have,
                token: String::new(),
                fight: String::new(),
                chars: Vec::new(),
                ask: None,
                act: None,
            },
            ToGm::Ask { n, who, req } => {
                let (ask, act) = match req {
                    Request::Event(e) => (Some((n, who, e)), None),
                    Request::Act(i, d) => (None, Some((n, who, i.code(), d))),
                };
                GmWire {
                    v: VERSION,
                    have: 0,
                    token: String::new(),
                    fight: String::new(),
                    chars: Vec::new(),
                    ask,
                    act,
                }
            }
        }
    }
}

impl TryFrom<GmWire> for ToGm {
    type Error = &'static str;
    fn try_from(w: GmWire) -> Result<Self, Self::Error> {
        if w.token.is_empty() {
            if !w.fight.is_empty() || !w.chars.is_empty() {
                return Err("a greeting without its token");
            }
            return Ok(match (w.ask, w.act) {
                (Some((n, who, e)), None) => ToGm::Ask {
                    n,
                    who,
                    req: Request::Event(e),
                },
                (None, Some((n, who, code, dice))) => ToGm::Ask {
                    n,
                    who,
                    req: Request::Act(
                        Intent::from_code(&code).ok_or("an action this version does not know")?,
                        dice,
                    ),
                },
                (None, None) => ToGm::Resync { have: w.have },
                _ => return Err("two requests in one"),
            });
        }
        if w.ask.is_some() || w.act.is_some() {
            return Err("a greeting and a request in one");
        }
        Ok(ToGm::Hello {
            v: w.v,
            token: w.token,
            fight: w.fight,
            have: w.have,
            chars: w.chars,
        })
    }
}

/// The size limit, before anything is parsed; then a message must be one JSON object.
fn check_size(text: &str, max: usize) -> Result<(), Refused> {
    if text.len() > max {
        Err(Refused::TooLarge(text.len().div_ceil(1024), max / 1024))
    } else if !text.trim_start().starts_with('{') {
        Err(Refused::Shape("not an object".into()))
    } else {
        Ok(())
    }
}

/// A player's message, checked: the size before parsing, then the shape and the lengths.
pub fn read_to_gm(text: &str) -> Result<ToGm, Refused> {
    check_size(text, MAX_FROM_PLAYER)?;
    let w: GmWire = serde_json::from_str(text).map_err(|e| Refused::Shape(e.to_string()))?;
    if w.v != VERSION {
        return Err(Refused::Version(w.v));
    }
    let m = ToGm::try_from(w).map_err(|e| Refused::Shape(e.into()))?;
    if let ToGm::Hello {
        token,
        chars,
        fight,
        ..
    } = &m
    {
        if token.is_empty() || token.len() > 64 || fight.len() > 64 {
            return Err(Refused::Wrong("a greeting without a proper token"));
        }
        if chars.len() > MAX_CHARS || chars.iter().any(|c| c.len() > 64) {
            return Err(Refused::Wrong("more characters than a phone may claim"));
        }
    }
    Ok(m)
}

/// The GM's message, checked the same way on the player's phone.
pub fn read_to_player(text: &str) -> Result<ToPlayer, Refused> {
    check_size(text, MAX_MESSAGE)?;
    let w: PlayerWire = serde_json::from_str(text).map_err(|e| Refused::Shape(e.to_string()))?;
    let v = w.v;
    let m = ToPlayer::try_from(w).map_err(|e| Refused::Shape(e.into()))?;
    // A refusal is read from any version: it is how an older GM's phone says to update.
    match m {
        ToPlayer::Refused { .. } => Ok(m),
        _ if v != VERSION => Err(Refused::Version(v)),
        _ => Ok(m),
    }
}

/// Whether request `n` is new from a phone whose last request was `last` (numbers only grow):
/// a request is answered once, a repeat refused. Moves `last` on.
pub fn fresh(last: &mut u32, n: u32) -> Result<(), String> {
    if n <= *last {
        return Err("a request this phone already sent (each is answered once)".into());
    }
    *last = n;
    Ok(())
}

/// What `event` would do to fight `s`, as the GM sees it before accepting: the lines it writes
/// in the log, then every stat and pool it changes of any combatant, the asker's own included
/// ("Goblin: Disarmed 0 → 1"), so nothing a request does goes unseen.
pub fn preview(s: &State, event: &Event) -> Vec<String> {
    let mut after = s.clone();
    after.apply(event);
    changes(s, &after)
}

/// What request `req` of `who` would do to fight `s` as it is now ([`preview`] of the events it
/// makes), or why it no longer can.
pub fn request_preview(s: &State, who: u32, req: &Request) -> Result<Vec<String>, String> {
    match req {
        Request::Event(e) => Ok(preview(s, e)),
        Request::Act(intent, dice) => Ok(preview(s, &resolve_rolled(s, who, intent, dice)?)),
    }
}

/// What changed from `s` to `after`, as [`preview`] says it: the log's new lines, then every
/// stat and pool that changed without a line of its own, of every combatant (the actor's too).
fn changes(s: &State, after: &State) -> Vec<String> {
    let from = s.log.len();
    let mut out: Vec<String> = after.log[from.min(after.log.len())..]
        .iter()
        .map(|l| l.text.clone())
        .collect();
    for c in &after.combatants {
        let Some(b) = s.get(c.id) else { continue };
        for i in 0..c.stats.len().max(b.stats.len()) {
            if b.stat(i) != c.stat(i) {
                let name = s.rules.stats.get(i).copied().unwrap_or("a number");
                out.push(format!("{}: {name} {} → {}", c.name, b.stat(i), c.stat(i)));
            }
        }
        for (i, d) in s.rules.resources.iter().enumerate() {
            let (x, y) = (b.pools.get(i), c.pools.get(i));
            if x != y {
                let n = |v: Option<&i32>| v.map_or("–".to_owned(), i32::to_string);
                out.push(format!("{}: {} {} → {}", c.name, d.name, n(x), n(y)));
            }
        }
    }
    out
}

/// The dice for a request of `who`'s `intent` as the GM's phone takes it: those sent, topped up
/// where the roll on the GM's fight takes more (`rules::referee::topped_up`). Where it names a
/// combatant whose numbers the player does not see, its phone could not know what the roll
/// takes (a shown defence, a die of another size): the dice sent are used while they fit and
/// the GM's phone rolls the rest (`rules::referee::fitted`). Either way the dice sent stay in
/// order and no die is ever the sender's choice.
pub fn dice_for(
    s: &State,
    who: u32,
    intent: &Intent,
    dice: &Rolled,
    rest: &mut dyn crate::rules::dice::DiceSource,
    gm: Secrets,
) -> Rolled {
    let full = crate::rules::referee::topped_up(s, who, intent, dice, rest);
    let veiled = intent.names().iter().any(|&id| {
        s.get(id)
            .is_some_and(|c| !open(c) && !gm.revealed.contains(&c.id))
    });
    if veiled && resolve_rolled(s, who, intent, &full).is_err() {
        return crate::rules::referee::fitted(s, who, intent, dice, rest);
    }
    full
}

/// Request `req` as the GM decided it: the facts its intent proposes set to `values` (the GM's
/// phone shows each beside its default, [`Intent::facts`]), its dice fitted to the roll they
/// now make (the dice sent while they fit, then the GM's phone's own from `rest`). A raw event,
/// or an intent whose facts the GM left as proposed, is the request as it came.
pub fn decided(
    s: &State,
    who: u32,
    req: &Request,
    values: &[i32],
    rest: &mut dyn crate::rules::dice::DiceSource,
) -> Request {
    match req {
        Request::Act(intent, dice) => {
            let same = intent
                .facts()
                .iter()
                .map(|f| f.value)
                .eq(values.iter().copied());
            if same {
                return req.clone();
            }
            let now = intent.with_facts(values);
            let dice = crate::rules::referee::fitted(s, who, &now, dice, rest);
            Request::Act(now, dice)
        }
        raw => raw.clone(),
    }
}

/// Whether the player whose characters are `chars` may ask for `req` for combatant `who` in
/// fight `s` (the GM's, hidden NPCs included) now; if so the events it makes and everything they
/// change, for the GM to read before accepting. An intent is resolved here by the rules, with
/// the dice the player's phone rolled ([`resolve_rolled`]): what it may do out of its turn is
/// the rules' to say. A raw event is refused: every system's fight is refereed, and what the GM
/// alone does is never taken from a player's phone.
pub fn check_request(
    s: &State,
    chars: &[String],
    who: u32,
    req: &Request,
    gm: Secrets,
) -> Result<(Event, Vec<String>), String> {
    checked(s, chars, who, req, gm)
}

/// [`check_request`]: a raw event is refused (every system is refereed); an intent is resolved.
fn checked(
    s: &State,
    chars: &[String],
    who: u32,
    req: &Request,
    gm: Secrets,
) -> Result<(Event, Vec<String>), String> {
    let mine = |c: &Combatant| c.link.as_ref().is_some_and(|l| chars.contains(l));
    // What this player's phone shows in numbers: the only combatants a request may touch.
    let seen = |c: &Combatant| {
        mine(c) || ((open(c) || gm.revealed.contains(&c.id)) && !gm.unseen(s, c.id))
    };
    let c = s
        .get(who)
        .filter(|c| !c.gone)
        .ok_or("no such combatant in this fight")?;
    if !mine(c) {
        let name = if seen(c) {
            c.name.as_str()
        } else {
            "that combatant"
        };
        return Err(format!("{name} is not one of this player’s characters"));
    }
    if s.round == 0 {
        return Err("the fight has not started".into());
    }
    if s.ended {
        return Err("the fight is over".into());
    }
    let event = match req {
        Request::Act(intent, _) if intent.gm_only() => {
            return Err(crate::rules::referee::GM_ONLY.into())
        }
        Request::Act(intent, dice) => {
            // Whom it names must be in the player's view (its numbers need not be).
            if intent
                .names()
                .iter()
                .any(|&id| s.get(id).is_none_or(|c| c.gone || gm.unseen(s, id)))
            {
                return Err(
                    "a combatant that is not in this fight (as this player sees it)".into(),
                );
            }
            resolve_rolled(s, who, intent, dice)?
        }
        Request::Event(_) => {
            return Err("a change the rules did not make (this game’s actions are intents)".into())
        }
    };
    let mut after = s.clone();
    after.apply(&event);
    let same = after.combatants == s.combatants
        && after.conditions == s.conditions
        && after.order == s.order
        && (after.round, after.current, after.ended) == (s.round, s.current, s.ended)
        && after.log.len() == s.log.len();
    if same {
        return Err("it would change nothing".into());
    }
    let lines = changes(s, &after);
    Ok((event, lines))
}

/// An NPC's state in a word, from its numbers.
pub fn word(hp: i32, max: i32, dead: bool) -> &'static str {
    if dead {
        "dead"
    } else if hp <= 0 {
        "down"
    } else if hp.saturating_mul(2) <= max {
        "bloodied"
    } else if hp < max {
        "hurt"
    } else {
        "unhurt"
    }
}

/// Whether a player may see a combatant's numbers: a player character (an NPC kept as a saved
/// sheet is still an NPC).
pub(crate) fn open(c: &Combatant) -> bool {
    c.pc
}

/// What the GM chose for the players' eyes: NPCs hidden until their first turn (or until the
/// GM shows them, in a system without turns), and NPCs whose numbers they see.
#[derive(Debug, Clone, Copy, Default)]
pub struct Secrets<'a> {
    pub hidden: &'a [u32],
    pub revealed: &'a [u32],
    /// The fight's events: what each log line's step did, to leave out of a player's log the
    /// lines of steps about combatants the player may not see (empty: none traced).
    pub events: &'a [Event],
}

impl<'a> From<&'a crate::rules::encounter::Encounter> for Secrets<'a> {
    fn from(e: &'a crate::rules::encounter::Encounter) -> Self {
        Secrets {
            hidden: &e.hidden,
            revealed: &e.revealed,
            events: &e.events,
        }
    }
}

impl Secrets<'_> {
    /// Left out of a player's view altogether, for now.
    fn unseen(&self, s: &State, id: u32) -> bool {
        self.hidden.contains(&id) && !s.had_turn.contains(&id)
    }
}

/// The fight `state` of encounter `fight` (named `name`) as seen by the player whose characters
/// are `chars` (ids of their sheets): NPCs' numbers replaced by words, in the order and in the
/// log, unless the GM revealed them; hidden NPCs left out until their first turn.
pub fn view_for(fight: &str, name: &str, state: &State, chars: &[String], gm: Secrets) -> View {
    let rules = state.rules;
    let mine = |c: &Combatant| c.link.as_ref().is_some_and(|l| chars.contains(l));
    let open = |c: &Combatant| open(c) || gm.revealed.contains(&c.id);
    let seats = state
        .order
        .iter()
        .filter_map(|&id| state.get(id))
        .filter(|c| !c.gone && !gm.unseen(state, c.id))
        .map(|c| Seat {
            id: c.id,
            name: c.name.clone(),
            mine: mine(c),
            hp: open(c).then_some((c.hp, state.rules.hp_max(c))),
            word: word(c.hp, state.rules.hp_max(c), c.dead).to_owned(),
            conditions: state.conditions_of(c.id).map(|a| a.name.clone()).collect(),
            public: if open(c) || mine(c) {
                Vec::new()
            } else {
                rules
                    .public
                    .iter()
                    .map(|&i| (i, c.stat(i)))
                    .filter(|&(_, v)| v != 0)
                    .collect()
            },
        })
        .collect();
    let cast: Vec<(&Combatant, bool)> = state.combatants.iter().map(|c| (c, !open(c))).collect();
    let unseen: Vec<&str> = state
        .combatants
        .iter()
        .filter(|c| gm.unseen(state, c.id))
        .map(|c| c.name.as_str())
        .collect();
    // A line stays out when its step touches a combatant left out of this view, or does nothing
    // but set the numbers of NPCs whose numbers the player does not see (a pre-rolled defence,
    // fatigue): read from the step's data. A step of notes alone names no one: its words are
    // checked instead.
    let closed = |id: u32| state.get(id).is_some_and(|c| !mine(c) && !open(c));
    let secret = |l: &crate::rules::encounter::Line| {
        let Some(ev) = gm.events.get(l.ev) else {
            return false;
        };
        let steps = ev.clone().flat();
        let ids = |e: &Event| -> Vec<u32> {
            match e {
                Event::Damage(ids, _) | Event::Heal(ids, ..) => ids.clone(),
                Event::Set(id, ..)
                | Event::Text(id, ..)
                | Event::Add(id, ..)
                | Event::Spend(id, ..)
                | Event::Trade(id, ..)
                | Event::Use(id, _)
                | Event::Death(id, ..)
                | Event::Dies(id)
                | Event::Init(id, _)
                | Event::Place(id, _)
                | Event::Sync(id, ..) => vec![*id],
                _ => Vec::new(),
            }
        };
        let acts: Vec<&Event> = steps
            .iter()
            .filter(|e| !matches!(e, Event::Note(_)))
            .collect();
        acts.iter()
            .any(|e| ids(e).iter().any(|&id| gm.unseen(state, id)))
            || (!acts.is_empty()
                && acts
                    .iter()
                    .all(|e| matches!(e, Event::Set(id, ..) | Event::Text(id, ..) if closed(*id))))
    };
    let lines: Vec<&str> = state
        .log
        .iter()
        .filter(|l| !secret(l))
        .map(|l| l.text.as_str())
        .filter(|t| !unseen.iter().any(|n| t.contains(n)))
        .collect();
    // The others whose numbers this player sees, without the sheet each is linked to (a link
    // is what a phone claims a character by).
    let others: Vec<Combatant> = state
        .combatants
        .iter()
        .filter(|c| !mine(c) && !c.gone && open(c) && !gm.unseen(state, c.id))
        .map(|c| Combatant {
            link: None,
            ..c.clone()
        })
        .collect();
    let from = lines.len().saturating_sub(LOG_LINES);
    let log = lines[from..]
        .iter()
        .map(|l| {
            let mut text = redact(l, &cast, rules);
            if text.len() > LINE_BYTES {
                let cut = (0..=LINE_BYTES)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                text.truncate(cut);
                text.push('…');
            }
            text
        })
        .collect();
    View {
        fight: fight.to_owned(),
        name: name.to_owned(),
        system: rules.system.to_owned(),
        head: Head {
            status: state.status(),
            round: if state.round == 0 {
                0
            } else {
                rules.counter(state.round)
            },
            started: state.round > 0,
            current: state.current,
            ended: state.ended,
            at: state.round,
            had_turn: state
                .had_turn
                .iter()
                .copied()
                .filter(|&id| !gm.unseen(state, id))
                .collect(),
        },
        seats,
        log,
        own: state
            .combatants
            .iter()
            .filter(|c| mine(c))
            .cloned()
            .collect(),
        shared: state
            .combatants
            .iter()
            .filter(|c| mine(c))
            .map(|c| super::agree::fight_keys(state, c))
            .collect(),
        open: others.clone(),
        active: state
            .conditions
            .iter()
            .filter(|a| state.get(a.who).is_some_and(mine) || others.iter().any(|c| c.id == a.who))
            .cloned()
            .collect(),
    }
}

/// A log line with a hidden combatant's hit points ("Goblin takes 5 damage: HP 8 → 3, dying")
/// said as a word ("Goblin takes 5 damage: bloodied, dying"); other lines as they are. `cast`:
/// every combatant, with whether its numbers are hidden. A line is about the combatant with the
/// longest name it starts with ("Goblin Chief …" is not about "Goblin").
pub fn redact(text: &str, cast: &[(&Combatant, bool)], rules: &CombatRules) -> String {
    let hp_name = rules.hp_name;
    let Some(&(c, true)) = cast
        .iter()
        .filter(|(c, _)| {
            text.strip_prefix(c.name.as_str())
                .is_some_and(|rest| rest.starts_with([' ', ':', '\u{2019}']))
        })
        .max_by_key(|(c, _)| c.name.len())
    else {
        return text.to_owned();
    };
    // Its check's total ("Brigand: 6 +1 = 7", Tempo) and its pools ("Brigand uses 3 AP",
    // "… recovers 12 AP by the table (9 → 12)"): numbers the GM keeps. The outcome stays.
    let rest = &text[c.name.len()..];
    let total = rest
        .strip_prefix(": ")
        .and_then(|r| r.rsplit_once(" = "))
        .is_some_and(|(_, t)| t.parse::<i64>().is_ok());
    if total {
        return format!("{}: rolls its check", c.name);
    }
    for (verb, said) in [(" uses ", "acts"), (" recovers ", "recovers")] {
        if rest.starts_with(verb) && rules.resources.iter().any(|r| rest.contains(r.name)) {
            return format!("{} {said}", c.name);
        }
    }
    let mark = format!(": {hp_name} ");
    let Some(at) = text[c.name.len()..].find(&mark).map(|i| i + c.name.len()) else {
        return text.to_owned();
    };
    let rest = &text[at + mark.len()..];
    let end = rest.find([',', ':']).unwrap_or(rest.len());
    let now = rest[..end]
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse::<i32>().ok())
        .unwrap_or(c.hp);
    // Later parts naming the track ("HP max halved to 5") go too.
    let tail: String = rest[end..]
        .split(", ")
        .filter(|part| !part.contains(hp_name))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{}: {}{tail}",
        &text[..at],
        word(now, rules.hp_max(c), false)
    )
}

/// The change that turns `old` into `new`.
pub fn diff(old: &View, new: &View) -> Change {
    fn part<T: Clone + PartialEq>(a: &T, b: &T) -> Option<T> {
        (a != b).then(|| b.clone())
    }
    Change {
        name: part(&old.name, &new.name),
        head: part(&old.head, &new.head),
        seats: part(&old.seats, &new.seats),
        log: (old.log != new.log).then(|| log_change(&old.log, &new.log)),
        own: part(&old.own, &new.own),
        shared: part(&old.shared, &new.shared),
        open: part(&old.open, &new.open),
        active: part(&old.active, &new.active),
    }
}

/// The log's change. It is a window on the newest lines: usually lines come at the back and,
/// once it is full, leave at the front; an undo takes lines from the back.
fn log_change(old: &[String], new: &[String]) -> LogChange {
    let common = old.iter().zip(new).take_while(|(x, y)| x == y).count();
    if common < old.len() {
        if let Some(drop) = (1..old.len()).find(|&cut| new.starts_with(&old[cut..])) {
            let keep = old.len() - drop;
            return LogChange(drop, keep, new[keep..].to_vec());
        }
    }
    LogChange(0, common, new[common..].to_vec())
}

/// Applies `change` to `view`.
pub fn apply(view: &mut View, change: Change) {
    let Change {
        name,
        head,
        seats,
        log,
        own,
        shared,
        open,
        active,
    } = change;
    if let Some(open) = open {
        view.open = open;
    }
    if let Some(active) = active {
        view.active = active;
    }
    if let Some(shared) = shared {
        view.shared = shared;
    }
    if let Some(name) = name {
        view.name = name;
    }
    if let Some(head) = head {
        view.head = head;
    }
    if let Some(seats) = seats {
        view.seats = seats;
    }
    if let Some(LogChange(drop, keep, add)) = log {
        view.log.drain(..drop.min(view.log.len()));
        view.log.truncate(keep);
        view.log.extend(add);
        // Never more than a view holds, whatever a step says.
        let over = view.log.len().saturating_sub(LOG_LINES);
        view.log.drain(..over);
    }
    if let Some(own) = own {
        view.own = own;
    }
}

/// The GM's side of one player's stream: the last view sent, the step number, and the recent
/// steps for a rejoin.
#[derive(Debug, Clone, Default)]
pub struct Lead {
    seq: u64,
    sent: Option<View>,
    history: Vec<(u64, Change)>,
}

impl Lead {
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The fight now: a step with what changed since the last message, or nothing when the
    /// player's view did not change (or no snapshot was sent yet).
    pub fn update(&mut self, view: View) -> Option<ToPlayer> {
        let sent = self.sent.as_mut()?;
        let change = diff(sent, &view);
        if change.is_empty() {
            return None;
        }
        *sent = view;
        self.seq += 1;
        self.history.push((self.seq, change.clone()));
        let over = self.history.len().saturating_sub(HISTORY);
        self.history.drain(..over);
        Some(ToPlayer::Step {
            seq: self.seq,
            change,
        })
    }

    /// What a phone holding step `have` needs to be at `view`: the steps it missed if they are
    /// all kept and it holds the view they start from, else a snapshot.
    pub fn catch_up(&mut self, have: u64, view: View) -> Vec<ToPlayer> {
        let first = self.history.first().map(|(s, _)| *s);
        let kept = self.sent.is_some()
            && have > 0
            && have <= self.seq
            && (have == self.seq || first.is_some_and(|f| f <= have + 1));
        if kept {
            let mut out: Vec<ToPlayer> = self
                .history
                .iter()
                .filter(|(s, _)| *s > have)
                .map(|(seq, change)| ToPlayer::Step {
                    seq: *seq,
                    change: change.clone(),
                })
                .collect();
            out.extend(self.update(view));
            return out;
        }
        self.seq += 1;
        self.history.clear();
        self.sent = Some(view.clone());
        vec![ToPlayer::Snapshot {
            seq: self.seq,
            view,
        }]
    }
}

/// The player's side, and what a player's phone keeps of the table (`rollsheet.table`): its
/// lasting token, and the last view it was shown (read-only until it rejoins) with its step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Follow {
    pub schema_version: u64,
    #[serde(default)]
    pub token: String,
    #[serde(default)]
    pub seq: u64,
    #[serde(default)]
    pub view: Option<View>,
    /// Per own combatant, what it and this phone's sheet last agreed (of this view's fight).
    #[serde(default)]
    pub agreed: Vec<Agreed>,
}

/// What a player's phone keeps: its [`Follow`].
pub type Held = Follow;

impl Default for Follow {
    fn default() -> Self {
        Follow {
            schema_version: <Follow as super::versioned::Versioned>::CURRENT,
            token: String::new(),
            seq: 0,
            view: None,
            agreed: Vec::new(),
        }
    }
}

impl super::versioned::Versioned for Follow {
    const KEY: &'static str = "rollsheet.table";
    const CURRENT: u64 = 1;
    fn migrate(from: u64, _doc: &str) -> Result<String, String> {
        Err(format!("no migration from table format {from}"))
    }
}

/// What a message did to a [`Follow`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Got {
    /// The view changed.
    Shown,
    /// A step already held (sent twice): nothing changed.
    Old,
    /// A step is missing: ask for the fight from `have`.
    Gap { have: u64 },
}

impl Follow {
    pub fn receive(&mut self, m: ToPlayer) -> Got {
        match m {
            ToPlayer::Snapshot { seq, view } => {
                if self.view.as_ref().is_none_or(|v| v.fight != view.fight) {
                    self.agreed.clear();
                }
                self.seq = seq;
                self.view = Some(view);
                Got::Shown
            }
            ToPlayer::Step { seq, change } => match &mut self.view {
                Some(_) if seq <= self.seq => Got::Old,
                Some(view) if seq == self.seq + 1 => {
                    apply(view, change);
                    self.seq = seq;
                    Got::Shown
                }
                _ => Got::Gap { have: self.seq },
            },
            ToPlayer::Refused { .. } | ToPlayer::Answer { .. } => Got::Old,
        }
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;

/// A session description cut to what a data channel between two phones needs (the ICE name
/// and password, the certificate's fingerprint, the DTLS role and each UDP candidate), so a
/// pairing code stays a small QR code: `ufrag pwd fingerprint setup address:port …`.
/// [`expand`] writes it back as a full description both Chromium and WebKit accept.
pub fn compact(sdp: &str) -> Option<String> {
    let attr = |name: &str| {
        sdp.lines()
            .find_map(|l| l.trim_end().strip_prefix(name).map(str::to_owned))
    };
    let ufrag = attr("a=ice-ufrag:")?;
    let pwd = attr("a=ice-pwd:")?;
    let fp = attr("a=fingerprint:sha-256 ")?;
    let bytes: Option<Vec<u8>> = fp
        .split(':')
        .map(|h| u8::from_str_radix(h, 16).ok())
        .collect();
    let bytes = bytes.filter(|b| b.len() == 32)?;
    let setup = match attr("a=setup:")?.as_str() {
        "actpass" => 'x',
        "active" => 'a',
        "passive" => 'p',
        _ => return None,
    };
    let mut out = format!("{ufrag} {pwd} {} {setup}", super::link::encode(&bytes));
    for l in sdp.lines() {
        let Some(c) = l.trim_end().strip_prefix("a=candidate:") else {
            continue;
        };
        let f: Vec<&str> = c.split(' ').collect();
        // foundation component transport priority address port "typ" type …
        if f.len() >= 8 && f[1] == "1" && f[2].eq_ignore_ascii_case("udp") && f[6] == "typ" {
            out.push_str(&format!(" {}/{}", f[4], f[5]));
        }
    }
    (out.len() <= MAX_SDP).then_some(out)
}

/// The full session description of a [`compact`] one; `None` when it is not one.
pub fn expand(short: &str) -> Option<String> {
    let mut parts = short.split(' ');
    let (ufrag, pwd, fp, setup) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let ok = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_graphic());
    if !ok(ufrag) || !ok(pwd) {
        return None;
    }
    let fp = super::link::decode(fp).filter(|b| b.len() == 32)?;
    let fp: Vec<String> = fp.iter().map(|b| format!("{b:02X}")).collect();
    let setup = match setup {
        "x" => "actpass",
        "a" => "active",
        "p" => "passive",
        _ => return None,
    };
    let mut sdp = String::from(
        "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\na=msid-semantic: WMS\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\n",
    );
    for (i, c) in parts.enumerate() {
        let (addr, port) = c.rsplit_once('/')?;
        let port: u16 = port.parse().ok()?;
        let addr_ok = !addr.is_empty()
            && addr.len() <= 64
            && addr
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".:-".contains(&b));
        if !addr_ok {
            return None;
        }
        sdp.push_str(&format!(
            "a=candidate:{n} 1 udp {prio} {addr} {port} typ host generation 0\r\n",
            n = i + 1,
            prio = 2_113_937_151u32.saturating_sub(i as u32 * 256),
        ));
    }
    sdp.push_str(&format!(
        "a=ice-ufrag:{ufrag}\r\na=ice-pwd:{pwd}\r\na=ice-options:trickle\r\na=fingerprint:sha-256 {}\r\na=setup:{setup}\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n",
        fp.join(":")
    ));
    Some(sdp)
}
