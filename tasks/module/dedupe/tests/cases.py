"""Held-out cases and timing inputs for the dedupe task."""

import random

NAN = float("nan")


def _ints(seed, n, distinct):
    rng = random.Random(seed)
    return [rng.randrange(distinct) for _ in range(n)]


def cases():
    out = [
        {"id": "small-ints", "covers": ["keeps-first", "no-mutation"],
         "call": "dedupe", "args": [[3, 1, 3, 2, 1, 3]]},
        {"id": "empty", "covers": ["empty"], "call": "dedupe", "args": [[]]},
        {"id": "unique", "covers": ["no-duplicates"], "call": "dedupe",
         "args": [list(range(50))]},
        {"id": "strings", "covers": ["keeps-first"], "call": "dedupe",
         "args": [["b", "a", "b", "c", "a", ""]]},
        {"id": "numeric-equal", "covers": ["numeric-equality"], "call": "dedupe",
         "args": [[1, 1.0, True, 2.0, 2, 0, False, -0.0]]},
        {"id": "nan-twice", "covers": ["nan"], "call": "dedupe", "args": [[NAN, 1.5, NAN, 1.5]]},
        {"id": "tuples", "covers": ["tuples"], "call": "dedupe",
         "args": [[(1, 2), (2, 1), (1, 2), ("x",), ("x",)]]},
        {"id": "by-key", "covers": ["by-key", "no-mutation"], "call": "dedupe",
         "args": [[{"id": 1, "v": "a"}, {"id": 2, "v": "b"}, {"id": 1, "v": "c"}]],
         "kwargs": {"key": "id"}},
        {"id": "tuple-arg", "covers": ["not-a-list"], "call": "dedupe", "args": [(1, 2, 2)]},
        {"id": "string-arg", "covers": ["not-a-list"], "call": "dedupe", "args": ["aab"]},
        {"id": "missing-key", "covers": ["missing-key"], "call": "dedupe",
         "args": [[{"id": 1}, {"name": "x"}]], "kwargs": {"key": "id"}},
        {"id": "verbose", "covers": ["verbose"], "call": "dedupe",
         "args": [[5, 5, 6]], "kwargs": {"verbose": True}},
        {"id": "verbose-empty", "covers": ["verbose", "empty"], "call": "dedupe",
         "args": [[]], "kwargs": {"verbose": True}},
    ]
    for k in range(12):
        n = 20 + 37 * k
        out.append({"id": f"random-{k}", "covers": ["keeps-first", "no-mutation"],
                    "call": "dedupe", "args": [_ints(k, n, max(2, n // 3))]})
    for k in range(4):
        rng = random.Random(100 + k)
        recs = [{"id": rng.randrange(15), "n": i} for i in range(60)]
        out.append({"id": f"random-key-{k}", "covers": ["by-key"], "call": "dedupe",
                    "args": [recs], "kwargs": {"key": "id"}})
    return out


def timing_inputs():
    def make(n):
        def one(seed):
            return {"call": "dedupe", "args": [_ints(seed, n, n // 2)]}
        return one

    return [
        {"id": "n300", "size": 300, "make": make(300)},
        {"id": "n1500", "size": 1500, "make": make(1500)},
    ]
