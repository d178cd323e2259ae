"""Timing plans and the public `compare` API.

A plan: calibrate one loop count shared by both sides, then run *blocks* of
balanced interleaved rounds (AB BA / BA AB pairs) through the native
scheduler. A block is either one pair of fresh worker processes (module and
package scale, see runners/module.py) or a run of consecutive pairs on the
same sides (commands, callables); stats.py explains why the block, not the
round, is the unit of the interval.

rounds="auto" is a two-stage plan: a pilot of blocks, then one extension sized
from the pilot's interval (never a second look: stopping as soon as an
interval happens to look narrow would make intervals too narrow on average),
and the final interval keeps the pilot's spread (stats.py: Stein's rule).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import shlex
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Literal, Union

import numpy as np

from . import _core, stats
from .environment import clock as clock_info
from .environment import environment
from .shellcmd import DEFAULT_SHELL

Cost = Literal["wall", "cpu", "instructions", "cycles"]
COSTS: tuple[str, ...] = ("wall", "cpu", "instructions", "cycles")
COST_UNITS = {"wall": "ns", "cpu": "ns", "instructions": "instructions", "cycles": "cycles"}
# A batch lasts at least this long (or 1000 clock resolutions): a preemption (a
# few ms under load) is then a fraction of a batch, not a multiple of it. With
# 1 ms batches the pair means of identical callables under load spread over a
# factor of e (sd 1.1 in log); with 10 ms, 0.13.
BATCH_NS = 10_000_000
SideLike = Union[Callable[[], object], str, Sequence[str], "_core.Side"]
Progress = Callable[[int, int], None]
# Opens block b: a context giving its (reference, candidate) sides, ready and suspended.
BlockSides = Callable[[int], AbstractContextManager[tuple["_core.Side", "_core.Side"]]]


@dataclass
class Round:
    """One round of a plan, labelled with the pair and block it belongs to."""

    index: int
    pair: int
    block: int
    reference_first: bool
    reference: Any  # _core.Batch
    candidate: Any


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


Command = str | Sequence[str]


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
    show_output: bool = False,
    prepare: Command | None = None,
    conclude: Command | None = None,
    ignore_failure: bool = False,
) -> _core.Side:
    """Turn a callable, a command string/argv, or a ready Side into a Side.

    For commands: `show_output` lets them write to this process's own stdout
    and stderr instead of having their output captured and dropped;
    `prepare` runs before and `conclude` after every timed run, untimed
    (the same shell, timeout and output as the command); `ignore_failure`
    takes the command's non-zero exit code as part of its work, not as an
    error (killed by a signal or timed out still is one)."""
    if isinstance(spec, _core.Side):
        return spec
    if callable(spec):
        if prepare is not None or conclude is not None or show_output or ignore_failure:
            raise ValueError(f"{name}: prepare, conclude, show_output and ignore_failure apply "
                             "to commands, not to callables")
        return _core.CallableSide(spec, list(counters))
    p = _process_spec(spec, name=name, counters=counters, shell=shell, timeout=timeout, cwd=cwd,
                      env=env, cpus=cpus, show_output=show_output)
    hooks = [None if c is None else _process_spec(c, name=f"{name}: {what} command", shell=shell,
                                                   timeout=timeout, cwd=cwd, env=env, cpus=cpus,
                                                   show_output=show_output)
             for what, c in (("prepare", prepare), ("conclude", conclude))]
    return _core.CommandSide(p, name, hooks[0], hooks[1], ignore_failure)


def _process_spec(
    spec: object,
    *,
    name: str,
    counters: Sequence[str] = (),
    shell: bool = False,
    timeout: float | None = None,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    cpus: Sequence[int] = (),
    show_output: bool = False,
) -> _core.ProcessSpec:
    through_shell = shell
    if isinstance(spec, str):
        if not spec.strip():
            raise _core.SpawnError(f"{name}: empty command")
        if shell:
            # Run as the shell would, without a shell left waiting in the
            # measured window (shellcmd.py; docs/how-it-works/measurement.md, "Commands and the shell").
            from .shellcmd import argv as shell_argv

            argv = shell_argv(spec)
            through_shell = False
        else:
            argv = shlex.split(spec)
    elif isinstance(spec, Sequence) and all(isinstance(a, str) for a in spec):
        argv = list(spec)
    else:
        raise TypeError(f"{name}: expected a callable, a command string or an argv list, got {spec!r}")
    p = _core.ProcessSpec()
    p.argv = argv
    p.shell = through_shell
    p.counters = list(counters)
    if timeout:
        p.timeout_s = float(timeout)
    if cwd:
        p.cwd = cwd
    if env:
        p.env = dict(env)
    if cpus:
        p.cpus = list(cpus)
    p.inherit_output = show_output
    # Fail early, naming the side, if the command cannot even be found (through
    # a shell: when its first word is plainly a program name).
    if not shell or (isinstance(spec, str) and argv[0] != DEFAULT_SHELL):
        program = argv[0]
    else:
        program = _first_program(spec if isinstance(spec, str) else "")
    if program and _core.which(program, _path(env)) == "":
        raise _core.SpawnError(f"{name}: command not found: '{program}'")
    return p


_SHELL_WORDS = frozenset([
    "!", ".", ":", "[", "{", "(", "alias", "break", "case", "cd", "command", "continue", "echo",
    "eval", "exec", "exit", "export", "false", "for", "if", "kill", "printf", "pwd", "read",
    "return", "set", "shift", "test", "time", "trap", "true", "type", "ulimit", "umask", "unset",
    "until", "wait", "while"])


def _first_program(command: str) -> str:
    """The program a shell command line starts, when that is certain: its first
    word is a plain name (no quoting, expansion, assignment or shell keyword)."""
    word = command.strip().split(maxsplit=1)[0] if command.strip() else ""
    if not word or word in _SHELL_WORDS or any(ch in word for ch in "=$`'\"*?;&|<>(){}~"):
        return ""
    return word


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


def _counter_medians(rounds: Sequence[Round]) -> dict[str, dict[str, Any]]:
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
    clock's resolution. Both sides are left suspended."""

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


def round_records(collected: Sequence[Round], cost: str) -> tuple[list[dict[str, Any]], list[float],
                                                                      list[float]]:
    """Per-round records for result files, and each side's cost per loop."""
    ref_costs = [batch_cost(r.reference, cost) for r in collected]
    cand_costs = [batch_cost(r.candidate, cost) for r in collected]
    records = [
        {
            "index": r.index,
            "pair": r.pair,
            "block": r.block,
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


def blocks_for_precision(pilot: int, half_width: float, precision: float) -> int:
    """The blocks an extension brings a pilot of `pilot` blocks with interval
    `half_width` up to: twice what the width predicts for `precision`, since the
    pilot's own width is noisy and blocks are cheap next to a second look."""
    return math.ceil(pilot * 2.0 * (half_width / precision) ** 2)


def summarize(collected: Sequence[Round], cost: str, confidence: float,
              threshold: float | None, pilot_blocks: int | None = None) -> stats.Summary:
    ref = [batch_cost(r.reference, cost) for r in collected]
    cand = [batch_cost(r.candidate, cost) for r in collected]
    return stats.summarize(ref, cand, pairs=[r.pair for r in collected],
                           blocks=[r.block for r in collected], confidence=confidence,
                           threshold=threshold, pilot_blocks=pilot_blocks)


@dataclass
class Plan:
    """How many blocks of how many pairs, and the budget for an extension."""

    pairs_per_block: int = 2
    blocks: int | Literal["auto"] = "auto"  # fixed count, or a pilot + one extension
    min_blocks: int = stats.MIN_BLOCKS  # the pilot of an auto plan
    max_blocks: int = 200
    warmup: int = 2  # untimed batches per side before a block's rounds
    warmup_every_block: bool = False  # fresh processes per block need their own warm-up
    precision: float = 0.01  # wanted interval half-width, log space (0.01 ~ +-1%)
    max_time: float = 10.0  # seconds for all blocks of an auto plan
    # Long calls: when the pilot alone took over half of max_time, the budget
    # grows to three times the pilot (so the extension can be as large as the
    # pilot again, twice), up to this cap. None: max_time is a hard limit.
    max_time_cap: float | None = None
    seed: int = 0
    # With a threshold: when the interval still straddles it after the plan,
    # run up to this many blocks more (within max_time_cap, else max_time)
    # before the threshold is called undecided. 0: no such extension.
    decide_blocks: int = 0


# What a pilot needs before a claim can be made, and how a small budget shrinks
# it: a pair is two rounds of one batch per side, four batches of at least the
# calibration target each; the dearer side's batch is longer, hence the margin.
PAIR_BATCHES = 4
PILOT_MARGIN = 1.5


def pilot_for_budget(max_time: float, min_rounds: int, pairs_per_block: int,
                     target_ns: int, floor_ns: int) -> tuple[int, int, int]:
    """(pairs per block, pilot blocks, batch target in ns) for an auto plan
    with `max_time` seconds. The pilot should take at most half the budget on
    an idle machine, leaving the rest for the extension; when it cannot, it
    shrinks: first to stats.MIN_BLOCKS blocks (fewer rounds than `min_rounds`),
    then to one pair per block, then to shorter batches (never below
    `floor_ns`, what the clock allows). Under load it takes longer than this
    nominal cost; the deadline in run_blocks keeps it within the budget then."""
    ppb = max(1, pairs_per_block)

    def nominal(blocks: int, pairs: int, target: int) -> float:
        return blocks * pairs * PAIR_BATCHES * target * PILOT_MARGIN / 1e9

    half = max_time / 2.0
    blocks = max(stats.MIN_BLOCKS, math.ceil(min_rounds / (2 * ppb)))
    if nominal(blocks, ppb, target_ns) <= half:
        return ppb, blocks, target_ns
    blocks = stats.MIN_BLOCKS
    while ppb > 1 and nominal(blocks, ppb, target_ns) > half:
        ppb -= 1
    if nominal(blocks, ppb, target_ns) > half:
        fit = int(half * 1e9 / (blocks * ppb * PAIR_BATCHES * PILOT_MARGIN))
        target_ns = max(floor_ns, min(target_ns, fit))
    return ppb, blocks, target_ns


def run_blocks(
    open_block: BlockSides,
    *,
    cost: str,
    plan: Plan,
    loops: int | None = None,
    calibrate: Callable[[_core.Side, _core.Side], int] | None = None,
    confidence: float = 0.95,
    threshold: float | None = None,
    progress: Progress | None = None,
    clock: Callable[[], float] = time.perf_counter,
    started: float | None = None,
) -> tuple[list[Round], stats.Summary, list[str], int]:
    """Run a plan of blocks; (rounds, summary, warnings, loops).

    `open_block(b)` gives block b's sides, suspended; the loop count is
    `loops`, or found by `calibrate` on the first block's sides and kept for
    every block (one loop count for the whole comparison). Pairs are labelled
    from the schedule: each block runs whole AB/BA pairs.

    An auto plan's time is a cap, counted from `started` (default: now, on
    `clock`): a block starts only if the typical block so far still ends
    within 1.25 times the budget (max_time_cap when set, since a long call's
    budget may grow to it, else max_time), so the plan ends within 1.25 times
    the budget plus one block whatever the load. A pilot cut short by it has
    fewer than stats.MIN_BLOCKS blocks: its verdict is "insufficient", and
    the summary's note says what budget a claim would take here.
    """
    if loops is None and calibrate is None:
        raise ValueError("give loops or a way to calibrate them")
    rounds_per_block = 2 * max(1, plan.pairs_per_block)
    fixed = plan.blocks != "auto"
    planned = int(plan.blocks) if fixed else max(plan.min_blocks, 1)
    if planned < 1:
        raise ValueError("a plan needs at least one block")
    collected: list[Round] = []
    warnings: list[str] = []
    n_loops = loops
    started = clock() if started is None else started
    block_s: list[float] = []  # each block's duration, calibration included
    hard = plan.max_time if plan.max_time_cap is None else max(plan.max_time, plan.max_time_cap)

    def fits(budget: float) -> bool:
        """Whether another block, as long as the typical one so far, ends in time."""
        if fixed:
            return True
        typical = float(np.median(block_s)) if block_s else 0.0
        return clock() - started + typical <= 1.25 * budget

    def run_block(b: int) -> None:
        nonlocal n_loops
        t0 = clock()
        with open_block(b) as (ref, cand):
            if n_loops is None:
                assert calibrate is not None
                n_loops = calibrate(ref, cand)
            warm = plan.warmup if (b == 0 or plan.warmup_every_block) else 0
            first = len(collected)

            def report(done: int, _total: int) -> None:
                if progress is not None:
                    progress(first + done, planned * rounds_per_block)

            done = _core.run_paired(ref, cand, _core.Plan(
                loops=n_loops, warmup=warm, rounds=rounds_per_block,
                seed=balanced_seed(plan.seed, b, rounds_per_block // 2)), report, first)
        for i, r in enumerate(done):
            collected.append(Round(index=first + i, pair=(first + i) // 2, block=b,
                                   reference_first=r.reference_first, reference=r.reference,
                                   candidate=r.candidate))
        block_s.append(clock() - t0)

    ran = 0
    for b in range(planned):
        if b > 0 and not fits(hard):
            break
        run_block(b)
        ran += 1
    note: str | None = None
    if ran < planned:
        # Cut by the budget: say what a claim would take, from this machine's pace.
        per = float(np.median(block_s))
        need = (clock() - started) + (planned - ran) * per
        note = (f"the time budget ({hard:g} s) allowed {ran} of the {planned} blocks a claim "
                f"needs here (a block took {per:.2f} s, load {_load():.1f}): give it about "
                f"{math.ceil(need * 1.1):g} s, or run on a quieter machine")
        warnings.append(note)
        planned = ran
    summary = summarize(collected, cost, confidence, threshold)
    hw = summary.half_width
    pilot = planned
    if not fixed and note is None and (hw is None or hw > plan.precision):
        pilot_s = clock() - started
        per_block = pilot_s / planned
        budget = plan.max_time
        if plan.max_time_cap is not None and pilot_s > plan.max_time / 2:
            budget = min(plan.max_time_cap, max(budget, 3.0 * pilot_s))
            if budget > plan.max_time:
                warnings.append(f"long calls: the pilot of {planned} blocks took {pilot_s:.1f} s, "
                                f"so the time budget grew from {plan.max_time:g} s to "
                                f"{budget:.0f} s (max_time_cap_s {plan.max_time_cap:g} s)")
        wanted = plan.max_blocks if hw is None else blocks_for_precision(planned, hw,
                                                                         plan.precision)
        affordable = planned + int(max(0.0, budget - (clock() - started))
                                   / max(per_block, 1e-9))
        total = min(wanted, plan.max_blocks, affordable)
        if total > planned:
            planned = total
            for b in range(pilot, total):
                if not fits(budget):
                    break  # the load slowed the blocks down: the budget decides
                run_block(b)
            planned = len(block_s)
            # The pilot's spread decided the extension, so it stays in the interval.
            summary = summarize(collected, cost, confidence, threshold, pilot_blocks=pilot)
        if total < wanted and summary.half_width is not None and summary.half_width > plan.precision:
            warnings.append(
                f"stopped at {summary.blocks} blocks ({len(collected)} rounds) with interval "
                f"half-width {summary.half_width:.2%} (> {plan.precision:.2%} asked): the "
                f"{'block' if total == plan.max_blocks else 'time'} budget was reached")
    if (not fixed and threshold is not None and plan.decide_blocks > 0 and note is None
            and undecided(summary, threshold)):
        # The interval straddles the threshold: more blocks, within the cap. This
        # is a further look, so its claim is made at half the error rate (with
        # the first look's, at most 1.5 times the nominal rate at a true ratio of
        # exactly the threshold; stats.py explains the pilot's part).
        before = len(block_s)
        for b in range(before, before + plan.decide_blocks):
            if not fits(hard):
                break
            run_block(b)
        if len(block_s) > before:
            planned = len(block_s)
            second = 1.0 - (1.0 - confidence) / 2.0
            summary = summarize(collected, cost, second, threshold, pilot_blocks=pilot)
            warnings.append(f"the interval straddled the {threshold:g}x threshold: "
                            f"{len(block_s) - before} more block(s) were run, and the "
                            f"claim is made at {second:.1%} confidence")
    if note is not None:
        summary = dataclasses.replace(summary, note=note)
    if progress is not None:
        progress(len(collected), len(collected))
    assert n_loops is not None
    return collected, summary, warnings, n_loops


def balanced_seed(seed: int, block: int, pairs: int) -> int:
    """The scheduler's seed for block `block`: the first, from a base of its
    own, whose `pairs` pairs are half AB BA and half BA AB (with an odd count,
    the extra pair alternates between blocks).

    A pair's mean cancels an effect of being timed first or second in a round,
    not one of being timed at the ends of the pair (A B B A: A at both ends)
    rather than in its middle. Under load the ends are where the scheduler's
    gaps fall (the progress call, the next pair's start), and a block whose
    pairs happen to put one side at the ends more often than the other carries
    that effect into its value; consecutive seeds (trial k's blocks used seeds
    k, k+1, ...) repeated the same imbalance in every trial of a bench. With
    the orientations balanced in each block (or each two blocks), it cancels."""
    want = pairs // 2 + (pairs % 2 if block % 2 else 0)
    base = (seed * 1_000_003 + block * 7_919) % 2**62
    for s in range(base, base + 10_000):
        if sum(_core.balanced_order(2 * pairs, s)[0::2]) == want:
            return s
    return base  # not reached for any sensible pair count


def undecided(summary: stats.Summary, threshold: float) -> bool:
    """Whether the rounds leave a threshold open: no claim above it, and the
    interval's upper end still above it (or no interval at all)."""
    if summary.meets_threshold:
        return False
    return summary.ci_high is None or summary.ci_high > threshold


def _load() -> float:
    import os

    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


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
    min_rounds: int = 32,
    max_rounds: int = 2000,
    pairs_per_block: int = 2,
    loops: int | None = None,
    min_batch_ns: int | None = None,
    seed: int = 0,
    counters: Sequence[str] | None = None,
    shell: bool = False,
    timeout: float | None = None,
    show_output: bool = False,
    prepare: Command | None = None,
    conclude: Command | None = None,
    ignore_failure: bool = False,
    progress: Progress | None = None,
) -> Comparison:
    """Time `candidate` against `reference` in paired, interleaved rounds.

    Each side is a zero-argument callable, a command (a string split like a
    shell would, or an argv list; `shell=True` runs the string as /bin/sh would,
    measuring the command and not the shell: the CLI's rule, shellcmd.py),
    or a `_core.Side`. Rounds come in AB/BA pairs, `pairs_per_block` pairs to
    a block, and the interval is built over blocks (see stats.py). With
    rounds="auto", a pilot of `min_rounds` rounds sizes one extension meant to
    bring the interval's half-width to `precision` (in log space, 0.01 ~ +-1%),
    within `max_rounds` and `max_time` seconds. A fixed number of rounds is
    split into as many blocks as allow a claim (at least stats.MIN_BLOCKS).

    Commands only: `show_output=True` lets them write to this process's
    stdout and stderr (by default their output is captured and dropped);
    `prepare` runs before every timed run and `conclude` after it, untimed
    (a command, with the same shell and timeout), e.g. to drop caches;
    `ignore_failure=True` accepts a non-zero exit code of either command
    (hyperfine's -i): only a signal or a timeout ends the comparison.

    Counters (`counters=["task-clock", ...]`) are attached only when asked:
    a command with counters is started the slower way (fork and hold before
    exec, see cpp/include/fm/process.hpp), which adds launch cost to both sides.
    """
    if cost not in COSTS:
        raise ValueError(f"unknown cost '{cost}' (choose from {', '.join(COSTS)})")
    if threshold is not None and not threshold > 0:
        raise ValueError("threshold must be a positive ratio")
    # A counter cost is always attached, first, so it leads the perf group.
    needed = [cost] if cost in ("instructions", "cycles") else []
    attached = list(dict.fromkeys([*needed, *(counters or [])]))
    hooks: dict[str, Any] = {"show_output": show_output, "prepare": prepare, "conclude": conclude,
                             "ignore_failure": ignore_failure}
    ref = make_side(reference, name="reference", counters=attached, shell=shell, timeout=timeout,
                    **hooks)
    cand = make_side(candidate, name="candidate", counters=attached, shell=shell, timeout=timeout,
                     **hooks)

    started = time.perf_counter()
    clk = clock_info()
    target = min_batch_ns or max(BATCH_NS, int(_core.min_batch_ns(clk["resolution_ns"])))
    pilot_blocks = max(stats.MIN_BLOCKS, math.ceil(min_rounds / (2 * max(1, pairs_per_block))))
    if rounds == "auto":
        ppb = max(1, pairs_per_block)
        blocks: int | Literal["auto"] = "auto"
        if not min_batch_ns:
            # A small budget gets a smaller pilot (see pilot_for_budget).
            ppb, pilot_blocks, target = pilot_for_budget(
                max_time, min_rounds, ppb, target,
                max(1_000_000, int(_core.min_batch_ns(clk["resolution_ns"]))))
    else:
        pairs = max(1, int(rounds) // 2)
        ppb = max(1, min(pairs_per_block, pairs // stats.MIN_BLOCKS))
        blocks = max(1, pairs // ppb)
    per_block = 2 * ppb
    plan = Plan(pairs_per_block=ppb, blocks=blocks,
                min_blocks=pilot_blocks if rounds == "auto" else stats.MIN_BLOCKS,
                max_blocks=max(1, max_rounds // per_block), warmup=warmup, precision=precision,
                max_time=max_time, seed=seed)
    warnings: list[str] = []
    if clk["warning"]:
        warnings.append(clk["warning"])

    def calibrate(r: _core.Side, c: _core.Side) -> int:
        n = loops or calibrate_loops(r, c, target)
        # Fail fast on a cost that cannot be measured here, before spending
        # rounds (the side is woken for it and put back to sleep).
        r.resume()
        try:
            batch_cost(r.measure(n), cost)
        finally:
            r.suspend()
        return n

    @contextlib.contextmanager
    def same_sides(_b: int) -> Iterator[tuple[_core.Side, _core.Side]]:
        yield ref, cand

    collected, summary, plan_warnings, n_loops = run_blocks(
        same_sides, cost=cost, plan=plan, calibrate=calibrate, confidence=confidence,
        threshold=threshold, progress=progress, started=started)
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


def format_ratio(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.3f}x"
