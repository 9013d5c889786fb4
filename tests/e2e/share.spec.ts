import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { test, expect, appReady, createCharacter, mode, setNumber, smallTargets, copiedLink, otherPhone } from "./fixtures";

// Share by link: a sheet or an encounter handed to another phone as a link or a QR code, with
// nothing in between. "Another phone" is a second browser context with empty storage.

/** The text a QR code on screen decodes to (jsQR on a screenshot of the code, test only). */
async function decodeQr(page: Page): Promise<string | undefined> {
  const png = PNG.sync.read(await page.getByTestId("qr").screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

const stored = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("rollsheet.char.")).length);

test("a character's link, opened on another phone, imports only after the player confirms", async ({ page, browser, baseURL }) => {
  await createCharacter(page, "Astrid Ulfsdottir", "Heimr");
  await mode(page, "Edit");
  await setNumber(page, "Strength", 3);
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.locator("li.roster-entry").getByRole("button", { name: "Share", exact: true }).first().tap();
  const dialog = page.getByRole("dialog", { name: "Share “Astrid Ulfsdottir”" });
  await expect(dialog.getByTestId("share-status")).toContainText("Link:");
  expect(await smallTargets(page)).toEqual([]);
  const status = await dialog.getByTestId("share-status").textContent();
  const shown = await decodeQr(page);
  const link = await copiedLink(page);
  expect(link).toMatch(new RegExp(`^${baseURL}/#share=1\\.[A-Za-z0-9_-]+$`));
  // The code on screen is the same link.
  expect(shown).toBe(link);
  const [, length, version] = status!.match(/Link: (\d+) characters · QR version (\d+)/)!;
  expect(Number(length)).toBe(link.length);
  console.log(`share: typical Heimr sheet link ${link.length} characters, QR version ${version}`);

  const other = await otherPhone(browser, baseURL);
  await other.page.goto(link);
  const ask = other.page.getByRole("alertdialog", { name: "Import from a link" });
  await expect(ask).toContainText("A link holds “Astrid Ulfsdottir” (Heimr).");
  // On the first screen, its first answer focused, though the Import card is far down.
  await expect(ask).toBeInViewport();
  await expect(ask.getByRole("button", { name: "Import", exact: true })).toBeFocused();
  await other.page.waitForTimeout(800); // longer than the roster's save delay
  expect(await stored(other.page), "nothing stored before the player confirms").toBe(0);
  expect(await other.page.evaluate(() => localStorage.getItem("rollsheet.characters"))).toBeNull();
  await expect(other.page.locator("li.roster-entry")).toHaveCount(0);
  await ask.getByRole("button", { name: "Import", exact: true }).tap();
  await expect(other.page.getByText("Imported 1 character.")).toBeVisible();
  expect(new URL(other.page.url()).hash, "the fragment leaves the address bar").toBe("");
  await other.page.getByRole("link", { name: "Astrid Ulfsdottir" }).tap();
  await mode(other.page, "Edit");
  await expect(other.page.getByRole("spinbutton", { name: "Strength", exact: true })).toHaveValue("3");

  // The same link again: the id is known, so replace or keep both.
  await other.page.goto(link);
  const again = other.page.getByRole("alertdialog", { name: "Already on this phone" });
  await expect(again).toContainText("Already on this phone: Astrid Ulfsdottir");
  await again.getByRole("button", { name: "Keep both" }).tap();
  await expect(other.page.getByRole("link", { name: "Astrid Ulfsdottir" })).toHaveCount(2);
  await expect.poll(() => stored(other.page)).toBe(2);

  // Cancelled: nothing changes, and the link leaves the address bar.
  await other.page.goto(link);
  await other.page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).tap();
  await expect(other.page.getByText("Import cancelled; nothing changed.")).toBeVisible();
  expect(await stored(other.page)).toBe(2);
  expect(new URL(other.page.url()).hash).toBe("");
  await other.context.close();
});

test("a link pasted into the import box runs the same import", async ({ page, browser, baseURL }) => {
  await createCharacter(page, "Bo", "Bo Vogt");
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.locator("li.roster-entry").getByRole("button", { name: "Share", exact: true }).first().tap();
  const link = await copiedLink(page);
  const other = await otherPhone(browser, baseURL);
  await other.page.goto("/");
  await appReady(other.page);
  await other.page.getByLabel("…or paste exported text or a link").fill(link);
  await other.page.getByRole("button", { name: "Import text" }).tap();
  const ask = other.page.getByRole("alertdialog", { name: "Import from a link" });
  await expect(ask).toContainText("“Bo” (Bo Vogt");
  await ask.getByRole("button", { name: "Import", exact: true }).tap();
  await expect(other.page.getByRole("link", { name: "Bo", exact: true })).toBeVisible();
  await other.context.close();
});

test("an encounter's link lands on the Combat page and imports after confirmation", async ({ page, browser, baseURL }) => {
  await page.goto("/combat");
  await appReady(page);
  await page.getByLabel("Name", { exact: true }).fill("Bridge ambush");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.locator("li.roster-entry").getByRole("button", { name: "Share", exact: true }).first().tap();
  await expect(page.getByTestId("share-status")).toContainText("Link:");
  const shown = await decodeQr(page);
  const link = await copiedLink(page);
  expect(shown).toBe(link);

  const other = await otherPhone(browser, baseURL);
  await other.page.goto("/");
  await appReady(other.page);
  await other.page.goto(link);
  // The link's entry becomes the Combat page's, the fragment kept until the answer.
  await expect(other.page).toHaveURL(/\/combat#share=1\./);
  const ask = other.page.getByRole("alertdialog", { name: "Import from a link" });
  await expect(ask).toContainText("A link holds the encounter “Bridge ambush”.");
  await expect(ask).toBeInViewport();
  expect(await other.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("rollsheet.enc.")).length)).toBe(0);
  await ask.getByRole("button", { name: "Import", exact: true }).tap();
  await expect(other.page.getByText("Imported “Bridge ambush”.")).toBeVisible();
  await expect(other.page.getByRole("link", { name: "Bridge ambush" })).toBeVisible();
  await expect(other.page).toHaveURL(/\/combat$/);
  // Back leaves for the page before the link, without asking again.
  await other.page.goBack();
  await expect(other.page).toHaveURL(/\/$/);
  await expect(other.page.getByRole("heading", { name: "Characters" })).toBeVisible();
  await expect(other.page.getByRole("alertdialog")).toHaveCount(0);
  await other.context.close();
});

test("damaged, newer and oversized links are refused with a message and store nothing", async ({ page }) => {
  await page.goto("/#share=1.eJyrVkrOTS1RsqpWKkktLlGyUsrJT1Qqzs9NzVWqBQA");
  await appReady(page);
  await expect(page.getByRole("alert").filter({ hasText: "damaged or cut short" })).toBeVisible();
  expect(new URL(page.url()).hash).toBe("");
  await page.goto("/#share=7.AAAA");
  await expect(page.getByRole("alert").filter({ hasText: "newer Rollsheet (link format 7)" })).toBeVisible();
  // A valid link whose character is out of range: the file importer's own message.
  const bad = await page.evaluate(async () => {
    const doc = { schema_version: 1, id: "x", system: "heimr", name: "Bad", notes: "", created: 0, updated: 0, sheet: { attributes: "no" } };
    const s = new Blob([JSON.stringify(doc)]).stream().pipeThrough(new CompressionStream("deflate"));
    const bytes = new Uint8Array(await new Response(s).arrayBuffer());
    const b64 = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return `/#share=1.${b64}`;
  });
  await page.goto(bad);
  await expect(page.getByRole("alert").filter({ hasText: "“Bad” is damaged or incomplete" })).toBeVisible();
  expect(await stored(page)).toBe(0);
});

test("a backup too large for one QR code says so and offers the file", async ({ page }) => {
  await page.goto("/");
  await appReady(page);
  // Forty characters with notes that do not compress (random letters).
  const fixture = JSON.parse(readFileSync(new URL("../fixtures/character-symbaroum-v1.json", import.meta.url), "utf8"));
  await page.evaluate((base) => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = `big${i}`;
      ids.push(id);
      const notes = Array.from(crypto.getRandomValues(new Uint8Array(120)), (b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]).join("");
      localStorage.setItem(`rollsheet.char.${id}`, JSON.stringify({ ...base, id, name: `Char ${i}`, notes }));
    }
    localStorage.setItem("rollsheet.characters", JSON.stringify({ schema_version: 1, ids }));
  }, fixture);
  await page.reload();
  await appReady(page);
  const dialog = page.getByRole("dialog");
  await expect(page.getByText("No full backup yet.")).toBeVisible();
  await page.getByRole("button", { name: "Link for all" }).tap();
  await expect(dialog.getByTestId("share-status")).toContainText("too long for one QR code");
  await expect(dialog.getByTestId("qr")).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download file" }).tap()]);
  expect(download.suggestedFilename()).toMatch(/^rollsheet-backup-\d{4}-\d{2}-\d{2}\.json$/);
  // Sent as a file, a backup of all counts as the last backup.
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Last full backup: \d{4}-\d{2}-\d{2}\.$/)).toBeVisible();
});

test("Scan a code: the camera and the browser's reader where both exist, advice elsewhere", async ({ page, browser, baseURL }) => {
  await createCharacter(page, "Scanned", "Heimr");
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.locator("li.roster-entry").getByRole("button", { name: "Share", exact: true }).first().tap();
  const link = await copiedLink(page);

  // This Chromium has no BarcodeDetector: the button explains the camera app instead.
  const plain = await otherPhone(browser, baseURL);
  await plain.page.goto("/");
  await appReady(plain.page);
  expect(await plain.page.evaluate(() => "BarcodeDetector" in globalThis)).toBe(false);
  await plain.page.getByRole("button", { name: "Scan a code" }).tap();
  await expect(plain.page.getByText("Point the phone’s camera app at the code")).toBeVisible();
  await plain.context.close();

  // A phone that has both: a stand-in camera (a canvas stream) and a reader that sees the link.
  const scanner = await otherPhone(browser, baseURL);
  await scanner.context.addInitScript((seen) => {
    (globalThis as any).BarcodeDetector = class {
      async detect() {
        return (globalThis as any).seeNothing ? [] : [{ rawValue: "https://elsewhere.example/not-ours" }, { rawValue: seen }];
      }
    };
    navigator.mediaDevices.getUserMedia = async () => {
      const c = document.createElement("canvas");
      c.getContext("2d")!.fillRect(0, 0, 10, 10);
      return ((globalThis as any).cameraStream = c.captureStream());
    };
  }, link);
  await scanner.page.goto("/");
  await appReady(scanner.page);
  // Nothing in view: the camera runs until Stop scanning, which turns it off.
  await scanner.page.evaluate(() => ((globalThis as any).seeNothing = true));
  await scanner.page.getByRole("button", { name: "Scan a code" }).tap();
  const stop = scanner.page.getByRole("button", { name: "Stop scanning" });
  await expect(stop).toBeVisible();
  await expect(scanner.page.getByRole("button", { name: "Scan a code" }), "one scan at a time").toBeHidden();
  await stop.tap();
  await expect(stop).toBeHidden();
  expect(await scanner.page.evaluate(() => (globalThis as any).cameraStream.getTracks().every((t: MediaStreamTrack) => t.readyState === "ended"))).toBe(true);
  await scanner.page.evaluate(() => ((globalThis as any).seeNothing = false));
  await scanner.page.getByRole("button", { name: "Scan a code" }).tap();
  const ask = scanner.page.getByRole("alertdialog", { name: "Import from a link" });
  await expect(ask).toContainText("“Scanned” (Heimr)");
  await expect(scanner.page.getByRole("button", { name: "Stop scanning" })).toBeHidden();
  expect(await scanner.page.evaluate(() => (globalThis as any).cameraStream.getTracks().every((t: MediaStreamTrack) => t.readyState === "ended")), "the camera is off").toBe(true);
  await ask.getByRole("button", { name: "Import", exact: true }).tap();
  await expect(scanner.page.getByRole("link", { name: "Scanned" })).toBeVisible();
  await scanner.context.close();
});
