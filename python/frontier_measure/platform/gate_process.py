"""The gate in a process of its own, so that a stopped run can stop it.

A gate in a thread of the runner cannot be interrupted: an evaluation that
waits for the measurement lock, or times its sides, runs until it ends. Here
the runner starts

    python -m frontier_measure.platform.gate_process TASK WORKSPACE OUT RESULT
        [--isolation BACKEND] [--timeout SECONDS]

in a session of its own and follows what it says on stdout, one JSON object a
line: {"progress": text} for each step of the evaluation (the wait for the
measurement lock among them, naming its holder), then the gate's result is in
RESULT (GateResult.to_dict()). To stop it, the runner sends SIGTERM: the gate
unwinds as any frontier-measure command does (sides stopped, sandboxes and
temporary directories removed) and exits 143; a gate still there STOP_GRACE_S
later is killed with its whole session.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from .gate import Check, GateResult

STOP_GRACE_S = 2.5  # a stopped gate's time to unwind before its session is killed
LOCK_WAIT = "waiting for the measurement lock"
_HOLDER = re.compile(r"held by pid (\d+)")

# on_progress(text, holder): holder is the measurement lock's holder while the
# evaluation waits for it (0 when it does not know it), None otherwise.
Progress = Callable[[str, int | None], None]


def result_of(data: dict) -> GateResult:
    checks = [Check(c["name"], c.get("passed"), c.get("output", ""), c.get("kind", "gate"),
                    c.get("value")) for c in data.get("checks", [])]
    return GateResult(bool(data.get("passed")), checks, speedup=data.get("speedup"),
                      codebleu=data.get("codebleu"), error=data.get("error"),
                      lock_wait_s=data.get("lock_wait_s"), passed_plus=data.get("passed_plus"),
                      inconclusive=bool(data.get("inconclusive")))


def parse_progress(text: str) -> int | None:
    """The lock's holder when `text` says the evaluation waits for it (0: unknown)."""
    if LOCK_WAIT not in text:
        return None
    m = _HOLDER.search(text)
    return int(m.group(1)) if m else 0


async def run(task_path: Path, workspace: Path, out_dir: Path, result: Path, *,
              isolation: str | None, timeout_s: float, log: Path,
              on_progress: Progress | None = None) -> GateResult:
    """Run the gate in its own process; cancelled, the process is stopped (SIGTERM,
    then SIGKILL of its session) before the cancellation goes on."""
    argv = [sys.executable, "-m", "frontier_measure.platform.gate_process", str(task_path),
            str(workspace), str(out_dir), str(result), "--timeout", str(timeout_s)]
    if isolation:
        argv += ["--isolation", isolation]
    with contextlib.suppress(FileNotFoundError):
        result.unlink()
    with open(log, "wb") as err:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=err, start_new_session=True)
    try:
        assert proc.stdout is not None
        async for line in proc.stdout:
            try:
                said = json.loads(line)
            except ValueError:
                continue
            text = str(said.get("progress", ""))
            if text and on_progress is not None:
                on_progress(text, parse_progress(text))
        code = await proc.wait()
    except asyncio.CancelledError:
        await stop(proc)
        raise
    finally:
        _kill_session(proc.pid)  # whatever the gate left in its session
    if code != 0 or not result.is_file():
        tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
        raise RuntimeError(f"the gate's process exited {code}: {tail.strip()}")
    return result_of(json.loads(result.read_text()))


async def stop(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM to the gate, its session killed if it has not unwound in time."""
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), STOP_GRACE_S)
    except TimeoutError:
        _kill_session(proc.pid)
        await proc.wait()


def _kill_session(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


class _Stopped(BaseException):
    """SIGTERM in the gate's process: unwinds as Ctrl-C does."""


def _stopped(signum: int, frame: object) -> None:
    raise _Stopped()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="frontier_measure.platform.gate_process")
    p.add_argument("task", type=Path)
    p.add_argument("workspace", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("result", type=Path)
    p.add_argument("--isolation", default=None)
    p.add_argument("--timeout", type=float, default=600)
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, _stopped)
    from ..results import write_json
    from . import tasks as tasks_mod
    from .gate import run_gate

    def progress(text: str) -> None:
        print(json.dumps({"progress": text}), flush=True)

    try:
        res = run_gate(tasks_mod.load(args.task), args.workspace, args.out,
                       isolation=args.isolation, timeout_s=args.timeout, progress=progress)
    except KeyboardInterrupt:
        return 130
    except _Stopped:
        return 143
    write_json(res.to_dict(), args.result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
