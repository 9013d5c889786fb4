import { defineConfig, devices } from "@playwright/test";

// End-to-end tests against the release build in dist/ (built by scripts/test.sh), served on
// 127.0.0.1 by scripts/serve.mjs (compressed, as a real host), in Debian's Chromium at a
// phone's size. ROLLSHEET_DIST serves another build instead (a path relative to this folder or
// absolute); the update test in pwa.spec.ts always copies ../../dist.
export const PORT = 4173;
const DIST = process.env.ROLLSHEET_DIST || "../../dist";
export const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-dev-shm-usage",
  // The live table's phones find each other by their local addresses; Chromium hides those
  // behind mDNS names by default, which a test machine without an mDNS resolver cannot resolve.
  "--disable-features=WebRtcHideLocalIpsWithMdns",
];

export default defineConfig({
  testDir: ".",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    ...devices["Pixel 7"],
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 390, height: 844 },
    serviceWorkers: "allow",
    launchOptions: { executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS },
    trace: "off",
  },
  projects: [{ name: "phone", use: {} }],
  webServer: {
    command: `node ../../scripts/serve.mjs ${JSON.stringify(DIST)} ${PORT}`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 20_000,
  },
});
