#!/usr/bin/env bash
# Sets up and runs the whole test suite: C++ core tests (ctest) and pytest.
# Installs every tier of scripts/setup.sh (the tests cover them all) and starts
# the services (Docker engine, base image).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with all
if [ -f scripts/services.sh ]; then bash scripts/services.sh; fi

echo "== C++ core tests (ctest)"
# The same compiler and flags as the package's own build (g++, as scikit-build-core
# picks it here), so ccache serves the core's objects from that build. A warning
# still fails it: ccache replays the compiler's warnings with the objects it serves.
CXX="${CXX:-g++}" cmake -S . -B build/ctest -G Ninja -DFM_BUILD_TESTS=ON >/dev/null
cmake --build build/ctest >build/ctest/build.log 2>&1 || { cat build/ctest/build.log; exit 1; }
if grep -n "warning:" build/ctest/build.log; then
  echo "the C++ core must build without warnings (-Wall -Wextra and more, CMakeLists.txt)"
  exit 1
fi
ctest --test-dir build/ctest --output-on-failure

echo "== Python tests (pytest)"
.venv/bin/python -m pytest "$@"
