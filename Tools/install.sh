#!/usr/bin/env bash
# Builds the doc shell, `hearth`, in release mode and installs it as PREFIX/bin/hearth, so
# that the README's `hearth …` commands run as written.
#
#   Tools/install.sh              # PREFIX is /usr/local, or ~/.local where that is not writable
#   Tools/install.sh ~/opt        # installs ~/opt/bin/hearth
#   HEARTH_INSTALL_FROM=DIR Tools/install.sh PREFIX   # installs DIR/hearth, already built
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${1:-}"
if [ -z "$prefix" ]; then
  prefix=/usr/local
  if ! { [ -w "$prefix/bin" ] || { [ ! -e "$prefix/bin" ] && [ -w "$prefix" ]; }; }; then prefix="$HOME/.local"; fi
fi

from="${HEARTH_INSTALL_FROM:-}"
if [ -z "$from" ]; then
  Tools/setup.sh
  echo "Building hearth (release)…" >&2
  swift build -c release --product hearth >/dev/null
  from="$(swift build -c release --show-bin-path)"
fi

mkdir -p "$prefix/bin"
# Copied to a temporary name, then renamed: a running `hearth` keeps its old file.
cp "$from/hearth" "$prefix/bin/.hearth.installing"
chmod 755 "$prefix/bin/.hearth.installing"
mv -f "$prefix/bin/.hearth.installing" "$prefix/bin/hearth"
echo "Installed $prefix/bin/hearth" >&2

case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "$prefix/bin is not on your PATH; add it: export PATH=\"$prefix/bin:\$PATH\"" >&2 ;;
esac
