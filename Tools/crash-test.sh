#!/usr/bin/env bash
# The long forms of the crash harnesses (the test suite runs short forms: CrashHarnessTests).
#
#   Tools/crash-test.sh [KILLS] [WORKERS N]      # defaults: 50 kills, 4 workers × 500
#
# 1. Kill -9: a writer makes durable commits of every kind (sets, merges, updates with
#    transforms, batches, transactions, deletes), logging each one after it returns; it is
#    killed with SIGKILL 50–500 ms after it starts committing (every fourth time, after it
#    starts: that kill may land while it opens the database), KILLS times. After each
#    kill the database must open, pass `check`, and hold every logged commit (the commit
#    in flight may be there or not).
# 1b. Kill -9, writer threads: a writer whose 8 threads make durable single-document
#    commits at once (sharing group commits), each logging its own, is killed with SIGKILL
#    KILLS/5 times (at least 5); after each kill every commit of every thread's log must be
#    there, each thread's in commit-time order.
# 2. Many processes: WORKERS processes run N transactions each that increment one counter
#    and write an item (~12 KB; the map starts at 1 MiB and must grow), while another
#    listens and reads, and others open the database and read one after another. The
#    counter must end at WORKERS × N with no lost or doubled increment, `check` must pass,
#    and the listener must see every item.
# 3. Stale readers: a process killed inside a read transaction; the next process to open
#    the database clears its reader slot.
#
# HEARTH_CRASH_DIR keeps the databases there (default: a temporary directory, removed).
set -euo pipefail
cd "$(dirname "$0")/.."

kills="${1:-50}"
workers="${2:-4}"
per_worker="${3:-500}"

echo "Building hearth-torture (release)…" >&2
swift build -c release --product hearth-torture >/dev/null
torture="$(swift build -c release --show-bin-path)/hearth-torture"

if [ -n "${HEARTH_CRASH_DIR:-}" ]; then
  work="$HEARTH_CRASH_DIR"
  mkdir -p "$work"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/hearth-crash.XXXXXX")"
fi
# On the way out, stop the workers this script started that still run (its own jobs).
cleanup() {
  for pid in $(jobs -p); do kill -9 "$pid" 2>/dev/null || true; done
  if [ -z "${HEARTH_CRASH_DIR:-}" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2- | tr -d '"'; }

fail() {
  echo "FAILED: $*" >&2
  echo "(databases and logs kept in $work)" >&2
  HEARTH_CRASH_DIR="$work"
  exit 1
}

# --- 1. Kill -9 -------------------------------------------------------------------------

db="$work/crash.hearth"
log="$work/crash.log"
errors="$work/writer.stderr"
rm -rf "$db" "$log"
seed=$(((RANDOM << 15 | RANDOM) + 1))
echo "Kill -9: $kills kills of a writer (seed $seed)"
begin=$(now)
checked=0
present=0
in_recovery=0
for kill in $(seq 1 "$kills"); do
  "$torture" writer "$db" "$log" "$seed" >"$work/writer.out" 2>"$errors" &
  writer=$!
  # Every fourth kill counts from the start, and may land while the writer opens the
  # database and reads it back; the others count from its first commit, and land in commits.
  if ((kill % 4 != 0)); then
    for _ in $(seq 1 2000); do
      if grep -q '^writing' "$work/writer.out" || ! kill -0 "$writer" 2>/dev/null; then break; fi
      sleep 0.005
    done
  fi
  sleep "0.$(printf '%03d' $((50 + RANDOM % 451)))"
  if ! grep -q '^writing' "$work/writer.out"; then in_recovery=$((in_recovery + 1)); fi
  kill -0 "$writer" 2>/dev/null || { wait "$writer" || true; fail "kill $kill: the writer stopped by itself: $(cat "$errors")"; }
  kill -9 "$writer"
  wait "$writer" 2>/dev/null || true
  summary="$("$torture" verify "$db" "$log")" || fail "kill $kill (seed $seed): $summary"
  acknowledged="$(field acknowledged "$summary")"
  checked=$((checked + acknowledged))
  if [ "$(field nextCommit "$summary")" = present ]; then present=$((present + 1)); fi
  if ((kill % 10 == 0 || kill == kills)); then
    echo "  $kill kills: $acknowledged commits logged, all present after every kill ($(elapsed "$begin") s)"
  fi
done
found="$(field found "$summary")"
kinds="$(grep -o '"kinds":"[^"]*"' <<<"$summary" | cut -d'"' -f4)"
echo "Kill -9: $kills kills survived; $acknowledged commits acknowledged ($found of them found after a kill"
echo "  rather than acknowledged), $checked commit checks in all; the commit in flight had reached"
echo "  the database at $present kills, and $in_recovery kills landed before the writer's first commit; $(elapsed "$begin") s"
echo "  commits by kind: $kinds"

# --- 1b. Kill -9, writer threads -------------------------------------------------------

db="$work/threads.hearth"
log="$work/threads.log"
rm -rf "$db" "$log".t*
threads=8
thread_kills=$((kills / 5 > 5 ? kills / 5 : 5))
echo "Kill -9, writer threads: $thread_kills kills of a writer with $threads threads"
begin=$(now)
for kill in $(seq 1 "$thread_kills"); do
  "$torture" threads "$db" "$log" "$threads" >"$work/threads.out" 2>"$errors" &
  writer=$!
  for _ in $(seq 1 2000); do
    if grep -q '^writing' "$work/threads.out" || ! kill -0 "$writer" 2>/dev/null; then break; fi
    sleep 0.005
  done
  sleep "0.$(printf '%03d' $((50 + RANDOM % 451)))"
  kill -0 "$writer" 2>/dev/null || { wait "$writer" || true; fail "threads kill $kill: the writer stopped by itself: $(cat "$errors")"; }
  kill -9 "$writer"
  wait "$writer" 2>/dev/null || true
  summary="$("$torture" verify-threads "$db" "$log" "$threads")" || fail "threads kill $kill: $summary"
done
echo "Kill -9, writer threads: $thread_kills kills survived; $(field acknowledged "$summary") commits acknowledged by"
echo "  $threads threads, all present after every kill; $(elapsed "$begin") s"

# --- 2. Many processes ------------------------------------------------------------------

db="$work/counters.hearth"
rm -rf "$db"
echo "Many processes: $workers workers × $per_worker transactions, one listener, openers"
begin=$(now)
"$torture" listen "$db" "$workers" "$per_worker" 600 >"$work/listen.out" 2>"$work/listen.stderr" &
listener=$!
for _ in $(seq 1 300); do
  grep -q '^ready$' "$work/listen.out" 2>/dev/null && break
  sleep 0.1
done
grep -q '^ready$' "$work/listen.out" || fail "the listener did not start: $(cat "$work/listen.stderr")"
counters=()
for worker in $(seq 0 $((workers - 1))); do
  "$torture" counter "$db" "$per_worker" "w$worker" 12000 >"$work/counter-$worker.out" 2>"$work/counter-$worker.stderr" &
  counters+=($!)
done
# While the workers run, processes open the database one after another and read.
peeks=0
last=0
while :; do
  running=0
  for pid in "${counters[@]}"; do if kill -0 "$pid" 2>/dev/null; then running=1; fi; done
  ((running)) || break
  peek="$("$torture" peek "$db" 2>&1)" || fail "a process opening the database while others write failed: $peek"
  value="$(field counter "$peek")"
  ((value >= last)) || fail "the counter went back from $last to $value"
  last=$value
  peeks=$((peeks + 1))
done
growths=0
adoptions=0
for worker in $(seq 0 $((workers - 1))); do
  wait "${counters[$worker]}" || fail "worker w$worker: $(cat "$work/counter-$worker.stderr")"
  out="$(cat "$work/counter-$worker.out")"
  growths=$((growths + $(field mapGrowths "$out")))
  adoptions=$((adoptions + $(field mapAdoptions "$out")))
done
seconds="$(elapsed "$begin")"
wait "$listener" || fail "the listener: $(cat "$work/listen.out") $(cat "$work/listen.stderr")"
heard="$(tail -1 "$work/listen.out")"
summary="$("$torture" verify-counters "$db" "$workers" "$per_worker")" || fail "verify-counters: $summary"
echo "  counter $(field counter "$summary") = $workers × $per_worker increments in $seconds s; check passed on"
echo "  $(field checkedDocuments "$summary") documents ($(field fileBytes "$summary") bytes); every transaction saw its own counter value"
echo "  listener: all $(field items "$heard") items added once, in $(field snapshots "$heard") snapshots; the counter in"
echo "  $(field counterSnapshots "$heard") snapshots and $(field reads "$heard") reads, never going back"
echo "  map: grown $growths times by the workers, adopted $adoptions times by workers and"
echo "  $(field mapAdoptions "$heard") times by the listener (final $(field mapSize "$heard") bytes); $peeks processes opened it meanwhile"

# --- 3. Stale readers -------------------------------------------------------------------

"$torture" hold-reader "$db" >"$work/reader.out" 2>&1 &
reader=$!
for _ in $(seq 1 100); do
  grep -q '^holding' "$work/reader.out" && break
  sleep 0.05
done
kill -9 "$reader"
wait "$reader" 2>/dev/null || true
listing="$("$torture" readers "$db")"
if grep -o '"readers":\[[^]]*\]' <<<"$listing" | grep -qE "[[,]$reader[],]"; then
  fail "the killed reader $reader still holds a slot: $listing"
fi
echo "Stale readers: reader $reader killed inside its transaction; its slot was cleared at the next open"
echo "All passed."
