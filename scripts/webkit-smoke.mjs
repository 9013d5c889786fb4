#!/usr/bin/env node
// A smoke run of the release build in WebKit (Safari's engine): Debian's WebKitGTK MiniBrowser,
// driven over plain W3C WebDriver (HTTP + JSON, fetch() only) by WebKitWebDriver under Xvfb.
// Playwright's own WebKit cannot be downloaded on these machines (see shared/TOOLCHAIN.md).
//
// It serves DIR compressed (scripts/serve.mjs) on a free port, starts Xvfb on a free display
// and WebKitWebDriver on a free port, then: opens the app and waits for the bottom navigation;
// rolls 2d6 on /roller and checks a total appears; creates a character on / (New character →
// name → Heimr); in Play taps the Brawl row, rolls in the roll sheet (a modal <dialog>) and
// closes it; in Edit taps “Increase Stamina” and checks base fatigue follows; renames the
// character, reloads and checks the new name is still listed; runs a fight over a reload; opens
// the share dialog (a link and its QR code) and imports a link opened here after its question;
// saves a screenshot to test-results/webkit-smoke.png. Whatever happens it deletes the session
// and stops every process it started; it exits non-zero with a clear message on any failure
// and gives up after TOTAL_TIMEOUT_MS.
//
// Usage: node scripts/webkit-smoke.mjs [DIR]   (default dist; needs webkit2gtk-driver and xvfb,
// installed by scripts/setup.sh)

const TOTAL_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 30_000;

import { spawn } from "node:child_process";
import { serverOrigin } from "./server-origin.mjs";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIR = process.argv[2] || "dist";
const DRIVER = ["/usr/bin/WebKitWebDriver", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/WebKitWebDriver"].find(existsSync);
const MINIBROWSER = ["/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.0/MiniBrowser"].find(existsSync);
const XVFB = "/usr/bin/Xvfb";
const SCREENSHOT = join(ROOT, "test-results", "webkit-smoke.png");
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf"; // the W3C web element identifier

const started = []; // child processes to stop, newest last
let driverUrl = null;
let session = null;
const log = (m) => console.log(`webkit-smoke: ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts a process in its own process group (so its children can be stopped with it). */
function start(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { detached: true, stdio: ["ignore", "ignore", "pipe"], ...opts });
  child.stderrText = "";
  child.stderr?.on("data", (d) => (child.stderrText = (child.stderrText + d).slice(-4000)));
  started.push(child);
  return child;
}

function stopAll() {
  for (const child of started.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      try { child.kill("SIGTERM"); } catch {}
    }
  }
}

async function killHard() {
  await sleep(500);
  for (const child of started) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try { process.kill(-child.pid, "SIGKILL"); } catch {}
  }
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

async function waitFor(what, fn, timeoutMs, intervalMs = 200) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${last.message})` : ""}`);
}

/** The static server (compressed) on a free port; resolves with its origin. */
function startServer() {
  return serverOrigin(start(process.execPath, [join(ROOT, "scripts/serve.mjs"), DIR, "0"], { stdio: ["ignore", "pipe", "pipe"] }));
}

/** Xvfb on a display it picks itself (-displayfd); resolves with ":N". */
function startXvfb() {
  return new Promise((res, rej) => {
    const child = start(XVFB, ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    });
    const timer = setTimeout(() => rej(new Error(`Xvfb did not start within 10 s: ${child.stderrText}`)), 10_000);
    let out = "";
    child.stdio[3].on("data", (d) => {
      out += d;
      const m = out.match(/^(\d+)\s/);
      if (m) {
        clearTimeout(timer);
        res(`:${m[1]}`);
      }
    });
    child.on("exit", (code) => rej(new Error(`Xvfb exited (${code}): ${child.stderrText}`)));
  });
}

/** One WebDriver command; throws with the driver's message on an error answer. */
async function wd(method, path, body) {
  const res = await fetch(driverUrl + path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json; charset=utf-8" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok || json?.value?.error) {
    const v = json?.value ?? {};
    throw new Error(`${method} ${path}: ${v.error ?? res.status} ${v.message ?? ""}`.trim());
  }
  return json.value;
}
const s = (path) => `/session/${session}${path}`;
const run = (script, ...args) => wd("POST", s("/execute/sync"), { script, args });
const go = (url) => wd("POST", s("/url"), { url });
const click = (el) => wd("POST", s(`/element/${el[ELEMENT]}/click`), {});
/**
 * Finds an element and clicks it, finding it again if the click fails: the app may re-render it
 * between the two (WebKitWebDriver then answered "unknown error", once, on "New character").
 */
async function press(what, script, ...args) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await click(await element(what, script, ...args));
    } catch (e) {
      if (attempt === 3 || !/unknown error|stale/.test(e.message)) throw e;
      log(`retrying the click on ${what}: ${e.message}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}
/** Scrolls an element to the middle of the screen first (clear of the sticky bar and the nav). */
const tapCentered = async (el) => {
  await run('arguments[0].scrollIntoView({ block: "center" });', el);
  return click(el);
};
const type = (el, text) => wd("POST", s(`/element/${el[ELEMENT]}/value`), { text });
const clear = (el) => wd("POST", s(`/element/${el[ELEMENT]}/clear`), {});

/** Waits for an element found by a script returning it (or null). */
const element = (what, script, ...args) =>
  waitFor(what, async () => {
    const v = await run(script, ...args);
    return v && v[ELEMENT] ? v : null;
  }, 20_000);

const BUTTON_BY_TEXT = `
  const [text, prefix] = arguments;
  return [...document.querySelectorAll("button")].find((b) => {
    const name = (b.getAttribute("aria-label") || b.textContent).replace(/\\s+/g, " ").trim();
    return (prefix ? name.startsWith(text) : name === text) && !b.disabled;
  }) || null;`;
const INPUT_BY_LABEL = `
  const [text] = arguments;
  const label = [...document.querySelectorAll("label")].find((l) => l.textContent.trim() === text);
  return (label && label.control) || document.querySelector('[aria-label="' + text + '"]') || null;`;

async function appReady() {
  await waitFor("the app to mount (nav[aria-label=\"Main\"])", () => run('return !!document.querySelector(\'nav[aria-label="Main"]\');'), 30_000);
}

async function screenshot() {
  const png = await wd("GET", s("/screenshot"));
  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  writeFileSync(SCREENSHOT, Buffer.from(png, "base64"));
  log(`screenshot: ${SCREENSHOT}`);
}

async function main() {
  if (!existsSync(join(DIR, "index.html"))) throw new Error(`${DIR}/index.html not found: build first (trunk build --release)`);
  if (!DRIVER || !MINIBROWSER || !existsSync(XVFB)) {
    throw new Error("WebKitWebDriver, MiniBrowser or Xvfb is missing: run scripts/setup.sh (apt: webkit2gtk-driver xvfb)");
  }
  const origin = await startServer();
  const display = await startXvfb();
  const port = await freePort();
  driverUrl = `http://127.0.0.1:${port}`;
  start(DRIVER, [`--port=${port}`, "--host=127.0.0.1"], { env: { ...process.env, DISPLAY: display } });
  await waitFor("WebKitWebDriver to answer", async () => (await wd("GET", "/status")).ready !== undefined, 15_000);
  log(`serving ${DIR} at ${origin}, Xvfb ${display}, WebKitWebDriver on ${port}`);

  const created = await wd("POST", "/session", {
    capabilities: {
      alwaysMatch: {
        browserName: "MiniBrowser",
        "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
      },
    },
  });
  session = created.sessionId;
  log(`session ${session} (${created.capabilities?.browserName} ${created.capabilities?.browserVersion ?? ""})`);
  await wd("POST", s("/timeouts"), { script: 20_000, pageLoad: 30_000, implicit: 0 });
  await wd("POST", s("/window/rect"), { width: 390, height: 844 }).catch(() => {}); // a phone's size, when allowed

  // 1. The app mounts.
  await go(origin + "/");
  await appReady();
  log("app mounted on /");

  // 2. The roller rolls.
  await go(origin + "/roller");
  await appReady();
  const expr = await element("the roller's expression input (label “Roll”)", INPUT_BY_LABEL, "Roll");
  await clear(expr);
  await type(expr, "2d6");
  await press("the “Roll 2d6” button", BUTTON_BY_TEXT, "Roll 2d6", true);
  const total = await waitFor(
    "a roll total",
    async () => {
      const t = await run('const el = document.querySelector(\'[data-testid="total"]\'); return el ? el.textContent.trim() : null;');
      return t && /^\d+$/.test(t) ? Number(t) : null;
    },
    15_000,
  );
  if (total < 2 || total > 12) throw new Error(`2d6 gave ${total}`);
  log(`rolled 2d6 = ${total}`);

  // 3. A character is created, renamed, and kept across a reload.
  await go(origin + "/");
  await appReady();
  await press("the “New character” button", BUTTON_BY_TEXT, "New character");
  await type(await element("the new character's name input (label “Name”)", INPUT_BY_LABEL, "Name"), "Smoke Test");
  await press("the “Heimr” system button", BUTTON_BY_TEXT, "Heimr");
  await waitFor("the character's sheet (/c/…)", async () => /\/c\/[0-9a-f]+$/.test(await wd("GET", s("/url"))), 15_000);
  const nameInput = await element("the sheet's name input (“Character name”)", INPUT_BY_LABEL, "Character name");
  await waitFor("the sheet to show the name", async () => (await run("return arguments[0].value;", nameInput)) === "Smoke Test", 10_000);
  // 3a. Play mode: a roll row opens the roll sheet (a modal <dialog>), which rolls and closes;
  // Edit mode: a stepper changes a value and the derived figures follow.
  await press("the “Roll Brawl” row", 'return document.querySelector(\'[data-row="Brawl"] button\');');
  await waitFor("the roll sheet dialog to open", () => run('const d = document.querySelector("dialog.roll-sheet"); return !!d && d.open;'), 10_000);
  await press("the dialog's “Roll Brawl” button", 'return document.querySelector("dialog.roll-sheet .roll-btn");');
  await waitFor("a challenge total in the dialog", () => run('const t = document.querySelector(\'dialog [data-testid="challenge-total"]\'); return !!t && /^-?\\d+$/.test(t.textContent.trim());'), 10_000);
  await press("the dialog's Close button", BUTTON_BY_TEXT, "Close");
  await waitFor("the roll sheet to close", () => run('return !document.querySelector("dialog.roll-sheet");'), 10_000);
  log("roll sheet opened, rolled and closed");
  await press("the Edit tab", 'return [...document.querySelectorAll(\'[role="tab"]\')].find((t) => t.textContent.trim() === "Edit") || null;');
  await press("“Increase Stamina”", 'return document.querySelector(\'[aria-label="Increase Stamina"]\');');
  await waitFor("base fatigue 3 after Stamina 1", () => run('const b = document.querySelector(\'[data-testid="base-fatigue"]\'); return !!b && b.textContent.trim() === "3";'), 10_000);
  log("Edit mode: Stamina +1 gives base fatigue 3");
  await clear(nameInput);
  await type(nameInput, "Smoke Renamed\uE007"); // Enter commits, like the blur below
  await run("arguments[0].blur();", nameInput);
  await sleep(1_000); // edits are written shortly after (debounced), and at once when the page hides
  await go(origin + "/");
  await appReady();
  await wd("POST", s("/refresh"), {});
  await appReady();
  await waitFor(
    "“Smoke Renamed” in the roster after a reload",
    () => run('return document.body.innerText.includes("Smoke Renamed") && !document.body.innerText.includes("Smoke Test");'),
    15_000,
  );
  log("character created, renamed and still listed after a reload");

  // 4. A fight: an encounter with two quick NPCs, started, a turn passed, and kept across a
  // reload (the event log is replayed).
  await go(origin + "/combat");
  await appReady();
  await type(await element("the encounter name input (label “Name”)", INPUT_BY_LABEL, "Name"), "Smoke fight");
  await tapCentered(await element("“Create encounter”", BUTTON_BY_TEXT, "Create encounter"));
  await waitFor("the fight page (/combat/…)", async () => /\/combat\/[0-9a-f]+$/.test(await wd("GET", s("/url"))), 15_000);
  await tapCentered(await element("“Increase How many”", 'return document.querySelector(\'[aria-label="Increase How many"]\');'));
  await tapCentered(await element("“Add Goblin ×2”", BUTTON_BY_TEXT, "Add Goblin ×2"));
  const rows = () => run('return document.querySelectorAll("li.fighter").length;');
  await waitFor("two combatants in the order", async () => (await rows()) === 2, 10_000);
  await tapCentered(await element("“Start fight”", BUTTON_BY_TEXT, "Start fight"));
  const status = () => run('const t = document.querySelector(\'[data-testid="turn-status"]\'); return t ? t.textContent.trim() : "";');
  const first = await waitFor("round 1 to begin", async () => ((await status()).startsWith("Round 1 · ") ? status() : null), 10_000);
  await tapCentered(await element("“Next turn”", BUTTON_BY_TEXT, "Next turn"));
  const second = await waitFor("the second turn", async () => { const t = await status(); return t !== first ? t : null; }, 10_000);
  await wd("POST", s("/refresh"), {});
  await appReady();
  await waitFor(`“${second}” after a reload`, async () => (await status()) === second, 15_000);
  log(`fight: “${first}” → “${second}”, the same after a reload`);

  // 5. Share by link, as an iPhone receives it: the share dialog makes a link and its QR code
  // (the browser's CompressionStream), and a link opened here is unpacked (DecompressionStream)
  // and asks before importing.
  await go(origin + "/");
  await appReady();
  await tapCentered(await element("the character's “Share” button", 'return [...document.querySelectorAll("li.roster-entry button")].find((b) => b.textContent.trim() === "Share") || null;'));
  const made = await waitFor(
    "the share dialog's link and QR code",
    () => run('const t = document.querySelector(\'[data-testid="share-status"]\'); return t && /QR version/.test(t.textContent) && document.querySelector(\'[data-testid="qr"] path\') ? t.textContent.trim() : null;'),
    15_000,
  );
  await press("the share dialog's Close button", BUTTON_BY_TEXT, "Close");
  await waitFor("the share dialog to close", () => run('return !document.querySelector("dialog.roll-sheet");'), 10_000);
  const hash = await wd("POST", s("/execute/async"), {
    script: `const done = arguments[arguments.length - 1];
      const key = Object.keys(localStorage).find((k) => k.startsWith("rollsheet.char."));
      const doc = { ...JSON.parse(localStorage.getItem(key)), id: "webkit1", name: "Linked Smoke" };
      const packed = new Blob([JSON.stringify(doc)]).stream().pipeThrough(new CompressionStream("deflate"));
      new Response(packed).arrayBuffer().then((b) => {
        const b64 = btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
        done("#share=1." + b64);
      }, (e) => done("failed: " + e));`,
    args: [],
  });
  if (!hash.startsWith("#share=1.")) throw new Error(`could not make a link in WebKit: ${hash}`);
  await go(origin + "/" + hash);
  await waitFor("the question before a linked import", () => run('const d = document.querySelector(\'[role="alertdialog"]\'); return !!d && d.textContent.includes("“Linked Smoke”");'), 15_000);
  await tapCentered(await element("the question's “Import” button", 'return [...document.querySelectorAll(\'[role="alertdialog"] button\')].find((b) => b.textContent.trim() === "Import") || null;'));
  await waitFor("“Linked Smoke” in the roster", () => run('return [...document.querySelectorAll("li.roster-entry")].some((li) => li.textContent.includes("Linked Smoke"));'), 10_000);
  log(`share: ${made}; a link opened here imported after the question`);

  // 6. The live table needs WebRTC: report whether this WebKit has it, and whether it gathers
  // its own addresses with no server (what a pairing code carries). Reported, not required:
  // WebKitGTK may be built without WebRTC; iPhones' WebKit has it.
  const rtc = await wd("POST", s("/execute/async"), {
    script: `const done = arguments[arguments.length - 1];
      if (typeof RTCPeerConnection !== "function") { done("no RTCPeerConnection in this WebKit build"); return; }
      try {
        const pc = new RTCPeerConnection({ iceServers: [] });
        pc.createDataChannel("table");
        const t = setTimeout(() => done("RTCPeerConnection present; gathering did not finish in 10 s"), 10000);
        pc.onicegatheringstatechange = () => {
          if (pc.iceGatheringState !== "complete") return;
          clearTimeout(t);
          const n = pc.localDescription.sdp.split("\\r\\n").filter((l) => l.startsWith("a=candidate:")).length;
          done("RTCPeerConnection present; an offer gathered " + n + " candidate(s)");
          pc.close();
        };
        pc.createOffer().then((o) => pc.setLocalDescription(o)).catch((e) => done("RTCPeerConnection present; offer failed: " + e));
      } catch (e) { done("RTCPeerConnection present but unusable: " + e); }`,
    args: [],
  });
  log(`live table: ${rtc}`);
  await screenshot();
}

const watchdog = setTimeout(async () => {
  console.error(`webkit-smoke: FAILED: gave up after ${TOTAL_TIMEOUT_MS / 1000} s`);
  stopAll();
  await killHard();
  process.exit(1);
}, TOTAL_TIMEOUT_MS);

try {
  await main();
  log("passed");
} catch (e) {
  process.exitCode = 1;
  console.error(`webkit-smoke: FAILED: ${e.message}`);
  if (session) await screenshot().catch(() => {});
  for (const c of started) if (c.stderrText && c.spawnargs[0] !== process.execPath) console.error(`--- ${c.spawnargs[0]} stderr (last lines):\n${c.stderrText.trim().split("\n").slice(-15).join("\n")}`);
} finally {
  if (session) {
    await wd("DELETE", s("")).catch((e) => console.error(`webkit-smoke: deleting the session: ${e.message}`));
    await sleep(1_000); // let the driver reap the browser it closed (else zombies are left)
  }
  stopAll();
  await killHard();
  clearTimeout(watchdog);
}
