#!/usr/bin/env bash
# Runs every test layer and fails if any fails:
#   1. host `cargo test` (rules, storage logic, formatting)
#   2. rustfmt check, and clippy on every target, warnings denied
#   3. wasm-bindgen-test in headless Chromium (real localStorage, getrandom fairness)
#   4. release build (precompressed by its post_build hook) + size report against the budget
#   5. Lighthouse performance (mobile preset, best of 5 runs) against its score guard
#   6. WebKit smoke run (WebKitGTK over WebDriver: mount, roll, create, rename, reload)
#   7. Playwright end-to-end tests against the release build in a 390×844 viewport
#      (including axe accessibility checks and the timing report)
# Installs whatever is missing first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh

logs=$(mktemp -d)
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "1/7 host tests (cargo test)"
cargo test --locked 2>&1 | tee "$logs/host.txt"

step "2/7 lints (cargo fmt --check; cargo clippy, warnings denied)"
cargo fmt --check
cargo clippy --locked --all-targets -- -D warnings

step "3/7 browser tests (wasm-bindgen-test in headless Chromium)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/tests/webdriver.json" \
WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test --locked --target wasm32-unknown-unknown --test browser_storage --test browser_dice --test browser_link 2>&1 | tee "$logs/wasm.txt"

step "4/7 release build and size report"
trunk build --release
node scripts/size-report.mjs dist

step "5/7 Lighthouse performance (mobile, best of 5 runs, compressed)"
node scripts/lighthouse.mjs dist

step "6/7 WebKit smoke run (WebKitGTK MiniBrowser over WebDriver)"
node scripts/webkit-smoke.mjs dist

step "7/7 end-to-end (Playwright, release build, 390×844)"
playwright test -c tests/e2e/playwright.config.ts 2>&1 | tee "$logs/e2e.txt"

# One closing line over all layers.
sum() { grep -hoE "$1" "$2" | grep -oE '[0-9]+' | awk '{ s += $1 } END { print s + 0 }'; }
host=$(sum 'test result: ok\. [0-9]+ passed' "$logs/host.txt")
wasm=$(sum 'test result: ok\. [0-9]+ passed' "$logs/wasm.txt")
e2e=$(sum '^ *[0-9]+ passed' "$logs/e2e.txt")
step "summary: host $host, browser $wasm, end-to-end $e2e"
echo "total: $((host + wasm + e2e)) passed, 0 failed"
