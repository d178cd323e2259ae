"""Kernel tasks' instructions carry a machine section generated from the
machine file the task names (machine_text.py): the shipped files are exactly
what the generator gives, so the prose cannot drift from the costs."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from eval_support import ROOT
from frontier_measure import machine_text, runners, sim
from frontier_measure.cli import main
from frontier_measure.validate import validate

KERNEL_TASKS = sorted([*(ROOT / "tasks" / "kernel").iterdir(),
                       *(ROOT / "tasks" / "suite" / "kernel").iterdir()])


def _machine(task: Path) -> str:
    return tomllib.loads((task / "task.toml").read_text())["metadata"]["frontier"]["kernel"][
        "machine"]


@pytest.mark.parametrize("task", KERNEL_TASKS, ids=lambda p: p.name)
def test_shipped_instructions_are_what_the_generator_gives(task):
    assert machine_text.drift(task, _machine(task)) == [], (
        f"regenerate: frontier-measure task instructions {task.relative_to(ROOT)}")
    for f in machine_text.FILES:
        assert (task / f).is_file(), f
        text = (task / f).read_text()
        # What an older hand-written text promised: a machine file that does
        # not exist, caches of another core.
        assert "default.machine" not in text and "32 KiB" not in text and "2 MiB" not in text


def test_the_section_holds_the_machine_files_figures():
    text = machine_text.section("rocket")
    v = machine_text.machine_values("rocket")
    l1 = int(v["l1d.sets"]) * int(v["l1d.ways"]) * int(v["l1d.line"])
    l2 = int(v["l2.sets"]) * int(v["l2.ways"]) * int(v["l2.line"])
    assert f"| L1 data cache | {l1 >> 10} KiB, {v['l1d.ways']}-way" in text
    assert f"| L2 cache | {l2 >> 10} KiB, {v['l2.ways']}-way" in text
    assert f"{v['l2.latency']} cycles on an L1 miss" in text
    assert f"{v['memory.latency']} cycles on an L2 miss" in text
    assert f"{v['branch.mispredict_penalty']} cycles lost per mispredicted branch" in text
    assert "`rocket`" in text and text.endswith("|\n")
    assert machine_text.section("default") == text  # `default` names rocket


def _task_on_a_changed_machine(tmp_path: Path) -> tuple[Path, Path]:
    task = tmp_path / "histogram"
    shutil.copytree(ROOT / "tasks" / "kernel" / "histogram", task)
    machine = tmp_path / "bigger.machine"
    text = (sim.machines_dir() / "rocket.machine").read_text()
    machine.write_text(text.replace("l1d.sets = 64", "l1d.sets = 128")
                       .replace("name = rocket", "name = bigger"))
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace('machine = "rocket"', f'machine = "{machine}"'))
    return task, machine


def test_a_section_that_drifted_is_found_and_rewritten(tmp_path):
    task, machine = _task_on_a_changed_machine(tmp_path)
    assert machine_text.drift(task, str(machine)) == list(machine_text.FILES)
    problems = validate(task)
    assert any(p.startswith("instruction.md: its '## The machine' section") for p in problems), \
        problems
    r = CliRunner().invoke(main, ["task", "instructions", "--check", str(task)])
    assert r.exit_code == 1
    r = CliRunner().invoke(main, ["task", "instructions", str(task)])
    assert r.exit_code == 0, r.output
    assert machine_text.drift(task, str(machine)) == []
    text = (task / "instruction.md").read_text()
    assert "| L1 data cache | 32 KiB, 4-way, 64-byte lines |" in text
    # Only the section changed: the task's own prose is kept, and the
    # descriptive prompt's hint stays before the section.
    assert text.startswith("# Faster character-class histogram")
    desc = (task / "prompts" / "descriptive.md").read_text()
    assert desc.index("How:") < desc.index(machine_text.HEADING)
    assert CliRunner().invoke(main, ["task", "instructions", "--check", str(task)]).exit_code == 0


def test_a_file_without_the_section_gets_it_appended(tmp_path):
    task = tmp_path / "t"
    (task / "prompts").mkdir(parents=True)
    (task / "instruction.md").write_text("# A task\n\nDo it.\n")
    assert machine_text.drift(task, "rocket") == ["instruction.md"]
    assert machine_text.write(task, "rocket") == ["instruction.md"]
    assert (task / "instruction.md").read_text() == \
        "# A task\n\nDo it.\n\n" + machine_text.section("rocket")
    assert machine_text.write(task, "rocket") == []


def test_only_kernel_tasks_have_a_machine(tmp_path):
    r = CliRunner().invoke(main, ["task", "instructions", str(ROOT / "tasks" / "module" / "dedupe")])
    assert r.exit_code == 2 and "not a kernel task" in r.output
    t, _ = runners.load(KERNEL_TASKS[0])
    assert t.scale == "kernel"
