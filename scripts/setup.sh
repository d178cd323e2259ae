#!/usr/bin/env bash
# Sets up everything frontier-measure needs on a fresh Debian machine with
# Python 3.11: Debian packages (when root), a virtual environment in .venv and
# the package itself, built in place. Safe to run again: it skips what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

debian_packages=(
  python3-venv python3-dev g++ cmake ninja-build   # build of the native core
  ccache                                           # its later builds (tests, wheel) reuse the first's objects
  linux-perf                                       # perf stat, for cross-checks
  hyperfine                                        # bench: side-by-side comparison
  qemu-user-static                                 # kernel scale: differential tests
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf  # kernel scale: riscv-tests ISA suite, CoreMark/Dhrystone
  docker.io debootstrap                            # repository scale: Docker backend
  docker-compose                                   # Harbor trials: under scripts/compose (Compose v2 adapter)
  bubblewrap                                       # namespaces of each side (local backend, workers)
  libseccomp2                                      # the sides' system-call allow-list (isolation/seccomp.py)
  make gcc                                         # repository scale: bundled task builds
  chromium                                         # the dashboard's browser tests (Playwright)
)

# Node.js and npm for pyright (the language server of LSP regimes, scripts/agents.sh);
# a Node.js already on the machine is kept.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  debian_packages+=(nodejs npm)
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  missing=()
  for p in "${debian_packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
else
  echo "setup: not root or no apt-get; install these Debian packages yourself if missing: ${debian_packages[*]}"
fi

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$python" -m venv .venv
  .venv/bin/pip install -q --upgrade pip
fi
echo "setup: building and installing frontier-measure into .venv"
# The build backend also lives in .venv, so later rebuilds (scripts/rebuild.sh)
# and wheel builds (frontier-measure harbor export) work without build isolation.
.venv/bin/pip install -q "scikit-build-core>=0.10" "pybind11>=2.13"
.venv/bin/pip install -q -e '.[test,bench,kernel,docker,report,dev,platform,harbor,dashboard,author,cluster,docs]'
# Harbor itself (PyPI harbor), in a venv of its own: its tests load every task
# with Harbor's task model and lint, and run real trials. Harbor needs
# Python >= 3.12; the first one found (python3.13, python3.12 on PATH, then
# pyenv's) is used. Without one the Harbor tests skip and say why.
bash scripts/harbor.sh || echo "setup: Harbor not installed (see above); its tests will skip"
# The CLI agents and tools the platform's tests run (mini-swe-agent with the MCP SDK,
# pyright), in places of their own under .agents/.
bash scripts/agents.sh
echo "setup: done (activate with: source .venv/bin/activate)"
