"""The task format: loading, validation, and the audits `validate` runs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure import runners
from frontier_measure.cli import main
from frontier_measure.runners.module import normalise_ops
from frontier_measure.task import TaskError, find_tasks, load
from frontier_measure.validate import validate

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tasks"
DEDUPE = TASKS / "module" / "dedupe"


@pytest.fixture
def task_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "dedupe"
    shutil.copytree(DEDUPE, dest)
    return dest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("task", find_tasks(TASKS), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_tasks_are_valid(task):
    assert validate(task) == []
    t, runner = runners.load(task)
    assert len(runner.timing_inputs(t)) >= 2
    assert t.oracle_dir.is_dir() and t.reference_dir.is_dir()


def test_bundled_task_counts():
    scales = [load(p).scale for p in find_tasks(TASKS)]
    assert (scales.count("kernel"), scales.count("module"), scales.count("package"),
            scales.count("repository")) >= (3, 5, 3, 1)


def test_settings_are_read(task_copy):
    t = load(task_copy)
    assert (t.scale, t.entry, t.threshold, t.cost) == ("module", "dedupe", 3.0, "wall")
    assert t.timing.min_blocks == 8 and t.timing.pairs_per_block == 2
    assert t.timing.batch_ms == 4.0
    assert t.tolerance.exact
    assert "keeps-first" in t.behaviours


def test_malformed_toml_names_the_file(task_copy):
    (task_copy / "task.toml").write_text("[task\nname = 1\n")
    with pytest.raises(TaskError) as e:
        load(task_copy)
    assert e.value.problems[0].startswith("task.toml: malformed TOML")


def test_every_problem_is_listed_with_file_and_field(task_copy):
    edit(task_copy / "task.toml", 'scale = "module"', 'scale = "galaxy"')
    edit(task_copy / "task.toml", "threshold = 3.0", 'threshold = "fast"')
    edit(task_copy / "task.toml", 'cost = "wall"', 'cost = "joules"')
    edit(task_copy / "task.toml", "min_blocks = 8", "min_blocks = 0\nwobble = 1")
    (task_copy / "instruction.md").unlink()
    problems = validate(task_copy)
    joined = "\n".join(problems)
    assert "instruction.md: missing" in joined
    assert "[metadata.frontier].scale: unknown scale 'galaxy'" in joined
    assert "[metadata.frontier].threshold: expected float, got str 'fast'" in joined
    assert "[metadata.frontier].cost: unknown cost 'joules'" in joined
    assert "[metadata.frontier].timing.wobble: unknown setting" in joined
    assert "timing.min_blocks: must be positive" in joined


def test_missing_frontier_table_and_entry(task_copy):
    edit(task_copy / "task.toml", 'entry = "dedupe"', 'entry = "nothere"')
    problems = validate(task_copy)
    assert any("entry: 'nothere' is neither nothere.py" in p for p in problems)
    (task_copy / "task.toml").write_text('[task]\nname = "org/x"\n')
    problems = validate(task_copy)
    assert "task.toml [metadata.frontier]: missing table" in problems
    # Besides it, only the Harbor lint setting such a bare task.toml also lacks.
    assert all(p.startswith(("task.toml [metadata.frontier]", "task.toml [metadata.harbor.lint]"))
               for p in problems), problems


def test_behaviour_audit(task_copy):
    chk = task_copy / "tests" / "checklist.toml"
    edit(chk, "[behaviours]\n", '[behaviours]\nteleport = "records teleport"\n')
    edit(task_copy / "tests" / "cases.py", '"covers": ["empty"]', '"covers": ["emptyy"]')
    problems = validate(task_copy)
    assert "tests/checklist.toml [behaviours].teleport: no case covers it" in problems
    assert any("case 'empty'.covers: unknown behaviour 'emptyy'" in p for p in problems)


def test_golden_must_match_the_reference(task_copy):
    ref = task_copy / "environment" / "workspace" / "dedupe.py"
    ref.write_text(ref.read_text() + "\n# changed\n")
    assert any("recorded from a different reference" in p for p in validate(task_copy))
    (task_copy / "tests" / "golden.json").unlink()
    assert any("golden.json: missing" in p for p in validate(task_copy))


def test_cases_file_errors_are_reported(task_copy):
    (task_copy / "tests" / "cases.py").write_text("def cases():\n    return [{'id': 'a'}]\n")
    problems = validate(task_copy)
    assert any("must define timing_inputs()" in p for p in problems)
    (task_copy / "tests" / "cases.py").write_text("raise RuntimeError('boom')\n")
    assert validate(task_copy) == ["tests/cases.py: raised RuntimeError: boom"]


def test_cases_changed_after_recording_make_the_golden_stale(task_copy):
    cases = task_copy / "tests" / "cases.py"
    cases.write_text(cases.read_text() + "\n# an edit\n")
    assert any("recorded from a different reference, cases or fixtures" in p
               for p in validate(task_copy))


def test_normalise_ops_forms():
    assert normalise_ops({"call": "f", "args": [1]}) == [
        {"kind": "call", "target": "f", "args": [1], "kwargs": {}}]
    ops = normalise_ops({"ops": [{"call": "C", "as": "c"}, {"get": "$c.size"}]})
    assert ops[0]["as"] == "c" and ops[1]["kind"] == "get"
    with pytest.raises(ValueError, match="needs 'call', 'get', 'op' or 'ops'"):
        normalise_ops({"id": "x"})
    with pytest.raises(ValueError, match="'args' must be a list"):
        normalise_ops({"call": "f", "args": 5})


def test_cli_validate_prints_problems_not_tracebacks(task_copy):
    runner = CliRunner()
    ok = runner.invoke(main, ["validate", str(task_copy)])
    assert ok.exit_code == 0 and ": ok" in ok.output
    (task_copy / "task.toml").write_text("not toml [")
    bad = runner.invoke(main, ["validate", str(task_copy)])
    assert bad.exit_code == 1
    assert "task.toml: malformed TOML" in bad.output
    assert "Traceback" not in bad.output
    ev = runner.invoke(main, ["eval", str(task_copy)])
    assert ev.exit_code == 3 and "malformed TOML" in ev.output  # an error, not a verdict
    assert ev.exception is None or isinstance(ev.exception, SystemExit)


def test_the_item_cap_is_a_setting(task_copy):
    assert load(task_copy).max_item_bytes == 16 << 20  # the default
    edit(task_copy / "task.toml", "case_timeout_s = 20", "case_timeout_s = 20\nmax_item_mb = 0.5")
    assert load(task_copy).max_item_bytes == 1 << 19
    for bad, why in (("0", "must be above 0 and at most 1024"),
                     ("4096", "must be above 0 and at most 1024"),
                     ('"big"', "expected float, got str")):
        text = (task_copy / "task.toml").read_text()
        (task_copy / "task.toml").write_text(re.sub(r"(?m)^max_item_mb = .*$",
                                                    f"max_item_mb = {bad}", text))
        with pytest.raises(TaskError) as e:
            load(task_copy)
        assert any(p.startswith("task.toml [metadata.frontier].max_item_mb") and why in p
                   for p in e.value.problems), e.value.problems
