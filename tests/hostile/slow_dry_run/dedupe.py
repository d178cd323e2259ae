"""The reference's own algorithm, with every untimed step of its worker made slow.

A timed batch is charged what the measurement path costs, measured by a dry run
(the same request with the calls replaced by a no-op). At import this candidate
finds the evaluator's worker through sys.modules (by a computed name) and wraps
the method that runs requests: a dry run, and the warm-up call before each
batch, first spin for 3 ms. Were a side's own dry runs taken as its path, its
batches would be charged 3 ms each that they never paid, and an unchanged
algorithm would read many times faster; the evaluator charges both sides the
reference's dry runs, and a warm-up call is never timed, so this buys nothing.
"""

import sys

_time = sys.modules["time"]
_worker = sys.modules.get("frontier_" + "measure" + ".worker")
if _worker is not None:
    _real_run = _worker.Worker.run

    def _run(self, *args, **kwargs):
        if kwargs.get("dry") or kwargs.get("warm") or any(a is True for a in args[3:]):
            end = _time.perf_counter() + 0.003
            while _time.perf_counter() < end:
                pass
        return _real_run(self, *args, **kwargs)

    _worker.Worker.run = _run


def dedupe(records, key=None, verbose=False):
    if not isinstance(records, list):
        raise TypeError("records must be a list")
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
