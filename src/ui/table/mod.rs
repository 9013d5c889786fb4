//! The live table: the GM's fight followed on every player's phone over direct WebRTC channels
//! paired by QR codes. The protocol (codes, views, the numbered stream, every check) is
//! `storage::table`, pure and host-tested; this module is the glue: the pairing steps, the
//! channels (`rtc.rs`), the GM's panel on the fight (`gm.rs`) and the player's page
//! (`player.rs`). Only the app root names this module: the fight page reaches the panel through
//! the [`TableHook`](crate::ui::encounters::TableHook) context.

mod gm;
mod player;
mod rtc;

pub use player::TablePage;

use crate::rules::encounter::{Encounter, State};
use crate::storage::agree;
use crate::storage::table::{
    check_request, compact, decided, dice_for, expand, fresh, read_to_gm, read_to_player,
    request_preview, view_for, Code, Got, Held, Lead, Request, ToGm, ToPlayer, MAX_SEATS,
    MAX_WAITING, VERSION,
};
use crate::storage::versioned::Versioned;
use crate::storage::Loaded;
use crate::storage::{KeyValueStore, LocalStore};
use crate::ui::encounters::{EncCtx, Encounters, TableHook};
use crate::ui::lazy::{later, NotLoaded};
use crate::ui::qr::{self, Qr};
use crate::ui::roster::Roster;
use crate::ui::share::{link_of, Arrived, Share};
use crate::ui::state::{with_dice, Notices};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;

/// The seat number of the player's own connection (the GM's seats are 0–7).
const PLAYER: u32 = 99;
/// How long a scanned answer may take to become an open channel.
const CONNECT_MS: u64 = 15_000;

/// Where one connection is.
#[derive(Clone, PartialEq)]
pub enum Phase {
    Idle,
    Making,
    /// A code to show: the link and its QR code.
    Showing(String, Option<Qr>),
    Connecting,
    /// Connected; who is playing there (GM) or nothing (player).
    Open(String),
    /// Closed or failed, and what to do.
    Lost(String),
}

/// What a phase shows, drawn by one view for the GM's seats and the player's page: a sentence
/// (said as an error or a success by `class`), a code to scan (its link and QR code), and a
/// button.
pub struct Card {
    pub text: String,
    pub class: &'static str,
    pub code: Option<(String, Option<Qr>)>,
    pub button: Option<(&'static str, Callback<()>)>,
}

impl Card {
    /// A plain sentence; the other parts are added with struct update syntax.
    pub fn says(text: impl Into<String>) -> Card {
        Card {
            text: text.into(),
            class: "",
            code: None,
            button: None,
        }
    }
}

pub fn card(c: Card, testid: &'static str) -> impl IntoView {
    let (link, qr) = c.code.unzip();
    view! {
        <p role="status" class=c.class>{c.text}</p>
        {qr.flatten().map(crate::ui::share::qr_image)}
        {link.map(|l| view! { <input class="code-link" readonly value=l aria-label="Pairing link" data-testid=testid/> })}
        {c.button.map(|(label, go)| view! { <button class="btn" on:click=move |_| go.run(())>{label}</button> })}
    }
}

/// The facts a request proposes, as proposed (`Intent::facts`).
fn proposed(req: &Request) -> Vec<i32> {
    match req {
        Request::Act(i, _) => i.facts().iter().map(|f| f.value).collect(),
        _ => Vec::new(),
    }
}

/// One player's seat on the GM's phone.
#[derive(Clone, PartialEq)]
pub struct SeatUi {
    pub n: u32,
    pub phase: Phase,
}

/// A request from a player's phone: on the GM's phone waiting for an answer; on the player's,
/// as sent, with the answer once it comes (`said`).
#[derive(Clone, PartialEq)]
pub struct Ask {
    seat: u32,
    /// GM: the asking phone's token (a new phone on the seat is not it).
    token: String,
    n: u32,
    who: u32,
    req: Request,
    /// What it writes in the fight's log.
    text: String,
    said: Option<String>,
    /// GM: the facts it proposes as the GM has set them (`Intent::facts`, in order).
    pub facts: Vec<i32>,
}

/// A player's phone the GM's phone serves: its lasting token, its characters and its stream.
struct Peer {
    seat: u32,
    token: String,
    chars: Vec<String>,
    lead: Lead,
    open: bool,
    /// The number of its last request (they only grow: a repeat is refused).
    asked: u32,
}

#[derive(Clone, Copy)]
pub struct Table {
    /// GM: the fight this phone serves.
    fight: RwSignal<Option<String>>,
    /// GM: the players' seats; and this phone's own connection as a player (seat [`PLAYER`]).
    seats: RwSignal<Vec<SeatUi>>,
    /// GM: what happened at the table (joins, refused messages), newest last.
    lines: RwSignal<Vec<String>>,
    /// Player: what this phone keeps (its connection is the seat [`PLAYER`]).
    held: RwSignal<Held>,
    /// GM: players' requests waiting for an answer; player: this phone's requests.
    asks: RwSignal<Vec<Ask>>,
    encounters: Encounters,
    roster: Roster,
    notices: Notices,
    share: Share,
}

/// What the table's code (the pairing, the channels, the GM's checks of every request and the
/// stream to the players) hands back once its module is in. It is the fights' module: a GM's
/// fight draws the table's panel, a player's table page draws the fights' combat panels, and
/// as one module they cost 6 KB less (brotli) than as two.
pub struct Runtime {
    /// Sets the table going, once: the channel handler, codes arriving, the stream to players.
    start: fn(Table),
    panel: fn(EncCtx) -> AnyView,
    asks: fn(EncCtx) -> AnyView,
    page: fn() -> AnyView,
}

crate::ui::lazy::split_point! {
    fights,
    fn runtime() -> Result<&'static Runtime, NotLoaded> {
        static RUNTIME: Runtime = Runtime {
            start: Table::start,
            panel: gm::panel,
            asks: gm::asks,
            page: player::page,
        };
        Ok(&RUNTIME)
    }
}

/// The table's module, set going the first time it is asked for.
async fn ready() -> Result<&'static Runtime, NotLoaded> {
    let rt = runtime().await?;
    if let Some((t, owner)) = local(|l| l.waiting.take()) {
        owner.with(|| (rt.start)(t));
    }
    Ok(rt)
}

/// The table's page (`/table`), once its module is in.
pub fn page() -> AnyView {
    later(ready(), |rt| (rt.page)())
}

fn panel_later(ctx: EncCtx) -> AnyView {
    later(ready(), move |rt| (rt.panel)(ctx))
}

fn asks_later(ctx: EncCtx) -> AnyView {
    later(ready(), move |rt| (rt.asks)(ctx))
}

/// Sets up the table for the whole app: its state here, its code in the fights' module (39 KB
/// brotli no first visit downloads), fetched when a phone first needs it: the table's page or a
/// fight's panel drawn, a pairing code arriving, or a player's phone reloaded with a fight's
/// view it held.
pub fn provide() {
    let t = Table {
        fight: RwSignal::new(None),
        seats: RwSignal::new(vec![SeatUi {
            n: PLAYER,
            phase: Phase::Idle,
        }]),
        lines: RwSignal::new(Vec::new()),
        held: RwSignal::new(Held::default()),
        asks: RwSignal::new(Vec::new()),
        encounters: expect_context(),
        roster: expect_context(),
        notices: expect_context(),
        share: expect_context(),
    };
    provide_context(t);
    provide_context(TableHook(panel_later, asks_later));
    local(|l| {
        l.table = Some(t);
        l.waiting = Owner::current().map(|o| (t, o));
    });
    let held = matches!(LocalStore.get(Held::KEY), Ok(Some(_)));
    Effect::new(move || {
        if held || t.share.waiting(Arrived::Table) {
            spawn_local(async move {
                if ready().await.is_err() {
                    t.notices.error(NOT_LOADED);
                }
            });
        }
    });
}

/// Offline before the table's module was ever downloaded.
const NOT_LOADED: &str =
    "The live table was not downloaded before this phone went offline. Connect once and try again.";

impl Table {
    /// The table's module set going (see [`Runtime::start`]): what a player's phone held before
    /// a reload, the channel handler, codes arriving, and the stream to every player when the
    /// served fight changes.
    fn start(t: Table) {
        // The GM's running fight this phone follows, for its sheets: their fight actions are
        // taken in the fight (`rules::edit::in_fight`).
        Effect::new(move || {
            let now = t.held.with(|h| {
                h.view.as_ref().and_then(|v| {
                    let running = v.head.started && !v.head.ended;
                    let links: Vec<String> = v
                        .own
                        .iter()
                        .filter(|c| !c.gone)
                        .filter_map(|c| c.link.clone())
                        .collect();
                    (running && !links.is_empty()).then(|| (v.name.clone(), links))
                })
            });
            t.encounters.followed.set(now);
        });
        // Missing, or storage off (said once at start): nothing to show yet.
        match crate::storage::load::<Held>(&LocalStore, crate::ui::state::now_ms()) {
            Ok(Loaded::Ok(held)) => {
                // A reloaded phone shows the last view it held, read-only, and how to rejoin.
                if held.view.is_some() {
                    t.set_phase(PLAYER, Phase::Lost(DISCONNECTED.into()));
                }
                t.held.set(held);
            }
            Ok(Loaded::Quarantined {
                quarantine_key,
                reason,
            }) => t.notices.error(format!(
                "The last table view could not be read ({reason}); it was kept aside as “{quarantine_key}”."
            )),
            _ => {}
        }
        let handler = Closure::<dyn FnMut(u32, String, String)>::new(
            move |seat: u32, kind: String, text: String| {
                if seat == PLAYER {
                    t.player_event(&kind, &text);
                } else {
                    t.gm_event(seat, &kind, &text);
                }
            },
        );
        rtc::listen(&handler);
        handler.forget();
        Effect::new(move || {
            if let Some(json) = t.share.take(Arrived::Table) {
                t.arrived(&json);
            }
        });
        Effect::new(move || {
            t.encounters.list.track();
            t.push();
        });
    }

    fn set_phase(self, n: u32, phase: Phase) {
        self.seats.update(|s| {
            if let Some(seat) = s.iter_mut().find(|s| s.n == n) {
                seat.phase = phase;
            }
        });
    }

    /// This phone's own connection as a player.
    pub fn mine(self) -> Phase {
        self.seats.with(|s| {
            s.iter()
                .find(|s| s.n == PLAYER)
                .map_or(Phase::Idle, |s| s.phase.clone())
        })
    }

    fn phase(self, n: u32) -> Option<Phase> {
        self.seats
            .with_untracked(|s| s.iter().find(|s| s.n == n).map(|s| s.phase.clone()))
    }

    fn line(self, text: String) {
        self.lines.update(|l| {
            l.push(text);
            let over = l.len().saturating_sub(50);
            l.drain(..over);
        });
    }

    /// GM: serves fight `id` and makes the first player's code.
    fn serve(self, id: String) {
        if !rtc::supported() {
            self.notices
                .error("This browser cannot make direct connections (no WebRTC), so it cannot run a table.");
            return;
        }
        self.close_all();
        self.fight.set(Some(id));
        self.add_seat();
    }

    fn close_all(self) {
        for s in self.seats.get_untracked() {
            rtc::close(s.n);
        }
        self.seats.update(|s| s.retain(|s| s.n == PLAYER));
        self.asks.set(Vec::new());
        local(|l| l.peers.clear());
        self.fight.set(None);
    }

    fn add_seat(self) {
        let taken = self.seats.get_untracked();
        let Some(n) = (0..MAX_SEATS as u32).find(|n| !taken.iter().any(|s| s.n == *n)) else {
            return;
        };
        self.seats.update(|s| {
            s.push(SeatUi {
                n,
                phase: Phase::Making,
            })
        });
        self.offer(n);
    }

    /// GM: a fresh code for seat `n` (a new seat, or a player who rejoins).
    fn offer(self, n: u32) {
        self.set_phase(n, Phase::Making);
        let attempt = next_attempt(n);
        spawn_local(async move {
            let phase = match self.make_offer(n).await {
                Ok((link, code)) => Phase::Showing(link, code),
                Err(e) => Phase::Lost(format!("No code could be made: {e}.")),
            };
            // Still this attempt of this seat (not closed, reopened or made again meanwhile).
            if attempt_now(n) == attempt && self.phase(n) == Some(Phase::Making) {
                self.set_phase(n, phase);
            }
        });
    }

    async fn make_offer(self, n: u32) -> Result<(String, Option<Qr>), String> {
        let fight = self.fight.get_untracked().ok_or("the table is closed")?;
        let name = self
            .encounters
            .get(&fight)
            .map(|e| e.name)
            .unwrap_or_default();
        let code = Code {
            table: VERSION,
            answer: false,
            fight,
            name,
            seat: n,
            sdp: String::new(),
        };
        make_code(n, None, code).await
    }

    /// A pairing code arrived (scanned, pasted or opened as a link).
    fn arrived(self, json: &str) {
        // Used once: a reload must not answer an old invitation again.
        crate::ui::share::clear_fragment();
        match Code::read(json) {
            Ok(code) if code.answer => self.answered(code),
            Ok(code) => self.join(code),
            Err(e) => self
                .notices
                .error(format!("This table code cannot be used: {e}.")),
        }
    }

    /// GM: a player's answer to seat `code.seat`'s invitation.
    fn answered(self, code: Code) {
        let n = code.seat;
        if self.fight.get_untracked().as_deref() != Some(code.fight.as_str()) {
            self.notices.error(format!(
                "This code answers the table of another fight (“{}”). Open that fight’s table, or give the player a code of this one.",
                code.name
            ));
            return;
        }
        if !matches!(self.phase(n), Some(Phase::Showing(..))) {
            self.notices.error(format!(
                "This code answers an invitation for player {} that is no longer shown. Tap New code and let the player scan it.",
                n + 1
            ));
            return;
        }
        let Some(sdp) = expand(&code.sdp) else {
            self.notices
                .error("This code is damaged: ask the player to show it again.");
            return;
        };
        self.set_phase(n, Phase::Connecting);
        let attempt = attempt_now(n);
        spawn_local(async move {
            if let Err(e) = rtc::accept(n, &sdp).await {
                self.set_phase(
                    n,
                    Phase::Lost(format!(
                        "The code could not be used: {}. Tap New code.",
                        rtc::reason(e)
                    )),
                );
            }
        });
        set_timeout(
            move || {
                if attempt_now(n) == attempt && self.phase(n) == Some(Phase::Connecting) {
                    rtc::close(n);
                    self.set_phase(n, Phase::Lost(TOO_LONG.into()));
                }
            },
            std::time::Duration::from_millis(CONNECT_MS),
        );
    }

    fn gm_event(self, n: u32, kind: &str, text: &str) {
        match kind {
            "open" => self.set_phase(n, Phase::Open("waiting for the player’s phone…".into())),
            "message" => self.gm_message(n, text),
            _ => {
                local_peers(|ps| {
                    for p in ps.iter_mut().filter(|p| p.seat == n) {
                        p.open = false;
                    }
                });
                if matches!(self.phase(n), Some(Phase::Open(_) | Phase::Connecting)) {
                    self.line(format!("Player {} disconnected.", n + 1));
                    self.set_phase(n, Phase::Lost(format!(
                        "Disconnected ({text}). When the player’s phone is back, tap New code and let them scan it: it catches up."
                    )));
                }
            }
        }
    }

    fn gm_message(self, n: u32, text: &str) {
        let m = match read_to_gm(text) {
            Ok(m) => m,
            Err(e) => {
                self.line(format!("Player {}: a message was refused: {e}.", n + 1));
                return;
            }
        };
        let Some(e) = self.served() else {
            return;
        };
        let fight = e.id.clone();
        let state = e.state();
        match m {
            ToGm::Hello {
                token,
                fight: theirs,
                have,
                chars,
                ..
            } => {
                if theirs != fight {
                    send(
                        n,
                        &ToPlayer::Refused {
                            why: "This phone paired for another fight.".into(),
                        },
                    );
                    self.line(format!(
                        "Player {}: refused, paired for another fight.",
                        n + 1
                    ));
                    return;
                }
                // A greeting sent again (a retry) is not a new arrival.
                let again =
                    local_peers(|ps| ps.iter().any(|p| p.token == token && p.open && p.seat == n));
                // A character another phone played at this table stays theirs (connected
                // or away: it comes back with its own token).
                let chars: Vec<String> = local_peers(|ps| {
                    chars
                        .into_iter()
                        .filter(|c| !ps.iter().any(|p| p.token != token && p.chars.contains(c)))
                        .collect()
                });
                local_peers(|ps| {
                    // One phone per seat: a new token on a seat replaces the one there; the
                    // table keeps no more phones than seats.
                    ps.retain(|p| p.token == token || p.seat != n);
                    if ps.len() >= MAX_SEATS && !ps.iter().any(|p| p.token == token) {
                        if let Some(i) = ps.iter().position(|p| !p.open) {
                            ps.remove(i);
                        }
                    }
                    if let Some(p) = ps.iter_mut().find(|p| p.token == token) {
                        p.seat = n;
                        p.chars = chars.clone();
                        p.open = true;
                    } else {
                        ps.push(Peer {
                            seat: n,
                            token,
                            chars: chars.clone(),
                            lead: Lead::default(),
                            open: true,
                            asked: 0,
                        });
                    }
                });
                let who = names(&state, &chars);
                if !again {
                    self.line(format!("Player {} joined: {who}.", n + 1));
                }
                self.set_phase(n, Phase::Open(who));
                catch_up(n, have, &e, &state);
            }
            ToGm::Resync { have } => catch_up(n, have, &e, &state),
            ToGm::Ask { n: asked, who, req } => {
                // Dice the player's phone could not know to roll (what they hang on is hidden
                // from it) are rolled here, once: the answer replays the same.
                let req = match req {
                    Request::Act(intent, dice) => {
                        let full = with_dice(|src| {
                            dice_for(&state, who, &intent, &dice, src, (&e).into())
                        })
                        .unwrap_or(dice);
                        Request::Act(intent, full)
                    }
                    raw => raw,
                };
                // Each request is answered once: its number must be new from this phone.
                let peer = local_peers(|ps| {
                    ps.iter_mut()
                        .find(|p| p.seat == n && p.open)
                        .map(|p| (p.token.clone(), p.chars.clone(), fresh(&mut p.asked, asked)))
                });
                let waiting = self
                    .asks
                    .with_untracked(|l| l.iter().filter(|a| a.seat == n).count());
                let checked = match &peer {
                    None => Err("the phone has not greeted the table".into()),
                    Some((.., Err(why))) => Err(why.clone()),
                    Some(_) if waiting >= MAX_WAITING => {
                        Err(format!("{MAX_WAITING} requests already wait for the GM"))
                    }
                    Some((_, chars, _)) => check_request(&state, chars, who, &req, (&e).into()),
                };
                let facts = proposed(&req);
                match checked {
                    Ok((_, lines)) => self.asks.update(|l| {
                        l.push(Ask {
                            seat: n,
                            token: peer.map(|p| p.0).unwrap_or_default(),
                            n: asked,
                            who,
                            req,
                            text: lines.join(" "),
                            said: None,
                            facts,
                        })
                    }),
                    Err(why) => self.refuse(n, asked, why),
                }
            }
        }
    }

    /// GM: sets fact `k` of waiting request `i` (what the GM decides of what it proposes).
    pub fn set_fact(self, i: usize, k: usize, v: i32) {
        self.asks.update(|l| {
            if let Some(x) = l.get_mut(i).and_then(|a| a.facts.get_mut(k)) {
                *x = v;
            }
        });
    }

    /// GM: says no to request `asked` of seat `n`, with a line at the table.
    fn refuse(self, n: u32, asked: u32, why: String) {
        self.line(format!("Player {}: a request was refused: {why}.", n + 1));
        send(
            n,
            &ToPlayer::Answer {
                n: asked,
                taken: false,
                why,
            },
        );
    }

    /// GM: answers the waiting request `i`: taken into the fight `ctx` (checked again against
    /// the fight as it is now, then one undoable step like any other) or refused.
    pub fn answer(self, ctx: EncCtx, i: usize, take: bool) {
        let Some(a) = self
            .asks
            .try_update(|l| (i < l.len()).then(|| l.remove(i)))
            .flatten()
        else {
            return;
        };
        // The phone that asked, still on its seat (else nobody waits for this answer).
        let Some(chars) = local_peers(|ps| {
            ps.iter()
                .find(|p| p.token == a.token && p.seat == a.seat)
                .map(|p| p.chars.clone())
        }) else {
            return;
        };
        let Some(e) = self.served().filter(|e| e.id == ctx.id.get_value()) else {
            return;
        };
        // Resolved again over the fight as it is now, with the same dice (fitted to the facts
        // as the GM set them, where they changed).
        let checked = if take {
            ctx.state.with_untracked(|s| {
                let req = with_dice(|src| decided(s, a.who, &a.req, &a.facts, src))
                    .unwrap_or_else(|_| a.req.clone());
                check_request(s, &chars, a.who, &req, (&e).into())
            })
        } else {
            Err("the GM said no".to_owned())
        };
        match checked {
            Ok((event, _)) => {
                ctx.act(event);
                send(
                    a.seat,
                    &ToPlayer::Answer {
                        n: a.n,
                        taken: true,
                        why: String::new(),
                    },
                );
            }
            Err(why) => self.refuse(a.seat, a.n, why),
        }
    }

    /// GM: the fight this phone serves, as stored now.
    fn served(self) -> Option<Encounter> {
        self.fight
            .get_untracked()
            .and_then(|f| self.encounters.get(&f))
    }

    /// GM: the fight changed; each open player gets what changed in their view.
    fn push(self) {
        let Some(e) = self.served() else {
            return;
        };
        if !local_peers(|ps| ps.iter().any(|p| p.open)) {
            return;
        }
        let state = e.state();
        local_peers(|ps| {
            for p in ps.iter_mut().filter(|p| p.open) {
                if let Some(m) =
                    p.lead
                        .update(view_for(&e.id, &e.name, &state, &p.chars, (&e).into()))
                {
                    send(p.seat, &m);
                }
            }
        });
    }

    /// Player: answers the GM's invitation `code` with this phone's code.
    fn join(self, code: Code) {
        if !rtc::supported() {
            self.set_phase(PLAYER, Phase::Lost(
                "This browser cannot make direct connections (no WebRTC). Follow the fight on another phone.".into(),
            ));
            return;
        }
        local(|l| l.code = Some(code.clone()));
        self.set_phase(PLAYER, Phase::Making);
        let attempt = next_attempt(PLAYER);
        spawn_local(async move {
            let offer = expand(&code.sdp).ok_or_else(|| "the GM’s code is damaged".to_owned());
            let made = match offer {
                Ok(offer) => make_code(PLAYER, Some(offer), code).await,
                Err(e) => Err(e),
            };
            let phase = match made {
                Ok((link, qr)) => Phase::Showing(link, qr),
                Err(e) => Phase::Lost(format!(
                    "No answer could be made: {e}. Scan the GM’s code again."
                )),
            };
            if attempt_now(PLAYER) == attempt && self.phase(PLAYER) == Some(Phase::Making) {
                self.set_phase(PLAYER, phase);
            }
        });
    }

    fn player_event(self, kind: &str, text: &str) {
        match kind {
            "open" => {
                self.set_phase(PLAYER, Phase::Open(String::new()));
                let Some(code) = local(|l| l.code.clone()) else {
                    return;
                };
                let held = self.held.get_untracked();
                let token = if held.token.is_empty() {
                    let token = new_token();
                    self.held.update(|h| h.token = token.clone());
                    self.save();
                    token
                } else {
                    held.token
                };
                let same = held.view.as_ref().is_some_and(|v| v.fight == code.fight);
                let hello = ToGm::Hello {
                    v: VERSION,
                    token,
                    fight: code.fight,
                    have: if same { held.seq } else { 0 },
                    chars: self
                        .roster
                        .chars
                        .with_untracked(|cs| cs.iter().map(|c| c.id.clone()).collect()),
                };
                let hello = serde_json::to_string(&hello).unwrap_or_default();
                rtc::send(PLAYER, &hello);
                // Nothing came back (a greeting lost in a race): greet again; the GM's phone
                // takes a greeting twice as once.
                let seq = self.held.with_untracked(|h| h.seq);
                set_timeout(
                    move || {
                        let waiting = self.held.with_untracked(|h| h.seq == seq);
                        if waiting && matches!(self.phase(PLAYER), Some(Phase::Open(_))) {
                            rtc::send(PLAYER, &hello);
                        }
                    },
                    std::time::Duration::from_millis(3000),
                );
            }
            "message" => {
                let Ok(m) = read_to_player(text) else {
                    return;
                };
                if let ToPlayer::Answer { n, taken, why } = &m {
                    let said = if *taken {
                        "Accepted: it is in the fight.".to_owned()
                    } else {
                        format!("Refused: {why}.")
                    };
                    // The first answer stands (a repeat's refusal does not undo an acceptance).
                    self.asks.update(|l| {
                        if let Some(a) = l.iter_mut().find(|a| a.n == *n && a.said.is_none()) {
                            a.said = Some(said);
                        }
                    });
                    return;
                }
                if let ToPlayer::Refused { why } = &m {
                    self.set_phase(
                        PLAYER,
                        Phase::Lost(format!("The GM’s phone refused this phone: {why}")),
                    );
                    return;
                }
                let got = self.held.try_update(|h| h.receive(m));
                match got {
                    Some(Got::Gap { have }) => {
                        rtc::send(
                            PLAYER,
                            &serde_json::to_string(&ToGm::Resync { have }).unwrap_or_default(),
                        );
                    }
                    Some(Got::Shown) => {
                        self.follow_sheets();
                        self.save();
                    }
                    _ => {}
                }
            }
            _ => {
                if matches!(
                    self.phase(PLAYER),
                    Some(Phase::Open(_) | Phase::Showing(..))
                ) {
                    self.set_phase(PLAYER, Phase::Lost(DISCONNECTED.into()));
                }
            }
        }
    }

    /// Player: this phone's saved characters take what the GM's fight changed of them, through
    /// their sheets' own edits (`storage::agree::follow`); the player can undo it here.
    fn follow_sheets(self) {
        let Some(view) = self.held.with_untracked(|h| h.view.clone()) else {
            return;
        };
        if view.head.ended {
            return;
        }
        let now = crate::ui::state::now_ms();
        for (c, keys) in view.own.iter().zip(&view.shared) {
            let Some(ch) = c.link.as_deref().and_then(|id| self.roster.get(id)) else {
                continue;
            };
            if ch.sheet.system().id != view.system {
                continue;
            }
            let rec = self
                .held
                .with_untracked(|h| h.agreed.iter().find(|a| a.who == c.id).cloned());
            let (changed, taken, rec) = agree::follow(&ch, c.id, keys, rec.as_ref(), now);
            self.held.update(|h| {
                h.agreed.retain(|a| a.who != rec.who);
                h.agreed.push(rec);
            });
            if let Some(new) = changed {
                local(|l| l.undo.push((ch.clone(), new.updated)));
                self.roster.put(new);
                self.line(format!(
                    "Your sheet of {} took from the fight: {}.",
                    ch.name,
                    taken.join(", ")
                ));
            }
        }
    }

    /// Player: leaves this pairing (a code the GM no longer waits for) to scan a new one.
    fn start_over(self) {
        next_attempt(PLAYER);
        rtc::close(PLAYER);
        self.set_phase(PLAYER, Phase::Idle);
    }

    /// Player: puts back the sheets as they were before the fight last wrote to them.
    fn undo_follow(self) {
        // Saved now: newer than the agreement, so the fight writes it again only once it
        // changes the value again.
        let undo = local(|l| std::mem::take(&mut l.undo));
        let stamp = |id: &str| self.roster.get(id).map(|c| c.updated);
        for ch in agree::undo_follow(undo, stamp, crate::ui::state::now_ms()) {
            self.roster.put(ch);
        }
        self.lines.set(Vec::new());
    }

    fn save(self) {
        if let Err(e) = self.held.with_untracked(|h| h.save(&LocalStore)) {
            self.notices
                .failed(format!("The table view could not be kept: {e}."), &e);
        }
    }
}

const DISCONNECTED: &str = "Disconnected from the GM’s phone: what you see is the fight as it last was. Tap Rejoin, then scan the GM’s new code (New code on their phone): this phone catches up.";
const TOO_LONG: &str = "The phones could not reach each other within 15 seconds. Both must be on the same Wi-Fi (or one phone’s hotspot) with the app open; some guest networks keep phones apart. Tap New code to try again.";

/// One side's code: this phone's offer (`remote` none) or its answer to `remote`, in `code`.
async fn make_code(
    n: u32,
    remote: Option<String>,
    code: Code,
) -> Result<(String, Option<Qr>), String> {
    let sdp = match remote {
        None => rtc::offer(n).await,
        Some(offer) => rtc::answer(n, &offer).await,
    }
    .map_err(rtc::reason)?;
    let sdp = compact(&sdp.as_string().unwrap_or_default())
        .ok_or("this browser described its connection in a way the app cannot read")?;
    let code = Code {
        answer: n == PLAYER,
        sdp,
        ..code
    };
    let link = link_of(&code.json()).await?;
    let qr = qr::encode(&link);
    Ok((link, qr))
}

/// What the table keeps outside the reactive graph: the GM's peers and the player's invitation.
#[derive(Default)]
struct Local {
    peers: Vec<Peer>,
    code: Option<Code>,
    /// Player: the sheets as they were before the fight wrote to them, and when it wrote
    /// them (for Undo).
    undo: Vec<(crate::storage::character::Character, u64)>,
    /// Per seat, how many pairings were started: a late answer, result or timer of an earlier
    /// one changes nothing.
    attempts: Vec<(u32, u32)>,
    /// The table, for the player's panels (whose `act` is a plain function).
    table: Option<Table>,
    /// Player: the number of the last request sent.
    asked: u32,
    /// The table and the app's owner until the module is in and started.
    waiting: Option<(Table, Owner)>,
}

thread_local! {
    static LOCAL: std::cell::RefCell<Local> = std::cell::RefCell::new(Local::default());
}

fn local<R>(f: impl FnOnce(&mut Local) -> R) -> R {
    LOCAL.with(|l| f(&mut l.borrow_mut()))
}

fn attempt_now(n: u32) -> u32 {
    local(|l| l.attempts.iter().find(|a| a.0 == n).map_or(0, |a| a.1))
}

fn next_attempt(n: u32) -> u32 {
    local(|l| match l.attempts.iter_mut().find(|a| a.0 == n) {
        Some(a) => {
            a.1 += 1;
            a.1
        }
        None => {
            l.attempts.push((n, 1));
            1
        }
    })
}

fn local_peers<R>(f: impl FnOnce(&mut Vec<Peer>) -> R) -> R {
    local(|l| f(&mut l.peers))
}

/// The names of the fight's combatants linked to `chars`, or what it means when none are.
fn names(state: &State, chars: &[String]) -> String {
    let names: Vec<&str> = state
        .combatants
        .iter()
        .filter(|c| c.link.as_ref().is_some_and(|l| chars.contains(l)))
        .map(|c| c.name.as_str())
        .collect();
    if names.is_empty() {
        "watching (none of their characters is in this fight)".into()
    } else {
        names.join(", ")
    }
}

/// GM: what the phone on seat `n`, holding step `have`, needs of fight `e` (replayed: `state`).
fn catch_up(n: u32, have: u64, e: &Encounter, state: &State) {
    local_peers(|ps| {
        if let Some(p) = ps.iter_mut().find(|p| p.seat == n && p.open) {
            for m in p
                .lead
                .catch_up(have, view_for(&e.id, &e.name, state, &p.chars, e.into()))
            {
                send(n, &m);
            }
        }
    });
}

/// Player: the system's own panel on this phone acted for combatant `ctx.selected`: the request
/// goes to the GM's phone, shown here until the GM answers.
fn ask(ctx: EncCtx, req: Request) {
    let (Some(t), Some(who)) = (local(|l| l.table), ctx.selected.get_untracked()) else {
        return;
    };
    // Numbered from the clock, so an answer to a request made before a reload matches none,
    // and the numbers keep growing across reloads (the GM's phone refuses one it has seen).
    let n = local(|l| {
        l.asked = l
            .asked
            .max((crate::ui::state::now_ms() / 1000 % 1_000_000_000) as u32)
            + 1;
        l.asked
    });
    // What it would do, as this phone knows the fight (the GM's phone works it out again).
    let text = ctx
        .state
        .with_untracked(|s| request_preview(s, who, &req))
        .unwrap_or_default()
        .join(" ");
    let m = ToGm::Ask {
        n,
        who,
        req: req.clone(),
    };
    let sent = matches!(t.phase(PLAYER), Some(Phase::Open(_)))
        && rtc::send(PLAYER, &serde_json::to_string(&m).unwrap_or_default());
    let said = (!sent).then(|| "Not sent: this phone is not connected to the GM’s.".to_owned());
    t.asks.update(|l| {
        l.push(Ask {
            seat: PLAYER,
            token: String::new(),
            n,
            who,
            req,
            text,
            said,
            facts: Vec::new(),
        });
        let over = l.len().saturating_sub(20);
        l.drain(..over);
    });
}

fn send(n: u32, m: &ToPlayer) {
    if let Ok(text) = serde_json::to_string(m) {
        rtc::send(n, &text);
    }
}

/// A random token naming this phone at the table (16 hex digits).
fn new_token() -> String {
    let mut b = [0u8; 8];
    let _ = getrandom::fill(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}
