"""Order-preserving de-duplication of records (a slower rewrite)."""


def dedupe(records, key=None, verbose=False):
    if not isinstance(records, list):
        raise TypeError("records must be a list")
    kept = []
    for i, record in enumerate(records):
        k = record[key] if key is not None else record
        # Looks at every earlier record again: as quadratic as the reference,
        # with more work per step.
        if any((r[key] if key is not None else r) == k for r in records[:i]):
            continue
        kept.append(record)
    if verbose:
        print(f"dedupe: kept {len(kept)} of {len(records)} records")
    return kept
