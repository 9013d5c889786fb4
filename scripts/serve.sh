#!/usr/bin/env bash
# Builds the release app and serves it on http://127.0.0.1:${PORT:-8080}/.
# Installs whatever is missing first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
trunk build --release
exec node scripts/serve.mjs dist "${PORT:-8080}"
