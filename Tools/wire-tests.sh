#!/usr/bin/env bash
# Google's own system tests of its Python client (google-cloud-firestore 2.34.1) against a
# Firestore server: Google's emulator by default, or side by side with another server:
#   Tools/wire-tests.sh                                  # Google's emulator
#   Tools/wire-tests.sh --server-host 127.0.0.1:8080     # one already running
#   Tools/wire-tests.sh --compare --server-command 'hearth serve --ephemeral --port {port}'
# and, with a first word, the other two scripts of Tools/Wire under the same guard:
#   Tools/wire-tests.sh differential --seed 1 --ops 300 --b 'hearth serve --ephemeral --port {port}'
#   Tools/wire-tests.sh bench --b 'hearth serve --ephemeral --port {port}'
# Tools/Wire/README.md tells the rest (and of differential.py and bench.py beside it).
# A server spawned here is stopped by its PID (its process group) when the run ends, also
# when the run is interrupted: the Python side stops it on SIGINT/SIGTERM/SIGHUP (which
# this script passes on to it), and the EXIT trap kills what that could not (a Python
# killed outright). Python runs in the background so that the traps fire at once.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .build/python/bin/python3 ] || Tools/setup.sh

export WIRE_PID_FILE
WIRE_PID_FILE=$(mktemp)
runner=
stop_servers() {
  local pid
  if [ -n "$runner" ] && kill -0 "$runner" 2>/dev/null; then
    kill -TERM "$runner" 2>/dev/null || true
    wait "$runner" 2>/dev/null || true
  fi
  while read -r pid; do
    if [ -n "$pid" ]; then kill -KILL -- "-$pid" 2>/dev/null || true; fi
  done <"$WIRE_PID_FILE"
  rm -f "$WIRE_PID_FILE"
}
trap stop_servers EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

script=Tools/Wire/system_tests.py
case "${1:-}" in
  system) shift ;;
  differential | bench) script=Tools/Wire/$1.py; shift ;;
esac

.build/python/bin/python3 "$script" "$@" &
runner=$!
set +e
wait "$runner"
status=$?
set -e
runner=
exit "$status"
