#!/bin/sh
# The long run of the edit sequences (tests/sequences: every system's sheet edits and fights,
# checked after every step against the app's own importer, links, reload and two-tab merge):
#   scripts/fuzz-edits.sh [SEQUENCES] [SEED]     (default 100 000 sequences per test)
# The test command runs 1 000 per test. The seed is printed; a failure prints its minimal
# sequence, and PROPTEST_RNG_SEED=<seed> SEQ_CASES=<n> replays the same run.
set -eu
cd "$(dirname "$0")/.."
SEED="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "edit sequences: ${1:-100000} per test, seed $SEED (replay: PROPTEST_RNG_SEED=$SEED)"
SEQ_CASES="${1:-100000}" PROPTEST_RNG_SEED="$SEED" RUST_BACKTRACE=0 \
  cargo test --release --locked --test sequences -- --test-threads=2
