#!/usr/bin/env bash
# Builds the release app and serves it on http://127.0.0.1:${PORT:-8080}/.
# Installs whatever is missing first (scripts/setup.sh). The build's post_build hook writes
# brotli and gzip copies of every text and wasm file (scripts/compress.mjs); serve.mjs sends
# them to browsers that accept them (Content-Encoding, Vary: Accept-Encoding), as a real host
# would, so what you measure here (Lighthouse: node scripts/lighthouse.mjs dist) is realistic.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
trunk build --release
exec node scripts/serve.mjs dist "${PORT:-8080}"
