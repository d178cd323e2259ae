#!/usr/bin/env bash
# Installs the CLI agents the platform's tests run, each in a virtual environment
# of its own under .agents/ (their dependencies stay out of the evaluator's .venv),
# with its commands linked into .agents/bin (first on an agent's PATH). Safe to run
# again: an agent at the pinned version is left alone.
#
#   mini-swe-agent   PyPI mini-swe-agent, pinned: the scripted-model tests drive this version
#
# Codex CLI, Claude Code and aider have templates but are not installed here
# (README: "Running agents").
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
mini_version=2.4.6
venv=.agents/mini-swe-agent
mkdir -p .agents/bin
if [ ! -x "$venv/bin/mini" ] || [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mini-swe-agent"))' 2>/dev/null)" != "$mini_version" ]; then
  echo "agents: installing mini-swe-agent $mini_version into $venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q "mini-swe-agent==$mini_version"
fi
ln -sf "../mini-swe-agent/bin/mini" .agents/bin/mini
echo "agents: mini-swe-agent $mini_version ($venv)"
