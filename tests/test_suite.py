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
