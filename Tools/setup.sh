#!/usr/bin/env bash
# Installs what Hearth's build and tests need, when it is missing:
# - system packages: LMDB (the storage engine), libdeflate (document checksums), libedit (the
#   doc shell's line editor), SQLite (the benchmark's baseline), gRPC's C core (`hearth
#   serve`'s transport), pkg-config;
# - Python's jsonschema (from PyPI), with which the tests check files against Schemas/,
#   in a virtual environment of the build's own, .build/python, where the tests look for
#   it first (a system Python that refuses pip installs, as Debian's does, stops nothing);
# - Google's Python Firestore client (google-cloud-firestore, from PyPI) in the same
#   environment, whose own protobuf classes HearthServerTests check the wire codec against,
#   and whose grpcio calls HearthServer's transport in its tests.
set -euo pipefail
cd "$(dirname "$0")/.."

install_packages() {
  if [ "$(uname -s)" = "Darwin" ]; then
    for formula in lmdb libdeflate libedit sqlite grpc pkg-config; do
      brew list "$formula" >/dev/null 2>&1 || brew install "$formula"
    done
    return
  fi
  local packages=(pkg-config liblmdb-dev libdeflate-dev libsqlite3-dev libedit-dev libgrpc-dev)
  local missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" -ne 0 ]; then
    echo "Hearth needs these packages; install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  echo "Installing ${missing[*]}" >&2
  apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
}

# The virtual environment sees the system's packages, so a machine that has jsonschema
# needs no download.
install_jsonschema() {
  local venv=.build/python
  "$venv/bin/python3" -c "import jsonschema, referencing" 2>/dev/null && return
  if ! python3 -m venv --system-site-packages "$venv" >/dev/null 2>&1; then
    # Debian's python3 makes virtual environments only with python3-venv.
    if [ "$(uname -s)" != "Darwin" ] && [ "$(id -u)" -eq 0 ]; then
      echo "Installing python3-venv" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get install -y --no-install-recommends python3 python3-venv >/dev/null 2>&1 \
        || { apt-get update >/dev/null && apt-get install -y --no-install-recommends python3 python3-venv >/dev/null; }
    fi
    rm -rf "$venv"
    python3 -m venv --system-site-packages "$venv" >&2 \
      || { echo "Hearth's tests need a Python 3 that makes virtual environments (python3-venv)" >&2; exit 1; }
  fi
  "$venv/bin/python3" -c "import jsonschema, referencing" 2>/dev/null && return
  echo "Installing Python's jsonschema into $venv" >&2
  "$venv/bin/python3" -m pip install --quiet jsonschema >&2 \
    || { echo "Hearth's tests need Python's jsonschema: $venv/bin/python3 -m pip install jsonschema" >&2; exit 1; }
}

# The version the wire recording (Tests/HearthServerTests/Python) was made with; cheap when
# installed.
firestore_client=2.34.1
install_firestore_client() {
  local venv=.build/python
  "$venv/bin/python3" -c "
import importlib.metadata, sys
sys.exit(importlib.metadata.version('google-cloud-firestore') != '$firestore_client')" 2>/dev/null && return
  echo "Installing Python's google-cloud-firestore $firestore_client into $venv" >&2
  "$venv/bin/python3" -m pip install --quiet "google-cloud-firestore==$firestore_client" >&2 \
    || { echo "HearthServerTests need it: $venv/bin/python3 -m pip install google-cloud-firestore==$firestore_client" >&2
      exit 1; }
}

install_packages
install_jsonschema
install_firestore_client
# Google's system tests of its Python client, which Tools/test.sh runs against `hearth
# serve`: their source package (fetched into .build/wire) and the packages they need.
.build/python/bin/python3 Tools/Wire/system_tests.py --prepare >&2
