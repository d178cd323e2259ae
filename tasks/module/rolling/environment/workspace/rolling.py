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
    out = np.empty(max(count, 0), dtype=np.float64)
    for i in range(max(count, 0)):
        out[i] = np.mean(data[i:i + window])
    return out
