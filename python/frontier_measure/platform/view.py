"""The live progress view of a run (rich on a terminal, one line per event otherwise)."""

from __future__ import annotations

import sys
import time
from typing import Any

from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.table import Table


def _label(d: dict[str, Any]) -> str:
    model = "" if d.get("model") in (None, "-") else f" ({d['model']})"
    return escape(f"#{d['id']} {d['task']} / {d['agent']}{model} / {d['prompt_mode']} / "
                  f"{d.get('regime', 'S1')} #{d['number']}")


class LiveView:
    """A listener for `Runner`: running attempts with their age, and the tally."""

    def __init__(self, console: Console | None = None, live: bool | None = None) -> None:
        self.console = console or Console(file=sys.stderr)
        self.live_mode = self.console.is_terminal if live is None else live
        self.running: dict[int, tuple[dict[str, Any], float]] = {}
        self.stages: dict[int, str] = {}  # what a running attempt is doing
        self.tally: dict[str, int] = {}
        self.todo = 0
        self._live: Live | None = None

    def _table(self) -> Table:
        done = sum(self.tally.values())
        t = Table(title=f"{done}/{self.todo} attempts done  "
                        + "  ".join(f"{k} {v}" for k, v in sorted(self.tally.items())),
                  expand=False)
        t.add_column("running")
        t.add_column("stage")
        t.add_column("for", justify="right")
        now = time.monotonic()
        for d, since in self.running.values():
            t.add_row(_label(d), escape(self.stages.get(d["id"], "")), f"{now - since:.0f} s")
        return t

    def _say(self, line: str) -> None:
        if self._live is not None:
            self._live.console.print(line)
        else:
            self.console.print(line)

    def __call__(self, kind: str, d: dict[str, Any]) -> None:
        if kind == "start":
            self.todo = len(d["todo"])
            msg = (f"run {d['run_id']}: {d['planned']} attempts planned, {self.todo} to run"
                   + (f", {len(d['recovered'])} interrupted ones again" if d["recovered"] else "")
                   + f" (start-up {d['startup_s']:.2f} s)")
            self.console.print(msg)
            if self.live_mode:
                self._live = Live(self._table(), console=self.console, refresh_per_second=2,
                                  get_renderable=self._table)
                self._live.start()
        elif kind == "attempt-start":
            self.running[d["id"]] = (d, time.monotonic())
            if not self.live_mode:
                self.console.print(f"start  {_label(d)}")
        elif kind == "attempt-stage":
            stage = d["stage"] + (f" ({d['note']})" if d.get("note") else "")
            self.stages[d["id"]] = stage
            if d["stage"] == "lock-wait":
                # Queued behind another evaluation: said once, not only in the table.
                self._say(escape(f"wait     #{d['id']} {d['task']}: waiting for the measurement "
                                 f"lock ({d.get('note') or 'held by another process'})"))
        elif kind == "stopping":
            if self._live is not None:
                self._live.stop()
                self._live = None
            self._say(f"stopping ({d['signal']}): interrupting the running attempts")
        elif kind == "attempt-interrupted":
            self.running.pop(d["id"], None)
            self.stages.pop(d["id"], None)
            self._say(f"interrupted {_label(d)} after {d.get('wall_s') or 0:.0f} s")
        elif kind == "attempt-done":
            self.running.pop(d["id"], None)
            self.stages.pop(d["id"], None)
            outcome = d.get("outcome") or "?"
            self.tally[outcome] = self.tally.get(outcome, 0) + 1
            extra = escape(f" ({d['error']})") if d.get("error") and outcome != "passed" else ""
            if outcome == "passed" and d.get("passed_plus") is not None:
                extra += ", gate+ " + ("passed" if d["passed_plus"] else "failed")
            line = (f"{outcome:<8} {_label(d)}: {d.get('wall_s', 0):.0f} s, "
                    f"{d.get('steps') or 0} steps, ${d.get('cost') or 0:.4f}{extra}")
            if self._live is not None:
                self._live.console.print(line)
            else:
                self.console.print(line)
        elif kind in ("attempt-lost", "evaluation-lost"):
            what = "attempt" if kind == "attempt-lost" else "evaluation"
            line = escape(f"lost     {_label(d)}: its node died in the {d.get('stage', what)} "
                          f"stage; the {what} runs again elsewhere "
                          f"({d.get('retry') or d.get('restart')} of {d.get('retries')})")
            if self._live is not None:
                self._live.console.print(line)
            else:
                self.console.print(line)
        elif kind == "done":
            if self._live is not None:
                self._live.stop()
                self._live = None
            self.console.print(f"done in {d['wall_s']:.0f} s")
