"""Execution regimes: what an agent gets besides its model, a spec axis.

    S1  terminal tools only: the agent's shell and file tools (the default for
        command agents); optionally a language server's feedback after each edit
    S2  S1 plus structural retrieval: a code index of the workspace served over MCP
        (`search_code`), AST-aware or naive token-window chunks, BM25 ranking
    S3  S1 plus delegation: a `delegate` tool that starts a child agent on the same
        workspace (same runner, its own telemetry) and waits for it

A spec names the regimes it runs (`[run] regimes = [...]`). S1, S2 and S3 exist
as they are; a `[regimes.NAME]` table defines a variant:

    [regimes.S1-lsp]
    kind = "S1"            # S1 | S2 | S3 (default: the table's name, if it is one of them)
    lsp = "pyright"        # language-server feedback after each edit (any kind)
    [regimes.S2-naive]
    kind = "S2"
    chunker = "naive"      # ast (default) | naive
    k = 8                  # results per search, unless the agent asks for another number
    [regimes.S3]
    max_children = 4       # children per attempt; more delegations are refused
    child_timeout_s = 900  # a child's own limit (never past the attempt's)

The regime's name is what attempts record and reports compare. How the tools
reach an agent: `tools()` gives the tool servers (MCP, stdio) and the hook the
platform's tool layer for mini-swe-agent runs (agents/toollayer/), and a note
appended to the agent's instruction that says what it has.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = ("S1", "S2", "S3")
CHUNKERS = ("ast", "naive")
LSP_SERVERS = ("pyright",)

NOTES = {
    "S2": ("You also have the tool `search_code(query, k)`: a search over an index of this "
           "repository's code ({what}). Ask it in words or by names; it answers with file "
           "paths, line numbers and source."),
    "S3": ("You also have the tool `delegate(task)`: it hands a self-contained part of the "
           "work to a sub-agent that works in the same workspace with a terminal and reports "
           "back when it is done."),
    "lsp": ("After each of your commands that changes Python files, a language server "
            "({server}) reports the errors your changes introduced in those files."),
}
WHAT = {"ast": "whole functions, methods and classes, named by their scope",
        "naive": "windows of source text"}


@dataclass(frozen=True)
class Regime:
    name: str
    kind: str = "S1"
    lsp: str | None = None
    chunker: str = "ast"
    k: int = 8
    max_children: int = 4
    child_timeout_s: float | None = None

    @property
    def retrieval(self) -> bool:
        return self.kind == "S2"

    @property
    def delegation(self) -> bool:
        return self.kind == "S3"

    @property
    def needs_tools(self) -> bool:
        return self.kind != "S1" or self.lsp is not None

    def note(self, child: bool = False) -> str:
        """What the instruction says about the tools (a child gets no delegation)."""
        parts = []
        if self.retrieval:
            parts.append(NOTES["S2"].format(what=WHAT[self.chunker]))
        if self.delegation and not child:
            parts.append(NOTES["S3"])
        if self.lsp:
            parts.append(NOTES["lsp"].format(server=self.lsp))
        return "\n\n".join(parts)

    def describe(self) -> str:
        bits = [self.kind]
        if self.retrieval:
            bits.append(f"{self.chunker} chunks, k={self.k}")
        if self.delegation:
            bits.append(f"delegation, up to {self.max_children} children")
        if self.lsp:
            bits.append(f"LSP: {self.lsp}")
        return ", ".join(bits)


BUILTIN = {k: Regime(k, k) for k in KINDS}


def parse(name: str, table: dict[str, Any], problems: list[str]) -> Regime:
    where = f"[regimes.{name}]"
    known = {"kind", "lsp", "chunker", "k", "max_children", "child_timeout_s"}
    problems += [f"{where}.{k}: unknown key (known: {', '.join(sorted(known))})"
                 for k in sorted(set(table) - known)]
    kind = table.get("kind", name if name in KINDS else None)
    if kind not in KINDS:
        problems.append(f"{where}.kind: {kind!r} (choose from {', '.join(KINDS)})")
        kind = "S1"
    lsp = table.get("lsp")
    if lsp is False:
        lsp = None
    if lsp is not None and lsp not in LSP_SERVERS:
        problems.append(f"{where}.lsp: {lsp!r} (choose from {', '.join(LSP_SERVERS)}, or false)")
        lsp = None
    chunker = table.get("chunker", "ast")
    if chunker not in CHUNKERS:
        problems.append(f"{where}.chunker: {chunker!r} (choose from {', '.join(CHUNKERS)})")
    if "chunker" in table and kind != "S2":
        problems.append(f"{where}.chunker: only S2 has a code index")
    for key in ("k", "max_children"):
        v = table.get(key, 1)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            problems.append(f"{where}.{key}: expected a positive integer, got {v!r}")
    timeout = table.get("child_timeout_s")
    if timeout is not None and (not isinstance(timeout, int | float) or timeout <= 0):
        problems.append(f"{where}.child_timeout_s: expected a positive number, got {timeout!r}")
    return Regime(name, str(kind), lsp, str(chunker), int(table.get("k", 8)),
                  int(table.get("max_children", 4)),
                  float(timeout) if isinstance(timeout, int | float) else None)


# ---------------------------------------------------------------- the tools of one agent


def python_for_servers() -> str:
    """The interpreter the tool servers run with: the evaluator's own."""
    return sys.executable


def server_env(control_url: str, path: list[str]) -> dict[str, str]:
    env = {"PATH": ":".join([*path, os.environ.get("PATH", "/usr/bin:/bin")]),
           "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8",
           "FM_CONTROL_URL": control_url}
    for var in ("FM_CACHE", "TIKTOKEN_CACHE_DIR", "NODE_OPTIONS"):
        if os.environ.get(var):
            env[var] = os.environ[var]
    return env


def tools(regime: Regime, workspace: Path, pristine: Path | None, control_url: str,
          path: list[str], child: bool = False) -> dict[str, Any]:
    """The tool layer's configuration for one agent node: MCP servers over stdio
    (each `{name, command, args, env, expose}`; `expose`: offered to the model)
    and the after-action hook."""
    py = python_for_servers()
    env = server_env(control_url, path)
    servers: list[dict[str, Any]] = []
    if regime.retrieval:
        servers.append({"name": "index", "command": py, "expose": True, "env": env,
                        "args": ["-m", "frontier_measure", "index", "serve", str(workspace),
                                 "--chunker", regime.chunker, "--k", str(regime.k)]})
    if regime.delegation and not child:
        servers.append({"name": "delegate", "command": py, "expose": True, "env": env,
                        "args": ["-m", "frontier_measure", "delegate", "serve"]})
    hook = None
    if regime.lsp:
        args = ["-m", "frontier_measure", "lsp", "serve", str(workspace), "--server", regime.lsp]
        if pristine is not None:
            args += ["--pristine", str(pristine)]
        servers.append({"name": "lsp", "command": py, "expose": False, "env": env, "args": args})
        hook = {"server": "lsp", "tool": "after_action"}
    return {"regime": regime.name, "servers": servers, "after_action": hook}
