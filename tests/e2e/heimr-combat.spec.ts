import { test, expect, setNumber, fighter as row, fightSheet as sheet, turnStatus as status, openFighter as open, closeFighter as close, seedCharacters } from "./fixtures";
import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// A Heimr fight of three on a 390×844 phone, tapped as a GM would: rolled initiative with a tie
// settled by willpower, pre-rolled defences and the stacking penalty, a targeted attack that
// injures the torso and starts the dying clock, an effect that ends on the right turn, fatigue
// that rises at most once a turn, action types; every chance compared with an exact
// enumeration written here from the rules.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const base = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-heimr-v1.json"), "utf8"));
// Asa: dexterity 0 (initiative C 0, P willpower 3), 1 HP of 4, fatigue 1.
const ASA = {
  ...base,
  id: "ab00000000000001",
  name: "Asa",
  sheet: {
    ...base.sheet,
    attributes: base.sheet.attributes.map((a: object, i: number) => (i === 1 ? { value: 0, progress: 0 } : a)),
    hp: 1,
    fatigue: 1,
  },
};

/** Dice part of a challenge with consistency c: (value, count) over all 6·10^|c| outcomes. */
function dice(c: number): [number, number][] {
  const n = Math.abs(c);
  const out: [number, number][] = [];
  const total = 6 * 10 ** n;
  for (let k = 0; k < total; k++) {
    const d6 = (k % 6) + 1;
    let rest = Math.floor(k / 6);
    const d10: number[] = [];
    for (let i = 0; i < n; i++) {
      d10.push((rest % 10) + 1);
      rest = Math.floor(rest / 10);
    }
    const all = [d6, ...d10];
    let v: number;
    if (c === 0) v = d6;
    else if (c > 0) v = Math.max(...all) + Math.max(0, d10.filter((x) => x === 10).length - 1);
    else v = Math.min(...all) - Math.max(0, all.filter((x) => x === 1).length - 1);
    out.push([v, 1]);
  }
  return out;
}

/** Exact chance that an attack (C, P, fatigue) beats a defence (null: nothing stands). */
function hit(c: number, p: number, f: number, def: number | null) {
  const all = dice(c);
  const good = all.filter(([v]) => v >= f && (def === null || v + p > def)).length;
  return good / all.length;
}

/** Compares a shown percentage with an exact probability (one decimal; 0% and 100% exact). */
function expectPercent(shown: string, p: number) {
  if (p === 1) return expect(shown).toBe("100%");
  if (p === 0) return expect(shown).toBe("0%");
  expect(shown).not.toMatch(/^(0|100)%$/);
  expect(Math.abs(parseFloat(shown.replace(/[^0-9.]/g, "")) - p * 100)).toBeLessThanOrEqual(0.051);
}


async function addNpc(page: Page, name: string, nums: Record<string, number>, weapon: string) {
  await page.getByLabel("Name", { exact: true }).fill(name);
  for (const [label, v] of Object.entries(nums)) await setNumber(page, label, v);
  await page.locator(`section[aria-label="Quick NPC"]`).getByRole("combobox", { name: "Weapon", exact: true }).selectOption({ label: weapon });
  await page.getByRole("button", { name: `Add ${name}` }).tap();
  await expect(row(page, name)).toBeVisible();
}

async function logLines(page: Page) {
  return Number(await page.getByTestId("fight-log").getAttribute("data-lines"));
}

test("a Heimr fight of three: initiative, defences, a targeted injury, effects, fatigue", async ({ page }) => {
  test.setTimeout(150_000);
  await seedCharacters(page, [ASA]);
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Ford ambush");
  await page.getByLabel("Rule system").selectOption("heimr");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await expect(page.getByRole("heading", { name: "Ford ambush" })).toBeVisible();

  await page.getByRole("button", { name: "Add Asa" }).tap();
  // Brute: a great weapon at C 2, P 20, fatigue 1: its torso blow cannot miss an undefended
  // target. Scout: base fatigue 7, so every physical roll's d6 raises it (once a turn).
  await addNpc(page, "Brute", { HP: 1, Willpower: 2, Dexterity: 0, "Base fatigue": 1, "Weapon C": 2, "Weapon P": 20, "Agility C": 1, "Agility P": 1 }, "Great weapon (damage 3, P +5)");
  await addNpc(page, "Scout", { HP: 5, Willpower: 1, Dexterity: 0, "Base fatigue": 7, "Weapon C": 0, "Weapon P": 0, "Agility C": 0, "Agility P": 1 }, "Light weapon (damage 1, P +2)");
  await expect(page.getByTestId("order").locator("li.fighter")).toHaveCount(3);

  // Initiative: 1d6 + willpower (3, 2, 1) each. Roll (and undo) until two results tie: the
  // one with the higher willpower must go first, and its row must say so.
  let tie: RegExpMatchArray | null = null;
  for (let i = 0; i < 60 && !tie; i++) {
    const lines = await logLines(page);
    await page.getByTestId("roll-initiative").tap();
    await expect(page.getByTestId("fight-log")).toHaveAttribute("data-lines", String(lines + 6));
    const whys = await page.locator(".fighter-why").allTextContents();
    tie = whys.join("\n").match(/Willpower (\d+) vs (\d+)/);
    if (!tie) await page.getByRole("button", { name: "Undo" }).tap();
  }
  expect(tie, "a tie on the initiative result within 60 rolls").not.toBeNull();
  expect(Number(tie![1])).toBeGreaterThan(Number(tie![2]));
  // The order is the rolled results, highest first, ties to willpower.
  const log = await page.getByTestId("fight-log").innerText();
  const rolled = Object.fromEntries(
    [...log.matchAll(/(\w+): initiative (-?\d+) \/ (\d+)/g)].map((m) => [m[1], [Number(m[2]), Number(m[3])]]),
  );
  const expected = Object.keys(rolled).sort((a, b) => rolled[b][0] - rolled[a][0] || rolled[b][1] - rolled[a][1]);
  const order = await page.getByTestId("order").locator("li.fighter").evaluateAll((els) => els.map((e) => e.getAttribute("data-combatant")));
  expect(order).toEqual(expected);

  // Scout pre-rolls a dodge: C 0 gives a d6 at most 6, below its fatigue 7, so the dodge is
  // shown as failing.
  await open(page, "Scout");
  await expect(sheet(page).getByTestId("heimr-status")).toContainText("Fatigue 7 (base 7)");
  await sheet(page).getByRole("button", { name: /^(Roll dodge|Dodge:)/ }).tap();
  await expect(sheet(page).getByTestId("heimr-status")).toContainText("defence: Dodge");
  await expect(sheet(page).getByTestId("heimr-status")).toContainText("(fails: fatigue)");
  await close(page);
  await expect(row(page, "Scout").locator(".fighter-hp")).toContainText("fatigue 7 · Dodge");

  // Brute pre-rolls a dodge that stands (fatigue 1).
  await open(page, "Brute");
  await sheet(page).getByRole("button", { name: /^(Roll dodge|Dodge:)/ }).tap();
  const bruteDef = Number((await sheet(page).getByTestId("heimr-status").textContent())!.match(/defence: Dodge (-?\d+)/)![1]);
  await close(page);

  // Asa takes up a medium weapon and shield, fighting with its Shield ability (C 3, P 2).
  await open(page, "Asa");
  await sheet(page).getByRole("combobox", { name: "Weapon", exact: true }).selectOption({ label: "Medium weapon (damage 2, P +3)" });
  await sheet(page).getByRole("combobox", { name: "Off hand", exact: true }).selectOption({ label: "Medium shield (P +3)" });
  await sheet(page).getByRole("combobox", { name: "Weapon with (attack, parry)", exact: true }).selectOption({ label: "Shield (C 3, P 2)" });
  await sheet(page).getByRole("combobox", { name: "Off hand with (block, second weapon)", exact: true }).selectOption({ label: "Shield (C 3, P 2)" });
  await sheet(page).getByTestId("take-up").tap();
  await expect(sheet(page).getByRole("button", { name: /^(Roll block|Block:)/ })).toContainText("Roll block · C 3 · P 5 (+3 shield)");
  // Against Brute's dodge: C 3, P 2 + 3, fatigue 1; the shown chance is the exact one.
  await sheet(page).getByRole("combobox", { name: "Target (its shown defence)", exact: true }).selectOption({ label: `Brute · Dodge ${bruteDef}` });
  await expect(sheet(page).getByTestId("attack-setup")).toHaveText(`C 3 · P 5 (+3 weapon) · fatigue 1 · against Dodge ${bruteDef}`);
  let chance = (await sheet(page).getByTestId("attack-chance").textContent())!;
  expectPercent(chance.match(/^Hits (\S+)/)![1], hit(3, 5, 1, bruteDef));
  // Aiming at a body part costs 2 C, and the chance follows.
  await sheet(page).getByRole("combobox", { name: "Body part", exact: true }).selectOption({ label: "Aim at the sword arm (−2 C)" });
  await expect(sheet(page).getByTestId("attack-setup")).toHaveText(`C 1 (−2 targeted) · P 5 (+3 weapon) · fatigue 1 · against Dodge ${bruteDef}`);
  chance = (await sheet(page).getByTestId("attack-chance").textContent())!;
  expectPercent(chance.match(/^Hits (\S+)/)![1], hit(1, 5, 1, bruteDef));
  await sheet(page).getByRole("combobox", { name: "Body part", exact: true }).selectOption({ label: "Where the d6 falls" });
  // Against Scout, whose dodge fails on fatigue: every roll that stands hits (fatigue 1: all).
  await sheet(page).getByRole("combobox", { name: "Target (its shown defence)", exact: true }).selectOption({ index: order.filter((n) => n !== "Asa").indexOf("Scout") });
  await expect(sheet(page).getByTestId("attack-chance")).toHaveText(/^Hits 100% · fatigue rises 0%$/);
  let lines = await logLines(page);
  await sheet(page).getByTestId("roll-attack").tap();
  await expect(sheet(page).getByTestId("attack-result")).toContainText("Asa attacks Scout:");
  await expect(sheet(page).getByTestId("attack-result")).toContainText("hits the");
  expect(await logLines(page)).toBeGreaterThan(lines);
  await close(page);

  // Scout's dodge was used: no defence shown now; the next dodge costs 2 C; the use raised its
  // fatigue (d6 below 7) once, and no other physical roll can raise it before its turn.
  await open(page, "Scout");
  await expect(sheet(page).getByTestId("heimr-status")).toContainText("Fatigue 8 (base 7)");
  await expect(sheet(page).getByTestId("heimr-status")).toContainText("defence: no defence rolled");
  await expect(sheet(page).getByTestId("heimr-status")).toContainText("raises fatigue: 0%");
  await expect(sheet(page).getByRole("button", { name: /^(Roll dodge|Dodge:)/ })).toHaveText("Roll dodge · C −2 (−2 1 earlier dodge) · P 1");
  // A landing from height 2 (CR 4): the dice part must reach fatigue 8, which a d6 cannot.
  await expect(sheet(page).getByTestId("fall-chance")).toHaveText("Agility against CR 4: lands safely 0%; otherwise HP drop to 1.");
  lines = await logLines(page);
  await sheet(page).getByTestId("roll-fall").tap();
  await expect(page.getByTestId("fight-log")).toHaveAttribute("data-lines", String(lines + 2)); // roll, damage
  await expect(sheet(page).getByTestId("heimr-status")).toContainText("Fatigue 8 (base 7)");
  await close(page);

  // Brute aims at Asa's torso: C 2 − 2 = 0 (only the d6, never below fatigue 1), P 25 against
  // no defence: certain. 3 damage takes Asa from 1 to −2 HP: mangled, the torso's daze, and the
  // clocks: unconscious after 150 rounds (5 minutes), dead after 300 (10 minutes).
  await open(page, "Brute");
  await sheet(page).getByRole("combobox", { name: "Target (its shown defence)", exact: true }).selectOption({ index: order.filter((n) => n !== "Brute").indexOf("Asa") });
  await sheet(page).getByRole("combobox", { name: "Body part", exact: true }).selectOption({ label: "Aim at the torso (−2 C)" });
  await expect(sheet(page).getByTestId("attack-setup")).toHaveText("C 0 (−2 targeted) · P 25 (+5 weapon) · fatigue 1 · against no defence rolled");
  await expect(sheet(page).getByTestId("attack-chance")).toHaveText(/^Hits 100% · fatigue rises 0%$/);
  await sheet(page).getByTestId("roll-attack").tap();
  await expect(sheet(page).getByTestId("attack-result")).toContainText("hits the torso (no defence)");
  await close(page);
  await expect(row(page, "Asa").locator(".fighter-hp")).toContainText("HP -2/4");
  await expect(row(page, "Asa").locator(".chip")).toContainText(["Injured torso", "Dazed from Injured torso", "Fading 150 rounds", "Bleeding out 300 rounds"]);
  // The saved character follows the fight.
  await expect.poll(() => page.evaluate((id) => JSON.parse(localStorage.getItem(`rollsheet.char.${id}`)!).sheet.hp, ASA.id)).toBe(-2);
  // Dazed: Asa can neither defend nor attack.
  await open(page, "Asa");
  await expect(sheet(page).getByRole("button", { name: /^(Roll dodge|Dodge:)/ })).toHaveText("Dodge: Dazed: no defence");
  await expect(sheet(page).getByTestId("attack-chance")).toHaveText("No attack: Dazed: no attacks.");
  // Stabilised, the clocks stop; the injury stays.
  await sheet(page).getByTestId("stabilise").tap();
  await close(page);
  await expect(row(page, "Asa").locator(".chip")).toHaveText(["Injured torso", "Dazed from Injured torso"]);

  // Stumble 4 on Brute: ⌊4/2⌋ = 2 of its turns.
  await open(page, "Brute");
  await sheet(page).getByRole("combobox", { name: "Effect", exact: true }).selectOption({ index: 4 });
  await setNumber(page, "Number (seconds, or points)", 4);
  await expect(sheet(page).getByTestId("effect-lasts")).toHaveText("4 seconds: 2 of its turns.");
  await sheet(page).getByTestId("apply-effect").tap();
  await close(page);
  await expect(row(page, "Brute").locator(".chip")).toContainText(["Stumbling 2 turns (end of Brute’s)"]);

  // The fight starts; two seconds a round.
  await page.getByTestId("next").tap();
  await expect(status(page)).toHaveText(`Round 1 · ${order[0]}’s turn · 0:00`);
  // Walk the turns: Stumbling must hold through Brute's first turn and end with its second;
  // Scout's turn restores its fatigue rise (100% again), and one landing raises it once.
  let bruteEnds = 0;
  let scoutChecked = false;
  for (let step = 0; step < 9 && (bruteEnds < 2 || !scoutChecked); step++) {
    const current = (await status(page).textContent())!.match(/· (\w+)’s turn/)![1];
    if (current === "Scout" && !scoutChecked) {
      await open(page, "Scout");
      await expect(sheet(page).getByTestId("heimr-status")).toContainText("raises fatigue: 100%");
      // Free actions once each, one standard action.
      await sheet(page).getByRole("combobox", { name: "Action", exact: true }).selectOption({ label: "Guard · free" });
      await sheet(page).getByTestId("take-action").tap();
      await sheet(page).getByTestId("take-action").tap();
      await expect(sheet(page).getByTestId("action-error")).toHaveText("Not now: Guard was already used this turn.");
      await sheet(page).getByRole("combobox", { name: "Action", exact: true }).selectOption({ label: "Move · standard" });
      await sheet(page).getByTestId("take-action").tap();
      await expect(sheet(page).getByTestId("action-error")).toHaveText("");
      // Drawing along with the move shares its standard action, once a turn (Heimr #7).
      await sheet(page).getByRole("combobox", { name: "Action", exact: true }).selectOption({ label: "Draw a weapon · standard" });
      await sheet(page).getByTestId("take-action").tap();
      await expect(sheet(page).getByTestId("action-error")).toHaveText("");
      await sheet(page).getByRole("combobox", { name: "Action", exact: true }).selectOption({ label: "Put a weapon away · standard" });
      await sheet(page).getByTestId("take-action").tap();
      await expect(sheet(page).getByTestId("action-error")).toHaveText("Not now: its standard action is already used this turn.");
      await sheet(page).getByTestId("roll-fall").tap();
      await expect(sheet(page).getByTestId("heimr-status")).toContainText("Fatigue 9 (base 7)");
      await expect(sheet(page).getByTestId("heimr-status")).toContainText("raises fatigue: 0%");
      await sheet(page).getByTestId("roll-fall").tap();
      await expect(sheet(page).getByTestId("heimr-status")).toContainText("Fatigue 9 (base 7)");
      await close(page);
      scoutChecked = true;
    }
    await page.getByTestId("next").tap();
    if (current === "Brute") {
      bruteEnds++;
      if (bruteEnds === 1) await expect(row(page, "Brute").locator(".chip")).toContainText(["Stumbling to end of Brute’s turn"]);
      else await expect(row(page, "Brute").locator(".chip")).toHaveCount(0);
    }
  }
  expect(bruteEnds).toBe(2);
  expect(scoutChecked).toBe(true);
  await expect(page.getByTestId("fight-log")).toContainText("Stumbling on Brute ends");
  // Two seconds a round: the clock follows the round number.
  const round = Number((await status(page).textContent())!.match(/^Round (\d+)/)![1]);
  expect(round).toBeGreaterThanOrEqual(2);
  await expect(status(page)).toHaveText(new RegExp(`· 0:${String(2 * (round - 1)).padStart(2, "0")}$`));
});

test("guarding and healing: the guard takes the attack meant for its ward, healing ends the injury", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Gate");
  await page.getByLabel("Rule system").selectOption("heimr");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await addNpc(page, "Ward", { HP: 5, Willpower: 1, Dexterity: 0, "Base fatigue": 1 }, "Light weapon (damage 1, P +2)");
  await addNpc(page, "Sentry", { HP: 5, Willpower: 2, Dexterity: 0, "Base fatigue": 1 }, "Medium weapon (damage 2, P +3)");
  // Raider: P 20 and fatigue 1, so its blow stands against no defence.
  await addNpc(page, "Raider", { HP: 5, Willpower: 3, Dexterity: 0, "Base fatigue": 1, "Weapon C": 0, "Weapon P": 20 }, "Medium weapon (damage 2, P +3)");
  await page.getByTestId("next").tap();
  const current = async () => (await status(page).textContent())!.match(/· (\w+)’s turn/)![1];
  const until = async (name: string) => {
    for (let i = 0; i < 4 && (await current()) !== name; i++) await page.getByTestId("next").tap();
    expect(await current()).toBe(name);
  };

  // Sentry guards Ward: a free action naming whom.
  await until("Sentry");
  await open(page, "Sentry");
  await sheet(page).getByRole("combobox", { name: "Action", exact: true }).selectOption({ label: "Guard · free" });
  await sheet(page).getByRole("combobox", { name: "Guard whom", exact: true }).selectOption({ label: "Ward" });
  await sheet(page).getByTestId("take-action").tap();
  await expect(sheet(page).getByTestId("action-error")).toHaveText("");
  await close(page);
  await expect(row(page, "Sentry").locator(".chip")).toContainText(["Guarding"]);

  // Raider attacks Ward: Sentry steps in, and the attack is worked out against Sentry.
  await until("Raider");
  await open(page, "Raider");
  const target = sheet(page).getByRole("combobox", { name: "Target (its shown defence)", exact: true });
  await target.selectOption({ label: "Ward · no defence rolled" });
  await expect(sheet(page).getByTestId("attack-setup")).toContainText("Sentry guards Ward: the attack comes to it first");
  await expect(sheet(page).getByTestId("attack-chance")).toHaveText(/^Hits 100% · fatigue rises/);
  await sheet(page).getByTestId("roll-attack").tap();
  await expect(page.getByTestId("fight-log")).toContainText("Sentry guards Ward: the attack by Raider comes to it");
  await expect(sheet(page).getByTestId("attack-result")).toContainText("Raider attacks Sentry:");
  // One opponent stopped: the guard is over, and the next attack reaches Ward.
  await expect(sheet(page).getByTestId("attack-setup")).not.toContainText("guards");
  await close(page);
  await expect(row(page, "Sentry").locator(".chip", { hasText: "Guarding" })).toHaveCount(0);
  await expect(row(page, "Ward").locator(".fighter-hp")).toContainText("HP 5/5");

  // The Damage button brings the injury level's conditions; healing to 1 HP ends them all.
  await open(page, "Ward");
  await setNumber(page, "Amount", 7);
  await sheet(page).getByTestId("damage").tap();
  await close(page);
  await expect(row(page, "Ward").locator(".fighter-hp")).toContainText("HP -2/5");
  await expect(row(page, "Ward").locator(".chip")).toContainText(["Fading 150 rounds", "Bleeding out 300 rounds"]);
  await open(page, "Ward");
  await setNumber(page, "Amount", 3);
  await sheet(page).getByTestId("heal").tap();
  await close(page);
  await expect(row(page, "Ward").locator(".fighter-hp")).toContainText("HP 1/5");
  await expect(row(page, "Ward").locator(".chip")).toHaveCount(0);
  await expect(page.getByTestId("fight-log")).toContainText("Ward is no longer injured");
  // Undo takes the heal and what it ended back in one step.
  await page.getByRole("button", { name: "Undo" }).tap();
  await expect(row(page, "Ward").locator(".chip")).toContainText(["Fading", "Bleeding out"]);
});
