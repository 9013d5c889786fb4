import { test, expect, appReady, setNumber, sidewaysOverflow, seedCharacters, fighter, fightSheet as sheet, openFighter as open, closeFighter as close, mode } from "./fixtures";
import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The Tempo system on a 390×844 phone: two combatants start Off Guard and On Guard; the Off
// Guard one cannot attack and readies; a melee attack draws a parry that ends at exactly 0 and
// binds both; in the bind only the bound actions are offered; a feint replaced by a
// counter-attack pays the larger cost and gets +3; recovery at the end of a turn regains the
// AP of the table, from a balance a reaction took below 0. Every chance shown is compared with
// an enumeration of the dice done here.
//
// The dice: the app draws its randomness from crypto.getRandomValues in blocks of 256 bytes
// (64 words). Once the test has put the faces it plans in sessionStorage and reloaded, the
// init script answers the page's first such block with them (each word chosen so the app's
// unbiased d10 gives that face) and every other request with real randomness: the rolls are
// scripted at the browser boundary, and the app's code is the one that ships.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const base = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-tempo-v1.json"), "utf8"));
const ILSE = { ...base, id: "tt00000000000001" };

/** d10 faces in roll order: attack 5 vs parry 7; withdraw 9 vs wind 2; counter-attack 8 vs parry 2. */
const FACES = [5, 7, 9, 2, 8, 2];

async function scriptDice(page: Page) {
  await page.addInitScript(() => {
    const real = crypto.getRandomValues.bind(crypto);
    let done = false;
    (crypto as { getRandomValues: unknown }).getRandomValues = <T extends ArrayBufferView | null>(arr: T): T => {
      const planned = sessionStorage.getItem("__faces");
      if (!done && planned && arr && arr.byteLength === 256) {
        done = true;
        const faces: number[] = JSON.parse(planned);
        real(arr);
        const view = new DataView(arr.buffer, arr.byteOffset, 256);
        faces.forEach((f, i) => {
          // The smallest word w with ⌊w·10 / 2³²⌋ = f − 1, plus 2 so the low part is past the
          // rejection threshold.
          const w = Math.ceil(((f - 1) * 2 ** 32) / 10) + 2;
          view.setUint32(i * 4, w, true);
        });
        return arr;
      }
      return real(arr as ArrayBufferView) as T;
    };
  });
}

/** Each row's exact chance: own 1d10 + a less the other's 1d10 + b, by the app's tables. */
function rows(a: number, b: number, table: [string, number][], opposed = true): Map<string, number> {
  const out = new Map<string, number>(table.map(([n]) => [n, 0]));
  const others = opposed ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [null];
  for (let x = 1; x <= 10; x++)
    for (const y of others) {
      const net = x + a - (y === null ? 0 : y + b);
      let name = table[0]![0];
      for (const [n, t] of table) if (net >= t) name = n;
      out.set(name, out.get(name)! + 1 / (10 * others.length));
    }
  return out;
}

/** The shown percentage of a row equals p (one decimal, or the exact 0% / 100%). */
function check(shown: string, part: string, expected: Map<string, number>) {
  for (const [name, p] of expected) {
    const m = part.match(new RegExp(`${name} ([0-9.]+%)`));
    expect(m, `${name} in ${part}`).not.toBeNull();
    const s = m![1]!;
    if (p === 1) expect(s).toBe("100%");
    else if (p === 0) expect(s).toBe("0%");
    else expect(Math.abs(parseFloat(s) - p * 100), `${name}: ${s} vs ${p} in ${shown}`).toBeLessThanOrEqual(0.051);
  }
}

async function odds(page: Page) {
  const t = (await sheet(page).getByTestId("exchange-odds").textContent())!;
  const [mine, theirs] = t.split("\n");
  return { t, mine: mine!, theirs: theirs ?? "" };
}

test("a Tempo exchange: statuses, the bind, a feint turned counter-attack, and recovery", async ({ page }) => {
  test.setTimeout(120_000);
  await scriptDice(page);
  await seedCharacters(page, [ILSE]);
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Yard");
  await page.getByLabel("Rule system").selectOption("tempo");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await expect(page.getByRole("heading", { name: "Yard" })).toBeVisible();
  await page.getByRole("button", { name: "Add Ilse Vantor" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Brigand");
  await setNumber(page, "Melee weapon AP (0: none)", 5);
  await page.getByText("Initiated or prepared: starts On Guard").tap();
  await page.getByRole("button", { name: "Add Brigand" }).tap();
  await expect(page.getByTestId("order").locator("li.fighter")).toHaveCount(2);
  // The two start Off Guard and On Guard, 12 AP each.
  await expect(fighter(page, "Ilse Vantor")).toContainText("Off Guard · 12 AP");
  await expect(fighter(page, "Brigand")).toContainText("On Guard · 12 AP");
  for (const [name, init] of [["Ilse Vantor", 8], ["Brigand", 3]] as const) {
    await open(page, name);
    await setNumber(page, "Initiative", init);
    await sheet(page).getByTestId("set-init").tap();
    await close(page);
  }
  await page.getByTestId("next").tap();
  await expect(page.getByTestId("turn-status")).toContainText("Round 0 · Ilse Vantor’s turn");
  // The planned dice, from a fresh page (the fight survives the reload).
  await page.evaluate((f) => sessionStorage.setItem("__faces", JSON.stringify(f)), FACES);
  await page.reload();
  await appReady(page);
  await expect(page.getByTestId("turn-status")).toContainText("Round 0 · Ilse Vantor’s turn");

  // Off Guard: only Move and Ready; the attack is refused with the reason.
  await open(page, "Ilse Vantor");
  const offers = sheet(page).getByTestId("offer");
  await expect(offers).toHaveText(["Move · 2 AP", "Ready · 1 AP"]);
  await expect(sheet(page).getByTestId("refused")).toContainText(/Needs On Guard: [^·]*Melee Attack/);
  await sheet(page).getByRole("button", { name: "Ready · 1 AP" }).tap();
  await expect(sheet(page).getByTestId("exchange-odds")).toContainText("Success 100%");
  await sheet(page).getByTestId("resolve").tap();
  await expect(sheet(page).getByTestId("status-line")).toHaveText("On Guard · 11 AP");

  // A move against no one, then an attack: the attack gets an opponent by itself.
  await sheet(page).getByRole("button", { name: "Move · 2 AP" }).tap();
  await sheet(page).getByRole("combobox", { name: "Against" }).selectOption({ label: "No one in particular" });
  await expect(sheet(page).getByTestId("exchange-cost")).toHaveText("Ilse Vantor pays 2 AP");
  // A melee attack (+2, sword 4 AP), declared: its AP spent, Ilse bound to it (Tempo N1).
  await sheet(page).getByRole("button", { name: "Melee Attack · 4 AP" }).tap();
  await expect(sheet(page).getByRole("combobox", { name: "Against" })).toHaveValue("2");
  await expect(sheet(page).getByTestId("exchange-cost")).toHaveText("Ilse Vantor pays 4 AP");
  await expect(sheet(page).getByTestId("resolve")).toBeDisabled();
  await sheet(page).getByTestId("declare").tap();
  await expect(sheet(page).getByTestId("status-line")).toHaveText("On Guard · 7 AP");
  await expect(sheet(page).getByTestId("answer-wait")).toHaveText("Waiting for Brigand’s answer.");
  await expect(sheet(page).getByTestId("exchange-why")).toHaveText("Not now: waiting for Brigand’s answer.");
  await expect(sheet(page).getByTestId("cancel-exchange")).toHaveCount(0);
  // The brigand answers (on the GM's phone, from Ilse's sheet): its parry (+0, 5 AP), what it
  // does to its next recovery shown first. The actor picks no reaction (Tempo N2).
  await expect(sheet(page).getByRole("combobox", { name: "Their reaction" })).toHaveCount(0);
  await expect(sheet(page).getByTestId("reaction-note")).toContainText("5 AP: AP 12 → 7; at the end of its turn it regains 12, to 12 (12 without this)");
  await sheet(page).getByRole("button", { name: /^Parry · 5 AP/ }).tap();
  await expect(sheet(page).getByTestId("answer-wait")).toHaveText("Brigand answers with Parry.");
  await expect(fighter(page, "Brigand")).toContainText("On Guard · 7 AP");
  await expect(sheet(page).getByTestId("exchange-cost")).toHaveText("Ilse Vantor paid 4 AP declaring · Brigand paid 5 AP");
  let o = await odds(page);
  // The brigand: combat defence 5, armoured 7.
  check(o.t, o.mine, rows(2, 0, [["Miss", -Infinity], ["Hit", 5], ["Critical Hit", 7]]));
  check(o.t, o.theirs, rows(0, 2, [["Failure", -Infinity], ["Bind", 0], ["Success", 1]]));
  await sheet(page).getByTestId("resolve").tap();
  // 5 + 2 against 7: the parry ends at exactly 0 and binds both.
  await expect(sheet(page).getByTestId("exchange-result")).toContainText("Brigand: Parry net 0: Bind");
  await expect(sheet(page).getByTestId("status-line")).toHaveText("Bound · 7 AP");
  await expect(fighter(page, "Brigand")).toContainText("Bound · 7 AP");

  // In the bind only the bound actions are offered.
  await expect(offers).toHaveText(["Disarm · 4 AP", "Grapple · 4 AP", "Press · 4 AP", "Withdraw · 2 AP"]);
  await expect(sheet(page).getByTestId("refused")).toContainText(/Needs On Guard: [^·]*Feint/);
  // Withdraw (+0, needs 1) against the brigand's wind: 9 against 2 frees both.
  await sheet(page).getByRole("button", { name: "Withdraw · 2 AP" }).tap();
  await sheet(page).getByTestId("declare").tap();
  await sheet(page).getByRole("button", { name: /^Wind · 5 AP/ }).tap();
  o = await odds(page);
  check(o.t, o.mine, rows(0, 0, [["Failure", -Infinity], ["Success", 1]]));
  check(o.t, o.theirs, rows(0, 0, [["Failure", -Infinity], ["Success", 0]]));
  await sheet(page).getByTestId("resolve").tap();
  await expect(sheet(page).getByTestId("status-line")).toHaveText("On Guard · 5 AP");
  await expect(fighter(page, "Brigand")).toContainText("On Guard · 2 AP");

  // A feint (3 AP), declared as a melee attack, draws a parry the brigand cannot pay in full:
  // 2 → −3, on credit…
  await sheet(page).getByRole("button", { name: "Feint · 3 AP" }).tap();
  await sheet(page).getByTestId("declare").tap();
  await expect(page.getByTestId("fight-log")).toContainText("Ilse Vantor declares a melee attack against Brigand, who may react");
  await expect(sheet(page).getByTestId("reaction-note")).toContainText("5 AP: AP 2 → -3; at the end of its turn it regains 8, to 5 (12 without this)");
  await sheet(page).getByRole("button", { name: /^Parry · 5 AP/ }).tap();
  // …and becomes a counter-attack at +3: 5 AP in all, the larger of 3 and 5.
  await sheet(page).getByRole("combobox", { name: "Replace with (counter-tempo)" }).selectOption({ label: "Counter-Attack at +3 · +2 AP" });
  await expect(sheet(page).getByTestId("exchange-cost")).toHaveText("Ilse Vantor paid 3 AP declaring, pays 2 more (the larger of the two in all) · Brigand paid 5 AP");
  o = await odds(page);
  // Counter-attack bonus +1, and +3 for the feint: +4.
  expect(o.mine).toContain("Counter-Attack (Ilse Vantor +4)");
  check(o.t, o.mine, rows(4, 0, [["Miss", -Infinity], ["Hit", 5], ["Critical Hit", 7]]));
  check(o.t, o.theirs, rows(0, 4, [["Failure", -Infinity], ["Bind", 0], ["Success", 1]]));
  await sheet(page).getByTestId("exchange-odds").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/tempo-exchange.png" });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "test-results/tempo-exchange-dark.png" });
  await page.emulateMedia({ colorScheme: "light" });
  await sheet(page).getByTestId("resolve").tap();
  await expect(sheet(page).getByTestId("exchange-result")).toContainText("Ilse Vantor replaces it with Counter-Attack at +3; pays 2 more");
  await expect(sheet(page).getByTestId("exchange-result")).toContainText("Counter-Attack net 10: Critical Hit");
  await expect(sheet(page).getByTestId("status-line")).toHaveText("On Guard · 0 AP");
  await expect(offers).toHaveCount(0);
  await expect(sheet(page).getByTestId("refused")).toContainText(/Too few AP \(0 left\): [^·]*Move 2/);
  await page.screenshot({ path: "test-results/tempo-fight-sheet.png" });
  await close(page);
  await expect(fighter(page, "Brigand")).toContainText("On Guard · -3 AP");

  // End of Ilse's turn: 0 → +12.
  await page.getByTestId("next").tap();
  await expect(page.getByTestId("fight-log")).toContainText("Ilse Vantor recovers 12 AP by the table (0 → 12)");
  // The brigand's turn: at −3 it can pay for nothing; at its end the table gives 8 back.
  await open(page, "Brigand");
  await expect(sheet(page).getByTestId("offer")).toHaveCount(0);
  await expect(sheet(page).getByTestId("refused")).toContainText(/Too few AP \(-3 left\): [^·]*Move 2/);
  await close(page);
  await page.getByTestId("next").tap();
  await expect(page.getByTestId("fight-log")).toContainText("Brigand recovers 8 AP by the table (-3 → 5)");
  await expect(fighter(page, "Brigand")).toContainText("On Guard · 5 AP");
  await expect(page.getByTestId("turn-status")).toContainText("Round 1 · Ilse Vantor’s turn");
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/tempo-fight-phone.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "test-results/tempo-fight-dark.png", fullPage: true });
});

test("a Tempo sheet: figures on the first screen, a check's rows against an enumeration, weapons priced per action", async ({ page }) => {
  await seedCharacters(page, [ILSE]);
  await page.getByRole("link", { name: /Ilse Vantor/ }).tap();
  await expect(page.getByTestId("defence")).toHaveText("6");
  await expect(page.getByTestId("armoured")).toHaveText("9");
  await expect(page.getByTestId("dice")).toHaveText("1d10");
  // Parry +2 opposed by 1d10+1: Failure / Bind / Success by the net result.
  await page.getByRole("combobox", { name: "Action" }).selectOption({ label: "Parry +2 (reaction)" });
  await expect(page.getByTestId("action-about")).toContainText("Costs 3 AP with Long sword");
  await page.getByLabel(/Opposed by/).fill("1d10+1");
  const t = (await page.getByTestId("check-odds").textContent())!;
  check(t, t, rows(2, 1, [["Failure", -Infinity], ["Bind", 0], ["Success", 1]]));
  // A melee attack unopposed against defence 5 / 8: +2.
  await page.getByLabel(/Opposed by/).fill("");
  await page.getByRole("combobox", { name: "Action" }).selectOption({ label: "Melee Attack +2" });
  const u = (await page.getByTestId("check-odds").textContent())!;
  check(u, u, rows(2, 0, [["Miss", -Infinity], ["Hit", 5], ["Critical Hit", 8]], false));
  await page.getByTestId("roll-check").tap();
  await expect(page.getByTestId("check-result")).toContainText(/Melee Attack: rolled \d+ \(\d+\) \+2 = \d+ → net \d+: (Miss|Hit|Critical Hit)/);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  // Edit: the check dice and a weapon's cost per action.
  await mode(page, "Edit");
  await page.getByLabel("Check dice", { exact: true }).fill("2d6");
  await page.getByTestId("use-dice").tap();
  await expect(page.getByTestId("dice-about")).toContainText("2 to 12, average 7");
  await setNumber(page, "Feint AP", 2);
  await mode(page, "Play");
  await expect(page.getByTestId("dice")).toHaveText("2d6");
  await page.getByRole("combobox", { name: "Action" }).selectOption({ label: "Feint +1" });
  await expect(page.getByTestId("action-about")).toContainText("Costs 2 AP with Long sword");
});

test("Tempo refereed: Play's check with aim and against fists; a sheet marked NPC joins as one; the quick NPC's movement and aimed accuracy; a defence raised on the sheet reaches the fight", async ({ page }) => {
  test.setTimeout(120_000);
  await seedCharacters(page, [ILSE]);
  await page.getByRole("link", { name: /Ilse Vantor/ }).tap();
  // #5: a bow's aimed accuracy (+3) after an aim, against defence 5 / 8: 10% / 30% / 60%.
  await page.getByRole("combobox", { name: "Action" }).selectOption({ label: "Ranged Attack +0" });
  await page.getByRole("combobox", { name: "Situation" }).selectOption({ label: "Aimed: the weapon's aimed accuracy" });
  const aimed = (await page.getByTestId("check-odds").textContent())!;
  expect(aimed).toContain("Net result 4 to 13");
  check(aimed, aimed, rows(3, 0, [["Miss", -Infinity], ["Hit", 5], ["Critical Hit", 8]], false));
  // A counter-attack (+1) against an unarmed attack: +5 more.
  await page.getByRole("combobox", { name: "Action" }).selectOption({ label: "Counter-Attack +1 (reaction)" });
  await page.getByRole("combobox", { name: "Situation" }).selectOption({ label: "Against an unarmed attack: +5" });
  await expect(page.getByTestId("check-odds")).toContainText("Net result 7 to 16");
  // N6: kept as an NPC.
  await mode(page, "Edit");
  await page.getByText("Non-player character: its numbers stay on the GM’s phone").tap();
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Bridge");
  await page.getByLabel("Rule system").selectOption("tempo");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await page.getByRole("button", { name: "Add Ilse Vantor" }).tap();
  await expect(page.locator(`li[data-npc="Ilse Vantor"]`)).toBeVisible();
  // #6, N7: an ogre that moves 2, with +3 aimed accuracy.
  await page.getByLabel("Name", { exact: true }).fill("Ogre");
  await setNumber(page, "Base combat movement", 2);
  await setNumber(page, "Aimed accuracy", 3);
  await page.getByText("Initiated or prepared: starts On Guard").tap();
  await page.getByRole("button", { name: "Add Ogre" }).tap();
  for (const [name, init] of [["Ogre", 8], ["Ilse Vantor", 3]] as const) {
    await open(page, name);
    await setNumber(page, "Initiative", init);
    await sheet(page).getByTestId("set-init").tap();
    await close(page);
  }
  await page.getByTestId("next").tap();
  await expect(page.getByTestId("turn-status")).toContainText("Ogre’s turn");
  await open(page, "Ogre");
  await sheet(page).getByRole("button", { name: "Move · 2 AP" }).tap();
  await sheet(page).getByRole("combobox", { name: "Against" }).selectOption({ label: "No one in particular" });
  await sheet(page).getByTestId("resolve").tap();
  await close(page);
  await expect(page.getByTestId("fight-log")).toContainText("Ogre: Move net 0: Success (movement 2)");
  await open(page, "Ogre");
  await sheet(page).getByRole("button", { name: "Aim · 4 AP" }).tap();
  await sheet(page).getByRole("combobox", { name: "Against" }).selectOption({ label: "Ilse Vantor" });
  await sheet(page).getByTestId("resolve").tap();
  await expect(sheet(page).getByTestId("status-line")).toContainText("aimed");
  await close(page);
  // N4: Ilse's combat defence raised on her sheet mid-fight is the fight's.
  await page.getByRole("link", { name: "Characters" }).tap();
  await page.getByRole("link", { name: /Ilse Vantor/ }).tap();
  await mode(page, "Edit");
  await setNumber(page, "Combat defence", 8);
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByRole("link", { name: /Bridge/ }).tap();
  await expect(page.getByTestId("fight-log")).toContainText("Combat defence");
  await page.screenshot({ path: "test-results/screens/tempo-refereed.png", fullPage: true });
});
