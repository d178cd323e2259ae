#!/usr/bin/env bash
# Sets up what the bundled tasks need and evaluates every one with its oracle:
# the evaluator (scripts/setup.sh) and the kernel tier (the riscv64 compiler
# of the kernel-scale tasks). The repository-scale task runs on the local
# backend (bubblewrap), so neither Docker nor the agent platform is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with kernel
.venv/bin/frontier-measure info
.venv/bin/frontier-measure eval tasks/ "$@"
