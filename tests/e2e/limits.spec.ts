import { test, expect, appReady, createCharacter, mode } from "./fixtures";

// The limits of the phone's storage, tried as a player would: a full storage never crashes the
// app, and a backup of several megabytes made by the app imports again.

test("a full storage keeps the edit on the page, says so, and saves it once there is room", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await createCharacter(page, "Crowded", "Heimr");
  const id = page.url().split("/c/")[1];
  await mode(page, "Edit");
  // Fill localStorage to the brim (the app's own entries stay).
  const filled = await page.evaluate(() => {
    let n = 0;
    for (let size = 1 << 20; size >= 16; size >>= 1) {
      const chunk = "x".repeat(size);
      try {
        for (;;) { localStorage.setItem(`filler.${n}`, chunk); n++; }
      } catch { /* full at this size: try smaller */ }
    }
    return n;
  });
  expect(filled).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Increase Strength", exact: true }).tap();
  await expect(page.getByRole("spinbutton", { name: "Strength", exact: true })).toHaveValue("1");
  await expect(page.getByRole("alert").filter({ hasText: /Saving failed/ })).toBeVisible({ timeout: 5_000 });
  await expect(page.locator("#fatal")).toBeHidden();
  // Free the space: the retry saves the edit without another tap.
  await page.evaluate(() => { for (const k of Object.keys(localStorage)) if (k.startsWith("filler.")) localStorage.removeItem(k); });
  await expect.poll(async () => page.evaluate((key) => JSON.parse(localStorage.getItem(key) || "{}").sheet?.attributes?.[0]?.value, `rollsheet.char.${id}`), { timeout: 10_000 }).toBe(1);
  await page.reload();
  await appReady(page);
  await mode(page, "Edit");
  await expect(page.getByRole("spinbutton", { name: "Strength", exact: true })).toHaveValue("1");
  expect(errors).toEqual([]);
});

test("a backup of several megabytes made by the app imports again", async ({ page }) => {
  await createCharacter(page, "Template", "Heimr");
  // The character as the app stored it (saves are debounced: wait for it).
  const key = `rollsheet.char.${page.url().split("/c/")[1]}`;
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k) !== null, key)).toBe(true);
  const one = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)!), key);
  const characters = Array.from({ length: 300 }, (_, i) => ({ ...one, id: `big${i}`, name: `NPC ${i}`, notes: "ü🎲".repeat(2000) }));
  const text = JSON.stringify({ schema_version: 1, exported_at: 0, characters });
  expect(text.length).toBeGreaterThan(1_500_000);
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.locator('input[type="file"]').setInputFiles({ name: "backup.json", mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(page.getByText("Imported 300 characters.")).toBeVisible({ timeout: 15_000 });
  await expect(page.locator(".roster-entry")).toHaveCount(301);
});
