import { test, expect, appReady, createCharacter, setNumber, shownPercent as pct, smallTargets, mode } from "./fixtures";
import type { Page } from "@playwright/test";

/** Exact result distribution of a Heimr challenge by enumerating every face (independent of the app). */
function challenge(c: number, p: number): Map<number, number> {
  const n = Math.abs(c);
  const out = new Map<number, number>();
  const total = 6 * 10 ** n;
  for (let code = 0; code < total; code++) {
    const d6 = (code % 6) + 1;
    const d10: number[] = [];
    let rest = Math.floor(code / 6);
    for (let i = 0; i < n; i++) {
      d10.push((rest % 10) + 1);
      rest = Math.floor(rest / 10);
    }
    let dice: number;
    if (c > 0) dice = Math.max(d6, ...d10) + Math.max(0, d10.filter((v) => v === 10).length - 1);
    else if (c < 0) dice = Math.min(d6, ...d10) - Math.max(0, [d6, ...d10].filter((v) => v === 1).length - 1);
    else dice = d6;
    out.set(dice + p, (out.get(dice + p) ?? 0) + 1 / total);
  }
  return out;
}
const atLeast = (d: Map<number, number>, t: number) => [...d].filter(([v]) => v >= t).reduce((s, [, p]) => s + p, 0);

const newHeimr = (page: Page, name: string) => createCharacter(page, name, "Heimr");



test("Perception against CR 9: exact chance, every die, and a re-roll for willpower", async ({ page }) => {
  await newHeimr(page, "Seer");
  await mode(page, "Edit");
  await setNumber(page, "Intelligence", 3);
  await setNumber(page, "Base consistency of Perception", 2);
  await mode(page, "Play");
  await page.getByRole("button", { name: "Roll Perception" }).tap();
  // The roll opens as a bottom sheet dialog next to the thumb, focus inside it.
  const panel = page.getByRole("dialog", { name: "Roll Perception" });
  await expect(panel).toBeVisible();
  expect(await page.evaluate(() => !!document.activeElement?.closest("dialog"))).toBe(true);
  await expect(panel.getByTestId("roll-c")).toHaveText("2");
  await expect(panel.getByTestId("roll-p")).toHaveText("3");
  await panel.getByLabel("CR", { exact: true }).fill("9");
  const exact = atLeast(challenge(2, 3), 9);
  expect(Math.abs((await pct(page, "success-chance")) - exact * 100)).toBeLessThan(0.05001);
  // A situational penalty lowers C, and the chance follows.
  await panel.getByText("Situational bonuses and penalties").tap();
  await panel.getByRole("button", { name: "Increase Penalty on this roll" }).tap();
  await expect(panel.getByTestId("roll-c")).toHaveText("1");
  expect(Math.abs((await pct(page, "success-chance")) - atLeast(challenge(1, 3), 9) * 100)).toBeLessThan(0.05001);
  await panel.getByRole("button", { name: "Decrease Penalty on this roll" }).tap();
  // Bonuses raise C and P (a readied dodge +2 P, attacking down from height +1 C).
  await panel.getByRole("button", { name: "Increase Bonus on C" }).tap();
  await panel.getByRole("button", { name: "Increase Bonus or penalty on P" }).tap();
  await panel.getByRole("button", { name: "Increase Bonus or penalty on P" }).tap();
  await expect(panel.getByTestId("roll-c")).toHaveText("3");
  await expect(panel.getByTestId("roll-p")).toHaveText("5");
  expect(Math.abs((await pct(page, "success-chance")) - atLeast(challenge(3, 5), 9) * 100)).toBeLessThan(0.05001);
  await panel.getByRole("button", { name: "Decrease Bonus on C" }).tap();
  await panel.getByRole("button", { name: "Decrease Bonus or penalty on P" }).tap();
  await panel.getByRole("button", { name: "Decrease Bonus or penalty on P" }).tap();
  await expect(panel.getByTestId("roll-c")).toHaveText("2");

  await page.screenshot({ path: "test-results/heimr-roll-panel.png" });
  await panel.getByRole("button", { name: "Roll Perception" }).tap();
  const result = panel.getByTestId("challenge-result");
  await expect(result.locator(".die")).toHaveCount(3); // 1d6 + 2d10
  await expect(result.locator(".die:not(.dropped)")).toHaveCount(1);
  const faces = (await result.locator(".die .die-value").allTextContents()).map(Number);
  const d10 = faces.slice(1);
  const kept = Math.max(...faces);
  const bonus = Math.max(0, d10.filter((v) => v === 10).length - 1);
  await expect(result.getByTestId("challenge-total")).toHaveText(String(kept + bonus + 3));
  const total = kept + bonus + 3;
  await expect(result.getByTestId("verdict")).toHaveText(total >= 9 ? "Success against CR 9" : "Failed against CR 9");

  // An impossible CR always fails: the re-roll costs one willpower each time, and stops at 0.
  await panel.getByLabel("CR", { exact: true }).fill("99");
  const reroll = panel.getByRole("button", { name: /Re-roll for 1 willpower/ });
  await expect(reroll).toHaveText("Re-roll for 1 willpower (3 left)");
  await reroll.tap();
  await expect(reroll).toHaveText("Re-roll for 1 willpower (2 left)");
  await expect(page.getByRole("spinbutton", { name: "Willpower", exact: true })).toHaveValue("2");
  await reroll.tap();
  await reroll.tap();
  await expect(reroll).toBeDisabled();
  await expect(page.getByRole("spinbutton", { name: "Willpower", exact: true })).toHaveValue("0");
  expect(await smallTargets(page)).toEqual([]);
  // Escape closes the sheet.
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);

  // Every roll is in the shared log with the character's name.
  await page.getByRole("link", { name: "Roller" }).tap();
  await expect(page.locator(".log-entry")).toHaveCount(4);
  await expect(page.locator(".log-entry").first().locator(".log-expr")).toHaveText("Seer: Perception (C 2, P 3)");
});

test("physical rolls check and raise fatigue; a breather lowers it to base", async ({ page }) => {
  await newHeimr(page, "Runner");
  await setNumber(page, "Fatigue", 7);
  await page.getByRole("button", { name: "Roll Agility" }).tap();
  const panel = page.getByRole("dialog", { name: "Roll Agility" });
  await expect(panel.getByTestId("roll-fatigue")).toHaveText("7");
  // C 0, P 0: a lone d6 can never reach fatigue 7.
  await panel.getByLabel("CR", { exact: true }).fill("1");
  await expect(panel.getByTestId("success-chance")).toHaveText("0%");
  await panel.getByRole("button", { name: "Roll Agility" }).tap();
  await expect(panel.getByTestId("verdict")).toHaveText(/^Failed: the dice part \d is below fatigue 7$/);
  await expect(page.getByRole("spinbutton", { name: "Fatigue", exact: true })).toHaveValue("8");
  await panel.getByRole("button", { name: "Close" }).tap();
  await setNumber(page, "Fatigue", 2);
  await page.getByRole("button", { name: "Roll Agility" }).tap();
  await panel.getByRole("button", { name: "Roll Agility" }).tap();
  const d6 = Number(await panel.locator(".die .die-value").first().textContent());
  await expect(page.getByRole("spinbutton", { name: "Fatigue", exact: true })).toHaveValue(d6 < 2 ? "3" : "2");
  await panel.getByRole("button", { name: "Close" }).tap();

  await setNumber(page, "Fatigue", 9);
  // Out of combat a breather brings fatigue back to base in one step (Heimr #12).
  const breather = page.getByRole("button", { name: "Breather (fatigue to base)" });
  await breather.tap();
  await expect(page.getByRole("spinbutton", { name: "Fatigue", exact: true })).toHaveValue("4");
  await expect(breather).toBeDisabled();
  // Mental rolls ignore fatigue.
  await page.getByRole("button", { name: "Roll Insight" }).tap();
  const insight = page.getByRole("dialog", { name: "Roll Insight" });
  await expect(insight.getByTestId("roll-fatigue")).toHaveCount(0);
  // A certain success reads exactly 100%, a possible failure never does.
  await insight.getByLabel("CR", { exact: true }).fill("1");
  await expect(insight.getByTestId("success-chance")).toHaveText("100%");
  await insight.getByLabel("CR", { exact: true }).fill("2");
  await expect(insight.getByTestId("success-chance")).toHaveText("83.3%");
  await insight.getByLabel("CR", { exact: true }).fill("7");
  await expect(insight.getByTestId("success-chance")).toHaveText("0%");
  // A tap outside the sheet (on the backdrop) closes it.
  await page.mouse.click(195, 20);
  await expect(page.getByRole("dialog", { name: "Roll Insight" })).toHaveCount(0);
  // So does a swipe down on its handle.
  await page.getByRole("button", { name: "Roll Insight" }).tap();
  const handle = page.locator(".sheet-handle");
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + 150, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByRole("dialog", { name: "Roll Insight" })).toHaveCount(0);
});

test("attribute rolls use the GM's C and the attribute as P", async ({ page }) => {
  await newHeimr(page, "Strong");
  await mode(page, "Edit");
  await setNumber(page, "Strength", 2);
  await setNumber(page, "Fatigue", 1);
  await mode(page, "Play");
  await page.getByRole("button", { name: "Roll Strength" }).tap();
  const panel = page.getByRole("dialog", { name: "Roll Strength" });
  await setNumber(page, "Consistency set by the GM", -3);
  await expect(panel.getByTestId("roll-c")).toHaveText("-3");
  await expect(panel.getByTestId("roll-p")).toHaveText("2");
  await panel.getByLabel("CR", { exact: true }).fill("3");
  expect(Math.abs((await pct(page, "success-chance")) - atLeast(challenge(-3, 2), 3) * 100)).toBeLessThan(0.05001);
});

test("opposed rolls show both sides' exact chances, then both rolls", async ({ page }) => {
  await newHeimr(page, "Liar");
  await mode(page, "Edit");
  await setNumber(page, "Sociability", 2);
  await newHeimr(page, "Judge");
  await mode(page, "Edit");
  await setNumber(page, "Empathy", 1);
  await setNumber(page, "Base consistency of Insight", 1);
  await mode(page, "Play");
  await page.getByRole("button", { name: "Roll Insight" }).tap();
  const panel = page.getByRole("dialog", { name: "Roll Insight" });
  await panel.getByText("Opposed roll").tap();
  await panel.getByLabel("Opponent from your characters").selectOption({ label: "Liar: Persuasion (C 0, P 2)" });
  await expect(panel.getByRole("spinbutton", { name: "Opponent P" })).toHaveValue("2");
  const me = challenge(1, 1);
  const them = challenge(0, 2);
  let win = 0, tie = 0;
  for (const [a, pa] of me) for (const [b, pb] of them) { if (a > b) win += pa * pb; if (a === b) tie += pa * pb; }
  const text = (await panel.getByTestId("opposed-chances").textContent())!;
  const [w, t, l] = text.match(/[\d.]+(?=%)/g)!.map(Number);
  expect(Math.abs(w - win * 100)).toBeLessThan(0.05001);
  expect(Math.abs(t - tie * 100)).toBeLessThan(0.05001);
  expect(Math.abs(l - (1 - win - tie) * 100)).toBeLessThan(0.05001);
  await panel.getByRole("button", { name: "Roll Insight" }).tap();
  const mine = Number(await panel.getByTestId("challenge-total").textContent());
  const theirs = Number(await panel.getByTestId("opponent-total").textContent());
  await expect(panel.getByTestId("opposed-verdict")).toHaveText(mine > theirs ? "You win" : mine === theirs ? "Tie" : "Opponent wins");
});

test("opposed physical rolls count both sides' fatigue in the chances and the verdict", async ({ page }) => {
  await newHeimr(page, "Tired");
  await setNumber(page, "Fatigue", 4);
  await page.getByRole("button", { name: "Roll Agility" }).tap();
  const panel = page.getByRole("dialog", { name: "Roll Agility" });
  await panel.getByText("Opposed roll").tap();
  await setNumber(page, "Opponent C", 1);
  await setNumber(page, "Opponent P", 1);
  await setNumber(page, "Opponent fatigue (0: not a physical roll)", 3);
  // Independently: each side's dice part (result − P) below its fatigue fails outright;
  // one failure loses to a roll that stands, two tie.
  const me = challenge(0, 0);
  const them = challenge(1, 0);
  let win = 0, tie = 0, lose = 0;
  for (const [a, pa] of me)
    for (const [b, pb] of them) {
      const fa = a < 4, fb = b < 3, q = pa * pb;
      if (fa && fb) tie += q;
      else if (fa) lose += q;
      else if (fb) win += q;
      else if (a > b + 1) win += q;
      else if (a === b + 1) tie += q;
      else lose += q;
    }
  const text = (await panel.getByTestId("opposed-chances").textContent())!;
  const [w, t, l] = text.match(/[\d.]+(?=%)/g)!.map(Number);
  expect(Math.abs(w - win * 100)).toBeLessThan(0.05001);
  expect(Math.abs(t - tie * 100)).toBeLessThan(0.05001);
  expect(Math.abs(l - lose * 100)).toBeLessThan(0.05001);
  await panel.getByRole("button", { name: "Roll Agility" }).tap();
  const mine = Number(await panel.getByTestId("challenge-total").textContent());
  const theirs = Number(await panel.getByTestId("opponent-total").textContent());
  const theirDice = theirs - 1;
  const expected =
    mine < 4 && theirDice < 3 ? "Tie: both dice parts are below fatigue"
    : mine < 4 ? "Opponent wins: your dice part is below your fatigue"
    : theirDice < 3 ? "You win: the opponent's dice part is below its fatigue"
    : mine > theirs ? "You win" : mine === theirs ? "Tie" : "Opponent wins";
  await expect(panel.getByTestId("opposed-verdict")).toHaveText(expected);
});
