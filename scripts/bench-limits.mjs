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

/** A backup of `n` characters the app would write (Heimr sheets). */
const backupOf = (count) => {
  const ch = (i) => ({
    schema_version: 1, id: `b${String(i).padStart(15, "0")}`, system: "heimr", name: `Hero ${i}`, notes: "",
    created: 1763721000000, updated: 1763721000000,
    sheet: {
      attributes: Array.from({ length: 6 }, () => ({ value: 0, progress: 0 })),
      abilities: [], hp_max: 3, hp: 3, willpower_max: 3, willpower: 3, fatigue: 4,
      skills: [], conditions: [], items: [], xp: 0, xp_carried: 0, purchases: [],
    },
  });
  return JSON.stringify({ schema_version: 1, characters: Array.from({ length: count }, (_, i) => ch(i)) });
};

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
];

console.log(`| at ${CPU}× CPU, median of ${RUNS} | answer | longest task |`);
console.log("|---|---|---|");
// BENCH_ONLY=text: only the cases whose name holds it.
for (const [name, path, box, text] of cases.filter((c) => c[0].includes(process.env.BENCH_ONLY || ""))) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await paste(path, box, text));
  console.log(`| ${name} | ${fmt(median(runs.map((r) => r[0])))} | ${fmt(median(runs.map((r) => r[1])))} |`);
}
await browser.close();
child.kill();
