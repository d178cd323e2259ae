"""Markers that skip, with the reason, where this machine cannot run a test.
CI installs and starts everything (scripts/setup.sh --with all, scripts/services.sh), so
there these tests run."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest


@cache
def _docker_reason() -> str | None:
    if shutil.which("docker") is None:
        return "docker client not installed (scripts/setup.sh --with docker installs docker.io)"
    try:
        r = subprocess.run(["docker", "info"], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"docker info failed: {exc}"
    if r.returncode != 0:
        return "no Docker engine answering (scripts/services.sh starts dockerd)"
    return None


@cache
def _perf_reason() -> str | None:
    from frontier_measure import _core

    v = _core.probe_counters(["task-clock"])[0]
    return None if v.available else f"perf_event_open unusable: {v.reason}"


def _skip_reason(marker: str) -> str | None:
    if marker == "full":
        return None if os.environ.get("FM_FULL") == "1" else (
            "in the full run only (FM_FULL=1): CI runs a representative slice of the heavy suites")
    if marker == "needs_root":
        return None if os.geteuid() == 0 else "needs root"
    if marker == "needs_docker":
        return _docker_reason()
    if marker == "needs_qemu":
        return None if shutil.which("qemu-riscv64-static") else "qemu-riscv64-static not installed"
    if marker == "needs_zig":
        return None if importlib.util.find_spec("ziglang") else "ziglang package not installed"
    if marker == "needs_perf":
        return _perf_reason()
    if marker == "needs_riscv_gcc":
        return None if shutil.which("riscv64-unknown-elf-gcc") else (
            "riscv64-unknown-elf-gcc not installed "
            "(scripts/setup.sh --with riscv installs gcc-riscv64-unknown-elf)")
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers():
        reason = _skip_reason(mark.name)
        if reason:
            pytest.skip(reason)


def _mounts_below(base: str) -> set[str]:
    try:
        lines = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return set()
    points = (line.split()[1].replace("\\040", " ") for line in lines)
    return {m for m in points if m == base or m.startswith(base + "/")}


@pytest.fixture(autouse=True)
def _nothing_left_mounted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A test unmounts what it mounted (as root, checkouts are overlay mounts under
    pytest's temporary directory; one left there makes its cleanup fail). What is
    left is unmounted, and the test fails."""
    if os.geteuid() != 0:
        yield
        return
    base = str(tmp_path_factory.getbasetemp().resolve())
    before = _mounts_below(base)
    yield
    left = sorted(_mounts_below(base) - before, key=len, reverse=True)
    for m in left:
        subprocess.run(["umount", "-l", m], capture_output=True)
    if left:
        pytest.fail(f"left mounted after the test: {', '.join(reversed(left))}")


# The suite's own measurement lock (lock.py), unless the caller names one: the
# machine-wide lock would make the suite's timing tests queue behind every
# evaluation anyone else runs here (one waited out a 900 s timeout). The suite's
# evaluations still exclude each other, also across xdist workers, which inherit
# this environment. Tests of the lock itself set their own.
_PRIVATE_LOCK = f"/tmp/frontier-measure-test-lock-{os.getpid()}"
os.environ.setdefault("FM_MEASUREMENT_LOCK", _PRIVATE_LOCK)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("FM_MEASUREMENT_LOCK") == _PRIVATE_LOCK:
        Path(_PRIVATE_LOCK).unlink(missing_ok=True)
