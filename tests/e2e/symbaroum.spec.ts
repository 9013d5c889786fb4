import { test, expect, createCharacter, setNumber, shownPercent as pct, sidewaysOverflow, smallTargets, mode, row } from "./fixtures";
import type { Page } from "@playwright/test";

const newSym = (page: Page, name: string) => createCharacter(page, name, "Symbaroum-style d20");



/** Death within k tests from `steps`, by enumerating every sequence of d20s (independent of the app). */
function deathWithin(steps: number, k: number) {
  let dead = 0;
  const total = 20 ** k;
  for (let code = 0; code < total; code++) {
    let s = steps, c = code;
    for (let i = 0; i < k; i++) {
      const f = (c % 20) + 1;
      c = Math.floor(c / 20);
      if (f === 1) break;
      if (f === 20 || (f >= 11 && ++s >= 3)) { dead++; break; }
    }
  }
  return dead / total;
}

test("secondary attributes follow the attributes, with the corruption warning", async ({ page }) => {
  await newSym(page, "Varla");
  await mode(page, "Edit");
  await setNumber(page, "Strong", 13);
  await expect(page.getByTestId("toughness-max")).toHaveText("13");
  await expect(page.getByTestId("pain-threshold")).toHaveText("7");
  await setNumber(page, "Strong", 8);
  await expect(page.getByTestId("toughness-max")).toHaveText("10");
  await expect(page.getByTestId("pain-threshold")).toHaveText("4");
  await setNumber(page, "Quick", 12);
  await setNumber(page, "Impeding", 2);
  await expect(page.getByTestId("defense")).toHaveText("10");
  await page.getByLabel("Shield", { exact: true }).selectOption("buckler");
  await expect(page.getByTestId("defense")).toHaveText("11");
  await setNumber(page, "Resolute", 9);
  await expect(page.getByTestId("corruption-threshold")).toHaveText("5");
  await setNumber(page, "Temporary corruption", 3);
  await expect(page.getByTestId("corruption-warning")).toHaveCount(0);
  await setNumber(page, "Permanent corruption", 2);
  await expect(page.getByTestId("corruption-warning")).toBeVisible();
  await setNumber(page, "Cunning", 18);
  await expect(page.locator('[data-attr="Cunning"]')).toContainText("outside 5–15");
  await expect(page.getByTestId("attr-total")).toHaveText("total 87");
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  expect(await smallTargets(page)).toEqual([]);
  await page.setViewportSize({ width: 320, height: 640 });
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/symbaroum-edit-phone.png", fullPage: true });
  // Play: the secondary values and every test on the first screen, at most half the old height.
  await mode(page, "Play");
  await expect(page.getByTestId("defense")).toHaveText("11");
  await expect(page.getByTestId("pain-threshold")).toHaveText("4");
  await expect(row(page, "Vigilant")).toBeInViewport();
  await expect(page.getByTestId("corruption-warning")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(1910);
  expect(await smallTargets(page)).toEqual([]);
  await page.screenshot({ path: "test-results/symbaroum-play-phone.png", fullPage: true });
});

test("an opposed attack shows its exact chance, with advantage and fighting blind", async ({ page }) => {
  await newSym(page, "Archer");
  await mode(page, "Edit");
  await setNumber(page, "Accurate", 10);
  await mode(page, "Play");
  await page.getByRole("button", { name: "Roll Accurate" }).tap();
  const box = page.getByRole("dialog", { name: "Roll Accurate" }).getByRole("region", { name: "Success test" });
  await box.getByRole("button", { name: "Attack [Accurate ← Defense]" }).tap();
  await box.getByLabel("Opposing value (blank: none)").fill("12");
  const p = (t: number) => Math.min(Math.max(t, 0), 20) / 20;
  expect(await pct(page, "test-chance")).toBeCloseTo(p(10 + (10 - 12)) * 100, 1);
  await box.getByText("Advantage (+2, +1d4 damage)").tap();
  expect(await pct(page, "test-chance")).toBeCloseTo(p(10) * 100, 1);
  await box.getByLabel("Fighting blind").selectOption("me");
  expect(await pct(page, "test-chance")).toBeCloseTo(p(10) ** 2 * 100, 1);
  await box.getByLabel("Fighting blind").selectOption("enemy");
  expect(await pct(page, "test-chance")).toBeCloseTo((1 - (1 - p(10)) ** 2) * 100, 1);
  await box.getByRole("button", { name: "Roll test" }).tap();
  const result = box.getByTestId("test-result");
  await expect(result.locator(".die")).toHaveCount(2);
  const faces = (await result.locator(".die .die-value").allTextContents()).map(Number);
  const kept = Math.min(...faces);
  await expect(result.getByTestId("test-kept")).toHaveText(String(kept));
  await expect(result.getByTestId("test-verdict")).toHaveText(kept <= 10 ? `Success (${kept} ≤ 10)` : `Failure (${kept} > 10)`);
  // Defense uses the character's Defense against the attacker's Accurate.
  await box.getByRole("button", { name: "Defend [Defense ← Accurate]" }).tap();
  await box.getByLabel("Fighting blind").selectOption("neither");
  await box.getByLabel("Opposing value (blank: none)").fill("14");
  expect(await pct(page, "test-chance")).toBeCloseTo(p(10 + (10 - 14) + 2) * 100, 1);
});

test("damage against armor: exact chance above the pain threshold, applied to a target", async ({ page }) => {
  await newSym(page, "Target");
  await mode(page, "Edit");
  await setNumber(page, "Strong", 12);
  await setNumber(page, "Toughness", 12);
  await page.getByLabel("Protection roll").fill("1d4");
  await page.getByLabel("Protection roll").blur();
  await newSym(page, "Hitter");
  await mode(page, "Edit");
  await page.getByText("Add a weapon").tap();
  await page.getByLabel("Weapon name").fill("Sword");
  await page.getByLabel("Weapon damage").fill("1d8");
  await page.getByRole("button", { name: "Add weapon" }).tap();
  await mode(page, "Play");
  await page.getByRole("button", { name: "Roll Sword" }).tap();
  const sheet = page.getByRole("dialog", { name: "Roll Sword" });
  const box = sheet.getByRole("region", { name: "Damage" });
  await box.getByLabel("Weapon", { exact: true }).selectOption({ label: "Sword (1d8)" });
  await box.getByLabel("Target", { exact: true }).selectOption({ label: "Target" });
  await expect(box.getByRole("spinbutton", { name: "Target's pain threshold" })).toHaveValue("6");
  // d8 − d4 > 6: only 8 − 1. Then with advantage, d8 + d4 − d4 > 6.
  let above = 0;
  for (let w = 1; w <= 8; w++) for (let a = 1; a <= 4; a++) if (w - a > 6) above++;
  expect(await pct(page, "pain-chance")).toBeCloseTo((above / 32) * 100, 1);
  await box.getByText("Advantage (+1d4)").tap();
  above = 0;
  for (let w = 1; w <= 8; w++) for (let x = 1; x <= 4; x++) for (let a = 1; a <= 4; a++) if (w + x - a > 6) above++;
  expect(await pct(page, "pain-chance")).toBeCloseTo((above / 128) * 100, 1);
  await box.getByRole("button", { name: "Roll damage" }).tap();
  // The attack itself can take the target's Defense from the roster.
  const test = sheet.getByRole("region", { name: "Success test" });
  await test.getByLabel("Opposing value from your characters").selectOption({ label: "Target: Defense 10" });
  await expect(test.getByLabel("Opposing value (blank: none)")).toHaveValue("10");
  const dmg = Number(await box.getByTestId("damage-total").textContent());
  await box.getByRole("button", { name: "Apply to the target" }).tap();
  await sheet.getByRole("button", { name: "Close" }).tap();
  await page.getByRole("link", { name: "Characters" }).tap();
  await expect(page.locator(".roster-entry").filter({ hasText: "Target" })).toContainText(`Toughness ${Math.max(0, 12 - dmg)}/12`);
});

test("dying: death tests with exact odds, then healing", async ({ page }) => {
  await newSym(page, "Fallen");
  await setNumber(page, "Toughness", 0);
  const box = page.getByRole("region", { name: "Dying and healing" });
  const odds = (await box.getByTestId("death-odds").textContent())!;
  const shown = odds.match(/[\d.]+(?=%)/g)!.map(Number);
  [1, 2, 3].forEach((k, i) => expect(shown[i]).toBeCloseTo(deathWithin(0, k) * 100, 1));
  await box.getByRole("button", { name: "Roll death test" }).tap();
  await expect(box.getByTestId("dying-message")).toHaveText(/^\d+: (wakes up with \d toughness|no change|a step closer \(1 of 3\)|dies)$/);
  await page.getByRole("link", { name: "Roller" }).tap();
  await expect(page.locator(".log-entry").first().locator(".log-expr")).toHaveText("Fallen: Death test");
  await page.goBack();
  const dead = await page.getByTestId("dead").count();
  if (dead) await page.getByRole("button", { name: "Undo: not dead" }).tap();
  await setNumber(page, "Toughness", 0);
  // A day's rest does not stabilize a dying character; a herbal cure does.
  await box.getByRole("button", { name: "Natural (+1)" }).tap();
  await expect(box.getByTestId("dying-message")).toContainText("does not stabilize a dying character");
  await expect(page.getByRole("spinbutton", { name: "Toughness", exact: true })).toHaveValue("0");
  await box.getByRole("button", { name: "Herbal cure (+1)" }).tap();
  await expect(page.getByRole("spinbutton", { name: "Toughness", exact: true })).toHaveValue("1");
  await expect(box.getByRole("button", { name: "Roll death test" })).toHaveCount(0);
  // Current toughness never above its maximum (Strong 10 → 10).
  await page.getByRole("spinbutton", { name: "Toughness", exact: true }).fill("25");
  await page.getByRole("spinbutton", { name: "Toughness", exact: true }).press("Enter");
  await expect(page.getByRole("spinbutton", { name: "Toughness", exact: true })).toHaveValue("10");
});

test("experience: learning and raising abilities with a what-if and undo", async ({ page }) => {
  await newSym(page, "Scholar");
  await mode(page, "Advance");
  await setNumber(page, "Experience earned", 50);
  await page.getByLabel("New ability").fill("Medicus");
  await page.getByRole("button", { name: "Learn" }).tap();
  await expect(page.getByTestId("xp-left")).toHaveText("40");
  await page.getByRole("button", { name: "Raise to adept · 20 XP" }).tap();
  await expect(page.getByRole("region", { name: "What if" })).toContainText("Medicus novice → adept: costs 20 XP, leaving 20");
  await page.getByRole("region", { name: "What if" }).getByRole("button", { name: "Buy" }).tap();
  await expect(page.getByTestId("xp-left")).toHaveText("20");
  await page.getByRole("button", { name: "Raise to master · 30 XP" }).tap();
  await expect(page.getByRole("region", { name: "What if" })).toContainText("leaving -10");
  await expect(page.getByRole("region", { name: "What if" }).getByRole("button", { name: "Buy" })).toBeDisabled();
  await page.getByRole("region", { name: "What if" }).getByRole("button", { name: "Cancel" }).tap();
  await page.getByRole("button", { name: "Undo last change" }).tap();
  await expect(page.getByTestId("xp-left")).toHaveText("40");
  await expect(page.locator('[data-sym-ability="Medicus"]')).toContainText("(novice)");
});
