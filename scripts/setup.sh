#!/usr/bin/env bash
# Installs every tool the build and the tests need, skipping what is already at the right version.
# Idempotent: safe to run on every `serve` and `test`. Works offline from the package registries
# only (crates.io, npm, Debian) — see ../shared/TOOLCHAIN.md for the reasons behind each pin.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
SPLIT_VERSION=0.2.4
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock exactly.
wb_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

install_apt() {
  # Chromium + ChromeDriver (Playwright, wasm-bindgen-test, Lighthouse); WebKitGTK's WebDriver
  # (it brings the MiniBrowser, /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser) and Xvfb
  # for the WebKit smoke run. Skipped when the binaries are already there.
  local want=()
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then want+=(chromium chromium-driver); fi
  if [ ! -x /usr/bin/WebKitWebDriver ] || [ ! -x /usr/bin/Xvfb ]; then want+=(webkit2gtk-driver xvfb); fi
  if [ ${#want[@]} -eq 0 ]; then return; fi
  log "installing Debian ${want[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${want[@]}" >/dev/null
}

install_rust_tools() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  local wb; wb=$(wb_version)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb" ] \
     || ! command -v wasm-bindgen-test-runner >/dev/null; then
    log "installing wasm-bindgen-cli $wb (~3 min)"
    cargo install wasm-bindgen-cli --version "$wb" --force
  fi
  # The wasm's split into modules (scripts/build-wasm.sh); 0.2.4 reads wasm-bindgen 0.2.130's
  # output (earlier versions fail on its import names).
  if ! cargo install --list | grep -qx "wasm_split_cli_support v$SPLIT_VERSION:" \
     || ! command -v wasm-split-cli >/dev/null; then
    log "installing wasm-split-cli $SPLIT_VERSION (~3 min)"
    cargo install wasm_split_cli_support --version "$SPLIT_VERSION" --locked --features build-binary --force
  fi
  if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
    log "installing trunk $TRUNK_VERSION (~13 min on 2 cores)"
    cargo install trunk --version "$TRUNK_VERSION" --locked --no-default-features --features rustls --force
  fi
}

fetch_crates() {
  # trunk runs cargo with --offline (Trunk.toml: offline = true), so fetch every crate first.
  cargo fetch --locked --quiet
}

install_npm() {
  # binaryen (wasm-opt 132; Debian's 108 breaks the page), Playwright (system Chromium only),
  # @axe-core/playwright, lighthouse, and jsqr + pngjs (the e2e tests read QR codes back).
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing npm packages"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
  fi
}

# apt runs alongside the cargo installs (they are CPU bound, apt is network bound).
install_apt > /tmp/rollsheet-apt.log 2>&1 &
apt_pid=$!
install_rust_tools
fetch_crates
install_npm
if ! wait "$apt_pid"; then cat /tmp/rollsheet-apt.log; log "apt install (chromium, webkit2gtk-driver, xvfb) failed"; exit 1; fi
log "tools ready: $(trunk --version), $(wasm-bindgen --version), wasm-opt $(node_modules/.bin/wasm-opt --version | awk '{print $3}'), $(/usr/bin/chromium --version)"
