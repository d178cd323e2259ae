"""The agent platform end to end: the real mini-swe-agent (from PyPI, installed
by scripts/agents.sh) driven by the scripted model server, in Docker checkouts,
on a bundled performance task and an imported RefactorBench task; resuming after
kill -9 of the runner; the nop agent on all of RefactorBench; the hand-made
refactorings through their gates."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure.cli import main
from frontier_measure.platform import checkout, refactorbench, runner, spec
from frontier_measure.platform import tasks as tasks_mod

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "agents"
MINI = ROOT / ".agents" / "bin" / "mini"
SNAPSHOT = refactorbench.default_snapshot()

needs_mini = pytest.mark.skipif(not MINI.exists(),
                                reason="mini-swe-agent not installed (scripts/agents.sh)")
needs_snapshot = pytest.mark.skipif(
    SNAPSHOT is None or not SNAPSHOT.is_file(),
    reason="RefactorBench snapshot absent (shared/data/refactorbench-2c93696.tar.gz or "
           "$FM_REFACTORBENCH)")


def _containers(db: Path) -> list[str]:
    r = subprocess.run(["docker", "ps", "-aq", "--filter",
                        f"label={checkout.LABEL}={runner.db_label(db)}"],
                       capture_output=True, text=True, check=True)
    return r.stdout.split()


def _rows(db: Path) -> dict[tuple[str, str], sqlite3.Row]:
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    try:
        return {(r["task"], r["model"]): r for r in c.execute("SELECT * FROM attempts")}
    finally:
        c.close()


@pytest.mark.needs_docker
@pytest.mark.slow
@needs_mini
@needs_snapshot
def test_mini_swe_agent_with_scripted_models_in_docker(tmp_path: Path) -> None:
    db = tmp_path / "ci" / "state.sqlite"
    result = CliRunner().invoke(main, ["run", str(EXAMPLES / "ci.toml"), "--db", str(db), "--quiet"])
    assert result.exit_code == 0, result.output
    rows = _rows(db)
    dedupe, flask = "frontier-measure/dedupe", "refactorbench/flask/render-template-str"
    assert len(rows) == 6 and all(r["state"] == "finished" for r in rows.values())
    assert {k: r["outcome"] for k, r in rows.items()} == {
        (dedupe, "fix"): "passed", (flask, "fix"): "passed",
        (dedupe, "wrong-fix"): "failed", (flask, "wrong-fix"): "failed",
        (dedupe, "give-up"): "failed", (flask, "give-up"): "failed"}
    # Telemetry is the gateway's: one step per model output, every request priced.
    assert rows[(dedupe, "fix")]["steps"] == 4 and rows[(flask, "fix")]["steps"] == 3
    assert all(r["requests"] >= r["steps"] > 0 and r["cost"] > 0 and r["tokens_in"] > 0
               for r in rows.values())
    assert rows[(dedupe, "fix")]["speedup"] > 3 and rows[(dedupe, "fix")]["codebleu"] > 0
    assert rows[(flask, "fix")]["files_changed"] >= 8
    assert rows[(dedupe, "give-up")]["files_changed"] == 0
    # Gate+ agrees with the gate here: the fix leaves no dangling reference.
    assert {k: r["passed_plus"] for k, r in rows.items()} == {
        k: r["passed"] for k, r in rows.items()}
    # One generation each: what was spent is the attempt's cost, counted from the API's usage.
    assert all(r["spent"] == pytest.approx(r["cost"]) and r["usage_source"] == "api"
               for r in rows.values())
    run_dir = db.parent
    fix = run_dir / rows[(flask, "fix")]["dir"]
    assert "render_template_str" in (fix / "patch.diff").read_text()
    assert (fix / "transcript.jsonl.gz").is_file() and (fix / "agent" / "trajectory.json").is_file()
    assert not _containers(db)
    # The report: PR_task, CE and steps per configuration, the evaluator's report beside it.
    out = tmp_path / "report"
    rep = CliRunner().invoke(main, ["report", str(db), "--out", str(out)])
    assert rep.exit_code == 0, rep.output
    text = (out / "platform.md").read_text()
    assert "PR_task" in text and "CE $/success" in text and "| mini | fix | base | S1 | 2 | 2 | 2 |" \
        in text
    assert "McNemar" in text
    assert "PR_task gate+" in text and "spent $ total" in text and "## The run" in text
    assert (out / "evaluations" / "report.md").is_file()
    exp = CliRunner().invoke(main, ["export", str(db), "--out", str(tmp_path / "export")])
    assert exp.exit_code == 0, exp.output
    with zipfile.ZipFile(tmp_path / "export" / "ci.zip") as z:
        names = z.namelist()
    assert "tables/requests.csv" in names and "platform.md" in names
    assert any(n.endswith("transcript.jsonl.gz") for n in names)


@pytest.mark.needs_docker
@pytest.mark.slow
@pytest.mark.timeout(1200)  # three gates, each with gate+'s pyright (100-150 s at load 20)
@needs_mini
@needs_snapshot
def test_resume_after_kill_9_of_the_runner(tmp_path: Path) -> None:
    spec_file = tmp_path / "resume.toml"
    spec_file.write_text(f"""
[run]
name = "resume"
attempts = 3
concurrency = 1
timeout_s = 300
[tasks.refactorbench]
select = ["flask/render-template-str"]
[agents.mini]
template = "mini-swe-agent"
[models.fix]
endpoint = "scripted"
[endpoints.scripted]
kind = "scripted"
scripts = "{EXAMPLES / 'scripted-model'}"
""")
    db = tmp_path / "run" / "state.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "frontier_measure", "run", str(spec_file),
                             "--db", str(db), "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    pid_file = db.parent / "attempts" / "a00002" / "agent" / "agent.pid"
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            if db.exists() and pid_file.exists():
                states = {r["number"]: r["state"] for r in _rows_by_number(db)}
                if states.get(1) == "finished" and states.get(2) == "running" \
                        and _requests_of(db, 2):
                    break
            assert proc.poll() is None, "the runner ended before it could be killed"
            time.sleep(0.2)
        else:
            pytest.fail("attempt 2 never started")
        # The agent is at work in its container: it has asked its model at least once.
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert _containers(db), "the killed runner should have left attempt 2's container"
    agent_pid = int(pid_file.read_text().split()[0])

    summary = runner.Runner(spec.load(spec_file), db).run()
    assert summary.recovered == [2] and summary.leftovers and summary.ran == [2, 3]
    rows = _rows_by_number(db)
    assert [(r["state"], r["outcome"], r["generation"]) for r in rows] == [
        ("finished", "passed", 1), ("finished", "passed", 2), ("finished", "passed", 1)]
    assert not _containers(db)
    assert not Path(f"/proc/{agent_pid}").exists() or \
        checkout.process_start(agent_pid) != pid_file.read_text().split()[1]
    c = sqlite3.connect(db)
    try:
        kinds = [k for (k,) in c.execute("SELECT kind FROM events WHERE attempt_id = 2 "
                                         "AND kind != 'stage' ORDER BY id")]
        gens = {g for (g,) in c.execute("SELECT DISTINCT generation FROM requests WHERE attempt_id = 2")}
    finally:
        c.close()
    assert kinds == ["started", "interrupted", "started", "finished"]
    assert gens == {1, 2}  # the interrupted generation's requests stay on the bill


def _requests_of(db: Path, attempt: int) -> int:
    c = sqlite3.connect(db)
    try:
        return int(c.execute("SELECT COUNT(*) FROM requests WHERE attempt_id = ?",
                             (attempt,)).fetchone()[0])
    finally:
        c.close()


def _rows_by_number(db: Path) -> list[sqlite3.Row]:
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    try:
        return c.execute("SELECT * FROM attempts ORDER BY number").fetchall()
    finally:
        c.close()


@needs_snapshot
def test_refactorbench_import() -> None:
    tasks = refactorbench.import_snapshot()
    assert len(tasks) == 100
    assert len({t.parent.name for t in tasks}) == 9
    t = next(t for t in tasks if t.name == "render-template-str")
    for mode in ("descriptive", "base", "lazy"):
        assert (t / "prompts" / f"{mode}.md").read_text().strip()
    assert (t / "tests" / "test.sh").is_file() and (t / "solution" / "solve.sh").is_file()
    checkouts = {tasks_mod.load(x).pristine for x in tasks}
    assert len(checkouts) == 9  # one shared checkout per repository


@pytest.mark.slow
@needs_snapshot
def test_nop_scores_zero_on_all_of_refactorbench_and_hand_refactorings_pass(tmp_path: Path) -> None:
    spec_file = tmp_path / "rb.toml"
    spec_file.write_text("""
[run]
name = "rb"
isolation = "copy"
concurrency = 2
[tasks.refactorbench]
[agents.nop]
[agents.oracle]
""")
    db = tmp_path / "run" / "state.sqlite"
    runner.Runner(spec.load(spec_file), db).run()
    rows = _rows_by_number(db)
    nop = [r for r in rows if r["agent"] == "nop"]
    oracle = [r for r in rows if r["agent"] == "oracle" and r["outcome"] != "agent-error"]
    assert len(nop) == 100 and all(r["outcome"] == "failed" for r in nop), \
        [r["task"] for r in nop if r["outcome"] != "failed"]
    assert sorted(r["task"].split("/", 1)[1] for r in oracle) == [
        "celery/rename-host-format", "flask/render-template-str",
        "requests/rename-lookup-dict-dict-lookup", "tornado/rename-to-camel-case"]
    assert all(r["outcome"] == "passed" and r["codebleu"] > 0.99 for r in oracle)


def test_a_stopped_run_leaves_no_checkout_mounted(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) of the runner while an agent works: the attempt's checkout
    (an overlay mount as root) is unmounted and removed before the runner exits."""
    spec_file = tmp_path / "stop.toml"
    spec_file.write_text(f"""
[run]
name = "stop"
isolation = "copy"
timeout_s = 120
[tasks]
paths = ["{ROOT / 'tasks' / 'module' / 'dedupe'}"]
[agents.sleeper]
command = ["sleep", "100"]
uses_model = false
""")
    db = tmp_path / "run" / "state.sqlite"
    scratch = db.parent / "scratch"
    proc = subprocess.Popen([sys.executable, "-m", "frontier_measure", "run", str(spec_file),
                             "--db", str(db), "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    pid_file = db.parent / "attempts" / "a00001" / "agent" / "agent.pid"
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and any(scratch.glob("*/workspace/dedupe.py"))):
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, "the agent never started"
            time.sleep(0.1)
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0, err
    assert str(scratch) not in Path("/proc/mounts").read_text()
    assert not any(scratch.glob("*/workspace"))
    agent_pid, start = pid_file.read_text().split()
    assert checkout.process_start(int(agent_pid)) != start  # the agent's session is gone too
