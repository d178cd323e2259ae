"""Rolling statistics over one-dimensional numeric data."""

import numpy as np


def rolling_mean(values, window):
    """Mean of each run of `window` consecutive values, as a float64 array of
    length len(values) - window + 1 (empty when the window is longer than the
    data). A window holding a NaN has a NaN mean.

    Raises ValueError("window must be positive") and
    ValueError("values must be one-dimensional").
    """
    data = np.asarray(values, dtype=np.float64)
    if data.ndim != 1:
        raise ValueError("values must be one-dimensional")
    if window <= 0:
        raise ValueError("window must be positive")
    count = len(data) - window + 1
    if count <= 0:
        return np.empty(0, dtype=np.float64)
    # Running sums: O(n) instead of O(n * window). Windows with a non-finite
    # value are recomputed directly, so NaN/inf do not leak into later windows.
    finite = np.isfinite(data)
    clean = np.where(finite, data, 0.0)
    csum = np.concatenate(([0.0], np.cumsum(clean)))
    out = (csum[window:] - csum[:-window]) / window
    bad = np.concatenate(([0], np.cumsum(~finite)))
    hit = (bad[window:] - bad[:-window]) > 0
    for i in np.flatnonzero(hit):
        out[i] = np.mean(data[i:i + window])
    return out
