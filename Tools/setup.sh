#!/usr/bin/env bash
# Installs the system packages Hearth's build needs, when they are missing:
# LMDB (the storage engine), zlib (document checksums) and SQLite (the benchmark's
# baseline), with pkg-config.
set -euo pipefail

packages=(pkg-config liblmdb-dev zlib1g-dev libsqlite3-dev)

if [ "$(uname -s)" = "Darwin" ]; then
  for formula in lmdb zlib sqlite pkg-config; do
    brew list "$formula" >/dev/null 2>&1 || brew install "$formula"
  done
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "Hearth needs these packages; install them with:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "Installing ${missing[*]}" >&2
apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
  || { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
