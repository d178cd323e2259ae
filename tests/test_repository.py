"""Repository scale end to end on the bundled logstat task, through the one
pipeline (evaluate.evaluate with runners/repository.py): the C oracle, the
reference against itself, candidates that must fail for the right reason, and
hostile candidates under both isolation backends."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure import golden, runners
from frontier_measure.cli import main
from frontier_measure.diff import differences
from frontier_measure.evaluate import evaluate
from frontier_measure.record import stable_items
from frontier_measure.runners import repository as rp
from frontier_measure.validate import validate

TASK = Path(__file__).resolve().parents[1] / "tasks" / "repository" / "logstat"
CANDIDATES = TASK / "tests" / "candidates"
HOSTILE_DIR = Path(__file__).resolve().parent / "hostile"  # the hostile corpus
# Enough cases to show each failure, few enough to keep the suite quick.
QUICK = ["summary-malformed", "missing-file", "report-basic", "filter-class"]


@pytest.fixture(scope="module")
def task(tmp_path_factory) -> Path:
    """A copy of the task with a short command timeout (the hostile sleeper)."""
    dest = tmp_path_factory.mktemp("repo") / "logstat"
    shutil.copytree(TASK, dest, ignore=shutil.ignore_patterns("candidates"))
    toml = dest / "task.toml"
    toml.write_text(re.sub(r"(?m)^command_timeout_s = .*$", "command_timeout_s = 3",
                           toml.read_text()))
    os.chmod(dest.parent, 0o755)
    return dest


def quick(task: Path, name: str | None, isolation: str = "local", cases=QUICK) -> dict:
    cand = CANDIDATES / name if name else None
    return evaluate(task, cand, isolation=isolation, only_cases=cases, timing=False)


def failing(result) -> list[dict]:
    return [i for i in result["functional"]["items"] if not i["passed"]]


def test_settings_and_cases_load():
    t, runner = runners.load(TASK)
    assert len(runner.cases(t)) >= 30
    inputs = runner.timing_inputs(t)
    assert sorted(i.size for i in inputs) == [20000, 100000]
    recorded = golden.load(t, golden.digest(t.reference_dir, runner.held_out(t)))
    assert len(recorded["items"]) >= 300 and recorded["runs"] == 5
    # The one case that writes a timestamp: that path is excluded, the rest kept.
    assert "stamped-run/0/files:stamp.txt" in recorded["excluded"]
    assert "stamp.txt" not in recorded["items"]["stamped-run/1/files"]
    assert "small.log" in recorded["items"]["stamped-run/1/files"]


def test_command_line_eval_names_the_failure(task):
    res = CliRunner().invoke(main, ["eval", str(task), "--candidate",
                                    str(CANDIDATES / "wrong_exit"), "--out", str(task.parent / "r")])
    assert "functional" in res.output and "wrong-exit-code" in res.output.replace(
        "exit code", "exit-code") or "not a success" in res.output
    assert "Traceback" not in res.output


def test_snapshot_and_file_diff(tmp_path):
    (tmp_path / "a").write_text("1")
    (tmp_path / "d").mkdir()
    before = rp.snapshot(tmp_path)
    (tmp_path / "a").write_text("2")
    (tmp_path / "d" / "new").write_text("")
    diff = differences(before, rp.snapshot(tmp_path))
    assert diff[0] == "added: d/new"
    assert diff[1].startswith("changed: a: expected file")


def test_unstable_items_and_paths_are_excluded():
    recs = [{"c/0/stdout": "x", "c/0/stderr": str(i), "c/0/files": {"a": "f", "t": str(i)}}
            for i in range(5)]
    items, excluded = stable_items(recs)
    assert items == {"c/0/stdout": "x", "c/0/files": {"a": "f"}}
    assert sorted(excluded) == ["c/0/files:t", "c/0/stderr"]


def test_oracle_passes_every_item(task):
    r = evaluate(task, isolation="local", timing=False)
    f = r["functional"]
    assert r["failure"] is None, r["failure"]
    assert f["passed"] == f["total"] >= 300
    assert r["build"]["candidate"]["ok"] and "logstat.c" in r["build"]["candidate"]["log"]
    assert not r["strict_success"] and r["performance"]["skipped"]


def test_reference_against_itself_is_functional(task):
    r = evaluate(task, task / "environment" / "workspace", only_cases=QUICK, timing=False)
    assert r["failure"] is None


def test_failed_build_is_a_functional_failure_with_the_log(task, tmp_path):
    (tmp_path / "Makefile").write_text("all:\n\techo compiling; cc -o logstat missing.c\n")
    r = evaluate(task, tmp_path, only_cases=QUICK, timing=False)
    assert r["failure"]["stage"] == "functional" and r["failure"]["rule"] == "build-failed"
    assert "compiling" in r["build"]["candidate"]["log"]
    assert r["functional"]["passed"] == 0


@pytest.mark.parametrize(("name", "kind", "needle"), [
    ("wrong_exit", "exit_code", "expected 1, got 3"),
    ("different_stderr", "stderr", "malformed lines ignored"),
    ("missing_file", "files", "removed: out/top_ips.tsv"),
    ("extra_file", "files", "added: out/index.txt"),
])
def test_failing_candidates_fail_for_the_right_reason(task, name, kind, needle):
    r = quick(task, name)
    bad = failing(r)
    assert bad and r["failure"]["stage"] == "functional"
    kinds = {i["id"].rsplit("/", 1)[1] for i in bad}
    # A missing or extra file also shows in the case's own `ls` of the directory.
    assert kind in kinds and kinds <= {kind, "stdout" if kind == "files" else kind}
    assert any(needle in line for i in bad for line in i["diff"])
    rule = {"wrong_exit": "wrong-exit-code", "different_stderr": "wrong-stderr",
            "missing_file": "missing-file", "extra_file": "extra-file"}[name]
    assert r["failure"]["rule"] == rule


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p).encode() + p.read_bytes())
    return h.hexdigest()


def _hostile(task: Path, isolation: str, name: str, tmp: Path) -> dict:
    """Evaluate a hostile candidate; the evaluator's data must come out intact."""
    before = _digest(task / "tests"), _digest(task / "environment")
    cand = tmp / name
    shutil.copytree(HOSTILE_DIR / name, cand)
    # The candidate is told exactly where the golden outputs are.
    (cand / "target.path").write_text(str(task / "tests" / "golden.json"))
    r = evaluate(task, cand, isolation=isolation, only_cases=QUICK[:2], timing=False)
    assert (_digest(task / "tests"), _digest(task / "environment")) == before
    assert r["build"]["candidate"]["ok"], r["build"]["candidate"]
    assert r["failure"]["stage"] == "functional" and r["failure"]["reason"]
    return r


def _check_hostile(task: Path, isolation: str, name: str, tmp: Path) -> None:
    r = _hostile(task, isolation, name, tmp)
    rule, reason = r["failure"]["rule"], r["failure"]["reason"]
    log = r["build"]["candidate"].get("log", "")
    if name == "hostile_read_golden":
        # Copies of the task elsewhere on the machine (another checkout) are not
        # the evaluator's to close; the evaluated task's golden outputs are.
        target = str(task / "tests" / "golden.json")
        assert f"READ {target}" not in log and f"denied: {target}" in log
        assert any("golden outputs not readable" in line for i in failing(r) for line in i["diff"]), log
    elif name == "hostile_write_reference":
        assert "WROTE" not in log and "denied" in log
        assert rule in ("wrong-stdout", "wrong-stderr", "changed-file", "wrong-exit-code")
    elif name == "hostile_fork_bomb":
        assert rule in ("wrong-exit-code", "wrong-stdout", "wrong-stderr", "left-processes",
                        "timeout")
    elif name == "hostile_background":
        assert rule == "left-processes" and "left 1 process(es) running" in reason
    elif name == "hostile_kill_evaluator":
        # It stops every process it may signal, its own shell included.
        assert rule in ("wrong-exit-code", "wrong-stdout", "wrong-stderr", "left-processes",
                        "timeout")
    elif name == "hostile_fill_disk":
        assert any("fill.bin" in line for i in failing(r) for line in i.get("diff", []))
    elif name == "hostile_sleep":
        assert rule == "timeout" and "timed out" in reason


HOSTILE = ["hostile_read_golden", "hostile_write_reference", "hostile_fork_bomb",
           "hostile_background", "hostile_kill_evaluator", "hostile_fill_disk", "hostile_sleep"]


@pytest.mark.needs_root
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_candidates_local(task, name, tmp_path):
    _check_hostile(task, "local", name, tmp_path)


@pytest.mark.needs_docker
def test_oracle_passes_under_docker(task):
    r = evaluate(task, isolation="docker", only_cases=QUICK, timing=False)
    assert r["failure"] is None, r["failure"]
    assert r["isolation"]["backend"] == "docker"


@pytest.mark.needs_docker
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_candidates_docker(task, name, tmp_path):
    _check_hostile(task, "docker", name, tmp_path)


@pytest.mark.slow
def test_timing_rows_and_output_recheck_on_timed_runs(task, tmp_path):
    # No verdict is asserted (timing assertions flake); bench/ and the README
    # hold the speed figures. What must hold: every round is recorded, with its
    # pair and block, and a candidate whose timed runs differ from the
    # reference's output is caught.
    t, runner = runners.load(task)
    small = [i for i in runner.timing_inputs(t) if i.id == "small"]
    t.timing.min_blocks = t.timing.max_blocks = 8
    t.timing.pairs_per_block = 1
    with runner.open_session(t, t.oracle_dir) as session:
        row = session.time(small)[0].to_dict()
    assert row["error"] is None and row["rounds"] == 16 and len(row["samples"]) == 16
    assert [s["block"] for s in row["samples"]] == [b for b in range(8) for _ in range(2)]
    assert row["speedup"] > 0 and row["ci_low"] <= row["speedup"] <= row["ci_high"]
    with runner.open_session(t, CANDIDATES / "missing_file") as session:
        row = session.time(small)[0].to_dict()
    assert row["error_side"] == "candidate" and "differs from the reference" in row["error"]


def test_golden_from_another_reference_is_refused(tmp_path):
    copy = tmp_path / "logstat"
    shutil.copytree(TASK, copy, ignore=shutil.ignore_patterns("candidates"))
    assert validate(copy) == []
    with open(copy / "environment" / "workspace" / "logstat.py", "a") as f:
        f.write("# changed\n")
    assert any("recorded from a different reference" in p for p in validate(copy))


def test_harbor_verifier_writes_a_flat_reward(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "reward.json").write_text('{"reward": 1}')  # planted by an agent
    env = {**os.environ, "FM_CANDIDATE": str(CANDIDATES / "wrong_exit"), "FM_LOGS": str(logs),
           "FM_PYTHON": sys.executable}
    subprocess.run(["bash", str(TASK / "tests" / "test.sh")], env=env, timeout=300, check=False)
    reward = json.loads((logs / "reward.json").read_text())
    assert reward["reward"] == 0 and 0 < reward["functional_pass_rate"] < 1
    assert all(isinstance(v, (int, float)) for v in reward.values())
    assert (logs / "out" / "repository-logstat" / "result.json").is_file()


def test_validate_names_each_problem_of_a_repository_task(tmp_path):
    assert validate(TASK) == []
    copy = tmp_path / "logstat"
    shutil.copytree(TASK, copy, ignore=shutil.ignore_patterns("candidates"))
    (copy / "tests" / "golden.json").unlink()
    shutil.rmtree(copy / "tests" / "fixtures")
    problems = validate(copy)
    assert any(p.startswith("tests/fixtures/: missing") for p in problems)
