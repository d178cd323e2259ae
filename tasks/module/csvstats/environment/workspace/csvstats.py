"""Per-column statistics of simple comma-separated text."""


def _column(text, index, name, width):
    """Values of one column, parsed from the whole text."""
    values = []
    lines = text.split("\n")
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != width:
            raise ValueError(f"line {number}: expected {width} fields, got {len(fields)}")
        cell = fields[index]
        if cell == "":
            continue
        try:
            values.append(float(cell))
        except ValueError:
            raise ValueError(
                f"line {number}: column {name!r}: not a number: {cell!r}") from None
    return values


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
    header = [h.strip() for h in text.split("\n")[0].split(",")]
    stats = {}
    for index, name in enumerate(header):
        values = _column(text, index, name, len(header))
        total = 0.0
        for v in values:
            total += v
        stats[name] = {
            "count": len(values),
            "sum": total,
            "min": min(values) if values else None,
            "max": max(values) if values else None,
            "mean": total / len(values) if values else None,
        }
    return stats
