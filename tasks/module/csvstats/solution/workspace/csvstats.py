"""Per-column statistics of simple comma-separated text."""


def column_stats(text):
    """Statistics of every column of `text`.

    The first line is the header (names separated by commas). Each later
    non-blank line has one field per column; an empty field is a missing value.
    Fields are stripped of surrounding spaces. Returns {name: {"count", "sum",
    "min", "max", "mean"}} in header order; a column without values has count
    0, sum 0.0 and None for min, max and mean. Sums add values in line order.

    Raises ValueError("empty input") without a header,
    ValueError("line N: expected W fields, got M") for a ragged line and
    ValueError("line N: column 'c': not a number: 'x'") for a bad cell; columns
    are checked one after another, so the first column's first problem wins.
    """
    if not text.strip():
        raise ValueError("empty input")
    lines = text.split("\n")
    header = [h.strip() for h in lines[0].split(",")]
    width = len(header)
    columns = [[] for _ in header]
    ragged = None  # (line number, field count) of the first ragged line
    bad = [None] * width  # first unparsable cell per column: (line number, cell)
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split(",")
        if len(fields) != width:
            if ragged is None:
                ragged = (number, len(fields))
            continue
        for i, raw in enumerate(fields):
            cell = raw.strip()
            if cell == "":
                continue
            try:
                columns[i].append(float(cell))
            except ValueError:
                if bad[i] is None:
                    bad[i] = (number, cell)
    # Report the error the column-by-column reading would meet first: in the
    # first column's pass, a ragged line or a bad cell, whichever comes first;
    # later columns are only read when no line is ragged.
    if ragged is not None:
        if bad[0] is not None and bad[0][0] < ragged[0]:
            _bad_cell(header[0], *bad[0])
        raise ValueError(f"line {ragged[0]}: expected {width} fields, got {ragged[1]}")
    for i, found in enumerate(bad):
        if found is not None:
            _bad_cell(header[i], *found)
    stats = {}
    for name, values in zip(header, columns, strict=True):
        total = 0.0
        for v in values:
            total += v
        n = len(values)
        stats[name] = {
            "count": n,
            "sum": total,
            "min": min(values) if values else None,
            "max": max(values) if values else None,
            "mean": total / n if n else None,
        }
    return stats


def _bad_cell(name, number, cell):
    raise ValueError(f"line {number}: column {name!r}: not a number: {cell!r}")
