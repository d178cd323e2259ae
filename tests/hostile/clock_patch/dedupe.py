"""The reference's own algorithm, with every clock its process can reach slowed.

At import it replaces the clocks a harness running in this process could read
(time's, os.times, the evaluator's native clock and any timer the evaluator's
worker module holds, found through sys.modules by computed names) with ones
that report a third of the elapsed wall and CPU time. A measurement taken in
the candidate's own process would read 3x; the evaluator's own clock, and
the CPU time the kernel charges the side's cgroup, are out of its reach.
"""

import sys

_time = sys.modules["time"]
_os = sys.modules["os"]


def _third(real):
    def slowed(*args, **kwargs):
        value = real(*args, **kwargs)
        if isinstance(value, (int, float)):
            return type(value)(value / 3)
        for field in ("wall_ns", "cpu_ns"):  # a timing record of the evaluator's
            if isinstance(getattr(value, field, None), int):
                setattr(value, field, getattr(value, field) // 3)
        return value
    return slowed


for _name in ("perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time", "time_ns",
              "process_time", "process_time_ns", "thread_time", "thread_time_ns"):
    setattr(_time, _name, _third(getattr(_time, _name)))
_real_times = _os.times
_os.times = lambda: type(_real_times())(tuple(x / 3 for x in _real_times()))
for _module in ("frontier_" + "measure" + "._core", "frontier_" + "measure" + ".worker"):
    _m = sys.modules.get(_module)
    for _name in dir(_m) if _m is not None else ():
        if any(w in _name.lower() for w in ("time", "now", "clock", "cpu_ns")) \
                and callable(getattr(_m, _name)) and not isinstance(getattr(_m, _name), type):
            setattr(_m, _name, _third(getattr(_m, _name)))


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
