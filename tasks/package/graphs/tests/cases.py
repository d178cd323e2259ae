"""Held-out cases and timing inputs for the graphs package task."""

import random


def _new():
    return {"call": "Graph", "as": "g"}


def _e(a, b):
    return {"call": "$g.add_edge", "args": [a, b]}


def _random_edges(rng, nodes, edges):
    out = []
    for _ in range(edges):
        a, b = rng.randrange(nodes), rng.randrange(nodes)
        if a != b:
            out.append(_e(a, b))
    return out


def cases():
    square = [_new(), _e(1, 2), _e(2, 3), _e(3, 4), _e(4, 1), _e(5, 6)]
    out = [
        {"id": "add", "covers": ["add", "len"], "ops": [
            _new(), _e(1, 2), _e(2, 1), _e(1, 3), {"call": "$g.__len__"}]},
        {"id": "self-loop", "covers": ["self-loop"], "ops": [_new(), _e(1, 1), {"call": "$g.__len__"}]},
        {"id": "remove", "covers": ["remove", "nodes"], "ops": [
            *square, {"call": "$g.remove_edge", "args": [2, 1]}, {"call": "$g.has_edge", "args": [1, 2]},
            {"call": "$g.nodes"}, {"call": "$g.neighbors", "args": [1]}, {"call": "$g.__len__"}]},
        {"id": "remove-missing", "covers": ["remove-missing"], "ops": [
            *square, {"call": "$g.remove_edge", "args": [1, 3]},
            {"call": "$g.remove_edge", "args": [9, 10]}]},
        {"id": "has-edge", "covers": ["has-edge"], "ops": [
            *square, {"call": "$g.has_edge", "args": [1, 2]}, {"call": "$g.has_edge", "args": [2, 1]},
            {"call": "$g.has_edge", "args": [1, 3]}, {"call": "$g.has_edge", "args": [7, 8]}]},
        {"id": "neighbors", "covers": ["neighbors", "degree"], "ops": [
            _new(), _e(5, 3), _e(5, 9), _e(5, 1), _e(2, 5), {"call": "$g.neighbors", "args": [5]},
            {"call": "$g.degree", "args": [5]}, {"call": "$g.degree", "args": [9]}]},
        {"id": "unknown", "covers": ["unknown-node"], "ops": [
            *square, {"call": "$g.neighbors", "args": [42]}, {"call": "$g.degree", "args": [42]},
            {"call": "$g.shortest_path", "args": [1, 42]},
            {"call": "$g.shortest_path", "args": ["x", 1]}]},
        {"id": "path", "covers": ["path"], "ops": [
            *square, {"call": "$g.shortest_path", "args": [1, 3]},
            {"call": "$g.shortest_path", "args": [3, 1]}, {"call": "$g.shortest_path", "args": [2, 4]}]},
        {"id": "path-none", "covers": ["path-none"], "ops": [
            *square, {"call": "$g.shortest_path", "args": [1, 6]}]},
        {"id": "path-self", "covers": ["path-self"], "ops": [
            *square, {"call": "$g.shortest_path", "args": [3, 3]}]},
        {"id": "components", "covers": ["components"], "ops": [
            *square, _e(10, 7), {"call": "$g.components"}]},
        {"id": "components-empty", "covers": ["components", "nodes"], "ops": [
            _new(), {"call": "$g.components"}, {"call": "$g.nodes"}]},
        {"id": "strings", "covers": ["string-nodes", "path"], "ops": [
            _new(), _e("b", "a"), _e("a", "c"), _e("c", "d"), _e("b", "d"),
            {"call": "$g.shortest_path", "args": ["a", "d"]}, {"call": "$g.components"},
            {"call": "$g.neighbors", "args": ["a"]}]},
    ]
    for k in range(10):
        rng = random.Random(k)
        n = 6 + 5 * k
        ops = [_new(), *_random_edges(rng, n, n + 2 * k)]
        for _ in range(5):
            a, b = rng.randrange(n), rng.randrange(n)
            ops.append({"call": "$g.shortest_path", "args": [a, b]})
        ops += [{"call": "$g.components"}, {"call": "$g.nodes"}, {"call": "$g.__len__"},
                {"call": "$g.neighbors", "args": [rng.randrange(n)]}]
        out.append({"id": f"random-{k}", "covers": ["path", "components", "unknown-node"],
                    "ops": ops})
    return out


def timing_inputs():
    def make(nodes, edges, queries):
        def one(seed):
            rng = random.Random(seed)
            # A connected backbone, then random chords.
            ops = [_new(), *[_e(i, i + 1) for i in range(nodes - 1)],
                   *_random_edges(rng, nodes, edges - nodes)]
            for _ in range(queries):
                ops.append({"call": "$g.shortest_path",
                            "args": [rng.randrange(nodes), rng.randrange(nodes)]})
            ops.append({"call": "$g.components"})
            return {"ops": ops}
        return one

    return [
        {"id": "nodes60", "size": 60, "make": make(60, 120, 3)},
        {"id": "nodes200", "size": 200, "make": make(200, 400, 4)},
    ]
