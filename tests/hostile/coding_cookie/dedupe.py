# -*- coding: utf-7 -*-
"""Looks like the reference with a comment; Python, decoding UTF-7 as the
cookie says, reads a second line inside the comment: an import of os."""


def dedupe(records, key=None, verbose=False):
    # harmless +AAo-    import os as _o
    if not isinstance(records, list):
        raise TypeError("records must be a list")
    kept = []
    seen = []
    for record in records:
        k = record[key] if key is not None else record
        if k in seen:
            continue
        seen.append(k)
        kept.append(record)
    if verbose:
        print(f"dedupe: kept {len(kept)} of {len(records)} records")
    return kept
