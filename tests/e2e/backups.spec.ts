import { test, expect, appReady, seedCharacters, mode, setNumber } from "./fixtures";
import type { Browser, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Issue 27: whatever a player can reach by taps, their backup brings back. Per system, an edge
// state made through the UI (each one a sheet or fight the app's own importer used to refuse),
// exported as a file and imported into an empty browser context.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const fixture = (system: string) => JSON.parse(readFileSync(join(ROOT, `tests/fixtures/character-${system}-v1.json`), "utf8"));
const LONG = "Ragnhild Sigurdardottir of the Long Winter, ".repeat(6).slice(0, 200);

/** The roster entry's file, imported into a new, empty browser context. */
async function importElsewhere(page: Page, browser: Browser, baseURL: string, entry: string, file: string) {
  await page.getByRole("link", { name: "Characters" }).tap();
  const row = page.locator("li.roster-entry").filter({ hasText: entry });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    (async () => {
      await row.getByRole("button", { name: "Share", exact: true }).tap();
      await page.getByRole("dialog").getByRole("button", { name: "Download file" }).tap();
    })(),
  ]);
  const path = test.info().outputPath(file);
  await download.saveAs(path);
  const fresh = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const other = await fresh.newPage();
  await other.goto("/");
  await appReady(other);
  await other.locator('input[type="file"]').setInputFiles(path);
  await expect(other.getByText("Imported 1 character.")).toBeVisible();
  return { other, fresh, exported: JSON.parse(readFileSync(path, "utf8")) };
}

/** A name at the limit, then Duplicate: the copy's name keeps to 200 characters. */
async function longNameCopied(page: Page) {
  const name = page.getByLabel("Character name");
  await name.fill(LONG);
  await name.blur();
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.locator("li.roster-entry").first().getByRole("button", { name: "Duplicate" }).tap();
  const copy = page.locator("li.roster-entry").filter({ hasText: "(copy)" });
  await expect(copy).toHaveCount(1);
  return copy;
}

test("Heimr: a stamina lowered below its progress and a 200-character name copied come back from the file", async ({ page, browser, baseURL }) => {
  const c = fixture("heimr");
  await seedCharacters(page, [c]);
  await page.getByRole("link", { name: c.name }).tap();
  await mode(page, "Edit");
  // Stamina 1 with progress 5/6: at −1 the next step needs 4, so the progress keeps 3.
  await setNumber(page, "Stamina", -1);
  await expect(page.locator('[data-attr="sta"] .progress-text')).toHaveText("progress 3/4 to 0");
  await longNameCopied(page);
  const { other, fresh, exported } = await importElsewhere(page, browser, baseURL!, "(copy)", "heimr-copy.json");
  expect([...exported.name].length).toBe(200);
  expect(exported.name.endsWith(" (copy)")).toBe(true);
  expect(exported.sheet.attributes[2]).toEqual({ value: -1, progress: 3 });
  await other.locator("li.roster-entry a").first().tap();
  await mode(other, "Edit");
  await expect(other.getByRole("spinbutton", { name: "Stamina", exact: true })).toHaveValue("-1");
  await fresh.close();
});

test("Bo Vogt: a fight with a saved character (its damage type a word, not dice) exports and imports", async ({ page, browser, baseURL }) => {
  const c = fixture("vogt");
  await seedCharacters(page, [c]);
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Tollgate");
  await page.getByLabel("Rule system").selectOption("vogt");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await page.getByRole("button", { name: `Add ${c.name}` }).tap();
  await expect(page.getByTestId("order").locator("li.fighter")).toHaveCount(1);
  await page.getByRole("link", { name: "← Encounters" }).tap();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    (async () => {
      await page.locator(".roster-entry").first().getByRole("button", { name: "Share" }).tap();
      await page.getByRole("dialog").getByRole("button", { name: "Download file" }).tap();
    })(),
  ]);
  const path = test.info().outputPath("tollgate.json");
  await download.saveAs(path);
  const fight = JSON.parse(readFileSync(path, "utf8"));
  // The join is one step: the combatant, then what its sheet holds (its Bleeding status).
  const join = fight.events[0].Join ?? fight.events[0].Batch[0].Join;
  expect(join.texts[1]).toMatch(/^[a-z]+$/);
  const fresh = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const other = await fresh.newPage();
  await other.goto("/combat");
  await appReady(other);
  await other.locator('input[type="file"]').setInputFiles(path);
  await expect(other.getByText("Imported “Tollgate”.")).toBeVisible();
  await expect(other.locator(".roster-entry")).toHaveCount(1);
  await fresh.close();
});

for (const system of ["symbaroum", "aura", "tempo"]) {
  test(`${system}: a copy of a character with a 200-character name comes back from the file whole`, async ({ page, browser, baseURL }) => {
    const c = fixture(system);
    await seedCharacters(page, [c]);
    await page.getByRole("link", { name: c.name }).tap();
    // The copy used to be named 207 characters long: its own file was refused.
    await longNameCopied(page);
    const { other, fresh, exported } = await importElsewhere(page, browser, baseURL!, "(copy)", `${system}-copy.json`);
    expect([...exported.name].length).toBe(200);
    expect(exported.name.endsWith(" (copy)")).toBe(true);
    expect(exported.sheet).toMatchObject(c.sheet);
    await expect(other.locator("li.roster-entry")).toHaveCount(1);
    await expect(other.locator("li.roster-entry")).toContainText("(copy)");
    await fresh.close();
  });
}
