"""`mutate`'s warm worker: a child forked per mutant from one process that
never ran the reference, cases stopped at the first difference, the killing
cases first; verdicts as the fresh interpreter per mutant gives them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from frontier_measure import golden as golden_file
from frontier_measure import runners
from frontier_measure.mutate import _WarmJudge, mutants_of, mutate
from frontier_measure.record import record

ROOT = Path(__file__).resolve().parents[1]

# A reference whose one mutant `POISON = False` -> `True` changes the standard
# library for the rest of its process: a worker that re-imported the mutated
# module for the next mutant would show every later mutant a poisoned
# `string` (its first case differs), and kill the survivor `n > 100` -> `>=`.
REFERENCE = '''import os
import string
import time

POISON = False


def letters(n):
    if POISON:
        string.ascii_lowercase = "zyxwvutsrq"
    return string.ascii_lowercase[:n]


def scale(n):
    if n > 100:
        n = 100
    return n * 3


def mark(path, pause):
    time.sleep(pause)
    if os.path.isdir(os.path.dirname(path)):
        with open(path, "a") as f:
            f.write("x")
'''

CASES = '''
def cases():
    return [
        {{"id": "first", "covers": ["all"], "call": "letters", "args": [3]}},
        {{"id": "scaled", "covers": ["all"], "call": "scale", "args": [4]}},
        {{"id": "marked", "covers": ["all"], "call": "mark", "args": [{path!r}, {pause}]}},
    ]


def timing_inputs():
    return [{{"id": f"n{{n}}", "size": n, "make": lambda seed, n=n: {{"call": "scale",
             "args": [n]}}}} for n in (10, 20)]
'''


def _task(tmp_path: Path, pause: float) -> tuple[Path, Path]:
    task = tmp_path / "poison"
    shutil.copytree(ROOT / "tasks" / "module" / "dedupe", task)
    for side in ("environment", "solution"):
        (task / side / "workspace" / "dedupe.py").write_text(REFERENCE)
    marks = tmp_path / "marks" / "ran"
    marks.parent.mkdir()
    (task / "tests" / "cases.py").write_text(CASES.format(path=str(marks), pause=pause))
    (task / "tests" / "checklist.toml").write_text(
        # record runs the reference under the run-time audit: its imports are permitted.
        '[compliance]\nallowed_imports = ["os", "string", "time"]\nprohibited_calls = []\n'
        "allow = []\n"
        '[behaviours]\nall = "what the three functions return"\n')
    record(*runners.load(task), runs=2)
    return task, marks


def test_a_mutant_that_poisons_its_process_changes_no_later_verdict(tmp_path):
    task, _ = _task(tmp_path, 0.0)
    mutants = {m.id: m for m in mutants_of(
        "dedupe.py", (task / "environment" / "workspace" / "dedupe.py").read_bytes())}
    poison = next(i for i in mutants if i.endswith("False-to-True"))
    survivor = next(i for i in mutants if i.endswith("gt-to-gte"))
    ran: list[str] = []
    warm = mutate(task, seed=0, progress=lambda line: ran.append(line.rsplit(": ", 1)[1]))
    fresh = mutate(task, seed=0, fresh=True)
    verdicts = {o.mutant.id: o.status for o in warm.outcomes}
    assert verdicts == {o.mutant.id: o.status for o in fresh.outcomes}
    assert verdicts[poison] == "killed" and verdicts[survivor] == "survived"
    # The poisoning mutant ran before the survivor, in the same warm worker.
    assert ran.index(poison) < ran.index(survivor)
    killed_by = {o.mutant.id: o.why for o in warm.outcomes}
    assert killed_by[poison].startswith("first/")


def test_a_child_is_stopped_at_its_first_differing_case(tmp_path):
    """The case after the differing one sleeps, then leaves a mark: a mutant
    killed by the first case leaves none (its child was stopped), one that
    survives runs every case, and the case that kills is tried first."""
    task, marks = _task(tmp_path, 3.0)
    loaded, runner = runners.load(task)
    recorded = golden_file.load(loaded, golden_file.digest(loaded.reference_dir,
                                                           runner.held_out(loaded)))
    work = tmp_path / "judge"
    work.mkdir()
    with _WarmJudge(loaded, runner.cases(loaded), work) as judge:
        judge.excluded = list(recorded["excluded"])
        base = judge.baseline()
        assert set(base) == set(recorded["items"])
        judge.prepare(recorded["items"])
        assert judge.order_free  # the cases give the same items in any order
        source = (judge.root / "dedupe.py").read_bytes()
        before = marks.read_text()

        def judged(old: bytes, new: bytes) -> str | None:
            (judge.root / "dedupe.py").write_bytes(source.replace(old, new, 1))
            try:
                return judge.killed_by(recorded["items"], timeout=60)
            finally:
                (judge.root / "dedupe.py").write_bytes(source)

        why = judged(b"[:n]", b"[:n + 1]")
        assert why is not None and why.startswith("first/")
        assert marks.read_text() == before  # "marked" never finished
        assert judge.kills[0] == 1 and judge.order()[0] == 0
        # A kill by "scaled" puts it first for the next mutant.
        why = judged(b"n * 3", b"n * 4")
        assert why is not None and why.startswith("scaled/")
        why = judged(b"n * 3", b"n * 5")
        assert why is not None and why.startswith("scaled/")
        assert judge.order()[0] == 1
        assert marks.read_text() == before
        # A survivor runs every case: in the changed order, then in the cases' own.
        assert judged(b"n > 100", b"n >= 100") is None
        assert marks.read_text() == before + "xx"


def test_a_hung_mutant_is_stopped_and_the_next_one_is_judged(tmp_path):
    task, _ = _task(tmp_path, 0.0)
    loaded, runner = runners.load(task)
    work = tmp_path / "judge"
    work.mkdir()
    with _WarmJudge(loaded, runner.cases(loaded), work) as judge:
        base = judge.baseline()
        judge.prepare(base)
        source = (judge.root / "dedupe.py").read_bytes()
        (judge.root / "dedupe.py").write_bytes(source.replace(
            b"    return n * 3", b"    while True:\n        pass", 1))
        why = judge.killed_by(base, timeout=3)
        assert why is not None and ("timed out" in why or "CPU time" in why), why
        (judge.root / "dedupe.py").write_bytes(source)
        assert judge.killed_by(base, timeout=60) is None


@pytest.mark.parametrize("task", ["tasks/package/graphs", "tasks/module/dedupe"])
def test_the_warm_worker_kills_what_a_fresh_interpreter_kills(task):
    warm = mutate(ROOT / task, limit=12, seed=4)
    fresh = mutate(ROOT / task, limit=12, seed=4, fresh=True)
    assert [(o.mutant.id, o.status) for o in warm.outcomes] == \
        [(o.mutant.id, o.status) for o in fresh.outcomes]
    assert warm.count("killed") >= 1
