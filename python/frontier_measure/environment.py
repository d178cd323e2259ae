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

from . import _core


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


@lru_cache(maxsize=1)
def clock() -> dict[str, Any]:
    """Clock measurement (cached: measuring the read overhead takes ~50 ms)."""
    info = _core.clock_info()
    return {
        "source": info.clocksource,
        "available": info.available,
        "resolution_ns": info.resolution_ns,
        "reported_resolution_ns": info.reported_ns,
        "read_overhead_ns": info.overhead_ns,
        "warning": info.warning or None,
    }


def counters() -> list[dict[str, Any]]:
    names = list(_core.hardware_counters()) + list(_core.software_counters())
    return [v.to_dict() for v in _core.probe_counters(names)]


def capabilities() -> dict[str, Any]:
    """What this process may do: pin CPUs, switch accounts, limit processes."""
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
    import numpy

    from . import __version__

    return {"frontier_measure": __version__, "numpy": numpy.__version__}
