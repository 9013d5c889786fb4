import { test, expect, seedCharacters, mode, setNumber } from "./fixtures";
import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Every roll of every system reaches the shared roll log (SPEC §1.3): for each system's saved
// character, every roll row of Play is opened and every roll button in its sheet is tapped,
// and each tap must add an entry under the character's name. Then the rolls outside the rows
// (dying, healing dice, the death and dismemberment table) are brought about and tapped too.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const fixture = (system: string) =>
  JSON.parse(readFileSync(join(ROOT, `tests/fixtures/character-${system}-v1.json`), "utf8"));
const SYSTEMS = ["heimr", "symbaroum", "vogt", "aura", "tempo"];

type Entry = { who: string | null; expr: string };
const logged = (page: Page) =>
  page.evaluate(() => {
    const raw = localStorage.getItem("rollsheet.rolllog");
    return raw ? (JSON.parse(raw).entries as Entry[]) : [];
  });

/** Taps `button` and expects at least one new log entry under `who`; returns the new ones. */
async function rollsLogged(page: Page, button: import("@playwright/test").Locator, who: string, what: string) {
  const before = (await logged(page)).length;
  await button.tap();
  await expect.poll(async () => (await logged(page)).length, { message: `${who}: ${what} logs its roll` }).toBeGreaterThan(before);
  const all = await logged(page);
  const fresh = all.slice(0, all.length - before); // newest first
  for (const e of fresh) expect(e.who, `${what}: ${e.expr}`).toBe(who);
  return fresh;
}

// The roll buttons of a roll sheet: the kit's roll button, and the chance / initiative pair.
const ROLL_BUTTONS = ".roll-btn, [data-testid=roll-chance], [data-testid=roll-initiative-d20]";

for (const system of SYSTEMS) {
  test(`${system}: every roll row's rolls reach the roll log`, async ({ page }) => {
    test.setTimeout(90_000);
    const c = fixture(system);
    await seedCharacters(page, [c]);
    await page.goto(`/c/${c.id}`);
    await mode(page, "Play");
    const rows = page.locator(".roll-rows [data-row]");
    const n = await rows.count();
    // Rolls drawn on the page itself (Tempo's check panel), outside any roll sheet.
    const inline = page.locator(`main ${ROLL_BUTTONS.split(", ").join(", main ")}`);
    const m = await inline.count();
    expect(n + m, "the sheet has rolls").toBeGreaterThan(0);
    let tapped = 0;
    for (let j = 0; j < m; j++) {
      await rollsLogged(page, inline.nth(j), c.name, `${await inline.nth(j).textContent()}`);
      tapped++;
    }
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      const name = await row.getAttribute("data-row");
      await row.locator("button").first().tap();
      const sheet = page.locator("dialog[open]");
      await expect(sheet).toBeVisible();
      const buttons = sheet.locator(ROLL_BUTTONS);
      const k = await buttons.count();
      expect(k, `${name} has a roll button`).toBeGreaterThan(0);
      for (let j = 0; j < k; j++) {
        const b = buttons.nth(j);
        if (await b.isDisabled()) continue;
        await rollsLogged(page, b, c.name, `${name} / ${await b.textContent()}`);
        tapped++;
      }
      await sheet.getByRole("button", { name: "Close" }).tap();
      await expect(page.locator("dialog[open]")).toHaveCount(0);
    }
    expect(tapped).toBeGreaterThanOrEqual(n + m);
  });
}

test("the rolls outside the rows reach the roll log too: dying, healing dice, tables", async ({ page }) => {
  test.setTimeout(60_000);
  const [aura, sym, vogt] = ["aura", "symbaroum", "vogt"].map(fixture);
  await seedCharacters(page, [aura, sym, vogt]);

  // Aura at 0 aura: the death roll, then (bleeding out) the death save.
  await page.goto(`/c/${aura.id}`);
  await mode(page, "Play");
  await setNumber(page, "Aura", 0);
  await expect(page.getByTestId("death-tables")).toContainText("15–19 winded 25.0%");
  const chip = page.locator(".chips.toggles .chip", { hasText: "Bleeding out" });
  if ((await chip.getAttribute("aria-pressed")) !== "true") await chip.tap();
  await rollsLogged(page, page.getByTestId("death-roll"), aura.name, "death roll");
  // The roll may kill her (the d20 decides): then she is brought back as stored, at 0 again.
  if (await page.getByTestId("death-save").count() === 0) {
    await seedCharacters(page, [aura, sym, vogt]);
    await page.goto(`/c/${aura.id}`);
    await mode(page, "Play");
    await setNumber(page, "Aura", 0);
  }
  if ((await chip.getAttribute("aria-pressed")) !== "true") await chip.tap();
  await rollsLogged(page, page.getByTestId("death-save"), aura.name, "death save");

  // Symbaroum: Medicus heals with a d4, and a dying character's death test.
  await page.goto(`/c/${sym.id}`);
  await mode(page, "Play");
  const medicus = await rollsLogged(page, page.getByRole("button", { name: "Medicus (+1d4)" }), sym.name, "Medicus");
  expect(medicus[0]!.expr).toBe("Medicus 1d4");
  await setNumber(page, "Toughness", 0);
  await rollsLogged(page, page.getByRole("button", { name: "Roll death test" }), sym.name, "death test");

  // Bo Vogt: from exhaustion 4, the death and dismemberment table.
  await page.goto(`/c/${vogt.id}`);
  await mode(page, "Play");
  await setNumber(page, "Exhaustion", 4);
  await rollsLogged(page, page.getByTestId("roll-table"), vogt.name, "d8 table");
});
