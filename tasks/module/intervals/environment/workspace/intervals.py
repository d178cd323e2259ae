"""Merging closed intervals."""


def _check(interval):
    if not isinstance(interval, (list, tuple)) or len(interval) != 2:
        raise ValueError(f"interval must be a pair: {interval!r}")
    start, end = interval
    if start > end:
        raise ValueError(f"interval ends before it starts: {interval!r}")
    return start, end


def merge_intervals(intervals):
    """Merge overlapping or touching closed intervals.

    `intervals` is an iterable of (start, end) pairs (lists or tuples) with
    start <= end. Returns a list of (start, end) tuples sorted by start, where
    no two intervals overlap or touch. The input is not modified.

    Raises ValueError("interval must be a pair: ...") and
    ValueError("interval ends before it starts: ...") naming the first bad one.
    """
    ordered = []
    for interval in intervals:
        start, end = _check(interval)
        # Keep `ordered` sorted by inserting each interval after every one
        # that compares less or equal.
        pos = 0
        while pos < len(ordered) and ordered[pos] <= (start, end):
            pos += 1
        ordered.insert(pos, (start, end))
    merged = []
    for start, end in ordered:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
