import { test, expect, appReady, createCharacter, setNumber, sidewaysOverflow, smallTargets, mode, row } from "./fixtures";
import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";

const createHeimr = (page: Page, name: string) => createCharacter(page, name, "Heimr");

const ability = (page: Page, name: string) => page.locator(`[data-ability="${name}"]`);


/** Everything the app stored, for "nothing changed" checks. */
const storage = (page: Page) => page.evaluate(() => ({ ...localStorage }));

test("create a Heimr character; derived values follow the inputs and survive a reload", async ({ page }) => {
  await createHeimr(page, "Astrid");
  // Play: every ability is one rollable row with C and P, vitals on top, all on the first screen.
  for (const name of ["Brawl", "Agility", "Survival", "Perception", "Persuasion", "Insight"]) {
    await expect(row(page, name)).toBeInViewport();
  }
  await expect(row(page, "Brawl").getByTestId("potential")).toHaveText("0");
  await expect(page.getByRole("spinbutton", { name: "Hit points", exact: true })).toBeInViewport();
  await mode(page, "Edit");
  await setNumber(page, "Strength", 2);
  await expect(ability(page, "Brawl").getByTestId("potential")).toHaveText("2");
  await setNumber(page, "Stamina", -2);
  await expect(page.getByTestId("base-fatigue")).toHaveText("6");
  await page.getByTestId("base-fatigue").tap();
  await expect(page.getByText("4 − stamina (-2) = 6")).toBeVisible();
  await setNumber(page, "Hit points", -2);
  await expect(page.getByTestId("injury")).toHaveText("Mangled");
  // A reload right after an edit (inside the save delay) keeps it: the page flushes on hide.
  await setNumber(page, "Willpower", 1);
  await page.reload();
  // A reload opens Play, where the counters show the saved values.
  await expect(page.getByRole("spinbutton", { name: "Willpower", exact: true })).toHaveValue("1");
  await expect(page.getByRole("spinbutton", { name: "Hit points", exact: true })).toHaveValue("-2");
  await expect(row(page, "Brawl").getByTestId("potential")).toHaveText("2");
  await page.screenshot({ path: "test-results/heimr-play-phone.png", fullPage: true });
  const playHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(playHeight, "Play mode is at most half the old 3,440 px sheet").toBeLessThanOrEqual(1720);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  expect(await smallTargets(page)).toEqual([]);
  await mode(page, "Edit");
  await expect(page.getByRole("spinbutton", { name: "Strength", exact: true })).toHaveValue("2");
  await expect(page.getByTestId("injury")).toHaveText("Mangled");
  await page.screenshot({ path: "test-results/heimr-edit-phone.png", fullPage: true });
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  expect(await smallTargets(page)).toEqual([]);
  await page.setViewportSize({ width: 320, height: 640 });
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
});

test("training spends XP, raises the attribute at its threshold, and undoes exactly", async ({ page }) => {
  await createHeimr(page, "Bo");
  await mode(page, "Advance");
  await setNumber(page, "XP", 200);
  const brawl = ability(page, "Brawl");
  const costs = [5, 10, 15, 25, 40, 65];
  let xp = 200;
  for (const [n, cost] of costs.entries()) {
    await brawl.getByRole("button", { name: `+1 P · ${cost} XP` }).tap();
    const whatIf = brawl.getByRole("region", { name: "What if" });
    await expect(whatIf).toContainText(`costs ${cost} XP, leaving ${xp - cost}`);
    if (n < 5) await expect(whatIf).toContainText(`Strength progress ${n + 1}/6`);
    else {
      await expect(whatIf).toContainText("Strength rises to 1");
      await page.emulateMedia({ colorScheme: "dark" });
      await whatIf.screenshot({ path: "test-results/heimr-what-if-dark.png" });
      await page.emulateMedia({ colorScheme: "light" });
    }
    await whatIf.getByRole("button", { name: "Buy" }).tap();
    xp -= cost;
    await expect(page.getByRole("spinbutton", { name: "XP", exact: true })).toHaveValue(String(xp));
  }
  await expect(page.locator('[data-attr="str"] .progress-text')).toHaveText("progress 0/8 to 2");
  await expect(brawl.getByTestId("potential")).toHaveText("7");
  await page.screenshot({ path: "test-results/heimr-advance-phone.png", fullPage: true });
  await page.getByRole("button", { name: "Undo purchase" }).tap();
  await expect(page.locator('[data-attr="str"] .progress-text')).toHaveText("progress 5/6 to 1");
  await expect(page.getByRole("spinbutton", { name: "XP", exact: true })).toHaveValue(String(xp + 65));
  await expect(brawl.getByTestId("potential")).toHaveText("5");
  // Not enough XP: the what-if says so and Buy is disabled.
  await setNumber(page, "XP", 3);
  await ability(page, "Insight").getByRole("button", { name: "+1 C · 5 XP" }).tap();
  await expect(ability(page, "Insight").getByText("needs 5 XP, 3 available")).toBeVisible();
  await expect(ability(page, "Insight").getByRole("button", { name: "Buy" })).toBeDisabled();
});

test("training can be set directly for a character made on paper, without spending XP", async ({ page }) => {
  await createHeimr(page, "Paper");
  await mode(page, "Advance");
  await setNumber(page, "XP", 12);
  await mode(page, "Edit");
  const brawl = ability(page, "Brawl");
  await setNumber(page, "Trained consistency of Brawl", 2);
  await setNumber(page, "Trained potential of Brawl", 3);
  await expect(brawl.getByTestId("consistency")).toHaveText("2");
  await expect(brawl.getByTestId("potential")).toHaveText("3");
  await mode(page, "Advance");
  await expect(brawl.getByRole("button", { name: "+1 C · 15 XP" })).toBeVisible(); // level 3 next
  await expect(page.getByRole("spinbutton", { name: "XP", exact: true })).toHaveValue("12");
  await expect(page.locator('[data-attr="str"] .progress-text')).toHaveText("progress 0/6 to 1");
});

test("an ability with two attributes lets the player pick which one progresses", async ({ page }) => {
  await createHeimr(page, "Cai");
  await mode(page, "Advance");
  await setNumber(page, "XP", 50);
  await mode(page, "Edit");
  await setNumber(page, "Strength", 3);
  await page.getByText("Add an ability").tap();
  await page.getByLabel("Name", { exact: true }).fill("Climbing");
  await page.locator(".attr-picks").getByText("str").tap();
  await page.locator(".attr-picks").getByText("dex").tap();
  await page.getByRole("button", { name: "Add ability" }).tap();
  const climbing = ability(page, "Climbing");
  await expect(climbing.getByTestId("potential")).toHaveText("1"); // floor((3 + 0) / 2)
  await mode(page, "Advance");
  await climbing.getByRole("button", { name: "+1 C · 5 XP" }).tap();
  await climbing.getByRole("radio", { name: "Dexterity" }).tap();
  await expect(climbing.getByText("Dexterity progress 1/6")).toBeVisible();
  await climbing.getByRole("button", { name: "Buy" }).tap();
  await expect(page.locator('[data-attr="dex"] .progress-text')).toHaveText("progress 1/6 to 1");
});

test("export, then import in a fresh browser profile gives the identical sheet", async ({ page, browser, baseURL }) => {
  await createHeimr(page, "Astrid Ulfsdottir");
  await mode(page, "Edit");
  await setNumber(page, "Strength", 2);
  await mode(page, "Advance");
  await setNumber(page, "XP", 40);
  await ability(page, "Brawl").getByRole("button", { name: "+1 C · 5 XP" }).tap();
  await ability(page, "Brawl").getByRole("button", { name: "Buy" }).tap();
  await mode(page, "Edit");
  await page.getByLabel("Notes").fill("Shield-maiden, “north” & ünïcode 🎲");
  await page.getByLabel("Notes").blur();
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.locator("li.roster-entry").getByRole("button", { name: "Share", exact: true }).first().tap();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("dialog").getByRole("button", { name: "Download file" }).tap()]);
  expect(download.suggestedFilename()).toBe("astrid-ulfsdottir.rollsheet.json");
  const file = test.info().outputPath("astrid.json");
  await download.saveAs(file);
  const exported = JSON.parse(readFileSync(file, "utf8"));
  expect(exported).toMatchObject({ schema_version: 1, system: "heimr", name: "Astrid Ulfsdottir" });

  const fresh = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const other = await fresh.newPage();
  await other.goto("/");
  await appReady(other);
  await other.locator('input[type="file"]').setInputFiles(file);
  await expect(other.getByText("Imported 1 character.")).toBeVisible();
  await other.getByRole("link", { name: "Astrid Ulfsdottir" }).tap();
  await mode(other, "Edit");
  await expect(other.getByRole("spinbutton", { name: "Strength", exact: true })).toHaveValue("2");
  await expect(ability(other, "Brawl").getByTestId("consistency")).toHaveText("1");
  await expect(other.getByLabel("Notes")).toHaveValue("Shield-maiden, “north” & ünïcode 🎲");
  // The imported character is stored byte-for-byte the same (after the short save delay).
  await expect
    .poll(() => other.evaluate((id) => JSON.parse(localStorage.getItem(`rollsheet.char.${id}`) ?? "null"), exported.id))
    .toEqual(exported);
  await fresh.close();
});

test("every bad import is refused with its own message and nothing stored changes", async ({ page }) => {
  await createHeimr(page, "Keeper");
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.waitForTimeout(600); // let the debounced save land
  const before = await storage(page);
  const good = JSON.parse(await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith("rollsheet.char."))!;
    return localStorage.getItem(key)!;
  }));
  const cases: [string, string | object, RegExp][] = [
    ["not json", "hello there", /This is not JSON/],
    ["not rollsheet", { title: "shopping list" }, /not a Rollsheet character or backup/],
    ["unknown system", { ...good, id: "x1", system: "gurps" }, /“gurps”, which this version of Rollsheet does not know/],
    ["newer", { ...good, id: "x2", schema_version: 9 }, /saved by a newer Rollsheet \(format 9/],
    ["out of range", { ...good, id: "x3", sheet: { ...good.sheet, fatigue: 99 } }, /value out of range: fatigue is 99/],
  ];
  for (const [what, body, message] of cases) {
    await page.getByLabel("…or paste exported text").fill(typeof body === "string" ? body : JSON.stringify(body));
    await page.getByRole("button", { name: "Import text" }).tap();
    await expect(page.getByRole("alert").filter({ hasText: message }), what).toBeVisible();
  }
  await page.locator('input[type="file"]').setInputFiles({ name: "big.json", mimeType: "application/json", buffer: Buffer.alloc(16_000_000, 32) });
  await expect(page.getByRole("alert").filter({ hasText: /imports are limited to 15794 KB/ })).toBeVisible();
  expect(await storage(page)).toEqual(before);
  await expect(page.locator(".roster-entry")).toHaveCount(1);
});

test("imports say what is wrong in a player's words, keep the good part of a backup, never overwrite a newer entry", async ({ page }) => {
  await createHeimr(page, "Good");
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.waitForTimeout(600);
  const good = JSON.parse(await page.evaluate(() => localStorage.getItem(Object.keys(localStorage).find((k) => k.startsWith("rollsheet.char."))!)!));
  const paste = async (t: string) => {
    await page.getByLabel("…or paste exported text").fill(t);
    await page.getByRole("button", { name: "Import text" }).tap();
  };
  // A float where a whole number belongs, in a character with a 100 000-character name.
  const huge = { ...good, id: "0000000000000abc", name: "N".repeat(100_000), sheet: { ...good.sheet, hp_max: 1e308 } };
  await paste(JSON.stringify(huge));
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("a decimal number (1e+308) where a whole number belongs");
  expect((await alert.textContent())!.length).toBeLessThan(250);
  await expect(page.locator(".roster-entry")).toHaveCount(1);
  // A backup with one bad character imports the others and names the one left out.
  const ok = { ...good, id: "0000000000000def", name: "Fine" };
  const bad = { ...good, id: "0000000000000bad", name: "Broken", sheet: { ...good.sheet, hp_max: 5000 } };
  await paste(JSON.stringify({ schema_version: 1, exported_at: 1, characters: [bad, ok] }));
  await expect(page.getByRole("status")).toContainText("Imported 1 character. Left out or changed: “Broken” has a value out of range");
  await expect(page.locator(".roster-entry")).toHaveCount(2);
  // An id held by a read-only entry from a newer app: imported beside it, the entry untouched.
  const raw = '{"schema_version":4,"id":"0000000000000f1e","name":"Future","system":"heimr","sheet":{}}';
  await page.evaluate((r) => localStorage.setItem("rollsheet.char.0000000000000f1e", r), raw);
  await page.reload();
  await expect(page.locator(".read-only")).toContainText("Future");
  await paste(JSON.stringify({ ...good, id: "0000000000000f1e", name: "Present" }));
  await expect(page.getByRole("status")).toContainText("“Present” was kept beside the read-only copy from a newer Rollsheet.");
  expect(await page.evaluate(() => localStorage.getItem("rollsheet.char.0000000000000f1e"))).toBe(raw);
  await expect(page.getByRole("link", { name: "Present (imported)" })).toBeVisible();
});

test("an import whose id exists asks: replace or keep both", async ({ page }) => {
  await createHeimr(page, "Twin");
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.waitForTimeout(600);
  const text = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith("rollsheet.char."))!;
    return localStorage.getItem(key)!;
  });
  const paste = async (t: string) => {
    await page.getByLabel("…or paste exported text").fill(t);
    await page.getByRole("button", { name: "Import text" }).tap();
  };
  await paste(text);
  const ask = page.getByRole("alertdialog", { name: "Already on this phone" });
  await expect(ask).toContainText("Twin");
  await ask.getByRole("button", { name: "Cancel" }).tap();
  await expect(page.locator(".roster-entry")).toHaveCount(1);
  await paste(text.replace('"name":"Twin"', '"name":"Twin v2"'));
  await ask.getByRole("button", { name: "Replace" }).tap();
  await expect(page.locator(".roster-entry")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Twin v2" })).toBeVisible();
  await paste(text);
  await ask.getByRole("button", { name: "Keep both" }).tap();
  await expect(page.locator(".roster-entry")).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Twin (imported)" })).toBeVisible();
});

test("rename, duplicate, delete with undo", async ({ page }) => {
  await createHeimr(page, "Original");
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.getByRole("button", { name: "Rename" }).tap();
  await page.getByLabel("New name").fill("Renamed");
  await page.getByRole("button", { name: "Save" }).tap();
  await expect(page.getByRole("link", { name: "Renamed" })).toBeVisible();
  await page.getByRole("button", { name: "Duplicate" }).tap();
  await expect(page.getByRole("link", { name: "Renamed (copy)" })).toBeVisible();
  await page.locator(".roster-entry").filter({ hasText: "Renamed (copy)" }).getByRole("button", { name: "Delete" }).tap();
  await expect(page.locator(".roster-entry")).toHaveCount(1);
  await page.getByRole("button", { name: "Undo" }).tap();
  await expect(page.locator(".roster-entry")).toHaveCount(2);
  await page.reload();
  await expect(page.locator(".roster-entry")).toHaveCount(2);
  await page.locator(".roster-entry").filter({ hasText: "Renamed (copy)" }).getByRole("button", { name: "Delete" }).tap();
  await page.reload();
  await expect(page.locator(".roster-entry")).toHaveCount(1);
});

test("an unreadable entry is set aside, listed in Settings, and deleted only on request", async ({ page }) => {
  await page.goto("/");
  // The app has loaded (and scanned storage) before the broken entry is written.
  await appReady(page);
  await page.evaluate(() => localStorage.setItem("rollsheet.char.broken", '{"schema_version":1,"id":"broken"'));
  await page.reload();
  await expect(page.getByRole("alert").filter({ hasText: "could not be read" })).toBeVisible();
  await page.getByRole("link", { name: "Settings" }).tap();
  const item = page.locator(".quarantine li");
  await expect(item).toHaveCount(1);
  await item.getByRole("button", { name: "View" }).tap();
  await expect(item.locator("pre")).toHaveText('{"schema_version":1,"id":"broken"');
  page.once("dialog", (d) => d.dismiss());
  await item.getByRole("button", { name: "Delete" }).tap();
  await expect(item).toHaveCount(1);
  page.once("dialog", (d) => d.accept());
  await item.getByRole("button", { name: "Delete" }).tap();
  await expect(item).toHaveCount(0);
  expect(Object.keys(await storage(page)).filter((k) => k.includes("quarantine"))).toEqual([]);
});

test("a sheet from a newer app is shown read-only and left untouched", async ({ page }) => {
  const raw = '{"schema_version":4,"id":"f1","name":"Future Hero","system":"heimr","sheet":{}}';
  await page.goto("/");
  await appReady(page);
  await page.evaluate((r) => localStorage.setItem("rollsheet.char.f1", r), raw);
  await page.reload();
  await expect(page.locator(".read-only")).toContainText("Future Hero");
  await expect(page.locator(".read-only")).toContainText("Read-only");
  expect(await page.evaluate(() => localStorage.getItem("rollsheet.char.f1"))).toBe(raw);
});

test("another tab's edit shows up in this tab", async ({ page, context }) => {
  await createHeimr(page, "Shared");
  const url = page.url();
  const other = await context.newPage();
  await other.goto(url);
  await appReady(other);
  await mode(page, "Edit");
  await mode(other, "Edit");
  await setNumber(other, "Strength", 4);
  await expect(page.getByRole("spinbutton", { name: "Strength", exact: true })).toHaveValue("4", { timeout: 5000 });
});

test("XP is shared among those present, rounded down, the rest carried", async ({ page }) => {
  await createHeimr(page, "One");
  await createHeimr(page, "Two");
  await createHeimr(page, "Three");
  await page.getByRole("link", { name: "Characters" }).tap();
  const share = page.locator(".xp-share");
  await share.getByLabel("Encounter XP").fill("10");
  for (const n of ["One", "Two", "Three"]) await share.getByText(n, { exact: true }).tap();
  await expect(share.getByTestId("xp-preview")).toHaveText(/Each gets 3 XP; 1 carried/);
  await share.getByRole("button", { name: "Share" }).tap();
  await expect(page.locator(".roster-entry").filter({ hasText: "One" })).toContainText("3 XP");
  await share.getByLabel("Encounter XP").fill("5");
  for (const n of ["One", "Two", "Three"]) await share.getByText(n, { exact: true }).tap();
  await share.getByText("One", { exact: true }).tap();
  await share.getByText("Two", { exact: true }).tap();
  await expect(share.getByTestId("xp-preview")).toHaveText(/Each gets 3 XP; 0 carried to the next share \(including 1 carried/);
  await share.getByRole("button", { name: "Share" }).tap();
  // The remainder was paid out once: Three, absent from that share, carries nothing of it.
  await page.reload();
  await share.getByLabel("Encounter XP").fill("0");
  await share.getByText("Three", { exact: true }).tap();
  await expect(share.getByTestId("xp-preview")).toHaveText(/Each gets 0 XP; 0 carried to the next share \(including 0 carried/);
});

test("delete, import the character's own export, then Undo: one copy, before and after a reload", async ({ page }) => {
  await createHeimr(page, "Twice");
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.locator("li.roster-entry").getByRole("button", { name: "Share", exact: true }).first().tap();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("dialog").getByRole("button", { name: "Download file" }).tap()]);
  const file = test.info().outputPath("twice.json");
  await download.saveAs(file);
  await page.locator(".roster-entry").filter({ hasText: "Twice" }).getByRole("button", { name: "Delete" }).tap();
  await expect(page.locator(".roster-entry")).toHaveCount(0);
  await page.locator('input[type="file"]').setInputFiles(file);
  await expect(page.getByText("Imported 1 character.")).toBeVisible();
  // The import took the deleted copy's place: no Undo left to bring back a second one.
  await expect(page.getByRole("button", { name: "Undo" })).toHaveCount(0);
  await expect(page.locator(".roster-entry")).toHaveCount(1);
  const ids = () => page.evaluate(() => JSON.parse(localStorage.getItem("rollsheet.characters")!).ids as string[]);
  expect(new Set(await ids()).size).toBe((await ids()).length);
  await page.reload();
  await expect(page.locator(".roster-entry")).toHaveCount(1);
  // Deleting it again really deletes it.
  await page.locator(".roster-entry").filter({ hasText: "Twice" }).getByRole("button", { name: "Delete" }).tap();
  await page.reload();
  await expect(page.locator(".roster-entry")).toHaveCount(0);
});

test("text typed but not committed (the field not left) survives a reload and leaving the page", async ({ page }) => {
  await createHeimr(page, "Drafty");
  await mode(page, "Edit");
  await page.getByLabel("Notes").fill("typed, never left the field");
  await page.reload();
  await appReady(page);
  await mode(page, "Edit");
  await expect(page.getByLabel("Notes")).toHaveValue("typed, never left the field");
  await page.getByLabel("Character name").fill("Drafty Renamed");
  await page.reload();
  await appReady(page);
  await expect(page.getByLabel("Character name")).toHaveValue("Drafty Renamed");
  // Leaving the page by the navigation keeps it too.
  await mode(page, "Edit");
  await page.getByLabel("Notes").fill("and on leaving");
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.reload();
  await page.getByRole("link", { name: "Drafty Renamed" }).tap();
  await mode(page, "Edit");
  await expect(page.getByLabel("Notes")).toHaveValue("and on leaving");
});

test("a share counts only characters that still exist and never passes what a sheet may hold", async ({ page }) => {
  await createHeimr(page, "Keeps");
  await createHeimr(page, "Goes");
  await page.getByRole("link", { name: "Characters" }).tap();
  const share = page.locator(".xp-share");
  await share.getByLabel("Encounter XP").fill("10");
  for (const n of ["Keeps", "Goes"]) await share.getByText(n, { exact: true }).tap();
  await expect(share.getByTestId("xp-preview")).toHaveText(/Each gets 5 XP/);
  // Goes is deleted after being ticked: its share is not lost, Keeps gets all 10.
  await page.locator(".roster-entry").filter({ hasText: "Goes" }).getByRole("button", { name: "Delete" }).tap();
  await expect(share.getByTestId("xp-preview")).toHaveText(/Each gets 10 XP; 0 carried/);
  await share.getByRole("button", { name: "Share" }).tap();
  await expect(page.locator(".roster-entry").filter({ hasText: "Keeps" })).toContainText("10 XP");
  // More than a sheet may hold (10 000 000): refused, nothing changes, the export still imports.
  await share.getByLabel("Encounter XP").fill("4294967290");
  await share.getByRole("button", { name: "Share" }).tap();
  await expect(share.getByRole("status")).toHaveText("Not shared: Keeps: it would pass 10000000 XP. Nothing was changed.");
  await page.reload();
  await expect(page.locator(".roster-entry").filter({ hasText: "Keeps" })).toContainText("10 XP");
});

test("settings tracks the last full backup and suggests one when due", async ({ page }) => {
  await createHeimr(page, "Backed");
  await page.getByRole("link", { name: "Settings" }).tap();
  await expect(page.getByTestId("last-backup")).toHaveText(/No full backup yet/);
  await expect(page.getByTestId("backup-nudge")).toBeVisible();
  await expect(page.getByTestId("persisted")).not.toHaveText(/Checking/);
  await page.getByRole("link", { name: "Characters" }).tap();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export all" }).tap()]);
  expect(download.suggestedFilename()).toMatch(/^rollsheet-backup-\d{4}-\d\d-\d\d\.json$/);
  const backup = JSON.parse(readFileSync(await download.path(), "utf8"));
  expect(backup.schema_version).toBe(1);
  expect(backup.characters.map((c: { name: string }) => c.name)).toEqual(["Backed"]);
  await page.getByRole("link", { name: "Settings" }).tap();
  const today = await page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  });
  await expect(page.getByTestId("last-backup")).toHaveText(`Last full backup: ${today}.`);
  await expect(page.getByTestId("backup-nudge")).toHaveCount(0);
  // Fifteen days later the suggestion is back.
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem("rollsheet.settings")!);
    s.last_backup -= 15 * 24 * 3600 * 1000;
    localStorage.setItem("rollsheet.settings", JSON.stringify(s));
  });
  await page.reload();
  await expect(page.getByTestId("backup-nudge")).toBeVisible();
});
