"""Progress of long commands on stderr: what is being done, for how long, and
an estimate of what is left. One line rewritten in place on a terminal; one
line per step otherwise (logs, CI), so nothing appears all at once at the end.
`quiet` silences it all; results and errors are never progress.

A step that lasts is re-shown with its time so far (every second on a
terminal, every 2 s otherwise), so a long wait never looks like a hang."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

TICK_TTY_S = 1.0
TICK_PLAIN_S = 2.0


def duration(s: float) -> str:
    """'42 s', '3 min 05 s', '1 h 02 min'."""
    s = max(0.0, s)
    if s < 60:
        return f"{s:.0f} s"
    if s < 3600:
        return f"{int(s // 60)} min {int(s % 60):02d} s"
    return f"{int(s // 3600)} h {int(s % 3600 // 60):02d} min"


def estimate(elapsed: float, done: int, total: int, budget_s: float | None = None) -> str | None:
    """'about 12 s left' from the pace so far, capped by a time budget when the
    work stops at one anyway; None before anything is done."""
    if done <= 0 or total <= 0:
        return None if budget_s is None else f"at most about {duration(budget_s - elapsed)} left"
    left = elapsed / done * max(0, total - done)
    if budget_s is not None:
        left = min(left, max(0.0, budget_s - elapsed))
    return f"about {duration(left)} left"


class Meter:
    """Reports steps (`step`) and counted work (`count`) of one command."""

    def __init__(self, label: str, *, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.label = label
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.monotonic()
        self._width = 0
        self._last_plain = ""
        self._last_count = -1e9  # the first count shows at once
        self._lock = threading.Lock()
        self._render: Callable[[], str] | None = None  # the current line, with fresh times
        self._written = 0.0  # monotonic time of the last line written
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def _show(self, render: Callable[[], str]) -> None:
        """Write the line `render` makes now, and again with fresh times while
        nothing new is shown."""
        if self.quiet:
            return
        with self._lock:
            self._render = render
            self._write(render())
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, name="progress-ticker",
                                            daemon=True)
            self._ticker.start()

    def _tick(self) -> None:
        every = TICK_TTY_S if self.tty else TICK_PLAIN_S
        while not self._stop.wait(every / 4):
            with self._lock:
                if self._render is not None and time.monotonic() - self._written >= every:
                    self._write(self._render())

    def _write(self, text: str, *, final: bool = False) -> None:
        if self.quiet:
            return
        self._written = time.monotonic()
        line = f"{self.label}: {text}"
        if self.tty:
            pad = max(0, self._width - len(line))
            self.stream.write("\r" + line + " " * pad + ("\n" if final else ""))
            self._width = 0 if final else len(line)
        elif line != self._last_plain:
            self.stream.write(line + "\n")
            self._last_plain = line
        self.stream.flush()

    def step(self, what: str, left: str | None = None) -> None:
        """A new step: '[12 s] timing n300 (about 8 s left)'."""
        self._show(lambda: f"[{duration(self.elapsed)}] {what}" + (f" ({left})" if left else ""))

    def count(self, what: str, done: int, total: int, *, budget_s: float | None = None,
              may_extend: bool = False) -> None:
        """Counted work: 'round 21 of 32 (pilot, may extend), 4 s, about 3 s left'.
        Off a terminal, a new count is written at most every 5 s (and the last);
        the tick in between shows the latest."""

        def text() -> str:
            now = self.elapsed
            left = estimate(now, done, total, budget_s)
            return (f"{what} {done} of {total}" + (" (pilot; may extend)" if may_extend else "")
                    + f", {duration(now)}" + (f", {left}" if left and done < total else ""))

        now = self.elapsed
        if not self.tty and done < total and now - self._last_count < 5.0:
            with self._lock:
                if self._render is not None:
                    self._render = text
            return
        self._last_count = now
        self._show(text)

    def done(self, what: str = "done") -> None:
        self._stop.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join()
        with self._lock:
            self._render = None
            self._write(f"{what} in {duration(self.elapsed)}", final=True)
