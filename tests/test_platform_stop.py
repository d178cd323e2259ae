"""Stopping a platform run, and what its attempts spent, with real processes.

`frontier-measure run` runs under a small reaper (a child subreaper): a process
the run leaves behind, in whatever session, is re-parented to it when the run
exits, so "no process left" is checked over every descendant, not only those
that stayed in the run's process group. SIGTERM (and SIGINT) go to the run
while mini-swe-agent, driven by the scripted model, runs a command, and while an
attempt's gate waits for the measurement lock another process holds; the run
must exit 143 (130) within 5 s, leaving no mount, no container with its label
and no process, and record the attempt as interrupted, with what it spent.
The spend of every generation (the interrupted one, the one that ran again to its
time limit, a retry) is then checked by hand against the gateway's rows and the
price table.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from frontier_measure.platform import checkout, export, metrics, runner
from frontier_measure.platform.db import Database

ROOT = Path(__file__).resolve().parents[1]
DEDUPE = ROOT / "tasks" / "module" / "dedupe"
MINI = ROOT / ".agents" / "bin" / "mini"
needs_mini = pytest.mark.skipif(not MINI.exists(),
                                reason="mini-swe-agent not installed (scripts/agents.sh)")
DEADLINE_S = 5.0  # the stop's promise: SIGTERM to exit, cleaned up

# Runs a command as its child in a session of its own, as a child subreaper; on
# "TERM" or "INT" on stdin it signals the child and says, as JSON: the exit
# status, the seconds from the signal to the exit, and every process still there
# (re-parented to it, or in the child's process group).
REAPER = r"""
import ctypes, json, os, signal, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
child = subprocess.Popen(sys.argv[1:], start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=sys.stderr)
print(child.pid, flush=True)
sig = {"TERM": signal.SIGTERM, "INT": signal.SIGINT}[sys.stdin.readline().strip()]
t0 = time.monotonic()
child.send_signal(sig)
try:
    status = child.wait(timeout=120)
except subprocess.TimeoutExpired:
    os.killpg(child.pid, signal.SIGKILL)
    status = None
seconds = time.monotonic() - t0
def left():
    while True:  # reap what died (zombies are no process any more)
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            f = open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()
            cmd = open(f"/proc/{d}/cmdline", "rb").read().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if f[0] != "Z" and (int(f[1]) == os.getpid() or int(f[2]) == child.pid):
            out.append(f"{d}: {cmd}")
    return out
found = left()
print(json.dumps({"status": status, "seconds": seconds, "left": found}), flush=True)
for line in found:
    try:
        os.kill(int(line.split(":")[0]), signal.SIGKILL)
    except OSError:
        pass
time.sleep(0.5)
left()
"""


class Reaped:
    """`frontier-measure run` under the reaper."""

    def __init__(self, spec: Path, db: Path, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", REAPER, sys.executable, "-m", "frontier_measure", "run",
             str(spec), "--db", str(db), "--quiet"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, **(env or {})})
        assert self.proc.stdout is not None
        self.pid = int(self.proc.stdout.readline())

    def alive(self) -> bool:
        try:
            return Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    def stop(self, how: str = "TERM") -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(how + "\n")
        self.proc.stdin.flush()
        out = json.loads(self.proc.stdout.readline())
        self.proc.wait(timeout=60)
        return out

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.alive():
            os.killpg(self.pid, signal.SIGKILL)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


def _row(db: Path, sql: str, args: tuple = ()) -> sqlite3.Row | None:
    if not db.exists():
        return None
    c = sqlite3.connect(db, timeout=30)
    c.row_factory = sqlite3.Row
    try:
        return c.execute(sql, args).fetchone()
    except sqlite3.OperationalError:
        return None
    finally:
        c.close()


def _wait_for(what: str, check, run: Reaped, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert run.alive(), f"the run ended before {what}"
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.2)


def _leftovers(db: Path) -> tuple[list[str], list[str]]:
    """(mounts below the run directory, containers with the run's label)."""
    mounts = [line for line in Path("/proc/self/mountinfo").read_text().splitlines()
              if str(db.parent) in line]
    r = subprocess.run(["docker", "ps", "-aq", "--filter",
                        f"label={checkout.LABEL}={runner.db_label(db)}"],
                       capture_output=True, text=True)
    return mounts, r.stdout.split()


SLOW = """
# Looks, then starts a long command: the agent is at work when the run is stopped.
[[trajectories]]
match = ""
[[trajectories.turns]]
say = "Let me see what is here."
bash = "ls"
[[trajectories.turns]]
say = "This takes a while."
bash = "sleep 100"
"""
PRICES = """
[models.slow]
input = 3.0
cached_input = 0.75
output = 15.0
"""


def _spec(tmp_path: Path, timeout_s: int) -> Path:
    scripts = tmp_path / "scripts"
    scripts.mkdir(exist_ok=True)
    (scripts / "slow.toml").write_text(SLOW)
    (tmp_path / "prices.toml").write_text(PRICES)
    spec = tmp_path / "stop.toml"
    spec.write_text(f"""
[run]
name = "stop"
isolation = "docker"
timeout_s = {timeout_s}
prices = "prices.toml"
[tasks]
paths = ["{DEDUPE}"]
[agents.mini]
template = "mini-swe-agent"
[models.slow]
endpoint = "scripted"
[endpoints.scripted]
kind = "scripted"
scripts = "{scripts}"
""")
    return spec


@pytest.mark.needs_docker
@pytest.mark.needs_root
@needs_mini
def test_sigterm_while_the_agent_works_and_what_every_generation_spent(tmp_path: Path) -> None:
    db = tmp_path / "run" / "state.sqlite"
    spec = _spec(tmp_path, timeout_s=600)
    run = Reaped(spec, db)
    try:
        # The model has answered twice: the agent runs `sleep 100` in its container.
        _wait_for("the second model request",
                  lambda: (r := _row(db, "SELECT COUNT(*) AS n FROM requests WHERE status = 200"))
                  is not None and r["n"] >= 2, run)
        assert _row(db, "SELECT stage FROM attempts WHERE id = 1")["stage"] == "agent"
        assert any(db.parent.glob("scratch/*/workspace/dedupe.py"))
        stopped = run.stop("TERM")
    finally:
        run.kill()
    assert stopped["status"] == 143, stopped
    assert stopped["seconds"] < DEADLINE_S, stopped
    assert stopped["left"] == []
    mounts, containers = _leftovers(db)
    assert mounts == [] and containers == []
    a = _row(db, "SELECT * FROM attempts WHERE id = 1")
    assert a["state"] == "interrupted" and a["stage"] is None
    assert a["wall_s"] > 0 and a["generation"] == 1
    first = _row(db, "SELECT SUM(cost) AS c, COUNT(*) AS n FROM requests")
    assert first["n"] >= 2 and a["spent"] == pytest.approx(first["c"]) and a["spent"] > 0
    record = json.loads((db.parent / a["dir"] / "attempt.json").read_text())
    assert record["attempt"]["state"] == "interrupted"

    # The next run starts the interrupted attempt over; this time the agent's time
    # limit ends it (no gate: a timed-out agent is not judged). Then it is retried.
    _spec(tmp_path, timeout_s=75)
    for retry in ([], ["--retry", "1"]):
        r = subprocess.run([sys.executable, "-m", "frontier_measure", "run", str(spec), "--db",
                            str(db), "--quiet", *retry], capture_output=True, text=True,
                           timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
    d = Database(db, readonly=True)
    try:
        (a,) = [dict(x) for x in d.attempts()]
        rows = [dict(x) for x in d.rows("SELECT * FROM requests ORDER BY id")]
        files = export.csv_files(d)
    finally:
        d.close()
    assert a["state"] == "finished" and a["outcome"] == "timeout" and a["generation"] == 3
    # By hand: every request's cost from its token counts and the spec's price table.
    for q in rows:
        plain = q["tokens_in"] - q["tokens_cached"]
        by_hand = (plain * 3.0 + q["tokens_cached"] * 0.75 + q["tokens_out"] * 15.0) / 1e6
        assert q["cost"] == pytest.approx(by_hand, rel=1e-9) and q["usage_source"] == "api"
    gen = [sum(q["cost"] for q in rows if q["generation"] == g) for g in (1, 2, 3)]
    assert gen[0] == pytest.approx(first["c"]) and gen[1] > 0 and gen[2] > 0
    total = sum(gen)
    # The attempt's own cost is its last generation's; what it spent is all three.
    assert a["cost"] == pytest.approx(gen[2])
    assert a["spent"] == pytest.approx(total) and a["usage_source"] == "api"
    (s,) = metrics.summarize([a])
    assert s.cost == pytest.approx(total) and s.cost_per_attempt == pytest.approx(total)
    assert s.finished == 1 and s.ce is None and s.usage_source == "api"
    (row,) = csv.DictReader(io.StringIO(files["summary.csv"]))
    assert row["spent $ total"] == f"{total:.5f}" and row["tokens from"] == "api"
    record = json.loads((db.parent / a["dir"] / "attempt.json").read_text())["attempt"]
    assert record["state"] == "finished" and record["spent"] == pytest.approx(total)
    assert _leftovers(db) == ([], [])


def _hold(lock: Path) -> subprocess.Popen:
    """Another process holding the measurement lock until it is killed."""
    p = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, time\n"
        f"fd = os.open({str(lock)!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "time.sleep(600)\n")], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "held"
    return p


@pytest.mark.needs_root
@pytest.mark.parametrize("how, status", [("TERM", 143), ("INT", 130)])
def test_a_stop_while_the_gate_waits_for_the_measurement_lock(tmp_path: Path, how: str,
                                                              status: int) -> None:
    lock = tmp_path / "measurement.lock"
    # The evaluation's temporary areas go here, to see that none is left mounted; open
    # to the sides' accounts, as /tmp is (tmp_path's parents are not).
    tmp = Path(tempfile.mkdtemp(prefix="fm-stop-platform-"))
    tmp.chmod(0o1777)
    spec = tmp_path / "lock.toml"
    spec.write_text(f"""
[run]
name = "lock"
isolation = "copy"
[tasks]
paths = ["{DEDUPE}"]
[agents.oracle]
""")
    db = tmp_path / "run" / "state.sqlite"
    blocker = _hold(lock)
    try:
        run = Reaped(spec, db, {"FM_MEASUREMENT_LOCK": str(lock), "TMPDIR": str(tmp)})
        try:
            _wait_for("the lock-wait stage",
                      lambda: (r := _row(db, "SELECT stage, stage_note FROM attempts "
                                             "WHERE id = 1")) is not None
                      and r["stage"] == "lock-wait", run)
            note = _row(db, "SELECT stage_note FROM attempts WHERE id = 1")["stage_note"]
            assert note == f"held by pid {blocker.pid}"
            stopped = run.stop(how)
        finally:
            run.kill()
        # The lock is still held: the stop did not wait for it.
        fd = os.open(lock, os.O_RDONLY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
    finally:
        blocker.kill()
        blocker.wait()
        assert blocker.stdout is not None
        blocker.stdout.close()
    assert stopped["status"] == status, stopped
    assert stopped["seconds"] < DEADLINE_S, stopped
    assert stopped["left"] == []
    mounts = [line for line in Path("/proc/self/mountinfo").read_text().splitlines()
              if str(tmp_path) in line or str(tmp) in line]
    left = sorted(tmp.iterdir())
    shutil.rmtree(tmp, ignore_errors=True)
    assert mounts == [] and left == []
    a = _row(db, "SELECT * FROM attempts WHERE id = 1")
    assert a["state"] == "interrupted" and a["wall_s"] > 0 and a["stage"] is None
    kinds = [r for r in sqlite3.connect(db).execute(
        "SELECT kind, data FROM events WHERE attempt_id = 1 ORDER BY id")]
    assert ("stage", json.dumps({"note": f"held by pid {blocker.pid}", "stage": "lock-wait"},
                                sort_keys=True)) in kinds
    assert kinds[-1][0] == "interrupted"
    if how == "INT":
        return
    # It can be retried (the lock is free now): it runs again, in a new generation.
    r = subprocess.run([sys.executable, "-m", "frontier_measure", "run", str(spec), "--db",
                        str(db), "--retry", "1", "--quiet"], capture_output=True, text=True,
                       timeout=900, env={**os.environ, "FM_MEASUREMENT_LOCK": str(lock)})
    assert r.returncode == 0, r.stdout + r.stderr
    a = _row(db, "SELECT * FROM attempts WHERE id = 1")
    # (the oracle's verdict is the evaluator's: under load its timing may not decide)
    assert a["state"] == "finished" and a["generation"] == 2 and a["outcome"] != "error", \
        dict(a)
