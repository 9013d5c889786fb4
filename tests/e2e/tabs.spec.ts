import { test, expect, appReady, createCharacter, fighter, mode } from "./fixtures";
import type { BrowserContext, Page } from "@playwright/test";

// The same character, fight or roll log open in two tabs of one phone, as a player leaves them:
// edits to different fields are merged, the same field edited twice is asked about, nothing is
// lost and nothing crashes.

function watchErrors(...pages: Page[]) {
  const errors: string[] = [];
  for (const p of pages) p.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

/** A new Heimr character open in Edit mode in this tab and in a second one, once it is saved. */
async function openTwice(page: Page, context: BrowserContext, name: string) {
  await createCharacter(page, name, "Heimr");
  const url = page.url();
  const key = `rollsheet.char.${url.split("/c/")[1]}`;
  await expect.poll(() => stored(page, key)).not.toBeNull();
  const other = await context.newPage();
  const errors = watchErrors(page, other);
  await other.goto(url);
  await appReady(other);
  await mode(page, "Edit");
  await mode(other, "Edit");
  return { other, key, errors };
}

const stored = (page: Page, key: string) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) || "null"), key);

test("+ Dexterity in one tab and + Stamina in the other within half a second: both are kept", async ({ page, context }) => {
  const { other, key, errors } = await openTwice(page, context, "Twin");
  const t0 = Date.now();
  await page.getByRole("button", { name: "Increase Dexterity", exact: true }).tap();
  await other.getByRole("button", { name: "Increase Stamina", exact: true }).tap();
  expect(Date.now() - t0).toBeLessThan(500);
  for (const p of [page, other]) {
    await expect(p.getByRole("spinbutton", { name: "Dexterity", exact: true })).toHaveValue("1", { timeout: 5_000 });
    await expect(p.getByRole("spinbutton", { name: "Stamina", exact: true })).toHaveValue("1", { timeout: 5_000 });
  }
  await expect.poll(async () => (await stored(page, key)).sheet.attributes.slice(0, 3).map((a: { value: number }) => a.value)).toEqual([0, 1, 1]);
  await page.reload();
  await appReady(page);
  await mode(page, "Edit");
  await expect(page.getByRole("spinbutton", { name: "Dexterity", exact: true })).toHaveValue("1");
  await expect(page.getByRole("spinbutton", { name: "Stamina", exact: true })).toHaveValue("1");
  expect(errors).toEqual([]);
});

test("the same field changed in two tabs is asked about; every other edit is kept", async ({ page, context }) => {
  const { other, key, errors } = await openTwice(page, context, "Asa");
  // The other tab renames and raises Strength; this tab renames too before it hears of it.
  await other.getByLabel("Character name").fill("Asa Grey");
  await other.getByLabel("Character name").blur();
  await other.getByRole("button", { name: "Increase Strength", exact: true }).tap();
  await page.getByLabel("Character name").fill("Asa the Bold");
  await page.getByLabel("Character name").blur();
  // One of the two tabs (the one whose save comes second) asks.
  const question = (p: Page) => p.getByRole("alert").filter({ hasText: "was also changed in another tab" });
  await expect.poll(async () => (await question(page).count()) + (await question(other).count()), { timeout: 5_000 }).toBe(1);
  const asker = (await question(page).count()) ? page : other;
  const mine = asker === page ? "Asa the Bold" : "Asa Grey";
  await expect(question(asker)).toContainText(`name (here "${mine}"`);
  for (const scheme of ["light", "dark"] as const) {
    await asker.emulateMedia({ colorScheme: scheme });
    await asker.screenshot({ path: test.info().outputPath(`two-tabs-question-${scheme}.png`) });
  }
  await question(asker).getByRole("button", { name: "Keep this tab’s" }).tap();
  await expect(question(asker)).toHaveCount(0);
  for (const p of [page, other]) {
    await expect(p.getByLabel("Character name")).toHaveValue(mine, { timeout: 5_000 });
    await expect(p.getByRole("spinbutton", { name: "Strength", exact: true })).toHaveValue("1", { timeout: 5_000 });
  }
  await expect.poll(async () => (await stored(page, key)).name).toBe(mine);
  expect((await stored(page, key)).sheet.attributes[0].value).toBe(1);
  expect(errors).toEqual([]);
});

test("a fight open in two tabs: each tab's actions show up in the other and both are stored", async ({ page, context }) => {
  await page.goto("/combat");
  await appReady(page);
  await page.getByLabel("Name", { exact: true }).fill("Bridge");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await expect(page).toHaveURL(/\/combat\/[0-9a-f]+$/);
  const other = await context.newPage();
  const errors = watchErrors(page, other);
  await other.goto(page.url());
  await appReady(other);
  const add = async (p: Page, name: string) => {
    await p.getByLabel("Name", { exact: true }).fill(name);
    await p.getByRole("button", { name: `Add ${name}` }).tap();
  };
  const order = (p: Page) => p.getByTestId("order").locator("li.fighter");
  await add(page, "Goblin");
  await expect(order(other)).toHaveCount(1, { timeout: 5_000 });
  await add(other, "Orc");
  await expect(order(page)).toHaveCount(2, { timeout: 5_000 });
  await expect(fighter(page, "Orc")).toHaveCount(1);
  await page.reload();
  await appReady(page);
  await expect(order(page)).toHaveCount(2);
  // A fight made in one tab appears in the other's list.
  await other.goto("/combat");
  await page.goto("/combat");
  await page.getByLabel("Name", { exact: true }).fill("Cave");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await expect(other.getByText("Cave", { exact: true })).toBeVisible({ timeout: 5_000 });
  expect(errors).toEqual([]);
});

test("rolls made in two tabs all stay in the roll log", async ({ page, context }) => {
  await page.goto("/roller");
  await appReady(page);
  const other = await context.newPage();
  const errors = watchErrors(page, other);
  await other.goto("/roller");
  await appReady(other);
  const roll = (p: Page) => p.getByRole("button", { name: /^Roll 1d20$/ }).tap();
  for (const p of [page, other]) await p.getByLabel("Roll", { exact: true }).fill("1d20");
  for (let i = 0; i < 5; i++) await roll(page);
  await roll(other);
  for (const p of [page, other]) await expect(p.locator(".log-entry")).toHaveCount(6, { timeout: 5_000 });
  expect((await stored(page, "rollsheet.rolllog")).entries).toHaveLength(6);
  // A clear in one tab clears the other too, and its undo brings all six back.
  await other.getByRole("button", { name: "Clear log", exact: true }).tap();
  await expect(page.locator(".log-entry")).toHaveCount(0, { timeout: 5_000 });
  await roll(page);
  await other.getByRole("button", { name: "Undo", exact: true }).tap();
  for (const p of [page, other]) await expect(p.locator(".log-entry")).toHaveCount(7, { timeout: 5_000 });
  expect(errors).toEqual([]);
});
