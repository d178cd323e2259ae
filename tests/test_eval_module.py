"""End to end at module scale (tasks/module/dedupe): the oracle succeeds, the
reference against itself is functional and indistinguishable, and each
candidate under tests/candidates/module fails at the right stage for the right
reason."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from eval_support import CANDIDATES, failure, quick_task, run
from frontier_measure import results
from frontier_measure.cli import main
from frontier_measure.evaluate import evaluate
from frontier_measure.results import load as load_result

pytestmark = pytest.mark.slow
CAND = CANDIDATES / "module"


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    return quick_task(tmp_path_factory.mktemp("eval-module"), "module", "dedupe")


def test_oracle_is_a_strict_success_and_result_is_complete(task, tmp_path):
    res = run(task, None, out=tmp_path)
    assert res["compliance"]["compliant"]
    assert res["functional"]["summary"] == "85/85 items passed"
    perf = res["performance"]
    assert [i["id"] for i in perf["inputs"]] == ["n300", "n1500"]
    # The oracle is 7-40x faster; on a machine at load 20 the small input's
    # interval can still straddle the 3x threshold: that is "inconclusive"
    # (no reward, exit 3), never a rejection of the oracle.
    decided = res["strict_success"]
    if not decided:
        assert res["failure"]["rule"] == "inconclusive", res["failure"]
    stored = load_result(tmp_path / "module-dedupe" / "result.json")
    assert stored["schema_version"] == results.SCHEMA_VERSION and results.verify(stored) is None
    assert len(stored["functional"]["items"]) == 85
    first = stored["performance"]["inputs"][0]
    assert len(first["samples"]) == first["rounds"] >= 10
    assert {"reference", "candidate", "reference_first", "pair", "block"} <= set(first["samples"][0])
    # One pair of fresh workers per block; the measurement path's own cost is known.
    assert first["processes"] == first["blocks"] >= 5
    assert first["harness_ns_per_call"] > 0 and first["harness_share"] > 0
    assert stored["environment"]["clock"]
    assert stored["reward"]["reward"] == (1.0 if decided else 0.0)
    assert stored["reward"]["compliant"] == 1.0


def test_reference_against_itself_is_indistinguishable(task):
    # A/A: with two timing inputs, each at a 95% level, about one run in
    # sixteen may call a difference by chance; a systematic difference shows in
    # every run, so three independent runs settle it (all wrong by chance: <0.1%).
    for _attempt in range(3):
        res = run(task, task / "environment" / "workspace")
        assert res["functional"]["failed"] == 0
        assert not res["strict_success"]
        verdicts = {i["verdict"] for i in res["performance"]["inputs"]}
        if verdicts == {"indistinguishable"}:
            break
    assert verdicts == {"indistinguishable"}
    assert failure(res) == ("performance", "no-speedup")


@pytest.mark.parametrize("kind,stage,rule", [
    ("wrong_value", "functional", "wrong-value"),
    ("wrong_message", "functional", "wrong-exception"),
    ("mutates", "functional", "mutated-argument"),
    ("forbidden_import", "compliance", "forbidden-import"),
    ("dynamic_import", "compliance", "escape-hatch"),
])
def test_candidates_fail_before_timing(task, kind, stage, rule):
    res = run(task, CAND / kind)
    assert failure(res) == (stage, rule), res["failure"]
    assert res["performance"]["ran"] is False
    if stage == "compliance":
        assert res["functional"]["ran"] is False
        f = res["compliance"]["findings"][0]
        assert f["file"] == "dedupe.py" and f["line"] > 0
    else:
        assert 0 < res["functional"]["failed"] < res["functional"]["total"]


def test_wrong_message_diff_is_readable(task):
    res = run(task, CAND / "wrong_message")
    item = next(i for i in res["functional"]["items"] if not i["passed"])
    assert item["id"] == "tuple-arg/0/result"
    assert item["diff"] == ["exception message: expected 'records must be a list', "
                            "got 'records must be a list, got tuple'"]


def test_slower_candidate(task):
    res = run(task, CAND / "slower")
    assert failure(res) == ("performance", "slower")
    assert res["functional"]["failed"] == 0


def test_caching_across_calls_is_caught(task):
    res = run(task, CAND / "caching")
    assert res["functional"]["failed"] == 0  # it passes every held-out case
    assert failure(res) == ("performance", "timing-violation")
    assert "caching across calls" in res["failure"]["reason"]


def test_cli_eval_writes_result_and_reward(task, tmp_path):
    reward = tmp_path / "reward.json"
    r = CliRunner().invoke(main, ["eval", str(task), "--candidate", str(CAND / "wrong_value"),
                                  "--out", str(tmp_path / "out"), "--reward", str(reward)])
    assert r.exit_code == 1, r.output  # not a strict success: CI sees it
    assert "functional 84/85 items passed" in r.output or "items passed" in r.output
    assert "FAIL" in r.output
    data = json.loads(reward.read_text())
    assert set(data) == {"reward", "speedup", "functional_pass_rate", "compliant"}
    assert data["reward"] == 0.0 and data["compliant"] == 1.0
    assert 0 < data["functional_pass_rate"] < 1
    assert (tmp_path / "out" / "module-dedupe" / "result.json").is_file()


def test_a_reference_that_fails_while_timed_is_an_evaluation_error(tmp_path):
    # Not a verdict on the candidate: the evaluation itself could not be done.
    import tempfile

    from frontier_measure import runners
    from frontier_measure.evaluate import EvaluationError, evaluate
    from frontier_measure.record import record

    task = quick_task(tmp_path, "module", "dedupe")
    # Where the reference can see it: its sandbox shows the system's /usr (a
    # /tmp of the host would not be there, nor tmp_path, which is private).
    flag = Path("/usr/local/share") / f"fm-break-the-reference-{os.getpid()}"
    if not os.access(flag.parent, os.W_OK):
        flag = Path(tempfile.gettempdir()) / flag.name
    ref = task / "environment" / "workspace" / "dedupe.py"
    ref.write_text("import os\n" + ref.read_text().replace(
        "    kept = []\n",
        f"    if len(records) == 1500 and os.path.exists({str(flag)!r}):\n"
        "        os._exit(3)\n    kept = []\n", 1))
    record(*runners.load(task), runs=2)
    flag.write_text("")
    try:
        with pytest.raises(EvaluationError, match="the reference failed"):
            evaluate(task, out=tmp_path / "out")
    finally:
        flag.unlink()
    stored = load_result(tmp_path / "out" / "module-dedupe" / "result.json")
    assert stored["failure"]["stage"] == "error" and stored["reward"]["reward"] == 0


def test_the_one_exact_shell_command_a_task_permits_runs(tmp_path):
    """sqlglot 1.0.0 runs os.system('') at import: a task can permit that one
    call, which then passes source inspection and the run-time audit hook."""
    task = quick_task(tmp_path, "module", "dedupe", allow_imports=["os"])
    chk = task / "tests" / "checklist.toml"
    chk.write_text(chk.read_text().replace("allow = []", "allow = [\"os.system('')\"]"))
    cand = tmp_path / "cand"
    shutil.copytree(task / "solution" / "workspace", cand)
    src = cand / "dedupe.py"
    src.write_text("import os\n\nos.system('')\n" + src.read_text())
    res = evaluate(task, cand, timing=False)
    assert res["compliance"]["compliant"], res["failure"]
    assert res["functional"]["passed"] == res["functional"]["total"]
