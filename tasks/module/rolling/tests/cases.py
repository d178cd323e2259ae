"""Held-out cases and timing inputs for the rolling task."""

import numpy as np

NAN = float("nan")
INF = float("inf")


def _data(seed, n, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * 100 + 50).astype(dtype)


def cases():
    out = [
        {"id": "basic", "covers": ["means", "no-mutation"], "call": "rolling_mean",
         "args": [np.array([1.0, 2.0, 3.0, 4.0, 5.0]), 2]},
        {"id": "ints", "covers": ["float64"], "call": "rolling_mean",
         "args": [np.arange(10, dtype=np.int64), 3]},
        {"id": "int32", "covers": ["float64"], "call": "rolling_mean",
         "args": [np.arange(7, dtype=np.int32) * 3, 4]},
        {"id": "list", "covers": ["lists"], "call": "rolling_mean", "args": [[1, 2.5, 4, 8], 3]},
        {"id": "window-one", "covers": ["window-one"], "call": "rolling_mean",
         "args": [np.array([3.0, -0.0, 7.25]), 1]},
        {"id": "window-full", "covers": ["window-full"], "call": "rolling_mean",
         "args": [np.array([1.0, 2.0, 4.0]), 3]},
        {"id": "window-long", "covers": ["window-long"], "call": "rolling_mean",
         "args": [np.array([1.0, 2.0]), 5]},
        {"id": "empty-input", "covers": ["window-long"], "call": "rolling_mean",
         "args": [np.array([], dtype=np.float64), 1]},
        {"id": "nan-middle", "covers": ["nan", "no-mutation"], "call": "rolling_mean",
         "args": [np.array([1.0, 2.0, NAN, 4.0, 5.0, 6.0, 7.0]), 2]},
        {"id": "nan-start", "covers": ["nan"], "call": "rolling_mean",
         "args": [np.array([NAN, 1.0, 2.0, 3.0]), 3]},
        {"id": "inf", "covers": ["inf"], "call": "rolling_mean",
         "args": [np.array([1.0, INF, 2.0, 3.0, -INF, 4.0, 5.0]), 2]},
        {"id": "inf-cancel", "covers": ["inf"], "call": "rolling_mean",
         "args": [np.array([INF, -INF, 1.0, 1.0]), 2]},
        {"id": "window-zero", "covers": ["bad-window"], "call": "rolling_mean",
         "args": [np.array([1.0]), 0]},
        {"id": "window-negative", "covers": ["bad-window"], "call": "rolling_mean",
         "args": [[1.0, 2.0], -3]},
        {"id": "two-d", "covers": ["not-1d"], "call": "rolling_mean",
         "args": [np.ones((3, 3)), 2]},
    ]
    for k in range(12):
        n = 30 + 45 * k
        out.append({"id": f"random-{k}", "covers": ["means", "no-mutation"],
                    "call": "rolling_mean", "args": [_data(k, n), 1 + (k * 7) % 25]})
    for k in range(3):
        d = _data(50 + k, 200)
        d[[5 + k, 90, 150 - k]] = NAN
        out.append({"id": f"random-nan-{k}", "covers": ["nan"], "call": "rolling_mean",
                    "args": [d, 10 + k]})
    return out


def timing_inputs():
    def make(n, window):
        def one(seed):
            return {"call": "rolling_mean", "args": [_data(seed, n), window]}
        return one

    return [
        {"id": "n200-w10", "size": 200, "make": make(200, 10)},
        {"id": "n1000-w50", "size": 1000, "make": make(1000, 50)},
    ]
