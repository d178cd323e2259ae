#!/usr/bin/env bash
# Installs Harbor (PyPI `harbor`, pinned) into .harbor-venv on a Python >= 3.12:
# python3.13 / python3.12 on PATH, else pyenv's newest 3.12+. $HARBOR_WHEEL may
# name a local wheel of the pinned version. Exits 1 (with the reason) when no
# such Python exists. Safe to run again: the pinned version is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

harbor_version=0.26.0
venv=.harbor-venv

if [ -x "$venv/bin/harbor" ] && [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("harbor"))' 2>/dev/null)" = "$harbor_version" ]; then
  echo "harbor: $harbor_version ($venv)"
  exit 0
fi

python=""
candidates=()
for name in python3.13 python3.12; do
  command -v "$name" >/dev/null && candidates+=("$(command -v "$name")")
done
if command -v pyenv >/dev/null; then
  for p in $(ls -d "$(pyenv root)"/versions/3.1[2-9]*/bin/python 2>/dev/null | sort -rV); do
    candidates+=("$p")
  done
fi
for p in "${candidates[@]}"; do
  if "$p" -c 'import sys, venv; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
    python=$p
    break
  fi
done
if [ -z "$python" ]; then
  echo "harbor: no Python >= 3.12 found (python3.13, python3.12, pyenv); Harbor needs one" >&2
  exit 1
fi

echo "harbor: installing harbor $harbor_version into $venv ($python)"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
if [ -n "${HARBOR_WHEEL:-}" ] && [ -f "$HARBOR_WHEEL" ]; then
  "$venv/bin/pip" install -q "$HARBOR_WHEEL"
else
  "$venv/bin/pip" install -q "harbor==$harbor_version"
fi
echo "harbor: $harbor_version ($venv)"
