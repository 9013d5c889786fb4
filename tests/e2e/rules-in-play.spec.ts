import { test, expect, seedCharacters, mode, setNumber, row } from "./fixtures";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Issue 24's faults, as a player meets them: Bo Vogt's HP follows the maximum halved by
// exhaustion on the sheet; the damage line says resistance and vulnerability cancel; an Aura
// defence rolled with advantage shows both dice of each pair, in the panel and in the log.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const fixture = (system: string) =>
  JSON.parse(readFileSync(join(ROOT, `tests/fixtures/character-${system}-v1.json`), "utf8"));

test("Bo Vogt: HP follows the halved maximum, and resisted-and-vulnerable damage says they cancel", async ({ page }) => {
  const v = fixture("vogt");
  const c = { ...v, sheet: { ...v.sheet, hp_max: 10, hp: 10, exhaustion: 0, statuses: [] } };
  await seedCharacters(page, [c]);
  await page.goto(`/c/${c.id}`);
  await mode(page, "Play");
  const hp = page.getByRole("spinbutton", { name: "HP", exact: true });
  await expect(hp).toHaveValue("10");
  await setNumber(page, "Exhaustion", 2);
  await expect(hp).toHaveValue("5");
  // Above the maximum is not kept; back to exhaustion 1 the lost HP stay lost.
  await hp.fill("9");
  await hp.press("Enter");
  await expect(hp).toHaveValue("5");
  await setNumber(page, "Exhaustion", 1);
  await expect(hp).toHaveValue("5");
  // A reload finds what was saved.
  await page.reload();
  await expect(page.getByRole("spinbutton", { name: "HP", exact: true })).toHaveValue("5");

  await row(page, "Hand axe").locator("button").tap();
  const d = page.locator("dialog[open]");
  await d.getByLabel("The target resists this type").check();
  await expect(d.getByTestId("damage-odds")).toContainText("resisted: halved");
  await d.getByLabel("The target is vulnerable to it").check();
  await expect(d.getByTestId("damage-odds")).toContainText("they cancel");
  await expect(d.getByTestId("damage-odds")).not.toContainText("halved");
});

test("Aura: a defence rolled with advantage shows both dice of each pair, the kept one first", async ({ page }) => {
  const a = fixture("aura");
  await seedCharacters(page, [a]);
  await page.goto(`/c/${a.id}`);
  await mode(page, "Play");
  await row(page, "Fortitude").locator("button").tap();
  const d = page.locator("dialog[open]");
  await d.locator("select").first().selectOption({ label: "Advantage: best of two" });
  await d.getByTestId("roll-defence").tap();
  const line = (await d.getByTestId("defence-result").textContent())!;
  // "Fortitude: 9 (4 dropped) + … +5 = 14": every roll a pair, the kept one not below the other.
  const pairs = [...line.matchAll(/(\d+) \((\d+) dropped\)/g)];
  expect(pairs.length, line).toBeGreaterThan(0);
  for (const [, kept, dropped] of pairs) expect(Number(kept)).toBeGreaterThanOrEqual(Number(dropped));
  // The log keeps both dice, the dropped one struck through.
  await d.getByRole("button", { name: "Close" }).tap();
  await page.getByRole("link", { name: "Roller" }).tap();
  const entry = page.locator(".log-entry").first();
  await expect(entry.locator(".log-expr")).toContainText("Fortitude 1d10*");
  await expect(entry.locator(".log-expr")).toContainText("(advantage)");
  await expect(entry.locator(".die.dropped")).toHaveCount(pairs.length);
  await expect(entry.locator(".die:not(.dropped)")).toHaveCount(pairs.length);
});
