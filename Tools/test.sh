#!/usr/bin/env bash
# Installs what the build needs, checks the formatting, the doc comments and the layering
# of docs/architecture.md (Tools/check-layers.sh), then runs the whole test suite and
# Google's system tests of its Python client against `hearth serve` (Tools/wire-tests.sh),
# which includes the short forms of the crash harnesses (CrashHarnessTests;
# Tools/crash-test.sh runs the long forms) and of the fuzz targets (HearthFuzzingTests; the
# fuzzer itself is Tools/fuzz.sh).
#
# It ends with how many tests ran and how many were skipped, and fails when a test was
# skipped that must run here: one that needs the executables (this script builds them) or
# a small tmpfs (where this user can mount one).
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh

# Formatting: swift-format's lint, strict, over every Swift file of the package (the
# rules are .swift-format's), so that formatting cannot drift.
find Package.swift Sources Tests Tools Examples -name '*.swift' -not -path '*/.build/*' -print0 \
  | xargs -0 swift format lint --strict --parallel \
  || { echo "swift format lint failed: run swift format format -i on the files it names" >&2; exit 1; }

Tools/check-doc-comments.py
# The layering of docs/architecture.md: the check must find planted violations, then none.
Tools/check-layers.sh --self-test
Tools/check-layers.sh

swift build --build-tests
Tools/check-docc.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test --skip-build 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# Google's own system tests of its Python client against `hearth serve`, beside Google's
# emulator (or, on a machine without it, beside a recorded run of it): every test that
# passes on the emulator must pass on Hearth, but for the known gaps listed, with why, in
# Tools/Wire/known-gaps.txt (Tools/Wire/README.md tells more).
serve="$(swift build --show-bin-path)/hearth serve --ephemeral --port {port}"
emulator=/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator
reference=()
if ! [ -x "$emulator" ] || ! command -v java >/dev/null; then
  reference=(--a-results Tools/Wire/emulator-outcomes.json)
fi
set +e
Tools/wire-tests.sh --compare "${reference[@]}" --known-gaps Tools/Wire/known-gaps.txt --server-command "$serve"
wire_status=$?
# Google's system tests that skip what Google's emulator cannot do, run anyway where
# Hearth can: PartitionQuery, the update test held back for an emulator issue, and the
# vector searches, which Google runs on a project seeded by its own bootstrap script.
lifted_status=0
Tools/wire-tests.sh --server-command "$serve" --lift-skips 'PartitionQuery|b/137867104|Require index and seed data' \
  --seed-vector-search -k 'test_partition_query or test_update_document or test_vector_search' || lifted_status=1
# Seeded random operations through Google's Python client against both servers, every
# answer and listener snapshot compared (Tools/Wire/differential.py); it needs the
# emulator itself, so a machine without it skips this part (and says so).
differential_status=0
if [ ${#reference[@]} -eq 0 ]; then
  for seed in 1 2 3; do
    Tools/wire-tests.sh differential --seed "$seed" --ops 300 --b "$serve" || differential_status=1
  done
else
  echo "Tools/test.sh: Google's emulator is not installed here: the differential run is skipped"
fi
set -e

# A skipped test or suite prints one line, `… Test name() skipped: "reason"` (or `Suite`),
# and counts among the tests of Swift Testing's summary, `… Test run with N tests passed …`
# (a skipped suite counts as none of the tests it holds).
skips=$(grep -aE '^[^ ]+ (Test|Suite) .* skipped(: ".*"|\.)$' "$log" || true)
skipped_tests=$(printf '%s\n' "$skips" | grep -cE '^[^ ]+ Test ' || true)
skipped_suites=$(printf '%s\n' "$skips" | grep -cE '^[^ ]+ Suite ' || true)
total=$(grep -aoE 'Test run with [0-9]+ tests?' "$log" | grep -oE '[0-9]+' | tail -1 || true)
ran=$((${total:-0} - skipped_tests))
echo "Tools/test.sh: $ran tests ran; skipped: $skipped_tests tests, $skipped_suites suites"
[ -n "$skips" ] && printf '%s\n' "$skips" | sed 's/^/  /'

[ "$status" -eq 0 ] || exit "$status"
if [ "$wire_status" -ne 0 ]; then
  echo "Tools/test.sh: Google's system tests found a difference from Google's emulator (above)" >&2
  exit 1
fi
if [ "$lifted_status" -ne 0 ]; then
  echo "Tools/test.sh: a system test run past the emulator's skips failed (above)" >&2
  exit 1
fi
if [ "$differential_status" -ne 0 ]; then
  echo "Tools/test.sh: the differential run found a difference from Google's emulator (above)" >&2
  exit 1
fi
if [ "$ran" -le 0 ]; then
  echo "Tools/test.sh: no test ran" >&2
  exit 1
fi

# What must not be skipped here. The executables were built above; a tmpfs can be mounted
# where this user may mount one (the suite's own check, FullDiskTests).
required=$(printf '%s\n' "$skips" | grep -E 'not built' || true)
probe=$(mktemp -d)
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=1m tmpfs "$probe" 2>/dev/null; then
  umount "$probe"
  required+=$(printf '\n%s' "$(printf '%s\n' "$skips" | grep -E 'tmpfs' || true)")
fi
rmdir "$probe"
required=$(printf '%s\n' "$required" | grep . || true)
if [ -n "$required" ]; then
  echo "Tools/test.sh: these were skipped but must run here:" >&2
  printf '%s\n' "$required" | sed 's/^/  /' >&2
  exit 1
fi
