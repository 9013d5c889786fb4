import { test, expect, appReady, smallTargets } from "./fixtures";

test("bottom navigation reaches every page with real paths", async ({ page }) => {
  await page.goto("/");
  await appReady(page);
  await expect(page.getByRole("heading", { name: "Characters" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [label, path, heading] of [
    ["Roller", "/roller", "Roll log"],
    ["Combat", "/combat", "Combat"],
    ["Settings", "/settings", "Settings"],
    ["Characters", "/", "Characters"],
  ]) {
    await nav.getByRole("link", { name: label }).tap();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole("heading", { name: heading, exact: false }).first()).toBeVisible();
    await expect(nav.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
  }
});

test("a reload on a deep path shows that page", async ({ page }) => {
  await page.goto("/settings");
  await appReady(page);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
});

test("an unknown path shows not-found with a way back", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByText("/no/such/page")).toBeVisible();
  await page.getByRole("link", { name: "Back to characters" }).tap();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { name: "Characters" })).toBeVisible();
});

test("settings shows the version and the theme override persists", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/settings");
  await expect(page.getByTestId("version")).toHaveText(/^\d+\.\d+\.\d+$/);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bg();
  await page.getByRole("radio", { name: "Dark" }).tap();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await bg()).not.toBe(light);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("radio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");
  await page.getByRole("radio", { name: "Automatic" }).tap();
  await expect(page.locator("html")).not.toHaveAttribute("data-theme", /.*/);
  expect(await bg()).toBe(light);
});

test("the automatic theme follows the system", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await appReady(page);
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: "light" });
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(dark).toBe("rgb(21, 23, 28)");
  expect(light).toBe("rgb(244, 241, 234)");
});

test("touch targets are at least 44 px and inputs use 16 px text", async ({ page }) => {
  for (const path of ["/", "/roller", "/combat", "/settings"]) {
    await page.goto(path);
    await appReady(page);
    expect(await smallTargets(page), `small targets on ${path}`).toEqual([]);
    const fonts = await page.evaluate(() =>
      [...document.querySelectorAll("input")].map((el) => parseFloat(getComputedStyle(el).fontSize)),
    );
    expect(fonts.every((f) => f >= 16), `input font sizes on ${path}: ${fonts}`).toBe(true);
  }
});

test("the layout fits a 320 px screen without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  for (const path of ["/", "/roller", "/combat", "/settings"]) {
    await page.goto(path);
    await appReady(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test("a panic shows a readable message with a reload button", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/__crash");
  await page.getByRole("button", { name: "Crash the app" }).tap();
  const fatal = page.locator("#fatal");
  await expect(fatal).toBeVisible();
  await expect(fatal).toContainText("Something went wrong");
  await expect(page.locator("#fatal-message")).toContainText("crash requested");
  await fatal.getByRole("button", { name: "Reload" }).tap();
  await expect(page.getByRole("button", { name: "Crash the app" })).toBeVisible();
  await expect(fatal).toBeHidden();
});
