"""Held-out cases and timing inputs for the toposort task (toposort 1.10)."""

import random


def _levels(cid, covers, data):
    """toposort() is a generator: its levels are observed as a list of sets."""
    return {"id": cid, "covers": covers, "ops": [
        {"call": "toposort", "args": [data], "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]}]}


def _flat(cid, covers, data, *rest, **kw):
    case = {"id": cid, "covers": covers, "call": "toposort_flatten", "args": [data, *rest]}
    if kw:
        case["kwargs"] = kw
    return case


def _dag(rng, n, depth, fanin, names=False):
    """A layered DAG: n nodes over `depth` levels, each depending on up to
    `fanin` nodes of earlier levels (always one of the level just before)."""
    level = [0] + [1 + rng.randrange(depth - 1) for _ in range(n - 1)] if depth > 1 else [0] * n
    order = list(range(n))
    rng.shuffle(order)
    by_level = {}
    for node in order:
        by_level.setdefault(level[node], []).append(node)
    data = {}
    for node in order:
        lv = level[node]
        deps = []
        if lv and (lv - 1) in by_level:
            deps.append(rng.choice(by_level[lv - 1]))
            for _ in range(rng.randrange(fanin)):
                lower = rng.randrange(lv)
                if lower in by_level:
                    deps.append(rng.choice(by_level[lower]))
        if names:
            data["n%d" % node] = ["n%d" % d for d in deps]
        else:
            data[node] = deps
    return data


def cases():
    out = [
        _levels("empty", ["empty"], {}),
        _flat("empty-flat", ["empty", "flatten"], {}),
        _levels("single", ["levels"], {1: []}),
        _levels("chain", ["levels"], {3: [2], 2: [1], 1: [0]}),
        _levels("diamond", ["levels"], {"d": ["b", "c"], "b": ["a"], "c": ["a"], "a": []}),
        _levels("readme", ["levels", "extra-items"],
                {2: {11}, 9: {11, 8, 10}, 10: {11, 3}, 11: {7, 5}, 8: {7, 3}}),
        _flat("readme-flat", ["flatten", "extra-items"],
              {2: {11}, 9: {11, 8, 10}, 10: {11, 3}, 11: {7, 5}, 8: {7, 3}}),
        _levels("self-dep", ["self-dependency"], {1: [1, 2], 2: [2], 3: [1, 3]}),
        _flat("self-dep-flat", ["self-dependency", "flatten"], {"a": ["a"], "b": ["a", "b"]}),
        _levels("extra-only", ["extra-items"], {"x": ["y", "z"], "w": ["z"]}),
        _levels("tuple-values", ["levels"], {1: (2, 3), 2: (3,), 3: ()}),
        _levels("string-values", ["levels"], {"ab": "b", "b": ""}),
        _levels("cycle-2", ["cycle"], {1: [2], 2: [1]}),
        _levels("cycle-3", ["cycle"], {1: [2], 2: [3], 3: [1], 4: [1], 0: []}),
        _levels("cycle-after-levels", ["cycle"],
                {10: [], 11: [10], 12: [11, 14], 13: [12], 14: [13, 10], 15: [14, 20], 16: [10]}),
        _flat("cycle-flat", ["cycle", "flatten"], {5: [6], 6: [7], 7: [5, 8], 8: []}),
        _flat("cycle-flat-unsorted", ["cycle", "flatten"], {5: [6], 6: [5]}, False),
        _flat("chain-unsorted", ["flatten", "unsorted"], {4: [3], 3: [2], 2: [1]}, False),
        _flat("chain-unsorted-kw", ["flatten", "unsorted"], {"c": ["b"], "b": ["a"]},
              sort=False),
        _flat("strings-sorted", ["flatten"], {"pear": ["apple", "fig"], "fig": ["apple"],
                                              "kiwi": [], "apple": []}),
        _levels("not-a-dict", ["errors"], [1, 2]),
        _levels("none", ["errors"], None),
        _flat("mixed-types-single", ["flatten"], {1: ["a"]}),
        _levels("unhashable-dep", ["errors"], {1: [[2]]}),
        {"id": "partial", "covers": ["lazy"], "ops": [
            {"call": "toposort", "args": [{3: [2], 2: [1]}], "as": "g", "observe": False},
            {"op": "next", "args": ["$g"]}, {"op": "next", "args": ["$g"]},
            {"op": "list", "args": ["$g"]}]},
        {"id": "partial-cycle", "covers": ["lazy", "cycle"], "ops": [
            {"call": "toposort", "args": [{3: [2], 2: [3], 1: []}], "as": "g",
             "observe": False},
            {"op": "next", "args": ["$g"]}, {"op": "next", "args": ["$g"]}]},
        {"id": "error-class", "covers": ["cycle"], "ops": [
            {"call": "CircularDependencyError", "args": [{1: {2}, 2: {1}}], "as": "e"},
            {"get": "$e.data"}, {"op": "str", "args": ["$e"]}]},
        {"id": "names", "covers": ["errors"], "ops": [{"get": "__version__"},
                                                      {"get": "__all__"}]},
    ]
    rng = random.Random(3)
    for i in range(30):
        n = 3 + i * 3
        data = _dag(rng, n, 2 + i % 9, 1 + i % 4, names=i % 2 == 1)
        out.append(_levels(f"dag-{i}", ["levels", "random"], data))
        out.append(_flat(f"dag-flat-{i}", ["flatten", "random"], data))
    for i in range(10):
        data = _dag(rng, 5 + i * 4, 3 + i, 2)
        nodes = list(data)
        a, b = rng.sample(nodes, 2)
        data[a] = list(data[a]) + [b]
        data[b] = list(data[b]) + [a]
        out.append(_levels(f"dag-cycle-{i}", ["cycle", "random"], data))
        out.append(_flat(f"dag-cycle-flat-{i}", ["cycle", "random"], data))
    for i in range(6):
        chain = list(range(10 * i, 10 * i + 8))
        rng.shuffle(chain)
        data = {chain[k]: [chain[k - 1]] for k in range(1, len(chain))}
        out.append(_flat(f"chain-unsorted-{i}", ["unsorted", "random"], data, False))
    return out


def timing_inputs():
    def make(n, depth):
        def one(seed):
            return {"call": "toposort_flatten", "args": [_dag(random.Random(seed), n, depth, 3)]}
        return one

    return [
        {"id": "n300d60", "size": 300, "make": make(300, 60)},
        {"id": "n500d100", "size": 500, "make": make(500, 100)},
    ]
