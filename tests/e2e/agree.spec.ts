import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { test, expect, appReady, mode, setNumber, seedCharacters, fighter, fightSheet as sheet, openFighter as open, closeFighter as close, copiedLink, otherPhone } from "./fixtures";

// A character and its fights agree, in every system: what the fight changes (damage, a
// condition, a resource) is on the saved sheet, what the sheet changes comes into the open
// fight as a logged step; and a fight received by link from a phone whose copy of the
// character is newer keeps the fight's damage, the older copy here following it.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const fixture = (system: string) => JSON.parse(readFileSync(join(ROOT, `tests/fixtures/character-${system}-v1.json`), "utf8"));

/** The saved sheet of character `id`, as stored. */
const stored = (page: Page, id: string) =>
  page.evaluate((id) => JSON.parse(localStorage.getItem(`rollsheet.char.${id}`)!).sheet, id);

/** A new fight of `system` with the character and one NPC, started. */
async function fight(page: Page, system: string, name: string, npc: string) {
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Ambush");
  await page.getByLabel("Rule system").selectOption(system);
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await page.getByRole("button", { name: `Add ${name}` }).tap();
  await page.getByLabel("Name", { exact: true }).fill(npc);
  await page.getByRole("button", { name: `Add ${npc}` }).tap();
  await page.getByTestId("next").tap();
  await expect(fighter(page, name)).toBeVisible();
}

async function addCondition(page: Page, who: string, condition: string) {
  await open(page, who);
  await sheet(page).locator("#cond-name").selectOption(condition);
  await sheet(page).getByTestId("add-condition").tap();
  await close(page);
}

async function damage(page: Page, who: string, n: number) {
  await open(page, who);
  await setNumber(page, "Amount", n);
  await sheet(page).getByTestId("damage").tap();
  await close(page);
}

/** Edits a number on the saved sheet (Play mode) while the fight stays open, then returns to
 * the fight: the change is in it, logged with its reason. */
async function editOnSheet(page: Page, id: string, label: string, value: number) {
  const fightUrl = page.url();
  await page.goto(`/c/${id}`);
  await appReady(page);
  await mode(page, "Play");
  await setNumber(page, label, value);
  await page.goto(fightUrl);
  await appReady(page);
}

const cases = [
  {
    system: "heimr",
    npc: "Bandit",
    // The fight's injury reaches the sheet's conditions; fatigue edited on the sheet comes in.
    inFight: (page: Page, name: string) => addCondition(page, name, "Injured leg"),
    onSheet: (s: any) => expect(s.conditions).toContain("Injured leg"),
    edit: ["Fatigue", "fatigue", 3, 7],
    inRow: (v: number) => `fatigue ${v} `,
  },
  {
    system: "symbaroum",
    npc: "Goblin",
    inFight: (page: Page, name: string) => damage(page, name, 4),
    onSheet: (s: any) => expect(s.toughness).toBe(9),
    edit: ["Toughness", "toughness", 9, 11],
    inRow: (v: number) => `Toughness ${v}/`,
  },
  {
    system: "vogt",
    npc: "Goblin",
    inFight: (page: Page, name: string) => addCondition(page, name, "Frozen"),
    onSheet: (s: any) => expect(s.statuses.sort()).toEqual(["Bleeding", "Frozen"]),
    edit: ["HP", "hp", 9, 5],
    inRow: (v: number) => `HP ${v}/`,
  },
  {
    system: "aura",
    npc: "Gnoll",
    inFight: (page: Page, name: string) => addCondition(page, name, "Exhausted"),
    onSheet: (s: any) => expect(s.conditions.sort()).toEqual(["Exhausted", "Shaken"]),
    edit: ["Stamina", "stamina", 9, 4],
    inRow: (v: number) => `stamina ${v}/`,
  },
  {
    system: "tempo",
    npc: "Brigand",
    inFight: (page: Page, name: string) => damage(page, name, 5),
    onSheet: (s: any) => expect(s.health).toBe(7),
    edit: ["Health", "health", 7, 10],
    inRow: (v: number) => `Health ${v}/`,
  },
] as const;

for (const c of cases) {
  test(`${c.system}: the fight's change is on the saved sheet, the sheet's comes into the fight, undo takes it back`, async ({ page }) => {
    test.setTimeout(90_000);
    const ch = fixture(c.system);
    await seedCharacters(page, [ch]);
    await fight(page, c.system, ch.name, c.npc);

    await c.inFight(page, ch.name);
    await expect.poll(async () => { try { c.onSheet(await stored(page, ch.id)); return true; } catch { return false; } }).toBe(true);

    const [label, key, was, value] = c.edit;
    await editOnSheet(page, ch.id, label, value);
    const line = `${ch.name}, as on the sheet: ${label} ${was} → ${value}`;
    await expect(page.getByTestId("fight-log")).toContainText(line);
    // The fight's own row shows the sheet's value.
    await expect(fighter(page, ch.name)).toContainText(c.inRow(value));
    // Undo takes the sheet's step back, in the fight and on the saved sheet.
    await page.getByRole("button", { name: "Undo" }).tap();
    await expect(page.getByTestId("fight-log")).not.toContainText(line);
    await expect(fighter(page, ch.name)).toContainText(c.inRow(was));
    await expect.poll(async () => (await stored(page, ch.id))[key]).toBe(was);
    // And the fight's own change is still on the sheet.
    c.onSheet(await stored(page, ch.id));
  });
}

// Each system's vital value (its name in the fight, its key on the sheet).
const vitals = { heimr: ["HP", "hp"], symbaroum: ["Toughness", "toughness"], vogt: ["HP", "hp"], aura: ["Aura", "aura"], tempo: ["Health", "health"] } as const;

for (const c of cases) {
  test(`${c.system}: a fight received by link from a phone whose copy is newer keeps the fight's damage`, async ({ page, browser, baseURL }) => {
    test.setTimeout(90_000);
    const ch = fixture(c.system);
    const [label, key] = vitals[c.system];
    const before = ch.sheet[key];
    // Phone A: the character takes 1 in the fight; A's copy follows (newer than B's).
    await seedCharacters(page, [ch]);
    await fight(page, c.system, ch.name, c.npc);
    await damage(page, ch.name, 1);
    await expect.poll(async () => (await stored(page, ch.id))[key]).toBe(before - 1);
    await page.getByRole("link", { name: "Combat" }).tap();
    await page.locator("li.roster-entry").getByRole("button", { name: "Share", exact: true }).first().tap();
    const link = await copiedLink(page);

    // Phone B holds the older copy and opens the link.
    const other = await otherPhone(browser, baseURL);
    await seedCharacters(other.page, [ch]);
    await other.page.goto(link);
    const ask = other.page.getByRole("alertdialog", { name: "Import from a link" });
    await ask.getByRole("button", { name: "Import", exact: true }).tap();
    await expect(other.page.getByText(`From the fight “Ambush”, as it is newer: ${ch.name}: ${label} ${before} → ${before - 1}.`)).toBeVisible();
    await other.page.getByRole("link", { name: "Ambush" }).tap();
    await expect(fighter(other.page, ch.name)).toContainText(`${label} ${before - 1}/`);
    // The fight is shown as it was sent: no step was added to it.
    await expect(other.page.getByTestId("fight-log")).not.toContainText("as on the sheet");
    await expect.poll(async () => (await stored(other.page, ch.id))[key]).toBe(before - 1);
    await other.context.close();
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`a value changed on both sides is asked about, and the answer settles it (${theme})`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: theme });
    const varla = fixture("symbaroum");
    await seedCharacters(page, [varla]);
    await fight(page, "symbaroum", varla.name, "Goblin");
    await damage(page, varla.name, 5);
    await expect.poll(async () => (await stored(page, varla.id)).toughness).toBe(8);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    // Meanwhile, elsewhere: the sheet was healed to 11 and the fight took 2 more (toughness 6).
    await page.evaluate(({ id, cid }) => {
      const ch = JSON.parse(localStorage.getItem(`rollsheet.char.${cid}`)!);
      ch.sheet.toughness = 11;
      ch.updated = Date.now() + 60_000;
      localStorage.setItem(`rollsheet.char.${cid}`, JSON.stringify(ch));
      const e = JSON.parse(localStorage.getItem(`rollsheet.enc.${id}`)!);
      const who = e.agreed[0].who;
      e.events = e.events.slice(0, e.cursor);
      e.events.push({ Damage: [[who], 2] });
      e.cursor = e.events.length;
      localStorage.setItem(`rollsheet.enc.${id}`, JSON.stringify(e));
    }, { id, cid: varla.id });
    await page.reload();
    await appReady(page);
    const ask = page.locator(".notice.ask");
    await expect(ask).toContainText(`The fight “Ambush” and a sheet both changed since they last agreed. ${varla.name}: Toughness 11 on the sheet, 6 in the fight.`);
    await page.screenshot({ path: `test-results/screens/agree-question-${theme}.png` });
    // Nothing moved while asked.
    expect((await stored(page, varla.id)).toughness).toBe(11);
    await ask.getByRole("button", { name: "Keep the fight’s" }).tap();
    await expect.poll(async () => (await stored(page, varla.id)).toughness).toBe(6);
    await expect(page.locator(".notice.ask")).toHaveCount(0);
    // Asked again the other way, the sheet's is kept: a logged step in the fight.
    await page.evaluate((cid) => {
      const ch = JSON.parse(localStorage.getItem(`rollsheet.char.${cid}`)!);
      ch.sheet.toughness = 12;
      ch.updated = Date.now() + 120_000;
      localStorage.setItem(`rollsheet.char.${cid}`, JSON.stringify(ch));
    }, varla.id);
    await page.reload();
    await appReady(page);
    await expect(page.getByTestId("fight-log")).toContainText(`${varla.name}, as on the sheet: Toughness 6 → 12`);
    await page.getByTestId("fight-log").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/agree-log-${theme}.png` });
  });
}
