#!/usr/bin/env node
// The live table, measured (a benchmark, not a test): a GM's phone and a player's phone in one
// Chromium (two contexts, loopback, no ICE servers), paired by the app's own codes.
// Prints: the QR code of the GM's invitation and of the player's answer (version, modules,
// link length), and GM event → shown on the player's phone (median, p95, max) over RUNS turns
// at BENCH_CPU× CPU slowdown on both phones (default 4).
// Usage: node scripts/bench-table.mjs [DIST] [--screens DIR]
//   --screens DIR  also saves each step of a pairing at 390 px, light and dark, into DIR.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { serverOrigin } from "./server-origin.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const screensAt = args.indexOf("--screens");
const screens = screensAt >= 0 ? resolve(args[screensAt + 1]) : null;
const dir = args.find((a, i) => !a.startsWith("--") && i !== screensAt + 1) || join(ROOT, "dist");
const RUNS = Number(process.env.BENCH_RUNS || 40);
const CPU = Number(process.env.BENCH_CPU || 4);

const child = spawn(process.execPath, [join(ROOT, "scripts/serve.mjs"), dir, "0"], { stdio: ["ignore", "pipe", "inherit"] });
const origin = await serverOrigin(child);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-features=WebRtcHideLocalIpsWithMdns"],
});
const base = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-symbaroum-v1.json"), "utf8"));
const VARLA = { ...base, id: "aa00000000000001", name: "Varla", sheet: { ...base.sheet, toughness: 13 } };
const BRAM = { ...base, id: "bb00000000000002", name: "Bram", sheet: { ...base.sheet, toughness: 10 } };

async function phone(chars, theme) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, colorScheme: theme });
  const page = await ctx.newPage();
  await page.goto(origin + "/");
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  await page.evaluate((list) => {
    for (const c of list) localStorage.setItem(`rollsheet.char.${c.id}`, JSON.stringify(c));
    localStorage.setItem("rollsheet.characters", JSON.stringify({ schema_version: 1, ids: list.map((c) => c.id) }));
  }, chars);
  await page.reload();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  return page;
}

/** The size of a QR code on screen: modules from its viewBox, version from modules. */
async function qrOf(locator) {
  const box = await locator.getAttribute("viewBox");
  const modules = Number(box.split(" ")[2]) - 8;
  return { modules, version: (modules - 17) / 4 };
}

async function shot(page, name, theme) {
  if (!screens) return;
  await page.screenshot({ path: join(screens, `${name}-${theme}.png`) });
}

async function run(theme) {
  const gm = await phone([VARLA, BRAM], theme);
  const player = await phone([VARLA], theme);
  await gm.getByRole("link", { name: "Combat" }).click();
  await gm.getByLabel("Name", { exact: true }).fill("Ambush at the ford");
  await gm.getByRole("button", { name: "Create encounter" }).click();
  await gm.getByRole("button", { name: "Add Varla" }).click();
  await gm.getByRole("button", { name: "Add Bram" }).click();
  await gm.getByLabel("Name", { exact: true }).fill("Goblin");
  await gm.getByRole("button", { name: "Add Goblin" }).click();
  await gm.getByTestId("next").click();
  await gm.getByRole("button", { name: "Open the table" }).click();
  const seat = gm.locator('li.seat[data-seat="0"]');
  await seat.getByTestId("table-code").waitFor({ timeout: 15_000 });
  await seat.scrollIntoViewIfNeeded();
  await shot(gm, "1-gm-invitation", theme);
  const invitation = await seat.getByTestId("table-code").inputValue();
  const offerQr = await qrOf(seat.getByTestId("qr"));
  await player.goto(invitation);
  await player.getByTestId("answer-code").waitFor({ timeout: 15_000 });
  await shot(player, "2-player-answer", theme);
  const answer = await player.getByTestId("answer-code").inputValue();
  const answerQr = await qrOf(player.getByTestId("qr"));
  const paste = gm.getByTestId("answer-paste");
  await paste.fill(answer);
  await paste.blur();
  await player.getByText("Connected to the GM’s phone.").waitFor({ timeout: 15_000 });
  await seat.getByText("Connected: Varla").waitFor();
  await seat.scrollIntoViewIfNeeded();
  await shot(gm, "3-gm-connected", theme);
  await player.getByTestId("table-turn").scrollIntoViewIfNeeded();
  await shot(player, "4-player-follows", theme);
  return { gm, player, invitation, answer, offerQr, answerQr };
}

if (screens) mkdirSync(screens, { recursive: true });
const { gm, player, invitation, answer, offerQr, answerQr } = await run("light");
if (screens) {
  const dark = await run("dark");
  await dark.gm.context().close();
  await dark.player.context().close();
}
for (const p of [gm, player]) {
  const cdp = await p.context().newCDPSession(p);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
}
await player.evaluate(() => {
  const turn = document.querySelector('[data-testid="table-turn"]');
  window.__seen = [];
  new MutationObserver(() => window.__seen.push(Date.now())).observe(turn, { childList: true, characterData: true, subtree: true });
});
const times = [];
for (let i = 0; i < RUNS; i++) {
  const before = await player.evaluate(() => window.__seen.length);
  const t0 = await gm.evaluate(() => { const t = Date.now(); document.querySelector('[data-testid="next"]').click(); return t; });
  await player.waitForFunction((n) => window.__seen.length > n, before, { timeout: 10_000 });
  const t1 = await player.evaluate((n) => window.__seen[n], before);
  times.push(t1 - t0);
}
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)];
console.log(`| what | measured |`);
console.log(`|---|---|`);
console.log(`| the GM's invitation | link ${invitation.length} characters, QR version ${offerQr.version} (${offerQr.modules}×${offerQr.modules}) |`);
console.log(`| the player's answer | link ${answer.length} characters, QR version ${answerQr.version} (${answerQr.modules}×${answerQr.modules}) |`);
console.log(`| GM's Next turn → shown on the player's phone, ${RUNS} turns at ${CPU}× CPU | median ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${times[times.length - 1]} ms |`);
await browser.close();
child.kill();
