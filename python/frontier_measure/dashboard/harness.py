"""Serving and browsing the dashboard from a program: the browser tests and
bench/dashboard.py use these.

`Server` runs `frontier-measure serve` in a process of its own (as an operator
would) on a free loopback port. `browser()` starts Debian's Chromium through
Playwright (PyPI); Playwright's own browser download is not used, so the
executable is /usr/bin/chromium (scripts/setup.sh installs it) or $FM_CHROMIUM.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium() -> str | None:
    """The Chromium executable, or None."""
    return os.environ.get("FM_CHROMIUM") or shutil.which("chromium") or \
        ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


def unavailable() -> str | None:
    """Why a browser cannot be driven here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install 'frontier-measure[test]')"
    if chromium() is None:
        return "no chromium (scripts/setup.sh installs Debian's chromium)"
    return None


class Server:
    """`frontier-measure serve --db DB --port 0`, until stop()."""

    def __init__(self, db: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.db = db
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "frontier_measure", "serve", "--db", str(db), "--port", "0",
             *extra], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        if " at http" not in line:
            rest = self.proc.stderr.read() if self.proc.poll() is not None else ""
            self.stop()
            raise RuntimeError(f"serve did not start: {line}{rest}")
        self.url = line.rsplit(" at ", 1)[1].strip()

    def stop(self) -> None:
        """Stop the dashboard, and a runner still working on its database (one the
        page launched goes on after the dashboard otherwise): interrupted as the
        page's Stop does, killed if it does not end, what it left removed."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()
        stop_runner(self.db)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def stop_runner(db: Path, grace_s: float = 60.0) -> None:
    """Interrupt the runner working on `db`, if any (SIGINT, as Ctrl-C); kill it
    after `grace_s`, then remove what it left (checkouts, labelled containers)."""
    from ..platform import checkout as co
    from ..platform.runner import db_label
    from .jobs import runner_pid

    run_dir = db.parent
    pid = runner_pid(run_dir)
    if pid is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + grace_s
    while runner_pid(run_dir) is not None and time.monotonic() < deadline:
        time.sleep(0.2)
    if runner_pid(run_dir) is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
    while runner_pid(run_dir) is not None and time.monotonic() < deadline + 10:
        time.sleep(0.2)
    for pid_file in run_dir.glob("attempts/*/agent/agent.pid"):
        co.kill_recorded(pid_file)  # agents work in sessions of their own
    co.remove_tree(run_dir / "scratch")
    if co.docker_available() is None:
        co.remove_labelled_containers(db_label(db))


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium (playwright Browser), closed afterwards."""
    from playwright.sync_api import sync_playwright

    exe = chromium()
    if exe is None:
        raise RuntimeError(unavailable() or "no chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()
