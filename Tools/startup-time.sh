#!/usr/bin/env bash
# How long `hearth get` takes from start to exit, as a person at a terminal waits for it:
# the median of RUNS runs (release build), beside `hearth --help` (process start alone).
#
#   Tools/startup-time.sh DB DOC [RUNS]
#   Tools/startup-time.sh big.hearth users/u17/posts/p0000017 21
set -euo pipefail
cd "$(dirname "$0")/.."
db="${1:?usage: Tools/startup-time.sh DB DOC [RUNS]}"
doc="${2:?usage: Tools/startup-time.sh DB DOC [RUNS]}"
runs="${3:-21}"
swift build -c release --product hearth >/dev/null
bin="$(swift build -c release --show-bin-path)/hearth"

median() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f ms", a[int((NR + 1) / 2)] / 1000 }'
}

size=$(du -sh "$db" | cut -f1)
echo "hearth get $doc on $db ($size): median $(median "$bin" --db "$db" get "$doc") of $runs runs"
echo "hearth --help (process start alone): median $(median "$bin" --help) of $runs runs"
