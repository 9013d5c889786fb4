import { test, expect, appReady } from "./fixtures";
import type { Page } from "@playwright/test";

/** Exact P(total ≥ t) by enumerating every face combination: independent of the app's maths. */
function bruteForce(pools: { n: number; s: number; keep?: ["h" | "l", number]; sign?: number }[], constant: number, t: number) {
  let dist = new Map<number, number>([[constant, 1]]);
  for (const { n, s, keep, sign = 1 } of pools) {
    const pool = new Map<number, number>();
    const faces = Array(n).fill(1);
    for (;;) {
      let kept = [...faces];
      if (keep) kept = kept.sort((a, b) => (keep[0] === "h" ? b - a : a - b)).slice(0, keep[1]);
      const v = sign * kept.reduce((a, b) => a + b, 0);
      pool.set(v, (pool.get(v) ?? 0) + 1 / s ** n);
      let i = 0;
      while (i < n && faces[i] === s) faces[i++] = 1;
      if (i === n) break;
      faces[i]++;
    }
    const next = new Map<number, number>();
    for (const [a, pa] of dist) for (const [b, pb] of pool) next.set(a + b, (next.get(a + b) ?? 0) + pa * pb);
    dist = next;
  }
  let p = 0;
  for (const [v, pv] of dist) if (v >= t) p += pv;
  return p;
}

async function setExpr(page: Page, text: string) {
  const input = page.getByLabel("Roll", { exact: true });
  await input.fill(text);
}

test.beforeEach(async ({ page }) => {
  await page.goto("/roller");
  await appReady(page);
});

test("quick buttons build an expression", async ({ page }) => {
  await page.getByRole("button", { name: "Clear" }).tap();
  const dice = page.getByRole("group", { name: "Add a die" });
  await dice.getByRole("button", { name: "d6", exact: true }).tap();
  await dice.getByRole("button", { name: "d6", exact: true }).tap();
  await dice.getByRole("button", { name: "d20" }).tap();
  await dice.getByRole("button", { name: "d%" }).tap();
  await expect(page.getByLabel("Roll", { exact: true })).toHaveValue("2d6+1d20+1d%");
  await expect(page.getByRole("button", { name: /^Roll 2d6\+1d20\+1d%$/ })).toBeEnabled();
});

test("invalid notation shows the error inline and disables rolling", async ({ page }) => {
  await setExpr(page, "2d6+");
  await expect(page.locator("#expr-help")).toHaveText(/ends with “\+”/);
  await expect(page.getByLabel("Roll", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(".roll-btn")).toBeDisabled();
  await setExpr(page, "4d6kh9");
  await expect(page.locator("#expr-help")).toHaveText(/can keep 1 to 4 of 4 dice, not 9/);
  await setExpr(page, "2d6+1");
  await expect(page.locator(".roll-btn")).toBeEnabled();
  await expect(page.getByLabel("Roll", { exact: true })).toHaveAttribute("aria-invalid", "false");
});

test("odds before rolling match an independent exact computation", async ({ page }) => {
  const cases: [string, Parameters<typeof bruteForce>[0], number, number][] = [
    ["2d6", [{ n: 2, s: 6 }], 0, 10],
    ["4d6kh3", [{ n: 4, s: 6, keep: ["h", 3] }], 0, 15],
    ["2d20kl1", [{ n: 2, s: 20, keep: ["l", 1] }], 0, 11],
    ["3d6+1d4-2", [{ n: 3, s: 6 }, { n: 1, s: 4 }], -2, 12],
    ["1d8-1d4", [{ n: 1, s: 8 }, { n: 1, s: 4, sign: -1 }], 0, 3],
  ];
  await page.getByLabel("Target").fill("");
  for (const [expr, pools, c, t] of cases) {
    await setExpr(page, expr);
    await page.getByLabel("Target").fill(String(t));
    const atLeast = parseFloat((await page.getByTestId("p-at-least").textContent())!);
    const atMost = parseFloat((await page.getByTestId("p-at-most").textContent())!);
    const exact = bruteForce(pools, c, t);
    const exactAtMost = 1 - bruteForce(pools, c, t + 1);
    expect(Math.abs(atLeast - exact * 100), `${expr} ≥ ${t}`).toBeLessThan(0.05001);
    expect(Math.abs(atMost - exactAtMost * 100), `${expr} ≤ ${t}`).toBeLessThan(0.05001);
  }
  await setExpr(page, "2d6");
  await expect(page.getByTestId("mean")).toHaveText("7");
  // One bar per value 2…12, the ones at or above the target highlighted.
  await page.getByLabel("Target").fill("10");
  await expect(page.locator(".chart rect")).toHaveCount(11);
  await expect(page.locator(".chart rect.hit")).toHaveCount(3);
});

test("rolling shows the total and every die, dropped dice marked", async ({ page }) => {
  await setExpr(page, "4d6kh3+2");
  await page.locator(".roll-btn").tap();
  const result = page.getByTestId("result");
  await expect(result).toHaveAttribute("aria-live", "polite");
  await expect(result.locator(".die")).toHaveCount(4);
  await expect(result.locator(".die.dropped")).toHaveCount(1);
  const kept = await result.locator(".die:not(.dropped) .die-value").allTextContents();
  const total = Number(await result.getByTestId("total").textContent());
  expect(total).toBe(kept.map(Number).reduce((a, b) => a + b, 0) + 2);
  const all = (await result.locator(".die .die-value").allTextContents()).map(Number);
  const dropped = Number(await result.locator(".die.dropped .die-value").textContent());
  expect(dropped).toBe(Math.min(...all));
});

test("the roll log survives a reload, caps at 500 and clears only with undo", async ({ page }) => {
  await setExpr(page, "1d20");
  await page.locator(".roll-btn").tap();
  await page.locator(".roll-btn").tap();
  const entries = page.locator(".log-entry");
  await expect(entries).toHaveCount(2);
  await page.reload();
  await expect(entries).toHaveCount(2);
  await expect(entries.first().locator(".log-expr")).toHaveText("1d20");
  await expect(entries.first().locator("time")).toHaveText(/^\d\d:\d\d:\d\d$/);

  await page.getByRole("button", { name: "Clear log" }).tap();
  await expect(entries).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).tap();
  await expect(entries).toHaveCount(2);

  // Fill the stored log to its cap, then roll once more: still 500, the newest on top.
  await page.evaluate(() => {
    const log = JSON.parse(localStorage.getItem("rollsheet.rolllog")!);
    const one = log.entries[0];
    log.entries = Array.from({ length: 500 }, (_, i) => ({ ...one, at: 1_000_000 + 500 - i, expr: "3d6" }));
    localStorage.setItem("rollsheet.rolllog", JSON.stringify(log));
  });
  await page.reload();
  await expect(page.locator(".roll-log h2")).toContainText("(500)");
  await page.locator(".roll-btn").tap();
  await expect(page.locator(".roll-log h2")).toContainText("(500)");
  await expect(entries.first().locator(".log-expr")).toHaveText("1d20");
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("rollsheet.rolllog")!).entries.length);
  expect(stored).toBe(500);
  // The newest 50 are drawn; "Show all" draws the rest.
  await expect(entries).toHaveCount(50);
  await page.getByRole("button", { name: "Show all 500 rolls" }).tap();
  await expect(entries).toHaveCount(500);
});

test("extreme rolls never crash and their chances are truthful", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // 100d6 crashed the app (a chart bar far below 10⁻⁶⁰ made the formatter divide by zero).
  await setExpr(page, "100d6");
  await expect(page.locator(".chart rect").first()).toBeAttached();
  await page.getByLabel("Target").fill("600");
  await expect(page.getByTestId("p-at-least")).toHaveText(/^1 in \d\.\d × 10⁷⁷$/); // 6⁻¹⁰⁰
  await expect(page.getByTestId("p-at-most")).toHaveText("100%");
  await page.getByLabel("Target").fill("599");
  await expect(page.getByTestId("p-at-most")).toHaveText("> 99.9999%");
  // 50d6, 300 or more: one chance in 6⁵⁰ ≈ 8.1 × 10³⁸, not "0%".
  await setExpr(page, "50d6");
  await page.getByLabel("Target").fill("300");
  await expect(page.getByTestId("p-at-least")).toHaveText("1 in 8.1 × 10³⁸");
  await page.getByLabel("Target").fill("301");
  await expect(page.getByTestId("p-at-least")).toHaveText("0%");
  // Certain and nearly certain: exactly 100% only when certain.
  await setExpr(page, "1d6");
  await page.getByLabel("Target").fill("6");
  await expect(page.getByTestId("p-at-most")).toHaveText("100%");
  await expect(page.getByTestId("p-at-least")).toHaveText("16.7%");
  // The largest inputs the notation allows, and one beyond: answered, never a crash.
  for (const expr of ["100d1000", "100d6+100d6", "100d2!", "100d1000kh1", "100d6!kl1", "1d6+10000"]) {
    await setExpr(page, expr);
    await expect(page.locator(".odds")).not.toBeEmpty();
    await page.locator(".roll-btn").tap();
    await expect(page.getByTestId("total")).toBeVisible();
  }
  await setExpr(page, "101d6");
  await expect(page.locator("#expr-help")).toContainText("at most 100 dice");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  expect(errors).toEqual([]);
});

test("phone screenshot of the roller with a chart and a result", async ({ page }) => {
  await setExpr(page, "4d6kh3");
  await page.getByLabel("Target").fill("14");
  await page.locator(".roll-btn").tap();
  await expect(page.getByTestId("total")).toBeVisible();
  await expect(page.locator(".chart rect")).toHaveCount(16);
  await page.screenshot({ path: "test-results/roller-phone.png" });
});
