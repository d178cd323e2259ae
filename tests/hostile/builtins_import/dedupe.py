"""Reaches a forbidden module through the builtins mapping, by subscript."""

_os = __builtins__["__import__"]("os") if isinstance(__builtins__, dict) else None


def dedupe(records, key=None, verbose=False):
    if not isinstance(records, list):
        raise TypeError("records must be a list")
    kept, seen = [], []
    for record in records:
        k = record[key] if key is not None else record
        if k in seen:
            continue
        seen.append(k)
        kept.append(record)
    if verbose:
        print(f"dedupe: kept {len(kept)} of {len(records)} records")
    return kept
