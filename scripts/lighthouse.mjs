#!/usr/bin/env node
// Lighthouse performance of the release build, as a phone on a slow network sees it (the
// default mobile preset: simulated slow 4G and a 4× slower CPU), served compressed by
// scripts/serve.mjs on a free 127.0.0.1 port. Runs it five times and prints each run, the median
// and the best: score, LCP, TBT, FCP, bytes transferred. Installs nothing: lighthouse comes from
// package.json, Chromium from scripts/setup.sh.
//
// The guard is on the best run, not the median. The noise of a run on this 2-core machine is
// one-sided: another process can only lengthen the main-thread tasks that TBT sums, never shorten
// them (the reasoning of timeit's "take the minimum"). One build measured 86, 87, 86, 82, 85 in a
// row here, and the same commit's CI run 83, 74, 83 (TBT 389–798 ms): a median guard failed at
// random. A real regression lowers every run, the best one included, and still fails the guard.
//
// Usage: node scripts/lighthouse.mjs [DIR|URL] [PATH]
//   DIR   a built app (default dist/, e.g. the one scripts/serve.sh just built); served here
//   URL   an app already being served (e.g. http://127.0.0.1:8080 from scripts/serve.sh)
//   PATH  the page to audit (default /)
// Writes the summary to test-results/lighthouse.json and each report to test-results/lighthouse/.

// The best run's performance score must reach this: 95 since issue 25 (the wasm split into
// modules, the boot shell painting first); it was 85 while the app was one 555 KB module.
const MIN_SCORE = 95;
const RUNS = Number(process.env.LH_RUNS || 5);
const RUN_TIMEOUT_MS = 120_000;

import { spawn } from "node:child_process";
import { serverOrigin } from "./server-origin.mjs";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CHROME = process.env.CHROME_PATH || "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-dev-shm-usage",
];
const target = process.argv[2] || "dist";
const pagePath = process.argv[3] || "/";
const outDir = join(ROOT, "test-results", "lighthouse");

function fail(message) {
  console.error(`lighthouse: ${message}`);
  process.exitCode = 1;
}

/** Starts serve.mjs on a free port; resolves with the child and its origin once it listens. */
async function startServer(dir) {
  const child = spawn(process.execPath, [join(ROOT, "scripts/serve.mjs"), dir, "0"], { stdio: ["ignore", "pipe", "inherit"] });
  return { child, origin: await serverOrigin(child) };
}

/** One Lighthouse run; resolves with the parsed JSON report. */
function runLighthouse(url, i) {
  const bin = join(ROOT, "node_modules/.bin/lighthouse");
  if (!existsSync(bin)) throw new Error("node_modules/.bin/lighthouse is missing: run scripts/setup.sh (npm ci)");
  const profile = mkdtempSync(join(tmpdir(), "rollsheet-lh-"));
  const report = join(outDir, `run-${i + 1}.json`);
  const args = [
    url,
    "--only-categories=performance",
    "--output=json",
    `--output-path=${report}`,
    `--chrome-flags=${[...CHROME_FLAGS, `--user-data-dir=${profile}`].join(" ")}`,
    "--quiet",
  ];
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(bin, args, { env: { ...process.env, CHROME_PATH: CHROME }, stdio: ["ignore", "inherit", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      rejectRun(new Error(`run ${i + 1} took longer than ${RUN_TIMEOUT_MS / 1000} s`));
    }, RUN_TIMEOUT_MS);
    child.on("exit", (code) => {
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
      if (code !== 0) return rejectRun(new Error(`run ${i + 1} exited with ${code}:\n${err.slice(-3000)}`));
      try {
        resolveRun(JSON.parse(readFileSync(report, "utf8")));
      } catch (e) {
        rejectRun(new Error(`run ${i + 1}: no readable report (${e.message})`));
      }
    });
  });
}

function figures(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue;
  const score = lhr.categories.performance.score;
  if (lhr.runtimeError) throw new Error(`Lighthouse runtime error: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (score == null) throw new Error("Lighthouse gave no performance score (the page did not load?)");
  return {
    score: Math.round(score * 100),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    fcp: audit("first-contentful-paint"),
    cls: audit("cumulative-layout-shift"),
    transfer: audit("total-byte-weight"),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const row = (label, f) =>
  label.padEnd(8) +
  String(f.score).padStart(6) +
  `${(f.lcp / 1000).toFixed(2)} s`.padStart(10) +
  `${Math.round(f.tbt)} ms`.padStart(10) +
  `${(f.fcp / 1000).toFixed(2)} s`.padStart(10) +
  f.cls.toFixed(3).padStart(8) +
  `${(f.transfer / 1024).toFixed(1)} KB`.padStart(12);

let server;
try {
  mkdirSync(outDir, { recursive: true });
  let origin;
  if (/^https?:\/\//.test(target)) {
    origin = target.replace(/\/+$/, "");
  } else {
    if (!existsSync(join(target, "index.html"))) throw new Error(`${target}/index.html not found: build first (trunk build --release)`);
    server = await startServer(target);
    origin = server.origin;
  }
  const url = origin + pagePath;
  console.log(`lighthouse: ${url}, mobile preset, performance only, ${RUNS} runs`);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(figures(await runLighthouse(url, i)));
  const med = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k]))]));
  console.log("run".padEnd(8) + "score".padStart(6) + "LCP".padStart(10) + "TBT".padStart(10) + "FCP".padStart(10) + "CLS".padStart(8) + "transfer".padStart(12));
  runs.forEach((r, i) => console.log(row(`#${i + 1}`, r)));
  const best = runs.reduce((a, b) => (b.score > a.score ? b : a));
  console.log(row("median", med));
  console.log(row("best", best));
  writeFileSync(join(ROOT, "test-results", "lighthouse.json"), JSON.stringify({ url, minScore: MIN_SCORE, runs, median: med, best }, null, 2) + "\n");
  if (best.score < MIN_SCORE) fail(`best performance score ${best.score} of ${RUNS} runs is under ${MIN_SCORE}`);
  else console.log(`lighthouse: best score ${best.score} ≥ ${MIN_SCORE}, median ${med.score}`);
} catch (e) {
  fail(e.message);
} finally {
  server?.child.kill();
}
