#!/usr/bin/env bash
# The long form of the corruption sweep (the test suite runs the short form:
# CorruptionSweepTests, 1,000 flips and 50 truncations).
#
#   Tools/corruption-sweep.sh [FLIPS] [TRUNCATIONS] [SEED] [USERS]
#                                  # defaults: 10000 flips, 500 truncations, seed 13, 20 users
#
# Writes a demo database of USERS users (hearth-demo --users), then, one copy at a time,
# flips one random bit of its data.mdb (FLIPS times) or cuts it at a random length
# (TRUNCATIONS times), and runs the built hearth with get, query, export, stats and check
# on each copy, two at a time. Every run must end with an exit status and a message,
# never with a signal; a failure names the seed and the damage, so that it reproduces.
set -euo pipefail
cd "$(dirname "$0")/.."

export HEARTH_SWEEP_FLIPS="${1:-10000}"
export HEARTH_SWEEP_TRUNCATIONS="${2:-500}"
export HEARTH_SWEEP_SEED="${3:-13}"
export HEARTH_SWEEP_USERS="${4:-20}"

echo "Building hearth, hearth-demo and the tests…" >&2
swift build --build-tests >/dev/null
echo "Sweeping: $HEARTH_SWEEP_FLIPS flips and $HEARTH_SWEEP_TRUNCATIONS truncations (seed $HEARTH_SWEEP_SEED)…" >&2
swift test --skip-build --filter CorruptionSweepTests
