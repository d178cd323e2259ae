"""Imports `json`, which the task does not forbid as a name: but the
candidate's own json/ directory is what would be imported, shadowing the
standard library for everything else in the side's process."""

import json


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
        print(json.dumps({"kept": len(kept), "total": len(records)}))
    return kept
