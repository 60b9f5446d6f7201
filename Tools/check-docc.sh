#!/usr/bin/env bash
# Builds the Hearth module's documentation — Sources/Hearth/Hearth.docc and the doc
# comments — with DocC, and fails on any warning (a link that does not resolve, a
# parameter documented under another name), so that the published pages stay whole.
#
# Reads the symbols from the debug build's modules (run `swift build` first) with
# swift-symbolgraph-extract, which takes a second, rather than building again with
# -emit-symbol-graph. Writes the site to $HEARTH_DOCC_OUTPUT (default: a temporary
# directory, removed afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."

find_tool() {
  command -v "$1" 2>/dev/null || { [ "$(uname -s)" = "Darwin" ] && xcrun --find "$1" 2>/dev/null; } || {
    echo "check-docc: $1 not found (it comes with the Swift toolchain)" >&2
    exit 1
  }
}
docc=$(find_tool docc)
extract=$(find_tool swift-symbolgraph-extract)

bin=$(swift build --show-bin-path)
modules="$bin/Modules"  # SwiftPM 6; earlier ones put the modules in the bin directory
[ -e "$modules/Hearth.swiftmodule" ] || modules="$bin"
[ -e "$modules/Hearth.swiftmodule" ] || { echo "check-docc: no Hearth.swiftmodule in $bin; run swift build" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
output="${HEARTH_DOCC_OUTPUT:-$work/site}"
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
sdk=()
[ "$(uname -s)" = "Darwin" ] && sdk=(-sdk "$(xcrun --show-sdk-path)")

mkdir -p "$work/symbols"
"$extract" -module-name Hearth -target "$triple" "${sdk[@]}" -I "$modules" \
  -Xcc -fmodule-map-file=Sources/CLMDB/module.modulemap -Xcc -fmodule-map-file=Sources/CDeflate/module.modulemap \
  -minimum-access-level public -output-dir "$work/symbols"

"$docc" convert Sources/Hearth/Hearth.docc --fallback-display-name Hearth --fallback-bundle-identifier hearth \
  --additional-symbol-graph-dir "$work/symbols" --output-path "$output" --warnings-as-errors >"$work/docc.log" 2>&1 || {
  cat "$work/docc.log" >&2
  echo "check-docc: DocC found problems in Hearth's documentation (above)" >&2
  exit 1
}
echo "Hearth's documentation builds with no DocC warning."
