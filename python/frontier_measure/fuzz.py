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
"""

from __future__ import annotations

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
    from hypothesis.errors import NoSuchExample

    outcomes: list[dict[str, Any]] = []
    for t in found:
        tried = 0
        case_id = f"fuzz-{t.id}"

        def observe(raw: Any, case_id: str = case_id) -> tuple[Any, Any] | None:
            try:
                ops = normalise_ops(raw)
            except ValueError as exc:
                raise TaskError(task.path, [f"{FUZZ_FILE}: a drawn case is malformed "
                                            f"({exc}): {_short(raw)}"]) from None
            case = [Case(case_id, ops)]
            ref = session.observe("reference", case)
            if ref.failures:
                return None
            # Compared with the reference's items as they arrive (diff.checker).
            return ref, session.observe("candidate", case, keep=checker(
                ref.items, (), task.tolerance))

        def difference(raw: Any) -> Any:
            seen = observe(raw)
            if seen is None:
                return None
            ref, cand = seen
            items = compare_items(ref.items, cand.items, excluded=[], tolerance=task.tolerance,
                                  missing_reason=cand.failures)
            return next((i for i in items if not i.passed), None)

        def differs(raw: Any) -> bool:
            nonlocal tried
            tried += 1
            return difference(raw) is not None

        rules = settings(max_examples=t.examples, database=None, derandomize=True,
                         deadline=None, phases=[Phase.generate, Phase.shrink],
                         suppress_health_check=list(HealthCheck))
        try:
            minimal = find(t.strategy, differs, settings=rules)
        except NoSuchExample:
            outcomes.append({"id": t.id, "examples": tried, "difference": None})
            continue
        item = difference(minimal)
        outcomes.append({"id": t.id, "examples": tried, "difference": None if item is None else {
            "input": canonical(minimal), "input_repr": _short(minimal), "item": item.id,
            "diff": list(item.diff[:5])}})
    return outcomes
