"""Time budgets as caps, and thresholds the noise leaves undecided.

The budget logic runs on a fake clock (each block "takes" a set time), so no
assertion here depends on how loaded the machine is."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

from frontier_measure import _core, perf, results, stats


def spin(n: int):
    def f() -> int:
        return sum(range(n))

    return f


class FakeClock:
    """Seconds that pass only when a block opens: `per_block` each."""

    def __init__(self, per_block: float) -> None:
        self.now = 0.0
        self.per_block = per_block
        self.opened = 0

    def __call__(self) -> float:
        return self.now

    def sides(self, ref: _core.Side, cand: _core.Side):
        @contextlib.contextmanager
        def open_block(_b: int) -> Iterator[tuple[_core.Side, _core.Side]]:
            self.opened += 1
            self.now += self.per_block
            yield ref, cand

        return open_block


def run(per_block: float, plan: perf.Plan, threshold: float | None = None,
        ref_n: int = 4000, cand_n: int = 2000):
    clock = FakeClock(per_block)
    ref = _core.CallableSide(spin(ref_n), [])
    cand = _core.CallableSide(spin(cand_n), [])
    ref.suspend()
    cand.suspend()
    out = perf.run_blocks(clock.sides(ref, cand), cost="wall", plan=plan, loops=20,
                          threshold=threshold, clock=clock)
    return clock, out


def test_pilot_keeps_its_size_when_the_budget_allows():
    assert perf.pilot_for_budget(10.0, 32, 2, 10_000_000, 1_000_000) == (2, 8, 10_000_000)
    assert perf.pilot_for_budget(60.0, 64, 2, 10_000_000, 1_000_000) == (2, 16, 10_000_000)


def test_a_small_budget_gets_fewer_shorter_blocks():
    # 2 s: 8 blocks of 2 pairs at 10 ms would take ~1 s of the 1 s half-budget
    ppb, blocks, target = perf.pilot_for_budget(1.0, 32, 2, 10_000_000, 1_000_000)
    assert (ppb, blocks) == (1, stats.MIN_BLOCKS) and target == 10_000_000
    ppb, blocks, target = perf.pilot_for_budget(0.2, 32, 2, 10_000_000, 1_000_000)
    assert (ppb, blocks) == (1, stats.MIN_BLOCKS) and 1_000_000 <= target < 10_000_000
    # never below what the clock allows
    assert perf.pilot_for_budget(0.001, 32, 2, 10_000_000, 1_000_000)[2] == 1_000_000


def test_the_budget_cuts_a_slow_pilot_and_says_what_a_claim_would_take():
    clock, (rounds, summary, warnings, _) = run(1.0, perf.Plan(max_time=3.0))
    # 1 s blocks in a 3 s budget: a block starts only if it ends within 3.75 s
    assert clock.opened == 3 and clock.now <= 1.25 * 3.0 + 1.0
    assert summary.blocks == 3 and summary.verdict == "insufficient"
    assert summary.note is not None and "3 of the 8 blocks" in summary.note
    assert "give it about 9 s" in summary.note and summary.to_dict()["note"] == summary.note
    assert summary.note in warnings


def test_a_fast_pilot_runs_whole_and_extends_within_the_budget():
    clock, (_, summary, _, _) = run(0.5, perf.Plan(max_time=10.0, precision=1e-6))
    assert summary.verdict != "insufficient" and summary.note is None
    # the extension wanted far more blocks than 10 s hold: the budget ended it
    assert clock.opened > 8 and clock.now <= 1.25 * 10.0 + 0.5


def test_fixed_plans_ignore_the_budget():
    clock, (_, summary, _, _) = run(5.0, perf.Plan(blocks=8, max_time=1.0))
    assert clock.opened == 8 and summary.note is None


def test_a_straddled_threshold_gets_more_blocks_and_a_stricter_claim():
    # A/A against a threshold of 1: the interval straddles it
    plan = perf.Plan(max_time=100.0, precision=1.0, decide_blocks=6)
    clock, (_, summary, warnings, _) = run(0.1, plan, threshold=1.0, ref_n=3000, cand_n=3000)
    assert clock.opened == 8 + 6
    assert summary.confidence == 0.975 and summary.pilot_blocks == 8
    assert any("straddled" in w for w in warnings)


def test_no_extension_when_the_threshold_is_decided():
    plan = perf.Plan(max_time=100.0, precision=1.0, decide_blocks=6)
    clock, (_, summary, _, _) = run(0.1, plan, threshold=1.01, ref_n=40000, cand_n=2000)
    assert summary.meets_threshold and clock.opened == 8


def test_undecided():
    def s(low, high, meets):
        return stats.Summary(16, 8, 8, 0.95, math.sqrt(low * high), low, high, low, "faster",
                             1.5, meets, 0.0)

    assert perf.undecided(s(1.2, 2.0, False), 1.5)
    assert not perf.undecided(s(1.1, 1.4, False), 1.5)
    assert not perf.undecided(s(1.6, 2.0, True), 1.5)


def _input(ident, low, high, verdict="faster", meets=False):
    return {"id": ident, "speedup": math.sqrt(low * high), "ci_low": low, "ci_high": high,
            "lower_bound": low, "verdict": verdict, "meets_threshold": meets, "error": None,
            "blocks": 8}


class _T:
    def __init__(self, d):
        self.d = d

    def to_dict(self):
        return self.d


def test_an_interval_across_the_threshold_is_inconclusive_not_a_no():
    perf_, fail = results.performance([_T(_input("small", 0.75, 4.85)),
                                       _T(_input("large", 7.0, 9.0, meets=True))], 1.5, "wall", "ns")
    assert fail is not None and fail["rule"] == results.INCONCLUSIVE
    assert "re-run on a quieter machine" in fail["reason"]
    assert perf_["verdict"] == "inconclusive" and perf_["worst_input"] == "small"
    res = {"strict_success": False, "failure": fail}
    assert results.outcome(res) == "inconclusive"
    assert results.reward(res)["reward"] == 0.0


def test_too_few_blocks_is_inconclusive():
    d = _input("a", 1.0, 1.0, verdict="insufficient")
    d.update(ci_low=None, ci_high=None, lower_bound=None)
    _, fail = results.performance([_T(d)], 1.5, "wall", "ns")
    assert fail["rule"] == results.INCONCLUSIVE


def test_an_input_shown_below_the_threshold_decides_no():
    # one input undecided, another shown below: the shown one decides
    _, fail = results.performance([_T(_input("a", 0.9, 3.0)),
                                   _T(_input("b", 0.95, 1.05, verdict="indistinguishable"))],
                                  1.5, "wall", "ns")
    assert fail["rule"] == "no-speedup" and "'b'" in fail["reason"]
    assert results.outcome({"strict_success": False, "failure": fail}) == "failed"
    assert results.outcome({"strict_success": True, "failure": None}) == "success"
    assert results.outcome({"strict_success": False,
                            "failure": {"stage": "error", "rule": "x", "reason": ""}}) == "error"


def test_compare_with_too_few_rounds_for_a_threshold_exits_3_not_1():
    from click.testing import CliRunner

    from frontier_measure.cli import EXIT_ERROR, main

    r = CliRunner().invoke(main, ["compare", "--ref", "true", "--cand", "true", "--rounds", "4",
                                  "--threshold", "1.5"])
    assert r.exit_code == EXIT_ERROR, r.output
    assert "threshold undecided" in r.stderr


def test_rounds_help_names_the_minimum_for_a_verdict():
    from click.testing import CliRunner

    from frontier_measure.cli import main

    out = CliRunner().invoke(main, ["compare", "--help"]).output
    assert f"at least {2 * stats.MIN_BLOCKS}" in " ".join(out.split())
