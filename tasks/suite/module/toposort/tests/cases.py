"""Held-out cases and timing inputs for the toposort module task.

toposort() is a generator: a case keeps it and observes list() of it, or
steps it with next() to see the levels yielded before an error. Timing inputs
sort generated dependency graphs (a layered DAG: each item depends on a few
items shortly before it)."""

import random


def levels(cid, covers, data, **kw):
    """list(toposort(data)), the error if any, and the input afterwards."""
    return {"id": cid, "covers": covers, "ops": [
        {"call": "toposort", "args": [data], "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]}]}


def steps(cid, covers, data, n):
    ops = [{"call": "toposort", "args": [data], "as": "g", "observe": False}]
    ops += [{"op": "next", "args": ["$g"]} for _ in range(n)]
    return {"id": cid, "covers": covers, "ops": ops}


def flat(cid, covers, data, **kw):
    return {"id": cid, "covers": covers, "call": "toposort_flatten", "args": [data],
            "kwargs": kw}


def error(cid, covers, data):
    """The CircularDependencyError: its message, its data, ValueError-ness."""
    return {"id": cid, "covers": covers, "ops": [
        {"call": "toposort", "args": [data], "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]},
        {"call": "CircularDependencyError", "args": [data], "as": "e"},
        {"op": "str", "args": ["$e"]},
        {"get": "$e.data"},
        {"get": "$e.args"}]}


BASIC = {2: {11}, 9: {11, 8, 10}, 10: {11, 3}, 11: {7, 5}, 8: {7, 3}}


def dag(seed, n, width, names=None):
    rng = random.Random(seed)
    order = list(range(n))
    data = {}
    for i in order:
        if i == 0:
            deps = set()
        else:
            lo = max(0, i - width)
            deps = {rng.randrange(lo, i) for _ in range(rng.randrange(1, 4))}
        if names:
            data[f"{names}{i}"] = {f"{names}{d}" for d in deps}
        else:
            data[i] = deps
    keys = list(data)
    rng.shuffle(keys)
    return {k: data[k] for k in keys}


def cases():
    out = [
        levels("basic", ["levels", "extras"], BASIC),
        flat("basic-flat", ["flatten"], BASIC),
        flat("basic-flat-unsorted", ["flatten"], BASIC, sort=False),
        levels("chain", ["levels"], {1: {2}, 2: {3}, 3: {4}, 4: set()}),
        flat("chain-flat", ["flatten"], {"d": {"c"}, "c": {"b"}, "b": {"a"}}),
        levels("wide", ["levels"], {k: set() for k in range(20)}),
        levels("diamond", ["levels"], {"top": {"l", "r"}, "l": {"base"}, "r": {"base"},
                                       "base": set()}),
        levels("empty", ["empty"], {}),
        flat("empty-flat", ["empty", "flatten"], {}),
        levels("empty-deps", ["levels"], {"a": set()}),
        levels("self-dep", ["self"], {1: {1}, 2: {2, 1}}),
        levels("self-only", ["self"], {"x": {"x"}}),
        levels("extras-only", ["extras"], {"a": {"b", "c", "d"}}),
        flat("extras-flat", ["extras", "flatten"], {"z": {"b", "a"}, "y": {"c"}}),
        levels("list-deps", ["iterables"], {1: [2, 3, 2], 2: (3,), 3: []}),
        levels("str-deps", ["iterables"], {"abc": "bc", "b": "c"}),
        levels("frozenset-deps", ["iterables"], {1: frozenset({2}), 2: frozenset()}),
        levels("tuple-items", ["levels"], {(1, 2): {(0, 0)}, (0, 0): set(), (3,): {(1, 2)}}),
        levels("numbers-equal", ["equality"], {1: {2.0}, 2: {True}, 1.5: {1.0}}),
        levels("numbers-self", ["equality", "self"], {1: {1.0, True}, 0: {False}}),
        levels("mixed-levels", ["levels"], {"a": {1}, 1: {"b"}, "b": set(), 2: {"a", 1}}),
        flat("mixed-flat-error", ["flatten", "errors"], {"a": {1}, 1: {"b"}, "b": set(),
                                                         2: {"a"}, 3: {"a"}}),
        flat("sort-error", ["flatten", "errors"], {(1,): set(), 1: set(), 2: {(1,)}}),
        flat("sort-error-unsorted", ["flatten"], {"a": set(), 2: {"a"}}, sort=False),
        flat("mixed-unsorted", ["flatten"], {"a": {1}, 1: {"b"}, 2: {"a"}, 3: {"a"}},
             sort=False),
        error("cycle-two", ["cycle"], {1: {2}, 2: {1}}),
        error("cycle-after-levels", ["cycle"], {1: {2}, 2: {3}, 3: {1}, 4: {5}, 5: set(),
                                                6: {4, 3}}),
        error("cycle-long", ["cycle"], {i: {(i + 1) % 7, i + 10} for i in range(7)}),
        error("cycle-strings", ["cycle"], {"a": {"b"}, "b": {"a"}}),
        steps("steps-cycle", ["cycle", "lazy"], {0: set(), 1: {0}, 2: {1, 3}, 3: {2, 1},
                                                 4: {3, 0}}, 4),
        steps("steps-ok", ["lazy", "levels"], BASIC, 6),
        flat("cycle-flat", ["cycle", "flatten"], {1: {2}, 2: {3}, 3: {2}}),
        flat("cycle-flat-all", ["cycle", "flatten"], {1: {2}, 2: {1}, 5: {6}}),
        levels("not-a-dict", ["errors", "lazy"], [1, 2]),
        levels("int-arg", ["errors", "lazy"], 5),
        levels("none-arg", ["errors"], None),
        levels("bad-deps", ["errors"], {1: 5}),
        levels("unhashable-dep", ["errors"], {1: [[2]]}),
        levels("none-deps", ["errors"], {1: None}),
        {"id": "no-mutation", "covers": ["no-mutation"], "ops": [
            {"op": "dict", "args": [{1: {2, 1}, 2: {3}, 4: [4, 2]}], "as": "d"},
            {"call": "toposort", "args": ["$d"], "as": "g", "observe": False},
            {"op": "list", "args": ["$g"]},
            {"call": "toposort_flatten", "args": ["$d"]},
            {"get": "$d"}]},
        {"id": "lazy-copy", "covers": ["lazy", "no-mutation"], "ops": [
            {"op": "dict", "args": [{1: {2}, 2: set()}], "as": "d"},
            {"call": "toposort", "args": ["$d"], "as": "g", "observe": False},
            {"op": "[]=", "args": ["$d", 3, [1]]},
            {"op": "next", "args": ["$g"]},
            {"op": "[]=", "args": ["$d", 4, [3]]},
            {"op": "list", "args": ["$g"]}]},
        {"id": "error-class", "covers": ["cycle"], "ops": [
            {"call": "CircularDependencyError", "args": [{}], "as": "e"},
            {"op": "str", "args": ["$e"]}, {"get": "$e.data"},
            {"call": "CircularDependencyError", "args": [{"k": [1, 2], 3: "v"}], "as": "f"},
            {"op": "str", "args": ["$f"]}]},
        {"id": "module", "covers": ["module"], "ops": [
            {"get": "__all__"}, {"get": "__version__"}]},
    ]
    for k in range(12):
        rng = random.Random(k)
        n = rng.randrange(5, 60)
        data = dag(k, n, rng.randrange(1, 8))
        if k % 3 == 2:
            a, b = rng.sample(sorted(data), 2)
            data[a] = set(data[a]) | {b}
            data[b] = set(data[b]) | {a}
        out.append(levels(f"random-{k}", ["levels"], data))
        out.append(flat(f"random-flat-{k}", ["flatten"], data, sort=k % 2 == 0))
    return out


def timing_inputs():
    def flat_make(n, width):
        def one(seed):
            return {"call": "toposort_flatten", "args": [dag(seed, n, width)]}
        return one

    def unsorted_make(n, width):
        # toposort itself returns a generator, whose repr (an address) a timed
        # call's digest would include: the levels are timed through
        # toposort_flatten(sort=False), which lists each set in its own order.
        def one(seed):
            return {"call": "toposort_flatten", "args": [dag(seed, n, width)],
                    "kwargs": {"sort": False}}
        return one

    return [
        {"id": "flat-300", "size": 300, "make": flat_make(300, 10)},
        {"id": "flat-600", "size": 600, "make": flat_make(600, 60)},
        {"id": "unsorted-400", "size": 400, "make": unsorted_make(400, 20)},
    ]
