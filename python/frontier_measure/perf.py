"""Timing plans and the public `compare` API.

A plan is: calibrate one loop count shared by both sides, warm up, then run
balanced interleaved rounds (AB BA / BA AB) through the native scheduler until
the interval is narrow enough or the time budget is spent.
"""

from __future__ import annotations

import math
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Union

import numpy as np

from . import _core, stats
from .environment import clock as clock_info
from .environment import environment

Cost = Literal["wall", "cpu", "instructions", "cycles"]
COSTS: tuple[str, ...] = ("wall", "cpu", "instructions", "cycles")
COST_UNITS = {"wall": "ns", "cpu": "ns", "instructions": "instructions", "cycles": "cycles"}
SideLike = Union[Callable[[], object], str, Sequence[str], "_core.Side"]
Progress = Callable[[int, int], None]


@dataclass
class Comparison:
    """The outcome of timing a reference against a candidate."""

    summary: stats.Summary
    cost: str
    unit: str
    loops: int
    rounds: list[dict[str, Any]]
    reference_median: float  # cost per loop
    candidate_median: float
    counters: dict[str, dict[str, Any]]
    elapsed_s: float
    environment: dict[str, Any]
    warnings: list[str] = field(default_factory=list)

    @property
    def speedup(self) -> float:
        return self.summary.speedup

    @property
    def ci(self) -> tuple[float | None, float | None]:
        return self.summary.ci_low, self.summary.ci_high

    @property
    def verdict(self) -> str:
        return self.summary.verdict

    @property
    def meets_threshold(self) -> bool | None:
        return self.summary.meets_threshold

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.summary.to_dict(),
            "cost": self.cost,
            "unit": self.unit,
            "loops": self.loops,
            "reference_median": self.reference_median,
            "candidate_median": self.candidate_median,
            "counters": self.counters,
            "rounds": self.rounds,
            "elapsed_s": self.elapsed_s,
            "warnings": self.warnings,
            "environment": self.environment,
        }


def make_side(
    spec: SideLike,
    *,
    name: str,
    counters: Sequence[str] = (),
    shell: bool = False,
    timeout: float | None = None,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    cpus: Sequence[int] = (),
) -> _core.Side:
    """Turn a callable, a command string/argv, or a ready Side into a Side."""
    if isinstance(spec, _core.Side):
        return spec
    if callable(spec):
        return _core.CallableSide(spec, list(counters))
    if isinstance(spec, str):
        if not spec.strip():
            raise _core.SpawnError(f"{name}: empty command")
        argv = [spec] if shell else shlex.split(spec)
    elif isinstance(spec, Sequence) and all(isinstance(a, str) for a in spec):
        argv = list(spec)
    else:
        raise TypeError(f"{name}: expected a callable, a command string or an argv list, got {spec!r}")
    p = _core.ProcessSpec()
    p.argv = argv
    p.shell = shell
    p.counters = list(counters)
    if timeout:
        p.timeout_s = float(timeout)
    if cwd:
        p.cwd = cwd
    if env:
        p.env = dict(env)
    if cpus:
        p.cpus = list(cpus)
    # Fail early, naming the side, if the command cannot even be found.
    if not shell and _core.which(argv[0], _path(env)) == "":
        raise _core.SpawnError(f"{name}: command not found: '{argv[0]}'")
    return _core.CommandSide(p, name)


def _path(env: dict[str, str] | None) -> str:
    import os

    if env and "PATH" in env:
        return env["PATH"]
    return os.environ.get("PATH", "/usr/bin:/bin")


def batch_cost(batch: _core.Batch, cost: str) -> float:
    """Cost per loop of one batch, in the cost's unit."""
    if cost == "wall":
        value = float(batch.wall_ns)
    elif cost == "cpu":
        if batch.cpu_ns < 0:
            raise _core.MeasureError("this side cannot report CPU time")
        value = float(batch.cpu_ns)
    else:
        found = [c for c in batch.counters if c.name == cost]
        if not found:
            raise _core.MeasureError(f"cost '{cost}' needs the '{cost}' counter, which was not attached")
        c = found[0]
        if not c.available:
            raise _core.MeasureError(f"cost '{cost}' is not measurable here: {c.reason}")
        value = float(c.value)
    return value / batch.loops


def _counter_medians(rounds: list[Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for side in ("reference", "candidate"):
        per: dict[str, list[float]] = {}
        reasons: dict[str, str] = {}
        for r in rounds:
            b = getattr(r, side)
            for c in b.counters:
                if c.available:
                    per.setdefault(c.name, []).append(c.value / b.loops)
                else:
                    reasons[c.name] = c.reason
        for name, vals in per.items():
            out.setdefault(name, {})[side] = float(np.median(vals))
        for name, reason in reasons.items():
            out.setdefault(name, {})["unavailable"] = reason
    return out


def calibrate_loops(reference: _core.Side, candidate: _core.Side, target_ns: int,
                    max_batch_ns: int | None = None) -> int:
    """One loop count for both sides: enough for the cheaper side's batch to
    reach `target_ns`, unless that would make the dearer side's batch longer
    than `max_batch_ns` (a 200x speedup must not cost 200 target batches per
    round); then the cheaper side's batch is shorter, but still far above the
    clock's resolution."""

    def for_side(side: _core.Side, other: _core.Side) -> tuple[int, float]:
        other.suspend()
        side.resume()
        seen: list[tuple[int, int]] = []

        def measure(n: int) -> int:
            wall = int(side.measure(n).wall_ns)
            seen.append((n, wall))
            return wall

        try:
            loops = int(_core.calibrate(measure, target_ns))
        finally:
            side.suspend()
        at = [w / n for n, w in seen if n == loops]
        return loops, max(at) if at else float(target_ns) / loops

    a, a_cost = for_side(reference, candidate)
    b, b_cost = for_side(candidate, reference)
    if max_batch_ns is None:
        return max(a, b)
    dearer = max(a_cost, b_cost)  # ns per loop of the slower side
    cap = max(1, int(max_batch_ns / max(dearer, 1.0)))
    return min(max(a, b), cap)


def round_records(collected: Sequence[Any], cost: str) -> tuple[list[dict[str, Any]], list[float],
                                                                    list[float]]:
    """Per-round records for result files, and each side's cost per loop."""
    ref_costs = [batch_cost(r.reference, cost) for r in collected]
    cand_costs = [batch_cost(r.candidate, cost) for r in collected]
    records = [
        {
            "index": r.index,
            "reference_first": r.reference_first,
            "reference": ref_costs[i],
            "candidate": cand_costs[i],
            "reference_wall_ns": r.reference.wall_ns,
            "candidate_wall_ns": r.candidate.wall_ns,
            "reference_cpu_ns": r.reference.cpu_ns,
            "candidate_cpu_ns": r.candidate.cpu_ns,
        }
        for i, r in enumerate(collected)
    ]
    return records, ref_costs, cand_costs


def noise_warnings(ref_costs: Sequence[float], cand_costs: Sequence[float]) -> list[str]:
    out = []
    for side, vals in (("reference", ref_costs), ("candidate", cand_costs)):
        s = stats.spread(vals)
        if s > 0.10:
            out.append(f"{side} values vary by {s:.0%} (MAD/median): the machine is noisy")
    return out


def compare(
    reference: SideLike,
    candidate: SideLike,
    *,
    rounds: int | Literal["auto"] = "auto",
    warmup: int = 2,
    threshold: float | None = None,
    cost: Cost = "wall",
    confidence: float = 0.95,
    precision: float = 0.01,
    max_time: float = 10.0,
    min_rounds: int = 20,
    max_rounds: int = 2000,
    loops: int | None = None,
    min_batch_ns: int | None = None,
    seed: int = 0,
    counters: Sequence[str] | None = None,
    shell: bool = False,
    timeout: float | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Time `candidate` against `reference` in paired, interleaved rounds.

    Each side is a zero-argument callable, a command (a string split like a
    shell would, or an argv list; `shell=True` runs the string through /bin/sh),
    or a `_core.Side`. With rounds="auto", a pilot of `min_rounds` rounds sizes
    one extension meant to bring the interval's half-width to `precision` (in
    log space, 0.01 ~ +-1%), within `max_rounds` and `max_time` seconds; see
    `run_rounds`.
    """
    if cost not in COSTS:
        raise ValueError(f"unknown cost '{cost}' (choose from {', '.join(COSTS)})")
    # A counter cost is always attached, first, so it leads the perf group.
    needed = [cost] if cost in ("instructions", "cycles") else []
    given = ["task-clock", "page-faults", "context-switches"] if counters is None else counters
    counters = list(dict.fromkeys([*needed, *given]))
    ref = make_side(reference, name="reference", counters=counters, shell=shell, timeout=timeout)
    cand = make_side(candidate, name="candidate", counters=counters, shell=shell, timeout=timeout)

    started = time.perf_counter()
    clk = clock_info()
    target = min_batch_ns or int(_core.min_batch_ns(clk["resolution_ns"]))
    warnings: list[str] = []
    if clk["warning"]:
        warnings.append(clk["warning"])
    n_loops = loops or calibrate_loops(ref, cand, target)

    # Fail fast on a cost that cannot be measured here, before spending rounds.
    probe = ref.measure(n_loops)
    batch_cost(probe, cost)
    ref.suspend()

    collected, summary, plan_warnings = run_rounds(
        ref, cand, loops=n_loops, cost=cost, rounds=rounds, warmup=warmup, confidence=confidence,
        threshold=threshold, precision=precision, max_time=max_time, min_rounds=min_rounds,
        max_rounds=max_rounds, seed=seed, progress=progress)
    warnings.extend(plan_warnings)

    records, ref_costs, cand_costs = round_records(collected, cost)
    short = min(min(r.reference.wall_ns, r.candidate.wall_ns) for r in collected)
    if short < target // 2:
        warnings.append(
            f"shortest batch took {short / 1e6:.3f} ms, under half the {target / 1e6:.3f} ms "
            "calibration target: clock granularity may show in the values"
        )
    warnings.extend(noise_warnings(ref_costs, cand_costs))
    warnings.extend(summary.warnings)
    return Comparison(
        summary=summary,
        cost=cost,
        unit=COST_UNITS[cost],
        loops=n_loops,
        rounds=records,
        reference_median=float(np.median(ref_costs)),
        candidate_median=float(np.median(cand_costs)),
        counters=_counter_medians(collected),
        elapsed_s=time.perf_counter() - started,
        environment=environment(),
        warnings=warnings,
    )


def run_rounds(
    reference: _core.Side,
    candidate: _core.Side,
    *,
    loops: int,
    cost: str,
    rounds: int | Literal["auto"] = "auto",
    warmup: int = 2,
    confidence: float = 0.95,
    threshold: float | None = None,
    precision: float = 0.01,
    max_time: float = 10.0,
    min_rounds: int = 20,
    max_rounds: int = 2000,
    seed: int = 0,
    progress: Progress | None = None,
) -> tuple[list[Any], stats.Summary, list[str]]:
    """Warm-up and paired rounds for two ready sides; the summary of their costs.

    rounds="auto" is a two-stage plan: a pilot of `min_rounds` rounds, then one
    extension sized from the pilot's interval (half-width shrinks as 1/sqrt(n))
    to reach `precision`, within `max_rounds` and the `max_time` budget. The
    interval is looked at once after the pilot and never again: stopping as
    soon as an interval happens to look narrow would make intervals too narrow
    on average (optional stopping), and coverage would fall below its level.
    """
    fixed = rounds != "auto"
    pilot = int(rounds) if fixed else max(min_rounds, stats.MIN_ROUNDS)
    if pilot < 1:
        raise ValueError("rounds must be at least 1")
    warnings: list[str] = []
    planned = pilot

    def report(done: int, _total: int, offset: int = 0) -> None:
        if progress is not None:
            progress(offset + done, planned)

    t0 = time.perf_counter()
    plan = _core.Plan(loops=loops, warmup=warmup, rounds=pilot, seed=seed)
    collected = list(_core.run_paired(reference, candidate, plan, report, 0))
    summary = _summarize(collected, cost, confidence, threshold)
    hw = summary.half_width
    if not fixed and (hw is None or hw > precision):
        per_round = (time.perf_counter() - t0) / pilot
        # Twice the rounds the pilot's width predicts: the pilot's own width is noisy,
        # and rounds are cheap next to a second look at the data.
        wanted = max_rounds if hw is None else math.ceil(pilot * 2.0 * (hw / precision) ** 2)
        affordable = pilot + int(max(0.0, max_time - (time.perf_counter() - t0)) / per_round)
        total = min(wanted, max_rounds, affordable)
        extra = total - pilot
        extra -= extra % 2  # whole AB/BA pairs keep the order balanced
        if extra > 0:
            planned = pilot + extra
            plan = _core.Plan(loops=loops, warmup=0, rounds=extra, seed=seed + 1)
            collected.extend(_core.run_paired(
                reference, candidate, plan, lambda d, t: report(d, t, pilot), pilot))
            summary = _summarize(collected, cost, confidence, threshold)
        if total < wanted and summary.half_width is not None and summary.half_width > precision:
            warnings.append(
                f"stopped at {len(collected)} rounds with interval half-width "
                f"{summary.half_width:.2%} (> {precision:.2%} asked): the "
                f"{'round' if total == max_rounds else 'time'} budget was reached"
            )
    if progress is not None:
        progress(len(collected), len(collected))
    return collected, summary, warnings


def _summarize(collected: list[Any], cost: str, confidence: float, threshold: float | None) -> stats.Summary:
    ref = [batch_cost(r.reference, cost) for r in collected]
    cand = [batch_cost(r.candidate, cost) for r in collected]
    return stats.summarize(ref, cand, confidence=confidence, threshold=threshold)


def format_ratio(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.3f}x"
