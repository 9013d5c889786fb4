#!/usr/bin/env node
// How fast the app loads on a phone (a benchmark, not a timed test): the built release served
// compressed (scripts/serve.mjs), in headless Chromium at 390×844 on Lighthouse's slow 4G
// (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) with a 4× slower CPU. Median of 3 each:
//   - first visit → the app usable (the bottom navigation on screen, noted in the page), and the
//     bytes it took;
//   - first visit straight to a saved sheet → its first roll button;
//   - a later visit (the service worker answering) → the app, and → the sheet (shown once
//     before, as on a phone that has opened it);
// then Lighthouse's mobile run, 5 times (scripts/lighthouse.mjs): the median score and LCP.
//
// Usage: node scripts/bench-load.mjs [DIR]   (default dist/; build it first: trunk build --release)
// BENCH_RUNS=n changes the 3; BENCH_LIGHTHOUSE=0 skips Lighthouse. Prints a Markdown table.

import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { serverOrigin } from "./server-origin.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.BENCH_RUNS || 3);
const dir = process.argv[2] || "dist";
// Lighthouse's mobile preset (its "slow 4G"), applied to the real network stack.
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

const child = spawn(process.execPath, [join(ROOT, "scripts/serve.mjs"), dir, "0"], { stdio: ["ignore", "pipe", "inherit"] });
const origin = await serverOrigin(child);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });

const NAV = 'nav[aria-label="Main"]'; // the app's bottom navigation: the app is usable
const ROLL = "button.roll-row-btn"; // a sheet's first roll button

/** A saved Heimr character, as the app stores it. */
const hero = {
  schema_version: 1, id: "0000000000bench1", system: "heimr", name: "Bench", notes: "", created: 1, updated: 1,
  sheet: {
    attributes: Array.from({ length: 6 }, () => ({ value: 2, progress: 0 })),
    abilities: [], hp_max: 3, hp: 3, willpower_max: 3, willpower: 3, fatigue: 4,
    skills: [], conditions: [], items: [], xp: 0, xp_carried: 0, purchases: [],
  },
};

/** A fresh phone (no cache, no worker) with the saved character in its storage, as on a phone
 * that had the app and lost its cache: written before the page's first script runs, so no
 * page of the app is loaded to seed it (that would fill the cache). */
async function phone(serviceWorkers = "allow") {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers });
  await ctx.addInitScript((c) => {
    if (localStorage.getItem("rollsheet.characters")) return;
    localStorage.setItem(`rollsheet.char.${c.id}`, JSON.stringify(c));
    localStorage.setItem("rollsheet.characters", JSON.stringify({ schema_version: 2, ids: [c.id] }));
  }, hero);
  await ctx.exposeBinding("benchSeen", report);
  await ctx.addInitScript(watch, [NAV, ROLL]);
  return ctx;
}

/** Per page: selector → when it was first on screen (ms since that page's navigation began),
 * as the watcher below reports it through a binding. The benchmark never evaluates anything in
 * a page while it loads: Playwright's own page script takes 80 ms at 4× CPU to start, enough
 * to hold back a frame of the page it measures. */
const reports = new WeakMap();
const report = ({ page }, selector, t) => {
  if (!reports.has(page)) reports.set(page, new Map());
  reports.get(page).set(selector, t);
};

/** Opens `url`, forgetting what the page's last document reported. */
async function open(page, url) {
  reports.get(page)?.clear();
  await page.goto(url, { waitUntil: "commit" });
}

/** When `selector` was first on screen in the page's current document (polled here, in node). */
async function at(page, selector) {
  const until = Date.now() + 60_000;
  for (;;) {
    const t = reports.get(page)?.get(selector);
    if (t !== undefined) return t;
    if (Date.now() > until) throw new Error(`${selector} not on screen within 60 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** In every page before its own scripts: notes when each element the benchmark waits for is
 * first in the document, then painted (the next frame's callback, then a task after its
 * paint), and reports it (window.benchSeen, a binding to `report`). */
function watch(selectors) {
  const noted = new Set();
  const seen = new MutationObserver(() => {
    for (const s of selectors) {
      if (noted.has(s) || !document.querySelector(s)) continue;
      noted.add(s);
      requestAnimationFrame(() => setTimeout(() => window.benchSeen(s, performance.now())));
    }
    if (noted.size === selectors.length) seen.disconnect();
  });
  seen.observe(document, { childList: true, subtree: true });
}

/** The bytes a first visit has fetched so far (Resource Timing; its transfer size, or the
 * compressed body where the emulated network leaves that 0, as it does for fetch()). */
const fetched = (page) =>
  page.evaluate(() => [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].reduce((s, e) => s + Math.max(e.transferSize, e.encodedBodySize), 0));

/** One fresh phone: a first visit to `/`, the same to the saved sheet, then later visits. */
async function visit() {
  const ctx = await phone();
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const [nav, roll] = [NAV, ROLL];

  await open(page, origin + "/");
  const app = await at(page, nav);
  const firstBytes = await fetched(page);
  // The first visit straight to the sheet, in a second fresh phone below; here the worker
  // installs (it keeps every module), then the later visits.
  // (the worker claims the page once it has cached everything)
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 120_000 });
  await open(page, origin + "/");
  const laterApp = await at(page, nav);
  // The sheet once (its modules compiled and cached, as on a phone that has shown it before),
  // then the later visit straight to it.
  await open(page, origin + `/c/${hero.id}`);
  await at(page, roll);
  await open(page, origin + "/");
  await at(page, nav);
  await open(page, origin + `/c/${hero.id}`);
  const laterSheet = await at(page, roll);
  await ctx.close();

  // No worker here: installed at once (its own fetches are not throttled), it would hand the
  // sheet's modules to the page from its cache.
  const ctx2 = await phone("block");
  const page2 = await ctx2.newPage();
  const cdp2 = await ctx2.newCDPSession(page2);
  await cdp2.send("Network.enable");
  await cdp2.send("Network.emulateNetworkConditions", SLOW_4G);
  await cdp2.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await open(page2, origin + `/c/${hero.id}`);
  const sheet = await at(page2, roll);
  const sheetFirstBytes = await fetched(page2);
  await ctx2.close();
  return { app, firstBytes, sheet, sheetFirstBytes, laterApp, laterSheet };
}

const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await visit());
await browser.close();
child.kill();

const median = (k) => [...runs.map((r) => r[k])].sort((a, b) => a - b)[Math.floor(runs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const kb = (b) => `${Math.round(b / 1024)} KB`;
console.log(`| slow 4G, 4× CPU, median of ${RUNS} | measured |`);
console.log("|---|---|");
console.log(`| first visit: transfer until the app is usable | ${kb(median("firstBytes"))} |`);
console.log(`| first visit → app interactive (bottom navigation on screen) | ${s(median("app"))} |`);
console.log(`| first visit straight to a saved sheet → its first roll button (transfer) | ${s(median("sheet"))} (${kb(median("sheetFirstBytes"))}) |`);
console.log(`| later visit (service worker) → app / → sheet | ${s(median("laterApp"))} / ${s(median("laterSheet"))} |`);

if (process.env.BENCH_LIGHTHOUSE !== "0") {
  const lh = spawnSync(process.execPath, [join(ROOT, "scripts/lighthouse.mjs"), dir], { stdio: ["ignore", "ignore", "inherit"] });
  const summary = JSON.parse(readFileSync(join(ROOT, "test-results/lighthouse.json"), "utf8"));
  const lcps = summary.runs.map((r) => `${(r.lcp / 1000).toFixed(1)}`).join(", ");
  console.log(`| Lighthouse mobile, ${summary.runs.length} runs: median score (LCP of each run, s) | ${summary.median.score} (${lcps})${lh.status ? " — below its guard" : ""} |`);
}
