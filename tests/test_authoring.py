"""The authoring audit `validate` prints: coverage of the reference, public
callables no case runs, cases that test nothing, unstable values."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure import runners
from frontier_measure.authoring import audit
from frontier_measure.cli import main

ROOT = Path(__file__).resolve().parents[1]
GRAPHS = ROOT / "tasks" / "package" / "graphs"


@pytest.fixture
def graphs(tmp_path: Path) -> Path:
    dest = tmp_path / "graphs"
    shutil.copytree(GRAPHS, dest)
    return dest


def test_a_bundled_task_audits_clean_with_full_coverage():
    task, runner = runners.load(GRAPHS)
    warnings, notes = audit(task, runner, {"excluded": {}})
    assert warnings == []
    assert any("statements 100%" in n for n in notes)


def test_the_audit_names_what_the_cases_miss(graphs):
    ref = graphs / "environment/workspace/graphs"
    (ref / "__init__.py").write_text(
        "from .graph import Graph, GraphError\n\n"
        "__all__ = ['Graph', 'GraphError', 'unused']\n\n\n"
        "def unused(x):\n    if x:\n        return 1\n    return 2\n")
    cases = graphs / "tests/cases.py"
    cases.write_text(cases.read_text().replace(
        "    return out\n\n\ndef timing_inputs",
        "    out.append({'id': 'ghost', 'ops': [{'call': 'Tree'}, {'get': 'VERSION'}]})\n"
        "    out.append({'id': 'half', 'ops': [{'call': 'Graph', 'as': 'g'},"
        " {'call': '$g.missing'}]})\n"
        "    out.append({'id': 'unkept', 'ops': [{'op': '/', 'args': [1, 0], 'as': 'z'},"
        " {'op': '+', 'args': ['$z', 1]}]})\n"
        "    return out\n\n\ndef timing_inputs"))
    task, runner = runners.load(graphs)
    warnings, notes = audit(task, runner, {"excluded": {"random-1/3/result": "varied"}})
    text = "\n".join(warnings)
    assert "1 case(s) test nothing" in text and "ghost" in text and "AttributeError" in text
    assert "1 operation(s) name something the reference does not have: half op 1" in text
    assert ("1 operation(s) use a value an earlier operation failed to keep (e.g. unkept op 1: "
            "'$z' was not kept: operation 0 raised ZeroDivisionError") in text
    assert "1 public callable(s) no case runs: unused" in text
    assert "1 recorded value(s) excluded as unstable" in text
    assert any("branches" in n for n in notes)


def test_cli_validate_strict_turns_warnings_into_errors(graphs):
    golden = graphs / "tests/golden.json"
    doc = json.loads(golden.read_text())
    doc["excluded"] = {"add/0/result": "varied between recordings"}
    golden.write_text(json.dumps(doc))
    runner = CliRunner()
    lenient = runner.invoke(main, ["validate", str(graphs)])
    assert lenient.exit_code == 0, lenient.output
    assert "ok, 1 warning(s)" in lenient.output and "warning: 1 recorded value(s)" in lenient.output
    assert "coverage of the reference" in lenient.output
    strict = runner.invoke(main, ["validate", "--strict", str(graphs)])
    assert strict.exit_code == 1 and "error: 1 recorded value(s)" in strict.output


# ------------------------------------------------------------ validate and record take several paths


def test_validate_takes_several_paths_and_names_one_without_tasks(tmp_path):
    rolling = ROOT / "tasks" / "module" / "rolling"
    dedupe = ROOT / "tasks" / "module" / "dedupe"
    r = CliRunner().invoke(main, ["validate", "--no-audit", str(dedupe), str(rolling), str(dedupe)])
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.output.splitlines() if ln.endswith(": ok")]
    assert len(lines) == 2  # each task once, in the order given
    assert lines[0].startswith(str(dedupe)) and lines[1].startswith(str(rolling))
    r = CliRunner().invoke(main, ["validate", str(dedupe), str(tmp_path)])
    assert r.exit_code == 3
    assert f"{tmp_path}: no task.toml found" in r.output


def test_record_names_a_task_defect_before_recording_anything(tmp_path):
    task = tmp_path / "dedupe"
    shutil.copytree(ROOT / "tasks" / "module" / "dedupe", task)
    checklist = task / "tests" / "checklist.toml"
    checklist.write_text(checklist.read_text() + 'unicode = "text records are compared by '
                         'code point"\n')
    before = (task / "tests" / "golden.json").read_bytes()
    r = CliRunner().invoke(main, ["record", str(task)])
    assert r.exit_code == 3, r.output
    assert "[behaviours].unicode: no case covers it" in r.output
    assert "recording 1/" not in r.output  # nothing was run
    assert (task / "tests" / "golden.json").read_bytes() == before
