#!/usr/bin/env bash
# Builds Hearth, installs the doc shell `hearth` on the PATH (Tools/install.sh), writes a
# demo database of a social app through the public API, shows it, and opens the doc shell
# on it.
#
#   Tools/demo.sh            # the database goes to ./demo.hearth (rewritten each run)
#   HEARTH_DEMO_DB=/tmp/x Tools/demo.sh
#   HEARTH_PREFIX=~/opt Tools/demo.sh   # installs ~/opt/bin/hearth (see Tools/install.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh

echo "Building (release)…" >&2
swift build -c release --product hearth-demo >/dev/null
swift build -c release --product hearth >/dev/null
bin="$(swift build -c release --show-bin-path)"
HEARTH_INSTALL_FROM="$bin" Tools/install.sh ${HEARTH_PREFIX:+"$HEARTH_PREFIX"}

db="${HEARTH_DEMO_DB:-$PWD/demo.hearth}"
rm -rf "$db"
"$bin/hearth-demo" "$db"

run() {
  echo
  echo "\$ hearth $*"
  "$bin/hearth" --db "$db" "$@"
}
run tree --depth 1
run ls users/alice
run get users/alice
run get --meta rooms/general
run ls users/alice/posts --limit 3
run query group:posts where likes '>=' 450 order by likes desc limit 3 --ids
run explain group:posts where tags array-contains '"swift"' order by createdAt desc limit 5

if [ -t 0 ] && [ -t 1 ]; then
  cat <<TOUR

Opening the doc shell on $db. Try:
  ls users --limit 5
  tree users/alice
  get users/bob
  set users/alice/posts/hello {"title": "Hello", "likes": 0}
  update users/alice {"isPremium": true}
  rm users/alice/posts/hello
  query group:posts where tags array-contains "swift" order by createdAt desc limit 5 --table
  query users/alice/posts where likes > 100 count
  explain users/alice/posts where likes > 100 order by likes desc
  watch rooms/general/messages order by sentAt desc limit 5     (Ctrl-C stops it)
  stats
  indexes
  help
Tab completes commands, paths and field names; Ctrl-P recalls earlier lines.
Ctrl-D or exit leaves.
TOUR
  exec "$bin/hearth" --db "$db"
fi
