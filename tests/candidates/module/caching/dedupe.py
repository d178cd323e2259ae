"""Order-preserving de-duplication of records, with a "result cache".

Large inputs are remembered by their length, so a repeated call returns at
once: the kind of cache that pays off only when the same call is timed over
and over, and returns stale results otherwise.
"""

_cache = {}


def dedupe(records, key=None, verbose=False):
    if not isinstance(records, list):
        raise TypeError("records must be a list")
    fingerprint = (len(records), key)
    if len(records) >= 200 and fingerprint in _cache and not verbose:
        return list(_cache[fingerprint])
    kept = []
    seen = set()
    for record in records:
        k = record[key] if key is not None else record
        if k not in seen:
            seen.add(k)
            kept.append(record)
    if verbose:
        print(f"dedupe: kept {len(kept)} of {len(records)} records")
    if len(records) >= 200:
        _cache[fingerprint] = list(kept)
    return kept
