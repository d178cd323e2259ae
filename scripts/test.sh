#!/usr/bin/env bash
# Sets up and runs the whole test suite: C++ core tests (ctest) and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -f scripts/services.sh ]; then bash scripts/services.sh; fi

echo "== C++ core tests (ctest)"
cmake -S . -B build/ctest -G Ninja -DFM_BUILD_TESTS=ON -DFM_WERROR=ON >/dev/null
cmake --build build/ctest >/dev/null
ctest --test-dir build/ctest --output-on-failure

echo "== Python tests (pytest)"
.venv/bin/python -m pytest "$@"
