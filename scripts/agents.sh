#!/usr/bin/env bash
# Installs the CLI agents and tools the platform's tests run, each in a place of
# its own under .agents/ (their dependencies stay out of the evaluator's .venv),
# with their commands linked into .agents/bin (first on an agent's PATH). Safe to
# run again: what is there at the pinned version is left alone.
#
#   mini-swe-agent   PyPI mini-swe-agent, pinned: the scripted-model tests drive this
#                    version; its venv also gets the MCP SDK (mcp), which the platform's
#                    tool layer for it (platform/agents/toollayer/) uses as MCP client
#   pyright          npm pyright, pinned: the language server of regimes with LSP
#                    feedback (needs Node.js >= 18 and npm; skipped with a note if absent)
#
# Codex CLI, Claude Code and aider have templates but are not installed here
# (README: "Running agents").
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
mini_version=2.4.6
mcp_version=2.3.0
pyright_version=1.1.414
venv=.agents/mini-swe-agent
mkdir -p .agents/bin
version_of() { "$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$1'))" 2>/dev/null || true; }
if [ ! -x "$venv/bin/mini" ] || [ "$(version_of mini-swe-agent)" != "$mini_version" ]; then
  echo "agents: installing mini-swe-agent $mini_version into $venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q "mini-swe-agent==$mini_version"
fi
if [ "$(version_of mcp)" != "$mcp_version" ]; then
  echo "agents: installing mcp $mcp_version into $venv (the tool layer's MCP client)"
  "$venv/bin/pip" install -q "mcp==$mcp_version"
fi
ln -sf "../mini-swe-agent/bin/mini" .agents/bin/mini
echo "agents: mini-swe-agent $mini_version with mcp $mcp_version ($venv)"

if command -v npm >/dev/null && command -v node >/dev/null; then
  installed=$(node -p "require('./.agents/pyright/node_modules/pyright/package.json').version" 2>/dev/null || true)
  if [ "$installed" != "$pyright_version" ]; then
    echo "agents: installing pyright $pyright_version into .agents/pyright (npm)"
    mkdir -p .agents/pyright
    npm install --silent --no-audit --no-fund --prefix .agents/pyright "pyright@$pyright_version" >/dev/null
  fi
  ln -sf ../pyright/node_modules/.bin/pyright-langserver .agents/bin/pyright-langserver
  ln -sf ../pyright/node_modules/.bin/pyright .agents/bin/pyright   # gate+'s static check
  echo "agents: pyright $pyright_version (.agents/pyright)"
else
  echo "agents: no node/npm here: pyright (LSP feedback) not installed"
fi
