"""Order-preserving de-duplication of records."""

import importlib

_collections = importlib.import_module("collec" + "tions")


def dedupe(records, key=None, verbose=False):
    if not isinstance(records, list):
        raise TypeError("records must be a list")
    seen = _collections.OrderedDict()
    for record in records:
        k = record[key] if key is not None else record
        if k not in seen:
            seen[k] = record
    kept = list(seen.values())
    if verbose:
        print(f"dedupe: kept {len(kept)} of {len(records)} records")
    return kept
