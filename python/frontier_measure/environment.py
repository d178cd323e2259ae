"""The machine a measurement is taken on, recorded with every result so any
number can be traced back to how it was measured."""

from __future__ import annotations

import os
import platform
import resource
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

# _core is imported where it is used: `import frontier_measure` (and so
# `frontier-measure --version`) must not load the native extension.


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _cpu_model() -> str:
    text = _read("/proc/cpuinfo") or ""
    for line in text.splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


# Reads per pass of the read-overhead measurement. The minimum over many short
# passes is the cost of a read: a pass preempted by another process is simply
# not the minimum. The core's default (5 passes of 2^20 reads, ~100 ms when
# idle) took seconds on a loaded machine, and there read high (106 ns against
# 28 ns from short passes at load 18), since every long pass was preempted.
_OVERHEAD_READS = 1 << 13
_OVERHEAD_CALLS = 4  # each call is the core's best of 5 passes


@lru_cache(maxsize=1)
def clock() -> dict[str, Any]:
    """Clock measurement: a few ms, once per process (cached)."""
    import time

    from . import _core

    source = _core.clocksource()
    return {
        "source": source,
        "available": _read("/sys/devices/system/clocksource/clocksource0/available_clocksource")
        or "",
        "resolution_ns": _core.clock_resolution_ns(),
        "reported_resolution_ns": time.clock_getres(time.CLOCK_MONOTONIC) * 1e9,
        "read_overhead_ns": min(_core.clock_overhead_ns(_OVERHEAD_READS)
                                for _ in range(_OVERHEAD_CALLS)),
        "warning": _core.clocksource_warning(source) or None,
    }


def counters() -> list[dict[str, Any]]:
    from . import _core

    names = list(_core.hardware_counters()) + list(_core.software_counters())
    return [v.to_dict() for v in _core.probe_counters(names)]


def capabilities() -> dict[str, Any]:
    """What this process may do: pin CPUs, switch accounts, limit processes."""
    from . import _core

    caps: dict[str, Any] = {}
    try:
        current = _core.get_affinity()
        granted = _core.set_affinity(current)
        caps["pin_cpus"] = bool(granted)
        caps["cpus_allowed"] = current
    except _core.IsolationError as exc:
        caps["pin_cpus"] = False
        caps["pin_cpus_reason"] = str(exc)
        caps["cpus_allowed"] = []
    is_root = os.geteuid() == 0
    caps["switch_users"] = is_root
    if not is_root:
        caps["switch_users_reason"] = "not running as root: sides run under this account"
    soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    # RLIMIT_NPROC binds only unprivileged accounts; root ignores it, so a
    # process limit is enforceable exactly when we can switch to another user
    # or are unprivileged ourselves.
    caps["limit_processes"] = True
    caps["limit_processes_note"] = (
        "enforced on the unprivileged account each side runs as"
        if is_root
        else "enforced on this account"
    )
    caps["nproc_limit"] = None if soft == resource.RLIM_INFINITY else soft
    del hard
    return caps


def _cgroups() -> dict[str, Any]:
    from .isolation import cgroups

    why_not = cgroups.unavailable_reason()
    if why_not is not None:
        return {"available": False, "reason": why_not}
    lay = cgroups.layout()
    return {"available": True, "v2": str(lay.v2) if lay.v2 else None,
            "v1": {c: str(p) for c, p in sorted(lay.v1.items())}}


def environment(*, include_counters: bool = True) -> dict[str, Any]:
    from . import _core

    env: dict[str, Any] = {
        "hostname": platform.node(),
        "platform": platform.platform(),
        "kernel": platform.release(),
        "machine": platform.machine(),
        "cpu_model": _cpu_model(),
        "cpus_online": _core.online_cpus(),
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "clock": clock(),
        "governor": _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        "aslr": _read("/proc/sys/kernel/randomize_va_space"),
        # Every measured command starts a session of its own (setsid); with
        # autogroup on, the scheduler shares the CPU between sessions first, so
        # a CPU hog in the caller's session barely slows the measured commands.
        "sched_autogroup": _read("/proc/sys/kernel/sched_autogroup_enabled"),
        "cgroups": _cgroups(),
        "perf_event_paranoid": _read("/proc/sys/kernel/perf_event_paranoid"),
        "load_average": list(os.getloadavg()),
        "capabilities": capabilities(),
        "versions": versions(),
    }
    if include_counters:
        env["counters"] = counters()
    return env


def versions() -> dict[str, str]:
    from . import __version__

    return {"frontier_measure": __version__, "numpy": _numpy_version()}


@lru_cache(maxsize=1)
def _numpy_version() -> str:
    # The installed version, read without importing numpy (half a second on a
    # busy machine) when nothing here has imported it yet.
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        return str(numpy.__version__)
    import importlib.util
    import re

    # numpy/version.py, read as text: importing it imports numpy, and the
    # package metadata is found by scanning every installed distribution.
    spec = importlib.util.find_spec("numpy")
    if spec is not None and spec.origin:
        text = _read(str(Path(spec.origin).with_name("version.py"))) or ""
        found = re.search(r"""^version\s*=\s*["']([^"']+)["']""", text, re.M)
        if found:
            return found.group(1)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numpy")
    except PackageNotFoundError:
        return "not installed"
