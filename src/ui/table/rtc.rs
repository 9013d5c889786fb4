//! WebRTC, as thin as it goes: one peer connection and data channel per seat, kept on the JS
//! side; no ICE servers (the phones reach each other on the local network or not at all), and
//! non-trickle (a code carries every candidate, so one scan each way is enough). Everything a
//! channel says comes to one handler as `(seat, kind, text)`, kind "open", "message" or "close".

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r##"
const seats = new Map();
let handler = () => {};
export function listen(cb) { handler = cb; }
function gathered(pc) {
  return new Promise((ok, no) => {
    if (pc.iceGatheringState === "complete") return ok();
    const t = setTimeout(() => no(new Error("this phone took too long to find its own network addresses")), 10000);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") { clearTimeout(t); ok(); }
    });
  });
}
function wire(seat, pc, dc) {
  const s = { pc, dc: null };
  seats.set(seat, s);
  const mine = () => seats.get(seat) === s;
  const hook = (dc) => {
    s.dc = dc;
    dc.onopen = () => mine() && handler(seat, "open", "");
    dc.onmessage = (e) => mine() && handler(seat, "message", typeof e.data === "string" ? e.data : "");
    dc.onclose = () => mine() && handler(seat, "close", "closed");
  };
  if (dc) hook(dc); else pc.ondatachannel = (e) => hook(e.channel);
  pc.onconnectionstatechange = () => {
    const st = pc.connectionState;
    if (mine() && (st === "failed" || st === "disconnected" || st === "closed")) handler(seat, "close", st);
  };
}
export function supported() { return typeof RTCPeerConnection === "function"; }
export async function offer(seat) {
  close(seat);
  const pc = new RTCPeerConnection({ iceServers: [] });
  wire(seat, pc, pc.createDataChannel("table"));
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  return pc.localDescription.sdp;
}
export async function answer(seat, sdp) {
  close(seat);
  const pc = new RTCPeerConnection({ iceServers: [] });
  wire(seat, pc, null);
  await pc.setRemoteDescription({ type: "offer", sdp });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return pc.localDescription.sdp;
}
export async function accept(seat, sdp) {
  const s = seats.get(seat);
  if (!s) throw new Error("no invitation is waiting for this code");
  await s.pc.setRemoteDescription({ type: "answer", sdp });
}
export function send(seat, text) {
  const s = seats.get(seat);
  if (!s || !s.dc || s.dc.readyState !== "open") return false;
  try { s.dc.send(text); return true; } catch { return false; }
}
export function close(seat) {
  const s = seats.get(seat);
  if (!s) return;
  seats.delete(seat);
  try { s.pc.close(); } catch {}
}
"##)]
extern "C" {
    pub fn listen(cb: &Closure<dyn FnMut(u32, String, String)>);
    pub fn supported() -> bool;
    #[wasm_bindgen(catch)]
    pub async fn offer(seat: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    pub async fn answer(seat: u32, sdp: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    pub async fn accept(seat: u32, sdp: &str) -> Result<JsValue, JsValue>;
    pub fn send(seat: u32, text: &str) -> bool;
    pub fn close(seat: u32);
}

/// A JS error's message, for a sentence shown to the player.
pub fn reason(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| "the browser refused".into())
}
