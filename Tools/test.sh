#!/usr/bin/env bash
# Installs what the build needs, then runs the whole test suite, which includes the short
# forms of the crash harnesses (CrashHarnessTests; Tools/crash-test.sh runs the long
# forms) and of the fuzz targets (HearthFuzzingTests; the fuzzer itself is Tools/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
Tools/check-doc-comments.py
swift build --build-tests
Tools/check-docc.sh
swift test --skip-build
