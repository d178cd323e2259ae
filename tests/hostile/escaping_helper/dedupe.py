"""The reference's own algorithm, plus a helper that loads the CPU while the
other side is timed.

At import it starts a child that leaves the worker's process group and
session (setsid) and watches the worker: while the worker is stopped (the
other side's turn, where the idle side is stopped by a signal to its process
group) the child spins on the CPU both sides share; while the worker runs, it
sleeps. The unchanged candidate then looks faster. In a cgroup the child is
frozen with its side and never sees the other side's turn.
"""

import os
import time

# A copy of the module's namespace: lookups in it are in a plain dict, which
# source inspection cannot follow; the worker's audit hook sees the fork.
_os = dict(vars(os).items())

if os.environ.get("FM_HOSTILE_HELPER") is None:
    os.environ["FM_HOSTILE_HELPER"] = "1"
    _worker = os.getpid()
    if _os["fork"]() == 0:
        _os["setsid"]()
        _stat = f"/proc/{_worker}/stat"
        while True:
            try:
                with open(_stat) as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except OSError:
                _os["_exit"](0)  # the worker is gone
            if state in ("T", "t"):
                for _ in range(20000):  # the other side is being timed: compete with it
                    pass
            else:
                time.sleep(0.0002)


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
