import { test, expect, appReady, createCharacter, waitForController } from "./fixtures";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const DIST = join(ROOT, "dist");

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf: Buffer) {
  expect(buf.subarray(1, 4).toString()).toBe("PNG");
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

test("the manifest is linked, parses and its icons load", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const res = await request.get(href!);
  expect(res.ok()).toBe(true);
  const m = await res.json();
  expect(m).toMatchObject({
    name: "Rollsheet",
    short_name: "Rollsheet",
    start_url: "/",
    scope: "/",
    display: "standalone",
  });
  expect(m.description.length).toBeGreaterThan(10);
  expect(m.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(m.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  const purposes = new Set<string>();
  for (const icon of m.icons) {
    const r = await request.get(icon.src);
    expect(r.ok(), icon.src).toBe(true);
    expect(r.headers()["content-type"]).toBe("image/png");
    const [w, h] = pngSize(await r.body());
    expect(`${w}x${h}`).toBe(icon.sizes);
    purposes.add(icon.purpose);
  }
  expect(m.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  expect(purposes).toContain("maskable");
});

test("after the first visit the app reloads offline, on / and on deep paths", async ({ page, context }) => {
  await page.goto("/");
  await appReady(page);
  await waitForController(page);
  await context.setOffline(true);
  try {
    await page.reload();
    await appReady(page);
    await expect(page.getByRole("heading", { name: "Characters" })).toBeVisible();
    await page.goto("/roller");
    await appReady(page);
    await page.getByLabel("Roll", { exact: true }).fill("3d6");
    await page.locator(".roll-btn").tap();
    await expect(page.getByTestId("total")).toHaveText(/^\d+$/);
    await page.goto("/combat");
    await expect(page.getByRole("heading", { name: "Combat" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: "Combat" })).toBeVisible();
    // Pages whose modules this phone never opened online: the worker has them all.
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
    await page.goto("/");
    await appReady(page);
    await page.getByRole("button", { name: "New character" }).tap();
    await page.getByLabel("Name", { exact: true }).fill("Offline");
    await page.getByRole("button", { name: "Symbaroum" }).tap();
    await expect(page.getByLabel("Character name")).toHaveValue("Offline");
  } finally {
    await context.setOffline(false);
  }
});

test("the worker precaches every built file and its version changes with the build", async ({ request }) => {
  const sw = await (await request.get("/sw.js")).text();
  const list: string[] = JSON.parse(sw.match(/^const PRECACHE = (.*);$/m)![1]);
  const version = sw.match(/^const VERSION = "([0-9a-f]{16})";$/m)![1];
  for (const must of ["/index.html", "/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png", "/icons/icon-maskable-512.png", "/sw-register.js"]) {
    expect(list).toContain(must);
  }
  // The app's modules: the main one, each page's and the shared chunks, all in one versioned
  // folder (scripts/build-wasm.sh), every one of them precached.
  const [pkg] = readdirSync(join(DIST, "pkg")).filter((n) => /^[0-9a-f]{16}$/.test(n));
  const built = readdirSync(join(DIST, "pkg", pkg)).filter((f) => /\.(wasm|js)$/.test(f));
  expect(built).toEqual(expect.arrayContaining(["rollsheet_bg.wasm", "rollsheet.js", "__wasm_split.js", "split_pages.wasm", "split_heimr.wasm", "split_tempo.wasm", "split_fights.wasm"]));
  for (const f of built) expect(list).toContain(`/pkg/${pkg}/${f}`);
  expect(list).toContain("/pkg/boot.js");
  // The stylesheet is in the page (no file of its own to fetch before the first paint).
  expect(list.some((f) => f.endsWith(".css"))).toBe(false);
  expect(list).not.toContain("/sw.js");
  const index = await (await request.get("/index.html")).text();
  expect(index).toContain(`<meta name="build-id" content="${version}">`);
  expect(index).toMatch(/<style>[^<]*\.boot\{[^<]*<\/style>/);
});

test.describe("a module missing", () => {
  // No worker (a first visit cut off before it finished).
  test.use({ serviceWorkers: "block" });
  test("a page whose module cannot be fetched says so, and opens once it can", async ({ page }) => {
    let refuse = true;
    await page.route(/\/split_pages\.wasm$/, (route) => (refuse ? route.abort() : route.continue()));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/roller");
    await expect(page.getByRole("heading", { name: "Not on this phone yet" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    refuse = false;
    await page.getByRole("button", { name: "Try again" }).tap();
    await expect(page.getByLabel("Roll", { exact: true })).toBeVisible();
    expect(errors).toEqual([]);
  });
});

test.describe("the opening page's modules", () => {
  // No worker: every module comes from the network, as on a first visit.
  test.use({ serviceWorkers: "block" });
  test("are asked for by the page before the app runs, and each fetched once", async ({ page }) => {
    await createCharacter(page, "Early", "Heimr");
    const sheet = new URL(page.url()).pathname;
    // A stored Vogt fight: its page needs the fights' module, not Vogt's sheet's; a Heimr sheet
    // Heimr's sheet module, not the fights' (which also hold the list of fights, the live table
    // and the encounter engine).
    const fight = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/encounter-vogt-v1.json"), "utf8"));
    await page.evaluate((e) => {
      localStorage.setItem(`rollsheet.enc.${e.id}`, JSON.stringify(e));
      localStorage.setItem("rollsheet.encounters", JSON.stringify({ schema_version: 2, ids: [e.id] }));
    }, fight);
    for (const [path, split, others] of [
      [sheet, "heimr", ["fights"]],
      [`/combat/${fight.id}`, "fights", ["vogt"]],
      ["/roller", "pages", ["heimr", "fights"]],
      ["/table", "fights", ["pages"]],
      ["/combat", "fights", ["pages", "heimr"]],
      ["/", null, ["pages", "fights"]],
    ] as const) {
      const asked: string[] = [];
      const note = (r: import("@playwright/test").Request) => {
        const file = new URL(r.url()).pathname;
        if (file.endsWith(".wasm")) asked.push(file.replace(/^.*\//, ""));
      };
      page.on("request", note);
      // The app cannot run until boot.js comes: what is asked for meanwhile, the page asked.
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      await page.route("**/pkg/boot.js", async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(path, { waitUntil: "commit" });
      // What the page has asked for (its own record: nothing is taken before the app runs).
      const pageAsked = () =>
        page.evaluate(() => Object.keys((self as unknown as { rollsheetAsked?: object }).rollsheetAsked ?? {}).map((k) => k.replace(/^.*\//, "")).sort());
      await expect.poll(pageAsked, { message: `${path}: the wasm asked early` }).toContain("rollsheet_bg.wasm");
      const early = await pageAsked();
      if (split) expect(early, path).toContain(`split_${split}.wasm`);
      for (const other of others) expect(early, path).not.toContain(`split_${other}.wasm`);
      if (!split) expect(early, path).toEqual(["rollsheet_bg.wasm"]);
      // wasm-split's many small shared chunks come merged into a few files
      // (scripts/merge-chunks.mjs): the main module, the page's own and at most four more.
      expect(early.length, `${path}: ${early.join(" ")}`).toBeLessThanOrEqual(6);
      release();
      if (split === "heimr") await expect(page.locator("button.roll-row-btn").first()).toBeVisible();
      else if (path === "/table") await expect(page.getByText("scan the code on the GM’s phone")).toBeVisible();
      else if (path === "/combat") await expect(page.getByRole("button", { name: "Create encounter" })).toBeVisible();
      else if (split === "fights") await expect(page.getByRole("heading", { name: fight.name })).toBeVisible();
      else if (split === "pages") await expect(page.getByLabel("Roll", { exact: true })).toBeVisible();
      else await appReady(page);
      // The app took the page's answers: each module fetched once, none asked late (the page's
      // list of the chunks a module needs is the split loader's own).
      await page.waitForLoadState("networkidle");
      expect([...asked].sort(), path).toEqual(early);
      await page.unroute("**/pkg/boot.js");
      page.off("request", note);
    }
  });
});

test.describe("a tab opened in the background", () => {
  test.use({ serviceWorkers: "block" });
  test("starts the app without a frame painted: boot.js asks for the modules itself, once", async ({ page }) => {
    await createCharacter(page, "Hidden", "Heimr");
    const sheet = new URL(page.url()).pathname;
    // A hidden tab: no frames, so no paint to wait for (neither callback ever runs).
    await page.addInitScript(() => {
      Object.defineProperty(Document.prototype, "hidden", { get: () => true });
      Object.defineProperty(Document.prototype, "visibilityState", { get: () => "hidden" });
      window.requestAnimationFrame = () => 0;
      (window as unknown as { PerformanceObserver?: unknown }).PerformanceObserver = undefined;
    });
    const asked: string[] = [];
    page.on("request", (r) => {
      const file = new URL(r.url()).pathname;
      if (file.endsWith(".wasm")) asked.push(file.replace(/^.*\//, ""));
    });
    await page.goto(sheet);
    await expect(page.locator("button.roll-row-btn").first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(asked).toContain("split_heimr.wasm");
    expect(new Set(asked).size, asked.join(" ")).toBe(asked.length);
  });
});

test.describe("update flow", () => {
  const PORT = 4174;
  test.use({ appOrigins: [`http://127.0.0.1:${PORT}`] });
  let server: ChildProcess;
  let site: string;
  let buildB: string;

  test.beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), "rollsheet-update-"));
    site = join(work, "site");
    buildB = join(work, "b");
    cpSync(DIST, site, { recursive: true }); // build A is served first
    // Build B: the same app with a marker, re-stamped by the real post-build script.
    cpSync(DIST, buildB, { recursive: true });
    const index = join(buildB, "index.html");
    writeFileSync(index, readFileSync(index, "utf8").replace("<title>", '<meta name="test-build" content="B"><title>'));
    execFileSync("node", [join(ROOT, "scripts/precache.mjs"), buildB]);
    server = spawn("node", [join(ROOT, "scripts/serve.mjs"), site, String(PORT)], { stdio: "ignore" });
    for (let i = 0; i < 50; i++) {
      try {
        await fetch(`http://127.0.0.1:${PORT}/`);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });

  test.afterAll(() => {
    server?.kill();
    rmSync(join(site, ".."), { recursive: true, force: true });
  });

  test("a new build shows “Update available”, runs after the tap, and keeps stored data", async ({ page }) => {
    const base = `http://127.0.0.1:${PORT}`;
    await page.goto(`${base}/roller`);
    await appReady(page);
    await waitForController(page);
    const versionA = await page.locator('meta[name="build-id"]').getAttribute("content");
    await page.getByLabel("Roll", { exact: true }).fill("2d6");
    await page.locator(".roll-btn").tap();
    await page.goto(`${base}/settings`);
    await page.getByRole("radio", { name: "Dark" }).tap();
    const before = await page.evaluate(() => ({ ...localStorage }));
    expect(Object.keys(before).sort()).toEqual(["rollsheet.rolllog", "rollsheet.settings"]);
    await expect(page.getByText("Update available")).toHaveCount(0);

    // Deploy build B and let the page look for it.
    cpSync(buildB, site, { recursive: true });
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await expect(page.getByText("Update available")).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('meta[name="test-build"]')).toHaveCount(0); // still A until asked

    await page.getByRole("button", { name: "Update now" }).tap();
    await expect(page.locator('meta[name="test-build"]')).toHaveAttribute("content", "B", { timeout: 15_000 });
    await appReady(page);
    const versionB = await page.locator('meta[name="build-id"]').getAttribute("content");
    expect(versionB).not.toBe(versionA);
    await expect(page.getByText("Update available")).toHaveCount(0);
    expect(await page.evaluate(() => ({ ...localStorage }))).toEqual(before);
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    // Only the new version's cache is left.
    expect(await page.evaluate(() => caches.keys())).toEqual([`rollsheet-${versionB}`]);
    await page.goto(`${base}/roller`);
    await expect(page.locator(".log-entry")).toHaveCount(1);
  });
});
