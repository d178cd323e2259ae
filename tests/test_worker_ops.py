"""The worker's operation semantics, run in this process (no subprocess):
what a case observes, and what a timed call records."""

from __future__ import annotations

import random
import types
from pathlib import Path

import pytest

from frontier_measure import _core
from frontier_measure.diff import Tolerance
from frontier_measure.observe import Ref, TimedOutputs, canonical, pack, unpack
from frontier_measure.perf import calibrate_loops
from frontier_measure.runners import SideFailure
from frontier_measure.runners.module import HarnessCost, InputMaker, OutputCheck, normalise_ops
from frontier_measure.worker import Worker, output_pairs

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
    ]})
    # A reference to nothing kept is refused when cases load; a worker given
    # one anyway observes the KeyError.
    ops.append({"kind": "call", "target": "$nothing.add", "args": [1], "kwargs": {}})
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


def test_timed_calls_reply_with_digests_of_every_output(worker):
    maker = InputMaker(
        lambda seed: normalise_ops({"call": "sort_in_place", "args": [[seed, 2, 1]]}), 0,
        values=False)
    reply = worker.handle(unpack(maker.request(0, 3)[4:]))
    assert list(reply) == ["digests"]
    assert len(reply["digests"]) == 3 and len(set(reply["digests"])) == 3
    # A dry run digests the same outputs again without making the calls.
    dry = worker.handle(unpack(maker.request(0, 3, dry=True)[4:]))
    assert dry["digests"] == reply["digests"]


def test_timed_calls_compared_with_a_tolerance_reply_with_their_values_only(worker):
    maker = InputMaker(
        lambda seed: normalise_ops({"call": "sort_in_place", "args": [[seed, 2, 1]]}), 0,
        values=True)
    reply = worker.handle(unpack(maker.request(0, 3)[4:]))
    assert list(reply) == ["values"]  # a digest as well would only lengthen the path
    # Call 2 got seed 1: its argument was sorted in place, and that is what is kept.
    assert reply["values"][1] == [[None, [[1, 1, 2]]]]
    assert worker.handle(unpack(maker.request(0, 3, dry=True)[4:])) == reply


def _timed(worker, ops):
    """One timed call of `ops` through the compiled script, and its dry run."""
    maker = InputMaker(lambda seed: normalise_ops({"ops": ops}), 0, values=False)
    req = unpack(maker.request(0, 1)[4:])
    worker.handle(req)
    real = output_pairs(worker.kept[0])
    worker.handle(unpack(maker.request(0, 1, dry=True)[4:]))
    return real, output_pairs(worker.kept[0])


def test_a_timed_call_runs_each_operation_as_a_case_would(worker):
    box = worker.module.Box
    worker.module.odd = types.SimpleNamespace(**{"not-an-identifier": lambda x: x * 2,
                                                "class": 7})
    real, _ = _timed(worker, [
        {"call": "Box", "args": [[1, 2]], "as": "b"},
        {"call": "$b.add", "args": [3]},
        {"get": "$b.items", "as": "items"},
        {"op": "len", "args": ["$items"]},
        {"call": "sort_in_place", "kwargs": {"xs": [3, 1, 2]}},
        {"call": "$b.take", "kwargs": {"into": "$items"}},
        {"call": "fail", "args": ["nope"], "as": "never"},
        {"call": "odd.not-an-identifier", "args": [21]},
        {"get": "odd.class"},
        {"call": "missing", "args": [[5]]},
        {"call": "Box", "args": ["$items"]},
    ])
    values = [v for v, _ in real]
    assert isinstance(values[0], box) and values[1] == 3 and values[3] == 3
    assert values[2] is values[0].items  # the live list, taken into itself later on
    assert values[4] is None and real[4][1] == []  # kwargs are not scanned, as in a case
    assert real[5][1] == [] and values[2] == [1, 2, 3, 1, 2, 3]
    assert isinstance(values[6], ValueError) and str(values[6]) == "nope"
    assert values[7:9] == [42, 7]
    # A target that fails to resolve: its exception, and its literal arguments scanned.
    assert isinstance(values[9], AttributeError) and real[9][1] == [[5]]
    # A kept value passed on is scanned like any argument of a timed call.
    assert isinstance(values[10], box) and real[10][1] == [values[2]]


def test_a_reference_to_a_value_an_operation_failed_to_keep_is_that_operations_error(worker):
    ops = normalise_ops({"ops": [{"call": "fail", "args": ["x"], "as": "f"},
                                 {"call": "$f.add", "args": [1]}]})
    maker = InputMaker(lambda seed: ops, 0, values=False)
    worker.handle(unpack(maker.request(0, 1)[4:]))
    assert isinstance(output_pairs(worker.kept[0])[1][0], KeyError)


def test_a_dry_run_replays_the_real_outputs_and_scans_the_same_arguments(worker):
    real, dry = _timed(worker, [{"call": "sort_in_place", "args": [[2, 1]]},
                                {"call": "Box", "as": "b"}, {"call": "$b.add", "args": [[0]]}])
    assert dry == real


def test_a_script_is_compiled_once_per_worker(worker):
    maker = InputMaker(lambda seed: normalise_ops({"call": "sort_in_place", "args": [[seed]]}),
                       0, values=False)
    for block in range(3):
        worker.handle(unpack(maker.request(block, 4)[4:]))
    assert len(worker.scripts) == 1


def test_names_in_a_script_never_become_code(worker):
    import ast

    from frontier_measure.worker import _operation_source

    hostile = "x'); import os; os.system('true'); ('"
    source = _operation_source(["call", f"a.{hostile}", [hostile, None], [[hostile, hostile]],
                                hostile], dry=False)
    tree = ast.parse(source)
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    # The only calls are the script's own: the target, getattr of odd names, the scan.
    called = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert called <= {"f", "_getattr", "_is_mutable", "type", "len", "V.append", "M.append"}


def test_a_dry_run_without_its_real_run_is_refused(worker):
    maker = InputMaker(lambda seed: normalise_ops({"call": "sort_in_place", "args": [[seed]]}),
                       0, values=False)
    assert "error" in worker.handle(unpack(maker.request(0, 2, dry=True)[4:]))


def test_a_dry_run_never_calls_the_code_under_test(worker):
    calls = []
    worker.module.sort_in_place = lambda xs: calls.append(xs)
    maker = InputMaker(lambda seed: normalise_ops({"call": "sort_in_place", "args": [[seed]]}),
                       0, values=False)
    worker.handle(unpack(maker.request(0, 2)[4:]))
    worker.handle(unpack(maker.request(0, 2, dry=True)[4:]))
    assert len(calls) == 2


def test_input_maker_gives_both_sides_the_same_batches():
    made = []
    maker = InputMaker(lambda seed: made.append(seed) or normalise_ops({"call": "f",
                                                                         "args": [seed]}), 7,
                       values=False)
    a = maker.request(0, 4)
    assert maker.request(0, 4) == a and len(made) == 4  # built once, sent to both sides
    b = maker.request(1, 4)
    assert a != b and len(set(made)) == 8  # every call its own seed
    req = unpack(a[4:])
    assert len(req["scripts"]) == 1  # the calls share one script
    assert [literals[0] for _, literals in req["calls"]] == made[:4]
    # A warm-up call's input is none of a timed batch's.
    warm = unpack(maker.warm_up(0)[4:])
    assert warm["warm"] and warm["calls"][0][1][0] not in made[:8]


def test_output_check_compares_matching_batches():
    check = OutputCheck(Tolerance())
    check.add("reference", (1, 0, 0), ["a", "b"])
    check.add("candidate", (1, 0, 0), ["a", "b"])
    # Calibration batches of different sizes share their first inputs.
    check.add("reference", (1, 0, 1), ["a", "b", "c", "d"])
    check.add("candidate", (1, 0, 1), ["a"])
    assert check.compared == 3
    check.add("candidate", (2, 0, 0), ["a", "z"])
    with pytest.raises(SideFailure, match="timed call 2 of batch 1") as e:
        check.add("reference", (2, 0, 0), ["a", "b"])
    assert e.value.side == "candidate"


def test_output_check_with_tolerance_compares_values_picked_after_the_replies():
    check = OutputCheck(Tolerance(rel=1e-9), per_batch=2)

    def reply(calls):  # as a worker sends them, left packed (observe.TimedOutputs)
        return TimedOutputs(pack({"values": calls}))

    exact = [[[canonical(1.0), []]] for _ in range(10)]
    near = [[[canonical(1.0 + 1e-12), []]] for _ in range(10)]
    check.add("reference", (2, 0, 0), reply(exact))
    check.add("candidate", (2, 0, 0), reply(near))  # not equal, but close enough
    assert check.compared == 2
    far = [[[canonical(2.0), []]] for _ in range(10)]
    check.add("reference", (2, 0, 1), reply(exact))
    with pytest.raises(SideFailure):
        check.add("candidate", (2, 0, 1), reply(far))


def test_output_check_decodes_only_the_picked_calls_within_the_item_cap():
    # Every call but one is too big to decode: only a pick of that one may
    # fail, and then for the cap, naming the side.
    check = OutputCheck(Tolerance(rel=1e-9), per_batch=1, max_item_bytes=1 << 10)
    small = [[canonical(1.0), []]]
    big = [[list(range(10_000)), []]]
    calls = [small] + [big] * 9
    check.key = next(k for k in range(1000)
                     if random.Random(hash((k, (2, 0, 0)))).sample(range(10), 1) == [0])
    check.add("reference", (2, 0, 0), TimedOutputs(pack({"values": calls})))
    check.add("candidate", (2, 0, 0), TimedOutputs(pack({"values": calls})))
    assert check.compared == 1
    check.add("reference", (2, 0, 1), TimedOutputs(pack({"values": [big] * 10})))
    with pytest.raises(SideFailure, match="max_item_mb") as e:
        check.add("candidate", (2, 0, 1), TimedOutputs(pack({"values": [big] * 10})))
    assert e.value.side == "reference"  # the first decoded; a real reference is a task problem


def test_harness_cost_is_the_latest_dry_run_per_call():
    h = HarnessCost()
    assert h.per_call() == (0.0, 0.0)
    for wall in (120, 9000, 100):  # one dry batch hit by a preemption
        h.add(wall * 10, wall * 5, 10)
        assert h.per_call() == (wall, wall / 2)
    assert h.typical() == 120.0


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


def test_the_worker_keeps_no_clock():
    # Nothing a worker computes is a cost: it has no timer to report from.
    from frontier_measure import worker as w

    source = Path(w.__file__).read_text()
    for clock in ("now_ns", "time_callable", "perf_counter", "monotonic", "process_time"):
        assert clock not in source


def test_a_timed_array_crosses_as_bytes_and_compares_as_its_canonical_form():
    import numpy as np

    from frontier_measure.observe import DecodeError, canonical, from_timed, pack, timed_value, unpack_reply

    a = np.array([[1.5, float("nan")], [-0.0, 2.0]])
    wire = unpack_reply(pack(timed_value(a)), 1000)
    assert list(wire) == ["$array"] and isinstance(wire["$array"][2], bytes)
    assert from_timed(wire) == canonical(a)
    # Not an exact array of numbers: its canonical form, made in the window.
    class Lazy(np.ndarray):
        pass
    assert timed_value(a.view(Lazy)) == canonical(a.view(Lazy))
    assert timed_value([1.0, 2.0]) == canonical([1.0, 2.0])
    for bad in ({"$array": ["|O", [1], b"x" * 8]}, {"$array": ["<f8", [3], b"x" * 8]},
                {"$array": ["<f8", [-1], b""]}, {"$array": ["<f8", [1]]}):
        with pytest.raises(DecodeError):
            from_timed(bad)


def test_an_objects_address_is_not_part_of_its_observation():
    from frontier_measure.observe import canonical

    def gen():
        yield 1

    a, b = canonical(gen()), canonical(gen())
    assert a == b and "0x?" in a["repr"] and a["$object"] == "generator"
