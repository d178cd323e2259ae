"""Differential fuzzing of module and package tasks: S and S' on generated inputs.

A task may add `tests/fuzz.py` defining `targets()`, a list of

    {"id": "lists", "strategy": <hypothesis strategy of a case>, "examples": 200}

where the strategy draws a case in the cases' own format ({"call": "dedupe",
"args": [...]} or {"ops": [...]}). After the held-out cases pass, `eval` runs
each drawn case on both sides (the reference's worker and the candidate's,
in the same session as the cases) and compares their observations item by
item under the task's tolerance. The first difference is shrunk by hypothesis
to a minimal input, which the result records with both sides' values: a
functional failure (`fuzz-difference`). Generated inputs are drawn with a
fixed seed (`derandomize`), so an evaluation is repeatable; none is stored.

The strategies are author code, run in the evaluator like `cases()`. A drawn
case on which the reference itself produces nothing (it crashed, or timed
out) tells nothing about the candidate and is not counted as a difference.

All the drawn inputs of a target run in one worker per side (the session's
`holding`), started once, not in two fresh workers per input (1-3 s each:
100 inputs cost minutes). The sides stay apart as in the cases: the
reference's outputs come from the reference's own worker and are compared
with the candidate's input by input, here. What a worker now keeps from one
input to the next cannot turn a difference into a pass: every difference
seen is kept with its input, and if the candidate does not repeat it when
hypothesis replays the shrunk input (its outputs depend on what it was given
before, or on how often it was called), the smallest input seen to differ is
reported all the same. After an input on which either side failed (crashed,
hung, over a cap) both workers are replaced together, so that the two have
always been given the same inputs in the same order: a reference whose
results depend on its history is compared with a candidate of the same
history.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from .diff import checker, compare_items
from .observe import canonical
from .runners import Case
from .runners.module import normalise_ops
from .task import Task, TaskError, call_author, load_module

FUZZ_FILE = "tests/fuzz.py"
DEFAULT_EXAMPLES = 100


@dataclass
class Target:
    id: str
    strategy: Any
    examples: int


def targets(task: Task) -> list[Target]:
    """The task's fuzz targets (none without tests/fuzz.py); TaskError naming
    the file and field for anything wrong."""
    if not (task.path / FUZZ_FILE).is_file():
        return []
    try:
        from hypothesis.strategies import SearchStrategy
    except ImportError:
        raise TaskError(task.path, [f"{FUZZ_FILE}: differential fuzzing needs hypothesis "
                                    "(pip install 'frontier-measure[author]')"]) from None
    load_module(task, FUZZ_FILE, ("targets",))
    out: list[Target] = []
    problems: list[str] = []
    for i, raw in enumerate(call_author(task, FUZZ_FILE, "targets")):
        where = f"{FUZZ_FILE} targets()[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"]:
            problems.append(f"{where}: each target is a dict with a string 'id'")
            continue
        if not isinstance(raw.get("strategy"), SearchStrategy):
            problems.append(f"{where} ('{raw['id']}').strategy: must be a hypothesis strategy")
            continue
        n = raw.get("examples", DEFAULT_EXAMPLES)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            problems.append(f"{where} ('{raw['id']}').examples: must be a positive integer")
            continue
        out.append(Target(raw["id"], raw["strategy"], n))
    if problems:
        raise TaskError(task.path, problems)
    return out


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + " ..."


def differential(session: Any, task: Task, found: list[Target]) -> list[dict[str, Any]]:
    """Each target's outcome: how many inputs were tried, and the minimal
    input on which the sides differ (None when none was found)."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import Flaky, NoSuchExample

    outcomes: list[dict[str, Any]] = []
    for t in found:
        tried = 0
        case_id = f"fuzz-{t.id}"
        # Every input seen to differ, with its first differing item, smallest
        # (by the length of its canonical form) first when reported.
        seen: list[tuple[Any, Any]] = []

        def observe(raw: Any, case_id: str = case_id) -> tuple[Any, Any] | None:
            try:
                ops = normalise_ops(raw)
            except ValueError as exc:
                raise TaskError(task.path, [f"{FUZZ_FILE}: a drawn case is malformed "
                                            f"({exc}): {_short(raw)}"]) from None
            case = [Case(case_id, ops)]
            ref = session.observe("reference", case)
            if ref.failures:
                _recycle(session)
                return None
            # Compared with the reference's items as they arrive (diff.checker).
            cand = session.observe("candidate", case, keep=checker(
                ref.items, (), task.tolerance))
            if cand.failures:
                _recycle(session)
            return ref, cand

        def difference(raw: Any, seen: list[tuple[Any, Any]] = seen) -> Any:
            seen_here = observe(raw)
            if seen_here is None:
                return None
            ref, cand = seen_here
            items = compare_items(ref.items, cand.items, excluded=[], tolerance=task.tolerance,
                                  missing_reason=cand.failures)
            item = next((i for i in items if not i.passed), None)
            if item is not None:
                seen.append((raw, item))
            return item

        def differs(raw: Any) -> bool:
            nonlocal tried
            tried += 1
            return difference(raw) is not None

        rules = settings(max_examples=t.examples, database=None, derandomize=True,
                         deadline=None, phases=[Phase.generate, Phase.shrink],
                         suppress_health_check=list(HealthCheck))
        minimal: Any = None
        with _held(session):
            try:
                # find() replays the minimal input last: its item is the last seen.
                minimal = find(t.strategy, differs, settings=rules)
            except NoSuchExample:
                pass
            except Flaky:
                pass  # a difference that did not repeat on replay: reported below
        if not seen:
            outcomes.append({"id": t.id, "examples": tried, "difference": None})
            continue
        raw, item = seen[-1]
        if minimal is None or canonical(raw) != canonical(minimal):
            raw, item = min(seen, key=lambda s: len(repr(canonical(s[0]))))
        outcomes.append({"id": t.id, "examples": tried, "difference": {
            "input": canonical(raw), "input_repr": _short(raw), "item": item.id,
            "diff": list(item.diff[:5])}})
    return outcomes


def _held(session: Any) -> Any:
    """The session's workers kept across inputs, where it can (ModuleSession.holding)."""
    holding = getattr(session, "holding", None)
    return holding() if holding is not None else contextlib.nullcontext()


def _recycle(session: Any) -> None:
    recycle = getattr(session, "recycle", None)
    if recycle is not None:
        recycle()
