import { test, expect, createCharacter, setNumber, mode, row, wrappedButtons, sidewaysOverflow, smallTargets } from "./fixtures";

// Phone screenshots of every sheet mode and a roll sheet, in the light and the dark theme, for
// people to look at (test-results/screens/). Each also checks what Play promises: the numbers a
// roll needs are on the first screen, without scrolling.

for (const theme of ["light", "dark"] as const) {
  test(`sheets in every mode, ${theme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    const shot = (name: string, fullPage = true) =>
      page.screenshot({ path: `test-results/screens/${name}-${theme}.png`, fullPage });

    await createCharacter(page, "Astrid", "Heimr");
    await mode(page, "Edit");
    await setNumber(page, "Strength", 2);
    await setNumber(page, "Base consistency of Brawl", 1);
    await mode(page, "Play");
    await page.getByLabel("New entry for Conditions").fill("Prone");
    await page.getByRole("button", { name: "Add", exact: true }).tap();
    for (const name of ["Brawl", "Insight"]) await expect(row(page, name)).toBeInViewport();
    await expect(row(page, "Brawl").getByTestId("consistency")).toHaveText("1");
    await shot("heimr-play", false);
    await shot("heimr-play-full");
    expect(await wrappedButtons(page)).toEqual([]);
    await page.getByRole("button", { name: "Roll Brawl" }).tap();
    await page.getByRole("dialog", { name: "Roll Brawl" }).getByLabel("CR", { exact: true }).fill("7");
    await shot("heimr-roll-sheet", false);
    await page.keyboard.press("Escape");
    await mode(page, "Edit");
    await shot("heimr-edit");
    expect(await wrappedButtons(page), "no button label breaks over two lines").toEqual([]);
    await mode(page, "Advance");
    await shot("heimr-advance");
    expect(await wrappedButtons(page)).toEqual([]);

    await createCharacter(page, "Varla", "Symbaroum-style d20");
    await expect(row(page, "Vigilant")).toBeInViewport();
    await expect(page.getByTestId("defense")).toBeInViewport();
    await shot("symbaroum-play", false);
    await page.getByRole("button", { name: "Roll Unarmed" }).tap();
    await shot("symbaroum-roll-sheet", false);
    await page.keyboard.press("Escape");
    await mode(page, "Edit");
    await shot("symbaroum-edit");
    expect(await wrappedButtons(page)).toEqual([]);
    await mode(page, "Advance");
    await shot("symbaroum-advance");
    expect(await wrappedButtons(page)).toEqual([]);
    await createCharacter(page, "Ilse", "Bo Vogt");
    for (const name of ["STR", "WIL", "Club"]) await expect(row(page, name)).toBeInViewport();
    for (const id of ["ar", "speed", "slots", "quick-slots"]) await expect(page.getByTestId(id)).toBeInViewport();
    await shot("vogt-play", false);
    await shot("vogt-play-full");
    expect(await wrappedButtons(page)).toEqual([]);
    await page.getByRole("button", { name: /^Roll Club/ }).tap();
    await shot("vogt-roll-sheet", false);
    await page.keyboard.press("Escape");
    await mode(page, "Edit");
    await shot("vogt-edit");
    expect(await wrappedButtons(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await mode(page, "Advance");
    await shot("vogt-advance");
    await createCharacter(page, "Maren", "Energy / Aura");
    for (const name of ["Evasion", "Will"]) await expect(row(page, name)).toBeInViewport();
    for (const id of ["evasion", "fortitude", "will", "energy", "agility"]) await expect(page.getByTestId(id)).toBeInViewport();
    await shot("aura-play", false);
    await shot("aura-play-full");
    expect(await wrappedButtons(page)).toEqual([]);
    await page.getByRole("button", { name: /^Roll Longsword in melee/ }).tap();
    await shot("aura-roll-sheet", false);
    await page.keyboard.press("Escape");
    await mode(page, "Edit");
    await shot("aura-edit");
    expect(await wrappedButtons(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await mode(page, "Advance");
    await shot("aura-advance");
    await createCharacter(page, "Ilse", "Tempo combat");
    for (const id of ["defence", "armoured", "grapple", "movement", "dice"]) await expect(page.getByTestId(id)).toBeInViewport();
    await shot("tempo-play", false);
    await shot("tempo-play-full");
    expect(await wrappedButtons(page)).toEqual([]);
    await mode(page, "Edit");
    await shot("tempo-edit");
    expect(await wrappedButtons(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await mode(page, "Advance");
    await shot("tempo-advance");
    await page.goto("/roller");
    expect(await wrappedButtons(page), "the roller's Clear stays one word").toEqual([]);

    // A fight: the order with the current combatant on the first screen, and one sheet.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Combat" }).tap();
    await page.getByLabel("Name", { exact: true }).fill("Ford");
    await page.getByRole("button", { name: "Create encounter" }).tap();
    await page.getByRole("button", { name: "Add Varla" }).tap();
    await page.getByLabel("Name", { exact: true }).fill("Goblin");
    await setNumber(page, "How many", 3);
    await page.getByRole("button", { name: "Add Goblin ×3" }).tap();
    await page.getByTestId("next").tap();
    await expect(page.getByTestId("turn-status")).toHaveText(/^Round 1 · /);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.locator("li.fighter").last()).toBeInViewport();
    await expect(page.getByTestId("next")).toBeInViewport();
    await shot("combat-fight", false);
    await shot("combat-fight-full");
    expect(await wrappedButtons(page)).toEqual([]);
    expect(await sidewaysOverflow(page), "nothing wider than the phone").toBe(0);
    await page.locator('li.fighter[data-combatant="Varla"] .fighter-main').tap();
    await shot("combat-sheet", false);
    await page.keyboard.press("Escape");

    // A Heimr fight: rolled initiative, the shown defences in the order, a combatant's panels.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Combat" }).tap();
    await page.getByLabel("Name", { exact: true }).fill("Heimr ford");
    await page.getByLabel("Rule system").selectOption("heimr");
    await page.getByRole("button", { name: "Create encounter" }).tap();
    await page.getByRole("button", { name: "Add Astrid" }).tap();
    await page.getByLabel("Name", { exact: true }).fill("Bandit");
    await setNumber(page, "How many", 2);
    await page.getByRole("button", { name: "Add Bandit ×2" }).tap();
    await page.getByTestId("roll-initiative").tap();
    await page.locator('li.fighter[data-combatant="Bandit 1"] .fighter-main').tap();
    await page.locator("dialog[open]").getByRole("button", { name: /^Roll dodge/ }).tap();
    await page.keyboard.press("Escape");
    await page.getByTestId("next").tap();
    await expect(page.getByTestId("turn-status")).toHaveText(/^Round 1 · .* · 0:00$/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByTestId("next")).toBeInViewport();
    await shot("heimr-fight", false);
    expect(await sidewaysOverflow(page), "nothing wider than the phone").toBe(0);
    await page.locator('li.fighter[data-combatant="Astrid"] .fighter-main').tap();
    const dialog = page.locator("dialog[open]");
    await shot("heimr-fight-sheet", false);
    for (const [i, panel] of ["Attack", "Effect", "Weapon and shield"].entries()) {
      await dialog.locator(`section[aria-label="${panel}"]`).scrollIntoViewIfNeeded();
      await shot(`heimr-fight-sheet-${i + 2}`, false);
    }
    expect(await smallTargets(page), "every control at least 44 px").toEqual([]);
    expect(await sidewaysOverflow(page), "the sheet fits the phone").toBe(0);
    await page.keyboard.press("Escape");

    // Sharing: the roster's buttons, and the share dialog's code dark on white in both themes.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Characters" }).tap();
    await shot("characters");
    expect(await wrappedButtons(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.locator("li.roster-entry").filter({ hasText: "Astrid" }).getByRole("button", { name: "Share", exact: true }).tap();
    await expect(page.getByTestId("share-status")).toContainText("QR version");
    await shot("share-dialog", false);
    const qr = page.getByTestId("qr");
    expect(await qr.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(255, 255, 255)");
    expect((await qr.boundingBox())!.width, "wide enough to scan across a table").toBeGreaterThan(300);
    expect(await smallTargets(page)).toEqual([]);
    await page.keyboard.press("Escape");
  });
}
