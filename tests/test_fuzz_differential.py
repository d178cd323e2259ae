"""Differential fuzzing (fuzz.py): a task's tests/fuzz.py draws cases with
hypothesis; both sides run them and the first difference, shrunk to a
minimal input, fails the candidate at functional."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eval_support import quick_task
from frontier_measure.evaluate import evaluate
from frontier_measure.task import TaskError

pytest.importorskip("hypothesis")

FUZZ = '''
from hypothesis import strategies as st


def targets():
    lists = st.lists(st.integers(-5, 5), max_size=40)
    return [{"id": "small-ints", "examples": 120,
             "strategy": lists.map(lambda xs: {"call": "dedupe", "args": [xs]})}]
'''

# Right on every held-out case (none has an int below -3), wrong on any list that does.
WRONG_ON_NEGATIVES = '''

_dedupe = dedupe


def dedupe(records, key=None, verbose=False):
    out = _dedupe(records, key=key, verbose=verbose)
    if isinstance(records, list) and any(type(r) is int and r < -3 for r in records):
        out = out[1:]
    return out
'''


@pytest.fixture
def task(tmp_path: Path) -> Path:
    t = quick_task(tmp_path, "module", "dedupe")
    (t / "tests" / "fuzz.py").write_text(FUZZ)
    return t


def test_a_difference_the_cases_miss_is_found_and_shrunk(task, tmp_path):
    cand = tmp_path / "cand"
    shutil.copytree(task / "environment" / "workspace", cand)
    (cand / "dedupe.py").write_text((cand / "dedupe.py").read_text() + WRONG_ON_NEGATIVES)
    res = evaluate(task, cand, timing=False)
    assert res["failure"]["stage"] == "functional"
    assert res["failure"]["rule"] == "fuzz-difference"
    assert res["functional"]["pass_rate"] == 1  # every held-out item passed
    [outcome] = res["functional"]["fuzz"]
    d = outcome["difference"]
    assert d["input_repr"] == "{'call': 'dedupe', 'args': [[-4]]}"  # minimal
    assert "[[-4]]" in res["failure"]["reason"]


def test_the_reference_against_itself_differs_on_no_generated_input(task):
    res = evaluate(task, task / "environment" / "workspace", timing=False)
    [outcome] = res["functional"]["fuzz"]
    assert outcome["difference"] is None and outcome["examples"] >= 100
    assert res["failure"] is None or res["failure"]["stage"] == "performance"


def test_a_broken_fuzz_file_is_named_before_any_side_runs(task):
    (task / "tests" / "fuzz.py").write_text(
        "def targets():\n    return [{'id': 'x', 'strategy': [1, 2]}]\n")
    with pytest.raises(TaskError, match=r"tests/fuzz.py targets\(\)\[0\] \('x'\).strategy"):
        evaluate(task, None, timing=False)


def test_the_fuzz_section_follows_the_result_schema(task, tmp_path):
    import json

    import jsonschema

    from frontier_measure import schemas

    res = evaluate(task, task / "environment" / "workspace", timing=False)
    jsonschema.validate(json.loads(json.dumps(res)), schemas.load("result"))


def test_harbor_export_ships_hypothesis_for_a_fuzzed_task(task, tmp_path):
    from frontier_measure import harbor

    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "frontier_measure-0-py3-none-any.whl").write_bytes(b"layout only")
    with pytest.raises(ValueError, match="tests/fuzz.py needs hypothesis"):
        harbor.export(task, tmp_path / "out", wheels=wheels, runtime=tmp_path)
    assert "hypothesis" in harbor.shipped()  # installed here (the author extra)


# Wrong once, on its 30th call with a non-empty list, and right ever after: a
# candidate whose outputs depend on what its worker was given before. Its
# held-out cases run in a worker of their own, so the count starts with fuzzing.
WRONG_ONCE = '''

_dedupe = dedupe
_calls = [0]


def dedupe(records, key=None, verbose=False):
    out = _dedupe(records, key=key, verbose=verbose)
    if isinstance(records, list) and records:
        _calls[0] += 1
        if _calls[0] == 30:
            out = out[1:]
    return out
'''


def test_a_difference_that_never_repeats_still_fails_the_candidate(task, tmp_path):
    cand = tmp_path / "cand"
    shutil.copytree(task / "environment" / "workspace", cand)
    (cand / "dedupe.py").write_text((cand / "dedupe.py").read_text() + WRONG_ONCE)
    res = evaluate(task, cand, timing=False)
    assert res["failure"]["rule"] == "fuzz-difference"
    [outcome] = res["functional"]["fuzz"]
    assert outcome["difference"]["item"].startswith("fuzz-small-ints/")


def test_all_drawn_inputs_of_a_target_run_in_one_worker_per_side(task):
    from frontier_measure import fuzz, runners

    t, runner = runners.load(task)
    with runner.open_session(t, t.reference_dir) as session:
        [outcome] = fuzz.differential(session, t, fuzz.targets(t))
        assert outcome["examples"] >= 100 and outcome["difference"] is None
        assert session.processes == 2
