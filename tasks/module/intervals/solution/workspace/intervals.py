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
    # sorted() is stable, like inserting after every interval that compares <=.
    ordered = sorted(_check(interval) for interval in intervals)
    merged = []
    append = merged.append
    for start, end in ordered:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            append((start, end))
    return merged
