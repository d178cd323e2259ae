#!/usr/bin/env bash
# Sets up and runs the main job: evaluate every bundled task with its oracle.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -f scripts/services.sh ]; then bash scripts/services.sh; fi
.venv/bin/frontier-measure info
if .venv/bin/frontier-measure eval --help >/dev/null 2>&1; then
  .venv/bin/frontier-measure eval tasks/ "$@"
fi
