"""Resource limits and live usage of a running attempt.

Two things use resources while an attempt runs, and both are read from the
kernel, never from what the agent says:

* its container (isolation = "docker"): found through Docker's API by the
  labels the runner gives it (the database's label and the attempt's id); the
  limits are the container's (CPUs, memory, pids), the usage is read from its
  cgroup's files (cpu.stat, memory.current, pids.current: cgroup v2, or the v1
  controllers), and from Docker's stats call when those files are out of reach;
* the agent's own processes on the host: the session the command agent starts
  (its leader is recorded in agent/agent.pid), summed over /proc.

CPU use is a rate, so a probe keeps its previous reading: the first sample of a
probe has no CPU percentage.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..platform import checkout as co

CGROUP_ROOT = Path("/sys/fs/cgroup")
_PAGE = os.sysconf("SC_PAGE_SIZE")
_TICKS = os.sysconf("SC_CLK_TCK")


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _int(text: str | None) -> int | None:
    """An integer from a cgroup file; "max" (no limit) and absence are None."""
    if text is None or text == "max":
        return None
    try:
        return int(text.split()[0])
    except (ValueError, IndexError):
        return None


def _stat_field(text: str | None, key: str) -> int | None:
    for line in (text or "").splitlines():
        k, _, v = line.partition(" ")
        if k == key:
            return _int(v)
    return None


# ---------------------------------------------------------------- cgroups


def cgroup_dirs(pid: int, root: Path = CGROUP_ROOT) -> dict[str, Path]:
    """The cgroup directories of a process: "" -> its v2 cgroup, and per v1
    controller (cpuacct, memory, pids, cpu) its directory in that hierarchy."""
    text = _read(Path(f"/proc/{pid}/cgroup"))
    out: dict[str, Path] = {}
    for line in (text or "").splitlines():
        _id, controllers, path = line.split(":", 2)
        rel = path.lstrip("/")
        if controllers == "":
            if (root / "cgroup.controllers").exists():
                out[""] = root / rel
            continue
        for c in controllers.split(","):
            base = root / c
            if not base.is_dir():  # a joint mount such as cpu,cpuacct
                base = root / controllers
            out[c.removeprefix("name=")] = base / rel
    return out


def read_cgroup(dirs: dict[str, Path]) -> dict[str, int | None]:
    """CPU time (ns), memory (bytes: now, peak, limit), pids (now, limit), CPU quota."""
    if "" in dirs and (dirs[""] / "cpu.stat").exists():
        d = dirs[""]
        usec = _stat_field(_read(d / "cpu.stat"), "usage_usec")
        quota = (_read(d / "cpu.max") or "max").split()
        return {"cpu_ns": None if usec is None else usec * 1000,
                "memory": _int(_read(d / "memory.current")),
                "memory_peak": _int(_read(d / "memory.peak")),
                "memory_limit": _int(_read(d / "memory.max")),
                "pids": _int(_read(d / "pids.current")),
                "pids_limit": _int(_read(d / "pids.max")),
                "cpu_quota_us": _int(quota[0]) if quota else None,
                "cpu_period_us": _int(quota[1]) if len(quota) > 1 else None}
    mem = dirs.get("memory")
    limit = _int(_read(mem / "memory.limit_in_bytes")) if mem else None
    cpu = dirs.get("cpu")
    return {"cpu_ns": _int(_read(dirs["cpuacct"] / "cpuacct.usage")) if "cpuacct" in dirs else None,
            "memory": _int(_read(mem / "memory.usage_in_bytes")) if mem else None,
            "memory_peak": _int(_read(mem / "memory.max_usage_in_bytes")) if mem else None,
            # v1 says "no limit" with a huge number (a page-rounded LONG_MAX).
            "memory_limit": limit if limit is not None and limit < 1 << 60 else None,
            "pids": _int(_read(dirs["pids"] / "pids.current")) if "pids" in dirs else None,
            "pids_limit": _int(_read(dirs["pids"] / "pids.max")) if "pids" in dirs else None,
            "cpu_quota_us": (q if (q := _int(_read(cpu / "cpu.cfs_quota_us")) if cpu else None)
                             and q > 0 else None),
            "cpu_period_us": _int(_read(cpu / "cpu.cfs_period_us")) if cpu else None}


@dataclass
class _Rate:
    """CPU use as a share of one CPU, from successive readings of a CPU-time counter."""

    last: tuple[float, int] | None = None

    def update(self, cpu_ns: int | None) -> float | None:
        if cpu_ns is None:
            return None
        now = time.monotonic()
        prev, self.last = self.last, (now, cpu_ns)
        if prev is None or now <= prev[0] or cpu_ns < prev[1]:
            return None
        return (cpu_ns - prev[1]) / 1e9 / (now - prev[0]) * 100.0


# ---------------------------------------------------------------- the container


def _docker_client() -> Any:
    import docker  # the docker extra

    return docker.from_env(timeout=10)


@dataclass
class ContainerProbe:
    """The container of one attempt generation, found by its labels."""

    label: str  # runner.db_label of the database
    attempt_id: int
    _client: Any = None
    _container: Any = None
    _dirs: dict[str, Path] = field(default_factory=dict)
    _rate: _Rate = field(default_factory=_Rate)

    def _find(self) -> Any:
        if self._client is None:
            self._client = _docker_client()
        found = self._client.containers.list(filters={"label": [
            f"{co.LABEL}={self.label}", f"{co.LABEL}.attempt={self.attempt_id}"]})
        return found[0] if found else None

    def sample(self) -> dict[str, Any] | None:
        """Limits and usage now; None when the attempt has no container (now)."""
        try:
            if self._container is None:
                self._container = self._find()
                if self._container is None:
                    return None
                pid = int(self._container.attrs.get("State", {}).get("Pid") or 0)
                self._dirs = cgroup_dirs(pid) if pid else {}
            return self._sample()
        except ImportError:
            return {"error": "the docker SDK is not installed (pip install 'frontier-measure[docker]')"}
        except Exception as exc:  # docker.errors.*, a container that went away
            self._container = None
            if type(exc).__name__ in ("NotFound", "APIError"):
                return None
            return {"error": f"{type(exc).__name__}: {exc}"}

    def _sample(self) -> dict[str, Any]:
        c = self._container
        host = c.attrs.get("HostConfig", {})
        nano = host.get("NanoCpus") or 0
        quota, period = host.get("CpuQuota") or 0, host.get("CpuPeriod") or 0
        limits = {"cpus": nano / 1e9 if nano else quota / period if quota and period else None,
                  "memory": host.get("Memory") or None,
                  "pids": host.get("PidsLimit") if (host.get("PidsLimit") or 0) > 0 else None}
        usage = read_cgroup(self._dirs) if self._dirs else {}
        source = "cgroup"
        if usage.get("cpu_ns") is None and usage.get("memory") is None:
            usage, source = self._api_stats(), "docker stats"
        return {"kind": "container", "id": c.short_id, "name": c.name,
                "image": (c.attrs.get("Config") or {}).get("Image"), "source": source,
                "limits": limits, "cpu_percent": self._rate.update(usage.get("cpu_ns")),
                "memory": usage.get("memory"), "memory_peak": usage.get("memory_peak"),
                "pids": usage.get("pids")}

    def _api_stats(self) -> dict[str, int | None]:
        s = self._container.stats(stream=False, one_shot=True)
        return {"cpu_ns": (s.get("cpu_stats") or {}).get("cpu_usage", {}).get("total_usage"),
                "memory": (s.get("memory_stats") or {}).get("usage"),
                "memory_peak": (s.get("memory_stats") or {}).get("max_usage"),
                "pids": (s.get("pids_stats") or {}).get("current")}


# ---------------------------------------------------------------- the agent's session


@dataclass
class SessionProbe:
    """The agent's processes on the host: every process in the session whose
    leader agent/agent.pid records (while that leader is the recorded process)."""

    pid_file: Path
    _rate: _Rate = field(default_factory=_Rate)

    def sample(self) -> dict[str, Any] | None:
        try:
            pid_s, start = self.pid_file.read_text().split()
            sid = int(pid_s)
        except (OSError, ValueError):
            return None
        if co.process_start(sid) != start:
            return None
        processes, cpu_ticks, rss = 0, 0, 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                # After the command name: state ppid pgrp session ... utime(12) stime(13) ... rss(22)
                if int(fields[3]) == sid:
                    processes += 1
                    cpu_ticks += int(fields[11]) + int(fields[12])
                    rss += int(fields[21]) * _PAGE
        if not processes:
            return None
        return {"kind": "session", "pid": sid, "processes": processes, "memory": rss,
                "cpu_percent": self._rate.update(cpu_ticks * 1_000_000_000 // _TICKS)}


@dataclass
class AttemptProbe:
    """Everything one attempt generation uses, sampled together."""

    label: str
    attempt_id: int
    pid_file: Path
    container: ContainerProbe = field(init=False)
    session: SessionProbe = field(init=False)

    def __post_init__(self) -> None:
        self.container = ContainerProbe(self.label, self.attempt_id)
        self.session = SessionProbe(self.pid_file)

    def sample(self) -> dict[str, Any]:
        return {"at": time.time(), "host_cpus": os.cpu_count(),
                "container": self.container.sample(), "session": self.session.sample()}
