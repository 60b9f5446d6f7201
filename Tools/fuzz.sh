#!/usr/bin/env bash
# Fuzzes Hearth's parsers and codecs with libFuzzer (Tools/Fuzz/README.md).
#
#   Tools/fuzz.sh [SECONDS | --runs N] [TARGET...]
#
# Builds each target's fuzz-TARGET executable with libFuzzer and AddressSanitizer (release,
# in .build/fuzz), then runs it for SECONDS (default 60) or N inputs, from the seed corpus
# and the regression inputs, one target after another. Targets: document-codec key-codec
# extended-json query import-line firestore-request (default: all). The long form, by hand:
#
#   Tools/fuzz.sh --runs 1000000
#
# Each run's corpus, log and findings go to .build/fuzz/runs/TARGET (HEARTH_FUZZ_DIR
# overrides .build/fuzz/runs). Exits non-zero when any target finds a crash, a hang, a
# sanitizer report or a violated property; replay a finding without the sanitizer with
# `swift run fuzz-TARGET FILE`. HEARTH_FUZZ_SANITIZE=fuzzer builds without ASan.
set -euo pipefail
cd "$(dirname "$0")/.."

all=(document-codec key-codec extended-json query import-line firestore-request)
limit=(-max_total_time=60)
targets=()
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) limit=(-runs="$2"); shift 2 ;;
    --runs=*) limit=(-runs="${1#--runs=}"); shift ;;
    -h | --help) usage; exit 0 ;;
    *[!0-9]*)
      if [[ " ${all[*]} " == *" $1 "* ]]; then targets+=("$1"); shift
      else echo "fuzz.sh: unknown target or option '$1'" >&2; usage >&2; exit 64; fi ;;
    *) limit=(-max_total_time="$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

sanitizers="${HEARTH_FUZZ_SANITIZE:-fuzzer,address}"
# SwiftPM's `--sanitize fuzzer` also links each target without a main of its own; but two
# `--sanitize` options reach swiftc as two `-sanitize=` flags, of which it keeps the last
# (ASan without coverage, or coverage without ASan, as SwiftPM orders them): so swiftc
# gets every sanitizer in one flag, after SwiftPM's.
sanitize=()
if [[ ",$sanitizers," == *,fuzzer,* ]]; then sanitize+=(--sanitize fuzzer); fi
sanitize+=(-Xswiftc "-sanitize=$sanitizers")
# -num-threads 1: with more threads, this toolchain's whole-module optimization emits no
# coverage instrumentation at all (libFuzzer would run blind); SwiftPM passes the job count.
build=(swift build -c release --build-path .build/fuzz "${sanitize[@]}" -Xswiftc -DFUZZING
  -Xswiftc -num-threads -Xswiftc 1)
for target in "${targets[@]}"; do
  echo "== building fuzz-$target ($sanitizers)"
  mkdir -p .build/fuzz
  # ld.gold warns about every ASan helper symbol it cannot export: noise, not problems.
  if ! "${build[@]}" --product "fuzz-$target" > .build/fuzz/build.log 2>&1; then
    grep -v -e "Cannot export local symbol" .build/fuzz/build.log >&2 || true
    echo "fuzz.sh: fuzz-$target did not build" >&2
    exit 1
  fi
  grep -v -e "Cannot export local symbol" -e '^\[' .build/fuzz/build.log || true
  # Without coverage instrumentation libFuzzer would run blind, and without ASan's checks
  # a memory error would pass unseen: refuse such a binary.
  symbols=$(nm ".build/fuzz/release/fuzz-$target" 2>/dev/null || true)
  if [[ ",$sanitizers," == *,fuzzer,* ]] && ! grep -q __sancov_cntrs <<< "$symbols"; then
    echo "fuzz.sh: fuzz-$target has no coverage instrumentation; rm -rf .build/fuzz and run again" >&2
    exit 1
  fi
  if [[ ",$sanitizers," == *,address,* ]] && ! grep -q __asan_report <<< "$symbols"; then
    echo "fuzz.sh: fuzz-$target has no AddressSanitizer checks; rm -rf .build/fuzz and run again" >&2
    exit 1
  fi
done

scratch="${HEARTH_FUZZ_DIR:-.build/fuzz/runs}"
status=0
summary=()
for target in "${targets[@]}"; do
  dir="$scratch/$target"
  mkdir -p "$dir/corpus" "$dir/findings"
  corpora=("$dir/corpus" "Tools/Fuzz/Corpus/$target")
  [ -d "Tools/Fuzz/Regressions/$target" ] && corpora+=("Tools/Fuzz/Regressions/$target")
  dictionary=()
  [ -f "Tools/Fuzz/Dictionaries/$target.dict" ] && dictionary=(-dict="Tools/Fuzz/Dictionaries/$target.dict")
  echo "== fuzzing $target (${limit[*]}), log in $dir/log"
  # The Swift runtime's own crash handler would race ASan and libFuzzer for the report.
  set +e
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" ".build/fuzz/release/fuzz-$target" \
    "${limit[@]}" "${dictionary[@]}" -timeout=10 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$dir/findings/" "${corpora[@]}" > "$dir/log" 2>&1
  code=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log")
  seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$dir/log")
  coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$dir/log" | tail -1 || true)
  if [ "$code" -ne 0 ]; then
    status=1
    grep -m1 -e 'Fatal error' -e 'ERROR: AddressSanitizer' -e 'ERROR: libFuzzer' -e 'ALARM' "$dir/log" || true
    grep -e 'Test unit written to' "$dir/log" || true
    summary+=("$target: FAILED (exit $code) after ${runs:-?} inputs; see $dir/log")
  else
    summary+=("$target: ${runs:-?} inputs in ${seconds:-?} s (${speed:-?}/s), ${coverage:-no coverage figures}, no findings")
  fi
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit "$status"
