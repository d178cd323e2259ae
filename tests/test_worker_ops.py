"""The worker's operation semantics, run in this process (no subprocess):
what a case observes, and what a timed call records."""

from __future__ import annotations

import sys
import types

import pytest

from frontier_measure import _core
from frontier_measure.diff import Tolerance
from frontier_measure.observe import Ref, canonical, unpack
from frontier_measure.perf import calibrate_loops
from frontier_measure.runners.module import DigestCheck, InputMaker, TimingViolation
from frontier_measure.task import normalise_ops
from frontier_measure.worker import Worker

SOURCE = '''
class Box:
    def __init__(self, items=None):
        self.items = list(items or [])

    def add(self, x):
        self.items.append(x)
        return len(self.items)

    def take(self, into):
        into.extend(self.items)
        print("took", len(self.items))

    def __repr__(self):
        return f"Box({len(self.items)})"


def fail(msg):
    raise ValueError(msg)


def sort_in_place(xs):
    xs.sort()
'''


@pytest.fixture
def worker():
    mod = types.ModuleType("boxes")
    exec(SOURCE, mod.__dict__)
    w = Worker()
    w.module = mod
    return w


def test_observe_ops_results_mutations_stdout_and_exceptions(worker):
    ops = normalise_ops({"ops": [
        {"call": "Box", "args": [[1, 2]], "as": "b"},
        {"call": "$b.add", "args": [3]},
        {"get": "$b.items"},
        {"call": "$b.take", "args": [[0]]},
        {"call": "fail", "args": ["nope"]},
        {"call": "sort_in_place", "args": [[3, 1, 2]]},
        {"call": "Box", "args": [Ref("b")]},
        {"call": "$nothing.add", "args": [1]},
    ]})
    items = worker.observe(ops)
    assert items["0/result"] == {"$object": "Box", "repr": "Box(2)"}
    assert items["0/arg0"] == [1, 2]  # not mutated
    assert items["1/result"] == 3
    assert items["2/result"] == [1, 2, 3]
    assert items["3/arg0"] == [0, 1, 2, 3] and items["3/stdout"] == "took 3\n"
    assert items["4/result"] == {"$exception": "ValueError", "message": "nope"}
    assert items["5/arg0"] == [1, 2, 3]  # the mutation is observed
    assert "6/arg0" not in items  # a stored object is not an argument to observe
    assert items["7/result"] == {"$exception": "KeyError", "message": "'nothing'"}


def test_timed_calls_record_outputs_and_fresh_inputs(worker):
    maker = InputMaker(
        lambda seed: normalise_ops({"call": "sort_in_place", "args": [[seed, 2, 1]]}), 0)
    worker.handle({"cmd": "prepare", "calls": maker.batch(0, 3)})
    reply = worker.handle({"cmd": "time"})
    assert reply["loops"] == 3 and reply["wall_ns"] > 0 and reply["cpu_ns"] >= 0
    digests = worker.handle({"cmd": "digests", "sample": [1]})
    assert len(digests["digests"]) == 3 and len(set(digests["digests"])) == 3
    # Call 2 got seed 1: its argument was sorted in place, and that is what is kept.
    assert digests["values"] == {1: [[None, [[1, 1, 2]]]]}
    # After the digests the batch is gone: the next time request has nothing to run.
    assert worker.handle({"cmd": "time"})["loops"] == 0


def test_input_maker_gives_both_sides_the_same_batches():
    made = []
    maker = InputMaker(lambda seed: made.append(seed) or normalise_ops({"call": "f",
                                                                         "args": [seed]}), 7)
    a = maker.batch(0, 4)
    assert maker.batch(0, 4) == a and len(made) == 4  # cached for the other side
    b = maker.batch(1, 4)
    assert a != b and len(set(made)) == 8  # every call its own seed
    calls = unpack(a)
    assert [c[0]["args"][0] for c in calls] == made[:4]


def test_digest_check_compares_matching_batches_only():
    check = DigestCheck(Tolerance())
    check.add("reference", (1, 0), ["a", "b"], {})
    check.add("candidate", (1, 0), ["a", "b"], {})
    check.add("reference", (1, 1), ["a", "b", "c", "d"], {})
    check.add("candidate", (1, 1), ["x"], {})  # calibration sizes differ: nothing shared
    assert check.compared == 2
    check.add("candidate", (2, 0), ["a", "z"], {})
    with pytest.raises(TimingViolation, match="timed call 2 of batch 1"):
        check.add("reference", (2, 0), ["a", "b"], {})


def test_digest_check_with_tolerance_compares_sampled_values():
    check = DigestCheck(Tolerance(rel=1e-9), per_batch=2)
    sample = check.sample((2, 0), 10)
    assert len(sample) == 2 and sample == check.sample((2, 0), 10)
    near = {i: [[canonical(1.0 + 1e-12), []]] for i in sample}
    exact = {i: [[canonical(1.0), []]] for i in sample}
    check.add("reference", (2, 0), ["r"] * 10, exact)
    check.add("candidate", (2, 0), ["c"] * 10, near)  # digests differ, values are close
    far = {i: [[canonical(2.0), []]] for i in sample}
    check.add("reference", (2, 1), ["r"] * 10, exact)
    with pytest.raises(TimingViolation):
        check.add("candidate", (2, 1), ["r"] * 10, far)


class FakeSide(_core.Side):
    """A side whose batches cost `ns_per_loop` each (no clock involved)."""

    def __init__(self, ns_per_loop: int) -> None:
        super().__init__()
        self.ns = ns_per_loop

    def measure(self, loops: int) -> _core.Batch:
        b = _core.Batch()
        b.loops = loops
        b.wall_ns = loops * self.ns
        return b


def test_calibrate_loops_targets_the_cheaper_side_and_caps_the_dearer():
    ref, cand = FakeSide(1_000_000), FakeSide(10_000)  # a 100x speedup
    # Uncapped the cheaper side needs 500 loops for 5 ms; the dearer one would
    # then take 500 ms per batch, so the cap (40 ms) wins: 40 loops.
    assert calibrate_loops(ref, cand, 5_000_000, 40_000_000) == 40
    assert calibrate_loops(ref, cand, 5_000_000, 10**12) >= 500
    assert calibrate_loops(FakeSide(10**9), cand, 5_000_000, 40_000_000) == 1


def test_worker_module_binds_the_timer_before_candidate_code():
    from frontier_measure import worker as w

    assert w._time_callable is _core.time_callable
    assert "frontier_measure.worker" in sys.modules
