"""Repository scale end to end on the bundled logstat task: the C oracle, the
reference against itself, candidates that must fail for the right reason, and
hostile candidates under both isolation backends."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from frontier_measure import isolation
from frontier_measure.isolation import Policy
from frontier_measure.runners import repository as rp

TASK = Path(__file__).resolve().parents[1] / "tasks" / "repository" / "logstat"
CANDIDATES = TASK / "tests" / "candidates"
# Enough cases to show each failure, few enough to keep the suite quick.
QUICK = ["summary-malformed", "missing-file", "report-basic", "filter-class"]


def evaluate(name: str | None, backend, **kw):
    cand = CANDIDATES / name if name else None
    return rp.evaluate(TASK, cand, backend=backend, timing=False, **kw)


def failing(result) -> list[dict]:
    return [i for i in result["functional"]["items"] if not i["passed"]]


@pytest.fixture(scope="module")
def local():
    with isolation.LocalBackend(Policy(timeout_s=20)) as b:
        yield b


def test_settings_and_cases_load():
    s = rp.load_settings(TASK)
    assert len(s.cases) >= 30 and len(s.timing_inputs) == 2
    assert sorted(t.size for t in s.timing_inputs) == [20000, 100000]
    golden = rp.load_golden(s)
    assert len(golden["items"]) >= 300 and golden["recordings"] == 5
    # The one case that writes a timestamp: that path is excluded, the rest kept.
    assert "stamped-run/0/files:stamp.txt" in golden["excluded"]
    assert "stamp.txt" not in golden["items"]["stamped-run/1/files"]
    assert "small.log" in golden["items"]["stamped-run/1/files"]


def test_command_line_eval_without_timing(capsys):
    code = rp.main(["eval", str(TASK), "--no-timing", "--candidate", str(CANDIDATES / "wrong_exit")])
    out = capsys.readouterr().out
    assert code == 0
    assert "functional: " in out and "FAILED" in out and "strict success: no" in out


def test_snapshot_and_file_diff(tmp_path):
    (tmp_path / "a").write_text("1")
    (tmp_path / "d").mkdir()
    before = rp.snapshot(tmp_path)
    (tmp_path / "a").write_text("2")
    (tmp_path / "d" / "new").write_text("")
    diff = rp.item_diff("c/0/files", before, rp.snapshot(tmp_path))
    assert diff[0] == "added: d/new"
    assert diff[1].startswith("changed: a: expected file")


def test_unstable_items_and_paths_are_excluded():
    recs = [{"c/0/stdout": "x", "c/0/stderr": str(i), "c/0/files": {"a": "f", "t": str(i)}}
            for i in range(5)]
    golden, excluded = rp.stable_items(recs)
    assert golden == {"c/0/stdout": "x", "c/0/files": {"a": "f"}}
    assert excluded == ["c/0/files:t", "c/0/stderr"]


def test_oracle_passes_every_item(local):
    r = evaluate(None, local)
    f = r["functional"]
    assert f["passed"], f["reason"]
    assert f["items_passed"] == f["items_total"] >= 300
    assert r["build"]["candidate"]["ok"] and "logstat.c" in r["build"]["candidate"]["log"]


def test_reference_against_itself_is_functional(local):
    r = rp.evaluate(TASK, TASK / "environment" / "workspace", backend=local, timing=False)
    assert r["functional"]["passed"]


def test_failed_build_is_a_functional_failure_with_the_log(local, tmp_path):
    (tmp_path / "Makefile").write_text("all:\n\techo compiling; cc -o logstat missing.c\n")
    r = rp.evaluate(TASK, tmp_path, backend=local, timing=False, only_cases=QUICK)
    assert not r["functional"]["passed"]
    assert r["functional"]["reason"].startswith("build failed")
    assert "compiling" in r["build"]["candidate"]["log"]
    assert r["functional"]["items_passed"] == 0


@pytest.mark.parametrize(("name", "kind", "needle"), [
    ("wrong_exit", "exit_code", "expected 1, got 3"),
    ("different_stderr", "stderr", "malformed lines ignored"),
    ("missing_file", "files", "removed: out/top_ips.tsv"),
    ("extra_file", "files", "added: out/index.txt"),
])
def test_failing_candidates_fail_for_the_right_reason(local, name, kind, needle):
    r = evaluate(name, local, only_cases=QUICK)
    bad = failing(r)
    assert bad and not r["functional"]["passed"]
    kinds = {i["id"].rsplit("/", 1)[1] for i in bad}
    # A missing or extra file also shows in the case's own `ls` of the directory.
    assert kind in kinds and kinds <= {kind, "stdout" if kind == "files" else kind}
    assert any(needle in line for i in bad for line in i["diff"])
    rule = {"wrong_exit": "wrong-exit-code", "different_stderr": "wrong-stderr",
            "missing_file": "missing-file", "extra_file": "extra-file"}[name]
    assert r["functional"]["rule"] == rule


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p).encode() + p.read_bytes())
    return h.hexdigest()


def _hostile(backend, name: str, tmp: Path) -> dict:
    """Evaluate a hostile candidate; the evaluator's data must come out intact."""
    before = _digest(TASK / "tests"), _digest(TASK / "environment")
    cand = tmp / name
    shutil.copytree(CANDIDATES / name, cand)
    # The candidate is told exactly where the golden outputs are.
    (cand / "target.path").write_text(str(TASK / "tests" / "golden.json"))
    r = rp.evaluate(TASK, cand, backend=backend, timing=False, only_cases=QUICK[:2],
                    command_timeout=3)
    assert (_digest(TASK / "tests"), _digest(TASK / "environment")) == before
    assert r["build"]["candidate"]["ok"], r["build"]["candidate"]
    assert not r["functional"]["passed"] and r["functional"]["reason"]
    assert backend.sweep("candidate") == 0
    return r


def _check_hostile(backend, name: str, tmp: Path) -> None:
    r = _hostile(backend, name, tmp)
    f = r["functional"]
    log = r["build"]["candidate"].get("log", "")
    if name == "hostile_read_golden":
        # Copies of the task elsewhere on the machine (another checkout) are not
        # the evaluator's to close; the evaluated task's golden outputs are.
        golden = str(TASK / "tests" / "golden.json")
        assert f"READ {golden}" not in log and f"denied: {golden}" in log
        assert any("golden outputs not readable" in line for i in failing(r) for line in i["diff"]), log
    elif name == "hostile_write_reference":
        assert "WROTE" not in log and "denied" in log
        built = backend.area("reference") / "program" / "logstat.py"
        assert built.read_bytes() == (TASK / "environment/workspace/logstat.py").read_bytes()
    elif name == "hostile_fork_bomb":
        pass  # bounded by the process limit, stopped, swept (checked in _hostile)
    elif name == "hostile_background":
        assert "left 1 process(es) running" in f["reason"]
    elif name == "hostile_kill_evaluator":
        assert os.getpid() > 0  # still here
    elif name == "hostile_fill_disk":
        assert any("fill.bin" in line for i in failing(r) for line in i.get("diff", []))
    elif name == "hostile_sleep":
        assert "timed out" in f["reason"]


HOSTILE = ["hostile_read_golden", "hostile_write_reference", "hostile_fork_bomb",
           "hostile_background", "hostile_kill_evaluator", "hostile_fill_disk", "hostile_sleep"]


@pytest.mark.needs_root
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_candidates_local(local, name, tmp_path):
    _check_hostile(local, name, tmp_path)


@pytest.fixture(scope="module")
def dock():
    with isolation.DockerBackend(Policy(timeout_s=20)) as b:
        yield b


@pytest.mark.needs_docker
def test_oracle_passes_under_docker(dock):
    r = evaluate(None, dock)
    assert r["functional"]["passed"], r["functional"]["reason"]
    assert r["isolation"]["backend"] == "docker"


@pytest.mark.needs_docker
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_candidates_docker(dock, name, tmp_path):
    _check_hostile(dock, name, tmp_path)


@pytest.mark.slow
def test_timing_rows_and_output_recheck_on_timed_runs(local):
    # No verdict is asserted (timing assertions flake); bench/ and the README
    # hold the speed figures. What must hold: every round is recorded, and a
    # candidate whose timed runs differ from the reference's output is caught.
    s = rp.load_settings(TASK)
    s.timing_inputs = [t for t in s.timing_inputs if t.id == "small"]
    s.timing.update({"min_rounds": 12, "max_rounds": 12})  # 6 AB/BA pairs: the fewest for a claim
    rp.build(local, "reference", s.reference_dir, "make", 60)
    rp.build(local, "candidate", s.oracle_dir, "make", 60)
    row = rp.time_inputs(s, local, max_time=1)[0]
    assert row["error"] is None and row["rounds"] == 12 and len(row["samples"]) == 12
    assert row["speedup"] > 0 and row["ci_low"] <= row["speedup"] <= row["ci_high"]
    assert row["verdict"] in ("faster", "slower", "indistinguishable", "insufficient")
    rp.build(local, "candidate", CANDIDATES / "missing_file", "make", 60)
    row = rp.time_inputs(s, local, max_time=1)[0]
    assert row["verdict"] == "failed" and "differs from the reference" in row["error"]


def test_golden_from_another_reference_is_refused(tmp_path):
    import shutil

    copy = tmp_path / "logstat"
    shutil.copytree(TASK, copy, ignore=shutil.ignore_patterns("candidates"))
    rp.load_golden(rp.load_settings(copy))
    with open(copy / "environment" / "workspace" / "logstat.py", "a") as f:
        f.write("# changed\n")
    with pytest.raises(rp.RepositoryTaskError, match="different reference"):
        rp.load_golden(rp.load_settings(copy))


def test_harbor_verifier_writes_a_flat_reward(tmp_path):
    import json
    import subprocess
    import sys

    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "reward.json").write_text('{"reward": 1}')  # planted by an agent
    env = {**os.environ, "FM_CANDIDATE": str(CANDIDATES / "wrong_exit"), "FM_LOGS": str(logs),
           "FM_BIN": str(Path(sys.executable).parent / "frontier-measure")}
    subprocess.run(["bash", str(TASK / "tests" / "test.sh")], env=env, timeout=300, check=False)
    reward = json.loads((logs / "reward.json").read_text())
    assert reward["reward"] == 0 and 0 < reward["functional_pass_rate"] < 1
    assert all(isinstance(v, (int, float)) for v in reward.values())
    assert (logs / "out" / "repository-logstat" / "result.json").is_file()


def test_validate_names_each_problem_of_a_repository_task(tmp_path):
    from frontier_measure.task import validate

    assert validate(TASK) == []
    copy = tmp_path / "logstat"
    shutil.copytree(TASK, copy, ignore=shutil.ignore_patterns("candidates"))
    (copy / "tests" / "golden.json").unlink()
    shutil.rmtree(copy / "tests" / "fixtures")
    problems = validate(copy)
    assert any(p.startswith("tests/fixtures/: missing") for p in problems)
