#!/bin/sh
# The long fuzz run of every importer and of loading stored entries (tests/fuzz_import.rs):
#   scripts/fuzz.sh [CASES] [FIRST_SEED]     (default 1 000 000 cases from seed 1)
# The test command runs 10 000 of the same cases; a failure prints its seed, and
# FUZZ_CASES=1 FUZZ_SEED=<seed> cargo test --test fuzz_import replays it.
set -eu
cd "$(dirname "$0")/.."
FUZZ_CASES="${1:-1000000}" FUZZ_SEED="${2:-1}" cargo test --release --locked --test fuzz_import -- --nocapture
