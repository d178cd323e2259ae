"""A language server client: diagnostics of files, over LSP (JSON-RPC on stdio).

    server = LanguageServer(["pyright-langserver", "--stdio"], root)
    server.start()
    errors = server.diagnostics("src/app.py", text)      # what the server publishes

Only what feedback after an edit needs: the initialize handshake, documents
opened and changed with their full text, and the server's
`textDocument/publishDiagnostics` notifications, matched to the version sent
(servers that do not echo versions: the first publication after the change).
Requests the server makes of the client (configuration, capability
registration, progress tokens) are answered so it does not wait on us. One
reader thread parses the server's frames; calls may come from any thread.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

LANGUAGE_IDS = {".py": "python", ".pyi": "python"}

# pyright: type checking as the default "standard" mode does it, without the
# complaints a checkout without its third-party packages installed makes
# everywhere (unresolved imports and what depends on them).
PYRIGHT_SETTINGS: dict[str, Any] = {
    "python": {"analysis": {
        "typeCheckingMode": "standard",
        "diagnosticMode": "openFilesOnly",
        "autoSearchPaths": True,
        "diagnosticSeverityOverrides": {
            "reportMissingImports": "none",
            "reportMissingModuleSource": "none",
            "reportAttributeAccessIssue": "error",
        },
    }},
}


class LspError(Exception):
    pass


def _uri(path: Path) -> str:
    return path.resolve().as_uri()


class LanguageServer:
    def __init__(self, argv: list[str], root: Path, settings: dict[str, Any] | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.argv = argv
        self.root = Path(root).resolve()
        self.settings = settings if settings is not None else {}
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self._ids = itertools.count(1)
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._responses: dict[int, dict[str, Any]] = {}
        self._published: dict[str, tuple[int, int | None, list[dict[str, Any]]]] = {}
        self._seq = itertools.count(1)
        self._versions: dict[str, int] = {}
        self._closed = False
        self.stderr_tail = b""

    # ------------------------------------------------------------------ wire

    def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        with self._write_lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                self._handle(json.loads(out.read(length)))
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()

    def _handle(self, msg: dict[str, Any]) -> None:
        method = msg.get("method")
        if method is None:  # a response to one of our requests
            with self._cond:
                self._responses[int(msg["id"])] = msg
                self._cond.notify_all()
            return
        if "id" in msg:  # a request of the server's: answer it
            result: Any = None
            if method == "workspace/configuration":
                result = [self._section(item.get("section")) for item in
                          (msg.get("params") or {}).get("items", [])]
            self._send({"id": msg["id"], "result": result})
            return
        if method == "textDocument/publishDiagnostics":
            p = msg.get("params") or {}
            with self._cond:
                self._published[p.get("uri", "")] = (next(self._seq), p.get("version"),
                                                     list(p.get("diagnostics") or []))
                self._cond.notify_all()

    def _section(self, section: str | None) -> Any:
        value: Any = self.settings
        for part in (section or "").split("."):
            if not part:
                continue
            value = value.get(part) if isinstance(value, dict) else None
        return value

    def _request(self, method: str, params: Any, timeout: float) -> Any:
        rid = next(self._ids)
        self._send({"id": rid, "method": method, "params": params})
        msg = self._wait(lambda: self._responses.pop(rid, None), timeout, f"no answer to {method}")
        if "error" in msg:
            raise LspError(f"{self.argv[0]}: {method}: {msg['error'].get('message')}")
        return msg.get("result")

    def _wait(self, ready: Callable[[], Any], timeout: float, what: str) -> Any:
        """What `ready()` returns once it is not None (checked under the lock each time
        the reader thread has handled a message); LspError at the timeout or the exit."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (value := ready()) is None:
                left = deadline - time.monotonic()
                if self._closed or left <= 0:
                    raise LspError(f"{self.argv[0]}: {what} "
                                   f"({'it exited' if self._closed else f'{timeout:g} s'})"
                                   f"{self._stderr_note()}")
                self._cond.wait(left)
            return value

    def _notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def _stderr_note(self) -> str:
        tail = self.stderr_tail.decode(errors="replace").strip()
        return f"; stderr: {tail[-500:]}" if tail else ""

    def _drain_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        err = self.proc.stderr
        for chunk in iter(lambda: os.read(err.fileno(), 4096), b""):
            self.stderr_tail = (self.stderr_tail + chunk)[-4000:]

    # ------------------------------------------------------------------ session

    def start(self, timeout: float = 60) -> None:
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=self.root,
                                         env=self.env if self.env is not None else os.environ.copy())
        except OSError as exc:
            raise LspError(f"cannot start {self.argv[0]}: {exc.strerror}") from None
        threading.Thread(target=self._read, name="lsp-read", daemon=True).start()
        threading.Thread(target=self._drain_stderr, name="lsp-stderr", daemon=True).start()
        root = {"uri": _uri(self.root), "name": self.root.name}
        self._request("initialize", {
            "processId": os.getpid(), "rootUri": root["uri"], "workspaceFolders": [root],
            "capabilities": {
                "workspace": {"configuration": True, "workspaceFolders": True,
                              "didChangeConfiguration": {"dynamicRegistration": True}},
                "textDocument": {"publishDiagnostics": {"versionSupport": True},
                                 "synchronization": {"dynamicRegistration": False}}},
            "initializationOptions": {}}, timeout)
        self._notify("initialized", {})
        self._notify("workspace/didChangeConfiguration", {"settings": self.settings})

    def diagnostics(self, rel: str, text: str, timeout: float = 60) -> list[dict[str, Any]]:
        """Open (or change) the document `rel` with `text`; the diagnostics the server
        publishes for exactly that text."""
        uri = _uri(self.root / rel)
        with self._cond:
            seen = self._published.get(uri, (0, None, []))[0]
        version = self._versions.get(uri, 0) + 1
        self._versions[uri] = version
        if version == 1:
            language = LANGUAGE_IDS.get(Path(rel).suffix, "plaintext")
            self._notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": language, "version": version, "text": text}})
        else:
            self._notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})

        def published() -> list[dict[str, Any]] | None:
            seq, ver, diags = self._published.get(uri, (0, None, []))
            return diags if seq > seen and (ver is None or ver == version) else None

        return self._wait(published, timeout, f"no diagnostics for {rel}")

    def close(self, timeout: float = 10) -> None:
        if self.proc is None:
            return
        try:
            if not self._closed:
                self._request("shutdown", None, timeout)
                self._notify("exit", None)
            self.proc.wait(timeout)
        except (LspError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if f is not None:
                    f.close()
            self.proc = None

    def __enter__(self) -> LanguageServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
