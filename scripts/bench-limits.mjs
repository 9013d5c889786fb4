#!/usr/bin/env node
// How fast the app answers at its limits (a benchmark, not a timed test): each input that can
// hold much text or many entries, filled to its limit in headless Chromium at a 4× slower CPU,
// from the player's action to the app's answer, with the longest main-thread task in between.
// Median of 3 runs each. Serves the release build (dist/) compressed with scripts/serve.mjs.
//
// Usage: node scripts/bench-limits.mjs [DIR]   (default dist/; build it first: trunk build --release)
// Prints a Markdown table (the README's performance section quotes it).

import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { deflateSync } from "node:zlib";
import { serverOrigin } from "./server-origin.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.BENCH_RUNS || 3);
const CPU = Number(process.env.BENCH_CPU || 4);
const LINK_LIMIT = 2 * 1024 * 1024;
const dir = process.argv[2] || "dist";

const child = spawn(process.execPath, [join(ROOT, "scripts/serve.mjs"), dir, "0"], { stdio: ["ignore", "pipe", "inherit"] });
const origin = await serverOrigin(child);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });

/** Keeps the longest main-thread task since the page started (or since `__longest` was
 * reset) in `window.__longest`; run in the page before its first script. */
function watchLongTasks() {
  window.__longest = 0;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: "longtask", buffered: true });
}

/** Opens `path` at the slower CPU, the longest task watched from the page's start. */
async function openSlowed(page, path) {
  const cdp = await page.context().newCDPSession(page);
  await page.addInitScript(watchLongTasks);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  await page.goto(origin + path);
}

/** A link-shaped text of `n` characters (base64url after the share mark: damaged, so refused). */
const linkOf = (n) => {
  const head = `${origin}/#share=1.`;
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let s = "";
  for (let i = 0; s.length < n - head.length; i++) s += abc[(i * 7919) % 64];
  return head + s.slice(0, n - head.length);
};

/** A share link holding `json`, packed as the app packs it (zlib, base64url). */
const packed = (json) => `${origin}/#share=1.${deflateSync(Buffer.from(json)).toString("base64url")}`;

/** A character the app would write (a new Heimr sheet), numbered `i`. */
const ch = (i) => ({
    schema_version: 1, id: `b${String(i).padStart(15, "0")}`, system: "heimr", name: `Hero ${i}`, notes: "",
    created: 1763721000000, updated: 1763721000000,
    sheet: {
      attributes: Array.from({ length: 6 }, () => ({ value: 0, progress: 0 })),
      abilities: [], hp_max: 3, hp: 3, willpower_max: 3, willpower: 3, fatigue: 4,
      skills: [], conditions: [], items: [], xp: 0, xp_carried: 0, purchases: [],
    },
});

/** A backup of `count` characters. */
const backupOf = (count) => JSON.stringify({ schema_version: 1, characters: Array.from({ length: count }, (_, i) => ch(i)) });

/** Opens the Characters page with `count` characters stored (as the app stores them: one key
 * each and the index), from navigation to the roster's last entry on screen; returns [ms,
 * longest task ms]. Seeding stops where the phone's storage is full (the count is reported). */
async function stored(count) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  await page.goto(origin + "/404-seed");
  const kept = await page.evaluate(([count, list]) => {
    localStorage.clear();
    const ids = [];
    try {
      for (let i = 0; i < count; i++) {
        const c = JSON.parse(list.replace("$I", String(i).padStart(15, "0")).replace("$N", String(i)));
        localStorage.setItem(`rollsheet.char.${c.id}`, JSON.stringify(c));
        ids.push(c.id);
      }
    } catch {}
    // Full: make room for the index by taking characters back out.
    for (;;) {
      try {
        localStorage.setItem("rollsheet.characters", JSON.stringify({ schema_version: 2, ids }));
        return ids.length;
      } catch {
        for (const id of ids.splice(-100)) localStorage.removeItem(`rollsheet.char.${id}`);
      }
    }
  }, [count, JSON.stringify({ ...ch(0), id: "b$I", name: "Hero $N" })]);
  await openSlowed(page, "/");
  await page.locator(".roster-entry").first().waitFor({ timeout: 120_000 });
  const [ms, longest] = await page.evaluate(() => [performance.now(), window.__longest]);
  await ctx.close();
  return [ms, longest, kept];
}

/** Pastes `text` into the import box of `path` and waits for the answer (a message or the
 * import question); returns [ms, longest task ms]. */
async function paste(path, box, text) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await page.goto(origin + path);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.locator(box).focus();
  await page.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: "longtask" });
    window.__answered = new Promise((res) => {
      document.addEventListener("paste", () => {
        const t0 = performance.now();
        const seen = () => document.querySelector(".card .field-error, .card p.ok, [role=alertdialog], .notices .notice");
        const check = () => (seen() ? res(performance.now() - t0) : requestAnimationFrame(check));
        requestAnimationFrame(check);
      }, { capture: true, once: true });
    });
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  await page.keyboard.press("Control+V");
  // A player then taps Import text, unless the app has answered the paste by itself.
  await page.evaluate((box) => {
    const answered = document.querySelector(".card .field-error, .card p.ok, [role=alertdialog], .notices .notice");
    const button = document.querySelector(`${box} + button:not([disabled])`);
    if (!answered && button) button.click();
  }, box);
  const ms = await page.evaluate(() => Promise.race([window.__answered, new Promise((r) => setTimeout(() => r(Infinity), 60_000))]));
  const longest = await page.evaluate(() => window.__longest);
  await ctx.close();
  return [ms, longest];
}

/** Opens a fight of `events` events (two combatants, then a round turned over and over, as a
 * long fight's log grows) stored on the phone: from navigation to its combatants on screen;
 * with `tap`, then from tapping that button (e.g. the log's "Show all") to the page settled.
 * Returns [ms, longest task ms]. */
async function fight(events, tap) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  await page.goto(origin + "/404-seed");
  await page.evaluate((n) => {
    const join = (name, pc) => ({ Join: { name, pc, stats: [13, 12, 14, 11, 10, 6, 0, 1], texts: ["1d8", "1d4"], hp: 11, hp_max: 11, init: [14, 11] } });
    const list = [join("Ulla", true), join("Goblin", false), "Start"];
    while (list.length < n) list.push(list.length % 2 ? { Damage: [[1], 0] } : "Next");
    const e = { schema_version: 1, id: "bench", name: "The long fight", system: "symbaroum", created: 1, updated: 1, events: list, cursor: list.length };
    localStorage.setItem("rollsheet.enc.bench", JSON.stringify(e));
    localStorage.setItem("rollsheet.encounters", JSON.stringify({ schema_version: 2, ids: ["bench"] }));
  }, events);
  await openSlowed(page, "/combat/bench");
  await page.getByText("Goblin").first().waitFor({ timeout: 120_000 });
  let [ms, longest] = await page.evaluate(() => [performance.now(), window.__longest]);
  if (tap) {
    const button = page.getByRole("button", { name: tap });
    await button.scrollIntoViewIfNeeded();
    [ms, longest] = await page.evaluate(async (re) => {
      window.__longest = 0;
      const b = [...document.querySelectorAll("button")].find((b) => new RegExp(re).test(b.textContent));
      const t0 = performance.now();
      b.click();
      // Settled: two frames painted after the tap's work.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return [performance.now() - t0, window.__longest];
    }, tap.source);
  }
  await ctx.close();
  return [ms, longest];
}

/** Types `expr` into the roller (as one input event, the last keystroke) and waits for the
 * page to settle (two frames); returns [ms, longest task ms]. */
async function roller(expr) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await page.addInitScript(watchLongTasks);
  await page.goto(origin + "/roller");
  await page.locator("#expr").waitFor();
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  const r = await page.evaluate(async (expr) => {
    window.__longest = 0;
    const box = document.querySelector("#expr");
    const t0 = performance.now();
    box.value = expr;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return [performance.now() - t0, window.__longest];
  }, expr);
  await ctx.close();
  return r;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => (ms === Infinity ? "> 60 s" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

const cases = [
  ["Characters: paste a link of 10⁴ characters", "/", "#import-text", linkOf(1e4)],
  ["Characters: paste a link of 10⁵ characters", "/", "#import-text", linkOf(1e5)],
  ["Characters: paste a link of 10⁶ characters", "/", "#import-text", linkOf(1e6)],
  ["Characters: paste a link just over the limit (2 MiB + 1)", "/", "#import-text", linkOf(LINK_LIMIT + 1)],
  ["Characters: paste a backup of 200 characters", "/", "#import-text", backupOf(200)],
  ["Characters: paste a link for all of 200 characters", "/", "#import-text", packed(backupOf(200))],
  ["Characters: paste a link for all of 11 000 characters (10⁵ characters of link)", "/", "#import-text", packed(backupOf(11000))],
  ["Combat: paste a link of 10⁵ characters", "/combat", "#enc-import-text", linkOf(1e5)],
  ["Characters: open the page with 1 character stored", 1],
  ["Characters: open the page with 200 characters stored", 200],
  ["Characters: open the page with characters stored to the storage's limit", 20000],
  ["Roller: type 100d1000 (the largest pool)", () => roller("100d1000")],
  ["Roller: type 100d100kh5 (a kept pool at the work limit)", () => roller("100d100kh5")],
  ["Combat: open a fight of 100 000 events", () => fight(100_000)],
  ["Combat: show the whole log of a fight of 100 000 events", () => fight(100_000, /^Show (all|\d+ more)/)],
];

console.log(`| at ${CPU}× CPU, median of ${RUNS} | answer | longest task |`);
console.log("|---|---|---|");
// BENCH_ONLY=text: only the cases whose name holds it.
for (const [name, path, box, text] of cases.filter((c) => c[0].includes(process.env.BENCH_ONLY || ""))) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(typeof path === "function" ? await path() : typeof path === "number" ? await stored(path) : await paste(path, box, text));
  const kept = runs[0][2] ? ` (${runs[0][2]} fit)` : "";
  console.log(`| ${name}${kept} | ${fmt(median(runs.map((r) => r[0])))} | ${fmt(median(runs.map((r) => r[1])))} |`);
}
await browser.close();
child.kill();
