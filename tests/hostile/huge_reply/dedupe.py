"""A reply too big for the evaluator to hold, in one item.

Two million small ints: 10 MB on the wire, under the cap on bytes, but one
Python object each once decoded, and a candidate may return as much for
every item of every case. The side is the reference everywhere else, and
returns it for an empty list: it must fail on that item, named, for the cap
on an item's size (task.toml [metadata.frontier] max_item_mb)."""


def dedupe(records, key=None, verbose=False):
    if not isinstance(records, list):
        raise TypeError("records must be a list")
    if not records:
        return list(range(1000, 2_001_000))
    kept = []
    seen_keys = []
    for record in records:
        k = record[key] if key is not None else record
        if k in seen_keys:
            continue
        seen_keys.append(k)
        kept.append(record)
    if verbose:
        print(f"dedupe: kept {len(kept)} of {len(records)} records")
    return kept
