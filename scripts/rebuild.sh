#!/usr/bin/env bash
# Rebuilds the native extension into .venv after a C++ change (incremental:
# build/<wheel tag> is reused). Serialized with a lock so parallel rebuilds
# from several shells do not trample the same build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
exec flock /tmp/frontier-measure-build.lock \
  .venv/bin/pip install -q --no-build-isolation --no-deps -e . "$@"
