//! The live table's protocol, pure: what the GM's phone and a player's phone say to each other
//! over their direct channel, and every check a message meets before it changes anything.
//!
//! - **Pairing codes** ([`Code`]) carry one side of a WebRTC session (its SDP, gathered in full:
//!   no server helps the phones find each other). They travel as share links (`storage::link`),
//!   so a code is a link, a QR code and a paste alike.
//! - **The GM's phone is the one authority.** Each player follows a numbered stream of one
//!   [`View`] of the fight made for them ([`view_for`]): a [`ToPlayer::Snapshot`] on connect and
//!   after any gap, then each change as a [`ToPlayer::Step`] of [`Op`]s. [`Lead`] (on the GM's
//!   phone, one per player) writes the stream and keeps its recent steps, so a phone that
//!   rejoins catches up from the last step it holds; [`Follow`] (on the player's phone) applies
//!   it, and asks for a snapshot when a step is missing.
//! - **NPCs' numbers never leave the GM's phone**: a player's view has, for a combatant no player
//!   owns, a word for its state ("bloodied") instead of its hit points, and the log's lines about
//!   it say that word where the GM's log has the numbers.
//! - **A peer is checked like an import** ([`read_to_gm`], [`read_to_player`]): the size limit
//!   before parsing, then the format version, the shape and the lengths.

use crate::rules::encounter::{Combatant, State};
use serde::{Deserialize, Serialize};

/// The protocol this app speaks; a peer with another is refused with what to do.
pub const VERSION: u32 = 1;
/// The largest message read from a peer, in bytes (checked before parsing). A snapshot of a
/// long fight is far below it: the view keeps the last [`LOG_LINES`] lines.
pub const MAX_MESSAGE: usize = 256 * 1024;
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
    #[error("a message of {0} KB, over the limit of {max} KB", max = MAX_MESSAGE / 1024)]
    TooLarge(usize),
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
        if json.len() > MAX_SDP * 2 {
            return Err(Refused::TooLarge(json.len().div_ceil(1024)));
        }
        let c: Code = serde_json::from_str(json).map_err(|e| Refused::Shape(e.to_string()))?;
        if c.table != VERSION {
            return Err(Refused::Version(c.table));
        }
        if c.sdp.len() > MAX_SDP || c.fight.len() > 64 || c.name.len() > 800 {
            return Err(Refused::Wrong("the code is longer than any this app makes"));
        }
        if c.seat as usize >= MAX_SEATS {
            return Err(Refused::Wrong("the code is for a seat this app never offers"));
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
}

/// Round, turn and whether the fight is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Head {
    /// The round as the system counts it (0 before the start where it counts from 1).
    pub round: u32,
    pub started: bool,
    pub current: Option<u32>,
    pub ended: bool,
}

/// One change of a [`View`]: the parts that changed, whole, and the log's new lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum Op {
    Name { name: String },
    Head { head: Head },
    Seats { seats: Vec<Seat> },
    /// Drops the first `drop` lines, keeps the next `keep` and adds `add` after them.
    Log {
        drop: usize,
        keep: usize,
        add: Vec<String>,
    },
    Own { own: Vec<Combatant> },
}

/// What the GM's phone sends a player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum ToPlayer {
    Snapshot { seq: u64, view: View },
    Step { seq: u64, ops: Vec<Op> },
    /// The GM's phone will not serve this phone: why.
    Refused { why: String },
}

/// What a player's phone sends the GM's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
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
}

fn check_size(text: &str) -> Result<(), Refused> {
    if text.len() > MAX_MESSAGE {
        Err(Refused::TooLarge(text.len().div_ceil(1024)))
    } else {
        Ok(())
    }
}

/// A player's message, checked: the size before parsing, then the shape and the lengths.
pub fn read_to_gm(text: &str) -> Result<ToGm, Refused> {
    check_size(text)?;
    let m: ToGm = serde_json::from_str(text).map_err(|e| Refused::Shape(e.to_string()))?;
    if let ToGm::Hello {
        v, token, chars, fight, ..
    } = &m
    {
        if *v != VERSION {
            return Err(Refused::Version(*v));
        }
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
    check_size(text)?;
    serde_json::from_str(text).map_err(|e| Refused::Shape(e.to_string()))
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

/// Whether a player may see a combatant's numbers: a player character or one linked to a sheet.
fn open(c: &Combatant) -> bool {
    c.pc || c.link.is_some()
}

/// The fight `state` of encounter `fight` (named `name`) as seen by the player whose characters
/// are `chars` (ids of their sheets): NPCs' numbers replaced by words, in the order and in the
/// log.
pub fn view_for(fight: &str, name: &str, state: &State, chars: &[String]) -> View {
    let rules = state.rules;
    let mine = |c: &Combatant| c.link.as_ref().is_some_and(|l| chars.contains(l));
    let seats = state
        .order
        .iter()
        .filter_map(|&id| state.get(id))
        .filter(|c| !c.gone)
        .map(|c| Seat {
            id: c.id,
            name: c.name.clone(),
            mine: mine(c),
            hp: open(c).then_some((c.hp, c.hp_max)),
            word: word(c.hp, c.hp_max, c.dead).to_owned(),
            conditions: state.conditions_of(c.id).map(|a| a.name.clone()).collect(),
        })
        .collect();
    let hidden: Vec<&Combatant> = state.combatants.iter().filter(|c| !open(c)).collect();
    let from = state.log.len().saturating_sub(LOG_LINES);
    let log = state.log[from..]
        .iter()
        .map(|l| redact(&l.text, &hidden, rules.hp_name))
        .collect();
    View {
        fight: fight.to_owned(),
        name: name.to_owned(),
        system: rules.system.to_owned(),
        head: Head {
            round: if state.round == 0 { 0 } else { rules.counter(state.round) },
            started: state.round > 0,
            current: state.current,
            ended: state.ended,
        },
        seats,
        log,
        own: state.combatants.iter().filter(|c| mine(c)).cloned().collect(),
    }
}

/// A log line with a hidden combatant's hit points ("Goblin takes 5 damage: HP 8 → 3, dying")
/// said as a word ("Goblin takes 5 damage: bloodied, dying"); other lines as they are.
pub fn redact(text: &str, hidden: &[&Combatant], hp_name: &str) -> String {
    let Some(c) = hidden
        .iter()
        .filter(|c| text.starts_with(c.name.as_str()))
        .max_by_key(|c| c.name.len())
    else {
        return text.to_owned();
    };
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
    format!(
        "{}: {}{}",
        &text[..at],
        word(now, c.hp_max, false),
        &rest[end..]
    )
}

/// The changes that turn `old` into `new`.
pub fn diff(old: &View, new: &View) -> Vec<Op> {
    let mut ops = Vec::new();
    if old.name != new.name {
        ops.push(Op::Name {
            name: new.name.clone(),
        });
    }
    if old.head != new.head {
        ops.push(Op::Head { head: new.head });
    }
    if old.seats != new.seats {
        ops.push(Op::Seats {
            seats: new.seats.clone(),
        });
    }
    if old.log != new.log {
        ops.push(log_op(&old.log, &new.log));
    }
    if old.own != new.own {
        ops.push(Op::Own {
            own: new.own.clone(),
        });
    }
    ops
}

/// The log's change. It is a window on the newest lines: usually lines come at the back and,
/// once it is full, leave at the front; an undo takes lines from the back.
fn log_op(old: &[String], new: &[String]) -> Op {
    let common = old.iter().zip(new).take_while(|(x, y)| x == y).count();
    if common < old.len() {
        if let Some(drop) = (1..old.len()).find(|&cut| new.starts_with(&old[cut..])) {
            let keep = old.len() - drop;
            return Op::Log {
                drop,
                keep,
                add: new[keep..].to_vec(),
            };
        }
    }
    Op::Log {
        drop: 0,
        keep: common,
        add: new[common..].to_vec(),
    }
}

/// Applies `ops` to `view`.
pub fn apply(view: &mut View, ops: Vec<Op>) {
    for op in ops {
        match op {
            Op::Name { name } => view.name = name,
            Op::Head { head } => view.head = head,
            Op::Seats { seats } => view.seats = seats,
            Op::Log { drop, keep, add } => {
                view.log.drain(..drop.min(view.log.len()));
                view.log.truncate(keep);
                view.log.extend(add);
                // Never more than a view holds, whatever a step says.
                let over = view.log.len().saturating_sub(LOG_LINES);
                view.log.drain(..over);
            }
            Op::Own { own } => view.own = own,
        }
    }
}

/// The GM's side of one player's stream: the last view sent, the step number, and the recent
/// steps for a rejoin.
#[derive(Debug, Clone, Default)]
pub struct Lead {
    seq: u64,
    sent: Option<View>,
    history: Vec<(u64, Vec<Op>)>,
}

impl Lead {
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The fight now: a step with what changed since the last message, or nothing when the
    /// player's view did not change (or no snapshot was sent yet).
    pub fn update(&mut self, view: View) -> Option<ToPlayer> {
        let sent = self.sent.as_mut()?;
        let ops = diff(sent, &view);
        if ops.is_empty() {
            return None;
        }
        *sent = view;
        self.seq += 1;
        self.history.push((self.seq, ops.clone()));
        let over = self.history.len().saturating_sub(HISTORY);
        self.history.drain(..over);
        Some(ToPlayer::Step { seq: self.seq, ops })
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
                .map(|(seq, ops)| ToPlayer::Step {
                    seq: *seq,
                    ops: ops.clone(),
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

/// The player's side: the last view shown and its step.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Follow {
    pub seq: u64,
    pub view: Option<View>,
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
                self.seq = seq;
                self.view = Some(view);
                Got::Shown
            }
            ToPlayer::Step { seq, ops } => match &mut self.view {
                Some(_) if seq <= self.seq => Got::Old,
                Some(view) if seq == self.seq + 1 => {
                    apply(view, ops);
                    self.seq = seq;
                    Got::Shown
                }
                _ => Got::Gap { have: self.seq },
            },
            ToPlayer::Refused { .. } => Got::Old,
        }
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
