#!/usr/bin/env bash
# Installs what the build needs, checks the layering of docs/architecture.md
# (Tools/check-layers.sh), then runs the whole test suite, which includes the short
# forms of the crash harnesses (CrashHarnessTests; Tools/crash-test.sh runs the long
# forms) and of the fuzz targets (HearthFuzzingTests; the fuzzer itself is Tools/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
Tools/check-doc-comments.py
# The layering of docs/architecture.md: the check must find planted violations, then none.
Tools/check-layers.sh --self-test
Tools/check-layers.sh
swift build --build-tests
Tools/check-docc.sh
swift test --skip-build
