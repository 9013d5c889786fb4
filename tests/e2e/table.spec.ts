import type { Page, Locator } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { test, expect, seedCharacters, setNumber, fighter, openFighter, closeFighter, fightSheet, otherPhone, turnStatus } from "./fixtures";

// The live table: the GM's fight followed on each player's phone over a direct WebRTC channel,
// paired by codes (here read off the screen as QR codes, or taken as links), with no server.
// Three browser contexts are three phones; they connect over this machine's own addresses.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const base = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-symbaroum-v1.json"), "utf8"));
const character = (id: string, name: string, toughness: number) => ({ ...base, id, name, sheet: { ...base.sheet, toughness } });
// Both have Strong 13: Toughness at most 13.
const VARLA = character("aa00000000000001", "Varla", 13);
const BRAM = character("bb00000000000002", "Bram", 10);

/** The text of a QR code on screen (jsQR on a screenshot of it). */
async function decodeQr(code: Locator): Promise<string> {
  const png = PNG.sync.read(await code.screenshot());
  const text = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
  expect(text, "the code decodes").toBeTruthy();
  return text!;
}

/** The GM's fight: Varla, Bram and a goblin of Toughness 12, started. */
async function gmFight(gm: Page) {
  await seedCharacters(gm, [VARLA, BRAM]);
  await gm.getByRole("link", { name: "Combat" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Ambush");
  await gm.getByRole("button", { name: "Create encounter" }).tap();
  await gm.getByRole("button", { name: "Add Varla" }).tap();
  await gm.getByRole("button", { name: "Add Bram" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Goblin");
  await setNumber(gm, "Toughness", 12);
  await gm.getByRole("button", { name: "Add Goblin" }).tap();
  await gm.getByTestId("next").tap();
  await expect(turnStatus(gm)).toContainText("Round 1");
}

const seat = (gm: Page, n: number) => gm.locator(`li.seat[data-seat="${n}"]`);

/** Pairs a player's phone with the GM's seat `n`: the GM's code to the player, the player's
 * answer back, by QR code or by link. */
async function pair(gm: Page, player: Page, n: number, byQr: boolean) {
  const s = seat(gm, n);
  await expect(s.getByTestId("table-code")).toBeVisible({ timeout: 15_000 });
  const invitation = byQr ? await decodeQr(s.getByTestId("qr")) : await s.getByTestId("table-code").inputValue();
  expect(invitation).toContain("#share=1.");
  await player.goto(invitation);
  await expect(player).toHaveURL(/\/table$/);
  await expect(player.getByTestId("answer-code")).toBeVisible({ timeout: 15_000 });
  const answer = byQr ? await decodeQr(player.getByTestId("qr")) : await player.getByTestId("answer-code").inputValue();
  const paste = gm.getByTestId("answer-paste");
  await paste.fill(answer);
  await paste.blur();
  await expect(player.getByText("Connected to the GM’s phone.")).toBeVisible({ timeout: 15_000 });
}

async function damage(gm: Page, who: string, n: number) {
  await openFighter(gm, who);
  await setNumber(gm, "Amount", n);
  await fightSheet(gm).getByTestId("damage").tap();
  await closeFighter(gm);
}

const row = (p: Page, name: string) => p.getByTestId("table-order").locator("li.fighter").filter({ hasText: name });

test("two players pair with the GM's phone, by QR code and by link, and follow the fight; NPC numbers stay on the GM's phone", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const one = await otherPhone(browser, baseURL);
  const two = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [VARLA]);
  await seedCharacters(two.page, [BRAM]);
  await gmFight(gm);

  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, true);
  await expect(seat(gm, 0)).toContainText("Connected: Varla");
  await gm.getByRole("button", { name: "Add a player" }).tap();
  await pair(gm, two.page, 1, false);
  await expect(seat(gm, 1)).toContainText("Connected: Bram");
  await expect(gm.getByTestId("table-lines")).toContainText("Player 2 joined: Bram.");

  // Each phone shows the round and turn as the GM's does, its own character in full.
  const status = await turnStatus(gm).textContent();
  for (const p of [one.page, two.page]) await expect(p.getByTestId("table-turn")).toHaveText(status!);
  await expect(one.page.getByTestId("own")).toContainText("Varla");
  await expect(one.page.getByTestId("own")).toContainText("Toughness 13/13");
  await expect(two.page.getByTestId("own")).toContainText("Toughness 10/13");
  await expect(row(one.page, "Varla")).toContainText("(you)");
  await expect(row(one.page, "Bram")).toContainText("10/13");

  // The GM hurts the goblin and Varla; the players see it at once, the goblin as a word.
  await damage(gm, "Goblin", 5);
  await expect(fighter(gm, "Goblin")).toContainText("7/12");
  for (const p of [one.page, two.page]) {
    await expect(row(p, "Goblin")).toContainText("hurt");
    await expect(p.getByTestId("table-log")).toContainText("Goblin takes 5 damage: hurt");
  }
  await damage(gm, "Varla", 4);
  await expect(one.page.getByTestId("own")).toContainText("Toughness 9/13");
  await expect(row(two.page, "Varla")).toContainText("9/13");
  await gm.getByTestId("next").tap();
  const next = await turnStatus(gm).textContent();
  expect(next).not.toBe(status);
  for (const p of [one.page, two.page]) await expect(p.getByTestId("table-turn")).toHaveText(next!);

  // The goblin's numbers are nowhere on a player's phone: not on screen, not in what it keeps.
  for (const p of [one.page, two.page]) {
    const everything = await p.evaluate(() => document.body.innerHTML + JSON.stringify(localStorage));
    for (const secret of ["7/12", "12 → 7", "Toughness 12 → 7"]) expect(everything).not.toContain(secret);
    expect(everything).toContain("Goblin");
  }
  await one.context.close();
  await two.context.close();
});

test("a player's phone reloaded mid-fight keeps what it saw, rejoins and catches up; after the GM's reload the fight is kept and players rejoin", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [VARLA]);
  await gmFight(gm);
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  await damage(gm, "Varla", 2);
  await expect(one.page.getByTestId("own")).toContainText("Toughness 11/13");

  // The player's phone reloads: the last view is still there, read-only, with Rejoin.
  await one.page.reload();
  await expect(one.page.getByTestId("own")).toContainText("Toughness 11/13");
  await expect(one.page.getByText(/Disconnected from the GM’s phone/)).toBeVisible();
  await expect(seat(gm, 0)).toContainText("Disconnected", { timeout: 20_000 });
  await expect(gm.getByTestId("table-lines")).toContainText("Player 1 disconnected.");

  // The fight goes on without them; then they rejoin with a new code and catch up.
  await damage(gm, "Goblin", 3);
  await damage(gm, "Varla", 1);
  await one.page.getByRole("button", { name: "Rejoin" }).tap();
  await expect(one.page.getByRole("button", { name: "Scan a code" })).toBeVisible();
  await seat(gm, 0).getByRole("button", { name: "New code" }).tap();
  await pair(gm, one.page, 0, false);
  await expect(one.page.getByTestId("own")).toContainText("Toughness 10/13");
  await expect(one.page.getByTestId("table-log")).toContainText("Goblin takes 3 damage: hurt");
  await expect(gm.getByTestId("table-lines").locator("li")).toHaveText(["Player 1 joined: Varla.", "Player 1 disconnected.", "Player 1 joined: Varla."].reverse());

  // The GM's phone reloads: the fight is stored, the table closed; the player is told, and
  // rejoins a table opened again.
  await gm.reload();
  await expect(fighter(gm, "Varla")).toContainText("10/13");
  await expect(one.page.getByText(/Disconnected from the GM’s phone/)).toBeVisible({ timeout: 20_000 });
  await expect(one.page.getByTestId("own")).toContainText("Toughness 10/13");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await one.page.getByRole("button", { name: "Rejoin" }).tap();
  await pair(gm, one.page, 0, true);
  await damage(gm, "Varla", 1);
  await expect(one.page.getByTestId("own")).toContainText("Toughness 9/13");
  await one.context.close();
});
