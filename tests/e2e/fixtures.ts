import { test as base, expect } from "@playwright/test";

// Every test records every request its browser context makes (pages and service worker) and
// fails if one goes to another origin: Rollsheet never talks to a server but its own.
// A test that serves the app from a second local server lists that origin in `appOrigins`.
export const test = base.extend<{ origins: Set<string>; appOrigins: string[] }>({
  appOrigins: [[], { option: true }],
  origins: [
    async ({ context, baseURL, appOrigins }, use) => {
      const origins = new Set<string>();
      context.on("request", (r) => {
        const u = new URL(r.url());
        if (u.protocol === "http:" || u.protocol === "https:") origins.add(u.origin);
      });
      await use(origins);
      const own = [new URL(baseURL!).origin, ...appOrigins];
      expect([...origins].filter((o) => !own.includes(o)), "requests to other origins").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until the service worker controls the page (after the first visit). */
export async function waitForController(page: import("@playwright/test").Page) {
  // A synchronous predicate: an async one returns a Promise, which counts as true at once.
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15_000 });
}

/** Waits until the app has mounted (the bottom navigation is rendered by Rust). */
export async function appReady(page: import("@playwright/test").Page) {
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
}

/** Visible buttons, links and inputs smaller than 44×44 px (visually hidden ones excepted). */
export async function smallTargets(page: import("@playwright/test").Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("button, a, input, select, summary")]
      .filter((el) => (el as HTMLElement).offsetParent !== null && !el.classList.contains("visually-hidden"))
      .filter((el) => !(el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) || !el.closest("label"))
      // Layout size (a pressed button's brief scale-down is not its size).
      .map((el) => ({ el: el.outerHTML.slice(0, 60), w: (el as HTMLElement).offsetWidth, h: (el as HTMLElement).offsetHeight }))
      .filter(({ w, h }) => w < 44 || h < 44)
      .map(({ el, w, h }) => `${el} ${w}x${h}`),
  );
}

/** How far the page scrolls sideways (0 when everything fits the phone's width). */
export async function sidewaysOverflow(page: import("@playwright/test").Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Creates a character from the roster and waits for its sheet. `system` is the button's label. */
export async function createCharacter(page: import("@playwright/test").Page, name: string, system: string) {
  await page.goto("/");
  await appReady(page);
  await page.getByRole("button", { name: "New character" }).tap();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: system }).tap();
  await expect(page).toHaveURL(/\/c\/[0-9a-f]+$/);
  await expect(page.getByLabel("Character name")).toHaveValue(name);
}

/** Types a whole number into a stepper (by its label) and commits it. */
export async function setNumber(page: import("@playwright/test").Page, label: string, value: number) {
  const input = page.getByRole("spinbutton", { name: label, exact: true });
  await input.fill(String(value));
  await input.press("Enter");
  await input.blur();
  await expect(input).toHaveValue(String(value));
}

/** The percentage a test id shows, as a number. */
export async function shownPercent(page: import("@playwright/test").Page, testId: string) {
  return parseFloat((await page.getByTestId(testId).textContent())!);
}

/** Switches a character page to a mode tab ("Play", "Edit" or "Advance"). */
export async function mode(page: import("@playwright/test").Page, name: "Play" | "Edit" | "Advance") {
  const tab = page.getByRole("tab", { name, exact: true });
  await tab.tap();
  await expect(tab).toHaveAttribute("aria-selected", "true");
}

/** A rollable row of the Play mode, by its name. */
export const row = (page: import("@playwright/test").Page, name: string) => page.locator(`[data-row="${name}"]`);

/** Visible buttons whose label breaks over two lines ("Ad / d", "Lea / rn"). */
export async function wrappedButtons(page: import("@playwright/test").Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("button, .btn")]
      .filter((el) => (el as HTMLElement).offsetParent !== null && (el.textContent ?? "").trim() !== "")
      .filter((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 1).map((r) => Math.round(r.top)));
        // A row button stacks its name and figures on purpose; a word must still not break.
        return el.classList.contains("roll-row-btn") || el.classList.contains("fighter-main")
          ? [...el.querySelectorAll("span, strong, small")].some((s) => s.getClientRects().length > 1 && s.children.length === 0)
          : tops.size > 1;
      })
      .map((el) => el.textContent!.trim()),
  );
}

/** A fight's row, its open combatant sheet (a <dialog>), and the turn status. */
export const fighter = (page: import("@playwright/test").Page, name: string) => page.locator(`li.fighter[data-combatant="${name}"]`);
export const fightSheet = (page: import("@playwright/test").Page) => page.locator("dialog[open]");
export const turnStatus = (page: import("@playwright/test").Page) => page.getByTestId("turn-status");

/** Opens a combatant's sheet from its row in the order. */
export async function openFighter(page: import("@playwright/test").Page, name: string) {
  await fighter(page, name).locator(".fighter-main").tap();
  await expect(fightSheet(page).getByRole("heading", { name })).toBeVisible();
}

export async function closeFighter(page: import("@playwright/test").Page) {
  await fightSheet(page).getByRole("button", { name: "Close" }).tap();
  await expect(fightSheet(page)).toHaveCount(0);
}

/** Opens the app with exactly these saved characters (stored as an old app left them). */
export async function seedCharacters(page: import("@playwright/test").Page, chars: { id: string }[]) {
  await page.goto("/");
  await appReady(page);
  await page.evaluate((list) => {
    for (const c of list) localStorage.setItem(`rollsheet.char.${c.id}`, JSON.stringify(c));
    localStorage.setItem("rollsheet.characters", JSON.stringify({ schema_version: 1, ids: list.map((c) => c.id) }));
  }, chars);
  await page.reload();
  await appReady(page);
}

/** A 390×844 touch phone, for a second browser context ("another phone"). */
export const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** Another phone: a second browser context with empty storage. */
export async function otherPhone(browser: import("@playwright/test").Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, ...phone });
  return { context, page: await context.newPage() };
}

/** Opens the share dialog's link: copies it (the Copy link button) and reads the clipboard. */
export async function copiedLink(page: import("@playwright/test").Page): Promise<string> {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("share-status")).toContainText("Link:");
  await dialog.getByRole("button", { name: "Copy link" }).tap();
  await expect(page.getByText("Link copied.")).toBeVisible();
  await expect(dialog, "sent another way, the dialog closes").toBeHidden();
  return page.evaluate(() => navigator.clipboard.readText());
}
