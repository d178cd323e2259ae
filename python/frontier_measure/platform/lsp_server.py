"""Language-server feedback after each edit, as an MCP server for the tool layer.

    frontier-measure lsp serve WORKSPACE [--pristine DIR] [--server pyright]

One tool, `after_action()`, which the agent's tool layer calls after every shell
command the agent runs (the model never calls it: it is not offered as a tool).
It looks for the Python files that changed since its last call (size and mtime,
over the whole workspace), hands each to the language server with its current
text, and answers with the errors that are *new*: those the same file did not
have before the task started. That baseline comes from a second language server
over the pristine tree (which is never written): within the workspace the other
files have changed too, and the pristine text of a file checked against them
would show the very errors the edit made. A rename that leaves an import
dangling shows up; the errors a repository had all along do not. Without a
pristine tree every error of a changed file is reported. An empty answer means
no Python file changed.

What it costs is measured here and reported as telemetry: the language servers'
start (`lsp-start`: both start, and load the standard library, while the agent's
model works on its first turn), and each call's time and the tokens of the
feedback it returns (`after_action`).
"""

from __future__ import annotations

import collections
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

from .lsp import PYRIGHT_SETTINGS, LanguageServer, LspError
from .telemetry import Reporter, tokens_of

SERVERS: dict[str, tuple[list[str], dict[str, Any]]] = {
    "pyright": (["pyright-langserver", "--stdio"], PYRIGHT_SETTINGS),
}
SKIP_DIRS = frozenset({".git", ".hg", "node_modules", "__pycache__", ".tox", ".venv", "venv",
                       ".mypy_cache", ".pytest_cache"})
MAX_FILES = 10  # files checked per call (a command that rewrote hundreds is summarised)
MAX_ERRORS = 20  # errors shown per call
WARMUP = "__fm_warmup__.py"  # never written: an in-memory document


def scan(root: Path, suffixes: tuple[str, ...] = (".py", ".pyi")) -> dict[str, tuple[int, int]]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".fm-")]
        rel_dir = os.path.relpath(dirpath, root)
        for name in filenames:
            if name.endswith(suffixes):
                rel = name if rel_dir == "." else f"{rel_dir}/{name}".replace(os.sep, "/")
                try:
                    st = os.stat(os.path.join(dirpath, name))
                except OSError:
                    continue
                out[rel] = (st.st_mtime_ns, st.st_size)
    return out


def _installed(argv: list[str]) -> list[str]:
    """The server's command, found on PATH or else in .agents/bin (scripts/agents.sh)."""
    from .agents.command import tools_dir

    found = shutil.which(argv[0])
    if found is None and tools_dir() is not None:
        found = shutil.which(argv[0], path=str(tools_dir()))
    return [found or argv[0], *argv[1:]]


def _key(d: dict[str, Any]) -> tuple[str, str]:
    return str(d.get("code") or d.get("rule") or ""), str(d.get("message", ""))


class EditFeedback:
    def __init__(self, root: Path, server: str = "pyright", pristine: Path | None = None,
                 reporter: Reporter | None = None, argv: list[str] | None = None) -> None:
        self.root = Path(root).resolve()
        self.pristine = pristine
        self.name = server
        default_argv, settings = SERVERS[server]
        argv = argv or _installed(default_argv)
        self.lsp = LanguageServer(argv, self.root, settings)
        self.base_lsp = LanguageServer(argv, pristine, settings) \
            if pristine is not None and pristine.is_dir() else None
        self._base_started = False
        self.reporter = reporter or Reporter("lsp")
        self.snapshot: dict[str, tuple[int, int]] = {}
        self.baseline: dict[str, collections.Counter[tuple[str, str]]] = {}
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self.error: str | None = None

    def start_in_background(self) -> None:
        threading.Thread(target=self._start, name="lsp-start", daemon=True).start()

    def _start(self) -> None:
        t0 = time.perf_counter()
        try:
            self.snapshot = scan(self.root)
            # Both servers start, and load the standard library's stubs on a document
            # that exists only in memory, while the agent's model thinks about its
            # first command: the first real check does not pay for it.
            for server in (self.lsp, self.base_lsp):
                if server is not None:
                    server.start()
                    server.diagnostics(WARMUP, "import os\n")
            self._base_started = self.base_lsp is not None
        except LspError as exc:
            self.error = str(exc)
        finally:
            self.reporter.report("lsp-start", time.perf_counter() - t0, ok=self.error is None,
                                 detail={"server": self.name, "files": len(self.snapshot),
                                         "error": self.error})
            self._ready.set()

    @staticmethod
    def _errors(lsp: LanguageServer, rel: str, text: str) -> list[dict[str, Any]]:
        return [d for d in lsp.diagnostics(rel, text) if d.get("severity", 1) == 1]

    def _baseline(self, rel: str) -> collections.Counter[tuple[str, str]]:
        if rel not in self.baseline:
            errs: list[dict[str, Any]] = []
            before = self.base_lsp.root / rel if self.base_lsp is not None else None
            if self.base_lsp is not None and before is not None and before.is_file():
                if not self._base_started:
                    self.base_lsp.start()
                    self._base_started = True
                errs = self._errors(self.base_lsp, rel, before.read_text(errors="replace"))
            self.baseline[rel] = collections.Counter(_key(d) for d in errs)
        return self.baseline[rel]

    def after_action(self) -> str:
        self._ready.wait()
        with self._lock:
            t0 = time.perf_counter()
            now = scan(self.root)
            changed = sorted(p for p, st in now.items() if self.snapshot.get(p) != st)
            self.snapshot = now
            if not changed:
                return ""
            text = self.feedback(changed)
            self.reporter.report("after_action", time.perf_counter() - t0, tokens=tokens_of(text),
                                 ok=self.error is None,
                                 detail={"changed": len(changed), "checked": min(len(changed), MAX_FILES)})
            return text

    def feedback(self, changed: list[str]) -> str:
        """The new errors of these files (paths relative to the root), as the agent reads them."""
        self._ready.wait()
        head = f"Language server ({self.name})"
        if self.error is not None:
            return f"{head} unavailable: {self.error}"
        new: list[str] = []
        for rel in changed[:MAX_FILES]:
            try:
                base = self._baseline(rel)
                now = self._errors(self.lsp, rel, (self.root / rel).read_text(errors="replace"))
            except (LspError, OSError) as exc:
                new.append(f"{rel}: not checked ({exc})")
                continue
            left = collections.Counter(base)
            for d in now:
                k = _key(d)
                if left[k] > 0:
                    left[k] -= 1
                    continue
                start = d.get("range", {}).get("start", {})
                code = f" ({k[0]})" if k[0] else ""
                new.append(f"{rel}:{start.get('line', 0) + 1}:{start.get('character', 0) + 1}: "
                           f"error: {k[1]}{code}")
        files = ", ".join(changed[:MAX_FILES]) + (f" and {len(changed) - MAX_FILES} more"
                                                  if len(changed) > MAX_FILES else "")
        if not new:
            return f"{head}: no new errors in {files}."
        shown = new[:MAX_ERRORS] + ([f"... and {len(new) - MAX_ERRORS} more"]
                                    if len(new) > MAX_ERRORS else [])
        return f"{head}: new errors in the files you changed ({files}):\n" + "\n".join(shown)

    def close(self) -> None:
        self.lsp.close()
        if self.base_lsp is not None:
            self.base_lsp.close()


def build_server(feedback: EditFeedback) -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("frontier-measure-lsp", log_level="WARNING")

    @server.tool(description="Diagnostics a language server reports as new in the Python files "
                             "changed since the last call (empty when none changed).",
                 structured_output=False)
    def after_action() -> str:
        return feedback.after_action()

    return server


def serve(root: Path, server: str = "pyright", pristine: Path | None = None) -> None:
    feedback = EditFeedback(root, server, pristine, Reporter.from_env("lsp"))
    feedback.start_in_background()
    try:
        build_server(feedback).run("stdio")
    finally:
        feedback.close()
