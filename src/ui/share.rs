//! Share by link, phone to phone with nothing in between: the share dialog (QR code, copy, Web
//! Share, the file), links arriving (opened, pasted or scanned) and the camera scan. The link's
//! shape is `storage::link`; packing is the browser's own `CompressionStream`.

use crate::storage::link::{self, LinkError};
use crate::storage::table;
use crate::storage::transfer::{is_encounter, MAX_IMPORT_BYTES};
use crate::ui::files;
use crate::ui::kit::{flag, tap, text, when, RollSheet};
use crate::ui::qr;
use crate::ui::router::Location;
use crate::ui::state::{now_ms, Notices, SettingsState};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r##"
export async function pack(text) {
  const s = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(s).arrayBuffer());
}
export async function unpack(bytes, cap) {
  const r = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await r.read();
    if (done) break;
    n += value.length;
    if (n > cap) { r.cancel(); return null; }
    parts.push(value);
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}
export function canScan() {
  return "BarcodeDetector" in globalThis && !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
}
let camera = null;
let generation = 0;
export async function scan(video) {
  const detector = new BarcodeDetector({ formats: ["qr_code"] });
  stopScan();
  const mine = ++generation;
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  // Stopped (or started again) while the permission prompt was up: this camera never shows.
  if (mine !== generation) { stream.getTracks().forEach((t) => t.stop()); return null; }
  camera = stream;
  try {
    video.srcObject = stream;
    await video.play();
    while (mine === generation) {
      const codes = await detector.detect(video).catch(() => []);
      const hit = codes.find((c) => c.rawValue.includes("#share="));
      if (hit) return hit.rawValue;
      await new Promise((r) => setTimeout(r, 150));
    }
    return null;
  } finally {
    stream.getTracks().forEach((t) => t.stop());
    if (camera === stream) camera = null;
  }
}
export function stopScan() {
  generation++;
  if (camera) camera.getTracks().forEach((t) => t.stop());
  camera = null;
}
"##)]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn pack(text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn unpack(bytes: &[u8], cap: f64) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = canScan)]
    fn can_scan() -> bool;
    #[wasm_bindgen(catch)]
    async fn scan(video: &web_sys::HtmlVideoElement) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = stopScan)]
    fn stop_scan();
}

/// The share link of an exported document (a character, a backup, an encounter).
pub async fn link_of(json: &str) -> Result<String, String> {
    let packed = pack(json).await.map_err(|e| {
        e.dyn_ref::<js_sys::Error>().map_or_else(
            || "this browser cannot pack it".into(),
            |e| String::from(e.message()),
        )
    })?;
    let origin = window().location().origin().unwrap_or_default();
    Ok(link::make(
        &origin,
        &js_sys::Uint8Array::new(&packed).to_vec(),
    ))
}

/// The exported JSON a link carries, checked as far as a link goes (the import checks the rest).
pub async fn open_link(text: &str) -> Result<String, LinkError> {
    let packed = link::payload(text)?;
    let unpacked = unpack(&packed, (MAX_IMPORT_BYTES + 1) as f64)
        .await
        .map_err(|_| LinkError::Damaged("it cannot be unpacked"))?;
    if unpacked.is_null() {
        return Err(LinkError::TooLarge);
    }
    link::text_of(js_sys::Uint8Array::new(&unpacked).to_vec())
}

/// What arrived by link, for which importer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Arrived {
    Characters,
    Encounter,
    /// A pairing code of the live table.
    Table,
}

/// Something to share: what it is called, its file name, its exported JSON, and whether it is
/// a backup of every character (sent as a file, it counts as the last backup).
#[derive(Clone, PartialEq)]
pub struct Offer {
    pub title: String,
    pub file: String,
    pub json: String,
    pub backup: bool,
}

/// What the dialog shows for an offer: the link and its code, or why there is none.
#[derive(Clone)]
enum Made {
    Packing,
    Ready(String, Option<qr::Qr>),
    Failed(String),
}

/// Sharing, as one context: the dialog's offer and what was made of it, a document that arrived
/// by link waiting for its importer (an encounter?, its JSON), and the camera's state.
/// The longest pasted text an import box shows (characters); a longer one is imported at once.
const PASTED_IN_BOX: usize = 20_000;

#[derive(Clone, Copy)]
pub struct Share {
    offer: RwSignal<Option<Offer>>,
    made: RwSignal<Made>,
    incoming: RwSignal<Option<(Arrived, String)>>,
    scanning: RwSignal<bool>,
    location: Location,
    notices: Notices,
    settings: SettingsState,
}

/// The slow steps (the browser's streams, the clipboard, the share sheet, the camera), all run
/// by one `async fn`: one future type for the app rather than one per button.
enum Job {
    Make(Offer),
    Open(String),
    Copy(String),
    Send(String, String),
    SendFile(String, String),
    Scan(web_sys::HtmlVideoElement),
}

impl Share {
    /// Opens the share dialog for an exported document.
    pub fn offer(&self, title: &str, file: String, json: String, backup: bool) {
        let offer = Offer {
            title: title.to_owned(),
            file,
            json,
            backup,
        };
        self.made.set(Made::Packing);
        self.offer.set(Some(offer.clone()));
        self.run(Job::Make(offer));
    }

    /// Opens a link (from the address bar, a paste or the camera) and hands its document to the
    /// importer of its kind, on that importer's page. Nothing is stored until the player
    /// confirms there.
    pub fn receive(&self, text: String) {
        self.run(Job::Open(text));
    }

    /// Whether a document of `kind` has arrived and waits to be taken.
    pub fn waiting(&self, kind: Arrived) -> bool {
        self.incoming
            .with(|i| matches!(i, Some((k, _)) if *k == kind))
    }

    /// The arrived document for the importer of `kind`.
    pub fn take(&self, kind: Arrived) -> Option<String> {
        if !self.waiting(kind) {
            return None;
        }
        self.incoming
            .try_update(Option::take)
            .flatten()
            .map(|(_, t)| t)
    }

    /// Connects an importer (of encounters, or of characters) to links: a document arriving by
    /// link for it goes to `check(json, true)` and its question is brought on screen. The
    /// function returned takes pasted text: a link is opened as any link is, anything else
    /// checked as a file's text (`check(text, false)`).
    pub fn importer(
        self,
        encounter: bool,
        check: impl Fn(String, bool) + Copy + Send + Sync + 'static,
    ) -> impl Fn(String) + Copy + Send + Sync + 'static {
        let kind = if encounter {
            Arrived::Encounter
        } else {
            Arrived::Characters
        };
        Effect::new(move || {
            if let Some(json) = self.take(kind) {
                check(json, true);
                show_question();
            }
        });
        move |input: String| {
            if link::is_link(&input) {
                self.receive(input);
            } else {
                check(input, false);
            }
        }
    }

    /// A paste into an import box (`import`: what the box's Import button does): a long text
    /// is not put in the box, where laying out a megabyte takes seconds on a phone, but
    /// imported at once, its size limit checked first. A short one lands in the box as usual.
    pub fn paste(
        import: impl Fn(String) + Copy + 'static,
    ) -> impl Fn(web_sys::ClipboardEvent) + Copy + 'static {
        move |ev| {
            let text = ev.clipboard_data().and_then(|d| d.get_data("text").ok());
            if let Some(text) = text.filter(|t| t.len() > PASTED_IN_BOX) {
                ev.prevent_default();
                import(text);
            }
        }
    }

    /// The offer went out as a file: a backup of all counts as the last backup.
    fn sent_file(self) {
        if self
            .offer
            .with_untracked(|o| o.as_ref().is_some_and(|o| o.backup))
        {
            self.settings.record_backup(now_ms());
        }
        self.offer.set(None);
    }

    fn run(self, job: Job) {
        leptos::task::spawn_local(self.work(job));
    }

    async fn work(self, job: Job) {
        let notices = self.notices;
        match job {
            Job::Make(offer) => {
                let made = match link_of(&offer.json).await {
                    Ok(l) => {
                        let code = qr::encode(&l);
                        Made::Ready(l, code)
                    }
                    Err(e) => Made::Failed(format!("The link could not be made: {e}")),
                };
                // Still the same offer (not closed or replaced meanwhile).
                if self.offer.with_untracked(|o| o.as_ref() == Some(&offer)) {
                    self.made.set(made);
                }
            }
            Job::Open(text) => match open_link(&text).await {
                Ok(json) => {
                    // A pairing code waits for the table (a GM scanning a player's answer stays
                    // on the fight; a player opening an offer goes to the table page).
                    let (kind, page) = if table::is_code(&json) {
                        let answer = table::Code::read(&json).is_ok_and(|c| c.answer);
                        (Arrived::Table, (!answer).then_some("/table"))
                    } else if is_encounter(&json) {
                        (Arrived::Encounter, Some("/combat"))
                    } else {
                        (Arrived::Characters, Some("/"))
                    };
                    self.incoming.set(Some((kind, json)));
                    match page {
                        Some(p) => self.location.replace(p),
                        None => clear_fragment(),
                    }
                }
                Err(e) => {
                    clear_fragment();
                    notices.error(e.to_string());
                }
            },
            Job::Copy(link) => {
                let nav = window().navigator();
                // No clipboard outside a secure context (plain http on a LAN).
                let here = js_sys::Reflect::get(&nav, &"clipboard".into())
                    .is_ok_and(|c| !c.is_undefined());
                let copied = if here {
                    wasm_bindgen_futures::JsFuture::from(nav.clipboard().write_text(&link)).await
                } else {
                    Err(JsValue::NULL)
                };
                match copied {
                    Ok(_) => {
                        self.offer.set(None);
                        notices.info("Link copied.");
                    }
                    Err(_) => notices
                        .error("Copying is not allowed here: share the link or the file instead."),
                }
            }
            // A cancelled share sheet keeps the dialog (and its code) open.
            Job::Send(title, link) => match files::share_link(&title, &link).await {
                Ok(true) => self.offer.set(None),
                Ok(false) => {}
                Err(e) => notices.error(format!("Sharing failed: {e}")),
            },
            Job::SendFile(name, json) => match files::share(&name, &json).await {
                Ok(true) => self.sent_file(),
                Ok(false) => {}
                Err(e) => notices.error(format!("Sharing failed: {e}")),
            },
            Job::Scan(video) => {
                let found = scan(&video).await;
                self.scanning.set(false);
                match found {
                    Ok(found) => {
                        if let Some(text) = found.as_string() {
                            self.receive(text);
                        }
                    }
                    Err(e) => {
                        let why = e
                            .dyn_ref::<js_sys::Error>()
                            .map(|e| String::from(e.message()))
                            .unwrap_or_default();
                        notices.error(format!("The camera could not be used: {why}"));
                    }
                }
            }
        }
    }
}

/// Provides the share context and opens a link the page was opened with, or later given in
/// the address bar.
pub fn provide(location: Location, notices: Notices, settings: SettingsState) {
    let share = Share {
        offer: RwSignal::new(None),
        made: RwSignal::new(Made::Packing),
        incoming: RwSignal::new(None),
        scanning: RwSignal::new(false),
        location,
        notices,
        settings,
    };
    provide_context(share);
    let arrive = move || {
        let hash = window().location().hash().unwrap_or_default();
        if link::is_link(&hash) {
            share.receive(hash);
        }
    };
    arrive();
    std::mem::forget(window_event_listener(leptos::ev::hashchange, move |_| {
        arrive()
    }));
}

/// Brings an importer's question about a link onto the screen, its first answer focused: a
/// link opens the roster or the Combat page at the top, with the question further down.
pub fn show_question() {
    request_animation_frame(|| {
        let doc = document();
        if let Ok(Some(q)) = doc.query_selector(".conflict[role=alertdialog]") {
            q.scroll_into_view_with_bool(false);
            if let Ok(Some(b)) = q.query_selector("button:not([hidden])") {
                if let Ok(b) = b.dyn_into::<web_sys::HtmlElement>() {
                    let _ = b.focus();
                }
            }
        }
    });
}

/// Takes the share link out of the address bar once its import is done or refused.
pub fn clear_fragment() {
    let loc = window().location();
    if loc.hash().is_ok_and(|h| link::is_link(&h)) {
        let path =
            loc.pathname().unwrap_or_else(|_| "/".into()) + &loc.search().unwrap_or_default();
        let _ = window()
            .history()
            .and_then(|h| h.replace_state_with_url(&JsValue::NULL, "", Some(&path)));
    }
}

/// The share dialog: the link as a QR code (dark modules on white, whatever the theme), its
/// length and the code's version; copy, Web Share, or the file when the link is too long. It
/// stays open while the code is scanned, and closes once the document is sent another way.
#[component]
pub fn ShareDialog() -> impl IntoView {
    let share = expect_context::<Share>();
    let made = share.made;
    let link = move || match made.get() {
        Made::Ready(l, _) => Some(l),
        _ => None,
    };
    let no_link = flag(move || link().is_none());
    let close = move || share.offer.set(None);
    let copy = move || {
        if let Some(l) = link() {
            share.run(Job::Copy(l));
        }
    };
    let send = move || {
        if let (Some(l), Some(o)) = (link(), share.offer.get_untracked()) {
            share.run(Job::Send(o.title, l));
        }
    };
    let download = move || {
        if let Some(o) = share.offer.get_untracked() {
            match files::download(&o.file, &o.json) {
                Ok(()) => share.sent_file(),
                Err(e) => share.notices.error(format!("Export failed: {e}")),
            }
        }
    };
    let can_share = files::can_share_links();
    let can_send_file = files::can_share_files();
    let send_file = move || {
        if let Some(o) = share.offer.get_untracked() {
            share.run(Job::SendFile(o.file, o.json));
        }
    };
    let status = text(move || {
        match made.get() {
        Made::Packing => "Making the link…".into(),
        Made::Ready(l, Some(code)) => format!(
            "Link: {} characters · QR version {} ({}×{} modules){}",
            l.len(),
            code.version,
            code.size,
            code.size,
            if code.version > 25 {
                ". A dense code: hold the phones close, or send the link or the file."
            } else {
                ""
            }
        ),
        Made::Ready(l, None) => format!(
            "The link is {} characters, too long for one QR code (2953 at most). Copy or share the link, or send the file.",
            l.len()
        ),
        Made::Failed(e) => e,
    }
    });
    let code = move || match made.get() {
        Made::Ready(_, Some(code)) => Some(qr_image(code)),
        _ => None,
    };
    let title = text(move || {
        share
            .offer
            .with(|o| o.as_ref().map(|o| format!("Share “{}”", o.title)))
            .unwrap_or_default()
    });
    view! {
        <Show when=when(flag(move || share.offer.with(Option::is_some)))>
            <RollSheet title on_close=Callback::new(move |()| close())>
                <div class="share">
                    {code}
                    <p class="muted" role="status" data-testid="share-status">{status}</p>
                    <div class="actions">
                        <button class="btn primary" disabled=no_link on:click=tap(copy)>"Copy link"</button>
                        <button class="btn" hidden=!can_share disabled=no_link on:click=tap(send)>"Share link"</button>
                        <button class="btn" on:click=tap(download)>"Download file"</button>
                        <button class="btn" hidden=!can_send_file on:click=tap(send_file)>"Share file"</button>
                    </div>
                </div>
            </RollSheet>
        </Show>
    }
}

/// A QR code drawn as SVG: dark modules on white, whatever the theme.
pub fn qr_image(code: qr::Qr) -> impl IntoView {
    let full = code.size + 2 * qr::QUIET;
    let view_box = format!("{q} {q} {full} {full}", q = -qr::QUIET);
    view! {
        <svg class="qr" viewBox=view_box role="img" aria-label="QR code of the link" shape-rendering="crispEdges" data-testid="qr">
            <rect x=-qr::QUIET y=-qr::QUIET width=full height=full fill="#fff"/>
            <path d=code.path fill="#000"/>
        </svg>
    }
}

/// "Scan a code": the camera and the browser's own QR reader where there are both; elsewhere,
/// how the phone's camera app does the same.
#[component]
pub fn ScanButton() -> impl IntoView {
    let share = expect_context::<Share>();
    let told = RwSignal::new(false);
    let video = NodeRef::<leptos::html::Video>::new();
    let start = move || {
        if !can_scan() {
            told.set(true);
        } else if let Some(v) = video.get_untracked() {
            share.scanning.set(true);
            share.run(Job::Scan(v));
        }
    };
    let stop = move || {
        stop_scan();
        share.scanning.set(false);
    };
    on_cleanup(stop_scan);
    view! {
        <button class="btn" hidden=flag(move || share.scanning.get()) on:click=tap(start)>"Scan a code"</button>
        <div class="scan" hidden=flag(move || !share.scanning.get())>
            <video node_ref=video muted=true playsinline=true aria-label="Camera"></video>
            <button class="btn" on:click=tap(stop)>"Stop scanning"</button>
        </div>
        <p class="muted" role="status" hidden=flag(move || !told.get())>
            "This browser cannot read codes itself. Point the phone’s camera app at the code instead: it opens the link, and Rollsheet asks before importing."
        </p>
    }
}
