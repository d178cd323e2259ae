"""The case format of module and package tasks: builtins and operators as
operations, references to kept values, and what is refused when a case is
loaded (a reference to nothing is an error, never a string passed on)."""

from __future__ import annotations

import contextlib
import re
import time
import types

import pytest

from frontier_measure import perf
from frontier_measure.observe import Ref
from frontier_measure.runners.module import normalise_ops
from frontier_measure.worker import OPERATIONS, TimedScript, Worker, split_call

SOURCE = '''
class Bag:
    def __init__(self, *items):
        self.items = list(items)

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)

    def __contains__(self, x):
        return x in self.items

    def __getitem__(self, k):
        return self.items[k]

    def __add__(self, other):
        return Bag(*self.items, *other.items)

    def __eq__(self, other):
        return isinstance(other, Bag) and self.items == other.items

    def gen(self):
        return (x * 2 for x in self.items)


def pair(a, b):
    return (a, b)
'''


@pytest.fixture
def worker():
    mod = types.ModuleType("bags")
    exec(SOURCE, mod.__dict__)
    w = Worker()
    w.module = mod
    return w


def run(worker, ops):
    return worker.observe(normalise_ops({"ops": ops}))


def test_builtins_and_operators_apply_to_kept_values(worker):
    items = run(worker, [
        {"call": "Bag", "args": [3, 1, 2], "as": "b"},
        {"op": "len", "args": ["$b"]},
        {"op": "list", "args": ["$b"]},
        {"op": "sorted", "args": ["$b"]},
        {"op": "in", "args": [2, "$b"]},
        {"op": "not in", "args": [9, "$b"]},
        {"op": "[]", "args": ["$b", 0]},
        {"op": "[:]", "args": ["$b", 1, None]},
        {"call": "Bag", "args": [4], "as": "c"},
        {"op": "+", "args": ["$b", "$c"], "as": "d"},
        {"op": "list", "args": ["$d"]},
        {"op": "==", "args": ["$b", "$c"]},
        {"op": "<", "args": [1, 2]},
        {"op": "*", "args": [6, 7]},
        {"op": "type", "args": ["$d"]},
    ])
    got = [items[f"{j}/result"] for j in range(1, 15)]
    assert got == [3, [3, 1, 2], [1, 2, 3], True, True, 3, [1, 2], {"$object": "Bag"},
                   {"$object": "Bag"}, [3, 1, 2, 4], False, True, 42, "Bag"]


def test_a_generator_is_observed_through_list(worker):
    items = run(worker, [{"call": "Bag", "args": [1, 2], "as": "b"},
                         {"call": "$b.gen", "as": "g", "observe": False},
                         {"op": "list", "args": ["$g"]}])
    assert items["2/result"] == [2, 4] and "1/result" not in items


def test_a_kept_value_passes_as_an_argument_and_dollar_dollar_is_literal(worker):
    items = run(worker, [{"call": "Bag", "args": [1], "as": "b"},
                         {"call": "pair", "args": ["$b", "$$b"]},
                         {"call": "pair", "args": ["$5", "a$b"], "kwargs": {}},
                         {"call": "pair", "args": [Ref("b")], "kwargs": {"b": "$b"}}])
    assert items["1/result"]["$tuple"][1] == "$b"
    assert items["2/result"] == {"$tuple": ["$5", "a$b"]}
    assert items["3/result"]["$tuple"][0] == items["3/result"]["$tuple"][1]


@pytest.mark.parametrize("ops, message", [
    ([{"call": "pair", "args": ["$x", 1]}], "'$x' names no value kept"),
    ([{"call": "Bag", "as": "b"}, {"call": "pair", "args": [1], "kwargs": {"b": "$c"}}],
     "kept so far: b"),
    ([{"call": "$t.add"}], "'$t.add' names no value kept"),
    ([{"call": "Bag", "as": "b"}, {"call": "pair", "args": ["$b.items", 1]}],
     "is not a reference"),
    ([{"op": "length", "args": [[]]}], "unknown operation 'length'"),
    ([{"call": "Bag", "op": "len"}], "exactly one of"),
    ([{"get": "Bag", "args": [1]}], "takes no arguments"),
    # A value is kept only from the operation that names it, on.
    ([{"call": "pair", "args": ["$b", 1], "as": "b"}], "'$b' names no value kept"),
    # Inside a container a kept name would travel as a string: refused, not passed on.
    ([{"call": "Bag", "as": "b"}, {"call": "pair", "args": [["$b", 2], 1]}],
     "args[0][0]: '$b' inside a list or dict is not replaced"),
    ([{"call": "Bag", "as": "b"}, {"call": "pair", "args": [1], "kwargs": {"x": {"k": ["$b"]}}}],
     "kwargs.x['k'][0]: '$b' inside"),
])
def test_misused_references_and_operations_are_errors(ops, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        normalise_ops({"ops": ops})


def test_every_operation_name_is_refused_elsewhere_and_usable_in_timed_calls(worker):
    assert {"len", "list", "in", "==", "[]", "[:]", "+", "<"} <= set(OPERATIONS)
    ops = normalise_ops({"ops": [{"call": "Bag", "args": [5, 6], "as": "b"},
                                 {"op": "len", "args": ["$b"]},
                                 {"op": "[:]", "args": ["$b", None, None, -1]}]})
    script, literals = split_call(ops)
    values, _ = TimedScript(script).real(worker.module, literals)
    # One value per operation, in order: the Bag, its length, the reversed slice.
    assert values[1:] == [2, [6, 5]]


def test_a_name_the_module_lacks_is_noted_as_unresolved(worker):
    run(worker, [{"call": "missing", "args": [1]}, {"get": "Bag"}, {"get": "nothing"},
                 {"call": "pair", "args": [1, 2]}])
    assert [j for j, _ in worker.unresolved] == [0, 2]
    assert "AttributeError" in worker.unresolved[0][1]


@contextlib.contextmanager
def _slow_sides(_block: int):
    def call() -> None:
        time.sleep(0.004)

    yield perf.make_side(call, name="reference"), perf.make_side(call, name="candidate")


def test_the_time_budget_grows_for_long_calls():
    plan = dict(pairs_per_block=1, min_blocks=5, max_blocks=40, warmup=1,
                warmup_every_block=True, precision=1e-6, max_time=0.1)
    fixed = perf.run_blocks(_slow_sides, cost="wall", plan=perf.Plan(**plan), loops=1)
    grown = perf.run_blocks(_slow_sides, cost="wall",
                            plan=perf.Plan(**plan, max_time_cap=2.0), loops=1)
    # Without a cap the budget is a cap: at most the pilot, fewer blocks when
    # the machine is slow enough that the next one would not end in time.
    assert {r.block for r in fixed[0]} <= set(range(5))
    assert len({r.block for r in grown[0]}) > 5
    assert any("time budget grew" in w for w in grown[2])
    assert not any("time budget grew" in w for w in fixed[2])
