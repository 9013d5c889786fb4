import { test, expect, appReady, createCharacter, setNumber } from "./fixtures";
import type { Page } from "@playwright/test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Timings at a 4× CPU slowdown (a mid-range phone), measured inside the page with
// performance.now(), a MutationObserver and requestAnimationFrame, so no Playwright round trip
// is counted. These tests REPORT figures (console and test-results/perf.json); they never
// assert a timing. They fail only when something does not work (an element never appears).

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const CPU_SLOWDOWN = 4;
const figures: Record<string, unknown> = { cpuSlowdown: CPU_SLOWDOWN };

async function throttle(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  return cdp;
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  const r = (v: number) => Math.round(v * 10) / 10;
  return { n: s.length, median: r(s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2), p95: r(q(0.95)), min: r(s[0]), max: r(s[s.length - 1]), all: xs.map(r) };
}

/**
 * Clicks `button` inside the page and resolves when `watch` has changed (a mutation after which
 * `done(watch)` holds) and the next animation frame has started: [ms to the DOM change, ms to
 * that frame]. Rejects after 10 s.
 */
function tapAndTime(page: Page, button: import("@playwright/test").ElementHandle, watch: import("@playwright/test").ElementHandle, kind: "text-change" | "total") {
  return page.evaluate(
    ([btn, el, kind]) =>
      new Promise<[number, number]>((resolveTiming, reject) => {
        const before = el.textContent;
        const done = () => (kind === "text-change" ? el.textContent !== before : !!el.querySelector('[data-testid="total"]'));
        let t0 = 0;
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`no ${kind} within 10 s`));
        }, 10_000);
        const observer = new MutationObserver(() => {
          if (!done()) return;
          const dom = performance.now() - t0;
          observer.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() => resolveTiming([dom, performance.now() - t0]));
        });
        observer.observe(el, { childList: true, characterData: true, subtree: true, attributes: true });
        t0 = performance.now();
        (btn as HTMLElement).click();
      }),
    [button, watch, kind] as const,
  );
}

test.describe.configure({ mode: "serial" });

test.afterAll(() => {
  const lines = [
    `== performance at ${CPU_SLOWDOWN}× CPU slowdown (ms; reported, not asserted) ==`,
    ...Object.entries(figures)
      .filter(([k]) => k !== "cpuSlowdown")
      .map(([k, v]) => `${k}: ${JSON.stringify(v, (key, val) => (key === "all" ? undefined : val))}`),
  ];
  console.log(lines.join("\n"));
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  writeFileSync(join(ROOT, "test-results", "perf.json"), JSON.stringify(figures, null, 2) + "\n");
});

test("stepper + to every derived value updated (Heimr stamina → base fatigue), 20 taps", async ({ page }) => {
  test.setTimeout(120_000);
  await createCharacter(page, "Perf stepper", "Heimr");
  const edit = page.getByRole("tab", { name: "Edit" });
  if (await edit.count()) {
    await edit.tap();
    await expect(edit).toHaveAttribute("aria-selected", "true");
  }
  // Start low so that each of the 20 taps changes base fatigue (4 − stamina, never below 1).
  await setNumber(page, "Stamina", -20);
  const plus = page.getByRole("button", { name: "Increase Stamina", exact: true });
  const fatigue = page.getByTestId("base-fatigue");
  await expect(fatigue).toHaveText("24");
  await throttle(page);
  const dom: number[] = [];
  const frame: number[] = [];
  for (let i = 0; i < 20; i++) {
    const before = await fatigue.textContent();
    const [d, f] = await tapAndTime(page, (await plus.elementHandle())!, (await fatigue.elementHandle())!, "text-change");
    await expect(fatigue).not.toHaveText(before!);
    dom.push(d);
    frame.push(f);
  }
  await expect(fatigue).toHaveText("4");
  figures.stepperToFrame = stats(frame);
  figures.stepperToDom = stats(dom);
});

test("roll button to the result shown (/roller, 3d6), 10 rolls", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/roller");
  await appReady(page);
  await throttle(page);
  const nav = page.getByRole("navigation", { name: "Main" });
  const result = page.getByTestId("result");
  const dom: number[] = [];
  const frame: number[] = [];
  for (let i = 0; i < 10; i++) {
    if (i > 0) {
      // Leave and come back (in the app) so the result area starts empty again.
      await nav.getByRole("link", { name: "Characters" }).tap();
      await expect(page).toHaveURL(/\/$/);
      await nav.getByRole("link", { name: "Roller" }).tap();
      await expect(page).toHaveURL(/\/roller$/);
    }
    await page.getByLabel("Roll", { exact: true }).fill("3d6");
    const button = page.getByRole("button", { name: /^Roll 3d6$/ });
    await expect(button).toBeEnabled();
    const [d, f] = await tapAndTime(page, (await button.elementHandle())!, (await result.elementHandle())!, "total");
    await expect(page.getByTestId("total")).toHaveText(/^\d+$/);
    dom.push(d);
    frame.push(f);
  }
  figures.rollToFrame = stats(frame);
  figures.rollToDom = stats(dom);
});

test("roster of 500 characters: navigation start to its first page (50 entries) rendered", async ({ page }) => {
  test.setTimeout(120_000);
  // The stored format (storage/roster.rs, storage/character.rs): one key per character and an
  // index of ids; bodies from the committed fixtures, alternating Heimr and Symbaroum-style.
  const heimr = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-heimr-v1.json"), "utf8"));
  const symb = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-symbaroum-v1.json"), "utf8"));
  const N = 500;
  const entries: [string, string][] = [];
  const ids: string[] = [];
  for (let i = 1; i <= N; i++) {
    const id = (0x5e000000 + i).toString(16).padStart(16, "0");
    ids.push(id);
    // The last one is Symbaroum-style: its name then shows only in the roster (the Heimr XP
    // share lists Heimr characters by name too).
    const body = { ...(i % 2 ? heimr : symb), id, name: `Perf hero ${String(i).padStart(3, "0")}` };
    entries.push([`rollsheet.char.${id}`, JSON.stringify(body)]);
  }
  entries.push(["rollsheet.characters", JSON.stringify({ schema_version: 1, ids })]);
  // The roster draws 50 entries at a time: the 50th is the last one drawn.
  const last = `Perf hero ${String(50).padStart(3, "0")}`;

  await page.goto("/");
  await appReady(page);
  await page.evaluate((kv) => {
    localStorage.clear();
    for (const [k, v] of kv) localStorage.setItem(k, v);
  }, entries);
  // Watches from the very start of the next load: when the main navigation (the app mounted)
  // and the last character's name first appear in the DOM, and the frame after that.
  await page.addInitScript((mark) => {
    const w = window as unknown as { __perf: Record<string, number> };
    w.__perf = {};
    const NAV = 'nav[aria-label="Main"]';
    const isNav = (n: Node) => n.nodeType === 1 && ((n as Element).matches(NAV) || !!(n as Element).querySelector(NAV));
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (w.__perf.nav === undefined && isNav(n)) w.__perf.nav = performance.now();
          if (w.__perf.lastEntry === undefined && (n.textContent ?? "").includes(mark)) {
            w.__perf.lastEntry = performance.now();
            requestAnimationFrame(() => (w.__perf.lastEntryFrame = performance.now()));
          }
        }
        if (r.type === "characterData" && w.__perf.lastEntry === undefined && (r.target.textContent ?? "").includes(mark)) {
          w.__perf.lastEntry = performance.now();
          requestAnimationFrame(() => (w.__perf.lastEntryFrame = performance.now()));
        }
      }
      if (w.__perf.lastEntryFrame !== undefined) observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }, last);
  await throttle(page);
  await page.reload();
  await expect(page.getByText(last, { exact: true }).first()).toBeAttached({ timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as { __perf: Record<string, number> }).__perf.lastEntryFrame !== undefined, null, { timeout: 10_000 });
  const t = await page.evaluate(() => {
    const w = window as unknown as { __perf: Record<string, number> };
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    return { ...w.__perf, domContentLoaded: nav?.domContentLoadedEventEnd, links: document.querySelectorAll('a[href^="/c/"]').length };
  });
  const r = (v: number | undefined) => (v === undefined ? null : Math.round(v));
  figures.roster500 = {
    characters: N,
    characterLinksInDom: t.links,
    domContentLoaded: r(t.domContentLoaded),
    appMounted: r(t.nav),
    lastEntryInDom: r(t.lastEntry),
    lastEntryFrame: r(t.lastEntryFrame),
  };
});

test("fight of 50 combatants: next turn, and the whole fight rendered anew", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/combat");
  await appReady(page);
  await page.getByLabel("Name", { exact: true }).fill("Fifty");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await expect(page).toHaveURL(/\/combat\/[0-9a-f]+$/);
  const rows = page.getByTestId("order").locator("li.fighter");
  for (const [name, n] of [["Goblin", 20], ["Orc", 20], ["Troll", 10]] as const) {
    await page.getByLabel("Name", { exact: true }).fill(name);
    await setNumber(page, "How many", n);
    await page.getByRole("button", { name: `Add ${name} ×${n}` }).tap();
  }
  await expect(rows).toHaveCount(50);
  const next = page.getByTestId("next");
  await next.tap(); // start: roll-offs for all ties, round 1
  await expect(page.getByTestId("turn-status")).toHaveText(/^Round 1 · /);
  await throttle(page);
  const status = page.getByTestId("turn-status");
  const dom: number[] = [];
  const frame: number[] = [];
  for (let i = 0; i < 30; i++) {
    const [d, f] = await tapAndTime(page, (await next.elementHandle())!, (await status.elementHandle())!, "text-change");
    dom.push(d);
    frame.push(f);
  }
  figures.fight50NextTurnToDom = stats(dom);
  figures.fight50NextTurnToFrame = stats(frame);
  // The whole fight drawn anew: from the back link to the list and forward to all 50 rows.
  const render: number[] = [];
  const url = page.url();
  for (let i = 0; i < 5; i++) {
    await page.getByRole("link", { name: "← Encounters" }).tap();
    await expect(page.getByRole("heading", { name: "Combat", exact: true })).toBeVisible();
    const link = page.getByRole("link", { name: "Fifty" });
    const ms = await link.evaluate(
      (a) =>
        new Promise<number>((done) => {
          const t0 = performance.now();
          const check = () => {
            if (document.querySelectorAll("li.fighter").length === 50) requestAnimationFrame(() => done(performance.now() - t0));
            else requestAnimationFrame(check);
          };
          (a as HTMLElement).click();
          check();
        }),
    );
    await expect(page).toHaveURL(url);
    render.push(ms);
  }
  figures.fight50RenderToFrame = stats(render);
});
