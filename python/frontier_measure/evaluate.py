"""The pipeline: compliance, then functionality, then performance, at every scale.

It stops at the first "no": a compliance violation means nothing of the
candidate runs; a functional failure means it is not timed. Only the runner
differs between scales (runners/); every rule below (what fails where, what a
reference failure means, how the worst input decides) is written once.
Everything found on the way goes into the result (see results.py).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from . import _core, golden, results
from .diff import checker, compare_items
from .environment import environment
from .isolation import sweep
from .lock import measurement_lock
from .runners import SideFailure, fresh_timing_seed, load
from .task import Task, TaskError

Progress = Callable[[str], None]


class EvaluationError(Exception):
    """The evaluation could not be completed for a reason that is not the
    candidate's: a broken task, a reference that fails, an isolation failure."""


def evaluate(
    task_path: str | Path,
    candidate: str | Path | None = None,
    *,
    out: str | Path | None = None,
    progress: Progress | None = None,
    isolation: str | None = None,
    only_cases: Sequence[str] | None = None,
    timing: bool = True,
    attempt: dict[str, Any] | None = None,
    timing_seed: int | None = None,
) -> dict[str, Any]:
    """Evaluate one candidate (default: the task's oracle) on one task; write
    result.json under `out` (as out/<scale>-<task>/result.json) when given.
    Returns the result dict. `isolation` picks the backend of scales that run
    sides through one ("local" or "docker"; default: $FM_ISOLATION or local).

    For quick checks, `only_cases` restricts the functional stage to those
    cases and `timing=False` stops after it; such a result is never a strict
    success (it says which stages were cut short). `attempt` names the
    attempt for reports ("agent", "label", "attempt": see report/model.py);
    it is recorded at the top of the result, under its seal.

    The timing inputs are made from `timing_seed` (default: a fresh secret
    one, so no evaluation's inputs can be known beforehand); the seed is
    recorded as performance.timing_seed once timing is over, so an evaluation
    can be repeated on the same inputs."""
    if timing_seed is not None and not 0 <= timing_seed < 2**63:
        raise ValueError(f"timing_seed {timing_seed}: must be in [0, 2**63)")
    started = time.perf_counter()
    swept = sweep_leftovers()
    task, runner = load(task_path)
    cand_dir = Path(candidate).resolve() if candidate else task.oracle_dir
    dest = None
    if out is not None:
        # Made (or checked) before anything runs: a directory the candidate
        # could write to would let it plant its own result.
        dest = results.prepare_out(results.prepare_out(out, not_inside=[cand_dir]) / task.slug)
    res = results.new({"name": task.name, "path": str(task.path), "scale": task.scale,
                       "threshold": task.threshold, "cost": task.cost, "entry": task.entry,
                       "digest": results.tree_digest(task.path)},
                      cand_dir, task.oracle_dir)
    res["candidate"]["digest"] = results.tree_digest(cand_dir)
    if swept:
        res["swept"] = swept
    for key in ("agent", "label", "attempt"):
        if attempt and attempt.get(key) is not None:
            res[key] = attempt[key]
    stopped = False
    try:
        _run(task, runner, cand_dir, res, progress, isolation, only_cases, timing,
             fresh_timing_seed() if timing_seed is None else timing_seed)
    except Exception as exc:
        # The evaluation itself could not finish: recorded as such, never as a
        # verdict on the candidate.
        res["strict_success"] = False
        infrastructure = isinstance(exc, (_core.IsolationError, _core.SpawnError))
        res["failure"] = results.failure(
            "error", "infrastructure" if infrastructure else type(exc).__name__, str(exc))
        if isinstance(exc, SideFailure) and exc.side == "reference":
            raise EvaluationError(f"the reference failed: {exc.reason}") from exc
        if infrastructure:
            # A sandbox, account, cgroup or process that could not be set up:
            # the machine's failure, whichever side it happened to.
            raise EvaluationError(f"infrastructure: {exc}") from exc
        raise
    except BaseException:
        # Stopped (Ctrl-C, SIGTERM): no verdict and no result.json, nothing
        # that could be read as one; what was started is cleaned up on the way out.
        stopped = True
        raise
    finally:
        if not stopped:
            res["elapsed_s"] = time.perf_counter() - started
            res["reward"] = results.reward(res)
            res["environment"] = environment()
            if dest is not None:
                results.write_result(res, dest / "result.json")
    return res


_SWEPT: list[str] | None = None


def sweep_leftovers() -> list[str]:
    """Remove what dead evaluators left (isolation/sweep.py), once per process;
    the first result of this process lists what was removed."""
    global _SWEPT
    if _SWEPT is not None:
        return []
    _SWEPT = sweep.sweep()
    return _SWEPT


def _run(task: Task, runner: ModuleType, cand_dir: Path, res: dict[str, Any],
         progress: Progress | None, isolation: str | None,
         only_cases: Sequence[str] | None, timing: bool, timing_seed: int) -> None:
    # 1. compliance
    if progress:
        progress("compliance")
    findings = runner.inspect(task, cand_dir)
    res["compliance"] = {"compliant": not findings, "findings": [f.to_dict() for f in findings]}
    if findings:
        res["failure"] = results.failure("compliance", findings[0].rule, str(findings[0]))
        return

    recorded = golden.load(task, golden.digest(task.reference_dir, runner.held_out(task)))
    cases = runner.cases(task)
    inputs = runner.timing_inputs(task)
    if only_cases is not None:
        unknown = sorted(set(only_cases) - {c.id for c in cases})
        if unknown:
            raise TaskError(task.path, [f"no case named {', '.join(map(repr, unknown))}"])
        cases = [c for c in cases if c.id in set(only_cases)]
        keep = {c.id for c in cases}
        recorded = {**recorded, "items": {k: v for k, v in recorded["items"].items()
                                          if k.split("/", 1)[0] in keep}}
        res["functional_subset"] = sorted(keep)
    # Differential fuzzing's targets (tests/fuzz.py): a broken file is a task
    # problem, found before any side runs.
    from . import fuzz  # loaded here: a candidate refused by compliance never needs it

    fuzz_targets = fuzz.targets(task) if task.scale in ("module", "package") else []
    with runner.open_session(task, cand_dir, isolation=isolation) as session:
        res["isolation"] = session.describe()
        # 2. functionality
        if progress:
            progress("build")
        ref_build = session.build("reference")
        if not ref_build.ok:
            raise SideFailure("reference", f"does not build ({ref_build.status}): "
                              f"{ref_build.log[-2000:]}")
        cand_build = session.build("candidate")
        if ref_build.command or cand_build.command:
            res["build"] = {"reference": ref_build.to_dict(), "candidate": cand_build.to_dict()}
        if progress:
            progress("functional")
        if cand_build.ok:
            # Each item is compared with its golden value as it arrives, and
            # only the outcome is kept (diff.checker): the candidate's outputs
            # are never all in memory at once.
            obs = session.observe("candidate", cases, keep=checker(
                recorded["items"], recorded["excluded"], task.tolerance))
            failures, problems = obs.failures, obs.problems
            observed = obs.items
        else:
            why = f"build failed ({cand_build.status})"
            failures, problems, observed = {c.id: why for c in cases}, [], {}
        if _violated(session, res):
            return
        items = compare_items(recorded["items"], observed, excluded=recorded["excluded"],
                              tolerance=task.tolerance, missing_reason=failures)
        res["functional"] = results.functional(items, recorded, failures, problems, task.tolerance)
        if not cand_build.ok:
            res["failure"] = results.failure("functional", "build-failed",
                                             f"build failed: {cand_build.status}; "
                                             + cand_build.log[-300:])
            return
        failed = next((i for i in items if not i.passed), None)
        if problems:
            p = problems[0]
            res["failure"] = results.failure("functional", p.rule, p.reason)
            return
        if failed is not None or not items:
            if failed is None:
                res["failure"] = results.failure("functional", "no-items", "no items to compare")
            else:
                rule = "no-observation" if failed.missing else runner.item_rule(
                    failed.id, recorded["items"].get(failed.id), failed.diff)
                res["failure"] = results.failure("functional", rule,
                                                 f"{failed.id}: {failed.diff[0]}")
            return
        if fuzz_targets:
            if progress:
                progress("fuzz")
            outcomes = fuzz.differential(session, task, fuzz_targets)
            res["functional"]["fuzz"] = outcomes
            if _violated(session, res):
                return
            bad = next((o for o in outcomes if o["difference"]), None)
            if bad is not None:
                d = bad["difference"]
                res["failure"] = results.failure(
                    "functional", "fuzz-difference",
                    f"fuzz target '{bad['id']}': the sides differ on a generated input "
                    f"(minimal, after {bad['examples']} tried): {d['input_repr']}; "
                    f"{d['item']}: {d['diff'][0] if d['diff'] else 'differs'}")
                return
        # 3. performance
        if not timing:
            res["performance"] = {"ran": False, "skipped": "timing was not asked for"}
            return
        with _timing_lock(runner, progress) as waited:
            try:
                timings = session.time(inputs, progress, seed=timing_seed)
            except BaseException:
                # An evaluation that broke off while timing can be repeated on
                # the same inputs: the seed is no secret any more.
                res["performance"]["timing_seed"] = timing_seed
                raise
        res["isolation"] = session.describe()
        if _violated(session, res):
            return
    broken = next((t for t in timings if t.error), None)
    if broken is not None and broken.error_side != "candidate":
        raise SideFailure(broken.error_side or "reference",
                          f"timing input '{broken.id}': {broken.error}")
    from .perf import COST_UNITS

    res["performance"], failure = results.performance(timings, task.threshold, task.cost,
                                                      COST_UNITS[task.cost])
    res["performance"]["lock_wait_s"] = None if waited is None else round(waited, 3)
    # Only now, with the verdict reached, does the seed leave the evaluator's memory.
    res["performance"]["timing_seed"] = timing_seed
    # A verdict on a subset of the cases is a quick check, not a strict success.
    res["strict_success"] = failure is None and only_cases is None
    res["failure"] = failure


@contextlib.contextmanager
def _timing_lock(runner: ModuleType, progress: Progress | None) -> Iterator[float | None]:
    """The machine-wide measurement lock around the performance stage, for a
    scale whose cost is host time; yields the seconds waited for it (None:
    the scale's cost does not depend on what else runs, so no lock is taken
    and evaluations of it run in parallel with anything)."""
    if not getattr(runner, "HOST_TIMED", True):
        yield None
        return

    def waiting(pid: int | None, so_far: float) -> None:
        # Its own step, re-said every second: queueing behind another
        # evaluation is not "functional", and a wait is not a hang.
        if progress:
            who = f"held by pid {pid}" if pid else "held by another process"
            progress(f"waiting for the measurement lock ({who}, {so_far:.0f} s so far)")

    with measurement_lock(waiting=waiting) as waited:
        yield waited


def _violated(session: Any, res: dict[str, Any]) -> bool:
    """A run-time compliance violation (the candidate's audit hook) is a
    compliance failure, whatever stage it surfaced in."""
    found = list(getattr(session, "violations", []))
    if not found:
        return False
    v = found[0]
    res["compliance"] = {**(res["compliance"] or {}), "compliant": False,
                         "runtime_violations": found}
    where = next((f for f in v.get("stack", []) if not f.startswith("<")), "?")
    res["failure"] = results.failure("compliance", "runtime-violation",
                                     f"{v.get('event')}: {v.get('rule')} at {where} "
                                     f"(arguments {str(v.get('args', ''))[:120]})")
    return True
