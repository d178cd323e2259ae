"""The suite of tasks from real code (tasks/suite/): found only when asked,
valid, each with its source and licence recorded."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from frontier_measure.task import find_tasks, load
from frontier_measure.validate import validate

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tasks"
SUITE = find_tasks(TASKS / "suite")


def test_the_suite_is_one_flag_away():
    default = find_tasks(TASKS)
    full = find_tasks(TASKS, full=True)
    assert SUITE and not set(SUITE) & set(default)
    assert set(full) == set(default) | set(SUITE)
    assert find_tasks(SUITE[0]) == [SUITE[0]]


@pytest.mark.parametrize("task", SUITE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_suite_tasks_are_valid_and_say_where_they_come_from(task):
    assert validate(task) == []
    meta = tomllib.loads((task / "task.toml").read_text())["metadata"]
    assert meta["source"] and meta["license"] and len(meta["source_sha256"]) == 64
    assert (task / "environment/workspace/LICENSE").is_file()
    assert (task / "solution/workspace/LICENSE").is_file()
    assert load(task).threshold > 1


FUZZED = [t for t in SUITE if (t / "tests" / "fuzz.py").is_file()]


def test_most_structured_suite_tasks_are_fuzzed():
    # Every package task, and module tasks whose inputs have a grammar.
    assert len(FUZZED) >= 8
    assert {t.name for t in SUITE if t.parent.name == "package"} <= {t.name for t in FUZZED}


@pytest.mark.parametrize("task", FUZZED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_suite_fuzz_targets_draw_cases_in_the_cases_format(task):
    # What eval does with each drawn input before any side runs it: a target
    # whose strategy fails to draw, or draws what is not a case, is caught here
    # rather than at the first evaluation of a candidate.
    pytest.importorskip("hypothesis")
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample

    from frontier_measure import fuzz
    from frontier_measure.runners.module import normalise_ops

    t = load(task)
    found = fuzz.targets(t)
    assert found and len({x.id for x in found}) == len(found)
    for target in found:
        drawn: list[int] = []

        def well_formed(raw, drawn=drawn):
            drawn.append(len(normalise_ops(raw)))
            return False

        with pytest.raises(NoSuchExample):
            find(target.strategy, well_formed, settings=settings(
                max_examples=5, database=None, derandomize=True, deadline=None,
                phases=[Phase.generate], suppress_health_check=list(HealthCheck)))
        assert drawn and all(n >= 1 for n in drawn), target.id


@pytest.mark.parametrize("task", FUZZED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_fuzzed_suite_task_exports_with_hypothesis_and_fuzzes_from_tests_alone(task, tmp_path):
    from frontier_measure import fuzz, harbor, runners

    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "frontier_measure-0-py3-none-any.whl").write_bytes(b"layout only")
    runtime = tmp_path / "runtime"  # the layout is under test, not the shipped Python
    runtime.mkdir()
    with pytest.raises(ValueError, match="tests/fuzz.py needs hypothesis"):
        harbor.export(task, tmp_path / "refused", wheels=wheels, runtime=runtime)
    (wheels / "hypothesis-6.0.0-py3-none-any.whl").write_bytes(b"layout only")
    out = harbor.export(task, tmp_path / "out", wheels=wheels, runtime=runtime)
    assert (out / "tests" / "fuzz.py").read_bytes() == (task / "tests" / "fuzz.py").read_bytes()
    # The verifier sees tests/ alone (task.toml copied in it): the targets load there.
    root = tmp_path / "verifier"
    root.mkdir()
    (root / "task.toml").write_bytes((out / "tests" / "task.toml").read_bytes())
    (root / "tests").symlink_to(out / "tests")
    t, _ = runners.load(root)
    assert [x.id for x in fuzz.targets(t)] == [x.id for x in fuzz.targets(load(task))]
