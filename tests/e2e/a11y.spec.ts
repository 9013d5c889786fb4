import { test, expect, appReady, createCharacter } from "./fixtures";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

// axe-core (WCAG 2.0/2.1 A and AA, and 2.2 AA) on every page, in the light and the dark theme.
// A character sheet is checked in each of its modes (the Play / Edit / Advance tabs, when the
// sheet has them) and with a roll panel open. Every violation is printed: rule, impact, the
// elements it was found on and axe's summary of what to fix. What axe could not decide
// ("incomplete": needs a person to review) is printed too, but never fails the test.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

type Found = { where: string; id: string; impact: string; help: string; nodes: { target: string; summary: string }[] };

async function axe(page: Page, where: string, found: Found[]) {
  const { violations, incomplete } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  if (incomplete.length) {
    const list = incomplete.map((i) => `${i.id}×${i.nodes.length} (${i.nodes[0].target.join(" ")}${i.nodes.length > 1 ? ", …" : ""})`);
    console.log(`axe needs review on ${where}: ${list.join("; ")}`);
  }
  for (const v of violations) {
    found.push({
      where,
      id: v.id,
      impact: v.impact ?? "?",
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: (n.failureSummary ?? "").replace(/\s+/g, " ").trim() })),
    });
  }
}

function report(found: Found[]) {
  return found
    .map((v) =>
      [`${v.id} (${v.impact}) on ${v.where}: ${v.help}`, ...v.nodes.map((n) => `    ${n.target}\n      ${n.summary}`)].join("\n"),
    )
    .join("\n");
}

function expectNone(found: Found[]) {
  expect(found.length, `axe violations:\n${report(found)}`).toBe(0);
}

/** The first roll button of the sheet ("Roll Strength", "Roll test", …): tap it, check, close. */
async function checkRollPanel(page: Page, where: string, found: Found[]) {
  const roll = page.getByRole("button", { name: /^Roll / });
  if ((await roll.count()) === 0) return;
  await roll.first().scrollIntoViewIfNeeded();
  await roll.first().tap();
  // A dialog when the sheet opens one; else the page as it is after the tap (an inline panel).
  await page.getByRole("dialog").first().waitFor({ state: "visible", timeout: 2_000 }).catch(() => {});
  await page.waitForTimeout(200); // let an opening transition settle before colours are read
  await axe(page, `${where}, after tapping “${(await roll.first().getAttribute("aria-label")) ?? (await roll.first().innerText())}”`, found);
  await page.keyboard.press("Escape");
}

/** A character sheet: each mode when it has tabs, else the sheet as it is; a roll panel in Play. */
async function checkSheet(page: Page, where: string, found: Found[]) {
  const tabs = page.getByRole("tab");
  const n = await tabs.count();
  if (n === 0) {
    await axe(page, where, found);
    await checkRollPanel(page, where, found);
    return;
  }
  for (let i = 0; i < n; i++) {
    const tab = tabs.nth(i);
    const name = (await tab.innerText()).trim();
    await tab.tap();
    await expect(tab).toHaveAttribute("aria-selected", "true");
    await axe(page, `${where}, ${name} mode`, found);
    if (/^play$/i.test(name)) await checkRollPanel(page, `${where}, ${name} mode`, found);
  }
}

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      // The theme as the app stores it (storage/settings.rs), read by index.html before paint.
      await page.emulateMedia({ colorScheme: theme });
      await page.addInitScript((t) => {
        try {
          localStorage.setItem("rollsheet.settings", JSON.stringify({ schema_version: 1, theme: t }));
        } catch {}
      }, theme);
    });

    for (const path of ["/", "/roller", "/combat", "/settings"]) {
      test(`${path} has no axe violations`, async ({ page }) => {
        await page.goto(path);
        await appReady(page);
        await expect(page.locator("h1").first()).toBeAttached();
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        const found: Found[] = [];
        await axe(page, `${path} (${theme})`, found);
        expectNone(found);
      });
    }

    test("the share dialog and Import's scan advice have no axe violations", async ({ page }) => {
      await createCharacter(page, "Shared", "Heimr");
      await page.getByRole("link", { name: "Characters" }).tap();
      await page.locator("li.roster-entry").getByRole("button", { name: "Share", exact: true }).tap();
      await expect(page.getByTestId("share-status")).toContainText("QR version");
      const found: Found[] = [];
      await axe(page, `the share dialog (${theme})`, found);
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Scan a code" }).tap();
      await axe(page, `Import with the scan advice (${theme})`, found);
      expectNone(found);
    });

    for (const system of ["symbaroum", "heimr", "vogt", "aura", "tempo"]) test(`a running ${system} fight and a combatant's sheet have no axe violations`, async ({ page }) => {
      await page.goto("/combat");
      await appReady(page);
      await page.getByLabel("Name", { exact: true }).fill("Axe fight");
      await page.getByLabel("Rule system").selectOption(system);
      await page.getByRole("button", { name: "Create encounter" }).tap();
      await page.getByLabel("Name", { exact: true }).fill("Goblin");
      await page.getByRole("spinbutton", { name: "How many", exact: true }).fill("3");
      await page.getByRole("spinbutton", { name: "How many", exact: true }).press("Enter");
      await page.getByRole("button", { name: "Add Goblin ×3" }).tap();
      await page.getByTestId("next").tap();
      await expect(page.getByTestId("turn-status")).toHaveText(/^Round [01] · /);
      const found: Found[] = [];
      await axe(page, `running ${system} fight (${theme})`, found);
      await page.locator("li.fighter .fighter-main").first().tap();
      await page.getByRole("dialog").waitFor({ state: "visible" });
      await page.waitForTimeout(200);
      await axe(page, `a ${system} combatant's sheet (${theme})`, found);
      expectNone(found);
    });

    for (const system of ["Heimr", "Symbaroum-style", "Bo Vogt", "Energy / Aura", "Tempo combat"]) {
      test(`a ${system} sheet has no axe violations in any mode`, async ({ page }) => {
        await createCharacter(page, `Axe ${system}`, system);
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        const found: Found[] = [];
        await checkSheet(page, `${system} sheet (${theme})`, found);
        expectNone(found);
      });
    }
  });
}
