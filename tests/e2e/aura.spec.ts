import { test, expect, createCharacter, setNumber, sidewaysOverflow, smallTargets, mode, row, seedCharacters, fighter, fightSheet as sheet, openFighter as open, closeFighter as close } from "./fixtures";
import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The Energy / Aura system on a 390×844 phone: a character's derived values against an
// independent computation, a melee attack and a shot whose chances equal an enumeration done
// here, then two rounds of combat: pools reset, an action the pools cannot pay is refused, a
// combatant at 0 aura takes damage and rolls on the death table, and Defend leaves an exposure
// that a parent condition holds.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const base = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-aura-v1.json"), "utf8"));

const floor = Math.floor;
const mod = (score: number) => floor((score - 10) / 2);

/** 1d(s)* + v: a top face rolls again and adds, at most 10 times (as the app caps it). */
function exploding(s: number, v: number): Map<number, number> {
  const out = new Map<number, number>();
  let chain = 1;
  for (let k = 0; k <= 10; k++) {
    const last = k === 10 ? s : s - 1;
    for (let r = 1; r <= last; r++) out.set(k * s + r + v, (out.get(k * s + r + v) ?? 0) + chain / s);
    chain /= s;
  }
  return out;
}
const atMost = (d: Map<number, number>, x: number) => [...d].filter(([v]) => v <= x).reduce((a, [, p]) => a + p, 0);

/** The shown percentage equals p (one decimal, or the exact 0% / 100%). */
function near(shown: string, p: number) {
  if (p === 1) return expect(shown).toBe("100%");
  if (p === 0) return expect(shown).toBe("0%");
  expect(Math.abs(parseFloat(shown.replace(/[^0-9.]/g, "")) - p * 100), shown).toBeLessThanOrEqual(0.051);
}
const pctAfter = (text: string, label: string) => text.split(label)[1]!.trim().split(/[ ·(\n]/)[0]!;

test("an Aura character: every derived value, a melee attack and a shot with exact chances", async ({ page }) => {
  await createCharacter(page, "Maren", "Energy / Aura");
  await mode(page, "Edit");
  const scores = { Str: 14, Con: 13, Dex: 16, Int: 10, Wis: 12, Cha: 8 };
  for (const [k, v] of Object.entries(scores)) await setNumber(page, k, v);
  await setNumber(page, "Level", 4);
  await setNumber(page, "Arm Strength (base)", 12);
  const m = Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, mod(v)]));
  const third = floor(4 / 3);
  const masab = floor((m.Str! + m.Dex!) / 3);
  const auraMod = m.Str! + m.Con! + m.Int! + m.Wis! + m.Cha!;
  const expected: Record<string, string> = {
    masab: String(masab),
    "unarmed-av": String(15 + masab),
    "unarmed-damage": String(Math.max(1, masab)),
    // Medium (8) + a third of the level + half Dex; the default longsword has no evasion bonus.
    "d-evasion": String(8 + third + floor(m.Dex! / 2)),
    "d-ranged-evasion": String(floor(m.Dex! / 2)),
    "d-unarmed-evasion": String(8 + third + floor(m.Dex! / 2)),
    "d-fortitude": String(10 + third + floor(m.Con! / 2) + floor(m.Str! / 2)),
    "d-will": String(10 + third + floor(m.Cha! / 2) + floor(m.Wis! / 2)),
    "aura-modifier": String(auraMod),
    "aura-strength": String(20 + floor((auraMod * 4) / 3)),
    "recovery-surges": String(5 + floor(m.Con! / 2)),
    "recovery-value": String(Math.max(1, auraMod)),
    "max-stamina": "13",
    "max-agility": "3",
    // Arm Strength 12 + the MPL 1 pick (+1 Arm Strength) = 13: the 35 kg row.
    "arm-strength": "13",
  };
  for (const [id, v] of Object.entries(expected)) await expect(page.getByTestId(id), id).toHaveText(v);
  await expect(page.getByTestId("draw-weight")).toHaveText("35 kg · range +0/5/10 · +1 damage");
  await expect(page.getByTestId("throw-extra")).toHaveText("+1/4/8 m");
  // A formula on tap.
  await page.getByTestId("aura-strength").tap();
  await expect(page.getByText(`20 + ⌊aura modifier ${auraMod} × 4 / 3⌋`)).toBeVisible();
  // A longbow.
  await page.getByLabel("Weapon", { exact: true }).fill("Longbow");
  await page.getByLabel("Damage dice (e.g. 1d8)").fill("1d10");
  await setNumber(page, "Accuracy", 2);
  await page.getByText("Ranged (bow, crossbow, sling)").tap();
  await setNumber(page, "Range: advantage within", 10);
  await setNumber(page, "disadvantage past", 60);
  await setNumber(page, "maximum", 150);
  await page.getByTestId("add-weapon").tap();
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  expect(await smallTargets(page)).toEqual([]);
  await page.screenshot({ path: "test-results/aura-edit-phone.png", fullPage: true });

  await mode(page, "Play");
  await expect(page.getByTestId("evasion")).toHaveText(expected["d-evasion"]!);
  await expect(page.getByTestId("fortitude")).toHaveText(expected["d-fortitude"]!);
  await expect(page.getByTestId("energy")).toHaveText("5");
  await page.screenshot({ path: "test-results/aura-play-phone.png", fullPage: true });

  // Melee: the longsword, AV 15 + MASAB + 1, against evasion 8, coverage 12, AR 2, aura 6.
  await row(page, "Longsword in melee").locator("button").tap();
  const d = sheet(page);
  await setNumber(page, "Target evasion", 8);
  await setNumber(page, "Target coverage (AC)", 12);
  await setNumber(page, "Target AR", 2);
  await setNumber(page, "Target aura (0: none)", 6);
  const av = 15 + masab + 1;
  const ev = exploding(10, 8);
  const pHit = atMost(ev, av);
  let [hit, armor, crit, drop] = [0, 0, 0, 0];
  for (let c = 1; c <= 20; c++) {
    if (c === 1) continue;
    if (c === 20) {
      crit += 1 / 20;
      hit += 1 / 20;
      for (let f = 1; f <= 8; f++) if (f + masab >= 6) drop += 1 / 20 / 8;
      continue;
    }
    hit += pHit / 20;
    const onArmor = c < 12;
    if (onArmor) armor += pHit / 20;
    for (let f = 1; f <= 8; f++) if (Math.max(0, f + masab - (onArmor ? 2 : 0)) >= 6) drop += pHit / 20 / 8;
  }
  const odds = (await d.getByTestId("attack-odds").textContent())!;
  near(pctAfter(odds, "hit"), hit);
  near(pctAfter(odds, "critical"), crit);
  near(pctAfter(odds, "on the armor"), armor);
  near(pctAfter(odds, "you are exposed"), 3 / 20);
  near(pctAfter(odds, "6 aura to 0:"), drop);
  await d.getByTestId("roll-attack").tap();
  await expect(d.getByTestId("attack-result")).toContainText(/combat roll \d+/);
  await page.screenshot({ path: "test-results/aura-attack-panel.png" });
  await close(page);

  // A shot: miss chance 8 − accuracy 2 − ⌊Dex mod / 2⌋ + 1d4* + ranged evasion 1, from
  // within the first range (advantage: the better of two d20s).
  await row(page, "Longbow shot, range 10/60/150").locator("button").tap();
  await setNumber(page, "Target ranged evasion", 1);
  await d.getByRole("combobox", { name: "Distance" }).selectOption({ index: 0 });
  const base = 8 - 2 - floor(m.Dex! / 2);
  const r = exploding(4, 1);
  let shot = 0;
  for (let a = 1; a <= 20; a++)
    for (let b = 1; b <= 20; b++) {
      const h = Math.max(a, b);
      if (h === 1) continue;
      shot += (h === 20 ? 1 : atMost(r, h - base)) / 400;
    }
  near(pctAfter((await d.getByTestId("attack-odds").textContent())!, "hit"), shot);
  await d.getByTestId("roll-attack").tap();
  await expect(d.getByTestId("attack-result")).toContainText(/hit roll \d+/);
  await close(page);

  // An evasion roll explodes: its panel states the cut-off.
  await row(page, "Evasion").locator("button").tap();
  await expect(d.getByTestId("explode-cap")).toContainText("leaves out");
  await close(page);

  // Rests: the long rest fills aura to its strength and the surges; a short rest with a surge
  // gives back the recovery value and spends one.
  const aura = page.getByRole("spinbutton", { name: "Aura", exact: true });
  const surges = page.getByRole("spinbutton", { name: "Surges", exact: true });
  await expect(aura).toHaveValue("20");
  await page.getByRole("button", { name: "Long rest" }).tap();
  await expect(aura).toHaveValue(expected["aura-strength"]!);
  await expect(surges).toHaveValue(expected["recovery-surges"]!);
  await setNumber(page, "Aura", 5);
  await page.getByRole("button", { name: "Short rest with a surge" }).tap();
  await expect(aura).toHaveValue(String(5 + Math.max(1, auraMod)));
  await expect(surges).toHaveValue(String(Number(expected["recovery-surges"]) - 1));
});

const MAREN = { ...base, id: "aa00000000000001", name: "Maren", sheet: { ...base.sheet, conditions: [] } };

test("two rounds of Aura combat: pools reset, a refusal, a death roll at 0 aura, Defend and a parent's exposure", async ({ page }) => {
  test.setTimeout(120_000);
  await seedCharacters(page, [MAREN]);
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Ford");
  await page.getByLabel("Rule system").selectOption("aura");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await expect(page.getByRole("heading", { name: "Ford" })).toBeVisible();
  await page.getByRole("button", { name: "Add Maren" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Gnoll");
  await setNumber(page, "Aura", 4);
  await setNumber(page, "Stamina", 3);
  await page.getByRole("button", { name: "Add Gnoll" }).tap();
  await expect(page.getByTestId("order").locator("li.fighter")).toHaveCount(2);
  await page.getByTestId("next").tap();
  await expect(page.getByTestId("turn-status")).toContainText("Round 1");
  // Energy from stamina: Maren 9 → 5; the gnoll 3 → 3.
  await expect(fighter(page, "Maren")).toContainText("energy 5/5 · agility 3/3 · stamina 9/13");
  await expect(fighter(page, "Gnoll")).toContainText("energy 3/3");

  // Maren runs (3), then cannot run again with 2 left.
  await open(page, "Maren");
  const run = sheet(page).getByRole("button", { name: /^Run · 3 energy/ });
  await run.tap();
  await expect(sheet(page).getByTestId("pools")).toContainText("energy 2/5");
  await expect(run).toBeDisabled();
  await expect(sheet(page).getByText("Not now: needs 3 energy, 2 left.").first()).toBeVisible();
  // The once-a-round swap: 1 stamina for 1 energy.
  const swap = sheet(page).getByRole("button", { name: /^Swap 1 stamina for 1 energy/ });
  await swap.tap();
  await expect(sheet(page).getByTestId("pools")).toContainText("energy 3/5 · agility 3/3 · stamina 8/13");
  await expect(swap).toBeDisabled();
  await expect(sheet(page).getByText("Not now: already swapped this round.")).toBeVisible();
  // One initiative roll a round for each side (review item 3): d20 + 1 (her pick) against the
  // gnoll's d20 + 0; then hers is spent, and another would fail by itself.
  await sheet(page).getByRole("combobox", { name: "Initiative against" }).selectOption({ label: "Gnoll" });
  let wins = 0;
  for (let a = 1; a <= 20; a++) for (let b = 1; b <= 20; b++) if (a + 1 > b) wins++;
  near(pctAfter((await sheet(page).getByTestId("init-odds").textContent())!, "wins"), wins / 400);
  await sheet(page).getByTestId("roll-init").tap();
  await expect(page.getByTestId("fight-log")).toContainText(/Maren (wins|loses) initiative against Gnoll: \d+ vs \d+/);
  await expect(sheet(page).getByTestId("roll-init")).toBeDisabled();
  await expect(sheet(page).getByText("another would fail by itself").first()).toBeVisible();
  await expect(sheet(page).getByTestId("init-odds")).toContainText("wins 0%");
  await page.screenshot({ path: "test-results/aura-fight-sheet.png" });
  await close(page);

  // Round 2: the pools are full again (energy from the 8 stamina left: 5).
  await page.getByTestId("next").tap();
  await expect(page.getByTestId("turn-status")).toContainText("Round 2");
  await expect(fighter(page, "Maren")).toContainText("energy 5/5 · agility 3/3 · stamina 8/13");

  // The gnoll at 0 aura, hit again: a death roll is due and rolled on the table.
  await open(page, "Gnoll");
  await setNumber(page, "Amount", 4);
  await sheet(page).getByTestId("damage").tap();
  await expect(sheet(page).getByTestId("dying-odds")).toBeVisible();
  await setNumber(page, "Amount", 2);
  await sheet(page).getByTestId("damage").tap();
  await close(page);
  await expect(page.getByTestId("fight-log")).toContainText("already at 0 aura, a death roll is due");
  await open(page, "Gnoll");
  // Dies before being stabilized: a death roll first, 1/20 + 8/20 × 1/2 = 25%.
  near(pctAfter((await sheet(page).getByTestId("dying-odds").textContent())!, "death roll:"), 0.25);
  // Each outcome of both tables with its exact chance, before the roll (faces out of 20).
  const tables = (await sheet(page).getByTestId("death-tables").textContent())!;
  for (const [outcome, faces] of [["20 nothing", 1], ["15–19 winded", 5], ["10–14 major injury", 5], ["5–9 bleeding out", 5], ["2–4 bleeding and unconscious", 3], ["1 dead", 1], ["5–19 still bleeding", 15], ["20 stabilized", 1]] as const) {
    near(pctAfter(tables, outcome), faces / 20);
  }
  await sheet(page).getByRole("button", { name: "Death roll (d20)" }).tap();
  await close(page);
  await expect(page.getByTestId("fight-log")).toContainText(/Gnoll death roll: d20 = \d+/);

  // Maren is knocked prone (and takes 3): Defend ends nothing that prone holds.
  await open(page, "Maren");
  await setNumber(page, "Amount", 3);
  await sheet(page).getByTestId("damage").tap();
  await sheet(page).locator("#cond-name").selectOption("Prone");
  await sheet(page).getByTestId("add-condition").tap();
  await sheet(page).getByRole("button", { name: /^Defend · 1 energy/ }).tap();
  await close(page);
  await expect(page.getByTestId("fight-log")).toContainText("Maren stays exposed while prone");
  await expect(fighter(page, "Maren")).toContainText("Exposed");
  await expect(fighter(page, "Maren")).toContainText("Defending");
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/aura-fight-phone.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "test-results/aura-fight-dark.png", fullPage: true });

  // What the fight did reached her sheet: aura 17 − 3, and the stamina the swap spent.
  await page.getByRole("link", { name: "Characters" }).tap();
  await expect(page.getByText("Aura 14/24 · stamina 8/13")).toBeVisible();
});

test("Aura fight rules: a throw, an automatic hit on the helpless, from behind, and the sheet's conditions and stamina", async ({ page }) => {
  test.setTimeout(90_000);
  // Maren joins with Dazed on her sheet: it comes into the fight with her.
  const dazed = { ...MAREN, sheet: { ...MAREN.sheet, conditions: ["Dazed"] } };
  await seedCharacters(page, [dazed]);
  await page.getByRole("link", { name: "Combat" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Bridge");
  await page.getByLabel("Rule system").selectOption("aura");
  await page.getByRole("button", { name: "Create encounter" }).tap();
  await page.getByRole("button", { name: "Add Maren" }).tap();
  await page.getByLabel("Name", { exact: true }).fill("Gnoll");
  await page.getByRole("button", { name: "Add Gnoll" }).tap();
  await page.getByTestId("next").tap();
  await expect(fighter(page, "Maren").locator(".chip")).toContainText(["Dazed"]);

  // The GM removes Dazed in the fight: it leaves the saved sheet too.
  await open(page, "Maren");
  await sheet(page).getByRole("button", { name: "Remove Dazed" }).tap();
  await close(page);
  await expect.poll(() => page.evaluate((id) => JSON.parse(localStorage.getItem(`rollsheet.char.${id}`)!).sheet.conditions, MAREN.id)).toEqual([]);

  // The gnoll is helpless: every attack hits it without a defence roll.
  await open(page, "Gnoll");
  await sheet(page).locator("#cond-name").selectOption("Helpless");
  await sheet(page).getByTestId("add-condition").tap();
  await close(page);
  await open(page, "Maren");
  const attack = sheet(page);
  await attack.getByRole("combobox", { name: "Target", exact: true }).selectOption({ label: "Gnoll" });
  const withWhat = attack.getByRole("combobox", { name: "With", exact: true });
  const throwAt = (await withWhat.locator("option").allTextContents()).findIndex((t) => t.startsWith("Throw "));
  expect(throwAt, "a throw is offered").toBeGreaterThanOrEqual(0);
  await withWhat.selectOption({ index: throwAt });
  await expect(attack.getByTestId("attack-odds")).toContainText("hit 100%");
  await attack.getByTestId("roll-attack").tap();
  // A high roll makes it a critical hit (the d20 decides): either way, no defence roll.
  await expect(attack.getByTestId("attack-result")).toContainText(/no defence roll: a (critical )?hit/);
  await expect(page.getByTestId("fight-log")).toContainText("out of hand");
  await close(page);
  // Not helpless any more: from behind, the gnoll meets the blow with its unarmed evasion at a
  // disadvantage, and the odds say so.
  await open(page, "Gnoll");
  await sheet(page).getByRole("button", { name: "Remove Helpless" }).tap();
  await close(page);
  await open(page, "Maren");
  await attack.getByRole("combobox", { name: "Target", exact: true }).selectOption({ label: "Gnoll" });
  await attack.getByRole("combobox", { name: "With", exact: true }).selectOption({ index: 0 });
  const before = (await attack.getByTestId("attack-odds").textContent())!;
  await attack.getByLabel(/^From behind/).check();
  await expect(attack.getByTestId("attack-odds")).not.toHaveText(before);
  await close(page);

  // Stamina edited on the saved sheet while the fight is open comes into the fight, logged.
  const url = page.url();
  await page.goto(`/c/${MAREN.id}`);
  await mode(page, "Play");
  await setNumber(page, "Stamina", 4);
  await page.goto(url);
  await expect(page.getByTestId("fight-log")).toContainText("as on the sheet: Stamina 9 → 4");
  await expect(fighter(page, "Maren")).toContainText("stamina 4/13");
});
