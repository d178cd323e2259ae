"""Held-out cases and timing inputs for the intervals task."""

import random


def _ivs(seed, n, span, as_list=True):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s = rng.randrange(span)
        e = s + rng.randrange(span // 50 + 1)
        out.append([s, e] if as_list else (s, e))
    return out


def cases():
    out = [
        {"id": "overlap", "covers": ["merge-overlap", "no-mutation"], "call": "merge_intervals",
         "args": [[[1, 3], [2, 6], [8, 10], [15, 18]]]},
        {"id": "touch", "covers": ["merge-touch"], "call": "merge_intervals",
         "args": [[[1, 2], [2, 3], [4, 5]]]},
        {"id": "contained", "covers": ["contained"], "call": "merge_intervals",
         "args": [[[1, 10], [2, 3], [4, 5], [11, 12]]]},
        {"id": "unsorted", "covers": ["sorted", "no-mutation"], "call": "merge_intervals",
         "args": [[[9, 12], [1, 2], [5, 6], [0, 1]]]},
        {"id": "tuples-in", "covers": ["tuples", "iterables"], "call": "merge_intervals",
         "args": [((3, 4), (1, 2))]},
        {"id": "points", "covers": ["points"], "call": "merge_intervals",
         "args": [[[5, 5], [5, 5], [1, 1], [1, 2], [7, 7]]]},
        {"id": "mixed", "covers": ["mixed-numbers"], "call": "merge_intervals",
         "args": [[[1.0, 2], [1, 3.5], [0.5, 0.75], [3.5, 4]]]},
        {"id": "negative", "covers": ["sorted"], "call": "merge_intervals",
         "args": [[[-5, -1], [-2, 0], [-10, -8]]]},
        {"id": "empty", "covers": ["empty"], "call": "merge_intervals", "args": [[]]},
        {"id": "triple", "covers": ["not-pair"], "call": "merge_intervals",
         "args": [[[1, 2], [1, 2, 3]]]},
        {"id": "scalar", "covers": ["not-pair"], "call": "merge_intervals", "args": [[[1, 2], 5]]},
        {"id": "reversed", "covers": ["reversed"], "call": "merge_intervals",
         "args": [[[1, 2], [4, 3]]]},
        {"id": "two-bad", "covers": ["first-error"], "call": "merge_intervals",
         "args": [[[0, 1], [9, 2], [7]]]},
        {"id": "two-bad-other", "covers": ["first-error"], "call": "merge_intervals",
         "args": [[[0, 1], (3,), [9, 2]]]},
    ]
    for k in range(14):
        n = 5 + 25 * k
        out.append({"id": f"random-{k}", "covers": ["merge-overlap", "sorted", "no-mutation"],
                    "call": "merge_intervals", "args": [_ivs(k, n, 40 + 60 * k, k % 2 == 0)]})
    return out


def timing_inputs():
    def make(n):
        def one(seed):
            return {"call": "merge_intervals", "args": [_ivs(seed, n, 20 * n)]}
        return one

    return [
        {"id": "n200", "size": 200, "make": make(200)},
        {"id": "n500", "size": 500, "make": make(500)},
    ]
