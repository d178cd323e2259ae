"""Time overhead per command of each isolation backend against a bare
fork/exec of the same command, measured side by side in one run (the ways of
running are interleaved round by round, so machine drift hits all alike).

    .venv/bin/python bench/isolation_overhead.py [--rounds 40] [--command /bin/true]

Columns: the median wall time per command seen by the evaluator (everything
the backend does: for the local backend a new sandbox per command, its init,
the system-call filter, the cgroup readings; for Docker the exec through the
engine and the timing wrapper), the ratio to bare
fork/exec, and the command's own wall time as the backend measures it (the
value that goes into a timing round).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from frontier_measure import _core, isolation


def bare(argv: list[str], cpus: list[int] | None = None) -> tuple[int, int]:
    s = _core.ProcessSpec()
    s.argv = argv
    if cpus:
        s.cpus = cpus
    t0 = time.perf_counter_ns()
    r = _core.run_process(s)
    return time.perf_counter_ns() - t0, r.wall_ns


def via(backend: isolation.Backend, argv: list[str]) -> tuple[int, int]:
    t0 = time.perf_counter_ns()
    r = backend.run("candidate", argv)
    return time.perf_counter_ns() - t0, r.wall_ns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--command", default="/bin/true")
    args = ap.parse_args()
    argv = args.command.split()
    # The backends pin each side to one CPU; a pinned bare run separates that
    # cost (on a busy machine the chosen CPU may have to be waited for) from
    # the rest of the backend's work.
    pinned = isolation.Policy().cpus
    ways: dict[str, object] = {"bare fork/exec": None}
    if pinned:
        ways["bare, pinned"] = "pinned"
    # The local backend as it runs (a sandbox made for every command), and as
    # it runs where bubblewrap is missing: one launcher per side and
    # evaluation, no namespaces, the cost of the sandbox per command side by side.
    backends: list[isolation.Backend] = [isolation.LocalBackend(),
                                         isolation.LocalBackend(sandboxed=False)]
    try:
        backends.append(isolation.DockerBackend())
    except _core.IsolationError as exc:
        print(f"docker backend skipped: {exc}")
    for b in backends:
        fresh = getattr(b, "sandboxed", True)
        ways[f"{b.name} backend" + ("" if fresh else ", no sandbox")] = b
    samples: dict[str, list[tuple[int, int]]] = {k: [] for k in ways}

    def run(way: object) -> tuple[int, int]:
        if way is None:
            return bare(argv)
        if way == "pinned":
            return bare(argv, pinned)
        assert isinstance(way, isolation.Backend)
        return via(way, argv)

    try:
        for b in ways.values():  # warm-up
            for _ in range(3):
                run(b)
        for i in range(args.rounds):
            order = list(ways.items())
            if i % 2:
                order.reverse()
            for k, b in order:
                samples[k].append(run(b))
    finally:
        for b in backends:
            b.close()
    base = statistics.median(s[0] for s in samples["bare fork/exec"])
    print(f"command: {args.command}   rounds: {args.rounds}   root: {isolation.is_root()}   "
          f"load average: {os.getloadavg()[0]:.2f}")
    print(f"{'way':<28} {'per command (ms)':>17} {'x bare':>8} {'overhead (ms)':>14} "
          f"{'own wall (ms)':>14}")
    for k, vals in samples.items():
        host = statistics.median(v[0] for v in vals)
        own = statistics.median(v[1] for v in vals)
        print(f"{k:<28} {host / 1e6:>17.2f} {host / base:>8.1f} {(host - base) / 1e6:>14.2f} "
              f"{own / 1e6:>14.2f}")


if __name__ == "__main__":
    main()
