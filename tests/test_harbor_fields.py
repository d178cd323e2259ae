"""The Harbor fields of task.toml, checked by `validate` without Harbor installed
(the same answers Harbor's task model gives; tests/test_harbor_real.py asks Harbor)."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure import harbor_fields
from frontier_measure.cli import main
from frontier_measure.task import find_tasks
from frontier_measure.validate import validate

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tasks"


def doc(path: Path) -> dict:
    return tomllib.loads((path / "task.toml").read_text())


@pytest.mark.parametrize("task", find_tasks(TASKS), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_tasks_have_harbor_fields_right(task):
    d = doc(task)
    assert harbor_fields.check(d) == []
    assert all(isinstance(a, dict) and isinstance(a["name"], str) for a in d["task"]["authors"])
    assert d["environment"]["network_mode"] == "no-network"


def test_the_issue_example_gets_every_problem_named():
    d = doc(TASKS / "module" / "dedupe")
    d["task"]["authors"] = "me"
    d["environment"]["network_mode"] = "offline"
    d["environment"]["cpus"] = "two"
    problems = harbor_fields.check(d)
    assert len(problems) == 3, problems
    joined = "\n".join(problems)
    assert "[task].authors: expected an array of tables" in joined
    assert "[environment].network_mode: unknown mode 'offline'" in joined
    assert "'no-network'" in joined
    assert "[environment].cpus: expected a number, got string 'two'" in joined


@pytest.mark.parametrize(("table", "key", "value", "expect"), [
    ("task", "authors", ["me"], "[task].authors[0]: expected a table like { name = \"me\" }"),
    ("task", "authors", [{"email": "a@b"}], "[task].authors[0].name: missing"),
    ("task", "name", "no-org", "[task].name: expected \"org/name\""),
    ("task", "keywords", "perf", "[task].keywords: expected an array of strings"),
    ("task", "version", "", "[task].version: expected a non-empty string"),
    ("verifier", "timeout_sec", 0, "[verifier].timeout_sec: must be positive"),
    ("verifier", "timeout_sec", "600", "[verifier].timeout_sec: expected a number"),
    ("verifier", "environment_mode", "own", "[verifier].environment_mode: expected 'shared' or 'separate'"),
    ("agent", "timeout_sec", -1, "[agent].timeout_sec: must be positive"),
    ("agent", "user", 1.5, "[agent].user: expected a user name or uid"),
    ("agent", "network_mode", "none", "[agent].network_mode: unknown mode 'none'"),
    ("environment", "memory_mb", 1.5, "[environment].memory_mb: expected a whole number"),
    ("environment", "storage_mb", 0, "[environment].storage_mb: must be positive"),
    ("environment", "gpus", -1, "[environment].gpus: must be >= 0"),
    ("environment", "cpus", True, "[environment].cpus: expected a number, got boolean"),
    ("environment", "build_timeout_sec", "10m", "[environment].build_timeout_sec: expected a number"),
    ("environment", "workdir", "app", "[environment].workdir: must be an absolute path"),
    ("environment", "os", "mac", "[environment].os: expected 'linux' or 'windows'"),
    ("environment", "env", {"A": 1}, "[environment].env: expected a table of strings"),
    ("environment", "allowed_hosts", ["pypi.org"], "[environment].allowed_hosts: only allowed with"),
    ("environment", "timout_sec", 5, "[environment].timout_sec: not a Harbor field"),
])
def test_each_field_problem_is_named(table, key, value, expect):
    d = doc(TASKS / "module" / "dedupe")
    d.setdefault(table, {})[key] = value
    problems = harbor_fields.check(d)
    assert any(expect in p for p in problems), problems
    assert all(p.startswith("task.toml [") for p in problems)


def test_allowlist_with_hosts_is_fine():
    d = doc(TASKS / "module" / "dedupe")
    d["environment"].update(network_mode="allowlist", allowed_hosts=["pypi.org", "*.pythonhosted.org"])
    assert harbor_fields.check(d) == []


def test_tables_of_the_wrong_kind():
    problems = harbor_fields.check({"task": "x", "environment": [1], "version": 1})
    assert "task.toml [task]: must be a table, got string" in problems
    assert "task.toml [environment]: must be a table, got array" in problems
    assert any("(top level).version: expected a string" in p for p in problems)


def test_validate_reports_harbor_problems_even_when_the_task_loads(tmp_path):
    dest = tmp_path / "dedupe"
    shutil.copytree(TASKS / "module" / "dedupe", dest)
    text = (dest / "task.toml").read_text()
    text = text.replace('authors = [{ name = "frontier-measure" }]', 'authors = "me"')
    text = text.replace('network_mode = "no-network"', 'network_mode = "offline"')
    text = text.replace("cpus = 2", 'cpus = "two"')
    (dest / "task.toml").write_text(text)
    problems = validate(dest)
    assert len(problems) == 3, problems
    r = CliRunner().invoke(main, ["validate", str(dest)])
    assert r.exit_code == 1
    assert "3 problem(s)" in r.output and "authors" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("task", find_tasks(TASKS, full=True), ids=lambda p: str(p.relative_to(TASKS)))
def test_every_task_suite_included_tells_harbor_lint_its_verifier_is_shared(task):
    # What `harbor lint` asks (tests/test_harbor_real.py runs it), checked here
    # without Harbor: a missing ignore is a problem `validate` names.
    d = doc(task)
    assert "shared-verifier" in d["metadata"]["harbor"]["lint"]["ignore"]
    assert harbor_fields.check(d) == []
    del d["metadata"]["harbor"]
    assert any("[metadata.harbor.lint].ignore" in p for p in harbor_fields.check(d))
    d["verifier"]["environment_mode"] = "separate"
    assert harbor_fields.check(d) == []
