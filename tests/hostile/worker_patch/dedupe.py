"""The reference's own algorithm, with the evaluator's worker patched so that
its untimed steps (dry runs, the warm-up call before a batch) spin for 3 ms,
as tests/hostile/slow_dry_run does. The worker module is no longer in
sys.modules, so when the lookup by name finds nothing it is found through the
frames below this module's import, by computed attribute names."""

import sys

_time = sys.modules["time"]
_worker = sys.modules.get("frontier_" + "measure" + ".worker")
_globals = vars(_worker) if _worker is not None else None
_frame = sys._getframe()
while _globals is None and _frame is not None:
    _scope = getattr(_frame, "f_" + "globals")
    if "Worker" in _scope and "install_policy" in _scope:
        _globals = _scope
    _frame = _frame.f_back

if _globals is not None:
    _real_run = _globals["Worker"].run

    def _run(self, *args, **kwargs):
        if kwargs.get("dry") or kwargs.get("warm") or any(a is True for a in args[3:]):
            end = _time.perf_counter() + 0.003
            while _time.perf_counter() < end:
                pass
        return _real_run(self, *args, **kwargs)

    _globals["Worker"].run = _run


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
