"""Order-preserving de-duplication of records."""


def dedupe(records, key=None, verbose=False):
    """Return `records` without duplicates, keeping the first occurrence of each.

    Records are hashable values, or dicts when `key` names the field that
    identifies a record. The input list is not modified. With `verbose`, one
    line reports how many records were dropped.

    Raises TypeError("records must be a list") when `records` is not a list and
    KeyError(key) when a record lacks the key field.
    """
    if not isinstance(records, list):
        raise TypeError("records must be a list, got " + type(records).__name__)
    kept = []
    seen = set()
    add = seen.add
    append = kept.append
    if key is None:
        for record in records:
            if record not in seen:
                add(record)
                append(record)
    else:
        for record in records:
            k = record[key]
            if k not in seen:
                add(k)
                append(record)
    if verbose:
        print(f"dedupe: kept {len(kept)} of {len(records)} records")
    return kept
