"""Mutation testing of a task's reference (`frontier-measure mutate`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure.cli import main
from frontier_measure.mutate import MUTANTS_FILE, mutants_of, mutate

ROOT = Path(__file__).resolve().parents[1]
GRAPHS = ROOT / "tasks" / "package" / "graphs"


@pytest.fixture
def graphs(tmp_path: Path) -> Path:
    dest = tmp_path / "graphs"
    shutil.copytree(GRAPHS, dest)
    return dest


SAMPLE = b'''"""Docstring: not mutated."""


def f(xs, limit=3):
    # a comment that stays
    total = 0
    for x in xs:
        if x < limit and not x == 0:
            total += x * 2
        elif x in (7, 8):
            break
    flag = True
    if __debug__:
        pass
    return total if flag else "none"


if __name__ == "__main__":
    f([1])
'''


def test_mutants_are_spliced_into_the_source():
    ms = mutants_of("m.py", SAMPLE)
    kinds = {m.kind for m in ms}
    assert {"lt-to-lte", "eq-to-ne", "and-to-or", "drop-not", "add=-to-sub=", "mul-to-div",
            "in-to-notin", "break-to-continue", "True-to-False", "int-plus-1", "return-none",
            "string-changed", "negate-condition"} <= kinds
    assert all(m.line < 18 for m in ms)  # the __main__ block is left alone
    assert not any(m.line == 1 for m in ms)  # nor the docstring
    lt = next(m for m in ms if m.kind == "lt-to-lte")
    assert lt.apply(SAMPLE).splitlines()[7] == b"        if x <= limit and not x == 0:"
    assert "# a comment that stays" in lt.apply(SAMPLE).decode()
    diff = lt.diff(SAMPLE)
    assert "-        if x < limit" in diff and "+        if x <= limit" in diff
    assert lt.id == "m.py:8:11:lt-to-lte"


def test_mutate_reports_killed_and_survived_with_diffs(graphs):
    report = mutate(graphs, limit=8, seed=1)
    assert len(report.outcomes) == 8
    assert report.count("killed") >= 1
    assert all(o.diff.startswith("--- a/graphs/") for o in report.outcomes)
    assert report.score is not None and 0 < report.score <= 1
    # Listing a survivor (or any mutant) as equivalent takes it out of the score.
    first = report.outcomes[0].mutant.id
    (graphs / MUTANTS_FILE).write_text(f'equivalent = ["{first}"]\n')
    again = mutate(graphs, limit=8, seed=1)
    assert again.outcomes[0].status == "equivalent"


def test_cli_mutate_prints_the_outcomes_and_the_score(tmp_path):
    out = CliRunner().invoke(main, ["mutate", "--max", "3", "--show", "all", "--json",
                                    str(tmp_path / "m.json"), str(GRAPHS)])
    assert out.exit_code == 0, out.output
    assert "3 mutants (drawn from 43)" in out.output and "score" in out.output
    assert out.output.count("killed: graphs/") + out.output.count("survived: graphs/") == 3
    assert json.loads((tmp_path / "m.json").read_text())["drawn_from"] == 43


def test_annotations_and_assert_messages_are_not_mutated_and_lines_map_to_statements():
    src = (b'def f(x: "int", y: list = 3) -> "str":\n    assert x, "msg"\n'
           b'    z: "T" = (1 +\n         2)\n    return x\n')
    ms = mutants_of("a.py", src)
    assert [(m.kind, m.line, m.statement_line) for m in ms] == [
        ("int-plus-1", 1, 1), ("int-plus-1", 3, 3), ("add-to-sub", 3, 3), ("int-plus-1", 4, 3),
        ("return-none", 5, 5)]


def test_literal_tables_are_data_and_not_mutated():
    from frontier_measure.mutate import TABLE_SIZE, mutants_of

    table = ", ".join(str(i) for i in range(TABLE_SIZE + 1))
    small = ", ".join(str(i) for i in range(3))
    src = f"TABLE = ({table})\nSMALL = [{small}]\n\ndef f(x):\n    return TABLE[x] + 7\n".encode()
    kinds = [(m.line, m.kind) for m in mutants_of("t.py", src)]
    assert not [k for k in kinds if k[0] == 1]
    assert [k for k in kinds if k[0] == 2] == [(2, "int-plus-1")] * 3
    assert (5, "return-none") in kinds and (5, "int-plus-1") in kinds


def test_lines_a_library_marks_no_cover_still_count_as_run(graphs):
    from frontier_measure.authoring import run_cases
    from frontier_measure.runners import load

    src = graphs / "environment" / "workspace" / "graphs" / "graph.py"
    text = src.read_text()
    assert "        return True\n" in text
    src.write_text(text.replace("        return True\n", "        return True  # pragma: no cover\n", 1))
    line = src.read_text().splitlines().index("        return True  # pragma: no cover") + 1
    task, runner = load(graphs)
    runs = {every: run_cases(task, task.reference_dir, runner.cases(task), coverage=True,
                             every_line=every) for every in (False, True)}
    ran = {every: r.coverage["files"]["graphs/graph.py"]["executed_lines"]
           for every, r in runs.items()}
    assert line not in ran[False] and line in ran[True]


LOGSTAT = ROOT / "tasks" / "repository" / "logstat"


def test_a_repository_program_is_mutated_built_and_run_as_the_candidate(tmp_path):
    """Repository scale: each mutant of the program's Python source is built
    and its commands run through a real repository session; a killed mutant
    names the item that told it apart, and the case that killed it is tried
    first next time."""
    report = mutate(LOGSTAT, limit=6, seed=3)
    assert len(report.outcomes) == 6 and report.drawn_from > 6
    assert {o.mutant.file for o in report.outcomes} == {"logstat.py"}
    assert not report.count("not-covered")  # coverage is not measured at this scale
    killed = [o for o in report.outcomes if o.status == "killed"]
    assert killed, [(o.mutant.id, o.status) for o in report.outcomes]
    assert all("/" in o.why or "failed" in o.why for o in killed)
    assert not report.baseline_ignored


def test_the_task_is_read_once_so_editing_it_during_a_run_changes_nothing(tmp_path):
    """A run takes long enough for its author to add a fixture meanwhile: the
    mutants still run on the task as it was when the run started (a new file
    in the fixtures would otherwise show as a difference and kill mutants)."""
    task = tmp_path / "logstat"
    shutil.copytree(LOGSTAT, task)
    added = []

    def edit(_line: str) -> None:
        if not added:
            added.append(task / "tests" / "fixtures" / "added_meanwhile.log")
            added[0].write_text("2026-01-01 00:00:00 ERROR new\n")

    edited = mutate(task, limit=3, seed=5, progress=edit)
    assert added and added[0].exists()
    assert not [o.why for o in edited.outcomes if "added_meanwhile" in o.why]
    plain = mutate(LOGSTAT, limit=3, seed=5)
    assert [(o.mutant.id, o.status) for o in edited.outcomes] == \
        [(o.mutant.id, o.status) for o in plain.outcomes]


def test_mutate_refuses_a_kernel_task_by_name():
    from frontier_measure.task import TaskError

    kernel = ROOT / "tasks" / "kernel" / "histogram"
    with pytest.raises(TaskError, match="not kernel") as exc:
        mutate(kernel, limit=1)
    assert exc.value.path == kernel  # the task named, not the copy mutate reads
    with pytest.raises(TaskError, match="not a directory"):
        mutate(ROOT / "tasks" / "no-such-task", limit=1)


def test_a_time_budget_stops_the_run_and_says_where(graphs):
    (graphs / "tests" / "mutants.toml").write_text('equivalent = ["graphs/nowhere.py:1:0:x"]\n')
    report = mutate(graphs, limit=8, seed=1, max_time=0)
    assert report.unknown_equivalents == ["graphs/nowhere.py:1:0:x"]
    assert report.outcomes == [] and report.drawn_from == 43
    assert report.stopped.startswith("the time budget (0 s, set-up ")
    assert report.stopped.endswith(" s apart) ran out after 0 of 8 mutants")
    assert report.to_dict()["stopped"] == report.stopped
    # The budget counts mutants only: the set-up is reported apart.
    assert 0 < report.setup_s <= report.elapsed_s


def test_every_mutant_has_its_own_id():
    source = b"def f(a, b, c, d):\n    return a + b + c - d * 2 * 3\n"
    ms = mutants_of("m.py", source)
    ids = [m.id for m in ms]
    assert len(ids) == len(set(ids)), ids
    # The two `+` of one chain are nodes starting at the same place (at `a`):
    # told apart by where the changed text starts (the gap before each `+`);
    # a mutant that was unique keeps its plain id.
    adds = sorted(m.id for m in ms if m.kind == "add-to-sub")
    assert adds == ["m.py:2:11:add-to-sub@2:12", "m.py:2:11:add-to-sub@2:16"]
    assert {"m.py:2:4:return-none", "m.py:2:11:sub-to-add"} <= set(ids)
